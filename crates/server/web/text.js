// Words and numbers the page shows. Pure functions: no page, no server; unit-tested in Node.

/** The engine's levels by number. */
export const LEVEL_NAMES = {
  1: 'beginner', 2: 'novice', 3: 'casual', 4: 'club',
  5: 'strong club', 6: 'expert', 7: 'master', 8: 'full strength',
};

/** The clocks offered when a game is made (the rulebooks' controls). */
export const TIME_PRESETS = [
  { value: 'none', label: 'No clock' },
  { value: '20+30', label: '20 min + 30 s' },
  { value: '8+4', label: '8 min + 4 s' },
  { value: '7+5', label: '7 min + 5 s' },
  { value: '3+2', label: '3 min + 2 s' },
];

/** The level choices for a select box. */
export function levelOptions() {
  return Object.entries(LEVEL_NAMES).map(([n, name]) => ({ value: n, label: n + ' ' + name }));
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

/** "white man", "black king". */
export function checkerName(ch) {
  return checkerColor(ch) + ' ' + (ch === 'W' || ch === 'B' ? 'king' : 'man');
}

/** A tower from the top down: "c3: White king / black man", or "c3: empty". */
export function towerText(square, tower) {
  if (!tower) return square + ': empty';
  const names = Array.from(tower).map(checkerName);
  names[0] = capital(names[0]);
  return square + ': ' + names.join(' / ');
}

/** Every tower of a position, White's first, each "c3: white man", for people who cannot see the board. */
export function positionLines(towers) {
  const order = (sq) => (sq.charCodeAt(0) - 97) + 8 * (Number(sq.slice(1)) - 1);
  const squares = Object.keys(towers).filter((sq) => towers[sq]).sort((a, b) => order(a) - order(b));
  const of = (color) => squares.filter((sq) => checkerColor(towers[sq][0]) === color);
  const line = (sq) => {
    const t = towers[sq];
    const names = Array.from(t).map(checkerName);
    return sq + ': ' + (t.length === 1 ? names[0] : 'tower of ' + t.length + ', ' + names.join(', ') + ' (top first)');
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

/** "1-0 White wins. Black has no move"; an aborted game says so without a winner. */
export function resultText(result) {
  if (!result) return '';
  if (result.code === 'aborted') return 'Aborted. ' + result.reason;
  let who;
  if (result.winner === 'white') who = 'White wins';
  else if (result.winner === 'black') who = 'Black wins';
  else who = 'Draw';
  return result.score + ' ' + who + '. ' + result.reason;
}

/** The game's name. */
export function variantName(v) {
  return v === 'russian' ? 'Russian draughts' : 'Bashni';
}

/** How the game is played, in words. */
export function modeName(m) {
  return { engine: 'against the engine', friend: 'with a friend', local: 'at one screen', record: 'record' }[m] || m;
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

/** The move number and dots before a move: "12." for White, "12…" for Black. */
export function moveLabel(number, color) {
  return number + (color === 'black' ? '…' : '.');
}

/** The days per move a correspondence game may have. */
export const DAYS_PER_MOVE = [1, 2, 3, 7];

/** "1 day per move", "3 days per move". */
export function perMoveText(days) {
  return days + (days === 1 ? ' day' : ' days') + ' per move';
}

/** The API's `time` of a new game like `state`: its days per move, or its clock. */
export function timeOfGame(state) {
  if (state && state.correspondence) return { days_per_move: state.correspondence.days_per_move };
  return timeOfClock(state && state.clock);
}

/** Time left before a deadline, in words: "2 days 4 h left", "5 h 12 min left", "12 min left".
 * Whole units only, rounded down: it never shows more time than there is. */
export function timeLeftText(ms) {
  if (!(ms > 0)) return 'no time left';
  const minutes = Math.floor(ms / 60000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return days + (days === 1 ? ' day' : ' days') + (hours ? ' ' + hours + ' h' : '') + ' left';
  if (hours > 0) return hours + ' h' + (mins ? ' ' + mins + ' min' : '') + ' left';
  if (mins > 0) return mins + ' min left';
  return 'less than a minute left';
}

/** The page's title with the number of games waiting for your move in front: "(2) Bashni". */
export function countedTitle(count, title) {
  return count > 0 ? '(' + count + ') ' + title : title;
}
