// Unit tests of the page's account helpers (crates/server/web/account.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextPath, playerPath } from '../../crates/server/web/account.js';

test('after logging in the page goes back only to a page of this site', () => {
  assert.equal(nextPath('?next=%2Fg%2Fk3q9x2ab'), '/g/k3q9x2ab');
  assert.equal(nextPath('?next=/players/Anna'), '/players/Anna');
  assert.equal(nextPath(''), null);
  assert.equal(nextPath('?next=https://evil.test/'), null);
  assert.equal(nextPath('?next=//evil.test/'), null);
  assert.equal(nextPath('?next=/\\evil.test/'), null);
});

test('a player page address keeps the name whole', () => {
  assert.equal(playerPath('Anna'), '/players/Anna');
  assert.equal(playerPath('Иван_2'), '/players/' + encodeURIComponent('Иван_2'));
});
