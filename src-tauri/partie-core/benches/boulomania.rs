//! The Boulomania computer's decision time (target: under 50 ms at the median): choosing what
//! to do by its expected value over every roll, in a busy mène.

use criterion::{criterion_group, criterion_main, Criterion};
use partie_core::boulomania::ai::{plan, play_turn};
use partie_core::boulomania::{Action, Boulomania};
use partie_core::rng::Rng;
use partie_core::Game;
use serde_json::{json, Map};
use std::hint::black_box;

fn busy_mene() -> Boulomania {
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut g = Boulomania::setup(&Map::new(), &sides).unwrap();
    for a in [
        json!({"jack": 2}),
        json!({"point": [3, 5]}),
        json!({"point": [4, 5]}),
        json!({"point": [6, 6, 1]}),
        json!({"point": [5, 6, 1]}),
        json!({"point": [2, 5]}),
    ] {
        g = g.play(&Action::from_json(&a).unwrap()).unwrap();
    }
    g
}

fn bench(c: &mut Criterion) {
    let g = busy_mene();
    c.bench_function("boulomania_plan_expected_value", |b| {
        b.iter(|| plan(black_box(&g), 2, &mut Rng::new(3)))
    });
    c.bench_function("boulomania_whole_turn_level_2", |b| {
        b.iter(|| play_turn(black_box(&g), 2, &mut Rng::new(3)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
