// Opens a match on the screen its game registered (games.js), with the game's game_info.

import { ipc } from '../ipc.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { app } from '../app.js';
import { game, gameInfo } from '../games.js';

export function mount(root, args) {
  let inner = null;
  let gone = false;
  root.replaceChildren(h('p', { class: 'empty', text: t('loading') }));
  ipc.getMatch(Number(args[0]))
    .then(async (view) => {
      const info = await gameInfo(view.game);
      if (gone) return;
      const screen = game(view.game);
      if (!screen) throw { kind: 'bad_record', detail: view.game, code: null };
      inner = screen.mount(root, args, view, info);
    })
    .catch((e) => app.error(e));
  return {
    refresh: () => inner?.refresh?.(),
    unmount() { gone = true; inner?.unmount?.(); },
  };
}
