//! Files the user is given (exports, backups, papers, settings) written whole or not at all.

use crate::error::Error;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where a file is made before it takes its name: hidden beside it (`.NAME.part`), so that
/// the folder's lists, which skip hidden files, never offer one cut short.
pub fn part_of(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.part"))
}

/// Writes `bytes` as the file at `path`, replacing any: first to [`part_of`] it, synced, then
/// renamed to its name and the folder synced. A kill, a full disk or a failure to write in the
/// middle leaves no file under the name (or the one there before, whole); the hidden part is
/// removed on a failure the app sees.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let part = part_of(path);
    let cannot =
        |e: std::io::Error| Error::storage(format!("cannot write {}: {e}", path.display()));
    let written = std::fs::File::create(&part).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&part);
        return Err(cannot(e));
    }
    put_in_place(&part, path)
}

/// Renames a finished `part` (synced first) to `path` and syncs the folder, so that the name
/// stands for the whole file after a power cut as well; the part is removed on a failure.
pub fn put_in_place(part: &Path, path: &Path) -> Result<(), Error> {
    let cannot =
        |e: std::io::Error| Error::storage(format!("cannot write {}: {e}", path.display()));
    let done = std::fs::File::open(part)
        .and_then(|f| f.sync_all())
        .and_then(|()| std::fs::rename(part, path));
    if let Err(e) = done {
        let _ = std::fs::remove_file(part);
        return Err(cannot(e));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_there_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("partie-1.json");
        assert_eq!(part_of(&path), dir.path().join(".partie-1.json.part"));
        write_whole(&path, b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        write_whole(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert!(!part_of(&path).exists());
        // Its part cannot be made (a folder is in its place): refused, the file as it was.
        std::fs::create_dir(part_of(&path)).unwrap();
        let e = write_whole(&path, b"three").unwrap_err();
        assert_eq!(e.kind, crate::ErrorKind::Storage);
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        std::fs::remove_dir(part_of(&path)).unwrap();
        // Its name cannot be taken (a folder is there): refused, no part left behind.
        let taken = dir.path().join("taken");
        std::fs::create_dir_all(taken.join("inside")).unwrap();
        assert!(write_whole(&taken, b"x").is_err());
        assert!(!part_of(&taken).exists());
        assert!(taken.join("inside").is_dir());
    }
}
