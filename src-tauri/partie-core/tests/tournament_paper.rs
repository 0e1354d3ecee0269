//! Tournament paper: the pairings with a score sheet for every table and the standings, as
//! PDF files. Each file is read back with `lopdf` (a PDF reader of its own, so a file it cannot
//! parse fails here) and its text is checked: every entrant's name with its accents, the round,
//! the table numbers, every figure of the standings, the French labels in French.

use partie_core::tournament::paper::{pairings_pdf, standings_pdf, Lang};
use partie_core::tournament::{replay, Tournament};
use serde_json::{json, Value};

/// Each page's text: one line per piece of text the PDF shows.
fn pages(pdf: &[u8]) -> Vec<Vec<String>> {
    assert!(pdf.starts_with(b"%PDF-"), "not a PDF");
    let doc = lopdf::Document::load_mem(pdf).expect("the PDF parses");
    doc.get_pages()
        .into_iter()
        .map(|(n, id)| {
            // A4, in points.
            let page = doc.get_dictionary(id).expect("a page");
            let media = page.get(b"MediaBox").expect("a media box");
            let sizes: Vec<f32> = media
                .as_array()
                .expect("an array")
                .iter()
                .map(|v| v.as_float().expect("a number"))
                .collect();
            assert_eq!(sizes, [0.0, 0.0, 595.28, 841.89], "page {n} is A4");
            // Every piece of text starts on the page, inside the printable area.
            let content = doc.get_page_content(id);
            let content = lopdf::content::Content::decode(&content).expect("it decodes");
            for op in content.operations.iter().filter(|op| op.operator == "Td") {
                let xy: Vec<f32> = op.operands.iter().map(|o| o.as_float().unwrap()).collect();
                assert!(
                    (30.0..560.0).contains(&xy[0]) && (20.0..815.0).contains(&xy[1]),
                    "page {n}: text at {xy:?}"
                );
            }
            let text = doc.extract_text(&[n]).expect("the text extracts");
            text.lines().map(|l| l.trim().to_string()).collect()
        })
        .collect()
}

fn lines(pdf: &[u8]) -> Vec<String> {
    pages(pdf).concat()
}

/// The expected lines not found among `lines`.
fn missing<'a>(lines: &[String], expected: &[&'a str]) -> Vec<&'a str> {
    expected
        .iter()
        .filter(|e| !lines.iter().any(|l| l == *e))
        .copied()
        .collect()
}

#[track_caller]
fn assert_has(lines: &[String], expected: &[&str]) {
    let gone = missing(lines, expected);
    assert!(gone.is_empty(), "missing {gone:?} in {lines:#?}");
}

/// Where `line` is, after `from`.
#[track_caller]
fn find(lines: &[String], from: usize, line: &str) -> usize {
    from + lines[from..]
        .iter()
        .position(|l| l == line)
        .unwrap_or_else(|| panic!("no {line:?} after line {from} in {lines:#?}"))
}

/// A Swiss Crokinole night: six entrants, one a team, accents everywhere; one board, so the
/// matches of a round play in waves. Round 1 played (a win, a draw, a win), François withdrew,
/// round 2 paired: two matches and a bye.
fn crokinole() -> Tournament {
    let setup = json!({
        "game": "crokinole", "system": "swiss", "rounds": 3, "boards": 1,
        "entrants": [["Zoé"], ["Jürgen Groß"], ["Ana", "Ñuño"], ["François"], ["Björk"], ["Søren"]]
    });
    let mut events: Vec<Value> = vec![json!({"pair": {}})];
    let t = replay(&setup, &events).unwrap();
    let round = &t.field().rounds[0];
    assert_eq!(round.matches.len(), 3);
    let results = [
        json!({"winner": 0, "scores": [6, 2], "twenties": [5, 1]}),
        json!({"winner": null, "scores": [4, 4], "twenties": [2, 3]}),
        json!({"winner": 1, "scores": [0, 8], "twenties": [0, 7]}),
    ];
    for (m, r) in round.matches.iter().zip(results) {
        let mut r = r.as_object().unwrap().clone();
        r.insert("round".into(), 1.into());
        r.insert("table".into(), m.table.into());
        events.push(json!({ "result": r }));
    }
    events.push(json!({"withdraw": 3}));
    events.push(json!({"pair": {}}));
    replay(&setup, &events).unwrap()
}

/// A round robin of Mölkky, best of 3, one result in.
fn molkky() -> Tournament {
    let setup = json!({
        "game": "molkky", "system": "round_robin", "rules": {"best_of": 3},
        "entrants": [["Élodie"], ["Ömer"], ["Iñaki", "Søren"], ["Łukasz"]]
    });
    let events = [
        json!({"pair": {}}),
        json!({"result": {"round": 1, "table": 0, "winner": 1, "scores": [1, 2]}}),
    ];
    replay(&setup, &events).unwrap()
}

#[test]
fn the_pairings_show_the_round_every_table_its_board_and_wave_and_the_bye() {
    let t = crokinole();
    let round = t.field().rounds.last().unwrap();
    assert_eq!(
        (t.round(), round.matches.len(), round.byes.len()),
        (2, 2, 1)
    );
    let pdf = pairings_pdf(&t, Lang::En);
    let pages = pages(&pdf);
    // The list of tables, then both sheets on one page (half a page each).
    assert_eq!(pages.len(), 2, "{pages:#?}");
    let all = pages.concat();
    assert_has(
        &all,
        &[
            "Crokinole — Round 2 of 3",
            "Pairings · Swiss · 6 entrants",
            "Table 1",
            "Table 2",
            "Board 1 · wave 1",
            "Board 1 · wave 2",
            "Bye:",
        ],
    );
    let names: Vec<String> = (0..6).map(|e| t.field().name(e)).collect();
    // Everyone who plays, and the bye, by name (with accents); the team's players joined.
    for m in &round.matches {
        for e in m.sides {
            assert_has(&all, &[names[e].as_str()]);
        }
    }
    assert_has(&all, &[names[round.byes[0].entrant].as_str()]);
    assert!(names.contains(&"Ana & Ñuño".to_string()));

    // Each sheet: its table, its board, its two sides in order, then the grid and the result.
    let sheets = &pages[1];
    for (i, m) in round.matches.iter().enumerate() {
        let at = find(sheets, 0, &format!("Table {}", m.table + 1));
        let board = find(sheets, at, &format!("Board 1 · wave {}", i + 1));
        let a = find(sheets, board, &names[m.sides[0]]);
        let b = find(sheets, a, &names[m.sides[1]]);
        assert!(b == a + 2, "side 1, vs, side 2: {sheets:#?}");
        let grid = find(sheets, b, "Game pts");
        // One row per round of the match rules (4), then the totals.
        let mut at = grid;
        for r in ["1", "2", "3", "4", "Total"] {
            at = find(sheets, at, r);
        }
        let winner = find(sheets, at, "Winner");
        find(sheets, winner, "Draw");
        find(sheets, winner, "20s");
        find(
            sheets,
            winner,
            &format!("Signature — {}", names[m.sides[0]]),
        );
        find(
            sheets,
            winner,
            &format!("Signature — {}", names[m.sides[1]]),
        );
    }
    assert_has(
        &all,
        &["Each round: 2 game points to the side with more points, 1 each on a tie."],
    );
    // Nobody else: the text is really the tournament's.
    assert_eq!(
        missing(&all, &["Nobody", "Round 3 of 3"]),
        ["Nobody", "Round 3 of 3"]
    );
    assert_has(&all, &["Partie · Page 1 of 2", "Partie · Page 2 of 2"]);
}

#[test]
fn the_pairings_in_french() {
    let t = crokinole();
    let all = lines(&pairings_pdf(&t, Lang::Fr));
    assert_has(
        &all,
        &[
            "Crokinole — Ronde 2 sur 3",
            "Appariements · Système suisse · 6 inscrits",
            "Table 1",
            "Table 2",
            "Planche 1 · vague 1",
            "Planche 1 · vague 2",
            "Exempt :",
            "contre",
            "Tour",
            "Pts partie",
            "20",
            "Vainqueur",
            "Nul",
            "Partie · Page 1 sur 2",
        ],
    );
    assert_has(
        &all,
        &["Chaque tour : 2 points de partie au camp qui a le plus de points, 1 chacun à égalité."],
    );
    assert_eq!(
        missing(&all, &["Winner", "Board 1 · wave 1"]).len(),
        2,
        "no English left"
    );
}

#[test]
fn a_molkky_sheet_has_a_grid_of_throws_for_each_leg() {
    let t = molkky();
    let pdf = pairings_pdf(&t, Lang::En);
    let pages = pages(&pdf);
    // The list, then one page per table still to play: table 1's result is in, and it has no
    // sheet (paper printed for nothing).
    assert_eq!(pages.len(), 2, "{pages:#?}");
    let all = pages.concat();
    assert_has(
        &all,
        &[
            "Mölkky — Round 1 of 3",
            "Pairings · Round robin · 4 entrants",
            // Mölkky is played on courts, not boards: the list's column and the sheet say so.
            "Court",
            "Court 2",
            "1 – 2",
            "Exactly 50; over it: back to 25; 3 misses in a row: out. Best of 3 games.",
            "Write the points of each throw (a miss: 0) and the running total.",
            "Games won",
        ],
    );
    for (e, name) in ["Élodie", "Ömer", "Iñaki & Søren", "Lukasz"]
        .iter()
        .enumerate()
    {
        assert_eq!(t.field().name(e).replace('Ł', "L"), *name);
        assert_has(&all, &[name]);
    }
    for (p, sheet) in pages[1..].iter().enumerate() {
        assert_has(sheet, &[&format!("Table {}", p + 2)]);
        assert_eq!(missing(sheet, &["Table 1"]), ["Table 1"]);
        let mut at = 0;
        for leg in 1..=3 {
            at = find(sheet, at, &format!("Game {leg}"));
            let points = find(sheet, at, "Points");
            let total = find(sheet, points, "Total");
            // Numbered throws, at least 15 of them in each leg.
            let mut row = total;
            for n in 1..=15 {
                row = find(sheet, row, &n.to_string());
            }
        }
        assert_eq!(missing(sheet, &["Game 4"]), ["Game 4"]);
        // A Mölkky match always has a winner: nothing to tick for a draw.
        assert_eq!(missing(sheet, &["Winner", "Draw"]), ["Draw"]);
    }
    let fr = lines(&pairings_pdf(&t, Lang::Fr));
    assert_has(
        &fr,
        &[
            "Mölkky — Ronde 1 sur 3",
            "Terrain",
            "Terrain 2",
            "Manche 1",
            "Manche 3",
            "Manches gagnées",
            "50 pile ; au-delà : retour à 25 ; 3 lancers manqués de suite : éliminé. Au meilleur des 3 manches.",
        ],
    );
    assert_eq!(missing(&all, &["Board 2"]), ["Board 2"]);
}

/// A Mölkky match of one leg says so on its sheet, not "best of 1".
#[test]
fn a_one_leg_molkky_sheet_says_one_leg() {
    let setup = json!({"game": "molkky", "system": "round_robin", "rules": {"best_of": 1},
                       "entrants": [["Anna"], ["Bea"]]});
    let t = replay(&setup, &[json!({"pair": {}})]).unwrap();
    let en = lines(&pairings_pdf(&t, Lang::En));
    assert_has(
        &en,
        &["Exactly 50; over it: back to 25; 3 misses in a row: out. One game."],
    );
    let fr = lines(&pairings_pdf(&t, Lang::Fr));
    assert_has(
        &fr,
        &["50 pile ; au-delà : retour à 25 ; 3 lancers manqués de suite : éliminé. En une manche."],
    );
}

/// The figures of a line of the standings as printed, in the columns' order.
fn printed(t: &Tournament, s: &partie_core::tournament::Standing) -> Vec<String> {
    let f = &s.figures;
    let diff = if f.score_diff > 0 {
        format!("+{}", f.score_diff)
    } else {
        f.score_diff.to_string()
    };
    let mut v = if t.game() == "crokinole" {
        vec![
            f.game_points.to_string(),
            f.match_points.to_string(),
            f.twenties.to_string(),
            diff,
        ]
    } else {
        vec![f.match_points.to_string(), f.game_points.to_string(), diff]
    };
    v.extend([f.buchholz, f.played, f.wins, f.draws, f.losses, f.byes].map(|n| n.to_string()));
    v
}

#[track_caller]
fn check_standings(t: &Tournament, all: &[String], withdrawn: &str) {
    let standings = t.standings();
    let mut at = 0;
    for s in &standings {
        // The rank, the name, the withdrawn mark if any, then every figure in order.
        at = find(all, at, &s.rank.to_string());
        // Ł has no WinAnsi code: it prints as L.
        assert_eq!(
            all[at + 1],
            s.name.replace('Ł', "L"),
            "rank {} at line {at}: {all:#?}",
            s.rank
        );
        let mut next = at + 2;
        if s.figures.withdrawn {
            assert_eq!(all[next], withdrawn);
            next += 1;
        }
        let figures = printed(t, s);
        assert_eq!(all[next..next + figures.len()], figures[..], "{}", s.name);
        at = next + figures.len();
    }
}

#[test]
fn the_standings_print_every_figure_of_every_entrant() {
    let t = crokinole();
    let standings = t.standings();
    assert!(standings.iter().any(|s| s.figures.withdrawn));
    assert!(standings
        .iter()
        .any(|s| s.figures.byes == 0 && s.figures.draws == 1));
    let en = lines(&standings_pdf(&t, Lang::En));
    assert_has(
        &en,
        &[
            "Crokinole — Standings",
            "Round 2 of 3 in progress: 0 of 2 results in · Swiss · 6 entrants",
            "#",
            "Entrant",
            "GP",
            "MP",
            "20s",
            "±",
            "Bu",
            "P",
            "W",
            "D",
            "L",
            "Bye",
        ],
    );
    check_standings(&t, &en, "withdrawn");
    assert!(en
        .iter()
        .any(|l| l.starts_with("GP: game points · MP: match points")));
    assert!(en
        .iter()
        .any(|l| l
            == "Ranked by: game points, match points, twenties, head-to-head, then seed order."));

    let fr = lines(&standings_pdf(&t, Lang::Fr));
    assert_has(
        &fr,
        &[
            "Crokinole — Classement",
            "Ronde 2 sur 3 en cours : 0 résultat sur 2 · Système suisse · 6 inscrits",
            "Inscrit",
            "PJ",
            "PM",
            "20",
            "±",
            "Bu",
            "J",
            "G",
            "N",
            "P",
            "Ex",
        ],
    );
    check_standings(&t, &fr, "retiré");
    assert!(fr
        .iter()
        .any(|l| l.starts_with("Classement par : points de jeu, points de match, vingts")));

    // Mölkky shows no 20s; a finished tournament names its champion.
    let m = molkky();
    let en = lines(&standings_pdf(&m, Lang::En));
    check_standings(&m, &en, "withdrawn");
    assert_eq!(missing(&en, &["20s"]), ["20s"]);
}

#[test]
fn a_finished_tournament_prints_its_final_standings_and_champion() {
    let setup = json!({"game": "morris", "system": "round_robin",
                       "entrants": [["Zoé"], ["Jürgen"], ["Ana", "Ñuño"]]});
    let t = finished(&setup, [7, 3]);
    let champion = t.field().name(t.champion().unwrap());
    let en = lines(&standings_pdf(&t, Lang::En));
    assert_has(
        &en,
        &[
            "Nine Men’s Morris — Final standings",
            &format!("Champion: {champion}"),
            "After round 3 of 3 · Round robin · 3 entrants",
        ],
    );
    check_standings(&t, &en, "withdrawn");
    let fr = lines(&standings_pdf(&t, Lang::Fr));
    assert_has(
        &fr,
        &[
            "Jeu du moulin — Classement final",
            &format!("Vainqueur du tournoi : {champion}"),
        ],
    );
    // A Morris sheet is a result box: the winner, pieces taken, signatures.
    let setup = json!({"game": "morris", "system": "round_robin",
                       "entrants": [["Zoé"], ["Jürgen"]]});
    let t = replay(&setup, &[json!({"pair": {}})]).unwrap();
    let sheet = lines(&pairings_pdf(&t, Lang::En));
    assert_has(
        &sheet,
        &[
            "Winner",
            "Draw",
            "Pieces taken",
            "Signature — Zoé",
            "Signature — Jürgen",
        ],
    );
    let fr = lines(&pairings_pdf(&t, Lang::Fr));
    assert_has(&fr, &["Vainqueur", "Nul", "Pions pris", "Signature — Zoé"]);
}

#[test]
fn names_outside_win_ansi_print_something_sensible_and_never_panic() {
    let setup = json!({"game": "boulomania", "system": "swiss",
                       "entrants": [["Łucja Świątek"], ["Nguyễn"], ["東京"], ["Zoë 🎯"],
                                    ["Ｆｕｌｌ"], ["Ana\u{0301}"]]});
    let t = replay(&setup, &[json!({"pair": {}})]).unwrap();
    for pdf in [pairings_pdf(&t, Lang::En), standings_pdf(&t, Lang::Fr)] {
        let all = lines(&pdf);
        // Folded to the base letter, or "?" with the seed number to tell who it is.
        assert_has(
            &all,
            &[
                "Lucja Swiatek",
                "Nguyên",
                "?? (#3)",
                "Zoë ? (#4)",
                "???? (#5)",
                "Aná",
            ],
        );
    }
}

#[test]
fn before_the_first_round_there_is_nothing_to_pair_yet() {
    let setup = json!({"game": "molkky", "system": "swiss",
                       "entrants": [["Zoé"], ["Jürgen"]]});
    let t = replay(&setup, &[]).unwrap();
    let pairings = lines(&pairings_pdf(&t, Lang::En));
    assert_has(
        &pairings,
        &["Mölkky — Pairings", "No round has been paired yet."],
    );
    let standings = lines(&standings_pdf(&t, Lang::Fr));
    assert_has(&standings, &["Zoé", "Jürgen"]);
    assert!(standings[1].starts_with("Inscriptions : aucune ronde jouée"));
}

#[test]
fn a_long_field_runs_over_several_pages_with_the_header_on_each() {
    let entrants: Vec<Value> = (1..=90).map(|i| json!([format!("Joueur n°{i}")])).collect();
    let setup = json!({"game": "crokinole", "system": "swiss", "entrants": entrants});
    let t = replay(&setup, &[json!({"pair": {}})]).unwrap();
    let standings = pages(&standings_pdf(&t, Lang::En));
    assert!(standings.len() >= 3, "{}", standings.len());
    for page in &standings {
        assert_has(page, &["Entrant", "GP"]);
    }
    check_standings(&t, &standings.concat(), "withdrawn");
    // 45 tables: the list runs over two pages, then 23 pages of two sheets.
    let pairings = pages(&pairings_pdf(&t, Lang::En));
    assert_eq!(pairings.len(), 2 + 23);
    let all = pairings.concat();
    for e in 0..90 {
        assert_has(&all, &[t.field().name(e).as_str()]);
    }
    assert_has(&all, &["Table 45"]);
}

#[test]
fn the_same_tournament_gives_the_same_bytes_and_the_command_line_writes_them() {
    let t = crokinole();
    assert_eq!(pairings_pdf(&t, Lang::En), pairings_pdf(&t, Lang::En));
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("night.json");
    let setup = json!({
        "game": "crokinole", "system": "swiss", "rounds": 3, "boards": 1,
        "entrants": [["Zoé"], ["Jürgen Groß"], ["Ana", "Ñuño"], ["François"], ["Björk"]]
    });
    std::fs::write(
        &record,
        json!({"format": 1, "tournament": setup, "events": [{"pair": {}}]}).to_string(),
    )
    .unwrap();
    let out = dir.path().join("pairings.pdf");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_partie"))
            .arg("tournament")
            .arg(&record)
            .args(args)
            .output()
            .unwrap()
    };
    let done = run(&["--pdf", "pairings", out.to_str().unwrap(), "--lang", "fr"]);
    assert!(done.status.success(), "{done:?}");
    let t = replay(&setup, &[json!({"pair": {}})]).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), pairings_pdf(&t, Lang::Fr));
    let standings = dir.path().join("standings.pdf");
    let done = run(&["--pdf", "standings", standings.to_str().unwrap()]);
    assert!(done.status.success(), "{done:?}");
    assert_eq!(
        std::fs::read(&standings).unwrap(),
        standings_pdf(&t, Lang::En)
    );
    // Refused: an unknown paper, a missing file name, an unknown language.
    for args in [
        &["--pdf", "bracket", "x.pdf"][..],
        &["--pdf", "pairings"][..],
        &["--pdf", "pairings", "x.pdf", "--lang", "de"][..],
    ] {
        let done = run(args);
        assert_eq!(done.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&done.stdout).starts_with("bad_action:"));
    }
}

#[test]
fn the_checks_fail_when_a_name_is_missing() {
    let all = lines(&pairings_pdf(&crokinole(), Lang::En));
    assert_eq!(missing(&all, &["Zoé", "Zoe", "Nobody"]), ["Zoe", "Nobody"]);
    let caught = std::panic::catch_unwind(|| assert_has(&all, &["Nobody"]));
    assert!(caught.is_err());
}

#[test]
fn while_the_pools_play_the_standings_print_pool_by_pool_each_ranked_within_itself() {
    // Six entrants in two pools of three (snake seeding: 0, 3, 4 and 1, 2, 5); round 1 played.
    let names = ["Anna", "Bea", "Cyril", "Dora", "Émile", "Farid"];
    let setup = json!({"game": "molkky", "system": "pools_knockout", "pool_size": 3,
                       "entrants": names.map(|n| json!([n]))});
    let mut events = vec![json!({"pair": {}})];
    let t = replay(&setup, &events).unwrap();
    for p in t.summary()["pairings"].as_array().unwrap() {
        events.push(
            json!({"result": {"round": 1, "table": p["table"], "winner": 1, "scores": [10, 50]}}),
        );
    }
    let t = replay(&setup, &events).unwrap();
    let s = t.summary();
    let pools = s["pools"].as_array().unwrap().clone();
    assert_eq!(pools.len(), 2);
    for (lang, word) in [(Lang::En, "Pool"), (Lang::Fr, "Poule")] {
        let all = lines(&standings_pdf(&t, lang));
        let a = find(&all, 0, &format!("{word} A"));
        let b = find(&all, a, &format!("{word} B"));
        // Under each head, that pool's entrants in the field's order, ranked from 1.
        for (pool, (from, to)) in pools.iter().zip([(a, b), (b, all.len())]) {
            let mut rank = 0;
            let mut at = from;
            for r in s["standings"].as_array().unwrap() {
                if !pool.as_array().unwrap().contains(&r["entrant"]) {
                    continue;
                }
                rank += 1;
                at = find(&all, at, r["name"].as_str().unwrap());
                assert!(at < to, "{word}: {} out of its pool: {all:#?}", r["name"]);
                assert_eq!(all[at - 1], rank.to_string(), "{all:#?}");
            }
            assert_eq!(rank, 3);
        }
    }
    // The round's list of tables goes pool by pool too: each pool's head, then its tables.
    let pairings = pages(&pairings_pdf(
        &replay(&setup, &events[..1]).unwrap(),
        Lang::Fr,
    ));
    let list = &pairings[0];
    let a = find(list, 0, "Poule A");
    let b = find(list, a, "Poule B");
    for (pool, (from, to)) in pools.iter().zip([(a, b), (b, list.len())]) {
        let pool = pool.as_array().unwrap();
        let played = s["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| pool.contains(&p["sides"][0]));
        for p in played {
            let at = find(list, from, &(p["table"].as_u64().unwrap() + 1).to_string());
            assert!(
                at < to,
                "table {} under another pool: {list:#?}",
                p["table"]
            );
        }
    }
    // A pool of three has a bye each round: each bye line names the pool it is in.
    let byes = s["bye"].as_array().unwrap();
    assert_eq!(byes.len(), 2, "{s}");
    for e in byes {
        let e = e.as_u64().unwrap() as usize;
        let pool = pools
            .iter()
            .position(|x| x.as_array().unwrap().contains(&json!(e)));
        let letter = ["A", "B"][pool.unwrap()];
        find(list, b, &format!("{} (Poule {letter})", names[e]));
    }
    // Each table's score sheet names its pool before the round.
    let sheets = pairings[1..].concat();
    for p in s["pairings"].as_array().unwrap() {
        let at = find(
            &sheets,
            0,
            &format!("Table {}", p["table"].as_u64().unwrap() + 1),
        );
        let pool = pools
            .iter()
            .position(|x| x.as_array().unwrap().contains(&p["sides"][0]));
        let letter = ["A", "B"][pool.unwrap()];
        assert_eq!(
            sheets[at + 2],
            format!("Poule {letter} · Mölkky · Ronde 1 sur 5 · Feuille de match"),
            "{sheets:#?}"
        );
    }
    // Once the knockouts are drawn, the field is one table again.
    let mut rest = events.clone();
    let mut t = t;
    while t.summary()["bracket"]["main"]
        .as_array()
        .unwrap()
        .is_empty()
    {
        rest.push(json!({"pair": {}}));
        t = replay(&setup, &rest).unwrap();
        let round = t.summary()["round"].clone();
        for p in t.summary()["pairings"].as_array().unwrap() {
            rest.push(json!({"result": {"round": round, "table": p["table"], "winner": 0, "scores": [50, 10]}}));
        }
        t = replay(&setup, &rest).unwrap();
    }
    let all = lines(&standings_pdf(&t, Lang::En));
    assert!(!all.iter().any(|l| l.starts_with("Pool ")), "{all:#?}");
    check_standings(&t, &all, "withdrawn");
    // And the round's tables say which knockout they are part of.
    let list = &pages(&pairings_pdf(&t, Lang::En))[0];
    let main = find(list, 0, "Main knockout");
    find(list, main, "Consolation");
    let list = &pages(&pairings_pdf(&t, Lang::Fr))[0];
    let main = find(list, 0, "Tableau principal");
    find(list, main, "Consolante");
}

/// Seven entrants in pools of three; Gina withdraws before the pools are dealt (three of two
/// pools), then Anna after round 1.
fn two_withdrawn_from_pools() -> Tournament {
    let names = ["Anna", "Bea", "Cyril", "Dora", "Émile", "Farid", "Gina"];
    let setup = json!({"game": "molkky", "system": "pools_knockout", "pool_size": 3,
                       "entrants": names.map(|n| json!([n]))});
    let mut events = vec![json!({"withdraw": 6}), json!({"pair": {}})];
    let t = replay(&setup, &events).unwrap();
    for p in t.summary()["pairings"].as_array().unwrap() {
        events.push(
            json!({"result": {"round": 1, "table": p["table"], "winner": 0, "scores": [50, 10]}}),
        );
    }
    events.push(json!({"withdraw": 0}));
    replay(&setup, &events).unwrap()
}

#[test]
fn the_withdrawn_print_with_no_place_in_a_pool_and_those_in_none_after_the_pools() {
    let t = two_withdrawn_from_pools();
    let all = lines(&standings_pdf(&t, Lang::En));
    let a = find(&all, 0, "Pool A");
    let anna = find(&all, a, "Anna");
    assert_eq!(all[anna - 1], "–", "no place in its pool: {all:#?}");
    assert_eq!(all[anna + 1], "withdrawn");
    // The others of pool A are ranked from 1 without her.
    let s = t.summary();
    let pool_a: Vec<&Value> = s["standings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["pool"] == 0 && r["withdrawn"] == false)
        .collect();
    for (k, r) in pool_a.iter().enumerate() {
        let at = find(&all, a, r["name"].as_str().unwrap());
        assert_eq!(all[at - 1], (k + 1).to_string(), "{all:#?}");
    }
    let out = find(&all, a, "Withdrawn");
    let gina = find(&all, out, "Gina");
    assert_eq!(all[gina - 1], "–");
    let fr = lines(&standings_pdf(&t, Lang::Fr));
    find(&fr, find(&fr, 0, "Poule B"), "Retirés");
}

#[test]
fn the_csv_says_each_entrants_pool_and_place_there_while_the_pools_play() {
    // Gina withdrew before the pools were dealt, Anna after round 1.
    let t = two_withdrawn_from_pools();
    let csv = t.standings_csv();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let (name, pool, pool_rank) = (col("name"), col("pool"), col("pool_rank"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 7);
    // Every row as the summary has it: the pool by its letters, the place from 1 among those
    // still in; nothing for a withdrawn entrant's place, nor a pool for Gina.
    let s = t.summary();
    for r in s["standings"].as_array().unwrap() {
        let row = rows
            .iter()
            .find(|c| c[name] == r["name"].as_str().unwrap())
            .unwrap();
        let letter = r["pool"].as_u64().map(|p| ["A", "B"][p as usize]);
        assert_eq!(row[pool], letter.unwrap_or(""), "{csv}");
        let rank = r["pool_rank"].as_u64().map(|k| k.to_string());
        assert_eq!(row[pool_rank], rank.as_deref().unwrap_or(""), "{csv}");
    }
    let of = |n: &str| rows.iter().find(|c| c[name] == n).unwrap();
    assert_eq!(
        (of("Anna")[pool], of("Anna")[pool_rank]),
        ("A", ""),
        "{csv}"
    );
    assert_eq!((of("Gina")[pool], of("Gina")[pool_rank]), ("", ""), "{csv}");
    for (p, places) in [("A", &["1", "2"][..]), ("B", &["1", "2", "3"][..])] {
        let mut ranks: Vec<&str> = rows
            .iter()
            .filter(|c| c[pool] == p && !c[pool_rank].is_empty())
            .map(|c| c[pool_rank])
            .collect();
        ranks.sort();
        assert_eq!(ranks, places, "pool {p}: {csv}");
    }
    // Outside the pools the two cells are there, empty, on every row.
    let swiss = replay(
        &json!({"game": "molkky", "system": "swiss", "rounds": 2,
                "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"], ["Émile"]]}),
        &[json!({"pair": {}})],
    )
    .unwrap()
    .standings_csv();
    assert!(swiss.lines().next().unwrap().ends_with(",pool,pool_rank"));
    for l in swiss.lines().skip(1) {
        assert!(l.ends_with(",,"), "{swiss}");
    }
}

#[test]
fn a_pool_cut_by_a_page_is_headed_again_on_the_next() {
    // 100 entrants in pools of six: 17 pools and their heads run over pages.
    let entrants: Vec<Value> = (1..=100).map(|i| json!([format!("Joueur {i}")])).collect();
    let setup =
        json!({"game": "molkky", "system": "pools_knockout", "pool_size": 6, "entrants": entrants});
    let t = replay(&setup, &[json!({"pair": {}})]).unwrap();
    let standings = pages(&standings_pdf(&t, Lang::En));
    assert!(standings.len() >= 3, "{}", standings.len());
    for page in &standings {
        // After the columns' header ("… L", "Bye"), the page starts with a pool's head.
        let after = find(page, 0, "Bye") + 1;
        assert!(page[after].starts_with("Pool "), "{page:#?}");
    }
    let pairings = pages(&pairings_pdf(&t, Lang::En));
    let list: Vec<&Vec<String>> = pairings
        .iter()
        .take_while(|p| p.iter().any(|l| l == "Result"))
        .collect();
    assert!(list.len() >= 2, "{}", list.len());
    for page in list {
        let after = find(page, 0, "Result") + 1;
        assert!(page[after].starts_with("Pool "), "{page:#?}");
    }
}

/// The font each piece of text of `pdf` is shown in: (text, bold).
fn fonts(pdf: &[u8]) -> Vec<(String, bool)> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let mut out = Vec::new();
    for (_, id) in doc.get_pages() {
        let fonts = doc.get_page_fonts(id).unwrap();
        let content = lopdf::content::Content::decode(&doc.get_page_content(id)).unwrap();
        let mut bold = false;
        for op in &content.operations {
            match op.operator.as_str() {
                "Tf" => {
                    let name = op.operands[0].as_name().unwrap();
                    let base = fonts[name].get(b"BaseFont").unwrap().as_name().unwrap();
                    bold = base.ends_with(b"Bold");
                }
                "Tj" => {
                    // (The names looked for are ASCII: their bytes are their letters.)
                    let bytes = op.operands[0].as_str().unwrap();
                    out.push((String::from_utf8_lossy(bytes).into_owned(), bold));
                }
                _ => {}
            }
        }
    }
    out
}

/// The round's list says a draw in words and marks each winner in bold (the scores alone do
/// not say who won: a Morris game won by a blockade with fewer pieces taken).
#[test]
fn the_list_says_a_draw_and_marks_the_winner() {
    let setup = json!({"game": "morris", "system": "round_robin",
                       "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"]]});
    let mut events = vec![json!({"pair": {}})];
    let t = replay(&setup, &events).unwrap();
    let tables: Vec<[usize; 2]> = t.field().rounds[0]
        .matches
        .iter()
        .map(|m| m.sides)
        .collect();
    events.push(json!({"result": {"round": 1, "table": 0, "winner": 0, "scores": [2, 4]}}));
    events.push(json!({"result": {"round": 1, "table": 1, "winner": null, "scores": [3, 3]}}));
    let t = replay(&setup, &events).unwrap();
    let pdf = pairings_pdf(&t, Lang::En);
    assert_has(&lines(&pdf), &["2 – 4", "3 – 3 · Draw"]);
    // A Morris board is a plateau in French (Crokinole's is a planche).
    assert_has(&lines(&pdf), &["Board"]);
    let fr = lines(&pairings_pdf(&t, Lang::Fr));
    assert_has(&fr, &["3 – 3 · Nul", "Plateau"]);
    assert_eq!(missing(&fr, &["Planche"]), ["Planche"]);
    let name = |e: usize| t.field().name(e).to_string();
    let shown = fonts(&pdf);
    let bold = |text: &str| shown.iter().find(|(s, _)| s == text).map(|(_, b)| *b);
    assert_eq!(
        bold(&name(tables[0][0])),
        Some(true),
        "the winner by blockade"
    );
    assert_eq!(bold(&name(tables[0][1])), Some(false));
    assert_eq!(
        bold(&name(tables[1][0])),
        Some(false),
        "a draw has no winner"
    );
    assert_eq!(bold(&name(tables[1][1])), Some(false));
}

/// Six Crokinole rounds and their total row take a whole page each: on half a page the total
/// ran into the result box.
#[test]
fn six_crokinole_rounds_take_a_page_a_sheet() {
    let pages_for = |rounds: u32| {
        let setup = json!({"game": "crokinole", "system": "round_robin",
                           "rules": {"format": "rounds", "rounds": rounds},
                           "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"]]});
        pages(&pairings_pdf(
            &replay(&setup, &[json!({"pair": {}})]).unwrap(),
            Lang::En,
        ))
        .len()
    };
    // The list, then two sheets: on one page at 5 rounds, on two from 6.
    assert_eq!(pages_for(5), 2);
    assert_eq!(pages_for(6), 3);
}

/// A finished pools-then-knockout tournament's table counts every match, the pools' too: it
/// is not called the final standings (its champion, named above it, need not top it).
#[test]
fn a_finished_pools_knockout_table_is_not_called_final() {
    let setup = json!({"game": "molkky", "system": "pools_knockout", "pool_size": 3,
                       "entrants": [["Anna"], ["Bea"], ["Cyril"], ["Dora"], ["Emil"], ["Farid"]]});
    let t = finished(&setup, [1, 0]);
    let en = lines(&standings_pdf(&t, Lang::En));
    assert!(en.iter().any(|l| l == "Mölkky — Standings"), "{en:#?}");
    assert!(!en.iter().any(|l| l.contains("Final standings")));
}

/// The tournament of `setup` played to its end, side 0 winning every match by `scores`.
fn finished(setup: &Value, scores: [u32; 2]) -> Tournament {
    let mut events = vec![];
    let mut t = replay(setup, &events).unwrap();
    while t.status() != partie_core::tournament::Status::Finished {
        events.push(json!({"pair": {}}));
        t = replay(setup, &events).unwrap();
        for m in &t.field().rounds.last().unwrap().matches {
            events.push(json!({"result": {"round": t.round(), "table": m.table,
                                          "winner": 0, "scores": scores}}));
        }
        t = replay(setup, &events).unwrap();
    }
    t
}
