// The start page: a new game, the visitor's own games, live and finished games, PDN upload.

import { el, append, clear, field, select } from './dom.js';
import { api, seats, prefs, createGame } from './api.js';
import { TIME_PRESETS, levelOptions, timeBody, variantName, modeName, DAYS_PER_MOVE, playerName } from './text.js';
import { yourTurnSection } from './your-turn.js';
import { currentAccount } from './account.js';
import { t } from './i18n.js';

const PAGE = 10;

/** A game in a list: its picture, players, and how far it is. */
export function gameItem(g) {
  const nameOf = (p, color, fallback) => playerName(typeof p === 'string' ? p : (p && p.name), color, fallback);
  const w = nameOf(g.white, 'white', t('game-item-white'));
  const b = nameOf(g.black, 'black', t('game-item-black'));
  const status = !g.result ? t('game-item-in-play') : (g.result === '*' ? t('game-item-aborted') : g.result);
  // The server's picture of the position; the version in the address makes it cacheable for good.
  const thumb = el('img', {
    class: 'thumb',
    src: '/api/games/' + encodeURIComponent(g.id) + '/diagram.svg?size=128&version=' + encodeURIComponent(g.version || g.plies),
    width: 64, height: 64, alt: '', loading: 'lazy',
  });
  return el('li', null,
    el('a', { href: '/g/' + encodeURIComponent(g.id), class: 'game-link' },
      thumb,
      el('span', { class: 'game-text' },
        el('span', { class: 'names' }, w + ' – ' + b),
        el('span', { class: 'meta' }, variantName(g.variant) + ', ' + modeName(g.mode) + ', ' +
          t('game-item-moves', { moves: g.moves }) + ', ' + status))));
}

// A list of games filled from `query`, with a button for the next page when there is one.
function gameList(id, title, query, empty) {
  const list = el('ul', { id, class: 'games' }, el('li', null, t('home-loading')));
  const more = el('button', { type: 'button', class: 'more', hidden: true }, t('home-more'));
  const section = el('section', { class: 'card', id: id + '-box' }, el('h2', null, title), list, more);
  let before = null;
  let first = true;
  const load = async () => {
    more.disabled = true;
    try {
      const data = await api('GET', '/api/games?' + query + '&limit=' + PAGE + (before ? '&before=' + encodeURIComponent(before) : ''));
      if (first) clear(list);
      first = false;
      const games = (data && data.games) || [];
      if (!games.length && !list.firstChild) list.appendChild(el('li', { class: 'empty' }, empty));
      for (const g of games) list.appendChild(gameItem(g));
      before = data && data.next ? data.next : null;
      more.hidden = !before;
    } catch (e) {
      clear(list);
      list.appendChild(el('li', { class: 'error' }, e.message));
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', load);
  load();
  return section;
}

/** The start page. */
export function homePage(app) {
  document.body.dataset.page = 'home';
  document.title = t('site-name');
  const savedName = prefs.get('name', '');

  const mode = select('mode', [
    { value: 'engine', label: t('home-mode-engine') },
    { value: 'friend', label: t('home-mode-friend') },
    { value: 'local', label: t('home-mode-local') },
  ], 'engine');
  const variant = select('variant', [
    { value: 'bashni', label: t('home-variant-bashni') },
    { value: 'russian', label: t('home-variant-russian') },
  ], 'bashni');
  const level = select('level', levelOptions(), 4);
  const color = select('color', [
    { value: 'white', label: t('home-colour-white') },
    { value: 'black', label: t('home-colour-black') },
    { value: 'random', label: t('home-colour-random') },
  ], 'white');
  const time = select('time', TIME_PRESETS.concat([{ value: 'days', label: t('home-correspondence') }]), 'none');
  const days = select('days', DAYS_PER_MOVE.map((d) => ({ value: d, label: t('home-days', { days: d }) })), 3);
  const daysField = field(t('home-days-per-move'), days, t('home-days-per-move-hint'));
  const daysOption = time.querySelector('option[value="days"]');
  const name = el('input', { id: 'name', type: 'text', maxlength: 40, value: savedName, placeholder: t('home-your-name'), autocomplete: 'nickname' });
  const opponent = el('input', { id: 'opponent-name', type: 'text', maxlength: 40, placeholder: t('home-second-player') });
  const error = el('p', { class: 'error', id: 'create-error', role: 'alert' });
  const levelField = field(t('home-level'), level);
  const colorField = field(t('home-colour'), color);
  const opponentField = field(t('home-second-player-name'), opponent);
  const nameField = field(t('home-your-name'), name);
  // Rated games are for two players with accounts, with a clock or days per move.
  const rated = el('input', { id: 'rated', type: 'checkbox' });
  const ratedField = el('label', { class: 'check', id: 'rated-field', hidden: true }, rated, t('home-rated'));
  let loggedIn = false;

  const sync = () => {
    levelField.hidden = mode.value !== 'engine';
    colorField.hidden = mode.value === 'local';
    opponentField.hidden = mode.value !== 'local';
    nameField.querySelector('.label').textContent = mode.value === 'local' ? t('home-first-player-name') : t('home-your-name');
    // Correspondence is for two people online only.
    daysOption.disabled = daysOption.hidden = mode.value !== 'friend';
    if (daysOption.disabled && time.value === 'days') time.value = 'none';
    daysField.hidden = time.value !== 'days';
    ratedField.hidden = !(loggedIn && mode.value === 'friend' && time.value !== 'none');
  };
  mode.addEventListener('change', sync);
  time.addEventListener('change', sync);
  sync();
  // A logged-in player plays under the account's name.
  currentAccount().then((account) => {
    if (!account) return;
    name.value = account.name;
    name.disabled = true;
    nameField.appendChild(el('span', { class: 'hint' }, t('home-account-name')));
    loggedIn = true;
    sync();
  });

  const form = el('form', { id: 'new-game', class: 'card' },
    el('h2', null, t('home-new-game')),
    field(t('home-play'), mode),
    field(t('home-game'), variant),
    levelField,
    colorField,
    field(t('home-clock'), time),
    daysField,
    nameField,
    opponentField,
    ratedField,
    el('button', { type: 'submit', id: 'create', class: 'primary' }, t('home-start')),
    error);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    const body = { variant: variant.value, mode: mode.value,
      time: time.value === 'days' ? { days_per_move: Number(days.value) } : timeBody(time.value) };
    if (mode.value === 'engine') body.level = Number(level.value);
    if (!ratedField.hidden && rated.checked) body.rated = true;
    if (mode.value !== 'local') body.color = color.value;
    if (name.value.trim()) body.name = name.value.trim();
    if (mode.value === 'local' && opponent.value.trim()) body.opponent_name = opponent.value.trim();
    if (!name.disabled) prefs.set('name', name.value.trim());
    form.querySelector('#create').disabled = true;
    try {
      await createGame(body);
    } catch (e) {
      error.textContent = e.message;
      form.querySelector('#create').disabled = false;
    }
  });

  // PDN upload
  const file = el('input', { id: 'pdn-file', type: 'file', accept: '.pdn,.txt,text/plain' });
  const pasted = el('textarea', { id: 'pdn-text', rows: 4, placeholder: t('home-pdn-paste') });
  const results = el('ul', { id: 'pdn-results', class: 'plain' });
  const uploadError = el('p', { class: 'error', role: 'alert' });
  const upload = el('form', { id: 'pdn-form', class: 'card' },
    el('h2', null, t('home-pdn-title')),
    field(t('home-pdn-file'), file),
    pasted,
    el('button', { type: 'submit', id: 'pdn-upload' }, t('home-pdn-upload')),
    uploadError,
    results);
  upload.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    uploadError.textContent = '';
    clear(results);
    // A file goes as its bytes: the server finds its encoding (UTF-8, UTF-16, Windows-1251).
    const chosen = file.files && file.files[0];
    const body = chosen || pasted.value;
    if (chosen ? chosen.size === 0 : !pasted.value.trim()) { uploadError.textContent = t('home-pdn-nothing'); return; }
    try {
      const data = await api('POST', '/api/pdn', body, null, 'text/plain');
      for (const g of data.games || []) {
        if (g.id) {
          const warnings = (g.warnings || []).length
            ? el('ul', { class: 'pdn-warnings' }, g.warnings.map((w) => el('li', null, w)))
            : null;
          results.appendChild(el('li', { class: 'pdn-ok' }, el('a', { href: '/g/' + encodeURIComponent(g.id), class: 'record-link' }, t('home-pdn-game', { number: g.index })), warnings));
        } else {
          results.appendChild(el('li', { class: 'pdn-error' }, t('home-pdn-game-error', { number: g.index, error: g.error || t('home-pdn-unreadable') })));
        }
      }
      if (!(data.games || []).length) uploadError.textContent = t('home-pdn-none-found');
    } catch (e) {
      uploadError.textContent = e.message;
    }
  });

  const mine = seats.ids().slice(-50);
  const lists = [];
  if (mine.length) lists.push(gameList('mine', t('home-your-games'), 'ids=' + mine.map(encodeURIComponent).join(','), t('home-your-games-none')));
  lists.push(gameList('live', t('home-live-games'), 'status=live', t('home-live-games-none')));
  lists.push(gameList('recent', t('home-finished-games'), 'status=finished', t('home-finished-games-none')));
  lists.push(gameList('records', t('home-records'), 'status=records', t('home-records-none')));

  const lobby = el('section', { class: 'card lobby-call', id: 'lobby-box' },
    el('h2', null, t('home-lobby-title')),
    el('p', null, t('home-lobby-text')),
    el('a', { href: '/lobby', id: 'lobby-link', class: 'button-link primary' }, t('home-lobby-link')));

  append(app, [
    yourTurnSection(document.title),
    el('div', { class: 'home' },
      el('div', { class: 'col' }, lobby, form,
        el('section', { class: 'card', id: 'rules-box' }, el('h2', null, t('home-rules-title')),
          el('p', null, t('home-rules-text'), ' ',
            el('a', { href: '/rules', id: 'rules-link' }, t('home-rules-link')))),
        dailyPuzzle(),
        el('section', { class: 'card' }, el('h2', null, t('home-study-title')),
          el('p', null, t('home-study-text'), ' ',
            el('a', { href: '/study', id: 'study-link' }, t('home-study-link')))),
        upload),
      el('div', { class: 'col' }, lists)),
  ]);
}

/** The puzzle of the day of both games: a picture of each, linked to the trainer. */
function dailyPuzzle() {
  const row = el('div', { class: 'row daily-puzzles' });
  const box = el('section', { class: 'card', id: 'daily-puzzle' }, el('h2', null, t('home-daily-puzzle')), row,
    el('p', null, el('a', { href: '/puzzles', id: 'puzzles-link' }, t('home-puzzles-link'))));
  for (const variant of ['russian', 'bashni']) {
    api('GET', '/api/puzzles/daily?variant=' + variant).then((puzzle) => {
      const q = new URLSearchParams({ variant, position: puzzle.position, size: '200' });
      if (puzzle.solver === 'black') q.set('flip', '1');
      row.appendChild(el('a', { href: '/puzzles/daily?variant=' + variant, class: 'daily', 'data-variant': variant },
        el('img', { src: '/api/diagram.svg?' + q.toString(), width: 160, height: 160,
          alt: t('home-daily-puzzle-alt', { variant: variantName(variant) }) }),
        el('span', null, variantName(variant) + ': ' + (puzzle.solver === 'black' ? t('puzzles-find-black') : t('puzzles-find-white')))));
    }).catch(() => { /* no puzzle of this game: nothing to show */ });
  }
  return box;
}
