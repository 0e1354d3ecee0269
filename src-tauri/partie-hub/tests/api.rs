//! The hub's API on loopback (`docs/hub.md`, "The API"): the token, pushes and their rules, limits
//! and malformed bodies, pages, the event stream, tournaments and the big-screen page.

//!
//! Every test runs on both storages (`NAME::sqlite`, `NAME::postgres`): the same behaviour.

mod common;

use common::{molkky, raw, Backend, Client, TestHub};
use serde_json::{json, Value};
use std::time::Duration;

on_both!(
    health_needs_no_token_and_everything_else_does,
    a_push_takes_what_replays_and_refuses_the_rest_record_by_record,
    pushing_the_same_body_twice_or_at_once_stores_it_once,
    an_undo_after_a_push_arrives_as_a_newer_revision_and_conflicts_are_refused,
    a_known_record_is_decided_by_its_revision_before_it_is_replayed,
    malformed_and_oversized_bodies_are_refused_whole,
    pages_follow_the_cursor_each_record_once_in_order_of_its_latest_change,
    a_page_ends_at_its_bytes_and_the_next_page_goes_on,
    the_event_stream_tells_each_accepted_or_updated_record,
    a_change_made_by_another_program_reaches_the_stream_too,
    a_tournament_summary_by_id_or_the_current_one,
    a_text_holding_nul_is_refused_record_by_record,
    wrong_methods_and_paths_that_name_nothing_are_refused_as_json,
);

fn counts(a: &common::Answer) -> (u64, u64, u64, Vec<String>) {
    let b = &a.body;
    (
        b["accepted"].as_u64().unwrap(),
        b["updated"].as_u64().unwrap(),
        b["already"].as_u64().unwrap(),
        b["refused"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["kind"].as_str().unwrap().to_string())
            .collect(),
    )
}

async fn health_needs_no_token_and_everything_else_does(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let anyone = hub.client().with_token(None);
    let a = anyone.get("/v1/health").await;
    assert_eq!(a.status, 200);
    assert_eq!(a.body["hub"], "partie");
    assert_eq!(a.body["schema"], hub.place.schema());
    assert!(a.body["version"].is_string());
    hub.client().push(&[molkky("m", 1, 1)]).await;
    let wrong = hub.client().with_token(Some("not-the-token"));
    let almost = {
        let mut t = hub.token.clone();
        t.pop();
        hub.client().with_token(Some(&t))
    };
    for client in [&anyone, &wrong, &almost] {
        for (method, path) in [
            ("GET", "/"),
            ("GET", "/v1/records"),
            ("POST", "/v1/records"),
            ("GET", "/v1/events"),
            ("GET", "/v1/tournaments/current"),
            ("GET", "/nothing/here"),
        ] {
            let body = json!({"records": [molkky("x", 1, 1)]})
                .to_string()
                .into_bytes();
            let a = client.send(method, path, body).await;
            assert_eq!(a.status, 401, "{method} {path}");
            assert_eq!(a.body["kind"], "unauthorized");
            assert!(
                !a.text.contains("\"m\""),
                "nothing is served without the token"
            );
        }
    }
    // Nothing was taken from those pushes.
    let all = hub.client().pull_all(100).await;
    assert_eq!(all.len(), 1);
    // The page and the event stream take it in the address; the API does not.
    let query = |path: &str| format!("{path}?token={}", hub.token);
    let page = anyone.get(&query("/")).await;
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.text.contains("EventSource"));
    // The games' and systems' titles and the place words are the core's, written in as served.
    assert!(!page.text.contains("/*WORDS*/"));
    let words = page.text.split("const WORDS = ").nth(1).unwrap();
    let words: serde_json::Value = serde_json::Deserializer::from_str(words)
        .into_iter()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(
        words["games"]["morris"],
        json!(["Nine Men’s Morris", "Jeu du moulin"])
    );
    assert_eq!(
        words["places"]["crokinole_board"],
        json!(["Board", "Planche"])
    );
    assert_eq!(
        words["systems"]["swiss"],
        json!(["Swiss", "Système suisse"])
    );
    let games = words["games"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect::<Vec<_>>();
    assert_eq!(games.len(), partie_core::games::GAMES.len());
    assert_eq!(anyone.get(&query("/v1/records")).await.status, 401);
    assert_eq!(anyone.get("/?token=wrong").await.status, 401);
    // With the token, an unknown path is not_found.
    let a = hub.client().get("/nothing/here").await;
    assert_eq!(
        (a.status, a.body["kind"].as_str()),
        (404, Some("not_found"))
    );
}

async fn a_push_takes_what_replays_and_refuses_the_rest_record_by_record(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    let mut illegal = molkky("illegal", 1, 9);
    illegal["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"pins": [3]}));
    let mut setup = molkky("setup", 1, 1);
    setup["rules"] = json!({"target": "fifty"});
    let a = c
        .push(&[
            molkky("a", 3, 3),
            json!("not an object"),
            json!({"format": 1, "game": "molkky", "sides": [["A"], ["B"]]}),
            json!({"id": 5, "format": 1, "game": "molkky", "sides": [["A"], ["B"]]}),
            illegal,
            setup,
            json!({"id": "f", "format": 2, "game": "molkky"}),
            molkky("b", 1, 1),
        ])
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(
        counts(&a),
        (
            2,
            0,
            0,
            vec![
                "bad_record".into(),
                "bad_record".into(),
                "bad_record".into(),
                "illegal_action".into(),
                "bad_setup".into(),
                "bad_record".into()
            ]
        )
    );
    assert_eq!(a.body["refused"][3]["id"], "illegal");
    assert!(a.body["refused"][3]["detail"].is_string());
    let ids: Vec<Value> = c
        .pull_all(100)
        .await
        .iter()
        .map(|r| r["id"].clone())
        .collect();
    assert_eq!(ids, vec![json!("a"), json!("b")]);
}

async fn pushing_the_same_body_twice_or_at_once_stores_it_once(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    let body = [molkky("m", 5, 5), molkky("n", 2, 2)];
    assert_eq!(counts(&c.push(&body).await), (2, 0, 0, vec![]));
    assert_eq!(counts(&c.push(&body).await), (0, 0, 2, vec![]));
    // Eight devices push the same new record at the same moment: one takes it.
    let same = [molkky("together", 4, 4)];
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let c = c.clone();
            let same = same.clone();
            tokio::spawn(async move { counts(&c.push(&same).await) })
        })
        .collect();
    let mut accepted = 0;
    let mut already = 0;
    for t in tasks {
        let (a, u, al, r) = t.await.unwrap();
        assert_eq!((u, r.len()), (0, 0));
        accepted += a;
        already += al;
    }
    assert_eq!((accepted, already), (1, 7));
    let all = c.pull_all(100).await;
    assert_eq!(all.len(), 3);
}

async fn an_undo_after_a_push_arrives_as_a_newer_revision_and_conflicts_are_refused(
    backend: Backend,
) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    c.push(&[molkky("m", 4, 4)]).await;
    // The phone undid the last throw: revision 5, three actions.
    assert_eq!(
        counts(&c.push(&[molkky("m", 5, 3)]).await),
        (0, 1, 0, vec![])
    );
    // An older push arriving late changes nothing.
    assert_eq!(
        counts(&c.push(&[molkky("m", 4, 4)]).await),
        (0, 0, 1, vec![])
    );
    let stored = c.pull_all(100).await;
    assert_eq!(stored[0]["revision"], 5);
    assert_eq!(stored[0]["actions"].as_array().unwrap().len(), 3);
    // The same revision with other actions, or another setup: conflict, nothing changes.
    let mut other = molkky("m", 6, 3);
    other["sides"] = json!([["A"], ["C"]]);
    let a = c.push(&[molkky("m", 5, 4), other]).await;
    assert_eq!(
        counts(&a),
        (0, 0, 0, vec!["conflict".into(), "conflict".into()])
    );
    assert_eq!(a.body["refused"][0]["id"], "m");
    assert_eq!(c.pull_all(100).await[0]["revision"], 5);
}

async fn a_known_record_is_decided_by_its_revision_before_it_is_replayed(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    let tournament = |revision: i64, events: Value| {
        json!({"format": 1, "id": "t", "revision": revision,
               "tournament": {"game": "molkky", "system": "round_robin",
                              "entrants": [["P0"], ["P1"], ["P2"], ["P3"]]},
               "events": events})
    };
    assert_eq!(
        counts(
            &c.push(&[molkky("m", 5, 3), tournament(3, json!([{"pair": {}}]))])
                .await
        ),
        (2, 0, 0, vec![])
    );
    // Records that do not replay (a throw of 13 pins, a second pairing of a round not played).
    let broken = |revision: i64| {
        let mut m = molkky("m", revision, 3);
        m["actions"][2] = json!({"pins": [13]});
        m
    };
    let mut elsewhere = broken(9);
    elsewhere["sides"] = json!([["A"], ["C"]]);
    let twice = json!([{"pair": {}}, {"pair": {}}]);
    // A lower revision is `already` and the same revision with other content or another setup
    // a `conflict`, whatever the actions are worth (docs/hub.md): not their replay's error.
    let a = c
        .push(&[
            broken(4),
            broken(5),
            elsewhere,
            tournament(2, twice.clone()),
            tournament(3, twice.clone()),
        ])
        .await;
    assert_eq!(
        counts(&a),
        (
            0,
            0,
            2,
            vec!["conflict".into(), "conflict".into(), "conflict".into()]
        )
    );
    // Only a newer revision is replayed, and refused with its kind.
    let a = c.push(&[broken(6), tournament(4, twice)]).await;
    assert_eq!(counts(&a).3, vec!["bad_action", "illegal_action"]);
    let all = c.pull_all(100).await;
    let revision = |id: &str| {
        all.iter()
            .find(|r| r["id"] == id)
            .map(|r| r["revision"].clone())
    };
    assert_eq!(
        (revision("m"), revision("t")),
        (Some(json!(5)), Some(json!(3)))
    );
    // A newer revision with the same events replaces it: `updated`, as a match is.
    let a = c.push(&[tournament(5, json!([{"pair": {}}]))]).await;
    assert_eq!(counts(&a), (0, 1, 0, vec![]));
    let again = c.pull_all(100).await;
    let t = again.iter().find(|r| r["id"] == "t").unwrap();
    assert_eq!(
        (t["revision"].clone(), t["events"].clone()),
        (json!(5), json!([{"pair": {}}]))
    );
}

async fn malformed_and_oversized_bodies_are_refused_whole(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    for body in [
        "{\"records\": [",
        "[]",
        // A list is no object, even one that serde would read as the body's fields in order.
        "[[]]",
        "[[{\"id\": \"x\"}]]",
        "{\"records\": {}}",
        "{\"record\": []}",
        "not json",
        "",
    ] {
        let a = c
            .send("POST", "/v1/records", body.as_bytes().to_vec())
            .await;
        assert_eq!(a.status, 400, "{body}");
        assert_eq!(a.body["kind"], "bad_record", "{body}");
        assert!(a.body["detail"].is_string());
    }
    // Over 8 MiB: 413 too_large, whether the length is announced or not.
    let big = {
        let pad = "x".repeat(partie_hub::MAX_BODY);
        json!({"records": [molkky("big", 1, 1)], "pad": pad})
            .to_string()
            .into_bytes()
    };
    let a = c.send("POST", "/v1/records", big.clone()).await;
    assert_eq!(
        (a.status, a.body["kind"].as_str()),
        (413, Some("too_large"))
    );
    let head = format!(
        "POST /v1/records HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        hub.token
    );
    let mut chunked = head.into_bytes();
    for part in big.chunks(1 << 20) {
        chunked.extend(format!("{:x}\r\n", part.len()).as_bytes());
        chunked.extend(part);
        chunked.extend(b"\r\n");
    }
    chunked.extend(b"0\r\n\r\n");
    let answer = raw(hub.addr, &chunked, Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer:.200}");
    assert!(answer.contains("too_large"));
    // Just under the limit: taken whole.
    let under = {
        let record = molkky("under", 1, 1);
        let frame = json!({"records": [record], "pad": ""}).to_string().len();
        let pad = "y".repeat(partie_hub::MAX_BODY - frame);
        json!({"records": [molkky("under", 1, 1)], "pad": pad})
            .to_string()
            .into_bytes()
    };
    assert_eq!(under.len(), partie_hub::MAX_BODY);
    let a = c.send("POST", "/v1/records", under).await;
    assert_eq!(counts(&a), (1, 0, 0, vec![]));
    // Not HTTP at all, or a request cut short: the hub answers 400 or closes, and stays up.
    let junk = raw(hub.addr, b"\x00\x01garbage\r\n\r\n", Duration::from_secs(5)).await;
    assert!(
        junk.is_empty() || junk.starts_with("HTTP/1.1 400"),
        "{junk}"
    );
    let cut = format!(
        "POST /v1/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\nContent-Length: 1000\r\n\r\n{{\"records\": [",
        hub.token
    );
    let mut s = tokio::net::TcpStream::connect(hub.addr).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut s, cut.as_bytes())
        .await
        .unwrap();
    drop(s);
    let records = c.pull_all(100).await;
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["id"], "under");
}

async fn pages_follow_the_cursor_each_record_once_in_order_of_its_latest_change(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    let first: Vec<Value> = (0..7).map(|i| molkky(&format!("m{i}"), 1, 1)).collect();
    c.push(&first).await;
    let ids = |a: &common::Answer| -> Vec<String> {
        a.body["records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect()
    };
    let p1 = c.get("/v1/records?limit=3").await;
    assert_eq!(ids(&p1), ["m0", "m1", "m2"]);
    let cursor = p1.body["cursor"].as_str().unwrap().to_string();
    // m1 changes: it comes again, after the others, once.
    c.push(&[molkky("m1", 2, 2), molkky("m8", 1, 1)]).await;
    let p2 = c.get(&format!("/v1/records?since={cursor}&limit=3")).await;
    assert_eq!(ids(&p2), ["m3", "m4", "m5"]);
    let c2 = p2.body["cursor"].as_str().unwrap().to_string();
    let p3 = c.get(&format!("/v1/records?since={c2}")).await;
    assert_eq!(ids(&p3), ["m6", "m1", "m8"]);
    assert_eq!(p3.body["records"][1]["revision"], 2);
    let c3 = p3.body["cursor"].as_str().unwrap().to_string();
    let empty = c.get(&format!("/v1/records?since={c3}")).await;
    assert_eq!(
        (ids(&empty).len(), empty.body["cursor"].as_str()),
        (0, Some(c3.as_str()))
    );
    // From the start: every record once, the changed one last but one.
    let all = c.get("/v1/records").await;
    assert_eq!(ids(&all), ["m0", "m2", "m3", "m4", "m5", "m6", "m1", "m8"]);
    // A cursor past the last change this hub gave (another hub's, or this one's before its
    // database was replaced) is refused: the phone then pulls from the start.
    let (name, seq) = c3
        .split_once('.')
        .expect("a cursor is the hub's name and a number");
    let past = format!("{name}.{}", seq.parse::<i64>().unwrap() + 1);
    let a = c.get(&format!("/v1/records?since={past}")).await;
    assert_eq!(
        (a.status, a.body["kind"].as_str()),
        (400, Some("bad_record"))
    );
    // Another hub's cursor is refused even below this log's end: its name is not this one's.
    let others = c
        .get(&format!("/v1/records?since=0123456789abcdef.{seq}"))
        .await;
    assert_eq!(
        (others.status, others.body["kind"].as_str()),
        (400, Some("bad_record"))
    );
    assert_eq!(
        c2.split_once('.').unwrap().0,
        name,
        "one name for every page"
    );
    // A bare number (what a hub gave before its cursors had its name) is still taken.
    let bare = c.get(&format!("/v1/records?since={seq}")).await;
    assert_eq!((bare.status, ids(&bare).len()), (200, 0));
    // A limit larger than the hub serves gives its largest page; `since=` empty is the start.
    let large = c.get("/v1/records?limit=999999").await;
    assert_eq!(large.status, 200);
    let empty = c.get("/v1/records?since=").await;
    assert_eq!(empty.status, 200);
    assert_eq!(ids(&empty), ids(&c.get("/v1/records").await));
    assert!(!ids(&empty).is_empty());
    for bad in ["since=abc", "since=-1", "limit=0", "limit=x", "limit=-3"] {
        let a = c.get(&format!("/v1/records?{bad}")).await;
        assert_eq!(
            (a.status, a.body["kind"].as_str()),
            (400, Some("bad_record")),
            "{bad}"
        );
    }
}

/// A page is bounded by its bytes as well as by `limit` (`partie_core::merge::PAGE_BYTES`):
/// five thousand long matches at once would be gigabytes for the hub to build and the phone to
/// read. Long matches (a Mölkky match that busts for a hundred thousand throws, as long as a
/// record may be) come a few to a page, each once, the cursor going on.
async fn a_page_ends_at_its_bytes_and_the_next_page_goes_on(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    let long = |id: &str| {
        let actions = vec![json!({"pins": [12]}); partie_core::record::MAX_ACTIONS];
        json!({"format": 1, "id": id, "revision": 1, "game": "molkky",
               "sides": [["A"], ["B"]], "actions": actions})
    };
    // Six of them are over the bound even as pushed (without their throws' times).
    for pair in [["l0", "l1"], ["l2", "l3"], ["l4", "l5"]] {
        let a = c.push(&[long(pair[0]), long(pair[1])]).await;
        assert_eq!(counts(&a), (2, 0, 0, vec![]));
    }
    c.push(&[molkky("short", 1, 1)]).await;
    let bytes = partie_core::merge::PAGE_BYTES;
    let mut cursor: Option<String> = None;
    let mut pages = Vec::new();
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/records?since={c}&limit=5000"),
            None => "/v1/records?limit=5000".to_string(),
        };
        let page = c.get(&path).await;
        assert_eq!(page.status, 200);
        let records = page.body["records"].as_array().unwrap().clone();
        if records.is_empty() {
            break;
        }
        // Each page stops at the record that reaches the bound: all but its last are under it.
        let sizes: Vec<usize> = records.iter().map(|r| r.to_string().len()).collect();
        let before_last: usize = sizes[..sizes.len() - 1].iter().sum();
        assert!(before_last < bytes, "{sizes:?}");
        pages.push(
            records
                .iter()
                .map(|r| r["id"].as_str().unwrap().to_string())
                .collect::<Vec<_>>(),
        );
        cursor = Some(page.body["cursor"].as_str().unwrap().to_string());
        assert!(pages.len() <= 7, "{pages:?}");
    }
    assert!(pages.len() >= 2, "{pages:?}");
    assert_eq!(
        pages.concat(),
        ["l0", "l1", "l2", "l3", "l4", "l5", "short"],
        "each record once, in order"
    );
}

/// The event stream, opened: its answer's head has come, so the hub has subscribed it (it does
/// before it answers) and every change from now on is in it.
async fn subscribed(c: &Client) -> hyper::body::Incoming {
    let stream = tokio::net::TcpStream::connect(c.addr).await.unwrap();
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(conn);
    let req = hyper::Request::builder()
        .uri(format!("/v1/events?token={}", c.token.as_deref().unwrap()))
        .header("host", "127.0.0.1")
        .body(http_body_util::Full::new(hyper::body::Bytes::new()))
        .unwrap();
    let res = sender.send_request(req).await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    res.into_body()
}

/// Reads the event stream `body` until `n` record events arrived (or the time is up).
async fn events(mut body: hyper::body::Incoming, n: usize, within: Duration) -> Vec<Value> {
    use http_body_util::BodyExt;
    let mut text = String::new();
    let mut found = Vec::new();
    let deadline = tokio::time::Instant::now() + within;
    while found.len() < n {
        let Ok(Some(Ok(frame))) = tokio::time::timeout_at(deadline, body.frame()).await else {
            break;
        };
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            if block.contains("event: record") {
                let data = block
                    .lines()
                    .find_map(|l| l.strip_prefix("data: "))
                    .unwrap();
                found.push(serde_json::from_str(data).unwrap());
            }
        }
    }
    found
}

async fn the_event_stream_tells_each_accepted_or_updated_record(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    let watcher = tokio::spawn(events(subscribed(&c).await, 3, Duration::from_secs(10)));
    c.push(&[molkky("a", 2, 2), molkky("b", 1, 1)]).await;
    c.push(&[molkky("a", 2, 2)]).await; // already: no event
    c.push(&[molkky("a", 5, 5)]).await;
    let seen = watcher.await.unwrap();
    let short: Vec<(String, u64)> = seen
        .iter()
        .map(|e| {
            (
                e["id"].as_str().unwrap().into(),
                e["actions"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(short, [("a".into(), 2), ("b".into(), 1), ("a".into(), 5)]);
}

async fn a_change_made_by_another_program_reaches_the_stream_too(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    let watcher = tokio::spawn(events(subscribed(&c).await, 1, Duration::from_secs(10)));
    // The desktop app creates a tournament in the same database, through its own connection
    // (on PostgreSQL: the organiser, through another hub of the club).
    let mut app = hub.organiser().await;
    let uid = app
        .new_tournament(&json!({"game": "molkky", "system": "swiss",
                                "entrants": [["A"], ["B"], ["C"], ["D"]]}))
        .await;
    let seen = watcher.await.unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0]["id"], uid);
    assert_eq!(seen[0]["actions"], 0);
}

async fn a_tournament_summary_by_id_or_the_current_one(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    let missing = c.get("/v1/tournaments/current").await;
    assert_eq!(
        (missing.status, missing.body["kind"].as_str()),
        (404, Some("not_found"))
    );
    let mut app = hub.organiser().await;
    let setup = |n: usize| {
        json!({"game": "molkky", "system": "round_robin",
               "entrants": (0..n).map(|i| vec![format!("P{i}")]).collect::<Vec<_>>()})
    };
    let old = app.new_tournament(&setup(4)).await;
    std::thread::sleep(Duration::from_millis(5));
    let new = app.new_tournament(&setup(6)).await;
    app.event(&new, &json!({"pair": {}})).await;
    let a = c.get(&format!("/v1/tournaments/{old}")).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.body["status"], "registering");
    assert_eq!(a.body["standings"].as_array().unwrap().len(), 4);
    let cur = c.get("/v1/tournaments/current").await;
    assert_eq!(cur.body["id"], new);
    assert_eq!(cur.body["round"], 1);
    assert_eq!(cur.body["pairings"].as_array().unwrap().len(), 3);
    // The other one changes: it becomes the current one.
    std::thread::sleep(Duration::from_millis(5));
    app.event(&old, &json!({"pair": {}})).await;
    assert_eq!(c.get("/v1/tournaments/current").await.body["id"], old);
    let nope = c.get("/v1/tournaments/nope").await;
    assert_eq!(
        (nope.status, nope.body["kind"].as_str()),
        (404, Some("not_found"))
    );
}

#[test]
fn the_token_file_is_created_once_with_a_random_token() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub").join("token");
    let t1 = partie_hub::load_or_create_token(&path).unwrap();
    assert_eq!(t1.len(), 32);
    assert!(t1.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(partie_hub::load_or_create_token(&path).unwrap(), t1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "only its owner reads it");
    }
    let other = dir.path().join("other");
    assert_ne!(partie_hub::load_or_create_token(&other).unwrap(), t1);
    // Surrounding whitespace is not part of it; an empty file is refused.
    std::fs::write(&other, "  club-secret \n").unwrap();
    assert_eq!(
        partie_hub::load_or_create_token(&other).unwrap(),
        "club-secret"
    );
    std::fs::write(&other, " \n").unwrap();
    assert!(partie_hub::load_or_create_token(&other).is_err());
}

#[test]
fn the_token_is_compared_whole() {
    let store = partie_core::store::Store::open_in_memory().unwrap();
    let hub = partie_hub::Hub::new(store, "abcdef").unwrap();
    assert!(hub.token_matches(b"abcdef"));
    for wrong in [&b"abcdeF"[..], b"abcde", b"abcdefg", b"", b"Abcdef"] {
        assert!(!hub.token_matches(wrong), "{wrong:?}");
    }
}

#[tokio::test]
async fn the_binary_says_where_it_listens_first_and_partie_serve_starts_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut hub = common::SpawnedHub::start(&dir.path().join("h.db"), &dir.path().join("tok"));
    let a = hub.client().get("/v1/health").await;
    assert_eq!(a.status, 200);
    hub.kill();
    // `partie serve` is the same program, found beside `partie`. `cargo test --workspace` (what
    // CI runs) builds `partie` too; run alone, this crate's tests need it built first.
    let partie = std::path::Path::new(env!("CARGO_BIN_EXE_partie-hub")).with_file_name("partie");
    let knows_serve = partie.is_file()
        && std::process::Command::new(&partie)
            .args(["serve", "--help"])
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stderr).contains("--token-file"));
    assert!(
        knows_serve,
        "{} is missing or too old to know `serve`: cargo build -p partie-core --bin partie",
        partie.display()
    );
    let hub = common::SpawnedHub::start_with(
        partie.to_str().unwrap(),
        &dir.path().join("h.db"),
        &dir.path().join("tok"),
    );
    assert_eq!(hub.client().get("/v1/health").await.status, 200);
}

async fn a_text_holding_nul_is_refused_record_by_record(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    let mut name = molkky("name", 1, 1);
    name["sides"] = json!([["A\u{0}"], ["B"]]);
    let mut key = molkky("key", 1, 1);
    key["rules"] = json!({"tar\u{0}get": 10});
    let a = c
        .push(&[molkky("a\u{0}b", 1, 1), name, key, molkky("kept", 1, 1)])
        .await;
    // PostgreSQL's text cannot hold NUL: such a record used to fail the whole push there (500
    // storage); both storages now refuse it alone and take the rest.
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(counts(&a), (1, 0, 0, vec!["bad_record".into(); 3]));
    assert_eq!(a.body["refused"][0]["id"], "a\u{0}b");
    let ids: Vec<Value> = c
        .pull_all(10)
        .await
        .iter()
        .map(|r| r["id"].clone())
        .collect();
    assert_eq!(ids, vec![json!("kept")]);
    // Text no JSON reader takes as a string (a lone surrogate), a number out of range, a
    // nesting deeper than the reader goes: each such record is refused alone, under its id,
    // so that the device lists it; the others of the push are taken.
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let body = format!(
        r#"{{"records": [{{"id": "surrogate", "format": 1, "game": "molkky", "notes": "\ud800"}},
                         {{"id": "huge", "format": 1, "game": "molkky", "x": 1e400}},
                         {{"id": "deep", "format": 1, "game": "molkky", "x": {deep}}},
                         {}]}}"#,
        molkky("taken", 1, 1)
    );
    let a = c.send("POST", "/v1/records", body.into_bytes()).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(counts(&a), (1, 0, 0, vec!["bad_record".into(); 3]));
    let refused: Vec<&Value> = a.body["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["id"])
        .collect();
    assert_eq!(
        refused,
        [&json!("surrogate"), &json!("huge"), &json!("deep")]
    );
    assert!(a.body["refused"][0]["detail"]
        .as_str()
        .unwrap()
        .starts_with("the record cannot be read"));
}

async fn wrong_methods_and_paths_that_name_nothing_are_refused_as_json(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let c = hub.client();
    c.push(&[molkky("m", 1, 1)]).await;
    for (method, path) in [
        ("DELETE", "/v1/records"),
        ("PUT", "/v1/tournaments/current"),
        ("POST", "/v1/events"),
    ] {
        let a = c.send(method, path, Vec::new()).await;
        assert_eq!(
            (a.status, a.body["kind"].as_str()),
            (405, Some("not_found")),
            "{method} {path}: {}",
            a.text
        );
        assert!(a.body["detail"].as_str().unwrap().contains(method));
    }
    // The health check takes no token, but only as a GET.
    let anyone = c.with_token(None);
    assert_eq!(
        anyone.send("POST", "/v1/health", Vec::new()).await.status,
        401
    );
    // A segment that is not UTF-8, or holds NUL, names nothing: 404, as JSON, on both storages.
    for path in [
        "/v1/tournaments/%FF",
        "/v1/tournaments/%00",
        "/v1/tournaments/a%00b",
    ] {
        let a = c.get(path).await;
        assert_eq!(
            (a.status, a.body["kind"].as_str()),
            (404, Some("not_found")),
            "{path}: {}",
            a.text
        );
    }
    // The scheme of Authorization is read whatever its case.
    let answer = raw(
        hub.addr,
        format!(
            "GET /v1/records HTTP/1.1\r\nHost: x\r\nAuthorization: bearer {}\r\nConnection: close\r\n\r\n",
            hub.token
        )
        .as_bytes(),
        Duration::from_secs(5),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:.200}");
    assert!(answer.contains("\"m\""));
}

#[test]
fn the_hub_s_command_line_refuses_an_option_without_its_value_and_bytes_that_are_not_text() {
    let exe = env!("CARGO_BIN_EXE_partie-hub");
    let run = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new(exe).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // Refused before any database is reached (the address names no server).
    let url = "postgresql://nobody@127.0.0.1:1/none";
    for args in [
        vec!["club", "add", "night", "--postgres", url, "--token-file"],
        vec!["club", "add", "night", "--token-file", "--postgres", url],
        vec!["serve", "--db"],
    ] {
        let os: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        let (code, err) = run(&os);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("needs a value"), "{args:?}: {err}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (code, err) = run(&[
            "serve".as_ref(),
            "--db".as_ref(),
            std::ffi::OsStr::from_bytes(b"\xff.db"),
        ]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("not UTF-8"), "{err}");
    }
}
