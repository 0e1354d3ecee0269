//! What the hub's tests and the load test share: a hub on loopback (in this process or the real
//! binary) on either storage (SQLite, or PostgreSQL in a throwaway cluster these tests start and
//! remove), a small HTTP client on hyper's own connection, and devices that sync through it.
//! Every request is bounded in time; nothing leaves 127.0.0.1.
#![allow(dead_code)]

pub mod pg;

pub use pg::{PgCluster, PgDb};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use partie_core::store::{Source, Store};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The longest any single request of a test may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// The hub's storage a test runs on: every API and fault test runs on both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Runs each named test (an `async fn(Backend)`) once per storage: `NAME::sqlite` and
/// `NAME::postgres`.
#[macro_export]
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                super::$name($crate::common::Backend::Sqlite).await
            }
            #[tokio::test]
            async fn postgres() {
                super::$name($crate::common::Backend::Postgres).await
            }
        }
    )*};
}

/// Where a hub keeps its records: a SQLite file, or a club of a PostgreSQL database.
#[derive(Clone)]
pub enum Place {
    Sqlite(PathBuf),
    Postgres(PgDb),
}

impl Place {
    /// A new place in `dir` (SQLite) or a new database of the shared cluster with one club
    /// whose token is written to `token_file`.
    pub async fn new(backend: Backend, dir: &Path, token_file: &Path) -> Place {
        match backend {
            Backend::Sqlite => Place::Sqlite(dir.join("hub.db")),
            Backend::Postgres => {
                let db = PgDb::create(PgCluster::shared()).await;
                db.add_club("club", token_file).await;
                Place::Postgres(db)
            }
        }
    }

    /// The schema version the hub's health check gives.
    pub fn schema(&self) -> i64 {
        match self {
            Place::Sqlite(_) => partie_core::store::migrations::latest(),
            Place::Postgres(_) => partie_hub::storage::postgres::latest(),
        }
    }
}

/// A hub served by this process on 127.0.0.1, port chosen by the system.
pub struct TestHub {
    pub addr: SocketAddr,
    pub token: String,
    pub hub: Arc<partie_hub::Hub>,
    pub place: Place,
    pub dir: tempfile::TempDir,
}

/// Opens a hub on `place` with `token`.
pub async fn open_hub(place: &Place, token: &str) -> Arc<partie_hub::Hub> {
    match place {
        Place::Sqlite(db) => partie_hub::Hub::open(db, token).unwrap(),
        Place::Postgres(db) => partie_hub::Hub::open_postgres(&db.url, token)
            .await
            .unwrap(),
    }
}

/// Serves `hub` on 127.0.0.1, port chosen by the system.
pub async fn serve_on_loopback(hub: Arc<partie_hub::Hub>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(partie_hub::serve(listener, hub));
    addr
}

impl TestHub {
    /// A hub on SQLite.
    pub async fn start() -> TestHub {
        TestHub::start_on(Backend::Sqlite).await
    }

    /// A hub on `backend`, in a new file or a new database.
    pub async fn start_on(backend: Backend) -> TestHub {
        let dir = tempfile::tempdir().unwrap();
        let token_file = dir.path().join("token");
        let place = Place::new(backend, dir.path(), &token_file).await;
        let token = partie_hub::load_or_create_token(&token_file).unwrap();
        let hub = open_hub(&place, &token).await;
        let addr = serve_on_loopback(hub.clone()).await;
        TestHub {
            addr,
            token,
            hub,
            place,
            dir,
        }
    }

    /// A second hub of the same club on the same storage (another program on the SQLite file;
    /// another hub on the PostgreSQL database), served on its own port.
    pub async fn another_hub(&self) -> Client {
        let hub = open_hub(&self.place, &self.token).await;
        Client {
            addr: serve_on_loopback(hub).await,
            token: Some(self.token.clone()),
        }
    }

    /// The SQLite file (SQLite hubs only).
    pub fn db(&self) -> PathBuf {
        match &self.place {
            Place::Sqlite(db) => db.clone(),
            Place::Postgres(_) => panic!("a PostgreSQL hub has no file"),
        }
    }

    pub fn backend(&self) -> Backend {
        match self.place {
            Place::Sqlite(_) => Backend::Sqlite,
            Place::Postgres(_) => Backend::Postgres,
        }
    }

    pub fn client(&self) -> Client {
        Client {
            addr: self.addr,
            token: Some(self.token.clone()),
        }
    }

    /// The organiser, who creates tournaments and pairs their rounds: on SQLite the desktop
    /// app on the hub's own file (its own connection, as the app does); on PostgreSQL an
    /// organiser who pushes the tournament's record with its new events (the tournament's
    /// writer) through another hub of the club.
    pub async fn organiser(&self) -> Organiser {
        match &self.place {
            Place::Sqlite(db) => Organiser::App(Box::new(Store::open(db).unwrap().0)),
            Place::Postgres(_) => Organiser::Pushing(self.another_hub().await),
        }
    }
}

/// Who creates and pairs tournaments in a hub (see [`TestHub::organiser`]).
pub enum Organiser {
    App(Box<Store>),
    Pushing(Client),
}

impl Organiser {
    /// A new tournament; its id.
    pub async fn new_tournament(&mut self, setup: &Value) -> String {
        match self {
            Organiser::App(store) => store.new_tournament(setup).unwrap().uid,
            Organiser::Pushing(client) => {
                partie_core::tournament::Tournament::setup(setup).unwrap();
                let uid = format!("t-{}", std::process::id() as u64 * 1_000_000 + next_n());
                let record = json!({"format": 1, "id": uid, "revision": 0,
                                    "created_at": "2026-01-01T00:00:00Z",
                                    "tournament": setup, "events": []});
                let a = client.push(&[record]).await;
                assert_eq!(a.body["accepted"], 1, "{}", a.text);
                uid
            }
        }
    }

    /// Adds an event to the tournament `uid` (as it stands at the hub, results included).
    pub async fn event(&mut self, uid: &str, event: &Value) {
        match self {
            Organiser::App(store) => {
                let id = store.tournament_by_uid(uid).unwrap().unwrap();
                store.tournament_event(id, event).unwrap();
            }
            Organiser::Pushing(client) => {
                let mut t = client
                    .pull_all(500)
                    .await
                    .into_iter()
                    .find(|r| r["id"] == uid)
                    .expect("the tournament is at the hub");
                t["events"].as_array_mut().unwrap().push(event.clone());
                t["revision"] = json!(t["revision"].as_i64().unwrap() + 1);
                let a = client.push(&[t]).await;
                assert_eq!(a.body["updated"], 1, "{}", a.text);
            }
        }
    }
}

fn next_n() -> u64 {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The real `partie-hub` binary, killed when dropped.
pub struct SpawnedHub {
    pub child: Child,
    pub addr: SocketAddr,
    pub token: String,
}

impl SpawnedHub {
    /// Starts the binary on `db` and reads its first line (`listening on http://ADDR`).
    /// (The tests only: the load test names the binary itself.)
    #[cfg(test)]
    pub fn start(db: &Path, token_file: &Path) -> SpawnedHub {
        Self::start_with(env!("CARGO_BIN_EXE_partie-hub"), db, token_file)
    }

    /// The binary on `place`.
    #[cfg(test)]
    pub fn start_at(place: &Place, token_file: &Path) -> SpawnedHub {
        Self::start_exe_at(env!("CARGO_BIN_EXE_partie-hub"), place, token_file)
    }

    pub fn start_with(exe: &str, db: &Path, token_file: &Path) -> SpawnedHub {
        Self::start_exe_at(exe, &Place::Sqlite(db.to_path_buf()), token_file)
    }

    pub fn start_exe_at(exe: &str, place: &Place, token_file: &Path) -> SpawnedHub {
        use std::io::BufRead;
        let mut command = Command::new(exe);
        command.args(["serve", "--listen", "127.0.0.1:0"]);
        match place {
            Place::Sqlite(db) => command.arg("--db").arg(db),
            Place::Postgres(db) => command.arg("--postgres").arg(&db.url),
        };
        let mut child = command
            .arg("--token-file")
            .arg(token_file)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the hub starts");
        let mut line = String::new();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("first line: {line:?}"))
            .parse()
            .unwrap();
        let token = std::fs::read_to_string(token_file)
            .unwrap()
            .trim()
            .to_string();
        SpawnedHub { child, addr, token }
    }

    pub fn client(&self) -> Client {
        Client {
            addr: self.addr,
            token: Some(self.token.clone()),
        }
    }

    /// SIGKILL, and wait for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for SpawnedHub {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An answer: its status and its body, as JSON when it is.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub text: String,
    pub content_type: String,
}

/// A client of one hub (a new connection per request, `Connection: close`).
#[derive(Debug, Clone)]
pub struct Client {
    pub addr: SocketAddr,
    pub token: Option<String>,
}

fn request(
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Vec<u8>,
) -> hyper::Request<Full<Bytes>> {
    let mut r = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json");
    if let Some(t) = token {
        r = r.header("authorization", format!("Bearer {t}"));
    }
    r.body(Full::new(Bytes::from(body))).unwrap()
}

async fn read_answer(res: hyper::Response<hyper::body::Incoming>) -> Result<Answer, String> {
    let status = res.status().as_u16();
    let content_type = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let bytes = res
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Ok(Answer {
        status,
        body,
        text,
        content_type,
    })
}

impl Client {
    pub fn with_token(&self, token: Option<&str>) -> Client {
        Client {
            addr: self.addr,
            token: token.map(str::to_string),
        }
    }

    /// One request on a new connection; `Err` when the connection fails or is cut.
    pub async fn try_send(
        &self,
        method: &str,
        path: &str,
        body: Vec<u8>,
    ) -> Result<Answer, String> {
        let exchange = async {
            let stream = TcpStream::connect(self.addr)
                .await
                .map_err(|e| e.to_string())?;
            let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                .await
                .map_err(|e| e.to_string())?;
            tokio::spawn(conn);
            let res = sender
                .send_request(request(method, path, self.token.as_deref(), body))
                .await
                .map_err(|e| e.to_string())?;
            read_answer(res).await
        };
        tokio::time::timeout(REQUEST_TIMEOUT, exchange)
            .await
            .map_err(|_| "timed out".to_string())?
    }

    pub async fn send(&self, method: &str, path: &str, body: Vec<u8>) -> Answer {
        self.try_send(method, path, body)
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.send("GET", path, Vec::new()).await
    }

    pub async fn push(&self, records: &[Value]) -> Answer {
        self.send(
            "POST",
            "/v1/records",
            json!({ "records": records }).to_string().into_bytes(),
        )
        .await
    }

    /// Every record from the start, page by page.
    pub async fn pull_all(&self, limit: usize) -> Vec<Value> {
        let mut cursor: Option<String> = None;
        let mut out = Vec::new();
        for _ in 0..10_000 {
            let path = match &cursor {
                Some(c) => format!("/v1/records?since={c}&limit={limit}"),
                None => format!("/v1/records?limit={limit}"),
            };
            let a = self.get(&path).await;
            assert_eq!(a.status, 200, "{}", a.text);
            let page = a.body["records"].as_array().unwrap().clone();
            cursor = Some(a.body["cursor"].as_str().unwrap().to_string());
            if page.is_empty() {
                return out;
            }
            out.extend(page);
        }
        panic!("more pages than any test makes");
    }
}

/// A kept-alive connection, for the load test's devices.
pub struct Connection {
    sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    token: String,
}

impl Connection {
    pub async fn open(addr: SocketAddr, token: &str) -> Result<Connection, String> {
        let stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        tokio::spawn(conn);
        Ok(Connection {
            sender,
            token: token.to_string(),
        })
    }

    pub async fn push(&mut self, records: &[Value]) -> Result<Answer, String> {
        let body = json!({ "records": records }).to_string().into_bytes();
        let exchange = async {
            self.sender.ready().await.map_err(|e| e.to_string())?;
            let res = self
                .sender
                .send_request(request("POST", "/v1/records", Some(&self.token), body))
                .await
                .map_err(|e| e.to_string())?;
            read_answer(res).await
        };
        tokio::time::timeout(REQUEST_TIMEOUT, exchange)
            .await
            .map_err(|_| "timed out".to_string())?
    }
}

/// Raw bytes to the hub, and what it answered until it closed (or `timeout`).
pub async fn raw(addr: SocketAddr, bytes: &[u8], timeout: Duration) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let _ = s.write_all(bytes).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(timeout, s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).to_string()
}

/// A Mölkky record: `A` wins at its 9th action (12, 12, 12, 12, 2 against 1s).
pub fn molkky(id: &str, revision: i64, n: usize) -> Value {
    let all = [12, 1, 12, 1, 12, 1, 12, 1, 2];
    let actions: Vec<Value> = all[..n].iter().map(|p| json!({"pins": [p]})).collect();
    json!({"format": 1, "id": id, "revision": revision, "game": "molkky",
           "sides": [["A"], ["B"]], "actions": actions})
}

/// The throws of a match side 0 wins (for a device scoring a table's match).
pub const WIN_FOR_SIDE_0: [u8; 9] = [12, 1, 12, 1, 12, 1, 12, 1, 2];
/// The throws of a match side 1 wins.
pub const WIN_FOR_SIDE_1: [u8; 10] = [1, 12, 1, 12, 1, 12, 1, 12, 1, 2];

/// A phone: its own database, pushing its outbox and pulling the hub's records.
pub struct Device {
    pub store: Store,
    pub name: String,
}

impl Device {
    pub fn new(name: &str) -> Device {
        Device {
            store: Store::open_in_memory().unwrap(),
            name: name.to_string(),
        }
    }

    /// Pushes what changed here since the last answered push (one try); false when the
    /// connection failed, and the outbox stays for the next try.
    pub async fn try_push(&mut self, client: &Client) -> Result<Value, String> {
        let outbox = self.store.sync_outbox("hub", 500).unwrap();
        if outbox.records.is_empty() {
            return Ok(json!({"accepted": 0, "updated": 0, "already": 0, "refused": []}));
        }
        let body = json!({ "records": outbox.records })
            .to_string()
            .into_bytes();
        let a = client.try_send("POST", "/v1/records", body).await?;
        if a.status != 200 {
            return Err(format!("push answered {}: {}", a.status, a.text));
        }
        self.store.sync_pushed("hub", outbox.upto).unwrap();
        Ok(a.body)
    }

    /// Pulls every page since the last pull (one try per page).
    pub async fn try_pull(&mut self, client: &Client) -> Result<(), String> {
        for _ in 0..10_000 {
            let path = match self.store.sync_pulled("hub").unwrap() {
                Some(c) => format!("/v1/records?since={c}&limit=50"),
                None => "/v1/records?limit=50".to_string(),
            };
            let a = client.try_send("GET", &path, Vec::new()).await?;
            if a.status != 200 {
                return Err(format!("pull answered {}: {}", a.status, a.text));
            }
            let records = a.body["records"].as_array().cloned().unwrap_or_default();
            let report = self.store.merge_records(&records, Source::Hub).unwrap();
            assert!(report.refused.is_empty(), "{:?}", report.refused);
            self.store
                .set_sync_pulled("hub", a.body["cursor"].as_str().unwrap())
                .unwrap();
            if records.is_empty() {
                return Ok(());
            }
        }
        panic!("more pages than any test makes");
    }

    /// Pushes then pulls, retrying a failed connection up to `tries` times.
    pub async fn sync(&mut self, client: &Client, tries: usize) {
        for attempt in 0..tries {
            let pushed = self.try_push(client).await;
            let pulled = match pushed {
                Ok(answer) => {
                    let refused = &answer["refused"];
                    assert_eq!(refused, &json!([]), "{} pushed: {answer}", self.name);
                    self.try_pull(client).await
                }
                Err(e) => Err(e),
            };
            match pulled {
                Ok(()) => return,
                Err(_) if attempt + 1 < tries => {
                    tokio::time::sleep(Duration::from_millis(20)).await
                }
                Err(e) => panic!("{} could not sync in {tries} tries: {e}", self.name),
            }
        }
    }

    /// Starts the match of `table` of the current round of the tournament `uid`, and plays
    /// `throws` in it.
    pub fn play_table(&mut self, uid: &str, table: usize, throws: &[u8]) -> i64 {
        let t = self.store.tournament_by_uid(uid).unwrap().expect("pulled");
        let m = self.store.start_table(t, table).unwrap();
        for p in throws {
            self.store.play(m.id, &json!({"pins": [p]})).unwrap();
        }
        m.id
    }
}

/// Every record of a store, without the times each store stamps itself, sorted by id.
pub fn records_of(store: &Store) -> Vec<Value> {
    let mut v = store.records_since(None, 100_000).unwrap().records;
    for r in &mut v {
        strip_times(r);
    }
    v.sort_by_key(|r| r["id"].as_str().unwrap().to_string());
    v
}

/// The same for records pulled over HTTP.
pub fn normalised(mut v: Vec<Value>) -> Vec<Value> {
    for r in &mut v {
        strip_times(r);
    }
    v.sort_by_key(|r| r["id"].as_str().unwrap().to_string());
    v
}

fn strip_times(r: &mut Value) {
    let o = r.as_object_mut().unwrap();
    for k in ["started_at", "finished_at", "created_at"] {
        o.remove(k);
    }
    if let Some(actions) = o.get_mut("actions").and_then(Value::as_array_mut) {
        for a in actions {
            if let Some(a) = a.as_object_mut() {
                a.remove("at");
            }
        }
    }
}

/// Reads one HTTP/1.1 message (headers, then a body of its Content-Length).
pub async fn read_message(s: &mut TcpStream) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Some(buf)
}
