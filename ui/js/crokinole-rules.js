// The Crokinole options form (new game and settings). It collects values; Rust checks them.

import { h, segmented as seg } from './dom.js';
import { t } from './i18n.js';

export function crokinoleForm(initial, onChange) {
  const r = {
    format: initial.format ?? 'points',
    target: initial.target ?? 100,
    rounds: initial.rounds ?? 4,
    scoring: initial.scoring ?? null,
    discs: initial.discs ?? null,
    start_rule: initial.start_rule ?? 'rotate',
  };
  const form = h('div', { class: 'rules-form' });

  function value() {
    const out = { format: r.format, start_rule: r.start_rule };
    if (r.format === 'points') out.target = r.target; else out.rounds = r.rounds;
    if (r.scoring) out.scoring = r.scoring;
    if (r.discs != null) out.discs = r.discs;
    return out;
  }

  function set(key, v) { r[key] = v; onChange(value()); build(); }

  function segmented(key, label, values, text) {
    return seg(`rule-${key}`, label, values, r[key], text, (v) => set(key, v));
  }

  function num(key, label, min, max, step, placeholder) {
    const id = `rule-${key}`;
    return h('label', { class: 'field', for: id }, h('span', { text: label }),
      h('input', {
        id, type: 'number', inputmode: 'numeric', min, max, step, value: r[key] ?? '', placeholder,
        onchange: (ev) => { const v = ev.target.value.trim(); r[key] = v === '' ? null : Number(v); onChange(value()); },
      }));
  }

  function build() {
    form.replaceChildren(...[
      segmented('format', t('cro_format'), ['points', 'rounds'], (v) => t(`cro_format_${v}`)),
      r.format === 'points'
        ? h('div', { class: 'field-row' },
          segmented('target', t('target'), [50, 100, 150], String),
          num('target', t('cro_other_target'), 5, 1000, 5, '100'))
        : num('rounds', t('cro_rounds'), 1, 20, 1, '4'),
      segmented('scoring', t('cro_scoring'), ['differential', 'simple'], (v) => t(`cro_scoring_${v}`)),
      h('div', { class: 'field-row' },
        num('discs', t('cro_discs'), 1, 12, 1, t('cro_discs_default'))),
      segmented('start_rule', t('cro_start_rule'), ['rotate', 'loser_chooses'], (v) => t(`cro_start_${v}`)),
    ]);
  }
  build();
  return { element: form, value };
}
