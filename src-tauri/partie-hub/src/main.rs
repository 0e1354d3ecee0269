//! `partie-hub` (what `partie serve` runs): the club hub on the app's database or a file.

use partie_hub::{load_or_create_token, serve, Hub};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: partie serve [--db FILE] [--listen ADDR:PORT] [--token-file FILE]
  --db FILE          the database (default: the app's, or $PARTIE_DB)
  --listen ADDR:PORT where to listen (default 0.0.0.0:7878; port 0: the system picks one)
  --token-file FILE  the club token (default: hub-token beside the database); created with a
                     random token when missing";

/// The app's database: $PARTIE_DB, else the app's data folder (as `partie` finds it).
fn default_db() -> PathBuf {
    if let Some(p) = std::env::var_os("PARTIE_DB") {
        return PathBuf::from(p);
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    data.join("app.partie.scorepad").join("partie.db")
}

struct Options {
    db: PathBuf,
    listen: String,
    token_file: PathBuf,
}

fn options(mut args: Vec<String>) -> Result<Options, String> {
    // `partie-hub serve ...` and `partie-hub ...` are the same.
    if args.first().map(String::as_str) == Some("serve") {
        args.remove(0);
    }
    let mut db = None;
    let mut listen = None;
    let mut token_file = None;
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--db" => db = Some(PathBuf::from(value()?)),
            "--listen" => listen = Some(value()?),
            "--token-file" => token_file = Some(PathBuf::from(value()?)),
            "--postgres" => {
                return Err(
                    "this build keeps the hub's records in SQLite only: use --db FILE".into(),
                )
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let db = db.unwrap_or_else(default_db);
    let token_file = token_file.unwrap_or_else(|| {
        db.parent()
            .map(|d| d.join("hub-token"))
            .unwrap_or_else(|| PathBuf::from("hub-token"))
    });
    Ok(Options {
        db,
        listen: listen.unwrap_or_else(|| "0.0.0.0:7878".into()),
        token_file,
    })
}

#[tokio::main]
async fn main() -> ExitCode {
    let opts = match options(std::env::args().skip(1).collect()) {
        Ok(o) => o,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("{why}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let token = match load_or_create_token(&opts.token_file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("token file {}: {e}", opts.token_file.display());
            return ExitCode::from(2);
        }
    };
    let hub = match Hub::open(&opts.db, &token) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("{}: {}: {}", opts.db.display(), e.kind, e.detail);
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(&opts.listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {}: {e}", opts.listen);
            return ExitCode::from(2);
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("cannot listen on {}: {e}", opts.listen);
            return ExitCode::from(2);
        }
    };
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on http://{addr}");
        let _ = out.flush();
    }
    eprintln!(
        "database {}, club token in {}",
        opts.db.display(),
        opts.token_file.display()
    );
    tokio::select! {
        served = serve(listener, hub) => match served {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("the hub stopped: {e}");
                ExitCode::FAILURE
            }
        },
        // Every answered push is committed already: stopping needs no flush.
        _ = tokio::signal::ctrl_c() => ExitCode::SUCCESS,
    }
}
