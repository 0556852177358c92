// A correspondence game between two browser contexts: days per move chosen on the start
// page, the deadline in words, the same deadline after the server is stopped and started
// again on the same database file, and the "Your turn" list of the start page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, tempDb, stateOf, gameIdOf, waitPlies, clickPath,
} from './harness.mjs';

let server; let browser; let tmp;

before(async () => {
  tmp = tempDb();
  server = await startServer({ db: tmp.db });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (tmp) tmp.remove();
});

async function restartOnSamePort(port) {
  // The port may need a moment to be free again.
  for (let i = 0; ; i++) {
    try {
      return await startServer({ db: tmp.db, addr: '127.0.0.1:' + port });
    } catch (e) {
      if (i >= 20) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

const DAY_MS = 86400000;

// The deadline the game page shows, as a number (0 when none).
async function shownDeadline(page) {
  return Number(await page.getAttribute('#deadline', 'data-deadline-ms') || 0);
}

async function playFirstLegal(page, plies) {
  await page.waitForFunction(() => document.querySelector('svg.board')?.dataset.canMove === 'true');
  const st = await stateOf(page, server.url);
  await clickPath(page, st.legal_moves[0].path);
  await waitPlies(page, plies);
}

test('a correspondence game keeps its deadline across a server restart and shows in "Your turn"', { timeout: 120000 }, async () => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  try {
    // The days per move are offered only for a game with a friend.
    await a.page.goto(server.url + '/');
    await a.page.selectOption('#mode', 'engine');
    assert.equal(await a.page.locator('#time option[value="days"]').isDisabled(), true);
    assert.equal(await a.page.locator('#days').isVisible(), false);
    await a.page.selectOption('#mode', 'friend');
    await a.page.selectOption('#variant', 'russian');
    await a.page.selectOption('#color', 'white');
    await a.page.fill('#name', 'Anna');
    await a.page.selectOption('#time', 'days');
    assert.equal(await a.page.locator('#days').isVisible(), true);
    await a.page.selectOption('#days', '3');
    await a.page.click('#create');
    await a.page.waitForURL(/\/g\/[^/]+$/);
    await a.page.waitForSelector('#invite-link');
    const id = gameIdOf(a.page);
    const invite = await a.page.inputValue('#invite-link');
    assert.match(await a.page.textContent('#deadline'), /3 days per move\. The time starts when both players are in\./);
    assert.equal(await a.page.locator('#clock-white').count(), 0, 'no ticking clock');

    // B joins: White's first deadline starts, three days from now.
    const joinedAt = Date.now();
    await b.page.goto(invite);
    await b.page.waitForFunction(() => /3 days per move/.test((document.getElementById('join-info')?.textContent ?? '')));
    await b.page.fill('#join-name', 'Boris');
    await b.page.click('#join');
    await b.page.waitForURL(new RegExp('/g/' + id + '$'));
    await b.page.waitForSelector('#deadline[data-deadline-ms]:not([data-deadline-ms=""])');
    const first = await shownDeadline(b.page);
    assert.ok(Math.abs(first - (joinedAt + 3 * DAY_MS)) < 60000, 'three days for the first move: ' + first);

    // White moves; Black's deadline is three whole days from the move.
    await a.page.waitForFunction(() => document.getElementById('deadline')?.dataset.deadlineMs);
    await playFirstLegal(a.page, 1);
    await waitPlies(b.page, 1);
    await b.page.waitForFunction((f) => Number(document.getElementById('deadline').dataset.deadlineMs) > f, first);
    const deadline = await shownDeadline(b.page);
    const state = await stateOf(b.page, server.url);
    assert.equal(state.correspondence.deadline_ms, deadline);
    assert.equal(state.clock, null);
    assert.match(await b.page.textContent('#deadline'), /^Black to move: 2 days 23 h left \(3 days per move\)\.$/);
    assert.match(await b.page.textContent('#time-left'), /^2 days 23 h left$/);

    // The server is stopped and started again on the same database file.
    const port = server.port;
    await server.stop();
    await b.page.waitForSelector('#connection:not([hidden])', { timeout: 15000 });
    server = await restartOnSamePort(port);
    for (const p of [a.page, b.page]) {
      await p.waitForSelector('#connection', { state: 'hidden', timeout: 20000 });
    }
    await b.page.reload();
    await b.page.waitForSelector('#deadline[data-deadline-ms]:not([data-deadline-ms=""])');
    assert.equal(await shownDeadline(b.page), deadline, 'the same deadline after the restart');
    assert.equal((await stateOf(b.page, server.url)).correspondence.deadline_ms, deadline);

    // Black moves after the restart; now White is to move.
    await playFirstLegal(b.page, 2);
    await waitPlies(a.page, 2);
    await a.page.waitForFunction((d) => Number(document.getElementById('deadline').dataset.deadlineMs) > d, deadline);
    const whiteDeadline = await shownDeadline(a.page);

    // White's start page lists the game under "Your turn", with the time left; Black's does not.
    await a.page.goto(server.url + '/');
    await a.page.waitForSelector('#your-turn a.turn-link');
    const items = await a.page.$$eval('#your-turn a.turn-link', (links) => links.map((l) => ({
      id: l.dataset.id,
      text: l.textContent,
      deadline: Number(l.querySelector('.time-left')?.dataset.deadlineMs || 0),
    })));
    assert.equal(items.length, 1);
    assert.equal(items[0].id, id);
    assert.equal(items[0].deadline, whiteDeadline);
    assert.match(items[0].text, /Your move against Boris/);
    assert.match(items[0].text, /Russian draughts, 3 days per move, move 2 \(white\)/);
    assert.match(items[0].text, /2 days 23 h left/);
    assert.match(await a.page.title(), /^\(1\) /, 'the tab shows how many games wait');
    const onTop = await a.page.evaluate(() => {
      const list = document.getElementById('your-turn-box');
      const form = document.getElementById('new-game');
      return !!(list.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.equal(onTop, true, 'the list comes before the new-game form');

    await b.page.goto(server.url + '/');
    await b.page.waitForSelector('#your-turn li.empty');
    assert.equal(await b.page.textContent('#your-turn'), 'No game waits for your move.');
    assert.doesNotMatch(await b.page.title(), /^\(/);

    assert.deepEqual(a.page.__errors || [], []);
    assert.deepEqual(b.page.__errors || [], []);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
