//! One leg (a "manche"): sides throw in turn towards the exact target.

use super::rules::{MissPenalty, MolkkyRules};
use super::throw::Throw;
use serde::Serialize;

/// What one throw did in a leg, for the score sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThrowRecord {
    /// The side that threw.
    pub side: usize,
    /// The player of that side who threw (index in the side).
    pub player: usize,
    /// The points the throw scored.
    pub points: u32,
    /// The side's score after the throw.
    pub score: u32,
    /// Nothing fell (a foul included).
    pub miss: bool,
    /// The throw was a foul.
    pub foul: bool,
    /// The score went over the target and fell back.
    pub bust: bool,
    /// A foul at or above `foul_drop` dropped the score.
    pub dropped: bool,
    /// The consecutive-miss limit eliminated the side.
    pub eliminated: bool,
    /// The consecutive-miss limit reset the score to 0.
    pub zeroed: bool,
}

/// The state of one leg. Built and changed only by [`super::Molkky`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    scores: Vec<u32>,
    misses: Vec<u32>,
    eliminated: Vec<bool>,
    out_order: Vec<usize>,
    next_player: Vec<usize>,
    turn: usize,
    starter: usize,
    winner: Option<usize>,
    won_by_elimination: bool,
    sheet: Vec<ThrowRecord>,
}

impl Leg {
    /// A fresh leg for `sides` sides, `starter` throwing first.
    pub(crate) fn new(sides: usize, starter: usize) -> Self {
        Leg {
            scores: vec![0; sides],
            misses: vec![0; sides],
            eliminated: vec![false; sides],
            out_order: Vec::new(),
            next_player: vec![0; sides],
            turn: starter,
            starter,
            winner: None,
            won_by_elimination: false,
            sheet: Vec::new(),
        }
    }

    /// Applies a throw by the side whose turn it is. The leg must not be over.
    pub(crate) fn throw(&mut self, rules: &MolkkyRules, team_sizes: &[usize], throw: Throw) {
        let side = self.turn;
        let player = self.next_player[side];
        let points = throw.points();
        let mut rec = ThrowRecord {
            side,
            player,
            points,
            score: 0,
            miss: points == 0,
            foul: throw.is_foul(),
            bust: false,
            dropped: false,
            eliminated: false,
            zeroed: false,
        };
        self.next_player[side] = (player + 1) % team_sizes[side];

        let new_score = self.scores[side] + points;
        if new_score == rules.target {
            self.scores[side] = new_score;
            self.misses[side] = 0;
            self.winner = Some(side);
        } else if new_score > rules.target {
            self.scores[side] = rules.bust_to;
            rec.bust = true;
        } else {
            self.scores[side] = new_score;
        }

        if points > 0 {
            self.misses[side] = 0;
        } else {
            self.misses[side] += 1;
            if throw.is_foul() {
                if let Some(drop) = rules.foul_drop {
                    if self.scores[side] >= drop {
                        self.scores[side] = rules.bust_to;
                        rec.dropped = true;
                    }
                }
            }
            if self.misses[side] == rules.misses {
                match rules.three_misses {
                    MissPenalty::Eliminate => {
                        self.eliminated[side] = true;
                        self.out_order.push(side);
                        rec.eliminated = true;
                    }
                    MissPenalty::Zero => {
                        self.scores[side] = 0;
                        self.misses[side] = 0;
                        rec.zeroed = true;
                    }
                    MissPenalty::None => {}
                }
            }
        }
        rec.score = self.scores[side];
        self.sheet.push(rec);

        if self.winner.is_none() {
            let mut left = (0..self.scores.len()).filter(|&s| !self.eliminated[s]);
            if let (Some(only), None) = (left.next(), left.next()) {
                self.winner = Some(only);
                self.won_by_elimination = true;
            }
        }
        if self.winner.is_none() {
            let n = self.scores.len();
            let mut next = (side + 1) % n;
            while self.eliminated[next] {
                next = (next + 1) % n;
            }
            self.turn = next;
        }
    }

    /// The side to throw, or `None` once the leg is won.
    pub fn turn(&self) -> Option<usize> {
        self.winner.is_none().then_some(self.turn)
    }

    /// The index, in its side, of the player who throws next for `side`.
    pub fn next_player(&self, side: usize) -> usize {
        self.next_player[side]
    }

    /// The side that threw first in this leg.
    pub fn starter(&self) -> usize {
        self.starter
    }

    /// The winner of the leg, once there is one.
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// Scores per side.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// Consecutive misses per side.
    pub fn misses(&self) -> &[u32] {
        &self.misses
    }

    /// Whether each side is eliminated.
    pub fn eliminated(&self) -> &[bool] {
        &self.eliminated
    }

    /// Every throw of the leg, in order.
    pub fn sheet(&self) -> &[ThrowRecord] {
        &self.sheet
    }

    /// The leg's points for the match tally: the scores, except that a leg won by elimination
    /// counts as the target for the winner and 0 for the others (Finnish rule: "lose 50-0").
    pub fn points_for_match(&self, target: u32) -> Vec<u32> {
        match (self.winner, self.won_by_elimination) {
            (Some(w), true) => (0..self.scores.len())
                .map(|s| if s == w { target } else { 0 })
                .collect(),
            _ => self.scores.clone(),
        }
    }

    /// Side indexes, best first: the winner, then sides still in by score (higher first, equal
    /// scores by side index), then eliminated sides, last eliminated first.
    pub fn ranking(&self) -> Vec<usize> {
        let mut rank: Vec<usize> = self.winner.into_iter().collect();
        let mut still_in: Vec<usize> = (0..self.scores.len())
            .filter(|&s| !self.eliminated[s] && Some(s) != self.winner)
            .collect();
        still_in.sort_by(|&a, &b| self.scores[b].cmp(&self.scores[a]).then(a.cmp(&b)));
        rank.extend(still_in);
        rank.extend(
            self.out_order
                .iter()
                .rev()
                .filter(|&&s| Some(s) != self.winner),
        );
        rank
    }
}
