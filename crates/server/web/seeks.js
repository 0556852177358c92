// The lobby's list of open seeks as the server tells it, and the words for a seek (from the
// catalogues). Pure functions: no page, no server; unit-tested in Node.

import { t } from './i18n.js';

/** The clocks offered in the lobby: minutes for the game and seconds added per move. */
export const CLOCK_PRESETS = [
  { minutes: 3, increment_s: 2 },
  { minutes: 5, increment_s: 3 },
  { minutes: 10, increment_s: 5 },
  { minutes: 15, increment_s: 10 },
  { minutes: 30, increment_s: 20 },
];

/** A clock as people write it: "5+3" (minutes + seconds a move). */
export function clockText(clock) {
  if (!clock) return '';
  return clock.minutes + '+' + clock.increment_s;
}

/** A clock's value in a select box, and back. */
export function clockValue(clock) {
  return clock.minutes + '+' + clock.increment_s;
}

export function clockOfValue(value) {
  const [minutes, increment] = String(value).split('+').map(Number);
  return { minutes, increment_s: increment || 0 };
}

/** The colour a seek's owner wants, in words. */
export function colorText(color) {
  return colourName(color);
}

/** The colour the one who accepts a seek plays. */
export function takerColor(color) {
  return colourName({ white: 'black', black: 'white' }[color]);
}

/** "White", "Black", or "Random" for no colour. */
function colourName(color) {
  if (color === 'white') return t('home-colour-white');
  if (color === 'black') return t('home-colour-black');
  return t('home-colour-random');
}

/** Whether two clocks are the same. */
export function sameClock(a, b) {
  return !!a && !!b && a.minutes === b.minutes && a.increment_s === b.increment_s;
}

function older(a, b) {
  if (a.created_ms !== b.created_ms) return a.created_ms - b.created_ms;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The list after a message of the lobby socket, oldest first: `seeks` gives the whole list,
 * `seek_added` one more (or a newer copy), `seek_removed` one less. Other messages leave it.
 */
export function applyLobby(list, message) {
  if (!message) return list;
  if (message.type === 'seeks') return (message.seeks || []).slice().sort(older);
  if (message.type === 'seek_added' && message.seek) {
    return list.filter((s) => s.id !== message.seek.id).concat([message.seek]).sort(older);
  }
  if (message.type === 'seek_removed') return list.filter((s) => s.id !== message.seek);
  return list;
}

/** The player's own seeks in the list. */
export function ownSeeks(list) {
  return list.filter((s) => s.own);
}
