// The engine's view of a position: lines with scores, an evaluation bar and a graph of the
// evaluation over a game. Views only: they draw what they are given.

import { el, svgEl } from './dom.js';
import { scoreValue, scoreText } from './text.js';
import { t } from './i18n.js';

/** The lines of an analysis (`data` from /api/analyse) for the side `turn`; `onLine(line)` when a line is clicked. */
export function analysisView(data, turn, onLine) {
  const box = el('div', { class: 'analysis-result' });
  box.appendChild(el('p', { class: 'analysis-summary' },
    t('analysis-summary', { depth: data.depth, nodes: Number(data.nodes || 0) })));
  const ol = el('ol', { class: 'lines' });
  for (const line of data.lines || []) {
    const moves = el('span', { class: 'line' }, (line.moves || []).join(' '));
    // A number is the side to move's; a win is said for the side that wins, in the page's
    // language ("White wins in 4").
    const numeric = /^[+-]?\d/.test(line.score);
    const li = el('li', null,
      el('b', { class: 'score' }, numeric || !line.score_white ? line.score : scoreText(line.score_white)),
      !numeric && line.score_white ? ' '
        : turn === 'black' && numeric
          ? ' ' + t('analysis-score-for-black', { white: line.score_white }) + ' '
          : ' ' + t('analysis-score-for', { turn }) + ' ',
      onLine ? el('button', { type: 'button', class: 'line-play link', title: t('analysis-play-line-on-board'), onclick: () => onLine(line) }, moves) : moves);
    ol.appendChild(li);
  }
  box.appendChild(ol);
  return box;
}

/** A vertical bar: White's share from the bottom, by White's score `text` (null: even, unknown). */
export function evalBar(text) {
  const v = scoreValue(text, 5);
  const share = v === null ? 50 : 50 + v * 9;
  const bar = el('div', { class: 'eval-bar', id: 'eval-bar', role: 'img',
    'aria-label': text ? t('analysis-eval-label', { score: scoreText(text) }) : t('analysis-no-eval') });
  bar.appendChild(el('div', { class: 'eval-white', style: 'height: ' + share.toFixed(1) + '%' }));
  bar.appendChild(el('span', { class: 'eval-text' }, text ? scoreText(text) : '…'));
  bar.dataset.score = text || '';
  return bar;
}

/**
 * A graph of White's score after each ply (`scores[i]`: text or undefined); `current` is
 * marked; `onPly(i)` when the graph is clicked.
 */
export function evalGraph(scores, plies, current, onPly) {
  const w = 300;
  const h = 80;
  const svg = svgEl('svg', { viewBox: '0 0 ' + w + ' ' + h, class: 'eval-graph', id: 'eval-graph', role: 'img',
    'aria-label': t('analysis-graph-label') });
  svg.appendChild(svgEl('rect', { x: 0, y: 0, width: w, height: h / 2, class: 'graph-black' }));
  svg.appendChild(svgEl('rect', { x: 0, y: h / 2, width: w, height: h / 2, class: 'graph-white' }));
  const x = (i) => (plies <= 1 ? 0 : (i / (plies - 1)) * w);
  const y = (v) => h / 2 - (v / 5) * (h / 2 - 3);
  const pts = [];
  for (let i = 0; i < plies; i++) {
    const v = scoreValue(scores[i], 5);
    if (v !== null) pts.push(x(i).toFixed(1) + ',' + y(v).toFixed(1));
  }
  if (pts.length) svg.appendChild(svgEl('polyline', { points: pts.join(' '), class: 'graph-line' }));
  if (current >= 0 && current < plies) {
    svg.appendChild(svgEl('line', { x1: x(current), x2: x(current), y1: 0, y2: h, class: 'graph-now' }));
  }
  svg.dataset.points = String(pts.length);
  if (onPly) {
    svg.addEventListener('click', (ev) => {
      const r = svg.getBoundingClientRect();
      const i = Math.round(((ev.clientX - r.left) / r.width) * (plies - 1));
      onPly(Math.max(0, Math.min(plies - 1, i)));
    });
  }
  return svg;
}

/**
 * A move list's cell: the move's button `b` and, when there is one, its score from "analyse
 * each move" (`score`: White's score as the engine writes it), small and in the page's
 * language. The score goes under the move when the two do not fit side by side, and is cut
 * short (the whole of it in its title) when it does not fit even there: a cell never widens
 * its column, so a row keeps its number, White's move and Black's move.
 */
export function moveCell(b, score) {
  const cell = el('span', { class: 'mv-cell' }, b);
  if (score !== undefined) {
    const text = scoreText(score);
    cell.appendChild(el('span', { class: 'eval', title: text, dataset: { score: String(score) } }, text));
  }
  return cell;
}
