// Unit tests of the page's words and numbers (crates/server/web/text.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as T from '../../crates/server/web/text.js';
import { useCatalogue } from '../../crates/server/web/i18n.js';

useCatalogue('en', readFileSync(new URL('../../crates/server/locales/en.ftl', import.meta.url), 'utf8'));

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

test('a win the engine sees is told in the page\'s words; numbers stay as they are', () => {
  assert.equal(T.scoreText('White wins in 9'), 'White wins in 9');
  assert.equal(T.scoreText('Black wins in 1'), 'Black wins in 1');
  assert.equal(T.scoreText('+0.35'), '+0.35');
  assert.equal(T.scoreText('?'), '?');
  assert.equal(T.scoreText(undefined), '');
  useCatalogue('ru', readFileSync(new URL('../../crates/server/locales/ru.ftl', import.meta.url), 'utf8'));
  try {
    assert.equal(T.scoreText('White wins in 9'), 'Белые выигрывают за 9 ходов');
    assert.equal(T.scoreText('Black wins in 2'), 'Чёрные выигрывают за 2 хода');
    assert.equal(T.scoreText('White wins in 21'), 'Белые выигрывают за 21 ход');
  } finally {
    useCatalogue('en', readFileSync(new URL('../../crates/server/locales/en.ftl', import.meta.url), 'utf8'));
  }
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

test('correspondence time left reads in whole days, hours and minutes, never more than there is', () => {
  const min = 60000;
  const hour = 60 * min;
  const day = 24 * hour;
  assert.equal(T.timeLeftText(2 * day + 4 * hour + 59 * min), '2 days 4 h left');
  assert.equal(T.timeLeftText(3 * day - 1), '2 days 23 h left');
  assert.equal(T.timeLeftText(day), '1 day left');
  assert.equal(T.timeLeftText(7 * day), '7 days left');
  assert.equal(T.timeLeftText(5 * hour + 12 * min + 30000), '5 h 12 min left');
  assert.equal(T.timeLeftText(hour), '1 h left');
  assert.equal(T.timeLeftText(12 * min), '12 min left');
  assert.equal(T.timeLeftText(59000), 'less than a minute left');
  assert.equal(T.timeLeftText(0), 'no time left');
  assert.equal(T.timeLeftText(-5), 'no time left');
  assert.equal(T.timeLeftText(undefined), 'no time left');
});

test('a correspondence game is made again with its days per move', () => {
  assert.deepEqual(T.timeOfGame({ correspondence: { days_per_move: 3, deadline_ms: 1 }, clock: null }), { days_per_move: 3 });
  assert.deepEqual(T.timeOfGame({ correspondence: null, clock: { base_ms: 180000, increment_ms: 2000 } }), { minutes: 3, increment_s: 2 });
  assert.equal(T.timeOfGame({ correspondence: null, clock: null }), null);
  assert.equal(T.perMoveText(1), '1 day per move');
  assert.equal(T.perMoveText(7), '7 days per move');
  assert.deepEqual(T.DAYS_PER_MOVE, [1, 2, 3, 7]);
});

test('the title counts the games waiting for your move', () => {
  assert.equal(T.countedTitle(2, 'Bashni'), '(2) Bashni');
  assert.equal(T.countedTitle(0, 'Bashni'), 'Bashni');
});

test('why a game ended is said from its code in the page language; a record keeps its words', () => {
  const result = { score: '0-1', winner: 'black', code: 'resignation', details: { side: 'white' }, reason: 'White resigned' };
  assert.equal(T.resultText(result), '0-1 Black wins. White resigned');
  assert.equal(T.reasonText('king_ending', { pieces: 5, moves: 30 }), '6.1.8.6: kings on both sides, 5 pieces, 30 moves without capture or promotion');
  assert.equal(T.reasonText('king_ending', { pieces: 9, moves: null }), '6.1.8.6: kings on both sides, 9 pieces');
  assert.equal(T.reasonText('recorded', {}, 'Time forfeit'), 'Time forfeit');
  useCatalogue('ru', readFileSync(new URL('../../crates/server/locales/ru.ftl', import.meta.url), 'utf8'));
  try {
    assert.equal(T.resultText(result), '0-1 Победа чёрных. Белые сдались');
    assert.equal(T.reasonText('no_move', { side: 'black' }), 'у чёрных нет хода');
  } finally {
    useCatalogue('en', readFileSync(new URL('../../crates/server/locales/en.ftl', import.meta.url), 'utf8'));
  }
});

test('a seat nobody named shows its colour; a chosen name stays', () => {
  assert.equal(T.playerName('White', 'white'), 'White');
  assert.equal(T.playerName(null, 'black'), 'Black');
  assert.equal(T.playerName('Anna', 'white'), 'Anna');
  assert.equal(T.playerName('black', 'black', 'the other'), 'the other');
  useCatalogue('ru', readFileSync(new URL('../../crates/server/locales/ru.ftl', import.meta.url), 'utf8'));
  try {
    assert.notEqual(T.playerName('White', 'white'), 'White');
    assert.equal(T.playerName('White', 'black'), 'White', 'a player may call themselves White on the other side');
  } finally {
    useCatalogue('en', readFileSync(new URL('../../crates/server/locales/en.ftl', import.meta.url), 'utf8'));
  }
});
