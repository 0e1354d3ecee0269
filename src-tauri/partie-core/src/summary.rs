//! A match's summary as the screens receive it: JSON text written once, straight from the
//! game's typed summary, and read back as a tree only by whoever asks (tests, the lists).
//!
//! A throw's answer is on the screen's critical path; building the summary as a `Value` tree
//! and then writing the tree out cost a Mölkky throw more than its commit did.

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;
use std::ops::Index;
use std::sync::OnceLock;

/// A summary as JSON text, with its tree parsed on first read.
pub struct Summary {
    text: Box<RawValue>,
    tree: OnceLock<Value>,
}

impl Summary {
    /// Writes a game's typed summary out as text.
    pub fn of(summary: &impl Serialize) -> Summary {
        Summary {
            text: serde_json::value::to_raw_value(summary).expect("a summary serialises"),
            tree: OnceLock::new(),
        }
    }

    /// The JSON text.
    pub fn text(&self) -> &str {
        self.text.get()
    }

    /// The summary as a tree (parsed once, on first call).
    pub fn value(&self) -> &Value {
        self.tree
            .get_or_init(|| serde_json::from_str(self.text.get()).expect("written as JSON"))
    }

    /// The summary as an owned tree.
    pub fn into_value(self) -> Value {
        match self.tree.into_inner() {
            Some(v) => v,
            None => serde_json::from_str(self.text.get()).expect("written as JSON"),
        }
    }
}

impl Clone for Summary {
    fn clone(&self) -> Self {
        Summary {
            text: self.text.clone(),
            tree: self.tree.clone(),
        }
    }
}

impl fmt::Debug for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text.get())
    }
}

impl PartialEq for Summary {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}

impl PartialEq<Value> for Summary {
    fn eq(&self, other: &Value) -> bool {
        self.value() == other
    }
}

impl Index<&str> for Summary {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        &self.value()[key]
    }
}

impl Serialize for Summary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.text.serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_summary_is_written_once_and_read_as_the_same_tree() {
        let s = Summary::of(&json!({"scores": [3, 12], "turn": 1}));
        assert_eq!(s["scores"][1], 12);
        assert_eq!(s, json!({"turn": 1, "scores": [3, 12]}));
        // Inside another answer it stays the same JSON, not a string.
        let out = serde_json::to_value(json!({"summary": s.clone()})).unwrap();
        assert_eq!(out["summary"]["turn"], 1);
        let text = serde_json::to_string(&vec![s.clone()]).unwrap();
        assert_eq!(text, format!("[{}]", s.text()));
        assert_eq!(s.into_value()["scores"][0], 3);
    }
}
