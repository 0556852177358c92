// Buttons beside the board: take back, draw offer and answer, resign.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, openGameAs, stateOf, clickPath, waitPlies, moveListTexts,
} from './harness.mjs';

const site = useSite();

test('at one screen: take back, then a draw offered and accepted', { timeout: 60000 }, async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local', name: 'Ann', opponent_name: 'Bob' });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    assert.equal(await page.locator('#takeback').count(), 0, 'nothing to take back yet');
    for (let i = 0; i < 2; i++) {
      const st = await stateOf(page, site.server.url);
      await clickPath(page, st.legal_moves[0].path);
      await waitPlies(page, i + 1);
    }
    const two = await moveListTexts(page);
    assert.equal(two.length, 2);
    await page.click('#takeback');
    await page.waitForFunction(() => Number(document.querySelector('svg.board')?.dataset.plies) === 1);
    assert.deepEqual(await moveListTexts(page), two.slice(0, 1));
    assert.equal((await stateOf(page, site.server.url)).turn, 'black');

    await page.click('#draw-offer');
    await page.waitForSelector('#draw-accept');
    assert.match(await page.textContent('#draw-offer-text'), /offers a draw/);
    await page.click('#draw-accept');
    await page.waitForSelector('#result:not([hidden])');
    const final = await stateOf(page, site.server.url);
    assert.equal(final.result.code, 'agreement');
    assert.ok((await page.textContent('#result')).toLowerCase().includes(final.result.reason.toLowerCase()));
  } finally {
    await context.close();
  }
});

test('resigning asks once more, then ends the game', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/');
    await page.selectOption('#mode', 'engine');
    await page.selectOption('#level', '1');
    await page.selectOption('#time', '3+2');
    await page.click('#create');
    await page.waitForURL(/\/g\/[^/]+$/);
    await page.waitForSelector('#clock-white');
    const st = await stateOf(page, site.server.url);
    assert.equal(st.clock.base_ms, 180000);
    assert.equal(st.clock.increment_ms, 2000);
    // both clocks are shown; neither runs before each side's first move
    assert.match(await page.textContent('#clock-black'), /^3:00$/);
    assert.equal(st.clock.running, null);
    await page.waitForTimeout(1200);
    assert.equal(await page.textContent('#clock-white'), '3:00');
    await page.click('#resign');
    assert.equal(await page.locator('#result').isVisible(), false, 'one click does not resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#result:not([hidden])');
    const final = await stateOf(page, site.server.url);
    assert.equal(final.result.code, 'resignation');
    assert.equal(final.result.winner, 'black');
    assert.ok((await page.textContent('#result')).startsWith(final.result.score));
  } finally {
    await context.close();
  }
});

test('a tower can be dragged to its square; a wrong square is refused with a reason', { timeout: 60000 }, async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'russian', mode: 'local' });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    const centre = async (sq) => {
      const b = await page.locator(`rect[data-square="${sq}"]`).boundingBox();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    };
    const from = await centre('c3');
    const to = await centre('d4');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 15, from.y - 15, { steps: 3 });
    await page.mouse.move(to.x, to.y, { steps: 5 });
    await page.mouse.up();
    await waitPlies(page, 1);
    assert.deepEqual(await moveListTexts(page), ['c3-d4']);

    // typed moves go to the server as they are; its reason is shown
    await page.fill('#move-input', 'a7-b6');
    await page.press('#move-input', 'Enter');
    await page.waitForSelector('#message.error');
    const reason = await page.textContent('#message');
    assert.ok(reason.length > 5, reason);
    assert.equal((await stateOf(page, site.server.url)).moves.length, 1, 'nothing was played');
    await page.fill('#move-input', 'fg5');
    await page.press('#move-input', 'Enter');
    await waitPlies(page, 2);
    assert.deepEqual(await moveListTexts(page), ['c3-d4', 'f6-g5']);
  } finally {
    await context.close();
  }
});

test('the draw answer buttons do not touch', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  await api(site.server.url, 'POST', '/api/games/' + created.id + '/draw', { action: 'offer' }, created.token);
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    await page.waitForSelector('#draw-decline');
    // The controls are drawn again when the socket's state comes: measure once they stand.
    let accept = null;
    let decline = null;
    for (let i = 0; i < 20 && !(accept && decline); i++) {
      accept = await page.locator('#draw-accept').boundingBox();
      decline = await page.locator('#draw-decline').boundingBox();
      if (!(accept && decline)) await page.waitForTimeout(100);
    }
    const apart = decline.y >= accept.y + accept.height
      ? decline.y - (accept.y + accept.height)
      : decline.x - (accept.x + accept.width);
    assert.ok(apart >= 6, 'the buttons are ' + apart + ' px apart');
  } finally {
    await context.close();
  }
});
