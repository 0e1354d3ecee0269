//! A throw of the mölkky: which pins fell, or a miss, or a foul.

use crate::error::Error;
use crate::game::{action_key, optional};
use serde_json::Value;

/// The pins in their starting formation, back row first, as they stand seen from the
/// throwing line: `7 9 8 / 5 11 12 6 / 3 10 4 / 1 2`.
pub const PIN_FORMATION: [&[u8]; 4] = [&[7, 9, 8], &[5, 11, 12, 6], &[3, 10, 4], &[1, 2]];

/// The five pins of a mölkkout, in their line from the throwing zone.
pub const MOLKKOUT_PINS: [u8; 5] = [6, 4, 12, 10, 8];

/// One throw: the fallen pins as a bit set (bit n for pin n) and whether it was a foul.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throw {
    pins: u16,
    foul: bool,
}

impl Throw {
    /// A throw that felled `pins` (validated: distinct, 1-12).
    pub fn pins(pins: &[u8]) -> Result<Self, Error> {
        let mut set = 0u16;
        for &p in pins {
            if !(1..=12).contains(&p) {
                return Err(
                    Error::bad_action(format!("there is no pin {p}")).with_code("no_such_pin")
                );
            }
            if set & (1 << p) != 0 {
                return Err(
                    Error::bad_action(format!("pin {p} is given twice")).with_code("repeated_pin")
                );
            }
            set |= 1 << p;
        }
        Ok(Throw {
            pins: set,
            foul: false,
        })
    }

    /// A foul: counts as a miss.
    pub fn foul() -> Self {
        Throw {
            pins: 0,
            foul: true,
        }
    }

    /// Reads `{"pins": [...], "foul": bool}`; other keys (such as `at`) are ignored, but not
    /// another game's action key, and `foul` is `true` or `false`, never `null`.
    pub fn from_json(v: &Value) -> Result<Self, Error> {
        let obj = v.as_object().ok_or_else(|| {
            Error::bad_action("a throw is an object such as {\"pins\": [7]}").with_code("shape")
        })?;
        action_key(obj, &["pins"], "Mölkky")?;
        let foul = match optional(obj, "foul")? {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(Error::bad_action("\"foul\" must be true or false").with_code("shape"))
            }
        };
        let pins = match obj.get("pins") {
            Some(Value::Array(items)) => items
                .iter()
                .map(|p| {
                    p.as_u64()
                        .filter(|n| (1..=12).contains(n))
                        .map(|n| n as u8)
                        .ok_or_else(|| {
                            Error::bad_action(format!("there is no pin {p}"))
                                .with_code("no_such_pin")
                        })
                })
                .collect::<Result<Vec<u8>, Error>>()?,
            None if foul => Vec::new(),
            _ => {
                return Err(
                    Error::bad_action("a throw needs \"pins\": a list of pin numbers")
                        .with_code("shape"),
                )
            }
        };
        if foul && !pins.is_empty() {
            return Err(
                Error::bad_action("a foul scores nothing: give no pins with it")
                    .with_code("foul_with_pins"),
            );
        }
        if foul {
            Ok(Throw::foul())
        } else {
            Throw::pins(&pins)
        }
    }

    /// The fallen pins, in increasing order.
    pub fn fallen(&self) -> impl Iterator<Item = u8> + '_ {
        (1..=12u8).filter(move |p| self.pins & (1 << p) != 0)
    }

    /// How many pins fell.
    pub fn count(&self) -> u32 {
        self.pins.count_ones()
    }

    /// Whether this throw was a foul.
    pub fn is_foul(&self) -> bool {
        self.foul
    }

    /// One pin scores its number, two or more score their count, none scores 0.
    pub fn points(&self) -> u32 {
        match self.count() {
            0 => 0,
            1 => self.pins.trailing_zeros(),
            n => n,
        }
    }

    /// Whether every fallen pin is one of the mölkkout's five.
    pub fn fits_molkkout(&self) -> bool {
        let allowed: u16 = MOLKKOUT_PINS.iter().fold(0, |m, &p| m | (1 << p));
        self.pins & !allowed == 0
    }

    /// The JSON form of the throw.
    pub fn to_json(&self) -> Value {
        if self.foul {
            serde_json::json!({"pins": [], "foul": true})
        } else {
            serde_json::json!({"pins": self.fallen().collect::<Vec<_>>()})
        }
    }
}
