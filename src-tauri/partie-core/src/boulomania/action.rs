//! Boulomania's actions as records write them (`docs/games/boulomania.md`, "Actions").

use super::board::Board;
use crate::error::Error;
use crate::game::{action_key, optional};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Where a double with two dice goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum To {
    /// The jack square of the die's value.
    Jack,
    /// The ball square of the total.
    Total,
}

/// For each arrow square a pushed ball leaves, the square it goes to.
pub type Via = BTreeMap<u8, u8>;

/// One action of a mène.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// The jack roll: the jack goes to this jack square.
    Jack(u8),
    /// Pointing with two or three dice.
    Point {
        /// The dice as rolled.
        dice: Vec<u8>,
        /// Where a double goes, when both are possible.
        to: Option<To>,
        /// Arrow choices for pushed balls.
        via: Via,
    },
    /// Shooting the opposing ball on a square with one die.
    Shoot {
        /// The target's square.
        target: u8,
        /// The die.
        die: u8,
        /// Arrow choices when a 4 moves the target.
        via: Via,
    },
    /// Shooting the jack with one die.
    ShootJack(u8),
}

fn bad(detail: impl Into<String>) -> Error {
    Error::bad_action(detail).with_code("boulomania_action")
}

fn die(v: &Value, what: &str) -> Result<u8, Error> {
    v.as_u64()
        .filter(|d| (1..=6).contains(d))
        .map(|d| d as u8)
        .ok_or_else(|| {
            bad(format!("{what} must be a die from 1 to 6, not {v}")).with_code("bad_die")
        })
}

fn via(o: &Map<String, Value>) -> Result<Via, Error> {
    let mut out = Via::new();
    let Some(v) = optional(o, "via")? else {
        return Ok(out);
    };
    let map = v
        .as_object()
        .ok_or_else(|| bad(format!("via must be an object, not {v}")))?;
    let board = Board::get();
    for (k, to) in map {
        let from: u8 = k
            .parse()
            .ok()
            .filter(|f: &u8| (7..=18).contains(f) && !board.arrows[*f as usize].is_empty())
            .ok_or_else(|| bad(format!("via: {k} is not an arrow square")))?;
        let to = to
            .as_u64()
            .and_then(|t| u8::try_from(t).ok())
            .filter(|t| board.exits(from).contains(&Some(*t)))
            .ok_or_else(|| bad(format!("via: from {from} a ball cannot go to {to}")))?;
        out.insert(from, to);
    }
    Ok(out)
}

impl Action {
    /// Reads an action; a malformed one (unknown shape, two action keys, a die of 7, a square
    /// that does not exist, a choice no roll could open, `to` or `via` given as `null`) is
    /// `bad_action`. Keys the action does not use are ignored.
    pub fn from_json(v: &Value) -> Result<Action, Error> {
        let o = v
            .as_object()
            .ok_or_else(|| bad(format!("a Boulomania action is an object, not {v}")))?;
        let key = action_key(o, &["jack", "point", "shoot", "shoot_jack"], "Boulomania")?;
        if key == Some("jack") {
            return die(&o["jack"], "the jack's square").map(Action::Jack);
        }
        if key == Some("shoot_jack") {
            return die(&o["shoot_jack"], "the die").map(Action::ShootJack);
        }
        if key == Some("shoot") {
            let t = &o["shoot"];
            let target = t
                .as_u64()
                .filter(|t| (1..=18).contains(t))
                .map(|t| t as u8)
                .ok_or_else(|| bad(format!("no square {t}")).with_code("bad_square"))?;
            let d = o.get("die").ok_or_else(|| bad("a shot needs its die"))?;
            return Ok(Action::Shoot {
                target,
                die: die(d, "the die")?,
                via: via(o)?,
            });
        }
        if key == Some("point") {
            let p = &o["point"];
            let arr = p
                .as_array()
                .filter(|a| a.len() == 2 || a.len() == 3)
                .ok_or_else(|| bad(format!("pointing takes two or three dice, not {p}")))?;
            let dice = arr
                .iter()
                .map(|d| die(d, "a die"))
                .collect::<Result<Vec<u8>, Error>>()?;
            let to = match optional(o, "to")? {
                None => None,
                Some(t) => {
                    let double = dice.len() == 2 && dice[0] == dice[1];
                    let to = match t.as_str() {
                        Some("jack") => To::Jack,
                        Some("total") => To::Total,
                        _ => return Err(bad(format!("to is \"jack\" or \"total\", not {t}"))),
                    };
                    if !double {
                        return Err(
                            bad("to is only for a double with two dice").with_code("no_double")
                        );
                    }
                    if to == To::Total && dice[0] * 2 < 8 {
                        return Err(bad("a double under 8 cannot go to its total")
                            .with_code("total_under_8"));
                    }
                    Some(to)
                }
            };
            return Ok(Action::Point {
                dice,
                to,
                via: via(o)?,
            });
        }
        Err(bad(format!("unknown Boulomania action {v}")))
    }

    /// The record form.
    pub fn to_json(&self) -> Value {
        let via_json = |v: &Via| -> Value {
            v.iter()
                .map(|(k, t)| (k.to_string(), json!(t)))
                .collect::<Map<String, Value>>()
                .into()
        };
        match self {
            Action::Jack(j) => json!({"jack": j}),
            Action::ShootJack(d) => json!({"shoot_jack": d}),
            Action::Shoot { target, die, via } => {
                let mut o = json!({"shoot": target, "die": die});
                if !via.is_empty() {
                    o["via"] = via_json(via);
                }
                o
            }
            Action::Point { dice, to, via } => {
                let mut o = json!({"point": dice});
                if let Some(to) = to {
                    o["to"] = json!(if *to == To::Jack { "jack" } else { "total" });
                }
                if !via.is_empty() {
                    o["via"] = via_json(via);
                }
                o
            }
        }
    }
}
