// Layout a regular player tripped over: long scores from "analyse each move" ("White wins in
// 4", in Russian longer still) broke the move list's columns, so that a Black move started a
// row without its number; and at 1280x860 the tower inspector sat under the board, below the
// bottom of the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, api, openGameAs } from './harness.mjs';

const site = useSite();

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
  { name: 'desktop', viewport: { width: 1280, height: 860 }, touch: false },
];
const LOCALES = ['en-US', 'ru-RU'];

/** A local game of Russian draughts, six plies from a position the engine sees won for White
 * at once: its scores are "White wins in N", found in a few milliseconds. */
async function wonGame() {
  const g = await api(site.server.url, 'POST', '/api/games',
    { variant: 'russian', mode: 'local', position: 'W:WKa1,Kc1:Bh8,f8' });
  for (let ply = 0; ply < 6; ply++) {
    const s = await api(site.server.url, 'GET', '/api/games/' + g.id, undefined, g.token);
    if (s.result) break;
    await api(site.server.url, 'POST', '/api/games/' + g.id + '/move', { move: s.legal_moves[0].text, ply }, g.token);
  }
  const s = await api(site.server.url, 'GET', '/api/games/' + g.id, undefined, g.token);
  return { ...g, seat: 'both', plies: s.moves.length };
}

/**
 * The move list `list` as it is drawn: each row's number and moves with their boxes, the
 * scores' boxes, and the list's box. Reads only what a player sees: a row is the moves drawn on
 * one line, whatever the elements are.
 */
async function drawnList(page, list) {
  return page.$eval(list, (box) => {
    const r = (n) => { const b = n.getBoundingClientRect(); return { top: b.top, bottom: b.bottom, left: b.left, right: b.right }; };
    const moves = [...box.querySelectorAll('.mv[data-ply], .mv[data-node]')]
      .filter((n) => !n.closest('.tree-line.variation'))
      .map((n) => ({ text: n.textContent, ...r(n) }));
    const numbers = [...box.querySelectorAll('.num')].map((n) => ({ text: n.textContent, ...r(n) }));
    const scores = [...box.querySelectorAll('.eval')].map((n) => ({ text: n.textContent, title: n.title, ...r(n) }));
    return { box: r(box), moves, numbers, scores };
  });
}

/** Asserts the list keeps number | White's move | Black's move on each row. */
function assertColumns(drawn, plies, what) {
  const say = (m) => what + ': ' + m + '\n' + JSON.stringify(drawn);
  assert.equal(drawn.moves.length, plies, say('every move is listed'));
  // The moves in reading order, two to a row, White first (the game starts with White).
  for (let i = 0; i < drawn.moves.length; i += 2) {
    const white = drawn.moves[i];
    const black = drawn.moves[i + 1];
    const number = drawn.numbers.find((n) => Math.abs(n.top - white.top) < 4 && n.right <= white.left + 1);
    assert.ok(number, say('move ' + white.text + ' has its number on its row'));
    assert.equal(number.text.trim(), (i / 2 + 1) + '.', say('the row of ' + white.text + ' is numbered'));
    if (black) {
      assert.ok(Math.abs(black.top - white.top) < 4, say(black.text + ' is on the row of ' + white.text));
      assert.ok(black.left >= white.right, say(black.text + ' is right of ' + white.text));
    }
  }
  // Columns: White's moves all start at one left edge, Black's at another.
  const lefts = (k) => [...new Set(drawn.moves.filter((_, i) => i % 2 === k).map((m) => Math.round(m.left)))];
  assert.equal(lefts(0).length, 1, say("White's moves in one column"));
  assert.equal(lefts(1).length, 1, say("Black's moves in one column"));
  // The scores stay inside the list, none widening it; a long one has its whole text in its title.
  assert.ok(drawn.scores.length >= plies - 1, say('the scores are shown'));
  for (const s of drawn.scores) {
    assert.ok(s.left >= drawn.box.left - 1 && s.right <= drawn.box.right + 1, say('score ' + s.text + ' inside the list'));
  }
}

test('long scores keep the move list in its columns, on the game page and the analysis board, on a phone and a desktop, in English and Russian', { timeout: 180000 }, async () => {
  const game = await wonGame();
  assert.ok(game.plies >= 5, 'the game has its moves: ' + game.plies);
  const long = { 'en-US': /^White wins in \d+$/, 'ru-RU': /^Белые выигрывают за \d+ ход/ };
  for (const size of SIZES) {
    for (const locale of LOCALES) {
      const what = size.name + ', ' + locale;
      const { context, page } = await newPage(site.browser, { viewport: size.viewport, touch: size.touch, locale });
      try {
        // The game page: Analyse, then "analyse each move".
        await openGameAs(page, site.server.url, game);
        // The engine's lines of the start position (White wins) say the win for the side that
        // wins, in the page's language.
        await page.click('#nav-first');
        await page.click('#analyse');
        await page.waitForSelector('.analysis-result .score');
        const lineScores = await page.$$eval('.analysis-result .score', (ns) => ns.map((n) => n.textContent));
        assert.ok(lineScores.length > 0, what + ': the lines of the engine');
        for (const s of lineScores) {
          assert.match(s, locale === 'ru-RU' ? /^(Белые|Чёрные) выигрывают за \d+/ : /^(White|Black) wins in \d+$/, what + ': ' + s);
        }
        await page.click('#nav-last');
        await page.click('#analyse-each');
        await page.waitForFunction((n) => document.querySelectorAll('#moves .eval').length >= n, game.plies, { timeout: 30000 });
        const onGame = await drawnList(page, '#moves');
        assert.ok(onGame.scores.some((s) => long[locale].test(s.text) && s.title === s.text), what + ': a long score in the page\'s language: ' + JSON.stringify(onGame.scores));
        assertColumns(onGame, game.plies, what + ', game page');
        // The analysis board: the evaluation graph scores the main line.
        await page.goto(site.server.url + '/analysis?game=' + game.id);
        await page.waitForSelector('svg.board[data-node]');
        await page.click('#graph');
        await page.waitForFunction((n) => document.querySelectorAll('#tree .eval').length >= n, game.plies, { timeout: 30000 });
        const onBoard = await drawnList(page, '#tree');
        assert.ok(onBoard.scores.some((s) => long[locale].test(s.text)), what + ': a long score on the analysis board: ' + JSON.stringify(onBoard.scores));
        assertColumns(onBoard, game.plies, what + ', analysis board');
        assert.deepEqual(page.__errors || [], []);
      } finally {
        await context.close();
      }
    }
  }
});

test('the tower inspector is on the screen without scrolling, beside the board on a desktop and under it on a phone', { timeout: 60000 }, async () => {
  const game = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  for (const size of SIZES) {
    for (const locale of LOCALES) {
      const what = size.name + ', ' + locale;
      const { context, page } = await newPage(site.browser, { viewport: size.viewport, touch: size.touch, locale });
      try {
        await openGameAs(page, site.server.url, { ...game, seat: 'both' });
        await page.waitForSelector('#resign');
        // A tap shows a tower on a phone, pointing at it on a desktop.
        if (size.touch) await page.tap('[data-square="c3"]');
        else await page.hover('[data-square="c3"]');
        await page.waitForFunction(() => /^c3: /.test((document.getElementById('inspector')?.textContent ?? '')));
        const boxes = await page.evaluate(() => {
          const box = (n) => { const b = n.getBoundingClientRect(); return { top: b.top, bottom: b.bottom, left: b.left, right: b.right, width: b.width }; };
          return {
            inspector: box(document.getElementById('inspector')),
            board: box(document.querySelector('svg.board')),
            scrolled: window.scrollY,
          };
        });
        const say = what + ': ' + JSON.stringify(boxes);
        const { width, height } = size.viewport;
        assert.equal(boxes.scrolled, 0, say);
        const i = boxes.inspector;
        assert.ok(i.top >= 0 && i.bottom <= height && i.left >= 0 && i.right <= width, 'the inspector is on the screen: ' + say);
        assert.ok(i.width > 150, 'the inspector has room: ' + say);
        if (size.name === 'desktop') {
          assert.ok(i.left >= boxes.board.right, 'beside the board: ' + say);
          assert.ok(i.top < boxes.board.top + boxes.board.width / 2, 'near the top: ' + say);
        } else {
          assert.ok(i.top >= boxes.board.bottom, 'under the board: ' + say);
        }
      } finally {
        await context.close();
      }
    }
  }
});
