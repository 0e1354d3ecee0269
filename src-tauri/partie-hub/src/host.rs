//! The hub run by the app itself (the desktop's club-night screen): started on the app's
//! database on a thread of its own, stopped when asked or when the app ends, and the join link
//! phones read from its QR code.

use crate::qr::qr_modules;
use crate::{load_or_create_token, serve_until, Hub};
use partie_core::store::query_escaped;
use partie_core::Error;
use serde::Serialize;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::Path;

/// A hub running in this process.
pub struct Host {
    addr: SocketAddr,
    token: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What the club-night screen shows of a running hub.
#[derive(Debug, Clone, Serialize)]
pub struct HostInfo {
    /// Where phones reach it, `http://HOST:PORT`.
    pub address: String,
    /// The club token.
    pub token: String,
    /// What the QR code holds: `partie://join?hub=ADDRESS&token=TOKEN`.
    pub link: String,
    /// The big-screen page for a browser on the network (a TV), token included.
    pub page: String,
    /// The QR code's modules, row by row (`true`: dark), quiet zone not included.
    pub qr: Vec<Vec<bool>>,
    /// Whether a phone can join with the token (a hub takes any; a phone printable ASCII
    /// only, [`partie_core::store::joinable_token`]): the screen warns when not.
    pub phones_can_join: bool,
    /// Whether the address is this device's own loopback (no network found): phones cannot
    /// reach it, and the screen says so.
    pub this_device_only: bool,
}

impl Host {
    /// Opens the database at `db` for a hub, listens on `listen` (`ADDR:PORT`; port 0: the
    /// system picks one) and serves until stopped. The token is read from `token_file`, created
    /// when missing. Errors (the port taken, the database) come back here, before anything runs.
    pub fn start(db: &Path, listen: &str, token_file: &Path) -> Result<Host, Error> {
        let token = load_or_create_token(token_file).map_err(|e| {
            Error::storage(format!("the club token in {}: {e}", token_file.display()))
                .with_code("hub_token_file")
        })?;
        // Said as the hub's start that failed (the screens' text for a plain storage error is
        // "the history could not be saved"), unless the store said more (a newer database).
        let started = |e: Error| match e.code {
            Some(_) => e,
            None => e.with_code("hub_start_failed"),
        };
        let hub = Hub::open(db, &token).map_err(started)?;
        let listener = std::net::TcpListener::bind(listen).map_err(|e| {
            Error::storage(format!("cannot listen on {listen}: {e}")).with_code("hub_port_taken")
        })?;
        listener
            .set_nonblocking(true)
            .map_err(|e| started(Error::storage(e.to_string())))?;
        let addr = listener
            .local_addr()
            .map_err(|e| started(Error::storage(e.to_string())))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("partie-hub")
            .enable_all()
            .build()
            .map_err(|e| started(Error::storage(e.to_string())))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("partie-hub".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                        return;
                    };
                    let _ = serve_until(listener, hub, async {
                        let _ = stopped.await;
                    })
                    .await;
                });
            })
            .map_err(|e| started(Error::storage(e.to_string())))?;
        Ok(Host {
            addr,
            token,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// What the club-night screen shows: the address phones use, the token, the QR code.
    pub fn info(&self) -> HostInfo {
        let ip = reachable_ip(self.addr.ip());
        let address = match ip {
            IpAddr::V4(v4) => format!("http://{v4}:{}", self.addr.port()),
            IpAddr::V6(v6) => format!("http://[{v6}]:{}", self.addr.port()),
        };
        let link = join_link(&address, &self.token);
        HostInfo {
            page: format!("{address}/?token={}", query_escaped(&self.token)),
            qr: qr_modules(&link),
            address,
            token: self.token.clone(),
            link,
            phones_can_join: partie_core::store::joinable_token(&self.token),
            this_device_only: ip.is_loopback(),
        }
    }

    /// Stops serving; requests under way finish first.
    pub fn stop(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.shut();
    }
}

/// The address others on the network reach a hub bound to `bound` at: the bound address
/// itself, or for "every interface" the one the system routes outward from (no packet is
/// sent), else loopback.
pub fn reachable_ip(bound: IpAddr) -> IpAddr {
    if !bound.is_unspecified() {
        return bound;
    }
    let routed = || -> std::io::Result<IpAddr> {
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
        // A documentation address (TEST-NET-1): connecting a UDP socket only picks a route.
        socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
        Ok(socket.local_addr()?.ip())
    };
    match routed() {
        Ok(ip) if !ip.is_unspecified() => ip,
        _ => IpAddr::V4(Ipv4Addr::LOCALHOST),
    }
}

/// The join link of a hub: what its QR code holds and what a phone may paste.
pub fn join_link(address: &str, token: &str) -> String {
    // The address is a URL's own characters; the token may hold `&` or `#`.
    format!("partie://join?hub={address}&token={}", query_escaped(token))
}
