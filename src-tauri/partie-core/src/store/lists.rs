//! Lists of matches: the home screen's unfinished and latest ones, and the row every list reads.

use super::Store;
use crate::error::Error;
use serde::Serialize;
use serde_json::Value;

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

impl Store {
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
