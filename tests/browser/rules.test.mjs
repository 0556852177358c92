// The rules page: every rule has a board whose "Show" plays the rule's move with the result
// the rule describes, in English and in Russian; the start page, the header and the game page
// lead to it; a newcomer's first game shows a hint once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, api, openGameAs } from './harness.mjs';

const site = useSite();

// What each rule's move leaves on the board: a tower (top first), or null for an empty square.
const AFTER_SHOW = {
  'man-moves': { c3: null, d4: 'w' },
  crowning: { c7: null, d8: 'W' },
  'king-moves': { c1: null, h6: 'W' },
  'capture-compulsory': { e3: null, d4: null, c5: 'w', f4: 'b', f6: 'b' },
  'capture-backwards': { e5: null, d4: null, c3: 'w' },
  'capture-several': { c1: null, d2: null, f4: null, f6: null, e7: 'w' },
  'king-captures': { a1: null, d4: null, g5: null, h4: 'W' },
  'turkish-strike': { e1: null, c3: null, b6: null, e7: null, e5: null, c5: 'b', d4: 'W' },
  'crowned-in-capture': { b6: null, c7: null, f6: null, h4: 'W' },
  'russian-win': { a3: null, b4: 'w', a5: 'b' },
  prisoners: { c3: null, d4: null, e5: 'wb' },
  'tower-moves': { c3: null, d4: 'wbb' },
  'top-taken': { c3: null, d4: 'ww', e5: 'wb' },
  'king-freed': { d4: 'W', e5: 'wb' },
  'tower-captures-several': { c3: null, d6: null, b6: null, b4: null, d4: 'b', e5: 'wbbbbb' },
  'tower-crowning': { c7: null, d8: 'Wwb' },
  'bashni-win': { d4: 'w', e5: 'wb' },
  'big-road-draw': { d4: null, h8: 'B', c1: 'W', e1: 'W', g1: 'W' },
  'quiet-draw': { c1: null, h6: 'W', f8: 'B' },
};

/** The towers on a rule's board: {square: tower}. */
function towersOf(page, rule) {
  return page.$$eval(`#rule-${rule} svg.board .layer-pieces .tower`,
    (nodes) => Object.fromEntries(nodes.map((n) => [n.dataset.at, n.dataset.tower])));
}

async function waitBoardsReady(page) {
  await page.waitForFunction(() => {
    const boards = [...document.querySelectorAll('svg.rule-board')];
    return boards.length > 0 && boards.every((b) => b.dataset.state === 'start');
  });
}

async function show(page, rule) {
  await page.click(`#rule-${rule} .rule-show`);
  await page.waitForSelector(`#rule-${rule} svg.board[data-state="played"]`);
}

test('in English every rule has a board, and Show plays its move as the rule says', async () => {
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/rules');
    await waitBoardsReady(page);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await page.textContent('.rules h1'), 'Rules');
    assert.equal(await page.title(), 'Rules – Bashni');
    const rules = await page.$$eval('.rule', (nodes) => nodes.map((n) => n.dataset.rule));
    assert.deepEqual(rules.sort(), Object.keys(AFTER_SHOW).sort(), 'one card for each rule');
    for (const rule of rules) {
      assert.equal(await page.$$eval(`#rule-${rule} svg.board`, (b) => b.length), 1, rule + ': a board');
      const before = await towersOf(page, rule);
      assert.ok(Object.keys(before).length >= 2, rule + ': towers on its board');
      await show(page, rule);
      const after = await towersOf(page, rule);
      for (const [square, tower] of Object.entries(AFTER_SHOW[rule])) {
        assert.equal(after[square] ?? null, tower, rule + ': ' + square + ' after the move');
      }
      assert.notDeepEqual(after, before, rule + ': the board changed');
      assert.match(await page.textContent(`#rule-${rule} .rule-note`), /^Played: /);
    }
    // The rulebook's win: the side left without a move loses.
    assert.equal(await page.textContent('#rule-russian-win .rule-note'), 'Played: a3-b4. Black has no move: White wins.');
    assert.equal(await page.textContent('#rule-bashni-win .rule-note'), 'Played: c3:e5. Black has no move: White wins.');
    // Start again sets the position up again.
    await page.click('#rule-prisoners .rule-again');
    assert.deepEqual(await towersOf(page, 'prisoners'), { c3: 'w', d4: 'b', g7: 'b' });
    // The draws are stated for both games.
    assert.equal(await page.$$eval('#russian-draws li', (n) => n.length), 7);
    assert.equal(await page.$$eval('#bashni-draws li', (n) => n.length), 4);
    assert.match(await page.textContent('#russian-draws'), /15th move/);
    assert.match(await page.textContent('#bashni-draws'), /15 moves/);
    // No message is missing (a missing one shows its id).
    assert.doesNotMatch(await page.textContent('main'), /\brules-[a-z]/);
    assert.equal(page.__errors, undefined, String(page.__errors));
  } finally {
    await context.close();
  }
});

test('a visitor may play a rule\'s position too: any capture may be chosen', async () => {
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/rules');
    await waitBoardsReady(page);
    const board = '#rule-capture-compulsory svg.board';
    // The quiet move a1-b2 is not allowed while a capture is possible.
    await page.click(board + ' [data-square="a1"]');
    assert.equal(await page.getAttribute(board, 'data-chosen'), '');
    // The capture of two: e3, then g5 (only one way on from there).
    await page.click(board + ' [data-square="e3"]');
    await page.click(board + ' [data-square="g5"]');
    await page.waitForSelector(board + '[data-state="played"]');
    assert.equal(await page.getAttribute(board, 'data-played'), 'e3:g5:e7');
    const after = await towersOf(page, 'capture-compulsory');
    assert.equal(after.e7, 'w');
    assert.equal(after.d4, 'b', 'd4 was not taken');
    assert.equal(after.f4, undefined);
  } finally {
    await context.close();
  }
});

test('in Russian, and ?variant=bashni goes to the Bashni part', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'ru-RU' });
  try {
    await page.goto(site.server.url + '/rules?variant=bashni');
    await waitBoardsReady(page);
    assert.equal(await page.getAttribute('html', 'lang'), 'ru');
    assert.equal(await page.textContent('.rules h1'), 'Правила');
    assert.equal(await page.textContent('#bashni h2'), 'Башни');
    assert.equal(await page.getAttribute('#bashni', 'data-asked'), 'true');
    const top = await page.$eval('#bashni', (n) => n.getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 40, 'the Bashni part is at the top of the window: ' + top);
    assert.equal(await page.textContent('#rule-prisoners h3'), 'Пленники');
    assert.equal(await page.textContent('#rule-prisoners .rule-show'), 'Показать');
    await show(page, 'prisoners');
    assert.equal((await towersOf(page, 'prisoners')).e5, 'wb');
    assert.equal(await page.textContent('#rule-prisoners .rule-note'), 'Сыгран ход c3:e5.');
    await show(page, 'turkish-strike');
    assert.equal((await towersOf(page, 'turkish-strike')).d4, 'W');
    assert.match(await page.textContent('#rule-turkish-strike h3'), /Турецкий удар/);
    assert.equal(await page.textContent('#nav-rules'), 'Правила');
    assert.doesNotMatch(await page.textContent('main'), /\brules-[a-z]/);
    assert.equal(page.__errors, undefined, String(page.__errors));
  } finally {
    await context.close();
  }
});

test('on a phone the rules page does not scroll sideways and its boards are readable', async () => {
  const { context, page } = await newPage(site.browser, { viewport: { width: 390, height: 844 }, touch: true, locale: 'ru-RU' });
  try {
    await page.goto(site.server.url + '/rules#russian');
    await waitBoardsReady(page);
    const sizes = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      boards: [...document.querySelectorAll('svg.rule-board')].map((b) => b.getBoundingClientRect().width),
    }));
    assert.ok(sizes.scroll <= 390, 'no sideways scrolling: ' + sizes.scroll);
    assert.ok(sizes.boards.every((w) => w >= 280), 'boards: ' + sizes.boards);
  } finally {
    await context.close();
  }
});

test('the header and the start page lead to the rules', async () => {
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/');
    await page.waitForSelector('#rules-link');
    assert.equal(await page.textContent('#nav-rules'), 'Rules');
    await Promise.all([page.waitForURL(/\/rules$/), page.click('#rules-link')]);
    await waitBoardsReady(page);
    await Promise.all([page.waitForURL(/\/$/), page.click('header.top .brand')]);
    await Promise.all([page.waitForURL(/\/rules$/), page.click('#nav-rules')]);
    await page.waitForSelector('.rule');
  } finally {
    await context.close();
  }
});

/** A friend game between two people, both seats taken. */
async function friendGame(variant) {
  const white = await api(site.server.url, 'POST', '/api/games',
    { variant, mode: 'friend', color: 'white', name: 'Anna', time: { minutes: 10 } });
  const invite = white.invite_url.split('/').pop();
  const black = await api(site.server.url, 'POST', '/api/games/' + white.id + '/join', { invite, name: 'Boris' });
  return { white, black: { id: white.id, token: black.token, seat: 'black' } };
}

test('the game page links to the rules of its game', async () => {
  const { white } = await friendGame('russian');
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, white);
    await page.waitForSelector('#rules-link[href="/rules#russian"]');
    assert.equal(await page.textContent('#rules-link'), 'Rules of Russian draughts');
    await Promise.all([page.waitForURL(/\/rules#russian$/), page.click('#rules-link')]);
    await waitBoardsReady(page);
    assert.equal(await page.getAttribute('#russian', 'data-asked'), 'true');
  } finally {
    await context.close();
  }
});

test('the first game shows the hint until it is put away', async () => {
  const { white } = await friendGame('bashni');
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, white);
    await page.waitForSelector('#first-game-hint', { state: 'visible' });
    assert.match(await page.textContent('#first-game-hint'), /compulsory/);
    assert.equal(await page.getAttribute('#first-game-rules', 'href'), '/rules#bashni');
    await page.click('#first-game-dismiss');
    assert.equal(await page.isHidden('#first-game-hint'), true);
    await page.reload();
    await page.waitForSelector('svg.board[data-version]');
    await page.waitForSelector('#rules-link[href="/rules#bashni"]');
    assert.equal(await page.isHidden('#first-game-hint'), true, 'not again after a reload');
  } finally {
    await context.close();
  }
});

test('after the first game has ended, the next one shows no hint', async () => {
  const first = await friendGame('russian');
  const second = await friendGame('russian');
  const watcher = await newPage(site.browser);
  const { context, page } = await newPage(site.browser);
  try {
    // A watcher holds no seat: no hint.
    await watcher.page.goto(site.server.url + '/g/' + first.white.id);
    await watcher.page.waitForSelector('#rules-link[href="/rules#russian"]');
    assert.equal(await watcher.page.isHidden('#first-game-hint'), true);
    await openGameAs(page, site.server.url, first.white);
    await page.waitForSelector('#first-game-hint', { state: 'visible' });
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#result', { state: 'visible' });
    assert.equal(await page.isHidden('#first-game-hint'), true);
    // Only the ended game says so: the first game's seat is forgotten here.
    await page.evaluate((id) => localStorage.removeItem('bashni.seat.' + id), first.white.id);
    await openGameAs(page, site.server.url, second.white);
    await page.waitForSelector('#rules-link[href="/rules#russian"]');
    assert.equal(await page.isHidden('#first-game-hint'), true, 'the second game shows no hint');
  } finally {
    await context.close();
    await watcher.context.close();
  }
});
