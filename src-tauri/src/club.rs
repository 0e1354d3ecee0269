//! Club-night commands: host a hub on this device's database (the desktop), or join one and
//! keep in sync with it (a phone). The hub and the sync thread are partie-hub's; these are the
//! thin calls and the state they live in.

use crate::AppState;
use partie_core::store::{read_join, ClubJoin};
use partie_core::Error;
use partie_hub::client::{check_hub, SyncStatus, Syncer};
use partie_hub::host::{Host, HostInfo};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tauri::{Runtime, State};

/// Where the app's hub listens unless `PARTIE_HUB_LISTEN` says otherwise: every interface, the
/// port of the spec.
const DEFAULT_LISTEN: &str = "0.0.0.0:7878";

/// A device's club night: the hub it runs, if any, and its sync thread.
pub struct Club {
    db: PathBuf,
    host: Mutex<Option<Host>>,
    /// Where the last hub listened: a hub started again keeps its address, so phones that
    /// joined it find it again.
    last_listen: Mutex<Option<String>>,
    /// Why the hub that was on when the app last ended could not start again: said on the
    /// club-night screen (the phones lose it, and nothing else would tell), until a start or a
    /// stop.
    host_error: Mutex<Option<Error>>,
    /// The address the hub had before it came up on another (its port taken meanwhile): the
    /// phones that joined it must scan the code again, and the screen says so.
    moved_from: Mutex<Option<String>>,
    syncer: Option<Syncer>,
}

impl Club {
    /// The club night of the database at `db`; `syncing` starts the sync thread (not when the
    /// database could not be opened); `joined`: the device is joined to a hub, and does not
    /// start its own again (one club night at a time).
    pub fn new(db: PathBuf, syncing: bool, joined: bool) -> Club {
        let syncer = syncing.then(|| Syncer::start(db.clone()));
        let club = Club {
            db,
            host: Mutex::new(None),
            last_listen: Mutex::new(None),
            host_error: Mutex::new(None),
            moved_from: Mutex::new(None),
            syncer,
        };
        // The app ended (or was killed) with its hub on: the club night goes on, on the same
        // address, without anyone having to find the button again.
        if syncing && joined {
            let _ = std::fs::remove_file(club.hub_on_file());
        } else if syncing {
            if let Ok(listen) = std::fs::read_to_string(club.hub_on_file()) {
                let listen = listen.trim().to_string();
                match Host::start(&club.db, &listen, &club.token_file()) {
                    Ok(host) => {
                        *lock(&club.last_listen) = Some(host.addr().to_string());
                        *lock(&club.host) = Some(host);
                    }
                    // Start tries that address again: the phones know that one.
                    Err(e) => {
                        *lock(&club.last_listen) = Some(listen);
                        *lock(&club.host_error) = Some(e);
                    }
                }
            }
        }
        club
    }

    /// Holds where the hub listens while it is on: its presence at start-up starts it again.
    fn hub_on_file(&self) -> PathBuf {
        self.db.parent().unwrap_or(Path::new(".")).join("hub-on")
    }

    /// Something may have changed: the sync thread pushes it now if the device joined a hub.
    pub fn poke(&self) {
        if let Some(s) = &self.syncer {
            s.poke();
        }
    }

    fn token_file(&self) -> PathBuf {
        self.db.parent().unwrap_or(Path::new(".")).join("hub-token")
    }
}

/// What the club-night screens show at all times.
#[derive(Debug, Serialize)]
pub struct ClubStatus {
    /// The hub this device joined.
    pub joined: Option<ClubJoin>,
    /// This device's matches not yet taken by that hub.
    pub waiting: usize,
    /// The place of the database's change log: a screen draws again when it moves (results
    /// pushed by phones to this device's hub, records pulled).
    pub data_seq: i64,
    /// The sync thread's state.
    pub sync: SyncStatus,
    /// The hub this device runs.
    pub host: Option<HostInfo>,
    /// Why the hub that was on when the app last ended did not start again.
    pub host_error: Option<Error>,
    /// The address the running hub had before it came up on another.
    pub host_moved_from: Option<String>,
}

/// Where sync and the hub stand.
#[tauri::command(async)]
pub fn club_status(state: State<'_, AppState>) -> Result<ClubStatus, Error> {
    status(&state)
}

fn status(state: &AppState) -> Result<ClubStatus, Error> {
    let (joined, waiting, data_seq) = state.read(|s| {
        let joined = s.joined_club()?;
        let waiting = match &joined {
            Some(j) => s.club_waiting(&j.hub)?,
            None => 0,
        };
        Ok((joined, waiting, s.change_seq()?))
    })?;
    let club = &state.club;
    Ok(ClubStatus {
        joined,
        waiting,
        data_seq,
        sync: club.syncer.as_ref().map(Syncer::status).unwrap_or_default(),
        // Worked out at each look: the address phones reach changes with the network (the
        // Wi-Fi coming up after the hub started).
        host: lock(&club.host).as_ref().map(Host::info),
        host_error: lock(&club.host_error).clone(),
        host_moved_from: lock(&club.moved_from).clone(),
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Refuses a join while this device runs the club's hub: pushing to a hub (its own, or
/// another's) would send the phones' records round in a loop.
fn not_hosting(club: &Club) -> Result<(), Error> {
    match lock(&club.host).as_ref() {
        Some(_) => Err(Error::illegal(
            "this device runs the club's hub: stop it first to join another",
        )
        .with_code("hosting")),
        None => Ok(()),
    }
}

/// Starts this device's hub on its database (or gives the running one).
#[tauri::command(async)]
pub fn host_start(state: State<'_, AppState>) -> Result<HostInfo, Error> {
    let joined = state.read(|s| s.joined_club())?;
    let club = &state.club;
    let mut host = lock(&club.host);
    if let Some(running) = host.as_ref() {
        return Ok(running.info());
    }
    // Its hub would serve what it pulls from another: one club night at a time.
    if let Some(j) = joined {
        return Err(Error::illegal(format!(
            "this device is joined to the hub at {}: leave it first",
            j.hub
        ))
        .with_code("joined_elsewhere"));
    }
    let asked = std::env::var("PARTIE_HUB_LISTEN").unwrap_or_else(|_| DEFAULT_LISTEN.into());
    let again = lock(&club.last_listen).clone();
    let token_file = club.token_file();
    // The usual port taken (another program): any free one, shown on the screen.
    let anywhere = |listen: &str, e: Error| match listen.rsplit_once(':') {
        Some((ip, _)) if e.code == Some("hub_port_taken") => {
            Host::start(&club.db, &format!("{ip}:0"), &token_file)
        }
        _ => Err(e),
    };
    // The address the phones know first; taken meanwhile, another rather than none at all
    // (a Start that failed again and again on the old one, at every launch too).
    let listen = again.as_deref().unwrap_or(&asked);
    let started = Host::start(&club.db, listen, &token_file).or_else(|e| anywhere(listen, e))?;
    let now = started.addr().to_string();
    *lock(&club.moved_from) = again.filter(|before| *before != now);
    *lock(&club.last_listen) = Some(now);
    *lock(&club.host_error) = None;
    // Best effort: without it, a restarted app only waits for the button.
    let _ = std::fs::write(club.hub_on_file(), started.addr().to_string());
    let info = started.info();
    *host = Some(started);
    Ok(info)
}

/// Stops this device's hub; phones keep their outbox until it is back. The hub's work in
/// progress (a push merging, a page read) ends first: that waits on a thread kept for
/// blocking work, not on one of the few that run every other command.
#[tauri::command]
pub async fn host_stop<R: Runtime>(app: tauri::AppHandle<R>) -> Result<(), Error> {
    crate::off_the_workers(app, move |state| {
        let running = lock(&state.club.host).take();
        *lock(&state.club.host_error) = None;
        *lock(&state.club.moved_from) = None;
        let _ = std::fs::remove_file(state.club.hub_on_file());
        if let Some(host) = running {
            host.stop();
        }
        Ok(())
    })
    .await
}

/// Joins a club hub: the join link of its QR code, or its address and token typed. The hub is
/// asked first (it answers, and takes the token); then the device keeps it and starts syncing.
#[tauri::command]
pub async fn club_join<R: Runtime>(
    app: tauri::AppHandle<R>,
    link: String,
    token: Option<String>,
) -> Result<ClubStatus, Error> {
    crate::off_the_workers(app, move |state| {
        let (hub, token) = read_join(&link, token.as_deref())?;
        not_hosting(&state.club)?;
        check_hub(&hub, &token).map_err(|f| f.to_error(&hub))?;
        // Asked again after the hub answered (a Start may have come meanwhile).
        not_hosting(&state.club)?;
        state.with(|s| s.join_club(&hub, &token))?;
        // A hub that did not start again at launch is not started at the next one.
        let _ = std::fs::remove_file(state.club.hub_on_file());
        *lock(&state.club.host_error) = None;
        status(state)
    })
    .await
}

/// Leaves the club hub: this device stops syncing; what it pulled stays.
#[tauri::command(async)]
pub fn club_leave(state: State<'_, AppState>) -> Result<ClubStatus, Error> {
    state.with(|s| s.leave_club())?;
    status(&state)
}

/// Syncs now (the status line's "sync now").
#[tauri::command(async)]
pub fn club_sync_now(state: State<'_, AppState>) {
    state.club.poke();
}

/// Reads the QR code in a camera frame (the phone's "scan"): the frame comes as bytes,
/// `[width u16 LE][height u16 LE][grey bytes]`; its text, or nothing when no code is in view.
#[tauri::command(async)]
pub fn scan_qr(request: tauri::ipc::Request<'_>) -> Result<Option<String>, Error> {
    match request.body() {
        tauri::ipc::InvokeBody::Raw(bytes) => partie_hub::qr::read_frame(bytes),
        tauri::ipc::InvokeBody::Json(_) => {
            Err(Error::bad_action("a camera frame is sent as bytes"))
        }
    }
}
