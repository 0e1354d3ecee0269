// The UI's strings: French and English have the same keys and the same {placeholders}, and
// every key the screens ask for exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };
const { STRINGS_FOR_TESTS: S, t, setLanguage, errorText } = await import('../../ui/js/i18n.js');

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('French and English have the same keys and placeholders', () => {
  // A singular (`key.one`) is each language's own: French says it for 0 as well, and a word
  // without a plural needs none. It says no more than its plural.
  const plain = (lang) => Object.keys(S[lang]).filter((k) => !k.endsWith('.one')).sort();
  assert.deepEqual(plain('fr'), plain('en'));
  for (const key of plain('en')) {
    assert.deepEqual(placeholders(S.fr[key]), placeholders(S.en[key]), key);
  }
  for (const lang of ['en', 'fr']) {
    for (const key of Object.keys(S[lang]).filter((k) => k.endsWith('.one'))) {
      const plural = new Set(placeholders(S[lang][key.slice(0, -4)]));
      for (const p of placeholders(S[lang][key])) assert.ok(plural.has(p), `${lang} ${key}: {${p}}`);
    }
  }
});

test('no key is given twice in a language (the later one would silently win)', () => {
  const source = readFileSync(new URL('../../ui/js/i18n.js', import.meta.url), 'utf8');
  const blocks = source.split(/^  (?:en|fr): \{$/m).slice(1);
  assert.equal(blocks.length, 2);
  for (const block of blocks) {
    const keys = [...block.matchAll(/^    '?([\w.]+)'?: /gm)].map((m) => m[1]);
    const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
    assert.deepEqual(twice, []);
    assert.ok(keys.length > 500, `${keys.length} keys read`);
  }
});

test('every key the screens use exists', () => {
  const dir = new URL('../../ui/js/', import.meta.url).pathname;
  const files = [...readdirSync(dir).map((f) => join(dir, f)), ...readdirSync(join(dir, 'screens')).map((f) => join(dir, 'screens', f))]
    .filter((f) => f.endsWith('.js'));
  const used = new Set();
  for (const f of files) {
    for (const m of readFileSync(f, 'utf8').matchAll(/\bt\('([a-z_0-9.]+)'/g)) used.add(m[1]);
  }
  assert.ok(used.size > 50, `only ${used.size} keys found`);
  for (const key of used) assert.ok(key in S.en, `missing string ${key}`);
});

test('every key a screen builds from a value exists for each value, in both languages', () => {
  // Keys such as t(`game_${g}`) are not seen by the test above: each family with the values
  // it is built from. Games are those the screens register; Morris's reasons are its Rust enum's.
  const dir = new URL('../../ui/js/screens/', import.meta.url).pathname;
  const games = readdirSync(dir).flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/^register\('(\w+)'/gm)].map((m) => m[1]));
  assert.deepEqual(games.sort(), ['boulomania', 'crokinole', 'molkkout', 'molkky', 'morris']);
  const position = readFileSync(new URL('../../src-tauri/partie-core/src/morris/position.rs', import.meta.url), 'utf8');
  const reasons = position.split('pub enum Reason {')[1].split('}')[0].matchAll(/^\s{4}([A-Z]\w+),/gm);
  const snake = (w) => w.replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase());
  const morrisReasons = [...reasons].map((m) => snake(m[1]));
  assert.ok(morrisReasons.length >= 7, morrisReasons.join());
  // The tournament systems: each registers its name once, in its own module's ENTRY.
  const tdir = new URL('../../src-tauri/partie-core/src/tournament/', import.meta.url).pathname;
  const systems = readdirSync(tdir).flatMap((f) => [...readFileSync(join(tdir, f), 'utf8')
    .matchAll(/pub const ENTRY: Entry = Entry \{\s*name: "(\w+)"/g)].map((m) => m[1]));
  assert.deepEqual(systems.sort(), ['pools_knockout', 'round_robin', 'swiss']);
  // Where a game's matches are played: each game's `PLACE`, and the default of the trait.
  const core = new URL('../../src-tauri/partie-core/src/', import.meta.url).pathname;
  const rsFiles = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? rsFiles(join(d, e.name)) : e.name.endsWith('.rs') ? [join(d, e.name)] : []));
  const places = [...new Set(rsFiles(core).flatMap((f) => [...readFileSync(f, 'utf8')
    .matchAll(/const (?:PLACE: &'static str|DEFAULT_PLACE: &str) = "(\w+)";/g)].map((m) => m[1])))].sort();
  assert.deepEqual(places, ['board', 'court', 'crokinole_board']);
  // Their titles are the core's (`TITLE` of each game, `title` of each system's ENTRY), which
  // the printed sheets and the hub's big-screen page use: the app says the same.
  const titles = (re) => Object.fromEntries(rsFiles(core)
    .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(re)].map((m) => [m[1], [m[2], m[3]]])));
  const gameTitles = titles(/const NAME: &'static str = "(\w+)";\s*const TITLE: \[&'static str; 2\] = \["([^"]+)", "([^"]+)"\];/g);
  const systemTitles = titles(/pub const ENTRY: Entry = Entry \{\s*name: "(\w+)",\s*title: \["([^"]+)", "([^"]+)"\]/g);
  assert.deepEqual(Object.keys(gameTitles).sort(), [...games].sort());
  assert.deepEqual(Object.keys(systemTitles).sort(), [...systems].sort());
  for (const [kind, all] of [['game', gameTitles], ['system', systemTitles]]) {
    for (const [name, [en, fr]] of Object.entries(all)) {
      assert.equal(S.en[`${kind}_${name}`], en, `${kind} ${name}`);
      assert.equal(S.fr[`${kind}_${name}`], fr, `${kind} ${name}`);
    }
  }
  const families = {
    'game_{}': games,
    'game_{}_hint': games,
    'system_{}': systems,
    'system_{}_hint': systems,
    't_status_{}': ['registering', 'playing', 'finished'],
    'theme_{}': ['system', 'light', 'dark', 'outdoor'],
    'tab_{}': ['round', 'standings', 'bracket'],
    'mor_reason_{}': morrisReasons,
    'mor_level_{}': ['1', '2', '3', '4', '5'],
    'mor_opponent_{}': ['person', 'computer'],
    'bou_opponent_{}': ['person', 'computer'],
    'bou_dice_{}': ['app', 'real'],
    'bou_mene_{}': ['scored', 'null', 'jack_out', 'replayed'],
    'place_n_{}': places,
    'place_next_{}': places,
    'waiting_for_place_{}': places,
    't_places_{}': places,
    't_places_all_{}': places,
  };
  for (const [family, values] of Object.entries(families)) {
    for (const v of values) {
      const key = family.replace('{}', v);
      for (const lang of ['en', 'fr']) assert.ok(key in S[lang], `${lang} ${key}`);
    }
  }
});

test('every code Rust refuses with has words in both languages', () => {
  // Read from the Rust sources: a code added there without its words would be told in the
  // error kind's words, with Rust's English detail in them.
  const root = new URL('../../src-tauri/', import.meta.url).pathname;
  const codes = new Set();
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      // (`bin`: the command line's refusals are printed, never shown in the app.)
      if (e.isDirectory() && !['target', 'tests', 'benches', 'examples', 'bin'].includes(e.name)) walk(p);
      // `with_code("…")`, and Boulomania's `illegal("code", detail)`.
      else if (e.name.endsWith('.rs')) for (const m of readFileSync(p, 'utf8').matchAll(/with_code\("([a-z_0-9]+)"\)|\billegal\(\s*"([a-z_0-9]+)",/g)) codes.add(m[1] ?? m[2]);
    }
  };
  walk(root);
  assert.ok(codes.size > 60, `only ${codes.size} codes found`);
  // An answer the screens drop, never shown: the computer's answer to a position since
  // changed, or its thinking stopped.
  const dropped = new Set(['stale', 'stopped']);
  for (const code of codes) {
    if (dropped.has(code)) continue;
    for (const lang of ['en', 'fr']) assert.ok(`code.${code}` in S[lang], `${lang} code.${code}`);
  }
});

// Runs `body` in French; English again after, whatever it does (later tests read English).
function inFrench(body) {
  setLanguage('fr');
  try {
    body();
  } finally {
    setLanguage('en');
  }
}

test('errors read in the user language, by code first', () => {
  inFrench(() => {
    assert.equal(errorText({ kind: 'illegal_action', code: 'game_over', detail: 'x' }), S.fr['code.game_over']);
    assert.equal(errorText({ kind: 'bad_action', code: 'unknown', detail: 'pin 13' }), 'Ce n’est pas possible : pin 13');
    // A word of a typed move list is named before the reason, never Rust's English detail.
    assert.equal(errorText({ kind: 'bad_record', code: 'not_a_move', subject: 'z9', detail: '"z9" is not a Morris move' }),
      `z9 — ${S.fr['code.not_a_move']}`);
  });
  // A fault of the screen itself (no kind: it did not come from Rust) is not told as a
  // storage failure; a kind this version does not know still is.
  assert.equal(errorText(new TypeError('x is null')), 'Something went wrong on this screen (TypeError: x is null). What was saved is kept.');
  assert.equal(errorText({ kind: 'storage', detail: 'disk full' }), 'The history could not be saved. Nothing was changed. (disk full)');
  assert.equal(errorText({ kind: 'from_the_future', detail: 'd' }), 'The history could not be saved. Nothing was changed. (d)');
  // A storage failure while a screen read what to show is told as a read, not a failed save;
  // other kinds read the same either way.
  assert.equal(errorText({ kind: 'storage', detail: 'disk I/O error' }, { reading: true }),
    'The history could not be read. Nothing was changed. (disk I/O error)');
  assert.equal(errorText({ kind: 'not_found', detail: 'match 9' }, { reading: true }), errorText({ kind: 'not_found', detail: 'match 9' }));
  inFrench(() => assert.equal(errorText({ kind: 'storage', detail: 'x' }, { reading: true }), 'L’historique n’a pas pu être lu. Rien n’a changé. (x)'));
  assert.equal(t('to_throw', { name: 'Anna' }), 'Anna to throw');
});

test('what a hub refuses and why a sync failed are said in the user language', () => {
  // The kinds a push can refuse a record with (docs/hub.md), each with words of its own.
  for (const kind of ['conflict', 'bad_record', 'bad_setup', 'bad_action', 'illegal_action', 'not_found']) {
    for (const lang of ['en', 'fr']) assert.ok(S[lang][`refused.${kind}`], `${lang} refused.${kind}`);
  }
  inFrench(() => {
    assert.equal(errorText({ kind: 'bad_record', code: 'hub_refused', detail: '500 Internal Server Error: disk' }),
      'Le hub a refusé la demande de cet appareil. Le hub dit (en anglais) : « 500 Internal Server Error: disk »');
    // The hub's own words (English) are quoted as its, after the sentence, not inside it.
    assert.ok(errorText({ kind: 'storage', code: 'hub_failing', detail: 'disk full' })
      .startsWith('Le hub a un problème de son côté. Rien n’est perdu'));
    assert.equal(errorText({ kind: 'not_found', code: 'hub_unreachable', detail: 'x' }), S.fr['code.hub_unreachable']);
  });
});

test('a count takes its singular where the language has one', () => {
  assert.equal(t('throws_left', { n: 1 }), '1 throw left');
  assert.equal(t('throws_left', { n: 0 }), '0 throws left');
  assert.equal(t('results_missing', { n: 2 }), '2 results missing');
  assert.equal(t('results_missing', { n: 1 }), '1 result missing');
  inFrench(() => {
    // French says the singular for 0 and 1.
    assert.equal(t('entrants_n', { n: 0 }), '0 inscrit');
    assert.equal(t('entrants_n', { n: 1 }), '1 inscrit');
    assert.equal(t('entrants_n', { n: 2 }), '2 inscrits');
    assert.equal(t('legs_won_n', { n: 1 }), '1 manche gagnée');
    // A name given as text (a pool's letter) is not a count.
    assert.equal(t('pool_n', { n: 'A' }), 'Poule A');
    assert.equal(t('mor_remove_n', { name: 'Anna', n: 2, colour: S.fr.mor_dark_pl }), 'Anna a fait 2 moulins : prenez 2 pions foncés');
    assert.equal(t('announce_throw', { name: 'Anna', n: 0, total: 5 }), 'Anna : 0 point, total 5.');
    assert.equal(t('bou_mene_scored', { name: 'Anna', n: 1 }), 'Anna gagne la mène : 1 point');
    assert.equal(t('misses_count', { n: 2 }), '2 manqués d’affilée');
    assert.equal(t('tournaments_played', { n: 0 }), '0 joué');
    assert.equal(t('bou_score_of', { n: 1, target: 13 }), '1 point sur 13');
    // Counts that agree with nothing: said as "label : number".
    assert.equal(t('wdl', { w: 1, d: 0, l: 2 }), 'gagnées : 1 · nulles : 0 · perdues : 2');
  });
  assert.equal(t('announce_throw', { name: 'Anna', n: 1, total: 5 }), 'Anna: 1 point, total 5.');
  assert.equal(t('announce_throw', { name: 'Anna', n: 0, total: 5 }), 'Anna: 0 points, total 5.');
  assert.equal(t('confirm_pins', { n: 1 }), 'Confirm · 1 pt');
  assert.equal(t('one_pin', { p: 1, n: 1 }), 'pin 1: 1 point');
  assert.equal(t('record_line', { n: 1, w: 1, l: 0, d: 0, rate: 100 }), '1 match · 1 won · 0 lost · 0 drawn · 100 % won');
  assert.equal(t('bou_enter_dice', { n: 1 }), 'What did the die show?');
  assert.equal(t('t_advance_n', { n: 1 }), 'the best of each pool');
  assert.equal(t('t_advance_n', { n: 2 }), 'best 2 of each pool');
  // Every singular form has its plural beside it, in both languages.
  for (const lang of ['en', 'fr']) {
    for (const key of Object.keys(S[lang]).filter((k) => k.endsWith('.one'))) {
      assert.ok(key.slice(0, -4) in S[lang], `${lang} ${key} without its plural`);
    }
  }
});
