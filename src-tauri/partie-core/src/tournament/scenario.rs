//! Tournament scenarios (`tournaments.md`, the shared examples): a tournament record plus what
//! must hold after replaying it, run by `partie check` beside the match scenarios.

use super::{Tournament, TournamentRecord};
use crate::error::ErrorKind;
use crate::scenario::subset_diff;
use serde::Deserialize;
use serde_json::Value;

/// A refused event.
#[derive(Debug, Clone, Deserialize)]
pub struct Reject {
    /// The 0-based number of the refused event.
    pub at: usize,
    /// The error kind, in snake_case.
    pub error: String,
}

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

fn kind(name: &str) -> Result<ErrorKind, String> {
    ErrorKind::parse(name).ok_or_else(|| format!("unknown error kind {name:?}"))
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
        let setup = Tournament::setup(&self.tournament);
        if let Some(want) = &self.expect_setup_error {
            let want = kind(want)?;
            return match setup {
                Err(e) if e.kind == want => Ok(()),
                Err(e) => Err(format!("setup refused with {e}, expected {want}")),
                Ok(_) => Err(format!("setup accepted, expected {want}")),
            };
        }
        let mut state = setup.map_err(|e| format!("setup refused: {e}"))?;
        let stop = self.reject.as_ref().map_or(self.events.len(), |r| r.at);
        if stop >= self.events.len() && self.reject.is_some() {
            return Err(format!(
                "reject.at is {stop} but there are only {} events",
                self.events.len()
            ));
        }
        for (i, event) in self.events[..stop].iter().enumerate() {
            state = state
                .play_json(event)
                .map_err(|r| format!("event {i} {event} refused: {}", r.error))?;
        }
        if let Some(reject) = &self.reject {
            let want = kind(&reject.error)?;
            let before = state.summary();
            let event = &self.events[reject.at];
            match state.clone().play_json(event) {
                Ok(_) => {
                    return Err(format!(
                        "event {} {event} accepted, expected {want}",
                        reject.at
                    ))
                }
                Err(r) if r.error.kind != want => {
                    return Err(format!(
                        "event {} refused with {}, expected {want}",
                        reject.at, r.error
                    ))
                }
                Err(r) if r.state.summary() != before => {
                    return Err(format!(
                        "event {}: the refusal changed the state",
                        reject.at
                    ))
                }
                Err(_) => {}
            }
        }
        match &self.expect {
            Some(expect) => diff(expect, &state.summary()).map_or(Ok(()), Err),
            None => Ok(()),
        }
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
