//! Lists of matches: the home screen's unfinished and latest ones, and the row every list reads.

use super::Store;
use crate::error::Error;
use crate::games::MatchState;
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
    /// The summary without its record of every action: cached once finished, replayed while
    /// played.
    pub summary: Value,
    /// Start, in ms since the epoch.
    pub started_at: i64,
    /// Last change (while played: its last action).
    pub updated_at: i64,
    /// End, once over.
    pub finished_at: Option<i64>,
    /// How many actions were played.
    pub actions: i64,
    /// Whether this device writes it (started here, or taken over): a match another device
    /// writes is scored there, and only looked at here.
    pub writer: bool,
}

/// The columns [`match_list_row`] reads, in its order, for a query over `match m`. A match being
/// played has its row written at its start only (migration 8): its last change is its last
/// action's.
pub(crate) const LIST_COLUMNS: &str =
    "m.id, m.uid, m.game, m.status, m.winner, m.summary, m.started_at, \
     max(m.updated_at, COALESCE((SELECT a.at FROM action a WHERE a.match_id = m.id \
                                 ORDER BY a.seq DESC LIMIT 1), 0)), \
     m.finished_at, (SELECT count(*) FROM action a WHERE a.match_id = m.id), m.writer";

impl Store {
    fn list(
        &self,
        where_clause: &str,
        order: &str,
        limit: i64,
    ) -> Result<Vec<MatchListItem>, Error> {
        let sql = format!(
            "SELECT {LIST_COLUMNS} FROM match m
             WHERE {where_clause} ORDER BY {order} DESC, m.id DESC LIMIT ?1"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map([limit], match_list_row)?;
        self.with_sides(rows.collect::<Result<_, _>>()?)
    }

    /// Fills in the sides' names of rows read by [`match_list_row`], and the summary of the
    /// matches being played, by replay.
    pub(crate) fn with_sides(
        &self,
        mut items: Vec<MatchListItem>,
    ) -> Result<Vec<MatchListItem>, Error> {
        for item in &mut items {
            item.sides = self.sides(item.id)?;
            if item.status == "playing" {
                item.summary = self.list_summary(item.id);
            }
        }
        Ok(items)
    }

    /// What the lists show of a match being played: from the match kept in memory when it is
    /// this one, else by replay; nothing when it no longer replays (the match screen says why).
    fn list_summary(&self, id: i64) -> Value {
        let text = match self.played(id) {
            Some(state) => state.list_summary_text(),
            None => return Value::Null,
        };
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }

    /// A match's state as it is now: the match kept in memory when it is this one, else
    /// replayed; `None` when it no longer replays.
    pub(crate) fn played(&self, id: i64) -> Option<std::borrow::Cow<'_, MatchState>> {
        use std::borrow::Cow;
        match self.live_of(id) {
            Some(live) => Some(Cow::Borrowed(&live.state)),
            None => self
                .record(id)
                .and_then(|r| r.replay())
                .ok()
                .map(Cow::Owned),
        }
    }

    /// Matches not finished yet: those this device writes first, each group most recently
    /// played first.
    pub fn unfinished(&self, limit: i64) -> Result<Vec<MatchListItem>, Error> {
        // This device's own first (a desk that hosts the hub holds every phone's too, and its
        // own must not fall off the list), then by column 8: the last action's time (see
        // LIST_COLUMNS); a few rows to sort.
        self.list("status = 'playing'", "m.writer DESC, 8", limit)
    }

    /// Finished matches, most recent first.
    pub fn recent_results(&self, limit: i64) -> Result<Vec<MatchListItem>, Error> {
        self.list("status != 'playing'", "m.updated_at", limit)
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
        writer: r.get(10)?,
        sides: Vec::new(),
    })
}
