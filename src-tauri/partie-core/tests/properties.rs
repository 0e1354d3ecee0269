//! Property tests: random throw sequences never panic, scores stay in 0..=target, and undoing
//! an action then applying it again gives the same state.

use partie_core::{MatchState, Record};
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
        if let Some(last) = record.actions.pop() {
            let undone = record.replay().unwrap();
            let redone = undone.play(&last).map_err(|r| r.error).unwrap();
            prop_assert_eq!(redone.summary(), state.summary());
            prop_assert_eq!(redone, state);
        }
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
