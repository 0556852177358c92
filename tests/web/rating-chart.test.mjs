// Unit tests of the rating texts and the rating history chart (crates/server/web/rating-chart.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratingText, diffText, chartModel } from '../../crates/server/web/rating-chart.js';

test('a provisional rating is marked with a question mark', () => {
  assert.equal(ratingText(1622.6, true), '1623?');
  assert.equal(ratingText(1499.4, false), '1499');
});

test('rating changes have their sign', () => {
  assert.equal(diffText(12), '+12');
  assert.equal(diffText(-12), '\u221212');
  assert.equal(diffText(0), '\u00b10');
});

test('the chart spreads the games from left to right and puts higher ratings higher', () => {
  const points = [{ at_ms: 1, rating: 1500, game: 'a' }, { at_ms: 2, rating: 1662, game: 'b' },
    { at_ms: 3, rating: 1580, game: 'c' }];
  const chart = chartModel(points, 216, 116, 8);
  assert.equal(chart.low, 1450);
  assert.equal(chart.high, 1750);
  assert.deepEqual(chart.dots.map((d) => d.x), [8, 108, 208]);
  const [first, best, last] = chart.dots.map((d) => d.y);
  assert.ok(best < last && last < first, 'higher ratings are drawn higher');
  assert.ok(chart.dots.every((d) => d.y >= 8 && d.y <= 108), 'every dot is inside the box');
  assert.equal(chart.path, 'M8 ' + first + ' L108 ' + best + ' L208 ' + last);
  assert.deepEqual(chart.dots.map((d) => d.game), ['a', 'b', 'c']);
});

test('one game is one dot in the middle; no games, no chart', () => {
  const chart = chartModel([{ at_ms: 1, rating: 1500 }], 200, 100);
  assert.equal(chart.dots.length, 1);
  assert.equal(chart.dots[0].x, 100);
  assert.equal(chart.path, 'M100 ' + chart.dots[0].y);
  assert.deepEqual(chartModel([], 200, 100).dots, []);
});
