// The board component: draws towers and marks, animates moves, and lets a player pick a
// move with the mouse, a finger (click or drag) or the keyboard. It owns the picking of a
// capture's path (with selection.js); the page only hears which move was chosen.

import { svgEl, clear, prefersLessMotion } from './dom.js';
import { SQ, MARGIN, BOARD, drawTower } from './towers.js';
import { destinations, pick, goOn, movesFrom } from './selection.js';
import { t } from './i18n.js';

const FILES = 'abcdefgh';

function squareColRow(square) {
  return { col: FILES.indexOf(square[0]), row: Number(square.slice(1)) - 1 };
}

/** Whether the square at column `col`, row `row` (from 0) is a dark, playing square. */
export function isDark(col, row) {
  return (col + row) % 2 === 0;
}

/**
 * Options: `onSquare(sq)` every click or Enter on a square; `onHover(sq)`; `onPlay(move)`
 * when a move is picked; `onChoose({square, options, via})` when the player must choose
 * between moves; `onRefuse(square, why)` when a click fits no move (`why`: 'tower' for a
 * tower that cannot move, 'square' for a square no move reaches); `onPremove({from, to})`;
 * `label` for screen readers.
 */
export class Board {
  constructor(options) {
    this.options = options || {};
    this.flipped = false;
    this.towers = {};
    this.marks = {};
    this.anim = null;
    this.legal = null;        // the moves that may be picked now, or null
    this.premoveColor = null; // the colour whose towers may be premoved, or null
    this.chosen = [];         // the squares picked so far
    this.cursor = null;       // the keyboard's square
    this.svg = svgEl('svg', {
      viewBox: '0 0 ' + BOARD + ' ' + BOARD,
      class: 'board',
      role: 'application',
      tabindex: '0',
      'aria-label': this.options.label || t('board-label'),
      'aria-roledescription': t('board-role'),
    });
    this.layers = {};
    for (const name of ['squares', 'coords', 'marks', 'pieces', 'over', 'anim']) {
      this.layers[name] = svgEl('g', { class: 'layer-' + name });
      this.svg.appendChild(this.layers[name]);
    }
    this.buildSquares();
    this.bindEvents();
    this.bindKeys();
  }

  origin(square) {
    const { col, row } = squareColRow(square);
    const x = this.flipped ? 7 - col : col;
    const y = this.flipped ? row : 7 - row;
    return { x: MARGIN + x * SQ, y: MARGIN + y * SQ };
  }

  centre(square) {
    const o = this.origin(square);
    return { x: o.x + SQ / 2, y: o.y + SQ / 2 };
  }

  buildSquares() {
    const sq = this.layers.squares;
    const coords = this.layers.coords;
    clear(sq);
    clear(coords);
    sq.appendChild(svgEl('rect', { x: 0, y: 0, width: BOARD, height: BOARD, class: 'frame' }));
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const name = FILES[col] + (row + 1);
        const o = this.origin(name);
        const dark = isDark(col, row);
        const attrs = { x: o.x, y: o.y, width: SQ, height: SQ, class: 'sq ' + (dark ? 'dark' : 'light') };
        if (dark) attrs['data-square'] = name;
        sq.appendChild(svgEl('rect', attrs));
      }
    }
    for (let i = 0; i < 8; i++) {
      const file = FILES[this.flipped ? 7 - i : i];
      const rank = String(this.flipped ? i + 1 : 8 - i);
      const x = MARGIN + i * SQ + SQ / 2;
      coords.appendChild(svgEl('text', { x, y: BOARD - 8, class: 'coord', text: file }));
      coords.appendChild(svgEl('text', { x, y: 20, class: 'coord', text: file }));
      const y = MARGIN + i * SQ + SQ / 2 + 7;
      coords.appendChild(svgEl('text', { x: 14, y, class: 'coord', text: rank }));
      coords.appendChild(svgEl('text', { x: BOARD - 14, y, class: 'coord', text: rank }));
    }
  }

  setFlipped(flipped) {
    if (this.flipped === flipped) return;
    this.finishAnimation();
    this.flipped = flipped;
    this.svg.dataset.flipped = flipped ? 'true' : 'false';
    this.buildSquares();
    this.draw();
  }

  /**
   * Draws `towers` ({square: "Wbb"}) with the page's `marks`: {last: [path], captured:
   * [squares], arrows: [{from, to, kind}], premove: {from, to}, path, pathCaptured, focus}.
   */
  render(towers, marks) {
    this.finishAnimation();
    this.towers = towers || {};
    this.marks = marks || {};
    this.draw();
  }

  /** Changes the page's marks only. */
  setMarks(marks) {
    this.marks = marks || {};
    if (this.anim) this.anim.marks = this.marks;
    else this.drawMarks();
  }

  /**
   * Which moves may be picked now (`legal`, or null for none), and the colour whose towers
   * may be picked for a premove while it is not their turn. Drops a choice that no longer fits.
   */
  setPlayable(legal, premoveColor) {
    const same = this.legal === legal;
    this.legal = legal && legal.length ? legal : null;
    this.premoveColor = this.legal ? null : (premoveColor || null);
    if (!same) this.chosen = [];
    this.svg.dataset.chosen = this.chosen.join(' ');
    this.drawMarks();
  }

  /** Drops the squares picked so far. */
  clearChoice() {
    this.chosen = [];
    this.svg.dataset.chosen = '';
    this.drawMarks();
  }

  /** Goes on through `square` after a choice with a way on. */
  goOnThrough(square) {
    if (!this.legal) return;
    this.chosen = goOn(this.legal, this.chosen, square);
    this.svg.dataset.chosen = this.chosen.join(' ');
    this.drawMarks();
  }

  /** Picks a tower on `square` (a drag's start). */
  startAt(square) {
    if (this.legal && movesFrom(this.legal, square).length) {
      this.chosen = [square];
      this.svg.dataset.chosen = square;
      this.drawMarks();
    }
  }

  /** Whether a tower on `square` may be picked up now. */
  canPick(square) {
    if (this.legal) return movesFrom(this.legal, square).length > 0;
    const t = this.towers[square];
    return !!(this.premoveColor && t && (this.premoveColor === 'white') === (t[0] === 'w' || t[0] === 'W'));
  }

  // A click or Enter on a square.
  act(square) {
    this.finishAnimation();
    if (this.options.onSquare) this.options.onSquare(square);
    if (this.legal) {
      const outcome = pick(this.legal, this.chosen, square);
      switch (outcome.kind) {
        case 'start':
        case 'extend':
          this.chosen = outcome.chosen;
          break;
        case 'clear':
          this.chosen = [];
          break;
        case 'play':
          this.chosen = [];
          if (this.options.onPlay) this.options.onPlay(outcome.move);
          break;
        case 'choose':
          if (this.options.onChoose) this.options.onChoose(outcome);
          break;
        case 'none':
          if (!outcome.keep) this.chosen = [];
          if (this.options.onRefuse) this.options.onRefuse(square, 'square');
          break;
        default:
          if (this.towers[square] && this.options.onRefuse) this.options.onRefuse(square, 'tower');
      }
    } else if (this.premoveColor) {
      if (!this.chosen.length) {
        if (this.canPick(square)) this.chosen = [square];
      } else if (this.chosen[0] === square) {
        this.chosen = [];
      } else {
        const from = this.chosen[0];
        this.chosen = [];
        if (this.options.onPremove) this.options.onPremove({ from, to: square });
      }
    }
    this.svg.dataset.chosen = this.chosen.join(' ');
    this.drawMarks();
  }

  draw() {
    this.drawPieces(this.towers);
    this.drawMarks();
  }

  drawPieces(towers) {
    const layer = this.layers.pieces;
    clear(layer);
    // from the back row forward, so that tall towers overlap correctly
    const squares = Object.keys(towers).sort((a, b) => this.centre(a).y - this.centre(b).y);
    for (const square of squares) {
      const tower = towers[square];
      if (!tower) continue;
      const c = this.centre(square);
      const g = drawTower(tower);
      g.setAttribute('transform', 'translate(' + c.x + ' ' + c.y + ')');
      g.dataset.at = square;
      g.dataset.tower = tower;
      layer.appendChild(g);
    }
  }

  // The line through the centres of `path`, with an arrow head at its end.
  route(path, cls) {
    const pts = path.map((s) => this.centre(s));
    const g = svgEl('g', { class: cls });
    g.appendChild(svgEl('polyline', { points: pts.map((p) => p.x + ',' + p.y).join(' '), class: 'route-line' }));
    const a = pts[pts.length - 2];
    const b = pts[pts.length - 1];
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    const size = 26;
    const tip = { x: b.x, y: b.y };
    const base = { x: b.x - ux * size, y: b.y - uy * size };
    const left = { x: base.x - uy * size * 0.6, y: base.y + ux * size * 0.6 };
    const right = { x: base.x + uy * size * 0.6, y: base.y - ux * size * 0.6 };
    g.appendChild(svgEl('path', {
      d: 'M' + tip.x + ' ' + tip.y + 'L' + left.x + ' ' + left.y + 'L' + right.x + ' ' + right.y + 'Z',
      class: 'route-head',
    }));
    return g;
  }

  drawMarks() {
    const marks = this.marks || {};
    const under = this.layers.marks;
    const over = this.layers.over;
    clear(under);
    clear(over);
    const box = (square, cls) => {
      const o = this.origin(square);
      return svgEl('rect', { x: o.x, y: o.y, width: SQ, height: SQ, class: cls });
    };
    const last = marks.last || [];
    for (const s of new Set(last)) under.appendChild(box(s, 'mark-last'));
    for (const s of marks.captured || []) {
      const c = this.centre(s);
      under.appendChild(box(s, 'mark-captured'));
      const d = 16;
      under.appendChild(svgEl('path', {
        d: 'M' + (c.x - d) + ' ' + (c.y - d) + 'L' + (c.x + d) + ' ' + (c.y + d) +
          'M' + (c.x + d) + ' ' + (c.y - d) + 'L' + (c.x - d) + ' ' + (c.y + d),
        class: 'mark-x',
      }));
    }
    if (last.length > 1) {
      const r = this.route(last, 'mark-route');
      r.dataset.path = last.join(' ');
      over.appendChild(r);
    }
    if (marks.premove) {
      under.appendChild(box(marks.premove.from, 'mark-premove'));
      under.appendChild(box(marks.premove.to, 'mark-premove'));
    }
    const chosen = this.chosen;
    if (chosen.length) {
      under.appendChild(box(chosen[0], 'mark-selected'));
      for (const s of chosen.slice(1)) under.appendChild(box(s, 'mark-chosen'));
    }
    if (this.cursor && this.keyboardFocus()) under.appendChild(box(this.cursor, 'mark-cursor'));
    if (marks.focus) under.appendChild(box(marks.focus, 'mark-focus'));
    if (marks.path && marks.path.length > 1) {
      const pts = marks.path.map((s) => {
        const c = this.centre(s);
        return c.x + ',' + c.y;
      }).join(' ');
      over.appendChild(svgEl('polyline', { points: pts, class: 'mark-path' }));
      for (const s of marks.pathCaptured || []) {
        const c = this.centre(s);
        over.appendChild(svgEl('circle', { cx: c.x, cy: c.y, r: 30, class: 'mark-path-captured' }));
      }
    }
    for (const a of marks.arrows || []) {
      const r = this.route(a.path || [a.from, a.to], 'mark-arrow ' + (a.kind || ''));
      r.dataset.from = (a.path || [a.from])[0];
      r.dataset.to = a.path ? a.path[a.path.length - 1] : a.to;
      over.appendChild(r);
    }
    if (this.legal && chosen.length) {
      const { finals, steps, next } = destinations(this.legal, chosen);
      for (const s of steps) {
        const c = this.centre(s);
        over.appendChild(svgEl('circle', { cx: c.x, cy: c.y, r: 9, class: 'mark-step', 'data-step': s }));
      }
      for (const s of finals) {
        const c = this.centre(s);
        over.appendChild(svgEl('circle', { cx: c.x, cy: c.y, r: 34, class: 'mark-final', 'data-final': s }));
      }
      for (const s of next) {
        const c = this.centre(s);
        over.appendChild(svgEl('circle', { cx: c.x, cy: c.y, r: 16, class: 'mark-target', 'data-target': s }));
      }
    }
  }

  finishAnimation() {
    if (this.anim) {
      const a = this.anim;
      this.anim = null;
      delete this.svg.dataset.animating;
      cancelAnimationFrame(a.frame);
      clear(this.layers.anim);
      a.resolve();
    }
  }

  /**
   * Shows a move: the moving tower travels along its path; each checker it takes slides
   * under it. Ends with `toTowers` drawn.
   */
  animate(fromTowers, move, toTowers, marks) {
    this.finishAnimation();
    if (prefersLessMotion() || !move || !fromTowers[move.path[0]]) {
      this.render(toTowers, marks);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const path = move.path;
      const captured = move.captured || [];
      const segs = path.length - 1;
      const segTime = segs > 1 ? Math.max(160, Math.min(280, 900 / segs)) : 380;
      const slideTime = 260;
      const total = segs * segTime + (captured.length ? slideTime : 0);
      const towers = Object.assign({}, fromTowers);
      const moverTower = towers[path[0]];
      delete towers[path[0]];
      this.towers = towers;
      this.marks = {};
      this.drawMarks();
      this.drawPieces(towers);
      const layer = this.layers.anim;
      clear(layer);
      const mover = drawTower(moverTower);
      mover.classList.add('moving');
      layer.appendChild(mover);
      const points = path.map((s) => this.centre(s));
      const prisoners = [];
      let taken = 0;
      const start = performance.now();
      const ease = (p) => (p < 0.5 ? 2 * p * p : 1 - Math.pow(-2 * p + 2, 2) / 2);
      const anim = { frame: 0, marks };
      const step = (now) => {
        if (this.anim !== anim) return;
        const t = Math.max(0, now - start);
        const seg = Math.min(segs - 1, Math.floor(t / segTime));
        const p = Math.min(1, (t - seg * segTime) / segTime);
        const a = points[seg];
        const b = points[seg + 1];
        const e = ease(p);
        const pos = t >= segs * segTime
          ? points[segs]
          : { x: a.x + (b.x - a.x) * e, y: a.y + (b.y - a.y) * e };
        mover.setAttribute('transform', 'translate(' + pos.x + ' ' + pos.y + ')');
        // Take each jumped checker when the mover lands beyond it.
        while (taken < captured.length && t >= (taken + 1) * segTime - segTime * 0.35) {
          const sq = captured[taken];
          const tower = towers[sq] || '';
          const top = tower.charAt(0) || 'b';
          const rest = tower.slice(1);
          if (rest) towers[sq] = rest; else delete towers[sq];
          this.drawPieces(towers);
          const from = this.centre(sq);
          const disc = drawTower(top);
          disc.classList.add('prisoner');
          layer.insertBefore(disc, mover);
          prisoners.push({ disc, from, startAt: t });
          taken++;
        }
        for (const pr of prisoners) {
          const q = Math.min(1, (t - pr.startAt) / slideTime);
          const eq = ease(q);
          const tx = pr.from.x + (pos.x - pr.from.x) * eq;
          const ty = pr.from.y + (pos.y + 22 - pr.from.y) * eq;
          const sc = 1 - 0.25 * eq;
          pr.disc.setAttribute('transform', 'translate(' + tx + ' ' + ty + ') scale(' + sc + ')');
          pr.disc.setAttribute('opacity', String(1 - 0.9 * q));
        }
        if (t >= total) {
          this.anim = null;
          delete this.svg.dataset.animating;
          clear(layer);
          this.render(toTowers, anim.marks);
          resolve();
          return;
        }
        anim.frame = requestAnimationFrame(step);
      };
      anim.resolve = () => { this.render(toTowers, anim.marks); resolve(); };
      this.anim = anim;
      anim.frame = requestAnimationFrame(step);
      this.svg.dataset.animating = 'true';
    });
  }

  // The keyboard: arrows move a cursor over the dark squares, Enter or Space acts on it,
  // Escape drops the choice.
  bindKeys() {
    const svg = this.svg;
    svg.addEventListener('focus', () => {
      if (!this.cursor) this.cursor = this.chosen[0] || (this.flipped ? 'h8' : 'a1');
      this.drawMarks();
      this.announceCursor();
    });
    svg.addEventListener('blur', () => this.drawMarks());
    svg.addEventListener('keydown', (ev) => {
      const moves = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      if (moves[ev.key]) {
        const [dx, dy] = moves[ev.key];
        const sign = this.flipped ? -1 : 1;
        const { col, row } = squareColRow(this.cursor || 'a1');
        // Sideways: two files along the same row; up and down: the next row, one file over.
        let c = col + dx * 2 * sign;
        let r = row + dy * sign;
        if (dy !== 0) c = col + 1 <= 7 ? col + 1 : col - 1;
        if (c >= 0 && c < 8 && r >= 0 && r < 8 && isDark(c, r)) this.cursor = FILES[c] + (r + 1);
        ev.preventDefault();
        ev.stopPropagation();
        this.drawMarks();
        this.announceCursor();
      } else if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        ev.stopPropagation();
        if (this.cursor) this.act(this.cursor);
      } else if (ev.key === 'Escape') {
        this.clearChoice();
      }
    });
  }

  // Whether the board has the keyboard's focus (not a click's).
  keyboardFocus() {
    if (document.activeElement !== this.svg) return false;
    try { return this.svg.matches(':focus-visible'); } catch (e) { return true; }
  }

  announceCursor() {
    this.svg.dataset.cursor = this.cursor || '';
    if (this.options.onHover && this.cursor) this.options.onHover(this.cursor);
  }

  // Click, hover, long press, drag.
  bindEvents() {
    const svg = this.svg;
    let press = null;
    let suppressClick = false;
    const squareAt = (clientX, clientY) => {
      const hit = document.elementFromPoint(clientX, clientY);
      const rect = hit && hit.closest && hit.closest('[data-square]');
      return rect && svg.contains(rect) ? rect.getAttribute('data-square') : null;
    };
    const toSvg = (clientX, clientY) => {
      const pt = svg.createSVGPoint();
      pt.x = clientX;
      pt.y = clientY;
      const m = svg.getScreenCTM();
      return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
    };
    svg.addEventListener('click', (ev) => {
      if (suppressClick) { suppressClick = false; return; }
      const rect = ev.target.closest && ev.target.closest('[data-square]');
      if (rect) {
        this.cursor = rect.getAttribute('data-square');
        this.act(this.cursor);
      }
    });
    svg.addEventListener('pointerover', (ev) => {
      const rect = ev.target.closest && ev.target.closest('[data-square]');
      if (rect && this.options.onHover && ev.pointerType !== 'touch') {
        this.options.onHover(rect.getAttribute('data-square'));
      }
    });
    svg.addEventListener('pointerleave', () => {
      if (this.options.onHover) this.options.onHover(null);
    });
    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0 && ev.pointerType === 'mouse') return;
      const rect = ev.target.closest && ev.target.closest('[data-square]');
      if (!rect) return;
      const square = rect.getAttribute('data-square');
      press = { square, x: ev.clientX, y: ev.clientY, id: ev.pointerId, dragging: false, ghost: null };
      press.timer = setTimeout(() => {
        if (press && !press.dragging && this.options.onLongPress) this.options.onLongPress(square);
      }, 550);
    });
    svg.addEventListener('pointermove', (ev) => {
      if (!press || ev.pointerId !== press.id) return;
      const dist = Math.hypot(ev.clientX - press.x, ev.clientY - press.y);
      if (!press.dragging && dist > 8) {
        clearTimeout(press.timer);
        if (this.canPick(press.square) && this.towers[press.square]) {
          press.dragging = true;
          try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* ignore */ }
          this.finishAnimation();
          if (this.legal) this.startAt(press.square);
          else { this.chosen = [press.square]; this.drawMarks(); }
          const lifted = this.layers.pieces.querySelector('.tower[data-at="' + press.square + '"]');
          if (lifted) lifted.classList.add('lifted');
          const ghost = drawTower(this.towers[press.square]);
          ghost.classList.add('ghost');
          this.layers.anim.appendChild(ghost);
          press.ghost = ghost;
        } else {
          press = null;
          return;
        }
      }
      if (press.dragging && press.ghost) {
        const p = toSvg(ev.clientX, ev.clientY);
        press.ghost.setAttribute('transform', 'translate(' + p.x + ' ' + p.y + ')');
        ev.preventDefault();
      }
    });
    const end = (ev, cancelled) => {
      if (!press || ev.pointerId !== press.id) return;
      clearTimeout(press.timer);
      const p = press;
      press = null;
      if (!p.dragging) return;
      if (p.ghost) p.ghost.remove();
      const lifted = this.layers.pieces.querySelector('.tower.lifted');
      if (lifted) lifted.classList.remove('lifted');
      suppressClick = true;
      setTimeout(() => { suppressClick = false; }, 0);
      if (cancelled) return;
      const target = squareAt(ev.clientX, ev.clientY);
      if (target && target !== p.square && this.chosen[0] === p.square) this.act(target);
    };
    svg.addEventListener('pointerup', (ev) => end(ev, false));
    svg.addEventListener('pointercancel', (ev) => end(ev, true));
    svg.addEventListener('contextmenu', (ev) => {
      if (ev.target.closest && ev.target.closest('[data-square]')) ev.preventDefault();
    });
  }
}
