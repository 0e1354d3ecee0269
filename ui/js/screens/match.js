// Opens a match on the screen its game registered (games.js), with the game's game_info. A
// match another device scores (pulled from the club's hub, pushed to this device's hub,
// imported) is shown with a band that says so: Rust refuses its throws and undos here, and the
// screen follows what the hub sends, until the band's "Score it here" (two taps) makes this
// device its writer.

import { ipc } from '../ipc.js';
import { h, onePerPress, twoTaps } from '../dom.js';
import { t } from '../i18n.js';
import { app, loadFailed } from '../app.js';
import { game, gameInfo } from '../games.js';

export function mount(root, args) {
  const id = Number(args[0]);
  let inner = null;
  let gone = false;
  // "Score it here" takes two taps (the second of a double tap is not one).
  const confirm = twoTaps(() => { if (!gone) showTake(); });
  const text = h('p', { class: 'elsewhere-text', id: 'elsewhere-text' });
  const take = h('button', { class: 'btn small', type: 'button', id: 'take-over', onclick: takeOver, onkeydown: onePerPress });
  function showTake() {
    take.textContent = t(confirm.is('take') ? 'take_over_again' : 'take_over');
    take.classList.toggle('armed', confirm.is('take'));
  }
  // The text alone is the live region: the button's own label changing is said once, by
  // the announcement.
  text.setAttribute('role', 'status');
  const band = h('div', { class: 'elsewhere', id: 'elsewhere', hidden: true }, text, take);
  const body = h('div', { class: 'match-body' });
  root.replaceChildren(band, body);

  function show(view) {
    band.hidden = view.writer;
    if (view.writer) return;
    const line = t(view.summary.status === 'playing' ? 'elsewhere_playing' : 'elsewhere_over');
    if (text.textContent !== line) text.textContent = line;
    showTake();
  }

  async function takeOver() {
    const tapped = confirm.tap('take');
    if (tapped === 'armed') app.announce(t('take_over_again'));
    if (tapped !== 'confirmed') return;
    try {
      const view = await ipc.takeOver(id);
      if (gone) return;
      // The band goes with the button that had the focus: the focus goes to the screen.
      const had = band.contains(document.activeElement);
      show(view);
      if (had) document.getElementById('screen')?.focus({ preventScroll: true });
      await inner?.refresh?.();
      app.announce(t('taken_over'));
    } catch (e) {
      app.error(e);
    }
  }

  // The band follows the match's writer: another device may take it over, or this one.
  async function reload() {
    try {
      const view = await ipc.getMatch(id);
      if (!gone) show(view);
    } catch { /* the screen below says what went wrong */ }
  }

  // A match that cannot be read (a storage failure) says why where it would be, with a way to
  // try again, rather than "Loading…" for good.
  function open() {
    body.replaceChildren(h('p', { class: 'empty', text: t('loading') }));
    ipc.getMatch(id)
      .then(async (view) => {
        const info = await gameInfo(view.game);
        if (gone) return;
        const screen = game(view.game);
        if (!screen) throw { kind: 'not_found', detail: view.game, code: 'unknown_game' };
        show(view);
        inner = screen.mount(body, args, view, info);
      })
      .catch((e) => {
        if (gone) return;
        // Said in the screen's place, with Retry: not also at its foot.
        body.replaceChildren(loadFailed(e, open));
      });
  }
  open();
  return {
    // Back to the front, or the match changed: the band is asked about again only while it
    // shows (a match this device writes stays so unless another device takes it over, which a
    // refused throw says: `elsewhere`).
    refresh: () => { if (!band.hidden) reload(); return inner?.refresh?.(); },
    elsewhere: () => { reload(); return inner?.refresh?.(); },
    // What the hub sent may be this match: one another device scores is followed here.
    onData: () => { if (!band.hidden) { reload(); inner?.refresh?.(); } },
    unmount() { gone = true; inner?.unmount?.(); },
  };
}
