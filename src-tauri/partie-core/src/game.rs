//! The games behind one interface: set up from a record's `game`, `rules` and `sides`, play
//! JSON actions, and derive the common summary of `docs/records.md` §3.

use crate::boulomania::Boulomania;
use crate::crokinole::Crokinole;
use crate::error::Error;
use crate::molkky::{Molkkout, Molkky};
use crate::morris::Morris;
use serde_json::{Map, Value};

/// The games this build knows, by their record name.
pub const GAMES: &[&str] = &["molkky", "molkkout", "crokinole", "morris", "boulomania"];

/// The action keys of every game (`docs/records.md` §1): Mölkky's and the mölkkout's `pins`,
/// Crokinole's `twenty`, `round` and `starter`, Boulomania's `jack`, `point`, `shoot` and
/// `shoot_jack`. They are reserved in every game: an action has exactly one, and never one of
/// another game (a Morris action is a token string, not an object).
pub const ACTION_KEYS: &[&str] = &[
    "pins",
    "twenty",
    "round",
    "starter",
    "jack",
    "point",
    "shoot",
    "shoot_jack",
];

/// The action key of an action object, for a game whose action keys are `own` (`game` names
/// it in the detail): `None` when it has none, `bad_action` when it has two or more, or one
/// that is not the game's. An action is never half-played.
pub fn action_key(
    action: &Map<String, Value>,
    own: &[&str],
    game: &str,
) -> Result<Option<&'static str>, Error> {
    let mut present = ACTION_KEYS
        .iter()
        .copied()
        .filter(|k| action.contains_key(*k));
    let key = present.next();
    if let (Some(first), Some(second)) = (key, present.next()) {
        return Err(Error::bad_action(format!(
            "an action has one action key, not both {first:?} and {second:?}"
        ))
        .with_code("two_action_keys"));
    }
    match key {
        Some(k) if !own.contains(&k) => {
            Err(Error::bad_action(format!("{k:?} is not an action of {game}")).with_code("shape"))
        }
        k => Ok(k),
    }
}

/// An optional key of an action: `None` when it is absent; given as `null` it is `bad_action`
/// (`null` is a value, not a missing key).
pub fn optional<'a>(action: &'a Map<String, Value>, key: &str) -> Result<Option<&'a Value>, Error> {
    match action.get(key) {
        Some(Value::Null) => Err(Error::bad_action(format!(
            "{key:?} is given as null: leave it out or give a value"
        ))
        .with_code("null_value")),
        v => Ok(v),
    }
}

/// A refused action: the error, and the state exactly as it was before the action.
#[derive(Debug, Clone)]
pub struct Refused<S> {
    /// The untouched state.
    pub state: S,
    /// Why the action was refused.
    pub error: Error,
}

impl<S> Refused<S> {
    /// Wraps an error with the state it leaves untouched.
    pub fn new(state: S, error: Error) -> Self {
        Refused { state, error }
    }
}

/// One game's rules: a validated state that only changes through [`Game::play`].
pub trait Game: Sized + Clone {
    /// One action of the game, as parsed from its record form.
    type Action;

    /// Builds the starting state from unchecked rules and sides.
    fn setup(rules: &Map<String, Value>, sides: &[Vec<String>]) -> Result<Self, Error>;

    /// Reads an action from its JSON form; `bad_action` when it is malformed.
    fn parse_action(&self, action: &Value) -> Result<Self::Action, Error>;

    /// Applies an action, or hands back the untouched state with the refusal. Never called
    /// once the game is over: [`MatchState::play`] refuses first.
    fn play(self, action: &Self::Action) -> Result<Self, Refused<Self>>;

    /// The summary: common keys plus the game's own.
    fn summary(&self) -> Value;

    /// Whether the game is over (won or drawn).
    fn is_over(&self) -> bool;

    /// The side to act (Crokinole: the side that shoots first in the round); `None` once over.
    /// The summary's `turn` is this, and what the computer and undo go by.
    fn turn(&self) -> Option<usize>;

    /// How the finished match ended, as a tournament's standings take it; `None` while it is
    /// played.
    fn result(&self) -> Option<MatchResult>;
}

/// How a finished match ended, in the figures a tournament's standings need (`docs/tournaments.md`,
/// "Events"): the winner, each side's match score and the game's tie-break counts.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MatchResult {
    /// The winning side, or `None` for a draw.
    pub winner: Option<usize>,
    /// Each side's match score: Mölkky legs won, Crokinole game points, Morris pieces
    /// removed, Boulomania points, a mölkkout's points.
    pub scores: Vec<u32>,
    /// Crokinole's 20s per side; `None` for the other games.
    pub twenties: Option<Vec<u32>>,
}

/// The state of a match of any game, dispatching to the game's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchState {
    /// A Mölkky game or best-of match.
    Molkky(Box<Molkky>),
    /// A standalone mölkkout.
    Molkkout(Box<Molkkout>),
    /// A Crokinole game.
    Crokinole(Box<Crokinole>),
    /// A game of Nine Men's Morris.
    Morris(Box<Morris>),
    /// A game of Boulomania.
    Boulomania(Box<Boulomania>),
}

macro_rules! dispatch {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            MatchState::Molkky($g) => $body,
            MatchState::Molkkout($g) => $body,
            MatchState::Crokinole($g) => $body,
            MatchState::Morris($g) => $body,
            MatchState::Boulomania($g) => $body,
        }
    };
}

fn play_as<G: Game>(
    g: Box<G>,
    action: &Value,
    wrap: fn(Box<G>) -> MatchState,
) -> Result<MatchState, Refused<MatchState>> {
    let parsed = match g.parse_action(action) {
        Ok(a) => a,
        Err(e) => return Err(Refused::new(wrap(g), e)),
    };
    // Once, for every game: a malformed action is `bad_action` whatever the state, a
    // well-formed one after the end is refused here, before any game looks at it.
    if g.is_over() {
        let over = Error::illegal("the game is over").with_code("game_over");
        return Err(Refused::new(wrap(g), over));
    }
    match (*g).play(&parsed) {
        Ok(next) => Ok(wrap(Box::new(next))),
        Err(r) => Err(Refused::new(wrap(Box::new(r.state)), r.error)),
    }
}

impl MatchState {
    /// Sets up a match of `game` (a record's game name).
    pub fn setup(
        game: &str,
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
    ) -> Result<Self, Error> {
        match game {
            "molkky" => Molkky::setup(rules, sides).map(|g| MatchState::Molkky(Box::new(g))),
            "molkkout" => Molkkout::setup(rules, sides).map(|g| MatchState::Molkkout(Box::new(g))),
            "crokinole" => {
                Crokinole::setup(rules, sides).map(|g| MatchState::Crokinole(Box::new(g)))
            }
            "morris" => Morris::setup(rules, sides).map(|g| MatchState::Morris(Box::new(g))),
            "boulomania" => {
                Boulomania::setup(rules, sides).map(|g| MatchState::Boulomania(Box::new(g)))
            }
            other => {
                Err(Error::bad_setup(format!("unknown game {other:?}")).with_code("unknown_game"))
            }
        }
    }

    /// Applies one action in its JSON form.
    pub fn play(self, action: &Value) -> Result<Self, Refused<Self>> {
        match self {
            MatchState::Molkky(g) => play_as(g, action, MatchState::Molkky),
            MatchState::Molkkout(g) => play_as(g, action, MatchState::Molkkout),
            MatchState::Crokinole(g) => play_as(g, action, MatchState::Crokinole),
            MatchState::Morris(g) => play_as(g, action, MatchState::Morris),
            MatchState::Boulomania(g) => play_as(g, action, MatchState::Boulomania),
        }
    }

    /// The summary of `docs/records.md` §3.
    pub fn summary(&self) -> Value {
        dispatch!(self, g => g.summary())
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        dispatch!(self, g => g.is_over())
    }

    /// The side to act; `None` once over.
    pub fn turn(&self) -> Option<usize> {
        dispatch!(self, g => Game::turn(g.as_ref()))
    }

    /// How the finished match ended; `None` while it is played.
    pub fn result(&self) -> Option<MatchResult> {
        dispatch!(self, g => Game::result(g.as_ref()))
    }
}

/// Checks the common shape of sides: each a non-empty list of non-empty, trimmed names.
pub fn check_sides(sides: &[Vec<String>]) -> Result<(), Error> {
    for (i, side) in sides.iter().enumerate() {
        if side.is_empty() {
            return Err(Error::bad_setup(format!("side {i} has no player")).with_code("empty_side"));
        }
        for name in side {
            if name.trim().is_empty() {
                return Err(
                    Error::bad_setup(format!("side {i} has a player without a name"))
                        .with_code("empty_name"),
                );
            }
            if name.chars().count() > 60 {
                return Err(Error::bad_setup(format!(
                    "side {i}: a name is longer than 60 characters"
                ))
                .with_code("long_name"));
            }
        }
    }
    Ok(())
}

/// Checks a game's options alone (for saved default rules): `bad_setup` when invalid.
pub fn check_rules(game: &str, rules: &Map<String, Value>) -> Result<(), Error> {
    let two_sides = [vec!["A".to_string()], vec!["B".to_string()]];
    MatchState::setup(game, rules, &two_sides).map(|_| ())
}

/// The computer's levels in a game (it plays levels 1 to this), 0 when it does not play it.
pub fn computer_levels(game: &str) -> u8 {
    match game {
        "morris" => 5,
        "boulomania" => 2,
        _ => 0,
    }
}

/// What a game's screens need to draw and to offer its options: pins, defaults, ranges, the
/// sides it takes and the computer's levels (`"computer": {"levels": [1, 2, ...]}`).
pub fn info(game: &str) -> Result<Value, Error> {
    let mut info = game_info(game)?;
    if game == "molkkout" {
        // The mölkkout shares Mölkky's pins and options, between two sides only.
        info["sides"] = serde_json::json!({"min": 2, "max": 2});
    }
    let levels: Vec<u8> = (1..=computer_levels(game)).collect();
    info["computer"] = serde_json::json!({ "levels": levels });
    Ok(info)
}

fn game_info(game: &str) -> Result<Value, Error> {
    match game {
        "molkky" | "molkkout" => Ok(crate::molkky::info()),
        "crokinole" => Ok(crate::crokinole::info()),
        "morris" => Ok(crate::morris::info()),
        "boulomania" => Ok(crate::boulomania::info()),
        other => Err(Error::not_found(format!("unknown game {other:?}")).with_code("unknown_game")),
    }
}
