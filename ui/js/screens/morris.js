// The Morris board screen: place by tapping a point, move by tapping a piece then a highlighted
// point (or dragging), remove by tapping a highlighted piece. Every target comes from Rust's
// summary; this screen only turns taps into tokens and shows what Rust answers. Against the
// computer, its thinking runs in Rust off the UI thread and is stopped by undo or leaving.

import { ipc } from '../ipc.js';
import { h, scheduler, names } from '../dom.js';
import { t } from '../i18n.js';
import { app, keepAwake } from '../app.js';
import { endActions } from '../end-actions.js';
import { notesForm } from '../notes.js';
import { createBoard } from '../morris-board.js';

let geometry = null; // points and lines, from Rust's game info, once per session

export function mount(root, [id], initial) {
  const matchId = Number(id);
  const st = {
    view: initial,
    selected: null,
    hint: null,        // a suggested token
    redo: [],          // tokens taken back, newest last
    thinking: false,
    confirm: null,     // 'resign' | 'draw' while a confirmation is asked
    turned: false,
    showList: false,
    busy: false,
  };
  let gone = false;
  let notes = null;
  const sum = () => st.view.summary;
  const over = () => sum().status !== 'playing';
  const computer = () => st.view.computer || {};
  const isComputer = (side) => side != null && computer()[side] != null;
  const sideName = (i) => names(st.view.sides[i]);
  const colour = (i) => t(i === 0 ? 'mor_light' : 'mor_dark');

  async function ensureGeometry() {
    if (!geometry) geometry = await ipc.gameInfo('morris');
  }

  function after(view, { keepRedo = false } = {}) {
    st.view = view;
    st.selected = null;
    st.hint = null;
    if (!keepRedo) st.redo = [];
    app.clearError();
    announceLast();
    keepAwake(!over());
    render();
    maybeComputer();
  }

  function announceLast() {
    const s = sum();
    if (over()) app.announce(endText());
    else if (s.last) app.announce(t('mor_played', { name: sideName(s.last.side), token: s.last.token }));
  }

  function send(token, opts) {
    if (st.thinking) return;
    return app.exclusive(st, render, async () => after(await ipc.play(matchId, token), opts));
  }

  async function maybeComputer() {
    const turn = sum().turn;
    if (over() || !isComputer(turn) || st.thinking || gone) return;
    st.thinking = true;
    render();
    try {
      const view = await ipc.computerMove(matchId);
      if (!gone) { st.thinking = false; after(view, { keepRedo: false }); }
    } catch (e) {
      // An answer to a position the user has since changed (undo, leaving) is dropped.
      st.thinking = false;
      if (e?.code !== 'stale' && e?.code !== 'stopped' && !gone) app.error(e);
      if (!gone) render();
    }
  }

  function undo() {
    return app.exclusive(st, render, async () => {
      if (st.thinking) { await ipc.stopThinking(); st.thinking = false; }
      // Against the computer, its reply goes too: back to a position where a person acts, in one
      // commit. Only people's tokens come back to be redone; the computer thinks again.
      const { view, taken } = await ipc.undoToPerson(matchId);
      // Newest first, so that the oldest is on top of the stack and is redone first.
      st.redo.push(...taken);
      st.view = view;
      st.selected = null;
      st.hint = null;
      app.clearError();
      app.announce(t('undone'));
      keepAwake(!over());
    });
  }

  async function redo() {
    const token = st.redo.pop();
    if (token == null) return;
    const rest = st.redo.slice();
    await send(token, { keepRedo: true });
    st.redo = rest;
    render();
  }

  async function hint() {
    try {
      st.hint = await ipc.hint(matchId);
      app.announce(t('mor_hint_is', { token: st.hint }));
      render();
    } catch (e) { app.error(e); }
  }

  function tokenParts(token) {
    if (!token) return [];
    if (token.startsWith('x')) return [token.slice(1)];
    return token.split('-');
  }

  function tap(p) {
    if (over() || st.thinking || isComputer(sum().turn)) return;
    const tg = sum().targets;
    if (tg.remove.includes(p)) return send(`x${p}`);
    if (tg.place.includes(p)) return send(p);
    if (st.selected && (tg.move[st.selected] || []).includes(p)) return send(`${st.selected}-${p}`);
    if (tg.move[p]) { st.selected = st.selected === p ? null : p; render(); return; }
    if (sum().pending_removal) app.announce(t('mor_remove_first'));
    st.selected = null;
    render();
  }

  function drag(from, to) {
    if ((sum().targets.move[from] || []).includes(to)) send(`${from}-${to}`);
  }

  function endText() {
    const s = sum();
    const reason = t(`mor_reason_${s.reason}`, { loser: s.winner != null ? sideName(1 - s.winner) : '' });
    if (s.status === 'won') return `${t('winner_one', { names: sideName(s.winner) })} · ${reason}`;
    return `${t('mor_draw')} · ${reason}`;
  }

  function pointLabel(p) {
    const s = sum();
    const side = s.board[p];
    const parts = [p];
    parts.push(side == null ? t('mor_empty') : colour(side));
    const tg = s.targets;
    if (tg.remove.includes(p)) parts.push(t('mor_can_remove'));
    else if (tg.place.includes(p)) parts.push(t('mor_can_place'));
    else if (st.selected && (tg.move[st.selected] || []).includes(p)) parts.push(t('mor_can_move_here'));
    else if (tg.move[p]) parts.push(t('mor_can_move'));
    return parts.join(', ');
  }

  function sidePanel(i) {
    const s = sum();
    const active = !over() && s.turn === i;
    return h('div', { class: `mor-side${active ? ' active' : ''}`, 'data-side': i },
      h('span', { class: `mor-swatch side-${i}`, 'aria-hidden': 'true' }),
      h('span', { class: 'mor-side-name' },
        h('strong', { text: sideName(i) }),
        h('small', { text: isComputer(i) ? t('mor_computer_level', { n: computer()[i] }) : colour(i) })),
      h('span', { class: 'mor-counts' },
        h('span', { 'data-in-hand': i, 'aria-label': t('mor_in_hand_n', { n: s.in_hand[i] }) },
          h('small', { text: t('mor_hand') }), ' ', h('b', { text: String(s.in_hand[i]) })),
        h('span', { 'data-on-board': i, 'aria-label': t('mor_on_board_n', { n: s.on_board[i] }) },
          h('small', { text: t('mor_on_board') }), ' ', h('b', { text: String(s.on_board[i]) })),
        s.flying[i] ? h('span', { class: 'mor-flying', text: t('mor_flies') }) : null));
  }

  function statusLine() {
    const s = sum();
    if (over()) return endText();
    if (st.thinking) return t('mor_thinking', { name: sideName(s.turn) });
    const name = sideName(s.turn);
    if (s.pending_removal) return t(s.removals_due > 1 ? 'mor_remove_n' : 'mor_remove', { name, n: s.removals_due, colour: colour(1 - s.turn) });
    if (s.phase === 'placing') return t('mor_to_place', { name });
    if (st.selected) return t('mor_to_where', { point: st.selected });
    return t('mor_to_move', { name });
  }

  function moveList() {
    const turns = sum().turns;
    const rows = [];
    for (let i = 0; i < turns.length; i += 2) {
      rows.push(h('li', null, h('span', { class: 'mor-n', text: `${i / 2 + 1}.` }),
        h('span', { text: turns[i] }), h('span', { text: turns[i + 1] ?? '' })));
    }
    return h('ol', { class: 'mor-moves', id: 'mor-moves', 'aria-label': t('mor_moves') }, rows);
  }

  function confirmBar() {
    if (!st.confirm) return null;
    const s = sum();
    const human = isComputer(0) ? 1 : isComputer(1) ? 0 : s.turn;
    const text = st.confirm === 'resign'
      ? t('mor_confirm_resign', { name: sideName(human) })
      : isComputer(1 - human) ? t('mor_offer_draw_computer') : t('mor_confirm_draw', { name: sideName(1 - human) });
    const yes = async () => {
      const kind = st.confirm;
      st.confirm = null;
      if (kind === 'resign') return send(human === 0 ? '0-1' : '1-0');
      if (isComputer(1 - human)) {
        try {
          const accepts = await ipc.drawOffer(matchId);
          if (!accepts) { app.announce(t('mor_draw_declined')); app.error({ kind: 'illegal_action', code: 'draw_declined' }); render(); return; }
        } catch (e) { app.error(e); return; }
      }
      return send('1/2-1/2');
    };
    return h('div', { class: 'confirm-bar', role: 'alertdialog', 'aria-label': text },
      h('span', { text }),
      h('button', { class: 'btn primary', type: 'button', id: 'confirm-yes', onclick: yes }, t('mor_yes')),
      h('button', { class: 'btn ghost', type: 'button', id: 'confirm-no', onclick: () => { st.confirm = null; render(); } }, t('cancel')));
  }

  // The screen's frame and its board are made once: the board is updated in place (see
  // morris-board.js), the rest around it is drawn anew.
  let shell = null;
  function makeShell() {
    const diagonals = st.view.rules?.diagonals || sum().rules?.diagonals;
    const board = createBoard({
      points: geometry.points,
      lines: diagonals ? geometry.lines.concat(geometry.diagonal_lines) : geometry.lines,
      onTap: tap,
      onDrag: drag,
    });
    const head = h('div', { class: 'mor-head' });
    const panel = h('aside', { class: 'mor-panel' });
    const section = h('section', { class: 'morris' }, head,
      h('div', { class: 'mor-layout' }, h('div', { class: 'mor-board-wrap' }, board.svg), panel));
    return { section, head, panel, board };
  }

  function draw() {
    if (!geometry) return h('p', { class: 'empty', text: t('loading') });
    shell ||= makeShell();
    const s = sum();
    const tg = s.targets;
    const humanTurn = !over() && !st.thinking && !isComputer(s.turn);
    const lastParts = s.last && typeof s.last.token === 'string' && !s.last.token.startsWith('x') && !s.last.token.includes('/') && !/^[01]-/.test(s.last.token)
      ? tokenParts(s.last.token) : null;
    const targets = new Set(humanTurn ? (st.selected ? tg.move[st.selected] || [] : tg.place) : []);
    shell.board.update({
      board: s.board,
      targets,
      removable: new Set(humanTurn ? tg.remove : []),
      movable: new Set(humanTurn ? Object.keys(tg.move) : []),
      selected: st.selected,
      hint: new Set(tokenParts(st.hint)),
      mills: new Set(s.mills.flat()),
      last: lastParts,
      turned: st.turned,
      title: t('mor_board'),
      label: pointLabel,
    });
    shell.section.dataset.actions = st.view.actions;
    shell.section.dataset.status = s.status;
    shell.head.replaceChildren(
      h('div', { class: 'mor-sides' }, sidePanel(0), sidePanel(1)),
      h('p', { class: `mor-status${s.pending_removal ? ' alert' : ''}${over() ? ' over' : ''}`, id: 'status-line', 'aria-live': 'polite', text: statusLine() }));
    shell.panel.replaceChildren(
      ...[confirmBar(),
        over() ? endActions(matchId, undo, st.view) : null,
        h('div', { class: 'mor-tools' },
          over() ? null : h('button', { class: 'btn', type: 'button', id: 'undo', 'data-key': 'undo', disabled: st.view.actions === 0, onclick: undo }, '↶ ', t('undo')),
          h('button', { class: 'btn', type: 'button', id: 'redo', 'data-key': 'redo', disabled: !st.redo.length || over() || st.thinking, onclick: redo }, '↷ ', t('mor_redo')),
          h('button', { class: 'btn', type: 'button', id: 'hint', 'data-key': 'hint', disabled: !humanTurn, onclick: hint }, t('mor_hint')),
          h('button', { class: 'btn', type: 'button', id: 'turn-board', 'data-key': 'turn-board', 'aria-pressed': String(st.turned), onclick: () => { st.turned = !st.turned; render(); } }, '⟲ ', t('mor_turn_board'))),
        !over() ? h('div', { class: 'mor-tools' },
          h('button', { class: 'btn ghost', type: 'button', id: 'offer-draw', 'data-key': 'offer-draw', disabled: st.thinking, onclick: () => { st.confirm = 'draw'; render(); } }, t('mor_offer_draw')),
          h('button', { class: 'btn ghost', type: 'button', id: 'resign', 'data-key': 'resign', disabled: st.thinking, onclick: () => { st.confirm = 'resign'; render(); } }, t('mor_resign'))) : null,
        h('h2', { text: t('mor_moves') }),
        s.turns.length ? moveList() : h('p', { class: 'empty', text: t('mor_no_moves') }),
        h('details', { class: 'mor-export', open: st.showList, ontoggle: (ev) => { st.showList = ev.target.open; } },
          h('summary', { text: t('mor_export') }),
          h('textarea', { id: 'mor-move-list', readonly: true, rows: 3, 'aria-label': t('mor_moves') }, s.move_list),
          h('button', {
            class: 'btn small', type: 'button', id: 'copy-moves',
            onclick: () => navigator.clipboard?.writeText(s.move_list).then(() => app.announce(t('copied')), () => app.announce(t('copy_failed'))),
          }, t('copy'))),
        over() ? (notes ||= notesForm(st.view)) : null].filter(Boolean));
    return shell.section;
  }
  const render = scheduler(root, draw);

  app.title(t('game_morris'));
  ensureGeometry().then(() => { render(); maybeComputer(); }).catch((e) => app.error(e));
  keepAwake(!over());
  return {
    refresh: async () => { try { after(await ipc.getMatch(matchId)); } catch (e) { app.error(e); } },
    unmount() {
      gone = true;
      if (st.thinking) ipc.stopThinking().catch(() => {});
    },
  };
}
