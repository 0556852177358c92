// The page's entry: applies the visitor's settings and loads the view the address asks for
// (each view's code is fetched only when it is shown).

import { el, append } from './dom.js';
import { applySettings, settingsPanel } from './settings.js';
import { accountCorner } from './account.js';
import { loadTexts, translateFrame, t } from './i18n.js';

applySettings();
await loadTexts();
translateFrame();
const nav = document.querySelector('header.top nav');
if (nav) nav.after(settingsPanel(), accountCorner());

const app = document.getElementById('app');
const path = location.pathname.replace(/\/+$/, '') || '/';
let m;
if (path === '/') (await import('./home.js')).homePage(app);
else if (path === '/study') (await import('./study.js')).studyPage(app);
else if (path === '/analysis') (await import('./analysis-board.js')).analysisPage(app);
else if (path === '/rules') (await import('./rules.js')).rulesPage(app);
else if (path === '/login') (await import('./login.js')).loginPage(app);
else if ((m = path.match(/^\/players\/([^/]+)$/))) {
  (await import('./player.js')).playerPage(app, decodeURIComponent(m[1]));
}
else if (path === '/lobby') (await import('./lobby.js')).lobbyPage(app);
else if (path === '/puzzles') (await import('./puzzles.js')).puzzlesPage(app, null);
else if (path === '/puzzles/daily') (await import('./puzzles.js')).puzzlesPage(app, 'daily');
else if ((m = path.match(/^\/puzzles\/([^/]+)$/))) (await import('./puzzles.js')).puzzlesPage(app, decodeURIComponent(m[1]));
else if (path === '/leaderboard') (await import('./ratings.js')).leaderboardPage(app);
else if ((m = path.match(/^\/g\/([^/]+)\/join\/([^/]+)$/))) {
  (await import('./join.js')).joinPage(app, decodeURIComponent(m[1]), decodeURIComponent(m[2]));
} else if ((m = path.match(/^\/g\/([^/]+)$/))) {
  await (await import('./account-seat.js')).takeAccountSeat(decodeURIComponent(m[1]));
  (await import('./game.js')).gamePage(app, decodeURIComponent(m[1]));
} else if (path === '/tournaments') (await import('./tournaments.js')).tournamentsPage(app);
else if ((m = path.match(/^\/t\/([^/]+)$/))) {
  (await import('./tournaments.js')).tournamentPage(app, decodeURIComponent(m[1]));
} else {
  document.body.dataset.page = 'missing';
  append(app, [el('h1', null, t('page-not-found')), el('p', null, el('a', { href: '/' }, t('page-not-found-back')))]);
}
