//! The hub's connections: each served by hyper's HTTP/1.1 with a deadline for a request's
//! head, TCP keep-alive, and a cap on how many are held at once.
//!
//! A club night's network loses phones: one walks out of the Wi-Fi or its battery dies in the
//! middle of a request, and its connection is never closed by a FIN. Without a deadline and
//! keep-alive such connections were held until the hub stopped, each a task and a file
//! descriptor; a few hundred of them (or one program opening connections and sending nothing)
//! left the hub unable to accept a phone, or SQLite unable to open its journal.

use crate::{router, Hub};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};

/// What the hub allows a connection ([`serve_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long a connection has to send a request's head once the hub waits for one: from
    /// its opening, and again after each answer (so an idle connection is closed after this
    /// long too; the app's client opens one per request).
    pub head_within: Duration,
    /// How many connections are held at once. The next one waits in the system's queue of
    /// the listener until one closes; it is not read into the hub's memory.
    pub connections: usize,
    /// How long a connection may be silent before the system asks whether its peer is still
    /// there (then every [`KEEPALIVE_EVERY`]): a phone gone without closing is found out, in
    /// the middle of an upload as well as between requests.
    pub keepalive: Duration,
    /// How long a request's body may take to come once its head is in. Keep-alive finds a
    /// peer that is gone, not one that is there and sends nothing; held to the cap, such
    /// connections would leave no room for a phone.
    pub body_within: Duration,
    /// How long an answer may wait for its peer to read (nothing of it taken meanwhile). A
    /// client that is there and reads nothing (a frozen tab's event stream, a program) would
    /// otherwise hold its connection, one of [`Limits::connections`], for as long as it likes.
    pub answer_within: Duration,
}

/// The interval between the system's keep-alive probes once a connection is silent.
pub const KEEPALIVE_EVERY: Duration = Duration::from_secs(10);

/// The largest request head taken, in bytes: the hub's requests have a few short headers, and
/// each connection held may fill this much of the hub's memory.
pub const MAX_HEAD: usize = 64 * 1024;

impl Default for Limits {
    /// 30 s for a head (hyper's own default, which it applies only with a timer), 256
    /// connections (a club's phones make one a request, a big screen one for its stream; a
    /// system's usual 1024 file descriptors leave room for the database and the app), a
    /// minute of silence before the first probe, two minutes for a body (8 MiB at the 128
    /// KiB/s the app's client allows for is 64 s), a minute for an answer held up (the app's
    /// client gives up after 5 s without a byte).
    fn default() -> Limits {
        Limits {
            head_within: Duration::from_secs(30),
            connections: 256,
            keepalive: Duration::from_secs(60),
            body_within: Duration::from_secs(120),
            answer_within: Duration::from_secs(60),
        }
    }
}

/// A connection whose writing fails once it has waited [`Limits::answer_within`] for its peer
/// to take anything: hyper sets no deadline on writing, and ends the connection on this error.
struct Stalling<S> {
    io: S,
    within: Duration,
    /// Since when a write waits, while it does.
    waiting: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<S> Stalling<S> {
    fn new(io: S, within: Duration) -> Stalling<S> {
        Stalling {
            io,
            within,
            waiting: None,
        }
    }

    /// The outcome of a write that came `ready` or not: any progress starts the wait again.
    fn timed<T>(
        &mut self,
        ready: std::task::Poll<std::io::Result<T>>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<T>> {
        use std::task::Poll;
        if ready.is_ready() {
            self.waiting = None;
            return ready;
        }
        let within = self.within;
        let waiting = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(within)));
        match waiting.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the peer took nothing of the answer in time",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Stalling<S> {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<S: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Stalling<S> {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let ready = std::pin::Pin::new(&mut this.io).poll_write(cx, buf);
        this.timed(ready, cx)
    }

    fn poll_write_vectored(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let ready = std::pin::Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.timed(ready, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let ready = std::pin::Pin::new(&mut this.io).poll_flush(cx);
        this.timed(ready, cx)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let ready = std::pin::Pin::new(&mut this.io).poll_shutdown(cx);
        this.timed(ready, cx)
    }
}

/// A request's body that fails once its time is up ([`Limits::body_within`]): reading it then
/// is refused as any body that breaks off (`bad_record`).
pub(crate) struct Deadline {
    body: axum::body::Body,
    time_up: std::pin::Pin<Box<tokio::time::Sleep>>,
}

impl Deadline {
    /// `body`, to come within `within`.
    pub(crate) fn new(body: axum::body::Body, within: Duration) -> Deadline {
        Deadline {
            body,
            time_up: Box::pin(tokio::time::sleep(within)),
        }
    }
}

impl hyper::body::Body for Deadline {
    type Data = hyper::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        use std::task::Poll;
        let this = self.get_mut();
        if let Poll::Ready(frame) = std::pin::Pin::new(&mut this.body).poll_frame(cx) {
            return Poll::Ready(frame);
        }
        match this.time_up.as_mut().poll(cx) {
            Poll::Ready(()) => {
                Poll::Ready(Some(Err(axum::Error::new("the body did not come in time"))))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        // The announced length still decides a body over the limit at once.
        self.body.size_hint()
    }
}

/// Serves the hub on `listener` until `stop` completes, within `limits`, and watches the
/// storage for changes made by another program (or another hub of the club) every
/// [`crate::WATCH_EVERY`]. Once stopped, the requests under way get a moment to finish (an
/// event stream never ends by itself), then the connections go. Every answered push is
/// committed already, so stopping needs no flush.
pub async fn serve_with(
    listener: TcpListener,
    hub: Arc<Hub>,
    stop: impl Future<Output = ()> + Send + 'static,
    limits: Limits,
) -> std::io::Result<()> {
    let watcher = hub.clone();
    let watching = tokio::spawn(async move {
        let mut tick = tokio::time::interval(crate::WATCH_EVERY);
        loop {
            tick.tick().await;
            // A failed look (the database restarting) is tried again at the next tick.
            let _ = watcher.watch_once().await;
        }
    });
    let routes = router(hub).layer(axum::Extension(limits));
    let graceful = GracefulShutdown::new();
    let turns = Arc::new(tokio::sync::Semaphore::new(limits.connections.max(1)));
    let mut stop = std::pin::pin!(stop);
    loop {
        // The turn is taken before the accept: at the cap, the next connection stays in the
        // listener's queue.
        let turn = tokio::select! {
            // The semaphore is never closed.
            turn = turns.clone().acquire_owned() => turn.expect("the turns are never closed"),
            _ = &mut stop => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    if !peer_gone(&e) {
                        // Out of file descriptors (another program's, or the system's): wait
                        // for some to close rather than try again at once, for ever.
                        tokio::time::sleep(Duration::from_millis(250)).await;
                    }
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        prepare(&stream, &limits);
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(limits.head_within)
            .max_buf_size(MAX_HEAD);
        let connection = builder.serve_connection(
            TokioIo::new(Stalling::new(stream, limits.answer_within)),
            TowerToHyperService::new(routes.clone()),
        );
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A connection's end (closed, timed out, cut) is no error of the hub's.
            let _ = connection.await;
            drop(turn);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(Duration::from_secs(1), graceful.shutdown()).await;
    watching.abort();
    Ok(())
}

/// An accept that failed for its own connection only (it was reset before it was taken).
fn peer_gone(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}

/// Sets an accepted connection's options: no delay for the event stream's small messages, and
/// keep-alive probes after `limits.keepalive` of silence. A system that refuses an option
/// still serves the connection, with the head's deadline.
fn prepare(stream: &TcpStream, limits: &Limits) {
    let _ = stream.set_nodelay(true);
    let keepalive = socket2::TcpKeepalive::new()
        .with_time(limits.keepalive)
        .with_interval(KEEPALIVE_EVERY);
    let _ = socket2::SockRef::from(stream).set_tcp_keepalive(&keepalive);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An accepted connection asks the system to probe a silent peer.
    #[tokio::test]
    async fn an_accepted_connection_has_keepalive() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let _phone = TcpStream::connect(addr).await.unwrap();
        let (accepted, _) = listener.accept().await.unwrap();
        let sock = socket2::SockRef::from(&accepted);
        assert!(!sock.keepalive().unwrap(), "off until the hub sets it");
        prepare(&accepted, &Limits::default());
        assert!(sock.keepalive().unwrap());
        assert!(accepted.nodelay().unwrap());
    }
}
