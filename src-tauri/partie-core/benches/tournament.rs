//! Tournament scale targets (issue 16): Swiss pairing of 64 entrants in round 9 with many
//! equal scores (< 50 ms) and of 256 entrants (< 1 s); the standings of a 64-entrant, 9-round
//! tournament (< 5 ms); replaying a 64-entrant tournament with its 288 results (< 100 ms).

use criterion::{criterion_group, criterion_main, Criterion};
use partie_core::tournament::{replay, Event, Tournament};
use serde_json::{json, Value};
use std::hint::black_box;

/// Plays `rounds` rounds of the tournament `setup`: each round's pairing, then for each of its
/// tables the result event `result(round, table)` gives. The state and the events.
fn play_rounds(
    setup: &Value,
    rounds: usize,
    mut result: impl FnMut(usize, u64) -> Value,
) -> (Tournament, Vec<Value>) {
    let mut t = Tournament::setup(setup).unwrap();
    let mut events = Vec::new();
    for r in 1..=rounds {
        events.push(json!({"pair": {}}));
        t = t.play(&Event::Pair).unwrap();
        let tables: Vec<u64> = t.summary()["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["table"].as_u64().unwrap())
            .collect();
        for table in tables {
            let e = result(r, table);
            t = t.play_json(&e).unwrap();
            events.push(e);
        }
    }
    (t, events)
}

/// A Swiss night of `n` entrants and `rounds` rounds with `played` rounds played: results
/// drawn from a small generator with few distinct scores, so that many entrants stay equal.
fn swiss(n: usize, rounds: usize, played: usize) -> (Value, Vec<Value>) {
    let setup = json!({
        "game": "molkky",
        "system": "swiss",
        "rounds": rounds,
        "entrants": (0..n).map(|i| json!([format!("Player {i}")])).collect::<Vec<_>>(),
    });
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let (_, events) = play_rounds(&setup, played, |r, table| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (winner, scores) = match x % 5 {
            0 => (Value::Null, [1, 1]),
            1 | 2 => (json!(0), [2, x % 2]),
            _ => (json!(1), [x % 2, 2]),
        };
        json!({"result": {"round": r, "table": table, "winner": winner, "scores": scores}})
    });
    (setup, events)
}

/// A whole round robin of `n` entrants, one side winning each match by the table's parity.
fn round_robin(n: usize) -> (Value, Vec<Value>) {
    let setup = json!({
        "game": "molkky",
        "system": "round_robin",
        "entrants": (0..n).map(|i| json!([format!("Player {i}")])).collect::<Vec<_>>(),
    });
    let (t, events) = play_rounds(&setup, n - 1, |r, table| {
        let winner = table % 2;
        let scores = if winner == 0 { [50, 31] } else { [20, 50] };
        json!({"result": {"round": r, "table": table, "winner": winner, "scores": scores}})
    });
    assert_eq!(t.summary()["status"], "finished");
    (setup, events)
}

/// A finished 64-entrant, 9-round Swiss Mölkky night in a database file: every one of its 288
/// matches scored in the app (a short game each) and linked to its table.
fn stored_night(dir: &std::path::Path) -> (partie_core::store::Store, i64) {
    use partie_core::store::Store;
    let (mut store, _) = Store::open(&dir.join("night.db")).unwrap();
    let setup = json!({
        "game": "molkky", "system": "swiss", "rounds": 9,
        "entrants": (0..64).map(|i| json!([format!("Player {i}")])).collect::<Vec<_>>(),
    });
    let id = store.new_tournament(&setup).unwrap().id;
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..9 {
        let view = store.tournament_event(id, &json!({"pair": {}})).unwrap();
        let tables: Vec<usize> = view.summary["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["table"].as_u64().unwrap() as usize)
            .collect();
        for table in tables {
            let m = store.start_table(id, table).unwrap().id;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // 12, 12, 12, 12, 2 for the side that wins, 1s for the other.
            let winner = (x % 2) as usize;
            for turn in 0..10 {
                let side = turn % 2;
                let pins = if side == winner {
                    if turn / 2 < 4 {
                        json!([12])
                    } else {
                        json!([2])
                    }
                } else {
                    json!([1])
                };
                if store.play(m, &json!({ "pins": pins })).is_err() {
                    break;
                }
            }
        }
    }
    (store, id)
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let (store, id) = stored_night(dir.path());
    assert_eq!(store.tournament(id).unwrap().summary["status"], "finished");
    c.bench_function("tournament_64_entrants_288_matches_from_database", |b| {
        b.iter(|| store.tournament(black_box(id)).unwrap())
    });
    c.bench_function(
        "tournament_and_its_288_match_records_replayed_from_database",
        |b| {
            b.iter(|| {
                let export = store.export_tournament(black_box(id)).unwrap();
                for m in export["matches"].as_array().unwrap() {
                    partie_core::Record::from_json(&m.to_string())
                        .unwrap()
                        .replay()
                        .unwrap();
                }
            })
        },
    );

    let (setup, events) = swiss(64, 9, 8);
    let before_9 = replay(&setup, &events).unwrap();
    c.bench_function("swiss_pair_64_round_9", |b| {
        b.iter(|| black_box(before_9.clone()).play(&Event::Pair).unwrap())
    });

    let (setup, events) = swiss(64, 9, 9);
    let night = replay(&setup, &events).unwrap();
    assert_eq!(night.summary()["status"], "finished");
    c.bench_function("standings_64_entrants_9_rounds", |b| {
        b.iter(|| black_box(&night).standings())
    });
    let record = json!({"format": 1, "tournament": setup, "events": events}).to_string();
    c.bench_function("replay_64_entrants_288_results_from_json", |b| {
        b.iter(|| {
            partie_core::tournament::TournamentRecord::from_json(black_box(&record))
                .unwrap()
                .replay()
                .unwrap()
        })
    });

    // A long record: a round robin of 128 entrants, 127 rounds and 8,128 results. Each event
    // is played in place; a copy of the field at each one made this quadratic.
    let (setup, events) = round_robin(128);
    let long = json!({"format": 1, "tournament": setup, "events": events}).to_string();
    let mut group = c.benchmark_group("long");
    group.sample_size(10);
    group.bench_function("replay_round_robin_128_entrants_8128_results", |b| {
        b.iter(|| {
            partie_core::tournament::TournamentRecord::from_json(black_box(&long))
                .unwrap()
                .replay()
                .unwrap()
        })
    });
    group.finish();

    let (setup, events) = swiss(256, 9, 8);
    let big = replay(&setup, &events).unwrap();
    let mut group = c.benchmark_group("large");
    group.sample_size(10);
    group.bench_function("swiss_pair_256_round_9", |b| {
        b.iter(|| black_box(big.clone()).play(&Event::Pair).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
