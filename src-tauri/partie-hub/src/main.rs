//! `partie-hub` (what `partie serve` runs): the club hub on the app's database, a file, or a
//! league's PostgreSQL database; and `partie-hub club add|list`, a league's clubs.

use partie_hub::storage::postgres;
use partie_hub::{load_or_create_token, serve, write_new_token, Hub};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str =
    "usage: partie serve [--db FILE | --postgres URL] [--listen ADDR:PORT] [--token-file FILE]
       partie-hub club add NAME --postgres URL [--token-file FILE]
       partie-hub club list --postgres URL
  --db FILE          the database (default: the app's, or $PARTIE_DB)
  --postgres URL     a league's PostgreSQL database (postgresql://USER@HOST:PORT/DB); the hub
                     serves the club whose token --token-file holds (made by `club add`)
  --listen ADDR:PORT where to listen (default 0.0.0.0:7878; port 0: the system picks one)
  --token-file FILE  the club token (default: hub-token beside the database); with --db it is
                     created with a random token when missing; `club add` writes the new
                     club's token there (and prints it)";

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
    postgres: Option<String>,
    listen: String,
    token_file: PathBuf,
}

fn options(mut args: Vec<String>) -> Result<Options, String> {
    // `partie-hub serve ...` and `partie-hub ...` are the same.
    if args.first().map(String::as_str) == Some("serve") {
        args.remove(0);
    }
    let mut db = None;
    let mut postgres = None;
    let mut listen = None;
    let mut token_file = None;
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--db" => db = Some(PathBuf::from(value()?)),
            "--listen" => listen = Some(value()?),
            "--token-file" => token_file = Some(PathBuf::from(value()?)),
            "--postgres" => postgres = Some(value()?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if db.is_some() && postgres.is_some() {
        return Err("--db and --postgres: one or the other".into());
    }
    if postgres.is_some() && token_file.is_none() {
        return Err("--postgres needs --token-file (the club's token, from `club add`)".into());
    }
    let db = db.unwrap_or_else(default_db);
    let token_file = token_file.unwrap_or_else(|| {
        db.parent()
            .map(|d| d.join("hub-token"))
            .unwrap_or_else(|| PathBuf::from("hub-token"))
    });
    Ok(Options {
        db,
        postgres,
        listen: listen.unwrap_or_else(|| "0.0.0.0:7878".into()),
        token_file,
    })
}

/// `partie-hub club add NAME --postgres URL [--token-file FILE]` and `club list --postgres URL`.
async fn club(args: Vec<String>) -> ExitCode {
    let mut words = Vec::new();
    let mut url = None;
    let mut token_file = None;
    let mut it = args.into_iter().peekable();
    while let Some(arg) = it.next() {
        if arg == "--postgres" || arg == "--token-file" {
            // An option without its value is refused, not passed over.
            let Some(value) = it.next_if(|v| !v.starts_with("--")) else {
                eprintln!("{arg} needs a value\n{USAGE}");
                return ExitCode::from(2);
            };
            if arg == "--postgres" {
                url = Some(value);
            } else {
                token_file = Some(PathBuf::from(value));
            }
        } else {
            words.push(arg);
        }
    }
    let Some(url) = url else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let fail = |what: String| {
        eprintln!("{what}");
        ExitCode::FAILURE
    };
    let pool = match postgres::pool(&url, 2) {
        Ok(p) => p,
        Err(e) => return fail(e.to_string()),
    };
    if let Err(e) = postgres::migrate(&pool).await {
        return fail(e.to_string());
    }
    match words.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["add", name] => {
            let token = match postgres::new_token() {
                Ok(t) => t,
                Err(e) => return fail(e.to_string()),
            };
            // The file first: a club whose token was lost would need a new one.
            if let Some(path) = &token_file {
                if let Err(e) = write_new_token(path, &token) {
                    return fail(format!("token file {}: {e}", path.display()));
                }
            }
            match postgres::add_club(&pool, name, &token).await {
                Ok(_) => {
                    println!("{token}");
                    eprintln!("club {name:?} created; its hubs start with --postgres URL --token-file FILE holding this token");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    if let Some(path) = &token_file {
                        let _ = std::fs::remove_file(path);
                    }
                    fail(format!("{}: {}", e.kind, e.detail))
                }
            }
        }
        ["list"] => match postgres::clubs(&pool).await {
            Ok(clubs) => {
                for (_, name) in clubs {
                    println!("{name}");
                }
                ExitCode::SUCCESS
            }
            Err(e) => fail(format!("{}: {}", e.kind, e.detail)),
        },
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match partie_core::text_args() {
        Ok(args) => args,
        Err(why) => {
            eprintln!("{why}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if args.first().map(String::as_str) == Some("club") {
        return club(args[1..].to_vec()).await;
    }
    let opts = match options(args) {
        Ok(o) => o,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("{why}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    // A league's token comes from `club add`: a missing file is a mistake, not a new club.
    let token = if opts.postgres.is_some() {
        std::fs::read_to_string(&opts.token_file).map(|t| t.trim().to_string())
    } else {
        load_or_create_token(&opts.token_file)
    };
    let token = match token {
        Ok(t) if !t.is_empty() => t,
        Ok(_) => {
            eprintln!("token file {} holds no token", opts.token_file.display());
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("token file {}: {e}", opts.token_file.display());
            return ExitCode::from(2);
        }
    };
    let hub = match &opts.postgres {
        Some(url) => match Hub::open_postgres(url, &token).await {
            Ok(h) => h,
            Err(e) => {
                eprintln!("postgres: {e}");
                return ExitCode::from(2);
            }
        },
        None => match Hub::open(&opts.db, &token) {
            Ok(h) => h,
            Err(e) => {
                eprintln!("{}: {}: {}", opts.db.display(), e.kind, e.detail);
                return ExitCode::from(2);
            }
        },
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
    match (&opts.postgres, hub.storage()) {
        (Some(_), partie_hub::storage::Backend::Postgres(pg)) => eprintln!(
            "league database, club {:?}, token in {}",
            pg.club_name(),
            opts.token_file.display()
        ),
        _ => eprintln!(
            "database {}, club token in {}",
            opts.db.display(),
            opts.token_file.display()
        ),
    }
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
