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
//   above(screen) -> [nodes]       optional, drawn on each redraw: the turn's actions, before
//                                  the board (above it on a phone, beside it on a wide screen)
//   dataset(screen) -> {}          extra data-* on the frame (for tests and styles)
//   after(view, opts),             a new answer came (reset selections, announce)
//   undone({view, taken}),         undo back to a person's turn happened
//   pause,                         ms before the computer's answer is asked (to follow it)
// }
// `send(action, opts, place)`: `place` names what was tapped (a Morris point);
// `doubled(place)` says whether a tap there now is the second of a double tap (within
// TAP_CALM_MS of the answer to the last intent sent from the same place): the screen drops it.
// Returns the screen: {st, sum, over, isComputer, humanTurn, send, undo, render, after, ...}.

import { ipc } from './ipc.js';
import { h, scheduler, patchChildren, loads, names, onePerPress, UNDO_CALM_MS, TAP_CALM_MS } from './dom.js';
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
    st.computerFailed = false;
    // An answer that comes after the person left: kept, but said and shown to no one (the
    // next screen's error or its quiet stay as they are, and its wake lock is its own).
    if (gone) return;
    spec.after?.(view, opts);
    app.clearError();
    keepAwake(!over());
    render();
    maybeComputer();
  }

  // The point or button of the last intent sent, and when its answer came: the second tap of
  // a double tap lands on what that answer put under the finger (the opponent's point a piece
  // was just removed from, the next turn's button), and is not another intent.
  let lastIntent = { at: -Infinity, place: null };
  const doubled = (place) => place != null && place === lastIntent.place && performance.now() - lastIntent.at < TAP_CALM_MS;

  // The frame says while a second tap on `place` would be dropped (data-calm: for styles and
  // for the tests, which tap as fast as the answers come).
  let calmTimer = null;
  function calmMark(place) {
    if (place == null || !shell) return;
    shell.section.dataset.calm = place;
    clearTimeout(calmTimer);
    calmTimer = setTimeout(() => { delete shell.section.dataset.calm; }, TAP_CALM_MS);
  }

  function send(action, opts, place = null) {
    if (st.thinking || gone) return undefined;
    return app.exclusive(st, render, async () => {
      try {
        after(await ipc.play(matchId, action), opts);
      } finally {
        lastIntent = { at: performance.now(), place };
        calmMark(place);
      }
    });
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
      if (e?.code !== 'stale' && e?.code !== 'stopped') {
        app.error(e);
        // The computer is not asked again by itself: the panel offers to (else the board
        // would wait for a move that never comes, Undo greyed before the first).
        st.computerFailed = true;
      }
      render();
    }
  }

  // Offered while the computer's last try failed: asks it again.
  function retryComputer() {
    return h('button', {
      class: 'btn primary', type: 'button', id: 'retry-computer', 'data-key': 'retry-computer',
      onclick: () => { st.computerFailed = false; render.focusOn('#status-line'); maybeComputer(); },
    }, t('retry_computer'));
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
      st.computerFailed = false;
      if (gone) return;
      spec.undone?.(undone);
      app.clearError();
      app.announce(t('undone'));
      keepAwake(!over());
      undoCalmUntil = performance.now() + UNDO_CALM_MS;
    }).then(() => {
      // Back to the start of a match the computer opens, or an undo refused after its think
      // was stopped: the computer is to play, and is asked (nothing else would ask it).
      if (!gone) maybeComputer();
    });
  }

  let shell = null;
  function makeShell() {
    const board = spec.board(screen);
    const head = h('div', { class: 'mor-head' });
    const panel = h('aside', { class: 'mor-panel' });
    // What is acted on each turn, before the board in the page (so on a phone above it, in
    // reach, and first from the keyboard), beside it on a wide screen.
    const above = spec.above ? h('div', { class: 'mor-above' }) : null;
    // A held Enter on a focused control (a point, Resign, then the Yes it moves to) is one
    // press, not a run of them.
    const section = h('section', { class: spec.className, onkeydown: onePerPress }, head,
      h('div', { class: `mor-layout${above ? ' with-above' : ''}` }, above,
        h('div', { class: 'mor-board-wrap' }, board.svg, spec.below || []), panel));
    return { section, head, panel, board, above };
  }

  function draw() {
    if (!spec.ready()) return h('p', { class: 'empty', text: t('loading') });
    shell ||= makeShell();
    Object.assign(shell.section.dataset, { actions: st.view.actions, status: sum().status }, spec.dataset?.(screen) || {});
    patchChildren(shell.head, spec.head(screen).flat(Infinity).filter(Boolean));
    if (shell.above) patchChildren(shell.above, spec.above(screen).flat(Infinity).filter(Boolean));
    shell.board.update();
    patchChildren(shell.panel, spec.panel(screen).flat(Infinity).filter(Boolean));
    return shell.section;
  }
  const render = scheduler(root, draw);

  Object.assign(screen, { sum, over, computer, isComputer, sideName, humanTurn, send, undo, render, after, maybeComputer, doubled,
    retry: () => (st.computerFailed && !over() && isComputer(sum().turn) ? retryComputer() : null) });
  app.title(spec.title);
  keepAwake(!over());
  // The board can be made once its geometry is there: then the computer may play at once.
  screen.start = () => { render(); maybeComputer(); };
  screen.handle = (extra = {}) => ({
    refresh: async () => {
      const still = reloads.asked();
      try {
        const view = await ipc.getMatch(matchId);
        // refreshed: a screen may keep what its player was in the middle of (dice being
        // entered) when nothing was played meanwhile.
        if (!gone && still()) after(view, { refreshed: true });
      } catch (e) { if (!gone) app.error(e, { reading: true }); }
    },
    unmount() {
      gone = true;
      // The screen no longer needs to stay lit (Mölkky's and Crokinole's let it go too).
      keepAwake(false);
      if (st.thinking) ipc.stopThinking().catch(() => {});
      extra.unmount?.();
    },
  });
  return screen;
}
