//! The hub's connections (`docs/hub.md`, "Connections"): a connection that sends no request
//! head in time is closed, an idle one too, and connections over the cap wait in the system's
//! queue until one closes; a phone that gives up on its push does not free its turn before the
//! merge ends. The storage does not matter here: SQLite.

use partie_hub::storage::Backend;
use partie_hub::{serve_with, Hub, Limits, PUSHES_AT_ONCE};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How long a test waits for what should come at once: far over every deadline it sets.
const AT_MOST: Duration = Duration::from_secs(10);

/// A hub on a new SQLite file served within `limits`; the folder lives as long as the hub.
async fn hub_with(limits: Limits) -> (SocketAddr, tempfile::TempDir) {
    let (addr, _, dir) = served(limits).await;
    (addr, dir)
}

async fn served(limits: Limits) -> (SocketAddr, Arc<Hub>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::open(&dir.path().join("hub.db"), "token").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_with(
        listener,
        hub.clone(),
        std::future::pending(),
        limits,
    ));
    (addr, hub, dir)
}

const HEALTH: &[u8] = b"GET /v1/health HTTP/1.1\r\nHost: hub\r\n\r\n";

/// Reads until the hub closes the connection; `None` when it has not closed it within
/// [`AT_MOST`].
async fn until_closed(s: &mut TcpStream) -> Option<String> {
    let mut out = Vec::new();
    match tokio::time::timeout(AT_MOST, s.read_to_end(&mut out)).await {
        Ok(_) => Some(String::from_utf8_lossy(&out).to_string()),
        Err(_) => None,
    }
}

/// Reads one answer to the health check (its body is the last thing in it).
async fn health_answer(s: &mut TcpStream) -> String {
    answer_holding(s, "\"hub\":\"partie\"").await
}

/// Reads an answer until it holds `last` (what its body ends with), within [`AT_MOST`].
async fn answer_holding(s: &mut TcpStream, last: &str) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&out).contains(last) {
        let n = tokio::time::timeout(AT_MOST, s.read(&mut buf))
            .await
            .expect("an answer in time")
            .unwrap();
        assert!(
            n > 0,
            "closed before the answer: {:?}",
            String::from_utf8_lossy(&out)
        );
        out.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&out).to_string()
}

fn short(head_within_ms: u64, connections: usize) -> Limits {
    Limits {
        head_within: Duration::from_millis(head_within_ms),
        connections,
        ..Limits::default()
    }
}

/// A connection that opens and sends half a head, then nothing (a phone gone from the Wi-Fi,
/// or a program holding the hub's connections), is closed at the deadline; the hub goes on
/// answering the others.
#[tokio::test]
async fn a_head_not_sent_in_time_closes_the_connection() {
    let (addr, _dir) = hub_with(short(300, 16)).await;
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /v1/health HTTP/1.1\r\nHo")
        .await
        .unwrap();
    assert!(until_closed(&mut silent).await.is_some(), "never closed");
    let answered = until_closed(&mut half).await.expect("never closed");
    assert!(!answered.contains("200 OK"), "{answered}");
    let mut phone = TcpStream::connect(addr).await.unwrap();
    phone.write_all(HEALTH).await.unwrap();
    assert!(health_answer(&mut phone).await.starts_with("HTTP/1.1 200"));
}

/// After its answer a connection is kept for the next request, but not for ever: idle past
/// the deadline, it is closed.
#[tokio::test]
async fn an_idle_connection_is_closed_after_the_deadline() {
    let (addr, _dir) = hub_with(short(300, 16)).await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(HEALTH).await.unwrap();
    assert!(health_answer(&mut s).await.starts_with("HTTP/1.1 200"));
    // A second request at once is served on the same connection.
    s.write_all(HEALTH).await.unwrap();
    assert!(health_answer(&mut s).await.starts_with("HTTP/1.1 200"));
    assert_eq!(until_closed(&mut s).await.as_deref(), Some(""));
}

/// A connection over the cap is not served until one of those held closes; then it is.
#[tokio::test]
async fn a_connection_over_the_cap_waits_for_one_to_close() {
    let (addr, _dir) = hub_with(short(60_000, 2)).await;
    let mut first = TcpStream::connect(addr).await.unwrap();
    let mut second = TcpStream::connect(addr).await.unwrap();
    // Both held: each is answered.
    first.write_all(HEALTH).await.unwrap();
    assert!(health_answer(&mut first).await.starts_with("HTTP/1.1 200"));
    second.write_all(HEALTH).await.unwrap();
    assert!(health_answer(&mut second).await.starts_with("HTTP/1.1 200"));
    let mut third = TcpStream::connect(addr).await.unwrap();
    third.write_all(HEALTH).await.unwrap();
    let mut buf = [0u8; 64];
    let early = tokio::time::timeout(Duration::from_millis(500), third.read(&mut buf)).await;
    assert!(early.is_err(), "answered over the cap: {early:?}");
    drop(first);
    assert!(health_answer(&mut third).await.starts_with("HTTP/1.1 200"));
}

/// A push whose body stops coming (a phone that is there and sends nothing more) is refused
/// once its time is up, in words, and the connection goes: keep-alive finds only a peer that
/// is gone, and such connections held to the cap would leave no room for a phone.
#[tokio::test]
async fn a_body_that_stops_coming_is_refused_at_its_deadline() {
    let (addr, _dir) = hub_with(Limits {
        body_within: Duration::from_millis(300),
        ..Limits::default()
    })
    .await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(
        b"POST /v1/records HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer token\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"records\": [",
    )
    .await
    .unwrap();
    let answer = until_closed(&mut s).await.expect("never answered");
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains(r#""kind":"bad_record""#), "{answer}");
    assert!(answer.contains("in time"), "{answer}");
    // A whole push meanwhile is taken.
    let mut phone = TcpStream::connect(addr).await.unwrap();
    phone.write_all(&push_of("m1")).await.unwrap();
    let got = answer_holding(&mut phone, "refused").await;
    assert!(got.contains(r#""accepted":1"#), "{got}");
}

/// A head well over [`partie_hub::serve::MAX_HEAD`] is refused, not held in memory (one read
/// may bring a little more than the bound, which is then parsed whole).
#[tokio::test]
async fn an_oversized_head_is_refused() {
    let (addr, _dir) = hub_with(Limits::default()).await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    let filler = "a".repeat(2 * partie_hub::serve::MAX_HEAD);
    let head = format!("GET /v1/health HTTP/1.1\r\nHost: hub\r\nX-Filler: {filler}\r\n\r\n");
    // The hub may close before it has read it all: the write's result does not matter.
    let _ = s.write_all(head.as_bytes()).await;
    let answer = until_closed(&mut s).await.expect("never closed");
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
}

/// A client that asks for a long answer and reads none of it (a frozen tab, a program) does not
/// hold its connection for ever: once the answer has waited its time for the peer to take
/// anything, the connection goes, and the one waiting over the cap is served. Hyper sets no
/// deadline on writing.
#[tokio::test]
async fn an_answer_nobody_reads_frees_its_connection_at_its_deadline() {
    let (addr, _dir) = hub_with(Limits {
        connections: 1,
        answer_within: Duration::from_millis(500),
        ..Limits::default()
    })
    .await;
    // A push of 300,000 numbers: each refused in words, an answer of megabytes, more than the
    // system holds for a peer that takes nothing (its own buffer kept small).
    let body = format!("{{\"records\": [1{}]}}", ",1".repeat(300_000));
    let push = format!(
        "POST /v1/records HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer token\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut reading_nothing = socket.connect(addr).await.unwrap();
    reading_nothing.write_all(push.as_bytes()).await.unwrap();
    let mut phone = TcpStream::connect(addr).await.unwrap();
    phone.write_all(HEALTH).await.unwrap();
    assert!(health_answer(&mut phone).await.starts_with("HTTP/1.1 200"));
    // What the first got before its connection went is not the whole answer.
    let mut got = Vec::new();
    let _ = tokio::time::timeout(AT_MOST, reading_nothing.read_to_end(&mut got)).await;
    let got = String::from_utf8_lossy(&got);
    assert!(
        got.starts_with("HTTP/1.1 200"),
        "{}",
        &got[..got.len().min(200)]
    );
    assert!(
        !got.ends_with("\r\n0\r\n\r\n"),
        "the whole answer came: {} bytes",
        got.len()
    );
}

/// A push of one Mölkky match `id` (its first throw), as raw HTTP.
fn push_of(id: &str) -> Vec<u8> {
    let body = format!(
        r#"{{"records": [{{"format": 1, "id": "{id}", "revision": 1, "game": "molkky", "sides": [["A"], ["B"]], "actions": [{{"pins": [3]}}]}}]}}"#
    );
    format!(
        "POST /v1/records HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer token\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Waits until `ok` holds, for at most [`AT_MOST`].
async fn until(what: &str, ok: impl Fn() -> bool) {
    let end = tokio::time::Instant::now() + AT_MOST;
    while !ok() {
        assert!(tokio::time::Instant::now() < end, "never: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Phones that send their push and give up on the answer (their own time ran out while the
/// writer was busy): the pushes that had a turn keep it until their merge ends, and are merged
/// whole; those still waiting for a turn are dropped, unmerged (their phones push again). A
/// phone's giving up used to free its turn while its merge still waited for the writer, so the
/// four turns no longer bounded the pushes held in memory.
#[tokio::test]
async fn a_push_given_up_keeps_its_turn_until_its_merge_ends() {
    let (addr, hub, _dir) = served(Limits::default()).await;
    let Backend::Sqlite(storage) = hub.storage() else {
        unreachable!("a hub on a file")
    };
    // The writer is busy (another program's long transaction) until told.
    let (free, freed) = std::sync::mpsc::channel::<()>();
    let (held, holding) = std::sync::mpsc::channel::<()>();
    let writer = hub.clone();
    let busy = std::thread::spawn(move || {
        let Backend::Sqlite(storage) = writer.storage() else {
            unreachable!()
        };
        storage.with_store_blocking(|_| {
            held.send(()).unwrap();
            freed.recv().unwrap();
        })
    });
    holding.recv().unwrap();
    let phones = 2 * PUSHES_AT_ONCE;
    let mut sockets = Vec::new();
    for i in 0..phones {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(&push_of(&format!("m{i}"))).await.unwrap();
        if i < PUSHES_AT_ONCE {
            // The first ones take the turns before the others come.
            until("a turn taken", || hub.pushes_under_way() == i + 1).await;
        } else {
            until("a push waiting", || {
                hub.pushes_waiting() == i + 1 - PUSHES_AT_ONCE
            })
            .await;
        }
        sockets.push(s);
    }
    assert_eq!(hub.pushes_given_up(), 0);
    drop(sockets);
    // Every phone has gone, and the hub has seen each go; the turns are still held by the
    // merges waiting for the writer, and no push waits for a turn any more.
    until("every push given up", || hub.pushes_given_up() == phones).await;
    assert_eq!(hub.pushes_under_way(), PUSHES_AT_ONCE);
    assert_eq!(hub.pushes_waiting(), 0);
    free.send(()).unwrap();
    busy.join().unwrap();
    until("the merges ended", || hub.pushes_under_way() == 0).await;
    let ids: Vec<String> = storage
        .with_store(|s| s.records_since(None, 100))
        .await
        .unwrap()
        .records
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    let first: Vec<String> = (0..PUSHES_AT_ONCE).map(|i| format!("m{i}")).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(sorted, first, "merged: {ids:?}");
}

/// A hub's answer tells a device its record is held, and the device never sends it again: its
/// commits are synced to the disk (with `synchronous=NORMAL` a power cut could lose those since
/// the last checkpoint). The app's own connection to its history keeps NORMAL.
#[tokio::test]
async fn a_hub_syncs_every_commit_to_the_disk() {
    let (_addr, hub, dir) = served(Limits::default()).await;
    let Backend::Sqlite(storage) = hub.storage() else {
        unreachable!("a hub on a file")
    };
    assert!(storage
        .with_store(|s| s.syncs_every_commit())
        .await
        .unwrap());
    let (app, _) = partie_core::store::Store::open(&dir.path().join("app.db")).unwrap();
    assert!(!app.syncs_every_commit().unwrap());
}
