//! Matches between two sets of evaluation weights at a fixed search depth, for tuning
//! [`partie_core::morris::search::WEIGHTS`]. Each random opening is played twice, colours
//! swapped, so that an opening that favours one side does not favour one weight set.
//!
//! ```sh
//! # weights: mill_placing,mill_moving,two,fork,mobility,stuck_placing,stuck_moving,pending
//! # and optionally closable,unblockable,running,double_mill,cramped(,looming(,mobility_moving(,reach)))
//! # (issue 21; `Weights::with_list`), then `q` for the quiescence search and `e` for the
//! # extensions where a blockade comes
//! cargo run --release -p partie-core --example tune -- 12,12,18,35,10,20,30,90 12,12,18,0,3,2,8,90 6 100
//! ```
//! prints the first set's wins, draws and losses over 2 × PAIRS games, one at a time unless
//! THREADS is 2.

use partie_core::game::Game;
use partie_core::morris::arena::paired_match;
use partie_core::morris::search::{Limits, Searcher, Weights};
use partie_core::morris::{Action, Morris, Token};
use serde_json::Map;

/// A weight set (eight weights, the middle game's six then 0 and one mobility for both phases;
/// or thirteen to sixteen), with the letters `q` (quiescence search) and `e` (extensions where a blockade comes) after it.
#[derive(Clone, Copy)]
struct Side {
    weights: Weights,
    quiescence: bool,
    extensions: bool,
}

fn side(s: &str) -> Side {
    let flags: String = s.chars().filter(|c| c.is_ascii_alphabetic()).collect();
    let v: Vec<i32> = s
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .split(',')
        .map(|x| x.parse().expect("a weight is a whole number"))
        .collect();
    assert!(
        matches!(v.len(), 8 | 13..=Weights::COUNT),
        "eight, or thirteen to sixteen weights"
    );
    Side {
        weights: Weights::default()
            .with_list(&v)
            .expect("at most sixteen weights"),
        quiescence: flags.contains('q'),
        extensions: flags.contains('e'),
    }
}

fn new_game() -> Morris {
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    Morris::setup(&Map::new(), &sides).expect("default rules")
}

/// The game `w[side]` plays as `side` after `opening`.
fn game(w: [Side; 2], depth: u32, opening: &[Token]) -> Morris {
    let mut g = new_game();
    for &t in opening {
        g = g.play(&Action::Token(t)).expect("a legal opening");
    }
    let mut searchers = w.map(|w| {
        Searcher::new(18)
            .with_weights(w.weights)
            .with_quiescence(w.quiescence)
            .with_extensions(w.extensions)
    });
    let limits = Limits {
        depth,
        ..Limits::default()
    };
    while !g.is_over() {
        let s = &mut searchers[g.position().turn() as usize];
        let t = s
            .search(g.position(), g.repetitions(), &limits)
            .best
            .expect("a side to act has a token");
        g = g
            .play(&Action::Token(t))
            .expect("the search plays legal tokens");
    }
    g
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: tune WEIGHTS_A WEIGHTS_B DEPTH PAIRS [OPENING_PLIES] [THREADS]");
        std::process::exit(2);
    }
    let (a, b) = (side(&args[1]), side(&args[2]));
    let depth: u32 = args[3].parse().expect("a depth");
    let pairs: u64 = args[4].parse().expect("a number of pairs");
    let plies: usize = args
        .get(5)
        .map_or(2, |x| x.parse().expect("a number of plies"));
    let threads: u64 = args
        .get(6)
        .map_or(1, |x| x.parse().expect("1 or 2 threads"));
    let tally = paired_match(
        threads,
        pairs,
        plies,
        1000,
        |opening, a_side, _| game(if a_side == 0 { [a, b] } else { [b, a] }, depth, opening),
        |_, _| {},
    );
    println!(
        "A {} won, {} drawn, {} lost",
        tally.wins, tally.draws, tally.losses
    );
}
