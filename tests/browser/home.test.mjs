// The start page: the visitor's own games, live games, finished games a page at a time,
// thumbnails cached for good.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, openGameAs,
} from './harness.mjs';

const site = useSite();

test('own games, live games, and finished games a page at a time', async () => {
  const finished = [];
  for (let i = 0; i < 14; i++) {
    const g = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local', name: 'F' + i });
    await api(site.server.url, 'POST', '/api/games/' + g.id + '/move', { move: 'c3-d4', ply: 0 }, g.token);
    await api(site.server.url, 'POST', '/api/games/' + g.id + '/resign', {}, g.token);
    finished.push(g.id);
  }
  const live = await api(site.server.url, 'POST', '/api/games', { variant: 'russian', mode: 'local', name: 'Live' });
  await api(site.server.url, 'POST', '/api/games/' + live.id + '/move', { move: 'c3-d4', ply: 0 }, live.token);
  const mine = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'friend', name: 'Mine' });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, mine);
    await page.goto(site.server.url + '/');
    await page.waitForSelector('#mine a');
    assert.deepEqual(await page.$$eval('#mine .names', (ns) => ns.map((n) => n.textContent)), ['Mine – Black']);
    await page.waitForSelector('#live a');
    const liveNames = await page.$$eval('#live .names', (ns) => ns.map((n) => n.textContent));
    assert.ok(liveNames.includes('Live – Black'), liveNames.join());
    await page.waitForSelector('#recent a');
    assert.equal(await page.locator('#recent li').count(), 10, 'one page of ten');
    await page.click('#recent-box button.more');
    await page.waitForFunction(() => document.querySelectorAll('#recent li').length === 14);
    assert.equal(await page.isHidden('#recent-box button.more'), true, 'no more pages');
    // Each thumbnail names the game's version, so the browser keeps it for good.
    const src = await page.getAttribute('#recent img.thumb', 'src');
    assert.match(src, /version=\d+/);
    const res = await fetch(site.server.url + src);
    assert.match(res.headers.get('cache-control') || '', /immutable/);
  } finally {
    await context.close();
  }
});

test('on a phone every link of the header is on the screen', async () => {
  const { context, page } = await newPage(site.browser, { viewport: { width: 390, height: 844 } });
  try {
    await page.goto(site.server.url + '/');
    await page.waitForSelector('header.top nav a');
    const links = await page.$$eval('header.top nav a, header.top .account-corner a',
      (as) => as.map((a) => { const r = a.getBoundingClientRect(); return { text: a.textContent, left: r.left, right: r.right }; }));
    assert.ok(links.length >= 5, JSON.stringify(links));
    for (const link of links) {
      assert.ok(link.left >= 0 && link.right <= 390, 'off the screen: ' + JSON.stringify(link));
    }
  } finally {
    await context.close();
  }
});
