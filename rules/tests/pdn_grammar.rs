//! Conformance of the PDN 3.0 grammar checker (`arbiter_rules::notation::pdn`) with the
//! standard: PDN 3.0 as the FMJD publishes it (pdn.fmjd.org, "PDN Grammars", "FEN tag",
//! "GameType tag", "PDN Tags"; source text github.com/wiegerw/pdn).
//!
//! `conformance`: one case per production or token a file can break, each with a text the
//! grammar accepts and one it rejects, written from the standard's grammar. A rejected text
//! must fail `strict` with the rule, line and column given, and must give the tolerant reader
//! a warning of the kind given; an accepted one must pass and give no grammar warning.
//!
//! `real_files`: the public files of `tests/data/games/` (see its README), checked game by
//! game; the games the grammar rejects, and why, are listed file by file below. A missing
//! folder fails the test.

use std::collections::BTreeMap;
use std::path::PathBuf;

use arbiter_rules::notation::pdn::{check_file, check_game, deviations};
use arbiter_rules::notation::pdn::{parse_pdn, PdnNoteKind};

/// A production (or token) of the standard, a text it accepts, and a text it rejects: where
/// (line, column), under which rule, and the kind of warning the tolerant reader gives.
struct Case {
    production: &'static str,
    accepted: &'static str,
    rejected: &'static str,
    rule: &'static str,
    at: (usize, usize),
    kind: PdnNoteKind,
}

const fn case(
    production: &'static str,
    accepted: &'static str,
    rejected: &'static str,
    rule: &'static str,
    at: (usize, usize),
    kind: PdnNoteKind,
) -> Case {
    Case {
        production,
        accepted,
        rejected,
        rule,
        at,
        kind,
    }
}

use PdnNoteKind::*;

const CASES: &[Case] = &[
    // Game independent productions.
    case(
        "PdnFile: at least one Game",
        "1. 32-28 *",
        " \n ",
        "PdnFile",
        (2, 2),
        NotInGrammar,
    ),
    case(
        "PdnFile: games separated by a GameSeparator",
        "[Event \"a\"]\n1. 32-28 *\n[Event \"b\"]\n1. 31-27 *\n",
        "[Event \"a\"]\n1. 32-28\n[Event \"b\"]\n1. 31-27 *\n",
        "PdnFile",
        (3, 1),
        NotInGrammar,
    ),
    case(
        "GameSeparator: ASTERISK | Result",
        "1. 32-28 19-23 2-0\n",
        "1. 32-28 19-23 2:0\n",
        "Move",
        (1, 18),
        NonStandardResult,
    ),
    case(
        "Game: the header before the body",
        "[Event \"a\"]\n{ a comment }\n1. 32-28 *\n",
        "{ a comment }\n[Event \"a\"]\n1. 32-28 *\n",
        "Game",
        (2, 1),
        NotInGrammar,
    ),
    case(
        "GameHeader: PdnTag+",
        "[Event \"a\"]\n[Site \"b\"]\n*",
        "[Event \"a\"]\nSite \"b\"]\n*",
        "Game",
        (2, 1),
        MalformedTag,
    ),
    case(
        "GameBody: moves, variations, comments, setups, NAGs in any order",
        "1. 32-28 $1 {c} (1. 33-28) /FEN \"W:W31:B1\"/ 19-23 *",
        "1. 32-28 ; a comment\n19-23 *",
        "Game",
        (1, 10),
        NotInGrammar,
    ),
    case(
        "PdnTag: LBRACKET IDENTIFIER STRING RBRACKET",
        "[ Round \"17\" ]\n*",
        "[Round 17]\n*",
        "PdnTag",
        (1, 8),
        MalformedTag,
    ),
    case(
        "PdnTag: the RBRACKET",
        "[Round \"17\"]\n*",
        "[Round \"17\"\n*",
        "PdnTag",
        (2, 1),
        MalformedTag,
    ),
    case(
        "GameMove: MOVENUMBER? Move MOVESTRENGTH?",
        "1. 32-28! 1... 19-23(?) *",
        "1. 2-0",
        "GameMove",
        (1, 4),
        MalformedMoveNumber,
    ),
    case(
        "GameMove: a move number needs its move",
        "1. 32-28 19-23 *",
        "1. {comment} 32-28 *",
        "GameMove",
        (1, 4),
        MalformedMoveNumber,
    ),
    case(
        "Variation: LPAREN GameBody RPAREN",
        "1. 32-28 (1. 33-28 (1. 31-27)) 19-23 *",
        "1. 32-28 (Roberto's first choice) 19-23 *",
        "Variation",
        (1, 11),
        NotInGrammar,
    ),
    case(
        "Variation: not empty",
        "1. 32-28 (19-23) *",
        "1. 32-28 () *",
        "Variation",
        (1, 11),
        NotInGrammar,
    ),
    // Game dependent productions.
    case(
        "NormalMove: Square MOVESEPARATOR Square",
        "1. 32-28 19-23 *",
        "1. 32-28 19- *",
        "Move",
        (1, 14),
        MalformedMove,
    ),
    case(
        "CaptureMove: Square (CAPTURESEPARATOR Square)+",
        "1. 32-28 19-23 2. 28x19 14x23x32 3. 37:28 *",
        "1. 32-28 19-23 2. 28X19 *",
        "Move",
        (1, 21),
        MalformedMove,
    ),
    case(
        "Move: ALPHAMOVE, the separator left out",
        "[GameType \"25\"]\n1. c3d4 f6g5 *",
        "[GameType \"25\"]\n1. cd4 f6g5 *",
        "GameMove",
        (2, 4),
        MalformedMove,
    ),
    case(
        "Move: ELLIPSES for an unknown move",
        "1. ... 19-23 *",
        "1. .. 19-23 *",
        "GameMove",
        (1, 4),
        MalformedMoveNumber,
    ),
    case(
        "Square: ALPHASQUARE [a-h][1-8]",
        "[GameType \"25\"]\n1. c3-d4 *",
        "[GameType \"25\"]\n1. c3-i4 *",
        "Move",
        (2, 7),
        MalformedMove,
    ),
    case(
        "Square: NUMSQUARE, one or two digits (01 to 09 too)",
        "1. 32-28 09-13 *",
        "1. 32-28 3228 *",
        "Move",
        (1, 12),
        MalformedMove,
    ),
    case(
        "Result: Result1 | Result2 | DOUBLEFORFEIT",
        "1. 32-28 0-0",
        "1. 32-28 0-3",
        "Game",
        (1, 10),
        NonStandardResult,
    ),
    case(
        "Result: the Default results for GameType 21",
        "[GameType \"21\"]\n1. 11-15 1/2-1/2",
        "[GameType \"21\"]\n1. 11-15 1-1",
        "Result",
        (2, 10),
        NonStandardResult,
    ),
    case(
        "Result: the International results for GameType 20",
        "[GameType \"20\"]\n1. 32-28 1-1",
        "[GameType \"20\"]\n1. 32-28 1/2-1/2",
        "Result",
        (2, 10),
        NonStandardResult,
    ),
    case(
        "Result tag: one of the game type's results",
        "[GameType \"20\"]\n[Result \"2-0\"]\n1. 32-28 2-0",
        "[GameType \"20\"]\n[Result \"1-0\"]\n1. 32-28 2-0",
        "Result",
        (2, 10),
        NonStandardResult,
    ),
    // Tokens.
    case(
        "MOVENUMBER: digits and one or three dots",
        "1. 32-28 1... 19-23 *",
        "1.. 32-28 *",
        "GameMove",
        (1, 3),
        MalformedMoveNumber,
    ),
    case(
        "MOVENUMBER: digits",
        "9. 32-28 *",
        "9n 32-28 *",
        "Move",
        (1, 2),
        MalformedMoveNumber,
    ),
    case(
        "MOVESTRENGTH: [!?]+ or ([!?]+)",
        "1. 32-28!? 19-23(!!) *",
        "1. 32-28(!x) *",
        "Variation",
        (1, 10),
        NotInGrammar,
    ),
    case(
        "NAG: $ and digits",
        "1. 32-28 $14 *",
        "1. 32-28 $ *",
        "Game",
        (1, 10),
        NotInGrammar,
    ),
    case(
        "SETUP: / ... /",
        "1. 32-28 /FEN \"W:W31:B1\"/ *",
        "1. 32-28 /FEN \"W:W31:B1\" *",
        "Game",
        (1, 10),
        NotInGrammar,
    ),
    case(
        "STRING: \\\" escapes a quote",
        "[Event \"the \\\"Big\\\" Open\"]\n*",
        "[Event \"the \"Big\" Open\"]\n*",
        "PdnTag",
        (1, 14),
        MalformedTag,
    ),
    case(
        "COMMENT: { to the first }",
        "1. 32-28 { a comment } *",
        "1. 32-28 { a { nested } comment } *",
        "Game",
        (1, 25),
        NestedComment,
    ),
    case(
        "IDENTIFIER: a capital letter first",
        "[Event_2 \"a\"]\n*",
        "[event \"a\"]\n*",
        "PdnTag",
        (1, 2),
        MalformedTag,
    ),
    case(
        "white space: % line comments",
        "% Board game: International Draughts 10x10\n[Date \"2012.02.01\"]\n1. 32-28 *",
        "\\r\n[Date \"2012.02.01\"]\n1. 32-28 *",
        "PdnFile",
        (1, 1),
        NotInGrammar,
    ),
    // The FEN tag (doc/fen.rst).
    case(
        "Fen: COLOR first",
        "[FEN \"W:W31-50:B1-20\"]\n*",
        "[FEN \"X:W31-50:B1-20\"]\n*",
        "Fen",
        (1, 7),
        InvalidFen,
    ),
    case(
        "Fen: a DOT may end it",
        "[FEN \"B:W18,24,K10:B12,K22.\"]\n*",
        "[FEN \"B:W18,24,K10:B12,K22;\"]\n*",
        "Fen",
        (1, 27),
        InvalidFen,
    ),
    case(
        "NumericSquares: COLON COLOR NumericSquareSequence",
        "[FEN \"W:W31:B1\"]\n*",
        "[FEN \"W:W31:1\"]\n*",
        "Fen",
        (1, 13),
        InvalidFen,
    ),
    case(
        "NumericSquareSequence: the COMMA is mandatory",
        "[FEN \"W:W31,32:B1\"]\n*",
        "[FEN \"W:W31 32:B1\"]\n*",
        "Fen",
        (1, 13),
        InvalidFen,
    ),
    case(
        "NumericSquareRange: KING? NUMSQUARE (HYPHEN NUMSQUARE)?",
        "[FEN \"W:WK31-35:B1\"]\n*",
        "[FEN \"W:W31-:B1\"]\n*",
        "Fen",
        (1, 13),
        InvalidFen,
    ),
    case(
        "AlphaNumericSquares: KING? ALPHASQUARE, no ranges",
        "[FEN \"W:Wa1,Kc3:Bh8\"]\n*",
        "[FEN \"W:Wa1-c3:Bh8\"]\n*",
        "Fen",
        (1, 12),
        InvalidFen,
    ),
    case(
        "Fen: at least one square per colour (the grammar as written)",
        "[FEN \"W:W31:B1\"]\n*",
        "[FEN \"W:W31:B\"]\n*",
        "Fen",
        (1, 14),
        InvalidFen,
    ),
    // The GameType tag (doc/gametype.rst).
    case(
        "GameType: [0-9]+(,[WB],[0-9]+,[0-9]+,[ANS][0123](,[01])?)?",
        "[GameType \"21,B,8,8,N1,0\"]\n*",
        "[GameType \"21,B,8,8,N4\"]\n*",
        "GameType",
        (1, 12),
        InvalidGameType,
    ),
];

fn kinds(text: &str) -> Vec<PdnNoteKind> {
    parse_pdn(text)
        .iter()
        .flat_map(|g| deviations(text, g))
        .map(|d| d.kind)
        .collect()
}

#[test]
fn conformance() {
    let mut failures = Vec::new();
    for c in CASES {
        if let Err(e) = check_file(c.accepted) {
            failures.push(format!("{}: accepted text rejected: {e}", c.production));
        }
        let k = kinds(c.accepted);
        if !k.is_empty() {
            failures.push(format!("{}: accepted text warned {k:?}", c.production));
        }
        match check_file(c.rejected) {
            Ok(()) => failures.push(format!("{}: rejected text accepted", c.production)),
            Err(e) => {
                if (e.rule.as_str(), (e.line, e.column)) != (c.rule, c.at) {
                    failures.push(format!(
                        "{}: expected rule {} at {:?}, got {e} (rule {})",
                        c.production, c.rule, c.at, e.rule
                    ));
                }
            }
        }
        let k = kinds(c.rejected);
        // A text without games gives the tolerant reader no game to warn on.
        if !k.contains(&c.kind) && !c.rejected.trim().is_empty() {
            failures.push(format!(
                "{}: expected a {:?} warning, got {k:?}",
                c.production, c.kind
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("{} conformance cases", CASES.len());
}

/// The games of a file the grammar rejects (1-based, as `g<n>` in the data README).
enum Games {
    All,
    Only(&'static [usize]),
}

/// Why: the rule broken and what stands there (one of `found`), for the games listed, or for
/// every other rejected game of the file (`None`).
type Reason = (
    &'static str,
    &'static [&'static str],
    Option<&'static [usize]>,
);

/// Every file with games the grammar rejects; the others have none. Each reason was checked by
/// reading the file.
const REJECTED: &[(&str, Games, &[Reason])] = &[
    // GameType 26 (Default results), lidraughts' Result tags 2-0 / 0-2.
    (
        "brazilian/py-draughts_lidraughts_brazilian.pdn",
        Games::All,
        &[("Result", &["2-0\"]", "0-2\"]"], None)],
    ),
    // Forfeits written as a move number and a result (`1. 0-2`).
    (
        "czech/pdnstd_mrdrcd07.pdn",
        Games::Only(&[12, 20, 36]),
        &[("GameMove", &["0-2", "2-0"], None)],
    ),
    (
        "czech/pdnstd_mrdrcd08.pdn",
        Games::Only(&[31]),
        &[("GameMove", &["1-0"], None)],
    ),
    // Text glued to a move (the data README's g693, and g623 likewise).
    (
        "english/checkerboard_tinsley.pdn",
        Games::Only(&[623, 693]),
        &[(
            "Game",
            &[
                "Redoversteppedthetimecontrolonthismove.",
                "Whiteoversteppedthetimecontrolonthismove",
            ],
            None,
        )],
    ),
    // Prose written in parentheses, as a variation (every game but the last, g16).
    (
        "english/pcheckers_British_Computer_Championship_2002.pdn",
        Games::Only(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]),
        &[(
            "Variation",
            &[
                "A",
                "As",
                "Gemini",
                "Nemesis",
                "Roberto's",
                "Selected",
                "The",
                "This",
                "Wyllie",
            ],
            None,
        )],
    ),
    // A lone `-` ending the game, a `[` alone on a line, `[Empty]`, a Result tag `-`.
    (
        "international/brunogui_48th_Polish_Team_Championship.pdn",
        Games::Only(&[17, 19, 28, 41, 45, 47, 68, 79, 81]),
        &[
            ("Game", &["-"], Some(&[17, 19, 28])),
            ("Move", &["-"], Some(&[45, 47])),
            ("PdnTag", &["[Event"], Some(&[41, 81])),
            ("PdnTag", &["]"], Some(&[68])),
            ("Result", &["-\"]"], Some(&[79])),
        ],
    ),
    // A literal `\r` (backslash, r) at the end of lines.
    (
        "international/brunogui_4th_African_BLITZ_Championship_2024.pdn",
        Games::All,
        &[
            ("Game", &["\\r"], Some(&[1, 36])),
            ("PdnFile", &["\\r"], None),
        ],
    ),
    // `[Empty]`: a tag without a value.
    (
        "international/brunogui_Championnat_de_France_2021.pdn",
        Games::Only(&[19, 27, 32, 44, 52]),
        &[("PdnTag", &["]"], None)],
    ),
    (
        "international/brunogui_ChapionnatSurinam2025.pdn",
        Games::All,
        &[("Game", &["\\r"], Some(&[1])), ("PdnFile", &["\\r"], None)],
    ),
    (
        "international/brunogui_World_Title_Match_Women_2024.pdn",
        Games::All,
        &[("Game", &["\\r"], Some(&[1])), ("PdnFile", &["\\r"], None)],
    ),
    // A comment before the first game's tags; chess results in GameType 20.
    (
        "international/pcheckers_candidate95.pdn",
        Games::All,
        &[
            ("Game", &["[White"], Some(&[1])),
            ("Result", &["0-1\"]", "1/2-1/2\"]"], None),
        ],
    ),
    (
        "international/pcheckers_dutch96h.pdn",
        Games::All,
        &[
            ("Game", &["[Event"], Some(&[1])),
            ("Result", &["0-1\"]", "1-0\"]", "1/2-1/2\"]"], None),
        ],
    ),
    (
        "international/pcheckers_nk2003-amsterdam.pdn",
        Games::All,
        &[
            ("Game", &["[Event"], Some(&[1])),
            ("Result", &["0-1\"]", "1-0\"]", "1/2-1/2\"]"], None),
        ],
    ),
    // `9n` for `9.` (the data README's g4); chess results in GameType 20.
    (
        "international/pcheckers_prof2.pdn",
        Games::All,
        &[
            ("Move", &["n"], Some(&[4])),
            ("Result", &["0-1\"]", "1-0\"]", "1/2-1/2\"]"], None),
        ],
    ),
    (
        "international/pcheckers_wk2003.pdn",
        Games::All,
        &[
            ("Game", &["[Event"], Some(&[1])),
            ("Result", &["0-1\"]", "1-0\"]", "1/2-1/2\"]"], None),
        ],
    ),
    // No result nor `*` before the next game's tags.
    (
        "international/pdnstd_40Camp.DamaInternazionaleAssoluto.pdn",
        Games::Only(&[11]),
        &[("PdnFile", &["[Event"], None)],
    ),
    // Result tags 4-6 and 1-9 (a match score).
    (
        "international/pdnstd_delfts.pdn",
        Games::All,
        &[("Result", &["4-6\"]", "1-9\"]"], None)],
    ),
    // Chess results in GameType 20 (these four are in the standard's own `games/succeed/`,
    // which its grammar alone accepts: the results of a game type are the "PDN Tags" section's).
    (
        "international/pdnstd_kurnik.pdn",
        Games::All,
        &[("Result", &["0-1\"]", "1-0\"]", "1/2-1/2\"]"], None)],
    ),
    (
        "international/pdnstd_nk_ronde_01.pdn",
        Games::All,
        &[("Result", &["0-1\"]", "1-0\"]", "1/2-1/2\"]"], None)],
    ),
    (
        "international/pdnstd_nk_ronde_02.pdn",
        Games::All,
        &[("Result", &["0-1\"]", "1-0\"]", "1/2-1/2\"]"], None)],
    ),
    (
        "international/pdnstd_rk_ronde_12.pdn",
        Games::All,
        &[("Result", &["0-1\"]", "1-0\"]", "1/2-1/2\"]"], None)],
    ),
    // A move number followed by a comment, not a move (`1. {posizione perdente} 10-14`).
    (
        "italian/pcheckers_40champ-1996.pdn",
        Games::Only(&[112]),
        &[("GameMove", &["{posizione"], None)],
    ),
    // Russian short notation (`gf4`); `[Round "11.1]` without its closing quote.
    (
        "russian/pcheckers_First_Computers_Match_Moscow_1998.pdn",
        Games::All,
        &[("GameMove", &["cb4", "cd4", "ed4", "gf4", "gh4"], None)],
    ),
    (
        "russian/pcheckers_World_Championship_1998.pdn",
        Games::All,
        &[
            (
                "PdnTag",
                &["25\"]"],
                Some(&[313, 314, 315, 317, 318, 319, 321, 322, 323]),
            ),
            (
                "GameMove",
                &["ab4", "cb4", "cd4", "ed4", "ef4", "gf4", "gh4"],
                None,
            ),
        ],
    ),
    // A comment before the first game's tags; placeholders `1. - -` (the README's g36, g142).
    (
        "russian/pcheckers_abatsiev.pdn",
        Games::Only(&[1, 36, 142]),
        &[
            ("Game", &["[Event"], Some(&[1])),
            ("GameMove", &["-"], None),
        ],
    ),
    // A comment before the first game's tags; `[Round 17]`.
    (
        "russian/pcheckers_test.pdn",
        Games::Only(&[1, 2]),
        &[
            ("Game", &["[Event"], Some(&[1])),
            ("PdnTag", &["17]"], Some(&[2])),
        ],
    ),
    (
        "russian/pdnstd_abatsiev_cyrillic.pdn",
        Games::Only(&[36]),
        &[("GameMove", &["-"], None)],
    ),
];

/// Every PDN file of `tests/data/games/`, as (path from there, text).
fn real_files() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/games");
    assert!(
        root.is_dir(),
        "{}: the real game records are missing (see tests/data/games/README.md)",
        root.display()
    );
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pdn"))
            .collect();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            // Some files are ISO-8859-1.
            let text = String::from_utf8(bytes.clone())
                .unwrap_or_else(|_| bytes.iter().map(|&b| b as char).collect());
            let name = f.strip_prefix(&root).unwrap().display().to_string();
            out.push((name, text));
        }
    }
    assert!(out.len() >= 56, "only {} PDN files found", out.len());
    out
}

#[test]
fn real_files_rejected_exactly_where_the_grammar_says() {
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    let (mut games_total, mut rejected_total) = (0, 0);
    for (name, text) in real_files() {
        let games = parse_pdn(&text);
        games_total += games.len();
        let mut rejected: BTreeMap<usize, (String, String)> = BTreeMap::new();
        for (i, g) in games.iter().enumerate() {
            let strict = check_game(&text, g);
            // Tolerant reading warns about a game exactly when strict reading rejects it.
            let warned = !deviations(&text, g).is_empty();
            if warned != strict.is_err() {
                failures.push(format!(
                    "{name} g{}: strict {strict:?}, warned {warned}",
                    i + 1
                ));
            }
            if let Err(e) = strict {
                rejected.insert(i + 1, (e.rule, e.found));
            }
        }
        rejected_total += rejected.len();
        // The whole file: its first rejected game's error, or none.
        let first = rejected
            .keys()
            .next()
            .map(|&n| check_game(&text, &games[n - 1]));
        if check_file(&text).err() != first.map(|r| r.unwrap_err()) {
            failures.push(format!("{name}: check_file disagrees with its games"));
        }
        let Some((_, expected, reasons)) = REJECTED.iter().find(|(f, _, _)| *f == name) else {
            if !rejected.is_empty() {
                failures.push(format!("{name}: unexpected rejections {rejected:?}"));
            }
            continue;
        };
        seen.push(name.clone());
        let set: Vec<usize> = match expected {
            Games::All => (1..=games.len()).collect(),
            Games::Only(list) => list.to_vec(),
        };
        if rejected.keys().copied().collect::<Vec<_>>() != set {
            failures.push(format!(
                "{name}: rejected {:?}, expected {set:?}",
                rejected.keys().collect::<Vec<_>>()
            ));
        }
        for (n, (rule, found)) in &rejected {
            let reason = reasons
                .iter()
                .find(|(_, _, only)| only.is_some_and(|o| o.contains(n)))
                .or_else(|| reasons.iter().find(|(_, _, only)| only.is_none()));
            let ok = reason.is_some_and(|(r, f, _)| r == rule && f.contains(&found.as_str()));
            if !ok {
                failures.push(format!("{name} g{n}: rejected for {rule} at {found:?}"));
            }
        }
    }
    for (f, _, _) in REJECTED {
        if !seen.iter().any(|s| s == f) {
            failures.push(format!("{f}: listed, but not read"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("{games_total} games, {rejected_total} rejected by the grammar");
}

#[test]
fn hostile_texts_are_answered_not_crashed() {
    // Variations nested far deeper than any stack: an error, not a stack overflow.
    let deep = format!(
        "1. 32-28 {}19-23{} *",
        "(".repeat(200_000),
        ")".repeat(200_000)
    );
    let e = check_file(&deep).unwrap_err();
    assert_eq!(e.line, 1, "{e}");
    assert!(!kinds(&deep).is_empty());
    // Unclosed strings, comments and setups: still one answer each.
    for text in [
        format!("[Event \"{}", "a".repeat(100_000)),
        format!("1. 32-28 {}", "{".repeat(50_000)),
        format!("1. 32-28 {}", "/ ".repeat(50_001)),
        "[A \"".repeat(50_000),
    ] {
        assert!(check_file(&text).is_err());
        let _ = kinds(&text);
    }
}

/// The hand-written reading of the grammar (the fast path) agrees with the pest grammar on every
/// real game, on every conformance text, and on a thousand variants of real games with one
/// byte changed, inserted or removed (the bytes the grammar cares about).
#[test]
fn the_fast_reading_agrees_with_the_grammar() {
    use arbiter_rules::notation::pdn::agrees_with_pest;
    let mut failures = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for c in CASES {
        texts.push(c.accepted.to_string());
        texts.push(c.rejected.to_string());
    }
    let files = real_files();
    for (_, text) in &files {
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        for g in parse_pdn(text) {
            texts.push(body[g.span.clone()].to_string());
        }
    }
    let real = texts.len();
    // A fixed pseudo-random sequence (an LCG): the same variants on every run.
    let mut seed: u64 = 0x5eed;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n.max(1)
    };
    let alphabet = b"[]{}()/\"\\-x:.*!?$%0129ah8K \n";
    for _ in 0..3000 {
        let base = &texts[next(real)];
        let mut bytes = base.as_bytes().to_vec();
        if bytes.is_empty() {
            continue;
        }
        let at = next(bytes.len());
        let c = alphabet[next(alphabet.len())];
        match next(3) {
            0 => bytes[at] = c,
            1 => bytes.insert(at, c),
            _ => {
                bytes.remove(at);
            }
        }
        if let Ok(t) = String::from_utf8(bytes) {
            texts.push(t);
        }
    }
    for t in &texts {
        if !agrees_with_pest(t) {
            failures.push(t.chars().take(300).collect::<String>());
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} texts:\n{}",
        failures.len(),
        texts.len(),
        failures.join("\n----\n")
    );
}
