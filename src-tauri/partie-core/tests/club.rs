//! A device joined to a club hub, in the store (`docs/hub.md`, "In the app"): the join link
//! and address read as people give them, the joined hub kept across a restart, an outbox that
//! leaves out what the hub already holds, the waiting count, and a pulled tournament that only
//! its hub may change.

use partie_core::store::{hub_address, read_join, Source, Store};
use partie_core::ErrorKind;
use serde_json::{json, Value};

const HUB: &str = "http://127.0.0.1:7878";

/// Whether `store` holds the record `uid`.
fn holds(store: &Store, uid: &str) -> bool {
    let page = store.records_since(None, 1000).unwrap();
    page.records.iter().any(|r| r["id"] == uid)
}

fn two_sides() -> Vec<Vec<String>> {
    vec![vec!["A".into()], vec!["B".into()]]
}

#[test]
fn a_hub_address_is_read_as_people_type_it_and_refused_when_it_is_not_one() {
    for typed in [
        "127.0.0.1:7878",
        " http://127.0.0.1:7878/ ",
        "http://127.0.0.1:7878",
    ] {
        assert_eq!(hub_address(typed).unwrap(), HUB, "{typed:?}");
    }
    assert_eq!(
        hub_address("club-pc.local:80").unwrap(),
        "http://club-pc.local:80"
    );
    for bad in [
        "",
        "127.0.0.1",
        "127.0.0.1:0",
        "127.0.0.1:99999",
        "http://a b:1",
        ":7878",
        "127.0.0.1:7878/../x",
    ] {
        let e = hub_address(bad).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadSetup, "{bad:?}");
        assert_eq!(e.code, Some("bad_hub_address"), "{bad:?}");
    }
}

#[test]
fn a_join_link_carries_the_hub_and_the_token_and_a_typed_address_needs_the_token() {
    let (hub, token) = read_join(&format!("partie://join?hub={HUB}&token=abc123"), None).unwrap();
    assert_eq!((hub.as_str(), token.as_str()), (HUB, "abc123"));
    let (hub, token) = read_join("127.0.0.1:7878", Some(" abc123 ")).unwrap();
    assert_eq!((hub.as_str(), token.as_str()), (HUB, "abc123"));
    assert_eq!(
        read_join("127.0.0.1:7878", None).unwrap_err().code,
        Some("bad_club_token")
    );
    assert_eq!(
        read_join("127.0.0.1:7878", Some("two words"))
            .unwrap_err()
            .code,
        Some("bad_club_token")
    );
    assert_eq!(
        read_join("partie://join?hub=127.0.0.1:7878", None)
            .unwrap_err()
            .code,
        Some("bad_join_link")
    );
    let long = "x".repeat(201);
    assert!(read_join("127.0.0.1:7878", Some(&long)).is_err());
}

#[test]
fn the_joined_hub_is_kept_across_a_restart_until_the_device_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("phone.db");
    {
        let (mut store, _) = Store::open(&path).unwrap();
        assert!(store.joined_club().unwrap().is_none());
        store.join_club("127.0.0.1:7878", "tok").unwrap();
    }
    let (mut store, _) = Store::open(&path).unwrap();
    let joined = store.joined_club().unwrap().unwrap();
    assert_eq!((joined.hub.as_str(), joined.token.as_str()), (HUB, "tok"));
    // Joining another hub replaces it: one hub at a time.
    store.join_club("10.0.0.2:7878", "other").unwrap();
    assert_eq!(
        store.joined_club().unwrap().unwrap().hub,
        "http://10.0.0.2:7878"
    );
    store.leave_club().unwrap();
    assert!(store.joined_club().unwrap().is_none());
    // A bad address changes nothing.
    assert!(store.join_club("nowhere", "tok").is_err());
    assert!(store.joined_club().unwrap().is_none());
}

#[test]
fn the_outbox_holds_what_the_hub_lacks_and_waiting_counts_it() {
    let mut phone = Store::open_in_memory().unwrap();
    phone.join_club(HUB, "tok").unwrap();
    let m = phone
        .new_match("molkky", &Default::default(), &two_sides())
        .unwrap();
    phone.play(m.id, &json!({"pins": [5]})).unwrap();
    assert_eq!(phone.club_waiting(HUB).unwrap(), 1);
    let outbox = phone.club_outbox(HUB, 200).unwrap();
    assert_eq!(outbox.records.len(), 1);
    assert_eq!(outbox.records[0]["revision"], 1);

    // The hub took it: nothing waits.
    let mut hub = Store::open_in_memory().unwrap();
    let report = hub.merge_records(&outbox.records, Source::Device).unwrap();
    assert_eq!(report.accepted, 1);
    phone.club_pushed(HUB, &outbox, &[]).unwrap();
    assert_eq!(phone.club_waiting(HUB).unwrap(), 0);
    assert!(phone.club_outbox(HUB, 200).unwrap().records.is_empty());

    // An undo after the push waits again, as a newer revision.
    phone.undo(m.id).unwrap();
    assert_eq!(phone.club_waiting(HUB).unwrap(), 1);
    let outbox = phone.club_outbox(HUB, 200).unwrap();
    assert_eq!(outbox.records[0]["revision"], 2);
    assert_eq!(
        hub.merge_records(&outbox.records, Source::Device)
            .unwrap()
            .updated,
        1
    );

    // A push whose answer never came (the app killed): the same outbox goes again, `already`.
    let report = hub.merge_records(&outbox.records, Source::Device).unwrap();
    assert_eq!(report.already, 1);
    phone.club_pushed(HUB, &outbox, &[]).unwrap();

    // What is pulled from the hub is not pushed back: the hub holds it at that revision.
    let mut other = Store::open_in_memory().unwrap();
    let theirs = other
        .new_match("molkky", &Default::default(), &two_sides())
        .unwrap();
    other.play(theirs.id, &json!({"pins": [7]})).unwrap();
    let record = other.export_match(theirs.id).unwrap();
    hub.merge_records(std::slice::from_ref(&record), Source::Device)
        .unwrap();
    let page = hub.records_since(None, 500).unwrap();
    phone.club_pulled(HUB, &page.records, &page.cursor).unwrap();
    assert_eq!(
        phone.sync_pulled(HUB).unwrap().as_deref(),
        Some(page.cursor.as_str())
    );
    assert_eq!(phone.club_waiting(HUB).unwrap(), 0);
    assert!(phone.club_outbox(HUB, 200).unwrap().records.is_empty());
}

#[test]
fn a_refused_record_leaves_the_outbox_and_the_others_are_held() {
    let mut phone = Store::open_in_memory().unwrap();
    let a = phone
        .new_match("molkky", &Default::default(), &two_sides())
        .unwrap();
    let b = phone
        .new_match("molkky", &Default::default(), &two_sides())
        .unwrap();
    phone.play(a.id, &json!({"pins": [1]})).unwrap();
    phone.play(b.id, &json!({"pins": [2]})).unwrap();
    let outbox = phone.club_outbox(HUB, 200).unwrap();
    assert_eq!(outbox.records.len(), 2);
    let refusal = json!({"id": a.uid, "kind": "not_found", "detail": "no tournament t-1"});
    // A hub gone wrong may answer refusals of records this push did not send, and details of
    // any length: only the push's own are kept, their details cut to a list line's length.
    let foreign: Vec<serde_json::Value> = (0..1000)
        .map(|i| json!({"id": format!("never-sent-{i}"), "kind": "bad_record", "detail": "x"}))
        .collect();
    let answer: Vec<serde_json::Value> = std::iter::once(refusal.clone()).chain(foreign).collect();
    phone.club_pushed(HUB, &outbox, &answer).unwrap();
    assert_eq!(phone.club_waiting(HUB).unwrap(), 0);
    // Not waiting, but listed, with the hub's words, by the hub: the push mark went past it,
    // and it would otherwise be forgotten with the app's memory.
    let listed = phone.club_refusals(HUB, 20).unwrap();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(
        (
            &listed[0]["id"],
            &listed[0]["by"],
            &listed[0]["kind"],
            &listed[0]["detail"]
        ),
        (
            &json!(a.uid),
            &json!("hub"),
            &json!("not_found"),
            &json!("no tournament t-1")
        )
    );
    // Named as a person knows it: its game and its players, not only its id.
    assert_eq!(
        (
            &listed[0]["record"],
            &listed[0]["game"],
            &listed[0]["names"]
        ),
        (&json!("match"), &json!("molkky"), &json!("A · B"))
    );
    assert!(phone
        .club_refusals("http://10.0.0.9:7878", 20)
        .unwrap()
        .is_empty());
    let long = json!({"id": a.uid, "kind": "not_found", "detail": "y".repeat(100_000)});
    phone
        .club_pushed(HUB, &outbox, std::slice::from_ref(&long))
        .unwrap();
    let listed = phone.club_refusals(HUB, 20).unwrap();
    assert_eq!(listed[0]["detail"].as_str().unwrap().chars().count(), 500);
    phone
        .club_pushed(HUB, &outbox, std::slice::from_ref(&refusal))
        .unwrap();
    // The refused one goes again when it changes; the one taken does not.
    phone.play(a.id, &json!({"pins": [3]})).unwrap();
    let again = phone.club_outbox(HUB, 200).unwrap();
    let ids: Vec<&str> = again
        .records
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [a.uid.as_str()]);
    // Taken this time: it leaves the list.
    phone.club_pushed(HUB, &again, &[]).unwrap();
    assert!(phone.club_refusals(HUB, 20).unwrap().is_empty());
    // Refused, then deleted here: nothing left to act on, and not listed.
    phone.play(b.id, &json!({"pins": [4]})).unwrap();
    let with_b = phone.club_outbox(HUB, 200).unwrap();
    let refused_b = json!({"id": b.uid, "kind": "conflict", "detail": "another setup"});
    phone.club_pushed(HUB, &with_b, &[refused_b]).unwrap();
    assert_eq!(phone.club_refusals(HUB, 20).unwrap().len(), 1);
    phone.delete_match(b.id).unwrap();
    assert!(phone.club_refusals(HUB, 20).unwrap().is_empty());
}

#[test]
fn a_record_this_device_refuses_from_a_page_is_listed_and_not_taken_as_held() {
    let mut phone = Store::open_in_memory().unwrap();
    let mine = phone
        .new_match("molkky", &Default::default(), &two_sides())
        .unwrap();
    phone.play(mine.id, &json!({"pins": [4]})).unwrap();
    // The hub's page holds this device's match at the same revision with other actions (a
    // conflict, refused here) and one it cannot read (a game it does not know, as an older
    // app meets a newer one's).
    let mut theirs = phone.export_match(mine.id).unwrap();
    theirs["actions"] = json!([{"pins": [9]}]);
    let mut unknown = phone.export_match(mine.id).unwrap();
    unknown["id"] = json!("m-from-a-newer-app");
    unknown["game"] = json!("petanque");
    phone.club_pulled(HUB, &[theirs, unknown], "hub.2").unwrap();
    let listed = phone.club_refusals(HUB, 20).unwrap();
    let said: Vec<(&str, &str)> = listed
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["by"].as_str().unwrap()))
        .collect();
    assert_eq!(
        said,
        [
            ("m-from-a-newer-app", "device"),
            (mine.uid.as_str(), "device")
        ],
        "{listed:?}"
    );
    // The cursor moved on, but this device's own copy is not taken as the hub's: it still
    // waits to go out.
    assert_eq!(phone.sync_pulled(HUB).unwrap().as_deref(), Some("hub.2"));
    assert_eq!(phone.club_waiting(HUB).unwrap(), 1);
}

/// What an older app refused from a hub's page (a game it did not know) is taken once the app
/// is updated: the cursor had moved past it and the hub sends it again only if it changes, so
/// the record is kept with the version that refused it and merged again by the next one. A
/// record the new version refuses too stays listed and is not tried again by it; one refused
/// before records were kept (schema 19) has the device pull from the start once.
#[test]
fn a_record_refused_by_an_older_app_is_taken_after_the_update() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("phone.db");
    let (mut phone, _) = Store::open(&db).unwrap();
    let mut other = Store::open_in_memory().unwrap();
    let theirs = other
        .new_match("molkky", &Default::default(), &two_sides())
        .unwrap();
    other.play(theirs.id, &json!({"pins": [7]})).unwrap();
    // As this version reads a newer app's records: a game it does not know.
    let mut newer = other.export_match(theirs.id).unwrap();
    newer["game"] = json!("petanque");
    let mut stranger = newer.clone();
    stranger["id"] = json!("m-croquet");
    stranger["game"] = json!("croquet");
    phone.club_pulled(HUB, &[newer, stranger], "hub.2").unwrap();
    let before = phone.club_refusals(HUB, 20).unwrap();
    assert_eq!(before.len(), 2);
    assert!(!holds(&phone, &theirs.uid));
    // The same version does not try them again.
    assert_eq!(
        phone
            .club_refused_again(HUB, partie_core::store::APP_VERSION)
            .unwrap(),
        0
    );

    // The update: it knows petanque (as this build knows the game the record names once
    // the record says molkky), not croquet.
    let raw = rusqlite::Connection::open(&db).unwrap();
    raw.execute(
        "UPDATE club_refused SET record = json_set(record, '$.game', 'molkky') WHERE uid = ?1",
        [&theirs.uid],
    )
    .unwrap();
    assert_eq!(phone.club_refused_again(HUB, "9.0.0").unwrap(), 2);
    assert!(holds(&phone, &theirs.uid));
    let listed = phone.club_refusals(HUB, 20).unwrap();
    let ids: Vec<&str> = listed.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["m-croquet"], "{listed:?}");
    // Refused again for the same reason: the same refusal, its time kept (not a new one at the
    // top of the list at every update).
    let was = before.iter().find(|r| r["id"] == "m-croquet").unwrap();
    assert_eq!(listed[0]["at"], was["at"]);
    // Taken as the hub's (not waiting to go out), the cursor where it was, and not tried
    // again by this version.
    assert_eq!(phone.club_waiting(HUB).unwrap(), 0);
    assert_eq!(phone.sync_pulled(HUB).unwrap().as_deref(), Some("hub.2"));
    assert_eq!(phone.club_refused_again(HUB, "9.0.0").unwrap(), 0);

    // A refusal kept by schema 19, without its record: the next version pulls from the start.
    raw.execute(
        "INSERT INTO club_refused (hub, uid, by, kind, detail, at) VALUES (?1, 'm-old', 'device', 'bad_setup', 'unknown game', 1)",
        [HUB],
    )
    .unwrap();
    assert_eq!(phone.club_refused_again(HUB, "9.0.0").unwrap(), 1);
    // Back to the start: no cursor (a made-up "0" is no cursor the hub gave).
    assert_eq!(phone.sync_pulled(HUB).unwrap(), None);
    // Listed again by the pull from the start if the hub still sends it and it is still
    // refused; not tried again by a later version otherwise (no pull from the start at each).
    let listed = phone.club_refusals(HUB, 20).unwrap();
    assert!(listed.iter().all(|r| r["id"] != "m-old"), "{listed:?}");
    phone.set_sync_pulled(HUB, "hub.3").unwrap();
    assert_eq!(phone.club_refused_again(HUB, "9.0.0").unwrap(), 0);
    assert_eq!(phone.club_refused_again(HUB, "10.0.0").unwrap(), 1);
    assert_eq!(phone.sync_pulled(HUB).unwrap().as_deref(), Some("hub.3"));

    // Another database at the address: what was refused from the old one is not tried with it.
    phone.club_forget(HUB).unwrap();
    assert!(phone.club_refusals(HUB, 20).unwrap().is_empty());
    assert_eq!(
        phone.sync_pulled(HUB).unwrap(),
        None,
        "pulled from the start"
    );
}

#[test]
fn a_pulled_tournament_is_run_by_its_hub_and_its_tables_start_here() {
    let mut hub = Store::open_in_memory().unwrap();
    let t = hub
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
                                "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"]]}))
        .unwrap();
    hub.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let page = hub.records_since(None, 500).unwrap();

    let mut phone = Store::open_in_memory().unwrap();
    phone.club_pulled(HUB, &page.records, &page.cursor).unwrap();
    let here = phone.tournament_by_uid(&t.uid).unwrap().unwrap();
    let view = phone.tournament(here).unwrap();
    assert_eq!(view.hub.as_deref(), Some(HUB));
    assert_eq!(view.summary["round"], 1);

    // Pairing, results typed here and undo are the organiser's, at the hub.
    let before = phone.export_tournament(here).unwrap();
    for refused in [
        phone.tournament_event(here, &json!({"pair": {}})),
        phone.tournament_event(
            here,
            &json!({"result": {"round": 1, "table": 0, "winner": 0, "scores": [1, 0]}}),
        ),
        phone.undo_tournament(here),
    ] {
        let e = refused.unwrap_err();
        assert_eq!(e.kind, ErrorKind::IllegalAction);
        assert_eq!(e.code, Some("run_by_hub"));
    }
    assert_eq!(phone.export_tournament(here).unwrap(), before);

    // A table's match starts from the pulled pairing, linked to the hub's tournament.
    let m = phone.start_table(here, 0).unwrap();
    let outbox = phone.club_outbox(HUB, 200).unwrap();
    let pushed: &Value = outbox
        .records
        .iter()
        .find(|r| r["id"] == m.uid.as_str())
        .expect("the table's match waits to be pushed");
    assert_eq!(pushed["tournament"]["id"], t.uid.as_str());
    assert_eq!(pushed["tournament"]["table"], 0);
    assert_eq!(outbox.records.len(), 1, "the tournament is not pushed back");
    // The organiser's own tournament is not run by a hub.
    assert_eq!(hub.tournament(t.id).unwrap().hub, None);
}

#[test]
fn a_hub_that_turned_out_to_be_another_database_gets_its_tournaments_back() {
    // The club's hub ran a tournament; the phone pulled it and started a table's match.
    let mut old_hub = Store::open_in_memory().unwrap();
    let t = old_hub
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
                                "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"]]}))
        .unwrap();
    old_hub
        .tournament_event(t.id, &json!({"pair": {}}))
        .unwrap();
    let page = old_hub.records_since(None, 500).unwrap();
    let mut phone = Store::open_in_memory().unwrap();
    phone.join_club(HUB, "club-token").unwrap();
    phone.club_pulled(HUB, &page.records, &page.cursor).unwrap();
    let here = phone.tournament_by_uid(&t.uid).unwrap().unwrap();
    let m = phone.start_table(here, 0).unwrap();
    phone.play(m.id, &json!({"pins": [4]})).unwrap();
    // The phone's own tournament is its own: never given to a hub.
    phone
        .new_tournament(&json!({"game": "molkky", "system": "swiss",
                                "entrants": [["Eve"], ["Finn"]]}))
        .unwrap();
    // While the hub is the same database, nothing waits to be given back.
    assert!(phone.club_restoring(HUB, 10).unwrap().is_empty());

    // The hub at that address is a new database: it knows neither the tournament nor, so,
    // the table's match.
    let mut new_hub = Store::open_in_memory().unwrap();
    phone.club_forget(HUB).unwrap();
    let back = phone.club_restoring(HUB, 10).unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0]["id"], t.uid.as_str());
    assert_eq!(back[0], page.records[0], "given back as the hub served it");
    let report = new_hub.merge_records(&back, Source::Device).unwrap();
    assert_eq!(report.accepted, 1, "{report:?}");
    phone
        .club_restored(HUB, std::slice::from_ref(&t.uid), &[])
        .unwrap();
    assert!(phone.club_restoring(HUB, 10).unwrap().is_empty());
    // Then the outbox: the table's match is taken, linked to the tournament given back.
    let outbox = phone.club_outbox(HUB, 200).unwrap();
    let report = new_hub
        .merge_records(&outbox.records, Source::Device)
        .unwrap();
    assert!(report.refused.is_empty(), "{report:?}");
    assert_eq!(report.accepted, 1, "{report:?}");
    let on_hub = new_hub.tournament_by_uid(&t.uid).unwrap().unwrap();
    assert_eq!(
        new_hub.export_tournament(on_hub).unwrap()["events"],
        old_hub.export_tournament(t.id).unwrap()["events"]
    );
    let live = new_hub.tournament_summary(&t.uid).unwrap()["live"].clone();
    assert_eq!(live[0]["match"], m.uid.as_str(), "{live}");

    // A second forget (the hub replaced again) gives it back again; a tournament deleted on
    // the phone meanwhile is dropped from the list, not an error.
    phone.club_forget(HUB).unwrap();
    assert_eq!(phone.club_restoring(HUB, 10).unwrap().len(), 1);
    phone.club_restored(HUB, &[], &[]).unwrap();
    assert_eq!(phone.club_restoring(HUB, 10).unwrap().len(), 1);
    // Refused whole on its way back: listed, until the hub sends that tournament (it is never
    // pushed again, so no push would take it off the list).
    let refusal = json!({"id": t.uid, "kind": "too_large", "detail": "413"});
    phone
        .club_restored(
            HUB,
            std::slice::from_ref(&t.uid),
            std::slice::from_ref(&refusal),
        )
        .unwrap();
    assert_eq!(phone.club_refusals(HUB, 20).unwrap().len(), 1);
    let page = new_hub.records_since(None, 500).unwrap();
    phone.club_pulled(HUB, &page.records, &page.cursor).unwrap();
    assert!(phone.club_refusals(HUB, 20).unwrap().is_empty());
    phone.club_forget(HUB).unwrap();
    phone.delete_tournament(here).unwrap();
    assert!(phone.club_restoring(HUB, 10).unwrap().is_empty());
    // Refused, then deleted here: nothing left to act on, and not listed.
    phone
        .club_restored(
            HUB,
            std::slice::from_ref(&t.uid),
            std::slice::from_ref(&refusal),
        )
        .unwrap();
    assert!(phone.club_refusals(HUB, 20).unwrap().is_empty());
}

#[test]
fn another_clubs_hub_at_the_same_address_gets_none_of_the_tournaments() {
    let mut club_x = Store::open_in_memory().unwrap();
    let t = club_x
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
                                "entrants": [["Anna"], ["Bea"]]}))
        .unwrap();
    let page = club_x.records_since(None, 500).unwrap();
    let mut phone = Store::open_in_memory().unwrap();
    phone.join_club(HUB, "club-x").unwrap();
    phone.club_pulled(HUB, &page.records, &page.cursor).unwrap();
    assert!(phone.tournament_by_uid(&t.uid).unwrap().is_some());
    // Left, then joined club Y, whose hub answers at the same address with its own token: it
    // refuses club X's cursor, and the phone forgets what it knew of that address.
    phone.leave_club().unwrap();
    phone.join_club(HUB, "club-y").unwrap();
    phone.club_forget(HUB).unwrap();
    assert!(phone.club_restoring(HUB, 10).unwrap().is_empty());
    // Back with club X's token, a replaced club X hub would get it.
    phone.join_club(HUB, "club-x").unwrap();
    phone.club_forget(HUB).unwrap();
    assert_eq!(phone.club_restoring(HUB, 10).unwrap().len(), 1);
}

#[test]
fn a_tournament_the_replaced_hub_still_has_is_not_given_back() {
    // The hub was restored from an older copy: it still runs the tournament, and its organiser
    // may have moved it on since. Pulled from it again, it leaves the list to give back, so that
    // this device's copy never replaces the hub's.
    let mut hub = Store::open_in_memory().unwrap();
    let t = hub
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
                                "entrants": [["Anna"], ["Bea"], ["Cyril"]]}))
        .unwrap();
    let page = hub.records_since(None, 500).unwrap();
    let mut phone = Store::open_in_memory().unwrap();
    phone.join_club(HUB, "club-token").unwrap();
    phone.club_pulled(HUB, &page.records, &page.cursor).unwrap();
    phone.club_forget(HUB).unwrap();
    assert_eq!(phone.club_restoring(HUB, 10).unwrap().len(), 1);
    hub.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let again = hub.records_since(None, 500).unwrap();
    phone
        .club_pulled(HUB, &again.records, &again.cursor)
        .unwrap();
    assert!(phone.club_restoring(HUB, 10).unwrap().is_empty());
}

/// A join link's token escaped and read back whole; a broken escape is no value.
#[test]
fn a_token_escaped_for_a_link_reads_back_whole() {
    use partie_core::store::{query_escaped, query_unescaped};
    for token in ["0123abcdef", "s3cr+t&k#y%20", "clé du club", "a-b_c.d~e"] {
        assert_eq!(
            query_unescaped(&query_escaped(token)).as_deref(),
            Some(token)
        );
    }
    assert_eq!(query_escaped("a+b&c"), "a%2Bb%26c");
    assert_eq!(query_unescaped("a+b").as_deref(), Some("a+b"), "a + is a +");
    for broken in ["%", "%4", "%zz", "%+A", "%-1", "%C3"] {
        assert_eq!(query_unescaped(broken), None, "{broken}");
    }
}
