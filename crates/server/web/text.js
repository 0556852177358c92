// Words and numbers the page shows. Pure functions: no page, no server; unit-tested in Node.
// The words come from the catalogues (crates/server/locales/*.ftl) through i18n.js.

import { t } from './i18n.js';

/** The engine's levels. */
export const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8];

/** The name of engine level `n` ("beginner" … "full strength"). */
export function levelName(n) {
  return t('text-level-name', { level: Number(n) });
}

// A clock preset: its label is read when it is shown, in the page's language.
function preset(value) {
  if (value === 'none') return { value, get label() { return t('text-no-clock'); } };
  const [minutes, seconds] = value.split('+').map(Number);
  return { value, get label() { return t('text-clock-preset', { minutes, seconds }); } };
}

/** The clocks offered when a game is made (the rulebooks' controls). */
export const TIME_PRESETS = ['none', '20+30', '8+4', '7+5', '3+2'].map(preset);

/** The level choices for a select box. */
export function levelOptions() {
  return LEVELS.map((n) => ({ value: String(n), label: n + ' ' + levelName(n) }));
}

/** A preset's value as the API's `time`, or null for no clock. */
export function timeBody(value) {
  if (!value || value === 'none') return null;
  const [m, s] = value.split('+').map(Number);
  return { minutes: m, increment_s: s };
}

/** A game's clock ({base_ms, increment_ms}) as the API's `time`, or null. */
export function timeOfClock(clock) {
  if (!clock) return null;
  const minutes = clock.base_ms / 60000;
  return { minutes, increment_s: Math.round(clock.increment_ms / 1000) };
}

/** The first letter in capitals. */
export function capital(s) {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/** The other colour. */
export function otherColor(c) {
  return c === 'white' ? 'black' : 'white';
}

/** The colour of a checker letter (w, W, b, B). */
export function checkerColor(ch) {
  return ch === 'w' || ch === 'W' ? 'white' : 'black';
}

/** "White", "Black": a colour's name on its own (a side, a seat without a name). */
export function colourName(c) {
  return c === 'white' ? t('text-white') : t('text-black');
}

/**
 * A seat's name as the page shows it: a seat nobody named is stored under its colour's
 * English name (White, Black) and is shown as `fallback`, by default the colour in the
 * page's language.
 */
export function playerName(name, color, fallback = colourName(color)) {
  return !name || String(name).toLowerCase() === color ? fallback : String(name);
}

/** "white man", "black king". */
export function checkerName(ch) {
  if (ch === 'W') return t('text-white-king');
  if (ch === 'B') return t('text-black-king');
  return ch === 'w' ? t('text-white-man') : t('text-black-man');
}

/** A tower from the top down: "c3: White king / black man", or "c3: empty". */
export function towerText(square, tower) {
  if (!tower) return t('text-tower-empty', { square });
  const names = Array.from(tower).map(checkerName);
  names[0] = capital(names[0]);
  return t('text-tower', { square, checkers: names.join(' / ') });
}

/** Every tower of a position, White's first, each "c3: white man", for people who cannot see the board. */
export function positionLines(towers) {
  const order = (sq) => (sq.charCodeAt(0) - 97) + 8 * (Number(sq.slice(1)) - 1);
  const squares = Object.keys(towers).filter((sq) => towers[sq]).sort((a, b) => order(a) - order(b));
  const of = (color) => squares.filter((sq) => checkerColor(towers[sq][0]) === color);
  const line = (sq) => {
    const tower = towers[sq];
    const names = Array.from(tower).map(checkerName);
    return t('text-tower', { square: sq, checkers: tower.length === 1 ? names[0]
      : t('text-tower-of', { count: tower.length, checkers: names.join(', ') }) });
  };
  return { white: of('white').map(line), black: of('black').map(line) };
}

/** A clock: "4:05", "1:02:03", or tenths under ten seconds ("0:07.3"). */
export function formatClock(ms) {
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

// Why a game ends, by the server's code: the message that says it. A record's own words
// are shown as they are.
const REASONS = {
  no_move: 'reason-no-move',
  resignation: 'reason-resignation',
  time: 'reason-time',
  agreement: 'reason-agreement',
  repetition: 'reason-repetition',
  quiet_moves: 'reason-quiet-moves',
  lone_king: 'reason-lone-king',
  big_road: 'reason-big-road',
  king_ending: 'reason-king-ending',
  king_moves_only: 'reason-king-moves-only',
  aborted: 'reason-aborted',
  abandoned: 'reason-abandoned',
};

/**
 * Why a game ended (or what draw may be claimed) in the page's language: `code` is the
 * server's, `details` its side, pieces and moves; `words` the server's words, for a code
 * the page does not know.
 */
export function reasonText(code, details, words) {
  if (!Object.hasOwn(REASONS, code)) return String(words ?? '');
  const d = details || {};
  return t(REASONS[code], {
    side: String(d.side ?? ''),
    pieces: Number(d.pieces ?? 0),
    moves: d.moves == null ? 'none' : Number(d.moves),
  });
}

/** "1-0 White wins. Black has no move"; an aborted game says so without a winner. */
export function resultText(result) {
  if (!result) return '';
  const words = reasonText(result.code, result.details, result.reason);
  // A sentence of its own: a capital first letter.
  const reason = words.charAt(0).toUpperCase() + words.slice(1);
  if (result.code === 'aborted') return t('text-result-aborted', { reason });
  const args = { score: String(result.score), reason };
  if (result.winner === 'white') return t('text-result-white-wins', args);
  if (result.winner === 'black') return t('text-result-black-wins', args);
  return t('text-result-draw', args);
}

/** The game's name. */
export function variantName(v) {
  return v === 'russian' ? t('text-variant-russian') : t('text-variant-bashni');
}

/** How the game is played, in words. */
export function modeName(m) {
  if (m === 'engine') return t('text-mode-engine');
  if (m === 'friend') return t('text-mode-friend');
  if (m === 'local') return t('text-mode-local');
  if (m === 'record') return t('text-mode-record');
  return m;
}

/** White's score as the engine writes it ("+0.35", "-1.20", "White wins in 4", "Black wins in 2")
 * as a number of men for bars and graphs, clamped to ±limit; null when it cannot be read. */
export function scoreValue(text, limit = 5) {
  if (text === undefined || text === null) return null;
  const s = String(text).trim();
  if (/^white wins/i.test(s)) return limit;
  if (/^black wins/i.test(s)) return -limit;
  if (!/^[+-]?\d+(\.\d+)?$/.test(s)) return null;
  const n = Number.parseFloat(s);
  return Math.max(-limit, Math.min(limit, n));
}

/** White's score as the engine writes it, in the page's language: "White wins in 4" becomes
 * the catalogue's words; a number of men ("+0.35") and anything else stays as it is. */
export function scoreText(text) {
  if (text === undefined || text === null) return '';
  const s = String(text).trim();
  const m = s.match(/^(white|black) wins in (\d+)$/i);
  if (!m) return s;
  const moves = Number(m[2]);
  return m[1].toLowerCase() === 'white' ? t('text-score-white-wins-in', { moves }) : t('text-score-black-wins-in', { moves });
}

/** The move number and dots before a move: "12." for White, "12…" for Black. */
export function moveLabel(number, color) {
  return number + (color === 'black' ? '…' : '.');
}

/** The days per move a correspondence game may have. */
export const DAYS_PER_MOVE = [1, 2, 3, 7];

/** "1 day per move", "3 days per move". */
export function perMoveText(days) {
  return t('text-per-move', { days });
}

/** The API's `time` of a new game like `state`: its days per move, or its clock. */
export function timeOfGame(state) {
  if (state && state.correspondence) return { days_per_move: state.correspondence.days_per_move };
  return timeOfClock(state && state.clock);
}

/** Time left before a deadline, in words: "2 days 4 h left", "5 h 12 min left", "12 min left".
 * Whole units only, rounded down: it never shows more time than there is. */
export function timeLeftText(ms) {
  if (!(ms > 0)) return t('text-left-none');
  const minutes = Math.floor(ms / 60000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours ? t('text-left-days-hours', { days, hours }) : t('text-left-days', { days });
  if (hours > 0) return mins ? t('text-left-hours-minutes', { hours, minutes: mins }) : t('text-left-hours', { hours });
  if (mins > 0) return t('text-left-minutes', { minutes: mins });
  return t('text-left-under-minute');
}

/** The page's title with the number of games waiting for your move in front: "(2) Bashni". */
export function countedTitle(count, title) {
  return count > 0 ? '(' + count + ') ' + title : title;
}
