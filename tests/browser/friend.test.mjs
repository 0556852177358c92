// (c) A game by invite link: A plays B in two browser contexts while C watches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, stateOf, gameIdOf, tokenOf, waitPlies, clickPath, moveListTexts, boardData,
} from './harness.mjs';

const site = useSite();

test('invite link, two players and a watcher', { timeout: 120000 }, async () => {
  const a = await newPage(site.browser);
  const b = await newPage(site.browser, { viewport: { width: 420, height: 860 } });
  const c = await newPage(site.browser, { motion: true });
  try {
    // A creates the game from the home page.
    await a.page.goto(site.server.url + '/');
    await a.page.selectOption('#mode', 'friend');
    await a.page.selectOption('#variant', 'bashni');
    await a.page.selectOption('#color', 'white');
    await a.page.fill('#name', 'Anna');
    await a.page.click('#create');
    await a.page.waitForURL(/\/g\/[^/]+$/);
    await a.page.waitForSelector('#invite-link');
    const invite = await a.page.inputValue('#invite-link');
    const watch = await a.page.inputValue('#watch-link');
    const id = gameIdOf(a.page);
    assert.match(invite, new RegExp('/g/' + id + '/join/'));
    assert.equal(new URL(watch).pathname, '/g/' + id);
    // Before the guest comes: no 'your move', no resign or draw offer.
    assert.equal(await a.page.textContent('#status'), 'Waiting for your opponent to join.');
    assert.equal(await a.page.locator('#resign').count(), 0, 'nothing to resign before the guest joins');
    assert.equal(await a.page.locator('#draw-offer').count(), 0, 'no draw offer before the guest joins');
    assert.equal((await boardData(a.page)).canMove, 'false');

    // B joins with the link.
    await b.page.goto(invite);
    await b.page.fill('#join-name', 'Boris');
    await b.page.click('#join');
    await b.page.waitForURL(new RegExp('/g/' + id + '$'));
    await b.page.waitForSelector('svg.board[data-version]');
    const bState = await stateOf(b.page, site.server.url);
    assert.equal(bState.you, 'black');
    assert.equal(bState.black.name, 'Boris');
    assert.equal((await boardData(b.page)).flipped, 'true', 'Black sees the board from its side');

    // A sees that B has joined; the invite is gone.
    await a.page.waitForFunction(() => !document.getElementById('invite-link'));
    assert.equal(await a.page.textContent('.player [data-color="black"].name'), 'Boris');

    // C watches.
    await c.page.goto(watch);
    await c.page.waitForSelector('svg.board[data-version]');
    const cData = await boardData(c.page);
    assert.equal(cData.you, '');
    assert.equal(cData.canMove, 'false');
    assert.equal(await c.page.locator('#move-form').isVisible(), false, 'no move entry for a watcher');
    assert.equal(await c.page.locator('#resign').count(), 0, 'no resign button for a watcher');
    assert.equal(await c.page.locator('#draw-offer').count(), 0);

    const tokenB = await tokenOf(b.page, id);
    const pages = { white: a.page, black: b.page };
    for (let ply = 0; ply < 6; ply++) {
      const st = await stateOf(pages.white, site.server.url);
      const mover = pages[st.turn];
      const waiter = pages[st.turn === 'white' ? 'black' : 'white'];
      await mover.waitForFunction(() => document.querySelector('svg.board')?.dataset.canMove === 'true');
      // The other player cannot move now: not on the board, not by the API.
      assert.equal((await boardData(waiter)).canMove, 'false');
      const move = st.legal_moves[0];
      await waiter.click(`[data-square="${move.path[0]}"]`);
      assert.equal((await boardData(waiter)).chosen || '', '', 'the waiting player cannot pick a tower');
      if (st.turn === 'white') {
        await assert.rejects(
          api(site.server.url, 'POST', '/api/games/' + id + '/move', { move: move.text, ply: st.moves.length }, tokenB),
          (e) => e.status === 403);
      }
      await clickPath(mover, move.path);
      for (const p of [a.page, b.page, c.page]) await waitPlies(p, ply + 1);
    }
    const final = await stateOf(a.page, site.server.url);
    assert.equal(final.moves.length, 6);
    const expected = final.moves.map((m) => m.text);
    // C's board and list followed live, without a reload.
    await c.page.waitForFunction(() => !document.querySelector('svg.board')?.dataset.animating);
    for (const p of [a.page, b.page, c.page]) {
      assert.deepEqual(await moveListTexts(p), expected);
    }
    const drawn = await c.page.$$eval('.layer-pieces .tower', (ns) => Object.fromEntries(ns.map((n) => [n.dataset.at, n.dataset.tower])));
    assert.deepEqual(drawn, final.position.towers, "the watcher's board shows the position");
    const rows = await c.page.$$eval('#moves .move-row', (ns) => ns.map((n) =>
      [n.querySelector('.num').textContent, ...Array.from(n.querySelectorAll('.mv')).map((m) => m.textContent)].join(' ')));
    assert.deepEqual(rows, ['1. ' + expected[0] + ' ' + expected[1], '2. ' + expected[2] + ' ' + expected[3],
      '3. ' + expected[4] + ' ' + expected[5]], 'numbered like the rulebook');
    assert.equal((await boardData(c.page)).canMove, 'false');
    for (const p of [a.page, b.page, c.page]) assert.deepEqual(p.__errors || [], []);
  } finally {
    for (const x of [a, b, c]) await x.context.close();
  }
});

test('an invite link to a game that does not exist says so instead of offering a seat', async () => {
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/g/nosuchgame123/join/0123456789abcdef');
    await page.waitForSelector('#join-missing');
    assert.match(await page.textContent('#join-missing'), /No such game/);
    assert.equal(await page.locator('#join').count(), 0);
  } finally {
    await context.close();
  }
});
