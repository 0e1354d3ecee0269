//! Tournament scenarios (`docs/records.md` §2): a tournament record plus what
//! must hold after replaying it, run by `partie check` beside the match scenarios.

use super::{Tournament, TournamentRecord};
use crate::scenario::{subset_diff, Checks, Reject};
use serde::Deserialize;
use serde_json::Value;

/// One tournament scenario file.
#[derive(Debug, Clone, Deserialize)]
pub struct Scenario {
    /// What the scenario shows.
    #[serde(default)]
    pub name: String,
    /// The rule sentence it checks.
    #[serde(default)]
    pub source: String,
    /// The setup.
    pub tournament: Value,
    /// The events to replay.
    #[serde(default)]
    pub events: Vec<Value>,
    /// Keys the summary must have: a subset match, where a standings row may list only some
    /// figures.
    #[serde(default)]
    pub expect: Option<Value>,
    /// An event that must be refused, leaving the state as it was.
    #[serde(default)]
    pub reject: Option<Reject>,
    /// The setup itself must be refused with this kind.
    #[serde(default)]
    pub expect_setup_error: Option<String>,
}

/// What differs between the expected keys and the summary; standings rows compare as subsets.
fn diff(expect: &Value, summary: &Value) -> Option<String> {
    let Value::Object(want) = expect else {
        return Some("expect must be an object".into());
    };
    for (key, e) in want {
        let got = summary.get(key).unwrap_or(&Value::Null);
        let d = match (key.as_str(), e, got) {
            ("standings", Value::Array(rows), Value::Array(have)) => {
                if rows.len() != have.len() {
                    Some(format!(
                        "standings: expected {} rows, got {}",
                        rows.len(),
                        have.len()
                    ))
                } else {
                    rows.iter()
                        .zip(have)
                        .enumerate()
                        .find_map(|(i, (r, h))| subset_diff(r, h, &format!("standings[{i}]")))
                }
            }
            _ => subset_diff(e, got, key),
        };
        if d.is_some() {
            return d;
        }
    }
    None
}

impl Scenario {
    /// Runs the scenario: `Ok(())` when everything it says holds, else what differed.
    pub fn run(&self) -> Result<(), String> {
        let checks = Checks {
            what: "event",
            steps: &self.events,
            expect: self.expect.as_ref(),
            reject: self.reject.as_ref(),
            expect_setup_error: self.expect_setup_error.as_deref(),
        };
        checks.run(
            Tournament::setup(&self.tournament),
            |t, e| t.play_json(e),
            Tournament::summary,
            |a, b| a.summary() == b.summary(),
            diff,
        )
    }
}

/// Runs a scenario given as parsed JSON.
pub fn run(value: &Value) -> Result<(), String> {
    let s: Scenario =
        serde_json::from_value(value.clone()).map_err(|e| format!("not a valid scenario: {e}"))?;
    s.run()
}

/// `partie tournament FILE`: the summary of a tournament record, or its error.
pub fn summarise(text: &str) -> Result<Value, crate::Error> {
    Ok(TournamentRecord::from_json(text)?.replay()?.summary())
}
