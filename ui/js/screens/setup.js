// New game: players (known ones first, a new one in one step), teams, throwing order, rules.

import { ipc } from '../ipc.js';
import { h, glyph, scheduler, names, segmented, shuffled, chipAfter, movedArrow, stillUp, knownMatching, onePerPress } from '../dom.js';
import { t } from '../i18n.js';
import { app } from '../app.js';
import { games, game as gameEntry, gameInfo } from '../games.js';
import { rulesForm, alike } from '../rules-form.js';

// A setup left for another screen (Settings, the sync chip) and come back to is as it was
// left: its line-up, teams, opponent and rules were only kept at Start, and a trip to change
// the default rules lost them. One a game, for as long as the app runs; a Start forgets it.
const drafts = new Map();
const DRAFTED = ['sides', 'teamMode', 'rules', 'saveDefaults', 'opponent', 'level', 'colour', 'benched', 'fresh'];
// The setup on screen, by game: a name put right whose answer comes after its screen was left
// and come back to reaches the screen come back to, which took the draft with the old spelling.
const onScreen = new Map();

// A name put right (`p`, the store's answer: the player renamed, or the known player of that
// name) in a line-up: a screen's state, or the draft a screen left.
function putRight(into, name, id, p) {
  const known = p.id !== id;
  const put = (sides) => sides?.map((side) => side.map((n) => (n === name ? p.name : n)));
  into.sides = put(into.sides);
  into.benched = put(into.benched) ?? null;
  if (into.fresh) {
    delete into.fresh[name];
    if (!known) into.fresh[p.name] = id;
  }
  if (into.known) into.known = known ? into.known.filter((k) => k.id !== id) : into.known.map((k) => (k.id === id ? p : k));
}

// A draft's rules, unless they are the defaults it started from: then the defaults of now
// (Settings, the trip away, may have just changed them).
function draftOf(game) {
  const draft = drafts.get(game);
  if (!draft) return {};
  const { rulesFrom, ...kept } = structuredClone(draft);
  if (alike(kept.rules, rulesFrom)) delete kept.rules;
  return kept;
}

export function mount(root, [game]) {
  if (!games().includes(game)) game = games()[0];
  const entry = gameEntry(game);
  app.title(t(`game_${game}`));
  const st = {
    known: [],
    info: null,         // the game's game_info: its options, its sides, the computer's levels
    sides: (app.settings.last_lineup || []).map((s) => s.slice()),
    teamMode: false,
    active: null,
    newName: '',
    rules: { ...(app.settings.rules?.[game] || {}) },
    saveDefaults: false,
    busy: false,
    opponent: 'person', // against a person or the computer, where the game has computer levels
    level: 2,
    colour: 0,          // the person's side against the computer
    benched: null,      // the sides the computer's place took (`opponent`)
    fresh: {},          // the players this setup made, never played yet, by name: their spelling can be put right here
    ...draftOf(game),
  };
  const drafted = drafts.has(game);
  let started = false;
  // What the game takes (its options, sides, the computer's levels) is Rust's word, from
  // game_info; whether it has teams, and its own setup block, the game's entry.
  const teams = () => entry.teams !== false && (st.info?.sides?.players?.max ?? 2) > 1;
  if (!teams()) st.sides = st.sides.map((s) => s.slice(0, 1));
  const maxSides = () => st.info?.sides?.max ?? null;
  const levels = () => st.info?.computer?.levels ?? [];
  const vsComputer = () => levels().length > 0 && st.opponent === 'computer';
  if (!drafted) st.teamMode = teams() && st.sides.some((s) => s.length > 1);
  let form = null;

  const inLineup = (name) => st.sides.some((s) => s.some((n) => n.toLowerCase() === name.toLowerCase()));

  function addName(name) {
    if (inLineup(name)) return;
    const max = vsComputer() && !st.teamMode ? 1 : maxSides();
    if (max && !st.teamMode && st.sides.length >= max) {
      // A full line-up: the newest name takes the last place, and who had it is said.
      const gone = names(st.sides[max - 1]);
      st.sides[max - 1] = [name];
      app.announce(t('player_replaced', { name, gone }));
      render();
      return;
    }
    // Teams as the game takes them (game_info): a full team or a full line-up is said, not
    // left for Start to refuse.
    const perSide = st.info?.sides?.players?.max;
    if (st.teamMode && st.active != null && st.sides[st.active]) {
      if (perSide && st.sides[st.active].length >= perSide) { app.error({ kind: 'bad_setup', code: 'team_full', detail: String(perSide) }); return; }
      st.sides[st.active].push(name);
    } else if (st.teamMode && max && st.sides.length >= max) {
      app.error({ kind: 'bad_setup', code: 'sides_full', detail: String(max) });
      return;
    } else {
      st.sides.push([name]);
      if (st.teamMode) st.active = st.sides.length - 1;
    }
    app.announce(t('player_added', { name }));
    render();
  }

  async function addNew(ev) {
    ev.preventDefault();
    const name = st.newName.trim();
    if (!name) return;
    try {
      const p = await ipc.addPlayer(name);
      // Emptied for the next name, unless the next one is already being typed.
      if (nameInput.value.trim() === name) {
        st.newName = '';
        nameInput.value = '';
      }
      // A player this setup made (not one the name found) has no history a new spelling
      // would touch: it can be put right on its chip, where a name mistyped is seen. Until
      // the known players have come, a name found cannot be told from one made: no offer.
      const made = knownCame && !st.known.some((k) => k.id === p.id);
      if (!st.known.some((k) => k.id === p.id)) st.known.unshift(p);
      if (made && p.last_played_at == null) st.fresh[p.name] = p.id;
      addName(p.name);
    } catch (e) { app.error(e); }
  }

  // The opponent chosen, on a game the computer plays: it takes every place but the person's,
  // and those who had them are said, and come back when a person is chosen again (they were
  // dropped without a word).
  function opponent(v) {
    st.opponent = v;
    if (v === 'computer' && st.sides.length > 1) {
      st.benched = st.sides.slice(1);
      st.sides = st.sides.slice(0, 1);
      app.announce(t('player_removed', { name: st.benched.map(names).join(', ') }));
    } else if (v === 'person' && st.benched) {
      const back = st.benched.filter((side) => !side.some(inLineup));
      st.sides = [...st.sides, ...back];
      st.benched = null;
      if (back.length) app.announce(t('player_added', { name: back.map(names).join(', ') }));
    }
  }

  // The spelling of a player this setup made, put right on its chip: the player is renamed
  // (the line-up and the known players follow), or, where the name put right is a known
  // player's, that player takes the place and the one made by mistake is archived (it never
  // played; the players screen still has it).
  let fixing = null;  // { name, input }: the chip being put right
  let knownCame = false;
  function fixStart(name) {
    const input = h('input', {
      id: 'fix-name', type: 'text', maxlength: 60, autocomplete: 'off', value: name, 'aria-label': t('fix_name', { name }),
      onkeydown: (ev) => { if (ev.key === 'Escape') { ev.preventDefault(); ev.stopPropagation(); fixEnd(name); } },
    });
    fixing = { name, input };
    render.focusOn('#fix-name');
    render();
  }
  // Back from the chip's field: the focus on the chip (its name, else its ×: a known player
  // took the place), else on the name field.
  function fixEnd(name) {
    fixing = null;
    const at = st.sides.flatMap((side, i) => side.map((n, k) => (n === name ? [i, k] : null))).find(Boolean);
    const key = at && (st.fresh[name] != null ? `fix-${at[0]}-${at[1]}` : `x-${at[0]}-${at[1]}`);
    render.focusOn(key ? `[data-key="${key}"]` : '#new-player');
    render();
  }
  async function fixSave(ev) {
    ev.preventDefault();
    if (!fixing || st.busy) return;
    const { name, input } = fixing;
    const id = st.fresh[name];
    const typed = input.value.trim();
    if (!typed || typed === name) { fixEnd(name); return; }
    if (typed.toLowerCase() !== name.toLowerCase() && inLineup(typed)) {
      app.error({ kind: 'bad_setup', code: 'name_taken', detail: typed });
      return;
    }
    st.busy = true;
    const up = stillUp();
    try {
      // Renamed, or the known player of that name: the store says which (the id it gives).
      const p = await ipc.putRightPlayer(id, name, typed);
      const now = p.name;
      putRight(st, name, id, p);
      // The screen was left while the store answered: the draft it left takes the name put
      // right (its line-up would come back with a name that is no one's now, and drop it),
      // and so does the screen already come back to, which took the draft as it was.
      if (!up()) {
        const draft = drafts.get(game);
        if (draft) putRight(draft, name, id, p);
        onScreen.get(game)?.(name, id, p);
      }
      app.announce(t('name_fixed', { gone: name, name: now }));
      if (!up()) return;
      // Another chip opened meanwhile stays open.
      if (fixing?.name === name) fixEnd(now); else render();
    } catch (e) {
      // No longer as this setup made it (renamed, archived or played since, a draft come
      // back to): its chip offers no correction any more.
      if (e?.code === 'not_put_right') {
        delete st.fresh[name];
        fixEnd(name);
      } else app.error(e);
    } finally {
      st.busy = false;
    }
  }
  function fixChip(name) {
    return h('form', { class: 'chip in-side chip-fixing', 'data-key': `fixing-${name}`, onsubmit: fixSave },
      fixing.input,
      h('button', { class: 'chip-act', type: 'submit', id: 'fix-save', 'aria-label': t('save') }, '✓'),
      h('button', { class: 'chip-act', type: 'button', id: 'fix-cancel', 'aria-label': t('cancel'), onclick: () => fixEnd(name) }, '↩'));
  }

  function removeName(si, pi) {
    const [name] = st.sides[si].splice(pi, 1);
    if (fixing?.name === name) fixing = null;
    if (!st.sides[si].length) {
      st.sides.splice(si, 1);
      if (st.active != null && st.active >= st.sides.length) st.active = null;
    }
    app.announce(t('player_removed', { name }));
    // The focus goes to the next player's ×, else the one before, else the name field.
    const xs = st.sides.flatMap((side, i) => side.map((_, k) => `x-${i}-${k}`));
    const at = st.sides.slice(0, si).reduce((n, side) => n + side.length, 0) + pi;
    const next = xs[Math.min(at, xs.length - 1)];
    render.focusOn(next ? `[data-key="${next}"]` : '#new-player');
  }

  function move(si, d) {
    const j = si + d;
    if (j < 0 || j >= st.sides.length) return;
    [st.sides[si], st.sides[j]] = [st.sides[j], st.sides[si]];
    render.focusOn(movedArrow(si, j, st.sides.length));
    app.announce(t('moved_to', { name: names(st.sides[j]), n: j + 1, of: st.sides.length }));
  }

  async function start() {
    if (st.busy) return;
    // A number typed that the rule cannot take is said at its field; nothing is sent.
    const wrong = form?.problem();
    if (wrong) { app.error(wrong, { form: true }); return; }
    st.busy = true;
    const rules = form ? form.value() : {};
    let sides = st.sides;
    let computer = null;
    if (vsComputer()) {
      const machine = [t('mor_computer_name')];
      sides = st.colour === 0 ? [st.sides[0], machine] : [machine, st.sides[0]];
      computer = { [1 - st.colour]: st.level };
    }
    // The new match opens only if the person is still here (not gone Back while it was made).
    const up = stillUp();
    try {
      const m = await ipc.newMatch(game, rules, sides, computer);
      started = true;
      drafts.delete(game);
      // The match is made: it opens whatever comes of remembering the setup. A failure there
      // left the screen open, and Start again made a second match.
      try {
        entry.started?.(m, st);
        await app.saveSetting('last_lineup', st.sides);
        if (form && st.saveDefaults) await app.saveSetting('rules', { [game]: rules });
      } catch (e) { app.error(e); }
      if (up()) app.go(`#/match/${m.id}`);
    } catch (e) {
      app.error(e);
    } finally {
      st.busy = false;
    }
  }

  function sideCard(side, si) {
    const active = st.teamMode && st.active === si;
    return h('li', { class: active ? 'side-card active' : 'side-card', 'data-side': si },
      // A button only in team mode, where a tap picks the side names go to; else just its number.
      h(st.teamMode ? 'button' : 'span', {
        class: 'side-label', type: st.teamMode ? 'button' : null, 'aria-pressed': st.teamMode ? String(active) : null, 'data-key': `side-${si}${st.teamMode ? '' : '-n'}`,
        onclick: st.teamMode ? () => { st.active = active ? null : si; render(); } : null,
      }, h('span', { class: 'side-index', text: String(si + 1) }), st.teamMode ? t('side_n', { n: si + 1 }) : null),
      h('span', { class: 'side-players' },
        side.map((name, pi) => (fixing?.name === name ? fixChip(name) : h('span', { class: 'chip in-side' },
          st.fresh[name] != null
            // A name this setup made: a tap on it puts its spelling right.
            ? h('button', { class: 'chip-fix', type: 'button', 'data-key': `fix-${si}-${pi}`, 'aria-label': t('fix_name', { name }), onclick: () => fixStart(name) },
              h('span', { class: 'chip-name', text: name }), h('span', { class: 'fix-glyph', 'aria-hidden': 'true', text: '✎' }))
            : h('span', { class: 'chip-name', text: name }),
          h('button', { class: 'chip-x', type: 'button', 'aria-label': `${t('remove')} ${name}`, 'data-key': `x-${si}-${pi}`, onclick: () => removeName(si, pi) }, '×'))))),
      h('span', { class: 'side-moves' },
        h('button', { class: 'icon-btn small', type: 'button', 'aria-label': `${t('move_up')} ${names(side)}`, 'data-key': `up-${si}`, disabled: si === 0, onclick: () => move(si, -1) }, '↑'),
        h('button', { class: 'icon-btn small', type: 'button', 'aria-label': `${t('move_down')} ${names(side)}`, 'data-key': `down-${si}`, disabled: si === st.sides.length - 1, onclick: () => move(si, 1) }, '↓')));
  }

  // The name field lives across redraws, so that typing (or an input method's composition)
  // is never cut by a redraw.
  const nameInput = h('input', {
    id: 'new-player', type: 'text', maxlength: 60, autocomplete: 'off', 'data-key': 'new-player',
    placeholder: t('new_player_placeholder'),
    // The known players narrow to those the name may mean as it is typed.
    oninput: (ev) => { st.newName = ev.target.value; render(); },
  });
  const addForm = h('form', { class: 'add-player', onsubmit: addNew },
    h('label', { class: 'sr-only', for: 'new-player', text: t('new_player_placeholder') }),
    nameInput,
    h('button', { class: 'btn', type: 'submit', id: 'add-player' }, t('add_player')));

  function seg(id, label, values, current, text, set) {
    return segmented(id, label, values, current, text, (v) => { set(v); render(); });
  }

  const draw = () => {
    const enough = vsComputer() ? st.sides.length === 1 : st.sides.length >= 2;
    const narrowing = st.newName.trim();
    const available = knownMatching(st.known.filter((p) => !inLineup(p.name)), narrowing);
    // A held Enter is one press: its repeats added every known player one after the other
    // (the focus moves to the next chip), or took the whole line-up away.
    return h('section', { class: 'setup', onkeydown: onePerPress },
      h('div', { class: 'setup-cols' },
        h('div', { class: 'setup-players' },
          h('h2', { text: t('players') }),
          addForm,
          available.length ? [
            h('h3', { text: t('known_players') }),
            h('div', { class: 'chips', id: 'known-players' },
              available.map((p, k) => h('button', {
                class: 'chip', type: 'button', 'data-player': p.name,
                onclick: () => {
                  // Picked from the names a typed text narrowed: that text is done with.
                  if (narrowing) { st.newName = ''; nameInput.value = ''; }
                  addName(p.name);
                  render.focusOn(narrowing ? '#new-player' : chipAfter(available, k, '#new-player'));
                },
              }, p.name))),
          ] : null),
        h('div', { class: 'setup-sides' },
          h('div', { class: 'sides-head' },
            h('h2', { text: t(entry.seats || 'sides') }),
            h('button', { class: 'btn small ghost', type: 'button', id: 'shuffle', disabled: st.sides.length < 2, onclick: () => { st.sides = shuffled(st.sides); app.announce(t('order_now', { names: st.sides.map(names).join(', ') })); render(); } }, t('shuffle'))),
          entry.setup?.({ st, seg, levels, vsComputer, render, opponent, rules: () => (form ? form.value() : {}) }),
          teams() ? h('label', { class: 'toggle' },
            h('input', { type: 'checkbox', id: 'team-mode', checked: st.teamMode, onchange: (ev) => { st.teamMode = ev.target.checked; st.active = null; render(); } }),
            h('span', { text: t('team_mode') }),
            st.teamMode ? h('small', { text: st.active != null ? t('add_to_side', { n: st.active + 1 }) : t('team_mode_hint') }) : null) : null,
          h('ol', { class: 'sides', id: 'sides' }, st.sides.map(sideCard)),
          st.teamMode && !(maxSides() && st.sides.length >= maxSides())
            ? h('button', { class: 'btn small ghost', type: 'button', id: 'new-side', onclick: () => { st.active = null; render(); } }, glyph('+'), t('new_side')) : null,
          form ? [h('h2', { text: t('rules') }), form.draw(),
            h('label', { class: 'toggle' },
              h('input', { type: 'checkbox', checked: st.saveDefaults, onchange: (ev) => { st.saveDefaults = ev.target.checked; } }),
              h('span', { text: t('save_defaults') }))] : null)),
      h('div', { class: 'sticky-actions' },
        h('button', { class: 'btn primary big', type: 'button', id: 'start', disabled: !enough, onclick: start },
          enough ? t('start') : t(vsComputer() ? 'mor_need_one_player' : 'need_two_sides'))));
  };
  const render = scheduler(root, draw);

  render();
  // The last line-up is names: one renamed, merged or archived since is no one now, and would
  // make a new player at Start. Once the players are in, such a name of that line-up goes, and
  // one that differs only by case takes the player's own spelling.
  const remembered = new Set(st.sides.flat());
  ipc.players().then((p) => {
    // One added while the list was asked for (its answer may predate it) stays known.
    st.known = [...st.known.filter((k) => !p.some((x) => x.id === k.id)), ...p];
    knownCame = true;
    // A draft's players made here stay correctable only while they are as they were made:
    // one renamed, archived or played since is not.
    st.fresh = Object.fromEntries(Object.entries(st.fresh)
      .filter(([name, id]) => p.some((k) => k.id === id && k.name === name && k.last_played_at == null)));
    const known = new Map(st.known.map((k) => [k.name.toLowerCase(), k.name]));
    st.sides = st.sides
      .map((side) => side.flatMap((n) => (!remembered.has(n) ? [n] : known.has(n.toLowerCase()) ? [known.get(n.toLowerCase())] : [])))
      .filter((side) => side.length);
    render();
  }).catch((e) => app.error(e, { reading: true }));
  gameInfo(game).then((info) => {
    st.info = info;
    // A remembered line-up longer than the game takes is cut to fit.
    if (maxSides()) st.sides = st.sides.slice(0, maxSides());
    if (!teams()) { st.sides = st.sides.map((s) => s.slice(0, 1)); st.teamMode = false; }
    if (entry.rules !== false) form = rulesForm(game, info, entry, st.rules, (r) => { st.rules = r; app.formNow(form?.problem()); render(); });
    render();
  }).catch((e) => app.error(e, { reading: true }));
  const cameBack = (name, id, p) => {
    if (fixing?.name === name) fixing = null;
    putRight(st, name, id, p);
    render();
  };
  onScreen.set(game, cameBack);
  return {
    unmount: () => {
      if (onScreen.get(game) === cameBack) onScreen.delete(game);
      if (!started) {
        drafts.set(game, structuredClone({
          ...Object.fromEntries(DRAFTED.map((k) => [k, st[k]])),
          rulesFrom: app.settings.rules?.[game] || {},
        }));
      }
    },
  };
}
