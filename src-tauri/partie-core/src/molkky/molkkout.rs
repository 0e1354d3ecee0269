//! The mölkkout: five pins in a line, a fixed number of throws per side, the higher total wins.

use super::leg::ThrowRecord;
use super::throw::Throw;
use crate::error::Error;
use crate::game::{
    check_sides, ratio, replay_with, tally, Computer, Counters, Game, Rates, Refused,
};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{json, Map, Value};

/// A mölkkout between two sides, standalone or as a match's tie-break.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Molkkout {
    sides: Vec<Vec<String>>,
    /// The side called A in the throwing order `A BB AA BB ...`.
    a: usize,
    totals: [u32; 2],
    throws: [u32; 2],
    /// Extra rounds played after a tie (0 for the regular quota).
    round: u32,
    winner: Option<usize>,
    sheet: Vec<(usize, usize, u32)>,
}

impl Molkkout {
    /// A mölkkout between two sides, `a` throwing first.
    pub(crate) fn new(sides: Vec<Vec<String>>, a: usize) -> Self {
        Molkkout {
            sides,
            a,
            totals: [0; 2],
            throws: [0; 2],
            round: 0,
            winner: None,
            sheet: Vec::new(),
        }
    }

    fn size(&self, side: usize) -> u32 {
        self.sides[side].len() as u32
    }

    /// Throws `side` must have made by the end of the current round: 3 for a single player,
    /// 2 each for a pair, 1 each for three or more, then one more per player for each tie.
    fn quota(&self, side: usize) -> u32 {
        let size = self.size(side);
        let each = match size {
            1 => 3,
            2 => 2,
            _ => 1,
        };
        size * each + self.round * size
    }

    /// The side to throw, or `None` once decided.
    pub fn turn(&self) -> Option<usize> {
        if self.winner.is_some() {
            return None;
        }
        let k = self.throws[0] + self.throws[1];
        let pattern_is_a = k == 0 || ((k - 1) / 2) % 2 == 1;
        let side = if pattern_is_a { self.a } else { 1 - self.a };
        // A side that has thrown its quota hands the rest of the round to the other.
        Some(if self.throws[side] >= self.quota(side) {
            1 - side
        } else {
            side
        })
    }

    /// The name of the player who throws next.
    pub fn thrower(&self) -> Option<&str> {
        self.turn()
            .map(|s| self.sides[s][(self.throws[s] % self.size(s)) as usize].as_str())
    }

    /// Totals per side.
    pub fn totals(&self) -> [u32; 2] {
        self.totals
    }

    /// Throws made per side.
    pub fn throws(&self) -> [u32; 2] {
        self.throws
    }

    /// Throws left per side in the current round.
    pub fn throws_left(&self) -> [u32; 2] {
        [0, 1].map(|s| self.quota(s).saturating_sub(self.throws[s]))
    }

    /// The winner, once decided.
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// What the latest throw did (its score is the side's total).
    pub fn last_throw(&self) -> Option<ThrowRecord> {
        self.sheet
            .last()
            .map(|&(side, player, points)| ThrowRecord {
                side,
                player,
                points,
                score: self.totals[side],
                miss: points == 0,
                foul: false,
                bust: false,
                dropped: false,
                eliminated: false,
                zeroed: false,
            })
    }

    /// Applies a throw; the caller has checked that it is well formed and the mölkkout is on.
    pub(crate) fn throw(&mut self, throw: Throw) {
        let side = self.turn().expect("mölkkout is decided");
        let player = (self.throws[side] % self.size(side)) as usize;
        let points = throw.points();
        self.totals[side] += points;
        self.throws[side] += 1;
        self.sheet.push((side, player, points));
        if self.throws[0] >= self.quota(0) && self.throws[1] >= self.quota(1) {
            match self.totals[0].cmp(&self.totals[1]) {
                std::cmp::Ordering::Greater => self.winner = Some(0),
                std::cmp::Ordering::Less => self.winner = Some(1),
                std::cmp::Ordering::Equal => self.round += 1,
            }
        }
    }

    /// Refuses a throw that is not allowed in a mölkkout.
    pub(crate) fn check(&self, throw: &Throw) -> Result<(), Error> {
        if !throw.fits_molkkout() {
            return Err(
                Error::bad_action("in a mölkkout only pins 6, 4, 12, 10 and 8 stand")
                    .with_code("not_molkkout_pin"),
            );
        }
        Ok(())
    }

    /// Sides ranked by totals, higher first, the winner first.
    pub fn ranking(&self) -> Vec<usize> {
        match self.winner {
            Some(w) => vec![w, 1 - w],
            None if self.totals[1] > self.totals[0] => vec![1, 0],
            None => vec![0, 1],
        }
    }

    /// Writes the mölkkout's own keys of a summary; the throw sheet only with `sheet`.
    pub(crate) fn write_keys<M: SerializeMap>(
        &self,
        m: &mut M,
        sheet: bool,
    ) -> Result<(), M::Error> {
        m.serialize_entry("scores", &self.totals)?;
        m.serialize_entry("throws", &self.throws)?;
        m.serialize_entry("throws_left", &self.throws_left())?;
        m.serialize_entry("thrower", &self.thrower())?;
        m.serialize_entry("extra_rounds", &self.round)?;
        m.serialize_entry("last_throw", &self.last_throw())?;
        if sheet {
            m.serialize_entry("sheet", &Sheet(&self.sheet))?;
        }
        Ok(())
    }
}

/// The mölkkout's throw sheet: `{side, player, points}` per throw.
struct Sheet<'a>(&'a [(usize, usize, u32)]);

impl Serialize for Sheet<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Line {
            side: usize,
            player: usize,
            points: u32,
        }
        s.collect_seq(self.0.iter().map(|&(side, player, points)| Line {
            side,
            player,
            points,
        }))
    }
}

/// A standalone mölkkout's summary (`docs/games/molkky.md`), written from the state; the
/// sheet only when `sheet`.
pub(crate) struct MolkkoutSummary<'a> {
    game: &'a Molkkout,
    sheet: bool,
}

impl Serialize for MolkkoutSummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.game;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("status", super::game::status(g.winner))?;
        m.serialize_entry("winner", &g.winner)?;
        m.serialize_entry("turn", &g.turn())?;
        m.serialize_entry("ranking", &g.ranking())?;
        m.serialize_entry("phase", "molkkout")?;
        g.write_keys(&mut m, self.sheet)?;
        m.end()
    }
}

impl Game for Molkkout {
    type Action = Throw;
    const NAME: &'static str = "molkkout";
    const TITLE: [&'static str; 2] = ["Mölkkout", "Mölkkout"];
    const PLACE: &'static str = "court";

    fn info() -> Value {
        // The mölkkout shares Mölkky's pins, between two sides only; on its own it takes no
        // options (setup refuses every key), so it offers none.
        let mut info = super::info();
        info["sides"] = json!({"min": 2, "max": 2});
        info["options"] = json!({});
        info
    }

    fn counters(
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
        actions: &[Value],
        _computer: &Computer,
    ) -> Result<Vec<Vec<Counters>>, Error> {
        // throws, points
        let mut by_player: Vec<Vec<[u64; 2]>> =
            sides.iter().map(|s| vec![[0; 2]; s.len()]).collect();
        replay_with(
            rules,
            sides,
            actions,
            |_: &Molkkout, _| (),
            |(), state| {
                let Some(t) = state.last_throw() else { return };
                if let Some(c) = by_player.get_mut(t.side).and_then(|s| s.get_mut(t.player)) {
                    c[0] += 1;
                    c[1] += u64::from(t.points);
                }
            },
        )?;
        Ok(by_player
            .iter()
            .map(|side| {
                side.iter()
                    .map(|c| tally(&[("throws", c[0]), ("points", c[1])]))
                    .collect()
            })
            .collect())
    }

    fn rates(sum: &dyn Fn(&str) -> u64) -> Rates {
        vec![("points_per_throw", ratio(sum("points"), sum("throws")))]
    }

    fn setup(rules: &Map<String, Value>, sides: &[Vec<String>]) -> Result<Self, Error> {
        if let Some(key) = rules.keys().next() {
            return Err(
                Error::bad_setup(format!("the mölkkout takes no options ({key:?} given)"))
                    .with_code("unknown_rule"),
            );
        }
        if sides.len() != 2 {
            return Err(Error::bad_setup(format!(
                "a mölkkout is between 2 sides, not {}",
                sides.len()
            ))
            .with_code("side_count"));
        }
        check_sides(sides)?;
        Ok(Molkkout::new(sides.to_vec(), 0))
    }

    fn parse_action(&self, action: &Value) -> Result<Throw, Error> {
        // The five pins of a mölkkout hold in every state: a 7 is malformed, even after the end.
        let throw = Throw::from_json(action)?;
        self.check(&throw)?;
        Ok(throw)
    }

    fn play(mut self, throw: &Throw) -> Result<Self, Refused<Self>> {
        if let Err(e) = self.check(throw) {
            return Err(Refused::new(self, e));
        }
        self.throw(*throw);
        Ok(self)
    }

    fn summary(&self) -> impl Serialize + '_ {
        MolkkoutSummary {
            game: self,
            sheet: true,
        }
    }

    fn list_summary(&self) -> impl Serialize + '_ {
        MolkkoutSummary {
            game: self,
            sheet: false,
        }
    }

    fn result(&self) -> Option<crate::game::MatchResult> {
        self.winner.map(|w| crate::game::MatchResult {
            winner: Some(w),
            scores: self.totals.to_vec(),
            twenties: None,
        })
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn scores(&self) -> Vec<u32> {
        self.totals.to_vec()
    }

    fn turn(&self) -> Option<usize> {
        Molkkout::turn(self)
    }
}
