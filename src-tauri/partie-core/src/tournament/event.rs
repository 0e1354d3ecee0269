//! A tournament's events (`docs/tournaments.md`, "Events"), read from their JSON form.

use super::setup;
use crate::error::{Error, ErrorKind};
use serde::Serialize;
use serde_json::{Map, Value};

/// The event keys: an event has exactly one of them; any other key is ignored (an `"at"`).
pub const EVENT_KEYS: &[&str] = &["pair", "result", "withdraw", "enter", "rounds"];

/// How a table's match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Outcome {
    /// The match was played: the winner (0 or 1, `None` for a draw) and each side's scores.
    Played {
        /// Side 0 or 1 of the pairing; `None` is a draw.
        winner: Option<usize>,
        /// Each side's match score.
        scores: [u32; 2],
        /// Crokinole's 20s per side.
        #[serde(skip_serializing_if = "Option::is_none")]
        twenties: Option<[u32; 2]>,
        /// The id of the app's match record, when it was scored in the app.
        #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
        record: Option<Value>,
    },
    /// Side `forfeit` did not play: the other side wins.
    Forfeit {
        /// The side that did not play.
        forfeit: usize,
    },
}

impl Outcome {
    /// The winning side of the pairing, if any.
    pub fn winner(&self) -> Option<usize> {
        match self {
            Outcome::Played { winner, .. } => *winner,
            Outcome::Forfeit { forfeit } => Some(1 - forfeit),
        }
    }
}

/// A result for one table of one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableResult {
    /// The round, from 1.
    pub round: usize,
    /// The table, from 0.
    pub table: usize,
    /// How it ended.
    pub outcome: Outcome,
}

/// One event of a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Close the round and pair the next one.
    Pair,
    /// A table's match ended.
    Result(TableResult),
    /// An entrant plays no further round.
    Withdraw(usize),
    /// A late entrant.
    Enter(Vec<String>),
    /// The number of rounds changed (a Swiss filled at the door, or cut short): the project's
    /// own event, beside the specification's four (docs/tournaments.md).
    Rounds(usize),
}

fn bad(detail: impl Into<String>) -> Error {
    Error::bad_action(detail)
}

fn index(value: &Value, what: &str) -> Result<usize, Error> {
    value
        .as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| bad(format!("{what} must be a whole number, not {value}")))
}

fn pair_of_counts(value: &Value, what: &str) -> Result<[u32; 2], Error> {
    let list = value
        .as_array()
        .filter(|l| l.len() == 2)
        .ok_or_else(|| bad(format!("{what} must be a list of two numbers, not {value}")))?;
    let mut out = [0; 2];
    for (slot, v) in out.iter_mut().zip(list) {
        *slot = v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| bad(format!("{what} must be whole numbers ≥ 0, not {v}")))?;
    }
    Ok(out)
}

fn side(value: &Value, what: &str) -> Result<usize, Error> {
    match value.as_u64() {
        Some(s @ (0 | 1)) => Ok(s as usize),
        _ => Err(bad(format!("{what} must be side 0 or 1, not {value}"))),
    }
}

fn result(map: &Map<String, Value>) -> Result<TableResult, Error> {
    let need = |k: &str| {
        map.get(k)
            .ok_or_else(|| bad(format!("a result needs {k:?}")))
    };
    // Round 0 is well formed and never the current round once a round is paired: refused
    // there as any other round that is not the current one (`illegal_action`).
    let round = index(need("round")?, "round")?;
    let table = index(need("table")?, "table")?;
    let outcome = if let Some(f) = map.get("forfeit") {
        if ["winner", "scores", "twenties"]
            .iter()
            .any(|k| map.contains_key(*k))
        {
            return Err(bad("a forfeit has no winner, scores or twenties"));
        }
        Outcome::Forfeit {
            forfeit: side(f, "forfeit")?,
        }
    } else {
        let winner = match need("winner")? {
            Value::Null => None,
            w => Some(side(w, "winner")?),
        };
        let scores = pair_of_counts(need("scores")?, "scores")?;
        let twenties = match map.get("twenties") {
            None => None,
            Some(t) => Some(pair_of_counts(t, "twenties")?),
        };
        let record = match map.get("match") {
            None => None,
            Some(v @ Value::String(_)) => Some(v.clone()),
            Some(v) if v.is_u64() => Some(v.clone()),
            Some(v) => return Err(bad(format!("match must be a record id, not {v}"))),
        };
        Outcome::Played {
            winner,
            scores,
            twenties,
            record,
        }
    };
    Ok(TableResult {
        round,
        table,
        outcome,
    })
}

impl Event {
    /// Reads an event; `bad_action` when it is malformed, whatever the tournament's state.
    pub fn parse(value: &Value) -> Result<Self, Error> {
        let map = value
            .as_object()
            .ok_or_else(|| bad(format!("an event must be an object, not {value}")))?;
        let mut keys = EVENT_KEYS.iter().filter(|k| map.contains_key(**k));
        let key = keys
            .next()
            .ok_or_else(|| bad(format!("unknown event {value}")))?;
        if let Some(other) = keys.next() {
            return Err(bad(format!(
                "an event has one key, not {key:?} and {other:?}"
            )));
        }
        let body = &map[*key];
        match *key {
            "pair" => match body {
                Value::Object(o) if o.is_empty() => Ok(Event::Pair),
                _ => Err(bad(format!("pair takes {{}}, not {body}"))),
            },
            "result" => match body {
                Value::Object(o) => result(o).map(Event::Result),
                _ => Err(bad(format!("a result must be an object, not {body}"))),
            },
            "withdraw" => index(body, "withdraw").map(Event::Withdraw),
            "rounds" => match index(body, "rounds")? {
                0 => Err(bad("a tournament plays at least one round")),
                n => Ok(Event::Rounds(n)),
            },
            // A late entrant's name is part of an action: refused as one, its code kept.
            _ => setup::entrant(body)
                .map(Event::Enter)
                .map_err(|e| e.with_kind(ErrorKind::BadAction)),
        }
    }
}
