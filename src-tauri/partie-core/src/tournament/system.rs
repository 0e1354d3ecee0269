//! The pairing systems behind one interface, registered once in [`SYSTEMS`]: nothing else in
//! the crate lists them.

use super::{Field, Round};
use crate::error::Error;
use serde_json::{Map, Value};

/// A pairing system: how rounds are paired and when the tournament ends.
pub trait System: std::fmt::Debug + Send + Sync {
    /// The system's record name.
    fn name(&self) -> &'static str;

    /// Rounds in all, as far as they are known now (a knockout's size depends on who advances).
    fn rounds(&self, field: &Field) -> usize;

    /// Sets the number of rounds (the `rounds` event), checked first: a refusal changes
    /// nothing. Only a system whose rounds are the organiser's choice takes it.
    fn set_rounds(&mut self, _field: &Field, _rounds: usize) -> Result<(), Error> {
        Err(Error::illegal(format!(
            "a {} tournament's rounds follow from its entrants",
            self.name()
        ))
        .with_code("rounds_fixed"))
    }

    /// Whether a late entrant may join now.
    fn takes_late_entries(&self, field: &Field) -> bool;

    /// Pairs round `field.rounds.len() + 1`; the system may fix its own plan as it goes (a
    /// round robin's schedule at the first round, a knockout's bracket after the pools).
    fn pair(&mut self, field: &Field) -> Result<Round, Error>;

    /// Whether round `round` may end in a draw.
    fn allows_draws(&self, round: usize) -> bool;

    /// The champion once the tournament is finished.
    fn champion(&self, field: &Field) -> Option<usize>;

    /// The summary's `bye` for a round: one entrant or null, or a list where a round has many
    /// (a round robin whose odd field also lost an entrant: the dummy's opponent and the
    /// withdrawn entrant's both sit out).
    fn bye(&self, round: Option<&Round>) -> Value {
        match round.map_or(&[][..], |r| r.byes.as_slice()) {
            [] => Value::Null,
            [one] => one.entrant.into(),
            many => many.iter().map(|b| Value::from(b.entrant)).collect(),
        }
    }

    /// Keys the system adds to the summary (a knockout's `bracket`).
    fn extend_summary(&self, _field: &Field, _summary: &mut Map<String, Value>) {}

    /// A boxed copy, so that a tournament's state can be cloned like a game's.
    fn clone_box(&self) -> Box<dyn System>;
}

impl Clone for Box<dyn System> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Builds a system from the setup object and the number of entrants.
pub type Build = fn(&Map<String, Value>, usize) -> Result<Box<dyn System>, Error>;

/// A system's entry in the registry.
pub struct Entry {
    /// The record name (`"swiss"`).
    pub name: &'static str,
    /// The system's title on printed sheets and the hub's big screen, in English and in French.
    pub title: [&'static str; 2],
    /// The setup keys the system reads besides the common ones.
    pub options: &'static [&'static str],
    /// Builds the system from the setup object and the number of entrants; `bad_setup` when
    /// its options are wrong.
    pub build: Build,
}

/// Every system this build knows.
pub const SYSTEMS: &[Entry] = &[
    super::round_robin::ENTRY,
    super::swiss::ENTRY,
    super::pools::ENTRY,
];

/// The system's title (see [`Entry::title`]), in French when `french`; the record name for an
/// unknown one.
pub fn title(name: &str, french: bool) -> &str {
    find(name).map_or(name, |e| e.title[usize::from(french)])
}

/// The system registered under `name`.
pub fn find(name: &str) -> Option<&'static Entry> {
    SYSTEMS.iter().find(|e| e.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_system_has_a_title_in_both_languages() {
        for e in SYSTEMS {
            for french in [false, true] {
                let t = title(e.name, french);
                assert!(!t.is_empty() && t != e.name, "{}: {t:?}", e.name);
            }
        }
        assert_eq!(title("swiss", true), "Système suisse");
        assert_eq!(title("round_robin", false), "Round robin");
        assert_eq!(title("ladder", true), "ladder");
    }
}
