//! Tournaments in the history, stored like matches: the setup and one row per event, each
//! committed before the caller sees its effect, the summary derived by replay. A table's match
//! is an ordinary match linked to its round and table; when it ends, its result enters the
//! tournament in the same transaction.

use super::{find_or_create_player, new_uid, now_ms, seat_player_as, MatchView, Store};
use crate::error::Error;
use crate::games::MatchState;
use crate::merge::{check_table_setup, table_result_event, Link, PushedMatch, MAX_ID_CHARS};
use crate::time::{iso, parse_iso};
use crate::tournament::{self, Tournament, TournamentRecord};
use rusqlite::{params, OptionalExtension, Transaction, TransactionBehavior};
use serde::Serialize;
use serde_json::{json, Value};

/// A tournament as its screens see it.
#[derive(Debug, Clone, Serialize)]
pub struct TournamentView {
    /// Database id.
    pub id: i64,
    /// Stable id, kept across export and import.
    pub uid: String,
    /// The setup, as given.
    pub setup: Value,
    /// How many events it has (what undo would take back).
    pub events: usize,
    /// Its revision (every event added or taken back counts one: docs/hub.md), read before
    /// its events: an undo from a screen that showed another is refused.
    pub revision: i64,
    /// The derived summary (`docs/tournaments.md`, "The summary").
    pub summary: Value,
    /// The matches scored in the app for the current round's tables.
    pub tables: Vec<TableMatch>,
    /// The club hub that runs it, when it was pulled from one: this device then only scores
    /// its tables' matches.
    pub hub: Option<String>,
}

/// A match scored in the app for a table of the current round.
#[derive(Debug, Clone, Serialize)]
pub struct TableMatch {
    /// The table.
    pub table: i64,
    /// The match's id.
    pub match_id: i64,
    /// `playing`, `won` or `drawn`.
    pub status: String,
}

/// A tournament in a list.
#[derive(Debug, Clone, Serialize)]
pub struct TournamentListItem {
    /// Database id.
    pub id: i64,
    /// The game.
    pub game: String,
    /// The system.
    pub system: String,
    /// `registering`, `playing` or `finished`.
    pub status: String,
    /// Entrants.
    pub entrants: usize,
    /// The champion's name, once finished.
    pub champion: Option<String>,
    /// When it was created, in ms since the epoch.
    pub created_at: i64,
}

/// A player's tournaments, for the player's page.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerTournament {
    /// The tournament's id.
    pub id: i64,
    /// The game.
    pub game: String,
    /// The player's entrant's rank in the current standings.
    pub rank: usize,
    /// How many entrants.
    pub of: usize,
    /// Whether the tournament is over.
    pub finished: bool,
    /// When it was created, in ms since the epoch.
    pub created_at: i64,
}

fn events_of(tx: &rusqlite::Connection, id: i64) -> Result<Vec<Value>, Error> {
    let mut stmt = tx.prepare_cached(
        "SELECT body FROM tournament_event WHERE tournament_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([id], |r| r.get::<_, String>(0))?;
    rows.map(|b| {
        serde_json::from_str(&b?)
            .map_err(|e| Error::storage(format!("tournament {id}: an event is not JSON: {e}")))
    })
    .collect()
}

/// The table a match plays for: its tournament's id, round and table, and the match's uid.
fn table_of(
    tx: &rusqlite::Connection,
    match_id: i64,
) -> Result<Option<(i64, i64, i64, String)>, Error> {
    Ok(tx
        .query_row(
            "SELECT tm.tournament_id, tm.round, tm.tab, m.uid FROM tournament_match tm
             JOIN match m ON m.id = tm.match_id WHERE tm.match_id = ?1",
            [match_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?)
}

/// A stored tournament's id and record.
pub(super) fn stored(
    conn: &rusqlite::Connection,
    id: i64,
) -> Result<(String, TournamentRecord), Error> {
    let (uid, setup): (String, String) = conn
        .query_row(
            "SELECT uid, setup FROM tournament WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?
        .ok_or_else(|| Error::not_found(format!("no tournament {id}")))?;
    let setup = serde_json::from_str(&setup)
        .map_err(|e| Error::storage(format!("tournament {id}: setup is not JSON: {e}")))?;
    let events = events_of(conn, id)?;
    Ok((uid, TournamentRecord { setup, events }))
}

/// A tournament's revision (docs/hub.md: every event added or taken back counts one).
fn revision_of(conn: &rusqlite::Connection, id: i64) -> Result<i64, Error> {
    conn.query_row("SELECT revision FROM tournament WHERE id = ?1", [id], |r| {
        r.get(0)
    })
    .optional()?
    .ok_or_else(|| Error::not_found(format!("no tournament {id}")))
}

/// A stored tournament replayed; a record that no longer replays is a `storage` error.
fn replayed(
    conn: &rusqlite::Connection,
    id: i64,
) -> Result<(String, TournamentRecord, Tournament), Error> {
    let (uid, record) = stored(conn, id)?;
    let state = replay_checked(id, &record)?;
    Ok((uid, record, state))
}

pub(super) fn replay_checked(id: i64, record: &TournamentRecord) -> Result<Tournament, Error> {
    record
        .replay()
        .map_err(|e| Error::storage(format!("tournament {id} no longer replays: {e}")))
}

/// Seats an entrant's players as players of the history (new names become players). A
/// tournament made elsewhere (pulled, imported) finds its names as a match made elsewhere
/// does (`player_from_elsewhere`: a name a player here was renamed from is theirs).
pub(super) fn seat_entrant(
    tx: &Transaction,
    id: i64,
    entrant: usize,
    names: &[String],
    elsewhere: bool,
) -> Result<(), Error> {
    for (seat, name) in names.iter().enumerate() {
        let pid = if elsewhere {
            super::player_from_elsewhere(tx, name)?.0
        } else {
            find_or_create_player(tx, name)?
        };
        tx.execute(
            "INSERT INTO tournament_entrant (tournament_id, entrant, seat, player_id) VALUES (?1, ?2, ?3, ?4)",
            params![id, entrant as i64, seat as i64, pid],
        )?;
    }
    Ok(())
}

/// Seats a table's match `mid` of tournament `id`: each seat is the player entered there (its
/// `entrants`, side by side; merged, renamed or archived since, still who was entered), else
/// the player of the name (found as a record made `elsewhere` is, or as typed here). The
/// record keeps the entered names; the history shows the players' names of today.
pub(super) fn seat_entered(
    tx: &Transaction,
    mid: i64,
    id: i64,
    sides: &[Vec<String>],
    entrants: &[usize],
    at: i64,
    elsewhere: bool,
) -> Result<(), Error> {
    for (side, (names, &e)) in sides.iter().zip(entrants).enumerate() {
        for (seat, name) in names.iter().enumerate() {
            let entered: Option<i64> = tx
                .query_row(
                    "SELECT player_id FROM tournament_entrant
                     WHERE tournament_id = ?1 AND entrant = ?2 AND seat = ?3",
                    params![id, e as i64, seat as i64],
                    |r| r.get(0),
                )
                .optional()?;
            let pid = match entered {
                Some(pid) => pid,
                None if elsewhere => super::player_from_elsewhere(tx, name)?.0,
                None => find_or_create_player(tx, name)?,
            };
            let today: String =
                tx.query_row("SELECT name FROM player WHERE id = ?1", [pid], |r| r.get(0))?;
            seat_player_as(tx, mid, (side, seat), pid, &today, name.trim(), at)?;
        }
    }
    Ok(())
}

/// Seats a new entrant (one registered at the start or entered late) as [`seat_entrant`]
/// does, refusing a name that seats a player already in the tournament: the rules tell names
/// apart as written, the players are told apart as the screens do, by case too ("élodie"
/// is Élodie), and one player on two sides would meet itself. The kinds are the rules' own
/// for a name twice: `bad_setup` in a new tournament; in an entry, `illegal_action` for a name
/// already entered and `bad_action` for a team with a player twice.
fn seat_new_entrant(
    tx: &Transaction,
    id: i64,
    entrant: usize,
    names: &[String],
    entering: bool,
) -> Result<(), Error> {
    type Refusal = fn(String) -> Error;
    let (refusal, malformed): (Refusal, Refusal) = if entering {
        (Error::illegal, Error::bad_action)
    } else {
        (Error::bad_setup, Error::bad_setup)
    };
    // Seated first (each name found once), then checked; a refusal rolls it all back.
    seat_entrant(tx, id, entrant, names, false)?;
    let seated: Option<(i64, String)> = tx
        .query_row(
            "SELECT a.seat, p.name FROM tournament_entrant a
             JOIN tournament_entrant b ON b.tournament_id = a.tournament_id
                 AND b.player_id = a.player_id AND b.entrant <> a.entrant
             JOIN player p ON p.id = a.player_id
             WHERE a.tournament_id = ?1 AND a.entrant = ?2
             ORDER BY a.seat LIMIT 1",
            params![id, entrant as i64],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if let Some((seat, player)) = seated {
        let name = &names[seat as usize];
        return Err(
            refusal(format!("{name:?} is already entered, as {player:?}")).with_code("name_taken"),
        );
    }
    // Two names of the new entrant itself that are one player ("Anna" and "anna" as a team).
    let seats: i64 = tx.query_row(
        "SELECT COUNT(DISTINCT player_id) FROM tournament_entrant WHERE tournament_id = ?1 AND entrant = ?2",
        params![id, entrant as i64],
        |r| r.get(0),
    )?;
    if seats as usize != names.len() {
        return Err(
            malformed(format!("{} names one player twice", names.join(", ")))
                .with_code("team_twice"),
        );
    }
    Ok(())
}

pub(super) fn write_summary(tx: &Transaction, id: i64, t: &Tournament) -> Result<(), Error> {
    let status = serde_json::to_value(t.status()).expect("a status serialises");
    tx.execute(
        "UPDATE tournament SET status = ?2, summary = ?3, updated_at = ?4 WHERE id = ?1",
        params![id, status.as_str(), t.summary().to_string(), now_ms()],
    )?;
    Ok(())
}

/// Appends one event, already accepted by the rules, to a tournament in an open transaction.
fn append(
    tx: &Transaction,
    id: i64,
    seq: usize,
    event: &Value,
    next: &Tournament,
) -> Result<(), Error> {
    tx.execute(
        "INSERT INTO tournament_event (tournament_id, seq, body, at) VALUES (?1, ?2, ?3, ?4)",
        params![id, seq as i64, event.to_string(), now_ms()],
    )?;
    if event.get("enter").is_some() {
        next.check_last_seatable()?;
        let e = next.field().entrants.len() - 1;
        seat_new_entrant(tx, id, e, &next.field().entrants[e], true)?;
    }
    write_summary(tx, id, next)
}

impl Store {
    /// Creates a tournament from its setup (`bad_setup` when invalid).
    pub fn new_tournament(&mut self, setup: &Value) -> Result<TournamentView, Error> {
        let t = Tournament::setup(setup)?;
        let uid = new_uid();
        let now = now_ms();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO tournament (uid, setup, created_at, updated_at, status) VALUES (?1, ?2, ?3, ?3, 'registering')",
            params![uid, setup.to_string(), now],
        )?;
        let id = tx.last_insert_rowid();
        for (e, names) in t.field().entrants.iter().enumerate() {
            seat_new_entrant(&tx, id, e, names, false)?;
        }
        write_summary(&tx, id, &t)?;
        tx.commit()?;
        self.tournament(id)
    }

    fn tournament_state(&self, id: i64) -> Result<(String, TournamentRecord, Tournament), Error> {
        replayed(&self.conn, id)
    }

    /// A tournament, replayed.
    pub fn tournament(&self, id: i64) -> Result<TournamentView, Error> {
        // First: a result entered by another connection while the rest is read makes it older
        // than what is shown, so that an undo from this view is refused, never let through.
        let revision = revision_of(&self.conn, id)?;
        let (uid, record, state) = self.tournament_state(id)?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT tm.tab, tm.match_id, m.status FROM tournament_match tm JOIN match m ON m.id = tm.match_id
             WHERE tm.tournament_id = ?1 AND tm.round = ?2 ORDER BY tm.tab",
        )?;
        let tables = stmt
            .query_map(params![id, state.round() as i64], |r| {
                Ok(TableMatch {
                    table: r.get(0)?,
                    match_id: r.get(1)?,
                    status: r.get(2)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(TournamentView {
            id,
            uid,
            setup: record.setup,
            events: record.events.len(),
            revision,
            summary: state.summary(),
            tables,
            hub: self.tournament_hub(id)?,
        })
    }

    /// Applies one event: checked by the rules, committed, then shown. On refusal nothing is
    /// written.
    pub fn tournament_event(&mut self, id: i64, event: &Value) -> Result<TournamentView, Error> {
        self.tournament_events(id, |_| vec![event.clone()])
    }

    /// Withdraws an entrant, with the forfeit of the match it still has to play in the current
    /// round ([`Tournament::withdrawal`]): both or neither are committed, and one undo takes
    /// both back.
    pub fn withdraw(&mut self, id: i64, entrant: usize) -> Result<TournamentView, Error> {
        self.tournament_events(id, |state| state.withdrawal(entrant))
    }

    /// Plays the events `step` makes of the tournament as it stands, in order, and commits
    /// them in one transaction: the first refusal leaves the tournament as it was.
    fn tournament_events(
        &mut self,
        id: i64,
        step: impl FnOnce(&Tournament) -> Vec<Value>,
    ) -> Result<TournamentView, Error> {
        self.refuse_hub_tournament(id)?;
        // Read in the transaction that writes: the hub the desktop hosts may enter a table's
        // result in between, and the events would be numbered over it.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let (_, record, mut state) = replayed(&tx, id)?;
        let events = step(&state);
        let mut states = Vec::with_capacity(events.len());
        for event in &events {
            state = state.play_json(event).map_err(|r| r.error)?;
            states.push(state.clone());
        }
        for (i, (event, next)) in events.iter().zip(&states).enumerate() {
            append(&tx, id, record.events.len() + i, event, next)?;
        }
        tx.commit()?;
        self.tournament(id)
    }

    /// Takes back the last event, or the last step when it made two (a withdrawal with its
    /// forfeit, [`Tournament::undo_len`]). A round taken back unlinks the matches started for
    /// its tables (they stay in the history); a late entry taken back forgets its players' link.
    pub fn undo_tournament(&mut self, id: i64) -> Result<TournamentView, Error> {
        self.undo_tournament_seen(id, None)
    }

    /// [`Store::undo_tournament`] from a screen that showed the tournament at `seen`, its
    /// revision: when it has moved on by then (the hub the desktop hosts entered a table's
    /// result, or took one back and entered another), nothing is taken back and the refusal
    /// says so (`illegal_action`, code `tournament_changed`): the last step is no longer the
    /// one the organiser saw.
    pub fn undo_tournament_seen(
        &mut self,
        id: i64,
        seen: Option<i64>,
    ) -> Result<TournamentView, Error> {
        self.refuse_hub_tournament(id)?;
        // Read in the transaction that writes: a result the hosted hub entered in between
        // would otherwise be deleted along with the organiser's last event.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let revision = revision_of(&tx, id)?;
        if let Some(seen) = seen.filter(|&n| n != revision) {
            return Err(Error::illegal(format!(
                "tournament {id} is at revision {revision}, not the {seen} shown"
            ))
            .with_code("tournament_changed"));
        }
        let (_, mut record, before) = replayed(&tx, id)?;
        let take = before.undo_len(&record.events);
        let dropped = record.events.split_off(record.events.len() - take);
        let Some(last) = dropped.last() else {
            return Err(Error::illegal("there is nothing to undo").with_code("nothing_to_undo"));
        };
        // A result a table's match entered is that match's to take back, when the match is
        // here, still the table's and written on this device: dropped here, the match would
        // still end so and stay the table's, and the two would say two results. A match gone
        // (deleted) or written on another device (a phone that may be gone) cannot take it
        // back here, and the organiser's Undo must never be stuck: it goes as it always did.
        for e in &dropped {
            let Some(r) = e.get("result") else { continue };
            let Some(uid) = r.get("match").and_then(Value::as_str) else {
                continue;
            };
            let here: bool = tx.query_row(
                "SELECT count(*) > 0 FROM match m JOIN tournament_match tm ON tm.match_id = m.id
                     WHERE m.uid = ?1 AND tm.tournament_id = ?2 AND m.writer",
                params![uid, id],
                |row| row.get(0),
            )?;
            if here {
                let table = r.get("table").and_then(Value::as_u64).unwrap_or(0);
                return Err(Error::illegal(format!(
                    "table {}'s result was entered by its match: it is taken back by an undo in that match",
                    table + 1
                ))
                .with_code("result_from_match"));
            }
        }
        let state = replay_checked(id, &record)?;
        tx.execute(
            "DELETE FROM tournament_event WHERE tournament_id = ?1 AND seq >= ?2",
            params![id, record.events.len() as i64],
        )?;
        if last.get("pair").is_some() {
            tx.execute(
                "DELETE FROM tournament_match WHERE tournament_id = ?1 AND round = ?2",
                params![id, before.round() as i64],
            )?;
        }
        if last.get("enter").is_some() {
            tx.execute(
                "DELETE FROM tournament_entrant WHERE tournament_id = ?1 AND entrant = ?2",
                params![id, state.field().entrants.len() as i64],
            )?;
        }
        write_summary(&tx, id, &state)?;
        tx.commit()?;
        // A match kept in memory may be the table's of the round taken back: its link is gone.
        self.forget_live();
        self.tournament(id)
    }

    /// Starts (or opens again) the match of a table of the current round, linked to it.
    pub fn start_table(&mut self, id: i64, table: usize) -> Result<MatchView, Error> {
        let (_, _, t) = self.tournament_state(id)?;
        let round = t.round() as i64;
        let existing: Option<i64> = self
            .conn
            .query_row(
                "SELECT match_id FROM tournament_match WHERE tournament_id = ?1 AND round = ?2 AND tab = ?3",
                params![id, round, table as i64],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(m) = existing {
            return self.view(m);
        }
        let pairing = t
            .field()
            .rounds
            .last()
            .and_then(|r| r.matches.iter().find(|m| m.table == table))
            .ok_or_else(|| {
                Error::illegal(format!("round {round} has no table {table}")).with_code("no_table")
            })?;
        if pairing.result.is_some() {
            return Err(
                Error::illegal(format!("table {table} already has a result"))
                    .with_code("result_in"),
            );
        }
        let sides: Vec<Vec<String>> = pairing
            .sides
            .iter()
            .map(|&e| t.field().entrants[e].clone())
            .collect();
        let entrants = pairing.sides;
        // The match, its players and its link in one step. Its players are the entrants'
        // (merged, renamed or archived since, they are still who was entered); its record has
        // the names they were entered with, which the table's match must have, and the history
        // shows their names of today (migration 12), as after a rename during the match.
        let mid = self.start_match_with(
            t.game(),
            t.rules(),
            &sides,
            &Default::default(),
            |tx, mid, sides, now| {
                seat_entered(tx, mid, id, sides, &entrants, now, false)?;
                tx.execute(
                    "INSERT INTO tournament_match (match_id, tournament_id, round, tab) VALUES (?1, ?2, ?3, ?4)",
                    params![mid, id, round, table as i64],
                )?;
                Ok(())
            },
        )?;
        // The view kept when the match was created did not have its table yet.
        self.forget_live();
        self.view(mid)
    }

    /// In the transaction that ends a match: if it was played for a tournament's table, its
    /// result enters the tournament. A result the tournament refuses (a draw in a knockout, a
    /// result typed by hand already) is left for the organiser; the match stands either way.
    pub(crate) fn enter_table_result(
        tx: &Transaction,
        match_id: i64,
        state: &MatchState,
    ) -> Result<(), Error> {
        let Some((tid, round, table, uid)) = table_of(tx, match_id)? else {
            return Ok(());
        };
        let Some(event) = table_result_event(round, table, &uid, state) else {
            return Ok(());
        };
        let (_, record, t) = replayed(tx, tid)?;
        if let Ok(next) = t.play_json(&event) {
            append(tx, tid, record.events.len(), &event, &next)?;
        }
        Ok(())
    }

    /// Whether match `match_id` entered a result its tournament has paired a round from since
    /// ([`TournamentRecord::paired_after_result`]): an undo here would leave the match and the
    /// table saying two results.
    pub(crate) fn table_result_paired(tx: &Transaction, match_id: i64) -> Result<bool, Error> {
        let Some((tid, _, _, uid)) = table_of(tx, match_id)? else {
            return Ok(false);
        };
        Ok(stored(tx, tid)?.1.paired_after_result(&uid))
    }

    /// In the transaction that undoes a match's last action (or takes a newer copy of it): a
    /// result that match entered is taken back too while its round is played
    /// ([`TournamentRecord::taken_back`]); the events after it keep their order.
    pub(crate) fn take_back_table_result(tx: &Transaction, match_id: i64) -> Result<(), Error> {
        let Some((tid, _, _, uid)) = table_of(tx, match_id)? else {
            return Ok(());
        };
        let (_, record) = stored(tx, tid)?;
        let Some((at, t)) = record.taken_back(&uid) else {
            return Ok(());
        };
        let revision = revision_of(tx, tid)?;
        // The events after it move up one place, each with its own time.
        let later: Vec<(String, i64)> = tx
            .prepare_cached(
                "SELECT body, at FROM tournament_event WHERE tournament_id = ?1 AND seq > ?2 ORDER BY seq",
            )?
            .query_map(params![tid, at as i64], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        tx.execute(
            "DELETE FROM tournament_event WHERE tournament_id = ?1 AND seq >= ?2",
            params![tid, at as i64],
        )?;
        for (i, (body, when)) in later.iter().enumerate() {
            tx.execute(
                "INSERT INTO tournament_event (tournament_id, seq, body, at) VALUES (?1, ?2, ?3, ?4)",
                params![tid, (at + i) as i64, body, when],
            )?;
        }
        // One event taken back counts one (docs/hub.md), as on PostgreSQL: the triggers of
        // migration 6 counted each row moved as well.
        tx.execute(
            "UPDATE tournament SET revision = ?2 WHERE id = ?1",
            params![tid, revision + 1],
        )?;
        write_summary(tx, tid, &t)
    }

    /// Tournaments, most recently changed first.
    pub fn tournaments(&self, limit: i64) -> Result<Vec<TournamentListItem>, Error> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, summary, created_at FROM tournament ORDER BY updated_at DESC, id DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, summary, created_at) = row?;
            let s: Value = summary
                .and_then(|s| serde_json::from_str(&s).ok())
                .unwrap_or(Value::Null);
            let champion = s["champion"]
                .as_u64()
                .and_then(|c| s["entrants"][c as usize].as_str().map(str::to_string));
            out.push(TournamentListItem {
                id,
                game: s["game"].as_str().unwrap_or_default().to_string(),
                system: s["system"].as_str().unwrap_or_default().to_string(),
                status: s["status"].as_str().unwrap_or_default().to_string(),
                entrants: s["entrants"].as_array().map_or(0, Vec::len),
                champion,
                created_at,
            });
        }
        Ok(out)
    }

    /// The tournaments a player entered, with the rank of the player's entrant.
    pub fn player_tournaments(&self, player: i64) -> Result<Vec<PlayerTournament>, Error> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT DISTINCT t.id, te.entrant, t.summary, t.created_at FROM tournament_entrant te
             JOIN tournament t ON t.id = te.tournament_id WHERE te.player_id = ?1 ORDER BY t.created_at DESC",
        )?;
        let rows = stmt.query_map([player], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, entrant, summary, created_at) = row?;
            let s: Value = summary
                .and_then(|s| serde_json::from_str(&s).ok())
                .unwrap_or(Value::Null);
            let standings = s["standings"].as_array().cloned().unwrap_or_default();
            let Some(rank) = standings
                .iter()
                .find(|r| r["entrant"] == entrant)
                .and_then(|r| r["rank"].as_u64())
            else {
                continue;
            };
            // Two entrants merged since into one player: the tournament once, at the better
            // place.
            if let Some(seen) = out.iter_mut().find(|p: &&mut PlayerTournament| p.id == id) {
                seen.rank = seen.rank.min(rank as usize);
                continue;
            }
            out.push(PlayerTournament {
                id,
                game: s["game"].as_str().unwrap_or_default().to_string(),
                rank: rank as usize,
                of: standings.len(),
                finished: s["status"] == "finished",
                created_at,
            });
        }
        Ok(out)
    }

    /// A tournament's record with its matches: `{"format", "id", "created_at", "tournament",
    /// "events", "matches": [match records with their "table": {"round", "table"}]}`.
    pub fn export_tournament(&self, id: i64) -> Result<Value, Error> {
        let (uid, record) = stored(&self.conn, id)?;
        let (created, revision): (i64, i64) = self.conn.query_row(
            "SELECT created_at, revision FROM tournament WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT match_id, round, tab FROM tournament_match WHERE tournament_id = ?1 ORDER BY round, tab",
        )?;
        let links: Vec<(i64, i64, i64)> = stmt
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        let mut matches = Vec::new();
        for (m, round, table) in links {
            let mut rec = self.export_match(m)?;
            rec["table"] = json!({"round": round, "table": table});
            matches.push(rec);
        }
        Ok(json!({
            "format": tournament::FORMAT,
            "id": uid,
            "revision": revision,
            "created_at": iso(created),
            "tournament": record.setup,
            "events": record.events,
            "matches": matches,
        }))
    }

    /// Adds an exported tournament with its matches; a tournament already there (same id) is
    /// left as it is and its id returned. Checked whole first: nothing is written if the
    /// tournament or one of its matches does not replay; then the matches, the tournament and
    /// its links are written in one transaction.
    pub fn import_tournament(&mut self, value: &Value) -> Result<i64, Error> {
        self.import_tournament_new(value).map(|(id, _)| id)
    }

    /// [`Store::import_tournament`], and whether the tournament is new here.
    fn import_tournament_new(&mut self, value: &Value) -> Result<(i64, bool), Error> {
        let record = TournamentRecord::from_value(value)?;
        let t = record.replay()?;
        let revision = crate::merge::revision_given(value)?;
        // A file without an id is given one made from its content: imported again, it is the
        // same tournament, not a copy.
        let uid = match value.get("id") {
            Some(Value::String(s)) if !s.is_empty() && s.chars().count() <= MAX_ID_CHARS => {
                s.clone()
            }
            None | Some(Value::Null) => {
                let canonical = json!({"tournament": record.setup, "events": record.events});
                format!("tnt-{:016x}", super::transfer::fnv(&canonical.to_string()))
            }
            Some(other) => {
                return Err(Error::bad_record(format!(
                    "a tournament's id is a string of 1 to {MAX_ID_CHARS} characters, not {other}"
                )))
            }
        };
        let matches = value["matches"].as_array().cloned().unwrap_or_default();
        let created = value["created_at"]
            .as_str()
            .and_then(parse_iso)
            .unwrap_or_else(now_ms);
        // Each match needs its table and its id (its link is found by it)...
        let mut tables = Vec::with_capacity(matches.len());
        for (k, m) in matches.iter().enumerate() {
            let round = m["table"]["round"].as_i64();
            let table = m["table"]["table"].as_i64();
            let (Some(round), Some(table)) = (round, table) else {
                return Err(Error::bad_record("a tournament's match needs its table"));
            };
            if m["id"].as_str().is_none_or(str::is_empty) {
                return Err(Error::bad_record(format!(
                    "match {k} of the tournament has no id"
                )));
            }
            tables.push((round, table));
        }
        // ...and each is checked before anything is written.
        let list: Vec<&Value> = matches.iter().collect();
        let checked = super::transfer::checked_matches(&list)?;
        // One transaction for all (it borrows the connection only, so that the matches as
        // this device holds them can be read in it): a failure or a kill on the way leaves no
        // matches without their tournament.
        let tx = Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)?;
        if let Some(id) = tx
            .query_row("SELECT id FROM tournament WHERE uid = ?1", [&uid], |r| {
                r.get(0)
            })
            .optional()?
        {
            return Ok((id, false));
        }
        super::transfer::write_matches(&tx, &checked, false)?;
        let mut links = Vec::new();
        for (m, (round, table)) in matches.iter().zip(tables) {
            let mid: i64 = tx.query_row(
                "SELECT id FROM match WHERE uid = ?1",
                [m["id"].as_str().unwrap_or_default()],
                |r| r.get(0),
            )?;
            // Linked only if the match as this device holds it is that table's (its game,
            // rules and sides the pairing's, as a hub checks a pushed table match): a file
            // naming one of this device's own matches under a table does not make it the
            // table's, to enter and take back results there. Not linked, it stays in the
            // history as it is.
            let link = Link {
                tournament: uid.clone(),
                round,
                table,
            };
            let held = self.export_match(mid)?;
            let fits =
                PushedMatch::read(&held).is_ok_and(|pm| check_table_setup(&t, &pm, &link).is_ok());
            if fits {
                links.push((mid, round, table));
            }
        }
        tx.execute(
            "INSERT INTO tournament (uid, setup, created_at, updated_at, status) VALUES (?1, ?2, ?3, ?3, 'registering')",
            params![uid, record.setup.to_string(), created],
        )?;
        let id = tx.last_insert_rowid();
        for (seq, e) in record.events.iter().enumerate() {
            tx.execute(
                "INSERT INTO tournament_event (tournament_id, seq, body, at) VALUES (?1, ?2, ?3, ?4)",
                params![id, seq as i64, e.to_string(), created],
            )?;
        }
        for (e, names) in t.field().entrants.iter().enumerate() {
            seat_entrant(&tx, id, e, names, true)?;
        }
        for (mid, round, table) in links {
            tx.execute(
                "INSERT OR IGNORE INTO tournament_match (match_id, tournament_id, round, tab) VALUES (?1, ?2, ?3, ?4)",
                params![mid, id, round, table],
            )?;
        }
        write_summary(&tx, id, &t)?;
        // The revision it was exported with (the events just written counted one each).
        if let Some(revision) = revision {
            tx.execute(
                "UPDATE tournament SET revision = ?2 WHERE id = ?1",
                params![id, revision],
            )?;
        }
        tx.commit()?;
        Ok((id, true))
    }

    /// A tournament on paper: `pairings` (the round's tables with a score sheet each) or
    /// `standings`, as PDF, in `lang` (`en` or `fr`).
    pub fn tournament_paper(&self, id: i64, which: &str, lang: &str) -> Result<Vec<u8>, Error> {
        use crate::tournament::paper::{pairings_pdf, standings_pdf, Lang};
        let lang = match lang {
            "fr" => Lang::Fr,
            _ => Lang::En,
        };
        let t = self.tournament_state(id)?.2;
        match which {
            "pairings" => Ok(pairings_pdf(&t, lang)),
            "standings" => Ok(standings_pdf(&t, lang)),
            other => Err(Error::bad_action(format!("no paper named {other:?}"))),
        }
    }

    /// Each entrant's rating change over the tournament so far: from its creation to now (a
    /// team's is its members' mean; `None` for an entrant with no rated match then).
    pub fn tournament_rating_changes(&self, id: i64) -> Result<Vec<Option<f64>>, Error> {
        let (_, _, t) = self.tournament_state(id)?;
        let created: i64 = self.conn.query_row(
            "SELECT created_at FROM tournament WHERE id = ?1",
            [id],
            |r| r.get(0),
        )?;
        self.rating_changes_for_names(t.game(), &t.field().entrants, created, now_ms() + 1)
    }

    /// The standings of a tournament as CSV.
    pub fn tournament_standings_csv(&self, id: i64) -> Result<String, Error> {
        Ok(self.tournament_state(id)?.2.standings_csv())
    }

    /// Imports a file: a tournament export (it has a `tournament`) or match records.
    pub fn import_any(&mut self, text: &str) -> Result<super::ImportReport, Error> {
        // A large file is read twice only when it may hold a tournament (a big one's export,
        // its matches with it, goes over a record's size; read as a list of matches, its
        // tournament would be dropped).
        if text.len() <= crate::record::MAX_RECORD_BYTES || text.contains("\"tournament\"") {
            if let Ok(value) = serde_json::from_str::<Value>(text) {
                // (A match brought back carries its table's `tournament` too: it has a game.)
                if value.get("tournament").is_some() && value.get("game").is_none() {
                    let (_, new) = self.import_tournament_new(&value)?;
                    return Ok(super::ImportReport {
                        imported: usize::from(new),
                        already_present: usize::from(!new),
                    });
                }
            }
        }
        self.import(text)
    }

    /// Deletes a tournament and its events; its matches stay in the history.
    pub fn delete_tournament(&mut self, id: i64) -> Result<(), Error> {
        let n = self
            .conn
            .execute("DELETE FROM tournament WHERE id = ?1", [id])?;
        if n == 0 {
            return Err(Error::not_found(format!("no tournament {id}")));
        }
        // Its matches stay, unlinked: one kept in memory no longer says its table.
        self.forget_live();
        Ok(())
    }
}
