// Tournaments: the list with a form to make one (/tournaments), and a tournament's page
// (/t/ID) with its players, rounds, standings and crosstable. The page asks again every few
// seconds while the tournament is open or running.

import { el, append, clear, field, select, button } from './dom.js';
import { api } from './api.js';
import { currentAccount, playerPath } from './account.js';
import { variantName, TIME_PRESETS, timeBody } from './text.js';
import { t } from './i18n.js';

/** How often a tournament's page asks for news, in ms. */
const REFRESH_MS = 3000;

/** The address of a tournament's API. */
function tournamentPath(id, rest) {
  return '/api/tournaments/' + encodeURIComponent(id) + (rest || '');
}

/** "Round robin" or "Swiss". */
export function systemName(system) {
  return system === 'swiss' ? t('tournament-system-swiss') : t('tournament-system-round-robin');
}

/** What a tournament is, in a few words: "Bashni, round robin, 5 min + 3 s". */
export function describe(tour) {
  const parts = [variantName(tour.variant), systemName(tour.system).toLowerCase()];
  if (tour.system === 'swiss') parts.push(t('tournament-rounds-count', { rounds: tour.rounds }));
  if (tour.micro) parts.push(t('tournament-micro'));
  parts.push(tour.time
    ? t('tournament-clock', { minutes: tour.time.minutes, increment: tour.time.increment_s })
    : t('tournament-no-clock'));
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
  sonneborn_berger: tiebreak(() => t('tournament-tiebreak-sb-short'), () => t('tournament-tiebreak-sb'),
    (s) => String(s.sonneborn_berger)),
  buchholz: tiebreak(() => t('tournament-tiebreak-buchholz-short'), () => t('tournament-tiebreak-buchholz'),
    (s) => String(s.buchholz)),
  median_buchholz: tiebreak(() => t('tournament-tiebreak-median-short'), () => t('tournament-tiebreak-median'),
    (s) => String(s.median_buchholz)),
  wins: tiebreak(() => t('tournament-tiebreak-wins-short'), () => t('tournament-tiebreak-wins'),
    (s) => String(s.wins)),
};

/** A tie-break whose short name (`label`) and full name (`title`) are read when shown. */
function tiebreak(label, title, value) {
  return { get label() { return label(); }, get title() { return title(); }, value };
}

/** "1-0", "½-½", "0-1", or "playing" / "" for a game without a result. */
export function resultShort(result, gameId) {
  if (result === '1/2-1/2') return '½-½';
  if (result) return result;
  return gameId ? t('tournament-playing') : '';
}

function statusText(tour) {
  if (tour.status === 'open') return t('tournament-status-open');
  if (tour.status === 'running') return t('tournament-status-running', { round: tour.round, rounds: tour.rounds });
  return t('tournament-status-finished');
}

function item(tour) {
  return el('li', { dataset: { id: tour.id } },
    el('a', { href: '/t/' + encodeURIComponent(tour.id) },
      el('span', { class: 'names' }, tour.name),
      el('span', { class: 'meta' }, t('tournament-item-meta', { description: describe(tour), players: tour.players, creator: tour.creator }))));
}

function createForm() {
  const error = el('p', { class: 'error', id: 'create-error', role: 'alert' });
  const name = el('input', { type: 'text', id: 't-name', maxlength: 60, required: true });
  const variant = select('t-variant', [
    { value: 'bashni', label: t('tournament-variant-bashni') },
    { value: 'russian', label: t('tournament-variant-russian') },
  ], 'bashni');
  const system = select('t-system', [
    { value: 'round_robin', label: systemName('round_robin') },
    { value: 'swiss', label: systemName('swiss') },
  ], 'round_robin');
  const rounds = el('input', { type: 'number', id: 't-rounds', min: 1, max: 20, value: 5 });
  const roundsField = field(t('tournament-rounds'), rounds);
  const micro = el('input', { type: 'checkbox', id: 't-micro' });
  const microField = el('label', { class: 'row' }, micro, t('tournament-micro-check'));
  const time = select('t-time', TIME_PRESETS, '8+4');
  const sync = () => {
    roundsField.hidden = system.value !== 'swiss';
    microField.hidden = variant.value !== 'russian';
  };
  variant.addEventListener('change', sync);
  system.addEventListener('change', sync);
  sync();
  const form = el('form', { id: 'create-tournament', class: 'card' },
    el('h2', null, t('tournament-new')),
    field(t('tournament-name'), name), field(t('home-game'), variant), field(t('tournament-system'), system), roundsField,
    microField, field(t('home-clock'), time),
    el('button', { type: 'submit', class: 'primary', id: 't-create' }, t('tournament-create')),
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
  document.title = t('tournaments-title');
  Promise.all([api('GET', '/api/tournaments'), currentAccount()]).then(([lists, account]) => {
    const section = (key, title) => {
      const list = el('ul', { class: 'games', id: 'tournaments-' + key }, (lists[key] || []).map(item));
      if (!list.firstChild) list.appendChild(el('li', { class: 'empty' }, t('tournaments-none')));
      return el('section', { class: 'card' }, el('h2', null, title), list);
    };
    append(app, el('div', { class: 'home' },
      el('div', { class: 'col' },
        el('h1', null, t('nav-tournaments')),
        section('open', t('tournaments-open')), section('running', t('tournaments-running')),
        section('finished', t('tournaments-finished'))),
      el('div', { class: 'col' },
        account ? createForm() : el('section', { class: 'card' },
          el('p', null, el('a', { href: '/login?next=/tournaments' }, t('tournaments-log-in')), t('tournaments-log-in-to-make'))))));
  }).catch((e) => {
    append(app, el('p', { class: 'error' }, e.message));
  });
}

function playersList(tour) {
  return el('ul', { id: 't-players', class: 'plain' }, tour.players.map((p) =>
    el('li', null, (p.number ? p.number + '. ' : ''), el('a', { href: playerPath(p.name) }, p.name))));
}

function roundsList(tour) {
  return tour.schedule.slice().reverse().map((r) => el('section', { class: 'card', dataset: { round: String(r.round) } },
    el('h2', null, t('tournament-round', { round: r.round })),
    el('ul', { class: 'plain' }, r.games.map((g) => el('li', { dataset: { game: g.game } },
      el('a', { href: '/g/' + encodeURIComponent(g.game) },
        tour.micro
          ? t('tournament-pairing-leg', { white: g.white, black: g.black, leg: g.leg })
          : t('tournament-pairing', { white: g.white, black: g.black })),
      ' ', el('span', { class: 'result-short' }, resultShort(g.result, g.game))))),
    r.bye ? el('p', { class: 'hint' }, t('tournament-bye', { name: r.bye })) : null));
}

function standingsTable(tour) {
  const breaks = tour.tiebreaks.map((name) => TIEBREAKS[name]).filter(Boolean);
  const head = el('tr', null, el('th', null, t('tournament-place')), el('th', null, t('tournament-player')),
    el('th', null, t('tournament-points')),
    breaks.map((b) => el('th', { title: b.title }, b.label)), el('th', null, t('tournament-wins-draws-losses')));
  const rows = tour.standings.map((s) => el('tr', { dataset: { player: s.name } },
    el('td', null, String(s.place)), el('td', null, s.name), el('td', { class: 'points' }, String(s.points)),
    breaks.map((b) => el('td', { class: 'tiebreak' }, b.value(s))),
    el('td', null, s.wins + '-' + s.draws + '-' + s.losses)));
  return el('table', { class: 'results', id: 't-standings' }, el('thead', null, head), el('tbody', null, rows));
}

function crosstable(tour) {
  if (!tour.crosstable) return null;
  const byNumber = {};
  for (const s of tour.standings) byNumber[s.number] = s;
  const order = tour.crosstable.order;
  const head = el('tr', null, el('th', null, ''), order.map((n) => el('th', null, String(n))),
    el('th', null, t('tournament-points')));
  const rows = tour.crosstable.rows.map((row) => {
    const s = byNumber[row.number];
    return el('tr', { dataset: { player: s.name } },
      el('th', null, row.number + '. ' + s.name),
      row.cells.map((cell) => el('td', { class: 'cell' }, cellText(cell, tour.points))),
      el('td', { class: 'points' }, String(s.points)));
  });
  return el('table', { class: 'results crosstable', id: 't-crosstable' }, el('thead', null, head), el('tbody', null, rows));
}

function actions(tour, account, reload) {
  const error = el('p', { class: 'error', id: 't-error', role: 'alert' });
  const act = (id, text, path, cls) => button(id, text, async () => {
    error.textContent = '';
    try {
      await api('POST', tournamentPath(tour.id, path), {});
      reload();
    } catch (e) { error.textContent = e.message; }
  }, cls);
  const buttons = [];
  if (tour.status === 'open' && account) {
    buttons.push(tour.you.joined
      ? act('t-leave', t('tournament-leave'), '/leave')
      : act('t-join', t('tournament-join'), '/join', 'primary'));
    if (tour.you.creator) buttons.push(act('t-start', t('tournament-start'), '/start'));
  }
  if (tour.status === 'open' && !account) {
    buttons.push(el('a', { href: '/login?next=' + encodeURIComponent(location.pathname) }, t('tournament-log-in-to-join')));
  }
  return el('div', null, el('div', { class: 'row' }, buttons), error);
}

/** The page of tournament `id`. */
export function tournamentPage(app, id) {
  document.body.dataset.page = 'tournament';
  let timer = null;
  let shown = null;   // the answer on the page: a page that did not change is not built again
  const show = async () => {
    let tour;
    let account;
    try {
      [tour, account] = await Promise.all([api('GET', tournamentPath(id)), currentAccount()]);
    } catch (e) {
      clear(app);
      append(app, el('div', { class: 'card narrow', id: 't-missing' },
        el('h1', null, e.status === 404 ? t('tournament-missing') : t('tournament-cannot-show')),
        el('p', null, e.message)));
      return;
    }
    const text = JSON.stringify(tour) + (account ? account.name : '');
    if (text === shown) return;
    shown = text;
    document.title = t('tournament-title', { name: tour.name });
    clear(app);
    append(app, el('div', { class: 'home', dataset: { status: tour.status, round: String(tour.round) } },
      el('div', { class: 'col' },
        el('section', { class: 'card' },
          el('h1', { id: 't-name' }, tour.name),
          el('p', { class: 'hint' }, t('tournament-made-by', { description: describe(tour), creator: tour.creator })),
          el('p', { id: 't-status', class: 'status' }, statusText(tour)),
          actions(tour, account, show),
          el('h2', null, t('tournament-players', { count: tour.players.length })),
          playersList(tour)),
        tour.standings.length ? el('section', { class: 'card' },
          el('h2', null, t('tournament-standings')),
          standingsTable(tour),
          el('p', { class: 'hint' }, t('tournament-points-rule',
            { win: tour.points.win, draw: tour.points.draw, loss: tour.points.loss })),
          el('h2', null, t('tournament-crosstable')),
          crosstable(tour),
          el('p', null, el('a', { href: tournamentPath(id, '/pdn'), id: 't-pdn', download: '' },
            t('tournament-download')))) : null),
      el('div', { class: 'col' }, roundsList(tour))));
    if (timer === null && tour.status !== 'finished') {
      timer = setInterval(() => { show(); }, REFRESH_MS);
    }
    if (timer !== null && tour.status === 'finished') {
      clearInterval(timer);
      timer = null;
    }
  };
  show();
}
