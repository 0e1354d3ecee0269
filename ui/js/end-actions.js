// The buttons under every game's end screen: rematch (same players, same rules), undo the
// last action, home.

import { ipc } from './ipc.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { app } from './app.js';

export function endActions(matchId, undo) {
  return h('div', { class: 'end-actions' },
    h('button', {
      class: 'btn primary big', type: 'button', id: 'rematch', 'data-key': 'rematch',
      onclick: async () => {
        try { const m = await ipc.rematch(matchId); app.go(`#/match/${m.id}`); } catch (e) { app.error(e); }
      },
    }, t('rematch')),
    h('button', { class: 'btn big', type: 'button', id: 'undo-end', onclick: undo }, '↶ ', t('undo')),
    h('button', { class: 'btn ghost big', type: 'button', id: 'go-home', onclick: () => app.go('#/home') }, t('home')));
}
