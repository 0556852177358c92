// Unit tests of the page's account helpers (crates/server/web/account.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextPath, playerPath } from '../../crates/server/web/account.js';

test('after logging in the page goes back only to a page of this site', () => {
  const site = 'https://bashni.example';
  assert.equal(nextPath('?next=%2Fg%2Fk3q9x2ab', site), '/g/k3q9x2ab');
  assert.equal(nextPath('?next=/players/Anna', site), '/players/Anna');
  assert.equal(nextPath('?next=%2Fplayers%2FAnna%3Fpage%3D2', site), '/players/Anna?page=2');
  assert.equal(nextPath('', site), null);
  assert.equal(nextPath('?next=https://evil.test/', site), null);
  assert.equal(nextPath('?next=//evil.test/', site), null);
  assert.equal(nextPath('?next=/\\evil.test/', site), null);
  // Issue "abuse, round two", finding 4: a tab (or a newline) inside "//" is dropped by the
  // browser, which then lands on the other site.
  for (const trick of ['%2F%09%2Fevil.test', '%2F%0A%2Fevil.test', '%2F%0D%2Fevil.test', '%2F%5C%09evil.test']) {
    assert.equal(nextPath('?next=' + trick, site), null, trick);
  }
  assert.equal(nextPath('?next=/g/x', undefined), null, 'no origin known: nowhere');
});

test('a player page address keeps the name whole', () => {
  assert.equal(playerPath('Anna'), '/players/Anna');
  assert.equal(playerPath('Иван_2'), '/players/' + encodeURIComponent('Иван_2'));
});
