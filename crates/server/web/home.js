// The start page: a new game, the visitor's own games, live and finished games, PDN upload.

import { el, append, clear, field, select } from './dom.js';
import { api, seats, prefs, createGame } from './api.js';
import { TIME_PRESETS, levelOptions, timeBody, variantName, modeName, DAYS_PER_MOVE } from './text.js';
import { yourTurnSection } from './your-turn.js';
import { currentAccount } from './account.js';

const PAGE = 10;

/** A game in a list: its picture, players, and how far it is. */
export function gameItem(g) {
  const nameOf = (p, fallback) => (typeof p === 'string' ? p : (p && p.name)) || fallback;
  const w = nameOf(g.white, 'White');
  const b = nameOf(g.black, 'Black');
  const status = !g.result ? 'in play' : (g.result === '*' ? 'aborted' : g.result);
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
          g.moves + (g.moves === 1 ? ' move' : ' moves') + ', ' + status))));
}

// A list of games filled from `query`, with a button for the next page when there is one.
function gameList(id, title, query, empty) {
  const list = el('ul', { id, class: 'games' }, el('li', null, 'Loading…'));
  const more = el('button', { type: 'button', class: 'more', hidden: true }, 'More');
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
  document.title = 'Bashni';
  const savedName = prefs.get('name', '');

  const mode = select('mode', [
    { value: 'engine', label: 'Against the engine' },
    { value: 'friend', label: 'Against a friend (invite link)' },
    { value: 'local', label: 'Two people at one screen' },
  ], 'engine');
  const variant = select('variant', [
    { value: 'bashni', label: 'Bashni (towers)' },
    { value: 'russian', label: 'Russian draughts' },
  ], 'bashni');
  const level = select('level', levelOptions(), 4);
  const color = select('color', [
    { value: 'white', label: 'White' },
    { value: 'black', label: 'Black' },
    { value: 'random', label: 'Random' },
  ], 'white');
  const time = select('time', TIME_PRESETS.concat([{ value: 'days', label: 'Correspondence (days per move)' }]), 'none');
  const days = select('days', DAYS_PER_MOVE.map((d) => ({ value: d, label: d + (d === 1 ? ' day' : ' days') })), 3);
  const daysField = field('Days per move', days, 'Each move may take this long. Time not used does not carry over.');
  const daysOption = time.querySelector('option[value="days"]');
  const name = el('input', { id: 'name', type: 'text', maxlength: 40, value: savedName, placeholder: 'Your name', autocomplete: 'nickname' });
  const opponent = el('input', { id: 'opponent-name', type: 'text', maxlength: 40, placeholder: 'Second player' });
  const error = el('p', { class: 'error', id: 'create-error', role: 'alert' });
  const levelField = field('Engine level', level);
  const colorField = field('Your colour', color);
  const opponentField = field('Second player\'s name', opponent);
  const nameField = field('Your name', name);
  // Rated games are for two players with accounts, with a clock or days per move.
  const rated = el('input', { id: 'rated', type: 'checkbox' });
  const ratedField = el('label', { class: 'check', id: 'rated-field', hidden: true }, rated, 'Rated');
  let loggedIn = false;

  const sync = () => {
    levelField.hidden = mode.value !== 'engine';
    colorField.hidden = mode.value === 'local';
    opponentField.hidden = mode.value !== 'local';
    nameField.querySelector('.label').textContent = mode.value === 'local' ? 'First player\'s name (White)' : 'Your name';
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
    nameField.appendChild(el('span', { class: 'hint' }, 'The name of your account.'));
    loggedIn = true;
    sync();
  });

  const form = el('form', { id: 'new-game', class: 'card' },
    el('h2', null, 'New game'),
    field('Play', mode),
    field('Game', variant),
    levelField,
    colorField,
    field('Clock', time),
    daysField,
    nameField,
    opponentField,
    ratedField,
    el('button', { type: 'submit', id: 'create', class: 'primary' }, 'Start the game'),
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
  const pasted = el('textarea', { id: 'pdn-text', rows: 4, placeholder: 'Or paste PDN text here' });
  const results = el('ul', { id: 'pdn-results', class: 'plain' });
  const uploadError = el('p', { class: 'error', role: 'alert' });
  const upload = el('form', { id: 'pdn-form', class: 'card' },
    el('h2', null, 'Open game records (PDN)'),
    field('PDN file', file),
    pasted,
    el('button', { type: 'submit', id: 'pdn-upload' }, 'Upload'),
    uploadError,
    results);
  upload.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    uploadError.textContent = '';
    clear(results);
    // A file goes as its bytes: the server finds its encoding (UTF-8, UTF-16, Windows-1251).
    const chosen = file.files && file.files[0];
    const body = chosen || pasted.value;
    if (chosen ? chosen.size === 0 : !pasted.value.trim()) { uploadError.textContent = 'Choose a file or paste PDN text.'; return; }
    try {
      const data = await api('POST', '/api/pdn', body, null, 'text/plain');
      for (const g of data.games || []) {
        if (g.id) {
          const warnings = (g.warnings || []).length
            ? el('ul', { class: 'pdn-warnings' }, g.warnings.map((w) => el('li', null, w)))
            : null;
          results.appendChild(el('li', { class: 'pdn-ok' }, el('a', { href: '/g/' + encodeURIComponent(g.id), class: 'record-link' }, 'Game ' + g.index), warnings));
        } else {
          results.appendChild(el('li', { class: 'pdn-error' }, 'Game ' + g.index + ': ' + (g.error || 'cannot be read')));
        }
      }
      if (!(data.games || []).length) uploadError.textContent = 'No games found in the text.';
    } catch (e) {
      uploadError.textContent = e.message;
    }
  });

  const mine = seats.ids().slice(-50);
  const lists = [];
  if (mine.length) lists.push(gameList('mine', 'Your games', 'ids=' + mine.map(encodeURIComponent).join(','), 'None yet.'));
  lists.push(gameList('live', 'Live games', 'status=live', 'No game is being played now.'));
  lists.push(gameList('recent', 'Finished games', 'status=finished', 'No games yet.'));
  lists.push(gameList('records', 'Game records', 'status=records', 'No records uploaded yet.'));

  const lobby = el('section', { class: 'card lobby-call', id: 'lobby-box' },
    el('h2', null, 'Play someone now'),
    el('p', null, 'Find an opponent in the lobby: accept a seek, or post your own.'),
    el('a', { href: '/lobby', id: 'lobby-link', class: 'button-link primary' }, 'Go to the lobby'));

  append(app, [
    yourTurnSection(document.title),
    el('div', { class: 'home' },
      el('div', { class: 'col' }, lobby, form,
        el('section', { class: 'card' }, el('h2', null, 'Study'),
          el('p', null, 'Set up any position, build towers, play through variations and ask the engine. ',
            el('a', { href: '/study', id: 'study-link' }, 'Open the study board'))),
        upload),
      el('div', { class: 'col' }, lists)),
  ]);
}
