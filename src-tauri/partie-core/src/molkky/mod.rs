//! Mölkky (`docs/games/molkky.md`): single games for 2-16 sides, best-of matches with the starter
//! rules, and the mölkkout, inside a match or as its own game.

mod game;
mod leg;
mod molkkout;
mod rules;
mod throw;

pub use game::Molkky;
pub use leg::{Leg, ThrowRecord};
pub use molkkout::Molkkout;
pub use rules::{MissPenalty, MolkkyRules};
pub use throw::{Throw, MOLKKOUT_PINS, PIN_FORMATION};

/// The pin formation, the mölkkout line, and each option's default and range.
pub fn info() -> serde_json::Value {
    serde_json::json!({
        "formation": PIN_FORMATION,
        "molkkout_pins": MOLKKOUT_PINS,
        "sides": {"min": 2, "max": 16},
        "options": {
            "target": {"default": 50, "min": 10, "max": 200},
            "bust_to": {"default": "half the target", "min": 0},
            "misses": {"default": 3, "min": 2, "max": 10},
            "three_misses": {"default": "eliminate", "values": ["eliminate", "zero", "none"]},
            "foul_drop": {"default": null},
            "best_of": {"default": 1, "values": [1, 3, 5]}
        }
    })
}
