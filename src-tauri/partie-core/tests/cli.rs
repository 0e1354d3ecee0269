//! The `partie` command line, as `records.md` section 5 says.

use std::process::Command;

fn partie(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_partie"))
        .args(args)
        .output()
        .expect("partie runs");
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
