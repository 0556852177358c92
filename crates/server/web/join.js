// The page an invite link opens: take the free seat of a friend's game.

import { el, append, clear, field } from './dom.js';
import { api, seats, prefs, gamePath } from './api.js';
import { variantName, perMoveText } from './text.js';
import { currentAccount } from './account.js';
import { t } from './i18n.js';

/** The join page of game `id` with invite code `invite`. */
export function joinPage(app, id, invite) {
  document.body.dataset.page = 'join';
  document.title = t('join-page-title');
  const have = seats.get(id);
  const name = el('input', { id: 'join-name', type: 'text', maxlength: 40, value: prefs.get('name', ''), placeholder: t('join-your-name') });
  const error = el('p', { class: 'error', id: 'join-error', role: 'alert' });
  const info = el('p', { id: 'join-info' });
  const button = el('button', { type: 'submit', id: 'join', class: 'primary' }, t('join-button'));
  const form = el('form', { class: 'card narrow', id: 'join-form' },
    el('h2', null, t('join-invited')),
    info,
    field(t('join-your-name'), name),
    button,
    error,
    el('p', null, el('a', { href: '/g/' + encodeURIComponent(id) }, t('join-watch'))));
  append(app, form);
  // A logged-in player joins under the account's name.
  currentAccount().then((account) => {
    if (!account) return;
    name.value = account.name;
    name.disabled = true;
  });
  if (have && have.token) {
    info.textContent = t('join-have-seat') + ' ';
    info.appendChild(el('a', { href: '/g/' + encodeURIComponent(id) }, t('join-go-to-game')));
  }
  // An invite that cannot be used (the game is over, both seats are taken, a wrong code)
  // says so at once, instead of an invitation that fails on the click.
  if (!have) {
    api('GET', gamePath(id, '/join?invite=' + encodeURIComponent(invite))).catch((e) => {
      if (e.status === 404) return;
      form.dataset.refused = 'true';
      form.querySelector('h2').textContent = t('join-cannot');
      info.textContent = e.message;
      for (const node of [button, name.closest('label') || name]) node.hidden = true;
    });
  }
  api('GET', gamePath(id)).then((state) => {
    const creator = state.white && state.white.joined ? state.white : state.black;
    const free = state.white && state.white.joined ? 'black' : 'white';
    if (!have && !form.dataset.refused) {
      const args = { name: creator && creator.name ? creator.name : t('join-a-player'), variant: variantName(state.variant), colour: free };
      info.textContent = state.correspondence
        ? t('join-invites-per-move', Object.assign(args, { perMove: perMoveText(state.correspondence.days_per_move) }))
        : t('join-invites', args);
    }
  }).catch((e) => {
    if (e.status === 404) {
      clear(app);
      append(app, el('div', { class: 'card narrow', id: 'join-missing' }, el('h1', null, t('join-no-game')),
        el('p', null, t('join-link-wrong') + ' ',
          el('a', { href: '/' }, t('join-new-game')))));
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
      error.textContent = e.status === 409 ? t('join-seat-taken', { error: e.message }) : e.message;
      button.disabled = false;
    }
  });
}
