//! How deep two ways of searching get in the same time, over the positions of a few games:
//! what a change to the search's speed or pruning buys before any match is played.
//!
//! ```sh
//! # FLAGS as in `strength` (q, s, e, l, p, t, w, v and a margin, and h with the table of shapes in the file
//! # PARTIE_SHAPES names), TIME in ms per position
//! cargo run --release -p partie-core --example depth -- qxs qxsl 200 10 1
//! # the positions while pieces are placed only, every one of them
//! cargo run --release -p partie-core --example depth -- qxsl qxslp 200 10 1 placing
//! ```
//! prints, for each player, the mean depth reached and the mean positions searched, over the
//! positions every fourth turn of GAMES games (level 5 at 50 ms a move plays them).

use partie_core::game::Game;
use partie_core::morris::search::{shapes_from_text, Limits, Searcher, STRONG, WEIGHTS};
use partie_core::morris::{Action, Morris};
use partie_core::rng::Rng;
use serde_json::Map;
use std::time::Duration;

fn searcher(flags: &str) -> Searcher {
    let mut weights = if flags.contains('s') { STRONG } else { WEIGHTS };
    if flags.contains('h') {
        let file = std::env::var("PARTIE_SHAPES").expect("PARTIE_SHAPES names a table of shapes");
        let text = std::fs::read_to_string(file).expect("the table of shapes read");
        weights.shapes = Some(Box::leak(
            shapes_from_text(&text).expect("a table of SHAPES whole numbers"),
        ));
    }
    Searcher::new(22)
        .with_weights(weights)
        .with_quiescence(flags.contains('q'))
        .with_extensions(flags.contains('e'))
        .with_reductions(flags.contains('l'))
        .with_placing_reductions(flags.contains('p'))
        .with_transition(if flags.contains('t') { 2 } else { 0 })
        .with_two_tier(flags.contains('w'))
        // `v` and a margin: `Searcher::with_futility` (`qxslwv50`).
        .with_futility(
            flags
                .split_once('v')
                .map_or(0, |(_, m)| m.parse().expect("a margin after v")),
        )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: depth FLAGS_A FLAGS_B TIME_MS GAMES [SEED] [placing]");
        std::process::exit(2);
    }
    let ms: u64 = args[3].parse().expect("a time in ms");
    let games: u32 = args[4].parse().expect("a number of games");
    let mut rng = Rng::new(args.get(5).map_or(1, |s| s.parse().expect("a seed")));
    let placing_only = args.get(6).is_some_and(|a| a == "placing");
    let limits = |ms| Limits {
        depth: 64,
        time: Some(Duration::from_millis(ms)),
        extra: None,
        stop: None,
        nodes: None,
    };
    // [depth sum, node sum] for each player, and the positions measured.
    let mut sums = [[0u64; 2]; 2];
    let mut positions = 0u64;
    for _ in 0..games {
        let sides = [vec!["A".to_string()], vec!["B".to_string()]];
        let mut g = Morris::setup(&Map::new(), &sides).expect("default rules");
        for _ in 0..2 {
            let legal = g.legal();
            let t = legal[rng.below(legal.len() as u64) as usize];
            g = g.play(&Action::Token(t)).expect("a legal token");
        }
        let mut player = searcher("qxs");
        let mut turn = 0;
        // (Measuring the placing only, the game stops once every piece is placed.)
        let done = |g: &Morris| g.is_over() || (placing_only && g.position().is_moving());
        while !done(&g) {
            if placing_only || turn % 4 == 0 {
                positions += 1;
                for (i, flags) in args[1..3].iter().enumerate() {
                    let r = searcher(flags).search(g.position(), g.repetitions(), &limits(ms));
                    sums[i][0] += u64::from(r.depth);
                    sums[i][1] += r.nodes;
                }
            }
            let t = player
                .search(g.position(), g.repetitions(), &limits(50))
                .best
                .expect("a token");
            g = g.play(&Action::Token(t)).expect("a legal token");
            turn += 1;
        }
    }
    for (i, flags) in args[1..3].iter().enumerate() {
        println!(
            "{flags}: depth {:.2}, positions {:.0} (over {positions} positions)",
            sums[i][0] as f64 / positions as f64,
            sums[i][1] as f64 / positions as f64
        );
    }
}
