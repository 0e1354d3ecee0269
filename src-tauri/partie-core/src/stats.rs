//! Each player's figures in one finished match, derived by replaying its record. The store
//! keeps them per match so that a player's statistics add up rows instead of replaying. What a
//! game counts is its own ([`crate::game::Game::counters`]).

use crate::error::Error;
use crate::game::{Computer, Counters};
use crate::record::Record;

/// One player's figures in one match.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerFigures {
    /// The side.
    pub side: usize,
    /// The player's place in the side.
    pub seat: usize,
    /// `won`, `lost` or `drawn`.
    pub result: &'static str,
    /// The side's place (1 is first), as the ratings take it.
    pub place: u32,
    /// The side's score at the end, as the scorepad showed it (exports).
    pub score: u32,
    /// Counters of the game (summed over matches by the statistics).
    pub counters: Counters,
}

/// The figures of every player of a finished match (none while it is being played).
/// `computer` gives the sides the computer played, so that results against it are counted
/// per level.
pub fn figures(record: &Record, computer: &Computer) -> Result<Vec<PlayerFigures>, Error> {
    let state = record.replay()?;
    let (Some(end), Some(places)) = (state.result(), state.places()) else {
        return Ok(Vec::new());
    };
    let scores = state.scores();
    let counters = crate::games::counters(
        &record.game,
        &record.rules,
        &record.sides,
        &record.actions,
        computer,
    )?;
    let mut out = Vec::new();
    for (side, seats) in counters.into_iter().enumerate() {
        let result = match end.winner {
            None => "drawn",
            Some(w) if w == side => "won",
            Some(_) => "lost",
        };
        for (seat, counters) in seats.into_iter().enumerate() {
            out.push(PlayerFigures {
                side,
                seat,
                result,
                place: places.get(side).copied().unwrap_or(1),
                score: scores.get(side).copied().unwrap_or(0),
                counters,
            });
        }
    }
    Ok(out)
}
