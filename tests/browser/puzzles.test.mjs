// The puzzle trainer: a puzzle of each game solved right (the replies played by the page)
// and one missed, the guest's rating kept in the browser going up and down; an account's
// rating on the server, counted once per puzzle; the page in Russian; the daily puzzles on
// the start page; on a phone, moves tapped and typed, nothing wider than the screen; with the
// keyboard alone, a puzzle solved and the next one taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSite, newPage, clickPath, keyTo, REPO } from './harness.mjs';

const site = useSite();

const shipped = readFileSync(join(REPO, 'crates/server/puzzles/shipped.jsonl'), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/** Puzzles of `variant` whose line has a reply in it, then the others. */
function puzzlesOf(variant) {
  const of = shipped.filter((p) => p.variant === variant);
  return of.filter((p) => p.line.length >= 3).concat(of.filter((p) => p.line.length < 3));
}

const squares = (text) => text.split(/[-:]/);

async function open(page, id) {
  await page.goto(site.server.url + '/puzzles/' + id);
  await page.waitForSelector(`svg.board[data-puzzle="${id}"][data-waiting="player"]`);
}

async function shownRating(page) {
  await page.waitForSelector('#puzzle-rating[data-counted]');
  return Number(await page.getAttribute('#puzzle-rating', 'data-rating'));
}

/** Plays the solver's moves of `puzzle`'s line, waiting for each reply. */
async function solve(page, puzzle) {
  for (let i = 0; i < puzzle.line.length; i += 2) {
    await page.waitForSelector(`svg.board[data-done="${i}"][data-waiting="player"]`);
    await clickPath(page, squares(puzzle.line[i]));
  }
  await page.waitForSelector('svg.board[data-state="solved"]');
}

/** Plays a legal first move that is not the solution's. */
async function miss(page, puzzle) {
  const legal = await page.evaluate(async (id) => {
    const r = await fetch('/api/puzzles/' + id);
    return (await r.json()).start.legal_moves;
  }, puzzle.id);
  const wrong = legal.find((m) => m.text !== puzzle.line[0]);
  assert.ok(wrong, 'the puzzle has another move');
  await clickPath(page, wrong.path);
  await page.waitForSelector('svg.board[data-state="wrong"]');
  return wrong.text;
}

for (const variant of ['russian', 'bashni']) {
  test(`a ${variant} puzzle solved right raises the guest's rating, a missed one lowers it`, { timeout: 90000 }, async () => {
    const [right, wrong] = puzzlesOf(variant);
    const { context, page } = await newPage(site.browser);
    try {
      await open(page, right.id);
      const solver = right.position.endsWith('Black to move') ? 'Black' : 'White';
      assert.equal(await page.textContent('#puzzle-task'), `Find the best move for ${solver}`);
      await solve(page, right);
      assert.equal(await page.textContent('#puzzle-verdict'), 'Solved!');
      const up = await shownRating(page);
      assert.ok(up > 1500, `solving raises the rating: ${up}`);
      const kept = JSON.parse(await page.evaluate((v) => localStorage.getItem('bashni.puzzle-rating.' + v), variant));
      assert.equal(Math.round(kept.rating), up, 'the browser keeps it');
      // The opponent's replies were played by the page: the whole line is on the board.
      assert.equal(await page.getAttribute('svg.board', 'data-done'), String(right.line.length));

      await open(page, wrong.id);
      const played = await miss(page, wrong);
      assert.match(await page.textContent('#puzzle-verdict'), new RegExp(played.replace(/[-:]/g, '.') + ' is not the move'));
      assert.match(await page.textContent('#puzzle-solution'), new RegExp(wrong.line[0]));
      const down = await shownRating(page);
      assert.ok(down < up, `a miss lowers the rating: ${up} -> ${down}`);
      assert.deepEqual(page.__errors || [], []);
    } finally {
      await context.close();
    }
  });
}

test("an account's puzzle rating changes once per puzzle, and the page speaks Russian", { timeout: 90000 }, async () => {
  const puzzle = puzzlesOf('bashni')[2];
  const { context, page } = await newPage(site.browser, { locale: 'ru-RU' });
  try {
    await page.goto(site.server.url + '/login');
    await page.fill('#signup-name', 'Solver');
    await page.fill('#signup-password', 'correct horse');
    await page.fill('#signup-again', 'correct horse');
    await page.click('#signup');
    await page.waitForURL(/\/players\/Solver$/);
    await open(page, puzzle.id);
    // The account's rating is shown before its first attempt.
    await page.waitForSelector('#puzzle-rating[data-rating="1500"]');
    assert.match(await page.textContent('#puzzle-rating'), /: 1\s?500$/);
    assert.match(await page.textContent('#puzzle-task'), /^Найдите лучший ход за (белых|чёрных)$/);
    await solve(page, puzzle);
    assert.equal(await page.textContent('#puzzle-verdict'), 'Решено!');
    const first = await shownRating(page);
    assert.ok(first > 1500, `solving raises it: ${first}`);
    assert.equal(await page.getAttribute('#puzzle-rating', 'data-counted'), 'true');
    // The same puzzle again: no change.
    await open(page, puzzle.id);
    await page.waitForSelector(`#puzzle-rating[data-rating="${first}"]`);
    await solve(page, puzzle);
    assert.equal(await shownRating(page), first);
    assert.equal(await page.getAttribute('#puzzle-rating', 'data-counted'), 'false');
    // The next puzzle is another one.
    await page.click('#puzzle-next');
    await page.waitForFunction((id) => {
      const board = document.querySelector('svg.board');
      return board && board.dataset.puzzle && board.dataset.puzzle !== id;
    }, puzzle.id);
  } finally {
    await context.close();
  }
});

test('the start page shows the daily puzzle of both games', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/');
    await page.waitForSelector('#daily-puzzle a.daily[data-variant="russian"]');
    await page.waitForSelector('#daily-puzzle a.daily[data-variant="bashni"]');
    await page.click('#daily-puzzle a.daily[data-variant="bashni"]');
    await page.waitForSelector('svg.board[data-puzzle][data-waiting="player"]');
    assert.match(page.url(), /\/puzzles\/b[0-9a-f]{12}$/);
  } finally {
    await context.close();
  }
});

test('on a phone a puzzle is solved by taps and a typed move, and fits the screen', { timeout: 90000 }, async () => {
  // A puzzle with two moves of the solver: the first tapped, the second typed.
  const puzzle = puzzlesOf('russian').find((p) => p.line.length >= 3);
  const { context, page } = await newPage(site.browser, { viewport: { width: 390, height: 844 }, touch: true });
  try {
    await open(page, puzzle.id);
    const boxes = await page.evaluate(() => {
      const b = document.querySelector('svg.board').getBoundingClientRect();
      return { left: b.left, right: b.right, wide: document.documentElement.scrollWidth };
    });
    assert.ok(boxes.left >= 0 && boxes.right <= 390, 'the board is on the screen: ' + JSON.stringify(boxes));
    assert.ok(boxes.wide <= 390, 'nothing is wider than the screen: ' + JSON.stringify(boxes));
    const path = squares(puzzle.line[0]);
    await page.tap(`[data-square="${path[0]}"]`);
    for (let i = 1; i < path.length; i++) {
      const chosen = await page.evaluate(() => document.querySelector('svg.board').dataset.chosen || '');
      if (!chosen) break;
      await page.tap(`[data-square="${path[i]}"]`);
    }
    await page.waitForSelector('svg.board[data-done="2"][data-waiting="player"]');
    // A move that cannot be played is refused with a word, and the puzzle goes on.
    await page.fill('#puzzle-move-input', 'a1-h8');
    await page.press('#puzzle-move-input', 'Enter');
    await page.waitForFunction(() => /cannot be played here/.test(document.getElementById('puzzle-verdict').textContent));
    assert.equal(await page.getAttribute('svg.board', 'data-state'), 'playing');
    for (let i = 2; i < puzzle.line.length; i += 2) {
      await page.waitForSelector(`svg.board[data-done="${i}"][data-waiting="player"]`);
      await page.fill('#puzzle-move-input', puzzle.line[i]);
      await page.press('#puzzle-move-input', 'Enter');
    }
    await page.waitForSelector('svg.board[data-state="solved"]');
    assert.ok(await shownRating(page) > 1500);
    assert.deepEqual(page.__errors || [], []);
  } finally {
    await context.close();
  }
});

test('with the keyboard alone a puzzle is solved and the next one taken', { timeout: 90000 }, async () => {
  const puzzle = puzzlesOf('bashni').find((p) => p.line.length >= 3 && p.position.endsWith('White to move'));
  const { context, page } = await newPage(site.browser);
  try {
    await open(page, puzzle.id);
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement && document.activeElement.matches('svg.board'))) break;
    }
    assert.equal(await page.evaluate(() => document.activeElement.matches('svg.board')), true, 'the board takes the focus');
    for (let i = 0; i < puzzle.line.length; i += 2) {
      await page.waitForSelector(`svg.board[data-done="${i}"][data-waiting="player"]`);
      const path = squares(puzzle.line[i]);
      for (let k = 0; k < path.length; k++) {
        if (k > 0 && !(await page.evaluate(() => document.querySelector('svg.board').dataset.chosen || ''))) break;
        await keyTo(page, path[k]);
        await page.keyboard.press('Enter');
      }
    }
    await page.waitForSelector('svg.board[data-state="solved"]');
    await page.keyboard.press('n');
    await page.waitForFunction((id) => {
      const board = document.querySelector('svg.board');
      return board && board.dataset.puzzle && board.dataset.puzzle !== id && board.dataset.state === 'playing';
    }, puzzle.id);
    assert.deepEqual(page.__errors || [], []);
  } finally {
    await context.close();
  }
});
