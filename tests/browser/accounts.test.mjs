// Accounts on the page: sign up, log out, log in, play a game under the account's name, find it
// on the player's page; a second player signs up and joins; both names show as accounts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, gameIdOf, stateOf } from './harness.mjs';

const site = useSite();

async function signUp(page, name, password) {
  await page.goto(site.server.url + '/login');
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', password);
  await page.fill('#signup-again', password);
  await page.click('#signup');
  await page.waitForURL(new RegExp('/players/' + name + '$'));
  await page.waitForSelector('#player-name');
}

test('sign up, log out, log in, play under the account and find the game', { timeout: 120000 }, async () => {
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  try {
    // A guest sees "Log in" in the header.
    await a.page.goto(site.server.url + '/');
    await a.page.waitForSelector('#login-link');

    // A new account: its own page, the name in the header.
    await signUp(a.page, 'Anna', 'anna secret 1');
    assert.equal(await a.page.textContent('#player-name'), 'Anna');
    assert.match(await a.page.textContent('#player-since'), /^Member since \d+ \w+ \d{4}\.$/);
    await a.page.waitForSelector('#account-name');
    assert.equal(await a.page.textContent('#account-name'), 'Anna');
    assert.equal(await a.page.locator('#own-account').count(), 1, 'her own page lets her manage the account');
    const cookies = await a.context.cookies();
    const session = cookies.find((c) => c.name === 'bashni_session');
    assert.ok(session && session.httpOnly && session.sameSite === 'Lax', JSON.stringify(cookies));
    assert.equal(await a.page.evaluate(() => document.cookie), '', 'the page cannot read the session');

    // The same name in other letter case is taken.
    const other = await newPage(site.browser);
    try {
      await other.page.goto(site.server.url + '/login');
      await other.page.fill('#signup-name', 'ANNA');
      await other.page.fill('#signup-password', 'another secret');
      await other.page.fill('#signup-again', 'another secret');
      await other.page.click('#signup');
      await other.page.waitForSelector('#signup-error:not(:empty)');
      assert.match(await other.page.textContent('#signup-error'), /taken/);
    } finally {
      await other.context.close();
    }

    // Log out, then log in again, with a wrong password first.
    await a.page.click('#logout');
    await a.page.waitForSelector('#login-link');
    await a.page.click('#login-link');
    await a.page.waitForURL(/\/login\?next=/);
    await a.page.fill('#login-name', 'anna');
    await a.page.fill('#login-password', 'not her secret');
    await a.page.click('#login');
    await a.page.waitForSelector('#login-error:not(:empty)');
    assert.equal(await a.page.textContent('#login-error'), 'The name or the password is wrong');
    await a.page.fill('#login-password', 'anna secret 1');
    await a.page.click('#login');
    await a.page.waitForURL(new RegExp('/players/Anna$'));
    await a.page.waitForSelector('#account-name');

    // A friend game: the name field is the account's.
    await a.page.goto(site.server.url + '/');
    await a.page.waitForFunction(() => document.getElementById('name')?.disabled);
    assert.equal(await a.page.inputValue('#name'), 'Anna');
    await a.page.selectOption('#mode', 'friend');
    await a.page.click('#create');
    await a.page.waitForURL(/\/g\/[^/]+$/);
    await a.page.waitForSelector('#invite-link');
    const id = gameIdOf(a.page);
    const invite = await a.page.inputValue('#invite-link');
    await a.page.waitForSelector('.player [data-color="white"].name a.account');
    assert.equal(await a.page.textContent('.player [data-color="white"].name'), 'Anna');

    // The game is on her page.
    await a.page.goto(site.server.url + '/players/Anna');
    await a.page.waitForSelector('#player-games a');
    const links = await a.page.$$eval('#player-games a', (ns) => ns.map((n) => n.getAttribute('href')));
    assert.deepEqual(links, ['/g/' + id]);

    // A second player signs up and joins by the invite link; the name to type is the account's.
    await signUp(b.page, 'Boris', 'boris secret 2');
    await b.page.goto(invite);
    await b.page.waitForFunction(() => document.getElementById('join-name')?.disabled);
    assert.equal(await b.page.inputValue('#join-name'), 'Boris');
    await b.page.click('#join');
    await b.page.waitForURL(new RegExp('/g/' + id + '$'));
    await b.page.waitForSelector('svg.board[data-version]');
    const state = await stateOf(b.page, site.server.url);
    assert.equal(state.you, 'black');
    assert.equal(state.white_player, 'Anna');
    assert.equal(state.black_player, 'Boris');

    // Both pages show both names as accounts, linking to their pages.
    for (const page of [a.page, b.page]) {
      if (page === a.page) await page.goto(site.server.url + '/g/' + id);
      await page.waitForSelector('.player [data-color="black"].name a.account');
      assert.equal(await page.getAttribute('.player [data-color="white"].name a.account', 'href'), '/players/Anna');
      assert.equal(await page.getAttribute('.player [data-color="black"].name a.account', 'href'), '/players/Boris');
      assert.equal(await page.textContent('.player [data-color="black"].name'), 'Boris');
    }
    // Boris's page lists the game too; it is not his own page for Anna.
    await a.page.goto(site.server.url + '/players/Boris');
    await a.page.waitForSelector('#player-games a');
    assert.deepEqual(await a.page.$$eval('#player-games a', (ns) => ns.map((n) => n.getAttribute('href'))), ['/g/' + id]);
    assert.equal(await a.page.locator('#own-account').count(), 0);
    for (const p of [a.page, b.page]) assert.deepEqual(p.__errors || [], []);
  } finally {
    for (const x of [a, b]) await x.context.close();
  }
});

test('deleting the account from its page keeps the game with a deleted player', { timeout: 60000 }, async () => {
  const c = await newPage(site.browser);
  try {
    await signUp(c.page, 'Clara', 'clara secret 3');
    await c.page.goto(site.server.url + '/');
    await c.page.waitForFunction(() => document.getElementById('name')?.disabled);
    await c.page.click('#create');
    await c.page.waitForURL(/\/g\/[^/]+$/);
    const id = gameIdOf(c.page);
    await c.page.goto(site.server.url + '/players/Clara');
    await c.page.waitForSelector('#delete-form');
    await c.page.fill('#delete-password', 'wrong secret');
    await c.page.click('#delete-account');
    await c.page.waitForSelector('#account-error:not(:empty)');
    assert.match(await c.page.textContent('#account-error'), /password is wrong/);
    await c.page.fill('#delete-password', 'clara secret 3');
    await c.page.click('#delete-account');
    await c.page.waitForURL(site.server.url + '/');
    await c.page.waitForSelector('#login-link');
    await c.page.goto(site.server.url + '/g/' + id);
    await c.page.waitForSelector('.player [data-color="white"].name .account.deleted');
    assert.equal(await c.page.textContent('.player [data-color="white"].name'), 'deleted player');
    await c.page.goto(site.server.url + '/players/Clara');
    await c.page.waitForSelector('#player-missing');
    assert.match(await c.page.textContent('#player-missing'), /No such player/);
  } finally {
    await c.context.close();
  }
});
