//! Matches between computer levels, to show that each level beats the one below
//! (`partie selfplay`). Colours alternate and each game opens with two random placements, so
//! that deterministic levels do not replay one game over and over.

use super::endgame::Table;
use super::game::{Action, Morris};
use super::position::{Outcome, Token};
use super::search::Level;
use crate::game::Game;
use crate::rng::Rng;
use serde_json::Map;

/// The tally of a match, from the first level's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first level won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the second level won.
    pub losses: u32,
}

/// Plays `games` games between `a` and `b` under the default rules; `each` sees every game
/// when it ends, with the side `a` played.
pub fn play_match(
    a: Level,
    b: Level,
    games: u32,
    seed: u64,
    mut each: impl FnMut(&Morris, u8),
) -> Tally {
    let mut tally = Tally::default();
    let mut rng = Rng::new(seed);
    for n in 0..games {
        let a_plays = (n % 2) as u8;
        let g = play_game(a, b, a_plays, &mut rng);
        match g.outcome() {
            Some(Outcome::Won(w, _)) if w == a_plays => tally.wins += 1,
            Some(Outcome::Won(..)) => tally.losses += 1,
            _ => tally.draws += 1,
        }
        each(&g, a_plays);
    }
    tally
}

/// One game: two random placements, then `a` (playing side `a_plays`) against `b`.
pub fn play_game(a: Level, b: Level, a_plays: u8, rng: &mut Rng) -> Morris {
    let (mut g, _) = random_opening(2, rng);
    // Built before the game, so that the levels' play does not hang on when it is ready.
    Table::for_rules(g.position());
    while !g.is_over() {
        let level = if g.position().turn() == a_plays { a } else { b };
        let t = level
            .choose(g.position(), g.repetitions(), rng.next_u64(), None)
            .expect("a side to act has a token");
        g = g
            .play(&Action::Token(t))
            .expect("the computer plays legal tokens");
    }
    g
}

/// A game under the default rules after `plies` random tokens, and those tokens.
pub fn random_opening(plies: usize, rng: &mut Rng) -> (Morris, Vec<Token>) {
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut g = Morris::setup(&Map::new(), &sides).expect("default rules");
    let mut opening = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = g.legal();
        let t = legal[rng.below(legal.len() as u64) as usize];
        opening.push(t);
        g = g.play(&Action::Token(t)).expect("a legal token");
    }
    (g, opening)
}

/// Plays `pairs` random openings of `plies` placements twice each, colours swapped, so that an
/// opening that favours one side favours neither player; on `threads` threads (1 or 2: one per
/// core of a small machine; 1 for matches at a fixed time on a machine shared with other
/// work, as a busy core would slow one player down). `game(opening, a_plays, seed)` plays one
/// game to its end with the first player on side `a_plays`; `each` sees every game when it
/// ends, with the side the first player had. For tuning the search (`examples/tune.rs`,
/// `examples/strength.rs`).
pub fn paired_match(
    threads: u64,
    pairs: u64,
    plies: usize,
    seed: u64,
    game: impl Fn(&[Token], u8, u64) -> Morris + Sync,
    each: impl Fn(&Morris, u8) + Sync,
) -> Tally {
    // Two streams of openings whatever the number of threads: one thread plays both, one
    // after the other, so that a match on one thread plays the games of one on two.
    let streams: Vec<Vec<(Vec<Token>, u64)>> = (0..2u64)
        .map(|stream| {
            let mut rng = Rng::new(seed + stream);
            (0..pairs / 2 + stream * (pairs % 2))
                .map(|n| {
                    let (_, opening) = random_opening(plies, &mut rng);
                    (opening, seed ^ (n << 8 | stream << 1))
                })
                .collect()
        })
        .collect();
    let lists = if threads.clamp(1, 2) == 2 {
        streams
    } else {
        vec![streams.concat()]
    };
    openings_match(&lists, game, each)
}

/// Plays each opening of `lists` (with the seed its games are given) twice, colours swapped,
/// one thread for each list; `game` and `each` as in [`paired_match`]. For matches from
/// chosen positions (`examples/strength.rs --openings`).
pub fn openings_match(
    lists: &[Vec<(Vec<Token>, u64)>],
    game: impl Fn(&[Token], u8, u64) -> Morris + Sync,
    each: impl Fn(&Morris, u8) + Sync,
) -> Tally {
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = lists
            .iter()
            .map(|list| {
                let (game, each) = (&game, &each);
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for (opening, seed) in list {
                        for a_plays in 0..2u8 {
                            let g = game(opening, a_plays, *seed);
                            match g.outcome() {
                                Some(Outcome::Won(w, _)) if w == a_plays => tally.wins += 1,
                                Some(Outcome::Won(..)) => tally.losses += 1,
                                _ => tally.draws += 1,
                            }
                            each(&g, a_plays);
                        }
                    }
                    tally
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|t| t.join().expect("a match thread"))
            .collect()
    });
    tallies.iter().fold(Tally::default(), |a, t| Tally {
        wins: a.wins + t.wins,
        draws: a.draws + t.draws,
        losses: a.losses + t.losses,
    })
}
