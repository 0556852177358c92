// Shared helpers for the browser tests: start the server, start the browser,
// talk to the API, click moves on the board, read PNG screenshots.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, '..', '..');

export const BASHNI_BIN = process.env.BASHNI_BIN ||
  resolve(REPO, process.env.CARGO_TARGET_DIR || 'target', 'debug', 'bashni');

export function tempDb() {
  const dir = mkdtempSync(join(tmpdir(), 'bashni-web-'));
  return { dir, db: join(dir, 'games.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// Start `bashni serve` (with more options in `args`); resolves when the server prints its
// address.
export function startServer({ db, addr = '127.0.0.1:0', env = {}, args = [] } = {}) {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(BASHNI_BIN, ['serve', '--addr', addr, '--db', db, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      proc.kill('SIGKILL');
      reject(new Error('the server did not start in time\nstdout: ' + out + '\nstderr: ' + err));
    }, 30000);
    proc.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m && !done) {
        done = true;
        clearTimeout(timer);
        const port = Number(m[1]);
        resolvePromise({
          proc,
          port,
          url: 'http://127.0.0.1:' + port,
          stderr: () => err,
          async stop() {
            if (proc.exitCode !== null || proc.signalCode !== null) return;
            const exited = new Promise((r) => proc.once('exit', r));
            proc.kill('SIGTERM');
            const t = setTimeout(() => proc.kill('SIGKILL'), 3000);
            await exited;
            clearTimeout(t);
          },
          async kill() {
            if (proc.exitCode !== null || proc.signalCode !== null) return;
            const exited = new Promise((r) => proc.once('exit', r));
            proc.kill('SIGKILL');
            await exited;
          },
        });
      }
    });
    proc.stderr.on('data', (chunk) => { err += chunk.toString(); });
    proc.on('exit', (code, signal) => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        reject(new Error('the server stopped (' + (code ?? signal) + ')\nstdout: ' + out + '\nstderr: ' + err));
      }
    });
  });
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage',
      '--autoplay-policy=no-user-gesture-required'],
  });
}

// A fresh browser context; reduced motion switches the move animation off, so that
// clicks never wait for it (one test keeps the animation on). The browser's language is
// English unless `locale` says otherwise.
export async function newPage(browser, { motion = false, viewport = { width: 1200, height: 900 }, touch = false, locale = 'en-US' } = {}) {
  const context = await browser.newContext({
    viewport,
    locale,
    hasTouch: touch,
    reducedMotion: motion ? 'no-preference' : 'reduce',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => { page.__errors = (page.__errors || []).concat(String(e)); });
  return { context, page };
}

export async function api(base, method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['X-Seat-Token'] = token;
  const res = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data;
  try { data = JSON.parse(text); } catch { data = text; }
  if (!res.ok) {
    const e = new Error(method + ' ' + path + ' -> ' + res.status + ': ' + text);
    e.status = res.status;
    e.body = data;
    throw e;
  }
  return data;
}

export function gameIdOf(page) {
  const m = new URL(page.url()).pathname.match(/^\/g\/([^/]+)/);
  return m ? decodeURIComponent(m[1]) : null;
}

export async function tokenOf(page, id) {
  return page.evaluate((gid) => {
    const raw = localStorage.getItem('bashni.seat.' + gid);
    return raw ? JSON.parse(raw).token : null;
  }, id);
}

// The game as the page's token sees it.
export async function stateOf(page, base) {
  const id = gameIdOf(page);
  const token = await tokenOf(page, id);
  return api(base, 'GET', '/api/games/' + encodeURIComponent(id), undefined, token);
}

export async function boardData(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('svg.board');
    return svg ? { ...svg.dataset } : null;
  });
}

// Wait until the page shows the game at `minPlies` moves or more and either lets
// this page move or shows a result. Returns 'move' or 'over'.
export async function waitTurnOrEnd(page, minPlies = 0, timeout = 30000) {
  const handle = await page.waitForFunction((n) => {
    const svg = document.querySelector('svg.board');
    const result = document.getElementById('result');
    if (result && !result.hidden && result.textContent) return 'over';
    if (!svg) return false;
    if (Number(svg.dataset.plies) < n) return false;
    return svg.dataset.canMove === 'true' ? 'move' : false;
  }, minPlies, { timeout, polling: 50 });
  return handle.jsonValue();
}

export async function waitPlies(page, n, timeout = 20000) {
  await page.waitForFunction((k) => {
    const svg = document.querySelector('svg.board');
    return svg && Number(svg.dataset.plies) >= k;
  }, n, { timeout, polling: 50 });
}

// Click a legal move's squares in order. Once the page has only one candidate left
// it plays the move by itself, so the clicks stop there.
export async function clickPath(page, path) {
  await page.click(`[data-square="${path[0]}"]`);
  for (let i = 1; i < path.length; i++) {
    const chosen = await page.evaluate(() => document.querySelector('svg.board').dataset.chosen || '');
    if (!chosen) return;
    await page.click(`[data-square="${path[i]}"]`);
  }
}

export async function moveListTexts(page) {
  return page.$$eval('#moves .mv[data-ply]', (nodes) => nodes.map((n) => n.textContent));
}

// ---- a small PNG reader (8-bit RGB/RGBA, not interlaced), enough for screenshots

export function decodePng(buf) {
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  for (let i = 0; i < 8; i++) if (buf[i] !== sig[i]) throw new Error('not a PNG');
  let pos = 8;
  let width = 0; let height = 0; let depth = 0; let colorType = 0; let interlace = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      depth = data[8];
      colorType = data[9];
      interlace = data[12];
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
    pos += 12 + len;
  }
  if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) {
    throw new Error(`unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${interlace}`);
  }
  const bpp = colorType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const pixels = Buffer.alloc(height * stride);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[x - bpp] : 0;
      const b = prev[x];
      const c = x >= bpp ? prev[x - bpp] : 0;
      let v = line[x];
      switch (filter) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) >> 1; break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a); const pb = Math.abs(p - b); const pc = Math.abs(p - c);
          v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new Error('bad PNG filter ' + filter);
      }
      out[x] = v & 255;
    }
    prev = out;
  }
  return {
    width,
    height,
    pixel(x, y) {
      const i = (Math.round(y) * width + Math.round(x)) * bpp;
      return [pixels[i], pixels[i + 1], pixels[i + 2]];
    },
  };
}

export function luminance([r, g, b]) {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

// Open a game page holding a seat token that the test got from the API.
export async function openGameAs(page, base, created) {
  await page.goto(base + '/study');
  await page.evaluate(([id, token, seat]) => {
    localStorage.setItem('bashni.seat.' + id, JSON.stringify({ token, seat }));
  }, [created.id, created.token, created.seat]);
  await page.goto(base + '/g/' + encodeURIComponent(created.id));
  await page.waitForSelector('svg.board[data-version]');
}

// Play a game's towers forward by one move in Bashni terms, to check the page's result
// independently: each jumped tower gives its top checker, which goes to the bottom of
// the moving tower.
export function applyBashniMove(towers, move, variant = 'bashni') {
  const t = { ...towers };
  let mover = t[move.path[0]];
  delete t[move.path[0]];
  for (const sq of move.captured || []) {
    const victim = t[sq];
    if (variant === 'bashni') {
      mover += victim[0];
      if (victim.length > 1) t[sq] = victim.slice(1); else delete t[sq];
    } else {
      delete t[sq];
    }
  }
  const end = move.path[move.path.length - 1];
  const rank = end[1];
  const top = mover[0];
  if (top === 'w' && rank === '8') mover = 'W' + mover.slice(1);
  if (top === 'b' && rank === '1') mover = 'B' + mover.slice(1);
  t[end] = mover;
  return t;
}

// One server on a fresh database and one browser for a test file: started before its tests,
// stopped after them (`args`: more options of `bashni serve`). The fields are filled once
// the tests run.
export function useSite({ args = [] } = {}) {
  const site = { server: null, browser: null, tmp: null };
  before(async () => {
    site.tmp = tempDb();
    site.server = await startServer({ db: site.tmp.db, args });
    site.browser = await launchBrowser();
  });
  after(async () => {
    if (site.browser) await site.browser.close();
    if (site.server) await site.server.stop();
    if (site.tmp) site.tmp.remove();
  });
  return site;
}

// Moves the keyboard's cursor to square `to` with the arrow keys the board answers to (see
// board.js: sideways two files, up and down one row and one file over), White at the bottom.
export async function keyTo(page, to) {
  for (let i = 0; i < 40; i++) {
    const at = (await boardData(page)).cursor;
    if (at === to) return;
    const [c, r] = [at.charCodeAt(0) - 97, Number(at.slice(1))];
    const [tc, tr] = [to.charCodeAt(0) - 97, Number(to.slice(1))];
    if (r < tr) await page.keyboard.press('ArrowUp');
    else if (r > tr) await page.keyboard.press('ArrowDown');
    else await page.keyboard.press(c < tc ? 'ArrowRight' : 'ArrowLeft');
  }
  throw new Error('the cursor did not reach ' + to);
}
