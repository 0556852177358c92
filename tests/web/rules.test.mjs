// The rules page's data (crates/server/web/rules.js): every rule and draw rule has its texts
// in every catalogue, every example shows a move of its own position, and the address picks
// the game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FluentResource } from '../../crates/server/web/fluent-bundle.js';
import { RUSSIAN_RULES, BASHNI_RULES, RUSSIAN_DRAWS, BASHNI_DRAWS, ruleMessage, gameMessage, askedVariant }
  from '../../crates/server/web/rules.js';

const locales = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'crates', 'server', 'locales');

function ids(lang) {
  const resource = new FluentResource(readFileSync(join(locales, lang + '.ftl'), 'utf8'));
  return new Set(resource.body.map((m) => m.id));
}

test('every rule, draw rule and game heading has its texts in both languages', () => {
  const wanted = [];
  for (const rule of [...RUSSIAN_RULES, ...BASHNI_RULES]) {
    wanted.push(ruleMessage(rule.name, 'title'), ruleMessage(rule.name, 'text'));
  }
  for (const name of [...RUSSIAN_DRAWS, ...BASHNI_DRAWS]) wanted.push(ruleMessage(name, ''));
  for (const variant of ['russian', 'bashni']) {
    wanted.push(gameMessage(variant, 'heading'), gameMessage(variant, 'intro'));
  }
  assert.ok(wanted.length > 40);
  for (const lang of ['en', 'ru']) {
    const have = ids(lang);
    assert.deepEqual(wanted.filter((id) => !have.has(id)), [], lang + '.ftl lacks these');
  }
});

test('each example starts with its shown move\'s tower, and its names are unique', () => {
  const names = new Set();
  for (const rule of [...RUSSIAN_RULES, ...BASHNI_RULES]) {
    assert.ok(!names.has(rule.name), rule.name);
    names.add(rule.name);
    const from = rule.show.split(/[-:]/)[0];
    const tower = rule.towers[from];
    assert.ok(tower, rule.name + ': a tower on ' + from);
    assert.equal(tower[0].toLowerCase(), rule.turn[0], rule.name + ': the side to move owns it');
  }
  // Russian draughts has no towers.
  for (const rule of RUSSIAN_RULES) {
    for (const tower of Object.values(rule.towers)) assert.equal(tower.length, 1, rule.name);
  }
});

test('the address picks the game by ?variant= or by the anchor', () => {
  assert.equal(askedVariant('?variant=russian', ''), 'russian');
  assert.equal(askedVariant('', '#bashni'), 'bashni');
  assert.equal(askedVariant('?variant=bashni', '#russian'), 'bashni');
  assert.equal(askedVariant('?variant=chess', ''), null);
  assert.equal(askedVariant('', ''), null);
});
