//! Exact values of the moving phase with three pieces a side, computed by retrograde analysis.
//!
//! With three pieces each, any removal ends the game, so the positions form one closed table:
//! 2,024 ways to stand three pieces on 24 points times 1,330 ways for the other three, with
//! the side to act first. A value is a win or a loss in a number of plies (the fewest a winner
//! needs, the most a loser can hold out) or a draw. Repetition does not enter: a winner who
//! always shortens the distance never repeats a position, and a draw stays a draw when
//! repetition also draws. The quiet-move limit is the caller's (see [`Exact::holds`]).
//!
//! A table depends on flying and on the diagonals; it is built once per process, in about a
//! second, the first time a strong level needs it.

use super::board::{Geometry, FULL};
use super::position::{each_bit, Position};
use super::rules::SameMill;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Three pieces among 24 points.
const SETS: usize = 2024;
/// The other side's three pieces among the 21 points left.
const REST: usize = 1330;
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
    /// made of `limit` (0: no limit). A result whose last move would come after the draw is a
    /// draw.
    pub fn holds(self, quiet: u16, limit: u16) -> Exact {
        match self {
            Exact::Won(n) | Exact::Lost(n) if limit > 0 && quiet + n as u16 > limit => Exact::Drawn,
            e => e,
        }
    }
}

/// The values of every position with three pieces a side, for one board and flying rule.
pub struct Table {
    values: Vec<u8>,
    flying: bool,
    diagonals: bool,
}

const fn binomials() -> [[u32; 4]; 25] {
    let mut c = [[0u32; 4]; 25];
    let mut n = 0;
    while n < 25 {
        c[n][0] = 1;
        let mut k = 1;
        while k < 4 {
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

const BINOMIAL: [[u32; 4]; 25] = binomials();

/// The rank of a three-point set among all sets of three (combinatorial number system).
#[inline]
fn rank(set: u32) -> usize {
    let a = set.trailing_zeros() as usize;
    let rest = set & (set - 1);
    let b = rest.trailing_zeros() as usize;
    let c = (rest & (rest - 1)).trailing_zeros() as usize;
    (BINOMIAL[a][1] + BINOMIAL[b][2] + BINOMIAL[c][3]) as usize
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

#[inline]
fn index(mover: u32, other: u32) -> usize {
    rank(mover) * REST + rank(squeeze(other, mover))
}

/// Every set of three points.
fn sets(among: u32) -> Vec<u32> {
    let mut out = Vec::new();
    each_bit(among, |a| {
        each_bit(among & !((2u32 << a) - 1), |b| {
            each_bit(among & !((2u32 << b) - 1), |c| {
                out.push(1 << a | 1 << b | 1 << c);
            })
        })
    });
    out
}

impl Table {
    /// Computes the table of one board (`diagonals`) and flying rule.
    pub fn compute(flying: bool, diagonals: bool) -> Table {
        let g = Geometry::get(diagonals);
        let mut values = vec![0u8; SETS * REST];
        let mut moves_left = vec![0u8; SETS * REST];
        let closes = |own: u32, to: u8| g.through[to as usize].iter().any(|&l| l & !own == 0);
        let targets = |from: u8, empty: u32| {
            if flying {
                empty
            } else {
                g.adjacent[from as usize] & empty
            }
        };
        // Settled now: a side that can close a mill wins at once, a side that cannot move loses.
        // Positions by their distance: a loss at once (0), a win in one ply (1), and so on.
        let mut layers: Vec<Vec<(u32, u32)>> = vec![Vec::new(), Vec::new()];
        let all = sets(FULL);
        for &mover in &all {
            for other in sets(FULL & !mover) {
                let empty = FULL & !(mover | other);
                let mut count = 0u32;
                let mut wins = false;
                if flying {
                    // Any piece may fly, and the third piece is never on the line it completes.
                    count = 3 * empty.count_ones();
                    wins = g
                        .lines
                        .iter()
                        .any(|&l| (mover & l).count_ones() == 2 && empty & l != 0);
                } else {
                    each_bit(mover, |a| {
                        each_bit(targets(a, empty), |b| {
                            count += 1;
                            wins |= closes(mover & !(1 << a) | 1 << b, b);
                        })
                    });
                }
                let i = index(mover, other);
                if wins {
                    values[i] = 1;
                    layers[1].push((mover, other));
                } else if count == 0 {
                    values[i] = LOST;
                    layers[0].push((mover, other));
                } else {
                    moves_left[i] = count as u8;
                }
            }
        }
        // Back from each settled position to the positions one quiet move before it, a whole
        // distance at a time, so that each value is the shortest win or the longest loss.
        let mut distance = 0;
        while distance < layers.len() {
            let layer = std::mem::take(&mut layers[distance]);
            let next = distance as u8 + 1;
            assert!(next < LOST, "a distance fits in seven bits");
            let mut found = Vec::new();
            for &(mover, other) in &layer {
                let lost = values[index(mover, other)] & LOST != 0;
                let empty = FULL & !(mover | other);
                // `other` moved last, from an empty point, without closing a mill.
                each_bit(other, |to| {
                    if closes(other, to) {
                        return;
                    }
                    each_bit(targets(to, empty), |from| {
                        let before = other & !(1 << to) | 1 << from;
                        let i = index(before, mover);
                        if values[i] != 0 {
                            return;
                        }
                        if lost {
                            values[i] = next;
                            found.push((before, mover));
                        } else {
                            moves_left[i] -= 1;
                            if moves_left[i] == 0 {
                                values[i] = LOST | next;
                                found.push((before, mover));
                            }
                        }
                    })
                });
            }
            if !found.is_empty() {
                if layers.len() <= distance + 1 {
                    layers.push(Vec::new());
                }
                layers[distance + 1].extend(found);
            }
            distance += 1;
        }
        Table {
            values,
            flying,
            diagonals,
        }
    }

    /// The value of the side to act, which has `mover`, against `other` (three points each).
    pub fn value(&self, mover: u32, other: u32) -> Exact {
        match self.values[index(mover, other)] {
            0 => Exact::Drawn,
            v if v & LOST != 0 => Exact::Lost(v & !LOST),
            v => Exact::Won(v),
        }
    }

    /// The value of `pos` when the table covers it: the moving phase, three pieces a side, no
    /// removal owed, the same board and flying rule, and mills that give a removal each time
    /// they close (under "once", earlier mills change what a move is worth).
    pub fn probe(&self, pos: &Position) -> Option<Exact> {
        let r = pos.rules();
        let covered = pos.is_moving()
            && pos.pending() == 0
            && pos.on_board(0) == 3
            && pos.on_board(1) == 3
            && r.same_mill == SameMill::Again
            && r.flying == self.flying
            && r.diagonals == self.diagonals;
        covered.then(|| {
            let me = pos.turn();
            self.value(pos.board(me), pos.board(1 - me))
        })
    }

    /// The table for a game's rules, computed now if it is not yet (about a second); `None`
    /// when no table covers those rules.
    pub fn for_rules(pos: &Position) -> Option<&'static Table> {
        let slot = slot(pos)?;
        let r = pos.rules();
        Some(TABLES[slot].get_or_init(|| Table::compute(r.flying, r.diagonals)))
    }

    /// The table for a game's rules if it is ready; otherwise its computation starts in the
    /// background (once) and this answers `None`, so that a search on a clock never waits.
    pub fn ready(pos: &Position) -> Option<&'static Table> {
        let slot = slot(pos)?;
        if let Some(t) = TABLES[slot].get() {
            return Some(t);
        }
        if !STARTED[slot].swap(true, Ordering::Relaxed) {
            let (flying, diagonals) = (pos.rules().flying, pos.rules().diagonals);
            std::thread::spawn(move || {
                TABLES[slot].get_or_init(|| Table::compute(flying, diagonals));
            });
        }
        None
    }
}

static TABLES: [OnceLock<Table>; 4] = [const { OnceLock::new() }; 4];
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
        let all = sets(FULL);
        assert_eq!(all.len(), SETS);
        let mut seen = vec![false; SETS];
        for s in all {
            assert!(!std::mem::replace(&mut seen[rank(s)], true));
        }
        let mover = 1 | 1 << 5 | 1 << 23;
        let rest = sets(FULL & !mover);
        assert_eq!(rest.len(), REST);
        let mut seen = vec![false; REST];
        for s in rest {
            assert!(!std::mem::replace(&mut seen[rank(squeeze(s, mover))], true));
        }
    }
}
