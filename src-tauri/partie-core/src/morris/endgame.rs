//! Exact values of the moving phase with few pieces, computed by retrograde analysis.
//!
//! Two classes of positions are solved. Three pieces against three: any removal ends the game,
//! so they form one closed class. Four against three, either side to act: a quiet move stays in
//! the class, a mill of the four ends the game, and a mill of the three leads, after its
//! removal, into three against three, already solved. A value is a win or a loss in a number
//! of plies (the fewest a winner needs, the most a loser can hold out) or a draw. Repetition
//! does not enter: a winner who always shortens the distance never repeats a position, and a
//! draw stays a draw when repetition also draws. The quiet-move limit is the caller's (see
//! [`Table::settles`]).
//!
//! The tables depend on flying and on the diagonals. Each is built once per process, the first
//! time a strong level needs it: three against three in half a second (three with flying), four
//! against three in some seconds more.

use super::board::{Geometry, FULL};
use super::position::{each_bit, Position};
use super::rules::SameMill;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Marks a loss in the stored byte; the low bits are the distance.
const LOST: u8 = 0x80;

/// A position's exact value for the side to act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exact {
    /// The side to act wins in this many plies at the latest, against any defence.
    Won(u8),
    /// The side to act loses in this many plies, against the best attack.
    Lost(u8),
    /// Neither side can force a win.
    Drawn,
}

impl Exact {
    /// Whether a win or a loss still comes before the quiet-move draw, `quiet` moves having been
    /// made of `limit` (0: no limit), when no removal comes before the end. A result whose last
    /// move would come after the draw is a draw.
    pub fn holds(self, quiet: u16, limit: u16) -> Exact {
        match self {
            Exact::Won(n) | Exact::Lost(n) if limit > 0 && quiet + n as u16 > limit => Exact::Drawn,
            e => e,
        }
    }

    fn from_byte(v: u8) -> Exact {
        match v {
            0 => Exact::Drawn,
            v if v & LOST != 0 => Exact::Lost(v & !LOST),
            v => Exact::Won(v),
        }
    }
}

const fn binomials() -> [[u32; 5]; 25] {
    let mut c = [[0u32; 5]; 25];
    let mut n = 0;
    while n < 25 {
        c[n][0] = 1;
        let mut k = 1;
        while k < 5 {
            c[n][k] = if n == 0 {
                0
            } else {
                c[n - 1][k - 1] + c[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    c
}

const BINOMIAL: [[u32; 5]; 25] = binomials();

/// The rank of a set of up to four points among the sets of its size (combinatorial number
/// system).
#[inline]
fn rank(set: u32) -> usize {
    let mut r = 0;
    let mut k = 1;
    each_bit(set, |p| {
        r += BINOMIAL[p as usize][k];
        k += 1;
    });
    r as usize
}

/// `set` with the points of `taken` squeezed out, so that the other side's pieces count only
/// among the points left to them.
#[inline]
fn squeeze(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    each_bit(set, |p| {
        let below = (taken & ((1u32 << p) - 1)).count_ones();
        out |= 1 << (p as u32 - below);
    });
    out
}

/// Every set of `k` points among `among`.
fn sets(among: u32, k: u32) -> Vec<u32> {
    fn extend(among: u32, k: u32, chosen: u32, out: &mut Vec<u32>) {
        if k == 0 {
            out.push(chosen);
            return;
        }
        each_bit(among, |p| {
            // Only points above `p` stay available, so each set comes once, in order.
            extend(among & !((2u32 << p) - 1), k - 1, chosen | 1 << p, out)
        });
    }
    let mut out = Vec::new();
    extend(among, k, 0, &mut out);
    out
}

/// The values of the positions whose side to act has `mover` pieces against `other`.
struct Part {
    mover: u32,
    other: u32,
    /// How many ways the other side's pieces stand on the points left to them.
    rest: usize,
    values: Vec<u8>,
}

impl Part {
    fn new(mover: u32, other: u32) -> Part {
        let rest = BINOMIAL[24 - mover as usize][other as usize] as usize;
        let size = BINOMIAL[24][mover as usize] as usize * rest;
        Part {
            mover,
            other,
            rest,
            values: vec![0; size],
        }
    }

    #[inline]
    fn index(&self, mover: u32, other: u32) -> usize {
        rank(mover) * self.rest + rank(squeeze(other, mover))
    }

    fn value(&self, mover: u32, other: u32) -> Exact {
        Exact::from_byte(self.values[self.index(mover, other)])
    }
}

/// The sets of a part's positions by their index: the inverse of [`Part::index`].
struct Unrank {
    movers: Vec<u32>,
    /// The other side's sets, squeezed (among the points the mover leaves), by rank.
    others: Vec<u32>,
    rest: usize,
}

impl Unrank {
    fn new(part: &Part) -> Unrank {
        let by_rank = |among: u32, k: u32| {
            let mut v = sets(among, k);
            v.sort_unstable_by_key(|&s| rank(s));
            v
        };
        Unrank {
            movers: by_rank(FULL, part.mover),
            // Ranks do not depend on how many points there are: the sets among the lowest
            // points come first.
            others: by_rank(FULL >> part.mover, part.other),
            rest: part.rest,
        }
    }

    fn sets(&self, i: usize) -> (u32, u32) {
        let mover = self.movers[i / self.rest];
        let squeezed = self.others[i % self.rest];
        // The j-th point the mover leaves, for each j in the squeezed set.
        let (mut other, mut j) = (0, 0);
        each_bit(FULL & !mover, |p| {
            if squeezed & 1 << j != 0 {
                other |= 1 << p;
            }
            j += 1;
        });
        (mover, other)
    }
}

/// Puts `entry` in `lists[at]`, making room.
fn push_at(lists: &mut Vec<Vec<u32>>, at: usize, entry: u32) {
    if lists.len() <= at {
        lists.resize(at + 1, Vec::new());
    }
    lists[at].push(entry);
}

/// Solves the positions of `a` pieces against `b` (with either side to act). A mill against
/// three pieces wins; a mill against more takes a piece into `lower`, the solved class below.
fn solve(g: &Geometry, flying: bool, a: u32, b: u32, lower: Option<&[Part]>) -> Vec<Part> {
    let mut parts = vec![Part::new(a, b)];
    if a != b {
        parts.push(Part::new(b, a));
    }
    let closes = |own: u32, to: u8| g.mills_through(own, to) != 0;
    let targets = |pieces: u32, from: u8, empty: u32| {
        if flying && pieces == 3 {
            empty
        } else {
            g.adjacent[from as usize] & empty
        }
    };
    // The value, for the side then to act, after a mill and a removal.
    let exit = |mover: u32, other: u32| -> Exact {
        let lower = lower.expect("a mill against more than three pieces leads to a solved class");
        let part = lower
            .iter()
            .find(|p| p.mover == mover.count_ones() && p.other == other.count_ones())
            .expect("the class below has the part");
        part.value(mover, other)
    };
    // Quiet moves (and drawn or won ways out) not yet known to lose, per position.
    let mut moves_left: Vec<Vec<u8>> = parts.iter().map(|p| vec![0; p.values.len()]).collect();
    // The longest loss among the mills that lead out of the class, per position (only a side
    // whose mill does not end the game has any).
    let mut longest: Vec<Vec<u8>> = parts
        .iter()
        .map(|p| vec![0; if p.other > 3 { p.values.len() } else { 0 }])
        .collect();
    // Positions by their distance: a loss at once (0), a win in one ply (1), and so on; and the
    // positions won by a mill out of the class, by the distance of the loss they leave. Each is
    // held as its part (the top bit) and its index: these lists are most of the memory the
    // computation takes, and two sets would take twice the room.
    let mut layers: Vec<Vec<u32>> = vec![Vec::new(), Vec::new()];
    let mut wins_out: Vec<Vec<u32>> = Vec::new();
    let unrank: Vec<Unrank> = parts.iter().map(Unrank::new).collect();
    let entry = |k: usize, i: usize| (k as u32) << 31 | i as u32;
    let split = |entry: u32| ((entry >> 31) as usize, (entry & !(1 << 31)) as usize);
    for (k, part) in parts.iter_mut().enumerate() {
        for mover in sets(FULL, part.mover) {
            for other in sets(FULL & !mover, part.other) {
                let empty = FULL & !(mover | other);
                let (mut quiet, mut best_win, mut worst, mut drawn) = (0u8, None::<u8>, 0u8, false);
                each_bit(mover, |from| {
                    each_bit(targets(part.mover, from, empty), |to| {
                        let after = mover & !(1 << from) | 1 << to;
                        if !closes(after, to) {
                            quiet += 1;
                        } else if part.other == 3 {
                            best_win = Some(1); // two pieces left: lost
                        } else {
                            let free = other & !g.in_mills(other);
                            let removable = if free != 0 { free } else { other };
                            each_bit(removable, |r| match exit(other & !(1 << r), after) {
                                Exact::Lost(n) => {
                                    best_win = Some(best_win.map_or(n + 1, |w| w.min(n + 1)))
                                }
                                Exact::Won(n) => worst = worst.max(n + 1),
                                Exact::Drawn => drawn = true,
                            });
                        }
                    })
                });
                let i = part.index(mover, other);
                match best_win {
                    Some(1) => {
                        part.values[i] = 1;
                        layers[1].push(entry(k, i));
                    }
                    Some(w) => {
                        // Known won, but a quiet move may win sooner: settled at its distance.
                        moves_left[k][i] = u8::MAX;
                        push_at(&mut wins_out, w as usize - 1, entry(k, i));
                    }
                    None if quiet == 0 && !drawn => {
                        part.values[i] = LOST | worst;
                        push_at(&mut layers, worst as usize, entry(k, i));
                    }
                    None => {
                        // A drawn way out is a child that never resolves.
                        moves_left[k][i] = quiet + drawn as u8;
                        if worst > 0 {
                            longest[k][i] = worst;
                        }
                    }
                }
            }
        }
    }
    // Back from each settled position to the positions one quiet move before it, a whole
    // distance at a time, so that each value is the shortest win or the longest loss.
    let mut distance = 0;
    while distance < layers.len().max(wins_out.len()) {
        let next = distance as u8 + 1;
        assert!(next < LOST, "a distance fits in seven bits");
        if let Some(won) = wins_out.get_mut(distance).map(std::mem::take) {
            for e in won {
                let (k, i) = split(e);
                if parts[k].values[i] == 0 {
                    parts[k].values[i] = next;
                    push_at(&mut layers, distance + 1, e);
                }
            }
        }
        let layer = layers
            .get_mut(distance)
            .map(std::mem::take)
            .unwrap_or_default();
        for &e in &layer {
            let (k, i) = split(e);
            let lost = parts[k].values[i] & LOST != 0;
            let (mover, other) = unrank[k].sets(i);
            let empty = FULL & !(mover | other);
            // The position before, with `other` to act: the other part (or the same one, when
            // both sides have as many pieces).
            let k = (k + 1) % parts.len();
            let pieces = other.count_ones();
            // `other` moved last, from an empty point, without closing a mill.
            each_bit(other, |to| {
                if closes(other, to) {
                    return;
                }
                each_bit(targets(pieces, to, empty), |from| {
                    let before = other & !(1 << to) | 1 << from;
                    let part = &mut parts[k];
                    let i = part.index(before, mover);
                    if part.values[i] != 0 {
                        return;
                    }
                    if lost {
                        part.values[i] = next;
                        push_at(&mut layers, distance + 1, entry(k, i));
                    } else {
                        moves_left[k][i] -= 1;
                        if moves_left[k][i] == 0 {
                            // Lost, but not before its longest way out.
                            let n = next.max(longest[k].get(i).copied().unwrap_or(0));
                            part.values[i] = LOST | n;
                            push_at(&mut layers, n as usize, entry(k, i));
                        }
                    }
                })
            });
        }
        distance += 1;
    }
    parts
}

/// The exact tables of one board and flying rule: three against three, and four against three.
/// Each is filled when computed; until then it answers nothing.
pub struct Table {
    flying: bool,
    diagonals: bool,
    three: OnceLock<Part>,
    four: OnceLock<[Part; 2]>,
}

impl Table {
    const fn empty(flying: bool, diagonals: bool) -> Table {
        Table {
            flying,
            diagonals,
            three: OnceLock::new(),
            four: OnceLock::new(),
        }
    }

    /// Computes both tables of one board (`diagonals`) and flying rule.
    pub fn compute(flying: bool, diagonals: bool) -> Table {
        let table = Table::empty(flying, diagonals);
        table.fill();
        table
    }

    /// Computes what is not yet computed, three against three first (four against three needs
    /// it).
    fn fill(&self) {
        let g = Geometry::get(self.diagonals);
        let three = self.three.get_or_init(|| {
            let mut parts = solve(g, self.flying, 3, 3, None);
            parts.pop().expect("one part")
        });
        self.four.get_or_init(|| {
            let parts = solve(g, self.flying, 4, 3, Some(std::slice::from_ref(three)));
            let [a, b]: [Part; 2] = parts.try_into().ok().expect("two parts");
            [a, b]
        });
    }

    /// The value of the side to act, which has `mover`, against `other`: three or four points
    /// each, at most seven in all. `None` when that table is not computed yet.
    pub fn value(&self, mover: u32, other: u32) -> Option<Exact> {
        match (mover.count_ones(), other.count_ones()) {
            (3, 3) => Some(self.three.get()?.value(mover, other)),
            (4, 3) => Some(self.four.get()?[0].value(mover, other)),
            (3, 4) => Some(self.four.get()?[1].value(mover, other)),
            _ => None,
        }
    }

    /// The value of `pos` when a computed table covers it: the moving phase, three or four
    /// pieces against three, no removal owed, the same board and flying rule, and mills that
    /// give a removal each time they close (under "once", earlier mills change what a move is
    /// worth).
    pub fn probe(&self, pos: &Position) -> Option<Exact> {
        let r = pos.rules();
        let covered = pos.is_moving()
            && pos.pending() == 0
            && r.same_mill == SameMill::Again
            && r.flying == self.flying
            && r.diagonals == self.diagonals;
        if !covered {
            return None;
        }
        let me = pos.turn();
        self.value(pos.board(me), pos.board(1 - me))
    }

    /// What a search may take as the result of `pos`, counting the quiet-move draw: the
    /// table's value when it comes before the draw; a draw in three against three, where no
    /// removal comes before the end; and nothing in four against three, where a removal on
    /// the way starts the count again.
    pub fn settles(&self, pos: &Position) -> Option<Exact> {
        let exact = self.probe(pos)?;
        let (quiet, limit) = (pos.quiet(), pos.rules().quiet_moves);
        match exact.holds(quiet, limit) {
            Exact::Drawn if exact != Exact::Drawn && pos.on_board(0) + pos.on_board(1) > 6 => None,
            e => Some(e),
        }
    }

    /// The tables for a game's rules, computed now if they are not yet (some seconds); `None`
    /// when no table covers those rules.
    pub fn for_rules(pos: &Position) -> Option<&'static Table> {
        let table = &TABLES[slot(pos)?];
        table.fill();
        Some(table)
    }

    /// The tables for a game's rules, their computation started in the background (once) if
    /// it is not yet, so that a search on a clock never waits: a table not yet computed
    /// answers nothing.
    pub fn ready(pos: &Position) -> Option<&'static Table> {
        let slot = slot(pos)?;
        if !STARTED[slot].swap(true, Ordering::Relaxed) {
            std::thread::spawn(move || TABLES[slot].fill());
        }
        Some(&TABLES[slot])
    }
}

/// Solves four pieces against four (the next class up, which the app does not compute) over
/// three against three and four against three, and counts its positions won, lost and drawn
/// for the side to act: what the next table would cost (`--example tables four`).
pub fn four_against_four(flying: bool, diagonals: bool) -> [u64; 3] {
    let g = Geometry::get(diagonals);
    let three = solve(g, flying, 3, 3, None);
    let four = solve(g, flying, 4, 3, Some(&three));
    let mut counts = [0; 3];
    for part in solve(g, flying, 4, 4, Some(&four)) {
        for &v in &part.values {
            counts[match Exact::from_byte(v) {
                Exact::Won(_) => 0,
                Exact::Lost(_) => 1,
                Exact::Drawn => 2,
            }] += 1;
        }
    }
    counts
}

static TABLES: [Table; 4] = [
    Table::empty(false, false),
    Table::empty(false, true),
    Table::empty(true, false),
    Table::empty(true, true),
];
static STARTED: [AtomicBool; 4] = [const { AtomicBool::new(false) }; 4];

/// Which of the four tables (flying or not, diagonals or not) covers these rules.
fn slot(pos: &Position) -> Option<usize> {
    let r = pos.rules();
    (r.same_mill == SameMill::Again).then_some(r.flying as usize * 2 + r.diagonals as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_number_every_set_once() {
        for (k, count) in [(3, 2024), (4, 10626)] {
            let all = sets(FULL, k);
            assert_eq!(all.len(), count);
            let mut seen = vec![false; count];
            for s in all {
                assert!(!std::mem::replace(&mut seen[rank(s)], true));
            }
        }
        let mover = 1 | 1 << 5 | 1 << 17 | 1 << 23;
        for (k, count) in [(3, 1140), (4, 4845)] {
            let rest = sets(FULL & !mover, k);
            assert_eq!(rest.len(), count);
            let mut seen = vec![false; count];
            for s in rest {
                assert!(!std::mem::replace(&mut seen[rank(squeeze(s, mover))], true));
            }
        }
    }

    #[test]
    fn unranking_gives_back_the_sets_of_an_index() {
        for (a, b) in [(3, 3), (4, 3), (3, 4)] {
            let part = Part::new(a, b);
            let unrank = Unrank::new(&part);
            for mover in sets(FULL, a).into_iter().step_by(97) {
                for other in sets(FULL & !mover, b) {
                    assert_eq!(unrank.sets(part.index(mover, other)), (mover, other));
                }
            }
        }
    }
}
