//! Pools then knockout (`docs/tournaments.md`, "Pairing"): snake-seeded pools play round robins in
//! parallel, then the best of each pool play a main knockout and the others a consolation
//! knockout, in the same rounds.

use super::round_robin::{circle_round, positions, rounds_for};
use super::setup;
use super::system::{Entry, System};
use super::{Bye, Field, Match, Round};
use crate::error::Error;
use serde::Serialize;
use serde_json::{Map, Value};

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: "pools_knockout",
    title: ["Pools, then knockout", "Poules, puis élimination"],
    options: &["pool_size", "advance"],
    build,
};

fn build(map: &Map<String, Value>, _entrants: usize) -> Result<Box<dyn System>, Error> {
    Ok(Box::new(Pools {
        pool_size: setup::number(map, "pool_size", 3, 6)?.unwrap_or(4) as usize,
        advance: setup::number(map, "advance", 1, 2)?.unwrap_or(2) as usize,
        pools: None,
        knockout: None,
    }))
}

/// Pools then knockout.
#[derive(Debug, Clone)]
pub struct Pools {
    pool_size: usize,
    advance: usize,
    /// Each pool's entrants in seed order, dealt at the first `pair`.
    pools: Option<Vec<Vec<usize>>>,
    /// The two brackets, seeded when the pools are over.
    knockout: Option<Knockout>,
}

#[derive(Debug, Clone)]
struct Knockout {
    /// The tournament round (from 1) of the knockouts' first round.
    first_round: usize,
    /// The main knockout, then the consolation.
    brackets: [Bracket; 2],
}

/// One knockout bracket: its first round's slots, and per round what pairing decided.
#[derive(Debug, Clone, Default)]
struct Bracket {
    slots: Vec<Option<usize>>,
    /// Per round paired, per match: the table it is played at, if it is played.
    tables: Vec<Vec<Option<usize>>>,
    /// Per round paired, per match not played: who went through (a bye, a walkover).
    through: Vec<Vec<Option<usize>>>,
}

#[derive(Serialize)]
struct BracketMatch {
    sides: [Option<usize>; 2],
    winner: Option<usize>,
}

/// A pool's letters: A to Z, then AA, AB… (a big field has more than 26 pools), as the screens
/// name them.
pub(super) fn letters(i: usize) -> String {
    let mut name = Vec::new();
    let mut n = i + 1;
    while n > 0 {
        name.push(b'A' + ((n - 1) % 26) as u8);
        n = (n - 1) / 26;
    }
    name.reverse();
    String::from_utf8(name).expect("ASCII letters")
}

/// Deals `entrants` (seed order) into `count` pools by snake seeding.
fn deal(entrants: &[usize], count: usize) -> Vec<Vec<usize>> {
    let mut pools = vec![Vec::new(); count];
    for (i, &e) in entrants.iter().enumerate() {
        let (row, col) = (i / count, i % count);
        let p = if row % 2 == 0 { col } else { count - 1 - col };
        pools[p].push(e);
    }
    pools
}

/// Seeds 1..=size in the standard bracket order (1 v 16, 8 v 9, 5 v 12, 4 v 13, ...).
fn standard_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    order
}

/// Rounds of a knockout of `n` entrants.
fn knockout_rounds(n: usize) -> usize {
    n.max(1).next_power_of_two().trailing_zeros() as usize
}

impl Bracket {
    /// A bracket of `seeded` (best first); two entrants of one pool do not meet in the first
    /// round when a swap of lower seeds avoids it.
    fn seed(seeded: &[usize], pool_of: impl Fn(usize) -> usize) -> Self {
        if seeded.is_empty() {
            return Bracket::default();
        }
        let size = seeded.len().next_power_of_two();
        let mut slots: Vec<Option<usize>> = standard_order(size)
            .into_iter()
            .map(|s| seeded.get(s - 1).copied())
            .collect();
        let seed_of = |e: usize| seeded.iter().position(|&x| x == e).expect("a seed");
        let clash = |slots: &[Option<usize>], m: usize| match (slots[2 * m], slots[2 * m + 1]) {
            (Some(a), Some(b)) => pool_of(a) == pool_of(b),
            _ => false,
        };
        for m in 0..size / 2 {
            if !clash(&slots, m) {
                continue;
            }
            let lower = slots[2 * m + 1].expect("a clash has two sides");
            // The lower seeds of the other matches, nearest in seed first.
            let mut others: Vec<usize> = (0..size / 2)
                .filter(|&o| o != m && slots[2 * o + 1].is_some())
                .collect();
            others.sort_by_key(|&o| {
                let s = seed_of(slots[2 * o + 1].expect("filtered"));
                (s.abs_diff(seed_of(lower)), s)
            });
            for o in others {
                let mut tried = slots.clone();
                tried.swap(2 * m + 1, 2 * o + 1);
                if !clash(&tried, m) && !clash(&tried, o) {
                    slots = tried;
                    break;
                }
            }
        }
        Bracket {
            slots,
            ..Bracket::default()
        }
    }

    fn rounds(&self) -> usize {
        knockout_rounds(self.slots.len())
    }

    /// Who went through match `i` of round `j`, as far as known.
    fn winner(&self, first_round: usize, field: &Field, j: usize, i: usize) -> Option<usize> {
        match self.tables.get(j).map(|t| t[i]) {
            None => None,
            Some(None) => self.through[j][i],
            Some(Some(table)) => {
                let m = field.rounds[first_round - 1 + j]
                    .matches
                    .iter()
                    .find(|m| m.table == table)?;
                m.result.as_ref()?.winner().map(|s| m.sides[s])
            }
        }
    }

    /// The sides of round `j`, as far as known.
    fn sides(&self, first_round: usize, field: &Field, j: usize) -> Vec<Option<usize>> {
        if j == 0 {
            return self.slots.clone();
        }
        (0..self.slots.len() >> j)
            .map(|i| self.winner(first_round, field, j - 1, i))
            .collect()
    }

    fn view(&self, first_round: usize, field: &Field) -> Vec<Vec<BracketMatch>> {
        (0..self.rounds())
            .map(|j| {
                let sides = self.sides(first_round, field, j);
                (0..sides.len() / 2)
                    .map(|i| BracketMatch {
                        sides: [sides[2 * i], sides[2 * i + 1]],
                        winner: self.winner(first_round, field, j, i),
                    })
                    .collect()
            })
            .collect()
    }

    /// The champion: the final's winner (a bracket of one needs no final).
    fn champion(&self, first_round: usize, field: &Field) -> Option<usize> {
        match self.rounds() {
            0 => self.slots.first().copied().flatten(),
            r => self.winner(first_round, field, r - 1, 0),
        }
    }
}

impl Pools {
    fn pool_rounds(pools: &[Vec<usize>]) -> usize {
        pools.iter().map(|p| rounds_for(p.len())).max().unwrap_or(0)
    }

    fn pool_count(&self, n: usize) -> usize {
        n.div_ceil(self.pool_size).max(1)
    }

    /// The pools, dealt now from the active entrants if the first round has not fixed them.
    fn dealt(&self, field: &Field) -> Vec<Vec<usize>> {
        self.pools.clone().unwrap_or_else(|| {
            let active = field.active();
            deal(&active, self.pool_count(active.len()))
        })
    }

    /// The knockouts as seeded, or as they would be seeded from the standings now.
    fn knockout_or_seed(
        &self,
        pools: &[Vec<usize>],
        field: &Field,
    ) -> std::borrow::Cow<'_, Knockout> {
        match &self.knockout {
            Some(k) => std::borrow::Cow::Borrowed(k),
            None => std::borrow::Cow::Owned(self.seed(pools, field)),
        }
    }

    /// The two brackets from the pools' standings, starting after the pools' last round.
    fn seed(&self, pools: &[Vec<usize>], field: &Field) -> Knockout {
        let pool_of = |e: usize| pools.iter().position(|p| p.contains(&e)).expect("a pool");
        let [main, consolation] = self.advancing(pools, field);
        Knockout {
            first_round: Self::pool_rounds(pools) + 1,
            brackets: [
                Bracket::seed(&main, pool_of),
                Bracket::seed(&consolation, pool_of),
            ],
        }
    }

    /// Who goes to the main and to the consolation knockout, each best seed first.
    fn advancing(&self, pools: &[Vec<usize>], field: &Field) -> [Vec<usize>; 2] {
        let table = field.table();
        let finish: Vec<Vec<usize>> = pools
            .iter()
            .map(|p| {
                table
                    .rank(p, &field.keys)
                    .into_iter()
                    .filter(|&e| !field.withdrawn[e])
                    .collect()
            })
            .collect();
        let places = finish.iter().map(Vec::len).max().unwrap_or(0);
        let mut out = [Vec::new(), Vec::new()];
        for place in 0..places {
            let at_place: Vec<usize> = finish
                .iter()
                .filter_map(|p| p.get(place).copied())
                .collect();
            let which = usize::from(place >= self.advance);
            out[which].extend(table.rank(&at_place, &field.keys));
        }
        out
    }
}

/// The rows of the summary's list `key`, to be marked in place.
fn rows<'a>(summary: &'a mut Map<String, Value>, key: &str) -> impl Iterator<Item = &'a mut Value> {
    summary
        .get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

/// An entrant as the summary holds it.
fn index(v: &Value) -> Option<usize> {
    v.as_u64().and_then(|e| usize::try_from(e).ok())
}

impl Pools {
    /// What the screens group by, said in the summary so that each screen only labels it.
    /// While more than one pool plays, each standings row has its `pool` and `pool_rank` (its
    /// place in its pool among those still in, which is what sends it on; a row may carry more
    /// than the spec's figures; a withdrawn entrant has no `pool_rank`, and one withdrawn
    /// before the pools were dealt no `pool`), and `table_groups` lists each pool's tables
    /// this round, `{"pool", "tables"}`; once there are two knockouts, `{"bracket": "main" |
    /// "consolation", "tables"}`. A pairing stays the spec's `{table, sides, result}`. One
    /// knockout alone is not named: `[]`.
    fn mark_groups(&self, pools: &[Vec<usize>], field: &Field, summary: &mut Map<String, Value>) {
        let pool_of = |e: usize| pools.iter().position(|p| p.contains(&e));
        let round = field.rounds.last();
        let mut groups: Vec<Value> = Vec::new();
        match &self.knockout {
            None if pools.len() > 1 => {
                // A withdrawn entrant is in its pool but has no place there: it goes on to no
                // knockout (`advancing`). One withdrawn before the pools were dealt is in none.
                let mut placed = vec![0usize; pools.len()];
                for r in rows(summary, "standings") {
                    if let Some(i) = index(&r["entrant"]).and_then(pool_of) {
                        r["pool"] = i.into();
                        if r["withdrawn"] != true {
                            placed[i] += 1;
                            r["pool_rank"] = placed[i].into();
                        }
                    }
                }
                let mut tables = vec![Vec::new(); pools.len()];
                for m in round.map_or(&[][..], |r| r.matches.as_slice()) {
                    if let Some(i) = pool_of(m.sides[0]) {
                        tables[i].push(m.table);
                    }
                }
                groups = (0..pools.len())
                    .filter(|&i| !tables[i].is_empty())
                    .map(|i| serde_json::json!({"pool": i, "tables": tables[i]}))
                    .collect();
            }
            Some(ko) if ko.brackets[1].rounds() > 0 => {
                // This round's tables in each bracket, as `pair` dealt them.
                let j = field.rounds.len().checked_sub(ko.first_round);
                for (name, b) in ["main", "consolation"].into_iter().zip(&ko.brackets) {
                    let tables: Vec<usize> = j
                        .and_then(|j| b.tables.get(j))
                        .map(|t| t.iter().flatten().copied().collect())
                        .unwrap_or_default();
                    if !tables.is_empty() {
                        groups.push(serde_json::json!({"bracket": name, "tables": tables}));
                    }
                }
            }
            _ => {}
        }
        summary.insert("table_groups".into(), groups.into());
    }
}

impl System for Pools {
    fn name(&self) -> &'static str {
        ENTRY.name
    }

    fn rounds(&self, field: &Field) -> usize {
        let pools = self.dealt(field);
        let knockout = self.knockout_or_seed(&pools, field);
        Self::pool_rounds(&pools)
            + knockout
                .brackets
                .iter()
                .map(Bracket::rounds)
                .max()
                .unwrap_or(0)
    }

    fn takes_late_entries(&self, field: &Field) -> bool {
        field.rounds.is_empty()
    }

    fn pair(&mut self, field: &Field) -> Result<Round, Error> {
        let k = field.rounds.len() + 1;
        let pools = match &self.pools {
            Some(p) => p,
            None => self.pools.insert(self.dealt(field)),
        };
        let pool_rounds = Self::pool_rounds(pools);
        if k <= pool_rounds {
            let mut round = Round::default();
            let mut first_table = 0;
            for pool in pools.iter() {
                let r = circle_round(pool, k, &field.withdrawn, first_table);
                round.matches.extend(r.matches);
                round.byes.extend(r.byes);
                first_table += positions(pool.len()) / 2;
            }
            return Ok(round);
        }
        if self.knockout.is_none() {
            let pools = self.pools.clone().expect("dealt above");
            self.knockout = Some(self.seed(&pools, field));
        }
        let ko = self.knockout.as_mut().expect("seeded above");
        let j = k - ko.first_round;
        let mut round = Round::default();
        let mut table = 0;
        for b in 0..2 {
            let bracket = &ko.brackets[b];
            if j >= bracket.rounds() {
                continue;
            }
            let sides = bracket.sides(ko.first_round, field, j);
            let mut tables = Vec::new();
            let mut through = Vec::new();
            for i in 0..sides.len() / 2 {
                let (a, c) = (sides[2 * i], sides[2 * i + 1]);
                let playing = |s: Option<usize>| s.filter(|&e| !field.withdrawn[e]);
                match (playing(a), playing(c)) {
                    (Some(x), Some(y)) => {
                        round.matches.push(Match {
                            table,
                            sides: [x, y],
                            result: None,
                        });
                        tables.push(Some(table));
                        through.push(None);
                        table += 1;
                    }
                    (Some(e), None) | (None, Some(e)) => {
                        if j == 0 && (a.is_none() || c.is_none()) {
                            round.byes.push(Bye {
                                table: None,
                                entrant: e,
                            });
                        } else {
                            round.walkovers.push(e);
                        }
                        tables.push(None);
                        through.push(Some(e));
                    }
                    (None, None) => {
                        tables.push(None);
                        through.push(None);
                    }
                }
            }
            let bracket = &mut ko.brackets[b];
            bracket.tables.push(tables);
            bracket.through.push(through);
        }
        Ok(round)
    }

    fn allows_draws(&self, round: usize) -> bool {
        self.knockout.as_ref().is_none_or(|k| round < k.first_round)
    }

    fn champion(&self, field: &Field) -> Option<usize> {
        let ko = self.knockout_or_seed(&self.dealt(field), field);
        ko.brackets[0].champion(ko.first_round, field)
    }

    fn bye(&self, round: Option<&Round>) -> Value {
        round
            .map(|r| r.byes.iter().map(|b| Value::from(b.entrant)).collect())
            .unwrap_or_else(|| Value::Array(Vec::new()))
    }

    fn extend_summary(&self, field: &Field, summary: &mut Map<String, Value>) {
        let (main, consolation) = match &self.knockout {
            Some(k) => (
                k.brackets[0].view(k.first_round, field),
                k.brackets[1].view(k.first_round, field),
            ),
            None => (Vec::new(), Vec::new()),
        };
        summary.insert(
            "bracket".into(),
            serde_json::json!({"main": main, "consolation": consolation}),
        );
        match &self.pools {
            Some(pools) => {
                self.mark_groups(pools, field, summary);
                summary.insert("pools".into(), serde_json::json!(pools));
            }
            None => {
                summary.insert("table_groups".into(), Value::Array(Vec::new()));
            }
        }
    }

    fn clone_box(&self) -> Box<dyn System> {
        Box::new(self.clone())
    }
}
