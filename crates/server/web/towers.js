// Drawing a tower seen from the side: its checkers as discs, the commander on top.

import { svgEl } from './dom.js';

/** The size of a square in board units. */
export const SQ = 100;
/** Room around the squares for the coordinates. */
export const MARGIN = 28;
/** The whole board in board units. */
export const BOARD = SQ * 8 + MARGIN * 2;
const DISC_RX = 40;
const DISC_RY = 14;
const TOP_T = 13;        // thickness of the commanding checker
const DISC_T = 9;        // thickness of the others
const TALL = 6;          // towers higher than this are drawn pressed together
const MIN_T = 3.4;       // the thinnest a checker is drawn

/** Thickness of each checker, top first. */
export function discThicknesses(n) {
  const t = [TOP_T];
  const each = n <= TALL ? DISC_T : Math.max(MIN_T, 54 / (n - 1));
  for (let i = 1; i < n; i++) t.push(each);
  return t;
}

function crownShape(cx, cy, size, attrs) {
  // A small crown: a base and three points.
  const w = size;
  const h = size * 0.7;
  const x0 = cx - w / 2;
  const y0 = cy + h / 2;
  const d = [
    'M', x0, y0,
    'L', x0, y0 - h * 0.55,
    'L', x0 + w * 0.22, y0 - h * 0.25,
    'L', cx, y0 - h,
    'L', x0 + w * 0.78, y0 - h * 0.25,
    'L', x0 + w, y0 - h * 0.55,
    'L', x0 + w, y0, 'Z',
  ].join(' ');
  return svgEl('path', Object.assign({ d, class: 'crown' }, attrs || {}));
}

/**
 * A tower centred at (0, 0). A king under the top shows as a gold band round its disc (and
 * a small crown while the tower is low); from two checkers up a badge gives the height, with
 * a gold ring when kings are buried inside.
 */
export function drawTower(tower, opts) {
  const g = svgEl('g', { class: 'tower' });
  const checkers = Array.from(tower);
  const n = checkers.length;
  const t = discThicknesses(n);
  const sum = t.reduce((a, b) => a + b, 0);
  const yTop = -sum / 2 + 2;
  const ys = [];
  let y = yTop;
  for (let i = 0; i < n; i++) { ys.push(y); y += t[i]; }
  const compressed = n > TALL;
  let buriedKings = 0;
  for (let i = n - 1; i >= 0; i--) {
    const ch = checkers[i];
    const white = ch === 'w' || ch === 'W';
    const king = ch === 'W' || ch === 'B';
    const yt = ys[i];
    const yb = yt + t[i];
    const cls = 'disc ' + (white ? 'white' : 'black') + (i === 0 ? ' top' : '') +
      (compressed && i > 0 ? ' thin' : '');
    const disc = svgEl('g', { class: cls, dataset: { index: String(i), checker: ch } });
    const side = [
      'M', -DISC_RX, yt,
      'L', -DISC_RX, yb,
      'A', DISC_RX, DISC_RY, 0, 0, 0, DISC_RX, yb,
      'L', DISC_RX, yt, 'Z',
    ].join(' ');
    disc.appendChild(svgEl('path', { d: side, class: 'side' }));
    disc.appendChild(svgEl('ellipse', { cx: 0, cy: yt, rx: DISC_RX, ry: DISC_RY, class: 'face' }));
    if (i === 0) {
      disc.appendChild(svgEl('ellipse', { cx: 0, cy: yt, rx: DISC_RX * 0.68, ry: DISC_RY * 0.62, class: 'ring' }));
      if (king) disc.appendChild(crownShape(0, yt, 22));
    } else if (king) {
      buriedKings++;
      // A gold band round the disc's edge, following its curve.
      const ym = (yt + yb) / 2;
      disc.appendChild(svgEl('path', {
        d: ['M', -DISC_RX + 1, ym, 'A', DISC_RX - 1, DISC_RY, 0, 0, 0, DISC_RX - 1, ym].join(' '),
        class: 'kingband',
        'stroke-width': Math.max(2.4, Math.min(5, t[i] * 0.7)),
      }));
      if (!compressed) {
        disc.appendChild(crownShape(0, ym + DISC_RY * 0.9 - 1, 11, { class: 'crown small' }));
      }
    }
    g.appendChild(disc);
  }
  if (n > 1 && !(opts && opts.badge === false)) {
    const bx = DISC_RX + 4;
    const by = yTop - DISC_RY - 2;
    g.appendChild(svgEl('circle', { cx: bx, cy: by, r: 14, class: 'badge' + (buriedKings ? ' kings' : '') }));
    g.appendChild(svgEl('text', { x: bx, y: by + 5.5, class: 'badge-text', text: String(n) }));
  }
  g.dataset.height = String(n);
  g.dataset.kingsInside = String(buriedKings);
  return g;
}
