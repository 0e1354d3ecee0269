//! The move list written for people (`1. d6 f4 2. a1-a4xb4 ... 1-0`): a turn joins a placement
//! or move with the removals it earns. The app and `partie` export a game this way and import it
//! back into atomic tokens.

use crate::error::Error;

/// Joins atomic tokens into turns: each placement or move, followed by its removals.
pub fn turns<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in tokens {
        match out.last_mut() {
            Some(last) if t.starts_with('x') => last.push_str(t),
            _ => out.push(t.to_string()),
        }
    }
    out
}

/// The numbered move list, with the result when the game is over (`"1-0"`, `"0-1"`,
/// `"1/2-1/2"`). Side 0 moves first, so turn pairs are numbered from 1.
pub fn move_list(turns: &[String], result: Option<&str>) -> String {
    let mut out = String::new();
    for (i, pair) in turns.chunks(2).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("{}. {}", i + 1, pair.join(" ")));
    }
    if let Some(r) = result {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(r);
    }
    out
}

/// What an imported move list says: its atomic tokens and the result written at its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveList {
    /// Atomic tokens in order.
    pub tokens: Vec<String>,
    /// `"1-0"`, `"0-1"`, `"1/2-1/2"` when given.
    pub result: Option<String>,
}

fn not_a_move(word: &str) -> Error {
    Error::bad_record(format!("{word:?} is not a Morris move"))
        .with_code("not_a_move")
        .with_subject(word)
}

/// `word` without the move number it starts with (`12.`, `12...`, `12.d6`), if any. Digits
/// that no dot follows are the word's own (`7a1` is not a move, and stays so, to be refused).
fn without_number(word: &str) -> &str {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() < word.len() && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        word
    }
}

/// Reads a move list: move numbers (`12.`) are skipped, `a1-a4xb4` splits into `a1-a4` and
/// `xb4`. Checking the tokens against the rules is the replay's job; this refuses only text
/// that is not a move list (`bad_record`).
pub fn parse(text: &str) -> Result<MoveList, Error> {
    let mut tokens = Vec::new();
    let mut result = None;
    for word in text.split_whitespace() {
        if result.is_some() {
            return Err(Error::bad_record(format!("{word:?} after the result"))
                .with_code("after_result")
                .with_subject(word));
        }
        let word = without_number(word);
        if word.is_empty() {
            continue;
        }
        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "½-½") {
            result = Some(if word == "½-½" { "1/2-1/2" } else { word }.to_string());
            continue;
        }
        let mut parts = word.split('x');
        let first = parts.next().unwrap_or_default();
        if !first.is_empty() {
            tokens.push(first.to_string());
        }
        for removal in parts {
            if removal.is_empty() {
                return Err(not_a_move(word));
            }
            tokens.push(format!("x{removal}"));
        }
        if !word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(not_a_move(word));
        }
    }
    Ok(MoveList { tokens, result })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removals_join_their_move_and_turns_are_numbered() {
        let t = turns(["d6", "f4", "a1-a4", "xb4", "g7"]);
        assert_eq!(t, ["d6", "f4", "a1-a4xb4", "g7"]);
        assert_eq!(move_list(&t, Some("1-0")), "1. d6 f4 2. a1-a4xb4 g7 1-0");
        assert_eq!(move_list(&[], None), "");
    }

    #[test]
    fn a_move_list_reads_back_into_atomic_tokens() {
        let m = parse("1. d6 f4 2. a1-a4xb4 a7xd6xf4 1/2-1/2").unwrap();
        assert_eq!(m.tokens, ["d6", "f4", "a1-a4", "xb4", "a7", "xd6", "xf4"]);
        assert_eq!(m.result.as_deref(), Some("1/2-1/2"));
        assert!(parse("1. d6 <script>").is_err());
        assert!(parse("1-0 d6").is_err());
        assert!(parse("d6x").is_err());
    }
}
