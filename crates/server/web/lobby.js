// The lobby: open seeks listed live from the lobby socket, "Play" to accept one, quick
// pairing by clock, a form to post a seek, and the games being played now to watch.

import { el, append, clear, field, select } from './dom.js';
import { api, seats, prefs, ApiError } from './api.js';
import { variantName } from './text.js';
import { seatName } from './account.js';
import { gameItem } from './home.js';
import {
  CLOCK_PRESETS, applyLobby, clockText, clockValue, clockOfValue, colorText, ownSeeks,
} from './seeks.js';

const LIVE_EVERY_MS = 15000;

/** The lobby's socket: sends requests and waits for their answers, and connects again after a loss. */
class LobbySocket {
  constructor(events) {
    this.events = events;
    this.ws = null;
    this.pending = new Map();
    this.nextId = 1;
    this.backoff = 500;
    this.stopped = false;
  }

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      ws = new WebSocket(proto + '//' + location.host + '/api/lobby/ws');
    } catch (e) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      this.events.onOpen();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === 'ack' || msg.type === 'error') {
        const p = this.pending.get(msg.id);
        if (!p) {
          if (msg.type === 'error') this.events.onError(msg.error);
          return;
        }
        this.pending.delete(msg.id);
        clearTimeout(p.timer);
        if (msg.type === 'ack') p.resolve(msg);
        else p.reject(new ApiError(409, msg));
      } else {
        this.events.onMessage(msg);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      for (const [key, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new Error('The connection was lost. Try again.'));
        this.pending.delete(key);
      }
      this.events.onClose();
      this.retry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  retry() {
    if (this.stopped) return;
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, 8000);
    setTimeout(() => this.connect(), wait);
  }

  /** Sends a request; answers its `ack`, or throws the server's error. */
  send(msg) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      msg.id = id;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('The server did not answer.'));
      }, 15000);
      this.pending.set(id, { resolve, reject, timer });
      try {
        this.ws.send(JSON.stringify(msg));
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new Error('Not connected. Wait a moment and try again.'));
      }
    });
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }
}

const VARIANTS = [
  { value: 'bashni', label: 'Bashni (towers)' },
  { value: 'russian', label: 'Russian draughts' },
];

/** The lobby page. */
export function lobbyPage(app) {
  document.body.dataset.page = 'lobby';
  document.title = 'Lobby – Bashni';
  let seeks = [];

  const status = el('p', { id: 'lobby-status', class: 'message', role: 'status', 'aria-live': 'polite' }, 'Connecting…');
  const error = el('p', { id: 'lobby-error', class: 'error', role: 'alert' });
  const body = el('tbody');
  const table = el('table', { id: 'seeks', class: 'seeks' },
    el('thead', null, el('tr', null,
      el('th', null, 'Player'), el('th', { class: 'detail' }, 'Game'), el('th', { class: 'detail' }, 'Clock'),
      el('th', { class: 'detail' }, 'Type'), el('th', { class: 'detail' }, 'Plays as'), el('th', null, el('span', { class: 'visually-hidden' }, 'Action')))),
    body);

  const name = el('input', { id: 'lobby-name', type: 'text', maxlength: 40, value: prefs.get('name', ''), placeholder: 'Your name', autocomplete: 'nickname' });
  name.addEventListener('change', () => prefs.set('name', name.value.trim()));
  const named = (msg) => {
    const n = name.value.trim();
    if (n) msg.name = n;
    prefs.set('name', n);
    return msg;
  };

  let connected = false;
  const say = (text) => { status.textContent = text; };
  // Once connected: whether the player waits for an opponent.
  const showStatus = () => {
    if (!connected) return;
    const mine = ownSeeks(seeks);
    say(mine.length
      ? 'Waiting for an opponent (' + mine.map((s) => clockText(s.clock)).join(', ') + '). Keep this page open.'
      : 'Press Play to accept a seek, or post your own.');
  };
  const fail = (e) => { error.textContent = e.message; };

  const socket = new LobbySocket({
    onOpen() {
      connected = true;
      showStatus();
    },
    onClose() {
      connected = false;
      say('Connection lost. Connecting again… Your seeks were removed.');
    },
    onError(message) { error.textContent = message; },
    onMessage(msg) {
      if (msg.type === 'paired') {
        seats.set(msg.game, { token: msg.token, seat: msg.you });
        socket.stop();
        say('A game is ready. You play ' + msg.you + '.');
        location.assign('/g/' + encodeURIComponent(msg.game));
        return;
      }
      seeks = applyLobby(seeks, msg);
      render();
    },
  });

  const act = async (button, msg) => {
    error.textContent = '';
    button.disabled = true;
    try {
      return await socket.send(named(msg));
    } catch (e) {
      fail(e);
      return null;
    } finally {
      button.disabled = false;
    }
  };

  function row(s) {
    const action = s.own
      ? el('button', { type: 'button', class: 'cancel' }, 'Cancel')
      : el('button', { type: 'button', class: 'primary play' }, 'Play');
    action.addEventListener('click', () => {
      act(action, s.own ? { type: 'cancel', seek: s.id } : { type: 'accept', seek: s.id });
    });
    const type = s.rated ? 'Rated' : 'Casual';
    // On a phone the details go under the name, on one line.
    const summary = variantName(s.variant) + ', ' + clockText(s.clock) + ', ' + type + ', plays ' + colorText(s.color);
    return el('tr', { dataset: { seek: s.id }, class: s.own ? 'own' : null },
      el('td', { class: 'who' }, s.account ? seatName(s.name, s.name) : el('span', { class: 'guest', title: 'Guest' }, s.name),
        s.own ? el('span', { class: 'you' }, ' (you)') : null,
        el('span', { class: 'seek-summary' }, summary)),
      el('td', { class: 'detail' }, variantName(s.variant)),
      el('td', { class: 'detail clock-cell' }, clockText(s.clock)),
      el('td', { class: 'detail' }, type),
      el('td', { class: 'detail' }, colorText(s.color)),
      el('td', null, action));
  }

  function render() {
    clear(body);
    if (!seeks.length) {
      body.appendChild(el('tr', { class: 'empty' },
        el('td', { colspan: 6 }, 'No open seeks. Post one, or use quick pairing.')));
    }
    for (const s of seeks) body.appendChild(row(s));
    showStatus();
  }

  // Quick pairing: a button per clock.
  const quickVariant = select('quick-variant', VARIANTS, prefs.get('lobby.variant', 'bashni'));
  quickVariant.addEventListener('change', () => prefs.set('lobby.variant', quickVariant.value));
  const quickButtons = CLOCK_PRESETS.map((clock) => {
    const b = el('button', { type: 'button', class: 'quick', dataset: { clock: clockValue(clock) } }, clockText(clock));
    // A game follows (`paired`), or the seek posted shows in the list as the player's own.
    b.addEventListener('click', () => act(b, { type: 'quick', variant: quickVariant.value, clock }));
    return b;
  });
  const quick = el('section', { class: 'card', id: 'quick' },
    el('h2', null, 'Quick pairing'),
    el('p', { class: 'hint' }, 'Play the first player who waits with this clock, or wait for one.'),
    field('Game', quickVariant),
    el('div', { class: 'row quick-buttons' }, quickButtons));

  // Post a seek.
  const variant = select('seek-variant', VARIANTS, prefs.get('lobby.variant', 'bashni'));
  const clockSelect = select('seek-clock', CLOCK_PRESETS.map((c) => ({
    value: clockValue(c), label: c.minutes + ' min + ' + c.increment_s + ' s',
  })), '5+3');
  const color = select('seek-color', [
    { value: 'random', label: 'Random' },
    { value: 'white', label: 'White' },
    { value: 'black', label: 'Black' },
  ], 'random');
  const rated = el('input', { id: 'seek-rated', type: 'checkbox' });
  const post = el('button', { type: 'submit', id: 'seek-post', class: 'primary' }, 'Post the seek');
  const form = el('form', { class: 'card', id: 'seek-form' },
    el('h2', null, 'Post a seek'),
    field('Game', variant),
    field('Clock', clockSelect),
    field('Your colour', color),
    el('label', { class: 'check' }, rated, 'Rated (log in first)'),
    post);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    prefs.set('lobby.variant', variant.value);
    await act(post, {
      type: 'seek',
      variant: variant.value,
      clock: clockOfValue(clockSelect.value),
      rated: rated.checked,
      color: color.value,
    });
  });

  // Games being played now.
  const live = el('ul', { id: 'lobby-live', class: 'games' }, el('li', null, 'Loading…'));
  const loadLive = async () => {
    try {
      const data = await api('GET', '/api/games?status=live&limit=10');
      clear(live);
      const games = (data && data.games) || [];
      if (!games.length) live.appendChild(el('li', { class: 'empty' }, 'No game is being played now.'));
      for (const g of games) live.appendChild(gameItem(g));
    } catch (e) {
      clear(live);
      live.appendChild(el('li', { class: 'error' }, e.message));
    }
  };
  loadLive();
  const liveTimer = setInterval(loadLive, LIVE_EVERY_MS);
  window.addEventListener('pagehide', () => { clearInterval(liveTimer); socket.stop(); });

  render();
  append(app, [
    el('h1', null, 'Lobby'),
    el('div', { class: 'home lobby' },
      el('div', { class: 'col' },
        el('section', { class: 'card', id: 'seeks-box' }, el('h2', null, 'Open seeks'), status, error,
          el('div', { class: 'table-wrap' }, table)),
        el('section', { class: 'card', id: 'lobby-live-box' }, el('h2', null, 'Live games to watch'), live)),
      el('div', { class: 'col' },
        el('section', { class: 'card' }, field('Your name', name)),
        quick,
        form)),
  ]);
  socket.connect();
}
