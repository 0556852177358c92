// Playing comforts: premove, sounds, the tab's mark, settings (colours, board theme and size),
// the capture chooser on a phone, and the engine's view with its bar, arrows and graph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, openGameAs, boardData, stateOf,
} from './harness.mjs';

const site = useSite();

// A friend game with both seats taken, White's page and Black's page open.
async function friendGame() {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'friend', color: 'white', name: 'Anna' });
  const invite = created.invite_url.split('/').pop();
  const joined = await api(site.server.url, 'POST', '/api/games/' + created.id + '/join', { invite, name: 'Boris' });
  const white = await newPage(site.browser);
  const black = await newPage(site.browser);
  await openGameAs(white.page, site.server.url, created);
  await openGameAs(black.page, site.server.url, { id: created.id, token: joined.token, seat: 'black' });
  return { created, joined, white, black };
}

// Counts the `play` events of the page's sound elements.
async function countSounds(page) {
  await page.evaluate(() => {
    window.__played = [];
    for (const a of document.querySelectorAll('#sounds audio')) {
      a.addEventListener('play', () => window.__played.push(a.id));
    }
  });
}

test('a premove is played when the turn comes; a click cancels another', async () => {
  const { white, black } = await friendGame();
  try {
    // Black picks f6-g5 while White is to move.
    assert.equal((await boardData(black.page)).canMove, 'false');
    await black.page.click('[data-square="f6"]');
    await black.page.click('[data-square="g5"]');
    assert.equal((await boardData(black.page)).premove, 'f6-g5');
    assert.equal(await black.page.locator('.mark-premove').count(), 2);
    // White moves; Black's premove follows by itself.
    await white.page.click('[data-square="c3"]');
    await white.page.click('[data-square="d4"]');
    await black.page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '2');
    const st = await stateOf(black.page, site.server.url);
    assert.deepEqual(st.moves.map((m) => m.text), ['c3-d4', 'f6-g5']);
    assert.equal((await boardData(black.page)).premove, '');

    // White sets a premove and cancels it with a click on the board.
    await white.page.waitForFunction(() => document.querySelector('svg.board')?.dataset.canMove === 'true');
    await white.page.click('[data-square="b2"]');
    await white.page.click('[data-square="c3"]');
    // It was White's turn: that was a move, not a premove.
    await white.page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '3');
    await white.page.click('[data-square="g3"]');
    await white.page.click('[data-square="h4"]');
    assert.equal((await boardData(white.page)).premove, 'g3-h4');
    await white.page.click('[data-square="a7"]');
    assert.equal((await boardData(white.page)).premove, '', 'a click cancels the premove');
    await black.page.click('[data-square="g7"]');
    await black.page.click('[data-square="f6"]');
    await white.page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '4');
    await white.page.waitForTimeout(300);
    assert.equal((await stateOf(white.page, site.server.url)).moves.length, 4, 'the cancelled premove was not played');
  } finally {
    await white.context.close();
    await black.context.close();
  }
});

test('sounds play for a move and the end, can be turned off, and the choice is kept', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'russian', mode: 'local', position: 'W:Wc3:Be5' });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    await countSounds(page);
    await page.click('[data-square="c3"]');
    await page.click('[data-square="d4"]');
    await page.waitForFunction(() => window.__played.includes('sound-move'));
    // Sounds off, kept after a reload.
    await page.click('#settings summary');
    await page.uncheck('#setting-sound');
    await page.reload();
    await page.waitForSelector('svg.board[data-version]');
    assert.equal(await page.isChecked('#setting-sound'), false);
    await countSounds(page);
    await page.click('[data-square="e5"]');
    await page.click('[data-square="c3"]');
    await page.waitForSelector('#result:not([hidden])');
    await page.waitForTimeout(200);
    assert.deepEqual(await page.evaluate(() => window.__played), [], 'no sound when turned off');
    // On again: the end of the next game sounds.
    await page.click('#settings summary');
    await page.check('#setting-sound');
    const second = await api(site.server.url, 'POST', '/api/games', { variant: 'russian', mode: 'local', position: 'W:Wc3:Bd4' });
    await openGameAs(page, site.server.url, second);
    await countSounds(page);
    await page.click('[data-square="c3"]');
    await page.click('[data-square="e5"]');
    await page.waitForFunction(() => window.__played.includes('sound-capture') && window.__played.includes('sound-end'));
  } finally {
    await context.close();
  }
});

test('the tab title is marked when it is your move', async () => {
  const { white, black } = await friendGame();
  try {
    assert.match(await white.page.title(), /^● Your move/);
    assert.doesNotMatch(await black.page.title(), /^●/);
    await white.page.click('[data-square="c3"]');
    await white.page.click('[data-square="d4"]');
    await black.page.waitForFunction(() => document.title.startsWith('● Your move'));
    assert.doesNotMatch(await white.page.title(), /^●/);
  } finally {
    await white.context.close();
    await black.context.close();
  }
});

test('the page colours can be chosen against the system; board theme and size are kept', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1200, height: 900 }, colorScheme: 'light' });
  const page = await context.newPage();
  try {
    await page.goto(site.server.url + '/study');
    await page.waitForSelector('svg.board');
    const bg = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const light = await bg();
    await page.click('#settings summary');
    await page.selectOption('#setting-scheme', 'dark');
    const dark = await bg();
    assert.notEqual(dark, light);
    const [r, g, b] = dark.match(/\d+/g).map(Number);
    assert.ok(r + g + b < 150, 'dark page: ' + dark);
    const square = () => page.evaluate(() => getComputedStyle(document.querySelector('.sq.dark')).fill);
    const wood = await square();
    await page.selectOption('#setting-board', 'green');
    assert.notEqual(await square(), wood);
    const width = () => page.evaluate(() => document.querySelector('svg.board').getBoundingClientRect().width);
    const full = await width();
    await page.fill('#setting-size', '60');
    await page.dispatchEvent('#setting-size', 'input');
    assert.ok(await width() < full * 0.8, 'the board is smaller');
    await page.reload();
    await page.waitForSelector('svg.board');
    assert.equal(await bg(), dark, 'the choice is kept');
    assert.notEqual(await square(), wood);
    // On a dark system, "light" keeps the page light.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.click('#settings summary');
    await page.selectOption('#setting-scheme', 'light');
    assert.equal(await bg(), light);
  } finally {
    await context.close();
  }
});

test('on a phone the capture chooser shows a way on the board without pointing, and each can be shown by a tap', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', {
    variant: 'bashni', mode: 'local', position: 'W:WKh4:Bb6,d2,d4,Kg5',
  });
  const { context, page } = await newPage(site.browser, { viewport: { width: 390, height: 844 }, touch: true });
  try {
    await openGameAs(page, site.server.url, created);
    await page.tap('[data-square="h4"]');
    await page.tap('[data-square="e1"]');
    await page.waitForSelector('#chooser:not([hidden])');
    const first = await page.getAttribute('.mark-path', 'points');
    assert.ok(first, 'a way is drawn at once');
    await page.tap('#chooser .choice-row:nth-child(2) .preview');
    const second = await page.getAttribute('.mark-path', 'points');
    assert.notEqual(second, first, 'the tapped way is drawn');
    assert.equal(await page.locator('#chooser .choice.shown').getAttribute('data-index'), '1');
  } finally {
    await context.close();
  }
});

test('the engine view shows an evaluation bar, arrows for its lines and a graph over the game', { timeout: 90000 }, async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    for (const [a, b] of [['c3', 'd4'], ['f6', 'g5'], ['b2', 'c3']]) {
      await page.click(`[data-square="${a}"]`);
      await page.click(`[data-square="${b}"]`);
    }
    await page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '3');
    await page.click('#analyse');
    await page.waitForSelector('.analysis-result');
    assert.notEqual(await page.getAttribute('#eval-bar', 'data-score'), '');
    assert.ok(await page.locator('.mark-arrow.best').count() === 1, 'the best line is an arrow');
    const st = await stateOf(page, site.server.url);
    const best = await page.$eval('.mark-arrow.best', (n) => n.dataset.from);
    assert.ok(st.legal_moves.some((m) => m.path[0] === best), 'the arrow starts on a tower that can move');
    await page.click('#analyse-each');
    await page.waitForFunction(() => {
      const g = document.getElementById('eval-graph');
      return g && g.dataset.points === '3';
    }, null, { timeout: 30000 });
    // Each move's score sits in its own cell: a row keeps its three columns.
    const columns = await page.$$eval('#moves .move-row:not(.final)', (rows) => rows.map((r) => r.children.length));
    assert.ok(columns.every((n) => n <= 3), JSON.stringify(columns));
  } finally {
    await context.close();
  }
});
