// The catalogues of the page's texts (crates/server/locales/*.ftl): every language has every
// message, every message the page asks for exists, and the modules moved to the catalogues
// show no text of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FluentBundle, FluentResource } from '../../crates/server/web/fluent-bundle.js';
import { chosenLanguage, useCatalogue, t, LANGUAGES } from '../../crates/server/web/i18n.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const web = join(root, 'crates', 'server', 'web');
const locales = join(root, 'crates', 'server', 'locales');

/** The modules whose texts all come from the catalogues (more join as they are moved). */
const FROM_CATALOGUES = ['main.js', 'settings.js', 'home.js', 'i18n.js',
  'game.js', 'state.js', 'socket.js', 'text.js',
  'lobby.js', 'seeks.js', 'tournaments.js', 'ratings.js', 'rating-chart.js', 'player.js', 'your-turn.js',
  'account-seat.js',
  'study.js', 'analysis-board.js', 'analysis.js', 'tree.js', 'chat.js', 'join.js', 'login.js',
  'account.js', 'board.js', 'towers.js', 'dom.js', 'api.js', 'sound.js', 'selection.js', 'rules.js'];

function catalogue(lang) {
  return readFileSync(join(locales, lang + '.ftl'), 'utf8');
}

/** The ids of a catalogue's messages; fails on a syntax error. */
function messageIds(lang) {
  const resource = new FluentResource(catalogue(lang));
  const bundle = new FluentBundle(lang);
  const errors = bundle.addResource(resource);
  assert.deepEqual(errors, [], lang + '.ftl');
  return new Set(resource.body.map((m) => m.id));
}

/** Every id in `wanted` that `ids` lacks. */
function missing(ids, wanted) {
  return [...wanted].filter((id) => !ids.has(id)).sort();
}

test('every language has the same messages', () => {
  const files = readdirSync(locales).filter((f) => f.endsWith('.ftl')).map((f) => f.replace('.ftl', ''));
  assert.deepEqual(files.sort(), LANGUAGES.map((l) => l.value).sort());
  const english = messageIds('en');
  assert.ok(english.size > 50, 'the English catalogue has its messages');
  for (const lang of files) {
    const ids = messageIds(lang);
    assert.deepEqual(missing(ids, english), [], lang + '.ftl lacks these');
    assert.deepEqual(missing(english, ids), [], 'en.ftl lacks these of ' + lang + '.ftl');
  }
});

test('every message the page asks for is in the catalogues', () => {
  const asked = new Set();
  for (const file of readdirSync(web).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(join(web, file), 'utf8');
    for (const m of code.matchAll(/\bt\('([a-z0-9-]+)'/g)) asked.add(m[1]);
  }
  const shell = readFileSync(join(web, 'index.html'), 'utf8');
  for (const m of shell.matchAll(/data-text="([a-z0-9-]+)"/g)) asked.add(m[1]);
  assert.ok(asked.size > 50);
  for (const lang of LANGUAGES.map((l) => l.value)) {
    assert.deepEqual(missing(messageIds(lang), asked), [], lang + '.ftl lacks messages the page uses');
  }
});

test('the modules moved to the catalogues show no text of their own', () => {
  // A quoted text that starts with a capital and a small letter, or has two words, is
  // something a player reads (the API's words, paths and ids are not like that).
  const readable = /'((?:[A-Z][a-z]|[A-Za-z]+ [A-Za-z]+)[^'\\]*)'/g;
  for (const file of FROM_CATALOGUES) {
    // Without comments, whose words are for programmers.
    const code = readFileSync(join(web, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/\s\/\/\s.*$/gm, '')
      // Class names are for the style sheet.
      .replace(/class: '[^']*'/g, '')
      // Keys are named by the browser, headers by HTTP.
      .replace(/\.key === '[^']*'/g, '')
      .replace(/headers\['[^']*'\]/g, '')
      // The name the server gives a deleted account is compared, not shown.
      .replace(/DELETED_NAME = '[^']*'/, '')
      // Each language is named in itself, the same in every language.
      .replace(/export const LANGUAGES = \[[\s\S]*?\];/, '');
    const found = [...code.matchAll(readable)].map((m) => m[1]);
    assert.deepEqual(found, [], file + ' shows these texts itself');
  }
});

test('the language is the chosen one, else the browser\'s first the site has, else English', () => {
  assert.equal(chosenLanguage('', ['ru-RU', 'en']), 'ru');
  assert.equal(chosenLanguage('', ['de-DE', 'ru']), 'ru');
  assert.equal(chosenLanguage('', ['de-DE', 'fr']), 'en');
  assert.equal(chosenLanguage('en', ['ru-RU']), 'en');
  assert.equal(chosenLanguage('xx', ['ru']), 'ru');
  assert.equal(chosenLanguage('', []), 'en');
});

test('numbers take the plural form of the language', () => {
  useCatalogue('ru', catalogue('ru'));
  assert.deepEqual([1, 2, 5, 21, 22, 25].map((moves) => t('game-item-moves', { moves })),
    ['1 ход', '2 хода', '5 ходов', '21 ход', '22 хода', '25 ходов']);
  useCatalogue('en', catalogue('en'));
  assert.deepEqual([1, 2].map((moves) => t('game-item-moves', { moves })), ['1 move', '2 moves']);
  assert.equal(t('home-pdn-game', { number: 3 }), 'Game 3');
});
