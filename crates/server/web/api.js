// Talking to the server's JSON API, and the seat tokens and settings this browser keeps.

import { t, language } from './i18n.js';

/** A refused request: the server's message, status and code. */
export class ApiError extends Error {
  constructor(status, body) {
    const text = (body && body.error) || t('api-status', { status: String(status) });
    // Shown as a sentence: a capital first letter.
    super(text.charAt(0).toUpperCase() + text.slice(1));
    this.status = status;
    this.code = body && body.code;
    this.body = body;
  }
}

/** Sends a request; answers the JSON body, or throws an ApiError with the server's message. */
export async function api(method, path, body, token, contentType) {
  const headers = {};
  let payload;
  if (body !== undefined) {
    if (contentType === 'text/plain') {
      headers['Content-Type'] = 'text/plain';
      payload = body;
    } else {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
  }
  if (token) headers['X-Seat-Token'] = token;
  // The server says why it refuses in the page's language.
  headers['Accept-Language'] = language;
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload, cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, { error: t('api-unreachable'), code: 'network' });
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text }; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** The address of a game's API. */
export function gamePath(id, rest) {
  return '/api/games/' + encodeURIComponent(id) + (rest || '');
}

function storage() {
  try { return window.localStorage; } catch (e) { return null; }
}

/** Seat tokens, one record per game id: {token, seat, invite_url}. */
export const seats = {
  key: (id) => 'bashni.seat.' + id,
  get(id) {
    try {
      const raw = storage().getItem(this.key(id));
      return raw ? JSON.parse(raw) : null;
    } catch (e) { return null; }
  },
  set(id, record) {
    try { storage().setItem(this.key(id), JSON.stringify(record)); } catch (e) { /* full or off */ }
  },
  /** The ids of the games this browser holds a seat in. */
  ids() {
    const out = [];
    const s = storage();
    if (!s) return out;
    for (let i = 0; i < s.length; i++) {
      const k = s.key(i);
      if (k && k.startsWith('bashni.seat.')) out.push(k.slice('bashni.seat.'.length));
    }
    return out;
  },
};

/** The visitor's settings, kept in this browser. */
export const prefs = {
  get(name, fallback) {
    try {
      const v = storage().getItem('bashni.' + name);
      return v === null ? fallback : v;
    } catch (e) { return fallback; }
  },
  set(name, value) {
    try { storage().setItem('bashni.' + name, String(value)); } catch (e) { /* ignore */ }
  },
};

/** Creates a game and goes to it. */
export async function createGame(body) {
  const data = await api('POST', '/api/games', body);
  seats.set(data.id, { token: data.token, seat: data.seat, invite_url: data.invite_url || null });
  location.assign(data.url || ('/g/' + data.id));
  return data;
}
