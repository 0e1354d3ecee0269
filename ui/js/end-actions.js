// The buttons under every game's end screen: rematch (same players, same rules), share the
// result, replay it step by step, undo the last action, home.

import { ipc } from './ipc.js';
import { h, glyph, stillUp } from './dom.js';
import { t } from './i18n.js';
import { app } from './app.js';
import { share } from './share.js';

// What is on its way, by match and button: kept here, not in the buttons, which a redraw makes
// anew (a busy flag in each would be cleared by the next redraw).
const busy = new Set();

export function endActions(matchId, undo, view) {
  const table = view?.tournament;
  // One at a time: a second tap while the first is on its way would make a second match, or
  // write a second file.
  const once = (what, task) => async () => {
    const key = `${matchId}:${what}`;
    if (busy.has(key)) return;
    busy.add(key);
    try { await task(); } catch (e) { app.error(e); } finally { busy.delete(key); }
  };
  return h('div', { class: 'end-actions', 'data-key': 'end-actions' },
    table ? h('button', {
      class: 'btn primary big', type: 'button', id: 'back-to-tournament', 'data-key': 'back-to-tournament',
      onclick: () => app.back(`#/tournament/${table.tournament}`),
    }, t('back_to_tournament')) : null,
    table ? null : h('button', {
      class: 'btn primary big', type: 'button', id: 'rematch', 'data-key': 'rematch',
      onclick: once('rematch', async () => {
        // Opened only if the person is still here (not gone Back while it was made).
        const up = stillUp();
        const m = await ipc.rematch(matchId);
        if (up()) app.go(`#/match/${m.id}`);
      }),
    }, t('rematch')),
    h('div', { class: 'end-row' },
      view ? h('button', { class: 'btn big', type: 'button', id: 'share', onclick: () => share(view) }, t('share')) : null,
      h('button', { class: 'btn big', type: 'button', id: 'replay', onclick: () => app.go(`#/replay/${matchId}`) }, t('replay')),
      h('button', {
        class: 'btn big', type: 'button', id: 'export-match',
        onclick: once('export', async () => {
          const w = await ipc.exportFile(String(matchId));
          app.notice(t('file_written', { path: w.path }));
        }),
      }, t('export'))),
    // Undone, the game goes on: the focus goes to the game's own Undo, still at hand.
    h('button', { class: 'btn big', type: 'button', id: 'undo-end', 'data-focus-next': '#undo', onclick: undo }, glyph('↶'), t('undo')),
    h('button', { class: 'btn ghost big', type: 'button', id: 'go-home', onclick: () => app.go('#/home') }, t('home')));
}
