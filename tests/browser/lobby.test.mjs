// The lobby: A posts a seek, B sees it appear and presses Play, and both pages end in the same
// game with opposite colours, where each can move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, stateOf, gameIdOf, waitPlies, clickPath } from './harness.mjs';

// Rated games wait for their first moves while the test looks at other pages.
const site = useSite({ args: ['--first-move-secs', '3600'] });

async function openLobby(page, name) {
  await page.waitForSelector('#seeks');
  await page.waitForFunction(() => (document.getElementById('lobby-status')?.textContent ?? '').startsWith('Press Play'));
  await page.fill('#lobby-name', name);
}

test('a seek posted in one browser is taken in another, and both play', { timeout: 120000 }, async () => {
  const a = await newPage(site.browser);
  const b = await newPage(site.browser, { viewport: { width: 420, height: 860 } });
  const c = await newPage(site.browser);
  try {
    // The home page leads to the lobby; B and a watcher C are there first.
    await b.page.goto(site.server.url + '/');
    await b.page.click('#lobby-link');
    await b.page.waitForURL(/\/lobby$/);
    await openLobby(b.page, 'Boris');
    await c.page.goto(site.server.url + '/lobby');
    await openLobby(c.page, 'Vera');
    assert.equal(await b.page.locator('#seeks tr[data-seek]').count(), 0);

    // A posts a seek: Russian draughts, 5+3, A plays White.
    await a.page.goto(site.server.url + '/lobby');
    await openLobby(a.page, 'Anna');
    await a.page.selectOption('#seek-variant', 'russian');
    await a.page.selectOption('#seek-clock', '5+3');
    await a.page.selectOption('#seek-color', 'white');
    await a.page.click('#seek-post');
    await a.page.waitForSelector('#seeks tr.own button.cancel');
    await a.page.waitForFunction(() => (document.getElementById('lobby-status')?.textContent ?? '').includes('Waiting for an opponent (5+3)'));

    // B sees it appear, with who, game, clock, type and colour.
    const row = b.page.locator('#seeks tr[data-seek]');
    await row.waitFor();
    await c.page.locator('#seeks tr[data-seek]').waitFor();
    const cells = await row.locator('td').allInnerTexts();
    // B's page is narrow: the details go under the name.
    assert.equal(cells[0].trim(), 'Anna\nRussian draughts, 5+3, Casual, plays White');
    const wide = await c.page.locator('#seeks tr[data-seek] td').allInnerTexts();
    assert.deepEqual(wide.slice(0, 5), ['Anna', 'Russian draughts', '5+3', 'Casual', 'White']);
    assert.equal(await row.locator('button.play').count(), 1, 'another player\'s seek can be played');

    // A rated seek waits for accounts: the page says so and nothing is posted.
    await a.page.check('#seek-rated');
    await a.page.click('#seek-post');
    await a.page.waitForFunction(() => /account/.test((document.getElementById('lobby-error')?.textContent ?? '')));
    assert.equal(await a.page.locator('#seeks tr.own').count(), 1);

    // B presses Play: both go to the same game, with opposite colours.
    await row.locator('button.play').click();
    await a.page.waitForURL(/\/g\/[^/]+$/);
    await b.page.waitForURL(/\/g\/[^/]+$/);
    const id = gameIdOf(a.page);
    assert.equal(gameIdOf(b.page), id);
    await a.page.waitForSelector('svg.board[data-version]');
    await b.page.waitForSelector('svg.board[data-version]');
    const stateA = await stateOf(a.page, site.server.url);
    const stateB = await stateOf(b.page, site.server.url);
    assert.equal(stateA.you, 'white');
    assert.equal(stateB.you, 'black');
    assert.equal(stateA.white.name, 'Anna');
    assert.equal(stateA.black.name, 'Boris');
    assert.equal(stateA.variant, 'russian');
    assert.equal(stateA.clock.base_ms, 300000);
    // The seek is gone for the watcher, who was not sent to the game.
    await c.page.waitForSelector('#seeks tr.empty');
    assert.match(c.page.url(), /\/lobby$/);

    // Each moves in turn on the board.
    const pages = { white: a.page, black: b.page };
    for (let ply = 0; ply < 4; ply++) {
      const st = await stateOf(a.page, site.server.url);
      const mover = pages[st.turn];
      await mover.waitForFunction(() => document.querySelector('svg.board')?.dataset.canMove === 'true');
      await clickPath(mover, st.legal_moves[0].path);
      await waitPlies(a.page, ply + 1);
      await waitPlies(b.page, ply + 1);
    }
    for (const p of [a.page, b.page, c.page]) assert.deepEqual(p.__errors || [], []);
  } finally {
    await a.context.close();
    await b.context.close();
    await c.context.close();
  }
});

test('quick pairing pairs two players with the same clock', { timeout: 60000 }, async () => {
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  try {
    for (const [p, name] of [[a.page, 'Anna'], [b.page, 'Boris']]) {
      await p.goto(site.server.url + '/lobby');
      await openLobby(p, name);
      await p.selectOption('#quick-variant', 'bashni');
    }
    await a.page.click('#quick button.quick[data-clock="3+2"]');
    await a.page.waitForSelector('#seeks tr.own');
    await b.page.locator('#seeks tr[data-seek]').waitFor();
    await b.page.click('#quick button.quick[data-clock="3+2"]');
    await a.page.waitForURL(/\/g\/[^/]+$/);
    await b.page.waitForURL(/\/g\/[^/]+$/);
    assert.equal(gameIdOf(a.page), gameIdOf(b.page));
    await a.page.waitForSelector('svg.board[data-version]');
    await b.page.waitForSelector('svg.board[data-version]');
    const colours = [(await stateOf(a.page, site.server.url)).you, (await stateOf(b.page, site.server.url)).you];
    assert.deepEqual(colours.sort(), ['black', 'white']);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
