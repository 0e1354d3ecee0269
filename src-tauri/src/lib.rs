//! Partie's desktop and mobile shell: thin Tauri commands over `partie-core`.
//!
//! Every command validates its input through the core and answers errors as
//! `{kind, detail, code}`; nothing is written on an error.

#![warn(missing_docs)]

mod club;
mod files;
mod ratings;
mod settings;
mod tournaments;

pub use settings::SettingsFile;

use partie_core::store::{
    Computer, HistoryFilter, ImportReport, MatchListItem, MatchView, OpenReport, Player,
    PlayerStats, Store,
};
use partie_core::Error;
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use tauri::{Manager, Runtime, State};

/// What the app found when it opened its database, for the first screen to tell the user.
#[derive(Debug, Clone, Serialize)]
pub struct Startup {
    /// `ok`, `recovered` (a damaged file was set aside) or `unavailable`.
    pub database: &'static str,
    /// Where the damaged file was kept, when recovered.
    pub moved_to: Option<PathBuf>,
    /// Why the database is unavailable (e.g. written by a newer Partie).
    pub error: Option<Error>,
    /// The database file.
    pub path: PathBuf,
}

/// The app's state: the history database, when it could be opened.
pub struct AppState {
    store: Mutex<Option<Store>>,
    startup: Startup,
    /// The stop flag of each think in progress (undo or leaving the screen stops them). One
    /// flag per think: a think that starts after a Stop neither is stopped by it nor clears it
    /// for another think still running.
    thinking: Mutex<Vec<Weak<AtomicBool>>>,
    /// The club night: the hub this device runs, its sync with the hub it joined.
    club: club::Club,
}

impl AppState {
    /// Opens the database at `path`; a failure is kept to be shown, never a crash.
    pub fn open(path: PathBuf) -> Self {
        // The app's first open, before the sync thread or a hub opens the file too.
        Store::remove_unfinished_restore(&path);
        let (store, startup) = match Store::open(&path) {
            Ok((store, OpenReport::Ok)) => (
                Some(store),
                Startup {
                    database: "ok",
                    moved_to: None,
                    error: None,
                    path,
                },
            ),
            Ok((store, OpenReport::Recovered { moved_to, .. })) => (
                Some(store),
                Startup {
                    database: "recovered",
                    moved_to: Some(moved_to),
                    error: None,
                    path,
                },
            ),
            Err(e) => (
                None,
                Startup {
                    database: "unavailable",
                    moved_to: None,
                    error: Some(e),
                    path,
                },
            ),
        };
        let joined = store
            .as_ref()
            .is_some_and(|s| s.joined_club().ok().flatten().is_some());
        let club = club::Club::new(startup.path.clone(), store.is_some(), joined);
        AppState {
            store: Mutex::new(store),
            startup,
            thinking: Mutex::new(Vec::new()),
            club,
        }
    }

    /// A stop flag for a think starting now, raised by the next [`stop_thinking`]; it is
    /// forgotten once the think lets go of it.
    fn new_think(&self) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        let mut thinks = self.thinks();
        thinks.retain(|t| t.strong_count() > 0);
        thinks.push(Arc::downgrade(&flag));
        flag
    }

    /// Stops every think in progress.
    fn stop_thinks(&self) {
        for think in self.thinks().iter().filter_map(Weak::upgrade) {
            think.store(true, Ordering::Relaxed);
        }
    }

    /// How many of the computer's thinks are under way (asked for and not yet answered): a
    /// Stop asked for now stops that many.
    pub fn thinking(&self) -> usize {
        self.thinks()
            .iter()
            .filter(|t| t.strong_count() > 0)
            .count()
    }

    /// The thinks in progress (a panic elsewhere cannot have left the list half made).
    fn thinks(&self) -> std::sync::MutexGuard<'_, Vec<Weak<AtomicBool>>> {
        self.thinking.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on the open store; `storage` when the database could not be opened. What `f`
    /// changed goes to the club hub at once when the device joined one. A command that wrote
    /// nothing (a screen's read, a pin tapped and not yet thrown) wakes no sync round: each
    /// did, a round of the network for every tap.
    pub(crate) fn with<T>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut wrote = false;
        let out = self.read(|s| {
            let before = s.rows_written();
            let out = f(s);
            wrote = s.rows_written() != before;
            out
        });
        if out.is_ok() && wrote {
            self.club.poke();
        }
        out
    }

    /// [`AppState::with`] for what only reads (the sync status line, polled).
    pub(crate) fn read<T>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, Error>,
    ) -> Result<T, Error> {
        // A fault in a command (a bug, not bad input, which is refused) must not leave the app
        // without its database: it is caught here, its transaction has rolled back, what the
        // store kept in memory is forgotten, and the lock stays usable.
        let mut guard = self.store.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_mut() {
            Some(store) => {
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut *store))) {
                    Ok(out) => out,
                    Err(_) => {
                        store.forget_memory();
                        Err(fault())
                    }
                }
            }
            None => Err(self
                .startup
                .error
                .clone()
                .unwrap_or_else(|| Error::storage("no database"))),
        }
    }
}

/// Runs `work` on the threads kept for blocking work. A think of seconds or a wait on a hub
/// that does not answer would otherwise hold one of the async runtime's workers, which are as
/// many as the cores (two on many phones): two at once and every other command waits.
pub(crate) async fn off_the_workers<R: Runtime, T: Send + 'static>(
    app: tauri::AppHandle<R>,
    work: impl FnOnce(&AppState) -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    tauri::async_runtime::spawn_blocking(move || work(&app.state::<AppState>()))
        .await
        .unwrap_or_else(|_| Err(fault()))
}

/// A command that met a bug (a panic), not bad input: said as such, and nothing was saved.
fn fault() -> Error {
    Error::storage("the app met a fault it did not expect; what was saved before is kept")
        .with_code("fault")
}

/// The home screen's lists.
#[derive(Debug, Serialize)]
pub struct Home {
    /// Matches to resume.
    pub unfinished: Vec<MatchListItem>,
    /// Latest results.
    pub recent: Vec<MatchListItem>,
}

#[tauri::command(async)]
fn app_status(state: State<'_, AppState>) -> Startup {
    state.startup.clone()
}

#[tauri::command(async)]
fn home(state: State<'_, AppState>) -> Result<Home, Error> {
    state.with(|s| {
        Ok(Home {
            unfinished: s.unfinished(20)?,
            recent: s.recent_results(10)?,
        })
    })
}

#[tauri::command(async)]
fn list_players(state: State<'_, AppState>) -> Result<Vec<Player>, Error> {
    state.with(|s| s.players())
}

#[tauri::command(async)]
fn add_player(state: State<'_, AppState>, name: String) -> Result<Player, Error> {
    state.with(|s| s.add_player(&name))
}

/// `rules` and `sides` are taken as any JSON and read by the core, so that a value of the wrong
/// type is `bad_setup` like any other invalid setup (`docs/records.md` §4).
#[tauri::command(async)]
fn new_match(
    state: State<'_, AppState>,
    game: String,
    rules: Value,
    sides: Value,
    computer: Option<Computer>,
) -> Result<MatchView, Error> {
    let rules = partie_core::record::rules_from_json(Some(&rules))?;
    let sides = partie_core::record::sides_from_json(Some(&sides))?;
    state.with(|s| s.new_match_against(&game, &rules, &sides, &computer.unwrap_or_default()))
}

/// The computer plays its turn: it thinks without holding the database, and its answer is
/// played only if the match has not changed meanwhile.
#[tauri::command]
async fn computer_move<R: Runtime>(
    app: tauri::AppHandle<R>,
    match_id: i64,
) -> Result<MatchView, Error> {
    // Made as the command comes, before its work waits for a thread: a Stop asked for from
    // then on holds.
    let stop = app.state::<AppState>().new_think();
    off_the_workers(app, move |state| computer_moves(state, match_id, stop)).await
}

/// [`computer_move`]'s work, on a thread of its own; `stop` is its think's flag.
fn computer_moves(
    state: &AppState,
    match_id: i64,
    stop: Arc<AtomicBool>,
) -> Result<MatchView, Error> {
    let turn = state.with(|s| s.computer_turn(match_id))?;
    let level = turn.level.ok_or_else(|| {
        Error::illegal("it is not the computer's turn").with_code("not_computer_turn")
    })?;
    let seed = state.with(|s| s.dice_seed(match_id))?;
    let action = partie_core::computer::think_seeded(&turn.state, level, seed, Some(stop))?;
    state.with(|s| s.play_at(match_id, turn.revision, &action))
}

/// Interrupts the computer's thinking; its answer is then not played.
#[tauri::command]
fn stop_thinking(state: State<'_, AppState>) {
    state.stop_thinks();
}

/// A good move for the side to act, suggested by a strong level (nothing is played). Stopped
/// as the computer's thinking is (`stop_thinking`: leaving the screen, an undo).
#[tauri::command]
async fn hint<R: Runtime>(app: tauri::AppHandle<R>, match_id: i64) -> Result<Value, Error> {
    let stop = app.state::<AppState>().new_think();
    off_the_workers(app, move |state| {
        let turn = state.with(|s| s.computer_turn(match_id))?;
        partie_core::computer::hint(&turn.state, Some(stop))
    })
    .await
}

/// Whether the computer accepts a draw offered by the person it plays.
#[tauri::command]
async fn draw_offer<R: Runtime>(app: tauri::AppHandle<R>, match_id: i64) -> Result<bool, Error> {
    off_the_workers(app, move |state| {
        let (turn, computer) =
            state.with(|s| Ok((s.computer_turn(match_id)?, s.computer(match_id)?)))?;
        let side = computer.keys().next().copied().ok_or_else(|| {
            Error::illegal("no computer plays in this match").with_code("not_computer_turn")
        })?;
        Ok(partie_core::computer::accepts_draw(&turn.state, side))
    })
    .await
}

/// Dice rolled by the app for the side to act: seeded by the match and its progress.
#[tauri::command(async)]
fn roll_dice(state: State<'_, AppState>, match_id: i64, n: usize) -> Result<Vec<u8>, Error> {
    let seed = state.with(|s| s.dice_seed(match_id))?;
    partie_core::computer::roll(seed, n)
}

/// The choices a Boulomania roll opens, each with the summary it leads to.
#[tauri::command(async)]
fn choices(state: State<'_, AppState>, match_id: i64, action: Value) -> Result<Vec<Value>, Error> {
    let turn = state.with(|s| s.computer_turn(match_id))?;
    partie_core::computer::choices(&turn.state, &action)
}

/// A new Morris match from a move list (`1. d6 f4 2. a1-a4xb4 ...`), every token checked.
#[tauri::command(async)]
fn import_moves(
    state: State<'_, AppState>,
    text: String,
    rules: Value,
    sides: Value,
) -> Result<MatchView, Error> {
    let rules = partie_core::record::rules_from_json(Some(&rules))?;
    let sides = partie_core::record::sides_from_json(Some(&sides))?;
    let record = partie_core::Record::from_morris_move_list(&text, rules, Some(sides))?;
    state.with(|s| s.import_record(&record))
}

#[tauri::command(async)]
fn get_match(state: State<'_, AppState>, match_id: i64) -> Result<MatchView, Error> {
    state.with(|s| s.view(match_id))
}

#[tauri::command(async)]
fn play(state: State<'_, AppState>, match_id: i64, action: Value) -> Result<MatchView, Error> {
    state.with(|s| s.play(match_id, &action))
}

/// Takes back actions until a person is to act (against the computer, its replies too), in
/// one commit: `{view, taken}`, `taken` being the people's actions taken back, newest first.
#[tauri::command(async)]
fn undo_to_person(state: State<'_, AppState>, match_id: i64) -> Result<Value, Error> {
    state.with(|s| {
        let (view, taken) = s.undo_to_person(match_id)?;
        Ok(serde_json::json!({"view": view, "taken": taken}))
    })
}

#[tauri::command(async)]
fn preview(state: State<'_, AppState>, match_id: i64, action: Value) -> Result<Value, Error> {
    state.with(|s| s.preview(match_id, &action))
}

#[tauri::command(async)]
fn undo(state: State<'_, AppState>, match_id: i64) -> Result<MatchView, Error> {
    state.with(|s| s.undo(match_id))
}

#[tauri::command(async)]
fn take_over(state: State<'_, AppState>, match_id: i64) -> Result<MatchView, Error> {
    state.with(|s| s.take_over(match_id))
}

#[tauri::command(async)]
fn rematch(state: State<'_, AppState>, match_id: i64) -> Result<MatchView, Error> {
    state.with(|s| s.rematch(match_id))
}

/// Deletes a match and gives it back as a record to bring it back by (`import_records` with
/// `writer`), with the table it was played for.
#[tauri::command(async)]
fn discard_match(state: State<'_, AppState>, match_id: i64) -> Result<Value, Error> {
    state.with(|s| s.discard_match(match_id))
}

/// Start-up measurement: with `PARTIE_STARTUP_PROBE` set, the UI's first painted home screen
/// prints the time since the process started and closes the app (see scripts/bench-startup.py).
#[tauri::command]
fn painted<R: Runtime>(app: tauri::AppHandle<R>) {
    if std::env::var_os("PARTIE_STARTUP_PROBE").is_some() {
        let started = STARTED
            .get()
            .copied()
            .unwrap_or_else(std::time::Instant::now);
        println!("painted {:.1} ms", started.elapsed().as_secs_f64() * 1000.0);
        app.exit(0);
    }
}

static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

#[tauri::command(async)]
fn history(state: State<'_, AppState>, filter: Value) -> Result<Vec<MatchListItem>, Error> {
    let filter = HistoryFilter::from_json(&filter)?;
    state.with(|s| s.history(&filter))
}

#[tauri::command(async)]
fn search_players(
    state: State<'_, AppState>,
    query: String,
    archived: bool,
) -> Result<Vec<Player>, Error> {
    state.with(|s| s.search_players(&query, archived))
}

#[tauri::command(async)]
fn rename_player(state: State<'_, AppState>, player: i64, name: String) -> Result<Player, Error> {
    state.with(|s| s.rename_player(player, &name))
}

#[tauri::command(async)]
fn put_right_player(
    state: State<'_, AppState>,
    player: i64,
    was: String,
    name: String,
) -> Result<Player, Error> {
    state.with(|s| s.put_right_player(player, &was, &name))
}

#[tauri::command(async)]
fn merge_players(state: State<'_, AppState>, kept: i64, gone: i64) -> Result<Player, Error> {
    state.with(|s| s.merge_players(kept, gone))
}

#[tauri::command(async)]
fn archive_player(state: State<'_, AppState>, player: i64, archived: bool) -> Result<(), Error> {
    state.with(|s| s.archive_player(player, archived))
}

#[tauri::command(async)]
fn player_stats(
    state: State<'_, AppState>,
    player: i64,
    game: String,
) -> Result<PlayerStats, Error> {
    state.with(|s| s.player_stats(player, &game))
}

#[tauri::command(async)]
fn set_notes(
    state: State<'_, AppState>,
    match_id: i64,
    place: String,
    notes: String,
) -> Result<(), Error> {
    state.with(|s| s.set_notes(match_id, &place, &notes))
}

#[tauri::command(async)]
fn export_match(state: State<'_, AppState>, match_id: i64) -> Result<Value, Error> {
    state.with(|s| s.export_match(match_id))
}

#[tauri::command(async)]
fn import_records(
    state: State<'_, AppState>,
    text: String,
    writer: Option<bool>,
) -> Result<ImportReport, Error> {
    state.with(|s| s.import_as(&text, writer.unwrap_or(false)))
}

/// The summary after the first `n` actions of a match: one step of its replay.
#[tauri::command(async)]
fn summary_at(state: State<'_, AppState>, match_id: i64, n: usize) -> Result<Value, Error> {
    state.with(|s| s.summary_at(match_id, n))
}

/// A player's latest finished matches of a game, oldest first, for the charts.
#[tauri::command(async)]
fn player_series(
    state: State<'_, AppState>,
    player: i64,
    game: String,
) -> Result<Vec<Value>, Error> {
    state.with(|s| s.player_series(player, &game, 30))
}

/// The leaderboard of a game: `[player, name, matches, wins]` rows.
#[tauri::command(async)]
fn leaderboard(state: State<'_, AppState>, game: String) -> Result<Value, Error> {
    state.with(|s| Ok(serde_json::json!(s.leaderboard(&game, 50)?)))
}

/// Two players' finished matches against each other: `{a, b, draws}` wins.
#[tauri::command(async)]
fn head_to_head(state: State<'_, AppState>, a: i64, b: i64, game: String) -> Result<Value, Error> {
    state.with(|s| {
        let (wa, wb, d) = s.head_to_head(a, b, &game)?;
        Ok(serde_json::json!({"a": wa, "b": wb, "draws": d}))
    })
}

#[tauri::command]
fn game_info(game: String) -> Result<Value, Error> {
    partie_core::games::info(&game)
}

/// Checks a game's options as a new match will: the rules form says a rule that hangs on
/// another (Mölkky's fall-back under the target) at its field, before Start.
#[tauri::command]
fn check_rules(game: String, rules: Value) -> Result<(), Error> {
    let rules = partie_core::record::rules_from_json(Some(&rules))?;
    partie_core::games::check_rules(&game, &rules)
}

/// The games this build knows, in the order the home screen offers them: the screens load
/// each game's module by these names (the UI keeps no list of its own).
#[tauri::command]
fn games() -> Vec<&'static str> {
    partie_core::games::GAMES.to_vec()
}

/// Registers Partie's commands on a builder (the app, or a mock app in tests).
pub fn with_commands<R: Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder.invoke_handler(tauri::generate_handler![
        app_status,
        home,
        list_players,
        add_player,
        new_match,
        computer_move,
        stop_thinking,
        hint,
        draw_offer,
        roll_dice,
        choices,
        import_moves,
        get_match,
        play,
        preview,
        undo,
        undo_to_person,
        take_over,
        rematch,
        discard_match,
        game_info,
        check_rules,
        games,
        painted,
        history,
        search_players,
        rename_player,
        put_right_player,
        merge_players,
        archive_player,
        player_stats,
        set_notes,
        export_match,
        import_records,
        summary_at,
        player_series,
        leaderboard,
        head_to_head,
        files::export_file,
        files::list_files,
        files::import_file,
        files::backup_file,
        files::restore_file,
        settings::get_settings,
        settings::set_setting,
        tournaments::tournament_info,
        tournaments::new_tournament,
        tournaments::get_tournament,
        tournaments::tournament_event,
        tournaments::withdraw_entrant,
        tournaments::undo_tournament,
        tournaments::start_table,
        tournaments::list_tournaments,
        tournaments::delete_tournament,
        tournaments::player_tournaments,
        tournaments::export_tournament_pdf,
        ratings::rating_leaderboard,
        ratings::player_rating,
        ratings::rating_history,
        ratings::expected_result,
        ratings::seed_by_rating,
        ratings::tournament_rating_changes,
        club::club_status,
        club::host_start,
        club::host_stop,
        club::club_join,
        club::club_leave,
        club::club_sync_now,
        club::scan_qr,
    ])
}

/// Starts the app.
#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    STARTED.get_or_init(std::time::Instant::now);
    with_commands(tauri::Builder::default())
        .setup(|app| {
            let dir = app.path().app_data_dir()?;
            app.manage(AppState::open(dir.join("partie.db")));
            app.manage(SettingsFile(dir.join("settings.json")));
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("error while running Partie");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Stop stops the thinks then running, whenever they next look, and no think begun after
    /// it; one that begins does not take the Stop back from another (with one flag for all,
    /// its start cleared it: a think that had not looked yet played on).
    #[test]
    fn a_stop_is_for_the_thinks_running_when_it_is_asked() {
        let dir = tempfile::tempdir().unwrap();
        let state = AppState::open(dir.path().join("partie.db"));
        let first = state.new_think();
        state.stop_thinks();
        let second = state.new_think();
        assert!(first.load(Ordering::Relaxed), "the Stop was taken back");
        assert!(!second.load(Ordering::Relaxed));
        state.stop_thinks();
        assert!(second.load(Ordering::Relaxed));
        // A think that ended is forgotten.
        drop((first, second));
        let _third = state.new_think();
        assert_eq!(state.thinks().len(), 1);
    }

    /// A fault inside a command is answered as a typed error, and the next command still has
    /// the database (the lock used to stay poisoned: every command then failed until a restart).
    #[test]
    fn a_fault_in_a_command_leaves_the_database_usable() {
        let dir = tempfile::tempdir().unwrap();
        let state = AppState::open(dir.path().join("partie.db"));
        let sides = vec![vec!["Anna".to_string()], vec!["Bea".to_string()]];
        let m = state
            .with(|s| s.new_match("molkky", &Default::default(), &sides))
            .unwrap();
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let fault = state.with(|s| -> Result<(), Error> {
            s.play(m.id, &serde_json::json!({"pins": [5]}))?;
            panic!("a bug half-way");
        });
        std::panic::set_hook(hook);
        let e = fault.unwrap_err();
        assert_eq!(
            (e.kind, e.code),
            (partie_core::ErrorKind::Storage, Some("fault"))
        );
        // The throw committed before the fault stands; the store answers as before.
        let view = state.with(|s| s.view(m.id)).unwrap();
        assert_eq!(view.actions, 1);
        state
            .with(|s| s.play(m.id, &serde_json::json!({"pins": [3]})))
            .unwrap();
        assert_eq!(state.with(|s| s.view(m.id)).unwrap().actions, 2);
    }
}
