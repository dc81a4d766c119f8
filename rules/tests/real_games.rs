//! Real game records (`tests/data/games/` at the workspace root, public tournament files whose
//! sources and faults its README describes): every game must be read, every game with moves
//! must replay without an illegal move except the record errors that README documents, and a game the rules decide must never contradict its declared
//! result, read in the result convention the README documents for its file. Each kind of
//! record warning is shown on a real game where one exists.
//!
//! A missing folder fails the test.

use std::path::PathBuf;

use arbiter_rules::adjudication::{
    judge_pdn_game, no_tables, GameError, GameReport, ReadOptions, ResultConvention,
};
use arbiter_rules::notation::pdn::parse_pdn;
use arbiter_rules::{variant, Budget, RecordWarning, Verdict, WarningKind};

fn folder(name: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/games")
        .join(name);
    assert!(
        p.is_dir(),
        "{}: the real game records are missing (see tests/data/games/README.md)",
        p.display()
    );
    p
}

/// One game of a file.
struct Game {
    file: String,
    /// 0-based index in the file (the data README counts from 1: `g{index + 1}`).
    index: usize,
    has_moves: bool,
    report: Result<GameReport, GameError>,
}

impl Game {
    fn name(&self) -> String {
        format!("{} g{}", self.file, self.index + 1)
    }

    fn report(&self) -> &GameReport {
        self.report
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", self.name()))
    }

    fn warnings(&self, kind: WarningKind) -> Vec<&RecordWarning> {
        self.report()
            .warnings
            .iter()
            .filter(|w| w.kind == kind)
            .collect()
    }
}

/// Every game of a folder, judged under `id` with the convention `convention(file)`.
fn games(name: &str, id: &str, convention: impl Fn(&str) -> ResultConvention) -> Vec<Game> {
    let dir = folder(name);
    let v = variant(id).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdn"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "{name}: no PDN file in {}",
        dir.display()
    );
    let mut out = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        // Some files are ISO-8859-1.
        let text = String::from_utf8(bytes.clone())
            .unwrap_or_else(|_| bytes.iter().map(|&b| b as char).collect());
        let options = ReadOptions {
            convention: convention(&file),
            ..ReadOptions::default()
        };
        for (index, game) in parse_pdn(&text).iter().enumerate() {
            let budget = Budget::unlimited();
            out.push(Game {
                file: file.clone(),
                index,
                has_moves: !game.moves.is_empty(),
                report: judge_pdn_game(game, Some(v), 2000, options, &mut no_tables, &budget)
                    .map_err(|f| f.error),
            });
        }
    }
    out
}

/// The result convention the data README documents for a file: White's score first in the
/// KingsRow experiments, the first mover's (PDN 3.0) everywhere else.
fn documented(file: &str) -> ResultConvention {
    if file.starts_with("checkers-engine_kingsrow") {
        ResultConvention::WhiteFirst
    } else {
        ResultConvention::FirstMover
    }
}

fn find<'a>(games: &'a [Game], file: &str, g: usize) -> &'a Game {
    games
        .iter()
        .find(|x| x.file == file && x.index + 1 == g)
        .unwrap_or_else(|| panic!("{file} g{g} not found"))
}

/// The folder's games replay: `games` and `without_moves` are the data README's counts;
/// `record_errors` the games it documents as holding an illegal move (`file`, `g` from 1).
fn check(
    name: &str,
    id: &str,
    total: usize,
    without_moves: usize,
    record_errors: &[(&str, usize)],
) {
    let games = games(name, id, documented);
    assert_eq!(games.len(), total, "{name}: games read");
    let with_moves: Vec<&Game> = games.iter().filter(|g| g.has_moves).collect();
    assert_eq!(
        with_moves.len(),
        total - without_moves,
        "{name}: games with moves"
    );
    let mut failing = Vec::new();
    let mut conflicts = Vec::new();
    let mut decided = 0;
    for g in &with_moves {
        let r = match &g.report {
            Ok(r) => r,
            Err(e) => {
                failing.push(format!("{}: {e}", g.name()));
                continue;
            }
        };
        if r.judgement.verdict == Verdict::Invalid {
            let documented = record_errors
                .iter()
                .any(|(f, n)| *f == g.file && *n == g.index + 1);
            if !documented {
                failing.push(format!("{}: {:?}", g.name(), r.judgement.illegal));
            }
        }
        if matches!(
            r.judgement.verdict,
            Verdict::WhiteWins | Verdict::BlackWins | Verdict::Draw
        ) {
            decided += 1;
        }
        if r.agreement.agrees == Some(false) {
            conflicts.push(format!("{}: {}", g.name(), r.agreement.explanation));
        }
    }
    // A documented record error must stay an illegal move: a reader that accepts it is too
    // lenient.
    for (f, n) in record_errors {
        let g = find(&games, f, *n);
        assert_eq!(
            g.report().judgement.verdict,
            Verdict::Invalid,
            "{}: a documented record error replays",
            g.name()
        );
    }
    let legal = with_moves.len() - failing.len() - record_errors.len();
    eprintln!(
        "{name}: {} games, {} with moves, {legal} replay legally, {decided} decided by the rules",
        games.len(),
        with_moves.len()
    );
    assert!(failing.is_empty(), "{name}:\n{}", failing.join("\n"));
    assert!(
        legal * 1000 >= with_moves.len() * 995,
        "{name}: {legal} of {} replay",
        with_moves.len()
    );
    assert!(conflicts.is_empty(), "{name}:\n{}", conflicts.join("\n"));
}

#[test]
fn international_games() {
    check("international", "international", 1426, 0, &[]);
}

#[test]
fn english_games() {
    // g541: "the record is wrong, probably 28-32" (tests/data/games/README.md).
    check(
        "english",
        "english",
        991,
        0,
        &[("checkerboard_tinsley.pdn", 541)],
    );
}

#[test]
fn italian_games() {
    check("italian", "italian", 610, 1, &[]);
}

#[test]
fn russian_games() {
    check("russian", "russian", 885, 3, &[]);
}

#[test]
fn czech_games() {
    // pydraughts has no Czech variant; all 286 games with moves are legal Czech games.
    check("czech", "czech", 298, 12, &[]);
}

#[test]
fn brazilian_and_frisian_games() {
    check("brazilian", "brazilian", 25, 0, &[]);
    check("frisian", "frisian", 14, 0, &[]);
}

// Result conventions (tests/data/games/README.md, "Result conventions").

#[test]
fn english_files_disagree_on_whose_score_comes_first() {
    let first = games("english", "english", |_| ResultConvention::FirstMover);
    let white = games("english", "english", |_| ResultConvention::WhiteFirst);
    let disagreeing = |gs: &[Game], file: &str| -> (usize, usize) {
        let decided: Vec<&Game> = gs
            .iter()
            .filter(|g| g.file == file)
            .filter(|g| {
                g.report.as_ref().is_ok_and(|r| {
                    matches!(r.judgement.verdict, Verdict::WhiteWins | Verdict::BlackWins)
                })
            })
            .collect();
        let against = decided
            .iter()
            .filter(|g| g.report().agreement.agrees == Some(false))
            .count();
        (decided.len(), against)
    };
    // PlayStrategy: 20 games end on the board, the first figure being P1's = Black's.
    let ps = "py-draughts_playstrategy_american.pdn";
    assert_eq!(disagreeing(&first, ps), (20, 0));
    assert_eq!(disagreeing(&white, ps), (20, 20));
    // The KingsRow experiments: all 3 games end on the board, 1-0 meaning White won.
    let kr = "checkers-engine_kingsrow_experiments.pdn";
    assert_eq!(disagreeing(&white, kr), (3, 0));
    assert_eq!(disagreeing(&first, kr), (3, 3));
    // Read with the default, each of them says the other convention would agree; the declared
    // result is kept as written.
    for g in first.iter().filter(|g| g.file == kr) {
        let w = g.warnings(WarningKind::ResultConvention);
        assert_eq!(w.len(), 1, "{}", g.name());
        assert!(w[0].detail.contains("white-first"), "{}", w[0].detail);
        assert_eq!(g.report().declared.as_deref(), Some(w[0].text.as_str()));
    }
    // Results written by the moves follow the convention: the first KingsRow game is a White
    // win, "0-1" with the first mover's (Black's) score first.
    let g = find(&first, kr, 1);
    assert_eq!(g.report().judgement.verdict, Verdict::WhiteWins);
    assert_eq!(
        arbiter_rules::adjudication::result_text(
            g.report().variant,
            Verdict::WhiteWins,
            ResultConvention::FirstMover
        ),
        "0-1"
    );
}

// One real game for each kind of warning (verdict-would-differ and search-bound-reached
// occur in none of these files; the unit tests of `records` construct them).

#[test]
fn ambiguous_short_captures_are_resolved_by_the_rest_of_the_game() {
    let gs = games("english", "english", documented);
    // Games 56 and 89 (0-based; g57 and g90 of the file): 10x26 and 32x7 each
    // match two captures, and only one keeps the rest of the example legal.
    for (g, ply, text) in [(57, 37, "10x26"), (90, 22, "32x7")] {
        let game = find(&gs, "pdnstd_Tricks_traps_and_shots.pdn", g);
        assert_ne!(game.report().judgement.verdict, Verdict::Invalid);
        let w = game.warnings(WarningKind::AmbiguousMoveResolved);
        assert_eq!(w.len(), 1, "{}", game.name());
        assert_eq!((w[0].ply, w[0].text.as_str()), (ply, text));
        assert_eq!(w[0].alternatives.len(), 1);
        assert_eq!(
            game.report().judgement.moves[ply - 1].long,
            w[0].reading.clone().unwrap()
        );
    }
    let gs = games("international", "international", documented);
    // The two ambiguous captures of schildpad the data README counts.
    let n: usize = gs
        .iter()
        .filter(|g| g.file == "pdnstd_schildpad.pdn")
        .map(|g| g.warnings(WarningKind::AmbiguousMoveResolved).len())
        .sum();
    assert_eq!(n, 2);
}

#[test]
fn an_ambiguity_the_game_does_not_resolve_is_reported() {
    let gs = games("italian", "italian", documented);
    // The one ambiguous capture the data README counts in Campionato Assoluto 2005 (g46,
    // 3x26): both readings keep the game legal and undecided.
    let all: Vec<(&Game, &RecordWarning)> = gs
        .iter()
        .flat_map(|g| {
            g.report()
                .warnings
                .iter()
                .filter(|w| w.kind == WarningKind::AmbiguousMoveUnresolved)
                .map(move |w| (g, w))
        })
        .collect();
    assert_eq!(all.len(), 1);
    let (g, w) = all[0];
    assert_eq!(g.name(), "pdnstd_Campionato_Assoluto_2005.pdn g46");
    assert_eq!(w.text, "3x26");
    assert_eq!(w.verdict_differs, Some(false));
}

#[test]
fn russian_file_forms_naming_two_pieces() {
    let gs = games("russian", "russian", documented);
    // hg7 in g2 of the 1998 world championship: from h6 or h8; only h8-g7 keeps it legal.
    let g = find(&gs, "pcheckers_World_Championship_1998.pdn", 2);
    let w = g.warnings(WarningKind::AmbiguousMoveResolved);
    assert_eq!(w[0].text, "hg7");
    assert_eq!(w[0].reading.as_deref(), Some("h8-g7"));
}

#[test]
fn text_glued_to_a_move() {
    let gs = games("english", "english", documented);
    // g693 (London 1992, Tinsley - Chinook) ends in "26-22Whiteoversteppedthetime...".
    let g = find(&gs, "checkerboard_tinsley.pdn", 693);
    let w = g.warnings(WarningKind::TextAfterMove);
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].text, "26-22Whiteoversteppedthetimecontrolonthismove.");
    assert_eq!(w[0].reading.as_deref(), Some("26-22"));
    assert_eq!(g.report().judgement.moves.last().unwrap().long, "26-22");
    assert_eq!(w[0].ply, g.report().judgement.moves.len());
}

#[test]
fn an_incomplete_long_form() {
    let gs = games("international", "international", documented);
    // g40 ply 97: 15x33x31 gives some intermediate squares only (data README).
    let g = find(&gs, "brunogui_29eme_Open_d_Avignon_2014.pdn", 40);
    let w = g.warnings(WarningKind::IncompleteRoute);
    assert_eq!((w[0].ply, w[0].text.as_str()), (97, "15x33x31"));
    let read = w[0].reading.clone().unwrap();
    assert!(
        read.starts_with("15x33x") && read.ends_with("x31"),
        "{read}"
    );
    assert_ne!(g.report().judgement.verdict, Verdict::Invalid);
}

#[test]
fn playstrategy_english_games_in_rotated_algebraic_squares_with_split_captures() {
    let gs = games("english", "english", documented);
    let ps: Vec<&Game> = gs
        .iter()
        .filter(|g| g.file == "py-draughts_playstrategy_american.pdn")
        .collect();
    assert_eq!(ps.len(), 30);
    for g in &ps {
        assert_ne!(
            g.report().judgement.verdict,
            Verdict::Invalid,
            "{}",
            g.name()
        );
        assert_eq!(g.warnings(WarningKind::AlgebraicSquaresRotated).len(), 1);
    }
    // "1. c3-d4 = 11-15" (data README).
    let first = ps
        .iter()
        .find(|g| {
            g.report()
                .judgement
                .moves
                .first()
                .is_some_and(|m| m.notation == "11-15")
        })
        .unwrap();
    assert!(first.warnings(WarningKind::AlgebraicSquaresRotated)[0]
        .detail
        .contains("c3-d4 is 11-15"));
    // 37 half-moves re-joined into multi-jumps (the README's "merged split multi-jump ×37"),
    // e.g. g4's "57. f4xd2 e1xc3 58. c3xe5".
    let merged: usize = ps
        .iter()
        .flat_map(|g| g.warnings(WarningKind::SplitCapture))
        .map(|w| w.text.split_whitespace().count() - 1)
        .sum();
    assert_eq!(merged, 37);
    let w =
        find(&gs, "py-draughts_playstrategy_american.pdn", 4).warnings(WarningKind::SplitCapture);
    assert_eq!(w[0].text, "e1xc3 c3xe5");
}

#[test]
fn a_token_that_is_no_move() {
    let gs = games("international", "international", documented);
    // g4: "9n" instead of "9." (data README).
    let g = find(&gs, "pcheckers_prof2.pdn", 4);
    let w = g.warnings(WarningKind::NotAMove);
    assert_eq!(w[0].text, "9n");
    assert_ne!(g.report().judgement.verdict, Verdict::Invalid);
}

#[test]
fn repaired_tags_unknown_moves_and_conflicting_results() {
    {
        let gs = games("international", "international", documented);
        // An "Event" line that lost its '[' after a literal \r (ChapionnatSurinam2025 g11).
        let g = find(&gs, "brunogui_ChapionnatSurinam2025.pdn", 11);
        assert_eq!(g.warnings(WarningKind::TagRepaired).len(), 1);
        assert_ne!(g.report().judgement.verdict, Verdict::Invalid);
        // Result tag against game terminator: candidate95 g8 and 40Camp g1 (data README).
        for (file, n) in [
            ("pcheckers_candidate95.pdn", 8),
            ("pdnstd_40Camp.DamaInternazionaleAssoluto.pdn", 1),
        ] {
            let w = find(&gs, file, n).warnings(WarningKind::ResultTagConflict);
            assert_eq!(w.len(), 1, "{file} g{n}");
        }
        let conflicts = gs
            .iter()
            .filter(|g| g.report.is_ok())
            .filter(|g| !g.warnings(WarningKind::ResultTagConflict).is_empty())
            .count();
        assert_eq!(conflicts, 2);
    }
    {
        let gs = games("russian", "russian", documented);
        // Placeholders "1. - - 2. - -" where the moves are unknown: abatsiev g36 and g142, and
        // the same game in the Cyrillic file (g36).
        let unknown: Vec<String> = gs
            .iter()
            .filter(|g| !g.warnings(WarningKind::UnknownMoves).is_empty())
            .map(Game::name)
            .collect();
        assert_eq!(
            unknown,
            [
                "pcheckers_abatsiev.pdn g36",
                "pcheckers_abatsiev.pdn g142",
                "pdnstd_abatsiev_cyrillic.pdn g36"
            ]
        );
    }
}
