//! The computer's move in any game it plays (each game thinks in its own `Game::think`), thought away from the database
//! and the UI thread, and stoppable.

use crate::error::Error;
use crate::game::Game;
use crate::games::MatchState;
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// The action the computer at `level` (1-5) plays for the side to act. `stop` interrupts it:
/// then nothing is proposed (`illegal_action`, code `stopped`), since a half-thought answer to
/// a position the user has left is not wanted.
pub fn think(state: &MatchState, level: u8, stop: Option<Arc<AtomicBool>>) -> Result<Value, Error> {
    // The weaker levels' mistakes need not replay: what is chosen is what is recorded.
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    think_seeded(state, level, seed, stop)
}

/// [`think`] with the randomness given: Boulomania's dice come from `seed`, so that a match
/// played with a fixed seed replays the same rolls.
pub fn think_seeded(
    state: &MatchState,
    level: u8,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Value, Error> {
    state.think(level, seed, stop)
}

/// The level a hint is thought at: a strong one that answers within a second or so.
pub const HINT_LEVEL: u8 = 4;

/// A good action for the side to act, as a hint (nothing is played): thought at
/// [`HINT_LEVEL`], or at the game's strongest level when it has fewer; `illegal_action`
/// (`no_hint`) in a game the computer does not play.
pub fn hint(state: &MatchState, stop: Option<Arc<AtomicBool>>) -> Result<Value, Error> {
    let levels = crate::games::computer_levels(state.game());
    if levels == 0 {
        return Err(Error::illegal(format!("no hint in {}", state.game())).with_code("no_hint"));
    }
    think(state, levels.min(HINT_LEVEL), stop)
}

/// Whether the computer playing `side` accepts a draw offered now (Morris: when it is not
/// better off than a little, by its own evaluation).
pub fn accepts_draw(state: &MatchState, side: usize) -> bool {
    state.accepts_draw(side)
}

/// Dice for a match, from a seed: the same seed and the same point of the match give the same
/// dice (a roll cannot be taken again by leaving and coming back).
pub fn roll(seed: u64, n: usize) -> Result<Vec<u8>, Error> {
    if !(1..=3).contains(&n) {
        return Err(Error::bad_action(format!("one to three dice, not {n}")).with_code("bad_die"));
    }
    let mut rng = crate::rng::Rng::new(seed);
    Ok((0..n).map(|_| 1 + rng.below(6) as u8).collect())
}

/// The choices a Boulomania roll opens (`base`: the action as rolled), each as a record action
/// with the summary it leads to.
pub fn choices(state: &MatchState, base: &Value) -> Result<Vec<Value>, Error> {
    let MatchState::Boulomania(g) = state else {
        return Err(Error::illegal("choices are for Boulomania").with_code("no_choices"));
    };
    let action = crate::boulomania::Action::from_json(base)?;
    if state.is_over() {
        return Err(Error::illegal("the game is over").with_code("game_over"));
    }
    // A roll that is refused as it stands (a double that needs a choice) still has choices.
    let out = g.choices(&action);
    if out.is_empty() {
        let refused = g.as_ref().clone().play(&action);
        return Err(refused.err().map(|r| r.error).unwrap_or_else(|| {
            Error::illegal("this roll cannot be played").with_code("no_choices")
        }));
    }
    Ok(out
        .into_iter()
        .map(|(a, s)| serde_json::json!({"action": a.to_json(), "summary": s}))
        .collect())
}
