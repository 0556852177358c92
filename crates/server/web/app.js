// The Bashni web page: home, game, join and study views. Plain browser JavaScript.
// Every text that comes from the server or from a user goes into the page with
// textContent (through el()), never as HTML.
'use strict';

(function () {
  // ---------------------------------------------------------------- helpers

  const SVG_NS = 'http://www.w3.org/2000/svg';
  const FILES = 'abcdefgh';

  const LEVEL_NAMES = {
    1: 'beginner', 2: 'novice', 3: 'casual', 4: 'club',
    5: 'strong club', 6: 'expert', 7: 'master', 8: 'full strength',
  };

  const TIME_PRESETS = [
    { value: 'none', label: 'No clock' },
    { value: '20+30', label: '20 min + 30 s' },
    { value: '8+4', label: '8 min + 4 s' },
    { value: '7+5', label: '7 min + 5 s' },
    { value: '3+2', label: '3 min + 2 s' },
  ];

  // Build an element. Strings and numbers among the children become text nodes.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function svgEl(tag, attrs, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function setAttrs(node, attrs) {
    if (!attrs) return;
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.setAttribute('class', value);
      else if (key === 'text') node.textContent = String(value);
      else if (key.startsWith('on') && typeof value === 'function') {
        node.addEventListener(key.slice(2), value);
      } else if (key === 'dataset') {
        for (const [k, v] of Object.entries(value)) node.dataset[k] = v;
      } else if (key === 'value' && 'value' in node) node.value = value;
      else if (value === true) node.setAttribute(key, '');
      else node.setAttribute(key, String(value));
    }
  }

  function append(node, children) {
    const list = Array.isArray(children) ? children.flat(Infinity) : [children];
    for (const child of list) {
      if (child === null || child === undefined || child === false) continue;
      if (typeof child === 'string' || typeof child === 'number') {
        node.appendChild(document.createTextNode(String(child)));
      } else {
        node.appendChild(child);
      }
    }
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function capital(s) {
    return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
  }

  function otherColor(c) {
    return c === 'white' ? 'black' : 'white';
  }

  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.error) || ('The server answered ' + status));
      this.status = status;
      this.code = body && body.code;
      this.body = body;
    }
  }

  async function api(method, path, body, token, contentType) {
    const headers = {};
    let payload;
    if (body !== undefined) {
      if (contentType === 'text/plain') {
        headers['Content-Type'] = 'text/plain';
        payload = body;
      } else {
        headers['Content-Type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    }
    if (token) headers['X-Seat-Token'] = token;
    let response;
    try {
      response = await fetch(path, { method, headers, body: payload, cache: 'no-store' });
    } catch (e) {
      throw new ApiError(0, { error: 'Cannot reach the server.', code: 'network' });
    }
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text }; }
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  // Seat tokens, one record per game id.
  const seats = {
    key: (id) => 'bashni.seat.' + id,
    get(id) {
      try {
        const raw = localStorage.getItem(this.key(id));
        return raw ? JSON.parse(raw) : null;
      } catch (e) { return null; }
    },
    set(id, record) {
      try { localStorage.setItem(this.key(id), JSON.stringify(record)); } catch (e) { /* full */ }
    },
  };

  function prefersLessMotion() {
    return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  }

  function absoluteUrl(path) {
    return new URL(path, location.origin).href;
  }

  async function copyText(text, input, note) {
    let ok = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        ok = true;
      }
    } catch (e) { ok = false; }
    if (!ok && input) {
      input.focus();
      input.select();
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    }
    if (note) note.textContent = ok ? 'Copied.' : 'Select the link and copy it.';
  }

  function checkerName(ch) {
    const color = ch === 'w' || ch === 'W' ? 'white' : 'black';
    const kind = ch === 'W' || ch === 'B' ? 'king' : 'man';
    return color + ' ' + kind;
  }

  function towerText(square, tower) {
    if (!tower) return square + ': empty';
    const names = Array.from(tower).map(checkerName);
    names[0] = capital(names[0]);
    return square + ': ' + names.join(' / ');
  }

  function formatClock(ms) {
    if (ms < 0) ms = 0;
    if (ms < 10000) {
      const tenths = Math.floor(ms / 100);
      return '0:0' + Math.floor(tenths / 10) + '.' + (tenths % 10);
    }
    const total = Math.ceil(ms / 1000);
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    const ss = String(s).padStart(2, '0');
    return h > 0 ? h + ':' + String(m).padStart(2, '0') + ':' + ss : m + ':' + ss;
  }

  function resultText(result) {
    if (!result) return '';
    let who;
    if (result.winner === 'white') who = 'White wins';
    else if (result.winner === 'black') who = 'Black wins';
    else who = 'Draw';
    return result.score + ' ' + who + '. ' + result.reason;
  }

  function variantName(v) {
    return v === 'russian' ? 'Russian draughts' : 'Bashni';
  }

  function modeName(m) {
    return { engine: 'against the engine', friend: 'with a friend', local: 'at one screen', record: 'record' }[m] || m;
  }

  // ---------------------------------------------------------------- the board

  const SQ = 100;          // a square in board units
  const MARGIN = 28;       // room for the coordinates
  const BOARD = SQ * 8 + MARGIN * 2;
  const DISC_RX = 40;
  const DISC_RY = 14;
  const TOP_T = 13;        // thickness of the commanding checker
  const DISC_T = 9;        // thickness of the others
  const TALL = 5;          // towers higher than this are drawn compressed

  function squareColRow(square) {
    return { col: FILES.indexOf(square[0]), row: Number(square.slice(1)) - 1 };
  }

  function isDark(col, row) {
    return (col + row) % 2 === 0;
  }

  // Thickness of each checker, top first.
  function discThicknesses(n) {
    const t = [TOP_T];
    if (n <= TALL) {
      for (let i = 1; i < n; i++) t.push(DISC_T);
    } else {
      const each = Math.max(1.6, 36 / (n - 1));
      for (let i = 1; i < n; i++) t.push(each);
    }
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

  // Draw a tower centred at (0, 0): discs seen from the side, the commander on top.
  function drawTower(tower, opts) {
    const g = svgEl('g', { class: 'tower' });
    const checkers = Array.from(tower);
    const n = checkers.length;
    const t = discThicknesses(n);
    const sum = t.reduce((a, b) => a + b, 0);
    const yTop = -sum / 2 + 2;
    // y of the top face of checker i (0 = top)
    const ys = [];
    let y = yTop;
    for (let i = 0; i < n; i++) { ys.push(y); y += t[i]; }
    const compressed = n > TALL;
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
        // A king inside the tower: a mark on its edge.
        const my = (yt + yb) / 2 + DISC_RY * 0.9;
        if (compressed) {
          disc.appendChild(svgEl('circle', { cx: DISC_RX - 6, cy: yb + DISC_RY * 0.6, r: 2.6, class: 'kingdot' }));
        } else {
          disc.appendChild(crownShape(0, my - 1, 11, { class: 'crown small' }));
        }
      }
      g.appendChild(disc);
    }
    if (compressed || (opts && opts.badge && n > 1)) {
      const bx = DISC_RX + 4;
      const by = yTop - DISC_RY - 2;
      g.appendChild(svgEl('circle', { cx: bx, cy: by, r: 13, class: 'badge' }));
      g.appendChild(svgEl('text', { x: bx, y: by + 5, class: 'badge-text', text: String(n) }));
    }
    g.dataset.height = String(n);
    return g;
  }

  class Board {
    constructor(options) {
      this.options = options || {};
      this.flipped = false;
      this.towers = {};
      this.marks = {};
      this.anim = null;
      this.svg = svgEl('svg', {
        viewBox: '0 0 ' + BOARD + ' ' + BOARD,
        class: 'board',
        role: 'img',
        'aria-label': 'Board',
      });
      this.layers = {};
      for (const name of ['squares', 'coords', 'marks', 'pieces', 'over', 'anim']) {
        this.layers[name] = svgEl('g', { class: 'layer-' + name });
        this.svg.appendChild(this.layers[name]);
      }
      this.buildSquares();
      this.bindEvents();
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
          const attrs = { x: o.x, y: o.y, width: SQ, height: SQ, class: dark ? 'sq dark' : 'sq light' };
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

    // towers: {square: "Wbb"}; marks: {last: [squares], captured: [squares],
    // selected: square, targets: [squares], path: [squares], focus: square}
    render(towers, marks) {
      this.finishAnimation();
      this.towers = towers || {};
      this.marks = marks || {};
      this.draw();
    }

    setMarks(marks) {
      this.marks = marks || {};
      if (this.anim) this.anim.marks = this.marks;
      else this.drawMarks();
    }

    draw() {
      this.drawPieces(this.towers, null);
      this.drawMarks();
    }

    drawPieces(towers, skip) {
      const layer = this.layers.pieces;
      clear(layer);
      const squares = Object.keys(towers).sort((a, b) => {
        // draw from the back row forward so that tall towers overlap correctly
        return this.centre(a).y - this.centre(b).y;
      });
      for (const square of squares) {
        if (square === skip) continue;
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
      for (const s of marks.last || []) under.appendChild(box(s, 'mark-last'));
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
      if (marks.selected) under.appendChild(box(marks.selected, 'mark-selected'));
      for (const s of marks.chosen || []) under.appendChild(box(s, 'mark-chosen'));
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
      for (const s of marks.targets || []) {
        const c = this.centre(s);
        over.appendChild(svgEl('circle', { cx: c.x, cy: c.y, r: 16, class: 'mark-target', 'data-target': s }));
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

    // Show a move: the moving tower travels along its path; each checker it takes
    // slides under it. Ends with the final towers drawn.
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
        this.drawPieces(towers, null);
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
            this.drawPieces(towers, null);
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
        const anim = { frame: 0, marks };
        anim.resolve = () => { this.render(toTowers, anim.marks); resolve(); };
        this.anim = anim;
        anim.frame = requestAnimationFrame(step);
        this.svg.dataset.animating = 'true';
      });
    }

    // Events: click, hover, long press, drag.
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
        if (rect && this.options.onClick) this.options.onClick(rect.getAttribute('data-square'));
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
          if (press && !press.dragging && this.options.onLongPress) {
            this.options.onLongPress(square);
          }
        }, 550);
      });
      svg.addEventListener('pointermove', (ev) => {
        if (!press || ev.pointerId !== press.id) return;
        const dist = Math.hypot(ev.clientX - press.x, ev.clientY - press.y);
        if (!press.dragging && dist > 8) {
          clearTimeout(press.timer);
          if (this.options.canDrag && this.options.canDrag(press.square) && this.towers[press.square]) {
            press.dragging = true;
            try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* ignore */ }
            this.finishAnimation();
            if (this.options.onDragStart) this.options.onDragStart(press.square);
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
        if (target && target !== p.square && this.options.onDrop) this.options.onDrop(p.square, target);
      };
      svg.addEventListener('pointerup', (ev) => end(ev, false));
      svg.addEventListener('pointercancel', (ev) => end(ev, true));
      svg.addEventListener('contextmenu', (ev) => {
        if (ev.target.closest && ev.target.closest('[data-square]')) ev.preventDefault();
      });
    }
  }

  // ---------------------------------------------------------------- pages

  const app = document.getElementById('app');

  function route() {
    const path = location.pathname.replace(/\/+$/, '') || '/';
    let m;
    if (path === '/') return homePage();
    if (path === '/study') return studyPage();
    if ((m = path.match(/^\/g\/([^/]+)\/join\/([^/]+)$/))) {
      return joinPage(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
    }
    if ((m = path.match(/^\/g\/([^/]+)$/))) return gamePage(decodeURIComponent(m[1]));
    document.body.dataset.page = 'missing';
    append(app, [el('h1', null, 'Page not found'), el('p', null, el('a', { href: '/' }, 'Go to the start page'))]);
    return null;
  }

  function field(labelText, control, hint) {
    return el('label', { class: 'field' }, el('span', { class: 'label' }, labelText), control,
      hint ? el('span', { class: 'hint' }, hint) : null);
  }

  function select(id, options, value) {
    const s = el('select', { id, name: id });
    for (const o of options) {
      const opt = el('option', { value: o.value }, o.label);
      if (String(o.value) === String(value)) opt.selected = true;
      s.appendChild(opt);
    }
    return s;
  }

  function levelOptions() {
    return Object.entries(LEVEL_NAMES).map(([n, name]) => ({ value: n, label: n + ' ' + name }));
  }

  function timeBody(value) {
    if (!value || value === 'none') return null;
    const [m, s] = value.split('+').map(Number);
    return { minutes: m, increment_s: s };
  }

  // Create a game and go to it. `extra` may hold `position`.
  async function createGame(body) {
    const data = await api('POST', '/api/games', body);
    seats.set(data.id, { token: data.token, seat: data.seat, invite_url: data.invite_url || null });
    location.assign(data.url || ('/g/' + data.id));
    return data;
  }

  // -------- home

  function homePage() {
    document.body.dataset.page = 'home';
    document.title = 'Bashni';
    const savedName = localStorage.getItem('bashni.name') || '';

    const mode = select('mode', [
      { value: 'engine', label: 'Against the engine' },
      { value: 'friend', label: 'Against a friend (invite link)' },
      { value: 'local', label: 'Two people at one screen' },
    ], 'engine');
    const variant = select('variant', [
      { value: 'bashni', label: 'Bashni (towers)' },
      { value: 'russian', label: 'Russian draughts' },
    ], 'bashni');
    const level = select('level', levelOptions(), 4);
    const color = select('color', [
      { value: 'white', label: 'White' },
      { value: 'black', label: 'Black' },
      { value: 'random', label: 'Random' },
    ], 'white');
    const time = select('time', TIME_PRESETS, 'none');
    const name = el('input', { id: 'name', type: 'text', maxlength: 40, value: savedName, placeholder: 'Your name', autocomplete: 'nickname' });
    const opponent = el('input', { id: 'opponent-name', type: 'text', maxlength: 40, placeholder: 'Second player' });
    const error = el('p', { class: 'error', id: 'create-error', role: 'alert' });
    const levelField = field('Engine level', level);
    const colorField = field('Your colour', color);
    const opponentField = field('Second player\'s name', opponent);
    const nameField = field('Your name', name);

    const sync = () => {
      levelField.hidden = mode.value !== 'engine';
      colorField.hidden = mode.value === 'local';
      opponentField.hidden = mode.value !== 'local';
      nameField.querySelector('.label').textContent = mode.value === 'local' ? 'First player\'s name (White)' : 'Your name';
    };
    mode.addEventListener('change', sync);
    sync();

    const form = el('form', { id: 'new-game', class: 'card' },
      el('h2', null, 'New game'),
      field('Play', mode),
      field('Game', variant),
      levelField,
      colorField,
      field('Clock', time),
      nameField,
      opponentField,
      el('button', { type: 'submit', id: 'create', class: 'primary' }, 'Start the game'),
      error);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      error.textContent = '';
      const body = { variant: variant.value, mode: mode.value, time: timeBody(time.value) };
      if (mode.value === 'engine') body.level = Number(level.value);
      if (mode.value !== 'local') body.color = color.value;
      if (name.value.trim()) body.name = name.value.trim();
      if (mode.value === 'local' && opponent.value.trim()) body.opponent_name = opponent.value.trim();
      try { localStorage.setItem('bashni.name', name.value.trim()); } catch (e) { /* ignore */ }
      form.querySelector('#create').disabled = true;
      try {
        await createGame(body);
      } catch (e) {
        error.textContent = e.message;
        form.querySelector('#create').disabled = false;
      }
    });

    // PDN upload
    const file = el('input', { id: 'pdn-file', type: 'file', accept: '.pdn,.txt,text/plain' });
    const pasted = el('textarea', { id: 'pdn-text', rows: 4, placeholder: 'Or paste PDN text here' });
    const results = el('ul', { id: 'pdn-results', class: 'plain' });
    const uploadError = el('p', { class: 'error', role: 'alert' });
    const upload = el('form', { id: 'pdn-form', class: 'card' },
      el('h2', null, 'Open game records (PDN)'),
      field('PDN file', file),
      pasted,
      el('button', { type: 'submit', id: 'pdn-upload' }, 'Upload'),
      uploadError,
      results);
    upload.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      uploadError.textContent = '';
      clear(results);
      let text = pasted.value;
      if (file.files && file.files[0]) text = await file.files[0].text();
      if (!text.trim()) { uploadError.textContent = 'Choose a file or paste PDN text.'; return; }
      try {
        const data = await api('POST', '/api/pdn', text, null, 'text/plain');
        for (const g of data.games || []) {
          if (g.id) {
            results.appendChild(el('li', { class: 'pdn-ok' }, el('a', { href: '/g/' + encodeURIComponent(g.id), class: 'record-link' }, 'Game ' + g.index)));
          } else {
            results.appendChild(el('li', { class: 'pdn-error' }, 'Game ' + g.index + ': ' + (g.error || 'cannot be read')));
          }
        }
        if (!(data.games || []).length) uploadError.textContent = 'No games found in the text.';
      } catch (e) {
        uploadError.textContent = e.message;
      }
    });

    const list = el('ul', { id: 'recent', class: 'games' }, el('li', null, 'Loading…'));
    const recent = el('section', { class: 'card' }, el('h2', null, 'Recent games'), list);

    append(app, [
      el('div', { class: 'home' },
        el('div', { class: 'col' }, form,
          el('section', { class: 'card' }, el('h2', null, 'Study'),
            el('p', null, 'Set up any position, build towers and ask the engine. ',
              el('a', { href: '/study', id: 'study-link' }, 'Open the study board')))),
        el('div', { class: 'col' }, recent, upload)),
    ]);

    api('GET', '/api/games?limit=30').then((data) => {
      clear(list);
      const games = (data && data.games) || [];
      if (!games.length) list.appendChild(el('li', null, 'No games yet.'));
      for (const g of games) {
        const nameOf = (p, fallback) => (typeof p === 'string' ? p : (p && p.name)) || fallback;
        const w = nameOf(g.white, 'White');
        const b = nameOf(g.black, 'Black');
        const status = !g.result ? 'in play' : typeof g.result === 'string' ? g.result : g.result.score;
        // A thumbnail of the current position, drawn by the server as the board is drawn here;
        // the move count in the address asks for a new picture once the game has gone on.
        const thumb = el('img', {
          class: 'thumb',
          src: '/api/games/' + encodeURIComponent(g.id) + '/diagram.svg?size=128&seen=' + encodeURIComponent(g.plies),
          width: 64, height: 64, alt: '', loading: 'lazy',
          style: 'flex: none; width: 64px; height: 64px; border-radius: 3px;',
        });
        list.appendChild(el('li', null,
          el('a', { href: '/g/' + encodeURIComponent(g.id), style: 'flex-direction: row; align-items: center; gap: 0.7rem;' },
            thumb,
            el('span', { style: 'display: flex; flex-direction: column; min-width: 0;' },
              el('span', { class: 'names' }, w + ' – ' + b),
              el('span', { class: 'meta' }, variantName(g.variant) + ', ' + modeName(g.mode) + ', ' +
                g.moves + (g.moves === 1 ? ' move' : ' moves') + ', ' + status)))));
      }
    }).catch((e) => {
      clear(list);
      list.appendChild(el('li', { class: 'error' }, e.message));
    });
  }

  // -------- join

  function joinPage(id, invite) {
    document.body.dataset.page = 'join';
    document.title = 'Join a game – Bashni';
    const have = seats.get(id);
    const name = el('input', { id: 'join-name', type: 'text', maxlength: 40, value: localStorage.getItem('bashni.name') || '', placeholder: 'Your name' });
    const error = el('p', { class: 'error', id: 'join-error', role: 'alert' });
    const info = el('p', { id: 'join-info' });
    const button = el('button', { type: 'submit', id: 'join', class: 'primary' }, 'Join the game');
    const form = el('form', { class: 'card narrow', id: 'join-form' },
      el('h2', null, 'You are invited to a game'),
      info,
      field('Your name', name),
      button,
      error,
      el('p', null, el('a', { href: '/g/' + encodeURIComponent(id) }, 'Only watch the game')));
    append(app, form);
    if (have && have.token) {
      info.textContent = 'You already have a seat in this game. ';
      info.appendChild(el('a', { href: '/g/' + encodeURIComponent(id) }, 'Go to the game'));
    }
    api('GET', '/api/games/' + encodeURIComponent(id)).then((state) => {
      const creator = state.white && state.white.joined ? state.white : state.black;
      const free = state.white && state.white.joined ? 'black' : 'white';
      if (!have) {
        info.textContent = (creator && creator.name ? creator.name : 'A player') + ' invites you to play ' +
          variantName(state.variant) + '. You play ' + free + '.';
      }
    }).catch((e) => {
      if (e.status === 404) {
        // No such game: nothing to join.
        clear(app);
        append(app, el('div', { class: 'card narrow', id: 'join-missing' }, el('h1', null, 'No such game'),
          el('p', null, 'The invite link is wrong, or the game is gone. ',
            el('a', { href: '/' }, 'Start a new game'))));
        return;
      }
      error.textContent = e.message;
    });
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      error.textContent = '';
      button.disabled = true;
      try {
        const body = { invite };
        if (name.value.trim()) body.name = name.value.trim();
        try { localStorage.setItem('bashni.name', name.value.trim()); } catch (e) { /* ignore */ }
        const data = await api('POST', '/api/games/' + encodeURIComponent(id) + '/join', body);
        seats.set(id, { token: data.token, seat: data.seat });
        location.assign('/g/' + encodeURIComponent(id));
      } catch (e) {
        error.textContent = e.status === 409 ? 'The seat is already taken. ' + e.message : e.message;
        button.disabled = false;
      }
    });
  }

  // -------- analysis panel (shared by game and study pages)

  function analysisView(data, turn) {
    const box = el('div', { class: 'analysis-result' });
    box.appendChild(el('p', { class: 'analysis-summary' },
      'Depth ' + data.depth + ', ' + Number(data.nodes || 0).toLocaleString('en') + ' positions. ' +
      'Scores are in men (1.00 = one man); plus is good for the side named.'));
    const ol = el('ol', { class: 'lines' });
    for (const line of data.lines || []) {
      ol.appendChild(el('li', null,
        el('b', { class: 'score' }, line.score),
        turn === 'black' && /^[+-]?\d/.test(line.score)
          ? ' for Black (' + line.score_white + ' for White) '
          : ' for ' + capital(turn) + ' ',
        el('span', { class: 'line' }, (line.moves || []).join(' '))));
    }
    box.appendChild(ol);
    return box;
  }

  // ---------------------------------------------------------------- game page

  function gamePage(id) {
    document.body.dataset.page = 'game';
    const seat = seats.get(id);
    const token = seat ? seat.token : null;
    const g = {
      id,
      token,
      you: seat ? seat.seat : null,
      state: null,
      view: null,      // null: the live position; -1: the start; i: after move i
      chosen: [],      // the path chosen so far on the board
      busy: false,
      flipped: null,   // null: follow the seat
      ws: null,
      wsOpen: false,
      backoff: 500,
      pending: new Map(),
      nextId: 1,
      receivedAt: 0,
      scores: {},      // ply -> score text from "analyse each move"
      hover: null,
      chooser: null,
      lastShown: null, // {version, moves} drawn last, to animate the next move
    };
    window.__bashni = g;

    const board = new Board({
      onClick: (sq) => onSquare(sq),
      onHover: (sq) => { g.hover = sq; showInspector(); },
      onLongPress: (sq) => { g.hover = sq; showInspector(); },
      canDrag: (sq) => canMove() && movesFrom(sq).length > 0,
      onDragStart: (sq) => { startSelection(sq); },
      onDrop: (from, to) => { if (g.chosen[0] === from) onSquare(to); },
    });

    // layout
    const title = el('h1', { class: 'game-title' }, 'Game');
    const topName = el('div', { class: 'player top' });
    const bottomName = el('div', { class: 'player bottom' });
    const inspector = el('p', { id: 'inspector', class: 'inspector', 'aria-live': 'polite' }, 'Point at a tower to see what it is made of.');
    const status = el('p', { id: 'status', class: 'status' });
    const forced = el('p', { id: 'forced', class: 'forced', hidden: true }, 'Capture is forced.');
    const thinking = el('p', { id: 'thinking', class: 'thinking', hidden: true }, 'The engine is thinking…');
    const result = el('p', { id: 'result', class: 'result', hidden: true });
    const message = el('p', { id: 'message', class: 'message', role: 'status' });
    const conn = el('p', { id: 'connection', class: 'connection', hidden: true });
    const viewNote = el('p', { id: 'view-note', class: 'view-note', hidden: true });
    const chooser = el('div', { id: 'chooser', class: 'chooser', hidden: true });
    const moveList = el('ol', { id: 'moves', class: 'moves' });
    const drawBox = el('div', { id: 'draw-box', class: 'draw-box', hidden: true });
    const controls = el('div', { id: 'controls', class: 'controls' });
    const links = el('div', { id: 'links', class: 'links' });
    const analysis = el('div', { id: 'analysis', class: 'analysis card', hidden: true });
    const moveInput = el('input', { id: 'move-input', type: 'text', placeholder: 'Type a move, e.g. c3-d4', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false' });
    const moveForm = el('form', { id: 'move-form', class: 'move-form' }, moveInput, el('button', { type: 'submit' }, 'Play'));
    const navButtons = el('div', { class: 'nav-buttons' },
      el('button', { type: 'button', id: 'nav-first', title: 'Start (Home)', onclick: () => goTo(-1) }, '« Start'),
      el('button', { type: 'button', id: 'nav-prev', title: 'Back (←)', onclick: () => step(-1) }, '‹ Back'),
      el('button', { type: 'button', id: 'nav-next', title: 'Forward (→)', onclick: () => step(1) }, 'Next ›'),
      el('button', { type: 'button', id: 'nav-last', title: 'Now (End)', onclick: () => goTo(null) }, 'Now »'));

    const clockTop = el('span', { class: 'clock' });
    const clockBottom = el('span', { class: 'clock' });

    const boardWrap = el('div', { class: 'board-wrap' }, topName, board.svg, bottomName);
    const side = el('aside', { class: 'side' },
      title, status, forced, thinking, result, viewNote, message, conn, chooser, drawBox,
      moveForm, el('div', { class: 'moves-box' }, moveList), navButtons,
      controls, links, inspector, analysis);
    append(app, el('div', { class: 'game' }, boardWrap, side));

    moveForm.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const text = moveInput.value.trim();
      if (!text) return;
      const ok = await sendMove(text);
      if (ok) moveInput.value = '';
    });

    // ---- state

    function seatOf() {
      return g.you;
    }

    function canMove() {
      const s = g.state;
      if (!s || s.result || s.mode === 'record' || g.view !== null || g.busy) return false;
      const you = seatOf();
      return you === 'both' || (you && you === s.turn);
    }

    function holdsSeat() {
      const s = g.state;
      return !!(s && s.mode !== 'record' && (g.you === 'white' || g.you === 'black' || g.you === 'both'));
    }

    function shownPosition() {
      const s = g.state;
      if (g.view === null) return s.position;
      if (g.view < 0) return s.start;
      return s.moves[g.view].after;
    }

    function shownPly() {
      // index of the last move played in the shown position (or -1)
      return g.view === null ? g.state.moves.length - 1 : g.view;
    }

    function movesFrom(sq) {
      if (!g.state) return [];
      return g.state.legal_moves.filter((m) => m.path[0] === sq);
    }

    function candidates() {
      const k = g.chosen.length;
      return g.state.legal_moves.filter((m) => {
        for (let i = 0; i < k; i++) if (m.path[i] !== g.chosen[i]) return false;
        return true;
      });
    }

    function boardMarks() {
      const marks = {};
      const ply = shownPly();
      if (ply >= 0) {
        const mv = g.state.moves[ply];
        marks.last = mv.path.slice();
        marks.captured = (mv.captured || []).slice();
      }
      if (g.chosen.length) {
        marks.selected = g.chosen[0];
        marks.chosen = g.chosen.slice(1);
        const k = g.chosen.length;
        const next = new Set();
        for (const m of candidates()) if (m.path.length > k) next.add(m.path[k]);
        marks.targets = Array.from(next);
      }
      if (g.chooser && g.chooser.hover) {
        marks.path = g.chooser.hover.path;
        marks.pathCaptured = g.chooser.hover.captured;
      }
      return marks;
    }

    function redrawMarks() {
      board.setMarks(boardMarks());
      board.svg.dataset.chosen = g.chosen.join(' ');
    }

    function clearSelection() {
      g.chosen = [];
      closeChooser();
      redrawMarks();
    }

    function startSelection(sq) {
      closeChooser();
      g.chosen = [sq];
      redrawMarks();
    }

    function onSquare(sq) {
      board.finishAnimation();
      g.hover = sq;
      showInspector(sq);
      if (!canMove()) return;
      const s = g.state;
      if (!g.chosen.length) {
        if (movesFrom(sq).length) startSelection(sq);
        else if (s.position.towers[sq]) {
          flash(s.must_capture ? 'Capture is forced: choose a tower that can capture.' : 'That tower cannot move now.');
        }
        return;
      }
      if (g.chosen.length === 1 && sq === g.chosen[0]) { clearSelection(); return; }
      const k = g.chosen.length;
      const cands = candidates();
      const through = cands.filter((m) => m.path[k] === sq);
      const ending = cands.filter((m) => m.path[m.path.length - 1] === sq && m.path[k] !== sq);
      const endsHere = through.filter((m) => m.path.length === k + 1);
      const goesOn = through.filter((m) => m.path.length > k + 1);
      if (!through.length && !ending.length) {
        // another tower of ours: start again from it
        if (movesFrom(sq).length) { startSelection(sq); return; }
        if (k === 1) clearSelection();
        flash('No legal move goes there.');
        return;
      }
      if (!ending.length) {
        if (through.length === 1) { play(through[0]); return; }
        g.chosen.push(sq);
        closeChooser();
        redrawMarks();
        return;
      }
      const options = ending.concat(endsHere);
      if (options.length === 1 && !goesOn.length) { play(options[0]); return; }
      openChooser(sq, options, goesOn.length ? through : null);
    }

    function play(move) {
      g.chosen = [];
      closeChooser();
      redrawMarks();
      if (move.claims_draw) { askClaim(move); return; }
      sendMove(move.text);
    }

    // Bashni 1.13.2: a move that repeats the position a third time may carry a draw claim.
    function askClaim(move) {
      clear(chooser);
      g.chooser = { square: null, options: [move], hover: move };
      chooser.appendChild(el('p', { class: 'chooser-title', id: 'claim-title' },
        move.text + ' puts the same position on the board for the third time. ' +
        'You may claim a draw with this move (rule 1.13.2).'));
      const list = el('div', { class: 'chooser-options' });
      list.appendChild(el('button', { type: 'button', class: 'choice', id: 'claim-with-move',
        onclick: () => { closeChooser(); redrawMarks(); sendMove(move.text, true); } },
        'Play it and claim a draw'));
      list.appendChild(el('button', { type: 'button', class: 'choice', id: 'play-without-claim',
        onclick: () => { closeChooser(); redrawMarks(); sendMove(move.text); } },
        'Just play it'));
      chooser.appendChild(list);
      chooser.appendChild(el('button', { type: 'button', class: 'link', onclick: () => clearSelection() }, 'Cancel'));
      chooser.hidden = false;
      redrawMarks();
    }

    function openChooser(sq, options, via) {
      clear(chooser);
      g.chooser = { square: sq, options, hover: null };
      const n = options.length;
      const words = ['', 'One way', 'Two ways', 'Three ways', 'Four ways', 'Five ways'];
      chooser.appendChild(el('p', { class: 'chooser-title' },
        (words[n] || n + ' ways') + ' to capture to ' + sq + ' — choose:'));
      const list = el('div', { class: 'chooser-options' });
      options.forEach((m, i) => {
        const b = el('button', { type: 'button', class: 'choice', dataset: { index: String(i), move: m.text } },
          el('span', { class: 'choice-text' }, m.text),
          el('span', { class: 'choice-captures' }, 'jumps ' + (m.captured || []).join(', ')));
        const hoverOn = () => { if (g.chooser) { g.chooser.hover = m; redrawMarks(); } };
        const hoverOff = () => { if (g.chooser && g.chooser.hover === m) { g.chooser.hover = null; redrawMarks(); } };
        b.addEventListener('pointerenter', hoverOn);
        b.addEventListener('focus', hoverOn);
        b.addEventListener('pointerleave', hoverOff);
        b.addEventListener('blur', hoverOff);
        b.addEventListener('click', () => play(m));
        list.appendChild(b);
      });
      if (via) {
        const b = el('button', { type: 'button', class: 'choice via' }, 'Go on through ' + sq);
        b.addEventListener('click', () => {
          g.chosen.push(sq);
          closeChooser();
          redrawMarks();
        });
        list.appendChild(b);
      }
      chooser.appendChild(list);
      chooser.appendChild(el('button', { type: 'button', class: 'link', onclick: () => clearSelection() }, 'Cancel'));
      chooser.hidden = false;
      redrawMarks();
    }

    function closeChooser() {
      if (!g.chooser) return;
      g.chooser = null;
      chooser.hidden = true;
      clear(chooser);
    }

    let flashTimer = 0;
    function flash(text, isError) {
      message.textContent = text;
      message.classList.toggle('error', !!isError);
      clearTimeout(flashTimer);
      if (!isError) flashTimer = setTimeout(() => { message.textContent = ''; }, 6000);
    }

    function showInspector(sq) {
      const square = sq || g.hover;
      if (!g.state || !square) return;
      g.inspected = square;
      const towers = shownPosition().towers;
      inspector.textContent = towerText(square, towers[square]);
    }

    // ---- sending

    function wsSend(msg) {
      return new Promise((resolve, reject) => {
        const id = g.nextId++;
        msg.id = id;
        const timer = setTimeout(() => {
          g.pending.delete(id);
          reject(new Error('The server did not answer.'));
        }, 15000);
        g.pending.set(id, { resolve, reject, timer });
        try {
          g.ws.send(JSON.stringify(msg));
        } catch (e) {
          clearTimeout(timer);
          g.pending.delete(id);
          reject(e);
        }
      });
    }

    async function sendMove(text, claimDraw) {
      if (!g.token) { flash('You only watch this game.', true); return false; }
      g.busy = true;
      updateBoardData();
      message.textContent = '';
      try {
        if (g.ws && g.wsOpen) {
          await wsSend({ type: 'move', token: g.token, move: text, claim_draw: !!claimDraw });
        } else {
          const state = await api('POST', '/api/games/' + encodeURIComponent(id) + '/move', { move: text, claim_draw: !!claimDraw }, g.token);
          applyState(state, true);
        }
        return true;
      } catch (e) {
        flash(e.message, true);
        return false;
      } finally {
        g.busy = false;
        updateBoardData();
      }
    }

    async function action(path, body, okText) {
      message.textContent = '';
      try {
        const state = await api('POST', '/api/games/' + encodeURIComponent(id) + path, body, g.token);
        applyState(state, true);
        if (okText) flash(okText(state));
      } catch (e) {
        flash(e.message, true);
      }
    }

    // ---- drawing the state

    function applyState(state, fromRequest, force) {
      if (!state) return;
      // An older version is a late message; but after the server restarts its
      // versions may start again from lower numbers, so a fresh connection's
      // first state is always taken.
      if (g.state && state.version < g.state.version && !force) return;
      const prev = g.state;
      if (fromRequest && state.you !== undefined && g.token) {
        if (state.you) g.you = state.you;
      }
      g.state = state;
      g.receivedAt = performance.now();
      window.__bashniState = state;
      if (g.view !== null && g.view >= state.moves.length) g.view = null;
      // keep the choice only if it still fits the legal moves
      if (g.chosen.length && (!prev || prev.version !== state.version)) {
        g.chosen = [];
        closeChooser();
      }
      render(prev);
    }

    function render(prev) {
      const s = g.state;
      document.title = (s.white.name || 'White') + ' – ' + (s.black.name || 'Black') + ' – Bashni';
      title.textContent = variantName(s.variant) + ', ' + modeName(s.mode);
      const you = seatOf();
      if (g.flipped === null) board.setFlipped(you === 'black');
      else board.setFlipped(g.flipped);
      drawBoard(prev);
      drawPlayers();
      drawStatus();
      drawMoves();
      drawControls();
      updateBoardData();
      tickClocks();
      // The inspector follows the position shown: a move may have changed its tower.
      if (g.inspected) showInspector(g.inspected);
    }

    function drawBoard(prev) {
      const s = g.state;
      const pos = shownPosition();
      const marks = boardMarks();
      const last = g.lastShown;
      const ply = shownPly();
      g.lastShown = { ply, version: s.version, towers: pos.towers, len: s.moves.length };
      board.svg.dataset.chosen = g.chosen.join(' ');
      if (board.anim && last && last.ply === ply && last.len === s.moves.length) {
        // the same position (a clock or an offer changed): let the move finish
        board.anim.marks = marks;
        return;
      }
      // Animate when exactly one move has been added to what was shown.
      if (last && ply === last.ply + 1 && ply >= 0 && last.towers && sameStart(prev, s, ply)) {
        board.animate(last.towers, s.moves[ply], pos.towers, marks);
      } else {
        board.render(pos.towers, marks);
      }
    }

    function sameStart(prev, s, ply) {
      if (!prev) return true;
      if (ply - 1 < 0) return true;
      const a = prev.moves[ply - 1];
      const b = s.moves[ply - 1];
      return !!(a && b && a.text === b.text);
    }

    function playerLine(color) {
      const s = g.state;
      const p = s[color] || {};
      const you = seatOf();
      const nameText = p.name || capital(color);
      const row = el('div', { class: 'player-row', dataset: { color } },
        el('span', { class: 'dot ' + color }),
        el('span', { class: 'name', dataset: { color } }, nameText),
        p.joined === false ? el('span', { class: 'waiting' }, ' (waiting for a player)') : null,
        (you === color || (you === 'both' && false)) ? el('span', { class: 'you' }, ' (you)') : null,
        s.turn === color && !s.result ? el('span', { class: 'to-move' }, ' • to move') : null);
      return row;
    }

    function drawPlayers() {
      const bottomColor = board.flipped ? 'black' : 'white';
      const topColor = otherColor(bottomColor);
      clear(topName);
      clear(bottomName);
      topName.appendChild(playerLine(topColor));
      bottomName.appendChild(playerLine(bottomColor));
      topName.dataset.color = topColor;
      bottomName.dataset.color = bottomColor;
      if (g.state.clock) {
        topName.appendChild(clockTop);
        bottomName.appendChild(clockBottom);
        clockTop.dataset.color = topColor;
        clockBottom.dataset.color = bottomColor;
        clockTop.id = 'clock-' + topColor;
        clockBottom.id = 'clock-' + bottomColor;
      }
    }

    function clockMs(color) {
      const c = g.state.clock;
      if (!c) return null;
      let ms = color === 'white' ? c.white_ms : c.black_ms;
      if (c.running === color && !g.state.result) ms -= performance.now() - g.receivedAt;
      return Math.max(0, ms);
    }

    let flagCheck = 0;
    function tickClocks() {
      if (!g.state || !g.state.clock) return;
      for (const node of [clockTop, clockBottom]) {
        const color = node.dataset.color;
        if (!color) continue;
        const ms = clockMs(color);
        node.textContent = formatClock(ms);
        node.classList.toggle('running', g.state.clock.running === color && !g.state.result);
        node.classList.toggle('low', ms < 20000);
        if (ms <= 0 && g.state.clock.running === color && !g.state.result) {
          const now = Date.now();
          if (now - flagCheck > 2000) { flagCheck = now; refresh(); }
        }
      }
    }
    setInterval(tickClocks, 100);

    function drawStatus() {
      const s = g.state;
      const you = seatOf();
      let text;
      if (s.result) text = 'The game is over.';
      else if (s.mode === 'record') text = 'A recorded game. ' + capital(s.turn) + ' to move.';
      else if (you === s.turn) text = 'Your move (' + s.turn + ').';
      else if (you === 'both') text = capital(s.turn) + ' to move.';
      else text = capital(s.turn) + ' to move.';
      if (!s.result && s.mode === 'friend' && (!s.white.joined || !s.black.joined)) {
        text += ' Waiting for your friend to join.';
      }
      status.textContent = text;
      forced.hidden = !(s.must_capture && !s.result && g.view === null);
      thinking.hidden = !(s.engine_thinking && !s.result);
      if (s.result) {
        result.hidden = false;
        result.textContent = resultText(s.result);
        result.dataset.score = s.result.score;
        result.dataset.code = s.result.code || '';
      } else {
        result.hidden = true;
        result.textContent = '';
      }
      if (g.view !== null) {
        viewNote.hidden = false;
        viewNote.textContent = (g.view < 0 ? 'You look at the start position.' : 'You look at the position after move ' +
          s.moves[g.view].number + (s.moves[g.view].color === 'black' ? '…' : '.') + ' ' + s.moves[g.view].text + '.') +
          ' Press End to go back to the game.';
      } else {
        viewNote.hidden = true;
      }
      moveForm.hidden = !holdsSeat() || !!s.result;
    }

    function drawMoves() {
      const s = g.state;
      clear(moveList);
      let row = null;
      const current = shownPly();
      for (let i = 0; i < s.moves.length; i++) {
        const m = s.moves[i];
        if (!row || m.color === 'white') {
          row = el('li', { class: 'move-row' }, el('span', { class: 'num' }, m.number + '.'));
          if (m.color === 'black') row.appendChild(el('span', { class: 'mv empty' }, '…'));
          moveList.appendChild(row);
        }
        const span = el('button', {
          type: 'button',
          class: 'mv' + (i === current && g.view !== null ? ' current' : '') + (i === s.moves.length - 1 ? ' last' : ''),
          dataset: { ply: String(i) },
          title: 'Show the position after this move',
        }, m.text);
        span.addEventListener('click', () => goTo(i));
        row.appendChild(span);
        if (g.scores[i] !== undefined) row.appendChild(el('span', { class: 'eval' }, g.scores[i]));
      }
      if (s.result) moveList.appendChild(el('li', { class: 'move-row final' }, s.result.score));
      if (g.view === null) {
        const box = moveList.parentNode;
        if (box) box.scrollTop = box.scrollHeight;
      } else {
        const cur = moveList.querySelector('.mv.current');
        if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
      }
    }

    function button(idName, text, onclick, cls) {
      return el('button', { type: 'button', id: idName, class: cls || null, onclick }, text);
    }

    let resignArmed = false;
    function drawControls() {
      const s = g.state;
      const you = seatOf();
      const playing = holdsSeat() && !s.result;
      clear(controls);
      clear(drawBox);
      drawBox.hidden = true;
      if (playing) {
        if (resignArmed) {
          controls.appendChild(button('resign-confirm', 'Yes, resign', () => {
            resignArmed = false;
            action('/resign', {});
          }, 'danger'));
          controls.appendChild(button('resign-cancel', 'No', () => { resignArmed = false; drawControls(); }));
        } else {
          controls.appendChild(button('resign', you === 'both' ? 'Resign (' + s.turn + ')' : 'Resign', () => {
            resignArmed = true;
            drawControls();
          }));
        }
        const mine = you === 'both' ? [s.turn] : [you];
        if (s.draw_offer) {
          const offeredByMe = you !== 'both' && s.draw_offer === you;
          drawBox.hidden = false;
          if (offeredByMe) {
            drawBox.appendChild(el('p', null, 'You offered a draw. Waiting for the answer.'));
          } else {
            drawBox.appendChild(el('p', { id: 'draw-offer-text' }, capital(s.draw_offer) + ' offers a draw.'));
            drawBox.appendChild(button('draw-accept', 'Accept the draw', () => action('/draw', { action: 'accept' })));
            drawBox.appendChild(button('draw-decline', 'Decline', () => action('/draw', { action: 'decline' })));
          }
        } else if (s.may_offer_draw) {
          controls.appendChild(button('draw-offer', 'Offer a draw', () => action('/draw', { action: 'offer' }, (st) => {
            if (st.result) return 'The draw is agreed.';
            if (s.mode === 'engine' && !st.draw_offer) return 'The engine does not accept the draw.';
            return 'You offered a draw.';
          })));
        }
        if (s.can_claim_draw && mine.includes(s.turn)) {
          controls.appendChild(button('draw-claim', 'Claim a draw: ' + s.can_claim_draw, () => action('/draw', { action: 'claim' })));
        }
        if (s.can_take_back && (s.mode === 'engine' || s.mode === 'local')) {
          controls.appendChild(button('takeback', 'Take back', () => action('/takeback', {})));
        }
      }
      controls.appendChild(button('flip', 'Flip board', () => {
        g.flipped = !board.flipped;
        board.setFlipped(g.flipped);
        redrawMarks();
        drawPlayers();
        tickClocks();
      }));
      // Fair play: no engine help for a player while a game between people goes on.
      if (s.mode === 'friend' && !s.result && holdsSeat()) {
        analysis.hidden = true;
        clear(analysis);
      } else {
        controls.appendChild(button('analyse', 'Analyse', () => openAnalysis()));
      }

      clear(links);
      links.appendChild(el('a', { id: 'pdn-link', href: '/api/games/' + encodeURIComponent(id) + '/pdn', download: 'bashni-' + id + '.pdn' }, 'Download PDN'));
      const invite = s.invite_url || (seat && seat.invite_url && s.mode === 'friend' && !(s.white.joined && s.black.joined) ? seat.invite_url : null);
      if (invite && holdsSeat()) {
        const url = absoluteUrl(invite);
        const input = el('input', { id: 'invite-link', type: 'text', readonly: true, value: url });
        const note = el('span', { class: 'note' });
        links.appendChild(el('div', { class: 'link-box invite' },
          el('span', { class: 'label' }, 'Send this link to your friend:'),
          input,
          button('copy-invite', 'Copy invite link', () => copyText(url, input, note)), note));
      }
      const watch = absoluteUrl('/g/' + encodeURIComponent(id));
      const watchInput = el('input', { id: 'watch-link', type: 'text', readonly: true, value: watch });
      const watchNote = el('span', { class: 'note' });
      links.appendChild(el('div', { class: 'link-box' },
        el('span', { class: 'label' }, 'Link to watch:'),
        watchInput,
        button('copy-watch', 'Copy watch link', () => copyText(watch, watchInput, watchNote)), watchNote));
    }

    function updateBoardData() {
      const s = g.state;
      if (!s) return;
      const d = board.svg.dataset;
      d.version = String(s.version);
      d.turn = s.turn;
      d.you = seatOf() || '';
      d.canMove = canMove() ? 'true' : 'false';
      d.plies = String(s.moves.length);
      d.view = g.view === null ? 'live' : String(g.view);
      document.body.dataset.canMove = d.canMove;
    }

    // ---- stepping through the game

    function goTo(view) {
      const s = g.state;
      if (!s) return;
      if (view !== null && view >= s.moves.length - 1 && view >= 0) view = null;
      if (view !== null && view < -1) view = -1;
      if (view === g.view) return;
      g.view = view;
      g.chosen = [];
      closeChooser();
      drawBoard(null);
      drawStatus();
      drawMoves();
      updateBoardData();
      showInspector();
      if (!analysis.hidden && analysis.dataset.auto === 'true') runAnalysis();
    }

    function step(delta) {
      const s = g.state;
      if (!s) return;
      const cur = shownPly();
      let next = cur + delta;
      if (next < -1) next = -1;
      if (next >= s.moves.length - 1) next = null;
      goTo(next);
    }

    document.addEventListener('keydown', (ev) => {
      const tag = ev.target && ev.target.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
      if (ev.key === 'ArrowLeft') { step(-1); ev.preventDefault(); }
      else if (ev.key === 'ArrowRight') { step(1); ev.preventDefault(); }
      else if (ev.key === 'Home') { goTo(-1); ev.preventDefault(); }
      else if (ev.key === 'End') { goTo(null); ev.preventDefault(); }
      else if (ev.key === 'Escape') { clearSelection(); }
    });

    // ---- analysis

    let analysing = 0;
    function openAnalysis() {
      analysis.hidden = false;
      analysis.dataset.auto = 'true';
      if (!analysis.firstChild) {
        analysis.appendChild(el('h2', null, 'Engine view'));
        analysis.appendChild(el('div', { class: 'analysis-out', id: 'analysis-out' }));
        analysis.appendChild(el('div', { class: 'row' },
          button('analyse-again', 'Analyse again', () => runAnalysis()),
          button('analyse-each', 'Analyse each move', () => analyseEach()),
          el('a', { id: 'open-study', class: 'button-link', href: '#' }, 'Open in the study board'),
          button('analyse-close', 'Close', () => { analysis.hidden = true; analysis.dataset.auto = 'false'; })));
      }
      runAnalysis();
    }

    async function runAnalysis() {
      const s = g.state;
      if (!s) return;
      const pos = shownPosition();
      const out = analysis.querySelector('#analysis-out');
      const study = analysis.querySelector('#open-study');
      study.href = '/study?variant=' + encodeURIComponent(s.variant) + '&position=' + encodeURIComponent(pos.fen);
      const ticket = ++analysing;
      clear(out);
      out.appendChild(el('p', null, 'Thinking about: ' + pos.text));
      try {
        const data = await api('POST', '/api/analyse', { variant: s.variant, position: pos.fen, movetime_ms: 1000, lines: 3 });
        if (ticket !== analysing) return;
        clear(out);
        out.appendChild(el('p', { class: 'analysed-position' }, pos.text));
        out.appendChild(analysisView(data, pos.turn));
      } catch (e) {
        if (ticket !== analysing) return;
        clear(out);
        out.appendChild(el('p', { class: 'error' }, e.message));
      }
    }

    async function analyseEach() {
      const s = g.state;
      const btn = analysis.querySelector('#analyse-each');
      btn.disabled = true;
      try {
        for (let i = 0; i < s.moves.length; i++) {
          if (g.scores[i] !== undefined) continue;
          const after = s.moves[i].after;
          try {
            const data = await api('POST', '/api/analyse', { variant: s.variant, position: after.fen, movetime_ms: 300, lines: 1 });
            g.scores[i] = data.lines && data.lines[0] ? data.lines[0].score_white : '';
          } catch (e) {
            g.scores[i] = '?';
          }
          drawMoves();
        }
      } finally {
        btn.disabled = false;
      }
    }

    // ---- connection

    async function refresh() {
      try {
        const state = await api('GET', '/api/games/' + encodeURIComponent(id), undefined, g.token);
        if (g.token && state.you === null && g.you) {
          // the server does not know this token (any more): watch only
          g.you = null;
        } else if (state.you) {
          g.you = state.you;
        }
        applyState(state, true);
      } catch (e) {
        if (e.status === 404) {
          clear(app);
          append(app, el('div', { class: 'card narrow' }, el('h1', null, 'No such game'),
            el('p', null, el('a', { href: '/' }, 'Start a new game'))));
          stopped = true;
          if (g.ws) g.ws.close();
        }
      }
    }

    let stopped = false;
    let everOpened = false;
    function connect() {
      if (stopped) return;
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      let ws;
      try {
        ws = new WebSocket(proto + '//' + location.host + '/api/games/' + encodeURIComponent(id) + '/ws');
      } catch (e) {
        scheduleReconnect();
        return;
      }
      g.ws = ws;
      ws.onopen = () => {
        g.wsOpen = true;
        g.fresh = true;
        g.backoff = 500;
        conn.hidden = true;
        conn.textContent = '';
        board.svg.dataset.connected = 'true';
        if (g.token) {
          // Bind the socket to this page's seat once; its updates are then made for it.
          g.binding = true;
          wsSend({ type: 'seat', token: g.token }).then((ack) => {
            g.binding = false;
            if (ack.you) g.you = ack.you;
          }).catch(() => {
            // The server does not know this token (any more): watch only.
            g.binding = false;
            g.you = null;
            if (g.watcherState) applyState(g.watcherState, false, true);
          });
        }
        if (everOpened) refresh();
        everOpened = true;
      };
      ws.onmessage = (ev) => {
        let msg;
        try { msg = JSON.parse(ev.data); } catch (e) { return; }
        if (msg.type === 'state') {
          if (g.binding && msg.state.you === null) {
            // The watcher's state comes first; the seat's own follows its binding.
            g.watcherState = msg.state;
            return;
          }
          applyState(msg.state, false, g.fresh);
          g.fresh = false;
        }
        else if (msg.type === 'update') {
          // A change: everything but the start, and the moves from moves_from on.
          const u = msg.update;
          if (g.binding) return;
          if (!g.state || u.moves_from > g.state.moves.length) {
            try { ws.send(JSON.stringify({ type: 'state' })); } catch (e) { /* reconnects */ }
            return;
          }
          const next = Object.assign({}, u);
          next.start = g.state.start;
          next.moves = g.state.moves.slice(0, u.moves_from).concat(u.moves);
          delete next.moves_from;
          applyState(next, false);
        }
        else if (msg.type === 'ack' || msg.type === 'error') {
          const p = g.pending.get(msg.id);
          if (!p) {
            if (msg.type === 'error') flash(msg.error, true);
            return;
          }
          g.pending.delete(msg.id);
          clearTimeout(p.timer);
          if (msg.type === 'ack') p.resolve(msg);
          else p.reject(new ApiError(422, msg));
        }
      };
      ws.onclose = () => {
        if (g.ws !== ws) return;
        g.wsOpen = false;
        board.svg.dataset.connected = 'false';
        for (const [key, p] of g.pending) {
          clearTimeout(p.timer);
          p.reject(new Error('The connection was lost. Check the move list before you try again.'));
          g.pending.delete(key);
        }
        scheduleReconnect();
      };
      ws.onerror = () => { /* onclose follows */ };
    }

    function scheduleReconnect() {
      if (stopped) return;
      conn.hidden = false;
      conn.textContent = 'Connection lost. Trying again…';
      const wait = g.backoff;
      g.backoff = Math.min(g.backoff * 2, 8000);
      setTimeout(connect, wait);
    }

    window.addEventListener('online', () => {
      if (!g.wsOpen) { g.backoff = 500; connect(); }
    });

    refresh().then(connect);
  }

  // ---------------------------------------------------------------- study page

  function studyPage() {
    document.body.dataset.page = 'study';
    document.title = 'Study board – Bashni';
    const params = new URLSearchParams(location.search);
    const st = {
      variant: params.get('variant') === 'russian' ? 'russian' : 'bashni',
      towers: {},
      turn: 'white',
      brush: 'w',
      focus: null,
      view: null,     // PositionView from the server
      legal: [],
      ticket: 0,
    };
    const board = new Board({
      onClick: (sq) => paint(sq),
      onHover: (sq) => { if (sq) inspector.textContent = towerText(sq, st.towers[sq]); },
      onLongPress: (sq) => { inspector.textContent = towerText(sq, st.towers[sq]); },
    });

    const variant = select('study-variant', [
      { value: 'bashni', label: 'Bashni (towers)' },
      { value: 'russian', label: 'Russian draughts' },
    ], st.variant);
    const turn = select('study-turn', [
      { value: 'white', label: 'White to move' },
      { value: 'black', label: 'Black to move' },
    ], 'white');
    const brushes = [
      { value: 'w', label: 'White man' },
      { value: 'W', label: 'White king' },
      { value: 'b', label: 'Black man' },
      { value: 'B', label: 'Black king' },
      { value: 'pop', label: 'Remove top' },
      { value: 'erase', label: 'Clear square' },
    ];
    const brushBox = el('div', { class: 'brushes', role: 'radiogroup', id: 'brushes' });
    for (const b of brushes) {
      const input = el('input', { type: 'radio', name: 'brush', value: b.value, id: 'brush-' + b.value });
      if (b.value === st.brush) input.checked = true;
      input.addEventListener('change', () => { st.brush = b.value; });
      const icon = b.value.length === 1 ? svgIcon(b.value) : null;
      brushBox.appendChild(el('label', { class: 'brush', for: 'brush-' + b.value }, input, icon, ' ' + b.label));
    }
    const inspector = el('p', { id: 'inspector', class: 'inspector' }, 'Click a square to add a checker to the bottom of its tower.');
    const posText = el('p', { id: 'position-text', class: 'position-text' });
    const fenText = el('p', { id: 'position-fen', class: 'position-fen' });
    const posError = el('p', { id: 'position-error', class: 'error', role: 'alert' });
    const loadInput = el('input', { id: 'load-position', type: 'text', placeholder: 'Paste a position in any notation' });
    const loadForm = el('form', { class: 'move-form' }, loadInput, el('button', { type: 'submit' }, 'Set up'));
    const analysisOut = el('div', { id: 'analysis-out' });
    const playMode = select('play-mode', [
      { value: 'engine', label: 'Against the engine' },
      { value: 'local', label: 'Two people at one screen' },
      { value: 'friend', label: 'Against a friend (invite link)' },
    ], 'engine');
    const playLevel = select('play-level', levelOptions(), 4);
    const playColor = select('play-color', [
      { value: 'white', label: 'White' }, { value: 'black', label: 'Black' }, { value: 'random', label: 'Random' },
    ], 'white');
    const playError = el('p', { class: 'error', role: 'alert' });

    const side = el('aside', { class: 'side' },
      el('h1', null, 'Study board'),
      field('Game', variant),
      field('Side to move', turn),
      el('fieldset', { class: 'card' }, el('legend', null, 'Brush'), brushBox,
        el('p', { class: 'hint' }, 'A checker goes to the bottom of the tower, so build each tower from the top down.')),
      el('div', { class: 'row' },
        el('button', { type: 'button', id: 'start-position', onclick: () => loadPosition('start') }, 'Start position'),
        el('button', { type: 'button', id: 'empty-board', onclick: () => { st.towers = {}; update(); } }, 'Empty board')),
      inspector,
      el('div', { class: 'card' }, el('h2', null, 'Position'), posText, fenText, posError, loadForm),
      el('div', { class: 'card' }, el('h2', null, 'Engine view'),
        el('button', { type: 'button', id: 'study-analyse', onclick: () => analyse() }, 'Analyse'),
        analysisOut),
      el('div', { class: 'card' }, el('h2', null, 'Play from here'),
        field('Play', playMode), field('Engine level', playLevel), field('Your colour', playColor),
        el('button', { type: 'button', id: 'play-from-here', class: 'primary', onclick: () => playFromHere() }, 'Play from here'),
        playError));
    append(app, el('div', { class: 'game study' }, el('div', { class: 'board-wrap' }, board.svg), side));

    variant.addEventListener('change', () => { st.variant = variant.value; update(); });
    turn.addEventListener('change', () => { st.turn = turn.value; update(); });
    playMode.addEventListener('change', () => {
      playLevel.closest('.field').hidden = playMode.value !== 'engine';
      playColor.closest('.field').hidden = playMode.value === 'local';
    });
    loadForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      if (loadInput.value.trim()) loadPosition(loadInput.value.trim());
    });

    function svgIcon(ch) {
      const s = svgEl('svg', { viewBox: '-45 -35 90 70', class: 'brush-icon', 'aria-hidden': 'true' });
      s.appendChild(drawTower(ch));
      return s;
    }

    function paint(sq) {
      const cur = st.towers[sq] || '';
      if (st.brush === 'erase') delete st.towers[sq];
      else if (st.brush === 'pop') {
        if (cur.length > 1) st.towers[sq] = cur.slice(1); else delete st.towers[sq];
      } else {
        st.towers[sq] = cur + st.brush;
      }
      st.focus = sq;
      inspector.textContent = towerText(sq, st.towers[sq]);
      update();
    }

    function draw() {
      board.render(st.towers, { focus: st.focus });
    }

    async function update() {
      draw();
      const ticket = ++st.ticket;
      posError.textContent = '';
      try {
        const data = await api('POST', '/api/position', { variant: st.variant, towers: st.towers, turn: st.turn });
        if (ticket !== st.ticket) return;
        st.view = data.position;
        st.legal = data.legal_moves || [];
        posText.textContent = data.position.text;
        fenText.textContent = data.position.fen;
        board.svg.dataset.valid = 'true';
      } catch (e) {
        if (ticket !== st.ticket) return;
        st.view = null;
        posText.textContent = '';
        fenText.textContent = '';
        posError.textContent = e.message;
        board.svg.dataset.valid = 'false';
      }
    }

    async function loadPosition(text) {
      posError.textContent = '';
      try {
        const data = await api('POST', '/api/position', { variant: st.variant, position: text });
        st.towers = Object.assign({}, data.position.towers);
        st.turn = data.position.turn;
        turn.value = st.turn;
        update();
      } catch (e) {
        posError.textContent = e.message;
      }
    }

    async function analyse() {
      clear(analysisOut);
      if (!st.view) {
        analysisOut.appendChild(el('p', { class: 'error' }, 'Set up an allowed position first.'));
        return;
      }
      const view = st.view;
      analysisOut.appendChild(el('p', null, 'Thinking…'));
      try {
        const data = await api('POST', '/api/analyse', { variant: st.variant, position: view.fen, movetime_ms: 2000, lines: 3 });
        clear(analysisOut);
        analysisOut.appendChild(analysisView(data, view.turn));
      } catch (e) {
        clear(analysisOut);
        analysisOut.appendChild(el('p', { class: 'error' }, e.message));
      }
    }

    async function playFromHere() {
      playError.textContent = '';
      if (!st.view) { playError.textContent = 'Set up an allowed position first.'; return; }
      const body = { variant: st.variant, mode: playMode.value, position: st.view.fen };
      if (playMode.value === 'engine') body.level = Number(playLevel.value);
      if (playMode.value !== 'local') body.color = playColor.value;
      const name = localStorage.getItem('bashni.name');
      if (name) body.name = name;
      try {
        await createGame(body);
      } catch (e) {
        playError.textContent = e.message;
      }
    }

    const initial = params.get('position');
    if (initial) loadPosition(initial);
    else loadPosition('start');
  }

  route();
})();
