//! Sync with a club hub (`docs/hub.md`) in the store: revisions, the merge rules, a table match's
//! result entered once, the change log's pages, and a device's outbox and pull.

use partie_core::store::{migrations, MergeReport, Source, Store};
use rusqlite::Connection;
use serde_json::{json, Value};

/// A Mölkky match record: A wins at its 9th action (12, 12, 12, 12, 2 against 1s).
fn molkky(id: &str, revision: i64, n: usize) -> Value {
    let all = [12, 1, 12, 1, 12, 1, 12, 1, 2];
    let actions: Vec<Value> = all[..n].iter().map(|p| json!({"pins": [p]})).collect();
    json!({"format": 1, "id": id, "revision": revision, "game": "molkky",
           "sides": [["A"], ["B"]], "actions": actions})
}

fn push(store: &mut Store, records: &[Value]) -> MergeReport {
    store.merge_records(records, Source::Device).unwrap()
}

fn counts(r: &MergeReport) -> (usize, usize, usize, Vec<&str>) {
    (
        r.accepted,
        r.updated,
        r.already,
        r.refused.iter().map(|x| x.kind).collect(),
    )
}

fn stored(store: &Store, id: &str) -> Value {
    let page = store.records_since(None, 1000).unwrap();
    page.records
        .into_iter()
        .find(|r| r["id"] == id)
        .unwrap_or(Value::Null)
}

#[test]
fn every_action_and_every_undo_adds_one_to_the_revision_and_exports_carry_it() {
    let mut store = Store::open_in_memory().unwrap();
    let m = store
        .new_match(
            "molkky",
            &Default::default(),
            &[vec!["A".into()], vec!["B".into()]],
        )
        .unwrap();
    store.play(m.id, &json!({"pins": [5]})).unwrap();
    store.play(m.id, &json!({"pins": [3]})).unwrap();
    store.undo(m.id).unwrap();
    let exported = store.export_match(m.id).unwrap();
    assert_eq!(exported["revision"], 3);
    assert_eq!(exported["id"], m.uid);
    // Import elsewhere keeps it; the actions written there do not count again.
    let mut other = Store::open_in_memory().unwrap();
    other
        .import(&json!({"format": 1, "matches": [exported]}).to_string())
        .unwrap();
    let id = other.recent_results(5).unwrap();
    assert!(id.is_empty());
    let again = other.unfinished(5).unwrap()[0].id;
    assert_eq!(other.export_match(again).unwrap()["revision"], 3);
    // A tournament's events count the same, and its export carries it.
    let t = store
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
                                "entrants": [["A"], ["B"], ["C"]]}))
        .unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    store.undo_tournament(t.id).unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    assert_eq!(store.export_tournament(t.id).unwrap()["revision"], 3);
}

#[test]
fn an_old_database_gets_revisions_from_its_actions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations::migrate_to(&mut conn, 5).unwrap();
        conn.execute_batch(
            "INSERT INTO player (id, name, created_at) VALUES (1, 'Anna', 1), (2, 'Bea', 1);
             INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, status)
                 VALUES (1, 'old-1', 'molkky', 1, '{}', 1, 1, 'playing');
             INSERT INTO match_player VALUES (1, 0, 0, 1, 'Anna'), (1, 1, 0, 2, 'Bea');
             INSERT INTO action VALUES (1, 0, '{\"pins\":[4]}', 2), (1, 1, '{\"pins\":[]}', 3);",
        )
        .unwrap();
    }
    let (store, _) = Store::open(&path).unwrap();
    let page = store.records_since(None, 10).unwrap();
    assert_eq!(page.records.len(), 1);
    assert_eq!(page.records[0]["id"], "old-1");
    assert_eq!(page.records[0]["revision"], 2);
}

#[test]
fn the_merge_rules_of_a_push() {
    let mut hub = Store::open_in_memory().unwrap();
    // Unknown: replayed and stored; an invalid one is refused and the rest still taken.
    let mut bad = molkky("bad", 1, 1);
    bad["actions"][0] = json!({"pins": [13]});
    let r = push(
        &mut hub,
        &[
            molkky("m", 3, 3),
            bad,
            json!(5),
            json!({"format": 1, "game": "molkky"}),
        ],
    );
    assert_eq!(
        counts(&r),
        (1, 0, 0, vec!["bad_action", "bad_record", "bad_record"])
    );
    assert_eq!(r.refused[0].id.as_deref(), Some("bad"));
    // The same again: already; a lower revision: already, nothing changes.
    let r = push(&mut hub, &[molkky("m", 3, 3), molkky("m", 2, 2)]);
    assert_eq!(counts(&r), (0, 0, 2, vec![]));
    assert_eq!(stored(&hub, "m")["actions"].as_array().unwrap().len(), 3);
    // A higher revision with an action taken back (an undo on the phone): replaced.
    let r = push(&mut hub, &[molkky("m", 4, 2)]);
    assert_eq!(counts(&r), (0, 1, 0, vec![]));
    let m = stored(&hub, "m");
    assert_eq!(
        (
            m["revision"].clone(),
            m["actions"].as_array().unwrap().len()
        ),
        (json!(4), 2)
    );
    // The same revision with other content, or another setup: conflict, nothing changes.
    let mut other_side = molkky("m", 5, 2);
    other_side["sides"] = json!([["A"], ["Z"]]);
    let r = push(&mut hub, &[molkky("m", 4, 3), other_side]);
    assert_eq!(counts(&r), (0, 0, 0, vec!["conflict", "conflict"]));
    // A higher revision that does not replay is refused with its kind.
    let mut wrong = molkky("m", 9, 3);
    wrong["actions"][2] = json!({"pins": [0]});
    assert_eq!(
        counts(&push(&mut hub, &[wrong])),
        (0, 0, 0, vec!["bad_action"])
    );
    assert_eq!(stored(&hub, "m")["revision"], 4);
    // No id, or not a string: refused as bad_record; no revision means 0.
    let mut no_id = molkky("x", 0, 1);
    no_id.as_object_mut().unwrap().remove("id");
    let mut no_rev = molkky("r0", 0, 1);
    no_rev.as_object_mut().unwrap().remove("revision");
    let r = push(
        &mut hub,
        &[
            no_id,
            json!({"id": 7, "format": 1, "game": "molkky"}),
            no_rev,
        ],
    );
    assert_eq!(counts(&r), (1, 0, 0, vec!["bad_record", "bad_record"]));
    assert_eq!(stored(&hub, "r0")["revision"], 0);
}

/// A hub with a round robin of four, paired; the match record of table `table`.
fn hub_with_tournament() -> (Store, String, Value) {
    let mut hub = Store::open_in_memory().unwrap();
    let t = hub
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
                                "entrants": [["A"], ["B"], ["C"], ["D"]]}))
        .unwrap();
    let t = hub.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    (hub, t.uid, t.summary)
}

fn table_match(tid: &str, summary: &Value, table: usize, id: &str, rev: i64, n: usize) -> Value {
    let p = &summary["pairings"][table];
    let names = |e: &Value| json!([summary["entrants"][e.as_u64().unwrap() as usize]]);
    let mut m = molkky(id, rev, n);
    m["sides"] = json!([names(&p["sides"][0]), names(&p["sides"][1])]);
    m["tournament"] = json!({"id": tid, "round": 1, "table": p["table"]});
    m
}

#[test]
fn a_finished_table_match_enters_its_result_once_and_an_undo_takes_it_back() {
    let (mut hub, tid, summary) = hub_with_tournament();
    let results = |hub: &Store| {
        let s = hub.tournament_summary(&tid).unwrap();
        s["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["result"].clone())
            .collect::<Vec<_>>()
    };
    // Playing: linked, no result yet.
    let r = push(&mut hub, &[table_match(&tid, &summary, 0, "t0", 8, 8)]);
    assert_eq!(counts(&r), (1, 0, 0, vec![]));
    assert_eq!(results(&hub), vec![Value::Null, Value::Null]);
    assert_eq!(
        hub.tournament_summary(&tid).unwrap()["live"][0]["match"],
        "t0"
    );
    // Finished: the result enters, once, whoever pushes it again.
    let finished = table_match(&tid, &summary, 0, "t0", 9, 9);
    let r = push(&mut hub, &[finished.clone(), finished.clone()]);
    assert_eq!(counts(&r), (0, 1, 1, vec![]));
    let entered = json!({"winner": 0, "scores": [1, 0], "match": "t0"});
    assert_eq!(results(&hub), vec![entered.clone(), Value::Null]);
    let events = stored(&hub, &tid)["events"].as_array().unwrap().len();
    assert_eq!(events, 2);
    // An undo on the phone after the push: the result goes back out.
    push(&mut hub, &[table_match(&tid, &summary, 0, "t0", 10, 8)]);
    assert_eq!(results(&hub), vec![Value::Null, Value::Null]);
    push(&mut hub, &[table_match(&tid, &summary, 0, "t0", 11, 9)]);
    assert_eq!(results(&hub), vec![entered, Value::Null]);
    // Another match for a table that has one, a table that is not there, a stranger's sides,
    // an unknown tournament: refused.
    let mut stranger = table_match(&tid, &summary, 1, "t1", 1, 1);
    stranger["sides"] = json!([["A"], ["Q"]]);
    let mut missing = table_match(&tid, &summary, 1, "t2", 1, 1);
    missing["tournament"]["table"] = json!(7);
    let mut unknown = table_match(&tid, &summary, 1, "t3", 1, 1);
    unknown["tournament"]["id"] = json!("nope");
    let r = push(
        &mut hub,
        &[
            table_match(&tid, &summary, 0, "t4", 1, 1),
            stranger,
            missing,
            unknown,
        ],
    );
    assert_eq!(
        counts(&r),
        (
            0,
            0,
            0,
            vec!["conflict", "bad_setup", "illegal_action", "not_found"]
        )
    );
}

/// The organiser undoes the pairing and pairs again the same way while a table's match is
/// played: the match's link went with the undone pairing, and the phone still says its table.
/// Its next push links it again and goes on (it was refused as another setup, push after push,
/// so its later throws and its result never reached the hub); finished, its result enters.
#[test]
fn a_table_match_unlinked_by_an_undone_pairing_is_linked_again_by_its_next_push() {
    let (mut hub, tid, summary) = hub_with_tournament();
    let r = push(&mut hub, &[table_match(&tid, &summary, 0, "t0", 3, 3)]);
    assert_eq!(counts(&r), (1, 0, 0, vec![]));
    let id = hub.tournament_by_uid(&tid).unwrap().unwrap();
    hub.undo_tournament(id).unwrap();
    hub.tournament_event(id, &json!({"pair": {}})).unwrap();
    let again = hub.tournament_summary(&tid).unwrap();
    assert_eq!(
        again["pairings"], summary["pairings"],
        "paired the same way"
    );
    assert_eq!(again["live"].as_array().map(Vec::len), Some(0), "unlinked");
    let r = push(&mut hub, &[table_match(&tid, &summary, 0, "t0", 5, 5)]);
    assert_eq!(counts(&r), (0, 1, 0, vec![]));
    assert_eq!(
        hub.tournament_summary(&tid).unwrap()["live"][0]["match"],
        "t0"
    );
    let r = push(&mut hub, &[table_match(&tid, &summary, 0, "t0", 9, 9)]);
    assert_eq!(counts(&r), (0, 1, 0, vec![]));
    let s = hub.tournament_summary(&tid).unwrap();
    assert_eq!(s["pairings"][0]["result"]["match"], "t0", "{s}");
}

#[test]
fn pages_of_changes_give_each_record_once_in_order_of_its_latest_change() {
    let mut hub = Store::open_in_memory().unwrap();
    push(
        &mut hub,
        &[molkky("a", 1, 1), molkky("b", 1, 1), molkky("c", 1, 1)],
    );
    let first = hub.records_since(None, 2).unwrap();
    let ids = |p: &partie_core::store::Page| {
        p.records
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&first), ["a", "b"]);
    push(&mut hub, &[molkky("a", 2, 2)]);
    let second = hub.records_since(Some(&first.cursor), 10).unwrap();
    assert_eq!(ids(&second), ["c", "a"]);
    assert_eq!(second.records[1]["revision"], 2);
    let empty = hub.records_since(Some(&second.cursor), 10).unwrap();
    assert!(empty.records.is_empty());
    assert_eq!(empty.cursor, second.cursor);
    assert_eq!(ids(&hub.records_since(None, 10).unwrap()), ["b", "c", "a"]);
    assert_eq!(
        hub.records_since(Some("x"), 10).unwrap_err().kind.as_str(),
        "bad_record"
    );
}

#[test]
fn a_device_pushes_its_outbox_and_pulls_the_hubs_records() {
    let (mut hub, tid, _) = hub_with_tournament();
    let mut phone = Store::open_in_memory().unwrap();
    // Pull: the tournament arrives; the phone starts table 1's match from it and plays.
    let page = hub.records_since(None, 100).unwrap();
    let r = phone.merge_records(&page.records, Source::Hub).unwrap();
    assert_eq!(r.accepted, 1);
    phone.set_sync_pulled("club", &page.cursor).unwrap();
    let local = phone.tournament_by_uid(&tid).unwrap().unwrap();
    let m = phone.start_table(local, 1).unwrap();
    for p in [12, 1, 12, 1, 12, 1, 12, 1, 2] {
        phone.play(m.id, &json!({"pins": [p]})).unwrap();
    }
    // Push: the hub takes the match and enters its result itself.
    let outbox = phone.sync_outbox("club", 100).unwrap();
    assert_eq!(outbox.records.len(), 1);
    assert_eq!(outbox.records[0]["tournament"]["table"], 1);
    let r = hub.merge_records(&outbox.records, Source::Device).unwrap();
    assert_eq!((r.accepted, r.refused.len()), (1, 0));
    phone.sync_pushed("club", outbox.upto).unwrap();
    assert!(phone.sync_outbox("club", 100).unwrap().records.is_empty());
    // Pull again: both hold the same records and the same standings.
    let since = phone.sync_pulled("club").unwrap();
    let page = hub.records_since(since.as_deref(), 100).unwrap();
    phone.merge_records(&page.records, Source::Hub).unwrap();
    let a = hub.tournament_summary(&tid).unwrap();
    let b = phone.tournament_summary(&tid).unwrap();
    assert_eq!(a["standings"], b["standings"]);
    assert_eq!(a["pairings"], b["pairings"]);
    let all = |s: &Store| {
        let mut v = s.records_since(None, 100).unwrap().records;
        for r in &mut v {
            strip_times(r);
        }
        v.sort_by_key(|r| r["id"].as_str().unwrap().to_string());
        v
    };
    assert_eq!(all(&hub), all(&phone));
    // A device that joins now pulls the match before the tournament it was played for (its
    // result came later): it still keeps the match's table.
    let page = hub.records_since(None, 100).unwrap();
    assert_eq!(page.records[0]["id"], outbox.records[0]["id"]);
    let mut late = Store::open_in_memory().unwrap();
    let r = late.merge_records(&page.records, Source::Hub).unwrap();
    assert_eq!((r.accepted, r.refused.len()), (2, 0));
    assert_eq!(all(&hub), all(&late));
    assert_eq!(late.tournament_summary(&tid).unwrap()["live"], a["live"]);
}

/// Leaves out what each store stamps itself (times), which sync does not compare.
fn strip_times(r: &mut Value) {
    let o = r.as_object_mut().unwrap();
    for k in ["started_at", "finished_at", "created_at"] {
        o.remove(k);
    }
    if let Some(actions) = o.get_mut("actions").and_then(Value::as_array_mut) {
        for a in actions {
            if let Some(a) = a.as_object_mut() {
                a.remove("at");
            }
        }
    }
}

/// The change log's place of a record, read beside the store (no reader handed a cursor).
fn place(path: &std::path::Path, uid: &str) -> i64 {
    Connection::open(path)
        .unwrap()
        .query_row("SELECT seq FROM sync_change WHERE uid = ?1", [uid], |r| {
            r.get(0)
        })
        .unwrap()
}

#[test]
fn a_record_moves_on_in_the_log_only_once_a_reader_was_handed_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hub.db");
    let (mut store, _) = Store::open(&path).unwrap();
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let a = store
        .new_match("molkky", &Default::default(), &sides)
        .unwrap();
    let b = store
        .new_match("molkky", &Default::default(), &sides)
        .unwrap();
    // Nobody read the log: throws keep the match's place (a throw writes its action only).
    let before = place(&path, &a.uid);
    store.play(a.id, &json!({"pins": [5]})).unwrap();
    store.play(a.id, &json!({"pins": [3]})).unwrap();
    assert_eq!(place(&path, &a.uid), before);
    let first = store.changes_since(0, 10).unwrap();
    let ids: Vec<&str> = first.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, [a.uid.as_str(), b.uid.as_str()]);
    assert_eq!(first[0].revision, 2);
    let cursor = first.last().unwrap().seq;
    // A reader passed both places: the next throw moves the match on, and the reader sees it.
    store.play(a.id, &json!({"pins": [1]})).unwrap();
    assert!(place(&path, &a.uid) > cursor);
    let second = store.changes_since(cursor, 10).unwrap();
    assert_eq!(second.len(), 1);
    assert_eq!(
        (second[0].id.as_str(), second[0].revision),
        (a.uid.as_str(), 3)
    );
    // An undo is a change too, seen after the last read.
    let cursor = second[0].seq;
    store.undo(a.id).unwrap();
    let third = store.changes_since(cursor, 10).unwrap();
    assert_eq!(
        (third[0].id.as_str(), third[0].revision),
        (a.uid.as_str(), 4)
    );
    assert_eq!(third[0].actions, 2);
    assert!(store.changes_since(third[0].seq, 10).unwrap().is_empty());
}

#[test]
fn a_database_of_schema_7_keeps_its_revisions_and_counts_on_from_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seven.db");
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations::migrate_to(&mut conn, 7).unwrap();
        // Revision 5 with two actions: one was taken back (2 in, 1 out, 1 in again... as the
        // triggers of migration 6 counted).
        conn.execute_batch(
            "INSERT INTO player (id, name, created_at) VALUES (1, 'Anna', 1), (2, 'Bea', 1);
             INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, status, summary)
                 VALUES (1, 'seven-1', 'molkky', 1, '{}', 1, 1, 'playing', '{\"scores\": [0, 0]}');
             INSERT INTO match_player VALUES (1, 0, 0, 1, 'Anna'), (1, 1, 0, 2, 'Bea');
             INSERT INTO action VALUES (1, 0, '{\"pins\":[4]}', 2), (1, 1, '{\"pins\":[]}', 3);
             UPDATE match SET revision = 5 WHERE id = 1;
             INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, status, summary)
                 VALUES (2, 'pulled-2', 'molkky', 1, '{}', 1, 1, 'playing', NULL);
             INSERT INTO match_player VALUES (2, 0, 0, 1, 'Anna'), (2, 1, 0, 2, 'Bea');
             INSERT INTO club_seen (hub, uid, revision) VALUES ('club', 'pulled-2', 0);",
        )
        .unwrap();
    }
    let (mut store, _) = Store::open(&path).unwrap();
    // A match of a file from before the app knew its writers is its own when no hub held it,
    // another's when it came from one.
    assert!(store.view(1).unwrap().writer);
    assert!(!store.view(2).unwrap().writer);
    store.delete_match(2).unwrap();
    // The lists replay a match being played: its scores, not the old cached summary; its last
    // change is its last action's.
    let listed = &store.unfinished(5).unwrap()[0];
    assert_eq!(listed.summary["scores"], json!([4, 0]));
    assert_eq!(listed.updated_at, 3);
    assert_eq!(store.export_match(1).unwrap()["revision"], 5);
    store.play(1, &json!({"pins": [7]})).unwrap();
    assert_eq!(store.export_match(1).unwrap()["revision"], 6);
    assert_eq!(
        store.unfinished(5).unwrap()[0].summary["scores"],
        json!([11, 0])
    );
    store.undo(1).unwrap();
    assert_eq!(store.export_match(1).unwrap()["revision"], 7);
}

#[test]
fn each_database_has_its_own_name_as_a_hub_kept_across_openings_and_upgrades() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hub.db");
    let name = {
        let (store, _) = Store::open(&path).unwrap();
        store.hub_name().unwrap()
    };
    assert_eq!(name.len(), 16);
    assert!(name.bytes().all(|b| b.is_ascii_hexdigit()), "{name}");
    let (mut store, _) = Store::open(&path).unwrap();
    assert_eq!(store.hub_name().unwrap(), name, "kept when opened again");
    push(&mut store, &[molkky("m", 1, 1)]);
    let page = store.records_since(None, 10).unwrap();
    assert_eq!(page.cursor.split_once('.').unwrap().0, name);
    // Another database, and one upgraded from the schema before names: each its own.
    let other = Store::open_in_memory().unwrap().hub_name().unwrap();
    let old = dir.path().join("old.db");
    {
        let mut conn = Connection::open(&old).unwrap();
        // Migration 9 gave a database its name.
        migrations::migrate_to(&mut conn, 8).unwrap();
    }
    let (upgraded, _) = Store::open(&old).unwrap();
    let upgraded = upgraded.hub_name().unwrap();
    assert_eq!(upgraded.len(), 16);
    assert!(name != other && name != upgraded && other != upgraded);
}

#[test]
fn a_round_the_hub_paired_again_differently_unlinks_the_phones_table_match() {
    let mut hub = Store::open_in_memory().unwrap();
    let t = hub
        .new_tournament(&json!({"game": "molkky", "system": "swiss",
                                "entrants": [["A"], ["B"], ["C"], ["D"]]}))
        .unwrap();
    let result = |table: usize, winner: usize| {
        json!({"result": {"round": 1, "table": table, "winner": winner,
                          "scores": if winner == 0 { [1, 0] } else { [0, 1] }}})
    };
    for e in [
        json!({"pair": {}}),
        result(0, 0),
        result(1, 0),
        json!({"pair": {}}),
    ] {
        hub.tournament_event(t.id, &e).unwrap();
    }
    let before = hub.tournament_summary(&t.uid).unwrap()["pairings"][0]["sides"].clone();
    // The phone pulls round 2 and starts table 0's match. Its player "A" is merged into
    // "Alpha" (the same person).
    let mut phone = Store::open_in_memory().unwrap();
    let page = hub.records_since(None, 100).unwrap();
    phone.merge_records(&page.records, Source::Hub).unwrap();
    let local = phone.tournament_by_uid(&t.uid).unwrap().unwrap();
    let m = phone.start_table(local, 0).unwrap();
    assert!(m.tournament.is_some());
    let id = |s: &Store, name: &str| {
        s.players()
            .unwrap()
            .into_iter()
            .find(|p| p.name == name)
            .map(|p| p.id)
    };
    let alpha = phone.add_player("Alpha").unwrap().id;
    phone
        .merge_players(alpha, id(&phone, "A").unwrap())
        .unwrap();
    // The hub takes round 2 back, corrects round 1 and pairs again: table 0 is another match.
    for _ in 0..3 {
        hub.undo_tournament(t.id).unwrap();
    }
    for e in [result(0, 1), result(1, 0), json!({"pair": {}})] {
        hub.tournament_event(t.id, &e).unwrap();
    }
    let after = hub.tournament_summary(&t.uid).unwrap()["pairings"][0]["sides"].clone();
    assert_ne!(before, after, "the test needs table 0 paired differently");
    let page = hub.records_since(Some(&page.cursor), 100).unwrap();
    phone.merge_records(&page.records, Source::Hub).unwrap();
    assert_eq!(
        phone.tournament_summary(&t.uid).unwrap()["pairings"][0]["sides"],
        after
    );
    // The old match stays in the history, unlinked; the table starts its own.
    assert!(phone.view(m.id).unwrap().tournament.is_none());
    let again = phone.start_table(local, 0).unwrap();
    assert_ne!(again.id, m.id);
    // And the entrant "A" is still Alpha: no player "A" was made again by the pull.
    assert_eq!(id(&phone, "A"), None);
}

#[test]
fn a_table_match_pulled_a_page_before_its_tournament_is_linked_when_it_comes() {
    // A finished table match changed before its tournament's latest change (its result): with
    // small pages, a device joining late gets the match first.
    let (mut hub, tid, summary) = hub_with_tournament();
    // Other devices have read the log (the tournament's place is handed out): its next
    // change moves it on, after the match.
    hub.records_since(None, 100).unwrap();
    let m = table_match(&tid, &summary, 0, "table-0", 9, 9);
    let r = hub.merge_records(&[m], Source::Device).unwrap();
    assert_eq!(r.accepted, 1);
    let mut phone = Store::open_in_memory().unwrap();
    let mut cursor: Option<String> = None;
    let mut pages = Vec::new();
    loop {
        let page = hub.records_since(cursor.as_deref(), 1).unwrap();
        if page.records.is_empty() {
            break;
        }
        pages.push(page.records[0]["id"].as_str().unwrap().to_string());
        phone.merge_records(&page.records, Source::Hub).unwrap();
        cursor = Some(page.cursor);
    }
    assert_eq!(
        pages,
        vec!["table-0".to_string(), tid.clone()],
        "the match came first"
    );
    let local = phone.tournament_by_uid(&tid).unwrap().unwrap();
    // The table's match is the one pulled, linked to its table (not a second one).
    let view = phone.start_table(local, 0).unwrap();
    assert_eq!(view.uid, "table-0");
    assert_eq!(view.tournament.map(|l| (l.round, l.table)), Some((1, 0)));
    let record = phone
        .records_since(None, 10)
        .unwrap()
        .records
        .into_iter()
        .find(|r| r["id"] == "table-0")
        .unwrap();
    assert_eq!(record["tournament"]["id"], tid.as_str(), "{record}");
}

/// A finished Mölkky record of `a` against `b` (a wins), as another device pushed it.
fn between(id: &str, a: &str, b: &str) -> Value {
    let mut v = molkky(id, 9, 9);
    v["sides"] = json!([[a], [b]]);
    v
}

/// A Mölkky match of `a` against `b` started here.
fn started(store: &mut Store, a: &str, b: &str) -> partie_core::store::MatchView {
    store
        .new_match(
            "molkky",
            &Default::default(),
            &[vec![a.to_string()], vec![b.to_string()]],
        )
        .unwrap()
}

/// The names of the history's players.
fn player_names(store: &Store) -> Vec<String> {
    store
        .players()
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect()
}

/// The phone's outbox pushed to the hub: (accepted, updated, already, the kinds refused).
fn push_outbox(phone: &mut Store, hub: &mut Store) -> (usize, usize, usize, String) {
    let outbox = phone.sync_outbox("club", 100).unwrap();
    let r = hub.merge_records(&outbox.records, Source::Device).unwrap();
    phone.sync_pushed("club", outbox.upto).unwrap();
    let (a, u, al, refused) = counts(&r);
    (a, u, al, refused.join(","))
}

/// The id of the player the history calls `name`.
fn player_id(store: &Store, name: &str) -> i64 {
    store
        .players()
        .unwrap()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no player {name}"))
        .id
}

#[test]
fn a_rename_or_a_merge_keeps_the_record_as_played_so_the_next_push_is_taken() {
    let mut hub = Store::open_in_memory().unwrap();
    let mut phone = Store::open_in_memory().unwrap();
    let m = started(&mut phone, "Jon", "Bea");
    let push_one = |phone: &mut Store, hub: &mut Store, pins: u8| {
        phone.play(m.id, &json!({"pins": [pins]})).unwrap();
        push_outbox(phone, hub)
    };
    assert_eq!(push_one(&mut phone, &mut hub, 3), (1, 0, 0, String::new()));
    // Renamed on the phone while being played: the history and the screen say John...
    let jon = player_id(&phone, "Jon");
    phone.rename_player(jon, "John").unwrap();
    assert_eq!(push_one(&mut phone, &mut hub, 4), (0, 1, 0, String::new()));
    let view = phone.view(m.id).unwrap();
    assert_eq!(
        view.sides,
        vec![vec!["John".to_string()], vec!["Bea".into()]]
    );
    let summary: Value = serde_json::from_str(view.summary.text()).unwrap();
    assert_eq!(summary["thrower"], "John");
    // ...while the record, here and at the hub, is the match as it was set up.
    let held = stored(&hub, &m.uid);
    assert_eq!(held["sides"], json!([["Jon"], ["Bea"]]));
    assert_eq!(held["actions"].as_array().unwrap().len(), 2);
    let served = phone
        .sync_record(partie_core::store::RecordKind::Match, &m.uid)
        .unwrap();
    assert_eq!(served["sides"], json!([["Jon"], ["Bea"]]));
    assert!(served.get("names").is_none());
    // Renamed on the desk that hosts the hub: the phone's next throw is still taken, and a
    // pull gives the phone nothing new to refuse.
    let bea = player_id(&hub, "Bea");
    hub.rename_player(bea, "Béatrice").unwrap();
    assert_eq!(push_one(&mut phone, &mut hub, 5), (0, 1, 0, String::new()));
    let page = hub.records_since(None, 100).unwrap();
    let r = phone.merge_records(&page.records, Source::Hub).unwrap();
    assert_eq!(counts(&r), (0, 0, 1, vec![]));
    assert_eq!(stored(&hub, &m.uid)["sides"], json!([["Jon"], ["Bea"]]));
    assert_eq!(
        hub.record(1).unwrap().sides,
        vec![vec!["Jon".to_string()], vec!["Béatrice".into()]],
        "the hub's own history shows its name of today"
    );
    // Merged into another player: the same.
    let other = started(&mut phone, "Jonathan", "Bea");
    let jonathan = player_id(&phone, "Jonathan");
    let john = player_id(&phone, "John");
    phone.merge_players(jonathan, john).unwrap();
    assert_eq!(push_one(&mut phone, &mut hub, 6), (1, 1, 0, String::new()));
    assert_eq!(
        phone.view(m.id).unwrap().sides[0],
        vec!["Jonathan".to_string()]
    );
    phone.delete_match(other.id).unwrap();
    // A file export carries the record as played and the names of today beside it; an
    // import elsewhere shows today's names and keeps the record.
    let exported = phone.export_match(m.id).unwrap();
    assert_eq!(exported["sides"], json!([["Jon"], ["Bea"]]));
    assert_eq!(exported["names"], json!([["Jonathan"], ["Bea"]]));
    let mut elsewhere = Store::open_in_memory().unwrap();
    elsewhere
        .import(&json!({"format": 1, "matches": [exported]}).to_string())
        .unwrap();
    let id = elsewhere.unfinished(5).unwrap()[0].id;
    assert_eq!(
        elsewhere.view(id).unwrap().sides,
        vec![vec!["Jonathan".to_string()], vec!["Bea".into()]]
    );
    assert_eq!(
        elsewhere.export_match(id).unwrap(),
        phone.export_match(m.id).unwrap()
    );
    assert_eq!(
        elsewhere
            .sync_record(partie_core::store::RecordKind::Match, &m.uid)
            .unwrap()["sides"],
        json!([["Jon"], ["Bea"]])
    );
    // Renamed back to the name played, a seat is as played again.
    let j = player_id(&phone, "Jonathan");
    phone.rename_player(j, "Jon").unwrap();
    assert!(phone.export_match(m.id).unwrap().get("names").is_none());
    // An export's names that do not fit its sides are refused, and nothing is imported.
    let mut bad = phone.export_match(m.id).unwrap();
    bad["id"] = json!("another");
    bad["names"] = json!([["Jon"]]);
    let e = elsewhere
        .import(&json!({"format": 1, "matches": [bad]}).to_string())
        .unwrap_err();
    assert_eq!(e.kind.as_str(), "bad_record");
    assert_eq!(elsewhere.unfinished(5).unwrap().len(), 1);
}

#[test]
fn a_table_match_whose_player_was_renamed_on_the_phone_still_enters_its_result() {
    let (mut hub, tid, _) = hub_with_tournament();
    let mut phone = Store::open_in_memory().unwrap();
    let page = hub.records_since(None, 100).unwrap();
    phone.merge_records(&page.records, Source::Hub).unwrap();
    let local = phone.tournament_by_uid(&tid).unwrap().unwrap();
    let m = phone.start_table(local, 1).unwrap();
    let first = m.sides[0][0].clone();
    for p in [12, 1, 12, 1] {
        phone.play(m.id, &json!({"pins": [p]})).unwrap();
    }
    let outbox = phone.sync_outbox("club", 100).unwrap();
    hub.merge_records(&outbox.records, Source::Device).unwrap();
    phone.sync_pushed("club", outbox.upto).unwrap();
    // The scorer fixes the spelling of a name at the board, then the match ends.
    let id = player_id(&phone, &first);
    phone.rename_player(id, &format!("{first}lice")).unwrap();
    for p in [12, 1, 12, 1, 2] {
        phone.play(m.id, &json!({"pins": [p]})).unwrap();
    }
    let outbox = phone.sync_outbox("club", 100).unwrap();
    let r = hub.merge_records(&outbox.records, Source::Device).unwrap();
    assert_eq!(counts(&r), (0, 1, 0, vec![]));
    let standings = &hub.tournament_summary(&tid).unwrap()["standings"];
    let winner = standings
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["wins"] == 1)
        .expect("the result was entered at the hub");
    let summary = hub.tournament_summary(&tid).unwrap();
    assert_eq!(
        summary["entrants"][winner["entrant"].as_u64().unwrap() as usize],
        json!(first)
    );
}

#[test]
fn the_writers_place_and_notes_reach_the_hub_and_another_devices_stay_with_it() {
    let mut hub = Store::open_in_memory().unwrap();
    let mut phone = Store::open_in_memory().unwrap();
    let m = started(&mut phone, "A", "B");
    phone.play(m.id, &json!({"pins": [3]})).unwrap();
    club_push(&mut phone, &mut hub);
    // The scorer notes the place after the push: one more revision, and the hub has it.
    phone
        .set_notes(m.id, "Parc de la Tête d'Or", "windy")
        .unwrap();
    assert_eq!(phone.export_match(m.id).unwrap()["revision"], 2);
    assert_eq!(club_push(&mut phone, &mut hub), (1, 1, 0));
    let held = stored(&hub, &m.uid);
    assert_eq!(held["place"], "Parc de la Tête d'Or");
    assert_eq!(held["notes"], "windy");
    // The same text again changes nothing; the next throw is taken as ever.
    phone
        .set_notes(m.id, "Parc de la Tête d'Or", "windy")
        .unwrap();
    assert_eq!(club_push(&mut phone, &mut hub), (0, 0, 0));
    // Another device that pulled the match notes something of its own: it stays there, and
    // the writer's next throw is not refused.
    let mut other = Store::open_in_memory().unwrap();
    let page = hub.records_since(None, 100).unwrap();
    other
        .club_pulled("club", &page.records, &page.cursor)
        .unwrap();
    let theirs = other.unfinished(5).unwrap()[0].id;
    assert!(phone.view(m.id).unwrap().writer);
    assert!(
        !other.view(theirs).unwrap().writer,
        "the screens say so at the notes"
    );
    other.set_notes(theirs, "", "seen from the bar").unwrap();
    assert_eq!(other.export_match(theirs).unwrap()["revision"], 2);
    assert!(other.club_outbox("club", 100).unwrap().records.is_empty());
    phone.play(m.id, &json!({"pins": [4]})).unwrap();
    assert_eq!(club_push(&mut phone, &mut hub), (1, 1, 0));
    // So does the hub's own copy (the desk that hosts it): notes there do not move the record.
    let at_hub = hub.unfinished(5).unwrap()[0].id;
    hub.set_notes(at_hub, "", "desk").unwrap();
    assert_eq!(stored(&hub, &m.uid)["revision"], 3);
}

/// Another device's match discarded and brought back keeps the notes written here as this
/// device's own, apart from the writer's. They came back as the record's, so the writer's next
/// revision, pulled, overwrote them.
#[test]
fn another_devices_match_brought_back_keeps_the_notes_written_here() {
    let mut hub = Store::open_in_memory().unwrap();
    let mut phone = Store::open_in_memory().unwrap();
    let m = started(&mut phone, "A", "B");
    phone.play(m.id, &json!({"pins": [3]})).unwrap();
    phone.set_notes(m.id, "Parc", "windy").unwrap();
    club_push(&mut phone, &mut hub);
    let mut other = Store::open_in_memory().unwrap();
    let page = hub.records_since(None, 100).unwrap();
    other
        .club_pulled("club", &page.records, &page.cursor)
        .unwrap();
    let theirs = other.unfinished(5).unwrap()[0].id;
    other.set_notes(theirs, "", "seen from the bar").unwrap();

    let kept = other.discard_match(theirs).unwrap();
    assert_eq!(kept["notes"], "windy", "{kept}");
    assert_eq!(kept["local_notes"], "seen from the bar", "{kept}");
    other.import_as(&kept.to_string(), false).unwrap();
    let back = other.unfinished(5).unwrap()[0].id;
    assert!(!other.view(back).unwrap().writer);
    assert_eq!(
        other.notes(back).unwrap(),
        (Some("Parc".into()), Some("seen from the bar".into()))
    );
    // The writer's next throw, pulled: the record's notes are the writer's, this device's stay.
    phone.play(m.id, &json!({"pins": [4]})).unwrap();
    club_push(&mut phone, &mut hub);
    let page = hub.records_since(None, 100).unwrap();
    other
        .club_pulled("club", &page.records, &page.cursor)
        .unwrap();
    assert_eq!(
        other.export_match(back).unwrap()["actions"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        other.notes(back).unwrap(),
        (Some("Parc".into()), Some("seen from the bar".into()))
    );
    // Taken over, this device's notes become the record's, as for a match never discarded.
    other.take_over(back).unwrap();
    assert_eq!(
        other
            .sync_record(partie_core::store::RecordKind::Match, &m.uid)
            .unwrap()["notes"],
        "seen from the bar"
    );

    // A match of this device's own, discarded and brought back, has its notes as before.
    let mine = phone.discard_match(m.id).unwrap();
    assert!(mine.get("local_notes").is_none(), "{mine}");
    phone.import_as(&mine.to_string(), true).unwrap();
    let again = phone.unfinished(5).unwrap()[0].id;
    assert_eq!(
        phone.notes(again).unwrap(),
        (Some("Parc".into()), Some("windy".into()))
    );
}

#[test]
fn a_match_pulled_under_a_name_renamed_here_is_the_renamed_players() {
    let mut phone = Store::open_in_memory().unwrap();
    let m = started(&mut phone, "Jon", "Bea");
    phone.play(m.id, &json!({"pins": [3]})).unwrap();
    let jon = player_id(&phone, "Jon");
    phone.rename_player(jon, "John").unwrap();
    // Another phone's match under the old name, pulled: it is John's, shown so, and its
    // record is as that phone played it.
    let r = phone
        .merge_records(&[between("jons", "Jon", "Cyril")], Source::Hub)
        .unwrap();
    assert_eq!(counts(&r), (1, 0, 0, vec![]));
    let names = player_names(&phone);
    assert!(!names.contains(&"Jon".to_string()), "{names:?}");
    assert_eq!(phone.player_stats(jon, "molkky").unwrap().wins, 1);
    let id = phone.recent_results(5).unwrap()[0].id;
    assert_eq!(phone.record(id).unwrap().sides[0], vec!["John".to_string()]);
    assert_eq!(
        phone
            .sync_record(partie_core::store::RecordKind::Match, "jons")
            .unwrap()["sides"],
        json!([["Jon"], ["Cyril"]])
    );
    // A name two players were renamed from is neither's: a new player.
    let other = phone.add_player("Jon").unwrap().id;
    started(&mut phone, "Jon", "Bea");
    phone.rename_player(other, "Jonas").unwrap();
    let r = phone
        .merge_records(&[between("ambiguous", "Jon", "Cyril")], Source::Hub)
        .unwrap();
    assert_eq!(counts(&r), (1, 0, 0, vec![]));
    let names = player_names(&phone);
    assert!(names.contains(&"Jon".to_string()), "{names:?}");
}

#[test]
fn a_name_once_renamed_is_the_players_even_before_any_match_and_but_for_case() {
    let mut phone = Store::open_in_memory().unwrap();
    // Renamed before ever playing, and merged before ever playing.
    let zoe = phone.add_player("Zoé").unwrap().id;
    phone.rename_player(zoe, "Zoe L.").unwrap();
    let kim = phone.add_player("Kim").unwrap().id;
    let kimberley = phone.add_player("Kimberley").unwrap().id;
    phone.merge_players(kim, kimberley).unwrap();
    let r = phone
        .merge_records(
            &[
                between("one", "Zoé", "kimberley"),
                between("two", "zoé", "Kim"),
            ],
            Source::Hub,
        )
        .unwrap();
    assert_eq!(counts(&r), (2, 0, 0, vec![]));
    let mut names = player_names(&phone);
    names.sort();
    assert_eq!(names, vec!["Kim", "Zoe L."]);
    assert_eq!(phone.player_stats(zoe, "molkky").unwrap().wins, 2);
    assert_eq!(phone.player_stats(kim, "molkky").unwrap().losses, 2);
    assert_eq!(
        phone
            .sync_record(partie_core::store::RecordKind::Match, "two")
            .unwrap()["sides"],
        json!([["zoé"], ["Kim"]])
    );
    // A tournament pulled under the old name enters the renamed player.
    let mut hub = Store::open_in_memory().unwrap();
    let t = hub
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
                                "entrants": [["Zoé"], ["Kimberley"], ["Cyril"], ["Dora"]]}))
        .unwrap();
    hub.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let page = hub.records_since(None, 100).unwrap();
    phone.merge_records(&page.records, Source::Hub).unwrap();
    let theirs = phone.player_tournaments(zoe).unwrap();
    assert_eq!(theirs.len(), 1);
    assert_eq!(phone.player_tournaments(kim).unwrap().len(), 1);
    // Every entrant of a tournament new on the phone is seated, the others as new players.
    let cyril = player_id(&phone, "Cyril");
    assert_eq!(phone.player_tournaments(cyril).unwrap().len(), 1);
    // An import carrying the names of another device's history finds them the same way.
    let mut other = Store::open_in_memory().unwrap();
    let m = started(&mut other, "Zoé", "Lou");
    let lou = player_id(&other, "Lou");
    other.rename_player(lou, "Louise").unwrap();
    let exported = other.export_match(m.id).unwrap();
    assert_eq!(exported["names"], json!([["Zoé"], ["Louise"]]));
    phone
        .import(&json!({"format": 1, "matches": [exported]}).to_string())
        .unwrap();
    let id = phone.unfinished(5).unwrap()[0].id;
    assert_eq!(
        phone.view(id).unwrap().sides,
        vec![vec!["Zoe L.".to_string()], vec!["Louise".into()]]
    );
    assert_eq!(
        phone.export_match(id).unwrap()["sides"],
        json!([["Zoé"], ["Lou"]])
    );
    // The name Louise was played under is hers here too, for what comes later under it.
    let r = phone
        .merge_records(&[between("three", "Lou", "Kim")], Source::Hub)
        .unwrap();
    assert_eq!(counts(&r), (1, 0, 0, vec![]));
    let louise = player_id(&phone, "Louise");
    assert_eq!(phone.player_stats(louise, "molkky").unwrap().wins, 1);
    assert!(phone.players().unwrap().iter().all(|p| p.name != "Lou"));
}

#[test]
fn notes_written_where_the_match_is_not_written_stay_there_and_only_there() {
    let mut hub = Store::open_in_memory().unwrap();
    let mut phone = Store::open_in_memory().unwrap();
    let m = started(&mut phone, "A", "B");
    let push = |phone: &mut Store, hub: &mut Store| {
        let (accepted, updated, _, _) = push_outbox(phone, hub);
        accepted + updated
    };
    phone.play(m.id, &json!({"pins": [3]})).unwrap();
    assert_eq!(push(&mut phone, &mut hub), 1);
    // The desk that hosts the hub notes a place on the phone's match: it shows there, it is
    // not served, and the phone's next throw does not take it away.
    let at_hub = hub.unfinished(5).unwrap()[0].id;
    hub.set_notes(at_hub, "Salle des fêtes", "").unwrap();
    phone.play(m.id, &json!({"pins": [4]})).unwrap();
    assert_eq!(push(&mut phone, &mut hub), 1);
    let desk = (Some("Salle des fêtes".to_string()), None);
    assert_eq!(hub.notes(at_hub).unwrap(), desk);
    assert_eq!(
        hub.view(at_hub).unwrap().place.as_deref(),
        Some("Salle des fêtes")
    );
    assert!(stored(&hub, &m.uid).get("place").is_none());
    let mut other = Store::open_in_memory().unwrap();
    let page = hub.records_since(None, 100).unwrap();
    other.merge_records(&page.records, Source::Hub).unwrap();
    let theirs = other.unfinished(5).unwrap()[0].id;
    assert_eq!(other.notes(theirs).unwrap(), (None, None));
    // The writer's own place is the record's: served and pulled; the desk keeps its own.
    phone.set_notes(m.id, "Parc", "").unwrap();
    assert_eq!(push(&mut phone, &mut hub), 1);
    assert_eq!(stored(&hub, &m.uid)["place"], "Parc");
    assert_eq!(hub.notes(at_hub).unwrap(), desk);
    let page = hub.records_since(None, 100).unwrap();
    other.merge_records(&page.records, Source::Hub).unwrap();
    assert_eq!(
        other.notes(theirs).unwrap(),
        (Some("Parc".to_string()), None)
    );
    // A file export of the desk's copy carries what the desk shows.
    assert_eq!(
        hub.export_match(at_hub).unwrap()["place"],
        "Salle des fêtes"
    );
}

#[test]
fn a_table_match_pushed_to_the_desk_seats_the_players_entered_there() {
    // On the desk that hosts the hub, entrant A was renamed, and a new player took the name
    // A: a phone's table match under the name entered is the entrant's, not the newcomer's.
    let (mut hub, tid, summary) = hub_with_tournament();
    let p = &summary["pairings"][0];
    let first = summary["entrants"][p["sides"][0].as_u64().unwrap() as usize]
        .as_str()
        .unwrap()
        .to_string();
    let entered = player_id(&hub, &first);
    hub.rename_player(entered, &format!("{first} senior"))
        .unwrap();
    let newcomer = hub.add_player(&first).unwrap().id;
    let r = hub
        .merge_records(
            &[table_match(&tid, &summary, 0, "t0", 9, 9)],
            Source::Device,
        )
        .unwrap();
    assert_eq!(counts(&r), (1, 0, 0, vec![]));
    assert_eq!(hub.player_stats(entered, "molkky").unwrap().matches, 1);
    assert_eq!(hub.player_stats(newcomer, "molkky").unwrap().matches, 0);
    assert_eq!(
        hub.sync_record(partie_core::store::RecordKind::Match, "t0")
            .unwrap()["sides"][0],
        json!([first])
    );
}

/// The phone's club outbox pushed to the hub and answered: (records sent, accepted or
/// updated, refused).
fn club_push(phone: &mut Store, hub: &mut Store) -> (usize, usize, usize) {
    let outbox = phone.club_outbox("club", 100).unwrap();
    let r = hub.merge_records(&outbox.records, Source::Device).unwrap();
    let refused: Vec<serde_json::Value> = r
        .refused
        .iter()
        .map(|x| json!({"id": x.id, "kind": x.kind, "detail": x.detail}))
        .collect();
    phone.club_pushed("club", &outbox, &refused).unwrap();
    (
        outbox.records.len(),
        r.accepted + r.updated,
        r.refused.len(),
    )
}

/// Everything the hub holds, pulled by `phone`.
fn club_pull(phone: &mut Store, hub: &Store) {
    let page = hub.records_since(None, 100).unwrap();
    phone
        .club_pulled("club", &page.records, &page.cursor)
        .unwrap();
}

/// A match has one writer (docs/hub.md). Another device that pulled it follows it and cannot
/// score it until it takes it over; its record then wins at the hub, and the device that wrote
/// it before follows it in turn. (A throw on a pulled copy used to reach the hub as a newer
/// revision, and the writer's next throws were then dropped there as older ones.)
#[test]
fn only_the_writer_scores_a_match_until_another_device_takes_it_over() {
    let mut hub = Store::open_in_memory().unwrap();
    let mut phone = Store::open_in_memory().unwrap();
    let mut other = Store::open_in_memory().unwrap();
    let m = started(&mut phone, "A", "B");
    phone.play(m.id, &json!({"pins": [3]})).unwrap();
    assert_eq!(club_push(&mut phone, &mut hub), (1, 1, 0));
    club_pull(&mut other, &hub);
    let listed = &other.unfinished(5).unwrap()[0];
    assert!(!listed.writer, "Home lists it apart");
    assert!(phone.unfinished(5).unwrap()[0].writer);
    let theirs = listed.id;
    let before = other.export_match(theirs).unwrap();
    let refusals = [
        other.play(theirs, &json!({"pins": [5]})).unwrap_err(),
        other.undo(theirs).unwrap_err(),
        other.undo_to_person(theirs).map(|_| ()).unwrap_err(),
        other.play_at(theirs, 1, &json!({"pins": [5]})).unwrap_err(),
    ];
    for e in refusals {
        assert_eq!(e.kind, partie_core::ErrorKind::IllegalAction, "{e}");
        assert_eq!(e.code, Some("scored_elsewhere"), "{e}");
    }
    assert_eq!(
        other.export_match(theirs).unwrap(),
        before,
        "nothing changed"
    );
    assert!(other.club_outbox("club", 100).unwrap().records.is_empty());
    // The writer plays on, and the other device follows.
    phone.play(m.id, &json!({"pins": [4]})).unwrap();
    assert_eq!(club_push(&mut phone, &mut hub), (1, 1, 0));
    club_pull(&mut other, &hub);
    assert_eq!(other.view(theirs).unwrap().actions, 2);
    other.set_notes(theirs, "", "from the bar").unwrap();
    // The phone is out of reach; the other device takes the match over. Its notes become the
    // record's, and the revision leaps, so that the hub takes its record.
    let view = other.take_over(theirs).unwrap();
    assert!(view.writer);
    assert_eq!(view.actions, 2);
    let leap = partie_core::store::TAKE_OVER_LEAP;
    assert_eq!(other.export_match(theirs).unwrap()["revision"], 2 + leap);
    other.play(theirs, &json!({"pins": [6]})).unwrap();
    // Meanwhile the phone, out of reach, scored two more throws: its copy is ahead of the one
    // taken over by its count, and still behind it.
    phone.play(m.id, &json!({"pins": [1]})).unwrap();
    phone.play(m.id, &json!({"pins": [2]})).unwrap();
    assert_eq!(club_push(&mut other, &mut hub), (1, 1, 0));
    let held = stored(&hub, &m.uid);
    assert_eq!(held["revision"], 3 + leap);
    assert_eq!(held["notes"], "from the bar");
    assert_eq!(held["actions"].as_array().unwrap().len(), 3);
    // The phone comes back: its push is an older copy, and the next pull makes it follow the
    // match taken over, which it can no longer score.
    assert_eq!(club_push(&mut phone, &mut hub), (1, 0, 0));
    assert_eq!(stored(&hub, &m.uid)["revision"], 3 + leap);
    club_pull(&mut phone, &hub);
    let back = phone.view(m.id).unwrap();
    assert!(!back.writer);
    assert_eq!(back.actions, 3);
    let e = phone.play(m.id, &json!({"pins": [1]})).unwrap_err();
    assert_eq!(e.code, Some("scored_elsewhere"));
    assert!(!phone.unfinished(5).unwrap()[0].writer);
    assert_eq!(
        phone.computer_turn(m.id).map(|_| ()).unwrap_err().code,
        Some("scored_elsewhere")
    );
    // Taking over a match written here already changes nothing.
    other.take_over(theirs).unwrap();
    assert_eq!(other.export_match(theirs).unwrap()["revision"], 3 + leap);
    let e = other.take_over(9999).unwrap_err();
    assert_eq!(e.kind, partie_core::ErrorKind::NotFound);
}

/// An imported match is another device's, unless it is this device's own taken back (a
/// discard undone): that one is scored here as before.
#[test]
fn an_import_is_another_devices_match_but_a_discard_taken_back_stays_this_ones() {
    let mut phone = Store::open_in_memory().unwrap();
    let m = started(&mut phone, "A", "B");
    phone.play(m.id, &json!({"pins": [3]})).unwrap();
    let record = phone.export_match(m.id).unwrap().to_string();
    let mut other = Store::open_in_memory().unwrap();
    other.import(&record).unwrap();
    let imported = other.unfinished(5).unwrap()[0].id;
    assert!(!other.view(imported).unwrap().writer);
    assert_eq!(
        other
            .play(imported, &json!({"pins": [5]}))
            .unwrap_err()
            .code,
        Some("scored_elsewhere")
    );
    phone.delete_match(m.id).unwrap();
    phone.import_as(&record, true).unwrap();
    let again = phone.unfinished(5).unwrap()[0].id;
    assert!(phone.view(again).unwrap().writer);
    phone.play(again, &json!({"pins": [5]})).unwrap();
    assert_eq!(phone.export_match(again).unwrap()["revision"], 2);
}

/// A match against the computer pushed to the hub and pulled by another phone seats the
/// computer apart from the people there too (migration 17): the hub's and the phone's known
/// players are people only, whoever is called Computer.
#[test]
fn a_match_against_the_computer_seats_the_computer_apart_on_the_hub_and_every_phone() {
    let mut phone = Store::open_in_memory().unwrap();
    let mut hub = Store::open_in_memory().unwrap();
    let mut other = Store::open_in_memory().unwrap();
    hub.add_player("Computer").unwrap();
    other.add_player("Computer").unwrap();
    let vs: partie_core::store::Computer = [(1usize, 2u8)].into_iter().collect();
    let m = phone
        .new_match_against(
            "morris",
            json!({"pieces": 3}).as_object().unwrap(),
            &[vec!["Ann".to_string()], vec!["Computer".to_string()]],
            &vs,
        )
        .unwrap();
    for t in ["a1", "d6", "a4", "f4", "a7", "xd6"] {
        phone.play(m.id, &json!(t)).unwrap();
    }
    assert_eq!(club_push(&mut phone, &mut hub), (1, 1, 0));
    club_pull(&mut other, &hub);
    for store in [&hub, &other] {
        assert_eq!(player_names(store), ["Ann", "Computer"]);
        // The person called Computer played nothing; the computer's loss is not theirs.
        let person = player_id(store, "Computer");
        assert_eq!(store.player_stats(person, "morris").unwrap().matches, 0);
        let board = store.leaderboard("morris", 10).unwrap();
        assert_eq!(
            board.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(),
            ["Ann"]
        );
    }
}

/// After a phone pulled many records, its own next match is in the first batch it pushes: the
/// records it holds from the hub are stepped over, not sent, and not counted against the
/// batch (it waited behind one empty batch per 200 records pulled, a round each).
#[test]
fn a_match_scored_after_a_large_pull_goes_out_in_the_first_batch() {
    let mut hub = Store::open_in_memory().unwrap();
    let records: Vec<Value> = (0..450)
        .map(|i| molkky(&format!("hub-{i}"), 9, 9))
        .collect();
    assert_eq!(push(&mut hub, &records).accepted, 450);
    let mut phone = Store::open_in_memory().unwrap();
    let mut cursor = None;
    loop {
        let page = hub.records_since(cursor.as_deref(), 100).unwrap();
        if page.records.is_empty() {
            break;
        }
        phone
            .club_pulled("club", &page.records, &page.cursor)
            .unwrap();
        cursor = Some(page.cursor);
    }
    assert_eq!(phone.club_waiting("club").unwrap(), 0);
    let m = phone
        .new_match(
            "molkky",
            &serde_json::Map::new(),
            &[vec!["Ann".into()], vec!["Bo".into()]],
        )
        .unwrap();
    phone.play(m.id, &json!({"pins": [3]})).unwrap();
    assert_eq!(phone.club_waiting("club").unwrap(), 1);
    let _ = m;
    let outbox = phone.club_outbox("club", 200).unwrap();
    assert_eq!(outbox.records.len(), 1);
    assert_eq!(outbox.records[0]["actions"][0]["pins"], json!([3]));
    assert_eq!(outbox.records[0]["sides"], json!([["Ann"], ["Bo"]]));
    // Once answered, nothing is left to send.
    assert_eq!(club_push(&mut phone, &mut hub), (1, 1, 0));
    assert_eq!(phone.club_waiting("club").unwrap(), 0);
    assert!(phone.club_outbox("club", 200).unwrap().records.is_empty());
}

/// A push of many elements that are no record is refused line by line, as many lines as
/// elements, but the same refusal again is held once with its count: a hub answering four
/// million `1`s held 64 bytes of each in memory until its answer was written.
#[test]
fn the_same_refusal_again_is_held_once_and_said_each_time() {
    use partie_core::merge::RawRecords;
    let mut hub = Store::open_in_memory().unwrap();
    let n = 100_000;
    let mut body = String::from(r#"{"records": ["#);
    for _ in 0..n {
        body.push_str("1,");
    }
    body.push_str(r#"{"format": 1, "id": "x", "game": "molkky"}, 2, 2, "#);
    body.push_str(&serde_json::to_string(&molkky("m", 1, 3)).unwrap());
    body.push_str("]}");
    let raw = RawRecords::read(body).unwrap();
    let r = hub.merge_raw(&raw, Source::Device).unwrap();
    assert_eq!(r.accepted, 1);
    assert_eq!(r.refused.len(), n + 3);
    // The ones, x, the twos: three runs (the ones and the twos say the same).
    assert_eq!(r.refused.runs(), 3);
    assert_eq!(r.refused[n].id.as_deref(), Some("x"));
    assert_eq!(r.refused[n + 1], r.refused[0]);
    // Said in full: one line for each, in order.
    let said = serde_json::to_value(&r).unwrap();
    let lines = said["refused"].as_array().unwrap();
    assert_eq!(lines.len(), n + 3);
    assert!(lines[..n]
        .iter()
        .all(|l| l == &lines[0] && l["id"].is_null()));
    assert_eq!(lines[n]["id"], "x");
    assert_eq!(lines[n + 2], lines[0]);
    let each: Vec<_> = r.refused.iter().collect();
    assert_eq!(each.len(), n + 3);
    assert_eq!(r.refused.clone().into_lines().count(), n + 3);
}
