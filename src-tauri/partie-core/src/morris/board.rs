//! The board: 24 points named as in `docs/games/morris.md`, the lines of three, adjacency along
//! them, and the 16 symmetries that map the board onto itself. Everything is a 24-bit mask (bit i =
//! the i-th point in byte order of the names), so that a position is two integers.

use std::sync::OnceLock;

/// The 24 point names, in byte order; a point's index is its place here.
pub const POINTS: [&str; 24] = [
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "d7", "e3",
    "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
];

/// Every point set.
pub const FULL: u32 = (1 << 24) - 1;

/// The 16 lines of the plain board (8 horizontal, then 8 vertical), as point triples.
const LINES: [[u8; 3]; 16] = [
    [2, 14, 23],
    [5, 13, 20],
    [8, 12, 17],
    [1, 4, 7],
    [16, 19, 22],
    [6, 11, 15],
    [3, 10, 18],
    [0, 9, 21],
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [9, 10, 11],
    [12, 13, 14],
    [15, 16, 17],
    [18, 19, 20],
    [21, 22, 23],
];

/// The four diagonals joining the corners (a1-b2-c3, g1-f2-e3, a7-b6-c5, g7-f6-e5).
const DIAGONALS: [[u8; 3]; 4] = [[0, 3, 6], [21, 18, 15], [2, 5, 8], [23, 20, 17]];

/// The index of a point name, or `None` for a name that is not on the board.
pub fn point(name: &str) -> Option<u8> {
    POINTS.iter().position(|&p| p == name).map(|i| i as u8)
}

/// The lines, adjacency and symmetries of one board (plain or with diagonals).
#[derive(Debug)]
pub struct Geometry {
    /// Each line as a mask.
    pub lines: Vec<u32>,
    /// For each point, the indices in `lines` of the lines through it, as a mask (bit i =
    /// line i): a mill closed on a point is looked for in its two or three lines, not all 16.
    through: [u32; 24],
    /// For each point, the mask of its neighbours along the lines.
    pub adjacent: [u32; 24],
    /// The 16 symmetries, each as byte lookup tables: mapping a mask is three lookups.
    symmetries: Vec<[[u32; 256]; 3]>,
    /// Each symmetry as a point permutation, and its inverse.
    perms: Vec<([u8; 24], [u8; 24])>,
    /// The lines seen through their first, second and third points (each line's points as in
    /// the triples), as byte lookup tables: see [`Geometry::planes`].
    slots: [[[u32; 256]; 3]; 3],
}

/// Byte lookup tables for a map of point sets that takes each point to a mask (`image`) and a
/// set to the union of its points' masks: one table for each of a set's three bytes.
fn byte_tables(image: impl Fn(usize) -> u32) -> [[u32; 256]; 3] {
    std::array::from_fn(|chunk| {
        std::array::from_fn(|byte| {
            (0..8)
                .filter(|bit| byte & (1 << bit) != 0)
                .fold(0, |acc, bit| acc | image(chunk * 8 + bit))
        })
    })
}

/// A point set through the tables of [`byte_tables`]: three lookups.
#[inline]
fn look_up(tables: &[[u32; 256]; 3], m: u32) -> u32 {
    tables[0][(m & 0xff) as usize]
        | tables[1][((m >> 8) & 0xff) as usize]
        | tables[2][(m >> 16) as usize]
}

impl Geometry {
    fn new(diagonals: bool) -> Self {
        let mut triples: Vec<[u8; 3]> = LINES.to_vec();
        if diagonals {
            triples.extend(DIAGONALS);
        }
        let lines: Vec<u32> = triples.iter().map(|t| mask(t)).collect();
        let through: [u32; 24] = std::array::from_fn(|p| {
            lines
                .iter()
                .enumerate()
                .filter(|(_, m)| *m & (1 << p) != 0)
                .fold(0, |acc, (i, _)| acc | 1 << i)
        });
        let mut adjacent = [0u32; 24];
        for t in &triples {
            for pair in [(t[0], t[1]), (t[1], t[2])] {
                adjacent[pair.0 as usize] |= 1 << pair.1;
                adjacent[pair.1 as usize] |= 1 << pair.0;
            }
        }
        let perms: Vec<([u8; 24], [u8; 24])> = permutations()
            .into_iter()
            .map(|p| {
                let mut inv = [0u8; 24];
                for (i, &q) in p.iter().enumerate() {
                    inv[q as usize] = i as u8;
                }
                (p, inv)
            })
            .collect();
        let symmetries = perms
            .iter()
            .map(|(perm, _)| byte_tables(|p| 1 << perm[p]))
            .collect();
        let slots = std::array::from_fn(|slot| {
            byte_tables(|p| {
                triples
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t[slot] as usize == p)
                    .fold(0, |acc, (i, _)| acc | 1 << i)
            })
        });
        Geometry {
            lines,
            through,
            adjacent,
            symmetries,
            perms,
            slots,
        }
    }

    /// The geometry of the plain board or of the board with diagonals, built once.
    pub fn get(diagonals: bool) -> &'static Geometry {
        static PLAIN: OnceLock<Geometry> = OnceLock::new();
        static DIAGONAL: OnceLock<Geometry> = OnceLock::new();
        if diagonals {
            DIAGONAL.get_or_init(|| Geometry::new(true))
        } else {
            PLAIN.get_or_init(|| Geometry::new(false))
        }
    }

    /// How many symmetries the board has (16).
    pub fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }

    /// The lines through `p` whose three points are all in `own`, as a mask of their indices
    /// in `lines` (bit i = line i): the mills a piece on `p` stands in.
    #[inline]
    pub fn mills_through(&self, own: u32, p: u8) -> u32 {
        let mut mills = 0u32;
        let mut through = self.through[p as usize];
        while through != 0 {
            let i = through.trailing_zeros();
            let l = self.lines[i as usize];
            if own & l == l {
                mills |= 1 << i;
            }
            through &= through - 1;
        }
        mills
    }

    /// A mask mapped through symmetry `s`.
    #[inline]
    pub fn map(&self, s: usize, m: u32) -> u32 {
        look_up(&self.symmetries[s], m)
    }

    /// The lines a set of points stands on, by place: bit i of the j-th mask is set when
    /// line i's j-th point is in `points`. With the masks of both sides and of the empty
    /// points, every line's count (a mill, two and a hole, one and two holes) is a few `&` and
    /// `|` for all the lines at once, rather than a test per line.
    #[inline]
    pub fn planes(&self, points: u32) -> [u32; 3] {
        std::array::from_fn(|j| look_up(&self.slots[j], points))
    }

    /// Every line, as a mask of their indices (bit i = line i).
    #[inline]
    pub fn every_line(&self) -> u32 {
        (1 << self.lines.len()) - 1
    }

    /// A point mapped through symmetry `s`.
    #[inline]
    pub fn map_point(&self, s: usize, p: u8) -> u8 {
        self.perms[s].0[p as usize]
    }

    /// A point mapped back through symmetry `s`.
    #[inline]
    pub fn unmap_point(&self, s: usize, p: u8) -> u8 {
        self.perms[s].1[p as usize]
    }

    /// The points of `side` that stand in a complete line of `side`.
    #[inline]
    pub fn in_mills(&self, side: u32) -> u32 {
        self.lines
            .iter()
            .filter(|&&l| side & l == l)
            .fold(0, |acc, l| acc | l)
    }
}

fn mask(t: &[u8]) -> u32 {
    t.iter().fold(0, |m, &p| m | 1 << p)
}

/// A point's place on the 7×7 grid, from its name: column a-g, row 1-7, as offsets from d4.
fn coords(p: usize) -> (i32, i32) {
    let b = POINTS[p].as_bytes();
    (b[0] as i32 - b'd' as i32, b[1] as i32 - b'4' as i32)
}

/// The 16 point permutations: 4 rotations × mirror × swapping the inner and outer squares.
/// They preserve the diagonals too (a corner stays a corner on the same diagonal).
fn permutations() -> Vec<[u8; 24]> {
    let find = |x: i32, y: i32| {
        (0..24)
            .find(|&q| coords(q) == (x, y))
            .expect("a board point")
    };
    let mut out = Vec::with_capacity(16);
    for swap in [false, true] {
        for mirror in [false, true] {
            for turns in 0..4 {
                out.push(std::array::from_fn(|p| {
                    let (mut x, mut y) = coords(p);
                    if swap {
                        let ring = x.abs().max(y.abs());
                        let to = 4 - ring;
                        x = x.signum() * to;
                        y = y.signum() * to;
                    }
                    if mirror {
                        x = -x;
                    }
                    for _ in 0..turns {
                        (x, y) = (-y, x);
                    }
                    find(x, y) as u8
                }));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_maps_lines_onto_lines() {
        for diagonals in [false, true] {
            let g = Geometry::get(diagonals);
            assert_eq!(g.symmetry_count(), 16);
            let mut images = std::collections::HashSet::new();
            for s in 0..16 {
                for &l in &g.lines {
                    assert!(g.lines.contains(&g.map(s, l)), "symmetry {s} breaks a line");
                }
                images.insert((0..24).map(|p| g.map(s, 1 << p)).collect::<Vec<_>>());
            }
            assert_eq!(images.len(), 16, "the 16 symmetries are distinct");
        }
    }

    #[test]
    fn the_planes_count_each_line_by_its_points() {
        for diagonals in [false, true] {
            let g = Geometry::get(diagonals);
            // Every set of points a line can hold part of, on every line: the three planes
            // together say which of its points are in the set, and nothing of other lines.
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            for _ in 0..2000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let points = seed as u32 & FULL;
                let planes = g.planes(points);
                for (i, &l) in g.lines.iter().enumerate() {
                    let on = planes.iter().filter(|m| *m & (1 << i) != 0).count();
                    assert_eq!(on as u32, (points & l).count_ones());
                }
                for m in planes {
                    assert_eq!(m & !g.every_line(), 0);
                }
            }
            assert_eq!(g.planes(FULL), [g.every_line(); 3]);
        }
    }

    #[test]
    fn adjacency_follows_the_lines() {
        let g = Geometry::get(false);
        let n = |names: &[&str]| names.iter().fold(0, |m, s| m | 1 << point(s).unwrap());
        assert_eq!(
            g.adjacent[point("d2").unwrap() as usize],
            n(&["b2", "f2", "d1", "d3"])
        );
        assert_eq!(g.adjacent[point("a1").unwrap() as usize], n(&["a4", "d1"]));
        let d = Geometry::get(true);
        assert_eq!(
            d.adjacent[point("b2").unwrap() as usize],
            n(&["a1", "c3", "b4", "d2"])
        );
        assert_eq!(g.lines.len(), 16);
        assert_eq!(d.lines.len(), 20);
    }
}
