// The Morris options form (new game and settings). It collects values; Rust checks them.

import { h, segmented as seg } from './dom.js';
import { t } from './i18n.js';

export function morrisForm(initial, onChange) {
  const r = {
    pieces: initial.pieces ?? 9,
    flying: initial.flying ?? true,
    diagonals: initial.diagonals ?? false,
    same_mill: initial.same_mill ?? 'again',
    double_mill: initial.double_mill ?? 'one',
  };
  const form = h('div', { class: 'rules-form' });
  const value = () => ({ ...r });
  function set(key, v) { r[key] = v; onChange(value()); build(); }

  function segmented(key, label, values, text) {
    return seg(`rule-${key}`, label, values, r[key], text, (v) => set(key, v));
  }

  function build() {
    form.replaceChildren(
      segmented('pieces', t('mor_pieces'), [3, 6, 9, 12], String),
      segmented('flying', t('mor_flying'), [true, false], (v) => t(v ? 'yes' : 'no')),
      segmented('diagonals', t('mor_diagonals'), [false, true], (v) => t(v ? 'yes' : 'no')),
      segmented('same_mill', t('mor_same_mill'), ['again', 'once'], (v) => t(`mor_same_mill_${v}`)),
      segmented('double_mill', t('mor_double_mill'), ['one', 'each'], (v) => t(`mor_double_mill_${v}`)));
  }
  build();
  return { element: form, value };
}
