//! Reading a game's options from a record's `rules` object: shared by every game so that a bad
//! value is refused the same way, with the same codes, whatever the game.

use crate::error::Error;
use serde_json::{Map, Value};

/// A bad option value (`bad_setup`, code `bad_rule`).
pub(crate) fn bad(detail: String) -> Error {
    Error::bad_setup(detail).with_code("bad_rule")
}

/// Refuses any key that is not one of `known` (code `unknown_rule`).
pub(crate) fn only(map: &Map<String, Value>, game: &str, known: &[&str]) -> Result<(), Error> {
    match map.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => {
            Err(Error::bad_setup(format!("unknown {game} option {key:?}"))
                .with_code("unknown_rule"))
        }
        None => Ok(()),
    }
}

/// A whole number from `lo` to `hi`, or `default` when absent.
pub(crate) fn number(
    map: &Map<String, Value>,
    key: &str,
    default: u32,
    lo: u32,
    hi: u32,
) -> Result<u32, Error> {
    match map.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|n| (lo as u64..=hi as u64).contains(n))
            .map(|n| n as u32)
            .ok_or_else(|| {
                bad(format!(
                    "{key} must be a whole number from {lo} to {hi}, not {v}"
                ))
            }),
    }
}

/// One of named `values`, or `default` when absent.
pub(crate) fn choice<T: Copy>(
    map: &Map<String, Value>,
    key: &str,
    default: T,
    values: &[(&str, T)],
) -> Result<T, Error> {
    match map.get(key) {
        None => Ok(default),
        Some(v) => values
            .iter()
            .find(|(name, _)| v.as_str() == Some(name))
            .map(|&(_, t)| t)
            .ok_or_else(|| {
                let names: Vec<&str> = values.iter().map(|(n, _)| *n).collect();
                bad(format!("{key} must be one of {names:?}, not {v}"))
            }),
    }
}

/// `true` or `false`, or `default` when absent.
pub(crate) fn flag(map: &Map<String, Value>, key: &str, default: bool) -> Result<bool, Error> {
    match map.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| bad(format!("{key} must be true or false, not {v}"))),
    }
}
