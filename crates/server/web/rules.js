// The rules page: Russian draughts, then what Bashni changes. Each rule has a small board
// with a position that shows it; "Show" plays the move the rule is about (the server checks
// the position and plays the move), and the visitor may also try any legal move there.

import { el, append } from './dom.js';
import { api } from './api.js';
import { Board } from './board.js';
import { t } from './i18n.js';

// Each rule: its name (the catalogue's `rules-<name>-title` and `rules-<name>-text`), the
// position (towers top first: w/b men, W/B kings), the side to move, and the move shown.
// Every position and move was checked against the server's rules.
export const RUSSIAN_RULES = [
  { name: 'man-moves', turn: 'white', show: 'c3-d4',
    towers: { c3: 'w', e3: 'w', f6: 'b', h6: 'b' } },
  { name: 'crowning', turn: 'white', show: 'c7-d8',
    towers: { c7: 'w', a3: 'w', h8: 'b' } },
  { name: 'king-moves', turn: 'white', show: 'c1-h6',
    towers: { c1: 'W', g3: 'w', a7: 'b' } },
  { name: 'capture-compulsory', turn: 'white', show: 'e3:c5',
    towers: { e3: 'w', a1: 'w', d4: 'b', f4: 'b', f6: 'b', h8: 'b' } },
  { name: 'capture-backwards', turn: 'white', show: 'e5:c3',
    towers: { e5: 'w', d4: 'b', h8: 'b' } },
  { name: 'capture-several', turn: 'white', show: 'c1:e3:g5:e7',
    towers: { c1: 'w', d2: 'b', f4: 'b', f6: 'b', a7: 'b' } },
  { name: 'king-captures', turn: 'white', show: 'a1:f6:h4',
    towers: { a1: 'W', d4: 'b', g5: 'b', b8: 'b' } },
  { name: 'turkish-strike', turn: 'white', show: 'e1:a5:d8:f6:d4',
    towers: { e1: 'W', c3: 'b', b6: 'b', e7: 'b', e5: 'b', c5: 'b' } },
  { name: 'crowned-in-capture', turn: 'white', show: 'b6:d8:h4',
    towers: { b6: 'w', c7: 'b', f6: 'b', h8: 'b' } },
  { name: 'russian-win', turn: 'white', show: 'a3-b4',
    towers: { a3: 'w', c3: 'w', a5: 'b' } },
  { name: 'big-road-draw', turn: 'black', show: 'd4-h8',
    towers: { d4: 'B', c1: 'W', e1: 'W', g1: 'W' } },
];

export const BASHNI_RULES = [
  { name: 'prisoners', turn: 'white', show: 'c3:e5',
    towers: { c3: 'w', d4: 'b', g7: 'b' } },
  { name: 'tower-moves', turn: 'white', show: 'c3-d4',
    towers: { c3: 'wbb', e1: 'W', h6: 'bw' } },
  { name: 'top-taken', turn: 'white', show: 'c3:e5',
    towers: { c3: 'w', d4: 'bww', h6: 'b' } },
  { name: 'king-freed', turn: 'white', show: 'c3:e5',
    towers: { c3: 'w', d4: 'bW', h6: 'b' } },
  { name: 'tower-captures-several', turn: 'white', show: 'c3:e5:c7:a5:c3:e5',
    towers: { c3: 'w', d4: 'bbb', d6: 'b', b6: 'b', b4: 'b', h8: 'b' } },
  { name: 'tower-crowning', turn: 'white', show: 'c7-d8',
    towers: { c7: 'wwb', h6: 'b' } },
  { name: 'bashni-win', turn: 'white', show: 'c3:e5',
    towers: { c3: 'w', d4: 'bw' } },
  { name: 'quiet-draw', turn: 'white', show: 'c1-h6',
    towers: { c1: 'W', f8: 'B' } },
];

// The draw rules, each the catalogue's `rules-<name>`.
export const RUSSIAN_DRAWS = ['draw-agreed-russian', 'draw-repetition', 'draw-lone-king', 'draw-big-road',
  'draw-kings-balance', 'draw-kings-only', 'draw-counting'];
export const BASHNI_DRAWS = ['draw-agreed', 'draw-repetition-towers', 'draw-fifteen-moves', 'draw-claimed'];

/** The catalogue's id of a rule's text: `part` is 'title' or 'text' ('' for a draw rule). */
export function ruleMessage(name, part) {
  return part ? `rules-${name}-${part}` : `rules-${name}`;
}

/** The id of a game's heading or introduction: `part` is 'heading' or 'intro'. */
export function gameMessage(variant, part) {
  return `rules-${variant}-${part}`;
}

/** The game the address asks for: `?variant=` or the anchor, else none. */
export function askedVariant(search, hash) {
  const wanted = new URLSearchParams(search).get('variant') || String(hash || '').replace(/^#/, '');
  return wanted === 'russian' || wanted === 'bashni' ? wanted : null;
}

/** The rules page. */
export function rulesPage(app) {
  document.body.dataset.page = 'rules';
  document.title = t('rules-page-title');
  const contents = el('nav', { class: 'rules-contents', 'aria-label': t('rules-contents') },
    el('a', { href: '#russian', id: 'to-russian', class: 'button-link' }, t('rules-russian-heading')),
    el('a', { href: '#bashni', id: 'to-bashni', class: 'button-link' }, t('rules-bashni-heading')));
  append(app, el('div', { class: 'rules' },
    el('h1', null, t('rules-heading')),
    el('p', { class: 'rules-intro' }, t('rules-intro')),
    contents,
    gameSection('russian', RUSSIAN_RULES, RUSSIAN_DRAWS),
    gameSection('bashni', BASHNI_RULES, BASHNI_DRAWS)));
  const asked = askedVariant(location.search, location.hash);
  if (asked) {
    const section = document.getElementById(asked);
    section.dataset.asked = 'true';
    section.scrollIntoView();
  }
}

// One game's part: how it starts, its rules with their boards, how it is won, its draws.
function gameSection(variant, rules, draws) {
  return el('section', { id: variant, class: 'rules-game', dataset: { variant } },
    el('h2', null, t(gameMessage(variant, 'heading'))),
    el('p', { class: 'rules-intro' }, t(gameMessage(variant, 'intro'))),
    el('div', { class: 'rules-grid' }, rules.map((rule) => ruleCard(variant, rule))),
    el('div', { class: 'card rules-draws', id: variant + '-draws' },
      el('h3', null, t('rules-draws-heading')),
      el('ul', null, draws.map((name) => el('li', { dataset: { draw: name } }, t(ruleMessage(name, '')))))));
}

// A rule: its words, its board, and the buttons that show its move or set it up again.
function ruleCard(variant, rule) {
  const title = t(ruleMessage(rule.name, 'title'));
  const note = el('p', { class: 'rule-note', 'aria-live': 'polite' }, t('rules-try'));
  const board = new Board({
    label: t('rules-board-label', { rule: title }),
    onPlay: (move) => play(move),
    // Two moves over the same squares (a Bashni capture may take its prisoners in another
    // order): the example shows the first.
    onChoose: (choice) => play(choice.options[0]),
  });
  board.svg.classList.add('rule-board');
  board.svg.dataset.rule = rule.name;
  let legal = [];
  let ticket = 0;

  const setUp = () => {
    ticket++;
    board.render(rule.towers, {});
    board.setPlayable(legal);
    board.svg.dataset.state = 'start';
    delete board.svg.dataset.played;
    note.textContent = t('rules-try');
  };

  // Plays `move` from the rule's position: the server says what the board is then.
  const play = async (move) => {
    const mine = ++ticket;
    board.setPlayable(null);
    board.render(rule.towers, {});
    try {
      const data = await api('POST', '/api/position',
        { variant, towers: rule.towers, turn: rule.turn, moves: [move.text] });
      if (mine !== ticket) return;
      // In Russian draughts the pieces taken stay on the board until the capture is over
      // (the Turkish strike), so they vanish only at its end; in Bashni each goes under the
      // capturing tower as it is jumped.
      const shown = variant === 'russian' ? Object.assign({}, move, { captured: [] }) : move;
      await board.animate(rule.towers, shown, data.position.towers,
        { last: move.path, captured: move.captured });
      if (mine !== ticket) return;
      board.svg.dataset.state = 'played';
      board.svg.dataset.played = move.text;
      const outcome = data.result && data.result.winner
        ? ' ' + t('rules-outcome-win', { winner: data.result.winner }) : '';
      note.textContent = t('rules-played', { move: move.text }) + outcome;
    } catch (e) {
      note.textContent = e.message;
    }
  };

  const showButton = el('button', { type: 'button', class: 'primary rule-show', disabled: true,
    onclick: () => {
      const move = legal.find((m) => m.text === rule.show);
      if (move) play(move);
    } }, t('rules-show'));
  const againButton = el('button', { type: 'button', class: 'rule-again', onclick: setUp }, t('rules-again'));

  board.render(rule.towers, {});
  board.svg.dataset.state = 'loading';
  api('POST', '/api/position', { variant, towers: rule.towers, turn: rule.turn }).then((data) => {
    legal = data.legal_moves || [];
    showButton.disabled = false;
    setUp();
  }, (e) => {
    board.svg.dataset.state = 'error';
    note.textContent = e.message;
  });

  return el('article', { class: 'card rule', id: 'rule-' + rule.name, dataset: { rule: rule.name, variant } },
    el('h3', null, title),
    el('p', null, t(ruleMessage(rule.name, 'text'))),
    el('div', { class: 'rule-board-wrap' }, board.svg),
    el('div', { class: 'row' }, showButton, againButton),
    note);
}
