// The page an invite link opens: take the free seat of a friend's game.

import { el, append, clear, field } from './dom.js';
import { api, seats, prefs, gamePath } from './api.js';
import { variantName, perMoveText } from './text.js';
import { currentAccount } from './account.js';

/** The join page of game `id` with invite code `invite`. */
export function joinPage(app, id, invite) {
  document.body.dataset.page = 'join';
  document.title = 'Join a game – Bashni';
  const have = seats.get(id);
  const name = el('input', { id: 'join-name', type: 'text', maxlength: 40, value: prefs.get('name', ''), placeholder: 'Your name' });
  const error = el('p', { class: 'error', id: 'join-error', role: 'alert' });
  const info = el('p', { id: 'join-info' });
  const button = el('button', { type: 'submit', id: 'join', class: 'primary' }, 'Join the game');
  const form = el('form', { class: 'card narrow', id: 'join-form' },
    el('h2', null, 'You are invited to a game'),
    info,
    field('Your name', name),
    button,
    error,
    el('p', null, el('a', { href: '/g/' + encodeURIComponent(id) }, 'Only watch the game')));
  append(app, form);
  // A logged-in player joins under the account's name.
  currentAccount().then((account) => {
    if (!account) return;
    name.value = account.name;
    name.disabled = true;
  });
  if (have && have.token) {
    info.textContent = 'You already have a seat in this game. ';
    info.appendChild(el('a', { href: '/g/' + encodeURIComponent(id) }, 'Go to the game'));
  }
  api('GET', gamePath(id)).then((state) => {
    const creator = state.white && state.white.joined ? state.white : state.black;
    const free = state.white && state.white.joined ? 'black' : 'white';
    if (!have) {
      info.textContent = (creator && creator.name ? creator.name : 'A player') + ' invites you to play ' +
        variantName(state.variant) + (state.correspondence ? ', ' + perMoveText(state.correspondence.days_per_move) : '') +
        '. You play ' + free + '.';
    }
  }).catch((e) => {
    if (e.status === 404) {
      clear(app);
      append(app, el('div', { class: 'card narrow', id: 'join-missing' }, el('h1', null, 'No such game'),
        el('p', null, 'The invite link is wrong, or the game is gone. ',
          el('a', { href: '/' }, 'Start a new game'))));
      return;
    }
    error.textContent = e.message;
  });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    button.disabled = true;
    try {
      const body = { invite };
      if (name.value.trim()) body.name = name.value.trim();
      if (!name.disabled) prefs.set('name', name.value.trim());
      const data = await api('POST', gamePath(id, '/join'), body);
      seats.set(id, { token: data.token, seat: data.seat });
      location.assign('/g/' + encodeURIComponent(id));
    } catch (e) {
      error.textContent = e.status === 409 ? 'The seat is already taken. ' + e.message : e.message;
      button.disabled = false;
    }
  });
}
