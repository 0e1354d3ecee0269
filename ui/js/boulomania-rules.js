// The Boulomania options form: the target and the balls per team. Rust checks them.

import { h, segmented as seg } from './dom.js';
import { t } from './i18n.js';

export function boulomaniaForm(initial, onChange) {
  const r = { target: initial.target ?? 13, balls: initial.balls ?? 8 };
  const form = h('div', { class: 'rules-form' });
  const value = () => ({ ...r });
  function set(key, v) { r[key] = v; onChange(value()); build(); }
  function segmented(key, label, values) {
    return seg(`rule-${key}`, label, values, r[key], String, (v) => set(key, v));
  }
  function build() {
    form.replaceChildren(segmented('target', t('target'), [5, 7, 13]), segmented('balls', t('bou_balls'), [2, 4, 6, 8]));
  }
  build();
  return { element: form, value };
}
