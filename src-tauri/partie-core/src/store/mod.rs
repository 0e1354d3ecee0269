//! The SQLite history: players, matches, their sides, and one row per action.
//!
//! Every action is committed before the caller sees its effect; the state shown is always the
//! replay of the committed actions, so killing the app at any moment loses nothing.

mod club;
mod history;
mod lists;
mod matches;
pub mod migrations;
mod players;
mod ratings;
mod sync;
mod tournaments;
mod transfer;

pub use crate::game::Computer;
pub use crate::time::now_ms;
pub use club::{
    hub_address, joinable_token, query_escaped, query_unescaped, read_join, ClubJoin, APP_VERSION,
    HELD, MAX_TOKEN_CHARS,
};
pub use history::{HistoryFilter, PlayerStats};
pub use lists::MatchListItem;
pub use matches::{ComputerTurn, MatchView, TableLink, TAKE_OVER_LEAP};
pub use players::Player;
pub use ratings::{ExpectedResult, RatingRow};
pub use sync::{
    Change, MergeReport, Outbox, Page, RawRecords, RecordKind, Refusal, Source, MAX_ID_CHARS,
};
pub use tournaments::{PlayerTournament, TableMatch, TournamentListItem, TournamentView};
pub use transfer::{ImportReport, MAX_IMPORT_BYTES};

pub(crate) use crate::time::new_uid;
pub(crate) use lists::{match_list_row, LIST_COLUMNS};
pub(crate) use matches::{computer_json, mark_counts, update_match, write_figures, COUNTS_MATCH};

/// A match's revision in SQL over `match m` (migration 8): its base plus its action count, so
/// that adding an action raises it without writing the match's row.
pub(crate) const MATCH_REVISION: &str =
    "(m.revision_base + (SELECT count(*) FROM action a WHERE a.match_id = m.id))";
pub(crate) use players::{
    clean_name, find_or_create_player, played_sides_of, player_from_elsewhere, player_named,
    player_row, seat_player_as, seat_players, seat_players_from_elsewhere, seat_players_shown,
    sides_of,
};

use crate::error::Error;
use crate::games::MatchState;
use rusqlite::Connection;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// What opening the database found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum OpenReport {
    /// The file was opened (or created) as it was.
    Ok,
    /// The file was damaged: it was kept under a new name and a fresh database started.
    Recovered {
        /// Where the damaged file now is.
        moved_to: PathBuf,
        /// What SQLite said.
        reason: String,
    },
}

/// The match being played, kept replayed in memory so that a throw costs one insert.
#[derive(Debug)]
struct Live {
    id: i64,
    state: MatchState,
    actions: usize,
    /// The parts of the match's view that its actions do not change (setup, players, notes,
    /// its tournament table), read once: a throw then costs its rules and its commit only.
    head: Option<MatchView>,
    /// Whether this device writes the match (docs/hub.md: one writer a record): only then are
    /// actions played or taken back here.
    writer: bool,
    /// `PRAGMA data_version` when it was read: another connection's commit since (the hub the
    /// desktop hosts merging a phone's push, a phone's sync thread) makes it stale, and it is
    /// read again from the database, which is the truth.
    version: i64,
}

/// The history database.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    live: Option<Live>,
    /// Ratings computed since the history last changed.
    ratings: ratings::RatingsCache,
}

fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::NotADatabase) | Some(rusqlite::ErrorCode::DatabaseCorrupt)
    )
}

impl Store {
    /// Opens (or creates) the database at `path`. A damaged file is renamed aside and a fresh
    /// database started; a database from a newer app is refused and left untouched.
    pub fn open(path: &Path) -> Result<(Store, OpenReport), Error> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::storage(format!("cannot create {}: {e}", dir.display())))?;
        }
        match Self::try_open(path) {
            Ok(store) => Ok((store, OpenReport::Ok)),
            Err(Some(e)) => Err(e),
            Err(None) => {
                let reason = "the file is not a valid database".to_string();
                let moved_to = Self::set_aside(path)?;
                let store = Self::try_open(path).map_err(|e| {
                    e.unwrap_or_else(|| Error::storage("a fresh database could not be created"))
                })?;
                Ok((store, OpenReport::Recovered { moved_to, reason }))
            }
        }
    }

    /// An in-memory database, for tests and benchmarks.
    pub fn open_in_memory() -> Result<Store, Error> {
        let mut conn = Connection::open_in_memory()?;
        Self::prepare(&mut conn)?;
        Ok(Self::over(conn))
    }

    /// A store over a connection already prepared, with nothing kept in memory yet.
    fn over(conn: Connection) -> Store {
        Store {
            conn,
            live: None,
            ratings: Default::default(),
        }
    }

    /// Derives what the migrations noted as still to derive (`derive_pending`): the player
    /// figures a file from before [`migrations::FIGURES_SINCE`] lacks, the places of matches
    /// of three sides or more one from before [`migrations::PLACES_SINCE`] lacks. Each note
    /// goes once its derivation is committed, so a start killed on the way derives again.
    pub(crate) fn derive_figures_after_upgrade(&mut self) -> Result<(), Error> {
        let pending: Vec<String> = self
            .conn
            .prepare("SELECT what FROM derive_pending")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        if pending.is_empty() {
            return Ok(());
        }
        if pending.iter().any(|w| w == "figures") {
            self.rebuild_stats()?;
        } else {
            self.rebuild_stats_of("max(mp.side) >= 2")?;
        }
        self.conn.execute("DELETE FROM derive_pending", [])?;
        Ok(())
    }

    /// The connection, for the store's own modules.
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// How many rows this connection has written, inserted or deleted since it opened
    /// (SQLite's total changes, rolled back or not): a command after which it is the same
    /// wrote nothing, so it has nothing to tell the club's hub.
    pub fn rows_written(&self) -> u64 {
        self.conn.total_changes()
    }

    /// Forgets the match kept replayed in memory (after the database changed under it).
    pub(crate) fn forget_live(&mut self) {
        self.live = None;
    }

    /// What other connections have committed, as a number that moves when they do (this
    /// connection's own commits leave it).
    fn data_version(&self) -> Result<i64, Error> {
        Ok(self
            .conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// The match kept in memory when it is `id` and no other connection has written since.
    fn live_of(&self, id: i64) -> Option<&Live> {
        let live = self.live.as_ref().filter(|l| l.id == id)?;
        (self.data_version().ok()? == live.version).then_some(live)
    }

    /// `Err(None)` means the file is damaged.
    fn try_open(path: &Path) -> Result<Store, Option<Error>> {
        let damage = |e: rusqlite::Error| {
            if is_damage(&e) {
                None
            } else {
                Some(Error::from(e))
            }
        };
        let mut conn = Connection::open(path).map_err(damage)?;
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_err(damage)?;
        // No full integrity check here: its cost grows with the history and start-up must stay
        // fast. A file that is not a database fails the read above; a damaged page later fails
        // its own query with a `storage` error, and the rest stays readable.
        // Refuse a newer database before anything (even the journal mode) touches the file.
        migrations::refuse_newer(&conn).map_err(Some)?;
        Self::prepare(&mut conn).map_err(Some)?;
        let mut store = Self::over(conn);
        store.derive_figures_after_upgrade().map_err(Some)?;
        Ok(store)
    }

    /// Sets the connection up and migrates; returns the schema version the file had.
    fn prepare(conn: &mut Connection) -> Result<i64, Error> {
        conn.pragma_update(None, "foreign_keys", true)?;
        // WAL with synchronous=NORMAL: a committed transaction survives the app being killed
        // (a power cut could lose the commits since the last checkpoint), and a commit costs no
        // fsync. A hub's connection syncs every commit ([`Store::sync_every_commit`]).
        conn.pragma_update_and_check(None, "journal_mode", "wal", |_| Ok(()))?;
        conn.pragma_update(None, "synchronous", "normal")?;
        conn.busy_timeout(std::time::Duration::from_secs(2))?;
        let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        migrations::migrate(conn)?;
        Ok(found)
    }

    /// Makes every commit of this connection durable against a power cut too (`synchronous`
    /// FULL: the write-ahead log is synced at each commit), for a hub, whose answer tells a
    /// device that its record is held: with NORMAL a power cut could lose the commits since
    /// the last checkpoint, which the devices, told they were held, never push again.
    pub fn sync_every_commit(&self) -> Result<(), Error> {
        self.conn.pragma_update(None, "synchronous", "full")?;
        Ok(())
    }

    /// Whether this connection syncs every commit ([`Store::sync_every_commit`]).
    pub fn syncs_every_commit(&self) -> Result<bool, Error> {
        let level: i64 = self
            .conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))?;
        Ok(level >= 2)
    }

    /// Renames a damaged file (and its journal files) to `NAME.damaged-TIMESTAMP`.
    fn set_aside(path: &Path) -> Result<PathBuf, Error> {
        let stamp = now_ms();
        let moved = PathBuf::from(format!("{}.damaged-{stamp}", path.display()));
        std::fs::rename(path, &moved)
            .map_err(|e| Error::storage(format!("cannot set the damaged file aside: {e}")))?;
        for suffix in ["-wal", "-shm"] {
            let side = PathBuf::from(format!("{}{suffix}", path.display()));
            // A journal left beside the new file would be read into it as its own, and it may
            // hold the damaged file's last commits: moved with it, or no new file is made.
            if side.exists() {
                std::fs::rename(&side, format!("{}{suffix}", moved.display())).map_err(|e| {
                    Error::storage(format!(
                        "cannot set the damaged file's journal aside ({}): {e}",
                        side.display()
                    ))
                })?;
            }
        }
        Ok(moved)
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, Error> {
        Ok(self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }
}
