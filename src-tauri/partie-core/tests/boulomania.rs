//! Boulomania beyond the scenarios: random legal games always end and never lose a ball, and
//! the computer that weighs every roll beats the casual one.

use partie_core::boulomania::ai::{plans, play_turn, Plan};
use partie_core::boulomania::{Action, Boulomania};
use partie_core::rng::Rng;
use partie_core::Game;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn game(rules: Value) -> Boulomania {
    let rules: Map<String, Value> = rules.as_object().unwrap().clone();
    Boulomania::setup(&rules, &[vec!["A".into()], vec!["B".into(), "C".into()]]).unwrap()
}

/// A random legal action: the jack roll, or a random plan with random dice and a random choice.
fn random_action(g: &Boulomania, rng: &mut Rng) -> Action {
    let die = |rng: &mut Rng| 1 + rng.below(6) as u8;
    if g.jack_due() {
        return Action::Jack(die(rng));
    }
    let options = plans(g);
    let plan: Plan = options[rng.below(options.len() as u64) as usize];
    let dice: Vec<u8> = (0..plan.dice()).map(|_| die(rng)).collect();
    let outcomes = g.outcomes(&plan.with_dice(&dice));
    assert!(
        !outcomes.is_empty(),
        "a roll always has an outcome: {plan:?} {dice:?}"
    );
    outcomes[rng.below(outcomes.len() as u64) as usize]
        .0
        .clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn random_games_end_and_every_ball_is_accounted_for(seed in any::<u64>(), balls in 1u8..=8, target in 1u32..=13) {
        let mut g = game(json!({"balls": balls, "target": target}));
        let mut rng = Rng::new(seed);
        let mut n = 0;
        let mut late_refusals = 0;
        while !g.is_over() {
            let s = summary(&g);
            for side in 0..2usize {
                let on_field = s["balls"].as_object().unwrap().values().filter(|v| v.as_u64() == Some(side as u64)).count() as u64;
                let total = on_field + s["in_hand"][side].as_u64().unwrap() + s["lost"][side].as_u64().unwrap();
                prop_assert_eq!(total, balls as u64, "side {} after {} actions: {}", side, n, s);
            }
            let a = random_action(&g, &mut rng);
            // The same action with a `via` no push uses is refused late, once the action was
            // played out (a mène may have ended): the state is as it was, mènes and all.
            for arrow in ["8", "13", "16"] {
                let mut late = a.to_json();
                let Some(o) = late.as_object_mut().filter(|o| !o.contains_key("via") && !o.contains_key("jack")) else {
                    break;
                };
                o.insert("via".into(), json!({arrow: 9}));
                if let Ok(bad) = Action::from_json(&late) {
                    if let Err(refused) = g.clone().play(&bad) {
                        prop_assert_eq!(&refused.state, &g, "a refusal changed the state");
                        late_refusals += 1;
                    }
                }
            }
            // Every offered action is accepted, and a record of it reads back the same.
            prop_assert_eq!(Action::from_json(&a.to_json()).unwrap(), a.clone());
            g = g.play(&a).map_err(|r| TestCaseError::fail(format!("{:?} refused: {:?}", a, r.error)))?;
            n += 1;
            prop_assert!(n < 5_000, "the game does not end");
        }
        prop_assert!(summary(&g)["scores"].as_array().unwrap().iter().any(|v| v.as_u64().unwrap() >= target as u64));
        prop_assert!(n < 3 || late_refusals > 0, "no late refusal was tried");
    }
}

#[test]
fn the_expected_value_player_beats_the_casual_one() {
    let mut wins = [0u32; 2];
    for n in 0..30u64 {
        let mut g = game(json!({}));
        let mut rng = Rng::new(1000 + n);
        // Alternate who plays side 0.
        let strong = (n % 2) as u8;
        while !g.is_over() {
            let level = if g.turn() == strong { 2 } else { 1 };
            let a = play_turn(&g, level, &mut rng);
            g = g.play(&a).unwrap();
        }
        let w = summary(&g)["winner"].as_u64().unwrap() as u8;
        wins[(w == strong) as usize] += 1;
    }
    assert!(
        wins[1] >= 22,
        "the stronger level won only {} of 30",
        wins[1]
    );
}

/// The final position stays on the board once the game is won (issue 20), yet two ways of
/// winning with the same score are still one choice, not a question.
#[test]
fn two_ways_to_the_same_win_are_one_choice() {
    let mut g = game(json!({"target": 1, "balls": 1}));
    for a in [json!({"jack": 3}), json!({"point": [3, 4]})] {
        g = g.play(&Action::from_json(&a).unwrap()).unwrap();
    }
    let roll = |d: u8| Action::from_json(&json!({"point": [d, d]})).unwrap();
    // 5-5: jack square 5 or square 10, and side 0 wins 1-0 either way.
    let same = g.outcomes(&roll(5));
    assert_eq!(
        same.len(),
        1,
        "{:?}",
        same.iter().map(|o| &o.0).collect::<Vec<_>>()
    );
    assert_eq!(summary(&same[0].1)["scores"], json!([1, 0]));
    // 4-4: jack square 4 wins, square 8 makes a null mène: a choice to ask.
    assert_eq!(g.outcomes(&roll(4)).len(), 2);
}

/// Each choice a roll opens says in squares what it decides (`choice` in its summary): the
/// screen names the choice from it and computes nothing.
#[test]
fn a_choice_says_where_the_double_goes() {
    let mut g = game(json!({"target": 13, "balls": 2}));
    g = g
        .play(&Action::from_json(&json!({"jack": 3})).unwrap())
        .unwrap();
    let roll = Action::from_json(&json!({"point": [4, 4]})).unwrap();
    let mut seen: Vec<Value> = g
        .choices(&roll)
        .into_iter()
        .map(|(_, s)| s["choice"].clone())
        .collect();
    seen.sort_by_key(|c| c["square"].as_u64());
    assert_eq!(
        seen,
        vec![
            json!({"to": "jack", "square": 4, "via": []}),
            json!({"to": "total", "square": 8, "via": []}),
        ]
    );
    // A roll with one way only: no `to`, no square.
    let plain = Action::from_json(&json!({"point": [3, 4]})).unwrap();
    let one = g.choices(&plain);
    assert_eq!(one.len(), 1);
    assert_eq!(
        one[0].1["choice"],
        json!({"to": null, "square": null, "via": []})
    );
}

/// The game's summary as a tree.
fn summary(g: &partie_core::boulomania::Boulomania) -> serde_json::Value {
    serde_json::to_value(g.summary()).unwrap()
}
