//! A Mölkky game: one leg, or a best-of-3/5 match with its starter rules and mölkkout.

use super::leg::{Leg, ThrowRecord};
use super::molkkout::Molkkout;
use super::rules::MolkkyRules;
use super::throw::Throw;
use crate::error::Error;
use crate::game::{
    check_sides, places_from_ranking, ratio, replay_with, tally, Computer, Counters, Game, Rates,
    Refused,
};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// What is being played right now in a match.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    Leg,
    /// The tie-break before the deciding leg, when the legs' points are equal.
    Molkkout(Molkkout),
}

/// A Mölkky game or match. Built with [`Game::setup`], changed only by [`Game::play`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Molkky {
    rules: MolkkyRules,
    sides: Vec<Vec<String>>,
    team_sizes: Vec<usize>,
    leg_no: u32,
    leg: Leg,
    phase: Phase,
    legs_won: Vec<u32>,
    /// Each finished leg's points for the match tally.
    leg_points: Vec<Vec<u32>>,
    winner: Option<usize>,
    /// What the latest throw did, kept across the end of a leg.
    last_throw: Option<ThrowRecord>,
}

impl Molkky {
    /// The validated rules.
    pub fn rules(&self) -> &MolkkyRules {
        &self.rules
    }

    /// The sides and their players.
    pub fn sides(&self) -> &[Vec<String>] {
        &self.sides
    }

    /// The current (or last) leg.
    pub fn leg(&self) -> &Leg {
        &self.leg
    }

    /// The match tie-break, while it is being played.
    pub fn molkkout(&self) -> Option<&Molkkout> {
        match &self.phase {
            Phase::Molkkout(m) => Some(m),
            Phase::Leg => None,
        }
    }

    /// What the latest throw did.
    pub fn last_throw(&self) -> Option<&ThrowRecord> {
        self.last_throw.as_ref()
    }

    /// The side to throw now, or `None` when the match is over.
    pub fn turn(&self) -> Option<usize> {
        if self.winner.is_some() {
            return None;
        }
        match &self.phase {
            Phase::Leg => self.leg.turn(),
            Phase::Molkkout(m) => m.turn(),
        }
    }

    /// The player who throws next.
    pub fn thrower(&self) -> Option<&str> {
        match &self.phase {
            Phase::Molkkout(m) => m.thrower(),
            Phase::Leg => self
                .turn()
                .map(|s| self.sides[s][self.leg.next_player(s)].as_str()),
        }
    }

    fn start_leg(&mut self, starter: usize) {
        self.leg = Leg::new(self.sides.len(), starter);
        self.phase = Phase::Leg;
    }

    /// Settles a won leg: the tally, the match, and who starts the next leg.
    fn leg_won(&mut self, w: usize) {
        self.leg_points
            .push(self.leg.points_for_match(self.rules.target));
        self.legs_won[w] += 1;
        let need = self.rules.legs_to_win();
        if self.legs_won[w] == need {
            self.winner = Some(w);
            return;
        }
        self.leg_no += 1;
        let deciding = self.legs_won.iter().all(|&won| won == need - 1);
        if !deciding {
            let starter = 1 - self.leg.starter();
            self.start_leg(starter);
            return;
        }
        let totals: Vec<u32> = (0..2)
            .map(|s| self.leg_points.iter().map(|p| p[s]).sum())
            .collect();
        match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => self.start_leg(0),
            std::cmp::Ordering::Less => self.start_leg(1),
            std::cmp::Ordering::Equal => {
                // Side A of the tie-break is the side that started the first leg: side 0.
                self.phase = Phase::Molkkout(Molkkout::new(self.sides.clone(), 0));
            }
        }
    }

    /// Points per side summed over the finished legs (the deciding leg's starter rule).
    pub fn match_points(&self) -> Vec<u32> {
        (0..self.sides.len())
            .map(|s| self.leg_points.iter().map(|p| p[s]).sum())
            .collect()
    }

    fn ranking(&self) -> Vec<usize> {
        match &self.phase {
            Phase::Molkkout(m) => m.ranking(),
            Phase::Leg => {
                let mut rank = self.leg.ranking();
                if let Some(w) = self.winner {
                    rank.retain(|&s| s != w);
                    rank.insert(0, w);
                }
                rank
            }
        }
    }
}

impl Game for Molkky {
    type Action = Throw;
    const NAME: &'static str = "molkky";
    const TITLE: [&'static str; 2] = ["Mölkky", "Mölkky"];
    const PLACE: &'static str = "court";

    fn info() -> Value {
        super::info()
    }

    fn counters(
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
        actions: &[Value],
        _computer: &Computer,
    ) -> Result<Vec<Vec<Counters>>, Error> {
        // throws, points, misses, fouls, busts, eliminations, chances, chances taken
        let mut by_player: Vec<Vec<[u64; 8]>> =
            sides.iter().map(|s| vec![[0; 8]; s.len()]).collect();
        replay_with(
            rules,
            sides,
            actions,
            |state: &Molkky, _| {
                // A match's mölkkout throws count for neither players' leg figures.
                let side = state.turn().filter(|_| state.molkkout().is_none())?;
                Some((side, state.rules.target - state.leg.scores()[side]))
            },
            |seen, state| {
                let (Some((side, needs)), Some(t)) = (seen, state.last_throw()) else {
                    return;
                };
                let Some(c) = by_player[side].get_mut(t.player) else {
                    return;
                };
                c[0] += 1;
                c[1] += u64::from(t.points);
                c[2] += u64::from(t.miss);
                c[3] += u64::from(t.foul);
                c[4] += u64::from(t.bust);
                c[5] += u64::from(t.eliminated);
                // A chance: a throw that could end the leg (12 pins at most).
                if needs <= 12 {
                    c[6] += 1;
                    c[7] += u64::from(t.points == needs);
                }
            },
        )?;
        Ok(by_player
            .iter()
            .map(|side| {
                side.iter()
                    .map(|c| {
                        tally(&[
                            ("throws", c[0]),
                            ("points", c[1]),
                            ("misses", c[2]),
                            ("fouls", c[3]),
                            ("busts", c[4]),
                            ("eliminations", c[5]),
                            ("chances", c[6]),
                            ("chances_taken", c[7]),
                        ])
                    })
                    .collect()
            })
            .collect())
    }

    fn rates(sum: &dyn Fn(&str) -> u64) -> Rates {
        vec![
            ("points_per_throw", ratio(sum("points"), sum("throws"))),
            ("miss_rate", ratio(sum("misses"), sum("throws"))),
            (
                "chance_success",
                ratio(sum("chances_taken"), sum("chances")),
            ),
        ]
    }

    fn setup(rules: &Map<String, Value>, sides: &[Vec<String>]) -> Result<Self, Error> {
        let rules = MolkkyRules::from_map(rules)?;
        if !(2..=16).contains(&sides.len()) {
            return Err(Error::bad_setup(format!(
                "Mölkky is for 2 to 16 sides, not {}",
                sides.len()
            ))
            .with_code("side_count"));
        }
        if rules.best_of > 1 && sides.len() != 2 {
            return Err(
                Error::bad_setup("a best-of match is between exactly 2 sides")
                    .with_code("match_sides"),
            );
        }
        check_sides(sides)?;
        Ok(Molkky {
            team_sizes: sides.iter().map(Vec::len).collect(),
            sides: sides.to_vec(),
            leg_no: 1,
            leg: Leg::new(sides.len(), 0),
            phase: Phase::Leg,
            legs_won: vec![0; sides.len()],
            leg_points: Vec::new(),
            winner: None,
            last_throw: None,
            rules,
        })
    }

    fn parse_action(&self, action: &Value) -> Result<Throw, Error> {
        Throw::from_json(action)
    }

    fn play(mut self, throw: &Throw) -> Result<Self, Refused<Self>> {
        if let Phase::Molkkout(m) = &self.phase {
            if let Err(e) = m.check(throw) {
                return Err(Refused::new(self, e));
            }
        }
        match &mut self.phase {
            Phase::Molkkout(m) => {
                m.throw(*throw);
                self.last_throw = m.last_throw();
                if let Some(w) = m.winner() {
                    // The mölkkout's winner starts the deciding leg; leg_no already counts it.
                    self.start_leg(w);
                }
            }
            Phase::Leg => {
                self.leg.throw(&self.rules, &self.team_sizes, *throw);
                self.last_throw = self.leg.sheet().last().cloned();
                if let Some(w) = self.leg.winner() {
                    self.leg_won(w);
                }
            }
        }
        Ok(self)
    }

    fn summary(&self) -> impl Serialize + '_ {
        MolkkySummary {
            game: self,
            sheet: true,
        }
    }

    fn list_summary(&self) -> impl Serialize + '_ {
        MolkkySummary {
            game: self,
            sheet: false,
        }
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn places(&self) -> Option<Vec<u32>> {
        self.winner?;
        let out = match &self.phase {
            Phase::Leg => self.leg.eliminated(),
            Phase::Molkkout(_) => &[],
        };
        Some(places_from_ranking(
            &self.ranking(),
            self.winner,
            &Game::scores(self),
            out,
        ))
    }

    fn scores(&self) -> Vec<u32> {
        match &self.phase {
            Phase::Leg => self.leg.scores().to_vec(),
            Phase::Molkkout(k) => k.totals().to_vec(),
        }
    }

    fn turn(&self) -> Option<usize> {
        Molkky::turn(self)
    }

    fn result(&self) -> Option<crate::game::MatchResult> {
        self.winner.map(|w| crate::game::MatchResult {
            winner: Some(w),
            scores: self.legs_won.clone(),
            twenties: None,
        })
    }
}

/// A summary's `status` from the winner, if any.
pub(crate) fn status(winner: Option<usize>) -> &'static str {
    if winner.is_some() {
        "won"
    } else {
        "playing"
    }
}

/// A Mölkky match's summary (`docs/games/molkky.md`), written from the state without a tree;
/// the throw-by-throw sheet only when `sheet`.
struct MolkkySummary<'a> {
    game: &'a Molkky,
    sheet: bool,
}

impl Serialize for MolkkySummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.game;
        let n = g.sides.len();
        let rules = &g.rules;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("status", status(g.winner))?;
        m.serialize_entry("winner", &g.winner)?;
        m.serialize_entry("turn", &g.turn())?;
        m.serialize_entry("ranking", &g.ranking())?;
        m.serialize_entry("legs_won", &g.legs_won)?;
        m.serialize_entry("leg", &g.leg_no)?;
        m.serialize_entry("target", &rules.target)?;
        m.serialize_entry("bust_to", &rules.bust_to)?;
        m.serialize_entry("misses_allowed", &rules.misses)?;
        m.serialize_entry("three_misses", &rules.three_misses)?;
        m.serialize_entry("best_of", &rules.best_of)?;
        m.serialize_entry("legs_to_win", &rules.legs_to_win())?;
        m.serialize_entry("leg_points", &g.leg_points)?;
        m.serialize_entry("match_points", &g.match_points())?;
        m.serialize_entry("leg_starter", &g.leg.starter())?;
        m.serialize_entry(
            "next_players",
            &(0..n).map(|s| g.leg.next_player(s)).collect::<Vec<_>>(),
        )?;
        match &g.phase {
            Phase::Leg => {
                m.serialize_entry("phase", "leg")?;
                m.serialize_entry("thrower", &g.thrower())?;
                m.serialize_entry("last_throw", &g.last_throw)?;
                let scores = g.leg.scores();
                m.serialize_entry("scores", scores)?;
                m.serialize_entry("misses", g.leg.misses())?;
                m.serialize_entry("eliminated", g.leg.eliminated())?;
                let target = rules.target;
                let needs: Vec<u32> = scores.iter().map(|&sc| target - sc.min(target)).collect();
                m.serialize_entry("needs", &needs)?;
                if self.sheet {
                    m.serialize_entry("sheet", g.leg.sheet())?;
                }
            }
            Phase::Molkkout(k) => {
                // The mölkkout's own thrower, last throw and scores stand for the match's.
                m.serialize_entry("phase", "molkkout")?;
                m.serialize_entry("misses", &vec![0; n])?;
                m.serialize_entry("eliminated", &vec![false; n])?;
                k.write_keys(&mut m, self.sheet)?;
            }
        }
        m.end()
    }
}
