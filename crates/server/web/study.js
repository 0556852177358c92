// The study board: set up any position tower by tower, read it in the rulebook's notation,
// ask the engine, and start a game from it.

import { el, svgEl, append, clear, field, select } from './dom.js';
import { api, prefs, createGame } from './api.js';
import { Board } from './board.js';
import { drawTower } from './towers.js';
import { towerText, levelOptions } from './text.js';
import { analysisView } from './analysis.js';

/** The study page. */
export function studyPage(app) {
  document.body.dataset.page = 'study';
  document.title = 'Study board – Bashni';
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
  const inspector = el('p', { id: 'inspector', class: 'inspector', 'aria-live': 'polite' }, 'Click a square to add a checker to the bottom of its tower.');
  const board = new Board({
    label: 'Study board. Arrow keys move over the squares, Enter puts the chosen checker there.',
    onSquare: (sq) => paint(sq),
    onHover: (sq) => { if (sq) inspector.textContent = towerText(sq, st.towers[sq]); },
    onLongPress: (sq) => { inspector.textContent = towerText(sq, st.towers[sq]); },
  });

  const variant = select('study-variant', [
    { value: 'bashni', label: 'Bashni (towers)' },
    { value: 'russian', label: 'Russian draughts' },
  ], st.variant);
  const turn = select('study-turn', [
    { value: 'white', label: 'White to move' },
    { value: 'black', label: 'Black to move' },
  ], 'white');
  const brushes = [
    { value: 'w', label: 'White man' },
    { value: 'W', label: 'White king' },
    { value: 'b', label: 'Black man' },
    { value: 'B', label: 'Black king' },
    { value: 'pop', label: 'Remove top' },
    { value: 'erase', label: 'Clear square' },
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
  const loadInput = el('input', { id: 'load-position', type: 'text', placeholder: 'Paste a position in any notation', 'aria-label': 'Position' });
  const loadForm = el('form', { class: 'move-form' }, loadInput, el('button', { type: 'submit' }, 'Set up'));
  const analysisOut = el('div', { id: 'analysis-out' });
  const playMode = select('play-mode', [
    { value: 'engine', label: 'Against the engine' },
    { value: 'local', label: 'Two people at one screen' },
    { value: 'friend', label: 'Against a friend (invite link)' },
  ], 'engine');
  const playLevel = select('play-level', levelOptions(), 4);
  const playColor = select('play-color', [
    { value: 'white', label: 'White' }, { value: 'black', label: 'Black' }, { value: 'random', label: 'Random' },
  ], 'white');
  const playError = el('p', { class: 'error', role: 'alert' });

  const side = el('aside', { class: 'side' },
    el('h1', null, 'Study board'),
    field('Game', variant),
    field('Side to move', turn),
    el('fieldset', { class: 'card' }, el('legend', null, 'Brush'), brushBox,
      el('p', { class: 'hint' }, 'A checker goes to the bottom of the tower, so build each tower from the top down.')),
    el('div', { class: 'row' },
      el('button', { type: 'button', id: 'start-position', onclick: () => loadPosition('start') }, 'Start position'),
      el('button', { type: 'button', id: 'empty-board', onclick: () => { st.towers = {}; update(); } }, 'Empty board')),
    el('div', { class: 'card' }, el('h2', null, 'Position'), posText, fenText, posError, loadForm),
    el('div', { class: 'card' }, el('h2', null, 'Engine view'),
      el('div', { class: 'row' },
        el('button', { type: 'button', id: 'study-analyse', onclick: () => analyse() }, 'Analyse'),
        el('button', { type: 'button', id: 'study-board-link', onclick: () => openAnalysisBoard() }, 'Analysis board')),
      analysisOut),
    el('div', { class: 'card' }, el('h2', null, 'Play from here'),
      field('Play', playMode), field('Engine level', playLevel), field('Your colour', playColor),
      el('button', { type: 'button', id: 'play-from-here', class: 'primary', onclick: () => playFromHere() }, 'Play from here'),
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
      analysisOut.appendChild(el('p', { class: 'error' }, 'Set up an allowed position first.'));
      return;
    }
    const view = st.view;
    analysisOut.appendChild(el('p', null, 'Thinking…'));
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
    if (!st.view) { posError.textContent = 'Set up an allowed position first.'; return; }
    location.assign('/analysis?variant=' + encodeURIComponent(st.variant) + '&position=' + encodeURIComponent(st.view.fen));
  }

  async function playFromHere() {
    playError.textContent = '';
    if (!st.view) { playError.textContent = 'Set up an allowed position first.'; return; }
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
