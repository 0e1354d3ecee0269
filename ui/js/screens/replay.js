// A match replayed step by step: each step is Rust's summary after that many actions, so this
// screen works for every game; a game's entry (games.js) may say how an action reads and add a
// drawing of its state (the Morris board).

import { ipc } from '../ipc.js';
import { h, scheduler, names, stillUp } from '../dom.js';
import { t } from '../i18n.js';
import { app, loadFailed } from '../app.js';
import { game, gameInfo } from '../games.js';

export function mount(root, [id]) {
  const matchId = Number(id);
  const st = { view: null, info: null, actions: [], step: 0, at: null, failed: null };
  let seq = 0;

  async function go(n) {
    const step = Math.max(0, Math.min(st.actions.length, n));
    const mine = ++seq;
    try {
      const at = await ipc.summaryAt(matchId, step);
      if (mine !== seq || !up()) return; // a later step was asked meanwhile, or the screen left
      st.step = step;
      st.at = at;
      const total = st.actions.length;
      app.announce(step ? t('replay_step_action', { n: step, total, what: describe(st.actions[step - 1]) }) : t('replay_step', { n: step, total }));
      render();
    } catch (e) {
      if (!up()) return;
      // The first step not read: the screen says why, with Retry, not "Loading…" for ever
      // (said once, there, not also at the foot of the screen).
      if (!st.at) { st.failed = e; render(); } else app.error(e, { reading: true });
    }
  }

  function describe(a) {
    return (game(st.view.game)?.describe || JSON.stringify)(a);
  }

  function gameView(s) {
    const draw = game(st.view.game)?.replay;
    return draw && st.info ? draw(s, st.info) : null;
  }

  function draw() {
    if ((!st.view || !st.at) && st.failed) {
      return loadFailed(st.failed, load);
    }
    if (!st.view || !st.at) return h('p', { class: 'empty', text: t('loading') });
    const s = st.at.summary;
    const n = st.actions.length;
    return h('section', { class: 'replay', 'data-step': st.step },
      h('p', { class: 'replay-step', id: 'replay-step', text: t('replay_step', { n: st.step, total: n }) }),
      h('div', { class: 'replay-controls' },
        h('button', { class: 'btn', type: 'button', id: 'replay-first', 'data-focus-next': '#replay-slider', 'aria-label': t('replay_first'), disabled: st.step === 0, onclick: () => go(0) }, '«'),
        h('button', { class: 'btn', type: 'button', id: 'replay-prev', 'data-focus-next': '#replay-slider', 'aria-label': t('replay_prev'), disabled: st.step === 0, onclick: () => go(st.step - 1) }, '‹'),
        h('button', { class: 'btn', type: 'button', id: 'replay-next', 'data-focus-next': '#replay-slider', 'aria-label': t('replay_next'), disabled: st.step === n, onclick: () => go(st.step + 1) }, '›'),
        h('button', { class: 'btn', type: 'button', id: 'replay-last', 'data-focus-next': '#replay-slider', 'aria-label': t('replay_last'), disabled: st.step === n, onclick: () => go(n) }, '»')),
      h('input', {
        type: 'range', id: 'replay-slider', min: 0, max: n, value: st.step, 'aria-label': t('replay_slider'), 'aria-valuetext': t('replay_step', { n: st.step, total: n }),
        oninput: (ev) => go(Number(ev.target.value)),
      }),
      h('p', { class: 'replay-action', id: 'replay-action', text: st.step ? describe(st.actions[st.step - 1]) : t('replay_start') }),
      h('table', { class: 'replay-scores', id: 'replay-scores' },
        h('tbody', null, st.view.sides.map((side, i) => h('tr', { class: s.turn === i ? 'turn' : null },
          h('th', { scope: 'row', text: names(side) }),
          h('td', { 'data-score': i, text: String(s.scores?.[i] ?? '') }))))),
      gameView(s),
      h('ol', { class: 'replay-list', id: 'replay-list' }, st.actions.map((a, i) => h('li', null,
        h('button', {
          class: i + 1 === st.step ? 'link current' : 'link', type: 'button', 'data-key': `step-${i + 1}`,
          'aria-current': i + 1 === st.step ? 'step' : null, onclick: () => go(i + 1),
        }, describe(a))))));
  }
  const scheduled = scheduler(root, draw);
  // The step shown is in view in its list (which scrolls on its own), however it was reached;
  // the list alone scrolls, not the page under the finger on ›.
  const render = () => {
    scheduled();
    requestAnimationFrame(() => {
      const list = root.querySelector('#replay-list');
      const cur = list?.querySelector('.current');
      if (!cur) return;
      const [c, l] = [cur.getBoundingClientRect(), list.getBoundingClientRect()];
      if (c.top < l.top) list.scrollTop -= l.top - c.top;
      else if (c.bottom > l.bottom) list.scrollTop += c.bottom - l.bottom;
    });
  };

  app.title(t('replay'));
  const up = stillUp();
  function load() {
    st.failed = null;
    render();
    return Promise.all([ipc.getMatch(matchId), ipc.exportMatch(matchId)])
      .then(async ([view, record]) => {
        st.view = view;
        // Exported actions carry their time; the step list shows the action itself.
        st.actions = record.actions.map((a) => {
          if (a && typeof a === 'object' && !Array.isArray(a)) { const { at, ...rest } = a; return rest; }
          return a;
        });
        st.info = await gameInfo(view.game);
        if (up()) app.title(`${t('replay')} · ${t(`game_${view.game}`)}`);
        go(0);
      })
      .catch((e) => {
        if (!up()) return;
        // Said in the screen's place, with Retry: not also at its foot.
        st.failed = e;
        render();
      });
  }
  load();
  return {};
}
