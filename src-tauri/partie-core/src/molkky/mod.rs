//! Mölkky (`molkky.md`): single games for 2-16 sides, best-of matches with the starter rules,
//! and the mölkkout, inside a match or as its own game.

mod game;
mod leg;
mod molkkout;
mod rules;
mod throw;

pub use game::Molkky;
pub use leg::Leg;
pub use molkkout::Molkkout;
pub use rules::{MissPenalty, MolkkyRules};
pub use throw::{Throw, MOLKKOUT_PINS, PIN_FORMATION};
