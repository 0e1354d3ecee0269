//! The `partie` command line, as `docs/records.md` §5 says.

use std::process::Command;

fn partie(args: &[&str]) -> (i32, String) {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    partie_with(&args, &[], b"")
}

/// `partie` with `env` set, its standard input `input`: (status, stdout).
fn partie_with(
    args: &[&std::ffi::OsStr],
    env: &[(&str, &std::path::Path)],
    input: &[u8],
) -> (i32, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_partie"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("partie runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn check_prints_one_line_per_scenario_and_a_total() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("molkky");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(
        sub.join("good.json"),
        r#"{"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[7]}],"expect":{"scores":[7,0]}}"#,
    )
    .unwrap();
    std::fs::write(
        sub.join("wrong.json"),
        r#"{"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[7]}],"expect":{"scores":[6,0]}}"#,
    )
    .unwrap();
    std::fs::write(sub.join("broken.json"), "{ nope").unwrap();
    std::fs::write(sub.join("notes.txt"), "not a scenario, not read").unwrap();

    let (code, out) = partie(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("ok   ") && l.ends_with("good.json")),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("FAIL ") && l.contains("wrong.json: scores")),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("FAIL ") && l.contains("broken.json")),
        "{out}"
    );
    assert_eq!(lines[3], "1 passed, 2 failed");

    let (code, out) = partie(&["check", sub.join("good.json").to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");

    // Links back up the tree make a cycle: each folder is still read once, and check ends.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path(), sub.join("up")).unwrap();
        std::os::unix::fs::symlink(dir.path(), sub.join("up-again")).unwrap();
        let (code, again) = partie(&["check", dir.path().to_str().unwrap()]);
        assert_eq!(
            (code, again.lines().last()),
            (1, Some("1 passed, 2 failed")),
            "{again}"
        );
    }
}

#[test]
fn replay_prints_the_summary_or_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("match.json");
    std::fs::write(
        &rec,
        r#"{"format":1,"game":"molkky","rules":{"best_of":3},"sides":[["Anna"],["Bea","Cyril"]],
            "actions":[{"pins":[7]},{"pins":[]},{"pins":[3,9]}],"id":"kept-but-ignored"}"#,
    )
    .unwrap();
    let (code, out) = partie(&["replay", rec.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["scores"], serde_json::json!([9, 0]));
    assert_eq!(summary["thrower"], "Cyril");
    assert_eq!(summary["status"], "playing");

    std::fs::write(
        &rec,
        r#"{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[13]}]}"#,
    )
    .unwrap();
    let (code, out) = partie(&["replay", rec.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.starts_with("bad_action: action 0"), "{out}");

    std::fs::write(&rec, "[]").unwrap();
    let (code, out) = partie(&["replay", rec.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.starts_with("bad_record"), "{out}");

    std::fs::write(
        &rec,
        r#"{"format":1,"game":"molkky","rules":{"best_of":7},"sides":[["A"],["B"]]}"#,
    )
    .unwrap();
    let (code, out) = partie(&["replay", rec.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.starts_with("bad_setup"), "{out}");

    // A file that is not there is a record that does not exist (records.md §4).
    let gone = dir.path().join("gone.json");
    let (code, out) = partie(&["replay", gone.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.starts_with("not_found: no file"), "{out}");
    // A record with a key it does not know, `matches` among them, is a record.
    std::fs::write(
        &rec,
        r#"{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[],"matches":null}"#,
    )
    .unwrap();
    let db = dir.path().join("h.db");
    let (code, out) = partie(&[
        "import",
        "--db",
        db.to_str().unwrap(),
        rec.to_str().unwrap(),
    ]);
    assert_eq!(
        (code, out.trim()),
        (0, "1 imported, 0 already present"),
        "{out}"
    );
    let (code, out) = partie(&[
        "import",
        "--db",
        db.to_str().unwrap(),
        gone.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(out.starts_with("not_found"), "{out}");
}

#[test]
fn export_import_stats_backup_on_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("club.db");
    let db_s = db.to_str().unwrap();
    let rec = dir.path().join("m.json");
    std::fs::write(
        &rec,
        r#"{"format":1,"game":"molkky","rules":{"target":10},"sides":[["Anna"],["Bea"]],
            "actions":[{"pins":[7]},{"pins":[]},{"pins":[3]}]}"#,
    )
    .unwrap();
    let (code, out) = partie(&["import", "--db", db_s, rec.to_str().unwrap()]);
    assert_eq!((code, out.trim()), (0, "1 imported, 0 already present"));
    let (_, out) = partie(&["import", "--db", db_s, rec.to_str().unwrap()]);
    assert_eq!(out.trim(), "0 imported, 1 already present");

    let (code, out) = partie(&["export", "--db", db_s]);
    assert_eq!(code, 0);
    let all: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        all["matches"][0]["sides"],
        serde_json::json!([["Anna"], ["Bea"]])
    );
    let (_, csv) = partie(&["export", "--db", db_s, "--csv"]);
    assert_eq!(csv.lines().count(), 3);

    let (code, out) = partie(&["stats", "--db", db_s, "--player", "anna"]);
    assert_eq!(code, 0, "{out}");
    let stats: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(stats["wins"], 1);
    assert_eq!(stats["totals"]["points"], 10);
    let (_, board) = partie(&["stats", "--db", db_s]);
    assert_eq!(board.lines().nth(1), Some("Anna\t1\t1"));

    let saved = dir.path().join("saved.db");
    assert_eq!(
        partie(&["backup", "--db", db_s, saved.to_str().unwrap()]).0,
        0
    );
    assert!(saved.exists());
    assert_eq!(
        partie(&["restore", "--db", db_s, saved.to_str().unwrap()]).0,
        0
    );

    std::fs::write(&rec, "{oops").unwrap();
    let (code, out) = partie(&["import", "--db", db_s, rec.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.starts_with("bad_record"), "{out}");
}

/// Issue 20: odd input answers the kinds of `docs/records.md` §4, the wrong JSON types of a
/// setup value (`bad_setup`) apart from a file that is not a record at all (`bad_record`).
#[test]
fn replay_tells_a_bad_setup_from_a_file_that_is_not_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("odd.json");
    let sides = r#"[["Jo"],["Kia"]]"#;
    let cases = [
        // A setup value of the wrong JSON type, or null: a record with an invalid setup.
        (format!(r#"{{"format":1,"game":"morris","rules":[],"sides":{sides},"actions":[]}}"#), "bad_setup"),
        (format!(r#"{{"format":1,"game":"morris","rules":5,"sides":{sides}}}"#), "bad_setup"),
        (format!(r#"{{"format":1,"game":"morris","rules":"x","sides":{sides}}}"#), "bad_setup"),
        (format!(r#"{{"format":1,"game":"morris","rules":null,"sides":{sides},"actions":[]}}"#), "bad_setup"),
        (r#"{"format":1,"game":"morris","sides":"x","actions":[]}"#.to_string(), "bad_setup"),
        (r#"{"format":1,"game":"morris","sides":null,"actions":[]}"#.to_string(), "bad_setup"),
        (r#"{"format":1,"game":"morris","sides":["Jo","Kia"],"actions":[]}"#.to_string(), "bad_setup"),
        (r#"{"format":1,"game":"morris","sides":[["Jo"],[7]],"actions":[]}"#.to_string(), "bad_setup"),
        (r#"{"format":1,"game":"molkky","sides":[["Jo"],{"name":"Kia"}]}"#.to_string(), "bad_setup"),
        // Well typed but invalid: bad_setup as before.
        (format!(r#"{{"format":1,"game":"morris","rules":{{"pieces":"nine"}},"sides":{sides}}}"#), "bad_setup"),
        // Not a record at all: bad_record, whatever its setup.
        (r#"{"format":1,"rules":[],"sides":[["Jo"],["Kia"]]}"#.to_string(), "bad_record"),
        (r#"{"format":2,"game":"morris","rules":[],"sides":"x"}"#.to_string(), "bad_record"),
        (r#"{"game":"morris","sides":[["Jo"],["Kia"]]}"#.to_string(), "bad_record"),
        (r#"{"format":1,"game":"morris","sides":[["Jo"],["Kia"]],"actions":{"0":"d6"}}"#.to_string(), "bad_record"),
        (r#"{"format":1,"game":"morris","rules":null,"sides":null,"actions":"d6"}"#.to_string(), "bad_record"),
        (r#""format 1""#.to_string(), "bad_record"),
        // Actions: a foul given as null, two action keys, an optional key given as null.
        (r#"{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[],"foul":null}]}"#.to_string(), "bad_action: action 0"),
        (r#"{"format":1,"game":"boulomania","sides":[["A"],["B"]],"actions":[{"jack":3,"point":[3,4]}]}"#.to_string(), "bad_action: action 0"),
        (r#"{"format":1,"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[1],"twenty":0}]}"#.to_string(), "bad_action: action 0"),
        (r#"{"format":1,"game":"boulomania","sides":[["A"],["B"]],"actions":[{"jack":3},{"point":[3,5],"to":null}]}"#.to_string(), "bad_action: action 1"),
    ];
    for (text, kind) in cases {
        std::fs::write(&rec, &text).unwrap();
        let (code, out) = partie(&["replay", rec.to_str().unwrap()]);
        assert_eq!(code, 2, "{text}: {out}");
        assert!(out.starts_with(kind), "{text}: expected {kind}, got {out}");
    }

    // A won Boulomania game shows the mène that ended it.
    std::fs::write(
        &rec,
        r#"{"format":1,"game":"boulomania","rules":{"target":1,"balls":1},"sides":[["A"],["B"]],
            "actions":[{"jack":3},{"point":[2,2]},{"point":[6,6],"to":"jack"}]}"#,
    )
    .unwrap();
    let (code, out) = partie(&["replay", rec.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            &s["status"],
            &s["turn"],
            &s["mene"],
            &s["phase"],
            &s["jack"]
        ),
        (
            &serde_json::json!("won"),
            &serde_json::Value::Null,
            &serde_json::json!(1),
            &serde_json::json!("play"),
            &serde_json::json!(3)
        ),
        "{out}"
    );
    assert_eq!(s["balls"], serde_json::json!({"2": 0, "6": 1}), "{out}");
    assert_eq!(s["in_hand"], serde_json::json!([0, 0]), "{out}");
    assert_eq!(s["holder"], 0, "{out}");
}

#[test]
fn a_command_line_that_cannot_be_read_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // The app's own history, were a refused command to fall back on it.
    let app_db = dir.path().join("app.db");
    let db = dir.path().join("club.db");
    let (db_s, app) = (db.to_str().unwrap(), [("PARTIE_DB", app_db.as_path())]);
    let os = |args: &[&str]| -> Vec<std::ffi::OsString> { args.iter().map(|a| a.into()).collect() };
    let run = |args: &[&str]| {
        let args = os(args);
        partie_with(
            &args.iter().map(|a| a.as_os_str()).collect::<Vec<_>>(),
            &app,
            b"",
        )
    };
    let cases: &[(&[&str], &str)] = &[
        // An option without its value, or one the command does not take.
        (
            &["import", "m.json", "--db"],
            "bad_action: --db needs a value",
        ),
        (
            &["export", "--match", "--db", db_s],
            "bad_action: --match needs a value",
        ),
        (
            &["stats", "--gmae", "crokinole", "--db", db_s],
            "bad_action: unknown option --gmae",
        ),
        (
            &["ratings", "--from", "--db", db_s],
            "bad_action: --from needs a value",
        ),
        (
            &["export", "--match", "1", "--csv", "--db", db_s],
            "bad_action: --csv exports the whole history",
        ),
        (&["backup", "--db", db_s], "bad_action: backup needs a FILE"),
        (
            &["import", "a.json", "b.json", "--db", db_s],
            "bad_action: import takes one FILE",
        ),
        // What it names is not there, or is no game, or no date.
        (
            &["import", "/nonexistent/m.json", "--db", db_s],
            "not_found: no file",
        ),
        (
            &["restore", "/nonexistent/b.db", "--db", db_s],
            "not_found: no file",
        ),
        (
            &["stats", "--game", "chess", "--db", db_s],
            "bad_setup: unknown game",
        ),
        (
            &["ratings", "--game", "chess", "--db", db_s],
            "bad_setup: unknown game",
        ),
        (
            &["ratings", "--from", "2026-02-30", "--db", db_s],
            "bad_setup: --from takes a date",
        ),
        (
            &["selfplay", "1", "6"],
            "bad_action: selfplay takes two levels",
        ),
        (
            &["selfplay", "1", "2", "x"],
            "bad_action: GAMES is a whole number",
        ),
        (
            &["selfplay", "1", "2", "1", "--seed", "x"],
            "bad_action: --seed takes a whole number",
        ),
        // The Morris commands as the others: they fell through to the usage on stderr, took an
        // unknown option as a token, or ran with an option passed over.
        (&["replay"], "bad_action: replay needs a FILE"),
        (
            &["replay", "a.json", "b.json"],
            "bad_action: replay takes one FILE",
        ),
        (&["moves"], "bad_action: moves needs a FILE"),
        (
            &["record", "a.txt", "b.txt"],
            "bad_action: record takes one FILE",
        ),
        (
            &["perft", "4", "--rule", "{}"],
            "bad_action: unknown option --rule",
        ),
        (&["perft"], "bad_action: perft needs a DEPTH"),
        (
            &["uci", "--level", "3"],
            "bad_action: unknown option --level",
        ),
        (&["uci", "3"], "bad_action: uci takes no argument"),
    ];
    for (args, said) in cases {
        let (code, out) = run(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.starts_with(said), "{args:?}: {out}");
        assert_eq!(out.lines().count(), 1, "{args:?}: {out}");
        assert!(
            !db.exists() && !app_db.exists(),
            "{args:?} created a database"
        );
    }
    // An argument that is not UTF-8 text is said, not a panic.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bad = std::ffi::OsStr::from_bytes(b"\xff.json");
        let (code, out) = partie_with(&["replay".as_ref(), bad], &app, b"");
        assert_eq!(code, 2, "{out}");
        assert!(
            out.starts_with("bad_action: ") && out.contains("not UTF-8"),
            "{out}"
        );
    }
}

/// A count as deep as the rules let a game go: with both draws off the first line never ends,
/// and `perft 200000` overflowed the stack (an abort, not a refusal).
#[test]
fn perft_refuses_a_depth_past_its_bound_rather_than_overflowing() {
    let (code, out) = partie(&[
        "perft",
        "200000",
        "--rules",
        r#"{"repetition":0,"quiet_moves":0}"#,
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.starts_with("bad_action: perft counts to a DEPTH of 64 at most"),
        "{out}"
    );
    assert_eq!(partie(&["perft", "3"]), (0, "12144\n".into()));
}

/// `--help` is a request, not a mistake: the usage on standard output, and success.
#[test]
fn help_prints_the_usage_and_succeeds() {
    for flag in ["--help", "-h", "help"] {
        let (code, out) = partie(&[flag]);
        assert_eq!(code, 0, "{flag}");
        assert!(
            out.starts_with("usage:") && out.contains("partie perft"),
            "{out}"
        );
    }
    assert_eq!(partie(&["--nonsense"]).0, 2);
}

/// A move list's move numbers are passed over, and only they: a word with digits of its own
/// (`7a1`) is no move, and a result after a number (`12.1-0`) is the result.
#[test]
fn a_move_list_skips_move_numbers_only() {
    let record = |text: &str| {
        let args: Vec<&std::ffi::OsStr> = ["record", "-"].iter().map(|a| a.as_ref()).collect();
        partie_with(&args, &[], text.as_bytes())
    };
    let (code, out) = record("1. d6 f4 2.a1 a4 3...b4 12.1-0");
    assert_eq!(code, 0, "{out}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        value["actions"],
        serde_json::json!(["d6", "f4", "a1", "a4", "b4", "1-0"])
    );
    let (code, out) = record("1. d6 f4 2. 7a1 a4");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("7a1"), "{out}");
}

#[test]
fn a_tournament_event_is_written_only_when_its_paper_is() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.json");
    let record = r#"{"format": 1, "tournament": {"game": "molkky", "system": "round_robin",
        "entrants": [["Anna"], ["Bea"], ["Cyril"]]}, "events": []}"#;
    std::fs::write(&file, record).unwrap();
    let f = file.to_str().unwrap();
    let pair_with_paper = |out: &str| {
        partie(&[
            "tournament",
            f,
            "--add",
            r#"{"pair":{}}"#,
            "--pdf",
            "standings",
            out,
        ])
    };
    // A paper that cannot be written (no such folder; a name that is a folder): the record is
    // as it was, and nothing is left beside the paper's place.
    let folder = dir.path().join("out");
    std::fs::create_dir(&folder).unwrap();
    for out in ["/nonexistent/x.pdf", folder.to_str().unwrap()] {
        let (code, said) = pair_with_paper(out);
        assert_eq!(code, 2, "{said}");
        assert!(
            said.starts_with(&format!("storage: cannot write {out}")),
            "{said}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), record, "{out}");
        assert!(
            !partie_core::file::part_of(std::path::Path::new(out)).exists(),
            "{out}"
        );
    }
    // With a paper that can be written, both are.
    let pdf = dir.path().join("s.pdf");
    let (code, out) = pair_with_paper(pdf.to_str().unwrap());
    assert_eq!(code, 0, "{out}");
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["events"], serde_json::json!([{"pair": {}}]));
}

/// A tournament file larger than one record sent to a hub (8 MiB: an export with its tables'
/// matches, here padded with matches the command does not read) is read as `--add` reads it:
/// shown, and taken with an event added (it used to be refused as too large without `--add`
/// and taken with it).
#[test]
fn a_tournament_file_over_a_records_size_is_read_with_or_without_an_event() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.json");
    let padding = "x".repeat(9 * 1024 * 1024);
    let record = serde_json::json!({"format": 1,
        "tournament": {"game": "molkky", "system": "round_robin",
                       "entrants": [["Anna"], ["Bea"], ["Cyril"]]},
        "events": [], "matches": [{"notes": padding}]});
    std::fs::write(&file, record.to_string()).unwrap();
    let f = file.to_str().unwrap();
    let (code, out) = partie(&["tournament", f]);
    assert_eq!(code, 0, "{}", &out[..out.len().min(300)]);
    assert!(out.contains("Anna"), "{}", &out[..out.len().min(300)]);
    let (code, out) = partie(&["tournament", f, "--add", r#"{"pair":{}}"#]);
    assert_eq!(code, 0, "{}", &out[..out.len().min(300)]);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["events"], serde_json::json!([{"pair": {}}]));
}

#[test]
fn uci_reads_on_past_a_line_that_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app.db");
    let (code, out) = partie_with(
        &["uci".as_ref()],
        &[("PARTIE_DB", app.as_path())],
        b"uci\n\xff\xfe\nisready\nquit\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.lines().any(|l| l == "readyok"), "{out}");
}

#[test]
fn a_reader_that_goes_away_ends_the_output_not_in_a_panic() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("club.db");
    let db_s = db.to_str().unwrap();
    // An export far larger than a pipe holds.
    let matches: Vec<String> = (0..400)
        .map(|i| format!(r#"{{"format":1,"game":"molkky","rules":{{"target":10}},"sides":[["A{i}"],["B{i}"]],"actions":[{{"pins":[10]}}]}}"#))
        .collect();
    let all = dir.path().join("all.json");
    std::fs::write(
        &all,
        format!(r#"{{"format":1,"matches":[{}]}}"#, matches.join(",")),
    )
    .unwrap();
    let (code, out) = partie(&["import", all.to_str().unwrap(), "--db", db_s]);
    assert_eq!(code, 0, "{out}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_partie"))
        .args(["export", "--db", db_s])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_ne!(
        out.status.code(),
        Some(101),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

/// `record -` reads standard input as `record FILE` reads a file, bounded: an endless input
/// (`< /dev/zero`) is refused once past the limit, not read until the memory runs out.
#[test]
fn standard_input_is_bounded_as_a_file_is() {
    let out = Command::new(env!("CARGO_BIN_EXE_partie"))
        .args(["record", "-"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.starts_with("bad_record: standard input is larger than 256 MiB"),
        "{said}"
    );
    // A move list given on standard input is still read whole.
    let (code, out) = partie_with(&["record".as_ref(), "-".as_ref()], &[], b"1. d6 d7\n");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("\"game\":\"morris\"") || out.contains("\"game\": \"morris\""),
        "{out}"
    );
}
