// The board as a player reads and uses it: where a picked tower can go, the route of the last
// move, tall towers, keyboard play, the position as text, announcements, links to a move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, openGameAs, stateOf, boardData, keyTo,
} from './harness.mjs';

const site = useSite();

const last = (path) => path[path.length - 1];
const sorted = (xs) => [...new Set(xs)].sort();

test('a picked tower shows every final square at once, the stops narrow as the path is chosen, and the last move is drawn as a route', async () => {
  // A white man on a1 takes b2 and then goes on three ways: to a5, or through e5 to c7 or g3.
  const created = await api(site.server.url, 'POST', '/api/games', {
    variant: 'bashni', mode: 'local', position: 'W:Wa1:Bb2,d4,d6,f4,b4',
  });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    const st = await stateOf(page, site.server.url);
    const from = st.legal_moves.filter((m) => m.path[0] === 'a1');
    assert.equal(from.length, 3);
    await page.click('[data-square="a1"]');
    const finals = await page.$$eval('.mark-final', (ns) => ns.map((n) => n.dataset.final));
    assert.deepEqual(sorted(finals), sorted(from.map((m) => last(m.path))), 'every final square is marked');
    const steps = await page.$$eval('.mark-step', (ns) => ns.map((n) => n.dataset.step));
    const expectedSteps = sorted(from.flatMap((m) => m.path.slice(1, -1))).filter((s) => !finals.includes(s));
    assert.deepEqual(sorted(steps), expectedSteps, 'the stops on the way are marked');

    // Choosing e5 narrows the marks to the two moves through it.
    await page.click('[data-square="e5"]');
    assert.equal((await boardData(page)).chosen, 'a1 c3 e5', 'the path so far');
    const narrowed = await page.$$eval('.mark-final', (ns) => ns.map((n) => n.dataset.final));
    assert.deepEqual(sorted(narrowed), ['c7', 'g3']);
    // A final square that one move reaches plays it at once.
    const single = from.find((m) => last(m.path) === 'c7');
    await page.click('[data-square="c7"]');
    await page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '1');
    const route = await page.getAttribute('.mark-route', 'data-path');
    assert.equal(route, single.path.join(' '), 'the last move is drawn along its whole path');
    assert.equal(await page.locator('.mark-route .route-head').count(), 1, 'with an arrow head');
  } finally {
    await context.close();
  }
});

test('tall towers show their height from two checkers and a gold band for each buried king', async () => {
  // c3: a white king on seven black men with two kings among them; e3: a tower of two.
  const created = await api(site.server.url, 'POST', '/api/games', {
    variant: 'bashni', mode: 'local', position: 'W:Wc3=1/0011000,e3=0/0:Bf6,h8',
  });
  const { context, page } = await newPage(site.browser, { viewport: { width: 390, height: 844 }, touch: true });
  try {
    await openGameAs(page, site.server.url, created);
    const st = await stateOf(page, site.server.url);
    const tower = st.position.towers.c3;
    const kingsInside = Array.from(tower.slice(1)).filter((c) => c === 'W' || c === 'B').length;
    assert.ok(kingsInside >= 1, tower);
    const c3 = page.locator('.layer-pieces .tower[data-at="c3"]');
    assert.equal(await c3.locator('.badge-text').textContent(), String(tower.length));
    assert.equal(await c3.locator('.kingband').count(), kingsInside);
    assert.equal(await c3.locator('.badge.kings').count(), 1, 'the badge says kings are inside');
    const e3 = page.locator('.layer-pieces .tower[data-at="e3"]');
    assert.equal(await e3.locator('.badge-text').textContent(), '2');
    // On a phone each buried king's band is still a few pixels high.
    const band = await c3.locator('.kingband').first().boundingBox();
    assert.ok(band.height >= 2, 'band height ' + band.height);
    // A tap shows the inspector on the screen, right under the board.
    await page.tap('[data-square="c3"]');
    const box = await page.locator('#inspector').boundingBox();
    assert.ok(box.y + box.height <= 844, 'the inspector is on the screen: ' + JSON.stringify(box));
    assert.match(await page.textContent('#inspector'), /^c3: White king/);
  } finally {
    await context.close();
  }
});

test('a whole short game played with the keyboard only, each move announced', async () => {
  // White c3, Black e5 (Russian): 1. c3-d4 e5:c3 and White has nothing left.
  const created = await api(site.server.url, 'POST', '/api/games', {
    variant: 'russian', mode: 'local', position: 'W:Wc3:Be5',
  });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    // Tab to the board.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement && document.activeElement.matches('svg.board'))) break;
    }
    assert.equal(await page.evaluate(() => document.activeElement.matches('svg.board')), true, 'the board takes the focus');
    assert.equal(await page.getAttribute('svg.board', 'role'), 'application');
    assert.match(await page.getAttribute('svg.board', 'aria-label'), /Arrow keys/);
    for (const path of [['c3', 'd4'], ['e5', 'c3']]) {
      for (const sq of path) {
        await keyTo(page, sq);
        await page.keyboard.press('Enter');
      }
      const n = path[0] === 'c3' ? 1 : 2;
      await page.waitForFunction((k) => document.querySelector('svg.board')?.dataset.plies === String(k), n);
    }
    await page.waitForSelector('#result:not([hidden])');
    assert.match(await page.textContent('#result'), /^0-2|^0-1/);
    const st = await stateOf(page, site.server.url);
    assert.deepEqual(st.moves.map((m) => m.text), ['c3-d4', 'e5:c3']);
    // The screen reader's live region told the moves and the end.
    assert.equal(await page.getAttribute('#announce', 'aria-live'), 'polite');
    assert.match(await page.textContent('#announce'), /wins|Black/);
  } finally {
    await context.close();
  }
});

test('the position is given as text, a move is announced, and ?ply=N opens that move', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    await page.click('summary:has-text("The position as text")');
    const white = await page.$$eval('#position-list ul[data-color="white"] li', (ns) => ns.map((n) => n.textContent));
    assert.equal(white.length, 12);
    assert.ok(white.includes('c3: white man'));
    await page.click('[data-square="c3"]');
    await page.click('[data-square="d4"]');
    await page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '1');
    assert.equal(await page.textContent('#announce'), 'White: c3-d4.');
    const after = await page.$$eval('#position-list ul[data-color="white"] li', (ns) => ns.map((n) => n.textContent));
    assert.ok(after.includes('d4: white man') && !after.includes('c3: white man'), 'the list follows the move');
    await page.click('[data-square="f6"]');
    await page.click('[data-square="g5"]');
    await page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '2');

    // A link to the position after the first ply.
    await page.goto(site.server.url + '/g/' + created.id + '?ply=1');
    await page.waitForSelector('svg.board[data-version]');
    assert.equal((await boardData(page)).view, '0');
    assert.equal(await page.getAttribute('.layer-pieces .tower[data-at="d4"]', 'data-tower'), 'w');
    assert.equal(await page.locator('.layer-pieces .tower[data-at="g5"]').count(), 0);
    // Stepping writes the address to share.
    await page.keyboard.press('Home');
    assert.equal(new URL(page.url()).searchParams.get('ply'), '0');
    await page.keyboard.press('End');
    assert.equal(new URL(page.url()).searchParams.get('ply'), null);
  } finally {
    await context.close();
  }
});
