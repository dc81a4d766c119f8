//! The default work budgets are set from measurements: every real game of
//! `tests/data/games/` (judged as `/judge` does) and every 200-game slice of each file (judged
//! as `/v1/judge/pdn` does) must need at most a tenth of its budget, and the heaviest requests
//! an attacker can send must hit the budget instead of running for seconds.

use std::path::PathBuf;
use std::time::Instant;

use arbiter::config::{DEFAULT_PDN_WORK_BUDGET, DEFAULT_WORK_BUDGET};
use arbiter::ops::judge::JudgeOptions;
use arbiter::ops::records::{decode_pdn, judge_pdn_text, MAX_GAMES};
use arbiter::problem::ProblemCode;
use arbiter_rules::adjudication::{judge_pdn_game, no_tables, ReadOptions};
use arbiter_rules::notation::pdn::parse_pdn;
use arbiter_rules::{variant, Budget};

/// Every budget keeps this margin over the heaviest real use.
const MARGIN: u64 = 10;

fn pdn_files() -> Vec<(String, PathBuf)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/games");
    let dirs = std::fs::read_dir(&root).unwrap_or_else(|e| {
        panic!(
            "{}: the real game records are missing (see tests/data/games/README.md): {e}",
            root.display()
        )
    });
    let mut out = Vec::new();
    for d in dirs.flatten().filter(|d| d.path().is_dir()) {
        let folder = d.file_name().to_string_lossy().to_string();
        for f in std::fs::read_dir(d.path()).unwrap().flatten() {
            if f.path().extension().is_some_and(|e| e == "pdn") {
                out.push((folder.clone(), f.path()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn real_games_fit_the_budgets_with_a_wide_margin() {
    let files = pdn_files();
    let mut folders: Vec<&str> = files.iter().map(|(f, _)| f.as_str()).collect();
    folders.dedup();
    assert_eq!(
        folders,
        [
            "brazilian",
            "czech",
            "english",
            "frisian",
            "international",
            "italian",
            "russian"
        ],
        "tests/data/games: a folder of real game records is missing"
    );
    let (mut heaviest_game, mut heaviest_slice) = ((0u64, String::new()), (0u64, String::new()));
    let (mut units, mut games) = (0u64, 0usize);
    let started = Instant::now();
    for (folder, path) in &files {
        let v = variant(folder).unwrap();
        let bytes = std::fs::read(path).unwrap();
        let text = decode_pdn(&bytes);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (i, game) in parse_pdn(&text).iter().enumerate() {
            let b = Budget::unlimited();
            let _ = judge_pdn_game(
                game,
                Some(v),
                1000,
                ReadOptions::default(),
                &mut no_tables,
                &b,
            );
            units += b.used();
            games += 1;
            if b.used() > heaviest_game.0 {
                heaviest_game = (b.used(), format!("{name} game {i}"));
            }
        }
        // The file as /v1/judge/pdn would get it, in slices of at most 200 games.
        let blocks: Vec<&str> = text.split("\n[Event").collect();
        for chunk in blocks.chunks(MAX_GAMES) {
            let slice = chunk.join("\n[Event");
            let b = Budget::unlimited();
            let _ = judge_pdn_text(
                &slice,
                Some(v),
                usize::MAX,
                JudgeOptions::default(),
                &mut no_tables,
                &b,
            );
            if b.used() > heaviest_slice.0 {
                heaviest_slice = (b.used(), name.clone());
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{games} games, {units} units in {seconds:.2} s (both passes); heaviest game {} units \
         ({}), heaviest 200-game slice {} units ({})",
        heaviest_game.0, heaviest_game.1, heaviest_slice.0, heaviest_slice.1
    );
    assert!(
        heaviest_game.0 * MARGIN <= DEFAULT_WORK_BUDGET,
        "a real game needs {} units, more than a tenth of the request budget",
        heaviest_game.0
    );
    assert!(
        heaviest_slice.0 * MARGIN <= DEFAULT_PDN_WORK_BUDGET,
        "200 real games need {} units, more than a tenth of the PDN budget",
        heaviest_slice.0
    );
}

/// Hostile requests (the heaviest we know) are stopped by the budget, quickly.
#[test]
fn heavy_requests_hit_the_budget() {
    let frisian = "W:WK2:BK3,K7,K8,K9,K12,K17,K18,K19,K20,K21,K24,K28,K29,K33,K35,K36,K38,K39,K41,K42,K44,K45,K49";
    let game = format!("[GameType \"40\"]\n[FEN \"{frisian}\"]\n1. 2-7 *\n\n");
    let file = game.repeat(200);
    let b = Budget::new(DEFAULT_PDN_WORK_BUDGET);
    let started = Instant::now();
    let err = judge_pdn_text(
        &file,
        None,
        MAX_GAMES,
        JudgeOptions::default(),
        &mut no_tables,
        &b,
    )
    .unwrap_err();
    eprintln!(
        "200 Frisian games: {} after {} units, {:.2} s",
        err.problem().code,
        b.used(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(err.problem().code, ProblemCode::BudgetExceeded);
    assert_eq!(err.problem().limit, Some(DEFAULT_PDN_WORK_BUDGET));
    // One such game alone is judged within the request budget.
    let b = Budget::new(DEFAULT_WORK_BUDGET);
    let started = Instant::now();
    let one = judge_pdn_text(
        &game,
        None,
        MAX_GAMES,
        JudgeOptions::default(),
        &mut no_tables,
        &b,
    )
    .unwrap();
    eprintln!(
        "1 Frisian game: {} units, {:.3} s",
        b.used(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(one.summary.judged, 1);
    let b = Budget::unlimited();
    let started = Instant::now();
    arbiter::ops::moves::list_moves(variant("frisian").unwrap(), Some(frisian), &b).unwrap();
    eprintln!(
        "Frisian moves: {} units, {:.3} s",
        b.used(),
        started.elapsed().as_secs_f64()
    );
}

/// Canters multiply: a Cam knight on a lattice of its own pieces, every second square of every
/// second rank empty, can canter along any path of a king's graph of 16 squares. The move list
/// (every route searched, collapsed by start, end and captured set) stays within the budget of
/// one request.
#[test]
fn the_most_canter_routes_fit_the_request_budget() {
    let cam = "W:Wc2,d2,e2,b3,d3,f3,a4,b4,c4,d4,e4,f4,g4,b5,d5,f5,a6,b6,c6,d6,e6,f6,g6,b7,d7,f7,a8,b8,c8,d8,e8,f8,g8,b9,d9,f9,a10,b10,c10,d10,e10,f10,g10,b11,d11,f11,c12,d12,e12,Nc7:Bd13";
    let b = Budget::new(DEFAULT_WORK_BUDGET);
    let started = Instant::now();
    let moves = arbiter::ops::moves::list_moves(variant("cam").unwrap(), Some(cam), &b).unwrap();
    eprintln!(
        "Cam canters: {} moves, {} units, {:.3} s",
        moves.moves.len(),
        b.used(),
        started.elapsed().as_secs_f64()
    );
    assert!(b.used() < DEFAULT_WORK_BUDGET / 2, "{} units", b.used());
}

/// A knight's charge canters on past the landings where it could capture, so it searches
/// every canter route and every capture from every landing. On the same Cam lattice with
/// Black men between the holes of the odd ranks (b5, d5, f5 and so on), every landing of the
/// knight on those ranks offers a capture along the rank, and the canters between the ranks
/// remain: the search counts each canter and each capture against the request's budget.
#[test]
fn charges_past_every_capture_are_counted_against_the_budget() {
    let white = "c2,d2,e2,b3,d3,f3,a4,b4,c4,d4,e4,f4,g4,a6,b6,c6,d6,e6,f6,g6,a8,b8,c8,d8,e8,\
                 f8,g8,a10,b10,c10,d10,e10,f10,g10,b11,d11,f11,c12,d12,e12,Nc7";
    let cam = format!("W:W{white}:Bb5,d5,f5,b7,d7,f7,b9,d9,f9,d13");
    let b = Budget::new(DEFAULT_WORK_BUDGET);
    let started = Instant::now();
    let got = arbiter::ops::moves::list_moves(variant("cam").unwrap(), Some(&cam), &b);
    eprintln!(
        "Cam charges: {}, {} units, {:.3} s",
        match &got {
            Ok(m) => format!("{} moves", m.moves.len()),
            Err(e) => format!("{:?}", e.problem().code),
        },
        b.used(),
        started.elapsed().as_secs_f64()
    );
    let moves = got.unwrap();
    // The knight can capture b7 and d7 where it stands, so every legal move captures: its
    // captures and its charges.
    assert!(moves.moves.len() > 10, "{} moves", moves.moves.len());
    assert!(b.used() < DEFAULT_WORK_BUDGET / 2, "{} units", b.used());
}

/// On Camelot's 160 squares the same lattice, over the whole board (castles left empty), gives
/// a knight more canter routes than any request could search: the search's per-position bound
/// stops it within the request's budget, quickly (a 422 naming the bound).
#[test]
fn camelot_canter_lattices_hit_the_request_budget() {
    let v = variant("camelot").unwrap();
    let mut white = Vec::new();
    for cell in v.board().cells().iter() {
        let name = v.square_name(cell);
        let file = name.as_bytes()[0] - b'a';
        let rank: u32 = name[1..].parse().unwrap();
        // Every square with an odd file index and an odd rank is empty, but f9, where the
        // knight stands: its canters reach every hole. The castles stay empty.
        let hole = file % 2 == 1 && rank % 2 == 1;
        if name == "f9" {
            white.push("Nf9".to_string());
        } else if !hole && rank != 1 && rank != 16 {
            white.push(name);
        }
    }
    let fen = format!("W:W{}:Bg16", white.join(","));
    let b = Budget::new(DEFAULT_WORK_BUDGET);
    let started = Instant::now();
    let Err(err) = arbiter::ops::moves::list_moves(v, Some(&fen), &b) else {
        panic!("the move list was built, {} units", b.used());
    };
    eprintln!(
        "Camelot canters: {} after {} units, {:.3} s",
        err.problem().code,
        b.used(),
        started.elapsed().as_secs_f64()
    );
    // The per-position bound of the search stops it first, well inside the request's budget.
    assert_eq!(err.problem().code, ProblemCode::CaptureLimit);
    assert!(b.used() <= DEFAULT_WORK_BUDGET, "{} units", b.used());
}
