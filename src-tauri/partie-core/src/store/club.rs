//! A device joined to a club hub (`docs/hub.md`, "In the app"): the hub it joined and
//! its token, what it has to push, what the hub already holds, and the tournaments the hub runs.
//!
//! The network is not here: the app's sync thread asks this module what to send and tells it
//! what the hub answered. Everything it writes is committed before it returns, so a device
//! killed between a push and its answer pushes again, and the hub answers `already`.

use super::sync::{MergeReport, Outbox, RecordKind, Source};
use super::{now_ms, Store, MATCH_REVISION};
use crate::error::Error;
use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

/// The longest club token taken.
pub const MAX_TOKEN_CHARS: usize = 200;

/// This build's version, kept with a record it refused from a hub's page
/// ([`Store::club_refused_again`]).
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The kind noted for a record the hub failed on alone (a 5xx) while it took the others: its
/// trouble with that record, not a refusal. Such a record is listed with the refused, still
/// counted as waiting ([`Store::club_waiting`]), and pushed again at every round
/// ([`Store::club_held`]) until the hub takes it or refuses it for what it is.
pub const HELD: &str = "hub_failing";

/// The hub a device joined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClubJoin {
    /// The hub's address, `http://HOST:PORT`.
    pub hub: String,
    /// The club token, sent on every request.
    #[serde(skip_serializing)]
    pub token: String,
    /// When the device joined (ms since the epoch).
    pub joined_at: i64,
}

/// Reads a hub's address as a person types it (`192.168.1.5:7878`, `http://host:7878/`) and
/// gives its one written form, `http://HOST:PORT`; `bad_setup` when it is not one.
pub fn hub_address(text: &str) -> Result<String, Error> {
    let bad = || {
        Error::bad_setup(format!(
            "{text:?} is not a hub's address (like 192.168.1.5:7878)"
        ))
        .with_code("bad_hub_address")
    };
    let text = text.trim();
    let rest = text
        .strip_prefix("http://")
        .unwrap_or(text)
        .trim_end_matches('/');
    let (host, port) = rest.rsplit_once(':').ok_or_else(bad)?;
    let port: u16 = port.parse().map_err(|_| bad())?;
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
    if !host_ok || port == 0 {
        return Err(bad());
    }
    Ok(format!("http://{host}:{port}"))
}

/// `text` for a link's query: every byte but RFC 3986's unreserved ones (letters, digits,
/// `-._~`) as `%XX`, so that a club token holding `&`, `#`, `+` or `%` comes through whole.
pub fn query_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A link's query value read back: `%XX` as its byte, everything else as it is (a `+` is a
/// `+`: a token is no form's field); `None` for a broken escape or bytes that are not UTF-8.
pub fn query_unescaped(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            if !hex.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            out.push(u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Whether a phone can join with `token` (trimmed): printable ASCII, no space, at most
/// [`MAX_TOKEN_CHARS`]. A hub takes any token; the app's own hub is started with one only if
/// the phones can take it from its QR code.
pub fn joinable_token(token: &str) -> bool {
    !token.is_empty()
        && token.chars().count() <= MAX_TOKEN_CHARS
        && token.chars().all(|c| c.is_ascii_graphic())
}

/// Reads what a phone is given to join: the join link of the club-night screen's QR code
/// (`partie://join?hub=ADDRESS&token=TOKEN`), or an address and a token typed apart.
pub fn read_join(link_or_address: &str, token: Option<&str>) -> Result<(String, String), Error> {
    let text = link_or_address.trim();
    let (address, token) = match text.strip_prefix("partie://join?") {
        Some(query) => {
            let mut hub = None;
            let mut tok = None;
            for pair in query.split('&') {
                // A value that is not a good escape is taken as written (a link of before).
                let value = |v: &str| query_unescaped(v).unwrap_or_else(|| v.to_string());
                match pair.split_once('=') {
                    Some(("hub", v)) => hub = Some(value(v)),
                    Some(("token", v)) => tok = Some(value(v)),
                    _ => {}
                }
            }
            match (hub, tok) {
                (Some(h), Some(t)) => (h, t),
                _ => {
                    return Err(Error::bad_setup("the join link names no hub or no token")
                        .with_code("bad_join_link"))
                }
            }
        }
        None => (text.to_string(), token.unwrap_or("").to_string()),
    };
    let token = token.trim().to_string();
    if !joinable_token(&token) {
        return Err(Error::bad_setup(
            "the club token is missing or not a token (letters and digits)",
        )
        .with_code("bad_club_token"));
    }
    Ok((hub_address(&address)?, token))
}

impl Store {
    /// Joins the hub at `hub` (from [`hub_address`]) with its token; a device joins one hub at
    /// a time, so this replaces any other.
    pub fn join_club(&mut self, hub: &str, token: &str) -> Result<ClubJoin, Error> {
        let hub = hub_address(hub)?;
        let (_, token) = read_join(&hub, Some(token))?;
        let joined_at = now_ms();
        self.conn.execute(
            "INSERT OR REPLACE INTO club_join (id, hub, token, joined_at) VALUES (1, ?1, ?2, ?3)",
            params![hub, token, joined_at],
        )?;
        Ok(ClubJoin {
            hub,
            token,
            joined_at,
        })
    }

    /// The hub this device joined, if any.
    pub fn joined_club(&self) -> Result<Option<ClubJoin>, Error> {
        Ok(self
            .conn
            .query_row(
                "SELECT hub, token, joined_at FROM club_join WHERE id = 1",
                [],
                |r| {
                    Ok(ClubJoin {
                        hub: r.get(0)?,
                        token: r.get(1)?,
                        joined_at: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    /// Leaves the hub: nothing more is pushed or pulled. What was pulled stays on the device.
    pub fn leave_club(&mut self) -> Result<(), Error> {
        self.conn.execute("DELETE FROM club_join", [])?;
        Ok(())
    }

    /// What to push to `hub`: [`Store::sync_outbox`] without the matches the hub already holds
    /// at their current revision (those pulled from it, or answered before).
    pub fn club_outbox(&self, hub: &str, limit: usize) -> Result<Outbox, Error> {
        self.at_one_moment(|s, handed| s.outbox_upto(hub, limit, handed, true))
    }

    /// Notes that the held matches `uids` were pushed again and failed again: they go after
    /// the others at the next try, so that every held match comes round.
    pub fn club_held_tried(&mut self, hub: &str, uids: &[String]) -> Result<(), Error> {
        let at = now_ms();
        for uid in uids {
            self.conn.execute(
                "UPDATE club_refused SET at = ?3 WHERE hub = ?1 AND uid = ?2 AND by = 'hub' AND kind = ?4",
                params![hub, uid, at, HELD],
            )?;
        }
        Ok(())
    }

    /// How many of this device's matches wait to be pushed to `hub`, those it failed on
    /// alone ([`HELD`]) included.
    pub fn club_waiting(&self, hub: &str) -> Result<usize, Error> {
        let n: i64 = self.conn.query_row(
            &format!(
                "SELECT count(*) FROM (
                   SELECT m.uid FROM sync_change c JOIN match m ON m.uid = c.uid
                   LEFT JOIN club_seen s ON s.hub = ?1 AND s.uid = m.uid
                   WHERE c.kind = 'match'
                     AND c.seq > coalesce((SELECT pushed FROM sync_peer WHERE hub = ?1), 0)
                     AND (s.revision IS NULL OR s.revision <> {MATCH_REVISION})
                   UNION
                   SELECT m.uid FROM club_refused r JOIN match m ON m.uid = r.uid
                   WHERE r.hub = ?1 AND r.by = 'hub' AND r.kind = ?2)"
            ),
            params![hub, HELD],
            |r| r.get(0),
        )?;
        Ok(n as usize)
    }

    /// The matches `hub` failed on alone ([`HELD`]), as they are now, tried longest ago first
    /// ([`Store::club_held_tried`]), at most `limit`: to push again, one at a time, so that
    /// the hub's trouble with one of them never holds back the others.
    pub fn club_held(&self, hub: &str, limit: usize) -> Result<Vec<Value>, Error> {
        let uids = self
            .conn
            .prepare_cached(
                "SELECT r.uid FROM club_refused r JOIN match m ON m.uid = r.uid
                 WHERE r.hub = ?1 AND r.by = 'hub' AND r.kind = ?2
                 ORDER BY r.at, r.rowid LIMIT ?3",
            )?
            .query_map(
                params![hub, HELD, limit.min(i64::MAX as usize) as i64],
                |r| r.get::<_, String>(0),
            )?
            .collect::<Result<Vec<_>, _>>()?;
        uids.iter()
            .map(|uid| self.sync_record(RecordKind::Match, uid))
            .collect()
    }

    /// Notes the hub's answer to a push of `outbox`: it holds every record it did not refuse.
    /// `refused` is the answer's list (`{id, kind, detail}`): kept to be listed
    /// ([`Store::club_refusals`]) until the record is taken at a later push.
    pub fn club_pushed(
        &mut self,
        hub: &str,
        outbox: &Outbox,
        refused: &[Value],
    ) -> Result<(), Error> {
        // Only refusals of records this push sent are the hub's answer to it: any other
        // (a hub gone wrong) names nothing of this device's, and is not kept.
        let sent: HashSet<&str> = outbox
            .records
            .iter()
            .filter_map(|r| r.get("id").and_then(Value::as_str))
            .collect();
        let refused: Vec<Value> = refused
            .iter()
            .filter(|x| refusal_id(x).is_some_and(|id| sent.contains(id)))
            .cloned()
            .collect();
        let refused_ids: HashSet<&str> = refused.iter().filter_map(refusal_id).collect();
        let tx = self.conn.transaction()?;
        note_refusals(&tx, hub, "hub", &refused)?;
        for r in &outbox.records {
            let id = r.get("id").and_then(Value::as_str).unwrap_or_default();
            if refused_ids.contains(id) {
                continue;
            }
            let revision = r.get("revision").and_then(Value::as_i64).unwrap_or(0);
            tx.execute(
                "INSERT OR REPLACE INTO club_seen (hub, uid, revision) VALUES (?1, ?2, ?3)",
                params![hub, id, revision],
            )?;
            tx.execute(
                "DELETE FROM club_refused WHERE hub = ?1 AND uid = ?2 AND by = 'hub'",
                params![hub, id],
            )?;
        }
        tx.execute(
            "INSERT INTO sync_peer (hub, pushed) VALUES (?1, ?2)
             ON CONFLICT (hub) DO UPDATE SET pushed = max(pushed, excluded.pushed)",
            params![hub, outbox.upto],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Forgets what `hub` was said to hold (its cursor, the matches it answered for, how far
    /// the outbox went), so that everything is pulled and pushed again: for a hub that refused
    /// this device's cursor as not its own, another database at the same address (a new data
    /// folder, another computer) or this one restored from an older copy. What it holds
    /// already it answers `already`. The tournaments pulled from it with the club token this
    /// device is joined with wait to be given back ([`Store::club_restoring`]): the new
    /// database may not have them, and a table's match is refused by a hub that does not know
    /// its tournament. Another club's hub at the same address (another token) gets none.
    pub fn club_forget(&mut self, hub: &str) -> Result<(), Error> {
        let tx = self.conn.transaction()?;
        // Only what was pulled with the token this device is joined with: the same club.
        tx.execute(
            "INSERT OR IGNORE INTO club_restore (hub, uid)
             SELECT ?1, uid FROM tournament
             WHERE hub = ?1 AND hub_token = (SELECT token FROM club_join WHERE id = 1 AND hub = ?1)",
            [hub],
        )?;
        tx.execute("DELETE FROM club_seen WHERE hub = ?1", [hub])?;
        // What this device refused from the other database is not tried again with this one,
        // which sends its own records from the start.
        tx.execute(
            "DELETE FROM club_refused WHERE hub = ?1 AND by = 'device'",
            [hub],
        )?;
        tx.execute(
            // No cursor, not one made up: a page asked without one starts from the start
            // (docs/hub.md), and a hub need not take a cursor it never gave.
            "INSERT INTO sync_peer (hub, pushed, pulled) VALUES (?1, 0, NULL)
             ON CONFLICT (hub) DO UPDATE SET pushed = 0, pulled = NULL",
            [hub],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The tournaments pulled from `hub` that wait to be given back to it since it turned out
    /// to be another database ([`Store::club_forget`]), as sync serves them, at most `limit`.
    /// Those it still has leave the list when pulled from it again ([`Store::club_pulled`]),
    /// so that the hub's copy is never replaced by this device's; the others are pushed
    /// before the outbox, so that their tables' matches find them.
    pub fn club_restoring(&self, hub: &str, limit: usize) -> Result<Vec<Value>, Error> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT r.uid FROM club_restore r JOIN tournament t ON t.uid = r.uid
             WHERE r.hub = ?1 ORDER BY t.id LIMIT ?2",
        )?;
        let uids = stmt
            .query_map(params![hub, limit.min(i64::MAX as usize) as i64], |r| {
                r.get::<_, String>(0)
            })?
            .collect::<Result<Vec<_>, _>>()?;
        uids.iter()
            .map(|uid| self.sync_record(RecordKind::Tournament, uid))
            .collect()
    }

    /// Notes that `hub` answered for these tournaments given back (taken, held already or
    /// refused: a copy it holds is as good as this one), and those this device no longer has.
    /// `refused`: those it refused whole (`{id, kind, detail}`), kept to be listed
    /// ([`Store::club_refusals`]): they are not given back again.
    pub fn club_restored(
        &mut self,
        hub: &str,
        uids: &[String],
        refused: &[Value],
    ) -> Result<(), Error> {
        let tx = self.conn.transaction()?;
        note_refusals(&tx, hub, "hub", refused)?;
        for uid in uids {
            tx.execute(
                "DELETE FROM club_restore WHERE hub = ?1 AND uid = ?2",
                params![hub, uid],
            )?;
        }
        tx.execute(
            "DELETE FROM club_restore WHERE hub = ?1 AND uid NOT IN (SELECT uid FROM tournament)",
            [hub],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Merges a page pulled from `hub`, then notes what the hub holds, marks the tournaments it
    /// runs and keeps the page's cursor. A device killed in between pulls the page again, which
    /// changes nothing the second time.
    pub fn club_pulled(
        &mut self,
        hub: &str,
        records: &[Value],
        cursor: &str,
    ) -> Result<MergeReport, Error> {
        self.pulled_under(hub, records, Some(cursor))
    }

    /// [`Store::club_pulled`], the cursor kept as it is given (`None`: none yet).
    fn pulled_under(
        &mut self,
        hub: &str,
        records: &[Value],
        cursor: Option<&str>,
    ) -> Result<MergeReport, Error> {
        let report = self.merge_records(records, Source::Hub)?;
        let tx = self.conn.transaction()?;
        // What this device refused is listed; the cursor moves past it, so nothing else would
        // say it. A copy of it this device holds is not taken as the hub's.
        // The record is kept with them, for a later version to take ([`Store::club_refused_again`]).
        let by_id: HashMap<&str, &Value> = records
            .iter()
            .filter_map(|x| Some((x.get("id")?.as_str()?, x)))
            .collect();
        let refused: Vec<Value> = report
            .refused
            .iter()
            .map(|r| {
                let record =
                    r.id.as_deref()
                        .and_then(|id| by_id.get(id))
                        .map(|x| x.to_string());
                json!({"id": r.id, "kind": r.kind, "detail": r.detail, "record": record})
            })
            .collect();
        note_refusals(&tx, hub, "device", &refused)?;
        let refused_ids: HashSet<&str> = report
            .refused
            .iter()
            .filter_map(|x| x.id.as_deref())
            .collect();
        for r in records {
            let Some(id) = r.get("id").and_then(Value::as_str) else {
                continue;
            };
            if refused_ids.contains(id) {
                continue;
            }
            tx.execute(
                "DELETE FROM club_refused WHERE hub = ?1 AND uid = ?2 AND by = 'device'",
                params![hub, id],
            )?;
            let revision = r.get("revision").and_then(Value::as_i64).unwrap_or(0);
            if r.get("game").is_some() {
                tx.execute(
                    "INSERT OR REPLACE INTO club_seen (hub, uid, revision) VALUES (?1, ?2, ?3)",
                    params![hub, id, revision],
                )?;
            } else {
                tx.execute(
                    "UPDATE tournament SET hub = ?1,
                        hub_token = (SELECT token FROM club_join WHERE id = 1 AND hub = ?1)
                     WHERE uid = ?2",
                    params![hub, id],
                )?;
                // The hub has it: nothing to give back, and a refusal of it given back is over
                // (a tournament is never pushed again, so no push would clear it).
                tx.execute(
                    "DELETE FROM club_restore WHERE hub = ?1 AND uid = ?2",
                    params![hub, id],
                )?;
                tx.execute(
                    "DELETE FROM club_refused WHERE hub = ?1 AND uid = ?2 AND by = 'hub'",
                    params![hub, id],
                )?;
            }
        }
        tx.execute(
            "INSERT INTO sync_peer (hub, pulled) VALUES (?1, ?2)
             ON CONFLICT (hub) DO UPDATE SET pulled = excluded.pulled",
            params![hub, cursor],
        )?;
        tx.commit()?;
        Ok(report)
    }

    /// After an update of the app (`app`, this build's [`APP_VERSION`] in the app): the records
    /// an older version refused from `hub`'s pages are merged again, as pulled, and leave the
    /// list if taken now (a game or a rule it did not know). Those refused before their record
    /// was kept (schema 19) are pulled again: the cursor goes back to the start, once. Records
    /// refused by this version are not tried again. Returns how many were tried.
    pub fn club_refused_again(&mut self, hub: &str, app: &str) -> Result<usize, Error> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT uid, record FROM club_refused WHERE hub = ?1 AND by = 'device' AND app <> ?2",
        )?;
        let rows = stmt
            .query_map(params![hub, app], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        drop(stmt);
        if rows.is_empty() {
            return Ok(0);
        }
        let kept: Vec<Value> = rows
            .iter()
            .filter_map(|(_, r)| r.as_deref().and_then(|r| serde_json::from_str(r).ok()))
            .collect();
        let unkept = rows.len() - kept.len();
        let cursor = self.sync_pulled(hub)?;
        if !kept.is_empty() {
            // Merged as a page is, with the cursor where it is.
            self.pulled_under(hub, &kept, cursor.as_deref())?;
        }
        let tx = self.conn.transaction()?;
        // Tried by this version: not again until the next one (those refused again were noted
        // anew with it).
        tx.execute(
            "UPDATE club_refused SET app = ?2 WHERE hub = ?1 AND by = 'device'",
            params![hub, app],
        )?;
        if unkept > 0 {
            // Listed again with their record if the hub still sends them and this version
            // still refuses them; else they are gone, and no later version pulls for them.
            tx.execute(
                "DELETE FROM club_refused WHERE hub = ?1 AND by = 'device' AND record IS NULL",
                [hub],
            )?;
            tx.execute("UPDATE sync_peer SET pulled = NULL WHERE hub = ?1", [hub])?;
        }
        tx.commit()?;
        Ok(rows.len())
    }

    /// The records refused between this device and `hub`, latest first, at most `limit`:
    /// `{id, by, kind, detail, at, record, game, names}`, `by` being `hub` (it refused this
    /// device's record) or `device` (this device refused one of its pages' records); `record`
    /// (`match` or `tournament`), `game` and `names` (a match's sides, `A & B · C & D`) are there when
    /// the record is on this device, for the screen to name it.
    pub fn club_refusals(&self, hub: &str, limit: usize) -> Result<Vec<Value>, Error> {
        let mut stmt = self.conn.prepare_cached(
            // What the hub refused of this device's own records is listed while the record is
            // here: a match deleted since is nothing to act on (it stayed listed for ever).
            // With what the screen names a record by (its game, its players; a tournament's
            // game) where it is on this device: an id means nothing to a person.
            "SELECT r.uid, r.by, r.kind, r.detail, r.at,
                    CASE WHEN m.id IS NOT NULL THEN 'match'
                         WHEN t.id IS NOT NULL THEN 'tournament' END,
                    coalesce(m.game, json_extract(t.setup, '$.game')),
                    (SELECT group_concat(team, ' · ') FROM
                       (SELECT group_concat(name, ' & ') AS team FROM
                          (SELECT side, name FROM match_player WHERE match_id = m.id
                            ORDER BY side, seat)
                        GROUP BY side ORDER BY side))
               FROM club_refused r
               LEFT JOIN match m ON m.uid = r.uid
               LEFT JOIN tournament t ON t.uid = r.uid
              WHERE r.hub = ?1 AND (r.by = 'device' OR m.id IS NOT NULL OR t.id IS NOT NULL)
              ORDER BY r.at DESC, r.rowid DESC LIMIT ?2",
        )?;
        let rows = stmt
            .query_map(params![hub, limit.min(i64::MAX as usize) as i64], |r| {
                Ok(json!({
                    "id": r.get::<_, String>(0)?,
                    "by": r.get::<_, String>(1)?,
                    "kind": r.get::<_, String>(2)?,
                    "detail": r.get::<_, String>(3)?,
                    "at": r.get::<_, i64>(4)?,
                    "record": r.get::<_, Option<String>>(5)?,
                    "game": r.get::<_, Option<String>>(6)?,
                    "names": r.get::<_, Option<String>>(7)?,
                }))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// The hub that runs a tournament pulled from it (`None`: this device runs it).
    pub fn tournament_hub(&self, id: i64) -> Result<Option<String>, Error> {
        self.conn
            .query_row("SELECT hub FROM tournament WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or_else(|| Error::not_found(format!("no tournament {id}")))
    }

    /// Refuses to change a tournament that a hub runs: its organiser pairs and enters there.
    pub(super) fn refuse_hub_tournament(&self, id: i64) -> Result<(), Error> {
        match self.tournament_hub(id)? {
            None => Ok(()),
            Some(hub) => Err(Error::illegal(format!(
                "the club hub at {hub} runs this tournament: its organiser pairs the rounds and enters results there"
            ))
            .with_code("run_by_hub")),
        }
    }
}

/// A refusal's record id, as the answer gives it.
fn refusal_id(refusal: &Value) -> Option<&str> {
    refusal.get("id").and_then(Value::as_str)
}

/// Keeps `refused` (`{id, kind, detail}`, by `by`) to be listed; one refusal a record and a
/// side, the latest. A refusal without an id names nothing to list.
fn note_refusals(
    tx: &rusqlite::Transaction<'_>,
    hub: &str,
    by: &str,
    refused: &[Value],
) -> Result<(), Error> {
    let at = now_ms();
    for r in refused {
        let Some(id) = refusal_id(r) else { continue };
        // Kept as short as a list line needs: the words come from the kind, the detail is
        // the other side's, of any length it chose.
        let text = |key: &str, most: usize| {
            r.get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .chars()
                .take(most)
                .collect::<String>()
        };
        let record = r.get("record").and_then(Value::as_str);
        // The same refusal again (a record tried again after an update) keeps its time and its
        // place in the list; another one is the latest.
        tx.execute(
            "INSERT INTO club_refused (hub, uid, by, kind, detail, at, record, app)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT (hub, uid, by) DO UPDATE SET record = excluded.record,
                 app = excluded.app, kind = excluded.kind, detail = excluded.detail,
                 at = CASE WHEN club_refused.kind = excluded.kind
                            AND club_refused.detail = excluded.detail
                      THEN club_refused.at ELSE excluded.at END",
            params![
                hub,
                id,
                by,
                text("kind", 40),
                text("detail", 500),
                at,
                record,
                APP_VERSION
            ],
        )?;
    }
    Ok(())
}
