//! Round robin by the circle method (`docs/tournaments.md`, "Pairing"): the schedule is fixed at
//! the first `pair`, from the entrants active then; pools play the same schedule inside each pool.

use super::system::{Entry, System};
use super::{Bye, Field, Match, Round};
use crate::error::Error;
use serde_json::{Map, Value};

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: "round_robin",
    title: ["Round robin", "Toutes rondes"],
    options: &[],
    build: |_, _| Ok(Box::new(RoundRobin::default())),
};

/// Positions for `n` entrants: `n` rounded up to even (the extra one is the bye's dummy).
pub fn positions(n: usize) -> usize {
    n + n % 2
}

/// Rounds of a round robin of `n` entrants.
pub fn rounds_for(n: usize) -> usize {
    positions(n).saturating_sub(1)
}

/// Round `k` (from 1) of the circle method over `order` (entrants in seed order), its tables
/// numbered from `first_table`. Meeting the dummy, or an entrant who withdrew, is a bye at that
/// table; two withdrawn entrants make no match.
pub fn circle_round(order: &[usize], k: usize, withdrawn: &[bool], first_table: usize) -> Round {
    let m = positions(order.len());
    let mut round = Round::default();
    if k == 0 || k >= m {
        return round;
    }
    let mut pos: Vec<Option<usize>> = order.iter().copied().map(Some).collect();
    pos.resize(m, None);
    // The entrant at position 0 stays; the others move one place on, the last to position 1.
    pos[1..].rotate_right((k - 1) % (m - 1));
    for i in 0..m / 2 {
        let (a, b) = (pos[i], pos[m - 1 - i]);
        let sides = if i == 0 && k.is_multiple_of(2) {
            [b, a]
        } else {
            [a, b]
        };
        let table = first_table + i;
        let playing = |s: Option<usize>| s.filter(|&e| !withdrawn[e]);
        match (playing(sides[0]), playing(sides[1])) {
            (Some(x), Some(y)) => round.matches.push(Match {
                table,
                sides: [x, y],
                result: None,
            }),
            (Some(e), None) | (None, Some(e)) => round.byes.push(Bye {
                table: Some(table),
                entrant: e,
            }),
            (None, None) => {}
        }
    }
    round
}

/// A round robin: every entrant meets every other once.
#[derive(Debug, Clone, Default)]
pub struct RoundRobin {
    /// The entrants of the schedule, fixed at the first `pair`.
    order: Option<Vec<usize>>,
}

impl System for RoundRobin {
    fn name(&self) -> &'static str {
        ENTRY.name
    }

    fn rounds(&self, field: &Field) -> usize {
        let n = self
            .order
            .as_ref()
            .map_or_else(|| field.active().len(), Vec::len);
        rounds_for(n)
    }

    fn takes_late_entries(&self, field: &Field) -> bool {
        field.rounds.is_empty()
    }

    fn pair(&mut self, field: &Field) -> Result<Round, Error> {
        let order = self.order.get_or_insert_with(|| field.active());
        Ok(circle_round(
            order,
            field.rounds.len() + 1,
            &field.withdrawn,
            0,
        ))
    }

    fn allows_draws(&self, _round: usize) -> bool {
        true
    }

    fn champion(&self, field: &Field) -> Option<usize> {
        field.ranking().first().copied()
    }

    fn extend_summary(&self, _field: &Field, _summary: &mut Map<String, Value>) {}

    fn clone_box(&self) -> Box<dyn System> {
        Box::new(self.clone())
    }
}
