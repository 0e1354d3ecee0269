//! Crokinole's actions: a 20 sunk during the round, the round's count, the loser's choice.

use crate::error::Error;
use crate::game::{action_key, optional};
use serde_json::Value;

/// The zones of a count, the bowl of 20s first, with their values.
pub const ZONES: [(&str, u32); 4] = [("20", 20), ("15", 15), ("10", 10), ("5", 5)];

/// A round's count: discs per side in each zone; `None` for the 20s means "the live tally".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundCounts {
    /// Discs in the bowl per side, when given.
    pub twenties: Option<Vec<u32>>,
    /// Discs in the 15, 10 and 5 zones, per side.
    pub zones: [Vec<u32>; 3],
}

/// One Crokinole action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A side sank a disc in the centre hole (live tally).
    Twenty(usize),
    /// The round is over: the counts.
    Round(RoundCounts),
    /// The loser of the previous round says which side starts this one.
    Starter(usize),
}

fn side_index(v: &Value, key: &str, sides: usize) -> Result<usize, Error> {
    v.as_u64()
        .filter(|&s| (s as usize) < sides)
        .map(|s| s as usize)
        .ok_or_else(|| {
            Error::bad_action(format!(
                "{key} must be a side from 0 to {}, not {v}",
                sides - 1
            ))
            .with_code("no_such_side")
        })
}

fn counts(v: &Value, zone: &str, sides: usize) -> Result<Vec<u32>, Error> {
    let bad = || {
        Error::bad_action(format!(
            "zone {zone} needs {sides} whole numbers (one per side), not {v}"
        ))
        .with_code("bad_count")
    };
    let arr = v.as_array().filter(|a| a.len() == sides).ok_or_else(bad)?;
    arr.iter()
        .map(|n| {
            n.as_u64()
                .filter(|&n| n <= 1000)
                .map(|n| n as u32)
                .ok_or_else(bad)
        })
        .collect()
}

impl Action {
    /// Reads an action for a game of `sides` sides. Keys an action does not use are ignored,
    /// except the action keys of every game: an action has exactly one.
    pub fn from_json(v: &Value, sides: usize) -> Result<Self, Error> {
        let shape = || {
            Error::bad_action("a Crokinole action is {\"twenty\": side}, {\"round\": {...}} or {\"starter\": side}").with_code("shape")
        };
        let obj = v.as_object().ok_or_else(shape)?;
        match action_key(obj, &["twenty", "round", "starter"], "Crokinole")? {
            Some("twenty") => Ok(Action::Twenty(side_index(&obj["twenty"], "twenty", sides)?)),
            Some("starter") => Ok(Action::Starter(side_index(
                &obj["starter"],
                "starter",
                sides,
            )?)),
            Some("round") => {
                let round = obj["round"].as_object().ok_or_else(shape)?;
                if let Some(k) = round.keys().find(|k| !ZONES.iter().any(|(z, _)| z == k)) {
                    return Err(Error::bad_action(format!(
                        "there is no zone {k:?}: zones are 20, 15, 10 and 5"
                    ))
                    .with_code("no_such_zone"));
                }
                let zone = |z: &str| optional(round, z)?.map(|v| counts(v, z, sides)).transpose();
                let zero = || vec![0; sides];
                Ok(Action::Round(RoundCounts {
                    twenties: zone("20")?,
                    zones: [
                        zone("15")?.unwrap_or_else(zero),
                        zone("10")?.unwrap_or_else(zero),
                        zone("5")?.unwrap_or_else(zero),
                    ],
                }))
            }
            _ => Err(shape()),
        }
    }
}
