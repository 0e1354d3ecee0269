//! A game of Boulomania: mènes of pointing and shooting with dice, to 13.

use super::action::{Action, To, Via};
use super::board::Board;
use crate::error::Error;
use crate::game::{
    check_sides, ratio, replay_with, tally, Computer, Counters, Game, Rates, Refused,
};
use crate::options::{number, only};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Validated options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoulomaniaRules {
    /// Game points that win.
    pub target: u32,
    /// Balls per side in a mène.
    pub balls: u8,
}

impl BoulomaniaRules {
    /// Reads the options; unknown keys and bad values are `bad_setup`.
    pub fn from_map(map: &Map<String, Value>) -> Result<Self, Error> {
        only(map, "Boulomania", &["target", "balls"])?;
        Ok(BoulomaniaRules {
            target: number(map, "target", 13, 1, 99)?,
            balls: number(map, "balls", 8, 1, 8)? as u8,
        })
    }
}

/// What one action did, in order, for the screen to tell it (the summary's `events`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The jack was thrown to a square.
    Jack {
        /// Its square.
        square: u8,
    },
    /// A pointed ball went to the jack's square (a double's first die).
    JackSquare {
        /// The square.
        square: u8,
        /// The pointing side.
        side: u8,
    },
    /// A pointed ball landed on the dice's total.
    Placed {
        /// The square.
        square: u8,
        /// The pointing side.
        side: u8,
    },
    /// A pointed ball fell short of the field (a total under 7).
    Lost {
        /// The dice's total.
        sum: u8,
        /// The pointing side.
        side: u8,
    },
    /// A ball was pushed on to another square.
    Pushed {
        /// Where it was.
        from: u8,
        /// Where it went.
        to: u8,
        /// Its side.
        side: u8,
    },
    /// A ball was pushed off the field.
    Out {
        /// Where it was.
        from: u8,
        /// Its side, when a push carried it out (not told for a graze's carry).
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<u8>,
    },
    /// A shot missed (a die of 1 to 3).
    Miss {
        /// The die.
        die: u8,
    },
    /// A shot grazed its target (a 4).
    Graze {
        /// The die.
        die: u8,
        /// The target's square.
        square: u8,
    },
    /// A shot grazed a target lying in a jack square, which does not move (a 4).
    GrazeStays {
        /// The die.
        die: u8,
        /// The target's square.
        square: u8,
    },
    /// A shot knocked its target off the field (a 5).
    ShotOut {
        /// The die.
        die: u8,
        /// The target's square.
        square: u8,
    },
    /// A carreau: the shooting ball took its target's place (a 6).
    Carreau {
        /// The die.
        die: u8,
        /// The square.
        square: u8,
    },
    /// The jack was carried to another square.
    JackMoved {
        /// Where it was.
        from: u8,
        /// Where it went.
        to: u8,
    },
    /// A shot at the jack missed.
    JackMissed {
        /// The die.
        die: u8,
    },
    /// The jack left the field.
    JackOut,
    /// The mène ended.
    MeneEnd {
        /// `scored`, `null`, `jack_out` or `replayed` (as [`MeneEnd::reason`]).
        reason: &'static str,
        /// The side that scored, if any.
        winner: Option<u8>,
        /// Its points.
        points: Option<u32>,
    },
}

/// How the last mène ended, for the screen to show which balls scored or why nobody did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeneEnd {
    /// The winner and its points, or None.
    pub winner: Option<(u8, u32)>,
    /// `scored`, `null` (tie or empty field), `jack_out` (scored from balls in hand),
    /// `replayed` (a jack out with both or neither side holding balls).
    pub reason: &'static str,
    /// The field as it was when the mène ended, and the balls that scored.
    pub field: BTreeMap<u8, u8>,
    /// The jack's square then.
    pub jack: Option<u8>,
    /// The scoring balls' squares.
    pub scoring: Vec<u8>,
}

/// A Boulomania game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Boulomania {
    rules: BoulomaniaRules,
    team: [usize; 2],
    scores: [u32; 2],
    mene: u32,
    starter: u8,
    jack: Option<u8>,
    field: BTreeMap<u8, u8>,
    in_hand: [u8; 2],
    lost: [u8; 2],
    turn: u8,
    thrown: u32,
    throws: [u32; 2],
    mene_points: Vec<Option<(u8, u32)>>,
    winner: Option<u8>,
    events: Vec<Event>,
    last_mene: Option<MeneEnd>,
}

fn illegal(code: &'static str, detail: impl Into<String>) -> Error {
    Error::illegal(detail).with_code(code)
}

impl Boulomania {
    /// The squares and sides of the balls on the field.
    pub fn field(&self) -> &BTreeMap<u8, u8> {
        &self.field
    }

    /// The jack's square.
    pub fn jack(&self) -> Option<u8> {
        self.jack
    }

    /// Balls in hand per side.
    pub fn in_hand(&self) -> [u8; 2] {
        self.in_hand
    }

    /// The side to act (meaningless once the game is over).
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// Game points per side.
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    /// The options.
    pub fn rules(&self) -> BoulomaniaRules {
        self.rules
    }

    /// Whether the jack roll is due.
    pub fn jack_due(&self) -> bool {
        self.jack.is_none() && self.winner.is_none()
    }

    /// Whether a ball has been thrown in this mène (the first must be pointed).
    pub fn first_ball_thrown(&self) -> bool {
        self.thrown > 0
    }

    /// The best (smallest) squared distance of a side's balls to the jack.
    fn best(&self, side: u8) -> Option<i32> {
        let (board, jack) = (Board::get(), self.jack?);
        self.field
            .iter()
            .filter(|(_, &s)| s == side)
            .map(|(&sq, _)| board.distance(sq, jack))
            .min()
    }

    /// The side holding the point: its closest ball is strictly closer than the other's.
    pub fn holder(&self) -> Option<u8> {
        match (self.best(0), self.best(1)) {
            (Some(a), Some(b)) if a < b => Some(0),
            (Some(a), Some(b)) if b < a => Some(1),
            (Some(_), None) => Some(0),
            (None, Some(_)) => Some(1),
            _ => None,
        }
    }

    /// The holder's balls strictly closer than the other side's closest ball.
    fn scoring(&self) -> Vec<u8> {
        let Some(h) = self.holder() else {
            return Vec::new();
        };
        let (board, jack) = (Board::get(), self.jack.expect("a holder implies a jack"));
        let other = self.best(1 - h);
        self.field
            .iter()
            .filter(|(&sq, &s)| s == h && other.is_none_or(|o| board.distance(sq, jack) < o))
            .map(|(&sq, _)| sq)
            .collect()
    }

    /// Moves the ball on ball square `from` one square on, pushing what it meets; `straight`
    /// ignores the arrows (the grazing special cases).
    fn push(&mut self, from: u8, via: &Via, used: &mut BTreeSet<u8>, straight: bool) {
        let board = Board::get();
        let Some(side) = self.field.remove(&from) else {
            return;
        };
        let to = match via.get(&from) {
            Some(&t) if !straight => {
                used.insert(from);
                Some(t)
            }
            _ => board.ahead[from as usize],
        };
        match to {
            None => {
                self.lost[side as usize] += 1;
                self.events.push(Event::Out {
                    from,
                    side: Some(side),
                });
            }
            Some(t) => {
                if self.field.contains_key(&t) {
                    self.push(t, via, used, false);
                }
                self.events.push(Event::Pushed { from, to: t, side });
                self.field.insert(t, side);
            }
        }
    }

    /// Places the acting side's ball on ball square `sq`, pushing a ball already there.
    fn land(&mut self, sq: u8, side: u8, via: &Via, used: &mut BTreeSet<u8>) {
        if self.field.contains_key(&sq) {
            self.push(sq, via, used, false);
        }
        self.field.insert(sq, side);
    }

    fn check(&self, action: &Action) -> Result<(), Error> {
        match action {
            Action::Jack(_) if !self.jack_due() => {
                Err(illegal("jack_placed", "the jack is already on the board"))
            }
            Action::Jack(_) => Ok(()),
            _ if self.jack_due() => Err(illegal("jack_due", "the mène starts with the jack roll")),
            Action::Shoot { .. } | Action::ShootJack(_) if self.thrown == 0 => Err(illegal(
                "first_ball_pointed",
                "the first ball of a mène is pointed",
            )),
            Action::Shoot { target, .. } => match self.field.get(target) {
                Some(&s) if s != self.turn => Ok(()),
                Some(_) => Err(illegal("own_ball", "a side shoots the other side's balls")),
                None => Err(illegal("no_ball", format!("there is no ball on {target}"))),
            },
            Action::ShootJack(_) => Ok(()),
            Action::Point { dice, to, .. } => {
                let double = dice.len() == 2 && dice[0] == dice[1];
                let jack_free =
                    double && Some(dice[0]) != self.jack && !self.field.contains_key(&dice[0]);
                let total_ok = double && dice[0] * 2 >= 8;
                match to {
                    Some(To::Jack) if !jack_free => Err(illegal(
                        "jack_square_taken",
                        format!("jack square {} is not free", dice[0]),
                    )),
                    None if jack_free && total_ok => Err(illegal(
                        "choose_square",
                        format!("choose jack square {} or square {}", dice[0], dice[0] * 2),
                    )),
                    _ => Ok(()),
                }
            }
        }
    }

    /// Ends the mène: scores, the next starter, the game's end. A mène that wins the game
    /// stays on the board as the final position: no fresh mène follows it.
    fn end_mene(&mut self, end: MeneEnd) {
        self.mene_points.push(end.winner);
        if let Some((w, pts)) = end.winner {
            self.scores[w as usize] += pts;
            self.starter = w;
            if self.scores[w as usize] >= self.rules.target {
                self.winner = Some(w);
            }
        }
        self.events.push(Event::MeneEnd {
            reason: end.reason,
            winner: end.winner.map(|w| w.0),
            points: end.winner.map(|w| w.1),
        });
        self.last_mene = Some(end);
        if self.winner.is_some() {
            return;
        }
        self.mene += 1;
        self.jack = None;
        self.field.clear();
        self.in_hand = [self.rules.balls; 2];
        self.lost = [0, 0];
        self.thrown = 0;
        self.turn = self.starter;
    }

    fn jack_out(&mut self) {
        self.events.push(Event::JackOut);
        let has = [self.in_hand[0] > 0, self.in_hand[1] > 0];
        let end = if has[0] == has[1] {
            MeneEnd {
                winner: None,
                reason: "replayed",
                field: self.field.clone(),
                jack: None,
                scoring: vec![],
            }
        } else {
            let w = if has[0] { 0 } else { 1 };
            MeneEnd {
                winner: Some((w, self.in_hand[w as usize] as u32)),
                reason: "jack_out",
                field: self.field.clone(),
                jack: None,
                scoring: vec![],
            }
        };
        self.end_mene(end);
    }

    /// Who plays after `actor`'s throw (`shot`: it was a shot), or the end of the mène.
    fn next(&mut self, actor: u8, shot: bool) {
        if self.in_hand == [0, 0] {
            let scoring = self.scoring();
            let end = match self.holder() {
                Some(h) => MeneEnd {
                    winner: Some((h, scoring.len() as u32)),
                    reason: "scored",
                    field: self.field.clone(),
                    jack: self.jack,
                    scoring,
                },
                None => MeneEnd {
                    winner: None,
                    reason: "null",
                    field: self.field.clone(),
                    jack: self.jack,
                    scoring,
                },
            };
            self.end_mene(end);
            return;
        }
        let candidate = if self.field.is_empty() {
            if shot {
                actor
            } else {
                1 - actor
            }
        } else {
            match self.holder() {
                Some(h) => 1 - h,
                None => actor,
            }
        };
        self.turn = if self.in_hand[candidate as usize] > 0 {
            candidate
        } else {
            1 - candidate
        };
    }

    fn apply(&mut self, action: &Action) -> Result<(), Error> {
        self.events.clear();
        let side = self.turn;
        let board = Board::get();
        let mut used = BTreeSet::new();
        let via: Via = match action {
            Action::Point { via, .. } | Action::Shoot { via, .. } => via.clone(),
            _ => Via::new(),
        };
        match action {
            Action::Jack(j) => {
                self.jack = Some(*j);
                self.events.push(Event::Jack { square: *j });
                return Ok(());
            }
            Action::Point { dice, to, .. } => {
                self.in_hand[side as usize] -= 1;
                self.thrown += 1;
                self.throws[side as usize] += 1;
                let sum: u8 = dice.iter().sum();
                let double = dice.len() == 2 && dice[0] == dice[1];
                let jack_free =
                    double && Some(dice[0]) != self.jack && !self.field.contains_key(&dice[0]);
                let to_jack = match to {
                    Some(To::Jack) => true,
                    Some(To::Total) => false,
                    None => jack_free && sum < 8,
                };
                if to_jack {
                    self.field.insert(dice[0], side);
                    self.events.push(Event::JackSquare {
                        square: dice[0],
                        side,
                    });
                } else if sum >= 7 {
                    self.land(sum, side, &via, &mut used);
                    self.events.push(Event::Placed { square: sum, side });
                } else {
                    self.lost[side as usize] += 1;
                    self.events.push(Event::Lost { sum, side });
                }
                self.check_via(&via, &used)?;
                self.next(side, false);
            }
            Action::Shoot { target, die, .. } => {
                self.in_hand[side as usize] -= 1;
                self.thrown += 1;
                self.throws[side as usize] += 1;
                let t = *target;
                let target_side = self.field[&t];
                if *die < 6 {
                    self.lost[side as usize] += 1; // the shooting ball, except on a carreau
                }
                match die {
                    1..=3 => self.events.push(Event::Miss { die: *die }),
                    4 => {
                        // A ball lying in a jack square does not move on a 4: said apart.
                        self.events.push(if Board::is_jack_square(t) {
                            Event::GrazeStays { die: 4, square: t }
                        } else {
                            Event::Graze { die: 4, square: t }
                        });
                        let jack = self.jack.expect("play phase");
                        if Board::is_jack_square(t) {
                            // (It stays.)
                        } else if board.carry[t as usize].contains(&jack) {
                            match board.jack_ahead[jack as usize] {
                                None => {
                                    self.field.remove(&t);
                                    self.lost[target_side as usize] += 1;
                                    self.events.push(Event::Out {
                                        from: t,
                                        side: None,
                                    });
                                    self.check_via(&via, &used)?;
                                    self.jack = None;
                                    self.jack_out();
                                    return Ok(());
                                }
                                Some(j2) => {
                                    self.push(t, &via, &mut used, true);
                                    if !self.field.contains_key(&j2) {
                                        self.jack = Some(j2);
                                        self.events.push(Event::JackMoved { from: jack, to: j2 });
                                    }
                                }
                            }
                        } else {
                            self.push(t, &via, &mut used, false);
                        }
                    }
                    5 => {
                        self.field.remove(&t);
                        self.lost[target_side as usize] += 1;
                        self.events.push(Event::ShotOut { die: 5, square: t });
                    }
                    _ => {
                        self.field.insert(t, side);
                        self.lost[target_side as usize] += 1;
                        self.events.push(Event::Carreau { die: 6, square: t });
                    }
                }
                self.check_via(&via, &used)?;
                self.next(side, true);
            }
            Action::ShootJack(d) => {
                self.in_hand[side as usize] -= 1;
                self.thrown += 1;
                self.throws[side as usize] += 1;
                self.lost[side as usize] += 1;
                if *d == 6 {
                    self.jack = None;
                    self.jack_out();
                } else {
                    self.events.push(Event::JackMissed { die: *d });
                    self.next(side, true);
                }
            }
        }
        Ok(())
    }

    fn check_via(&self, via: &Via, used: &BTreeSet<u8>) -> Result<(), Error> {
        match via.keys().find(|k| !used.contains(k)) {
            Some(k) => Err(illegal(
                "via_unused",
                format!("no ball was pushed from {k}"),
            )),
            None => Ok(()),
        }
    }

    /// The complete actions a roll opens for the side to act, each with the state it leads to:
    /// the roll as given, then every `to` a double allows, and every way a pushed ball may take
    /// at an arrow it actually leaves. Choices with the same outcome are kept once.
    pub fn outcomes(&self, base: &Action) -> Vec<(Action, Boulomania)> {
        // A game over has no outcome (its actions are refused before they reach `play`).
        if self.is_over() {
            return Vec::new();
        }
        let board = Board::get();
        let mut starts = vec![base.clone()];
        if let Action::Point { dice, .. } = base {
            if dice.len() == 2 && dice[0] == dice[1] {
                for to in [To::Jack, To::Total] {
                    starts.push(Action::Point {
                        dice: dice.clone(),
                        to: Some(to),
                        via: Via::new(),
                    });
                }
            }
        }
        let mut out: Vec<(Action, Boulomania)> = Vec::new();
        let mut queue = starts;
        while let Some(candidate) = queue.pop() {
            if Action::from_json(&candidate.to_json()).is_err() {
                continue;
            }
            let Ok(next) = self.clone().play(&candidate) else {
                continue;
            };
            // Arrow squares a pushed ball left without a choice given: branch on each way.
            let via = match &candidate {
                Action::Point { via, .. } | Action::Shoot { via, .. } => via.clone(),
                _ => Via::new(),
            };
            for e in &next.events {
                let (Event::Pushed { from, .. } | Event::Out { from, .. }) = *e else {
                    continue;
                };
                if (7..=18).contains(&from)
                    && !board.arrows[from as usize].is_empty()
                    && !via.contains_key(&from)
                {
                    for exit in board.arrows[from as usize].iter() {
                        let mut w = via.clone();
                        w.insert(from, *exit);
                        queue.push(match &candidate {
                            Action::Point { dice, to, .. } => Action::Point {
                                dice: dice.clone(),
                                to: *to,
                                via: w,
                            },
                            Action::Shoot { target, die, .. } => Action::Shoot {
                                target: *target,
                                die: *die,
                                via: w,
                            },
                            other => other.clone(),
                        });
                    }
                }
            }
            // Two ways to win the game with the same score are one outcome, though the final
            // positions they leave differ.
            let same = out.iter().any(|(_, o)| {
                o.mene == next.mene
                    && o.scores == next.scores
                    && ((o.winner.is_some() && next.winner.is_some())
                        || (o.field == next.field && o.jack == next.jack))
            });
            if !same {
                out.push((candidate, next));
            }
        }
        out
    }

    /// The choices a roll opens, as record actions with the summary each leads to (for the
    /// screens: a choice is asked only when there is more than one).
    pub fn choices(&self, base: &Action) -> Vec<(Action, Value)> {
        self.outcomes(base)
            .into_iter()
            .map(|(a, g)| {
                // What this choice decides, in squares, for the screen to name it.
                let (to, square) = match &a {
                    Action::Point {
                        dice,
                        to: Some(To::Jack),
                        ..
                    } => (Some("jack"), Some(dice[0])),
                    Action::Point {
                        dice,
                        to: Some(To::Total),
                        ..
                    } => (Some("total"), Some(dice.iter().sum::<u8>())),
                    _ => (None, None),
                };
                let via = match &a {
                    Action::Point { via, .. } | Action::Shoot { via, .. } => Some(via),
                    _ => None,
                };
                let summary = serde_json::to_value(ChoiceSummary {
                    game: &g,
                    choice: Choice {
                        to,
                        square,
                        via: Ways(via),
                    },
                })
                .expect("a summary serialises");
                (a, summary)
            })
            .collect()
    }

    /// The mène number (from 1).
    pub fn mene(&self) -> u32 {
        self.mene
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<u8> {
        self.winner
    }

    /// The scoring balls now (the holder's balls closer than the other side's best).
    pub fn scoring_now(&self) -> usize {
        self.scoring().len()
    }

    /// What the side to act may do now: point, shoot which balls, shoot the jack (the
    /// summary's `options`).
    pub fn options(&self) -> impl Serialize + '_ {
        TurnOptions(self)
    }
}

impl Game for Boulomania {
    type Action = Action;
    const NAME: &'static str = "boulomania";
    const TITLE: [&'static str; 2] = ["Boulomania", "Boulomania"];
    const COMPUTER_LEVELS: u8 = 2;

    fn info() -> Value {
        super::info()
    }

    fn counters(
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
        actions: &[Value],
        _computer: &Computer,
    ) -> Result<Vec<Vec<Counters>>, Error> {
        let mut carreaux: Vec<Vec<u64>> = sides.iter().map(|s| vec![0; s.len()]).collect();
        let state = replay_with(
            rules,
            sides,
            actions,
            |state: &Boulomania, a| {
                // A carreau is a shot with a 6, credited to its thrower.
                if let Action::Shoot { die: 6, .. } = a {
                    let side = state.turn as usize;
                    let seat = state.throws[side] as usize % state.team[side];
                    if let Some(c) = carreaux[side].get_mut(seat) {
                        *c += 1;
                    }
                }
            },
            |(), _| (),
        )?;
        // Mène figures belong to the team; each of its players is credited with them.
        let menes = state.mene_points.len() as u64;
        Ok(carreaux
            .iter()
            .enumerate()
            .map(|(side, seats)| {
                let won: Vec<u64> = state
                    .mene_points
                    .iter()
                    .flatten()
                    .filter(|(s, _)| usize::from(*s) == side)
                    .map(|(_, n)| u64::from(*n))
                    .collect();
                seats
                    .iter()
                    .map(|&c| {
                        tally(&[
                            ("menes", menes),
                            ("menes_won", won.len() as u64),
                            ("mene_points", won.iter().sum()),
                            ("carreaux", c),
                        ])
                    })
                    .collect()
            })
            .collect())
    }

    fn rates(sum: &dyn Fn(&str) -> u64) -> Rates {
        vec![
            ("menes_won_rate", ratio(sum("menes_won"), sum("menes"))),
            ("points_per_mene", ratio(sum("mene_points"), sum("menes"))),
            ("carreaux", Value::from(sum("carreaux"))),
        ]
    }

    fn think(
        &self,
        level: u8,
        seed: u64,
        _stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> Result<Value, Error> {
        let mut rng = crate::rng::Rng::new(seed);
        Ok(super::ai::play_turn(self, level, &mut rng).to_json())
    }

    fn setup(rules: &Map<String, Value>, sides: &[Vec<String>]) -> Result<Self, Error> {
        if sides.len() != 2 || sides.iter().any(|s| s.len() > 4) {
            return Err(
                Error::bad_setup("Boulomania is played by two teams of 1 to 4 players")
                    .with_code("boulomania_sides"),
            );
        }
        check_sides(sides)?;
        let rules = BoulomaniaRules::from_map(rules)?;
        Ok(Boulomania {
            rules,
            team: [sides[0].len(), sides[1].len()],
            scores: [0, 0],
            mene: 1,
            starter: 0,
            jack: None,
            field: BTreeMap::new(),
            in_hand: [rules.balls; 2],
            lost: [0, 0],
            turn: 0,
            thrown: 0,
            throws: [0, 0],
            mene_points: Vec::new(),
            winner: None,
            events: Vec::new(),
            last_mene: None,
        })
    }

    fn parse_action(&self, action: &Value) -> Result<Action, Error> {
        Action::from_json(action)
    }

    fn play(mut self, action: &Action) -> Result<Self, Refused<Self>> {
        if let Err(e) = self.check(action) {
            return Err(Refused::new(self, e));
        }
        // The mènes' points move to the next state rather than being copied: they grow by one
        // a mène, and a copy an action made a long record's replay quadratic (a record of
        // thirty thousand null mènes took seconds, at the hub as anywhere).
        let menes = std::mem::take(&mut self.mene_points);
        let before = menes.len();
        let mut next = self.clone();
        next.mene_points = menes;
        match next.apply(action) {
            Ok(()) => Ok(next),
            Err(e) => {
                // Refused, the state is as it was: only a mène's end adds to them.
                let mut menes = next.mene_points;
                menes.truncate(before);
                self.mene_points = menes;
                Err(Refused::new(self, e))
            }
        }
    }

    fn summary(&self) -> impl Serialize + '_ {
        BoulomaniaSummary(self)
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn scores(&self) -> Vec<u32> {
        self.scores.to_vec()
    }

    fn turn(&self) -> Option<usize> {
        (!self.is_over()).then_some(self.turn as usize)
    }

    fn result(&self) -> Option<crate::game::MatchResult> {
        self.winner.map(|w| crate::game::MatchResult {
            winner: Some(w.into()),
            scores: self.scores.to_vec(),
            twenties: None,
        })
    }
}

/// A Boulomania game's summary (`docs/games/boulomania.md`), written from the state without a
/// tree.
struct BoulomaniaSummary<'a>(&'a Boulomania);

impl BoulomaniaSummary<'_> {
    /// Writes the summary's keys into a map that may carry more (a choice's).
    fn write_keys<M: SerializeMap>(&self, m: &mut M) -> Result<(), M::Error> {
        let g = self.0;
        let over = g.winner.is_some();
        m.serialize_entry("status", if over { "won" } else { "playing" })?;
        m.serialize_entry("winner", &g.winner)?;
        m.serialize_entry("turn", &(!over).then_some(g.turn))?;
        m.serialize_entry("scores", &g.scores)?;
        m.serialize_entry("mene", &g.mene)?;
        m.serialize_entry("phase", if g.jack_due() { "jack" } else { "play" })?;
        m.serialize_entry("jack", &g.jack)?;
        // Squares are numbers: serde writes them as the object's keys ("7").
        m.serialize_entry("balls", &g.field)?;
        m.serialize_entry("in_hand", &g.in_hand)?;
        m.serialize_entry("lost", &g.lost)?;
        m.serialize_entry("holder", &g.holder())?;
        // Each mène as `[side, points]`, or `null` when nobody scored.
        m.serialize_entry("mene_points", &g.mene_points)?;
        m.serialize_entry("starter", &g.starter)?;
        m.serialize_entry(
            "thrower",
            &(!over).then(|| (g.throws[g.turn as usize] as usize) % g.team[g.turn as usize]),
        )?;
        m.serialize_entry("target", &g.rules.target)?;
        m.serialize_entry("balls_per_side", &g.rules.balls)?;
        m.serialize_entry("scoring", &g.scoring())?;
        m.serialize_entry("events", &g.events)?;
        m.serialize_entry("last_mene", &g.last_mene.as_ref().map(LastMene::of))?;
        m.serialize_entry("options", &g.options())
    }
}

impl Serialize for BoulomaniaSummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        self.write_keys(&mut m)?;
        m.end()
    }
}

/// How the last mène ended, as the summary's `last_mene` shows it.
#[derive(Serialize)]
struct LastMene<'a> {
    winner: Option<u8>,
    points: Option<u32>,
    reason: &'static str,
    balls: &'a BTreeMap<u8, u8>,
    jack: Option<u8>,
    scoring: &'a [u8],
}

impl<'a> LastMene<'a> {
    fn of(m: &'a MeneEnd) -> Self {
        LastMene {
            winner: m.winner.map(|w| w.0),
            points: m.winner.map(|w| w.1),
            reason: m.reason,
            balls: &m.field,
            jack: m.jack,
            scoring: &m.scoring,
        }
    }
}

/// What the side to act may do: nothing once the game is over, the jack roll, or pointing,
/// shooting the other side's balls (none before the first ball) and the jack.
struct TurnOptions<'a>(&'a Boulomania);

impl Serialize for TurnOptions<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.0;
        let mut m = s.serialize_map(None)?;
        if g.winner.is_some() {
            return m.end();
        }
        if g.jack_due() {
            m.serialize_entry("jack", &true)?;
            return m.end();
        }
        let first = g.thrown == 0;
        m.serialize_entry("point", &true)?;
        m.serialize_entry("shoot", &Targets(g, first))?;
        m.serialize_entry("shoot_jack", &!first)?;
        m.end()
    }
}

/// The squares of the balls the side to act may shoot: the other side's, none before the
/// mène's first ball (`true`).
struct Targets<'a>(&'a Boulomania, bool);

impl Serialize for Targets<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Targets(g, first) = *self;
        s.collect_seq(
            g.field
                .iter()
                .filter(|(_, &side)| !first && side != g.turn)
                .map(|(&q, _)| q),
        )
    }
}

/// A choice's summary: the summary it leads to, with `choice` saying what it decides.
struct ChoiceSummary<'a> {
    game: &'a Boulomania,
    choice: Choice<'a>,
}

impl Serialize for ChoiceSummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        BoulomaniaSummary(self.game).write_keys(&mut m)?;
        m.serialize_entry("choice", &self.choice)?;
        m.end()
    }
}

/// What a choice decides: where a double goes (`to`, `square`; `null` when the roll had no
/// such choice) and the way taken at each arrow.
#[derive(Serialize)]
struct Choice<'a> {
    to: Option<&'static str>,
    square: Option<u8>,
    via: Ways<'a>,
}

/// The ways taken at arrows, as `{from, to}` each; an empty list for an action without any.
struct Ways<'a>(Option<&'a Via>);

impl Serialize for Ways<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Way {
            from: u8,
            to: u8,
        }
        s.collect_seq(
            self.0
                .into_iter()
                .flatten()
                .map(|(&from, &to)| Way { from, to }),
        )
    }
}
