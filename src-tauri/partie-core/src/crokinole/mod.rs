//! Crokinole (`docs/games/crokinole.md`): singles, doubles, a team of two against one player, or
//! three colours; differential or simple scoring; first to a target or a fixed number of rounds.

mod action;
mod game;
mod rules;

pub use action::{Action, RoundCounts, ZONES};
pub use game::Crokinole;
pub use rules::{CrokinoleRules, Format, Scoring, StartRule};

/// The zones (bowl first), the defaults and ranges of the options, for the screens.
pub fn info() -> serde_json::Value {
    serde_json::json!({
        "zones": ZONES,
        // Three sides are single players; two sides have one or two each.
        "sides": {"min": 2, "max": 3, "players": {"min": 1, "max": 2}},
        "options": {
            "scoring": {"default": "differential (2 sides), simple (3 sides)", "values": ["differential", "simple"]},
            "format": {"default": "points", "values": ["points", "rounds"]},
            "target": {"default": 100, "min": 5, "max": 1000, "step": 5, "presets": [50, 100, 150]},
            "rounds": {"default": 4, "min": 1, "max": 20},
            "discs": {"default": "12 (2 sides), 8 (3 sides)", "min": 1, "max": 12},
            "start_rule": {"default": "rotate", "values": ["rotate", "loser_chooses"]}
        }
    })
}
