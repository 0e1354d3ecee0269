//! Ratings per player and game, derived from the finished matches in date order (issue 19).
//!
//! Nothing here is stored: the ratings are computed afresh from a list of finished matches,
//! so that a merge of players, an imported or a deleted match gives the same ratings as a
//! computation on a new database holding the same matches. The rules are in `docs/ratings.md`:
//!
//! - A match between two sides of one player each (Morris, Crokinole singles, Boulomania 1 v 1,
//!   Mölkky 1 v 1) is rated by Glicko-2; any other shape (teams, three or more sides) by
//!   Weng-Lin (OpenSkill), ranked by the sides' places, equal places being a tie. Both are the
//!   `skillratings` crate's, unchanged.
//! - A player has one rating per game, kept on the Glicko-2 scale (1500 ± 350 to start). A
//!   Weng-Lin match converts the players' ratings to its scale and back by one linear map that
//!   gives both systems the same win probability between two certain players.
//! - Each match is its own rating period: matches are rated one at a time in the order they
//!   finished, those that finished at the same millisecond in the order of their stable ids.

use serde::Serialize;
use skillratings::glicko2::{self, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{self, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};
use std::collections::BTreeMap;

/// Below this many rated matches a player's rating is provisional.
pub const PROVISIONAL_BELOW: u32 = 5;

/// Glicko-2's own scale: rating points per unit of its internal scale (Glickman's paper).
const GLICKO2_SCALE: f64 = 173.7178;

/// Weng-Lin's rating that stands for Glicko-2's 1500 (the library's default start).
const WENG_LIN_CENTRE: f64 = 25.0;

/// A finished match as the ratings see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedMatch {
    /// The match's stable id (kept across export and import): the order of matches that
    /// finished at the same millisecond.
    pub uid: String,
    /// When it finished, in ms since the epoch.
    pub finished_at: i64,
    /// Each side's players (player ids).
    pub sides: Vec<Vec<i64>>,
    /// Each side's place, 1 for the best; sides with the same place tied (a draw).
    pub places: Vec<u32>,
}

/// A rating on the Glicko-2 scale: the estimate, its deviation and its volatility.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rating {
    /// The estimate (1500 to start).
    pub rating: f64,
    /// Its deviation, the uncertainty (350 to start, smaller with each match).
    pub deviation: f64,
    /// Glicko-2's volatility: how erratic the player's results are (0.06 to start).
    pub volatility: f64,
}

impl Rating {
    /// The rating of a player who has not played yet.
    pub const START: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    fn glicko2(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko2(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }

    /// The range the player's skill is in with 95 % confidence: rating ± 1.96 deviations
    /// (the library's `confidence_interval`).
    pub fn range(&self) -> (f64, f64) {
        glicko2::confidence_interval(&self.glicko2())
    }

    /// The expected result against `other`: the probability of winning, a draw counting
    /// half (Glicko-2's E with both deviations, the library's `expected_score`).
    pub fn expected_against(&self, other: &Rating) -> f64 {
        glicko2::expected_score(&self.glicko2(), &other.glicko2()).0
    }

    /// A team's rating for seeding: the mean of its members' ratings and volatilities, the
    /// root mean square of their deviations. `None` for no member.
    pub fn mean(members: &[Rating]) -> Option<Rating> {
        if members.is_empty() {
            return None;
        }
        let n = members.len() as f64;
        Some(Rating {
            rating: members.iter().map(|r| r.rating).sum::<f64>() / n,
            deviation: (members.iter().map(|r| r.deviation.powi(2)).sum::<f64>() / n).sqrt(),
            volatility: members.iter().map(|r| r.volatility).sum::<f64>() / n,
        })
    }
}

/// Which system rated a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// Two sides of one player each.
    Glicko2,
    /// Teams, or three sides or more.
    WengLin,
}

impl System {
    /// The system for a match of these sides (each at least one player).
    pub fn for_sides(sides: &[Vec<i64>]) -> System {
        if sides.len() == 2 && sides.iter().all(|s| s.len() == 1) {
            System::Glicko2
        } else {
            System::WengLin
        }
    }
}

/// One step of a player's rating over time (for a chart): the rating after a match.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RatingPoint {
    /// When the match finished, in ms since the epoch.
    pub finished_at: i64,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// What the match changed (rating after minus before).
    pub change: f64,
    /// The system that rated it.
    pub system: System,
}

/// A player's rating as the leaderboard shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerRating {
    /// The player.
    pub player: i64,
    /// The estimate.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Glicko-2's volatility.
    pub volatility: f64,
    /// The low end of the 95 % range (rating − 1.96 deviations).
    pub low: f64,
    /// The high end of the 95 % range (rating + 1.96 deviations).
    pub high: f64,
    /// Rated matches.
    pub matches: u32,
    /// Fewer than [`PROVISIONAL_BELOW`] rated matches.
    pub provisional: bool,
    /// When the player's last rated match finished.
    pub last_played: i64,
}

#[derive(Debug, Clone)]
struct Track {
    now: Rating,
    history: Vec<RatingPoint>,
}

/// Every player's rating in one game after a list of matches.
#[derive(Debug, Clone, Default)]
pub struct Ratings {
    players: BTreeMap<i64, Track>,
    rated: usize,
    skipped: usize,
}

/// Why a match cannot be rated, if it cannot: fewer than two sides, an empty side, places
/// that do not fit, or one player on two sides (which a merge of two opponents can leave).
fn unratable(m: &RatedMatch) -> bool {
    if m.sides.len() < 2 || m.places.len() != m.sides.len() || m.sides.iter().any(Vec::is_empty) {
        return true;
    }
    let mut seen: Vec<(i64, usize)> = m
        .sides
        .iter()
        .enumerate()
        .flat_map(|(s, ps)| ps.iter().map(move |&p| (p, s)))
        .collect();
    seen.sort_unstable();
    seen.windows(2)
        .any(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1)
}

/// The Weng-Lin rating per Glicko-2 rating point: the map under which both systems give two
/// players with no uncertainty the same win probability (Weng-Lin's logistic in
/// (μ₁ − μ₂)/(√2·β), Glicko-2's in (r₁ − r₂)/173.7178).
pub fn weng_lin_per_point(config: &WengLinConfig) -> f64 {
    std::f64::consts::SQRT_2 * config.beta / GLICKO2_SCALE
}

fn to_weng_lin(r: Rating, k: f64) -> WengLinRating {
    WengLinRating {
        rating: WENG_LIN_CENTRE + (r.rating - Rating::START.rating) * k,
        uncertainty: r.deviation * k,
    }
}

fn from_weng_lin(w: WengLinRating, volatility: f64, k: f64) -> Rating {
    Rating {
        rating: Rating::START.rating + (w.rating - WENG_LIN_CENTRE) / k,
        deviation: w.uncertainty / k,
        volatility,
    }
}

impl Ratings {
    /// Rates the matches one at a time in the order they finished (those that finished at
    /// the same millisecond in the order of their uid), whatever the order given.
    pub fn compute(mut matches: Vec<RatedMatch>) -> Ratings {
        matches.sort_by(|a, b| {
            (a.finished_at, &a.uid, &a.sides, &a.places).cmp(&(
                b.finished_at,
                &b.uid,
                &b.sides,
                &b.places,
            ))
        });
        let mut out = Ratings::default();
        for m in &matches {
            out.rate(m);
        }
        out
    }

    /// Rates one more match, which must not have finished before the ones already rated.
    pub fn rate(&mut self, m: &RatedMatch) {
        if unratable(m) {
            self.skipped += 1;
            return;
        }
        // A player twice in one side counts once.
        let sides: Vec<Vec<i64>> = m
            .sides
            .iter()
            .map(|s| {
                let mut s = s.clone();
                let mut seen = std::collections::BTreeSet::new();
                s.retain(|p| seen.insert(*p));
                s
            })
            .collect();
        let now = |p: &i64| self.players.get(p).map_or(Rating::START, |t: &Track| t.now);
        let before: Vec<Vec<Rating>> = sides.iter().map(|s| s.iter().map(now).collect()).collect();
        let system = System::for_sides(&sides);
        let after: Vec<Vec<Rating>> = match system {
            System::Glicko2 => {
                let outcome = match m.places[0].cmp(&m.places[1]) {
                    std::cmp::Ordering::Less => Outcomes::WIN,
                    std::cmp::Ordering::Equal => Outcomes::DRAW,
                    std::cmp::Ordering::Greater => Outcomes::LOSS,
                };
                let (a, b) = glicko2::glicko2(
                    &before[0][0].glicko2(),
                    &before[1][0].glicko2(),
                    &outcome,
                    &Glicko2Config::new(),
                );
                vec![vec![Rating::from_glicko2(a)], vec![Rating::from_glicko2(b)]]
            }
            System::WengLin => {
                let config = WengLinConfig::new();
                let k = weng_lin_per_point(&config);
                let teams: Vec<Vec<WengLinRating>> = before
                    .iter()
                    .map(|s| s.iter().map(|r| to_weng_lin(*r, k)).collect())
                    .collect();
                let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                    .iter()
                    .zip(&m.places)
                    .map(|(t, &p)| (t.as_slice(), MultiTeamOutcome::new(p as usize)))
                    .collect();
                let new = weng_lin::weng_lin_multi_team(&ranked, &config);
                new.iter()
                    .zip(&before)
                    .map(|(t, b)| {
                        t.iter()
                            .zip(b)
                            .map(|(w, r)| from_weng_lin(*w, r.volatility, k))
                            .collect()
                    })
                    .collect()
            }
        };
        for ((players, b), a) in sides.iter().zip(&before).zip(&after) {
            for ((p, b), a) in players.iter().zip(b).zip(a) {
                let track = self.players.entry(*p).or_insert_with(|| Track {
                    now: Rating::START,
                    history: Vec::new(),
                });
                track.now = *a;
                track.history.push(RatingPoint {
                    finished_at: m.finished_at,
                    rating: a.rating,
                    deviation: a.deviation,
                    change: a.rating - b.rating,
                    system,
                });
            }
        }
        self.rated += 1;
    }

    /// Matches rated.
    pub fn matches_rated(&self) -> usize {
        self.rated
    }

    /// Matches left out (see `docs/ratings.md`).
    pub fn matches_skipped(&self) -> usize {
        self.skipped
    }

    /// A player's current rating, `None` before their first rated match.
    pub fn rating(&self, player: i64) -> Option<Rating> {
        self.players.get(&player).map(|t| t.now)
    }

    /// A player's current rating, or the starting one before their first rated match.
    pub fn rating_or_start(&self, player: i64) -> Rating {
        self.rating(player).unwrap_or(Rating::START)
    }

    /// A player's line of the table, `None` before their first rated match.
    pub fn player(&self, player: i64) -> Option<PlayerRating> {
        let t = self.players.get(&player)?;
        let (low, high) = t.now.range();
        let matches = t.history.len() as u32;
        Some(PlayerRating {
            player,
            rating: t.now.rating,
            deviation: t.now.deviation,
            volatility: t.now.volatility,
            low,
            high,
            matches,
            provisional: matches < PROVISIONAL_BELOW,
            last_played: t.history.last().map_or(0, |p| p.finished_at),
        })
    }

    /// Every rated player, ranked: established players by rating (highest first), then the
    /// provisional ones by rating; equal ratings by player id.
    pub fn table(&self) -> Vec<PlayerRating> {
        let mut rows: Vec<PlayerRating> = self
            .players
            .keys()
            .filter_map(|&p| self.player(p))
            .collect();
        rows.sort_by(|a, b| {
            a.provisional
                .cmp(&b.provisional)
                .then(b.rating.total_cmp(&a.rating))
                .then(a.player.cmp(&b.player))
        });
        rows
    }

    /// A player's rating after each of their rated matches, oldest first (for a chart).
    pub fn history(&self, player: i64) -> &[RatingPoint] {
        self.players.get(&player).map_or(&[], |t| &t.history)
    }

    /// A player's rating as it stood at `at`: after every match that finished before it.
    /// `None` when they had no rated match by then.
    pub fn rating_at(&self, player: i64, at: i64) -> Option<Rating> {
        let t = self.players.get(&player)?;
        let n = t.history.partition_point(|p| p.finished_at < at);
        if n == t.history.len() {
            return Some(t.now);
        }
        let p = t.history.get(n.checked_sub(1)?)?;
        // The volatility of a past step is not kept; the chart and the changes need the
        // rating and its deviation only.
        Some(Rating {
            rating: p.rating,
            deviation: p.deviation,
            volatility: t.now.volatility,
        })
    }

    /// What a player's rating gained (or lost) from the matches that finished in
    /// `[from, to)`: 0 when they played none, `None` when they have no rated match by `to`.
    pub fn change(&self, player: i64, from: i64, to: i64) -> Option<f64> {
        let end = self.rating_at(player, to)?;
        let start = self.rating_at(player, from).unwrap_or(Rating::START);
        Some(end.rating - start.rating)
    }

    /// The expected result of `a` against `b` (the probability that `a` wins, a draw counting
    /// half); a player without a rated match counts with the starting rating.
    pub fn expected(&self, a: i64, b: i64) -> f64 {
        self.rating_or_start(a)
            .expected_against(&self.rating_or_start(b))
    }
}

/// The sides' places of a finished match of two or more sides from each side's result
/// (`won`, `drawn`, `lost`): the winner 1, the others 2; all 1 when drawn.
pub fn places_from_results(results: &[&str]) -> Vec<u32> {
    results
        .iter()
        .map(|r| if *r == "lost" { 2 } else { 1 })
        .collect()
}

/// The order to seed entrants by rating: their indexes, the highest rating first; entrants
/// without a rating after the others, each group keeping the given order among equals.
pub fn seed_order(ratings: &[Option<Rating>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&a, &b| match (ratings[a], ratings[b]) {
        (Some(x), Some(y)) => y.rating.total_cmp(&x.rating),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    order
}
