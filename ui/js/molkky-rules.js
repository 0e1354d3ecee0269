// The Mölkky options form, shared by the new-game screen and the settings. It only collects
// values; Rust checks them when the match starts or the default is saved.

import { h, segmented as seg } from './dom.js';
import { t } from './i18n.js';

const PENALTIES = ['eliminate', 'zero', 'none'];

export function rulesForm(initial, onChange, { allowMatch = true } = {}) {
  const r = {
    target: initial.target ?? 50,
    bust_to: initial.bust_to ?? null,
    misses: initial.misses ?? 3,
    three_misses: initial.three_misses ?? 'eliminate',
    foul_drop: initial.foul_drop ?? null,
    best_of: initial.best_of ?? 1,
  };

  const changed = () => onChange(value());

  function value() {
    const out = { target: r.target, misses: r.misses, three_misses: r.three_misses, best_of: r.best_of };
    if (r.bust_to != null) out.bust_to = r.bust_to;
    if (r.foul_drop != null) out.foul_drop = r.foul_drop;
    return out;
  }

  function num(key, label, min, max, { nullable = false } = {}) {
    const id = `rule-${key}`;
    const input = h('input', {
      id, type: 'number', inputmode: 'numeric', min, max, 'data-key': id,
      value: r[key] ?? '', placeholder: nullable ? t('off') : String(Math.floor(r.target / 2)),
      onchange: (ev) => {
        const v = ev.target.value.trim();
        r[key] = v === '' ? null : Number(v);
        changed();
      },
    });
    return h('label', { class: 'field', for: id }, h('span', { text: label }), input);
  }

  function segmented(key, label, values, text) {
    return seg(`rule-${key}`, label, values, r[key], text, (v) => { r[key] = v; changed(); build(); }, { keyed: true });
  }

  const form = h('div', { class: 'rules-form' });
  function build() {
    form.replaceChildren(...[
      allowMatch ? segmented('best_of', t('best_of'), [1, 3, 5], (v) => t(`best_of_${v}`)) : null,
      h('div', { class: 'field-row' },
        num('target', t('target'), 10, 200),
        num('bust_to', t('bust_to'), 0, 199)),
      h('div', { class: 'field-row' },
        num('misses', t('misses'), 2, 10),
        h('label', { class: 'field', for: 'rule-three_misses' },
          h('span', { text: t('three_misses') }),
          h('select', {
            id: 'rule-three_misses', 'data-key': 'rule-three_misses',
            onchange: (ev) => { r.three_misses = ev.target.value; changed(); },
          }, PENALTIES.map((p) => h('option', { value: p, selected: r.three_misses === p }, t(`pen_${p}`)))))),
      num('foul_drop', t('foul_drop'), 1, 199, { nullable: true })].filter(Boolean));
    return form;
  }
  build();
  return { element: form, value };
}
