//! Swiss pairing, Monrad-style (`docs/tournaments.md`, "Pairing"): down the standings, no rematch
//! while a rematch-free pairing of everyone exists, fair byes.

use super::event::Outcome;
use super::matching::Matching;
use super::setup;
use super::system::{Entry, System};
use super::{Bye, Field, Match, Round};
use crate::error::Error;
use serde_json::{Map, Value};

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: "swiss",
    title: ["Swiss", "Système suisse"],
    options: &["rounds"],
    build,
};

fn build(map: &Map<String, Value>, entrants: usize) -> Result<Box<dyn System>, Error> {
    let rounds = setup::number(map, "rounds", 1, entrants as u64 - 1)?
        .map_or_else(|| usual_rounds(entrants), |n| n as usize);
    Ok(Box::new(Swiss { rounds }))
}

/// The usual number of rounds for `n` entrants (2 or more): ⌈log2 n⌉ + 1, at most n − 1. The
/// setup's default, for its entrants.
fn usual_rounds(n: usize) -> usize {
    let log2 = (usize::BITS - (n - 1).leading_zeros()) as usize;
    (log2 + 1).min(n - 1)
}

/// The rounds a `rounds` event may set now: from the round being played (or 1) to the
/// entrants less one, late entrants counted.
fn rounds_range(field: &Field) -> (usize, usize) {
    (field.rounds.len().max(1), field.entrants.len() - 1)
}

/// A Swiss tournament of a fixed number of rounds.
#[derive(Debug, Clone)]
pub struct Swiss {
    rounds: usize,
}

/// Pairs `ranked` (an even number of entrants, best first): the first pairing in rank order
/// (the best unpaired entrant takes the best partner it can) among those with the fewest
/// rematches. `times_met(a, b)` counts the matches `a` and `b` have played.
pub fn pair_ranked(ranked: &[usize], times_met: impl Fn(usize, usize) -> usize) -> Vec<[usize; 2]> {
    let n = ranked.len();
    let fresh = |u: usize, v: usize| times_met(ranked[u], ranked[v]) == 0;
    let mut matching = Matching::maximum(n, &fresh);
    // Every pair the largest rematch-free matching leaves out is one rematch.
    let fewest = n / 2 - matching.size();
    let mut alive = vec![true; n];
    let mut spent = 0;
    let mut pairs = Vec::with_capacity(n / 2);
    for a in 0..n {
        if !alive[a] {
            continue;
        }
        alive[a] = false;
        let left = alive.iter().filter(|&&x| x).count() - 1;
        let (b, cost, rest) = (a + 1..n)
            .filter(|&b| alive[b])
            .find_map(|b| {
                let cost = usize::from(!fresh(a, b));
                let rest = matching.without(a, b, &fresh);
                (spent + cost + left / 2 - rest.size() == fewest).then_some((b, cost, rest))
            })
            .expect("the best pairing extends the pairs fixed so far");
        alive[b] = false;
        spent += cost;
        matching = rest;
        pairs.push([ranked[a], ranked[b]]);
    }
    pairs
}

impl System for Swiss {
    fn name(&self) -> &'static str {
        ENTRY.name
    }

    fn rounds(&self, _field: &Field) -> usize {
        self.rounds
    }

    /// Within [`rounds_range`]: what the setup allows, with the field as it is now; and not
    /// the rounds already set: an event that changes nothing would be one that Undo takes back
    /// with nothing to see (a second tap on + before the screen redrew).
    fn set_rounds(&mut self, field: &Field, rounds: usize) -> Result<(), Error> {
        if rounds == self.rounds {
            return Err(
                Error::illegal(format!("the tournament plays {rounds} rounds already"))
                    .with_code("rounds_unchanged"),
            );
        }
        let (least, most) = rounds_range(field);
        if rounds < least || rounds > most {
            return Err(Error::illegal(format!(
                "the rounds must be from {least} to {most}, not {rounds}"
            ))
            .with_code("rounds_out_of_range"));
        }
        self.rounds = rounds;
        Ok(())
    }

    fn takes_late_entries(&self, _field: &Field) -> bool {
        true
    }

    fn pair(&mut self, field: &Field) -> Result<Round, Error> {
        let table = field.table();
        let mut ranked: Vec<usize> = field
            .ranking()
            .into_iter()
            .filter(|&e| !field.withdrawn[e])
            .collect();
        let mut round = Round::default();
        if ranked.len() % 2 == 1 {
            // The lowest-ranked entrant without a bye; everyone has had one: the lowest.
            let i = (0..ranked.len())
                .rev()
                .find(|&i| table.figures[ranked[i]].byes == 0)
                .unwrap_or(ranked.len() - 1);
            round.byes.push(Bye {
                table: None,
                entrant: ranked.remove(i),
            });
        }
        // How often each entrant sat as side 0 in the matches it played.
        let mut first = vec![0usize; field.entrants.len()];
        for m in field.rounds.iter().flat_map(|r| &r.matches) {
            if matches!(m.result, Some(Outcome::Played { .. })) {
                first[m.sides[0]] += 1;
            }
        }
        // How often each two met, read once into a table: the matching asks it for every pair
        // many times, and counting through every match played each time would cost late rounds
        // of a big field minutes.
        let n = field.entrants.len();
        let mut times = vec![0usize; n * n];
        for m in &table.meetings {
            let [a, b] = m.sides;
            times[a * n + b] += 1;
            times[b * n + a] += 1;
        }
        for (t, [high, low]) in pair_ranked(&ranked, |a, b| times[a * n + b])
            .into_iter()
            .enumerate()
        {
            let sides = if first[high] > first[low] {
                [low, high]
            } else {
                [high, low]
            };
            round.matches.push(Match {
                table: t,
                sides,
                result: None,
            });
        }
        Ok(round)
    }

    fn allows_draws(&self, _round: usize) -> bool {
        true
    }

    /// What the organiser may set the rounds to ([`rounds_range`]), and the usual number for
    /// the entrants still playing, so that the screens offer it without a rule of their own.
    fn extend_summary(&self, field: &Field, summary: &mut Map<String, Value>) {
        let (least, most) = rounds_range(field);
        let active = field.active().len();
        summary.insert(
            "rounds_choice".into(),
            serde_json::json!({"least": least, "most": most, "usual": usual_rounds(active),
                               "entrants": active}),
        );
    }

    fn champion(&self, field: &Field) -> Option<usize> {
        field.ranking().first().copied()
    }

    fn clone_box(&self) -> Box<dyn System> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::pair_ranked;
    use crate::tournament::Tournament;
    use serde_json::json;

    /// A result for a table the round does not have carries its code: the screen that sent it
    /// was behind, and reads the tournament again.
    #[test]
    fn a_result_for_no_table_of_the_round_says_so() {
        let four = json!([["A"], ["B"], ["C"], ["D"]]);
        let swiss =
            Tournament::setup(&json!({"game": "molkky", "system": "swiss", "entrants": four}))
                .unwrap()
                .play_json(&json!({"pair": {}}))
                .unwrap();
        let refused = swiss
            .play_json(&json!({"result": {"round": 1, "table": 2, "winner": 0, "scores": [1, 0]}}))
            .unwrap_err();
        assert_eq!(refused.error.code, Some("no_table"));
    }

    /// The refusals of the `rounds` event carry their codes, which the screens say in words.
    #[test]
    fn the_rounds_event_is_refused_with_its_codes() {
        let four = json!([["A"], ["B"], ["C"], ["D"]]);
        let swiss =
            Tournament::setup(&json!({"game": "molkky", "system": "swiss", "entrants": four}))
                .unwrap();
        let refused = swiss.play_json(&json!({"rounds": 4})).unwrap_err();
        assert_eq!(refused.error.code, Some("rounds_out_of_range"));
        assert_eq!(refused.state.summary()["rounds"], 3);
        let swiss = refused.state.play_json(&json!({"rounds": 2})).unwrap();
        assert_eq!(swiss.summary()["rounds"], 2);
        let refused = swiss.play_json(&json!({"rounds": 2})).unwrap_err();
        assert_eq!(refused.error.code, Some("rounds_unchanged"));
        assert_eq!(refused.state.summary()["rounds"], 2);
        let robin = Tournament::setup(
            &json!({"game": "molkky", "system": "round_robin", "entrants": four}),
        )
        .unwrap();
        let refused = robin.play_json(&json!({"rounds": 2})).unwrap_err();
        assert_eq!(refused.error.code, Some("rounds_fixed"));
    }

    #[test]
    fn the_fewest_rematches_in_the_order_of_the_standings() {
        // Six ranked entrants that have met but for 0-2, 1-3, 2-3, 2-4 and 3-5: one rematch at
        // least, and the first pairing in the standings' order with one is 0-1, 2-4, 3-5 (the
        // matching used to miss 2-4 and 3-5 once 0 and 1 were taken out, and paired 0-2, 1-3,
        // and 4-5).
        let fresh = [(0, 2), (1, 3), (2, 3), (2, 4), (3, 5)];
        let met = |u: usize, v: usize| usize::from(!fresh.contains(&(u.min(v), u.max(v))));
        let ranked: Vec<usize> = (0..6).collect();
        assert_eq!(pair_ranked(&ranked, met), vec![[0, 1], [2, 4], [3, 5]]);
    }
}
