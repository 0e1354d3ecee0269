//! Nine Men's Morris (`docs/games/morris.md`): the board and its variants, the rules as bitboards,
//! the move list notation, perft, the computer opponent and its engine protocol.

pub mod arena;
pub mod board;
pub mod endgame;
pub mod fen;
mod game;
pub mod notation;
pub mod perft;
pub mod position;
mod rules;
pub mod search;
pub mod uci;

pub use game::{Action, Morris};
pub use position::{Outcome, Parts, Position, Reason, Token};
pub use rules::{DoubleMill, MorrisRules, SameMill};

/// The points, lines and option ranges, for the screens.
pub fn info() -> serde_json::Value {
    let lines = |diagonals: bool| -> Vec<Vec<&'static str>> {
        board::Geometry::get(diagonals)
            .lines
            .iter()
            .map(|&m| {
                (0..24)
                    .filter(|i| m & (1 << i) != 0)
                    .map(|i| board::POINTS[i])
                    .collect()
            })
            .collect()
    };
    serde_json::json!({
        "points": board::POINTS,
        "lines": lines(false),
        "diagonal_lines": lines(true)[16..],
        "sides": {"min": 2, "max": 2},
        "options": {
            "pieces": {"default": 9, "min": 3, "max": 12, "presets": [3, 6, 9, 12]},
            "flying": {"default": true},
            "diagonals": {"default": false},
            "same_mill": {"default": "again", "values": ["again", "once"]},
            "double_mill": {"default": "one", "values": ["one", "each"]},
            "repetition": {"default": 3, "values": [0, 2, 3, 4, 5]},
            "quiet_moves": {"default": 100, "min": 0, "max": 400}
        }
    })
}

/// The actions of a game written as a move list (`1. d6 f4 ... 1-0`), played from `rules` and
/// `sides`. A result that the tokens do not reach by themselves is recorded as a resignation or
/// an agreed draw. Every token is checked by replaying the game; anything wrong is
/// `bad_record`. `Record::from_morris_move_list` makes the record.
pub fn actions_from_move_list(
    text: &str,
    rules: &serde_json::Map<String, serde_json::Value>,
    sides: &[Vec<String>],
) -> Result<Vec<serde_json::Value>, crate::error::Error> {
    use crate::error::Error;
    use crate::game::Game;
    if text.len() > 256 * 1024 {
        return Err(Error::bad_record("a move list is at most 256 KB").with_code("moves_too_long"));
    }
    let list = notation::parse(text)?;
    let mut actions: Vec<serde_json::Value> =
        list.tokens.iter().map(|t| serde_json::json!(t)).collect();
    // A refusal names the token and keeps its reason's code: the person who typed the list is
    // told which move, and why, in their language.
    let refused = |token: &str, e: Error| Error {
        kind: crate::error::ErrorKind::BadRecord,
        detail: if e.detail.starts_with(token) {
            e.detail
        } else {
            format!("{token}: {}", e.detail)
        },
        code: e.code,
        subject: Some(token.to_string()),
    };
    // The setup first: a refusal after it is a token's, the one after those played.
    Morris::setup(rules, sides).map_err(|e| Error::bad_record(e.detail))?;
    let mut played = 0;
    let g: Morris =
        crate::game::replay_with(rules, sides, &actions, |_, _| (), |(), _| played += 1)
            .map_err(|e| refused(&list.tokens[played], e))?;
    if let Some(result) = list.result {
        match g.result() {
            Some(r) if r == result => {}
            Some(r) => {
                return Err(
                    Error::bad_record(format!("the moves end {r}, the list says {result}"))
                        .with_code("result_differs")
                        .with_subject(result),
                )
            }
            None => {
                let action = g.parse_action(&serde_json::json!(result))?;
                g.play(&action).map_err(|r| refused(&result, r.error))?;
                actions.push(serde_json::json!(result));
            }
        }
    }
    Ok(actions)
}
