//! Computes the exact endgame tables for each flying rule (standard board), in the background
//! as the app does, and prints when each became ready and what they hold: for each side to act, the positions won, lost and drawn, and
//! the longest win and loss in plies. The figures are in docs/performance.md.
//!
//! `cargo run --release -p partie-core --example tables [flying|stepping]` (both when neither
//! is named; naming one measures its memory alone, with `/usr/bin/time -v`); `four` solves
//! four against four as well, which the app does not, to measure what it would cost.

use partie_core::morris::endgame::{four_against_four, Exact, Table};
use partie_core::morris::{MorrisRules, Position};
use std::time::{Duration, Instant};

/// Every set of `k` points among `among` (a mask of the 24 points), each once.
fn sets(among: u32, k: u32, chosen: u32, out: &mut Vec<u32>) {
    if k == 0 {
        out.push(chosen);
        return;
    }
    for p in 0..24 {
        if among & 1 << p != 0 {
            sets(among & !((2u32 << p) - 1), k - 1, chosen | 1 << p, out)
        }
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("four") {
        // The next class up, timed from nothing (its classes below included), as a measure of
        // what more tables would cost.
        for flying in [false, true] {
            let t = Instant::now();
            let [won, lost, drawn] = four_against_four(flying, false);
            println!(
                "flying {flying}: three and four against three, then four against four, in {:.2?}; \
                 four against four: {won} won, {lost} lost, {drawn} drawn",
                t.elapsed()
            );
        }
        return;
    }
    let rules: &[bool] = match std::env::args().nth(1).as_deref() {
        Some("flying") => &[true],
        Some("stepping") => &[false],
        _ => &[true, false],
    };
    for &flying in rules {
        let rules = MorrisRules {
            flying,
            ..MorrisRules::default()
        };
        let t = Instant::now();
        let table = Table::ready(&Position::start(rules)).expect("mills that give again");
        // Polled as a search would find them: three against three first.
        for (name, mover, other) in [
            ("three against three", 0b111, 0b111 << 8),
            ("four against three", 0b1111, 0b111 << 8),
        ] {
            while table.value(mover, other).is_none() {
                std::thread::sleep(Duration::from_millis(5));
            }
            println!("flying {flying}: {name} ready after {:.2?}", t.elapsed());
        }
        for (a, b) in [(3, 3), (4, 3), (3, 4)] {
            let (mut won, mut lost, mut drawn, mut longest_win, mut longest_loss) = (0, 0, 0, 0, 0);
            let mut movers = Vec::new();
            sets(0xFF_FFFF, a, 0, &mut movers);
            for &mover in &movers {
                let mut others = Vec::new();
                sets(0xFF_FFFF & !mover, b, 0, &mut others);
                for &other in &others {
                    match table.value(mover, other).expect("computed") {
                        Exact::Won(n) => (won, longest_win) = (won + 1, longest_win.max(n)),
                        Exact::Lost(n) => (lost, longest_loss) = (lost + 1, longest_loss.max(n)),
                        Exact::Drawn => drawn += 1,
                    }
                }
            }
            println!(
                "  {a} to act against {b}: {won} won, {lost} lost, {drawn} drawn; \
                 longest win {longest_win} plies, longest loss {longest_loss}"
            );
        }
    }
}
