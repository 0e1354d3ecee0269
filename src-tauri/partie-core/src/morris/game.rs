//! A Morris game as the app and the records see it: the position, the history that repetition
//! needs, the tokens played and how the game ended.

use super::board::POINTS;
use super::notation;
use super::position::{Outcome, Position, Reason, Repetitions, Token};
use super::rules::MorrisRules;
use crate::error::Error;
use crate::game::{check_sides, replay, tally, Computer, Counters, Game, Refused};
use serde_json::{json, Map, Value};

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
    played: Vec<(u8, Action)>,
    end: Option<Outcome>,
}

impl Morris {
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

    fn points(mask: u32) -> Vec<&'static str> {
        (0..24)
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| POINTS[i])
            .collect()
    }

    /// What the board screen needs beyond the summary: the targets for each tap.
    fn targets(&self) -> Value {
        let mut place = Vec::new();
        let mut remove = Vec::new();
        let mut moves = Map::new();
        for t in self.legal() {
            match t {
                Token::Place(p) => place.push(POINTS[p as usize]),
                Token::Remove(p) => remove.push(POINTS[p as usize]),
                Token::Move(a, b) => {
                    if let Value::Array(v) =
                        moves.entry(POINTS[a as usize]).or_insert_with(|| json!([]))
                    {
                        v.push(json!(POINTS[b as usize]));
                    }
                }
            }
        }
        json!({"place": place, "move": moves, "remove": remove})
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
        // A turn is a placement or a move; removals belong to the turn that closed the mill.
        let turns = actions
            .iter()
            .filter(|a| a.as_str().is_some_and(|t| !t.starts_with('x')))
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
                self.end = if self
                    .repetitions
                    .reached(self.pos.rules().repetition, &self.pos)
                {
                    Some(Outcome::Drawn(Reason::Repetition))
                } else {
                    self.pos.outcome()
                };
            }
        }
        self.played.push((side, *action));
        Ok(self)
    }

    fn summary(&self) -> impl serde::Serialize + '_ {
        let p = &self.pos;
        let (status, winner, reason) = match self.end {
            None => ("playing", None, None),
            Some(Outcome::Won(w, r)) => ("won", Some(w), Some(r.as_str())),
            Some(Outcome::Drawn(r)) => ("drawn", None, Some(r.as_str())),
        };
        let over = self.end.is_some();
        let mut board = Map::new();
        for side in 0..2u8 {
            for name in Self::points(p.board(side)) {
                board.insert(name.to_string(), json!(side));
            }
        }
        let legal: Vec<String> = self.legal().iter().map(Token::to_string).collect();
        let g = super::board::Geometry::get(p.rules().diagonals);
        let last = self
            .played
            .last()
            .map(|(s, a)| json!({"side": s, "token": a.to_json()}));
        // Each legal token, and the last token played, as points: the screen looks a tap up
        // here and sends the token it finds, and never reads a token's text.
        let parts = |t: &Token| -> Value {
            let name = |q: &u8| POINTS[*q as usize];
            let (from, to, removes) = match t {
                Token::Place(q) => (None, Some(name(q)), None),
                Token::Move(a, b) => (Some(name(a)), Some(name(b)), None),
                Token::Remove(q) => (None, None, Some(name(q))),
            };
            json!({"token": t.to_string(), "from": from, "to": to, "removes": removes})
        };
        let moves: Vec<Value> = self.legal().iter().map(parts).collect();
        let last_move = match self.played.last() {
            Some((_, Action::Token(t))) => parts(t),
            _ => Value::Null,
        };
        json!({
            "status": status,
            "winner": winner,
            "turn": (!over).then_some(p.turn()),
            "scores": [p.removed(0), p.removed(1)],
            "phase": if p.is_moving() { "moving" } else { "placing" },
            "pending_removal": !over && p.pending() > 0,
            "in_hand": [p.in_hand(0), p.in_hand(1)],
            "on_board": [p.on_board(0), p.on_board(1)],
            "board": board,
            "legal": legal,
            "reason": reason,
            "removals_due": if over { 0 } else { p.pending() },
            "flying": [p.flies(0), p.flies(1)],
            "mills": [Self::points(g.in_mills(p.board(0))), Self::points(g.in_mills(p.board(1)))],
            "targets": if over { json!({"place": [], "move": {}, "remove": []}) } else { self.targets() },
            "last": last,
            "moves": moves,
            "last_move": last_move,
            "turns": self.turns(),
            "move_list": self.move_list(),
            "result": self.result(),
            "quiet": p.quiet(),
            "rules": p.rules().to_map(),
        })
    }

    fn is_over(&self) -> bool {
        self.end.is_some()
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
