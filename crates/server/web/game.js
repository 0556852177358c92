// The game page: the board, the players and clocks, the moves, and what a player can do.
// The state is the server's; this controller only shows it and sends what the player does.

import { el, append, clear, button, absoluteUrl, copyText } from './dom.js';
import { api, seats, prefs, gamePath, createGame, ApiError } from './api.js';
import { Board } from './board.js';
import { GameSocket } from './socket.js';
import { premoveMatch } from './selection.js';
import * as S from './state.js';
import { colourName, otherColor, towerText, formatClock, resultText, variantName, modeName,
  moveLabel, positionLines, timeOfGame, timeLeftText, perMoveText, reasonText, playerName } from './text.js';
import { analysisView, evalBar, evalGraph, moveCell } from './analysis.js';
import { play as playSound, soundElements } from './sound.js';
import { ChatPanel } from './chat.js';
import { seatName } from './account.js';
import { ratedText, ratingChangeText } from './ratings.js';
import { t } from './i18n.js';

const LOW_TIME_MS = 20000;

// The hint for a newcomer's first game: shown while this browser has played no game to its
// end and the hint was never put away.
const FIRST_GAME_DONE = 'first-game-hint';
export const firstGameHint = {
  wanted: (id) => prefs.get(FIRST_GAME_DONE, '') !== 'done' && seats.ids().every((other) => other === id),
  done: () => prefs.set(FIRST_GAME_DONE, 'done'),
};

// Whether a position is the usual start: 12 men each, on their first three rows, White to move.
function isUsualStart(pos) {
  if (pos.turn !== 'white') return false;
  const squares = Object.entries(pos.towers);
  if (squares.length !== 24) return false;
  return squares.every(([sq, tower]) => {
    const row = Number(sq.slice(1));
    return (tower === 'w' && row <= 3) || (tower === 'b' && row >= 6);
  });
}



/** The game page of game `id`. */
export function gamePage(app, id) {
  return new GamePage(app, id);
}

class GamePage {
  constructor(app, id) {
    document.body.dataset.page = 'game';
    this.app = app;
    this.id = id;
    const seat = seats.get(id);
    this.seatRecord = seat;
    this.token = seat ? seat.token : null;
    this.you = seat ? seat.seat : null;
    this.state = null;
    this.view = null;          // null: the live position; -1: the start; i: after move i
    this.busy = false;
    this.flipped = null;       // null: follow the seat
    this.receivedAt = 0;
    this.scores = {};          // ply -> the score for White from "analyse each move"
    this.hover = null;
    this.inspected = null;
    this.chooser = null;       // {square, options, hover}
    this.lastShown = null;     // what was drawn last, to animate the next move
    this.premove = null;       // {from, to}
    this.resignArmed = false;
    this.lowWarned = false;
    this.analysing = 0;
    this.flagCheck = 0;
    const params = new URLSearchParams(location.search);
    this.askedPly = params.has('ply') ? Number(params.get('ply')) : null;

    this.board = new Board({
      onSquare: (sq) => {
        this.hover = sq;
        this.showInspector(sq);
        if (this.premove) { this.premove = null; this.redrawMarks(); this.updateBoardData(); }
      },
      onHover: (sq) => { this.hover = sq; this.showInspector(); },
      onLongPress: (sq) => { this.hover = sq; this.showInspector(); },
      onPlay: (move) => this.play(move),
      onChoose: (c) => this.openChooser(c),
      onRefuse: (sq, why) => {
        if (why === 'tower') {
          this.flash(this.state.must_capture ? t('game-capture-forced-choose') : t('game-tower-cannot-move'));
        } else {
          this.flash(t('game-no-legal-move-there'));
        }
      },
      onPremove: (p) => {
        this.premove = p;
        this.redrawMarks();
        this.updateBoardData();
        this.flash(t('game-premove', { from: p.from, to: p.to }));
      },
    });
    this.chat = new ChatPanel((msg) => this.socket.send(msg));
    this.build();
    soundElements();
    setInterval(() => { this.tickClocks(); this.tickAbandon(); }, 100);
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    this.socket = new GameSocket(id, this.token, {
      onOpen: () => {
        this.conn.hidden = true;
        this.board.svg.dataset.connected = 'true';
      },
      onSeat: (you) => { this.you = you; if (this.state) this.render(this.state); },
      onState: (state, fresh) => this.apply(state, false, fresh),
      onUpdate: (update) => {
        const next = S.mergeUpdate(this.state, update);
        if (next) this.apply(next, false);
        else this.socket.askState();
      },
      onClose: () => {
        // Never opened: perhaps there is no such game; the API says.
        if (!this.socket.opened) this.refresh();
        this.board.svg.dataset.connected = 'false';
        this.conn.hidden = false;
        this.conn.textContent = t('game-connection-lost');
      },
      onError: (message) => this.flash(message, true),
      onChat: (msg) => {
        if (msg.type === 'chat') this.chat.line(msg);
        else this.chat.history(msg);
      },
    });
    // The socket brings the state; if it is slow to come, ask the API.
    this.socket.connect();
    setTimeout(() => { if (!this.state) this.refresh(); }, 2500);
  }

  // ---- layout

  build() {
    const e = (name, node) => { this[name] = node; return node; };
    e('title', el('h1', { class: 'game-title' }, t('game-title')));
    e('tournamentLink', el('a', { id: 'tournament-link', class: 'tournament-link', hidden: true }));
    e('rulesLink', el('a', { id: 'rules-link', class: 'rules-link', href: '/rules' }));
    e('hintRulesLink', el('a', { id: 'first-game-rules', href: '/rules' }));
    e('hint', el('section', { id: 'first-game-hint', class: 'card first-game-hint', hidden: true, 'aria-labelledby': 'first-game-hint-title' },
      el('h2', { id: 'first-game-hint-title' }, t('first-game-hint-title')),
      el('p', null, t('first-game-hint-move')),
      el('p', null, t('first-game-hint-capture')),
      el('p', null, this.hintRulesLink),
      el('button', { type: 'button', id: 'first-game-dismiss', onclick: () => {
        firstGameHint.done();
        this.hint.hidden = true;
      } }, t('first-game-hint-dismiss'))));
    e('topName', el('div', { class: 'player top' }));
    e('bottomName', el('div', { class: 'player bottom' }));
    e('inspector', el('p', { id: 'inspector', class: 'inspector', 'aria-live': 'polite' }, t('game-inspector-hint')));
    e('announce', el('p', { id: 'announce', class: 'visually-hidden', 'aria-live': 'polite', role: 'log' }));
    e('status', el('p', { id: 'status', class: 'status' }));
    e('deadline', el('p', { id: 'deadline', class: 'deadline', hidden: true }));
    e('firstMove', el('p', { id: 'first-move', class: 'first-move', hidden: true, 'aria-live': 'polite' }));
    e('forced', el('p', { id: 'forced', class: 'forced', hidden: true }, t('game-capture-forced')));
    e('thinking', el('p', { id: 'thinking', class: 'thinking', hidden: true }, t('game-engine-thinking')));
    e('result', el('p', { id: 'result', class: 'result', hidden: true }));
    e('after', el('div', { id: 'after-game', class: 'after-game', hidden: true }));
    e('message', el('p', { id: 'message', class: 'message', role: 'status' }));
    e('conn', el('p', { id: 'connection', class: 'connection', hidden: true }));
    e('viewNote', el('p', { id: 'view-note', class: 'view-note', hidden: true }));
    e('chooserBox', el('div', { id: 'chooser', class: 'chooser', hidden: true }));
    e('moveList', el('ol', { id: 'moves', class: 'moves' }));
    e('drawBox', el('div', { id: 'draw-box', class: 'draw-box', hidden: true }));
    e('abandonBox', el('div', { id: 'abandon-box', class: 'draw-box abandon-box', hidden: true, 'aria-live': 'polite' }));
    e('controls', el('div', { id: 'controls', class: 'controls' }));
    e('links', el('div', { id: 'links', class: 'links' }));
    e('analysis', el('div', { id: 'analysis', class: 'analysis card', hidden: true }));
    e('positionList', el('details', { id: 'position-list', class: 'position-list' }));
    e('barBox', el('div', { class: 'bar-box', hidden: true }));
    e('moveInput', el('input', { id: 'move-input', type: 'text', placeholder: t('game-move-placeholder'), autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'aria-label': t('game-move-label') }));
    e('moveForm', el('form', { id: 'move-form', class: 'move-form' }, this.moveInput, el('button', { type: 'submit' }, t('game-play'))));
    const navButtons = el('div', { class: 'nav-buttons' },
      el('button', { type: 'button', id: 'nav-first', title: t('game-nav-first-title'), onclick: () => this.goTo(-1) }, t('game-nav-first')),
      el('button', { type: 'button', id: 'nav-prev', title: t('game-nav-prev-title'), onclick: () => this.step(-1) }, t('game-nav-prev')),
      el('button', { type: 'button', id: 'nav-next', title: t('game-nav-next-title'), onclick: () => this.step(1) }, t('game-nav-next')),
      el('button', { type: 'button', id: 'nav-last', title: t('game-nav-last-title'), onclick: () => this.goTo(null) }, t('game-nav-last')));
    this.clockTop = el('span', { class: 'clock', role: 'timer' });
    this.clockBottom = el('span', { class: 'clock', role: 'timer' });
    this.timeLeft = el('span', { class: 'clock days', id: 'time-left' });
    const boardWrap = el('div', { class: 'board-wrap' }, this.topName,
      el('div', { class: 'board-row' }, this.barBox, this.board.svg), this.bottomName);
    const side = el('aside', { class: 'side' },
      this.title, this.tournamentLink, this.rulesLink, this.hint, this.status, this.deadline, this.firstMove, this.forced, this.thinking, this.result, this.after, this.viewNote,
      this.message, this.conn, this.chooserBox, this.drawBox, this.abandonBox,
      this.moveForm, el('div', { class: 'moves-box' }, this.moveList), navButtons,
      this.controls, this.chat.node, this.analysis, this.links, this.positionList, this.announce);
    // The inspector: right under the board on a phone, at the top of the side column when
    // there is one (so that it is on the screen beside a board as tall as the window).
    append(this.app, el('div', { class: 'game game-page' }, boardWrap, this.inspector, side));
    this.moveForm.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const text = this.moveInput.value.trim();
      if (!text) return;
      if (await this.sendMove(text)) this.moveInput.value = '';
    });
  }

  // ---- what may be done

  yourTurn() {
    return S.yourTurn(this.state, this.you) && this.view === null && !this.busy;
  }

  holdsSeat() {
    return S.holdsSeat(this.state, this.you);
  }

  // Fair play: no engine help for a player while a game between people goes on.
  // Fair play: the server says whether the engine may look at this game now (not while a
  // game between people goes on, for players and watchers alike).
  engineHelpAllowed() {
    return this.state.engine_help !== false;
  }

  shownPosition() {
    return S.shownPosition(this.state, this.view);
  }

  shownPly() {
    return S.shownPly(this.state, this.view);
  }

  marks() {
    const marks = {};
    const ply = this.shownPly();
    if (ply >= 0) {
      const mv = this.state.moves[ply];
      marks.last = mv.path.slice();
      marks.captured = (mv.captured || []).slice();
    }
    if (this.chooser && this.chooser.hover) {
      marks.path = this.chooser.hover.path;
      marks.pathCaptured = this.chooser.hover.captured;
    }
    if (this.premove) marks.premove = this.premove;
    if (this.arrows && this.view === this.arrowsView) marks.arrows = this.arrows;
    return marks;
  }

  redrawMarks() {
    this.board.setMarks(this.marks());
  }

  updatePlayable() {
    const s = this.state;
    if (this.yourTurn()) {
      this.board.setPlayable(s.legal_moves, null);
    } else {
      // Not our turn in a live game between a person and someone else: a premove may be picked.
      const premoveFor = !s.result && this.view === null && S.bothJoined(s) &&
        (this.you === 'white' || this.you === 'black') && this.you !== s.turn ? this.you : null;
      this.board.setPlayable(null, premoveFor);
    }
  }

  // ---- picking and sending a move

  play(move) {
    this.closeChooser();
    this.board.clearChoice();
    if (move.claims_draw) { this.askClaim(move); return; }
    this.sendMove(move.text);
  }

  // Bashni 1.13.2: a move that repeats the position a third time may carry a draw claim.
  askClaim(move) {
    const box = this.chooserBox;
    clear(box);
    this.chooser = { square: null, options: [move], hover: move };
    box.appendChild(el('p', { class: 'chooser-title', id: 'claim-title' },
      t('game-claim-question', { move: move.text })));
    box.appendChild(el('div', { class: 'chooser-options' },
      el('button', { type: 'button', class: 'choice', id: 'claim-with-move',
        onclick: () => { this.closeChooser(); this.redrawMarks(); this.sendMove(move.text, true); } },
      t('game-claim-with-move')),
      el('button', { type: 'button', class: 'choice', id: 'play-without-claim',
        onclick: () => { this.closeChooser(); this.redrawMarks(); this.sendMove(move.text); } },
      t('game-play-without-claim'))));
    box.appendChild(el('button', { type: 'button', class: 'link', onclick: () => this.cancelChoice() }, t('game-cancel')));
    box.hidden = false;
    this.redrawMarks();
  }

  openChooser({ square, options, via }) {
    const box = this.chooserBox;
    clear(box);
    // The first way is shown on the board at once: a finger cannot point without tapping.
    this.chooser = { square, options, hover: options[0] };
    const n = options.length;
    box.appendChild(el('p', { class: 'chooser-title' }, t('game-chooser-title', { ways: n, square })));
    const list = el('div', { class: 'chooser-options' });
    options.forEach((m, i) => {
      const preview = el('button', { type: 'button', class: 'preview link', title: t('game-show-way-title'), 'aria-label': t('game-show-way-label', { move: m.text }) }, t('game-show-way'));
      const b = el('button', { type: 'button', class: 'choice', dataset: { index: String(i), move: m.text } },
        el('span', { class: 'choice-text' }, m.text),
        el('span', { class: 'choice-captures' }, t('game-jumps', { squares: (m.captured || []).join(', ') })));
      const show = () => { if (this.chooser) { this.chooser.hover = m; this.markChoice(); this.redrawMarks(); } };
      b.addEventListener('pointerenter', show);
      b.addEventListener('focus', show);
      preview.addEventListener('click', show);
      b.addEventListener('click', () => this.play(m));
      list.appendChild(el('div', { class: 'choice-row' }, b, preview));
    });
    if (via) {
      list.appendChild(el('button', { type: 'button', class: 'choice via', onclick: () => {
        this.closeChooser();
        this.board.goOnThrough(square);
        this.redrawMarks();
      } }, t('game-go-on-through', { square })));
    }
    box.appendChild(list);
    box.appendChild(el('button', { type: 'button', class: 'link', onclick: () => this.cancelChoice() }, t('game-cancel')));
    box.hidden = false;
    this.markChoice();
    this.redrawMarks();
  }

  markChoice() {
    for (const b of this.chooserBox.querySelectorAll('.choice[data-move]')) {
      b.classList.toggle('shown', !!(this.chooser && this.chooser.hover && b.dataset.move === this.chooser.hover.text));
    }
  }

  closeChooser() {
    if (!this.chooser) return;
    this.chooser = null;
    this.chooserBox.hidden = true;
    clear(this.chooserBox);
  }

  cancelChoice() {
    this.closeChooser();
    this.board.clearChoice();
    this.redrawMarks();
  }

  flash(text, isError) {
    this.message.textContent = text;
    this.message.classList.toggle('error', !!isError);
    clearTimeout(this.flashTimer);
    if (!isError) this.flashTimer = setTimeout(() => { this.message.textContent = ''; }, 6000);
  }

  showInspector(sq) {
    const square = sq || this.hover;
    if (!this.state || !square) return;
    this.inspected = square;
    this.inspector.textContent = towerText(square, this.shownPosition().towers[square]);
  }

  async sendMove(text, claimDraw) {
    if (!this.token) { this.flash(t('game-watch-only'), true); return false; }
    this.busy = true;
    this.updatePlayable();
    this.updateBoardData();
    this.message.textContent = '';
    try {
      // The move is made for the position shown: the server refuses it if the game has moved on.
      const ply = this.state.moves.length;
      if (this.socket.open) {
        await this.socket.send({ type: 'move', token: this.token, move: text, claim_draw: !!claimDraw, ply });
      } else {
        const state = await api('POST', gamePath(this.id, '/move'), { move: text, claim_draw: !!claimDraw, ply }, this.token);
        this.apply(state, true);
      }
      return true;
    } catch (e) {
      this.takeStale(e);
      this.flash(e.message, true);
      return false;
    } finally {
      this.busy = false;
      this.updatePlayable();
      this.updateBoardData();
    }
  }

  async action(path, body, okText) {
    this.message.textContent = '';
    try {
      // Made for the position shown (a rematch comes after the game and needs no ply).
      const sent = path === '/rematch' || !this.state ? body : { ...body, ply: this.state.moves.length };
      const state = await api('POST', gamePath(this.id, path), sent, this.token);
      this.apply(state, true);
      // The answer may come after a newer state over the socket (the opponent declined the
      // offer meanwhile): what it says is no longer news then.
      const current = !this.state || this.state.version === state.version;
      if (okText && current) this.flash(okText(state));
      return state;
    } catch (e) {
      this.takeStale(e);
      this.flash(e.message, true);
      return null;
    }
  }

  // A refusal because the game moved on carries the state now (over HTTP): show it.
  takeStale(e) {
    if (e && e.code === 'stale' && e.body && e.body.state) this.apply(e.body.state, true, true);
  }

  // ---- a new state

  apply(given, fromRequest, force) {
    const state = S.complete(given);
    if (!S.takes(this.state, state, force)) return;
    const prev = this.state;
    if (fromRequest && state.you && this.token) this.you = state.you;
    this.state = state;
    this.receivedAt = performance.now();
    window.__bashniState = state;
    if (this.view !== null && this.view >= state.moves.length) this.view = null;
    if (this.askedPly !== null && !prev) {
      // ?ply=N: the position after N plies.
      const n = Math.max(0, Math.min(state.moves.length, this.askedPly));
      this.view = n >= state.moves.length ? null : n - 1;
    }
    if (!prev || prev.version !== state.version) this.closeChooser();
    this.render(prev);
    this.react(prev, state);
  }

  // Sounds, announcements, the premove and the rematch, after a change.
  react(prev, state) {
    const c = S.changes(prev, state, this.you);
    if (c.moved) {
      playSound(c.moved.captured && c.moved.captured.length ? 'capture' : 'move');
      this.announce.textContent = S.moveAnnouncement(c.moved);
    }
    if (c.ended) {
      playSound('end');
      this.announce.textContent = resultText(state.result);
    }
    // The one who offered a draw hears when it is turned down (declined, or answered by a move).
    if (prev && this.you !== 'both' && prev.draw_offer && prev.draw_offer === this.you
        && !state.draw_offer && !state.result) {
      this.flash(t('game-draw-declined'));
      this.announce.textContent = t('game-draw-declined');
    }
    if (c.yourTurnNow && this.premove) {
      const mv = premoveMatch(state.legal_moves, this.premove);
      this.premove = null;
      this.redrawMarks();
      if (mv) this.sendMove(mv.text);
      else this.flash(t('game-premove-dropped'));
    }
    if (state.result && this.premove) { this.premove = null; this.redrawMarks(); }
    const r = state.rematch;
    if (r && r.game && this.holdsSeat() && (!prev || !prev.rematch || !prev.rematch.game)) {
      // The rematch is agreed: the same token holds the other colour there.
      const seatThere = this.you === 'both' ? 'both' : otherColor(this.you);
      if (!seats.get(r.game)) seats.set(r.game, { token: this.token, seat: seatThere });
      location.assign('/g/' + encodeURIComponent(r.game));
    }
  }

  render(prev) {
    const s = this.state;
    document.title = S.tabTitle(s, this.you);
    const tour = s.tournament;
    const heading = { variant: variantName(s.variant), mode: tour ? t('game-tournament-game') : modeName(s.mode) };
    this.title.textContent = s.mode === 'friend' ? t('game-heading-rated', { ...heading, rated: ratedText(s) })
      : t('game-heading', heading);
    // A tournament game names its tournament and round, and links back to it.
    this.tournamentLink.hidden = !tour;
    if (tour) {
      this.tournamentLink.href = '/t/' + encodeURIComponent(tour.id);
      const name = tour.name || t('game-the-tournament');
      const text = tour.round ? t('game-tournament-round', { name, round: tour.round }) : name;
      if (this.tournamentLink.textContent !== text) this.tournamentLink.textContent = text;
    }
    this.title.dataset.rated = String(!!s.rated);
    this.drawRulesLinks();
    if (this.flipped === null) this.board.setFlipped(this.you === 'black');
    else this.board.setFlipped(this.flipped);
    this.drawBoard(prev);
    this.drawPlayers();
    this.drawStatus();
    this.drawMoves();
    this.drawControls();
    this.drawAbandon();
    this.drawChat();
    this.drawAfterGame();
    this.drawPositionList();
    this.updatePlayable();
    this.updateBoardData();
    this.tickClocks();
    // The inspector follows the position shown: a move may have changed its tower.
    if (this.inspected) this.showInspector(this.inspected);
  }

  // The rules of this game, and the first-game hint while it is wanted: a player's first game
  // to its end puts it away for good, as does its button.
  drawRulesLinks() {
    const s = this.state;
    const href = '/rules#' + s.variant;
    const text = t('game-rules-link', { variant: s.variant });
    for (const link of [this.rulesLink, this.hintRulesLink]) {
      link.href = href;
      if (link.textContent !== text) link.textContent = text;
    }
    if (s.result && this.holdsSeat()) firstGameHint.done();
    this.hint.hidden = !(this.holdsSeat() && !s.result && firstGameHint.wanted(this.id));
  }

  drawBoard(prev) {
    const s = this.state;
    const pos = this.shownPosition();
    const marks = this.marks();
    const last = this.lastShown;
    const ply = this.shownPly();
    const board = this.board;
    this.lastShown = { ply, towers: pos.towers, len: s.moves.length };
    if (board.anim && last && last.ply === ply && last.len === s.moves.length) {
      board.anim.marks = marks;   // the same position (a clock or an offer changed)
      return;
    }
    // Animate when exactly one move has been added to what was shown.
    const sameBefore = !prev || ply < 1 || (prev.moves[ply - 1] && s.moves[ply - 1] && prev.moves[ply - 1].text === s.moves[ply - 1].text);
    if (last && ply === last.ply + 1 && ply >= 0 && last.towers && sameBefore) {
      board.animate(last.towers, s.moves[ply], pos.towers, marks);
    } else {
      board.render(pos.towers, marks);
    }
  }

  playerLine(color) {
    const s = this.state;
    const p = s[color] || {};
    return el('div', { class: 'player-row', dataset: { color } },
      el('span', { class: 'dot ' + color }),
      el('span', { class: 'name', dataset: { color } }, seatName(playerName(p && p.name, color), s[color + '_player'])),
      p.joined === false ? el('span', { class: 'waiting' }, ' ' + t('game-player-waiting')) : null,
      this.you === color ? el('span', { class: 'you' }, ' ' + t('game-player-you')) : null,
      s.mode === 'friend' && p.joined !== false && typeof p.online === 'boolean'
        ? el('span', { class: 'presence ' + (p.online ? 'online' : 'offline'), id: 'presence-' + color,
          dataset: { online: String(p.online) } }, p.online ? t('game-online') : t('game-offline'))
        : null,
      s.turn === color && !s.result ? el('span', { class: 'to-move' }, ' ' + t('game-player-to-move')) : null);
  }

  drawPlayers() {
    const bottomColor = this.board.flipped ? 'black' : 'white';
    const topColor = otherColor(bottomColor);
    clear(this.topName);
    clear(this.bottomName);
    this.topName.appendChild(this.playerLine(topColor));
    this.bottomName.appendChild(this.playerLine(bottomColor));
    this.topName.dataset.color = topColor;
    this.bottomName.dataset.color = bottomColor;
    if (this.state.clock) {
      this.topName.appendChild(this.clockTop);
      this.bottomName.appendChild(this.clockBottom);
      this.clockTop.dataset.color = topColor;
      this.clockBottom.dataset.color = bottomColor;
      this.clockTop.id = 'clock-' + topColor;
      this.clockBottom.id = 'clock-' + bottomColor;
    }
    // Correspondence: the time left stands by the side to move, in words.
    const c = this.state.correspondence;
    if (c && c.deadline_ms && !this.state.result) {
      (this.state.turn === topColor ? this.topName : this.bottomName).appendChild(this.timeLeft);
      this.timeLeft.dataset.color = this.state.turn;
    }
  }

  clockMs(color) {
    const c = this.state.clock;
    if (!c) return null;
    let ms = color === 'white' ? c.white_ms : c.black_ms;
    if (c.running === color && !this.state.result) ms -= performance.now() - this.receivedAt;
    return Math.max(0, ms);
  }

  // Correspondence: the deadline in words instead of a ticking clock. A deadline that has
  // passed is asked about, so the server ends the game.
  tickDeadline() {
    const s = this.state;
    const c = s.correspondence;
    const box = this.deadline;
    box.hidden = !c;
    if (!c) return;
    const per = perMoveText(c.days_per_move);
    let text;
    let left = null;
    if (s.result || !c.deadline_ms) {
      text = s.result ? t('game-correspondence', { per }) : t('game-correspondence-waiting', { per });
    } else {
      left = c.deadline_ms - Date.now();
      text = t('game-deadline', { colour: s.turn, left: timeLeftText(left), per });
    }
    if (box.textContent !== text) box.textContent = text;
    box.dataset.deadlineMs = c.deadline_ms && !s.result ? String(c.deadline_ms) : '';
    box.title = c.deadline_ms && !s.result ? t('game-deadline-until', { date: new Date(c.deadline_ms).toLocaleString() }) : '';
    if (left !== null) {
      const words = timeLeftText(left);
      if (this.timeLeft.textContent !== words) this.timeLeft.textContent = words;
      this.timeLeft.classList.toggle('low', left < 6 * 3600000);
      if (left <= 0) {
        const now = Date.now();
        if (now - this.flagCheck > 2000) { this.flagCheck = now; this.refresh(); }
      }
    }
  }

  // A tournament or rated game: the side to move must make its first move in time.
  tickFirstMove() {
    const f = this.state.result ? null : this.state.first_move;
    this.firstMove.hidden = !f;
    if (!f) return;
    const left = Math.max(0, f.in_ms - (performance.now() - this.receivedAt));
    const text = t('game-first-move', {
      who: f.side === this.you ? 'you' : (f.side === 'white' ? 'white' : 'black'),
      seconds: Math.ceil(left / 1000),
      missed: f.missed === 'loses' ? 'loses' : 'aborted',
    });
    if (this.firstMove.textContent !== text) this.firstMove.textContent = text;
    if (left <= 0) {
      const now = Date.now();
      if (now - this.flagCheck > 2000) { this.flagCheck = now; this.refresh(); }
    }
  }

  tickClocks() {
    const s = this.state;
    if (s) this.tickDeadline();
    if (s) this.tickFirstMove();
    if (!s || !s.clock) return;
    for (const node of [this.clockTop, this.clockBottom]) {
      const color = node.dataset.color;
      if (!color) continue;
      const ms = this.clockMs(color);
      const running = s.clock.running === color && !s.result;
      node.textContent = formatClock(ms);
      node.classList.toggle('running', running);
      node.classList.toggle('low', ms < LOW_TIME_MS);
      if (running && ms < LOW_TIME_MS && color === this.you && !this.lowWarned) {
        this.lowWarned = true;
        playSound('low');
      }
      if (ms <= 0 && running) {
        const now = Date.now();
        if (now - this.flagCheck > 2000) { this.flagCheck = now; this.refresh(); }
      }
    }
  }

  drawStatus() {
    const s = this.state;
    this.status.textContent = S.statusText(s, this.you);
    // Told only to the side to move: the one waiting has nothing to choose.
    this.forced.hidden = !(s.must_capture && !s.result && this.view === null && S.yourTurn(s, this.you));
    this.thinking.hidden = !(s.engine_thinking && !s.result);
    if (s.result) {
      this.result.hidden = false;
      this.result.textContent = resultText(s.result);
      this.result.dataset.score = s.result.score;
      this.result.dataset.code = s.result.code || '';
      if (s.rating) {
        this.result.append(el('span', { class: 'rating-change', id: 'rating-change' }, ratingChangeText(s.rating)));
      }
    } else {
      this.result.hidden = true;
      this.result.textContent = '';
    }
    if (this.view !== null) {
      const m = s.moves[this.view];
      this.viewNote.hidden = false;
      this.viewNote.textContent = this.view < 0 ? t('game-view-start')
        : t('game-view-after', { number: moveLabel(m.number, m.color), move: m.text });
    } else {
      this.viewNote.hidden = true;
    }
    this.moveForm.hidden = !this.holdsSeat() || !!s.result;
  }

  drawMoves() {
    const s = this.state;
    const list = this.moveList;
    clear(list);
    let row = null;
    const current = this.shownPly();
    for (let i = 0; i < s.moves.length; i++) {
      const m = s.moves[i];
      if (!row || m.color === 'white') {
        row = el('li', { class: 'move-row' }, el('span', { class: 'num' }, m.number + '.'));
        if (m.color === 'black') row.appendChild(el('span', { class: 'mv empty' }, '…'));
        list.appendChild(row);
      }
      const b = el('button', {
        type: 'button',
        class: 'mv' + (i === current && this.view !== null ? ' current' : '') + (i === s.moves.length - 1 ? ' last' : ''),
        dataset: { ply: String(i) },
        title: t('game-move-title'),
      }, m.text);
      b.addEventListener('click', () => this.goTo(i));
      // A move and its score share one cell, so a row keeps its three columns.
      row.appendChild(moveCell(b, this.scores[i]));
    }
    if (s.result) list.appendChild(el('li', { class: 'move-row final' }, s.result.score));
    if (this.view === null) {
      const box = list.parentNode;
      if (box) box.scrollTop = box.scrollHeight;
    } else {
      const cur = list.querySelector('.mv.current');
      if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
    }
  }

  drawControls() {
    const s = this.state;
    const you = this.you;
    const playing = this.holdsSeat() && !s.result;
    const controls = this.controls;
    const drawBox = this.drawBox;
    clear(controls);
    clear(drawBox);
    drawBox.hidden = true;
    if (playing) {
      if (s.may_abort) {
        controls.appendChild(button('abort', t('game-abort'), () => this.action('/abort', {})));
      }
      if (this.resignArmed) {
        controls.appendChild(button('resign-confirm', t('game-resign-confirm'), () => {
          this.resignArmed = false;
          this.action('/resign', {});
        }, 'danger'));
        controls.appendChild(button('resign-cancel', t('game-resign-cancel'), () => { this.resignArmed = false; this.drawControls(); }));
      } else if (S.bothJoined(s)) {
        controls.appendChild(button('resign', you === 'both' ? t('game-resign-side', { colour: s.turn }) : t('game-resign'), () => {
          this.resignArmed = true;
          this.drawControls();
        }));
      }
      const mine = you === 'both' ? [s.turn] : [you];
      if (s.draw_offer) {
        const offeredByMe = you !== 'both' && s.draw_offer === you;
        drawBox.hidden = false;
        if (offeredByMe) {
          drawBox.appendChild(el('p', null, t('game-draw-offered-waiting')));
        } else {
          drawBox.appendChild(el('p', { id: 'draw-offer-text' }, t('game-draw-offer', { colour: s.draw_offer })));
          drawBox.appendChild(button('draw-accept', t('game-draw-accept'), () => this.action('/draw', { action: 'accept' })));
          drawBox.appendChild(button('draw-decline', t('game-decline'), () => this.action('/draw', { action: 'decline' })));
        }
      } else if (s.may_offer_draw && S.bothJoined(s)) {
        controls.appendChild(button('draw-offer', t('game-draw-offer-button'), () => this.action('/draw', { action: 'offer' }, (st) => {
          if (st.result) return t('game-draw-agreed');
          if (s.mode === 'engine' && !st.draw_offer) return t('game-draw-engine-declines');
          return t('game-draw-offered');
        })));
      }
      if (s.can_claim_draw && mine.includes(s.turn)) {
        controls.appendChild(button('draw-claim', t('game-draw-claim-reason', { reason: s.claim_draw ? reasonText(s.claim_draw.code, s.claim_draw.details, s.can_claim_draw) : String(s.can_claim_draw) }), () => this.action('/draw', { action: 'claim' })));
      }
      if (s.can_take_back && (s.mode === 'engine' || s.mode === 'local')) {
        controls.appendChild(button('takeback', t('game-take-back'), () => this.action('/takeback', {})));
      }
    }
    controls.appendChild(button('flip', t('game-flip'), () => {
      this.flipped = !this.board.flipped;
      this.board.setFlipped(this.flipped);
      this.redrawMarks();
      this.drawPlayers();
      this.tickClocks();
    }));
    if (this.engineHelpAllowed()) {
      controls.appendChild(button('analyse', t('game-analyse'), () => this.openAnalysis()));
      controls.appendChild(el('a', { id: 'analysis-board-link', class: 'button-link',
        href: '/analysis?game=' + encodeURIComponent(this.id) + '&ply=' + (this.shownPly() + 1) }, t('game-analysis-board')));
      if (this.state.notes) {
        controls.appendChild(el('p', { id: 'record-notes', class: 'hint' },
          t('game-record-notes')));
      }
    } else {
      this.closeAnalysis();
    }

    const links = this.links;
    clear(links);
    const ply = this.shownPly() + 1;
    const download = el('div', { class: 'row downloads' },
      el('a', { id: 'pdn-link', href: gamePath(this.id, '/pdn'), download: 'bashni-' + this.id + '.pdn' }, t('game-download-pdn')),
      el('a', { id: 'svg-link', href: gamePath(this.id, '/diagram.svg?ply=' + ply + '&size=480'), download: 'bashni-' + this.id + '-' + ply + '.svg' }, t('game-picture-svg')));
    links.appendChild(download);
    const seat = this.seatRecord;
    const invite = s.invite_url || (seat && seat.invite_url && s.mode === 'friend' && !S.bothJoined(s) ? seat.invite_url : null);
    if (invite && this.holdsSeat() && !s.result) {
      const url = absoluteUrl(invite);
      const input = el('input', { id: 'invite-link', type: 'text', readonly: true, value: url, 'aria-label': t('game-invite-link-label') });
      const note = el('span', { class: 'note' });
      links.appendChild(el('div', { class: 'link-box invite' },
        el('span', { class: 'label' }, t('game-invite-link-text')),
        input,
        button('copy-invite', t('game-copy-invite-link'), () => copyText(url, input, note)), note));
    }
    const watch = absoluteUrl('/g/' + encodeURIComponent(this.id));
    const watchInput = el('input', { id: 'watch-link', type: 'text', readonly: true, value: watch, 'aria-label': t('game-watch-link-label') });
    const watchNote = el('span', { class: 'note' });
    links.appendChild(el('div', { class: 'link-box' },
      el('span', { class: 'label' }, t('game-watch-link-text')),
      watchInput,
      button('copy-watch', t('game-copy-watch-link'), () => copyText(watch, watchInput, watchNote)), watchNote));
  }

  // The other player of a game between people left on their turn: a countdown, then the
  // claim of the win or a draw for the player waiting (everyone else sees who is away).
  drawAbandon() {
    const s = this.state;
    const box = this.abandonBox;
    clear(box);
    const a = s.abandon;
    box.hidden = !a || !!s.result;
    this.abandonText = null;
    this.abandonButtons = null;
    if (box.hidden) return;
    box.dataset.side = a.side;
    this.abandonText = el('p', { id: 'abandon-text' });
    box.appendChild(this.abandonText);
    if (this.you === otherColor(a.side)) {
      this.abandonButtons = el('div', { class: 'row', hidden: true },
        button('claim-win', t('game-claim-win'), () => this.action('/claim', { claim: 'win' }), 'primary'),
        button('claim-draw', t('game-claim-draw'), () => this.action('/claim', { claim: 'draw' })));
      box.appendChild(this.abandonButtons);
    }
    this.tickAbandon();
  }

  tickAbandon() {
    const s = this.state;
    if (!s || !s.abandon || !this.abandonText) return;
    const a = s.abandon;
    const left = Math.max(0, a.claim_in_ms - (performance.now() - this.receivedAt));
    const secs = Math.ceil(left / 1000);
    const name = playerName(s[a.side] && s[a.side].name, a.side);
    let text;
    if (this.abandonButtons) {
      text = left > 0 ? t('game-abandon-left-wait', { name, seconds: secs }) : t('game-abandon-left-now', { name });
      this.abandonButtons.hidden = left > 0;
    } else {
      const other = otherColor(a.side);
      const otherName = playerName(s[other] && s[other].name, other);
      text = left > 0 ? t('game-abandon-offline-wait', { name, other: otherName, seconds: secs })
        : t('game-abandon-offline-now', { name, other: otherName });
    }
    if (this.abandonText.textContent !== text) this.abandonText.textContent = text;
  }

  drawChat() {
    const s = this.state;
    const opponent = this.you === 'white' || this.you === 'black' ? s[otherColor(this.you)] : null;
    const over = Boolean(s.result);
    this.chat.setSeat(s.mode, this.holdsSeat() ? this.you : null, opponent && opponent.name, over);
    // The watchers' room opens to the players when the game ends: ask for its lines once.
    if (over && opponent && this.holdsSeat() && !this.watchersOpened) {
      this.watchersOpened = true;
      this.socket.post({ type: 'chat_history' });
    }
  }

  // After the end: a rematch (offer, accept, decline) and a new game like this one.
  drawAfterGame() {
    const s = this.state;
    const box = this.after;
    clear(box);
    box.hidden = !s.result || s.mode === 'record';
    if (box.hidden) return;
    if (s.tournament) {
      // The tournament pairs the next game: no rematch, no new game like this.
      box.appendChild(el('a', { id: 'back-to-tournament', class: 'button-link', href: '/t/' + encodeURIComponent(s.tournament.id) }, t('game-back-to-tournament')));
      if (this.holdsSeat()) {
        if (this.nextGame) box.appendChild(this.nextGameLink());
        else box.appendChild(el('p', { id: 'next-game-wait', class: 'hint' }, this.nextGameNote || t('game-next-game-wait')));
        this.watchNextGame();
      }
      return;
    }
    const r = s.rematch;
    if (this.holdsSeat()) {
      if (r && r.game) {
        box.appendChild(el('a', { id: 'rematch-link', class: 'button-link', href: '/g/' + encodeURIComponent(r.game) }, t('game-rematch-go')));
      } else if (r && r.offered_by && (this.you === 'both' || r.offered_by === this.you)) {
        box.appendChild(el('p', { id: 'rematch-wait' }, t('game-rematch-offered')));
      } else if (r && r.offered_by) {
        box.appendChild(el('p', { id: 'rematch-offer' }, t('game-rematch-offer', { colour: r.offered_by })));
        box.appendChild(button('rematch-accept', t('game-rematch-accept'), () => this.action('/rematch', { action: 'accept' }), 'primary'));
        box.appendChild(button('rematch-decline', t('game-decline'), () => this.action('/rematch', { action: 'decline' })));
      } else {
        box.appendChild(button('rematch', t('game-rematch'), () => this.action('/rematch', { action: 'offer' }), 'primary'));
      }
    }
    box.appendChild(button('new-like-this', t('game-new-like-this'), () => this.newLikeThis()));
  }

  // After a tournament game: asks the tournament for this player's next game until it is
  // paired, and then offers it.
  nextGameLink() {
    return el('a', { id: 'next-game', class: 'button-link primary', href: '/g/' + encodeURIComponent(this.nextGame) }, t('game-next-game-ready'));
  }

  async watchNextGame() {
    const tour = this.state.tournament;
    if (this.nextGameWatch === tour.id) return;
    this.nextGameWatch = tour.id;
    for (;;) {
      let data = null;
      try { data = await api('GET', '/api/tournaments/' + encodeURIComponent(tour.id)); } catch (e) { data = null; }
      if (!this.state || !this.state.tournament || this.state.tournament.id !== tour.id) return;
      const next = data && data.you && data.you.game;
      if (next && next !== this.id) {
        this.nextGame = next;
        const shown = this.after.querySelector('#next-game-wait');
        if (shown) shown.replaceWith(this.nextGameLink());
        playSound('end');
        return;
      }
      if (data && data.status === 'finished') {
        this.nextGameNote = t('game-tournament-finished');
        const shown = this.after.querySelector('#next-game-wait');
        if (shown) shown.textContent = this.nextGameNote;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }

  async newLikeThis() {
    const s = this.state;
    const body = { variant: s.variant, mode: s.mode, time: timeOfGame(s) };
    const engineSeat = s.white.kind === 'engine' ? s.white : (s.black.kind === 'engine' ? s.black : null);
    if (s.mode === 'engine' && engineSeat) body.level = engineSeat.level;
    if (s.mode !== 'local') body.color = this.you === 'black' ? 'black' : 'white';
    const mine = this.you === 'black' ? s.black : s.white;
    if (mine && mine.name && mine.kind !== 'engine') body.name = mine.name;
    if (s.mode === 'local' && s.black.name) body.opponent_name = s.black.name;
    if (!isUsualStart(s.start)) body.position = s.start.fen;
    try {
      await createGame(body);
    } catch (e) {
      this.flash(e.message, true);
    }
  }

  drawPositionList() {
    const box = this.positionList;
    const open = box.open;
    clear(box);
    box.open = open;
    const pos = this.shownPosition();
    const lines = positionLines(pos.towers);
    box.appendChild(el('summary', null, t('game-position-as-text')));
    box.appendChild(el('p', null, t('state-to-move', { colour: pos.turn })));
    for (const color of ['white', 'black']) {
      box.appendChild(el('h3', null, t('game-position-side', { colour: color, count: lines[color].length })));
      box.appendChild(el('ul', { class: 'tower-list', dataset: { color } }, lines[color].map((line) => el('li', null, line))));
    }
  }

  updateBoardData() {
    const s = this.state;
    if (!s) return;
    const d = this.board.svg.dataset;
    d.version = String(s.version);
    d.turn = s.turn;
    d.you = this.you || '';
    d.canMove = this.yourTurn() ? 'true' : 'false';
    d.plies = String(s.moves.length);
    d.view = this.view === null ? 'live' : String(this.view);
    d.premove = this.premove ? this.premove.from + '-' + this.premove.to : '';
    document.body.dataset.canMove = d.canMove;
  }

  // ---- stepping through the game

  goTo(view) {
    const s = this.state;
    if (!s) return;
    if (view !== null && view >= s.moves.length - 1 && view >= 0) view = null;
    if (view !== null && view < -1) view = -1;
    if (view === this.view) return;
    this.view = view;
    this.closeChooser();
    this.board.clearChoice();
    const url = new URL(location.href);
    if (view === null) url.searchParams.delete('ply');
    else url.searchParams.set('ply', String(view + 1));
    history.replaceState(null, '', url.pathname + url.search);
    this.drawBoard(null);
    this.drawStatus();
    this.drawMoves();
    this.drawPositionList();
    this.updatePlayable();
    this.updateBoardData();
    this.showInspector();
    if (!this.analysis.hidden) this.runAnalysis();
  }

  step(delta) {
    if (!this.state) return;
    this.goTo(S.stepView(this.state, this.view, delta));
  }

  onKey(ev) {
    const tag = ev.target && ev.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if (ev.key === 'ArrowLeft') { this.step(-1); ev.preventDefault(); }
    else if (ev.key === 'ArrowRight') { this.step(1); ev.preventDefault(); }
    else if (ev.key === 'Home') { this.goTo(-1); ev.preventDefault(); }
    else if (ev.key === 'End') { this.goTo(null); ev.preventDefault(); }
    else if (ev.key === 'Escape') { this.cancelChoice(); }
  }

  // ---- analysis

  openAnalysis() {
    const a = this.analysis;
    a.hidden = false;
    if (!a.firstChild) {
      a.appendChild(el('h2', null, t('game-engine-view')));
      a.appendChild(el('div', { class: 'analysis-out', id: 'analysis-out' }));
      a.appendChild(el('div', { id: 'graph-box' }));
      a.appendChild(el('div', { class: 'row' },
        button('analyse-again', t('game-analyse-again'), () => this.runAnalysis()),
        button('analyse-each', t('game-analyse-each'), () => this.analyseEach()),
        el('a', { id: 'open-study', class: 'button-link', href: '#' }, t('game-open-in-study')),
        button('analyse-close', t('game-analysis-close'), () => this.closeAnalysis())));
    }
    this.barBox.hidden = false;
    this.runAnalysis();
  }

  closeAnalysis() {
    this.analysis.hidden = true;
    clear(this.analysis);
    this.barBox.hidden = true;
    clear(this.barBox);
    this.arrows = null;
  }

  async runAnalysis() {
    const s = this.state;
    if (!s || !this.engineHelpAllowed()) return;
    const pos = this.shownPosition();
    const out = this.analysis.querySelector('#analysis-out');
    this.analysis.querySelector('#open-study').href = '/study?variant=' + encodeURIComponent(s.variant) + '&position=' + encodeURIComponent(pos.fen);
    const ticket = ++this.analysing;
    clear(out);
    out.appendChild(el('p', null, t('game-thinking-about', { position: pos.text })));
    clear(this.barBox);
    this.barBox.appendChild(evalBar(null));
    try {
      const data = await api('POST', '/api/analyse', { variant: s.variant, position: pos.fen, movetime_ms: 1000, lines: 3, game: this.id });
      if (ticket !== this.analysing || this.analysis.hidden) return;
      clear(out);
      out.appendChild(el('p', { class: 'analysed-position' }, pos.text));
      out.appendChild(analysisView(data, pos.turn));
      const best = data.lines && data.lines[0];
      clear(this.barBox);
      this.barBox.appendChild(evalBar(best ? best.score_white : null));
      // Arrows for the first move of each line, where it can be found among the legal moves.
      const legal = this.view === null ? s.legal_moves : [];
      this.arrows = (data.lines || []).map((line, i) => {
        const first = line.path || (legal.find((m) => m.text === (line.moves || [])[0]) || {}).path;
        return first ? { path: first, kind: i === 0 ? 'best' : 'other' } : null;
      }).filter(Boolean);
      this.arrowsView = this.view;
      this.redrawMarks();
    } catch (e) {
      if (ticket !== this.analysing) return;
      clear(out);
      out.appendChild(el('p', { class: 'error' }, e.message));
    }
  }

  drawGraph() {
    const box = this.analysis.querySelector('#graph-box');
    if (!box) return;
    clear(box);
    box.appendChild(evalGraph(this.scores, this.state.moves.length, this.shownPly(), (i) => this.goTo(i)));
  }

  async analyseEach() {
    const s = this.state;
    const btn = this.analysis.querySelector('#analyse-each');
    btn.disabled = true;
    try {
      for (let i = 0; i < s.moves.length; i++) {
        if (this.analysis.hidden) return;
        if (this.scores[i] !== undefined) continue;
        try {
          const data = await api('POST', '/api/analyse', { variant: s.variant, position: s.moves[i].after.fen, movetime_ms: 300, lines: 1, game: this.id });
          this.scores[i] = data.lines && data.lines[0] ? data.lines[0].score_white : '';
        } catch (e) {
          this.scores[i] = '?';
        }
        this.drawMoves();
        this.drawGraph();
      }
    } finally {
      btn.disabled = false;
    }
  }

  // ---- the connection

  async refresh() {
    try {
      const state = await api('GET', gamePath(this.id), undefined, this.token);
      if (this.token && state.you === null && this.you) this.you = null;   // the token is not known (any more)
      else if (state.you) this.you = state.you;
      this.apply(state, true);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        clear(this.app);
        append(this.app, el('div', { class: 'card narrow' }, el('h1', null, t('game-no-such-game')),
          el('p', null, el('a', { href: '/' }, t('game-start-new')))));
        this.socket.stop();
      }
    }
  }
}
