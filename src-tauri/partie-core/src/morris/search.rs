//! The computer opponent: iterative-deepening alpha-beta (negamax) with a transposition table
//! keyed over the board's 16 symmetries, move ordering (table move, mills, killers) and a
//! clock or stop flag checked as it goes, so that the app can interrupt it. The strongest level
//! also looks past the horizon at the mills that can still be closed (a quiescence search).
//!
//! A turn is one ply: a move that closes a mill keeps the same side to act for its removal,
//! and that removal is searched at the same depth, so the horizon never falls between a mill
//! and its capture.

use super::board::FULL;
use super::endgame::{Exact, Table};
use super::position::{Outcome, Position, Repetitions, Token};
use super::rules::MorrisRules;
use crate::rng::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::{Duration, Instant};

/// A won position's score; wins sooner score higher.
pub const WIN: i32 = 100_000;
const INF: i32 = WIN + 1_000;
const MAX_PLY: usize = 128;
/// How far (in hundredths of a piece) the best score may fall from one iteration to the next
/// before the search takes its extra time.
const FALL: i32 = 40;

/// When to stop thinking.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// The deepest iteration, in turns.
    pub depth: u32,
    /// The time allowed.
    pub time: Option<Duration>,
    /// Time that may be added to `time` when the best token's score falls as the search
    /// deepens: a threat seen late is the moment a game can be lost, and the moment to look
    /// for the one token that still holds.
    pub extra: Option<Duration>,
    /// Set from elsewhere to stop at once (the best move so far is returned).
    pub stop: Option<Arc<AtomicBool>>,
    /// The most positions to visit (the best move so far is returned).
    pub nodes: Option<u64>,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The token to play (`None` when there is no legal token).
    pub best: Option<Token>,
    /// Its score for the side to act, in hundredths of a piece.
    pub score: i32,
    /// The last depth searched to the end.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Whether the best score fell as the search deepened (and `Limits::extra` was granted).
    pub fell: bool,
    /// Time taken.
    pub elapsed: Duration,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: i8,
    /// The bound (`EXACT`, `LOWER` or `UPPER`) in the low two bits, and above them the age of
    /// the search that wrote it (see `Entry::bound` and `Entry::age`).
    bound: u8,
    /// The best token in canonical orientation, encoded (0 = none).
    best: u16,
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
/// How far up `Entry::bound` the age is kept: the bits below hold the bound.
const AGE_SHIFT: u32 = 2;
/// The number of ages an entry can tell apart (the six bits above the bound).
const AGES: u8 = 1 << (8 - AGE_SHIFT);

impl Entry {
    /// Packs a bound and the age of the search that writes it.
    fn packed(bound: u8, age: u8) -> u8 {
        bound | age << AGE_SHIFT
    }

    /// Its bound: `EXACT`, `LOWER` or `UPPER`.
    fn bound(&self) -> u8 {
        self.bound & ((1 << AGE_SHIFT) - 1)
    }

    /// The age of the search that wrote it.
    fn age(&self) -> u8 {
        self.bound >> AGE_SHIFT
    }
}

fn encode(t: Token) -> u16 {
    match t {
        Token::Place(p) => 1 + p as u16,
        Token::Remove(p) => 32 + p as u16,
        Token::Move(a, b) => 64 + a as u16 * 24 + b as u16,
    }
}

fn decode(c: u16) -> Option<Token> {
    match c {
        0 => None,
        1..=24 => Some(Token::Place((c - 1) as u8)),
        32..=55 => Some(Token::Remove((c - 32) as u8)),
        64.. => Some(Token::Move(((c - 64) / 24) as u8, ((c - 64) % 24) as u8)),
        _ => None,
    }
}

/// A won or lost score as the table keeps it: counted from the entry's position rather than
/// from the root, so that it stays true wherever the position comes back.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN - 1_000 {
        score + ply as i32
    } else if score < -(WIN - 1_000) {
        score - ply as i32
    } else {
        score
    }
}

/// A score from the table, counted from the root again.
fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN - 1_000 {
        score - ply as i32
    } else if score < -(WIN - 1_000) {
        score + ply as i32
    } else {
        score
    }
}

/// A searcher with its transposition table; keep one between moves of a game.
pub struct Searcher {
    table: Vec<Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    /// The deadline once `Limits::extra` is granted.
    extended: Option<Instant>,
    /// Whether the best score fell in this search.
    fell: bool,
    stop: Option<Arc<AtomicBool>>,
    node_limit: Option<u64>,
    aborted: bool,
    path: Repetitions,
    killers: [[u16; 2]; MAX_PLY],
    /// How often each token (by side) cut the search off, weighted by depth: the order of the
    /// tokens that are neither the table's, mills nor killers.
    history: Box<[[u32; TOKEN_CODES]; 2]>,
    weights: Weights,
    endgame: Option<&'static Table>,
    quiescence: bool,
    /// Whether a turn that leaves the opponent one legal move or none is searched a turn
    /// deeper (measured for issue 21 and not used by the levels: see `with_extensions`).
    extensions: bool,
    /// The turns added so far on the path being searched.
    added: u32,
    /// The most turns that may be added on one path: half the iteration's depth.
    extension_cap: u32,
    /// Whether quiet tokens late in the order are first searched a turn shallower.
    reductions: bool,
    /// Whether, while pieces are placed, every quiet token after the first is (a stronger
    /// form of the reductions, for that phase only).
    placing_reductions: bool,
    /// Whether a horizon that falls in the last placements (both sides together this many
    /// pieces in hand or fewer, 0: never) is moved past them, into the moving phase.
    transition: u32,
    /// Whether the table keeps two entries a slot pair: one kept for the deeper search, one
    /// always replaced (see `with_two_tier`).
    two_tier: bool,
    /// Whether the first slot of a pair goes to the present search when a past one wrote it,
    /// however deep that was (see `with_aging`).
    aging: bool,
    /// The age of the present search: counted up at every search, six bits, kept in the
    /// entries it writes.
    age: u8,
    /// How much more than its own the search weighs the opponent's mills to come and its own
    /// blockade to come, in per cent of the weights (100: alike; see `with_fear`).
    fear: i32,
    /// The weights each side (by its number) is judged with in this search: `weights` for
    /// both unless there is fear.
    sides: [Weights; 2],
    /// What a draw is worth to the side the search is for (0: nothing; see `with_contempt`).
    contempt: i32,
    /// The margin a turn of depth by which a quiet position judged above beta is cut at once
    /// near the horizon (0: never; below 0: also where the opponent threatens a mill; see
    /// `with_futility`).
    futility: i32,
    /// The side the present search is for.
    root_side: u8,
    /// Mixed into the table's keys: a score judged for one root side is not the other's.
    salt: u64,
    /// The positions judged lately and their worth (see `judge`), emptied at every search.
    judged: Box<[(u64, i32)]>,
}

/// The most positions [`Searcher::judge`] remembers, as a power of two (2^14, 256 KB: it stays
/// in the processor's cache, where the table of positions does not). A searcher with a smaller
/// table remembers as many positions as its table holds: the levels that search a few turns
/// ahead make a new searcher at every move, and would spend longer emptying the memory than
/// searching.
const JUDGED_BITS: u32 = 14;

/// An entry of the judged positions that no position has (a search key has 60 bits).
const NOT_JUDGED: u64 = u64::MAX;

/// The class of the tokens [`Searcher::order`] ranks by history alone (after the table's token,
/// mills, killers and blocks): the ones a reduction may shorten.
const REST: u64 = 4;

/// Where a token's place in the generator's order sits in [`Searcher::order`]'s sort key:
/// above the 16 bits of its code.
const PLACE_SHIFT: u32 = 16;
/// Where its history sits: above the six bits of its place (a list has at most 64 tokens).
const SELDOM_SHIFT: u32 = PLACE_SHIFT + 6;
/// Where its class sits: above the 32 bits of its history.
const CLASS_SHIFT: u32 = SELDOM_SHIFT + 32;

/// The deepest node [`Searcher::with_futility`] cuts by its judgement alone.
const FUTILE_DEPTH: i32 = 6;

/// The number of token codes [`encode`] gives.
const TOKEN_CODES: usize = 64 + 24 * 24;

impl Searcher {
    /// A searcher with a table of 2^`bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Self {
        Searcher {
            table: vec![Entry::default(); 1 << bits],
            nodes: 0,
            deadline: None,
            extended: None,
            fell: false,
            stop: None,
            node_limit: None,
            aborted: false,
            path: Repetitions::default(),
            killers: [[0; 2]; MAX_PLY],
            history: Box::new([[0; TOKEN_CODES]; 2]),
            weights: WEIGHTS,
            endgame: None,
            quiescence: false,
            extensions: false,
            added: 0,
            extension_cap: 0,
            reductions: false,
            placing_reductions: false,
            transition: 0,
            two_tier: false,
            aging: false,
            age: 0,
            fear: 100,
            contempt: 0,
            futility: 0,
            root_side: 0,
            sides: [WEIGHTS; 2],
            salt: 0,
            judged: vec![(NOT_JUDGED, 0); 1 << bits.min(JUDGED_BITS)].into_boxed_slice(),
        }
    }

    /// The same searcher judging the moving phase with fear, `percent` of the weights (100:
    /// none): the opponent's threats that can close, running and double mills, and its own
    /// stuck pieces and last moves, count that much; its own threats and the opponent's
    /// blockade as before. A search judges from the side it searches for, so it prefers to
    /// stop a mill to come over making one of its own. Kept for the matches
    /// (`examples/strength.rs`, `f` and the per cent).
    pub fn with_fear(mut self, percent: i32) -> Self {
        self.fear = percent;
        self
    }

    /// The same searcher taking a draw (by the rules, a repetition on its path, an exact table's)
    /// as worth `value` to the side it searches for and as much less to the other: above 0 it
    /// steers to a draw rather than a position it judges a little worse. Kept for the matches
    /// (`examples/strength.rs`, `c` and the value); no level uses it (docs/performance.md).
    pub fn with_contempt(mut self, value: i32) -> Self {
        self.contempt = value;
        self
    }

    /// The same searcher cutting, at depth [`FUTILE_DEPTH`] or less and off the principal
    /// line, a position whose judgement is at least beta by `margin` a turn of depth, where no
    /// removal is owed and the opponent has no two pieces on a line with its third point
    /// empty (reverse futility pruning: depth for the placing, which decides the games issue
    /// 21 counts). A margin below 0 is the same margin, cutting where the opponent threatens
    /// a mill too. Kept for the matches (`examples/strength.rs`, `v` and the margin); no level
    /// uses it (docs/performance.md).
    pub fn with_futility(mut self, margin: i32) -> Self {
        self.futility = margin;
        self
    }

    /// Whether a position may be cut by its judgement alone (see `with_futility`): its side to
    /// act owes no removal, and the opponent threatens no mill (unless the margin is below 0).
    fn futile(&self, pos: &Position) -> bool {
        if pos.pending() > 0 {
            return false;
        }
        if self.futility < 0 {
            return true;
        }
        let theirs = pos.board(1 - pos.turn());
        let empty = !(theirs | pos.board(pos.turn())) & super::board::FULL;
        !pos.lines()
            .iter()
            .any(|&l| two_on(theirs, l) && empty & l != 0)
    }

    /// A draw's worth for `side`.
    fn drawn(&self, side: u8) -> i32 {
        if side == self.root_side {
            self.contempt
        } else {
            -self.contempt
        }
    }

    /// The same searcher reducing, while pieces are placed, every quiet token after the first
    /// (two turns from the fifth on, at depth 4 or more). Kept for the matches
    /// (`examples/strength.rs`, letter `p`); no level uses it (docs/performance.md).
    pub fn with_placing_reductions(mut self, on: bool) -> Self {
        self.placing_reductions = on;
        self
    }

    /// The same searcher placing the last `pieces` pieces in hand (both sides together) before
    /// it judges: a horizon that falls among them is moved to the first position where every
    /// piece is placed, so the shape is judged by the moving phase's terms (moves, blockades,
    /// running mills) rather than guessed from the placing's. Kept for the matches
    /// (`examples/strength.rs`, letter `t` for two pieces).
    pub fn with_transition(mut self, pieces: u32) -> Self {
        self.transition = pieces;
        self
    }

    /// Pairs the table's slots: a position goes to the first slot of its pair when its search
    /// is at least as deep as what is there, and to the second, always replaced, otherwise.
    /// With one slot a position, a deep entry is kept and the near positions of the moment
    /// find no room, or the deep entry is lost to them; with two, neither. Level 5 thinks
    /// with it (measured for issue 21: docs/performance.md); letter `w` of
    /// `examples/strength.rs`.
    pub fn with_two_tier(mut self, on: bool) -> Self {
        self.two_tier = on;
        self
    }

    /// The same searcher giving the first slot of a pair to the present search when the entry
    /// there was written by a past one, however deep that search looked: a deep entry of a
    /// position the game has left would otherwise hold the slot for the rest of the game.
    /// Only with the paired table (`with_two_tier`); letter `g` of `examples/strength.rs`.
    pub fn with_aging(mut self, on: bool) -> Self {
        self.aging = on;
        self
    }

    /// The same searcher looking less deep at first at the quiet tokens that come late in its
    /// order (no mill closed, no opposing mill blocked, neither the table's token nor a
    /// killer): most of them are refuted at once, and the time saved goes to depth. A token
    /// that does better than expected is searched again at the full depth, so a reduction
    /// can delay what the search sees, never make it play a token it has not looked at fully.
    pub fn with_reductions(mut self, on: bool) -> Self {
        self.reductions = on;
        self
    }

    /// The same searcher looking a turn deeper after a turn that leaves the opponent one legal
    /// move or none (at most half the iteration's depth on one path): a blockade is a chain of
    /// such turns, and the horizon otherwise cuts it where it starts to matter. Kept for the
    /// matches (`examples/strength.rs`, letter `e`): level 5 with it (and a slower form of its
    /// evaluation) won 2, drew 16 and lost 7 of 25 games at 0.1 s a move against level 5
    /// before issue 21 (docs/performance.md), so no level uses it.
    pub fn with_extensions(mut self, on: bool) -> Self {
        self.extensions = on;
        self
    }

    /// The same searcher looking past its horizon at the mills that can still be closed.
    pub fn with_quiescence(mut self, on: bool) -> Self {
        self.quiescence = on;
        self
    }

    /// The same searcher judging positions with other weights (for tuning them).
    pub fn with_weights(mut self, weights: Weights) -> Self {
        self.weights = weights;
        self
    }

    /// Searches `pos` (reached after the moving-phase positions in `history`) within `limits`.
    pub fn search(&mut self, pos: &Position, history: &Repetitions, limits: &Limits) -> Report {
        let start = Instant::now();
        self.nodes = 0;
        self.aborted = false;
        self.fell = false;
        self.deadline = limits.time.map(|t| start + t);
        self.extended = limits
            .time
            .zip(limits.extra)
            .map(|(t, extra)| start + t + extra);
        self.stop = limits.stop.clone();
        self.node_limit = limits.nodes;
        self.path = history.clone();
        self.killers = [[0; 2]; MAX_PLY];
        self.age = (self.age + 1) % AGES;
        self.judge_for(pos.turn());
        // What cut off in earlier searches still says something, but less than what cuts now.
        for side in self.history.iter_mut() {
            for h in side.iter_mut() {
                *h /= 8;
            }
        }
        // Few pieces left: the exact tables of four or three against three are near (or here).
        let near_end = pos.is_moving() && pos.on_board(0) + pos.on_board(1) <= 10;
        self.endgame = if near_end { Table::ready(pos) } else { None };
        let mut tokens = pos.tokens();
        let mut report = Report {
            best: tokens.as_slice().first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            fell: false,
            elapsed: Duration::ZERO,
        };
        if tokens.len() <= 1 || pos.outcome().is_some() {
            self.stop = None;
            report.elapsed = start.elapsed();
            return report;
        }
        let max = limits.depth.max(1);
        for depth in 1..=max {
            let previous = (depth > 1).then_some(report.score);
            self.added = 0;
            self.extension_cap = depth / 2;
            let root = self.root(pos, &mut tokens, depth as i32, previous);
            if self.aborted {
                // A token shown better than the last iteration's best at this depth is
                // better, even though the iteration did not end.
                if let Some((score, best)) = root.filter(|&(_, b)| Some(b) != report.best) {
                    report.best = Some(best);
                    report.score = score;
                }
                break;
            }
            // (A fall shows in the first token's score, which bounds the best from below:
            // `root` has seen it already.)
            let (score, best) = root.expect("an iteration that ended has a best token");
            report.best = Some(best);
            report.score = score;
            report.depth = depth;
            if score.abs() > WIN - 1_000 {
                break; // a forced result is found; deeper search cannot change it
            }
        }
        // The stop flag is the caller's think's: a searcher kept for the next move (level 5's)
        // held it on, and the app counted that think as under way until the next search.
        self.stop = None;
        report.nodes = self.nodes;
        report.fell = self.fell;
        report.elapsed = start.elapsed();
        report
    }

    /// Scores every root token with a full window at `depth` (for the levels that pick among
    /// near-best tokens), best first.
    pub fn score_all(
        &mut self,
        pos: &Position,
        history: &Repetitions,
        depth: u32,
    ) -> Vec<(Token, i32)> {
        self.nodes = 0;
        self.aborted = false;
        self.deadline = None;
        self.stop = None;
        self.node_limit = None;
        self.path = history.clone();
        self.judge_for(pos.turn());
        let mut out: Vec<(Token, i32)> = pos
            .tokens()
            .as_slice()
            .iter()
            .map(|&t| (t, self.child(pos, t, depth as i32, -INF, INF, 0)))
            .collect();
        out.sort_by_key(|&(_, s)| -s);
        out
    }

    /// Sets the weights each side is judged with, searching for `root`.
    fn judge_for(&mut self, root: u8) {
        // (Emptied at every search, not only when the weights change: a searcher may be given
        // positions under other rules, which the keys do not tell apart.)
        self.judged.fill((NOT_JUDGED, 0));
        self.sides = [self.weights; 2];
        self.root_side = root;
        // Fear and contempt judge for the root side: its scores are not the other side's.
        let for_one_side = self.fear != 100 || self.contempt != 0;
        self.salt = if for_one_side && root == 1 {
            0x9e37_79b9_7f4a_7c15
        } else {
            0
        };
        if self.fear != 100 {
            let scale = |v: i32| v * self.fear / 100;
            let own = &mut self.sides[root as usize];
            own.stuck_moving = scale(own.stuck_moving);
            own.cramped = scale(own.cramped);
            let theirs = &mut self.sides[1 - root as usize];
            theirs.closable = scale(theirs.closable);
            theirs.unblockable = scale(theirs.unblockable);
            theirs.running = scale(theirs.running);
            theirs.double_mill = scale(theirs.double_mill);
        }
    }

    /// The position's worth for the side to act, as this search judges it. The same
    /// positions come back at every iteration and in every quiescence search below them, so
    /// the last few thousand are remembered.
    fn judge(&mut self, pos: &Position) -> i32 {
        let key = pos.search_key();
        // The hash's top bits, as many as the memory's size has (a shift of 64, for a memory of
        // one entry, would overflow: that slot is 0).
        let shift = 64 - self.judged.len().trailing_zeros();
        let slot = key
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .checked_shr(shift)
            .unwrap_or(0) as usize;
        let (k, v) = self.judged[slot];
        if k == key {
            return v;
        }
        let v = evaluate_sides(pos, [&self.sides[0], &self.sides[1]]);
        self.judged[slot] = (key, v);
        v
    }

    /// Notes that the best score fell, and grants `Limits::extra` (once).
    fn score_fell(&mut self) {
        self.fell = true;
        if let Some(later) = self.extended.take() {
            self.deadline = Some(later);
        }
    }

    /// One iteration at the root: the best token and its score, the tokens reordered best
    /// first for the next one. When the search is stopped, the best token among those
    /// searched to the end (`None` if even the first was not).
    fn root(
        &mut self,
        pos: &Position,
        tokens: &mut super::position::Tokens,
        depth: i32,
        previous: Option<i32>,
    ) -> Option<(i32, Token)> {
        let mut alpha = -INF;
        let mut best = tokens.as_slice()[0];
        let mut scores: Vec<(Token, i32)> = Vec::with_capacity(tokens.len());
        for (i, &t) in tokens.as_slice().iter().enumerate() {
            // As in every node: the first token with the full window, the others shown worse.
            let mut s = if i == 0 {
                self.child(pos, t, depth, alpha, INF, 0)
            } else {
                self.child(pos, t, depth, alpha, alpha + 1, 0)
            };
            if i > 0 && s > alpha && !self.aborted {
                s = self.child(pos, t, depth, alpha, INF, 0);
            }
            if self.aborted {
                return (i > 0).then_some((alpha, best));
            }
            if i == 0 && previous.is_some_and(|p| s < p - FALL) {
                // Last iteration's best token now looks worse: take the time to find another.
                self.score_fell();
            }
            scores.push((t, s));
            if s > alpha {
                alpha = s;
                best = t;
            }
        }
        // The next iteration looks at the best token first.
        scores.sort_by_key(|&(_, s)| -s);
        for (slot, (t, _)) in tokens.as_mut_slice().iter_mut().zip(scores) {
            *slot = t;
        }
        Some((alpha, best))
    }

    /// The score of playing `t` in `pos`, for the side to act in `pos`.
    fn child(
        &mut self,
        pos: &Position,
        t: Token,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let next = pos.after(t);
        let mark = self.path.push(t, &next);
        // A position come twice in the search is scored as the draw a third time would be;
        // without the repetition rule (0) it is no draw, and the search goes on.
        let repetition = pos.rules().repetition.min(2);
        let score = if self.path.reached(repetition, &next) {
            // A repeated position: the side that could avoid it does not want it.
            self.drawn(pos.turn())
        } else if next.turn() == pos.turn() {
            self.negamax(&next, depth, alpha, beta, ply + 1)
        } else if self.extensions && depth > 1 && self.added < self.extension_cap && forcing(&next)
        {
            self.added += 1;
            let s = -self.negamax(&next, depth, -beta, -alpha, ply + 1);
            self.added -= 1;
            s
        } else {
            -self.negamax(&next, depth - 1, -beta, -alpha, ply + 1)
        };
        self.path.pop(mark);
        score
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(s) = self.settled(pos, ply) {
            return s;
        }
        let last_placements = |pos: &Position| {
            !pos.is_moving()
                && u32::from(pos.in_hand(0)) + u32::from(pos.in_hand(1)) <= self.transition
        };
        let depth = if depth <= 0 && ply < MAX_PLY - 8 && last_placements(pos) {
            1
        } else {
            depth
        };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            if self.quiescence {
                return self.quiesce(pos, alpha, beta, ply);
            }
            return self.judge(pos);
        }
        let (key, sym) = pos.canonical();
        let key = key ^ self.salt;
        let slot = (key as usize ^ (key >> 29) as usize) & (self.table.len() - 1);
        let pair = slot & !1;
        // (A table of one slot has no pair: the second is the first.)
        let second = (pair + 1) & (self.table.len() - 1);
        let slot = match self.two_tier {
            false => slot,
            true if self.table[pair].key == key => pair,
            true => second,
        };
        let entry = self.table[slot];
        let mut hinted = None;
        if entry.key == key {
            hinted = decode(entry.best).map(|t| pos.map_token(t, sym, true));
            if entry.depth as i32 >= depth {
                let s = from_table(entry.score, ply);
                let cut = match entry.bound() {
                    EXACT => true,
                    LOWER => s >= beta,
                    _ => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        if self.futility != 0
            && depth <= FUTILE_DEPTH
            && beta - alpha == 1
            && beta.abs() < WIN - MAX_PLY as i32
            && self.futile(pos)
        {
            let judged = self.judge(pos);
            if judged - self.futility.abs() * depth >= beta {
                return judged;
            }
        }
        let mut tokens = pos.tokens();
        let tactical = self.order(pos, tokens.as_mut_slice(), hinted, ply);
        let start_alpha = alpha;
        let mut best_score = -INF;
        let mut best = None;
        for (i, &t) in tokens.as_slice().iter().enumerate() {
            let s = if i == 0 {
                self.child(pos, t, depth, alpha, beta, ply)
            } else {
                // The first token is expected to be best: the others only have to be shown
                // worse, with a null window, and are searched again only when they are not.
                let r = self.reduction(depth, i, tactical, pos.is_moving());
                let mut s = self.child(pos, t, depth - r, alpha, alpha + 1, ply);
                if r > 0 && s > alpha && !self.aborted {
                    s = self.child(pos, t, depth, alpha, alpha + 1, ply);
                }
                if s > alpha && s < beta && !self.aborted {
                    self.child(pos, t, depth, alpha, beta, ply)
                } else {
                    s
                }
            };
            if self.aborted {
                return 0;
            }
            if s > best_score {
                best_score = s;
                best = Some(t);
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                if !matches!(t, Token::Remove(_)) {
                    let k = &mut self.killers[ply];
                    if k[0] != encode(t) {
                        k[1] = k[0];
                        k[0] = encode(t);
                    }
                    let h = &mut self.history[pos.turn() as usize][encode(t) as usize];
                    *h = h.saturating_add((depth * depth) as u32);
                }
                break;
            }
        }
        let bound = if best_score <= start_alpha {
            UPPER
        } else if best_score >= beta {
            LOWER
        } else {
            EXACT
        };
        let (slot, replace) = if self.two_tier {
            let deep = self.table[pair];
            let past = self.aging && deep.age() != self.age;
            let first = deep.key == key || depth >= deep.depth as i32 || past;
            (if first { pair } else { second }, true)
        } else {
            (slot, entry.key != key || depth >= entry.depth as i32)
        };
        if replace {
            self.table[slot] = Entry {
                key,
                score: to_table(best_score, ply),
                depth: depth.min(127) as i8,
                bound: Entry::packed(bound, self.age),
                best: best.map_or(0, |t| encode(pos.map_token(t, sym, false))),
            };
        }
        best_score
    }

    /// Counts a node and, now and then, looks at the clock and the stop flag; whether to stop.
    /// A node limit is kept exactly: once stopped, nothing more is counted.
    fn tick(&mut self) -> bool {
        if self.aborted || self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let stopped = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            if late || stopped {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The score of a position whose result is known: the game is over, or the exact table of
    /// few pieces has it.
    fn settled(&self, pos: &Position, ply: usize) -> Option<i32> {
        if let Some(o) = pos.outcome() {
            return Some(match o {
                Outcome::Won(w, _) if w == pos.turn() => WIN - ply as i32,
                Outcome::Won(..) => -(WIN - ply as i32),
                Outcome::Drawn(_) => self.drawn(pos.turn()),
            });
        }
        let exact = self.endgame.and_then(|t| t.settles(pos))?;
        Some(match exact {
            Exact::Won(n) => WIN - ply as i32 - n as i32,
            Exact::Lost(n) => -(WIN - ply as i32 - n as i32),
            Exact::Drawn => self.drawn(pos.turn()),
        })
    }

    /// Past the horizon: the side to act may stop (the evaluation) or close a mill and take a
    /// piece, as long as mills can be closed. Each step takes a piece, so it ends.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(s) = self.settled(pos, ply) {
            return s;
        }
        if ply >= MAX_PLY - 1 {
            return self.judge(pos);
        }
        if pos.pending() > 0 {
            // A removal is owed: it is not a choice to stop.
            let mut best = -INF;
            for &t in pos.tokens().as_slice() {
                let next = pos.after(t);
                let s = if next.turn() == pos.turn() {
                    self.quiesce(&next, alpha, beta, ply + 1)
                } else {
                    -self.quiesce(&next, -beta, -alpha, ply + 1)
                };
                best = best.max(s);
                alpha = alpha.max(s);
                if alpha >= beta {
                    break;
                }
            }
            return best;
        }
        let stand = self.judge(pos);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let own = pos.board(pos.turn());
        let empty = !(own | pos.board(1 - pos.turn())) & super::board::FULL;
        let closing = pos
            .lines()
            .iter()
            .filter(|&&l| two_on(own, l))
            .fold(0, |m, &l| m | (empty & l));
        if closing == 0 {
            return best;
        }
        for &t in pos.tokens().as_slice() {
            if t.to().is_none_or(|p| closing & (1 << p) == 0) {
                continue;
            }
            let next = pos.after(t);
            if next.pending() == 0 {
                continue; // the piece left the line it was to close
            }
            let s = self.quiesce(&next, alpha, beta, ply + 1);
            best = best.max(s);
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// How many turns shallower the `i`th token in the order is searched first, when the
    /// first `tactical` tokens are the table's, mills, killers and blocks (`moving`: whether
    /// every piece is placed).
    fn reduction(&self, depth: i32, i: usize, tactical: usize, moving: bool) -> i32 {
        if self.placing_reductions && !moving && depth >= 3 && i >= tactical.max(1) {
            return if depth >= 4 && i >= 4 { 2 } else { 1 };
        }
        if !self.reductions || depth < 3 || i < tactical.max(3) {
            0
        } else if depth >= 6 && i >= 8 {
            2
        } else {
            1
        }
    }

    /// Table move first, then tokens that close a mill, then killers, then tokens that block
    /// an opposing mill, then the rest by how often they cut off before. Returns how many
    /// come before the rest.
    fn order(
        &self,
        pos: &Position,
        tokens: &mut [Token],
        hinted: Option<Token>,
        ply: usize,
    ) -> usize {
        let killers = self.killers[ply];
        let history = &self.history[pos.turn() as usize];
        // The points that would close an opposing mill: taking one first is often forced.
        let theirs = pos.board(1 - pos.turn());
        let empty = !(theirs | pos.board(pos.turn())) & super::board::FULL;
        let mut blocks = 0u32;
        for &l in pos.lines() {
            if two_on(theirs, l) {
                blocks |= empty & l;
            }
        }
        // A token's sort key: its class, then (for the rest) how seldom it cut off, then its
        // place in the generator's order, so that ties keep that order and a search at a fixed
        // depth plays the same every time; the token itself rides in the low bits.
        let key = |i: usize, t: Token| -> u64 {
            let e = encode(t);
            let class = if Some(t) == hinted {
                0
            } else if matches!(t, Token::Remove(_)) || pos.closes_mill(t) {
                1
            } else if e == killers[0] || e == killers[1] {
                2
            } else if t.to().is_some_and(|p| blocks & (1 << p) != 0) {
                3
            } else {
                REST
            };
            let seldom = if class == REST {
                u32::MAX - history[e as usize]
            } else {
                0
            };
            class << CLASS_SHIFT
                | u64::from(seldom) << SELDOM_SHIFT
                | (i as u64) << PLACE_SHIFT
                | u64::from(e)
        };
        // Sorted as plain numbers on the stack, as ordering runs in every node.
        let mut keys = [0u64; 64];
        let keys = &mut keys[..tokens.len()];
        for (i, (k, &t)) in keys.iter_mut().zip(tokens.iter()).enumerate() {
            *k = key(i, t);
        }
        keys.sort_unstable();
        for (slot, &k) in tokens.iter_mut().zip(keys.iter()) {
            *slot = decode(k as u16).expect("a token's own code");
        }
        keys.iter()
            .take_while(|&&k| k >> CLASS_SHIFT < REST)
            .count()
    }
}

/// Whether the position `after` a turn (the opponent to act, in the moving phase) leaves the
/// opponent one legal move or none: a blockade is a move or two away, and only a deeper look
/// tells whether the last move frees it.
///
/// Extending after every turn that makes a new mill to close was tried too: in a second, level
/// 5 then reached depth 8 instead of 12 in a middle game and 11 instead of 17 after the
/// placements, and extending only after new threats the opponent cannot step in front of
/// reached 8 and 12. This one reached 11 and 16.
fn forcing(after: &Position) -> bool {
    if !after.is_moving() || after.pending() > 0 {
        return false;
    }
    let them = after.turn();
    if after.flies(them) {
        return false;
    }
    let empty = !(after.board(0) | after.board(1)) & FULL;
    let mut moves = 0;
    let mut own = after.board(them);
    while own != 0 && moves <= 1 {
        moves += (after.adjacent(own.trailing_zeros() as u8) & empty).count_ones();
        own &= own - 1;
    }
    moves <= 1
}

/// The weights of [`evaluate_with`], in hundredths of a piece; a piece (on the board or in
/// hand) is worth 100.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Weights {
    /// A closed mill, while pieces are being placed.
    pub mill_placing: i32,
    /// A closed mill, once every piece is placed.
    pub mill_moving: i32,
    /// Two own pieces on a line whose third point is empty (a threat).
    pub two: i32,
    /// An empty point where one piece would make two such threats at once (a fork to come).
    pub fork: i32,
    /// Each move a side could make while pieces are being placed (sides that fly are not
    /// counted).
    pub mobility: i32,
    /// The same once every piece is placed, when a side with few moves left is a blockade
    /// away from losing. Levels 1 to 4 weigh a move alike in both phases; level 5 weighs it
    /// twice as much while placing (the shape the moving starts from decides most games it
    /// lost), and twice as much once placed was no better for it (docs/performance.md).
    pub mobility_moving: i32,
    /// Each piece that cannot move, while pieces are being placed.
    pub stuck_placing: i32,
    /// Each piece that cannot move, once every piece is placed.
    pub stuck_moving: i32,
    /// Each removal the side to act is owed.
    pub pending: i32,
    /// Once every piece is placed: a threat that a piece standing next to its empty point can
    /// close on the next move (a threat nothing can reach is only a shape).
    pub closable: i32,
    /// Such a threat whose empty point no opposing piece can step onto first: only a mill of
    /// the opponent's own, or a removal, stops it.
    pub unblockable: i32,
    /// A running mill: a closed mill with a piece that can step out and back in while no
    /// opposing piece can take its point, so that it closes again every two moves.
    pub running: i32,
    /// A double mill (Zwickmühle): a piece of a closed mill next to the empty point of another
    /// threat, so that each of its steps closes a mill.
    pub double_mill: i32,
    /// Once every piece is placed, for each move fewer than three a side that does not fly
    /// has: one or two moves left is a blockade one or two moves away.
    pub cramped: i32,
    /// Once every piece is placed, a piece taken at the side's next turn that nothing but a
    /// mill of the opponent's own can stop: a threat of the side that just moved whose empty
    /// point no opposing piece can step onto, or a running mill of the side to act (counted
    /// once a side). The other terms do not know whose turn it is, so they weigh such a
    /// threat the same whether the opponent can still answer it or not. Kept for the matches:
    /// at 40 it was no better for level 5 (docs/performance.md), so every level gives it 0.
    pub looming: i32,
    /// Once every piece is placed, each empty point a side that does not fly can reach in one
    /// or two steps through empty points: room to come, where `mobility_moving` counts only
    /// the moves now. A blockade closes in over several moves; the moves left shrink only at
    /// the end of it, the room around the pieces before.
    pub reach: i32,
    /// A table of shapes ([`SHAPES`] values, see [`shapes`]) added to the terms above, or
    /// none: a judgement of the board's shape learned from positions labelled by a deeper
    /// search (`examples/fit.rs --shapes`), measured for issue 21 and not given to any level.
    pub shapes: Option<&'static [i32; SHAPES]>,
}

/// The number of values in a table of shapes: for the placing and for the moving phase, for
/// an own piece and for an empty point, its number of neighbours, own neighbours and the
/// opponent's neighbours (each from 0 to 4).
pub const SHAPES: usize = 2 * 2 * 125;

/// A table of shapes from its text, the values separated by commas as `examples/fit.rs
/// --shapes` writes them; `None` unless there are exactly [`SHAPES`] whole numbers.
pub fn shapes_from_text(text: &str) -> Option<Box<[i32; SHAPES]>> {
    let values: Vec<i32> = text
        .trim()
        .split(',')
        .map(|x| x.trim().parse().ok())
        .collect::<Option<_>>()?;
    Some(Box::new(values.try_into().ok()?))
}

/// Calls `f` with the index in a table of shapes of each point of side `s`'s shape: each own
/// piece and each empty point, by phase and by the pieces around it. A side that flies has no
/// shape (every point is next to its pieces).
pub fn shapes(pos: &Position, s: u8, mut f: impl FnMut(usize)) {
    if pos.flies(s) {
        return;
    }
    let adjacent = &pos.geometry().adjacent;
    let own = pos.board(s);
    let theirs = pos.board(1 - s);
    let phase = if pos.is_moving() { 250 } else { 0 };
    for (p, &around) in adjacent.iter().enumerate() {
        let kind = if own & (1 << p) != 0 {
            0
        } else if theirs & (1 << p) == 0 {
            125
        } else {
            continue;
        };
        f(phase
            + kind
            + 25 * around.count_ones() as usize
            + 5 * (around & own).count_ones() as usize
            + (around & theirs).count_ones() as usize);
    }
}

impl Weights {
    /// How many weights there are: the length of the matches' lists.
    pub const COUNT: usize = 16;

    /// These weights with the first of them replaced by `list`, in the order the matches take
    /// them (`examples/strength.rs`, `tune.rs`): mill_placing, mill_moving, two, fork,
    /// mobility, stuck_placing, stuck_moving, pending, closable, unblockable, running,
    /// double_mill, cramped, looming, mobility_moving, reach. Where `mobility` is given and
    /// `mobility_moving` is not, it follows `mobility`, as the lists written before the two
    /// were apart mean. `None` for more than sixteen.
    pub fn with_list(self, list: &[i32]) -> Option<Weights> {
        let mut w = self;
        let fields = w.fields();
        if list.len() > fields.len() {
            return None;
        }
        let (given, count) = (list.len(), fields.len());
        for (field, &value) in fields.into_iter().zip(list) {
            *field = value;
        }
        // Where `mobility` and `mobility_moving` stand in the lists, from `fields`, the one
        // place that order is written.
        let at = |one: Weights| one.list().iter().position(|&v| v == 1).unwrap_or(count);
        let mobility_at = at(Weights {
            mobility: 1,
            ..Weights::default()
        });
        let moving_at = at(Weights {
            mobility_moving: 1,
            ..Weights::default()
        });
        if given > mobility_at && given <= moving_at {
            w.mobility_moving = w.mobility;
        }
        Some(w)
    }

    /// The sixteen weights in the order [`Weights::with_list`] takes them.
    pub fn list(&self) -> [i32; Weights::COUNT] {
        let mut w = *self;
        w.fields().map(|f| *f)
    }

    /// The weights in the order of the matches' lists: the one place that order is written.
    fn fields(&mut self) -> [&mut i32; Weights::COUNT] {
        [
            &mut self.mill_placing,
            &mut self.mill_moving,
            &mut self.two,
            &mut self.fork,
            &mut self.mobility,
            &mut self.stuck_placing,
            &mut self.stuck_moving,
            &mut self.pending,
            &mut self.closable,
            &mut self.unblockable,
            &mut self.running,
            &mut self.double_mill,
            &mut self.cramped,
            &mut self.looming,
            &mut self.mobility_moving,
            &mut self.reach,
        ]
    }
}

/// The weights levels 1 to 4 play with.
///
/// Tuned by matches at a fixed depth between weight sets, each random opening played with both
/// colours: forks, mobility and stuck pieces weigh far more than they first did (at depth 7
/// these weights won 97, drew 6 and lost 17 of 120 games against the first ones). They give
/// the middle game's terms (running and double mills, blockades) nothing, which leaves these
/// levels' play as it was before issue 21.
pub const WEIGHTS: Weights = Weights {
    mill_placing: 12,
    mill_moving: 12,
    two: 18,
    fork: 35,
    mobility: 10,
    mobility_moving: 10,
    stuck_placing: 20,
    stuck_moving: 30,
    pending: 90,
    closable: 0,
    unblockable: 0,
    running: 0,
    double_mill: 0,
    cramped: 0,
    looming: 0,
    reach: 0,
    shapes: None,
};

/// The weights level 5 plays with: [`WEIGHTS`] and the middle game's terms (issue 21), for
/// the games lost to a mill closed again and again and to a blockade, with a move weighing
/// twice as much while placing: measured against level 5 without it, it lost fewer games
/// from a placing that ended level, as most of those games were lost in the placing's shape
/// (docs/performance.md).
pub const STRONG: Weights = Weights {
    mobility: 20,
    mobility_moving: 10,
    closable: 20,
    unblockable: 30,
    running: 40,
    double_mill: 60,
    cramped: 25,
    looming: 0,
    ..WEIGHTS
};

/// The position's worth for the side to act with the levels' [`WEIGHTS`].
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// The position's worth for the side to act: pieces, mills made and half made, forks to come,
/// room to move, and (when the weights give them anything) mills that can close on the next
/// move, running and double mills and blockades to come; in hundredths of a piece.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    evaluate_sides(pos, [w, w])
}

/// The position's worth for the side to act, each side's part counted with its own weights
/// (by side number); the side to act's `pending` weighs the removal it is owed.
#[inline]
fn evaluate_sides(pos: &Position, weights: [&Weights; 2]) -> i32 {
    let me = pos.turn();
    let moving = pos.is_moving();
    // Under `same_mill: once` a mill closed again gives nothing: no running or double mill.
    let again = pos.rules().same_mill == super::rules::SameMill::Again;
    let geometry = pos.geometry();
    let (lines, neighbours) = (&geometry.lines, &geometry.adjacent);
    let every = geometry.every_line();
    let on_lines = [geometry.planes(pos.board(0)), geometry.planes(pos.board(1))];
    let side = |s: u8| -> i32 {
        let w = weights[s as usize];
        let middle = moving
            && (w.closable | w.unblockable | w.running | w.double_mill | w.cramped | w.looming)
                != 0;
        let own = pos.board(s);
        let theirs = pos.board(1 - s);
        let empty = !(own | theirs) & super::board::FULL;
        let mut v = 100 * (pos.on_board(s) as i32 + pos.in_hand(s) as i32);
        // The middle game's threats: the empty points of lines this side can close next move,
        // and the pieces standing in its closed mills.
        let mut holes = [(0u32, 0u32); 16];
        let mut threats = 0;
        let mut closed = 0u32;
        // Whether a piece is taken at this side's next turn whatever the other side steps.
        let mut looms = false;
        // Each line's count, for all lines at once (bit i = line i; see `Geometry::planes`).
        let (o, t) = (on_lines[s as usize], on_lines[1 - s as usize]);
        let e = [0, 1, 2].map(|j| every & !(o[j] | t[j]));
        let mills = o[0] & o[1] & o[2];
        let twos = (o[0] & o[1] & e[2]) | (o[0] & e[1] & o[2]) | (e[0] & o[1] & o[2]);
        v += mills.count_ones() as i32
            * if moving {
                w.mill_moving
            } else {
                w.mill_placing
            };
        v += w.two * twos.count_ones() as i32;
        super::position::each_bit(mills, |i| closed |= lines[i as usize]);
        if middle {
            super::position::each_bit(twos, |i| {
                let l = lines[i as usize];
                if threats < holes.len() {
                    holes[threats] = (empty & l, l);
                    threats += 1;
                }
                let (worth, sure) = threat(pos, s, l, empty & l, w);
                v += worth;
                looms |= sure && s != me;
            });
        }
        if w.fork != 0 && (pos.in_hand(s) > 0 || pos.flies(s)) {
            // The empty points of two lines or more that hold one own piece and nothing else.
            let ones = (o[0] & e[1] & e[2]) | (e[0] & o[1] & e[2]) | (e[0] & e[1] & o[2]);
            let mut once = 0u32;
            let mut twice = 0u32;
            super::position::each_bit(ones, |i| {
                let open = empty & lines[i as usize];
                twice |= once & open;
                once |= open;
            });
            v += w.fork * twice.count_ones() as i32;
        }
        if !pos.flies(s) {
            // The moves, summed per empty point in three bit planes (how many own pieces stand
            // next to each point: 1, 2 and 4), then counted once per plane.
            let mut planes = [0u32; 3];
            let mut stuck = 0;
            let mut doubles = 0;
            let free = middle && again && !pos.flies(1 - s);
            super::position::each_bit(own, |p| {
                let around = neighbours[p as usize];
                let to = around & empty;
                let carry = planes[0] & to;
                planes[0] ^= to;
                let carry2 = planes[1] & carry;
                planes[1] ^= carry;
                planes[2] |= carry2;
                if to == 0 {
                    stuck += 1;
                } else if free && closed & (1 << p) != 0 {
                    // A piece of a closed mill that steps into the hole of another threat
                    // closes a mill at each step.
                    let holes = &holes[..threats];
                    if holes
                        .iter()
                        .any(|&(h, l)| around & h != 0 && l & (1 << p) == 0)
                    {
                        doubles += 1;
                    }
                    // No opposing piece can take its point while it is out: the mill opens
                    // and closes again every two moves.
                    if around & theirs == 0 {
                        v += w.running;
                        looms |= s == me;
                    }
                }
            });
            let moves = planes[0].count_ones() as i32
                + 2 * planes[1].count_ones() as i32
                + 4 * planes[2].count_ones() as i32;
            let mobility = if moving {
                w.mobility_moving
            } else {
                w.mobility
            };
            if moving && w.reach != 0 {
                // Room beyond the moves now: a blockade shrinks it before the moves run out.
                let first = planes[0] | planes[1] | planes[2];
                let mut second = first;
                super::position::each_bit(first, |p| second |= neighbours[p as usize]);
                v += w.reach * (second & empty).count_ones() as i32;
            }
            v += mobility * moves + w.double_mill * doubles
                - if moving {
                    w.stuck_moving * stuck + w.cramped * (3 - moves).max(0)
                } else {
                    w.stuck_placing * stuck
                };
        }
        if looms && pos.pending() == 0 {
            v += w.looming;
        }
        if let Some(table) = w.shapes {
            shapes(pos, s, |i| v += table[i]);
        }
        v
    };
    side(me) - side(1 - me) + weights[me as usize].pending * pos.pending() as i32
}

/// Whether a mask has two points or more.
#[inline]
fn two_or_more(m: u32) -> bool {
    m & m.wrapping_sub(1) != 0
}

/// Whether `side` holds exactly two of the three points of `line`.
#[inline]
fn two_on(side: u32, line: u32) -> bool {
    let m = side & line;
    two_or_more(m) && m != line
}

/// A threat of side `s` in the moving phase (two own pieces on `line`, its point `hole`
/// empty): worth something only if another own piece can reach the hole on the next move, and
/// more if no opposing piece can step onto it first; and whether that is so (only a mill of
/// the opponent's own stops it then).
fn threat(pos: &Position, s: u8, line: u32, hole: u32, w: &Weights) -> (i32, bool) {
    let h = hole.trailing_zeros() as u8;
    let own = pos.board(s) & !line;
    let reach = if pos.flies(s) {
        own
    } else {
        own & pos.adjacent(h)
    };
    if reach == 0 {
        return (0, false);
    }
    // A flying opponent can block any point.
    if pos.flies(1 - s) || pos.adjacent(h) & pos.board(1 - s) != 0 {
        (w.closable, false)
    } else {
        (w.closable + w.unblockable, true)
    }
}

/// The strongest level's searcher and the rules it has searched under.
static KEPT: Mutex<Option<(MorrisRules, Searcher)>> = Mutex::new(None);

/// The stop flag of the think that has [`KEPT`], while it has it.
static KEPT_BY: Mutex<Option<Arc<AtomicBool>>> = Mutex::new(None);

/// How long a think waits for [`KEPT`] from a think told to stop. A stopped think lets go within
/// milliseconds; the one after it (an undo, then the computer's turn again) keeps what the table
/// holds instead of filling a second one of 64 MB for that move.
const GIVEN_BACK_WITHIN: Duration = Duration::from_millis(500);

/// `kept` once it is free: at once, or after waiting up to `within` while its holder's flag in
/// `by` says it is stopping. `None` while a think that goes on has it (another game thought about
/// at the same time, in tests and matches), or when the holder does not let go in time.
fn given_back<'a, T>(
    kept: &'a Mutex<T>,
    by: &Mutex<Option<Arc<AtomicBool>>>,
    within: Duration,
) -> Option<std::sync::MutexGuard<'a, T>> {
    let end = Instant::now() + within;
    loop {
        match kept.try_lock() {
            Ok(k) => return Some(k),
            Err(TryLockError::Poisoned(p)) => return Some(p.into_inner()),
            Err(TryLockError::WouldBlock) => {
                let stopping = by
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed));
                if !stopping || Instant::now() >= end {
                    return None;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

/// Says whose [`KEPT`] is while it lives (the flag is let go of when the think ends, even in a
/// panic: the app counts the thinks under way by their flags).
struct KeptBy;

impl KeptBy {
    fn new(stop: Option<Arc<AtomicBool>>) -> KeptBy {
        *KEPT_BY.lock().unwrap_or_else(|p| p.into_inner()) = stop;
        KeptBy
    }
}

impl Drop for KeptBy {
    fn drop(&mut self) {
        *KEPT_BY.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

/// The computer's levels, from 1 (a beginner who makes human mistakes) to 5 (the strongest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level(u8);

/// The levels there are.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=5;

impl Level {
    /// A level from 1 to 5.
    pub fn new(n: u8) -> Option<Level> {
        LEVELS.contains(&n).then_some(Level(n))
    }

    /// Its number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Whether this level keeps its searcher (and so its table) from one move to the next, or
    /// starts each move with a new one.
    pub fn keeps_table(self) -> bool {
        self.0 == 5
    }

    /// The searcher this level thinks with: a small table for the levels that look a few turns
    /// ahead, a larger one for level 4, and for level 5 the largest, the quiescence search,
    /// the middle game's weights ([`STRONG`]), the reductions of late quiet tokens (the
    /// depth they save is what holds the middle game: docs/performance.md) and the paired
    /// table, which keeps what a deep search found beside the positions of the moment.
    pub fn searcher(self) -> Searcher {
        match self.0 {
            1..=3 => Searcher::new(12),
            4 => Searcher::new(18),
            _ => Searcher::new(22)
                .with_quiescence(true)
                .with_weights(STRONG)
                .with_reductions(true)
                .with_two_tier(true),
        }
    }

    /// The time this level takes for a move in the app (`None`: levels 1 to 3 look a fixed
    /// number of turns ahead and answer at once). The strongest level thinks longer while
    /// pieces are placed: most games are decided by the shape the board has when the moving
    /// starts.
    pub fn own_time(self, pos: &Position) -> Option<Duration> {
        match self.0 {
            1..=3 => None,
            4 => Some(Duration::from_millis(400)),
            _ if !pos.is_moving() => Some(Duration::from_millis(2500)),
            _ => Some(Duration::from_millis(1500)),
        }
    }

    /// The limits this level searches with when it may take `time`: level 4 looks at most 6
    /// turns ahead; level 5 may think up to three times as long when its best token's score
    /// falls, as that is when a game it could hold is lost.
    pub fn limits(self, time: Option<Duration>, stop: Option<Arc<AtomicBool>>) -> Limits {
        Limits {
            depth: if self.0 == 4 { 6 } else { 64 },
            time,
            extra: time.filter(|_| self.0 == 5).map(|t| t * 2),
            stop,
            nodes: None,
        }
    }

    /// Thinks as this level with `searcher` (one from [`Level::searcher`]) within `limits`
    /// (from [`Level::limits`]). Levels 1 to 3 score every token at their fixed depth with
    /// a fresh table, then add their noise or play a careless random token (from `seed`):
    /// the limits do not change them. Levels 4 and 5 search within the limits.
    pub fn think(
        self,
        searcher: &mut Searcher,
        pos: &Position,
        history: &Repetitions,
        seed: u64,
        limits: &Limits,
    ) -> Report {
        let start = Instant::now();
        let tokens = pos.tokens();
        let mut rng = Rng::new(seed ^ pos.search_key());
        // (depth, noise in hundredths, chance in % of a careless random move)
        let (depth, noise, careless) = match self.0 {
            1 => (1, 120, 35),
            2 => (2, 40, 10),
            3 => (3, 0, 0),
            _ => return searcher.search(pos, history, limits),
        };
        let mut report = Report {
            best: None,
            score: 0,
            depth,
            nodes: 0,
            fell: false,
            elapsed: Duration::ZERO,
        };
        if tokens.is_empty() {
            report.depth = 0;
        } else if rng.below(100) < careless {
            report.best = Some(tokens.as_slice()[rng.below(tokens.len() as u64) as usize]);
            report.depth = 0;
        } else {
            let noisy = searcher
                .score_all(pos, history, depth)
                .into_iter()
                .map(|(t, v)| (t, v + rng.below(2 * noise as u64 + 1) as i32 - noise))
                .max_by_key(|&(_, v)| v);
            report.best = noisy.map(|(t, _)| t);
            report.score = noisy.map_or(0, |(_, v)| v);
            report.nodes = searcher.nodes;
        }
        report.elapsed = start.elapsed();
        report
    }

    /// Picks a token for the side to act as the app does, on the level's own time;
    /// `seed` makes the weaker levels' mistakes replayable; `stop` interrupts the thinking
    /// (the best token found so far is returned).
    pub fn choose(
        self,
        pos: &Position,
        history: &Repetitions,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
    ) -> Option<Token> {
        if pos.tokens().is_empty() {
            return None;
        }
        let limits = self.limits(self.own_time(pos), stop.clone());
        if !self.keeps_table() {
            return self
                .think(&mut self.searcher(), pos, history, seed, &limits)
                .best;
        }
        // The strongest level keeps its table between moves: what it looked at a move ago is
        // most of what it looks at now. Another game thought about at the same time (tests,
        // matches) gets a table of its own; a think told to stop is waited for.
        let Some(mut kept) = given_back(&KEPT, &KEPT_BY, GIVEN_BACK_WITHIN) else {
            return self
                .think(&mut self.searcher(), pos, history, seed, &limits)
                .best;
        };
        let _by = KeptBy::new(stop);
        if !matches!(&*kept, Some((rules, _)) if rules == pos.rules()) {
            *kept = Some((*pos.rules(), self.searcher()));
        }
        let (_, searcher) = kept.as_mut().expect("set just above");
        let best = self.think(searcher, pos, history, seed, &limits).best;
        // Free before its holder's flag goes, so that no one waiting takes it for a think
        // that goes on.
        drop(kept);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::point;
    use super::super::rules::SameMill;
    use super::*;

    /// A position come again is scored as a draw only where the rules make repetition one: the
    /// search scored it so whatever the rule, and without it (0) steered into cycles it took
    /// for draws, or away from a win that passed through one.
    #[test]
    fn a_position_come_again_is_a_draw_only_under_the_repetition_rule() {
        let mut scores = Vec::new();
        for repetition in [3, 2, 0] {
            let rules = MorrisRules {
                repetition,
                ..MorrisRules::default()
            };
            let start =
                super::super::fen::read(rules, "a1,b4,d3,f2,g7/a7,d6,e4,g1 w 0/0 0 0").unwrap();
            // White and Black each go and come back: the start again, White to act.
            let mut path = Repetitions::default();
            let mut pos = start;
            for t in ["b4-b2", "e4-e3", "b2-b4", "e3-e4"] {
                pos = pos.after(Token::parse(t).unwrap());
                path.push(Token::parse(t).unwrap(), &pos);
            }
            assert_eq!(pos.key(), start.key());
            let mut s = Searcher::new(14);
            s.path = path;
            s.judge_for(pos.turn());
            let again = Token::parse("b4-b2").unwrap();
            scores.push(s.child(&pos, again, 0, -INF, INF, 0));
        }
        assert_eq!(scores[0], 0, "a draw under the rule");
        assert_eq!(scores[1], 0, "a draw under the rule");
        assert_ne!(
            scores[2], 0,
            "without the rule the position is judged: {scores:?}"
        );
    }

    /// Random games under `rules`, every position of which is judged twice by `s` (with more
    /// positions than it remembers, so entries are replaced), each time against the
    /// evaluation itself.
    fn judged_as_evaluated(s: &mut Searcher, rules: MorrisRules, seed: u64) -> usize {
        let mut rng = Rng::new(seed);
        let mut seen = 0;
        for _ in 0..60 {
            let mut pos = Position::start(rules);
            s.judge_for(pos.turn());
            while pos.outcome().is_none() && pos.quiet() < 60 {
                for _ in 0..2 {
                    assert_eq!(s.judge(&pos), evaluate_with(&pos, &STRONG), "{pos:?}");
                }
                seen += 1;
                let tokens = pos.tokens();
                let all = tokens.as_slice();
                pos = pos.after(all[rng.below(all.len() as u64) as usize]);
            }
        }
        seen
    }

    #[test]
    fn a_remembered_judgement_is_the_evaluation() {
        let mut s = Searcher::new(16).with_weights(STRONG);
        assert_eq!(s.judged.len(), 1 << JUDGED_BITS);
        let plain = MorrisRules::default();
        let seen = judged_as_evaluated(&mut s, plain, 7);
        assert!(seen > s.judged.len() / 4, "only {seen} positions");
        // A small searcher remembers as many positions as its table holds, down to one.
        for bits in [0, 4] {
            let mut small = Searcher::new(bits).with_weights(STRONG);
            assert_eq!(small.judged.len(), 1 << bits);
            judged_as_evaluated(&mut small, plain, 9);
        }
        // A board judged under some rules is judged afresh under others (here the lines on
        // the diagonals make a1 and b2 half a mill): a new search forgets what the last one
        // judged, since the keys do not hold the rules.
        let diagonals = MorrisRules {
            diagonals: true,
            flying: false,
            same_mill: SameMill::Once,
            ..plain
        };
        let board = |rules| {
            ["a1", "d1", "b2"]
                .iter()
                .fold(Position::start(rules), |p, n| {
                    p.after(Token::Place(point(n).unwrap()))
                })
        };
        let (a, b) = (board(plain), board(diagonals));
        assert_eq!(a.search_key(), b.search_key());
        assert_ne!(evaluate_with(&a, &STRONG), evaluate_with(&b, &STRONG));
        s.judge_for(a.turn());
        assert_eq!(s.judge(&a), evaluate_with(&a, &STRONG));
        s.judge_for(b.turn());
        assert_eq!(s.judge(&b), evaluate_with(&b, &STRONG));
        judged_as_evaluated(&mut s, diagonals, 8);
        judged_as_evaluated(&mut s, plain, 7);
    }

    /// A searcher of `bits` after a search of the start six turns deep and then of another
    /// position two turns deep.
    fn after_two_searches(bits: u32, two_tier: bool, aging: bool) -> Searcher {
        let mut s = Searcher::new(bits)
            .with_two_tier(two_tier)
            .with_aging(aging);
        let depth = |depth| Limits {
            depth,
            ..Limits::default()
        };
        let start = Position::start(MorrisRules::default());
        let history = Repetitions::default();
        assert!(s.search(&start, &history, &depth(6)).best.is_some());
        let near = start.after(Token::Place(point("d2").unwrap()));
        assert!(s.search(&near, &history, &depth(2)).best.is_some());
        s
    }

    /// The deepest entry in the table of `s`.
    fn deepest(s: &Searcher) -> i8 {
        s.table.iter().map(|e| e.depth).max().unwrap_or(0)
    }

    #[test]
    fn the_paired_table_keeps_a_deep_search_beside_the_near_positions() {
        // Two slots, one pair: with one slot a position the second search's shallow entries
        // take both; paired, the first slot keeps the deep search's deepest (depth 5, a
        // token of the root's), and the second takes the rest.
        assert_eq!(deepest(&after_two_searches(1, true, false)), 5);
        assert!(deepest(&after_two_searches(1, false, false)) <= 1);
        // Level 5 thinks with the paired table.
        assert!(Level::new(5).expect("level 5").searcher().two_tier);
    }

    #[test]
    fn an_aged_table_gives_the_first_slot_to_the_present_search() {
        // The same two searches: with the age, the second search's entries take the pair's
        // first slot from the first search's deeper one; without, it keeps it.
        assert!(after_two_searches(1, true, true).table[0].depth <= 1);
        assert_eq!(after_two_searches(1, true, false).table[0].depth, 5);
        // A later search as deep as the first takes the first slot back with its own
        // deepest entry.
        let mut s = Searcher::new(1).with_two_tier(true).with_aging(true);
        let start = Position::start(MorrisRules::default());
        let history = Repetitions::default();
        for _ in 0..2 {
            let limits = Limits {
                depth: 6,
                ..Limits::default()
            };
            assert!(s.search(&start, &history, &limits).best.is_some());
            assert_eq!(s.table[0].depth, 5);
        }
    }

    /// The position after the placements `names` (White first), by their points' names.
    fn placed(names: &[&str]) -> Position {
        names
            .iter()
            .fold(Position::start(MorrisRules::default()), |p, n| {
                p.after(Token::Place(point(n).unwrap()))
            })
    }

    /// The cut by the judgement alone (`with_futility`) waits where the opponent threatens a
    /// mill (unless its margin is below 0) or a removal is owed, and leaves a mill to close
    /// found; no level uses it.
    #[test]
    fn the_cut_by_the_judgement_alone_waits_for_a_threat_and_keeps_a_mill() {
        // Black (b2, b4) threatens b6; after (b2, f6) it threatens nothing. White to act.
        let threatened = placed(&["a1", "b2", "d7", "b4"]);
        let quiet = placed(&["a1", "b2", "d7", "f6"]);
        let careful = Searcher::new(10).with_futility(50);
        assert!(!careful.futile(&threatened));
        assert!(careful.futile(&quiet));
        assert!(Searcher::new(10).with_futility(-50).futile(&threatened));
        // A removal owed is never cut.
        let closing = placed(&["a1", "b2", "a4", "f6"]).after(Token::Place(point("a7").unwrap()));
        assert!(closing.pending() > 0);
        assert!(!Searcher::new(10).with_futility(-50).futile(&closing));
        // White (a1, a4) can close a1-a4-a7 now, or place b4 for a second threat Black cannot
        // also stop: either form plays what the search without it plays, one of the two.
        let open = placed(&["a1", "b2", "a4", "f6"]);
        let best: Vec<Option<Token>> = [0, 50, -50]
            .iter()
            .map(|&margin| {
                Searcher::new(16)
                    .with_weights(STRONG)
                    .with_quiescence(true)
                    .with_futility(margin)
                    .search(
                        &open,
                        &Repetitions::default(),
                        &Limits {
                            depth: 6,
                            ..Limits::default()
                        },
                    )
                    .best
            })
            .collect();
        assert!(
            [Token::parse("a7"), Token::parse("b4")].contains(&best[0]),
            "{best:?}"
        );
        assert_eq!(best, [best[0]; 3]);
        // No level cuts so.
        for level in 1..=5 {
            assert_eq!(Level::new(level).unwrap().searcher().futility, 0);
        }
    }

    /// A shape is a point's kind and the pieces around it, counted the same for both sides,
    /// while placing apart from once placed; and a table of shapes adds to the judgement.
    #[test]
    fn shapes_count_each_point_by_its_neighbours() {
        let list = |pos: &Position, s: u8| {
            let mut v = Vec::new();
            shapes(pos, s, |i| v.push(i));
            v.sort_unstable();
            v
        };
        // At the start, 24 empty points: 12 corners of two neighbours, 8 points of three
        // and 4 of four, none with a piece next to them.
        let start = Position::start(MorrisRules::default());
        let empty = |n: usize, own: usize, theirs: usize| 125 + 25 * n + 5 * own + theirs;
        let mut expected = [
            vec![empty(2, 0, 0); 12],
            vec![empty(3, 0, 0); 8],
            vec![empty(4, 0, 0); 4],
        ]
        .concat();
        expected.sort_unstable();
        assert_eq!(list(&start, 0), expected);
        assert_eq!(list(&start, 1), expected);
        // White on d2 (four neighbours), Black on d1 (three): for White, d2 is a piece with one
        // opposing neighbour, d1 is not counted; for Black, d1 is a piece with one.
        let pos = placed(&["d2", "d1"]);
        let white = list(&pos, 0);
        let black = list(&pos, 1);
        assert_eq!(white.len(), 23);
        assert!(white.contains(&(25 * 4 + 1)));
        assert!(black.contains(&(25 * 3 + 1)));
        // a1 (empty, two neighbours: d1 and a4) sees one Black neighbour: own for Black.
        assert!(white.contains(&empty(2, 0, 1)));
        assert!(black.contains(&empty(2, 1, 0)));
        // A table of shapes (read as `fit --shapes` writes it) adds its values for the side
        // to act and takes the other's.
        let mut text = vec!["0"; SHAPES];
        text[25 * 4 + 1] = "7";
        assert!(shapes_from_text(&text[1..].join(",")).is_none());
        assert!(shapes_from_text(&format!("{},x", text[1..].join(","))).is_none());
        let table: &'static [i32; SHAPES] =
            Box::leak(shapes_from_text(&format!("{}\n", text.join(","))).unwrap());
        let with = Weights {
            shapes: Some(table),
            ..STRONG
        };
        assert_eq!(pos.turn(), 0);
        assert_eq!(evaluate_with(&pos, &with), evaluate_with(&pos, &STRONG) + 7);
        // Once placed the same shape is another entry, so a placing's table does not count.
        let mask = |names: &[&str]| names.iter().fold(0, |m, n| m | 1 << point(n).unwrap());
        let moving = Position::moving(
            MorrisRules::default(),
            [
                mask(&["d2", "a1", "g7", "b4"]),
                mask(&["d1", "a7", "g1", "f4"]),
            ],
            0,
        )
        .expect("four pieces each, apart");
        let shape = list(&moving, 0);
        assert_eq!(shape.len(), 4 + 16);
        assert!(shape.iter().all(|&i| i >= 250));
        assert!(shape.contains(&(250 + 25 * 4 + 1)));
        assert_eq!(
            evaluate_with(&moving, &with),
            evaluate_with(&moving, &STRONG)
        );
    }

    /// The kept searcher is waited for while the think that has it was told to stop (it lets
    /// go within milliseconds, and the next think keeps the table), not while that think goes
    /// on (another game's), and not past the time given.
    #[test]
    fn a_kept_searcher_is_waited_for_only_from_a_think_told_to_stop() {
        use std::sync::mpsc;
        let kept = Arc::new(Mutex::new(7u32));
        let by: Arc<Mutex<Option<Arc<AtomicBool>>>> = Arc::new(Mutex::new(None));
        // Held by a think that goes on: taken fresh at once.
        let (held, hold_until) = (mpsc::channel::<()>(), mpsc::channel::<()>());
        let holder = {
            let (kept, by) = (kept.clone(), by.clone());
            let (told, until) = (held.0, hold_until.1);
            std::thread::spawn(move || {
                let k = kept.lock().unwrap();
                *by.lock().unwrap() = Some(Arc::new(AtomicBool::new(false)));
                told.send(()).unwrap();
                until.recv().unwrap();
                // As `choose` does: free first, then the flag.
                drop(k);
                *by.lock().unwrap() = None;
            })
        };
        held.1.recv().unwrap();
        let asked = Instant::now();
        assert!(given_back(&kept, &by, Duration::from_secs(5)).is_none());
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "{:?}",
            asked.elapsed()
        );
        // Told to stop and letting go after 50 ms: waited for.
        let stop = by.lock().unwrap().clone().unwrap();
        stop.store(true, Ordering::Relaxed);
        let releases = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            hold_until.0.send(()).unwrap();
        });
        let got = given_back(&kept, &by, Duration::from_secs(5));
        assert_eq!(got.as_deref(), Some(&7));
        drop(got);
        holder.join().unwrap();
        releases.join().unwrap();
        // Told to stop and never letting go: given up after the time given.
        let _k = kept.lock().unwrap();
        *by.lock().unwrap() = Some(Arc::new(AtomicBool::new(true)));
        let asked = Instant::now();
        std::thread::scope(|s| {
            let waited = s.spawn(|| {
                (
                    given_back(&kept, &by, Duration::from_millis(100)).is_none(),
                    asked.elapsed(),
                )
            });
            let (none, after) = waited.join().unwrap();
            assert!(none);
            assert!(after >= Duration::from_millis(100), "{after:?}");
        });
    }
}
