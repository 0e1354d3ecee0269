//! Scenarios (`docs/records.md` §2): a record plus what must hold after replaying it.

use crate::error::ErrorKind;
use crate::games::MatchState;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// A refusal the scenario expects.
#[derive(Debug, Clone, Deserialize)]
pub struct Reject {
    /// The 0-based number of the refused action.
    pub at: usize,
    /// The error kind, in snake_case.
    pub error: String,
}

/// One scenario file.
#[derive(Debug, Clone, Deserialize)]
pub struct Scenario {
    /// What the scenario shows.
    #[serde(default)]
    pub name: String,
    /// The rule sentence it checks.
    #[serde(default)]
    pub source: String,
    /// The game's record name.
    pub game: String,
    /// The game's options, as given (a value of the wrong type is the setup's error to find).
    #[serde(default, deserialize_with = "present")]
    pub rules: Option<Value>,
    /// The sides, as given.
    #[serde(default, deserialize_with = "present")]
    pub sides: Option<Value>,
    /// The actions to replay.
    #[serde(default)]
    pub actions: Vec<Value>,
    /// Keys the summary must have (a subset match).
    #[serde(default)]
    pub expect: Option<Value>,
    /// An action that must be refused.
    #[serde(default)]
    pub reject: Option<Reject>,
    /// The setup itself must be refused with this kind.
    #[serde(default)]
    pub expect_setup_error: Option<String>,
}

/// A key given, `null` included: `null` is a value, not a missing key (`docs/records.md` §1).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

fn kind(name: &str) -> Result<ErrorKind, String> {
    ErrorKind::parse(name).ok_or_else(|| format!("unknown error kind {name:?}"))
}

fn numbers_equal(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// Whether `actual` holds `expected`: objects key by key, recursively; anything else whole.
pub fn subset_diff(expected: &Value, actual: &Value, path: &str) -> Option<String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e.iter().find_map(|(k, ev)| {
            let p = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            match a.get(k) {
                Some(av) => subset_diff(ev, av, &p),
                None => Some(format!("{p}: expected {ev}, missing")),
            }
        }),
        (Value::Array(e), Value::Array(a)) => {
            if e.len() == a.len() && e.iter().zip(a).all(|(x, y)| subset_equal(x, y)) {
                None
            } else {
                Some(format!("{path}: expected {expected}, got {actual}"))
            }
        }
        (Value::Number(_), Value::Number(_)) if numbers_equal(expected, actual) => None,
        _ if expected == actual => None,
        _ => Some(format!("{path}: expected {expected}, got {actual}")),
    }
}

/// Arrays compare whole, but their objects compare like values (numbers by value).
fn subset_equal(e: &Value, a: &Value) -> bool {
    match (e, a) {
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| subset_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| subset_equal(v, w)))
        }
        (Value::Number(_), Value::Number(_)) => numbers_equal(e, a),
        _ => e == a,
    }
}

impl Scenario {
    /// Reads a scenario from JSON text.
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("not a valid scenario: {e}"))
    }

    /// Runs the scenario: `Ok(())` when everything it says holds, else what differed.
    pub fn run(&self) -> Result<(), String> {
        // Read like a record's setup: `null` or a value of the wrong type is `bad_setup`.
        let setup = crate::record::rules_from_json(self.rules.as_ref()).and_then(|rules| {
            let sides = crate::record::sides_from_json(self.sides.as_ref())?;
            MatchState::setup(&self.game, &rules, &sides)
        });
        let checks = Checks {
            what: "action",
            steps: &self.actions,
            expect: self.expect.as_ref(),
            reject: self.reject.as_ref(),
            expect_setup_error: self.expect_setup_error.as_deref(),
        };
        checks.run(
            setup,
            |s, a| s.play(a),
            MatchState::summary,
            |a, b| a == b && a.summary() == b.summary(),
            |expect, summary| subset_diff(expect, summary, ""),
        )
    }
}

/// What a scenario checks, for a match (its actions) or a tournament (its events) alike.
pub(crate) struct Checks<'a> {
    /// "action" or "event", for the messages.
    pub what: &'a str,
    /// The actions or events to replay.
    pub steps: &'a [Value],
    /// Keys the summary must have after the steps (before the refused one).
    pub expect: Option<&'a Value>,
    /// A step that must be refused, leaving the state as it was.
    pub reject: Option<&'a Reject>,
    /// The setup itself must be refused with this kind.
    pub expect_setup_error: Option<&'a str>,
}

impl Checks<'_> {
    /// Runs the checks on a setup: `play` applies a step, `same` says whether a refusal left
    /// the state as it was, `diff` compares the expected keys with the summary.
    pub(crate) fn run<S: Clone>(
        &self,
        setup: Result<S, crate::Error>,
        play: impl Fn(S, &Value) -> Result<S, crate::game::Refused<S>>,
        summary: impl Fn(&S) -> Value,
        same: impl Fn(&S, &S) -> bool,
        diff: impl Fn(&Value, &Value) -> Option<String>,
    ) -> Result<(), String> {
        let what = self.what;
        if let Some(want) = self.expect_setup_error {
            let want = kind(want)?;
            return match setup {
                Err(e) if e.kind == want => Ok(()),
                Err(e) => Err(format!(
                    "setup refused with {} ({}), expected {want}",
                    e.kind, e.detail
                )),
                Ok(_) => Err(format!("setup accepted, expected {want}")),
            };
        }
        let mut state = setup.map_err(|e| format!("setup refused: {e}"))?;
        let stop = self.reject.map_or(self.steps.len(), |r| r.at);
        if stop >= self.steps.len() && self.reject.is_some() {
            return Err(format!(
                "reject.at is {stop} but there are only {} {what}s",
                self.steps.len()
            ));
        }
        for (i, step) in self.steps[..stop].iter().enumerate() {
            state =
                play(state, step).map_err(|r| format!("{what} {i} {step} refused: {}", r.error))?;
        }
        if let Some(reject) = self.reject {
            let want = kind(&reject.error)?;
            let step = &self.steps[reject.at];
            match play(state.clone(), step) {
                Ok(_) => {
                    return Err(format!(
                        "{what} {} {step} accepted, expected {want}",
                        reject.at
                    ))
                }
                Err(r) if r.error.kind != want => {
                    return Err(format!(
                        "{what} {} refused with {} ({}), expected {want}",
                        reject.at, r.error.kind, r.error.detail
                    ))
                }
                Err(r) if !same(&r.state, &state) => {
                    return Err(format!(
                        "{what} {}: the refusal changed the state",
                        reject.at
                    ))
                }
                Err(_) => {}
            }
        }
        match self.expect {
            Some(expect) => diff(expect, &summary(&state)).map_or(Ok(()), Err),
            None => Ok(()),
        }
    }
}

/// Every `*.json` file under the given files and folders, sorted within each folder.
pub fn collect(paths: &[PathBuf]) -> Vec<PathBuf> {
    // Each folder is walked once, by where it really is: links that lead back up (a cycle)
    // would otherwise make the walk endless.
    fn walk(p: &Path, seen: &mut HashSet<PathBuf>, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            if !seen.insert(p.canonicalize().unwrap_or_else(|_| p.to_path_buf())) {
                return;
            }
            let mut entries: Vec<PathBuf> = match std::fs::read_dir(p) {
                Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
                Err(_) => return,
            };
            entries.sort();
            for e in entries {
                walk(&e, seen, out);
            }
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p.to_path_buf());
        }
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for p in paths {
        if p.is_file() {
            out.push(p.clone());
        } else {
            walk(p, &mut seen, &mut out);
        }
    }
    out
}

/// Runs one scenario file, of a match or of a tournament; a file that is not a valid scenario
/// is a failure, not a crash.
pub fn run_file(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    // A tournament scenario (`docs/records.md` §2) says so by its `tournament` key.
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("not a valid scenario: {e}"))?;
    if value.get("tournament").is_some() {
        return crate::tournament::scenario::run(&value);
    }
    Scenario::from_json(&text)?.run()
}
