// The Boulomania board: three lanes of ball squares, the jack squares between them, the arrows;
// both teams' balls, the jack, balls in hand and in the tray, the score track. The side to act
// picks what to do (point with two or three dice, shoot a ball by tapping it, shoot the jack);
// the app rolls the dice (seeded by the match) or the players enter what real dice showed;
// a choice the roll opens (jack square or total, which way at an arrow) is asked only when it
// exists, each named by what Rust says it decides. Rust decides every outcome; this screen
// draws it and explains it in one line. The frame, the computer's turn and undo are
// board-screen.js's.

import { ipc } from '../ipc.js';
import { h, glyph } from '../dom.js';
import { t } from '../i18n.js';
import { app } from '../app.js';
import { endActions } from '../end-actions.js';
import { notesForm } from '../notes.js';
import { el, drawing, attr, shown } from '../svg.js';
import { boardScreen } from '../board-screen.js';
import { register } from '../games.js';

const U = 62;
const M = 44;

const pos = (xy) => [M + xy[0] * U, M + (6 - xy[1]) * U];

export function mount(root, [id], initial, info) {
  const matchId = Number(id);
  const ui = { plan: null, dice: null, rolling: null, entry: null, options: null, line: '' };
  let notes = null; // kept across redraws: it holds what the user is typing
  let actionsShown = initial?.actions; // how many actions the screen shows
  const screen = boardScreen(root, matchId, initial, {
    className: 'boulomania',
    title: t('game_boulomania'),
    ready: () => true,
    pause: 350, // so that people can follow the computer's throws
    board: () => makeBoard(),
    below: [h('p', { class: 'empty bou-note', text: t('bou_reconstructed') })],
    dataset: () => ({ phase: sum().phase }),
    head: () => [scoreTrack(),
      h('p', { class: `mor-status${over() ? ' over' : ''}`, id: 'status-line', 'aria-live': 'polite', text: statusLine() }),
      ui.line ? h('p', { class: 'bou-line', id: 'outcome-line', text: ui.line }) : null,
      meneBanner()],
    above: () => above(),
    panel,
    after(view, opts = {}) {
      // Back from the background with nothing played meanwhile: the turn in progress (the dice
      // being entered, the choice offered) stays as it was.
      if (opts.refreshed && view.actions === actionsShown) return;
      actionsShown = view.actions;
      const dice = ui.dice;
      ui.plan = null; ui.dice = null; ui.entry = null; ui.options = null;
      ui.line = explain(view.summary);
      if (dice && ui.line) ui.line = `${t('bou_rolled', { dice: dice.join(' · ') })} → ${ui.line}`;
      // A mène that ended is said with the score it leaves (the track is not heard).
      const ended = (view.summary.events || []).some((e) => e.event === 'mene_end');
      const score = ended ? view.summary.scores.map((n, i) => `${teamName(i)} ${n}`).join(' · ') : '';
      if (ui.line) app.announce(score ? `${ui.line}. ${score}` : ui.line);
    },
    undone(undone) {
      actionsShown = undone.view.actions;
      ui.plan = null; ui.dice = null; ui.entry = null; ui.options = null; ui.line = '';
    },
  });
  const { st, sum, over, isComputer, humanTurn, send, undo, render } = screen;
  const computer = () => st.view.computer || {};
  const teamName = screen.sideName;
  // (Not "team A (starts)": after the first mène the last mène's winner starts.)
  const teamLabel = (i) => t(i === 0 ? 'bou_team_a_plain' : 'bou_team_b');
  // A team of several players win; one player, or the computer, wins.
  const winnerText = (i) => t(!isComputer(i) && st.view.sides[i].length > 1 ? 'winner' : 'winner_one', { names: teamName(i) });
  const diceMode = () => localStorage.getItem(`partie.dice.${st.view.uid}`) || 'app';

  function explain(s) {
    const parts = [];
    for (const e of s.events || []) {
      const key = `bou_ev_${e.event}`;
      if (e.event === 'mene_end') parts.push(t(`bou_mene_${e.reason}`, { name: e.winner != null ? teamName(e.winner) : '', n: e.points ?? 0 }));
      else parts.push(t(key, { square: e.square, sum: e.sum, die: e.die, from: e.from, to: e.to }));
    }
    return parts.join(' · ');
  }

  function base(plan, dice) {
    if (plan.kind === 'jack') return { jack: dice[0] };
    if (plan.kind === 'point') return { point: dice };
    if (plan.kind === 'shoot') return { shoot: plan.target, die: dice[0] };
    return { shoot_jack: dice[0] };
  }

  // What to do is chosen: roll (or ask for the dice), then play or ask which choice.
  // One roll at a time: a second tap while the dice are on their way is ignored.
  let choosing = false;

  // Whether what was being rolled for still stands: an undo (or a throw from elsewhere) since
  // the roll was asked for makes its dice no one's.
  const still = (plan, view) => ui.plan === plan && st.view === view;

  async function choose(plan) {
    if (st.busy || st.thinking || choosing) return;
    ui.plan = plan;
    if (diceMode() === 'real') {
      ui.entry = Array(plan.n).fill(null);
      render();
      return;
    }
    const view = st.view;
    choosing = true;
    try {
      const dice = await ipc.rollDice(matchId, plan.n);
      if (!still(plan, view)) return;
      // A short roll on screen (none when the system asks for less motion).
      ui.rolling = dice;
      render();
      if (!matchMedia('(prefers-reduced-motion: reduce)').matches) await new Promise((r) => setTimeout(r, 450));
      ui.rolling = null;
      if (!still(plan, view)) { render(); return; }
      await rolled(dice);
    } catch (e) { ui.rolling = null; app.error(e); } finally { choosing = false; }
  }

  async function rolled(dice) {
    const plan = ui.plan;
    const view = st.view;
    if (!plan) return;
    ui.dice = dice;
    ui.entry = null;
    const action = base(plan, dice);
    if (plan.kind === 'jack') return send(action);
    try {
      const options = await ipc.choices(matchId, action);
      if (!still(plan, view)) return;
      if (options.length === 1) return send(options[0].action);
      ui.options = options;
      render();
      app.announce(`${t('bou_rolled', { dice: dice.join(' · ') })} ${t('bou_choose')}`);
    } catch (e) { app.error(e); ui.plan = null; render(); }
  }

  // A choice is named by what Rust says it decides: a double's square, the way at each arrow.
  function optionText(o) {
    const c = o.summary.choice || {};
    const bits = [];
    if (c.to === 'jack') bits.push(t('bou_to_jack', { n: c.square }));
    if (c.to === 'total') bits.push(t('bou_to_total', { n: c.square }));
    for (const v of c.via || []) bits.push(t('bou_via', { from: v.from, to: v.to }));
    if (!bits.length) bits.push(t('bou_straight'));
    return t('bou_option', { way: bits.join(', '), outcome: explain(o.summary) });
  }

  // The board is made once and updated in place, like the Morris board: a finger pressed on a
  // ball as the computer's throw redraws the screen still lands there when it lifts, and a ball
  // keeps the keyboard focus. Only a square's cell takes the pointer (see the CSS).
  function makeBoard() {
    const b = info.board;
    const w = M * 2 + U * 4;
    const hgt = M * 2 + U * 6;
    const svg = el('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'bou-board', id: 'bou-board', role: 'group' });
    svg.append(drawing('defs', {}, el('marker', { id: 'bou-head', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
      el('path', { d: 'M0 0L10 5L0 10z', class: 'bou-arrow-head' }))));
    // A square's name says its number, its ball and the jack; the ground, the arrows and a
    // square's shapes are drawing.
    svg.append(drawing('rect', { x: 4, y: 4, width: w - 8, height: hgt - 8, rx: 18, class: 'bou-ground' }));
    for (const [from, tos] of Object.entries(b.arrows)) {
      const [x1, y1] = pos(b.ball_squares[from]);
      for (const to of tos) {
        const [x2, y2] = pos(b.ball_squares[to]);
        svg.append(drawing('line', { x1, y1, x2: x1 + (x2 - x1) * 0.42, y2: y1 + (y2 - y1) * 0.42, class: 'bou-arrow', 'marker-end': 'url(#bou-head)' }));
      }
    }
    let shootable = new Set();
    const squares = [];
    const square = (n, xy, kind) => {
      const [x, y] = pos(xy);
      // The number's trailing space is not drawn; it makes the square's text read "7 B", not "7B".
      const parts = {
        cell: kind === 'ball' ? drawing('rect', { x: x - 27, y: y - 27, width: 54, height: 54, rx: 10, class: 'bou-cell' }) : drawing('circle', { cx: x, cy: y, r: 21, class: 'bou-cell' }),
        num: el('text', { x: x - (kind === 'ball' ? 22 : 0), y: y - (kind === 'ball' ? 14 : 24), class: 'bou-num' }, `${n} `),
        jack: drawing('circle', { cx: x, cy: y, r: 9, class: 'bou-jack' }),
        ball: drawing('circle', { cx: x, cy: y + 4, r: 17, class: 'bou-ball' }),
        letter: el('text', { x, y: y + 10, class: 'bou-ball-letter' }),
      };
      const g = el('g', { 'data-square': n, 'data-key': `${kind}-${n}` }, Object.values(parts));
      const shoot = () => { if (shootable.has(n)) choose({ kind: 'shoot', target: Number(n), n: 1 }); };
      g.addEventListener('click', shoot);
      g.addEventListener('keydown', (ev) => { if ((ev.key === 'Enter' || ev.key === ' ') && !ev.repeat) { ev.preventDefault(); shoot(); } });
      svg.append(g);
      squares.push({ n, x, kind, g, ...parts });
    };
    for (const [n, xy] of Object.entries(b.ball_squares)) square(n, xy, 'ball');
    for (const [n, xy] of Object.entries(b.jack_squares)) square(n, xy, 'jack');

    function update() {
      const s = sum();
      svg.setAttribute('aria-label', t('bou_board'));
      shootable = new Set(humanTurn() ? (s.options?.shoot || []).map(String) : []);
      const balls = s.phase === 'jack' && s.last_mene ? s.last_mene.balls : s.balls;
      const jack = s.phase === 'jack' && s.last_mene ? s.last_mene.jack : s.jack;
      const scoring = new Set((s.phase === 'jack' && s.last_mene ? s.last_mene.scoring : s.scoring).map(String));
      for (const q of squares) {
        const { n, g } = q;
        const side = balls[n];
        const here = Number(n) === jack;
        const can = shootable.has(n);
        g.setAttribute('class', `bou-square ${q.kind}${side != null ? ` side-${side}` : ''}${can ? ' shootable' : ''}${scoring.has(n) ? ' scoring' : ''}`);
        attr(g, 'role', can ? 'button' : null);
        attr(g, 'tabindex', can ? 0 : null);
        const letter = side === 0 ? 'A' : side === 1 ? 'B' : '';
        // The name says the square's number and its ball's letter as drawn, in that order, so
        // that someone who sees "7 B" can say it to voice control (WCAG 2.5.3).
        g.setAttribute('aria-label', `${t('bou_square', { n })}${side != null ? `, ${letter} (${t(side === 0 ? 'bou_team_a_plain' : 'bou_team_b')})` : ''}${here ? `, ${t('bou_jack')}` : ''}${can ? `, ${t('bou_tap_to_shoot')}` : ''}`);
        shown(q.jack, here);
        shown(q.ball, side != null);
        shown(q.letter, side != null);
        // A ball beside the jack on its square.
        q.ball.setAttribute('cx', q.x + (here ? 8 : 0));
        q.letter.setAttribute('x', q.x + (here ? 8 : 0));
        q.letter.textContent = letter;
      }
    }
    return { svg, update };
  }


  // The content security policy forbids style attributes; the width is set through the CSSOM.
  function fill(i, percent) {
    const e = h('span', { class: `bou-fill side-${i}` });
    e.style.width = `${percent}%`;
    return e;
  }

  function scoreTrack() {
    const s = sum();
    return h('div', { class: 'bou-track' }, [0, 1].map((i) => h('div', { class: `bou-team${!over() && s.turn === i ? ' active' : ''}`, 'data-team': i },
      h('span', { class: `bou-chip side-${i}`, text: i === 0 ? 'A' : 'B' }),
      h('span', { class: 'bou-team-name' }, h('strong', { text: teamName(i) }),
        h('small', { text: isComputer(i) ? t('bou_computer_level', { n: computer()[i] }) : teamLabel(i) })),
      h('span', { class: 'bou-score', 'data-score': i, text: String(s.scores[i]) }),
      h('span', { class: 'bou-bar', role: 'img', 'aria-label': t('bou_score_of', { n: s.scores[i], target: s.target }) },
        fill(i, Math.min(100, (s.scores[i] / s.target) * 100))),
      h('span', { class: 'bou-hand', 'data-in-hand': i, role: 'img', 'aria-label': t('bou_in_hand_n', { n: s.in_hand[i] }) },
        Array.from({ length: s.balls_per_side }, (_, k) => h('span', { class: k < s.in_hand[i] ? `dot side-${i}` : 'dot empty' }))),
      h('small', { class: 'bou-tray', 'data-lost': i, text: t('bou_lost_n', { n: s.lost[i] }) }))));
  }

  function statusLine() {
    const s = sum();
    if (over()) return winnerText(s.winner);
    const who = isComputer(s.turn) ? teamName(s.turn) : st.view.sides[s.turn][s.thrower] ?? teamName(s.turn);
    if (st.thinking) return t('mor_thinking', { name: teamName(s.turn) });
    const holder = s.holder == null ? t('bou_no_holder') : t('bou_holds', { name: teamName(s.holder) });
    if (s.phase === 'jack') return `${t('bou_mene_n', { n: s.mene })} · ${t('bou_rolls_jack', { name: who })}`;
    return `${t('bou_mene_n', { n: s.mene })} · ${t('bou_to_play', { name: who })} · ${holder}`;
  }

  function actions() {
    const s = sum();
    if (ui.rolling) {
      return h('div', { class: 'bou-rolling', id: 'dice-rolling', role: 'img', tabindex: -1, 'data-focus': true, 'aria-label': t('bou_rolled', { dice: ui.rolling.join(' · ') }) },
        ui.rolling.map((d) => h('span', { class: 'die rolling', text: String(d) })));
    }
    if (!humanTurn()) return null;
    if (ui.entry) {
      return h('div', { class: 'bou-entry', id: 'dice-entry' },
        h('p', { id: 'dice-entry-title', tabindex: -1, 'data-focus': true, text: t('bou_enter_dice', { n: ui.entry.length }) }),
        ui.entry.map((v, k) => h('div', { class: 'segmented' }, [1, 2, 3, 4, 5, 6].map((d) => h('button', {
          type: 'button', class: 'seg', id: `die-${k}-${d}`, 'aria-pressed': String(v === d), 'aria-label': t('bou_die_is', { k: k + 1, d }),
          onclick: () => { ui.entry[k] = d; render(); },
        }, String(d))))),
        h('div', { class: 'mor-tools' },
          h('button', { class: 'btn primary', type: 'button', id: 'dice-ok', disabled: ui.entry.some((v) => v == null), onclick: () => ui.entry && rolled(ui.entry.slice()) }, t('confirm')),
          h('button', { class: 'btn ghost', type: 'button', onclick: () => { ui.entry = null; ui.plan = null; render(); } }, t('cancel'))));
    }
    if (ui.options) {
      return h('div', { class: 'bou-choices', id: 'bou-choices' },
        h('p', { class: 'bou-dice', id: 'dice-shown', text: t('bou_rolled', { dice: ui.dice.join(' · ') }) }),
        h('p', { text: t('bou_choose') }),
        ui.options.map((o, k) => h('button', { class: 'btn', type: 'button', 'data-choice': k, 'data-key': `choice-${k}`, 'data-focus': k === 0 || null, onclick: () => send(o.action) }, optionText(o))));
    }
    if (s.phase === 'jack') {
      return h('div', { class: 'mor-tools', 'data-key': 'jack-tools' },
        h('button', { class: 'btn primary big', type: 'button', id: 'roll-jack', 'data-focus': true, onclick: () => choose({ kind: 'jack', n: 1 }) }, t('bou_roll_jack')));
    }
    const o = s.options || {};
    return h('div', { class: 'bou-actions', 'data-key': 'bou-actions' },
      h('div', { class: 'mor-tools' },
        h('button', { class: 'btn primary', type: 'button', id: 'point-2', 'data-focus': true, onclick: () => choose({ kind: 'point', n: 2 }) }, t('bou_point_2')),
        h('button', { class: 'btn primary', type: 'button', id: 'point-3', onclick: () => choose({ kind: 'point', n: 3 }) }, t('bou_point_3')),
        o.shoot_jack ? h('button', { class: 'btn', type: 'button', id: 'shoot-jack', onclick: () => choose({ kind: 'shoot_jack', n: 1 }) }, t('bou_shoot_jack')) : null),
      o.shoot?.length ? h('p', { class: 'empty', text: t('bou_shoot_hint') }) : null);
  }

  function sheet() {
    const s = sum();
    return h('table', { class: 'cro-sheet', id: 'mene-sheet' },
      h('thead', null, h('tr', null, h('th', { text: t('bou_mene') }), h('th', { text: teamName(0) }), h('th', { text: teamName(1) }))),
      h('tbody', null, s.mene_points.map((p, k) => h('tr', null, h('th', { text: String(k + 1) }),
        h('td', { text: p && p[0] === 0 ? String(p[1]) : p ? '' : '–' }), h('td', { text: p && p[0] === 1 ? String(p[1]) : p ? '' : '–' })))));
  }

  function meneBanner() {
    const s = sum();
    if (s.phase !== 'jack' || !s.last_mene || over()) return null;
    const m = s.last_mene;
    return h('p', { class: 'bou-mene-end', id: 'mene-end', text: t(`bou_mene_${m.reason}`, { name: m.winner != null ? teamName(m.winner) : '', n: m.points ?? 0 }) });
  }

  // The turn's actions, before the board.
  function above() {
    return [screen.retry(), actions(), over() ? endActions(matchId, undo, st.view) : null];
  }

  function panel() {
    const s = sum();
    return [
      // Keyed rows: the turn's buttons coming and going above them do not shift them.
      over() ? null : h('div', { class: 'mor-tools', 'data-key': 'tools' },
        h('button', { class: 'btn', type: 'button', id: 'undo', 'data-key': 'undo', disabled: st.view.actions === 0, onclick: undo }, glyph('↶'), t('undo')),
        h('button', {
          // (Its label says the mode it is in: no aria-pressed, which would read the opposite.)
          class: 'btn ghost', type: 'button', id: 'dice-mode', 'data-key': 'dice-mode',
          onclick: () => { localStorage.setItem(`partie.dice.${st.view.uid}`, diceMode() === 'real' ? 'app' : 'real'); render(); },
        }, t(diceMode() === 'real' ? 'bou_dice_real' : 'bou_dice_app'))),
      ...(s.mene_points.length ? [h('h2', { text: t('bou_sheet') }), sheet()] : []),
      over() ? (notes ||= notesForm(st.view, () => st.view)) : null];
  }

  screen.start();
  return screen.handle();
}

// Who plays each team, and whose dice.
function setupBlock({ st, seg, levels, vsComputer, opponent }) {
  return h('div', { class: 'mor-setup' },
    seg('opponent', t('bou_opponent'), ['person', 'computer'], st.opponent, (v) => t(`bou_opponent_${v}`), opponent),
    vsComputer() ? [
      seg('level', t('mor_level'), levels(), st.level, (v) => t(`bou_level_${v}`), (v) => { st.level = v; }),
      seg('colour', t('bou_your_team'), [0, 1], st.colour, (v) => t(v === 0 ? 'bou_team_a' : 'bou_team_b'), (v) => { st.colour = v; }),
    ] : null,
    seg('dice', t('bou_dice'), ['app', 'real'], st.dice ?? 'app', (v) => t(`bou_dice_${v}`), (v) => { st.dice = v; }));
}

register('boulomania', {
  mount,
  edge: 'warn',
  options: ['target', 'balls'],
  seats: 'bou_seats',
  setup: setupBlock,
  started: (m, st) => localStorage.setItem(`partie.dice.${m.uid}`, st.dice ?? 'app'),
  chart: ['chart_points_per_mene', (c) => (c.menes ? c.mene_points / c.menes : null)],
  // A step of the replay in words (the spec's action shapes), not as JSON.
  describe: (a) => (a.jack != null ? t('replay_jack', { n: a.jack })
    : a.point ? t('replay_point', { dice: a.point.join(' + ') })
      : a.shoot != null ? t('replay_shoot', { n: a.shoot, die: a.die })
        : a.shoot_jack != null ? t('replay_shoot_jack', { die: a.shoot_jack })
          : t('replay_other')),
});
