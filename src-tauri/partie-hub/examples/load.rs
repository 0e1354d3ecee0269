//! The hub under a club night's load, on loopback only: N simulated phones, each scoring a
//! Mölkky match and pushing it after every throw (one push a second, the whole record at its
//! new revision, on a kept-alive connection), to the real `partie-hub` binary on a fresh
//! database. Reports push latency (p50, p90, p99, max), throughput, the hub's CPU time and peak
//! memory (from /proc), and checks at the end that the hub holds every acknowledged action
//! once: none lost, none duplicated.
//!
//! ```sh
//! cargo build --release -p partie-hub
//! cargo run --release -p partie-hub --example load -- --devices 64 --seconds 300
//! # The same load on SQLite, then on PostgreSQL (one hub), then on PostgreSQL with 4 hubs
//! # (one club each, the devices spread over them), in one run: the ratios are PostgreSQL's
//! # figures over SQLite's.
//! cargo run --release -p partie-hub --example load -- --devices 64 --seconds 300 --postgres --hubs 4
//! ```
//!
//! `--flat-out`: each device pushes again as soon as it is answered, for the throughput at
//! saturation (the paced run's throughput is the pace).
//!
//! With `--postgres` the example starts a throwaway PostgreSQL cluster on loopback (fsync on,
//! as a server would run) and removes it at the end; the server's CPU time is counted apart.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Client, Connection, PgCluster, PgDb, Place, SpawnedHub};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// `--flat-out`: each device pushes again as soon as it is answered (the hub's throughput at
/// saturation), rather than once a second (a club night's pace).
static FLAT_OUT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A match of 99 throws: both sides score 1 a throw, side 0 reaches 50 first.
const MATCH_THROWS: usize = 99;

fn record(id: &str, throws: usize, device: usize) -> Value {
    let actions: Vec<Value> = (0..throws).map(|_| json!({"pins": [1]})).collect();
    json!({"format": 1, "id": id, "revision": throws, "game": "molkky",
           "sides": [[format!("Anna {device}")], [format!("Bea {device}")]], "actions": actions})
}

struct DeviceReport {
    latencies: Vec<Duration>,
    errors: usize,
    /// Each match's id and the throws acknowledged.
    acked: HashMap<String, usize>,
}

async fn device(
    i: usize,
    n: usize,
    addr: std::net::SocketAddr,
    token: String,
    until: Instant,
) -> DeviceReport {
    let mut report = DeviceReport {
        latencies: Vec::new(),
        errors: 0,
        acked: HashMap::new(),
    };
    // The devices' pushes are spread evenly over each second.
    tokio::time::sleep(Duration::from_millis((1000 * i / n) as u64)).await;
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut conn: Option<Connection> = None;
    let mut game = 0;
    let mut throws = 0;
    // Bounded: at most one push a second until the deadline.
    let flat_out = FLAT_OUT.load(std::sync::atomic::Ordering::Relaxed);
    while Instant::now() < until {
        if !flat_out {
            tick.tick().await;
        }
        if throws == MATCH_THROWS {
            game += 1;
            throws = 0;
        }
        throws += 1;
        let id = format!("d{i}-m{game}");
        let body = [record(&id, throws, i)];
        // A failed push is tried again at once, a few times, on a new connection.
        for _ in 0..5 {
            if conn.is_none() {
                conn = Connection::open(addr, &token).await.ok();
            }
            let Some(c) = conn.as_mut() else {
                report.errors += 1;
                continue;
            };
            let started = Instant::now();
            match c.push(&body).await {
                Ok(a) if a.status == 200 && a.body["refused"] == json!([]) => {
                    report.latencies.push(started.elapsed());
                    report.acked.insert(id.clone(), throws);
                    break;
                }
                _ => {
                    report.errors += 1;
                    conn = None;
                }
            }
        }
    }
    report
}

fn cpu_and_memory(pid: u32) -> (f64, u64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may hold spaces): utime and stime are 14 and 15.
    let after = stat.rsplit_once(')').map(|(_, s)| s).unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = fields
        .get(11)
        .and_then(|u| u.parse::<f64>().ok())
        .unwrap_or(0.0)
        + fields
            .get(12)
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(0.0);
    let hz = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse::<f64>().ok())
        .unwrap_or(100.0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (ticks / hz, kib("VmHWM:"), kib("VmRSS:"))
}

/// The CPU time (s) of a PostgreSQL cluster: its postmaster, its live backends, and the ones
/// that ended (counted in the postmaster's children's time).
fn cluster_cpu(postmaster: u32) -> f64 {
    let hz = 100.0;
    let fields = |pid: u32| -> Vec<String> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let after = stat.rsplit_once(')').map(|(_, s)| s).unwrap_or("");
        after.split_whitespace().map(str::to_string).collect()
    };
    let num = |f: &[String], i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    let me = fields(postmaster);
    let mut ticks = num(&me, 11) + num(&me, 12) + num(&me, 13) + num(&me, 14);
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let f = fields(pid);
        if f.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(postmaster) {
            ticks += num(&f, 11) + num(&f, 12);
        }
    }
    ticks / hz
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// What one phase of the run measured.
struct Figures {
    pushes: usize,
    per_second: f64,
    p50: f64,
    p99: f64,
}

/// Runs the load against `hubs` (all on the same storage) and prints what it measured; exits
/// when a hub does not hold exactly what it acknowledged.
async fn phase(
    name: &str,
    hubs: &[SpawnedHub],
    devices: usize,
    seconds: u64,
    postmaster: Option<u32>,
) -> Figures {
    let pids: Vec<u32> = hubs.iter().map(|h| h.child.id()).collect();
    println!(
        "== {name}: {devices} devices, {} each, for {seconds} s, to {} hub(s) {:?}",
        if FLAT_OUT.load(std::sync::atomic::Ordering::Relaxed) {
            "pushing again as soon as answered"
        } else {
            "one push a second"
        },
        hubs.len(),
        hubs.iter().map(|h| h.addr).collect::<Vec<_>>()
    );
    let cpu_before: f64 = pids.iter().map(|&p| cpu_and_memory(p).0).sum();
    let pg_before = postmaster.map(cluster_cpu).unwrap_or(0.0);
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..devices)
        .map(|i| {
            let hub = &hubs[i % hubs.len()];
            tokio::spawn(device(i, devices, hub.addr, hub.token.clone(), until))
        })
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    let mut acked: HashMap<String, usize> = HashMap::new();
    for t in tasks {
        let r = t.await.unwrap();
        latencies.extend(r.latencies);
        errors += r.errors;
        acked.extend(r.acked);
    }
    let elapsed = started.elapsed();
    let mut cpu_after = 0.0;
    let mut peak = 0;
    let mut rss = 0;
    for &p in &pids {
        let (c, pk, r) = cpu_and_memory(p);
        cpu_after += c;
        peak = peak.max(pk);
        rss += r;
    }
    let pg_cpu = postmaster.map(cluster_cpu).unwrap_or(0.0) - pg_before;
    latencies.sort();
    let pushes = latencies.len();
    // What the hubs hold: every record once, at the revision acknowledged last.
    let mut held: HashMap<String, usize> = HashMap::new();
    let mut duplicated = 0;
    let mut seen_tokens = Vec::new();
    for hub in hubs {
        // Hubs of one club serve the same records: each club is read once.
        if seen_tokens.contains(&hub.token) {
            continue;
        }
        seen_tokens.push(hub.token.clone());
        let client = Client {
            addr: hub.addr,
            token: Some(hub.token.clone()),
        };
        for r in &client.pull_all(1000).await {
            let id = r["id"].as_str().unwrap().to_string();
            let n = r["actions"].as_array().unwrap().len();
            assert_eq!(r["revision"].as_u64().unwrap() as usize, n);
            if held.insert(id, n).is_some() {
                duplicated += 1;
            }
        }
    }
    let mut lost = 0;
    for (id, n) in &acked {
        match held.get(id) {
            Some(&h) if h == *n => {}
            Some(&h) if h > *n => duplicated += h - n,
            Some(&h) => lost += n - h,
            None => lost += n,
        }
    }
    let actions: usize = held.values().sum();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let per_second = pushes as f64 / elapsed.as_secs_f64();
    println!(
        "pushes acknowledged: {pushes} in {:.1} s ({per_second:.1}/s), {errors} failed tries",
        elapsed.as_secs_f64(),
    );
    println!(
        "push latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.90)),
        ms(percentile(&latencies, 0.99)),
        ms(*latencies.last().unwrap_or(&Duration::ZERO))
    );
    let cpu = cpu_after - cpu_before;
    println!(
        "hub CPU: {cpu:.2} s ({:.1}% of one core); memory: peak {:.1} MiB, at the end {:.1} MiB (all hubs)",
        100.0 * cpu / elapsed.as_secs_f64(),
        peak as f64 / 1024.0,
        rss as f64 / 1024.0
    );
    if postmaster.is_some() {
        println!(
            "PostgreSQL CPU: {pg_cpu:.2} s ({:.1}% of one core)",
            100.0 * pg_cpu / elapsed.as_secs_f64()
        );
    }
    println!(
        "records held: {} matches, {actions} actions; lost {lost}, duplicated {duplicated}",
        held.len()
    );
    if lost != 0 || duplicated != 0 || held.len() != acked.len() {
        eprintln!("FAILED: the hub does not hold exactly what it acknowledged");
        std::process::exit(1);
    }
    Figures {
        pushes,
        per_second,
        p50: ms(percentile(&latencies, 0.50)),
        p99: ms(percentile(&latencies, 0.99)),
    }
}

fn ratio(name: &str, pg: &Figures, sqlite: &Figures) {
    println!(
        "{name} / SQLite: p50 {:.2}x, p99 {:.2}x, throughput {:.3}x ({} against {} pushes)",
        pg.p50 / sqlite.p50,
        pg.p99 / sqlite.p99,
        pg.per_second / sqlite.per_second,
        pg.pushes,
        sqlite.pushes
    );
}

#[tokio::main]
async fn main() {
    let mut devices = 64usize;
    let mut seconds = 300u64;
    let mut hub_exe: Option<String> = None;
    let mut postgres = false;
    let mut hubs = 1usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value");
        match a.as_str() {
            "--devices" => devices = value().parse().expect("a number of devices"),
            "--seconds" => seconds = value().parse().expect("a number of seconds"),
            "--hub" => hub_exe = Some(value()),
            "--postgres" => postgres = true,
            "--hubs" => hubs = value().parse().expect("a number of hubs"),
            "--flat-out" => FLAT_OUT.store(true, std::sync::atomic::Ordering::Relaxed),
            other => panic!("unknown argument {other}"),
        }
    }
    let exe = hub_exe.unwrap_or_else(|| {
        let me = std::env::current_exe().unwrap();
        // target/<profile>/examples/load -> target/<profile>/partie-hub
        let dir = me.parent().and_then(|d| d.parent()).unwrap();
        dir.join(format!("partie-hub{}", std::env::consts::EXE_SUFFIX))
            .to_string_lossy()
            .to_string()
    });
    if !std::path::Path::new(&exe).is_file() {
        eprintln!("{exe} is missing: cargo build --release -p partie-hub");
        std::process::exit(2);
    }
    let dir = tempfile::tempdir().unwrap();
    let sqlite = {
        let hub =
            SpawnedHub::start_with(&exe, &dir.path().join("hub.db"), &dir.path().join("token"));
        phase("SQLite", &[hub], devices, seconds, None).await
    };
    if !postgres {
        return;
    }
    let cluster = std::sync::Arc::new(PgCluster::start(true));
    let postmaster = cluster.postmaster();
    let one = {
        let db = PgDb::create(cluster.clone()).await;
        let token = dir.path().join("pg-token");
        db.add_club("club", &token).await;
        let hub = SpawnedHub::start_exe_at(&exe, &Place::Postgres(db), &token);
        phase(
            "PostgreSQL, 1 hub",
            &[hub],
            devices,
            seconds,
            Some(postmaster),
        )
        .await
    };
    ratio("PostgreSQL, 1 hub", &one, &sqlite);
    if hubs > 1 {
        let db = PgDb::create(cluster.clone()).await;
        let mut spawned = Vec::new();
        for h in 0..hubs {
            let token = dir.path().join(format!("club-{h}"));
            db.add_club(&format!("club {h}"), &token).await;
            spawned.push(SpawnedHub::start_exe_at(
                &exe,
                &Place::Postgres(db.clone()),
                &token,
            ));
        }
        let name = format!("PostgreSQL, {hubs} hubs (a club each)");
        let many = phase(&name, &spawned, devices, seconds, Some(postmaster)).await;
        ratio(&name, &many, &sqlite);
    }
}
