// The game socket sends each move by its notation only and each update with only what
// changed; the page derives the rest (web/derive.js). Here random games are played through
// the server while a game page follows them over its socket, and after every move the page's
// state is compared with the server's whole state from the HTTP API, which spells out every
// position, every move's squares and every legal move: towers, prisoners, kings, crowning in
// a capture and long king captures all come up in random play.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, api, openGameAs } from './harness.mjs';

// The test asks the API after every move, faster than a person would.
const site = useSite({ args: ['--requests-per-second', '1000'] });

// A small random number generator, seeded, so that a failure can be played again.
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const MOVE_FIELDS = ['text', 'short', 'path', 'captured', 'promotes', 'ply', 'number', 'color'];

function pick(object, fields) {
  const out = {};
  for (const f of fields) out[f] = object[f];
  return out;
}

function legalOf(moves) {
  return moves.map((m) => ({ ...pick(m, ['text', 'path', 'captured', 'promotes']), claims_draw: !!m.claims_draw }));
}

// The page's state as the server's whole state spells it, field by field.
function assertSame(shown, server, where) {
  assert.equal(shown.version, server.version, where + ': version');
  assert.equal(shown.moves.length, server.moves.length, where + ': moves');
  server.moves.forEach((m, i) => {
    assert.deepEqual(pick(shown.moves[i], MOVE_FIELDS), pick(m, MOVE_FIELDS), where + ': move ' + i);
    assert.deepEqual(shown.moves[i].after, m.after, where + ': position after move ' + i);
  });
  assert.deepEqual(shown.position, server.position, where + ': position');
  assert.deepEqual(legalOf(shown.legal_moves), legalOf(server.legal_moves), where + ': legal moves');
  for (const field of ['turn', 'ply', 'must_capture', 'result', 'can_take_back', 'draw_offer']) {
    assert.deepEqual(shown[field], server[field], where + ': ' + field);
  }
}

async function playRandomGames(variant, games, seed) {
  const next = random(seed);
  const { context, page } = await newPage(site.browser);
  let positions = 0;
  const seen = { prisoners: 0, kings: 0, captures: 0 };
  try {
    for (let g = 0; g < games; g++) {
      const created = await api(site.server.url, 'POST', '/api/games', { variant, mode: 'local' });
      await openGameAs(page, site.server.url, { id: created.id, token: created.token, seat: 'both' });
      const path = '/api/games/' + encodeURIComponent(created.id);
      for (let ply = 0; ply < 160; ply++) {
        const server = await api(site.server.url, 'GET', path, undefined, created.token);
        await page.waitForFunction((v) => window.__bashniState && window.__bashniState.version === v, server.version);
        const shown = await page.evaluate(() => window.__bashniState);
        assertSame(shown, server, variant + ' game ' + g + ' (seed ' + seed + ') ply ' + ply);
        positions++;
        const towers = Object.values(server.position.towers);
        if (towers.some((t) => t.length > 1 && t.toLowerCase() !== t[0].toLowerCase().repeat(t.length))) seen.prisoners++;
        if (towers.some((t) => t[0] === 'W' || t[0] === 'B')) seen.kings++;
        if (server.moves.length && server.moves[server.moves.length - 1].captured.length) seen.captures++;
        if (server.result || server.legal_moves.length === 0) break;
        // Now and then a take-back, so that updates also shorten the moves.
        if (ply > 4 && next() < 0.04) {
          await api(site.server.url, 'POST', path + '/takeback', {}, created.token);
          continue;
        }
        const move = server.legal_moves[Math.floor(next() * server.legal_moves.length)];
        await api(site.server.url, 'POST', path + '/move', { move: move.text, ply: server.ply }, created.token);
      }
    }
  } finally {
    await context.close();
  }
  return { positions, seen };
}

test('the page derives every Bashni position, move and legal move as the server states them', async () => {
  const { positions, seen } = await playRandomGames('bashni', 6, 7);
  assert.ok(positions > 200, 'positions compared: ' + positions);
  assert.ok(seen.prisoners > 20 && seen.kings > 20 && seen.captures > 20, JSON.stringify(seen));
});

test('the page derives every Russian draughts position, move and legal move as the server states them', async () => {
  const { positions, seen } = await playRandomGames('russian', 6, 11);
  assert.ok(positions > 200, 'positions compared: ' + positions);
  assert.ok(seen.kings > 20 && seen.captures > 20, JSON.stringify(seen));
});
