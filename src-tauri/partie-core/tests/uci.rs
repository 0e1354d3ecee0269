//! The engine protocol (`docs/games/morris.md` and `docs/uci.md`): a session
//! runs on a thread with its input and output in channels, so that each answer is timed from
//! the command that asked for it.

use partie_core::game::Game;
use partie_core::morris::fen;
use partie_core::morris::search::{Level, Limits};
use partie_core::morris::{Action, Morris, MorrisRules, Position, Token};
use partie_core::rng::Rng;
use serde_json::{json, Map};
use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The input side: lines from a channel, the end of input when it closes.
struct Lines {
    rx: Receiver<String>,
    buf: Vec<u8>,
    at: usize,
}

impl Read for Lines {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buf.len() {
            let Ok(line) = self.rx.recv() else {
                return Ok(0);
            };
            self.buf = format!("{line}\n").into_bytes();
            self.at = 0;
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The output side: each complete line, with the moment it was written.
struct Timed {
    tx: Sender<(Instant, String)>,
    partial: Vec<u8>,
}

impl Write for Timed {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(data);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let line = String::from_utf8_lossy(&line[..i]).into_owned();
            let _ = self.tx.send((Instant::now(), line));
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The sessions of these tests, one at a time: on a machine of two cores, searches run side by
/// side would take each other's time, and the clock tests measure to the millisecond.
static SERIAL: Mutex<()> = Mutex::new(());

/// A session of the protocol on its own thread.
struct Engine {
    _serial: MutexGuard<'static, ()>,
    to: Option<Sender<String>>,
    from: Receiver<(Instant, String)>,
    thread: Option<JoinHandle<std::io::Result<()>>>,
}

impl Engine {
    /// A session, ready (its table made) when this returns.
    fn start() -> Engine {
        let serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        let (to, rx) = channel();
        let (tx, from) = channel();
        let thread = std::thread::spawn(move || {
            let input = BufReader::new(Lines {
                rx,
                buf: Vec::new(),
                at: 0,
            });
            partie_core::morris::uci::run(
                input,
                Timed {
                    tx,
                    partial: Vec::new(),
                },
            )
        });
        let e = Engine {
            _serial: serial,
            to: Some(to),
            from,
            thread: Some(thread),
        };
        e.ready();
        e
    }

    /// Sends one command; when it was sent.
    fn send(&self, line: &str) -> Instant {
        let at = Instant::now();
        self.to.as_ref().unwrap().send(line.into()).unwrap();
        at
    }

    /// The next line, if one comes within `wait`.
    fn next(&self, wait: Duration) -> Option<(Instant, String)> {
        match self.from.recv_timeout(wait) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The lines up to and including the first that starts with `prefix` (within `wait`),
    /// and when that one came.
    fn until(&self, prefix: &str, wait: Duration) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((at, line)) = self.next(left) else {
                panic!("no {prefix:?} within {wait:?}; got {lines:?}");
            };
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return (lines, at);
            }
        }
    }

    /// Sends `command` and reads its answers up to `bestmove`: the lines, the search's info
    /// line as (depth, score, nodes), the best token, and the time the answer took.
    fn go(&self, command: &str, wait: Duration) -> Search {
        let sent = self.send(command);
        let (lines, at) = self.until("bestmove", wait);
        let info = lines
            .iter()
            .find(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| panic!("no info line: {lines:?}"));
        let words: Vec<&str> = info.split_whitespace().collect();
        let field = |name: &str| -> i64 {
            let i = words.iter().position(|&w| w == name).unwrap();
            words[i + 1].parse().unwrap()
        };
        Search {
            depth: field("depth") as u32,
            score: field("cp") as i32,
            nodes: field("nodes") as u64,
            best: lines.last().unwrap()["bestmove ".len()..].to_string(),
            took: at - sent,
            lines,
        }
    }

    /// The position's FEN and legal tokens as the `d` command shows them.
    fn shown(&self) -> (String, String) {
        self.send("d");
        let (lines, _) = self.until("legal", Duration::from_secs(5));
        let fen = lines
            .iter()
            .find_map(|l| l.strip_prefix("fen "))
            .expect("a fen line")
            .to_string();
        (fen, lines.last().unwrap().clone())
    }

    /// Answers `isready`, and every line before it.
    fn ready(&self) -> Vec<String> {
        self.send("isready");
        self.until("readyok", Duration::from_secs(10)).0
    }

    /// Closes the input and waits for the session to end.
    fn end(mut self) -> Vec<String> {
        self.to.take();
        self.thread.take().unwrap().join().unwrap().unwrap();
        self.from.try_iter().map(|(_, l)| l).collect()
    }
}

impl Drop for Engine {
    /// Ends the session before the next test's begins: `quit` stops a search under way.
    fn drop(&mut self) {
        if let Some(to) = self.to.take() {
            let _ = to.send("quit".into());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[derive(Debug)]
struct Search {
    depth: u32,
    score: i32,
    nodes: u64,
    best: String,
    took: Duration,
    lines: Vec<String>,
}

const SECOND: Duration = Duration::from_secs(1);

/// A position of the middle game, six pieces a side, where the side to act sees one turn
/// deeper that it loses a piece (`tests/morris_search.rs`): the strongest level's score falls.
const THREAT: &str = "b2,c4,d1,d6,e5,f4/a1,a4,c5,d7,e3,g4 w 0/0 0 0";

fn legal(fen_text: &str, token: &str) -> bool {
    let pos = fen::read(MorrisRules::default(), fen_text).unwrap();
    Token::parse(token).is_some_and(|t| pos.is_legal(t))
}

#[test]
fn uci_names_the_level_and_strict_options() {
    let e = Engine::start();
    e.send("uci");
    let (lines, _) = e.until("uciok", SECOND);
    assert!(lines.contains(&"option name Level type spin default 5 min 1 max 5".to_string()));
    assert!(lines.contains(&"option name Strict type check default false".to_string()));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Flying type check")));
    e.send("setoption name Level value 6");
    e.send("setoption name Pieces value 20");
    let lines = e.ready();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("info string error Level is 1 to 5"));
    assert!(lines[1].starts_with("info string error"), "{lines:?}");
    // A refused rule leaves the others as they were.
    e.send("setoption name Flying value false");
    e.send("setoption name Pieces value 20");
    e.ready();
    e.send("position startpos");
    assert_eq!(e.shown().0, "-/- w 9/9 0 0");
    e.send("setoption name Pieces value 6");
    assert_eq!(e.shown().0, "-/- w 6/6 0 0");
}

#[test]
fn the_default_level_is_the_strongest_and_a_level_chosen_is_the_one_that_plays() {
    // Same depth, same position: level 5 looks past the horizon at the mills still to close
    // (its score is the quiescence search's), level 4 does not.
    let pos = fen::read(MorrisRules::default(), THREAT).unwrap();
    let history = Default::default();
    let depth = |d: u32| Limits {
        depth: d,
        ..Limits::default()
    };
    let [five, four] = [5, 4].map(|n| {
        let level = Level::new(n).unwrap();
        level.think(&mut level.searcher(), &pos, &history, 0, &depth(1))
    });
    assert_ne!(
        five.score, four.score,
        "the position does not tell them apart"
    );

    let e = Engine::start();
    e.send(&format!("position fen {THREAT}"));
    let default = e.go("go depth 1", 5 * SECOND);
    assert_eq!((default.depth, default.score), (1, five.score));
    e.send("setoption name Level value 4");
    e.send(&format!("position fen {THREAT}"));
    let level4 = e.go("go depth 1", 5 * SECOND);
    assert_eq!((level4.depth, level4.score), (1, four.score));
    // Level 4 looks six turns ahead at most, however deep it is asked to go.
    let capped = e.go("go depth 12", 10 * SECOND);
    assert_eq!(capped.depth, 6);
    // Levels 1 to 3 look a fixed number of turns ahead; levels 1 and 2 sometimes play a
    // careless token instead (depth 0: 35 % and 10 % of their moves), level 3 never does.
    for level in 1..=3u32 {
        e.send(&format!("setoption name Level value {level}"));
        let mut searched = 0;
        for _ in 0..20 {
            let s = e.go("go depth 12", 5 * SECOND);
            assert!(
                s.depth == level || (level < 3 && s.depth == 0),
                "level {level}: {s:?}"
            );
            assert!(legal(THREAT, &s.best), "{s:?}");
            searched += usize::from(s.depth == level);
        }
        // At 35 % careless, fewer than 5 searched moves in 20 comes about once in 10^5 runs.
        let least = if level == 3 { 20 } else { 5 };
        assert!(
            searched >= least,
            "level {level}: {searched} of 20 searched"
        );
    }
    e.send("setoption name Level value 5");
    e.send(&format!("position fen {THREAT}"));
    assert_eq!(e.go("go depth 1", 5 * SECOND).score, five.score);
}

#[test]
fn go_depth_searches_to_that_depth_without_a_clock() {
    let e = Engine::start();
    e.send("position startpos moves d6 f4 d2 b4");
    let mut nodes = 0;
    for depth in [3, 5, 8] {
        e.send("ucinewgame");
        e.send("position startpos moves d6 f4 d2 b4");
        let s = e.go(&format!("go depth {depth}"), 20 * SECOND);
        assert_eq!(s.depth, depth, "{s:?}");
        assert!(s.nodes > nodes, "a deeper search visits more: {s:?}");
        nodes = s.nodes;
        assert!(!["d6", "f4", "d2", "b4"].contains(&s.best.as_str()));
    }
}

#[test]
fn go_nodes_stops_at_that_many_positions() {
    let e = Engine::start();
    let mut searches = Vec::new();
    for nodes in [2_000, 2_000, 50_000] {
        e.send("ucinewgame");
        e.send("position startpos moves d6 f4");
        searches.push(e.go(&format!("go nodes {nodes}"), 10 * SECOND));
    }
    let [a, b, c] = &searches[..] else {
        unreachable!()
    };
    assert_eq!(a.nodes, 2_000, "{a:?}");
    assert_eq!(c.nodes, 50_000, "{c:?}");
    assert!(a.depth < c.depth, "{a:?} {c:?}");
    // The same count from the same start plays the same.
    assert_eq!((&a.best, a.score, a.depth), (&b.best, b.score, b.depth));
}

/// The budget the engine announced for a move on a clock: (for the move, at most).
fn budget(s: &Search) -> (Duration, Duration) {
    let line = s
        .lines
        .iter()
        .find_map(|l| l.strip_prefix("info string budget "))
        .unwrap_or_else(|| panic!("no budget: {:?}", s.lines));
    let n: Vec<u64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (Duration::from_millis(n[0]), Duration::from_millis(n[1]))
}

const SLACK: Duration = Duration::from_millis(10);

#[test]
fn go_movetime_answers_in_that_time() {
    let e = Engine::start();
    for moves in ["", " moves d6 f4 d2 b4 f2 d7 b6 g7 a4 c3"] {
        e.send(&format!("position startpos{moves}"));
        let s = e.go("go movetime 300", 5 * SECOND);
        assert!(
            s.took <= Duration::from_millis(300) + SLACK,
            "{:?} for 300 ms",
            s.took
        );
        assert!(
            s.took >= Duration::from_millis(250),
            "{:?}: too soon",
            s.took
        );
    }
}

#[test]
fn a_clock_is_spent_a_share_at_a_time_and_never_overrun() {
    let e = Engine::start();
    // 300 ms each: a share of the clock while placing, for White then for Black.
    e.send("position startpos");
    let s = e.go("go wtime 300 btime 300", 5 * SECOND);
    let (time, most) = budget(&s);
    assert_eq!(
        (time, most),
        (Duration::from_millis(15), Duration::from_millis(45))
    );
    assert!(s.took <= most + SLACK, "{:?} for {most:?}", s.took);
    // Black's clock is Black's: a long one for White changes nothing.
    e.send("position startpos moves d6");
    let s = e.go("go wtime 100000 btime 300 winc 0 binc 100", 5 * SECOND);
    let (time, most) = budget(&s);
    assert_eq!(time, Duration::from_millis(15 + 75));
    assert!(s.took <= most + SLACK, "{:?} for {most:?}", s.took);
    // Where the score falls, the strongest level takes its extra time, and no more.
    e.send(&format!("position fen {THREAT}"));
    let s = e.go("go wtime 3000 btime 3000", 5 * SECOND);
    let (time, most) = budget(&s);
    assert_eq!(
        (time, most),
        (Duration::from_millis(100), Duration::from_millis(300))
    );
    assert!(
        s.took > time + Duration::from_millis(50),
        "no extra time: {s:?}"
    );
    assert!(s.took <= most + SLACK, "{:?} for {most:?}", s.took);
    // Almost nothing left: an answer all the same, within it.
    for left in [40, 20, 5] {
        e.send("position startpos moves d6 f4");
        let s = e.go(&format!("go wtime {left} btime {left}"), 5 * SECOND);
        let (_, most) = budget(&s);
        assert!(most < Duration::from_millis(left));
        assert!(s.took <= most + SLACK, "{:?} for {most:?}", s.took);
        assert!(legal("d6/f4 w 8/8 0 0", &s.best), "{s:?}");
    }
}

#[test]
fn go_infinite_thinks_until_stop_and_stop_answers_at_once() {
    let e = Engine::start();
    e.send("position startpos moves d6 f4");
    e.send("go infinite");
    assert!(
        e.next(Duration::from_millis(300)).is_none(),
        "an infinite search answered by itself"
    );
    // Still thinking, and still answering.
    let asked = e.send("isready");
    let (lines, at) = e.until("readyok", SECOND);
    assert_eq!(lines, ["readyok"]);
    assert!(at - asked < SLACK, "readyok took {:?}", at - asked);
    let s = e.go("stop", SECOND);
    assert!(s.took < Duration::from_millis(20), "stop took {:?}", s.took);
    assert!(s.depth >= 5, "{s:?}");
    assert!(legal("d6/f4 w 8/8 0 0", &s.best), "{s:?}");
    // A level that answers at once waits for stop all the same.
    e.send("setoption name Level value 1");
    e.send("go infinite");
    assert!(e.next(Duration::from_millis(200)).is_none());
    let s = e.go("stop", SECOND);
    assert!(s.took < Duration::from_millis(20), "stop took {:?}", s.took);
    // A stop with nothing to stop says nothing.
    e.send("stop");
    assert_eq!(e.ready(), ["readyok"]);
}

#[test]
fn quit_stops_a_search_and_the_end_of_the_input_lets_it_finish() {
    let e = Engine::start();
    e.send("position startpos");
    let sent = e.send("go movetime 5000");
    e.send("quit");
    let (_, at) = e.until("bestmove", SECOND);
    assert!(at - sent < Duration::from_millis(100), "{:?}", at - sent);
    let rest = e.end();
    assert!(rest.is_empty(), "{rest:?}");

    let e = Engine::start();
    e.send("position startpos");
    let sent = e.send("go movetime 300");
    let lines = e.end();
    assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:?}");
    assert!(sent.elapsed() >= Duration::from_millis(250));
}

#[test]
fn strict_mode_refuses_an_illegal_history_and_the_default_plays_up_to_it() {
    let e = Engine::start();
    e.send("position startpos moves d6 f4");
    let before = e.shown();
    // By default, as before: the moves stop before the illegal token, which is reported.
    e.send("position startpos moves d6 d6 a1");
    let lines = e.ready();
    assert!(
        lines[0].starts_with("info string error position: move 2 d6 is not legal here"),
        "{lines:?}"
    );
    assert_eq!(e.shown().0, "d6/- b 8/9 0 0");

    e.send("setoption name Strict value true");
    for bad in [
        "position startpos moves d6 f4 d6",
        "position startpos moves d6 f4 zz",
        "position startpos moves d6 f4 a1-a4",
        "position startpos moves a1 b1",
        "position fen -/- w 9/9 0 0 moves xa1",
        "position fen a1/- w 9/9 0 0",
        "position fen",
        "position nowhere",
    ] {
        e.send("position startpos moves d6 f4");
        e.send(bad);
        let lines = e.ready();
        assert_eq!(lines.len(), 2, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error"),
            "{bad}: {lines:?}"
        );
        assert_eq!(e.shown(), before, "{bad} changed the position");
    }
    // A legal history is taken as it is, and a game that has ended takes no more moves.
    e.send("position startpos moves d6 f4 d2");
    assert_eq!(e.ready(), ["readyok"]);
    assert_eq!(e.shown().0, "d2,d6/f4 b 7/8 0 0");
    e.send("position fen a1,a4/b2,b4,b6 w 0/0 0 0 moves a4-a7");
    assert!(e.ready()[0].starts_with("info string error"));
    e.send("setoption name Strict value false");
    e.send("position fen a1,a4/b2,b4,b6 w 0/0 0 0 moves a4-a7");
    assert!(e.ready()[0].starts_with("info string error"));
    e.send("go depth 3");
    assert_eq!(e.until("bestmove", SECOND).0, ["bestmove (none)"]);
}

/// Random games to some point under `rules`, with removals owed, flying and moving phases.
fn positions(rules: &serde_json::Value, count: usize, seed: u64) -> Vec<Morris> {
    let rules: Map<String, serde_json::Value> = rules.as_object().unwrap().clone();
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = Morris::setup(&rules, &sides).unwrap();
        let stop = rng.below(80);
        for _ in 0..stop {
            if g.is_over() {
                break;
            }
            let legal = g.legal();
            let t = legal[rng.below(legal.len() as u64) as usize];
            g = g.play(&Action::Token(t)).unwrap();
        }
        out.push(g);
    }
    out
}

#[test]
fn a_fen_reads_back_as_the_position_it_was_written_from() {
    for rules in [
        json!({}),
        json!({"same_mill": "once", "diagonals": true, "double_mill": "each"}),
        json!({"pieces": 3, "flying": false, "quiet_moves": 0}),
        json!({"pieces": 12}),
    ] {
        let mut pending = 0;
        for g in positions(&rules, 300, 7) {
            let pos = *g.position();
            let text = fen::write(&pos);
            assert_eq!(fen::read(*pos.rules(), &text), Ok(pos), "{text}");
            pending += usize::from(pos.pending() > 0);
        }
        assert!(pending > 0, "no removal owed under {rules}");
    }
    let once = fen::write(&Position::start(MorrisRules {
        same_mill: partie_core::morris::SameMill::Once,
        ..MorrisRules::default()
    }));
    assert_eq!(once, "-/- w 9/9 0 0 -/-");
}

#[test]
fn a_position_set_by_its_fen_is_the_position_played_to() {
    let e = Engine::start();
    let placed = "d6 f4 d2 b4 f2 d7 b6 g7 a4 c3 e3 e5 c4 d3 g4 a1 a7 c5";
    e.send(&format!("position startpos moves {placed}"));
    let (text, legal) = e.shown();
    assert_eq!(
        text,
        "a4,a7,b6,c4,d2,d6,e3,f2,g4/a1,b4,c3,c5,d3,d7,e5,f4,g7 w 0/0 0 0"
    );
    let played = e.go("go depth 6", 10 * SECOND);
    e.send("ucinewgame");
    e.send(&format!("position fen {text}"));
    assert_eq!(e.shown(), (text.clone(), legal));
    let again = e.go("go depth 6", 10 * SECOND);
    assert_eq!((played.best, played.score), (again.best, again.score));
    // Moves after a FEN lead where the same moves lead from the start.
    e.send(&format!(
        "position startpos moves {placed} d2-d1 f4-e4 g4-f4"
    ));
    let from_start = e.shown();
    e.send(&format!("position fen {text} moves d2-d1 f4-e4 g4-f4"));
    assert_eq!(e.shown(), from_start);
    assert_eq!(
        from_start.0,
        "a4,a7,b6,c4,d1,d6,e3,f2,f4/a1,b4,c3,c5,d3,d7,e4,e5,g7 b 0/0 0 3"
    );
}

#[test]
fn a_quiet_move_count_at_its_largest_does_not_overflow() {
    // With no quiet-move rule nothing bounds the count a FEN gives: a move from 65535 used to
    // overflow it (a panic in a debug build).
    let e = Engine::start();
    e.send("setoption name QuietMoves value 0");
    e.send("position fen a1,a4,b2/c3,c5,g7 w 0/0 0 65535 moves a1-d1");
    let (text, _) = e.shown();
    assert!(text.ends_with(" 65535"), "{text}");
    let rules = MorrisRules {
        quiet_moves: 0,
        ..MorrisRules::default()
    };
    let pos = fen::read(rules, "a1,a4,b2/c3,c5,g7 w 0/0 0 65535").unwrap();
    let after = pos.after(Token::parse("a1-d1").unwrap());
    assert_eq!(fen::write(&after), text);
}
