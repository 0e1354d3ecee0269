//! Tournament commands: thin calls over the core's tournaments and the store.

use crate::files::{stamp, Written};
use crate::AppState;
use partie_core::store::{MatchView, PlayerTournament, TournamentListItem, TournamentView};
use partie_core::Error;
use serde_json::Value;
use tauri::{Runtime, State};

/// The systems, ranking keys and limits a tournament's setup offers.
#[tauri::command]
pub fn tournament_info() -> Value {
    partie_core::tournament::info()
}

/// Creates a tournament from its setup.
#[tauri::command(async)]
pub fn new_tournament(state: State<'_, AppState>, setup: Value) -> Result<TournamentView, Error> {
    state.with(|s| s.new_tournament(&setup))
}

/// A tournament, replayed.
#[tauri::command(async)]
pub fn get_tournament(
    state: State<'_, AppState>,
    tournament_id: i64,
) -> Result<TournamentView, Error> {
    state.with(|s| s.tournament(tournament_id))
}

/// Applies one event (pair, result, withdraw, enter), committed before it is shown.
#[tauri::command(async)]
pub fn tournament_event(
    state: State<'_, AppState>,
    tournament_id: i64,
    event: Value,
) -> Result<TournamentView, Error> {
    state.with(|s| s.tournament_event(tournament_id, &event))
}

/// Withdraws an entrant, forfeiting the match it still has to play: one step, one undo.
#[tauri::command(async)]
pub fn withdraw_entrant(
    state: State<'_, AppState>,
    tournament_id: i64,
    entrant: usize,
) -> Result<TournamentView, Error> {
    state.with(|s| s.withdraw(tournament_id, entrant))
}

/// Takes back the last step (an event, or a withdrawal with its forfeit); `revision`, the one
/// the screen showed, refuses it when the tournament moved on since.
#[tauri::command(async)]
pub fn undo_tournament(
    state: State<'_, AppState>,
    tournament_id: i64,
    revision: Option<i64>,
) -> Result<TournamentView, Error> {
    state.with(|s| s.undo_tournament_seen(tournament_id, revision))
}

/// Starts (or opens) the match of a table of the current round.
#[tauri::command(async)]
pub fn start_table(
    state: State<'_, AppState>,
    tournament_id: i64,
    table: usize,
) -> Result<MatchView, Error> {
    state.with(|s| s.start_table(tournament_id, table))
}

/// Tournaments, most recent first.
#[tauri::command(async)]
pub fn list_tournaments(state: State<'_, AppState>) -> Result<Vec<TournamentListItem>, Error> {
    state.with(|s| s.tournaments(100))
}

/// Deletes a tournament; its matches stay in the history.
#[tauri::command(async)]
pub fn delete_tournament(state: State<'_, AppState>, tournament_id: i64) -> Result<(), Error> {
    state.with(|s| s.delete_tournament(tournament_id))
}

/// The tournaments a player entered, with the player's rank.
#[tauri::command(async)]
pub fn player_tournaments(
    state: State<'_, AppState>,
    player: i64,
) -> Result<Vec<PlayerTournament>, Error> {
    state.with(|s| s.player_tournaments(player))
}

/// Writes the round's pairings with a score sheet per table, or the standings, as a PDF in the
/// exports folder, in the app's language.
#[tauri::command]
pub async fn export_tournament_pdf<R: Runtime>(
    app: tauri::AppHandle<R>,
    tournament_id: i64,
    which: String,
    lang: String,
) -> Result<Written, Error> {
    crate::off_the_workers(app.clone(), move |state| {
        let bytes = state.with(|s| s.tournament_paper(tournament_id, &which, &lang))?;
        let name = format!("partie-{which}-{tournament_id}-{}.pdf", stamp());
        crate::files::put(&app, name, &bytes)
    })
    .await
}
