// The page's texts in the visitor's language. The catalogues are Fluent files
// (crates/server/locales/*.ftl) that the server also reads; the server serves each as a module
// (`texts-en.js`, `texts-ru.js`) whose default export is the file's text. The language is the
// one chosen in the settings, else the first of the browser's languages the site has.

import { FluentBundle, FluentResource } from './fluent-bundle.js';
import { prefs } from './api.js';

/** The languages the site speaks, each named in itself. */
export const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'ru', label: 'Русский' },
];

const CODES = LANGUAGES.map((l) => l.value);

/**
 * The language to show: `kept` (chosen in the settings) when the site has it, else the first
 * of `wanted` (the browser's, most wanted first) the site has, else English.
 */
export function chosenLanguage(kept, wanted) {
  if (CODES.includes(kept)) return kept;
  for (const tag of wanted || []) {
    const code = String(tag).toLowerCase().split('-')[0];
    if (CODES.includes(code)) return code;
  }
  return 'en';
}

let bundle = null;
/** The language the texts are in. */
export let language = 'en';

/** Makes the texts of `lang` from a catalogue's text (also for tests). */
export function useCatalogue(lang, source) {
  const next = new FluentBundle(lang, { useIsolating: false });
  const errors = next.addResource(new FluentResource(source));
  if (errors.length) console.warn('texts:', errors);
  bundle = next;
  language = lang;
}

/** Loads the texts of the visitor's language; the page calls it before it shows anything. */
export async function loadTexts() {
  const lang = chosenLanguage(prefs.get('lang', ''), navigator.languages || [navigator.language]);
  const source = (await import(lang === 'ru' ? './texts-ru.js' : './texts-en.js')).default;
  useCatalogue(lang, source);
  document.documentElement.lang = lang;
  return lang;
}

/** The text `id` with `args` (numbers pick their plural form by the language's rules). */
export function t(id, args) {
  const message = bundle && bundle.getMessage(id);
  if (!message || message.value === null) {
    console.warn('texts: no message ' + id);
    return id;
  }
  return bundle.formatPattern(message.value, args);
}

/** A day in the page's language: "1 March 2026", "1 марта 2026 г.". */
export function dateText(ms, month = 'long') {
  const locale = language === 'ru' ? 'ru-RU' : 'en-GB';
  return new Date(ms).toLocaleDateString(locale, { day: 'numeric', month, year: 'numeric' });
}

/** Chooses `lang` for good (kept in the browser) and shows the page again in it. */
export function switchLanguage(lang) {
  prefs.set('lang', lang);
  location.reload();
}

/** Puts the texts into the page's frame: every element with `data-text` gets its message. */
export function translateFrame(root = document) {
  for (const node of root.querySelectorAll('[data-text]')) node.textContent = t(node.dataset.text);
}
