//! Match records (`docs/records.md` §1): a setup plus the ordered list of actions.

use crate::error::Error;
use crate::games::MatchState;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The record format this build writes; older formats still load.
pub const FORMAT: u32 = 1;

/// The most actions a record read from outside holds (a file, a hub's page, a push): far more
/// than any match played (a Mölkky match of a thousand rounds), and few enough that a page of
/// records is not gigabytes to read. A Mölkky match that busts forever could be made longer.
pub const MAX_ACTIONS: usize = 100_000;

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
    /// The record of a Morris game written as a move list (`1. d6 f4 ... 1-0`), with `rules`
    /// and `sides` (White and Black when not given); see
    /// [`crate::morris::actions_from_move_list`].
    pub fn from_morris_move_list(
        text: &str,
        rules: Map<String, Value>,
        sides: Option<Vec<Vec<String>>>,
    ) -> Result<Self, Error> {
        let sides = sides.unwrap_or_else(|| vec![vec!["White".into()], vec!["Black".into()]]);
        let actions = crate::morris::actions_from_move_list(text, &rules, &sides)?;
        let mut record = Record::new(
            <crate::morris::Morris as crate::game::Game>::NAME,
            rules,
            sides,
        );
        record.actions = actions;
        Ok(record)
    }

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

    /// Reads a record from JSON text; `bad_record` when it is not one (see [`Record::from_value`]).
    pub fn from_json(text: &str) -> Result<Self, Error> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(Error::bad_record(format!(
                "record is larger than {MAX_RECORD_BYTES} bytes"
            )));
        }
        let value: Value = serde_json::from_str(text)
            .map_err(|e| Error::bad_record(format!("not a record: not JSON: {e}")))?;
        Record::from_value(value)
    }

    /// Reads a record from its JSON value (`docs/records.md` §1 and §4). It is `bad_record`
    /// when it is not a record at all: not an object, a missing or wrong `format`, no `game`,
    /// `actions` that is not a list. A record whose `rules` or `sides` have the wrong JSON type
    /// (`null` included) is `bad_setup`, like any other invalid setup. Other keys are ignored.
    pub fn from_value(value: Value) -> Result<Self, Error> {
        let Value::Object(mut obj) = value else {
            return Err(not_record("not a record: a record is a JSON object"));
        };
        check_format(obj.get("format"), u64::from(FORMAT))?;
        let game = match obj.remove("game") {
            Some(Value::String(game)) => game,
            _ => return Err(not_record("not a record: it names no game")),
        };
        let actions = match obj.remove("actions") {
            None => Vec::new(),
            Some(Value::Array(items)) if items.len() > MAX_ACTIONS => {
                return Err(Error::bad_record(format!(
                    "{} actions: a record holds at most {MAX_ACTIONS}",
                    items.len()
                ))
                .with_code("too_large"))
            }
            Some(Value::Array(items)) => items,
            Some(other) => {
                return Err(not_record(&format!(
                    "not a record: actions are a list, not {}",
                    json_type(&other)
                )))
            }
        };
        Ok(Record {
            format: FORMAT,
            game,
            rules: rules_from_json(obj.get("rules"))?,
            sides: sides_from_json(obj.get("sides"))?,
            actions,
        })
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

/// The JSON type of a value, for details.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A setup's `rules` as JSON: absent (`None`) is all defaults; otherwise an object of options.
/// Any other value, `null` included, is `bad_setup` (a record with invalid rules).
pub fn rules_from_json(rules: Option<&Value>) -> Result<Map<String, Value>, Error> {
    match rules {
        None => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(other) => Err(Error::bad_setup(format!(
            "rules are an object of options, not {}",
            json_type(other)
        ))
        .with_code("rules_type")),
    }
}

/// A setup's `sides` as JSON: a list of sides, each a list of player names (strings). Anything
/// else, a missing or `null` value included, is `bad_setup` (a record with invalid sides).
pub fn sides_from_json(sides: Option<&Value>) -> Result<Vec<Vec<String>>, Error> {
    let bad = |what: String| {
        Error::bad_setup(format!(
            "sides are a list of sides, each a list of player names: {what}"
        ))
        .with_code("sides_type")
    };
    let list = match sides {
        None => return Err(bad("there are none".into())),
        Some(Value::Array(list)) => list,
        Some(other) => return Err(bad(format!("not {}", json_type(other)))),
    };
    list.iter()
        .enumerate()
        .map(|(i, side)| {
            let names = side
                .as_array()
                .ok_or_else(|| bad(format!("side {i} is {}", json_type(side))))?;
            names
                .iter()
                .map(|n| {
                    n.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| bad(format!("side {i} has a name that is {}", json_type(n))))
                })
                .collect()
        })
        .collect()
}

/// `bad_record`, code `not_record`: the file is not a record at all, said so in words of the
/// user's language (a file picked by mistake).
fn not_record(detail: &str) -> Error {
    Error::bad_record(detail.to_string()).with_code("not_record")
}

/// Checks a record's `format` against the one this app writes, `current`: a higher number is a
/// record of a newer app (code `newer_format`: the user is told to update, not that the file is
/// wrong); anything else is not a record (`not_record`).
pub fn check_format(format: Option<&Value>, current: u64) -> Result<(), Error> {
    match format.map(|f| (f, f.as_u64())) {
        Some((_, Some(n))) if n == current => Ok(()),
        Some((f, Some(n))) if n > current => Err(Error::bad_record(format!(
            "unknown record format {f}: a newer app's"
        ))
        .with_code("newer_format")),
        Some((f, _)) => Err(not_record(&format!("unknown record format {f}"))),
        None => Err(not_record("not a record: it has no format")),
    }
}
