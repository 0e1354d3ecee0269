//! Scale targets of the history issue, on a generated club history of 100,000 matches and
//! 5 million actions: the history's first page, a player's statistics, opening the store; and
//! of the ratings issue: every rating of the club from scratch, and the leaderboard by rating
//! once they are computed.
//!
//! The database is generated once into $CARGO_TARGET_DIR/partie-club-100k.db (about a
//! minute) and reused; `PARTIE_CLUB_MATCHES` makes a smaller one for a quick look.

use criterion::{criterion_group, criterion_main, Criterion};
use partie_core::stats::figures;
use partie_core::store::{HistoryFilter, Store};
use partie_core::Record;
use rusqlite::{params, Connection};
use serde_json::{json, Value};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

/// A small deterministic generator (xorshift), so every run builds the same club.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const PLAYERS: u64 = 60;

/// A finished Mölkky match of about 50 throws between 2 to 4 of the club's players.
fn molkky_match(rng: &mut Rng) -> (Vec<u64>, Record) {
    let n = 2 + rng.below(3) as usize;
    let mut who: Vec<u64> = Vec::new();
    while who.len() < n {
        let p = rng.below(PLAYERS);
        if !who.contains(&p) {
            who.push(p);
        }
    }
    let sides = who.iter().map(|p| vec![format!("Player {p}")]).collect();
    let rules = json!({"target": 50, "three_misses": "zero"})
        .as_object()
        .unwrap()
        .clone();
    let mut record = Record {
        format: 1,
        game: "molkky".into(),
        rules,
        sides,
        actions: Vec::new(),
    };
    let mut state = record.setup().unwrap();
    while !state.is_over() && record.actions.len() < 400 {
        let throw = match rng.below(10) {
            0 | 1 => json!({"pins": []}),
            2 => {
                let first = rng.below(12);
                let second = (first + 1 + rng.below(11)) % 12;
                json!({"pins": [first + 1, second + 1]})
            }
            _ => json!({"pins": [1 + rng.below(12)]}),
        };
        if let Ok(next) = state.clone().play(&throw) {
            state = next;
            record.actions.push(throw);
        }
    }
    (who, record)
}

fn club_db() -> PathBuf {
    let matches: usize = std::env::var("PARTIE_CLUB_MATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"));
    let path = target.join(format!("partie-club-{}k.db", matches / 1000));
    if path.exists() {
        return path;
    }
    let started = Instant::now();
    let tmp = path.with_extension("partial");
    let _ = std::fs::remove_file(&tmp);
    drop(Store::open(&tmp).unwrap());
    let mut conn = Connection::open(&tmp).unwrap();
    let tx = conn.transaction().unwrap();
    for p in 0..PLAYERS {
        tx.execute(
            "INSERT INTO player (id, name, created_at) VALUES (?1, ?2, 0)",
            params![p as i64 + 1, format!("Player {p}")],
        )
        .unwrap();
    }
    let mut rng = Rng(0x5eed_c0ff_ee11_2233);
    let mut actions = 0usize;
    let day0: i64 = 1_700_000_000_000;
    for m in 0..matches {
        let (who, record) = molkky_match(&mut rng);
        let state = record.replay().unwrap();
        let summary = state.summary();
        let started_at = day0 + m as i64 * 600_000;
        let finished_at = started_at + record.actions.len() as i64 * 20_000;
        let mut cached = summary.clone();
        cached.as_object_mut().unwrap().remove("sheet");
        tx.execute(
            "INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, finished_at, status, winner, summary)
             VALUES (?1, ?2, 'molkky', 1, ?3, ?4, ?5, ?5, ?6, ?7, ?8)",
            params![
                m as i64 + 1,
                format!("club-{m}"),
                Value::Object(record.rules.clone()).to_string(),
                started_at,
                finished_at,
                summary["status"].as_str().unwrap(),
                summary["winner"].as_i64(),
                cached.to_string()
            ],
        )
        .unwrap();
        for (side, p) in who.iter().enumerate() {
            tx.execute(
                "INSERT INTO match_player (match_id, side, seat, player_id, name) VALUES (?1, ?2, 0, ?3, ?4)",
                params![m as i64 + 1, side as i64, *p as i64 + 1, format!("Player {p}")],
            )
            .unwrap();
        }
        for (seq, a) in record.actions.iter().enumerate() {
            tx.execute(
                "INSERT INTO action (match_id, seq, body, at) VALUES (?1, ?2, ?3, ?4)",
                params![
                    m as i64 + 1,
                    seq as i64,
                    a.to_string(),
                    started_at + seq as i64 * 20_000
                ],
            )
            .unwrap();
        }
        actions += record.actions.len();
        for f in figures(&record, &Default::default()).unwrap() {
            tx.execute(
                "INSERT INTO player_stats (match_id, side, seat, player_id, game, result, finished_at, stats)
                 VALUES (?1, ?2, 0, ?3, 'molkky', ?4, ?5, ?6)",
                params![m as i64 + 1, f.side as i64, who[f.side] as i64 + 1, f.result, finished_at, Value::Object(f.counters).to_string()],
            )
            .unwrap();
        }
    }
    tx.commit().unwrap();
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); ANALYZE;")
        .unwrap();
    drop(conn);
    std::fs::rename(&tmp, &path).unwrap();
    let bytes = std::fs::metadata(&path).unwrap().len();
    eprintln!(
        "generated {matches} matches, {actions} actions in {:.0} s: {:.1} MiB, {:.0} bytes per match, {:.1} bytes per action",
        started.elapsed().as_secs_f64(),
        bytes as f64 / 1048576.0,
        bytes as f64 / matches as f64,
        bytes as f64 / actions as f64
    );
    path
}

fn club(c: &mut Criterion) {
    let path = club_db();
    let (store, _) = Store::open(&path).unwrap();
    c.bench_function("history_first_page", |b| {
        b.iter(|| black_box(store.history(&HistoryFilter::default()).unwrap()))
    });
    c.bench_function("history_first_page_of_a_player", |b| {
        b.iter(|| {
            black_box(
                store
                    .history(&HistoryFilter {
                        player: Some(7),
                        ..Default::default()
                    })
                    .unwrap(),
            )
        })
    });
    c.bench_function("player_statistics", |b| {
        b.iter(|| black_box(store.player_stats(7, "molkky").unwrap()))
    });
    c.bench_function("leaderboard", |b| {
        b.iter(|| black_box(store.leaderboard("molkky", 20).unwrap()))
    });
    // The two halves of a computation from scratch, once, for the notes.
    let t = Instant::now();
    let rated = store.rated_matches("molkky", None, None).unwrap();
    let read = t.elapsed();
    let t = Instant::now();
    let ratings = partie_core::ratings::Ratings::compute(rated);
    eprintln!(
        "ratings: {} matches read in {:.0} ms, rated in {:.0} ms ({} players)",
        ratings.matches_rated(),
        read.as_secs_f64() * 1e3,
        t.elapsed().as_secs_f64() * 1e3,
        ratings.table().len()
    );
    c.bench_function("ratings_from_scratch_100k", |b| {
        b.iter(|| black_box(store.compute_ratings("molkky", None, None).unwrap()))
    });
    // Computed once (the first call fills the cache), then read as the leaderboard asks.
    store.ratings("molkky", None, None).unwrap();
    c.bench_function("leaderboard_with_ratings", |b| {
        b.iter(|| black_box(store.rating_leaderboard("molkky", None, None, 20).unwrap()))
    });
    drop(store);
    c.bench_function("open_store", |b| {
        b.iter(|| black_box(Store::open(&path).unwrap()))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = club
}
criterion_main!(benches);
