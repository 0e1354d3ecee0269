//! The SQLite history: migrations, refusals that write nothing, undo, resume after a restart,
//! damaged and too-new files.

use partie_core::store::{migrations, OpenReport, Store};
use partie_core::ErrorKind;
use rusqlite::Connection;
mod common;

use common::{rules, sides};
use serde_json::{json, Map};

fn count(path: &std::path::Path, sql: &str) -> i64 {
    Connection::open(path)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_throw_is_on_disk_when_play_returns_and_a_restart_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    let (mut store, report) = Store::open(&path).unwrap();
    assert_eq!(report, OpenReport::Ok);
    let m = store
        .new_match(
            "molkky",
            &Map::new(),
            &sides(&[&["Anna"], &["Bea", "Cyril"]]),
        )
        .unwrap();
    store.play(m.id, &json!({"pins": [7]})).unwrap();
    store.play(m.id, &json!({"pins": [3, 9]})).unwrap();
    // Another connection sees both actions before this store is even dropped.
    assert_eq!(count(&path, "SELECT count(*) FROM action"), 2);
    let before = store.view(m.id).unwrap();
    drop(store);

    let (mut again, _) = Store::open(&path).unwrap();
    let after = again.view(m.id).unwrap();
    assert_eq!(after.summary, before.summary);
    assert_eq!(after.summary["scores"], json!([7, 2]));
    assert_eq!(after.summary["thrower"], "Anna");
    assert_eq!(after.actions, 2);
    assert_eq!(again.unfinished(10).unwrap().len(), 1);
}

#[test]
fn refused_actions_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    let (mut store, _) = Store::open(&path).unwrap();
    let m = store
        .new_match(
            "molkky",
            &rules(json!({"target": 10})),
            &sides(&[&["A"], &["B"]]),
        )
        .unwrap();
    store.play(m.id, &json!({"pins": [4]})).unwrap();
    let before = store.view(m.id).unwrap().summary;
    for bad in [
        json!({"pins": [13]}),
        json!({"pins": [2, 2]}),
        json!("x"),
        json!({"pins": [1], "foul": true}),
    ] {
        assert_eq!(
            store.play(m.id, &bad).unwrap_err().kind,
            ErrorKind::BadAction,
            "{bad}"
        );
    }
    assert_eq!(store.view(m.id).unwrap().summary, before);
    assert_eq!(count(&path, "SELECT count(*) FROM action"), 1);

    store.play(m.id, &json!({"pins": [10]})).unwrap(); // B wins exactly 10
    let err = store.play(m.id, &json!({"pins": [1]})).unwrap_err();
    assert_eq!(err.kind, ErrorKind::IllegalAction);
    assert_eq!(count(&path, "SELECT count(*) FROM action"), 2);
    assert_eq!(
        store.play(999, &json!({"pins": [1]})).unwrap_err().kind,
        ErrorKind::NotFound
    );
}

#[test]
fn undo_goes_back_across_the_end_of_a_game_and_a_leg() {
    let mut store = Store::open_in_memory().unwrap();
    let m = store
        .new_match(
            "molkky",
            &rules(json!({"target": 10, "best_of": 3})),
            &sides(&[&["A"], &["B"]]),
        )
        .unwrap();
    assert_eq!(store.undo(m.id).unwrap_err().kind, ErrorKind::IllegalAction);
    store.play(m.id, &json!({"pins": [10]})).unwrap();
    let leg2 = store.view(m.id).unwrap().summary;
    assert_eq!(leg2["leg"], 2);
    let undone = store.undo(m.id).unwrap();
    assert_eq!(undone.summary["leg"], 1);
    assert_eq!(undone.summary["scores"], json!([0, 0]));
    assert_eq!(undone.summary["turn"], 0);
    // Undo then the same action again gives the same state.
    assert_eq!(
        store.play(m.id, &json!({"pins": [10]})).unwrap().summary,
        leg2
    );

    store.play(m.id, &json!({"pins": []})).unwrap();
    let over = store.play(m.id, &json!({"pins": [10]})).unwrap();
    assert_eq!(over.summary["status"], "won");
    assert_eq!(store.recent_results(5).unwrap().len(), 1);
    let back = store.undo(m.id).unwrap();
    assert_eq!(back.summary["status"], "playing");
    assert_eq!(
        store.recent_results(5).unwrap().len(),
        0,
        "an undone end is no longer a result"
    );
    assert_eq!(store.unfinished(5).unwrap().len(), 1);
}

#[test]
fn bad_setup_creates_no_match_and_no_player() {
    let mut store = Store::open_in_memory().unwrap();
    for (game, r, s) in [
        (
            "molkky",
            json!({"best_of": 3}),
            sides(&[&["A"], &["B"], &["C"]]),
        ),
        ("molkky", json!({"target": 5}), sides(&[&["A"], &["B"]])),
        ("molkky", json!({}), sides(&[&["A"]])),
        ("tennis", json!({}), sides(&[&["A"], &["B"]])),
    ] {
        assert_eq!(
            store.new_match(game, &rules(r), &s).unwrap_err().kind,
            ErrorKind::BadSetup
        );
    }
    assert!(store.players().unwrap().is_empty());
    assert!(store.unfinished(10).unwrap().is_empty());
}

#[test]
fn players_are_reused_by_name_and_listed_most_recent_first() {
    let mut store = Store::open_in_memory().unwrap();
    let anna = store.add_player("  Anna ").unwrap();
    assert_eq!(anna.name, "Anna");
    assert_eq!(store.add_player("anna").unwrap().id, anna.id);
    assert_eq!(store.add_player(" ").unwrap_err().kind, ErrorKind::BadSetup);
    store.add_player("Zoé 🎯").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    store
        .new_match("molkky", &Map::new(), &sides(&[&["Anna"], &["Bea"]]))
        .unwrap();
    let names: Vec<String> = store
        .players()
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names.len(), 3);
    assert_eq!(names[2], "Zoé 🎯", "{names:?}");
}

#[test]
fn a_name_differing_only_by_case_is_the_same_player_in_every_alphabet() {
    // SQLite's NOCASE folds A to Z only: "élodie" would have been a second Élodie.
    let mut store = Store::open_in_memory().unwrap();
    let elodie = store.add_player("Élodie").unwrap();
    assert_eq!(store.add_player("élodie").unwrap().id, elodie.id);
    assert_eq!(store.add_player("ÉLODIE ").unwrap().id, elodie.id);
    let zoe = store.add_player("ZOË").unwrap();
    assert_eq!(store.add_player("zoë").unwrap().id, zoe.id);
    // An é typed as e and its accent is the same letter.
    assert_eq!(store.add_player("E\u{301}lodie").unwrap().id, elodie.id);
    assert_eq!(store.add_player("e\u{301}LODIE").unwrap().id, elodie.id);
    let ivan = store.add_player("Иван").unwrap();
    assert_eq!(store.add_player("иван").unwrap().id, ivan.id);
    // A match seats the players the names say: no new player.
    store
        .new_match("molkky", &Map::new(), &sides(&[&["éLODIE"], &["иВАН"]]))
        .unwrap();
    assert_eq!(store.players().unwrap().len(), 3);
    // Other letters are other names: an accent is not a case.
    assert_ne!(store.add_player("Elodie").unwrap().id, elodie.id);
    assert_eq!(store.players().unwrap().len(), 4);
}

#[test]
fn two_players_an_older_database_made_of_one_name_in_two_cases_each_keep_their_own() {
    // Before, "élodie" beside Élodie made a second player; each spelling still seats its own.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    let (first, second) = {
        let (mut store, _) = Store::open(&path).unwrap();
        let first = store.add_player("Élodie").unwrap().id;
        (first, store.add_player("Zoé").unwrap().id)
    };
    let conn = Connection::open(&path).unwrap();
    conn.execute("UPDATE player SET name = 'élodie' WHERE id = ?1", [second])
        .unwrap();
    drop(conn);
    let (mut store, _) = Store::open(&path).unwrap();
    assert_eq!(store.add_player("élodie").unwrap().id, second);
    assert_eq!(store.add_player("Élodie").unwrap().id, first);
    // A third spelling goes to the oldest.
    assert_eq!(store.add_player("ÉLODIE").unwrap().id, first);
}

#[test]
fn rematch_has_the_same_players_and_rules() {
    let mut store = Store::open_in_memory().unwrap();
    let r = rules(json!({"target": 10, "three_misses": "zero"}));
    let m = store
        .new_match("molkky", &r, &sides(&[&["A", "B"], &["C"]]))
        .unwrap();
    store.play(m.id, &json!({"pins": [10]})).unwrap();
    let again = store.rematch(m.id).unwrap();
    assert_ne!(again.id, m.id);
    assert_ne!(again.uid, m.uid);
    assert_eq!(again.rules, r);
    assert_eq!(again.sides, m.sides);
    assert_eq!(again.summary["scores"], json!([0, 0]));
}

/// A file of the first schema (`old.db` in `dir`) holding players Anna (1) and Bea (2) and what
/// `sql` inserts.
fn old_file(dir: &std::path::Path, sql: &str) -> std::path::PathBuf {
    let path = dir.join("old.db");
    let mut conn = Connection::open(&path).unwrap();
    migrations::migrate_to(&mut conn, 1).unwrap();
    conn.execute_batch(
        "INSERT INTO player (id, name, created_at) VALUES (1, 'Anna', 1), (2, 'Bea', 1);",
    )
    .unwrap();
    conn.execute_batch(sql).unwrap();
    assert_eq!(
        conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))
            .unwrap(),
        1
    );
    path
}

#[test]
fn an_old_database_is_upgraded_and_keeps_its_matches() {
    let dir = tempfile::tempdir().unwrap();
    let path = old_file(
        dir.path(),
        "INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, status)
             VALUES (1, 'old-1', 'molkky', 1, '{\"target\":10}', 1, 1, 'playing');
         INSERT INTO match_player VALUES (1, 0, 0, 1, 'Anna'), (1, 1, 0, 2, 'Bea');
         INSERT INTO action VALUES (1, 0, '{\"pins\":[4]}', 2), (1, 1, '{\"pins\":[]}', 3);",
    );
    let (mut store, report) = Store::open(&path).unwrap();
    assert_eq!(report, OpenReport::Ok);
    assert_eq!(store.schema_version().unwrap(), migrations::latest());
    let view = store.view(1).unwrap();
    assert_eq!(view.summary["scores"], json!([4, 0]));
    assert_eq!(view.summary["misses"], json!([0, 1]));
    let played = store.play(1, &json!({"pins": [6]})).unwrap();
    assert_eq!(played.summary["status"], "won");
    assert_eq!(
        store.recent_results(5).unwrap()[0].summary["scores"],
        json!([10, 0])
    );
}

#[test]
fn an_old_database_with_a_match_that_no_longer_replays_still_opens() {
    // The figures an old file lacks are derived as it opens: one finished match that does not
    // replay kept the whole history from opening.
    let dir = tempfile::tempdir().unwrap();
    let path = old_file(
        dir.path(),
        "INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, status)
             VALUES (1, 'bad', 'molkky', 1, '{\"target\":10}', 1, 1, 'won'),
                    (2, 'good', 'molkky', 1, '{\"target\":10}', 1, 1, 'won');
         INSERT INTO match_player VALUES (1, 0, 0, 1, 'Anna'), (1, 1, 0, 2, 'Bea'),
                                         (2, 0, 0, 1, 'Anna'), (2, 1, 0, 2, 'Bea');
         INSERT INTO action VALUES (1, 0, '{\"pins\":[13]}', 2), (2, 0, '{\"pins\":[10]}', 2);",
    );
    let (mut store, report) = Store::open(&path).unwrap();
    assert_eq!(report, OpenReport::Ok);
    assert_eq!(store.schema_version().unwrap(), migrations::latest());
    assert_eq!(store.view(2).unwrap().summary["scores"], json!([10, 0]));
}

#[test]
fn a_database_from_a_newer_app_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE future (x); PRAGMA user_version = 99;")
            .unwrap();
    }
    let bytes = std::fs::read(&path).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Storage);
    assert_eq!(err.code, Some("database_too_new"));
    assert_eq!(count(&path, "PRAGMA user_version"), 99);
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn a_damaged_file_is_set_aside_and_a_fresh_database_opens() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    std::fs::write(
        &path,
        b"this is not a database, it is a shopping list: milk, eggs".repeat(200),
    )
    .unwrap();
    let (mut store, report) = Store::open(&path).unwrap();
    let OpenReport::Recovered { moved_to, .. } = report else {
        panic!("not recovered: {report:?}")
    };
    assert!(moved_to.exists());
    assert!(std::fs::read(&moved_to)
        .unwrap()
        .starts_with(b"this is not a database"));
    let m = store
        .new_match("molkky", &Map::new(), &sides(&[&["A"], &["B"]]))
        .unwrap();
    assert_eq!(
        store.play(m.id, &json!({"pins": [5]})).unwrap().summary["scores"],
        json!([5, 0])
    );
}

#[test]
fn a_match_can_be_deleted() {
    let mut store = Store::open_in_memory().unwrap();
    let m = store
        .new_match("molkkout", &Map::new(), &sides(&[&["A"], &["B"]]))
        .unwrap();
    store.play(m.id, &json!({"pins": [12]})).unwrap();
    store.delete_match(m.id).unwrap();
    assert_eq!(store.view(m.id).unwrap_err().kind, ErrorKind::NotFound);
    assert_eq!(
        store.delete_match(m.id).unwrap_err().kind,
        ErrorKind::NotFound
    );
}

#[test]
fn the_computer_seats_are_kept_and_a_stale_answer_is_not_played() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    let (mut store, _) = Store::open(&path).unwrap();
    let computer: partie_core::store::Computer = [(1usize, 3u8)].into_iter().collect();
    let m = store
        .new_match_against(
            "morris",
            &Map::new(),
            &sides(&[&["Ann"], &["Computer"]]),
            &computer,
        )
        .unwrap();
    assert_eq!(m.computer, computer);
    store.play(m.id, &json!("d6")).unwrap();
    let turn = store.computer_turn(m.id).unwrap();
    assert_eq!((turn.at, turn.level), (1, Some(3)));
    let answer = partie_core::computer::think(&turn.state, 3, None).unwrap();
    // A hint is a legal move of the side to act, at the level hints are thought at; in a
    // game with fewer levels, at its strongest (it asked for level 4 and was refused); none
    // in a game the computer does not play.
    let hinted = partie_core::computer::hint(&turn.state, None).unwrap();
    assert!(turn.state.clone().play(&hinted).is_ok(), "{hinted}");
    let dice = store
        .new_match("boulomania", &Map::new(), &sides(&[&["Ann"], &["Bea"]]))
        .unwrap();
    let b = store.computer_turn(dice.id).unwrap();
    assert!(partie_core::games::computer_levels("boulomania") < partie_core::computer::HINT_LEVEL);
    let hinted = partie_core::computer::hint(&b.state, None).unwrap();
    assert!(b.state.clone().play(&hinted).is_ok(), "{hinted}");
    let scorepad = store
        .new_match("molkky", &Map::new(), &sides(&[&["Ann"], &["Bea"]]))
        .unwrap();
    let e = partie_core::computer::hint(&store.computer_turn(scorepad.id).unwrap().state, None)
        .unwrap_err();
    assert_eq!(
        (e.kind, e.code),
        (ErrorKind::IllegalAction, Some("no_hint"))
    );
    // The user takes back their move while the computer thinks: its answer is dropped.
    store.undo(m.id).unwrap();
    let e = store.play_at(m.id, turn.revision, &answer).unwrap_err();
    assert_eq!((e.kind, e.code), (ErrorKind::IllegalAction, Some("stale")));
    assert_eq!(count(&path, "SELECT count(*) FROM action"), 0);
    // Nor after the move is played again: as many actions, but not the position it was asked
    // for (the next move could differ), so not the same revision.
    store.play(m.id, &json!("d6")).unwrap();
    let e = store.play_at(m.id, turn.revision, &answer).unwrap_err();
    assert_eq!(e.code, Some("stale"));
    // Asked again, on time it is played; the seats survive a restart, a rematch, an export and
    // an import.
    let turn = store.computer_turn(m.id).unwrap();
    assert_eq!((turn.at, turn.revision), (1, 3));
    let v = store.play_at(m.id, turn.revision, &answer).unwrap();
    assert_eq!(v.actions, 2);
    drop(store);
    let (mut store, _) = Store::open(&path).unwrap();
    assert_eq!(store.view(m.id).unwrap().computer, computer);
    assert_eq!(store.rematch(m.id).unwrap().computer, computer);
    let exported = store.export_match(m.id).unwrap();
    assert_eq!(exported["computer"], json!({"1": 3}));
    let (mut other, _) = Store::open(&dir.path().join("other.db")).unwrap();
    other.import(&exported.to_string()).unwrap();
    let id = other.history(&Default::default()).unwrap()[0].id;
    assert_eq!(other.view(id).unwrap().computer, computer);
    // Seats that make no sense are refused and nothing is written.
    for bad in [[(0usize, 1u8), (1, 1)], [(2, 1), (2, 1)], [(1, 6), (1, 6)]] {
        let c: partie_core::store::Computer = bad.into_iter().collect();
        let e = store
            .new_match_against("morris", &Map::new(), &sides(&[&["A"], &["B"]]), &c)
            .unwrap_err();
        assert_eq!(e.code, Some("bad_computer"));
    }
    let c: partie_core::store::Computer = [(1usize, 2u8)].into_iter().collect();
    let e = store
        .new_match_against(
            "crokinole",
            &rules(json!({})),
            &sides(&[&["A"], &["B"]]),
            &c,
        )
        .unwrap_err();
    assert_eq!(e.code, Some("bad_computer"));
}

#[test]
fn undo_to_a_person_takes_back_the_computers_replies_in_one_commit() {
    let mut store = Store::open_in_memory().unwrap();
    let sides = vec![vec!["Me".to_string()], vec!["Computer".to_string()]];
    let computer: partie_core::store::Computer = [(1usize, 3u8)].into_iter().collect();
    let m = store
        .new_match_against("morris", &Default::default(), &sides, &computer)
        .unwrap();
    // The person places, the computer answers (its moves are played as the app plays them).
    for token in ["d6", "f4", "a1", "g7"] {
        store.play(m.id, &json!(token)).unwrap();
    }
    let (view, taken) = store.undo_to_person(m.id).unwrap();
    assert_eq!(view.actions, 2);
    assert_eq!(
        taken,
        vec![json!("a1")],
        "the person's move, to redo; not the computer's"
    );
    assert_eq!(view.summary["turn"], 0);
    let (view, taken) = store.undo_to_person(m.id).unwrap();
    assert_eq!((view.actions, taken), (0, vec![json!("d6")]));
    let e = store.undo_to_person(m.id).unwrap_err();
    assert_eq!(e.code, Some("nothing_to_undo"));
    // What is stored is what is shown: the same match, read again.
    assert_eq!(store.record(m.id).unwrap().actions.len(), 0);

    // Two people: one action at a time, as undo.
    let two = vec![vec!["A".to_string()], vec!["B".to_string()]];
    let m = store
        .new_match("morris", &Default::default(), &two)
        .unwrap();
    store.play(m.id, &json!("d6")).unwrap();
    store.play(m.id, &json!("f4")).unwrap();
    let (view, taken) = store.undo_to_person(m.id).unwrap();
    assert_eq!((view.actions, taken), (1, vec![json!("f4")]));
}

#[test]
fn a_rule_the_form_cannot_check_alone_is_refused_with_a_code_the_screens_word() {
    // Ranges that hang on another rule or leave a hole: each has its own code, which the
    // screens put in the user's words (ui/js/i18n.js), not the English detail.
    let sides = vec![vec!["Anna".to_string()], vec!["Bea".to_string()]];
    for (game, rules, code) in [
        ("crokinole", json!({"target": 12}), "target_multiple"),
        ("morris", json!({"repetition": 1}), "repetition_range"),
        ("morris", json!({"quiet_moves": 9}), "quiet_moves_range"),
        ("morris", json!({"quiet_moves": 401}), "quiet_moves_range"),
        (
            "molkky",
            json!({"target": 30, "bust_to": 30}),
            "bust_to_range",
        ),
        (
            "molkky",
            json!({"bust_to": 25, "foul_drop": 20}),
            "foul_drop_range",
        ),
        (
            "molkky",
            json!({"target": 10, "bust_to": 9, "foul_drop": 9}),
            "foul_drop_range",
        ),
        ("molkky", json!({"best_of": 2}), "best_of_range"),
        ("molkky", json!({"misses": 1}), "bad_rule"),
    ] {
        let rules = rules.as_object().unwrap().clone();
        let err = partie_core::MatchState::setup(game, &rules, &sides).unwrap_err();
        assert_eq!(err.kind, ErrorKind::BadSetup, "{game} {rules:?}");
        assert_eq!(err.code, Some(code), "{game} {rules:?}");
    }
    // And the values next to them are taken.
    for (game, rules) in [
        ("crokinole", json!({"target": 15})),
        ("morris", json!({"repetition": 0, "quiet_moves": 0})),
        ("morris", json!({"repetition": 2, "quiet_moves": 10})),
        ("molkky", json!({"target": 30, "bust_to": 29})),
        ("molkky", json!({"bust_to": 25, "foul_drop": 26})),
    ] {
        let rules = rules.as_object().unwrap().clone();
        assert!(
            partie_core::MatchState::setup(game, &rules, &sides).is_ok(),
            "{game} {rules:?}"
        );
    }
}

#[test]
fn a_match_another_connection_played_is_read_again_before_the_next_throw() {
    // The desktop hosting the club's hub: the hub's connection merges a phone's throws into
    // the match the app holds in memory.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    let (mut app, _) = Store::open(&path).unwrap();
    let (mut hub, _) = Store::open(&path).unwrap();
    let m = app
        .new_match("molkky", &rules(json!({})), &sides(&[&["Anna"], &["Bea"]]))
        .unwrap();
    app.play(m.id, &json!({"pins": [3]})).unwrap();
    assert_eq!(app.view(m.id).unwrap().actions, 1);
    hub.play(m.id, &json!({"pins": [5]})).unwrap();
    // The app sees the phone's throw, and its next one follows it (not a second action 1).
    assert_eq!(app.view(m.id).unwrap().actions, 2);
    let v = app.play(m.id, &json!({"pins": [7]})).unwrap();
    assert_eq!(v.actions, 3);
    // An undo there too.
    hub.undo(m.id).unwrap();
    assert_eq!(app.view(m.id).unwrap().actions, 2);
    assert_eq!(app.play(m.id, &json!({"pins": [2]})).unwrap().actions, 3);
    let record = hub.record(m.id).unwrap();
    let pins: Vec<_> = record.actions.iter().map(|a| a["pins"].clone()).collect();
    assert_eq!(pins, vec![json!([3]), json!([5]), json!([2])]);
}

#[test]
fn an_undo_that_raced_a_throw_from_another_connection_takes_nothing_back() {
    // The hosted hub holds its write open with a phone's throw while the app's undo reads the
    // match: the undo then waits for the write, finds a throw it did not see, and takes
    // nothing back (it would have taken back that throw, or two).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partie.db");
    let (mut app, _) = Store::open(&path).unwrap();
    let m = app
        .new_match("molkky", &rules(json!({})), &sides(&[&["Anna"], &["Bea"]]))
        .unwrap();
    app.play(m.id, &json!({"pins": [3]})).unwrap();
    let (held, hold) = std::sync::mpsc::channel();
    let hub = {
        let path = path.clone();
        let id = m.id;
        std::thread::spawn(move || {
            let mut conn = Connection::open(&path).unwrap();
            let tx = conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .unwrap();
            tx.execute(
                "INSERT INTO action (match_id, seq, body, at) VALUES (?1, 1, '{\"pins\":[5]}', 0)",
                [id],
            )
            .unwrap();
            held.send(()).unwrap();
            // Long enough for the undo to have read the match on a slow machine, and within
            // the store's busy timeout (2 s), which the undo's write waits for.
            std::thread::sleep(std::time::Duration::from_millis(1500));
            tx.commit().unwrap();
        })
    };
    hold.recv().unwrap();
    let err = app.undo(m.id).unwrap_err();
    hub.join().unwrap();
    assert_eq!(err.kind, ErrorKind::IllegalAction);
    assert_eq!(err.code, Some("match_changed"));
    let record = app.record(m.id).unwrap();
    assert_eq!(record.actions.len(), 2, "both throws stand");
    // Looked at again, the undo takes back the phone's throw, now seen.
    assert_eq!(app.view(m.id).unwrap().actions, 2);
    assert_eq!(app.undo(m.id).unwrap().actions, 1);
}
