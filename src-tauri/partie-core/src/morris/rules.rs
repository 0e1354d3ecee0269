//! The options of a Nine Men's Morris game (`docs/games/morris.md`, "Options").

use crate::error::Error;
use crate::options::{bad, choice, flag, number, only};
use serde::Serialize;
use serde_json::{Map, Value};

/// What re-closing a mill that has already given a removal does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SameMill {
    /// Opening a mill and closing it again removes again (seed 004).
    Again,
    /// A line gives each side a removal only once in a game.
    Once,
}

/// How many pieces closing two (or three) mills at once removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DoubleMill {
    /// One piece, however many mills closed.
    One,
    /// One piece per mill closed.
    Each,
}

/// Validated options of a Morris game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct MorrisRules {
    /// Pieces per side, 3-12.
    pub pieces: u8,
    /// A side with exactly 3 pieces moves any of them to any empty point.
    pub flying: bool,
    /// The four diagonal lines are part of the board.
    pub diagonals: bool,
    /// Whether a line gives a side a removal again.
    pub same_mill: SameMill,
    /// Removals for a double mill.
    pub double_mill: DoubleMill,
    /// The occurrence of a position that draws (0 = off).
    pub repetition: u8,
    /// Move tokens in a row without a removal that draw (0 = off).
    pub quiet_moves: u16,
}

impl Default for MorrisRules {
    fn default() -> Self {
        MorrisRules {
            pieces: 9,
            flying: true,
            diagonals: false,
            same_mill: SameMill::Again,
            double_mill: DoubleMill::One,
            repetition: 3,
            quiet_moves: 100,
        }
    }
}

const KEYS: [&str; 7] = [
    "pieces",
    "flying",
    "diagonals",
    "same_mill",
    "double_mill",
    "repetition",
    "quiet_moves",
];

impl MorrisRules {
    /// Reads the options of a record; a missing key takes its default, an unknown key or a bad
    /// value is `bad_setup`.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, Error> {
        only(map, "Morris", &KEYS)?;
        let d = MorrisRules::default();
        // Codes of their own: the screens say these ranges in the user's words.
        let repetition = number(map, "repetition", d.repetition as u32, 0, 5)
            .map_err(|e| e.with_code("repetition_range"))?;
        if repetition == 1 {
            return Err(
                bad("repetition must be 0 (off) or from 2 to 5, not 1".into())
                    .with_code("repetition_range"),
            );
        }
        let quiet_moves = number(map, "quiet_moves", d.quiet_moves as u32, 0, 400)
            .map_err(|e| e.with_code("quiet_moves_range"))?;
        if (1..10).contains(&quiet_moves) {
            return Err(bad(format!(
                "quiet_moves must be 0 (off) or from 10 to 400, not {quiet_moves}"
            ))
            .with_code("quiet_moves_range"));
        }
        Ok(MorrisRules {
            pieces: number(map, "pieces", d.pieces as u32, 3, 12)? as u8,
            flying: flag(map, "flying", d.flying)?,
            diagonals: flag(map, "diagonals", d.diagonals)?,
            same_mill: choice(
                map,
                "same_mill",
                d.same_mill,
                &[("again", SameMill::Again), ("once", SameMill::Once)],
            )?,
            double_mill: choice(
                map,
                "double_mill",
                d.double_mill,
                &[("one", DoubleMill::One), ("each", DoubleMill::Each)],
            )?,
            repetition: repetition as u8,
            quiet_moves: quiet_moves as u16,
        })
    }

    /// The options as a record's `rules` object (every key, defaults included).
    pub fn to_map(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }
}
