// The analysis board: a game's moves as the main line, a variation played on the board and
// kept, the engine's streamed lines with a bar and arrows, a line clicked to play, the graph,
// links to a move, and pictures to save.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api,
} from './harness.mjs';

const site = useSite();

async function playedGame(moves) {
  const g = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  for (const [ply, m] of moves.entries()) await api(site.server.url, 'POST', '/api/games/' + g.id + '/move', { move: m, ply }, g.token);
  return g;
}

const texts = (page, sel) => page.$$eval(sel, (ns) => ns.map((n) => n.textContent));

test('a variation played from a game position is kept beside the main line', { timeout: 60000 }, async () => {
  const g = await playedGame(['c3-d4', 'f6-g5', 'b2-c3', 'g7-f6']);
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/analysis?game=' + g.id + '&ply=2');
    await page.waitForSelector('svg.board[data-node]');
    await page.waitForFunction(() => document.querySelectorAll('#tree .tree-line.main > .move-row .mv[data-node]').length === 4);
    const main = await page.$$eval('#tree .tree-line.main > .move-row .mv[data-node]', (ns) => ns.map((n) => n.dataset.node));
    assert.equal(main.length, 4, 'the game is the main line');
    assert.equal(await page.$eval('#tree .mv.current', (n) => n.dataset.node), main[1], '?ply=2 shows the second move');
    // Play a different third move: e3-f4.
    await page.click('[data-square="e3"]');
    await page.click('[data-square="f4"]');
    await page.waitForSelector('#tree .tree-line.variation .mv');
    const variation = await texts(page, '#tree .tree-line.variation .mv');
    assert.equal(variation.length, 1);
    // Numbered on from the game: White's second move, not "1.".
    assert.match(variation[0], /^2\. e3-f4/);
    assert.equal(await page.$eval('#tree .mv.current', (n) => n.dataset.variation), '1');
    assert.equal(await page.$$eval('#tree .tree-line.main > .move-row .mv[data-node]', (ns) => ns.length), 4, 'the main line stays');
    assert.equal(new URL(page.url()).searchParams.get('ply'), null, 'a side line has no ply link');
    // Back to the main line by a click.
    await page.click(`#tree .mv[data-node="${main[3]}"]`);
    assert.equal(new URL(page.url()).searchParams.get('ply'), '4');
    // The variation is kept for the next visit.
    await page.reload();
    await page.waitForSelector('#tree .tree-line.variation .mv');
    assert.deepEqual(await texts(page, '#tree .tree-line.variation .mv'), variation);
  } finally {
    await context.close();
  }
});

test('the engine streams lines with an evaluation bar and arrows; a clicked line is played as a variation', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/analysis?variant=russian&position=start');
    await page.waitForSelector('svg.board[data-node]');
    await page.waitForSelector('#engine-lines ol.lines li', { timeout: 20000 });
    await page.waitForFunction(() => Number(document.querySelector('svg.board')?.dataset.depth || 0) >= 2, null, { timeout: 20000 });
    assert.ok(await page.locator('#engine-lines ol.lines li').count() >= 2, 'several lines');
    assert.notEqual(await page.getAttribute('#eval-bar', 'data-score'), '');
    assert.equal(await page.locator('.mark-arrow.best').count(), 1);
    // The lines change as the engine goes deeper: read and click the same one.
    const first = (await page.$eval('#engine-lines ol.lines li .line-play', (b) => { b.click(); return b.textContent; })).split(' ');
    await page.waitForSelector('#tree .mv');
    const played = await texts(page, '#tree .mv');
    assert.ok(played[0].includes(first[0]), played[0] + ' / ' + first[0]);
    assert.ok(played.length >= 2, 'the whole line is kept');
    // Turning the engine off stops the lines.
    await page.uncheck('#engine-on');
    await page.waitForFunction(() => document.getElementById('engine-lines')?.textContent.includes('off'));
    assert.equal(await page.locator('.mark-arrow').count(), 0);
  } finally {
    await context.close();
  }
});

test('the graph covers the game, and the position and the game can be saved as pictures', { timeout: 90000 }, async () => {
  const g = await playedGame(['c3-d4', 'f6-g5', 'b2-c3']);
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/analysis?game=' + g.id);
    await page.waitForSelector('svg.board[data-node]');
    await page.click('#graph');
    await page.waitForFunction(() => {
      const s = document.getElementById('eval-graph');
      return s && s.dataset.points === '3';
    }, null, { timeout: 30000 });
    for (const [id, magic] of [['#export-png', [0x89, 0x50, 0x4e, 0x47]], ['#export-gif', [0x47, 0x49, 0x46, 0x38]]]) {
      const href = await page.getAttribute(id, 'href');
      const res = await fetch(site.server.url + href);
      assert.equal(res.status, 200, id);
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.deepEqual(Array.from(bytes.slice(0, 4)), magic, id);
    }
    const svg = await fetch(site.server.url + await page.getAttribute('#export-svg', 'href'));
    assert.match(await svg.text(), /<svg/);
  } finally {
    await context.close();
  }
});

test('nobody opens the analysis board of a game between people in progress', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'friend', color: 'white' });
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/study');
    await page.evaluate(([id, token]) => localStorage.setItem('bashni.seat.' + id, JSON.stringify({ token, seat: 'white' })), [created.id, created.token]);
    await page.goto(site.server.url + '/analysis?game=' + created.id);
    await page.waitForSelector('#analysis-error');
    assert.match(await page.textContent('#analysis-error'), /when it has ended/);
    assert.equal(await page.locator('svg.board').count(), 0);
    // A watcher, holding no seat, is told the same.
    const other = await newPage(site.browser);
    try {
      await other.page.goto(site.server.url + '/analysis?game=' + created.id);
      await other.page.waitForSelector('#analysis-error');
      assert.match(await other.page.textContent('#analysis-error'), /when it has ended/);
    } finally {
      await other.context.close();
    }
  } finally {
    await context.close();
  }
});

test('a record read from PDN opens with its comments and variations', { timeout: 60000 }, async () => {
  const pdn = '[White "Anna"]\n[Black "Boris"]\n[GameType "25"]\n\n' +
    '{A club game} 1. c3-d4 {The centre} f6-e5 (1... fg5 2. dc5 {Also good} (2. gh4)) 2. d4:f6 $2 g7:e5 *\n';
  const upload = await fetch(site.server.url + '/api/pdn', {
    method: 'POST', headers: { 'content-type': 'text/plain' }, body: pdn,
  });
  const answer = await upload.json();
  assert.equal(upload.status, 200, JSON.stringify(answer));
  const id = answer.games[0].id;
  const { context, page } = await newPage(site.browser);
  try {
    // The record's page says where its notes are.
    await page.goto(site.server.url + '/g/' + id);
    await page.waitForSelector('#record-notes');
    await page.goto(site.server.url + '/analysis?game=' + id + '&ply=0');
    await page.waitForSelector('svg.board[data-node]');
    assert.equal(await page.$eval('#move-comment', (n) => n.textContent), 'A club game', 'the intro at the start');
    assert.equal(await page.$$eval('#tree .tree-line.main > .move-row .mv[data-node]', (ns) => ns.length), 4, 'the game is the main line');
    // The variation replaces Black's first move, and holds one of its own.
    const lines = await texts(page, '#tree .tree-line.variation .mv');
    assert.deepEqual(lines.map((t) => t.trim().split(/\s+/).pop()), ['f6-g5', 'd4-c5', 'g3-h4']);
    assert.equal(await page.locator('#tree .tree-line.variation .tree-line.variation').count(), 1, 'nested');
    // A move's comment shows when the move is shown.
    await page.click('#tree .tree-line.main > .move-row .mv[data-node] >> nth=0');
    await page.waitForFunction(() => document.querySelector('#move-comment').textContent === 'The centre');
    assert.equal(await page.$eval('#move-comment', (n) => n.hidden), false);
    await page.click('#tree .tree-line.main > .move-row .mv[data-node] >> nth=2');
    await page.waitForFunction(() => document.querySelector('#move-comment').textContent === '?');
    // The mark shows in the tree too, after the move.
    assert.equal(await page.$eval('#tree .tree-line.main > .move-row .mv[data-node] >> nth=2', (n) => n.querySelector('.move-mark')?.textContent), '?');
    const inVariation = await page.$$eval('#tree .tree-line.variation .mv', (ns) => ns.map((n) => n.dataset.node));
    await page.click(`#tree .mv[data-node="${inVariation[1]}"]`);
    await page.waitForFunction(() => document.querySelector('#move-comment').textContent === 'Also good');
    // A move without a comment hides the box.
    await page.click('#tree .tree-line.main > .move-row .mv[data-node] >> nth=3');
    await page.waitForFunction(() => document.querySelector('#move-comment').hidden);
    assert.equal(await page.locator('#tree .mv.commented').count(), 3, 'c3-d4, d4:f6 and d4-c5 carry notes');
  } finally {
    await context.close();
  }
});
