// A round robin on the page: four players sign up and join, the creator starts it, every game
// is played out from the players' game pages (a resignation or a draw agreed), and the
// tournament page shows the standings with their tie-breaks and the crosstable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage } from './harness.mjs';

// The test plays the games of a round one after another: each side's time for a first move
// is made long enough for that on a busy machine.
const site = useSite({ args: ['--first-move-secs', '3600'] });

const NAMES = ['Anna', 'Boris', 'Clara', 'Dasha'];

// Who wins each game; a missing pair is a draw. Anna beats Boris and Clara and draws with
// Dasha; Boris beats Clara; Dasha beats Boris; Clara beats Dasha.
function winner(a, b) {
  const pair = [a, b].sort().join('-');
  return {
    'Anna-Boris': 'Anna', 'Anna-Clara': 'Anna', 'Boris-Clara': 'Boris',
    'Boris-Dasha': 'Dasha', 'Clara-Dasha': 'Clara',
  }[pair] || null;
}

async function signUp(page, name) {
  await page.goto(site.server.url + '/login');
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', name + ' secret 1');
  await page.fill('#signup-again', name + ' secret 1');
  await page.click('#signup');
  await page.waitForURL(new RegExp('/players/' + name + '$'));
}

// The tournament as the page's own requests see it (with the player's cookie).
async function tournamentOf(page, id) {
  return page.evaluate(async (tid) => (await fetch('/api/tournaments/' + tid)).json(), id);
}

// Opens `game` as `player` and waits until the page holds the player's seat.
async function openSeat(page, game) {
  await page.goto(site.server.url + '/g/' + game);
  await page.waitForSelector('#resign');
}

test('a round robin: join, start, play out, read the crosstable', { timeout: 240000 }, async () => {
  const players = {};
  for (const name of NAMES) players[name] = await newPage(site.browser);
  try {
    for (const name of NAMES) await signUp(players[name].page, name);

    // Anna makes the tournament from the list's form.
    const anna = players.Anna.page;
    await anna.goto(site.server.url + '/tournaments');
    await anna.waitForSelector('#create-tournament');
    await anna.fill('#t-name', 'Autumn cup');
    await anna.selectOption('#t-system', 'round_robin');
    await anna.click('#t-create');
    await anna.waitForURL(/\/t\/[^/]+$/);
    const id = decodeURIComponent(new URL(anna.url()).pathname.split('/').pop());
    await anna.waitForSelector('#t-join');
    assert.equal(await anna.textContent('#t-name'), 'Autumn cup');

    // Everybody joins in order; only the creator sees Start.
    for (const name of NAMES) {
      const page = players[name].page;
      if (name !== 'Anna') await page.goto(site.server.url + '/t/' + id);
      await page.click('#t-join');
      await page.waitForSelector('#t-leave');
      assert.equal(await page.locator('#t-start').count(), name === 'Anna' ? 1 : 0);
    }
    await anna.reload();
    await anna.waitForSelector('#t-start');
    await anna.click('#t-start');
    await anna.waitForSelector('[data-status="running"]');
    assert.match(await anna.textContent('#t-status'), /Round 1 of 3/);
    // Joining after the start is refused: the page offers no button.
    assert.equal(await anna.locator('#t-join, #t-leave').count(), 0);
    // Each player is numbered once ("1. Anna", not "1. 1. Anna"): the list adds no numbers.
    const first = await anna.textContent('#t-players li');
    assert.match(first, /^1\. /, first);
    assert.equal(await anna.$eval('#t-players', (list) => getComputedStyle(list).listStyleType), 'none');

    let lastLoser = null;
    for (let round = 1; round <= 3; round++) {
      const t = await tournamentOf(anna, id);
      assert.equal(t.round, round, JSON.stringify(t));
      const games = t.schedule[round - 1].games;
      assert.equal(games.length, 2);
      for (const g of games) {
        const win = winner(g.white, g.black);
        if (win) {
          const loser = win === g.white ? g.black : g.white;
          const page = players[loser].page;
          await openSeat(page, g.game);
          // The game names its tournament and round and links back to it.
          assert.match(await page.textContent('#tournament-link'), new RegExp('Autumn cup, round ' + round));
          await page.click('#resign');
          await page.click('#resign-confirm');
          await page.waitForSelector('.result');
          // After it: back to the tournament, no rematch, no "new game like this".
          await page.waitForSelector('#back-to-tournament');
          assert.equal(await page.locator('#rematch, #new-like-this').count(), 0);
          if (round === 1) lastLoser = { page, game: g.game };
        } else {
          const white = players[g.white].page;
          const black = players[g.black].page;
          await openSeat(white, g.game);
          await white.click('#draw-offer');
          await openSeat(black, g.game);
          await black.waitForSelector('#draw-accept');
          await black.click('#draw-accept');
          await black.waitForSelector('.result');
        }
      }
      // The next round (or the end) comes by itself.
      await anna.waitForFunction(async ([tid, r]) => {
        const t = await (await fetch('/api/tournaments/' + tid)).json();
        return t.round > r || t.status === 'finished';
      }, [id, round], { polling: 200, timeout: 20000 });
      if (round === 1 && lastLoser) {
        // The page of the finished game tells its player the next game is ready.
        await lastLoser.page.waitForSelector('#next-game', { timeout: 20000 });
        const next = (await tournamentOf(lastLoser.page, id)).you.game;
        assert.ok(next, 'the player has a game in round 2');
        assert.equal(await lastLoser.page.getAttribute('#next-game', 'href'), '/g/' + next);
      }
    }

    // The tournament page shows the end (it asks again by itself while it runs).
    await anna.goto(site.server.url + '/t/' + id);
    await anna.waitForSelector('[data-status="finished"]');
    assert.equal(await anna.textContent('#t-status'), 'Finished.');

    // Standings: Anna 5 points (SB 5.5), Dasha 3 (SB 4.5), Clara 2 (SB 3), Boris 2 (SB 2):
    // Clara is above Boris on Sonneborn-Berger.
    const standings = await anna.$$eval('#t-standings tbody tr', (rows) => rows.map((r) =>
      [...r.querySelectorAll('td')].map((td) => td.textContent)));
    assert.deepEqual(standings.map((r) => r.slice(0, 4)), [
      ['1', 'Anna', '5', '5.5'],
      ['2', 'Dasha', '3', '4.5'],
      ['3', 'Clara', '2', '3'],
      ['4', 'Boris', '2', '2'],
    ]);
    const header = await anna.$$eval('#t-standings thead th', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(header.slice(0, 5), ['Place', 'Player', 'Points', 'SB', 'Wins']);

    // The crosstable, in the order of the standings: each cell the points of the game.
    const cross = await anna.$$eval('#t-crosstable tbody tr', (rows) => rows.map((r) =>
      [r.querySelector('th').textContent, ...[...r.querySelectorAll('td')].map((td) => td.textContent)]));
    const names = cross.map((r) => r[0].replace(/^\d+\. /, ''));
    assert.deepEqual(names, ['Anna', 'Dasha', 'Clara', 'Boris']);
    const cells = cross.map((r) => r.slice(1, 5));
    assert.deepEqual(cells, [
      ['×', '1', '2', '2'],
      ['1', '×', '0', '2'],
      ['0', '2', '×', '0'],
      ['0', '0', '2', '×'],
    ]);
    assert.deepEqual(cross.map((r) => r[5]), ['5', '3', '2', '2']);

    // All six games in one PDN file.
    const href = await anna.getAttribute('#t-pdn', 'href');
    const pdn = await anna.evaluate(async (path) => (await fetch(path)).text(), href);
    assert.equal((pdn.match(/\[Event "Autumn cup"\]/g) || []).length, 6);

    // The list shows it among the finished ones.
    await anna.goto(site.server.url + '/tournaments');
    await anna.waitForSelector('#tournaments-finished li[data-id="' + id + '"]');
    for (const name of NAMES) assert.deepEqual(players[name].page.__errors || [], [], name);
  } finally {
    for (const name of NAMES) await players[name].context.close();
  }
});
