//! Helpers shared by the store tests.

use serde_json::{Map, Value};

/// Sides from player names.
pub fn sides(names: &[&[&str]]) -> Vec<Vec<String>> {
    names
        .iter()
        .map(|s| s.iter().map(|n| n.to_string()).collect())
        .collect()
}

/// Rules from a JSON object.
pub fn rules(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}
