// (f) Download a game as PDN from its page and upload it back from the home page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  useSite, newPage, api, openGameAs, clickPath, stateOf, moveListTexts, boardData, waitPlies,
} from './harness.mjs';

const site = useSite();

test('PDN export and import give the same moves', { timeout: 90000 }, async () => {
  const created = await api(site.server.url, 'POST', '/api/games', {
    variant: 'bashni', mode: 'local', name: 'North', opponent_name: 'South',
  });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    // Ten plies at one screen, clicked; some captures come up on the way.
    for (let i = 0; i < 10; i++) {
      const st = await stateOf(page, site.server.url);
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
    const file = join(site.tmp.dir, 'game.pdn');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /\[White "North"\]/);
    assert.match(text, /\[GameType "?(60|Bashni)/i);

    await page.goto(site.server.url + '/');
    await page.setInputFiles('#pdn-file', file);
    await page.click('#pdn-upload');
    await page.waitForSelector('#pdn-results .record-link');
    assert.equal(await page.locator('#pdn-results .pdn-error').count(), 0);
    assert.equal(await page.locator('#pdn-results .record-link').count(), 1);
    await page.click('#pdn-results .record-link');
    await page.waitForURL(/\/g\/[^/]+$/);
    await page.waitForSelector('svg.board[data-version]');
    const record = await stateOf(page, site.server.url);
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

test('a finished game downloaded and uploaded again shows why it ended', { timeout: 60000 }, async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local', name: 'East', opponent_name: 'West' });
  await api(site.server.url, 'POST', '/api/games/' + created.id + '/move', { move: 'c3-d4' }, created.token);
  await api(site.server.url, 'POST', '/api/games/' + created.id + '/resign', {}, created.token);
  const played = await api(site.server.url, 'GET', '/api/games/' + created.id);
  const pdn = await (await fetch(site.server.url + '/api/games/' + created.id + '/pdn')).text();
  assert.match(pdn, /\[Termination "[^"]+"\]/);
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/');
    await page.fill('#pdn-text', pdn);
    await page.click('#pdn-upload');
    await page.click('#pdn-results .record-link');
    await page.waitForSelector('#result:not([hidden])');
    const shown = await page.textContent('#result');
    assert.ok(shown.includes(played.result.reason), shown + ' / ' + played.result.reason);
    assert.ok(shown.startsWith(played.result.score), shown);
  } finally {
    await context.close();
  }
});

test('a refused typed move says why once, as a sentence', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    await page.fill('#move-input', 'c3-e5');
    await page.press('#move-input', 'Enter');
    await page.waitForSelector('#message.error');
    const text = await page.textContent('#message');
    assert.equal(text.split('c3-e5').length - 1, 1, 'the move is named once: ' + text);
    assert.ok(!/^[a-z]/.test(text), 'it starts as a sentence: ' + text);
    assert.match(text, /legal moves/i);
  } finally {
    await context.close();
  }
});
