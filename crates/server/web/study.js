// The study board: set up any position tower by tower, read it in the rulebook's notation,
// ask the engine, and start a game from it.

import { el, svgEl, append, clear, field, select } from './dom.js';
import { api, prefs, createGame } from './api.js';
import { Board } from './board.js';
import { drawTower } from './towers.js';
import { towerText, levelOptions } from './text.js';
import { analysisView } from './analysis.js';
import { t } from './i18n.js';

/** The study page. */
export function studyPage(app) {
  document.body.dataset.page = 'study';
  document.title = t('study-page-title');
  const params = new URLSearchParams(location.search);
  const st = {
    variant: params.get('variant') === 'russian' ? 'russian' : 'bashni',
    towers: {},
    turn: 'white',
    brush: 'w',
    focus: null,
    view: null,     // PositionView from the server
    legal: [],
    ticket: 0,
  };
  const inspector = el('p', { id: 'inspector', class: 'inspector', 'aria-live': 'polite' }, t('study-inspector-hint'));
  const board = new Board({
    label: t('study-board-label'),
    onSquare: (sq) => paint(sq),
    onHover: (sq) => { if (sq) inspector.textContent = towerText(sq, st.towers[sq]); },
    onLongPress: (sq) => { inspector.textContent = towerText(sq, st.towers[sq]); },
  });

  const variant = select('study-variant', [
    { value: 'bashni', label: t('home-variant-bashni') },
    { value: 'russian', label: t('home-variant-russian') },
  ], st.variant);
  const turn = select('study-turn', [
    { value: 'white', label: t('study-white-to-move') },
    { value: 'black', label: t('study-black-to-move') },
  ], 'white');
  const brushes = [
    { value: 'w', label: t('study-brush-white-man') },
    { value: 'W', label: t('study-brush-white-king') },
    { value: 'b', label: t('study-brush-black-man') },
    { value: 'B', label: t('study-brush-black-king') },
    { value: 'pop', label: t('study-brush-pop') },
    { value: 'erase', label: t('study-brush-erase') },
  ];
  const brushBox = el('div', { class: 'brushes', role: 'radiogroup', id: 'brushes' });
  for (const b of brushes) {
    const input = el('input', { type: 'radio', name: 'brush', value: b.value, id: 'brush-' + b.value });
    if (b.value === st.brush) input.checked = true;
    input.addEventListener('change', () => { st.brush = b.value; });
    const icon = b.value.length === 1 ? svgIcon(b.value) : null;
    brushBox.appendChild(el('label', { class: 'brush', for: 'brush-' + b.value }, input, icon, ' ' + b.label));
  }
  const posText = el('p', { id: 'position-text', class: 'position-text' });
  const fenText = el('p', { id: 'position-fen', class: 'position-fen' });
  const posError = el('p', { id: 'position-error', class: 'error', role: 'alert' });
  const loadInput = el('input', { id: 'load-position', type: 'text', placeholder: t('study-paste-position'), 'aria-label': t('study-position') });
  const loadForm = el('form', { class: 'move-form' }, loadInput, el('button', { type: 'submit' }, t('study-set-up')));
  const analysisOut = el('div', { id: 'analysis-out' });
  const playMode = select('play-mode', [
    { value: 'engine', label: t('home-mode-engine') },
    { value: 'local', label: t('home-mode-local') },
    { value: 'friend', label: t('home-mode-friend') },
  ], 'engine');
  const playLevel = select('play-level', levelOptions(), 4);
  const playColor = select('play-color', [
    { value: 'white', label: t('home-colour-white') },
    { value: 'black', label: t('home-colour-black') },
    { value: 'random', label: t('home-colour-random') },
  ], 'white');
  const playError = el('p', { class: 'error', role: 'alert' });

  const side = el('aside', { class: 'side' },
    el('h1', null, t('study-heading')),
    field(t('home-game'), variant),
    field(t('study-side-to-move'), turn),
    el('fieldset', { class: 'card' }, el('legend', null, t('study-brush')), brushBox,
      el('p', { class: 'hint' }, t('study-brush-hint'))),
    el('div', { class: 'row' },
      el('button', { type: 'button', id: 'start-position', onclick: () => loadPosition('start') }, t('study-start-position')),
      el('button', { type: 'button', id: 'empty-board', onclick: () => { st.towers = {}; update(); } }, t('study-empty-board'))),
    el('div', { class: 'card' }, el('h2', null, t('study-position')), posText, fenText, posError, loadForm),
    el('div', { class: 'card' }, el('h2', null, t('study-engine-view')),
      el('div', { class: 'row' },
        el('button', { type: 'button', id: 'study-analyse', onclick: () => analyse() }, t('study-analyse')),
        el('button', { type: 'button', id: 'study-board-link', onclick: () => openAnalysisBoard() }, t('study-analysis-board'))),
      analysisOut),
    el('div', { class: 'card' }, el('h2', null, t('study-play-from-here')),
      field(t('home-play'), playMode), field(t('home-level'), playLevel), field(t('home-colour'), playColor),
      el('button', { type: 'button', id: 'play-from-here', class: 'primary', onclick: () => playFromHere() }, t('study-play-from-here')),
      playError));
  append(app, el('div', { class: 'game study' }, el('div', { class: 'board-wrap' }, board.svg, inspector), side));

  variant.addEventListener('change', () => { st.variant = variant.value; update(); });
  turn.addEventListener('change', () => { st.turn = turn.value; update(); });
  playMode.addEventListener('change', () => {
    playLevel.closest('.field').hidden = playMode.value !== 'engine';
    playColor.closest('.field').hidden = playMode.value === 'local';
  });
  loadForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (loadInput.value.trim()) loadPosition(loadInput.value.trim());
  });

  function svgIcon(ch) {
    const s = svgEl('svg', { viewBox: '-45 -35 90 70', class: 'brush-icon', 'aria-hidden': 'true' });
    s.appendChild(drawTower(ch));
    return s;
  }

  function paint(sq) {
    const cur = st.towers[sq] || '';
    if (st.brush === 'erase') delete st.towers[sq];
    else if (st.brush === 'pop') {
      if (cur.length > 1) st.towers[sq] = cur.slice(1); else delete st.towers[sq];
    } else {
      st.towers[sq] = cur + st.brush;
    }
    st.focus = sq;
    inspector.textContent = towerText(sq, st.towers[sq]);
    update();
  }

  async function update() {
    board.render(st.towers, { focus: st.focus });
    const ticket = ++st.ticket;
    posError.textContent = '';
    try {
      const data = await api('POST', '/api/position', { variant: st.variant, towers: st.towers, turn: st.turn });
      if (ticket !== st.ticket) return;
      st.view = data.position;
      st.legal = data.legal_moves || [];
      posText.textContent = data.position.text;
      fenText.textContent = data.position.fen;
      board.svg.dataset.valid = 'true';
    } catch (e) {
      if (ticket !== st.ticket) return;
      st.view = null;
      posText.textContent = '';
      fenText.textContent = '';
      posError.textContent = e.message;
      board.svg.dataset.valid = 'false';
    }
  }

  async function loadPosition(text) {
    posError.textContent = '';
    try {
      const data = await api('POST', '/api/position', { variant: st.variant, position: text });
      st.towers = Object.assign({}, data.position.towers);
      st.turn = data.position.turn;
      turn.value = st.turn;
      update();
    } catch (e) {
      posError.textContent = e.message;
    }
  }

  async function analyse() {
    clear(analysisOut);
    if (!st.view) {
      analysisOut.appendChild(el('p', { class: 'error' }, t('study-need-position')));
      return;
    }
    const view = st.view;
    analysisOut.appendChild(el('p', null, t('analysis-thinking')));
    try {
      const data = await api('POST', '/api/analyse', { variant: st.variant, position: view.fen, movetime_ms: 2000, lines: 3 });
      clear(analysisOut);
      analysisOut.appendChild(analysisView(data, view.turn));
    } catch (e) {
      clear(analysisOut);
      analysisOut.appendChild(el('p', { class: 'error' }, e.message));
    }
  }

  function openAnalysisBoard() {
    if (!st.view) { posError.textContent = t('study-need-position'); return; }
    location.assign('/analysis?variant=' + encodeURIComponent(st.variant) + '&position=' + encodeURIComponent(st.view.fen));
  }

  async function playFromHere() {
    playError.textContent = '';
    if (!st.view) { playError.textContent = t('study-need-position'); return; }
    const body = { variant: st.variant, mode: playMode.value, position: st.view.fen };
    if (playMode.value === 'engine') body.level = Number(playLevel.value);
    if (playMode.value !== 'local') body.color = playColor.value;
    const name = prefs.get('name', '');
    if (name) body.name = name;
    try {
      await createGame(body);
    } catch (e) {
      playError.textContent = e.message;
    }
  }

  const initial = params.get('position');
  loadPosition(initial || 'start');
}
