//! The options of a Crokinole game (`docs/games/crokinole.md`, "Options").

use crate::error::Error;
use crate::options::{bad, choice, number, only};
use serde::Serialize;
use serde_json::{Map, Value};

/// How a round's points become game points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// The side with more round points scores the difference, the other 0.
    Differential,
    /// Each side adds its own round points.
    Simple,
}

/// How the game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// First to the target.
    Points,
    /// A fixed number of rounds, 2/1/0 game points per round (tournament play).
    Rounds,
}

/// Who starts the next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StartRule {
    /// The player to the left of the previous starter.
    Rotate,
    /// The loser of the previous round may choose; else the rotation.
    LoserChooses,
}

/// Validated options of a Crokinole game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrokinoleRules {
    /// Differential or simple.
    pub scoring: Scoring,
    /// Points or rounds.
    pub format: Format,
    /// Game points that win, with the points format.
    pub target: u32,
    /// Rounds in the game, with the rounds format.
    pub rounds: u32,
    /// Discs per side.
    pub discs: u32,
    /// Who starts each round.
    pub start_rule: StartRule,
}

const KEYS: [&str; 6] = [
    "scoring",
    "format",
    "target",
    "rounds",
    "discs",
    "start_rule",
];

impl CrokinoleRules {
    /// Reads the options for a game of `sides` sides; unknown keys and bad values are
    /// `bad_setup`, and so is differential scoring or the rounds format with three sides.
    pub fn from_map(map: &Map<String, Value>, sides: usize) -> Result<Self, Error> {
        only(map, "Crokinole", &KEYS)?;
        let three = sides == 3;
        let scoring = choice(
            map,
            "scoring",
            if three {
                Scoring::Simple
            } else {
                Scoring::Differential
            },
            &[
                ("differential", Scoring::Differential),
                ("simple", Scoring::Simple),
            ],
        )?;
        let format = choice(
            map,
            "format",
            Format::Points,
            &[("points", Format::Points), ("rounds", Format::Rounds)],
        )?;
        let target = number(map, "target", 100, 5, 1000)?;
        if target % 5 != 0 {
            return Err(bad(format!("target must be a multiple of 5, not {target}"))
                .with_code("target_multiple"));
        }
        let rounds = number(map, "rounds", 4, 1, 20)?;
        let discs = number(map, "discs", if three { 8 } else { 12 }, 1, 12)?;
        let start_rule = choice(
            map,
            "start_rule",
            StartRule::Rotate,
            &[
                ("rotate", StartRule::Rotate),
                ("loser_chooses", StartRule::LoserChooses),
            ],
        )?;
        if three && scoring == Scoring::Differential {
            return Err(
                Error::bad_setup("differential scoring needs exactly 2 sides")
                    .with_code("differential_three"),
            );
        }
        if three && format == Format::Rounds {
            return Err(
                Error::bad_setup("the rounds format is for 2 sides").with_code("rounds_three")
            );
        }
        Ok(CrokinoleRules {
            scoring,
            format,
            target,
            rounds,
            discs,
            start_rule,
        })
    }
}
