//! Runs every scenario of the project, and the shared example scenarios of the games this
//! build implements.

use partie_core::games::GAMES;
use partie_core::scenario::{collect, run_file, Scenario};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run_all(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .filter_map(|f| {
            run_file(f)
                .err()
                .map(|why| format!("{}: {why}", f.display()))
        })
        .collect()
}

#[test]
fn project_scenarios_pass() {
    let files = collect(&[repo().join("tests/scenarios")]);
    assert!(
        files.len() >= 80,
        "expected the project's scenarios, found {}",
        files.len()
    );
    let failures = run_all(&files);
    assert!(
        failures.is_empty(),
        "failing scenarios:\n{}",
        failures.join("\n")
    );
}

#[test]
fn each_game_has_its_scenarios() {
    for (game, least) in [
        ("molkky", 40),
        ("crokinole", 30),
        ("morris", 40),
        ("boulomania", 45),
    ] {
        let n = collect(&[repo().join("tests/scenarios").join(game)]).len();
        assert!(n >= least, "only {n} {game} scenarios");
    }
}

/// `../shared/scenarios` is beside the checkout in CI; scenarios of games not built yet are
/// counted and named, never silently passed.
#[test]
fn shared_scenarios_of_built_games_pass() {
    let shared = repo().join("../shared/scenarios");
    if !shared.is_dir() {
        eprintln!("no shared scenarios beside this checkout");
        return;
    }
    let mut mine = Vec::new();
    let mut later = Vec::new();
    let mut unread = Vec::new();
    for f in collect(&[shared]) {
        // A file that cannot be read as a scenario is a failure, not one waiting for its game.
        let game = std::fs::read_to_string(&f)
            .map_err(|e| e.to_string())
            .and_then(|t| Scenario::from_json(&t))
            .map(|s| s.game);
        match game {
            Ok(game) if GAMES.contains(&game.as_str()) => mine.push(f),
            Ok(_) => later.push(f),
            Err(e) => unread.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(
        unread.is_empty(),
        "shared scenarios not read:\n{}",
        unread.join("\n")
    );
    assert!(
        !mine.is_empty(),
        "no shared scenario for the games of this build"
    );
    eprintln!(
        "{} shared scenarios run; {} wait for their game: {:?}",
        mine.len(),
        later.len(),
        later
    );
    let failures = run_all(&mine);
    assert!(
        failures.is_empty(),
        "failing shared scenarios:\n{}",
        failures.join("\n")
    );
}

fn scenario(json: &str) -> Result<(), String> {
    Scenario::from_json(json)?.run()
}

#[test]
fn runner_reports_a_wrong_expectation() {
    let wrong = r#"{"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[7]}],"expect":{"scores":[8,0]}}"#;
    let err = scenario(wrong).unwrap_err();
    assert!(err.contains("scores"), "{err}");
}

#[test]
fn runner_reports_an_accepted_reject() {
    let wrong = r#"{"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[7]}],"reject":{"at":0,"error":"bad_action"}}"#;
    assert!(scenario(wrong).unwrap_err().contains("accepted"));
}

#[test]
fn runner_reports_the_wrong_error_kind() {
    let wrong = r#"{"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[13]}],"reject":{"at":0,"error":"illegal_action"}}"#;
    assert!(scenario(wrong).unwrap_err().contains("bad_action"));
}

#[test]
fn runner_reports_an_accepted_setup() {
    let wrong = r#"{"game":"molkky","sides":[["A"],["B"]],"expect_setup_error":"bad_setup"}"#;
    assert!(scenario(wrong).unwrap_err().contains("accepted"));
}

#[test]
fn runner_compares_arrays_whole_and_objects_by_key() {
    let ok = r#"{"game":"molkky","sides":[["A"],["B"]],"actions":[{"pins":[7]}],"expect":{"last_throw":{"points":7}}}"#;
    assert_eq!(scenario(ok), Ok(()));
    let short = r#"{"game":"molkky","sides":[["A"],["B"]],"actions":[],"expect":{"scores":[0]}}"#;
    assert!(scenario(short).is_err());
}

#[test]
fn invalid_scenario_is_a_failure_not_a_crash() {
    assert!(scenario("{not json")
        .unwrap_err()
        .contains("not a valid scenario"));
    assert!(scenario(r#"{"game":"molkky"}"#).is_err());
    assert!(scenario(r#"{"game":"chess","sides":[["A"],["B"]],"actions":[]}"#).is_err());
}
