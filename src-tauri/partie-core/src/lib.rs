//! Partie's core: the games as pure rules, match records and their replay, the SQLite history,
//! and the scenario runner behind the `partie` command line.
//!
//! A match is its setup plus its list of actions; everything else (scores, whose turn, the
//! winner) is derived by replaying the actions through the rules. This crate has no dependency
//! on the desktop shell so that it builds and tests in seconds.

#![warn(missing_docs)]

pub mod boulomania;
pub mod computer;
pub mod crokinole;
mod csv;
pub mod error;
pub mod file;
pub mod game;
pub mod games;
pub mod merge;
pub mod molkky;
pub mod morris;
mod options;
pub mod ratings;
pub mod record;
pub mod rng;
pub mod scenario;
pub mod stats;
pub mod store;
pub mod summary;
pub mod time;
pub mod tournament;

pub use error::{Error, ErrorKind};
pub use game::{Game, MatchResult, Refused};
pub use games::MatchState;
pub use record::Record;

/// The program's arguments as text (`partie` and `partie-hub`); when one is not UTF-8 (a file
/// name in another encoding), a sentence saying which, for the program to print rather than
/// panic.
pub fn text_args() -> Result<Vec<String>, String> {
    std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|bad| format!("{:?} is not UTF-8 text", bad.to_string_lossy()))
        })
        .collect()
}
