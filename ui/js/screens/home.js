// Home: start a game, resume an unfinished match, see recent results.

import { ipc } from '../ipc.js';
import { h, names, scheduler, latest, STALE, onePerPress, twoTaps } from '../dom.js';
import { t, ago } from '../i18n.js';
import { app, loadFailed } from '../app.js';
import { game, games } from '../games.js';


function scoreLine(item) {
  const s = item.summary || {};
  const scores = s.scores || [];
  const legs = s.best_of > 1 ? ` (${(s.legs_won || []).join('–')})` : '';
  return scores.join(' – ') + legs;
}

// A row is keyed by its match: when the lists change (a discard, another device's match), each
// row keeps its own elements, and a press or the focus stays with its match.
function matchRow(item, unfinished, reload, confirm) {
  const winner = item.winner != null ? item.sides[item.winner] : null;
  return h('li', { class: 'match-row', 'data-key': `${unfinished ? 'unfinished' : 'recent'}-${item.id}` },
    h('button', {
      class: 'match-open', type: 'button', 'data-match': item.id,
      onclick: () => app.go(`#/match/${item.id}`),
    },
    h('span', { class: 'match-game', text: t(`game_${item.game}`) }),
    h('span', { class: 'match-sides' },
      item.sides.map((side, i) => h('span', { class: i === item.winner ? 'side-name won' : 'side-name', text: names(side) }))),
    h('span', { class: 'match-score', text: scoreLine(item) }),
    h('span', { class: 'match-when', text: ago(item.updated_at) }),
    winner && !unfinished ? h('span', { class: 'sr-only', text: t(winner.length > 1 ? 'winner' : 'winner_one', { names: names(winner) }) }) : null),
    unfinished ? discardButton(item, reload, confirm) : null);
}

// Two taps to discard: the first arms the button for a few seconds (no system dialog, which
// mobile webviews do not all show). Which button is armed is the screen's (`confirm`, dom.js's
// twoTaps), and the button is drawn from it: a redraw of the lists keeps it armed, a second tap
// within half a second of the first or a held Enter is not the second asking, and the screen
// come back to starts with nothing armed.
function discardButton(item, reload, confirm) {
  const on = confirm.is(item.id);
  return h('button', {
    class: on ? 'btn small ghost discard armed' : 'btn small ghost discard', type: 'button', 'data-discard': item.id,
    'aria-label': `${t(on ? 'discard_again' : 'discard')} ${item.sides.map(names).join(', ')}`,
    onkeydown: onePerPress,
    onclick: async (e) => {
      const btn = e.currentTarget;
      const asked = confirm.tap(item.id);
      // The label a screen reader reads follows the button's state, and the change is said.
      if (asked === 'armed') app.announce(t('discard_again'));
      if (asked !== 'confirmed') return;
      try {
        // Given back as it goes, so that the discard can be taken back (same id, same actions,
        // the same table of its tournament).
        const record = await ipc.discardMatch(item.id);
        // From the keyboard, the Undo goes where the Discard was: the focus, with the row gone.
        const keyboard = document.activeElement === btn;
        reload();
        app.offerUndo(t('discarded'), async () => {
          try { await ipc.importRecords(JSON.stringify(record), item.writer); reload(); return true; } catch (err) { app.error(err); return false; }
        }, { focus: keyboard });
      } catch (err) { app.error(err); }
    },
  }, t(on ? 'discard_again' : 'discard'));
}

let painted = false;

export function mount(root) {
  app.title(t('app_name'));
  let data = null;
  // The lists could not be read (and none were before): said in their place, with Retry, not
  // "Nothing yet", which hid the unfinished matches as if there were none.
  let failed = null;
  // Made once and patched in place on each redraw (dom.js): a tap as the lists come still lands.
  const draw = () => {
    const mine = data ? data.unfinished.filter((m) => m.writer) : [];
    const others = data ? data.unfinished.filter((m) => !m.writer) : [];
    return h('section', { class: 'home' },
        h('p', { class: 'tagline', text: t('tagline') }),
        h('h2', { text: t('new_game') }),
        h('div', { class: 'game-grid' },
          games().map((g) => h('button', {
            class: 'game-card', type: 'button', id: `new-${g}`, 'data-edge': game(g)?.edge,
            onclick: () => app.go(`#/setup/${g}`),
          }, h('span', { class: 'game-title', text: t(`game_${g}`) }), h('span', { class: 'game-hint', text: t(`game_${g}_hint`) })))),
        // This device's own to carry on first; those other devices score (pulled from the
        // club's hub, pushed to this one) apart, to follow.
        mine.length ? [
          h('h2', { text: t('unfinished') }),
          h('ul', { class: 'match-list', id: 'unfinished' }, mine.map((m) => matchRow(m, true, load, confirm))),
        ] : null,
        others.length ? [
          h('h2', { text: t('unfinished_elsewhere') }),
          h('ul', { class: 'match-list', id: 'unfinished-elsewhere' }, others.map((m) => matchRow(m, true, load, confirm))),
        ] : null,
        h('div', { class: 'home-links' },
          h('button', { class: 'btn', type: 'button', id: 'open-history', onclick: () => app.go('#/history') }, t('history')),
          h('button', { class: 'btn', type: 'button', id: 'open-players', onclick: () => app.go('#/players') }, t('players')),
          h('button', { class: 'btn', type: 'button', id: 'open-club', onclick: () => app.go('#/club') }, t('club_night'))),
        failed ? loadFailed(failed, () => { failed = null; render(); load(); }) : null,
        h('h2', { text: t('recent') }),
        failed ? null : data && data.recent.length
          ? h('ul', { class: 'match-list', id: 'recent' }, data.recent.map((m) => matchRow(m, false, load, confirm)))
          : h('p', { class: 'empty', text: data ? t('none_yet') : t('loading') }));
  };
  const render = scheduler(root, draw);
  const confirm = twoTaps(render);
  // Asked again on a discard, a data change or a return to the front: the latest answer wins.
  const homeAsked = latest();
  async function load() {
    try {
      const answer = await homeAsked(ipc.home());
      if (answer === STALE) return;
      data = answer;
      failed = null;
    } catch (e) {
      // Lists read before stay shown (the toast says this read failed); none yet: Retry.
      if (data) app.error(e, { reading: true });
      else failed = e;
    }
    render();
    if (!painted) {
      painted = true;
      requestAnimationFrame(() => ipc.painted().catch(() => {}));
    }
  }
  render();
  load();
  return { refresh: load, onData: load };
}
