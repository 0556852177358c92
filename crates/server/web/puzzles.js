// The puzzle trainer: a position where one move wins, the opponent's replies played by the
// page, right or wrong with the solution, and the player's puzzle rating (an account's on
// the server, a guest's kept in this browser).

import { el, append, clear, button } from './dom.js';
import { api, prefs } from './api.js';
import { Board } from './board.js';
import { currentAccount } from './account.js';
import { towerText, variantName } from './text.js';
import { t } from './i18n.js';

/** The themes a player may choose, as the server names them, with their texts. */
const THEME_TEXTS = {
  'sacrifice': () => t('puzzles-theme-sacrifice'),
  'breakthrough': () => t('puzzles-theme-breakthrough'),
  'crowning-capture': () => t('puzzles-theme-crowning-capture'),
  'long-diagonal': () => t('puzzles-theme-long-diagonal'),
  'tables': () => t('puzzles-theme-tables'),
  'frees-prisoners': () => t('puzzles-theme-frees-prisoners'),
  'captures-king': () => t('puzzles-theme-captures-king'),
  'tower-changes-hands': () => t('puzzles-theme-tower-changes-hands'),
};

/** The themes' names, in the order they are offered. */
export const THEMES = Object.keys(THEME_TEXTS);

function themeText(name) {
  return THEME_TEXTS[name] ? THEME_TEXTS[name]() : name;
}

// How long the opponent's reply waits, so that the player sees the own move land first.
const REPLY_DELAY_MS = 350;
// How many puzzles a guest's browser remembers to skip.
const SEEN_KEPT = 100;

/** A guest's puzzle rating in `variant`, as this browser keeps it. */
export function guestRating(variant) {
  try {
    const kept = JSON.parse(prefs.get('puzzle-rating.' + variant, 'null'));
    if (kept && Number.isFinite(kept.rating) && Number.isFinite(kept.deviation) && Number.isFinite(kept.volatility)) return kept;
  } catch (e) { /* a bad value: start again */ }
  return { rating: 1500, deviation: 350, volatility: 0.06 };
}

function keepGuestRating(variant, rating) {
  prefs.set('puzzle-rating.' + variant, JSON.stringify({ rating: rating.rating, deviation: rating.deviation, volatility: rating.volatility }));
}

function seenIds(variant) {
  try {
    const ids = JSON.parse(prefs.get('puzzles-seen.' + variant, '[]'));
    return Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : [];
  } catch (e) { return []; }
}

function markSeen(variant, id) {
  const ids = seenIds(variant).filter((x) => x !== id);
  ids.push(id);
  prefs.set('puzzles-seen.' + variant, JSON.stringify(ids.slice(-SEEN_KEPT)));
}

/** The trainer page: `/puzzles` (the next puzzle), `/puzzles/daily`, `/puzzles/{id}`. */
export function puzzlesPage(app, which) {
  document.body.dataset.page = 'puzzles';
  document.title = t('puzzles-page-title');
  const params = new URLSearchParams(location.search);
  const page = new Trainer(app, params, which);
  page.start().catch((e) => page.fail(e.message));
}

class Trainer {
  constructor(app, params, which) {
    this.app = app;
    this.which = which;
    this.variant = params.get('variant') === 'bashni' ? 'bashni' : (params.get('variant') === 'russian' ? 'russian' : prefs.get('puzzle-variant', 'russian'));
    this.theme = THEMES.includes(params.get('theme')) ? params.get('theme') : '';
    this.account = null;
    this.puzzle = null;
    this.done = 0;       // moves of the line played so far
    this.finished = false;
    this.rating = null;
    this.board = new Board({
      label: t('puzzles-board-label'),
      onPlay: (move) => this.play(move),
      onChoose: (c) => this.play(c.options[0]),
      onHover: (sq) => { if (sq && this.position) this.inspector.textContent = towerText(sq, this.position.towers[sq]); },
      onRefuse: () => { this.say(t('puzzles-no-move-there'), 'hint'); },
    });
  }

  fail(message) {
    clear(this.app);
    append(this.app, el('div', { class: 'card narrow', id: 'puzzle-error' }, el('h1', null, t('puzzles-heading')),
      el('p', { class: 'error' }, message), el('p', null, el('a', { href: '/puzzles' }, t('puzzles-another')))));
  }

  async start() {
    this.account = await currentAccount();
    this.build();
    await this.load(this.which);
  }

  build() {
    this.inspector = el('p', { id: 'inspector', class: 'inspector', 'aria-live': 'polite' });
    this.task = el('p', { id: 'puzzle-task', class: 'puzzle-task' });
    this.verdict = el('p', { id: 'puzzle-verdict', class: 'message', role: 'status', 'aria-live': 'polite' });
    this.ratingBox = el('p', { id: 'puzzle-rating', class: 'puzzle-rating' });
    this.about = el('p', { id: 'puzzle-about', class: 'hint' });
    this.solutionBox = el('p', { id: 'puzzle-solution', class: 'puzzle-solution', hidden: true });
    const variantSelect = el('select', { id: 'puzzle-variant' },
      ['russian', 'bashni'].map((v) => el('option', { value: v, selected: v === this.variant }, variantName(v))));
    variantSelect.addEventListener('change', () => { this.variant = variantSelect.value; prefs.set('puzzle-variant', this.variant); this.load(null); });
    const themeSelect = el('select', { id: 'puzzle-theme' },
      [el('option', { value: '', selected: this.theme === '' }, t('puzzles-any-theme'))].concat(
        THEMES.map((name) => el('option', { value: name, selected: name === this.theme }, themeText(name)))));
    themeSelect.addEventListener('change', () => { this.theme = themeSelect.value; this.load(null); });
    // A move may be typed, in any notation the server reads, as in games.
    this.moveInput = el('input', { id: 'puzzle-move-input', type: 'text', placeholder: t('game-move-placeholder'), autocomplete: 'off',
      autocapitalize: 'off', spellcheck: 'false', 'aria-label': t('game-move-label') });
    const moveForm = el('form', { id: 'puzzle-move-form', class: 'move-form' }, this.moveInput, el('button', { type: 'submit' }, t('game-play')));
    moveForm.addEventListener('submit', (ev) => { ev.preventDefault(); this.typed(this.moveInput.value.trim()); });
    this.nextButton = button('puzzle-next', t('puzzles-next'), () => this.load(null));
    this.showButton = button('puzzle-show', t('puzzles-show-solution'), () => this.giveUp());
    const side = el('aside', { class: 'side' },
      el('h1', null, t('puzzles-heading')),
      this.task, this.verdict, this.solutionBox, moveForm,
      el('div', { class: 'row' }, this.showButton, this.nextButton),
      this.ratingBox,
      el('div', { class: 'card' },
        el('label', null, t('puzzles-game'), ' ', variantSelect),
        el('label', null, t('puzzles-theme'), ' ', themeSelect)),
      this.about);
    const wrap = el('div', { class: 'board-wrap' }, el('div', { class: 'board-row' }, this.board.svg), this.inspector);
    append(this.app, el('div', { class: 'game puzzles' }, wrap, side));
    document.addEventListener('keydown', (ev) => {
      const tag = ev.target && ev.target.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
      if (ev.key === 'n' && this.finished) { this.load(null); ev.preventDefault(); }
    });
  }

  say(text, kind) {
    this.verdict.textContent = text;
    this.verdict.dataset.kind = kind || '';
  }

  async load(which) {
    this.say('', '');
    let path;
    if (which === 'daily') path = '/api/puzzles/daily?variant=' + this.variant;
    else if (which) path = '/api/puzzles/' + encodeURIComponent(which);
    else {
      const q = new URLSearchParams({ variant: this.variant });
      if (this.theme) q.set('theme', this.theme);
      if (!this.account) {
        q.set('rating', String(Math.round(guestRating(this.variant).rating)));
        q.set('skip', seenIds(this.variant).join(','));
      }
      path = '/api/puzzles/next?' + q.toString();
    }
    let puzzle;
    try {
      puzzle = await api('GET', path);
    } catch (e) {
      this.say(e.status === 404 ? t('puzzles-none-left') : e.message, 'error');
      return;
    }
    this.which = null;
    this.puzzle = puzzle;
    this.variant = puzzle.variant;
    this.done = 0;
    this.finished = false;
    this.failed = false;
    this.position = puzzle.start.position;
    this.solutionBox.hidden = true;
    this.showButton.disabled = false;
    this.board.setFlipped(puzzle.solver === 'black');
    this.board.render(this.position.towers, {});
    this.board.svg.dataset.puzzle = puzzle.id;
    this.board.svg.dataset.state = 'playing';
    this.board.svg.dataset.done = '0';
    this.board.setPlayable(puzzle.start.legal_moves, null);
    this.board.svg.dataset.waiting = 'player';
    this.task.textContent = puzzle.solver === 'black' ? t('puzzles-find-black') : t('puzzles-find-white');
    this.about.textContent = t('puzzles-about', { variant: variantName(puzzle.variant), rating: puzzle.rating,
      themes: puzzle.themes.map((n) => themeText(n)).join(', ') || '—' });
    // An account's rating comes with the puzzle, so it shows before the first attempt.
    if (puzzle.player) this.rating = { variant: puzzle.variant, value: puzzle.player.rating };
    this.drawRating(null);
    const url = new URL(location.href);
    url.pathname = '/puzzles/' + puzzle.id;
    url.search = '';
    history.replaceState(null, '', url.pathname);
  }

  async drawRating(diff) {
    let rating;
    if (this.rating && this.rating.variant === this.variant) rating = this.rating.value;
    else if (!this.account) rating = guestRating(this.variant).rating;
    const shown = rating === undefined ? '' : t('puzzles-your-rating', { rating: Math.round(rating) });
    const change = diff === null || diff === undefined ? '' : ' (' + (diff >= 0 ? '+' : '') + diff + ')';
    this.ratingBox.textContent = shown + change;
    this.ratingBox.dataset.rating = rating === undefined ? '' : String(Math.round(rating));
  }

  // Plays the line's moves up to `count` on the board, from the puzzle's start.
  async advance(count, move) {
    const data = await api('POST', '/api/position', { variant: this.variant, position: this.puzzle.start.position.fen,
      moves: this.puzzle.line.slice(0, count) });
    const before = this.position.towers;
    this.position = data.position;
    this.done = count;
    this.board.svg.dataset.done = String(count);
    const played = data.played[count - 1];
    const marks = { last: played.path.slice(), captured: (played.captured || []).slice() };
    if (move) this.board.animate(before, played, this.position.towers, marks);
    else this.board.render(this.position.towers, marks);
    return data;
  }

  async play(move) {
    if (this.finished || !this.puzzle) return;
    const wanted = this.puzzle.line[this.done];
    if (move.text !== wanted) {
      this.board.setPlayable([], null);
      this.say(t('puzzles-wrong', { move: move.text }), 'wrong');
      this.board.svg.dataset.state = 'wrong';
      await this.finish(false);
      return;
    }
    await this.advance(this.done + 1, move);
    if (this.done >= this.puzzle.line.length) {
      this.say(t('puzzles-solved'), 'right');
      this.board.svg.dataset.state = 'solved';
      this.board.setPlayable([], null);
      await this.finish(true);
      return;
    }
    this.say(t('puzzles-right-go-on'), 'right');
    this.board.setPlayable([], null);
    this.board.svg.dataset.waiting = 'reply';
    await new Promise((resolve) => setTimeout(resolve, REPLY_DELAY_MS));
    const data = await this.advance(this.done + 1, true);
    this.board.setPlayable(data.legal_moves || [], null);
    this.board.svg.dataset.waiting = 'player';
  }

  // A typed move: read by the server in the position now, then played as a click plays it.
  async typed(text) {
    if (!text || this.finished || !this.puzzle || this.board.svg.dataset.waiting !== 'player') return;
    let data;
    try {
      data = await api('POST', '/api/position', { variant: this.variant, position: this.puzzle.start.position.fen,
        moves: this.puzzle.line.slice(0, this.done).concat([text]) });
    } catch (e) {
      this.say(t('puzzles-move-unknown', { move: text }), 'hint');
      return;
    }
    this.moveInput.value = '';
    await this.play(data.played[this.done]);
  }

  async giveUp() {
    if (this.finished || !this.puzzle) return;
    this.say(t('puzzles-gave-up'), 'wrong');
    this.board.svg.dataset.state = 'wrong';
    await this.finish(false);
  }

  // Records the attempt (the first try at this puzzle on this page) and shows the solution.
  async finish(solved) {
    this.finished = true;
    this.board.svg.dataset.waiting = 'none';
    this.showButton.disabled = true;
    this.solutionBox.hidden = false;
    this.solutionBox.textContent = t('puzzles-solution', { line: this.puzzle.line.join(' ') });
    if (!solved) {
      // The solution on the board, from the start.
      this.position = this.puzzle.start.position;
      await this.advance(this.puzzle.line.length, null).catch(() => {});
    }
    const body = { solved };
    if (!this.account) body.rating = guestRating(this.variant);
    try {
      const answer = await api('POST', '/api/puzzles/' + encodeURIComponent(this.puzzle.id) + '/attempt', body);
      if (!this.account) {
        keepGuestRating(this.variant, answer.after);
        markSeen(this.variant, this.puzzle.id);
      }
      this.rating = { variant: this.variant, value: answer.after.rating };
      await this.drawRating(answer.counted ? answer.diff : null);
      this.board.svg.dataset.state = solved ? 'solved' : 'wrong';
      this.ratingBox.dataset.counted = answer.counted ? 'true' : 'false';
    } catch (e) {
      this.say(this.verdict.textContent + ' ' + e.message, this.verdict.dataset.kind);
    }
  }
}
