//! The app's side of a club night, against a real hub on loopback: the hub the desktop hosts
//! (`host::Host`), the join check, and a phone's sync thread (`client::Syncer`) pushing as it
//! plays, pulling the others' records, waiting while the hub is away and catching up when it is
//! back on the same address; a replaced hub given back its tournaments, or refusing one whole
//! (a stand-in in front of it). Waits are bounded; nothing leaves 127.0.0.1.

mod common;

use partie_core::store::{Source, Store};
use partie_hub::client::{check_hub, Failure, Syncer, REQUEST_TIMEOUT};
use partie_hub::host::Host;
use partie_hub::qr::qr_modules;
use serde_json::json;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

/// Waits up to 15 s for `what` to hold.
fn eventually(what: &str, mut holds: impl FnMut() -> bool) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(15) {
        if holds() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("never happened: {what}");
}

/// The records the hub's database holds, by id, with their revision.
fn hub_revision(db: &Path, id: &str) -> Option<i64> {
    let (store, _) = Store::open(db).unwrap();
    store
        .records_since(None, 5000)
        .unwrap()
        .records
        .into_iter()
        .find(|r| r["id"] == id)
        .map(|r| r["revision"].as_i64().unwrap_or(0))
}

/// Whether a device's database holds the record `uid`.
fn holds(store: &Store, uid: &str) -> bool {
    store
        .records_since(None, 100)
        .unwrap()
        .records
        .iter()
        .any(|r| r["id"] == uid)
}

/// A phone (`phone.db` in `dir`) joined to the hub at `address`, with its sync thread started.
fn joined_phone(dir: &Path, address: &str, token: &str) -> (Store, std::path::PathBuf, Syncer) {
    let phone_db = dir.join("phone.db");
    let (mut phone, _) = Store::open(&phone_db).unwrap();
    phone.join_club(address, token).unwrap();
    let syncer = Syncer::start(phone_db.clone());
    (phone, phone_db, syncer)
}

#[test]
fn a_hub_hosted_in_the_app_answers_checks_and_refuses_a_wrong_token() {
    let dir = tempfile::tempdir().unwrap();
    let host = Host::start(
        &dir.path().join("desk.db"),
        "127.0.0.1:0",
        &dir.path().join("hub-token"),
    )
    .unwrap();
    let info = host.info();
    assert_eq!(info.address, format!("http://{}", host.addr()));
    assert_eq!(
        info.link,
        format!("partie://join?hub={}&token={}", info.address, info.token)
    );
    assert_eq!(info.page, format!("{}/?token={}", info.address, info.token));
    // The token file holds the token shown.
    let saved = std::fs::read_to_string(dir.path().join("hub-token")).unwrap();
    assert_eq!(saved.trim(), info.token);
    // The QR code: a square of a QR version's size with the three finder patterns.
    let qr = &info.qr;
    let n = qr.len();
    assert!(n >= 21 && (n - 17).is_multiple_of(4) && qr.iter().all(|row| row.len() == n));
    for (x, y) in [(0, 0), (n - 7, 0), (0, n - 7)] {
        assert!(qr[y][x] && qr[y + 6][x + 6] && !qr[y + 1][x + 1] && qr[y + 3][x + 3]);
    }
    assert_ne!(qr_modules("another text"), info.qr);

    let health = check_hub(&info.address, &info.token).unwrap();
    assert_eq!(health["hub"], "partie");
    assert_eq!(
        check_hub(&info.address, "wrong"),
        Err(Failure::Unauthorized)
    );
    let port_taken = Host::start(
        &dir.path().join("desk.db"),
        &host.addr().to_string(),
        &dir.path().join("hub-token"),
    );
    assert_eq!(port_taken.err().unwrap().code, Some("hub_port_taken"));
    let address = info.address.clone();
    host.stop();
    assert!(matches!(
        check_hub(&address, &info.token),
        Err(Failure::Unreachable(_))
    ));
}

#[test]
fn a_phone_pushes_as_it_plays_waits_while_the_hub_is_away_and_pulls_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let desk_db = dir.path().join("desk.db");
    let token_file = dir.path().join("hub-token");
    let host = Host::start(&desk_db, "127.0.0.1:0", &token_file).unwrap();
    let info = host.info();
    let listen = host.addr().to_string();

    // The phone joins and plays; each play goes out when the sync thread is poked.
    let (mut phone, phone_db, syncer) = joined_phone(dir.path(), &info.address, &info.token);
    let sides = anna_and_bea();
    let m = phone
        .new_match("molkky", &Default::default(), &sides)
        .unwrap();
    phone.play(m.id, &json!({"pins": [12]})).unwrap();
    syncer.poke();
    eventually("the hub holds the phone's match", || {
        hub_revision(&desk_db, &m.uid) == Some(1)
    });
    eventually("the phone says it is synced", || {
        let s = syncer.status();
        s.state == "ok" && s.last_sync.is_some() && s.hub.as_deref() == Some(&info.address)
    });
    assert_eq!(phone.club_waiting(&info.address).unwrap(), 0);

    // The hub goes away: play goes on, the phone counts what waits and says the hub is away.
    host.stop();
    phone.play(m.id, &json!({"pins": [12]})).unwrap();
    phone.undo(m.id).unwrap();
    phone.play(m.id, &json!({"pins": [11]})).unwrap();
    syncer.poke();
    eventually("the phone says the hub is unreachable", || {
        syncer.status().state == "unreachable"
    });
    assert_eq!(phone.club_waiting(&info.address).unwrap(), 1);
    // The typed error the screen translates by its code.
    let error = syncer.status().error.unwrap();
    assert_eq!(error.code, Some("hub_unreachable"));
    assert!(error.detail.contains("no club hub answered"));

    // Meanwhile another device's match reached the hub's database.
    let theirs = others_match(&desk_db, 3);

    // The phone's sync thread is restarted (the app was killed), and the hub is back on the
    // same address: the outbox goes out by itself, the other device's match comes in.
    drop(syncer);
    let host = Host::start(&desk_db, &listen, &token_file).unwrap();
    let syncer = Syncer::start(phone_db.clone());
    eventually("the phone's latest revision reaches the hub", || {
        hub_revision(&desk_db, &m.uid) == Some(4)
    });
    eventually("the other device's match is pulled", || {
        holds(&phone, &theirs)
    });
    eventually("synced again, nothing waiting", || {
        syncer.status().state == "ok" && phone.club_waiting(&info.address).unwrap() == 0
    });
    // What was pulled is not pushed back.
    let status = syncer.status();
    assert_eq!(status.pushed, 1, "{status:?}");
    assert!(status.pulled >= 1);
    drop(syncer);
    host.stop();
}

#[test]
fn a_phone_that_left_the_hub_sends_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let desk_db = dir.path().join("desk.db");
    let host = Host::start(&desk_db, "127.0.0.1:0", &dir.path().join("t")).unwrap();
    let info = host.info();
    let (mut phone, _, syncer) = joined_phone(dir.path(), &info.address, &info.token);
    let sides = vec![vec!["A".to_string()], vec!["B".to_string()]];
    let first = phone
        .new_match("molkky", &Default::default(), &sides)
        .unwrap();
    syncer.poke();
    eventually("the first match is at the hub", || {
        hub_revision(&desk_db, &first.uid).is_some()
    });
    phone.leave_club().unwrap();
    syncer.poke();
    eventually("the phone says it is not joined", || {
        syncer.status().state == "idle"
    });
    let second = phone
        .new_match("molkky", &Default::default(), &sides)
        .unwrap();
    // Poked with a new match while not joined: once the poke is served, nothing was pushed.
    let looks = syncer.status().looks;
    syncer.poke();
    eventually("the poke is served", || syncer.status().looks > looks);
    assert_eq!(hub_revision(&desk_db, &second.uid), None);
    drop(syncer);
    host.stop();
}

#[test]
fn a_phone_whose_hub_was_replaced_at_the_same_address_pulls_it_from_the_start() {
    // The new hub's change log is shorter than the phone's cursor.
    replaced_hub(3, 1);
}

#[test]
fn a_phone_whose_replaced_hub_has_more_changes_than_its_cursor_still_starts_again() {
    // The new hub's log has grown past the phone's cursor: only the hub's name in the cursor
    // tells the two apart.
    replaced_hub(1, 4);
}

/// A phone pulls `before` matches of other devices from a hub and pushes one of its own; the
/// hub is then started on a new data folder holding `after` other matches, at the same address
/// with the same token. The phone pulls all of them and pushes its match to the new hub.
fn replaced_hub(before: usize, after: usize) {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("hub-token");
    let sides = anna_and_bea();
    let others_match = |db: &Path| others_match(db, 3);
    let first_db = dir.path().join("first.db");
    for _ in 0..before {
        others_match(&first_db);
    }
    let host = Host::start(&first_db, "127.0.0.1:0", &token_file).unwrap();
    let info = host.info();
    let listen = host.addr().to_string();
    let (mut phone, _, syncer) = joined_phone(dir.path(), &info.address, &info.token);
    let own = phone
        .new_match("molkky", &Default::default(), &sides)
        .unwrap();
    phone.play(own.id, &json!({"pins": [5]})).unwrap();
    syncer.poke();
    eventually("the phone pulled the first hub's matches", || {
        phone.records_since(None, 100).unwrap().records.len() == before + 1
    });
    eventually("and pushed its own", || {
        hub_revision(&first_db, &own.uid).is_some()
    });
    eventually("and says it is synced", || syncer.status().state == "ok");
    let cursor = phone.sync_pulled(&info.address).unwrap().unwrap();
    let (name, seq) = cursor.split_once('.').expect("a cursor names its hub");
    assert_eq!(name.len(), 16, "{cursor}");
    assert!(seq.parse::<usize>().unwrap() >= before, "{cursor}");

    host.stop();
    let second_db = dir.path().join("second.db");
    let new_ones: Vec<String> = (0..after).map(|_| others_match(&second_db)).collect();
    let host = Host::start(&second_db, &listen, &token_file).unwrap();
    syncer.poke();
    eventually("the phone pulled every match of the new hub", || {
        new_ones.iter().all(|m| holds(&phone, m))
    });
    eventually("and pushed its own match to it", || {
        hub_revision(&second_db, &own.uid).is_some()
    });
    eventually("and says it is synced", || syncer.status().state == "ok");
    let cursor = phone.sync_pulled(&info.address).unwrap().unwrap();
    assert_ne!(
        cursor.split_once('.').unwrap().0,
        name,
        "the new hub's cursor"
    );
    drop(syncer);
    host.stop();
}

/// A round robin of four made and paired on the desk whose database is `db` (the hub's).
fn paired_on_the_desk(db: &Path) -> partie_core::store::TournamentView {
    let (mut desk, _) = Store::open(db).unwrap();
    let t = desk
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
                                "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"]]}))
        .unwrap();
    desk.tournament_event(t.id, &json!({"pair": {}})).unwrap()
}

#[test]
fn a_replaced_hub_gets_back_from_a_phone_the_tournament_it_ran() {
    // The club's hub runs a tournament; a phone pulls it and scores table 0 for it.
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("hub-token");
    let first_db = dir.path().join("first.db");
    let t = paired_on_the_desk(&first_db);
    let host = Host::start(&first_db, "127.0.0.1:0", &token_file).unwrap();
    let info = host.info();
    let listen = host.addr().to_string();
    let (mut phone, _, syncer) = joined_phone(dir.path(), &info.address, &info.token);
    syncer.poke();
    eventually("the phone pulled the tournament", || {
        phone.tournament_by_uid(&t.uid).unwrap().is_some()
    });
    let here = phone.tournament_by_uid(&t.uid).unwrap().unwrap();
    let m = phone.start_table(here, 0).unwrap();
    phone.play(m.id, &json!({"pins": [6]})).unwrap();
    syncer.poke();
    eventually("the hub has the table's match", || {
        hub_revision(&first_db, &m.uid).is_some()
    });

    // The hub's computer is replaced: a new data folder at the same address, with the same
    // token. The tournament it ran comes back from the phone, and the table's match with it,
    // not refused for a tournament the hub does not know.
    host.stop();
    let second_db = dir.path().join("second.db");
    let host = Host::start(&second_db, &listen, &token_file).unwrap();
    phone.play(m.id, &json!({"pins": [2]})).unwrap();
    syncer.poke();
    eventually("the new hub has the tournament back", || {
        hub_revision(&second_db, &t.uid).is_some()
    });
    eventually("and the table's match, at its latest revision", || {
        hub_revision(&second_db, &m.uid) == Some(2)
    });
    eventually("and the phone says it is synced", || {
        syncer.status().state == "ok"
    });
    assert!(
        syncer.status().refused.is_empty(),
        "{:?}",
        syncer.status().refused
    );
    let (hub, _) = Store::open(&second_db).unwrap();
    let summary = hub.tournament_summary(&t.uid).unwrap();
    assert_eq!(summary["round"], 1, "{summary}");
    assert_eq!(summary["live"][0]["match"], m.uid.as_str(), "{summary}");
    drop(syncer);
    host.stop();
}

/// The hub's answer to a body over its limit.
const TOO_LARGE: (&str, &str) = (
    "413 Payload Too Large",
    r#"{"kind":"too_large","detail":"the body is over 8 MiB"}"#,
);

/// A stand-in on loopback in front of the hub at `hub`: each connection's request is read and
/// handed to `serve`, with the phone's stream and a counter, for at most `within`. Returns its
/// address and the counter.
async fn stand_in<F, Fut>(
    hub: SocketAddr,
    within: Duration,
    serve: F,
) -> (SocketAddr, Arc<AtomicUsize>)
where
    F: Fn(SocketAddr, TcpStream, Vec<u8>, Arc<AtomicUsize>) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Option<()>> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let count = Arc::new(AtomicUsize::new(0));
    let counted = count.clone();
    let serve = Arc::new(serve);
    tokio::spawn(async move {
        while let Ok((mut phone, _)) = listener.accept().await {
            let (serve, counted) = (serve.clone(), counted.clone());
            tokio::spawn(async move {
                let work = async {
                    let request = common::read_message(&mut phone).await?;
                    serve(hub, phone, request, counted).await
                };
                let _ = tokio::time::timeout(within, work).await;
            });
        }
    });
    (addr, count)
}

/// The hub's whole answer to `request`.
async fn hub_answer(hub: SocketAddr, request: &[u8]) -> Option<Vec<u8>> {
    let mut up = TcpStream::connect(hub).await.ok()?;
    up.write_all(request).await.ok()?;
    common::read_message(&mut up).await
}

/// A [`stand_in`] that passes every request on, but answers a push that holds the record
/// `refused` itself, with `refusal` (its status line and body); it counts those pushes.
async fn refusing_proxy(
    hub: SocketAddr,
    refused: String,
    refusal: (&'static str, &'static str),
) -> (SocketAddr, Arc<AtomicUsize>) {
    troubled_proxy(
        hub,
        vec![refused],
        refusal,
        Arc::new(AtomicBool::new(false)),
    )
    .await
}

/// A [`stand_in`] that passes every request on, but answers a push that holds any of the
/// records `refused` itself, with `refusal` (its status line and body), until `mended`; it
/// counts those pushes.
async fn troubled_proxy(
    hub: SocketAddr,
    refused: Vec<String>,
    refusal: (&'static str, &'static str),
    mended: Arc<AtomicBool>,
) -> (SocketAddr, Arc<AtomicUsize>) {
    stand_in(
        hub,
        Duration::from_secs(10),
        move |hub, mut phone, request, counted| {
            let refused = refused.clone();
            let mended = mended.clone();
            async move {
                let head_end = request.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
                let body: serde_json::Value =
                    serde_json::from_slice(&request[head_end..]).unwrap_or_default();
                let holds = body["records"].as_array().is_some_and(|rs| {
                    rs.iter()
                        .any(|r| refused.iter().any(|id| r["id"] == id.as_str()))
                });
                if request.starts_with(b"POST /v1/records")
                    && holds
                    && !mended.load(Ordering::SeqCst)
                {
                    counted.fetch_add(1, Ordering::SeqCst);
                    return answer_with(&mut phone, refusal).await;
                }
                let answer = hub_answer(hub, &request).await?;
                phone.write_all(&answer).await.ok()
            }
        },
    )
    .await
}

/// Answers `phone` with `answer` (its status line and a JSON body), as a stand-in's own.
async fn answer_with(phone: &mut TcpStream, (line, body): (&str, &str)) -> Option<()> {
    let head = format!(
        "HTTP/1.1 {line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    phone.write_all(head.as_bytes()).await.ok()?;
    phone.write_all(body.as_bytes()).await.ok()
}

/// A [`stand_in`] before a hub gone wrong: a page asked after a cursor gives `record` again
/// under that same cursor, so that the next page would be the same; it counts those pages.
async fn stuck_proxy(hub: SocketAddr, record: serde_json::Value) -> (SocketAddr, Arc<AtomicUsize>) {
    stand_in(
        hub,
        Duration::from_secs(10),
        move |hub, mut phone, request, counted| {
            let record = record.clone();
            async move {
                let line = request.split(|&b| b == b'\r').next()?;
                let since = std::str::from_utf8(line)
                    .ok()?
                    .strip_prefix("GET /v1/records?since=")
                    .and_then(|rest| rest.split(' ').next())
                    .map(str::to_string);
                let Some(since) = since else {
                    let answer = hub_answer(hub, &request).await?;
                    return phone.write_all(&answer).await.ok();
                };
                counted.fetch_add(1, Ordering::SeqCst);
                let body = json!({"records": [record], "cursor": since}).to_string();
                answer_with(&mut phone, ("200 OK", &body)).await
            }
        },
    )
    .await
}

/// A [`stand_in`] as slow club Wi-Fi: every page of records the hub answers comes to the phone
/// a piece at a time, its head at once and its body in `pieces` pieces `every` apart; it
/// counts the pages it slowed.
async fn trickling_proxy(
    hub: SocketAddr,
    pieces: usize,
    every: Duration,
) -> (SocketAddr, Arc<AtomicUsize>) {
    stand_in(
        hub,
        Duration::from_secs(30),
        move |hub, mut phone, request, counted| async move {
            let answer = hub_answer(hub, &request).await?;
            let head_end = answer.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
            let (head, body) = answer.split_at(head_end);
            let page = request.starts_with(b"GET /v1/records")
                && body.windows(12).any(|w| w == br#""records":[{"#);
            if !page {
                return phone.write_all(&answer).await.ok();
            }
            counted.fetch_add(1, Ordering::SeqCst);
            phone.write_all(head).await.ok()?;
            for piece in body.chunks(body.len().div_ceil(pieces)) {
                tokio::time::sleep(every).await;
                phone.write_all(piece).await.ok()?;
            }
            Some(())
        },
    )
    .await
}

/// A page that takes longer than [`REQUEST_TIMEOUT`] to come but keeps coming (twelve pieces
/// half a second apart, never five seconds without a byte) is read to its end: the phone pulls
/// the desk's matches (a whole-answer deadline used to count the hub as away and ask the same
/// page again every two seconds, for ever).
#[test]
fn a_page_that_comes_slowly_but_steadily_is_pulled() {
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let (host, desk_db, slowed, (phone, _, syncer)) =
        trickled_desk(&rt, dir.path(), 12, Duration::from_millis(500));
    one_round(&syncer);
    assert!(slowed.load(Ordering::SeqCst) >= 1, "no page was slowed");
    assert!(
        start.elapsed() > REQUEST_TIMEOUT,
        "the page came too fast to show anything"
    );
    let (desk, _) = Store::open(&desk_db).unwrap();
    let theirs = desk.records_since(None, 100).unwrap().records;
    assert_eq!(theirs.len(), 40);
    assert!(theirs
        .iter()
        .all(|r| holds(&phone, r["id"].as_str().unwrap())));
    assert_eq!(syncer.status().state, "ok", "{:?}", syncer.status().error);
    drop(syncer);
    host.stop();
    drop(rt);
}

/// A hub that sends its answer a byte a second never fills the time a page is given: it is
/// counted as gone after about [`REQUEST_TIMEOUT`], and the round ends, where reading while
/// bytes still came would have held the sync for as long as the hub liked.
#[test]
fn a_page_that_comes_a_byte_now_and_then_ends_the_round_as_unreachable() {
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let (host, _, slowed, (_, _, syncer)) =
        trickled_desk(&rt, dir.path(), usize::MAX, Duration::from_secs(1));
    // The first round (it starts with the thread) ends on its first page.
    eventually("the round ended as the hub gone", || {
        syncer.status().state == "unreachable"
    });
    assert!(slowed.load(Ordering::SeqCst) >= 1, "no page was slowed");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    drop(syncer);
    host.stop();
    drop(rt);
}

/// A desk's database in `dir` with 40 Mölkky matches of one throw, its hub started behind a
/// [`trickling_proxy`] of `pieces` pieces `every` apart, and a phone joined through it (its
/// sync thread started): the hub, the desk's database, how many pages were slowed, the phone.
fn trickled_desk(
    rt: &tokio::runtime::Runtime,
    dir: &Path,
    pieces: usize,
    every: Duration,
) -> (
    Host,
    std::path::PathBuf,
    Arc<AtomicUsize>,
    (Store, std::path::PathBuf, Syncer),
) {
    let desk_db = dir.join("desk.db");
    let (mut desk, _) = Store::open(&desk_db).unwrap();
    let sides = anna_and_bea();
    for i in 0..40 {
        let m = desk
            .new_match("molkky", &Default::default(), &sides)
            .unwrap();
        desk.play(m.id, &json!({"pins": [i % 12 + 1]})).unwrap();
    }
    let host = Host::start(&desk_db, "127.0.0.1:0", &dir.join("hub-token")).unwrap();
    let (proxy, slowed) = rt.block_on(trickling_proxy(host.addr(), pieces, every));
    let phone = joined_phone(dir, &format!("http://{proxy}"), &host.info().token);
    (host, desk_db, slowed, phone)
}

/// A runtime of one worker for the stand-ins on loopback, beside the app's own threads.
fn one_worker() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

/// A match of another device (one throw of `pins`), stored in the hub's database at `db`;
/// its id.
fn others_match(db: &Path, pins: u32) -> String {
    let mut other = Store::open_in_memory().unwrap();
    let m = other
        .new_match("molkky", &Default::default(), &anna_and_bea())
        .unwrap();
    other.play(m.id, &json!({"pins": [pins]})).unwrap();
    let (mut desk, _) = Store::open(db).unwrap();
    desk.merge_records(&[other.export_match(m.id).unwrap()], Source::Device)
        .unwrap();
    m.uid
}

/// Two sides of one player each.
fn anna_and_bea() -> Vec<Vec<String>> {
    vec![vec!["Anna".to_string()], vec!["Bea".to_string()]]
}

/// The desk's hub on loopback over `dir/desk.db` (its path too), and a phone's database in
/// `dir` (its path too) that has not joined it yet.
fn desk_and_unjoined_phone(dir: &Path) -> (Host, std::path::PathBuf, Store, std::path::PathBuf) {
    let desk_db = dir.join("desk.db");
    let host = Host::start(&desk_db, "127.0.0.1:0", &dir.join("hub-token")).unwrap();
    let phone_db = dir.join("phone.db");
    let (phone, _) = Store::open(&phone_db).unwrap();
    (host, desk_db, phone, phone_db)
}

/// The phone joined to the hub through the stand-in at `proxy`, its sync thread started
/// (by [`counted_syncer`]) and one round of it ended.
fn first_round_through(
    phone: &mut Store,
    phone_db: &Path,
    proxy: SocketAddr,
    token: &str,
) -> Syncer {
    phone.join_club(&format!("http://{proxy}"), token).unwrap();
    let syncer = counted_syncer(phone_db);
    first_look(&syncer);
    syncer
}

/// A sync thread whose clock never starts a round during a test: every round after its first
/// is one the test asked for ([`one_round`]), so the requests a hub gets can be counted (a
/// round by the clock, 2 s after the last or up to 5 s after a failure, could come in between
/// on a slow machine, and send one more).
fn counted_syncer(db: &Path) -> Syncer {
    Syncer::paced(db.to_path_buf(), Duration::from_secs(3600))
}

/// The sync state after a round, and its error's code.
fn state_and_code(syncer: &Syncer) -> (String, Option<&'static str>) {
    let status = syncer.status();
    (
        status.state.to_string(),
        status.error.as_ref().and_then(|e| e.code),
    )
}

/// Waits for the first look of a sync thread just started (it starts with one, a round when
/// the device is joined).
fn first_look(syncer: &Syncer) {
    eventually("the sync thread's first look ended", || {
        let st = syncer.status();
        st.looks >= 1 && !st.busy
    });
}

/// Waits for the sync thread to end one round begun after this call, and that round only.
/// The thread's first look is waited for first: a poke sent while that look was under way was
/// served by a second round, which went on after this returned and sent the hub one request
/// more than the test counted.
fn one_round(syncer: &Syncer) {
    first_look(syncer);
    let before = syncer.status().looks;
    syncer.poke();
    eventually("a round ended", || {
        let st = syncer.status();
        st.looks > before && !st.busy
    });
}

#[test]
fn a_tournament_the_replaced_hub_refuses_whole_is_said_and_not_sent_again() {
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("hub-token");
    let first_db = dir.path().join("first.db");
    let t = paired_on_the_desk(&first_db);
    let host = Host::start(&first_db, "127.0.0.1:0", &token_file).unwrap();
    let info = host.info();
    let listen = host.addr();
    let (proxy, refusals) = rt.block_on(refusing_proxy(listen, t.uid.clone(), TOO_LARGE));
    let (mut phone, _, syncer) = joined_phone(dir.path(), &format!("http://{proxy}"), &info.token);
    syncer.poke();
    eventually("the phone pulled the tournament", || {
        phone.tournament_by_uid(&t.uid).unwrap().is_some()
    });
    let here = phone.tournament_by_uid(&t.uid).unwrap().unwrap();
    let m = phone.start_table(here, 0).unwrap();
    phone.play(m.id, &json!({"pins": [6]})).unwrap();
    one_round(&syncer);
    assert!(hub_revision(&first_db, &m.uid).is_some());
    assert_eq!(
        refusals.load(Ordering::SeqCst),
        0,
        "nothing was given back yet"
    );

    // The hub is replaced; the tournament given back is refused whole (a body too large).
    host.stop();
    let second_db = dir.path().join("second.db");
    let host = Host::start(&second_db, &listen.to_string(), &token_file).unwrap();
    one_round(&syncer);
    assert_eq!(refusals.load(Ordering::SeqCst), 1);
    let status = syncer.status();
    let said: Vec<_> = status
        .refused
        .iter()
        .filter(|r| r["id"] == t.uid.as_str())
        .collect();
    assert_eq!(said.len(), 1, "{:?}", status.refused);
    assert_eq!(said[0]["kind"], "too_large");
    assert!(
        said[0]["detail"].as_str().unwrap().starts_with("413"),
        "{:?}",
        said[0]
    );
    // It is not sent again round after round (it would stop every push and pull after it),
    // and nothing is lost: the phone keeps it, and the rounds go on.
    phone.play(m.id, &json!({"pins": [2]})).unwrap();
    one_round(&syncer);
    one_round(&syncer);
    assert_eq!(refusals.load(Ordering::SeqCst), 1);
    assert_eq!(hub_revision(&second_db, &t.uid), None);
    assert!(phone.tournament_by_uid(&t.uid).unwrap().is_some());
    assert_eq!(syncer.status().state, "ok", "{:?}", syncer.status().error);
    drop(syncer);
    host.stop();
    drop(rt);
}

/// A push the hub answers 413 (over its 8 MiB) goes again in halves: the phone's other matches
/// reach the hub, the one too large for it alone is said as refused (`too_large`) and not sent
/// again until it changes, and the rounds go on, pulls included (a batch refused whole used to
/// end every round before its pull, for good).
#[test]
fn a_batch_too_large_for_the_hub_goes_in_halves_and_only_the_record_too_large_stays_out() {
    one_record_refused_whole(TOO_LARGE, "too_large");
}

/// The same behind a proxy whose smaller limit answers a page of its own, not the hub's JSON
/// (nginx's 1 MiB by default): taken for "not a hub", the batch went again whole at every
/// round, and no round pulled.
#[test]
fn a_batch_too_large_for_a_proxy_in_front_goes_in_halves_as_well() {
    one_record_refused_whole(
        (
            "413 Request Entity Too Large",
            "<html><body><h1>413 Request Entity Too Large</h1></body></html>",
        ),
        "too_large",
    );
}

/// The same with a push the hub cannot read (a record nested deeper than its JSON reader
/// goes, which the phone read from a file): 400 `bad_record` for the whole push used to stop
/// every push and pull after it, round after round.
#[test]
fn a_batch_the_hub_cannot_read_goes_in_halves_and_only_the_record_at_fault_stays_out() {
    one_record_refused_whole(
        (
            "400 Bad Request",
            r#"{"kind":"bad_record","detail":"the body is not JSON: recursion limit exceeded"}"#,
        ),
        "bad_record",
    );
}

/// Three matches pushed through a stand-in that refuses whole every push holding the second
/// with `refusal`: the other two reach the hub, the second is listed as refused with `kind`.
fn one_record_refused_whole(refusal: (&'static str, &'static str), kind: &str) {
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    // The phone plays three matches before it joins: one of them the proxy finds too large.
    let (host, desk_db, mut phone, phone_db) = desk_and_unjoined_phone(dir.path());
    let info = host.info();
    let ids = three_matches(&mut phone);
    let big = ids[1].clone();
    let (proxy, refusals) = rt.block_on(refusing_proxy(host.addr(), big.clone(), refusal));
    let syncer = first_round_through(&mut phone, &phone_db, proxy, &info.token);
    assert_eq!(hub_revision(&desk_db, &ids[0]), Some(1));
    assert_eq!(hub_revision(&desk_db, &ids[2]), Some(1));
    assert_eq!(hub_revision(&desk_db, &big), None);
    let status = syncer.status();
    assert_eq!(status.state, "ok", "{:?}", status.error);
    let said: Vec<_> = status
        .refused
        .iter()
        .filter(|r| r["id"] == big.as_str())
        .collect();
    assert_eq!(said.len(), 1, "{:?}", status.refused);
    assert_eq!(said[0]["kind"], kind);
    assert_eq!(status.pushed, 2);
    let asked = refusals.load(Ordering::SeqCst);
    // The next rounds send it no more, and pull what another device pushed meanwhile.
    let theirs = others_match(&desk_db, 5);
    one_round(&syncer);
    one_round(&syncer);
    assert_eq!(refusals.load(Ordering::SeqCst), asked);
    assert!(holds(&phone, &theirs));
    assert_eq!(syncer.status().state, "ok");
    // The app starts again: the refusal is still listed (the push mark went past it, and it
    // was kept in memory only), and still not sent.
    drop(syncer);
    let syncer = counted_syncer(&phone_db);
    first_look(&syncer);
    let status = syncer.status();
    let said: Vec<_> = status
        .refused
        .iter()
        .filter(|r| r["id"] == big.as_str())
        .collect();
    assert_eq!(said.len(), 1, "{:?}", status.refused);
    assert_eq!(
        (&said[0]["kind"], &said[0]["by"]),
        (&json!(kind), &json!("hub"))
    );
    assert_eq!(refusals.load(Ordering::SeqCst), asked);
    drop(syncer);
    host.stop();
    drop(rt);
}

/// A hub in trouble (its disk full: 500 `storage`; a proxy in front of it restarting: a 503
/// page that is not JSON) refuses nothing: the phone lists no record as refused, keeps its
/// outbox and sends it again round after round, still pulls what the others pushed, and says
/// `failing` (it said `refused`, and ended the round before its pull).
#[test]
fn a_hub_in_trouble_is_asked_again_and_the_phone_still_pulls() {
    for trouble in [
        (
            "500 Internal Server Error",
            r#"{"kind":"storage","detail":"database or disk is full"}"#,
        ),
        ("503 Service Unavailable", "<html>restarting</html>"),
    ] {
        let rt = one_worker();
        let dir = tempfile::tempdir().unwrap();
        let (host, desk_db, mut phone, phone_db) = desk_and_unjoined_phone(dir.path());
        let info = host.info();
        let sides = anna_and_bea();
        let mine = phone
            .new_match("molkky", &Default::default(), &sides)
            .unwrap();
        phone.play(mine.id, &json!({"pins": [3]})).unwrap();
        // Another device's match is on the hub already.
        let theirs = others_match(&desk_db, 5);
        let (proxy, troubled) = rt.block_on(refusing_proxy(host.addr(), mine.uid.clone(), trouble));
        let syncer = first_round_through(&mut phone, &phone_db, proxy, &info.token);
        let status = syncer.status();
        assert_eq!(
            state_and_code(&syncer),
            ("failing".to_string(), Some("hub_failing")),
            "{trouble:?}: {:?}",
            status.error
        );
        assert!(status.refused.is_empty(), "{:?}", status.refused);
        assert!(holds(&phone, &theirs), "{trouble:?}: the pull was skipped");
        assert_eq!(phone.club_waiting(&format!("http://{proxy}")).unwrap(), 1);
        assert_eq!(hub_revision(&desk_db, &mine.uid), None);
        // Asked again, whole, at the next round.
        let asked = troubled.load(Ordering::SeqCst);
        assert!(asked >= 1);
        one_round(&syncer);
        assert!(troubled.load(Ordering::SeqCst) > asked);
        assert_eq!(syncer.status().state, "failing");
        assert!(syncer.status().refused.is_empty());
        drop(syncer);
        host.stop();
        drop(rt);
    }
}

const DISK_FULL: (&str, &str) = (
    "500 Internal Server Error",
    r#"{"kind":"storage","detail":"database or disk is full"}"#,
);

/// Three matches played on a phone before it joins: their ids.
fn three_matches(phone: &mut Store) -> Vec<String> {
    (0..3)
        .map(|i| {
            let m = phone
                .new_match("molkky", &Default::default(), &anna_and_bea())
                .unwrap();
            phone.play(m.id, &json!({"pins": [i + 1]})).unwrap();
            m.uid
        })
        .collect()
}

/// What the sync status lists of the record `id`: its kind and by whom.
fn listed(syncer: &Syncer, id: &str) -> Vec<(String, String, String)> {
    syncer
        .status()
        .refused
        .iter()
        .filter(|r| r["id"] == id)
        .map(|r| {
            let text = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            (text("kind"), text("by"), text("detail"))
        })
        .collect()
}

/// A hub that fails (500) on one record alone, a bug of its own with that record, while it
/// takes the others: the others reach it (the first of the batch as well as a later one: it
/// used to hold every match after it, round after round), the one it fails on is listed as
/// held (`hub_failing`), still counted as waiting, and sent again at every round, after a
/// restart too, until the hub is mended and takes it.
#[test]
fn a_record_the_hub_fails_on_alone_is_held_and_the_others_go_on() {
    for at_fault in [0, 1] {
        let rt = one_worker();
        let dir = tempfile::tempdir().unwrap();
        let (host, desk_db, mut phone, phone_db) = desk_and_unjoined_phone(dir.path());
        let info = host.info();
        let ids = three_matches(&mut phone);
        let bad = ids[at_fault].clone();
        let mended = Arc::new(AtomicBool::new(false));
        let (proxy, failed) = rt.block_on(troubled_proxy(
            host.addr(),
            vec![bad.clone()],
            DISK_FULL,
            mended.clone(),
        ));
        let hub = format!("http://{proxy}");
        let syncer = first_round_through(&mut phone, &phone_db, proxy, &info.token);
        for id in ids.iter().filter(|id| **id != bad) {
            assert_eq!(hub_revision(&desk_db, id), Some(1), "{at_fault}: {id}");
        }
        assert_eq!(hub_revision(&desk_db, &bad), None);
        assert_eq!(
            state_and_code(&syncer),
            ("failing".to_string(), Some("hub_failing"))
        );
        let said = listed(&syncer, &bad);
        assert_eq!(said.len(), 1, "{:?}", syncer.status().refused);
        assert_eq!(
            (said[0].0.as_str(), said[0].1.as_str()),
            ("hub_failing", "hub")
        );
        assert!(said[0].2.starts_with("500"), "{said:?}");
        assert_eq!(syncer.status().pushed, 2);
        assert_eq!(phone.club_waiting(&hub).unwrap(), 1);

        // Sent again, alone, at the next round, which still pulls what the others pushed: the
        // device has what the hub has, and says when it last had it.
        let asked = failed.load(Ordering::SeqCst);
        let theirs = others_match(&desk_db, 5);
        let synced = syncer.status().last_sync;
        assert!(synced.is_some());
        std::thread::sleep(Duration::from_millis(5));
        one_round(&syncer);
        assert_eq!(failed.load(Ordering::SeqCst), asked + 1);
        assert!(holds(&phone, &theirs));
        assert!(syncer.status().last_sync > synced);
        assert_eq!(listed(&syncer, &bad).len(), 1);

        // After a restart: still listed, still waiting, still sent.
        drop(syncer);
        let syncer = counted_syncer(&phone_db);
        first_look(&syncer);
        assert_eq!(failed.load(Ordering::SeqCst), asked + 2);
        assert_eq!(listed(&syncer, &bad).len(), 1);
        assert_eq!(phone.club_waiting(&hub).unwrap(), 1);

        // The hub mended: it takes the record, which leaves the list.
        mended.store(true, Ordering::SeqCst);
        one_round(&syncer);
        assert_eq!(hub_revision(&desk_db, &bad), Some(1));
        assert!(listed(&syncer, &bad).is_empty());
        assert_eq!(phone.club_waiting(&hub).unwrap(), 0);
        assert_eq!(syncer.status().state, "ok", "{:?}", syncer.status().error);
        drop(syncer);
        host.stop();
        drop(rt);
    }
}

/// A hub that fails on every push (its disk full) is not searched record by record: a round
/// asks it three times (the batch, its first record alone, the next alone), holds nothing and
/// lists nothing, and every match still waits.
#[test]
fn a_hub_failing_on_every_record_is_asked_three_times_a_round() {
    let (asked, next_round) = failing_from(0);
    assert_eq!((asked, next_round), (3, Some(6)));
}

/// A hub that takes a batch, then fails on everything (it restarts, a proxy before it answers
/// 502): nothing is held, nothing listed, the rest waits, and the round asks it a bounded
/// number of times (the batch of three, the last two, the second alone, the third alone).
/// Each record failed on alone used to be held, one request each, the whole outbox passed
/// over to be sent again twenty a round.
#[test]
fn a_hub_that_fails_after_taking_some_holds_nothing() {
    assert_eq!(failing_from(1).0, 4);
}

/// Three matches pushed to a hub that fails (500) on every push holding one of them from the
/// `first`-th on: those before it reach it, the round says `failing`, nothing is listed and the
/// others wait. The failed pushes of the first round, and (all failing) after a second.
fn failing_from(first: usize) -> (usize, Option<usize>) {
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    let (host, desk_db, mut phone, phone_db) = desk_and_unjoined_phone(dir.path());
    let info = host.info();
    let ids = three_matches(&mut phone);
    let (proxy, failed) = rt.block_on(troubled_proxy(
        host.addr(),
        ids[first..].to_vec(),
        DISK_FULL,
        Arc::new(AtomicBool::new(false)),
    ));
    let syncer = first_round_through(&mut phone, &phone_db, proxy, &info.token);
    for id in &ids[..first] {
        assert_eq!(hub_revision(&desk_db, id), Some(1));
    }
    assert_eq!(
        state_and_code(&syncer),
        ("failing".to_string(), Some("hub_failing"))
    );
    assert!(
        syncer.status().refused.is_empty(),
        "{:?}",
        syncer.status().refused
    );
    assert_eq!(
        phone.club_waiting(&format!("http://{proxy}")).unwrap(),
        ids.len() - first
    );
    let asked = failed.load(Ordering::SeqCst);
    let next_round = (first == 0).then(|| {
        one_round(&syncer);
        assert!(ids.iter().all(|id| hub_revision(&desk_db, id).is_none()));
        failed.load(Ordering::SeqCst)
    });
    drop(syncer);
    host.stop();
    drop(rt);
    (asked, next_round)
}

/// A token file may hold any text (docs/hub.md: its content, whitespace around it removed).
/// One of `+`, `&`, `#` and `%` comes through the club-night screen's join link and big-screen
/// link whole: a phone joins with it, and the page opens; one beyond ASCII opens the API by its
/// header. A `+` in a page's address is a `+`, not a form's space.
#[test]
fn a_token_of_any_characters_comes_through_the_links_and_opens_the_hub() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("hub-token");
    let token = "s3cr+t&k#y%20é";
    std::fs::write(&token_file, format!("  {token}\n")).unwrap();
    let host = Host::start(&dir.path().join("desk.db"), "127.0.0.1:0", &token_file).unwrap();
    let info = host.info();
    assert_eq!(info.token, token);
    // The screen warns that phones cannot join with it.
    assert!(!info.phones_can_join);
    assert_eq!(
        info.link,
        format!(
            "partie://join?hub={}&token=s3cr%2Bt%26k%23y%2520%C3%A9",
            info.address
        )
    );
    // A phone takes tokens of ASCII letters, digits and signs (docs/hub.md): this one not, and
    // one of those signs whole.
    let e = partie_core::store::read_join(&info.link, None).unwrap_err();
    assert_eq!(e.code, Some("bad_club_token"));
    let ascii = partie_hub::host::join_link(&info.address, "s3cr+t&k#y%20");
    let (address, read) = partie_core::store::read_join(&ascii, None).unwrap();
    assert_eq!(
        (address.as_str(), read.as_str()),
        (info.address.as_str(), "s3cr+t&k#y%20")
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let get = |head: String| {
        rt.block_on(common::raw(
            host.addr(),
            head.as_bytes(),
            Duration::from_secs(5),
        ))
    };
    let page = info.page.strip_prefix(&info.address).unwrap().to_string();
    assert_eq!(page, "/?token=s3cr%2Bt%26k%23y%2520%C3%A9");
    for (path, status) in [
        (page.clone(), "200"),
        // A + typed in the address stays a +; a space is another token.
        ("/?token=s3cr+t%26k%23y%2520%C3%A9".to_string(), "200"),
        ("/?token=s3cr%20t%26k%23y%2520%C3%A9".to_string(), "401"),
        ("/?token=s3cr%2Bt%26k%23y%20%C3%A9".to_string(), "401"),
    ] {
        let answer = get(format!(
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        ));
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{path}: {answer:.200}"
        );
    }
    // The header carries the token as its bytes, beyond ASCII too.
    let mut head = b"GET /v1/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ".to_vec();
    head.extend_from_slice(token.as_bytes());
    head.extend_from_slice(b"\r\nConnection: close\r\n\r\n");
    let answer = rt.block_on(common::raw(host.addr(), &head, Duration::from_secs(5)));
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:.200}");
    let wrong = get("GET /v1/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cr+t&k#y%20e\r\nConnection: close\r\n\r\n".into());
    assert!(wrong.starts_with("HTTP/1.1 401"), "{wrong:.200}");
    host.stop();
}

/// A sync thread that cannot open this device's database (here a folder where the file would
/// be) says so, as this device's trouble (`device`, not the hub's refusal) with the error,
/// instead of "not joined" (`idle`), which the device may well not be.
#[test]
fn a_database_the_sync_thread_cannot_open_is_said_not_shown_as_not_joined() {
    let dir = tempfile::tempdir().unwrap();
    let syncer = Syncer::start(dir.path().to_path_buf());
    eventually("the failure is said", || syncer.status().state == "device");
    let error = syncer.status().error.expect("the error is given");
    assert_eq!(error.kind, partie_core::ErrorKind::Storage, "{error:?}");
}

/// A hub that gives records without moving its cursor would be asked for the same page again
/// and again: the round would never end, the sync state would say "syncing" for ever and the
/// phone's own records would never go. The round ends at the second such page, says so, and
/// keeps what the first pages brought.
#[test]
fn a_hub_that_does_not_move_its_cursor_does_not_hold_the_round_for_ever() {
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    let (host, desk_db, mut phone, phone_db) = desk_and_unjoined_phone(dir.path());
    let info = host.info();
    let theirs = others_match(&desk_db, 5);
    let record = {
        let (desk, _) = Store::open(&desk_db).unwrap();
        desk.records_since(None, 10).unwrap().records[0].clone()
    };
    let (proxy, stuck) = rt.block_on(stuck_proxy(host.addr(), record));
    let syncer = first_round_through(&mut phone, &phone_db, proxy, &info.token);
    let status = syncer.status();
    assert_eq!(
        state_and_code(&syncer),
        ("refused".to_string(), Some("not_a_hub")),
        "{:?}",
        status.error
    );
    assert!(
        status.error.as_ref().unwrap().detail.contains("cursor"),
        "{:?}",
        status.error
    );
    // (Counted between rounds: the start's round and the poked one may both have run.)
    let (rounds, asked) = loop {
        let before = syncer.status();
        let asked = stuck.load(Ordering::SeqCst) as u64;
        let after = syncer.status();
        if !before.busy && !after.busy && before.looks == after.looks {
            break (after.looks, asked);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(rounds >= 1);
    assert_eq!(asked, rounds, "asked once a round");
    assert!(holds(&phone, &theirs));
    drop(syncer);
    host.stop();
    drop(rt);
}

/// Something at the hub's address answers a push `200 {}` (another program there now, a proxy
/// in front): no account of the records, so none was taken. They stay waiting, the state says
/// the address is no hub, and once the hub answers again they reach it. The answer counted as
/// "all taken": the records were marked pushed and never sent again.
#[test]
fn a_push_answered_without_an_account_of_its_records_takes_none() {
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    let (host, desk_db, mut phone, phone_db) = desk_and_unjoined_phone(dir.path());
    let info = host.info();
    let ids = three_matches(&mut phone);
    let mended = Arc::new(AtomicBool::new(false));
    let (proxy, answered) = rt.block_on(troubled_proxy(
        host.addr(),
        ids.clone(),
        ("200 OK", "{}"),
        mended.clone(),
    ));
    let hub = format!("http://{proxy}");
    let syncer = first_round_through(&mut phone, &phone_db, proxy, &info.token);
    assert!(answered.load(Ordering::SeqCst) >= 1);
    for id in &ids {
        assert_eq!(hub_revision(&desk_db, id), None);
    }
    assert_eq!(phone.club_waiting(&hub).unwrap(), ids.len());
    assert_eq!(
        state_and_code(&syncer),
        ("refused".to_string(), Some("not_a_hub"))
    );
    mended.store(true, Ordering::SeqCst);
    one_round(&syncer);
    for id in &ids {
        assert_eq!(hub_revision(&desk_db, id), Some(1), "{id}");
    }
    assert_eq!(phone.club_waiting(&hub).unwrap(), 0);
    assert_eq!(state_and_code(&syncer).0, "ok");
}

/// A [`stand_in`] before a hub whose log never stops moving (other phones pushing as fast as
/// pages come): each page asked for holds one new record under a new cursor, `pages` of them;
/// then pages are empty. Pushes go on to the hub. It counts the pages given.
async fn endless_proxy(
    hub: SocketAddr,
    template: serde_json::Value,
    pages: usize,
) -> (SocketAddr, Arc<AtomicUsize>) {
    stand_in(
        hub,
        Duration::from_secs(10),
        move |hub, mut phone, request, counted| {
            let template = template.clone();
            async move {
                if !request.starts_with(b"GET /v1/records") {
                    let answer = hub_answer(hub, &request).await?;
                    return phone.write_all(&answer).await.ok();
                }
                let n = counted.fetch_add(1, Ordering::SeqCst);
                let body = if n < pages {
                    let mut record = template;
                    record["id"] = json!(format!("endless-{n}"));
                    json!({"records": [record], "cursor": format!("c{n}")})
                } else {
                    json!({"records": [], "cursor": format!("c{pages}")})
                }
                .to_string();
                answer_with(&mut phone, ("200 OK", &body)).await
            }
        },
    )
    .await
}

/// While the hub's pages keep coming, a throw made on the phone still reaches the hub within
/// a few pages: a round pulls a bounded number of pages, and the next one pushes first. A
/// round pulled until a page came empty, and the phone's throws waited for as long as the
/// others pushed.
#[test]
fn a_hub_whose_pages_never_run_out_still_gets_this_phones_throws() {
    const PAGES: usize = 3000;
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    let (host, desk_db, mut phone, phone_db) = desk_and_unjoined_phone(dir.path());
    let info = host.info();
    let template = {
        let mut other = Store::open_in_memory().unwrap();
        let m = other
            .new_match("molkky", &Default::default(), &anna_and_bea())
            .unwrap();
        other.play(m.id, &json!({"pins": [3]})).unwrap();
        other.export_match(m.id).unwrap()
    };
    let (proxy, pages) = rt.block_on(endless_proxy(host.addr(), template, PAGES));
    phone
        .join_club(&format!("http://{proxy}"), &info.token)
        .unwrap();
    let syncer = Syncer::start(phone_db.clone());
    syncer.poke();
    eventually("pages come", || pages.load(Ordering::SeqCst) > 5);
    let id = three_matches(&mut phone).remove(0);
    syncer.poke();
    eventually("the phone's match reached the hub", || {
        hub_revision(&desk_db, &id).is_some()
    });
    let given = pages.load(Ordering::SeqCst);
    assert!(
        given < PAGES,
        "reached it only once the pages ran out ({given})"
    );
    assert!(holds(&phone, "endless-3"));
}

/// The hub fails (500) on one record alone, and a throw on that match is played meanwhile: the
/// first of the outbox is then another match, never sent. It is sent, not held in the place of
/// the one the hub failed on (it was listed as "hub in trouble" without a try, and the one at
/// fault went on in the next batch).
#[test]
fn a_record_that_changes_while_the_hub_fails_on_it_holds_no_other() {
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    let (host, desk_db, mut phone, phone_db) = desk_and_unjoined_phone(dir.path());
    let info = host.info();
    let (mut ids, mut uids) = (Vec::new(), Vec::new());
    for pins in 1..=3 {
        let m = phone
            .new_match("molkky", &Default::default(), &anna_and_bea())
            .unwrap();
        phone.play(m.id, &json!({"pins": [pins]})).unwrap();
        ids.push(m.id);
        uids.push(m.uid);
    }
    let (bad, bad_id) = (uids[0].clone(), ids[0]);
    let db = phone_db.clone();
    let played = Arc::new(AtomicBool::new(false));
    let (proxy, failed) = rt.block_on(stand_in(
        host.addr(),
        Duration::from_secs(10),
        move |hub, mut phone, request, counted| {
            let (bad, db, played) = (bad.clone(), db.clone(), played.clone());
            async move {
                let head_end = request.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
                let body: serde_json::Value =
                    serde_json::from_slice(&request[head_end..]).unwrap_or_default();
                let records = body["records"].as_array().cloned().unwrap_or_default();
                if request.starts_with(b"POST /v1/records")
                    && records.iter().any(|r| r["id"] == bad.as_str())
                {
                    counted.fetch_add(1, Ordering::SeqCst);
                    if records.len() == 1 && !played.swap(true, Ordering::SeqCst) {
                        // A throw on that match while the hub fails on it.
                        let (mut s, _) = Store::open(&db).unwrap();
                        s.play(bad_id, &json!({"pins": [7]})).unwrap();
                    }
                    return answer_with(&mut phone, DISK_FULL).await;
                }
                let answer = hub_answer(hub, &request).await?;
                phone.write_all(&answer).await.ok()
            }
        },
    ));
    let syncer = first_round_through(&mut phone, &phone_db, proxy, &info.token);
    assert!(failed.load(Ordering::SeqCst) >= 2);
    for uid in &uids[1..] {
        assert_eq!(hub_revision(&desk_db, uid), Some(1), "{uid}");
        assert!(
            listed(&syncer, uid).is_empty(),
            "{uid}: {:?}",
            syncer.status().refused
        );
    }
    assert_eq!(hub_revision(&desk_db, &uids[0]), None);
    assert_eq!(
        listed(&syncer, &uids[0]).len(),
        1,
        "the one at fault is held"
    );
}

/// A hub that answers nothing but 503 (down behind its proxy), and a phone left joined that
/// plays nothing: the phone looks at it less and less often, not every 2 s all night.
#[test]
fn a_hub_in_trouble_is_looked_at_less_and_less_often() {
    let rt = one_worker();
    let dir = tempfile::tempdir().unwrap();
    let (host, _desk_db, mut phone, phone_db) = desk_and_unjoined_phone(dir.path());
    let info = host.info();
    let (proxy, asked) = rt.block_on(stand_in(
        host.addr(),
        Duration::from_secs(10),
        |_, mut phone, _, counted| async move {
            counted.fetch_add(1, Ordering::SeqCst);
            let page = "<html>503 Service Unavailable</html>";
            let head = format!(
                "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                page.len()
            );
            phone.write_all(head.as_bytes()).await.ok()?;
            phone.write_all(page.as_bytes()).await.ok()
        },
    ));
    // At the app's pace: the clock is what is looked at.
    phone
        .join_club(&format!("http://{proxy}"), &info.token)
        .unwrap();
    let syncer = Syncer::start(phone_db.clone());
    first_look(&syncer);
    assert_eq!(state_and_code(&syncer).0, "failing");
    let first = asked.load(Ordering::SeqCst);
    std::thread::sleep(Duration::from_secs(12));
    let rounds = asked.load(Ordering::SeqCst) - first;
    // Every 2 s: six rounds; waiting twice as long each time up to 8 s (4, then 8 s, give or
    // take a fifth): one to three.
    assert!((1..=3).contains(&rounds), "{rounds} rounds in 12 s");
    drop(syncer);
    host.stop();
}
