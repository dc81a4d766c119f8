//! Positions with many capture moves, each reached by many routes: the generator collapses the
//! routes into moves exactly as a plain scan of the route list does (the first route of each
//! identity, in the order found), however many moves there are. Past a few dozen moves the
//! generator finds a route's move through a hash table; this checks it against the scan.

use std::collections::{BTreeMap, BTreeSet};

use arbiter_rules::{variant, variants, Budget, Color, GenError, Kind, Move, Position, Variant};

mod common;
use common::Rng;

/// Work allowed per position (positions that need more are skipped).
const UNITS: u64 = 3_000_000;

/// Moves enough for a climb (a scan of each route's moves takes long past that).
const MOST: usize = 400;

/// The routes of `pos` collapsed by a scan: each route whose identity no earlier route had.
fn scanned(v: &Variant, pos: &Position) -> Result<Vec<Move>, GenError> {
    let mut routes = Vec::new();
    v.generate_paths(pos, &Budget::new(UNITS), false, &mut routes)?;
    let mut moves: Vec<Move> = Vec::new();
    for r in routes {
        if !moves.iter().any(|m| m.same_identity(&r)) {
            moves.push(r);
        }
    }
    Ok(moves)
}

/// Checks `pos`; returns its number of moves (0 when it needs more than [`UNITS`]).
fn check(v: &Variant, pos: &Position) -> usize {
    let Ok(expected) = scanned(v, pos) else {
        return 0;
    };
    let moves = v
        .legal_moves(pos, &Budget::new(UNITS))
        .expect("what fits the budget with every route fits it collapsed");
    assert_eq!(moves, expected, "{}: {}", v.id(), v.fen(pos));
    let described = v
        .describe_moves(pos, &Budget::new(UNITS))
        .expect("described within the budget");
    // Described moves come in notation order: the same moves, each once.
    let key = |m: &Move| (m.from(), m.to(), m.becomes(), m.captured());
    let listed: BTreeSet<_> = described.iter().map(|d| key(&d.mv)).collect();
    assert_eq!(listed.len(), described.len(), "{}: {}", v.id(), v.fen(pos));
    assert_eq!(
        listed,
        moves.iter().map(key).collect(),
        "{}: {}",
        v.id(),
        v.fen(pos)
    );
    moves.len()
}

/// The FEN of a set of pieces, White to move.
fn fen_of(v: &Variant, pieces: &BTreeMap<usize, (Color, bool)>) -> String {
    let mut lists = [Vec::new(), Vec::new()];
    for (&cell, &(color, king)) in pieces {
        let name = v.square_name(cell);
        lists[color as usize].push(if king { format!("K{name}") } else { name });
    }
    format!("W:W{}:B{}", lists[0].join(","), lists[1].join(","))
}

/// Climbs from an empty board towards positions with many capture moves: adds or removes one
/// piece at a time (a king of the side to move, or a piece of the other side) and keeps the
/// change when the side to move has at least as many moves, all of them captures. Checks every
/// position kept; returns the numbers of moves found.
fn climb(v: &Variant, rng: &mut Rng, steps: usize) -> Vec<usize> {
    let cells: Vec<usize> = v.board().cells().iter().collect();
    let has_kings = *v.rules().piece(Kind::King) != arbiter_rules::rules::PieceRules::ABSENT;
    let mut pieces: BTreeMap<usize, (Color, bool)> = BTreeMap::new();
    let mut best = 0;
    let mut found = Vec::new();
    for _ in 0..steps {
        let mut next = pieces.clone();
        let cell = cells[rng.below(cells.len())];
        if next.remove(&cell).is_none() {
            let piece = if rng.below(4) == 0 {
                (Color::White, has_kings)
            } else {
                (Color::Black, has_kings && rng.below(4) == 0)
            };
            if !piece.1 && v.promotion(piece.0).contains(cell) {
                continue;
            }
            next.insert(cell, piece);
        }
        let Ok(pos) = v.parse_fen(&fen_of(v, &next)) else {
            continue;
        };
        let Ok(moves) = v.legal_moves(&pos, &Budget::new(UNITS)) else {
            continue;
        };
        let captures = moves.iter().all(|m| !m.captured().is_empty());
        if captures && moves.len() >= best {
            best = moves.len();
            pieces = next;
            found.push(check(v, &pos));
            // Enough to need the hash table many times over.
            if best > MOST {
                break;
            }
        }
    }
    found
}

#[test]
fn routes_collapse_into_moves_as_a_scan_does() {
    // Found by the fen fuzz target: 64,590 routes, 3,677 moves.
    let gothic = variant("gothic").unwrap();
    let pos = gothic
        .parse_fen(
            "B:W1,2,K64,36,38,23,13,K3,24,K45,31,7,25,51,K59,53,29,K33,K50,56,6,39,K61,43,\
             K37,K35,21,47:BK62,K54,K15,K63,K16,K34,K52",
        )
        .unwrap();
    assert_eq!(check(gothic, &pos), 3677);

    // Positions of every variant climbed towards many capture moves.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut many = 0;
    let mut most = 0;
    for v in variants() {
        let found = climb(v, &mut rng, 400);
        eprintln!("{}: {:?}", v.id(), found.iter().max());
        most = most.max(found.iter().copied().max().unwrap_or(0));
        many += found.iter().filter(|&&n| n > 2 * 32).count();
    }
    eprintln!("{many} positions with more than 64 moves, at most {most}");
    assert!(many >= 20, "only {many} positions with more than 64 moves");
}
