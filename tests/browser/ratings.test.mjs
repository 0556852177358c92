// Rated games: two players with accounts, at two addresses (the server is behind a proxy that
// names them), meet in the lobby with a rated seek, play to a result (Black resigns), and both
// player pages show the changed ratings; the leaderboard lists them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, tempDb, launchBrowser, stateOf, gameIdOf, waitPlies, clickPath, api } from './harness.mjs';

const site = {};
before(async () => {
  site.tmp = tempDb();
  site.server = await startServer({ db: site.tmp.db, args: ['--behind-proxy', '--first-move-secs', '3600'] });
  site.browser = await launchBrowser();
});
after(async () => {
  if (site.browser) await site.browser.close();
  if (site.server) await site.server.stop();
  if (site.tmp) site.tmp.remove();
});

/** A browser whose every request the proxy says comes from `address`. */
async function browserAt(address) {
  const context = await site.browser.newContext({
    viewport: { width: 1200, height: 900 },
    reducedMotion: 'reduce',
    extraHTTPHeaders: { 'X-Forwarded-For': address },
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => { page.__errors = (page.__errors || []).concat(String(e)); });
  return { context, page };
}

async function signUp(page, name) {
  await page.goto(site.server.url + '/login');
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', 'correct horse');
  await page.fill('#signup-again', 'correct horse');
  await page.click('#signup');
  await page.waitForURL(new RegExp('/players/' + name + '$'));
  await page.waitForSelector('#player-name');
}

test('a rated seek is played to a result and both ratings change', { timeout: 120000 }, async () => {
  const a = await browserAt('10.1.0.1');
  const b = await browserAt('10.1.0.2');
  try {
    await signUp(a.page, 'Anna');
    await signUp(b.page, 'Boris');
    // No rated games yet.
    assert.match(await a.page.textContent('#player-ratings'), /No rated games yet/);

    for (const p of [a.page, b.page]) {
      await p.goto(site.server.url + '/lobby');
      await p.waitForSelector('#seeks');
      await p.waitForFunction(() => (document.getElementById('lobby-status')?.textContent ?? '').startsWith('Press Play'));
    }
    // Anna posts a rated seek: Russian draughts, 3+2, she plays White.
    await a.page.selectOption('#seek-variant', 'russian');
    await a.page.selectOption('#seek-clock', '3+2');
    await a.page.selectOption('#seek-color', 'white');
    await a.page.check('#seek-rated');
    await a.page.click('#seek-post');
    await a.page.waitForSelector('#seeks tr.own');
    const row = b.page.locator('#seeks tr[data-seek]');
    await row.waitFor();
    assert.match((await row.innerText()), /Rated/);
    assert.match((await row.innerText()), /Anna/);
    await row.locator('button.play').click();
    await a.page.waitForURL(/\/g\/[^/]+$/);
    await b.page.waitForURL(/\/g\/[^/]+$/);
    const id = gameIdOf(a.page);
    await a.page.waitForSelector('svg.board[data-version]');
    await b.page.waitForSelector('svg.board[data-version]');
    const start = await stateOf(a.page, site.server.url);
    assert.equal(start.rated, true, 'the game is rated: ' + start.unrated_reason);
    assert.equal(start.white_player, 'Anna');
    assert.equal(start.black_player, 'Boris');
    assert.match(await a.page.textContent('.game aside'), /Rated/);

    // One move each, then Boris (Black) resigns.
    const pages = { white: a.page, black: b.page };
    for (let ply = 0; ply < 2; ply++) {
      const st = await stateOf(a.page, site.server.url);
      const mover = pages[st.turn];
      await mover.waitForFunction(() => document.querySelector('svg.board')?.dataset.canMove === 'true');
      await clickPath(mover, st.legal_moves[0].path);
      await waitPlies(a.page, ply + 1);
      await waitPlies(b.page, ply + 1);
    }
    await b.page.click('#resign');
    await b.page.click('#resign-confirm');
    await a.page.waitForSelector('#rating-change');
    const ended = await api(site.server.url, 'GET', '/api/games/' + id);
    const change = ended.rating;
    assert.ok(change.white.diff > 0, 'the winner gains');
    assert.ok(change.black.diff < 0, 'the loser loses');
    const shown = await a.page.textContent('#rating-change');
    assert.ok(shown.includes('+' + change.white.diff), shown);
    assert.ok(shown.includes('\u2212' + Math.abs(change.black.diff)), shown);

    // Both player pages show the ratings the API has, moved from 1500 the right way.
    const expected = { Anna: change.white, Boris: change.black };
    for (const [name, side] of Object.entries(expected)) {
      const player = await api(site.server.url, 'GET', '/api/players/' + name);
      const blitz = player.ratings.russian.blitz;
      assert.equal(blitz.rating, side.after);
      assert.equal(blitz.games, 1);
      if (name === 'Anna') assert.ok(blitz.rating > 1500); else assert.ok(blitz.rating < 1500);
      await a.page.goto(site.server.url + '/players/' + name);
      const box = a.page.locator('#player-ratings [data-variant="russian"][data-pace="blitz"]');
      await box.waitFor();
      const text = await box.locator('.rating').textContent();
      assert.equal(text, blitz.rating + (blitz.provisional ? '?' : ''));
      assert.equal(await box.locator('svg.rating-chart circle').count(), 1);
      // The chart says when; the recent game says it was rated and what it left.
      const today = new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
      assert.equal(await box.locator('.chart-dates').textContent(), today);
      await a.page.waitForSelector('#player-games li .meta');
      const meta = await a.page.locator('#player-games li .meta').first().textContent();
      const sign = side.diff > 0 ? '+' : '\u2212';
      assert.ok(meta.endsWith(', rated: ' + side.after + ' (' + sign + Math.abs(side.diff) + ')'), meta);
    }

    // The leaderboard lists both, Anna first.
    await a.page.click('#nav-leaderboard');
    await a.page.waitForURL(/\/leaderboard$/);
    await a.page.waitForSelector('#leaderboard table tr[data-name]');
    const names = await a.page.locator('#leaderboard tr[data-name]').evaluateAll((rows) => rows.map((r) => r.dataset.name));
    assert.deepEqual(names, ['Anna', 'Boris']);
    for (const p of [a.page, b.page]) assert.deepEqual(p.__errors || [], []);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

test('a logged-in player makes a rated game for a friend on the start page', { timeout: 60000 }, async () => {
  const a = await browserAt('10.1.0.3');
  try {
    await signUp(a.page, 'Vera');
    await a.page.goto(site.server.url + '/');
    await a.page.selectOption('#mode', 'friend');
    // Rated needs a clock.
    await a.page.selectOption('#time', 'none');
    assert.equal(await a.page.isVisible('#rated'), false);
    await a.page.selectOption('#time', '3+2');
    await a.page.waitForSelector('#rated');
    await a.page.check('#rated');
    await a.page.click('#create');
    await a.page.waitForURL(/\/g\/[^/]+$/);
    await a.page.waitForSelector('svg.board[data-version]');
    const state = await stateOf(a.page, site.server.url);
    assert.equal(state.rated, true);
    assert.equal(state.white_player, 'Vera');
    assert.match(await a.page.textContent('.game aside'), /\(Rated\)/);
    assert.deepEqual(a.page.__errors || [], []);
  } finally {
    await a.context.close();
  }
});

test('a guest\'s rated seek is refused in a player\'s words; a rated game from one address says why it does not count', { timeout: 120000 }, async () => {
  const guest = await browserAt('10.1.0.7');
  // Two accounts in two browsers behind one address (a family, or one player twice).
  const a = await browserAt('10.1.0.8');
  const b = await browserAt('10.1.0.8');
  try {
    await guest.page.goto(site.server.url + '/lobby');
    await guest.page.waitForFunction(() => (document.getElementById('lobby-status')?.textContent ?? '').startsWith('Press Play'));
    await guest.page.check('#seek-rated');
    await guest.page.click('#seek-post');
    await guest.page.waitForFunction(() => document.getElementById('lobby-error')?.textContent);
    const refusal = await guest.page.textContent('#lobby-error');
    assert.match(refusal, /^Rated games need an account: log in, or play a casual game/i);
    assert.doesNotMatch(refusal, /"rated"|false/, 'no words of the API');

    await signUp(a.page, 'Gleb');
    await signUp(b.page, 'Dina');
    for (const p of [a.page, b.page]) {
      await p.goto(site.server.url + '/lobby');
      await p.waitForFunction(() => (document.getElementById('lobby-status')?.textContent ?? '').startsWith('Press Play'));
    }
    await a.page.selectOption('#seek-clock', '3+2');
    await a.page.check('#seek-rated');
    await a.page.click('#seek-post');
    const row = b.page.locator('#seeks tr[data-seek]');
    await row.waitFor();
    assert.match(await row.innerText(), /Rated/, 'the lobby row offers a rated game');
    await row.locator('button.play').click();
    await a.page.waitForURL(/\/g\/[^/]+$/);
    await b.page.waitForURL(/\/g\/[^/]+$/);
    await b.page.waitForSelector('svg.board[data-version]');
    const state = await stateOf(b.page, site.server.url);
    assert.equal(state.rated, false);
    assert.equal(state.unrated_reason, 'same address');
    // The game says in words why it does not count, in both browsers.
    for (const p of [a.page, b.page]) {
      await p.waitForSelector('svg.board[data-version]');
      assert.match(await p.textContent('.game aside'), /Not rated: both players play from one address, and such games do not count\./);
    }
    for (const p of [guest.page, a.page, b.page]) assert.deepEqual(p.__errors || [], []);
  } finally {
    await guest.context.close();
    await a.context.close();
    await b.context.close();
  }
});
