//! A throwaway PostgreSQL cluster on loopback for the tests: `initdb` in a temporary folder, the
//! server on 127.0.0.1 and a free port, its socket in that folder; stopped (`pg_ctl -m
//! immediate`) and the folder deleted when dropped. The server comes from Debian's `postgresql`
//! package, which `./scripts/setup.sh --tests` installs; without it the tests fail and say so.
//! As root (initdb refuses root) the programs run as the `postgres` user through `runuser`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// The folder of PostgreSQL's server programs: `$PG_BIN`, else the newest
/// `/usr/lib/postgresql/N/bin`. Panics, saying how to install them, when there are none.
pub fn server_bin() -> PathBuf {
    let missing = || -> ! {
        panic!(
            "PostgreSQL's server programs (initdb, pg_ctl) are not installed: \
             run ./scripts/setup.sh --tests (it installs Debian's postgresql package), \
             or set PG_BIN to their folder"
        )
    };
    if let Some(dir) = std::env::var_os("PG_BIN") {
        let dir = PathBuf::from(dir);
        if !dir.join("initdb").is_file() {
            missing();
        }
        return dir;
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    found.sort();
    match found.pop() {
        Some((_, bin)) => bin,
        None => missing(),
    }
}

fn is_root() -> bool {
    // The owner of our own process's folder in /proc is our user id.
    std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false)
}

/// One of the server's programs, as the user that may run it.
fn program(bin: &Path, name: &str) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(name));
        c
    } else {
        Command::new(bin.join(name))
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A running cluster, removed when dropped.
pub struct PgCluster {
    pub port: u16,
    bin: PathBuf,
    data: PathBuf,
    dir: Option<tempfile::TempDir>,
}

fn shared_slot() -> &'static Mutex<Weak<PgCluster>> {
    static SHARED: std::sync::OnceLock<Mutex<Weak<PgCluster>>> = std::sync::OnceLock::new();
    SHARED.get_or_init(|| Mutex::new(Weak::new()))
}

impl PgCluster {
    /// The cluster the tests of this process share while any of them holds it (the last one
    /// done stops and removes it). Each test takes a database of its own in it.
    pub fn shared() -> Arc<PgCluster> {
        let mut slot = shared_slot().lock().unwrap_or_else(|p| p.into_inner());
        if let Some(c) = slot.upgrade() {
            return c;
        }
        let c = Arc::new(PgCluster::start(false));
        *slot = Arc::downgrade(&c);
        c
    }

    /// A cluster of one's own (the tests that stop and restart it). `fsync`: whether commits
    /// wait for the disk. The tests run without (a killed server loses nothing the system
    /// holds; only a power cut would), the benchmarks with.
    pub fn start(fsync: bool) -> PgCluster {
        let bin = server_bin();
        let dir = tempfile::Builder::new()
            .prefix("partie-pg-")
            .tempdir()
            .unwrap();
        let data = dir.path().join("data");
        if is_root() {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status()
                .expect("chown runs");
            assert!(status.success(), "chown the cluster's folder to postgres");
        }
        let out = program(&bin, "initdb")
            .arg("-D")
            .arg(&data)
            .args([
                "-U",
                "partie",
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ])
            .output()
            .expect("initdb runs");
        assert!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut cluster = PgCluster {
            port: 0,
            bin,
            data,
            dir: Some(dir),
        };
        cluster.port = free_port();
        cluster.run(fsync);
        cluster.watchdog();
        cluster
    }

    fn run(&self, fsync: bool) {
        let dir = self.dir.as_ref().unwrap().path();
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync={} -c max_connections=200 \
             -c shared_buffers=64MB",
            self.port,
            dir.display(),
            if fsync { "on" } else { "off" }
        );
        let out = program(&self.bin, "pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(dir.join("log"))
            .args(["-o", &options, "-w", "-t", "60", "start"])
            .output()
            .expect("pg_ctl runs");
        assert!(
            out.status.success(),
            "the cluster did not start: {}{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(dir.join("log")).unwrap_or_default()
        );
    }

    /// A test process killed (a timeout, ^C) runs no `Drop`: a small shell watches it and
    /// stops the server and removes its folder when it is gone.
    fn watchdog(&self) {
        let dir = self.dir.as_ref().unwrap().path();
        let stop = if is_root() {
            format!(
                "runuser -u postgres -- {}/pg_ctl -D {} -m immediate stop",
                self.bin.display(),
                self.data.display()
            )
        } else {
            format!(
                "{}/pg_ctl -D {} -m immediate stop",
                self.bin.display(),
                self.data.display()
            )
        };
        let script = format!(
            "while kill -0 {pid} 2>/dev/null && [ -d {dir} ]; do sleep 1; done; \
             if [ -d {dir} ]; then {stop} >/dev/null 2>&1; rm -rf {dir}; fi",
            pid = std::process::id(),
            dir = dir.display(),
        );
        let _ = Command::new("sh")
            .args(["-c", &script])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
    }

    /// The server killed as by a crash (`pg_ctl -m immediate stop`): no checkpoint, what was
    /// committed is in its write-ahead log.
    pub fn stop_immediately(&self) {
        let _ = program(&self.bin, "pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "-w", "stop"])
            .output();
    }

    /// Starts the server again on the same port (it replays its log first).
    pub fn start_again(&self) {
        self.run(false);
    }

    /// The server's process id (its `postmaster.pid` file's first line).
    pub fn postmaster(&self) -> u32 {
        std::fs::read_to_string(self.data.join("postmaster.pid"))
            .ok()
            .and_then(|s| s.lines().next().and_then(|l| l.trim().parse().ok()))
            .expect("the server runs")
    }

    /// The address of database `name`.
    pub fn url(&self, name: &str) -> String {
        format!("postgresql://partie@127.0.0.1:{}/{name}", self.port)
    }

    /// Runs one of the server's programs that talk to it (`pg_dump`, `pg_restore`) with
    /// `args`, as the user that may; panics with what it said when it fails.
    pub fn tool(&self, name: &str, args: &[&str]) {
        let out = program(&self.bin, name)
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "partie",
            ])
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{name} runs: {e}"));
        assert!(
            out.status.success(),
            "{name} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A path in the cluster's folder, which its programs may write.
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.as_ref().unwrap().path().join(name)
    }

    /// Runs SQL on the `postgres` database.
    pub async fn admin(&self, sql: &str) {
        let (client, conn) = tokio_postgres::connect(&self.url("postgres"), tokio_postgres::NoTls)
            .await
            .expect("the cluster answers");
        tokio::spawn(conn);
        client.batch_execute(sql).await.unwrap();
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        self.stop_immediately();
        // The folder goes with the TempDir.
        drop(self.dir.take());
    }
}

/// A database of its own in a cluster.
#[derive(Clone)]
pub struct PgDb {
    pub url: String,
    pub cluster: Arc<PgCluster>,
}

impl PgDb {
    /// A new empty database.
    pub async fn create(cluster: Arc<PgCluster>) -> PgDb {
        static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let name = format!(
            "t{}_{}",
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        cluster.admin(&format!("CREATE DATABASE {name}")).await;
        PgDb {
            url: cluster.url(&name),
            cluster,
        }
    }

    /// Its name in the cluster.
    pub fn name(&self) -> &str {
        self.url.rsplit('/').next().unwrap()
    }

    /// A dump of it (`pg_dump`, the custom format), in the file `file` of the cluster's folder.
    pub fn dump(&self, file: &str) -> PathBuf {
        let path = self.cluster.file(file);
        let out = path.to_str().unwrap();
        self.cluster
            .tool("pg_dump", &["-Fc", "-f", out, "-d", self.name()]);
        path
    }

    /// `dump` put back over it, as an organiser brings back a backup: `pg_restore --clean`
    /// drops what is there and makes it again from the dump.
    pub fn restore(&self, dump: &Path) {
        let file = dump.to_str().unwrap();
        self.cluster.tool(
            "pg_restore",
            &[
                "--clean",
                "--if-exists",
                "--single-transaction",
                "-d",
                self.name(),
                file,
            ],
        );
    }

    /// A pool on it (migrated).
    pub async fn pool(&self) -> deadpool_postgres::Pool {
        let pool = partie_hub::storage::postgres::pool(&self.url, 4).unwrap();
        partie_hub::storage::postgres::migrate(&pool).await.unwrap();
        pool
    }

    /// A club named `name` whose new token is written to `token_file`; the token.
    pub async fn add_club(&self, name: &str, token_file: &Path) -> String {
        let pool = self.pool().await;
        let token = partie_hub::storage::postgres::new_token().unwrap();
        partie_hub::storage::postgres::add_club(&pool, name, &token)
            .await
            .unwrap();
        std::fs::write(token_file, format!("{token}\n")).unwrap();
        token
    }
}

/// Waits until the cluster answers again (after a restart), at most `within`.
pub async fn wait_for(cluster: &PgCluster, within: Duration) {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if tokio_postgres::connect(&cluster.url("postgres"), tokio_postgres::NoTls)
            .await
            .is_ok()
        {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the cluster is back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
