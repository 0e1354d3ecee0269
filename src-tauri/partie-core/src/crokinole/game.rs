//! The state of a Crokinole game: rounds, scores, the live 20s, and who starts.

use super::action::{Action, RoundCounts, ZONES};
use super::rules::{CrokinoleRules, Format, Scoring, StartRule};
use crate::error::Error;
use crate::game::{
    check_sides, places_from_ranking, ratio, replay, tally, Computer, Counters, Game, Rates,
    Refused,
};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{Map, Value};

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Won(usize),
    Drawn,
}

/// A Crokinole game. Built with [`Game::setup`], changed only by [`Game::play`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crokinole {
    rules: CrokinoleRules,
    sides: Vec<Vec<String>>,
    /// The shooting order around the board, clockwise, as (side, player) pairs.
    seats: Vec<(usize, usize)>,
    scores: Vec<u32>,
    round_points: Vec<Vec<u32>>,
    /// The game scores after each round, for the sheet's running totals.
    score_history: Vec<Vec<u32>>,
    twenties: Vec<u32>,
    live: Vec<u32>,
    /// The seat of the player who shoots first this round.
    starter_seat: usize,
    /// The seat that started the previous round (where a loser's choice counts from).
    previous_seat: Option<usize>,
    /// The loser of the previous round, while it may still choose who starts.
    chooser: Option<usize>,
    end: Option<End>,
}

/// The seats clockwise, the players of the sides alternating. With a team against one player,
/// the single player shoots after each opponent, so they take two of the four places.
fn seats(sides: &[Vec<String>]) -> Vec<(usize, usize)> {
    match sides.iter().map(Vec::len).collect::<Vec<_>>().as_slice() {
        [2, 2] => vec![(0, 0), (1, 0), (0, 1), (1, 1)],
        [2, 1] => vec![(0, 0), (1, 0), (0, 1), (1, 0)],
        [1, 2] => vec![(0, 0), (1, 0), (0, 0), (1, 1)],
        _ => (0..sides.len()).map(|s| (s, 0)).collect(),
    }
}

impl Crokinole {
    fn starter(&self) -> usize {
        self.seats[self.starter_seat].0
    }

    fn player(&self, seat: usize) -> &str {
        let (side, p) = self.seats[seat];
        &self.sides[side][p]
    }

    /// The seat that shoots last this round (the hammer): the one before the starter.
    fn hammer_seat(&self) -> usize {
        (self.starter_seat + self.seats.len() - 1) % self.seats.len()
    }

    /// Refuses a count that puts more discs on the board than a side plays, the 20s being
    /// `twenties` (those given with the count, the live tally, or none).
    fn counts_fit(&self, counts: &RoundCounts, twenties: &[u32]) -> Result<(), Error> {
        for side in 0..self.sides.len() {
            let total = twenties[side] + counts.zones.iter().map(|z| z[side]).sum::<u32>();
            if total > self.rules.discs {
                return Err(Error::bad_action(format!(
                    "side {side} has {total} discs counted but plays only {}",
                    self.rules.discs
                ))
                .with_code("too_many_discs"));
            }
        }
        Ok(())
    }

    fn check(&self, action: &Action) -> Result<(), Error> {
        match action {
            Action::Twenty(side) => {
                if self.live[*side] >= self.rules.discs {
                    return Err(Error::illegal(format!(
                        "side {side} has no disc left to sink this round"
                    ))
                    .with_code("no_disc_left"));
                }
            }
            Action::Round(counts) => {
                self.counts_fit(counts, counts.twenties.as_deref().unwrap_or(&self.live))?
            }
            Action::Starter(_) => {
                if self.rules.start_rule != StartRule::LoserChooses {
                    return Err(Error::illegal("only with the loser-chooses start rule")
                        .with_code("no_choice"));
                }
                if self.chooser.is_none() {
                    return Err(Error::illegal("nobody may choose who starts now (first round, a tied round, or already chosen)")
                        .with_code("no_choice"));
                }
                if self.live.iter().any(|&n| n > 0) {
                    return Err(
                        Error::illegal("the round has started: a 20 was already sunk")
                            .with_code("round_started"),
                    );
                }
            }
        }
        Ok(())
    }

    fn score_round(&mut self, counts: &RoundCounts) {
        let n = self.sides.len();
        let twenties = counts.twenties.clone().unwrap_or_else(|| self.live.clone());
        let points: Vec<u32> = (0..n)
            .map(|s| {
                twenties[s] * ZONES[0].1
                    + (0..3)
                        .map(|z| counts.zones[z][s] * ZONES[z + 1].1)
                        .sum::<u32>()
            })
            .collect();
        for (total, add) in self.twenties.iter_mut().zip(&twenties) {
            *total += add;
        }
        self.live = vec![0; n];
        let best = *points.iter().max().expect("sides");
        let low = *points.iter().min().expect("sides");
        let tie = best == low;
        let gained = |p: u32| match (self.rules.format, self.rules.scoring) {
            // Two sides only (checked at setup): 2 to the round's winner, 1 each on a tie.
            (Format::Rounds, _) if tie => 1,
            (Format::Rounds, _) => 2 * u32::from(p == best),
            (Format::Points, Scoring::Differential) if p == best => best - low,
            (Format::Points, Scoring::Differential) => 0,
            (Format::Points, Scoring::Simple) => p,
        };
        let gains: Vec<u32> = points.iter().map(|&p| gained(p)).collect();
        for (score, gain) in self.scores.iter_mut().zip(gains) {
            *score += gain;
        }
        let losers: Vec<usize> = (0..n).filter(|&s| points[s] == low).collect();
        self.round_points.push(points);
        self.score_history.push(self.scores.clone());
        self.end = self.ending();
        self.previous_seat = Some(self.starter_seat);
        self.starter_seat = (self.starter_seat + 1) % self.seats.len();
        let tied = losers.len() == n;
        self.chooser = match (self.rules.start_rule, self.end, losers.as_slice()) {
            (StartRule::LoserChooses, None, [loser]) if !tied => Some(*loser),
            _ => None,
        };
    }

    fn ending(&self) -> Option<End> {
        let top = *self.scores.iter().max().expect("sides");
        let leaders: Vec<usize> = (0..self.scores.len())
            .filter(|&s| self.scores[s] == top)
            .collect();
        let over = match self.rules.format {
            Format::Points => top >= self.rules.target,
            Format::Rounds => self.round_points.len() as u32 == self.rules.rounds,
        };
        match (over, leaders.as_slice()) {
            (false, _) => None,
            (true, [one]) => Some(End::Won(*one)),
            (true, _) => Some(End::Drawn),
        }
    }

    /// Sides by game points, higher first, equal ones by side index.
    fn ranking(&self) -> Vec<usize> {
        let mut r: Vec<usize> = (0..self.scores.len()).collect();
        r.sort_by(|&a, &b| self.scores[b].cmp(&self.scores[a]).then(a.cmp(&b)));
        r
    }

    fn choose(&mut self, side: usize) {
        let from = self.previous_seat.map_or(0, |p| p + 1);
        let n = self.seats.len();
        self.starter_seat = (0..n)
            .map(|k| (from + k) % n)
            .find(|&seat| self.seats[seat].0 == side)
            .expect("every side has a seat");
        self.chooser = None;
    }
}

impl Game for Crokinole {
    type Action = Action;
    const NAME: &'static str = "crokinole";
    const TITLE: [&'static str; 2] = ["Crokinole", "Crokinole"];
    const PLACE: &'static str = "crokinole_board";
    // Seed 001: tournaments count games of a fixed number of rounds. A target given chooses
    // the points format: taken as rounds, it was ignored without a word.
    const TOURNAMENT_RULES: &'static [(&'static str, &'static str, &'static [&'static str])] =
        &[("format", "rounds", &["target"])];
    // Every round is worth 2, 1 or 0 game points; 20s break ties (seed 001).
    const RANKING: &'static [&'static str] =
        &["game_points", "match_points", "twenties", "head_to_head"];

    fn info() -> Value {
        super::info()
    }

    fn counters(
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
        actions: &[Value],
        _computer: &Computer,
    ) -> Result<Vec<Vec<Counters>>, Error> {
        let state: Crokinole = replay(rules, sides, actions)?;
        // Round figures belong to the side; each of its players is credited with them.
        let rounds = &state.round_points;
        Ok(sides
            .iter()
            .enumerate()
            .map(|(side, players)| {
                let won = rounds
                    .iter()
                    .filter(|r| {
                        let best = r.iter().copied().max().unwrap_or(0);
                        r[side] == best && r.iter().filter(|&&p| p == best).count() == 1
                    })
                    .count() as u64;
                let counters = tally(&[
                    ("rounds", rounds.len() as u64),
                    (
                        "round_points",
                        rounds.iter().map(|r| u64::from(r[side])).sum(),
                    ),
                    ("twenties", u64::from(state.twenties[side])),
                    ("rounds_won", won),
                ]);
                vec![counters; players.len()]
            })
            .collect())
    }

    fn rates(sum: &dyn Fn(&str) -> u64) -> Rates {
        vec![
            (
                "points_per_round",
                ratio(sum("round_points"), sum("rounds")),
            ),
            ("twenties_per_round", ratio(sum("twenties"), sum("rounds"))),
            ("rounds_won_rate", ratio(sum("rounds_won"), sum("rounds"))),
        ]
    }

    fn setup(rules: &Map<String, Value>, sides: &[Vec<String>]) -> Result<Self, Error> {
        let sizes: Vec<usize> = sides.iter().map(Vec::len).collect();
        let fits = matches!(sizes.as_slice(), [1 | 2, 1 | 2] | [1, 1, 1]);
        if !fits {
            return Err(Error::bad_setup(
                "Crokinole is played by 2 sides of one or two players, or by three single players",
            )
            .with_code("crokinole_sides"));
        }
        check_sides(sides)?;
        let rules = CrokinoleRules::from_map(rules, sides.len())?;
        let n = sides.len();
        Ok(Crokinole {
            seats: seats(sides),
            sides: sides.to_vec(),
            scores: vec![0; n],
            round_points: Vec::new(),
            score_history: Vec::new(),
            twenties: vec![0; n],
            live: vec![0; n],
            starter_seat: 0,
            previous_seat: None,
            chooser: None,
            end: None,
            rules,
        })
    }

    fn parse_action(&self, action: &Value) -> Result<Action, Error> {
        let action = Action::from_json(action, self.sides.len())?;
        // Counts that add up to more discs than a side plays are malformed whatever the state,
        // after the end too (the 20s sunk live, which depend on the round, are `check`'s).
        if let Action::Round(counts) = &action {
            let none = vec![0; self.sides.len()];
            self.counts_fit(counts, counts.twenties.as_deref().unwrap_or(&none))?;
        }
        Ok(action)
    }

    fn play(mut self, action: &Action) -> Result<Self, Refused<Self>> {
        if let Err(e) = self.check(action) {
            return Err(Refused::new(self, e));
        }
        match action {
            Action::Twenty(side) => {
                self.live[*side] += 1;
                self.chooser = None;
            }
            Action::Round(counts) => self.score_round(counts),
            Action::Starter(side) => self.choose(*side),
        }
        Ok(self)
    }

    fn summary(&self) -> impl Serialize + '_ {
        CrokinoleSummary(self)
    }

    fn is_over(&self) -> bool {
        self.end.is_some()
    }

    fn places(&self) -> Option<Vec<u32>> {
        let winner = match self.end? {
            End::Won(w) => Some(w),
            End::Drawn => None,
        };
        Some(places_from_ranking(
            &self.ranking(),
            winner,
            &self.scores,
            &[],
        ))
    }

    fn scores(&self) -> Vec<u32> {
        self.scores.clone()
    }

    fn turn(&self) -> Option<usize> {
        (!self.is_over()).then(|| self.starter())
    }

    fn result(&self) -> Option<crate::game::MatchResult> {
        let winner = match self.end? {
            End::Won(w) => Some(w),
            End::Drawn => None,
        };
        Some(crate::game::MatchResult {
            winner,
            scores: self.scores.clone(),
            twenties: Some(self.twenties.clone()),
        })
    }
}

/// A Crokinole game's summary (`docs/games/crokinole.md`), written from the state without a
/// tree.
struct CrokinoleSummary<'a>(&'a Crokinole);

impl Serialize for CrokinoleSummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.0;
        let rules = &g.rules;
        let over = g.end.is_some();
        let (status, winner) = match g.end {
            None => ("playing", None),
            Some(End::Won(w)) => ("won", Some(w)),
            Some(End::Drawn) => ("drawn", None),
        };
        let starter = (!over).then(|| g.starter());
        let hammer = g.hammer_seat();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("status", status)?;
        m.serialize_entry("winner", &winner)?;
        m.serialize_entry("turn", &starter)?;
        m.serialize_entry("starter", &starter)?;
        m.serialize_entry("starter_player", &(!over).then(|| g.player(g.starter_seat)))?;
        m.serialize_entry("hammer", &(!over).then_some(g.seats[hammer].0))?;
        m.serialize_entry("hammer_player", &(!over).then(|| g.player(hammer)))?;
        m.serialize_entry("scores", &g.scores)?;
        m.serialize_entry("round", &g.round_points.len())?;
        m.serialize_entry("round_points", &g.round_points)?;
        m.serialize_entry("score_history", &g.score_history)?;
        m.serialize_entry("twenties", &g.twenties)?;
        m.serialize_entry("live_twenties", &g.live)?;
        m.serialize_entry("chooser", &g.chooser)?;
        m.serialize_entry("format", &rules.format)?;
        m.serialize_entry("scoring", &rules.scoring)?;
        m.serialize_entry("target", &rules.target)?;
        m.serialize_entry("rounds", &rules.rounds)?;
        m.serialize_entry("discs", &rules.discs)?;
        m.serialize_entry("start_rule", &rules.start_rule)?;
        // What each side still needs means nothing in a game of a fixed number of rounds.
        m.serialize_entry("needs", &Needs(g))?;
        m.serialize_entry("ranking", &g.ranking())?;
        m.end()
    }
}

/// The game points each side still needs to reach the target; `null` with the rounds format.
struct Needs<'a>(&'a Crokinole);

impl Serialize for Needs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.0;
        match g.rules.format {
            Format::Points => s.collect_seq(
                g.scores
                    .iter()
                    .map(|&score| g.rules.target.saturating_sub(score)),
            ),
            Format::Rounds => s.serialize_none(),
        }
    }
}
