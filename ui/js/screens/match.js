// Opens a match on the screen of its game.

import { ipc } from '../ipc.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { app } from '../app.js';
import * as molkky from './molkky.js';
import * as crokinole from './crokinole.js';
import * as morris from './morris.js';
import * as boulomania from './boulomania.js';

const SCREENS = { molkky, molkkout: molkky, crokinole, morris, boulomania };

export function mount(root, args) {
  let inner = null;
  let gone = false;
  root.replaceChildren(h('p', { class: 'empty', text: t('loading') }));
  ipc.getMatch(Number(args[0]))
    .then((view) => {
      if (gone) return;
      inner = (SCREENS[view.game] || molkky).mount(root, args, view);
    })
    .catch((e) => app.error(e));
  return {
    refresh: () => inner?.refresh?.(),
    unmount() { gone = true; inner?.unmount?.(); },
  };
}
