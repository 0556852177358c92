// The page's entry: applies the visitor's settings and shows the view the address asks for.

import { el, append } from './dom.js';
import { applySettings, settingsPanel } from './settings.js';
import { homePage } from './home.js';
import { joinPage } from './join.js';
import { gamePage } from './game.js';
import { studyPage } from './study.js';
import { analysisPage } from './analysis-board.js';

applySettings();
const nav = document.querySelector('header.top nav');
if (nav) nav.after(settingsPanel());

const app = document.getElementById('app');
const path = location.pathname.replace(/\/+$/, '') || '/';
let m;
if (path === '/') homePage(app);
else if (path === '/study') studyPage(app);
else if (path === '/analysis') analysisPage(app);
else if ((m = path.match(/^\/g\/([^/]+)\/join\/([^/]+)$/))) joinPage(app, decodeURIComponent(m[1]), decodeURIComponent(m[2]));
else if ((m = path.match(/^\/g\/([^/]+)$/))) gamePage(app, decodeURIComponent(m[1]));
else {
  document.body.dataset.page = 'missing';
  append(app, [el('h1', null, 'Page not found'), el('p', null, el('a', { href: '/' }, 'Go to the start page'))]);
}
