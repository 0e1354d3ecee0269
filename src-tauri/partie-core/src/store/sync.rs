//! Sync with a club hub (`docs/hub.md`): records with a stable id and a revision, merged by the
//! hub's rules, and a change log that serves as the cursor of `GET /v1/records`.
//!
//! Revisions and the change log are kept by triggers (migrations 6 and 8): every action or
//! event added or taken back raises its record's revision by one, and a change renumbers the
//! record's row of `sync_change` when a reader of the log may have passed it, so every way of
//! changing a record (playing, undo, import, a merge) counts the same. A merge writes the
//! revision it was given last, over what the triggers counted while it wrote.
//!
//! A batch is merged in one transaction, each record inside a savepoint: a refused record
//! leaves nothing behind and the others are still taken. A storage failure refuses the whole
//! batch and nothing changes.

//!
//! What the merge decides (a record new, newer, already here or a conflict, a table match that
//! fits its tournament) is the pure code of `crate::merge`, shared with the hub's PostgreSQL
//! backend; this file is what SQLite does with those decisions.

use super::tournaments::{replay_checked, seat_entered, seat_entrant, stored, write_summary};
use super::{update_match, write_figures, Store, MATCH_REVISION};
use crate::error::{Error, ErrorKind};
use crate::merge::{
    check_table_setup, cursor_of, decide_match, decide_tournament, held_result, kind_of, read_raw,
    record_kind, refusal_id, tournament_served, trimmed, Decision, HeldMatch, IncomingMatch,
    IncomingTournament, Link, PushedMatch, PushedTournament, Taken,
};
pub use crate::merge::{MergeReport, RawRecords, RecordKind, Refusal, Source, MAX_ID_CHARS};
use crate::record::FORMAT;
use crate::tournament::Tournament;
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::borrow::Cow;

/// A record changed, from the change log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Its place in the change log.
    pub seq: i64,
    /// The record's id.
    pub id: String,
    /// Match or tournament.
    pub record: RecordKind,
    /// Its number of actions (a tournament: of events).
    pub actions: i64,
    /// Its revision.
    pub revision: i64,
}

/// A page of records changed since a cursor.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Page {
    /// The records, as stored, in order of their latest change.
    pub records: Vec<Value>,
    /// Where the next page starts.
    pub cursor: String,
}

/// What a device has to push: its matches changed since its last push.
#[derive(Debug, Clone, PartialEq)]
pub struct Outbox {
    /// The match records, as stored, with their revision.
    pub records: Vec<Value>,
    /// What to pass to [`Store::sync_pushed`] once the hub answered.
    pub upto: i64,
}

enum Refused {
    Kind(Error),
    Conflict(String),
    /// The database failed: the whole batch is refused.
    Storage(Error),
}

impl From<Error> for Refused {
    fn from(e: Error) -> Self {
        if e.kind == ErrorKind::Storage {
            Refused::Storage(e)
        } else {
            Refused::Kind(e)
        }
    }
}

impl From<rusqlite::Error> for Refused {
    fn from(e: rusqlite::Error) -> Self {
        Refused::Storage(e.into())
    }
}

fn conflict(detail: impl Into<String>) -> Refused {
    Refused::Conflict(detail.into())
}

/// A stored match's row: what a merge compares.
struct StoredMatch {
    id: i64,
    game: String,
    rules: Map<String, Value>,
    revision: i64,
    status: String,
}

fn stored_match(conn: &Connection, uid: &str) -> Result<Option<StoredMatch>, Error> {
    let row = conn
        .query_row(
            &format!("SELECT m.id, m.game, m.rules, {MATCH_REVISION}, m.status FROM match m WHERE m.uid = ?1"),
            [uid],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)?,
                ))
            },
        )
        .optional()?;
    let Some((id, game, rules, revision, status)) = row else {
        return Ok(None);
    };
    let rules = match serde_json::from_str(&rules) {
        Ok(Value::Object(m)) => m,
        _ => return Err(Error::storage(format!("match {uid} has unreadable rules"))),
    };
    Ok(Some(StoredMatch {
        id,
        game,
        rules,
        revision,
        status,
    }))
}

fn stored_actions(conn: &Connection, id: i64) -> Result<Vec<Value>, Error> {
    let mut stmt =
        conn.prepare_cached("SELECT body FROM action WHERE match_id = ?1 ORDER BY seq")?;
    let rows = stmt.query_map([id], |r| r.get::<_, String>(0))?;
    rows.map(|b| {
        serde_json::from_str(&b?)
            .map_err(|e| Error::storage(format!("match {id} has an unreadable action: {e}")))
    })
    .collect()
}

pub(super) fn stored_link(conn: &Connection, match_id: i64) -> Result<Option<Link>, Error> {
    Ok(conn
        .query_row(
            "SELECT t.uid, tm.round, tm.tab FROM tournament_match tm
             JOIN tournament t ON t.id = tm.tournament_id WHERE tm.match_id = ?1",
            [match_id],
            |r| {
                Ok(Link {
                    tournament: r.get(0)?,
                    round: r.get(1)?,
                    table: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// Checks a pushed match against the table it says it was played for; the tournament's row id
/// and its state (replayed once, for the seating too: a large tournament's replay is the
/// dearest part of a table match's first push, under the writer's lock).
fn check_table(
    tx: &Connection,
    m: &IncomingMatch,
    link: &Link,
) -> Result<(i64, Tournament), Refused> {
    let tid: i64 = tx
        .query_row(
            "SELECT id FROM tournament WHERE uid = ?1",
            [&link.tournament],
            |r| r.get(0),
        )
        .optional()?
        .ok_or_else(|| {
            Refused::Kind(Error::not_found(format!(
                "no tournament {} here",
                link.tournament
            )))
        })?;
    let (_, record) = stored(tx, tid)?;
    let t = replay_checked(tid, &record)?;
    check_table_setup(&t, m, link)?;
    let taken: Option<String> = tx
        .query_row(
            "SELECT m.uid FROM tournament_match tm JOIN match m ON m.id = tm.match_id
             WHERE tm.tournament_id = ?1 AND tm.round = ?2 AND tm.tab = ?3",
            params![tid, link.round, link.table],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(other) = taken {
        if other != m.uid {
            return Err(conflict(format!(
                "round {} table {} is already played by match {other}",
                link.round, link.table
            )));
        }
    }
    Ok((tid, t))
}

/// Seats a table's match made elsewhere as one started here is (`seat_entered`): the players
/// entered at its pairing when the tournament here pairs these names there, else by name.
/// `replayed` is the tournament's state when the caller has it already.
#[allow(clippy::too_many_arguments)]
fn seat_table_match(
    tx: &Transaction,
    id: i64,
    tid: i64,
    replayed: Option<Tournament>,
    link: &Link,
    sides: &[Vec<String>],
    computer: &crate::game::Computer,
    at: i64,
) -> Result<(), Error> {
    // A tournament that no longer replays here (a file from an app whose rules took it) seats
    // by name rather than stop the whole page.
    let t = match replayed {
        Some(t) => t,
        None => match stored(tx, tid).and_then(|(_, record)| replay_checked(tid, &record)) {
            Ok(t) => t,
            Err(_) => return super::seat_players_from_elsewhere(tx, id, sides, computer, at),
        },
    };
    let entrants = crate::merge::table_entrants(&t, link)
        .filter(|&es| crate::merge::entrant_names(&t, es) == sides);
    match entrants {
        Some(entrants) => seat_entered(tx, id, tid, sides, &entrants, at, true),
        None => super::seat_players_from_elsewhere(tx, id, sides, computer, at),
    }
}

/// Writes a match's actions from `from` on, its cached summary, times, figures and revision.
fn write_match(tx: &Transaction, id: i64, m: &IncomingMatch, from: usize) -> Result<(), Error> {
    tx.execute(
        "DELETE FROM action WHERE match_id = ?1 AND seq >= ?2",
        params![id, from as i64],
    )?;
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO action (match_id, seq, body, at) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (seq, (action, at)) in m.record.actions.iter().zip(&m.ats).enumerate().skip(from) {
            insert.execute(params![id, seq as i64, action.to_string(), at])?;
        }
    }
    update_match(tx, id, &m.state)?;
    if m.state.is_over() {
        let end = m
            .finished_at
            .or_else(|| m.ats.last().copied())
            .unwrap_or(m.started_at);
        tx.execute(
            "UPDATE match SET finished_at = ?2 WHERE id = ?1",
            params![id, end],
        )?;
    }
    let figures = if m.state.is_over() {
        crate::stats::figures(&m.record, &m.computer)?
    } else {
        Vec::new()
    };
    write_figures(tx, id, &figures)?;
    // Place and notes are the record's, the writer's (those written here by a device that is
    // not the writer are kept apart: migration 16).
    tx.execute(
        "UPDATE match SET place = ?2, notes = ?3, computer = ?4,
                revision_base = ?5 - (SELECT count(*) FROM action WHERE match_id = ?1) WHERE id = ?1",
        params![
            id,
            m.place,
            m.notes,
            super::computer_json(&m.computer),
            m.revision
        ],
    )?;
    Ok(())
}

fn merge_match(tx: &Transaction, value: &Value, source: Source) -> Result<Taken, Refused> {
    // A known match is decided by its revision and setup before it is replayed (docs/hub.md).
    let mut pushed = PushedMatch::read(value)?;
    let Some(old) = stored_match(tx, &pushed.uid)? else {
        let state = pushed.replay()?;
        let m = IncomingMatch { pushed, state };
        let (tid, replayed) = match (&m.link, source) {
            (Some(link), Source::Device) => {
                let (tid, t) = check_table(tx, &m, link)?;
                (Some(tid), Some(t))
            }
            (Some(link), Source::Hub) => (
                tx.query_row(
                    "SELECT id FROM tournament WHERE uid = ?1",
                    [&link.tournament],
                    |r| r.get::<_, i64>(0),
                )
                .optional()?,
                None,
            ),
            (None, _) => (None, None),
        };
        tx.execute(
            "INSERT INTO match (uid, game, format, rules, started_at, updated_at, status, summary)
             VALUES (?1, ?2, ?3, ?4, ?5, ?5, 'playing', NULL)",
            params![
                m.uid,
                m.record.game,
                FORMAT,
                Value::Object(m.record.rules.clone()).to_string(),
                m.started_at
            ],
        )?;
        let id = tx.last_insert_rowid();
        let last = m.ats.last().copied().unwrap_or(m.started_at);
        let sides = trimmed(&m.record.sides);
        match tid.zip(m.link.as_ref()) {
            Some((tid, link)) => {
                seat_table_match(tx, id, tid, replayed, link, &sides, &m.computer, last)?
            }
            None => super::seat_players_from_elsewhere(tx, id, &sides, &m.computer, last)?,
        }
        write_match(tx, id, &m, 0)?;
        if let (Some(tid), Some(link)) = (tid, &m.link) {
            tx.execute(
                "INSERT OR IGNORE INTO tournament_match (match_id, tournament_id, round, tab) VALUES (?1, ?2, ?3, ?4)",
                params![id, tid, link.round, link.table],
            )?;
            if source == Source::Device && m.state.is_over() {
                Store::enter_table_result(tx, id, &m.state)?;
            }
        } else if let Some(link) = &m.link {
            // Its tournament is on a later page: linked when it comes.
            tx.execute(
                "INSERT OR REPLACE INTO pending_link (match_id, tournament_uid, round, tab) VALUES (?1, ?2, ?3, ?4)",
                params![id, link.tournament, link.round, link.table],
            )?;
        }
        return Ok(Taken::Accepted);
    };
    let mut link = stored_link(tx, old.id)?;
    // The match as replayed when it was linked again below.
    let mut relinked = None;
    if source == Source::Device && link.is_none() {
        if let Some(table) = pushed.link.clone() {
            // Its link went with a pairing undone here (the organiser undid Pair and paired
            // again), and the device that plays it still says its table: linked again when
            // that table is still these sides' and no other match's, as on its first push.
            // Refused as another setup, the match's later throws and its result never came.
            let state = pushed.replay()?;
            let m = IncomingMatch { pushed, state };
            let (tid, _) = check_table(tx, &m, &table)?;
            tx.execute(
                "INSERT INTO tournament_match (match_id, tournament_id, round, tab) VALUES (?1, ?2, ?3, ?4)",
                params![old.id, tid, table.round, table.table],
            )?;
            pushed = m.pushed;
            relinked = Some(m.state);
            link = Some(table);
        }
    }
    // The record as played: a rename here since does not make it another setup.
    let sides = super::played_sides_of(tx, old.id)?;
    let actions = stored_actions(tx, old.id)?;
    let held = HeldMatch {
        game: &old.game,
        rules: &old.rules,
        sides: &sides,
        link: link.as_ref(),
        revision: old.revision,
        actions: &actions,
    };
    let from = match decide_match(&held, &pushed, source).map_err(conflict)? {
        Decision::Already => {
            // Linked again as it stands: a finished match's result is its table's now.
            if let Some(state) = relinked.filter(|s| s.is_over()) {
                Store::enter_table_result(tx, old.id, &state)?;
            }
            return Ok(Taken::Already);
        }
        Decision::Replace { from } => from,
    };
    let state = pushed.replay()?;
    let m = IncomingMatch { pushed, state };
    // What a finished table match entered changes only when its result does.
    // (Linked again just now: no result of its was in the tournament.)
    let old_result = if old.status != "playing" && relinked.is_none() {
        held_result(&m, &actions)
    } else {
        None
    };
    let new_result = m.state.result();
    write_match(tx, old.id, &m, from)?;
    // A newer revision from elsewhere of a match written here: another device took it over
    // (`Store::take_over`), and scores it from now on.
    tx.execute(
        "UPDATE match SET writer = 0 WHERE id = ?1 AND writer",
        [old.id],
    )?;
    if source == Source::Device && link.is_some() && old_result != new_result {
        if old_result.is_some() {
            Store::take_back_table_result(tx, old.id)?;
        }
        if new_result.is_some() {
            Store::enter_table_result(tx, old.id, &m.state)?;
        }
    }
    if source == Source::Hub && link.is_none() {
        if let Some(l) = &m.link {
            let linked = tx.execute(
                "INSERT OR IGNORE INTO tournament_match (match_id, tournament_id, round, tab)
                 SELECT ?1, id, ?3, ?4 FROM tournament WHERE uid = ?2",
                params![old.id, l.tournament, l.round, l.table],
            )?;
            if linked == 0 {
                tx.execute(
                    "INSERT OR REPLACE INTO pending_link (match_id, tournament_uid, round, tab) VALUES (?1, ?2, ?3, ?4)",
                    params![old.id, l.tournament, l.round, l.table],
                )?;
            }
        }
    }
    Ok(Taken::Updated)
}

/// Writes a tournament's events from `from` on, its entrants, summary and revision; `fresh`:
/// it was just made here.
fn write_tournament(
    tx: &Transaction,
    id: i64,
    (events, from): (&[Value], usize),
    t: &Tournament,
    revision: i64,
    fresh: bool,
) -> Result<(), Error> {
    tx.execute(
        "DELETE FROM tournament_event WHERE tournament_id = ?1 AND seq >= ?2",
        params![id, from as i64],
    )?;
    let now = super::now_ms();
    for (seq, e) in events.iter().enumerate().skip(from) {
        tx.execute(
            "INSERT INTO tournament_event (tournament_id, seq, body, at) VALUES (?1, ?2, ?3, ?4)",
            params![id, seq as i64, e.to_string(), now],
        )?;
    }
    // The entrants of the events kept stay seated as they are (a player merged or renamed
    // since is still who was entered; seated again by name, a new player of the old name
    // would be made); those entered in the events written are seated, and all of them in a
    // tournament new here (none is seated yet).
    let entrants = t.field().entrants.len();
    let kept = if fresh {
        0
    } else {
        entrants
            - events[from.min(events.len())..]
                .iter()
                .filter(|e| e.get("enter").is_some())
                .count()
    };
    tx.execute(
        "DELETE FROM tournament_entrant WHERE tournament_id = ?1 AND entrant >= ?2",
        params![id, kept as i64],
    )?;
    for (e, names) in t.field().entrants.iter().enumerate().skip(kept) {
        seat_entrant(tx, id, e, names, true)?;
    }
    // Matches linked to rounds that are no longer paired stay in the history, unlinked; and
    // so do those of a round paired again differently (the hub undid it and paired again):
    // a table's match is kept only while its table still pairs the players it seats (by the
    // players, not their names: a rename rewrites a match's names).
    tx.execute(
        "DELETE FROM tournament_match WHERE tournament_id = ?1 AND round > ?2",
        params![id, t.round() as i64],
    )?;
    let paired_before = events[..from.min(events.len())]
        .iter()
        .filter(|e| e.get("pair").is_some())
        .count();
    let links: Vec<(i64, i64, i64)> = tx
        .prepare_cached(
            "SELECT match_id, round, tab FROM tournament_match WHERE tournament_id = ?1 AND round > ?2",
        )?
        .query_map(params![id, paired_before as i64], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    let seated = |sql: &str, key: i64, of: i64| -> Result<Vec<i64>, Error> {
        Ok(tx
            .prepare_cached(sql)?
            .query_map(params![key, of], |r| r.get(0))?
            .collect::<Result<_, _>>()?)
    };
    for (mid, round, table) in links {
        let pairing = (round as usize)
            .checked_sub(1)
            .and_then(|i| t.field().rounds.get(i))
            .and_then(|r| r.matches.iter().find(|m| m.table as i64 == table));
        let same = match pairing {
            Some(p) => {
                let mut entered = Vec::new();
                for &e in &p.sides {
                    entered.push(seated(
                        "SELECT player_id FROM tournament_entrant
                         WHERE tournament_id = ?1 AND entrant = ?2 ORDER BY seat",
                        id,
                        e as i64,
                    )?);
                }
                let mut playing = Vec::new();
                for side in 0..p.sides.len() {
                    playing.push(seated(
                        "SELECT player_id FROM match_player
                         WHERE match_id = ?1 AND side = ?2 ORDER BY seat",
                        mid,
                        side as i64,
                    )?);
                }
                entered == playing
            }
            None => false,
        };
        if !same {
            tx.execute("DELETE FROM tournament_match WHERE match_id = ?1", [mid])?;
        }
    }
    write_summary(tx, id, t)?;
    tx.execute(
        "UPDATE tournament SET revision = ?2 WHERE id = ?1",
        params![id, revision],
    )?;
    Ok(())
}

fn merge_tournament(tx: &Transaction, value: &Value, source: Source) -> Result<Taken, Refused> {
    let pushed = PushedTournament::read(value)?;
    let uid = &pushed.uid.clone();
    let known: Option<(i64, i64)> = tx
        .query_row(
            "SELECT id, revision FROM tournament WHERE uid = ?1",
            [uid],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((id, old_revision)) = known else {
        let state = pushed.record.replay()?;
        let incoming = IncomingTournament { pushed, state };
        let created = incoming.created_at.unwrap_or_else(super::now_ms);
        tx.execute(
            "INSERT INTO tournament (uid, setup, created_at, updated_at, status) VALUES (?1, ?2, ?3, ?3, 'registering')",
            params![uid, incoming.record.setup.to_string(), created],
        )?;
        let id = tx.last_insert_rowid();
        write_tournament(
            tx,
            id,
            (&incoming.record.events, 0),
            &incoming.state,
            incoming.revision,
            true,
        )?;
        // Its tables' matches pulled before it.
        tx.execute(
            "INSERT OR IGNORE INTO tournament_match (match_id, tournament_id, round, tab)
             SELECT match_id, ?1, round, tab FROM pending_link WHERE tournament_uid = ?2",
            params![id, uid],
        )?;
        tx.execute("DELETE FROM pending_link WHERE tournament_uid = ?1", [uid])?;
        return Ok(Taken::Accepted);
    };
    let (_, old) = stored(tx, id)?;
    let from = match decide_tournament(&old, old_revision, &pushed, source).map_err(conflict)? {
        Decision::Already => return Ok(Taken::Already),
        Decision::Replace { from } => from,
    };
    let state = pushed.record.replay()?;
    let incoming = IncomingTournament { pushed, state };
    // Replaced, if only its revision: `updated`, as for a match (docs/hub.md).
    write_tournament(
        tx,
        id,
        (&incoming.record.events, from),
        &incoming.state,
        incoming.revision,
        false,
    )?;
    Ok(Taken::Updated)
}

impl Store {
    /// Merges records into this database: a hub's push (`Source::Device`) or a device's pull
    /// (`Source::Hub`). One transaction; a refused record changes nothing and the others are
    /// still taken; `Err` (storage) means nothing changed.
    pub fn merge_records(
        &mut self,
        records: &[Value],
        source: Source,
    ) -> Result<MergeReport, Error> {
        self.merge_each(records.len(), |i| Ok(Cow::Borrowed(&records[i])), source)
    }

    /// [`Store::merge_records`] of a push's records as they came, each read only when its
    /// turn comes and dropped after it: the JSON of eight megabytes of tiny records, read
    /// whole, would take a hundred times that in memory.
    pub fn merge_raw(
        &mut self,
        records: &RawRecords,
        source: Source,
    ) -> Result<MergeReport, Error> {
        self.merge_each(
            records.len(),
            |i| read_raw(records.get(i)).map(Cow::Owned),
            source,
        )
    }

    fn merge_each<'a>(
        &mut self,
        count: usize,
        record: impl Fn(usize) -> Result<Cow<'a, Value>, Refusal>,
        source: Source,
    ) -> Result<MergeReport, Error> {
        let mut order: Vec<usize> = (0..count).collect();
        if source == Source::Hub {
            // Tournaments first, so that their table matches find them.
            order.sort_by_cached_key(|&i| {
                record(i).map_or(true, |v| kind_of(&v) != Some(RecordKind::Tournament))
            });
        }
        let mut report = MergeReport::default();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        for i in order {
            let value = match record(i) {
                Ok(value) => value,
                Err(refusal) => {
                    report.refused.push(refusal);
                    continue;
                }
            };
            let value = value.as_ref();
            // What is no record at all is refused before any savepoint: a push of a million
            // `1`s is a million refusals, not a million savepoints under the writer's lock.
            let kind = match record_kind(value) {
                Ok(kind) => kind,
                Err(refusal) => {
                    report.refused.push(refusal);
                    continue;
                }
            };
            let id = refusal_id(value);
            tx.execute_batch("SAVEPOINT record")?;
            let taken = match kind {
                RecordKind::Match => merge_match(&tx, value, source),
                RecordKind::Tournament => merge_tournament(&tx, value, source),
            };
            let refusal = match taken {
                Ok(Taken::Accepted) => {
                    report.accepted += 1;
                    None
                }
                Ok(Taken::Updated) => {
                    report.updated += 1;
                    None
                }
                Ok(Taken::Already) => {
                    report.already += 1;
                    None
                }
                Err(Refused::Storage(e)) => {
                    self.live = None;
                    return Err(e);
                }
                Err(Refused::Kind(e)) => Some(Refusal::of(id, e)),
                Err(Refused::Conflict(d)) => Some(Refusal {
                    id,
                    kind: "conflict",
                    detail: Cow::Owned(d),
                }),
            };
            match refusal {
                None => tx.execute_batch("RELEASE record")?,
                Some(refusal) => {
                    tx.execute_batch("ROLLBACK TO record; RELEASE record")?;
                    report.refused.push(refusal);
                }
            }
        }
        let committed = tx.commit();
        // The match kept replayed in memory may have been replaced.
        self.live = None;
        committed?;
        Ok(report)
    }

    /// The latest place in the change log (0 when empty), handed out as a cursor.
    pub fn change_seq(&self) -> Result<i64, Error> {
        self.hand_out()
    }

    /// Notes that every place of the change log so far is handed to a reader, and gives the
    /// last one: from now on a record that changes takes a new place (migration 8), so no
    /// reader misses it. A reader reads no further than this, so that a place it passes is
    /// always one that moves on the next change.
    fn hand_out(&self) -> Result<i64, Error> {
        self.conn.execute(
            "UPDATE sync_seen SET seq = (SELECT COALESCE(max(seq), 0) FROM sync_change)
             WHERE seq < (SELECT COALESCE(max(seq), 0) FROM sync_change)",
            [],
        )?;
        Ok(self
            .conn
            .query_row("SELECT seq FROM sync_seen", [], |r| r.get(0))?)
    }

    /// The records changed after `seq` in the change log, at most `limit`, oldest first.
    pub fn changes_since(&self, seq: i64, limit: i64) -> Result<Vec<Change>, Error> {
        let upto = self.hand_out()?;
        self.changes_upto(seq, limit, upto)
    }

    /// [`Store::changes_since`] up to the place `upto`, handed out before.
    fn changes_upto(&self, seq: i64, limit: i64, upto: i64) -> Result<Vec<Change>, Error> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT c.seq, c.kind, c.uid,
                    CASE c.kind WHEN 'match' THEN
                        (SELECT count(*) FROM action a WHERE a.match_id = m.id)
                    ELSE (SELECT count(*) FROM tournament_event e WHERE e.tournament_id = t.id) END,
                    COALESCE({MATCH_REVISION}, t.revision)
             FROM sync_change c
             LEFT JOIN match m ON c.kind = 'match' AND m.uid = c.uid
             LEFT JOIN tournament t ON c.kind = 'tournament' AND t.uid = c.uid
             WHERE c.seq > ?1 AND c.seq <= ?3 AND (m.id IS NOT NULL OR t.id IS NOT NULL)
             ORDER BY c.seq LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![seq, limit, upto], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, kind, id, actions, revision) = row?;
            let Some(record) = RecordKind::parse(&kind) else {
                continue;
            };
            out.push(Change {
                seq,
                id,
                record,
                actions,
                revision,
            });
        }
        Ok(out)
    }

    /// A stored record as sync serves it: a match as exported, with its revision and its
    /// `"tournament": {"id", "round", "table"}` when played for one; a tournament's record
    /// (setup and events, without its matches, which are records of their own).
    pub fn sync_record(&self, kind: RecordKind, uid: &str) -> Result<Value, Error> {
        match kind {
            RecordKind::Match => {
                let id: i64 = self
                    .conn
                    .query_row("SELECT id FROM match WHERE uid = ?1", [uid], |r| r.get(0))
                    .optional()?
                    .ok_or_else(|| Error::not_found(format!("no match {uid}")))?;
                // The record as every copy holds it (`served`).
                let mut out = self.match_value(id, true)?;
                if let Some(link) = stored_link(&self.conn, id)? {
                    out["tournament"] = link.to_value();
                }
                Ok(out)
            }
            RecordKind::Tournament => {
                let (id, revision, created): (i64, i64, i64) = self
                    .conn
                    .query_row(
                        "SELECT id, revision, created_at FROM tournament WHERE uid = ?1",
                        [uid],
                        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                    )
                    .optional()?
                    .ok_or_else(|| Error::not_found(format!("no tournament {uid}")))?;
                let (_, record) = stored(&self.conn, id)?;
                Ok(tournament_served(uid, revision, created, &record))
            }
        }
    }

    /// Runs `read` in one read transaction, so that what it reads is the database at one
    /// moment: another connection (the app scoring on the desk that hosts the hub, a phone's
    /// scorepad beside its sync thread) may commit a throw between two of its statements, and a
    /// record served with the revision after that throw and the actions before it would be
    /// refused as a conflict by every copy that later gets the real one. The log's places are
    /// handed out before, in a write of their own: the read holds no writer back (WAL), so a
    /// throw on the desk does not wait for a page of five thousand records.
    pub(super) fn at_one_moment<T>(
        &self,
        read: impl FnOnce(&Self, i64) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let upto = self.hand_out()?;
        if !self.conn.is_autocommit() {
            return read(self, upto);
        }
        let tx = Transaction::new_unchecked(&self.conn, TransactionBehavior::Deferred)?;
        let out = read(self, upto)?;
        tx.commit()?;
        Ok(out)
    }

    /// The records changed since `cursor` (none: from the start), each once, in order of their
    /// latest change, at most `limit`; `bad_record` for a cursor this store did not give.
    pub fn records_since(&self, cursor: Option<&str>, limit: usize) -> Result<Page, Error> {
        self.at_one_moment(|s, upto| s.page_upto(cursor, limit, upto))
    }

    fn page_upto(&self, cursor: Option<&str>, limit: usize, upto: i64) -> Result<Page, Error> {
        let name = self.hub_name()?;
        let since = cursor_of(cursor, &name)?;
        // Past the last change ever given: a cursor of another hub, or of this one before its
        // database was replaced. Refused, so that the phone pulls again from the start rather
        // than wait, with empty pages, for the numbers to catch up with it.
        if since > upto {
            return Err(crate::merge::cursor_not_given(since));
        }
        let changes = self.changes_upto(since, limit.min(i64::MAX as usize) as i64, upto)?;
        let mut records = Vec::new();
        let mut bytes = 0;
        for c in &changes {
            if bytes >= crate::merge::PAGE_BYTES {
                break;
            }
            let record = self.sync_record(c.record, &c.id)?;
            bytes += crate::merge::json_len(&record);
            records.push(record);
        }
        // The cursor is the last record given: the page may end before its `limit`.
        let cursor = match changes[..records.len()].last() {
            Some(c) => crate::merge::cursor_at(&name, c.seq),
            None => cursor.map_or_else(|| "0".to_string(), str::to_string),
        };
        Ok(Page { records, cursor })
    }

    /// This database's name as a hub (migration 9): random, given once, in every cursor it
    /// hands out.
    pub fn hub_name(&self) -> Result<String, Error> {
        Ok(self
            .conn
            .prepare_cached("SELECT name FROM hub_identity WHERE id = 1")?
            .query_row([], |r| r.get(0))?)
    }

    /// The tournament changed most recently (the big screen's), by id.
    pub fn current_tournament(&self) -> Result<Option<String>, Error> {
        Ok(self
            .conn
            .query_row(
                "SELECT uid FROM tournament ORDER BY updated_at DESC, id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// A tournament's summary (`docs/tournaments.md`, "The summary") by its id, with its `id`,
    /// `revision`, and `live`: the matches being scored for the current round's tables (table,
    /// match id, status, scores).
    pub fn tournament_summary(&self, uid: &str) -> Result<Value, Error> {
        let (id, revision): (i64, i64) = self
            .conn
            .query_row(
                "SELECT id, revision FROM tournament WHERE uid = ?1",
                [uid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .ok_or_else(|| Error::not_found(format!("no tournament {uid}")))?;
        let (_, record) = stored(&self.conn, id)?;
        let t = replay_checked(id, &record)?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT tm.tab, m.id, m.uid, m.status FROM tournament_match tm
             JOIN match m ON m.id = tm.match_id
             WHERE tm.tournament_id = ?1 AND tm.round = ?2 ORDER BY tm.tab",
        )?;
        let rows = stmt
            .query_map(params![id, t.round() as i64], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let live: Vec<Value> = rows
            .into_iter()
            .map(|(table, match_id, uid, status)| {
                let scores = self.played(match_id).map(|s| s.scores());
                json!({"table": table, "match": uid, "status": status, "scores": scores})
            })
            .collect();
        let mut summary = t.summary();
        summary["id"] = json!(uid);
        summary["revision"] = json!(revision);
        summary["live"] = json!(live);
        Ok(summary)
    }

    /// What this device has to push to `hub` (a name the app chooses, such as the hub's
    /// address): its matches changed since the last [`Store::sync_pushed`], at most `limit`.
    /// Tournaments are left out: their writer is the hub.
    pub fn sync_outbox(&self, hub: &str, limit: usize) -> Result<Outbox, Error> {
        self.at_one_moment(|s, handed| s.outbox_upto(hub, limit, handed, false))
    }

    /// The outbox from what `hub` was last answered for, at most `limit` matches, read at one
    /// moment (`handed`). With `unseen`, a match the hub already holds at its present revision
    /// (`club_seen`: pulled from it, or answered before) is stepped over and not counted: after
    /// a pull of thousands of records, the device's own next match is in the first batch, not
    /// behind batches of nothing to send.
    pub(crate) fn outbox_upto(
        &self,
        hub: &str,
        limit: usize,
        handed: i64,
        unseen: bool,
    ) -> Result<Outbox, Error> {
        let mut held = self.conn.prepare_cached(&format!(
            "SELECT 1 FROM match m JOIN club_seen s ON s.hub = ?1 AND s.uid = m.uid
             WHERE m.uid = ?2 AND s.revision = {MATCH_REVISION}"
        ))?;
        let since: i64 = self
            .conn
            .query_row("SELECT pushed FROM sync_peer WHERE hub = ?1", [hub], |r| {
                r.get(0)
            })
            .optional()?
            .unwrap_or(0);
        let mut records = Vec::new();
        let mut upto = since;
        let mut from = since;
        // Tournaments in the log are stepped over, not counted against the limit.
        while records.len() < limit {
            let changes = self.changes_upto(from, 500, handed)?;
            let Some(last) = changes.last() else { break };
            from = last.seq;
            for c in changes {
                if records.len() == limit {
                    break;
                }
                upto = c.seq;
                if c.record == RecordKind::Match && !(unseen && held.exists(params![hub, c.id])?) {
                    records.push(self.sync_record(c.record, &c.id)?);
                }
            }
        }
        Ok(Outbox { records, upto })
    }

    /// Notes that the hub answered a push of the outbox up to `upto` (never moves back).
    pub fn sync_pushed(&mut self, hub: &str, upto: i64) -> Result<(), Error> {
        self.conn.execute(
            "INSERT INTO sync_peer (hub, pushed) VALUES (?1, ?2)
             ON CONFLICT (hub) DO UPDATE SET pushed = max(pushed, excluded.pushed)",
            params![hub, upto],
        )?;
        Ok(())
    }

    /// The cursor of the last page pulled from `hub`, if any.
    pub fn sync_pulled(&self, hub: &str) -> Result<Option<String>, Error> {
        Ok(self
            .conn
            .query_row("SELECT pulled FROM sync_peer WHERE hub = ?1", [hub], |r| {
                r.get(0)
            })
            .optional()?
            .flatten())
    }

    /// Keeps the cursor of the last page pulled from `hub` (after its records were merged).
    pub fn set_sync_pulled(&mut self, hub: &str, cursor: &str) -> Result<(), Error> {
        self.conn.execute(
            "INSERT INTO sync_peer (hub, pulled) VALUES (?1, ?2)
             ON CONFLICT (hub) DO UPDATE SET pulled = excluded.pulled",
            params![hub, cursor],
        )?;
        Ok(())
    }

    /// The id of a match by its database id (what a device pushes and the hub names it by).
    pub fn match_uid(&self, id: i64) -> Result<String, Error> {
        self.conn
            .query_row("SELECT uid FROM match WHERE id = ?1", [id], |r| r.get(0))
            .optional()?
            .ok_or_else(|| Error::not_found(format!("no match {id}")))
    }

    /// The database id of a tournament by its id, if it is here.
    pub fn tournament_by_uid(&self, uid: &str) -> Result<Option<i64>, Error> {
        Ok(self
            .conn
            .query_row("SELECT id FROM tournament WHERE uid = ?1", [uid], |r| {
                r.get(0)
            })
            .optional()?)
    }
}
