//! The contract every game keeps (`docs/architecture.md`): set up from a record's `rules` and
//! `sides`, play typed actions read from JSON, derive the summary of `docs/records.md` §3, and
//! say in types who acts and how a match ended. A game also declares here what the rest of the
//! app takes from it (its name, options, statistics, computer). This module knows no game:
//! `games.rs` registers them.

use crate::error::Error;
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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
    // An action has a key or two, the list eight: look the action's keys up in the list, not
    // the list in the action (this runs for every action replayed).
    let mut found = action
        .keys()
        .filter_map(|k| ACTION_KEYS.iter().position(|r| r == k));
    let key = found.next();
    if let (Some(one), Some(other)) = (key, found.next()) {
        // Named in the list's order, as the detail always named them.
        let mut at: Vec<usize> = [one, other].into_iter().chain(found).collect();
        at.sort_unstable();
        let (first, second) = (ACTION_KEYS[at[0]], ACTION_KEYS[at[1]]);
        return Err(Error::bad_action(format!(
            "an action has one action key, not both {first:?} and {second:?}"
        ))
        .with_code("two_action_keys"));
    }
    match key.map(|i| ACTION_KEYS[i]) {
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

/// The sides the computer plays in a match, each with its level (1 to the game's
/// [`Game::COMPUTER_LEVELS`]).
pub type Computer = std::collections::BTreeMap<usize, u8>;

/// One player's counters in one finished match (`"throws"`, `"points"`...), summed over matches
/// by the statistics; a game names its own.
pub type Counters = Map<String, Value>;

/// The rates a player's page shows, by name, in the order shown.
pub type Rates = Vec<(&'static str, Value)>;

/// [`Game::PLACE`] unless a game says otherwise, and the place of a game this build does not
/// know.
pub const DEFAULT_PLACE: &str = "board";

/// Each place a game can name as its [`Game::PLACE`], with the word for one such place on its
/// own (a column's head, a printed table's: "Court 3"), in English and in French. The screens'
/// sentences about places (their plurals and genders) are in `ui/js/i18n.js`, keyed by place.
pub const PLACES: &[(&str, [&str; 2])] = &[
    (DEFAULT_PLACE, ["Board", "Plateau"]),
    // A Crokinole board is a board in English and a planche in French.
    ("crokinole_board", ["Board", "Planche"]),
    ("court", ["Court", "Terrain"]),
];

/// The word for `place` ([`PLACES`]), in French when `french`; a board's for a place this build
/// does not know.
pub fn place_word(place: &str, french: bool) -> &'static str {
    let words = PLACES
        .iter()
        .find(|(p, _)| *p == place)
        .map_or(PLACES[0].1, |(_, w)| *w);
    words[usize::from(french)]
}

/// One game's rules: a validated state that only changes through [`Game::play`], and what the
/// rest of the app takes from the game. Registering the type in `games.rs` is all it takes for
/// records, the store, statistics, tournaments and the screens' `game_info` to know it.
pub trait Game: Sized + Clone {
    /// The game's name in records (`"molkky"`).
    const NAME: &'static str;

    /// The game's title on printed sheets, in English and in French.
    const TITLE: [&'static str; 2];

    /// What a tournament's room calls the place a match of the game is played on, by which
    /// the screens and printed sheets word it: `"board"` (a board on a table: a plateau in
    /// French), `"crokinole_board"` (the same in English, a planche in French) or `"court"`
    /// (marked out on the ground: a terrain). The summary of a tournament says it as `place`.
    const PLACE: &'static str = DEFAULT_PLACE;

    /// The computer plays levels 1 to this; 0 when it does not play the game.
    const COMPUTER_LEVELS: u8 = 0;

    /// How a tournament of the game ranks its entrants when its setup names no tie-breaks: the
    /// first key, then the tie-breaks (names of `docs/tournaments.md`'s keys). A key beyond
    /// match points that a typed result must carry (Crokinole's `twenties`) is listed here too.
    const RANKING: &'static [&'static str] =
        &["match_points", "head_to_head", "buchholz", "score_diff"];

    /// Options a tournament of the game plays by unless its setup gives them: each the option,
    /// its value, and the options whose giving chooses otherwise (Crokinole: a fixed number of
    /// rounds, unless the setup gives a `target`, which only the points format reads).
    const TOURNAMENT_RULES: &'static [(&'static str, &'static str, &'static [&'static str])] = &[];

    /// One action of the game, as parsed from its record form.
    type Action;

    /// What the screens need to draw the game and offer its options: `options` (each with its
    /// default and range), `sides` (`min`, `max`) and the game's own keys (pins, board...).
    fn info() -> Value;

    /// Builds the starting state from unchecked rules and sides.
    fn setup(rules: &Map<String, Value>, sides: &[Vec<String>]) -> Result<Self, Error>;

    /// Reads an action from its JSON form; `bad_action` when it is malformed.
    fn parse_action(&self, action: &Value) -> Result<Self::Action, Error>;

    /// Applies an action, or hands back the untouched state with the refusal. Never called
    /// once the game is over: [`MatchState::play`] refuses first.
    fn play(self, action: &Self::Action) -> Result<Self, Refused<Self>>;

    /// The summary: common keys plus the game's own, written out by serde from typed data.
    fn summary(&self) -> impl Serialize + '_;

    /// What the lists keep of the summary between two actions: by default all of it; a game
    /// whose summary carries a record that grows with every action leaves it out (replay gives
    /// it back).
    fn list_summary(&self) -> impl Serialize + '_ {
        self.summary()
    }

    /// Each side's score as the scorepad shows it now, the summary's `scores` (Mölkky: the
    /// leg's points; Crokinole and Boulomania: the game's points; Morris: pieces removed).
    fn scores(&self) -> Vec<u32>;

    /// Whether the game is over (won or drawn).
    fn is_over(&self) -> bool;

    /// The side to act (Crokinole: the side that shoots first in the round); `None` once over.
    /// The summary's `turn` is this, and what the computer and undo go by.
    fn turn(&self) -> Option<usize>;

    /// How the finished match ended, as a tournament's standings take it; `None` while it is
    /// played.
    fn result(&self) -> Option<MatchResult>;

    /// Each side's place in the finished match (1 is first; sides level share a place), as the
    /// ratings take it; `None` while it is played. By default the winner is first and the
    /// others second, or all first in a draw.
    fn places(&self) -> Option<Vec<u32>> {
        let result = self.result()?;
        Some(
            (0..result.scores.len())
                .map(|s| match result.winner {
                    Some(w) if w != s => 2,
                    _ => 1,
                })
                .collect(),
        )
    }

    /// Each player's counters in a finished match (`actions` played from `rules` and `sides`),
    /// one per player of each side; `computer` says which sides it played. By default the game
    /// keeps none: a player's page then shows results only.
    fn counters(
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
        actions: &[Value],
        computer: &Computer,
    ) -> Result<Vec<Vec<Counters>>, Error> {
        let _ = (rules, actions, computer);
        Ok(sides
            .iter()
            .map(|s| vec![Counters::new(); s.len()])
            .collect())
    }

    /// The rates a player's page shows from their counters summed over matches (`sum` gives a
    /// counter's total, 0 when absent), in the order shown; [`ratio`] rounds them alike.
    fn rates(sum: &dyn Fn(&str) -> u64) -> Rates {
        let _ = sum;
        Vec::new()
    }

    /// The computer's action for the side to act, at `level`; dice and chance come from
    /// `seed`, and `stop` interrupts the thinking. Only called with a level from 1 to
    /// [`Game::COMPUTER_LEVELS`] on a game that is not over.
    fn think(&self, level: u8, seed: u64, stop: Option<Arc<AtomicBool>>) -> Result<Value, Error> {
        let _ = (level, seed, stop);
        Err(
            Error::illegal(format!("the computer does not play {}", Self::NAME))
                .with_code("bad_computer"),
        )
    }

    /// Whether the computer playing `side` accepts a draw offered now; by default never.
    fn accepts_draw(&self, side: usize) -> bool {
        let _ = side;
        false
    }
}

/// Plays `actions` from `rules` and `sides` as game `G` (a game's own figures at a match's end,
/// a move list's check): `before` sees each state and the action about to be played on it,
/// `after` gets what `before` returned with the state the action led to. An action after the
/// end is refused as [`crate::games::MatchState::play`] refuses it.
pub fn replay_with<G: Game, T>(
    rules: &Map<String, Value>,
    sides: &[Vec<String>],
    actions: &[Value],
    mut before: impl FnMut(&G, &G::Action) -> T,
    mut after: impl FnMut(T, &G),
) -> Result<G, Error> {
    let mut state = G::setup(rules, sides)?;
    for action in actions {
        let a = state.parse_action(action)?;
        if state.is_over() {
            return Err(Error::illegal("the game is over").with_code("game_over"));
        }
        let seen = before(&state, &a);
        state = state.play(&a).map_err(|r| r.error)?;
        after(seen, &state);
    }
    Ok(state)
}

/// Plays `actions` from `rules` and `sides` as game `G`: [`replay_with`] looking at nothing.
pub fn replay<G: Game>(
    rules: &Map<String, Value>,
    sides: &[Vec<String>],
    actions: &[Value],
) -> Result<G, Error> {
    replay_with(rules, sides, actions, |_, _| (), |(), _| ())
}

/// Counters from names and counts, in the order given.
pub fn tally(pairs: &[(&str, u64)]) -> Counters {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), Value::from(*v)))
        .collect()
}

/// `a / b` rounded to three decimals, `null` when `b` is 0: how every rate is shown.
pub fn ratio(a: u64, b: u64) -> Value {
    if b == 0 {
        Value::Null
    } else {
        serde_json::json!((a as f64 / b as f64 * 1000.0).round() / 1000.0)
    }
}

/// Where a match stands, as the summary's `status` and `winner` say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Still being played.
    Playing,
    /// Won by this side.
    Won(usize),
    /// Drawn.
    Drawn,
}

impl Outcome {
    /// The summary's `status`: `playing`, `won` or `drawn`.
    pub fn status(self) -> &'static str {
        match self {
            Outcome::Playing => "playing",
            Outcome::Won(_) => "won",
            Outcome::Drawn => "drawn",
        }
    }

    /// The winning side, if any.
    pub fn winner(self) -> Option<usize> {
        match self {
            Outcome::Won(w) => Some(w),
            _ => None,
        }
    }
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

/// Places from a ranking of sides, best first: standard competition places (1, 2, 2, 4), two
/// neighbours in the ranking level when neither is the winner nor `out` and their `scores` are
/// equal (a game of three sides or more that ranks by score: Mölkky, Crokinole).
pub fn places_from_ranking(
    ranking: &[usize],
    winner: Option<usize>,
    scores: &[u32],
    out: &[bool],
) -> Vec<u32> {
    let is_out = |s: usize| out.get(s).copied().unwrap_or(false);
    let mut places = vec![0u32; ranking.len()];
    for (k, &s) in ranking.iter().enumerate() {
        places[s] = match k.checked_sub(1).map(|j| ranking[j]) {
            Some(p)
                if Some(s) != winner
                    && Some(p) != winner
                    && !is_out(s)
                    && !is_out(p)
                    && scores.get(s).is_some()
                    && scores.get(s) == scores.get(p) =>
            {
                places[p]
            }
            _ => k as u32 + 1,
        };
    }
    places
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
