//! Export, import, backup and restore. Exports are match records (`docs/records.md` §1) carrying
//! stable id and timestamps, so that importing the same match twice does not duplicate it.

use super::{migrations, now_ms, update_match, write_figures, Store, MATCH_REVISION};
use crate::error::Error;
use crate::merge::{check_table_setup, take_action_times, Link, PushedMatch};
use crate::record::{Record, FORMAT};
use crate::time::{iso, parse_iso};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use serde::Serialize;
use serde_json::{json, Value};
use std::path::Path;

/// The largest file `import` reads (a whole history of a big club fits well below it).
pub const MAX_IMPORT_BYTES: usize = 256 * 1024 * 1024;

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    /// Matches added.
    pub imported: usize,
    /// Matches skipped because their id was already there.
    pub already_present: usize,
}

/// A stable id for a record that carries none: a hash of its setup and actions, so that
/// importing the same file twice still finds it.
fn content_id(record: &Record) -> String {
    let canonical = json!({"game": record.game, "rules": record.rules, "sides": record.sides, "actions": record.actions}).to_string();
    format!("rec-{:016x}", fnv(&canonical))
}

/// FNV-1a of `text`: an id made from content, the same on every device.
pub(super) fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One match of an import, checked: it replays, and its times are read.
struct Incoming {
    uid: String,
    record: Record,
    started_at: i64,
    /// The end as exported, when the record says it.
    finished_at: Option<i64>,
    /// Where it was played and remarks, when the record says them.
    place: Option<String>,
    notes: Option<String>,
    /// Those written on the device that discarded another device's match
    /// ([`Store::discard_match`]): its own, kept apart from the record's.
    local_place: Option<String>,
    local_notes: Option<String>,
    /// The sides the computer played, when the record says them.
    computer: super::Computer,
    ats: Vec<i64>,
    /// The revision as exported, when the record says it.
    revision: Option<i64>,
    /// The names its players had in the history exported, when a rename or a merge made them
    /// other than the record's (`names`, the shape of `sides`).
    names: Option<Vec<Vec<String>>>,
    /// The table it was played for (`tournament`, as a discarded table match carries it:
    /// [`Store::discard_match`]), read as a pushed match, to check it against that table.
    table: Option<(Link, PushedMatch)>,
}

/// An export's `names`: the sides under the names of today, seat for seat. Absent or `null`:
/// the record's own.
fn names_given(
    v: Option<&Value>,
    sides: &[Vec<String>],
) -> Result<Option<Vec<Vec<String>>>, String> {
    let v = match v {
        None | Some(Value::Null) => return Ok(None),
        Some(v) => v,
    };
    let names: Vec<Vec<String>> = serde_json::from_value(v.clone())
        .map_err(|_| "names must be lists of names, as sides are".to_string())?;
    if names.len() != sides.len() || names.iter().zip(sides).any(|(n, s)| n.len() != s.len()) {
        return Err("names must name each seat of sides once".into());
    }
    names
        .iter()
        .map(|side| {
            side.iter()
                .map(|n| super::clean_name(n).map_err(|e| format!("names: {}", e.detail)))
                .collect()
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

fn incoming(k: usize, v: &Value) -> Result<Incoming, Error> {
    let bad = |why: String| Error::bad_record(format!("match {k}: {why}"));
    // The record's own refusal keeps its kind: a file that is not a record is `bad_record`,
    // one whose setup or actions are refused says so (`bad_setup`, `bad_action`, ...). A rule's
    // reason code is dropped, so that the screens show the detail that names the match and
    // not the words of a refused tap; the codes of a file that is no record, or a newer app's,
    // stay: they are said whole in the user's language.
    let this_match =
        |e: Error, why: &str| Error::new(e.kind, format!("match {k}: {why}{}", e.detail));
    let obj = v.as_object().ok_or_else(|| bad("not an object".into()))?;
    let mut record = Record::from_value(v.clone()).map_err(|e| {
        let code = e.code;
        let e = this_match(e, "");
        match code {
            Some(code @ ("not_record" | "newer_format" | "too_large")) => e.with_code(code),
            _ => e,
        }
    })?;
    let time = |key: &str| obj.get(key).and_then(Value::as_str).and_then(parse_iso);
    let text = |key: &str| {
        obj.get(key)
            .and_then(Value::as_str)
            .map(|s| s.chars().take(5000).collect::<String>())
    };
    let started_at = time("started_at").unwrap_or_else(now_ms);
    let ats = take_action_times(&mut record, started_at);
    record
        .replay()
        .map_err(|e| this_match(e, "it does not replay: "))?;
    let uid = match obj.get("id") {
        Some(Value::String(s)) if !s.is_empty() && s.len() <= 100 => s.clone(),
        None | Some(Value::Null) => content_id(&record),
        Some(other) => return Err(bad(format!("id must be a short string, not {other}"))),
    };
    let computer: super::Computer = match obj.get("computer") {
        None | Some(Value::Null) => super::Computer::new(),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| bad(format!("computer: {e}")))?,
    };
    crate::games::check_computer(&record.game, record.sides.len(), &computer)
        .map_err(|e| bad(e.detail))?;
    let revision = crate::merge::revision_given(v).map_err(|e| bad(e.detail))?;
    let names = names_given(obj.get("names"), &record.sides).map_err(bad)?;
    let table = match crate::merge::link_of(v).map_err(|e| bad(e.detail))? {
        Some(link) => Some((link, PushedMatch::read(v).map_err(|e| bad(e.detail))?)),
        None => None,
    };
    Ok(Incoming {
        table,
        names,
        uid,
        computer,
        record,
        started_at,
        finished_at: time("finished_at"),
        place: text("place"),
        notes: text("notes"),
        local_place: text("local_place"),
        local_notes: text("local_notes"),
        ats,
        revision,
    })
}

/// Matches of a file, each checked whole (read, replayed, figures made) before any is written.
pub(super) struct Checked {
    matches: Vec<(Incoming, Vec<crate::stats::PlayerFigures>)>,
}

/// Reads and checks the matches `list` of a file ([`incoming`]): the first refused refuses all.
pub(super) fn checked_matches(list: &[&Value]) -> Result<Checked, Error> {
    let matches = list
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let m = incoming(k, v)?;
            let figures = crate::stats::figures(&m.record, &m.computer)?;
            Ok((m, figures))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(Checked { matches })
}

/// Writes the checked matches new here in `tx` (those whose id is here already are skipped),
/// each written by this device when `writer`.
pub(super) fn write_matches(
    tx: &rusqlite::Transaction,
    checked: &Checked,
    writer: bool,
) -> Result<ImportReport, Error> {
    let mut report = ImportReport {
        imported: 0,
        already_present: 0,
    };
    for (m, figs) in &checked.matches {
        let known: Option<i64> = tx
            .query_row("SELECT id FROM match WHERE uid = ?1", [&m.uid], |r| {
                r.get(0)
            })
            .optional()?;
        if known.is_some() {
            report.already_present += 1;
            continue;
        }
        let state = m.record.replay()?;
        let last = m.ats.last().copied().unwrap_or(m.started_at);
        tx.execute(
            "INSERT INTO match (uid, game, format, rules, started_at, updated_at, status, summary, writer)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'playing', NULL, ?7)",
            params![m.uid, m.record.game, FORMAT, Value::Object(m.record.rules.clone()).to_string(), m.started_at, last, writer],
        )?;
        let id = tx.last_insert_rowid();
        let shown = m.names.as_ref().unwrap_or(&m.record.sides);
        super::seat_players_shown(tx, id, shown, &m.record.sides, &m.computer, last)?;
        for (seq, (action, at)) in m.record.actions.iter().zip(&m.ats).enumerate() {
            tx.execute(
                "INSERT INTO action (match_id, seq, body, at) VALUES (?1, ?2, ?3, ?4)",
                params![id, seq as i64, action.to_string(), at],
            )?;
        }
        update_match(tx, id, &state)?;
        // The end is the record's own (else its last action's time), not the import's.
        let end = m.finished_at.unwrap_or(last);
        tx.execute(
            "UPDATE match SET updated_at = max(?2, ?3),
                              finished_at = CASE WHEN finished_at IS NULL THEN NULL ELSE ?3 END WHERE id = ?1",
            params![id, last, end],
        )?;
        // A match this device writes has no notes of its own apart: its own are the record's.
        let (place, notes, local_place, local_notes) = if writer {
            let place = m.local_place.as_ref().or(m.place.as_ref());
            let notes = m.local_notes.as_ref().or(m.notes.as_ref());
            (place, notes, None, None)
        } else {
            (
                m.place.as_ref(),
                m.notes.as_ref(),
                m.local_place.as_ref(),
                m.local_notes.as_ref(),
            )
        };
        tx.execute(
            "UPDATE match SET place = ?2, notes = ?3, computer = ?4, local_place = ?5, local_notes = ?6
             WHERE id = ?1",
            params![id, place, notes, super::computer_json(&m.computer), local_place, local_notes],
        )?;
        write_figures(tx, id, figs)?;
        if let Some((link, pushed)) = &m.table {
            link_again(tx, id, link, pushed)?;
        }
        // The revision it was exported with (the actions just written counted one each).
        if let Some(revision) = m.revision {
            tx.execute(
                "UPDATE match SET revision_base = ?2 - (SELECT count(*) FROM action WHERE match_id = ?1)
                 WHERE id = ?1",
                params![id, revision],
            )?;
        }
        report.imported += 1;
    }
    Ok(report)
}

/// Links a match brought back to the table it was played for, if that table is still free
/// here and pairs what the match's setup says (as a hub checks a pushed table match); else it
/// stays in the history as it is. A result it entered before stayed in the tournament.
fn link_again(
    tx: &rusqlite::Transaction,
    id: i64,
    link: &Link,
    pushed: &PushedMatch,
) -> Result<(), Error> {
    let Some(tid) = tx
        .query_row(
            "SELECT id FROM tournament WHERE uid = ?1",
            [&link.tournament],
            |r| r.get::<_, i64>(0),
        )
        .optional()?
    else {
        return Ok(());
    };
    let taken: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM tournament_match WHERE tournament_id = ?1 AND round = ?2 AND tab = ?3)",
        params![tid, link.round, link.table],
        |r| r.get(0),
    )?;
    if taken {
        return Ok(());
    }
    let (_, record) = super::tournaments::stored(tx, tid)?;
    let Ok(t) = record.replay() else {
        return Ok(());
    };
    if check_table_setup(&t, pushed, link).is_ok() {
        tx.execute(
            "INSERT OR IGNORE INTO tournament_match (match_id, tournament_id, round, tab) VALUES (?1, ?2, ?3, ?4)",
            params![id, tid, link.round, link.table],
        )?;
    }
    Ok(())
}

impl Store {
    /// One match as an exported record.
    pub fn export_match(&self, id: i64) -> Result<Value, Error> {
        self.match_value(id, false)
    }

    /// Deletes a match and gives it back as a record to bring it back by
    /// ([`Store::import_as`]): its export, with the table it was played for (`tournament`),
    /// so that bringing it back links it to its table again (the delete unlinked it).
    /// Of another device's match, the place and notes are the record's, and those written here
    /// ride apart (`local_place`, `local_notes`), so that the match brought back keeps them as
    /// this device's own and the writer's next revision does not overwrite them.
    pub fn discard_match(&mut self, id: i64) -> Result<Value, Error> {
        let mut record = self.export_match(id)?;
        let (writer, local_place, local_notes): (bool, Option<String>, Option<String>) =
            self.conn().query_row(
                "SELECT writer, local_place, local_notes FROM match WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
        if !writer {
            let (place, notes) = self.record_notes(id)?;
            let obj = record.as_object_mut().expect("a record is an object");
            for (key, value) in [
                ("place", place),
                ("notes", notes),
                ("local_place", local_place),
                ("local_notes", local_notes),
            ] {
                match value {
                    Some(v) => obj.insert(key.into(), json!(v)),
                    None => obj.remove(key),
                };
            }
        }
        if let Some(link) = super::sync::stored_link(&self.conn, id)? {
            record["tournament"] = link.to_value();
        }
        self.delete_match(id)?;
        Ok(record)
    }

    /// One match as an exported record, or, `served`, as a hub serves it: the record alone,
    /// without the names this device gives its players today and with the writer's place and
    /// notes rather than those written here (docs/hub.md).
    pub(crate) fn match_value(&self, id: i64, served: bool) -> Result<Value, Error> {
        let mut record = self.record(id)?;
        // The record as played; the names the history gives its players today ride beside it
        // (`names`) when a rename or a merge changed one, so that an import keeps them.
        let names = std::mem::replace(&mut record.sides, super::played_sides_of(self.conn(), id)?);
        let (uid, started_at, finished_at, revision): (String, i64, Option<i64>, i64) =
            self.conn().query_row(
                &format!("SELECT m.uid, m.started_at, m.finished_at, {MATCH_REVISION} FROM match m WHERE m.id = ?1"),
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )?;
        let ats: Vec<i64> = {
            let mut stmt = self
                .conn()
                .prepare_cached("SELECT at FROM action WHERE match_id = ?1 ORDER BY seq")?;
            let ats = stmt
                .query_map([id], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            ats
        };
        let mut out = serde_json::to_value(&record).map_err(|e| Error::storage(e.to_string()))?;
        let obj = out.as_object_mut().expect("a record is an object");
        for (action, at) in obj["actions"]
            .as_array_mut()
            .expect("actions")
            .iter_mut()
            .zip(ats)
        {
            if let Some(a) = action.as_object_mut() {
                a.insert("at".into(), json!(iso(at)));
            }
        }
        if !served && names != record.sides {
            obj.insert("names".into(), json!(names));
        }
        obj.insert("id".into(), json!(uid));
        obj.insert("revision".into(), json!(revision));
        obj.insert("started_at".into(), json!(iso(started_at)));
        obj.insert("finished_at".into(), json!(finished_at.map(iso)));
        let (place, notes) = if served {
            self.record_notes(id)?
        } else {
            self.notes(id)?
        };
        if let Some(place) = place {
            obj.insert("place".into(), json!(place));
        }
        if let Some(notes) = notes {
            obj.insert("notes".into(), json!(notes));
        }
        let computer = self.computer(id)?;
        if !computer.is_empty() {
            obj.insert("computer".into(), json!(computer));
        }
        Ok(out)
    }

    /// What the app's Export writes for `what`, as the file's name (with `stamp`, the time it
    /// is made) and its text: `all` (every match), `csv` (the history as CSV), a match's id
    /// (its record), `tournament-ID` (a tournament with its matches) or `tournament-ID-csv`
    /// (its standings). Anything else is `not_found`.
    pub fn export_named(&self, what: &str, stamp: &str) -> Result<(String, String), Error> {
        let id_of = |text: &str, of: &str| {
            text.parse::<i64>()
                .map_err(|_| Error::not_found(format!("no {of} {text}")))
        };
        Ok(match what {
            "all" => (
                format!("partie-{stamp}.json"),
                self.export_all()?.to_string(),
            ),
            "csv" => (format!("partie-{stamp}.csv"), self.export_csv()?),
            _ => match what.strip_prefix("tournament-") {
                Some(rest) => match rest.strip_suffix("-csv") {
                    Some(id) => {
                        let id = id_of(id, "tournament")?;
                        (
                            format!("partie-standings-{id}-{stamp}.csv"),
                            self.tournament_standings_csv(id)?,
                        )
                    }
                    None => {
                        let id = id_of(rest, "tournament")?;
                        (
                            format!("partie-tournament-{id}-{stamp}.json"),
                            self.export_tournament(id)?.to_string(),
                        )
                    }
                },
                None => {
                    let id = id_of(what, "match")?;
                    (
                        format!("partie-match-{id}-{stamp}.json"),
                        self.export_match(id)?.to_string(),
                    )
                }
            },
        })
    }

    /// Every match, oldest first, as `{"format": 1, "matches": [records]}`.
    pub fn export_all(&self) -> Result<Value, Error> {
        let ids: Vec<i64> = {
            let mut stmt = self
                .conn()
                .prepare("SELECT id FROM match ORDER BY started_at, id")?;
            let ids = stmt
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            ids
        };
        let matches = ids
            .iter()
            .map(|&id| self.export_match(id))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(json!({"format": FORMAT, "exported_at": iso(now_ms()), "matches": matches}))
    }

    /// A new match from a record (a Morris move list read back, for one), written by this
    /// device: checked whole, then written in one transaction, so that a refusal or a kill on
    /// the way leaves no shortened match (for the sync thread to push).
    pub fn import_record(&mut self, record: &Record) -> Result<super::MatchView, Error> {
        let mut value = serde_json::to_value(record).map_err(|e| Error::storage(e.to_string()))?;
        let uid = crate::time::new_uid();
        if let Some(o) = value.as_object_mut() {
            o.insert("id".into(), json!(uid));
            o.insert("started_at".into(), json!(iso(now_ms())));
        }
        let checked = checked_matches(&[&value])?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        write_matches(&tx, &checked, true)?;
        let id: i64 = tx.query_row("SELECT id FROM match WHERE uid = ?1", [&uid], |r| r.get(0))?;
        tx.commit()?;
        self.view(id)
    }

    /// Imports one record or a whole export. Everything is checked first: a malformed,
    /// oversized or unreplayable file is refused with the reason and changes nothing. Matches
    /// whose id is already here are skipped. A match imported is another device's (docs/hub.md:
    /// it is carried on here once taken over, [`Store::take_over`]).
    pub fn import(&mut self, text: &str) -> Result<ImportReport, Error> {
        self.import_as(text, false)
    }

    /// [`Store::import`], the matches new here written by this device when `writer` (a match
    /// it wrote, discarded and taken back).
    pub fn import_as(&mut self, text: &str, writer: bool) -> Result<ImportReport, Error> {
        if text.len() > MAX_IMPORT_BYTES {
            return Err(Error::bad_record(format!(
                "the file is larger than {} MiB",
                MAX_IMPORT_BYTES >> 20
            ))
            .with_code("too_large"));
        }
        let value: Value = serde_json::from_str(text)
            .map_err(|e| Error::bad_record(format!("not JSON: {e}")).with_code("not_json"))?;
        let list: Vec<&Value> = match &value {
            // A whole-history export has `matches` and no `game`; a record's key it does not
            // know is ignored (records.md §1), `matches` too.
            Value::Object(o) if o.contains_key("matches") && !o.contains_key("game") => {
                crate::record::check_format(o.get("format"), u64::from(FORMAT))?;
                match &o["matches"] {
                    Value::Array(items) => items.iter().collect(),
                    _ => {
                        return Err(Error::bad_record(
                            "an export is {\"format\": 1, \"matches\": [...]}",
                        )
                        .with_code("not_record"))
                    }
                }
            }
            Value::Object(_) => vec![&value],
            _ => return Err(Error::bad_record("not a match record").with_code("not_record")),
        };
        let checked = checked_matches(&list)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let report = write_matches(&tx, &checked, writer)?;
        tx.commit()?;
        Ok(report)
    }

    /// The history as CSV: one row per side of every match, for spreadsheets.
    pub fn export_csv(&self) -> Result<String, Error> {
        use crate::csv::cell;
        let mut out =
            String::from("match,game,started_at,finished_at,status,side,players,score,result\n");
        let mut stmt = self.conn().prepare("SELECT id, uid, game, started_at, finished_at, status, winner FROM match ORDER BY started_at, id")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, Option<i64>>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, Option<i64>>(6)?,
            ))
        })?;
        for row in rows {
            let (id, uid, game, started, finished, status, winner) = row?;
            // A finished match's scores were kept with its figures; one being played is replayed.
            let scores = if status == "playing" {
                self.played(id).map(|s| s.scores()).unwrap_or_default()
            } else {
                self.final_scores(id)?
            };
            for (side, players) in self.sides(id)?.iter().enumerate() {
                let result = match (status.as_str(), winner) {
                    ("playing", _) => "",
                    ("drawn", _) => "drawn",
                    (_, Some(w)) if w == side as i64 => "won",
                    _ => "lost",
                };
                let score = scores.get(side).map(u32::to_string).unwrap_or_default();
                out.push_str(
                    &[
                        cell(&uid),
                        cell(&game),
                        iso(started),
                        finished.map(iso).unwrap_or_default(),
                        cell(&status),
                        side.to_string(),
                        cell(&players.join(" & ")),
                        score,
                        result.to_string(),
                    ]
                    .join(","),
                );
                out.push('\n');
            }
        }
        Ok(out)
    }

    /// Each side's score when a finished match ended, as kept with its players' figures.
    fn final_scores(&self, id: i64) -> Result<Vec<u32>, Error> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT side, score FROM player_stats WHERE match_id = ?1 AND seat = 0 ORDER BY side",
        )?;
        let rows = stmt.query_map([id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Option<u32>>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (side, score) = row?;
            out.resize(side.max(0) as usize, 0);
            out.push(score.unwrap_or(0));
        }
        Ok(out)
    }

    /// A consistent copy of the whole database in a new file, made hidden beside it and given
    /// its name once whole and synced ([`crate::file`]): a backup cut short (the app killed,
    /// the disk full) is never offered for a restore.
    pub fn backup_to(&self, path: &Path) -> Result<(), Error> {
        if path.exists() {
            return Err(Error::storage(format!("{} already exists", path.display()))
                .with_code("file_exists"));
        }
        let part = crate::file::part_of(path);
        // A part left by a backup killed on its way: VACUUM INTO takes no file with content.
        let _ = std::fs::remove_file(&part);
        if let Err(e) = self
            .conn()
            .execute("VACUUM INTO ?1", [part.to_string_lossy()])
        {
            let _ = std::fs::remove_file(&part);
            return Err(e.into());
        }
        crate::file::put_in_place(&part, path)
    }

    /// Removes the working copy of a restore of the database at `path` that did not finish
    /// (`NAME.restoring`: the app was killed in the middle), as large as a history. Only for a
    /// process's first open of the file: a restore under way elsewhere in it would lose its copy.
    pub fn remove_unfinished_restore(path: &Path) {
        Aside(Some(format!("{}.restoring", path.display()))).remove();
    }

    /// Replaces the whole history with a backup. The backup is checked first (a Partie
    /// database, not damaged, not from a newer app, with no triggers or views but the app's),
    /// then a copy is made ready beside the database (`NAME.restoring`, brought up to date,
    /// its figures derived, removed after): only a copy that came through whole replaces the
    /// history, in one step, so on any refusal or failure nothing changes.
    pub fn restore_from(&mut self, path: &Path) -> Result<(), Error> {
        let bad = |why: &str| {
            Error::bad_record(format!("{}: {why}", path.display())).with_code("not_backup")
        };
        if !path.exists() {
            return Err(
                Error::not_found(format!("no file {}", path.display())).with_code("no_file")
            );
        }
        let src = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|_| bad("cannot be opened"))?;
        let ok: String = src
            .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
            .map_err(|_| bad("not a database"))?;
        if ok != "ok" {
            return Err(bad("the file is damaged"));
        }
        migrations::refuse_newer(&src)?;
        let version: i64 = src.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let has_matches: bool = src
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'match'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n == 1)
            .unwrap_or(false);
        if version < 1 || !has_matches {
            return Err(bad("not a Partie history"));
        }
        // A file's triggers and views would run inside this app, on its every throw and
        // read, from the moment it is restored: one that never ends hangs the app for good.
        // Only those the app's own migrations made at the file's version are taken.
        if code_objects(&src)? != code_objects(&schema_at(version)?)? {
            return Err(bad("it holds triggers or views that are not Partie's"));
        }
        // The copy is made ready beside the database, not in memory: a club's history may be
        // larger than a phone's memory. A history kept in memory (tests) is copied in memory.
        let _aside = Aside(
            self.conn
                .path()
                .filter(|p| !p.is_empty())
                .map(|p| format!("{p}.restoring")),
        );
        let mut copy = match &_aside.0 {
            Some(path) => {
                _aside.remove();
                Connection::open(path)?
            }
            None => Connection::open_in_memory()?,
        };
        rusqlite::backup::Backup::new(&src, &mut copy)?.run_to_completion(
            i32::MAX,
            std::time::Duration::ZERO,
            None,
        )?;
        Store::prepare(&mut copy)
            .map_err(|e| bad(&format!("it cannot be brought up to date ({})", e.detail)))?;
        // Sides are small numbers: the figures are gathered into a list per side, so a side
        // number made up in a file would ask for more memory than there is. The players'
        // figures are read as they are (derived again only from an older schema), so theirs
        // are checked too.
        let odd_side: i64 = copy
            .query_row(
                "SELECT (SELECT count(*) FROM match_player WHERE side < 0 OR side > 63)
                      + (SELECT count(*) FROM player_stats WHERE side < 0 OR side > 63)",
                [],
                |r| r.get(0),
            )
            .map_err(|e| bad(&format!("it cannot be read ({e})")))?;
        if odd_side > 0 {
            return Err(bad("a match in it has a side that cannot be"));
        }
        let mut ready = Store::over(copy);
        ready
            .derive_figures_after_upgrade()
            .map_err(|e| bad(&format!("its figures cannot be derived ({})", e.detail)))?;
        // A restored history is not the hub it was copied from: a phone that kept that hub's
        // cursor, or noted what it held, must be told to start again (docs/hub.md, "Pages").
        ready.conn.execute(
            "UPDATE hub_identity SET name = lower(hex(randomblob(8)))",
            [],
        )?;
        // The ratings' watch and cache belong to the database being replaced.
        self.forget_ratings()?;
        rusqlite::backup::Backup::new(&ready.conn, &mut self.conn)?.run_to_completion(
            i32::MAX,
            std::time::Duration::ZERO,
            None,
        )?;
        self.forget_live();
        Ok(())
    }
}

/// A trigger or view: its type, name, table and SQL.
type CodeObject = (String, String, String, Option<String>);

/// The triggers and views of a database, in order: the code a file brings.
fn code_objects(conn: &Connection) -> Result<Vec<CodeObject>, Error> {
    let mut stmt = conn.prepare(
        "SELECT type, name, tbl_name, sql FROM sqlite_master
         WHERE type IN ('trigger', 'view') ORDER BY type, name",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// An empty database brought up to schema `version` by the app's own migrations.
fn schema_at(version: i64) -> Result<Connection, Error> {
    let mut conn = Connection::open_in_memory()?;
    migrations::migrate_to(&mut conn, usize::try_from(version).unwrap_or(0))?;
    Ok(conn)
}

/// A restore's working copy beside the database (`NAME.restoring` and its journal files),
/// removed when the restore ends, whichever way: declared before the connection to it, it is
/// dropped after it, once the file is closed.
struct Aside(Option<String>);

impl Aside {
    fn remove(&self) {
        if let Some(path) = &self.0 {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let _ = std::fs::remove_file(format!("{path}{suffix}"));
            }
        }
    }
}

impl Drop for Aside {
    fn drop(&mut self) {
        self.remove();
    }
}
