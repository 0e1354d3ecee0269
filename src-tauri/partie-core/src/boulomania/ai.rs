//! The computer player: before a roll it picks what to do (point with two or three dice, shoot
//! a ball, shoot the jack) by its expected value over every roll; after the roll it picks the
//! best of the choices the roll opens. The easier level picks what to do at random among
//! sensible moves and takes the first choice offered.

use super::action::Action;
use super::game::Boulomania;
use crate::rng::Rng;

/// What to do before the dice are rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Point with this many dice (2 or 3).
    Point(u8),
    /// Shoot the ball on this square.
    Shoot(u8),
    /// Shoot the jack.
    ShootJack,
}

impl Plan {
    /// The action once the dice are known.
    pub fn with_dice(self, dice: &[u8]) -> Action {
        match self {
            Plan::Point(_) => Action::Point {
                dice: dice.to_vec(),
                to: None,
                via: Default::default(),
            },
            Plan::Shoot(t) => Action::Shoot {
                target: t,
                die: dice[0],
                via: Default::default(),
            },
            Plan::ShootJack => Action::ShootJack(dice[0]),
        }
    }

    /// How many dice it rolls.
    pub fn dice(self) -> usize {
        match self {
            Plan::Point(n) => n as usize,
            _ => 1,
        }
    }
}

/// How good `g` is for `side`, in mène points: a finished mène counts what it scored (and a
/// won game a lot); otherwise the balls that score now, and a little for balls kept in hand.
fn value(before: &Boulomania, g: &Boulomania, side: u8) -> f64 {
    let sign = |s: u8| if s == side { 1.0 } else { -1.0 };
    if let Some(w) = g.winner() {
        return 100.0 * sign(w);
    }
    if g.mene() != before.mene() {
        let gained = [
            g.scores()[0] - before.scores()[0],
            g.scores()[1] - before.scores()[1],
        ];
        return gained[side as usize] as f64 - gained[1 - side as usize] as f64;
    }
    let hold = match g.holder() {
        Some(h) => sign(h) * g.scoring_now() as f64,
        None => 0.0,
    };
    let hands = g.in_hand();
    hold + 0.35 * (hands[side as usize] as f64 - hands[1 - side as usize] as f64)
}

/// The best choice after a roll, with its value.
pub fn best_choice(g: &Boulomania, rolled: &Action) -> Option<(Action, f64)> {
    let side = g.turn();
    g.outcomes(rolled)
        .into_iter()
        .map(|(a, next)| {
            let v = value(g, &next, side);
            (a, v)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// Every roll of `n` dice that matters, with its probability: two dice by unordered pair
/// (doubles matter), three dice by total.
fn rolls(n: usize) -> Vec<(Vec<u8>, f64)> {
    let mut out: Vec<(Vec<u8>, f64)> = Vec::new();
    match n {
        1 => (1..=6).for_each(|d| out.push((vec![d], 1.0 / 6.0))),
        2 => {
            for a in 1..=6u8 {
                for b in a..=6u8 {
                    out.push((vec![a, b], if a == b { 1.0 } else { 2.0 } / 36.0));
                }
            }
        }
        _ => {
            let mut by_sum = [0u32; 19];
            for a in 1..=6 {
                for b in 1..=6 {
                    for c in 1..=6 {
                        by_sum[a + b + c] += 1;
                    }
                }
            }
            for (sum, &k) in by_sum.iter().enumerate().filter(|(_, &k)| k > 0) {
                // Any three dice with this total and no role for doubles: 1s first, then the rest.
                let s = sum as u8;
                let first = (s - 2).clamp(1, 6);
                let rest = s - first;
                let second = (rest - 1).clamp(1, 6);
                out.push((vec![first, second, rest - second], k as f64 / 216.0));
            }
        }
    }
    out
}

/// The plans open to the side to act.
pub fn plans(g: &Boulomania) -> Vec<Plan> {
    let mut v = vec![Plan::Point(2), Plan::Point(3)];
    if g.first_ball_thrown() {
        v.extend(
            g.field()
                .iter()
                .filter(|(_, &s)| s != g.turn())
                .map(|(&q, _)| Plan::Shoot(q)),
        );
        v.push(Plan::ShootJack);
    }
    v
}

/// The expected value of a plan over every roll.
pub fn expected(g: &Boulomania, plan: Plan) -> f64 {
    rolls(plan.dice())
        .into_iter()
        .map(|(dice, p)| p * best_choice(g, &plan.with_dice(&dice)).map_or(-50.0, |(_, v)| v))
        .sum()
}

/// The computer's plan at `level` (1: easier, 2: expected value).
pub fn plan(g: &Boulomania, level: u8, rng: &mut Rng) -> Plan {
    let options = plans(g);
    if level <= 1 {
        // A casual player: mostly points, sometimes shoots whatever is there.
        let shots: Vec<Plan> = options
            .iter()
            .copied()
            .filter(|p| matches!(p, Plan::Shoot(_)))
            .collect();
        if !shots.is_empty() && rng.below(4) == 0 {
            return shots[rng.below(shots.len() as u64) as usize];
        }
        return Plan::Point(2 + rng.below(2) as u8);
    }
    options
        .into_iter()
        .map(|p| (p, expected(g, p)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(p, _)| p)
        .unwrap_or(Plan::Point(2))
}

/// The computer's whole turn with dice from `rng`: the jack roll, or a plan, its roll and the
/// best choice (the first offered at level 1).
pub fn play_turn(g: &Boulomania, level: u8, rng: &mut Rng) -> Action {
    let die = |rng: &mut Rng| 1 + rng.below(6) as u8;
    if g.jack_due() {
        return Action::Jack(die(rng));
    }
    let p = plan(g, level, rng);
    let dice: Vec<u8> = (0..p.dice()).map(|_| die(rng)).collect();
    let rolled = p.with_dice(&dice);
    if level <= 1 {
        return g
            .outcomes(&rolled)
            .into_iter()
            .next()
            .map(|(a, _)| a)
            .unwrap_or(rolled);
    }
    best_choice(g, &rolled).map(|(a, _)| a).unwrap_or(rolled)
}
