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
import { t, language } from './i18n.js';

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
      ws = new WebSocket(proto + '//' + location.host + '/api/lobby/ws?lang=' + language);
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
        p.reject(new Error(t('lobby-connection-lost-retry')));
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
        reject(new Error(t('lobby-no-answer')));
      }, 15000);
      this.pending.set(id, { resolve, reject, timer });
      try {
        this.ws.send(JSON.stringify(msg));
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new Error(t('lobby-not-connected')));
      }
    });
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }
}

/** The games a seek can be for. */
function variants() {
  return [
    { value: 'bashni', label: t('home-variant-bashni') },
    { value: 'russian', label: t('home-variant-russian') },
  ];
}

/** The lobby page. */
export function lobbyPage(app) {
  document.body.dataset.page = 'lobby';
  document.title = t('lobby-title');
  let seeks = [];

  const status = el('p', { id: 'lobby-status', class: 'message', role: 'status', 'aria-live': 'polite' }, t('lobby-connecting'));
  const error = el('p', { id: 'lobby-error', class: 'error', role: 'alert' });
  const body = el('tbody');
  const table = el('table', { id: 'seeks', class: 'seeks' },
    el('thead', null, el('tr', null,
      el('th', null, t('lobby-col-player')), el('th', { class: 'detail' }, t('lobby-col-game')), el('th', { class: 'detail' }, t('lobby-col-clock')),
      el('th', { class: 'detail' }, t('lobby-col-type')), el('th', { class: 'detail' }, t('lobby-col-colour')), el('th', null, el('span', { class: 'visually-hidden' }, t('lobby-col-action'))))),
    body);

  const name = el('input', { id: 'lobby-name', type: 'text', maxlength: 40, value: prefs.get('name', ''), placeholder: t('home-your-name'), autocomplete: 'nickname' });
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
      ? t('lobby-waiting', { clocks: mine.map((s) => clockText(s.clock)).join(', ') })
      : t('lobby-press-play'));
  };
  const fail = (e) => { error.textContent = e.message; };

  const socket = new LobbySocket({
    onOpen() {
      connected = true;
      showStatus();
    },
    onClose() {
      connected = false;
      say(t('lobby-connection-lost'));
    },
    onError(message) { error.textContent = message; },
    onMessage(msg) {
      if (msg.type === 'paired') {
        seats.set(msg.game, { token: msg.token, seat: msg.you });
        socket.stop();
        say(t('lobby-paired', { colour: String(msg.you) }));
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
      ? el('button', { type: 'button', class: 'cancel' }, t('lobby-cancel'))
      : el('button', { type: 'button', class: 'primary play' }, t('lobby-play'));
    action.addEventListener('click', () => {
      act(action, s.own ? { type: 'cancel', seek: s.id } : { type: 'accept', seek: s.id });
    });
    const type = s.rated ? t('ratings-rated') : t('ratings-casual');
    // On a phone the details go under the name, on one line.
    const summary = t('lobby-seek-summary', { variant: variantName(s.variant), clock: clockText(s.clock), type, colour: s.color || 'random' });
    return el('tr', { dataset: { seek: s.id }, class: s.own ? 'own' : null },
      el('td', { class: 'who' }, s.account ? seatName(s.name, s.name) : el('span', { class: 'guest', title: t('lobby-guest') }, s.name),
        s.own ? el('span', { class: 'you' }, ' ' + t('lobby-you')) : null,
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
        el('td', { colspan: 6 }, t('lobby-no-seeks'))));
    }
    for (const s of seeks) body.appendChild(row(s));
    showStatus();
  }

  // Quick pairing: a button per clock.
  const quickVariant = select('quick-variant', variants(), prefs.get('lobby.variant', 'bashni'));
  quickVariant.addEventListener('change', () => prefs.set('lobby.variant', quickVariant.value));
  const quickButtons = CLOCK_PRESETS.map((clock) => {
    const b = el('button', { type: 'button', class: 'quick', dataset: { clock: clockValue(clock) } }, clockText(clock));
    // A game follows (`paired`), or the seek posted shows in the list as the player's own.
    b.addEventListener('click', () => act(b, { type: 'quick', variant: quickVariant.value, clock }));
    return b;
  });
  const quick = el('section', { class: 'card', id: 'quick' },
    el('h2', null, t('lobby-quick')),
    el('p', { class: 'hint' }, t('lobby-quick-hint')),
    field(t('home-game'), quickVariant),
    el('div', { class: 'row quick-buttons' }, quickButtons));

  // Post a seek.
  const variant = select('seek-variant', variants(), prefs.get('lobby.variant', 'bashni'));
  const clockSelect = select('seek-clock', CLOCK_PRESETS.map((c) => ({
    value: clockValue(c), label: t('lobby-clock-option', { minutes: c.minutes, increment: c.increment_s }),
  })), '5+3');
  const color = select('seek-color', [
    { value: 'random', label: t('home-colour-random') },
    { value: 'white', label: t('home-colour-white') },
    { value: 'black', label: t('home-colour-black') },
  ], 'random');
  const rated = el('input', { id: 'seek-rated', type: 'checkbox' });
  const post = el('button', { type: 'submit', id: 'seek-post', class: 'primary' }, t('lobby-post'));
  const form = el('form', { class: 'card', id: 'seek-form' },
    el('h2', null, t('lobby-post-title')),
    field(t('home-game'), variant),
    field(t('home-clock'), clockSelect),
    field(t('home-colour'), color),
    el('label', { class: 'check' }, rated, t('lobby-rated-check')),
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
  const live = el('ul', { id: 'lobby-live', class: 'games' }, el('li', null, t('home-loading')));
  const loadLive = async () => {
    try {
      const data = await api('GET', '/api/games?status=live&limit=10');
      clear(live);
      const games = (data && data.games) || [];
      if (!games.length) live.appendChild(el('li', { class: 'empty' }, t('home-live-games-none')));
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
    el('h1', null, t('nav-lobby')),
    el('div', { class: 'home lobby' },
      el('div', { class: 'col' },
        el('section', { class: 'card', id: 'seeks-box' }, el('h2', null, t('lobby-open-seeks')), status, error,
          el('div', { class: 'table-wrap' }, table)),
        el('section', { class: 'card', id: 'lobby-live-box' }, el('h2', null, t('lobby-live')), live)),
      el('div', { class: 'col' },
        el('section', { class: 'card' }, field(t('home-your-name'), name)),
        quick,
        form)),
  ]);
  socket.connect();
}
