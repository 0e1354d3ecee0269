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
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Client, Connection, SpawnedHub};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant};

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
    while Instant::now() < until {
        tick.tick().await;
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

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

#[tokio::main]
async fn main() {
    let mut devices = 64usize;
    let mut seconds = 300u64;
    let mut hub_exe: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value");
        match a.as_str() {
            "--devices" => devices = value().parse().expect("a number of devices"),
            "--seconds" => seconds = value().parse().expect("a number of seconds"),
            "--hub" => hub_exe = Some(value()),
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
    let hub = SpawnedHub::start_with(&exe, &dir.path().join("hub.db"), &dir.path().join("token"));
    let pid = hub.child.id();
    println!(
        "{devices} devices, one push a second each, for {seconds} s, to {} (pid {pid})",
        hub.addr
    );
    let (cpu_before, _, _) = cpu_and_memory(pid);
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..devices)
        .map(|i| tokio::spawn(device(i, devices, hub.addr, hub.token.clone(), until)))
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
    let (cpu_after, peak_kib, rss_kib) = cpu_and_memory(pid);
    latencies.sort();
    let pushes = latencies.len();
    // What the hub holds: every record once, at the revision acknowledged last.
    let client = Client {
        addr: hub.addr,
        token: Some(hub.token.clone()),
    };
    let stored = client.pull_all(1000).await;
    let mut held: HashMap<String, usize> = HashMap::new();
    let mut duplicated = 0;
    for r in &stored {
        let id = r["id"].as_str().unwrap().to_string();
        let n = r["actions"].as_array().unwrap().len();
        assert_eq!(r["revision"].as_u64().unwrap() as usize, n);
        if held.insert(id, n).is_some() {
            duplicated += 1;
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
    println!(
        "pushes acknowledged: {pushes} in {:.1} s ({:.1}/s), {errors} failed tries",
        elapsed.as_secs_f64(),
        pushes as f64 / elapsed.as_secs_f64()
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
        "hub CPU: {cpu:.2} s ({:.1}% of one core); memory: peak {:.1} MiB, at the end {:.1} MiB",
        100.0 * cpu / elapsed.as_secs_f64(),
        peak_kib as f64 / 1024.0,
        rss_kib as f64 / 1024.0
    );
    println!(
        "records held: {} matches, {actions} actions; lost {lost}, duplicated {duplicated}",
        held.len()
    );
    drop(hub);
    if lost != 0 || duplicated != 0 || held.len() != acked.len() {
        eprintln!("FAILED: the hub does not hold exactly what it acknowledged");
        std::process::exit(1);
    }
}
