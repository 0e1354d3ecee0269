//! The SQLite history: players, matches, their sides, and one row per action.
//!
//! Every action is committed before the caller sees its effect; the state shown is always the
//! replay of the committed actions, so killing the app at any moment loses nothing.

mod club;
mod history;
pub mod migrations;
mod ratings;
mod sync;
mod tournaments;
mod transfer;

pub use club::{hub_address, read_join, ClubJoin, MAX_TOKEN_CHARS};
pub use history::{HistoryFilter, PlayerStats};
pub use ratings::{ExpectedResult, RatingRow};
pub use sync::{Change, MergeReport, Outbox, Page, RecordKind, Refusal, Source, MAX_ID_CHARS};
pub use tournaments::{PlayerTournament, TableMatch, TournamentListItem, TournamentView};
pub use transfer::{ImportReport, MAX_IMPORT_BYTES};

use crate::error::Error;
use crate::game::MatchState;
use crate::record::{Record, FORMAT};
use crate::stats::PlayerFigures;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use serde::Serialize;
use serde_json::{Map, Value};
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A stable, random-enough id for a match, kept across export and import.
pub(crate) fn new_uid() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(nanos);
    h.write_u32(std::process::id());
    format!(
        "{:012x}-{:016x}",
        (nanos / 1_000_000) as u64 & 0xffff_ffff_ffff,
        h.finish()
    )
}

/// A known player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Player {
    /// Database id.
    pub id: i64,
    /// The name as typed.
    pub name: String,
    /// When the player last played, in ms since the epoch.
    pub last_played_at: Option<i64>,
}

/// A match as the screens see it: its setup and its derived summary.
#[derive(Debug, Clone, Serialize)]
pub struct MatchView {
    /// Database id.
    pub id: i64,
    /// Stable id across export and import.
    pub uid: String,
    /// The game's record name.
    pub game: String,
    /// The options as given at setup.
    pub rules: Map<String, Value>,
    /// The sides' players' names.
    pub sides: Vec<Vec<String>>,
    /// The summary derived by replay.
    pub summary: Value,
    /// How many actions were played (what Undo can take back).
    pub actions: usize,
    /// Start, in ms since the epoch.
    pub started_at: i64,
    /// End, once over.
    pub finished_at: Option<i64>,
    /// Where it was played.
    pub place: Option<String>,
    /// Remarks on it.
    pub notes: Option<String>,
    /// The sides the computer plays, with its level.
    pub computer: Computer,
    /// The tournament table it is played for, if any.
    pub tournament: Option<TableLink>,
}

/// The tournament table a match is played for.
#[derive(Debug, Clone, Serialize)]
pub struct TableLink {
    /// The tournament's id.
    pub tournament: i64,
    /// The round.
    pub round: i64,
    /// The table.
    pub table: i64,
}

/// The sides the computer plays, each with its level (1-5).
pub type Computer = std::collections::BTreeMap<usize, u8>;

/// The computer's turn in a match: what it needs to think away from the database.
#[derive(Debug, Clone)]
pub struct ComputerTurn {
    /// The state to think about.
    pub state: MatchState,
    /// The number of actions played; the answer is played only if this has not changed.
    pub at: usize,
    /// The level of the side to act, when the computer plays it.
    pub level: Option<u8>,
}

/// One line of a list of matches (home screen, history).
#[derive(Debug, Clone, Serialize)]
pub struct MatchListItem {
    /// Database id.
    pub id: i64,
    /// Stable id.
    pub uid: String,
    /// The game's record name.
    pub game: String,
    /// The sides' players' names.
    pub sides: Vec<Vec<String>>,
    /// `playing`, `won` or `drawn`.
    pub status: String,
    /// The winning side.
    pub winner: Option<i64>,
    /// The cached summary.
    pub summary: Value,
    /// Start, in ms since the epoch.
    pub started_at: i64,
    /// Last change.
    pub updated_at: i64,
    /// End, once over.
    pub finished_at: Option<i64>,
    /// How many actions were played.
    pub actions: i64,
}

/// The columns [`match_list_row`] reads, in its order, for a query over `match m`.
pub(crate) const LIST_COLUMNS: &str =
    "m.id, m.uid, m.game, m.status, m.winner, m.summary, m.started_at, \
     m.updated_at, m.finished_at, (SELECT count(*) FROM action a WHERE a.match_id = m.id)";

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
        Ok(Store {
            conn,
            live: None,
            ratings: Default::default(),
        })
    }

    /// Derives the player figures a file from before [`migrations::FIGURES_SINCE`] lacks.
    pub(crate) fn derive_figures_after_upgrade(&mut self, found: i64) -> Result<(), Error> {
        if (1..migrations::FIGURES_SINCE).contains(&found) {
            self.rebuild_stats()?;
        }
        Ok(())
    }

    /// The connection, for the store's own modules.
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Forgets the match kept replayed in memory (after the database changed under it).
    pub(crate) fn forget_live(&mut self) {
        self.live = None;
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
        let found = Self::prepare(&mut conn).map_err(Some)?;
        let mut store = Store {
            conn,
            live: None,
            ratings: Default::default(),
        };
        store.derive_figures_after_upgrade(found).map_err(Some)?;
        Ok(store)
    }

    /// Sets the connection up and migrates; returns the schema version the file had.
    fn prepare(conn: &mut Connection) -> Result<i64, Error> {
        conn.pragma_update(None, "foreign_keys", true)?;
        // WAL with synchronous=NORMAL: a committed transaction survives the app being killed
        // (only a power cut could lose the very last one), and a commit costs no fsync.
        conn.pragma_update_and_check(None, "journal_mode", "wal", |_| Ok(()))?;
        conn.pragma_update(None, "synchronous", "normal")?;
        conn.busy_timeout(std::time::Duration::from_secs(2))?;
        let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        migrations::migrate(conn)?;
        Ok(found)
    }

    /// Renames a damaged file (and its journal files) to `NAME.damaged-TIMESTAMP`.
    fn set_aside(path: &Path) -> Result<PathBuf, Error> {
        let stamp = now_ms();
        let moved = PathBuf::from(format!("{}.damaged-{stamp}", path.display()));
        std::fs::rename(path, &moved)
            .map_err(|e| Error::storage(format!("cannot set the damaged file aside: {e}")))?;
        for suffix in ["-wal", "-shm"] {
            let side = PathBuf::from(format!("{}{suffix}", path.display()));
            if side.exists() {
                let _ = std::fs::rename(&side, format!("{}{suffix}", moved.display()));
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

    /// Known players, most recently played (or added) first; archived players are left out.
    pub fn players(&self) -> Result<Vec<Player>, Error> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, name, last_played_at FROM player WHERE archived = 0
             ORDER BY COALESCE(last_played_at, created_at) DESC, id DESC",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(Player {
                id: r.get(0)?,
                name: r.get(1)?,
                last_played_at: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Adds a player, or returns the known one of that name (case aside).
    pub fn add_player(&mut self, name: &str) -> Result<Player, Error> {
        let name = clean_name(name)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let id = find_or_create_player(&tx, &name)?;
        let player = tx.query_row(
            "SELECT id, name, last_played_at FROM player WHERE id = ?1",
            [id],
            |r| {
                Ok(Player {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    last_played_at: r.get(2)?,
                })
            },
        )?;
        tx.commit()?;
        Ok(player)
    }

    /// Starts a match: validates the setup, then records it with its players (new names
    /// become players).
    pub fn new_match(
        &mut self,
        game: &str,
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
    ) -> Result<MatchView, Error> {
        self.new_match_against(game, rules, sides, &Computer::new())
    }

    /// Starts a match in which the computer plays the sides of `computer` (Morris only; at
    /// least one side stays human).
    pub fn new_match_against(
        &mut self,
        game: &str,
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
        computer: &Computer,
    ) -> Result<MatchView, Error> {
        check_computer(game, sides.len(), computer)?;
        let sides: Vec<Vec<String>> = sides
            .iter()
            .map(|s| s.iter().map(|n| n.trim().to_string()).collect())
            .collect();
        let state = MatchState::setup(game, rules, &sides)?;
        let now = now_ms();
        let uid = new_uid();
        let summary = state.summary();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO match (uid, game, format, rules, started_at, updated_at, status, summary, computer)
             VALUES (?1, ?2, ?3, ?4, ?5, ?5, 'playing', ?6, ?7)",
            params![
                uid,
                game,
                FORMAT,
                Value::Object(rules.clone()).to_string(),
                now,
                summary.to_string(),
                computer_json(computer),
            ],
        )?;
        let id = tx.last_insert_rowid();
        seat_players(&tx, id, &sides, now)?;
        tx.commit()?;
        self.live = Some(Live {
            id,
            state,
            actions: 0,
            head: None,
        });
        self.view(id)
    }

    /// The record of a match: its setup and every action.
    pub fn record(&self, id: i64) -> Result<Record, Error> {
        let (game, format, rules): (String, u32, String) = self
            .conn
            .query_row(
                "SELECT game, format, rules FROM match WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?
            .ok_or_else(|| Error::not_found(format!("no match {id}")).with_code("no_match"))?;
        let rules = match serde_json::from_str(&rules) {
            Ok(Value::Object(m)) => m,
            _ => return Err(Error::storage(format!("match {id} has unreadable rules"))),
        };
        let sides = self.sides(id)?;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT body FROM action WHERE match_id = ?1 ORDER BY seq")?;
        let actions = stmt
            .query_map([id], |r| r.get::<_, String>(0))?
            .map(|b| {
                let b = b?;
                serde_json::from_str(&b).map_err(|e| {
                    Error::storage(format!("match {id} has an unreadable action: {e}"))
                })
            })
            .collect::<Result<Vec<Value>, Error>>()?;
        Ok(Record {
            format,
            game,
            rules,
            sides,
            actions,
        })
    }

    pub(crate) fn sides(&self, id: i64) -> Result<Vec<Vec<String>>, Error> {
        sides_of(&self.conn, id)
    }

    /// Makes `live` hold match `id`, replaying it from the database when needed.
    fn load(&mut self, id: i64) -> Result<&mut Live, Error> {
        if self.live.as_ref().is_none_or(|l| l.id != id) {
            let record = self.record(id)?;
            let state = record
                .replay()
                .map_err(|e| Error::storage(format!("match {id} no longer replays: {e}")))?;
            self.live = Some(Live {
                id,
                state,
                actions: record.actions.len(),
                head: None,
            });
        }
        Ok(self.live.as_mut().expect("just loaded"))
    }

    /// The match as the screens see it.
    pub fn view(&mut self, id: i64) -> Result<MatchView, Error> {
        let (summary, actions) = {
            let live = self.load(id)?;
            (live.state.summary(), live.actions)
        };
        self.view_with(id, summary, actions)
    }

    /// The view with a summary already derived; its fixed parts come from the live match once
    /// read.
    fn view_with(&mut self, id: i64, summary: Value, actions: usize) -> Result<MatchView, Error> {
        if let Some(head) = self
            .live
            .as_ref()
            .filter(|l| l.id == id)
            .and_then(|l| l.head.as_ref())
        {
            return Ok(MatchView {
                summary,
                actions,
                ..head.clone()
            });
        }
        let (uid, game, rules, started_at, finished_at): (
            String,
            String,
            String,
            i64,
            Option<i64>,
        ) = self.conn.query_row(
            "SELECT uid, game, rules, started_at, finished_at FROM match WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )?;
        let computer = self.computer(id)?;
        let rules = match serde_json::from_str(&rules) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        };
        let (place, notes) = self.notes(id)?;
        let tournament = self
            .conn
            .query_row(
                "SELECT tournament_id, round, tab FROM tournament_match WHERE match_id = ?1",
                [id],
                |r| {
                    Ok(TableLink {
                        tournament: r.get(0)?,
                        round: r.get(1)?,
                        table: r.get(2)?,
                    })
                },
            )
            .optional()?;
        let view = MatchView {
            id,
            uid,
            game,
            rules,
            sides: self.sides(id)?,
            summary,
            actions,
            started_at,
            finished_at,
            place,
            notes,
            computer,
            tournament,
        };
        if let Some(live) = self.live.as_mut().filter(|l| l.id == id) {
            live.head = Some(MatchView {
                summary: Value::Null,
                ..view.clone()
            });
        }
        Ok(view)
    }

    /// The sides the computer plays in a match.
    pub fn computer(&self, id: i64) -> Result<Computer, Error> {
        let text: Option<String> = self
            .conn
            .query_row("SELECT computer FROM match WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?
            .flatten();
        Ok(text
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default())
    }

    /// What the computer (or a hint) needs to think about the side to act, away from the
    /// database: `illegal_action` when the match is over.
    pub fn computer_turn(&mut self, id: i64) -> Result<ComputerTurn, Error> {
        let computer = self.computer(id)?;
        let live = self.load(id)?;
        if live.state.is_over() {
            return Err(Error::illegal("the game is over").with_code("game_over"));
        }
        let turn = live.state.summary()["turn"].as_u64().map(|t| t as usize);
        Ok(ComputerTurn {
            state: live.state.clone(),
            at: live.actions,
            level: turn.and_then(|t| computer.get(&t).copied()),
        })
    }

    /// The seed of the dice at this point of a match: its id and action count, mixed with
    /// `$PARTIE_DICE_SEED` when set (fixed dice for tests), else with the match's stable id.
    pub fn dice_seed(&mut self, id: i64) -> Result<u64, Error> {
        let at = self.load(id)?.actions as u64;
        let base = match std::env::var("PARTIE_DICE_SEED")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
        {
            Some(seed) => seed ^ (id as u64).wrapping_mul(0x9e37_79b9),
            None => {
                let uid: String =
                    self.conn
                        .query_row("SELECT uid FROM match WHERE id = ?1", [id], |r| r.get(0))?;
                uid.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                    (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
                })
            }
        };
        Ok(base ^ at.wrapping_mul(0xbf58_476d_1ce4_e5b9))
    }

    /// Plays an action only if the match still has `at` actions: the computer's answer to a
    /// position the user has since changed (undo, another move) is dropped, not played.
    pub fn play_at(&mut self, id: i64, at: usize, action: &Value) -> Result<MatchView, Error> {
        if self.load(id)?.actions != at {
            return Err(
                Error::illegal("the game changed while the computer was thinking")
                    .with_code("stale"),
            );
        }
        self.play(id, action)
    }

    /// The summary after the first `n` actions of a match (a step of its replay), with the
    /// action that led there.
    pub fn summary_at(&self, id: i64, n: usize) -> Result<Value, Error> {
        let mut record = self.record(id)?;
        if n > record.actions.len() {
            return Err(Error::not_found(format!(
                "match {id} has {} actions, not {n}",
                record.actions.len()
            ))
            .with_code("no_step"));
        }
        record.actions.truncate(n);
        let state = record
            .replay()
            .map_err(|e| Error::storage(format!("match {id} no longer replays: {e}")))?;
        Ok(serde_json::json!({
            "step": n,
            "action": record.actions.last(),
            "summary": state.summary(),
        }))
    }

    /// Plays one action: checked by the rules, committed, then shown. On any error nothing is
    /// written and the match is as it was.
    pub fn play(&mut self, id: i64, action: &Value) -> Result<MatchView, Error> {
        let live = self.load(id)?;
        let before = live.state.clone();
        let state = match before.play(action) {
            Ok(s) => s,
            Err(refused) => return Err(refused.error),
        };
        let seq = live.actions as i64;
        let summary = state.summary();
        let figures = if state.is_over() {
            let mut record = self.record(id)?;
            record.actions.push(action.clone());
            crate::stats::figures(&record, &self.computer(id)?)?
        } else {
            Vec::new()
        };
        let committed = commit_action(&mut self.conn, id, seq, action, &state, &summary, &figures);
        match committed {
            Ok(finished_at) => {
                let live = self.live.as_mut().expect("loaded");
                live.state = state;
                live.actions += 1;
                if let Some(head) = live.head.as_mut() {
                    head.finished_at = finished_at;
                }
                let actions = live.actions;
                self.view_with(id, summary, actions)
            }
            Err(e) => {
                // The database is the truth: forget the cache so the next call replays it.
                self.live = None;
                Err(e)
            }
        }
    }

    /// What an action would lead to, without committing it (the scorepad's preview).
    pub fn preview(&mut self, id: i64, action: &Value) -> Result<Value, Error> {
        let live = self.load(id)?;
        live.state
            .clone()
            .play(action)
            .map(|s| s.summary())
            .map_err(|r| r.error)
    }

    /// Takes back the last action of a match (across the end of a leg or of the game too).
    pub fn undo(&mut self, id: i64) -> Result<MatchView, Error> {
        let mut record = self.record(id)?;
        if record.actions.pop().is_none() {
            return Err(Error::illegal("there is nothing to undo").with_code("nothing_to_undo"));
        }
        let state = record
            .replay()
            .map_err(|e| Error::storage(format!("match {id} no longer replays: {e}")))?;
        let summary = state.summary();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "DELETE FROM action WHERE match_id = ?1 AND seq = ?2",
            params![id, record.actions.len() as i64],
        )?;
        update_match(&tx, id, &summary)?;
        write_figures(&tx, id, &[])?;
        Store::take_back_table_result(&tx, id)?;
        let result = tx.commit();
        self.live = None;
        result?;
        self.live = Some(Live {
            id,
            state,
            actions: record.actions.len(),
            head: None,
        });
        self.view(id)
    }

    /// A new match with the same game, rules and sides.
    pub fn rematch(&mut self, id: i64) -> Result<MatchView, Error> {
        let record = self.record(id)?;
        let computer = self.computer(id)?;
        self.new_match_against(&record.game, &record.rules, &record.sides, &computer)
    }

    /// Deletes a match and its actions.
    pub fn delete_match(&mut self, id: i64) -> Result<(), Error> {
        let n = self.conn.execute("DELETE FROM match WHERE id = ?1", [id])?;
        if n == 0 {
            return Err(Error::not_found(format!("no match {id}")).with_code("no_match"));
        }
        if self.live.as_ref().is_some_and(|l| l.id == id) {
            self.live = None;
        }
        Ok(())
    }

    fn list(&self, where_clause: &str, limit: i64) -> Result<Vec<MatchListItem>, Error> {
        let sql = format!(
            "SELECT {LIST_COLUMNS} FROM match m
             WHERE {where_clause} ORDER BY m.updated_at DESC, m.id DESC LIMIT ?1"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([limit], match_list_row)?;
        self.with_sides(rows.collect::<Result<_, _>>()?)
    }

    /// Fills in the sides' names of rows read by [`match_list_row`].
    pub(crate) fn with_sides(
        &self,
        mut items: Vec<MatchListItem>,
    ) -> Result<Vec<MatchListItem>, Error> {
        for item in &mut items {
            item.sides = self.sides(item.id)?;
        }
        Ok(items)
    }

    /// Matches not finished yet, most recently played first.
    pub fn unfinished(&self, limit: i64) -> Result<Vec<MatchListItem>, Error> {
        self.list("status = 'playing'", limit)
    }

    /// Finished matches, most recent first.
    pub fn recent_results(&self, limit: i64) -> Result<Vec<MatchListItem>, Error> {
        self.list("status != 'playing'", limit)
    }
}

/// A row of [`LIST_COLUMNS`], its sides left to [`Store::with_sides`].
pub(crate) fn match_list_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<MatchListItem> {
    Ok(MatchListItem {
        id: r.get(0)?,
        uid: r.get(1)?,
        game: r.get(2)?,
        status: r.get(3)?,
        winner: r.get(4)?,
        summary: r
            .get::<_, Option<String>>(5)?
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or(Value::Null),
        started_at: r.get(6)?,
        updated_at: r.get(7)?,
        finished_at: r.get(8)?,
        actions: r.get(9)?,
        sides: Vec::new(),
    })
}

pub(crate) fn clean_name(name: &str) -> Result<String, Error> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::bad_setup("a player needs a name").with_code("empty_name"));
    }
    if name.chars().count() > 60 {
        return Err(Error::bad_setup("a name is at most 60 characters").with_code("long_name"));
    }
    Ok(name.to_string())
}

pub(crate) fn find_or_create_player(tx: &rusqlite::Transaction, name: &str) -> Result<i64, Error> {
    let found: Option<i64> = tx
        .query_row(
            "SELECT id FROM player WHERE name = ?1 COLLATE NOCASE AND archived = 0 ORDER BY id LIMIT 1",
            [name],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(id) = found {
        return Ok(id);
    }
    tx.execute(
        "INSERT INTO player (name, created_at) VALUES (?1, ?2)",
        params![name, now_ms()],
    )?;
    Ok(tx.last_insert_rowid())
}

/// A summary as JSON text without its throw-by-throw sheet (lists need the scores; replay gives
/// the sheet back), written without copying the summary.
struct WithoutSheet<'a>(&'a Value);

impl Serialize for WithoutSheet<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self.0 {
            Value::Object(m) => {
                let mut out = s.serialize_map(None)?;
                for (k, v) in m.iter().filter(|(k, _)| *k != "sheet") {
                    out.serialize_entry(k, v)?;
                }
                out.end()
            }
            other => other.serialize(s),
        }
    }
}

/// Writes a match's status and cached summary; returns the end it recorded, if over.
pub(crate) fn update_match(
    tx: &rusqlite::Transaction,
    id: i64,
    summary: &Value,
) -> Result<Option<i64>, Error> {
    let status = summary
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("playing");
    let winner = summary.get("winner").and_then(Value::as_i64);
    let now = now_ms();
    let finished = (status != "playing").then_some(now);
    let cached = serde_json::to_string(&WithoutSheet(summary)).expect("a summary serialises");
    tx.prepare_cached(
        "UPDATE match SET status = ?2, winner = ?3, updated_at = ?4, finished_at = ?5, summary = ?6 WHERE id = ?1",
    )?
    .execute(params![id, status, winner, now, finished, cached])?;
    Ok(finished)
}

fn commit_action(
    conn: &mut Connection,
    id: i64,
    seq: i64,
    action: &Value,
    state: &MatchState,
    summary: &Value,
    figures: &[PlayerFigures],
) -> Result<Option<i64>, Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.prepare_cached("INSERT INTO action (match_id, seq, body, at) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![id, seq, action.to_string(), now_ms()])?;
    let finished = update_match(&tx, id, summary)?;
    if state.is_over() {
        // A match being played has no figures yet (an action is refused once it is over), so
        // only the action that ends it writes them.
        write_figures(&tx, id, figures)?;
        // A tournament table's match: its result enters the tournament in the same commit.
        Store::enter_table_result(&tx, id, state)?;
    }
    tx.commit()?;
    Ok(finished)
}

/// Replaces a match's player figures (none while it is being played).
pub(crate) fn write_figures(
    tx: &rusqlite::Transaction,
    id: i64,
    figures: &[PlayerFigures],
) -> Result<(), Error> {
    tx.execute("DELETE FROM player_stats WHERE match_id = ?1", [id])?;
    for f in figures {
        tx.execute(
            "INSERT INTO player_stats (match_id, side, seat, player_id, game, result, finished_at, stats)
             SELECT mp.match_id, mp.side, mp.seat, mp.player_id, m.game, ?4, COALESCE(m.finished_at, m.updated_at), ?5
             FROM match_player mp JOIN match m ON m.id = mp.match_id
             WHERE mp.match_id = ?1 AND mp.side = ?2 AND mp.seat = ?3",
            params![id, f.side as i64, f.seat as i64, f.result, Value::Object(f.counters.clone()).to_string()],
        )?;
    }
    Ok(())
}

/// A match's sides, each its players' names in seat order.
pub(crate) fn sides_of(conn: &Connection, id: i64) -> Result<Vec<Vec<String>>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT side, name FROM match_player WHERE match_id = ?1 ORDER BY side, seat",
    )?;
    let mut sides: Vec<Vec<String>> = Vec::new();
    for row in stmt.query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))? {
        let (side, name) = row?;
        while sides.len() <= side as usize {
            sides.push(Vec::new());
        }
        sides[side as usize].push(name);
    }
    Ok(sides)
}

/// Seats the sides' players in a match (new names become players) and marks them as having
/// played at `at` (never moving a later date back: imports may be older).
pub(crate) fn seat_players(
    tx: &rusqlite::Transaction,
    id: i64,
    sides: &[Vec<String>],
    at: i64,
) -> Result<(), Error> {
    for (side, players) in sides.iter().enumerate() {
        for (seat, name) in players.iter().enumerate() {
            let pid = find_or_create_player(tx, name.trim())?;
            tx.execute(
                "INSERT INTO match_player (match_id, side, seat, player_id, name) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, side as i64, seat as i64, pid, name],
            )?;
            tx.execute(
                "UPDATE player SET last_played_at = max(COALESCE(last_played_at, 0), ?2) WHERE id = ?1",
                params![pid, at],
            )?;
        }
    }
    Ok(())
}

/// Checks the computer's seats: a game it can play, sides that exist, levels 1-5, and at least
/// one side left to people.
pub(crate) fn check_computer(game: &str, sides: usize, computer: &Computer) -> Result<(), Error> {
    if computer.is_empty() {
        return Ok(());
    }
    let bad = |d: String| Err(Error::bad_setup(d).with_code("bad_computer"));
    let top = match game {
        "morris" => 5,
        "boulomania" => 2,
        _ => return bad(format!("the computer does not play {game}")),
    };
    if let Some((side, level)) = computer
        .iter()
        .find(|(&s, &l)| s >= sides || !(1..=top).contains(&l))
    {
        return bad(format!("no computer side {side} at level {level}"));
    }
    if computer.len() >= sides {
        return bad("at least one side is played by people".into());
    }
    Ok(())
}

fn computer_json(computer: &Computer) -> Option<String> {
    (!computer.is_empty()).then(|| serde_json::to_string(computer).expect("JSON"))
}
