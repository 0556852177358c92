// Unit tests of what the page derives from the socket's short messages
// (crates/server/web/derive.js); the browser test derive.test.mjs checks the same against
// the server's own positions over random games.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as D from '../../crates/server/web/derive.js';

test('a quiet move has its two squares and jumps nothing', () => {
  const m = D.readMove({ c3: 'w', f6: 'b' }, 'c3-d4');
  assert.deepEqual(m, { path: ['c3', 'd4'], captured: [], promotes: false });
});

test('a capture jumps the one occupied square between each two landings', () => {
  const towers = { c1: 'w', d2: 'b', f4: 'b', f6: 'b', a7: 'b' };
  assert.deepEqual(D.readMove(towers, 'c1:e3:g5:e7').captured, ['d2', 'f4', 'f6']);
  // A king's long capture: the jumped piece may stand anywhere between.
  assert.deepEqual(D.readMove({ a1: 'W', d4: 'b', g5: 'b', b8: 'b' }, 'a1:f6:h4').captured, ['d4', 'g5']);
  // A king passing its own start square again: that square counts as empty.
  const around = { e1: 'W', c3: 'b', b6: 'b', e7: 'b', e5: 'b', c5: 'b' };
  assert.deepEqual(D.readMove(around, 'e1:a5:d8:f6:d4').captured, ['c3', 'b6', 'e7', 'e5']);
});

test('a man reaching the last row, even in the middle of a capture, is crowned', () => {
  const towers = { b6: 'w', c7: 'b', f6: 'b', h8: 'b' };
  const m = D.readMove(towers, 'b6:d8:h4');
  assert.equal(m.promotes, true);
  assert.deepEqual(D.applyMove('russian', towers, m), { h4: 'W', h8: 'b' });
  assert.equal(D.readMove({ g7: 'W' }, 'g7-h8').promotes, false, 'a king is not crowned again');
  assert.equal(D.readMove({ c3: 'b' }, 'c3-d2').promotes, false, 'Black is crowned on the first row only');
  assert.equal(D.readMove({ c3: 'b' }, 'c3-b2').promotes, false);
  assert.equal(D.readMove({ b2: 'b' }, 'b2-a1').promotes, true);
});

test('in Bashni a jumped tower gives its top checker to the bottom of the moving tower', () => {
  // d4 is a black man holding a white prisoner: taking its top frees the prisoner.
  const towers = { c3: 'w', d4: 'bw', g7: 'b' };
  const m = D.readMove(towers, 'c3:e5');
  assert.deepEqual(D.applyMove('bashni', towers, m), { d4: 'w', e5: 'wb', g7: 'b' });
  // In Russian draughts the jumped piece leaves the board.
  assert.deepEqual(D.applyMove('russian', { c3: 'w', d4: 'b' }, D.readMove({ c3: 'w', d4: 'b' }, 'c3:e5')), { e5: 'w' });
  // A tower crowned on top keeps its prisoners under the new king.
  const crowning = { b6: 'wb', c7: 'Bw' };
  const c = D.readMove(crowning, 'b6:d8');
  assert.deepEqual(D.applyMove('bashni', crowning, c), { c7: 'w', d8: 'WbB' });
});

test('positions are written in the one-line notation and the compact form', () => {
  const towers = { c3: 'w', e3: 'Wbw', f6: 'b', h8: 'B' };
  assert.equal(D.positionText(towers, 'black'), 'White: c3 0, e3 1/00; Black: f6 0, h8 1; Black to move');
  assert.equal(D.positionFen(towers, 'black'), 'B:Wc3,e3=1/00:Bf6,Kh8');
  assert.equal(D.positionText({ a1: 'W' }, 'white'), 'White: a1 1; Black: ; White to move');
  assert.equal(D.positionFen({ a1: 'W' }, 'white'), 'W:WKa1:B');
});

test('a state from the socket is completed; a whole state from the API is kept', () => {
  const start = D.positionOf('bashni', { c3: 'w', d4: 'bw', g7: 'b' }, 'white');
  const short = {
    start, moves: [{ text: 'c3:e5', short: 'c:e5' }], turn: 'black',
    legal_moves: ['g7-f6', { text: 'g7-h6', claims_draw: true }],
  };
  const done = D.complete(short);
  assert.deepEqual(done.moves[0].path, ['c3', 'e5']);
  assert.equal(done.moves[0].ply, 0);
  assert.equal(done.moves[0].number, 1);
  assert.equal(done.moves[0].color, 'white');
  assert.deepEqual(done.moves[0].after.towers, { d4: 'w', e5: 'wb', g7: 'b' });
  assert.equal(done.position, done.moves[0].after);
  assert.equal(done.position.turn, 'black');
  assert.deepEqual(done.legal_moves.map((m) => [m.text, !!m.claims_draw]), [['g7-f6', false], ['g7-h6', true]]);
  // Black to move first: Black's first move is number 1, White's answer number 2.
  const blackFirst = D.complete({ start: D.positionOf('russian', { c3: 'w', f6: 'b' }, 'black'), moves: [{ text: 'f6-e5' }, { text: 'c3-d4' }] });
  assert.deepEqual(blackFirst.moves.map((m) => [m.number, m.color]), [[1, 'black'], [2, 'white']]);
  const whole = D.complete(done);
  assert.equal(whole.moves[0], done.moves[0]);
  assert.equal(whole.position, done.position);
});
