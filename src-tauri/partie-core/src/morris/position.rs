//! A position as bitboards, its atomic tokens, the move generator and the derived outcome.
//!
//! [`Position`] is `Copy` and a few dozen bytes: the search and perft copy it instead of
//! undoing moves, and generate tokens into a fixed [`Tokens`] array, so nothing allocates per
//! move. Repetition needs the history of positions and is judged by the caller
//! ([`super::Morris`], the search, perft) from [`Position::key`].

use super::board::{point, Geometry, FULL, POINTS};
use super::rules::{DoubleMill, MorrisRules, SameMill};
use std::fmt;

/// One atomic step of the game, as Morris engines write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Token {
    /// Place a piece from hand on an empty point (`"d6"`).
    Place(u8),
    /// Move (or fly) the piece on the first point to the second (`"a1-a4"`).
    Move(u8, u8),
    /// Remove the opposing piece on this point (`"xb4"`).
    Remove(u8),
}

impl Token {
    /// Reads a token; `None` when its shape or a point name is wrong.
    pub fn parse(s: &str) -> Option<Token> {
        if let Some(p) = s.strip_prefix('x') {
            return point(p).map(Token::Remove);
        }
        if let Some((a, b)) = s.split_once('-') {
            return Some(Token::Move(point(a)?, point(b)?));
        }
        point(s).map(Token::Place)
    }

    /// The point a piece arrives on (placing or moving), if any.
    pub fn to(self) -> Option<u8> {
        match self {
            Token::Place(p) | Token::Move(_, p) => Some(p),
            Token::Remove(_) => None,
        }
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Token::Place(p) => f.write_str(POINTS[p as usize]),
            Token::Move(a, b) => write!(f, "{}-{}", POINTS[a as usize], POINTS[b as usize]),
            Token::Remove(p) => write!(f, "x{}", POINTS[p as usize]),
        }
    }
}

/// The most tokens a position can offer: 3 flying pieces × 21 empty points is the worst case.
const MAX_TOKENS: usize = 64;

/// The legal tokens of a position, in a fixed array.
#[derive(Clone, Copy)]
pub struct Tokens {
    items: [Token; MAX_TOKENS],
    len: usize,
}

impl Tokens {
    fn new() -> Self {
        // A move sets every byte of a token (a placement leaves one unset), so the array is
        // filled as one block rather than a token at a time: a list is made at every node.
        Tokens {
            items: [Token::Move(0, 0); MAX_TOKENS],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, t: Token) {
        self.items[self.len] = t;
        self.len += 1;
    }

    /// The tokens as a slice.
    pub fn as_slice(&self) -> &[Token] {
        &self.items[..self.len]
    }

    /// The tokens as a mutable slice (for ordering them in search).
    pub fn as_mut_slice(&mut self) -> &mut [Token] {
        &mut self.items[..self.len]
    }

    /// How many tokens.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The loser has fewer than 3 pieces.
    Pieces,
    /// The loser must move and cannot.
    Blocked,
    /// The same position came back `repetition` times.
    Repetition,
    /// `quiet_moves` moves without a removal.
    QuietMoves,
    /// The last placement filled the board.
    BoardFull,
    /// A player resigned.
    Resigned,
    /// Both players agreed to a draw.
    Agreed,
}

impl Reason {
    /// The summary's name for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Pieces => "pieces",
            Reason::Blocked => "blocked",
            Reason::Repetition => "repetition",
            Reason::QuietMoves => "quiet_moves",
            Reason::BoardFull => "board_full",
            Reason::Resigned => "resigned",
            Reason::Agreed => "agreed",
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side won.
    Won(u8, Reason),
    /// Nobody won.
    Drawn(Reason),
}

/// What a position is made of, beyond the rules: the pieces removed follow from them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Parts {
    /// Each side's points, as masks.
    pub board: [u32; 2],
    /// Each side's pieces still to place.
    pub in_hand: [u8; 2],
    /// The side to act.
    pub turn: u8,
    /// The removals it owes.
    pub pending: u8,
    /// Move tokens since the moving phase began or the last removal.
    pub quiet: u16,
    /// For each side, the lines (bits over the board's lines) that have given it a removal:
    /// what `same_mill` `"once"` forbids closing again.
    pub used: [u32; 2],
}

/// A position: the board, pieces in hand, the side to act and the removals it owes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    rules: MorrisRules,
    board: [u32; 2],
    in_hand: [u8; 2],
    removed: [u8; 2],
    turn: u8,
    pending: u8,
    used: [u32; 2],
    quiet: u16,
}

impl Position {
    /// The start: an empty board, every piece in hand, side 0 to place.
    pub fn start(rules: MorrisRules) -> Self {
        Position {
            rules,
            board: [0, 0],
            in_hand: [rules.pieces; 2],
            removed: [0, 0],
            turn: 0,
            pending: 0,
            used: [0, 0],
            quiet: 0,
        }
    }

    /// A moving-phase position with these pieces on the board (`boards[side]` as point masks),
    /// every other piece removed, `turn` to move and nothing owed; `None` when the masks
    /// overlap, leave the board or hold more pieces than the rules give.
    pub fn moving(rules: MorrisRules, boards: [u32; 2], turn: u8) -> Option<Position> {
        let fits = |b: u32| b & !FULL == 0 && b.count_ones() <= rules.pieces as u32;
        if boards[0] & boards[1] != 0 || !fits(boards[0]) || !fits(boards[1]) || turn > 1 {
            return None;
        }
        let taken = |b: u32| rules.pieces - b.count_ones() as u8;
        Some(Position {
            rules,
            board: boards,
            in_hand: [0, 0],
            removed: [taken(boards[1]), taken(boards[0])],
            turn,
            pending: 0,
            used: [0, 0],
            quiet: 0,
        })
    }

    /// A position from its parts (as a FEN writes them, [`super::fen`]), with the pieces each
    /// side has removed counted from what is missing; why not when the parts could not come
    /// from a game under `rules`: overlapping or unknown points, more pieces than the rules
    /// give, pieces in hand that do not fit the side to act (the first side places first),
    /// removals owed without a mill or with nothing to remove, quiet moves while placing, or
    /// lines that are not on the board.
    pub fn from_parts(rules: MorrisRules, parts: Parts) -> Result<Position, String> {
        let Parts {
            board,
            in_hand,
            turn,
            pending,
            quiet,
            used,
        } = parts;
        let g = Geometry::get(rules.diagonals);
        if board[0] & board[1] != 0 || (board[0] | board[1]) & !FULL != 0 {
            return Err("the sides' points overlap or leave the board".into());
        }
        if turn > 1 {
            return Err("the side to act is the first (0) or the second (1)".into());
        }
        let on_board = |s: usize| board[s].count_ones() as u8;
        if (0..2).any(|s| on_board(s) as u16 + in_hand[s] as u16 > rules.pieces as u16) {
            return Err(format!(
                "a side has more than the {} pieces the rules give",
                rules.pieces
            ));
        }
        // The first side places first: while pieces are in hand, the second has one more
        // after the first has placed, until the side that placed has taken its pieces.
        let ahead = u8::from((turn == 1) != (pending > 0));
        if in_hand != [0, 0] && in_hand[1].checked_sub(in_hand[0]) != Some(ahead) {
            return Err("the pieces in hand do not fit the side to act".into());
        }
        let most = match rules.double_mill {
            DoubleMill::One => 1,
            DoubleMill::Each => 3,
        };
        let theirs = board[1 - turn as usize];
        let mills = g.in_mills(board[turn as usize]);
        if pending > most || (pending > 0 && (theirs == 0 || mills == 0)) {
            return Err(format!(
                "{pending} removals owed: at most {most}, after a mill, with a piece to remove"
            ));
        }
        if quiet > 0 && in_hand != [0, 0] {
            return Err("quiet moves are counted in the moving phase only".into());
        }
        if used.iter().any(|&u| u >> g.lines.len() != 0) {
            return Err("a mill used is not a line of this board".into());
        }
        let removed = |s: usize| rules.pieces - on_board(1 - s) - in_hand[1 - s];
        Ok(Position {
            rules,
            board,
            in_hand,
            removed: [removed(0), removed(1)],
            turn,
            pending,
            used,
            quiet,
        })
    }

    /// The parts [`Position::from_parts`] takes.
    pub fn parts(&self) -> Parts {
        Parts {
            board: self.board,
            in_hand: self.in_hand,
            turn: self.turn,
            pending: self.pending,
            quiet: self.quiet,
            used: self.used,
        }
    }

    /// The options.
    pub fn rules(&self) -> &MorrisRules {
        &self.rules
    }

    /// The lines, neighbours and symmetries of this position's board.
    pub fn geometry(&self) -> &'static Geometry {
        Geometry::get(self.rules.diagonals)
    }

    /// The side to act.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The points of a side.
    pub fn board(&self, side: u8) -> u32 {
        self.board[side as usize]
    }

    /// Pieces a side still has to place.
    pub fn in_hand(&self, side: u8) -> u8 {
        self.in_hand[side as usize]
    }

    /// Pieces a side has removed from the other.
    pub fn removed(&self, side: u8) -> u8 {
        self.removed[side as usize]
    }

    /// Pieces a side has on the board.
    pub fn on_board(&self, side: u8) -> u8 {
        self.board[side as usize].count_ones() as u8
    }

    /// Removals the side to act still owes.
    pub fn pending(&self) -> u8 {
        self.pending
    }

    /// Move tokens since the moving phase began or the last removal.
    pub fn quiet(&self) -> u16 {
        self.quiet
    }

    /// Whether neither side has pieces in hand.
    pub fn is_moving(&self) -> bool {
        self.in_hand == [0, 0]
    }

    /// Whether the side may fly (flying on and exactly three pieces left).
    pub fn flies(&self, side: u8) -> bool {
        self.rules.flying && self.is_moving() && self.on_board(side) == 3
    }

    /// The position for repetition: board, side to act and removals owed, packed exactly.
    #[inline]
    pub fn key(&self) -> u64 {
        self.board[0] as u64
            | (self.board[1] as u64) << 24
            | (self.turn as u64) << 48
            | (self.pending as u64) << 49
    }

    /// `key` plus pieces in hand: what search may treat as the same position.
    #[inline]
    pub fn search_key(&self) -> u64 {
        self.key() | (self.in_hand[0] as u64) << 52 | (self.in_hand[1] as u64) << 56
    }

    /// The smallest search key over the 16 symmetries, so that mirrored positions share an
    /// entry, with the symmetry that gives it.
    pub fn canonical(&self) -> (u64, usize) {
        let g = self.geometry();
        let rest = self.search_key() & !((1u64 << 48) - 1);
        (0..g.symmetry_count())
            .map(|s| {
                let k =
                    g.map(s, self.board[0]) as u64 | (g.map(s, self.board[1]) as u64) << 24 | rest;
                (k, s)
            })
            .min()
            .unwrap_or((rest, 0))
    }

    /// A token mapped through symmetry `s` (`back`: through its inverse).
    pub fn map_token(&self, t: Token, s: usize, back: bool) -> Token {
        let g = self.geometry();
        let m = |p: u8| {
            if back {
                g.unmap_point(s, p)
            } else {
                g.map_point(s, p)
            }
        };
        match t {
            Token::Place(p) => Token::Place(m(p)),
            Token::Move(a, b) => Token::Move(m(a), m(b)),
            Token::Remove(p) => Token::Remove(m(p)),
        }
    }

    /// The geometry of this position's board.
    pub fn lines(&self) -> &'static [u32] {
        &self.geometry().lines
    }

    /// The neighbours of a point.
    pub fn adjacent(&self, p: u8) -> u32 {
        self.geometry().adjacent[p as usize]
    }

    /// Opposing points that may be removed now: those outside mills, or all when every one is
    /// in a mill.
    pub fn removable(&self) -> u32 {
        let theirs = self.board[1 - self.turn as usize];
        let free = theirs & !self.geometry().in_mills(theirs);
        if free != 0 {
            free
        } else {
            theirs
        }
    }

    /// Every legal token (without regard to the game having ended: see [`Position::outcome`]).
    pub fn tokens(&self) -> Tokens {
        let mut out = Tokens::new();
        let t = self.turn as usize;
        let empty = !(self.board[0] | self.board[1]) & FULL;
        if self.pending > 0 {
            each_bit(self.removable(), |p| out.push(Token::Remove(p)));
        } else if self.in_hand[t] > 0 {
            each_bit(empty, |p| out.push(Token::Place(p)));
        } else if self.flies(self.turn) {
            each_bit(self.board[t], |a| {
                each_bit(empty, |b| out.push(Token::Move(a, b)))
            });
        } else {
            let g = self.geometry();
            each_bit(self.board[t], |a| {
                each_bit(g.adjacent[a as usize] & empty, |b| {
                    out.push(Token::Move(a, b))
                })
            });
        }
        out
    }

    /// Whether the side to act has a move in the moving phase (cheaper than listing them).
    fn can_move(&self) -> bool {
        let t = self.turn as usize;
        let empty = !(self.board[0] | self.board[1]) & FULL;
        if self.flies(self.turn) {
            return empty != 0;
        }
        let g = self.geometry();
        let mut own = self.board[t];
        while own != 0 {
            let a = own.trailing_zeros();
            if g.adjacent[a as usize] & empty != 0 {
                return true;
            }
            own &= own - 1;
        }
        false
    }

    /// Whether `token` is legal here.
    pub fn is_legal(&self, token: Token) -> bool {
        let t = self.turn as usize;
        let empty = !(self.board[0] | self.board[1]) & FULL;
        let bit = |p: u8| 1u32 << p;
        match token {
            Token::Remove(p) => self.pending > 0 && self.removable() & bit(p) != 0,
            _ if self.pending > 0 => false,
            Token::Place(p) => self.in_hand[t] > 0 && empty & bit(p) != 0,
            Token::Move(a, b) => {
                self.in_hand[t] == 0
                    && self.board[t] & bit(a) != 0
                    && empty & bit(b) != 0
                    && (self.flies(self.turn) || self.geometry().adjacent[a as usize] & bit(b) != 0)
            }
        }
    }

    /// The mills a piece arriving on `p` closes for the side to act, as a mask of lines
    /// (indices into the geometry's lines) that give a removal.
    fn closed_lines(&self, p: u8) -> u32 {
        self.lines_closed(self.board[self.turn as usize], p)
    }

    /// The mills the side to act would have through `p` with its pieces on `own` (the lines'
    /// indices as a mask), less those `same_mill: once` has used up.
    fn lines_closed(&self, own: u32, p: u8) -> u32 {
        let mut lines = self.geometry().mills_through(own, p);
        if self.rules.same_mill == SameMill::Once {
            lines &= !self.used[self.turn as usize];
        }
        lines
    }

    /// Whether a legal placement or move closes a mill, so that a removal follows (as
    /// `after(token).pending() > 0`, without making the position): the search orders every
    /// node's tokens by it.
    pub fn closes_mill(&self, token: Token) -> bool {
        let own = self.board[self.turn as usize];
        let (own, p) = match token {
            Token::Remove(_) => return false,
            Token::Place(p) => (own | 1 << p, p),
            Token::Move(a, p) => (own & !(1 << a) | 1 << p, p),
        };
        self.board[1 - self.turn as usize] != 0 && self.lines_closed(own, p) != 0
    }

    /// The position after a legal token. Playing an illegal one is a logic error: check with
    /// [`Position::is_legal`] or take it from [`Position::tokens`].
    #[inline]
    pub fn after(mut self, token: Token) -> Position {
        let t = self.turn as usize;
        let o = 1 - t;
        match token {
            Token::Remove(p) => {
                self.board[o] &= !(1 << p);
                self.removed[t] += 1;
                self.pending -= 1;
                self.quiet = 0;
                if self.board[o] == 0 {
                    self.pending = 0;
                }
                if self.pending == 0 {
                    self.turn = o as u8;
                }
            }
            Token::Place(p) | Token::Move(_, p) => {
                if let Token::Move(a, _) = token {
                    self.board[t] &= !(1 << a);
                    // Saturates: a FEN may start the count anywhere (the engine protocol), and
                    // with no quiet-move rule nothing bounds it.
                    self.quiet = self.quiet.saturating_add(1);
                } else {
                    self.in_hand[t] -= 1;
                }
                self.board[t] |= 1 << p;
                let lines = self.closed_lines(p);
                let due = match (lines.count_ones(), self.rules.double_mill) {
                    (0, _) => 0,
                    (_, DoubleMill::One) => 1,
                    (n, DoubleMill::Each) => n as u8,
                };
                if due > 0 && self.board[o] != 0 {
                    self.pending = due;
                    // Kept only where it matters, so that positions that play the same are
                    // equal (and write the same FEN).
                    if self.rules.same_mill == SameMill::Once {
                        self.used[t] |= lines;
                    }
                } else {
                    self.turn = o as u8;
                }
            }
        }
        self
    }

    /// How the game stands here, judged without the history (repetition is the caller's):
    /// too few pieces, then the draws a move reaches, then a blocked side.
    pub fn outcome(&self) -> Option<Outcome> {
        for s in 0..2u8 {
            if self.on_board(s) + self.in_hand(s) < 3 {
                return Some(Outcome::Won(1 - s, Reason::Pieces));
            }
        }
        if self.pending > 0 {
            return None;
        }
        if self.rules.quiet_moves > 0 && self.quiet >= self.rules.quiet_moves {
            return Some(Outcome::Drawn(Reason::QuietMoves));
        }
        if self.board[0] | self.board[1] == FULL {
            return Some(Outcome::Drawn(Reason::BoardFull));
        }
        if self.is_moving() && !self.can_move() {
            return Some(Outcome::Won(1 - self.turn, Reason::Blocked));
        }
        None
    }
}

/// Calls `f` with the index of every set bit, lowest first.
#[inline]
pub(crate) fn each_bit(mut m: u32, mut f: impl FnMut(u8)) {
    while m != 0 {
        f(m.trailing_zeros() as u8);
        m &= m - 1;
    }
}

/// The positions of the moving phase, for judging repetition. A removal makes every earlier
/// position unreachable (a piece fewer), so only the positions since the last one are compared;
/// search and perft push and pop without allocating.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Repetitions {
    keys: Vec<u64>,
    base: usize,
}

/// What [`Repetitions::push`] changed, for [`Repetitions::pop`].
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    pushed: bool,
    base: usize,
}

impl Repetitions {
    /// Records the position `now` reached by `token`, when it is in the moving phase.
    pub fn push(&mut self, token: Token, now: &Position) -> Mark {
        let mark = Mark {
            pushed: now.is_moving(),
            base: self.base,
        };
        if mark.pushed {
            if matches!(token, Token::Remove(_)) {
                self.base = self.keys.len();
            }
            self.keys.push(now.key());
        }
        mark
    }

    /// Undoes a push.
    pub fn pop(&mut self, mark: Mark) {
        if mark.pushed {
            self.keys.pop();
        }
        self.base = mark.base;
    }

    /// How many times the position `key` has come since the last removal.
    pub fn count(&self, key: u64) -> usize {
        self.keys[self.base..].iter().filter(|&&k| k == key).count()
    }

    /// Whether the last position pushed has come `limit` times (never when `limit` is 0).
    pub fn reached(&self, limit: u8, now: &Position) -> bool {
        limit > 0 && now.is_moving() && self.count(now.key()) >= limit as usize
    }
}
