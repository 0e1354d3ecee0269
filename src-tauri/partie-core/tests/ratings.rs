//! Ratings (issue 19): small cases worked out by hand and against the library's published
//! examples, the order of matches (what must not matter and what must), and the store: a merge,
//! an import, a delete or an undo gives the same ratings as a fresh database holding the same
//! matches, the cache included.

use partie_core::game::places_from_ranking;
use partie_core::ratings::{
    seed_order, weng_lin_per_point, RatedMatch, Rating, Ratings, System, PROVISIONAL_BELOW,
};
use partie_core::store::Store;
use partie_core::time::iso;
use proptest::prelude::*;
use serde_json::{json, Value};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};
use std::f64::consts::PI;

fn m(uid: &str, at: i64, sides: &[&[i64]], places: &[u32]) -> RatedMatch {
    RatedMatch {
        uid: uid.into(),
        finished_at: at,
        sides: sides.iter().map(|s| s.to_vec()).collect(),
        places: places.to_vec(),
    }
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

// ---- Glicko-2 -------------------------------------------------------------------------------

#[test]
fn a_first_single_match_gives_the_librarys_published_glicko2_example() {
    // skillratings' own example for glicko2(): two new players, one wins: 1662 ± 290 and
    // 1338 ± 290, volatility 0.05999967537233814.
    let r = Ratings::compute(vec![m("a", 1, &[&[1], &[2]], &[1, 2])]);
    let (a, b) = (r.rating(1).unwrap(), r.rating(2).unwrap());
    assert_eq!((a.rating.round(), a.deviation.round()), (1662.0, 290.0));
    assert_eq!((b.rating.round(), b.deviation.round()), (1338.0, 290.0));
    assert!(close(a.volatility, 0.059_999_675_372_338_14, 1e-15));
    assert_eq!(r.history(1)[0].system, System::Glicko2);
    assert!(close(r.history(1)[0].change, a.rating - 1500.0, 1e-9));
    // A draw between equals moves nobody's rating, only the deviations.
    let d = Ratings::compute(vec![m("d", 1, &[&[1], &[2]], &[1, 1])]);
    assert!(close(d.rating(1).unwrap().rating, 1500.0, 1e-9));
    assert!(d.rating(1).unwrap().deviation < 350.0);
}

/// One Glicko-2 step as Glickman's paper writes it (steps 3 to 8), the volatility taken as
/// unchanged (with τ = 0.5 it moves by under 1e-6, which moves the rating by far less than
/// the tolerance below).
fn glicko2_by_hand(me: (f64, f64), them: (f64, f64), score: f64) -> (f64, f64) {
    let s = 173.7178;
    let (mu, phi) = ((me.0 - 1500.0) / s, me.1 / s);
    let (mu_j, phi_j) = ((them.0 - 1500.0) / s, them.1 / s);
    let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (PI * PI)).sqrt();
    let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
    let v = 1.0 / (g * g * e * (1.0 - e));
    let phi_star = (phi * phi + 0.06 * 0.06).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * g * (score - e);
    (1500.0 + s * mu_new, s * phi_new)
}

#[test]
fn glicko2_rates_each_match_in_turn_as_worked_by_hand() {
    // Anna (1) beats Bea (2), then loses to Cleo (3), then draws with Bea.
    let r = Ratings::compute(vec![
        m("x3", 30, &[&[2], &[1]], &[1, 1]),
        m("x1", 10, &[&[1], &[2]], &[1, 2]),
        m("x2", 20, &[&[3], &[1]], &[1, 2]),
    ]);
    let start = (1500.0, 350.0);
    let anna1 = glicko2_by_hand(start, start, 1.0);
    let bea1 = glicko2_by_hand(start, start, 0.0);
    let anna2 = glicko2_by_hand(anna1, start, 0.0);
    let cleo = glicko2_by_hand(start, anna1, 1.0);
    let anna3 = glicko2_by_hand(anna2, bea1, 0.5);
    let bea3 = glicko2_by_hand(bea1, anna2, 0.5);
    let got = |p| {
        let x = r.rating(p).unwrap();
        (x.rating, x.deviation)
    };
    for (p, want) in [(1, anna3), (2, bea3), (3, cleo)] {
        let have = got(p);
        assert!(
            close(have.0, want.0, 1e-3) && close(have.1, want.1, 1e-3),
            "player {p}: {have:?}, by hand {want:?}"
        );
    }
    let chart: Vec<f64> = r.history(1).iter().map(|p| p.rating).collect();
    assert!(close(chart[0], anna1.0, 1e-3) && close(chart[1], anna2.0, 1e-3));
    assert_eq!(r.history(1)[2].finished_at, 30);
}

#[test]
fn the_library_reproduces_glickmans_published_example() {
    // Glickman, "Example of the Glicko-2 system": 1500 ± 200 (σ 0.06) beats 1400 ± 30, loses
    // to 1550 ± 100 and 1700 ± 300 in one period: 1464.06 ± 151.52, σ 0.05999.
    let me = Glicko2Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let opp = |rating, deviation| Glicko2Rating {
        rating,
        deviation,
        volatility: 0.06,
    };
    let new = glicko2_rating_period(
        &me,
        &[
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ],
        &Glicko2Config::new(),
    );
    assert!(close(new.rating, 1464.06, 0.01), "{new:?}");
    assert!(close(new.deviation, 151.52, 0.01), "{new:?}");
    assert!(close(new.volatility, 0.05999, 0.00001), "{new:?}");
}

// ---- Weng-Lin -------------------------------------------------------------------------------

/// The Weng-Lin scale for a new player: σ² in Weng-Lin units, β, and Weng-Lin units per
/// Glicko-2 point.
fn weng_lin_start() -> (f64, f64, f64) {
    let beta = 25.0 / 6.0;
    let k = 2f64.sqrt() * beta / 173.7178;
    ((350.0 * k) * (350.0 * k), beta, k)
}

#[test]
fn three_new_players_move_as_weng_lin_worked_by_hand() {
    // Weng & Lin's algorithm 1 (Bradley-Terry, full pairing) for three equal players: each
    // pair has c = √(2σ² + 2β²) and p = ½; the winner gains σ²/c (two wins of ½), the second
    // nothing, the last loses σ²/c; every σ² shrinks by the factor 1 − 2·(σ/c)·(σ²/c²)·¼.
    let (s2, beta, k) = weng_lin_start();
    assert!(close(k, weng_lin_per_point(&WengLinConfig::new()), 1e-12));
    let c = (2.0 * s2 + 2.0 * beta * beta).sqrt();
    let gain = s2 / c / k;
    let shrink = 1.0 - 2.0 * (s2.sqrt() / c) * (s2 / (c * c)) * 0.25;
    let deviation = (s2 * shrink).sqrt() / k;
    // About 233.5 points and 323.0 of deviation.
    assert!(close(gain, 233.5, 0.1) && close(deviation, 323.0, 0.1));
    let r = Ratings::compute(vec![m("3", 5, &[&[7], &[8], &[9]], &[2, 1, 3])]);
    for (p, want) in [(8, 1500.0 + gain), (7, 1500.0), (9, 1500.0 - gain)] {
        let x = r.rating(p).unwrap();
        assert!(close(x.rating, want, 1e-9), "player {p}: {x:?}");
        assert!(close(x.deviation, deviation, 1e-9), "player {p}: {x:?}");
        assert!(
            close(x.volatility, 0.06, 0.0),
            "Weng-Lin leaves the volatility"
        );
    }
    assert_eq!(r.history(8)[0].system, System::WengLin);
}

#[test]
fn tied_places_are_a_draw_between_those_sides() {
    // First alone, two sides tied second: by hand, the tied pair lose σ²/c·½ each.
    let (s2, beta, k) = weng_lin_start();
    let c = (2.0 * s2 + 2.0 * beta * beta).sqrt();
    let r = Ratings::compute(vec![m("t", 5, &[&[1], &[2], &[3]], &[1, 2, 2])]);
    let (a, b, d) = (
        r.rating(1).unwrap().rating,
        r.rating(2).unwrap().rating,
        r.rating(3).unwrap().rating,
    );
    assert!(close(a, 1500.0 + s2 / c / k, 1e-9));
    assert!(close(b, 1500.0 - s2 / c / k / 2.0, 1e-9) && close(b, d, 1e-9));
}

#[test]
fn each_member_of_a_team_moves() {
    // Two new pairs: team σ² = 2σ², c = √(4σ² + 2β²); the team's Ω = 2σ²/c·½ and each member
    // takes σ²/(2σ²) of it: σ²/(2c).
    let (s2, beta, k) = weng_lin_start();
    let c = (4.0 * s2 + 2.0 * beta * beta).sqrt();
    let gain = s2 / (2.0 * c) / k;
    let r = Ratings::compute(vec![m("t", 5, &[&[1, 2], &[3, 4]], &[2, 1])]);
    for (p, want) in [
        (1, 1500.0 - gain),
        (2, 1500.0 - gain),
        (3, 1500.0 + gain),
        (4, 1500.0 + gain),
    ] {
        assert!(close(r.rating(p).unwrap().rating, want, 1e-9), "player {p}");
        assert_eq!(r.history(p)[0].system, System::WengLin);
    }
    // One against two is a team match too (Weng-Lin), not Glicko-2.
    let r = Ratings::compute(vec![m("u", 5, &[&[1], &[3, 4]], &[1, 2])]);
    assert_eq!(r.history(1)[0].system, System::WengLin);
}

#[test]
fn the_library_reproduces_its_published_weng_lin_example() {
    // skillratings' example for weng_lin_multi_team(): three teams of three, places 2, 1, 3.
    let w = |rating, uncertainty| WengLinRating {
        rating,
        uncertainty,
    };
    let one = [WengLinRating::new(), w(30.0, 1.2), w(21.0, 6.5)];
    let two = [WengLinRating::new(), w(41.0, 1.4), w(19.2, 4.3)];
    let three = [WengLinRating::new(), w(29.4, 1.6), w(17.2, 2.1)];
    let new = weng_lin_multi_team(
        &[
            (&one[..], MultiTeamOutcome::new(2)),
            (&two[..], MultiTeamOutcome::new(1)),
            (&three[..], MultiTeamOutcome::new(3)),
        ],
        &WengLinConfig::new(),
    );
    let hundredths: Vec<Vec<f64>> = new
        .iter()
        .map(|t| t.iter().map(|p| (p.rating * 100.0).round()).collect())
        .collect();
    assert_eq!(
        hundredths,
        vec![
            vec![2538.0, 3001.0, 2123.0],
            vec![2796.0, 4108.0, 1999.0],
            vec![2166.0, 2928.0, 1699.0]
        ]
    );
}

// ---- What the screens show ------------------------------------------------------------------

#[test]
fn the_expected_result_is_glicko2s_e_with_both_deviations() {
    let r = Ratings::compute(vec![
        m("1", 1, &[&[1], &[2]], &[1, 2]),
        m("2", 2, &[&[1], &[3]], &[1, 2]),
    ]);
    assert!(close(r.expected(8, 9), 0.5, 1e-12), "two unknown players");
    let (a, b) = (r.rating(1).unwrap(), r.rating(2).unwrap());
    let s = 173.7178;
    let phi = ((a.deviation / s).powi(2) + (b.deviation / s).powi(2)).sqrt();
    let g = 1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt();
    let by_hand = 1.0 / (1.0 + (-g * (a.rating - b.rating) / s).exp());
    assert!(close(r.expected(1, 2), by_hand, 1e-12));
    assert!(r.expected(1, 2) > 0.5);
    assert!(close(r.expected(1, 2) + r.expected(2, 1), 1.0, 1e-12));
}

#[test]
fn the_range_is_the_95_percent_interval_and_few_matches_are_provisional() {
    let mut list = Vec::new();
    for i in 0..PROVISIONAL_BELOW as i64 {
        // Anna (1) wins her first match and loses the others.
        let places: &[u32] = if i == 0 { &[1, 2] } else { &[2, 1] };
        list.push(m(&format!("{i}"), i, &[&[1], &[2 + i]], places));
    }
    let r = Ratings::compute(list[..list.len() - 1].to_vec());
    let p = r.player(1).unwrap();
    assert!(p.provisional && p.matches == PROVISIONAL_BELOW - 1);
    let r = Ratings::compute(list);
    let p = r.player(1).unwrap();
    assert!(!p.provisional && p.matches == PROVISIONAL_BELOW);
    assert!(close(p.low, p.rating - 1.96 * p.deviation, 1e-9));
    assert!(close(p.high, p.rating + 1.96 * p.deviation, 1e-9));
    assert_eq!(p.last_played, PROVISIONAL_BELOW as i64 - 1);
    // The table puts the established player first although a provisional one is higher.
    let mut t = r.table();
    assert_eq!(t[0].player, 1);
    assert!(t[1..].iter().all(|x| x.provisional));
    assert!(t[1].rating > t[0].rating);
    t.remove(0);
    assert!(t.windows(2).all(|w| w[0].rating >= w[1].rating));
    assert!(r.player(99).is_none() && r.history(99).is_empty());
}

#[test]
fn ratings_at_a_time_give_the_change_over_a_night() {
    let r = Ratings::compute(vec![
        m("1", 100, &[&[1], &[2]], &[1, 2]),
        m("2", 200, &[&[1], &[3]], &[1, 2]),
        m("3", 300, &[&[1], &[4]], &[2, 1]),
    ]);
    let h = r.history(1);
    assert_eq!(r.rating_at(1, 100), None, "nothing had finished before 100");
    assert!(close(
        r.rating_at(1, 101).unwrap().rating,
        h[0].rating,
        1e-12
    ));
    assert!(close(
        r.rating_at(1, 1000).unwrap().rating,
        h[2].rating,
        1e-12
    ));
    assert!(close(
        r.change(1, 150, 1000).unwrap(),
        h[2].rating - h[0].rating,
        1e-9
    ));
    assert!(close(
        r.change(1, 150, 1000).unwrap(),
        h[1].change + h[2].change,
        1e-9
    ));
    assert!(close(
        r.change(1, 0, 150).unwrap(),
        h[0].rating - 1500.0,
        1e-9
    ));
    assert_eq!(r.change(1, 400, 500), Some(0.0));
    assert_eq!(r.change(4, 0, 250), None, "Dan had not played by then");
}

#[test]
fn matches_that_cannot_be_rated_are_left_out() {
    let r = Ratings::compute(vec![
        // One player on both sides (two opponents merged): nothing to learn.
        m("a", 1, &[&[1], &[1]], &[1, 2]),
        m("b", 2, &[&[1, 2], &[3, 1]], &[1, 2]),
        // One side.
        m("c", 3, &[&[1]], &[1]),
        // Places that do not fit the sides.
        m("d", 4, &[&[1], &[2]], &[1]),
    ]);
    assert_eq!((r.matches_rated(), r.matches_skipped()), (0, 4));
    assert!(r.rating(1).is_none());
    // A player twice in one side counts once: a 1 v 1.
    let r = Ratings::compute(vec![m("e", 1, &[&[1, 1], &[2]], &[1, 2])]);
    assert_eq!(r.history(1)[0].system, System::Glicko2);
    assert_eq!(r.rating(1).unwrap().rating.round(), 1662.0);
}

#[test]
fn places_come_from_the_ranking_with_ties_on_equal_scores() {
    // Mölkky, four sides: side 2 won; 0 and 1 both still in at 30; 3 eliminated.
    let out = [false, false, false, true];
    let places = places_from_ranking(&[2, 0, 1, 3], Some(2), &[30, 30, 50, 30], &out);
    assert_eq!(places, [2, 2, 1, 4]);
    // Eliminated sides are not level with each other: the later out is placed higher.
    let places = places_from_ranking(&[0, 2, 1], Some(0), &[50, 0, 0], &[false, true, true]);
    assert_eq!(places, [1, 3, 2]);
    // Crokinole, three players drawn at the top: no winner, the two best level first.
    assert_eq!(
        places_from_ranking(&[1, 2, 0], None, &[4, 8, 8], &[]),
        [3, 1, 1]
    );
}

#[test]
fn a_finished_match_of_four_sides_keeps_its_places_for_the_ratings() {
    let mut store = Store::open_in_memory().unwrap();
    let sides: Vec<Vec<String>> = ["A", "B", "C", "D"]
        .iter()
        .map(|n| vec![n.to_string()])
        .collect();
    let rules = json!({"target": 12, "three_misses": "none"})
        .as_object()
        .unwrap()
        .clone();
    let m = store.new_match("molkky", &rules, &sides).unwrap();
    // A and B both score 5, C wins with 12 before D throws.
    for pins in [json!([5]), json!([5]), json!([12])] {
        store.play(m.id, &json!({ "pins": pins })).unwrap();
    }
    let rated = store.rated_matches("molkky", None, None).unwrap();
    assert_eq!(rated.len(), 1);
    assert_eq!(rated[0].places, [2, 2, 1, 4]);
}

#[test]
fn seeding_puts_the_highest_rating_first_and_the_unrated_last_in_their_order() {
    let r = |x| {
        Some(Rating {
            rating: x,
            ..Rating::START
        })
    };
    assert_eq!(
        seed_order(&[None, r(1400.0), r(1700.0), None, r(1400.0)]),
        vec![2, 1, 4, 0, 3]
    );
    let team = Rating::mean(&[r(1600.0).unwrap(), Rating::START]).unwrap();
    assert!(close(team.rating, 1550.0, 1e-12) && close(team.deviation, 350.0, 1e-12));
    assert_eq!(Rating::mean(&[]), None);
}

// ---- The order of matches -------------------------------------------------------------------

/// A random past among players 0..8, at times 0..1000 (each match a single time).
fn past() -> impl Strategy<Value = Vec<RatedMatch>> {
    prop::collection::vec(
        (
            prop::sample::subsequence((0..8i64).collect::<Vec<_>>(), 2..=4),
            any::<prop::sample::Index>(),
        ),
        0..12,
    )
    .prop_map(|list| {
        list.into_iter()
            .enumerate()
            .map(|(i, (players, winner))| {
                let w = winner.index(players.len());
                RatedMatch {
                    uid: format!("past-{i:03}"),
                    finished_at: i as i64 * 10,
                    places: (0..players.len())
                        .map(|s| if s == w { 1 } else { 2 })
                        .collect(),
                    sides: players.into_iter().map(|p| vec![p]).collect(),
                }
            })
            .collect()
    })
}

fn same(a: &Ratings, b: &Ratings) -> bool {
    a.table() == b.table()
        && (0..20).all(|p| a.history(p) == b.history(p))
        && a.matches_rated() == b.matches_rated()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Matches that finished at the same instant between players who share none are rated in
    /// uid order; whatever that order, and whatever the order given, the ratings are the same.
    #[test]
    fn simultaneous_matches_of_unrelated_players_commute(
        history in past(),
        batch in prop::collection::vec((1usize..=3, any::<prop::sample::Index>(), any::<bool>()), 2..5),
        order in any::<prop::sample::Index>(),
        given in any::<prop::sample::Index>(),
    ) {
        // Disjoint players for each simultaneous match, some with a past.
        let mut next = 0i64;
        let mut simultaneous = Vec::new();
        for (n, winner, team) in &batch {
            let sides: Vec<Vec<i64>> = (0..=*n)
                .map(|_| {
                    let size = if *team { 2 } else { 1 };
                    (0..size).map(|_| { next += 1; next - 1 }).collect()
                })
                .collect();
            let w = winner.index(sides.len());
            simultaneous.push(RatedMatch {
                uid: String::new(),
                finished_at: 5_000,
                places: (0..sides.len()).map(|s| if s == w { 1 } else { 2 }).collect(),
                sides,
            });
        }
        let with_uids = |perm: &[usize]| {
            let mut list = history.clone();
            for (m, &u) in simultaneous.iter().zip(perm) {
                let mut m = m.clone();
                m.uid = format!("now-{u}");
                list.push(m);
            }
            list
        };
        let identity: Vec<usize> = (0..simultaneous.len()).collect();
        let mut shuffled = identity.clone();
        let n = shuffled.len();
        shuffled.rotate_left(order.index(n));
        shuffled.swap(0, given.index(n));
        let a = Ratings::compute(with_uids(&identity));
        let mut list = with_uids(&shuffled);
        let n = list.len();
        list.rotate_left(given.index(n));
        let b = Ratings::compute(list);
        prop_assert!(same(&a, &b));
    }

    /// Two matches of the same player, a win and a loss, in one order or the other: the
    /// player's rating depends on which came first.
    #[test]
    fn the_order_of_one_players_matches_matters(
        history in past(),
        first_a_win in any::<bool>(),
        team in any::<bool>(),
    ) {
        let (win, loss) = if first_a_win { ([1, 2], [2, 1]) } else { ([2, 1], [1, 2]) };
        let opp = |p: i64| if team { vec![p, p + 1] } else { vec![p] };
        let one = |t1: i64, t2: i64| {
            let mut list = history.clone();
            list.push(RatedMatch { uid: "m1".into(), finished_at: t1, sides: vec![vec![0], opp(20)], places: win.to_vec() });
            list.push(RatedMatch { uid: "m2".into(), finished_at: t2, sides: vec![vec![0], opp(30)], places: loss.to_vec() });
            Ratings::compute(list)
        };
        let a = one(5_000, 6_000);
        let b = one(6_000, 5_000);
        let (x, y) = (a.rating(0).unwrap().rating, b.rating(0).unwrap().rating);
        prop_assert!((x - y).abs() > 1e-6, "{x} and {y}");
    }
}

// ---- The store ------------------------------------------------------------------------------

/// A finished Mölkky match (target 10) as an exported record: the sides before the winner
/// each score 1, the winner knocks the 10 over, the sides after it score nothing.
fn record(uid: &str, at: i64, sides: &[&[&str]], winner: usize) -> Value {
    let mut actions: Vec<Value> = (0..winner)
        .map(|k| json!({"pins": [1], "at": iso(at - 1000 + k as i64)}))
        .collect();
    actions.push(json!({"pins": [10], "at": iso(at)}));
    json!({
        "format": 1, "game": "molkky", "rules": {"target": 10},
        "sides": sides, "actions": actions,
        "id": uid, "started_at": iso(at - 60_000), "finished_at": iso(at),
    })
}

fn export(list: &[Value]) -> String {
    json!({"format": 1, "matches": list}).to_string()
}

const DAY: i64 = 86_400_000;
const T0: i64 = 1_767_225_600_000; // 2026-01-01

/// Twelve matches among Anna, Bea, Bob, Robert (the same person as Bob) and Cleo: singles,
/// pairs and three-side games, two of them at the same instant.
fn club() -> Vec<Value> {
    vec![
        record("m01", T0, &[&["Anna"], &["Bea"]], 0),
        record("m02", T0 + DAY, &[&["Bob"], &["Cleo"]], 1),
        record("m03", T0 + DAY, &[&["Anna"], &["Robert"]], 1),
        record(
            "m04",
            T0 + 2 * DAY,
            &[&["Anna", "Bob"], &["Bea", "Cleo"]],
            0,
        ),
        record("m05", T0 + 3 * DAY, &[&["Robert"], &["Bea"], &["Cleo"]], 2),
        record("m06", T0 + 4 * DAY, &[&["Cleo"], &["Robert"]], 0),
        record("m07", T0 + 5 * DAY, &[&["Anna"], &["Bob"], &["Bea"]], 1),
        record("m08", T0 + 6 * DAY, &[&["Bea"], &["Anna"]], 1),
        record("m09", T0 + 7 * DAY, &[&["Robert", "Anna"], &["Cleo"]], 0),
        record("m10", T0 + 8 * DAY, &[&["Bob"], &["Anna"]], 0),
        record("m11", T0 + 9 * DAY, &[&["Cleo"], &["Bea"]], 1),
        record("m12", T0 + 10 * DAY, &[&["Robert"], &["Bob"], &["Cleo"]], 0),
    ]
}

fn store_with(list: &[Value]) -> Store {
    let mut s = Store::open_in_memory().unwrap();
    s.import(&export(list)).unwrap();
    s
}

fn id_of(store: &Store, name: &str) -> i64 {
    store
        .search_players(name, true)
        .unwrap()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap()
        .id
}

/// The table by name, rating and deviation to 1e-9, and each player's chart.
fn by_name(store: &Store) -> Vec<(String, u32, bool, i64, i64, Vec<i64>)> {
    let n = |x: f64| (x * 1e9).round() as i64;
    store
        .rating_leaderboard("molkky", None, None, 100)
        .unwrap()
        .into_iter()
        .map(|r| {
            let chart = store
                .rating_history(r.rating.player, "molkky", None, None)
                .unwrap()
                .iter()
                .map(|p| n(p.rating))
                .collect();
            (
                r.name,
                r.rating.matches,
                r.rating.provisional,
                n(r.rating.rating),
                n(r.rating.deviation),
                chart,
            )
        })
        .collect()
}

/// The same matches in a new database: exported, then imported afresh.
fn fresh(store: &Store) -> Store {
    let mut s = Store::open_in_memory().unwrap();
    s.import(&store.export_all().unwrap().to_string()).unwrap();
    s
}

#[test]
fn merging_two_players_gives_the_ratings_of_a_fresh_history() {
    let mut store = store_with(&club());
    let before = by_name(&store);
    assert!(before.iter().any(|r| r.0 == "Robert"));
    store
        .merge_players(id_of(&store, "Bob"), id_of(&store, "Robert"))
        .unwrap();
    let after = by_name(&store);
    assert_ne!(before, after);
    assert!(after.iter().all(|r| r.0 != "Robert"));
    assert_eq!(after, by_name(&fresh(&store)));
    // Bob against Robert (m12) is now Bob against himself: left out, and so in a fresh count.
    assert_eq!(
        store
            .compute_ratings("molkky", None, None)
            .unwrap()
            .matches_rated(),
        11
    );
}

#[test]
fn importing_a_match_into_the_past_gives_the_ratings_of_a_fresh_history() {
    let mut list = club();
    let late = list.remove(3);
    let mut store = store_with(&list);
    let before = by_name(&store);
    let r = store.import(&export(&[late])).unwrap();
    assert_eq!(r.imported, 1);
    let after = by_name(&store);
    assert_ne!(before, after);
    assert_eq!(after, by_name(&fresh(&store)));
    assert_eq!(after, by_name(&store_with(&club())));
}

#[test]
fn deleting_a_match_gives_the_ratings_of_a_fresh_history() {
    let mut store = store_with(&club());
    let before = by_name(&store);
    let id = store
        .history(&partie_core::store::HistoryFilter::default())
        .unwrap()
        .into_iter()
        .find(|m| m.uid == "m05")
        .unwrap()
        .id;
    store.delete_match(id).unwrap();
    let after = by_name(&store);
    assert_ne!(before, after);
    assert_eq!(after, by_name(&fresh(&store)));
}

#[test]
fn undoing_the_end_of_a_match_gives_the_ratings_of_a_fresh_history() {
    let mut store = store_with(&club());
    let rules = json!({"target": 10}).as_object().unwrap().clone();
    let id = store
        .new_match(
            "molkky",
            &rules,
            &[vec!["Cleo".to_string()], vec!["Anna".to_string()]],
        )
        .unwrap()
        .id;
    store.play(id, &json!({"pins": [10]})).unwrap();
    let played = by_name(&store);
    store.undo(id).unwrap();
    let undone = by_name(&store);
    assert_ne!(played, undone);
    assert_eq!(undone, by_name(&store_with(&club())));
    assert_eq!(undone, by_name(&fresh(&store)));
}

#[test]
fn another_connection_writing_the_file_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.db");
    let (app, _) = Store::open(&path).unwrap();
    let before = by_name(&app);
    let (mut cli, _) = Store::open(&path).unwrap();
    cli.import(&export(&club())).unwrap();
    let after = by_name(&app);
    assert_ne!(before, after);
    assert_eq!(after, by_name(&store_with(&club())));
}

#[test]
fn a_restore_replaces_the_ratings() {
    let dir = tempfile::tempdir().unwrap();
    let small = store_with(&club()[..4]);
    let backup = dir.path().join("small.db");
    small.backup_to(&backup).unwrap();
    let (mut store, _) = Store::open(&dir.path().join("club.db")).unwrap();
    store.import(&export(&club())).unwrap();
    assert_ne!(by_name(&store), by_name(&small));
    store.restore_from(&backup).unwrap();
    assert_eq!(by_name(&store), by_name(&small));
    // The watch is back after the restore: a delete is seen again.
    let id = store
        .history(&partie_core::store::HistoryFilter::default())
        .unwrap()[0]
        .id;
    store.delete_match(id).unwrap();
    assert_eq!(by_name(&store), by_name(&fresh(&store)));
}

#[test]
fn three_sides_are_placed_by_the_games_ranking() {
    // m05: Robert 1 point, Bea 1 point, Cleo wins: Robert and Bea tied second.
    let store = store_with(&club()[4..5]);
    let rated = store.rated_matches("molkky", None, None).unwrap();
    assert_eq!(rated.len(), 1);
    assert_eq!(rated[0].places, vec![2, 2, 1]);
    assert_eq!(rated[0].finished_at, T0 + 3 * DAY);
    // m07: Anna 1 point, Bob wins, Bea nothing: 2, 1, 3.
    let store = store_with(&club()[6..7]);
    let rated = store.rated_matches("molkky", None, None).unwrap();
    assert_eq!(rated[0].places, vec![2, 1, 3]);
}

#[test]
fn a_season_counts_only_its_matches_and_starts_afresh() {
    let store = store_with(&club());
    let season = store
        .compute_ratings("molkky", Some(T0 + 5 * DAY), Some(T0 + 9 * DAY))
        .unwrap();
    assert_eq!(season.matches_rated(), 4, "m07 to m10");
    let alone = Ratings::compute(
        store
            .rated_matches("molkky", None, None)
            .unwrap()
            .into_iter()
            .filter(|m| (T0 + 5 * DAY..T0 + 9 * DAY).contains(&m.finished_at))
            .collect(),
    );
    assert_eq!(season.table(), alone.table());
    let rows = store
        .rating_leaderboard("molkky", Some(T0 + 5 * DAY), Some(T0 + 9 * DAY), 100)
        .unwrap();
    // m07 and m09 have three players, m08 and m10 two.
    assert_eq!(rows.iter().map(|r| r.rating.matches).sum::<u32>(), 10);
}

#[test]
fn archived_players_leave_the_table_not_the_ratings() {
    let mut store = store_with(&club());
    let everyone = by_name(&store);
    store.archive_player(id_of(&store, "Cleo"), true).unwrap();
    let rows = store.rating_leaderboard("molkky", None, None, 100).unwrap();
    assert_eq!(rows.len(), everyone.len() - 1);
    assert!(rows.iter().all(|r| r.name != "Cleo"));
    assert_eq!(
        rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
        (1..rows.len() + 1).collect::<Vec<_>>()
    );
    let anna = rows.iter().find(|r| r.name == "Anna").unwrap();
    let before = everyone.iter().find(|r| r.0 == "Anna").unwrap();
    assert_eq!((anna.rating.rating * 1e9).round() as i64, before.3);
    assert_eq!(rows.len(), 4);
}

#[test]
fn matches_against_the_computer_are_not_rated() {
    let morris = |uid: &str, sides: Value, computer: Value| {
        // "0-1": side 0 resigns at once, a finished game.
        json!({
            "format": 1, "game": "morris", "rules": {}, "sides": sides,
            "actions": ["0-1"], "id": uid, "computer": computer,
            "started_at": iso(T0), "finished_at": iso(T0 + 1000),
        })
    };
    let store = store_with(&[
        morris("cpu", json!([["Anna"], ["Computer"]]), json!({"1": 3})),
        morris("people", json!([["Anna"], ["Bea"]]), Value::Null),
    ]);
    let rated = store.rated_matches("morris", None, None).unwrap();
    assert_eq!(rated.len(), 1);
    assert_eq!(rated[0].uid, "people");
    let rows = store.rating_leaderboard("morris", None, None, 10).unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, vec!["Bea", "Anna"]);
    assert_eq!(rows[0].rating.rating.round(), 1662.0);
}

#[test]
fn expected_result_and_entrants_ratings_for_a_tournament() {
    let store = store_with(&club());
    let (anna, bea) = (id_of(&store, "Anna"), id_of(&store, "Bea"));
    let e = store.expected_result("molkky", anna, bea).unwrap();
    let r = store.compute_ratings("molkky", None, None).unwrap();
    assert!(close(e.expected[0], r.expected(anna, bea), 1e-12));
    assert!(close(e.expected[0] + e.expected[1], 1.0, 1e-12));
    assert_eq!(e.rated, [true, true]);
    assert!(store.expected_result("molkky", anna, 999).is_err());

    let entrants = vec![
        vec!["anna".to_string()],
        vec!["Bea".to_string(), "Nobody".to_string()],
        vec!["Nobody".to_string()],
        vec!["Cleo".to_string(), "Bob".to_string()],
    ];
    let got = store.ratings_for_names("molkky", &entrants).unwrap();
    assert!(close(
        got[0].unwrap().rating,
        r.rating(anna).unwrap().rating,
        1e-9
    ));
    let bea_r = r.rating(bea).unwrap();
    assert!(close(
        got[1].unwrap().rating,
        (bea_r.rating + 1500.0) / 2.0,
        1e-9
    ));
    assert_eq!(got[2], None);
    let (cleo, bob) = (
        r.rating(id_of(&store, "Cleo")).unwrap(),
        r.rating(id_of(&store, "Bob")).unwrap(),
    );
    assert!(close(
        got[3].unwrap().rating,
        (cleo.rating + bob.rating) / 2.0,
        1e-9
    ));
    let order = seed_order(&got);
    assert_eq!(order[3], 2, "the unrated entrant last");

    // The night of 2026-01-06 to 01-09 (m07 to m09): each entrant's change.
    let night = store
        .rating_changes_for_names("molkky", &entrants, T0 + 5 * DAY, T0 + 8 * DAY)
        .unwrap();
    assert!(close(
        night[0].unwrap(),
        r.change(anna, T0 + 5 * DAY, T0 + 8 * DAY).unwrap(),
        1e-9
    ));
    assert_eq!(night[2], None);
}

#[test]
fn the_command_line_prints_the_table_as_json_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("club.db");
    {
        let (mut s, _) = Store::open(&db).unwrap();
        s.import(&export(&club())).unwrap();
    }
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_partie"))
            .arg("ratings")
            .args(["--db", db.to_str().unwrap()])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let all: Value = serde_json::from_str(&run(&[])).unwrap();
    let table = all["games"]["molkky"].as_array().unwrap();
    assert_eq!(table.len(), 5);
    assert_eq!(table[0]["rank"], 1);
    for key in [
        "name",
        "player",
        "rating",
        "deviation",
        "low",
        "high",
        "matches",
        "provisional",
    ] {
        assert!(table[0].get(key).is_some(), "{key}");
    }
    let season: Value = serde_json::from_str(&run(&[
        "--game",
        "molkky",
        "--from",
        "2026-01-06",
        "--to",
        "2026-01-09",
    ]))
    .unwrap();
    assert_eq!(season["from"], "2026-01-06T00:00:00.000Z");
    assert_eq!(
        season["to"], "2026-01-10T00:00:00.000Z",
        "--to counts its day"
    );
    let played: u64 = season["games"]["molkky"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["matches"].as_u64().unwrap())
        .sum();
    assert_eq!(played, 10, "m07 to m10");
    let csv = run(&["--csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "game,rank,player,rating,deviation,low,high,matches,provisional"
    );
    assert_eq!(lines.len(), 6);
    assert!(lines[1].starts_with("molkky,1,"));
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_partie"))
        .args(["ratings", "--db", db.to_str().unwrap(), "--from", "soon"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

#[test]
fn a_database_of_schema_7_gets_the_places_of_its_matches_of_four_sides() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seven.db");
    {
        let mut conn = rusqlite::Connection::open(&path).unwrap();
        partie_core::store::migrations::migrate_to(&mut conn, 7).unwrap();
        conn.execute_batch(
            "INSERT INTO player (id, name, created_at) VALUES (1, 'A', 1), (2, 'B', 1), (3, 'C', 1), (4, 'D', 1);
             INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, finished_at, status, winner)
                 VALUES (1, 'four', 'molkky', 1, '{\"target\": 12, \"three_misses\": \"none\"}', 1, 5, 5, 'won', 2);
             INSERT INTO match_player VALUES (1, 0, 0, 1, 'A'), (1, 1, 0, 2, 'B'), (1, 2, 0, 3, 'C'), (1, 3, 0, 4, 'D');
             INSERT INTO action VALUES (1, 0, '{\"pins\":[5]}', 2), (1, 1, '{\"pins\":[5]}', 3), (1, 2, '{\"pins\":[12]}', 4);
             INSERT INTO player_stats (match_id, side, seat, player_id, game, result, finished_at, stats)
                 VALUES (1, 0, 0, 1, 'molkky', 'lost', 5, '{}'), (1, 1, 0, 2, 'molkky', 'lost', 5, '{}'),
                        (1, 2, 0, 3, 'molkky', 'won', 5, '{}'), (1, 3, 0, 4, 'molkky', 'lost', 5, '{}');
             INSERT INTO match (id, uid, game, format, rules, started_at, updated_at, finished_at, status, winner, summary)
                 VALUES (2, 'two', 'molkky', 1, '{}', 6, 9, 9, 'won', 1, '{\"scores\": [20, 50]}');
             INSERT INTO match_player VALUES (2, 0, 0, 1, 'A'), (2, 1, 0, 2, 'B');
             INSERT INTO player_stats (match_id, side, seat, player_id, game, result, finished_at, stats)
                 VALUES (2, 0, 0, 1, 'molkky', 'lost', 9, '{}'), (2, 1, 0, 2, 'molkky', 'won', 9, '{}');",
        )
        .unwrap();
    }
    let (store, _) = Store::open(&path).unwrap();
    let mut rated = store.rated_matches("molkky", None, None).unwrap();
    rated.sort_by_key(|m| m.finished_at);
    assert_eq!(rated[0].places, [2, 2, 1, 4]);
    assert_eq!(rated[1].places, [2, 1]);
    // The final scores kept for the exports: by replay for four sides, from the cached
    // summary for two.
    let csv = store.export_csv().unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert!(rows[0].ends_with(",0,A,5,lost"), "{}", rows[0]);
    assert!(rows[2].ends_with(",2,C,12,won"), "{}", rows[2]);
    assert!(rows[4].ends_with(",0,A,20,lost"), "{}", rows[4]);
    assert!(rows[5].ends_with(",1,B,50,won"), "{}", rows[5]);
}
