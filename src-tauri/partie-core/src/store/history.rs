//! The memory of a club: the history with its filters, players (search, rename, merge,
//! archive) and their statistics.

use super::{
    clean_name, mark_counts, match_list_row, player_named, player_row, write_figures,
    MatchListItem, Player, Store, COUNTS_MATCH, LIST_COLUMNS,
};
use crate::error::Error;
use rusqlite::{params, OptionalExtension, TransactionBehavior};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What the history shows: every key narrows it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HistoryFilter {
    /// Only this game.
    pub game: Option<String>,
    /// Only matches this player played.
    pub player: Option<i64>,
    /// Started at or after (ms since the epoch).
    pub from: Option<i64>,
    /// Started before (ms since the epoch).
    pub to: Option<i64>,
    /// Only `playing` (unfinished) or only `over` matches.
    pub status: Option<String>,
    /// The page after this match (its start and id), newest first.
    pub after: Option<(i64, i64)>,
    /// Page size (default 30, at most 200).
    pub limit: Option<i64>,
}

/// A player's statistics in one game.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlayerStats {
    /// The player.
    pub player: i64,
    /// The game.
    pub game: String,
    /// Finished matches played.
    pub matches: u64,
    /// Matches won.
    pub wins: u64,
    /// Matches lost.
    pub losses: u64,
    /// Matches drawn.
    pub draws: u64,
    /// Wins over matches (0 when none).
    pub win_rate: f64,
    /// The latest results, newest first (`won`, `lost`, `drawn`), at most 10.
    pub form: Vec<String>,
    /// The game's counters summed over the matches.
    pub totals: Map<String, Value>,
    /// Rates derived from the totals (points per throw, miss rate, ...).
    pub rates: Map<String, Value>,
}

impl HistoryFilter {
    /// Reads a filter from JSON; an unknown key or a bad value is `bad_setup`.
    pub fn from_json(v: &Value) -> Result<Self, Error> {
        serde_json::from_value(v.clone())
            .map_err(|e| Error::bad_setup(format!("history filter: {e}")).with_code("bad_filter"))
    }
}

/// The SET clause that keeps, in `match_player`, the name a seat was played under (migration
/// 12) when the history gives it the name `now` (a parameter) from here on: what a rename and
/// a merge write. Renamed back, the seat is as played again. (SQLite reads every right-hand
/// side from the row as it was, so `name` is the old one.)
fn keep_played_as(now: &str) -> String {
    format!(
        "played_as = CASE WHEN COALESCE(played_as, name) = {now} THEN NULL ELSE COALESCE(played_as, name) END"
    )
}

impl Store {
    /// Matches newest first, narrowed by the filter, one page at a time.
    pub fn history(&self, f: &HistoryFilter) -> Result<Vec<MatchListItem>, Error> {
        let limit = f.limit.unwrap_or(30).clamp(1, 200);
        let status = match f.status.as_deref() {
            None => None,
            Some("playing") => Some(true),
            Some("over") => Some(false),
            Some(other) => {
                return Err(Error::bad_setup(format!(
                    "status is playing or over, not {other:?}"
                )))
            }
        };
        let (after_start, after_id) = f.after.unwrap_or((i64::MAX, i64::MAX));
        let sql = format!(
            "SELECT {LIST_COLUMNS}
             FROM match m
             WHERE (?1 IS NULL OR m.game = ?1)
               AND (?2 IS NULL OR m.id IN (SELECT match_id FROM match_player WHERE player_id = ?2))
               AND (?3 IS NULL OR m.started_at >= ?3)
               AND (?4 IS NULL OR m.started_at < ?4)
               AND (?5 IS NULL OR (m.status = 'playing') = ?5)
               AND (m.started_at < ?6 OR (m.started_at = ?6 AND m.id < ?7))
             ORDER BY m.started_at DESC, m.id DESC LIMIT ?8"
        );
        let mut stmt = self.conn().prepare_cached(&sql)?;
        let rows = stmt.query_map(
            params![
                f.game,
                f.player,
                f.from,
                f.to,
                status,
                after_start,
                after_id,
                limit
            ],
            match_list_row,
        )?;
        self.with_sides(rows.collect::<Result<_, _>>()?)
    }

    /// Players whose name contains `query`, whatever the case and the accents ("zo" finds
    /// Zoé, as the new game's list of known players narrows), archived ones too when asked;
    /// most recently played first.
    pub fn search_players(
        &self,
        query: &str,
        include_archived: bool,
    ) -> Result<Vec<Player>, Error> {
        let wanted = super::players::folded(query);
        let mut stmt = self.conn().prepare_cached(
            "SELECT id, name, last_played_at, archived FROM player
             WHERE (?1 OR archived = 0) AND machine = 0
             ORDER BY COALESCE(last_played_at, created_at) DESC, id DESC",
        )?;
        let rows = stmt.query_map(params![include_archived], player_row)?;
        let mut out = Vec::new();
        for p in rows {
            let p = p?;
            if super::players::folded(&p.name).contains(&wanted) {
                out.push(p);
            }
        }
        Ok(out)
    }

    fn player(&self, id: i64) -> Result<Player, Error> {
        self.conn()
            .query_row(
                "SELECT id, name, last_played_at, archived FROM player WHERE id = ?1",
                [id],
                player_row,
            )
            .optional()?
            .ok_or_else(|| Error::not_found(format!("no player {id}")).with_code("no_player"))
    }

    /// Renames a player everywhere the history shows them, past matches included. The matches'
    /// records keep the names they were played with (migration 12): a hub holds them so.
    pub fn rename_player(&mut self, id: i64, name: &str) -> Result<Player, Error> {
        let name = clean_name(name)?;
        let before = self.player(id)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        // The old name stays theirs for records made elsewhere (migration 15).
        tx.execute(
            "INSERT OR IGNORE INTO player_alias (name, player_id) VALUES (?1, ?2)",
            params![before.name, id],
        )?;
        tx.execute(
            "DELETE FROM player_alias WHERE player_id = ?1 AND name = ?2",
            params![id, name],
        )?;
        tx.execute(
            "UPDATE player SET name = ?2 WHERE id = ?1",
            params![id, name],
        )?;
        tx.execute(
            &format!(
                "UPDATE match_player SET {}, name = ?2 WHERE player_id = ?1",
                keep_played_as("?2")
            ),
            params![id, name],
        )?;
        tx.commit()?;
        self.forget_live();
        self.player(id)
    }

    /// Merges `gone` into `kept` (the same person under two names): their histories join and
    /// `gone` disappears.
    pub fn merge_players(&mut self, kept: i64, gone: i64) -> Result<Player, Error> {
        if kept == gone {
            return Err(
                Error::illegal("a player cannot be merged with themselves").with_code("merge_self")
            );
        }
        let keep = self.player(kept)?;
        let goes = self.player(gone)?;
        // The computer is nobody's other name: a person's results are not its, nor its theirs.
        if super::players::is_machine(self.conn(), kept)?
            || super::players::is_machine(self.conn(), gone)?
        {
            return Err(
                Error::illegal("the computer cannot be merged with a player")
                    .with_code("merge_machine"),
            );
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        // The merged-away name, and those it had, are the kept player's (migration 15).
        tx.execute(
            "INSERT OR IGNORE INTO player_alias (name, player_id)
             SELECT name, ?1 FROM player_alias WHERE player_id = ?2
             UNION SELECT ?3, ?1",
            params![kept, gone, goes.name],
        )?;
        tx.execute(
            "DELETE FROM player_alias WHERE player_id = ?1 AND name = ?2",
            params![kept, keep.name],
        )?;
        tx.execute(
            &format!(
                "UPDATE match_player SET player_id = ?1, {}, name = ?3 WHERE player_id = ?2",
                keep_played_as("?3")
            ),
            params![kept, gone, keep.name],
        )?;
        tx.execute(
            "UPDATE player_stats SET player_id = ?1 WHERE player_id = ?2",
            params![kept, gone],
        )?;
        // Two who played each other are now one player on two sides of those matches.
        mark_counts(
            &tx,
            "match_id IN (SELECT match_id FROM player_stats WHERE player_id = ?1)",
            kept,
        )?;
        // Their tournaments too (the entrants keep the names they were entered under).
        tx.execute(
            "UPDATE tournament_entrant SET player_id = ?1 WHERE player_id = ?2",
            params![kept, gone],
        )?;
        tx.execute(
            // max() skips a NULL: two who never played still have not.
            "UPDATE player SET last_played_at = (SELECT max(last_played_at) FROM player WHERE id IN (?1, ?2)) WHERE id = ?1",
            params![kept, gone],
        )?;
        tx.execute("DELETE FROM player WHERE id = ?1", [gone])?;
        tx.commit()?;
        self.forget_live();
        self.player(kept)
    }

    /// Archives (or brings back) a player: archived players leave the pickers, not the history.
    pub fn archive_player(&mut self, id: i64, archived: bool) -> Result<(), Error> {
        self.player(id)?;
        self.conn.execute(
            "UPDATE player SET archived = ?2 WHERE id = ?1",
            params![id, archived],
        )?;
        Ok(())
    }

    /// Puts right the spelling of a player a new game's setup has just made (`was` its name
    /// there): renamed to `name`, or, where `name` is another known player's (case aside, as
    /// [`player_named`] finds one), archived, that player taking its place. The player given
    /// back is the one the setup seats now. Refused (`not_put_right`) for a player no longer as
    /// the setup made it: renamed, archived or played since; a name only a setup just typed
    /// has no history a new spelling would touch.
    pub fn put_right_player(&mut self, id: i64, was: &str, name: &str) -> Result<Player, Error> {
        let me = self.player(id)?;
        if me.name != was || me.archived || me.last_played_at.is_some() {
            return Err(
                Error::illegal(format!("player {id} is not {was:?} as a setup made them"))
                    .with_code("not_put_right"),
            );
        }
        let name = clean_name(name)?;
        match player_named(self.conn(), &name)? {
            Some(other) if other != id => {
                self.archive_player(id, true)?;
                self.player(other)
            }
            _ => self.rename_player(id, &name),
        }
    }

    /// A player's statistics in one game, from the figures kept per finished match.
    pub fn player_stats(&self, player: i64, game: &str) -> Result<PlayerStats, Error> {
        self.player(player)?;
        // As the ratings take them (docs/ratings.md, `counts` in migration 18): a match in
        // which the player sits on two sides says nothing, one in which they hold two seats of
        // a side counts once, with both seats' figures.
        let mut stmt = self.conn().prepare_cached(
            // (`+counts`: read from the row, so that the player's index is the one searched.)
            "SELECT result, stats, counts FROM player_stats
             WHERE player_id = ?1 AND game = ?2 AND +counts > 0
             ORDER BY finished_at DESC, match_id DESC",
        )?;
        let mut out = PlayerStats {
            player,
            game: game.to_string(),
            matches: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            win_rate: 0.0,
            form: Vec::new(),
            totals: Map::new(),
            rates: Map::new(),
        };
        let rows = stmt.query_map(params![player, game], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        for row in rows {
            let (result, stats, counts) = row?;
            if counts == COUNTS_MATCH {
                out.matches += 1;
                match result.as_str() {
                    "won" => out.wins += 1,
                    "drawn" => out.draws += 1,
                    _ => out.losses += 1,
                }
                if out.form.len() < 10 {
                    out.form.push(result);
                }
            }
            if let Ok(Value::Object(c)) = serde_json::from_str::<Value>(&stats) {
                for (k, v) in c {
                    let sum = out.totals.get(&k).and_then(Value::as_u64).unwrap_or(0)
                        + v.as_u64().unwrap_or(0);
                    out.totals.insert(k, sum.into());
                }
            }
        }
        if out.matches > 0 {
            out.win_rate = (out.wins as f64 / out.matches as f64 * 1000.0).round() / 1000.0;
        }
        out.rates = crate::games::rates(game, &out.totals);
        Ok(out)
    }

    /// Finished matches of `game` where `a` and `b` played on different sides: (wins of a,
    /// wins of b, draws).
    pub fn head_to_head(&self, a: i64, b: i64, game: &str) -> Result<(u64, u64, u64), Error> {
        self.player(a)?;
        self.player(b)?;
        // A match in which either sits on two sides says nothing of them (`counts` 0), as in
        // their statistics and ratings.
        let mut stmt = self.conn().prepare_cached(
            "SELECT sa.result FROM player_stats sa JOIN player_stats sb
               ON sa.match_id = sb.match_id AND sa.side != sb.side
             WHERE sa.player_id = ?1 AND sb.player_id = ?2 AND sa.game = ?3
               AND sa.counts > 0 AND sb.counts > 0
             GROUP BY sa.match_id",
        )?;
        let mut out = (0, 0, 0);
        for r in stmt.query_map(params![a, b, game], |r| r.get::<_, String>(0))? {
            match r?.as_str() {
                "won" => out.0 += 1,
                "drawn" => out.2 += 1,
                _ => out.1 += 1,
            }
        }
        Ok(out)
    }

    /// A player's latest finished matches of a game, oldest first (for charts): when each
    /// ended, its result and the player's figures in it.
    pub fn player_series(&self, player: i64, game: &str, limit: i64) -> Result<Vec<Value>, Error> {
        self.player(player)?;
        // Every row that counts figures, a match's rows together: a player in two seats of a
        // side has both seats' figures in the match's point, as in their statistics.
        let mut stmt = self.conn().prepare_cached(
            "SELECT match_id, finished_at, result, stats FROM player_stats
             WHERE player_id = ?1 AND game = ?2 AND +counts > 0
             ORDER BY finished_at DESC, match_id DESC",
        )?;
        let mut rows = stmt.query(params![player, game])?;
        let limit = limit.clamp(1, 200) as usize;
        let mut out: Vec<Value> = Vec::new();
        let mut last = None;
        while let Some(r) = rows.next()? {
            let (id, at, result, stats) = (
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            );
            let Ok(Value::Object(seat)) = serde_json::from_str::<Value>(&stats) else {
                continue;
            };
            if last != Some(id) {
                if out.len() == limit {
                    break;
                }
                last = Some(id);
                out.push(serde_json::json!({"finished_at": at, "result": result, "counters": {}}));
            }
            let counters = out.last_mut().expect("pushed")["counters"]
                .as_object_mut()
                .expect("an object");
            for (k, v) in seat {
                let sum =
                    counters.get(&k).and_then(Value::as_u64).unwrap_or(0) + v.as_u64().unwrap_or(0);
                counters.insert(k, sum.into());
            }
        }
        out.reverse();
        Ok(out)
    }

    /// Players of a game by wins, then win rate, then matches: (player, name, matches, wins).
    pub fn leaderboard(
        &self,
        game: &str,
        limit: i64,
    ) -> Result<Vec<(i64, String, u64, u64)>, Error> {
        // A match counted once a player, as the ratings take it (`counts`, migration 18).
        // Counted in the index alone, grouped as it runs (player by player), then named.
        let mut stmt = self.conn().prepare_cached(
            "SELECT p.id, p.name, s.n, s.w
             FROM (SELECT player_id, count(*) AS n, sum(result = 'won') AS w FROM player_stats
                   WHERE game = ?1 AND counts = 2 GROUP BY player_id) s
             JOIN player p ON p.id = s.player_id
             WHERE p.archived = 0 AND p.machine = 0
             ORDER BY s.w DESC, CAST(s.w AS REAL) / s.n DESC, s.n DESC, p.id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![game, limit], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get::<_, i64>(2)? as u64,
                r.get::<_, i64>(3)? as u64,
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Sets where a match was played and remarks on it (empty text clears them). On the
    /// device that plays the match they reach the hub with its next push; on another they stay
    /// on the device.
    pub fn set_notes(&mut self, id: i64, place: &str, notes: &str) -> Result<(), Error> {
        let (place, notes) = (place.trim(), notes.trim());
        if place.chars().count() > 200 || notes.chars().count() > 5000 {
            return Err(
                Error::bad_setup("a place is at most 200 characters, notes at most 5000")
                    .with_code("notes_too_long"),
            );
        }
        let blank = |s: &str| (!s.is_empty()).then(|| s.to_string());
        // A change by the match's writer is the record's, one more revision pushed to the hub
        // like an action (migration 13); another device's is its own (migration 16).
        let n = self.conn.execute(
            "UPDATE match SET
                place = CASE WHEN writer THEN ?2 ELSE place END,
                notes = CASE WHEN writer THEN ?3 ELSE notes END,
                local_place = CASE WHEN writer THEN local_place ELSE ?2 END,
                local_notes = CASE WHEN writer THEN local_notes ELSE ?3 END,
                revision_base = revision_base + (writer AND (place IS NOT ?2 OR notes IS NOT ?3))
             WHERE id = ?1",
            params![id, blank(place), blank(notes)],
        )?;
        if n == 0 {
            return Err(Error::not_found(format!("no match {id}")).with_code("no_match"));
        }
        // The live match keeps its view's fixed parts, notes among them.
        self.forget_live();
        Ok(())
    }

    /// A match's place and notes.
    /// (Those written on this device first, when it does not write the match: migration 16.)
    pub fn notes(&self, id: i64) -> Result<(Option<String>, Option<String>), Error> {
        self.notes_from(
            id,
            "COALESCE(local_place, place), COALESCE(local_notes, notes)",
        )
    }

    /// A match's place and notes as its record has them: the writer's, what sync serves.
    pub(crate) fn record_notes(&self, id: i64) -> Result<(Option<String>, Option<String>), Error> {
        self.notes_from(id, "place, notes")
    }

    fn notes_from(
        &self,
        id: i64,
        columns: &str,
    ) -> Result<(Option<String>, Option<String>), Error> {
        self.conn()
            .query_row(
                &format!("SELECT {columns} FROM match WHERE id = ?1"),
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .ok_or_else(|| Error::not_found(format!("no match {id}")).with_code("no_match"))
    }

    /// Derives again the player figures of every finished match (after an upgrade or an import).
    pub fn rebuild_stats(&mut self) -> Result<usize, Error> {
        self.rebuild_stats_of("1")
    }

    /// Derives again the figures of the finished matches whose sides (`match_player mp`,
    /// grouped by match) meet `having`.
    pub(crate) fn rebuild_stats_of(&mut self, having: &str) -> Result<usize, Error> {
        let ids: Vec<i64> = {
            let mut stmt = self.conn().prepare(&format!(
                "SELECT m.id FROM match m JOIN match_player mp ON mp.match_id = m.id
                 WHERE m.status != 'playing' GROUP BY m.id HAVING {having}"
            ))?;
            let ids = stmt
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            ids
        };
        let mut all = Vec::with_capacity(ids.len());
        for &id in &ids {
            // A match that no longer replays (a file from an app whose rules took it) keeps no
            // figures, rather than stop the rest: this runs as the app opens an upgraded file,
            // and one such match would keep the whole history from opening.
            match crate::stats::figures(&self.record(id)?, &self.computer(id)?) {
                Ok(figures) => all.push((id, figures)),
                Err(e) if e.kind == crate::error::ErrorKind::Storage => return Err(e),
                Err(_) => continue,
            }
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        for (id, figures) in &all {
            write_figures(&tx, *id, figures)?;
        }
        tx.commit()?;
        Ok(all.len())
    }
}
