//! A match's life: started (against the computer or not), replayed, played action by action
//! with each action committed before it is shown, undone, started again, deleted; and what a
//! commit writes beside the action (status, cached summary, player figures).

use super::{new_uid, now_ms, seat_players, sides_of, Live, Store};
use crate::error::Error;
use crate::game::{Computer, Outcome};
use crate::games::MatchState;
use crate::record::{Record, FORMAT};
use crate::stats::PlayerFigures;
use crate::summary::Summary;
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use serde::Serialize;
use serde_json::{Map, Value};

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
    /// The summary derived by replay, as JSON text written from the game's typed summary.
    pub summary: Summary,
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
    /// Whether this device writes it (it was started here: migration 13); another's place and
    /// notes stay on this device.
    pub writer: bool,
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

/// The computer's turn in a match: what it needs to think away from the database.
#[derive(Debug, Clone)]
pub struct ComputerTurn {
    /// The state to think about.
    pub state: MatchState,
    /// The number of actions played.
    pub at: usize,
    /// The match's revision (docs/hub.md: every action and every undo counts one): the answer
    /// is played only at this revision ([`Store::play_at`]).
    pub revision: i64,
    /// The level of the side to act, when the computer plays it.
    pub level: Option<u8>,
}

impl Store {
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
        let id = self.start_match_with(game, rules, sides, computer, |tx, id, sides, now| {
            seat_players(tx, id, sides, computer, now)
        })?;
        self.view(id)
    }

    /// Starts a match as [`Store::new_match_against`] does, in one transaction with `seat`,
    /// which seats its (trimmed) sides' players and writes what else goes with the start (a
    /// tournament table's link). The match's id.
    pub(crate) fn start_match_with(
        &mut self,
        game: &str,
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
        computer: &Computer,
        seat: impl FnOnce(&Transaction, i64, &[Vec<String>], i64) -> Result<(), Error>,
    ) -> Result<i64, Error> {
        crate::games::check_computer(game, sides.len(), computer)?;
        let sides: Vec<Vec<String>> = sides
            .iter()
            .map(|s| s.iter().map(|n| n.trim().to_string()).collect())
            .collect();
        let state = MatchState::setup(game, rules, &sides)?;
        let now = now_ms();
        let uid = new_uid();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO match (uid, game, format, rules, started_at, updated_at, status, computer, writer)
             VALUES (?1, ?2, ?3, ?4, ?5, ?5, 'playing', ?6, 1)",
            params![
                uid,
                game,
                FORMAT,
                Value::Object(rules.clone()).to_string(),
                now,
                computer_json(computer),
            ],
        )?;
        let id = tx.last_insert_rowid();
        seat(&tx, id, &sides, now)?;
        tx.commit()?;
        let version = self.data_version()?;
        self.live = Some(Live {
            id,
            state,
            actions: 0,
            head: None,
            writer: true,
            version,
        });
        Ok(id)
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
        if self.live_of(id).is_none() {
            let version = self.data_version()?;
            let record = self.record(id)?;
            let state = record
                .replay()
                .map_err(|e| Error::storage(format!("match {id} no longer replays: {e}")))?;
            let writer = writes(&self.conn, id)?.unwrap_or(false);
            self.live = Some(Live {
                id,
                state,
                actions: record.actions.len(),
                head: None,
                writer,
                version,
            });
        }
        Ok(self.live.as_mut().expect("just loaded"))
    }

    /// The match as the screens see it.
    pub fn view(&mut self, id: i64) -> Result<MatchView, Error> {
        let (summary, actions) = {
            let live = self.load(id)?;
            (live.state.summary_text(), live.actions)
        };
        self.view_with(id, summary, actions)
    }

    /// The view with a summary already derived; its fixed parts come from the live match once
    /// read.
    fn view_with(&mut self, id: i64, summary: Summary, actions: usize) -> Result<MatchView, Error> {
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
        let (uid, game, rules, started_at, finished_at, writer): (
            String,
            String,
            String,
            i64,
            Option<i64>,
            bool,
        ) = self.conn.query_row(
            "SELECT uid, game, rules, started_at, finished_at, writer FROM match WHERE id = ?1",
            [id],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            },
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
            writer,
        };
        if let Some(live) = self.live.as_mut().filter(|l| l.id == id) {
            live.head = Some(MatchView {
                summary: Summary::of(&()),
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
        // Not to think for a move that would be refused: another device plays it.
        if !live.writer {
            return Err(scored_elsewhere(id));
        }
        if live.state.is_over() {
            return Err(Error::illegal("the game is over").with_code("game_over"));
        }
        let turn = live.state.turn();
        let (state, at) = (live.state.clone(), live.actions);
        Ok(ComputerTurn {
            state,
            at,
            revision: revision_of(&self.conn, id)?,
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

    /// Plays an action only if the match is still at `revision` (as [`ComputerTurn`] gave it):
    /// the computer's answer to a position the user has since changed is dropped, not played,
    /// even when an undo and another move brought the match back to as many actions.
    pub fn play_at(&mut self, id: i64, revision: i64, action: &Value) -> Result<MatchView, Error> {
        if !self.load(id)?.writer {
            return Err(scored_elsewhere(id));
        }
        if revision_of(&self.conn, id)? != revision {
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
        if !live.writer {
            return Err(scored_elsewhere(id));
        }
        if live.actions >= crate::record::MAX_ACTIONS {
            return Err(Error::illegal(format!(
                "a match holds at most {} actions",
                crate::record::MAX_ACTIONS
            ))
            .with_code("too_many_actions"));
        }
        // The live match is taken out and played as it is (no copy of its state): a refusal
        // hands it back untouched; if anything after fails, the next call replays it from the
        // database, which is the truth.
        let mut live = self.live.take().expect("loaded");
        let state = match live.state.play(action) {
            Ok(s) => s,
            Err(refused) => {
                live.state = refused.state;
                self.live = Some(live);
                return Err(refused.error);
            }
        };
        let seq = live.actions as i64;
        let figures = if state.is_over() {
            let mut record = self.record(id)?;
            record.actions.push(action.clone());
            crate::stats::figures(&record, &self.computer(id)?)?
        } else {
            Vec::new()
        };
        let finished_at = commit_action(&mut self.conn, id, seq, action, &state, &figures)?;
        // Shown only once committed.
        let summary = state.summary_text();
        live.state = state;
        live.actions += 1;
        if let Some(head) = live.head.as_mut() {
            head.finished_at = finished_at;
        }
        let actions = live.actions;
        self.live = Some(live);
        self.view_with(id, summary, actions)
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
        let had = record.actions.len();
        if record.actions.pop().is_none() {
            return Err(Error::illegal("there is nothing to undo").with_code("nothing_to_undo"));
        }
        self.cut_to(id, &record, had)
    }

    /// Keeps only the actions `record` still holds (its first ones): the others are deleted,
    /// the match's status, summary, figures and tournament result written again, in one commit.
    /// `had`: how many actions the match had when `record` was cut from it. Another connection
    /// (the hub the desktop hosts, merging a phone's throw) may have added one since: then
    /// nothing is taken back (it would take back that throw, unseen), and the match is to be
    /// looked at again (`match_changed`).
    fn cut_to(&mut self, id: i64, record: &Record, had: usize) -> Result<MatchView, Error> {
        let state = record
            .replay()
            .map_err(|e| Error::storage(format!("match {id} no longer replays: {e}")))?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        written_here(&tx, id)?;
        let now: i64 = tx.query_row(
            "SELECT count(*) FROM action WHERE match_id = ?1",
            [id],
            |r| r.get(0),
        )?;
        if now as usize != had {
            drop(tx);
            self.live = None;
            return Err(Error::illegal(format!(
                "match {id} has {now} actions now, not {had}: it changed on another device"
            ))
            .with_code("match_changed"));
        }
        // The tournament went on from this result: the organiser, not an undo, changes it.
        if Store::table_result_paired(&tx, id)? {
            return Err(Error::illegal(
                "the tournament has paired its next round from this match's result: only the organiser can change it now",
            )
            .with_code("result_paired"));
        }
        tx.execute(
            "DELETE FROM action WHERE match_id = ?1 AND seq >= ?2",
            params![id, record.actions.len() as i64],
        )?;
        update_match(&tx, id, &state)?;
        write_figures(&tx, id, &[])?;
        Store::take_back_table_result(&tx, id)?;
        let result = tx.commit();
        self.live = None;
        result?;
        let version = self.data_version()?;
        self.live = Some(Live {
            id,
            state,
            actions: record.actions.len(),
            head: None,
            writer: true,
            version,
        });
        self.view(id)
    }

    /// Makes this device the match's writer, so that it is scored here from now on (its device
    /// gone, a backup restored on a new phone). The revision leaps by [`TAKE_OVER_LEAP`], past
    /// anything the device that wrote it before may have scored and not yet sent, so that the
    /// hub and that device take this device's record over theirs: what that device scores
    /// afterwards no longer counts (docs/hub.md). A match written here already is left as it
    /// is.
    pub fn take_over(&mut self, id: i64) -> Result<MatchView, Error> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        match writes(&tx, id)? {
            None => return Err(Error::not_found(format!("no match {id}")).with_code("no_match")),
            Some(true) => {}
            Some(false) => {
                // Its own place and notes become the record's, which the writer serves.
                tx.execute(
                    "UPDATE match SET writer = 1,
                        place = COALESCE(local_place, place), notes = COALESCE(local_notes, notes),
                        local_place = NULL, local_notes = NULL,
                        revision_base = revision_base + ?2
                     WHERE id = ?1",
                    params![id, TAKE_OVER_LEAP],
                )?;
            }
        }
        tx.commit()?;
        self.live = None;
        self.view(id)
    }

    /// Takes back actions until a person is to act: the last action, and before it every
    /// action of a side the computer plays, in one commit. Gives the match as it is then and the
    /// people's actions taken back, newest first (what a redo plays again; the computer thinks
    /// again for its own).
    pub fn undo_to_person(&mut self, id: i64) -> Result<(MatchView, Vec<Value>), Error> {
        let mut record = self.record(id)?;
        let had = record.actions.len();
        if record.actions.is_empty() {
            return Err(Error::illegal("there is nothing to undo").with_code("nothing_to_undo"));
        }
        let computer = self.computer(id)?;
        let replay_error = |e: Error| Error::storage(format!("match {id} no longer replays: {e}"));
        // The side that played each action: the side to act before it.
        let mut state =
            MatchState::setup(&record.game, &record.rules, &record.sides).map_err(replay_error)?;
        let mut players = Vec::with_capacity(record.actions.len());
        for action in &record.actions {
            players.push(state.turn());
            state = state.play(action).map_err(|r| replay_error(r.error))?;
        }
        let mut taken = Vec::new();
        while let Some(action) = record.actions.pop() {
            let side = players[record.actions.len()];
            let by_computer = side.is_some_and(|s| computer.contains_key(&s));
            if !by_computer {
                taken.push(action);
                break;
            }
        }
        Ok((self.cut_to(id, &record, had)?, taken))
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
}

/// Writes a match's status, times and cached list summary from `state`; returns the end it
/// recorded, if over. The summary is cached for finished matches only (the lists replay the
/// matches being played).
pub(crate) fn update_match(
    tx: &rusqlite::Transaction,
    id: i64,
    state: &MatchState,
) -> Result<Option<i64>, Error> {
    let outcome = state.outcome();
    let now = now_ms();
    let over = outcome != Outcome::Playing;
    let finished = over.then_some(now);
    let cached = over.then(|| state.list_summary_text());
    tx.prepare_cached(
        "UPDATE match SET status = ?2, winner = ?3, updated_at = ?4, finished_at = ?5, summary = ?6 WHERE id = ?1",
    )?
    .execute(params![id, outcome.status(), outcome.winner().map(|w| w as i64), now, finished, cached])?;
    Ok(finished)
}

fn commit_action(
    conn: &mut Connection,
    id: i64,
    seq: i64,
    action: &Value,
    state: &MatchState,
    figures: &[PlayerFigures],
) -> Result<Option<i64>, Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Read again in the commit: the hub the desk hosts (another connection) may have taken a
    // phone's take-over since the match was loaded.
    written_here(&tx, id)?;
    tx.prepare_cached("INSERT INTO action (match_id, seq, body, at) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![id, seq, action.to_string(), now_ms()])?;
    // An action is refused once a match is over, so before it the match was being played: only
    // the action that ends it changes the match's row (its revision counts its actions) and
    // writes its figures.
    let mut finished = None;
    if state.is_over() {
        finished = update_match(&tx, id, state)?;
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
            "INSERT INTO player_stats (match_id, side, seat, player_id, game, result, finished_at, stats, place, score)
             SELECT mp.match_id, mp.side, mp.seat, mp.player_id, m.game, ?4, COALESCE(m.finished_at, m.updated_at), ?5, ?6, ?7
             FROM match_player mp JOIN match m ON m.id = mp.match_id
             WHERE mp.match_id = ?1 AND mp.side = ?2 AND mp.seat = ?3",
            params![id, f.side as i64, f.seat as i64, f.result, Value::Object(f.counters.clone()).to_string(), f.place, f.score],
        )?;
    }
    mark_counts(tx, "match_id = ?1", id)?;
    Ok(())
}

/// `player_stats.counts` of a row that counts its match and its figures for its player.
pub(crate) const COUNTS_MATCH: i64 = 2;

/// Marks what each figure row of the matches `scope` selects (given `param`) counts for its
/// player, as the ratings take a match (docs/ratings.md): 2 the match and its figures; 1 its
/// figures only (a second seat of the player's side: both seats' throws were theirs); 0
/// nothing (the player sits on two sides, as a merge of two who played each other leaves).
pub(crate) fn mark_counts(tx: &Connection, scope: &str, param: i64) -> Result<(), Error> {
    tx.prepare_cached(&format!(
        "UPDATE player_stats SET counts = CASE
           WHEN EXISTS (SELECT 1 FROM player_stats o WHERE o.match_id = player_stats.match_id
                          AND o.player_id = player_stats.player_id AND o.side != player_stats.side)
             THEN 0
           WHEN EXISTS (SELECT 1 FROM player_stats o WHERE o.match_id = player_stats.match_id
                          AND o.player_id = player_stats.player_id AND o.side = player_stats.side
                          AND o.seat < player_stats.seat)
             THEN 1
           ELSE 2 END
         WHERE {scope}"
    ))?
    .execute([param])?;
    Ok(())
}

/// The computer's seats as stored (none: `NULL`).
pub(crate) fn computer_json(computer: &Computer) -> Option<String> {
    (!computer.is_empty()).then(|| serde_json::to_string(computer).expect("JSON"))
}

/// A match's revision: its actions and undos counted (migration 8).
fn revision_of(conn: &Connection, id: i64) -> Result<i64, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {} FROM match m WHERE m.id = ?1",
            super::MATCH_REVISION
        ))?
        .query_row([id], |r| r.get(0))?)
}

/// Whether this device writes match `id` (migration 13); none when there is no such match.
fn writes(conn: &Connection, id: i64) -> Result<Option<bool>, Error> {
    Ok(conn
        .prepare_cached("SELECT writer FROM match WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?)
}

/// A change to the actions of a match another device writes: refused, since the hub keeps one
/// writer's record and would drop the other's (docs/hub.md); [`Store::take_over`] makes this
/// device its writer.
fn scored_elsewhere(id: i64) -> Error {
    Error::illegal(format!("match {id} is scored on another device")).with_code("scored_elsewhere")
}

/// Refuses a change to match `id` unless this device writes it: `not_found` when it is gone
/// (deleted by another window or connection since it was read), else [`scored_elsewhere`].
fn written_here(conn: &Connection, id: i64) -> Result<(), Error> {
    match writes(conn, id)? {
        Some(true) => Ok(()),
        Some(false) => Err(scored_elsewhere(id)),
        None => Err(Error::not_found(format!("no match {id}")).with_code("no_match")),
    }
}

/// How far a take-over raises a match's revision: ten times as many changes as a match holds
/// actions at most ([`crate::record::MAX_ACTIONS`]; an action counts one, an undo two), so
/// that the device that wrote it before cannot have gone further meanwhile, and far below the
/// largest revision a record may carry (2^50): a thousand million take-overs still fit.
pub const TAKE_OVER_LEAP: i64 = 1 << 20;
