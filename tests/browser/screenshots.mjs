// Pictures of the page in one language at desktop and phone sizes: the home page, a game
// with towers, the analysis board of that game and the rules page.
//   node tests/browser/screenshots.mjs [ru|en] [folder]   (default: ru, ./screenshots)
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDb, startServer, launchBrowser, api } from './harness.mjs';

const lang = process.argv[2] || 'ru';
const folder = resolve(process.argv[3] || 'screenshots');
mkdirSync(folder, { recursive: true });
const sizes = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

const tmp = tempDb();
const server = await startServer({ db: tmp.db });
const browser = await launchBrowser();
try {
  // A Bashni game of 16 plies at one screen: enough for captures and towers.
  const game = await api(server.url, 'POST', '/api/games', { variant: 'bashni', mode: 'local' });
  for (let i = 0; i < 16; i++) {
    const st = await api(server.url, 'GET', '/api/games/' + game.id, undefined, game.token);
    if (st.result) break;
    const capture = st.legal_moves.find((m) => m.text.includes(':'));
    const mv = capture || st.legal_moves[(i * 7) % st.legal_moves.length];
    await api(server.url, 'POST', '/api/games/' + game.id + '/move', { move: mv.text, ply: st.ply }, game.token);
  }
  const pages = [
    ['home', '/', '#new-game'],
    ['game', '/g/' + game.id, 'svg.board[data-version]'],
    ['analysis', '/analysis?game=' + game.id, 'svg.board'],
    ['rules', '/rules', 'svg.board'],
  ];
  for (const [sizeName, viewport] of Object.entries(sizes)) {
    const context = await browser.newContext({ viewport, locale: lang === 'ru' ? 'ru-RU' : 'en-US', reducedMotion: 'reduce' });
    // The player's seat, so that the game page is the player's view.
    await context.addInitScript(([id, token]) => {
      localStorage.setItem('bashni.seat.' + id, JSON.stringify({ token, seat: 'both' }));
      localStorage.setItem('bashni.first-game-hint', 'done');
    }, [game.id, game.token]);
    const page = await context.newPage();
    for (const [name, path, ready] of pages) {
      await page.goto(server.url + path);
      await page.waitForSelector(ready);
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => window.scrollTo(0, 0));
      const file = join(folder, `${name}-${lang}-${sizeName}.png`);
      await page.screenshot({ path: file });
      console.log(file);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  tmp.remove();
}
