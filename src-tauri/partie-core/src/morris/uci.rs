//! The engine protocol of `morris.md` on any reader and writer (`partie uci` uses stdin and
//! stdout), so that the computer can be matched against other Morris engines.

use super::game::{Action, Morris};
use super::search::{Limits, Searcher};
use crate::game::Game;
use serde_json::{Map, Value};
use std::io::{BufRead, Write};
use std::time::Duration;

/// The option names of the protocol and the rule keys they set.
const OPTIONS: [(&str, &str); 7] = [
    ("pieces", "pieces"),
    ("flying", "flying"),
    ("diagonals", "diagonals"),
    ("samemill", "same_mill"),
    ("doublemill", "double_mill"),
    ("repetition", "repetition"),
    ("quietmoves", "quiet_moves"),
];

fn option_value(key: &str, raw: &str) -> Value {
    match key {
        "flying" | "diagonals" => Value::Bool(raw.eq_ignore_ascii_case("true")),
        "same_mill" | "double_mill" => Value::String(raw.to_ascii_lowercase()),
        _ => raw
            .parse::<u64>()
            .map(Value::from)
            .unwrap_or(Value::String(raw.into())),
    }
}

fn setup(rules: &Map<String, Value>) -> Morris {
    let sides = [vec!["White".to_string()], vec!["Black".to_string()]];
    Morris::setup(rules, &sides)
        .or_else(|_| Morris::setup(&Map::new(), &sides))
        .expect("the default rules are valid")
}

/// Runs the protocol until `quit` or the end of the input. Errors are reported as `info string`
/// lines: an engine must not die on a bad command.
pub fn run(input: impl BufRead, mut out: impl Write) -> std::io::Result<()> {
    let mut rules = Map::new();
    let mut game = setup(&rules);
    let mut searcher = Searcher::new(22);
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["uci", ..] => {
                writeln!(out, "id name Partie")?;
                writeln!(out, "id author the Partie developers")?;
                for (name, _) in [
                    ("Pieces", ""),
                    ("Flying", ""),
                    ("Diagonals", ""),
                    ("SameMill", ""),
                    ("DoubleMill", ""),
                    ("Repetition", ""),
                    ("QuietMoves", ""),
                ] {
                    writeln!(out, "option name {name} type string")?;
                }
                writeln!(out, "uciok")?;
            }
            ["isready", ..] => writeln!(out, "readyok")?,
            ["setoption", "name", name, "value", value, ..] => {
                match OPTIONS.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
                    Some((_, key)) => {
                        rules.insert(key.to_string(), option_value(key, value));
                        game = setup(&rules);
                    }
                    None => writeln!(out, "info string unknown option {name}")?,
                }
            }
            ["ucinewgame", ..] => {
                game = setup(&rules);
                searcher = Searcher::new(22);
            }
            ["position", "startpos", rest @ ..] => {
                game = setup(&rules);
                let moves = match rest {
                    ["moves", m @ ..] => m,
                    _ => &[],
                };
                for m in moves {
                    let next = Action::from_json(&Value::String(m.to_string()))
                        .map_err(|e| e.detail)
                        .and_then(|a| game.clone().play(&a).map_err(|r| r.error.detail));
                    match next {
                        Ok(g) => game = g,
                        Err(why) => {
                            writeln!(out, "info string {why}")?;
                            break;
                        }
                    }
                }
            }
            ["go", rest @ ..] => {
                let mut limits = Limits {
                    depth: 64,
                    time: Some(Duration::from_millis(1000)),
                    extra: None,
                    stop: None,
                    nodes: None,
                };
                match rest {
                    ["movetime", ms, ..] => {
                        limits.time = ms.parse().ok().map(Duration::from_millis);
                    }
                    ["depth", d, ..] => {
                        limits.depth = d.parse().unwrap_or(6);
                        limits.time = None;
                    }
                    _ => {}
                }
                if game.is_over() {
                    writeln!(out, "bestmove (none)")?;
                    continue;
                }
                let r = searcher.search(game.position(), game.repetitions(), &limits);
                writeln!(
                    out,
                    "info depth {} score cp {} nodes {} time {}",
                    r.depth,
                    r.score,
                    r.nodes,
                    r.elapsed.as_millis()
                )?;
                match r.best {
                    Some(t) => writeln!(out, "bestmove {t}")?,
                    None => writeln!(out, "bestmove (none)")?,
                }
            }
            ["quit", ..] => break,
            [] => {}
            _ => writeln!(out, "info string unknown command {line:?}")?,
        }
        out.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_session_answers_each_command_and_plays_a_legal_token() {
        let input = "uci\nisready\nsetoption name Flying value false\nucinewgame\n\
                     position startpos moves d6 f4\ngo depth 2\nbogus\nquit\nisready\n";
        let mut out = Vec::new();
        super::run(input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.contains(&"uciok"));
        assert!(lines.contains(&"readyok"));
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        assert!(super::super::Token::parse(best).is_some(), "{best}");
        assert!(!["d6", "f4"].contains(&best), "an occupied point: {best}");
        assert!(text.contains("unknown command"));
        assert_eq!(
            text.matches("readyok").count(),
            1,
            "nothing is read after quit"
        );
    }
}
