// The games the app offers, registered once each: a game is its screen module
// (`screens/<game>.js`, which calls `register`) and its strings in i18n.js. Which games there
// are, and in which order, is Rust's word (`games`); their rules, defaults, ranges, sides and
// computer levels are `game_info`'s. Nothing else lists games: the home cards, the setup, the
// player page, the replay and the match screen all ask here.
//
// A game's entry (every key but `mount` optional):
//   mount(root, args, view, info)  its match screen (view: the match, info: its game_info)
//   rules: false                   no rules form (the mölkkout)
//   options: [...]                 the order its rules form shows the options in (else Rust's)
//   shown(option, rules)           whether an option applies, given the other values
//   teams: false                   one player a side (no team mode on the setup screen)
//   seats                          the i18n key of the setup's sides heading
//   setup(ctx)                     extra setup block (opponent, level, dice...): an element
//   started(match, ctx)            after the match is made, before it opens
//   describe(action)               how an action reads in the replay's step list
//   replay(summary, info)          a drawing of the state for the replay (an element)
//   chart: [i18n key, counters => number]   the figure the player page charts per match
//   tournament(clubRules)          the rules a tournament starts from, over the club's defaults
//   edge                           its home card's edge colour: accent, turn, pin, text or warn

import { ipc } from './ipc.js';

const entries = new Map();
let order = [];
let loaded = null;

export function register(name, entry) {
  entries.set(name, { name, ...entry });
}

// Loads every game's module, by the names Rust gives, once.
export function loadGames() {
  loaded ||= ipc.games().then(async (names) => {
    await Promise.all(names.map((n) => import(`./screens/${n}.js`)));
    order = names.filter((n) => entries.has(n));
  });
  return loaded;
}

// The games, in Rust's order.
export function games() {
  return order.slice();
}

export function game(name) {
  return entries.get(name) || null;
}

// game_info, asked once per game and kept.
const infos = new Map();
export function gameInfo(name) {
  if (!infos.has(name)) {
    const p = ipc.gameInfo(name);
    infos.set(name, p);
    p.catch(() => infos.delete(name));
  }
  return infos.get(name);
}
