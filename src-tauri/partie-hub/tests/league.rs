//! A league on PostgreSQL (`docs/league.md`), what only PostgreSQL makes real: two hubs of one
//! club pushing the same records at once, the server restarted during a push storm, clubs kept
//! apart on one database, migrations refused when the database is newer, a dump put back
//! found and its cursors refused, the `club` command,
//! and the league's standings across clubs. Each test has its own database in a throwaway
//! cluster on loopback (the restart test a cluster of its own), removed at the end.

mod common;

use common::{molkky, Backend, Client, PgCluster, PgDb, Place, TestHub};
use partie_hub::storage::postgres::{self, OpenError};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A hub of the club whose token is `token`, on `db`, served on loopback.
async fn hub_for(db: &PgDb, token: &str) -> Client {
    let hub = partie_hub::Hub::open_postgres(&db.url, token)
        .await
        .unwrap();
    Client {
        addr: common::serve_on_loopback(hub).await,
        token: Some(token.to_string()),
    }
}

/// A new database with one club, "club", its token written in a folder of its own.
async fn one_club() -> (PgDb, tempfile::TempDir, String) {
    let db = PgDb::create(PgCluster::shared()).await;
    let dir = tempfile::tempdir().unwrap();
    let token = db.add_club("club", &dir.path().join("token")).await;
    (db, dir, token)
}

/// Each id's revision and number of actions as the hub serves them.
async fn stored(c: &Client) -> HashMap<String, (i64, usize)> {
    let all = c.pull_all(1000).await;
    let mut out = HashMap::new();
    for r in &all {
        let id = r["id"].as_str().unwrap().to_string();
        let n = r["actions"].as_array().map_or(0, Vec::len);
        assert!(
            out.insert(id.clone(), (r["revision"].as_i64().unwrap(), n))
                .is_none(),
            "{id} served twice"
        );
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hubs_of_a_club_pushing_the_same_records_at_once_lose_and_duplicate_nothing() {
    let hub = TestHub::start_on(Backend::Postgres).await;
    let a = hub.client();
    let b = hub.another_hub().await;
    // The same new record through both hubs at the same moment, many times: one accepted.
    for k in 0..20 {
        let one = [molkky(&format!("new-{k}"), 3, 3)];
        let (x, y) = tokio::join!(a.push(&one), b.push(&one));
        let taken = x.body["accepted"].as_u64().unwrap() + y.body["accepted"].as_u64().unwrap();
        let already = x.body["already"].as_u64().unwrap() + y.body["already"].as_u64().unwrap();
        assert_eq!((taken, already), (1, 1), "{} {}", x.text, y.text);
    }
    // Eight writers push every revision of the same ten records, in different orders, half
    // through each hub, while a device pulls page by page through the first: the newest
    // revision wins everywhere, and the device's cursor steps over no commit.
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let c = if w % 2 == 0 { a.clone() } else { b.clone() };
            tokio::spawn(async move {
                let mut answers = Vec::new();
                for step in 0..9 {
                    let revision = if w % 3 == 0 { 9 - step } else { step + 1 };
                    let batch: Vec<Value> = (0..10)
                        .map(|k| molkky(&format!("hot-{k}"), revision as i64, revision))
                        .collect();
                    let answer = c.push(&batch).await;
                    assert_eq!(answer.status, 200, "{}", answer.text);
                    assert_eq!(answer.body["refused"], json!([]), "{}", answer.text);
                    answers.push(answer.body);
                }
                answers
            })
        })
        .collect();
    let puller = {
        let a = a.clone();
        tokio::spawn(async move {
            let mut seen: HashMap<String, i64> = HashMap::new();
            let mut cursor = "0".to_string();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
            while tokio::time::Instant::now() < deadline {
                let page = a.get(&format!("/v1/records?since={cursor}&limit=7")).await;
                for r in page.body["records"].as_array().unwrap() {
                    seen.insert(
                        r["id"].as_str().unwrap().into(),
                        r["revision"].as_i64().unwrap(),
                    );
                }
                cursor = page.body["cursor"].as_str().unwrap().to_string();
                let done = (0..10).all(|k| seen.get(&format!("hot-{k}")) == Some(&9));
                if done && page.body["records"].as_array().unwrap().is_empty() {
                    break;
                }
            }
            seen
        })
    };
    let mut accepted = 0;
    for w in writers {
        for answer in w.await.unwrap() {
            accepted += answer["accepted"].as_u64().unwrap();
        }
    }
    assert_eq!(accepted, 10, "each record accepted once");
    let pulled = puller.await.unwrap();
    for k in 0..10 {
        assert_eq!(
            pulled.get(&format!("hot-{k}")),
            Some(&9),
            "the device saw hot-{k}"
        );
    }
    for c in [&a, &b] {
        let here = stored(c).await;
        assert_eq!(here.len(), 30);
        for k in 0..10 {
            assert_eq!(here[&format!("hot-{k}")], (9, 9));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgresql_restarted_during_a_push_storm_keeps_every_acknowledged_push() {
    let cluster = Arc::new(PgCluster::start(false));
    let db = PgDb::create(cluster.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let token = db.add_club("club", &dir.path().join("token")).await;
    let c = hub_for(&db, &token).await;
    let acked: Arc<Mutex<HashMap<String, i64>>> = Default::default();
    let failed = Arc::new(Mutex::new(0usize));
    let phase = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let after_restart = Arc::new(Mutex::new(0usize));
    // The storm goes on until enough pushes went through after the restart (or a minute).
    let enough = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let tasks: Vec<_> = (0..4)
        .map(|task| {
            let (c, acked, failed) = (c.clone(), acked.clone(), failed.clone());
            let (phase, after_restart) = (phase.clone(), after_restart.clone());
            let enough = enough.clone();
            tokio::spawn(async move {
                let mut n = 0usize;
                while !enough.load(std::sync::atomic::Ordering::SeqCst) {
                    let id = format!("t{task}-{n}");
                    let mut batch = vec![molkky(&id, 1, 1)];
                    if n > 0 {
                        batch.push(molkky(&format!("t{task}-{}", n - 1), 2, 2));
                    }
                    let body = json!({ "records": batch }).to_string().into_bytes();
                    match c.try_send("POST", "/v1/records", body).await {
                        Ok(a) if a.status == 200 => {
                            assert_eq!(a.body["refused"], json!([]), "{}", a.text);
                            let mut acked = acked.lock().unwrap();
                            for r in &batch {
                                let e = acked
                                    .entry(r["id"].as_str().unwrap().to_string())
                                    .or_insert(0);
                                *e = (*e).max(r["revision"].as_i64().unwrap());
                            }
                            if phase.load(std::sync::atomic::Ordering::SeqCst) == 2 {
                                *after_restart.lock().unwrap() += 1;
                            }
                            n += 1;
                        }
                        Ok(a) => {
                            // The database is away: 500 storage, and nothing was taken.
                            assert_eq!(a.status, 500, "{}", a.text);
                            assert_eq!(a.body["kind"], "storage");
                            *failed.lock().unwrap() += 1;
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                        Err(e) => panic!("the hub itself stays up: {e}"),
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    phase.store(1, std::sync::atomic::Ordering::SeqCst);
    cluster.stop_immediately();
    tokio::time::sleep(Duration::from_millis(800)).await;
    cluster.start_again();
    phase.store(2, std::sync::atomic::Ordering::SeqCst);
    let restarted = tokio::time::Instant::now();
    while *after_restart.lock().unwrap() <= 20 && restarted.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    enough.store(true, std::sync::atomic::Ordering::SeqCst);
    for t in tasks {
        t.await.unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(*failed.lock().unwrap() > 0, "pushes met the server away");
    assert!(
        *after_restart.lock().unwrap() > 20,
        "the hub reconnected by itself: {} pushes after the restart",
        after_restart.lock().unwrap()
    );
    let here = stored(&c).await;
    for (id, revision) in &acked {
        let (r, _) = here.get(id).unwrap_or_else(|| panic!("{id} was lost"));
        assert!(r >= revision, "{id}: {r} < {revision}");
    }
}

#[tokio::test]
async fn two_clubs_on_one_database_cannot_read_or_write_each_others_records() {
    let db = PgDb::create(PgCluster::shared()).await;
    let dir = tempfile::tempdir().unwrap();
    let ta = db.add_club("Les Quilles", &dir.path().join("a")).await;
    let tb = db.add_club("Bois Joli", &dir.path().join("b")).await;
    let a = hub_for(&db, &ta).await;
    let b = hub_for(&db, &tb).await;
    // Club A: a match and a paired tournament.
    let mut a_match = molkky("shared-id", 4, 4);
    a_match["place"] = json!("club A's hall");
    assert_eq!(a.push(&[a_match]).await.body["accepted"], 1);
    let setup = json!({"game": "molkky", "system": "round_robin",
                       "entrants": [["P0"], ["P1"], ["P2"], ["P3"]]});
    let t = json!({"format": 1, "id": "cup", "revision": 1, "tournament": setup,
                   "events": [{"pair": {}}]});
    assert_eq!(a.push(&[t]).await.body["accepted"], 1);
    // Each other's tokens: refused by the other club's hub, whatever the request.
    for (hub, wrong) in [(&a, &tb), (&b, &ta)] {
        let other = hub.with_token(Some(wrong));
        for path in [
            "/v1/records",
            "/v1/tournaments/cup",
            "/v1/tournaments/current",
        ] {
            assert_eq!(other.get(path).await.status, 401, "{path}");
        }
        assert_eq!(other.push(&[molkky("x", 1, 1)]).await.status, 401);
    }
    // B sees nothing of A's.
    assert!(b.pull_all(100).await.is_empty());
    for path in ["/v1/tournaments/cup", "/v1/tournaments/current"] {
        let answer = b.get(path).await;
        assert_eq!(
            (answer.status, answer.body["kind"].as_str()),
            (404, Some("not_found"))
        );
    }
    // Forged ids: B pushing A's ids makes records of B's own, and A's stay as they were.
    let forged = [molkky("shared-id", 9, 9), molkky("shared-id", 1, 1)];
    let answer = b.push(&forged[..1]).await;
    assert_eq!(answer.body["accepted"], 1, "{}", answer.text);
    let answer = b.push(&forged[1..]).await;
    assert_eq!(
        answer.body["already"], 1,
        "an older revision of B's own record"
    );
    let forged_t = json!({"format": 1, "id": "cup", "revision": 50, "tournament": setup,
                          "events": []});
    assert_eq!(b.push(&[forged_t]).await.body["accepted"], 1);
    // A table match of A's tournament pushed to B plays B's "cup", not A's: B's has no round.
    let pairing = &a.get("/v1/tournaments/cup").await.body["pairings"][0];
    assert_eq!(pairing["table"], 0);
    let side = |i: usize| format!("P{}", pairing["sides"][i].as_u64().unwrap());
    let mut table = molkky("table", 1, 9);
    table["sides"] = json!([[side(0)], [side(1)]]);
    table["tournament"] = json!({"id": "cup", "round": 1, "table": 0});
    let answer = b.push(&[table.clone()]).await;
    assert_eq!(
        answer.body["refused"][0]["kind"], "illegal_action",
        "{}",
        answer.text
    );
    let at_a = stored(&a).await;
    assert_eq!(at_a["shared-id"], (4, 4));
    assert_eq!(at_a["cup"].0, 1);
    let a_record = a.pull_all(100).await;
    assert_eq!(a_record[0]["place"], "club A's hall");
    // A's own table match enters A's tournament, and B's tournament does not move.
    assert_eq!(a.push(&[table]).await.body["accepted"], 1);
    let cup_a = a.get("/v1/tournaments/cup").await.body;
    assert_eq!(cup_a["pairings"][0]["result"]["winner"], 0);
    let cup_b = b.get("/v1/tournaments/cup").await.body;
    assert_eq!(
        (cup_b["revision"].as_i64(), cup_b["round"].as_i64()),
        (Some(50), Some(0))
    );
    assert_eq!(stored(&b).await.len(), 2);
}

#[tokio::test]
async fn a_database_newer_than_the_hub_is_refused() {
    let (db, dir, token) = one_club().await;
    let pool = db.pool().await;
    // Migrating twice changes nothing; an older hub (a shorter list) is refused.
    assert_eq!(postgres::migrate(&pool).await, Ok(postgres::latest()));
    let older = &postgres::MIGRATIONS[..postgres::MIGRATIONS.len() - 1];
    assert_eq!(
        postgres::migrate_with(&pool, older).await,
        Err(OpenError::Newer {
            database: postgres::latest(),
            hub: postgres::latest() - 1
        })
    );
    // A database a newer hub migrated: this one refuses to serve it, and says why.
    let client = pool.get().await.unwrap();
    client
        .execute(
            "INSERT INTO partie_schema (version) VALUES ($1)",
            &[&(postgres::latest() as i32 + 1)],
        )
        .await
        .unwrap();
    let refused = partie_hub::Hub::open_postgres(&db.url, &token).await.err();
    assert_eq!(
        refused,
        Some(OpenError::Newer {
            database: postgres::latest() + 1,
            hub: postgres::latest()
        })
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_partie-hub"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--postgres",
            &db.url,
            "--token-file",
        ])
        .arg(dir.path().join("token"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("newer"));
}

/// A hub that stalls inside a push (its laptop asleep before the commit) held its club's row
/// locked for as long as TCP took to notice, two hours, and every push of that club waited as
/// long, unanswered. Now a push waiting on it is refused (500 `storage`, the phone keeps its
/// outbox), and the server ends the stalled session, so that pushes are taken again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hub_stalled_inside_a_push_holds_its_club_only_for_a_while() {
    let (db, _dir, token) = one_club().await;
    let waits = postgres::Waits {
        lock: Duration::from_millis(500),
        statement: Duration::from_secs(5),
        idle_in_transaction: Duration::from_secs(2),
    };
    let pool = postgres::pool_waiting(&db.url, 4, waits).unwrap();
    let pg = postgres::PgStorage::for_token(pool.clone(), &token)
        .await
        .unwrap();
    let hub = Client {
        addr: common::serve_on_loopback(partie_hub::Hub::on_postgres(pg, &token).await.unwrap())
            .await,
        token: Some(token.clone()),
    };
    // The stalled hub: inside its push, the club's row locked, and then nothing.
    let mut stalled = pool.get().await.unwrap();
    let tx = stalled.transaction().await.unwrap();
    tx.execute("SELECT last_seq FROM club FOR UPDATE", &[])
        .await
        .unwrap();
    let refused = tokio::time::timeout(Duration::from_secs(20), hub.push(&[molkky("a", 1, 1)]))
        .await
        .expect("a push waiting on a stalled hub is answered");
    assert_eq!(refused.status, 500, "{}", refused.text);
    assert_eq!(refused.body["kind"], "storage");
    assert!(stored(&hub).await.is_empty());
    // The server ends the stalled session: the push sent again is taken, and the stalled hub's
    // commit fails (its phone is told 500 and pushes again: nothing it said was taken is lost).
    tokio::time::sleep(Duration::from_secs(3)).await;
    let taken = tokio::time::timeout(Duration::from_secs(20), hub.push(&[molkky("a", 1, 1)]))
        .await
        .expect("answered");
    assert_eq!(taken.body["accepted"], 1, "{}", taken.text);
    assert!(tx.commit().await.is_err());
    assert_eq!(stored(&hub).await.len(), 1);
}

/// A hub still running when a newer one migrated the database takes no more pushes: it would
/// write under rules the migration changed (one before migration 4 kept counting matches
/// against the computer in the league, after migration 4 took them out, for good).
#[tokio::test]
async fn a_hub_older_than_the_database_it_serves_takes_no_more_pushes() {
    let (db, _dir, token) = one_club().await;
    let hub = hub_for(&db, &token).await;
    assert_eq!(hub.push(&[molkky("before", 1, 1)]).await.status, 200);
    // A newer hub migrates the database while this one runs.
    db.pool()
        .await
        .get()
        .await
        .unwrap()
        .execute(
            "INSERT INTO partie_schema (version) VALUES ($1)",
            &[&(postgres::latest() as i32 + 1)],
        )
        .await
        .unwrap();
    let refused = hub.push(&[molkky("after", 1, 1)]).await;
    assert_eq!(refused.status, 500, "{}", refused.text);
    assert_eq!(refused.body["kind"], "storage");
    assert!(
        refused.body["detail"]
            .as_str()
            .unwrap()
            .contains("newer hub"),
        "{}",
        refused.text
    );
    let held = stored(&hub).await;
    assert!(
        held.contains_key("before") && !held.contains_key("after"),
        "{held:?}"
    );
}

/// Two pushes at once are one `accepted` and one `already`, on a server whose default
/// isolation is stricter than read committed too: the second failed to serialize (a 500).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pushes_at_once_on_a_repeatable_read_database_are_taken_as_on_any() {
    let (db, _dir, token) = one_club().await;
    db.cluster
        .admin(&format!(
            "ALTER DATABASE {} SET default_transaction_isolation = 'repeatable read'",
            db.name()
        ))
        .await;
    let hubs = [hub_for(&db, &token).await, hub_for(&db, &token).await];
    for round in 0..20 {
        let id = format!("m{round}");
        let record = molkky(&id, 1, 1);
        let (a, b) = tokio::join!(
            hubs[0].push(std::slice::from_ref(&record)),
            hubs[1].push(std::slice::from_ref(&record))
        );
        assert_eq!((a.status, b.status), (200, 200), "{} / {}", a.text, b.text);
        let accepted = a.body["accepted"].as_i64().unwrap() + b.body["accepted"].as_i64().unwrap();
        let already = a.body["already"].as_i64().unwrap() + b.body["already"].as_i64().unwrap();
        assert_eq!((accepted, already), (1, 1), "{} / {}", a.text, b.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dump_put_back_draws_new_cursor_names_so_that_devices_start_again() {
    let (db, _dir, token) = one_club().await;
    let hub = hub_for(&db, &token).await;
    assert_eq!(hub.push(&[molkky("before", 1, 1)]).await.status, 200);
    let dump = db.dump("club.dump");
    // A device pushes after the dump was made, and pulls: its cursor is past the dump.
    let after = hub.push(&[molkky("after", 1, 1)]).await;
    assert_eq!(after.body["accepted"], 1, "{}", after.text);
    let cursor = hub.get("/v1/records").await.body["cursor"]
        .as_str()
        .unwrap()
        .to_string();

    // The backup is put back, and the club's hub started again: the device's record is gone
    // from it, and the other devices push on, past the number of the device's cursor.
    db.restore(&dump);
    let hub = hub_for(&db, &token).await;
    let held = stored(&hub).await;
    assert!(
        held.contains_key("before") && !held.contains_key("after"),
        "{held:?}"
    );
    for k in 0..5 {
        let pushed = hub.push(&[molkky(&format!("other-{k}"), 1, 1)]).await;
        assert_eq!(pushed.body["accepted"], 1, "{}", pushed.text);
    }
    // Its cursor is another hub's: the device starts again both ways (it pushes "after"
    // again). Taken, it would have pulled from there on and never pushed "after" again.
    let page = hub.get(&format!("/v1/records?since={cursor}")).await;
    assert_eq!(page.status, 400, "{}", page.text);
    assert_eq!(page.body["kind"], "bad_record");
    let again = hub.push(&[molkky("after", 1, 1)]).await;
    assert_eq!(again.body["accepted"], 1, "{}", again.text);

    // A hub started again on the same database keeps its names: a cursor stays good.
    let cursor = hub.get("/v1/records").await.body["cursor"]
        .as_str()
        .unwrap()
        .to_string();
    let hub = hub_for(&db, &token).await;
    let page = hub.get(&format!("/v1/records?since={cursor}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert_eq!(page.body["records"], json!([]));
}

#[tokio::test]
async fn an_upgrade_takes_the_matches_against_the_computer_out_of_the_league() {
    // A league of migrations 1 to 3, where such a match still counted.
    let db = PgDb::create(PgCluster::shared()).await;
    let pool = postgres::pool(&db.url, 2).unwrap();
    postgres::migrate_with(&pool, &postgres::MIGRATIONS[..3])
        .await
        .unwrap();
    postgres::add_club(&pool, "club", &postgres::new_token().unwrap())
        .await
        .unwrap();
    let client = pool.get().await.unwrap();
    // A hub before the NUL character was refused stored it in a text of the body (`\u0000`),
    // which PostgreSQL's `jsonb` cannot hold: the migration must still read such a body.
    let mut people = won_2025("people", "Ana", "Bo");
    people["notes"] = json!("pen\u{0}cil");
    let mut computer = ana_beats_the_computer("computer");
    computer["notes"] = json!("\u{0}");
    for (seq, (uid, body)) in [("people", &people), ("computer", &computer)]
        .into_iter()
        .enumerate()
    {
        client
            .execute(
                "INSERT INTO record (club_id, kind, uid, revision, seq, actions, body, status)
                 SELECT id, 'match', $1, 6, $2, 6, $3, 'won' FROM club",
                &[&uid, &(seq as i64 + 1), &body.to_string()],
            )
            .await
            .unwrap();
        let loser = if uid == "people" { "Bo" } else { "Computer" };
        client
            .execute(
                "INSERT INTO league_result (club_id, uid, side, seat, name, season, outcome)
                 SELECT id, $1, 0, 0, 'Ana', 2025, 'won' FROM club
                 UNION ALL SELECT id, $1, 1, 0, $2, 2025, 'lost' FROM club",
                &[&uid, &loser],
            )
            .await
            .unwrap();
    }
    assert_eq!(postgres::migrate(&pool).await, Ok(postgres::latest()));
    let left: Vec<(String, String)> = client
        .query(
            "SELECT uid, name FROM league_result ORDER BY uid, side",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(
        left,
        [
            ("people".into(), "Ana".into()),
            ("people".into(), "Bo".into())
        ]
    );
}

#[tokio::test]
async fn an_upgraded_database_keeps_its_cursor_names() {
    // A database of a hub from before the fingerprint (migrations 1 and 2), with a club.
    let db = PgDb::create(PgCluster::shared()).await;
    let pool = postgres::pool(&db.url, 2).unwrap();
    postgres::migrate_with(&pool, &postgres::MIGRATIONS[..2])
        .await
        .unwrap();
    postgres::add_club(&pool, "club", &postgres::new_token().unwrap())
        .await
        .unwrap();
    let name = || async {
        let client = pool.get().await.unwrap();
        let row = client
            .query_one("SELECT cursor_name FROM club", &[])
            .await
            .unwrap();
        row.get::<_, String>(0)
    };
    let before = name().await;
    // The upgrade notes where the database is, and is no restore: the devices' cursors stay
    // good; nor is a start after it.
    for _ in 0..2 {
        assert_eq!(postgres::migrate(&pool).await, Ok(postgres::latest()));
        assert_eq!(name().await, before);
    }
}

#[tokio::test]
async fn club_add_prints_a_token_that_serve_postgres_serves() {
    let db = PgDb::create(PgCluster::shared()).await;
    let dir = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_partie-hub");
    let file = dir.path().join("club-a");
    let out = std::process::Command::new(exe)
        .args([
            "club",
            "add",
            "Club A",
            "--postgres",
            &db.url,
            "--token-file",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(printed.len(), 32);
    assert_eq!(std::fs::read_to_string(&file).unwrap().trim(), printed);
    // The same name again is refused, and leaves no token file behind.
    let again = std::process::Command::new(exe)
        .args([
            "club",
            "add",
            "Club A",
            "--postgres",
            &db.url,
            "--token-file",
        ])
        .arg(dir.path().join("again"))
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(!dir.path().join("again").exists());
    let list = std::process::Command::new(exe)
        .args(["club", "list", "--postgres", &db.url])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&list.stdout), "Club A\n");
    // `serve --postgres` serves the club of that token.
    let place = Place::Postgres(db.clone());
    let hub = common::SpawnedHub::start_at(&place, &file);
    let c = hub.client();
    let health = c.get("/v1/health").await;
    assert_eq!(health.body["schema"], postgres::latest());
    assert_eq!(c.push(&[molkky("m", 2, 2)]).await.body["accepted"], 1);
    assert_eq!(c.pull_all(10).await.len(), 1);
    // A token no club has: the hub does not start.
    let stranger = dir.path().join("stranger");
    std::fs::write(&stranger, "0123456789abcdef0123456789abcdef\n").unwrap();
    let out = std::process::Command::new(exe)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--postgres",
            &db.url,
            "--token-file",
        ])
        .arg(&stranger)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no club"));
}

#[test]
fn without_postgresql_the_tests_fail_and_say_how_to_install_it() {
    // A folder without initdb stands for a machine without the package: the harness panics
    // (a failed test, never a skipped one) with the command that installs it.
    let empty = tempfile::tempdir().unwrap();
    let found = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "pg_bin_of_an_empty_folder",
            "--ignored",
            "--nocapture",
        ])
        .env("PG_BIN", empty.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&found.stdout).to_string()
        + &String::from_utf8_lossy(&found.stderr);
    assert!(!found.status.success(), "{said}");
    assert!(said.contains("./scripts/setup.sh --tests"), "{said}");
}

/// Run by the test above in a child process, with `PG_BIN` an empty folder (ignored in a
/// plain run, where it would only find the machine's PostgreSQL).
#[test]
#[ignore = "run by without_postgresql_the_tests_fail_and_say_how_to_install_it"]
fn pg_bin_of_an_empty_folder() {
    common::pg::server_bin();
}

/// A finished match of 2025 between `winner` and `loser` (the first side wins).
fn won_2025(id: &str, winner: &str, loser: &str) -> Value {
    let mut m = molkky(id, 9, 9);
    m["sides"] = json!([[winner], [loser]]);
    m["started_at"] = json!("2025-06-01T19:00:00Z");
    m
}

/// A finished Morris match of 2025 that Ana wins against the computer.
fn ana_beats_the_computer(id: &str) -> Value {
    json!({"format": 1, "id": id, "revision": 6, "game": "morris", "rules": {"pieces": 3},
           "sides": [["Ana"], ["Computer"]], "computer": {"1": 2},
           "started_at": "2025-06-02T19:00:00Z",
           "actions": ["a1", "d6", "a4", "f4", "a7", "xd6"]})
}

#[tokio::test]
async fn the_league_ranks_each_clubs_players_for_a_season_readable_by_any_club() {
    let db = PgDb::create(PgCluster::shared()).await;
    let dir = tempfile::tempdir().unwrap();
    let ta = db.add_club("Les Quilles", &dir.path().join("a")).await;
    let tb = db.add_club("Bois Joli", &dir.path().join("b")).await;
    let a = hub_for(&db, &ta).await;
    let b = hub_for(&db, &tb).await;
    a.push(&[
        won_2025("a1", "Ana", "Bo"),
        won_2025("a2", "Ana", "Cy"),
        won_2025("a3", "Bo", "Cy"),
        molkky("a-playing", 3, 3),
    ])
    .await;
    // A win against the computer is no league's (nor is the computer a club's player).
    let pushed = a.push(&[ana_beats_the_computer("a-computer")]).await;
    assert_eq!(pushed.body["accepted"], 1, "{}", pushed.text);
    b.push(&[won_2025("b1", "Dee", "Eve")]).await;
    let mut last_year = won_2025("b0", "Eve", "Dee");
    last_year["started_at"] = json!("2024-06-01T19:00:00Z");
    b.push(&[last_year]).await;
    // An undo at the phone after the push: the match no longer counts.
    b.push(&[won_2025("b2", "Eve", "Dee")]).await;
    let mut undone = won_2025("b2", "Eve", "Dee");
    undone["revision"] = json!(10);
    undone["actions"].as_array_mut().unwrap().pop();
    assert_eq!(b.push(&[undone]).await.body["updated"], 1);
    // Any club's token reads the league; a club's page by its name.
    let league = b.get("/v1/league/2025").await;
    assert_eq!(league.status, 200, "{}", league.text);
    let clubs: Vec<(String, i64)> = league.body["clubs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["club"].as_str().unwrap().into(),
                c["matches"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(clubs, [("Les Quilles".into(), 3), ("Bois Joli".into(), 1)]);
    assert_eq!(league.body["players"][0]["name"], "Ana");
    assert_eq!(league.body["players"][0]["club"], "Les Quilles");
    let page = b.get("/v1/league/2025/clubs/Les%20Quilles").await;
    assert_eq!(page.status, 200, "{}", page.text);
    let rows: Vec<(String, i64, i64, i64)> = page.body["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().into(),
                r["played"].as_i64().unwrap(),
                r["won"].as_i64().unwrap(),
                r["lost"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("Ana".into(), 2, 2, 0),
            ("Bo".into(), 2, 1, 1),
            ("Cy".into(), 2, 0, 2)
        ]
    );
    let own = b.get("/v1/league/2025/clubs/Bois%20Joli").await;
    assert_eq!(own.body["standings"].as_array().unwrap().len(), 2);
    let old = b.get("/v1/league/2024/clubs/Bois%20Joli").await;
    assert_eq!(old.body["standings"][0]["name"], "Eve");
    // Without a token, a wrong season, an unknown club; and a SQLite hub has no league.
    assert_eq!(a.with_token(None).get("/v1/league/2025").await.status, 401);
    assert_eq!(a.get("/v1/league/soon").await.status, 400);
    assert_eq!(a.get("/v1/league/2025/clubs/Nobody").await.status, 404);
    let single = TestHub::start_on(Backend::Sqlite).await;
    let answer = single.client().get("/v1/league/2025").await;
    assert_eq!(
        (answer.status, answer.body["kind"].as_str()),
        (404, Some("not_found"))
    );
}

/// A player's matches are counted as the statistics count them: a name with two seats of a side
/// counts once, a name on both sides not at all. One row a seat gave such a name two matches
/// played for one. Players level on wins, draws and losses are ranked by name, whatever their
/// club (they were by club first). An upgrade counts the results written before the same way.
#[tokio::test]
async fn the_league_counts_a_match_once_for_a_player_whatever_their_seats() {
    let db = PgDb::create(PgCluster::shared()).await;
    let dir = tempfile::tempdir().unwrap();
    let ta = db.add_club("A club", &dir.path().join("a")).await;
    let tz = db.add_club("Z club", &dir.path().join("z")).await;
    let a = hub_for(&db, &ta).await;
    let z = hub_for(&db, &tz).await;
    let mut twice = won_2025("twice", "Zed", "Bo");
    twice["sides"] = json!([["Zed", "Zed"], ["Bo", "Cy"]]);
    let mut both = won_2025("both", "Zed", "Zed");
    both["sides"] = json!([["Zed"], ["Zed"]]);
    let pushed = a.push(&[twice, both]).await;
    assert_eq!(pushed.body["accepted"], 2, "{}", pushed.text);
    assert_eq!(
        z.push(&[won_2025("al", "Al", "Di")]).await.body["accepted"],
        1
    );
    let page = a.get("/v1/league/2025/clubs/A%20club").await;
    let zed = &page.body["standings"][0];
    assert_eq!(
        (&zed["name"], &zed["played"], &zed["won"]),
        (&json!("Zed"), &json!(1), &json!(1)),
        "{}",
        page.text
    );
    let league = a.get("/v1/league/2025").await;
    let top: Vec<(&str, &str)> = league.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .take(2)
        .map(|p| (p["name"].as_str().unwrap(), p["club"].as_str().unwrap()))
        .collect();
    assert_eq!(
        top,
        [("Al", "Z club"), ("Zed", "A club")],
        "{}",
        league.text
    );

    // Results of a hub before migration 5, one a seat: the upgrade counts them once.
    let old = PgDb::create(PgCluster::shared()).await;
    let pool = postgres::pool(&old.url, 2).unwrap();
    postgres::migrate_with(&pool, &postgres::MIGRATIONS[..4])
        .await
        .unwrap();
    postgres::add_club(&pool, "club", &postgres::new_token().unwrap())
        .await
        .unwrap();
    let client = pool.get().await.unwrap();
    client
        .execute(
            "INSERT INTO league_result (club_id, uid, side, seat, name, season, outcome)
             SELECT id, 'twice', 0, 0, 'Zed', 2025, 'won' FROM club
             UNION ALL SELECT id, 'twice', 0, 1, 'Zed', 2025, 'won' FROM club
             UNION ALL SELECT id, 'twice', 1, 0, 'Bo', 2025, 'lost' FROM club
             UNION ALL SELECT id, 'both', 0, 0, 'Zed', 2025, 'won' FROM club
             UNION ALL SELECT id, 'both', 1, 0, 'Zed', 2025, 'lost' FROM club",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(postgres::migrate(&pool).await, Ok(postgres::latest()));
    let left: Vec<(String, i32, String)> = client
        .query(
            "SELECT uid, seat, name FROM league_result ORDER BY uid, side, seat",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    assert_eq!(
        left,
        [
            ("twice".into(), 0, "Zed".into()),
            ("twice".into(), 0, "Bo".into())
        ]
    );
}
