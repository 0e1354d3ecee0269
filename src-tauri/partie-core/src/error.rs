//! The typed refusals shared by the rules, the store, the command line and the app.

use serde::Serialize;
use std::fmt;

/// What kind of refusal an [`Error`] is; the names are the contract of `docs/records.md` §4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Rules or sides are invalid.
    BadSetup,
    /// The action is malformed, whatever the state of the game.
    BadAction,
    /// The action is well formed but not allowed now.
    IllegalAction,
    /// A match, player or record that does not exist.
    NotFound,
    /// The database failed; nothing was changed.
    Storage,
    /// An imported file is not a valid record.
    BadRecord,
}

impl ErrorKind {
    /// The snake_case name used in JSON and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::BadSetup => "bad_setup",
            ErrorKind::BadAction => "bad_action",
            ErrorKind::IllegalAction => "illegal_action",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Storage => "storage",
            ErrorKind::BadRecord => "bad_record",
        }
    }

    /// Parses a kind from its snake_case name.
    pub fn parse(name: &str) -> Option<Self> {
        [
            ErrorKind::BadSetup,
            ErrorKind::BadAction,
            ErrorKind::IllegalAction,
            ErrorKind::NotFound,
            ErrorKind::Storage,
            ErrorKind::BadRecord,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refusal: its kind and a detail in English for logs and the command line.
///
/// The UI translates from `kind` (and, where useful, `code`), never from `detail`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Error {
    /// The kind of refusal.
    pub kind: ErrorKind,
    /// A short human explanation.
    pub detail: String,
    /// A stable machine code for the precise reason (e.g. `game_over`), so that the UI can
    /// explain it in the user's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
    /// What the refusal is about, as the user wrote it (a word of a typed move list), so that
    /// the UI can name it beside the reason told in the user's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
}

impl Error {
    /// An error of `kind` with a detail.
    pub fn new(kind: ErrorKind, detail: impl Into<String>) -> Self {
        Error {
            kind,
            detail: detail.into(),
            code: None,
            subject: None,
        }
    }

    /// Attaches a stable reason code.
    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    /// The same refusal told as another kind, its code and subject kept (a setup check that
    /// refuses an action, say).
    pub fn with_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// Names what the refusal is about, as the user wrote it.
    pub fn with_subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// Shorthand for a `bad_setup` error.
    pub fn bad_setup(detail: impl Into<String>) -> Self {
        Error::new(ErrorKind::BadSetup, detail)
    }

    /// Shorthand for a `bad_action` error.
    pub fn bad_action(detail: impl Into<String>) -> Self {
        Error::new(ErrorKind::BadAction, detail)
    }

    /// Shorthand for an `illegal_action` error.
    pub fn illegal(detail: impl Into<String>) -> Self {
        Error::new(ErrorKind::IllegalAction, detail)
    }

    /// Shorthand for a `not_found` error.
    pub fn not_found(detail: impl Into<String>) -> Self {
        Error::new(ErrorKind::NotFound, detail)
    }

    /// Shorthand for a `storage` error.
    pub fn storage(detail: impl Into<String>) -> Self {
        Error::new(ErrorKind::Storage, detail)
    }

    /// Shorthand for a `bad_record` error.
    pub fn bad_record(detail: impl Into<String>) -> Self {
        Error::new(ErrorKind::BadRecord, detail)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        Error::storage(e.to_string())
    }
}
