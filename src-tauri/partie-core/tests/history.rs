//! The club's memory: history filters, players (rename, merge, archive), statistics on small
//! histories computed by hand, export/import, CSV, backup and restore, and upgrades.

use partie_core::store::{migrations, HistoryFilter, Store};
use partie_core::ErrorKind;
use rusqlite::Connection;
mod common;

use common::{rules, sides};
use serde_json::{json, Map, Value};

fn play_all(store: &mut Store, id: i64, actions: &[Value]) {
    for a in actions {
        store.play(id, a).unwrap();
    }
}

fn pins(p: &[u8]) -> Value {
    json!({"pins": p})
}

/// A Mölkky match to 10 that `winner` wins at the first throw (pin 10) against `loser`.
fn won_at_once(store: &mut Store, winner: &str, loser: &str) -> i64 {
    let m = store
        .new_match(
            "molkky",
            &rules(json!({"target": 10})),
            &sides(&[&[winner], &[loser]]),
        )
        .unwrap()
        .id;
    play_all(store, m, &[pins(&[10])]);
    m
}

fn id_of(store: &Store, name: &str) -> i64 {
    store
        .search_players(name, true)
        .unwrap()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap()
        .id
}

/// Anna beats Bea twice at Mölkky (target 10), Bea wins one Crokinole game, one match unfinished.
fn small_club(store: &mut Store) -> Vec<i64> {
    let r = rules(json!({"target": 10}));
    let a = store
        .new_match("molkky", &r, &sides(&[&["Anna"], &["Bea"]]))
        .unwrap()
        .id;
    // Anna: 7, miss, 3 (needs 3 ≤ 12: a chance, taken). Bea: 4, 12 (bust to 5).
    play_all(
        store,
        a,
        &[pins(&[7]), pins(&[4]), pins(&[]), pins(&[12]), pins(&[3])],
    );
    let b = store
        .new_match("molkky", &r, &sides(&[&["Anna"], &["Bea"]]))
        .unwrap()
        .id;
    // Anna: 9 (needs 10: a chance, missed), 1 (needs 1: a chance, taken). Bea: a foul.
    play_all(
        store,
        b,
        &[pins(&[9]), json!({"pins": [], "foul": true}), pins(&[1])],
    );
    let c = store
        .new_match(
            "crokinole",
            &rules(json!({"target": 50})),
            &sides(&[&["Anna"], &["Bea", "Cleo"]]),
        )
        .unwrap()
        .id;
    play_all(
        store,
        c,
        &[
            json!({"twenty": 1}),
            json!({"round": {"15": [1, 2]}}),
            json!({"round": {"20": [0, 1], "10": [0, 1]}}),
        ],
    );
    let d = store
        .new_match("molkky", &Map::new(), &sides(&[&["Bea"], &["Dan"]]))
        .unwrap()
        .id;
    play_all(store, d, &[pins(&[5])]);
    vec![a, b, c, d]
}

#[test]
fn statistics_add_up_by_hand() {
    let mut store = Store::open_in_memory().unwrap();
    small_club(&mut store);
    let anna = id_of(&store, "Anna");
    let s = store.player_stats(anna, "molkky").unwrap();
    assert_eq!((s.matches, s.wins, s.losses, s.draws), (2, 2, 0, 0));
    assert_eq!(s.form, vec!["won", "won"]);
    // Throws: 7, miss, 3 | 9, 1 → 5 throws, 20 points, 1 miss.
    assert_eq!(s.totals["throws"], 5);
    assert_eq!(s.totals["points"], 20);
    assert_eq!(s.totals["misses"], 1);
    // Chances (12 or less needed before the throw): the first match's three throws (needs 10,
    // 3, 3) and the second's two (needs 10, 1). Taken: the 3 and the 1.
    assert_eq!(s.totals["chances"], 5);
    assert_eq!(s.totals["chances_taken"], 2);
    assert_eq!(s.rates["points_per_throw"], 4.0);
    assert_eq!(s.rates["miss_rate"], 0.2);
    assert_eq!(s.rates["chance_success"], 0.4);

    let bea = id_of(&store, "Bea");
    let s = store.player_stats(bea, "molkky").unwrap();
    assert_eq!(
        (s.matches, s.wins, s.losses),
        (2, 0, 2),
        "the unfinished match does not count"
    );
    assert_eq!(s.totals["busts"], 1);
    assert_eq!(s.totals["fouls"], 1);
    assert_eq!(s.totals["points"], 16);

    // Crokinole: round 1 Anna 15, Bea+Cleo 50 (20 + 30); round 2 Anna 0, them 30. Differential: 35 then 65 ≥ 50.
    let s = store.player_stats(bea, "crokinole").unwrap();
    assert_eq!((s.matches, s.wins), (1, 1));
    assert_eq!(s.totals["rounds"], 2);
    assert_eq!(s.totals["round_points"], 80);
    assert_eq!(s.totals["twenties"], 2);
    assert_eq!(s.totals["rounds_won"], 2);
    assert_eq!(s.rates["points_per_round"], 40.0);
    let cleo = id_of(&store, "Cleo");
    assert_eq!(
        store.player_stats(cleo, "crokinole").unwrap().totals,
        s.totals
    );

    assert_eq!(store.head_to_head(anna, bea, "molkky").unwrap(), (2, 0, 0));
    assert_eq!(
        store.head_to_head(bea, anna, "crokinole").unwrap(),
        (1, 0, 0)
    );
    let board = store.leaderboard("molkky", 10).unwrap();
    assert_eq!(board[0].1, "Anna");
    assert_eq!((board[0].2, board[0].3), (2, 2));
}

#[test]
fn undoing_the_end_removes_the_figures() {
    let mut store = Store::open_in_memory().unwrap();
    let ids = small_club(&mut store);
    let anna = id_of(&store, "Anna");
    store.undo(ids[1]).unwrap();
    assert_eq!(store.player_stats(anna, "molkky").unwrap().matches, 1);
    store.play(ids[1], &pins(&[1])).unwrap();
    assert_eq!(store.player_stats(anna, "molkky").unwrap().matches, 2);
    store.delete_match(ids[0]).unwrap();
    assert_eq!(store.player_stats(anna, "molkky").unwrap().matches, 1);
}

#[test]
fn a_player_on_two_sides_says_nothing_and_in_two_seats_counts_once() {
    let mut store = Store::open_in_memory().unwrap();
    // Anna beats Bea once; then a match of Anna against "anna" (one player here), and one in
    // which Anna holds both seats of a side against Bea.
    let record = |sides: Value, actions: Value| {
        json!({"format": 1, "game": "molkky", "rules": {"target": 10}, "sides": sides, "actions": actions})
            .to_string()
    };
    store
        .import(&record(json!([["Anna"], ["Bea"]]), json!([{"pins": [10]}])))
        .unwrap();
    store
        .import(&record(
            json!([["Anna"], ["anna"]]),
            json!([{"pins": [10]}]),
        ))
        .unwrap();
    let anna = id_of(&store, "Anna");
    let stats = store.player_stats(anna, "molkky").unwrap();
    assert_eq!((stats.matches, stats.wins, stats.losses), (1, 1, 0));
    assert_eq!(store.player_series(anna, "molkky", 50).unwrap().len(), 1);
    let board = store.leaderboard("molkky", 10).unwrap();
    assert_eq!(board[0].1, "Anna");
    assert_eq!((board[0].2, board[0].3), (1, 1));

    store
        .import(&record(
            json!([["Anna", "anna"], ["Bea"]]),
            json!([{"pins": [3]}, {"pins": [1]}, {"pins": [7]}]),
        ))
        .unwrap();
    let stats = store.player_stats(anna, "molkky").unwrap();
    assert_eq!((stats.matches, stats.wins), (2, 2));
    // Both seats' throws are hers: 10, then 3 and 7.
    assert_eq!(stats.totals["points"], 20, "{:?}", stats.totals);
    let series = store.player_series(anna, "molkky", 50).unwrap();
    assert_eq!(series.len(), 2);
    // The chart's point for that match has both seats' throws too.
    assert_eq!(series[1]["counters"]["points"], 10, "{series:?}");
    assert_eq!(series[1]["counters"]["throws"], 2, "{series:?}");
    assert_eq!(store.player_series(anna, "molkky", 1).unwrap().len(), 1);
    let board = store.leaderboard("molkky", 10).unwrap();
    assert_eq!((board[0].2, board[0].3), (2, 2));
    let bea = id_of(&store, "Bea");
    assert_eq!(store.head_to_head(anna, bea, "molkky").unwrap(), (2, 0, 0));
    // Anna against "anna" and Cyril: a match that says nothing of Anna, against Cyril too.
    store
        .import(&record(
            json!([["Anna"], ["anna", "Cyril"]]),
            json!([{"pins": [10]}]),
        ))
        .unwrap();
    let cyril = id_of(&store, "Cyril");
    assert_eq!(
        store.head_to_head(anna, cyril, "molkky").unwrap(),
        (0, 0, 0)
    );
    // A merge of two who played each other leaves the same: their match counts for neither.
    store.merge_players(anna, bea).unwrap();
    let stats = store.player_stats(anna, "molkky").unwrap();
    assert_eq!((stats.matches, stats.wins), (0, 0));
}

#[test]
fn history_filters_and_pages() {
    let mut store = Store::open_in_memory().unwrap();
    let ids = small_club(&mut store);
    let all = store.history(&HistoryFilter::default()).unwrap();
    assert_eq!(
        all.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![ids[3], ids[2], ids[1], ids[0]]
    );
    assert_eq!(all[3].actions, 5);
    let f = |f: HistoryFilter| {
        store
            .history(&f)
            .unwrap()
            .iter()
            .map(|m| m.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        f(HistoryFilter {
            game: Some("crokinole".into()),
            ..Default::default()
        }),
        vec![ids[2]]
    );
    let dan = id_of(&store, "Dan");
    assert_eq!(
        f(HistoryFilter {
            player: Some(dan),
            ..Default::default()
        }),
        vec![ids[3]]
    );
    assert_eq!(
        f(HistoryFilter {
            status: Some("playing".into()),
            ..Default::default()
        }),
        vec![ids[3]]
    );
    assert_eq!(
        f(HistoryFilter {
            status: Some("over".into()),
            limit: Some(2),
            ..Default::default()
        }),
        vec![ids[2], ids[1]]
    );
    let page1 = store
        .history(&HistoryFilter {
            limit: Some(2),
            ..Default::default()
        })
        .unwrap();
    let last = page1.last().unwrap();
    let page2 = f(HistoryFilter {
        limit: Some(2),
        after: Some((last.started_at, last.id)),
        ..Default::default()
    });
    assert_eq!(page2, vec![ids[1], ids[0]]);
    assert_eq!(
        f(HistoryFilter {
            from: Some(i64::MAX - 1),
            ..Default::default()
        }),
        Vec::<i64>::new()
    );
    assert!(store
        .history(&HistoryFilter {
            status: Some("lost".into()),
            ..Default::default()
        })
        .is_err());
}

#[test]
fn players_rename_merge_and_archive() {
    let mut store = Store::open_in_memory().unwrap();
    let ids = small_club(&mut store);
    let bea = id_of(&store, "Bea");
    // "Beatrice" is Bea under another name in a later match.
    let m = won_at_once(&mut store, "Beatrice", "Anna");
    let beatrice = id_of(&store, "Beatrice");
    let merged = store.merge_players(bea, beatrice).unwrap();
    assert_eq!(merged.name, "Bea");
    assert!(store.search_players("Beatrice", true).unwrap().is_empty());
    let s = store.player_stats(bea, "molkky").unwrap();
    assert_eq!((s.matches, s.wins), (3, 1));
    assert_eq!(store.view(m).unwrap().sides[0], vec!["Bea"]);
    assert_eq!(
        store.merge_players(bea, bea).unwrap_err().kind,
        ErrorKind::IllegalAction
    );
    // Two who never played have still not played once merged.
    let zoe = store.add_player("Yvette").unwrap().id;
    let zo = store.add_player("Yvy").unwrap().id;
    assert_eq!(store.merge_players(zoe, zo).unwrap().last_played_at, None);

    let renamed = store.rename_player(bea, "Béa 🎯").unwrap();
    assert_eq!(renamed.name, "Béa 🎯");
    assert_eq!(store.view(ids[0]).unwrap().sides[1], vec!["Béa 🎯"]);
    assert_eq!(
        store.rename_player(bea, " ").unwrap_err().kind,
        ErrorKind::BadSetup
    );
    assert_eq!(
        store.rename_player(999, "X").unwrap_err().kind,
        ErrorKind::NotFound
    );
    store.add_player("Zed").unwrap();
    let zed2 = store.add_player("Zed2").unwrap();
    store.rename_player(zed2.id, "zed").unwrap();
    // A name already taken is allowed (two people can share it); the players screen flags
    // names that read the same and offers the merge.
    let zeds: Vec<String> = store
        .search_players("zed", false)
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(zeds.len(), 2, "{zeds:?}");
    assert!(zeds.contains(&"zed".to_string()) && zeds.contains(&"Zed".to_string()));
    // Whatever the case and the accents, in every alphabet; a search is not a pattern.
    store.add_player("Zoé Élodie").unwrap();
    store.add_player("Иван_2").unwrap();
    for (query, found) in [
        ("zoe", "Zoé Élodie"),
        ("ELODIE", "Zoé Élodie"),
        ("иВ", "Иван_2"),
        ("_", "Иван_2"),
    ] {
        let names: Vec<String> = store
            .search_players(query, false)
            .unwrap()
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names, [found], "{query}");
    }

    let dan = id_of(&store, "Dan");
    store.archive_player(dan, true).unwrap();
    assert!(store.players().unwrap().iter().all(|p| p.id != dan));
    assert!(store.search_players("Dan", false).unwrap().is_empty());
    assert_eq!(store.search_players("dan", true).unwrap().len(), 1);
    // The players' list (which asks for the archived too) can say which they are.
    assert!(store.search_players("dan", true).unwrap()[0].archived);
    assert_eq!(
        store
            .history(&HistoryFilter {
                player: Some(dan),
                ..Default::default()
            })
            .unwrap()
            .len(),
        1
    );
    store.archive_player(dan, false).unwrap();
    assert_eq!(store.search_players("Dan", false).unwrap().len(), 1);
    assert!(!store.search_players("Dan", false).unwrap()[0].archived);
    assert_eq!(
        store.search_players("%", true).unwrap().len(),
        0,
        "LIKE wildcards are literal"
    );
}

#[test]
fn a_name_a_setup_just_made_is_put_right_or_becomes_the_known_player() {
    let mut store = Store::open_in_memory().unwrap();
    let elodie = store.add_player("Élodie").unwrap().id;
    let jonh = store.add_player("Jonh").unwrap().id;
    // Renamed: the same player under the spelling put right.
    let p = store.put_right_player(jonh, "Jonh", "John").unwrap();
    assert_eq!((p.id, p.name.as_str()), (jonh, "John"));
    // Put right to a known player's name, in another case: that player, the other archived.
    let elo = store.add_player("Elo").unwrap().id;
    let p = store.put_right_player(elo, "Elo", "ÉLODIE").unwrap();
    assert_eq!((p.id, p.name.as_str()), (elodie, "Élodie"));
    assert!(store
        .search_players("Elo", true)
        .unwrap()
        .iter()
        .any(|x| x.id == elo && x.archived));
    assert!(!store.players().unwrap().iter().any(|x| x.id == elo));
    // A case of its own is a rename, not a known player.
    let ana = store.add_player("ana").unwrap().id;
    assert_eq!(store.put_right_player(ana, "ana", "Ana").unwrap().id, ana);
    // No longer as the setup made it: renamed since, archived, or played; nothing changes.
    let refused = |store: &mut Store, id, was: &str| {
        let e = store.put_right_player(id, was, "Zoé").unwrap_err();
        assert_eq!(
            (e.kind, e.code),
            (ErrorKind::IllegalAction, Some("not_put_right"))
        );
    };
    refused(&mut store, jonh, "Jonh");
    refused(&mut store, elo, "Elo");
    won_at_once(&mut store, "John", "Ana");
    refused(&mut store, jonh, "John");
    assert_eq!(
        store.put_right_player(999, "X", "Y").unwrap_err().kind,
        ErrorKind::NotFound
    );
    assert_eq!(
        store
            .put_right_player(elodie, "Élodie", " ")
            .unwrap_err()
            .kind,
        ErrorKind::BadSetup
    );
    let names: Vec<String> = store
        .players()
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert!(names.contains(&"John".to_string()) && !names.contains(&"Zoé".to_string()));
}

#[test]
fn export_then_import_into_an_empty_history_and_again() {
    let mut store = Store::open_in_memory().unwrap();
    small_club(&mut store);
    let export = store.export_all().unwrap();
    assert_eq!(export["matches"].as_array().unwrap().len(), 4);
    let first = &export["matches"][0];
    assert!(first["id"].is_string());
    assert!(first["started_at"].as_str().unwrap().ends_with('Z'));
    assert!(first["actions"][0]["at"].is_string());

    let mut other = Store::open_in_memory().unwrap();
    let text = export.to_string();
    let r = other.import(&text).unwrap();
    assert_eq!((r.imported, r.already_present), (4, 0));
    let r = other.import(&text).unwrap();
    assert_eq!(
        (r.imported, r.already_present),
        (0, 4),
        "matches carry a stable id"
    );
    let anna = id_of(&other, "Anna");
    assert_eq!(other.player_stats(anna, "molkky").unwrap(), {
        let mut s = store.player_stats(id_of(&store, "Anna"), "molkky").unwrap();
        s.player = anna;
        s
    });
    // The unfinished match can be resumed where it was.
    let unfinished = other.unfinished(5).unwrap();
    assert_eq!(unfinished.len(), 1);
    assert_eq!(
        other.view(unfinished[0].id).unwrap().summary["scores"],
        json!([5, 0])
    );
    assert_eq!(other.export_all().unwrap()["matches"], export["matches"]);

    // A single record without an id is imported once too.
    let bare = r#"{"format":1,"game":"molkkout","sides":[["A"],["B"]],"actions":[{"pins":[12]}]}"#;
    assert_eq!(other.import(bare).unwrap().imported, 1);
    assert_eq!(other.import(bare).unwrap().already_present, 1);
}

#[test]
fn bad_imports_are_refused_and_change_nothing() {
    let mut store = Store::open_in_memory().unwrap();
    small_club(&mut store);
    let before = store.export_all().unwrap()["matches"].clone();
    let good = r#"{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[]}"#;
    // The code says the refusal in the user's language: a file of a newer app is told as that
    // (update the app), not as a file that is wrong.
    for (text, why, code) in [
        ("{not json".to_string(), "not JSON", "not_json"),
        ("[1, 2]".to_string(), "not a match record", "not_record"),
        (
            r#"{"format":2,"game":"molkky","sides":[["A"],["B"]]}"#.to_string(),
            "format",
            "newer_format",
        ),
        (
            format!(r#"{{"format":2,"matches":[{good}]}}"#),
            "format 2",
            "newer_format",
        ),
        (
            r#"{"format":"1","game":"molkky","sides":[["A"],["B"]]}"#.to_string(),
            "format",
            "not_record",
        ),
        (
            format!(r#"{{"format":1,"matches":[{good},{{"format":1,"sides":[["A"],["B"]]}}]}}"#),
            "match 1",
            "not_record",
        ),
        (
            format!(r#"{{"format":1,"matches":[{good},{{"format":3,"game":"molkky"}}]}}"#),
            "match 1",
            "newer_format",
        ),
        (
            format!(
                "{{\"pad\": \"{}\"}}",
                "x".repeat(partie_core::store::MAX_IMPORT_BYTES)
            ),
            "larger",
            "too_large",
        ),
        (
            // A Mölkky match that busts forever, longer than any record is taken.
            format!(
                r#"{{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[{}]}}"#,
                vec![r#"{"pins":[12]}"#; partie_core::record::MAX_ACTIONS + 1].join(",")
            ),
            "at most 100000",
            "too_large",
        ),
    ] {
        let e = store.import_any(&text).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadRecord, "{why}");
        assert!(e.detail.contains(why), "{why}: {}", e.detail);
        assert_eq!(e.code, Some(code), "{why}: {}", e.detail);
    }
    // A rule's own code is not kept on a match of an export: its words would not say which
    // match of the file; the detail does.
    let e = store
        .import_any(&format!(
            r#"{{"format":1,"matches":[{good},{{"format":1,"game":"molkky","sides":"A and B"}}]}}"#
        ))
        .unwrap_err();
    assert_eq!(
        (e.kind, e.code),
        (ErrorKind::BadSetup, None),
        "{}",
        e.detail
    );
    assert!(e.detail.starts_with("match 1: "), "{}", e.detail);
    // A tournament's file of a newer app, the same.
    let e = store
        .import_any(r#"{"format":2,"tournament":{"game":"molkky"},"events":[]}"#)
        .unwrap_err();
    assert_eq!(
        (e.kind, e.code),
        (ErrorKind::BadRecord, Some("newer_format"))
    );
    assert_eq!(store.export_all().unwrap()["matches"], before);
}

/// A record that is one but does not replay is refused with the kind of its refusal, as
/// `partie replay` says it (issue 20): a setup value of the wrong JSON type is `bad_setup`, a
/// malformed action `bad_action`; nothing is written.
#[test]
fn imports_refuse_a_record_that_does_not_replay_with_its_kind() {
    let mut store = Store::open_in_memory().unwrap();
    small_club(&mut store);
    let before = store.export_all().unwrap()["matches"].clone();
    let good = r#"{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[]}"#;
    for (record, kind) in [
        (
            r#"{"format":1,"game":"morris","rules":[],"sides":[["Jo"],["Kia"]],"actions":[]}"#,
            ErrorKind::BadSetup,
        ),
        (
            r#"{"format":1,"game":"morris","rules":null,"sides":[["Jo"],["Kia"]]}"#,
            ErrorKind::BadSetup,
        ),
        (
            r#"{"format":1,"game":"morris","sides":"Jo and Kia"}"#,
            ErrorKind::BadSetup,
        ),
        (
            r#"{"format":1,"game":"molkky","rules":{"best_of":4},"sides":[["A"],["B"]]}"#,
            ErrorKind::BadSetup,
        ),
        (
            r#"{"format":1,"game":"chess","sides":[]}"#,
            ErrorKind::BadSetup,
        ),
        (
            r#"{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[13]}]}"#,
            ErrorKind::BadAction,
        ),
        (
            r#"{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[],"foul":null}]}"#,
            ErrorKind::BadAction,
        ),
        (
            r#"{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[1],"twenty":0}]}"#,
            ErrorKind::BadAction,
        ),
        (
            r#"{"format":1,"game":"boulomania","sides":[["A"],["B"]],"actions":[{"jack":3,"point":[3,4]}]}"#,
            ErrorKind::BadAction,
        ),
        (
            r#"{"format":1,"game":"boulomania","sides":[["A"],["B"]],"actions":[{"jack":3},{"point":[3,5],"to":null}]}"#,
            ErrorKind::BadAction,
        ),
    ] {
        for text in [
            record.to_string(),
            format!(r#"{{"format":1,"matches":[{good},{record}]}}"#),
        ] {
            let e = store.import(&text).unwrap_err();
            assert_eq!(e.kind, kind, "{text}: {}", e.detail);
        }
    }
    // Not a record at all stays bad_record, whatever its setup.
    let e = store
        .import(r#"{"format":1,"rules":[],"sides":"x"}"#)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadRecord, "{}", e.detail);
    assert_eq!(store.export_all().unwrap()["matches"], before);
}

#[test]
fn csv_has_a_row_per_side() {
    let mut store = Store::open_in_memory().unwrap();
    small_club(&mut store);
    store
        .rename_player(id_of(&store, "Dan"), "Dan, \"the man\"")
        .unwrap();
    let csv = store.export_csv().unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "match,game,started_at,finished_at,status,side,players,score,result"
    );
    assert_eq!(lines.len(), 1 + 8);
    assert!(
        lines[1].contains(",molkky,") && lines[1].ends_with(",0,Anna,10,won"),
        "{}",
        lines[1]
    );
    assert!(lines[6].ends_with(",1,Bea & Cleo,65,won"), "{}", lines[6]);
    assert!(
        lines[8].contains("\"Dan, \"\"the man\"\"\""),
        "{}",
        lines[8]
    );
    // A match being played gives its scores so far, and no result.
    let sides = [vec!["Anna".to_string()], vec!["Bea".to_string()]];
    let m = store
        .new_match("molkky", &Default::default(), &sides)
        .unwrap();
    store.play(m.id, &json!({"pins": [7]})).unwrap();
    let csv = store.export_csv().unwrap();
    let last: Vec<&str> = csv.lines().rev().take(2).collect();
    assert!(last[1].ends_with(",playing,0,Anna,7,"), "{}", last[1]);
    assert!(last[0].ends_with(",playing,1,Bea,0,"), "{}", last[0]);
}

#[test]
fn backup_and_restore() {
    let dir = tempfile::tempdir().unwrap();
    let (mut store, _) = Store::open(&dir.path().join("partie.db")).unwrap();
    small_club(&mut store);
    let saved = dir.path().join("backup.db");
    store.backup_to(&saved).unwrap();
    assert_eq!(
        store.backup_to(&saved).unwrap_err().code,
        Some("file_exists")
    );
    assert!(!partie_core::file::part_of(&saved).exists());
    // A backup that cannot be made whole leaves nothing under its name to be restored later
    // (it was written straight to its name, cut short by a kill or a full disk).
    let cut = dir.path().join("cut.db");
    std::fs::create_dir(partie_core::file::part_of(&cut)).unwrap();
    assert_eq!(store.backup_to(&cut).unwrap_err().kind, ErrorKind::Storage);
    assert!(!cut.exists());
    // A part left by a backup killed on its way is no obstacle to the next.
    std::fs::remove_dir(partie_core::file::part_of(&cut)).unwrap();
    std::fs::write(partie_core::file::part_of(&cut), b"half a database").unwrap();
    store.backup_to(&cut).unwrap();
    assert!(!partie_core::file::part_of(&cut).exists());
    assert!(Store::open(&cut).is_ok());
    let before = store.export_all().unwrap()["matches"].clone();

    let m = store
        .new_match("molkkout", &Map::new(), &sides(&[&["X"], &["Y"]]))
        .unwrap()
        .id;
    store.play(m, &pins(&[12])).unwrap();
    let name = store.hub_name().unwrap();
    store.restore_from(&saved).unwrap();
    assert_eq!(store.export_all().unwrap()["matches"], before);
    assert_eq!(store.view(m).unwrap_err().kind, ErrorKind::NotFound);
    // The restored history is not the hub a phone last pulled from: a new name for its cursors.
    let restored = store.hub_name().unwrap();
    assert_eq!(restored.len(), 16);
    assert_ne!(restored, name);

    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"not a database at all, sorry".repeat(100)).unwrap();
    assert_eq!(
        store.restore_from(&junk).unwrap_err().kind,
        ErrorKind::BadRecord
    );
    let other = dir.path().join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); PRAGMA user_version = 1;")
        .unwrap();
    assert_eq!(
        store.restore_from(&other).unwrap_err().code,
        Some("not_backup")
    );
    let newer = dir.path().join("newer.db");
    Connection::open(&newer)
        .unwrap()
        .execute_batch("CREATE TABLE match (x); PRAGMA user_version = 99;")
        .unwrap();
    assert_eq!(
        store.restore_from(&newer).unwrap_err().code,
        Some("database_too_new")
    );
    // An old-looking file with a table named match and nothing else: it cannot be brought up
    // to date, and it is refused before anything is replaced (it used to replace the history,
    // then fail).
    let hollow = dir.path().join("hollow.db");
    Connection::open(&hollow)
        .unwrap()
        .execute_batch("CREATE TABLE match (x); PRAGMA user_version = 1;")
        .unwrap();
    assert_eq!(
        store.restore_from(&hollow).unwrap_err().code,
        Some("not_backup")
    );
    // A real backup with a side number made up: refused, not a list of a billion sides.
    let odd = dir.path().join("odd.db");
    std::fs::copy(&saved, &odd).unwrap();
    Connection::open(&odd)
        .unwrap()
        .execute_batch("UPDATE match_player SET side = 1000000000 WHERE side = 1;")
        .unwrap();
    assert_eq!(
        store.restore_from(&odd).unwrap_err().code,
        Some("not_backup")
    );
    // The same in the players' figures alone (kept as they are at the current schema): the
    // leaderboard and the CSV export would size lists by it, or index past them with -1.
    for side in ["4000000000", "-1"] {
        std::fs::copy(&saved, &odd).unwrap();
        Connection::open(&odd)
            .unwrap()
            .execute_batch(&format!(
                "UPDATE player_stats SET side = {side} WHERE side = 1;"
            ))
            .unwrap();
        assert_eq!(
            store.restore_from(&odd).unwrap_err().code,
            Some("not_backup"),
            "{side}"
        );
    }
    // A real backup that brings code of its own: a trigger that would run on every throw
    // from then on (here one that never ends), a view in the place of a table.
    for code in [
        "CREATE TRIGGER forever AFTER INSERT ON action BEGIN
             SELECT count(*) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
                                   SELECT i FROM n);
         END;",
        "DROP TRIGGER sync_action_added;
         CREATE TRIGGER sync_action_added AFTER INSERT ON action BEGIN SELECT 1; END;",
        "ALTER TABLE match_player RENAME TO seats;
         CREATE VIEW match_player AS SELECT * FROM seats;",
    ] {
        std::fs::copy(&saved, &odd).unwrap();
        Connection::open(&odd).unwrap().execute_batch(code).unwrap();
        let e = store.restore_from(&odd).unwrap_err();
        assert_eq!(e.code, Some("not_backup"), "{code}");
        assert!(e.detail.contains("triggers or views"), "{}", e.detail);
    }
    // Nothing is left beside the database by a restore, refused or not.
    let aside = |dir: &std::path::Path| {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("restoring"))
            .collect::<Vec<_>>()
    };
    assert_eq!(aside(dir.path()), Vec::<String>::new());
    assert_eq!(
        store.export_all().unwrap()["matches"],
        before,
        "refused restores change nothing"
    );
    // A backup of an older app (schema 8: the first sync triggers, since replaced) is the
    // app's own code at its version, and is restored.
    let old = dir.path().join("old.db");
    {
        let mut conn = Connection::open(&old).unwrap();
        migrations::migrate_to(&mut conn, 8).unwrap();
    }
    store.restore_from(&old).unwrap();
    assert_eq!(store.export_all().unwrap()["matches"], json!([]));
    assert_eq!(aside(dir.path()), Vec::<String>::new());
    store.restore_from(&saved).unwrap();
    assert_eq!(store.export_all().unwrap()["matches"], before);
    // A copy left by a restore killed in the middle, as the restore names it, is removed at
    // the app's next start.
    let db = dir.path().join("partie.db");
    let left = format!("{}.restoring", db.display());
    std::fs::copy(&saved, &left).unwrap();
    std::fs::write(format!("{left}-wal"), b"wal").unwrap();
    Store::remove_unfinished_restore(&db);
    assert_eq!(aside(dir.path()), Vec::<String>::new());
    // The store still takes a match after them.
    let m = store
        .new_match("molkkout", &Map::new(), &sides(&[&["X"], &["Y"]]))
        .unwrap();
    store.play(m.id, &pins(&[12])).unwrap();
    // The restored file is whole on disk, in WAL mode, and opens again with what it held.
    drop(store);
    let (mut store, _) = Store::open(&dir.path().join("partie.db")).unwrap();
    assert_eq!(store.view(m.id).unwrap().actions, 1);
    let mode: String = Connection::open(dir.path().join("partie.db"))
        .unwrap()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

/// A file at schema 2 (before the figures were kept) with one finished match Anna won.
fn schema_2_file(path: &std::path::Path) {
    let mut conn = Connection::open(path).unwrap();
    migrations::migrate_to(&mut conn, 2).unwrap();
    conn.execute_batch(
        "INSERT INTO player (id, name, created_at) VALUES (1, 'Anna', 1), (2, 'Bea', 1);
         INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, finished_at, status, winner)
             VALUES (1, 'old-1', 'molkky', 1, '{\"target\":10}', 1, 3, 3, 'won', 0);
         INSERT INTO match_player VALUES (1, 0, 0, 1, 'Anna'), (1, 1, 0, 2, 'Bea');
         INSERT INTO action VALUES (1, 0, '{\"pins\":[4]}', 2), (1, 1, '{\"pins\":[]}', 2), (1, 2, '{\"pins\":[6]}', 3);",
    )
    .unwrap();
}

#[test]
fn upgrading_a_schema_2_file_derives_the_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.db");
    schema_2_file(&path);
    let (store, _) = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), migrations::latest());
    let s = store.player_stats(1, "molkky").unwrap();
    assert_eq!((s.matches, s.wins), (1, 1));
    assert_eq!(s.totals["points"], 10);
}

/// An upgrade killed once its migrations were committed but before the figures were derived
/// (a long history, the app closed on the way) derives them at the next start: they were
/// decided from the version found, which the migrations had moved on, and never came.
#[test]
fn an_upgrade_killed_before_its_figures_were_derived_derives_them_at_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.db");
    schema_2_file(&path);
    migrations::migrate(&mut Connection::open(&path).unwrap()).unwrap();
    let (store, _) = Store::open(&path).unwrap();
    let s = store.player_stats(1, "molkky").unwrap();
    assert_eq!((s.matches, s.wins), (1, 1));
    let pending: i64 = Connection::open(&path)
        .unwrap()
        .query_row("SELECT count(*) FROM derive_pending", [], |r| r.get(0))
        .unwrap();
    assert_eq!(pending, 0);
}

/// A file whose schema number is negative is another program's: refused, not taken for an
/// empty Partie database that every command then fails on.
#[test]
fn a_file_with_a_negative_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); PRAGMA user_version = -3;")
        .unwrap();
    let e = Store::open(&path).map(|_| ()).unwrap_err();
    assert_eq!(
        (e.kind, e.code),
        (partie_core::ErrorKind::Storage, Some("not_partie_database")),
        "{e:?}"
    );
    // Left as it was: not even put into the app's journal mode.
    let mode: String = Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");
}

#[test]
fn upgrading_a_schema_17_file_counts_a_player_on_two_sides_as_the_ratings_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v17.db");
    {
        let (mut store, _) = Store::open(&path).unwrap();
        for (sides, actions) in [
            (json!([["Anna"], ["Bea"]]), json!([{"pins": [10]}])),
            (json!([["Anna"], ["anna"]]), json!([{"pins": [10]}])),
            (
                json!([["Anna", "anna"], ["Bea"]]),
                json!([{"pins": [3]}, {"pins": [1]}, {"pins": [7]}]),
            ),
        ] {
            let record = json!({"format": 1, "game": "molkky", "rules": {"target": 10},
                                "sides": sides, "actions": actions});
            store.import(&record.to_string()).unwrap();
        }
    }
    // The file as schema 17 left it: no `counts`, the leaderboard's index without it (and no
    // table of a later migration).
    Connection::open(&path)
        .unwrap()
        .execute_batch(
            "DROP TABLE club_refused;
             DROP TABLE derive_pending;
             DROP INDEX player_stats_by_game;
             ALTER TABLE player_stats DROP COLUMN counts;
             CREATE INDEX player_stats_by_game ON player_stats(game, player_id, result);
             PRAGMA user_version = 17;",
        )
        .unwrap();
    let (store, _) = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), migrations::latest());
    let anna = id_of(&store, "Anna");
    let s = store.player_stats(anna, "molkky").unwrap();
    assert_eq!((s.matches, s.wins, s.losses), (2, 2, 0));
    assert_eq!(s.totals["points"], 20);
    let board = store.leaderboard("molkky", 10).unwrap();
    assert_eq!(
        (board[0].1.as_str(), board[0].2, board[0].3),
        ("Anna", 2, 2)
    );
}

#[test]
fn import_keeps_the_records_own_times() {
    let mut store = Store::open_in_memory().unwrap();
    let actions: Vec<Value> = [12, 4, 4, 4, 4, 4]
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"pins": [p], "at": format!("2026-06-01T14:0{i}:00.000Z")}))
        .collect();
    let rec = json!({
        "format": 1, "game": "molkkout", "sides": [["A"], ["B"]], "id": "club-42",
        "started_at": "2026-06-01T14:00:00.000Z", "finished_at": "2026-06-01T14:09:30.000Z",
        "actions": actions
    });
    assert_eq!(store.import(&rec.to_string()).unwrap().imported, 1);
    let out = store.export_all().unwrap();
    let m = &out["matches"][0];
    assert_eq!(m["id"], "club-42");
    assert_eq!(m["started_at"], "2026-06-01T14:00:00.000Z");
    assert_eq!(m["finished_at"], "2026-06-01T14:09:30.000Z");
    assert_eq!(m["actions"][5]["at"], "2026-06-01T14:05:00.000Z");
    assert_eq!(m["actions"], rec["actions"]);
    assert!(m.get("place").is_none());
}

#[test]
fn notes_on_a_match_travel_with_its_record() {
    let mut store = Store::open_in_memory().unwrap();
    let ids = small_club(&mut store);
    store
        .set_notes(ids[0], " Parc de la Tête d'Or ", "windy; Bea's first game")
        .unwrap();
    assert_eq!(
        store.notes(ids[0]).unwrap(),
        (
            Some("Parc de la Tête d'Or".into()),
            Some("windy; Bea's first game".into())
        )
    );
    assert_eq!(
        store.set_notes(999, "x", "").unwrap_err().kind,
        ErrorKind::NotFound
    );
    assert_eq!(
        store
            .set_notes(ids[0], &"x".repeat(201), "")
            .unwrap_err()
            .kind,
        ErrorKind::BadSetup
    );
    let record = store.export_match(ids[0]).unwrap();
    assert_eq!(record["place"], "Parc de la Tête d'Or");
    let mut other = Store::open_in_memory().unwrap();
    other.import(&record.to_string()).unwrap();
    let id = other.history(&HistoryFilter::default()).unwrap()[0].id;
    assert_eq!(
        other.notes(id).unwrap().1.as_deref(),
        Some("windy; Bea's first game")
    );
    store.set_notes(ids[0], "", "").unwrap();
    assert_eq!(store.notes(ids[0]).unwrap(), (None, None));
}

#[test]
fn morris_results_are_counted_against_people_and_each_computer_level() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.db");
    let (mut store, _) = Store::open(&path).unwrap();
    let vs_computer: partie_core::store::Computer = [(1usize, 2u8)].into_iter().collect();
    let game = ["a1", "d6", "a4", "f4", "a7", "xd6"];
    let m = store
        .new_match_against(
            "morris",
            &rules(json!({"pieces": 3})),
            &sides(&[&["Ann"], &["Computer"]]),
            &vs_computer,
        )
        .unwrap();
    for t in game {
        store.play(m.id, &json!(t)).unwrap();
    }
    let m = store
        .new_match("morris", &rules(json!({})), &sides(&[&["Ann"], &["Ben"]]))
        .unwrap();
    store.play(m.id, &json!("d6")).unwrap();
    store.play(m.id, &json!("1/2-1/2")).unwrap();
    let ann = store.search_players("Ann", false).unwrap()[0].id;
    let s = store.player_stats(ann, "morris").unwrap();
    assert_eq!((s.matches, s.wins, s.draws, s.losses), (2, 1, 1, 0));
    assert_eq!(s.totals["vs_level_2_won"], 1);
    assert_eq!(s.totals["vs_people_drawn"], 1);
    assert_eq!(s.totals["removed"], 1);
    // The computer's own figures stay (its seat is a player of the history), apart from the
    // people's: it is in no list nor on the leaderboard.
    let computer = machines(&path)[0];
    assert_eq!(
        store.player_stats(computer, "morris").unwrap().totals["vs_people_lost"],
        1
    );
    assert!(store.search_players("Computer", true).unwrap().is_empty());
}

/// The ids of the players the computer was seated as, oldest first.
fn machines(path: &std::path::Path) -> Vec<i64> {
    let conn = Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare("SELECT id FROM player WHERE machine = 1 ORDER BY id")
        .unwrap();
    let ids = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<Vec<i64>, _>>()
        .unwrap();
    ids
}

/// A Morris match of three pieces a side that Ann (side 0) wins against the computer at
/// level 2 seated as `computer_name`.
fn ann_beats_the_computer(store: &mut Store, computer_name: &str) -> i64 {
    let vs: partie_core::store::Computer = [(1usize, 2u8)].into_iter().collect();
    let m = store
        .new_match_against(
            "morris",
            &rules(json!({"pieces": 3})),
            &sides(&[&["Ann"], &[computer_name]]),
            &vs,
        )
        .unwrap();
    for t in ["a1", "d6", "a4", "f4", "a7", "xd6"] {
        store.play(m.id, &json!(t)).unwrap();
    }
    m.id
}

#[test]
fn the_computer_is_in_no_picker_list_or_leaderboard_and_is_seated_again_as_itself() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.db");
    let (mut store, _) = Store::open(&path).unwrap();
    let first = ann_beats_the_computer(&mut store, "Computer");
    ann_beats_the_computer(&mut store, "Computer");
    // Two matches, one computer: found again by the second, never offered as a person.
    let machine = machines(&path);
    assert_eq!(machine.len(), 1, "{machine:?}");
    let names =
        |ps: Vec<partie_core::store::Player>| ps.into_iter().map(|p| p.name).collect::<Vec<_>>();
    assert_eq!(names(store.players().unwrap()), ["Ann"]);
    assert_eq!(names(store.search_players("", true).unwrap()), ["Ann"]);
    let board = store.leaderboard("morris", 10).unwrap();
    assert_eq!(board.len(), 1);
    assert_eq!((board[0].1.as_str(), board[0].2, board[0].3), ("Ann", 2, 2));
    // The history still says who played.
    assert_eq!(
        store.view(first).unwrap().sides,
        sides(&[&["Ann"], &["Computer"]])
    );

    // A person called Computer is someone else, and can play a person's match.
    let person = store.add_player("computer").unwrap();
    assert_ne!(person.id, machine[0]);
    assert_eq!(names(store.players().unwrap()), ["computer", "Ann"]);
    let m = store
        .new_match("molkky", &Map::new(), &sides(&[&["Ann"], &["Computer"]]))
        .unwrap();
    store.play(m.id, &pins(&[12])).unwrap();
    assert_eq!(machines(&path), machine);
    assert_eq!(store.player_stats(machine[0], "molkky").unwrap().matches, 0);
    // Nobody is the computer's other name.
    for (kept, gone) in [(person.id, machine[0]), (machine[0], person.id)] {
        let e = store.merge_players(kept, gone).unwrap_err();
        assert_eq!(
            (e.kind, e.code),
            (ErrorKind::IllegalAction, Some("merge_machine"))
        );
    }
    assert_eq!(machines(&path), machine);

    // The computer of another language is another seat, kept apart as well.
    ann_beats_the_computer(&mut store, "Ordinateur");
    assert_eq!(machines(&path).len(), 2);
    assert_eq!(names(store.players().unwrap()), ["Ann", "computer"]);

    // A match against the computer made elsewhere seats the computer there too.
    let exported = store.export_match(first).unwrap();
    let other_path = dir.path().join("b.db");
    let (mut other, _) = Store::open(&other_path).unwrap();
    other.add_player("Computer").unwrap();
    other.import(&exported.to_string()).unwrap();
    assert_eq!(machines(&other_path).len(), 1);
    assert_eq!(names(other.players().unwrap()), ["Computer", "Ann"]);
    let board = other.leaderboard("morris", 10).unwrap();
    assert_eq!(
        board.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(),
        ["Ann"]
    );
}

#[test]
fn an_older_file_keeps_apart_the_players_seated_only_for_the_computer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v16.db");
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations::migrate_to(&mut conn, 16).unwrap();
        // Computer sat only at the computer's sides; Zed at the computer's side 0 once; Bob at
        // a computer's side and at a person's; Ann only as a person.
        conn.execute_batch(
            "INSERT INTO player (id, name, created_at) VALUES
                 (1, 'Ann', 1), (2, 'Computer', 1), (3, 'Bob', 1), (4, 'Zed', 1);
             INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, status, computer, writer) VALUES
                 (1, 'm1', 'morris', 1, '{}', 1, 1, 'playing', '{\"1\":2}', 1),
                 (2, 'm2', 'morris', 1, '{}', 1, 1, 'playing', NULL, 1),
                 (3, 'm3', 'morris', 1, '{}', 1, 1, 'playing', '{\"0\":1}', 1),
                 (4, 'm4', 'morris', 1, '{}', 1, 1, 'playing', '{\"1\":5}', 1);
             INSERT INTO match_player (match_id, side, seat, player_id, name) VALUES
                 (1, 0, 0, 1, 'Ann'), (1, 1, 0, 2, 'Computer'),
                 (2, 0, 0, 1, 'Ann'), (2, 1, 0, 3, 'Bob'),
                 (3, 0, 0, 4, 'Zed'), (3, 1, 0, 3, 'Bob'),
                 (4, 0, 0, 1, 'Ann'), (4, 1, 0, 3, 'Bob');",
        )
        .unwrap();
    }
    let (mut store, _) = Store::open(&path).unwrap();
    assert_eq!(machines(&path), [2, 4]);
    let mut known: Vec<String> = store
        .players()
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    known.sort();
    assert_eq!(known, ["Ann", "Bob"]);
    // The next match against the computer sits it where it sat before.
    ann_beats_the_computer(&mut store, "Computer");
    assert_eq!(machines(&path), [2, 4]);
}

#[test]
fn a_match_replays_step_by_step_and_a_player_has_a_series() {
    let mut store = Store::open_in_memory().unwrap();
    let m = store
        .new_match(
            "molkky",
            &rules(json!({"target": 12})),
            &sides(&[&["Ann"], &["Ben"]]),
        )
        .unwrap();
    for pins in [json!([5]), json!([]), json!([7])] {
        store.play(m.id, &json!({ "pins": pins })).unwrap();
    }
    let steps: Vec<Value> = (0..=3)
        .map(|n| store.summary_at(m.id, n).unwrap()["summary"]["scores"].clone())
        .collect();
    assert_eq!(
        steps,
        [json!([0, 0]), json!([5, 0]), json!([5, 0]), json!([12, 0])]
    );
    assert_eq!(store.summary_at(m.id, 0).unwrap()["action"], Value::Null);
    assert_eq!(
        store.summary_at(m.id, 4).unwrap_err().kind,
        ErrorKind::NotFound
    );
    let ann = store.search_players("Ann", false).unwrap()[0].id;
    let series = store.player_series(ann, "molkky", 30).unwrap();
    assert_eq!(series.len(), 1);
    assert_eq!(series[0]["result"], "won");
    assert_eq!(series[0]["counters"]["throws"], 2);
    assert_eq!(series[0]["counters"]["points"], 12);
}

#[test]
fn boulomania_figures_count_menes_points_and_carreaux() {
    let mut store = Store::open_in_memory().unwrap();
    let m = store
        .new_match(
            "boulomania",
            &rules(json!({"balls": 2, "target": 1})),
            &sides(&[&["Ann"], &["Ben"]]),
        )
        .unwrap();
    // Ann on 7; Ben's carreau takes 7; Ann's last ball lost; Ben's last ball lost: Ben 1 point.
    for a in [
        json!({"jack": 3}),
        json!({"point": [3, 4]}),
        json!({"shoot": 7, "die": 6}),
        json!({"point": [1, 2]}),
        json!({"point": [1, 1, 1]}),
    ] {
        store.play(m.id, &a).unwrap();
    }
    assert_eq!(store.view(m.id).unwrap().summary["winner"], 1);
    let ben = store.search_players("Ben", false).unwrap()[0].id;
    let s = store.player_stats(ben, "boulomania").unwrap();
    assert_eq!(s.totals["carreaux"], 1);
    assert_eq!(s.totals["menes_won"], 1);
    assert_eq!(s.totals["mene_points"], 1);
    assert_eq!(s.rates["points_per_mene"], 1.0);
    let ann = store.search_players("Ann", false).unwrap()[0].id;
    assert_eq!(
        store.player_stats(ann, "boulomania").unwrap().totals["carreaux"],
        0
    );
}

/// A match at the most actions a record holds takes no more here either: its file would not
/// import, nor its push be taken.
#[test]
fn a_match_at_the_most_actions_a_record_holds_takes_no_more() {
    let mut store = Store::open_in_memory().unwrap();
    let most = partie_core::record::MAX_ACTIONS;
    // Mölkky 12s bust for ever: 48 + 12 goes back to 25, and 25 + 12 + 12 is 49.
    let text = format!(
        r#"{{"format":1,"id":"endless","game":"molkky","sides":[["A"],["B"]],"actions":[{}]}}"#,
        vec![r#"{"pins":[12]}"#; most].join(",")
    );
    store.import_as(&text, true).unwrap();
    let id = store.unfinished(1).unwrap()[0].id;
    assert_eq!(store.view(id).unwrap().actions, most);
    let e = store.play(id, &json!({"pins": [12]})).unwrap_err();
    assert_eq!(e.kind, ErrorKind::IllegalAction);
    assert_eq!(e.code, Some("too_many_actions"));
    assert_eq!(store.view(id).unwrap().actions, most);
    // Taking one back leaves room for one more.
    store.undo(id).unwrap();
    store.play(id, &json!({"pins": [12]})).unwrap();
}
