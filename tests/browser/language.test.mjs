// The page in the visitor's language: Russian for a browser set to Russian, English
// otherwise, and the language chosen in the settings kept across visits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage } from './harness.mjs';

const site = useSite();

test('a Russian browser gets Russian, the settings switch to English and it stays so', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'ru-RU' });
  try {
    await page.goto(site.server.url + '/');
    await page.waitForSelector('#new-game');
    assert.equal(await page.getAttribute('html', 'lang'), 'ru');
    assert.equal(await page.textContent('#create'), 'Начать партию');
    assert.equal(await page.textContent('#nav-lobby'), 'Лобби');
    assert.equal(await page.textContent('#settings summary'), 'Настройки');
    // Plural forms by the language's rules: 1 день, 2 дня, 7 дней.
    const days = await page.$$eval('#days option', (os) => os.map((o) => o.textContent));
    assert.deepEqual(days, ['1 день', '2 дня', '3 дня', '7 дней']);
    await page.click('#settings summary');
    await Promise.all([
      page.waitForEvent('load'),
      page.selectOption('#setting-language', 'en'),
    ]);
    await page.waitForSelector('#new-game');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await page.textContent('#create'), 'Start the game');
    assert.equal(await page.textContent('#nav-lobby'), 'Lobby');
    // Kept for the next visit, although the browser still asks for Russian.
    await page.goto(site.server.url + '/');
    await page.waitForSelector('#new-game');
    assert.equal(await page.textContent('#create'), 'Start the game');
    assert.equal(page.__errors, undefined, String(page.__errors));
  } finally {
    await context.close();
  }
});

test('the server says why it refuses in the page\'s language', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'ru-RU' });
  try {
    await page.goto(site.server.url + '/login');
    await page.fill('#login-name', 'Nobody');
    await page.fill('#login-password', 'not the password');
    await page.press('#login-password', 'Enter');
    await page.waitForFunction(() => (document.getElementById('login-error')?.textContent ?? '') !== '');
    assert.equal(await page.textContent('#login-error'), 'Неверное имя или пароль');
  } finally {
    await context.close();
  }
});

test('an English browser gets English, and another language falls back to English', async () => {
  for (const locale of ['en-GB', 'de-DE']) {
    const { context, page } = await newPage(site.browser, { locale });
    try {
      await page.goto(site.server.url + '/');
      await page.waitForSelector('#new-game');
      assert.equal(await page.getAttribute('html', 'lang'), 'en', locale);
      assert.equal(await page.textContent('#create'), 'Start the game', locale);
    } finally {
      await context.close();
    }
  }
});

test('an account keeps its language: a new browser that logs in is shown the page in it', { timeout: 60000 }, async () => {
  const first = await newPage(site.browser, { locale: 'en-US' });
  const second = await newPage(site.browser, { locale: 'en-US' });
  try {
    const { page } = first;
    await page.goto(site.server.url + '/login');
    await page.fill('#signup-name', 'Vera');
    await page.fill('#signup-password', 'correct horse');
    await page.fill('#signup-again', 'correct horse');
    await page.click('#signup');
    await page.waitForSelector('#player-name');
    await page.click('#settings summary');
    await Promise.all([page.waitForEvent('load'), page.selectOption('#setting-language', 'ru')]);
    await page.waitForSelector('#player-name');
    assert.equal(await page.getAttribute('html', 'lang'), 'ru');
    // The store has it.
    const kept = await page.evaluate(async () => (await fetch('/api/account')).json());
    assert.equal(kept.language, 'ru');

    // Another browser, set to English, logs in: the account's Russian follows.
    const other = second.page;
    await other.goto(site.server.url + '/login');
    assert.equal(await other.getAttribute('html', 'lang'), 'en');
    await other.fill('#login-name', 'Vera');
    await other.fill('#login-password', 'correct horse');
    await other.click('#login');
    await other.waitForFunction(() => document.documentElement.lang === 'ru', null, { timeout: 20000 });
    await other.waitForSelector('#nav-lobby');
    assert.equal(await other.textContent('#nav-lobby'), 'Лобби');
    assert.equal(first.page.__errors, undefined, String(first.page.__errors));
  } finally {
    await first.context.close();
    await second.context.close();
  }
});
