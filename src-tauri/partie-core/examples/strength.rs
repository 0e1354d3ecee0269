//! Matches between two ways of searching at a fixed time per move, for measuring what a change
//! to the search is worth. Each random opening is played twice, colours swapped; one game at a
//! time unless `THREADS` is 2 (a busy core slows one player down, and the match means nothing).
//!
//! ```sh
//! # a player: the time per move while placing and while moving, in ms, then optionally the
//! # thirteen to sixteen weights of `tune` (or the first eight, the rest from WEIGHTS), then
//! # letters: `q` looks past the horizon at the mills still to close, `x` allows three times the time
//! # when the best score falls, `e` searches a turn deeper where a blockade comes, `l` searches
//! # late quiet tokens a turn shallower first (late move reductions), `p` reduces every quiet
//! # token after the first while placing, `t` searches past the last two placements into the
//! # moving phase before judging (`Searcher::with_transition`), `w` pairs the table's slots
//! # (`Searcher::with_two_tier`), `g` gives its first slots to the present search over past
//! # ones (`Searcher::with_aging`), `s` takes level 5's weights (STRONG) instead of
//! # WEIGHTS, `h` adds the table of shapes in the file `PARTIE_SHAPES` names (`fit
//! # --shapes`), and last `f` with a per cent judges the moving phase with fear (`f150`:
//! # `Searcher::with_fear`); `c` with a value (before any `f`) makes a draw worth that much to
//! # it (`c30`: `Searcher::with_contempt`); `v` with a margin (before any `c` or `f`) cuts a
//! # quiet position near the horizon by its judgement alone (`v50`: `Searcher::with_futility`).
//! # Level 5 is `qxslw`, level 5 before issue 21 `qx`.
//! # Or `L1` to `L5` for the computer's levels on their own clocks.
//! cargo run --release -p partie-core --example strength -- 500,500qxsl 500,500qx 50 1
//! ```
//! prints one line a game (the first player's result, how the game ended, the pieces each
//! player had when the placing ended and at the end), each lost game's move list, then the
//! first player's wins, draws and losses over 2 × PAIRS games, and each player's thinking time.
//!
//! ```sh
//! # the games start from the move lists of FILE instead (one a line, `#` for a comment), each
//! # played PAIRS times with both colours (the games differ by the clock's milliseconds);
//! # scripts/morris_level_placings.py writes such a file from the games lost from a level placing;
//! # every game's move list is printed, and scripts/morris_suite_sides.py tells, opening by
//! # opening, the losses the other player also had with that colour from those it held
//! cargo run --release -p partie-core --example strength -- 100,100qxsl 100,100qx 4 1 2 --openings FILE
//! ```

use partie_core::game::Game;
use partie_core::morris::arena::{openings_match, paired_match};
use partie_core::morris::search::{
    shapes_from_text, Level, Limits, Searcher, Weights, SHAPES, STRONG, WEIGHTS,
};
use partie_core::morris::{notation, Action, Morris, Outcome, Position, Token};
use serde_json::Map;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Copy)]
enum Player {
    Search {
        quiescence: bool,
        /// Whether it may think three times as long when its best score falls (as level 5).
        extend: bool,
        /// Whether it searches a turn deeper where a blockade comes.
        extensions: bool,
        /// Whether it searches late quiet tokens a turn shallower first.
        reductions: bool,
        /// Whether, while placing, it reduces every quiet token after the first.
        placing_reductions: bool,
        /// The last placements searched past (`t`: two pieces in hand; 0: none).
        transition: u32,
        /// The table's slots in pairs (`w`).
        two_tier: bool,
        /// A pair's first slot given to the present search over past ones (`g`).
        aging: bool,
        /// The fear it judges the moving phase with, in per cent (100: none).
        fear: i32,
        /// What a draw is worth to it (`c` and the value; 0: nothing).
        contempt: i32,
        /// The margin a turn of its cuts by the judgement alone (`v` and the margin; 0: none).
        futility: i32,
        weights: Weights,
        placing: u64,
        moving: u64,
    },
    Level(Level),
}

fn player(s: &str) -> Player {
    if let Some(n) = s.strip_prefix('L') {
        return Player::Level(Level::new(n.parse().expect("a level")).expect("levels 1 to 5"));
    }
    let (s, fear) = match s.split_once('f') {
        Some((s, f)) => (s, f.parse().expect("a per cent after f")),
        None => (s, 100),
    };
    let (s, contempt) = match s.split_once('c') {
        Some((s, c)) => (s, c.parse().expect("a value after c")),
        None => (s, 0),
    };
    let (s, futility) = match s.split_once('v') {
        Some((s, v)) => (s, v.parse().expect("a margin after v")),
        None => (s, 0),
    };
    let flags: String = s.chars().filter(|c| c.is_ascii_alphabetic()).collect();
    let numbers = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let v: Vec<i32> = numbers
        .split(',')
        .map(|x| x.parse().expect("a whole number"))
        .collect();
    let base = if flags.contains('s') { STRONG } else { WEIGHTS };
    let mut weights = match v.len() - 2 {
        0 | 8 | 13..=Weights::COUNT => base.with_list(&v[2..]),
        _ => None,
    }
    .expect("PLACING_MS,MOVING_MS[,8 OR 13 TO 16 WEIGHTS][qxesltp]");
    if flags.contains('h') {
        weights.shapes = Some(shapes_table());
    }
    Player::Search {
        quiescence: flags.contains('q'),
        extend: flags.contains('x'),
        extensions: flags.contains('e'),
        reductions: flags.contains('l'),
        placing_reductions: flags.contains('p'),
        transition: if flags.contains('t') { 2 } else { 0 },
        two_tier: flags.contains('w'),
        aging: flags.contains('g'),
        fear,
        contempt,
        futility,
        weights,
        placing: v[0] as u64,
        moving: v[1] as u64,
    }
}

/// The table of shapes in the file `PARTIE_SHAPES` names (as `fit --shapes` writes it), read
/// once for the whole match.
fn shapes_table() -> &'static [i32; SHAPES] {
    let file = std::env::var("PARTIE_SHAPES").expect("PARTIE_SHAPES names a table of shapes");
    let text = std::fs::read_to_string(&file).expect("the table of shapes read");
    Box::leak(shapes_from_text(&text).expect("a table of SHAPES whole numbers"))
}

/// The game `p[side]` plays as `side` after `opening`; each side's thinking time is added to
/// `thought[side]`, in microseconds.
fn game(p: [Player; 2], opening: &[Token], seed: u64, thought: [&AtomicU64; 2]) -> Morris {
    let mut g = opened(opening);
    // Each side keeps its table for the whole game, as the strongest level does.
    let mut searchers = p.map(|p| match p {
        Player::Search {
            weights,
            quiescence,
            extensions,
            reductions,
            placing_reductions,
            transition,
            two_tier,
            aging,
            fear,
            contempt,
            futility,
            ..
        } => Some(
            Searcher::new(22)
                .with_weights(weights)
                .with_quiescence(quiescence)
                .with_extensions(extensions)
                .with_reductions(reductions)
                .with_placing_reductions(placing_reductions)
                .with_transition(transition)
                .with_two_tier(two_tier)
                .with_aging(aging)
                .with_fear(fear)
                .with_contempt(contempt)
                .with_futility(futility),
        ),
        Player::Level(_) => None,
    });
    while !g.is_over() {
        let side = g.position().turn() as usize;
        let start = Instant::now();
        let t = match (p[side], &mut searchers[side]) {
            (
                Player::Search {
                    placing,
                    moving,
                    extend,
                    ..
                },
                Some(s),
            ) => {
                let ms = if g.position().is_moving() {
                    moving
                } else {
                    placing
                };
                let limits = Limits {
                    depth: 64,
                    time: Some(Duration::from_millis(ms)),
                    extra: extend.then(|| Duration::from_millis(2 * ms)),
                    stop: None,
                    nodes: None,
                };
                s.search(g.position(), g.repetitions(), &limits).best
            }
            (Player::Level(l), _) => l.choose(g.position(), g.repetitions(), seed, None),
            _ => unreachable!("a searcher for each searching side"),
        }
        .expect("a side to act has a token");
        thought[side].fetch_add(start.elapsed().as_micros() as u64, Ordering::Relaxed);
        g = g
            .play(&Action::Token(t))
            .expect("the search plays legal tokens");
    }
    g
}

/// The pieces each side had (on the board and in hand) when the last piece was placed, and
/// the number of the turn of the game's last token.
fn placing_end(g: &Morris) -> ([u8; 2], usize) {
    let mut pos = Position::start(*g.rules());
    let mut at_end = None;
    for (_, a) in g.played() {
        if let Action::Token(t) = a {
            pos = pos.after(*t);
            if at_end.is_none() && pos.is_moving() && pos.pending() == 0 {
                at_end = Some([pos.on_board(0), pos.on_board(1)]);
            }
        }
    }
    (at_end.unwrap_or([0, 0]), g.turns().len())
}

/// One line on a finished game, from the first player's side `a`.
fn describe(n: u32, g: &Morris, a: u8) -> String {
    let pos = g.position();
    let ([p0, p1], turns) = placing_end(g);
    let (mine, theirs) = if a == 0 { (p0, p1) } else { (p1, p0) };
    let (result, why) = match g.outcome() {
        Some(Outcome::Won(w, r)) => (if w == a { "won" } else { "lost" }, r.as_str()),
        Some(Outcome::Drawn(r)) => ("drawn", r.as_str()),
        None => ("unfinished", "-"),
    };
    let left = |s: u8| pos.on_board(s) + pos.in_hand(s);
    let phase = if !pos.is_moving() {
        "placing"
    } else if pos.flies(0) || pos.flies(1) {
        "flying"
    } else {
        "moving"
    };
    format!(
        "game {n}: {result} ({why}, {phase}) as side {a} after {turns} turns; placing ended {mine}-{theirs}, the end {}-{}",
        left(a),
        left(1 - a)
    )
}

/// The game after `opening`, under the default rules.
fn opened(opening: &[Token]) -> Morris {
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut g = Morris::setup(&Map::new(), &sides).expect("default rules");
    for &t in opening {
        g = g.play(&Action::Token(t)).expect("a legal opening");
    }
    g
}

/// The openings of a file: one move list a line in the spec's notation; blank lines and lines
/// starting with `#` are skipped. Each must be legal under the default rules.
fn openings(path: &str) -> Vec<Vec<Token>> {
    let text = std::fs::read_to_string(path).expect("a file of move lists");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let list = notation::parse(l).expect("a move list");
            let tokens: Vec<Token> = list
                .tokens
                .iter()
                .map(|t| Token::parse(t).expect("a token"))
                .collect();
            // Checked here, so that a wrong line stops the match before it starts.
            assert!(
                !opened(&tokens).is_over(),
                "an opening of a game not over: {l}"
            );
            tokens
        })
        .collect()
}

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    let suite = match args.iter().position(|a| a == "--openings") {
        Some(i) if i + 1 < args.len() => {
            let file = args.remove(i + 1);
            args.remove(i);
            Some(openings(&file))
        }
        Some(_) => {
            eprintln!("--openings needs a FILE");
            std::process::exit(2);
        }
        None => None,
    };
    if args.len() < 4 {
        eprintln!("usage: strength PLAYER_A PLAYER_B PAIRS [SEED] [THREADS] [--openings FILE]");
        std::process::exit(2);
    }
    let (a, b) = (player(&args[1]), player(&args[2]));
    let pairs: u64 = args[3].parse().expect("a number of pairs");
    let seed: u64 = args.get(4).map_or(1, |x| x.parse().expect("a seed"));
    let threads: u64 = args
        .get(5)
        .map_or(1, |x| x.parse().expect("1 or 2 threads"));
    let played = AtomicU32::new(0);
    // Each player's thinking time over the match, so that a player that spends its time
    // unevenly (more while placing) can be shown to have taken no more than the other.
    let thought = [AtomicU64::new(0), AtomicU64::new(0)];
    let play = |opening: &[Token], a_plays, seed| {
        let [ta, tb] = &thought;
        if a_plays == 0 {
            game([a, b], opening, seed, [ta, tb])
        } else {
            game([b, a], opening, seed, [tb, ta])
        }
    };
    // From chosen openings every game's move list is printed, so that each game can be told
    // to its opening (`scripts/morris_suite_sides.py`); from random ones, the lost games'.
    let every_list = suite.is_some();
    let each = |g: &Morris, a_plays| {
        let n = played.fetch_add(1, Ordering::Relaxed) + 1;
        println!("{}", describe(n, g, a_plays));
        let result = match g.outcome() {
            Some(Outcome::Won(w, _)) if w != a_plays => "lost",
            Some(Outcome::Won(..)) => "won",
            _ => "drawn",
        };
        if result == "lost" || every_list {
            println!("  {result} as side {a_plays}: {}", g.move_list());
        }
    };
    let tally = match &suite {
        Some(openings) => {
            // Opening `n` on thread `n % threads`, each `pairs` times.
            let threads = threads.clamp(1, 2) as usize;
            let lists: Vec<Vec<(Vec<Token>, u64)>> = (0..threads)
                .map(|th| {
                    let mine = openings.iter().enumerate().skip(th).step_by(threads);
                    mine.flat_map(|(n, o)| {
                        (0..pairs).map(move |k| (o.clone(), (n as u64) << 16 | k))
                    })
                    .collect()
                })
                .collect();
            openings_match(&lists, play, each)
        }
        None => paired_match(threads, pairs, 2, seed, play, each),
    };
    println!("{} - {} - {}", tally.wins, tally.draws, tally.losses);
    let seconds = |t: &AtomicU64| t.load(Ordering::Relaxed) as f64 / 1e6;
    println!(
        "thinking time: first player {:.1} s, second {:.1} s",
        seconds(&thought[0]),
        seconds(&thought[1])
    );
}
