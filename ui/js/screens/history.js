// The history: every match, newest first, filtered by game, player and status, a page at a time.

import { ipc } from '../ipc.js';
import { h, scheduler, names, latest, stillUp, onePerPress, STALE } from '../dom.js';
import { t, ago } from '../i18n.js';
import { app, loadFailed } from '../app.js';
import { games } from '../games.js';


function duration(item) {
  const end = item.finished_at ?? item.updated_at;
  const min = Math.max(1, Math.round((end - item.started_at) / 60000));
  return t('minutes', { n: min });
}

// `#/history/ID` opens on the matches of player ID (a player's page links there).
export function mount(root, args = []) {
  app.title(t('history'));
  const player = Number(args[0]);
  const st = { filter: Number.isInteger(player) && player > 0 ? { player } : {}, when: undefined, items: [], done: false, players: [], loading: true };

  // A page asked for under filters since changed is not shown.
  const pageAsked = latest();
  const up = stillUp();
  const PAGE = 30;

  // `again`: the rows shown read again (back to the front), as many as were shown (and one
  // more, to know whether More has more to give), so that the pages loaded with More and the
  // place scrolled to stay.
  async function load(more = false, filtered = true, again = false) {
    // More asks for the page after the rows shown: not while a filter's first page is coming.
    if (more && st.loading) return;
    st.loading = true;
    const last = st.items[st.items.length - 1];
    const limit = again ? Math.max(PAGE, st.items.length + 1) : PAGE;
    const filter = { ...st.filter, limit, ...(more && last ? { after: [last.started_at, last.id] } : {}) };
    try {
      const items = await pageAsked(ipc.history(filter));
      if (items === STALE || !up()) return;
      st.items = more ? st.items.concat(items) : items;
      st.done = items.length < limit;
      st.failed = null;
      // More goes once the last page is in: the keyboard goes on from the first match it added
      // (from the last row when that page was empty: More went with nowhere else to go).
      if (more && st.done) render.focusOn(`[data-match="${(items[0] ?? last).id}"]`);
      // What a filter changed is said, not only drawn.
      if (!more && filtered) app.announce(items.length ? t('history_shown', { n: st.items.length }) : t('none_found'));
    } catch (e) {
      if (!up()) return;
      // A first page that cannot be read (a filter's, or the screen's own) says so in the
      // list's place with Retry, not "No match here" nor the rows of the filter before.
      if (more || (again && st.items.length)) app.error(e, { reading: true });
      else {
        st.items = [];
        st.failed = { error: e, filtered };
      }
    }
    st.loading = false;
    render();
  }

  function select(id, label, value, options, onchange) {
    return h('label', { class: 'field', for: id }, h('span', { text: label }),
      h('select', { id, onchange: (ev) => onchange(ev.target.value || undefined) },
        options.map(([v, text]) => h('option', { value: v, selected: String(value ?? '') === String(v) }, text))));
  }

  function row(item) {
    return h('li', { class: 'match-row', 'data-key': `match-${item.id}` }, h('button', {
      class: 'match-open', type: 'button', 'data-match': item.id, onclick: () => app.go(`#/match/${item.id}`),
    },
    h('span', { class: 'match-game', text: t(`game_${item.game}`) }),
    h('span', { class: 'match-sides' }, item.sides.map((side, i) => h('span', { class: i === item.winner ? 'side-name won' : 'side-name', text: names(side) }))),
    h('span', { class: 'match-score', text: `${(item.summary?.scores || []).join(' – ')} · ${item.status === 'playing' ? t('in_progress') : item.status === 'drawn' ? t('drawn') : duration(item)}` }),
    h('span', { class: 'match-when', text: ago(item.started_at) })));
  }

  const draw = () => h('section', { class: 'history' },
    h('button', { class: 'btn small', type: 'button', id: 'history-tournaments', onclick: () => app.go('#/club') }, t('tournaments')),
    h('div', { class: 'filters field-row three' },
      select('filter-when', t('when'), st.when, [['', t('all_time')], ['7', t('last_7_days')], ['30', t('last_30_days')], ['365', t('this_year')]],
        (v) => { st.when = v; st.filter.from = v ? Date.now() - Number(v) * 86400000 : undefined; load(); }),
      select('filter-game', t('game'), st.filter.game, [['', t('all_games')], ...games().map((g) => [g, t(`game_${g}`)])],
        (v) => { st.filter.game = v; load(); }),
      select('filter-player', t('player'), st.filter.player, [['', t('all_players')], ...st.players.map((p) => [p.id, p.name])],
        (v) => { st.filter.player = v ? Number(v) : undefined; load(); }),
      select('filter-status', t('status'), st.filter.status, [['', t('all_matches')], ['over', t('finished')], ['playing', t('in_progress')]],
        (v) => { st.filter.status = v; load(); })),
    st.items.length
      ? h('ul', { class: 'match-list', id: 'history-list' }, st.items.map(row))
      : st.failed && !st.loading
        ? loadFailed(st.failed.error, () => load(false, st.failed.filtered))
        : h('p', { class: 'empty', text: st.loading ? t('loading') : t('none_found') }),
    !st.done && st.items.length ? h('button', { class: 'btn', type: 'button', id: 'more', onclick: () => load(true), onkeydown: onePerPress }, t('more')) : null);
  const render = scheduler(root, draw);
  render();
  ipc.searchPlayers('', true).then((p) => { st.players = p; render(); }).catch((e) => { if (up()) app.error(e, { reading: true }); });
  load(false, false);
  return { refresh: () => load(false, false, true) };
}
