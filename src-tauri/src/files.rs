//! Export, import, backup and restore through files in one folder the user can reach:
//! `Documents/Partie` (or `$PARTIE_EXPORT_DIR`), the app's data folder where there is no
//! documents folder (phones). No file dialog is needed, and nothing leaves the device unless the
//! user takes the file.

use crate::AppState;
use partie_core::store::ImportReport;
use partie_core::Error;
use serde::Serialize;
use std::path::PathBuf;
use tauri::{Manager, Runtime};

/// The folder exports and backups go to, created on demand.
pub(crate) fn folder<R: Runtime>(app: &tauri::AppHandle<R>) -> Result<PathBuf, Error> {
    let dir = match std::env::var_os("PARTIE_EXPORT_DIR") {
        Some(d) => PathBuf::from(d),
        None => match app.path().document_dir() {
            Ok(d) => d.join("Partie"),
            Err(_) => app
                .path()
                .app_data_dir()
                .map_err(|e| Error::storage(e.to_string()))?
                .join("exports"),
        },
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| Error::storage(format!("cannot create {}: {e}", dir.display())))?;
    Ok(dir)
}

/// A file name in the folder: one name, not a path (no separator, nothing hidden or above),
/// whatever else it holds, so that a copy the user renamed ("partie (1).partie-backup", "récap
/// du club.json") is found as the list shows it.
fn named(dir: &std::path::Path, name: &str) -> Result<PathBuf, Error> {
    if !plain_name(name) {
        return Err(Error::not_found(format!("no file {name:?}")).with_code("no_file"));
    }
    Ok(dir.join(name))
}

/// Whether `name` names a file of the folder itself.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '\0'])
        && std::path::Path::new(name).file_name() == Some(std::ffi::OsStr::new(name))
}

pub(crate) fn stamp() -> String {
    partie_core::time::iso(partie_core::time::now_ms())
        .replace([':', '.'], "-")
        .trim_end_matches('Z')
        .to_string()
}

/// A file written for the user.
#[derive(Debug, Serialize)]
pub struct Written {
    /// Where it is.
    pub path: PathBuf,
    /// Its name in the folder.
    pub name: String,
}

/// Writes an export ([`partie_core::store::Store::export_named`]: `all`, `csv`, a match's id,
/// `tournament-ID`, `tournament-ID-csv`), whole or not at all.
#[tauri::command]
pub async fn export_file<R: Runtime>(
    app: tauri::AppHandle<R>,
    what: String,
) -> Result<Written, Error> {
    crate::off_the_workers(app.clone(), move |state| {
        let (name, text) = state.with(|s| s.export_named(&what, &stamp()))?;
        put(&app, name, text.as_bytes())
    })
    .await
}

/// Writes `bytes` as the file `name` of the folder ([`partie_core::file::write_whole`]).
pub(crate) fn put<R: Runtime>(
    app: &tauri::AppHandle<R>,
    name: String,
    bytes: &[u8],
) -> Result<Written, Error> {
    let path = folder(app)?.join(&name);
    partie_core::file::write_whole(&path, bytes)?;
    Ok(Written { path, name })
}

/// The files in the folder that can be imported (`.json`) or restored (`.partie-backup`),
/// newest first.
#[tauri::command(async)]
pub fn list_files<R: Runtime>(app: tauri::AppHandle<R>) -> Result<Vec<String>, Error> {
    let dir = folder(&app)?;
    let mut files: Vec<(std::time::SystemTime, String)> = std::fs::read_dir(&dir)
        .map_err(|e| Error::storage(e.to_string()))?
        .filter_map(Result::ok)
        .filter_map(|e| {
            // Only names the import and the restore find again.
            let name = e.file_name().into_string().ok()?;
            let wanted =
                plain_name(&name) && (name.ends_with(".json") || name.ends_with(".partie-backup"));
            let when = e.metadata().and_then(|m| m.modified()).ok()?;
            wanted.then_some((when, name))
        })
        .collect();
    files.sort_by(|a, b| b.cmp(a));
    Ok(files.into_iter().map(|(_, n)| n).collect())
}

/// Imports the records of a file of the folder.
#[tauri::command]
pub async fn import_file<R: Runtime>(
    app: tauri::AppHandle<R>,
    name: String,
) -> Result<ImportReport, Error> {
    crate::off_the_workers(app.clone(), move |state| import_named(&app, state, &name)).await
}

/// [`import_file`]'s work, on a thread kept for blocking work: a file of hundreds of MiB is
/// read and checked there.
fn import_named<R: Runtime>(
    app: &tauri::AppHandle<R>,
    state: &AppState,
    name: &str,
) -> Result<ImportReport, Error> {
    let path = named(&folder(app)?, name)?;
    let meta = std::fs::metadata(&path)
        .map_err(|_| Error::not_found(format!("no file {name:?}")).with_code("no_file"))?;
    // What the core would refuse, refused before the file is read into memory.
    if meta.len() > partie_core::store::MAX_IMPORT_BYTES as u64 {
        return Err(Error::bad_record(format!(
            "the file is larger than {} MiB",
            partie_core::store::MAX_IMPORT_BYTES >> 20
        ))
        .with_code("too_large"));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| {
        let refused = Error::bad_record(format!("cannot read {name}: {e}"));
        // Not UTF-8 text (a photo, a backup picked by mistake): no Partie export. Any other
        // failure to read is said as it is.
        match e.kind() {
            std::io::ErrorKind::InvalidData => refused.with_code("not_json"),
            _ => refused,
        }
    })?;
    state.with(|s| s.import_any(&text))
}

/// A full copy of the database in the folder.
#[tauri::command]
pub async fn backup_file<R: Runtime>(app: tauri::AppHandle<R>) -> Result<Written, Error> {
    crate::off_the_workers(app.clone(), move |state| {
        let name = format!("partie-{}.partie-backup", stamp());
        let path = folder(&app)?.join(&name);
        state.with(|s| s.backup_to(&path))?;
        Ok(Written { path, name })
    })
    .await
}

/// Replaces the history with a backup of the folder (checked first; nothing changes on a
/// refusal).
#[tauri::command]
pub async fn restore_file<R: Runtime>(app: tauri::AppHandle<R>, name: String) -> Result<(), Error> {
    crate::off_the_workers(app.clone(), move |state| {
        let path = named(&folder(&app)?, &name)?;
        state.with(|s| s.restore_from(&path))
    })
    .await
}
