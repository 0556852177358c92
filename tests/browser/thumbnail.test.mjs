// The games list shows each game's position as a small picture drawn by the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage,
} from './harness.mjs';

const site = useSite();

test('each recent game has a thumbnail of its position', async () => {
  const pdn = '[White "Anna"]\n[Black "Boris"]\n[GameType "25"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *\n';
  const upload = await fetch(site.server.url + '/api/pdn', {
    method: 'POST', headers: { 'content-type': 'text/plain' }, body: pdn,
  });
  const answer = await upload.json();
  assert.equal(upload.status, 200, JSON.stringify(answer));
  const id = answer.games[0].id;

  const svg = await fetch(site.server.url + '/api/games/' + id + '/diagram.svg?size=64');
  assert.equal(svg.status, 200);
  assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
  const text = await svg.text();
  assert.equal(text.match(/class="tower"/g).length, 22);

  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/');
    await page.waitForSelector('#records a');
    const thumb = page.locator('#records img.thumb');
    assert.equal(await thumb.count(), 1);
    assert.match(await thumb.getAttribute('src'), new RegExp('^/api/games/' + id + '/diagram\\.svg\\?'));
    // The picture loaded: the browser decoded the SVG and knows its size.
    await page.waitForFunction(() => {
      const img = document.querySelector('#records img.thumb');
      return img && img.complete && img.naturalWidth > 0;
    });
    const box = await thumb.boundingBox();
    assert.ok(box && box.width >= 60 && box.width <= 70, JSON.stringify(box));
    assert.equal(await page.textContent('#records .names'), 'Anna – Boris');
  } finally {
    await context.close();
  }
});
