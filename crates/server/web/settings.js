// The visitor's settings: light or dark page, board colours, board size and sounds. Kept in
// the browser and put on the page's root element, where the style sheet reads them.

import { el, field, select } from './dom.js';
import { prefs } from './api.js';
import { soundOn, setSound } from './sound.js';

/** The board colour sets. */
export const BOARD_THEMES = [
  { value: 'wood', label: 'Wood' },
  { value: 'green', label: 'Green' },
  { value: 'grey', label: 'Grey' },
];

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
    { value: 'system', label: 'As the system' },
    { value: 'light', label: 'Light' },
    { value: 'dark', label: 'Dark' },
  ], prefs.get('scheme', 'system'));
  const theme = select('setting-board', BOARD_THEMES, prefs.get('boardTheme', 'wood'));
  const size = el('input', { type: 'range', id: 'setting-size', min: 50, max: 100, step: 5, value: prefs.get('boardSize', '100') });
  const sound = el('input', { type: 'checkbox', id: 'setting-sound' });
  sound.checked = soundOn();
  scheme.addEventListener('change', () => { prefs.set('scheme', scheme.value); applySettings(); });
  theme.addEventListener('change', () => { prefs.set('boardTheme', theme.value); applySettings(); });
  size.addEventListener('input', () => { prefs.set('boardSize', size.value); applySettings(); });
  sound.addEventListener('change', () => setSound(sound.checked));
  return el('details', { class: 'settings', id: 'settings' },
    el('summary', null, 'Settings'),
    el('div', { class: 'settings-box' },
      field('Page colours', scheme),
      field('Board colours', theme),
      field('Board size', size),
      el('label', { class: 'check' }, sound, ' Sounds')));
}
