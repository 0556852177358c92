// (f) Download a game as PDN from its page and upload it back from the home page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  startServer, launchBrowser, newPage, tempDb, api, openGameAs, clickPath, stateOf,
  moveListTexts, boardData, waitPlies,
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

test('PDN export and import give the same moves', { timeout: 90000 }, async () => {
  const created = await api(server.url, 'POST', '/api/games', {
    variant: 'bashni', mode: 'local', name: 'North', opponent_name: 'South',
  });
  const { context, page } = await newPage(browser);
  try {
    await openGameAs(page, server.url, created);
    // Ten plies at one screen, clicked; some captures come up on the way.
    for (let i = 0; i < 10; i++) {
      const st = await stateOf(page, server.url);
      if (st.result) break;
      const move = st.legal_moves[st.legal_moves.length > 1 ? 1 : 0];
      await clickPath(page, move.path);
      await waitPlies(page, i + 1);
    }
    const original = await moveListTexts(page);
    assert.equal(original.length, 10);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#pdn-link'),
    ]);
    const file = join(tmp.dir, 'game.pdn');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /\[White "North"\]/);
    assert.match(text, /\[GameType "?(60|Bashni)/i);

    await page.goto(server.url + '/');
    await page.setInputFiles('#pdn-file', file);
    await page.click('#pdn-upload');
    await page.waitForSelector('#pdn-results .record-link');
    assert.equal(await page.locator('#pdn-results .pdn-error').count(), 0);
    assert.equal(await page.locator('#pdn-results .record-link').count(), 1);
    await page.click('#pdn-results .record-link');
    await page.waitForURL(/\/g\/[^/]+$/);
    await page.waitForSelector('svg.board[data-version]');
    const record = await stateOf(page, server.url);
    assert.equal(record.mode, 'record');
    assert.notEqual(record.id, created.id);
    assert.deepEqual(await moveListTexts(page), original, 'the record has the same moves');
    // a record is a replay: no move controls, but stepping through works
    assert.equal((await boardData(page)).canMove, 'false');
    assert.equal(await page.locator('#move-form').isVisible(), false);
    assert.equal(await page.locator('#resign').count(), 0);
    await page.keyboard.press('Home');
    assert.equal((await boardData(page)).view, '-1');
    let drawn = await page.$$eval('.layer-pieces .tower', (ns) => Object.fromEntries(ns.map((n) => [n.dataset.at, n.dataset.tower])));
    assert.deepEqual(drawn, record.start.towers);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal((await boardData(page)).view, '1');
    drawn = await page.$$eval('.layer-pieces .tower', (ns) => Object.fromEntries(ns.map((n) => [n.dataset.at, n.dataset.tower])));
    assert.deepEqual(drawn, record.moves[1].after.towers);
    await page.click('#moves .mv[data-ply="4"]');
    assert.equal((await boardData(page)).view, '4');
    await page.keyboard.press('End');
    assert.equal((await boardData(page)).view, 'live');
  } finally {
    await context.close();
  }
});
