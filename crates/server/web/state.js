// The game as the page knows it, and how a message from the server changes it. Pure
// functions of plain data: unit-tested in Node.

import { colourName } from './text.js';
import { t } from './i18n.js';
import { complete } from './derive.js';

export { complete };

/**
 * A state with an update merged in: the update carries the fields that changed, and the
 * moves from `moves_from` on; what it leaves out the page derives (see derive.js). Null when
 * the update does not fit (it starts after the moves we have): then the whole state must be
 * asked for again.
 */
export function mergeUpdate(state, update) {
  if (!state || update.moves_from > state.moves.length) return null;
  const next = Object.assign({}, state, update);
  next.moves = state.moves.slice(0, update.moves_from).concat(update.moves);
  delete next.moves_from;
  // The position now follows from the moves; legal moves sent earlier are read again
  // against it when the moves changed and the update did not send them.
  if (!('position' in update)) delete next.position;
  const moved = update.moves.length > 0 || update.moves_from < state.moves.length;
  if (moved && !('legal_moves' in update)) {
    next.legal_moves = (state.legal_moves || []).map((m) => (m.claims_draw ? { text: m.text, claims_draw: true } : m.text));
  }
  return complete(next);
}

/**
 * Whether `next` should replace `current`: an older version is a late message; but after a
 * server restart versions may start again lower, so a fresh connection's first state is
 * always taken (`force`).
 */
export function takes(current, next, force) {
  if (!next) return false;
  return !current || force || next.version >= current.version;
}

/** Whether the seat `you` plays in this game (a record has no seats). */
export function holdsSeat(state, you) {
  return !!(state && state.mode !== 'record' && (you === 'white' || you === 'black' || you === 'both'));
}

/** Whether the game is over (won, drawn or aborted). */
export function isOver(state) {
  return !!(state && state.result);
}

/** Whether both seats are taken. */
export function bothJoined(state) {
  return !!(state && state.white && state.black && state.white.joined !== false && state.black.joined !== false);
}

/** Whether `you` may move now in the live position. */
export function yourTurn(state, you) {
  if (!state || state.result || state.mode === 'record') return false;
  if (!bothJoined(state)) return false;
  return you === 'both' || (!!you && you === state.turn);
}

/** The position shown: live (`view` null), the start (-1) or after move `view`. */
export function shownPosition(state, view) {
  if (view === null || view === undefined) return state.position;
  if (view < 0) return state.start;
  return state.moves[view].after;
}

/** The index of the last move played in the position shown, or -1 at the start. */
export function shownPly(state, view) {
  return view === null || view === undefined ? state.moves.length - 1 : view;
}

/** The view after stepping `delta` moves from `view`; null is the live position. */
export function stepView(state, view, delta) {
  let next = shownPly(state, view) + delta;
  if (next < -1) next = -1;
  if (next >= state.moves.length - 1) return null;
  return next;
}

/**
 * The main line of the status: whose move it is, for the seat `you`. Says when the game
 * waits for the second player.
 */
export function statusText(state, you) {
  if (state.result) return state.result.code === 'aborted' ? t('state-aborted') : t('state-over');
  if (state.mode === 'record') return t('state-record-to-move', { colour: state.turn });
  if (!bothJoined(state)) {
    return holdsSeat(state, you) ? t('state-waiting-opponent-join') : t('state-waiting-second-player');
  }
  if (you === state.turn) return t('state-your-move', { colour: state.turn });
  if (holdsSeat(state, you) && you !== 'both') return t('state-waiting-opponent-move');
  return t('state-to-move', { colour: state.turn });
}

/** The tab's title: a mark in front while it is your move. */
export function tabTitle(state, you) {
  const base = t('state-tab-title', {
    white: (state.white && state.white.name) || colourName('white'),
    black: (state.black && state.black.name) || colourName('black'),
  });
  return yourTurn(state, you) && you !== 'both' ? t('state-tab-your-move', { title: base }) : base;
}

/** What the page should do for a new state compared with the last (sounds, announcements). */
export function changes(prev, next, you) {
  const out = { moved: null, ended: false, yourTurnNow: false };
  if (!prev || !next) return out;
  if (next.moves.length === prev.moves.length + 1) out.moved = next.moves[next.moves.length - 1];
  out.ended = !prev.result && !!next.result;
  out.yourTurnNow = !yourTurn(prev, you) && yourTurn(next, you);
  return out;
}

/** Sentence for screen readers about a move: "White: c3-d4." or "Black: f6:d4:b2, takes e5, c3." */
export function moveAnnouncement(move) {
  const takes = move.captured && move.captured.length ? move.captured.join(', ') : 'none';
  return t('state-move-announcement', {
    colour: move.color === 'white' ? 'white' : 'black',
    move: move.text,
    takes,
    crowned: move.promotes ? 'yes' : 'no',
  });
}
