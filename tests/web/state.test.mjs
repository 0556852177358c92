// Unit tests of the page's game state transitions (crates/server/web/state.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as S from '../../crates/server/web/state.js';
import { useCatalogue } from '../../crates/server/web/i18n.js';

useCatalogue('en', readFileSync(new URL('../../crates/server/locales/en.ftl', import.meta.url), 'utf8'));

const pos = (turn) => ({ turn, towers: {}, fen: turn, text: turn });
const move = (i, text, color, captured = []) => ({ ply: i, text, color, number: Math.floor(i / 2) + 1, path: text.split(/[-:]/), captured, after: pos(color === 'white' ? 'black' : 'white') });

function state(extra) {
  return Object.assign({
    version: 3, mode: 'friend', turn: 'white', result: null,
    white: { name: 'Anna', joined: true }, black: { name: 'Boris', joined: true },
    start: pos('white'), position: pos('white'), moves: [], legal_moves: [],
  }, extra);
}

test('an update keeps the start and the moves before moves_from', () => {
  const s = state({ moves: [move(0, 'c3-d4', 'white'), move(1, 'f6-e5', 'black')] });
  const u = { version: 5, moves_from: 1, moves: [move(1, 'f6-g5', 'black')], position: pos('white'), turn: 'white' };
  const next = S.mergeUpdate(s, u);
  assert.deepEqual(next.moves.map((m) => m.text), ['c3-d4', 'f6-g5']);
  assert.equal(next.start, s.start);
  assert.equal(next.moves_from, undefined);
  assert.equal(next.version, 5);
});

test('an update that starts after the moves we have asks for the whole state', () => {
  const s = state({ moves: [move(0, 'c3-d4', 'white')] });
  assert.equal(S.mergeUpdate(s, { moves_from: 3, moves: [] }), null);
  assert.equal(S.mergeUpdate(null, { moves_from: 0, moves: [] }), null);
});

test('a late message is dropped unless the connection is fresh', () => {
  const s = state({ version: 7 });
  assert.equal(S.takes(s, state({ version: 6 })), false);
  assert.equal(S.takes(s, state({ version: 6 }), true), true);
  assert.equal(S.takes(s, state({ version: 7 })), true);
  assert.equal(S.takes(null, state()), true);
});

test('a player moves only on their turn, with both seats taken, in a live game', () => {
  assert.equal(S.yourTurn(state(), 'white'), true);
  assert.equal(S.yourTurn(state(), 'black'), false);
  assert.equal(S.yourTurn(state(), null), false);
  assert.equal(S.yourTurn(state({ black: { joined: false } }), 'white'), false);
  assert.equal(S.yourTurn(state({ result: { score: '1-0' } }), 'white'), false);
  assert.equal(S.yourTurn(state({ mode: 'record' }), 'both'), false);
  assert.equal(S.yourTurn(state({ mode: 'local' }), 'both'), true);
});

test('the status waits for the opponent before the guest joins', () => {
  const waiting = state({ black: { name: '', joined: false } });
  assert.equal(S.statusText(waiting, 'white'), 'Waiting for your opponent to join.');
  assert.equal(S.statusText(waiting, null), 'Waiting for the second player.');
  assert.equal(S.statusText(state(), 'white'), 'Your move (white).');
  assert.equal(S.statusText(state(), 'black'), 'Waiting for your opponent’s move.');
  assert.equal(S.statusText(state({ result: { code: 'aborted' } }), 'white'), 'The game was aborted.');
});

test('the tab title is marked only when it is your move', () => {
  assert.match(S.tabTitle(state(), 'white'), /^● Your move – Anna – Boris/);
  assert.doesNotMatch(S.tabTitle(state(), 'black'), /●/);
  assert.doesNotMatch(S.tabTitle(state({ mode: 'local' }), 'both'), /●/);
});

test('stepping through the moves stops at the start and returns to the live position', () => {
  const s = state({ moves: [move(0, 'c3-d4', 'white'), move(1, 'f6-e5', 'black'), move(2, 'd4:f6', 'white', ['e5'])] });
  assert.equal(S.stepView(s, null, -1), 1);
  assert.equal(S.stepView(s, 1, -5), -1);
  assert.equal(S.stepView(s, 0, 1), 1);
  assert.equal(S.stepView(s, 1, 1), null);
  assert.equal(S.shownPosition(s, -1), s.start);
  assert.equal(S.shownPosition(s, 0), s.moves[0].after);
  assert.equal(S.shownPly(s, null), 2);
});

test('changes name the new move, the end and the turn coming to you', () => {
  const a = state({ turn: 'black', moves: [move(0, 'c3-d4', 'white')] });
  const b = state({ turn: 'white', version: 4, moves: [move(0, 'c3-d4', 'white'), move(1, 'f6:d4', 'black', ['e5'])] });
  const c = S.changes(a, b, 'white');
  assert.equal(c.moved.text, 'f6:d4');
  assert.equal(c.yourTurnNow, true);
  assert.equal(c.ended, false);
  const d = S.changes(b, Object.assign({}, b, { result: { score: '0-1' } }), 'white');
  assert.equal(d.ended, true);
  assert.equal(d.moved, null);
  assert.equal(S.moveAnnouncement(c.moved), 'Black: f6:d4, takes e5.');
});
