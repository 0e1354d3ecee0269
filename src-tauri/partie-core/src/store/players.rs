//! Players: the known names, a name made clean, a player found or created, and the sides seated
//! in a match.

use super::{now_ms, Store};
use crate::error::Error;
use crate::game::Computer;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use serde::Serialize;

/// A known player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Player {
    /// Database id.
    pub id: i64,
    /// The name as typed.
    pub name: String,
    /// When the player last played, in ms since the epoch.
    pub last_played_at: Option<i64>,
    /// Kept out of the pickers (the setup's known players); still in the players' list.
    pub archived: bool,
}

/// A player's row read as `id, name, last_played_at, archived`: the one mapping of it.
pub(crate) fn player_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Player> {
    Ok(Player {
        id: r.get(0)?,
        name: r.get(1)?,
        last_played_at: r.get(2)?,
        archived: r.get(3)?,
    })
}

impl Store {
    /// Known players, most recently played (or added) first; archived players and the
    /// computer's seats (migration 17) are left out.
    pub fn players(&self) -> Result<Vec<Player>, Error> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, name, last_played_at, archived FROM player WHERE archived = 0 AND machine = 0
             ORDER BY COALESCE(last_played_at, created_at) DESC, id DESC",
        )?;
        let rows = stmt.query_map([], player_row)?;
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
            "SELECT id, name, last_played_at, archived FROM player WHERE id = ?1",
            [id],
            player_row,
        )?;
        tx.commit()?;
        Ok(player)
    }
}

/// A name as kept: trimmed, in Unicode's composed form (an "é" typed as e and its accent is
/// the same name as one typed as é), at most 60 characters.
pub(crate) fn clean_name(name: &str) -> Result<String, Error> {
    use unicode_normalization::UnicodeNormalization;
    let name: String = name.trim().nfc().collect();
    let name = name.as_str();
    if name.is_empty() {
        return Err(Error::bad_setup("a player needs a name").with_code("empty_name"));
    }
    if name.chars().count() > 60 {
        return Err(Error::bad_setup("a name is at most 60 characters").with_code("long_name"));
    }
    Ok(name.to_string())
}

/// A name as searched: trimmed, lower case, without accents (Unicode's decomposition, less
/// its combining marks), as `knownMatching` in `ui/js/dom.js` folds it.
pub(crate) fn folded(name: &str) -> String {
    use unicode_normalization::char::is_combining_mark;
    use unicode_normalization::UnicodeNormalization;
    name.trim()
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .collect::<String>()
        .to_lowercase()
}

/// The (unarchived) person a new match would seat under `name` (never the computer's player,
/// migration 17): the one of exactly that name,
/// else the oldest whose name is the same but for case, in every alphabet ("élodie" is Élodie,
/// as the screens match names). Exactly first: a database from before may hold both spellings
/// as two players, and each keeps its own. SQLite's NOCASE folds only A to Z, so the names are
/// compared here, one pass over the players (a device holds hundreds; a hub's database more,
/// still a scan of names per seat pushed).
pub(crate) fn player_named(conn: &Connection, name: &str) -> Result<Option<i64>, Error> {
    use unicode_normalization::UnicodeNormalization;
    let name: String = name.trim().nfc().collect();
    // The spelling chosen from the known players: found without reading them all.
    let exact = conn
        .prepare_cached(
            "SELECT id FROM player WHERE name = ?1 AND archived = 0 AND machine = 0
             ORDER BY id LIMIT 1",
        )?
        .query_row([&name], |r| r.get(0))
        .optional()?;
    if exact.is_some() {
        return Ok(exact);
    }
    let wanted = name.to_lowercase();
    let mut stmt = conn.prepare_cached(
        "SELECT id, name FROM player WHERE archived = 0 AND machine = 0 ORDER BY id",
    )?;
    let mut rows = stmt.query([])?;
    let mut by_case = None;
    while let Some(row) = rows.next()? {
        let known: String = row.get::<_, String>(1)?.nfc().collect();
        if known == name {
            return Ok(Some(row.get(0)?));
        }
        if by_case.is_none() && known.to_lowercase() == wanted {
            by_case = Some(row.get(0)?);
        }
    }
    Ok(by_case)
}

/// The person of `name` ([`player_named`]), else a new one.
pub(crate) fn find_or_create_player(tx: &rusqlite::Transaction, name: &str) -> Result<i64, Error> {
    match player_named(tx, name)? {
        Some(id) => Ok(id),
        None => new_player(tx, name, false),
    }
}

/// A new player of `name`: a person, or the computer's seat (`machine`, migration 17).
fn new_player(tx: &rusqlite::Transaction, name: &str, machine: bool) -> Result<i64, Error> {
    tx.execute(
        "INSERT INTO player (name, created_at, machine) VALUES (?1, ?2, ?3)",
        params![name, now_ms(), machine],
    )?;
    Ok(tx.last_insert_rowid())
}

/// The player the computer is seated as under `name` (migration 17): the one it was seated as
/// before under that name, archived or not, else a new one. A person of the same name stays
/// apart: the computer's results are not theirs.
pub(crate) fn machine_player(tx: &rusqlite::Transaction, name: &str) -> Result<i64, Error> {
    let known = tx
        .prepare_cached(
            "SELECT id FROM player WHERE machine = 1 AND name = ?1 ORDER BY id LIMIT 1",
        )?
        .query_row([name], |r| r.get(0))
        .optional()?;
    match known {
        Some(id) => Ok(id),
        None => new_player(tx, name, true),
    }
}

/// Whether player `id` is one the computer was seated as (migration 17).
pub(crate) fn is_machine(conn: &Connection, id: i64) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT machine FROM player WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?
        .unwrap_or(false))
}

/// A match's sides, each its players' names of today in seat order (what the history shows).
pub(crate) fn sides_of(conn: &Connection, id: i64) -> Result<Vec<Vec<String>>, Error> {
    sides_by(conn, id, "name")
}

/// A match's sides under the names it was played with: its record's setup, as exported and
/// synced (migration 12), whatever the players were renamed or merged into since.
pub(crate) fn played_sides_of(conn: &Connection, id: i64) -> Result<Vec<Vec<String>>, Error> {
    sides_by(conn, id, "COALESCE(played_as, name)")
}

fn sides_by(conn: &Connection, id: i64, name: &str) -> Result<Vec<Vec<String>>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT side, {name} FROM match_player WHERE match_id = ?1 ORDER BY side, seat"
    ))?;
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

/// Seats the sides' players in a match (new names become players; the sides of `computer` are
/// the computer's [`machine_player`]) and marks them as having played at `at` (never moving a
/// later date back: imports may be older).
pub(crate) fn seat_players(
    tx: &rusqlite::Transaction,
    id: i64,
    sides: &[Vec<String>],
    computer: &Computer,
    at: i64,
) -> Result<(), Error> {
    for (side, players) in sides.iter().enumerate() {
        for (seat, name) in players.iter().enumerate() {
            let pid = if computer.contains_key(&side) {
                machine_player(tx, name.trim())?
            } else {
                find_or_create_player(tx, name.trim())?
            };
            seat_player(tx, id, (side, seat), pid, name, at)?;
        }
    }
    Ok(())
}

/// Seats the sides' players of a record made elsewhere (pulled from a hub, imported): as
/// [`seat_players`], except that a name is looked for as [`player_from_elsewhere`] does, so
/// that a rename on this device holds when the other devices' matches come in under the old
/// name. Such a seat shows the player's name of today and keeps the record's (`played_as`).
pub(crate) fn seat_players_from_elsewhere(
    tx: &rusqlite::Transaction,
    id: i64,
    sides: &[Vec<String>],
    computer: &Computer,
    at: i64,
) -> Result<(), Error> {
    seat_players_shown(tx, id, sides, sides, computer, at)
}

/// Seats a record's `played` sides under the names `shown` (the same shape; an export's
/// `names`), each found as [`player_from_elsewhere`] does, the sides of `computer` as the
/// computer's [`machine_player`]; a seat whose name shown is not the one played keeps the
/// played one (`played_as`).
pub(crate) fn seat_players_shown(
    tx: &rusqlite::Transaction,
    id: i64,
    shown: &[Vec<String>],
    played: &[Vec<String>],
    computer: &Computer,
    at: i64,
) -> Result<(), Error> {
    for (side, (shown, played)) in shown.iter().zip(played).enumerate() {
        for (seat, (name, as_played)) in shown.iter().zip(played).enumerate() {
            let (pid, today) = if computer.contains_key(&side) {
                (machine_player(tx, name.trim())?, None)
            } else {
                player_from_elsewhere(tx, name)?
            };
            let today = today.unwrap_or_else(|| name.trim().to_string());
            let as_played = as_played.trim();
            seat_player_as(tx, id, (side, seat), pid, &today, as_played, at)?;
            if today != as_played {
                // The name played is one this player had (an export's `names`): it stays
                // theirs for what comes later under it, as after a rename here.
                tx.execute(
                    "INSERT OR IGNORE INTO player_alias (name, player_id) VALUES (?1, ?2)",
                    params![as_played, pid],
                )?;
            }
        }
    }
    Ok(())
}

/// The player a name in a record made elsewhere is: the player of that name, as
/// [`player_named`] finds one; else the one player (not archived) who had that name before
/// a rename or a merge (`player_alias`, compared as names are), with their name of today;
/// else a new player of that name.
pub(crate) fn player_from_elsewhere(
    tx: &rusqlite::Transaction,
    name: &str,
) -> Result<(i64, Option<String>), Error> {
    if let Some(id) = player_named(tx, name)? {
        return Ok((id, None));
    }
    if let Some((id, today)) = renamed_from(tx, name)? {
        return Ok((id, Some(today)));
    }
    Ok((find_or_create_player(tx, name.trim())?, None))
}

/// The one player (not archived) once called `name` (exactly, else but for case), with their
/// name of today; none when no player or several were.
fn renamed_from(conn: &Connection, name: &str) -> Result<Option<(i64, String)>, Error> {
    use unicode_normalization::UnicodeNormalization;
    let name: String = name.trim().nfc().collect();
    let wanted = name.to_lowercase();
    let mut stmt = conn.prepare_cached(
        "SELECT a.name, p.id, p.name FROM player_alias a JOIN player p ON p.id = a.player_id
         WHERE p.archived = 0 AND p.machine = 0",
    )?;
    let (mut exact, mut by_case) = (Vec::new(), Vec::new());
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
        ))
    })?;
    for row in rows {
        let (alias, id, today) = row?;
        let alias: String = alias.nfc().collect();
        if alias == name {
            exact.push((id, today));
        } else if alias.to_lowercase() == wanted {
            by_case.push((id, today));
        }
    }
    let one = |mut found: Vec<(i64, String)>| {
        found.sort();
        found.dedup_by_key(|f| f.0);
        (found.len() == 1).then(|| found.remove(0))
    };
    Ok(if exact.is_empty() {
        one(by_case)
    } else {
        one(exact)
    })
}

/// Seats player `pid` at `(side, seat)` of a match as [`seat_player`] does, shown under
/// `today`, and keeps the name the record has there (`played_as`, migration 12) when it is
/// another.
pub(crate) fn seat_player_as(
    tx: &rusqlite::Transaction,
    id: i64,
    (side, seat): (usize, usize),
    pid: i64,
    today: &str,
    played: &str,
    at: i64,
) -> Result<(), Error> {
    seat_player(tx, id, (side, seat), pid, today, at)?;
    if today != played {
        tx.execute(
            "UPDATE match_player SET played_as = ?4 WHERE match_id = ?1 AND side = ?2 AND seat = ?3",
            params![id, side as i64, seat as i64, played],
        )?;
    }
    Ok(())
}

/// Seats player `pid` under `name` at `(side, seat)` of a match, and marks them as having
/// played at `at`.
pub(crate) fn seat_player(
    tx: &rusqlite::Transaction,
    id: i64,
    (side, seat): (usize, usize),
    pid: i64,
    name: &str,
    at: i64,
) -> Result<(), Error> {
    tx.execute(
        "INSERT INTO match_player (match_id, side, seat, player_id, name) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, side as i64, seat as i64, pid, name],
    )?;
    tx.execute(
        "UPDATE player SET last_played_at = max(COALESCE(last_played_at, 0), ?2) WHERE id = ?1",
        params![pid, at],
    )?;
    Ok(())
}
