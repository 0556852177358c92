// The visitor's account, if they have one: who is logged in, the corner of the header that
// shows it, and how the page shows a seat held by an account. Anyone can play without one.

import { el, clear } from './dom.js';
import { api, prefs } from './api.js';
import { t, language } from './i18n.js';

/** The name a deleted account's seats show (no account can have it: it has a space). */
export const DELETED_NAME = 'deleted player';

// The browser remembers the name it logged in with, so that a guest's page does not ask the
// server on every visit (the session cookie itself is out of the page's reach).
const KEY = 'bashni.account';

function remembered() {
  try { return window.localStorage.getItem(KEY); } catch (e) { return undefined; }
}

function remember(name) {
  try {
    if (name) window.localStorage.setItem(KEY, name);
    else window.localStorage.removeItem(KEY);
  } catch (e) { /* no storage: the server is asked each time */ }
}

let asked = null;

/** The logged-in account ({name, created_ms}), or null for a guest. Asked once per page. */
export function currentAccount() {
  if (!asked) {
    // null: this browser has not logged in; undefined: it cannot remember, so ask.
    asked = remembered() === null ? Promise.resolve(null) : api('GET', '/api/account').then((account) => {
      remember(account.name);
      followLanguage(account);
      return account;
    }).catch((e) => {
      if (e.status === 401) remember(null);
      return null;
    });
  }
  return asked;
}

// The language an account chose follows it to every browser it logs in from: the page is
// shown again in it when this browser had another.
function followLanguage(account) {
  if (account && account.language && account.language !== language) {
    prefs.set('lang', account.language);
    location.reload();
  }
}

/** Keeps `lang` as the logged-in account's language (nothing for a guest). */
export async function keepLanguage(lang) {
  const account = await currentAccount();
  if (account) await api('PUT', '/api/account/language', { language: lang });
}

/** Notes a log-in (or a new account) in this browser. */
export function loggedIn(account) {
  remember(account.name);
  asked = Promise.resolve(account);
}

/** Logs out this browser's session and forgets it here. */
export async function logOut() {
  try {
    await api('POST', '/api/account/logout', {});
  } finally {
    loggedOut();
  }
}

/** Forgets the account in this browser (after a log-out everywhere or a deletion). */
export function loggedOut() {
  remember(null);
  asked = Promise.resolve(null);
}

/** The address of a player's page. */
export function playerPath(name) {
  return '/players/' + encodeURIComponent(name);
}

/** Where to go after logging in: the page the visitor came from (`?next=/g/...`), if it is
 * a page of this site, else null. The address is read as the browser will read it and its
 * origin compared with the site's: tabs, backslashes and other tricks that make a path
 * lead to another site are refused whatever they look like. */
export function nextPath(search, origin = globalThis.location?.origin) {
  const next = new URLSearchParams(search || '').get('next');
  if (!next || !next.startsWith('/') || !origin) return null;
  let url;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  return url.origin === origin ? url.pathname + url.search + url.hash : null;
}

/** A seat's name as the page shows it: an account's name links to its page and is marked
 * as an account, so that a guest who types the same name is told apart. */
export function seatName(shown, account) {
  if (!account) return shown;
  if (account === DELETED_NAME) return el('span', { class: 'account deleted' }, t('account-deleted'));
  return el('a', { class: 'account', href: playerPath(account), title: t('account-player') }, account);
}

/** The header's corner: "Log in", or the account's name and "Log out". */
export function accountCorner() {
  const corner = el('span', { class: 'account-corner', id: 'account' });
  currentAccount().then((account) => {
    clear(corner);
    if (!account) {
      const here = location.pathname === '/login' ? '' : '?next=' + encodeURIComponent(location.pathname);
      corner.appendChild(el('a', { href: '/login' + here, id: 'login-link' }, t('account-log-in')));
      return;
    }
    corner.appendChild(el('a', { href: playerPath(account.name), id: 'account-name' }, account.name));
    corner.appendChild(el('button', {
      type: 'button',
      id: 'logout',
      class: 'link',
      onclick: async () => {
        try { await logOut(); } catch (e) { /* the cookie may be gone already */ }
        location.reload();
      },
    }, t('account-log-out')));
  });
  return corner;
}
