// The puzzle trainer: a puzzle of each game solved right (the replies played by the page)
// and one missed, the guest's rating kept in the browser going up and down; an account's
// rating on the server, counted once per puzzle; the page in Russian; the daily puzzles on
// the start page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSite, newPage, clickPath, REPO } from './harness.mjs';

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
    assert.match(await page.textContent('#puzzle-task'), /^Найдите лучший ход за (белых|чёрных)$/);
    await solve(page, puzzle);
    assert.equal(await page.textContent('#puzzle-verdict'), 'Решено!');
    const first = await shownRating(page);
    assert.ok(first > 1500, `solving raises it: ${first}`);
    assert.equal(await page.getAttribute('#puzzle-rating', 'data-counted'), 'true');
    // The same puzzle again: no change.
    await open(page, puzzle.id);
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
