//! Boulomania (`docs/games/boulomania.md`): pétanque with dice on a board read from data.

mod action;
pub mod ai;
pub mod board;
mod game;

pub use action::{Action, To, Via};
pub use game::{Boulomania, BoulomaniaRules};

/// The board and the options, for the screens.
pub fn info() -> serde_json::Value {
    let board: serde_json::Value =
        serde_json::from_str(board::BOARD_JSON).unwrap_or(serde_json::Value::Null);
    serde_json::json!({
        "board": board,
        "sides": {"min": 2, "max": 2, "players": {"min": 1, "max": 4}},
        "options": {
            "target": {"default": 13, "min": 1, "max": 99, "presets": [5, 7, 13]},
            "balls": {"default": 8, "min": 1, "max": 8, "presets": [2, 4, 6, 8]}
        }
    })
}
