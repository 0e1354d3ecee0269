// The big screen for a projector or a TV: the current round by board and the standings, in
// letters readable from across the room, refreshed by itself every two seconds. Nothing here
// takes a tap but "leave".

import { ipc } from '../ipc.js';
import { h } from '../dom.js';
import { t, tPlace } from '../i18n.js';
import { app, loadFailed } from '../app.js';
import { standingsTable, entrantName, championText, resultText, wonMark, tableGroup, namesInPools } from '../standings.js';

const REFRESH_MS = 2000;

// Everything on one screen, which nobody scrolls: a long round or a big field makes the
// letters smaller, down to MIN_FONT_PX (still read across a room); only when even that is not
// enough are the standings cut, each group (each pool) to its first rows, then the first rows
// of all; a round too long still for one column of tables takes two. A field too big for all
// of that (more than about fifty tables) runs past the foot.
const MIN_FONT_PX = 18;
const LAYOUTS = [1, 2].flatMap((columns) => [
  ...[Infinity, 16, 12, 8, 4].map((limit) => ({ columns, limit, perGroup: true })),
  ...[16, 8].map((limit) => ({ columns, limit, perGroup: false })),
]);

export function mount(root, [idText]) {
  const id = Number(idText);
  let timer = null;
  let last = '';
  const frame = h('section', { class: 'wall', id: 'wall' });
  const leave = h('button', { class: 'btn small ghost wall-leave', type: 'button', id: 'leave-wall', onclick: () => app.back(`#/tournament/${id}`) }, t('leave_big_screen'));
  // Something on the screen from the start: "Loading…", then the round, or why not.
  frame.replaceChildren(h('p', { class: 'empty', id: 'wall-empty', text: t('loading') }));
  root.replaceChildren(frame, leave);
  document.documentElement.requestFullscreen?.().catch(() => {});

  function draw(v, { columns, limit, perGroup }) {
    const s = v.summary;
    const boards = new Map(s.boards.map((b) => [b.table, b]));
    const byes = Array.isArray(s.bye) ? s.bye : s.bye == null ? [] : [s.bye];
    const title = s.status === 'registering' ? t('registration')
      : s.status === 'finished' ? championText(s)
        : t('round_of', { n: s.round, of: s.rounds });
    frame.replaceChildren(
      h('header', { class: 'wall-head' },
        h('h1', { id: 'wall-title', text: title }),
        h('p', { class: 'wall-game', text: `${t(`game_${s.game}`)} · ${t(`system_${s.system}`)}` })),
      h('div', { class: 'wall-cols' },
        h('section', { class: 'wall-round', 'aria-label': t('tab_round') },
          h('h2', { text: t('tab_round') }),
          h('ol', { class: `wall-tables${columns === 2 ? ' two' : ''}`, id: 'wall-tables' }, s.pairings.map((p) => {
            const b = boards.get(p.table);
            const group = tableGroup(s, p);
            const won = p.result ? (p.result.forfeit != null ? 1 - p.result.forfeit : p.result.winner) : undefined;
            return h('li', { class: `wall-table${p.result ? ' done' : ''}${b?.wave ? ' waiting' : ''}`, 'data-table': p.table },
              h('span', { class: 'wall-board' }, b?.wave ? t('waiting_short') : tPlace('place_n', s.place, { n: (b?.board ?? p.table) + 1 }),
                group ? h('small', { class: 'wall-group', text: group }) : null),
              h('span', { class: 'wall-sides' }, p.sides.map((e, i) => h('span', { class: won === i ? 'won' : null }, entrantName(s, e), won === i ? wonMark() : null))),
              h('span', { class: 'wall-result', text: p.result ? resultText(s, p) : '' }));
          })),
          byes.length ? h('p', { class: 'wall-bye', text: t('bye_for', { names: namesInPools(s, byes) }) }) : null,
          s.walkovers?.length ? h('p', { class: 'wall-bye', text: t('walkover_for', { names: namesInPools(s, s.walkovers) }) }) : null),
        h('section', { class: 'wall-standings', 'aria-label': t('standings') },
          h('h2', { text: t('standings') }),
          standingsTable(s, { limit, perGroup, id: 'wall-standings' }))));
  }

  // Nothing to scroll, and the foot of the screen left to the Leave button, which covers
  // nothing then.
  const fits = () => document.documentElement.scrollHeight <= window.innerHeight + 1
    && frame.getBoundingClientRect().bottom <= window.innerHeight - leave.offsetHeight - 8;

  // Draws `v` as large as the screen holds it whole (see MIN_FONT_PX): the first layout that
  // fits, at the largest size it fits at.
  let shown = null;
  function fit(v) {
    shown = v;
    // Two columns of tables only where a table's line still fits in half the round's column.
    const columns = window.innerWidth >= 1000 ? 2 : 1;
    for (const layout of LAYOUTS.filter((l) => l.columns <= columns)) {
      draw(v, layout);
      frame.style.fontSize = '';
      if (fits()) return;
      const base = parseFloat(getComputedStyle(frame).fontSize);
      frame.style.fontSize = `${MIN_FONT_PX}px`;
      if (base <= MIN_FONT_PX || !fits()) continue;
      let [lo, hi] = [MIN_FONT_PX, base];
      while (hi - lo > 0.5) {
        const mid = (lo + hi) / 2;
        frame.style.fontSize = `${mid}px`;
        if (fits()) lo = mid;
        else hi = mid;
      }
      frame.style.fontSize = `${lo}px`;
      return;
    }
    // Nothing fits: the tables in two columns and the first rows of all, in the smallest letters.
    draw(v, { columns, limit: 16, perGroup: false });
    frame.style.fontSize = `${MIN_FONT_PX}px`;
  }
  // A screen that changes size (a TV's resolution, a window) is fitted again.
  let refit = 0;
  const resized = () => {
    cancelAnimationFrame(refit);
    refit = requestAnimationFrame(() => { if (shown && !gone) fit(shown); });
  };
  window.addEventListener('resize', resized);

  // One load at a time, and none once the screen is left: an answer on its way when the
  // person leaves (or when the app comes back into view) would otherwise start a second loop
  // of loads that never stops.
  let gone = false;
  let loading = false;
  // The refusal last shown: the same one again, every two seconds, is not said again (a screen
  // reader would say it for ever); a new one, or one after the wall came back, is.
  let failed = null;

  async function load() {
    if (gone || loading) return;
    loading = true;
    try {
      const v = await ipc.getTournament(id);
      if (gone) return;
      failed = null;
      const text = JSON.stringify(v.summary);
      // Drawn again only when something changed: the screen does not flicker.
      if (text !== last) {
        last = text;
        fit(v);
      }
    } catch (e) {
      const said = JSON.stringify([e?.kind, e?.code, e?.detail]);
      if (!gone && said !== failed) {
        app.error(e, { reading: true });
        // Nothing shown yet: the reason stays on the screen once the message has gone (the
        // projector stayed blank), and the wall tries again every two seconds.
        if (!shown) frame.replaceChildren(loadFailed(e, () => { clearTimeout(timer); load(); }));
      }
      failed = said;
    } finally {
      loading = false;
    }
    if (!gone) timer = setTimeout(load, REFRESH_MS);
  }
  load();
  return {
    refresh: () => {
      if (loading) return;
      clearTimeout(timer);
      load();
    },
    unmount() {
      gone = true;
      clearTimeout(timer);
      window.removeEventListener('resize', resized);
      if (document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
    },
  };
}
