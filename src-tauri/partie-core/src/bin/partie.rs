//! `partie`: checks scenarios and replays match records (`records.md` section 5).

use partie_core::scenario;
use partie_core::Record;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage:
  partie check PATH...   run scenario files and folders (recursively, *.json)
  partie replay FILE     print the summary of a match record as JSON";

fn check(paths: &[String]) -> ExitCode {
    if paths.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    let roots: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    let missing: Vec<&PathBuf> = roots.iter().filter(|p| !p.exists()).collect();
    let files = scenario::collect(&roots);
    let (mut passed, mut failed) = (0, 0);
    for p in missing {
        println!("FAIL {}: no such file or folder", p.display());
        failed += 1;
    }
    for f in files {
        match scenario::run_file(&f) {
            Ok(()) => {
                println!("ok   {}", f.display());
                passed += 1;
            }
            Err(why) => {
                println!("FAIL {}: {why}", f.display());
                failed += 1;
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn replay(file: &str) -> ExitCode {
    let result = std::fs::read_to_string(file)
        .map_err(|e| partie_core::Error::bad_record(format!("cannot read {file}: {e}")))
        .and_then(|text| Record::from_json(&text))
        .and_then(|r| r.replay());
    match result {
        Ok(state) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&state.summary()).expect("summary is JSON")
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{}: {}", e.kind, e.detail);
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("check") => check(&args[1..]),
        Some("replay") if args.len() == 2 => replay(&args[1]),
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
