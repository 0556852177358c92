// The analysis board: a position or a whole game, moves played freely and kept as
// variations, the engine thinking all the time with several lines (streamed over a socket),
// its evaluation as a bar and arrows, a graph over the game, and pictures to save.

import { el, append, clear, button } from './dom.js';
import { api, seats, gamePath, prefs } from './api.js';
import { Board } from './board.js';
import { MoveTree } from './tree.js';
import { towerText, variantName, moveLabel, scoreText, playerName } from './text.js';
import { evalBar, evalGraph, moveCell } from './analysis.js';
import { t, language } from './i18n.js';

const LINES = 3;
// Numeric annotation glyphs as PDN writes the first six.
const GLYPHS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };

/** The analysis board page. */
export function analysisPage(app) {
  document.body.dataset.page = 'analysis';
  document.title = t('analysis-page-title');
  const params = new URLSearchParams(location.search);
  const page = new AnalysisBoard(app, params);
  page.load().catch((e) => page.fail(e.message));
}

class AnalysisBoard {
  constructor(app, params) {
    this.app = app;
    this.params = params;
    this.variant = params.get('variant') === 'russian' ? 'russian' : 'bashni';
    this.gameId = params.get('game');
    this.tree = null;
    this.at = 0;              // the node shown
    this.legal = new Map();   // node id -> legal moves
    this.comments = new Map(); // node id -> a record's comment on the position after it
    this.lost = null;         // why a record's variation could not be added, if one could not
    this.scores = {};         // main-line node id -> White's score
    this.lines = null;        // the engine's last lines for the node shown
    this.socket = null;
    this.ticket = 0;
    this.engineOn = true;
    this.board = new Board({
      label: t('analysis-board-label'),
      onPlay: (move) => this.playMove(move),
      onChoose: (c) => this.playMove(c.options[0]),
      onHover: (sq) => { if (sq && this.tree) this.inspector.textContent = towerText(sq, this.position().towers[sq]); },
      onRefuse: () => { this.note.textContent = t('analysis-no-move-there'); },
    });
  }

  fail(message) {
    clear(this.app);
    append(this.app, el('div', { class: 'card narrow', id: 'analysis-error' }, el('h1', null, t('analysis-heading')),
      el('p', { class: 'error' }, message), el('p', null, el('a', { href: '/' }, t('analysis-start-page')))));
  }

  async load() {
    let start;
    let moves = [];
    if (this.gameId) {
      const seat = seats.get(this.gameId);
      const state = await api('GET', gamePath(this.gameId), undefined, seat ? seat.token : null);
      // Fair play: no engine for anyone while a game between people goes on.
      if (state.engine_help === false) {
        this.fail(t('analysis-after-game'));
        return;
      }
      this.variant = state.variant;
      this.state = state;
      start = state.start;
      moves = state.moves;
    } else {
      const data = await api('POST', '/api/position', { variant: this.variant, position: this.params.get('position') || 'start' });
      start = data.position;
      this.legal.set(0, data.legal_moves);
    }
    this.tree = new MoveTree(start);
    let at = this.tree.root;
    for (const m of moves) at = this.tree.add(at, m);
    if (this.state && this.state.notes) await this.addNotes(this.state.notes);
    // What is added from here on is the player's, kept in this browser for the next visit.
    this.base = this.tree.nodes.length;
    await this.restoreLines();
    const ply = this.params.has('ply') ? Number(this.params.get('ply')) : moves.length;
    const line = this.tree.mainLine();
    this.at = ply <= 0 ? 0 : line[Math.min(line.length, ply) - 1];
    this.build();
    if (this.lost) this.note.textContent = t('analysis-variation-lost', { error: this.lost });
    this.connect();
    await this.show(this.at);
  }

  position() {
    return this.tree.node(this.at).position;
  }

  // A record's comments and variations (`notes` of its state): comments kept by node,
  // variations played from the position before the move they replace and added as side lines.
  async addNotes(notes) {
    const main = this.tree.mainLine();
    if (notes.intro && notes.intro.length) this.comments.set(this.tree.root, notes.intro.join(' '));
    for (const after of notes.after || []) {
      const id = main[after.ply - 1];
      if (id === undefined) continue;
      this.noteOn(id, after);
      for (const line of after.variations || []) await this.addLine(this.tree.node(id).parent, line);
    }
  }

  noteOn(id, notes) {
    const parts = (notes.nags || []).map((n) => GLYPHS[n] || '$' + n).concat(notes.comments || []);
    if (parts.length) this.comments.set(id, parts.join(' '));
  }

  async addLine(from, line) {
    const moves = (line.moves || []).map((m) => m.text);
    if (!moves.length) return;
    let data;
    try {
      data = await api('POST', '/api/position', { variant: this.variant, position: this.tree.node(from).position.fen, moves });
    } catch (e) {
      this.lost = e.message;
      return;
    }
    let id = from;
    for (let i = 0; i < data.played.length; i++) {
      const parent = id;
      id = this.tree.add(parent, data.played[i]);
      const noted = line.moves[i];
      // A comment before the variation's first move goes with that move's own.
      const before = i === 0 ? line.intro || [] : [];
      this.noteOn(id, { nags: noted.nags, comments: before.concat(noted.comments || []) });
      for (const inner of noted.variations || []) await this.addLine(parent, inner);
    }
  }

  build() {
    this.inspector = el('p', { id: 'inspector', class: 'inspector', 'aria-live': 'polite' }, t('analysis-inspector-hint'));
    this.note = el('p', { id: 'analysis-note', class: 'message', role: 'status' });
    this.barBox = el('div', { class: 'bar-box' });
    this.moveList = el('div', { id: 'tree', class: 'tree moves-box', role: 'list' });
    this.comment = el('p', { id: 'move-comment', class: 'move-comment', 'aria-live': 'polite', hidden: true });
    this.linesBox = el('div', { id: 'engine-lines', class: 'engine-lines', 'aria-live': 'polite' });
    this.graphBox = el('div', { id: 'graph-box' });
    this.posText = el('p', { id: 'position-text', class: 'position-text' });
    this.exports = el('div', { id: 'exports', class: 'row downloads' });
    this.announce = el('p', { id: 'announce', class: 'visually-hidden', 'aria-live': 'polite' });
    const engineToggle = el('input', { type: 'checkbox', id: 'engine-on', checked: true });
    engineToggle.addEventListener('change', () => { this.engineOn = engineToggle.checked; this.analyse(); });
    const title = this.state
      ? t('analysis-title-game', { variant: variantName(this.variant),
        white: playerName(this.state.white.name, 'white', t('analysis-white')), black: playerName(this.state.black.name, 'black', t('analysis-black')) })
      : t('analysis-title-position', { variant: variantName(this.variant) });
    const nav = el('div', { class: 'nav-buttons' },
      el('button', { type: 'button', id: 'nav-first', title: t('analysis-first-title'), onclick: () => this.show(0) }, t('analysis-first')),
      el('button', { type: 'button', id: 'nav-prev', title: t('analysis-prev-title'), onclick: () => this.show(this.tree.prev(this.at)) }, t('analysis-prev')),
      el('button', { type: 'button', id: 'nav-next', title: t('analysis-next-title'), onclick: () => this.show(this.tree.next(this.at)) }, t('analysis-next')),
      el('button', { type: 'button', id: 'nav-last', title: t('analysis-last-title'), onclick: () => { const l = this.tree.line(this.at); this.show(l.length ? l[l.length - 1] : 0); } }, t('analysis-last')));
    const side = el('aside', { class: 'side' },
      el('h1', null, t('analysis-heading')),
      el('p', { class: 'hint' }, title),
      this.note,
      el('div', { class: 'card' },
        el('div', { class: 'row' }, el('label', { class: 'check' }, engineToggle, ' ' + t('analysis-engine')), el('span', { id: 'engine-depth', class: 'hint' })),
        this.linesBox),
      this.moveList, this.comment, nav,
      el('div', { class: 'row' },
        button('promote', t('analysis-promote'), () => { this.tree.promote(this.at); this.drawTree(); }),
        button('delete-line', t('analysis-delete'), () => {
          const parent = this.tree.prev(this.at);
          if (this.at !== 0) { this.tree.remove(this.at); this.show(parent); }
        }),
        this.tree.mainLine().length ? button('graph', t('analysis-graph'), () => this.analyseMainLine()) : null),
      this.graphBox,
      el('div', { class: 'card' }, el('h2', null, t('analysis-position')), this.posText, this.exports),
      this.announce);
    const wrap = el('div', { class: 'board-wrap' }, el('div', { class: 'board-row' }, this.barBox, this.board.svg), this.inspector);
    append(this.app, el('div', { class: 'game analysis-board' }, wrap, side));
    document.addEventListener('keydown', (ev) => {
      const tag = ev.target && ev.target.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
      if (ev.key === 'ArrowLeft') { this.show(this.tree.prev(this.at)); ev.preventDefault(); }
      else if (ev.key === 'ArrowRight') { this.show(this.tree.next(this.at)); ev.preventDefault(); }
      else if (ev.key === 'Home') { this.show(0); ev.preventDefault(); }
    });
  }

  async legalAt(id) {
    if (this.legal.has(id)) return this.legal.get(id);
    const pos = this.tree.node(id).position;
    const data = await api('POST', '/api/position', { variant: this.variant, position: pos.fen });
    this.legal.set(id, data.legal_moves || []);
    return this.legal.get(id);
  }

  async show(id) {
    const before = this.at;
    this.at = id;
    const node = this.tree.node(id);
    const mv = node.move;
    const prev = this.tree.node(before);
    // Animate one move forward along the line.
    if (mv && node.parent === before) this.board.animate(prev.position.towers, mv, node.position.towers, this.marks());
    else this.board.render(node.position.towers, this.marks());
    this.board.svg.dataset.node = String(id);
    this.board.svg.dataset.fen = node.position.fen;
    this.posText.textContent = node.position.text;
    const comment = this.comments.get(id);
    this.comment.textContent = comment || '';
    this.comment.hidden = !comment;
    if (mv) this.announce.textContent = t('analysis-announce', { colour: mv.color === 'black' ? 'black' : 'white', move: mv.text });
    this.drawTree();
    this.drawExports();
    const onMain = this.tree.onMainLine(id);
    const url = new URL(location.href);
    if (onMain) url.searchParams.set('ply', String(this.tree.depth(id))); else url.searchParams.delete('ply');
    history.replaceState(null, '', url.pathname + url.search);
    this.lines = null;
    this.drawLines();
    const legal = await this.legalAt(id);
    if (this.at !== id) return;
    this.board.setPlayable(legal, null);
    this.analyse();
  }

  marks() {
    const node = this.tree.node(this.at);
    const marks = {};
    if (node.move) {
      marks.last = node.move.path.slice();
      marks.captured = (node.move.captured || []).slice();
    }
    if (this.lines && this.engineOn) {
      marks.arrows = this.lines.filter((l) => l.path && l.path.length > 1)
        .map((l, i) => ({ path: l.path, kind: i === 0 ? 'best' : 'other' }));
    }
    return marks;
  }

  // Plays `move` from the node shown: an existing move is followed, a new one becomes a variation.
  async playMove(move) {
    const from = this.at;
    this.note.textContent = '';
    try {
      const data = await api('POST', '/api/position', { variant: this.variant, position: this.tree.node(from).position.fen, moves: [move.text] });
      const played = data.played[0];
      const id = this.tree.add(from, played);
      this.legal.set(id, data.legal_moves || []);
      this.saveLines();
      await this.show(id);
    } catch (e) {
      this.note.textContent = e.message;
    }
  }

  // Plays the engine's line from the node shown, keeping it as a variation.
  async playLine(line) {
    const from = this.at;
    try {
      const data = await api('POST', '/api/position', { variant: this.variant, position: this.tree.node(from).position.fen, moves: line.moves });
      let id = from;
      for (const m of data.played) id = this.tree.add(id, m);
      this.legal.set(id, data.legal_moves || []);
      this.saveLines();
      await this.show(this.tree.pathTo(id).find((n) => this.tree.node(n).parent === from) ?? id);
    } catch (e) {
      this.note.textContent = e.message;
    }
  }

  // Where this board's own lines are kept in the browser: by game, or by variant and position.
  linesKey() {
    return 'lines.' + (this.gameId ? 'game.' + this.gameId : this.variant + '.' + (this.params.get('position') || 'start'));
  }

  // Keeps the lines the player added (each as its moves from the start), for the next visit.
  saveLines() {
    const lines = [];
    for (const n of this.tree.nodes) {
      if (n.id >= this.base && n.children.length === 0) {
        lines.push(this.tree.pathTo(n.id).map((id) => this.tree.node(id).move.text));
      }
    }
    prefs.set(this.linesKey(), JSON.stringify(lines));
  }

  // Adds the lines kept from an earlier visit: each from where it leaves what is already there.
  async restoreLines() {
    let lines;
    try { lines = JSON.parse(prefs.get(this.linesKey(), '[]')); } catch (e) { return; }
    if (!Array.isArray(lines)) return;
    for (const line of lines) {
      if (!Array.isArray(line)) continue;
      let at = this.tree.root;
      let i = 0;
      for (; i < line.length; i++) {
        const next = this.tree.node(at).children.find((c) => this.tree.node(c).move.text === line[i]);
        if (next === undefined) break;
        at = next;
      }
      if (i < line.length) await this.addLine(at, { moves: line.slice(i).map((text) => ({ text: String(text) })) });
    }
  }

  // A move's number, counted from the first move of the main line (a variation goes on from
  // where it leaves the game: "(2... e7:g5 3. a3-b4)", not from 1).
  numberOf(id) {
    const first = this.tree.node(0).children[0];
    if (first === undefined) return 1;
    const start = this.tree.node(first).move;
    const ply = this.tree.depth(id) - 1 + (start.color === 'black' ? 1 : 0);
    return (start.number || 1) + Math.floor(ply / 2);
  }

  // The main line in rows as on the game page (number | White's move | Black's move, each
  // move's score in its cell), so that no score however long moves a move to the wrong
  // column; a side line is a block of its own under the row of the move it replaces, written
  // on as text, and the main line goes on after it in a new row ("3. … e7-f6").
  drawTree() {
    const box = this.moveList;
    clear(box);
    const items = this.tree.layout();
    const main = el('div', { class: 'tree-line main' });
    box.appendChild(main);
    let holder = main;
    let row = null;
    const stack = [];
    for (const item of items) {
      if (item.open) {
        stack.push(holder);
        const v = el('div', { class: 'tree-line variation', dataset: { depth: String(item.variation) } });
        holder.appendChild(v);
        holder = v;
        if (item.variation === 1) row = null;
        continue;
      }
      if (item.close) {
        holder = stack.pop();
        continue;
      }
      const node = this.tree.node(item.id);
      const m = node.move;
      const inMain = holder === main;
      const showNumber = !inMain && (m.color === 'white' || holder.childElementCount === 0 || (holder.lastChild && holder.lastChild.classList && holder.lastChild.classList.contains('tree-line')));
      const b = el('button', {
        type: 'button',
        class: 'mv' + (item.id === this.at ? ' current' : '') + (item.variation ? ' var' : ''),
        dataset: { node: String(item.id), variation: String(item.variation) },
        role: 'listitem',
      }, showNumber ? moveLabel(this.numberOf(item.id), m.color) + ' ' : '', m.text);
      if (this.comments.has(item.id)) {
        const comment = this.comments.get(item.id);
        // A move's mark (!, ?, !?, ...) shows after it in the tree, as in print.
        const mark = comment.trim().match(/^[!?]{1,2}/);
        if (mark) b.appendChild(el('span', { class: 'move-mark' }, mark[0]));
        b.classList.add('commented');
        b.title = comment;
      }
      b.addEventListener('click', () => this.show(item.id));
      if (inMain) {
        if (!row || m.color === 'white') {
          row = el('div', { class: 'move-row' }, el('span', { class: 'num' }, this.numberOf(item.id) + '.'));
          if (m.color === 'black') row.appendChild(el('span', { class: 'mv empty' }, '…'));
          main.appendChild(row);
        }
        row.appendChild(moveCell(b, this.scores[item.id]));
      } else {
        if (this.scores[item.id] !== undefined) b.appendChild(el('span', { class: 'eval' }, ' ' + scoreText(this.scores[item.id])));
        holder.appendChild(b);
      }
    }
    const cur = box.querySelector('.mv.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  drawExports() {
    const node = this.tree.node(this.at);
    const pos = node.position;
    const q = 'variant=' + encodeURIComponent(this.variant) + '&position=' + encodeURIComponent(pos.fen) +
      (node.move ? '&last=' + encodeURIComponent(node.move.path.join('-')) : '') + '&size=480&download=1';
    clear(this.exports);
    this.exports.appendChild(el('a', { id: 'export-png', href: '/api/diagram.png?' + q, download: 'position.png' }, t('analysis-picture-png')));
    this.exports.appendChild(el('a', { id: 'export-svg', href: '/api/diagram.svg?' + q, download: 'position.svg' }, t('analysis-picture-svg')));
    if (this.gameId) {
      this.exports.appendChild(el('a', { id: 'export-gif', href: gamePath(this.gameId, '/game.gif?size=360&download=1'), download: 'game.gif' }, t('analysis-game-gif')));
      this.exports.appendChild(el('a', { id: 'export-pdn', href: gamePath(this.gameId, '/pdn'), download: 'game.pdn' }, t('analysis-game-pdn')));
    }
  }

  drawLines() {
    const box = this.linesBox;
    clear(box);
    clear(this.barBox);
    const turn = this.position().turn;
    const lines = this.engineOn ? this.lines : null;
    this.barBox.appendChild(evalBar(lines && lines[0] ? lines[0].score_white : null));
    this.board.setMarks(this.marks());
    if (!this.engineOn) { box.appendChild(el('p', { class: 'hint' }, t('analysis-engine-off'))); return; }
    if (!lines) { box.appendChild(el('p', { class: 'hint' }, t('analysis-thinking'))); return; }
    if (!lines.length) { box.appendChild(el('p', { class: 'hint' }, t('analysis-game-over'))); return; }
    const ol = el('ol', { class: 'lines' });
    for (const line of lines) {
      ol.appendChild(el('li', null,
        el('b', { class: 'score' }, scoreText(line.score_white)), ' ',
        el('button', { type: 'button', class: 'line-play link', title: t('analysis-play-line'), onclick: () => this.playLine(line) },
          (line.moves || []).join(' '))));
    }
    box.appendChild(ol);
    box.appendChild(el('p', { class: 'hint' }, t('analysis-scores-hint', { turn })));
  }

  // ---- the engine, streamed

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(proto + '//' + location.host + '/api/analysis/ws?lang=' + language);
    this.socket = ws;
    ws.onopen = () => this.analyse();
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.id !== this.ticket) return;
      if (msg.type === 'analysis') {
        this.lines = msg.lines || [];
        const depth = document.getElementById('engine-depth');
        if (depth) depth.textContent = t('analysis-depth', { depth: msg.depth }) + (msg.done ? '' : '…');
        this.board.svg.dataset.depth = String(msg.depth);
        this.drawLines();
      } else if (msg.type === 'error') {
        this.note.textContent = msg.error;
      }
    };
    ws.onclose = () => {
      if (this.socket === ws) setTimeout(() => this.connect(), 2000);
    };
  }

  analyse() {
    const ws = this.socket;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    this.ticket++;
    if (!this.engineOn) {
      ws.send(JSON.stringify({ type: 'stop' }));
      this.drawLines();
      return;
    }
    const asked = { type: 'analyse', id: this.ticket, variant: this.variant, position: this.position().fen, lines: LINES };
    if (this.gameId) asked.game = this.gameId;
    ws.send(JSON.stringify(asked));
  }

  async analyseMainLine() {
    const line = this.tree.mainLine();
    const btn = document.getElementById('graph');
    if (btn) btn.disabled = true;
    const draw = () => {
      clear(this.graphBox);
      const scores = line.map((id) => this.scores[id]);
      const current = line.indexOf(this.at);
      this.graphBox.appendChild(evalGraph(scores, line.length, current, (i) => this.show(line[i])));
    };
    for (const id of line) {
      if (this.scores[id] !== undefined) continue;
      try {
        const body = { variant: this.variant, position: this.tree.node(id).position.fen, movetime_ms: 300, lines: 1 };
        if (this.gameId) body.game = this.gameId;
        const data = await api('POST', '/api/analyse', body);
        this.scores[id] = data.lines && data.lines[0] ? data.lines[0].score_white : '';
      } catch (e) {
        this.scores[id] = '?';
      }
      draw();
      this.drawTree();
    }
    if (btn) btn.disabled = false;
  }
}
