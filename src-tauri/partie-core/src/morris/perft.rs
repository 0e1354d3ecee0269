//! Counting token sequences (perft): the check that the move generator is exact.

use super::position::{Position, Repetitions};

/// The number of token sequences of length `depth` from `pos`, a sequence that ends the game
/// early counting once. `history` holds the moving-phase positions so far (for repetition).
pub fn perft(pos: &Position, depth: u32, history: &mut Repetitions) -> u64 {
    if depth == 0 {
        return 1;
    }
    let tokens = pos.tokens();
    if depth == 1 {
        // Every child is a leaf whether or not the game ends there.
        return tokens.len() as u64;
    }
    let limit = pos.rules().repetition;
    let mut n = 0;
    for &t in tokens.as_slice() {
        let next = pos.after(t);
        let mark = history.push(t, &next);
        n += if history.reached(limit, &next) || next.outcome().is_some() {
            1
        } else {
            perft(&next, depth - 1, history)
        };
        history.pop(mark);
    }
    n
}
