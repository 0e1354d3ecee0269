//! Settings: language, theme, default rules per game, last line-up. One JSON object in a file
//! beside the database, replaced whole and synced at each change, so that a kill at any moment
//! leaves the settings before or after it, never none.

use partie_core::Error;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tauri::State;

/// Where the settings are kept (beside the database, in the app's data folder).
pub struct SettingsFile(pub PathBuf);

/// One change at a time: each reads the file, changes one key and writes it whole.
static WRITING: Mutex<()> = Mutex::new(());

fn store_error(e: impl std::fmt::Display) -> Error {
    Error::storage(format!("settings: {e}"))
}

/// What the file holds; nothing (every default) when it is missing or not a JSON object.
fn read_file(path: &Path) -> Map<String, Value> {
    std::fs::read(path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|v| match v {
            Value::Object(m) => Some(m),
            _ => None,
        })
        .unwrap_or_default()
}

/// Replaces the file with `all`, whole or not at all ([`partie_core::file::write_whole`]): the
/// old file stays whole until the new one is.
fn write_file(path: &Path, all: &Map<String, Value>) -> Result<(), Error> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir).map_err(store_error)?;
    let bytes = serde_json::to_vec_pretty(all).map_err(store_error)?;
    partie_core::file::write_whole(path, &bytes)
}

/// Checks a setting's value; the UI never writes anything else.
pub fn validate(key: &str, value: &Value) -> Result<(), Error> {
    let bad =
        |why: &str| Err(Error::bad_setup(format!("setting {key}: {why}")).with_code("bad_setting"));
    match key {
        "language" => match value.as_str() {
            Some("system" | "fr" | "en") => Ok(()),
            _ => bad("system, fr or en"),
        },
        "theme" => match value.as_str() {
            Some("system" | "light" | "dark" | "outdoor") => Ok(()),
            _ => bad("system, light, dark or outdoor"),
        },
        "rules" => {
            let Some(per_game) = value.as_object() else {
                return bad("an object of rules per game");
            };
            for (game, rules) in per_game {
                let Some(rules) = rules.as_object() else {
                    return bad("rules are an object");
                };
                partie_core::games::check_rules(game, rules)?;
            }
            Ok(())
        }
        "last_lineup" => {
            let sides: Vec<Vec<String>> = match serde_json::from_value(value.clone()) {
                Ok(s) => s,
                Err(_) => return bad("a list of sides, each a list of names"),
            };
            if sides.len() > 16 {
                return bad("at most 16 sides");
            }
            partie_core::game::check_sides(&sides)
        }
        _ => Err(Error::bad_setup(format!("unknown setting {key:?}")).with_code("bad_setting")),
    }
}

/// Every setting, with defaults for those never set (or kept in a form this app refuses).
#[tauri::command(async)]
pub fn get_settings(file: State<'_, SettingsFile>) -> Result<Value, Error> {
    Ok(with_defaults(&read_file(&file.0)))
}

fn with_defaults(kept: &Map<String, Value>) -> Value {
    let mut all: Map<String, Value> = Map::new();
    for (key, default) in [
        ("language", json!("system")),
        ("theme", json!("system")),
        ("rules", json!({})),
        ("last_lineup", json!([])),
    ] {
        let value = match key {
            "rules" => Value::Object(kept_rules(kept.get(key))),
            _ => kept
                .get(key)
                .filter(|v| validate(key, v).is_ok())
                .cloned()
                .unwrap_or(default),
        };
        all.insert(key.to_string(), value);
    }
    Value::Object(all)
}

/// The saved default rules, game by game: a game's that this app refuses (an option an older
/// or newer app had, a game it does not know) is dropped alone; the other games' stay.
fn kept_rules(saved: Option<&Value>) -> Map<String, Value> {
    let Some(games) = saved.and_then(Value::as_object) else {
        return Map::new();
    };
    games
        .iter()
        .filter(|(game, rules)| {
            rules
                .as_object()
                .is_some_and(|r| partie_core::games::check_rules(game, r).is_ok())
        })
        .map(|(game, rules)| (game.clone(), rules.clone()))
        .collect()
}

/// Changes one setting after checking it, saved before it answers; a change that cannot be
/// saved changes nothing (`storage`). `rules` gives the games whose default rules change, each
/// replacing that game's, the others' kept as saved: a screen sending its whole copy could
/// carry another game's rules from before a save still on its way, and undo it.
#[tauri::command(async)]
pub fn set_setting(
    file: State<'_, SettingsFile>,
    key: String,
    value: Value,
) -> Result<Value, Error> {
    set_in(&file.0, key, value)
}

fn set_in(path: &std::path::Path, key: String, value: Value) -> Result<Value, Error> {
    validate(&key, &value)?;
    let _one = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let mut all = read_file(path);
    let value = match (key.as_str(), value) {
        ("rules", Value::Object(changed)) => {
            let mut rules = kept_rules(all.get("rules"));
            rules.extend(changed);
            Value::Object(rules)
        }
        (_, value) => value,
    };
    all.insert(key, value);
    write_file(path, &all)?;
    Ok(with_defaults(&all))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_replaces_the_file_whole_and_a_failed_one_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        assert_eq!(with_defaults(&read_file(&path))["theme"], "system");
        let mut all = Map::new();
        all.insert("theme".into(), json!("dark"));
        write_file(&path, &all).unwrap();
        assert_eq!(read_file(&path), all);
        assert!(!partie_core::file::part_of(&path).exists());
        // A file cut short (written by a plugin of before that was killed while saving) reads as
        // the defaults, never as an error that stops the app.
        std::fs::write(&path, b"{\"theme\": \"da").unwrap();
        assert_eq!(with_defaults(&read_file(&path))["theme"], "system");
        // A change that cannot be written leaves the file as it was.
        write_file(&path, &all).unwrap();
        let blocked = dir.path().join("a-file");
        std::fs::write(&blocked, b"").unwrap();
        assert!(write_file(&blocked.join("settings.json"), &Map::new()).is_err());
        std::fs::create_dir(partie_core::file::part_of(&path)).unwrap();
        let mut other = all.clone();
        other.insert("theme".into(), json!("light"));
        let e = write_file(&path, &other).unwrap_err();
        assert_eq!(e.kind, partie_core::ErrorKind::Storage);
        assert_eq!(read_file(&path)["theme"], "dark");
    }

    /// Two games' default rules saved one after the other, the second sent with the first
    /// game's rules as they were before (a screen's stale copy): each game keeps its own.
    #[test]
    fn default_rules_are_changed_a_game_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        set_in(&path, "rules".into(), json!({"molkky": {"target": 40}})).unwrap();
        let all = set_in(&path, "rules".into(), json!({"crokinole": {"target": 80}})).unwrap();
        assert_eq!(
            all["rules"],
            json!({"molkky": {"target": 40}, "crokinole": {"target": 80}})
        );
        let all = set_in(&path, "rules".into(), json!({"molkky": {}})).unwrap();
        assert_eq!(
            all["rules"],
            json!({"molkky": {}, "crokinole": {"target": 80}})
        );
        // A game's rules refused change nothing.
        assert!(set_in(&path, "rules".into(), json!({"molkky": {"target": "x"}})).is_err());
        assert_eq!(
            read_file(&path)["rules"]["crokinole"],
            json!({"target": 80})
        );
    }

    /// A game's saved rules that this app refuses (kept by another version of it) go alone:
    /// the other games' saved rules are read and kept through the next change. They all went
    /// with it, for good at the next save.
    #[test]
    fn saved_rules_this_app_refuses_drop_only_their_game() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let saved = json!({"rules": {"molkky": {"target": 40}, "crokinole": {"bogus": 1},
                                     "chess": {}, "morris": 3}});
        std::fs::write(&path, saved.to_string()).unwrap();
        let all = with_defaults(&read_file(&path));
        assert_eq!(all["rules"], json!({"molkky": {"target": 40}}));
        let all = set_in(&path, "rules".into(), json!({"morris": {}})).unwrap();
        assert_eq!(
            all["rules"],
            json!({"molkky": {"target": 40}, "morris": {}})
        );
        assert_eq!(
            with_defaults(&read_file(&path))["rules"],
            json!({"molkky": {"target": 40}, "morris": {}})
        );
    }
}
