// The Morris board screen: place by tapping a point, move by tapping a piece then a highlighted
// point (or dragging), remove by tapping a highlighted piece. Every target is one of Rust's
// legal moves (the summary's `moves`, each {token, from, to, removes}): a tap is looked up there
// and its token sent; this screen reads no token's text. Against the computer, its thinking
// runs in Rust off the UI thread and is stopped by undo or leaving. The frame, the computer's
// turn and undo are board-screen.js's.

import { ipc } from '../ipc.js';
import { h, glyph, stillUp } from '../dom.js';
import { t } from '../i18n.js';
import { app } from '../app.js';
import { endActions } from '../end-actions.js';
import { notesForm } from '../notes.js';
import { createBoard, drawBoard } from '../morris-board.js';
import { boardScreen } from '../board-screen.js';
import { register } from '../games.js';

const lines = (info, rules) => (rules?.diagonals ? info.lines.concat(info.diagonal_lines) : info.lines);

export function mount(root, [id], initial, info) {
  const matchId = Number(id);
  let notes = null;
  const ui = {
    selected: null,
    hint: null,        // a suggested token
    redo: [],          // tokens taken back, newest last
    confirm: null,     // 'resign' | 'draw' while a confirmation is asked
    hinting: false,    // a hint asked for and not yet answered
    turned: false,
    showList: false,
  };
  const screen = boardScreen(root, matchId, initial, {
    className: 'morris',
    title: t('game_morris'),
    ready: () => true,
    board: () => {
      const b = createBoard({ points: info.points, lines: lines(info, initial.rules || initial.summary.rules), onTap: tap, onDrag: drag });
      return { svg: b.svg, update: () => b.update(boardView()) };
    },
    head: () => [
      h('div', { class: 'mor-sides' }, sidePanel(0), sidePanel(1)),
      h('p', { class: `mor-status${sum().pending_removal ? ' alert' : ''}${over() ? ' over' : ''}`, id: 'status-line', tabindex: -1, 'aria-live': 'polite', text: statusLine() })],
    panel,
    after(view, { keepRedo = false } = {}) {
      ui.selected = null;
      ui.hint = null;
      // A question asked before the move was for the side that was to play: after it, Yes
      // would resign or offer for the other one.
      ui.confirm = null;
      if (!keepRedo) ui.redo = [];
      announceLast();
    },
    undone({ taken }) {
      // Only people's tokens come back to be redone; the computer thinks again. Newest first,
      // so that the oldest is on top of the stack and is redone first.
      ui.redo.push(...taken);
      ui.selected = null;
      ui.hint = null;
      ui.confirm = null;
    },
  });
  const { st, sum, over, isComputer, humanTurn, send, undo, render } = screen;
  const computer = () => st.view.computer || {};
  const { sideName } = screen;
  // (Several pieces: the colour agrees with them, "pions foncés".)
  const colour = (i, several = false) => t(`${i === 0 ? 'mor_light' : 'mor_dark'}${several ? '_pl' : ''}`);
  const moves = () => (over() ? [] : sum().moves || []);
  const placeAt = (p) => moves().find((m) => !m.from && m.to === p);
  const removeAt = (p) => moves().find((m) => m.removes === p);
  const moveTo = (from, to) => moves().find((m) => m.from === from && m.to === to);
  const movesFrom = (p) => moves().filter((m) => m.from === p);

  function announceLast() {
    const s = sum();
    if (over()) app.announce(endText());
    // A mill closed, its removal still to come: the turn is said once whole, below (the
    // status line says the mill meanwhile).
    else if (s.pending_removal && s.turn === s.last?.side) return;
    // The turn whole ("a1-a4xb4"), said once: the computer's move and its removal come one
    // after the other, and the second cut the first short.
    else if (s.last) app.announce(t('mor_played', { name: sideName(s.last.side), token: s.turns.at(-1) ?? s.last.token }));
  }

  async function redo() {
    if (st.busy || st.thinking) return;
    const token = ui.redo.pop();
    if (token == null) return;
    const rest = ui.redo.slice();
    const before = st.view;
    await send(token, { keepRedo: true });
    // Refused (a full disk, a fault), nothing was played: the move stays to be redone.
    ui.redo = st.view === before ? [...rest, token] : rest;
    render();
  }

  async function hint() {
    // One search at a time: each tap started another, on a phone's two cores.
    if (ui.hinting) return;
    const asked = st.view;
    const up = stillUp();
    ui.hinting = true;
    render();
    try {
      const token = await ipc.hint(matchId);
      // The search takes a while and the board stays in play: a hint for a position since
      // changed (a move, an undo, another screen) would show the next player the last one's
      // best move, so it is dropped.
      if (st.view !== asked || !up()) return;
      ui.hint = token;
      app.announce(t('mor_hint_is', { token: ui.hint }));
    } catch (e) {
      // Stopped by an undo or by leaving: nothing to say.
      if (up() && e?.code !== 'stopped') app.error(e);
    } finally {
      ui.hinting = false;
      if (up()) render();
    }
  }

  function tap(p) {
    if (!humanTurn()) return;
    const hit = removeAt(p) || placeAt(p) || (ui.selected && moveTo(ui.selected, p));
    if (hit) return screen.doubled(p) ? undefined : send(hit.token, undefined, p);
    if (movesFrom(p).length) { ui.selected = ui.selected === p ? null : p; render(); return; }
    if (sum().pending_removal) app.announce(t('mor_remove_first'));
    ui.selected = null;
    render();
  }

  function drag(from, to) {
    const m = humanTurn() && moveTo(from, to);
    if (m) send(m.token, undefined, to);
  }

  function endText() {
    const s = sum();
    const reason = t(`mor_reason_${s.reason}`, { loser: s.winner != null ? sideName(1 - s.winner) : '', n: s.rules?.repetition ?? 3 });
    if (s.status === 'won') return `${t('winner_one', { names: sideName(s.winner) })} · ${reason}`;
    return `${t('mor_draw')} · ${reason}`;
  }

  function pointLabel(p) {
    const side = sum().board[p];
    const parts = [p, side == null ? t('mor_empty') : colour(side)];
    if (side == null && sum().last_turn?.removes.includes(p)) parts.push(t('mor_taken_here'));
    if (removeAt(p)) parts.push(t('mor_can_remove'));
    else if (placeAt(p)) parts.push(t('mor_can_place'));
    else if (ui.selected && moveTo(ui.selected, p)) parts.push(t('mor_can_move_here'));
    else if (movesFrom(p).length) parts.push(t('mor_can_move'));
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
    if (s.pending_removal) return t(s.removals_due > 1 ? 'mor_remove_n' : 'mor_remove', { name, n: s.removals_due, colour: colour(1 - s.turn, s.removals_due > 1) });
    if (s.phase === 'placing') return t('mor_to_place', { name });
    if (ui.selected) return t('mor_to_where', { point: ui.selected });
    return t('mor_to_move', { name });
  }

  function moveList() {
    const turns = sum().turns;
    const rows = [];
    for (let i = 0; i < turns.length; i += 2) {
      rows.push(h('li', null, h('span', { class: 'mor-n', text: `${i / 2 + 1}.` }),
        h('span', { text: turns[i] }), h('span', { text: turns[i + 1] ?? '' })));
    }
    // It scrolls (at most a third of the screen): reachable from the keyboard to scroll it.
    return h('ol', { class: 'mor-moves', id: 'mor-moves', tabindex: 0, 'aria-label': t('mor_moves') }, rows);
  }

  function confirmBar() {
    if (!ui.confirm) return null;
    const s = sum();
    const human = isComputer(0) ? 1 : isComputer(1) ? 0 : s.turn;
    const text = ui.confirm === 'resign'
      ? t('mor_confirm_resign', { name: sideName(human) })
      : isComputer(1 - human) ? t('mor_offer_draw_computer') : t('mor_confirm_draw', { name: sideName(1 - human) });
    const yes = async () => {
      const kind = ui.confirm;
      // A second tap on Yes, the question already answered, asks nothing again.
      if (!kind) return;
      ui.confirm = null;
      // The question goes; the line that says how the game stands takes the focus.
      render.focusOn('#status-line');
      if (kind === 'resign') return send(human === 0 ? '0-1' : '1-0');
      if (isComputer(1 - human)) {
        // The answer counts for the position it judged, on this screen: not after an undo, a
        // move or Back.
        const asked = st.view;
        const up = stillUp();
        try {
          const accepts = await ipc.drawOffer(matchId);
          if (!up()) return;
          // Taken back or moved on meanwhile: the offer lapsed, and the person is told so
          // rather than left waiting for an answer.
          if (st.view !== asked) { app.notice(t('mor_draw_lapsed')); return; }
          if (!accepts) { app.error({ kind: 'illegal_action', code: 'draw_declined' }); render.focusOn('#offer-draw'); return; }
        } catch (e) { app.error(e); return; }
      }
      return send('1/2-1/2');
    };
    const no = () => { const was = ui.confirm; ui.confirm = null; render.focusOn(was === 'draw' ? '#offer-draw' : '#resign'); };
    return h('div', {
      class: 'confirm-bar', 'data-key': 'confirm-bar', role: 'alertdialog', 'aria-label': text,
      // Escape answers no, as a dialog's does.
      onkeydown: (ev) => { if (ev.key === 'Escape' && ui.confirm) { ev.preventDefault(); no(); } },
    },
      h('span', { text }),
      // Nothing can be resigned or offered while the computer thinks: Yes waits for its move
      // (tapped then, it closed the question and did nothing).
      h('button', { class: 'btn primary', type: 'button', id: 'confirm-yes', disabled: st.thinking, onclick: yes }, t('mor_yes')),
      h('button', { class: 'btn ghost', type: 'button', id: 'confirm-no', onclick: no }, t('cancel')));
  }

  function boardView() {
    const s = sum();
    const mine = humanTurn() ? moves() : [];
    const targets = ui.selected ? mine.filter((m) => m.from === ui.selected).map((m) => m.to) : mine.filter((m) => !m.from && m.to).map((m) => m.to);
    const hinted = moves().find((m) => m.token === ui.hint);
    // The last turn whole: the computer's move still shows once its removal has come, and
    // the point it took is marked.
    const turn = s.last_turn;
    const last = turn?.to ? (turn.from ? [turn.from, turn.to] : [turn.to]) : null;
    return {
      board: s.board,
      targets: new Set(targets),
      removable: new Set(mine.filter((m) => m.removes).map((m) => m.removes)),
      movable: new Set(mine.filter((m) => m.from).map((m) => m.from)),
      selected: ui.selected,
      hint: new Set(hinted ? [hinted.from, hinted.to, hinted.removes].filter(Boolean) : []),
      mills: new Set(s.mills.flat()),
      last,
      taken: new Set(turn?.removes || []),
      turned: ui.turned,
      title: t('mor_board'),
      label: pointLabel,
    };
  }

  // The rows are keyed: the question coming and going above them must not shift them into one
  // another's places (a finger on Undo as the question closes would land on a node replaced).
  function panel() {
    const s = sum();
    return [screen.retry(), confirmBar(),
      over() ? endActions(matchId, undo, st.view) : null,
      h('div', { class: 'mor-tools', 'data-key': 'tools' },
        over() ? null : h('button', { class: 'btn', type: 'button', id: 'undo', 'data-key': 'undo', disabled: st.view.actions === 0, onclick: undo }, glyph('↶'), t('undo')),
        h('button', { class: 'btn', type: 'button', id: 'redo', 'data-key': 'redo', disabled: !ui.redo.length || over() || st.thinking, onclick: redo }, glyph('↷'), t('mor_redo')),
        h('button', { class: 'btn', type: 'button', id: 'hint', 'data-key': 'hint', disabled: !humanTurn() || ui.hinting, 'aria-busy': String(ui.hinting), onclick: hint }, ui.hinting ? t('mor_hint_searching') : t('mor_hint')),
        h('button', { class: 'btn', type: 'button', id: 'turn-board', 'data-key': 'turn-board', 'aria-pressed': String(ui.turned), onclick: () => { ui.turned = !ui.turned; render(); } }, glyph('⟲'), t('mor_turn_board'))),
      !over() ? h('div', { class: 'mor-tools', 'data-key': 'game-tools' },
        h('button', { class: 'btn ghost', type: 'button', id: 'offer-draw', 'data-key': 'offer-draw', disabled: st.thinking, onclick: () => { ui.confirm = 'draw'; render.focusOn('#confirm-yes'); } }, t('mor_offer_draw')),
        h('button', { class: 'btn ghost', type: 'button', id: 'resign', 'data-key': 'resign', disabled: st.thinking, onclick: () => { ui.confirm = 'resign'; render.focusOn('#confirm-yes'); } }, t('mor_resign'))) : null,
      h('h2', { text: t('mor_moves') }),
      s.turns.length ? moveList() : h('p', { class: 'empty', text: t('mor_no_moves') }),
      h('details', { class: 'mor-export', open: ui.showList, ontoggle: (ev) => { ui.showList = ev.target.open; } },
        h('summary', { text: t('mor_export') }),
        h('textarea', { id: 'mor-move-list', readonly: true, rows: 3, 'aria-label': t('mor_moves') }, s.move_list),
        h('button', {
          class: 'btn small', type: 'button', id: 'copy-moves',
          onclick: () => copyMoves(s.move_list),
        }, t('copy'))),
      over() ? (notes ||= notesForm(st.view, () => st.view)) : null];
  }

  // Said on screen as well as aloud; where the system gives no clipboard, the list is
  // selected for the person to copy.
  function copyMoves(text) {
    const failed = () => {
      document.getElementById('mor-move-list')?.select();
      app.notice(t('copy_failed'));
    };
    if (!navigator.clipboard?.writeText) return failed();
    return navigator.clipboard.writeText(text).then(() => app.notice(t('copied')), failed);
  }

  screen.start();
  return screen.handle({
    // A hint still searching is stopped with the screen (it ran on for seconds).
    unmount() { if (ui.hinting) ipc.stopThinking().catch(() => {}); },
  });
}

// Against the computer: its level and the person's colour; or a move list to import.
function setupBlock({ st, seg, levels, vsComputer, rules, render, opponent }) {
  // One action at a time on the setup (as Start): a second tap while the import is on its way
  // would make a second match.
  function importMoves() {
    return app.exclusive(st, render, async () => {
      const up = stillUp();
      const m = await ipc.importMoves(st.moves ?? '', rules(), st.sides);
      if (up()) app.go(`#/match/${m.id}`);
    });
  }
  return h('div', { class: 'mor-setup' },
    seg('opponent', t('mor_opponent'), ['person', 'computer'], st.opponent, (v) => t(`mor_opponent_${v}`), opponent),
    vsComputer() ? [
      seg('level', t('mor_level'), levels(), st.level, (v) => t(`mor_level_${v}`), (v) => { st.level = v; }),
      seg('colour', t('mor_your_colour'), [0, 1], st.colour, (v) => t(v === 0 ? 'mor_light_first' : 'mor_dark'), (v) => { st.colour = v; }),
    ] : h('details', { class: 'mor-import', open: st.importOpen || null, ontoggle: (ev) => { st.importOpen = ev.target.open; } },
      h('summary', { text: t('mor_import') }),
      h('textarea', {
        id: 'import-moves', rows: 3, 'data-key': 'import-moves', 'aria-label': t('mor_import'), placeholder: '1. d6 f4 2. a1 b4 ...',
        oninput: (ev) => { st.moves = ev.target.value; },
      }, st.moves ?? ''),
      h('button', { class: 'btn', type: 'button', id: 'import-moves-go', disabled: st.sides.length !== 2, onclick: importMoves }, t('mor_import_go'))));
}

register('morris', {
  mount,
  edge: 'text',
  options: ['pieces', 'flying', 'diagonals', 'same_mill', 'double_mill', 'repetition', 'quiet_moves'],
  teams: false,
  seats: 'mor_seats',
  setup: setupBlock,
  describe: (a) => String(a),
  replay: (s, info) => h('div', { class: 'mor-board-wrap replay-board' }, drawBoard({
    points: info.points, lines: lines(info, s.rules),
    board: s.board, targets: new Set(), removable: new Set(), movable: new Set(), hint: new Set(),
    mills: new Set(s.mills.flat()), selected: null, last: null, taken: new Set(), turned: false,
    title: t('mor_board'), label: (p) => p, onTap: () => {}, onDrag: () => {},
  })),
  chart: ['chart_removed', (c) => c.removed ?? null],
});
