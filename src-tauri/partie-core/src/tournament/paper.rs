//! Paper for a club night: the current round's pairings with a score sheet for every table, and
//! the standings, as PDF files to print on A4.
//!
//! Written with `pdf-writer` (the Typst project's low-level PDF writer: no fonts to ship, no
//! system fonts, four small dependencies). Text is set in Helvetica and Helvetica-Bold, two of
//! the standard fonts every PDF reader has, in WinAnsiEncoding: Latin-1 letters (é, ö, ß, ñ, ...)
//! and the Windows extras (Œ, Š, €, “ ”, –) print and extract as text. Other Latin letters fold
//! to their base letter (Ł → L, ș → s, ő → o), a decomposed accent is put back on its letter,
//! and anything else (Greek, Cyrillic, CJK, emoji) prints as "?". The output has no date in
//! it: the same tournament gives the same bytes.

use super::{Bye, Key, Outcome, Status, Tournament};
use crate::crokinole::{CrokinoleRules, Format};
use crate::molkky::{MissPenalty, MolkkyRules};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

/// The language of the labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// French.
    Fr,
}

impl Lang {
    /// `"en"` or `"fr"` (any case).
    pub fn from_code(code: &str) -> Option<Lang> {
        match code.to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "fr" => Some(Lang::Fr),
            _ => None,
        }
    }

    fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Words

/// Every label, in one language.
struct Words {
    lang: Lang,
    pairings: &'static str,
    standings: &'static str,
    table: &'static str,
    wave: &'static str,
    vs: &'static str,
    result: &'static str,
    bye: &'static str,
    walkover: &'static str,
    forfeit: &'static str,
    no_round: &'static str,
    /// A pool's head: the word before its letters ("Pool A").
    pool: &'static str,
    /// The two knockouts' heads, once the pools are over.
    main_knockout: &'static str,
    consolation: &'static str,
    /// The head of those withdrawn before the pools were dealt (in no pool).
    withdrawn_group: &'static str,
    score_sheet: &'static str,
    cro_round: &'static str,
    points: &'static str,
    twenties: &'static str,
    game_points_short: &'static str,
    score: &'static str,
    total: &'static str,
    leg: &'static str,
    molkky_hint: &'static str,
    crokinole_hint: &'static str,
    winner: &'static str,
    draw: &'static str,
    legs_won: &'static str,
    pieces_taken: &'static str,
    signature: &'static str,
    rank: &'static str,
    entrant: &'static str,
    withdrawn: &'static str,
    final_standings: &'static str,
    champion: &'static str,
    ranked_by: &'static str,
    seed_order: &'static str,
    page: &'static str,
    of: &'static str,
    /// Short column label and its meaning, in the order of [`Col`].
    cols: [(&'static str, &'static str); 10],
}

const EN: Words = Words {
    lang: Lang::En,
    pairings: "Pairings",
    standings: "Standings",
    table: "Table",
    wave: "wave",
    vs: "vs",
    result: "Result",
    bye: "Bye",
    walkover: "Walkover",
    forfeit: "forfeit",
    no_round: "No round has been paired yet.",
    pool: "Pool",
    main_knockout: "Main knockout",
    consolation: "Consolation",
    withdrawn_group: "Withdrawn",
    score_sheet: "Score sheet",
    cro_round: "Round",
    points: "Points",
    twenties: "20s",
    game_points_short: "Game pts",
    score: "Score",
    total: "Total",
    leg: "Game",
    molkky_hint: "Write the points of each throw (a miss: 0) and the running total.",
    crokinole_hint: "Each round: 2 game points to the side with more points, 1 each on a tie.",
    winner: "Winner",
    draw: "Draw",
    legs_won: "Games won",
    pieces_taken: "Pieces taken",
    signature: "Signature",
    rank: "#",
    entrant: "Entrant",
    withdrawn: "withdrawn",
    final_standings: "Final standings",
    champion: "Champion",
    ranked_by: "Ranked by",
    seed_order: "then seed order",
    page: "Page",
    of: "of",
    cols: [
        ("MP", "match points: 2 a win, 1 a draw"),
        ("GP", "game points"),
        ("±", "score difference"),
        ("20s", "twenties"),
        ("Bu", "Buchholz: the opponents’ match points"),
        ("P", "played"),
        ("W", "won (byes included)"),
        ("D", "drawn"),
        ("L", "lost"),
        ("Bye", "byes"),
    ],
};

const FR: Words = Words {
    lang: Lang::Fr,
    pairings: "Appariements",
    standings: "Classement",
    table: "Table",
    wave: "vague",
    vs: "contre",
    result: "Résultat",
    bye: "Exempt",
    walkover: "Qualification d’office",
    forfeit: "forfait",
    no_round: "Aucune ronde n’est encore appariée.",
    pool: "Poule",
    main_knockout: "Tableau principal",
    consolation: "Consolante",
    withdrawn_group: "Retirés",
    score_sheet: "Feuille de match",
    cro_round: "Tour",
    points: "Points",
    twenties: "20",
    game_points_short: "Pts partie",
    score: "Score",
    total: "Total",
    leg: "Manche",
    molkky_hint: "Notez les points de chaque lancer (manqué : 0) et le total cumulé.",
    crokinole_hint:
        "Chaque tour : 2 points de partie au camp qui a le plus de points, 1 chacun à égalité.",
    winner: "Vainqueur",
    draw: "Nul",
    legs_won: "Manches gagnées",
    pieces_taken: "Pions pris",
    signature: "Signature",
    rank: "#",
    entrant: "Inscrit",
    withdrawn: "retiré",
    final_standings: "Classement final",
    champion: "Vainqueur du tournoi",
    ranked_by: "Classement par",
    seed_order: "puis ordre des têtes de série",
    page: "Page",
    of: "sur",
    cols: [
        ("PM", "points de match : 2 la victoire, 1 le nul"),
        ("PJ", "points de jeu"),
        ("±", "différence de score"),
        ("20", "vingts"),
        ("Bu", "Buchholz : les points de match des adversaires"),
        ("J", "joués"),
        ("G", "gagnés (exemptions comprises)"),
        ("N", "nuls"),
        ("P", "perdus"),
        ("Ex", "exemptions"),
    ],
};

impl Words {
    fn of(lang: Lang) -> &'static Words {
        match lang {
            Lang::En => &EN,
            Lang::Fr => &FR,
        }
    }

    fn round_of(&self, n: usize, of: usize) -> String {
        match self.lang {
            Lang::En => format!("Round {n} of {of}"),
            Lang::Fr => format!("Ronde {n} sur {of}"),
        }
    }

    fn after_round(&self, n: usize, of: usize) -> String {
        match self.lang {
            Lang::En => format!("After round {n} of {of}"),
            Lang::Fr => format!("Après la ronde {n} sur {of}"),
        }
    }

    fn in_progress(&self, n: usize, of: usize, done: usize, all: usize) -> String {
        match self.lang {
            Lang::En => format!("Round {n} of {of} in progress: {done} of {all} results in"),
            // French counts 0 and 1 in the singular.
            Lang::Fr => format!(
                "Ronde {n} sur {of} en cours : {done} résultat{} sur {all}",
                if done > 1 { "s" } else { "" }
            ),
        }
    }

    fn before_first(&self) -> &'static str {
        match self.lang {
            Lang::En => "Registration: no round played yet",
            Lang::Fr => "Inscriptions : aucune ronde jouée",
        }
    }

    fn entrants(&self, n: usize) -> String {
        match self.lang {
            Lang::En => format!("{n} entrants"),
            Lang::Fr => format!("{n} inscrits"),
        }
    }

    fn system(&self, name: &str) -> String {
        super::system::title(name, matches!(self.lang, Lang::Fr)).to_string()
    }

    /// What the room calls the place a match of `game` is played on ([`crate::game::Game::PLACE`]).
    fn place(&self, game: &str) -> &'static str {
        crate::game::place_word(crate::games::place(game), matches!(self.lang, Lang::Fr))
    }

    fn game(&self, game: &str) -> String {
        crate::games::title(game, matches!(self.lang, Lang::Fr)).to_string()
    }

    fn key(&self, key: Key) -> &'static str {
        match (self.lang, key) {
            (Lang::En, Key::MatchPoints) => "match points",
            (Lang::En, Key::GamePoints) => "game points",
            (Lang::En, Key::ScoreDiff) => "score difference",
            (Lang::En, Key::Twenties) => "twenties",
            (Lang::En, Key::Wins) => "wins",
            (Lang::En, Key::HeadToHead) => "head-to-head",
            (Lang::Fr, Key::MatchPoints) => "points de match",
            (Lang::Fr, Key::GamePoints) => "points de jeu",
            (Lang::Fr, Key::ScoreDiff) => "différence de score",
            (Lang::Fr, Key::Twenties) => "vingts",
            (Lang::Fr, Key::Wins) => "victoires",
            (Lang::Fr, Key::HeadToHead) => "confrontation directe",
            (_, Key::Buchholz) => "Buchholz",
        }
    }

    fn molkky_rules(&self, r: &MolkkyRules) -> String {
        let misses = match (self.lang, r.three_misses) {
            (Lang::En, MissPenalty::Eliminate) => format!("; {} misses in a row: out", r.misses),
            (Lang::En, MissPenalty::Zero) => format!("; {} misses in a row: back to 0", r.misses),
            (Lang::Fr, MissPenalty::Eliminate) => {
                format!(" ; {} lancers manqués de suite : éliminé", r.misses)
            }
            (Lang::Fr, MissPenalty::Zero) => {
                format!(" ; {} lancers manqués de suite : retour à 0", r.misses)
            }
            (_, MissPenalty::None) => String::new(),
        };
        // One leg is not "best of 1".
        let legs = match (self.lang, r.best_of) {
            (Lang::En, 1) => "One game.".to_string(),
            (Lang::En, n) => format!("Best of {n} games."),
            (Lang::Fr, 1) => "En une manche.".to_string(),
            (Lang::Fr, n) => format!("Au meilleur des {n} manches."),
        };
        match self.lang {
            Lang::En => format!(
                "Exactly {}; over it: back to {}{misses}. {legs}",
                r.target, r.bust_to
            ),
            Lang::Fr => format!(
                "{} pile ; au-delà : retour à {}{misses}. {legs}",
                r.target, r.bust_to
            ),
        }
    }

    fn first_to(&self, target: u32) -> String {
        match self.lang {
            Lang::En => format!("First to {target} game points."),
            Lang::Fr => format!("Premier à {target} points de partie."),
        }
    }
}

/// The standings' figure columns, in the order of [`Words::cols`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    MatchPoints,
    GamePoints,
    ScoreDiff,
    Twenties,
    Buchholz,
    Played,
    Wins,
    Draws,
    Losses,
    Byes,
}

// ---------------------------------------------------------------------------------------------
// Text in WinAnsiEncoding

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Font {
    Regular,
    Bold,
}

impl Font {
    fn name(self) -> Name<'static> {
        match self {
            Font::Regular => Name(b"F1"),
            Font::Bold => Name(b"F2"),
        }
    }

    /// Advance widths (thousandths of the size) of WinAnsi codes 32 to 255, from Adobe's
    /// metrics of the standard fonts.
    fn widths(self) -> &'static [u16; 224] {
        match self {
            Font::Regular => &HELVETICA,
            Font::Bold => &HELVETICA_BOLD,
        }
    }
}

#[rustfmt::skip]
const HELVETICA: [u16; 224] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
    556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
    0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667,
    278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
    400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
    667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
    556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
];

#[rustfmt::skip]
const HELVETICA_BOLD: [u16; 224] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 0,
    556, 0, 278, 556, 500, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
    0, 278, 278, 500, 500, 350, 556, 1000, 333, 1000, 556, 333, 944, 0, 500, 667,
    278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333,
    400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611,
    722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
    556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278,
    611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556,
];

/// What WinAnsiEncoding puts at 0x80 to 0x9F (`None`: nothing).
const WIN_ANSI_HIGH: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

/// Latin letters outside WinAnsi, each followed by the letter it folds to (generated from the
/// Unicode decompositions of Latin Extended-A, Extended-B and Extended Additional: the base
/// letter, or the letter with its first accent when WinAnsi has it, as in ǘ → ü).
const FOLD: &str = concat!(
    "ĀAāaĂAăaĄAąaĆCćcĈCĉcĊCċcČCčcĎDďdĐDđdĒEēeĔEĕeĖEėeĘEęeĚEěeĜGĝgĞGğg",
    "ĠGġgĢGģgĤHĥhĦHħhĨIĩiĪIīiĬIĭiĮIįiİIıiĴJĵjĶKķkĸkĹLĺlĻLļlĽLľlĿLŀlŁL",
    "łlŃNńnŅNņnŇNňnŉnŊNŋnŌOōoŎOŏoŐOőoŔRŕrŖRŗrŘRřrŚSśsŜSŝsŞSşsŢTţtŤTťt",
    "ŦTŧtŨUũuŪUūuŬUŭuŮUůuŰUűuŲUųuŴWŵwŶYŷyŹZźzŻZżzſsƀbƁBƇCƈcƊDƑFƓGƗIƘK",
    "ƙkƚlƝNƞnƠOơoƤPƥpƫtƬTƭtƮTƯUưuƲVƳYƴyƵZƶzǍAǎaǏIǐiǑOǒoǓUǔuǕÜǖüǗÜǘüǙÜ",
    "ǚüǛÜǜüǞÄǟäǠAǡaǢÆǣæǦGǧgǨKǩkǪOǫoǬOǭoǰjǴGǵgǸNǹnǺÅǻåǼÆǽæǾØǿøȀAȁaȂAȃa",
    "ȄEȅeȆEȇeȈIȉiȊIȋiȌOȍoȎOȏoȐRȑrȒRȓrȔUȕuȖUȗuȘSșsȚTțtȞHȟhȡdȤZȥzȦAȧaȨE",
    "ȩeȪÖȫöȬÕȭõȮOȯoȰOȱoȲYȳyȴlȵnȶtȷjȺAȻCȼcȽLȾTȿsɀzɃBɄUɆEɇeɈJɉjɌRɍrɎYɏy",
    "ḀAḁaḂBḃbḄBḅbḆBḇbḈÇḉçḊDḋdḌDḍdḎDḏdḐDḑdḒDḓdḔEḕeḖEḗeḘEḙeḚEḛeḜEḝeḞFḟf",
    "ḠGḡgḢHḣhḤHḥhḦHḧhḨHḩhḪHḫhḬIḭiḮÏḯïḰKḱkḲKḳkḴKḵkḶLḷlḸLḹlḺLḻlḼLḽlḾMḿm",
    "ṀMṁmṂMṃmṄNṅnṆNṇnṈNṉnṊNṋnṌÕṍõṎÕṏõṐOṑoṒOṓoṔPṕpṖPṗpṘRṙrṚRṛrṜRṝrṞRṟr",
    "ṠSṡsṢSṣsṤSṥsṦŠṧšṨSṩsṪTṫtṬTṭtṮTṯtṰTṱtṲUṳuṴUṵuṶUṷuṸUṹuṺUṻuṼVṽvṾVṿv",
    "ẀWẁwẂWẃwẄWẅwẆWẇwẈWẉwẊXẋxẌXẍxẎYẏyẐZẑzẒZẓzẔZẕzẖhẗtẘwẙyẠAạaẢAảaẤÂấâ",
    "ẦÂầâẨÂẩâẪÂẫâẬAậaẮAắaẰAằaẲAẳaẴAẵaẶAặaẸEẹeẺEẻeẼEẽeẾÊếêỀÊềêỂÊểêỄÊễê",
    "ỆEệeỈIỉiỊIịiỌOọoỎOỏoỐÔốôỒÔồôỔÔổôỖÔỗôỘOộoỚOớoỜOờoỞOởoỠOỡoỢOợoỤUụu",
    "ỦUủuỨUứuỪUừuỬUửuỮUữuỰUựuỲYỳyỴYỵyỶYỷyỸYỹy",
);

/// The WinAnsi code of a character, if it has one.
fn win_ansi_code(c: char) -> Option<u8> {
    match u32::from(c) {
        n @ (0x20..=0x7E | 0xA0..=0xFF) => Some(n as u8),
        _ => WIN_ANSI_HIGH
            .iter()
            .position(|&h| h == Some(c))
            .map(|i| 0x80 + i as u8),
    }
}

/// A letter followed by a combining accent (text typed in decomposed form), as one WinAnsi
/// letter when it has one.
fn compose(base: u8, mark: char) -> Option<u8> {
    const MARKS: [(char, &str, &str); 7] = [
        ('\u{300}', "AEIOUaeiou", "ÀÈÌÒÙàèìòù"),
        ('\u{301}', "AEIOUYaeiouy", "ÁÉÍÓÚÝáéíóúý"),
        ('\u{302}', "AEIOUaeiou", "ÂÊÎÔÛâêîôû"),
        ('\u{303}', "ANOano", "ÃÑÕãñõ"),
        ('\u{308}', "AEIOUYaeiouy", "ÄËÏÖÜŸäëïöüÿ"),
        ('\u{30A}', "Aa", "Åå"),
        ('\u{327}', "Cc", "Çç"),
    ];
    const CARON: (&str, &str) = ("SsZz", "ŠšŽž");
    let (bases, composed) = if mark == '\u{30C}' {
        CARON
    } else {
        let &(_, b, c) = MARKS.iter().find(|(m, _, _)| *m == mark)?;
        (b, c)
    };
    let i = bases.chars().position(|b| b as u32 == u32::from(base))?;
    composed.chars().nth(i).and_then(win_ansi_code)
}

/// The text in WinAnsiEncoding: every character that has a code keeps it, a Latin letter
/// without one folds to its base letter, spaces and line breaks become a space, invisible
/// marks are dropped, anything else is "?". Never fails.
fn encode(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        if let Some(b) = win_ansi_code(c) {
            out.push(b);
            continue;
        }
        match c {
            // Combining accents: onto the previous letter when WinAnsi has the pair, else dropped.
            '\u{300}'..='\u{36F}' => {
                if let Some(composed) = out.last().and_then(|&b| compose(b, c)) {
                    *out.last_mut().expect("a letter") = composed;
                }
            }
            // Zero-width spaces and joiners, direction marks, the byte order mark, variation
            // selectors.
            '\u{200B}'..='\u{200F}' | '\u{2060}' | '\u{FEFF}' | '\u{FE00}'..='\u{FE0F}' => {}
            '\u{2010}'..='\u{2012}' | '\u{2212}' => out.push(b'-'),
            '\u{2032}' => out.push(b'\''),
            '\u{2033}' => out.push(b'"'),
            'Ĳ' => out.extend(b"IJ"),
            'ĳ' => out.extend(b"ij"),
            'ẞ' => out.extend(b"SS"),
            c if c.is_whitespace() => out.push(b' '),
            c if c.is_control() => {}
            c => {
                let mut pairs = FOLD.chars();
                let mut folded = None;
                while let (Some(from), Some(to)) = (pairs.next(), pairs.next()) {
                    if from == c {
                        folded = win_ansi_code(to);
                        break;
                    }
                }
                out.push(folded.unwrap_or(b'?'));
            }
        }
    }
    out
}

/// The width of WinAnsi bytes in points.
fn width(bytes: &[u8], font: Font, size: f32) -> f32 {
    let widths = font.widths();
    let units: u32 = bytes
        .iter()
        .map(|&b| match b {
            32..=255 => u32::from(widths[usize::from(b) - 32]),
            _ => 0,
        })
        .sum();
    units as f32 * size / 1000.0
}

/// The text encoded, shortened with "…" to fit `max` points.
fn fit(text: &str, font: Font, size: f32, max: f32) -> Vec<u8> {
    let mut bytes = encode(text);
    if width(&bytes, font, size) <= max {
        return bytes;
    }
    const ELLIPSIS: u8 = 0x85;
    while !bytes.is_empty() && width(&bytes, font, size) + width(&[ELLIPSIS], font, size) > max {
        bytes.pop();
    }
    while bytes.last() == Some(&b' ') {
        bytes.pop();
    }
    bytes.push(ELLIPSIS);
    bytes
}

/// The text cut into lines of at most `max` points, at spaces.
fn wrap(text: &str, font: Font, size: f32, max: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && width(&encode(&candidate), font, size) > max {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

// ---------------------------------------------------------------------------------------------
// Pages

/// A4 in points.
const PAGE_W: f32 = 595.28;
const PAGE_H: f32 = 841.89;
const MARGIN: f32 = 40.0;
const RIGHT: f32 = PAGE_W - MARGIN;
const WIDTH: f32 = PAGE_W - 2.0 * MARGIN;
/// Where text and lines stop at the foot of a page (the page number goes below).
const BOTTOM: f32 = PAGE_H - 48.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Align {
    Left,
    Center,
    Right,
}

/// How a piece of text looks: its font and size, where it hangs from its anchor, its grey.
#[derive(Debug, Clone, Copy)]
struct Style {
    font: Font,
    size: f32,
    align: Align,
    /// 0 black, 1 white.
    grey: f32,
}

impl Style {
    const fn regular(size: f32) -> Style {
        Style {
            font: Font::Regular,
            size,
            align: Align::Left,
            grey: 0.0,
        }
    }

    const fn bold(size: f32) -> Style {
        Style {
            font: Font::Bold,
            ..Style::regular(size)
        }
    }

    const fn right(self) -> Style {
        Style {
            align: Align::Right,
            ..self
        }
    }

    const fn center(self) -> Style {
        Style {
            align: Align::Center,
            ..self
        }
    }

    const fn grey(self, grey: f32) -> Style {
        Style { grey, ..self }
    }
}

const TITLE: Style = Style::bold(20.0);
const SUBTITLE: Style = Style::regular(11.0).grey(0.3);
const BODY: Style = Style::regular(11.0);
/// [`BODY`] in bold: a table's winner.
const BODY_BOLD: Style = Style::bold(11.0);
const LABEL: Style = Style::bold(11.0);
const HINT: Style = Style::regular(9.0).grey(0.35);
const COLUMN: Style = Style::bold(8.5).center();

/// A document being laid out, measured in points from the top left corner of each page.
struct Doc {
    pages: Vec<Content>,
    /// The page drawn on.
    current: usize,
}

impl Doc {
    fn new() -> Doc {
        Doc {
            pages: vec![Content::new()],
            current: 0,
        }
    }

    fn new_page(&mut self) {
        self.pages.push(Content::new());
        self.current = self.pages.len() - 1;
    }

    fn page(&mut self) -> &mut Content {
        &mut self.pages[self.current]
    }

    /// Encoded text with its baseline `y` from the top, anchored at `x`; each piece is its own
    /// text object, so that it extracts as one line.
    fn bytes(&mut self, x: f32, y: f32, style: Style, bytes: &[u8]) {
        let w = width(bytes, style.font, style.size);
        let left = match style.align {
            Align::Left => x,
            Align::Center => x - w / 2.0,
            Align::Right => x - w,
        };
        let page = self.page();
        if style.grey > 0.0 {
            page.set_fill_gray(style.grey);
        }
        page.begin_text();
        page.set_font(style.font.name(), style.size);
        page.next_line(left, PAGE_H - y);
        page.show(Str(bytes));
        page.end_text();
        if style.grey > 0.0 {
            page.set_fill_gray(0.0);
        }
    }

    fn text(&mut self, x: f32, y: f32, style: Style, text: &str) {
        self.bytes(x, y, style, &encode(text));
    }

    /// Text shortened with "…" to fit `max` points.
    fn text_fit(&mut self, x: f32, y: f32, style: Style, max: f32, text: &str) {
        self.bytes(x, y, style, &fit(text, style.font, style.size, max));
    }

    fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, w: f32) {
        let page = self.page();
        page.set_line_width(w);
        page.move_to(x1, PAGE_H - y1);
        page.line_to(x2, PAGE_H - y2);
        page.stroke();
    }

    /// Where to cut a page in two.
    fn dashed_line(&mut self, x1: f32, y: f32, x2: f32) {
        let page = self.page();
        page.save_state();
        page.set_stroke_gray(0.55);
        page.set_dash_pattern([4.0, 3.0], 0.0);
        page.set_line_width(0.5);
        page.move_to(x1, PAGE_H - y);
        page.line_to(x2, PAGE_H - y);
        page.stroke();
        page.restore_state();
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, line: f32) {
        let page = self.page();
        page.set_line_width(line);
        page.rect(x, PAGE_H - y - h, w, h);
        page.stroke();
    }

    fn fill(&mut self, x: f32, y: f32, w: f32, h: f32, grey: f32) {
        let page = self.page();
        page.save_state();
        page.set_fill_gray(grey);
        page.rect(x, PAGE_H - y - h, w, h);
        page.fill_nonzero();
        page.restore_state();
    }

    /// A ruled grid: `cols` widths from `x`, `rows` heights from `y`.
    fn grid(&mut self, x: f32, y: f32, cols: &[f32], rows: &[f32], line: f32) {
        let w: f32 = cols.iter().sum();
        let h: f32 = rows.iter().sum();
        let mut top = y;
        self.line(x, top, x + w, top, line);
        for r in rows {
            top += r;
            self.line(x, top, x + w, top, line);
        }
        let mut left = x;
        self.line(left, y, left, y + h, line);
        for c in cols {
            left += c;
            self.line(left, y, left, y + h, line);
        }
    }

    /// The PDF: every page numbered at its foot, `title` in the document information.
    fn finish(mut self, title: &str, lang: Lang) -> Vec<u8> {
        let words = Words::of(lang);
        let count = self.pages.len();
        for i in 0..count {
            let label = format!("Partie · {} {} {} {count}", words.page, i + 1, words.of);
            self.current = i;
            self.text(
                RIGHT,
                PAGE_H - 24.0,
                Style::regular(8.0).right().grey(0.45),
                &label,
            );
        }

        let mut pdf = Pdf::new();
        let catalog = Ref::new(1);
        let tree = Ref::new(2);
        let regular = Ref::new(3);
        let bold = Ref::new(4);
        let info = Ref::new(5);
        let page_ids: Vec<Ref> = (0..count).map(|i| Ref::new(6 + 2 * i as i32)).collect();
        pdf.catalog(catalog).pages(tree).lang(TextStr(lang.code()));
        pdf.pages(tree)
            .kids(page_ids.iter().copied())
            .count(count as i32);
        for (font, id) in [(&b"Helvetica"[..], regular), (b"Helvetica-Bold", bold)] {
            pdf.type1_font(id)
                .base_font(Name(font))
                .encoding_predefined(Name(b"WinAnsiEncoding"));
        }
        pdf.document_info(info)
            .title(TextStr(title))
            .producer(TextStr("Partie"));
        for (content, &id) in self.pages.into_iter().zip(&page_ids) {
            let stream = Ref::new(id.get() + 1);
            let mut page = pdf.page(id);
            page.media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H))
                .parent(tree)
                .contents(stream);
            let mut resources = page.resources();
            let mut fonts = resources.fonts();
            fonts.pair(Font::Regular.name(), regular);
            fonts.pair(Font::Bold.name(), bold);
            fonts.finish();
            resources.finish();
            page.finish();
            pdf.stream(stream, &content.finish());
        }
        pdf.finish()
    }
}

// ---------------------------------------------------------------------------------------------
// Pairings

fn total_rounds(t: &Tournament) -> usize {
    t.summary()["rounds"]
        .as_u64()
        .map_or(t.round(), |n| n as usize)
        .max(t.round())
}

fn system_name(t: &Tournament) -> String {
    t.summary()["system"].as_str().unwrap_or("").to_string()
}

/// An entrant's name as printed; with its seed number when some of its letters print as "?",
/// so that names in another script still tell the entrants apart.
fn entrant_name(t: &Tournament, entrant: usize) -> String {
    let name = t.field().name(entrant);
    let lost = encode(&name).iter().filter(|&&b| b == b'?').count() > name.matches('?').count();
    if lost {
        format!("{name} (#{})", entrant + 1)
    } else {
        name
    }
}

/// "Board 2", or "Board 2 · wave 1" when there are fewer boards than matches ("Court 2" for a
/// game played on courts).
fn board_label(t: &Tournament, w: &Words, table: usize, short: bool) -> Option<String> {
    let boards = t.boards();
    let waves = boards.iter().any(|b| b.wave > 0);
    let b = boards.iter().find(|b| b.table == table)?;
    let board = if short {
        (b.board + 1).to_string()
    } else {
        format!("{} {}", w.place(t.game()), b.board + 1)
    };
    Some(if waves {
        format!("{board} · {} {}", w.wave, b.wave + 1)
    } else {
        board
    })
}

fn result_label(t: &Tournament, w: &Words, sides: [usize; 2], r: &Outcome) -> String {
    match r {
        Outcome::Played {
            scores,
            winner: None,
            ..
        } => format!("{} – {} · {}", scores[0], scores[1], w.draw),
        Outcome::Played { scores, .. } => format!("{} – {}", scores[0], scores[1]),
        Outcome::Forfeit { forfeit } => {
            format!("{} ({})", w.forfeit, entrant_name(t, sides[*forfeit]))
        }
    }
}

/// "Bye:" in English, "Exempt :" in French.
fn with_colon(lang: Lang, label: &str) -> String {
    match lang {
        Lang::En => format!("{label}:"),
        Lang::Fr => format!("{label} :"),
    }
}

/// How a table's sheet is laid out.
enum Sheet {
    /// Crokinole in the rounds format: one row per round, then totals.
    CrokinoleRounds(u32),
    /// Crokinole to a target: rows of rounds with running scores.
    CrokinolePoints(u32),
    /// Mölkky: a grid of throws for each leg.
    Molkky(MolkkyRules),
    /// A result box only.
    Result,
}

impl Sheet {
    fn of(t: &Tournament) -> Sheet {
        match t.game() {
            "crokinole" => match CrokinoleRules::from_map(t.rules(), 2) {
                Ok(r) if r.format == Format::Rounds => Sheet::CrokinoleRounds(r.rounds),
                Ok(r) => Sheet::CrokinolePoints(r.target),
                Err(_) => Sheet::CrokinoleRounds(4),
            },
            "molkky" => Sheet::Molkky(MolkkyRules::from_map(t.rules()).unwrap_or_default()),
            _ => Sheet::Result,
        }
    }

    /// Whether a sheet takes a whole page rather than half of one.
    fn full_page(&self) -> bool {
        match self {
            // Six rounds and their total row run into the result box of half a page.
            Sheet::CrokinoleRounds(n) => *n > 5,
            Sheet::CrokinolePoints(_) | Sheet::Molkky(_) => true,
            Sheet::Result => false,
        }
    }
}

/// The current round: the list of tables and byes, then a score sheet for every table.
pub fn pairings_pdf(t: &Tournament, lang: Lang) -> Vec<u8> {
    let w = Words::of(lang);
    let game = w.game(t.game());
    let mut doc = Doc::new();
    let round = t.field().rounds.last();
    let title = match round {
        Some(_) => format!("{game} — {}", w.round_of(t.round(), total_rounds(t))),
        None => format!("{game} — {}", w.pairings),
    };
    doc.text(MARGIN, 62.0, TITLE, &title);
    let system = w.system(&system_name(t));
    let entrants = w.entrants(t.field().entrants.len());
    let subtitle = format!("{} · {system} · {entrants}", w.pairings);
    doc.text(MARGIN, 82.0, SUBTITLE, &subtitle);
    let Some(round) = round else {
        doc.text(MARGIN, 120.0, BODY, w.no_round);
        return doc.finish(&title, lang);
    };

    // The list of tables.
    let waves = t.boards().iter().any(|b| b.wave > 0);
    let x_board = MARGIN + 50.0;
    let x_a = x_board + if waves { 110.0 } else { 70.0 };
    let result_w = 80.0;
    // (8 pt kept between side B's name and the result: they ran into each other.)
    let name_w = (RIGHT - result_w - x_a - 48.0) / 2.0;
    let x_vs = x_a + name_w + 30.0;
    let x_b = x_vs + 10.0;
    let header = |doc: &mut Doc, y: f32| {
        doc.fill(MARGIN, y - 14.0, WIDTH, 20.0, 0.88);
        doc.text(MARGIN + 4.0, y, Style::bold(10.0), w.table);
        doc.text(x_board, y, Style::bold(10.0), w.place(t.game()));
        doc.text(RIGHT - 4.0, y, Style::bold(10.0).right(), w.result);
    };
    let mut y = 120.0;
    header(&mut doc, y);
    let groups = table_groups(t, w);
    let group_of = |table: usize| {
        groups
            .iter()
            .find(|(tables, _)| tables.contains(&table))
            .map(|(_, label)| label.as_str())
    };
    let mut last_group = None;
    for m in &round.matches {
        // A group's head (a pool, a knockout) keeps its first table on its page, and a group
        // cut by the page is headed again on the next.
        let group = group_of(m.table);
        let mut head = group.is_some() && group != last_group;
        last_group = group;
        y += 24.0;
        if y + if head { 22.0 } else { 0.0 } > BOTTOM {
            doc.new_page();
            y = 60.0;
            header(&mut doc, y);
            y += 24.0;
            head = group.is_some();
        }
        if let (true, Some(label)) = (head, group) {
            doc.text_fit(MARGIN + 4.0, y, Style::bold(11.0), WIDTH, label);
            y += 22.0;
        }
        doc.line(MARGIN, y + 8.0, RIGHT, y + 8.0, 0.3);
        doc.text(
            MARGIN + 4.0,
            y,
            Style::bold(12.0),
            &(m.table + 1).to_string(),
        );
        if let Some(board) = board_label(t, w, m.table, true) {
            doc.text(x_board, y, BODY, &board);
        }
        let [a, b] = m.sides.map(|e| entrant_name(t, e));
        // The winner in bold, as the app marks it: the scores alone do not say it (a Morris
        // game won by a blockade with fewer pieces taken, a knockout tie).
        let won = |side: usize| match &m.result {
            Some(Outcome::Played {
                winner: Some(w), ..
            }) => *w == side,
            Some(Outcome::Forfeit { forfeit }) => *forfeit != side,
            _ => false,
        };
        let style = |side: usize| if won(side) { BODY_BOLD } else { BODY };
        doc.text_fit(x_a, y, style(0), name_w, &a);
        doc.text(x_vs, y, Style::regular(9.0).right().grey(0.4), w.vs);
        doc.text_fit(x_b, y, style(1), name_w, &b);
        if let Some(r) = &m.result {
            let result = result_label(t, w, m.sides, r);
            doc.text_fit(RIGHT - 4.0, y, BODY.right(), result_w, &result);
        }
    }
    y += 16.0;
    let byes = round
        .byes
        .iter()
        .map(|&Bye { entrant, .. }| (w.bye, entrant));
    let walkovers = round.walkovers.iter().map(|&e| (w.walkover, e));
    for (label, entrant) in byes.chain(walkovers) {
        y += 20.0;
        if y > BOTTOM {
            doc.new_page();
            y = 60.0;
        }
        let label = encode(&with_colon(lang, label));
        doc.bytes(MARGIN + 4.0, y, LABEL, &label);
        let x = MARGIN + 10.0 + width(&label, LABEL.font, LABEL.size);
        let name = match pool_of(t, entrant) {
            Some(pool) => format!("{} ({})", entrant_name(t, entrant), pool_label(w, pool)),
            None => entrant_name(t, entrant),
        };
        doc.text_fit(x, y, BODY, RIGHT - x, &name);
    }

    // A sheet for every table still to play: two to a page, cut along the dashed line, or one a
    // page (a table whose result is in, a forfeit typed before printing, needs no sheet).
    let sheet = Sheet::of(t);
    // Mölkky, Mölkkout, Boulomania and Crokinole to a target always have a winner; a knockout
    // round needs one.
    let draws = (matches!(sheet, Sheet::CrokinoleRounds(_)) || t.game() == "morris")
        && t.summary()["draws_allowed"].as_bool().unwrap_or(true);
    let full = sheet.full_page();
    let look = Look {
        t,
        w,
        heading: format!(
            "{game} · {} · {}",
            w.round_of(t.round(), total_rounds(t)),
            w.score_sheet
        ),
        draws,
        sheet,
        groups: groups.clone(),
    };
    let to_play = round.matches.iter().filter(|m| m.result.is_none());
    for (i, m) in to_play.enumerate() {
        let (top, bottom) = if !full && i % 2 == 1 {
            doc.dashed_line(MARGIN - 20.0, PAGE_H / 2.0, RIGHT + 20.0);
            (PAGE_H / 2.0 + 20.0, PAGE_H - 40.0)
        } else {
            doc.new_page();
            (
                40.0,
                if full {
                    PAGE_H - 40.0
                } else {
                    PAGE_H / 2.0 - 20.0
                },
            )
        };
        look.draw(&mut doc, m.table, m.sides, (top, bottom));
    }
    doc.finish(&title, lang)
}

/// Height of the result box at the foot of every sheet.
const RESULT_H: f32 = 100.0;
/// The names' row and the labels' row over a grid.
const NAMES_H: f32 = 18.0;
const HEADER_H: f32 = 34.0;

/// What every sheet of a round shares.
struct Look<'a> {
    t: &'a Tournament,
    w: &'static Words,
    sheet: Sheet,
    /// "Crokinole · Round 2 of 3 · Score sheet".
    heading: String,
    /// Whether the match may end in a draw.
    draws: bool,
    /// The round's tables of each pool or knockout, with its head ([`table_groups`]).
    groups: Vec<(Vec<usize>, String)>,
}

impl Look<'_> {
    /// One table's sheet between `top` and `bottom` (points from the top of the page).
    fn draw(&self, doc: &mut Doc, table: usize, sides: [usize; 2], (top, bottom): (f32, f32)) {
        let (t, w) = (self.t, self.w);
        let names = sides.map(|e| entrant_name(t, e));
        doc.text(
            MARGIN,
            top + 18.0,
            TITLE,
            &format!("{} {}", w.table, table + 1),
        );
        if let Some(board) = board_label(t, w, table, false) {
            doc.text(RIGHT, top + 18.0, Style::bold(13.0).right(), &board);
        }
        // The pool or knockout the table is part of, before the round: the players see it.
        let group = self
            .groups
            .iter()
            .find(|(tables, _)| tables.contains(&table));
        let heading = match group {
            Some((_, label)) => format!("{label} · {}", self.heading),
            None => self.heading.clone(),
        };
        doc.text_fit(
            MARGIN,
            top + 34.0,
            Style::regular(9.5).grey(0.35),
            WIDTH,
            &heading,
        );
        let half = WIDTH / 2.0 - 30.0;
        let name = Style::bold(15.0);
        doc.text_fit(MARGIN, top + 60.0, name, half, &names[0]);
        doc.text(
            PAGE_W / 2.0,
            top + 60.0,
            Style::regular(10.0).center().grey(0.4),
            w.vs,
        );
        doc.text_fit(RIGHT, top + 60.0, name.right(), half, &names[1]);
        doc.line(MARGIN, top + 68.0, RIGHT, top + 68.0, 1.0);

        let body = top + 84.0;
        let result_top = match self.sheet {
            Sheet::Result => body,
            _ => bottom - RESULT_H,
        };
        let space = result_top - 12.0 - body;
        match &self.sheet {
            Sheet::CrokinoleRounds(rounds) => {
                crokinole_grid(
                    doc,
                    w,
                    &names,
                    body,
                    w.crokinole_hint,
                    *rounds as usize,
                    false,
                );
            }
            Sheet::CrokinolePoints(target) => {
                // As many rounds as the page holds.
                let rows = ((space - 8.0 - HEADER_H) / 20.0).floor().max(1.0) as usize - 1;
                crokinole_grid(doc, w, &names, body, &w.first_to(*target), rows, true);
            }
            Sheet::Molkky(rules) => molkky_grid(doc, w, &names, rules, body, space),
            Sheet::Result => {}
        }
        self.result_box(doc, &names, result_top);
    }

    /// The result to fill in: the winner, the score, the two signatures.
    fn result_box(&self, doc: &mut Doc, names: &[String; 2], y: f32) {
        let (t, w) = (self.t, self.w);
        doc.rect(MARGIN, y, WIDTH, RESULT_H, 1.0);
        let x = MARGIN + 10.0;
        // The winner: a box to tick for each side, and for a draw when one is possible.
        doc.text(x, y + 22.0, LABEL, w.winner);
        let mut options: Vec<&str> = names.iter().map(String::as_str).collect();
        if self.draws {
            options.push(w.draw);
        }
        let start = x + 110.0;
        let each = (RIGHT - 10.0 - start) / options.len() as f32;
        for (i, option) in options.iter().enumerate() {
            let left = start + i as f32 * each;
            doc.rect(left, y + 12.0, 11.0, 11.0, 0.8);
            doc.text_fit(left + 17.0, y + 22.0, BODY, each - 24.0, option);
        }
        // The score, and Crokinole's 20s.
        let score = match t.game() {
            "crokinole" => w.game_points_short,
            "molkky" => w.legs_won,
            "morris" => w.pieces_taken,
            _ => w.score,
        };
        let pair = |doc: &mut Doc, left: f32| {
            doc.rect(left, y + 36.0, 54.0, 22.0, 0.8);
            doc.text(left + 64.0, y + 51.0, Style::regular(12.0).center(), "–");
            doc.rect(left + 74.0, y + 36.0, 54.0, 22.0, 0.8);
        };
        doc.text(x, y + 52.0, LABEL, score);
        pair(doc, start);
        if Key::Twenties.counted_in(t.game()) {
            let left = PAGE_W / 2.0 + 40.0;
            doc.text(left, y + 52.0, LABEL, w.twenties);
            pair(doc, left + 40.0);
        }
        // The signatures, each over its side's name.
        let half = (WIDTH - 40.0) / 2.0;
        for (s, name) in names.iter().enumerate() {
            let left = x + s as f32 * (half + 20.0);
            doc.line(left, y + 82.0, left + half, y + 82.0, 0.6);
            let caption = format!("{} — {name}", w.signature);
            doc.text_fit(
                left,
                y + 93.0,
                Style::regular(8.0).grey(0.35),
                half,
                &caption,
            );
        }
    }
}

/// Header rows over two sides' column groups: the names, each over its group, then the columns'
/// labels. The names' row is ruled here; the grid drawn from `y + NAMES_H` rules the rest.
fn side_headers(
    doc: &mut Doc,
    x: f32,
    y: f32,
    first: f32,
    group: &[&str],
    col: f32,
    names: &[String; 2],
) {
    let n = group.len() as f32;
    let width = first + 2.0 * n * col;
    doc.fill(x, y, width, HEADER_H, 0.9);
    doc.line(x, y, x + width, y, 0.6);
    for edge in [x, x + first, x + first + n * col, x + width] {
        doc.line(edge, y, edge, y + NAMES_H, 0.6);
    }
    for (s, name) in names.iter().enumerate() {
        let left = x + first + s as f32 * n * col;
        let centre = left + n * col / 2.0;
        doc.text_fit(
            centre,
            y + 13.0,
            Style::bold(10.0).center(),
            n * col - 8.0,
            name,
        );
        for (i, label) in group.iter().enumerate() {
            let c = left + (i as f32 + 0.5) * col;
            doc.text_fit(c, y + 29.5, COLUMN, col - 4.0, label);
        }
    }
}

/// Crokinole: a row a round with each side's round points and 20s, and its game points
/// (`running`: its score so far, for a game to a target), then a totals row.
fn crokinole_grid(
    doc: &mut Doc,
    w: &Words,
    names: &[String; 2],
    y: f32,
    hint: &str,
    rounds: usize,
    running: bool,
) {
    doc.text(MARGIN, y, HINT, hint);
    let y = y + 8.0;
    let first = 56.0;
    let col = (WIDTH - first) / 6.0;
    let last = if running {
        w.score
    } else {
        w.game_points_short
    };
    side_headers(
        doc,
        MARGIN,
        y,
        first,
        &[w.points, w.twenties, last],
        col,
        names,
    );
    doc.text(MARGIN + first / 2.0, y + 29.5, COLUMN, w.cro_round);
    let row = 20.0;
    let body = y + HEADER_H;
    let end = body + (rounds + 1) as f32 * row;
    doc.fill(MARGIN, end - row, WIDTH, row, 0.93);
    for r in 0..rounds {
        let base = body + r as f32 * row + 14.0;
        doc.text(
            MARGIN + first / 2.0,
            base,
            BODY.center(),
            &(r + 1).to_string(),
        );
    }
    doc.text(
        MARGIN + first / 2.0,
        end - 6.0,
        Style::bold(10.0).center(),
        w.total,
    );
    let mut cols = vec![first];
    cols.extend([col; 6]);
    let mut rows = vec![HEADER_H - NAMES_H];
    rows.extend(std::iter::repeat_n(row, rounds + 1));
    doc.grid(MARGIN, y + NAMES_H, &cols, &rows, 0.6);
    // The two sides apart.
    let mid = MARGIN + first + 3.0 * col;
    doc.line(mid, y, mid, end, 1.6);
}

/// Mölkky: for each leg, a grid of throws with each side's points and running total.
fn molkky_grid(
    doc: &mut Doc,
    w: &Words,
    names: &[String; 2],
    rules: &MolkkyRules,
    y: f32,
    space: f32,
) {
    doc.text(MARGIN, y, HINT, &w.molkky_rules(rules));
    doc.text(MARGIN, y + 12.0, HINT, w.molkky_hint);
    let y = y + 22.0;
    let space = space - 22.0;
    let legs = rules.best_of.max(1) as usize;
    let across = legs.min(3);
    let bands = legs.div_ceil(across);
    let gap = 12.0;
    let band_h = (space - (bands - 1) as f32 * gap) / bands as f32;
    // Five legs take two bands: smaller rows keep 15 throws in each leg.
    let row = if bands > 1 { 14.0 } else { 16.0 };
    let turns = (((band_h - 50.0) / row).floor() as usize).clamp(5, 25);
    let block_w = (WIDTH - (across - 1) as f32 * 10.0) / across as f32;
    let first = 22.0;
    let col = (block_w - first) / 4.0;
    for leg in 0..legs {
        let x = MARGIN + (leg % across) as f32 * (block_w + 10.0);
        let top = y + (leg / across) as f32 * (band_h + gap);
        doc.text(x, top + 11.0, LABEL, &format!("{} {}", w.leg, leg + 1));
        let grid_top = top + 16.0;
        side_headers(doc, x, grid_top, first, &[w.points, w.total], col, names);
        let body = grid_top + HEADER_H;
        for r in 0..turns {
            let base = body + r as f32 * row + row / 2.0 + 3.0;
            let number = Style::regular(8.0).center().grey(0.45);
            doc.text(x + first / 2.0, base, number, &(r + 1).to_string());
        }
        let mut cols = vec![first];
        cols.extend([col; 4]);
        let mut rows = vec![HEADER_H - NAMES_H];
        rows.extend(std::iter::repeat_n(row, turns));
        doc.grid(x, grid_top + NAMES_H, &cols, &rows, 0.5);
        let mid = x + first + 2.0 * col;
        doc.line(mid, grid_top, mid, body + turns as f32 * row, 1.4);
    }
}

// ---------------------------------------------------------------------------------------------
// Standings

/// A pool's head: "Pool A", "Poule AB".
fn pool_label(w: &Words, i: usize) -> String {
    format!("{} {}", w.pool, super::pools::letters(i))
}

/// The pool of an entrant while the pools play (the summary's `pool` on its standings row),
/// for the bye lines.
fn pool_of(t: &Tournament, entrant: usize) -> Option<usize> {
    t.pool_places()?.get(&entrant)?.pool
}

/// The round's tables of each group the summary names (`table_groups`: a pool, a knockout),
/// with the group's head.
fn table_groups(t: &Tournament, w: &Words) -> Vec<(Vec<usize>, String)> {
    let summary = t.summary();
    let groups = summary["table_groups"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    groups
        .iter()
        .filter_map(|g| {
            let label = match (g["pool"].as_u64(), g["bracket"].as_str()) {
                (Some(i), _) => pool_label(w, i as usize),
                (None, Some("main")) => w.main_knockout.to_string(),
                (None, Some("consolation")) => w.consolation.to_string(),
                _ => return None,
            };
            let tables = g["tables"]
                .as_array()?
                .iter()
                .filter_map(|x| x.as_u64().map(|x| x as usize))
                .collect();
            Some((tables, label))
        })
        .collect()
}

/// Where a standings row prints while the pools play: under its pool, or (withdrawn before
/// the pools were dealt) under the withdrawn, after every pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    Pool(usize),
    Withdrawn,
}

/// The standings as printed, each with its group and its rank there: pool by pool while the
/// pools play (the summary's `pool` and `pool_rank`, as the screens show them; a withdrawn
/// entrant has no rank in its pool), else the whole field with no group.
fn standing_groups<'a>(
    t: &Tournament,
    standings: &'a [super::Standing],
) -> Vec<(Option<Group>, Option<usize>, &'a super::Standing)> {
    let places = t.pool_places();
    let mut out: Vec<_> = standings
        .iter()
        .map(|s| {
            let Some(places) = &places else {
                return (None, Some(s.rank), s);
            };
            let place = places.get(&s.entrant);
            let group = place
                .and_then(|p| p.pool)
                .map_or(Group::Withdrawn, Group::Pool);
            (Some(group), place.and_then(|p| p.rank), s)
        })
        .collect();
    // Pool by pool; within a pool the field's order stands (a stable sort).
    out.sort_by_key(|(group, _, _)| *group);
    out
}

/// The standings with every figure, then what the abbreviations mean and the ranking keys.
pub fn standings_pdf(t: &Tournament, lang: Lang) -> Vec<u8> {
    let w = Words::of(lang);
    // A pools-then-knockout tournament's table counts every match, pools and knockout: the
    // champion need not top it, so it is not called its final ranking.
    let heading = if t.status() == Status::Finished && system_name(t) != "pools_knockout" {
        w.final_standings
    } else {
        w.standings
    };
    let title = format!("{} — {heading}", w.game(t.game()));
    let mut doc = Doc::new();
    doc.text(MARGIN, 62.0, TITLE, &title);
    let (n, of) = (t.round(), total_rounds(t));
    let state = match t.field().rounds.last() {
        None => w.before_first().to_string(),
        Some(r) if r.complete() => w.after_round(n, of),
        Some(r) => {
            let done = r.matches.iter().filter(|m| m.result.is_some()).count();
            w.in_progress(n, of, done, r.matches.len())
        }
    };
    let system = w.system(&system_name(t));
    let entrants = w.entrants(t.field().entrants.len());
    doc.text(
        MARGIN,
        82.0,
        SUBTITLE,
        &format!("{state} · {system} · {entrants}"),
    );
    let mut y = 104.0;
    if let Some(c) = t.champion() {
        let line = format!("{} {}", with_colon(lang, w.champion), entrant_name(t, c));
        doc.text_fit(MARGIN, y, Style::bold(13.0), WIDTH, &line);
        y += 14.0;
    }

    let cols: &[Col] = if Key::Twenties.counted_in(t.game()) {
        &[
            Col::GamePoints,
            Col::MatchPoints,
            Col::Twenties,
            Col::ScoreDiff,
            Col::Buchholz,
            Col::Played,
            Col::Wins,
            Col::Draws,
            Col::Losses,
            Col::Byes,
        ]
    } else {
        &[
            Col::MatchPoints,
            Col::GamePoints,
            Col::ScoreDiff,
            Col::Buchholz,
            Col::Played,
            Col::Wins,
            Col::Draws,
            Col::Losses,
            Col::Byes,
        ]
    };
    let rank_w = 28.0;
    let fig_w = 32.0;
    let name_x = MARGIN + rank_w;
    let name_w = WIDTH - rank_w - fig_w * cols.len() as f32;
    let fig_x = |i: usize| name_x + name_w + (i as f32 + 0.5) * fig_w;
    let row = 18.0;
    let head = Style::bold(9.5);
    let header = |doc: &mut Doc, y: f32| {
        doc.fill(MARGIN, y, WIDTH, row + 2.0, 0.82);
        let base = y + 13.5;
        doc.text(MARGIN + rank_w / 2.0, base, head.center(), w.rank);
        doc.text(name_x + 4.0, base, head, w.entrant);
        for (i, c) in cols.iter().enumerate() {
            doc.text(fig_x(i), base, head.center(), w.cols[*c as usize].0);
        }
    };
    y += 8.0;
    header(&mut doc, y);
    y += row + 2.0;
    let text = Style::regular(10.0);
    let tag = Style::regular(8.0).grey(0.4);
    let standings = t.standings();
    let mut last_group = None;
    let mut i = 0;
    for (group, rank, s) in standing_groups(t, &standings) {
        // A group's head keeps at least its first row on its page, and a group cut by the
        // page is headed again on the next.
        let mut head = group.is_some() && group != last_group;
        let room = if head { 2.0 * row } else { row };
        if y + room > BOTTOM {
            doc.new_page();
            y = 48.0;
            header(&mut doc, y);
            y += row + 2.0;
            head = group.is_some();
        }
        if let (true, Some(group)) = (head, group) {
            let label = match group {
                Group::Pool(i) => pool_label(w, i),
                Group::Withdrawn => w.withdrawn_group.to_string(),
            };
            doc.text_fit(MARGIN + 4.0, y + 14.0, Style::bold(11.0), WIDTH, &label);
            y += row;
            i = 0;
        }
        last_group = group;
        if i % 2 == 1 {
            doc.fill(MARGIN, y, WIDTH, row, 0.95);
        }
        i += 1;
        let base = y + 13.0;
        let f = &s.figures;
        doc.text(
            MARGIN + rank_w - 8.0,
            base,
            Style::bold(10.0).right(),
            &rank.map_or_else(|| "–".to_string(), |k| k.to_string()),
        );
        // The name, and after it the withdrawn mark.
        let mark = encode(w.withdrawn);
        let mark_w = if f.withdrawn {
            width(&mark, tag.font, tag.size) + 8.0
        } else {
            0.0
        };
        let name = fit(
            &entrant_name(t, s.entrant),
            text.font,
            text.size,
            name_w - 8.0 - mark_w,
        );
        doc.bytes(name_x + 4.0, base, text, &name);
        if f.withdrawn {
            let after = name_x + 10.0 + width(&name, text.font, text.size);
            doc.bytes(after, base, tag, &mark);
        }
        for (i, c) in cols.iter().enumerate() {
            let value = match c {
                Col::MatchPoints => f.match_points.to_string(),
                Col::GamePoints => f.game_points.to_string(),
                Col::ScoreDiff if f.score_diff > 0 => format!("+{}", f.score_diff),
                Col::ScoreDiff => f.score_diff.to_string(),
                Col::Twenties => f.twenties.to_string(),
                Col::Buchholz => f.buchholz.to_string(),
                Col::Played => f.played.to_string(),
                Col::Wins => f.wins.to_string(),
                Col::Draws => f.draws.to_string(),
                Col::Losses => f.losses.to_string(),
                Col::Byes => f.byes.to_string(),
            };
            // The first ranking key in bold.
            let style = if i == 0 { Style::bold(10.0) } else { text };
            doc.text(fig_x(i), base, style.center(), &value);
        }
        y += row;
    }
    doc.line(MARGIN, y, RIGHT, y, 0.6);

    // What the columns mean, and how the table is ranked.
    let legend = cols
        .iter()
        .map(|c| {
            let (short, long) = w.cols[*c as usize];
            format!("{} {long}", with_colon(lang, short))
        })
        .collect::<Vec<_>>()
        .join(" · ");
    let keys: Vec<&str> = t.field().keys.iter().map(|k| w.key(*k)).collect();
    let ranked = format!(
        "{} {}, {}.",
        with_colon(lang, w.ranked_by),
        keys.join(", "),
        w.seed_order
    );
    y += 8.0;
    let small = Style::regular(8.5).grey(0.3);
    for paragraph in [legend, ranked] {
        for line in wrap(&paragraph, small.font, small.size, WIDTH) {
            y += 12.0;
            if y > BOTTOM {
                doc.new_page();
                y = 60.0;
            }
            doc.text(MARGIN, y, small, &line);
        }
        y += 4.0;
    }
    doc.finish(&title, lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_1_letters_keep_their_code_and_others_fold_or_become_a_question_mark() {
        assert_eq!(encode("Zoé"), b"Zo\xe9");
        assert_eq!(encode("Jürgen Groß"), b"J\xfcrgen Gro\xdf");
        assert_eq!(encode("Œuvre €5 – “ok”"), b"\x8cuvre \x805 \x96 \x93ok\x94");
        assert_eq!(encode("Łukasz Świątek"), b"Lukasz Swiatek");
        assert_eq!(encode("Nguyễn"), b"Nguy\xean");
        assert_eq!(
            encode("Ana\u{0301}"),
            b"An\xe1",
            "a decomposed accent goes back on its letter"
        );
        assert_eq!(encode("山田 🎯"), b"?? ?");
        assert_eq!(encode("a\tb\u{200B}c\u{7}"), b"a bc");
    }

    #[test]
    fn long_text_is_shortened_with_an_ellipsis_to_fit() {
        let long = "Anastasia-Konstantina Papadopoulou & Maximilian";
        let bytes = fit(long, Font::Regular, 10.0, 100.0);
        assert!(width(&bytes, Font::Regular, 10.0) <= 100.0);
        assert_eq!(bytes.last(), Some(&0x85));
        assert_eq!(fit("Zoé", Font::Regular, 10.0, 100.0), encode("Zoé"));
        assert_eq!(width(b"AAAAAAAAAA", Font::Bold, 10.0), 72.2);
    }
}
