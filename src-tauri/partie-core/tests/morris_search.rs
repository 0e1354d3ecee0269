//! The search's shortcuts (transposition table, null windows, move ordering) must not change
//! what it finds: at a fixed depth its score is the plain minimax score over the same tokens,
//! repetitions and evaluation.

use partie_core::game::Game;
use partie_core::morris::position::Repetitions;
use partie_core::morris::search::{evaluate, Limits, Searcher, WIN};
use partie_core::morris::{Action, Morris, Outcome, Position};
use partie_core::rng::Rng;
use serde_json::Map;

/// Plain negamax, every token searched with nothing cut: a mill's removal is part of the same
/// turn (same depth, same side), as in the search.
fn minimax(pos: &Position, depth: i32, ply: i32, path: &mut Repetitions) -> i32 {
    if let Some(o) = pos.outcome() {
        return match o {
            Outcome::Won(w, _) if w == pos.turn() => WIN - ply,
            Outcome::Won(..) => -(WIN - ply),
            Outcome::Drawn(_) => 0,
        };
    }
    if depth <= 0 {
        return evaluate(pos);
    }
    let mut best = i32::MIN;
    for &t in pos.tokens().as_slice() {
        let next = pos.after(t);
        let mark = path.push(t, &next);
        let s = if path.reached(2, &next) {
            0
        } else if next.turn() == pos.turn() {
            minimax(&next, depth, ply + 1, path)
        } else {
            -minimax(&next, depth - 1, ply + 1, path)
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

#[test]
fn the_search_scores_as_plain_minimax_at_a_fixed_depth() {
    let found = positions(12);
    assert!(found.iter().any(|g| g.position().is_moving()));
    assert!(found.iter().any(|g| !g.position().is_moving()));
    for g in &found {
        for depth in 1..=3 {
            let mut searcher = Searcher::new(14);
            let limits = Limits {
                depth,
                ..Limits::default()
            };
            let report = searcher.search(g.position(), g.repetitions(), &limits);
            let mut path = g.repetitions().clone();
            let expected = minimax(g.position(), depth as i32, 0, &mut path);
            assert_eq!(
                report.score,
                expected,
                "depth {depth} after {}",
                g.move_list()
            );
            assert!(report.best.is_some_and(|t| g.position().is_legal(t)));
        }
    }
}
