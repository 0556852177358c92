// The people in a game: two players chat while a watcher has a room of their own and cannot
// write in the players' room; a mute; who is online; and the claim when a player leaves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, tempDb, newPage, api, openGameAs, waitPlies,
} from './harness.mjs';

let server;
let browser;
let tmp;

before(async () => {
  tmp = tempDb();
  // A short wait before a claim, so that the test need not wait a minute.
  server = await startServer({ db: tmp.db, args: ['--abandon-after-secs', '2'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (tmp) tmp.remove();
});

// The texts of the lines the chat panel shows now.
function shownLines(page) {
  return page.$$eval('#chat-lines .chat-line', (nodes) => nodes.map((n) => n.textContent));
}

async function write(page, text) {
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
  await page.waitForFunction(() => document.querySelector('#chat-input').value === '');
}

test('two players chat, a watcher cannot write to them, mute, presence and a claim', { timeout: 120000 }, async () => {
  const base = server.url;
  const created = await api(base, 'POST', '/api/games', {
    variant: 'russian', mode: 'friend', color: 'white', name: 'Anna', time: { minutes: 5 },
  });
  const id = created.id;
  const invite = created.invite_url.split('/').pop();
  const joined = await api(base, 'POST', '/api/games/' + id + '/join', { invite, name: 'Boris' });
  const a = await newPage(browser);
  const b = await newPage(browser);
  const c = await newPage(browser);
  try {
    await openGameAs(a.page, base, created);
    await openGameAs(b.page, base, { id, token: joined.token, seat: joined.seat });
    await c.page.goto(base + '/g/' + id);
    await c.page.waitForSelector('svg.board[data-version]');

    // Who is online: both players, as everyone sees it.
    for (const p of [a.page, c.page]) {
      await p.waitForSelector('#presence-black[data-online="true"]');
      await p.waitForSelector('#presence-white[data-online="true"]');
    }
    assert.equal(await a.page.textContent('#presence-black'), 'online');

    // While the game goes on, the players have their room and the watcher theirs.
    await a.page.waitForSelector('#chat-input');
    assert.equal(await a.page.getAttribute('#chat-lines', 'data-room'), 'players');
    assert.equal(await a.page.locator('#chat-tab-watchers').count(), 0, 'a player reads the watchers during play');
    await c.page.waitForSelector('#chat-input');
    assert.equal(await c.page.locator('#chat-tab-players').count(), 0, 'no players\' room for a watcher');
    assert.equal(await c.page.getAttribute('#chat-lines', 'data-room'), 'watchers');

    // Anna writes; Boris reads it as text, markup and all.
    await a.page.fill('#chat-input', '  <b>Good luck</b>  ');
    assert.equal(await a.page.textContent('#chat-count'), '16/300');
    await a.page.click('#chat-send');
    await b.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 1);
    assert.deepEqual(await shownLines(b.page), ['Anna: <b>Good luck</b>']);
    assert.equal(await b.page.locator('#chat-lines b').count(), 0, 'the line was read as markup');
    assert.equal(await a.page.getAttribute('#chat-input', 'maxlength'), '300');

    // The watcher writes in their room; the players do not read it while they play.
    await c.page.fill('#chat-name', 'Oleg');
    await write(c.page, 'Nice game');
    await c.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 1);
    assert.deepEqual(await shownLines(c.page), ['Oleg: Nice game'], 'the players\' line never reached the watcher');
    await a.page.waitForTimeout(500);
    assert.equal(await a.page.locator('#chat-tab-watchers').count(), 0);
    assert.deepEqual(await shownLines(a.page), ['Anna: <b>Good luck</b>'], 'a watcher\'s line reached a player');

    // The server refuses the watcher's line in the players' room, whatever the page offers.
    const refused = await c.page.evaluate((gameId) => new Promise((resolve) => {
      const ws = new WebSocket('ws://' + location.host + '/api/games/' + gameId + '/ws');
      ws.onmessage = (ev) => {
        const msg = JSON.parse(ev.data);
        if (msg.id === 1) { resolve(msg); ws.close(); }
      };
      ws.onopen = () => ws.send(JSON.stringify({ type: 'chat', id: 1, room: 'players', text: 'play e5' }));
    }), id);
    assert.equal(refused.type, 'error');
    assert.equal(refused.code, 'forbidden');

    // Boris mutes Anna: her next line does not reach him; unmuted, he sees it.
    await b.page.click('#chat-mute');
    await b.page.waitForFunction(() => document.querySelector('#chat-mute').textContent === 'Unmute Anna');
    assert.deepEqual(await shownLines(b.page), [], 'the muted player\'s lines are hidden');
    await write(a.page, 'Can you hear me?');
    await a.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 2);
    await b.page.waitForTimeout(500);
    assert.deepEqual(await shownLines(b.page), []);
    await b.page.click('#chat-mute');
    await b.page.waitForFunction(() => document.querySelector('#chat-mute').textContent === 'Mute Anna');
    await b.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 2);
    assert.deepEqual(await shownLines(b.page), ['Anna: <b>Good luck</b>', 'Anna: Can you hear me?']);

    // Both sides move, and Black is to move.
    await api(base, 'POST', '/api/games/' + id + '/move', { move: 'c3-d4', ply: 0 }, created.token);
    await api(base, 'POST', '/api/games/' + id + '/move', { move: 'f6-g5', ply: 1 }, joined.token);
    await api(base, 'POST', '/api/games/' + id + '/move', { move: 'g3-h4', ply: 2 }, created.token);
    for (const p of [a.page, c.page]) await waitPlies(p, 3);
    assert.equal(await a.page.locator('#abandon-box').isVisible(), false);

    // Boris closes his page: he is offline, and after the wait Anna claims the win.
    await b.context.close();
    await a.page.waitForSelector('#presence-black[data-online="false"]');
    assert.equal(await a.page.textContent('#presence-black'), 'offline');
    await a.page.waitForSelector('#abandon-box:not([hidden])');
    assert.match(await a.page.textContent('#abandon-text'), /Boris left the game\. If they do not come back, you can claim the win in \d s\./);
    assert.equal(await a.page.locator('#claim-win').isVisible(), false, 'no claim before the time has passed');
    await c.page.waitForSelector('#abandon-box:not([hidden])');
    assert.match(await c.page.textContent('#abandon-text'), /^Boris is offline\. Anna can claim the game in \d s\.$/);
    assert.equal(await c.page.locator('#claim-win').count(), 0, 'a watcher cannot claim');
    await a.page.waitForSelector('#claim-win', { state: 'visible', timeout: 10000 });
    assert.equal(await a.page.textContent('#abandon-text'), 'Boris left the game. You can claim the win or a draw now.');
    await a.page.click('#claim-win');
    for (const p of [a.page, c.page]) {
      await p.waitForSelector('#result:not([hidden])');
      assert.equal(await p.getAttribute('#result', 'data-code'), 'abandoned');
      assert.equal(await p.textContent('#result'), '1-0 White wins. Black left the game');
      assert.equal(await p.locator('#abandon-box').isVisible(), false);
    }
    // Once the game is over the players may read the watchers' room, but not write in it.
    await a.page.waitForSelector('#chat-tab-watchers');
    await a.page.click('#chat-tab-watchers');
    await a.page.waitForFunction(() => document.querySelector('#chat-lines').dataset.room === 'watchers');
    assert.deepEqual(await shownLines(a.page), ['Oleg: Nice game']);
    assert.equal(await a.page.locator('#chat-form').isVisible(), false, 'no input in the watchers\' room for a player');
    assert.equal(await a.page.textContent('#chat-note'), 'Only watchers write here.');
    const pdn = await (await fetch(base + '/api/games/' + id + '/pdn')).text();
    assert.match(pdn, /\[Termination "Black left the game"\]/);
    assert.match(pdn, /\[Result "1-0"\]/);
    for (const p of [a.page, c.page]) assert.deepEqual(p.__errors || [], []);
  } finally {
    for (const x of [a, b, c]) await x.context.close();
  }
});
