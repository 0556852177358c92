// Unit tests of the analysis board's move tree (crates/server/web/tree.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MoveTree } from '../../crates/server/web/tree.js';

const pos = (fen) => ({ fen });
const mv = (text) => ({ text, after: pos('after ' + text) });

function game() {
  const t = new MoveTree(pos('start'));
  let at = t.root;
  for (const m of ['c3-d4', 'f6-g5', 'b2-c3']) at = t.add(at, mv(m));
  return t;
}

test('the game is the main line', () => {
  const t = game();
  assert.deepEqual(t.mainLine().map((id) => t.node(id).move.text), ['c3-d4', 'f6-g5', 'b2-c3']);
  assert.equal(t.depth(3), 3);
});

test('a different move makes a variation; the same move is not added twice', () => {
  const t = game();
  const again = t.add(1, mv('f6-g5'));
  assert.equal(again, 2);
  const v = t.add(1, mv('f6-e5'));
  const v2 = t.add(v, mv('d4:f6'));
  assert.deepEqual(t.node(1).children, [2, v]);
  assert.equal(t.onMainLine(v), false);
  assert.deepEqual(t.line(v).map((id) => t.node(id).move.text), ['c3-d4', 'f6-e5', 'd4:f6']);
  assert.equal(t.next(v), v2);
  assert.equal(t.prev(v), 1);
  assert.equal(t.prev(0), 0);
});

test('the layout puts a variation right after the move it replaces', () => {
  const t = game();
  const v = t.add(1, mv('f6-e5'));
  t.add(v, mv('d4:f6'));
  const items = t.layout().map((i) => (i.open ? '(' : i.close ? ')' : t.node(i.id).move.text + '@' + i.variation));
  assert.deepEqual(items, ['c3-d4@0', 'f6-g5@0', '(', 'f6-e5@1', 'd4:f6@1', ')', 'b2-c3@0']);
});

test('promoting a variation makes it the main line; removing drops it', () => {
  const t = game();
  const v = t.add(1, mv('f6-e5'));
  t.promote(v);
  assert.deepEqual(t.mainLine().map((id) => t.node(id).move.text), ['c3-d4', 'f6-e5']);
  t.remove(v);
  assert.deepEqual(t.mainLine().map((id) => t.node(id).move.text), ['c3-d4', 'f6-g5', 'b2-c3']);
});
