// Bashni 1.13.2: a move that repeats the position for the third time can carry a draw claim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, openGameAs, stateOf,
} from './harness.mjs';

const site = useSite();

test('the third repetition offers a claim, and the claim ends the game drawn', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', {
    variant: 'bashni', mode: 'local', position: 'White: a1 1, c3 0; Black: h8 1, f6 0; White to move',
  });
  // Kings go back and forth: after a1-b2 h8-g7 b2-a1 g7-h8 twice, a1-b2 would make the
  // position after it stand for the third time.
  const moves = ['a1-b2', 'h8-g7', 'b2-a1', 'g7-h8', 'a1-b2', 'h8-g7', 'b2-a1', 'g7-h8'];
  for (const [ply, move] of moves.entries()) {
    await api(site.server.url, 'POST', `/api/games/${created.id}/move`, { move, ply }, created.token);
  }
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    const state = await stateOf(page, site.server.url);
    const claimable = state.legal_moves.filter((m) => m.claims_draw).map((m) => m.text);
    assert.deepEqual(claimable, ['a1-b2']);
    await page.click('[data-square="a1"]');
    await page.click('[data-square="b2"]');
    await page.waitForSelector('#chooser:not([hidden]) #claim-with-move');
    assert.match(await page.textContent('#claim-title'), /third time/);
    await page.click('#claim-with-move');
    await page.waitForFunction(() => /draw/i.test(document.querySelector('#result')?.textContent || ''));
    const after = await stateOf(page, site.server.url);
    assert.equal(after.result.score, '1/2-1/2');
    assert.equal(after.result.code, 'repetition');
    assert.equal(after.moves.length, moves.length + 1);
  } finally {
    await context.close();
  }
});

test('a claim without a repetition leaves the move played and the game going', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  const state = await api(site.server.url, 'POST', `/api/games/${created.id}/move`,
    { move: 'c3-d4', claim_draw: true, ply: 0 }, created.token);
  assert.equal(state.result, null);
  assert.deepEqual(state.moves.map((m) => m.text), ['c3-d4']);
});
