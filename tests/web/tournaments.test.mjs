// Unit tests of the tournament page's words (crates/server/web/tournaments.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useCatalogue } from '../../crates/server/web/i18n.js';
import { cellText, describe, resultShort, systemName, TIEBREAKS } from '../../crates/server/web/tournaments.js';

// The words come from the English catalogue.
useCatalogue('en', readFileSync(new URL('../../crates/server/locales/en.ftl', import.meta.url), 'utf8'));

const POINTS = { win: 2, draw: 1, loss: 0 };

test('a crosstable cell shows the points of each game against that player', () => {
  assert.equal(cellText(null, POINTS), '×');
  assert.equal(cellText([], POINTS), '');
  assert.equal(cellText(['win'], POINTS), '2');
  assert.equal(cellText(['draw', 'loss'], POINTS), '1 0');
  assert.equal(cellText(['win'], { win: 1, draw: 0.5, loss: 0 }), '1');
});

test('a tournament in a few words', () => {
  assert.equal(describe({ variant: 'bashni', system: 'round_robin', rounds: 3, micro: false,
    time: { minutes: 8, increment_s: 4 } }), 'Bashni, round robin, 8 min + 4 s');
  const swiss = describe({ variant: 'russian', system: 'swiss', rounds: 5, micro: true, time: null });
  assert.match(swiss, /swiss, 5 rounds, micro-matches, no clock$/);
  assert.equal(systemName('swiss'), 'Swiss');
});

test('results and tie-breaks as the tables show them', () => {
  assert.equal(resultShort('1/2-1/2', 'g'), '½-½');
  assert.equal(resultShort('1-0', 'g'), '1-0');
  assert.equal(resultShort(null, 'g'), 'playing');
  assert.equal(resultShort(null, null), '');
  const line = { sonneborn_berger: 4.5, buchholz: 7, median_buchholz: 3, wins: 2 };
  assert.equal(TIEBREAKS.sonneborn_berger.value(line), '4.5');
  assert.equal(TIEBREAKS.buchholz.label, 'Buch.');
  assert.equal(TIEBREAKS.wins.value(line), '2');
});
