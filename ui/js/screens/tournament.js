// A tournament: the round (tables by board, who waits for a board, the bye, start a table's
// match in one tap, a result typed by hand, a forfeit, the next round when the last result is
// in), the standings with every figure (withdraw, late entry), the bracket, the big screen.
// Every figure comes from Rust; a tap sends an event and draws what Rust answers.

import { ipc } from '../ipc.js';
import { h, glyph, scheduler, segmented, stillUp, loads, twoTaps, onePerPress, UNDO_CALM_MS, numberField } from '../dom.js';
import { t, tPlace, language, errorText } from '../i18n.js';
import { app, loadFailed } from '../app.js';
import { standingsTable, bracketView, entrantName, championText, resultText, wonMark, entrantOf, entrantProblem, tableGroup, namesInPools } from '../standings.js';
import { gameInfo } from '../games.js';

const TABS = ['round', 'standings', 'bracket'];

export function mount(root, [idText, tab = 'round']) {
  const id = Number(idText);
  const st = { view: null, tab: TABS.includes(tab) ? tab : 'round', entering: null, form: {}, busy: false, late: '' };
  // Withdrawing and a forfeit take two taps (render is made below, once draw is).
  const confirm = twoTaps(() => render());
  const up = stillUp();
  // The screen is named at once (the last screen's title would be read meanwhile), and by
  // its game and system once they are read.
  app.title(t('tournament'));

  // Views this screen took from its own events: a load asked for before one of them may read
  // the tournament as it was before it, and is not drawn over it; of loads asked again (a
  // return to the front, results from phones), the latest one wins.
  const reloads = loads();
  const took = (view) => { st.view = view; reloads.took(); };

  // The last load asked for: `settled()` waits for it, and for any asked while it ran.
  let lastLoad = Promise.resolve();
  function load() {
    lastLoad = loadOnce();
    return lastLoad;
  }
  async function settled() {
    let seen;
    do {
      seen = lastLoad;
      await seen;
    } while (seen !== lastLoad);
  }

  async function loadOnce() {
    const still = reloads.asked();
    try {
      const view = await ipc.getTournament(id);
      if (!still()) return;
      // Which counts a typed result carries beside the scores (Crokinole's 20s) is the game's
      // ranking's word (game_info).
      const info = await gameInfo(view.summary.game).catch(() => null);
      const changes = await ipc.tournamentRatingChanges(id).catch(() => null);
      if (!still()) return;
      st.view = view;
      st.info = info;
      st.changes = changes;
      if (up()) app.title(`${t(`game_${st.view.summary.game}`)} · ${t(`system_${st.view.summary.system}`)}`);
      st.failed = null;
    } catch (e) {
      if (!up()) return;
      // Nothing to show yet: the screen says why and offers to try again, not "Loading" for
      // ever (said once, there, not also at the foot of the screen).
      if (!st.view) st.failed = e;
      else app.error(e, { reading: true });
    }
    render();
  }

  // Data that came from phones or the hub while a result was being typed here (or an event
  // was on its way) is not drawn over the form; it is read once the form is closed or the
  // event answered, so that the screen never stays behind (the notice comes only once).
  const catchUp = () => {
    if (st.missed && st.entering == null && !st.busy) {
      st.missed = false;
      load();
    }
  };
  const exclusive = (task) => app.exclusive(st, () => { render(); catchUp(); }, task);

  // One event at a time; what Rust answers is what is drawn.
  // `landed` runs once the event is committed (not when it is refused).
  const send = (event, said, landed) => exclusive(async () => {
    took(await ipc.tournamentEvent(id, event));
    st.entering = null;
    landed?.();
    if (said) app.announce(said);
  });

  // A table's result saved from its form: the form and its buttons are gone, so the focus goes
  // on to the next table still to be played, else to what comes next (Pair, the champion).
  const onToNext = () => {
    const s = st.view.summary;
    const open = s.pairings.find((q) => !q.result);
    render.focusOn(open ? `#enter-${open.table}` : s.status === 'finished' ? '#champion h2' : '#pair');
  };

  // A double tap on Undo takes back one event: the second tap comes after the first undo's
  // answer (a few milliseconds), when the button is free again, and would take back another
  // (a result, or a pairing with the matches started from it). Several undos are several
  // deliberate taps.
  let undoCalmUntil = 0;
  const undo = () => {
    if (performance.now() < undoCalmUntil) return;
    exclusive(async () => {
      try {
        took(await ipc.undoTournament(id, st.view.revision));
        st.entering = null;
        app.announce(t('undone'));
      } finally {
        undoCalmUntil = performance.now() + UNDO_CALM_MS;
      }
    });
  };

  const startTable = (table) => exclusive(async () => {
    const m = await ipc.startTable(id, table);
    if (up()) app.go(`#/match/${m.id}`);
  });

  const exportAs = (what) => exclusive(async () => {
    const w = await ipc.exportFile(what);
    app.notice(t('file_written', { path: w.path }));
  });

  // Paper for the tables and the wall: a PDF in the exports folder, in the app's language.
  const printPdf = (which) => exclusive(async () => {
    const w = await ipc.exportTournamentPdf(id, which, language());
    app.notice(t('file_written', { path: w.path }));
  });

  // The result form of a table: the winner, each side's score (and 20s at Crokinole), or a
  // forfeit. With no winner chosen, the higher score wins and equal scores are a draw.
  function resultForm(p, summary, knockout) {
    const f = st.form;
    const names = p.sides.map((e) => entrantName(summary, e));
    const twenties = (st.info?.ranking || []).includes('twenties');
    // A field Save found wrong is marked and tied to what was said (`f.wrong`: its key and
    // side), until it is typed in again.
    const num = (key, side, label) => {
      const wrong = f.wrong?.key === key && f.wrong.side === side;
      return numberField(`${key}-${side}`, label, {
        min: 0, value: f[key]?.[side] ?? '',
        oninput: (ev) => {
          f[key] = f[key] || ['', ''];
          f[key][side] = ev.target.value;
          if (f.wrong) { f.wrong = null; render(); }
        },
      }, wrong ? errorText({ code: `${key}_needed` }) : null, false); // Save's toast reads it out
    };
    const save = () => {
      // Whole numbers from 0, as Rust keeps them (at most 2^32 − 1): said here, in words.
      const count = (x) => Number.isInteger(x) && x >= 0 && x <= 4294967295;
      const refuse = (key, side) => {
        f.wrong = { key, side };
        app.error({ kind: 'bad_action', code: `${key}_needed`, detail: '' });
        render.focusOn(`#${key}-${side}`);
      };
      const scores = [0, 1].map((s) => Number(f.scores?.[s]));
      const badScore = [0, 1].find((s) => !count(scores[s]) || (f.scores?.[s] ?? '') === '');
      if (badScore !== undefined) { refuse('scores', badScore); return; }
      const tw = [0, 1].map((s) => Number(f.twenties?.[s] || 0));
      const badTwenties = [0, 1].find((s) => !count(tw[s]));
      if (twenties && badTwenties !== undefined) { refuse('twenties', badTwenties); return; }
      let winner = f.winner;
      if (winner === undefined) winner = scores[0] === scores[1] ? null : scores[0] > scores[1] ? 0 : 1;
      const result = { round: summary.round, table: p.table, winner, scores };
      if (twenties && f.twenties) result.twenties = tw;
      send({ result }, t('result_saved', { n: p.table + 1 }), onToNext);
    };
    const winners = knockout ? [0, 1] : [0, 'draw', 1];
    return h('div', { class: 'result-form', id: `result-form-${p.table}` },
      segmented(`winner-${p.table}`, t('winner_is'), winners, f.winner === null ? 'draw' : f.winner,
        (v) => (v === 'draw' ? t('drawn') : names[v]), (v) => { f.winner = v === 'draw' ? null : v; render(); }, { keyed: true }),
      h('div', { class: 'field-row' }, num('scores', 0, t('score_of', { name: names[0] })), num('scores', 1, t('score_of', { name: names[1] }))),
      twenties
        ? h('div', { class: 'field-row' }, num('twenties', 0, t('twenties_of', { name: names[0] })), num('twenties', 1, t('twenties_of', { name: names[1] })))
        : null,
      h('div', { class: 'end-row' },
        h('button', { class: 'btn primary', type: 'button', id: `save-result-${p.table}`, onclick: save, onkeydown: onePerPress }, t('save_result')),
        h('button', { class: 'btn ghost', type: 'button', id: `cancel-result-${p.table}`, onclick: () => { st.entering = null; render.focusOn(`#enter-${p.table}`); catchUp(); } }, t('cancel'))),
      h('div', { class: 'end-row' }, [0, 1].map((s) => forfeitButton(p, summary, names, s))));
  }

  // A forfeit takes two taps, as a withdrawal does: one tap beside Save and Cancel would end
  // the table, and Undo cannot always take it back (a phone's result may have come after it).
  function forfeitButton(p, summary, names, side) {
    const key = `forfeit-${p.table}-${side}`;
    const armed = confirm.is(key);
    const said = t(armed ? 'forfeit_of_again' : 'forfeit_of', { name: names[side] });
    return h('button', {
      class: `btn small foul${armed ? ' armed' : ''}`, type: 'button', id: key, 'data-key': key, onkeydown: onePerPress,
      onclick: () => {
        const tapped = confirm.tap(key);
        if (tapped === 'armed') app.announce(t('forfeit_of_again', { name: names[side] }));
        if (tapped !== 'confirmed') return;
        send({ result: { round: summary.round, table: p.table, forfeit: side } }, t('forfeit_by', { name: names[side] }), onToNext);
      },
    }, said);
  }

  function tableCard(p, summary, board, linked, knockout) {
    const names = p.sides.map((e) => entrantName(summary, e));
    const won = p.result ? (p.result.forfeit != null ? 1 - p.result.forfeit : p.result.winner) : undefined;
    const group = tableGroup(summary, p);
    const side = (s) => h('span', { class: `table-side${won === s ? ' won' : ''}` }, names[s], won === s ? wonMark() : null);
    return h('li', { class: `table-card${p.result ? ' done' : ''}`, 'data-table': p.table },
      h('div', { class: 'table-head' },
        h('span', { class: 'table-no', text: t('table_n', { n: p.table + 1 }) }),
        group ? h('span', { class: 'table-group', text: group }) : null,
        board ? h('span', { class: 'board-no', text: tPlace(board.wave ? 'place_next' : 'place_n', summary.place, { n: board.board + 1 }) }) : null,
        linked && !p.result ? h('span', { class: 'tag', text: t(`match_${linked.status}`) }) : null),
      // In the order drawn, so that a screen reader says "Anna vs Bea", not "Anna Bea vs".
      h('div', { class: 'table-sides' },
        side(0), h('span', { class: 'table-result', text: p.result ? resultText(summary, p) : t('vs') }), side(1)),
      p.result || summary.status === 'finished' ? null : h('div', { class: 'end-row' },
        // Every card has the same two buttons: their names say which table they are for.
        h('button', {
          class: 'btn primary', type: 'button', id: `start-${p.table}`, onclick: () => startTable(p.table), onkeydown: onePerPress,
          'aria-label': `${linked ? t('open_match') : t('start_match')}, ${t('table_n', { n: p.table + 1 })}`,
        }, linked ? t('open_match') : t('start_match')),
        st.view.hub ? null : h('button', {
          class: 'btn', type: 'button', id: `enter-${p.table}`, 'aria-expanded': String(st.entering === p.table), onkeydown: onePerPress,
          'aria-label': `${t('enter_result')}, ${t('table_n', { n: p.table + 1 })}`,
          onclick: () => { st.entering = st.entering === p.table ? null : p.table; st.form = {}; render(); catchUp(); },
        }, t('enter_result'))),
      st.entering === p.table && !p.result ? resultForm(p, summary, knockout) : null);
  }

  function roundTab(v) {
    const s = v.summary;
    const boards = new Map(s.boards.map((b) => [b.table, b]));
    const linked = new Map(v.tables.map((m) => [m.table, m]));
    const knockout = !s.draws_allowed;
    const missing = s.pairings.filter((p) => !p.result).length;
    const byes = Array.isArray(s.bye) ? s.bye : s.bye == null ? [] : [s.bye];
    const lateOk = s.status !== 'finished' && (s.system === 'swiss' || s.status === 'registering');
    const now = s.pairings.filter((p) => (boards.get(p.table)?.wave ?? 0) === 0);
    const later = s.pairings.filter((p) => (boards.get(p.table)?.wave ?? 0) > 0);
    // Who withdrew before round 1 is not counted among those to pair, and is marked.
    const gone = new Set(s.standings.filter((r) => r.withdrawn).map((r) => r.entrant));
    return [
      s.status === 'registering'
        ? h('div', {},
          h('p', { class: 'status-line', text: t('registering_n', { n: s.entrants.length - gone.size }) }),
          h('ol', { class: 'entrant-list', id: 'registered' }, s.entrants.map((n, i) => h('li', { class: gone.has(i) ? 'withdrawn' : null },
            h('span', { text: n }), gone.has(i) ? [' ', h('span', { class: 'tag', text: t('withdrawn') })] : null))))
        : [
          h('ul', { class: 'table-list', id: 'tables' }, now.map((p) => tableCard(p, s, boards.get(p.table), linked.get(p.table), knockout))),
          later.length ? [
            h('h3', { text: tPlace('waiting_for_place', s.place) }),
            h('ul', { class: 'table-list waiting', id: 'waiting' }, later.map((p) => tableCard(p, s, boards.get(p.table), linked.get(p.table), knockout))),
          ] : null,
          byes.length ? h('p', { class: 'bye-line', id: 'bye' }, t('bye_for', { names: namesInPools(s, byes) })) : null,
          s.walkovers?.length ? h('p', { class: 'bye-line', id: 'walkovers' }, t('walkover_for', { names: namesInPools(s, s.walkovers) })) : null,
        ],
      s.status === 'finished'
        ? h('div', { class: 'end-screen champion', id: 'champion' }, h('h2', { tabindex: -1, 'data-focus': true, text: championText(s) }))
        : v.hub ? null : h('div', { class: 'sticky-actions' },
          h('button', {
            class: 'btn primary big', type: 'button', id: 'pair', disabled: missing > 0, 'data-focus-next': '#round-title', onkeydown: onePerPress,
            onclick: () => send({ pair: {} }, t('paired_round', { n: s.round + 1 })),
          }, missing > 0 ? t('results_missing', { n: missing }) : t('pair_round', { n: s.round + 1 }))),
      s.pairings.length ? h('div', { class: 'end-row' },
        h('button', { class: 'btn small', type: 'button', id: 'pdf-pairings', onclick: () => printPdf('pairings') }, t('pdf_pairings'))) : null,
      lateOk && !v.hub ? lateEntry() : null,
    ];
  }

  // A Swiss's rounds are the organiser's: a field filled at the door wants more than the
  // setup's few names gave, a late evening fewer. Rust says within what (`rounds_choice`);
  // − does not go to the round being played once its results are in, which would end the
  // tournament at a tap (Undo takes any back).
  function roundsRow(s) {
    const { least: fewest, most, usual, entrants: active } = s.rounds_choice;
    const missing = s.pairings.filter((p) => !p.result).length;
    const least = s.round > 0 && missing === 0 ? Math.max(fewest, s.round + 1) : fewest;
    const set = (n) => send({ rounds: n }, t('rounds_set', { n }));
    return h('div', { class: 'rounds-row', id: 'rounds-row' },
      h('span', { class: 'rounds-label', id: 'rounds-label', text: t('rounds_n', { n: s.rounds }) }),
      h('button', { class: 'btn small step', type: 'button', id: 'rounds-less', 'aria-label': t('rounds_less'), disabled: s.rounds <= least, onclick: () => set(s.rounds - 1), onkeydown: onePerPress }, '−'),
      h('button', { class: 'btn small step', type: 'button', id: 'rounds-more', 'aria-label': t('rounds_more'), disabled: s.rounds >= most, onclick: () => set(s.rounds + 1), onkeydown: onePerPress }, '+'),
      usual !== s.rounds && usual >= least && usual <= most
        ? h('button', { class: 'btn small', type: 'button', id: 'rounds-usual', onclick: () => set(usual), onkeydown: onePerPress }, t('rounds_usual', { n: usual, entrants: active }))
        : null);
  }

  // The late entrant's field lives across redraws.
  const lateInput = h('input', {
    id: 'late-name', type: 'text', maxlength: 130, autocomplete: 'off', placeholder: t('entrant_placeholder'),
    oninput: (ev) => { st.late = ev.target.value; },
  });
  function lateEntry() {
    return h('form', {
      class: 'add-player late-entry', onsubmit: (ev) => {
        ev.preventDefault();
        const typed = st.late;
        const names = entrantOf(typed);
        if (!names.length) return;
        // Said before anything is sent, in the user's language (the field keeps the name).
        const wrong = entrantProblem(names, st.view.summary.entrants.map((e) => e.split(' & ')));
        if (wrong) { app.error(wrong); return; }
        // The name stays in the field until the entry is committed, to be corrected if refused
        // (and whatever was typed since stays too).
        send({ enter: names }, t('entrant_added', { name: names.join(' & ') }), () => {
          if (lateInput.value !== typed) return;
          st.late = '';
          lateInput.value = '';
        });
      },
    }, h('label', { class: 'sr-only', for: 'late-name', text: t('late_entry') }), lateInput,
    h('button', { class: 'btn', type: 'submit', id: 'late-entry' }, t('late_entry')));
  }

  // Withdrawing takes two taps: the first arms the button for a few seconds. An entrant who
  // leaves with a match still to play forfeits it, so that the round can end.
  function withdrawButton(r) {
    const key = `withdraw-${r.entrant}`;
    const armed = confirm.is(key);
    const s = st.view.summary;
    const open = s.pairings.find((p) => !p.result && p.sides.includes(r.entrant));
    const said = armed ? t(open ? 'withdraw_forfeit_again' : 'withdraw_again', { n: open ? open.table + 1 : 0 }) : t('withdraw');
    // On a phone the button shows a cross (a "?" once armed); its name says it all.
    return h('button', {
      class: `btn small ghost discard withdraw${armed ? ' armed' : ''}`, type: 'button', id: `withdraw-${r.entrant}`,
      'data-key': `withdraw-${r.entrant}`, 'aria-label': armed ? said : `${t('withdraw')} ${r.name}`, onkeydown: onePerPress,
      onclick: () => {
        const tapped = confirm.tap(key);
        if (tapped === 'armed') app.announce(t(open ? 'withdraw_forfeit_again' : 'withdraw_again', { n: open ? open.table + 1 : 0 }));
        if (tapped !== 'confirmed') return;
        exclusive(async () => {
          took(await ipc.withdrawEntrant(id, r.entrant));
          app.announce(t('withdrew', { name: r.name }));
          // The row's button is gone: on to the next row's, else back to the tab.
          const rows = st.view.summary.standings;
          const at = rows.findIndex((x) => x.entrant === r.entrant);
          const next = rows.slice(at + 1).find((x) => !x.withdrawn) || rows.find((x) => x.entrant !== r.entrant && !x.withdrawn);
          render.focusOn(next ? `#withdraw-${next.entrant}` : '#tab-standings');
        });
      },
    }, h('span', { class: 'long', text: said }), h('span', { class: 'short', 'aria-hidden': 'true', text: armed ? '✕?' : '✕' }));
  }

  const draw = () => {
    const v = st.view;
    if (!v && st.failed) {
      return loadFailed(st.failed, () => { st.failed = null; render(); load(); });
    }
    if (!v) return h('p', { class: 'empty', text: t('loading') });
    const s = v.summary;
    const tabs = s.system === 'pools_knockout' ? TABS : TABS.slice(0, 2);
    const heading = s.status === 'registering' ? t('registration')
      : t('round_of', { n: s.round, of: s.rounds });
    return h('section', { class: 'tournament', 'data-status': s.status },
      v.hub ? h('p', { class: 'hub-run', id: 'hub-run', role: 'note', text: t('run_by_hub', { hub: v.hub }) }) : null,
      h('div', { class: 'tournament-head' },
        h('h2', { id: 'round-title', tabindex: -1, text: heading }),
        h('div', { class: 'end-row' },
          h('button', { class: 'btn small', type: 'button', id: 'big-screen', onclick: () => app.go(`#/wall/${id}`) }, t('big_screen')),
          v.hub ? null : h('button', { class: 'btn small', type: 'button', id: 'undo-event', disabled: v.events === 0, onclick: undo, onkeydown: onePerPress }, glyph('↶'), t('undo')))),
      s.rounds_choice && s.status !== 'finished' && !v.hub ? roundsRow(s) : null,
      h('div', { class: 'tabs', role: 'tablist' }, tabs.map((name) => h('button', {
        class: 'seg', type: 'button', role: 'tab', id: `tab-${name}`, 'aria-selected': String(st.tab === name),
        'aria-controls': 'tab-panel', tabindex: st.tab === name ? 0 : -1,
        onclick: () => { st.tab = name; render(); },
        // Tabs as a screen reader expects them: one stop for the row, the arrows go along it.
        onkeydown: (ev) => {
          const at = tabs.indexOf(st.tab);
          const k = { ArrowRight: (at + 1) % tabs.length, ArrowLeft: (at - 1 + tabs.length) % tabs.length, Home: 0, End: tabs.length - 1 }[ev.key];
          if (k === undefined) return;
          ev.preventDefault();
          st.tab = tabs[k];
          render.focusOn(`#tab-${tabs[k]}`);
        },
      }, t(`tab_${name}`)))),
      h('div', { class: 'tab-panel', id: 'tab-panel', role: 'tabpanel', 'aria-labelledby': `tab-${st.tab}` },
        st.tab === 'round' ? roundTab(v)
          : st.tab === 'standings' ? [
            standingsTable(s, {
              withdraw: s.status === 'finished' || v.hub ? null : withdrawButton,
              extra: st.changes?.some((c) => c != null) ? {
                key: 'rating_change', label: 'col_rating_change',
                value: (r) => { const c = st.changes[r.entrant]; return c == null ? '' : `${c >= 0 ? '+' : ''}${Math.round(c)}`; },
              } : null,
            }),
            h('div', { class: 'end-row' },
              h('button', { class: 'btn small', type: 'button', id: 'pdf-standings', onclick: () => printPdf('standings') }, t('pdf_standings')),
              h('button', { class: 'btn small', type: 'button', id: 'export-csv', onclick: () => exportAs(`tournament-${id}-csv`) }, t('export_csv')),
              h('button', { class: 'btn small', type: 'button', id: 'export-tournament', onclick: () => exportAs(`tournament-${id}`) }, t('export'))),
          ]
            : bracketView(s)));
  };
  const render = scheduler(root, draw);
  render();
  load();
  // Results pushed by phones to this device's hub, or the hub's tournament pulled: drawn as
  // they arrive, unless a result is being typed here.
  return {
    refresh: load,
    // A refusal that says the screen was behind (a result came in from a phone while one was
    // typed here, a round paired elsewhere): the form it came from goes, the tournament is
    // read again.
    outOfDate: async () => {
      // The form and its buttons go: once the tournament is read again, the focus goes back
      // to the button that opened it, or on as after a result saved when that table has one
      // now (it fell to the top of the screen).
      const was = st.entering;
      st.entering = null;
      load();
      // The tournament as the last read has it (one from the 1.5 s poll may come after ours).
      await settled();
      if (was == null || !up() || !st.view) return;
      const open = st.view.summary.pairings.some((q) => q.table === was && !q.result);
      if (open) render.focusOn(`#enter-${was}`);
      else onToNext();
    },
    onData: () => {
      st.missed = true;
      catchUp();
    },
  };
}

