//! The engine protocol (`docs/games/morris.md`) on any reader and writer (`partie uci` uses
//! stdin and stdout), so that the computer can be matched against other Morris engines. What it
//! adds to the spec (levels, clocks, node and depth limits, `go infinite` and `stop`, the FEN,
//! the strict mode) is described in `docs/uci.md`.
//!
//! A search runs on a thread of its own while the input is read, so that `stop`, `isready`
//! and `quit` are answered at once; the search writes its own `bestmove`.

use super::fen;
use super::position::{Outcome, Position, Reason, Repetitions, Token};
use super::rules::MorrisRules;
use super::search::{Level, Limits, Searcher};
use serde_json::{Map, Value};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The rule options of the protocol: their names, the rule keys they set, and how the `uci`
/// command announces them.
const RULES: [(&str, &str, &str); 7] = [
    ("Pieces", "pieces", "type spin default 9 min 3 max 12"),
    ("Flying", "flying", "type check default true"),
    ("Diagonals", "diagonals", "type check default false"),
    (
        "SameMill",
        "same_mill",
        "type combo default again var again var once",
    ),
    (
        "DoubleMill",
        "double_mill",
        "type combo default one var one var each",
    ),
    (
        "Repetition",
        "repetition",
        "type spin default 3 min 0 max 5",
    ),
    (
        "QuietMoves",
        "quiet_moves",
        "type spin default 100 min 0 max 400",
    ),
];

/// How long before its time is up a search stops, for its answer to be written and read (and
/// for the thread that searches to be woken, on a busy machine).
pub const REACTION: Duration = Duration::from_millis(10);

/// The level a session starts with: the app's strongest.
pub const DEFAULT_LEVEL: u8 = 5;

fn option_value(key: &str, raw: &str) -> Value {
    match key {
        "flying" | "diagonals" => match raw.to_ascii_lowercase().as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(raw.into()),
        },
        "same_mill" | "double_mill" => Value::String(raw.to_ascii_lowercase()),
        _ => raw
            .parse::<u64>()
            .map(Value::from)
            .unwrap_or(Value::String(raw.into())),
    }
}

/// A check option's value.
fn check(raw: &str) -> Result<bool, String> {
    match raw.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("a check option is true or false, not {raw:?}")),
    }
}

/// How long to think with a clock: `remaining` on the side's clock, `increment` added after
/// each move, `moves_to_go` before the next time control (none: the rest of the game). The
/// first value is the time for this move, the second the most it may take when its best
/// score falls (three times as much, like the app's level 5, within what the clock allows).
///
/// A share of what remains (a thirtieth when the moves to go are not known, half again while
/// pieces are placed, as the app's level 5 does), plus three quarters of the increment; never
/// more than the remaining time less a margin of a tenth of it, at most 50 ms, for reading,
/// writing and the interface's own delays.
pub fn budget(
    remaining: Duration,
    increment: Duration,
    moves_to_go: Option<u32>,
    placing: bool,
) -> (Duration, Duration) {
    let margin = (remaining / 10).min(Duration::from_millis(50));
    let usable = remaining.saturating_sub(margin);
    let share = match moves_to_go {
        Some(n) => remaining / n.clamp(1, 50),
        None if placing => remaining / 20,
        None => remaining / 30,
    };
    let time = (share + increment * 3 / 4).min(usable);
    (time, (time * 3).min(usable))
}

/// A position and what a game needs beyond it: the history for repetition, and the result.
struct Board {
    pos: Position,
    history: Repetitions,
    end: Option<Outcome>,
}

impl Board {
    fn new(pos: Position) -> Board {
        let mut history = Repetitions::default();
        // The position given counts as the first of the history (it does in the moving phase
        // only; the token stands for whatever led there, and is not a removal).
        history.push(Token::Place(0), &pos);
        Board {
            pos,
            history,
            end: pos.outcome(),
        }
    }

    /// Plays `word`, as `Morris` does; why not when it is not a legal token here.
    fn play(&mut self, word: &str) -> Result<(), String> {
        let t = Token::parse(word)
            .ok_or_else(|| format!("{word:?} is not a token (d6, a1-a4, xb4)"))?;
        if self.end.is_some() {
            return Err(format!("{word}: the game is over"));
        }
        if !self.pos.is_legal(t) {
            let legal: Vec<String> = self
                .pos
                .tokens()
                .as_slice()
                .iter()
                .map(|t| t.to_string())
                .collect();
            return Err(format!(
                "{word} is not legal here (legal: {})",
                legal.join(" ")
            ));
        }
        self.pos = self.pos.after(t);
        self.history.push(t, &self.pos);
        self.end = if self.history.reached(self.pos.rules().repetition, &self.pos) {
            Some(Outcome::Drawn(Reason::Repetition))
        } else {
            self.pos.outcome()
        };
        Ok(())
    }
}

/// What `go` asked for.
#[derive(Debug, Default)]
struct Go {
    clock: [Option<u64>; 2],
    increment: [Option<u64>; 2],
    moves_to_go: Option<u32>,
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
}

impl Go {
    /// Reads `go`'s parameters; each one not understood is reported and left out.
    fn parse(words: &[&str], errors: &mut Vec<String>) -> Go {
        let mut go = Go::default();
        let mut i = 0;
        while i < words.len() {
            let word = words[i];
            let value = words.get(i + 1).copied().unwrap_or("");
            let mut number = |what: &str| -> Option<u64> {
                let n = value.parse().ok();
                if n.is_none() {
                    errors.push(format!("go {what} needs a number, not {value:?}"));
                }
                n
            };
            match word {
                "infinite" => go.infinite = true,
                "wtime" => go.clock[0] = number(word),
                "btime" => go.clock[1] = number(word),
                "winc" => go.increment[0] = number(word),
                "binc" => go.increment[1] = number(word),
                "movestogo" => go.moves_to_go = number(word).map(|n| n.min(1000) as u32),
                "movetime" => go.movetime = number(word),
                "depth" => go.depth = number(word).map(|n| n.clamp(1, 64) as u32),
                "nodes" => go.nodes = number(word),
                other => {
                    errors.push(format!("go {other} is not understood"));
                    i += 1;
                    continue;
                }
            }
            i += if word == "infinite" { 1 } else { 2 };
        }
        go
    }

    /// The limits `level` searches `pos` with (see `docs/uci.md`), and, on a clock, the
    /// budget it chose.
    fn limits(
        &self,
        level: Level,
        pos: &Position,
        stop: Arc<AtomicBool>,
    ) -> (Limits, Option<(Duration, Duration)>) {
        let ms = Duration::from_millis;
        let own = level.own_time(pos);
        // Levels below the strongest never think longer than they do in the app.
        let cap = |t: Duration| match own {
            Some(o) if level.number() < 5 => t.min(o),
            _ => t,
        };
        let side = pos.turn() as usize;
        let mut announced = None;
        let (time, room) = if self.infinite {
            (None, None)
        } else if let Some(t) = self.movetime {
            (Some(cap(ms(t))), None)
        } else if let Some(remaining) = self.clock[side] {
            let increment = ms(self.increment[side].unwrap_or(0));
            let placing = !pos.is_moving();
            let (time, most) = budget(ms(remaining), increment, self.moves_to_go, placing);
            announced = Some((time, most));
            (Some(cap(time)), Some(most.saturating_sub(time)))
        } else if self.depth.is_some() || self.nodes.is_some() {
            (None, None)
        } else {
            (own, None)
        };
        let mut limits = level.limits(time, Some(stop));
        if time.is_none() || self.movetime.is_some() {
            limits.extra = None;
        }
        if let Some(room) = room {
            limits.extra = limits.extra.map(|e| e.min(room));
        }
        if let Some(d) = self.depth {
            limits.depth = limits.depth.min(d);
        }
        limits.nodes = self.nodes;
        (limits, announced)
    }
}

/// A search under way on its thread.
struct Running<'scope> {
    handle: ScopedJoinHandle<'scope, io::Result<Searcher>>,
    stop: Arc<AtomicBool>,
    infinite: bool,
}

/// The state of a session.
struct Engine {
    options: Map<String, Value>,
    rules: MorrisRules,
    level: Level,
    strict: bool,
    board: Board,
    /// The level's searcher, kept between moves at level 5 (`None` while a search has it).
    searcher: Option<Searcher>,
}

impl Engine {
    fn new() -> Engine {
        let rules = MorrisRules::default();
        let level = Level::new(DEFAULT_LEVEL).expect("a level");
        Engine {
            options: Map::new(),
            rules,
            level,
            strict: false,
            board: Board::new(Position::start(rules)),
            searcher: Some(level.searcher()),
        }
    }

    fn new_game(&mut self) {
        self.board = Board::new(Position::start(self.rules));
        self.searcher = Some(self.level.searcher());
    }

    /// `setoption name NAME value VALUE`.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name.eq_ignore_ascii_case("level") {
            let level = value
                .parse()
                .ok()
                .and_then(Level::new)
                .ok_or_else(|| format!("Level is 1 to 5, not {value:?}"))?;
            if level != self.level {
                self.level = level;
                self.searcher = Some(level.searcher());
            }
            return Ok(());
        }
        if name.eq_ignore_ascii_case("strict") {
            self.strict = check(value)?;
            return Ok(());
        }
        let (_, key, _) = RULES
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown option {name}"))?;
        let mut options = self.options.clone();
        options.insert(key.to_string(), option_value(key, value));
        self.rules = MorrisRules::from_map(&options).map_err(|e| e.detail)?;
        self.options = options;
        // A new game under the new rules, and a table that knows nothing of the old ones.
        self.new_game();
        Ok(())
    }

    /// `position startpos|fen FEN [moves TOKEN...]`. A token that cannot be played ends the
    /// list there (the position is the one before it), or in strict mode refuses the whole
    /// command (the position is the one before the command); either way it is an error.
    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let (setup, moves) = match words.iter().position(|&w| w == "moves") {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let mut board = match setup {
            ["startpos"] => Board::new(Position::start(self.rules)),
            ["fen", fen @ ..] => Board::new(
                fen::read(self.rules, &fen.join(" ")).map_err(|e| format!("position fen: {e}"))?,
            ),
            _ => return Err("position startpos or position fen FEN, then moves".into()),
        };
        for (i, word) in moves.iter().enumerate() {
            if let Err(why) = board.play(word) {
                let why = format!("position: move {} {why}", i + 1);
                if self.strict {
                    return Err(format!("{why}; the position is unchanged"));
                }
                self.board = board;
                return Err(format!("{why}; the moves stop before it"));
            }
        }
        self.board = board;
        Ok(())
    }

    /// The `d` command: the board drawn, its FEN, the legal tokens and the result if any.
    fn show(&self) -> Vec<String> {
        const ROWS: [&str; 7] = [
            "o-----o-----o",
            "| o---o---o |",
            "| | o-o-o | |",
            "o-o-o   o-o-o",
            "| | o-o-o | |",
            "| o---o---o |",
            "o-----o-----o",
        ];
        let pos = &self.board.pos;
        let mut out = Vec::new();
        for (r, row) in ROWS.iter().enumerate() {
            let rank = 7 - r;
            let line: String = row
                .chars()
                .enumerate()
                .map(|(c, ch)| {
                    if ch != 'o' {
                        return ch;
                    }
                    let name = format!("{}{rank}", (b'a' + c as u8 / 2) as char);
                    let p = super::board::point(&name).expect("a point of the drawing");
                    match (0..2).find(|&s| pos.board(s) & (1 << p) != 0) {
                        Some(0) => 'W',
                        Some(_) => 'B',
                        None => '.',
                    }
                })
                .collect();
            out.push(format!("{rank} {line}"));
        }
        out.push("  a b c d e f g".into());
        out.push(format!("fen {}", fen::write(pos)));
        match self.board.end {
            None => {
                let legal: Vec<String> = pos
                    .tokens()
                    .as_slice()
                    .iter()
                    .map(|t| t.to_string())
                    .collect();
                out.push(format!("legal {}", legal.join(" ")));
            }
            Some(o) => out.push(format!("result {}", result(o))),
        }
        out
    }
}

fn result(o: Outcome) -> String {
    match o {
        Outcome::Won(0, r) => format!("1-0 {}", r.as_str()),
        Outcome::Won(_, r) => format!("0-1 {}", r.as_str()),
        Outcome::Drawn(r) => format!("1/2-1/2 {}", r.as_str()),
    }
}

fn lock<W>(out: &Mutex<W>) -> MutexGuard<'_, W> {
    out.lock().unwrap_or_else(|p| p.into_inner())
}

/// Writes `lines` and flushes.
fn say<W: Write>(out: &Mutex<W>, lines: &[String]) -> io::Result<()> {
    let mut o = lock(out);
    for l in lines {
        writeln!(o, "{l}")?;
    }
    o.flush()
}

/// Ends the search under way, if any: at once when `now` or when it is infinite, otherwise
/// when it has used its limits; its searcher comes back to the engine.
fn finish(running: &mut Option<Running<'_>>, engine: &mut Engine, now: bool) -> io::Result<()> {
    let Some(r) = running.take() else {
        return Ok(());
    };
    if now || r.infinite {
        r.stop.store(true, Ordering::Relaxed);
        r.handle.thread().unpark();
    }
    let searcher = r
        .handle
        .join()
        .map_err(|_| io::Error::other("the search failed"))??;
    engine.searcher = Some(searcher);
    Ok(())
}

/// `go`: starts the search on a thread, or answers at once when the game is over.
fn go<'scope, 'env, W: Write + Send>(
    scope: &'scope Scope<'scope, 'env>,
    out: &'env Mutex<W>,
    engine: &mut Engine,
    words: &[&str],
) -> io::Result<Option<Running<'scope>>> {
    let received = Instant::now();
    let mut errors = Vec::new();
    let request = Go::parse(words, &mut errors);
    let mut lines: Vec<String> = errors
        .iter()
        .map(|e| format!("info string error {e}"))
        .collect();
    let board = &engine.board;
    if board.end.is_some() || board.pos.tokens().is_empty() {
        lines.push("bestmove (none)".into());
        say(out, &lines)?;
        return Ok(None);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let level = engine.level;
    let (mut limits, budget) = request.limits(level, &board.pos, stop.clone());
    if let Some((time, most)) = budget {
        lines.push(format!(
            "info string budget {} ms up to {} ms",
            time.as_millis(),
            most.as_millis()
        ));
    }
    say(out, &lines)?;
    let mut searcher = match engine.searcher.take() {
        Some(s) if level.keeps_table() => s,
        _ => level.searcher(),
    };
    let (pos, history) = (board.pos, board.history.clone());
    let infinite = request.infinite;
    let flag = stop.clone();
    // The weaker levels' mistakes need not replay.
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let handle = scope.spawn(move || -> io::Result<Searcher> {
        // The clock runs from the moment `go` was read, and the search leaves a little of its
        // time for the answer to be written and read.
        let spent = received.elapsed() + REACTION;
        limits.time = limits.time.map(|t| t.saturating_sub(spent));
        let r = level.think(&mut searcher, &pos, &history, seed, &limits);
        // An infinite search answers only when it is stopped.
        while infinite && !flag.load(Ordering::Relaxed) {
            std::thread::park();
        }
        let best = r.best.map_or("(none)".to_string(), |t| t.to_string());
        say(
            out,
            &[
                format!(
                    "info depth {} score cp {} nodes {} time {}",
                    r.depth,
                    r.score,
                    r.nodes,
                    received.elapsed().as_millis()
                ),
                format!("bestmove {best}"),
            ],
        )?;
        Ok(searcher)
    });
    Ok(Some(Running {
        handle,
        stop,
        infinite,
    }))
}

/// Runs the protocol until `quit` (which stops a search at once) or the end of the input
/// (which lets a search with limits end, and stops an infinite one). Errors are reported as
/// `info string error ...` lines: an engine must not die on a bad command.
pub fn run(input: impl BufRead, out: impl Write + Send) -> io::Result<()> {
    let out = Mutex::new(out);
    std::thread::scope(|scope| {
        let mut engine = Engine::new();
        let mut running = None;
        let read = session(scope, &out, input, &mut engine, &mut running);
        // A search still under way when reading failed stops now.
        let end = finish(&mut running, &mut engine, read.is_err());
        read.and(end)
    })
}

/// Reads and answers commands until `quit` or the end of the input.
fn session<'scope, 'env, W: Write + Send>(
    scope: &'scope Scope<'scope, 'env>,
    out: &'env Mutex<W>,
    input: impl BufRead,
    engine: &mut Engine,
    running: &mut Option<Running<'scope>>,
) -> io::Result<()> {
    // Lines as bytes: a line that is not UTF-8 is a bad line, read as best it can be (and
    // refused as such), not the end of the session.
    for line in input.split(b'\n') {
        let line = line?;
        let line = String::from_utf8_lossy(&line);
        let line = line.strip_suffix('\r').unwrap_or(&line);
        let words: Vec<&str> = line.split_whitespace().collect();
        // Commands that change what is searched wait for the search under way.
        if matches!(
            words.first(),
            Some(&("setoption" | "ucinewgame" | "position" | "go" | "d"))
        ) {
            finish(running, engine, false)?;
        }
        let mut lines = Vec::new();
        match words.as_slice() {
            ["uci", ..] => {
                lines.push("id name Partie".to_string());
                lines.push("id author the Partie developers".to_string());
                lines.push(format!(
                    "option name Level type spin default {DEFAULT_LEVEL} min 1 max 5"
                ));
                lines.push("option name Strict type check default false".to_string());
                for (name, _, kind) in RULES {
                    lines.push(format!("option name {name} {kind}"));
                }
                lines.push("uciok".to_string());
            }
            ["isready", ..] => lines.push("readyok".into()),
            ["setoption", "name", name, "value", value, ..] => {
                if let Err(e) = engine.set_option(name, value) {
                    lines.push(format!("info string error {e}"));
                }
            }
            ["ucinewgame", ..] => engine.new_game(),
            ["position", rest @ ..] => {
                if let Err(e) = engine.set_position(rest) {
                    lines.push(format!("info string error {e}"));
                }
            }
            ["go", rest @ ..] => *running = go(scope, out, engine, rest)?,
            ["stop", ..] => finish(running, engine, true)?,
            ["d", ..] => lines = engine.show(),
            ["quit", ..] => return finish(running, engine, true),
            [] => {}
            _ => lines.push(format!("info string unknown command {line:?}")),
        }
        say(out, &lines)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_answers_each_command_and_plays_a_legal_token() {
        let input = "uci\nisready\nsetoption name Flying value false\nucinewgame\n\
                     position startpos moves d6 f4\ngo depth 2\nbogus\nquit\nisready\n";
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.contains(&"uciok"));
        assert!(lines.contains(&"readyok"));
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        assert!(Token::parse(best).is_some(), "{best}");
        assert!(!["d6", "f4"].contains(&best), "an occupied point: {best}");
        assert!(text.contains("unknown command"));
        assert_eq!(
            text.matches("readyok").count(),
            1,
            "nothing is read after quit"
        );
    }

    #[test]
    fn the_clock_is_shared_out_and_never_spent_whole() {
        let ms = Duration::from_millis;
        let (time, most) = budget(ms(60_000), ms(0), None, false);
        assert_eq!(time, ms(2_000));
        assert_eq!(most, ms(6_000));
        // Placing takes half again.
        assert_eq!(budget(ms(60_000), ms(0), None, true).0, ms(3_000));
        // Most of the increment is spent.
        assert_eq!(budget(ms(60_000), ms(1_000), None, false).0, ms(2_750));
        // The last move before the control may take what remains but the margin.
        assert_eq!(budget(ms(1_000), ms(0), Some(1), false), (ms(950), ms(950)));
        // A large increment on a nearly empty clock: never more than is left.
        for left in [0, 1, 5, 30, 100, 300] {
            let (time, most) = budget(ms(left), ms(5_000), None, false);
            assert!(time <= most && most < ms(left).max(ms(1)), "{left} ms left");
        }
    }
}
