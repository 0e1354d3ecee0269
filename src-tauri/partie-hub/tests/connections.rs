//! The hub's connections (`docs/hub.md`, "Connections"): a connection that sends no request
//! head in time is closed, an idle one too, and connections over the cap wait in the system's
//! queue until one closes. The storage does not matter here: SQLite.

use partie_hub::{serve_with, Hub, Limits};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How long a test waits for what should come at once: far over every deadline it sets.
const AT_MOST: Duration = Duration::from_secs(10);

/// A hub on a new SQLite file served within `limits`; the folder lives as long as the hub.
async fn hub_with(limits: Limits) -> (SocketAddr, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::open(&dir.path().join("hub.db"), "token").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_with(listener, hub, std::future::pending(), limits));
    (addr, dir)
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
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&out).contains("\"hub\":\"partie\"") {
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
