// Players: search; a player's page with statistics per game, rename, archive, merge.

import { ipc } from '../ipc.js';
import { h, scheduler } from '../dom.js';
import { t } from '../i18n.js';
import { app } from '../app.js';

import { GAMES } from '../games.js';
const RATES = {
  points_per_throw: (v) => v.toFixed(1), miss_rate: (v) => `${Math.round(v * 100)} %`,
  chance_success: (v) => `${Math.round(v * 100)} %`, points_per_round: (v) => v.toFixed(1),
  twenties_per_round: (v) => v.toFixed(2), rounds_won_rate: (v) => `${Math.round(v * 100)} %`,
};

export function mount(root, [id]) {
  const st = { query: '', list: [], player: null, stats: {}, newName: '', mergeWith: '' };

  async function loadList() {
    try { st.list = await ipc.searchPlayers(st.query, true); } catch (e) { app.error(e); }
    if (id) {
      st.player = st.list.find((p) => p.id === Number(id)) || null;
      st.newName = st.player?.name ?? '';
      const all = await Promise.all(GAMES.map((g) => ipc.playerStats(Number(id), g).catch(() => null)));
      GAMES.forEach((g, i) => { st.stats[g] = all[i]; });
    }
    render();
  }

  function formDots(form) {
    return h('span', { class: 'form', 'aria-label': form.join(', ') },
      form.slice().reverse().map((r) => h('span', { class: `form-dot ${r}`, title: t(r) })));
  }

  function statsCard(game) {
    const s = st.stats[game];
    if (!s || !s.matches) return null;
    return h('section', { class: 'stats-card', 'data-stats': game },
      h('h3', { text: t(`game_${game}`) }),
      h('p', { class: 'stats-line', text: t('record_line', { n: s.matches, w: s.wins, l: s.losses, d: s.draws, rate: Math.round(s.win_rate * 100) }) }),
      formDots(s.form),
      h('dl', { class: 'rates' }, Object.entries(s.rates).filter(([, v]) => v != null).map(([k, v]) => [
        h('dt', { text: t(`rate_${k}`) }), h('dd', { 'data-rate': k, text: (RATES[k] || String)(v) })])),
      opponents(s.totals));
  }

  // Results against people and against each computer level (Morris counts them apart, as
  // "vs_people_won", "vs_level_3_drawn", ...).
  function opponents(totals) {
    const rows = {};
    for (const [k, n] of Object.entries(totals || {})) {
      const m = /^vs_(people|level_(\d))_(won|drawn|lost)$/.exec(k);
      if (!m) continue;
      const row = (rows[m[1]] ||= { won: 0, drawn: 0, lost: 0, level: m[2] });
      row[m[3]] += n;
    }
    const keys = Object.keys(rows).sort();
    if (!keys.length) return null;
    return h('dl', { class: 'rates', 'data-opponents': '' }, keys.map((k) => [
      h('dt', { text: rows[k].level ? t('vs_level', { n: rows[k].level }) : t('vs_people') }),
      h('dd', { 'data-vs': k, text: t('wdl', { w: rows[k].won, d: rows[k].drawn, l: rows[k].lost }) })]));
  }

  function playerPage() {
    const p = st.player;
    app.title(p.name);
    const others = st.list.filter((o) => o.id !== p.id);
    return h('section', { class: 'player-page' },
      GAMES.map(statsCard),
      GAMES.every((g) => !st.stats[g]?.matches) ? h('p', { class: 'empty', text: t('no_finished_match') }) : null,
      h('h2', { text: t('rename') }),
      h('form', { class: 'add-player', onsubmit: async (ev) => {
        ev.preventDefault();
        try { await ipc.renamePlayer(p.id, st.newName); app.announce(t('saved')); loadList(); } catch (e) { app.error(e); }
      } },
      h('input', { id: 'rename', type: 'text', maxlength: 60, value: st.newName, 'aria-label': t('rename'), oninput: (ev) => { st.newName = ev.target.value; } }),
      h('button', { class: 'btn', type: 'submit', id: 'rename-save' }, t('save'))),
      others.length ? [h('h2', { text: t('merge') }), h('p', { class: 'empty', text: t('merge_hint', { name: p.name }) }),
        h('div', { class: 'add-player' },
          h('select', { id: 'merge-with', 'aria-label': t('merge'), onchange: (ev) => { st.mergeWith = ev.target.value; } },
            h('option', { value: '' }, '—'), others.map((o) => h('option', { value: o.id }, o.name))),
          h('button', { class: 'btn', type: 'button', id: 'merge', onclick: async () => {
            if (!st.mergeWith) return;
            try { await ipc.mergePlayers(p.id, Number(st.mergeWith)); st.mergeWith = ''; loadList(); } catch (e) { app.error(e); }
          } }, t('merge_button')))] : null,
      h('button', { class: 'btn ghost', type: 'button', id: 'archive', onclick: async () => {
        try { await ipc.archivePlayer(p.id, true); app.go('#/players'); } catch (e) { app.error(e); }
      } }, t('archive')),
      h('button', { class: 'btn ghost', type: 'button', onclick: () => app.go(`#/history`) }, t('history')));
  }

  function listPage() {
    app.title(t('players'));
    return h('section', { class: 'players' },
      h('input', { id: 'player-search', type: 'search', value: st.query, placeholder: t('search'), 'aria-label': t('search'),
        oninput: (ev) => { st.query = ev.target.value; loadList(); } }),
      h('ul', { class: 'match-list', id: 'player-list' }, st.list.map((p) => h('li', null, h('button', {
        class: 'match-open player-open', type: 'button', 'data-player': p.id, onclick: () => app.go(`#/players/${p.id}`),
      }, h('span', { class: 'match-game', text: p.name }))))));
  }

  const render = scheduler(root, () => (id ? (st.player ? playerPage() : h('p', { class: 'empty', text: t('loading') })) : listPage()));
  render();
  loadList();
  return { refresh: loadList };
}
