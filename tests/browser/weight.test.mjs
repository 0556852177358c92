// Page weight: bytes over the wire for the game page cold and warm, the home page with 30
// games, and the socket's bytes per move pair at ply 30. Each number is printed (as a test
// diagnostic) and held under a budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect } from 'node:net';
import {
  useSite, api, openGameAs,
} from './harness.mjs';

const site = useSite();

// Counts the bytes a page receives: every response (headers and body, as sent) and every
// WebSocket frame; `responses` counts all the page's files, `requests` those asked of the
// server (the rest came from the browser's cache without a word to the server), `revalidated`
// those answered 304.
async function meter(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const m = { http: 0, ws: 0, responses: 0, cached: new Set(), revalidated: 0, assetsAsked: [], asked: [] };
  cdp.on('Network.loadingFinished', (e) => { m.http += e.encodedDataLength; });
  cdp.on('Network.requestServedFromCache', (e) => { m.cached.add(e.requestId); });
  cdp.on('Network.responseReceived', (e) => {
    // The page's own sounds are made in the browser (blob: addresses): not the network.
    if (!e.response.url.startsWith('http')) return;
    m.responses++;
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) m.cached.add(e.requestId);
    const path = new URL(e.response.url).pathname;
    if (!m.cached.has(e.requestId)) m.asked.push(path + ' ' + e.response.status);
    const asset = path.startsWith('/assets/');
    if (asset && !m.cached.has(e.requestId)) m.assetsAsked.push(e.response.url);
    if (e.response.status === 304) m.revalidated++;
  });
  cdp.on('Network.webSocketFrameReceived', (e) => { m.ws += e.response.payloadData.length; });
  m.reset = () => {
    m.http = 0; m.ws = 0; m.responses = 0; m.cached = new Set(); m.revalidated = 0; m.assetsAsked = []; m.asked = [];
  };
  m.text = () => m.http + ' bytes in ' + m.responses + ' responses (' + (m.responses - m.cached.size) +
    ' asked of the server, ' + m.revalidated + ' revalidated, ' + m.cached.size + ' from the cache)';
  return m;
}

// A relay in front of the server that counts what the server sends on connections that
// became WebSockets, as it goes over the wire: compressed when permessage-deflate was agreed
// (the browser's frame events above give the text after it is inflated). `extensions` is the
// server's Sec-WebSocket-Extensions answer, if any.
async function wireMeter(port) {
  const w = { ws: 0, extensions: null };
  const relay = createServer((client) => {
    const server = connect(port, '127.0.0.1');
    let upgraded = false;
    client.pipe(server);
    server.on('data', (chunk) => {
      if (upgraded) {
        w.ws += chunk.length;
      } else if (chunk.subarray(0, 12).toString() === 'HTTP/1.1 101') {
        upgraded = true;
        const end = chunk.indexOf('\r\n\r\n') + 4;
        const head = chunk.subarray(0, end).toString();
        const found = head.match(/^sec-websocket-extensions:\s*(.*)$/im);
        w.extensions = found ? found[1].trim() : null;
        w.ws += chunk.length - end;
      }
      client.write(chunk);
    });
    server.on('end', () => client.end());
    server.on('error', () => client.destroy());
    client.on('error', () => server.destroy());
    client.on('close', () => server.destroy());
  });
  await new Promise((resolve) => relay.listen(0, '127.0.0.1', resolve));
  w.url = 'http://127.0.0.1:' + relay.address().port;
  w.close = () => relay.close();
  return w;
}

async function quiet(page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
}

test('the game page: cold, warm, and the socket per move pair at ply 30', async (t) => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  // 30 plies played through the API.
  for (let i = 0; i < 30; i++) {
    const st = await api(site.server.url, 'GET', '/api/games/' + created.id, undefined, created.token);
    if (st.result) break;
    await api(site.server.url, 'POST', '/api/games/' + created.id + '/move', { move: st.legal_moves[0].text, ply: st.ply }, created.token);
  }
  const context = await site.browser.newContext({ viewport: { width: 1200, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const wire = await wireMeter(site.server.port);
  try {
    const m = await meter(page);
    await openGameAs(page, wire.url, created);
    m.reset();
    // Cold: a new context has an empty cache, so open the game in a second one.
    const coldContext = await site.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const cold = await coldContext.newPage();
    const mc = await meter(cold);
    await cold.goto(site.server.url + '/g/' + created.id);
    await cold.waitForSelector('svg.board[data-version]');
    await quiet(cold);
    t.diagnostic('game page cold: ' + mc.text() + ', socket ' + mc.ws);
    // Warm: the same page again.
    mc.reset();
    await cold.reload();
    await cold.waitForSelector('svg.board[data-version]');
    await quiet(cold);
    t.diagnostic('game page warm: ' + mc.text() + ', socket ' + mc.ws);
    t.diagnostic('asked on the warm visit: ' + mc.asked.join(', '));
    // Hashed names everywhere: a second visit asks the server for no file of the page, and
    // revalidates nothing but the shell.
    assert.deepEqual(mc.assetsAsked, [], 'files asked again on a warm visit');
    assert.ok(mc.revalidated <= 1, mc.revalidated + ' revalidated');
    const warm = mc.http;
    await coldContext.close();

    // Two plies on the seated page: what its socket receives.
    await quiet(page);
    m.reset();
    wire.ws = 0;
    for (let i = 0; i < 2; i++) {
      const st = await api(site.server.url, 'GET', '/api/games/' + created.id, undefined, created.token);
      await api(site.server.url, 'POST', '/api/games/' + created.id + '/move', { move: st.legal_moves[0].text, ply: st.ply }, created.token);
    }
    await page.waitForFunction(() => document.querySelector('svg.board')?.dataset.plies === '32');
    await page.waitForTimeout(300);
    t.diagnostic('socket bytes for one move pair at ply 30: ' + m.ws);
    t.diagnostic('on the wire: ' + wire.ws + ' (' + (wire.extensions || 'no extension') + ')');
    assert.ok(warm < 12000, 'warm game page ' + warm + ' bytes');
    assert.ok(m.ws > 0 && m.ws < 20000, 'move pair ' + m.ws + ' bytes');
  } finally {
    await context.close();
    wire.close();
  }
});

test('the home page with 30 games', async (t) => {
  for (let i = 0; i < 30; i++) {
    const g = await api(site.server.url, 'POST', '/api/games', { variant: i % 2 ? 'russian' : 'bashni', mode: 'local', name: 'Player ' + i });
    if (i % 3 === 0) await api(site.server.url, 'POST', '/api/games/' + g.id + '/resign', {}, g.token);
  }
  const context = await site.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  try {
    const m = await meter(page);
    await page.goto(site.server.url + '/');
    await page.waitForSelector('#recent li');
    await quiet(page);
    t.diagnostic('home page cold: ' + m.text());
    const cold = m.http;
    m.reset();
    await page.reload();
    await page.waitForSelector('#recent li');
    await quiet(page);
    t.diagnostic('home page warm: ' + m.text());
    assert.deepEqual(m.assetsAsked, [], 'files asked again on a warm visit');
    assert.ok(cold < 150000, 'home page cold ' + cold + ' bytes');
    assert.ok(m.http < cold / 2, 'a second visit takes much less');
  } finally {
    await context.close();
  }
});
