//! Rating commands: thin calls over the core's ratings (docs/ratings.md).

use crate::AppState;
use partie_core::ratings::{PlayerRating, RatingPoint};
use partie_core::store::{ExpectedResult, RatingRow};
use partie_core::Error;
use tauri::State;

/// The leaderboard of a game by rating, over a season (`from` included, `to` excluded, ms).
#[tauri::command(async)]
pub fn rating_leaderboard(
    state: State<'_, AppState>,
    game: String,
    from: Option<i64>,
    to: Option<i64>,
) -> Result<Vec<RatingRow>, Error> {
    state.with(|s| s.rating_leaderboard(&game, from, to, 100))
}

/// A player's rating in a game, if rated.
#[tauri::command(async)]
pub fn player_rating(
    state: State<'_, AppState>,
    player: i64,
    game: String,
) -> Result<Option<PlayerRating>, Error> {
    state.with(|s| s.player_rating(player, &game, None, None))
}

/// A player's rating after each rated match, for the chart.
#[tauri::command(async)]
pub fn rating_history(
    state: State<'_, AppState>,
    player: i64,
    game: String,
) -> Result<Vec<RatingPoint>, Error> {
    state.with(|s| s.rating_history(player, &game, None, None))
}

/// Each player's chance of winning a match between them, before it is played.
#[tauri::command(async)]
pub fn expected_result(
    state: State<'_, AppState>,
    game: String,
    a: i64,
    b: i64,
) -> Result<ExpectedResult, Error> {
    state.with(|s| s.expected_result(&game, a, b))
}

/// The entrants' order by rating, strongest first (a team by its members' mean; unrated last,
/// in the order given).
#[tauri::command(async)]
pub fn seed_by_rating(
    state: State<'_, AppState>,
    game: String,
    entrants: Vec<Vec<String>>,
) -> Result<Vec<usize>, Error> {
    state.with(|s| {
        let ratings = s.ratings_for_names(&game, &entrants)?;
        Ok(partie_core::ratings::seed_order(&ratings))
    })
}

/// Each entrant's rating change over a tournament so far.
#[tauri::command(async)]
pub fn tournament_rating_changes(
    state: State<'_, AppState>,
    tournament_id: i64,
) -> Result<Vec<Option<f64>>, Error> {
    state.with(|s| s.tournament_rating_changes(tournament_id))
}
