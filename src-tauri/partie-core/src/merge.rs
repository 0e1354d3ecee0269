//! The hub's merge rules (`docs/hub.md`, "The API"), pure: reading a pushed record and replaying
//! it, deciding whether it is new, newer, already there or a conflict, checking a table match
//! against its tournament, and the record as a hub serves it.
//!
//! Both of the hub's storages decide here, so that they decide the same way: partie-core's
//! SQLite store (`store/sync.rs`, which also merges what a device pulls) and the hub's
//! PostgreSQL backend (in partie-hub, which keeps this crate free of async and network code).
//! Nothing here touches a database.

use crate::error::Error;
use crate::game::Computer;
use crate::games::MatchState;
use crate::record::{Record, FORMAT};
use crate::time::{iso, parse_iso};
use crate::tournament::{self, Tournament, TournamentRecord};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::borrow::Cow;

/// What a merge did with one record it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    /// New here.
    Accepted,
    /// Replaced by a newer revision.
    Updated,
    /// Nothing changed.
    Already,
}

impl MergeReport {
    /// Counts one record taken.
    pub fn count(&mut self, taken: Taken) {
        match taken {
            Taken::Accepted => self.accepted += 1,
            Taken::Updated => self.updated += 1,
            Taken::Already => self.already += 1,
        }
    }
}

/// Each action's `at` time (the match's start when it has none), taken out of the actions so
/// that they are compared and stored as played: a hub's push and an import alike.
pub fn take_action_times(record: &mut Record, started_at: i64) -> Vec<i64> {
    record
        .actions
        .iter_mut()
        .map(|action| {
            let at = action
                .get("at")
                .and_then(Value::as_str)
                .and_then(parse_iso)
                .unwrap_or(started_at);
            if let Some(o) = action.as_object_mut() {
                o.remove("at");
            }
            at
        })
        .collect()
}

/// The record's id as a refusal names it: the string given, else none (`null`).
pub fn refusal_id(value: &Value) -> Option<String> {
    value.get("id").and_then(Value::as_str).map(str::to_string)
}

/// The longest record id taken.
pub const MAX_ID_CHARS: usize = 100;

/// A record's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordKind {
    /// A match record (`docs/records.md`).
    Match,
    /// A tournament record (`docs/tournaments.md`).
    Tournament,
}

impl RecordKind {
    /// The kind by its name (`match`, `tournament`).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "match" => Some(RecordKind::Match),
            "tournament" => Some(RecordKind::Tournament),
            _ => None,
        }
    }
}

/// Where a batch of records comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Devices pushing to this hub: the rules of `docs/hub.md` ("The API"), and a finished table
    /// match enters its result in the tournament (once).
    Device,
    /// The hub, as pulled by a device. The same rules for matches, except that a conflict keeps
    /// the device's own record (reported); a tournament, whose writer is the hub, always takes
    /// the hub's version; no result is appended (the hub's tournament brings it); a table match
    /// whose tournament is not here is kept without its link.
    Hub,
}

/// A record refused in a batch. A push may hold millions of elements that are no record at
/// all (`1,1,1,…`), each refused with its own line: such a refusal holds no text of its own
/// (its kind and detail are the program's), so that the answer's memory is its lines'.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// The record's `id` as given (`null` when it had none).
    pub id: Option<String>,
    /// The kind: those of `docs/records.md` §4, or `conflict`.
    pub kind: &'static str,
    /// A human detail.
    pub detail: Cow<'static, str>,
}

impl Refusal {
    /// A refusal of the record `id` for the error `e` (its kind and detail).
    pub fn of(id: Option<String>, e: Error) -> Refusal {
        Refusal {
            id,
            kind: e.kind.as_str(),
            detail: Cow::Owned(e.detail),
        }
    }
}

/// What a merge took and refused, record by record (`docs/hub.md`: a push's answer).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MergeReport {
    /// Records new here.
    pub accepted: usize,
    /// Records replaced by a newer revision.
    pub updated: usize,
    /// Records that changed nothing (already here, or an older revision).
    pub already: usize,
    /// Records refused.
    pub refused: Refusals,
}

/// The refusals of a merge, in the order the merge came to them. A refusal the same as the one before
/// it (`1,1,1,…`: four million elements that are no record, each said with its own line) is
/// held once with its count: what the answer holds while it is written out is one line per run,
/// not 64 bytes per element of the push.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Refusals {
    runs: Vec<(Refusal, usize)>,
    len: usize,
}

impl Refusals {
    /// Adds a refusal after the others.
    pub fn push(&mut self, refusal: Refusal) {
        self.len += 1;
        match self.runs.last_mut() {
            Some((last, n)) if *last == refusal => *n += 1,
            _ => self.runs.push((refusal, 1)),
        }
    }

    /// How many records were refused.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many runs of the same refusal are held: what the refusals cost in memory.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Each refusal in order, a run's as many times as it came.
    pub fn iter(&self) -> impl Iterator<Item = &Refusal> + '_ {
        self.runs
            .iter()
            .flat_map(|(r, n)| std::iter::repeat_n(r, *n))
    }

    /// Each refusal in order, a run's as many times as it came (cloned as it is taken).
    pub fn into_lines(self) -> impl Iterator<Item = Refusal> {
        self.runs
            .into_iter()
            .flat_map(|(r, n)| std::iter::repeat_n(r, n))
    }
}

impl std::ops::Index<usize> for Refusals {
    type Output = Refusal;

    fn index(&self, i: usize) -> &Refusal {
        self.iter()
            .nth(i)
            .unwrap_or_else(|| panic!("refusal {i} of {}", self.len))
    }
}

impl FromIterator<Refusal> for Refusals {
    fn from_iter<I: IntoIterator<Item = Refusal>>(iter: I) -> Refusals {
        let mut out = Refusals::default();
        for r in iter {
            out.push(r);
        }
        out
    }
}

/// A list of refusals, as the answer says them.
impl Serialize for Refusals {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// The record's kind by its shape: a match names its `game`, a tournament has its setup under
/// `tournament` and no `game`.
pub fn kind_of(value: &Value) -> Option<RecordKind> {
    if value.get("game").is_some() {
        Some(RecordKind::Match)
    } else if value.get("tournament").is_some_and(Value::is_object) {
        Some(RecordKind::Tournament)
    } else {
        None
    }
}

/// A pushed element's kind, or the `bad_record` that refuses it as no record at all (not an
/// object; neither a match nor a tournament): both storages refuse it alike, before any work.
pub fn record_kind(value: &Value) -> Result<RecordKind, Refusal> {
    let refused = |detail| {
        Err(Refusal {
            id: refusal_id(value),
            kind: crate::ErrorKind::BadRecord.as_str(),
            detail: Cow::Borrowed(detail),
        })
    };
    match (value.is_object(), kind_of(value)) {
        (true, Some(kind)) => Ok(kind),
        (false, _) => refused("a record is a JSON object"),
        (true, None) => refused("neither a match (no game) nor a tournament"),
    }
}

/// A push's records as the JSON text they came in: the text whole, and where each record lies
/// in it. Each is read when the merge comes to it; a push of four million `1`s is held in 8
/// bytes an element beside its text, not in a value (or a box) each.
#[derive(Debug, Clone, Default)]
pub struct RawRecords {
    text: String,
    spans: Vec<(u32, u32)>,
}

impl RawRecords {
    /// The records of a push body `{"records": [...]}` given as text; else the detail of its
    /// `bad_record` (`None` when the text is JSON of another shape).
    pub fn read(text: String) -> Result<RawRecords, Option<String>> {
        #[derive(serde::Deserialize)]
        struct Body<'a> {
            #[serde(borrow)]
            records: Vec<&'a RawValue>,
        }
        let spans = {
            let body: Body = serde_json::from_str(&text).map_err(|e| match e.classify() {
                serde_json::error::Category::Data => None,
                _ => Some(format!("the body is not JSON: {e}")),
            })?;
            let start = text.as_ptr() as usize;
            let spans: Option<Vec<(u32, u32)>> = body
                .records
                .iter()
                .map(|r| {
                    let at = u32::try_from(r.get().as_ptr() as usize - start).ok()?;
                    Some((at, u32::try_from(r.get().len()).ok()?))
                })
                .collect();
            spans.ok_or_else(|| Some("the body is over 4 GiB".to_string()))?
        };
        Ok(RawRecords { text, spans })
    }

    /// Records given one by one as values (a program's own, not a push's text).
    pub fn of_values(records: &[Value]) -> RawRecords {
        let mut all = RawRecords::default();
        for r in records {
            let at = all.text.len();
            all.text.push_str(&r.to_string());
            all.spans.push((at as u32, (all.text.len() - at) as u32));
        }
        all
    }

    /// How many records the push holds.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the push holds none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The raw JSON of record `i`.
    pub fn get(&self, i: usize) -> &str {
        let (at, len) = self.spans[i];
        &self.text[at as usize..(at + len) as usize]
    }
}

/// A record of a push read from its raw JSON. Raw JSON is only found to be JSON in its shape:
/// what it holds may still not be read (nested deeper than the reader goes, a lone surrogate
/// in a text, a number out of range); such a record is refused as `bad_record` under the id
/// it gives, read on its own, so that the device that sent it lists it as refused.
pub fn read_raw(raw: &str) -> Result<Value, Refusal> {
    serde_json::from_str(raw).map_err(|e| {
        #[derive(serde::Deserialize)]
        struct Id {
            #[serde(default)]
            id: Option<String>,
        }
        // (serde reads a struct from a list too: only an object's id is one.)
        let id = if raw.trim_start().starts_with('{') {
            serde_json::from_str::<Id>(raw).ok().and_then(|i| i.id)
        } else {
            None
        };
        Refusal {
            id,
            kind: crate::ErrorKind::BadRecord.as_str(),
            detail: Cow::Owned(format!("the record cannot be read: {e}")),
        }
    })
}

/// Where a page of `GET /v1/records` starts, for the hub named `hub` (its identity): none is
/// the start; a cursor is `NAME.SEQ`, the hub's name and the change number it gave, or a bare
/// number (what hubs gave before they had names, taken as it was). `bad_record` for anything
/// else, and with code `unknown_cursor` for another hub's name: the client forgets the cursor
/// and pulls from the start.
pub fn cursor_of(cursor: Option<&str>, hub: &str) -> Result<i64, Error> {
    let Some(c) = cursor else {
        return Ok(0);
    };
    let not = || Error::bad_record(format!("{c:?} is not a cursor"));
    let (name, seq) = match c.split_once('.') {
        Some((name, seq)) => (Some(name), seq),
        None => (None, c),
    };
    let seq = seq
        .parse::<i64>()
        .ok()
        .filter(|&n| n >= 0 && !seq.starts_with('+'))
        .ok_or_else(not)?;
    match name {
        Some(name) if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            Err(not())
        }
        Some(name) if name != hub => Err(Error::bad_record(format!(
            "the cursor {c:?} is another hub's (this one is {hub})"
        ))
        .with_code("unknown_cursor")),
        _ => Ok(seq),
    }
}

/// About how many bytes of records a page of `GET /v1/records` holds at most: it ends after
/// the record that reaches this, whatever its `limit` (it always holds one record, when any is
/// left). A page is built whole in memory and a device reads it whole, so its size is bounded
/// by its bytes and not only by its count: five thousand long matches would be gigabytes.
pub const PAGE_BYTES: usize = 8 * 1024 * 1024;

/// How many bytes `value` takes as compact JSON, counted without writing it out.
pub fn json_len(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing a `Value` to a writer that never fails cannot fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// The cursor a hub named `hub` hands out after the change `seq`.
pub fn cursor_at(hub: &str, seq: i64) -> String {
    format!("{hub}.{seq}")
}

/// The refusal of a cursor past the last change a hub ever gave (`bad_record`): the client
/// forgets it and pulls from the start.
pub fn cursor_not_given(since: i64) -> Error {
    Error::bad_record(format!("this hub never gave the cursor {since}")).with_code("unknown_cursor")
}

/// The highest revision a record may carry: far more changes than any record can have, and
/// far enough from `i64::MAX` that the store's triggers, which add one per change, never
/// overflow (SQLite would turn the sum into a float, which no read takes back).
pub const MAX_REVISION: i64 = 1 << 50;

/// The revision a record carries: absent is 0, else a whole number up to [`MAX_REVISION`].
pub fn revision_of(value: &Value) -> Result<i64, Error> {
    match value.get("revision") {
        None => Ok(0),
        Some(v) => v
            .as_i64()
            .filter(|r| (0..=MAX_REVISION).contains(r))
            .ok_or_else(|| {
                Error::bad_record(format!(
                    "revision must be a whole number from 0 to {MAX_REVISION}, not {v}"
                ))
            }),
    }
}

/// The revision a file's record gives, if it gives one (`null` is none), checked as
/// [`revision_of`] checks it.
pub fn revision_given(value: &Value) -> Result<Option<i64>, Error> {
    match value.get("revision") {
        None | Some(Value::Null) => Ok(None),
        Some(_) => revision_of(value).map(Some),
    }
}

/// `bad_record` when a text anywhere in a pushed record (a key, an id, a name) holds the NUL
/// character: PostgreSQL's text cannot hold it, and both storages refuse alike, the record
/// alone, so that one such record does not fail the whole push.
pub fn no_nul(value: &Value) -> Result<(), Error> {
    let nul = |s: &str| s.contains('\0');
    let bad = match value {
        Value::String(s) => nul(s),
        Value::Array(list) => return list.iter().try_for_each(no_nul),
        Value::Object(map) => {
            if map.keys().any(|k| nul(k)) {
                true
            } else {
                return map.values().try_for_each(no_nul);
            }
        }
        _ => false,
    };
    if bad {
        Err(Error::bad_record(
            "a text of the record holds the NUL character",
        ))
    } else {
        Ok(())
    }
}

/// The id a record carries: a non-empty string of at most [`MAX_ID_CHARS`] characters.
pub fn id_of(value: &Value) -> Result<String, Error> {
    match value.get("id") {
        Some(Value::String(s)) if !s.is_empty() && s.chars().count() <= MAX_ID_CHARS => {
            Ok(s.clone())
        }
        Some(Value::String(_)) => Err(Error::bad_record(format!(
            "id must be 1 to {MAX_ID_CHARS} characters"
        ))),
        _ => Err(Error::bad_record("a record needs a string id")),
    }
}

/// The tournament table a pushed match says it was played for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The tournament's id.
    pub tournament: String,
    /// The round, from 1.
    pub round: i64,
    /// The table, from 0.
    pub table: i64,
}

impl Link {
    /// The link as a record carries it: `{"id", "round", "table"}`.
    pub fn to_value(&self) -> Value {
        json!({"id": self.tournament, "round": self.round, "table": self.table})
    }
}

/// The table link a pushed match carries, if any (`bad_record` when malformed).
pub fn link_of(value: &Value) -> Result<Option<Link>, Error> {
    let Some(t) = value.get("tournament") else {
        return Ok(None);
    };
    let bad = || Error::bad_record("tournament is {\"id\": string, \"round\": r, \"table\": t}");
    let id = t.get("id").and_then(Value::as_str).ok_or_else(bad)?;
    let round = t.get("round").and_then(Value::as_u64).ok_or_else(bad)?;
    let table = t.get("table").and_then(Value::as_u64).ok_or_else(bad)?;
    if round == 0 || round > i64::MAX as u64 || table > i64::MAX as u64 {
        return Err(bad());
    }
    Ok(Some(Link {
        tournament: id.to_string(),
        round: round as i64,
        table: table as i64,
    }))
}

/// A pushed match as it reads, before it is replayed: enough to decide on a match the store
/// holds. The API decides a known id by its revision and setup before anything is replayed (a
/// lower revision is `already`, the same one with other actions a `conflict`, whatever those
/// actions are worth), so the replay is a second step ([`PushedMatch::replay`]).
#[derive(Debug, Clone)]
pub struct PushedMatch {
    /// Its id.
    pub uid: String,
    /// Its revision (absent: 0).
    pub revision: i64,
    /// The record, its actions without their `at` times.
    pub record: Record,
    /// Each action's time (ms), the start when it had none.
    pub ats: Vec<i64>,
    /// Its start (ms); now when the record does not say.
    pub started_at: i64,
    /// Its end as the record says it.
    pub finished_at: Option<i64>,
    /// Where it was played.
    pub place: Option<String>,
    /// Remarks.
    pub notes: Option<String>,
    /// The sides the computer played.
    pub computer: Computer,
    /// The tournament table it was played for.
    pub link: Option<Link>,
}

/// A pushed match, read and replayed: what every hub's storage (this SQLite store, the hub's
/// PostgreSQL backend) stores, so that they store the same. It reads as its
/// [`PushedMatch`] (through `Deref`): a replayed match is a pushed one with its state.
#[derive(Debug, Clone)]
pub struct IncomingMatch {
    /// The match as pushed.
    pub pushed: PushedMatch,
    /// The record replayed.
    pub state: MatchState,
}

impl std::ops::Deref for IncomingMatch {
    type Target = PushedMatch;

    fn deref(&self) -> &PushedMatch {
        &self.pushed
    }
}

impl PushedMatch {
    /// Reads a pushed match without replaying it: `bad_record` when it is not one.
    pub fn read(value: &Value) -> Result<Self, Error> {
        no_nul(value)?;
        pushed_match(value)
    }

    /// Replays it: `bad_setup`, `bad_action` or `illegal_action` (or `bad_setup` for the
    /// sides the computer plays) when it is not a valid match.
    pub fn replay(&self) -> Result<MatchState, Error> {
        let state = self.record.replay()?;
        crate::games::check_computer(&self.record.game, self.record.sides.len(), &self.computer)?;
        Ok(state)
    }

    /// Its sides, names trimmed (as stored and compared).
    pub fn sides(&self) -> Vec<Vec<String>> {
        trimmed(&self.record.sides)
    }
}

impl IncomingMatch {
    /// Reads and replays a pushed match: `bad_record`, `bad_setup`, `bad_action` or
    /// `illegal_action` when it is not a valid one.
    pub fn read(value: &Value) -> Result<Self, Error> {
        let pushed = PushedMatch::read(value)?;
        let state = pushed.replay()?;
        Ok(IncomingMatch { pushed, state })
    }

    /// When it ended (ms), if it is over: the time the record gives, else its last action's.
    pub fn end(&self) -> Option<i64> {
        self.state.is_over().then(|| {
            self.finished_at
                .or_else(|| self.ats.last().copied())
                .unwrap_or(self.started_at)
        })
    }

    /// The record as a hub serves it (what `Store::sync_record` gives for it once stored):
    /// the export with its `at` times, `id`, `revision`, times, and its table link.
    pub fn served(&self) -> Value {
        let mut record = self.record.clone();
        record.format = FORMAT;
        record.sides = self.sides();
        let mut out = serde_json::to_value(&record).expect("a record serialises");
        let obj = out.as_object_mut().expect("a record is an object");
        if let Some(actions) = obj.get_mut("actions").and_then(Value::as_array_mut) {
            for (action, &at) in actions.iter_mut().zip(&self.ats) {
                if let Some(a) = action.as_object_mut() {
                    a.insert("at".into(), json!(iso(at)));
                }
            }
        }
        obj.insert("id".into(), json!(self.uid));
        obj.insert("revision".into(), json!(self.revision));
        obj.insert("started_at".into(), json!(iso(self.started_at)));
        obj.insert("finished_at".into(), json!(self.end().map(iso)));
        if let Some(place) = &self.place {
            obj.insert("place".into(), json!(place));
        }
        if let Some(notes) = &self.notes {
            obj.insert("notes".into(), json!(notes));
        }
        if !self.computer.is_empty() {
            obj.insert("computer".into(), json!(self.computer));
        }
        if let Some(link) = &self.link {
            obj.insert("tournament".into(), link.to_value());
        }
        out
    }

    /// The `result` event its table's tournament takes when it is over (`None` while it is
    /// played, or when it was not played for a table).
    pub fn result_event(&self) -> Option<Value> {
        let link = self.link.as_ref()?;
        table_result_event(link.round, link.table, &self.uid, &self.state)
    }
}

/// The tournament's `result` event of a finished match played at a table (`None` while it is
/// played): for the store when its own table match ends, and for a hub taking a pushed one.
pub fn table_result_event(round: i64, table: i64, uid: &str, state: &MatchState) -> Option<Value> {
    let r = state.result()?;
    let mut result = json!({
        "round": round, "table": table, "winner": r.winner, "scores": r.scores, "match": uid,
    });
    if let Some(t) = r.twenties {
        result["twenties"] = json!(t);
    }
    Some(json!({ "result": result }))
}

/// What a store holds of a match, to decide on a pushed one.
#[derive(Debug, Clone, Copy)]
pub struct HeldMatch<'a> {
    /// Its game.
    pub game: &'a str,
    /// Its rules.
    pub rules: &'a Map<String, Value>,
    /// Its sides, names trimmed.
    pub sides: &'a [Vec<String>],
    /// Its table link.
    pub link: Option<&'a Link>,
    /// Its revision.
    pub revision: i64,
    /// Its actions, without their `at` times.
    pub actions: &'a [Value],
}

/// What to do with a pushed record a store already holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Nothing changes (the same revision and content, or an older revision).
    Already,
    /// Replace it; the actions (a tournament: events) before `from` are the same.
    Replace {
        /// The length of the common prefix.
        from: usize,
    },
}

/// The rules of `docs/hub.md` ("The API") for a match the store holds: another setup or the
/// same revision with other actions is a conflict (`Err`, its detail); an older or identical
/// revision is [`Decision::Already`]; a newer one replaces it.
pub fn decide_match(held: &HeldMatch, m: &PushedMatch, source: Source) -> Result<Decision, String> {
    let same_link = match source {
        Source::Device => held.link == m.link.as_ref(),
        // A device may hold a match whose tournament it has not pulled yet.
        Source::Hub => held.link.is_none() || held.link == m.link.as_ref(),
    };
    if held.game != m.record.game
        || held.rules != &m.record.rules
        || held.sides != m.sides().as_slice()
        || !same_link
    {
        return Err(format!("match {} is here with another setup", m.uid));
    }
    if m.revision < held.revision {
        return Ok(Decision::Already);
    }
    if m.revision == held.revision {
        return if held.actions == m.record.actions.as_slice() {
            Ok(Decision::Already)
        } else {
            Err(format!(
                "match {} revision {} is here with other actions",
                m.uid, m.revision
            ))
        };
    }
    Ok(Decision::Replace {
        from: common_prefix(held.actions, &m.record.actions),
    })
}

/// The result a held match's actions came to, if they finish it (what a newer revision is
/// compared with, to take back or enter its table's result).
pub fn held_result(m: &PushedMatch, held_actions: &[Value]) -> Option<crate::MatchResult> {
    let mut old = m.record.clone();
    old.actions = held_actions.to_vec();
    old.replay().ok().and_then(|s| s.result())
}

/// Checks a pushed table match against its tournament: the round has that table
/// (`illegal_action`), and the match is its pairing's: the tournament's game and rules, the
/// pairing's entrants in order (`bad_setup`). Whether another match plays that table already is
/// the store's to check.
pub fn check_table_setup(t: &Tournament, m: &PushedMatch, link: &Link) -> Result<(), Error> {
    let entrants = table_entrants(t, link).ok_or_else(|| {
        Error::illegal(format!("round {} has no table {}", link.round, link.table))
            .with_code("no_table")
    })?;
    if m.record.game != t.game()
        || &m.record.rules != t.rules()
        || m.sides() != entrant_names(t, entrants)
    {
        return Err(Error::bad_setup(format!(
            "the match is not the one of round {} table {}: its game, rules and sides are the tournament's and the pairing's",
            link.round, link.table
        )));
    }
    Ok(())
}

/// The entrants paired at a table (`link`'s round and table), side by side; none when the
/// round has no such table.
pub fn table_entrants(t: &Tournament, link: &Link) -> Option<[usize; 2]> {
    (link.round as usize)
        .checked_sub(1)
        .and_then(|r| t.field().rounds.get(r))
        .and_then(|r| r.matches.iter().find(|p| p.table as i64 == link.table))
        .map(|p| p.sides)
}

/// The sides a table's match of these entrants has: their names as entered, trimmed (as
/// stored and compared).
pub fn entrant_names(t: &Tournament, entrants: [usize; 2]) -> Vec<Vec<String>> {
    let names: Vec<Vec<String>> = entrants
        .iter()
        .map(|&e| t.field().entrants[e].clone())
        .collect();
    trimmed(&names)
}

/// A pushed tournament record as it reads, before its events are replayed: enough to decide on
/// a tournament the store holds (as [`PushedMatch`] for a match).
#[derive(Debug, Clone)]
pub struct PushedTournament {
    /// Its id.
    pub uid: String,
    /// Its revision (absent: 0).
    pub revision: i64,
    /// Its setup and events.
    pub record: TournamentRecord,
    /// Its creation (ms) as the record says it.
    pub created_at: Option<i64>,
}

impl PushedTournament {
    /// Reads a pushed tournament record without replaying it: `bad_record` when it is not one.
    pub fn read(value: &Value) -> Result<Self, Error> {
        no_nul(value)?;
        let uid = id_of(value)?;
        let revision = revision_of(value)?;
        let record = TournamentRecord::from_value(value)?;
        let created_at = value
            .get("created_at")
            .and_then(Value::as_str)
            .and_then(parse_iso);
        Ok(PushedTournament {
            uid,
            revision,
            record,
            created_at,
        })
    }
}

/// A pushed tournament record, read and replayed; it reads as its [`PushedTournament`].
#[derive(Debug, Clone)]
pub struct IncomingTournament {
    /// The record as pushed.
    pub pushed: PushedTournament,
    /// The events replayed.
    pub state: Tournament,
}

impl std::ops::Deref for IncomingTournament {
    type Target = PushedTournament;

    fn deref(&self) -> &PushedTournament {
        &self.pushed
    }
}

impl IncomingTournament {
    /// Reads and replays a pushed tournament record.
    pub fn read(value: &Value) -> Result<Self, Error> {
        let pushed = PushedTournament::read(value)?;
        let state = pushed.record.replay()?;
        Ok(IncomingTournament { pushed, state })
    }
}

/// A tournament record as a hub serves it (what [`Store::sync_record`] gives).
pub fn tournament_served(
    uid: &str,
    revision: i64,
    created_at: i64,
    record: &TournamentRecord,
) -> Value {
    json!({
        "format": tournament::FORMAT,
        "id": uid,
        "revision": revision,
        "created_at": iso(created_at),
        "tournament": record.setup,
        "events": record.events,
    })
}

/// The rules for a tournament the store holds (`held`, at `held_revision`): another setup is a
/// conflict; from a device, an older revision or the same events is [`Decision::Already`], and
/// a newer revision replaces it only if it carries on from the events held (a device gives
/// back what a hub with another database lost, and the results of its own tables); any other
/// is a conflict, since only the hub, the tournament's writer, pairs rounds and takes events
/// back (docs/hub.md). From the hub any difference replaces it.
pub fn decide_tournament(
    held: &TournamentRecord,
    held_revision: i64,
    t: &PushedTournament,
    source: Source,
) -> Result<Decision, String> {
    let uid = &t.uid;
    let revision = t.revision;
    if held.setup != t.record.setup {
        return Err(format!("tournament {uid} is here with another setup"));
    }
    let same = held.events == t.record.events;
    let replace = match source {
        // The hub writes tournaments: its version is the one.
        Source::Hub => !same || revision != held_revision,
        Source::Device if revision < held_revision => false,
        Source::Device if revision == held_revision && same => false,
        Source::Device if revision == held_revision => {
            return Err(format!(
                "tournament {uid} revision {revision} is here with other events"
            ))
        }
        Source::Device if t.record.events.starts_with(&held.events) => true,
        Source::Device => {
            return Err(format!(
                "tournament {uid} revision {revision} does not carry on from the events here: only the hub pairs its rounds and takes its events back"
            ))
        }
    };
    Ok(if replace {
        Decision::Replace {
            from: common_prefix(&held.events, &t.record.events),
        }
    } else {
        Decision::Already
    })
}

fn pushed_match(value: &Value) -> Result<PushedMatch, Error> {
    let uid = id_of(value)?;
    let revision = revision_of(value)?;
    let link = link_of(value)?;
    let mut record = Record::from_value(value.clone())?;
    let obj = value.as_object().expect("a record is an object");
    let time = |key: &str| obj.get(key).and_then(Value::as_str).and_then(parse_iso);
    let text = |key: &str| {
        obj.get(key)
            .and_then(Value::as_str)
            .map(|s| s.chars().take(5000).collect::<String>())
    };
    let started_at = time("started_at").unwrap_or_else(crate::time::now_ms);
    let ats = take_action_times(&mut record, started_at);
    let computer: Computer = match obj.get("computer") {
        None | Some(Value::Null) => Computer::new(),
        Some(v) => serde_json::from_value(v.clone())
            .map_err(|e| Error::bad_record(format!("computer: {e}")))?,
    };
    Ok(PushedMatch {
        uid,
        revision,
        record,
        ats,
        started_at,
        finished_at: time("finished_at"),
        place: text("place"),
        notes: text("notes"),
        computer,
        link,
    })
}

/// Sides with their names trimmed.
pub fn trimmed(sides: &[Vec<String>]) -> Vec<Vec<String>> {
    sides
        .iter()
        .map(|s| s.iter().map(|n| n.trim().to_string()).collect())
        .collect()
}

/// How many leading elements two lists share.
pub fn common_prefix(a: &[Value], b: &[Value]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {

    /// A push's records are found where they lie in its text, whatever they hold (no record at
    /// all, text beyond ASCII, nested lists), each its JSON exactly as sent; a body of another
    /// shape is told apart from one that is not JSON.
    #[test]
    fn raw_records_are_the_texts_of_the_push() {
        let body =
            r#" { "records" : [1, {"id": "é", "sides": [["Zoë"]]} ,"x",[[]], {}], "more": 2 }"#;
        let raw = RawRecords::read(body.to_string()).unwrap();
        let texts: Vec<&str> = (0..raw.len()).map(|i| raw.get(i)).collect();
        assert_eq!(
            texts,
            [
                "1",
                r#"{"id": "é", "sides": [["Zoë"]]}"#,
                r#""x""#,
                "[[]]",
                "{}"
            ]
        );
        assert!(RawRecords::read(r#"{"records": []}"#.into())
            .unwrap()
            .is_empty());
        assert_eq!(
            RawRecords::read(r#"{"records": 5}"#.into()).unwrap_err(),
            None
        );
        assert_eq!(
            RawRecords::read(r#"{"other": []}"#.into()).unwrap_err(),
            None
        );
        let broken = RawRecords::read(r#"{"records": [1,"#.into()).unwrap_err();
        assert!(broken.unwrap().starts_with("the body is not JSON"));
        let given = [json!({"id": "a"}), json!(2)];
        let of = RawRecords::of_values(&given);
        assert_eq!((of.len(), of.get(0), of.get(1)), (2, r#"{"id":"a"}"#, "2"));
    }

    use super::*;

    #[test]
    fn a_revision_is_a_whole_number_far_below_overflow() {
        for ok in [0, 7, MAX_REVISION] {
            assert_eq!(revision_of(&json!({"revision": ok})).unwrap(), ok);
        }
        assert_eq!(revision_of(&json!({})).unwrap(), 0);
        for bad in [
            json!(-1),
            json!(MAX_REVISION + 1),
            json!(i64::MAX),
            json!(u64::MAX),
            json!(1.5),
            json!("3"),
        ] {
            let e = revision_of(&json!({ "revision": bad })).unwrap_err();
            assert_eq!(e.kind, crate::ErrorKind::BadRecord, "{bad}");
        }
    }

    #[test]
    fn a_cursor_names_its_hub_and_another_hubs_is_unknown() {
        let hub = "3f9a0c1d2e4b5a69";
        assert_eq!(cursor_of(None, hub), Ok(0));
        assert_eq!(cursor_of(Some(&cursor_at(hub, 42)), hub), Ok(42));
        // A bare number: what hubs gave before they had names.
        assert_eq!(cursor_of(Some("7"), hub), Ok(7));
        let other = cursor_of(Some("0123456789abcdef.42"), hub).unwrap_err();
        assert_eq!(
            (other.kind, other.code),
            (crate::ErrorKind::BadRecord, Some("unknown_cursor"))
        );
        for bad in [
            "", "-1", "+3", "x", ".5", "a b.5", "abc.", "abc.-1", "abc.1.2", "1e3",
        ] {
            let e = cursor_of(Some(bad), hub).unwrap_err();
            assert_eq!(
                (e.kind, e.code),
                (crate::ErrorKind::BadRecord, None),
                "{bad:?}"
            );
        }
    }

    fn molkky(revision: i64, pins: &[u8]) -> Value {
        let actions: Vec<Value> = pins
            .iter()
            .map(|p| json!({"pins": [p], "at": "2026-01-01T00:00:00Z"}))
            .collect();
        json!({"format": 1, "id": "m", "revision": revision, "game": "molkky",
               "sides": [[" A "], ["B"]], "actions": actions})
    }

    fn held(m: &IncomingMatch) -> (Vec<Vec<String>>, Vec<Value>) {
        (m.sides(), m.record.actions.clone())
    }

    #[test]
    fn a_match_is_already_newer_or_a_conflict_by_its_revision_and_setup() {
        let stored = IncomingMatch::read(&molkky(4, &[3, 4, 5, 6])).unwrap();
        let (sides, actions) = held(&stored);
        let facts = HeldMatch {
            game: "molkky",
            rules: &stored.record.rules,
            sides: &sides,
            link: None,
            revision: 4,
            actions: &actions,
        };
        let decide =
            |v: Value| decide_match(&facts, &IncomingMatch::read(&v).unwrap(), Source::Device);
        assert_eq!(decide(molkky(4, &[3, 4, 5, 6])), Ok(Decision::Already));
        assert_eq!(decide(molkky(3, &[3])), Ok(Decision::Already));
        assert_eq!(
            decide(molkky(5, &[3, 4, 5])),
            Ok(Decision::Replace { from: 3 })
        );
        assert!(
            decide(molkky(4, &[3, 4, 5, 7])).is_err(),
            "same revision, other actions"
        );
        let mut other = molkky(9, &[3]);
        other["sides"] = json!([["A"], ["C"]]);
        assert!(decide(other).is_err(), "another setup");
    }

    #[test]
    fn the_served_record_keeps_times_trims_names_and_carries_its_table() {
        let mut v = molkky(9, &[12, 1, 12, 1, 12, 1, 12, 1, 2]);
        v["tournament"] = json!({"id": "t", "round": 1, "table": 0});
        let m = IncomingMatch::read(&v).unwrap();
        let served = m.served();
        assert_eq!(served["sides"], json!([["A"], ["B"]]));
        assert_eq!(served["actions"][0]["at"], "2026-01-01T00:00:00.000Z");
        assert_eq!(
            served["tournament"],
            json!({"id": "t", "round": 1, "table": 0})
        );
        assert!(served["finished_at"].is_string());
        let event = m.result_event().unwrap();
        assert_eq!(event["result"]["winner"], 0);
        assert_eq!(event["result"]["match"], "m");
    }

    #[test]
    fn a_tournament_from_a_device_needs_a_higher_revision() {
        let setup = json!({"game": "molkky", "system": "round_robin",
                           "entrants": [["P0"], ["P1"], ["P2"], ["P3"]]});
        let t = |revision: i64, events: Value| {
            IncomingTournament::read(&json!({"format": 1, "id": "t", "revision": revision,
                                             "tournament": setup, "events": events}))
            .unwrap()
        };
        let held = t(1, json!([{"pair": {}}]));
        let decide = |x: IncomingTournament, s| decide_tournament(&held.record, 1, &x, s);
        assert_eq!(
            decide(t(1, json!([{"pair": {}}])), Source::Device),
            Ok(Decision::Already)
        );
        assert_eq!(
            decide(t(0, json!([])), Source::Device),
            Ok(Decision::Already)
        );
        assert!(decide(t(1, json!([])), Source::Device).is_err());
        assert_eq!(
            decide(t(0, json!([])), Source::Hub),
            Ok(Decision::Replace { from: 0 })
        );
        // A newer revision from a device carries on from the events held, or is refused: a
        // device does not take the hub's events back.
        let on = json!([{"pair": {}}, {"result": {"round": 1, "table": 0, "winner": 0, "scores": [1, 0]}}]);
        assert_eq!(
            decide(t(2, on), Source::Device),
            Ok(Decision::Replace { from: 1 })
        );
        assert!(decide(t(2, json!([])), Source::Device).is_err());
        assert!(decide(t(2, json!([{"withdraw": 0}])), Source::Device).is_err());
        assert_eq!(
            decide(t(2, json!([{"pair": {}}])), Source::Device),
            Ok(Decision::Replace { from: 1 })
        );
    }
}
