//! The options of a Mölkky game (`docs/games/molkky.md`, "Options").

use crate::error::Error;
use crate::options::{bad, choice, number, only};
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

impl MolkkyRules {
    /// Reads the options of a record; a missing key takes its default, an unknown key or a
    /// bad value is `bad_setup`.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, Error> {
        only(
            map,
            "Mölkky",
            &[
                "target",
                "bust_to",
                "misses",
                "three_misses",
                "foul_drop",
                "best_of",
            ],
        )?;
        let target = number(map, "target", 50, 10, 200)?;
        // Codes of their own: the screens say these ranges, which hang on the target, in the
        // user's words.
        let bust_to = number(map, "bust_to", target / 2, 0, target - 1)
            .map_err(|e| e.with_code("bust_to_range"))?;
        let misses = number(map, "misses", 3, 2, 10)?;
        let three_misses = choice(
            map,
            "three_misses",
            MissPenalty::Eliminate,
            &[
                ("eliminate", MissPenalty::Eliminate),
                ("zero", MissPenalty::Zero),
                ("none", MissPenalty::None),
            ],
        )?;
        // Null is "no foul drop", as the default.
        let foul_drop = match map.get("foul_drop") {
            None | Some(Value::Null) => None,
            Some(_) if bust_to + 1 > target - 1 => {
                return Err(
                    bad("foul_drop has no room between bust_to and target".into())
                        .with_code("foul_drop_range"),
                )
            }
            Some(_) => Some(
                number(map, "foul_drop", 0, bust_to + 1, target - 1)
                    .map_err(|e| e.with_code("foul_drop_range"))?,
            ),
        };
        let best_of =
            match number(map, "best_of", 1, 1, 5).map_err(|e| e.with_code("best_of_range"))? {
                n @ (1 | 3 | 5) => n,
                n => {
                    return Err(bad(format!("best_of must be 1, 3 or 5, not {n}"))
                        .with_code("best_of_range"))
                }
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
