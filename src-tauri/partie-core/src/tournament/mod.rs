//! Tournaments (`docs/tournaments.md`): a club night as a record, its setup plus its events, with
//! pairings and standings derived by replaying them, like a match's summary.
//!
//! [`Tournament`] is a validated state that changes only through [`Tournament::play`], which
//! leaves it untouched on refusal. The pairing systems live one module each and register
//! themselves in [`system::SYSTEMS`].

mod event;
mod matching;
pub mod paper;
mod pools;
mod round_robin;
pub mod scenario;
mod setup;
mod standings;
mod swiss;
pub mod system;

pub use event::{Event, Outcome, TableResult};
pub use setup::Setup;
pub use standings::{Figures, Key};

use crate::error::{Error, ErrorKind};
use crate::game::Refused;
use serde::Serialize;
use serde_json::{Map, Value};
use standings::Table;
use system::System;

/// What the screens need to offer a tournament's setup: the systems with their own options,
/// the ranking keys, and the limits.
pub fn info() -> Value {
    serde_json::json!({
        "systems": system::SYSTEMS.iter().map(|s| serde_json::json!({"name": s.name, "options": s.options})).collect::<Vec<_>>(),
        "tiebreaks": Key::names().collect::<Vec<_>>(),
        "max_entrants": setup::MAX_ENTRANTS,
        "max_boards": setup::MAX_BOARDS,
        "default_tiebreaks": crate::games::GAMES.iter().map(|g| {
            (g.to_string(), Value::from(Key::default_tiebreaks(g).iter().map(|k| k.name()).collect::<Vec<_>>()))
        }).collect::<Map<String, Value>>(),
    })
}

/// The tournament record format this build writes.
pub const FORMAT: u64 = 1;

/// A match of a round: two entrants at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// The table, from 0 (board `table % boards`).
    pub table: usize,
    /// Side 0 and side 1.
    pub sides: [usize; 2],
    /// How it ended, once entered.
    pub result: Option<Outcome>,
}

/// An entrant that does not play this round and counts a win.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bye {
    /// The table the bye keeps (a round robin's), if any.
    pub table: Option<usize>,
    /// Who has it.
    pub entrant: usize,
}

/// A paired round.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Round {
    /// The matches, by table.
    pub matches: Vec<Match>,
    /// The byes.
    pub byes: Vec<Bye>,
    /// Knockout sides that advance because their opponent withdrew (a forfeit won).
    pub walkovers: Vec<usize>,
}

impl Round {
    /// Whether every match has its result.
    pub fn complete(&self) -> bool {
        self.matches.iter().all(|m| m.result.is_some())
    }
}

/// Who is in the tournament and what has happened: what a system pairs from.
#[derive(Debug, Clone)]
pub struct Field {
    /// Every entrant's players, late entrants appended.
    pub entrants: Vec<Vec<String>>,
    /// Whether each entrant withdrew.
    pub withdrawn: Vec<bool>,
    /// The rounds paired so far.
    pub rounds: Vec<Round>,
    /// The ranking keys, the first one first.
    pub keys: Vec<Key>,
}

impl Field {
    /// The entrants still playing, in seed order.
    pub fn active(&self) -> Vec<usize> {
        (0..self.entrants.len())
            .filter(|&e| !self.withdrawn[e])
            .collect()
    }

    /// The figures after every result so far.
    pub fn table(&self) -> Table {
        Table::compute(self.entrants.len(), &self.withdrawn, &self.rounds)
    }

    /// Every entrant ranked by the standings.
    pub fn ranking(&self) -> Vec<usize> {
        let all: Vec<usize> = (0..self.entrants.len()).collect();
        self.table().rank(&all, &self.keys)
    }

    /// An entrant's name as shown: a team's players joined.
    pub fn name(&self, entrant: usize) -> String {
        self.entrants[entrant].join(" & ")
    }
}

/// Whether the tournament takes entrants, plays, or is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Before the first `pair`.
    Registering,
    /// Rounds are being played.
    Playing,
    /// The last results are in.
    Finished,
}

/// A tournament's state: its setup and everything its events did.
#[derive(Debug, Clone)]
pub struct Tournament {
    /// What never changes after setup, shared by every state of a replay.
    common: std::sync::Arc<Common>,
    system: Box<dyn System>,
    field: Box<Field>,
}

/// The setup every match of a tournament shares.
#[derive(Debug)]
struct Common {
    game: String,
    rules: Map<String, Value>,
    boards: Option<usize>,
}

/// Where an entrant stands while more than one pool plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PoolPlace {
    /// Its pool (from 0), or none when it withdrew before the pools were dealt.
    pub pool: Option<usize>,
    /// Its place in its pool among those still in; none once withdrawn.
    pub rank: Option<usize>,
}

/// One line of the standings.
#[derive(Debug, Clone, Serialize)]
pub struct Standing {
    /// 1 for the first.
    pub rank: usize,
    /// The entrant's index.
    pub entrant: usize,
    /// The entrant's name (a team's players joined).
    pub name: String,
    /// The figures.
    #[serde(flatten)]
    pub figures: Figures,
}

/// Where a table plays: its board, and the wave when there are fewer boards than matches.
#[derive(Debug, Clone, Serialize)]
pub struct Board {
    /// The table.
    pub table: usize,
    /// The board it is played on.
    pub board: usize,
    /// 0 for the first matches on the boards, 1 for those waiting for a board, ...
    pub wave: usize,
}

#[derive(Serialize)]
struct Pairing<'a> {
    table: usize,
    sides: [usize; 2],
    result: &'a Option<Outcome>,
}

impl Tournament {
    /// Sets a tournament up from its setup object (`bad_setup` when invalid).
    pub fn setup(value: &Value) -> Result<Self, Error> {
        let s = Setup::parse(value)?;
        let n = s.entrants.len();
        Ok(Tournament {
            common: std::sync::Arc::new(Common {
                game: s.game,
                rules: s.rules,
                boards: s.boards,
            }),
            system: s.system,
            field: Box::new(Field {
                entrants: s.entrants,
                withdrawn: vec![false; n],
                rounds: Vec::new(),
                keys: s.keys,
            }),
        })
    }

    /// The game every match is played at.
    pub fn game(&self) -> &str {
        &self.common.game
    }

    /// The match rules of every match.
    pub fn rules(&self) -> &Map<String, Value> {
        &self.common.rules
    }

    /// The entrants, the rounds and the ranking keys.
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// Whether the game seats the last entrant against the others, as the setup checks every
    /// entrant: a late entrant it cannot seat (a Crokinole team of three) is refused where it
    /// is entered (`illegal_action`, with the game's code and the entrant's names), not at the
    /// table it is paired to. Not a rule of the replay: a record that holds such an entrant
    /// still reads.
    pub fn check_last_seatable(&self) -> Result<(), Error> {
        let last = self.field.entrants.len().saturating_sub(1);
        setup::seatable_newcomer(
            &self.common.game,
            &self.common.rules,
            &self.field.entrants,
            last,
        )
        .map_err(|e| e.with_kind(ErrorKind::IllegalAction))
    }

    /// The current round (0 before the first `pair`).
    pub fn round(&self) -> usize {
        self.field.rounds.len()
    }

    /// Whether it registers, plays or is over.
    pub fn status(&self) -> Status {
        match self.field.rounds.last() {
            None => Status::Registering,
            Some(r) if r.complete() && self.round() >= self.system.rounds(&self.field) => {
                Status::Finished
            }
            Some(_) => Status::Playing,
        }
    }

    /// Applies an event in its JSON form, or hands back the untouched state with the refusal.
    pub fn play_json(self, event: &Value) -> Result<Self, Refused<Self>> {
        match Event::parse(event) {
            Ok(e) => self.play(&e),
            Err(e) => Err(Refused::new(self, e)),
        }
    }

    /// Applies an event, or hands back the untouched state with the refusal.
    pub fn play(self, event: &Event) -> Result<Self, Refused<Self>> {
        if self.status() == Status::Finished {
            return Err(Refused::new(
                self,
                Error::illegal("the tournament is over").with_code("tournament_over"),
            ));
        }
        // Applied in place, not to a copy: a replay of tens of thousands of events (a round
        // robin of 256 entrants) would copy the whole field at each one. `apply` checks
        // everything before it changes anything, so a refusal hands back the state as it was
        // (tests/tournament_properties.rs, `an_event_refused_in_its_context_changes_nothing`).
        let mut next = self;
        match next.apply(event) {
            Ok(()) => Ok(next),
            Err(e) => Err(Refused::new(next, e)),
        }
    }

    /// Applies an event: every check comes before the first change, so that an `Err` leaves
    /// the state untouched.
    fn apply(&mut self, event: &Event) -> Result<(), Error> {
        match event {
            Event::Pair => {
                if self.field.rounds.last().is_some_and(|r| !r.complete()) {
                    return Err(Error::illegal(format!(
                        "round {} still has matches without a result",
                        self.round()
                    ))
                    .with_code("round_open"));
                }
                let round = self.system.pair(&self.field)?;
                self.field.rounds.push(round);
                Ok(())
            }
            Event::Result(r) => self.enter_result(r),
            Event::Withdraw(e) => {
                let e = *e;
                if e >= self.field.entrants.len() {
                    return Err(
                        Error::illegal(format!("there is no entrant {e}")).with_code("no_entrant")
                    );
                }
                if self.field.withdrawn[e] {
                    return Err(Error::illegal(format!("entrant {e} has already withdrawn"))
                        .with_code("already_withdrawn"));
                }
                if self.field.active().len() <= 2 {
                    return Err(
                        Error::illegal("a tournament needs two entrants still playing")
                            .with_code("too_few_entrants"),
                    );
                }
                self.field.withdrawn[e] = true;
                Ok(())
            }
            Event::Enter(names) => {
                if !self.system.takes_late_entries(&self.field) {
                    return Err(Error::illegal(format!(
                        "a {} tournament takes no entrant once it has started",
                        self.system.name()
                    ))
                    .with_code("no_late_entry"));
                }
                if self.field.entrants.len() >= setup::MAX_ENTRANTS {
                    return Err(Error::illegal(format!(
                        "a tournament has at most {} entrants",
                        setup::MAX_ENTRANTS
                    ))
                    .with_code("too_many_entrants"));
                }
                if let Some(name) = setup::name_taken(&self.field.entrants, names) {
                    return Err(Error::illegal(format!("{name:?} is already entered"))
                        .with_code("name_taken"));
                }
                self.field.entrants.push(names.clone());
                self.field.withdrawn.push(false);
                Ok(())
            }
            Event::Rounds(n) => self.system.set_rounds(&self.field, *n),
        }
    }

    fn enter_result(&mut self, r: &TableResult) -> Result<(), Error> {
        let current = self.round();
        if current == 0 {
            return Err(Error::illegal("no round is paired yet").with_code("wrong_round"));
        }
        if r.round != current {
            return Err(Error::illegal(format!(
                "round {} is not the current round ({current})",
                r.round
            ))
            .with_code("wrong_round"));
        }
        if !self.system.allows_draws(current) && r.outcome.winner().is_none() {
            return Err(Error::illegal("a knockout match needs a winner").with_code("no_draw"));
        }
        let round = self.field.rounds.last_mut().expect("a current round");
        if round.byes.iter().any(|b| b.table == Some(r.table)) {
            return Err(Error::illegal(format!("table {} is a bye", r.table)).with_code("bye"));
        }
        let m = round
            .matches
            .iter_mut()
            .find(|m| m.table == r.table)
            .ok_or_else(|| {
                Error::illegal(format!("round {current} has no table {}", r.table))
                    .with_code("no_table")
            })?;
        if m.result.is_some() {
            return Err(
                Error::illegal(format!("table {} already has a result", r.table))
                    .with_code("result_in"),
            );
        }
        let mut outcome = r.outcome.clone();
        // 20s are Crokinole's (tournaments.md §2): another game's result ignores the key, as
        // a record ignores a key its action does not use, so that it ranks no one.
        if let Outcome::Played { twenties, .. } = &mut outcome {
            if !standings::Key::Twenties.counted_in(&self.common.game) {
                *twenties = None;
            }
        }
        m.result = Some(outcome);
        Ok(())
    }

    /// The events withdrawing `entrant` makes: the withdrawal, and the forfeit of the match it
    /// still has to play in the current round, so that the round can end. For the organiser it
    /// is one step: the store commits them together and one undo takes them back together
    /// ([`Tournament::undo_len`]). Whether they are legal is for [`Tournament::play`] to say.
    pub fn withdrawal(&self, entrant: usize) -> Vec<Value> {
        let mut events = vec![serde_json::json!({ "withdraw": entrant })];
        let open = self.field.rounds.last().and_then(|r| {
            r.matches
                .iter()
                .find(|m| m.result.is_none() && m.sides.contains(&entrant))
        });
        if let Some(m) = open {
            let side = usize::from(m.sides[1] == entrant);
            events.push(serde_json::json!({
                "result": {"round": self.round(), "table": m.table, "forfeit": side}
            }));
        }
        events
    }

    /// How many of the last `events` (those that made `self`) one undo takes back: two when the
    /// last is the forfeit of the entrant withdrawn by the one before ([`Tournament::withdrawal`]),
    /// since an entrant withdrawn with its match still open is no state the organiser asked
    /// for; else one (none when there is no event).
    pub fn undo_len(&self, events: &[Value]) -> usize {
        let [.., before, last] = events else {
            return events.len();
        };
        let (Ok(Event::Withdraw(e)), Ok(Event::Result(r))) =
            (Event::parse(before), Event::parse(last))
        else {
            return 1;
        };
        let Outcome::Forfeit { forfeit } = r.outcome else {
            return 1;
        };
        let forfeited = (r.round == self.round())
            .then(|| self.field.rounds.last())
            .flatten()
            .and_then(|round| round.matches.iter().find(|m| m.table == r.table))
            .is_some_and(|m| m.sides.get(forfeit) == Some(&e));
        if forfeited {
            2
        } else {
            1
        }
    }

    /// The standings, ranked.
    pub fn standings(&self) -> Vec<Standing> {
        let table = self.field.table();
        let all: Vec<usize> = (0..self.field.entrants.len()).collect();
        table
            .rank(&all, &self.field.keys)
            .into_iter()
            .enumerate()
            .map(|(i, e)| Standing {
                rank: i + 1,
                entrant: e,
                name: self.field.name(e),
                figures: table.figures[e].clone(),
            })
            .collect()
    }

    /// Where each match of the current round is played.
    pub fn boards(&self) -> Vec<Board> {
        let Some(round) = self.field.rounds.last() else {
            return Vec::new();
        };
        round
            .matches
            .iter()
            .enumerate()
            .map(|(i, m)| match self.common.boards {
                Some(b) => Board {
                    table: m.table,
                    board: i % b,
                    wave: i / b,
                },
                None => Board {
                    table: m.table,
                    board: i,
                    wave: 0,
                },
            })
            .collect()
    }

    /// Each entrant's pool and place in it while more than one pool plays (the summary's
    /// `pool` and `pool_rank`, as the screens and the paper show them), by entrant; `None`
    /// when the standings are the whole field's.
    pub(crate) fn pool_places(&self) -> Option<std::collections::BTreeMap<usize, PoolPlace>> {
        let summary = self.summary();
        let rows = summary["standings"].as_array()?;
        if !rows.iter().any(|r| r.get("pool").is_some()) {
            return None;
        }
        let at = |v: &Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
        Some(
            rows.iter()
                .filter_map(|r| {
                    let place = PoolPlace {
                        pool: at(&r["pool"]),
                        rank: at(&r["pool_rank"]),
                    };
                    Some((at(&r["entrant"])?, place))
                })
                .collect(),
        )
    }

    /// The standings as CSV, one row an entrant, for spreadsheets and the wall. While the
    /// pools play, each row also says its pool (its letters, as the screens name it) and its
    /// place there, which is what sends it on; both cells are empty otherwise, and a withdrawn
    /// entrant has no place in its pool.
    pub fn standings_csv(&self) -> String {
        use crate::csv::cell;
        let mut out = String::from(
            "rank,entrant,name,match_points,game_points,score_diff,twenties,buchholz,\
             played,wins,draws,losses,byes,withdrawn,pool,pool_rank\n",
        );
        let places = self.pool_places().unwrap_or_default();
        for s in self.standings() {
            let f = &s.figures;
            let place = places.get(&s.entrant);
            let pool = place.and_then(|p| p.pool).map(pools::letters);
            let pool_rank = place.and_then(|p| p.rank).map(|r| r.to_string());
            let row = [
                s.rank.to_string(),
                s.entrant.to_string(),
                cell(&s.name),
                f.match_points.to_string(),
                f.game_points.to_string(),
                f.score_diff.to_string(),
                f.twenties.to_string(),
                f.buchholz.to_string(),
                f.played.to_string(),
                f.wins.to_string(),
                f.draws.to_string(),
                f.losses.to_string(),
                f.byes.to_string(),
                f.withdrawn.to_string(),
                pool.unwrap_or_default(),
                pool_rank.unwrap_or_default(),
            ];
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }

    /// The champion, once finished.
    pub fn champion(&self) -> Option<usize> {
        (self.status() == Status::Finished)
            .then(|| self.system.champion(&self.field))
            .flatten()
    }

    /// The summary of `docs/tournaments.md` ("The summary"), with the names and boards a screen
    /// needs besides.
    pub fn summary(&self) -> Value {
        let round = self.field.rounds.last();
        let pairings: Vec<Pairing> = round.map_or_else(Vec::new, |r| {
            r.matches
                .iter()
                .map(|m| Pairing {
                    table: m.table,
                    sides: m.sides,
                    result: &m.result,
                })
                .collect()
        });
        let mut map = Map::new();
        let mut put = |k: &str, v: Value| {
            map.insert(k.to_string(), v);
        };
        fn json<T: Serialize>(v: &T) -> Value {
            serde_json::to_value(v).expect("a summary serialises")
        }
        put("status", json(&self.status()));
        put("game", self.common.game.clone().into());
        put("place", crate::games::place(&self.common.game).into());
        put("system", self.system.name().into());
        put("round", self.round().into());
        put("rounds", self.system.rounds(&self.field).into());
        put("pairings", json(&pairings));
        put("bye", self.system.bye(round));
        // Knockout sides through because their opponent withdrew: they play no match this
        // round, and the screens list them beside the bye.
        put(
            "walkovers",
            json(&round.map_or(&[][..], |r| r.walkovers.as_slice())),
        );
        put("standings", json(&self.standings()));
        put("champion", json(&self.champion()));
        put("boards", json(&self.boards()));
        put(
            "ranking_keys",
            self.field.keys.iter().map(|k| k.name()).collect(),
        );
        put(
            "draws_allowed",
            self.system.allows_draws(self.round()).into(),
        );
        put(
            "entrants",
            (0..self.field.entrants.len())
                .map(|e| Value::from(self.field.name(e)))
                .collect(),
        );
        self.system.extend_summary(&self.field, &mut map);
        Value::Object(map)
    }
}

/// A tournament record: the setup and the events.
#[derive(Debug, Clone)]
pub struct TournamentRecord {
    /// The setup object, as given.
    pub setup: Value,
    /// The events in order.
    pub events: Vec<Value>,
}

impl TournamentRecord {
    /// Reads a record; `bad_record` when the file is not a tournament record at all.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        if text.len() > crate::record::MAX_RECORD_BYTES {
            return Err(Error::bad_record("the record is too large"));
        }
        let value: Value =
            serde_json::from_str(text).map_err(|e| Error::bad_record(format!("not JSON: {e}")))?;
        Self::from_value(&value)
    }

    /// Reads a record from JSON already parsed.
    pub fn from_value(value: &Value) -> Result<Self, Error> {
        let not_record = |why: &str| Error::bad_record(why.to_string()).with_code("not_record");
        let map = value
            .as_object()
            .ok_or_else(|| not_record("a tournament record is an object"))?;
        crate::record::check_format(map.get("format"), FORMAT)?;
        let setup = map
            .get("tournament")
            .cloned()
            .ok_or_else(|| not_record("no tournament"))?;
        let events = match map.get("events") {
            None => Vec::new(),
            Some(Value::Array(list)) => list.clone(),
            Some(_) => return Err(not_record("events must be a list")),
        };
        Ok(TournamentRecord { setup, events })
    }

    /// Replays every event; the first refusal names the event's number.
    pub fn replay(&self) -> Result<Tournament, Error> {
        replay(&self.setup, &self.events)
    }

    /// Whether a result the app's match `uid` entered has had a round paired after it: it
    /// stands, since the rounds after were paired from it.
    pub fn paired_after_result(&self, uid: &str) -> bool {
        self.events
            .iter()
            .rposition(|e| e["result"]["match"] == uid)
            .is_some_and(|at| {
                self.events[at + 1..]
                    .iter()
                    .any(|e| e.get("pair").is_some())
            })
    }

    /// The result that the app's match `uid` entered, taken back because the match no longer
    /// ends so (undone on its device, or a newer copy of it came): the event's place and the
    /// tournament without it. Only while its round is still played (no `pair` since): the
    /// results entered after it in that round stay, and the match entering its result again
    /// corrects the table. After a pairing none is taken back, since the rounds after were
    /// paired from it; nor is one whose removal the rules refuse.
    pub fn taken_back(&self, uid: &str) -> Option<(usize, Tournament)> {
        if self.paired_after_result(uid) {
            return None;
        }
        let at = self
            .events
            .iter()
            .rposition(|e| e["result"]["match"] == uid)?;
        let mut events = self.events.clone();
        events.remove(at);
        replay(&self.setup, &events).ok().map(|t| (at, t))
    }
}

/// Sets up and replays `events`; the first refusal names the event's number.
pub fn replay(setup: &Value, events: &[Value]) -> Result<Tournament, Error> {
    let mut t = Tournament::setup(setup)?;
    for (i, e) in events.iter().enumerate() {
        t = t.play_json(e).map_err(|r| {
            let mut err = r.error;
            err.detail = format!("event {i}: {}", err.detail);
            err
        })?;
    }
    Ok(t)
}
