// What the two board screens (Morris, Boulomania) share: the frame (the head above, the board,
// the panel beside or below it), the computer's turn, undo back to a person's turn, and the
// one-action-at-a-time rule. The frame and the board are made once; the head and the panel are
// drawn anew on each redraw and patched in place (dom.js), so a finger pressed on a button as
// the computer's move redraws the screen still lands.
//
// spec: {
//   className,                     the frame's class ('morris', 'boulomania')
//   title,                         the title bar's text
//   board(screen) -> {svg, update()},  the board, made once when `ready()`
//   below: [nodes],                under the board, made once
//   ready() -> bool,               whether the board can be made (its geometry has come)
//   head(screen) -> [nodes], panel(screen) -> [nodes],   drawn on each redraw
//   dataset(screen) -> {}          extra data-* on the frame (for tests and styles)
//   after(view, opts),             a new answer came (reset selections, announce)
//   undone({view, taken}),         undo back to a person's turn happened
//   pause,                         ms before the computer's answer is asked (to follow it)
// }
// Returns the screen: {st, sum, over, isComputer, humanTurn, send, undo, render, after, ...}.

import { ipc } from './ipc.js';
import { h, scheduler, patchChildren, loads, names, onePerPress, UNDO_CALM_MS } from './dom.js';
import { t } from './i18n.js';
import { app, keepAwake } from './app.js';

export function boardScreen(root, matchId, initial, spec) {
  const st = { view: initial, thinking: false, busy: false };
  let gone = false;
  const screen = { st };
  const sum = () => st.view.summary;
  const over = () => sum().status !== 'playing';
  const computer = () => st.view.computer || {};
  const isComputer = (side) => side != null && computer()[side] != null;
  const humanTurn = () => !over() && !st.thinking && !isComputer(sum().turn);
  // The computer is named in the language of today, not in the one its match was started in
  // (its seat keeps the name it was played under, which the history shows).
  const sideName = (i) => (isComputer(i) ? t('mor_computer_name') : names(st.view.sides[i]));

  // Views taken from this screen's own answers (a move, the computer's, an undo): a reload
  // asked for before one of them may read the match as it was, and is not drawn over it.
  const reloads = loads();

  function after(view, opts = {}) {
    reloads.took();
    st.view = view;
    spec.after?.(view, opts);
    app.clearError();
    keepAwake(!over());
    render();
    maybeComputer();
  }

  function send(action, opts) {
    if (st.thinking || gone) return undefined;
    return app.exclusive(st, render, async () => after(await ipc.play(matchId, action), opts));
  }

  // Which turn of the computer's is current: an undo ends the one on its way.
  let turnNo = 0;

  async function maybeComputer() {
    // A match another device scores (writer false) has its computer's moves made there.
    if (over() || !isComputer(sum().turn) || st.thinking || gone || !spec.ready() || st.view.writer === false) return;
    st.thinking = true;
    const mine = ++turnNo;
    render();
    if (spec.pause) {
      await new Promise((r) => setTimeout(r, spec.pause));
      // Undone or left during the pause: there is nothing for the computer to answer (asked
      // now, it would play in the position the undo went back to, or after the person left).
      if (gone || mine !== turnNo) return;
    }
    try {
      const view = await ipc.computerMove(matchId);
      // Undone while the answer was on its way: the undo's view is the record's, this one no
      // longer (drawn, it would show the move the undo took back).
      if (gone || mine !== turnNo) return;
      st.thinking = false;
      after(view);
    } catch (e) {
      // An answer to a position the user has since changed (undo, leaving) is dropped.
      if (gone || mine !== turnNo) return;
      st.thinking = false;
      if (e?.code !== 'stale' && e?.code !== 'stopped') app.error(e);
      render();
    }
  }

  // Back to a position where a person acts, the computer's moves with it, in one commit. A
  // double tap takes back one turn: a second Undo within a moment of the last one's answer is
  // not another (the board itself stays free to play on at once).
  let undoCalmUntil = 0;
  function undo() {
    if (performance.now() < undoCalmUntil) return undefined;
    return app.exclusive(st, render, async () => {
      turnNo += 1;
      if (st.thinking) { await ipc.stopThinking(); st.thinking = false; }
      const undone = await ipc.undoToPerson(matchId);
      reloads.took();
      st.view = undone.view;
      spec.undone?.(undone);
      app.clearError();
      app.announce(t('undone'));
      keepAwake(!over());
      undoCalmUntil = performance.now() + UNDO_CALM_MS;
    });
  }

  let shell = null;
  function makeShell() {
    const board = spec.board(screen);
    const head = h('div', { class: 'mor-head' });
    const panel = h('aside', { class: 'mor-panel' });
    // A held Enter on a focused control (a point, Resign, then the Yes it moves to) is one
    // press, not a run of them.
    const section = h('section', { class: spec.className, onkeydown: onePerPress }, head,
      h('div', { class: 'mor-layout' }, h('div', { class: 'mor-board-wrap' }, board.svg, spec.below || []), panel));
    return { section, head, panel, board };
  }

  function draw() {
    if (!spec.ready()) return h('p', { class: 'empty', text: t('loading') });
    shell ||= makeShell();
    Object.assign(shell.section.dataset, { actions: st.view.actions, status: sum().status }, spec.dataset?.(screen) || {});
    patchChildren(shell.head, spec.head(screen).flat(Infinity).filter(Boolean));
    shell.board.update();
    patchChildren(shell.panel, spec.panel(screen).flat(Infinity).filter(Boolean));
    return shell.section;
  }
  const render = scheduler(root, draw);

  Object.assign(screen, { sum, over, computer, isComputer, sideName, humanTurn, send, undo, render, after, maybeComputer });
  app.title(spec.title);
  keepAwake(!over());
  // The board can be made once its geometry is there: then the computer may play at once.
  screen.start = () => { render(); maybeComputer(); };
  screen.handle = (extra = {}) => ({
    refresh: async () => {
      const still = reloads.asked();
      try {
        const view = await ipc.getMatch(matchId);
        if (!gone && still()) after(view);
      } catch (e) { if (!gone) app.error(e, { reading: true }); }
    },
    unmount() {
      gone = true;
      if (st.thinking) ipc.stopThinking().catch(() => {});
      extra.unmount?.();
    },
  });
  return screen;
}
