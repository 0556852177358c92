// Ratings on the page: a player's ratings with their history charts, the leaderboards, and
// a rated game's rating changes.

import { el, svgEl, append, clear } from './dom.js';
import { api } from './api.js';
import { playerPath } from './account.js';
import { variantName } from './text.js';
import { ratingText, diffText, chartModel } from './rating-chart.js';
import { t, dateText } from './i18n.js';

const VARIANTS = ['russian', 'bashni'];
const PACES = ['blitz', 'rapid', 'classical', 'correspondence'];

/** "Rated" or "Casual" for a game's state (games with a friend or from the lobby). */
export function ratedText(state) {
  if (state.rated) return t('ratings-rated');
  // The reason in words that say why (the server's reason is a short phrase).
  if (state.unrated_reason) {
    return t('ratings-not-rated', { reason: state.unrated_reason.replace(/ /g, '-'), phrase: state.unrated_reason });
  }
  return t('ratings-casual');
}

/** The rating changes of a rated game, in words: "White 1662 (+162), Black 1338 (−162)". */
export function ratingChangeText(rating) {
  return t('ratings-change', {
    white: ratingText(rating.white.after, rating.white.provisional), whiteDiff: diffText(rating.white.diff),
    black: ratingText(rating.black.after, rating.black.provisional), blackDiff: diffText(rating.black.diff),
  });
}

/** A rating history as an inline SVG line chart. */
export function historyChart(points) {
  const width = 320;
  const height = 120;
  const chart = chartModel(points, width, height);
  const svg = svgEl('svg', { class: 'rating-chart', viewBox: '0 0 ' + width + ' ' + height,
    width, height, role: 'img', 'aria-label': t('ratings-chart') });
  append(svg, [
    svgEl('text', { x: 2, y: 10, class: 'scale' }, String(chart.high)),
    svgEl('text', { x: 2, y: height - 2, class: 'scale' }, String(chart.low)),
    svgEl('path', { d: chart.path, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    chart.dots.map((d, i) => svgEl('circle', { cx: d.x, cy: d.y, r: 3, fill: 'currentColor' },
      svgEl('title', null, t('ratings-chart-point', { rating: String(d.rating), date: dateText(points[i].at_ms, 'short') })))),
  ]);
  return svg;
}

/** The days a chart runs over, under it: "12 Mar 2026 – 2 Dec 2026" (one day: that day). */
export function chartDates(points) {
  if (!points || !points.length) return null;
  const first = dateText(points[0].at_ms, 'short');
  const last = dateText(points[points.length - 1].at_ms, 'short');
  return el('p', { class: 'chart-dates' }, first === last ? first : t('ratings-chart-dates', { from: first, to: last }));
}

/** The ratings part of a player's page: a row per game and pace, with its chart. */
export function ratingsSection(player) {
  const ratings = player.ratings || {};
  const history = player.rating_history || {};
  const rows = [];
  for (const variant of VARIANTS) {
    for (const pace of PACES) {
      const r = ratings[variant] && ratings[variant][pace];
      if (!r) continue;
      const points = (history[variant] && history[variant][pace]) || [];
      rows.push(el('div', { class: 'rating-row', dataset: { variant, pace } },
        el('h3', null, t('ratings-row-title', { variant: variantName(variant), pace })),
        el('p', null, el('strong', { class: 'rating' }, ratingText(r.rating, r.provisional)),
          ' ' + t('ratings-games', { games: r.games })),
        historyChart(points),
        chartDates(points)));
    }
  }
  return el('section', { class: 'card', id: 'player-ratings' }, el('h2', null, t('ratings-title')),
    rows.length ? rows : el('p', { class: 'hint' }, t('ratings-none')),
    rows.length ? el('p', { class: 'hint' }, t('ratings-provisional-hint')) : null);
}

/** The page `/leaderboard`: a tab per game and pace, the best players of each. */
export function leaderboardPage(app) {
  document.body.dataset.page = 'leaderboard';
  document.title = t('leaderboard-title');
  const table = el('div', { id: 'leaderboard' });
  const tabs = el('div', { class: 'tabs', role: 'tablist' });
  const show = async (variant, pace) => {
    for (const tab of tabs.children) {
      tab.setAttribute('aria-selected', String(tab.dataset.variant === variant && tab.dataset.pace === pace));
    }
    clear(table);
    try {
      const board = await api('GET', '/api/leaderboard?variant=' + variant + '&pace=' + pace);
      if (!board.players.length) {
        table.append(el('p', { class: 'hint' }, t('ratings-none')));
        return;
      }
      table.append(el('table', { class: 'results', dataset: { variant, pace } },
        el('thead', null, el('tr', null, ['#', t('leaderboard-player'), t('leaderboard-rating'), t('leaderboard-games')].map((h) => el('th', null, h)))),
        el('tbody', null, board.players.map((p) => el('tr', { dataset: { name: p.name } },
          el('td', null, String(p.place)),
          el('td', null, el('a', { href: playerPath(p.name) }, p.name)),
          el('td', null, ratingText(p.rating, p.provisional)),
          el('td', null, String(p.games)))))));
    } catch (e) {
      table.append(el('p', { class: 'error' }, e.message));
    }
  };
  for (const variant of VARIANTS) {
    for (const pace of PACES) {
      tabs.append(el('button', { type: 'button', role: 'tab', dataset: { variant, pace },
        onclick: () => show(variant, pace) }, t('leaderboard-tab', { variant: variantName(variant), pace })));
    }
  }
  append(app, el('section', { class: 'card' }, el('h1', null, t('nav-leaderboard')), tabs, table,
    el('p', { class: 'hint' }, t('leaderboard-hint'))));
  show('russian', 'blitz');
}
