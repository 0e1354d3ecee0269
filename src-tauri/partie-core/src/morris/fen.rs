//! A position in one line of text, the project's own FEN (`docs/uci.md`), for the engine
//! protocol's `position fen` and its `d` command:
//!
//! ```text
//! a1,d6,g7/b4,f2 b 6/7 0 0
//! ```
//!
//! Five fields, separated by spaces: the first side's points and the second's (the spec's
//! point names, `-` for none), the side to act (`w` for the first, `b` for the second), the
//! pieces each still has in hand, the removals the side to act owes, and the move tokens since
//! the moving phase began or the last removal (for the quiet-move draw). A sixth field, written
//! only under `same_mill` `"once"`, lists the lines that have given each side a removal, each
//! line as its points joined by `-` (`a1-a4-a7,d5-d6-d7/-`). The rules themselves are not in
//! the FEN (the protocol's options set them), nor the positions before it (repetition counts
//! from the FEN on).

use super::board::{point, Geometry, POINTS};
use super::position::{Parts, Position};
use super::rules::{MorrisRules, SameMill};

/// The start position's FEN with `pieces` each.
pub fn start(pieces: u8) -> String {
    format!("-/- w {pieces}/{pieces} 0 0")
}

fn points(mask: u32) -> String {
    let names: Vec<&str> = (0..24)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| POINTS[i])
        .collect();
    if names.is_empty() {
        "-".into()
    } else {
        names.join(",")
    }
}

fn lines(g: &Geometry, used: u32) -> String {
    let names: Vec<String> = g
        .lines
        .iter()
        .enumerate()
        .filter(|(i, _)| used & (1 << i) != 0)
        .map(|(_, &l)| points(l).replace(',', "-"))
        .collect();
    if names.is_empty() {
        "-".into()
    } else {
        names.join(",")
    }
}

/// The FEN of `pos`.
pub fn write(pos: &Position) -> String {
    let p = pos.parts();
    let mut out = format!(
        "{}/{} {} {}/{} {} {}",
        points(p.board[0]),
        points(p.board[1]),
        if p.turn == 0 { "w" } else { "b" },
        p.in_hand[0],
        p.in_hand[1],
        p.pending,
        p.quiet
    );
    if pos.rules().same_mill == SameMill::Once {
        let g = Geometry::get(pos.rules().diagonals);
        out += &format!(" {}/{}", lines(g, p.used[0]), lines(g, p.used[1]));
    }
    out
}

/// Splits `a/b` into its two halves.
fn pair<'a>(field: &'a str, what: &str) -> Result<(&'a str, &'a str), String> {
    field
        .split_once('/')
        .ok_or_else(|| format!("{what} is two halves joined by '/', not {field:?}"))
}

/// A list of points (`-` for none) as a mask; each point once.
fn read_points(list: &str) -> Result<u32, String> {
    if list == "-" {
        return Ok(0);
    }
    let mut mask = 0u32;
    for name in list.split(',') {
        let p = point(name).ok_or_else(|| format!("{name:?} is not a point"))?;
        if mask & (1 << p) != 0 {
            return Err(format!("{name} is given twice"));
        }
        mask |= 1 << p;
    }
    Ok(mask)
}

fn read_lines(g: &Geometry, list: &str) -> Result<u32, String> {
    if list == "-" {
        return Ok(0);
    }
    let mut used = 0;
    for name in list.split(',') {
        let mask = read_points(&name.replace('-', ","))?;
        let i = g
            .lines
            .iter()
            .position(|&l| l == mask)
            .ok_or_else(|| format!("{name} is not a line of this board"))?;
        used |= 1 << i;
    }
    Ok(used)
}

fn number<T: std::str::FromStr>(field: &str, what: &str) -> Result<T, String> {
    field
        .parse()
        .map_err(|_| format!("{what} is a number, not {field:?}"))
}

/// The position a FEN describes under `rules`, or why it is not one.
pub fn read(rules: MorrisRules, text: &str) -> Result<Position, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(5..=6).contains(&fields.len()) {
        return Err(format!(
            "a FEN has 5 fields (6 with the mills used), not {}: {text:?}",
            fields.len()
        ));
    }
    let (white, black) = pair(fields[0], "the board")?;
    let board = [read_points(white)?, read_points(black)?];
    let turn = match fields[1] {
        "w" => 0,
        "b" => 1,
        other => return Err(format!("the side to act is w or b, not {other:?}")),
    };
    let (a, b) = pair(fields[2], "the pieces in hand")?;
    let in_hand = [number(a, "a count")?, number(b, "a count")?];
    let pending = number(fields[3], "the removals owed")?;
    let quiet = number(fields[4], "the quiet move count")?;
    let mut used = [0, 0];
    if let Some(field) = fields.get(5) {
        // Under the other rule the lines used change nothing: taken, they made the position
        // another than the same one reached by play, and `d` wrote a FEN without them.
        if rules.same_mill != SameMill::Once {
            return Err(format!(
                "the mills used ({field:?}) are a FEN's sixth field only under SameMill once"
            ));
        }
        let g = Geometry::get(rules.diagonals);
        let (a, b) = pair(field, "the mills used")?;
        used = [read_lines(g, a)?, read_lines(g, b)?];
    }
    Position::from_parts(
        rules,
        Parts {
            board,
            in_hand,
            turn,
            pending,
            quiet,
            used,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::morris::position::Token;

    #[test]
    fn the_start_reads_as_the_start_and_writes_back() {
        let rules = MorrisRules::default();
        let start = Position::start(rules);
        assert_eq!(write(&start), super::start(9));
        assert_eq!(read(rules, &super::start(9)), Ok(start));
    }

    #[test]
    fn a_position_with_a_removal_due_writes_and_reads_back() {
        let rules = MorrisRules::default();
        let mut pos = Position::start(rules);
        for t in ["a1", "b2", "a4", "b4", "a7"] {
            pos = pos.after(Token::parse(t).unwrap());
        }
        let fen = write(&pos);
        assert_eq!(fen, "a1,a4,a7/b2,b4 w 6/7 1 0");
        assert_eq!(read(rules, &fen), Ok(pos));
    }

    #[test]
    fn wrong_fens_say_why() {
        let rules = MorrisRules::default();
        for bad in [
            "",
            "-/- w 9/9 0",
            "a1,a1/- b 8/9 0 0",
            "a1/a1 b 8/9 0 0",
            "z9/- b 8/9 0 0",
            "a1/- x 8/9 0 0",
            "a1/- w 8/9 0 0",
            "-/- w 10/10 0 0",
            "a1/b2 w 8/8 1 0",
            "-/- w 9/9 0 3",
            // The mills used under the default rule, where they change nothing.
            "a1,a4,a7/b2,b4 w 6/7 1 0 a1-a4-a7/-",
        ] {
            assert!(read(rules, bad).is_err(), "{bad:?} was read");
        }
    }
}
