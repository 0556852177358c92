// Unit tests of the chat panel's pure parts (crates/server/web/chat.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatRooms, withLine, countText, MAX_CHAT_CHARS } from '../../crates/server/web/chat.js';

test('a seat reads and writes only its rooms', () => {
  assert.deepEqual(chatRooms('friend', 'white'), { read: ['players'], write: 'players' });
  assert.deepEqual(chatRooms('friend', 'black', false), { read: ['players'], write: 'players' });
  assert.deepEqual(chatRooms('friend', 'black', true), { read: ['players', 'watchers'], write: 'players' });
  assert.deepEqual(chatRooms('friend', null), { read: ['watchers'], write: 'watchers' });
  assert.deepEqual(chatRooms('engine', null), { read: ['watchers'], write: 'watchers' });
  assert.deepEqual(chatRooms('engine', 'white'), { read: [], write: null });
  assert.deepEqual(chatRooms('local', 'both'), { read: [], write: null });
});

test('lines stay in order and a line heard twice is kept once', () => {
  const line = (seq) => ({ seq, from: 'white', name: 'Anna', text: 't' + seq });
  let lines = withLine([], line(2));
  lines = withLine(lines, line(1));
  lines = withLine(lines, line(2));
  assert.deepEqual(lines.map((l) => l.seq), [1, 2]);
  const same = withLine(lines, line(1));
  assert.equal(same, lines, 'nothing new: the same list');
});

test('the counter counts characters after trimming', () => {
  assert.equal(countText('  hi  '), '2/' + MAX_CHAT_CHARS);
  assert.equal(countText('привет'), '6/300');
  assert.equal(countText('😀'), '1/300');
});
