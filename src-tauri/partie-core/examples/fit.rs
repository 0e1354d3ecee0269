//! Fits the evaluation's weights to the outcome of games (Texel's method): self-play games of
//! level 5's search at a fixed depth, every quiet position of them (no removal owed, no token
//! of the side to act closing a mill) labelled with the game's result for the side to act,
//! then the weights that make `1 / (1 + e^(-K × score))` nearest to those results. A piece
//! stays worth 100, so the scale does not drift; `K` is fitted first, to the weights given.
//!
//! ```sh
//! # GAMES self-play games at DEPTH from random openings of PLIES placements (SEED); the
//! # starting weights are level 5's (STRONG), or a list as `strength` takes them
//! cargo run --release -p partie-core --example fit -- 3000 6 4 1
//! # only the positions once every piece is placed (the weights that count only while placing
//! # then keep their values), the games played on two threads
//! cargo run --release -p partie-core --example fit -- 2000 8 4 3 --moving --threads 2
//! # the first ten quiet positions of each game's moving phase (the placing's end shape),
//! # each labelled by level 5's search at DEPTH (`--label DEPTH`) instead of the game's result,
//! # so that the evaluation learns what a deeper search sees there
//! cargo run --release -p partie-core --example fit -- 800 6 4 5 --label 11 --threads 2
//! # with them, the quiet positions of the last N placements (`--placing N`: N pieces or fewer
//! # in hand on both sides together), so that the placing's weights are fitted too
//! cargo run --release -p partie-core --example fit -- 800 6 4 5 --label 11 --placing 8 --threads 2
//! ```
//! prints the loss (mean squared error) on the positions fitted and on a tenth of the games
//! held out, before and after, and the fitted weights as a list for `strength` and `tune`.

use partie_core::game::Game;
use partie_core::morris::arena::random_opening;
use partie_core::morris::endgame::Table;
use partie_core::morris::search::{
    evaluate_with, shapes, Level, Limits, Searcher, Weights, SHAPES, STRONG,
};
use partie_core::morris::{Action, Morris, MorrisRules, Outcome, Position};
use partie_core::rng::Rng;

/// The weights in the order of [`Weights::with_list`].
const COUNT: usize = Weights::COUNT;

/// Weights with one of them 1 and the rest 0 (`None`: all 0).
fn unit(i: Option<usize>) -> Weights {
    let mut list = [0; COUNT];
    if let Some(i) = i {
        list[i] = 1;
    }
    Weights::default()
        .with_list(&list)
        .expect("sixteen weights")
}

/// A quiet position's terms: what the evaluation gives with no weights (the pieces), then
/// what each weight adds per unit, as (weight, amount) for the weights that add anything. The
/// evaluation is linear in its weights, so these give it for any weights. With `--shapes` the
/// weights are a table of shapes ([`SHAPES`]) on top of the weights given, which make `base`.
struct Sample {
    base: f64,
    terms: Vec<(usize, f64)>,
    result: f64,
}

fn samples(g: &Morris, positions: &[Position], shaped: Option<&Weights>) -> Vec<Sample> {
    let zero = unit(None);
    let units: Vec<Weights> = (0..COUNT).map(|i| unit(Some(i))).collect();
    positions
        .iter()
        .map(|p| {
            let (base, terms) = match shaped {
                Some(given) => {
                    let mut counts = vec![0.0; SHAPES];
                    shapes(p, p.turn(), |i| counts[i] += 1.0);
                    shapes(p, 1 - p.turn(), |i| counts[i] -= 1.0);
                    let terms = (0..SHAPES)
                        .filter(|&i| counts[i] != 0.0)
                        .map(|i| (i, counts[i]))
                        .collect();
                    (evaluate_with(p, given), terms)
                }
                None => {
                    let base = evaluate_with(p, &zero);
                    let terms = units
                        .iter()
                        .enumerate()
                        .map(|(i, w)| (i, (evaluate_with(p, w) - base) as f64))
                        .filter(|&(_, t)| t != 0.0)
                        .collect();
                    (base, terms)
                }
            };
            let result = match g.outcome() {
                Some(Outcome::Won(w, _)) if w == p.turn() => 1.0,
                Some(Outcome::Won(..)) => 0.0,
                _ => 0.5,
            };
            Sample {
                base: base as f64,
                terms,
                result,
            }
        })
        .collect()
}

fn quiet(p: &Position) -> bool {
    p.pending() == 0
        && p.outcome().is_none()
        && !p.tokens().as_slice().iter().any(|&t| p.closes_mill(t))
}

/// One self-play game after `plies` random tokens, and its quiet positions.
fn game(weights: Weights, depth: u32, plies: usize, rng: &mut Rng) -> (Morris, Vec<Position>) {
    let (mut g, _) = random_opening(plies, rng);
    let mut searchers = [0, 1].map(|_| {
        Searcher::new(18)
            .with_weights(weights)
            .with_quiescence(true)
            .with_reductions(true)
    });
    let limits = Limits {
        depth,
        ..Limits::default()
    };
    let mut positions = Vec::new();
    while !g.is_over() {
        if quiet(g.position()) {
            positions.push(*g.position());
        }
        let s = &mut searchers[g.position().turn() as usize];
        let t = s
            .search(g.position(), g.repetitions(), &limits)
            .best
            .expect("a side to act has a token");
        g = g.play(&Action::Token(t)).expect("a legal token");
    }
    (g, positions)
}

fn score(s: &Sample, w: &[f64]) -> f64 {
    s.base + s.terms.iter().map(|&(i, t)| t * w[i]).sum::<f64>()
}

fn sigmoid(k: f64, x: f64) -> f64 {
    1.0 / (1.0 + (-k * x).exp())
}

fn loss(set: &[Sample], k: f64, w: &[f64]) -> f64 {
    set.iter()
        .map(|s| (s.result - sigmoid(k, score(s, w))).powi(2))
        .sum::<f64>()
        / set.len() as f64
}

/// The `K` (per hundredth of a piece) that fits `w` best, by golden-section search.
fn fit_k(set: &[Sample], w: &[f64]) -> f64 {
    let (mut a, mut b) = (1e-4, 0.05);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (c, d) = (b - r * (b - a), a + r * (b - a));
        if loss(set, c, w) < loss(set, d, w) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Gradient descent (Adam) on the weights, `K` fixed, each weight's square times `l2` added
/// to the loss (a shape seen in few positions stays near nothing rather than fit their noise).
fn fit_weights(set: &[Sample], k: f64, start: Vec<f64>, steps: usize, l2: f64) -> Vec<f64> {
    let n = start.len();
    let mut w = start;
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (lr, b1, b2) = (0.5, 0.9, 0.999);
    for step in 1..=steps {
        let mut grad = vec![0.0; n];
        for s in set {
            let p = sigmoid(k, score(s, &w));
            let d = 2.0 * (p - s.result) * p * (1.0 - p) * k;
            for &(i, t) in &s.terms {
                grad[i] += d * t;
            }
        }
        for i in 0..n {
            let g = grad[i] / set.len() as f64 + 2.0 * l2 * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
    }
    w
}

/// The first quiet positions of a moving phase kept for labelling by search (`--label`).
const LABELLED: usize = 10;

/// The scale a search's score is read with as an expected result, `1 / (1 + e^(-K × score))`:
/// about the `K` fitted to games' results in earlier runs (docs/performance.md).
const LABEL_K: f64 = 0.0035;

/// Each position's expected result for the side to act, from level 5's search at `depth`
/// (its scores past a win or a loss read as ±30 pieces), on `threads` threads.
fn labels(positions: &[Position], depth: u32, threads: usize) -> Vec<f64> {
    let chunk = positions.len().div_ceil(threads).max(1);
    let done = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|part| {
                let done = &done;
                scope.spawn(move || {
                    // Level 5's own searcher, so that the labels follow level 5 if it changes.
                    let mut searcher = Level::new(5).expect("level 5").searcher();
                    let limits = Limits {
                        depth,
                        ..Limits::default()
                    };
                    part.iter()
                        .map(|p| {
                            let r = searcher.search(p, &Default::default(), &limits);
                            let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                            if d.is_multiple_of(1000) {
                                eprintln!("{d} positions labelled");
                            }
                            sigmoid(LABEL_K, f64::from(r.score.clamp(-3000, 3000)))
                        })
                        .collect::<Vec<f64>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a labelling thread"))
            .collect()
    })
}

/// The games and their quiet positions: `threads` threads, each with its own stream of
/// openings (`seed`, `seed + 1`, ...), game `n` played by thread `n % threads`; on one thread
/// the games are those of earlier runs with the same seed.
fn play_games(
    weights: Weights,
    games: usize,
    depth: u32,
    plies: usize,
    seed: u64,
    threads: usize,
) -> Vec<(Morris, Vec<Position>)> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let per_thread: Vec<Vec<(usize, Morris, Vec<Position>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let done = &done;
                scope.spawn(move || {
                    let mut rng = Rng::new(seed + i as u64);
                    (i..games)
                        .step_by(threads)
                        .map(|n| {
                            let (g, positions) = game(weights, depth, plies, &mut rng);
                            let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                            if d.is_multiple_of(100) {
                                eprintln!("{d} games");
                            }
                            (n, g, positions)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a game thread"))
            .collect()
    });
    let mut all: Vec<_> = per_thread.into_iter().flatten().collect();
    all.sort_by_key(|(n, ..)| *n);
    all.into_iter().map(|(_, g, p)| (g, p)).collect()
}

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    // A table of shapes fitted instead of the weights, written to this file (one per `--l2`).
    let shaped: Option<String> = match args.iter().position(|a| a == "--shapes") {
        Some(i) if i + 1 < args.len() => {
            let f = args.remove(i + 1);
            args.remove(i);
            Some(f)
        }
        Some(_) => Some(String::new()),
        None => None,
    };
    let l2s: Vec<f64> = match args.iter().position(|a| a == "--l2") {
        Some(i) if i + 1 < args.len() => {
            let list = args.remove(i + 1);
            args.remove(i);
            list.split(',')
                .map(|x| x.parse().expect("a regularisation"))
                .collect()
        }
        Some(_) => Vec::new(),
        None => vec![0.0],
    };
    let moving = match args.iter().position(|a| a == "--moving") {
        Some(i) => {
            args.remove(i);
            true
        }
        None => false,
    };
    let threads: usize = match args.iter().position(|a| a == "--threads") {
        Some(i) if i + 1 < args.len() => {
            let n = args.remove(i + 1).parse().expect("a number of threads");
            args.remove(i);
            n
        }
        Some(_) => 0,
        None => 1,
    };
    let label: Option<u32> = match args.iter().position(|a| a == "--label") {
        Some(i) if i + 1 < args.len() => {
            let d = args.remove(i + 1).parse().expect("a depth to label with");
            args.remove(i);
            Some(d)
        }
        Some(_) => Some(0),
        None => None,
    };
    let placing: Option<u32> = match args.iter().position(|a| a == "--placing") {
        Some(i) if i + 1 < args.len() => {
            let n = args
                .remove(i + 1)
                .parse()
                .expect("a number of pieces in hand");
            args.remove(i);
            Some(n)
        }
        Some(_) => Some(0),
        None => None,
    };
    if args.len() < 5
        || threads == 0
        || label == Some(0)
        || placing == Some(0)
        || (placing.is_some() && label.is_none())
        || shaped.as_deref() == Some("")
        || l2s.is_empty()
    {
        eprintln!(
            "usage: fit GAMES DEPTH PLIES SEED [WEIGHTS] [--moving] [--label DEPTH [--placing N]] [--threads N] [--shapes FILE] [--l2 X,Y,...]"
        );
        std::process::exit(2);
    }
    let games: usize = args[1].parse().expect("a number of games");
    let depth: u32 = args[2].parse().expect("a depth");
    let plies: usize = args[3].parse().expect("a number of plies");
    let seed: u64 = args[4].parse().expect("a seed");
    let weights = args.get(5).map_or(STRONG, |s| {
        let v: Vec<i32> = s
            .split(',')
            .map(|x| x.parse().expect("a whole number"))
            .collect();
        STRONG.with_list(&v).expect("at most sixteen weights")
    });
    // The endgame tables, computed once before the games (every game plays the default rules).
    Table::for_rules(&Position::start(MorrisRules::default()));
    let (mut fitted, mut held) = (Vec::new(), Vec::new());
    let (mut fitted_positions, mut held_positions) = (Vec::new(), Vec::new());
    let mut tally = [0u32; 3];
    for (n, (g, mut positions)) in play_games(weights, games, depth, plies, seed, threads)
        .into_iter()
        .enumerate()
    {
        tally[match g.outcome() {
            Some(Outcome::Won(0, _)) => 0,
            Some(Outcome::Won(..)) => 2,
            _ => 1,
        }] += 1;
        if moving || label.is_some() {
            let in_hand = |p: &Position| u32::from(p.in_hand(0)) + u32::from(p.in_hand(1));
            let last: Vec<Position> = positions
                .iter()
                .filter(|p| !p.is_moving() && placing.is_some_and(|n| in_hand(p) <= n))
                .copied()
                .collect();
            positions.retain(Position::is_moving);
            if label.is_some() {
                positions.truncate(LABELLED);
            }
            positions.splice(0..0, last);
        }
        let s = samples(&g, &positions, shaped.as_ref().map(|_| &weights));
        if n % 10 == 9 {
            held.extend(s);
            held_positions.extend(positions);
        } else {
            fitted.extend(s);
            fitted_positions.extend(positions);
        }
    }
    if let Some(depth) = label {
        // Labelled all at once, so that each thread keeps one searcher and its table.
        for (set, positions) in [
            (&mut fitted, &fitted_positions),
            (&mut held, &held_positions),
        ] {
            for (sample, result) in set.iter_mut().zip(labels(positions, depth, threads)) {
                sample.result = result;
            }
        }
    }
    println!(
        "{games} games (White won {}, drawn {}, Black won {}); {} positions fitted, {} held out",
        tally[0],
        tally[1],
        tally[2],
        fitted.len(),
        held.len()
    );
    let w0: Vec<f64> = match shaped {
        Some(_) => vec![0.0; SHAPES],
        None => weights.list().iter().map(|&x| f64::from(x)).collect(),
    };
    let k = fit_k(&fitted, &w0);
    println!(
        "K {k:.5}; given weights: loss {:.5}, held out {:.5}",
        loss(&fitted, k, &w0),
        loss(&held, k, &w0)
    );
    for l2 in l2s {
        // (The removal owed never counts in a quiet position, so its weight stays as given.)
        let rounded: Vec<f64> = fit_weights(&fitted, k, w0.clone(), 3000, l2)
            .into_iter()
            .map(f64::round)
            .collect();
        println!(
            "l2 {l2}: fitted: loss {:.5}, held out {:.5}",
            loss(&fitted, k, &rounded),
            loss(&held, k, &rounded)
        );
        let text: Vec<String> = rounded.iter().map(|&x| (x as i32).to_string()).collect();
        match &shaped {
            Some(file) => {
                let file = format!("{file}.{l2}");
                std::fs::write(&file, text.join(",")).expect("the table of shapes written");
                println!("written to {file}");
            }
            None => println!("{}", text.join(",")),
        }
    }
}
