//! Property tests: random throw sequences never panic, scores stay in 0..=target, and undoing
//! an action then applying it again gives the same state. Odd input (issue 20): an action with
//! a key it does not use plays as without it; a second action key, an optional key given as
//! `null` or a value of the wrong JSON type is `bad_action` and changes nothing; a record's
//! setup of the wrong JSON type is `bad_setup`, a file that is not a record `bad_record`.

use partie_core::boulomania::ai::plans;
use partie_core::rng::Rng;
use partie_core::{ErrorKind, Game, MatchState, Record};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn throw() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => proptest::sample::subsequence((1u8..=12).collect::<Vec<_>>(), 0..=3).prop_map(|p| json!({"pins": p})),
        1 => Just(json!({"pins": [], "foul": true})),
        1 => proptest::collection::vec(0u8..=14, 0..=3).prop_map(|p| json!({"pins": p})),
        1 => Just(json!({"pins": [4, 6, 8]})),
    ]
}

fn setup() -> impl Strategy<Value = (String, Map<String, Value>, Vec<Vec<String>>)> {
    let molkky = (
        10u32..=60,
        prop_oneof![Just("eliminate"), Just("zero"), Just("none")],
        2u32..=4,
        prop_oneof![Just(1u32), Just(3), Just(5)],
        proptest::bool::ANY,
        2usize..=5,
        1usize..=3,
    )
        .prop_map(|(target, pen, misses, best_of, foul_drop, n, team)| {
            let mut r = json!({"target": target, "three_misses": pen, "misses": misses, "best_of": best_of});
            if foul_drop {
                r["foul_drop"] = json!(target - 1);
            }
            let n = if best_of > 1 { 2 } else { n };
            let sides = (0..n).map(|s| (0..team).map(|p| format!("P{s}{p}")).collect()).collect();
            ("molkky".to_string(), r.as_object().unwrap().clone(), sides)
        });
    let molkkout = (1usize..=4, 1usize..=4).prop_map(|(a, b)| {
        let side = |n: usize, tag: &str| (0..n).map(|i| format!("{tag}{i}")).collect::<Vec<_>>();
        (
            "molkkout".to_string(),
            Map::new(),
            vec![side(a, "A"), side(b, "B")],
        )
    });
    prop_oneof![3 => molkky, 1 => molkkout]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_games_never_panic_and_stay_in_bounds(
        (game, rules, sides) in setup(),
        throws in proptest::collection::vec(throw(), 0..300),
    ) {
        let target = rules.get("target").and_then(Value::as_u64).unwrap_or(u64::MAX);
        let mut state = MatchState::setup(&game, &rules, &sides).unwrap();
        let mut applied: Vec<Value> = Vec::new();
        for t in &throws {
            let before = state.clone();
            match state.play(t) {
                Ok(next) => {
                    state = next;
                    applied.push(t.clone());
                }
                Err(refused) => {
                    prop_assert_eq!(&refused.state, &before, "a refusal changed the state");
                    state = refused.state;
                }
            }
            let s = state.summary();
            if s["phase"] == "leg" {
                for score in s["scores"].as_array().unwrap() {
                    prop_assert!(score.as_u64().unwrap() <= target, "score {} over target {}", score, target);
                }
            }
            prop_assert_eq!(s["turn"].is_null(), s["status"] != "playing");
        }
        // The record of what was applied replays to the very same state.
        let record = Record { format: 1, game, rules, sides, actions: applied };
        prop_assert_eq!(record.replay().unwrap(), state);
    }

    #[test]
    fn undo_then_redo_gives_the_same_state(
        (game, rules, sides) in setup(),
        throws in proptest::collection::vec(throw(), 1..120),
    ) {
        let mut record = Record { format: 1, game, rules, sides, actions: Vec::new() };
        let mut state = record.setup().unwrap();
        for t in throws {
            if let Ok(next) = state.clone().play(&t) {
                record.actions.push(t);
                state = next;
            }
        }
        // Every throw refused leaves nothing to take back: such a case checks nothing.
        prop_assume!(!record.actions.is_empty());
        let last = record.actions.pop().expect("assumed");
        let undone = record.replay().unwrap();
        let redone = undone.play(&last).map_err(|r| r.error).unwrap();
        prop_assert_eq!(redone.summary(), state.summary());
        prop_assert_eq!(redone, state);
    }
}

fn crokinole_action(sides: usize) -> impl Strategy<Value = Value> {
    let counts = proptest::collection::vec(0u32..=7, sides);
    prop_oneof![
        3 => (0..sides + 1).prop_map(|s| json!({"twenty": s})),
        3 => (counts.clone(), counts.clone(), counts.clone(), proptest::option::of(counts))
            .prop_map(|(a, b, c, t)| {
                let mut r = json!({"15": a, "10": b, "5": c});
                if let Some(t) = t {
                    r["20"] = json!(t);
                }
                json!({"round": r})
            }),
        1 => (0..sides + 1).prop_map(|s| json!({"starter": s})),
        1 => Just(json!({"round": {}})),
    ]
}

fn crokinole_setup() -> impl Strategy<Value = (Map<String, Value>, Vec<Vec<String>>)> {
    let shapes = prop_oneof![
        Just(vec![1, 1]),
        Just(vec![2, 2]),
        Just(vec![2, 1]),
        Just(vec![1, 2]),
        Just(vec![1, 1, 1])
    ];
    (
        shapes,
        prop_oneof![Just("points"), Just("rounds")],
        prop_oneof![Just("rotate"), Just("loser_chooses")],
        1u32..=12,
        prop_oneof![Just(50u32), Just(100), Just(150)],
    )
        .prop_map(|(shape, format, start, discs, target)| {
            let three = shape.len() == 3;
            let mut r = json!({"start_rule": start, "discs": discs, "target": target});
            if !three {
                r["format"] = json!(format);
            }
            let sides = shape
                .iter()
                .enumerate()
                .map(|(s, &n)| (0..n).map(|p| format!("P{s}{p}")).collect())
                .collect();
            (r.as_object().unwrap().clone(), sides)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_crokinole_games_never_panic(
        (rules, sides) in crokinole_setup(),
        picks in proptest::collection::vec(crokinole_action(3), 0..120),
    ) {
        let n = sides.len();
        let discs = rules["discs"].as_u64().unwrap();
        let mut state = MatchState::setup("crokinole", &rules, &sides).unwrap();
        let mut applied = Vec::new();
        for a in picks {
            let before = state.clone();
            match state.play(&a) {
                Ok(next) => { state = next; applied.push(a); }
                Err(r) => { prop_assert_eq!(&r.state, &before); state = r.state; }
            }
            let s = state.summary();
            for round in s["round_points"].as_array().unwrap() {
                let round = round.as_array().unwrap();
                prop_assert_eq!(round.len(), n);
                for p in round {
                    prop_assert!(p.as_u64().unwrap() <= 20 * discs);
                }
            }
            for live in s["live_twenties"].as_array().unwrap() {
                prop_assert!(live.as_u64().unwrap() <= discs);
            }
            prop_assert_eq!(s["turn"].is_null(), s["status"] != "playing");
        }
        let record = Record { format: 1, game: "crokinole".into(), rules, sides, actions: applied };
        prop_assert_eq!(record.replay().unwrap(), state);
    }
}

/// Any JSON value, small: scalars, lists and objects two levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..20).prop_map(Value::from),
        "[a-z0-9 ]{0,5}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            proptest::collection::btree_map("[a-z0-9]{1,4}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// The action keys of every game, as `docs/records.md` §1 lists them.
const ACTION_KEYS: [&str; 8] = [
    "pins",
    "twenty",
    "round",
    "starter",
    "jack",
    "point",
    "shoot",
    "shoot_jack",
];

/// The JSON type a key takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    List,
    Object,
    Bool,
    Text,
}

/// The keys an action uses, with their types, by the game pages: its action key (if it has
/// one) and the optional keys that go with it.
fn used_keys(action: &Map<String, Value>) -> Vec<(&'static str, Kind)> {
    use Kind::*;
    let key = ACTION_KEYS.into_iter().find(|k| action.contains_key(*k));
    match key {
        Some("pins") | None => vec![("pins", List), ("foul", Bool)],
        Some("point") => vec![("point", List), ("to", Text), ("via", Object)],
        Some("shoot") => vec![("shoot", Number), ("die", Number), ("via", Object)],
        Some("round") => vec![("round", Object)],
        Some(k) => vec![(k, Number)],
    }
    .into_iter()
    .filter(|(k, _)| action.contains_key(*k) || matches!(*k, "foul" | "to" | "via"))
    .collect()
}

/// A value of the wrong JSON type for `kind`, made from any value (for a list of numbers, a
/// list holding a string).
fn wrong_type(kind: Kind, v: Value) -> Value {
    let right = match kind {
        Kind::Number => v.is_number(),
        Kind::List => v.is_array(),
        Kind::Object => v.is_object(),
        Kind::Bool => v.is_boolean(),
        Kind::Text => v.is_string(),
    };
    match (right, kind) {
        (false, _) => v,
        (true, Kind::List) => json!([v.to_string()]),
        (true, _) => json!([v]),
    }
}

/// One change made to an action that the rules accept or refuse as given.
#[derive(Debug, Clone)]
enum Mutation {
    /// A key the action does not use, with any value: ignored.
    Unused(usize, Value),
    /// A second action key (of this game or another), with any value: `bad_action`.
    SecondKey(usize, Value),
    /// A key the action uses given as `null` (an optional key too): `bad_action`.
    Null(usize),
    /// A key the action uses given a value of the wrong JSON type: `bad_action`.
    WrongType(usize, Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any_json()).prop_map(|(i, v)| Mutation::Unused(i, v)),
        (any::<usize>(), any_json()).prop_map(|(i, v)| Mutation::SecondKey(i, v)),
        any::<usize>().prop_map(Mutation::Null),
        (any::<usize>(), any_json()).prop_map(|(i, v)| Mutation::WrongType(i, v)),
    ]
}

/// The action changed by `m`, and whether it must be refused as `bad_action` (else it must
/// play exactly as the action itself). `own` are the action keys of the game.
fn mutate(action: &Value, m: &Mutation, own: &[&str]) -> (Value, bool) {
    let Some(obj) = action.as_object() else {
        // A Morris token: any object or other non-string is malformed.
        return match m {
            Mutation::Unused(_, v) | Mutation::SecondKey(_, v) | Mutation::WrongType(_, v) => {
                let key = ACTION_KEYS[0];
                (json!({ key: action, "at": v }), true)
            }
            Mutation::Null(_) => (Value::Null, true),
        };
    };
    let used = used_keys(obj);
    let mut out = obj.clone();
    let bad = match m {
        Mutation::Unused(i, v) => {
            let names: Vec<&str> = ["at", "note", "foul", "to", "via", "die", "side", "zone"]
                .into_iter()
                .filter(|k| !used.iter().any(|(u, _)| u == k))
                .collect();
            out.insert(names[i % names.len()].to_string(), v.clone());
            false
        }
        Mutation::SecondKey(i, v) => {
            // An action without an action key (a Mölkky foul alone) takes a key of another
            // game: the game's own key would make it a whole action.
            let has_key = ACTION_KEYS.iter().any(|k| obj.contains_key(*k));
            let others: Vec<&str> = ACTION_KEYS
                .into_iter()
                .filter(|k| !obj.contains_key(*k) && (has_key || !own.contains(k)))
                .collect();
            out.insert(others[i % others.len()].to_string(), v.clone());
            true
        }
        Mutation::Null(i) => {
            out.insert(used[i % used.len()].0.to_string(), Value::Null);
            true
        }
        Mutation::WrongType(i, v) => {
            let (key, kind) = used[i % used.len()];
            out.insert(key.to_string(), wrong_type(kind, v.clone()));
            true
        }
    };
    (Value::Object(out), bad)
}

/// Plays `action` in `state` changed by `m`, and checks the answer against the action's own.
fn check_mutation(
    state: &MatchState,
    action: &Value,
    m: &Mutation,
    own: &[&str],
) -> Result<(), TestCaseError> {
    let (changed, bad) = mutate(action, m, own);
    let got = state.clone().play(&changed);
    if bad {
        match got {
            Ok(_) => prop_assert!(false, "{} accepted, expected bad_action", changed),
            Err(r) => {
                prop_assert_eq!(
                    r.error.kind,
                    ErrorKind::BadAction,
                    "{}: {}",
                    changed,
                    r.error
                );
                prop_assert_eq!(
                    &r.state,
                    state,
                    "{}: the refusal changed the state",
                    changed
                );
            }
        }
    } else {
        let want = state.clone().play(action);
        match (got, want) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "{} played unlike {}", changed, action),
            (Err(a), Err(b)) => {
                prop_assert_eq!(a.error.kind, b.error.kind, "{} unlike {}", changed, action);
                prop_assert_eq!(a.state, b.state);
            }
            (a, b) => prop_assert!(
                false,
                "{} gave {:?}, {} gave {:?}",
                changed,
                a.map(|_| ()).map_err(|r| r.error),
                action,
                b.map(|_| ()).map_err(|r| r.error)
            ),
        }
    }
    Ok(())
}

/// Plays `actions` from `state`, checking a mutation of each before it is played as given.
fn play_mutated(
    mut state: MatchState,
    actions: &[Value],
    mutations: &[Mutation],
    own: &[&str],
) -> Result<MatchState, TestCaseError> {
    for (a, m) in actions.iter().zip(mutations.iter().cycle()) {
        check_mutation(&state, a, m, own)?;
        state = match state.play(a) {
            Ok(next) => next,
            Err(r) => r.state,
        };
    }
    Ok(state)
}

/// A throw, a foul written alone, or a throw with a stray key.
fn any_throw() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => throw(),
        1 => Just(json!({"foul": true})),
        1 => Just(json!({"pins": [3], "foul": false, "at": "2026-06-01T14:00:00Z"})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn odd_molkky_throws_answer_the_contracts_kinds(
        (game, rules, sides) in setup(),
        throws in proptest::collection::vec(any_throw(), 1..150),
        mutations in proptest::collection::vec(mutation(), 1..20),
    ) {
        let state = MatchState::setup(&game, &rules, &sides).unwrap();
        play_mutated(state, &throws, &mutations, &["pins"])?;
    }

    #[test]
    fn odd_crokinole_actions_answer_the_contracts_kinds(
        (rules, sides) in crokinole_setup(),
        picks in proptest::collection::vec(crokinole_action(3), 1..80),
        mutations in proptest::collection::vec(mutation(), 1..20),
    ) {
        let state = MatchState::setup("crokinole", &rules, &sides).unwrap();
        play_mutated(state, &picks, &mutations, &["twenty", "round", "starter"])?;
    }

    #[test]
    fn odd_boulomania_actions_answer_the_contracts_kinds(
        seed in any::<u64>(),
        balls in 1u8..=4,
        target in 1u32..=4,
        mutations in proptest::collection::vec(mutation(), 1..20),
    ) {
        let rules = json!({"balls": balls, "target": target}).as_object().unwrap().clone();
        let sides = vec![vec!["A".to_string()], vec!["B".to_string(), "C".to_string()]];
        let mut state = MatchState::setup("boulomania", &rules, &sides).unwrap();
        let mut rng = Rng::new(seed);
        let own = ["jack", "point", "shoot", "shoot_jack"];
        let mut n = 0;
        // Random legal actions (the roll, then one of the choices it opens) to the end, and
        // one more after it.
        loop {
            let MatchState::Boulomania(g) = &state else { unreachable!() };
            let action = if g.is_over() || g.jack_due() {
                json!({"jack": 1 + rng.below(6)})
            } else {
                let options = plans(g);
                let plan = options[rng.below(options.len() as u64) as usize];
                let dice: Vec<u8> = (0..plan.dice()).map(|_| 1 + rng.below(6) as u8).collect();
                let outcomes = g.outcomes(&plan.with_dice(&dice));
                outcomes[rng.below(outcomes.len() as u64) as usize].0.to_json()
            };
            let over = g.is_over();
            state = play_mutated(state, &[action], &mutations[n % mutations.len()..][..1], &own)?;
            n += 1;
            if over || n > 2_000 {
                break;
            }
        }
    }

    #[test]
    fn odd_morris_actions_are_bad_actions(
        tokens in proptest::collection::vec(prop_oneof![Just("d6"), Just("a1"), Just("g7"), Just("xd6")], 1..8),
        mutations in proptest::collection::vec(mutation(), 1..8),
    ) {
        let sides = vec![vec!["A".to_string()], vec!["B".to_string()]];
        let state = MatchState::setup("morris", &Map::new(), &sides).unwrap();
        let actions: Vec<Value> = tokens.iter().map(|t| json!(t)).collect();
        play_mutated(state, &actions, &mutations, &[])?;
    }
}

/// A record's `sides`: often well formed, often not.
fn any_sides() -> impl Strategy<Value = Value> {
    let name = prop_oneof![4 => "[A-Z][a-z]{0,4}".prop_map(Value::from), 1 => any_json()];
    let side = prop_oneof![
        4 => proptest::collection::vec(name, 0..3).prop_map(Value::from),
        1 => any_json(),
    ];
    prop_oneof![
        3 => proptest::collection::vec(side, 0..4).prop_map(Value::from),
        1 => any_json(),
    ]
}

/// Whether `sides` has the JSON type of sides: a list of lists of strings.
fn sides_typed(sides: &Value) -> Option<Vec<Vec<String>>> {
    serde_json::from_value(sides.clone()).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn a_setup_of_the_wrong_type_is_bad_setup_and_a_non_record_bad_record(
        game in prop_oneof![Just("molkky"), Just("molkkout"), Just("crokinole"), Just("morris"), Just("boulomania"), Just("chess")],
        rules in proptest::option::of(prop_oneof![3 => Just(json!({})), 1 => Just(json!({"target": 12})), 3 => any_json()]),
        sides in proptest::option::of(any_sides()),
        broken in 0usize..6,
    ) {
        let mut record = json!({"format": 1, "game": game, "actions": []});
        if let Some(r) = &rules {
            record["rules"] = r.clone();
        }
        if let Some(s) = &sides {
            record["sides"] = s.clone();
        }
        // Not a record at all, whatever its setup.
        match broken {
            1 => record["format"] = json!(2),
            2 => { record.as_object_mut().unwrap().remove("game"); }
            3 => record["actions"] = json!({"0": "d6"}),
            4 => record = json!([record]),
            _ => {}
        }
        let text = record.to_string();
        let got = Record::from_json(&text).and_then(|r| r.replay().map(|_| ()));
        let typed_rules = match &rules {
            None => Some(Map::new()),
            Some(Value::Object(m)) => Some(m.clone()),
            Some(_) => None,
        };
        let typed_sides = sides.as_ref().and_then(sides_typed);
        let want = if (1..=4).contains(&broken) {
            Err(ErrorKind::BadRecord)
        } else {
            match (typed_rules, typed_sides) {
                (Some(r), Some(s)) => MatchState::setup(game, &r, &s).map(|_| ()).map_err(|e| e.kind),
                _ => Err(ErrorKind::BadSetup),
            }
        };
        prop_assert_eq!(got.map_err(|e| e.kind), want, "{}", text);
    }
}
