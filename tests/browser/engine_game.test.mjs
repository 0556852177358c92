// (a) Whole games against the engine, played by clicking on the board.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, stateOf, waitTurnOrEnd, clickPath, moveListTexts, gameIdOf,
} from './harness.mjs';

const site = useSite();

// Click the first legal move each turn until the page shows a result.
async function playOut(page, maxPlies) {
  let plies = 0;
  let clicked = 0;
  for (;;) {
    const st = await stateOf(page, site.server.url);
    plies = st.moves.length;
    const what = await waitTurnOrEnd(page, plies);
    if (what === 'over') break;
    const now = await stateOf(page, site.server.url);
    if (now.result) continue;
    assert.ok(now.legal_moves.length > 0, 'the side to move has moves');
    assert.ok(now.you === now.turn, 'the page lets us move only on our turn');
    if (now.moves.length >= maxPlies) return { capped: true, clicked };
    const move = now.legal_moves[0];
    await clickPath(page, move.path);
    clicked++;
    // the move is on the board before the next round
    await page.waitForFunction((n) => Number(document.querySelector('svg.board')?.dataset.plies) > n,
      now.moves.length, { timeout: 15000, polling: 50 });
  }
  return { capped: false, clicked };
}

test('a Russian game from the start against level 1, clicked to the end', { timeout: 240000 }, async (t) => {
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/');
    await page.selectOption('#mode', 'engine');
    await page.selectOption('#variant', 'russian');
    await page.selectOption('#level', '1');
    await page.selectOption('#color', 'white');
    await page.selectOption('#time', 'none');
    await page.fill('#name', 'Tester');
    await page.click('#create');
    await page.waitForURL(/\/g\/[^/]+$/);
    await page.waitForSelector('svg.board[data-version]');
    const first = await stateOf(page, site.server.url);
    assert.equal(first.mode, 'engine');
    assert.equal(first.variant, 'russian');
    assert.equal(first.you, 'white');
    assert.equal(first.black.kind, 'engine');

    const { capped, clicked } = await playOut(page, 300);
    assert.ok(clicked > 5, 'several moves were clicked');
    if (capped) {
      // A long game: end it from the page, the result must still show.
      await page.click('#resign');
      await page.click('#resign-confirm');
    }
    await page.waitForSelector('#result:not([hidden])');
    const final = await stateOf(page, site.server.url);
    assert.ok(final.result, 'the API has a result');
    const shown = await page.textContent('#result');
    assert.ok(shown.includes(final.result.score), `result "${shown}" shows ${final.result.score}`);
    assert.ok(shown.toLowerCase().includes(final.result.reason.toLowerCase()), `result "${shown}" shows "${final.result.reason}"`);
    t.diagnostic(`${final.moves.length} plies, ${clicked} clicked${capped ? ', capped' : ''}: ${shown}`);
    const list = await moveListTexts(page);
    assert.deepEqual(list, final.moves.map((m) => m.text), 'the move list is the game');
    // no move controls once the game is over
    assert.equal(await page.locator('#move-form').isVisible(), false);
    assert.equal(await page.locator('#resign').count(), 0);
    assert.deepEqual(page.__errors || [], []);
  } finally {
    await context.close();
  }
});

test('a Bashni ending set up on the study board, played from there to the result', { timeout: 120000 }, async (t) => {
  const { context, page } = await newPage(site.browser);
  try {
    // White has a king and two men against one black man: the game ends soon.
    const fen = 'W:WKd2,c3,e3:Bh6';
    await page.goto(site.server.url + '/study?variant=bashni&position=' + encodeURIComponent(fen));
    await page.waitForFunction(() => document.getElementById('position-fen')?.textContent.length > 0);
    await page.selectOption('#play-mode', 'engine');
    await page.selectOption('#play-level', '1');
    await page.selectOption('#play-color', 'white');
    await page.click('#play-from-here');
    await page.waitForURL(/\/g\/[^/]+$/);
    await page.waitForSelector('svg.board[data-version]');
    const st = await stateOf(page, site.server.url);
    assert.equal(st.variant, 'bashni');
    assert.equal(st.start.fen.replace(/\s/g, ''), st.start.fen, 'the start is a position');
    assert.deepEqual(Object.keys(st.start.towers).sort(), ['c3', 'd2', 'e3', 'h6']);
    const id = gameIdOf(page);
    assert.ok(id);
    const { capped } = await playOut(page, 200);
    if (capped) {
      await page.click('#resign');
      await page.click('#resign-confirm');
    }
    await page.waitForSelector('#result:not([hidden])');
    const final = await stateOf(page, site.server.url);
    assert.ok(final.result);
    const shown = await page.textContent('#result');
    assert.ok(shown.includes(final.result.score) && shown.toLowerCase().includes(final.result.reason.toLowerCase()), shown);
    t.diagnostic(`${final.moves.length} plies${capped ? ', capped' : ''}: ${shown}`);
  } finally {
    await context.close();
  }
});
