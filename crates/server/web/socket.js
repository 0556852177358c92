// The game's WebSocket: connects, binds this page's seat, sends actions and waits for their
// answers, and connects again after a loss, waiting longer each time.

import { ApiError } from './api.js';
import { t, language } from './i18n.js';

/**
 * Events: `onOpen()`, `onState(state, fresh)` for a whole state, `onUpdate(update)` for a
 * change, `onSeat(you)` once the seat is bound (null: the token is not known),
 * `onClose()`, `onError(message)` for an error that answers nothing sent,
 * `onAnalysis(message)` for analysis lines streamed by the server, and `onChat(message)`
 * for a chat line or the chat's history (`chat`, `chat_history`).
 */
export class GameSocket {
  constructor(id, token, events) {
    this.id = id;
    this.token = token;
    this.events = events;
    this.ws = null;
    this.open = false;
    this.backoff = 500;
    this.pending = new Map();
    this.nextId = 1;
    this.stopped = false;
    this.binding = false;
    this.fresh = false;
    this.opened = false;
    window.addEventListener('online', () => {
      if (!this.open) { this.backoff = 500; this.connect(); }
    });
  }

  /** Sends a message and waits for its answer (an `ack`, or an error thrown). */
  send(msg) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      msg.id = id;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(t('socket-no-answer')));
      }, 15000);
      this.pending.set(id, { resolve, reject, timer });
      try {
        this.ws.send(JSON.stringify(msg));
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new Error(t('socket-connection-lost')));
      }
    });
  }

  /** Sends a message without waiting for an answer. */
  post(msg) {
    try { this.ws.send(JSON.stringify(msg)); } catch (e) { /* it reconnects */ }
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      // With a token the seat is bound first, and only the seat's state is sent.
      ws = new WebSocket(proto + '//' + location.host + '/api/games/' + encodeURIComponent(this.id) + '/ws' +
        '?lang=' + language + (this.token ? '&bind=1' : ''));
    } catch (e) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.open = true;
      this.opened = true;
      this.fresh = true;
      this.backoff = 500;
      if (this.token) {
        // Bind the socket to this page's seat once; its updates are then made for it.
        this.binding = true;
        this.send({ type: 'seat', token: this.token }).then((ack) => {
          this.binding = false;
          this.events.onSeat(ack.you || null);
        }).catch(() => {
          // The server does not know this token (any more): watch only.
          this.binding = false;
          this.events.onSeat(null);
          this.askState();
          this.post({ type: 'chat_history' });
        });
      }
      this.events.onOpen();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === 'state') {
        this.events.onState(msg.state, this.fresh);
        this.fresh = false;
      } else if (msg.type === 'update') {
        if (this.binding) return;
        this.events.onUpdate(msg.update);
      } else if (msg.type === 'analysis') {
        if (this.events.onAnalysis) this.events.onAnalysis(msg);
      } else if (msg.type === 'chat' || msg.type === 'chat_history') {
        if (this.events.onChat) this.events.onChat(msg);
      } else if (msg.type === 'ack' || msg.type === 'error') {
        const p = this.pending.get(msg.id);
        if (!p) {
          if (msg.type === 'error' && this.events.onError) this.events.onError(msg.error);
          return;
        }
        this.pending.delete(msg.id);
        clearTimeout(p.timer);
        if (msg.type === 'ack') p.resolve(msg);
        else p.reject(new ApiError(422, msg));
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.open = false;
      for (const [key, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new Error(t('socket-connection-lost-check')));
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

  /** Asks for the whole state again. */
  askState() {
    this.post({ type: 'state' });
  }
}
