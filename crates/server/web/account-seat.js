// The seat a logged-in player's account holds in a game, for a browser that has no token for
// it (a tournament game, or a game begun in another browser): asked for once, then kept
// like any seat's token.

import { api, gamePath, seats } from './api.js';
import { currentAccount } from './account.js';

/** Makes sure this browser holds the token of the seat the account holds in game `id`, if
 * it holds one. Never throws: without a seat the game is watched. */
export async function takeAccountSeat(id) {
  if (seats.get(id)) return;
  try {
    const account = await currentAccount();
    if (!account) return;
    const state = await api('GET', gamePath(id));
    if (state.white_player !== account.name && state.black_player !== account.name) return;
    const seat = await api('POST', gamePath(id, '/seat'), {});
    seats.set(id, { token: seat.token, seat: seat.seat, invite_url: null });
  } catch (e) { /* no seat: the game is watched */ }
}
