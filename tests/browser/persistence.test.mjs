// (d) Reload mid-game and (e) restart the server mid-game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPage, tempDb, stateOf, waitTurnOrEnd, clickPath,
  moveListTexts, boardData, gameIdOf, tokenOf,
} from './harness.mjs';

let server; let browser; let tmp;

before(async () => {
  tmp = tempDb();
  server = await startServer({ db: tmp.db });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.kill();
  if (tmp) tmp.remove();
});

async function playOneMove(page) {
  const st = await stateOf(page, server.url);
  const what = await waitTurnOrEnd(page, st.moves.length);
  assert.equal(what, 'move', 'the game goes on');
  const now = await stateOf(page, server.url);
  await clickPath(page, now.legal_moves[0].path);
  try {
    await page.waitForFunction((n) => Number(document.querySelector('svg.board')?.dataset.plies) > n,
      now.moves.length, { timeout: 15000, polling: 50 });
  } catch (e) {
    const info = await page.evaluate(() => ({
      message: document.getElementById('message').textContent,
      connection: document.getElementById('connection').textContent,
      board: { ...document.querySelector('svg.board').dataset },
    }));
    throw new Error('the move did not arrive: ' + JSON.stringify(info) + '\n' + server.stderr());
  }
  // wait for the engine's answer too
  await waitTurnOrEnd(page, now.moves.length + 2);
}

async function startRestartable(port) {
  // the port may need a moment to be free again
  for (let i = 0; ; i++) {
    try {
      return await startServer({ db: tmp.db, addr: '127.0.0.1:' + port });
    } catch (e) {
      if (i >= 20) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

test('reload keeps the seat and the moves; a server restart loses nothing', { timeout: 120000 }, async () => {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(server.url + '/');
    await page.selectOption('#mode', 'engine');
    await page.selectOption('#variant', 'bashni');
    await page.selectOption('#level', '1');
    await page.selectOption('#color', 'black');
    await page.click('#create');
    await page.waitForURL(/\/g\/[^/]+$/);
    await page.waitForSelector('svg.board[data-version]');
    const id = gameIdOf(page);
    const token = await tokenOf(page, id);
    assert.match(token, /^[0-9a-f]{32}$/);
    assert.equal((await boardData(page)).flipped, 'true', 'Black plays from the top of the screen by default');

    for (let i = 0; i < 3; i++) await playOneMove(page);
    const beforeReload = await moveListTexts(page);
    assert.ok(beforeReload.length >= 6, 'engine answered: ' + beforeReload.join(' '));

    // (d) reload
    await page.reload();
    await page.waitForSelector('svg.board[data-version]');
    await page.waitForFunction((n) => Number(document.querySelector('svg.board')?.dataset.plies) >= n, beforeReload.length);
    const data = await boardData(page);
    assert.equal(data.you, 'black', 'same seat after a reload');
    assert.equal(await tokenOf(page, id), token);
    assert.deepEqual(await moveListTexts(page), beforeReload, 'same moves after a reload');
    await playOneMove(page);
    const beforeKill = await moveListTexts(page);
    assert.ok(beforeKill.length > beforeReload.length);

    // (e) the server dies and comes back on the same port and database
    const port = server.port;
    await server.kill();
    await page.waitForSelector('#connection:not([hidden])', { timeout: 15000 });
    server = await startRestartable(port);
    await page.waitForSelector('#connection', { state: 'hidden', timeout: 20000 });
    await page.waitForFunction(() => document.querySelector('svg.board')?.dataset.connected === 'true');
    assert.deepEqual(await moveListTexts(page), beforeKill, 'every move is still there');
    assert.equal((await boardData(page)).you, 'black');
    await playOneMove(page);
    const afterRestart = await moveListTexts(page);
    assert.ok(afterRestart.length >= beforeKill.length + 2, 'the game went on with the engine');
    assert.deepEqual(afterRestart.slice(0, beforeKill.length), beforeKill);
    // the new moves arrived live over the new connection, and a reload agrees
    await page.reload();
    await page.waitForSelector('svg.board[data-version]');
    await page.waitForFunction((n) => Number(document.querySelector('svg.board')?.dataset.plies) >= n, afterRestart.length);
    assert.deepEqual(await moveListTexts(page), afterRestart);
    assert.deepEqual(page.__errors || [], []);
  } finally {
    await context.close();
  }
});
