//! Settings kept with tauri-plugin-store: language, theme, default rules per game, last line-up.

use partie_core::Error;
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use tauri::{AppHandle, Manager, Runtime, State};
use tauri_plugin_store::StoreExt;

/// Where the settings are kept (beside the database, in the app's data folder).
pub struct SettingsFile(pub PathBuf);

fn store_error(e: impl std::fmt::Display) -> Error {
    Error::storage(format!("settings: {e}"))
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

/// Every setting, with defaults for those never set.
#[tauri::command]
pub fn get_settings<R: Runtime>(
    app: AppHandle<R>,
    file: State<'_, SettingsFile>,
) -> Result<Value, Error> {
    let store = app.store(&file.0).map_err(store_error)?;
    let mut all: Map<String, Value> = Map::new();
    for (key, default) in [
        ("language", json!("system")),
        ("theme", json!("system")),
        ("rules", json!({})),
        ("last_lineup", json!([])),
    ] {
        let value = store
            .get(key)
            .filter(|v| validate(key, v).is_ok())
            .unwrap_or(default);
        all.insert(key.to_string(), value);
    }
    Ok(Value::Object(all))
}

/// Changes one setting after checking it; saved at once.
#[tauri::command]
pub fn set_setting<R: Runtime>(
    app: AppHandle<R>,
    file: State<'_, SettingsFile>,
    key: String,
    value: Value,
) -> Result<Value, Error> {
    validate(&key, &value)?;
    let store = app.store(&file.0).map_err(store_error)?;
    store.set(key, value);
    store.save().map_err(store_error)?;
    get_settings(app.clone(), app.state())
}
