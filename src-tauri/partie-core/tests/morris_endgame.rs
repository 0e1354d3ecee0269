//! The exact tables of three pieces against three and four against three: checked one move deep against the rules
//! themselves (the position's own move generator and outcome), and followed by the search.

use partie_core::morris::endgame::{Exact, Table};
use partie_core::morris::search::{Limits, Searcher, WIN};
use partie_core::morris::{MorrisRules, Position, Token};
use partie_core::rng::Rng;

fn pieces(rng: &mut Rng, count: u32, taken: u32) -> u32 {
    let mut set = 0u32;
    while set.count_ones() < count {
        let p = rng.below(24) as u32;
        if (taken | set) & 1 << p == 0 {
            set |= 1 << p;
        }
    }
    set
}

/// A random moving-phase position with `a` pieces for White and `b` for Black.
fn random_position(rng: &mut Rng, rules: MorrisRules, a: u32, b: u32) -> Position {
    let white = pieces(rng, a, 0);
    let black = pieces(rng, b, white);
    Position::moving(rules, [white, black], rng.below(2) as u8).expect("a valid position")
}

/// The values, for the side then to act, of the positions after each whole move of the side
/// to act (a move, and the removal its mill gives), by the position's own rules.
fn children(table: &Table, pos: &Position, out: &mut Vec<Exact>) {
    for &t in pos.tokens().as_slice() {
        let next = pos.after(t);
        match next.outcome() {
            Some(_) => out.push(Exact::Lost(0)), // two pieces left
            None if next.turn() == pos.turn() => children(table, &next, out), // a removal
            None => out.push(table.probe(&next).expect("the table covers every child")),
        }
    }
}

/// The value the rules give a position from its children's values in the table.
fn one_move_deep(table: &Table, pos: &Position) -> Exact {
    if pos.outcome().is_some() {
        return Exact::Lost(0); // only a blocked side ends the game here
    }
    let mut values = Vec::new();
    children(table, pos, &mut values);
    let (mut best_win, mut worst_loss, mut drawn) = (None::<u8>, 0u8, false);
    for v in values {
        match v {
            Exact::Lost(n) => best_win = Some(best_win.map_or(n + 1, |b| b.min(n + 1))),
            Exact::Won(n) => worst_loss = worst_loss.max(n + 1),
            Exact::Drawn => drawn = true,
        }
    }
    match best_win {
        Some(n) => Exact::Won(n),
        None if drawn => Exact::Drawn,
        None => Exact::Lost(worst_loss),
    }
}

fn rules(flying: bool) -> MorrisRules {
    MorrisRules {
        flying,
        ..MorrisRules::default()
    }
}

#[test]
fn every_value_follows_from_its_children_by_the_rules() {
    for (flying, diagonals) in [(true, false), (false, false), (false, true)] {
        let rules = MorrisRules {
            diagonals,
            ..rules(flying)
        };
        let start = Position::start(rules);
        let table = Table::for_rules(&start).expect("a table for mills that give again");
        let mut rng = Rng::new(3 + flying as u64 + 2 * diagonals as u64);
        // White's pieces against Black's, either side to act.
        for (a, b) in [(3, 3), (4, 3), (3, 4)] {
            let mut seen = [0u32; 3];
            for _ in 0..4000 {
                let pos = random_position(&mut rng, rules, a, b);
                let value = table
                    .probe(&pos)
                    .expect("three or four against three is covered");
                assert_eq!(
                    value,
                    one_move_deep(table, &pos),
                    "flying {flying}, diagonals {diagonals}, {a} against {b}: {pos:?}"
                );
                seen[match value {
                    Exact::Won(_) => 0,
                    Exact::Lost(_) => 1,
                    Exact::Drawn => 2,
                }] += 1;
            }
            // Every kind of value is met, so none of the checks above is empty.
            assert!(
                seen.iter().all(|&n| n > 0),
                "flying {flying}, diagonals {diagonals}, {a} against {b}: {seen:?}"
            );
        }
    }
}

#[test]
fn a_threat_with_a_flying_third_piece_wins_at_once() {
    let p = |names: &[&str]| -> u32 {
        names
            .iter()
            .map(|n| 1u32 << partie_core::morris::board::point(n).unwrap())
            .sum()
    };
    // White a1, a4 and g7 to move against d1, d2, d3: g7 flies to a7 and closes a1-a4-a7.
    let pos = Position::moving(
        rules(true),
        [p(&["a1", "a4", "g7"]), p(&["d1", "d2", "d3"])],
        0,
    )
    .unwrap();
    let table = Table::for_rules(&pos).unwrap();
    assert_eq!(table.probe(&pos), Some(Exact::Won(1)));
    // With Black to move, Black's d-line is already a mill... it needs a new one: d1-d2-d3 is
    // closed, so Black must stop a1-a4-a7 by flying a piece to a7, and is not lost at once.
    let black = Position::moving(
        rules(true),
        [p(&["a1", "a4", "g7"]), p(&["d1", "d2", "d3"])],
        1,
    )
    .unwrap();
    assert_ne!(table.probe(&black), Some(Exact::Lost(1)));
    // Outside the tables: four against four, or pieces still in hand.
    let four = Position::moving(
        rules(true),
        [p(&["a1", "a4", "g7", "g1"]), p(&["d1", "d2", "d3", "d5"])],
        0,
    )
    .unwrap();
    assert_eq!(table.probe(&four), None);
    assert_eq!(table.probe(&Position::start(rules(true))), None);
}

#[test]
fn the_search_wins_won_endings_and_holds_drawn_ones() {
    let start = Position::start(rules(false));
    let table = Table::for_rules(&start).unwrap();
    let mut rng = Rng::new(9);
    let (mut wins, mut draws) = (0, 0);
    let search = |pos: &Position| {
        let limits = Limits {
            depth: 2,
            ..Limits::default()
        };
        Searcher::new(12)
            .search(pos, &Default::default(), &limits)
            .best
            .expect("a move")
    };
    while wins < 90 || draws < 90 {
        let (a, b) = [(3, 3), (4, 3), (3, 4)][rng.below(3) as usize];
        let pos = random_position(&mut rng, rules(false), a, b);
        let value = table.probe(&pos).unwrap();
        if matches!(value, Exact::Lost(_)) || (wins >= 90 && matches!(value, Exact::Won(_))) {
            continue;
        }
        let best = search(&pos);
        assert!(!matches!(best, Token::Place(_)));
        let mut next = pos.after(best);
        if next.turn() == pos.turn() && next.outcome().is_none() {
            next = next.after(search(&next)); // a mill: the removal it gives
        }
        let after = if next.outcome().is_some() {
            Exact::Lost(0) // two pieces left
        } else {
            table.probe(&next).unwrap()
        };
        match value {
            Exact::Won(n) => {
                assert!(
                    matches!(after, Exact::Lost(m) if m < n),
                    "{pos:?}: {best} keeps a win in {n} as {after:?}"
                );
                wins += 1;
            }
            _ => {
                assert_eq!(after, Exact::Drawn, "{pos:?}: {best} gives up a draw");
                draws += 1;
            }
        }
    }
}

#[test]
fn a_result_after_the_quiet_move_draw_is_a_draw_only_where_no_piece_is_taken_on_the_way() {
    let rules = MorrisRules {
        quiet_moves: 10,
        ..rules(false)
    };
    let table = Table::for_rules(&Position::start(rules)).unwrap();
    let mut rng = Rng::new(21);
    // For each class: a win found beyond the limit, and one within it.
    for (a, b) in [(3, 3), (4, 3)] {
        let (mut beyond, mut within) = (false, false);
        while !(beyond && within) {
            let pos = random_position(&mut rng, rules, a, b);
            let Some(Exact::Won(n)) = table.probe(&pos) else {
                continue;
            };
            if n > 10 {
                // Three a side: nothing is taken before the end, so the draw comes first. Four
                // against three: a piece taken on the way starts the count again, so the table
                // says nothing and the search goes on.
                let expected = if a == 3 { Some(Exact::Drawn) } else { None };
                assert_eq!(table.settles(&pos), expected, "{pos:?}");
                beyond = true;
            } else {
                assert_eq!(table.settles(&pos), Some(Exact::Won(n)), "{pos:?}");
                within = true;
            }
        }
    }
}

/// The engine protocol's default level plays with the tables: one turn deep, it scores a won
/// ending as won in the number of plies the table gives, which no evaluation could.
#[test]
fn the_engine_protocol_scores_won_endings_from_the_tables() {
    let rules = MorrisRules::default();
    let table = Table::for_rules(&Position::start(rules)).unwrap();
    let mut rng = Rng::new(5);
    let mut checked = 0;
    while checked < 3 {
        let pos = random_position(&mut rng, rules, 3, 3);
        let Some(Exact::Won(n)) = table.settles(&pos) else {
            continue;
        };
        if n < 5 {
            continue;
        }
        let fen = partie_core::morris::fen::write(&pos);
        let input = format!("position fen {fen}\ngo depth 1\n");
        let mut out = Vec::new();
        partie_core::morris::uci::run(input.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let score: i32 = out
            .split_whitespace()
            .skip_while(|&w| w != "cp")
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no score: {out}"));
        assert_eq!(score, WIN - n as i32, "{fen}: {out}");
        checked += 1;
    }
}
