//! Match records (`records.md` section 1): a setup plus the ordered list of actions.

use crate::error::Error;
use crate::game::MatchState;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The record format this build writes; older formats still load.
pub const FORMAT: u32 = 1;

/// The largest record file accepted, so that a stray file cannot exhaust memory.
pub const MAX_RECORD_BYTES: usize = 8 * 1024 * 1024;

/// A match record: everything else is derived by replaying `actions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Format version, 1 for now.
    pub format: u32,
    /// The game's record name (`molkky`, `molkkout`, ...).
    pub game: String,
    /// The game's options; a missing key takes its default.
    #[serde(default)]
    pub rules: Map<String, Value>,
    /// The sides in playing order, each its players' names.
    pub sides: Vec<Vec<String>>,
    /// The actions in the order they happened.
    #[serde(default)]
    pub actions: Vec<Value>,
}

impl Record {
    /// A record of a new match with no action yet.
    pub fn new(game: &str, rules: Map<String, Value>, sides: Vec<Vec<String>>) -> Self {
        Record {
            format: FORMAT,
            game: game.to_string(),
            rules,
            sides,
            actions: Vec::new(),
        }
    }

    /// Reads a record from JSON text; `bad_record` when it is not one.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(Error::bad_record(format!(
                "record is larger than {MAX_RECORD_BYTES} bytes"
            )));
        }
        let record: Record = serde_json::from_str(text)
            .map_err(|e| Error::bad_record(format!("not a record: {e}")))?;
        if record.format != FORMAT {
            return Err(Error::bad_record(format!(
                "unknown record format {}",
                record.format
            )));
        }
        Ok(record)
    }

    /// Sets the match up (without its actions).
    pub fn setup(&self) -> Result<MatchState, Error> {
        MatchState::setup(&self.game, &self.rules, &self.sides)
    }

    /// Replays every action; the first refusal is returned with the action's number.
    pub fn replay(&self) -> Result<MatchState, Error> {
        let mut state = self.setup()?;
        for (i, action) in self.actions.iter().enumerate() {
            state = state.play(action).map_err(|r| {
                let mut e = r.error;
                e.detail = format!("action {i}: {}", e.detail);
                e
            })?;
        }
        Ok(state)
    }
}
