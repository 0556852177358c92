// The log-in page: log in to an account, or make one.

import { el, append, field, textAround } from './dom.js';
import { api } from './api.js';
import { currentAccount, loggedIn, nextPath, playerPath } from './account.js';
import { t } from './i18n.js';

function form(id, title, fields, buttonId, buttonText, error, submit) {
  const button = el('button', { type: 'submit', id: buttonId, class: 'primary' }, buttonText);
  const node = el('form', { class: 'card', id }, el('h2', null, title), fields, button, error);
  node.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    button.disabled = true;
    try {
      await submit();
    } catch (e) {
      error.textContent = e.message;
      button.disabled = false;
    }
  });
  return node;
}

/** The log-in page. */
export function loginPage(app) {
  document.body.dataset.page = 'login';
  document.title = t('login-page-title');
  const next = nextPath(location.search);
  const done = (account) => {
    loggedIn(account);
    location.assign(next || playerPath(account.name));
  };

  const name = el('input', { id: 'login-name', type: 'text', autocomplete: 'username', maxlength: 40, required: true });
  const password = el('input', { id: 'login-password', type: 'password', autocomplete: 'current-password', maxlength: 200, required: true });
  const loginError = el('p', { class: 'error', id: 'login-error', role: 'alert' });
  const login = form('login-form', t('login-title'), [field(t('login-name'), name), field(t('login-password'), password)],
    'login', t('login-submit'), loginError, async () => {
      done(await api('POST', '/api/account/login', { name: name.value, password: password.value }));
    });

  const newName = el('input', { id: 'signup-name', type: 'text', autocomplete: 'username', maxlength: 40, required: true });
  const newPassword = el('input', { id: 'signup-password', type: 'password', autocomplete: 'new-password', maxlength: 200, required: true });
  const again = el('input', { id: 'signup-again', type: 'password', autocomplete: 'new-password', maxlength: 200, required: true });
  const signupError = el('p', { class: 'error', id: 'signup-error', role: 'alert' });
  const signup = form('signup-form', t('login-new-account'), [
    field(t('login-name'), newName, t('login-name-hint')),
    field(t('login-password'), newPassword, t('login-password-hint')),
    field(t('login-password-again'), again),
  ], 'signup', t('login-make-account'), signupError, async () => {
    if (newPassword.value !== again.value) throw new Error(t('login-passwords-differ'));
    done(await api('POST', '/api/account/signup', { name: newName.value, password: newPassword.value }));
  });

  const note = el('p', { class: 'card narrow', id: 'login-note', hidden: true });
  append(app, [
    note,
    el('div', { class: 'home' },
      el('div', { class: 'col' }, login),
      el('div', { class: 'col' }, signup,
        el('p', { class: 'hint' }, t('login-without-account')))),
  ]);
  currentAccount().then((account) => {
    if (!account) return;
    note.hidden = false;
    note.append(...textAround((name) => t('login-logged-in-as', { name }), el('a', { href: playerPath(account.name) }, account.name)));
  });
}
