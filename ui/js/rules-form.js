// A game's rules form, drawn from what Rust's game_info says of each option: its default, its
// values, its presets and its range. Nothing about a rule is written here again: a list of
// values is a row of toggles, a range a number field (with the presets as toggles beside it), a
// yes/no default a pair of toggles; a default that Rust gives in words ("half the target") is the
// empty field's placeholder, and Rust applies it. The form only collects values; Rust checks
// them when the match starts or the default is saved, and after every change (`check_rules`):
// a rule that hangs on another (Mölkky's fall-back under its target) is said at its field
// before Start, when Rust's refusal names it (its code is the option's name and `_range` or
// `_multiple`).
//
// Labels come from i18n, per game then shared: `rule_<game>_<option>` or `rule_<option>`; a
// value's `rule_<game>_<option>_<value>` or `rule_<option>_<value>`; a default in words
// `rule_<game>_<option>_default`; the number field beside presets `rule_<game>_<option>_other`
// or `rule_other`.
//
// The form is drawn inside its screen's redraw (`draw()`), so it is patched in place like the
// rest of the screen: a tap on a toggle as the screen redraws still lands. `onChange` is called
// with the new values after every change; the screen redraws then.

import { h, segmented, numberField as field } from './dom.js';
import { t, has, errorText } from './i18n.js';
import { ipc } from './ipc.js';

function label(game, key, suffix = '') {
  const own = `rule_${game}_${key}${suffix}`;
  if (has(own)) return t(own);
  const shared = `rule_${key}${suffix}`;
  return has(shared) ? t(shared) : null;
}

function valueText(game, key, v) {
  return label(game, key, `_${v}`) ?? (typeof v === 'boolean' ? t(v ? 'yes' : 'no') : String(v));
}

/** What is wrong with the number typed in `el` for a rule named `name` that takes a whole
 * number from `min` to `max` (either may be absent), in steps of `step` from `min` where
 * game_info gives one (Crokinole's target is a multiple of 5, as Rust checks it), as an error
 * to show; null when it is right or empty. An unreadable number ("12-") reads as empty to the
 * page: it is caught here, not taken for the default. */
export function numberProblem(el, name, min, max, step = null) {
  const v = el.value.trim();
  const n = Number(v);
  const fits = Number.isInteger(n) && (min == null || n >= min) && (max == null || n <= max)
    && (!step || (n - (min ?? 0)) % step === 0);
  if (!el.validity.badInput && (v === '' || fits)) return null;
  const detail = step && min != null && max != null ? t('rule_range_step', { name, min, max, step })
    : min != null && max != null ? t('rule_range', { name, min, max })
    : min != null ? t('rule_range_from', { name, min }) : t('rule_whole', { name });
  return { kind: 'bad_setup', code: 'rule_typed', detail };
}

/** Two sets of rules alike, whatever the order of their keys. */
export const alike = (a, b) => {
  const keys = Object.keys({ ...a, ...b });
  return keys.every((k) => JSON.stringify(a?.[k]) === JSON.stringify(b?.[k]));
};

// entry: the game's registry entry (its option order, which options apply); info: game_info.
// `prefix` goes into the fields' ids, for a screen that shows several games' forms (Settings).
export function rulesForm(game, info, entry, initial, onChange, prefix = '') {
  const specs = info?.options || {};
  const keys = (entry?.options || Object.keys(specs)).filter((k) => specs[k]);
  const r = {};
  for (const k of keys) if (initial?.[k] !== undefined && initial[k] !== null) r[k] = initial[k];

  // A default Rust gives as a value (not in words) is what the toggles show until changed.
  const real = (spec) => typeof spec.default === 'number' || typeof spec.default === 'boolean'
    || (spec.values || []).includes(spec.default);
  const current = (k) => r[k] ?? (real(specs[k]) ? specs[k].default : null);
  const applies = (k) => !entry?.shown || entry.shown(k, { ...defaults(), ...r });
  const defaults = () => Object.fromEntries(keys.filter((k) => real(specs[k])).map((k) => [k, specs[k].default]));

  // Numbers typed that the rule cannot take (not a number, out of its range, not whole): said
  // at the field at once, in the user's language, and not sent.
  const wrong = {};
  // ...and what was typed there stays in the field beside its error, to be corrected, rather
  // than the last number taken.
  const typed = {};

  // What Rust says of the rules as they are, when its refusal names one of them: {key, error}.
  let refused = null;
  let asked = 0;
  let answered = 0;
  const refusedAt = (k) => (!wrong[k] && refused?.key === k && applies(k) ? refused.error : null);

  /** Asks Rust about the rules as they are now; a later answer than the last question asked is
   * dropped. The screen redraws when what is said changes. */
  async function check() {
    const n = ++asked;
    let error = null;
    try { await ipc.checkRules(game, value()); } catch (e) { error = e; }
    if (n !== asked) return;
    answered = n;
    const key = error && keys.find((k) => error.code === `${k}_range` || error.code === `${k}_multiple`);
    const next = key ? { key, error } : null;
    if (next?.key === refused?.key && next?.error?.code === refused?.error?.code) return;
    refused = next;
    onChange(value());
  }

  /** The first rule typed wrong that applies, else the one Rust refused, as an error to show;
   * null when the form can be sent. */
  function problem() {
    const k = keys.find((key) => wrong[key] && applies(key));
    if (k) return wrong[k];
    // Rust's word on rules changed since is not in yet: Start asks Rust itself.
    if (answered !== asked) return null;
    return refused && refusedAt(refused.key) ? refused.error : null;
  }

  function value() {
    const out = {};
    for (const k of keys) if (r[k] != null && applies(k)) out[k] = r[k];
    return out;
  }

  function set(k, v) {
    if (v === null) delete r[k]; else r[k] = v;
    onChange(value());
    check();
  }

  function numberField(k, spec, title) {
    const id = `rule-${prefix}${k}`;
    const placeholder = label(game, k, '_default')
      ?? (typeof spec.default === 'number' ? String(spec.default) : spec.default === null ? t('off') : '');
    const said = wrong[k]?.detail ?? (refusedAt(k) && errorText(refusedAt(k)));
    return field(id, title, {
      'data-key': id, min: spec.min, max: spec.max, step: spec.step,
      value: wrong[k] ? typed[k] ?? '' : r[k] ?? '', placeholder,
      onchange: (ev) => {
        const problem = numberProblem(ev.target, title, spec.min, spec.max, spec.step);
        if (problem) {
          wrong[k] = problem;
          typed[k] = ev.target.value;
          onChange(value());
          return;
        }
        delete wrong[k];
        const v = ev.target.value.trim();
        set(k, v === '' ? null : Number(v));
      },
    }, said || null);
  }

  function toggles(k, values, title) {
    // A preset chosen puts away what was typed wrong in the field beside it.
    const row = segmented(`rule-${prefix}${k}`, title, values, current(k), (v) => valueText(game, k, v), (v) => { delete wrong[k]; set(k, v); }, { keyed: true });
    // A rule refused as it stands, said under its toggles (a number field beside them says it
    // itself).
    if (!refusedAt(k) || specs[k].presets) return row;
    const id = `rule-${prefix}${k}-error`;
    row.setAttribute('aria-describedby', id);
    return h('div', { class: 'field-group' }, row,
      h('span', { class: 'field-error', id, role: 'alert', text: errorText(refusedAt(k)) }));
  }

  function option(k) {
    const spec = specs[k];
    const title = label(game, k) ?? k;
    if (spec.values) return toggles(k, spec.values, title);
    if (typeof spec.default === 'boolean') return toggles(k, [true, false], title);
    if (spec.presets) {
      return h('div', { class: 'field-row presets' }, toggles(k, spec.presets, title),
        numberField(k, spec, label(game, k, '_other') ?? t('rule_other')));
    }
    return numberField(k, spec, title);
  }

  // Toggle rows each take a line; number fields go side by side.
  function draw() {
    const out = [];
    let fields = null;
    for (const k of keys.filter(applies)) {
      const el = option(k);
      if (el.classList.contains('field-group')) {
        if (!fields) { fields = h('div', { class: 'field-row' }); out.push(fields); }
        fields.append(el);
      } else {
        fields = null;
        out.push(el);
      }
    }
    return h('div', { class: 'rules-form', 'data-rules': game }, out);
  }

  // Rules given at the start (saved defaults, a rematch's) are asked about too.
  if (Object.keys(r).length) check();
  return { draw, value, problem };
}
