//! The board, read from `data/boulomania-board.json` (shipped with the app): where each square
//! is, which square is "ahead", the arrows, the jack's line and the grazing special cases. A
//! corrected board is a new data file, not new code.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The board's data file, as shipped.
pub const BOARD_JSON: &str = include_str!("../../data/boulomania-board.json");

#[derive(Deserialize)]
struct Raw {
    ball_squares: BTreeMap<String, [i32; 2]>,
    jack_squares: BTreeMap<String, [i32; 2]>,
    ahead: BTreeMap<String, Option<u8>>,
    arrows: BTreeMap<String, Vec<u8>>,
    jack_ahead: BTreeMap<String, Option<u8>>,
    carry: BTreeMap<String, Vec<u8>>,
}

/// The board's geometry, with squares by number (jack squares 1-6, ball squares 7-18).
#[derive(Debug, Clone)]
pub struct Board {
    /// Coordinates of every square, by number (index 0 unused).
    pub at: [(i32, i32); 19],
    /// For each ball square, the square ahead (None: off the far end).
    pub ahead: [Option<u8>; 19],
    /// For each arrow square, the other squares a pushed ball may take.
    pub arrows: [Vec<u8>; 19],
    /// For each jack square, the next one on its line (None: off the far end).
    pub jack_ahead: [Option<u8>; 19],
    /// For each ball square of the grazing special cases, the jack squares concerned.
    pub carry: [Vec<u8>; 19],
}

fn num(k: &str) -> usize {
    k.parse::<usize>()
        .ok()
        .filter(|&n| (1..=18).contains(&n))
        .expect("a square from 1 to 18 in the board data")
}

impl Board {
    fn parse(text: &str) -> Board {
        let raw: Raw = serde_json::from_str(text).expect("the shipped board data is valid");
        let mut b = Board {
            at: [(0, 0); 19],
            ahead: [None; 19],
            arrows: std::array::from_fn(|_| Vec::new()),
            jack_ahead: [None; 19],
            carry: std::array::from_fn(|_| Vec::new()),
        };
        for (k, [x, y]) in raw.ball_squares.iter().chain(raw.jack_squares.iter()) {
            b.at[num(k)] = (*x, *y);
        }
        for (k, v) in raw.ahead {
            b.ahead[num(&k)] = v;
        }
        for (k, v) in raw.arrows {
            b.arrows[num(&k)] = v;
        }
        for (k, v) in raw.jack_ahead {
            b.jack_ahead[num(&k)] = v;
        }
        for (k, v) in raw.carry {
            b.carry[num(&k)] = v;
        }
        b
    }

    /// The shipped board, read once.
    pub fn get() -> &'static Board {
        static BOARD: OnceLock<Board> = OnceLock::new();
        BOARD.get_or_init(|| Board::parse(BOARD_JSON))
    }

    /// Whether a square number is a jack square (1-6).
    pub fn is_jack_square(sq: u8) -> bool {
        (1..=6).contains(&sq)
    }

    /// Squared distance between two squares.
    pub fn distance(&self, a: u8, b: u8) -> i32 {
        let (ax, ay) = self.at[a as usize];
        let (bx, by) = self.at[b as usize];
        (ax - bx).pow(2) + (ay - by).pow(2)
    }

    /// Where a ball pushed from `from` may go: straight ahead first, then the arrows.
    pub fn exits(&self, from: u8) -> Vec<Option<u8>> {
        let mut v = vec![self.ahead[from as usize]];
        v.extend(self.arrows[from as usize].iter().map(|&s| Some(s)));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::Board;

    #[test]
    fn the_shipped_board_reads_as_the_spec_draws_it() {
        let b = Board::get();
        assert_eq!(b.ahead[13], Some(12));
        assert_eq!(b.ahead[11], None);
        assert_eq!(b.exits(13), vec![Some(12), Some(9), Some(17)]);
        assert_eq!(b.jack_ahead[3], Some(2));
        assert_eq!(b.carry[12], vec![2, 5]);
        // Squared distances from the coordinates: 12 is next to jack square 1, 13 is not.
        assert_eq!((b.distance(12, 1), b.distance(13, 1)), (2, 10));
        assert_eq!(b.distance(2, 3), 4);
    }
}
