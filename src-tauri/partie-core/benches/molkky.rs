//! Speed targets of the Mölkky issue, measured with criterion:
//! - a throw, from the call to the new summary with the action committed to a real file;
//! - replaying a 300-throw match.

use criterion::{criterion_group, criterion_main, Criterion};
use partie_core::store::Store;
use partie_core::{MatchState, Record};
use serde_json::{json, Map, Value};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn sides(n: usize) -> Vec<Vec<String>> {
    (0..n).map(|i| vec![format!("Player {i}")]).collect()
}

/// A 300-throw four-side match that is still going: throws that would end it are skipped.
fn long_record() -> Record {
    let rules = json!({"target": 200, "three_misses": "none"})
        .as_object()
        .unwrap()
        .clone();
    let mut record = Record {
        format: 1,
        game: "molkky".into(),
        rules,
        sides: sides(4),
        actions: Vec::new(),
    };
    let mut state = record.setup().unwrap();
    let cycle = [
        json!({"pins": [7]}),
        json!({"pins": [2, 3]}),
        json!({"pins": []}),
        json!({"pins": [12]}),
    ];
    let mut k = 0;
    while record.actions.len() < 300 {
        let t = &cycle[k % cycle.len()];
        k += 1;
        if let Ok(next) = state.clone().play(t) {
            if !next.is_over() {
                record.actions.push(t.clone());
                state = next;
            }
        }
    }
    record
}

fn replay(c: &mut Criterion) {
    let record = long_record();
    assert_eq!(record.actions.len(), 300);
    let text = serde_json::to_string(&record).unwrap();
    c.bench_function("replay_300_throws", |b| {
        b.iter(|| black_box(record.replay().unwrap()))
    });
    c.bench_function("replay_300_throws_from_json", |b| {
        b.iter(|| {
            black_box(
                Record::from_json(black_box(&text))
                    .unwrap()
                    .replay()
                    .unwrap(),
            )
        })
    });
}

fn throw_committed(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let (mut store, _) = Store::open(&dir.path().join("bench.db")).unwrap();
    let rules: Map<String, Value> = json!({"target": 200}).as_object().unwrap().clone();
    // Two throws per side of 9 points: a 60-throw match stays under 200, as a real one does.
    let throws = [
        json!({"pins": [7]}),
        json!({"pins": [7]}),
        json!({"pins": [2, 3]}),
        json!({"pins": [2, 3]}),
    ];
    c.bench_function("throw_committed_to_file", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut m = store.new_match("molkky", &rules, &sides(2)).unwrap();
            let mut n = 0;
            for _ in 0..iters {
                if n == 60 {
                    m = store.new_match("molkky", &rules, &sides(2)).unwrap();
                    n = 0;
                }
                let start = Instant::now();
                let view = store.play(m.id, &throws[n % throws.len()]).unwrap();
                total += start.elapsed();
                black_box(view);
                n += 1;
            }
            total
        })
    });
    // The floor: the same action row inserted and committed alone, on a file with the store's
    // settings (WAL, synchronous=NORMAL), in the same run. Issue 15 asks a throw to cost less
    // than twice this.
    let bare = rusqlite::Connection::open(dir.path().join("bare.db")).unwrap();
    bare.pragma_update_and_check(None, "journal_mode", "wal", |_| Ok(()))
        .unwrap();
    bare.pragma_update(None, "synchronous", "normal").unwrap();
    bare.execute_batch(
        "CREATE TABLE action (match_id INTEGER NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL,
         at INTEGER NOT NULL, PRIMARY KEY (match_id, seq)) WITHOUT ROWID;",
    )
    .unwrap();
    let body = throws[0].to_string();
    let mut seq = 0i64;
    c.bench_function("bare_insert_and_commit", |b| {
        b.iter(|| {
            bare.execute_batch("BEGIN IMMEDIATE").unwrap();
            bare.execute(
                "INSERT INTO action (match_id, seq, body, at) VALUES (1, ?1, ?2, ?3)",
                rusqlite::params![seq, body, seq],
            )
            .unwrap();
            bare.execute_batch("COMMIT").unwrap();
            seq += 1;
        })
    });
    // The same through the summary alone, to show where the time goes.
    let state = MatchState::setup("molkky", &rules, &sides(2)).unwrap();
    c.bench_function("throw_rules_only", |b| {
        b.iter(|| {
            black_box(
                state
                    .clone()
                    .play(black_box(&throws[0]))
                    .unwrap()
                    .summary_text(),
            )
        })
    });
}

criterion_group!(benches, replay, throw_committed);
criterion_main!(benches);
