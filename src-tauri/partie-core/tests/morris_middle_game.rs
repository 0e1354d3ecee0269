//! The middle game of issue 21: positions given as move lists where a running mill,
//! a double mill or a blockade is coming and the strongest level must stop it in its time;
//! the evaluation term level 5 gives a running mill, and the `looming` knob of the matches.

use partie_core::game::Game;
use partie_core::morris::position::Reason;
use partie_core::morris::search::{evaluate_with, Level, Searcher, Weights, STRONG, WEIGHTS, WIN};
use partie_core::morris::{notation, Action, Morris, MorrisRules, Outcome, Position, Token};
use serde_json::Map;

/// The game after `moves` (a move list in the spec's notation).
fn game(moves: &str) -> Morris {
    let sides = [vec!["White".to_string()], vec!["Black".to_string()]];
    let mut g = Morris::setup(&Map::new(), &sides).expect("default rules");
    for t in notation::parse(moves).expect("a move list").tokens {
        let t = Token::parse(&t).expect("a token");
        g = g.play(&Action::Token(t)).expect("a legal token");
    }
    g
}

/// What level 5 plays after `moves` within two million positions: less than its time in the
/// app (about 0.4 s at the rate docs/uci.md gives, where the app allows 1.5 s a move), counted
/// in positions rather than on the clock, so that the test takes the same path however busy
/// the machine (the tests of this file run side by side).
fn level_5(moves: &str) -> Token {
    level_5_with(moves, Level::new(5).expect("level 5").searcher())
}

/// The same with `searcher` in place of level 5's own.
fn level_5_with(moves: &str, mut searcher: Searcher) -> Token {
    let g = game(moves);
    let level = Level::new(5).expect("level 5");
    let mut limits = level.limits(level.own_time(g.position()), None);
    limits.nodes = Some(2_000_000);
    limits.time = None;
    limits.extra = None;
    let report = level.think(&mut searcher, g.position(), g.repetitions(), 0, &limits);
    report.best.expect("a token to play")
}

/// White's mill b6-d6-f6 and a4: after c3-c4, b6-b4 would close a4-b4-c4 and b4-b6 close
/// b6-d6-f6 again, a mill at every move (a double mill). Black stops it by taking b4 now,
/// from b2 (what a search of 1.5 s, 16 turns deep, plays too).
const DOUBLE_MILL: &str = "1. b6 b2 2. d2 c5 3. d6 g7 4. e4 d5 5. c3 f4 6. g1 d3 7. a4 e3 \
     8. f6xg7 a1 9. g4 d7 10. e4-e5";

/// White's mill a1-a4-a7: a4 can step to b4 and back, and no black piece could ever take a4
/// (its other neighbours are White's), so the mill would close every two moves. d1 and d7 are
/// Black's, so a1 and a7 cannot step out; Black must take b4 now, from c4.
const RUNNING_MILL: &str = "1. a1 g1 2. d2 d1 3. a4 d7 4. f4 c4 5. e5 e3 6. c3 f2 \
     7. a7xg1 g4 8. d6 d5 9. g7 f6 10. e5-e4";

/// Black's pieces can step only onto d2 (from b2, d3 or f2) and f4 (from e4 or f2). A piece
/// that steps onto one of them lets White shut the other (f6-f4 or d1-d2): Black is left with
/// one piece that can move, to a point White fills on the next move. Only d3-d2 holds (no line
/// forces a blockade within White's next four moves): it leaves d3 empty behind the piece, a
/// third point to step onto. (Found among the positions of random games by searching every
/// line of four turns, not built by hand; no mill is closed on these lines.)
const BLOCKADE: &str = "1. e5 c5 2. b4 a7 3. d7 b2 4. d2 e3 5. e4 f4 6. c4 a4 7. a1 f2 \
     8. f6 d6 9. g4 g7 10. e5-d5 e3-d3 11. c4-c3 c5-c4 12. d5-c5 d6-d5 13. e4-e3 d5-e5 \
     14. c5-d5 f4-e4 15. f6-d6xc4 e4-f4 16. d6-f6 f4-e4 17. d2-d1";

#[test]
fn level_5_blocks_a_double_mill_before_it_is_built() {
    let g = game(DOUBLE_MILL);
    assert_eq!(g.position().turn(), 1, "Black to move");
    assert!(g.position().is_moving());
    assert_eq!(level_5(DOUBLE_MILL).to_string(), "b2-b4");
}

#[test]
fn level_5_takes_the_point_a_running_mill_needs() {
    let g = game(RUNNING_MILL);
    assert_eq!(g.position().turn(), 1, "Black to move");
    // Other moves are there to choose from: the test is the choice.
    assert!(g.legal().len() > 3);
    assert_eq!(level_5(RUNNING_MILL).to_string(), "c4-b4");
}

#[test]
fn level_5_keeps_a_way_out_of_a_blockade_two_moves_away() {
    let g = game(BLOCKADE);
    assert_eq!(g.position().turn(), 1, "Black to move");
    assert!(g.position().is_moving());
    assert_eq!(g.legal().len(), 5);
    // By the rules: after each other move and White's answer, whatever Black plays, White has
    // a move that leaves Black none.
    for (bad, answer) in [
        ("b2-d2", "f6-f4"),
        ("f2-d2", "f6-f4"),
        ("e4-f4", "d1-d2"),
        ("f2-f4", "d1-d2"),
    ] {
        let after = game(&format!("{BLOCKADE} {bad} {answer}"));
        for reply in after.legal() {
            let next = after.clone().play(&Action::Token(reply)).expect("legal");
            let blocked = next.legal().into_iter().any(|t| {
                let end = next.clone().play(&Action::Token(t)).expect("legal");
                end.outcome() == Some(Outcome::Won(0, Reason::Blocked))
            });
            assert!(blocked, "{bad} {answer} {reply}: White blocks Black");
        }
    }
    assert_eq!(level_5(BLOCKADE).to_string(), "d3-d2");
}

/// The evaluation of level 5 sees the running mill Black leaves when it plays elsewhere, and
/// the weights of levels 1 to 4 do not: they stay as they were.
#[test]
fn level_5_weighs_a_running_mill_and_the_weaker_levels_do_not() {
    let held = game(&format!("{RUNNING_MILL} c4-b4"));
    let left = game(&format!("{RUNNING_MILL} d5-c5"));
    // White to act in both; the same pieces, only where one black piece stands differs.
    let gain = |w| evaluate_with(left.position(), w) - evaluate_with(held.position(), w);
    // The running mill is worth its weight to level 5, beyond what the old weights see (a4
    // and d1's mobility); to levels 1 to 4 the two positions differ by that mobility only.
    assert!(
        gain(&STRONG) - gain(&WEIGHTS) >= STRONG.running,
        "level 5 {} against levels 1 to 4 {}",
        gain(&STRONG),
        gain(&WEIGHTS)
    );
}

/// Fear (`Searcher::with_fear`, measured for issue 21) judges from the side searched for: the
/// opponent's running mill counts more, and nothing counts more in the searcher's favour. In
/// the running mill's position (Black to act), every token scores no better with fear than
/// without at a fixed depth (the same minimax over lower or equal leaves), each token that
/// leaves b4 to White loses at least the mill's weight once more, and taking b4 stays best.
#[test]
fn fear_weighs_the_opponents_running_mill_dearer() {
    let g = game(RUNNING_MILL);
    let scores = [100, 200].map(|fear| {
        Searcher::new(16)
            .with_weights(STRONG)
            .with_fear(fear)
            .score_all(g.position(), g.repetitions(), 1)
    });
    let plain = Searcher::new(16)
        .with_weights(STRONG)
        .score_all(g.position(), g.repetitions(), 1);
    assert_eq!(scores[0], plain, "a fear of 100 is none");
    let b4 = Token::parse("b4").expect("a token").to();
    let best = scores[1][0].0;
    assert_eq!(best.to_string(), "c4-b4");
    assert_eq!(scores[0].len(), scores[1].len());
    for &(t, calm) in &scores[0] {
        let feared = scores[1]
            .iter()
            .find(|&&(u, _)| u == t)
            .map(|&(_, s)| s)
            .expect("the same tokens");
        if t.to() == b4 {
            assert!(feared <= calm, "{t}: {feared} with fear, {calm} without");
        } else {
            assert!(
                feared <= calm - STRONG.running,
                "{t}: {feared} with fear, {calm} without"
            );
        }
    }
}

/// A searcher with fear keeps one table for both sides (as level 5 does when it plays itself):
/// what it judged for White is not taken for Black's judgement. Black's search after White's
/// gives the scores of a searcher that searched only for Black.
#[test]
fn fear_keeps_the_sides_judgements_apart_in_one_table() {
    let before = game(
        "1. a1 g1 2. d2 d1 3. a4 d7 4. f4 c4 5. e5 e3 6. c3 f2 7. a7xg1 g4 \
         8. d6 d5 9. g7 f6",
    );
    let g = game(RUNNING_MILL);
    let mut shared = Searcher::new(16).with_weights(STRONG).with_fear(200);
    shared.score_all(before.position(), before.repetitions(), 4);
    let after_white = shared.score_all(g.position(), g.repetitions(), 3);
    let alone = Searcher::new(16)
        .with_weights(STRONG)
        .with_fear(200)
        .score_all(g.position(), g.repetitions(), 3);
    assert_eq!(after_white, alone);
}

/// The points named, as a board.
fn points(names: &[&str]) -> u32 {
    names
        .iter()
        .map(|n| 1u32 << partie_core::morris::board::point(n).expect("a point"))
        .sum()
}

/// `looming` (no level uses it: docs/performance.md) weighs a threat the opponent can no
/// longer answer but by a mill: White's a1-a4 with d7 next to a7, whose other neighbour is
/// a4, is a piece taken next turn when Black is to act, and only a threat when White is.
#[test]
fn looming_weighs_a_threat_only_once_it_can_no_longer_be_blocked() {
    let white = points(&["a1", "a4", "d7", "g4"]);
    let black = points(&["b2", "e3", "f4", "c5"]);
    let at =
        |turn| Position::moving(MorrisRules::default(), [white, black], turn).expect("a position");
    let looming = Weights {
        looming: 40,
        ..STRONG
    };
    let gain = |pos: &Position| evaluate_with(pos, &looming) - evaluate_with(pos, &STRONG);
    // Black to act: White's threat looms, worth `looming` to White.
    assert_eq!(gain(&at(1)), -40);
    // White to act: White closes it now, which the quiescence search sees; no extra weight.
    assert_eq!(gain(&at(0)), 0);
    // A black piece on a7 ends the threat.
    let blocked = Position::moving(
        MorrisRules::default(),
        [white, points(&["b2", "e3", "f4", "a7"])],
        1,
    )
    .expect("a position");
    assert_eq!(gain(&blocked), 0);
    // White's mill a1-a4-a7, whose a4 can step out to b4 and back while no black piece can
    // reach a4: with White to act it takes a piece in two moves, with Black to act b2-b4
    // shuts the way out first.
    let mill = |turn| {
        Position::moving(
            MorrisRules::default(),
            [points(&["a1", "a4", "a7", "g4"]), black],
            turn,
        )
        .expect("a position")
    };
    assert_eq!(gain(&mill(0)), 40);
    assert_eq!(gain(&mill(1)), 0);
}

/// The matches' weight lists: the first weights replaced in order, `mobility_moving` following
/// `mobility` when only that is given, no more than sixteen.
#[test]
fn a_weight_list_replaces_the_first_weights_in_order() {
    let eight = [1, 2, 3, 4, 5, 6, 7, 8];
    let w = STRONG.with_list(&eight).expect("eight weights");
    assert_eq!((w.mill_placing, w.mobility, w.pending), (1, 5, 8));
    assert_eq!(w.mobility_moving, 5);
    assert_eq!((w.closable, w.looming), (STRONG.closable, STRONG.looming));
    let all: Vec<i32> = (1..=16).collect();
    let w = Weights::default().with_list(&all).expect("sixteen weights");
    assert_eq!(
        (w.cramped, w.looming, w.mobility_moving, w.reach),
        (13, 14, 15, 16)
    );
    // Fifteen give `mobility_moving` and keep `reach`.
    let fifteen = STRONG.with_list(&all[..15]).expect("fifteen weights");
    assert_eq!((fifteen.mobility_moving, fifteen.reach), (15, STRONG.reach));
    assert_eq!(STRONG.with_list(&[]), Some(STRONG));
    // Level 5 weighs a move apart in each phase: a list that stops before `mobility` keeps
    // both as they are.
    assert_ne!(STRONG.mobility, STRONG.mobility_moving);
    assert_eq!(
        STRONG.with_list(&[1, 2, 3, 4]).map(|w| w.mobility_moving),
        Some(STRONG.mobility_moving)
    );
    assert_eq!(STRONG.with_list(&[0; 17]), None);
}

/// `list` gives the weights back in the order `with_list` takes them.
#[test]
fn a_weight_list_reads_back_in_the_same_order() {
    let all: Vec<i32> = (1..=16).collect();
    let w = Weights::default().with_list(&all).expect("sixteen weights");
    assert_eq!(w.list().to_vec(), all);
    assert_eq!(Weights::default().with_list(&STRONG.list()), Some(STRONG));
}

/// The evaluation is a sum of its weights times what each counts, plus the pieces: what
/// `examples/fit.rs` relies on when it fits the weights to games' outcomes from each
/// weight's count alone. Checked for level 5's weights and the levels' on positions of
/// random games in both phases, including positions with a removal owed.
#[test]
fn the_evaluation_is_linear_in_its_weights() {
    let unit = |i: Option<usize>| {
        let mut list = [0; Weights::COUNT];
        if let Some(i) = i {
            list[i] = 1;
        }
        Weights::default()
            .with_list(&list)
            .expect("sixteen weights")
    };
    let with_looming = Weights {
        looming: 40,
        mobility_moving: 25,
        reach: 7,
        ..STRONG
    };
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut checked = [0; 2];
    for seed in 0..40 {
        let mut rng = partie_core::rng::Rng::new(seed);
        let mut g = Morris::setup(&Map::new(), &sides).expect("default rules");
        while !g.is_over() && g.played().len() < 120 {
            let p = g.position();
            let base = evaluate_with(p, &unit(None));
            for w in [STRONG, WEIGHTS, with_looming] {
                let sum: i32 = w
                    .list()
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| x * (evaluate_with(p, &unit(Some(i))) - base))
                    .sum();
                assert_eq!(evaluate_with(p, &w), base + sum, "{}", g.move_list());
            }
            checked[p.is_moving() as usize] += 1;
            let legal = g.legal();
            let t = legal[rng.below(legal.len() as u64) as usize];
            g = g.play(&Action::Token(t)).expect("a legal token");
        }
    }
    assert!(checked[0] > 500 && checked[1] > 500, "{checked:?}");
}

/// `reach` counts, once every piece is placed, the empty points a side that does not fly can
/// reach in one or two steps through empty points. White's a1, a4, a7 and d7 reach d1, b4,
/// g7 and d6 in a step, then g1, d2, b2, c4, f6 and d5 (ten); Black's f2, b6, g4 and e3 reach
/// d2, f4, b4, d6, g1, g7, d3 and e4, then d1, b2, f6, c4, d5, c3 and e5 (fifteen). (One step
/// alone would give 4 against 8.)
#[test]
fn reach_counts_the_room_two_steps_out() {
    let white = points(&["a1", "a4", "a7", "d7"]);
    let black = points(&["f2", "b6", "g4", "e3"]);
    let reach = Weights { reach: 1, ..STRONG };
    let gain = |pos: &Position| evaluate_with(pos, &reach) - evaluate_with(pos, &STRONG);
    let at = |black, turn| {
        Position::moving(MorrisRules::default(), [white, black], turn).expect("a position")
    };
    assert_eq!(gain(&at(black, 0)), 10 - 15);
    assert_eq!(gain(&at(black, 1)), 15 - 10);
    // With three pieces Black flies: its room is everywhere, and not counted.
    assert_eq!(gain(&at(points(&["f2", "b6", "g4"]), 0)), 10);
    // While pieces are being placed it counts for nothing.
    let placing = game("1. a1 f2 2. a4 b6");
    assert_eq!(gain(placing.position()), 0);
}

/// The last placements searched past (`Searcher::with_transition`, measured for issue 21): after
/// e3, White's ninth piece, none of White's pieces has an empty neighbour, so White is blocked
/// at its first move whatever Black places last. A search one turn deep stops at Black's last
/// placement and judges the shape there: e3 is its best. With the last two placements searched
/// past, the same depth reaches the moving phase, sees e3 lose and keeps a move. (Found by
/// looking through 20,000 random placings for one where the two disagree; not built by hand.)
#[test]
fn the_last_placements_searched_past_show_a_blockade_one_turn_deep() {
    let g = game("1. c3 c4 2. g7 e4 3. b4 d1 4. d2 g4 5. b2 a7 6. d3 f2 7. a4 d7 8. a1 b6");
    let e3 = Token::parse("e3").expect("a token");
    let scores = |pieces| {
        Searcher::new(12)
            .with_weights(STRONG)
            .with_quiescence(true)
            .with_transition(pieces)
            .score_all(g.position(), g.repetitions(), 1)
    };
    let lost = |s: i32| s < -(WIN - 1_000);
    let plain = scores(0);
    assert_eq!(plain[0].0, e3, "one turn deep without it: {plain:?}");
    assert!(!lost(plain[0].1));
    let past = scores(2);
    let e3_past = past.iter().find(|&&(t, _)| t == e3).expect("e3 is legal").1;
    assert!(
        lost(e3_past),
        "e3 with the last placements searched: {e3_past}"
    );
    assert_ne!(past[0].0, e3);
    assert!(!lost(past[0].1), "a placement that keeps a move: {past:?}");
}

/// Level 5's paired table (`Searcher::with_two_tier`) down to a table of two slots (one pair)
/// and of one (where the pair is that slot): the search is far shallower, and must still
/// answer with a legal token and not fall out of its table.
#[test]
fn the_paired_table_answers_from_a_table_of_one_slot() {
    for moves in [DOUBLE_MILL, RUNNING_MILL, BLOCKADE] {
        for bits in [1, 0] {
            let found = level_5_with(moves, Searcher::new(bits).with_two_tier(true));
            assert!(game(moves).legal().contains(&found), "a table of 2^{bits}");
        }
    }
}

/// Contempt (`Searcher::with_contempt`, measured for issue 21) prices a draw for the side
/// searched for. One quiet move before the quiet-move draw, no mill within reach: every token
/// draws, and scores the contempt for the side to act (Black's too, when Black acts), 0
/// without.
#[test]
fn contempt_prices_a_draw_for_the_side_searched_for() {
    for (fen, side) in [
        ("a1,g1,a7,g7/d2,d6,b4,f4 w 0/0 0 99", "White"),
        ("a1,g1,a7,g7/d2,d6,b4,f4 b 0/0 0 99", "Black"),
    ] {
        let pos = partie_core::morris::fen::read(MorrisRules::default(), fen).expect("a FEN");
        let history = partie_core::morris::position::Repetitions::default();
        for contempt in [0, 30, -30] {
            let scores = Searcher::new(16)
                .with_weights(STRONG)
                .with_contempt(contempt)
                .score_all(&pos, &history, 2);
            assert!(!scores.is_empty());
            for (t, s) in scores {
                assert_eq!(s, contempt, "{side} {t} with contempt {contempt}");
            }
        }
    }
}
