// Unit tests of picking a move square by square (crates/server/web/selection.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pick, destinations, goOn, candidates, premoveMatch } from '../../crates/server/web/selection.js';

const mv = (text, captured = []) => ({ text, path: text.split(/[-:]/), captured });

// A king on c1 with two captures ending on e1 by different routes, one going on to h4, and a man's step.
const LEGAL = [
  mv('c1:a3:c5:e3', ['b2', 'b4', 'd4']),
  mv('c1:e3:g5:e7', ['d2', 'f4', 'f6']),
  mv('c1:e3:g1', ['d2', 'f2']),
  mv('c1:e3:g1:h2', ['d2', 'f2', 'g2']),
];

test('picking a tower marks every final square and the stops on the way', () => {
  const d = destinations(LEGAL, ['c1']);
  assert.deepEqual(d.finals.sort(), ['e3', 'e7', 'g1', 'h2']);
  assert.deepEqual(d.next.sort(), ['a3', 'e3']);
  // e3 ends one move, so it is a final square, not only a stop; g1 likewise.
  assert.deepEqual(d.steps.sort(), ['a3', 'c5', 'g5']);
});

test('the marks narrow as the path is chosen', () => {
  const d = destinations(LEGAL, ['c1', 'e3']);
  assert.deepEqual(d.finals.sort(), ['e7', 'g1', 'h2']);
  assert.deepEqual(d.next.sort(), ['g1', 'g5']);
});

test('nothing is marked before a tower is picked', () => {
  assert.deepEqual(destinations(LEGAL, []), { finals: [], steps: [], next: [] });
});

test('a tower without moves is not picked', () => {
  assert.deepEqual(pick(LEGAL, [], 'a1'), { kind: 'idle' });
  assert.deepEqual(pick(LEGAL, [], 'c1'), { kind: 'start', chosen: ['c1'] });
});

test('clicking the picked tower again drops it', () => {
  assert.deepEqual(pick(LEGAL, ['c1'], 'c1'), { kind: 'clear' });
});

test('clicking a final square that only one move reaches plays it', () => {
  const out = pick(LEGAL, ['c1'], 'e7');
  assert.equal(out.kind, 'play');
  assert.equal(out.move.text, 'c1:e3:g5:e7');
});

test('clicking a later stop of one move only plays that move', () => {
  const out = pick(LEGAL, ['c1'], 'c5');
  assert.equal(out.kind, 'play');
  assert.equal(out.move.text, 'c1:a3:c5:e3');
});

test('a square where one move ends and another goes on asks the player', () => {
  const out = pick(LEGAL, ['c1', 'e3'], 'g1');
  assert.equal(out.kind, 'choose');
  assert.deepEqual(out.options.map((m) => m.text), ['c1:e3:g1']);
  assert.equal(out.via, true);
  assert.deepEqual(goOn(LEGAL, ['c1', 'e3'], 'g1'), ['c1', 'e3', 'g1']);
});

test('two moves ending on the same square ask the player to choose', () => {
  const legal = [mv('h4:f2:d4:b2:e1'.replace(/:e1$/, ':e1')), mv('h4:f6:d8:a5:e1')];
  const out = pick(legal, ['h4'], 'e1');
  assert.equal(out.kind, 'choose');
  assert.equal(out.options.length, 2);
  assert.equal(out.via, false);
});

test('a square two moves pass through extends the path as far as they agree', () => {
  const legal = [mv('a1:c3:e5:g7'), mv('a1:c3:e5:c7')];
  const out = pick(legal, ['a1'], 'e5');
  assert.deepEqual(out, { kind: 'extend', chosen: ['a1', 'c3', 'e5'] });
  assert.equal(candidates(legal, out.chosen).length, 2);
});

test('a square no move reaches keeps a longer choice and drops a single pick', () => {
  assert.deepEqual(pick(LEGAL, ['c1'], 'h8'), { kind: 'none', keep: false });
  assert.deepEqual(pick(LEGAL, ['c1', 'e3'], 'h8'), { kind: 'none', keep: true });
});

test('another tower that can move starts again from it', () => {
  const legal = LEGAL.concat([mv('a1-b2')]);
  assert.deepEqual(pick(legal, ['c1'], 'a1'), { kind: 'start', chosen: ['a1'] });
});

test('a premove is played only when exactly one legal move fits it', () => {
  assert.equal(premoveMatch(LEGAL, { from: 'c1', to: 'e7' }).text, 'c1:e3:g5:e7');
  assert.equal(premoveMatch(LEGAL, { from: 'c1', to: 'a1' }), null);
  const twice = [mv('h4:f2:d4:b2:e1'), mv('h4:f6:d8:a5:e1')];
  assert.equal(premoveMatch(twice, { from: 'h4', to: 'e1' }), null);
  assert.equal(premoveMatch(LEGAL, null), null);
});
