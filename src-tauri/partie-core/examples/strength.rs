//! Matches between two ways of searching at a fixed time per move, for measuring what a change
//! to the search is worth. Each random opening is played twice, colours swapped, on two threads.
//!
//! ```sh
//! # a player: the time per move while placing and while moving, in ms, then optionally the
//! # eight weights of `tune`, and a final `q` to look past the horizon at the mills still to
//! # close (as level 5 does), then `x` to allow three times the time when the best score
//! # falls (as level 5 does); or `L1` to `L5` for the computer's levels
//! cargo run --release -p partie-core --example strength -- 600,400 L4 20
//! ```
//! prints the first player's wins, draws and losses over 2 × PAIRS games, and each lost game's
//! move list.

use partie_core::game::Game;
use partie_core::morris::arena::paired_match;
use partie_core::morris::search::{Level, Limits, Searcher, Weights, WEIGHTS};
use partie_core::morris::{Action, Morris, Token};
use serde_json::Map;
use std::time::Duration;

#[derive(Clone, Copy)]
enum Player {
    Search {
        quiescence: bool,
        /// Whether it may think three times as long when its best score falls (as level 5).
        extend: bool,
        weights: Weights,
        placing: u64,
        moving: u64,
    },
    Level(Level),
}

fn player(s: &str) -> Player {
    if let Some(n) = s.strip_prefix('L') {
        return Player::Level(Level::new(n.parse().expect("a level")).expect("levels 1 to 5"));
    }
    let (s, extend) = match s.strip_suffix('x') {
        Some(s) => (s, true),
        None => (s, false),
    };
    let (s, quiescence) = match s.strip_suffix('q') {
        Some(s) => (s, true),
        None => (s, false),
    };
    let v: Vec<i32> = s
        .split(',')
        .map(|x| x.parse().expect("a whole number"))
        .collect();
    let weights = match v[2..] {
        [] => WEIGHTS,
        [a, b, c, d, e, f, g, h] => Weights {
            mill_placing: a,
            mill_moving: b,
            two: c,
            fork: d,
            mobility: e,
            stuck_placing: f,
            stuck_moving: g,
            pending: h,
        },
        _ => panic!("PLACING_MS,MOVING_MS[,EIGHT_WEIGHTS]"),
    };
    Player::Search {
        quiescence,
        extend,
        weights,
        placing: v[0] as u64,
        moving: v[1] as u64,
    }
}

/// The game `p[side]` plays as `side` after `opening`.
fn game(p: [Player; 2], opening: &[Token], seed: u64) -> Morris {
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut g = Morris::setup(&Map::new(), &sides).expect("default rules");
    for &t in opening {
        g = g.play(&Action::Token(t)).expect("a legal opening");
    }
    // Each side keeps its table for the whole game, as the strongest level does.
    let mut searchers = p.map(|p| match p {
        Player::Search {
            weights,
            quiescence,
            ..
        } => Some(
            Searcher::new(22)
                .with_weights(weights)
                .with_quiescence(quiescence),
        ),
        Player::Level(_) => None,
    });
    while !g.is_over() {
        let side = g.position().turn() as usize;
        let t = match (p[side], &mut searchers[side]) {
            (
                Player::Search {
                    placing,
                    moving,
                    extend,
                    ..
                },
                Some(s),
            ) => {
                let ms = if g.position().is_moving() {
                    moving
                } else {
                    placing
                };
                let limits = Limits {
                    depth: 64,
                    time: Some(Duration::from_millis(ms)),
                    extra: extend.then(|| Duration::from_millis(2 * ms)),
                    stop: None,
                    nodes: None,
                };
                s.search(g.position(), g.repetitions(), &limits).best
            }
            (Player::Level(l), _) => l.choose(g.position(), g.repetitions(), seed, None),
            _ => unreachable!("a searcher for each searching side"),
        }
        .expect("a side to act has a token");
        g = g
            .play(&Action::Token(t))
            .expect("the search plays legal tokens");
    }
    g
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: strength PLAYER_A PLAYER_B PAIRS [SEED]");
        std::process::exit(2);
    }
    let (a, b) = (player(&args[1]), player(&args[2]));
    let pairs: u64 = args[3].parse().expect("a number of pairs");
    let seed: u64 = args.get(4).map_or(1, |x| x.parse().expect("a seed"));
    let tally = paired_match(
        pairs,
        2,
        seed,
        |opening, a_plays, seed| game(if a_plays == 0 { [a, b] } else { [b, a] }, opening, seed),
        |g, a_plays| println!("lost as side {a_plays}: {}", g.move_list()),
    );
    println!("{} - {} - {}", tally.wins, tally.draws, tally.losses);
}
