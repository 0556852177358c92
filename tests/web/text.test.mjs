// Unit tests of the page's words and numbers (crates/server/web/text.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as T from '../../crates/server/web/text.js';

test('clocks show tenths under ten seconds and hours when needed', () => {
  assert.equal(T.formatClock(7300), '0:07.3');
  assert.equal(T.formatClock(-5), '0:00.0');
  assert.equal(T.formatClock(65000), '1:05');
  assert.equal(T.formatClock(3723000), '1:02:03');
});

test('a tower is read from the top down', () => {
  assert.equal(T.towerText('c3', 'Wbb'), 'c3: White king / black man / black man');
  assert.equal(T.towerText('c3', ''), 'c3: empty');
});

test('the position as text lists each side’s towers in board order', () => {
  const lines = T.positionLines({ e5: 'b', c3: 'Wbb', a1: 'w', h8: 'B' });
  assert.deepEqual(lines.white, ['a1: white man', 'c3: tower of 3, white king, black man, black man (top first)']);
  assert.deepEqual(lines.black, ['e5: black man', 'h8: black king']);
});

test('scores become numbers for the bar and the graph', () => {
  assert.equal(T.scoreValue('+1.35'), 1.35);
  assert.equal(T.scoreValue('-0.20'), -0.2);
  assert.equal(T.scoreValue('+9.00'), 5);
  assert.equal(T.scoreValue('White wins in 4'), 5);
  assert.equal(T.scoreValue('Black wins in 2'), -5);
  assert.equal(T.scoreValue('?'), null);
  assert.equal(T.scoreValue(''), null);
});

test('results read as the rulebooks write them; an aborted game has no winner', () => {
  assert.equal(T.resultText({ score: '1-0', winner: 'white', reason: 'Black has no move' }), '1-0 White wins. Black has no move');
  assert.equal(T.resultText({ score: '1-1', winner: null, reason: 'Agreed' }), '1-1 Draw. Agreed');
  assert.match(T.resultText({ score: '*', code: 'aborted', reason: 'Aborted before both sides had moved' }), /^Aborted\./);
});

test('a clock becomes the API time of a new game like it', () => {
  assert.deepEqual(T.timeOfClock({ base_ms: 180000, increment_ms: 2000 }), { minutes: 3, increment_s: 2 });
  assert.equal(T.timeOfClock(null), null);
  assert.deepEqual(T.timeBody('8+4'), { minutes: 8, increment_s: 4 });
  assert.equal(T.timeBody('none'), null);
});
