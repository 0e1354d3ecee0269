//! Ratings from the history (issue 19): the finished matches of a game read in date order and
//! rated by [`crate::ratings`], with a cache that is thrown away whole, never patched, as soon
//! as anything it was computed from may have changed.
//!
//! The cache's stamp is a counter that temporary triggers of this connection raise on every
//! change to the per-match figures, `player_stats`, the only table of the history the ratings
//! read besides the matches' fixed uid and summary: a finished match, an undo, a delete (by
//! its cascade), a merge, an import and a rebuild all write it. With it goes SQLite's
//! `data_version`, which moves when another connection commits. A restore drops the cache.

use super::Store;
use crate::error::Error;
use crate::ratings::{places_from_results, PlayerRating, RatedMatch, Rating, RatingPoint, Ratings};
use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// How many (game, season) tables the cache keeps at once.
const CACHED_TABLES: usize = 8;

/// The temporary watch on the tables the ratings are computed from (this connection only).
const WATCH: &str = "
    CREATE TEMP TABLE IF NOT EXISTS ratings_epoch (n INTEGER NOT NULL);
    INSERT INTO temp.ratings_epoch SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM temp.ratings_epoch);
    CREATE TEMP TRIGGER IF NOT EXISTS ratings_watch_insert AFTER INSERT ON main.player_stats
    BEGIN UPDATE temp.ratings_epoch SET n = n + 1; END;
    CREATE TEMP TRIGGER IF NOT EXISTS ratings_watch_update AFTER UPDATE ON main.player_stats
    BEGIN UPDATE temp.ratings_epoch SET n = n + 1; END;
    CREATE TEMP TRIGGER IF NOT EXISTS ratings_watch_delete AFTER DELETE ON main.player_stats
    BEGIN UPDATE temp.ratings_epoch SET n = n + 1; END;";

const UNWATCH: &str = "
    DROP TRIGGER IF EXISTS temp.ratings_watch_insert;
    DROP TRIGGER IF EXISTS temp.ratings_watch_update;
    DROP TRIGGER IF EXISTS temp.ratings_watch_delete;";

type Season = (String, Option<i64>, Option<i64>);

/// The ratings computed since the history last changed, per game and season.
#[derive(Debug, Default)]
pub(crate) struct RatingsCache {
    inner: RefCell<Option<Cached>>,
}

#[derive(Debug)]
struct Cached {
    stamp: (i64, i64),
    tables: Vec<(Season, Arc<Ratings>)>,
}

/// A line of the rating leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingRow {
    /// 1 for the first line.
    pub rank: usize,
    /// The player's name.
    pub name: String,
    /// The rating, its range, match count and provisional flag.
    #[serde(flatten)]
    pub rating: PlayerRating,
}

/// The expected result of a match between two players, before it is played.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExpectedResult {
    /// The two players.
    pub players: [i64; 2],
    /// Their ratings (the starting one for a player without a rated match).
    pub ratings: [Rating; 2],
    /// Whether each has a rated match in the game.
    pub rated: [bool; 2],
    /// Each one's probability of winning, a draw counting half (they add up to 1).
    pub expected: [f64; 2],
}

impl Store {
    /// Forgets what the store keeps in memory beside the database (the match kept replayed,
    /// the ratings): after a command that stopped half-way (a fault caught by the caller), the
    /// next one reads what the database holds, which its transaction left whole.
    pub fn forget_memory(&mut self) {
        self.ratings.inner.replace(None);
        self.forget_live();
    }

    /// Drops the cached ratings (after the database was replaced under the connection).
    pub(crate) fn forget_ratings(&mut self) -> Result<(), Error> {
        self.ratings.inner.replace(None);
        self.conn().execute_batch(UNWATCH)?;
        Ok(())
    }

    /// What the cache was computed from: this connection's count of changes to the rated
    /// tables, and SQLite's count of other connections' commits.
    fn ratings_stamp(&self) -> Result<(i64, i64), Error> {
        self.conn().execute_batch(WATCH)?;
        let epoch: i64 = self
            .conn()
            .query_row("SELECT n FROM temp.ratings_epoch", [], |r| r.get(0))?;
        let version: i64 = self
            .conn()
            .query_row("PRAGMA data_version", [], |r| r.get(0))?;
        Ok((epoch, version))
    }

    /// The finished matches of a game that the ratings count, those that finished in
    /// `[from, to)` when given (ms since the epoch), in no particular order. Matches the
    /// computer played are left out.
    pub fn rated_matches(
        &self,
        game: &str,
        from: Option<i64>,
        to: Option<i64>,
    ) -> Result<Vec<RatedMatch>, Error> {
        // Each side's place was kept with its players' figures when the match ended.
        let mut stmt = self.conn().prepare_cached(
            "SELECT s.match_id, m.uid, s.finished_at, s.side, s.seat, s.player_id, s.result, s.place
             FROM player_stats s JOIN match m ON m.id = s.match_id
             WHERE s.game = ?1 AND m.computer IS NULL
               AND (?2 IS NULL OR s.finished_at >= ?2) AND (?3 IS NULL OR s.finished_at < ?3)",
        )?;
        struct Row {
            id: i64,
            uid: String,
            at: i64,
            side: usize,
            seat: i64,
            player: i64,
            result: String,
            place: Option<u32>,
        }
        let mut rows: Vec<Row> = stmt
            .query_map(params![game, from, to], |r| {
                Ok(Row {
                    id: r.get(0)?,
                    uid: r.get(1)?,
                    at: r.get(2)?,
                    side: r.get::<_, i64>(3)? as usize,
                    seat: r.get(4)?,
                    player: r.get(5)?,
                    result: r.get(6)?,
                    place: r.get(7)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        rows.sort_unstable_by_key(|r| (r.id, r.side, r.seat));
        let mut out = Vec::new();
        for group in rows.chunk_by(|a, b| a.id == b.id) {
            let first = &group[0];
            let n = group.iter().map(|r| r.side + 1).max().unwrap_or(0);
            let mut sides: Vec<Vec<i64>> = vec![Vec::new(); n];
            let mut results: Vec<&str> = vec!["lost"; n];
            let mut kept: Vec<Option<u32>> = vec![None; n];
            for r in group {
                sides[r.side].push(r.player);
                results[r.side] = &r.result;
                kept[r.side] = r.place;
            }
            let places = kept
                .into_iter()
                .collect::<Option<Vec<u32>>>()
                .unwrap_or_else(|| places_from_results(&results));
            out.push(RatedMatch {
                uid: first.uid.clone(),
                finished_at: first.at,
                sides,
                places,
            });
        }
        Ok(out)
    }

    /// The ratings of a game computed afresh from the history, from the matches that finished
    /// in `[from, to)` when given (a season); no cache.
    pub fn compute_ratings(
        &self,
        game: &str,
        from: Option<i64>,
        to: Option<i64>,
    ) -> Result<Ratings, Error> {
        Ok(Ratings::compute(self.rated_matches(game, from, to)?))
    }

    /// The ratings of a game (over `[from, to)` when given), computed once and kept until the
    /// history changes.
    pub fn ratings(
        &self,
        game: &str,
        from: Option<i64>,
        to: Option<i64>,
    ) -> Result<Arc<Ratings>, Error> {
        let stamp = self.ratings_stamp()?;
        let key: Season = (game.to_string(), from, to);
        {
            let mut cache = self.ratings.inner.borrow_mut();
            if cache.as_ref().is_some_and(|c| c.stamp != stamp) {
                *cache = None;
            }
            if let Some(found) = cache
                .as_ref()
                .and_then(|c| c.tables.iter().find(|(k, _)| *k == key))
            {
                return Ok(found.1.clone());
            }
        }
        let computed = Arc::new(self.compute_ratings(game, from, to)?);
        // Stamped with what was read before computing: a change in between is seen next time.
        let mut cache = self.ratings.inner.borrow_mut();
        let c = cache.get_or_insert_with(|| Cached {
            stamp,
            tables: Vec::new(),
        });
        if c.tables.len() >= CACHED_TABLES {
            c.tables.remove(0);
        }
        c.tables.push((key, computed.clone()));
        Ok(computed)
    }

    /// The players of a game ranked by rating (established players first, then provisional
    /// ones; archived players left out), over the matches that finished in `[from, to)` when
    /// given; at most `limit` lines.
    pub fn rating_leaderboard(
        &self,
        game: &str,
        from: Option<i64>,
        to: Option<i64>,
        limit: usize,
    ) -> Result<Vec<RatingRow>, Error> {
        let ratings = self.ratings(game, from, to)?;
        let mut stmt = self
            .conn()
            .prepare_cached("SELECT id, name FROM player WHERE archived = 0 AND machine = 0")?;
        let names: HashMap<i64, String> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        Ok(ratings
            .table()
            .into_iter()
            .filter_map(|rating| {
                let name = names.get(&rating.player)?.clone();
                Some((name, rating))
            })
            .take(limit)
            .enumerate()
            .map(|(i, (name, rating))| RatingRow {
                rank: i + 1,
                name,
                rating,
            })
            .collect())
    }

    /// A player's rating after each of their rated matches of a game, oldest first (for a
    /// chart), over `[from, to)` when given.
    pub fn rating_history(
        &self,
        player: i64,
        game: &str,
        from: Option<i64>,
        to: Option<i64>,
    ) -> Result<Vec<RatingPoint>, Error> {
        self.known_player(player)?;
        Ok(self.ratings(game, from, to)?.history(player).to_vec())
    }

    /// A player's rating in a game (over `[from, to)` when given), `None` before their first
    /// rated match.
    pub fn player_rating(
        &self,
        player: i64,
        game: &str,
        from: Option<i64>,
        to: Option<i64>,
    ) -> Result<Option<PlayerRating>, Error> {
        self.known_player(player)?;
        Ok(self.ratings(game, from, to)?.player(player))
    }

    /// The expected result of `a` against `b` in a game, from their current ratings.
    pub fn expected_result(&self, game: &str, a: i64, b: i64) -> Result<ExpectedResult, Error> {
        self.known_player(a)?;
        self.known_player(b)?;
        let ratings = self.ratings(game, None, None)?;
        let (ra, rb) = (ratings.rating_or_start(a), ratings.rating_or_start(b));
        let p = ra.expected_against(&rb);
        Ok(ExpectedResult {
            players: [a, b],
            ratings: [ra, rb],
            rated: [ratings.rating(a).is_some(), ratings.rating(b).is_some()],
            expected: [p, 1.0 - p],
        })
    }

    /// The current ratings of entrants given by their players' names (a tournament's
    /// registration): a team's is the mean of its members' (a member who has not played the
    /// game counting with the starting rating); `None` for an entrant none of whose players
    /// has a rated match. See [`crate::ratings::seed_order`] for the order to seed them in.
    pub fn ratings_for_names(
        &self,
        game: &str,
        entrants: &[Vec<String>],
    ) -> Result<Vec<Option<Rating>>, Error> {
        let ratings = self.ratings(game, None, None)?;
        entrants
            .iter()
            .map(|names| {
                let mut members = Vec::with_capacity(names.len());
                let mut any = false;
                for name in names {
                    let found = self.player_named(name)?.and_then(|p| ratings.rating(p));
                    any |= found.is_some();
                    members.push(found.unwrap_or(Rating::START));
                }
                Ok(if any { Rating::mean(&members) } else { None })
            })
            .collect()
    }

    /// What each entrant's rating gained (or lost) from the matches of a game that finished
    /// in `[from, to)` (a tournament's night): the mean over its players who have a rated
    /// match by `to`, `None` when none has.
    pub fn rating_changes_for_names(
        &self,
        game: &str,
        entrants: &[Vec<String>],
        from: i64,
        to: i64,
    ) -> Result<Vec<Option<f64>>, Error> {
        let ratings = self.ratings(game, None, None)?;
        entrants
            .iter()
            .map(|names| {
                let mut changes = Vec::with_capacity(names.len());
                for name in names {
                    if let Some(c) = self
                        .player_named(name)?
                        .and_then(|p| ratings.change(p, from, to))
                    {
                        changes.push(c);
                    }
                }
                Ok((!changes.is_empty())
                    .then(|| changes.iter().sum::<f64>() / changes.len() as f64))
            })
            .collect()
    }

    /// The games that have finished matches with figures, in name order.
    pub fn rated_games(&self) -> Result<Vec<String>, Error> {
        let mut stmt = self
            .conn()
            .prepare_cached("SELECT DISTINCT game FROM player_stats ORDER BY game")?;
        let games = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(games)
    }

    /// The (unarchived) player a new match would seat under this name, if any.
    fn player_named(&self, name: &str) -> Result<Option<i64>, Error> {
        super::players::player_named(self.conn(), name)
    }

    fn known_player(&self, id: i64) -> Result<(), Error> {
        let found: Option<i64> = self
            .conn()
            .query_row("SELECT id FROM player WHERE id = ?1", [id], |r| r.get(0))
            .optional()?;
        found
            .map(|_| ())
            .ok_or_else(|| Error::not_found(format!("no player {id}")).with_code("no_player"))
    }
}

/// One decimal is plenty for people reading a table.
fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Store {
    fn games_or(&self, game: Option<&str>) -> Result<Vec<String>, Error> {
        Ok(match game {
            Some(g) => vec![g.to_string()],
            None => self.rated_games()?,
        })
    }

    /// The rating tables of one game or of every game (over `[from, to)` when given) as
    /// JSON: `{"from", "to", "games": {GAME: [line...]}}`, each line a [`RatingRow`].
    pub fn ratings_report(
        &self,
        game: Option<&str>,
        from: Option<i64>,
        to: Option<i64>,
    ) -> Result<serde_json::Value, Error> {
        let mut games = serde_json::Map::new();
        for g in self.games_or(game)? {
            let rows = self.rating_leaderboard(&g, from, to, usize::MAX)?;
            games.insert(g, serde_json::to_value(rows).expect("rows are JSON"));
        }
        Ok(serde_json::json!({
            "from": from.map(crate::time::iso),
            "to": to.map(crate::time::iso),
            "games": games,
        }))
    }

    /// The same tables as CSV, one line per player and game, figures to one decimal.
    pub fn ratings_csv(
        &self,
        game: Option<&str>,
        from: Option<i64>,
        to: Option<i64>,
    ) -> Result<String, Error> {
        use crate::csv::cell;
        let mut out =
            String::from("game,rank,player,rating,deviation,low,high,matches,provisional\n");
        for g in self.games_or(game)? {
            for r in self.rating_leaderboard(&g, from, to, usize::MAX)? {
                let p = &r.rating;
                out.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{}\n",
                    cell(&g),
                    r.rank,
                    cell(&r.name),
                    tenth(p.rating),
                    tenth(p.deviation),
                    tenth(p.low),
                    tenth(p.high),
                    p.matches,
                    p.provisional
                ));
            }
        }
        Ok(out)
    }
}
