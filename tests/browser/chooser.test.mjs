// (b) Two capture paths that end on the same square: the page asks which one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, openGameAs, applyBashniMove, stateOf,
} from './harness.mjs';

const site = useSite();

// A white king on h4 can take g5, then go round by d8 and a5 or by f6 and c3: both
// ways end on e1, and they leave different black men behind.
const POSITION = 'W:WKh4:Bb6,d2,d4,Kg5';

test('the position has two captures from h4 to e1', async () => {
  const data = await api(site.server.url, 'POST', '/api/position', { variant: 'bashni', position: POSITION });
  const both = data.legal_moves.filter((m) => m.path[0] === 'h4' && m.path[m.path.length - 1] === 'e1');
  assert.equal(both.length, 2, JSON.stringify(data.legal_moves.map((m) => m.text)));
  assert.notDeepEqual(both[0].path, both[1].path);
});

test('clicking start and end square shows a chooser; the second choice is played', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', {
    variant: 'bashni', mode: 'local', position: POSITION, name: 'Left', opponent_name: 'Right',
  });
  assert.equal(created.seat, 'both');
  const { context, page } = await newPage(site.browser, { motion: true });
  try {
    await openGameAs(page, site.server.url, created);
    const before = await stateOf(page, site.server.url);
    assert.equal(before.you, 'both');
    assert.equal(await page.isVisible('#forced'), true, 'capture is forced is shown');

    await page.click('[data-square="h4"]');
    // the next landing squares are marked
    const targets = await page.$$eval('.mark-target', (ns) => ns.map((n) => n.getAttribute('data-target')).sort());
    assert.deepEqual(targets, [...new Set(before.legal_moves.map((m) => m.path[1]))].sort());
    await page.click('[data-square="e1"]');

    await page.waitForSelector('#chooser:not([hidden])');
    const title = await page.textContent('#chooser .chooser-title');
    assert.match(title, /Two ways to capture to e1/);
    const choices = page.locator('#chooser .choice');
    assert.equal(await choices.count(), 2);
    const texts = await choices.evaluateAll((ns) => ns.map((n) => n.dataset.move));
    const options = texts.map((t) => before.legal_moves.find((m) => m.text === t));
    assert.ok(options[0] && options[1], 'each choice is a legal move');
    for (const o of options) {
      assert.equal(o.path[0], 'h4');
      assert.equal(o.path[o.path.length - 1], 'e1');
    }
    // each option lists the squares it jumps
    const caps = await choices.evaluateAll((ns) => ns.map((n) => n.querySelector('.choice-captures').textContent));
    assert.ok(caps[1].includes(options[1].captured.join(', ')), caps[1]);

    // pointing at a choice draws its path on the board
    await choices.nth(1).hover();
    await page.waitForSelector('.mark-path');
    const points = await page.getAttribute('.mark-path', 'points');
    assert.equal(points.trim().split(/\s+/).length, options[1].path.length);

    await choices.nth(1).click();
    await page.waitForFunction(() => Number(document.querySelector('svg.board')?.dataset.plies) === 1);
    const afterState = await stateOf(page, site.server.url);
    assert.equal(afterState.moves.length, 1);
    assert.deepEqual(afterState.moves[0].path, options[1].path, 'the second path was played');
    const expected = applyBashniMove(before.position.towers, options[1]);
    assert.deepEqual(afterState.position.towers, expected);
    assert.deepEqual(afterState.moves[0].after.towers, expected);
    // the board shows the new towers once the animation has run
    await page.waitForFunction(() => !document.querySelector('svg.board')?.dataset.animating);
    const drawn = await page.$$eval('.layer-pieces .tower', (ns) => Object.fromEntries(ns.map((n) => [n.dataset.at, n.dataset.tower])));
    assert.deepEqual(drawn, expected);
    // the captured squares of the last move are marked
    assert.equal(await page.locator('.mark-captured').count(), options[1].captured.length);
  } finally {
    await context.close();
  }
});
