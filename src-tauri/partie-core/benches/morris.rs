//! Speed of the Morris issue, measured with criterion (figures in docs/performance.md):
//! - move generation: perft from the start and from a middle game (nodes per second = nodes
//!   divided by the time criterion reports);
//! - search: a fixed depth from both positions, and the time each computer level takes to
//!   answer in the app (levels 4 and 5 stop on their clock: 0.4 s, and 2.5 s while placing
//!   then 1.5 s);
//! - the exact endgame tables (three against three, four against three), with and without
//!   flying;
//! - replaying a long record whose moving phase has no removal (the repetition rule's count).

use criterion::{criterion_group, criterion_main, Criterion};
use partie_core::morris::endgame::Table;
use partie_core::morris::perft::perft;
use partie_core::morris::search::{Level, Limits, Searcher, STRONG};
use partie_core::morris::{Action, Morris};
use partie_core::Game;
use serde_json::{json, Map};
use std::hint::black_box;
use std::time::Duration;

/// The middle game of the repetition scenario: 18 pieces placed, moving.
const MIDDLE: [&str; 19] = [
    "f4", "c5", "d5", "g7", "f2", "a1", "e5", "d1", "a7", "g4", "b4", "b2", "d3", "e3", "c4", "e4",
    "b6", "d7", "f4-f6",
];

fn game(tokens: &[&str]) -> Morris {
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut g = Morris::setup(&Map::new(), &sides).unwrap();
    for t in tokens {
        g = g.play(&Action::from_json(&json!(t)).unwrap()).unwrap();
    }
    g
}

/// A long game with no removal under `quiet_moves: 0` (no limit), every position at most twice:
/// three pieces a side, flying, `moves` moves chosen by a fixed generator. Its record's actions.
fn long_quiet_game(moves: usize) -> (Map<String, serde_json::Value>, Vec<serde_json::Value>) {
    let rules: Map<String, serde_json::Value> =
        serde_json::from_value(json!({"pieces": 3, "quiet_moves": 0})).unwrap();
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut g = Morris::setup(&rules, &sides).unwrap();
    let mut seen = std::collections::HashMap::new();
    let mut actions = Vec::new();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    while actions.len() < moves {
        let pos = *g.position();
        let quiet: Vec<_> = g
            .legal()
            .into_iter()
            .filter(|&t| !pos.closes_mill(t))
            .filter(|&t| {
                !pos.after(t).is_moving() || seen.get(&pos.after(t).key()).copied().unwrap_or(0) < 2
            })
            .collect();
        assert!(
            !quiet.is_empty(),
            "the generator ran out of moves at {}",
            actions.len()
        );
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let t = quiet[(x % quiet.len() as u64) as usize];
        g = g.play(&Action::Token(t)).unwrap();
        if g.position().is_moving() {
            *seen.entry(g.position().key()).or_insert(0u8) += 1;
        }
        actions.push(json!(t.to_string()));
    }
    assert!(g.outcome().is_none());
    (rules, actions)
}

fn bench(c: &mut Criterion) {
    // Replaying a record whose moving phase has no removal: the repetition count must not
    // look back through every position of that phase at each move.
    let (rules, actions) = long_quiet_game(20_000);
    let record = partie_core::Record {
        format: partie_core::record::FORMAT,
        game: "morris".into(),
        rules,
        sides: vec![vec!["A".into()], vec!["B".into()]],
        actions,
    };
    let mut group = c.benchmark_group("morris_replay");
    group.sample_size(10);
    group.bench_function("replay_20000_moves_no_removal", |b| {
        b.iter(|| black_box(&record).replay().unwrap())
    });
    group.finish();

    let start = game(&[]);
    let middle = game(&MIDDLE);
    let mut group = c.benchmark_group("morris");
    group.sample_size(10);
    group.bench_function("perft_start_depth_5 (5,100,480 nodes)", |b| {
        b.iter(|| {
            perft(
                start.position(),
                black_box(5),
                &mut start.repetitions().clone(),
            )
        })
    });
    let n = perft(middle.position(), 5, &mut middle.repetitions().clone());
    group.bench_function(format!("perft_middle_depth_5 ({n} nodes)"), |b| {
        b.iter(|| {
            perft(
                middle.position(),
                black_box(5),
                &mut middle.repetitions().clone(),
            )
        })
    });
    for (name, g) in [("start", &start), ("middle", &middle)] {
        let mut searcher = Searcher::new(20);
        let limits = Limits {
            depth: 6,
            time: None,
            extra: None,
            stop: None,
            nodes: None,
        };
        let nodes = searcher
            .search(g.position(), g.repetitions(), &limits)
            .nodes;
        group.bench_function(format!("search_{name}_depth_6 ({nodes} nodes)"), |b| {
            b.iter(|| Searcher::new(20).search(g.position(), g.repetitions(), &limits))
        });
    }
    // Level 5's way of searching (quiescence, the middle game's terms, reductions) to a fixed
    // depth, with a 4 MB table so that the time is the search's and not the first touch of
    // level 5's 64 MB: what a change to the evaluation's or the search's speed buys.
    let placing = game(&MIDDLE[..8]);
    for (name, g, depth) in [("placing", &placing, 8), ("middle", &middle, 9)] {
        let strong = || {
            Searcher::new(18)
                .with_quiescence(true)
                .with_weights(STRONG)
                .with_reductions(true)
        };
        let limits = Limits {
            depth,
            time: None,
            extra: None,
            stop: None,
            nodes: None,
        };
        let nodes = strong()
            .search(g.position(), g.repetitions(), &limits)
            .nodes;
        group.bench_function(
            format!("strong_{name}_depth_{depth} ({nodes} nodes)"),
            |b| b.iter(|| strong().search(g.position(), g.repetitions(), &limits)),
        );
    }
    for level in 1..=4u8 {
        let l = Level::new(level).unwrap();
        group.bench_function(format!("level_{level}_answer_middle"), |b| {
            b.iter(|| l.choose(middle.position(), middle.repetitions(), 7, None))
        });
    }
    group.measurement_time(Duration::from_secs(30));
    for (name, flying) in [("flying", true), ("stepping", false)] {
        group.bench_function(format!("endgame_tables_three_and_four_{name}"), |b| {
            b.iter(|| Table::compute(flying, false))
        });
    }
    group.bench_function("level_5_answer_start", |b| {
        b.iter(|| {
            Level::new(5)
                .unwrap()
                .choose(start.position(), start.repetitions(), 7, None)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
