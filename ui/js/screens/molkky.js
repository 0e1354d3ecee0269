// The Mölkky scorepad (and the mölkkout, standalone or as a match's tie-break). It holds no
// rules: Rust answers every tap with the new summary, after committing the throw.

import { ipc } from '../ipc.js';
import { h, glyph, scheduler, names, loads, onePerPress, UNDO_CALM_MS } from '../dom.js';
import { t } from '../i18n.js';
import { app, keepAwake } from '../app.js';
import { endActions } from '../end-actions.js';
import { notesForm } from '../notes.js';
import { register } from '../games.js';

// Pins by the key's place, not its character: on a French keyboard the top row types & é " '
// ( - … unshifted, and "6" would give "-", pin 11. The characters serve keyboards that give no
// place (some on-screen ones).
const CODE_PINS = {
  Digit1: 1, Digit2: 2, Digit3: 3, Digit4: 4, Digit5: 5, Digit6: 6, Digit7: 7, Digit8: 8, Digit9: 9,
  Digit0: 10, Minus: 11, Equal: 12,
  Numpad1: 1, Numpad2: 2, Numpad3: 3, Numpad4: 4, Numpad5: 5, Numpad6: 6, Numpad7: 7, Numpad8: 8,
  Numpad9: 9, Numpad0: 10, NumpadSubtract: 11, NumpadAdd: 12, NumpadEqual: 12,
};
const KEY_PINS = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 0: 10, '-': 11, '=': 12 };

function keyPin(ev) {
  // The number pad with Num Lock off moves (its 8 is an arrow): a pin only when it types one.
  if (ev.code?.startsWith('Numpad') && !/^[0-9+=-]$/.test(ev.key)) return undefined;
  return ev.code ? CODE_PINS[ev.code] : KEY_PINS[ev.key];
}

// A trophy drawn in SVG: emoji fonts are not on every device.
function trophy() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 64 64');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', 'M18 6h28v6h10v6c0 9-6 15-14 16-2 5-5 8-8 9v9h10v6H20v-6h10v-9c-3-1-6-4-8-9-8-1-14-7-14-16v-6h10zm-4 12c0 5 3 9 6 10-1-3-2-6-2-10zm36 0h-4c0 4-1 7-2 10 3-1 6-5 6-10z');
  svg.append(path);
  return svg;
}

export function mount(root, [id], initial, info) {
  const matchId = Number(id);
  const st = { view: initial || null, info: info || null, pins: new Set(), preview: null, busy: false };
  let previewSeq = 0;
  let notes = null; // kept across redraws: it holds what the user is typing

  const sum = () => st.view?.summary;
  const isMolkkout = () => sum()?.phase === 'molkkout';
  const over = () => sum() && sum().status !== 'playing';

  // Views taken from this screen's own throws and undos: a reload asked for before one of them
  // may read the match as it was, and is not drawn over it.
  const reloads = loads();

  async function load() {
    const still = reloads.asked();
    try {
      const [view, info] = await Promise.all([ipc.getMatch(matchId), st.info ? st.info : ipc.gameInfo('molkky')]);
      if (!still()) return;
      // Pins tapped for the throw to come stay down, unless the match moved on under them.
      if (view.actions !== st.view?.actions) { st.pins.clear(); st.preview = null; }
      st.view = view;
      st.info = info;
      keepAwake(!over());
    } catch (e) {
      app.error(e, { reading: true });
    }
    render();
  }

  function act(action, what) {
    if (!st.view) return;
    return app.exclusive(st, render, async () => {
      const before = st.view.summary;
      const view = what === 'undo' ? await ipc.undo(matchId) : await ipc.play(matchId, action);
      reloads.took();
      st.view = view;
      st.pins.clear();
      st.preview = null;
      app.clearError();
      if (what !== 'undo') announce(before, view.summary);
      else app.announce(`${t('undone')}. ${t('to_throw', { name: view.summary.thrower ?? '' })}`);
      keepAwake(!over());
    }, { calm: what === 'undo' ? UNDO_CALM_MS : 0 });
  }

  // What a throw did, said as the log shows it (a bust, a foul, an elimination change the score
  // in ways its points do not tell), then what came of it: a game won in a best-of match, a
  // mölkkout to decide who starts, the warning of one more miss, the winner or who throws now.
  function announce(before, after) {
    const side = before.turn;
    if (side == null) return;
    const name = before.thrower;
    const last = after.last_throw;
    const parts = [t('announce_throw', { name, n: last?.points ?? 0, total: last?.score ?? '' })];
    if (last?.foul) parts.push(t('log_foul'));
    if (last?.bust) parts.push(t('log_bust', { n: last.score }));
    if (last?.dropped) parts.push(t('log_dropped', { n: last.score }));
    if (last?.zeroed) parts.push(t('log_zero'));
    if (last?.eliminated) parts.push(t('log_out'));
    const w = after.winner != null ? st.view.sides[after.winner] : null;
    const leg = (after.legs_won || []).findIndex((n, i) => n > (before.legs_won?.[i] ?? 0));
    if (!w && leg >= 0) {
      const ws = st.view.sides[leg];
      parts.push(t(ws.length > 1 ? 'leg_won_by' : 'leg_won_by_one', { names: names(ws), n: before.leg }));
    }
    if (after.phase === 'molkkout' && before.phase !== 'molkkout' && st.view.game === 'molkky') {
      parts.push(t('molkkout_tiebreak', { n: after.leg }));
    }
    const warned = !w && warning();
    if (warned) parts.push(warned.textContent);
    parts.push(w ? t(w.length > 1 ? 'winner' : 'winner_one', { names: names(w) })
      : after.thrower ? t('to_throw', { name: after.thrower }) : '');
    app.announce(parts.filter(Boolean).join(' · ').replace(/\. · /g, '. '));
  }

  async function togglePin(p) {
    if (over() || st.busy) return;
    if (isMolkkout() && !st.info.molkkout_pins.includes(p)) return;
    if (st.pins.has(p)) st.pins.delete(p); else st.pins.add(p);
    st.preview = null;
    render();
    const seq = ++previewSeq;
    if (!st.pins.size) return;
    try {
      const s = await ipc.preview(matchId, { pins: [...st.pins] });
      if (seq === previewSeq) { st.preview = s; render(); }
    } catch { /* the preview is a hint only; Confirm reports any refusal */ }
  }

  function onKey(ev) {
    if (ev.target.closest?.('input, select, textarea')) return;
    // A key held down repeats: one throw, one miss, one undo for each press, not a run of them
    // (a repeated Enter on a focused button is a click each time, unless held back).
    if (ev.repeat) { onePerPress(ev); return; }
    // With Ctrl, Cmd or Alt a key is the system's (Ctrl+F finds, Cmd+M minimises): only
    // Ctrl/Cmd+Z is the scorepad's, its undo. A throw is committed at once, so a shortcut must
    // never score one.
    if (ev.ctrlKey || ev.metaKey || ev.altKey) {
      // (Ctrl+Shift+Z is a redo elsewhere: not an undo of a throw.)
      if (!ev.altKey && !ev.shiftKey && (ev.key === 'z' || ev.key === 'Z')) { act(null, 'undo'); ev.preventDefault(); }
      return;
    }
    const pin = keyPin(ev);
    if (pin) { togglePin(pin); ev.preventDefault(); }
    // Enter on a focused button is that button's own (a pin, Undo, Miss): only elsewhere does it
    // confirm the pins down.
    else if (ev.key === 'Enter' && st.pins.size && !ev.target.closest?.('button, a, [role=button]')) { act({ pins: [...st.pins] }); ev.preventDefault(); }
    else if (ev.key === 'm' || ev.key === 'M') act({ pins: [] });
    else if (ev.key === 'f' || ev.key === 'F') act({ pins: [], foul: true });
    else if (ev.key === 'u' || ev.key === 'U') act(null, 'undo');
  }

  function pinButton(p) {
    const down = st.pins.has(p);
    return h('button', {
      class: down ? 'pin down' : 'pin', type: 'button', 'data-pin': p, 'data-key': `pin-${p}`,
      'aria-pressed': String(down), 'aria-label': t('pin', { n: p }), disabled: over() || null,
      onclick: () => togglePin(p),
    }, String(p));
  }

  function previewLine() {
    if (!st.pins.size) return t(isMolkkout() ? 'molkkout_line' : 'tap_fallen');
    const s = sum();
    const p = st.preview;
    const last = p?.last_throw;
    if (!last) return '…';
    const pins = [...st.pins];
    let line = pins.length === 1 ? t('one_pin', { p: pins[0], n: last.points }) : t('several_pins', { c: pins.length, n: last.points });
    if (!isMolkkout()) {
      if (last.bust) line += ` · ${t('would_bust', { t: s.target, b: last.score })}`;
      else if (p.leg !== s.leg || p.status !== 'playing' || p.phase !== s.phase) line += ` · ${t('would_win', { t: s.target })}`;
      else line += ` → ${last.score}`;
    }
    return line;
  }

  function sideRow(side, i) {
    const s = sum();
    const mo = isMolkkout();
    const turn = s.turn === i;
    const out = s.eliminated?.[i];
    const warnAt = (s.misses_allowed ?? 3) - 1;
    const warn = !mo && !out && s.misses?.[i] >= warnAt && s.misses?.[i] > 0;
    const nextPlayer = mo ? null : s.next_players?.[i];
    return h('li', {
      class: ['side-row', turn && 'turn', out && 'out', warn && 'warn', s.winner === i && 'winner'].filter(Boolean).join(' '),
      'data-side': i, 'aria-current': turn ? 'true' : null,
    },
    h('span', { class: 'side-names' },
      side.map((n, pi) => h('span', { class: side.length > 1 && pi === nextPlayer ? 'player next' : 'player', text: n }))),
    // Dots read as one picture with its count (a label on a plain span is not read).
    s.best_of > 1 ? h('span', { class: 'legs', role: 'img', 'aria-label': t('legs_won_n', { n: s.legs_won[i] }) },
      Array.from({ length: s.legs_to_win }, (_, k) => h('span', { class: k < s.legs_won[i] ? 'leg-dot won' : 'leg-dot' }))) : null,
    !mo ? h('span', { class: 'miss-dots', role: 'img', 'aria-label': t('misses_count', { n: s.misses[i] }) },
      Array.from({ length: s.misses_allowed }, (_, k) => h('span', { class: k < s.misses[i] ? 'miss-dot on' : 'miss-dot' }))) : null,
    h('span', { class: 'side-score' },
      h('span', { class: 'score', 'data-score': i, text: String(s.scores[i]) }),
      out ? h('span', { class: 'needs', text: t('eliminated') })
        : mo ? h('span', { class: 'needs', text: t('throws_left', { n: s.throws_left[i] }) })
          : h('span', { class: 'needs', text: t('needs', { n: s.needs[i] }) })));
  }

  function logRow(r) {
    const side = st.view.sides[r.side];
    let what = r.foul ? t('log_foul') : r.points === 0 ? t('log_miss') : `+${r.points}`;
    if (r.bust) what += ` · ${t('log_bust', { n: r.score })}`;
    if (r.dropped) what += ` · ${t('log_dropped', { n: r.score })}`;
    if (r.zeroed) what += ` · ${t('log_zero')}`;
    if (r.eliminated) what += ` · ${t('log_out')}`;
    return h('li', { class: r.bust || r.eliminated ? 'log-row alert' : 'log-row' },
      h('span', { class: 'log-name', text: side[r.player] }),
      h('span', { class: 'log-what', text: what }),
      h('span', { class: 'log-score', text: r.score != null ? String(r.score) : '' }));
  }

  function statusLine() {
    const s = sum();
    if (isMolkkout() && st.view.game === 'molkky') return t('molkkout_tiebreak', { n: s.leg });
    if (st.view.game === 'molkkout') return t('molkkout');
    return s.best_of > 1 ? t('leg_of', { n: s.leg, b: s.best_of }) : t('leg', { n: s.leg });
  }

  function warning() {
    const s = sum();
    if (isMolkkout() || s.turn == null) return null;
    const i = s.turn;
    if (s.misses_allowed - s.misses[i] !== 1) return null;
    const key = { eliminate: 'misses_warning', zero: 'misses_warning_zero' }[s.three_misses];
    return key ? h('p', { class: 'warning', role: 'note', text: t(key, { name: names(st.view.sides[i]) }) }) : null;
  }

  function endScreen() {
    const s = sum();
    const w = st.view.sides[s.winner];
    const one = w.length === 1;
    const key = s.best_of > 1 ? (one ? 'match_winner_one' : 'match_winner') : (one ? 'winner_one' : 'winner');
    return h('section', { class: 'end-screen', id: 'end-screen', 'aria-labelledby': 'end-title' },
      h('p', { class: 'trophy', 'aria-hidden': 'true' }, trophy()),
      h('h2', { id: 'end-title', tabindex: -1, 'data-focus': true, text: t(key, { names: names(w) }) }),
      h('h3', { text: t('ranking') }),
      h('ol', { class: 'ranking', id: 'ranking' },
        s.ranking.map((i) => h('li', { class: i === s.winner ? 'winner' : null },
          h('span', { class: 'rank-name', text: names(st.view.sides[i]) }),
          h('span', { class: 'rank-score', text: s.best_of > 1 ? `${s.legs_won[i]} · ${s.scores[i]}` : String(s.scores[i]) }),
          s.eliminated?.[i] ? h('span', { class: 'needs', text: t('eliminated') }) : null))),
      endActions(matchId, () => act(null, 'undo'), st.view),
      (notes ??= notesForm(st.view, () => st.view)));
  }

  function pinsPad() {
    if (isMolkkout()) {
      return h('div', { class: 'pins molkkout-line', id: 'pins', role: 'group', 'aria-label': t('tap_fallen') },
        st.info.molkkout_pins.map(pinButton));
    }
    return h('div', { class: 'pins formation', id: 'pins', role: 'group', 'aria-label': t('tap_fallen') },
      st.info.formation.map((row) => h('div', { class: 'pin-row' }, row.map(pinButton))));
  }

  const draw = () => {
    if (!st.view || !st.info) return h('p', { class: 'empty', text: t('loading') });
    const s = sum();
    app.title(t(`game_${st.view.game}`));
    const mo = isMolkkout();
    const sheet = (s.sheet || []).slice(-6).reverse();
    const pad = over() ? endScreen() : h('div', { class: 'pad' },
      h('p', { class: 'turn-banner', id: 'turn-banner' }, t('to_throw', { name: s.thrower })),
      warning(),
      pinsPad(),
      // Busy while Rust's answer is on its way: the "…" between two taps is not read out.
      h('p', { class: 'preview', id: 'preview', 'aria-live': 'polite', 'aria-busy': st.pins.size && !st.preview?.last_throw ? 'true' : null, text: previewLine() }),
      h('div', { class: 'throw-actions' },
        h('button', { class: 'btn big miss', type: 'button', id: 'miss', 'data-key': 'miss', onclick: () => act({ pins: [] }) }, t('miss')),
        h('button', { class: 'btn big foul', type: 'button', id: 'foul', 'data-key': 'foul', onclick: () => act({ pins: [], foul: true }) }, t('foul')),
        h('button', { class: 'btn big primary confirm', type: 'button', id: 'confirm', 'data-key': 'confirm', disabled: !st.pins.size, 'data-focus-next': '[data-pin]:not([disabled])',
          onclick: () => act({ pins: [...st.pins] }) },
        st.pins.size && st.preview ? t('confirm_pins', { n: previewPoints() }) : t('confirm'))),
      h('p', { class: 'kbd-help', text: t('keyboard_help') }));
    return h('section', { class: `scorepad game-${st.view.game}${mo ? ' phase-molkkout' : ''}`, 'data-actions': st.view.actions, 'data-status': s.status },
      h('div', { class: 'pad-top' },
        h('p', { class: 'status-line', id: 'status-line', text: statusLine() }),
        h('button', { class: 'btn undo', type: 'button', id: 'undo', 'data-key': 'undo', disabled: !st.view.actions || null,
          onclick: () => act(null, 'undo') }, glyph('↶'), t('undo'))),
      h('div', { class: 'pad-cols' },
        h('ol', { class: 'scoreboard', id: 'scoreboard' }, st.view.sides.map(sideRow)),
        h('div', { class: 'pad-col' }, pad),
        sheet.length ? h('div', { class: 'log-col' },
          h('h3', { class: 'log-title', text: t('throw_log') }), h('ol', { class: 'log', id: 'log' }, sheet.map(logRow))) : null));
  };

  function previewPoints() {
    return st.preview?.last_throw?.points ?? 0;
  }

  const render = scheduler(root, draw);
  document.addEventListener('keydown', onKey);
  render();
  if (st.view && st.info) keepAwake(!over()); else load();
  return {
    refresh: load,
    unmount() { document.removeEventListener('keydown', onKey); keepAwake(false); },
  };
}

// How a throw reads in the replay's step list; the figure the player page charts.
export const describe = (a) => (a.foul ? t('foul') : a.pins?.length ? t('pins_n', { pins: a.pins.join(' ') }) : t('miss'));
export const chart = ['chart_points_per_throw', (c) => (c.throws ? c.points / c.throws : null)];

register('molkky', {
  mount,
  edge: 'accent',
  options: ['best_of', 'target', 'bust_to', 'misses', 'three_misses', 'foul_drop'],
  describe,
  chart,
});
