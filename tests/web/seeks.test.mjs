// Unit tests of the lobby's seek list (crates/server/web/seeks.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useCatalogue } from '../../crates/server/web/i18n.js';
import {
  applyLobby, clockText, clockValue, clockOfValue, colorText, takerColor, sameClock, ownSeeks, CLOCK_PRESETS,
} from '../../crates/server/web/seeks.js';

// The words come from the English catalogue.
useCatalogue('en', readFileSync(new URL('../../crates/server/locales/en.ftl', import.meta.url), 'utf8'));

const seek = (id, created_ms, extra) => Object.assign({
  id, created_ms, name: 'P' + id, variant: 'bashni', clock: { minutes: 5, increment_s: 3 },
  rated: false, color: 'random', own: false,
}, extra);

test('the whole list replaces what was there, oldest first', () => {
  const list = applyLobby([seek('x', 1)], { type: 'seeks', seeks: [seek('b', 20), seek('a', 10), seek('c', 20)] });
  assert.deepEqual(list.map((s) => s.id), ['a', 'b', 'c']);
});

test('a seek comes in its place by age, once', () => {
  let list = applyLobby([], { type: 'seeks', seeks: [seek('a', 10), seek('c', 30)] });
  list = applyLobby(list, { type: 'seek_added', seek: seek('b', 20) });
  assert.deepEqual(list.map((s) => s.id), ['a', 'b', 'c']);
  list = applyLobby(list, { type: 'seek_added', seek: seek('b', 20, { name: 'again' }) });
  assert.deepEqual(list.map((s) => s.id), ['a', 'b', 'c']);
  assert.equal(list[1].name, 'again');
});

test('a seek goes; an unknown one changes nothing', () => {
  let list = applyLobby([], { type: 'seeks', seeks: [seek('a', 10), seek('b', 20)] });
  list = applyLobby(list, { type: 'seek_removed', seek: 'a' });
  assert.deepEqual(list.map((s) => s.id), ['b']);
  const same = applyLobby(list, { type: 'seek_removed', seek: 'zz' });
  assert.deepEqual(same.map((s) => s.id), ['b']);
  assert.equal(applyLobby(list, { type: 'paired', game: 'g' }), list);
});

test('the list is never changed in place', () => {
  const list = applyLobby([], { type: 'seeks', seeks: [seek('a', 10)] });
  applyLobby(list, { type: 'seek_added', seek: seek('b', 5) });
  applyLobby(list, { type: 'seek_removed', seek: 'a' });
  assert.deepEqual(list.map((s) => s.id), ['a']);
});

test('own seeks are those the server marks', () => {
  const list = applyLobby([], { type: 'seeks', seeks: [seek('a', 10, { own: true }), seek('b', 20)] });
  assert.deepEqual(ownSeeks(list).map((s) => s.id), ['a']);
});

test('clocks and colours in words', () => {
  assert.equal(clockText({ minutes: 5, increment_s: 3 }), '5+3');
  assert.equal(clockText({ minutes: 0.5, increment_s: 0 }), '0.5+0');
  assert.deepEqual(clockOfValue(clockValue({ minutes: 15, increment_s: 10 })), { minutes: 15, increment_s: 10 });
  assert.deepEqual(clockOfValue('7'), { minutes: 7, increment_s: 0 });
  assert.equal(colorText('white'), 'White');
  assert.equal(colorText('random'), 'Random');
  assert.equal(takerColor('white'), 'Black');
  assert.equal(takerColor('black'), 'White');
  assert.equal(takerColor('random'), 'Random');
  assert.ok(sameClock({ minutes: 3, increment_s: 2 }, CLOCK_PRESETS[0]));
  assert.ok(!sameClock({ minutes: 3, increment_s: 2 }, CLOCK_PRESETS[1]));
  assert.ok(!sameClock(null, CLOCK_PRESETS[1]));
  assert.deepEqual(CLOCK_PRESETS.map(clockText), ['3+2', '5+3', '10+5', '15+10', '30+20']);
});
