// The game's chat panel: the players' room and the watchers' room, each line inserted as
// text (never markup), a counter of characters, and the mute button for a player. The server
// decides who reads and writes where; the panel offers only what the seat may do.

import { el, clear } from './dom.js';
import { seatName } from './account.js';
import { t } from './i18n.js';

/** The longest line, in characters (the server's limit too). */
export const MAX_CHAT_CHARS = 300;

/** The longest name a watcher may give. */
export const MAX_NAME_CHARS = 20;

/**
 * The rooms a seat reads and the room it writes in: a player of a game between people reads
 * and writes in the players' room, and reads the watchers' room once the game is `over`; a
 * watcher reads and writes in the watchers' room; anyone else (against the engine, at one
 * screen) has no chat.
 */
export function chatRooms(mode, you, over = false) {
  const player = you === 'white' || you === 'black';
  if (mode === 'friend' && player) {
    return { read: over ? ['players', 'watchers'] : ['players'], write: 'players' };
  }
  if (!you) return { read: ['watchers'], write: 'watchers' };
  return { read: [], write: null };
}

/** Lines with `line` added in order of `seq`; a line already there is not added again. */
export function withLine(lines, line) {
  if (lines.some((l) => l.seq === line.seq)) return lines;
  return lines.concat([line]).sort((a, b) => a.seq - b.seq);
}

/** The counter under the input: characters typed (after trimming) of the limit. */
export function countText(text) {
  return [...text.trim()].length + '/' + MAX_CHAT_CHARS;
}

function stored(key) {
  try { return window.localStorage.getItem(key) || ''; } catch (e) { return ''; }
}

function store(key, value) {
  try { window.localStorage.setItem(key, value); } catch (e) { /* private mode */ }
}

const NAME_KEY = 'bashni.chatName';

/** A room's name on its tab. */
function roomTitle(room) {
  return room === 'players' ? t('chat-room-players') : t('chat-room-watchers');
}

/**
 * The chat panel. `send(msg)` sends a socket message and resolves with its answer (or throws
 * the server's refusal).
 */
export class ChatPanel {
  constructor(send) {
    this.send = send;
    this.lines = { players: [], watchers: [] };
    this.rooms = { read: [], write: null };
    this.shown = null;
    this.muted = false;
    this.opponent = '';
    this.unread = { players: false, watchers: false };
    this.node = el('section', { id: 'chat', class: 'chat card', hidden: true, 'aria-label': t('chat') });
  }

  /** Who the page is now: the game's mode, the seat (`null` for a watcher), the other player's name. */
  setSeat(mode, you, opponent, over = false) {
    const rooms = chatRooms(mode, you, over);
    const changed = rooms.write !== this.rooms.write || rooms.read.join() !== this.rooms.read.join();
    this.rooms = rooms;
    this.opponent = opponent || '';
    if (!rooms.read.includes(this.shown)) this.shown = rooms.write || rooms.read[0] || null;
    if (changed) this.build();
    else this.drawMute();
  }

  /** A `chat_history` message: every room's lines again. */
  history(msg) {
    for (const room of ['players', 'watchers']) {
      if (msg.rooms && msg.rooms[room]) this.lines[room] = msg.rooms[room].slice();
    }
    if (typeof msg.muted === 'boolean') this.muted = msg.muted;
    this.drawLines();
    this.drawMute();
  }

  /** A `chat` message: one new line. */
  line(msg) {
    const room = msg.room;
    if (!this.lines[room] || !msg.line) return;
    this.lines[room] = withLine(this.lines[room], msg.line);
    if (room !== this.shown) this.unread[room] = true;
    this.drawLines();
    this.drawTabs();
  }

  build() {
    const box = this.node;
    clear(box);
    box.hidden = this.rooms.read.length === 0;
    if (box.hidden) return;
    this.tabs = el('div', { class: 'chat-tabs', role: 'tablist' });
    this.list = el('ol', { id: 'chat-lines', class: 'chat-lines', 'aria-live': 'polite' });
    this.note = el('p', { id: 'chat-note', class: 'chat-note' });
    this.error = el('p', { id: 'chat-error', class: 'chat-error', role: 'alert' });
    this.input = el('input', { id: 'chat-input', type: 'text', maxlength: String(MAX_CHAT_CHARS),
      autocomplete: 'off', placeholder: t('chat-placeholder'), 'aria-label': t('chat-message') });
    this.count = el('span', { id: 'chat-count', class: 'chat-count' }, countText(''));
    this.input.addEventListener('input', () => { this.count.textContent = countText(this.input.value); });
    this.nameInput = this.rooms.write === 'watchers'
      ? el('input', { id: 'chat-name', type: 'text', maxlength: String(MAX_NAME_CHARS), value: stored(NAME_KEY),
        placeholder: t('chat-your-name'), 'aria-label': t('chat-your-name-label') })
      : null;
    this.form = el('form', { id: 'chat-form', class: 'chat-form' },
      this.nameInput, this.input, el('button', { type: 'submit', id: 'chat-send' }, t('chat-send')), this.count);
    this.form.addEventListener('submit', (ev) => { ev.preventDefault(); this.submit(); });
    this.muteButton = el('button', { type: 'button', id: 'chat-mute', class: 'link', onclick: () => this.toggleMute() });
    // Only a watcher who reads just the watchers' room sees it named so; players see "Chat".
    const watchersOnly = this.rooms.read.length === 1 && this.rooms.read[0] === 'watchers';
    box.appendChild(el('h2', { id: 'chat-title' }, watchersOnly ? t('chat-watchers-chat') : t('chat')));
    box.appendChild(this.tabs);
    box.appendChild(this.list);
    box.appendChild(this.note);
    box.appendChild(this.form);
    box.appendChild(this.error);
    box.appendChild(this.muteButton);
    this.drawTabs();
    this.drawLines();
    this.drawMute();
  }

  drawTabs() {
    if (!this.tabs) return;
    clear(this.tabs);
    if (this.rooms.read.length < 2) {
      this.tabs.hidden = true;
      return;
    }
    this.tabs.hidden = false;
    for (const room of this.rooms.read) {
      const tab = el('button', { type: 'button', role: 'tab', id: 'chat-tab-' + room,
        class: 'chat-tab' + (room === this.shown ? ' shown' : '') + (this.unread[room] ? ' unread' : ''),
        'aria-selected': room === this.shown ? 'true' : 'false',
        onclick: () => this.show(room) }, roomTitle(room));
      this.tabs.appendChild(tab);
    }
  }

  show(room) {
    this.shown = room;
    this.unread[room] = false;
    this.error.textContent = '';
    this.drawTabs();
    this.drawLines();
  }

  drawLines() {
    if (!this.list) return;
    const room = this.shown;
    const list = this.list;
    list.dataset.room = room || '';
    clear(list);
    for (const line of this.lines[room] || []) {
      // Names and texts are people's words: always inserted as text.
      // An account's name links to its page and says so; a guest's is plain text.
      const name = el('span', { class: 'chat-name' }, seatName(line.name, line.account ? line.name : null), ': ');
      const text = el('span', { class: 'chat-text' });
      text.textContent = line.text;
      list.appendChild(el('li', { class: 'chat-line', dataset: { seq: String(line.seq), from: line.from } }, name, text));
    }
    if (!list.firstChild) {
      list.appendChild(el('li', { class: 'chat-empty' }, room === 'players' ? t('chat-none-players') : t('chat-none-watchers')));
    }
    list.scrollTop = list.scrollHeight;
    const writes = room === this.rooms.write;
    this.form.hidden = !writes;
    this.note.hidden = writes;
    this.note.textContent = writes ? '' : t('chat-only-watchers');
  }

  drawMute() {
    if (!this.muteButton) return;
    this.muteButton.hidden = this.rooms.write !== 'players';
    const name = this.opponent;
    this.muteButton.textContent = this.muted
      ? (name ? t('chat-unmute', { name }) : t('chat-unmute-opponent'))
      : (name ? t('chat-mute', { name }) : t('chat-mute-opponent'));
    this.muteButton.dataset.muted = this.muted ? 'true' : 'false';
  }

  async submit() {
    const text = this.input.value.trim();
    if (!text || !this.rooms.write) return;
    const msg = { type: 'chat', room: this.rooms.write, text };
    if (this.nameInput) {
      const name = this.nameInput.value.trim();
      store(NAME_KEY, name);
      if (name) msg.name = name;
    }
    this.error.textContent = '';
    try {
      await this.send(msg);
      this.input.value = '';
      this.count.textContent = countText('');
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async toggleMute() {
    this.error.textContent = '';
    try {
      await this.send({ type: 'mute', action: this.muted ? 'unmute' : 'mute' });
    } catch (e) {
      this.error.textContent = e.message;
    }
  }
}
