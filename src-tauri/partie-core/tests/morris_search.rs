//! The search's shortcuts (transposition table, null windows, move ordering, cut-offs past the
//! horizon) must not change what it finds: at a fixed depth its score is the plain minimax score
//! over the same tokens, repetitions and evaluation, with or without the quiescence search.
//! The one exception is level 5's reductions of late quiet tokens, which trade exactness for
//! depth on purpose (and their stronger form while placing): they are off unless asked for, and
//! checked apart at the end.

use partie_core::game::Game;
use partie_core::morris::position::Repetitions;
use partie_core::morris::search::{evaluate, Limits, Searcher, WIN};
use partie_core::morris::{Action, Morris, MorrisRules, Outcome, Position};
use partie_core::rng::Rng;
use serde_json::Map;
use std::collections::HashMap;

/// The score of a finished game, for the side to act.
fn result(pos: &Position, ply: i32) -> Option<i32> {
    Some(match pos.outcome()? {
        Outcome::Won(w, _) if w == pos.turn() => WIN - ply,
        Outcome::Won(..) => -(WIN - ply),
        Outcome::Drawn(_) => 0,
    })
}

/// Past the horizon, with nothing cut: a removal owed is made; otherwise the side to act takes
/// the better of stopping (the evaluation) and each token that closes a mill. Chains of mills
/// and their removals meet again, so scores are kept by position (and ply, which wins count).
fn quiet(pos: &Position, ply: i32, seen: &mut HashMap<(u64, u16, i32), i32>) -> i32 {
    if let Some(s) = result(pos, ply) {
        return s;
    }
    let key = (pos.search_key(), pos.quiet(), ply);
    if let Some(&s) = seen.get(&key) {
        return s;
    }
    let mut best = if pos.pending() > 0 {
        i32::MIN
    } else {
        evaluate(pos)
    };
    for &t in pos.tokens().as_slice() {
        let next = pos.after(t);
        let s = if next.turn() == pos.turn() {
            quiet(&next, ply + 1, seen)
        } else if pos.pending() > 0 {
            -quiet(&next, ply + 1, seen)
        } else {
            continue;
        };
        best = best.max(s);
    }
    seen.insert(key, best);
    best
}

/// Plain negamax, every token searched with nothing cut: a mill's removal is part of the same
/// turn (same depth, same side), as in the search; at the horizon the evaluation, or the
/// quiescence search when `deeper`.
fn minimax(pos: &Position, depth: i32, ply: i32, path: &mut Repetitions, deeper: bool) -> i32 {
    if let Some(s) = result(pos, ply) {
        return s;
    }
    if depth <= 0 {
        return if deeper {
            quiet(pos, ply, &mut HashMap::new())
        } else {
            evaluate(pos)
        };
    }
    let mut best = i32::MIN;
    for &t in pos.tokens().as_slice() {
        let next = pos.after(t);
        let mark = path.push(t, &next);
        let s = if path.reached(pos.rules().repetition.min(2), &next) {
            0
        } else if next.turn() == pos.turn() {
            minimax(&next, depth, ply + 1, path, deeper)
        } else {
            -minimax(&next, depth - 1, ply + 1, path, deeper)
        };
        path.pop(mark);
        best = best.max(s);
    }
    best
}

/// Positions along random games, in both phases, with more than ten pieces on the board while
/// moving (so that the exact table of few pieces stays out of it).
fn positions(games: u64) -> Vec<Morris> {
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut g = Morris::setup(&Map::new(), &sides).expect("default rules");
        for ply in 0..40 {
            if g.is_over() {
                break;
            }
            let p = g.position();
            let crowded = p.on_board(0) + p.on_board(1) > 10;
            if ply % 7 == 3 && (!p.is_moving() || crowded) && p.tokens().len() > 1 {
                out.push(g.clone());
            }
            let legal = g.legal();
            let t = legal[rng.below(legal.len() as u64) as usize];
            g = g.play(&Action::Token(t)).expect("a legal token");
        }
    }
    out
}

/// Checks the search (with late quiet tokens reduced when `reduced`) against plain minimax at
/// depths 1 to `deepest` on positions of random games; returns whether looking past the
/// horizon changed any of the scores.
fn scores_as_minimax(deeper: bool, deepest: u32, reduced: bool) -> bool {
    let found = positions(12);
    assert!(found.iter().any(|g| g.position().is_moving()));
    assert!(found.iter().any(|g| !g.position().is_moving()));
    let mut differs = false;
    for g in &found {
        for depth in 1..=deepest {
            let mut searcher = Searcher::new(14)
                .with_quiescence(deeper)
                .with_reductions(reduced);
            let limits = Limits {
                depth,
                ..Limits::default()
            };
            let report = searcher.search(g.position(), g.repetitions(), &limits);
            let mut path = g.repetitions().clone();
            let expected = minimax(g.position(), depth as i32, 0, &mut path, deeper);
            assert_eq!(
                report.score,
                expected,
                "depth {depth} after {}",
                g.move_list()
            );
            assert!(report.best.is_some_and(|t| g.position().is_legal(t)));
            if deeper {
                let mut path = g.repetitions().clone();
                differs |= expected != minimax(g.position(), depth as i32, 0, &mut path, false);
            }
        }
    }
    differs
}

#[test]
fn the_search_scores_as_plain_minimax_at_a_fixed_depth() {
    scores_as_minimax(false, 3, false);
}

#[test]
fn the_quiescence_search_scores_as_plain_minimax_past_the_horizon() {
    // Otherwise these positions would not tell the two searches apart.
    assert!(
        scores_as_minimax(true, 3, false),
        "looking past the horizon never counts"
    );
}

/// The points named, as a board.
fn board(names: &[&str]) -> u32 {
    names
        .iter()
        .map(|n| 1 << partie_core::morris::board::point(n).expect("a point"))
        .sum()
}

/// The best score falls when a threat is seen one turn deeper (the moment the strongest level
/// takes its extra time), and does not when the side to act is the one with the threat.
#[test]
fn a_threat_seen_one_turn_deeper_is_a_fall() {
    // The second side closes a7 next turn (d7-a7) and the first cannot stop it: a7's only
    // neighbours are the second side's a4 and d7, and the first side has no mill to close.
    let first = board(&["b2", "d6", "f4", "c4", "e5", "d1"]);
    let second = board(&["a1", "a4", "d7", "e3", "g4", "c5"]);
    let search = |turn: u8, depth: u32| {
        let pos = Position::moving(MorrisRules::default(), [first, second], turn).unwrap();
        let limits = Limits {
            depth,
            ..Limits::default()
        };
        Searcher::new(14).search(&pos, &Repetitions::default(), &limits)
    };
    let shallow = search(0, 1);
    let deep = search(0, 2);
    assert!(!shallow.fell, "one iteration has nothing to fall from");
    assert!(
        deep.score < shallow.score - 40,
        "{deep:?} after {shallow:?}"
    );
    assert!(deep.fell);
    // The side with the threat closes its mill at once; the score holds.
    let (shallow, deep) = (search(1, 1), search(1, 2));
    assert!(
        deep.score >= shallow.score - 40,
        "{deep:?} after {shallow:?}"
    );
    assert!(!deep.fell);
}

/// Late quiet tokens searched a turn shallower first (level 5) change nothing below depth 3:
/// the scores there are still plain minimax's.
#[test]
fn reductions_leave_the_shallow_search_as_minimax() {
    scores_as_minimax(false, 2, true);
}

/// What the reductions are for: on the same number of positions searched, the search with them
/// gets deeper, in total and on more positions than it gets less deep, in both phases.
#[test]
fn reductions_reach_deeper_on_the_same_positions() {
    let found = positions(4);
    let mut totals = [0u32; 2];
    let (mut deeper, mut shallower) = (0, 0);
    for g in &found {
        let depths = [false, true].map(|on| {
            let mut searcher = Searcher::new(18).with_quiescence(true).with_reductions(on);
            let limits = Limits {
                depth: 64,
                nodes: Some(200_000),
                ..Limits::default()
            };
            let report = searcher.search(g.position(), g.repetitions(), &limits);
            assert!(report.best.is_some_and(|t| g.position().is_legal(t)));
            report.depth
        });
        totals[0] += depths[0];
        totals[1] += depths[1];
        deeper += u32::from(depths[1] > depths[0]);
        shallower += u32::from(depths[1] < depths[0]);
    }
    assert!(
        totals[1] > totals[0] + found.len() as u32 / 2,
        "depths without and with reductions over {} positions: {totals:?}",
        found.len()
    );
    assert!(
        deeper > 2 * shallower,
        "deeper on {deeper}, less deep on {shallower} of {}",
        found.len()
    );
}

/// The stronger reductions while placing (measured for issue 21, no level uses them) leave the
/// moving phase's search exactly as it was, and search fewer positions while placing.
#[test]
fn placing_reductions_act_while_placing_only() {
    let found = positions(4);
    let mut placing_nodes = [0u64; 2];
    let mut moving = 0;
    for g in &found {
        let reports = [false, true].map(|on| {
            let mut searcher = Searcher::new(18)
                .with_quiescence(true)
                .with_reductions(true)
                .with_placing_reductions(on);
            let limits = Limits {
                depth: 6,
                ..Limits::default()
            };
            searcher.search(g.position(), g.repetitions(), &limits)
        });
        assert!(reports[1].best.is_some_and(|t| g.position().is_legal(t)));
        if g.position().is_moving() {
            let seen = reports.map(|r| (r.best, r.score, r.nodes));
            assert_eq!(seen[0], seen[1], "after {}", g.move_list());
            moving += 1;
        } else {
            placing_nodes[0] += reports[0].nodes;
            placing_nodes[1] += reports[1].nodes;
        }
    }
    // Both phases were searched: the moving phase's check above ran.
    assert!(moving > 0, "no moving-phase position among {}", found.len());
    assert!(
        placing_nodes[1] < placing_nodes[0],
        "positions searched while placing, without and with: {placing_nodes:?}"
    );
}
