// The Crokinole scorepad: live 20s during a round, the count at its end (steppers or a tap on
// the drawn board), and the game sheet. Rust computes every point; this screen only counts
// discs in the zones Rust's game_info lists, and shows what Rust answers.

import { ipc } from '../ipc.js';
import { h, glyph, svgh, scheduler, names, loads, onePerPress, UNDO_CALM_MS } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { app, keepAwake } from '../app.js';
import { endActions } from '../end-actions.js';
import { notesForm } from '../notes.js';
import { register } from '../games.js';
import { rankHead } from '../standings.js';

// Each zone's ring radius and label height on the drawn board (220 wide), bowl first. The 20
// hole is drawn larger than life and the rings about as wide as one another (30 to 32), so
// that every zone is a finger wide: 44 px or more across on a phone 360 px wide.
const RINGS = [[16, 146], [47, 80], [77, 50], [108, 20]];

export function mount(root, [id], initial, info) {
  const matchId = Number(id);
  // The zones, bowl first, as a round action names them ("20", "15", ...).
  const ZONES = info.zones.map(([key]) => key);
  const st = {
    view: initial || null,
    counting: null,     // {20: [...], 15: [...], 10: [...], 5: [...]} while the round is counted
    board: false,       // the drawn board instead of steppers
    boardSide: 0,
    preview: null,      // Rust's summary for the count, or {error}
    busy: false,
  };
  let previewSeq = 0;
  let notes = null; // kept across redraws: it holds what the user is typing
  const sum = () => st.view.summary;
  const over = () => sum().status !== 'playing';
  const sideName = (i) => names(st.view.sides[i]);

  // Views taken from this screen's own rounds, 20s and undos: a reload asked for before one of
  // them may read the match as it was, and is not drawn over it.
  const reloads = loads();

  async function load() {
    const still = reloads.asked();
    try {
      const view = await ipc.getMatch(matchId);
      if (!still()) return;
      st.view = view;
      keepAwake(!over());
    } catch (e) { app.error(e, { reading: true }); }
    render();
  }

  function act(action, undo = false) {
    return app.exclusive(st, render, async () => {
      const view = undo ? await ipc.undo(matchId) : await ipc.play(matchId, action);
      reloads.took();
      st.view = view;
      app.clearError();
      if (action?.round || undo) { st.counting = null; dropPreview(); }
      if (action?.twenty != null) app.announce(t('cro_twenty_for', { name: sideName(action.twenty), n: view.summary.live_twenties[action.twenty] }));
      // A round scored or taken back is said with the score it leaves (and the end, if so).
      else if (action?.round || undo) app.announce(scoreSaid(undo));
      keepAwake(!over());
    }, { calm: undo ? UNDO_CALM_MS : 0 });
  }

  function scoreSaid(undo) {
    const s = sum();
    const score = st.view.sides.map((side, i) => `${names(side)} ${s.scores[i]}`).join(' · ');
    const end = s.status === 'drawn' ? t('cro_draw')
      : s.winner != null ? t(st.view.sides[s.winner].length > 1 ? 'winner' : 'winner_one', { names: sideName(s.winner) }) : '';
    return [undo ? `${t('undone')}.` : '', `${score}.`, end].filter(Boolean).join(' ');
  }

  function startCount() {
    const n = st.view.sides.length;
    // The bowl (the first zone) starts from the 20s counted live.
    st.counting = Object.fromEntries(ZONES.map((z, k) => [z, k === 0 ? sum().live_twenties.slice() : Array(n).fill(0)]));
    st.boardSide = sum().starter ?? 0;
    refreshPreview();
    render();
  }

  function roundAction() {
    return { round: Object.fromEntries(ZONES.map((z) => [z, st.counting[z].slice()])) };
  }

  // A preview still on its way is for counts that are no longer on screen: it is dropped.
  function dropPreview() {
    previewSeq += 1;
    st.preview = null;
  }

  // The count changed: the result shows "…" (and the round cannot be scored) until Rust's
  // preview of these counts is back, so the result on screen is never an earlier count's.
  async function refreshPreview() {
    dropPreview();
    const seq = previewSeq;
    try {
      const s = await ipc.preview(matchId, roundAction());
      if (seq === previewSeq) st.preview = s;
    } catch (e) {
      if (seq === previewSeq) st.preview = { error: e };
    }
    render();
  }

  function bump(zone, side, d) {
    const v = st.counting[zone][side] + d;
    if (v < 0) return;
    st.counting[zone][side] = v;
    // The new count, heard (the buttons' names say what they do, not how many there are now).
    app.announce(t('cro_count_said', { zone, name: sideName(side), n: v }));
    refreshPreview();
    render();
  }

  // --- drawing

  function sideRow(side, i) {
    const s = sum();
    const pts = s.format === 'points';
    return h('li', {
      class: ['side-row', s.starter === i && 'turn', s.winner === i && 'winner'].filter(Boolean).join(' '),
      'data-side': i,
    },
    h('span', { class: 'side-names', text: names(side) }),
    h('span', { class: 'legs cro-twenties', text: t('cro_twenties_n', { n: s.twenties[i] }) }),
    h('span', { class: 'side-score' },
      h('span', { class: 'score', 'data-score': i, text: String(s.scores[i]) }),
      h('span', { class: 'needs', text: pts ? t('needs', { n: s.needs[i] }) : t('cro_game_points') })));
  }

  function statusLine() {
    const s = sum();
    const n = s.round + (over() ? 0 : 1);
    return s.format === 'rounds'
      ? t('cro_round_of', { n: Math.min(n, s.rounds), r: s.rounds })
      : t('cro_round_to', { n, target: s.target });
  }

  function liveRound() {
    const s = sum();
    return h('div', { class: 'cro-round' },
      h('p', { class: 'turn-banner', id: 'cro-starter' }, t('cro_shoots_first', { name: s.starter_player })),
      h('p', { class: 'preview', id: 'cro-hammer' }, t('cro_hammer', { name: s.hammer_player })),
      s.chooser != null ? h('div', { class: 'cro-choose', id: 'cro-choose' },
        h('p', { text: t('cro_loser_chooses', { name: sideName(s.chooser) }) }),
        h('div', { class: 'chips' }, st.view.sides.map((side, i) => h('button', {
          class: 'btn', type: 'button', 'data-starter': i, onclick: () => act({ starter: i }),
        }, names(side))))) : null,
      // The spaces are not drawn (grid items); they make the button's text read "+20 Ann 2",
      // as its name does, for voice control (WCAG 2.5.3).
      h('div', { class: 'cro-twenty-row' }, st.view.sides.map((side, i) => h('button', {
        class: 'btn big cro-twenty', type: 'button', 'data-twenty': i, 'data-key': `twenty-${i}`,
        'aria-label': t('cro_add_twenty', { name: names(side), n: s.live_twenties[i] }), onclick: () => act({ twenty: i }),
      }, h('span', { class: 'cro-plus', text: '+20' }), ' ', h('span', { class: 'cro-side', text: names(side) }), ' ',
      h('span', { class: 'cro-live', 'data-live': i, text: String(s.live_twenties[i]) })))),
      h('button', { class: 'btn primary big', type: 'button', id: 'end-round', 'data-focus': true, onclick: startCount }, t('cro_end_round')));
  }

  function steppers() {
    const n = st.view.sides.length;
    // Three sides' steppers side by side are wider than a phone: each stands upright.
    const upright = n > 2;
    return h('table', { class: `cro-count${upright ? ' upright' : ''}`, id: 'cro-count' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, h('span', { class: 'sr-only', text: t('cro_zone') })), st.view.sides.map((side) => h('th', { scope: 'col', text: names(side) })))),
      h('tbody', null, ZONES.map((z) => h('tr', null,
        h('th', { scope: 'row', class: `zone zone-${z}`, text: z }),
        Array.from({ length: n }, (_, i) => {
          const less = h('button', { type: 'button', class: 'step', 'data-step': `${z}-${i}-minus`, 'data-key': `step-${z}-${i}-minus`, 'aria-label': t('cro_less', { zone: z, name: sideName(i) }), disabled: !st.counting[z][i], onclick: () => bump(z, i, -1) }, '−');
          const count = h('span', { class: 'step-n', 'data-count': `${z}-${i}`, text: String(st.counting[z][i]) });
          const more = h('button', { type: 'button', class: 'step', 'data-step': `${z}-${i}-plus`, 'data-key': `step-${z}-${i}-plus`, 'aria-label': t('cro_more', { zone: z, name: sideName(i) }), onclick: () => bump(z, i, 1) }, '+');
          // Upright, + is on top, and first to the keyboard as well as to the eye.
          return h('td', null, h('span', { class: 'stepper' }, upright ? [more, count, less] : [less, count, more]));
        })))));
  }

  function boardView() {
    const side = st.boardSide;
    const ring = (r, zone, cls) => svgh('circle', {
      cx: 110, cy: 110, r, class: `board-zone ${cls}`, 'data-zone': zone, role: 'button', tabindex: 0,
      'aria-label': t('cro_more', { zone, name: sideName(side) }),
      onclick: () => bump(zone, side, 1),
      onkeydown: (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); bump(zone, side, 1); } },
    });
    const label = (y, z) => svgh('text', { x: 110, y, class: 'board-label', 'text-anchor': 'middle' }, `${z}: ${st.counting[z][side]}`);
    return h('div', { class: 'cro-board' },
      h('div', { class: 'segmented', role: 'group', 'aria-label': t('cro_board_side') }, st.view.sides.map((s, i) => h('button', {
        type: 'button', class: 'seg', 'aria-pressed': String(i === side), 'data-board-side': i, 'data-key': `board-side-${i}`,
        onclick: () => { st.boardSide = i; render(); },
      }, names(s)))),
      svgh('svg', { viewBox: '0 0 220 220', class: 'board-svg', id: 'cro-board' },
        // Drawn from the outside in (the bowl last, on top); the rings' sizes are the drawing's.
        ZONES.map((z, k) => ring(RINGS[k][0], z, `z${z}`)).reverse(),
        ZONES.map((z, k) => label(RINGS[k][1], z)).reverse()));
  }

  function countPanel() {
    const p = st.preview;
    let result;
    if (!p) result = '…';
    else if (p.error) result = errorText(p.error);
    else {
      const rp = p.round_points[p.round_points.length - 1];
      result = st.view.sides.map((side, i) => `${names(side)} ${rp[i]}`).join(' · ');
    }
    return h('section', { class: 'cro-counting', id: 'cro-counting', 'aria-labelledby': 'count-title' },
      h('h2', { id: 'count-title', tabindex: -1, 'data-focus': true, text: t('cro_count_title', { n: sum().round + 1 }) }),
      h('label', { class: 'toggle' },
        h('input', { type: 'checkbox', id: 'board-view', checked: st.board, onchange: (ev) => { st.board = ev.target.checked; render(); } }),
        h('span', { text: t('cro_board_view') })),
      st.board ? boardView() : null,
      steppers(),
      h('div', { class: 'cro-footer' },
        // Busy while Rust's answer is on its way: the "…" between two counts is not read out.
        h('p', { class: p?.error ? 'warning' : 'preview', id: 'round-result', role: 'status', 'aria-busy': p ? null : 'true', text: result }),
        h('div', { class: 'cro-actions' },
        h('button', { class: 'btn big', type: 'button', id: 'cancel-count', onclick: () => { st.counting = null; dropPreview(); render(); } }, t('cro_back')),
        h('button', { class: 'btn big primary', type: 'button', id: 'score-round', disabled: !p || !!p.error, onclick: () => act(roundAction()) }, t('cro_score_round')))));
  }

  function sheet() {
    const s = sum();
    if (!s.round) return null;
    return h('div', { class: 'log-col' },
      h('h3', { class: 'log-title', text: t('cro_sheet') }),
      h('table', { class: 'cro-sheet', id: 'cro-sheet' },
        h('thead', null, h('tr', null, rankHead(t('cro_round_col')), st.view.sides.map((side) => h('th', { scope: 'col', text: names(side) })))),
        h('tbody', null, s.round_points.map((rp, r) => h('tr', null,
          h('th', { scope: 'row', text: String(r + 1) }),
          rp.map((pts, i) => h('td', null, h('span', { class: 'rp', text: String(pts) }), h('span', { class: 'total', text: ` → ${s.score_history[r][i]}` })))))),
        h('tfoot', null, h('tr', null, h('th', { scope: 'row', text: '20' }), s.twenties.map((n) => h('td', { text: String(n) }))))));
  }

  function endScreen() {
    const s = sum();
    const title = s.status === 'drawn' ? t('cro_draw') : t(st.view.sides[s.winner].length > 1 ? 'winner' : 'winner_one', { names: sideName(s.winner) });
    return h('section', { class: 'end-screen', id: 'end-screen', 'aria-labelledby': 'end-title' },
      h('h2', { id: 'end-title', tabindex: -1, 'data-focus': true, text: title }),
      h('ol', { class: 'ranking', id: 'ranking' }, s.ranking.map((i) => h('li', { class: i === s.winner ? 'winner' : null },
        h('span', { class: 'rank-name', text: sideName(i) }),
        h('span', { class: 'rank-score', text: String(s.scores[i]) })))),
      endActions(matchId, () => act(null, true), st.view),
      (notes ??= notesForm(st.view, () => st.view)));
  }

  const draw = () => {
    if (!st.view) return h('p', { class: 'empty', text: t('loading') });
    app.title(t('game_crokinole'));
    const main = over() ? endScreen() : st.counting ? countPanel() : liveRound();
    // A held Enter on a focused button (+20, a count's +, Undo) is one press, not a run of them.
    return h('section', { class: 'scorepad game-crokinole', 'data-actions': st.view.actions, 'data-status': sum().status, onkeydown: onePerPress },
      h('div', { class: 'pad-top' },
        h('p', { class: 'status-line', id: 'status-line', text: statusLine() }),
        // While discs are counted, Undo would take back the last committed action and drop the
        // count: the count's own Back goes back to the round first.
        h('button', { class: 'btn undo', type: 'button', id: 'undo', disabled: !st.view.actions || !!st.counting || null, onclick: () => act(null, true) }, glyph('↶'), t('undo'))),
      h('div', { class: 'pad-cols' },
        h('ol', { class: 'scoreboard', id: 'scoreboard' }, st.view.sides.map(sideRow)),
        h('div', { class: 'pad-col' }, main),
        sheet()));
  };
  const render = scheduler(root, draw);
  render();
  if (!st.view) load(); else keepAwake(!over());
  return { refresh: load, unmount() { keepAwake(false); } };
}

register('crokinole', {
  mount,
  edge: 'pin',
  options: ['format', 'target', 'rounds', 'scoring', 'discs', 'start_rule'],
  // A game is played to a score or over a number of rounds: only the one chosen applies.
  shown: (option, rules) => (option === 'target' ? rules.format !== 'rounds' : option === 'rounds' ? rules.format === 'rounds' : true),
  seats: 'cro_seats',
  // A tournament plays fixed rounds, unless the club's own default rules say a format or a
  // target (Rust's rule too: a target and no format plays to the target).
  tournament: (club) => ('format' in club || 'target' in club ? {} : { format: 'rounds' }),
  describe: (a) => (a.twenty != null ? t('replay_twenty') : a.round ? t('replay_round') : a.starter != null ? t('replay_starter') : t('replay_other')),
  chart: ['chart_points_per_round', (c) => (c.rounds ? c.round_points / c.rounds : null)],
});
