// Ratings in words and a rating history as a line chart: pure functions (no page), so they
// can be tested on their own. The page draws the chart's shapes as inline SVG.

/** A rating as shown: rounded, with "?" while provisional ("1623?"). */
export function ratingText(rating, provisional) {
  return String(Math.round(rating)) + (provisional ? '?' : '');
}

/** A rating change as shown: "+12", "−12" (a real minus sign), "±0". */
export function diffText(diff) {
  if (diff > 0) return '+' + diff;
  if (diff < 0) return '\u2212' + Math.abs(diff);
  return '\u00b10';
}

/**
 * The chart of `points` ([{at_ms, rating}], oldest first) in a box `width` × `height` with
 * `pad` around: one dot per game, spread evenly from left to right (games, not days, so
 * a busy day is not squeezed), the ratings from the lowest (bottom) to the highest (top),
 * with 50 points of room above and below. Returns the line's path, the dots, and the
 * lowest and highest rating on the scale.
 */
export function chartModel(points, width, height, pad = 8) {
  if (!points || points.length === 0) return { path: '', dots: [], low: 0, high: 0 };
  const ratings = points.map((p) => p.rating);
  const low = Math.floor((Math.min(...ratings) - 50) / 50) * 50;
  const high = Math.ceil((Math.max(...ratings) + 50) / 50) * 50;
  const innerW = width - 2 * pad;
  const innerH = height - 2 * pad;
  const step = points.length > 1 ? innerW / (points.length - 1) : 0;
  const dots = points.map((p, i) => ({
    x: round2(points.length > 1 ? pad + i * step : width / 2),
    y: round2(pad + (high - p.rating) / (high - low) * innerH),
    rating: p.rating,
    game: p.game,
  }));
  const path = dots.map((d, i) => (i === 0 ? 'M' : 'L') + d.x + ' ' + d.y).join(' ');
  return { path, dots, low, high };
}

function round2(n) {
  return Math.round(n * 100) / 100;
}
