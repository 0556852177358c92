// A player's page: the name, since when, results per game, recent games; on your own page
// also logging out everywhere and deleting the account.

import { el, append, clear, field, button } from './dom.js';
import { api } from './api.js';
import { currentAccount, loggedOut } from './account.js';
import { gameItem } from './home.js';
import { variantName } from './text.js';
import { ratingsSection } from './ratings.js';
import { t, dateText } from './i18n.js';
import { diffText } from './rating-chart.js';


const PAGE = 10;

/** The rating a player had after each rated game, and its change: game id → {after, diff}. */
export function ratedGames(history) {
  const games = {};
  for (const paces of Object.values(history || {})) {
    for (const points of Object.values(paces || {})) {
      let before = 1500;
      for (const p of points) {
        games[p.game] = { after: Math.round(p.rating), diff: Math.round(p.rating - before) };
        before = p.rating;
      }
    }
  }
  return games;
}

function resultsTable(results) {
  const row = (cells, tag) => el('tr', null, cells.map((c) => el(tag, null, String(c))));
  const body = Object.entries(results || {}).map(([variant, r]) =>
    el('tr', { dataset: { variant } }, el('th', null, variantName(variant)),
      el('td', null, String(r.wins)), el('td', null, String(r.draws)), el('td', null, String(r.losses))));
  return el('table', { class: 'results', id: 'results' },
    el('thead', null, row([t('player-col-game'), t('player-col-won'), t('player-col-drawn'), t('player-col-lost')], 'th')),
    el('tbody', null, body));
}

function ownBox(name) {
  const error = el('p', { class: 'error', id: 'account-error', role: 'alert' });
  const everywhere = button('logout-all', t('player-log-out-everywhere'), async () => {
    error.textContent = '';
    try {
      await api('POST', '/api/account/logout-all', {});
      loggedOut();
      location.assign('/login');
    } catch (e) { error.textContent = e.message; }
  });
  const password = el('input', { id: 'delete-password', type: 'password', autocomplete: 'current-password', maxlength: 200 });
  const remove = el('form', { id: 'delete-form' },
    el('h3', null, t('player-delete-title')),
    el('p', { class: 'hint' }, t('player-delete-hint', { name })),
    field(t('player-password'), password),
    el('button', { type: 'submit', id: 'delete-account', class: 'danger' }, t('player-delete')));
  remove.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    try {
      await api('DELETE', '/api/account', { password: password.value });
      loggedOut();
      location.assign('/');
    } catch (e) { error.textContent = e.message; }
  });
  return el('section', { class: 'card', id: 'own-account' }, el('h2', null, t('player-your-account')),
    el('p', null, t('player-log-out-everywhere-hint')), everywhere, remove, error);
}

/** The page of the player named `name`. */
export function playerPage(app, name) {
  document.body.dataset.page = 'player';
  document.title = t('player-title', { name });
  const path = '/api/players/' + encodeURIComponent(name);
  const list = el('ul', { id: 'player-games', class: 'games' });
  const more = el('button', { type: 'button', class: 'more', id: 'more-games', hidden: true }, t('home-more'));
  let before = null;
  let rated = {};
  const addGames = (data) => {
    for (const g of data.games || []) {
      const item = gameItem(g);
      const meta = item.querySelector('.meta');
      if (meta && g.color) meta.append(t('player-played', { colour: String(g.color) }));
      // Rated or casual, with the rating it left (games between people that ended).
      const change = rated[g.id];
      if (meta && change) {
        meta.append(t('player-game-rated', { rating: String(change.after), diff: diffText(change.diff) }));
      } else if (meta && g.mode === 'friend' && g.result && g.result !== '*') {
        meta.append(t('player-game-casual'));
      }
      list.appendChild(item);
    }
    if (!list.firstChild) list.appendChild(el('li', { class: 'empty' }, t('player-no-games')));
    before = data.next || null;
    more.hidden = !before;
  };
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      addGames(await api('GET', path + '?limit=' + PAGE + '&before=' + encodeURIComponent(before)));
    } catch (e) {
      list.appendChild(el('li', { class: 'error' }, e.message));
    } finally {
      more.disabled = false;
    }
  });
  Promise.all([api('GET', path + '?limit=' + PAGE), currentAccount()]).then(([player, account]) => {
    document.title = t('player-title', { name: player.name });
    rated = ratedGames(player.rating_history);
    const own = account && account.name === player.name;
    append(app, el('div', { class: 'home' },
      el('div', { class: 'col' },
        el('section', { class: 'card' },
          el('h1', { id: 'player-name' }, player.name),
          el('p', { id: 'player-since' }, t('player-since', { date: dateText(player.created_ms) })),
          el('h2', null, t('player-results')),
          resultsTable(player.results),
          el('p', { class: 'hint' }, t('player-results-hint'))),
        ratingsSection(player),
        own ? ownBox(player.name) : null),
      el('div', { class: 'col' },
        el('section', { class: 'card' }, el('h2', null, t('player-recent-games')), list, more))));
    addGames(player);
  }).catch((e) => {
    clear(app);
    append(app, el('div', { class: 'card narrow', id: 'player-missing' },
      el('h1', null, e.status === 404 ? t('player-missing') : t('player-cannot-show')),
      el('p', null, e.status === 404 ? t('player-missing-text') : e.message)));
  });
}
