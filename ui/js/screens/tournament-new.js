// A new tournament: the game and its match rules, the system, rounds and boards, the entrants
// (known players or typed, teams as "Cyril & Dora") in seed order, by drag, arrows or shuffle.
// Rust checks everything; this screen only collects it.

import { ipc } from '../ipc.js';
import { h, scheduler, segmented, shuffled, chipAfter, movedArrow, stillUp, knownMatching, onePerPress, numberField, markField } from '../dom.js';
import { t, tPlace } from '../i18n.js';
import { app } from '../app.js';
import { entrantOf, entrantProblem } from '../standings.js';
import { games, game as gameEntry, gameInfo } from '../games.js';
import { rulesForm, numberProblem, alike } from '../rules-form.js';

// The form being filled, kept when the screen is left before Create (a look at Settings, the
// sync chip tapped, the system reloading a page sent to the background): thirty entrants typed
// at the door are not typed again. Kept for the app's session; Create done, it goes.
const DRAFT = 'partie.tournament-draft';
const readDraft = () => { try { return JSON.parse(sessionStorage.getItem(DRAFT)); } catch { return null; } };
// A Create on its way (the screen may have been left and opened again meanwhile): its form is
// not taken up as a draft by the new screen, which would make the tournament a second time.
let creating = null;

export function mount(root) {
  app.title(t('new_tournament'));
  const st = {
    game: games()[0], system: 'swiss', info: null, known: [], entrants: [], typed: '',
    rounds: '', boards: '', poolSize: 4, advance: 2, rules: {}, busy: false, editing: null, edited: '',
  };
  // Where the chosen game is played (boards, courts), once its game_info has come.
  const placeWords = (key) => tPlace(key, st.gameInfo?.place);
  const draft = creating ? null : readDraft();
  if (draft && games().includes(draft.game)) {
    for (const k of ['game', 'system', 'entrants', 'typed', 'rounds', 'boards', 'poolSize', 'advance']) {
      if (draft[k] !== undefined) st[k] = draft[k];
    }
  }
  let form = null;
  let created = false;
  // The form as it is, as a draft keeps it.
  const now = () => ({
    game: st.game, system: st.system, entrants: st.entrants, typed: st.typed, rounds: st.rounds,
    boards: st.boards, poolSize: st.poolSize, advance: st.advance,
    rules: form ? form.value() : st.rules, rulesFrom: st.rulesFrom,
  });
  const keepDraft = () => {
    if (created || creating) return;
    try {
      sessionStorage.setItem(DRAFT, JSON.stringify(now()));
    } catch { /* no room: the form still works, it is only not kept */ }
  };

  // The game's own rules form, from its game_info; a game may start a tournament from other
  // rules than a single match (a Crokinole night plays fixed rounds unless told otherwise). The
  // club's default rules for the game (Settings) come first, the tournament's own over them;
  // a draft's rules (the screen left and come back to) over both, unless they are still the
  // defaults the draft started from: then the defaults of now (the trip away was perhaps to
  // Settings, to change them).
  function makeForm(draft = null) {
    const g = st.game;
    const entry = gameEntry(g);
    const club = app.settings.rules?.[g] || {};
    const kept = draft?.rules && !alike(draft.rules, draft.rulesFrom);
    st.rules = kept ? draft.rules : { ...club, ...(entry.tournament?.(club) || {}) };
    // What the rules began as, to tell later whether they were changed.
    st.rulesFrom = kept ? draft.rulesFrom : st.rules;
    form = null;
    st.gameInfo = null;
    gameInfo(g).then((info) => {
      if (st.game !== g) return;
      st.gameInfo = info;
      render();
      if (entry.rules === false) return;
      // A form left for another game (an answer of Rust's coming late) changes nothing.
      const made = rulesForm(g, info, entry, st.rules, (r) => { if (form !== made) return; st.rules = r; app.formNow(problem()); render(); });
      // Compared as the form gives them (the rules that do not apply left out).
      if (!kept) st.rulesFrom = made.value();
      form = made;
      render();
    }).catch((e) => app.error(e));
  }
  makeForm(draft?.game === st.game ? draft : null);

  const taken = (name) => st.entrants.some((e) => e.some((n) => n.toLowerCase() === name.toLowerCase()));

  // The most players a side of this game has (game_info); Morris is played one against one.
  const mostPlayers = () => (gameEntry(st.game).teams === false ? 1 : st.gameInfo?.sides?.players?.max ?? null);

  // What refuses `names` as an entrant beside `others`; null when it can go in.
  function sideProblem(names, others) {
    if (!names.length) return { kind: 'bad_setup', code: 'empty_name', detail: '' };
    const most = mostPlayers();
    // (Not `return a\n ?? b`: the app's WebKit refuses a return whose expression goes on
    // with ?? on the next line.)
    const found = entrantProblem(names, others)
      ?? (most != null && names.length > most
        ? { kind: 'bad_setup', code: 'rule_typed', detail: t(most === 1 ? 'team_not_in_game' : 'team_too_large', { game: t(`game_${st.game}`), n: most }) }
        : null);
    return found;
  }

  // What Add refuses, whether typed or picked among the known players; null when it can go in.
  function addProblem(names) {
    const found = sideProblem(names, st.entrants)
      ?? (st.info?.max_entrants != null && st.entrants.length >= st.info.max_entrants
        ? { kind: 'bad_setup', code: 'too_many_entrants', detail: '' } : null);
    return found;
  }

  // An entrant's name mended where it stands (a typo, a team's second player): the seed order
  // is kept, which taking it out and entering it again lost. `editing` is the row being
  // mended, and `edited` what is typed in it.
  function startEdit(i) {
    st.editing = i;
    st.edited = st.entrants[i].join(' & ');
    render.focusOn(`#entrant-edit-${i}`);
  }

  function endEdit(i) {
    st.editing = null;
    render.focusOn(`[data-key="edit-${i}"]`);
  }

  function saveEdit(i) {
    const names = entrantOf(st.edited);
    const before = st.entrants[i];
    const wrong = sideProblem(names, st.entrants.filter((_, k) => k !== i));
    if (wrong) { app.error(wrong); document.getElementById(`entrant-edit-${i}`)?.focus(); return; }
    st.entrants[i] = names;
    if (names.join(' & ') !== before.join(' & ')) {
      app.announce(t('entrant_renamed', { old: before.join(' & '), name: names.join(' & ') }));
    }
    endEdit(i);
  }

  function add(names) {
    const wrong = addProblem(names);
    if (wrong) { app.error(wrong); return false; }
    st.entrants.push(names);
    app.announce(t('entrant_added', { name: names.join(' & ') }));
    // A Swiss's most rounds follow the entrants: a refusal of the rounds may no longer hold.
    app.formNow(problem());
    render();
    return true;
  }

  // The focus goes to the next entrant's ×, else the one before, else the name field.
  // (A row being mended is put back as it was when the order changes under it.)
  function remove(i) {
    st.editing = null;
    const [e] = st.entrants.splice(i, 1);
    app.announce(t('player_removed', { name: e.join(' & ') }));
    app.formNow(problem());
    const n = Math.min(i, st.entrants.length - 1);
    render.focusOn(n >= 0 ? `[data-key="x-${n}"]` : '#entrant-name');
  }

  function move(i, to, dragged = false) {
    if (to < 0 || to >= st.entrants.length || to === i) return;
    st.editing = null;
    const [e] = st.entrants.splice(i, 1);
    st.entrants.splice(to, 0, e);
    if (dragged) { render(); return; }
    render.focusOn(movedArrow(i, to, st.entrants.length));
    app.announce(t('moved_to', { name: e.join(' & '), n: to + 1, of: st.entrants.length }));
  }

  // Drag by the handle: the row follows the finger.
  function dragStart(ev, i) {
    const handle = ev.currentTarget;
    const li = handle.closest('li');
    const rows = [...li.parentElement.children].map((c) => c.getBoundingClientRect());
    const startY = ev.clientY;
    handle.setPointerCapture(ev.pointerId);
    li.classList.add('dragging');
    const onMove = (e) => { li.style.transform = `translateY(${e.clientY - startY}px)`; };
    const onUp = (e) => {
      handle.removeEventListener('pointermove', onMove);
      handle.removeEventListener('pointerup', onUp);
      handle.removeEventListener('pointercancel', onUp);
      li.style.transform = '';
      li.classList.remove('dragging');
      // The dragged row goes after every row whose middle it passed: a drag of exactly n rows
      // moves it n places, up or down.
      const mid = rows[i].top + rows[i].height / 2 + (e.clientY - startY);
      const passed = (r, k) => (k < i ? r.top + r.height / 2 < mid : r.top + r.height / 2 <= mid);
      move(i, rows.filter((r, k) => k !== i && passed(r, k)).length, true);
    };
    handle.addEventListener('pointermove', onMove);
    handle.addEventListener('pointerup', onUp);
    handle.addEventListener('pointercancel', onUp);
  }

  // Strongest first by the players' ratings in this game (Rust orders; unrated entrants keep
  // their order at the end). Pools are dealt from this order, so they are seeded by rating too.
  async function seedByRating() {
    const asked = st.entrants.slice();
    const game = st.game;
    try {
      const order = await ipc.seedByRating(game, asked);
      // The list stays editable while the ratings are read: an order for another list (an
      // entrant added, removed or moved since) would drop or duplicate entrants, so it waits
      // for a new tap.
      const same = st.game === game && st.entrants.length === asked.length
        && st.entrants.every((e, i) => e === asked[i]);
      if (!same) return;
      st.entrants = order.map((i) => asked[i]);
      st.editing = null;
      app.announce(t('seed_by_rating'));
    } catch (e) { app.error(e); }
    render();
  }

  function setup() {
    const s = { game: st.game, system: st.system, entrants: st.entrants, rules: form ? form.value() : {} };
    if (st.boards !== '') s.boards = Number(st.boards);
    if (st.system === 'swiss' && st.rounds !== '') s.rounds = Number(st.rounds);
    if (st.system === 'pools_knockout') { s.pool_size = st.poolSize; s.advance = st.advance; }
    return s;
  }

  // What was typed that cannot be sent (the field named, its range); null when all can be. A
  // Swiss has at most one round fewer than its entrants.
  function problem() {
    const field = (label) => label.querySelector('input');
    const most = st.entrants.length > 1 ? st.entrants.length - 1 : null;
    return form?.problem()
      || (st.system === 'swiss' ? numberProblem(field(roundsInput), t('t_rounds'), 1, most) : null)
      || numberProblem(field(boardsInput), placeWords('t_places'), 1, st.info?.max_boards ?? null);
  }

  async function create() {
    if (st.busy) return;
    const wrong = problem();
    if (wrong) {
      app.error(wrong, { form: true });
      // The field said wrong takes the focus (a screen reader hears it named invalid).
      render.focusOn('[aria-invalid="true"]');
      return;
    }
    st.busy = true;
    render();
    const up = stillUp();
    try {
      creating = ipc.newTournament(setup());
      const view = await creating;
      created = true;
      sessionStorage.removeItem(DRAFT);
      // In the form's place: Back from the tournament goes where the form was opened from,
      // not to an empty form that would make the same tournament again. Made while the person
      // had left: said, for it is in the club's list and not on the screen.
      if (up()) app.replace(`#/tournament/${view.id}`);
      else app.notice(t('tournament_made'));
    } catch (e) {
      st.busy = false;
      // Refused after the person left: said as this form's refusal, which is still kept.
      if (up()) { app.error(e); render(); render.focusOn('#create-tournament'); } else app.error({ ...e, subject: t('tournament_not_made') });
    } finally {
      creating = null;
    }
  }

  // Start over: the form as a new one (the draft kept for a trip to Settings goes too). One
  // tap empties thirty entrants typed at the door, so it can be taken back: the undo bar gives
  // the form as it was, here or, the screen left meanwhile, as the draft the next one opens.
  function startOver() {
    const before = now();
    const up = stillUp();
    sessionStorage.removeItem(DRAFT);
    fill({ system: 'swiss', entrants: [], typed: '', rounds: '', boards: '', poolSize: 4, advance: 2 }, null);
    app.offerUndo(t('form_cleared'), () => {
      if (up()) {
        fill(before, before);
        app.announce(t('form_back', { n: before.entrants.length }));
        render.focusOn('#entrant-name');
      } else {
        try { sessionStorage.setItem(DRAFT, JSON.stringify(before)); } catch { return false; }
      }
      return true;
    });
    render.focusOn('#entrant-name');
  }
  function fill(values, draft) {
    Object.assign(st, values);
    st.editing = null;
    nameInput.value = st.typed;
    roundsInput.querySelector('input').value = st.rounds;
    boardsInput.querySelector('input').value = st.boards;
    makeForm(draft);
    keepDraft();
    render();
  }

  const seg = (id, label, values, current, text, set) => segmented(id, label, values, current, text, (v) => { set(v); app.formNow(problem()); render(); });

  // Text fields live across redraws so that typing is never cut.
  const nameInput = h('input', {
    id: 'entrant-name', type: 'text', maxlength: 200, autocomplete: 'off', placeholder: t('entrant_placeholder'),
    value: st.typed,
    oninput: (ev) => { st.typed = ev.target.value; render(); },
  });
  const addForm = h('form', {
    class: 'add-player', onsubmit: (ev) => {
      ev.preventDefault();
      if (!add(entrantOf(st.typed))) { nameInput.focus(); return; }
      st.typed = '';
      nameInput.value = '';
    },
  },
  h('label', { class: 'sr-only', for: 'entrant-name', text: t('entrant_placeholder') }),
  nameInput,
  h('button', { class: 'btn', type: 'submit', id: 'add-entrant' }, t('add_player')));
  // Number fields made once (typing is never cut).
  const number = (id, label, value, set, placeholder) => numberField(id, label, {
    min: 1, value, placeholder, onchange: (ev) => { set(ev.target.value.trim()); app.formNow(problem()); render(); },
  });
  const roundsInput = number('t-rounds', t('t_rounds'), st.rounds, (v) => { st.rounds = v; }, t('t_rounds_auto'));
  const boardsInput = number('t-boards', placeWords('t_places'), st.boards, (v) => { st.boards = v; }, placeWords('t_places_all'));
  // What the field holds that cannot be sent, on the field itself; `max` from what Rust says.
  function mark(group, wrong, max) {
    const input = group.querySelector('input');
    if (max != null) input.max = max; else input.removeAttribute('max');
    markField(group, wrong?.detail ?? null);
  }

  const entrantRow = (e, i) => h('li', { class: 'side-card entrant', 'data-entrant': i },
    h('button', {
      class: 'drag-handle', type: 'button', 'aria-hidden': 'true', tabindex: -1, 'data-key': `drag-${i}`,
      onpointerdown: (ev) => dragStart(ev, i),
    }, '⠿'),
    h('span', { class: 'side-index', text: String(i + 1) }),
    st.editing === i
      ? h('form', {
        class: 'entrant-edit', onsubmit: (ev) => { ev.preventDefault(); saveEdit(i); },
      },
      h('label', { class: 'sr-only', for: `entrant-edit-${i}`, text: t('entrant_edit_label', { n: i + 1 }) }),
      h('input', {
        id: `entrant-edit-${i}`, 'data-key': `entrant-edit-${i}`, type: 'text', maxlength: 200, autocomplete: 'off', value: st.edited,
        oninput: (ev) => { st.edited = ev.target.value; },
        onkeydown: (ev) => { if (ev.key === 'Escape') { ev.preventDefault(); endEdit(i); } },
      }),
      h('button', { class: 'icon-btn small', type: 'submit', 'aria-label': t('save'), 'data-key': `edit-save-${i}` }, '✓'),
      h('button', { class: 'icon-btn small', type: 'button', 'aria-label': t('cancel'), 'data-key': `edit-cancel-${i}`, onclick: () => endEdit(i) }, '✕'))
      : h('button', {
        class: 'side-players entrant-name', type: 'button', 'data-key': `edit-${i}`,
        'aria-label': t('entrant_edit', { name: e.join(' & ') }), onclick: () => startEdit(i),
      }, e.join(' & ')),
    // (Not beside a row being mended: on a phone they leave the field no room.)
    st.editing === i ? null : h('span', { class: 'side-moves' },
      h('button', { class: 'icon-btn small', type: 'button', 'aria-label': `${t('move_up')} ${e.join(' & ')}`, 'data-key': `up-${i}`, disabled: i === 0, onclick: () => move(i, i - 1) }, '↑'),
      h('button', { class: 'icon-btn small', type: 'button', 'aria-label': `${t('move_down')} ${e.join(' & ')}`, 'data-key': `down-${i}`, disabled: i === st.entrants.length - 1, onclick: () => move(i, i + 1) }, '↓'),
      h('button', { class: 'icon-btn small', type: 'button', 'aria-label': `${t('remove')} ${e.join(' & ')}`, 'data-key': `x-${i}`, onclick: () => remove(i) }, '×')));

  const draw = () => {
    keepDraft();
    const most = st.entrants.length > 1 ? st.entrants.length - 1 : null;
    mark(roundsInput, numberProblem(roundsInput.querySelector('input'), t('t_rounds'), 1, most), most);
    // The field made once says where the chosen game is played (boards, courts).
    boardsInput.querySelector('label > span').textContent = placeWords('t_places');
    boardsInput.querySelector('input').placeholder = placeWords('t_places_all');
    mark(boardsInput, numberProblem(boardsInput.querySelector('input'), placeWords('t_places'), 1, st.info?.max_boards ?? null), st.info?.max_boards ?? null);
    // The known players narrow to those a typed name may mean; a team being typed ("Cyril &")
    // is made of several, and leaves them all.
    const narrowing = st.typed.includes('&') ? '' : st.typed.trim();
    const available = knownMatching(st.known.filter((p) => !taken(p.name)), narrowing);
    const systems = st.info ? st.info.systems.map((s) => s.name) : ['round_robin', 'swiss', 'pools_knockout'];
    return h('section', { class: 'setup tournament-setup' },
      h('div', { class: 'setup-cols' },
        h('div', { class: 'setup-players' },
          seg('t-game', t('game'), games(), st.game, (g) => t(`game_${g}`), (g) => { st.game = g; makeForm(); }),
          seg('t-system', t('t_system'), systems, st.system, (s) => t(`system_${s}`), (s) => { st.system = s; }),
          h('p', { class: 'hint', text: t(`system_${st.system}_hint`) }),
          h('div', { class: 'field-row' },
            st.system === 'swiss' ? roundsInput : null,
            boardsInput),
          st.system === 'pools_knockout' ? [
            seg('t-pool-size', t('t_pool_size'), [3, 4, 5, 6], st.poolSize, String, (v) => { st.poolSize = v; }),
            seg('t-advance', t('t_advance'), [1, 2], st.advance, (v) => t('t_advance_n', { n: v }), (v) => { st.advance = v; }),
          ] : null,
          form ? [h('h2', { text: t('t_match_rules') }), form.draw()] : null),
        h('div', { class: 'setup-sides' },
          h('div', { class: 'sides-head' },
            h('h2', { text: t('entrants_n', { n: st.entrants.length }) }),
            h('span', { class: 'end-row' },
              h('button', { class: 'btn small ghost', type: 'button', id: 'seed-by-rating', disabled: st.entrants.length < 2, onclick: seedByRating }, t('seed_by_rating')),
              h('button', { class: 'btn small ghost', type: 'button', id: 'shuffle', disabled: st.entrants.length < 2, onclick: () => { st.entrants = shuffled(st.entrants); st.editing = null; app.announce(t('order_now', { names: st.entrants.map((e) => e.join(' & ')).join(', ') })); render(); } }, t('shuffle')),
              // With the other buttons on the whole list, away from the entrant being typed.
              st.entrants.length ? h('button', { class: 'btn small ghost', type: 'button', id: 't-start-over', onclick: startOver }, t('start_over')) : null)),
          h('p', { class: 'hint', text: t('seed_order_hint') }),
          addForm,
          available.length ? [
            h('h3', { text: t('known_players') }),
            h('div', { class: 'chips', id: 'known-players' },
              available.map((p, k) => h('button', {
                class: 'chip', type: 'button', 'data-player': p.name,
                onclick: () => {
                  if (!add([p.name])) return;
                  // Picked from the names a typed text narrowed: that text is done with.
                  if (narrowing) { st.typed = ''; nameInput.value = ''; render(); }
                  render.focusOn(narrowing ? '#entrant-name' : chipAfter(available, k, '#entrant-name'));
                },
              }, p.name))),
          ] : null,
          h('ol', { class: 'sides', id: 'entrants' }, st.entrants.map(entrantRow)))),
      h('div', { class: 'sticky-actions' },
        // Busy, not disabled: a disabled button loses the focus (to the last entrant's ×,
        // which a second Enter after a refusal would have pressed).
        h('button', { class: 'btn primary big', type: 'button', id: 'create-tournament', disabled: st.entrants.length < 2, 'aria-disabled': st.busy ? 'true' : null, 'aria-busy': st.busy ? 'true' : null, onclick: create, onkeydown: onePerPress },
          st.busy ? t('creating') : st.entrants.length < 2 ? t('need_two_entrants') : t('create_tournament', { n: st.entrants.length }))));
  };
  const render = scheduler(root, draw);
  render();
  ipc.players().then((p) => { st.known = p; render(); }).catch((e) => app.error(e, { reading: true }));
  ipc.tournamentInfo().then((info) => { st.info = info; render(); }).catch((e) => app.error(e, { reading: true }));
  return { unmount: keepDraft };
}
