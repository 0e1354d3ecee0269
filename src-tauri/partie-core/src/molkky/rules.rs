//! The options of a Mölkky game (`docs/games/molkky.md`, "Options").

use crate::error::Error;
use serde::Serialize;
use serde_json::{Map, Value};

/// What reaching the consecutive-miss limit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MissPenalty {
    /// The side is out for the rest of the leg.
    Eliminate,
    /// The score goes back to 0 and the count starts again.
    Zero,
    /// Nothing happens.
    None,
}

/// Validated options of a Mölkky game or match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MolkkyRules {
    /// The exact score that wins.
    pub target: u32,
    /// Where a score above the target falls back to.
    pub bust_to: u32,
    /// How many consecutive misses trigger `three_misses`.
    pub misses: u32,
    /// What reaching `misses` does.
    pub three_misses: MissPenalty,
    /// With a score at or above this, a foul also drops the score to `bust_to`.
    pub foul_drop: Option<u32>,
    /// Legs in the match: 1, 3 or 5.
    pub best_of: u32,
}

impl Default for MolkkyRules {
    fn default() -> Self {
        MolkkyRules {
            target: 50,
            bust_to: 25,
            misses: 3,
            three_misses: MissPenalty::Eliminate,
            foul_drop: None,
            best_of: 1,
        }
    }
}

fn whole(key: &str, v: &Value) -> Result<u32, Error> {
    v.as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| {
            Error::bad_setup(format!("{key} must be a whole number, not {v}")).with_code("bad_rule")
        })
}

fn within(key: &str, n: u32, lo: u32, hi: u32) -> Result<u32, Error> {
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(
            Error::bad_setup(format!("{key} must be from {lo} to {hi}, not {n}"))
                .with_code("bad_rule"),
        )
    }
}

impl MolkkyRules {
    /// Reads the options of a record; a missing key takes its default, an unknown key or a
    /// bad value is `bad_setup`.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, Error> {
        for key in map.keys() {
            if ![
                "target",
                "bust_to",
                "misses",
                "three_misses",
                "foul_drop",
                "best_of",
            ]
            .contains(&key.as_str())
            {
                return Err(Error::bad_setup(format!("unknown Mölkky option {key:?}"))
                    .with_code("unknown_rule"));
            }
        }
        let target = match map.get("target") {
            Some(v) => within("target", whole("target", v)?, 10, 200)?,
            None => 50,
        };
        let bust_to = match map.get("bust_to") {
            Some(v) => within("bust_to", whole("bust_to", v)?, 0, target - 1)?,
            None => target / 2,
        };
        let misses = match map.get("misses") {
            Some(v) => within("misses", whole("misses", v)?, 2, 10)?,
            None => 3,
        };
        let three_misses = match map.get("three_misses") {
            None => MissPenalty::Eliminate,
            Some(v) => match v.as_str() {
                Some("eliminate") => MissPenalty::Eliminate,
                Some("zero") => MissPenalty::Zero,
                Some("none") => MissPenalty::None,
                _ => {
                    return Err(Error::bad_setup(format!(
                        "three_misses must be \"eliminate\", \"zero\" or \"none\", not {v}"
                    ))
                    .with_code("bad_rule"))
                }
            },
        };
        let foul_drop = match map.get("foul_drop") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let n = whole("foul_drop", v)?;
                if bust_to + 1 > target - 1 {
                    return Err(Error::bad_setup(
                        "foul_drop has no room between bust_to and target",
                    )
                    .with_code("bad_rule"));
                }
                Some(within("foul_drop", n, bust_to + 1, target - 1)?)
            }
        };
        let best_of = match map.get("best_of") {
            None => 1,
            Some(v) => match whole("best_of", v)? {
                n @ (1 | 3 | 5) => n,
                n => {
                    return Err(
                        Error::bad_setup(format!("best_of must be 1, 3 or 5, not {n}"))
                            .with_code("bad_rule"),
                    )
                }
            },
        };
        Ok(MolkkyRules {
            target,
            bust_to,
            misses,
            three_misses,
            foul_drop,
            best_of,
        })
    }

    /// Legs a side needs to win the match.
    pub fn legs_to_win(&self) -> u32 {
        self.best_of / 2 + 1
    }
}
