//! The hub's records in PostgreSQL (`docs/league.md`): one database for a league, each club's
//! records apart, many hubs writing at once.
//!
//! Every table is keyed by its club, and every query of a hub names the club its token opened
//! (never one a request gives), so a club's token reaches its own records only. A record is one
//! row holding it as the hub serves it (the text of its JSON, compared and replayed as given),
//! with the columns the API looks up by: its revision, its place in the club's change log, its
//! table link, and for a finished match one row per player in `league_result`, what the league's
//! standings count.
//!
//! The rules are partie-core's (`partie_core::merge`), the same code the SQLite store decides
//! with. A push is one transaction that first locks its club's row (`SELECT ... FOR UPDATE`):
//! pushes to one club, from any number of hubs, are applied one after the other, so two hubs
//! taking the same record at once give one `accepted` and one `already`, never a lost update,
//! and the change log's numbers are handed out in the order the transactions commit, which
//! keeps a device's cursor from stepping over a push that committed late. Pushes to other clubs
//! do not wait.

use deadpool_postgres::GenericClient;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use partie_core::games::MatchState;
use partie_core::merge::{
    check_table_setup, cursor_at, cursor_not_given, cursor_of, decide_match, decide_tournament,
    held_result, read_raw, record_kind, refusal_id, take_action_times, tournament_served, trimmed,
    Decision, HeldMatch, IncomingMatch, IncomingTournament, Link, MergeReport, PushedMatch,
    PushedTournament, RecordKind, Refusal, Taken,
};
use partie_core::record::Record;
use partie_core::store::RawRecords;
use partie_core::store::{Change, Page};
use partie_core::time::parse_iso;
use partie_core::tournament::{Tournament, TournamentRecord};
use partie_core::{Error, ErrorKind};
use serde_json::{json, Value};
use std::fmt;
use std::time::Duration;
use tokio_postgres::{IsolationLevel, NoTls};

/// The migrations, in order: the schema's version is the number of them applied. Append only:
/// a hub refuses a database whose version is higher than the length of its list.
pub const MIGRATIONS: &[&str] = &[
    // 1: clubs, records, the league's results.
    "CREATE TABLE club (
         id bigserial PRIMARY KEY,
         name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
         token_sha256 bytea NOT NULL UNIQUE,
         last_seq bigint NOT NULL DEFAULT 0,
         created_at timestamptz NOT NULL DEFAULT now()
     );
     CREATE TABLE record (
         club_id bigint NOT NULL REFERENCES club (id),
         kind text NOT NULL CHECK (kind IN ('match', 'tournament')),
         uid text NOT NULL,
         revision bigint NOT NULL,
         seq bigint NOT NULL,
         actions integer NOT NULL,
         body text NOT NULL,
         status text,
         scores text,
         t_uid text,
         t_round bigint,
         t_table bigint,
         PRIMARY KEY (club_id, kind, uid)
     );
     CREATE UNIQUE INDEX record_by_seq ON record (club_id, seq);
     CREATE UNIQUE INDEX record_by_table ON record (club_id, t_uid, t_round, t_table)
         WHERE t_uid IS NOT NULL;
     CREATE TABLE league_result (
         club_id bigint NOT NULL REFERENCES club (id),
         uid text NOT NULL,
         side integer NOT NULL,
         seat integer NOT NULL,
         name text NOT NULL,
         season integer NOT NULL,
         outcome text NOT NULL CHECK (outcome IN ('won', 'drawn', 'lost')),
         PRIMARY KEY (club_id, uid, side, seat)
     );
     CREATE INDEX league_result_by_season ON league_result (season, club_id, name);",
    // 2: each club's name in the cursors it hands out (docs/hub.md, "Pages"), random and given
    //    once (a volatile default is drawn anew for every row, the clubs already there too).
    "ALTER TABLE club ADD COLUMN cursor_name text NOT NULL
         DEFAULT substr(md5(random()::text || clock_timestamp()::text), 1, 16);",
    // 3: where this database is (docs/hub.md, "Pages"), checked at every start: a copy put
    //    back from a dump is elsewhere, and its clubs' cursor names are drawn again.
    "CREATE TABLE hub_copy (
         id integer PRIMARY KEY CHECK (id = 1),
         fingerprint text NOT NULL
     );",
    // 4: a match against the computer counts for no league (`write_match`): the results such
    //    matches wrote before go. A hub from before the NUL character was refused stored it
    //    escaped in a body's text, which neither `jsonb` nor `json`'s operators read (the
    //    migration failed, at every start): such a body is read as the text the hub wrote
    //    (compact JSON, where only a key is followed by `":`). The backslash is `chr(92)`: a
    //    server with `standard_conforming_strings` off would read `'\u0000'` as an escape.
    "DELETE FROM league_result l USING record r
         WHERE r.club_id = l.club_id AND r.kind = 'match' AND r.uid = l.uid
           AND CASE WHEN strpos(r.body, chr(92) || 'u0000') = 0 THEN (r.body::jsonb) ? 'computer'
                    ELSE r.body LIKE '%\"computer\":%' END;",
    // 5: a player's matches are counted as the statistics count them (`write_match`): a name
    //    on two sides of a match is left out, and a name with two seats of a side keeps its
    //    first. One row a seat counted such a match twice.
    "DELETE FROM league_result l USING (
         SELECT club_id, uid, name FROM league_result
         GROUP BY club_id, uid, name HAVING count(DISTINCT side) > 1
     ) two WHERE l.club_id = two.club_id AND l.uid = two.uid AND l.name = two.name;
     DELETE FROM league_result l WHERE EXISTS (
         SELECT 1 FROM league_result o
         WHERE o.club_id = l.club_id AND o.uid = l.uid AND o.name = l.name
           AND o.side = l.side AND o.seat < l.seat
     );",
];

/// The schema version this hub writes: the number of its migrations.
pub fn latest() -> i64 {
    MIGRATIONS.len() as i64
}

/// Why a PostgreSQL hub or command could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// The database was migrated by a newer hub: this one does not know its schema.
    Newer {
        /// The database's schema version.
        database: i64,
        /// The newest this hub knows.
        hub: i64,
    },
    /// No club of this database has that token.
    NoClub,
    /// The address, the server or a query failed.
    Storage(String),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Newer { database, hub } => write!(
                f,
                "the database's schema is version {database}, newer than this hub's {hub}: \
                 run a newer partie-hub"
            ),
            OpenError::NoClub => write!(
                f,
                "no club of this database has that token (partie-hub club add NAME --postgres URL)"
            ),
            OpenError::Storage(d) => write!(f, "{d}"),
        }
    }
}

impl std::error::Error for OpenError {}

fn db_error(e: impl std::error::Error) -> Error {
    Error::storage(format!("postgresql: {}", said(&e)))
}

fn open_error(e: impl std::error::Error) -> OpenError {
    OpenError::Storage(format!("postgresql: {}", said(&e)))
}

/// An error with its causes: tokio-postgres says only "db error", and the server's own words
/// (which table, which value) are its cause's.
fn said(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        // (A pool's error says its cause in its own text already.)
        let said = c.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = c.source();
    }
    text
}

/// The key of "the hub's schema" among advisory locks (any constant): a migration holds it
/// alone, each push shared.
const MIGRATION_LOCK: i64 = 7878001;

/// How many connections a hub keeps open at most (each push or page holds one while it runs).
pub const POOL_SIZE: usize = 16;

/// How long the database may keep a hub waiting. Every other wait of a hub is bounded
/// (docs/hub.md, "Connections"); without these, a hub that stalls inside a push (its laptop
/// asleep, its network cut without a word) kept its club's row locked for as long as TCP took
/// to notice, two hours, and every push of that club, on every hub, waited as long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waits {
    /// For a lock another transaction holds (a push waiting for the club's row).
    pub lock: Duration,
    /// For one statement.
    pub statement: Duration,
    /// For a transaction left open with nothing running: the server ends its session, so that
    /// what it held is let go.
    pub idle_in_transaction: Duration,
}

impl Default for Waits {
    fn default() -> Waits {
        Waits {
            lock: Duration::from_secs(10),
            statement: Duration::from_secs(30),
            idle_in_transaction: Duration::from_secs(30),
        }
    }
}

impl Waits {
    /// As settings the server reads at connection (`options`), in milliseconds.
    fn options(&self) -> String {
        format!(
            "-c lock_timeout={} -c statement_timeout={} -c idle_in_transaction_session_timeout={}",
            self.lock.as_millis(),
            self.statement.as_millis(),
            self.idle_in_transaction.as_millis()
        )
    }
}

/// A pool of connections to `url` (`postgresql://user@host:port/db` or `host=... dbname=...`).
/// A connection found closed (the server restarted) is replaced by a new one when next taken.
pub fn pool(url: &str, size: usize) -> Result<Pool, OpenError> {
    pool_waiting(url, size, Waits::default())
}

/// [`pool`], its connections waiting at most `waits` on the database (the tests shorten them).
pub fn pool_waiting(url: &str, size: usize, waits: Waits) -> Result<Pool, OpenError> {
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| OpenError::Storage(format!("{url:?} is not a PostgreSQL address: {e}")))?;
    // The address's own settings come after, so that an administrator's win.
    let options = match config.get_options() {
        Some(given) => format!("{} {given}", waits.options()),
        None => waits.options(),
    };
    config.options(options);
    // A server gone without a word (no reset) is noticed in about a minute, not two hours.
    config.keepalives_idle(Duration::from_secs(30));
    config.keepalives_interval(Duration::from_secs(10));
    config.keepalives_retries(3);
    config.connect_timeout(Duration::from_secs(5));
    config.application_name("partie-hub");
    let manager = Manager::from_config(
        config,
        NoTls,
        ManagerConfig {
            // A closed connection is noticed without a round trip; one that breaks while in use
            // fails its request, and the request is tried once more on a fresh one.
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(size)
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(Duration::from_secs(10)))
        .create_timeout(Some(Duration::from_secs(5)))
        .recycle_timeout(Some(Duration::from_secs(5)))
        .build()
        .map_err(open_error)
}

/// Brings the database to the hub's schema in one transaction (two hubs starting at once wait
/// for each other on an advisory lock), refuses a database newer than the hub, and draws new
/// cursor names for a copy put back from a dump ([`restored_copy`]). Returns the schema
/// version.
pub async fn migrate(pool: &Pool) -> Result<i64, OpenError> {
    migrate_with(pool, MIGRATIONS).await
}

/// [`migrate`] with a given list (the tests play an older hub with a shorter one).
pub async fn migrate_with(pool: &Pool, migrations: &[&str]) -> Result<i64, OpenError> {
    let mut client = pool.get().await.map_err(open_error)?;
    // Read committed, whatever the server's default: after waiting for the lock, the version
    // read is the one another hub's migration just committed.
    let tx = client
        .build_transaction()
        .isolation_level(IsolationLevel::ReadCommitted)
        .start()
        .await
        .map_err(open_error)?;
    // A migration of a big league may take its time, and waits for another hub's.
    tx.batch_execute("SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0")
        .await
        .map_err(open_error)?;
    // Alone: pushes hold it shared ([`PgStorage::push`]), so a migration waits for those
    // running, and those after it see the new schema.
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(open_error)?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS partie_schema (
             version integer PRIMARY KEY,
             applied_at timestamptz NOT NULL DEFAULT now()
         )",
    )
    .await
    .map_err(open_error)?;
    let row = tx
        .query_one("SELECT COALESCE(max(version), 0) FROM partie_schema", &[])
        .await
        .map_err(open_error)?;
    let current = row.get::<_, i32>(0) as i64;
    let known = migrations.len() as i64;
    if current > known {
        // Rolled back here, not on drop: the connection goes back to the pool clean.
        tx.rollback().await.map_err(open_error)?;
        return Err(OpenError::Newer {
            database: current,
            hub: known,
        });
    }
    for (i, sql) in migrations.iter().enumerate().skip(current as usize) {
        tx.batch_execute(sql).await.map_err(open_error)?;
        tx.execute(
            "INSERT INTO partie_schema (version) VALUES ($1)",
            &[&(i as i32 + 1)],
        )
        .await
        .map_err(open_error)?;
    }
    restored_copy(&tx).await?;
    tx.commit().await.map_err(open_error)?;
    Ok(known)
}

/// Where this database is: its cluster (`system_identifier`, where the server lets its users
/// read it), the database's own id, and the id of its `record` table. A dump restored into
/// another cluster, another database or over this one (`pg_restore --clean`, which makes the
/// tables again) has another; a restart, an upgrade of the hub or new rows keep it.
async fn fingerprint(tx: &deadpool_postgres::Transaction<'_>) -> Result<String, OpenError> {
    // Some hosted servers keep the control file's functions to their administrators: the
    // database's and the table's ids still tell a restore.
    let cluster: bool = tx
        .query_one(
            "SELECT has_function_privilege('pg_control_system()', 'EXECUTE')",
            &[],
        )
        .await
        .map_err(open_error)?
        .get(0);
    let cluster = if cluster {
        "(SELECT system_identifier FROM pg_control_system())::text"
    } else {
        "''"
    };
    let row = tx
        .query_one(
            &format!(
                "SELECT {cluster}
                     || '/' || (SELECT oid FROM pg_database WHERE datname = current_database())::text
                     || '/' || to_regclass('record')::oid::text"
            ),
            &[],
        )
        .await
        .map_err(open_error)?;
    Ok(row.get(0))
}

/// A copy of the database put back (a dump restored, found by its fingerprint): its clubs'
/// cursor names are drawn again, so that every device's cursor is another hub's and the
/// device starts again from the start both ways (pulling all, pushing all). Its `last_seq` is
/// older than the cursors the devices hold; once the other devices had pushed past it, an old
/// cursor would be taken, and what a device pushed after the dump was made would never be
/// pushed again.
async fn restored_copy(tx: &deadpool_postgres::Transaction<'_>) -> Result<(), OpenError> {
    let has_copy: bool = tx
        .query_one("SELECT to_regclass('hub_copy') IS NOT NULL", &[])
        .await
        .map_err(open_error)?
        .get(0);
    if !has_copy {
        // An older hub's list of migrations (the tests play one).
        return Ok(());
    }
    let here = fingerprint(tx).await?;
    // The first start with the table notes where the database is; a later one, whether it
    // moved.
    let noted = tx
        .execute(
            "INSERT INTO hub_copy (id, fingerprint) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
            &[&here],
        )
        .await
        .map_err(open_error)?;
    let moved = if noted > 0 {
        0
    } else {
        tx.execute(
            "UPDATE hub_copy SET fingerprint = $1 WHERE id = 1 AND fingerprint <> $1",
            &[&here],
        )
        .await
        .map_err(open_error)?
    };
    if moved > 0 {
        tx.execute(
            "UPDATE club SET cursor_name =
                 substr(md5(random()::text || clock_timestamp()::text || id::text), 1, 16)",
            &[],
        )
        .await
        .map_err(open_error)?;
    }
    Ok(())
}

fn token_hash(token: &str) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest(token.trim().as_bytes()).to_vec()
}

/// A new random club token: 32 hexadecimal digits from the system's randomness.
pub fn new_token() -> Result<String, OpenError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| OpenError::Storage(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Creates a club with `token` (`partie-hub club add`); `bad_setup` when the name is taken or
/// not 1 to 100 characters. Returns the club's id.
pub async fn add_club(pool: &Pool, name: &str, token: &str) -> Result<i64, Error> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(Error::bad_setup("a club's name is 1 to 100 characters"));
    }
    let client = pool.get().await.map_err(db_error)?;
    let row = client
        .query_opt(
            "INSERT INTO club (name, token_sha256) VALUES ($1, $2)
             ON CONFLICT DO NOTHING RETURNING id",
            &[&name, &token_hash(token)],
        )
        .await
        .map_err(db_error)?;
    row.map(|r| r.get(0))
        .ok_or_else(|| Error::bad_setup(format!("there is a club {name:?} already")))
}

/// The clubs, by name: (id, name).
pub async fn clubs(pool: &Pool) -> Result<Vec<(i64, String)>, Error> {
    let client = pool.get().await.map_err(db_error)?;
    let rows = client
        .query("SELECT id, name FROM club ORDER BY name", &[])
        .await
        .map_err(db_error)?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// One club's records in a league database: what a hub started with that club's token uses.
pub struct PgStorage {
    pool: Pool,
    club: i64,
    name: String,
}

/// A pushed record read and replayed before the transaction (pure work, done off the database).
/// The replay's outcome is kept beside the record as read: a known record is decided by its
/// revision and setup first (docs/hub.md), and only a new or newer one needs the replay.
enum Read {
    Match(Box<PushedMatch>, Result<MatchState, Error>),
    Tournament(Box<PushedTournament>, Result<Tournament, Error>),
    Refused(Refused),
}

fn read(value: &Value) -> Read {
    match record_kind(value) {
        Err(refusal) => Read::Refused(Refused::Said(refusal)),
        Ok(RecordKind::Match) => match PushedMatch::read(value) {
            Ok(m) => {
                let replayed = m.replay();
                Read::Match(Box::new(m), replayed)
            }
            Err(e) => Read::Refused(Refused::Kind(e)),
        },
        Ok(RecordKind::Tournament) => match PushedTournament::read(value) {
            Ok(t) => {
                let replayed = t.record.replay();
                Read::Tournament(Box::new(t), replayed)
            }
            Err(e) => Read::Refused(Refused::Kind(e)),
        },
    }
}

/// A record refused by the rules, or the database failing (the whole push is refused).
enum Refused {
    Kind(Error),
    Conflict(String),
    /// Refused as it was read (no record at all, or not readable): the refusal as it goes
    /// into the answer.
    Said(Refusal),
    Storage(tokio_postgres::Error),
}

impl From<Error> for Refused {
    fn from(e: Error) -> Self {
        Refused::Kind(e)
    }
}

impl From<tokio_postgres::Error> for Refused {
    fn from(e: tokio_postgres::Error) -> Self {
        Refused::Storage(e)
    }
}

fn conflict(detail: String) -> Refused {
    Refused::Conflict(detail)
}

/// A stored body back as JSON; a row that is not is the database's fault.
fn parse_body(body: &str) -> Result<Value, Error> {
    serde_json::from_str(body).map_err(|e| Error::storage(format!("a stored record: {e}")))
}

/// A stored tournament's record and revision.
fn stored_tournament(body: &str) -> Result<TournamentRecord, Error> {
    TournamentRecord::from_value(&parse_body(body)?)
        .map_err(|e| Error::storage(format!("a stored tournament: {}", e.detail)))
}

/// The season a match counts for: the year (UTC) it started.
fn season_of(started_at_ms: i64) -> i32 {
    // Days since 1970-01-01 to a civil year (Howard Hinnant's algorithm), to need no calendar
    // crate for one number.
    let days = started_at_ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2)) as i32
}

/// The writes of one push, in one transaction on the club's locked row.
struct Push<'a, C: GenericClient> {
    tx: &'a C,
    club: i64,
    seq: i64,
}

impl<C: GenericClient + Sync> Push<'_, C> {
    fn next_seq(&mut self) -> i64 {
        self.seq += 1;
        self.seq
    }

    async fn merge(&mut self, read: Read) -> Result<Taken, Refused> {
        match read {
            Read::Refused(r) => Err(r),
            Read::Match(m, replayed) => self.merge_match(*m, replayed).await,
            Read::Tournament(t, replayed) => self.merge_tournament(*t, replayed).await,
        }
    }

    async fn tournament_row(&self, uid: &str) -> Result<Option<(i64, String)>, Refused> {
        let row = self
            .tx
            .query_opt(
                "SELECT revision, body FROM record
                 WHERE club_id = $1 AND kind = 'tournament' AND uid = $2",
                &[&self.club, &uid],
            )
            .await?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    /// Writes a tournament's record (a new revision of it) as its latest change.
    async fn write_tournament(
        &mut self,
        uid: &str,
        revision: i64,
        body: &Value,
        events: usize,
    ) -> Result<(), Refused> {
        let seq = self.next_seq();
        self.tx
            .execute(
                "INSERT INTO record (club_id, kind, uid, revision, seq, actions, body)
                 VALUES ($1, 'tournament', $2, $3, $4, $5, $6)
                 ON CONFLICT (club_id, kind, uid) DO UPDATE SET revision = excluded.revision,
                     seq = excluded.seq, actions = excluded.actions, body = excluded.body",
                &[
                    &self.club,
                    &uid,
                    &revision,
                    &seq,
                    &(events as i32),
                    &body.to_string(),
                ],
            )
            .await?;
        Ok(())
    }

    /// Checks a new table match against its tournament (as the SQLite store does).
    async fn check_table(&self, m: &IncomingMatch, link: &Link) -> Result<(), Refused> {
        let (_, body) = self
            .tournament_row(&link.tournament)
            .await?
            .ok_or_else(|| {
                Refused::Kind(Error::not_found(format!(
                    "no tournament {} here",
                    link.tournament
                )))
            })?;
        let record = stored_tournament(&body)?;
        let t = record
            .replay()
            .map_err(|e| Error::storage(format!("tournament {}: {}", link.tournament, e.detail)))?;
        check_table_setup(&t, m, link)?;
        let taken = self
            .tx
            .query_opt(
                "SELECT uid FROM record WHERE club_id = $1 AND t_uid = $2 AND t_round = $3
                 AND t_table = $4",
                &[&self.club, &link.tournament, &link.round, &link.table],
            )
            .await?;
        if let Some(row) = taken {
            let other: String = row.get(0);
            if other != m.uid {
                return Err(conflict(format!(
                    "round {} table {} is already played by match {other}",
                    link.round, link.table
                )));
            }
        }
        Ok(())
    }

    /// Enters a finished table match's result in its tournament, once; a result the tournament
    /// refuses is left for the organiser, as the SQLite store does.
    async fn enter_result(&mut self, m: &IncomingMatch) -> Result<(), Refused> {
        let (Some(link), Some(event)) = (&m.link, m.result_event()) else {
            return Ok(());
        };
        let Some((revision, body)) = self.tournament_row(&link.tournament).await? else {
            return Ok(());
        };
        let mut served = parse_body(&body)?;
        let mut record = stored_tournament(&body)?;
        let t = record
            .replay()
            .map_err(|e| Error::storage(format!("tournament {}: {}", link.tournament, e.detail)))?;
        if t.play_json(&event).is_ok() {
            record.events.push(event);
            served["events"] = json!(record.events);
            served["revision"] = json!(revision + 1);
            self.write_tournament(&link.tournament, revision + 1, &served, record.events.len())
                .await?;
        }
        Ok(())
    }

    /// Takes back the result a table match entered while its round is played
    /// (`TournamentRecord::taken_back`), as the SQLite store does.
    async fn take_back_result(&mut self, uid: &str, link: &Link) -> Result<(), Refused> {
        let Some((revision, body)) = self.tournament_row(&link.tournament).await? else {
            return Ok(());
        };
        let mut served = parse_body(&body)?;
        let mut record = stored_tournament(&body)?;
        if let Some((at, _)) = record.taken_back(uid) {
            record.events.remove(at);
            served["events"] = json!(record.events);
            served["revision"] = json!(revision + 1);
            self.write_tournament(&link.tournament, revision + 1, &served, record.events.len())
                .await?;
        }
        Ok(())
    }

    /// Writes a match as served, its columns, and its players' results for the league.
    async fn write_match(&mut self, m: &IncomingMatch) -> Result<(), Refused> {
        let seq = self.next_seq();
        let summary = m.state.summary();
        let status = summary
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or("playing")
            .to_string();
        let scores = summary.get("scores").cloned().unwrap_or(Value::Null);
        let (t_uid, t_round, t_table) = match &m.link {
            Some(l) => (Some(l.tournament.clone()), Some(l.round), Some(l.table)),
            None => (None, None, None),
        };
        self.tx
            .execute(
                "INSERT INTO record (club_id, kind, uid, revision, seq, actions, body, status,
                                     scores, t_uid, t_round, t_table)
                 VALUES ($1, 'match', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 ON CONFLICT (club_id, kind, uid) DO UPDATE SET revision = excluded.revision,
                     seq = excluded.seq, actions = excluded.actions, body = excluded.body,
                     status = excluded.status, scores = excluded.scores",
                &[
                    &self.club,
                    &m.uid,
                    &m.revision,
                    &seq,
                    &(m.record.actions.len() as i32),
                    &m.served().to_string(),
                    &status,
                    &scores.to_string(),
                    &t_uid,
                    &t_round,
                    &t_table,
                ],
            )
            .await?;
        self.tx
            .execute(
                "DELETE FROM league_result WHERE club_id = $1 AND uid = $2",
                &[&self.club, &m.uid],
            )
            .await?;
        // A match against the computer is no league's: its player's wins and losses are not
        // against a club's player (as the ratings leave it out).
        if let Some(result) = m.state.result().filter(|_| m.computer.is_empty()) {
            let season = season_of(m.started_at);
            let mut names = Vec::new();
            let mut sides = Vec::new();
            let mut seats = Vec::new();
            let mut outcomes = Vec::new();
            // As the statistics count (docs/ratings.md): a name on two sides is left out, and
            // one with two seats of a side counts once (its first seat). One row a seat gave
            // such a name two matches played for one.
            let sides_of = |name: &String| {
                m.sides()
                    .iter()
                    .filter(|players| players.contains(name))
                    .count()
            };
            for (side, players) in m.sides().iter().enumerate() {
                let outcome = match result.winner {
                    None => "drawn",
                    Some(w) if w == side => "won",
                    Some(_) => "lost",
                };
                for (seat, name) in players.iter().enumerate() {
                    if sides_of(name) > 1 || players[..seat].contains(name) {
                        continue;
                    }
                    names.push(name.clone());
                    sides.push(side as i32);
                    seats.push(seat as i32);
                    outcomes.push(outcome.to_string());
                }
            }
            self.tx
                .execute(
                    "INSERT INTO league_result (club_id, uid, side, seat, name, season, outcome)
                     SELECT $1, $2, s, p, n, $3, o
                     FROM unnest($4::int[], $5::int[], $6::text[], $7::text[]) AS x (s, p, n, o)",
                    &[
                        &self.club, &m.uid, &season, &sides, &seats, &names, &outcomes,
                    ],
                )
                .await?;
        }
        Ok(())
    }

    async fn merge_match(
        &mut self,
        pushed: PushedMatch,
        replayed: Result<MatchState, Error>,
    ) -> Result<Taken, Refused> {
        let row = self
            .tx
            .query_opt(
                "SELECT revision, body, t_uid, t_round, t_table, status FROM record
                 WHERE club_id = $1 AND kind = 'match' AND uid = $2",
                &[&self.club, &pushed.uid],
            )
            .await?;
        let Some(row) = row else {
            let m = IncomingMatch {
                pushed,
                state: replayed?,
            };
            if let Some(link) = &m.link {
                self.check_table(&m, link).await?;
            }
            self.write_match(&m).await?;
            if m.state.is_over() {
                self.enter_result(&m).await?;
            }
            return Ok(Taken::Accepted);
        };
        let revision: i64 = row.get(0);
        let body: String = row.get(1);
        let link = match (row.get::<_, Option<String>>(2), row.get(3), row.get(4)) {
            (Some(tournament), Some(round), Some(table)) => Some(Link {
                tournament,
                round,
                table,
            }),
            _ => None,
        };
        let status: Option<String> = row.get(5);
        let held_value = parse_body(&body)?;
        let mut held = Record::from_value(held_value.clone())
            .map_err(|e| Error::storage(format!("match {}: {}", pushed.uid, e.detail)))?;
        take_action_times(&mut held, 0);
        let sides = trimmed(&held.sides);
        let facts = HeldMatch {
            game: &held.game,
            rules: &held.rules,
            sides: &sides,
            link: link.as_ref(),
            revision,
            actions: &held.actions,
        };
        match decide_match(&facts, &pushed, partie_core::store::Source::Device).map_err(conflict)? {
            Decision::Already => return Ok(Taken::Already),
            Decision::Replace { .. } => {}
        }
        let mut m = IncomingMatch {
            pushed,
            state: replayed?,
        };
        // What a finished table match entered changes only when its result does.
        let old_result = if status.as_deref() != Some("playing") {
            held_result(&m, &held.actions)
        } else {
            None
        };
        let new_result = m.state.result();
        // The start the hub holds stays (the SQLite store keeps its row's).
        if let Some(start) = held_value
            .get("started_at")
            .and_then(Value::as_str)
            .and_then(parse_iso)
        {
            m.pushed.started_at = start;
        }
        self.write_match(&m).await?;
        if let Some(link) = &link {
            if old_result != new_result {
                if old_result.is_some() {
                    self.take_back_result(&m.uid, link).await?;
                }
                if new_result.is_some() {
                    self.enter_result(&m).await?;
                }
            }
        }
        Ok(Taken::Updated)
    }

    async fn merge_tournament(
        &mut self,
        pushed: PushedTournament,
        replayed: Result<Tournament, Error>,
    ) -> Result<Taken, Refused> {
        let Some((revision, body)) = self.tournament_row(&pushed.uid).await? else {
            let t = IncomingTournament {
                pushed,
                state: replayed?,
            };
            let created = t.created_at.unwrap_or_else(partie_core::time::now_ms);
            let served = tournament_served(&t.uid, t.revision, created, &t.record);
            self.write_tournament(&t.uid, t.revision, &served, t.record.events.len())
                .await?;
            return Ok(Taken::Accepted);
        };
        let held_value = parse_body(&body)?;
        let held = stored_tournament(&body)?;
        match decide_tournament(&held, revision, &pushed, partie_core::store::Source::Device)
            .map_err(conflict)?
        {
            Decision::Already => return Ok(Taken::Already),
            Decision::Replace { .. } => {}
        }
        let t = IncomingTournament {
            pushed,
            state: replayed?,
        };
        let created = held_value
            .get("created_at")
            .and_then(Value::as_str)
            .and_then(parse_iso)
            .unwrap_or_else(partie_core::time::now_ms);
        let served = tournament_served(&t.uid, t.revision, created, &t.record);
        self.write_tournament(&t.uid, t.revision, &served, t.record.events.len())
            .await?;
        // Matches linked to rounds that are no longer paired stay in the history, unlinked.
        let round = t.state.round() as i64;
        let unlinked = self
            .tx
            .query(
                "SELECT uid, body FROM record WHERE club_id = $1 AND kind = 'match'
                 AND t_uid = $2 AND t_round > $3",
                &[&self.club, &t.uid, &round],
            )
            .await?;
        for row in unlinked {
            let uid: String = row.get(0);
            let mut body = parse_body(row.get(1))?;
            if let Some(o) = body.as_object_mut() {
                o.remove("tournament");
            }
            self.tx
                .execute(
                    "UPDATE record SET t_uid = NULL, t_round = NULL, t_table = NULL, body = $3
                     WHERE club_id = $1 AND kind = 'match' AND uid = $2",
                    &[&self.club, &uid, &body.to_string()],
                )
                .await?;
        }
        // Replaced, if only its revision: `updated`, as for a match (docs/hub.md).
        Ok(Taken::Updated)
    }
}

/// Whether a failed request may be tried again on a fresh connection: the one it had was
/// closed under it (the server restarted since it was opened).
fn retry_after(e: &tokio_postgres::Error) -> bool {
    e.is_closed() || e.as_db_error().is_none() && e.to_string().contains("connection")
}

fn pool_error(e: deadpool_postgres::PoolError) -> Error {
    Error::storage(format!("postgresql: no connection: {}", said(&e)))
}

impl PgStorage {
    /// Opens the club whose token is `token` in the database `url` (migrating it first).
    pub async fn open(url: &str, token: &str, pool_size: usize) -> Result<PgStorage, OpenError> {
        let pool = pool(url, pool_size)?;
        migrate(&pool).await?;
        PgStorage::for_token(pool, token).await
    }

    /// The club whose token is `token` in a migrated database.
    pub async fn for_token(pool: Pool, token: &str) -> Result<PgStorage, OpenError> {
        let client = pool.get().await.map_err(open_error)?;
        let row = client
            .query_opt(
                "SELECT id, name FROM club WHERE token_sha256 = $1",
                &[&token_hash(token)],
            )
            .await
            .map_err(open_error)?
            .ok_or(OpenError::NoClub)?;
        drop(client);
        Ok(PgStorage {
            club: row.get(0),
            name: row.get(1),
            pool,
        })
    }

    /// The club's name.
    pub fn club_name(&self) -> &str {
        &self.name
    }

    /// The club's id in the database.
    pub fn club_id(&self) -> i64 {
        self.club
    }

    /// The pool (for the league's reads and the tests).
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Merges a push (`docs/hub.md`, "The API") in one transaction, the club's row locked.
    pub async fn push(&self, records: RawRecords) -> Result<MergeReport, Error> {
        // Reading and replaying is pure work: off the async threads, before any lock is held.
        // Each record is read from its raw JSON in turn and only what the merge needs is kept
        // (see `Store::merge_raw`).
        let records = std::sync::Arc::new(records);
        for attempt in 0..2 {
            let values = records.clone();
            let (ids, reads) = tokio::task::spawn_blocking(move || {
                (0..values.len())
                    .map(|i| match read_raw(values.get(i)) {
                        Ok(value) => (refusal_id(&value), read(&value)),
                        Err(refusal) => (None, Read::Refused(Refused::Said(refusal))),
                    })
                    .unzip::<_, _, Vec<Option<String>>, Vec<Read>>()
            })
            .await
            .map_err(|_| Error::storage("reading the push failed"))?;
            match self.push_once(&ids, reads).await {
                Err(Attempt::Retry(_)) if attempt == 0 => continue,
                Err(Attempt::Retry(e)) | Err(Attempt::Fail(e)) => return Err(e),
                Ok(report) => return Ok(report),
            }
        }
        unreachable!("the loop returns")
    }

    async fn push_once(
        &self,
        ids: &[Option<String>],
        reads: Vec<Read>,
    ) -> Result<MergeReport, Attempt> {
        let mut client = self.pool.get().await.map_err(|e| {
            // A pool that cannot connect now will not in the next microsecond either.
            Attempt::Fail(pool_error(e))
        })?;
        let fail = |e: tokio_postgres::Error| {
            if retry_after(&e) {
                Attempt::Retry(db_error(&e))
            } else {
                Attempt::Fail(db_error(&e))
            }
        };
        // Read committed, whatever the server's default: a push waiting for the club's row
        // reads it again once the push before it committed. Under repeatable read the second
        // of two pushes at once failed to serialize (a 500, not `already`).
        let tx = client
            .build_transaction()
            .isolation_level(IsolationLevel::ReadCommitted)
            .start()
            .await
            .map_err(fail)?;
        let merged = async {
            // Shared with every push, taken alone by a migration: a hub writes only under the
            // schema it knows. A newer hub's migration (one that takes the matches against the
            // computer out of the league, say) is not undone by an older hub still running.
            tx.execute(
                "SELECT pg_advisory_xact_lock_shared($1)",
                &[&MIGRATION_LOCK],
            )
            .await
            .map_err(fail)?;
            let row = tx
                .query_one(
                    "SELECT last_seq, (SELECT COALESCE(max(version), 0) FROM partie_schema)
                     FROM club WHERE id = $1 FOR UPDATE",
                    &[&self.club],
                )
                .await
                .map_err(fail)?;
            let schema = i64::from(row.get::<_, i32>(1));
            if schema > latest() {
                return Err(Attempt::Fail(Error::storage(format!(
                    "the database is at schema {schema}, migrated by a newer hub than this one \
                     (schema {}): this hub takes no more pushes until it is upgraded",
                    latest()
                ))));
            }
            let mut push = Push {
                tx: &tx,
                club: self.club,
                seq: row.get(0),
            };
            let mut report = MergeReport::default();
            for (read, id) in reads.into_iter().zip(ids) {
                match push.merge(read).await {
                    Ok(taken) => report.count(taken),
                    // A storage error met while reading a held row is the database's too.
                    Err(Refused::Kind(e)) if e.kind == ErrorKind::Storage => {
                        return Err(Attempt::Fail(e))
                    }
                    Err(Refused::Kind(e)) => report.refused.push(Refusal::of(id.clone(), e)),
                    Err(Refused::Conflict(detail)) => report.refused.push(Refusal {
                        id: id.clone(),
                        kind: "conflict",
                        detail: detail.into(),
                    }),
                    Err(Refused::Said(refusal)) => report.refused.push(refusal),
                    Err(Refused::Storage(e)) => return Err(fail(e)),
                }
            }
            let seq = push.seq;
            tx.execute(
                "UPDATE club SET last_seq = $2 WHERE id = $1",
                &[&self.club, &seq],
            )
            .await
            .map_err(fail)?;
            Ok(report)
        }
        .await;
        match merged {
            Ok(report) => {
                // Not tried again: a connection lost after the server took the COMMIT leaves the
                // push stored, and a second run would answer `already` for what it accepted.
                // The device sends it again after the 500, and is told what the hub holds.
                tx.commit().await.map_err(|e| Attempt::Fail(db_error(&e)))?;
                Ok(report)
            }
            Err(e) => {
                // Nothing of the push is taken. Rolled back here rather than on drop, so that
                // the connection goes back to the pool outside any transaction (and the club's
                // row unlocked); a closed one is dropped by the pool anyway.
                let _ = tx.rollback().await;
                Err(e)
            }
        }
    }

    /// Runs a read on a pooled connection, once more on a fresh one if the first was closed.
    async fn read<T, F>(&self, f: F) -> Result<T, Error>
    where
        F: for<'c> Fn(
            &'c deadpool_postgres::Client,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<T, ReadFail>> + Send + 'c>,
        >,
    {
        for attempt in 0..2 {
            let client = self.pool.get().await.map_err(pool_error)?;
            match f(&client).await {
                Ok(v) => return Ok(v),
                Err(ReadFail::Db(e)) if attempt == 0 && retry_after(&e) => continue,
                Err(ReadFail::Db(e)) => return Err(db_error(e)),
                Err(ReadFail::Kind(e)) => return Err(e),
            }
        }
        unreachable!("the loop returns")
    }

    /// The club's latest place in its change log.
    pub async fn change_seq(&self) -> Result<i64, Error> {
        let club = self.club;
        self.read(move |c| {
            Box::pin(async move {
                let row = c
                    .query_one("SELECT last_seq FROM club WHERE id = $1", &[&club])
                    .await?;
                Ok(row.get(0))
            })
        })
        .await
    }

    /// The club's records changed after `seq`, at most `limit`, oldest first.
    pub async fn changes_since(&self, seq: i64, limit: i64) -> Result<Vec<Change>, Error> {
        let club = self.club;
        self.read(move |c| {
            Box::pin(async move {
                let rows = c
                    .query(
                        "SELECT seq, kind, uid, actions, revision FROM record
                         WHERE club_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                        &[&club, &seq, &limit],
                    )
                    .await?;
                Ok(rows
                    .iter()
                    .filter_map(|r| {
                        Some(Change {
                            seq: r.get(0),
                            record: RecordKind::parse(r.get(1))?,
                            id: r.get(2),
                            actions: r.get::<_, i32>(3) as i64,
                            revision: r.get(4),
                        })
                    })
                    .collect())
            })
        })
        .await
    }

    /// A page of `GET /v1/records`: the club's records changed since `cursor`.
    pub async fn records_since(&self, cursor: Option<String>, limit: usize) -> Result<Page, Error> {
        let club = self.club;
        let limit = limit.min(i64::MAX as usize) as i64;
        let given = cursor.clone();
        let (name, rows): (String, Vec<(i64, String)>) = self
            .read(move |c| {
                let given = given.clone();
                Box::pin(async move {
                    let row = c
                        .query_one(
                            "SELECT last_seq, cursor_name FROM club WHERE id = $1",
                            &[&club],
                        )
                        .await?;
                    let (last, name): (i64, String) = (row.get(0), row.get(1));
                    let since = cursor_of(given.as_deref(), &name).map_err(ReadFail::Kind)?;
                    // Past the club's last change: a cursor this hub never gave (as in SQLite).
                    if since > last {
                        return Err(ReadFail::Kind(cursor_not_given(since)));
                    }
                    // No further than a page's bytes (as in SQLite): the server cuts the page
                    // where the bodies before a row reach the bound, so that the rows after it
                    // are neither read nor sent (`octet_length` reads a stored body's length
                    // without unpacking it).
                    let bytes = partie_core::merge::PAGE_BYTES as i64;
                    let rows = c
                        .query(
                            "SELECT seq, body FROM (
                                 SELECT seq, body,
                                        sum(octet_length(body)) OVER (ORDER BY seq)
                                            - octet_length(body) AS before
                                 FROM (SELECT seq, body FROM record
                                       WHERE club_id = $1 AND seq > $2
                                       ORDER BY seq LIMIT $3) AS page
                             ) AS sized
                             WHERE before < $4
                             ORDER BY seq",
                            &[&club, &since, &limit, &bytes],
                        )
                        .await?;
                    let rows: Vec<(i64, String)> =
                        rows.iter().map(|r| (r.get(0), r.get(1))).collect();
                    Ok((name, rows))
                })
            })
            .await?;
        let cursor = match rows.last() {
            Some((seq, _)) => cursor_at(&name, *seq),
            None => cursor.unwrap_or_else(|| "0".to_string()),
        };
        let records = rows
            .iter()
            .map(|(_, body)| parse_body(body))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Page { records, cursor })
    }

    /// A tournament's summary (`docs/tournaments.md`) with its `id`, `revision` and `live`
    /// matches; `current` is the club's tournament changed most recently.
    pub async fn tournament_summary(&self, id: String) -> Result<Value, Error> {
        let club = self.club;
        let found: Option<(String, i64, String)> = self
            .read(move |c| {
                let id = id.clone();
                Box::pin(async move {
                    let row = if id == "current" {
                        c.query_opt(
                            "SELECT uid, revision, body FROM record
                             WHERE club_id = $1 AND kind = 'tournament' ORDER BY seq DESC LIMIT 1",
                            &[&club],
                        )
                        .await?
                    } else {
                        c.query_opt(
                            "SELECT uid, revision, body FROM record
                             WHERE club_id = $1 AND kind = 'tournament' AND uid = $2",
                            &[&club, &id],
                        )
                        .await?
                    };
                    match row {
                        Some(r) => Ok(Some((r.get(0), r.get(1), r.get(2)))),
                        None if id == "current" => {
                            Err(ReadFail::Kind(Error::not_found("no tournament yet")))
                        }
                        None => Err(ReadFail::Kind(Error::not_found(format!(
                            "no tournament {id}"
                        )))),
                    }
                })
            })
            .await?;
        let (uid, revision, body) = found.expect("found or refused");
        let record = stored_tournament(&body)?;
        let t = record.replay().map_err(|e| {
            Error::storage(format!("tournament {uid} no longer replays: {}", e.detail))
        })?;
        let round = t.round() as i64;
        let tuid = uid.clone();
        let live: Vec<Value> = self
            .read(move |c| {
                let tuid = tuid.clone();
                Box::pin(async move {
                    let rows = c
                        .query(
                            "SELECT t_table, uid, status, scores FROM record
                             WHERE club_id = $1 AND kind = 'match' AND t_uid = $2 AND t_round = $3
                             ORDER BY t_table",
                            &[&club, &tuid, &round],
                        )
                        .await?;
                    Ok(rows
                        .iter()
                        .map(|r| {
                            let scores: Option<String> = r.get(3);
                            let scores: Value = scores
                                .and_then(|s| serde_json::from_str(&s).ok())
                                .unwrap_or(Value::Null);
                            json!({"table": r.get::<_, i64>(0), "match": r.get::<_, String>(1),
                                   "status": r.get::<_, Option<String>>(2), "scores": scores})
                        })
                        .collect())
                })
            })
            .await?;
        let mut summary = t.summary();
        summary["id"] = json!(uid);
        summary["revision"] = json!(revision);
        summary["live"] = json!(live);
        Ok(summary)
    }

    /// A club's standings for a season (`GET /v1/league/SEASON/clubs/CLUB`): its players ranked
    /// by wins, then draws, then fewer losses, then name.
    pub async fn club_standings(&self, season: i32, club: String) -> Result<Value, Error> {
        self.read(move |c| {
            let club = club.clone();
            Box::pin(async move {
                let found = c
                    .query_opt("SELECT id, name FROM club WHERE name = $1", &[&club])
                    .await?;
                let Some(found) = found else {
                    return Err(ReadFail::Kind(Error::not_found(format!(
                        "no club {club:?}"
                    ))));
                };
                let id: i64 = found.get(0);
                let rows = c
                    .query(
                        "SELECT name, count(*) AS played,
                                count(*) FILTER (WHERE outcome = 'won') AS won,
                                count(*) FILTER (WHERE outcome = 'drawn') AS drawn,
                                count(*) FILTER (WHERE outcome = 'lost') AS lost
                         FROM league_result WHERE season = $1 AND club_id = $2
                         GROUP BY name ORDER BY won DESC, drawn DESC, lost ASC, name",
                        &[&season, &id],
                    )
                    .await?;
                let standings: Vec<Value> = rows
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        json!({"rank": i + 1, "name": r.get::<_, String>(0),
                               "played": r.get::<_, i64>(1), "won": r.get::<_, i64>(2),
                               "drawn": r.get::<_, i64>(3), "lost": r.get::<_, i64>(4)})
                    })
                    .collect();
                Ok(json!({"season": season, "club": found.get::<_, String>(1),
                          "standings": standings}))
            })
        })
        .await
    }

    /// The league's view of a season (`GET /v1/league/SEASON`): every club with its finished
    /// matches and players, ranked by matches played; and the league's best players (at most
    /// `top`), ranked as a club's standings are, each with their club.
    pub async fn league(&self, season: i32, top: i64) -> Result<Value, Error> {
        self.read(move |c| {
            Box::pin(async move {
                let clubs = c
                    .query(
                        "SELECT c.name, COALESCE(s.matches, 0), COALESCE(s.players, 0)
                         FROM club c LEFT JOIN (
                             SELECT club_id, count(DISTINCT uid) AS matches,
                                    count(DISTINCT name) AS players
                             FROM league_result WHERE season = $1 GROUP BY club_id
                         ) s ON s.club_id = c.id
                         ORDER BY 2 DESC, c.name",
                        &[&season],
                    )
                    .await?;
                let players = c
                    .query(
                        "SELECT c.name, r.name, count(*),
                                count(*) FILTER (WHERE outcome = 'won') AS won,
                                count(*) FILTER (WHERE outcome = 'drawn') AS drawn,
                                count(*) FILTER (WHERE outcome = 'lost') AS lost
                         FROM league_result r JOIN club c ON c.id = r.club_id
                         WHERE r.season = $1
                         GROUP BY c.name, r.name ORDER BY won DESC, drawn DESC, lost ASC,
                                  r.name, c.name
                         LIMIT $2",
                        &[&season, &top],
                    )
                    .await?;
                let clubs: Vec<Value> = clubs
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        json!({"rank": i + 1, "club": r.get::<_, String>(0),
                               "matches": r.get::<_, i64>(1), "players": r.get::<_, i64>(2)})
                    })
                    .collect();
                let players: Vec<Value> = players
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        json!({"rank": i + 1, "club": r.get::<_, String>(0),
                               "name": r.get::<_, String>(1), "played": r.get::<_, i64>(2),
                               "won": r.get::<_, i64>(3), "drawn": r.get::<_, i64>(4),
                               "lost": r.get::<_, i64>(5)})
                    })
                    .collect();
                Ok(json!({"season": season, "clubs": clubs, "players": players}))
            })
        })
        .await
    }
}

/// Why one try of a push failed.
enum Attempt {
    /// The connection was closed under it: once more on a fresh one.
    Retry(Error),
    Fail(Error),
}

/// Why a read failed: the database, or a refusal (`not_found`).
pub enum ReadFail {
    /// The database failed.
    Db(tokio_postgres::Error),
    /// What the read refuses.
    Kind(Error),
}

impl From<tokio_postgres::Error> for ReadFail {
    fn from(e: tokio_postgres::Error) -> Self {
        ReadFail::Db(e)
    }
}

#[cfg(test)]
mod tests {
    use super::season_of;

    #[test]
    fn a_season_is_the_year_a_match_started() {
        assert_eq!(season_of(0), 1970);
        // 2024-12-31T23:59:59.999Z and 2025-01-01T00:00:00Z.
        assert_eq!(season_of(1_735_689_599_999), 2024);
        assert_eq!(season_of(1_735_689_600_000), 2025);
        // 2024-02-29 (a leap day).
        assert_eq!(season_of(1_709_164_800_000), 2024);
    }
}
