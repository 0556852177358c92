// Unit tests of the rating words of a game (crates/server/web/ratings.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ratedText } from '../../crates/server/web/ratings.js';
import { useCatalogue } from '../../crates/server/web/i18n.js';

const catalogue = (lang) => readFileSync(new URL('../../crates/server/locales/' + lang + '.ftl', import.meta.url), 'utf8');

test('a game asked for as rated that does not count says why in words', () => {
  useCatalogue('en', catalogue('en'));
  assert.equal(ratedText({ rated: true }), 'Rated');
  assert.equal(ratedText({ rated: false }), 'Casual');
  assert.equal(ratedText({ rated: false, unrated_reason: 'same address' }),
    'Not rated: both players play from one address, and such games do not count.');
  assert.equal(ratedText({ rated: false, unrated_reason: 'no clock' }), 'Not rated (no clock)');
  useCatalogue('ru', catalogue('ru'));
  assert.equal(ratedText({ rated: false, unrated_reason: 'aborted' }), 'Не на рейтинг: партия прервана.');
});

test('a player\'s rated games show the rating each left and its change', async () => {
  const { ratedGames } = await import('../../crates/server/web/player.js');
  const history = {
    russian: { blitz: [{ at_ms: 1, rating: 1662.4, game: 'a' }, { at_ms: 2, rating: 1650, game: 'b' }] },
    bashni: { rapid: [{ at_ms: 3, rating: 1400, game: 'c' }] },
  };
  assert.deepEqual(ratedGames(history), {
    a: { after: 1662, diff: 162 },
    b: { after: 1650, diff: -12 },
    c: { after: 1400, diff: -100 },
  });
  assert.deepEqual(ratedGames(undefined), {});
});
