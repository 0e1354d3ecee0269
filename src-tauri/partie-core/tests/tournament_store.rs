//! Tournaments in the history: events committed before they show, a table's match feeding its
//! result by itself (and taking it back on undo), undo of events, resume after a restart,
//! export and import with the matches, players' tournaments, and the upgrade of an old file.

use partie_core::store::{migrations, Store};
use partie_core::ErrorKind;
use rusqlite::Connection;
use serde_json::{json, Value};

/// A Mölkky game (best of 1) side 0 wins 50 to 4: 12, 12, 12, 12, 2 against 1, 1, 1, 1.
const WIN_FOR_SIDE_0: [&str; 9] = [
    "[12]", "[1]", "[12]", "[1]", "[12]", "[1]", "[12]", "[1]", "[2]",
];

fn four_entrants() -> Value {
    json!({"game": "molkky", "system": "round_robin",
           "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"]]})
}

/// A store with four entrants paired, table 0's match played to its end; the tournament's id.
fn first_table_played() -> (Store, i64) {
    let mut store = Store::open_in_memory().unwrap();
    let t = store.new_tournament(&four_entrants()).unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let m = store.start_table(t.id, 0).unwrap();
    play_out(&mut store, m.id);
    (store, t.id)
}

fn play_out(store: &mut Store, match_id: i64) {
    for pins in WIN_FOR_SIDE_0 {
        let pins: Value = serde_json::from_str(pins).unwrap();
        store.play(match_id, &json!({ "pins": pins })).unwrap();
    }
}

#[test]
fn a_table_match_enters_its_result_when_it_ends_and_undo_takes_it_back() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store.new_tournament(&four_entrants()).unwrap();
    assert_eq!(t.summary["status"], "registering");
    let t = store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    // Round 1 of the circle: Anna v Dora at table 0, Bea v Cyril at table 1.
    assert_eq!(t.summary["pairings"][0]["sides"], json!([0, 3]));
    let m = store.start_table(t.id, 0).unwrap();
    assert_eq!(
        m.sides,
        vec![vec!["Anna".to_string()], vec!["Dora".to_string()]]
    );
    // Starting it again opens the same match.
    assert_eq!(store.start_table(t.id, 0).unwrap().id, m.id);
    play_out(&mut store, m.id);

    let t = store.tournament(t.id).unwrap();
    let result = &t.summary["pairings"][0]["result"];
    assert_eq!(result["winner"], 0);
    assert_eq!(result["scores"], json!([1, 0]), "Mölkky counts legs won");
    assert_eq!(t.summary["standings"][0]["name"], "Anna");
    assert_eq!(t.summary["standings"][0]["match_points"], 2);
    assert_eq!(t.tables[0].status, "won");

    // The tournament's own Undo does not take it back: the match would still end so and stay
    // the table's, and a result typed then would make the two say two results.
    let revision = store.tournament(t.id).unwrap().revision;
    let e = store.undo_tournament(t.id).unwrap_err();
    assert_eq!(
        (e.kind, e.code),
        (ErrorKind::IllegalAction, Some("result_from_match"))
    );
    assert!(e.detail.contains("table 1"), "{}", e.detail);
    assert_eq!(store.tournament(t.id).unwrap().revision, revision);
    assert_eq!(store.tournament(t.id).unwrap().events, 2);

    // Undo of the match's last throw takes the result back in the same commit.
    store.undo(m.id).unwrap();
    let t = store.tournament(t.id).unwrap();
    assert_eq!(t.summary["pairings"][0]["result"], Value::Null);
    assert_eq!(t.events, 1);
    // Played again, it enters once more.
    store.play(m.id, &json!({"pins": [2]})).unwrap();
    assert_eq!(store.tournament(t.id).unwrap().events, 2);
    // The match deleted, nothing is left to take the result back: the tournament's Undo does
    // (it must never be stuck).
    store.delete_match(m.id).unwrap();
    let t = store.undo_tournament(t.id).unwrap();
    assert_eq!(t.summary["pairings"][0]["result"], Value::Null);
    assert_eq!(t.events, 1);
}

/// A scorer who finds a mistake after another table's result came in takes their throws back
/// and plays them again: the table's result is corrected, the other table's stays. Once the
/// next round is paired from it, a result stays as it was.
#[test]
fn a_table_match_corrected_after_another_tables_result_corrects_its_table_until_the_next_pairing() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store.new_tournament(&four_entrants()).unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let m0 = store.start_table(t.id, 0).unwrap();
    let m1 = store.start_table(t.id, 1).unwrap();
    play_out(&mut store, m0.id);
    play_out(&mut store, m1.id);
    assert_eq!(store.tournament(t.id).unwrap().events, 3);
    let revision = store.tournament(t.id).unwrap().revision;
    // Every throw of table 0 taken back: its result goes with the first undo; table 1's stays.
    store.undo(m0.id).unwrap();
    // One event taken back counts one in the revision, though table 1's result after it moved
    // up a place (as the hub on PostgreSQL counts it).
    assert_eq!(store.tournament(t.id).unwrap().revision, revision + 1);
    for _ in &WIN_FOR_SIDE_0[1..] {
        store.undo(m0.id).unwrap();
    }
    let v = store.tournament(t.id).unwrap();
    assert_eq!(v.events, 2);
    assert_eq!(v.revision, revision + 1);
    assert_eq!(v.summary["pairings"][0]["result"], Value::Null);
    assert_eq!(v.summary["pairings"][1]["result"]["winner"], 0);
    // Played again, Dora wins this time: the table says so, and so do the standings.
    for pins in [1, 12, 1, 12, 1, 12, 1, 12, 1, 2] {
        store.play(m0.id, &json!({ "pins": [pins] })).unwrap();
    }
    let v = store.tournament(t.id).unwrap();
    assert_eq!(v.events, 3);
    assert_eq!(v.summary["pairings"][0]["result"]["winner"], 1);
    let points = |v: &partie_core::store::TournamentView, name: &str| {
        v.summary["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap()["match_points"]
            .clone()
    };
    assert_eq!(
        (points(&v, "Anna"), points(&v, "Dora")),
        (json!(0), json!(2))
    );
    // The record replays: the export carries the events in their new order.
    let exported = store.export_tournament(t.id).unwrap();
    let events = exported["events"].as_array().unwrap();
    assert_eq!(events[1]["result"]["table"], 1);
    assert_eq!(events[2]["result"]["table"], 0);
    // Round 2 is paired from these results: an undo in round 1 is refused, and nothing changes
    // (the match and its table would say two results).
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let e = store.undo(m1.id).unwrap_err();
    assert_eq!(
        (e.kind, e.code),
        (ErrorKind::IllegalAction, Some("result_paired"))
    );
    let e = store.undo_to_person(m1.id).map(|_| ()).unwrap_err();
    assert_eq!(e.code, Some("result_paired"));
    let v = store.tournament(t.id).unwrap();
    assert_eq!(v.events, 4);
    assert_eq!(points(&v, "Bea"), json!(2));
    assert_eq!(store.view(m1.id).unwrap().summary["status"], "won");
}

#[test]
fn a_result_typed_by_hand_stands_and_the_match_does_not_enter_a_second_one() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store.new_tournament(&four_entrants()).unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let m = store.start_table(t.id, 0).unwrap();
    store
        .tournament_event(
            t.id,
            &json!({"result": {"round": 1, "table": 0, "winner": 1, "scores": [0, 1]}}),
        )
        .unwrap();
    play_out(&mut store, m.id);
    let t = store.tournament(t.id).unwrap();
    assert_eq!(t.events, 2);
    assert_eq!(t.summary["pairings"][0]["result"]["winner"], 1);
    // A table with a result cannot start a new match.
    let err = store.start_table(t.id, 0).map(|v| v.id);
    assert_eq!(err, Ok(m.id), "the match already linked opens again");
    let err = store.start_table(t.id, 5).unwrap_err();
    assert_eq!(err.kind, ErrorKind::IllegalAction);
}

#[test]
fn a_refused_event_writes_nothing_and_undo_takes_back_events_one_by_one() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store.new_tournament(&four_entrants()).unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    for (event, kind) in [
        (json!({"pair": {}}), ErrorKind::IllegalAction),
        (
            json!({"result": {"round": 2, "table": 0, "winner": 0, "scores": [1, 0]}}),
            ErrorKind::IllegalAction,
        ),
        (
            json!({"result": {"round": 1, "table": 0, "winner": 3, "scores": [1, 0]}}),
            ErrorKind::BadAction,
        ),
        (json!({"enter": ["Emil"]}), ErrorKind::IllegalAction),
        (json!("pair"), ErrorKind::BadAction),
    ] {
        let err = store.tournament_event(t.id, &event).unwrap_err();
        assert_eq!(err.kind, kind, "{event}");
        assert_eq!(
            store.tournament(t.id).unwrap().events,
            1,
            "{event} wrote nothing"
        );
    }
    let m = store.start_table(t.id, 1).unwrap();
    let t = store.undo_tournament(t.id).unwrap();
    assert_eq!(t.summary["status"], "registering");
    assert!(t.tables.is_empty());
    // The match started for the round taken back stays in the history, unlinked (the app,
    // which held it in memory, no longer says its table).
    assert!(m.tournament.is_some());
    assert_eq!(store.view(m.id).unwrap().id, m.id);
    assert!(store.view(m.id).unwrap().tournament.is_none());
    let t = store.undo_tournament(t.id);
    assert_eq!(t.unwrap_err().kind, ErrorKind::IllegalAction);
    assert_eq!(store.tournament(99).unwrap_err().kind, ErrorKind::NotFound);
    let bad = store.new_tournament(&json!({"game": "molkky", "system": "ladder", "entrants": []}));
    assert_eq!(bad.unwrap_err().kind, ErrorKind::BadSetup);
}

#[test]
fn two_entrants_that_seat_one_player_are_refused_and_nothing_is_written() {
    let mut store = Store::open_in_memory().unwrap();
    store.add_player("Élodie").unwrap();
    let players = store.players().unwrap().len();
    // The rules tell "élodie" from "Élodie"; the players are one, as on the screens: the
    // tournament would seat her against herself.
    for (entrants, code) in [
        (json!([["Élodie"], ["Bea"], ["élodie"]]), "name_taken"),
        (json!([["Bea"], ["ÉLODIE"], ["élodie"]]), "name_taken"),
        (json!([["Bea", "bea"], ["Cyril"]]), "team_twice"),
    ] {
        let setup = json!({"game": "molkky", "system": "round_robin", "entrants": entrants});
        let err = store.new_tournament(&setup).unwrap_err();
        assert_eq!(err.kind, ErrorKind::BadSetup, "{entrants}");
        assert_eq!(err.code, Some(code), "{entrants}");
        assert!(store.tournaments(10).unwrap().is_empty(), "{entrants}");
        assert_eq!(store.players().unwrap().len(), players, "{entrants}");
    }
    // A late entry that is a player already in: refused, nothing written; another is taken.
    let setup = json!({"game": "molkky", "system": "round_robin",
                       "entrants": [["Élodie"], ["Bea"], ["Cyril"]]});
    let t = store.new_tournament(&setup).unwrap();
    for enter in [json!(["élodie"]), json!(["Dora", "CYRIL"])] {
        let err = store
            .tournament_event(t.id, &json!({ "enter": enter }))
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::IllegalAction, "{enter}");
        assert_eq!(err.code, Some("name_taken"), "{enter}");
        assert_eq!(store.tournament(t.id).unwrap().events, 0, "{enter}");
    }
    let err = store
        .tournament_event(t.id, &json!({"enter": ["Dora", "DORA"]}))
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::BadAction);
    assert_eq!(err.code, Some("team_twice"));
    assert!(store.players().unwrap().iter().all(|p| p.name != "Dora"));
    let t = store
        .tournament_event(t.id, &json!({"enter": ["Dora"]}))
        .unwrap();
    assert_eq!(t.summary["standings"].as_array().unwrap().len(), 4);

    // A record made elsewhere, where the two were two players, is taken as it is: refusing it
    // here would lose it.
    let elsewhere = json!({"format": 1, "id": "t-elsewhere",
        "tournament": {"game": "molkky", "system": "round_robin",
                       "entrants": [["Élodie"], ["élodie"], ["Bea"]]},
        "events": [{"pair": {}}]});
    let id = store.import_tournament(&elsewhere).unwrap();
    assert_eq!(store.tournament(id).unwrap().events, 1);
}

#[test]
fn a_player_entered_in_a_tournament_can_be_merged_and_the_tournament_follows() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
                                "entrants": [["Beatrice"], ["Anna"], ["Cyril"], ["Dora"]]}))
        .unwrap();
    let id = |store: &Store, name: &str| {
        store
            .players()
            .unwrap()
            .into_iter()
            .find(|p| p.name == name)
            .unwrap()
            .id
    };
    let bea = store.add_player("Bea").unwrap().id;
    let beatrice = id(&store, "Beatrice");
    // Beatrice is Bea: merged, her tournament is Bea's.
    store.merge_players(bea, beatrice).unwrap();
    let theirs = store.player_tournaments(bea).unwrap();
    assert_eq!(theirs.iter().map(|x| x.id).collect::<Vec<_>>(), vec![t.id]);
    assert!(store
        .players()
        .unwrap()
        .iter()
        .all(|p| p.name != "Beatrice"));
    // A late entrant under her other name is she, already in.
    let err = store
        .tournament_event(t.id, &json!({"enter": ["bea"]}))
        .unwrap_err();
    assert_eq!(err.code, Some("name_taken"));

    // Dora is renamed too. Their table's match seats the players entered (no new "Beatrice"
    // or "Dora"): its record has the names they were entered with, the history their names
    // of today; its figures are theirs.
    let dora = id(&store, "Dora");
    store.rename_player(dora, "Dorothée").unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let m = store.start_table(t.id, 0).unwrap();
    assert_eq!(
        m.sides,
        vec![vec!["Bea".to_string()], vec!["Dorothée".to_string()]]
    );
    let served = store
        .sync_record(partie_core::store::RecordKind::Match, &m.uid)
        .unwrap();
    assert_eq!(served["sides"], json!([["Beatrice"], ["Dora"]]));
    let names: Vec<String> = store
        .players()
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert!(
        !names.contains(&"Beatrice".to_string()) && !names.contains(&"Dora".to_string()),
        "{names:?}"
    );
    play_out(&mut store, m.id);
    assert_eq!(store.player_stats(bea, "molkky").unwrap().wins, 1);
    assert_eq!(store.player_stats(dora, "molkky").unwrap().matches, 1);
    assert_eq!(
        store.tournament(t.id).unwrap().summary["pairings"][0]["result"]["winner"],
        0
    );
    // Anna and Cyril, two entrants, merged (one person after all): the tournament is listed
    // once for her, at the better place.
    let (anna, cyril) = (id(&store, "Anna"), id(&store, "Cyril"));
    store.merge_players(anna, cyril).unwrap();
    let theirs = store.player_tournaments(anna).unwrap();
    assert_eq!(theirs.len(), 1, "{theirs:?}");
}

#[test]
fn a_withdrawal_with_its_match_open_is_one_step_committed_and_undone_whole() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store
        .new_tournament(&json!({"game": "molkky", "system": "round_robin",
            "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"], ["Emil"]]}))
        .unwrap();
    let t = store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let tables = t.summary["pairings"].as_array().unwrap().clone();
    // Someone with a match to play in round 1, as side 1 of its pairing.
    let open = &tables[0];
    let leaver = open["sides"][1].as_u64().unwrap() as usize;
    let t = store.withdraw(t.id, leaver).unwrap();
    assert_eq!(t.events, 3, "the withdrawal and the forfeit");
    assert_eq!(
        t.summary["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["entrant"] == leaver)
            .unwrap()["withdrawn"],
        true
    );
    assert_eq!(t.summary["pairings"][0]["result"], json!({"forfeit": 1}));
    // One undo takes back both: the entrant plays again and the table is open.
    let t = store.undo_tournament(t.id).unwrap();
    assert_eq!(t.events, 1);
    assert_eq!(t.summary["pairings"][0]["result"], Value::Null);
    assert!(t.summary["standings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["withdrawn"] == false));

    // Without a match to play (a bye, or the round's result in), it is the withdrawal alone.
    let other = &tables[1];
    let b = other["sides"][1].as_u64().unwrap();
    let table = other["table"].as_u64().unwrap();
    store
        .tournament_event(
            t.id,
            &json!({"result": {"round": 1, "table": table, "winner": 0, "scores": [1, 0]}}),
        )
        .unwrap();
    let t = store.withdraw(t.id, b as usize).unwrap();
    assert_eq!(t.events, 3);
    // A forfeit typed after an unrelated withdrawal is its own step.
    let t = store
        .tournament_event(
            t.id,
            &json!({"result": {"round": 1, "table": open["table"], "forfeit": 0}}),
        )
        .unwrap();
    assert_eq!(t.events, 4);
    let t = store.undo_tournament(t.id).unwrap();
    assert_eq!(
        t.events, 3,
        "only the forfeit: its side is not the entrant withdrawn"
    );
    let t = store.undo_tournament(t.id).unwrap();
    assert_eq!(t.events, 2, "then the withdrawal");

    // A refused withdrawal writes nothing: an unknown entrant, one already withdrawn.
    let t = store.withdraw(t.id, leaver).unwrap();
    assert_eq!(t.events, 4);
    for entrant in [9, leaver] {
        let err = store.withdraw(t.id, entrant).unwrap_err();
        assert_eq!(err.kind, ErrorKind::IllegalAction);
        assert_eq!(store.tournament(t.id).unwrap().events, 4);
    }
}

#[test]
fn a_restart_resumes_the_tournament_and_export_import_keeps_it_with_its_matches() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    let (mut store, _) = Store::open(&path).unwrap();
    let t = store.new_tournament(&four_entrants()).unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let m = store.start_table(t.id, 0).unwrap();
    play_out(&mut store, m.id);
    store
        .tournament_event(
            t.id,
            &json!({"result": {"round": 1, "table": 1, "winner": null, "scores": [0, 0]}}),
        )
        .unwrap();
    let before = store.tournament(t.id).unwrap();
    drop(store);

    let (store, _) = Store::open(&path).unwrap();
    let after = store.tournament(t.id).unwrap();
    assert_eq!(after.summary, before.summary);
    assert_eq!(after.events, 3);

    let exported = store.export_tournament(t.id).unwrap();
    assert_eq!(exported["matches"].as_array().unwrap().len(), 1);
    assert_eq!(
        exported["matches"][0]["table"],
        json!({"round": 1, "table": 0})
    );
    // The export is a tournament record: the command line reads it.
    let replayed = partie_core::tournament::TournamentRecord::from_value(&exported)
        .unwrap()
        .replay()
        .unwrap();
    assert_eq!(replayed.summary(), before.summary);

    let mut other = Store::open_in_memory().unwrap();
    let id = other.import_tournament(&exported).unwrap();
    let imported = other.tournament(id).unwrap();
    assert_eq!(imported.summary, before.summary);
    assert_eq!(imported.tables.len(), 1);
    assert_eq!(imported.tables[0].status, "won");
    // Importing it again adds nothing.
    assert_eq!(other.import_tournament(&exported).unwrap(), id);
    assert_eq!(other.tournaments(10).unwrap().len(), 1);

    // A file that names one of the device's own matches (not this table's: other players)
    // under table 0: the tournament comes in, the device's match is not made the table's.
    let mut third = Store::open_in_memory().unwrap();
    let own = third
        .new_match(
            "molkky",
            &Default::default(),
            &[vec!["Zoe".to_string()], vec!["Yann".to_string()]],
        )
        .unwrap();
    let mut forged = exported.clone();
    forged["id"] = json!("t-forged");
    forged["matches"][0]["id"] = json!(own.uid);
    let id = third.import_tournament(&forged).unwrap();
    assert!(third.tournament(id).unwrap().tables.is_empty());
    assert!(third.view(own.id).unwrap().tournament.is_none());

    // Anna's page lists the tournament with her rank.
    let anna = other
        .players()
        .unwrap()
        .into_iter()
        .find(|p| p.name == "Anna")
        .unwrap();
    let mine = other.player_tournaments(anna.id).unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!((mine[0].rank, mine[0].of, mine[0].finished), (1, 4, false));
}

#[test]
fn a_file_from_before_tournaments_is_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations::migrate_to(&mut conn, 4).unwrap();
    }
    let (mut store, _) = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), migrations::latest());
    let t = store.new_tournament(&four_entrants()).unwrap();
    assert_eq!(store.tournaments(10).unwrap()[0].id, t.id);
}

/// A table match discarded and brought back (the home screen's Undo) is its table's again: it
/// was brought back as a stray, whose end entered no result and whose table started a second
/// match. Brought back once its table has started another, it stays in the history only.
#[test]
fn a_table_match_discarded_and_brought_back_is_its_tables_again() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store.new_tournament(&four_entrants()).unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let m = store.start_table(t.id, 0).unwrap();
    store.play(m.id, &json!({"pins": [3]})).unwrap();
    let kept = store.discard_match(m.id).unwrap();
    assert!(store.tournament(t.id).unwrap().tables.is_empty());
    let r = store.import_as(&kept.to_string(), true).unwrap();
    assert_eq!(r.imported, 1);
    let view = store.tournament(t.id).unwrap();
    assert_eq!(view.tables.len(), 1, "{:?}", view.tables);
    // Its table gives it, not a second match; its end enters the table's result.
    let back = store.start_table(t.id, 0).unwrap();
    assert_eq!(back.uid, m.uid);
    play_out(&mut store, back.id);
    let done = store.tournament(t.id).unwrap();
    assert!(
        done.summary["pairings"][0]["result"].is_object(),
        "{}",
        done.summary
    );

    // Discarded, its table started again, then brought back: the new match keeps the table.
    let second = store.start_table(t.id, 1).unwrap();
    store.play(second.id, &json!({"pins": [3]})).unwrap();
    let kept = store.discard_match(second.id).unwrap();
    let fresh = store.start_table(t.id, 1).unwrap();
    store.import_as(&kept.to_string(), true).unwrap();
    assert_eq!(store.start_table(t.id, 1).unwrap().uid, fresh.uid);
    assert!(store
        .sync_record(partie_core::store::RecordKind::Match, &second.uid)
        .is_ok());
}

/// A tournament file is taken whole or not at all: a failure once its matches are written
/// (here a trigger standing for a disk that fails) leaves none of them behind without their
/// tournament. They were committed first, in a transaction of their own.
#[test]
fn a_tournament_import_that_fails_on_the_way_leaves_none_of_its_matches() {
    let (store, t) = first_table_played();
    let exported = store.export_tournament(t).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    let (mut other, _) = Store::open(&path).unwrap();
    Connection::open(&path)
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER failing BEFORE INSERT ON tournament
             BEGIN SELECT RAISE(ABORT, 'the disk failed'); END;",
        )
        .unwrap();
    let e = other.import_tournament(&exported).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Storage, "{e:?}");
    assert!(other.tournaments(10).unwrap().is_empty());
    let matches: i64 = Connection::open(&path)
        .unwrap()
        .query_row("SELECT count(*) FROM match", [], |r| r.get(0))
        .unwrap();
    assert_eq!(matches, 0, "a match came in without its tournament");
}

/// A tournament file without an id is the same tournament each time it is imported (its id
/// is made from its content), not a copy without its tables; an id that is not a string of
/// 1 to 100 characters is refused, and nothing is written.
#[test]
fn a_tournament_file_without_an_id_is_imported_once_and_a_bad_id_is_refused() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store.new_tournament(&four_entrants()).unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    let mut exported = store.export_tournament(t.id).unwrap();
    exported.as_object_mut().unwrap().remove("id");
    let text = exported.to_string();

    let mut other = Store::open_in_memory().unwrap();
    let r = other.import_any(&text).unwrap();
    assert_eq!((r.imported, r.already_present), (1, 0));
    let r = other.import_any(&text).unwrap();
    assert_eq!((r.imported, r.already_present), (0, 1));
    assert_eq!(other.tournaments(10).unwrap().len(), 1);

    for id in [json!(""), json!(7), json!("x".repeat(101))] {
        let mut bad = exported.clone();
        bad["id"] = id.clone();
        let mut fresh = Store::open_in_memory().unwrap();
        let e = fresh.import_tournament(&bad).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadRecord, "{id}: {e:?}");
        assert!(fresh.tournaments(10).unwrap().is_empty());
    }
}

#[test]
fn a_file_import_takes_a_tournament_export_or_match_records() {
    let (store, tid) = first_table_played();
    let tournament = store.export_tournament(tid).unwrap().to_string();
    let matches = store.export_all().unwrap().to_string();

    let mut other = Store::open_in_memory().unwrap();
    let r = other.import_any(&tournament).unwrap();
    assert_eq!((r.imported, r.already_present), (1, 0));
    let r = other.import_any(&tournament).unwrap();
    assert_eq!((r.imported, r.already_present), (0, 1));
    // The match came with its tournament: importing the records again adds nothing.
    let r = other.import_any(&matches).unwrap();
    assert_eq!((r.imported, r.already_present), (0, 1));
    let id = other.tournaments(10).unwrap()[0].id;
    assert_eq!(
        other.tournament(id).unwrap().summary,
        store.tournament(tid).unwrap().summary
    );
    // A tournament export over a record's size (a big tournament's, with its matches) is
    // still a tournament, not a list of matches without it.
    let mut big = Store::open_in_memory().unwrap();
    let padded = format!("{tournament}{}", " ".repeat(9 << 20));
    let r = big.import_any(&padded).unwrap();
    assert_eq!((r.imported, r.already_present), (1, 0));
    assert_eq!(big.tournaments(10).unwrap().len(), 1);
    // A tournament export that does not replay changes nothing.
    let mut bad: Value = serde_json::from_str(&tournament).unwrap();
    bad["id"] = json!("another");
    bad["events"] = json!([{"pair": {}}, {"pair": {}}]);
    let e = other.import_any(&bad.to_string()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::IllegalAction);
    assert_eq!(other.tournaments(10).unwrap().len(), 1);

    // Two tables' matches, the second of which does not replay: nothing is written, not even
    // the first (it used to stay in the history, without its tournament).
    let mut fresh = Store::open_in_memory().unwrap();
    let mut two: Value = serde_json::from_str(&tournament).unwrap();
    let mut broken = two["matches"][0].clone();
    broken["id"] = json!("broken");
    broken["table"]["table"] = json!(1);
    broken["actions"] = json!([{"pins": [13]}]);
    two["matches"].as_array_mut().unwrap().push(broken);
    assert_eq!(
        fresh.import_any(&two.to_string()).unwrap_err().kind,
        ErrorKind::BadAction
    );
    // A revision past what any record can have, as a store's triggers would overflow it.
    let mut huge: Value = serde_json::from_str(&tournament).unwrap();
    huge["revision"] = json!(i64::MAX);
    assert_eq!(
        fresh.import_any(&huge.to_string()).unwrap_err().kind,
        ErrorKind::BadRecord
    );
    let mut huge: Value = serde_json::from_str(&tournament).unwrap();
    huge["matches"][0]["revision"] = json!(i64::MAX);
    assert_eq!(
        fresh.import_any(&huge.to_string()).unwrap_err().kind,
        ErrorKind::BadRecord
    );
    let mut huge: Value = serde_json::from_str(&matches).unwrap();
    huge["matches"][0]["revision"] = json!(-1);
    assert_eq!(
        fresh.import_any(&huge.to_string()).unwrap_err().kind,
        ErrorKind::BadRecord
    );
    assert!(fresh.tournaments(10).unwrap().is_empty());
    assert_eq!(fresh.export_all().unwrap()["matches"], json!([]));
}

#[test]
fn the_standings_rating_change_follows_the_matches_played_in_the_tournament() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store.new_tournament(&four_entrants()).unwrap();
    store.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    // Nothing played in the app yet: no change for anyone.
    assert_eq!(
        store.tournament_rating_changes(t.id).unwrap(),
        vec![None; 4]
    );
    let m = store.start_table(t.id, 0).unwrap(); // Anna v Dora
    play_out(&mut store, m.id); // Anna wins
    let changes = store.tournament_rating_changes(t.id).unwrap();
    assert!(changes[0].unwrap() > 0.0, "{changes:?}");
    assert!(changes[3].unwrap() < 0.0, "{changes:?}");
    assert_eq!((changes[1], changes[2]), (None, None));
}

#[test]
fn an_undo_after_a_result_came_in_from_another_connection_takes_nothing_back() {
    // The organiser's screen shows the round just paired; the hub the desktop hosts (another
    // connection to the same file) then enters a table's result from a phone. The organiser's
    // undo meant the pairing, not that result: refused, and the result stands.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    let (mut app, _) = Store::open(&path).unwrap();
    let (mut hub, _) = Store::open(&path).unwrap();
    let t = app.new_tournament(&four_entrants()).unwrap();
    let shown = app.tournament_event(t.id, &json!({"pair": {}})).unwrap();
    hub.tournament_event(
        t.id,
        &json!({"result": {"round": 1, "table": 0, "winner": 0, "scores": [1, 0]}}),
    )
    .unwrap();
    let err = app
        .undo_tournament_seen(t.id, Some(shown.revision))
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::IllegalAction);
    assert_eq!(err.code, Some("tournament_changed"));
    let now = app.tournament(t.id).unwrap();
    assert_eq!(now.events, shown.events + 1);
    assert_eq!(now.summary["pairings"][0]["result"]["winner"], 0);
    // Looked at again, the undo takes back the result, now seen; then the pairing.
    let back = app.undo_tournament_seen(t.id, Some(now.revision)).unwrap();
    assert!(back.summary["pairings"][0]["result"].is_null());
    // The hub takes a result back and enters another: as many events as shown, but not the
    // ones shown.
    let shown = back.clone();
    hub.tournament_event(
        t.id,
        &json!({"result": {"round": 1, "table": 0, "winner": 1, "scores": [0, 1]}}),
    )
    .unwrap();
    hub.undo_tournament(t.id).unwrap();
    hub.tournament_event(
        t.id,
        &json!({"result": {"round": 1, "table": 1, "winner": 0, "scores": [1, 0]}}),
    )
    .unwrap();
    hub.undo_tournament(t.id).unwrap();
    assert_eq!(app.tournament(t.id).unwrap().events, shown.events);
    let err = app
        .undo_tournament_seen(t.id, Some(shown.revision))
        .unwrap_err();
    assert_eq!(err.code, Some("tournament_changed"));
    let now = app.tournament(t.id).unwrap();
    let back = app.undo_tournament_seen(t.id, Some(now.revision)).unwrap();
    assert_eq!(back.events, 0);
}

/// A late entrant the game cannot seat (a Crokinole team of three) is refused when it is
/// entered, with the game's reason, its code and the entrant's names, and nothing is written;
/// before, it was taken, paired, and its table then refused to start.
#[test]
fn a_late_entrant_the_game_cannot_seat_is_refused_at_the_door() {
    let mut store = Store::open_in_memory().unwrap();
    let t = store
        .new_tournament(&json!({"game": "crokinole", "system": "swiss", "rounds": 3,
            "entrants": [["Anna"], ["Bea"], ["Cyril", "Dora"], ["Eve"]]}))
        .unwrap();
    let e = store
        .tournament_event(t.id, &json!({"enter": ["Fred", "Gil", "Hugo"]}))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::IllegalAction, "{e:?}");
    assert_eq!(e.code, Some("crokinole_sides"), "{e:?}");
    assert_eq!(e.subject.as_deref(), Some("Fred & Gil & Hugo"));
    let after = store.tournament(t.id).unwrap();
    assert_eq!((after.events, after.revision), (0, t.revision));
    // A pair is still welcome, and so is one player.
    store
        .tournament_event(t.id, &json!({"enter": ["Fred", "Gil"]}))
        .unwrap();
    store
        .tournament_event(t.id, &json!({"enter": ["Hugo"]}))
        .unwrap();
    assert_eq!(store.tournament(t.id).unwrap().events, 2);
}
