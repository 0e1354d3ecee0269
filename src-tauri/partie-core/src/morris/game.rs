//! A Morris game as the app and the records see it: the position, the history that repetition
//! needs, the tokens played and how the game ended.

use super::board::POINTS;
use super::notation;
use super::position::{Outcome, Position, Reason, Repetitions, Token};
use super::rules::MorrisRules;
use crate::error::Error;
use crate::game::{check_sides, replay, tally, Computer, Counters, Game, Refused};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// One action of a Morris record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// An atomic token: place, move or remove.
    Token(Token),
    /// A side resigns: written as the result it gives, `"1-0"` (side 1 resigns) or `"0-1"`
    /// (side 0 resigns), so that either player may resign at any moment.
    Resign(u8),
    /// The players agree to a draw (`"1/2-1/2"`); the offer and its acceptance happen outside
    /// the record.
    Draw,
}

impl Action {
    /// Reads an action: a token string or a result (`"1-0"`, `"0-1"`, `"1/2-1/2"`); anything
    /// else is `bad_action`.
    pub fn from_json(v: &Value) -> Result<Action, Error> {
        let s = v.as_str().ok_or_else(|| {
            Error::bad_action(format!("a Morris action is a token string, not {v}"))
                .with_code("morris_token")
        })?;
        match s {
            "1-0" => Ok(Action::Resign(1)),
            "0-1" => Ok(Action::Resign(0)),
            "1/2-1/2" => Ok(Action::Draw),
            _ => Token::parse(s).map(Action::Token).ok_or_else(|| {
                Error::bad_action(format!("{s:?} is not a Morris token (d6, a1-a4, xb4)"))
                    .with_code("morris_token")
            }),
        }
    }

    /// The record form.
    pub fn to_json(self) -> Value {
        match self {
            Action::Token(t) => Value::String(t.to_string()),
            Action::Resign(1) => json!("1-0"),
            Action::Resign(_) => json!("0-1"),
            Action::Draw => json!("1/2-1/2"),
        }
    }
}

/// A game of Nine Men's Morris (or of 3 to 12 pieces).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Morris {
    pos: Position,
    repetitions: Repetitions,
    /// How many times each moving-phase position has come since the last removal, for the
    /// repetition rule at every move. [`Repetitions::count`] looks back through the whole
    /// phase, which made a long phase without a removal (`quiet_moves: 0`) replay in
    /// quadratic time: a pushed record of a million moves would have taken hours.
    seen: HashMap<u64, u8>,
    played: Vec<(u8, Action)>,
    end: Option<Outcome>,
}

impl Morris {
    /// Counts the position just reached by `t` (as [`Repetitions::push`] does: the moving
    /// phase only, a removal starting afresh) and says how many times it has come.
    fn seen_again(&mut self, t: Token) -> u8 {
        if !self.pos.is_moving() {
            return 0;
        }
        if matches!(t, Token::Remove(_)) {
            self.seen.clear();
        }
        let n = self.seen.entry(self.pos.key()).or_insert(0);
        *n = n.saturating_add(1);
        *n
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The options.
    pub fn rules(&self) -> &MorrisRules {
        self.pos.rules()
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.end
    }

    /// The positions of the moving phase so far (for a search that must see repetitions).
    pub fn repetitions(&self) -> &Repetitions {
        &self.repetitions
    }

    /// The tokens played, each with the side that played it.
    pub fn played(&self) -> &[(u8, Action)] {
        &self.played
    }

    /// The legal tokens for the side to act, in byte order; none once the game is over.
    pub fn legal(&self) -> Vec<Token> {
        if self.end.is_some() {
            return Vec::new();
        }
        let mut v = self.pos.tokens().as_slice().to_vec();
        v.sort_by_key(|t| t.to_string());
        v
    }

    /// The turns played, each a placement or move joined with its removals (`a1-a4xb4`).
    pub fn turns(&self) -> Vec<String> {
        let strings: Vec<String> = self
            .played
            .iter()
            .filter_map(|(_, a)| match a {
                Action::Token(t) => Some(t.to_string()),
                _ => None,
            })
            .collect();
        notation::turns(strings.iter().map(String::as_str))
    }

    /// The numbered move list with its result.
    pub fn move_list(&self) -> String {
        notation::move_list(&self.turns(), self.result())
    }

    /// `"1-0"`, `"0-1"` or `"1/2-1/2"` once the game is over.
    pub fn result(&self) -> Option<&'static str> {
        match self.end? {
            Outcome::Won(0, _) => Some("1-0"),
            Outcome::Won(_, _) => Some("0-1"),
            Outcome::Drawn(_) => Some("1/2-1/2"),
        }
    }

    /// Why `token` cannot be played now, in words and as a code for the UI.
    fn refusal(&self, token: Token) -> Error {
        let p = &self.pos;
        let t = p.turn();
        let bit = |q: u8| 1u32 << q;
        let occupied = p.board(0) | p.board(1);
        let (code, detail) = match token {
            Token::Remove(_) if p.pending() == 0 => ("no_removal_due", "no removal is due"),
            Token::Remove(q) if p.board(1 - t) & bit(q) == 0 => {
                ("not_opponent", "there is no opposing piece there")
            }
            Token::Remove(_) => ("in_mill", "that piece is in a mill and others are not"),
            _ if p.pending() > 0 => ("removal_due", "a piece must be removed first"),
            Token::Place(_) if p.in_hand(t) == 0 => {
                ("moving_phase", "no piece left to place: move one")
            }
            Token::Place(_) => ("occupied", "that point is taken"),
            Token::Move(..) if p.in_hand(t) > 0 => {
                ("placing_phase", "pieces are still to be placed")
            }
            Token::Move(a, _) if p.board(t) & bit(a) == 0 => {
                ("not_yours", "there is no piece of yours there")
            }
            Token::Move(_, b) if occupied & bit(b) != 0 => ("occupied", "that point is taken"),
            Token::Move(..) => (
                "not_adjacent",
                "a piece moves along a line to the next point",
            ),
        };
        Error::illegal(format!("{token}: {detail}")).with_code(code)
    }

    /// The names of the points of a mask, in board order.
    fn points(mask: u32) -> impl Iterator<Item = &'static str> + Clone {
        (0..24)
            .filter(move |&i| mask & (1 << i) != 0)
            .map(|i| POINTS[i])
    }
}

impl Game for Morris {
    type Action = Action;
    const NAME: &'static str = "morris";
    const TITLE: [&'static str; 2] = ["Nine Men’s Morris", "Jeu du moulin"];
    const COMPUTER_LEVELS: u8 = 5;

    fn info() -> Value {
        super::info()
    }

    fn counters(
        rules: &Map<String, Value>,
        sides: &[Vec<String>],
        actions: &[Value],
        computer: &Computer,
    ) -> Result<Vec<Vec<Counters>>, Error> {
        let state: Morris = replay(rules, sides, actions)?;
        let Some(end) = Game::result(&state) else {
            return Ok(sides
                .iter()
                .map(|s| vec![Counters::new(); s.len()])
                .collect());
        };
        // A turn is a placement or a move; removals belong to the turn that closed the mill,
        // and a resignation or an agreed draw ("1-0", "1/2-1/2") is no turn.
        let turns = actions
            .iter()
            .filter(|a| {
                matches!(
                    a.as_str().and_then(Token::parse),
                    Some(Token::Place(_) | Token::Move(..))
                )
            })
            .count() as u64;
        Ok(sides
            .iter()
            .enumerate()
            .map(|(side, players)| {
                let result = match end.winner {
                    None => "drawn",
                    Some(w) if w == side => "won",
                    Some(_) => "lost",
                };
                // Results against people and against each computer level are counted apart
                // ("vs_people_won", "vs_level_3_drawn").
                let opponent = match computer.get(&(1 - side)) {
                    Some(level) => format!("vs_level_{level}_{result}"),
                    None => format!("vs_people_{result}"),
                };
                let mut c = tally(&[
                    ("removed", u64::from(end.scores[side])),
                    ("turns", turns.div_ceil(2)),
                ]);
                c.insert(opponent, 1.into());
                vec![c; players.len()]
            })
            .collect())
    }

    fn think(
        &self,
        level: u8,
        seed: u64,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> Result<Value, Error> {
        let level = super::search::Level::new(level).ok_or_else(|| {
            Error::bad_setup(format!("no computer level {level}")).with_code("bad_computer")
        })?;
        let token = level.choose(self.position(), self.repetitions(), seed, stop.clone());
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(Error::illegal("the computer was stopped").with_code("stopped"));
        }
        token
            .map(|t| Value::String(t.to_string()))
            .ok_or_else(|| Error::illegal("there is no move to play").with_code("game_over"))
    }

    fn accepts_draw(&self, side: usize) -> bool {
        // When it is not better off than a little, by its own evaluation.
        let pos = self.position();
        let score = super::search::evaluate(pos);
        let for_side = if pos.turn() as usize == side {
            score
        } else {
            -score
        };
        for_side <= 30
    }

    fn setup(rules: &Map<String, Value>, sides: &[Vec<String>]) -> Result<Self, Error> {
        if sides.len() != 2 {
            return Err(
                Error::bad_setup("Morris is played by exactly 2 sides").with_code("two_sides")
            );
        }
        check_sides(sides)?;
        let rules = MorrisRules::from_map(rules)?;
        Ok(Morris {
            pos: Position::start(rules),
            repetitions: Repetitions::default(),
            seen: HashMap::new(),
            played: Vec::new(),
            end: None,
        })
    }

    fn parse_action(&self, action: &Value) -> Result<Action, Error> {
        Action::from_json(action)
    }

    fn play(mut self, action: &Action) -> Result<Self, Refused<Self>> {
        let side = self.pos.turn();
        match *action {
            Action::Resign(loser) => self.end = Some(Outcome::Won(1 - loser, Reason::Resigned)),
            Action::Draw => self.end = Some(Outcome::Drawn(Reason::Agreed)),
            Action::Token(t) => {
                if !self.pos.is_legal(t) {
                    let e = self.refusal(t);
                    return Err(Refused::new(self, e));
                }
                self.pos = self.pos.after(t);
                self.repetitions.push(t, &self.pos);
                let limit = self.pos.rules().repetition;
                self.end = if limit > 0 && self.seen_again(t) >= limit {
                    Some(Outcome::Drawn(Reason::Repetition))
                } else {
                    self.pos.outcome()
                };
            }
        }
        self.played.push((side, *action));
        Ok(self)
    }

    fn summary(&self) -> impl Serialize + '_ {
        MorrisSummary {
            game: self,
            legal: self.legal(),
        }
    }

    fn is_over(&self) -> bool {
        self.end.is_some()
    }

    fn scores(&self) -> Vec<u32> {
        vec![self.pos.removed(0).into(), self.pos.removed(1).into()]
    }

    fn turn(&self) -> Option<usize> {
        (!self.is_over()).then(|| self.pos.turn() as usize)
    }

    fn result(&self) -> Option<crate::game::MatchResult> {
        let winner = match self.end? {
            Outcome::Won(w, _) => Some(w as usize),
            Outcome::Drawn(_) => None,
        };
        let p = &self.pos;
        Some(crate::game::MatchResult {
            winner,
            scores: vec![p.removed(0).into(), p.removed(1).into()],
            twenties: None,
        })
    }
}

/// A Morris game's summary (`docs/games/morris.md`), written from the state without a tree.
/// The legal tokens are listed once here: three keys show them.
struct MorrisSummary<'a> {
    game: &'a Morris,
    legal: Vec<Token>,
}

impl Serialize for MorrisSummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let g = self.game;
        let p = &g.pos;
        let (status, winner, reason) = match g.end {
            None => ("playing", None, None),
            Some(Outcome::Won(w, r)) => ("won", Some(w), Some(r.as_str())),
            Some(Outcome::Drawn(r)) => ("drawn", None, Some(r.as_str())),
        };
        let over = g.end.is_some();
        let geometry = super::board::Geometry::get(p.rules().diagonals);
        let turns = g.turns();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("status", status)?;
        m.serialize_entry("winner", &winner)?;
        m.serialize_entry("turn", &(!over).then_some(p.turn()))?;
        m.serialize_entry("scores", &[p.removed(0), p.removed(1)])?;
        m.serialize_entry("phase", if p.is_moving() { "moving" } else { "placing" })?;
        m.serialize_entry("pending_removal", &(!over && p.pending() > 0))?;
        m.serialize_entry("in_hand", &[p.in_hand(0), p.in_hand(1)])?;
        m.serialize_entry("on_board", &[p.on_board(0), p.on_board(1)])?;
        m.serialize_entry("board", &Pieces(p))?;
        m.serialize_entry("legal", &Texts(&self.legal))?;
        m.serialize_entry("reason", &reason)?;
        m.serialize_entry("removals_due", &if over { 0 } else { p.pending() })?;
        m.serialize_entry("flying", &[p.flies(0), p.flies(1)])?;
        m.serialize_entry(
            "mills",
            &[
                Names(Morris::points(geometry.in_mills(p.board(0)))),
                Names(Morris::points(geometry.in_mills(p.board(1)))),
            ],
        )?;
        // Once the game is over there is no legal token, so no target either.
        m.serialize_entry("targets", &Targets(&self.legal))?;
        m.serialize_entry(
            "last",
            &g.played.last().map(|&(side, token)| Last { side, token }),
        )?;
        m.serialize_entry("moves", &Moves(&self.legal))?;
        let last_move = match g.played.last() {
            Some((_, Action::Token(t))) => Some(Parts::of(t)),
            _ => None,
        };
        m.serialize_entry("last_move", &last_move)?;
        m.serialize_entry("last_turn", &LastTurn::of(&g.played))?;
        m.serialize_entry("move_list", &notation::move_list(&turns, g.result()))?;
        m.serialize_entry("turns", &turns)?;
        m.serialize_entry("result", &g.result())?;
        m.serialize_entry("quiet", &p.quiet())?;
        m.serialize_entry("rules", p.rules())?;
        m.end()
    }
}

/// An action as its record text (`"a1-a4"`, `"1-0"`), as [`Action::to_json`] writes it.
impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Action::Token(t) => s.collect_str(t),
            Action::Resign(1) => s.serialize_str("1-0"),
            Action::Resign(_) => s.serialize_str("0-1"),
            Action::Draw => s.serialize_str("1/2-1/2"),
        }
    }
}

/// The last action played and the side that played it.
#[derive(Serialize)]
struct Last {
    side: u8,
    token: Action,
}

/// The last turn (a placement or a move, and the removals its mills gave), for the screen to
/// show whole: the computer's turn comes as one token after another, and the move it closed a
/// mill with would be gone from the board once its removal came.
#[derive(Serialize)]
struct LastTurn {
    side: u8,
    from: Option<&'static str>,
    to: Option<&'static str>,
    removes: Vec<&'static str>,
}

impl LastTurn {
    fn of(played: &[(u8, Action)]) -> Option<LastTurn> {
        let &(side, Action::Token(_)) = played.last()? else {
            return None;
        };
        let mut turn = LastTurn {
            side,
            from: None,
            to: None,
            removes: Vec::new(),
        };
        for (by, action) in played.iter().rev() {
            let Action::Token(t) = action else { break };
            if *by != side {
                break;
            }
            let parts = Parts::of(t);
            match parts.removes {
                Some(q) => turn.removes.insert(0, q),
                None => {
                    (turn.from, turn.to) = (parts.from, parts.to);
                    break;
                }
            }
        }
        Some(turn)
    }
}

/// The board: each occupied point's name with the side on it.
struct Pieces<'a>(&'a Position);

impl Serialize for Pieces<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        s.collect_map(
            (0..2u8).flat_map(|side| Morris::points(p.board(side)).map(move |name| (name, side))),
        )
    }
}

/// Tokens as their text.
struct Texts<'a>(&'a [Token]);

impl Serialize for Texts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|&t| Action::Token(t)))
    }
}

/// A token as points: the screen looks a tap up here and sends the token it finds, and never
/// reads a token's text.
#[derive(Serialize)]
struct Parts {
    token: Action,
    from: Option<&'static str>,
    to: Option<&'static str>,
    removes: Option<&'static str>,
}

impl Parts {
    fn of(t: &Token) -> Parts {
        let name = |q: &u8| POINTS[*q as usize];
        let (from, to, removes) = match t {
            Token::Place(q) => (None, Some(name(q)), None),
            Token::Move(a, b) => (Some(name(a)), Some(name(b)), None),
            Token::Remove(q) => (None, None, Some(name(q))),
        };
        Parts {
            token: Action::Token(*t),
            from,
            to,
            removes,
        }
    }
}

/// Each legal token as points.
struct Moves<'a>(&'a [Token]);

impl Serialize for Moves<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(Parts::of))
    }
}

/// What the board screen needs beyond the summary: the targets for each tap (`place`,
/// `remove`, and `move` from each point to the points it may go to).
struct Targets<'a>(&'a [Token]);

impl Serialize for Targets<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let tokens = self.0;
        let names = |f: fn(&Token) -> Option<u8>| {
            Names(tokens.iter().filter_map(f).map(|q| POINTS[q as usize]))
        };
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry(
            "place",
            &names(|t| match *t {
                Token::Place(q) => Some(q),
                _ => None,
            }),
        )?;
        m.serialize_entry("move", &MoveTargets(tokens))?;
        m.serialize_entry(
            "remove",
            &names(|t| match *t {
                Token::Remove(q) => Some(q),
                _ => None,
            }),
        )?;
        m.end()
    }
}

/// Point names from an iterator, written as a list.
struct Names<I>(I);

impl<I: Iterator<Item = &'static str> + Clone> Serialize for Names<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}

/// The moves' targets by starting point. The tokens come sorted by their text (`a1-a4`), so
/// each point's moves are next to each other: one key each, without a map to gather them.
struct MoveTargets<'a>(&'a [Token]);

impl Serialize for MoveTargets<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let from = |t: &Token| match *t {
            Token::Move(a, _) => Some(a),
            _ => None,
        };
        s.collect_map(
            self.0
                .chunk_by(|x, y| from(x) == from(y))
                .filter_map(|run| {
                    let to = |t: &Token| match *t {
                        Token::Move(_, b) => Some(POINTS[b as usize]),
                        _ => None,
                    };
                    from(&run[0]).map(|a| (POINTS[a as usize], Names(run.iter().filter_map(to))))
                }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn a_resignation_or_an_agreed_draw_is_no_turn() {
        let sides = [vec!["A".to_string()], vec!["B".to_string()]];
        let turns = |actions: &[&str]| {
            let actions: Vec<Value> = actions.iter().map(|a| json!(a)).collect();
            let counters =
                Morris::counters(&Map::new(), &sides, &actions, &Computer::new()).unwrap();
            (
                counters[0][0]["turns"].clone(),
                counters[1][0]["turns"].clone(),
            )
        };
        assert_eq!(turns(&["d6", "f4", "1-0"]), (json!(1), json!(1)));
        assert_eq!(turns(&["d6", "1/2-1/2"]), (json!(1), json!(1)));
        // A removal belongs to the turn that closed the mill.
        assert_eq!(
            turns(&["a1", "d6", "a4", "f4", "a7", "xd6", "0-1"]),
            (json!(3), json!(3))
        );
    }

    /// The counts the repetition rule reads agree with [`Repetitions::count`] (the search's
    /// look back) at every move of random games, removals, flying and the end by repetition
    /// included.
    #[test]
    fn the_counted_positions_agree_with_the_look_back() {
        let sides = [vec!["A".to_string()], vec!["B".to_string()]];
        let mut ends = 0;
        for (seed, rules) in [
            json!({"quiet_moves": 0, "repetition": 5}),
            json!({"quiet_moves": 0, "repetition": 2, "pieces": 3}),
            json!({"repetition": 3, "pieces": 4, "diagonals": true}),
        ]
        .iter()
        .cycle()
        .take(30)
        .enumerate()
        {
            let rules: Map<String, Value> = serde_json::from_value(rules.clone()).unwrap();
            let mut g = Morris::setup(&rules, &sides).unwrap();
            let mut rng = Rng::new(seed as u64);
            // Each side's last move, stepped back half the time, so that positions come again.
            let mut last = [None, None];
            for _ in 0..600 {
                let legal = g.legal();
                if legal.is_empty() {
                    break;
                }
                let side = g.pos.turn() as usize;
                let back = match last[side] {
                    Some(Token::Move(a, b)) if rng.below(2) == 0 => Some(Token::Move(b, a)),
                    _ => None,
                };
                let t = back
                    .filter(|t| legal.contains(t))
                    .unwrap_or_else(|| legal[rng.below(legal.len() as u64) as usize]);
                last[side] = Some(t);
                g = g.play(&Action::Token(t)).unwrap();
                let counted = g.seen.get(&g.pos.key()).copied().unwrap_or(0) as usize;
                let looked = if g.pos.is_moving() {
                    g.repetitions.count(g.pos.key())
                } else {
                    0
                };
                assert_eq!(counted, looked, "seed {seed} after {t}");
                let limit = g.rules().repetition as usize;
                let repeated = g.outcome() == Some(Outcome::Drawn(Reason::Repetition));
                assert_eq!(
                    repeated,
                    limit > 0 && looked >= limit,
                    "seed {seed} after {t}"
                );
                ends += usize::from(repeated);
            }
        }
        assert!(ends > 0, "some game ends by repetition");
    }
}
