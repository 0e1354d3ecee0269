//! The games this build knows, registered once: each line of [`registry!`]'s call below names a
//! type that implements [`Game`]. Records, the store, statistics, the computer, tournaments and
//! the screens' `game_info` all go through [`MatchState`] and the functions here; nothing else
//! lists the games.

use crate::error::Error;
use crate::game::{Computer, Counters, Game, MatchResult, Outcome, Rates, Refused};
use crate::summary::Summary;
use serde_json::{Map, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What the app takes from a registered game without a match of it.
struct Entry {
    name: &'static str,
    title: [&'static str; 2],
    place: &'static str,
    computer_levels: u8,
    ranking: &'static [&'static str],
    tournament_rules: &'static [(&'static str, &'static str, &'static [&'static str])],
    info: fn() -> Value,
    counters: Counting,
    rates: Rating,
}

type Rating = fn(&dyn Fn(&str) -> u64) -> Rates;

type Counting = fn(
    &Map<String, Value>,
    &[Vec<String>],
    &[Value],
    &Computer,
) -> Result<Vec<Vec<Counters>>, Error>;

impl Entry {
    const fn of<G: Game>() -> Entry {
        Entry {
            name: G::NAME,
            title: G::TITLE,
            place: G::PLACE,
            computer_levels: G::COMPUTER_LEVELS,
            ranking: G::RANKING,
            tournament_rules: G::TOURNAMENT_RULES,
            info: G::info,
            counters: G::counters,
            rates: G::rates,
        }
    }
}

fn play_as<G: Game>(
    mut g: Box<G>,
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
    // The state goes back into the box it came from: a replay allocates no box per action.
    match (*g).play(&parsed) {
        Ok(next) => {
            *g = next;
            Ok(wrap(g))
        }
        Err(r) => {
            *g = r.state;
            Err(Refused::new(wrap(g), r.error))
        }
    }
}

/// Declares [`MatchState`] with one variant per game, its dispatch, and [`GAMES`].
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident($game:ty)),+ $(,)?) => {
        /// The state of a match of any game, dispatching to the game's rules.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum MatchState {
            $($(#[$doc])* $variant(Box<$game>),)+
        }

        const ENTRIES: &[Entry] = &[$(Entry::of::<$game>()),+];

        /// The games this build knows, by their record name.
        pub const GAMES: &[&str] = &[$(<$game as Game>::NAME),+];

        impl MatchState {
            /// Sets up a match of `game` (a record's game name).
            pub fn setup(
                game: &str,
                rules: &Map<String, Value>,
                sides: &[Vec<String>],
            ) -> Result<Self, Error> {
                $(if game == <$game as Game>::NAME {
                    return <$game as Game>::setup(rules, sides)
                        .map(|g| MatchState::$variant(Box::new(g)));
                })+
                Err(Error::bad_setup(format!("unknown game {game:?}")).with_code("unknown_game"))
            }

            /// Applies one action in its JSON form.
            pub fn play(self, action: &Value) -> Result<Self, Refused<Self>> {
                match self {
                    $(MatchState::$variant(g) => play_as(g, action, MatchState::$variant),)+
                }
            }

            /// The game's record name.
            pub fn game(&self) -> &'static str {
                match self {
                    $(MatchState::$variant(_) => <$game as Game>::NAME,)+
                }
            }

            /// The summary of `docs/records.md` §3, as a tree.
            pub fn summary(&self) -> Value {
                match self {
                    $(MatchState::$variant(g) => {
                        serde_json::to_value(g.summary()).expect("a summary serialises")
                    })+
                }
            }

            /// The summary as the screens receive it: written straight from the game's typed
            /// summary, without a tree.
            pub fn summary_text(&self) -> Summary {
                match self {
                    $(MatchState::$variant(g) => Summary::of(&g.summary()),)+
                }
            }

            /// What the lists keep of the summary (see [`Game::list_summary`]), as JSON text.
            pub fn list_summary_text(&self) -> String {
                match self {
                    $(MatchState::$variant(g) => {
                        serde_json::to_string(&g.list_summary()).expect("a summary serialises")
                    })+
                }
            }

            /// Each side's score as the scorepad shows it now (see [`Game::scores`]).
            pub fn scores(&self) -> Vec<u32> {
                match self {
                    $(MatchState::$variant(g) => Game::scores(g.as_ref()),)+
                }
            }

            /// Each side's place once finished (see [`Game::places`]).
            pub fn places(&self) -> Option<Vec<u32>> {
                match self {
                    $(MatchState::$variant(g) => Game::places(g.as_ref()),)+
                }
            }

            /// Whether the match is over.
            pub fn is_over(&self) -> bool {
                match self {
                    $(MatchState::$variant(g) => g.is_over(),)+
                }
            }

            /// The side to act; `None` once over.
            pub fn turn(&self) -> Option<usize> {
                match self {
                    $(MatchState::$variant(g) => Game::turn(g.as_ref()),)+
                }
            }

            /// Where the match stands: played, won by a side, or drawn.
            pub fn outcome(&self) -> Outcome {
                match self.result() {
                    None => Outcome::Playing,
                    Some(MatchResult { winner: Some(w), .. }) => Outcome::Won(w),
                    Some(_) => Outcome::Drawn,
                }
            }

            /// How the finished match ended; `None` while it is played.
            pub fn result(&self) -> Option<MatchResult> {
                match self {
                    $(MatchState::$variant(g) => Game::result(g.as_ref()),)+
                }
            }

            /// The computer's action at `level` for the side to act (see [`Game::think`]):
            /// `bad_computer` for a level the game does not have, `game_over` once over.
            pub fn think(
                &self,
                level: u8,
                seed: u64,
                stop: Option<Arc<AtomicBool>>,
            ) -> Result<Value, Error> {
                if self.is_over() {
                    return Err(Error::illegal("the game is over").with_code("game_over"));
                }
                if !(1..=computer_levels(self.game())).contains(&level) {
                    return Err(Error::bad_setup(format!(
                        "no computer level {level} in {}",
                        self.game()
                    ))
                    .with_code("bad_computer"));
                }
                match self {
                    $(MatchState::$variant(g) => g.think(level, seed, stop),)+
                }
            }

            /// Whether the computer playing `side` accepts a draw offered now.
            pub fn accepts_draw(&self, side: usize) -> bool {
                match self {
                    $(MatchState::$variant(g) => g.accepts_draw(side),)+
                }
            }
        }
    };
}

registry! {
    /// A Mölkky game or best-of match.
    Molkky(crate::molkky::Molkky),
    /// A standalone mölkkout.
    Molkkout(crate::molkky::Molkkout),
    /// A Crokinole game.
    Crokinole(crate::crokinole::Crokinole),
    /// A game of Nine Men's Morris.
    Morris(crate::morris::Morris),
    /// A game of Boulomania.
    Boulomania(crate::boulomania::Boulomania),
}

fn entry(game: &str) -> Result<&'static Entry, Error> {
    ENTRIES
        .iter()
        .find(|e| e.name == game)
        .ok_or_else(|| Error::not_found(format!("unknown game {game:?}")).with_code("unknown_game"))
}

/// Checks a game's options alone (for saved default rules): `bad_setup` when invalid.
pub fn check_rules(game: &str, rules: &Map<String, Value>) -> Result<(), Error> {
    let two_sides = [vec!["A".to_string()], vec!["B".to_string()]];
    MatchState::setup(game, rules, &two_sides).map(|_| ())
}

/// The computer's levels in a game (it plays levels 1 to this), 0 when it does not play it.
pub fn computer_levels(game: &str) -> u8 {
    entry(game).map_or(0, |e| e.computer_levels)
}

/// The game's title on printed sheets (`french`: in French); the record name for an unknown one.
pub fn title(game: &str, french: bool) -> &str {
    entry(game).map_or(game, |e| e.title[usize::from(french)])
}

/// Where a match of `game` is played in a tournament's room (see [`Game::PLACE`]).
pub fn place(game: &str) -> &'static str {
    entry(game).map_or(crate::game::DEFAULT_PLACE, |e| e.place)
}

/// What a game's screens need to draw and to offer its options: pins, defaults, ranges, the
/// sides it takes, the computer's levels (`"computer": {"levels": [1, 2, ...]}`) and how its
/// tournaments rank (`"ranking"`, see [`Game::RANKING`]).
pub fn info(game: &str) -> Result<Value, Error> {
    let e = entry(game)?;
    let mut info = (e.info)();
    let levels: Vec<u8> = (1..=e.computer_levels).collect();
    info["computer"] = serde_json::json!({ "levels": levels });
    info["ranking"] = serde_json::json!(e.ranking);
    info["place"] = e.place.into();
    Ok(info)
}

/// How a tournament of `game` ranks by default: its first key, then its tie-breaks (see
/// [`Game::RANKING`]); the default of [`Game`] for an unknown game.
pub fn ranking(game: &str) -> &'static [&'static str] {
    entry(game).map_or(
        &["match_points", "head_to_head", "buchholz", "score_diff"],
        |e| e.ranking,
    )
}

/// Each player's counters in a finished match of `game` (see [`Game::counters`]).
pub fn counters(
    game: &str,
    rules: &Map<String, Value>,
    sides: &[Vec<String>],
    actions: &[Value],
    computer: &Computer,
) -> Result<Vec<Vec<Counters>>, Error> {
    (entry(game)?.counters)(rules, sides, actions, computer)
}

/// The rates a player's page shows for `game` from their summed counters (see [`Game::rates`]).
pub fn rates(game: &str, counters: &Map<String, Value>) -> Map<String, Value> {
    let sum = |k: &str| counters.get(k).and_then(Value::as_u64).unwrap_or(0);
    entry(game)
        .map(|e| (e.rates)(&sum))
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// The options a tournament of `game` plays by unless its setup gives them (see
/// [`Game::TOURNAMENT_RULES`]); none for an unknown game.
pub fn tournament_rules(
    game: &str,
) -> &'static [(&'static str, &'static str, &'static [&'static str])] {
    entry(game).map_or(&[], |e| e.tournament_rules)
}

/// Checks the computer's seats: a game it can play, sides that exist, levels it has, and at
/// least one side left to people.
pub fn check_computer(game: &str, sides: usize, computer: &Computer) -> Result<(), Error> {
    if computer.is_empty() {
        return Ok(());
    }
    let bad = |d: String| Err(Error::bad_setup(d).with_code("bad_computer"));
    let top = computer_levels(game);
    if top == 0 {
        return bad(format!("the computer does not play {game}"));
    }
    if let Some((side, level)) = computer
        .iter()
        .find(|(&s, &l)| s >= sides || !(1..=top).contains(&l))
    {
        return bad(format!("no computer side {side} at level {level}"));
    }
    if computer.len() >= sides {
        return bad("at least one side is played by people".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Key;

    #[test]
    fn a_game_ranks_its_tournaments_by_its_own_keys() {
        assert_eq!(Key::first_for("crokinole"), Key::GamePoints);
        assert_eq!(
            Key::default_tiebreaks("crokinole"),
            [Key::MatchPoints, Key::Twenties, Key::HeadToHead]
        );
        assert!(Key::Twenties.counted_in("crokinole"));
        for game in GAMES.iter().filter(|g| **g != "crokinole") {
            assert_eq!(Key::first_for(game), Key::MatchPoints, "{game}");
            assert_eq!(
                Key::default_tiebreaks(game),
                [Key::HeadToHead, Key::Buchholz, Key::ScoreDiff],
                "{game}"
            );
            assert!(!Key::Twenties.counted_in(game), "{game}");
        }
        // Every name a game ranks by is a key.
        for game in GAMES {
            for name in ranking(game) {
                assert!(Key::parse(name).is_some(), "{game}: {name}");
            }
        }
        assert_eq!(info("crokinole").unwrap()["ranking"][2], "twenties");
    }

    #[test]
    fn each_game_says_where_its_matches_are_played() {
        let places: Vec<(&str, &str)> = GAMES.iter().map(|g| (*g, place(g))).collect();
        assert_eq!(
            places,
            [
                ("molkky", "court"),
                ("molkkout", "court"),
                ("crokinole", "crokinole_board"),
                ("morris", "board"),
                ("boulomania", "board"),
            ]
        );
        assert_eq!(info("molkky").unwrap()["place"], "court");
        assert_eq!(place("chess"), "board");
        let setup = serde_json::json!({"game": "molkky", "system": "swiss",
                                       "entrants": [["Anna"], ["Bea"]]});
        let t = crate::tournament::replay(&setup, &[]).unwrap();
        assert_eq!(t.summary()["place"], "court");
    }

    #[test]
    fn every_place_a_game_names_has_its_words() {
        use crate::game::{place_word, PLACES};
        for game in GAMES {
            let words = PLACES.iter().find(|(p, _)| *p == place(game));
            assert!(words.is_some(), "{game}: no words for {:?}", place(game));
        }
        assert_eq!(place_word(place("molkky"), false), "Court");
        assert_eq!(place_word(place("molkky"), true), "Terrain");
        assert_eq!(place_word(place("crokinole"), false), "Board");
        assert_eq!(place_word(place("crokinole"), true), "Planche");
        assert_eq!(place_word(place("morris"), true), "Plateau");
        assert_eq!(place_word("somewhere", true), "Plateau");
    }

    #[test]
    fn every_option_a_game_offers_is_one_its_setup_takes() {
        // Each value an option offers (its bounds, its listed values, a switch either way)
        // sets up a game: the rules form draws from this list, and a value it offers that the
        // game refuses would be a form that cannot start.
        for game in GAMES {
            let info = info(game).unwrap();
            for (key, spec) in info["options"].as_object().unwrap() {
                let mut offered: Vec<Value> = Vec::new();
                offered.extend(["min", "max"].iter().filter_map(|b| spec.get(*b).cloned()));
                if let Some(values) = spec.get("values").and_then(Value::as_array) {
                    offered.extend(values.iter().cloned());
                }
                if spec["default"].is_boolean() {
                    offered.extend([Value::Bool(true), Value::Bool(false)]);
                } else if !spec["default"].is_string() {
                    // (A string default may be words, "half the target", not a value.)
                    offered.push(spec["default"].clone());
                }
                assert!(!offered.is_empty(), "{game}: {key} offers no value");
                for value in offered {
                    let mut rules = Map::new();
                    rules.insert(key.clone(), value.clone());
                    check_rules(game, &rules)
                        .unwrap_or_else(|e| panic!("{game}: {key} {value}: {e}"));
                }
            }
        }
    }
}
