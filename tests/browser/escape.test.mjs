// PDN text is data: tags with markup in an uploaded record are shown literally and never run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage,
} from './harness.mjs';

const site = useSite();

test('markup in PDN tags is shown as text on the record and in the games list', async () => {
  const white = '<img src=x onerror="window.__pwned=1">';
  const black = '<script>window.__pwned=2</script>';
  const pdn = `[Event "<b>bold</b>"]\n[White "${white.replaceAll('"', '\\"')}"]\n[Black "${black}"]\n` +
    '[GameType "60"]\n\n1. c3-d4 f6-g5 *\n';
  const upload = await fetch(site.server.url + '/api/pdn', {
    method: 'POST', headers: { 'content-type': 'text/plain' }, body: pdn,
  });
  const answer = await upload.json();
  assert.equal(upload.status, 200, JSON.stringify(answer));
  const id = answer.games[0].id;
  assert.ok(id, JSON.stringify(answer));
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/g/' + id);
    await page.waitForSelector('svg.board[data-version]');
    assert.equal(await page.textContent('.player .name[data-color="white"]'), white);
    assert.equal(await page.textContent('.player .name[data-color="black"]'), black);
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    assert.equal(await page.locator('.player script').count(), 0);
    await page.goto(site.server.url + '/');
    await page.waitForSelector('#records a');
    const names = await page.$$eval('#records .names', (ns) => ns.map((n) => n.textContent));
    assert.ok(names.some((n) => n.includes(white) && n.includes(black)), names.join('\n'));
    // The only picture is the position's thumbnail; nothing from the tags became an image.
    assert.equal(await page.locator('#records img:not(.thumb)').count(), 0);
    assert.equal(await page.locator('#records img.thumb').count(), 1);
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  } finally {
    await context.close();
  }
});
