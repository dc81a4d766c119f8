//! The narrow generator (perft's fast path, `gen::bulk`) against the general generator: the
//! same moves (start, end, captured set, kinds) on random positions of every variant that has
//! a narrow generator, and the same perft from the positions of random games. Seeded; more
//! positions with `--ignored`.

use std::collections::BTreeSet;

use arbiter_rules::{perft, perft_general, variants, Color, Kind, Move, Position, Variant};

mod common;
use common::Rng;

fn identities(moves: &[Move]) -> BTreeSet<String> {
    moves
        .iter()
        .map(|m| {
            format!(
                "{}-{}:{:?}:{:?}>{:?}",
                m.from(),
                m.to(),
                m.captured(),
                m.piece(),
                m.becomes()
            )
        })
        .collect()
}

fn same_moves(v: &Variant, pos: &Position) {
    let general = v
        .legal_moves(pos, &arbiter_rules::Budget::unlimited())
        .expect("general generation");
    let bulk = v.bulk().expect("a narrow generator");
    let narrow = if v.decided(pos) {
        Vec::new()
    } else {
        bulk.legal_moves(v.rules(), pos).expect("narrow generation")
    };
    if !v.decided(pos) {
        // The judge's question, counted without building the moves.
        let counted = bulk
            .count_moves(v.rules(), pos, &arbiter_rules::Budget::unlimited())
            .expect("narrow count");
        assert_eq!(counted, general.len() as u64, "{}: {}", v.id(), v.fen(pos));
    }
    let (g, n) = (identities(&general), identities(&narrow));
    assert_eq!(
        g.len(),
        general.len(),
        "{}: {}: the general generator lists a move twice",
        v.id(),
        v.fen(pos)
    );
    assert_eq!(
        n.len(),
        narrow.len(),
        "{}: {}: the narrow generator lists a move twice",
        v.id(),
        v.fen(pos)
    );
    assert_eq!(g, n, "{}: {}", v.id(), v.fen(pos));
}

/// Both generators count the same leaves `depth` plies below `pos`.
fn same_perft(v: &Variant, pos: &Position, depth: u32) {
    assert_eq!(
        perft(v, pos, depth).unwrap(),
        perft_general(v, pos, depth).unwrap(),
        "{}: {}",
        v.id(),
        v.fen(pos)
    );
}

/// A random position: men and kings of both sides on random squares (men never on their own
/// promotion squares), the side to move at random.
fn random_position(v: &Variant, rng: &mut Rng, pieces: usize) -> Option<Position> {
    let cells: Vec<usize> = v.board().cells().iter().collect();
    let mut lists = [Vec::new(), Vec::new()];
    let mut used = BTreeSet::new();
    for _ in 0..pieces {
        let cell = cells[rng.below(cells.len())];
        if !used.insert(cell) {
            continue;
        }
        let color = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let king = rng.below(3) == 0 || v.promotion(color).contains(cell);
        let king = king
            && *v.rules().piece(Kind::King) != arbiter_rules::rules::PieceRules::ABSENT
            && !v.rules().ends.iter().any(|e| e.kind.forbids_kings());
        if !king && v.promotion(color).contains(cell) {
            continue;
        }
        let name = v.square_name(cell);
        lists[color as usize].push(if king { format!("K{name}") } else { name });
    }
    let side = if rng.below(2) == 0 { 'W' } else { 'B' };
    let fen = format!("{side}:W{}:B{}", lists[0].join(","), lists[1].join(","));
    v.parse_fen(&fen).ok()
}

fn check_variant(v: &Variant, games: usize, random: usize, seed: u64) {
    let mut rng = Rng(seed ^ (v.id().len() as u64) << 32 | 1);
    // Positions of random games from the start.
    for _ in 0..games {
        let mut pos = v.start();
        for _ in 0..120 {
            same_moves(v, &pos);
            let moves = v
                .legal_moves(&pos, &arbiter_rules::Budget::unlimited())
                .unwrap();
            if moves.is_empty() {
                break;
            }
            pos = v.play(&pos, &moves[rng.below(moves.len())]);
        }
    }
    // Random placements, many kings among them: long and branching captures.
    let cells = v.board().len();
    for i in 0..random {
        let pieces = 4 + i % (cells / 2);
        if let Some(pos) = random_position(v, &mut rng, pieces) {
            same_moves(v, &pos);
        }
    }
}

fn narrow_variants() -> Vec<&'static Variant> {
    variants().iter().filter(|v| v.bulk().is_some()).collect()
}

#[test]
fn the_narrow_generator_serves_the_plain_rulesets() {
    let ids: Vec<&str> = narrow_variants().iter().map(|v| v.id()).collect();
    for id in [
        "international",
        "english",
        "russian",
        "canadian",
        "thai",
        "italian",
        "pool",
        "turkish",
        "killer",
        "breakthrough",
        "frisian",
        "frysk",
    ] {
        assert!(ids.contains(&id), "{id} has a narrow generator: {ids:?}");
    }
    // Rulesets with another mechanism are left to the general generator.
    for id in ["parachute", "hawaiian", "lahti", "dameo"] {
        assert!(!ids.contains(&id), "{id}");
    }
}

#[test]
fn both_generators_find_the_same_moves() {
    for v in narrow_variants() {
        check_variant(v, 12, 400, 0x5eed);
    }
}

#[test]
#[ignore]
fn both_generators_find_the_same_moves_on_many_positions() {
    for v in narrow_variants() {
        check_variant(v, 400, 40_000, 0xdee9);
    }
}

#[test]
fn both_perfts_agree_below_random_positions() {
    let mut rng = Rng(0xbeef);
    for v in narrow_variants() {
        for _ in 0..6 {
            let mut pos = v.start();
            for _ in 0..rng.below(40) {
                let moves = v
                    .legal_moves(&pos, &arbiter_rules::Budget::unlimited())
                    .unwrap();
                if moves.is_empty() {
                    break;
                }
                pos = v.play(&pos, &moves[rng.below(moves.len())]);
            }
            same_perft(v, &pos, 3);
        }
    }
}

/// Perft from random placements of a few pieces: captures down to the lone-piece end rules
/// (Turkish), crownings that end the game (Breakthrough) and king captures under the killer
/// rule, a few plies below.
#[test]
fn both_perfts_agree_below_random_placements() {
    let mut rng = Rng(0xf00d);
    for v in narrow_variants() {
        let mut checked = 0;
        for i in 0..400 {
            if checked == 40 {
                break;
            }
            let Some(pos) = random_position(v, &mut rng, 3 + i % 8) else {
                continue;
            };
            if v.decided(&pos) {
                continue;
            }
            checked += 1;
            same_perft(v, &pos, 3);
        }
        assert_eq!(checked, 40, "{}", v.id());
    }
}

/// The king-move limit (Frisian): games from random placements of men and kings in which the
/// side to move mostly moves a king without capturing, so that runs reach the limit, are cut
/// short by a capture, or lose their king. Both generators see the same moves at every ply and
/// the same perft a few plies below.
#[test]
fn both_generators_hold_kings_at_the_move_limit() {
    let mut rng = Rng(0x7e57);
    let limited: Vec<&Variant> = narrow_variants()
        .into_iter()
        .filter(|v| v.rules().king_quiet_limit != 0)
        .collect();
    assert!(!limited.is_empty());
    let mut held = 0;
    for v in limited {
        for i in 0..800 {
            let Some(mut pos) = random_position(v, &mut rng, 4 + i % 6) else {
                continue;
            };
            for ply in 0..24 {
                same_moves(v, &pos);
                if ply % 6 == 5 {
                    same_perft(v, &pos, 3);
                }
                let moves = v
                    .legal_moves(&pos, &arbiter_rules::Budget::unlimited())
                    .unwrap();
                if moves.is_empty() {
                    break;
                }
                let run = pos.king_run(pos.side());
                if run.count >= v.rules().king_quiet_limit
                    && !pos.pieces(pos.side(), Kind::Man).is_empty()
                {
                    held += 1;
                }
                let kings: Vec<&Move> = moves
                    .iter()
                    .filter(|m| m.piece() == Kind::King && !m.is_capture())
                    .collect();
                let mv = if !kings.is_empty() && rng.below(4) != 0 {
                    // The same king again where it can.
                    let same: Vec<&&Move> = kings.iter().filter(|m| m.from() == run.cell).collect();
                    if !same.is_empty() && rng.below(3) != 0 {
                        **same[rng.below(same.len())]
                    } else {
                        *kings[rng.below(kings.len())]
                    }
                } else {
                    moves[rng.below(moves.len())]
                };
                pos = v.play(&pos, &mv);
            }
        }
    }
    // The limit was reached often enough to matter.
    assert!(held > 100, "{held} positions with a king held");
}
