// Building the page: elements made from data. Every text that comes from the server or from
// a user goes in as a text node, never as HTML.

import { t } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Builds an HTML element; strings and numbers among the children become text nodes. */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** Builds an SVG element. */
export function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.setAttribute('class', value);
    else if (key === 'text') node.textContent = String(value);
    else if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (key === 'dataset') {
      for (const [k, v] of Object.entries(value)) node.dataset[k] = v;
    } else if (key === 'value' && 'value' in node) node.value = value;
    else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
}

/** Appends children (nested arrays, nodes, strings; null and false are skipped). */
export function append(node, children) {
  const list = Array.isArray(children) ? children.flat(Infinity) : [children];
  for (const child of list) {
    if (child === null || child === undefined || child === false) continue;
    if (typeof child === 'string' || typeof child === 'number') {
      node.appendChild(document.createTextNode(String(child)));
    } else {
      node.appendChild(child);
    }
  }
}

/** Removes every child. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** A labelled form field. */
export function field(labelText, control, hint) {
  return el('label', { class: 'field' }, el('span', { class: 'label' }, labelText), control,
    hint ? el('span', { class: 'hint' }, hint) : null);
}

/** A select box with `options` ({value, label}) and `value` chosen. */
export function select(id, options, value) {
  const s = el('select', { id, name: id });
  for (const o of options) {
    const opt = el('option', { value: o.value }, o.label);
    if (String(o.value) === String(value)) opt.selected = true;
    s.appendChild(opt);
  }
  return s;
}

/**
 * A text with an element in it, as a list for `append`: `format(mark)` is the text with
 * `mark` where the element goes (a message's placeholder).
 */
export function textAround(format, node) {
  const mark = '\u0001';
  const [before, after = ''] = format(mark).split(mark);
  return [before, node, after].filter((part) => part !== '');
}

/** A plain button. */
export function button(id, text, onclick, cls) {
  return el('button', { type: 'button', id, class: cls || null, onclick }, text);
}

/** Whether the visitor asked for less motion. */
export function prefersLessMotion() {
  return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

/** The full address of a path on this server. */
export function absoluteUrl(path) {
  return new URL(path, location.origin).href;
}

/** Copies `text`; falls back to selecting `input`. Says how it went in `note`. */
export async function copyText(text, input, note) {
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      ok = true;
    }
  } catch (e) { ok = false; }
  if (!ok && input) {
    input.focus();
    input.select();
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
  }
  if (note) note.textContent = ok ? t('dom-copied') : t('dom-copy-by-hand');
}
