//! A device's side of a club night (`docs/hub.md`, "In the app"): checking a hub before
//! joining it, and the sync thread that pushes the device's outbox and pulls the others' records.
//!
//! The sync thread has its own connection to the app's database; the store decides what to send
//! and takes what comes back ([`Store::club_outbox`], [`Store::club_pushed`],
//! [`Store::club_pulled`]), so a kill at any moment loses nothing: what was not answered goes out
//! again, and the hub answers `already`. Play never waits for it.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use partie_core::store::{ClubJoin, Outbox, Store, HELD};
use partie_core::Error;
use serde::Serialize;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest a hub may take to answer a request with no body (its answer's head), or leave
/// its answer's body without a byte, before it counts as unreachable. An answer that keeps
/// coming is read to its end ([`READ_RATE`], [`READ_AT_MOST`]: a large page over slow club
/// Wi-Fi), and a request with a body has [`SEND_RATE`]'s time more to go out.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// The slowest link a push is given time for, in bytes a second (about 1 Mbit/s): an 8 MiB
/// push has a minute more than [`REQUEST_TIMEOUT`] to go out and be answered.
pub const SEND_RATE: u64 = 128 * 1024;

/// How often a joined device pulls when nothing happens on it.
pub const PULL_EVERY: Duration = Duration::from_secs(2);

/// The most match records in one push (well under the hub's body limit).
pub const PUSH_BATCH: usize = 200;

/// The slowest an answer may come, in bytes a second (about 32 kbit/s), beyond the first
/// [`REQUEST_TIMEOUT`]: a large page over poor Wi-Fi comes faster than that.
pub const READ_RATE: u64 = 4 * 1024;

/// The longest an answer may take to come whole.
pub const READ_AT_MOST: Duration = Duration::from_secs(120);

/// How many refused records the status lists, latest first.
pub const REFUSALS_SHOWN: usize = 20;

/// The most held records ([`HELD`]) pushed again in one round, one request each.
pub const HELD_TRIED: usize = 20;

/// The largest answer read from a hub (a page of records).
const MAX_ANSWER: usize = 64 * 1024 * 1024;

/// Why a request to a hub failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// No answer: the hub is off, away or too slow.
    Unreachable(String),
    /// The hub refused the club token.
    Unauthorized,
    /// Something answered that is not a Partie hub.
    Refused(String),
    /// The hub answered with a typed refusal (`{kind, detail}`).
    Hub {
        /// The answer's status.
        status: u16,
        /// The refusal's kind.
        kind: String,
        /// Its status and detail, as said to the user.
        why: String,
    },
    /// The hub, or something in front of it, answered that it could not do it (a 5xx): its
    /// own trouble (a disk full, a restart), not the request's; the same round goes again
    /// later as it is.
    Failing(String),
    /// This device's own database failed.
    Device(Error),
}

impl Failure {
    /// The app's typed error for it, with a code the screens translate.
    pub fn to_error(&self, hub: &str) -> Error {
        match self {
            Failure::Unreachable(why) => {
                Error::not_found(format!("no club hub answered at {hub} ({why})"))
                    .with_code("hub_unreachable")
            }
            Failure::Unauthorized => {
                Error::bad_setup(format!("the hub at {hub} refused this club token"))
                    .with_code("wrong_club_token")
            }
            Failure::Refused(why) => {
                Error::bad_record(format!("the hub at {hub}: {why}")).with_code("not_a_hub")
            }
            Failure::Hub { why, .. } => {
                Error::bad_record(format!("the hub at {hub} refused: {why}"))
                    .with_code("hub_refused")
            }
            Failure::Failing(why) => {
                Error::storage(format!("the hub at {hub} could not do it: {why}"))
                    .with_code("hub_failing")
            }
            Failure::Device(e) => e.clone(),
        }
    }
}

/// The answer of a request the hub took (2xx); a refusal is a [`Failure::Refused`].
fn taken(answer: (StatusCode, Value)) -> Result<(StatusCode, Value), Failure> {
    match answer {
        (status, value) if !status.is_success() => Err(refusal(status, &value)),
        ok => Ok(ok),
    }
}

/// A hub's refusal, its status and detail; a 5xx is the hub's trouble, whatever its kind.
fn refusal(status: StatusCode, answer: &Value) -> Failure {
    let detail = answer.get("detail").and_then(Value::as_str).unwrap_or("");
    if status.is_server_error() {
        Failure::Failing(format!("{status}: {detail}"))
    } else if let Some(kind) = answer.get("kind").and_then(Value::as_str) {
        Failure::Hub {
            status: status.as_u16(),
            kind: kind.to_string(),
            why: format!("{status}: {detail}"),
        }
    } else {
        Failure::Refused(format!("{status}: {detail}"))
    }
}

/// One request and the hub's JSON answer with its status, refusals included (but 401, which
/// is [`Failure::Unauthorized`]).
async fn answered(
    hub: &str,
    method: Method,
    path_and_query: &str,
    token: Option<&str>,
    body: Option<Vec<u8>>,
) -> Result<(StatusCode, Value), Failure> {
    let authority = hub.strip_prefix("http://").unwrap_or(hub).to_string();
    let sending = body.as_ref().map_or(0, |b| b.len() as u64);
    let head_within = REQUEST_TIMEOUT + Duration::from_millis(sending * 1000 / SEND_RATE);
    let exchange = async {
        let stream = tokio::net::TcpStream::connect(&authority)
            .await
            .map_err(|e| Failure::Unreachable(e.to_string()))?;
        let _ = stream.set_nodelay(true);
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| Failure::Unreachable(e.to_string()))?;
        tokio::spawn(connection);
        let mut builder = Request::builder()
            .method(method)
            .uri(path_and_query)
            .header(hyper::header::HOST, &authority);
        if let Some(t) = token {
            builder = builder.header(hyper::header::AUTHORIZATION, format!("Bearer {t}"));
        }
        if body.is_some() {
            builder = builder.header(hyper::header::CONTENT_TYPE, "application/json");
        }
        let request = builder
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| Failure::Refused(e.to_string()))?;
        sender
            .send_request(request)
            .await
            .map_err(|e| Failure::Unreachable(e.to_string()))
    };
    let answer = tokio::time::timeout(head_within, exchange)
        .await
        .map_err(|_| Failure::Unreachable(format!("no answer in {head_within:?}")))??;
    let status = answer.status();
    let bytes = read_body(answer.into_body()).await?;
    if status == StatusCode::UNAUTHORIZED {
        return Err(Failure::Unauthorized);
    }
    if status == StatusCode::PAYLOAD_TOO_LARGE && serde_json::from_slice::<Value>(&bytes).is_err() {
        // A proxy in front of the hub with a smaller limit answers a page of its own: the body
        // is too large all the same, and a push goes again in halves.
        return Ok((
            status,
            json!({"kind": "too_large", "detail": "a body too large for what is in front of the hub"}),
        ));
    }
    let value: Value = serde_json::from_slice(&bytes).map_err(|_| {
        // A proxy or a server restarting in front of the hub answers a 502 or 503 page.
        if status.is_server_error() {
            Failure::Failing(format!("{status}"))
        } else {
            Failure::Refused(format!("answered {status} with something not JSON"))
        }
    })?;
    Ok((status, value))
}

/// An answer's body, read for as long as it keeps coming at [`READ_RATE`] or more, within
/// [`READ_AT_MOST`]: a pause of [`REQUEST_TIMEOUT`] without a byte, or an answer slower than
/// that, counts as a hub gone away (a hub sending a byte now and then would otherwise hold the
/// sync for ever); a body over [`MAX_ANSWER`] as not a hub's.
async fn read_body(mut body: hyper::body::Incoming) -> Result<Vec<u8>, Failure> {
    let started = tokio::time::Instant::now();
    let mut bytes = Vec::new();
    loop {
        let earned = Duration::from_millis(bytes.len() as u64 * 1000 / READ_RATE);
        let left = (REQUEST_TIMEOUT + earned)
            .min(READ_AT_MOST)
            .saturating_sub(started.elapsed())
            .min(REQUEST_TIMEOUT);
        let frame = tokio::time::timeout(left, body.frame())
            .await
            .map_err(|_| Failure::Unreachable("the answer came too slowly".into()))?;
        let Some(frame) = frame else {
            return Ok(bytes);
        };
        let frame = frame.map_err(|e| Failure::Unreachable(e.to_string()))?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > MAX_ANSWER {
                return Err(Failure::Refused(format!(
                    "an answer over {} MiB",
                    MAX_ANSWER >> 20
                )));
            }
            bytes.extend_from_slice(&data);
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Unreachable(e.to_string()))
}

/// Checks that a Partie hub answers at `hub` and takes `token` (blocking, at most a few
/// seconds): its health, then one authorised request. Nothing is written anywhere.
pub fn check_hub(hub: &str, token: &str) -> Result<Value, Failure> {
    // A thread of its own: the caller may be a worker of another runtime (the app's command
    // threads are), where a second runtime may not block.
    let (hub, token) = (hub.to_string(), token.to_string());
    std::thread::spawn(move || {
        runtime()?.block_on(async {
            let (_, health) = taken(answered(&hub, Method::GET, "/v1/health", None, None).await?)?;
            if health.get("hub").and_then(Value::as_str) != Some("partie") {
                return Err(Failure::Refused("it is not a Partie hub".into()));
            }
            taken(answered(&hub, Method::GET, "/v1/records?limit=1", Some(&token), None).await?)?;
            Ok(health)
        })
    })
    .join()
    .unwrap_or_else(|_| Err(Failure::Refused("the check failed inside the app".into())))
}

/// Where a device's sync stands, for the screens to show at all times.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SyncStatus {
    /// `idle` (not joined), `syncing` (joined, no round ended yet), `ok` (the last round went
    /// through) or `unreachable`, `unauthorized`, `failing` (the hub answered a 5xx: its
    /// own trouble, tried again), `refused` (the last round failed, with `error`), `device`
    /// (this device's own trouble: its database, the sync thread; with `error`). It changes
    /// when a round ends, so a hub away reads as away while the next try is under way.
    pub state: &'static str,
    /// Whether a round is under way.
    pub busy: bool,
    /// The hub's address while joined.
    pub hub: Option<String>,
    /// When a round last went through (ms since the epoch).
    pub last_sync: Option<i64>,
    /// When the last round was tried.
    pub last_try: Option<i64>,
    /// Why the last round failed, as the app's typed error (the screens translate its code or
    /// kind; its detail is in English).
    pub error: Option<Error>,
    /// Records refused between this device and the hub, latest first (at most
    /// [`REFUSALS_SHOWN`]), as [`Store::club_refusals`] keeps them: `{id, by, kind, detail,
    /// at}`, `by` being `hub` (it refused this device's record) or `device` (this device
    /// could not take one the hub has).
    pub refused: Vec<Value>,
    /// Records pulled since the app started.
    pub pulled: usize,
    /// Records pushed and taken since the app started.
    pub pushed: usize,
    /// How many times the syncer has woken and done what it had to (a round, or finding the
    /// device not joined): a poke has been served once this has grown past its value then.
    pub looks: u64,
}

enum Message {
    /// Something changed on the device: push now.
    Poke,
    /// Stop the thread.
    Stop,
}

/// The sync thread of a device: pushes as soon as it is poked, pulls every [`PULL_EVERY`],
/// and tries again after a failure, for as long as the device is joined.
pub struct Syncer {
    tx: mpsc::Sender<Message>,
    status: Arc<Mutex<SyncStatus>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Syncer {
    /// Starts the thread on the app's database at `db`.
    pub fn start(db: PathBuf) -> Syncer {
        Syncer::paced(db, PULL_EVERY)
    }

    /// Starts the thread, pulling every `pull_every` when nothing happens (and looking at a hub
    /// away at least that seldom). The app takes [`PULL_EVERY`]; a test that counts rounds
    /// takes far longer, so that every round but the first is one it asked for.
    pub fn paced(db: PathBuf, pull_every: Duration) -> Syncer {
        let (tx, rx) = mpsc::channel();
        let status = Arc::new(Mutex::new(SyncStatus {
            state: "idle",
            ..SyncStatus::default()
        }));
        let shared = status.clone();
        let thread = std::thread::Builder::new()
            .name("partie-sync".into())
            .spawn(move || {
                guarded(&rx, &shared, QUIET_AT_MOST, || {
                    run(&db, &rx, &shared, pull_every)
                })
            })
            .ok();
        Syncer { tx, status, thread }
    }

    /// Asks for a push now (after a play, a join); cheap, never blocks.
    pub fn poke(&self) {
        let _ = self.tx.send(Message::Poke);
    }

    /// Where sync stands.
    pub fn status(&self) -> SyncStatus {
        self.status
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

impl Drop for Syncer {
    fn drop(&mut self) {
        let _ = self.tx.send(Message::Stop);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The sync thread could not read this device's own database: the status says so (`device`,
/// with the error), and the thread tries again.
fn device_failed(status: &Mutex<SyncStatus>, e: Error) {
    set(status, |st| {
        st.state = "device";
        st.busy = false;
        st.error = Some(e);
        st.looks += 1;
    });
}

fn set(status: &Mutex<SyncStatus>, f: impl FnOnce(&mut SyncStatus)) {
    f(&mut status.lock().unwrap_or_else(|p| p.into_inner()));
}

/// Runs the sync loop `body` again after it panicked (a bug, a library's assertion): the
/// status says so at once (`device`, code `sync_crashed`; it said `busy` for ever before),
/// and the loop starts over after `pause` (a change on the device does not hasten it: a panic
/// that comes back at every round is not run in a tight loop), with a fresh store and runtime,
/// unless asked to stop. Nothing is lost by it: a round's writes are each one transaction.
fn guarded(
    rx: &mpsc::Receiver<Message>,
    status: &Mutex<SyncStatus>,
    pause: Duration,
    mut body: impl FnMut(),
) {
    loop {
        let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(&mut body)) else {
            return;
        };
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        set(status, |st| {
            st.state = "device";
            st.busy = false;
            st.looks += 1;
            st.error = Some(
                Error::storage(format!(
                    "the sync stopped on an error inside the app: {why}"
                ))
                .with_code("sync_crashed"),
            );
        });
        let until = std::time::Instant::now() + pause;
        loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            match rx.recv_timeout(left) {
                Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Ok(Message::Poke) => continue,
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
    }
}

fn run(
    db: &std::path::Path,
    rx: &mpsc::Receiver<Message>,
    status: &Mutex<SyncStatus>,
    pull_every: Duration,
) {
    // Without its runtime the thread cannot sync: said and tried again, as a crash is.
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(f) => panic!("no runtime for the sync: {}", f.to_error("").detail),
    };
    let mut store: Option<Store> = None;
    let mut wait = Duration::ZERO;
    // How long the timer waits while the hub is away ([`QUIET_AT_MOST`] at most, unless the
    // pace is slower).
    let mut quiet = pull_every;
    loop {
        match rx.recv_timeout(wait) {
            Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
            Ok(Message::Poke) | Err(RecvTimeoutError::Timeout) => {}
        }
        // Pokes that came meanwhile are served by this round.
        while let Ok(m) = rx.try_recv() {
            if matches!(m, Message::Stop) {
                return;
            }
        }
        if store.is_none() {
            match Store::open(db) {
                Ok((s, _)) => store = Some(s),
                // Said, not shown as "not joined": the device may well be joined.
                Err(e) => device_failed(status, e),
            }
        }
        let Some(s) = store.as_mut() else {
            wait = pull_every;
            continue;
        };
        let joined = match s.joined_club() {
            Ok(j) => j,
            Err(e) => {
                device_failed(status, e);
                wait = pull_every;
                continue;
            }
        };
        let Some(join) = joined else {
            set(status, |st| {
                *st = SyncStatus {
                    state: "idle",
                    looks: st.looks + 1,
                    ..SyncStatus::default()
                }
            });
            // Not joined: sleep until poked (a join pokes).
            wait = Duration::from_secs(3600);
            continue;
        };
        set(status, |st| {
            if st.hub.as_deref() != Some(join.hub.as_str()) {
                *st = SyncStatus {
                    state: "syncing",
                    hub: Some(join.hub.clone()),
                    looks: st.looks,
                    ..SyncStatus::default()
                };
            }
            st.busy = true;
            st.last_try = Some(partie_core::time::now_ms());
        });
        let outcome = rt.block_on(round(s, &join, status));
        // Pages left for the next round, which comes at once (after its push).
        let more = matches!(outcome, Ok(Pulled::More));
        // A hub away or in trouble is looked at less and less often while nothing changes
        // here (a phone left joined after the club night, a hub down): a change still pushes
        // at once.
        let away = matches!(outcome, Err(Failure::Unreachable(_) | Failure::Failing(_)));
        // Kept in the database, so that they are still listed after a restart.
        let refused = s.club_refusals(&join.hub, REFUSALS_SHOWN);
        set(status, |st| {
            st.busy = false;
            st.looks += 1;
            if let Ok(refused) = refused {
                st.refused = refused;
            }
        });
        set(status, |st| match outcome {
            Ok(Pulled::More) => {
                st.state = "syncing";
                st.error = None;
            }
            Ok(_) => {
                st.state = "ok";
                st.error = None;
                st.last_sync = Some(partie_core::time::now_ms());
            }
            Err(f) => {
                st.state = match f {
                    Failure::Unreachable(_) => "unreachable",
                    Failure::Unauthorized => "unauthorized",
                    Failure::Failing(_) => "failing",
                    Failure::Refused(_) | Failure::Hub { .. } => "refused",
                    Failure::Device(_) => "device",
                };
                st.error = Some(f.to_error(&join.hub));
            }
        });
        wait = if more {
            Duration::ZERO
        } else if away {
            quiet = (quiet * 2).min(QUIET_AT_MOST.max(pull_every));
            spread(quiet)
        } else {
            quiet = pull_every;
            pull_every
        };
    }
}

/// The longest wait between two looks at a hub that is away or in trouble ([`run`]): a fourth
/// of the looks, and a hub started again is still found within ten seconds (the club night's
/// results waiting on the phones go out by themselves).
pub const QUIET_AT_MOST: Duration = Duration::from_secs(8);

/// `wait`, give or take a fifth: the phones of a club that lost its hub at one moment do not
/// all come back to it at the same one.
fn spread(wait: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    // From 0.8 to 1.2 times the wait.
    wait.mul_f64(0.8 + f64::from(nanos % 1000) / 2500.0)
}

/// One round: the whole outbox out, then every page the hub has for this device (after a push
/// the hub could not do for its own trouble too: [`held_over`]). A hub that
/// refuses this device's cursor as not its own is another database at this address (or this
/// one from an older copy): the device forgets what it was said to hold and does the round
/// again, once, from the start both ways.
///
/// A round pulls [`PAGES_A_ROUND`] pages at most ([`Pulled::More`]: the next round goes on
/// at once): while other devices push as fast as pages come, a round that pulled until a page
/// came empty never ended, and this device's own throws waited unsent.
async fn round(
    s: &mut Store,
    join: &ClubJoin,
    status: &Mutex<SyncStatus>,
) -> Result<Pulled, Failure> {
    let pushed = held_over(push_all(s, join, status).await)?;
    match pull_pages(s, join, status).await? {
        Pulled::More => pushed.map(|()| Pulled::More),
        Pulled::All => {
            // What an older version of the app could not take from the hub, this one may:
            // tried once the hub has taken this device's cursor, so that they go to the
            // database they came from.
            s.club_refused_again(&join.hub, partie_core::store::APP_VERSION)
                .map_err(storage)?;
            pushed.map(|()| Pulled::All)
        }
        Pulled::NotItsCursor => {
            // Pulled from the start first: what the hub runs comes back from it, and leaves
            // the tournaments to give back (the hub's copy, maybe moved on since a restore,
            // is never replaced by this device's); then the others go back to it, before the
            // matches of their tables.
            s.club_forget(&join.hub).map_err(storage)?;
            let pulled = pull_pages(s, join, status).await?;
            if let Pulled::NotItsCursor = pulled {
                return Err(Failure::Refused(
                    "the hub refuses the cursor it gave from the start".into(),
                ));
            }
            push_all(s, join, status).await.map(|()| pulled)
        }
    }
}

/// What this device has for the hub: the tournaments to give back, then the outbox (the
/// matches of their tables after them).
async fn push_all(
    s: &mut Store,
    join: &ClubJoin,
    status: &Mutex<SyncStatus>,
) -> Result<(), Failure> {
    give_back_tournaments(s, join).await?;
    push_outbox(s, join, status).await
}

/// A push the hub could not do for its own trouble (a 5xx) does not keep this device from
/// pulling what the others pushed: it is said once the pull is done (`Ok(Err(..))`), and the
/// push goes again next round. Any other failure ends the round at once.
fn held_over(pushed: Result<(), Failure>) -> Result<Result<(), Failure>, Failure> {
    match pushed {
        Err(f @ Failure::Failing(_)) => Ok(Err(f)),
        Err(f) => Err(f),
        Ok(()) => Ok(Ok(())),
    }
}

fn storage(e: Error) -> Failure {
    Failure::Device(e)
}

/// Gives a hub that turned out to be another database the tournaments pulled from it, so that
/// nothing it ran is lost with its old database and its tables' matches find them
/// ([`Store::club_restoring`]). A record's refusal is not said to the user: the hub holds
/// another copy (another phone gave it back first), which is as good. A batch refused whole
/// goes again in halves ([`post_batch`]), down to the tournament the hub will not take,
/// which is listed among the refused and not tried again.
async fn give_back_tournaments(s: &mut Store, join: &ClubJoin) -> Result<(), Failure> {
    let mut batch = PUSH_BATCH;
    loop {
        let records = s.club_restoring(&join.hub, batch).map_err(storage)?;
        if records.is_empty() {
            return Ok(());
        }
        let refused = match post_batch(join, &records).await? {
            Posted::Halve(n) => {
                batch = n;
                continue;
            }
            // The hub will not take it; waiting on it would stop every push and pull after.
            Posted::Refused(refused) => refused,
            Posted::Answered(_) => {
                batch = PUSH_BATCH;
                Vec::new()
            }
        };
        s.club_restored(&join.hub, &ids_of(&records), &refused)
            .map_err(storage)?;
    }
}

/// How the hub took a batch of records ([`post_batch`]).
enum Posted {
    /// Its answer (`accepted`, `updated`, `already`, `refused`).
    Answered(Value),
    /// Refused whole: to go again as batches of this many.
    Halve(usize),
    /// A single record refused whole: its refusal, as an answer's `refused` lists it.
    Refused(Vec<Value>),
}

/// Pushes `records`. A batch the hub refuses whole for what it holds (a 4xx; 413: over its
/// 8 MiB; another: a record it cannot read, such as one nested too deep) would be refused
/// again: it goes again in halves, down to the one record the hub will not take (`too_large`
/// for a 413, else the hub's kind). A 5xx is the hub's own trouble, tried again as it is.
async fn post_batch(join: &ClubJoin, records: &[Value]) -> Result<Posted, Failure> {
    match post_records(join, records).await {
        Err(Failure::Hub { status, kind, why }) if (400..500).contains(&status) => {
            if records.len() > 1 {
                return Ok(Posted::Halve(records.len() / 2));
            }
            let kind = if status == 413 { "too_large" } else { &kind };
            Ok(Posted::Refused(
                ids_of(records)
                    .into_iter()
                    .map(|id| json!({"id": id, "kind": kind, "detail": why}))
                    .collect(),
            ))
        }
        answer => answer.map(Posted::Answered),
    }
}

/// Pushes `records` to the hub; its answer (`accepted`, `updated`, `already`, `refused`).
async fn post_records(join: &ClubJoin, records: &[Value]) -> Result<Value, Failure> {
    let body = serde_json::to_vec(&json!({ "records": records }))
        .map_err(|e| Failure::Refused(e.to_string()))?;
    let (_, answer) = taken(
        answered(
            &join.hub,
            Method::POST,
            "/v1/records",
            Some(&join.token),
            Some(body),
        )
        .await?,
    )?;
    a_push_answer(&answer, records.len())?;
    Ok(answer)
}

/// Whether `answer` is a hub's answer to a push of `sent` records: a count for each record
/// (accepted, updated, already, or a refusal). Any other 200 (another program now at the
/// hub's address, something in front of it) took nothing that can be counted on: taken for
/// "all taken", the records would never be sent again.
fn a_push_answer(answer: &Value, sent: usize) -> Result<(), Failure> {
    let count = |k: &str| answer.get(k).and_then(Value::as_u64);
    let refused = answer
        .get("refused")
        .and_then(Value::as_array)
        .map(|r| r.len() as u64);
    match (
        count("accepted"),
        count("updated"),
        count("already"),
        refused,
    ) {
        (Some(a), Some(u), Some(al), Some(r)) if a + u + al + r == sent as u64 => Ok(()),
        _ => Err(Failure::Refused(format!(
            "the hub's address answered a push of {sent} records with something else than \
             a Partie hub's account of them"
        ))),
    }
}

/// The `id` of each record.
fn ids_of(records: &[Value]) -> Vec<String> {
    records
        .iter()
        .filter_map(|r| r.get("id").and_then(Value::as_str).map(str::to_string))
        .collect()
}

/// Pushes the whole outbox, a batch at a time. A batch the hub refuses whole
/// ([`post_batch`]) goes again in halves; a single record it refuses so is noted as refused
/// (`too_large` for a 413, else the hub's kind) and passed over, so that it never holds back
/// the pushes and pulls after it. A batch the hub fails on (a 5xx) is its own trouble, unless
/// it is one record's: a record the hub fails on alone while it takes the next one alone is
/// held ([`HELD`]: listed, still waiting, pushed again at later rounds) and the others go on;
/// a hub that fails on the next one too is failing, and the round's push ends.
async fn push_outbox(
    s: &mut Store,
    join: &ClubJoin,
    status: &Mutex<SyncStatus>,
) -> Result<(), Failure> {
    let mut batch = PUSH_BATCH;
    // Whether the hub took a push this round.
    let mut taken = false;
    let mut held = None;
    let mut held_now = Vec::new();
    loop {
        let outbox = s.club_outbox(&join.hub, batch).map_err(storage)?;
        if outbox.records.is_empty() {
            // Nothing to send, but the log may have moved past pulled records.
            s.club_pushed(&join.hub, &outbox, &[]).map_err(storage)?;
            break;
        }
        let (outbox, refused) = match post_batch(join, &outbox.records).await {
            Ok(Posted::Halve(n)) => {
                batch = n;
                continue;
            }
            Ok(Posted::Refused(refused)) => (outbox, refused),
            Ok(Posted::Answered(answer)) => {
                // Back to whole batches once a batch is taken: one record too large must not
                // send the rest of the outbox one request at a time.
                batch = PUSH_BATCH;
                taken = true;
                (outbox, refused_in(&answer))
            }
            Err(Failure::Failing(_)) if outbox.records.len() > 1 => {
                // Halves look for the record at fault; with nothing taken yet, the first alone
                // asks first whether the hub takes anything at all (a hub down costs three
                // requests a round, not a search through the batch).
                batch = if taken { outbox.records.len() / 2 } else { 1 };
                continue;
            }
            Err(Failure::Failing(why)) => {
                // The hub, or this record? The next one alone tells: a hub that went down
                // after taking the batches before fails on it too, and nothing is held.
                let two = s.club_outbox(&join.hub, 2).map_err(storage)?;
                if two.records.is_empty() {
                    return Err(Failure::Failing(why));
                }
                if ids_of(&two.records[..1]) != ids_of(&outbox.records) {
                    // The record failed on changed meanwhile (a throw on it moved it later in
                    // the outbox): the first now is another, never tried. Tried alone first,
                    // rather than held without a try.
                    batch = 1;
                    continue;
                }
                let mut refused = vec![held_refusal(&two.records[..1], &why)];
                match two.records.get(1) {
                    Some(next) => refused.extend(post_one(join, std::slice::from_ref(next)).await?),
                    // The last one: the hub's trouble, unless it took others this round.
                    None if taken => {}
                    None => return Err(Failure::Failing(why)),
                }
                batch = PUSH_BATCH;
                taken = true;
                held_now.extend(ids_of(&two.records[..1]));
                held = Some(Failure::Failing(why));
                (two, refused)
            }
            Err(f) => return Err(f),
        };
        // What the hub said of a record before is replaced by what it says now: taken, it is
        // no longer refused (changed since, or pushed again to a replaced hub once it had the
        // tournament back); refused again, it is listed once.
        s.club_pushed(&join.hub, &outbox, &refused)
            .map_err(storage)?;
        set(status, |st| {
            st.pushed += outbox.records.len().saturating_sub(ids_of(&refused).len())
        });
    }
    if let Some(f) = push_held(s, join, status, &held_now).await? {
        held = Some(f);
    }
    held.map_or(Ok(()), Err)
}

/// Pushes again, one at a time, the records the hub failed on alone at an earlier round
/// ([`Store::club_held`], those tried longest ago first; `skip`: those held this round). The
/// first it fails on again stays held and ends the retries until the next round (a hub down
/// is asked once a round for them, not once a record), and the failure is returned, to be
/// said once the round is done.
async fn push_held(
    s: &mut Store,
    join: &ClubJoin,
    status: &Mutex<SyncStatus>,
    skip: &[String],
) -> Result<Option<Failure>, Failure> {
    for record in s.club_held(&join.hub, HELD_TRIED).map_err(storage)? {
        let records = vec![record];
        if ids_of(&records).iter().any(|id| skip.contains(id)) {
            continue;
        }
        let refused = match post_one(join, &records).await {
            Ok(refused) => refused,
            Err(Failure::Failing(why)) => {
                // Tried now: the others held go first next time.
                s.club_held_tried(&join.hub, &ids_of(&records))
                    .map_err(storage)?;
                return Ok(Some(Failure::Failing(why)));
            }
            Err(f) => return Err(f),
        };
        // Taken at last, or refused for what it is: either replaces the hold. No push mark
        // moves (0): the record was passed over when it was held.
        let outbox = Outbox { records, upto: 0 };
        s.club_pushed(&join.hub, &outbox, &refused)
            .map_err(storage)?;
        set(status, |st| {
            st.pushed += outbox.records.len().saturating_sub(ids_of(&refused).len())
        });
    }
    Ok(None)
}

/// Pushes a single record ([`post_batch`]): the hub's refusals (none: taken).
async fn post_one(join: &ClubJoin, record: &[Value]) -> Result<Vec<Value>, Failure> {
    match post_batch(join, record).await? {
        Posted::Answered(answer) => Ok(refused_in(&answer)),
        Posted::Refused(refused) => Ok(refused),
        // post_batch halves only a batch of two or more.
        Posted::Halve(_) => Err(Failure::Refused("one record cannot go in halves".into())),
    }
}

/// The refusals an answer lists.
fn refused_in(answer: &Value) -> Vec<Value> {
    answer
        .get("refused")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// A single record the hub failed on (a 5xx, `why`), noted as held ([`HELD`]).
fn held_refusal(records: &[Value], why: &str) -> Value {
    let id = ids_of(records).into_iter().next().unwrap_or_default();
    json!({"id": id, "kind": HELD, "detail": why})
}

/// How a pull ended.
enum Pulled {
    /// Every page the hub had.
    All,
    /// The hub refused the cursor as one it never gave.
    NotItsCursor,
    /// [`PAGES_A_ROUND`] pages, and the hub may have more.
    More,
}

/// The pages a round pulls at most ([`round`]).
pub const PAGES_A_ROUND: usize = 20;

/// Pulls every page the hub has after this device's cursor.
async fn pull_pages(
    s: &mut Store,
    join: &ClubJoin,
    status: &Mutex<SyncStatus>,
) -> Result<Pulled, Failure> {
    for _ in 0..PAGES_A_ROUND {
        let since = s.sync_pulled(&join.hub).map_err(storage)?;
        let path = match &since {
            Some(c) => format!("/v1/records?since={}", query_escape(c)),
            None => "/v1/records".to_string(),
        };
        let (answer, page) =
            answered(&join.hub, Method::GET, &path, Some(&join.token), None).await?;
        // (The only `bad_record` a page asked with a cursor can get: a cursor it does not take.)
        if answer == StatusCode::BAD_REQUEST
            && page.get("kind").and_then(Value::as_str) == Some("bad_record")
            && since.is_some()
        {
            return Ok(Pulled::NotItsCursor);
        }
        let (_, mut page) = taken((answer, page))?;
        // Taken out of the page, not copied: a page may be megabytes.
        let records = match page.get_mut("records").map(Value::take) {
            Some(Value::Array(records)) => records,
            _ => Vec::new(),
        };
        let Some(cursor) = page.get("cursor").and_then(Value::as_str) else {
            return Err(Failure::Refused("a page without a cursor".into()));
        };
        if records.is_empty() {
            // Everything the hub has is here: a sync, even when a push of this round is held
            // over for the hub's trouble (the status says that apart, as `failing`).
            set(status, |st| {
                st.last_sync = Some(partie_core::time::now_ms())
            });
            return Ok(Pulled::All);
        }
        // Records under the cursor they were asked after: the next page would be this one
        // again, and the round would never end.
        if since.as_deref() == Some(cursor) {
            return Err(Failure::Refused(format!(
                "the hub gave records without moving its cursor ({cursor})"
            )));
        }
        s.club_pulled(&join.hub, &records, cursor)
            .map_err(storage)?;
        set(status, |st| st.pulled += records.len());
    }
    Ok(Pulled::More)
}

/// A cursor as a query value: what is not unreserved is percent-encoded.
fn query_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_the_sync_loop_is_said_and_the_loop_starts_again() {
        let (tx, rx) = mpsc::channel();
        let status = Mutex::new(SyncStatus {
            state: "ok",
            busy: true,
            ..SyncStatus::default()
        });
        // A change on the device meanwhile does not cut the pause short.
        tx.send(Message::Poke).unwrap();
        let mut calls = 0;
        let start = std::time::Instant::now();
        guarded(&rx, &status, Duration::from_millis(300), || {
            calls += 1;
            if calls == 1 {
                panic!("a bug");
            }
        });
        assert_eq!(calls, 2, "the loop started again after the panic");
        assert!(start.elapsed() >= Duration::from_millis(300));
        let st = status.lock().unwrap();
        assert_eq!((st.state, st.busy, st.looks), ("device", false, 1));
        let error = st.error.clone().unwrap();
        assert_eq!(error.code, Some("sync_crashed"));
        assert!(error.detail.contains("a bug"), "{}", error.detail);
        drop(st);

        // Asked to stop while it waits: it does not start again.
        tx.send(Message::Stop).unwrap();
        let mut calls = 0;
        guarded(&rx, &status, Duration::from_secs(60), || {
            calls += 1;
            panic!("again");
        });
        assert_eq!(calls, 1);
    }

    #[test]
    fn a_hubs_typed_refusal_and_a_stranger_are_told_apart() {
        let hub = "http://127.0.0.1:7878";
        let refused = refusal(
            StatusCode::INTERNAL_SERVER_ERROR,
            &json!({"kind": "storage", "detail": "disk full"}),
        );
        assert_eq!(refused.to_error(hub).code, Some("hub_failing"));
        assert!(refused.to_error(hub).detail.contains("disk full"));
        let refused = refusal(
            StatusCode::BAD_REQUEST,
            &json!({"kind": "bad_record", "detail": "not JSON"}),
        );
        assert_eq!(refused.to_error(hub).code, Some("hub_refused"));
        let stranger = refusal(StatusCode::NOT_FOUND, &json!({"error": "nope"}));
        assert_eq!(stranger.to_error(hub).code, Some("not_a_hub"));
        // This device's own database failing is said as that error, not as the hub's.
        let device = Failure::Device(Error::storage("disk full"));
        assert_eq!(device.to_error(hub), Error::storage("disk full"));
    }
}
