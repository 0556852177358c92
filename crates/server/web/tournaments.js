// Tournaments: the list with a form to make one (/tournaments), and a tournament's page
// (/t/ID) with its players, rounds, standings and crosstable. The page asks again every few
// seconds while the tournament is open or running.

import { el, append, clear, field, select, button } from './dom.js';
import { api } from './api.js';
import { currentAccount, playerPath } from './account.js';
import { variantName, TIME_PRESETS, timeBody } from './text.js';

/** How often a tournament's page asks for news, in ms. */
const REFRESH_MS = 3000;

/** The address of a tournament's API. */
function tournamentPath(id, rest) {
  return '/api/tournaments/' + encodeURIComponent(id) + (rest || '');
}

/** "Round robin" or "Swiss". */
export function systemName(system) {
  return system === 'swiss' ? 'Swiss' : 'Round robin';
}

/** What a tournament is, in a few words: "Bashni, round robin, 5 min + 3 s". */
export function describe(t) {
  const parts = [variantName(t.variant), systemName(t.system).toLowerCase()];
  if (t.system === 'swiss') parts.push(t.rounds + ' rounds');
  if (t.micro) parts.push('micro-matches');
  parts.push(t.time ? t.time.minutes + ' min + ' + t.time.increment_s + ' s' : 'no clock');
  return parts.join(', ');
}

/** A cell of the crosstable: the points of each game against that player ("2", "1 0"),
 * "×" on the diagonal, empty before they meet. */
export function cellText(cell, points) {
  if (cell === null) return '×';
  const value = { win: points.win, draw: points.draw, loss: points.loss };
  return cell.map((score) => String(value[score])).join(' ');
}

/** A tie-break's name and its value as the table shows it. */
export const TIEBREAKS = {
  sonneborn_berger: { label: 'SB', title: 'Sonneborn-Berger', value: (s) => String(s.sonneborn_berger) },
  buchholz: { label: 'Buch.', title: 'Buchholz', value: (s) => String(s.buchholz) },
  median_buchholz: { label: 'Med.', title: 'Median Buchholz', value: (s) => String(s.median_buchholz) },
  wins: { label: 'Wins', title: 'Games won', value: (s) => String(s.wins) },
};

/** "1-0", "½-½", "0-1", or "playing" / "" for a game without a result. */
export function resultShort(result, gameId) {
  if (result === '1/2-1/2') return '½-½';
  if (result) return result;
  return gameId ? 'playing' : '';
}

function statusText(t) {
  if (t.status === 'open') return 'Open: players can join.';
  if (t.status === 'running') return 'Round ' + t.round + ' of ' + t.rounds + ' is being played.';
  return 'Finished.';
}

function item(t) {
  return el('li', { dataset: { id: t.id } },
    el('a', { href: '/t/' + encodeURIComponent(t.id) },
      el('span', { class: 'names' }, t.name),
      el('span', { class: 'meta' }, describe(t) + ' · ' + t.players + ' players · by ' + t.creator)));
}

function createForm() {
  const error = el('p', { class: 'error', id: 'create-error', role: 'alert' });
  const name = el('input', { type: 'text', id: 't-name', maxlength: 60, required: true });
  const variant = select('t-variant', [{ value: 'bashni', label: 'Bashni' }, { value: 'russian', label: 'Russian draughts' }], 'bashni');
  const system = select('t-system', [{ value: 'round_robin', label: 'Round robin' }, { value: 'swiss', label: 'Swiss' }], 'round_robin');
  const rounds = el('input', { type: 'number', id: 't-rounds', min: 1, max: 20, value: 5 });
  const roundsField = field('Rounds', rounds);
  const micro = el('input', { type: 'checkbox', id: 't-micro' });
  const microField = el('label', { class: 'row' }, micro, 'Micro-matches: two games on a drawn opening');
  const time = select('t-time', TIME_PRESETS, '8+4');
  const sync = () => {
    roundsField.hidden = system.value !== 'swiss';
    microField.hidden = variant.value !== 'russian';
  };
  variant.addEventListener('change', sync);
  system.addEventListener('change', sync);
  sync();
  const form = el('form', { id: 'create-tournament', class: 'card' },
    el('h2', null, 'New tournament'),
    field('Name', name), field('Game', variant), field('System', system), roundsField,
    microField, field('Clock', time),
    el('button', { type: 'submit', class: 'primary', id: 't-create' }, 'Make the tournament'),
    error);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    const body = { name: name.value, variant: variant.value, system: system.value };
    if (system.value === 'swiss') body.rounds = Number(rounds.value);
    if (variant.value === 'russian' && micro.checked) body.micro = true;
    const clock = timeBody(time.value);
    if (clock) body.time = clock;
    try {
      const made = await api('POST', '/api/tournaments', body);
      location.assign('/t/' + encodeURIComponent(made.id));
    } catch (e) { error.textContent = e.message; }
  });
  return form;
}

/** The list of tournaments, and the form to make one for a logged-in player. */
export function tournamentsPage(app) {
  document.body.dataset.page = 'tournaments';
  document.title = 'Tournaments – Bashni';
  Promise.all([api('GET', '/api/tournaments'), currentAccount()]).then(([lists, account]) => {
    const section = (key, title) => {
      const list = el('ul', { class: 'games', id: 'tournaments-' + key }, (lists[key] || []).map(item));
      if (!list.firstChild) list.appendChild(el('li', { class: 'empty' }, 'None.'));
      return el('section', { class: 'card' }, el('h2', null, title), list);
    };
    append(app, el('div', { class: 'home' },
      el('div', { class: 'col' },
        el('h1', null, 'Tournaments'),
        section('open', 'Open'), section('running', 'Playing now'), section('finished', 'Finished')),
      el('div', { class: 'col' },
        account ? createForm() : el('section', { class: 'card' },
          el('p', null, el('a', { href: '/login?next=/tournaments' }, 'Log in'), ' to make or join a tournament.')))));
  }).catch((e) => {
    append(app, el('p', { class: 'error' }, e.message));
  });
}

function playersList(t) {
  return el('ol', { id: 't-players', class: 'plain' }, t.players.map((p) =>
    el('li', null, (p.number ? p.number + '. ' : ''), el('a', { href: playerPath(p.name) }, p.name))));
}

function roundsList(t) {
  return t.schedule.slice().reverse().map((r) => el('section', { class: 'card', dataset: { round: String(r.round) } },
    el('h2', null, 'Round ' + r.round),
    el('ul', { class: 'plain' }, r.games.map((g) => el('li', { dataset: { game: g.game } },
      el('a', { href: '/g/' + encodeURIComponent(g.game) },
        g.white + ' – ' + g.black + (t.micro ? ' (game ' + g.leg + ')' : '')),
      ' ', el('span', { class: 'result-short' }, resultShort(g.result, g.game))))),
    r.bye ? el('p', { class: 'hint' }, r.bye + ' has a bye (a win).') : null));
}

function standingsTable(t) {
  const breaks = t.tiebreaks.map((name) => TIEBREAKS[name]).filter(Boolean);
  const head = el('tr', null, el('th', null, 'Place'), el('th', null, 'Player'), el('th', null, 'Points'),
    breaks.map((b) => el('th', { title: b.title }, b.label)), el('th', null, 'W-D-L'));
  const rows = t.standings.map((s) => el('tr', { dataset: { player: s.name } },
    el('td', null, String(s.place)), el('td', null, s.name), el('td', { class: 'points' }, String(s.points)),
    breaks.map((b) => el('td', { class: 'tiebreak' }, b.value(s))),
    el('td', null, s.wins + '-' + s.draws + '-' + s.losses)));
  return el('table', { class: 'results', id: 't-standings' }, el('thead', null, head), el('tbody', null, rows));
}

function crosstable(t) {
  if (!t.crosstable) return null;
  const byNumber = {};
  for (const s of t.standings) byNumber[s.number] = s;
  const order = t.crosstable.order;
  const head = el('tr', null, el('th', null, ''), order.map((n) => el('th', null, String(n))),
    el('th', null, 'Points'));
  const rows = t.crosstable.rows.map((row) => {
    const s = byNumber[row.number];
    return el('tr', { dataset: { player: s.name } },
      el('th', null, row.number + '. ' + s.name),
      row.cells.map((cell) => el('td', { class: 'cell' }, cellText(cell, t.points))),
      el('td', { class: 'points' }, String(s.points)));
  });
  return el('table', { class: 'results crosstable', id: 't-crosstable' }, el('thead', null, head), el('tbody', null, rows));
}

function actions(t, account, reload) {
  const error = el('p', { class: 'error', id: 't-error', role: 'alert' });
  const act = (id, text, path, cls) => button(id, text, async () => {
    error.textContent = '';
    try {
      await api('POST', tournamentPath(t.id, path), {});
      reload();
    } catch (e) { error.textContent = e.message; }
  }, cls);
  const buttons = [];
  if (t.status === 'open' && account) {
    buttons.push(t.you.joined ? act('t-leave', 'Leave', '/leave') : act('t-join', 'Join', '/join', 'primary'));
    if (t.you.creator) buttons.push(act('t-start', 'Start', '/start'));
  }
  if (t.status === 'open' && !account) {
    buttons.push(el('a', { href: '/login?next=' + encodeURIComponent(location.pathname) }, 'Log in to join'));
  }
  return el('div', null, el('div', { class: 'row' }, buttons), error);
}

/** The page of tournament `id`. */
export function tournamentPage(app, id) {
  document.body.dataset.page = 'tournament';
  let timer = null;
  let shown = null;   // the answer on the page: a page that did not change is not built again
  const show = async () => {
    let t;
    let account;
    try {
      [t, account] = await Promise.all([api('GET', tournamentPath(id)), currentAccount()]);
    } catch (e) {
      clear(app);
      append(app, el('div', { class: 'card narrow', id: 't-missing' },
        el('h1', null, e.status === 404 ? 'No such tournament' : 'The page cannot be shown'),
        el('p', null, e.message)));
      return;
    }
    const text = JSON.stringify(t) + (account ? account.name : '');
    if (text === shown) return;
    shown = text;
    document.title = t.name + ' – Bashni';
    clear(app);
    append(app, el('div', { class: 'home', dataset: { status: t.status, round: String(t.round) } },
      el('div', { class: 'col' },
        el('section', { class: 'card' },
          el('h1', { id: 't-name' }, t.name),
          el('p', { class: 'hint' }, describe(t) + ' · made by ' + t.creator),
          el('p', { id: 't-status', class: 'status' }, statusText(t)),
          actions(t, account, show),
          el('h2', null, 'Players (' + t.players.length + ')'),
          playersList(t)),
        t.standings.length ? el('section', { class: 'card' },
          el('h2', null, 'Standings'),
          standingsTable(t),
          el('p', { class: 'hint' }, 'Points: ' + t.points.win + ' for a win, ' + t.points.draw +
            ' for a draw, ' + t.points.loss + ' for a loss.'),
          el('h2', null, 'Crosstable'),
          crosstable(t),
          el('p', null, el('a', { href: tournamentPath(id, '/pdn'), id: 't-pdn', download: '' },
            'Download all games (PDN)'))) : null),
      el('div', { class: 'col' }, roundsList(t))));
    if (timer === null && t.status !== 'finished') {
      timer = setInterval(() => { show(); }, REFRESH_MS);
    }
    if (timer !== null && t.status === 'finished') {
      clearInterval(timer);
      timer = null;
    }
  };
  show();
}
