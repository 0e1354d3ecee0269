//! A league's standings under a season's weight: 200 clubs × 2,000 finished matches (400,000
//! matches, 800,000 player results) in a throwaway PostgreSQL cluster on loopback, stored
//! through the hub's own push (the rules, the replay, every row as a push writes it), then a
//! club's standings page (`GET /v1/league/SEASON/clubs/CLUB`) asked through a hub for random
//! clubs: its time from request to answer, p50, p99 and max, against the 50 ms the issue asks.
//! The league's whole view (`GET /v1/league/SEASON`) is timed too.
//!
//! ```sh
//! cargo run --release -p partie-hub --example league -- --clubs 200 --matches 2000
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Client, PgCluster, PgDb};
use partie_core::store::RawRecords;
use partie_hub::storage::postgres::{self, PgStorage};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A finished Mölkky match of 2025 between two of a club's 24 players (side 0 wins).
fn finished(club: usize, k: usize) -> Value {
    let a = (k * 7 + club) % 24;
    let b = (a + 1 + k % 23) % 24;
    let actions: Vec<Value> = [12, 1, 12, 1, 12, 1, 12, 1, 2]
        .iter()
        .map(|p| json!({"pins": [p]}))
        .collect();
    json!({"format": 1, "id": format!("c{club}-m{k}"), "revision": 9, "game": "molkky",
           "sides": [[format!("Player {a}")], [format!("Player {b}")]], "actions": actions,
           "started_at": format!("2025-{:02}-{:02}T19:00:00Z", 1 + k % 12, 1 + k % 28)})
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let mut clubs = 200usize;
    let mut matches = 2000usize;
    let mut asks = 400usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value");
        match a.as_str() {
            "--clubs" => clubs = value().parse().expect("a number of clubs"),
            "--matches" => matches = value().parse().expect("matches per club"),
            "--asks" => asks = value().parse().expect("a number of requests"),
            other => panic!("unknown argument {other}"),
        }
    }
    let cluster = Arc::new(PgCluster::start(true));
    let db = PgDb::create(cluster.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let loading = Instant::now();
    let mut tokens = Vec::new();
    for c in 0..clubs {
        tokens.push(
            db.add_club(&format!("Club {c}"), &dir.path().join(format!("t{c}")))
                .await,
        );
    }
    // Two clubs at a time (pushes of different clubs do not wait for each other).
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let loaders: Vec<_> = (0..2)
        .map(|_| {
            let (next, tokens, url) = (next.clone(), tokens.clone(), db.url.clone());
            tokio::spawn(async move {
                loop {
                    let c = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if c >= tokens.len() {
                        return;
                    }
                    let club = PgStorage::open(&url, &tokens[c], 2).await.unwrap();
                    for start in (0..matches).step_by(500) {
                        let batch: Vec<Value> = (start..(start + 500).min(matches))
                            .map(|k| finished(c, k))
                            .collect();
                        let batch = RawRecords::of_values(&batch);
                        let n = batch.len();
                        let report = club.push(batch).await.unwrap();
                        assert_eq!(report.accepted, n, "{:?}", report.refused);
                    }
                }
            })
        })
        .collect();
    for l in loaders {
        l.await.unwrap();
    }
    let admin = db.pool().await;
    admin
        .get()
        .await
        .unwrap()
        .batch_execute("VACUUM ANALYZE")
        .await
        .unwrap();
    println!(
        "{clubs} clubs × {matches} matches stored through the push in {:.0} s",
        loading.elapsed().as_secs_f64()
    );
    let hub = partie_hub::Hub::open_postgres(&db.url, &tokens[0])
        .await
        .unwrap();
    let c = Client {
        addr: common::serve_on_loopback(hub).await,
        token: Some(tokens[0].clone()),
    };
    // Warm the connection pool and the server's caches as a running league would be.
    for k in 0..20 {
        c.get(&format!("/v1/league/2025/clubs/Club%20{}", k % clubs))
            .await;
    }
    let mut times = Vec::new();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..asks {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let club = (rng % clubs as u64) as usize;
        let started = Instant::now();
        let page = c.get(&format!("/v1/league/2025/clubs/Club%20{club}")).await;
        times.push(started.elapsed());
        assert_eq!(page.status, 200, "{}", page.text);
        let played: i64 = page.body["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["played"].as_i64().unwrap())
            .sum();
        assert_eq!(
            played as usize,
            2 * matches,
            "each match counts both players"
        );
    }
    times.sort();
    println!(
        "a club's standings page ({asks} requests, random clubs): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times.last().unwrap().as_secs_f64() * 1000.0
    );
    let mut whole = Vec::new();
    for _ in 0..10 {
        let started = Instant::now();
        let view = c.get("/v1/league/2025").await;
        whole.push(started.elapsed());
        assert_eq!(view.body["clubs"].as_array().unwrap().len(), clubs);
    }
    whole.sort();
    println!(
        "the league's whole view (10 requests): p50 {:.0} ms, max {:.0} ms",
        percentile(&whole, 0.5),
        whole.last().unwrap().as_secs_f64() * 1000.0
    );
    let size = admin
        .get()
        .await
        .unwrap()
        .query_one(
            "SELECT pg_size_pretty(pg_database_size(current_database()))",
            &[],
        )
        .await
        .unwrap()
        .get::<_, String>(0);
    println!("database size: {size}; schema {}", postgres::latest());
}
