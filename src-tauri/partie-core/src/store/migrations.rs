//! The schema, as an append-only list of migrations tracked by `PRAGMA user_version`.
//!
//! Never edit or reorder a migration that has shipped: add a new one at the end.

use crate::error::Error;
use rusqlite::{Connection, TransactionBehavior};

/// Each entry moves the schema from version `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    // 1: players, matches, their sides and players, one row per action.
    "CREATE TABLE player (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_played_at INTEGER
    );
    CREATE TABLE match (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        format INTEGER NOT NULL,
        rules TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        finished_at INTEGER,
        status TEXT NOT NULL,
        winner INTEGER
    );
    CREATE TABLE match_player (
        match_id INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
        side INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES player(id),
        name TEXT NOT NULL,
        PRIMARY KEY (match_id, side, seat)
    );
    CREATE TABLE action (
        match_id INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (match_id, seq)
    ) WITHOUT ROWID;",
    // 2: the summary cached for lists (always re-derivable by replay), archived players, and the
    // indexes the home screen's lists need.
    "ALTER TABLE match ADD COLUMN summary TEXT;
    ALTER TABLE player ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX match_by_status ON match(status, updated_at);
    CREATE INDEX match_player_by_player ON match_player(player_id);",
    // 3: a match's place and notes; the history's orders and filters, and each player's figures for every finished match
    // (derived by replay when the match ends, so that statistics never replay a whole history).
    "ALTER TABLE match ADD COLUMN place TEXT;
    ALTER TABLE match ADD COLUMN notes TEXT;
    CREATE INDEX match_by_start ON match(started_at, id);
    CREATE INDEX match_by_game_start ON match(game, started_at, id);
    CREATE TABLE player_stats (
        match_id INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
        side INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES player(id),
        game TEXT NOT NULL,
        result TEXT NOT NULL,
        finished_at INTEGER NOT NULL,
        stats TEXT NOT NULL,
        PRIMARY KEY (match_id, side, seat)
    ) WITHOUT ROWID;
    CREATE INDEX player_stats_by_player ON player_stats(player_id, game, finished_at);
    CREATE INDEX player_stats_by_game ON player_stats(game, player_id, result);",
    // 4: which sides the computer plays, and at which level ({"1": 3}); null for people only.
    "ALTER TABLE match ADD COLUMN computer TEXT;",
    // 5: tournaments, stored like matches: the setup and one row per event; the summary is a
    // cache for lists. Each entrant's players, for players' pages. A match played for a table
    // is an ordinary match linked to its round and table.
    "CREATE TABLE tournament (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        setup TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        status TEXT NOT NULL,
        summary TEXT
    );
    CREATE INDEX tournament_by_update ON tournament(updated_at);
    CREATE TABLE tournament_event (
        tournament_id INTEGER NOT NULL REFERENCES tournament(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE tournament_entrant (
        tournament_id INTEGER NOT NULL REFERENCES tournament(id) ON DELETE CASCADE,
        entrant INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES player(id),
        PRIMARY KEY (tournament_id, entrant, seat)
    ) WITHOUT ROWID;
    CREATE INDEX tournament_entrant_by_player ON tournament_entrant(player_id);
    CREATE TABLE tournament_match (
        match_id INTEGER PRIMARY KEY REFERENCES match(id) ON DELETE CASCADE,
        tournament_id INTEGER NOT NULL REFERENCES tournament(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        tab INTEGER NOT NULL,
        UNIQUE (tournament_id, round, tab)
    );",
    // 6: sync with a club hub (docs/hub.md). Every match and tournament carries a revision, raised
    // by one for every action or event added or taken back (triggers, so that every way of changing
    // a record counts); the change log keeps one row per record, renumbered at its latest change,
    // which is the hub's cursor; each hub a device syncs with keeps how far it pushed and pulled.
    "ALTER TABLE match ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tournament ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    UPDATE match SET revision = (SELECT count(*) FROM action a WHERE a.match_id = match.id);
    UPDATE tournament SET revision =
        (SELECT count(*) FROM tournament_event e WHERE e.tournament_id = tournament.id);
    CREATE TABLE sync_change (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        uid TEXT NOT NULL,
        UNIQUE (kind, uid)
    );
    INSERT INTO sync_change (kind, uid)
        SELECT kind, uid FROM (
            SELECT 'match' AS kind, uid, updated_at, id FROM match
            UNION ALL SELECT 'tournament', uid, updated_at, id FROM tournament)
        ORDER BY updated_at, id;
    CREATE TABLE sync_peer (
        hub TEXT PRIMARY KEY,
        pushed INTEGER NOT NULL DEFAULT 0,
        pulled TEXT
    );
    CREATE TRIGGER sync_action_added AFTER INSERT ON action BEGIN
        UPDATE match SET revision = revision + 1 WHERE id = NEW.match_id;
    END;
    CREATE TRIGGER sync_action_removed AFTER DELETE ON action BEGIN
        UPDATE match SET revision = revision + 1 WHERE id = OLD.match_id;
    END;
    CREATE TRIGGER sync_match_added AFTER INSERT ON match BEGIN
        INSERT OR REPLACE INTO sync_change (kind, uid) VALUES ('match', NEW.uid);
    END;
    CREATE TRIGGER sync_match_revised AFTER UPDATE OF revision ON match
        WHEN NEW.revision IS NOT OLD.revision BEGIN
        INSERT OR REPLACE INTO sync_change (kind, uid) VALUES ('match', NEW.uid);
    END;
    CREATE TRIGGER sync_match_removed AFTER DELETE ON match BEGIN
        DELETE FROM sync_change WHERE kind = 'match' AND uid = OLD.uid;
    END;
    CREATE TRIGGER sync_event_added AFTER INSERT ON tournament_event BEGIN
        UPDATE tournament SET revision = revision + 1 WHERE id = NEW.tournament_id;
    END;
    CREATE TRIGGER sync_event_removed AFTER DELETE ON tournament_event BEGIN
        UPDATE tournament SET revision = revision + 1 WHERE id = OLD.tournament_id;
    END;
    CREATE TRIGGER sync_tournament_added AFTER INSERT ON tournament BEGIN
        INSERT OR REPLACE INTO sync_change (kind, uid) VALUES ('tournament', NEW.uid);
    END;
    CREATE TRIGGER sync_tournament_revised AFTER UPDATE OF revision ON tournament
        WHEN NEW.revision IS NOT OLD.revision BEGIN
        INSERT OR REPLACE INTO sync_change (kind, uid) VALUES ('tournament', NEW.uid);
    END;
    CREATE TRIGGER sync_tournament_removed AFTER DELETE ON tournament BEGIN
        DELETE FROM sync_change WHERE kind = 'tournament' AND uid = OLD.uid;
    END;",
    // 7: a device joined to a club hub (at most one at a time) keeps its address and token, so
    // that its outbox goes out after a restart, and which revision of each match the hub holds,
    // so that what was pulled is not pushed back; a tournament pulled from a hub names that hub,
    // whose organiser alone pairs its rounds and enters its events.
    "CREATE TABLE club_join (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        hub TEXT NOT NULL,
        token TEXT NOT NULL,
        joined_at INTEGER NOT NULL
    );
    CREATE TABLE club_seen (
        hub TEXT NOT NULL,
        uid TEXT NOT NULL,
        revision INTEGER NOT NULL,
        PRIMARY KEY (hub, uid)
    );
    ALTER TABLE tournament ADD COLUMN hub TEXT;",
    // 8: an action writes its own row and nothing else (a throw as fast as its commit).
    // - A match's revision is its action count plus `revision_base`: adding an action raises it
    //   without writing the match's row; taking one back adds 2 to the base (one fewer counted,
    //   and still one more change); a merge or an import sets the base from the revision given.
    // - The change log gives a record a new place only when a reader may have passed its place:
    //   `sync_seen` keeps the highest place handed to any reader of the log.
    // - A match's row is written when its status changes (its cached summary, its times), so
    //   unfinished matches (a few) are found by status alone and read by replay; finished ones
    //   are listed by time through an index that holds only them.
    // - Each player's figures keep the side's place, as the ratings take it (two sides are
    //   placed by their result here; three or more by replay after migrating: PLACES_SINCE),
    //   and its final score, as the exports give it (read once here from the cached summary).
    "CREATE TABLE sync_seen (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        seq INTEGER NOT NULL
    );
    INSERT INTO sync_seen (id, seq) SELECT 1, COALESCE(max(seq), 0) FROM sync_change;
    DROP TRIGGER sync_action_added;
    DROP TRIGGER sync_action_removed;
    DROP TRIGGER sync_match_revised;
    ALTER TABLE match RENAME COLUMN revision TO revision_base;
    UPDATE match SET revision_base =
        revision_base - (SELECT count(*) FROM action a WHERE a.match_id = match.id);
    CREATE TRIGGER sync_action_added AFTER INSERT ON action
        WHEN COALESCE((SELECT c.seq FROM match m JOIN sync_change c ON c.kind = 'match' AND c.uid = m.uid
                       WHERE m.id = NEW.match_id), 0) <= (SELECT seq FROM sync_seen) BEGIN
        INSERT OR REPLACE INTO sync_change (kind, uid)
            SELECT 'match', uid FROM match WHERE id = NEW.match_id;
    END;
    CREATE TRIGGER sync_action_removed AFTER DELETE ON action BEGIN
        UPDATE match SET revision_base = revision_base + 2 WHERE id = OLD.match_id;
    END;
    CREATE TRIGGER sync_match_revised AFTER UPDATE OF revision_base ON match
        WHEN NEW.revision_base IS NOT OLD.revision_base
         AND COALESCE((SELECT seq FROM sync_change WHERE kind = 'match' AND uid = NEW.uid), 0)
             <= (SELECT seq FROM sync_seen) BEGIN
        INSERT OR REPLACE INTO sync_change (kind, uid) VALUES ('match', NEW.uid);
    END;
    DROP TRIGGER sync_tournament_revised;
    CREATE TRIGGER sync_tournament_revised AFTER UPDATE OF revision ON tournament
        WHEN NEW.revision IS NOT OLD.revision
         AND COALESCE((SELECT seq FROM sync_change WHERE kind = 'tournament' AND uid = NEW.uid), 0)
             <= (SELECT seq FROM sync_seen) BEGIN
        INSERT OR REPLACE INTO sync_change (kind, uid) VALUES ('tournament', NEW.uid);
    END;
    DROP INDEX match_by_status;
    CREATE INDEX match_by_status ON match(status);
    CREATE INDEX match_finished_by_update ON match(updated_at) WHERE status != 'playing';
    ALTER TABLE player_stats ADD COLUMN place INTEGER;
    UPDATE player_stats SET place = CASE result WHEN 'lost' THEN 2 ELSE 1 END;
    ALTER TABLE player_stats ADD COLUMN score INTEGER;
    UPDATE player_stats SET score = (SELECT json_extract(m.summary, '$.scores[' || player_stats.side || ']')
                                     FROM match m WHERE m.id = player_stats.match_id);",
    // 9: the database's identity as a hub, a random name given once, written into the cursors
    //    it hands out (docs/hub.md, "Pages"): a device that kept a cursor of another database
    //    at the same address (a new data folder, another computer) is told so, even when this
    //    one's change log has grown past that cursor's number.
    "CREATE TABLE hub_identity (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name TEXT NOT NULL
    );
    INSERT INTO hub_identity (id, name) VALUES (1, lower(hex(randomblob(8))));",
    // 10: the tournaments a device holds from a hub that turned out to be another database (a
    //     new data folder, an older copy), waiting to be given back to it: devices are the
    //     only other copies of what a hub ran. A pulled tournament keeps the club token it was
    //     pulled with: only the same club's hub gets it back (another club's hub may later
    //     answer at the same address).
    "CREATE TABLE club_restore (
        hub TEXT NOT NULL,
        uid TEXT NOT NULL,
        PRIMARY KEY (hub, uid)
    );
    ALTER TABLE tournament ADD COLUMN hub_token TEXT;",
    // 11: a table's match pulled before its tournament (pages go in order of the latest
    //     change, and a tournament changes after its tables' matches end): its table, until
    //     the tournament comes.
    "CREATE TABLE pending_link (
        match_id INTEGER PRIMARY KEY REFERENCES match(id) ON DELETE CASCADE,
        tournament_uid TEXT NOT NULL,
        round INTEGER NOT NULL,
        tab INTEGER NOT NULL
    );
    CREATE INDEX pending_link_by_tournament ON pending_link(tournament_uid);",
    // 12: the name a player was seated under when the match was played, kept once the player
    //     is renamed or merged (NULL: `name`, as played). The record is the match everywhere
    //     (a hub and the other devices hold it under the names it was played with, and a
    //     record pushed under other names is another setup, refused as a conflict); the
    //     history shows the player's name of today.
    "ALTER TABLE match_player ADD COLUMN played_as TEXT;",
    // 13: the matches this device writes (docs/hub.md: a record has one writer), those it
    //     started; a match pulled, pushed to it as a hub, or imported from a file is another's.
    //     The writer's place and notes raise the revision, so that they reach the hub; another
    //     device's edit would raise it past the writer's next action, which the hub would then
    //     refuse as a conflict, so it stays on that device. A match of an older file is taken
    //     as another's: its place and notes stay as they did.
    "ALTER TABLE match ADD COLUMN writer INTEGER NOT NULL DEFAULT 0;",
    // 14: the names players were renamed or merged from, found when a match made elsewhere
    //     comes in under one (a few seats: only those renamed have one).
    "CREATE INDEX match_player_played_as ON match_player(played_as) WHERE played_as IS NOT NULL;",
    // 15: the names a player had before a rename or a merge, kept with the player rather than
    //     found through their seats (a player renamed before playing, an entrant renamed
    //     before round 1, has none), so that a record made elsewhere under the old name is
    //     theirs. Seeded from the seats of 12; the index of 14 is no longer read.
    "CREATE TABLE player_alias (
        name TEXT NOT NULL,
        player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
        PRIMARY KEY (name, player_id)
    );
    INSERT OR IGNORE INTO player_alias (name, player_id)
        SELECT DISTINCT played_as, player_id FROM match_player WHERE played_as IS NOT NULL;
    DROP INDEX match_player_played_as;",
    // 16: the place and notes written on a device that does not write the match (13), apart
    //     from the record's: shown there before the record's, never served or pushed, and
    //     never replaced by the writer's next revision.
    "ALTER TABLE match ADD COLUMN local_place TEXT;
    ALTER TABLE match ADD COLUMN local_notes TEXT;",
    // 17: the players the computer was seated as (at a side the match's `computer` names),
    //     kept apart from the people: out of the pickers, the players' list and the
    //     leaderboard, never the player a typed name finds, and found again by the next match
    //     against the computer. A player seated before only at the computer's sides, and in
    //     no tournament, was one.
    "ALTER TABLE player ADD COLUMN machine INTEGER NOT NULL DEFAULT 0;
    UPDATE player SET machine = 1
    WHERE id IN (SELECT mp.player_id FROM match_player mp JOIN match m ON m.id = mp.match_id
                 WHERE json_extract(m.computer, '$.\"' || mp.side || '\"') IS NOT NULL)
      AND id NOT IN (SELECT mp.player_id FROM match_player mp JOIN match m ON m.id = mp.match_id
                     WHERE m.computer IS NULL
                        OR json_extract(m.computer, '$.\"' || mp.side || '\"') IS NULL)
      AND id NOT IN (SELECT player_id FROM tournament_entrant);",
    // 18: what each row of figures counts for its player, as the ratings take a match
    //     (docs/ratings.md): 2 the match and its figures; 1 its figures only (a second seat of
    //     the player's side); 0 nothing (the player sits on two sides, as a merge of two who
    //     played each other leaves). The statistics counted a row a seat. Only the matches in
    //     which a player has two rows are looked at (the others keep 2). The leaderboard's
    //     index takes the column, so that it still reads the index alone.
    "ALTER TABLE player_stats ADD COLUMN counts INTEGER NOT NULL DEFAULT 2;
    UPDATE player_stats SET counts = CASE
      WHEN EXISTS (SELECT 1 FROM player_stats o WHERE o.match_id = player_stats.match_id
                     AND o.player_id = player_stats.player_id AND o.side != player_stats.side)
        THEN 0
      WHEN EXISTS (SELECT 1 FROM player_stats o WHERE o.match_id = player_stats.match_id
                     AND o.player_id = player_stats.player_id AND o.side = player_stats.side
                     AND o.seat < player_stats.seat)
        THEN 1
      ELSE 2 END
    WHERE match_id IN (SELECT match_id FROM player_stats GROUP BY match_id, player_id
                       HAVING count(*) > 1);
    DROP INDEX player_stats_by_game;
    CREATE INDEX player_stats_by_game ON player_stats(game, counts, player_id, result);",
    // 19: the records a hub refused from this device (`by` = 'hub') and those this device
    //     refused from a hub's pages (`by` = 'device'), kept so that they are still listed
    //     after a restart: the push mark and the cursor move past them, so nothing else
    //     remembers them. A record taken since leaves the list.
    "CREATE TABLE club_refused (
      hub TEXT NOT NULL,
      uid TEXT NOT NULL,
      by TEXT NOT NULL CHECK (by IN ('hub', 'device')),
      kind TEXT NOT NULL,
      detail TEXT NOT NULL,
      at INTEGER NOT NULL,
      PRIMARY KEY (hub, uid, by)
    );",
    // 20: a record this device refused from a hub's page is kept with the app's version that
    //     refused it, so that an update (a game or a rule it now knows) takes it then: the
    //     cursor has moved past it, and the hub sends it again only if it changes. Rows from
    //     19 have no record: the device pulls from the start once after the update.
    "ALTER TABLE club_refused ADD COLUMN record TEXT;
    ALTER TABLE club_refused ADD COLUMN app TEXT NOT NULL DEFAULT '';",
    // 21: what is still to be derived after an upgrade (the player figures of a file from
    //     before 3, the places of one from before 8), written in the migrations' transaction
    //     and removed once derived: a derivation killed half-way, or failed, is done again at
    //     the next start (it was decided from the version found, which the migrations had
    //     already moved on, so it was never done again).
    "CREATE TABLE derive_pending (what TEXT PRIMARY KEY CHECK (what IN ('figures', 'places')));",
];

/// The first schema that keeps each finished match's player figures; a file from before it has
/// them derived once after migrating.
pub const FIGURES_SINCE: i64 = 3;

/// The first schema whose player figures keep each side's place; a file from before it has
/// the places of its matches of three sides or more derived once after migrating.
pub const PLACES_SINCE: i64 = 8;

/// The first schema that knows which matches this device writes (migration 13). A file from
/// before it has the matches no hub ever held (none pulled from one or pushed to one) taken as
/// its own as it migrates, in the migrations' transaction: they were started here, or
/// imported to be carried on here, and only the writer plays a match's actions (docs/hub.md).
pub const WRITERS_SINCE: i64 = 13;

const OWN_BEFORE_WRITERS: &str =
    "UPDATE match SET writer = 1 WHERE uid NOT IN (SELECT uid FROM club_seen)";

/// The first schema that notes what is still to be derived after an upgrade (migration 21).
pub const DERIVE_PENDING_SINCE: i64 = 21;

/// The schema version this build writes.
pub fn latest() -> i64 {
    MIGRATIONS.len() as i64
}

/// `storage` (code `database_too_new`) when the file was written by a newer Partie.
pub fn refuse_newer(conn: &Connection) -> Result<(), Error> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version < 0 {
        // Another program's file: no migration of ours would fit it, and it is left untouched.
        return Err(
            Error::storage(format!("not a Partie database (schema {version})"))
                .with_code("not_partie_database"),
        );
    }
    if version > latest() {
        return Err(Error::storage(format!(
            "the database was written by a newer Partie (schema {version}, this app knows {})",
            latest()
        ))
        .with_code("database_too_new"));
    }
    Ok(())
}

/// Brings the database up to [`latest`] in one transaction; refuses a newer database.
pub fn migrate(conn: &mut Connection) -> Result<(), Error> {
    migrate_to(conn, MIGRATIONS.len())
}

/// Applies the first `upto` migrations only (tests use this to build old files).
pub fn migrate_to(conn: &mut Connection, upto: usize) -> Result<(), Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    refuse_newer(&tx)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    for (i, sql) in MIGRATIONS
        .iter()
        .enumerate()
        .take(upto)
        .skip(version as usize)
    {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
    }
    if (1..WRITERS_SINCE).contains(&version) && upto as i64 >= WRITERS_SINCE {
        tx.execute_batch(OWN_BEFORE_WRITERS)?;
    }
    if upto as i64 >= DERIVE_PENDING_SINCE {
        let what = if (1..FIGURES_SINCE).contains(&version) {
            Some("figures")
        } else if (1..PLACES_SINCE).contains(&version) {
            Some("places")
        } else {
            None
        };
        if let Some(what) = what {
            tx.execute(
                "INSERT OR IGNORE INTO derive_pending (what) VALUES (?1)",
                [what],
            )?;
        }
    }
    tx.commit()?;
    Ok(())
}
