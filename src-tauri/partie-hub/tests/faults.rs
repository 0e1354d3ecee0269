//! Faults between phones and the hub, on loopback: a proxy that cuts connections mid-request
//! and mid-answer and delays answers, the hub killed with SIGKILL during a push storm, a phone
//! offline for a whole round, two phones pushing the same finished match. After each, every
//! phone and the hub hold the same records and the same standings.

//!
//! Every test runs on both storages (`NAME::sqlite`, `NAME::postgres`).

mod common;

use common::{
    molkky, normalised, read_message, records_of, Backend, Client, Device, Organiser, Place,
};
use common::{SpawnedHub, TestHub, WIN_FOR_SIDE_0, WIN_FOR_SIDE_1};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

on_both!(
    a_proxy_that_cuts_and_delays_connections_loses_and_duplicates_nothing,
    the_hub_killed_during_a_push_storm_keeps_every_acknowledged_record,
    a_phone_offline_for_a_whole_round_syncs_after_it,
    two_phones_pushing_the_same_finished_match_the_second_is_already,
    a_phone_that_corrects_its_table_after_another_result_corrects_it_at_the_hub,
);

/// A round robin of `n` entrants created and paired by the organiser (the desktop app in the
/// hub's database, or pushed through another hub of the club on PostgreSQL).
async fn tournament(hub: &TestHub, n: usize) -> (Organiser, String) {
    let mut app = hub.organiser().await;
    let entrants: Vec<Vec<String>> = (0..n).map(|i| vec![format!("P{i}")]).collect();
    let uid = app
        .new_tournament(&json!({"game": "molkky", "system": "round_robin", "entrants": entrants}))
        .await;
    app.event(&uid, &json!({"pair": {}})).await;
    (app, uid)
}

/// Every phone holds what the hub holds, and the same standings.
async fn all_agree(client: &Client, devices: &[&Device], tournament: Option<&str>) {
    let hub = normalised(client.pull_all(50).await);
    let ids: Vec<&str> = hub.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids, unique, "each record once");
    for d in devices {
        assert_eq!(records_of(&d.store), hub, "{} differs from the hub", d.name);
    }
    if let Some(uid) = tournament {
        let at_hub = client.get(&format!("/v1/tournaments/{uid}")).await.body;
        for d in devices {
            let here = d.store.tournament_summary(uid).unwrap();
            assert_eq!(here["standings"], at_hub["standings"], "{}", d.name);
            assert_eq!(here["pairings"], at_hub["pairings"], "{}", d.name);
        }
    }
}

/// A proxy on loopback in front of `hub` that spoils connections in turn: the request cut in
/// the middle, the answer cut (the hub did the work, the phone never hears it), the answer
/// delayed, and a clean one. Returns its address and how many connections it cut.
async fn spoiling_proxy(hub: SocketAddr) -> (SocketAddr, Arc<Mutex<[usize; 4]>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new([0usize; 4]));
    let counts = seen.clone();
    tokio::spawn(async move {
        let mut k = 0usize;
        while let Ok((mut phone, _)) = listener.accept().await {
            let mode = k % 4;
            k += 1;
            counts.lock().unwrap()[mode] += 1;
            tokio::spawn(async move {
                let work = async {
                    let request = read_message(&mut phone).await?;
                    let mut up = TcpStream::connect(hub).await.ok()?;
                    if mode == 0 {
                        // Cut mid-request: half of it reaches the hub, then both ends close.
                        up.write_all(&request[..request.len() / 2]).await.ok()?;
                        return None;
                    }
                    up.write_all(&request).await.ok()?;
                    let answer = read_message(&mut up).await?;
                    match mode {
                        // Cut mid-answer: the phone hears half of it.
                        1 => {
                            let _ = phone.write_all(&answer[..answer.len() / 2]).await;
                        }
                        // A slow network.
                        2 => {
                            tokio::time::sleep(Duration::from_millis(150)).await;
                            phone.write_all(&answer).await.ok()?;
                        }
                        _ => phone.write_all(&answer).await.ok()?,
                    }
                    Some(())
                };
                let _ = tokio::time::timeout(Duration::from_secs(10), work).await;
            });
        }
    });
    (addr, seen)
}

async fn a_proxy_that_cuts_and_delays_connections_loses_and_duplicates_nothing(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let (_app, uid) = tournament(&hub, 6).await;
    let (proxy, spoiled) = spoiling_proxy(hub.addr).await;
    let through = Client {
        addr: proxy,
        token: Some(hub.token.clone()),
    };
    let mut phones: Vec<Device> = (0..3).map(|i| Device::new(&format!("phone {i}"))).collect();
    for p in &mut phones {
        p.sync(&through, 40).await;
    }
    // Each phone scores its table, with an undo on the way, and a friendly match besides.
    for (i, p) in phones.iter_mut().enumerate() {
        let m = p.play_table(&uid, i, &WIN_FOR_SIDE_0[..5]);
        p.sync(&through, 40).await;
        p.store.undo(m).unwrap();
        for t in &WIN_FOR_SIDE_0[4..] {
            p.store.play(m, &json!({"pins": [t]})).unwrap();
        }
        let f = p
            .store
            .new_match(
                "molkky",
                &Default::default(),
                &[vec![format!("X{i}")], vec!["Y".into()]],
            )
            .unwrap();
        p.store.play(f.id, &json!({"pins": [3]})).unwrap();
        p.sync(&through, 40).await;
    }
    for p in &mut phones {
        p.sync(&through, 40).await;
    }
    let cut = *spoiled.lock().unwrap();
    assert!(
        cut.iter().all(|&n| n >= 3),
        "every kind of fault happened: {cut:?}"
    );
    let direct = hub.client();
    let summary = direct.get(&format!("/v1/tournaments/{uid}")).await.body;
    let results: Vec<&Value> = summary["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["result"])
        .collect();
    assert!(results.iter().all(|r| r["winner"] == 0), "{results:?}");
    let events = direct
        .pull_all(50)
        .await
        .into_iter()
        .find(|r| r["id"] == uid.as_str())
        .unwrap()["events"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(events, 1 + 3, "one pair and each result once");
    assert_eq!(direct.pull_all(50).await.len(), 1 + 3 + 3);
    let refs: Vec<&Device> = phones.iter().collect();
    all_agree(&direct, &refs, Some(&uid)).await;
}

async fn the_hub_killed_during_a_push_storm_keeps_every_acknowledged_record(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    let place = Place::new(backend, dir.path(), &token).await;
    // What the hub answered 200 for: each id's highest revision acknowledged.
    let acked: Arc<Mutex<HashMap<String, i64>>> = Default::default();
    for round in 0..3 {
        let mut hub = SpawnedHub::start_at(&place, &token);
        let client = hub.client();
        let tasks: Vec<_> = (0..4)
            .map(|task| {
                let client = client.clone();
                let acked = acked.clone();
                tokio::spawn(async move {
                    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
                    for n in 0..100_000usize {
                        if tokio::time::Instant::now() > deadline {
                            break;
                        }
                        // A new match and a newer revision of the one before.
                        let id = format!("r{round}-t{task}-{n}");
                        let mut batch = vec![molkky(&id, 1, 1)];
                        if n > 0 {
                            batch.push(molkky(&format!("r{round}-t{task}-{}", n - 1), 2, 2));
                        }
                        let body = json!({ "records": batch }).to_string().into_bytes();
                        match client.try_send("POST", "/v1/records", body).await {
                            Ok(a) if a.status == 200 => {
                                assert!(a.body["refused"].as_array().unwrap().is_empty());
                                let mut acked = acked.lock().unwrap();
                                for r in &batch {
                                    let e = acked
                                        .entry(r["id"].as_str().unwrap().to_string())
                                        .or_insert(0);
                                    *e = (*e).max(r["revision"].as_i64().unwrap());
                                }
                            }
                            _ => break,
                        }
                    }
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(400 + 300 * round)).await;
        hub.kill();
        for t in tasks {
            t.await.unwrap();
        }
    }
    let acked = acked.lock().unwrap().clone();
    assert!(acked.len() > 20, "the storm pushed: {}", acked.len());
    let hub = SpawnedHub::start_at(&place, &token);
    let stored: HashMap<String, i64> = hub
        .client()
        .pull_all(1000)
        .await
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["revision"].as_i64().unwrap(),
            )
        })
        .collect();
    for (id, revision) in &acked {
        let here = stored.get(id).unwrap_or_else(|| panic!("{id} was lost"));
        assert!(here >= revision, "{id}: {here} < {revision}");
    }
}

async fn a_phone_offline_for_a_whole_round_syncs_after_it(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let (mut app, uid) = tournament(&hub, 4).await;
    let c = hub.client();
    let mut a = Device::new("phone A");
    let mut b = Device::new("phone B");
    let mut late = Device::new("phone that joins at the end");
    a.sync(&c, 1).await;
    b.sync(&c, 1).await;
    // Round 1: A scores table 0 online; B is offline for the whole round and scores table 1,
    // and a friendly match, on its own.
    a.play_table(&uid, 0, &WIN_FOR_SIDE_0);
    a.sync(&c, 1).await;
    b.play_table(&uid, 1, &WIN_FOR_SIDE_1);
    let f = b
        .store
        .new_match(
            "molkky",
            &Default::default(),
            &[vec!["Q".into()], vec!["R".into()]],
        )
        .unwrap();
    b.store.play(f.id, &json!({"pins": [4]})).unwrap();
    let round = c.get(&format!("/v1/tournaments/{uid}")).await.body;
    assert_eq!(
        round["pairings"][1]["result"],
        Value::Null,
        "B has not synced"
    );
    // B comes back: its result enters, the organiser pairs round 2.
    b.sync(&c, 1).await;
    let round = c.get(&format!("/v1/tournaments/{uid}")).await.body;
    assert_eq!(round["pairings"][1]["result"]["winner"], 1);
    app.event(&uid, &json!({"pair": {}})).await;
    a.sync(&c, 1).await;
    b.sync(&c, 1).await;
    a.play_table(&uid, 0, &WIN_FOR_SIDE_1);
    b.play_table(&uid, 1, &WIN_FOR_SIDE_0);
    a.sync(&c, 1).await;
    b.sync(&c, 1).await;
    a.sync(&c, 1).await;
    late.sync(&c, 1).await;
    let summary = c.get(&format!("/v1/tournaments/{uid}")).await.body;
    assert_eq!(summary["round"], 2);
    let played: Vec<u64> = summary["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["played"].as_u64().unwrap())
        .collect();
    assert_eq!(played, [2, 2, 2, 2]);
    all_agree(&c, &[&a, &b, &late], Some(&uid)).await;
}

/// Phone A scores table 0 and syncs; phone B's result for table 1 comes in after it; then A's
/// scorer finds a mistake, takes every throw back and plays the match again the other way. The
/// hub takes table 0's result back though it is no longer the tournament's last event, enters
/// the corrected one, and keeps B's; everyone ends with the same standings.
async fn a_phone_that_corrects_its_table_after_another_result_corrects_it_at_the_hub(
    backend: Backend,
) {
    let hub = TestHub::start_on(backend).await;
    let (mut app, uid) = tournament(&hub, 4).await;
    let c = hub.client();
    let mut a = Device::new("phone A");
    let mut b = Device::new("phone B");
    a.sync(&c, 1).await;
    b.sync(&c, 1).await;
    let m = a.play_table(&uid, 0, &WIN_FOR_SIDE_0);
    a.sync(&c, 1).await;
    b.play_table(&uid, 1, &WIN_FOR_SIDE_1);
    b.sync(&c, 1).await;
    for _ in WIN_FOR_SIDE_0 {
        a.store.undo(m).unwrap();
    }
    a.sync(&c, 1).await;
    let round = c.get(&format!("/v1/tournaments/{uid}")).await.body;
    assert_eq!(round["pairings"][0]["result"], Value::Null, "{round}");
    assert_eq!(round["pairings"][1]["result"]["winner"], 1);
    for p in WIN_FOR_SIDE_1 {
        a.store.play(m, &json!({"pins": [p]})).unwrap();
    }
    a.sync(&c, 1).await;
    let round = c.get(&format!("/v1/tournaments/{uid}")).await.body;
    assert_eq!(round["pairings"][0]["result"]["winner"], 1, "{round}");
    assert_eq!(round["pairings"][1]["result"]["winner"], 1);
    // The organiser pairs the next round from the corrected results.
    app.event(&uid, &json!({"pair": {}})).await;
    a.sync(&c, 1).await;
    b.sync(&c, 1).await;
    a.sync(&c, 1).await;
    all_agree(&c, &[&a, &b], Some(&uid)).await;
}

async fn two_phones_pushing_the_same_finished_match_the_second_is_already(backend: Backend) {
    let hub = TestHub::start_on(backend).await;
    let (_app, uid) = tournament(&hub, 4).await;
    let c = hub.client();
    let mut a = Device::new("phone A");
    let mut b = Device::new("phone B");
    a.sync(&c, 1).await;
    b.sync(&c, 1).await;
    a.play_table(&uid, 0, &WIN_FOR_SIDE_0);
    let first = a.try_push(&c).await.unwrap();
    assert_eq!(
        (first["accepted"].clone(), first["already"].clone()),
        (json!(1), json!(0))
    );
    // B has it too (pulled), and pushes what it holds: the hub already has it.
    b.try_pull(&c).await.unwrap();
    let second = b.try_push(&c).await.unwrap();
    assert_eq!(
        (second["accepted"].clone(), second["already"].clone()),
        (json!(0), json!(1)),
        "{second}"
    );
    // The same finished match from two phones at the same moment: one takes, one is already.
    let m = molkky("friendly", 9, 9);
    let one = [m.clone()];
    let (x, y) = tokio::join!(c.push(&one), c.push(&one));
    let mut taken = [x.body["accepted"].as_u64(), y.body["accepted"].as_u64()];
    taken.sort();
    assert_eq!(taken, [Some(0), Some(1)]);
    assert_eq!(
        x.body["already"].as_u64().unwrap() + y.body["already"].as_u64().unwrap(),
        1
    );
    a.sync(&c, 1).await;
    b.sync(&c, 1).await;
    let t = c.get(&format!("/v1/tournaments/{uid}")).await.body;
    let results = t["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["result"].is_null())
        .count();
    assert_eq!(results, 1);
    all_agree(&c, &[&a, &b], Some(&uid)).await;
}
