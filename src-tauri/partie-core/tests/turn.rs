//! The side to act and the scores, typed (`Game::turn`, `Game::scores`), agree with the
//! summary's `turn` and `scores` at every step of every match scenario (the project's and the
//! shared examples): the computer, undo, the hub's live tables and the exports go by the typed
//! ones, the screens by the summary; and the summary written as text is the same JSON as the
//! summary as a tree.

use partie_core::games::MatchState;
use partie_core::record::{rules_from_json, sides_from_json};
use partie_core::scenario::{collect, Scenario};
use std::path::Path;

#[test]
fn the_typed_turn_is_the_summarys_at_every_step() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut paths = vec![root.join("tests/scenarios")];
    let shared = root.join("../shared/scenarios");
    if shared.is_dir() {
        paths.push(shared);
    }
    let mut steps = 0;
    let mut ended = 0;
    for file in collect(&paths) {
        if file.components().any(|c| c.as_os_str() == "tournaments") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let Ok(scenario) = Scenario::from_json(&text) else {
            continue;
        };
        let Ok(mut state) = rules_from_json(scenario.rules.as_ref()).and_then(|rules| {
            let sides = sides_from_json(scenario.sides.as_ref())?;
            MatchState::setup(&scenario.game, &rules, &sides)
        }) else {
            continue;
        };
        for action in &scenario.actions {
            let summary = state.summary();
            let said = summary["turn"].as_u64().map(|t| t as usize);
            assert_eq!(state.turn(), said, "{} after {steps} steps", file.display());
            let scores: Vec<u32> = serde_json::from_value(summary["scores"].clone()).unwrap();
            assert_eq!(
                state.scores(),
                scores,
                "{} after {steps} steps",
                file.display()
            );
            assert_eq!(state.summary_text(), summary, "{}", file.display());
            steps += 1;
            state = match state.clone().play(action) {
                Ok(next) => next,
                Err(_) => break,
            };
        }
        let said = state.summary()["turn"].as_u64().map(|t| t as usize);
        assert_eq!(state.turn(), said, "{} at its end", file.display());
        // Places once over only, one a side, the winner first.
        match state.places() {
            None => assert!(!state.is_over(), "{}", file.display()),
            Some(places) => {
                assert_eq!(places.len(), state.scores().len(), "{}", file.display());
                if let Some(w) = state.result().and_then(|r| r.winner) {
                    assert_eq!(places[w], 1, "{}", file.display());
                    ended += 1;
                }
            }
        }
    }
    assert!(steps > 1000, "only {steps} steps checked");
    assert!(ended > 30, "only {ended} won matches checked");
}
