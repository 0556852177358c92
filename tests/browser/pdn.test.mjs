// (f) Download a game as PDN from its page and upload it back from the home page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
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
    assert.equal(await page.locator('#record-notes').count(), 0, 'no notes, no hint');
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
  await api(site.server.url, 'POST', '/api/games/' + created.id + '/move', { move: 'c3-d4', ply: 0 }, created.token);
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
    assert.ok(shown.toLowerCase().includes(played.result.reason.toLowerCase()), shown + ' / ' + played.result.reason);
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

test('an old Windows-1251 file without GameType is read, and the page says how', { timeout: 60000 }, async () => {
  // "Иванов" and "Кубок" in Windows-1251 bytes; no GameType; only Russian draughts fits.
  const bytes = Buffer.concat([
    Buffer.from('[Event "'), Buffer.from([0xCA, 0xF3, 0xE1, 0xEE, 0xEA]), Buffer.from('"]\n'),
    Buffer.from('[White "'), Buffer.from([0xC8, 0xE2, 0xE0, 0xED, 0xEE, 0xE2]), Buffer.from('"]\n\n'),
    Buffer.from('1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 e7-f6 *\n'),
  ]);
  const file = join(site.tmp.dir, 'old-club.pdn');
  writeFileSync(file, bytes);
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/');
    await page.setInputFiles('#pdn-file', file);
    await page.click('#pdn-upload');
    await page.waitForSelector('#pdn-results .record-link');
    const warnings = await page.$$eval('#pdn-results .pdn-warnings li', (ns) => ns.map((n) => n.textContent));
    assert.ok(warnings.some((w) => w.includes('no GameType; read as Russian draughts')), warnings.join(' | '));
    assert.ok(warnings.some((w) => w.includes('read as windows-1251')), warnings.join(' | '));
    await page.click('#pdn-results .record-link');
    await page.waitForURL(/\/g\/[^/]+$/);
    await page.waitForSelector('svg.board[data-version]');
    const record = await stateOf(page, site.server.url);
    assert.equal(record.variant, 'russian');
    assert.equal(record.white.name, 'Иванов');
  } finally {
    await context.close();
  }
});
