// The start page's "Your turn" list: the games of this browser's seats, and of the
// logged-in player's account, that wait for their move, the nearest deadline first, with
// the time left. The seat tokens go in the request's body (POST), never in an address.

import { el, clear } from './dom.js';
import { api, seats } from './api.js';
import { countedTitle, perMoveText, timeLeftText, variantName } from './text.js';
import { t } from './i18n.js';

// The most seats one request may name (the API's limit).
const MAX_SEATS = 100;

/** The seats this browser holds, as `POST /api/your-turn` takes them. */
export function heldSeats() {
  const out = [];
  for (const id of seats.ids()) {
    const record = seats.get(id);
    if (record && typeof record.token === 'string' && record.token) out.push({ id, token: record.token });
  }
  return out.slice(-MAX_SEATS);
}

function turnItem(g, serverOffset) {
  const left = g.deadline_ms ? g.deadline_ms - (Date.now() + serverOffset) : null;
  const how = g.days_per_move ? perMoveText(g.days_per_move) : t('your-turn-with-clock');
  const moveNo = Math.floor(g.plies / 2) + 1;
  return el('li', null,
    el('a', { href: '/g/' + encodeURIComponent(g.id), class: 'game-link turn-link', dataset: { id: g.id } },
      el('span', { class: 'game-text' },
        el('span', { class: 'names' }, g.opponent
          ? t('your-turn-against', { opponent: g.opponent })
          : t('your-turn-against-someone')),
        el('span', { class: 'meta' }, t('your-turn-meta', { variant: variantName(g.variant), pace: how, move: moveNo, colour: String(g.you) })),
        left === null ? null : el('span', {
          class: 'time-left' + (left < 6 * 3600000 ? ' low' : ''),
          dataset: { deadlineMs: String(g.deadline_ms) },
          title: t('your-turn-until', { date: new Date(g.deadline_ms).toLocaleString() }),
        }, timeLeftText(left)))));
}

/** The "Your turn" section: hidden while this browser holds no seat and no game waits for
 * the logged-in player; it asks again every
 * minute and keeps the times left up to date. `title` is the page's title, to which the
 * number of waiting games is added. */
export function yourTurnSection(title) {
  const list = el('ul', { id: 'your-turn', class: 'games turns' }, el('li', null, t('home-loading')));
  const section = el('section', { class: 'card your-turn', id: 'your-turn-box', hidden: true },
    el('h2', null, t('your-turn-title')), list);
  let games = [];
  let loaded = false;
  let serverOffset = 0;
  const draw = () => {
    clear(list);
    if (!games.length) list.appendChild(el('li', { class: 'empty' }, t('your-turn-none')));
    for (const g of games) list.appendChild(turnItem(g, serverOffset));
    section.dataset.count = String(games.length);
    document.title = countedTitle(games.length, title);
  };
  const load = async () => {
    const held = heldSeats();
    try {
      // A logged-in player's games come with it too, from any device.
      const data = await api('POST', '/api/your-turn', { seats: held });
      games = (data && data.games) || [];
      section.hidden = !held.length && !games.length;
      // The server's clock decides deadlines; this one may be off.
      if (data && data.now_ms) serverOffset = data.now_ms - Date.now();
      loaded = true;
      draw();
    } catch (e) {
      clear(list);
      list.appendChild(el('li', { class: 'error' }, e.message));
    }
  };
  load();
  setInterval(() => { if (loaded) draw(); }, 30000);
  setInterval(load, 60000);
  return section;
}
