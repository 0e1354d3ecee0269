// The tables a tournament shows on the round screen and on the big screen: standings with
// every figure, the current round's tables, and a knockout bracket. Rust sends the figures;
// this only lays them out.

import { h } from './dom.js';
import { t } from './i18n.js';

// The columns of the standings: the ranking keys Rust ranks by, in their order, then the other
// main figures, then played, won, drawn, lost. Twenties show only where they rank.
const MAIN = ['match_points', 'game_points', 'score_diff', 'buchholz'];
function columns(summary) {
  const keys = (summary.ranking_keys || []).filter((k) => k !== 'head_to_head');
  const first = [...new Set([...keys, ...MAIN])].filter((k) => k !== 'wins');
  return [...first, 'played', 'wins', 'draws', 'losses'].map((k) => [k, `col_${k}`]);
}

// Pools are named A to Z, then AA, AB…: a big field has more than 26.
export function poolLetters(i) {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}
const poolName = (i) => t('pool_n', { n: poolLetters(i) });

// While a pools tournament plays its pools, what counts is the place in one's pool (who goes
// through): Rust marks each row with its `pool` and `pool_rank`, and the standings are shown
// pool by pool. Unmarked, the whole field. Each group: {label, rows}; one without a label else.
// A withdrawn entrant has no place in its pool ("–"); one withdrawn before the pools were
// dealt is in none, and is listed after them.
export function groups(summary) {
  const rows = summary.standings || [];
  if (!rows.some((r) => r.pool != null)) return [{ label: null, rows }];
  const pools = [];
  const out = [];
  for (const r of rows) {
    if (r.pool == null) out.push({ ...r, rank: '–' });
    else (pools[r.pool] ??= []).push({ ...r, rank: r.pool_rank ?? '–' });
  }
  return [
    ...pools.flatMap((rows, i) => (rows ? [{ label: poolName(i), rows }] : [])),
    ...(out.length ? [{ label: t('withdrawn_group'), rows: out }] : []),
  ];
}

// What a table of a pools tournament is part of, said on its card, as Rust groups the round's
// tables (`table_groups`): its pool while the pools play, its knockout once there are two.
// null when in no group.
export function tableGroup(summary, p) {
  const g = (summary.table_groups || []).find((x) => x.tables.includes(p.table));
  if (!g) return null;
  if (g.pool != null) return poolName(g.pool);
  return g.bracket === 'main' ? t('main_bracket') : g.bracket === 'consolation' ? t('consolation_bracket') : null;
}

// The groups' first `limit` rows in all, or each group's first `limit` rows (`perGroup`: the
// big screen, where every pool is seen).
function limited(list, limit, perGroup = false) {
  let left = limit;
  return list.map((g) => {
    const rows = g.rows.slice(0, Math.max(0, perGroup ? limit : left));
    left -= rows.length;
    return { ...g, rows };
  }).filter((g) => g.rows.length || !g.label);
}

// A numbered column's head: "#" to the eye, its name to a screen reader (which would say
// "dièse"): "Rank" unless told.
export function rankHead(name = t('rank')) {
  return h('th', { scope: 'col' }, h('span', { 'aria-hidden': 'true', text: '#' }), h('span', { class: 'sr-only', text: name }));
}

// A column's head: its short name to see ("MP"), its whole name to hear, since a title is
// neither read by every screen reader nor shown on a touch screen.
function shortHead(key, label) {
  return h('th', { scope: 'col', 'data-col': key, title: t(`${label}_long`) },
    h('span', { 'aria-hidden': 'true', text: t(label) }), h('span', { class: 'sr-only', text: t(`${label}_long`) }));
}

// `extra`: one more column, {key, label, value(row)} (the rating change over the night).
export function standingsTable(summary, { limit = Infinity, perGroup = false, withdraw = null, id = 'standings', extra = null } = {}) {
  const cols = columns(summary);
  const width = 2 + cols.length + (extra ? 1 : 0) + (withdraw ? 1 : 0);
  const row = (r) => h('tr', { class: r.withdrawn ? 'withdrawn' : null, 'data-entrant': r.entrant, 'data-key': `entrant-${r.entrant}` },
      h('td', { class: 'rank', text: r.rank }),
      h('th', { scope: 'row', class: 'name' }, h('span', { text: r.name }),
        r.withdrawn ? h('span', { class: 'tag', text: t('withdrawn') }) : null,
        r.byes ? h('span', { class: 'tag', text: r.byes > 1 ? t('byes_n', { n: r.byes }) : t('bye') }) : null),
      cols.map(([key]) => h('td', { 'data-col': key, text: key === 'score_diff' && r[key] > 0 ? `+${r[key]}` : r[key] })),
      extra ? h('td', { 'data-col': extra.key, text: extra.value(r) }) : null,
      withdraw ? h('td', { class: 'withdraw-cell' }, r.withdrawn ? null : withdraw(r)) : null);
  // A box that scrolls sideways on a phone: reachable from the keyboard to scroll it.
  return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': t('standings') }, h('table', { class: 'standings', id },
    h('caption', { class: 'sr-only', text: t('standings') }),
    h('thead', {}, h('tr', {},
      rankHead(),
      h('th', { scope: 'col', class: 'name', text: t('entrant') }),
      cols.map(([key, label]) => shortHead(key, label)),
      extra ? shortHead(extra.key, extra.label) : null,
      withdraw ? h('th', { scope: 'col' }, h('span', { class: 'sr-only', text: t('withdraw') })) : null)),
    limited(groups(summary), limit, perGroup).map((g, i) => h('tbody', { 'data-key': `group-${i}` },
      g.label ? h('tr', { class: 'pool-head' }, h('th', { scope: 'rowgroup', colspan: width, text: g.label })) : null,
      g.rows.map(row)))));
}

export function entrantName(summary, e) {
  return e == null ? '—' : summary.entrants[e];
}

// A finished tournament's last word: its champion, or that it has none (a knockout whose
// finalists both withdrew: no one was left to win the final).
export function championText(summary) {
  return summary.champion == null ? t('no_champion') : t('champion_is', { name: summary.entrants[summary.champion] });
}

// Who has a bye (or goes through without a match), each with its pool while the pools play
// (the pool Rust marks on its standings row): "Emil (Pool B), Farid (Pool C)".
export function namesInPools(summary, entrants) {
  const rows = new Map((summary.standings || []).map((r) => [r.entrant, r]));
  return entrants.map((e) => {
    const pool = rows.get(e)?.pool;
    return pool != null ? `${entrantName(summary, e)} (${poolName(pool)})` : entrantName(summary, e);
  }).join(', ');
}

/** The names of an entrant as typed: "Cyril & Dora" is a team of two; a plain name is one
 * player. */
export function entrantOf(text) {
  return text.split('&').map((n) => n.trim()).filter(Boolean);
}

/** Why an entrant typed as `names` ("Cyril & Dora" split) cannot be entered beside `entered`
 * (lists of names), as an error the screens show in the user's language; null when it can.
 * Said at Add, not at Create: a name too long, a player twice in one team, a name already
 * entered (case aside, as players are found). */
export function entrantProblem(names, entered) {
  const key = (n) => n.toLowerCase();
  if (names.some((n) => [...n].length > 60)) return { kind: 'bad_setup', code: 'long_name', detail: '' };
  if (new Set(names.map(key)).size < names.length) return { kind: 'bad_setup', code: 'team_twice', detail: '' };
  const taken = new Set(entered.flat().map(key));
  if (names.some((n) => taken.has(key(n)))) return { kind: 'bad_setup', code: 'name_taken', detail: '' };
  return null;
}

/** The mark after a winner's name: a tick to see (not the colour alone) and "won" to hear. */
export function wonMark() {
  return h('span', { class: 'won-mark' },
    h('span', { 'aria-hidden': 'true', text: ' ✓' }),
    h('span', { class: 'sr-only', text: ` (${t('won')})` }));
}

// A result in one line: "7 – 3" with the winner marked, or who forfeited.
export function resultText(summary, p) {
  const r = p.result;
  if (!r) return '';
  if (r.forfeit != null) return t('forfeit_by', { name: entrantName(summary, p.sides[r.forfeit]) });
  const s = r.scores.join(' – ');
  return r.winner == null ? `${s} · ${t('drawn')}` : s;
}

export function bracketView(summary) {
  const b = summary.bracket;
  if (!b || (!b.main.length && !b.consolation.length)) return h('p', { class: 'empty', text: t('bracket_after_pools') });
  const side = (m, s, j) => {
    const won = m.winner != null && m.winner === s;
    return h('span', { class: `bracket-side${won ? ' won' : ''}${s == null ? ' empty' : ''}` },
      s == null ? (j === 0 ? t('bye') : '…') : entrantName(summary, s),
      won ? wonMark() : null);
  };
  const round = (matches, j) => h('ol', { class: 'bracket-round', 'aria-label': t('ko_round', { n: j + 1 }) },
    matches.map((m) => h('li', { class: 'bracket-match' }, m.sides.map((s) => side(m, s, j)))));
  const one = (title, rounds, id) => (rounds.length
    ? h('section', { class: 'bracket', id }, h('h3', { text: title }), h('div', { class: 'bracket-rounds', tabindex: 0, role: 'region', 'aria-label': title }, rounds.map(round)))
    : null);
  return h('div', { class: 'brackets' },
    one(t('main_bracket'), b.main, 'bracket-main'),
    one(t('consolation_bracket'), b.consolation, 'bracket-consolation'));
}
