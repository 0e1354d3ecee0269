//! The computer's move in any game it plays (Morris for now), thought away from the database
//! and the UI thread, and stoppable.

use crate::error::Error;
use crate::game::MatchState;
use crate::morris::search::Level;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// The action the computer at `level` (1-5) plays for the side to act. `stop` interrupts it:
/// then nothing is proposed (`illegal_action`, code `stopped`), since a half-thought answer to
/// a position the user has left is not wanted.
pub fn think(state: &MatchState, level: u8, stop: Option<Arc<AtomicBool>>) -> Result<Value, Error> {
    let level = Level::new(level).ok_or_else(|| {
        Error::bad_setup(format!("no computer level {level}")).with_code("bad_computer")
    })?;
    let MatchState::Morris(g) = state else {
        return Err(
            Error::illegal("the computer does not play this game").with_code("bad_computer")
        );
    };
    if state.is_over() {
        return Err(Error::illegal("the game is over").with_code("game_over"));
    }
    // The weaker levels' mistakes need not replay: the token chosen is what is recorded.
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let token = level.choose(g.position(), g.repetitions(), seed, stop.clone());
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Err(Error::illegal("the computer was stopped").with_code("stopped"));
    }
    token
        .map(|t| Value::String(t.to_string()))
        .ok_or_else(|| Error::illegal("there is no move to play").with_code("game_over"))
}

/// Whether the computer playing `side` accepts a draw offered now: when it is not better off
/// than a little, by its own evaluation.
pub fn accepts_draw(state: &MatchState, side: usize) -> bool {
    let MatchState::Morris(g) = state else {
        return false;
    };
    let pos = g.position();
    let score = crate::morris::search::evaluate(pos);
    let for_side = if pos.turn() as usize == side {
        score
    } else {
        -score
    };
    for_side <= 30
}
