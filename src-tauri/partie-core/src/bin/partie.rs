//! `partie`: checks scenarios and replays match records (`docs/records.md` §5).

use partie_core::scenario;
use partie_core::Record;
use std::path::PathBuf;
use std::process::ExitCode;

/// A line on standard output. A reader that went away (`partie export | head`) ends the
/// output, not the program with a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

const USAGE: &str = "usage:
  partie check PATH...   run scenario files and folders (recursively, *.json)
  partie replay FILE     print the summary of a match record as JSON
  partie tournament FILE [--csv] [--add EVENT] [--pdf pairings|standings OUT.pdf] [--lang en|fr]
                         print a tournament record's summary as JSON (--csv: the standings);
                         --add appends an event (JSON) to FILE when the rules accept it;
                         --pdf writes the current round's pairings with a score sheet per
                         table, or the standings, as a PDF for A4 (--lang: the labels)
  partie perft DEPTH [--rules JSON] [TOKEN...]
                         count Morris token sequences from the position the tokens reach
  partie uci             speak the Morris engine protocol on stdin/stdout
  partie selfplay A B [GAMES] [--seed N] [--show]
                         computer level A against level B (1-5): wins, draws, losses
                         (--show prints each game's move list, A's side and result)
  partie moves FILE      print a Morris record's move list (1. d6 f4 2. a1-a4xb4 ...)
  partie record FILE     turn a Morris move list (FILE or - for stdin) into a record

On the app's history (or the database given with --db FILE, or $PARTIE_DB):
  partie export [--match ID] [--csv]      print one match or the whole history
  partie import FILE                      add the matches of a record or an export
  partie stats [--game G] [--player NAME] statistics (a leaderboard without --player)
  partie ratings [--game G] [--from DATE] [--to DATE] [--csv]
                                          ratings by game (every game without --game) over
                                          the matches finished from DATE to DATE included
                                          (YYYY-MM-DD, UTC), as JSON or CSV
  partie backup FILE                      copy the whole history to a new file
  partie restore FILE                     replace the history with a backup

The club hub (built beside partie: cargo build -p partie-hub):
  partie serve [--db FILE | --postgres URL] [--listen ADDR:PORT] [--token-file FILE]
  partie-hub club add NAME --postgres URL    a club of a league database, and its token
                                             (docs/league.md)";

/// The app's database: $PARTIE_DB, else the app's data folder.
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

/// A command line that cannot be read: an option without its value, an option the command
/// does not take, an argument missing or not a number (`bad_action`, code `usage`).
fn usage(detail: impl Into<String>) -> partie_core::Error {
    partie_core::Error::bad_action(detail).with_code("usage")
}

/// `--name value` out of the arguments; an option given without its value is refused, not
/// passed over (`--db` alone would have worked on the app's own history).
fn option(args: &mut Vec<String>, name: &str) -> Result<Option<String>, partie_core::Error> {
    let Some(i) = args.iter().position(|a| a == name) else {
        return Ok(None);
    };
    match args.get(i + 1) {
        Some(value) if !value.starts_with("--") => {
            let value = value.clone();
            args.drain(i..=i + 1);
            Ok(Some(value))
        }
        _ => Err(usage(format!("{name} needs a value"))),
    }
}

fn flag(args: &mut Vec<String>, name: &str) -> bool {
    let found = args.iter().position(|a| a == name);
    if let Some(i) = found {
        args.remove(i);
    }
    found.is_some()
}

/// What is left once a command took its options: its plain arguments. An option it did not
/// take is refused (a typo such as `--gmae` would have run with the default).
fn plain(args: Vec<String>) -> Result<Vec<String>, partie_core::Error> {
    match args.iter().find(|a| a.starts_with("--")) {
        Some(unknown) => Err(usage(format!("unknown option {unknown}"))),
        None => Ok(args),
    }
}

/// A command that takes options only: anything else is refused.
fn no_argument(args: Vec<String>, cmd: &str) -> Result<(), partie_core::Error> {
    match plain(args)?.first() {
        Some(a) => Err(usage(format!("{cmd} takes no argument {a:?}"))),
        None => Ok(()),
    }
}

/// The one FILE a command takes.
fn one_file(args: Vec<String>, cmd: &str) -> Result<String, partie_core::Error> {
    match <[String; 1]>::try_from(plain(args)?) {
        Ok([file]) => Ok(file),
        Err(args) if args.is_empty() => Err(usage(format!("{cmd} needs a FILE"))),
        Err(args) => Err(usage(format!("{cmd} takes one FILE, not {}", args.len()))),
    }
}

/// A file's text, read up to `limit` bytes: more is refused before it fills the memory
/// (`/dev/zero` given as a record).
fn read_text(file: &str, limit: u64) -> Result<String, partie_core::Error> {
    let f = std::fs::File::open(file).map_err(|e| unreadable(file, e))?;
    read_limited(f, file, limit)
}

/// The text `from` gives (a file, standard input), read up to `limit` bytes, as [`read_text`].
fn read_limited(
    from: impl std::io::Read,
    file: &str,
    limit: u64,
) -> Result<String, partie_core::Error> {
    use std::io::Read;
    let mut text = String::new();
    from.take(limit + 1)
        .read_to_string(&mut text)
        .map_err(|e| unreadable(file, e))?;
    if text.len() as u64 > limit {
        return Err(partie_core::Error::bad_record(format!(
            "{file} is larger than {} MiB",
            limit >> 20
        )));
    }
    Ok(text)
}

/// The most a file given to the command line may hold: a whole history's export.
const FILE_LIMIT: u64 = 256 << 20;

/// A game's name given to `--game`: one the app knows (`bad_setup`, as in a record).
fn known_game(game: &str) -> Result<(), partie_core::Error> {
    partie_core::games::info(game).map(|_| ()).map_err(|_| {
        partie_core::Error::bad_setup(format!("unknown game {game:?}")).with_code("unknown_game")
    })
}

fn history(cmd: &str, mut args: Vec<String>) -> Result<String, partie_core::Error> {
    use partie_core::store::{OpenReport, Store};
    use partie_core::Error;
    let db = option(&mut args, "--db")?
        .map(PathBuf::from)
        .unwrap_or_else(default_db);
    // Opened only once the command line is read: a command refused creates no database.
    let open = || -> Result<Store, Error> {
        let (store, report) = Store::open(&db)?;
        if let OpenReport::Recovered { moved_to, reason } = report {
            eprintln!(
                "{} was not a Partie history ({reason}): it was kept as {} and a new one started",
                db.display(),
                moved_to.display()
            );
        }
        Ok(store)
    };
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).expect("JSON");
    match cmd {
        "export" => {
            let one = option(&mut args, "--match")?;
            let csv = flag(&mut args, "--csv");
            no_argument(args, "export")?;
            if csv {
                if one.is_some() {
                    return Err(usage(
                        "--csv exports the whole history; --match prints one record",
                    ));
                }
                return open()?.export_csv().map(|csv| csv.trim_end().to_string());
            }
            match one {
                Some(id) => {
                    let id = id
                        .parse()
                        .map_err(|_| usage(format!("--match takes a match number, not {id:?}")))?;
                    Ok(pretty(&open()?.export_match(id)?))
                }
                None => Ok(pretty(&open()?.export_all()?)),
            }
        }
        "import" => {
            let file = one_file(args, "import")?;
            let text = read_text(&file, FILE_LIMIT)?;
            let r = open()?.import(&text)?;
            Ok(format!(
                "{} imported, {} already present",
                r.imported, r.already_present
            ))
        }
        "stats" => {
            let game = option(&mut args, "--game")?.unwrap_or_else(|| "molkky".into());
            let player = option(&mut args, "--player")?;
            no_argument(args, "stats")?;
            known_game(&game)?;
            let store = open()?;
            match player {
                Some(name) => {
                    let found = store.search_players(&name, true)?;
                    let player = found
                        .iter()
                        .find(|p| p.name.to_lowercase() == name.to_lowercase())
                        .or(found.first())
                        .ok_or_else(|| Error::not_found(format!("no player {name:?}")))?;
                    Ok(pretty(
                        &serde_json::to_value(store.player_stats(player.id, &game)?).expect("JSON"),
                    ))
                }
                None => {
                    let mut out = format!("{game}: player, matches, wins\n");
                    for (_, name, n, w) in store.leaderboard(&game, 50)? {
                        out.push_str(&format!("{name}\t{n}\t{w}\n"));
                    }
                    Ok(out.trim_end().to_string())
                }
            }
        }
        "ratings" => ratings(open, args),
        "backup" => {
            let file = one_file(args, "backup")?;
            open()?.backup_to(std::path::Path::new(&file))?;
            Ok(format!("history copied to {file}"))
        }
        "restore" => {
            let file = one_file(args, "restore")?;
            // Looked for before the history is opened: a restore of nothing creates nothing.
            std::fs::metadata(&file).map_err(|e| unreadable(&file, e))?;
            open()?.restore_from(std::path::Path::new(&file))?;
            Ok(format!("history restored from {file}"))
        }
        _ => unreachable!("dispatched by main"),
    }
}

/// `ratings [--game G] [--from DATE] [--to DATE] [--csv]`: the rating table of each game.
fn ratings(
    open: impl FnOnce() -> Result<partie_core::store::Store, partie_core::Error>,
    mut args: Vec<String>,
) -> Result<String, partie_core::Error> {
    use partie_core::Error;
    // A day is UTC midnight to midnight, so --to names the last day counted.
    let date = |name: &str, args: &mut Vec<String>, next_day: bool| match option(args, name)? {
        None => Ok(None),
        Some(text) => partie_core::time::parse_iso(&text)
            .or_else(|| {
                partie_core::time::parse_iso(&format!("{text}T00:00:00Z"))
                    .map(|d| d + if next_day { 86_400_000 } else { 0 })
            })
            .map(Some)
            .ok_or_else(|| {
                Error::bad_setup(format!("{name} takes a date (YYYY-MM-DD), not {text:?}"))
            }),
    };
    let csv = flag(&mut args, "--csv");
    let (from, to) = (
        date("--from", &mut args, false)?,
        date("--to", &mut args, true)?,
    );
    let game = option(&mut args, "--game")?;
    no_argument(args, "ratings")?;
    if let Some(game) = &game {
        known_game(game)?;
    }
    let store = open()?;
    if csv {
        return Ok(store
            .ratings_csv(game.as_deref(), from, to)?
            .trim_end()
            .to_string());
    }
    let report = store.ratings_report(game.as_deref(), from, to)?;
    Ok(serde_json::to_string_pretty(&report).expect("JSON"))
}

fn check(paths: &[String]) -> ExitCode {
    if paths.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    let roots: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    let missing: Vec<&PathBuf> = roots.iter().filter(|p| !p.exists()).collect();
    let files = scenario::collect(&roots);
    let (mut passed, mut failed) = (0, 0);
    for p in missing {
        say!("FAIL {}: no such file or folder", p.display());
        failed += 1;
    }
    for f in files {
        match scenario::run_file(&f) {
            Ok(()) => {
                say!("ok   {}", f.display());
                passed += 1;
            }
            Err(why) => {
                say!("FAIL {}: {why}", f.display());
                failed += 1;
            }
        }
    }
    say!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A file that cannot be read: `not_found` when it is not there (records.md §4: a record that
/// does not exist), else `bad_record`.
fn unreadable(file: &str, e: std::io::Error) -> partie_core::Error {
    if e.kind() == std::io::ErrorKind::NotFound {
        partie_core::Error::not_found(format!("no file {file}")).with_code("no_file")
    } else {
        partie_core::Error::bad_record(format!("cannot read {file}: {e}"))
    }
}

fn replay(file: &str) -> ExitCode {
    let result = read_text(file, FILE_LIMIT)
        .and_then(|text| Record::from_json(&text))
        .and_then(|r| r.replay());
    match result {
        Ok(state) => {
            say!(
                "{}",
                serde_json::to_string_pretty(&state.summary()).expect("summary is JSON")
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            say!("{}: {}", e.kind, e.detail);
            ExitCode::from(2)
        }
    }
}

/// `tournament FILE [--csv] [--add EVENT] [--pdf pairings|standings OUT.pdf] [--lang en|fr]`:
/// the summary of a tournament record, its standings as CSV, the record with one more event
/// written back (only when the event is accepted), or its paper as a PDF.
fn tournament(mut args: Vec<String>) -> Result<String, partie_core::Error> {
    use partie_core::tournament::paper::{self, Lang};
    use partie_core::tournament::TournamentRecord;
    use partie_core::Error;
    let csv = flag(&mut args, "--csv");
    let add = option(&mut args, "--add")?;
    let pdf = match args.iter().position(|a| a == "--pdf") {
        None => None,
        Some(i) if i + 2 < args.len() => {
            let out = args.remove(i + 2);
            let kind = args.remove(i + 1);
            args.remove(i);
            if kind != "pairings" && kind != "standings" {
                return Err(Error::bad_action(format!(
                    "--pdf takes pairings or standings, not {kind:?}"
                )));
            }
            Some((kind, out))
        }
        Some(_) => {
            return Err(Error::bad_action(
                "--pdf needs pairings or standings, then the file to write",
            ))
        }
    };
    let lang = match option(&mut args, "--lang")? {
        None => Lang::En,
        Some(code) => Lang::from_code(&code)
            .ok_or_else(|| Error::bad_action(format!("--lang is en or fr, not {code:?}")))?,
    };
    let file = &one_file(args, "tournament")?;
    let text = read_text(file, FILE_LIMIT)?;
    // Read one way with or without --add: a file the app exported (the tournament with its
    // tables' matches) may be larger than one record sent to a hub, and is a file all the same.
    let mut value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| Error::bad_record(format!("not JSON: {e}")))?;
    let mut record = TournamentRecord::from_value(&value)?;
    // The record with the event added, to write once everything else has worked.
    let (state, added) = match add {
        None => (record.replay()?, None),
        Some(event) => {
            let event: serde_json::Value = serde_json::from_str(&event)
                .map_err(|e| Error::bad_action(format!("--add is not JSON: {e}")))?;
            record.events.push(event);
            let state = record.replay()?;
            value["events"] = record.events.into();
            (state, Some(value))
        }
    };
    // Each file written whole or not at all (partie_core::file): a kill leaves the old or the
    // new. The paper first: a paper that cannot be written (a folder that is not there, a name
    // that is a folder) leaves the record as it was. Nothing is written on an error.
    let written = match &pdf {
        Some((kind, out)) => {
            let bytes = if kind == "pairings" {
                paper::pairings_pdf(&state, lang)
            } else {
                paper::standings_pdf(&state, lang)
            };
            partie_core::file::write_whole(std::path::Path::new(out), &bytes)?;
            Some(format!("{kind} written to {out}"))
        }
        None => None,
    };
    if let Some(value) = added {
        let text = serde_json::to_string_pretty(&value).expect("JSON");
        partie_core::file::write_whole(std::path::Path::new(file), text.as_bytes())?;
    }
    if let Some(said) = written {
        return Ok(said);
    }
    if csv {
        return Ok(state.standings_csv().trim_end().to_string());
    }
    Ok(serde_json::to_string_pretty(&state.summary()).expect("JSON"))
}

/// The deepest count `perft` takes.
const MAX_PERFT_DEPTH: u32 = 64;

/// `perft DEPTH [--rules JSON] [TOKEN...]`.
fn perft(mut args: Vec<String>) -> Result<String, partie_core::Error> {
    use partie_core::morris::{perft::perft, Morris};
    use partie_core::{Error, Game};
    let rules = match option(&mut args, "--rules")? {
        Some(text) => match serde_json::from_str(&text) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => {
                return Err(Error::bad_setup(format!(
                    "--rules is not a JSON object: {text}"
                )))
            }
        },
        None => serde_json::Map::new(),
    };
    let args = plain(args)?;
    let depth: u32 = args
        .first()
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| usage("perft needs a DEPTH"))?;
    // Each ply is a frame of the count's recursion; with both draws off a game need never end,
    // and a depth of thousands overflowed the stack. Counts past this one take years anyway.
    if depth > MAX_PERFT_DEPTH {
        return Err(usage(format!(
            "perft counts to a DEPTH of {MAX_PERFT_DEPTH} at most, not {depth}"
        )));
    }
    let sides = [vec!["A".to_string()], vec!["B".to_string()]];
    let mut game = Morris::setup(&rules, &sides)?;
    for token in &args[1..] {
        let action = game.parse_action(&serde_json::Value::String(token.clone()))?;
        if game.is_over() {
            return Err(Error::illegal("the game is over").with_code("game_over"));
        }
        game = game.play(&action).map_err(|r| r.error)?;
    }
    let n = if game.is_over() {
        1
    } else {
        perft(game.position(), depth, &mut game.repetitions().clone())
    };
    Ok(n.to_string())
}

/// `moves FILE`: a Morris record's move list; `record FILE`: the record of a move list.
fn movelist(cmd: &str, file: &str) -> Result<String, partie_core::Error> {
    use partie_core::Error;
    let text = if file == "-" {
        // Bounded as a file is: `< /dev/zero` is refused, not read until memory runs out.
        read_limited(std::io::stdin(), "standard input", FILE_LIMIT)?
    } else {
        read_text(file, FILE_LIMIT)?
    };
    if cmd == "record" {
        let record =
            partie_core::Record::from_morris_move_list(&text, serde_json::Map::new(), None)?;
        return Ok(serde_json::to_string_pretty(&record).expect("JSON"));
    }
    let record = Record::from_json(&text)?;
    match record.replay()? {
        partie_core::MatchState::Morris(g) => Ok(g.move_list()),
        _ => Err(Error::bad_record("moves is for Morris records")),
    }
}

fn print(result: Result<String, partie_core::Error>) -> ExitCode {
    match result {
        Ok(out) => {
            say!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            say!("{}: {}", e.kind, e.detail);
            ExitCode::from(2)
        }
    }
}

/// `partie serve`: the club hub is its own program (`partie-hub`, with the network code the
/// core keeps out), found beside this one.
fn serve(args: &[String]) -> ExitCode {
    let name = format!("partie-hub{}", std::env::consts::EXE_SUFFIX);
    let hub = std::env::current_exe()
        .ok()
        .and_then(|me| me.parent().map(|dir| dir.join(&name)))
        .filter(|p| p.is_file());
    let Some(hub) = hub else {
        eprintln!(
            "{name} is not beside partie: build it with `cargo build -p partie-hub` \
             (--release for a release build of partie)"
        );
        return ExitCode::from(2);
    };
    let mut command = std::process::Command::new(&hub);
    command.arg("serve").args(args);
    #[cfg(unix)]
    {
        // The hub takes this process's place: a signal to it reaches the hub.
        use std::os::unix::process::CommandExt;
        let e = command.exec();
        eprintln!("cannot start {}: {e}", hub.display());
        ExitCode::from(2)
    }
    #[cfg(not(unix))]
    match command.status() {
        Ok(s) => ExitCode::from(s.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("cannot start {}: {e}", hub.display());
            ExitCode::from(2)
        }
    }
}

/// `selfplay A B [GAMES] [--seed N] [--show]`: level A against level B.
fn selfplay(mut args: Vec<String>) -> Result<String, partie_core::Error> {
    use partie_core::morris::search::Level;
    let show = flag(&mut args, "--show");
    let seed = match option(&mut args, "--seed")? {
        None => 1,
        Some(s) => s
            .parse()
            .map_err(|_| usage(format!("--seed takes a whole number, not {s:?}")))?,
    };
    let args = plain(args)?;
    let level = |s: Option<&String>| {
        s.and_then(|s| s.parse().ok())
            .and_then(Level::new)
            .ok_or_else(|| usage("selfplay takes two levels, each 1 to 5"))
    };
    let (a, b) = (level(args.first())?, level(args.get(1))?);
    let games = match args.get(2) {
        None => 20,
        Some(n) => n
            .parse()
            .map_err(|_| usage(format!("GAMES is a whole number, not {n:?}")))?,
    };
    if args.len() > 3 {
        return Err(usage("selfplay takes A, B and GAMES"));
    }
    let mut n = 0;
    let t = partie_core::morris::arena::play_match(a, b, games, seed, |g, side| {
        n += 1;
        if show {
            let colour = ["White", "Black"][side as usize];
            say!("game {n} (A is {colour}): {}", g.move_list());
        }
    });
    Ok(format!(
        "level {} against level {}: {} won, {} drawn, {} lost",
        a.number(),
        b.number(),
        t.wins,
        t.draws,
        t.losses
    ))
}

fn main() -> ExitCode {
    let args = match partie_core::text_args() {
        Ok(args) => args,
        Err(why) => return print(Err(usage(why))),
    };
    match args.first().map(String::as_str) {
        Some("check") => check(&args[1..]),
        Some("replay") => match one_file(args[1..].to_vec(), "replay") {
            Ok(file) => replay(&file),
            Err(e) => print(Err(e)),
        },
        Some("perft") => print(perft(args[1..].to_vec())),
        Some("tournament") => print(tournament(args[1..].to_vec())),
        Some(cmd @ ("moves" | "record")) => {
            print(one_file(args[1..].to_vec(), cmd).and_then(|file| movelist(cmd, &file)))
        }
        Some("selfplay") => print(selfplay(args[1..].to_vec())),
        Some("--help" | "-h" | "help") => {
            say!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("uci") => {
            // The level and the rules are the protocol's options (`setoption`, docs/uci.md).
            if let Err(e) = no_argument(args[1..].to_vec(), "uci") {
                return print(Err(e));
            }
            let stdin = std::io::stdin();
            match partie_core::morris::uci::run(stdin.lock(), std::io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
        Some("serve") => serve(&args[1..]),
        Some(cmd @ ("export" | "import" | "stats" | "ratings" | "backup" | "restore")) => {
            print(history(cmd, args[1..].to_vec()))
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
