// The visitor's settings: language, light or dark page, board colours, board size and sounds.
// Kept in the browser and put on the page's root element, where the style sheet reads them.

import { el, field, select } from './dom.js';
import { prefs } from './api.js';
import { soundOn, setSound } from './sound.js';
import { t, language, LANGUAGES, switchLanguage } from './i18n.js';
import { keepLanguage } from './account.js';

/** The board colour sets. */
export function boardThemes() {
  return [
    { value: 'wood', label: t('settings-board-wood') },
    { value: 'green', label: t('settings-board-green') },
    { value: 'grey', label: t('settings-board-grey') },
  ];
}

/** Puts the kept settings on the page. */
export function applySettings() {
  const root = document.documentElement;
  root.dataset.scheme = prefs.get('scheme', 'system');
  root.dataset.boardTheme = prefs.get('boardTheme', 'wood');
  const size = Number(prefs.get('boardSize', '100'));
  root.style.setProperty('--board-scale', String(Math.max(50, Math.min(100, size || 100)) / 100));
}

/** The settings panel: a details box in the page's header. */
export function settingsPanel() {
  const scheme = select('setting-scheme', [
    { value: 'system', label: t('settings-scheme-system') },
    { value: 'light', label: t('settings-scheme-light') },
    { value: 'dark', label: t('settings-scheme-dark') },
  ], prefs.get('scheme', 'system'));
  const theme = select('setting-board', boardThemes(), prefs.get('boardTheme', 'wood'));
  const lang = select('setting-language', LANGUAGES, language);
  const size = el('input', { type: 'range', id: 'setting-size', min: 50, max: 100, step: 5, value: prefs.get('boardSize', '100') });
  const sound = el('input', { type: 'checkbox', id: 'setting-sound' });
  sound.checked = soundOn();
  scheme.addEventListener('change', () => { prefs.set('scheme', scheme.value); applySettings(); });
  theme.addEventListener('change', () => { prefs.set('boardTheme', theme.value); applySettings(); });
  size.addEventListener('input', () => { prefs.set('boardSize', size.value); applySettings(); });
  sound.addEventListener('change', () => setSound(sound.checked));
  const langError = el('p', { class: 'error', id: 'setting-language-error', role: 'alert', hidden: true });
  // An account keeps the choice first; when that fails, nothing changes.
  lang.addEventListener('change', async () => {
    try {
      await keepLanguage(lang.value);
      switchLanguage(lang.value);
    } catch (e) {
      lang.value = language;
      langError.textContent = e.message;
      langError.hidden = false;
    }
  });
  return el('details', { class: 'settings', id: 'settings' },
    el('summary', null, t('settings')),
    el('div', { class: 'settings-box' },
      field(t('settings-language'), lang),
      langError,
      field(t('settings-page-colours'), scheme),
      field(t('settings-board-colours'), theme),
      field(t('settings-board-size'), size),
      el('label', { class: 'check' }, sound, ' ', t('settings-sounds'))));
}
