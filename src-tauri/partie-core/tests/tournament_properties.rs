//! Property tests of the tournament rules: random tournaments of every system never pair an
//! entrant twice in a round, never give a second bye while someone has none, Swiss pairs as
//! the spec defines it (checked against brute force up to 10 entrants), and the standings are a
//! pure function of the results.

use partie_core::tournament::Tournament;
use partie_core::ErrorKind;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::HashMap;

/// A small deterministic generator, so a failing case replays from its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn names(n: usize) -> Vec<Value> {
    (0..n).map(|i| json!([format!("P{i}")])).collect()
}

fn play(t: Tournament, e: &Value) -> Tournament {
    t.play_json(e)
        .unwrap_or_else(|r| panic!("{e} refused: {}", r.error))
}

/// What a round of a random tournament looked like, as the summary showed it.
struct Paired {
    pairs: Vec<[usize; 2]>,
    bye: Vec<usize>,
}

fn paired(summary: &Value) -> Paired {
    let pairs = summary["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let s = &p["sides"];
            [
                s[0].as_u64().unwrap() as usize,
                s[1].as_u64().unwrap() as usize,
            ]
        })
        .collect();
    let bye = match &summary["bye"] {
        Value::Null => vec![],
        Value::Array(l) => l.iter().map(|b| b.as_u64().unwrap() as usize).collect(),
        b => vec![b.as_u64().unwrap() as usize],
    };
    Paired { pairs, bye }
}

/// A result for every pairing of the current round: random scores, draws where allowed,
/// sometimes a forfeit.
fn results(summary: &Value, rng: &mut Rng, knockout: bool) -> Vec<Value> {
    let round = summary["round"].clone();
    summary["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let table = p["table"].clone();
            if rng.below(10) == 0 {
                return json!({"result": {"round": round, "table": table, "forfeit": rng.below(2)}});
            }
            let (a, b) = (rng.below(8), rng.below(8));
            let winner = if a == b && !knockout {
                Value::Null
            } else if a == b {
                json!(rng.below(2))
            } else {
                json!(usize::from(b > a))
            };
            json!({"result": {"round": round, "table": table, "winner": winner, "scores": [a, b]}})
        })
        .collect()
}

/// Brute force: the pairing of `ranked` that the spec defines, the first in rank order among
/// those with the fewest rematches.
fn brute_force(ranked: &[usize], met: &HashMap<(usize, usize), usize>) -> Vec<[usize; 2]> {
    fn walk(
        left: &[usize],
        met: &HashMap<(usize, usize), usize>,
        cost: usize,
        so_far: &mut Vec<[usize; 2]>,
        best: &mut Option<(usize, Vec<[usize; 2]>)>,
    ) {
        // Only a strictly cheaper pairing replaces the first one found at a cost.
        if best.as_ref().is_some_and(|(c, _)| cost >= *c) {
            return;
        }
        let Some((&a, rest)) = left.split_first() else {
            *best = Some((cost, so_far.clone()));
            return;
        };
        for i in 0..rest.len() {
            let b = rest[i];
            let again = usize::from(met.get(&(a.min(b), a.max(b))).copied().unwrap_or(0) > 0);
            let others: Vec<usize> = rest
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &x)| x)
                .collect();
            so_far.push([a, b]);
            walk(&others, met, cost + again, so_far, best);
            so_far.pop();
        }
    }
    let mut best = None;
    walk(ranked, met, 0, &mut Vec::new(), &mut best);
    best.unwrap().1
}

/// Plays a random tournament to its end, checking each round as it is paired.
fn random_tournament(system: &str, n: usize, seed: u64) -> (Value, Vec<Value>) {
    let mut rng = Rng(seed | 1);
    let mut setup = json!({"game": "morris", "system": system, "entrants": names(n)});
    if system == "pools_knockout" {
        setup["pool_size"] = json!(3 + rng.below(4));
        setup["advance"] = json!(1 + rng.below(2));
    }
    let mut t = Tournament::setup(&setup).unwrap();
    let mut events = Vec::new();
    let mut met: HashMap<(usize, usize), usize> = HashMap::new();
    let mut byes = vec![0usize; n];
    let mut withdrawn = vec![false; n];
    let mut late = 0;
    for _ in 0..64 {
        let summary = t.summary();
        if summary["status"] == "finished" {
            break;
        }
        // Between rounds: now and then a withdrawal, or (Swiss) a late entrant.
        let r = rng.below(8);
        // (Pools: before the first round too, which leaves the entrant out of every pool.)
        if r == 0 && (summary["round"] != 0 || system == "pools_knockout") {
            let e = rng.below(byes.len() as u64) as usize;
            let ev = json!({"withdraw": e});
            match t.clone().play_json(&ev) {
                Ok(next) => {
                    t = next;
                    withdrawn[e] = true;
                    events.push(ev);
                }
                Err(r) => assert_eq!(r.error.kind, ErrorKind::IllegalAction, "{ev}"),
            }
        } else if r == 1 && system == "swiss" {
            late += 1;
            let ev = json!({"enter": [format!("Late{late}")]});
            t = play(t, &ev);
            events.push(ev);
            byes.push(0);
            withdrawn.push(false);
        }
        let before = t.summary();
        if before["status"] == "finished" {
            // A withdrawal after the pools can leave a knockout with nothing to play.
            break;
        }
        let ranked: Vec<usize> = before["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["entrant"].as_u64().unwrap() as usize)
            .filter(|&e| !withdrawn[e])
            .collect();
        t = play(t, &json!({"pair": {}}));
        events.push(json!({"pair": {}}));
        let summary = t.summary();
        let round = paired(&summary);
        if system == "pools_knockout" {
            groups_are_marked(&summary);
        }
        // Nobody twice in a round, nobody withdrawn paired.
        let mut seen = vec![0; byes.len()];
        for &e in round.pairs.iter().flatten().chain(&round.bye) {
            seen[e] += 1;
            assert!(!withdrawn[e], "withdrawn entrant {e} paired: {summary}");
        }
        assert!(
            seen.iter().all(|&c| c <= 1),
            "someone twice in a round: {summary}"
        );
        if system == "swiss" {
            // Everyone active plays or has the bye; a second bye only when all have had one.
            assert_eq!(seen.iter().sum::<usize>(), ranked.len(), "{summary}");
            for &b in &round.bye {
                if byes[b] > 0 {
                    assert!(ranked.iter().all(|&e| byes[e] > 0), "second bye: {summary}");
                }
            }
            let rest: Vec<usize> = ranked
                .iter()
                .copied()
                .filter(|e| !round.bye.contains(e))
                .collect();
            if rest.len() <= 10 {
                let mut got: Vec<[usize; 2]> = round
                    .pairs
                    .iter()
                    .map(|p| {
                        let (x, y) = (
                            rest.iter().position(|&e| e == p[0]),
                            rest.iter().position(|&e| e == p[1]),
                        );
                        if x < y {
                            *p
                        } else {
                            [p[1], p[0]]
                        }
                    })
                    .collect();
                got.sort_by_key(|p| rest.iter().position(|&e| e == p[0]));
                assert_eq!(
                    got,
                    brute_force(&rest, &met),
                    "Swiss pairing differs: {summary}"
                );
            }
        }
        for &b in &round.bye {
            byes[b] += 1;
        }
        let knockout = ["main", "consolation"].iter().any(|b| {
            summary["bracket"][b]
                .as_array()
                .is_some_and(|m| !m.is_empty())
        });
        for ev in results(&summary, &mut rng, knockout) {
            let res = &ev["result"];
            if res.get("forfeit").is_none() {
                let table = res["table"].as_u64().unwrap() as usize;
                let p = summary["pairings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["table"] == table)
                    .unwrap();
                let (a, b) = (
                    p["sides"][0].as_u64().unwrap() as usize,
                    p["sides"][1].as_u64().unwrap() as usize,
                );
                *met.entry((a.min(b), a.max(b))).or_default() += 1;
            }
            t = play(t, &ev);
            events.push(ev);
        }
    }
    assert_eq!(t.summary()["status"], "finished", "the tournament ends");
    (setup, events)
}

/// A pools summary says what the screens group by: while more than one pool plays, each
/// standings row's pool and place in it (counted down the field's standings) and each pool's
/// tables; once there are two knockouts, each knockout's tables; else nothing. A pairing stays
/// the spec's `{table, sides, result}`.
fn groups_are_marked(s: &Value) {
    let pools = s["pools"].as_array().unwrap();
    let pool_of = |e: &Value| pools.iter().position(|p| p.as_array().unwrap().contains(e));
    let brackets = &s["bracket"];
    let two_knockouts = !brackets["consolation"].as_array().unwrap().is_empty();
    // A main knockout of one qualifier has no match: the consolation one alone shows the pools
    // are over.
    let playing_pools =
        brackets["main"].as_array().unwrap().is_empty() && !two_knockouts && pools.len() > 1;
    let mut placed = vec![0; pools.len()];
    for r in s["standings"].as_array().unwrap() {
        if playing_pools {
            // Withdrawn before the pools were dealt: in no pool.
            let Some(i) = pool_of(&r["entrant"]) else {
                assert_eq!(r["withdrawn"], true, "{s}");
                assert!(
                    r.get("pool").is_none() && r.get("pool_rank").is_none(),
                    "{s}"
                );
                continue;
            };
            assert_eq!(r["pool"], json!(i), "{s}");
            if r["withdrawn"] == true {
                // In its pool, with no place there: it goes on to no knockout.
                assert!(r.get("pool_rank").is_none(), "{s}");
            } else {
                placed[i] += 1;
                assert_eq!(r["pool_rank"], json!(placed[i]), "{s}");
            }
        } else {
            assert!(
                r.get("pool").is_none() && r.get("pool_rank").is_none(),
                "{s}"
            );
        }
    }
    let holds = |b: &str, e: &Value| {
        brackets[b]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .any(|m| m["sides"].as_array().unwrap().contains(e))
    };
    let groups = s["table_groups"].as_array().unwrap();
    let group_of = |table: &Value| {
        let mut of = groups
            .iter()
            .filter(|g| g["tables"].as_array().unwrap().contains(table));
        let g = of.next();
        assert!(of.next().is_none(), "a table in two groups: {s}");
        g
    };
    let pairings = s["pairings"].as_array().unwrap();
    for p in pairings {
        let keys: Vec<&String> = p.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["result", "sides", "table"], "{s}");
        let [a, b] = [&p["sides"][0], &p["sides"][1]];
        let group = group_of(&p["table"]);
        if playing_pools {
            assert_eq!(pool_of(a), pool_of(b), "a pool plays within itself: {s}");
            assert_eq!(group.unwrap()["pool"], json!(pool_of(a).unwrap()), "{s}");
        } else if two_knockouts {
            let want = if holds("main", a) {
                "main"
            } else {
                "consolation"
            };
            assert!(holds(want, a) && holds(want, b), "{s}");
            assert_eq!(group.unwrap()["bracket"], want, "{s}");
        } else {
            assert!(group.is_none(), "{s}");
        }
    }
    // No group without a table of this round.
    let tables: usize = groups
        .iter()
        .map(|g| g["tables"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        tables,
        if playing_pools || two_knockouts {
            pairings.len()
        } else {
            0
        },
        "{s}"
    );
}

/// The events with the results of each round in another order.
fn shuffle_results(events: &[Value], seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    let mut run: Vec<Value> = Vec::new();
    for e in events {
        if e.get("result").is_some() {
            run.push(e.clone());
            continue;
        }
        while !run.is_empty() {
            out.push(run.remove(rng.below(run.len() as u64) as usize));
        }
        out.push(e.clone());
    }
    while !run.is_empty() {
        out.push(run.remove(rng.below(run.len() as u64) as usize));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_tournaments_pair_fairly_and_rank_from_results_alone(
        system in prop_oneof![Just("round_robin"), Just("swiss"), Just("pools_knockout")],
        n in 2usize..=12,
        seed in any::<u64>(),
    ) {
        let (setup, events) = random_tournament(system, n, seed);
        let t = partie_core::tournament::replay(&setup, &events).unwrap();
        let shuffled = partie_core::tournament::replay(&setup, &shuffle_results(&events, seed)).unwrap();
        prop_assert_eq!(t.summary()["standings"].clone(), shuffled.summary()["standings"].clone());
        prop_assert_eq!(t.summary()["champion"].clone(), shuffled.summary()["champion"].clone());
    }

    #[test]
    fn an_event_refused_leaves_the_tournament_as_it_was(
        n in 3usize..=8,
        seed in any::<u64>(),
        junk in prop_oneof![
            Just(json!({"pair": {}, "withdraw": 0})),
            Just(json!({"result": {"round": 1, "table": 0, "winner": 2, "scores": [1, 0]}})),
            Just(json!({"result": {"round": 1, "table": 0, "winner": 0, "scores": [-1, 0]}})),
            Just(json!({"result": {"round": 1, "table": 0, "winner": 0, "scores": [1]}})),
            Just(json!({"result": {"round": 9, "table": 0, "winner": 0, "scores": [1, 0]}})),
            Just(json!({"result": {"round": 1, "table": 99, "winner": 0, "scores": [1, 0]}})),
            Just(json!({"withdraw": 99})),
            Just(json!({"enter": []})),
            Just(json!({"rounds": 0})),
            Just(json!({"rounds": 99})),
            Just(json!({"rounds": -1})),
            Just(json!({"shuffle": {}})),
            Just(json!(["pair"])),
        ],
    ) {
        let (setup, events) = random_tournament("swiss", n, seed);
        let cut = (seed % (events.len() as u64 + 1)) as usize;
        let t = partie_core::tournament::replay(&setup, &events[..cut]).unwrap();
        let before = t.summary();
        match t.play_json(&junk) {
            Ok(next) => prop_assert!(false, "{} accepted: {}", junk, next.summary()),
            Err(r) => {
                prop_assert!(matches!(r.error.kind, ErrorKind::BadAction | ErrorKind::IllegalAction));
                prop_assert_eq!(r.state.summary(), before);
            }
        }
    }

    /// Events that read well and that the moment refuses (a result already in, a pairing
    /// while a round is open or the tournament is over, a second withdrawal): the state is
    /// played in place, so the refusal must come before any change, in every system.
    #[test]
    fn an_event_refused_in_its_context_changes_nothing(
        system in prop_oneof![Just("round_robin"), Just("swiss"), Just("pools_knockout")],
        n in 3usize..=10,
        seed in any::<u64>(),
    ) {
        let (setup, events) = random_tournament(system, n, seed);
        let cut = (seed % (events.len() as u64 + 1)) as usize;
        let t = partie_core::tournament::replay(&setup, &events[..cut]).unwrap();
        let mut tries: Vec<Value> = events[..cut]
            .iter()
            .filter(|e| e.get("result").is_some() || e.get("withdraw").is_some())
            .cloned()
            .collect();
        tries.push(json!({"pair": {}}));
        tries.push(json!({"enter": ["Late"]}));
        tries.push(json!({"withdraw": 0}));
        // Out of range for a Swiss (300), and 1, which a Swiss in round 0 or 1 takes (then
        // the tries go on from it); the other systems refuse both.
        tries.push(json!({"rounds": 300}));
        tries.push(json!({"rounds": 1}));
        if let Some(Value::Object(last)) = events[..cut].iter().rev().find(|e| e.get("result").is_some()) {
            let mut draw = last["result"].clone();
            draw["winner"] = Value::Null;
            draw["scores"] = json!([1, 1]);
            tries.push(json!({ "result": draw }));
        }
        let mut t = t;
        for e in tries {
            let before = format!("{t:?}");
            t = match t.play_json(&e) {
                // Legal here (a withdrawal, a pairing, a late entrant): go on from it.
                Ok(next) => next,
                Err(r) => {
                    prop_assert_eq!(format!("{:?}", r.state), before, "{} refused: {}", e, r.error);
                    r.state
                }
            };
        }
    }
}

#[test]
fn brute_force_agrees_with_the_shared_example() {
    // swiss_round2_ranked_pairs_sides.json: ranked 0 3 4 5 1 2; 0-1, 2-3, 4-5 met.
    let met: HashMap<(usize, usize), usize> = [((0, 1), 1), ((2, 3), 1), ((4, 5), 1)].into();
    assert_eq!(
        brute_force(&[0, 3, 4, 5, 1, 2], &met),
        vec![[0, 3], [4, 1], [5, 2]]
    );
}

/// Scores typed by hand may be as large as a u32: the standings saturate instead of overflowing
/// (a panic in a debug build, which poisoned the app's store; wrapped figures in a release one).
#[test]
fn the_largest_scores_typed_by_hand_saturate_the_standings() {
    let mut t = Tournament::setup(&json!({"game": "crokinole", "system": "swiss", "rounds": 3,
        "entrants": names(4)}))
    .unwrap();
    let huge = u32::MAX;
    for round in 1..=3 {
        t = play(t, &json!({"pair": {}}));
        let summary = t.summary();
        for p in summary["pairings"].as_array().unwrap() {
            t = play(
                t,
                &json!({"result": {"round": round, "table": p["table"], "winner": 0,
                "scores": [huge, 0], "twenties": [huge, huge]}}),
            );
        }
    }
    let standings = t.summary()["standings"].clone();
    for row in standings.as_array().unwrap() {
        assert!(
            row["game_points"].as_u64().unwrap() <= u64::from(huge),
            "{row}"
        );
        assert!(
            row["twenties"].as_u64().unwrap() <= u64::from(huge),
            "{row}"
        );
    }
    assert!(standings
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["game_points"].as_u64() == Some(u64::from(huge))));
}

/// A tiebreak list that repeats its keys many times ranks as the list of its distinct keys,
/// and does not take the ranking one key deeper for each (it ran out of stack at registration,
/// an abort no caller could catch).
#[test]
fn a_tiebreak_list_repeating_its_keys_ranks_as_its_distinct_keys() {
    let many: Vec<&str> = ["wins", "score_diff"].repeat(100_000);
    let t = Tournament::setup(&json!({"game": "molkky", "system": "round_robin",
        "entrants": names(4), "tiebreaks": many}))
    .unwrap();
    let summary = t.summary();
    let keys = summary["ranking_keys"].as_array().unwrap();
    assert_eq!(keys.len(), 3, "{keys:?}");
    assert_eq!(keys[1..], [json!("wins"), json!("score_diff")]);
    assert_eq!(summary["standings"].as_array().unwrap().len(), 4);
}

#[test]
fn every_entrant_sitting_out_a_round_is_in_the_summary() {
    // A round robin of five loses an entrant after round 1: in round 2 the dummy's opponent
    // and the withdrawn entrant's scheduled opponent both sit out (the summary kept only one).
    let setup = json!({"game": "molkky", "system": "round_robin", "entrants": names(5)});
    let mut two_byes = 0;
    for gone in 0..5 {
        let mut t = Tournament::setup(&setup).unwrap();
        t = play(t, &json!({"pair": {}}));
        for p in t.summary()["pairings"].as_array().unwrap().clone() {
            t = play(
                t,
                &json!({"result": {"round": 1, "table": p["table"], "winner": 0, "scores": [2, 0]}}),
            );
        }
        t = play(t, &json!({"withdraw": gone}));
        t = play(t, &json!({"pair": {}}));
        let s = t.summary();
        let sitting: Vec<u64> = match &s["bye"] {
            Value::Array(l) => l.iter().map(|b| b.as_u64().unwrap()).collect(),
            Value::Null => vec![],
            b => vec![b.as_u64().unwrap()],
        };
        let playing: Vec<u64> = s["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| {
                p["sides"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e.as_u64().unwrap())
            })
            .collect();
        // Every active entrant plays or sits out, once.
        let mut all: Vec<u64> = sitting.iter().chain(&playing).copied().collect();
        all.sort();
        let active: Vec<u64> = (0..5).filter(|&e| e != gone as u64).collect();
        assert_eq!(all, active, "entrant {gone} withdrawn: {s}");
        two_byes += usize::from(sitting.len() == 2);
    }
    assert!(
        two_byes > 0,
        "some withdrawal leaves two entrants sitting out"
    );
}

#[test]
fn a_knockout_walkover_is_in_the_summary() {
    // Four pools of three then a knockout of the best two of each: once the quarter-finals
    // are played, a winner withdraws before the semi-finals are paired, and the winner it was
    // to meet goes through without a match.
    let setup = json!({"game": "molkky", "system": "pools_knockout", "pool_size": 3, "advance": 2,
                       "entrants": names(12)});
    let mut t = Tournament::setup(&setup).unwrap();
    let first_knockout_round_played = |s: &Value| {
        s["bracket"]["main"].as_array().is_some_and(|m| {
            !m.is_empty()
                && m[0]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|x| !x["winner"].is_null())
        })
    };
    while !first_knockout_round_played(&t.summary()) {
        t = play(t, &json!({"pair": {}}));
        let round = t.summary()["round"].clone();
        for p in t.summary()["pairings"].as_array().unwrap().clone() {
            t = play(
                t,
                &json!({"result": {"round": round, "table": p["table"], "winner": 0, "scores": [2, 0]}}),
            );
        }
    }
    let semis = t.summary()["bracket"]["main"][0].clone();
    let gone = semis[0]["winner"].as_u64().unwrap();
    let through = semis[1]["winner"].as_u64().unwrap();
    t = play(t, &json!({"withdraw": gone}));
    t = play(t, &json!({"pair": {}}));
    let s = t.summary();
    assert_eq!(s["walkovers"], json!([through]), "{s}");
}

/// Found by the property test: both entrants of a pool of two withdraw, so the main knockout
/// has one qualifier and no match while the consolation one plays. The pools are over then, and
/// the lone qualifier is the champion once the consolation final is in.
#[test]
fn a_lone_qualifier_leaves_the_main_knockout_empty_beside_a_consolation_one() {
    let (setup, events) = random_tournament("pools_knockout", 5, 1302821615187463950);
    let s = partie_core::tournament::replay(&setup, &events)
        .unwrap()
        .summary();
    assert_eq!(s["pools"], json!([[0, 3, 4], [1, 2]]), "{s}");
    assert_eq!(s["bracket"]["main"], json!([]), "{s}");
    assert_eq!(
        s["bracket"]["consolation"].as_array().unwrap().len(),
        1,
        "{s}"
    );
    assert_eq!(s["status"], "finished", "{s}");
    assert_eq!(s["champion"], 4, "{s}");
}
