//! Where a hub keeps its records: one interface ([`Storage`]) and two implementations, SQLite
//! (the embedded default: the app's database or a file, one club) and PostgreSQL (a league's
//! server: many clubs, many hubs). The rules are partie-core's in both (`partie_core::merge`),
//! so the API behaves the same on either; the same integration tests run against both.

pub mod postgres;
pub mod sqlite;

use partie_core::store::RawRecords;
use partie_core::store::{Change, MergeReport, Page};
use partie_core::Error;
use serde_json::Value;
use std::future::Future;

/// What the hub asks of its storage. Every method is one transaction or one consistent read;
/// an `Err` of kind `storage` means nothing changed.
pub trait Storage: Send + Sync + 'static {
    /// The schema version (`GET /v1/health`).
    fn schema(&self) -> i64;

    /// Merges a push by the rules of `docs/hub.md` ("The API"); committed when it returns `Ok`.
    /// The records come as their raw JSON, each read when its turn comes (see
    /// `Store::merge_raw`).
    fn push(&self, records: RawRecords) -> impl Future<Output = Result<MergeReport, Error>> + Send;

    /// The records changed since `cursor` (none: from the start), at most `limit`;
    /// `bad_record` for a cursor this storage did not give.
    fn records_since(
        &self,
        cursor: Option<String>,
        limit: usize,
    ) -> impl Future<Output = Result<Page, Error>> + Send;

    /// The latest place in the change log.
    fn change_seq(&self) -> impl Future<Output = Result<i64, Error>> + Send;

    /// The records changed after `seq`, at most `limit`, oldest first (the event stream's).
    fn changes_since(
        &self,
        seq: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<Change>, Error>> + Send;

    /// A tournament's summary by id, or the current one's (`id` = `current`); `not_found`.
    fn tournament_summary(&self, id: String) -> impl Future<Output = Result<Value, Error>> + Send;
}

/// The hub's storage: one of the two.
pub enum Backend {
    /// partie-core's SQLite store.
    Sqlite(sqlite::SqliteStorage),
    /// One club of a league database.
    Postgres(postgres::PgStorage),
}

impl Storage for Backend {
    fn schema(&self) -> i64 {
        match self {
            Backend::Sqlite(s) => s.schema(),
            Backend::Postgres(p) => p.schema(),
        }
    }

    async fn push(&self, records: RawRecords) -> Result<MergeReport, Error> {
        match self {
            Backend::Sqlite(s) => s.push(records).await,
            Backend::Postgres(p) => Storage::push(p, records).await,
        }
    }

    async fn records_since(&self, cursor: Option<String>, limit: usize) -> Result<Page, Error> {
        match self {
            Backend::Sqlite(s) => s.records_since(cursor, limit).await,
            Backend::Postgres(p) => Storage::records_since(p, cursor, limit).await,
        }
    }

    async fn change_seq(&self) -> Result<i64, Error> {
        match self {
            Backend::Sqlite(s) => s.change_seq().await,
            Backend::Postgres(p) => Storage::change_seq(p).await,
        }
    }

    async fn changes_since(&self, seq: i64, limit: i64) -> Result<Vec<Change>, Error> {
        match self {
            Backend::Sqlite(s) => s.changes_since(seq, limit).await,
            Backend::Postgres(p) => Storage::changes_since(p, seq, limit).await,
        }
    }

    async fn tournament_summary(&self, id: String) -> Result<Value, Error> {
        match self {
            Backend::Sqlite(s) => s.tournament_summary(id).await,
            Backend::Postgres(p) => Storage::tournament_summary(p, id).await,
        }
    }
}

impl Storage for postgres::PgStorage {
    fn schema(&self) -> i64 {
        // The hub migrated the database to its own version before opening the club.
        postgres::latest()
    }

    async fn push(&self, records: RawRecords) -> Result<MergeReport, Error> {
        postgres::PgStorage::push(self, records).await
    }

    async fn records_since(&self, cursor: Option<String>, limit: usize) -> Result<Page, Error> {
        postgres::PgStorage::records_since(self, cursor, limit).await
    }

    async fn change_seq(&self) -> Result<i64, Error> {
        postgres::PgStorage::change_seq(self).await
    }

    async fn changes_since(&self, seq: i64, limit: i64) -> Result<Vec<Change>, Error> {
        postgres::PgStorage::changes_since(self, seq, limit).await
    }

    async fn tournament_summary(&self, id: String) -> Result<Value, Error> {
        postgres::PgStorage::tournament_summary(self, id).await
    }
}
