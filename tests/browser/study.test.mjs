// The study board: building towers checker by checker, the live position text,
// refused positions, the engine view; and the engine view of a game position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, openGameAs,
} from './harness.mjs';

const site = useSite();

async function positionText(page) {
  await page.waitForFunction(() => document.querySelector('svg.board')?.dataset.valid !== undefined);
  return page.textContent('#position-text');
}

test('towers are built top first; the text follows; bad positions are refused', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/study');
    await page.waitForFunction(() => document.getElementById('position-fen')?.textContent.length > 0);
    const start = await api(site.server.url, 'POST', '/api/position', { variant: 'bashni', position: 'start' });
    assert.equal(await page.textContent('#position-text'), start.position.text);
    assert.equal(await page.locator('.layer-pieces .tower').count(), 24);

    await page.click('#empty-board');
    await page.waitForFunction(() => document.querySelectorAll('.layer-pieces .tower').length === 0);
    // d4: a white king on two black men, put in from the top down
    await page.check('#brush-W');
    await page.click('[data-square="d4"]');
    await page.check('#brush-b');
    await page.click('[data-square="d4"]');
    await page.click('[data-square="d4"]');
    await page.click('[data-square="f6"]');
    assert.equal(await page.textContent('#inspector'), 'f6: Black man');
    await page.hover('[data-square="d4"]');
    assert.equal(await page.textContent('#inspector'), 'd4: White king / black man / black man');
    await page.selectOption('#study-turn', 'black');
    await page.waitForFunction(() => /Black to move/.test(document.getElementById('position-text')?.textContent));
    const expected = await api(site.server.url, 'POST', '/api/position', {
      variant: 'bashni', towers: { d4: 'Wbb', f6: 'b' }, turn: 'black',
    });
    assert.equal(await positionText(page), expected.position.text);
    assert.equal(await page.textContent('#position-fen'), expected.position.fen);

    // remove top turns d4 into a black tower
    await page.check('#brush-pop');
    await page.click('[data-square="d4"]');
    await page.waitForFunction(() => document.getElementById('position-text')?.textContent.includes('d4 00'));
    assert.equal(await page.getAttribute('.layer-pieces .tower[data-at="d4"]', 'data-tower'), 'bb');

    // a white man on its crowning rank is not allowed
    await page.check('#brush-w');
    await page.click('[data-square="b8"]');
    await page.waitForSelector('#position-error:not(:empty)');
    assert.equal(await page.textContent('#position-text'), '');
    await page.check('#brush-erase');
    await page.click('[data-square="b8"]');
    await page.waitForFunction(() => document.getElementById('position-error')?.textContent === '');

    await page.click('#study-analyse');
    await page.waitForSelector('#analysis-out .analysis-summary', { timeout: 20000 });
    assert.match(await page.textContent('#analysis-out .analysis-summary'), /^Depth \d+/);
    assert.ok(await page.locator('#analysis-out .lines li').count() >= 1);
  } finally {
    await context.close();
  }
});

test('the Analyse button shows the engine view of the shown position', { timeout: 60000 }, async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'russian', mode: 'local' });
  await api(site.server.url, 'POST', '/api/games/' + created.id + '/move', { move: 'c3-d4', ply: 0 }, created.token);
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    await page.keyboard.press('Home');
    await page.click('#analyse');
    await page.waitForSelector('#analysis-out .analysis-summary', { timeout: 20000 });
    const st = await api(site.server.url, 'GET', '/api/games/' + created.id);
    assert.equal(await page.textContent('#analysis-out .analysed-position'), st.start.text, 'the start position was analysed');
    const href = await page.getAttribute('#open-study', 'href');
    assert.equal(new URL(href, site.server.url).searchParams.get('position'), st.start.fen);
    await page.click('#analyse-each');
    await page.waitForFunction(() => document.querySelectorAll('#moves .eval').length === 1, null, { timeout: 20000 });
  } finally {
    await context.close();
  }
});
