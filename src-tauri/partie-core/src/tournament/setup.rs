//! A tournament's setup (`docs/tournaments.md`, "The record"): the game and its match rules, the
//! system, the boards, the entrants and the ranking keys, checked once.

use super::standings::Key;
use super::system::{self, System};
use crate::error::Error;
use crate::games;
use serde_json::{Map, Value};

/// The most entrants a tournament takes.
pub const MAX_ENTRANTS: usize = 256;
/// The most boards (or courts) a room has.
pub const MAX_BOARDS: u64 = 64;

/// The keys every system reads; a system adds its own (`rounds`, `pool_size`, ...).
const COMMON_KEYS: &[&str] = &["game", "rules", "system", "boards", "entrants", "tiebreaks"];

/// A checked setup.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The game of every match.
    pub game: String,
    /// The match rules of every match (Crokinole: the fixed-round format unless told).
    pub rules: Map<String, Value>,
    /// Boards in the room; `None`: one for every match of a round.
    pub boards: Option<usize>,
    /// The entrants at registration, in seed order.
    pub entrants: Vec<Vec<String>>,
    /// The first ranking key, then the tie-breaks in order.
    pub keys: Vec<Key>,
    /// The pairing system.
    pub system: Box<dyn System>,
}

fn bad(detail: impl Into<String>) -> Error {
    Error::bad_setup(detail)
}

/// Reads a side (one player or a team) from JSON: a non-empty list of non-empty names. The
/// refusal is `bad_setup`, with the code of what is wrong (`empty_name`, `long_name`,
/// `team_twice`, ...) for the screens to say it in the user's language.
pub fn entrant(value: &Value) -> Result<Vec<String>, Error> {
    let list = value
        .as_array()
        .ok_or_else(|| bad(format!("an entrant must be a list of names, not {value}")))?;
    let names: Vec<String> = list
        .iter()
        .map(|n| {
            n.as_str()
                .map(|s| s.trim().to_string())
                .ok_or_else(|| bad(format!("a name must be a string, not {n}")))
        })
        .collect::<Result<_, _>>()?;
    // Named as the form shows an entrant (its refusal says "side 0" whichever it is).
    crate::game::check_sides(std::slice::from_ref(&names))
        .map_err(|e| e.with_subject(names.join(" & ")))?;
    if let Some(twice) = names
        .iter()
        .enumerate()
        .find(|(i, n)| names[..*i].contains(n))
    {
        return Err(bad(format!("{:?} is twice in one team", twice.1))
            .with_code("team_twice")
            .with_subject(twice.1.clone()));
    }
    Ok(names)
}

/// Whether any name of `names` is already one of `entrants`' names.
pub fn name_taken(entrants: &[Vec<String>], names: &[String]) -> Option<String> {
    names
        .iter()
        .find(|n| entrants.iter().flatten().any(|m| m == *n))
        .cloned()
}

/// A whole number in `lo..=hi` under `key`, or `None` when the key is absent.
pub fn number(map: &Map<String, Value>, key: &str, lo: u64, hi: u64) -> Result<Option<u64>, Error> {
    match map.get(key) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
            _ => {
                let refused = bad(format!(
                    "{key} must be a whole number from {lo} to {hi}, not {v}"
                ));
                // The form checks these first; a refusal from elsewhere is still said in words.
                Err(match key {
                    "rounds" => refused.with_code("t_rounds_range"),
                    "boards" => refused.with_code("boards_range"),
                    "pool_size" => refused.with_code("pool_size_range"),
                    "advance" => refused.with_code("advance_range"),
                    _ => refused,
                })
            }
        },
    }
}

/// Whether the game seats any two of `entrants` against each other: a side it cannot seat (a
/// Crokinole team of three, a Boulomania team too large) is refused here, as the game would
/// refuse it, not at the first table it is paired to, which nothing could then start. The
/// game's shapes depend only on how many players each side has, so one entrant of each size
/// (two of a size, for the matches between them) stands for them all.
fn seatable(game: &str, rules: &Map<String, Value>, entrants: &[Vec<String>]) -> Result<(), Error> {
    let mut by_size: std::collections::BTreeMap<usize, Vec<&Vec<String>>> = Default::default();
    for e in entrants {
        let of_size = by_size.entry(e.len()).or_default();
        if of_size.len() < 2 {
            of_size.push(e);
        }
    }
    let sizes: Vec<&Vec<&Vec<String>>> = by_size.values().collect();
    for (i, a) in sizes.iter().enumerate() {
        for b in &sizes[i..] {
            let pair = if std::ptr::eq(*a, *b) {
                match a.as_slice() {
                    [one, two] => [*one, *two],
                    _ => continue,
                }
            } else {
                [a[0], b[0]]
            };
            // The side the game cannot seat is the larger one (the error says why).
            let side = pair.iter().max_by_key(|e| e.len()).unwrap_or(&pair[0]);
            seat_two(game, rules, [pair[0], pair[1]], side)?;
        }
    }
    Ok(())
}

/// Whether the game seats `pair` against each other; refused with the game's reason and code,
/// `named` (the entrant at fault) as the form shows an entrant, for the screen to say which.
fn seat_two(
    game: &str,
    rules: &Map<String, Value>,
    pair: [&Vec<String>; 2],
    named: &[String],
) -> Result<(), Error> {
    let sides = [pair[0].clone(), pair[1].clone()];
    crate::MatchState::setup(game, rules, &sides)
        .map(drop)
        .map_err(|e| {
            let refused =
                bad(format!("{}: {}", named.join(" · "), e.detail)).with_subject(named.join(" & "));
            match e.code {
                Some(code) => refused.with_code(code),
                None => refused,
            }
        })
}

/// Whether the game seats the entrant `new` of `entrants` against every other: against one of
/// each size, and another of its own size. Refused as [`seatable`] refuses, the newcomer named:
/// an entrant of before that the game would not seat (a record older than the check) is not
/// the newcomer's fault.
pub(crate) fn seatable_newcomer(
    game: &str,
    rules: &Map<String, Value>,
    entrants: &[Vec<String>],
    new: usize,
) -> Result<(), Error> {
    let newcomer = &entrants[new];
    let mut sizes_met = std::collections::BTreeSet::new();
    for (i, other) in entrants.iter().enumerate() {
        if i == new || !sizes_met.insert(other.len()) {
            continue;
        }
        seat_two(game, rules, [newcomer, other], newcomer)?;
    }
    Ok(())
}

impl Setup {
    /// Checks a setup object; `bad_setup` with the reason when it is not valid.
    pub fn parse(value: &Value) -> Result<Self, Error> {
        let map = value
            .as_object()
            .ok_or_else(|| bad("the tournament's setup must be an object"))?;
        let game = map
            .get("game")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("the tournament needs a game"))?
            .to_string();
        let mut rules = match map.get("rules") {
            None => Map::new(),
            Some(Value::Object(r)) => r.clone(),
            Some(other) => return Err(bad(format!("rules must be an object, not {other}"))),
        };
        for (key, value, unless) in games::tournament_rules(&game) {
            if !rules.contains_key(*key) && !unless.iter().any(|k| rules.contains_key(*k)) {
                rules.insert(key.to_string(), Value::from(*value));
            }
        }
        games::check_rules(&game, &rules)?;
        let entrants: Vec<Vec<String>> = match map.get("entrants") {
            Some(Value::Array(list)) => list.iter().map(entrant).collect::<Result<_, _>>()?,
            _ => return Err(bad("entrants must be a list of sides")),
        };
        if !(2..=MAX_ENTRANTS).contains(&entrants.len()) {
            let code = if entrants.len() < 2 {
                "too_few_entrants"
            } else {
                "too_many_entrants"
            };
            return Err(bad(format!(
                "a tournament has 2 to {MAX_ENTRANTS} entrants, not {}",
                entrants.len()
            ))
            .with_code(code));
        }
        for (i, e) in entrants.iter().enumerate() {
            if let Some(name) = name_taken(&entrants[..i], e) {
                return Err(bad(format!("{name:?} is entered twice"))
                    .with_code("name_taken")
                    .with_subject(name));
            }
        }
        seatable(&game, &rules, &entrants)?;
        let boards = number(map, "boards", 1, MAX_BOARDS)?.map(|b| b as usize);
        let system_name = map
            .get("system")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("the tournament needs a system"))?;
        let entry = system::find(system_name)
            .ok_or_else(|| bad(format!("unknown system {system_name:?}")))?;
        if let Some(key) = map
            .keys()
            .find(|k| !COMMON_KEYS.contains(&k.as_str()) && !entry.options.contains(&k.as_str()))
        {
            return Err(bad(format!(
                "unknown key {key:?} for system {system_name:?}"
            )));
        }
        let system = (entry.build)(map, entrants.len())?;
        let first = Key::first_for(&game);
        let tiebreaks = match map.get("tiebreaks") {
            None => Key::default_tiebreaks(&game),
            Some(Value::Array(list)) => list
                .iter()
                .map(|k| {
                    k.as_str()
                        .and_then(Key::parse)
                        .ok_or_else(|| bad(format!("unknown tiebreak {k}")))
                })
                .collect::<Result<_, _>>()?,
            Some(other) => return Err(bad(format!("tiebreaks must be a list, not {other}"))),
        };
        // A key given again ranks nothing more (entrants still tied on it stay tied): each is
        // kept once, so that a long list repeating keys cannot make the ranking, which goes one
        // key deeper for each, run out of stack.
        let mut keys = vec![first];
        for k in tiebreaks {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        Ok(Setup {
            game,
            rules,
            boards,
            entrants,
            keys,
            system,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crokinole(rules: Value) -> Map<String, Value> {
        Setup::parse(
            &json!({"game": "crokinole", "system": "round_robin", "rules": rules,
                              "entrants": [["Ann"], ["Bob"], ["Cyd"]]}),
        )
        .unwrap()
        .rules
    }

    /// A Crokinole tournament plays fixed rounds unless told, and a target given is played to:
    /// taken as rounds, the target was ignored without a word.
    #[test]
    fn a_crokinole_tournament_plays_rounds_unless_its_rules_give_a_target() {
        assert_eq!(crokinole(json!({}))["format"], "rounds");
        assert_eq!(crokinole(json!({"rounds": 6}))["format"], "rounds");
        let target = crokinole(json!({"target": 150}));
        assert_eq!(target.get("format"), None);
        assert_eq!(target["target"], 150);
        assert_eq!(
            crokinole(json!({"format": "rounds", "target": 150}))["format"],
            "rounds"
        );
    }

    /// Entrants the game cannot seat are refused when the tournament is made, with the game's
    /// reason and the entrant's names: a Crokinole team of three was taken, and every table it
    /// was paired to then refused to start. Sides of sizes the game takes, mixed, are taken.
    #[test]
    fn entrants_the_game_cannot_seat_are_refused_at_the_setup() {
        let setup = |game: &str, entrants: Value| {
            Setup::parse(&json!({"game": game, "system": "round_robin", "entrants": entrants}))
        };
        let e = setup("crokinole", json!([["Ann", "Al", "Abe"], ["Bob"], ["Cyd"]])).unwrap_err();
        assert_eq!(e.code, Some("crokinole_sides"));
        assert!(e.detail.starts_with("Ann · Al · Abe: "), "{}", e.detail);
        setup("crokinole", json!([["Ann", "Al"], ["Bob"], ["Cyd", "Cy"]])).unwrap();
        setup("molkky", json!([["Ann", "Al", "Abe", "Ada"], ["Bob"]])).unwrap();
        let e = setup(
            "boulomania",
            json!([["A1", "A2", "A3", "A4", "A5", "A6", "A7"], ["B"]]),
        );
        let t = crate::MatchState::setup(
            "boulomania",
            &Map::new(),
            &[
                ["A1", "A2", "A3", "A4", "A5", "A6", "A7"]
                    .map(String::from)
                    .to_vec(),
                vec!["B".to_string()],
            ],
        );
        assert_eq!(e.is_ok(), t.is_ok(), "as the game seats them");
    }
}
