// The start and the end of a game: clocks wait for each side's first move, a game can be
// aborted before both sides have moved, and after the end: rematch and a new game like it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, openGameAs, stateOf, gameIdOf,
} from './harness.mjs';

const site = useSite();

async function friendGame(extra = {}) {
  const created = await api(site.server.url, 'POST', '/api/games', Object.assign({ variant: 'bashni', mode: 'friend', color: 'white', name: 'Anna' }, extra));
  const invite = created.invite_url.split('/').pop();
  const joined = await api(site.server.url, 'POST', '/api/games/' + created.id + '/join', { invite, name: 'Boris' });
  const white = await newPage(site.browser);
  const black = await newPage(site.browser);
  await openGameAs(white.page, site.server.url, created);
  await openGameAs(black.page, site.server.url, { id: created.id, token: joined.token, seat: 'black' });
  return { created, joined, white, black };
}

test('the clocks wait for each side’s first move; before both have moved either player may abort, and the game does not count', async () => {
  const { created, white, black } = await friendGame({ time: { minutes: 3, increment_s: 2 } });
  try {
    const st = await stateOf(white.page, site.server.url);
    assert.equal(st.clock.running, null, 'no clock runs before the first move');
    await white.page.waitForTimeout(1200);
    assert.equal(await white.page.textContent('#clock-white'), '3:00', 'White’s clock has not moved');
    assert.equal(await white.page.isVisible('#abort'), true);
    await white.page.click('[data-square="c3"]');
    await white.page.click('[data-square="d4"]');
    await black.page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '1');
    const after1 = await stateOf(black.page, site.server.url);
    assert.equal(after1.clock.running, null, 'Black’s clock waits for Black’s first move');
    assert.equal(after1.clock.white_ms, 180000, 'White’s first move was free');
    // Black has not moved yet: Black may still abort.
    await black.page.waitForSelector('#abort');
    await black.page.click('#abort');
    await white.page.waitForSelector('#result:not([hidden])');
    assert.match(await white.page.textContent('#result'), /^Aborted/);
    assert.equal(await white.page.textContent('#status'), 'The game was aborted.');
    const done = await api(site.server.url, 'GET', '/api/games/' + created.id);
    assert.equal(done.result.code, 'aborted');
    assert.equal(done.result.winner, null);
    const list = await api(site.server.url, 'GET', '/api/games?ids=' + created.id);
    assert.equal(list.games[0].result, '*');
  } finally {
    await white.context.close();
    await black.context.close();
  }
});

test('abort is gone once both sides have moved', async () => {
  const { white, black } = await friendGame();
  try {
    await white.page.click('[data-square="c3"]');
    await white.page.click('[data-square="d4"]');
    await black.page.waitForFunction(() => document.querySelector('svg.board')?.dataset.canMove === 'true');
    await black.page.click('[data-square="f6"]');
    await black.page.click('[data-square="g5"]');
    await white.page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '2');
    assert.equal(await white.page.locator('#abort').count(), 0);
    assert.equal(await black.page.locator('#abort').count(), 0);
  } finally {
    await white.context.close();
    await black.context.close();
  }
});

test('a rematch is offered, declined, offered again and accepted: both pages go to the new game with colours swapped', async () => {
  const { created, white, black } = await friendGame();
  try {
    await white.page.click('#resign');
    await white.page.click('#resign-confirm');
    await black.page.waitForSelector('#result:not([hidden])');
    // Black offers; White declines.
    await black.page.click('#rematch');
    await black.page.waitForSelector('#rematch-wait');
    await white.page.waitForSelector('#rematch-offer');
    assert.match(await white.page.textContent('#rematch-offer'), /Black offers a rematch/);
    await white.page.click('#rematch-decline');
    await black.page.waitForSelector('#rematch');
    // White offers; Black accepts.
    await white.page.click('#rematch');
    await black.page.waitForSelector('#rematch-accept');
    await black.page.click('#rematch-accept');
    await white.page.waitForURL((u) => !u.pathname.endsWith(created.id));
    await black.page.waitForURL((u) => !u.pathname.endsWith(created.id));
    const id = gameIdOf(white.page);
    assert.equal(gameIdOf(black.page), id, 'both pages show the same new game');
    await white.page.waitForSelector('svg.board[data-version]');
    await black.page.waitForSelector('svg.board[data-version]');
    const ws = await stateOf(white.page, site.server.url);
    const bs = await stateOf(black.page, site.server.url);
    assert.equal(ws.you, 'black', 'Anna now plays Black');
    assert.equal(bs.you, 'white', 'Boris now plays White');
    assert.equal(ws.black.name, 'Anna');
    assert.equal(ws.white.name, 'Boris');
    assert.equal(ws.variant, 'bashni');
    assert.equal(ws.mode, 'friend');
    assert.equal(ws.moves.length, 0);
  } finally {
    await white.context.close();
    await black.context.close();
  }
});

test('after a game against the engine: a new game like it has the same settings', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', {
    variant: 'russian', mode: 'engine', level: 2, color: 'black', name: 'Anna', time: { minutes: 7, increment_s: 5 },
  });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    await page.waitForSelector('#resign');
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#new-like-this');
    await page.click('#new-like-this');
    await page.waitForURL((u) => !u.pathname.endsWith(created.id));
    await page.waitForSelector('svg.board[data-version]');
    const st = await stateOf(page, site.server.url);
    assert.equal(st.variant, 'russian');
    assert.equal(st.mode, 'engine');
    assert.equal(st.you, 'black');
    assert.equal(st.white.level, 2);
    assert.equal(st.clock.base_ms, 7 * 60000);
    assert.equal(st.clock.increment_ms, 5000);
    assert.equal(st.black.name, 'Anna');
  } finally {
    await context.close();
  }
});
