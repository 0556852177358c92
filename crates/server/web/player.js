// A player's page: the name, since when, results per game, recent games; on your own page
// also logging out everywhere and deleting the account.

import { el, append, clear, field, button } from './dom.js';
import { api } from './api.js';
import { currentAccount, loggedOut } from './account.js';
import { gameItem } from './home.js';
import { variantName, capital } from './text.js';
import { ratingsSection } from './ratings.js';

const PAGE = 10;

/** "1 March 2026". */
export function dateText(ms) {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
}

function resultsTable(results) {
  const row = (cells, tag) => el('tr', null, cells.map((c) => el(tag, null, String(c))));
  const body = Object.entries(results || {}).map(([variant, r]) =>
    el('tr', { dataset: { variant } }, el('th', null, variantName(variant)),
      el('td', null, String(r.wins)), el('td', null, String(r.draws)), el('td', null, String(r.losses))));
  return el('table', { class: 'results', id: 'results' },
    el('thead', null, row(['Game', 'Won', 'Drawn', 'Lost'], 'th')),
    el('tbody', null, body));
}

function ownBox(name) {
  const error = el('p', { class: 'error', id: 'account-error', role: 'alert' });
  const everywhere = button('logout-all', 'Log out everywhere', async () => {
    error.textContent = '';
    try {
      await api('POST', '/api/account/logout-all', {});
      loggedOut();
      location.assign('/login');
    } catch (e) { error.textContent = e.message; }
  });
  const password = el('input', { id: 'delete-password', type: 'password', autocomplete: 'current-password', maxlength: 200 });
  const remove = el('form', { id: 'delete-form' },
    el('h3', null, 'Delete the account'),
    el('p', { class: 'hint' }, 'This cannot be undone. Your games stay and show "deleted player". ' +
      'The name ' + name + ' stays reserved, so nobody else can take it.'),
    field('Your password', password),
    el('button', { type: 'submit', id: 'delete-account', class: 'danger' }, 'Delete my account'));
  remove.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    try {
      await api('DELETE', '/api/account', { password: password.value });
      loggedOut();
      location.assign('/');
    } catch (e) { error.textContent = e.message; }
  });
  return el('section', { class: 'card', id: 'own-account' }, el('h2', null, 'Your account'),
    el('p', null, 'Log out on every device and browser where you are logged in:'), everywhere, remove, error);
}

/** The page of the player named `name`. */
export function playerPage(app, name) {
  document.body.dataset.page = 'player';
  document.title = name + ' – Bashni';
  const path = '/api/players/' + encodeURIComponent(name);
  const list = el('ul', { id: 'player-games', class: 'games' });
  const more = el('button', { type: 'button', class: 'more', id: 'more-games', hidden: true }, 'More');
  let before = null;
  const addGames = (data) => {
    for (const g of data.games || []) {
      const item = gameItem(g);
      const meta = item.querySelector('.meta');
      if (meta && g.color) meta.append(', played ' + capital(g.color));
      list.appendChild(item);
    }
    if (!list.firstChild) list.appendChild(el('li', { class: 'empty' }, 'No games yet.'));
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
    document.title = player.name + ' – Bashni';
    const own = account && account.name === player.name;
    append(app, el('div', { class: 'home' },
      el('div', { class: 'col' },
        el('section', { class: 'card' },
          el('h1', { id: 'player-name' }, player.name),
          el('p', { id: 'player-since' }, 'Member since ' + dateText(player.created_ms) + '.'),
          el('h2', null, 'Results'),
          resultsTable(player.results),
          el('p', { class: 'hint' }, 'Games against people that ended with a result.')),
        ratingsSection(player),
        own ? ownBox(player.name) : null),
      el('div', { class: 'col' },
        el('section', { class: 'card' }, el('h2', null, 'Recent games'), list, more))));
    addGames(player);
  }).catch((e) => {
    clear(app);
    append(app, el('div', { class: 'card narrow', id: 'player-missing' },
      el('h1', null, e.status === 404 ? 'No such player' : 'The page cannot be shown'),
      el('p', null, e.status === 404 ? 'There is no player with this name.' : e.message)));
  });
}
