// (g) The board is drawn: pixels of squares and towers; names are text, never HTML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useSite, newPage, api, openGameAs, decodePng, luminance,
} from './harness.mjs';

const site = useSite();

// Where the centre of a square is in the screenshot of the board element.
async function squareCentre(page, square) {
  return page.evaluate((sq) => {
    const svg = document.querySelector('svg.board');
    const rect = svg.querySelector(`[data-square="${sq}"]`);
    const box = svg.getBoundingClientRect();
    const r = rect.getBoundingClientRect();
    return { x: r.left - box.left + r.width / 2, y: r.top - box.top + r.height / 2 };
  }, square);
}

// The centre of a light square, found from a dark one next to it.
async function lightCentre(page, darkSquare) {
  return page.evaluate((sq) => {
    const svg = document.querySelector('svg.board');
    const box = svg.getBoundingClientRect();
    const r = svg.querySelector(`[data-square="${sq}"]`).getBoundingClientRect();
    // the square to the right on the screen is light
    return { x: r.left - box.left + r.width * 1.5, y: r.top - box.top + r.height / 2 };
  }, darkSquare);
}

test('the start position is drawn with light and dark squares and towers', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  const { context, page } = await newPage(site.browser, { viewport: { width: 1000, height: 800 } });
  try {
    await openGameAs(page, site.server.url, created);
    const png = decodePng(await page.locator('svg.board').screenshot());
    assert.ok(png.width > 300 && png.height > 300, `board is ${png.width}x${png.height}`);
    const sample = async (p) => luminance(png.pixel(p.x, p.y));
    const darkEmpty = await sample(await squareCentre(page, 'd4'));
    const lightEmpty = await sample(await lightCentre(page, 'd4'));
    const whiteTop = await sample(await squareCentre(page, 'c3'));
    const blackTop = await sample(await squareCentre(page, 'f6'));
    assert.ok(Math.abs(lightEmpty - darkEmpty) > 40, `light ${lightEmpty} and dark ${darkEmpty} squares differ`);
    assert.ok(whiteTop > 200, `a white tower's top is light (${whiteTop})`);
    assert.ok(blackTop < 70, `a black tower's top is dark (${blackTop})`);
    assert.ok(whiteTop > darkEmpty + 40 && blackTop < darkEmpty - 30, 'towers stand out from the dark squares');
    // 24 towers, each one checker, coordinates around
    assert.equal(await page.locator('.layer-pieces .tower').count(), 24);
    const coords = await page.$$eval('.coord', (ns) => ns.map((n) => n.textContent));
    for (const c of ['a', 'h', '1', '8']) assert.ok(coords.includes(c));

    // flipping puts Black at the bottom: c3 moves to the top half
    const before = await squareCentre(page, 'c3');
    await page.click('#flip');
    const after = await squareCentre(page, 'c3');
    assert.ok(after.y < before.y, 'the board turned');
  } finally {
    await context.close();
  }
});

test('a tall tower is drawn compressed with its height, and the inspector lists it', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', {
    variant: 'bashni', mode: 'local', position: 'W:Wc3=1/0000000,e3:Bf6=00/0,h8',
  });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    const st = await api(site.server.url, 'GET', '/api/games/' + created.id);
    assert.equal(st.position.towers.c3, 'Wbbbbbbb');
    const tower = page.locator('.layer-pieces .tower[data-at="c3"]');
    assert.equal(await tower.locator('.disc').count(), 8);
    assert.equal(await tower.locator('.badge-text').textContent(), '8');
    await page.hover('[data-square="f6"]');
    assert.equal(await page.textContent('#inspector'), 'f6: Black man / black man / white man');
    await page.hover('[data-square="c3"]');
    assert.equal(await page.textContent('#inspector'),
      'c3: White king / black man / black man / black man / black man / black man / black man / black man');
  } finally {
    await context.close();
  }
});

test('a name with a script tag is shown as text and never runs', async () => {
  const evil = '<script>window.__pwned=1</script>';
  const { context, page } = await newPage(site.browser);
  try {
    await page.goto(site.server.url + '/');
    await page.selectOption('#mode', 'engine');
    await page.selectOption('#level', '1');
    await page.fill('#name', evil);
    await page.click('#create');
    await page.waitForURL(/\/g\/[^/]+$/);
    await page.waitForSelector('svg.board[data-version]');
    const shown = await page.textContent('.player .name[data-color="white"]');
    assert.equal(shown, evil);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('.player script').count(), 0);
    await page.goto(site.server.url + '/');
    // The game is among the visitor's own games on the start page.
    await page.waitForSelector('#mine a');
    const names = await page.$$eval('#mine .names', (ns) => ns.map((n) => n.textContent));
    assert.ok(names.some((n) => n.includes(evil)), names.join('\n'));
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('#mine script').count(), 0);
  } finally {
    await context.close();
  }
});

test('the inspector follows a move made while it shows a tower', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  const { context, page } = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    await page.hover('[data-square="c3"]');
    assert.equal(await page.textContent('#inspector'), 'c3: White man');
    // The move comes from elsewhere (another tab of the same seat); the mouse stays put.
    await api(site.server.url, 'POST', '/api/games/' + created.id + '/move', { move: 'c3-d4', ply: 0 }, created.token);
    await page.waitForFunction(() => document.querySelector('svg.board')?.dataset.version !== undefined
      && window.__bashniState && window.__bashniState.moves.length === 1);
    await page.waitForFunction(() => !document.querySelector('#inspector').textContent.includes('White man'));
    assert.match(await page.textContent('#inspector'), /^c3: /);
  } finally {
    await context.close();
  }
});

test('nobody gets engine analysis of a game between people until it ends', async () => {
  const created = await api(site.server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'friend' });
  const invite = created.invite_url.split('/').pop();
  const joined = await api(site.server.url, 'POST', '/api/games/' + created.id + '/join', { invite });
  const { context, page } = await newPage(site.browser);
  const watcher = await newPage(site.browser);
  try {
    await openGameAs(page, site.server.url, created);
    await page.waitForSelector('#flip');
    assert.equal(await page.locator('#analyse').count(), 0, 'a seated player may analyse');
    // Nor may a watcher (the game's own watch link in a private window): fair play.
    await watcher.page.goto(site.server.url + '/g/' + created.id);
    await watcher.page.waitForSelector('#flip');
    assert.equal(await watcher.page.locator('#analyse').count(), 0, 'a watcher may analyse');
    assert.equal(await watcher.page.locator('#analysis-board-link').count(), 0);
    await api(site.server.url, 'POST', '/api/games/' + created.id + '/resign', {}, joined.token);
    await page.waitForSelector('#analyse');
    await watcher.page.waitForSelector('#analyse');
  } finally {
    await context.close();
    await watcher.context.close();
  }
});

test('the page follows the system into dark mode', async () => {
  const { context, page } = await newPage(site.browser);
  try {
    const background = async () => page.evaluate(() => {
      const [r, g, b] = getComputedStyle(document.body.parentElement).backgroundColor
        .match(/\d+/g).map(Number);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(site.server.url + '/');
    assert.ok(await background() > 200, 'a light page is light');
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.ok(await background() < 60, 'a dark page is dark');
  } finally {
    await context.close();
  }
});
