//! The club hub (`docs/hub.md`): the HTTP API that phones push the matches they score to and pull
//! the others' from, the live event stream, and the big-screen page.
//!
//! The records live in a [`storage::Storage`]: partie-core's SQLite store (the app's database
//! or a file, one club), or one club of a league's PostgreSQL database (`docs/league.md`). The
//! rules are the core's (`partie_core::merge`) on both, so a push is one transaction and a 200
//! means it is committed. Every request but `GET /v1/health` carries the club token, compared
//! in constant time.

#![warn(missing_docs)]

pub mod client;
pub mod host;
pub mod qr;
pub mod serve;
pub mod storage;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use partie_core::merge::{MergeReport, RawRecords};
use partie_core::store::{query_unescaped, Change, Store};
use partie_core::{Error, ErrorKind};
use serde_json::{json, Value};
pub use serve::{serve_with, Limits};
use std::collections::HashMap;
use std::path::Path as FsPath;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use storage::postgres::{OpenError, PgStorage};
use storage::sqlite::SqliteStorage;
use storage::{Backend, Storage};
use tokio::sync::broadcast;

/// The largest request body taken (`docs/hub.md`, "The API"): 8 MiB.
pub const MAX_BODY: usize = 8 * 1024 * 1024;

/// A page of `GET /v1/records` holds at most this many records unless `limit` says fewer.
pub const DEFAULT_LIMIT: usize = 500;

/// The largest page served: a larger `limit` asked for gives this many.
pub const MAX_LIMIT: usize = 5000;

/// How often the hub looks for changes made to its database by another program (the desktop
/// app pairing a round), to announce them on the event stream.
pub const WATCH_EVERY: Duration = Duration::from_millis(500);

const PAGE: &str = include_str!("page.html");

/// The big-screen page as served: [`PAGE`] with the words the core registers (each game's and
/// each pairing system's title, each place's word) in place of its `/*WORDS*/` mark, so that the
/// page keeps no list of them of its own.
static PAGE_SERVED: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| with_words(PAGE, &page_words()));

/// `page` with `words` in place of its `/*WORDS*/null` mark, `<` written as an escape so that
/// no title can end the page's script (`</script>`).
fn with_words(page: &str, words: &Value) -> String {
    page.replacen(
        "/*WORDS*/null",
        &words.to_string().replace('<', "\\u003c"),
        1,
    )
}

/// `{"games": {name: [en, fr]}, "places": {place: [en, fr]}, "systems": {name: [en, fr]}}`: the
/// titles of every game and system this build knows, and the word for each place.
fn page_words() -> Value {
    use partie_core::games::{title, GAMES};
    fn pairs<'a>(it: impl Iterator<Item = (&'a str, [&'a str; 2])>) -> Value {
        it.map(|(name, words)| (name.to_string(), json!(words)))
            .collect::<serde_json::Map<_, _>>()
            .into()
    }
    json!({
        "games": pairs(GAMES.iter().map(|g| (*g, [title(g, false), title(g, true)]))),
        "places": pairs(partie_core::game::PLACES.iter().copied()),
        "systems": pairs(partie_core::tournament::system::SYSTEMS.iter().map(|e| (e.name, e.title))),
    })
}

/// A running hub's state: the storage, the token and the event stream.
pub struct Hub {
    storage: Backend,
    token: Vec<u8>,
    events: broadcast::Sender<Change>,
    /// How far the change log has been announced; held while announcing, so that each change
    /// is announced once, in order, whoever looks.
    announced: tokio::sync::Mutex<i64>,
    /// Pushes read and merged at once: the others wait with their bodies as bytes, not read
    /// into records (a hundred times their size for the smallest records).
    pushing: Arc<tokio::sync::Semaphore>,
    /// Pushes whose body is in and that wait for a turn ([`Hub::pushes_waiting`]).
    waiting: AtomicUsize,
    /// Pushes whose phone left before the answer ([`Hub::pushes_given_up`]).
    given_up: AtomicUsize,
}

/// How many pushes a hub reads into records and merges at once ([`Hub::pushing`]). They are
/// merged one at a time by the storage anyway (SQLite's writer; PostgreSQL's club row): more
/// would only hold memory.
pub const PUSHES_AT_ONCE: usize = 4;

impl Hub {
    /// A hub on an open store with the club token. Changes already in the store are not
    /// announced; later ones are, whoever made them.
    pub fn new(store: Store, token: &str) -> Result<Arc<Hub>, Error> {
        let announced = store.change_seq()?;
        Ok(Hub::with_backend(
            Backend::Sqlite(SqliteStorage::new(store)?),
            token,
            announced,
        ))
    }

    /// Opens the database at `path` (created when missing) for a hub.
    pub fn open(path: &FsPath, token: &str) -> Result<Arc<Hub>, Error> {
        let (store, _) = Store::open(path)?;
        Hub::new(store, token)
    }

    /// A hub for the club whose token is `token` in the league database `url`
    /// (`partie serve --postgres URL`): the database is migrated first (refused when newer
    /// than this hub), and the token must be a club's (`partie-hub club add`).
    pub async fn open_postgres(url: &str, token: &str) -> Result<Arc<Hub>, OpenError> {
        let pg = PgStorage::open(url, token, storage::postgres::POOL_SIZE).await?;
        Hub::on_postgres(pg, token).await
    }

    /// A hub on a club of a league database already opened.
    pub async fn on_postgres(pg: PgStorage, token: &str) -> Result<Arc<Hub>, OpenError> {
        let announced = pg
            .change_seq()
            .await
            .map_err(|e| OpenError::Storage(e.detail))?;
        Ok(Hub::with_backend(Backend::Postgres(pg), token, announced))
    }

    fn with_backend(storage: Backend, token: &str, announced: i64) -> Arc<Hub> {
        let (events, _) = broadcast::channel(4096);
        Arc::new(Hub {
            storage,
            token: token.as_bytes().to_vec(),
            events,
            announced: tokio::sync::Mutex::new(announced),
            pushing: Arc::new(tokio::sync::Semaphore::new(PUSHES_AT_ONCE)),
            waiting: AtomicUsize::new(0),
            given_up: AtomicUsize::new(0),
        })
    }

    /// How many pushes hold a turn now ([`PUSHES_AT_ONCE`] at most): read into records,
    /// merging, or waiting for the writer.
    pub fn pushes_under_way(&self) -> usize {
        PUSHES_AT_ONCE - self.pushing.available_permits()
    }

    /// How many pushes have their body in and wait for a turn: held as bytes, not yet read.
    pub fn pushes_waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// How many pushes, since the hub started, lost their phone before they were answered
    /// (its connection closed: its own time ran out, or it went out of the Wi-Fi). A push
    /// given up with a turn is still merged; one given up while waiting is not.
    pub fn pushes_given_up(&self) -> usize {
        self.given_up.load(Ordering::SeqCst)
    }

    /// The storage the hub keeps its records in.
    pub fn storage(&self) -> &Backend {
        &self.storage
    }

    /// Announces on the event stream what changed since the last look, whoever changed it (a
    /// push to this hub, another program on the same SQLite file, another hub of the same club
    /// on PostgreSQL).
    pub async fn watch_once(&self) -> Result<(), Error> {
        let mut announced = self.announced.lock().await;
        loop {
            let changes = self.storage.changes_since(*announced, 1000).await?;
            let Some(last) = changes.last() else {
                return Ok(());
            };
            *announced = last.seq;
            for c in changes {
                // No receiver is not an error: nobody is watching.
                let _ = self.events.send(c);
            }
        }
    }

    /// Whether `given` is the club token, in time that does not depend on where they differ.
    pub fn token_matches(&self, given: &[u8]) -> bool {
        use subtle::ConstantTimeEq;
        bool::from(self.token.as_slice().ct_eq(given))
    }

    /// Receives every change announced from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.events.subscribe()
    }
}

/// Reads the club token from `path` (surrounding whitespace removed), creating the file with a
/// random token (32 hexadecimal digits from the system's randomness) when it is missing.
pub fn load_or_create_token(path: &FsPath) -> std::io::Result<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let token = text.trim().to_string();
            if token.is_empty() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{} holds no token", path.display()),
                ));
            }
            Ok(token)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut bytes = [0u8; 16];
            getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
            let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            write_new_token(path, &token)?;
            Ok(token)
        }
        Err(e) => Err(e),
    }
}

/// Writes a club token to a file that must not exist yet (its folder made when missing;
/// owner-only on Unix), synced before it is used.
pub fn write_new_token(path: &FsPath, token: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    use std::io::Write;
    let mut file = options.open(path)?;
    file.write_all(format!("{token}\n").as_bytes())?;
    file.sync_all()
}

/// An error answer: `{"kind", "detail"}` with its status.
pub fn error_response(status: StatusCode, kind: &str, detail: impl Into<String>) -> Response {
    let body = json!({"kind": kind, "detail": detail.into()});
    (status, Json(body)).into_response()
}

fn from_error(e: Error) -> Response {
    let status = match e.kind {
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::Storage => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    };
    error_response(status, e.kind.as_str(), e.detail)
}

/// A storage call's answer: its value as JSON, or its error.
fn answer<T: serde::Serialize>(result: Result<T, Error>) -> Response {
    match result {
        Ok(v) => Json(v).into_response(),
        Err(e) => from_error(e),
    }
}

/// The club token: `Authorization: Bearer TOKEN` on every request but the health check; the
/// page and the event stream may give it as `?token=TOKEN` (a browser's address).
async fn require_token(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if path == "/v1/health" && request.method() == Method::GET {
        return next.run(request).await;
    }
    // The scheme's name is case-insensitive (RFC 9110), the token is not.
    // Compared as bytes: a token file may hold any text (the spec takes its content whole).
    let bearer = request
        .headers()
        .get(header::AUTHORIZATION)
        .map(|v| v.as_bytes())
        .and_then(|v| v.iter().position(|&b| b == b' ').map(|i| v.split_at(i)))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(b"bearer"))
        .map(|(_, t)| t.trim_ascii().to_vec());
    // Read as the page's link writes it (`query_escaped`): a `+` is a `+`, not a form's space.
    let in_query = || {
        let browser = request.method() == Method::GET && (path == "/" || path == "/v1/events");
        if !browser {
            return None;
        }
        request
            .uri()
            .query()?
            .split('&')
            .find_map(|pair| pair.strip_prefix("token="))
            .and_then(query_unescaped)
            .map(String::into_bytes)
    };
    match bearer.or_else(in_query) {
        Some(given) if hub.token_matches(&given) => next.run(request).await,
        Some(_) => error_response(StatusCode::UNAUTHORIZED, "unauthorized", "wrong club token"),
        None => error_response(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "the club token is missing (Authorization: Bearer TOKEN)",
        ),
    }
}

async fn health(State(hub): State<Arc<Hub>>) -> Response {
    Json(
        json!({"hub": "partie", "version": env!("CARGO_PKG_VERSION"),
                "schema": hub.storage.schema()}),
    )
    .into_response()
}

/// A push's answer (`{"accepted", "updated", "already", "refused": [...]}`), written out a slice
/// at a time as it is sent: a push of four million elements that are no record has as many
/// lines of refusal, some 280 MiB of JSON that was made whole in memory before its first byte
/// went. The refusals themselves are held as runs ([`partie_core::merge::Refusals`]): those
/// four million are one line in memory until they are written.
fn report_answer(report: MergeReport) -> Response {
    const SLICE: usize = 64 * 1024;
    let head = format!(
        r#"{{"accepted":{},"updated":{},"already":{},"refused":["#,
        report.accepted, report.updated, report.already
    );
    let mut refused = report.refused.into_lines();
    let mut first = true;
    let mut ended = false;
    let rest = std::iter::from_fn(move || {
        if ended {
            return None;
        }
        let mut slice = Vec::with_capacity(SLICE + 1024);
        while slice.len() < SLICE {
            let Some(r) = refused.next() else {
                slice.extend_from_slice(b"]}");
                ended = true;
                break;
            };
            if !first {
                slice.push(b',');
            }
            first = false;
            // A refusal is strings and a null: it always serialises.
            let _ = serde_json::to_writer(&mut slice, &r);
        }
        Some(Bytes::from(slice))
    });
    let body = std::iter::once(Bytes::from(head))
        .chain(rest)
        .map(Ok::<_, std::convert::Infallible>);
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        axum::body::Body::from_stream(futures_util::stream::iter(body)),
    )
        .into_response()
}

/// Reads a push's body: an object with a list `records`, each kept as its raw JSON (read one
/// at a time by the merge); else the detail of a `bad_record`.
fn push_body(bytes: Bytes) -> Result<RawRecords, String> {
    let shape = || "the body is {\"records\": [...]}".to_string();
    let text = String::from_utf8(Vec::from(bytes))
        .map_err(|e| format!("the body is not JSON: it is not UTF-8 ({e})"))?;
    // serde reads a struct from a JSON list as well: the body must be an object.
    match text.bytes().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => {}
        Some(_) if serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok() => {
            return Err(shape())
        }
        _ => {}
    }
    RawRecords::read(text).map_err(|detail| detail.unwrap_or_else(shape))
}

async fn push(State(hub): State<Arc<Hub>>, body: Result<Bytes, BytesRejection>) -> Response {
    let bytes = match body {
        Ok(b) => b,
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return error_response(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("the body is over {} MiB", MAX_BODY >> 20),
            )
        }
        Err(r) => return error_response(StatusCode::BAD_REQUEST, "bad_record", r.body_text()),
    };
    // The turn is taken once the body is in: a phone gone quiet in the middle of its upload
    // (out of the Wi-Fi, its battery flat) holds its own request, not a turn of the others'.
    // The semaphore is never closed: a turn always comes.
    let mut handling = Handling::new(hub.clone());
    let Ok(turn) = hub.pushing.clone().acquire_owned().await else {
        return error_response(StatusCode::INTERNAL_SERVER_ERROR, "storage", "no turn");
    };
    handling.turn_taken();
    // The push runs on a task of its own, which holds the turn to its end: a phone that gives
    // up waiting drops this handler, but not a merge already on its way to the writer (which
    // commits, and answers "already" to the phone's next try), so the turns still bound the
    // pushes in memory at once.
    let merging = tokio::spawn(async move {
        let _turn = turn;
        let records = match tokio::task::spawn_blocking(move || push_body(bytes)).await {
            Ok(Ok(r)) => r,
            Ok(Err(detail)) => {
                return error_response(StatusCode::BAD_REQUEST, "bad_record", detail)
            }
            Err(_) => return from_error(Error::storage("the push could not be read")),
        };
        match hub.storage.push(records).await {
            Ok(report) => {
                // Watchers hear of it now rather than at the next look; a failure to read the
                // log here is met again at the next look.
                let _ = hub.watch_once().await;
                report_answer(report)
            }
            Err(e) => from_error(e),
        }
    });
    let answer = merging
        .await
        .unwrap_or_else(|_| from_error(Error::storage("the push failed inside the hub")));
    handling.answered();
    answer
}

/// A push handler's place in the hub's counts: among the pushes waiting for a turn until it
/// has one, and among those given up if it is dropped (its phone gone) before its answer.
struct Handling {
    hub: Arc<Hub>,
    waiting: bool,
    answered: bool,
}

impl Handling {
    fn new(hub: Arc<Hub>) -> Handling {
        hub.waiting.fetch_add(1, Ordering::SeqCst);
        Handling {
            hub,
            waiting: true,
            answered: false,
        }
    }

    fn turn_taken(&mut self) {
        self.hub.waiting.fetch_sub(1, Ordering::SeqCst);
        self.waiting = false;
    }

    fn answered(&mut self) {
        self.answered = true;
    }
}

impl Drop for Handling {
    fn drop(&mut self) {
        if self.waiting {
            self.hub.waiting.fetch_sub(1, Ordering::SeqCst);
        }
        if !self.answered {
            self.hub.given_up.fetch_add(1, Ordering::SeqCst);
        }
    }
}

async fn pull(State(hub): State<Arc<Hub>>, Query(q): Query<HashMap<String, String>>) -> Response {
    // A page holds at most `limit` records (docs/hub.md): a larger one asked for gives the
    // largest page the hub serves, not a refusal.
    let limit = match q.get("limit").map(|l| l.parse::<u64>()) {
        None => DEFAULT_LIMIT,
        Some(Ok(n)) if n >= 1 => n.min(MAX_LIMIT as u64) as usize,
        Some(_) => {
            return error_response(
                StatusCode::BAD_REQUEST,
                "bad_record",
                "limit is a whole number, 1 or more",
            )
        }
    };
    // `since=` with nothing after it is no cursor: the start, as with none.
    let since = q.get("since").filter(|s| !s.is_empty()).cloned();
    answer(hub.storage.records_since(since, limit).await)
}

async fn tournament(State(hub): State<Arc<Hub>>, Segments(id): Segments<String>) -> Response {
    answer(hub.storage.tournament_summary(id).await)
}

/// The league's routes need a league: a hub on PostgreSQL.
fn league_of(hub: &Hub) -> Result<&PgStorage, Error> {
    match &hub.storage {
        Backend::Postgres(pg) => Ok(pg),
        Backend::Sqlite(_) => Err(Error::not_found(
            "this hub keeps one club in SQLite: a league is a hub on PostgreSQL (--postgres URL)",
        )),
    }
}

/// A season is a year (the year a match started, UTC).
fn season(text: &str) -> Result<i32, Error> {
    text.parse::<i32>()
        .ok()
        .filter(|y| (1970..=9999).contains(y))
        .ok_or_else(|| Error::bad_record(format!("{text:?} is not a season (a year)")))
}

/// How many players the league's view lists.
pub const LEAGUE_TOP: i64 = 50;

async fn league(State(hub): State<Arc<Hub>>, Segments(year): Segments<String>) -> Response {
    let (pg, year) = match (league_of(&hub), season(&year)) {
        (Ok(pg), Ok(y)) => (pg, y),
        (Err(e), _) | (_, Err(e)) => return from_error(e),
    };
    answer(pg.league(year, LEAGUE_TOP).await)
}

async fn club_standings(
    State(hub): State<Arc<Hub>>,
    Segments((year, club)): Segments<(String, String)>,
) -> Response {
    let (pg, year) = match (league_of(&hub), season(&year)) {
        (Ok(pg), Ok(y)) => (pg, y),
        (Err(e), _) | (_, Err(e)) => return from_error(e),
    };
    answer(pg.club_standings(year, club).await)
}

/// What a watcher of the event stream hears.
#[derive(Debug, PartialEq)]
enum Heard {
    /// A record was accepted or updated: `{id, actions, record, revision}`.
    Record(Value),
    /// The watcher fell behind and missed this many changes: what it shows may be out of
    /// date, so it reads it again (the big-screen page its summary, a device a pull).
    Missed(u64),
}

/// The changes a watcher hears, in order; a watcher too slow to keep up is told how many it
/// missed instead of missing them unheard (the stream goes on).
fn heard(rx: broadcast::Receiver<Change>) -> impl futures_util::Stream<Item = Heard> {
    futures_util::stream::unfold(rx, |mut rx| async move {
        let heard = match rx.recv().await {
            Ok(c) => Heard::Record(json!({"id": c.id, "actions": c.actions, "record": c.record,
                                          "revision": c.revision})),
            Err(broadcast::error::RecvError::Lagged(n)) => Heard::Missed(n),
            Err(broadcast::error::RecvError::Closed) => return None,
        };
        Some((heard, rx))
    })
}

async fn events(State(hub): State<Arc<Hub>>) -> Response {
    use futures_util::StreamExt;
    let stream = heard(hub.subscribe()).map(|h| {
        let event = match h {
            Heard::Record(data) => Event::default().event("record").data(data.to_string()),
            Heard::Missed(n) => Event::default()
                .event("missed")
                .data(json!({ "missed": n }).to_string()),
        };
        Ok::<_, std::convert::Infallible>(event)
    });
    // A named event, not a comment: a page cannot see comments, and without something it can
    // hear a stream whose network went silent (a TV's Wi-Fi gone and back) looks open for as
    // long as the system keeps the dead connection.
    let ping = Event::default()
        .event("ping")
        .data(json!({ "every": PING_EVERY.as_secs() }).to_string());
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(PING_EVERY).event(ping))
        .into_response()
}

/// How long the event stream stays silent at most: a `ping` is sent after this long without
/// an event, saying this interval, so that a watcher can hold a longer silence a lost stream.
pub const PING_EVERY: Duration = Duration::from_secs(15);

async fn page() -> Response {
    let mut r = Html(PAGE_SERVED.as_str()).into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

async fn not_found() -> Response {
    error_response(StatusCode::NOT_FOUND, "not_found", "no such page")
}

/// A path the hub serves, asked with a method it does not take there: 405, as `{kind,
/// detail}` like every other refusal (axum's own answer has an empty body).
async fn wrong_method(method: Method, uri: axum::http::Uri) -> Response {
    error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        "not_found",
        format!("{} does not take {method}", uri.path()),
    )
}

/// A route's path segments, refused as `{kind, detail}` (not axum's plain text) when they are
/// not UTF-8 or hold the NUL character: such a segment names nothing the hub has, and
/// PostgreSQL could not even be asked for it.
struct Segments<T>(T);

impl<S, T> axum::extract::FromRequestParts<S> for Segments<T>
where
    S: Send + Sync,
    T: serde::de::DeserializeOwned + Send,
{
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Response> {
        let nothing = |detail: String| error_response(StatusCode::NOT_FOUND, "not_found", detail);
        if parts.uri.path().to_ascii_lowercase().contains("%00") {
            return Err(nothing("a path segment holds the NUL character".into()));
        }
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(v)) => Ok(Segments(v)),
            Err(e) => Err(nothing(e.body_text())),
        }
    }
}

/// A request's body is to come within [`Limits::body_within`] (the limits the hub is served
/// with; the default ones for a router served otherwise).
async fn body_in_time(request: Request, next: Next) -> Response {
    let within = request
        .extensions()
        .get::<Limits>()
        .copied()
        .unwrap_or_default()
        .body_within;
    let (parts, body) = request.into_parts();
    let body = axum::body::Body::new(serve::Deadline::new(body, within));
    next.run(Request::from_parts(parts, body)).await
}

/// The hub's routes, behind the token check and the body limit.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/v1/health", get(health))
        .route("/v1/records", get(pull).post(push))
        .route("/v1/events", get(events))
        .route("/v1/tournaments/{id}", get(tournament))
        .route("/v1/league/{season}", get(league))
        .route("/v1/league/{season}/clubs/{club}", get(club_standings))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(body_in_time))
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            require_token,
        ))
        .with_state(hub)
}

/// Serves the hub on `listener` until the process ends, within the default [`Limits`].
pub async fn serve(listener: tokio::net::TcpListener, hub: Arc<Hub>) -> std::io::Result<()> {
    serve_until(listener, hub, std::future::pending()).await
}

/// Serves the hub on `listener` until `stop` completes (the app's club-night screen stops its
/// hub), within the default [`Limits`]; see [`serve_with`].
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, hub, stop, Limits::default()).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;
    use partie_core::store::RecordKind;

    #[test]
    fn words_written_into_the_page_cannot_end_its_script() {
        let page = "<script>const WORDS = /*WORDS*/null;</script>";
        let words = json!({"games": {"x": ["A </script><b>", "B"]}});
        let served = with_words(page, &words);
        assert_eq!(served.matches("</script>").count(), 1, "{served}");
        let inner = served.split("const WORDS = ").nth(1).unwrap();
        let inner = &inner[..inner.len() - ";</script>".len()];
        assert_eq!(serde_json::from_str::<Value>(inner).unwrap(), words);
    }

    fn change(seq: i64) -> Change {
        Change {
            seq,
            id: format!("m-{seq}"),
            record: RecordKind::Match,
            actions: seq,
            revision: seq,
        }
    }

    /// A push's answer written a slice at a time is the report's JSON, whatever its size: none
    /// refused, one, and more than a slice holds, runs of the same refusal among them.
    #[test]
    fn a_push_answer_sent_in_slices_is_the_whole_report() {
        use partie_core::merge::Refusal;
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for n in [0usize, 1, 2, 5000] {
            let report = MergeReport {
                accepted: 3,
                updated: 2,
                already: 1,
                refused: (0..n)
                    .map(|i| Refusal {
                        id: (i % 7 == 0).then(|| format!("r\"{i}")),
                        kind: "bad_record",
                        detail: format!("detail {}", i / 3).into(),
                    })
                    .collect(),
            };
            let whole = serde_json::to_value(&report).unwrap();
            assert_eq!(whole["refused"].as_array().unwrap().len(), n);
            let response = report_answer(report);
            assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
            let bytes = rt
                .block_on(axum::body::to_bytes(response.into_body(), usize::MAX))
                .unwrap();
            let sent: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(sent, whole, "{n} refused");
        }
    }

    /// A stream with nothing to tell sends a `ping` after [`PING_EVERY`], saying that
    /// interval: the big-screen page holds a far longer silence a lost connection (a comment,
    /// which it cannot hear, was sent before).
    #[test]
    fn a_silent_stream_pings_saying_how_often() {
        use http_body_util::BodyExt;
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        rt.block_on(async {
            let hub = Hub::new(Store::open_in_memory().unwrap(), "t").unwrap();
            // Held as the server holds it: the stream ends with the hub.
            let mut body = events(State(hub.clone())).await.into_body();
            let start = tokio::time::Instant::now();
            for n in 1..=2u32 {
                let frame = body.frame().await.unwrap().unwrap();
                let text = String::from_utf8(frame.into_data().unwrap().to_vec()).unwrap();
                assert_eq!(text, "event: ping\ndata: {\"every\":15}\n\n");
                assert_eq!(start.elapsed(), PING_EVERY * n, "ping {n}");
            }
        });
    }

    /// A watcher that fell behind the stream's buffer is told how many changes it missed,
    /// then hears the rest (it used to miss them without a word, its page out of date until
    /// the next minute's look).
    #[test]
    fn a_watcher_that_falls_behind_is_told_what_it_missed() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (tx, rx) = broadcast::channel(2);
        for seq in 1..=5 {
            tx.send(change(seq)).unwrap();
        }
        drop(tx);
        let heard: Vec<Heard> = rt.block_on(heard(rx).collect());
        assert_eq!(heard.len(), 3, "{heard:?}");
        assert_eq!(heard[0], Heard::Missed(3));
        assert!(
            matches!(&heard[1], Heard::Record(d) if d["id"] == "m-4"),
            "{heard:?}"
        );
        assert!(matches!(&heard[2], Heard::Record(d) if d["id"] == "m-5" && d["revision"] == 5));
    }
}
