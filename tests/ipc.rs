//! The app's commands through Tauri's IPC, as the UI calls them (camelCase keys, `{kind,
//! detail}` errors), on a mock runtime with a real database file.

use partie_app::{with_commands, AppState, SettingsFile};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{mock_builder, mock_context, noop_assets, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::{Manager, WebviewWindow};

struct Harness {
    _dir: tempfile::TempDir,
    db: std::path::PathBuf,
    _app: tauri::App<MockRuntime>,
    window: WebviewWindow<MockRuntime>,
}

fn harness() -> Harness {
    harness_with(|_| {})
}

/// A harness whose database file is first prepared by `prepare` (given its path).
fn harness_with(prepare: impl FnOnce(&std::path::Path)) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("partie.db");
    prepare(&db);
    let app = with_commands(mock_builder())
        .build(mock_context(noop_assets()))
        .unwrap();
    app.manage(AppState::open(db.clone()));
    app.manage(SettingsFile(dir.path().join("settings.json")));
    let window = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    Harness {
        _dir: dir,
        db,
        _app: app,
        window,
    }
}

/// A command called on `window` as the UI calls it.
fn call_on(window: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    tauri::test::get_ipc_response(
        window,
        InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        },
    )
    .map(|b| b.deserialize::<Value>().unwrap())
}

/// A refusal's kind and code, to be compared in one assertion.
fn kind_code(refusal: &Value) -> (&str, &str) {
    (
        refusal["kind"].as_str().unwrap_or("(no kind)"),
        refusal["code"].as_str().unwrap_or("(no code)"),
    )
}

impl Harness {
    fn call(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        call_on(&self.window, cmd, args)
    }

    /// A new Mölkky match to 10 points, Anna against Bea: its id.
    fn anna_against_bea_to_ten(&self) -> i64 {
        let m = self
            .call(
                "new_match",
                json!({"game": "molkky", "rules": {"target": 10}, "sides": [["Anna"], ["Bea"]]}),
            )
            .unwrap();
        m["id"].as_i64().unwrap()
    }

    /// Waits until `n` of the computer's thinks are under way (each Stop-able).
    fn until_thinking(&self, n: usize) {
        let until = Instant::now() + Duration::from_secs(10);
        while self.window.state::<AppState>().thinking() != n {
            assert!(Instant::now() < until, "never {n} thinks under way");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// What the club-night screen is told about this device.
    fn club_status(&self) -> Value {
        self.call("club_status", json!({})).unwrap()
    }

    fn actions_on_disk(&self) -> i64 {
        rusqlite::Connection::open(&self.db)
            .unwrap()
            .query_row("SELECT count(*) FROM action", [], |r| r.get(0))
            .unwrap()
    }
}

#[test]
fn a_game_through_the_commands() {
    let h = harness();
    assert_eq!(h.call("app_status", json!({})).unwrap()["database"], "ok");
    let m = h
        .call("new_match", json!({"game": "molkky", "rules": {"target": 10}, "sides": [["Anna"], ["Bea", "Cyril"]]}))
        .unwrap();
    let id = m["id"].as_i64().unwrap();
    assert_eq!(m["summary"]["thrower"], "Anna");

    let v = h
        .call("play", json!({"matchId": id, "action": {"pins": [7]}}))
        .unwrap();
    assert_eq!(v["summary"]["scores"], json!([7, 0]));
    assert_eq!(h.actions_on_disk(), 1, "committed before the answer");

    let p = h
        .call(
            "preview",
            json!({"matchId": id, "action": {"pins": [3, 9]}}),
        )
        .unwrap();
    assert_eq!(p["last_throw"]["points"], 2);
    assert_eq!(h.actions_on_disk(), 1, "a preview writes nothing");

    let v = h.call("undo", json!({"matchId": id})).unwrap();
    assert_eq!(v["summary"]["scores"], json!([0, 0]));
    assert_eq!(h.actions_on_disk(), 0);

    let home = h.call("home", json!({})).unwrap();
    assert_eq!(home["unfinished"][0]["id"], id);
    let players = h.call("list_players", json!({})).unwrap();
    assert_eq!(players.as_array().unwrap().len(), 3);
}

#[test]
fn errors_are_typed_and_write_nothing() {
    let h = harness();
    let m = h
        .call(
            "new_match",
            json!({"game": "molkky", "rules": {}, "sides": [["A"], ["B"]]}),
        )
        .unwrap();
    let id = m["id"].as_i64().unwrap();

    let e = h
        .call("play", json!({"matchId": id, "action": {"pins": [13]}}))
        .unwrap_err();
    assert_eq!(e["kind"], "bad_action");
    assert_eq!(e["code"], "no_such_pin");
    assert!(e["detail"].as_str().unwrap().contains("13"));

    let e = h
        .call("play", json!({"matchId": 404, "action": {"pins": [1]}}))
        .unwrap_err();
    assert_eq!(e["kind"], "not_found");

    let e = h.call("undo", json!({"matchId": id})).unwrap_err();
    assert_eq!(e["kind"], "illegal_action");
    assert_eq!(e["code"], "nothing_to_undo");

    let e = h
        .call(
            "new_match",
            json!({"game": "molkky", "rules": {"best_of": 4}, "sides": [["A"], ["B"]]}),
        )
        .unwrap_err();
    assert_eq!(e["kind"], "bad_setup");
    let e = h.call("add_player", json!({"name": "   "})).unwrap_err();
    assert_eq!(e["kind"], "bad_setup");
    assert_eq!(h.actions_on_disk(), 0);

    // Arguments of the wrong type are refused by the IPC layer, never a crash; a setup value of
    // the wrong JSON type (or null) is bad_setup, as in a record (records.md section 4).
    assert!(h
        .call("play", json!({"matchId": "one", "action": {"pins": [1]}}))
        .is_err());
    for (rules, sides) in [
        (json!([]), json!([["A"], ["B"]])),
        (json!(null), json!([["A"], ["B"]])),
        (json!({}), json!("Anna")),
        (json!({}), json!([["A"], [7]])),
    ] {
        let e = h
            .call(
                "new_match",
                json!({"game": "molkky", "rules": rules, "sides": sides}),
            )
            .unwrap_err();
        assert_eq!(e["kind"], "bad_setup", "{rules} {sides}: {e}");
    }
    let e = h
        .call(
            "import_moves",
            json!({"text": "1. a1 d6", "rules": 5, "sides": [["Ann"], ["Ben"]]}),
        )
        .unwrap_err();
    assert_eq!(e["kind"], "bad_setup");
    // Two action keys, or a foul given as null: bad_action, nothing played.
    for action in [
        json!({"pins": [1], "twenty": 0}),
        json!({"pins": [], "foul": null}),
    ] {
        let e = h
            .call("play", json!({"matchId": id, "action": action}))
            .unwrap_err();
        assert_eq!(e["kind"], "bad_action", "{action}");
    }
    assert_eq!(h.actions_on_disk(), 0);
}

/// The games the screens load (one module each), in the home screen's order, each with its
/// game_info.
#[test]
fn games_lists_every_game_with_its_info() {
    let h = harness();
    let games = h.call("games", json!({})).unwrap();
    assert_eq!(
        games,
        json!(["molkky", "molkkout", "crokinole", "morris", "boulomania"])
    );
    for g in games.as_array().unwrap() {
        let info = h.call("game_info", json!({ "game": g })).unwrap();
        assert!(info["options"].is_object(), "{g}: {info}");
    }
}

#[test]
fn check_rules_says_which_rule_is_refused_as_start_would() {
    let h = harness();
    let ok = h.call(
        "check_rules",
        json!({"game": "molkky", "rules": {"target": 12, "bust_to": 6}}),
    );
    assert_eq!(ok.unwrap(), Value::Null);
    let e = h
        .call(
            "check_rules",
            json!({"game": "molkky", "rules": {"target": 12, "bust_to": 20}}),
        )
        .unwrap_err();
    assert_eq!(kind_code(&e), ("bad_setup", "bust_to_range"));
    let e = h
        .call(
            "check_rules",
            json!({"game": "crokinole", "rules": {"target": 12}}),
        )
        .unwrap_err();
    assert_eq!(e["code"], "target_multiple");
    let e = h
        .call("check_rules", json!({"game": "molkky", "rules": [1]}))
        .unwrap_err();
    assert_eq!(e["kind"], "bad_setup", "{e}");
}

#[test]
fn a_match_from_elsewhere_is_scored_here_only_once_taken_over() {
    let h = harness();
    let record = json!({"format": 1, "id": "from-anna", "revision": 1, "game": "molkky",
                        "sides": [["Anna"], ["Bea"]], "actions": [{"pins": [5]}]});
    h.call("import_records", json!({"text": record.to_string()}))
        .unwrap();
    let home = h.call("home", json!({})).unwrap();
    let listed = &home["unfinished"][0];
    assert_eq!(listed["writer"], false, "{home}");
    let id = listed["id"].as_i64().unwrap();
    let e = h
        .call("play", json!({"matchId": id, "action": {"pins": [3]}}))
        .unwrap_err();
    assert_eq!(kind_code(&e), ("illegal_action", "scored_elsewhere"));
    let view = h.call("take_over", json!({"matchId": id})).unwrap();
    assert_eq!(view["writer"], true);
    let played = h
        .call("play", json!({"matchId": id, "action": {"pins": [3]}}))
        .unwrap();
    assert_eq!(played["actions"], 2);
    assert_eq!(
        h.call("take_over", json!({"matchId": 999})).unwrap_err()["kind"],
        "not_found"
    );
    // A discard taken back comes back as this device's own.
    let kept = h.call("discard_match", json!({"matchId": id})).unwrap();
    assert_eq!(
        h.call("discard_match", json!({"matchId": id})).unwrap_err()["kind"],
        "not_found"
    );
    h.call(
        "import_records",
        json!({"text": kept.to_string(), "writer": true}),
    )
    .unwrap();
    let home = h.call("home", json!({})).unwrap();
    assert_eq!(home["unfinished"][0]["writer"], true, "{home}");
}

#[test]
fn game_info_gives_the_formation() {
    let h = harness();
    let info = h.call("game_info", json!({"game": "molkky"})).unwrap();
    assert_eq!(
        info["formation"],
        json!([[7, 9, 8], [5, 11, 12, 6], [3, 10, 4], [1, 2]])
    );
    assert_eq!(info["molkkout_pins"], json!([6, 4, 12, 10, 8]));
    assert_eq!(
        h.call("game_info", json!({"game": "go"})).unwrap_err()["kind"],
        "not_found"
    );
}

#[test]
fn settings_are_validated_and_kept() {
    let h = harness();
    let s = h.call("get_settings", json!({})).unwrap();
    assert_eq!(s["language"], "system");
    let s = h
        .call("set_setting", json!({"key": "language", "value": "fr"}))
        .unwrap();
    assert_eq!(s["language"], "fr");
    let s = h
        .call(
            "set_setting",
            json!({"key": "rules", "value": {"molkky": {"target": 40}}}),
        )
        .unwrap();
    assert_eq!(s["rules"]["molkky"]["target"], 40);

    for (key, value) in [
        ("language", json!("de")),
        ("theme", json!("neon")),
        ("rules", json!({"molkky": {"target": 5}})),
        ("last_lineup", json!([["A"], [""]])),
        ("wallpaper", json!(1)),
    ] {
        let e = h
            .call("set_setting", json!({"key": key, "value": value}))
            .unwrap_err();
        assert_eq!(e["kind"], "bad_setup", "{key}");
    }
    let s = h.call("get_settings", json!({})).unwrap();
    assert_eq!(s["language"], "fr");
    assert_eq!(s["theme"], "system");
    // Saved before the answer: the file beside the database holds the changes made.
    let kept: Value = serde_json::from_slice(
        &std::fs::read(h.db.parent().unwrap().join("settings.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(kept["language"], "fr");
    assert_eq!(kept["rules"]["molkky"]["target"], 40);
}

#[test]
fn a_database_from_a_newer_app_is_reported_not_crashed() {
    let h = harness_with(|db| {
        rusqlite::Connection::open(db)
            .unwrap()
            .execute_batch("PRAGMA user_version = 42;")
            .unwrap();
    });
    let status = h.call("app_status", json!({})).unwrap();
    assert_eq!(status["database"], "unavailable");
    assert_eq!(status["error"]["code"], "database_too_new");
    assert_eq!(
        h.call("home", json!({})).unwrap_err()["code"],
        "database_too_new"
    );
    assert_eq!(
        h.call("play", json!({"matchId": 1, "action": {"pins": [1]}}))
            .unwrap_err()["kind"],
        "storage"
    );
}

#[test]
fn a_crokinole_round_through_the_commands() {
    let h = harness();
    let m = h
        .call("new_match", json!({"game": "crokinole", "rules": {"target": 50}, "sides": [["Alice", "Ada"], ["Bob", "Bea"]]}))
        .unwrap();
    let id = m["id"].as_i64().unwrap();
    assert_eq!(m["summary"]["hammer_player"], "Bea");
    h.call("play", json!({"matchId": id, "action": {"twenty": 1}}))
        .unwrap();
    let e = h
        .call(
            "preview",
            json!({"matchId": id, "action": {"round": {"15": [13, 0]}}}),
        )
        .unwrap_err();
    assert_eq!(e["kind"], "bad_action");
    assert_eq!(e["code"], "too_many_discs");
    let p = h
        .call(
            "preview",
            json!({"matchId": id, "action": {"round": {"15": [1, 0]}}}),
        )
        .unwrap();
    assert_eq!(p["round_points"], json!([[15, 20]]));
    assert_eq!(h.actions_on_disk(), 1, "previews write nothing");
    let v = h
        .call(
            "play",
            json!({"matchId": id, "action": {"round": {"15": [1, 0]}}}),
        )
        .unwrap();
    assert_eq!(v["summary"]["scores"], json!([0, 5]));
    assert_eq!(v["summary"]["starter_player"], "Bob");
    let info = h.call("game_info", json!({"game": "crokinole"})).unwrap();
    assert_eq!(info["zones"][0], json!(["20", 20]));
}

#[test]
fn history_players_and_records_through_the_commands() {
    let h = harness();
    let id = h.anna_against_bea_to_ten();
    h.call("play", json!({"matchId": id, "action": {"pins": [10]}}))
        .unwrap();
    let page = h
        .call("history", json!({"filter": {"game": "molkky"}}))
        .unwrap();
    assert_eq!(page[0]["id"], id);
    assert_eq!(page[0]["status"], "won");
    // The history and the home screen list matches in one shape.
    assert_eq!(page[0]["summary"]["scores"], json!([10, 0]));
    assert_eq!(page[0]["actions"], 1);
    assert_eq!(page[0]["sides"], json!([["Anna"], ["Bea"]]));
    let home = h.call("home", json!({})).unwrap();
    assert_eq!(home["recent"][0], page[0]);
    assert_eq!(
        h.call("history", json!({"filter": {"colour": "red"}}))
            .unwrap_err()["kind"],
        "bad_setup"
    );

    let anna = h
        .call("search_players", json!({"query": "ann", "archived": false}))
        .unwrap()[0]["id"]
        .as_i64()
        .unwrap();
    let stats = h
        .call("player_stats", json!({"player": anna, "game": "molkky"}))
        .unwrap();
    assert_eq!(stats["wins"], 1);
    assert_eq!(
        h.call("rename_player", json!({"player": anna, "name": "Annie"}))
            .unwrap()["name"],
        "Annie"
    );
    assert_eq!(
        h.call("rename_player", json!({"player": anna, "name": ""}))
            .unwrap_err()["kind"],
        "bad_setup"
    );
    h.call("archive_player", json!({"player": anna, "archived": true}))
        .unwrap();
    assert_eq!(
        h.call("search_players", json!({"query": "", "archived": false}))
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let record = h.call("export_match", json!({"matchId": id})).unwrap();
    let report = h
        .call("import_records", json!({"text": record.to_string()}))
        .unwrap();
    assert_eq!(report, json!({"imported": 0, "already_present": 1}));
    assert_eq!(
        h.call("import_records", json!({"text": "{"})).unwrap_err()["kind"],
        "bad_record"
    );
    let bea = h
        .call("search_players", json!({"query": "Bea", "archived": false}))
        .unwrap()[0]["id"]
        .as_i64()
        .unwrap();
    assert_eq!(
        h.call("merge_players", json!({"kept": bea, "gone": anna}))
            .unwrap()["name"],
        "Bea"
    );
    // A name a setup just made, put right: renamed, and refused once no longer as made.
    let jonh = h.call("add_player", json!({"name": "Jonh"})).unwrap()["id"].clone();
    let args = json!({"player": jonh, "was": "Jonh", "name": "John"});
    assert_eq!(
        h.call("put_right_player", args.clone()).unwrap()["name"],
        "John"
    );
    assert_eq!(
        h.call("put_right_player", args).unwrap_err()["code"],
        "not_put_right"
    );
}

#[test]
fn morris_against_the_computer_through_the_commands() {
    let h = harness();
    let m = h
        .call(
            "new_match",
            json!({"game": "morris", "rules": {}, "sides": [["Alice"], ["Computer"]], "computer": {"1": 2}}),
        )
        .unwrap();
    let id = m["id"].as_i64().unwrap();
    assert_eq!(m["computer"], json!({"1": 2}));
    // Not the computer's turn yet: refused, typed, nothing written.
    let e = h.call("computer_move", json!({"matchId": id})).unwrap_err();
    assert_eq!(e["code"], "not_computer_turn");
    let v = h
        .call("play", json!({"matchId": id, "action": "d6"}))
        .unwrap();
    assert_eq!(v["summary"]["turn"], 1);
    let v = h.call("computer_move", json!({"matchId": id})).unwrap();
    assert_eq!(v["actions"], 2);
    assert_eq!(v["summary"]["turn"], 0);
    assert_eq!(h.actions_on_disk(), 2, "the computer's move is committed");
    let hint = h.call("hint", json!({"matchId": id})).unwrap();
    let legal = v["summary"]["legal"].as_array().unwrap();
    assert!(legal.contains(&hint), "{hint} is legal");
    // A bad level and a game the computer does not play are refused.
    for (game, computer) in [("morris", json!({"1": 9})), ("molkky", json!({"1": 3}))] {
        let e = h
            .call(
                "new_match",
                json!({"game": game, "rules": {}, "sides": [["A"], ["B"]], "computer": computer}),
            )
            .unwrap_err();
        assert_eq!(e["kind"], "bad_setup");
        assert_eq!(e["code"], "bad_computer");
    }
    // A move list becomes a match; a wrong one is refused.
    let v = h
        .call(
            "import_moves",
            json!({"text": "1. a1 d6 2. a4 f4 3. a7xd6", "rules": {}, "sides": [["Ann"], ["Ben"]]}),
        )
        .unwrap();
    assert_eq!(v["summary"]["scores"], json!([1, 0]));
    assert_eq!(v["summary"]["move_list"], "1. a1 d6 2. a4 f4 3. a7xd6");
    let e = h
        .call(
            "import_moves",
            json!({"text": "1. a1 a1", "rules": {}, "sides": [["Ann"], ["Ben"]]}),
        )
        .unwrap_err();
    assert_eq!(e["kind"], "bad_record");
}

/// `n` Morris matches against level 5, each with the computer to play (Alice placed on d6).
fn computer_to_play(h: &Harness, n: usize) -> Vec<i64> {
    (0..n)
        .map(|_| {
            let m = h
                .call(
                    "new_match",
                    json!({"game": "morris", "rules": {}, "sides": [["Alice"], ["Computer"]], "computer": {"1": 5}}),
                )
                .unwrap();
            let id = m["id"].as_i64().unwrap();
            h.call("play", json!({"matchId": id, "action": "d6"}))
                .unwrap();
            id
        })
        .collect()
}

#[test]
fn the_computer_thinks_without_holding_up_the_other_commands() {
    let h = harness();
    // One thinker more than the async runtime has workers: were each to think on a worker,
    // every other command would wait for a think to end.
    let workers = tauri::async_runtime::handle()
        .inner()
        .metrics()
        .num_workers();
    let ids = computer_to_play(&h, workers + 1);
    let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let thinkers: Vec<_> = ids
        .iter()
        .map(|&id| {
            let (window, done) = (h.window.clone(), done.clone());
            std::thread::spawn(move || {
                let answer = call_on(&window, "computer_move", json!({"matchId": id}));
                done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                answer
            })
        })
        .collect();
    // Level 5 thinks 2.5 s over a placing; the thinkers are asked well before that is over.
    h.until_thinking(ids.len());
    let home = h.call("home", json!({})).unwrap();
    assert_eq!(
        done.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "the home screen answered only once a think had ended"
    );
    assert_eq!(home["unfinished"].as_array().unwrap().len(), ids.len());
    h.call("stop_thinking", json!({})).unwrap();
    for thinker in thinkers {
        let e = thinker.join().unwrap().unwrap_err();
        assert_eq!(e["code"], "stopped", "{e}");
    }
    assert_eq!(
        h.actions_on_disk(),
        ids.len() as i64,
        "no stopped answer was played"
    );
}

#[test]
fn a_stop_holds_for_the_think_it_stopped_when_another_starts() {
    let h = harness();
    let ids = computer_to_play(&h, 2);
    let think = |id: i64| {
        let window = h.window.clone();
        std::thread::spawn(move || call_on(&window, "computer_move", json!({"matchId": id})))
    };
    let first = think(ids[0]);
    // Level 5 thinks 2.5 s over a placing: the first is still thinking when it is stopped,
    // and the second starts at once after the Stop (the user left one board for another).
    h.until_thinking(1);
    h.call("stop_thinking", json!({})).unwrap();
    let second = think(ids[1]);
    let e = first.join().unwrap().unwrap_err();
    assert_eq!(
        e["code"], "stopped",
        "the second think undid the first one's stop: {e}"
    );
    // The second was not stopped by a Stop asked before it began; a Stop now stops it. (The
    // first, stopped, is no longer counted: level 5's kept searcher held its flag on.)
    h.until_thinking(1);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !second.is_finished(),
        "the second think was stopped before it began"
    );
    h.call("stop_thinking", json!({})).unwrap();
    let e = second.join().unwrap().unwrap_err();
    assert_eq!(e["code"], "stopped", "{e}");
    assert_eq!(h.actions_on_disk(), 2, "no stopped answer was played");
}

#[test]
fn replay_steps_charts_and_files_through_the_commands() {
    let h = harness();
    let dir = tempfile::tempdir().unwrap();
    // The only test that sets the folder: exports go there, not to the user's documents.
    std::env::set_var("PARTIE_EXPORT_DIR", dir.path());
    let id = h.anna_against_bea_to_ten();
    h.call("play", json!({"matchId": id, "action": {"pins": [4]}}))
        .unwrap();
    h.call("play", json!({"matchId": id, "action": {"pins": [10]}}))
        .unwrap();
    let step = h
        .call("summary_at", json!({"matchId": id, "n": 1}))
        .unwrap();
    assert_eq!(step["summary"]["scores"], json!([4, 0]));
    assert_eq!(step["action"], json!({"pins": [4]}));
    let e = h
        .call("summary_at", json!({"matchId": id, "n": 3}))
        .unwrap_err();
    assert_eq!(e["code"], "no_step");

    let bea = h
        .call("search_players", json!({"query": "Bea", "archived": false}))
        .unwrap()[0]["id"]
        .as_i64()
        .unwrap();
    let series = h
        .call("player_series", json!({"player": bea, "game": "molkky"}))
        .unwrap();
    assert_eq!(series.as_array().unwrap().len(), 1);
    assert_eq!(series[0]["result"], "won");
    assert_eq!(series[0]["counters"]["points"], 10);
    let board = h.call("leaderboard", json!({"game": "molkky"})).unwrap();
    assert_eq!(board[0][1], "Bea");
    let anna = board[1][0].as_i64().unwrap();
    let versus = h
        .call(
            "head_to_head",
            json!({"a": anna, "b": bea, "game": "molkky"}),
        )
        .unwrap();
    assert_eq!(versus, json!({"a": 0, "b": 1, "draws": 0}));

    let written = h.call("export_file", json!({"what": "all"})).unwrap();
    let name = written["name"].as_str().unwrap().to_string();
    assert!(dir.path().join(&name).exists());
    h.call("backup_file", json!({})).unwrap();
    let files = h.call("list_files", json!({})).unwrap();
    assert_eq!(files.as_array().unwrap().len(), 2);
    let r = h.call("import_file", json!({"name": name})).unwrap();
    assert_eq!(
        (r["imported"].as_u64(), r["already_present"].as_u64()),
        (Some(0), Some(1))
    );
    // Only plain names of the folder: no way out of it.
    let e = h
        .call("import_file", json!({"name": "../../etc/passwd"}))
        .unwrap_err();
    assert_eq!(e["code"], "no_file");
    // A copy the user named (spaces, accents, brackets) is listed and found as listed; a hidden
    // file is neither.
    std::fs::copy(
        dir.path().join(&name),
        dir.path().join("Copie de récap (1).json"),
    )
    .unwrap();
    std::fs::copy(dir.path().join(&name), dir.path().join(".hidden.json")).unwrap();
    let files = h.call("list_files", json!({})).unwrap();
    let listed: Vec<&str> = files
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(listed.contains(&"Copie de récap (1).json"), "{listed:?}");
    assert!(!listed.contains(&".hidden.json"), "{listed:?}");
    let r = h
        .call("import_file", json!({"name": "Copie de récap (1).json"}))
        .unwrap();
    assert_eq!(r["already_present"].as_u64(), Some(1));
    for hidden in [".hidden.json", "..", "a/b.json", "a\\b.json"] {
        let e = h.call("import_file", json!({"name": hidden})).unwrap_err();
        assert_eq!(e["code"], "no_file", "{hidden}");
    }
    let e = h.call("restore_file", json!({"name": name})).unwrap_err();
    assert_eq!(
        e["kind"], "bad_record",
        "a JSON export is not a backup: nothing restored"
    );

    // The long file commands run on the threads kept for blocking work: each still answers,
    // and a refusal is typed as before.
    let t = h
        .call(
            "new_tournament",
            json!({"setup": {"game": "molkky", "system": "round_robin",
                "entrants": [["Anna"], ["Bea"], ["Cyril"]]}}),
        )
        .unwrap();
    let tid = t["id"].as_i64().unwrap();
    let paper = h
        .call(
            "export_tournament_pdf",
            json!({"tournamentId": tid, "which": "standings", "lang": "fr"}),
        )
        .unwrap();
    let bytes = std::fs::read(dir.path().join(paper["name"].as_str().unwrap())).unwrap();
    assert!(bytes.starts_with(b"%PDF"), "a PDF is written whole");
    let e = h
        .call(
            "export_tournament_pdf",
            json!({"tournamentId": tid, "which": "menu", "lang": "fr"}),
        )
        .unwrap_err();
    assert!(e["kind"].is_string() && e["detail"].is_string(), "{e}");
    let backup = h.call("backup_file", json!({})).unwrap();
    h.call("delete_tournament", json!({"tournamentId": tid}))
        .unwrap();
    h.call("restore_file", json!({"name": backup["name"]}))
        .unwrap();
    let t = h
        .call("get_tournament", json!({"tournamentId": tid}))
        .unwrap();
    assert_eq!(t["id"], tid, "the backup brought the tournament back");
}

#[test]
fn boulomania_dice_choices_and_the_computer_through_the_commands() {
    let h = harness();
    let m = h
        .call(
            "new_match",
            json!({"game": "boulomania", "rules": {}, "sides": [["Anne", "Alex"], ["Computer"]], "computer": {"1": 2}}),
        )
        .unwrap();
    let id = m["id"].as_i64().unwrap();
    // The same point of a match gives the same dice: a roll cannot be taken again.
    let a = h.call("roll_dice", json!({"matchId": id, "n": 3})).unwrap();
    let b = h.call("roll_dice", json!({"matchId": id, "n": 3})).unwrap();
    assert_eq!(a, b);
    assert!(a
        .as_array()
        .unwrap()
        .iter()
        .all(|d| (1..=6).contains(&d.as_u64().unwrap())));
    assert_eq!(
        h.call("roll_dice", json!({"matchId": id, "n": 4}))
            .unwrap_err()["kind"],
        "bad_action"
    );
    h.call("play", json!({"matchId": id, "action": {"jack": 2}}))
        .unwrap();
    // 4-4 opens two choices: jack square 4 or square 8.
    let c = h
        .call(
            "choices",
            json!({"matchId": id, "action": {"point": [4, 4]}}),
        )
        .unwrap();
    let actions: Vec<&Value> = c.as_array().unwrap().iter().map(|o| &o["action"]).collect();
    assert_eq!(actions.len(), 2, "{c}");
    assert!(actions.contains(&&json!({"point": [4, 4], "to": "jack"})));
    assert!(actions.contains(&&json!({"point": [4, 4], "to": "total"})));
    let v = h
        .call("play", json!({"matchId": id, "action": {"point": [3, 4]}}))
        .unwrap();
    assert_eq!(v["summary"]["turn"], 1);
    let v = h.call("computer_move", json!({"matchId": id})).unwrap();
    assert_eq!(v["actions"], 3, "the computer rolled and played its ball");
    assert_eq!(v["summary"]["in_hand"][1], 7);
}

/// A joined phone's reads wake no sync round, its writes do: each command woke one (every pin
/// tapped asks for a preview), a round of the network to the hub for every tap.
#[test]
fn a_joined_phone_syncs_after_a_write_not_after_a_read() {
    std::env::set_var("PARTIE_HUB_LISTEN", "127.0.0.1:0");
    let host = harness();
    let phone = harness();
    let info = host.call("host_start", json!({})).unwrap();
    phone
        .call("club_join", json!({"link": info["link"], "token": null}))
        .unwrap();
    let looks = || phone.club_status()["sync"]["looks"].as_u64().unwrap();
    let m = phone.anna_against_bea_to_ten();
    // Settled: no round under way and none for a while, so that the pokes of the join and the
    // new match have been served (one sent during a round is served by the next).
    let settled = || {
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            let before = phone.club_status()["sync"].clone();
            std::thread::sleep(Duration::from_millis(300));
            let now = phone.club_status()["sync"].clone();
            if before["looks"] == now["looks"] && now["busy"] == false {
                return now["looks"].as_u64().unwrap();
            }
            assert!(Instant::now() < until, "the sync thread never settled");
        }
    };
    let after = settled();
    let began = Instant::now();
    for _ in 0..10 {
        phone.call("home", json!({})).unwrap();
        phone.call("get_match", json!({"matchId": m})).unwrap();
        phone
            .call("preview", json!({"matchId": m, "action": {"pins": [3]}}))
            .unwrap();
        std::thread::sleep(Duration::from_millis(50));
    }
    // Rounds by the clock (`PULL_EVERY`, two seconds) may come meanwhile, one more on a slow
    // machine; thirty reads each waking one made about ten.
    let by_clock = began.elapsed().as_millis() as u64 / 2000 + 1;
    let rounds = looks() - after;
    assert!(
        rounds <= by_clock,
        "{rounds} sync rounds for thirty reads in {:?}",
        began.elapsed()
    );
    // A throw wakes a round at once: it begins well before the clock's next one, two seconds
    // after the last.
    let after = settled();
    let played = partie_core::time::now_ms();
    phone
        .call("play", json!({"matchId": m, "action": {"pins": [7]}}))
        .unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    while looks() == after {
        assert!(Instant::now() < until, "no sync round came after the throw");
        std::thread::sleep(Duration::from_millis(5));
    }
    let round_began = phone.club_status()["sync"]["last_try"].as_i64().unwrap();
    assert!(
        round_began - played < 1500,
        "the round after the throw began {} ms after it: the clock's, not the throw's",
        round_began - played
    );
    host.call("host_stop", json!({})).unwrap();
}

/// A hub that was on when the app ended and cannot start again (its port taken meanwhile) is
/// said on the club-night screen with why, and Start tries the same address again; a start
/// that fails for the token file says so by its own code, not as a storage failure.
#[test]
fn a_hub_that_does_not_start_says_why() {
    std::env::set_var("PARTIE_HUB_LISTEN", "127.0.0.1:0");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let listen = taken.local_addr().unwrap().to_string();
    let h = harness_with(|db| {
        std::fs::write(db.parent().unwrap().join("hub-on"), &listen).unwrap();
    });
    let status = h.club_status();
    assert_eq!(status["host"], Value::Null);
    assert_eq!(status["host_error"]["code"], "hub_port_taken", "{status}");
    // The port still taken: Start brings the hub up on another, and says it moved (it failed
    // on the old address again and again, at every launch too).
    let info = h.call("host_start", json!({})).unwrap();
    assert_ne!(info["address"], format!("http://{listen}"));
    let status = h.club_status();
    assert_eq!(status["host_error"], Value::Null);
    assert_eq!(status["host_moved_from"], listen.as_str());
    h.call("host_stop", json!({})).unwrap();
    assert_eq!(h.club_status()["host_moved_from"], Value::Null);

    // The port free again by the time Start is tapped: the same address, the phones' own.
    let again = harness_with(|db| {
        std::fs::write(db.parent().unwrap().join("hub-on"), &listen).unwrap();
    });
    assert_eq!(again.club_status()["host_error"]["code"], "hub_port_taken");
    drop(taken);
    let info = again.call("host_start", json!({})).unwrap();
    assert_eq!(info["address"], format!("http://{listen}"));
    let status = again.club_status();
    assert_eq!(
        (&status["host_error"], &status["host_moved_from"]),
        (&Value::Null, &Value::Null)
    );
    again.call("host_stop", json!({})).unwrap();

    // A device that joined a hub since does not start its own at launch (one club night at a
    // time), and forgets it was on.
    let joined = harness_with(|db| {
        std::fs::write(db.parent().unwrap().join("hub-on"), "127.0.0.1:0").unwrap();
        let (mut store, _) = partie_core::store::Store::open(db).unwrap();
        store.join_club("http://127.0.0.1:9", "t0ken").unwrap();
    });
    let status = joined.club_status();
    assert_eq!(
        (&status["host"], &status["host_error"]),
        (&Value::Null, &Value::Null)
    );
    assert!(!joined.db.parent().unwrap().join("hub-on").exists());

    let empty = harness_with(|db| {
        std::fs::write(db.parent().unwrap().join("hub-token"), "  \n").unwrap();
    });
    let refused = empty.call("host_start", json!({})).unwrap_err();
    assert_eq!(kind_code(&refused), ("storage", "hub_token_file"));
    assert_eq!(empty.club_status()["host"], Value::Null);
}

#[test]
fn the_club_night_through_the_commands() {
    std::env::set_var("PARTIE_HUB_LISTEN", "127.0.0.1:0");
    let host = harness();
    let phone = harness();
    let idle = phone.club_status();
    assert_eq!(idle["joined"], Value::Null);
    assert_eq!(idle["host"], Value::Null);
    assert_eq!(idle["sync"]["state"], "idle");

    // Refusals are typed, and join nothing.
    let bad = phone
        .call("club_join", json!({"link": "not an address", "token": "x"}))
        .unwrap_err();
    assert_eq!(kind_code(&bad), ("bad_setup", "bad_hub_address"));
    let bad = phone
        .call(
            "club_join",
            json!({"link": "127.0.0.1:7878", "token": null}),
        )
        .unwrap_err();
    assert_eq!(bad["code"], "bad_club_token");
    // A link that is not text is refused before the command runs, by the IPC layer, which
    // names the argument.
    let bad = phone.call("club_join", json!({"link": 42})).unwrap_err();
    assert!(bad.as_str().is_some_and(|m| m.contains("link")), "{bad}");

    let info = host.call("host_start", json!({})).unwrap();
    let address = info["address"].as_str().unwrap().to_string();
    assert!(address.starts_with("http://127.0.0.1:"));
    // Started twice: the same hub.
    assert_eq!(
        host.call("host_start", json!({})).unwrap()["token"],
        info["token"]
    );
    let wrong = phone
        .call("club_join", json!({"link": address, "token": "wrong"}))
        .unwrap_err();
    assert_eq!(wrong["code"], "wrong_club_token");
    assert_eq!(phone.club_status()["joined"], Value::Null);

    let joined = phone
        .call("club_join", json!({"link": info["link"], "token": null}))
        .unwrap();
    assert_eq!(joined["joined"]["hub"], address.as_str());
    assert!(
        joined["joined"].get("token").is_none(),
        "the token is not sent back to the page"
    );
    assert_eq!(host.club_status()["host"]["address"], address.as_str());
    // The screen warns where phones could not come in: here the loopback (this machine only);
    // the token is one a phone takes.
    assert_eq!(
        (&info["this_device_only"], &info["phones_can_join"]),
        (&json!(true), &json!(true))
    );
    // One club night at a time: the joined phone starts no hub, and the device running the hub
    // joins none (its own hub included), each refusal typed and changing nothing.
    let refused = phone.call("host_start", json!({})).unwrap_err();
    assert_eq!(kind_code(&refused), ("illegal_action", "joined_elsewhere"));
    assert_eq!(phone.club_status()["host"], Value::Null);
    let refused = host
        .call("club_join", json!({"link": info["link"], "token": null}))
        .unwrap_err();
    assert_eq!(kind_code(&refused), ("illegal_action", "hosting"));
    assert_eq!(host.club_status()["joined"], Value::Null);

    host.call("host_stop", json!({})).unwrap();
    assert_eq!(host.club_status()["host"], Value::Null);
    let gone = phone
        .call("club_join", json!({"link": info["link"], "token": null}))
        .unwrap_err();
    assert_eq!(kind_code(&gone), ("not_found", "hub_unreachable"));
    // Still joined to it: a refused join changes nothing.
    assert_eq!(phone.club_status()["joined"]["hub"], address.as_str());
    let left = phone.call("club_leave", json!({})).unwrap();
    assert_eq!(left["joined"], Value::Null);
}

#[test]
fn game_info_says_the_sides_and_the_computers_levels() {
    let h = harness();
    let levels = |game: &str| {
        h.call("game_info", json!({ "game": game })).unwrap()["computer"]["levels"].clone()
    };
    assert_eq!(levels("morris"), json!([1, 2, 3, 4, 5]));
    assert_eq!(levels("boulomania"), json!([1, 2]));
    assert_eq!(levels("molkky"), json!([]));
    let sides =
        |game: &str| h.call("game_info", json!({ "game": game })).unwrap()["sides"]["max"].clone();
    assert_eq!(
        [
            sides("molkky"),
            sides("molkkout"),
            sides("crokinole"),
            sides("morris"),
            sides("boulomania")
        ],
        [json!(16), json!(2), json!(3), json!(2), json!(2)]
    );
    // What game_info offers is what a new match takes: the top level, and one more refused.
    let two = json!([["Me"], ["Computer"]]);
    for (game, top) in [("morris", 5), ("boulomania", 2)] {
        h.call(
            "new_match",
            json!({"game": game, "rules": {}, "sides": two, "computer": {"1": top}}),
        )
        .unwrap();
        let e = h
            .call(
                "new_match",
                json!({"game": game, "rules": {}, "sides": two, "computer": {"1": top + 1}}),
            )
            .unwrap_err();
        assert_eq!(e["code"], "bad_computer");
    }
}

#[test]
fn a_tournament_through_the_commands_with_a_withdrawal_undone_in_one_step() {
    let h = harness();
    let t = h
        .call(
            "new_tournament",
            json!({"setup": {"game": "molkky", "system": "swiss", "rounds": 2,
                "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"]]}}),
        )
        .unwrap();
    let id = t["id"].as_i64().unwrap();
    let t = h
        .call(
            "tournament_event",
            json!({"tournamentId": id, "event": {"pair": {}}}),
        )
        .unwrap();
    let leaver = t["summary"]["pairings"][0]["sides"][0].as_u64().unwrap();
    let t = h
        .call(
            "withdraw_entrant",
            json!({"tournamentId": id, "entrant": leaver}),
        )
        .unwrap();
    assert_eq!(t["events"], 3);
    assert_eq!(t["summary"]["pairings"][0]["result"], json!({"forfeit": 0}));
    // An undo from a screen that showed another count of events takes nothing back.
    let e = h
        .call(
            "undo_tournament",
            json!({"tournamentId": id, "revision": t["revision"].as_i64().unwrap() - 1}),
        )
        .unwrap_err();
    assert_eq!(e["kind"], "illegal_action");
    assert_eq!(e["code"], "tournament_changed");
    let t = h
        .call(
            "undo_tournament",
            json!({"tournamentId": id, "revision": t["revision"]}),
        )
        .unwrap();
    assert_eq!(t["events"], 1);
    assert_eq!(t["summary"]["pairings"][0]["result"], Value::Null);

    let e = h
        .call(
            "withdraw_entrant",
            json!({"tournamentId": id, "entrant": 7}),
        )
        .unwrap_err();
    assert_eq!(e["kind"], "illegal_action");
    let e = h
        .call(
            "withdraw_entrant",
            json!({"tournamentId": 404, "entrant": 0}),
        )
        .unwrap_err();
    assert_eq!(e["kind"], "not_found");
    let t = h
        .call("get_tournament", json!({"tournamentId": id}))
        .unwrap();
    assert_eq!(t["events"], 1, "refusals wrote nothing");
}
