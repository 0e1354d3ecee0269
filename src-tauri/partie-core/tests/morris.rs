//! Morris move generation checked two ways: the published perft counts from the start, and a
//! naive reference generator written from the rules' text (names, lines, "adjacent along a
//! line"), compared with the bitboard generator position by position; plus random games.

use partie_core::morris::perft::perft;
use partie_core::morris::position::Repetitions;
use partie_core::morris::{Action, Morris, Position, Token};
use partie_core::rng::Rng;
use partie_core::Game;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

const POINTS: [&str; 24] = [
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "d7", "e3",
    "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
];

/// The lines exactly as `docs/games/morris.md` draws them.
fn lines(diagonals: bool) -> Vec<[&'static str; 3]> {
    let mut l = vec![
        ["a7", "d7", "g7"],
        ["b6", "d6", "f6"],
        ["c5", "d5", "e5"],
        ["a4", "b4", "c4"],
        ["e4", "f4", "g4"],
        ["c3", "d3", "e3"],
        ["b2", "d2", "f2"],
        ["a1", "d1", "g1"],
        ["a1", "a4", "a7"],
        ["b2", "b4", "b6"],
        ["c3", "c4", "c5"],
        ["d1", "d2", "d3"],
        ["d5", "d6", "d7"],
        ["e3", "e4", "e5"],
        ["f2", "f4", "f6"],
        ["g1", "g4", "g7"],
    ];
    if diagonals {
        l.extend([
            ["a1", "b2", "c3"],
            ["g1", "f2", "e3"],
            ["a7", "b6", "c5"],
            ["g7", "f6", "e5"],
        ]);
    }
    l
}

fn game(rules: Value, tokens: &[&str]) -> Morris {
    let rules: Map<String, Value> = rules.as_object().unwrap().clone();
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut g = Morris::setup(&rules, &sides).unwrap();
    for t in tokens {
        g = g
            .play(&Action::from_json(&json!(t)).unwrap())
            .unwrap_or_else(|r| panic!("{t}: {:?}", r.error));
    }
    g
}

/// The legal tokens by the text of the rules, from the summary's board and counts alone.
fn reference_legal(g: &Morris, rules: &Value) -> BTreeSet<String> {
    let s = serde_json::to_value(g.summary()).unwrap();
    if s["status"] != "playing" {
        return BTreeSet::new();
    }
    let board: BTreeMap<String, u64> = s["board"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect();
    let turn = s["turn"].as_u64().unwrap();
    let diagonals = rules["diagonals"].as_bool().unwrap_or(false);
    let flying_rule = rules["flying"].as_bool().unwrap_or(true);
    let ls = lines(diagonals);
    let empty: Vec<&str> = POINTS
        .iter()
        .copied()
        .filter(|p| !board.contains_key(*p))
        .collect();
    let mine = |side: u64| -> Vec<&str> {
        POINTS
            .iter()
            .copied()
            .filter(|p| board.get(*p) == Some(&side))
            .collect()
    };
    let in_mill = |p: &str, side: u64| {
        ls.iter()
            .any(|l| l.contains(&p) && l.iter().all(|q| board.get(*q) == Some(&side)))
    };
    let mut out = BTreeSet::new();
    if s["pending_removal"] == true {
        let theirs = mine(1 - turn);
        let free: Vec<&str> = theirs
            .iter()
            .copied()
            .filter(|p| !in_mill(p, 1 - turn))
            .collect();
        for p in if free.is_empty() { theirs } else { free } {
            out.insert(format!("x{p}"));
        }
    } else if s["in_hand"][turn as usize].as_u64().unwrap() > 0 {
        out.extend(empty.iter().map(|p| p.to_string()));
    } else {
        let own = mine(turn);
        let flying = flying_rule && own.len() == 3;
        for a in &own {
            for b in &empty {
                let adjacent = ls.iter().any(|l| {
                    l.windows(2)
                        .any(|w| (w[0] == *a && w[1] == *b) || (w[1] == *a && w[0] == *b))
                });
                if flying || adjacent {
                    out.insert(format!("{a}-{b}"));
                }
            }
        }
    }
    out
}

#[test]
fn perft_from_the_start_matches_the_published_counts() {
    let g = game(json!({}), &[]);
    let counts: Vec<u64> = (1..=5)
        .map(|d| perft(g.position(), d, &mut Repetitions::default()))
        .collect();
    assert_eq!(counts, [24, 552, 12_144, 255_024, 5_100_480]);
}

/// Counts by walking the game itself (the checked `play`, the summary's legal list): slow but
/// independent of the bitboard fast path.
fn slow_perft(g: &Morris, depth: u32) -> u64 {
    if depth == 0 || g.is_over() {
        return 1;
    }
    g.legal()
        .into_iter()
        .map(|t| slow_perft(&g.clone().play(&Action::Token(t)).unwrap(), depth - 1))
        .sum()
}

#[test]
fn perft_agrees_with_the_checked_game_in_varied_positions() {
    let cases: &[(Value, &[&str], u32)] = &[
        // a removal due in the placing phase
        (json!({}), &["a1", "d6", "a4", "f4", "a7"], 4),
        // the diagonal board, with a diagonal mill close
        (json!({"diagonals": true}), &["a1", "d6", "b2", "f4"], 4),
        // the moving phase, with repetition in reach
        (
            json!({"repetition": 2}),
            &[
                "f4", "c5", "d5", "g7", "f2", "a1", "e5", "d1", "a7", "g4", "b4", "b2", "d3", "e3",
                "c4", "e4", "b6", "d7", "f4-f6",
            ],
            5,
        ),
        // three pieces each: everyone flies
        (
            json!({"pieces": 3}),
            &["d6", "a1", "f4", "a4", "b2", "g7"],
            3,
        ),
        // double mills removing each
        (
            json!({"double_mill": "each"}),
            &["a1", "d6", "a4", "f4", "d7", "b4", "g7", "c3"],
            4,
        ),
    ];
    for (rules, tokens, depth) in cases {
        let g = game(rules.clone(), tokens);
        let fast = perft(g.position(), *depth, &mut g.repetitions().clone());
        assert_eq!(fast, slow_perft(&g, *depth), "{rules} {tokens:?}");
    }
}

#[test]
fn the_generator_agrees_with_the_rules_text_along_random_games() {
    let variants = [
        json!({}),
        json!({"diagonals": true}),
        json!({"flying": false}),
        json!({"pieces": 4, "double_mill": "each"}),
        json!({"pieces": 12, "same_mill": "once"}),
    ];
    let mut positions = 0;
    for (i, rules) in variants.iter().enumerate() {
        for seed in 0..40 {
            let mut rng = Rng::new(seed * 31 + i as u64);
            let mut g = game(rules.clone(), &[]);
            for _ in 0..300 {
                let legal: BTreeSet<String> = g.legal().iter().map(Token::to_string).collect();
                assert_eq!(
                    legal,
                    reference_legal(&g, rules),
                    "{rules} after {}",
                    g.move_list()
                );
                positions += 1;
                if g.is_over() {
                    break;
                }
                let v: Vec<&String> = legal.iter().collect();
                let t = v[rng.below(v.len() as u64) as usize];
                g = g.play(&Action::from_json(&json!(t)).unwrap()).unwrap();
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
}

#[test]
fn a_mill_is_seen_closing_without_playing_the_token() {
    // The search orders every node's tokens by `closes_mill`; it must say what playing the
    // token says, under every rule that changes what a mill is.
    let variants = [
        json!({}),
        json!({"diagonals": true}),
        json!({"pieces": 4, "double_mill": "each"}),
        json!({"pieces": 12, "same_mill": "once"}),
    ];
    let (mut closing, mut quiet) = (0, 0);
    for (i, rules) in variants.iter().enumerate() {
        for seed in 0..30 {
            let mut rng = Rng::new(seed * 17 + i as u64);
            let mut g = game(rules.clone(), &[]);
            while !g.is_over() && g.turns().len() < 200 {
                let pos = *g.position();
                let legal = pos.tokens();
                for &t in legal.as_slice() {
                    let closes = pos.after(t).pending() > 0 && !matches!(t, Token::Remove(_));
                    assert_eq!(
                        pos.closes_mill(t),
                        closes,
                        "{rules} {t} after {}",
                        g.move_list()
                    );
                    if closes {
                        closing += 1;
                    } else {
                        quiet += 1;
                    }
                }
                let t = legal.as_slice()[rng.below(legal.len() as u64) as usize];
                g = g.play(&Action::Token(t)).unwrap();
            }
        }
    }
    assert!(closing > 1_000 && quiet > 10_000, "{closing} {quiet}");
}

/// Every token the board could name: 24 placements, 24 removals, 552 moves.
fn every_token() -> Vec<Token> {
    let mut v = Vec::new();
    for a in 0..24u8 {
        v.push(Token::Place(a));
        v.push(Token::Remove(a));
        for b in 0..24u8 {
            if a != b {
                v.push(Token::Move(a, b));
            }
        }
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Random legal games: no panic, pieces accounted for (on board + in hand + removed by the
    /// opponent = pieces), and `play` accepts exactly the generated tokens.
    #[test]
    fn random_games_keep_their_pieces_and_play_accepts_exactly_the_legal_tokens(
        seed in any::<u64>(),
        pieces in 3u8..=12,
        diagonals in any::<bool>(),
        flying in any::<bool>(),
        each in any::<bool>(),
    ) {
        let rules = json!({"pieces": pieces, "diagonals": diagonals, "flying": flying,
                           "double_mill": if each { "each" } else { "one" }});
        let mut g = game(rules, &[]);
        let mut rng = Rng::new(seed);
        let all = every_token();
        for _ in 0..400 {
            let s = serde_json::to_value(g.summary()).unwrap();
            for side in 0..2 {
                let total = s["on_board"][side].as_u64().unwrap()
                    + s["in_hand"][side].as_u64().unwrap()
                    + s["scores"][1 - side].as_u64().unwrap();
                prop_assert_eq!(total, pieces as u64);
            }
            let legal: BTreeSet<Token> = g.legal().into_iter().collect();
            let pos: &Position = g.position();
            for &t in &all {
                // As the app and the records apply it: the game-over refusal comes first.
                let state = partie_core::games::MatchState::Morris(Box::new(g.clone()));
                let accepted = state.play(&json!(t.to_string())).is_ok();
                prop_assert_eq!(accepted, legal.contains(&t), "{} in {}", t, g.move_list());
                prop_assert_eq!(pos.is_legal(t) && !g.is_over(), accepted);
            }
            if g.is_over() {
                break;
            }
            let v: Vec<Token> = legal.into_iter().collect();
            let t = v[rng.below(v.len() as u64) as usize];
            g = g.play(&Action::Token(t)).unwrap();
        }
    }
}

#[test]
fn a_move_list_round_trips_through_a_record() {
    let g = game(json!({}), &["a1", "d6", "a4", "f4", "a7", "xd6", "0-1"]);
    let list = g.move_list();
    assert_eq!(list, "1. a1 d6 2. a4 f4 3. a7xd6 0-1");
    let record = partie_core::Record::from_morris_move_list(&list, Map::new(), None).unwrap();
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.summary()["reason"], "resigned");
    assert_eq!(replayed.summary()["winner"], 1);
    let wrong = partie_core::Record::from_morris_move_list("1. a1 a1", Map::new(), None);
    assert_eq!(wrong.unwrap_err().kind, partie_core::ErrorKind::BadRecord);
}

#[test]
fn a_move_list_refused_names_the_word_and_keeps_the_reason() {
    // (text, the word named, the reason's code)
    let cases = [
        ("1. a1 a1", "a1", "occupied"),
        ("1. a1 z9", "z9", "morris_token"),
        ("1. a1 d6 2. a4 f4 3. a7xa1", "xa1", "not_opponent"),
        ("1. a1 d6?", "d6?", "not_a_move"),
        ("1. a1 1-0 d6", "d6", "after_result"),
    ];
    for (text, word, code) in cases {
        let e = partie_core::Record::from_morris_move_list(text, Map::new(), None).unwrap_err();
        assert_eq!(e.kind, partie_core::ErrorKind::BadRecord, "{text}");
        assert_eq!(e.subject.as_deref(), Some(word), "{text}");
        assert_eq!(e.code, Some(code), "{text}: {e}");
    }
    // With three pieces each, White's mill leaves Black two: the moves end 1-0, not 0-1.
    let three = json!({"pieces": 3}).as_object().unwrap().clone();
    let e =
        partie_core::Record::from_morris_move_list("1. a1 d6 2. a4 f4 3. a7xd6 0-1", three, None)
            .unwrap_err();
    assert_eq!(
        (e.code, e.subject.as_deref()),
        (Some("result_differs"), Some("0-1"))
    );
}

/// The summary's last turn is the whole of it: the placement or move and the points its mills
/// took (the screen shows the computer's move and what it took once its removal has come, and
/// the move alone while the removal is due); none after a resignation.
#[test]
fn the_last_turn_is_the_move_with_its_removals() {
    let turn = |tokens: &[&str]| {
        serde_json::to_value(game(json!({}), tokens).summary()).unwrap()["last_turn"].clone()
    };
    assert_eq!(turn(&[]), Value::Null);
    assert_eq!(
        turn(&["a7"]),
        json!({"side": 0, "from": null, "to": "a7", "removes": []})
    );
    let mill = ["a7", "b6", "d7", "c5", "g7"];
    assert_eq!(
        turn(&mill),
        json!({"side": 0, "from": null, "to": "g7", "removes": []})
    );
    let taken = [&mill[..], &["xb6"]].concat();
    assert_eq!(
        turn(&taken),
        json!({"side": 0, "from": null, "to": "g7", "removes": ["b6"]})
    );
    let next = [&taken[..], &["b6"]].concat();
    assert_eq!(
        turn(&next),
        json!({"side": 1, "from": null, "to": "b6", "removes": []})
    );
    assert_eq!(turn(&[&next[..], &["1-0"]].concat()), Value::Null);
}
