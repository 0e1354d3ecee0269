//! The evaluation (`morris::search::evaluate_with`) against golden data: positions of random
//! games under three sets of rules, each with the worth the two sets of weights (the levels'
//! and level 5's) give it. The evaluation is the most run code of the search, and is written
//! for speed (bit planes, remembered judgements); these figures hold it to what it counted
//! before any such rewrite.
//!
//! A change of weights or terms changes the figures on purpose: write the file again with
//! `PARTIE_BLESS=1 cargo test -p partie-core --test morris_evaluation`, and say why in the
//! commit.

use partie_core::morris::fen;
use partie_core::morris::search::{evaluate_with, STRONG, WEIGHTS};
use partie_core::morris::{MorrisRules, Position, SameMill};
use partie_core::rng::Rng;

const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/golden/morris_evaluation.txt"
);

/// The rules the data covers, by the name its lines give them.
fn rules(name: &str) -> MorrisRules {
    let plain = MorrisRules::default();
    match name {
        "standard" => plain,
        "diagonals" => MorrisRules {
            diagonals: true,
            ..plain
        },
        "stepping-once" => MorrisRules {
            flying: false,
            same_mill: SameMill::Once,
            ..plain
        },
        other => panic!("no rules named {other}"),
    }
}

/// Every third position of 20 random games under each set of rules, with both worths.
fn positions() -> Vec<(&'static str, Position)> {
    let mut out = Vec::new();
    for (i, name) in ["standard", "diagonals", "stepping-once"]
        .into_iter()
        .enumerate()
    {
        let mut rng = Rng::new(100 + i as u64);
        for _ in 0..20 {
            let mut pos = Position::start(rules(name));
            let mut ply = 0;
            while pos.outcome().is_none() && ply < 80 {
                if ply % 3 == 0 {
                    out.push((name, pos));
                }
                let tokens = pos.tokens();
                let all = tokens.as_slice();
                pos = pos.after(all[rng.below(all.len() as u64) as usize]);
                ply += 1;
            }
        }
    }
    out
}

fn line(name: &str, pos: &Position) -> String {
    format!(
        "{name}|{}|{}|{}",
        fen::write(pos),
        evaluate_with(pos, &WEIGHTS),
        evaluate_with(pos, &STRONG)
    )
}

#[test]
fn the_evaluation_counts_what_the_golden_data_says() {
    if std::env::var_os("PARTIE_BLESS").is_some() {
        let text: String = positions()
            .iter()
            .map(|(name, pos)| line(name, pos) + "\n")
            .collect();
        std::fs::write(GOLDEN, text).expect("the golden file is written");
        // Written, not checked: a run with the variable set (left in a CI's environment)
        // must not pass as a check.
        panic!("{GOLDEN} written again; run the test without PARTIE_BLESS to check it");
    }
    let golden = std::fs::read_to_string(GOLDEN).expect("the golden file is there");
    let mut checked = 0;
    let mut phases = [0; 2];
    for expected in golden.lines() {
        let mut fields = expected.split('|');
        let (name, text) = (fields.next().unwrap(), fields.next().unwrap());
        let pos = fen::read(rules(name), text).expect("a FEN the project wrote");
        assert_eq!(line(name, &pos), expected);
        phases[pos.is_moving() as usize] += 1;
        checked += 1;
    }
    // Enough of each phase that every term is counted somewhere.
    assert!(phases[0] >= 300 && phases[1] >= 300, "{phases:?}");
    assert_eq!(checked, positions().len());
}
