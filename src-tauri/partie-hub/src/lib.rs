//! The club hub (`docs/hub.md`): the HTTP API that phones push the matches they score to and pull
//! the others' from, the live event stream, and the big-screen page.
//!
//! The records live in partie-core's SQLite store, one connection behind a mutex, used from
//! the async handlers through `spawn_blocking`; the rules and the merge are the core's
//! ([`Store::merge_records`]), so a push is one transaction and a 200 means it is committed.
//! Every request but `GET /v1/health` carries the club token, compared in constant time.

#![warn(missing_docs)]

pub mod client;
pub mod host;
pub mod qr;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use partie_core::store::{Change, Source, Store};
use partie_core::{Error, ErrorKind};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path as FsPath;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// The largest request body taken (`docs/hub.md`, "The API"): 8 MiB.
pub const MAX_BODY: usize = 8 * 1024 * 1024;

/// A page of `GET /v1/records` holds at most this many records unless `limit` says fewer.
pub const DEFAULT_LIMIT: usize = 500;

/// The largest `limit` taken.
pub const MAX_LIMIT: usize = 5000;

/// How often the hub looks for changes made to its database by another program (the desktop
/// app pairing a round), to announce them on the event stream.
pub const WATCH_EVERY: Duration = Duration::from_millis(500);

const PAGE: &str = include_str!("page.html");

/// The store and how far its change log has been announced.
struct Guarded {
    store: Store,
    announced: i64,
}

/// A running hub's state: the store, the token and the event stream.
pub struct Hub {
    guarded: Mutex<Guarded>,
    token: Vec<u8>,
    events: broadcast::Sender<Change>,
    schema: i64,
}

impl Hub {
    /// A hub on an open store with the club token. Changes already in the store are not
    /// announced; later ones are, whoever made them.
    pub fn new(store: Store, token: &str) -> Result<Arc<Hub>, Error> {
        let announced = store.change_seq()?;
        let schema = store.schema_version()?;
        let (events, _) = broadcast::channel(4096);
        Ok(Arc::new(Hub {
            guarded: Mutex::new(Guarded { store, announced }),
            token: token.as_bytes().to_vec(),
            events,
            schema,
        }))
    }

    /// Opens the database at `path` (created when missing) for a hub.
    pub fn open(path: &FsPath, token: &str) -> Result<Arc<Hub>, Error> {
        let (store, _) = Store::open(path)?;
        Hub::new(store, token)
    }

    /// Runs `f` on the store (call it from a blocking thread), then announces what changed.
    fn with_store<T>(&self, f: impl FnOnce(&mut Store) -> Result<T, Error>) -> Result<T, Error> {
        let mut g = self.guarded.lock().unwrap_or_else(|p| p.into_inner());
        // What another program changed first, so that each change is announced once, in order.
        self.announce(&mut g)?;
        let out = f(&mut g.store);
        self.announce(&mut g)?;
        out
    }

    fn announce(&self, g: &mut Guarded) -> Result<(), Error> {
        loop {
            let changes = g.store.changes_since(g.announced, 1000)?;
            let Some(last) = changes.last() else {
                return Ok(());
            };
            g.announced = last.seq;
            for c in changes {
                // No receiver is not an error: nobody is watching.
                let _ = self.events.send(c);
            }
        }
    }

    /// Announces changes made by another program since the last look.
    pub fn watch_once(&self) -> Result<(), Error> {
        self.with_store(|_| Ok(()))
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
            file.sync_all()?;
            Ok(token)
        }
        Err(e) => Err(e),
    }
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

/// Runs a store call on a blocking thread.
async fn blocking<T: Send + 'static>(
    hub: &Arc<Hub>,
    f: impl FnOnce(&Hub) -> Result<T, Error> + Send + 'static,
) -> Result<T, Response> {
    let hub = hub.clone();
    match tokio::task::spawn_blocking(move || f(&hub)).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(from_error(e)),
        Err(_) => Err(error_response(
            StatusCode::INTERNAL_SERVER_ERROR,
            "storage",
            "the request failed inside the hub",
        )),
    }
}

/// The club token: `Authorization: Bearer TOKEN` on every request but the health check; the
/// page and the event stream may give it as `?token=TOKEN` (a browser's address).
async fn require_token(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if path == "/v1/health" {
        return next.run(request).await;
    }
    let bearer = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().as_bytes().to_vec());
    let in_query = || {
        let browser = request.method() == Method::GET && (path == "/" || path == "/v1/events");
        if !browser {
            return None;
        }
        Query::<HashMap<String, String>>::try_from_uri(request.uri())
            .ok()
            .and_then(|q| q.0.get("token").map(|t| t.as_bytes().to_vec()))
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
    Json(json!({"hub": "partie", "version": env!("CARGO_PKG_VERSION"), "schema": hub.schema}))
        .into_response()
}

/// Reads a push's body: an object with a list `records`; else the detail of a `bad_record`.
fn push_body(bytes: &[u8]) -> Result<Vec<Value>, String> {
    let shape = || "the body is {\"records\": [...]}".to_string();
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| format!("the body is not JSON: {e}"))?;
    match value {
        Value::Object(mut o) => match o.remove("records") {
            Some(Value::Array(records)) => Ok(records),
            _ => Err(shape()),
        },
        _ => Err(shape()),
    }
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
    let hub2 = hub.clone();
    let parsed = tokio::task::spawn_blocking(move || push_body(&bytes)).await;
    let records = match parsed {
        Ok(Ok(r)) => r,
        Ok(Err(detail)) => return error_response(StatusCode::BAD_REQUEST, "bad_record", detail),
        Err(_) => {
            return error_response(StatusCode::INTERNAL_SERVER_ERROR, "storage", "parse failed")
        }
    };
    match blocking(&hub2, move |h| {
        h.with_store(|s| s.merge_records(&records, Source::Device))
    })
    .await
    {
        Ok(report) => Json(report).into_response(),
        Err(answer) => answer,
    }
}

async fn pull(State(hub): State<Arc<Hub>>, Query(q): Query<HashMap<String, String>>) -> Response {
    let limit = match q.get("limit").map(|l| l.parse::<usize>()) {
        None => DEFAULT_LIMIT,
        Some(Ok(n)) if (1..=MAX_LIMIT).contains(&n) => n,
        Some(_) => {
            return error_response(
                StatusCode::BAD_REQUEST,
                "bad_record",
                format!("limit is a whole number from 1 to {MAX_LIMIT}"),
            )
        }
    };
    let since = q.get("since").cloned();
    match blocking(&hub, move |h| {
        h.with_store(|s| s.records_since(since.as_deref(), limit))
    })
    .await
    {
        Ok(page) => Json(page).into_response(),
        Err(answer) => answer,
    }
}

async fn tournament(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    match blocking(&hub, move |h| {
        h.with_store(|s| {
            let uid = if id == "current" {
                s.current_tournament()?
                    .ok_or_else(|| Error::not_found("no tournament yet"))?
            } else {
                id
            };
            s.tournament_summary(&uid)
        })
    })
    .await
    {
        Ok(summary) => Json(summary).into_response(),
        Err(answer) => answer,
    }
}

async fn events(State(hub): State<Arc<Hub>>) -> Response {
    let rx = hub.subscribe();
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        loop {
            match rx.recv().await {
                Ok(c) => {
                    let data = json!({"id": c.id, "actions": c.actions, "record": c.record,
                                      "revision": c.revision});
                    let event = Event::default().event("record").data(data.to_string());
                    return Some((Ok::<_, std::convert::Infallible>(event), rx));
                }
                // A watcher too slow to keep up misses events, not the stream.
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

async fn page() -> Response {
    let mut r = Html(PAGE).into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

async fn not_found() -> Response {
    error_response(StatusCode::NOT_FOUND, "not_found", "no such page")
}

/// The hub's routes, behind the token check and the body limit.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/v1/health", get(health))
        .route("/v1/records", get(pull).post(push))
        .route("/v1/events", get(events))
        .route("/v1/tournaments/{id}", get(tournament))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            require_token,
        ))
        .with_state(hub)
}

/// Serves the hub on `listener` until the process ends, and watches the database for changes
/// made by another program every [`WATCH_EVERY`].
pub async fn serve(listener: tokio::net::TcpListener, hub: Arc<Hub>) -> std::io::Result<()> {
    serve_until(listener, hub, std::future::pending()).await
}

/// Serves the hub on `listener` until `stop` completes (the app's club-night screen stops its
/// hub), then lets the requests under way finish. Every answered push is committed already, so
/// stopping needs no flush.
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let watcher = hub.clone();
    let watching = tokio::spawn(async move {
        let mut tick = tokio::time::interval(WATCH_EVERY);
        loop {
            tick.tick().await;
            let h = watcher.clone();
            let _ = tokio::task::spawn_blocking(move || h.watch_once()).await;
        }
    });
    let (stopping, mut stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        stop.await;
        let _ = stopping.send(true);
    });
    let mut graceful = stopped.clone();
    let server = axum::serve(listener, router(hub)).with_graceful_shutdown(async move {
        let _ = graceful.wait_for(|s| *s).await;
    });
    // An event stream never ends by itself: once stopped, open streams get a moment, then go.
    let served = tokio::select! {
        served = server => served,
        _ = async {
            let _ = stopped.wait_for(|s| *s).await;
            tokio::time::sleep(Duration::from_secs(1)).await;
        } => Ok(()),
    };
    watching.abort();
    served
}
