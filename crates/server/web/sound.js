// Short sounds for a move, a capture, low time and the end of a game, made in the page (no
// files to load). The visitor can turn them off; the choice is kept.

import { prefs } from './api.js';

// A WAV file of `tones` ([frequency Hz, seconds]) one after the other, softly faded.
function wav(tones) {
  const rate = 22050;
  const samples = [];
  for (const [freq, secs] of tones) {
    const n = Math.floor(rate * secs);
    for (let i = 0; i < n; i++) {
      const fade = Math.min(1, i / 200, (n - i) / 600);
      samples.push(Math.sin((2 * Math.PI * freq * i) / rate) * 0.35 * fade * Math.exp(-3 * i / n));
    }
  }
  const data = new DataView(new ArrayBuffer(44 + samples.length * 2));
  const text = (at, s) => { for (let i = 0; i < s.length; i++) data.setUint8(at + i, s.charCodeAt(i)); };
  text(0, 'RIFF');
  data.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVEfmt ');
  data.setUint32(16, 16, true);
  data.setUint16(20, 1, true);
  data.setUint16(22, 1, true);
  data.setUint32(24, rate, true);
  data.setUint32(28, rate * 2, true);
  data.setUint16(32, 2, true);
  data.setUint16(34, 16, true);
  text(36, 'data');
  data.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => data.setInt16(44 + i * 2, Math.max(-1, Math.min(1, s)) * 32767, true));
  return URL.createObjectURL(new Blob([data], { type: 'audio/wav' }));
}

const TONES = {
  move: [[520, 0.07]],
  capture: [[420, 0.06], [300, 0.09]],
  low: [[880, 0.08], [880, 0.08]],
  end: [[523, 0.12], [659, 0.12], [784, 0.2]],
};

let elements = null;

/** Whether sounds are on. */
export function soundOn() {
  return prefs.get('sound', 'on') === 'on';
}

/** Turns sounds on or off, and remembers it. */
export function setSound(on) {
  prefs.set('sound', on ? 'on' : 'off');
}

/** The page's audio elements, made once and put in the page (hidden) so that tests and assistive tools can see them. */
export function soundElements() {
  if (elements) return elements;
  elements = {};
  const box = document.createElement('div');
  box.hidden = true;
  box.id = 'sounds';
  for (const [name, tones] of Object.entries(TONES)) {
    const a = document.createElement('audio');
    a.id = 'sound-' + name;
    a.preload = 'auto';
    a.src = wav(tones);
    box.appendChild(a);
    elements[name] = a;
  }
  document.body.appendChild(box);
  return elements;
}

/** Plays a sound (`move`, `capture`, `low`, `end`) unless sounds are off. */
export function play(name) {
  if (!soundOn()) return;
  const a = soundElements()[name];
  if (!a) return;
  try {
    a.currentTime = 0;
    const p = a.play();
    if (p && p.catch) p.catch(() => { /* the browser may refuse before a click */ });
  } catch (e) { /* no sound */ }
}
