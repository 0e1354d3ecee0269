// Players: search; a player's page with statistics per game, rename, archive, merge.

import { ipc } from '../ipc.js';
import { h, scheduler, latest, loads, STALE, foldName, onePerPress, twoTaps } from '../dom.js';
import { t } from '../i18n.js';
import { app, loadFailed } from '../app.js';

import { games, game as gameEntry } from '../games.js';
import { formChart, lineChart, decimal } from '../charts.js';

const RATES = {
  points_per_throw: (v) => decimal(v, 1), miss_rate: (v) => `${Math.round(v * 100)} %`,
  chance_success: (v) => `${Math.round(v * 100)} %`, points_per_round: (v) => decimal(v, 1),
  twenties_per_round: (v) => decimal(v, 2), rounds_won_rate: (v) => `${Math.round(v * 100)} %`,
  menes_won_rate: (v) => `${Math.round(v * 100)} %`, points_per_mene: (v) => decimal(v, 2), carreaux: String,
};

export function mount(root, [id]) {
  const st = {
    query: '', list: [], player: null, stats: {}, series: {}, newName: '', mergeWith: '',
    board: { game: games()[0], rows: null, from: '', to: '' }, versus: { other: '', game: games()[0], result: null, expected: null },
    tournaments: [], ratings: {}, ratingSeries: {},
    listed: false, failed: null, // whether the list was read; why not, when it could not be
    statsFailed: null, // why a player's figures could not be read
  };

  // Searches, leaderboards and heads to head are answered in any order: only the latest
  // asked of each kind is shown.
  const searchAsked = latest();
  const boardAsked = latest();
  const versusAsked = latest();

  const pages = loads();

  // `board`: the ratings leaderboard too (not at each letter typed in the search).
  async function loadList(board = true) {
    try {
      const list = await searchAsked(ipc.searchPlayers(st.query, true));
      if (list === STALE) return;
      st.list = list;
      st.listed = true;
      st.failed = null;
    } catch (e) {
      st.failed = e;
      // A player's page with no list read says it in its place, with Retry (noPlayer).
      if (!(id && !st.listed)) app.error(e, { reading: true });
    }
    if (id) {
      const stored = st.player?.name ?? '';
      st.player = st.list.find((p) => p.id === Number(id)) || null;
      // A new name being typed stays when the page loads again (back from another app).
      if (st.newName === stored) st.newName = st.player?.name ?? '';
      // The page's figures are read in turn and shown together, only if no later load (after a
      // merge or a rename) was asked for meanwhile: older figures never replace newer ones.
      const still = pages.asked();
      const pid = Number(id);
      // A figure that could not be read is said, with Retry, not taken for "no match yet".
      let unread = null;
      const all = await Promise.all(games().map((g) => ipc.playerStats(pid, g).catch((e) => { unread ??= e; return null; })));
      const series = await Promise.all(games().map((g, i) => (all[i]?.matches ? ipc.playerSeries(pid, g).catch(() => []) : [])));
      const tournaments = await ipc.playerTournaments(pid).catch((e) => { app.error(e, { reading: true }); return []; });
      const rated = await Promise.all(games().map((g, i) => (all[i]?.matches ? ipc.playerRating(pid, g).catch(() => null) : null)));
      const history = await Promise.all(games().map((g, i) => (rated[i] ? ipc.ratingHistory(pid, g).catch(() => []) : [])));
      if (!still()) return;
      games().forEach((g, i) => {
        st.stats[g] = all[i];
        st.series[g] = series[i];
        st.ratings[g] = rated[i];
        st.ratingSeries[g] = history[i];
      });
      st.tournaments = tournaments;
      st.statsFailed = unread;
    } else if (board) {
      loadBoard();
    }
    render();
  }

  // Names that read the same (case and accents aside) are probably one person: warned, and
  // the player's page offers the merge.
  const twins = (p) => st.list.filter((o) => o.id !== p.id && foldName(o.name) === foldName(p.name));

  function formDots(form) {
    return h('span', { class: 'form', role: 'img', 'aria-label': form.map((r) => t(r)).join(', ') },
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
      opponents(s.totals),
      ratingBlock(game),
      charts(game));
  }

  // The rating in this game, its range, and its course over the matches rated.
  function ratingBlock(game) {
    const r = st.ratings[game];
    if (!r) return null;
    const series = st.ratingSeries[game] || [];
    return h('div', { class: 'rating', 'data-rating': game },
      h('p', { class: 'stats-line', text: t('rating_line', { r: Math.round(r.rating), lo: Math.round(r.low), hi: Math.round(r.high), n: r.matches }) },
        r.provisional ? h('span', { class: 'tag', text: t('provisional') }) : null),
      series.length >= 2 ? [h('h4', { text: t('rating_over_time') }),
        lineChart(series.map((x) => x.rating), t('rating_over_time'), (v) => String(Math.round(v)))] : null);
  }

  function charts(game) {
    const series = st.series[game] || [];
    if (series.length < 2) return null;
    const results = series.map((m) => m.result);
    const [key, value] = gameEntry(game)?.chart || [];
    const won = results.filter((r) => r === 'won').length;
    return h('div', { class: 'charts', 'data-charts': game },
      h('h4', { text: t('chart_form', { n: series.length }) }),
      formChart(results, t('chart_form_label', { n: series.length, w: won })),
      key ? [h('h4', { text: t(key) }), lineChart(series.map((m) => value(m.counters || {})), t(key))] : null);
  }

  // The season: from the first day to the last day given, both included.
  const day = (text, plus = 0) => (text ? Date.parse(`${text}T00:00:00`) + plus * 86400000 : null);

  // A leaderboard that cannot be read says so in its place, with Retry: not "Loading…" for
  // ever, nor the rows of the game or season chosen before under the new choice.
  async function loadBoard() {
    st.board.failed = null;
    try {
      const rows = await boardAsked(ipc.ratingLeaderboard(st.board.game, day(st.board.from), day(st.board.to, 1)));
      if (rows === STALE) return;
      st.board.rows = rows;
    } catch (e) {
      st.board.rows = null;
      st.board.failed = e;
    }
    render();
  }

  async function loadVersus() {
    // No one chosen is an answer too: one on its way for the player chosen before is dropped.
    const asked = versusAsked(st.versus.other ? Promise.all([
      ipc.headToHead(Number(id), Number(st.versus.other), st.versus.game),
      ipc.expectedResult(st.versus.game, Number(id), Number(st.versus.other)),
    ]) : Promise.resolve([null, null]));
    try {
      const both = await asked;
      if (both === STALE) return;
      [st.versus.result, st.versus.expected] = both;
    } catch (e) {
      // Not the figures of the player chosen before under the new one's name.
      st.versus.result = null;
      st.versus.expected = null;
      app.error(e, { reading: true });
    }
    render();
  }

  function gameSelect(sel, value, onchange) {
    return h('select', { id: sel, 'aria-label': t('game'), onchange: (ev) => onchange(ev.target.value) },
      games().map((g) => h('option', { value: g, selected: g === value }, t(`game_${g}`))));
  }

  function versus(p, others) {
    if (!others.length) return null;
    const r = st.versus.result;
    const other = others.find((o) => String(o.id) === String(st.versus.other));
    return [h('h2', { text: t('head_to_head') }),
      h('div', { class: 'field-row' },
        h('select', { id: 'versus-player', 'aria-label': t('head_to_head'), onchange: (ev) => { st.versus.other = ev.target.value; loadVersus(); } },
          h('option', { value: '' }, '—'), others.map((o) => h('option', { value: o.id, selected: String(o.id) === String(st.versus.other) }, o.name))),
        gameSelect('versus-game', st.versus.game, (g) => { st.versus.game = g; loadVersus(); })),
      r && other ? h('p', { class: 'stats-line', id: 'versus-result', text: t('versus_line', { a: p.name, b: other.name, wa: r.a, wb: r.b, d: r.draws }) }) : null,
      st.versus.expected && other ? h('p', { class: 'stats-line', id: 'versus-expected', text: t('expected_line', {
        a: p.name, b: other.name, pa: Math.round(st.versus.expected.expected[0] * 100), pb: Math.round(st.versus.expected.expected[1] * 100),
      }) }) : null];
  }

  // The leaderboard by rating: its 95 % range, the matches rated, provisional players marked;
  // a season from one day to another.
  function leaderboard() {
    const rows = st.board.rows;
    const date = (key, label) => h('label', { class: 'field', for: `board-${key}` }, h('span', { text: label }),
      h('input', { id: `board-${key}`, type: 'date', value: st.board[key], onchange: (ev) => { st.board[key] = ev.target.value; loadBoard(); } }));
    return h('section', { class: 'leaderboard' },
      h('h2', { text: t('leaderboard') }),
      gameSelect('board-game', st.board.game, (g) => { st.board.game = g; loadBoard(); }),
      h('div', { class: 'field-row' }, date('from', t('season_from')), date('to', t('season_to'))),
      rows && rows.length
        ? h('ol', { class: 'board-list', id: 'leaderboard' }, rows.map((r) => h('li', { 'data-player': r.player, 'data-key': `board-${r.player}`, class: r.provisional ? 'provisional' : null },
          h('button', { class: 'link', type: 'button', onclick: () => app.go(`#/players/${r.player}`) }, r.name),
          r.provisional ? h('span', { class: 'tag', text: t('provisional') }) : null,
          h('span', { class: 'board-figures rating-figures', text: t('rating_line', { r: Math.round(r.rating), lo: Math.round(r.low), hi: Math.round(r.high), n: r.matches }) }))))
        : st.board.failed ? loadFailed(st.board.failed, () => { st.board.failed = null; render(); loadBoard(); }, 'board')
          : h('p', { class: 'empty', text: rows ? t('no_finished_match') : t('loading') }));
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

  // Tournaments entered: how many, the best finish, and each one to open.
  function tournaments() {
    const list = st.tournaments;
    if (!list.length) return null;
    const finished = list.filter((x) => x.finished);
    const best = finished.length ? Math.min(...finished.map((x) => x.rank)) : null;
    return h('section', { class: 'stats-card', id: 'player-tournaments' },
      h('h3', { text: t('tournaments') }),
      h('p', { class: 'stats-line', text: best ? t('tournaments_line', { n: list.length, best }) : t('tournaments_played', { n: list.length }) }),
      h('ul', { class: 'match-list' }, list.map((x) => h('li', { 'data-key': `tournament-${x.id}` }, h('button', {
        class: 'match-open', type: 'button', 'data-tournament': x.id, onclick: () => app.go(`#/tournament/${x.id}`),
      }, h('span', { class: 'match-game', text: t(`game_${x.game}`) }),
      h('span', { class: 'match-score', text: t(x.finished ? 'finished_rank' : 'current_rank', { rank: x.rank, of: x.of }) }))))));
  }

  // A merge cannot be taken back: the first tap names who goes into whom and asks again (for a
  // few seconds), the second merges, once (the second tap of a double tap is not it).
  const mergeConfirm = twoTaps(() => render());
  function mergeButton(p, others) {
    // Who is chosen is read at the tap (the choice changes without a redraw): what the second
    // tap merges is what the first one named.
    const chosen = () => others.find((o) => String(o.id) === st.mergeWith);
    const gone = chosen();
    const armed = mergeConfirm.is(st.mergeWith) && !!gone;
    return h('button', {
      class: armed ? 'btn armed' : 'btn', type: 'button', id: 'merge', onkeydown: onePerPress, onclick: () => {
        const who = chosen();
        if (!who || st.busy) return undefined;
        const tapped = mergeConfirm.tap(st.mergeWith);
        if (tapped === 'armed') app.announce(t('merge_again', { gone: who.name, name: p.name }));
        if (tapped !== 'confirmed') return undefined;
        return app.exclusive(st, render, async () => {
          await ipc.mergePlayers(p.id, who.id);
          st.mergeWith = '';
          app.announce(t('players_merged'));
          loadList();
        });
      },
    }, armed ? t('merge_again', { gone: gone.name, name: p.name }) : t('merge_button'));
  }

  function playerPage() {
    const p = st.player;
    app.title(p.name);
    const others = st.list.filter((o) => o.id !== p.id);
    return h('section', { class: 'player-page' },
      games().map(statsCard),
      tournaments(),
      st.statsFailed ? loadFailed(st.statsFailed, () => { st.statsFailed = null; render(); loadList(); })
        : games().every((g) => !st.stats[g]?.matches) ? h('p', { class: 'empty', text: t('no_finished_match') }) : null,
      h('h2', { text: t('rename') }),
      h('form', { class: 'add-player', onsubmit: (ev) => {
        ev.preventDefault();
        // One at a time, each press once: a held Enter renamed (and said so) at its repeat rate.
        app.exclusive(st, render, async () => { await ipc.renamePlayer(p.id, st.newName); app.announce(t('saved')); loadList(); });
      } },
      h('input', { id: 'rename', type: 'text', maxlength: 60, value: st.newName, 'aria-label': t('rename'), oninput: (ev) => { st.newName = ev.target.value; } }),
      h('button', { class: 'btn', type: 'submit', id: 'rename-save', onkeydown: onePerPress }, t('save'))),
      twins(p).length ? h('p', { class: 'dupe-warning', id: 'dupe-warning', text: t('same_name_merge', { names: twins(p).map((o) => o.name).join(', ') }) }) : null,
      others.length ? [h('h2', { text: t('merge') }), h('p', { class: 'empty', text: t('merge_hint', { name: p.name }) }),
        h('div', { class: 'add-player' },
          h('select', { id: 'merge-with', 'aria-label': t('merge'), onchange: (ev) => { st.mergeWith = ev.target.value; render(); } },
            // The choice is drawn as it stands, so that a redraw never shows "—" while Merge
            // would still merge with the player chosen before.
            h('option', { value: '' }, '—'), others.map((o) => h('option', { value: o.id, selected: String(o.id) === st.mergeWith }, o.name))),
          mergeButton(p, others))] : null,
      versus(p, others),
      // Archived: out of the pickers, still here, and brought back in one tap; archiving offers
      // Undo at once too.
      p.archived ? h('p', { class: 'hint', id: 'archived-note', text: t('archived_note') }) : null,
      p.archived
        ? h('button', { class: 'btn', type: 'button', id: 'unarchive', onkeydown: onePerPress, onclick: () => app.exclusive(st, render, async () => {
          await ipc.archivePlayer(p.id, false);
          app.announce(t('player_back', { name: p.name }));
          loadList();
        }) }, t('unarchive'))
        : h('button', { class: 'btn ghost', type: 'button', id: 'archive', onkeydown: onePerPress, onclick: () => app.exclusive(st, render, async () => {
          // One at a time: a double tap archived twice, and offered an Undo that undid nothing.
          await ipc.archivePlayer(p.id, true);
          app.go('#/players');
          app.offerUndo(t('player_archived', { name: p.name }), async () => {
            try {
              await ipc.archivePlayer(p.id, false);
              // Back to the player's page from the players' screens only: from a match, the
              // Undo is said, and the match stays.
              if (location.hash.startsWith('#/players')) app.go(`#/players/${p.id}`);
              else app.announce(t('player_back', { name: p.name }));
              return true;
            } catch (err) { app.error(err); return false; }
          });
        }) }, t('archive')),
      h('button', { class: 'btn ghost', type: 'button', id: 'player-history', onclick: () => app.go(`#/history/${p.id}`) }, t('history')));
  }

  function listPage() {
    app.title(t('players'));
    return h('section', { class: 'players' },
      h('input', { id: 'player-search', type: 'search', value: st.query, placeholder: t('search'), 'aria-label': t('search'),
        oninput: (ev) => { st.query = ev.target.value; loadList(false); } }),
      // Said while the list is read, when it could not be, and when it is empty (a blank before).
      st.failed && !st.listed ? loadFailed(st.failed, () => { st.failed = null; render(); loadList(); })
        : !st.listed ? h('p', { class: 'empty', text: t('loading') })
          : !st.list.length ? h('p', { class: 'empty', id: 'no-players', text: t(st.query.trim() ? 'no_player_found' : 'no_player_yet') }) : null,
      h('ul', { class: 'match-list', id: 'player-list' }, st.list.map((p) => h('li', { 'data-key': `player-${p.id}` }, h('button', {
        class: 'match-open player-open', type: 'button', 'data-player': p.id, onclick: () => app.go(`#/players/${p.id}`),
      }, h('span', { class: 'match-game', text: p.name }),
      p.archived ? h('span', { class: 'archived-tag', 'data-archived': p.id, text: t('archived_tag') }) : null,
      twins(p).length ? h('span', { class: 'dupe-warning', 'data-dupe': p.id, text: t('same_name_warning') }) : null)))),
      leaderboard());
  }

  // A page with no player: still loading, the list not read (said, with Retry), or no such
  // player (merged into another, or not a person: the computer has no page).
  function noPlayer() {
    app.title(t('players'));
    if (st.failed && !st.listed) {
      return loadFailed(st.failed, () => { st.failed = null; render(); loadList(); });
    }
    if (!st.listed) return h('p', { class: 'empty', text: t('loading') });
    return h('div', { class: 'load-failed', id: 'no-player' },
      h('p', { class: 'warning', role: 'alert', text: t('code.no_player') }),
      h('button', { class: 'btn primary', type: 'button', id: 'to-players', onclick: () => app.go('#/players') }, t('players')));
  }

  const render = scheduler(root, () => (id ? (st.player ? playerPage() : noPlayer()) : listPage()));
  render();
  loadList();
  // Records arrived (pulled from the club's hub): new players, new figures.
  return { refresh: loadList, onData: loadList };
}
