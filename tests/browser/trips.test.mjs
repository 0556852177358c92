// What a regular player tripped over (issue "Russian for the players who read it"): the
// chat's title, the forced-capture note for the side that waits, a declined draw offer the
// one who offered it never heard of.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, api, openGameAs } from './harness.mjs';

const site = useSite();

/** A friend game between two people, both seats taken: the white and black seats. */
async function friendGame(variant = 'russian') {
  const white = await api(site.server.url, 'POST', '/api/games',
    { variant, mode: 'friend', color: 'white', name: 'Anna', time: { minutes: 10 } });
  const invite = white.invite_url.split('/').pop();
  const black = await api(site.server.url, 'POST', '/api/games/' + white.id + '/join', { invite, name: 'Boris' });
  return { white, black: { id: white.id, token: black.token, seat: 'black' } };
}

test('players see "Chat", watchers "Watchers\' chat"; only the side to move is told capture is forced', async () => {
  const { white, black } = await friendGame();
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  const c = await newPage(site.browser);
  try {
    await openGameAs(a.page, site.server.url, white);
    await openGameAs(b.page, site.server.url, black);
    await c.page.goto(site.server.url + '/g/' + white.id);
    await c.page.waitForSelector('svg.board[data-version]');
    await a.page.waitForSelector('#chat-title');
    assert.equal(await a.page.textContent('#chat-title'), 'Chat');
    await c.page.waitForSelector('#chat-title');
    assert.equal(await c.page.textContent('#chat-title'), 'Watchers’ chat');
    // 1. c3-d4 f6-e5: White must take on e5.
    await api(site.server.url, 'POST', '/api/games/' + white.id + '/move', { move: 'c3-d4', ply: 0 }, white.token);
    await api(site.server.url, 'POST', '/api/games/' + white.id + '/move', { move: 'f6-e5', ply: 1 }, black.token);
    await a.page.waitForFunction(() => document.querySelector('svg.board').dataset.plies === '2'
      || (window.__bashniState && window.__bashniState.moves.length === 2));
    await b.page.waitForFunction(() => window.__bashniState && window.__bashniState.moves.length === 2);
    await a.page.waitForSelector('#forced', { state: 'visible' });
    assert.equal(await a.page.textContent('#forced'), 'Capture is forced.');
    assert.equal(await b.page.isHidden('#forced'), true, 'Black waits: nothing to choose');
    assert.equal(await c.page.isHidden('#forced'), true, 'a watcher has nothing to choose');
  } finally {
    await a.context.close();
    await b.context.close();
    await c.context.close();
  }
});

test('the one who offered a draw hears that it was declined', async () => {
  // Bashni: a draw may be offered on one's own turn (rule 1.13.3).
  const { white, black } = await friendGame('bashni');
  const a = await newPage(site.browser);
  try {
    await openGameAs(a.page, site.server.url, white);
    await a.page.waitForSelector('#draw-offer');
    await a.page.click('#draw-offer');
    await a.page.waitForFunction(() => window.__bashniState && window.__bashniState.draw_offer === 'white');
    await api(site.server.url, 'POST', '/api/games/' + white.id + '/draw', { action: 'decline' }, black.token);
    await a.page.waitForFunction(() => (document.getElementById('message')?.textContent ?? '') !== ''
      && window.__bashniState && !window.__bashniState.draw_offer);
    assert.equal(await a.page.textContent('#message'), 'Your draw offer was declined.');
  } finally {
    await a.context.close();
  }
});

test('an invite that cannot be used says so before anyone fills in a name', async () => {
  const { white } = await friendGame();
  const open = await api(site.server.url, 'POST', '/api/games',
    { variant: 'russian', mode: 'friend', color: 'white', name: 'Vera' });
  const wrong = open.invite_url.replace(/\/join\/[^/]+$/, '/join/not-the-code');
  for (const [link, says] of [[white.invite_url, 'both seats are already taken'], [wrong, 'the invite code is wrong']]) {
    const { context, page } = await newPage(site.browser);
    try {
      await page.goto(new URL(link, site.server.url).href);
      await page.waitForSelector('#join-form[data-refused="true"]');
      assert.equal(await page.textContent('#join-form h2'), 'This invite cannot be used');
      assert.match(await page.textContent('#join-info'), new RegExp(says, 'i'));
      assert.equal(await page.isHidden('#join'), true, 'no button that would fail');
    } finally {
      await context.close();
    }
  }
  // A good invite still invites.
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(new URL(open.invite_url, site.server.url).href);
    await page.waitForFunction(() => /invites you/.test(document.getElementById('join-info')?.textContent || ''));
    assert.equal(await page.isVisible('#join'), true);
  } finally {
    await context.close();
  }
});

test('on a phone a game shows the board, both clocks, the move buttons and Resign without scrolling', async () => {
  const { white } = await friendGame();
  for (const locale of ['en-US', 'ru-RU']) {
    const { context, page } = await newPage(site.browser, { viewport: { width: 390, height: 844 }, touch: true, locale });
    try {
      await openGameAs(page, site.server.url, white);
      await page.waitForSelector('#resign');
      const boxes = await page.evaluate(() => {
        const box = (n) => { const b = n.getBoundingClientRect(); return { top: b.top, bottom: b.bottom, width: b.width }; };
        return {
          board: box(document.querySelector('svg.board')),
          clocks: [...document.querySelectorAll('.player .clock')].map(box),
          nav: box(document.getElementById('nav-prev')),
          resign: box(document.getElementById('resign')),
          scrolled: window.scrollY,
        };
      });
      assert.equal(boxes.scrolled, 0);
      assert.ok(boxes.board.width > 300, JSON.stringify(boxes.board));
      assert.equal(boxes.clocks.length, 2, 'both clocks');
      for (const [name, b] of [['board', boxes.board], ['nav', boxes.nav], ['resign', boxes.resign], ...boxes.clocks.map((c) => ['clock', c])]) {
        assert.ok(b.top >= 0 && b.bottom <= 844, locale + ': ' + name + ' at ' + JSON.stringify(b));
      }
    } finally {
      await context.close();
    }
  }
});
