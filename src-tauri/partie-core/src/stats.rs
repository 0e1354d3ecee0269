//! Each player's figures in one finished match, derived by replaying its record. The store
//! keeps them per match so that a player's statistics add up rows instead of replaying.

use crate::error::Error;
use crate::game::{Game, MatchState};
use crate::record::Record;
use serde_json::{json, Map, Value};

/// One player's figures in one match.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerFigures {
    /// The side.
    pub side: usize,
    /// The player's place in the side.
    pub seat: usize,
    /// `won`, `lost` or `drawn`.
    pub result: &'static str,
    /// Counters of the game (summed over matches by the statistics).
    pub counters: Map<String, Value>,
}

fn counters(pairs: &[(&str, u64)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect()
}

/// The figures of every player of a finished match (none while it is being played).
/// `computer` gives the sides the computer played, so that results against it are counted
/// per level.
pub fn figures(
    record: &Record,
    computer: &crate::store::Computer,
) -> Result<Vec<PlayerFigures>, Error> {
    let mut state = record.setup()?;
    // Counters per (side, seat), in the order the game needs.
    let mut by_player: Vec<Vec<[u64; 8]>> =
        record.sides.iter().map(|s| vec![[0; 8]; s.len()]).collect();
    for action in &record.actions {
        let before = state.clone();
        state = state.play(action).map_err(|r| r.error)?;
        match (&before, &state) {
            (MatchState::Molkky(b), MatchState::Molkky(a)) if b.molkkout().is_none() => {
                let (Some(side), Some(t)) = (b.turn(), a.last_throw()) else {
                    continue;
                };
                let needs = b.rules().target - b.leg().scores()[side];
                let c = &mut by_player[side][t.player];
                // throws, points, misses, fouls, busts, eliminations, chances, chances taken
                c[0] += 1;
                c[1] += u64::from(t.points);
                c[2] += u64::from(t.miss);
                c[3] += u64::from(t.foul);
                c[4] += u64::from(t.bust);
                c[5] += u64::from(t.eliminated);
                if needs <= 12 {
                    c[6] += 1;
                    c[7] += u64::from(t.points == needs);
                }
            }
            // Carreaux per thrower: a shot with a 6.
            (MatchState::Boulomania(b), MatchState::Boulomania(_))
                if action.get("shoot").is_some() && action.get("die") == Some(&Value::from(6)) =>
            {
                let side = b.turn() as usize;
                let seat = b.summary()["thrower"].as_u64().unwrap_or(0) as usize;
                if let Some(c) = by_player[side].get_mut(seat) {
                    c[0] += 1;
                }
            }
            (MatchState::Molkkout(_), MatchState::Molkkout(a)) => {
                let Some(t) = a.last_throw() else { continue };
                by_player[t.side][t.player][0] += 1;
                by_player[t.side][t.player][1] += u64::from(t.points);
            }
            _ => {}
        }
    }
    if !state.is_over() {
        return Ok(Vec::new());
    }
    let summary = state.summary();
    let winner = summary["winner"].as_u64().map(|w| w as usize);
    let drawn = summary["status"] == "drawn";
    let mut out = Vec::new();
    for (side, players) in record.sides.iter().enumerate() {
        let result = if drawn {
            "drawn"
        } else if winner == Some(side) {
            "won"
        } else {
            "lost"
        };
        for (seat, &c) in by_player[side].iter().enumerate().take(players.len()) {
            let counters = match record.game.as_str() {
                "molkky" => counters(&[
                    ("throws", c[0]),
                    ("points", c[1]),
                    ("misses", c[2]),
                    ("fouls", c[3]),
                    ("busts", c[4]),
                    ("eliminations", c[5]),
                    ("chances", c[6]),
                    ("chances_taken", c[7]),
                ]),
                "molkkout" => counters(&[("throws", c[0]), ("points", c[1])]),
                "crokinole" => {
                    // Round figures belong to the side; each of its players is credited with them.
                    let rounds = summary["round_points"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    let mine = |r: &Value| r[side].as_u64().unwrap_or(0);
                    let won = rounds
                        .iter()
                        .filter(|r| {
                            let best = r
                                .as_array()
                                .map(|a| a.iter().filter_map(Value::as_u64).max().unwrap_or(0))
                                .unwrap_or(0);
                            let top = r
                                .as_array()
                                .map(|a| a.iter().filter(|v| v.as_u64() == Some(best)).count())
                                .unwrap_or(0);
                            mine(r) == best && top == 1
                        })
                        .count() as u64;
                    counters(&[
                        ("rounds", rounds.len() as u64),
                        ("round_points", rounds.iter().map(mine).sum()),
                        ("twenties", summary["twenties"][side].as_u64().unwrap_or(0)),
                        ("rounds_won", won),
                    ])
                }
                "boulomania" => {
                    // Mène figures belong to the team; each of its players is credited.
                    let menes = summary["mene_points"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    let won: Vec<u64> = menes
                        .iter()
                        .filter(|m| m[0].as_u64() == Some(side as u64))
                        .map(|m| m[1].as_u64().unwrap_or(0))
                        .collect();
                    counters(&[
                        ("menes", menes.len() as u64),
                        ("menes_won", won.len() as u64),
                        ("mene_points", won.iter().sum()),
                        ("carreaux", c[0]),
                    ])
                }
                "morris" => {
                    // Results against people and against each computer level are counted
                    // apart ("vs_people_won", "vs_level_3_drawn").
                    let opponent = match computer.get(&(1 - side)) {
                        Some(level) => format!("vs_level_{level}_{result}"),
                        None => format!("vs_people_{result}"),
                    };
                    let turns = record
                        .actions
                        .iter()
                        .filter(|a| a.as_str().is_some_and(|t| !t.starts_with('x')))
                        .count() as u64;
                    let mut c = counters(&[
                        ("removed", summary["scores"][side].as_u64().unwrap_or(0)),
                        ("turns", turns.div_ceil(2)),
                    ]);
                    c.insert(opponent, 1.into());
                    c
                }
                _ => Map::new(),
            };
            out.push(PlayerFigures {
                side,
                seat,
                result,
                counters,
            });
        }
    }
    Ok(out)
}
