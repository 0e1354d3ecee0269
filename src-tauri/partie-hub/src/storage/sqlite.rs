//! The hub's records in partie-core's SQLite store: one connection behind a mutex, used from
//! blocking threads (SQLite's calls block), the merge being the store's own
//! ([`Store::merge_records`]).

use super::Storage;
use partie_core::store::RawRecords;
use partie_core::store::{Change, MergeReport, Page, Source, Store};
use partie_core::Error;
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// A store shared by the hub's requests.
pub struct SqliteStorage {
    store: Arc<Mutex<Store>>,
    schema: i64,
}

impl SqliteStorage {
    /// The hub's storage on an open store.
    pub fn new(store: Store) -> Result<SqliteStorage, Error> {
        // A 200 tells a device its record is held: it must outlast a power cut too.
        store.sync_every_commit()?;
        let schema = store.schema_version()?;
        Ok(SqliteStorage {
            store: Arc::new(Mutex::new(store)),
            schema,
        })
    }

    /// Runs `f` on the store on a blocking thread.
    pub async fn with_store<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || {
            let mut s = store.lock().unwrap_or_else(|p| p.into_inner());
            f(&mut s)
        })
        .await
        .map_err(|_| Error::storage("the request failed inside the hub"))?
    }

    /// The same, from a thread that may block (no runtime needed).
    pub fn with_store_blocking<T>(&self, f: impl FnOnce(&mut Store) -> T) -> T {
        let mut s = self.store.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut s)
    }
}

impl Storage for SqliteStorage {
    fn schema(&self) -> i64 {
        self.schema
    }

    async fn push(&self, records: RawRecords) -> Result<MergeReport, Error> {
        self.with_store(move |s| s.merge_raw(&records, Source::Device))
            .await
    }

    async fn records_since(&self, cursor: Option<String>, limit: usize) -> Result<Page, Error> {
        self.with_store(move |s| s.records_since(cursor.as_deref(), limit))
            .await
    }

    async fn change_seq(&self) -> Result<i64, Error> {
        self.with_store(|s| s.change_seq()).await
    }

    async fn changes_since(&self, seq: i64, limit: i64) -> Result<Vec<Change>, Error> {
        self.with_store(move |s| s.changes_since(seq, limit)).await
    }

    async fn tournament_summary(&self, id: String) -> Result<Value, Error> {
        self.with_store(move |s| {
            let uid = if id == "current" {
                s.current_tournament()?
                    .ok_or_else(|| Error::not_found("no tournament yet"))?
            } else {
                id
            };
            s.tournament_summary(&uid)
        })
        .await
    }
}
