//! Every listed move plays back: over random reachable
//! positions of every catalogue variant, each legal move's canonical `notation`, its `long`
//! form, its minimal long form (turning squares only) and a long form naming a different
//! landing square on every straight run must all be read back as exactly that move.
//!
//! Positions come from seeded random games from each variant's start position, so the test is
//! repeatable. `cargo test` plays a few games per variant; the `--ignored` test plays many more.

use arbiter_rules::{variant, variants, Budget, DescribedMove, Move, Position, Variant};

mod common;
use common::Rng;

/// The text forms of a move that must read back as that move.
fn forms(v: &Variant, d: &DescribedMove, rng: &mut Rng) -> Vec<String> {
    let mut out = vec![d.notation.clone(), d.long.clone()];
    // Games whose pieces canter write every landing in a long form (no turning-square form).
    if !(d.mv.is_capture() || d.mv.is_removal()) || v.rules().leaps() {
        return out;
    }
    if d.mv.is_removal() {
        // An opening removal (Konane): `x` and the square, or the square twice.
        let square = v.square_name(d.mv.from() as usize);
        out.push(format!("X{square}"));
        out.push(format!("{square}x{square}"));
        return out;
    }
    let sep = v.spec().capture_separator.to_string();
    let name = |cells: &[usize]| {
        cells
            .iter()
            .map(|&c| v.square_name(c))
            .collect::<Vec<_>>()
            .join(&sep)
    };
    // The canonical route gives one square per captured piece; a square is a turning square
    // unless the piece goes on in the same direction from it.
    let board = v.board();
    let route = &d.route;
    let dir_of = |a: usize, b: usize| board.direction(a, b);
    let mut minimal = vec![route[0]];
    let mut varied = vec![route[0]];
    for i in 1..route.len() {
        let straight = i + 1 < route.len()
            && dir_of(route[i - 1], route[i]).is_some()
            && dir_of(route[i - 1], route[i]) == dir_of(route[i], route[i + 1]);
        if !straight {
            minimal.push(route[i]);
            varied.push(route[i]);
            continue;
        }
        // Straight on between captured piece i-1 and captured piece i: any square strictly
        // between them names the landing.
        let dir = dir_of(route[i - 1], route[i]).expect("straight");
        let (a, b) = (d.captured[i - 1], d.captured[i]);
        let between: Vec<usize> = board
            .ray(a, dir)
            .iter()
            .map(|&c| c as usize)
            .take_while(|&c| c != b)
            .collect();
        assert!(
            between.contains(&route[i]),
            "{}: canonical square {} of {} is not between {} and {}",
            v.id(),
            v.square_name(route[i]),
            d.long,
            v.square_name(a),
            v.square_name(b)
        );
        varied.push(between[rng.below(between.len())]);
    }
    out.push(name(&minimal));
    out.push(name(&varied));
    out
}

fn check_position(v: &Variant, pos: &Position, rng: &mut Rng) -> usize {
    let described = v.describe_moves(pos, &Budget::unlimited()).expect("moves");
    // The moves endpoints read the same list from a MoveList, assembled by other code.
    let listed: Vec<DescribedMove> = v
        .list_moves(pos, &Budget::unlimited())
        .expect("moves")
        .iter()
        .map(|m| m.to_described())
        .collect();
    assert_eq!(listed, described, "{} {}", v.id(), v.fen(pos));
    for d in &described {
        for text in forms(v, d, rng) {
            match v.parse_move(pos, &text, &Budget::unlimited()) {
                Ok(got) => assert!(
                    got.mv == d.mv,
                    "{} {}: '{}' (listed as {}) reads as {}",
                    v.id(),
                    v.fen(pos),
                    text,
                    d.long,
                    got.long
                ),
                Err(e) => panic!(
                    "{} {}: '{}' (listed as {}) does not play back: {e}",
                    v.id(),
                    v.fen(pos),
                    text,
                    d.long
                ),
            }
        }
    }
    // Distinct listed moves have distinct identities and distinct notations.
    for (i, a) in described.iter().enumerate() {
        for b in &described[i + 1..] {
            assert!(!a.mv.same_identity(&b.mv), "{}: duplicate move", v.id());
            assert_ne!(a.notation, b.notation, "{} {}", v.id(), v.fen(pos));
        }
    }
    described.len()
}

/// Plays `games` random games of at most `plies` plies from the start and checks every
/// position met. Returns (positions, moves checked).
fn random_games(v: &Variant, seed: u64, games: usize, plies: usize) -> (usize, usize) {
    // FNV-1a of the id: a different game sequence per variant.
    let id = v.id().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let mut rng = Rng((seed ^ id) | 1);
    let (mut positions, mut moves) = (0, 0);
    for _ in 0..games {
        let mut pos = v.start();
        for _ in 0..plies {
            moves += check_position(v, &pos, &mut rng);
            positions += 1;
            let legal: Vec<Move> = v.legal_moves(&pos, &Budget::unlimited()).expect("moves");
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())];
            pos = v.play(&pos, &m);
        }
    }
    (positions, moves)
}

#[test]
fn every_listed_move_plays_back() {
    for v in variants() {
        // Games on the small drop-game boards end within a few dozen plies: play more of
        // them.
        let (mut p, mut m) = random_games(v, 0x5eed, 6, 160);
        let mut seed = 0x5eed;
        while p <= 100 && seed < 0x5eed + 20 {
            seed += 1;
            let (p2, m2) = random_games(v, seed, 6, 160);
            p += p2;
            m += m2;
        }
        assert!(p > 100, "{}: only {p} positions", v.id());
        eprintln!("{}: {p} positions, {m} moves", v.id());
    }
}

#[test]
#[ignore = "long: many random games per variant"]
fn every_listed_move_plays_back_long() {
    for v in variants() {
        let (p, m) = random_games(v, 0xdead_beef, 300, 300);
        eprintln!("{}: {p} positions, {m} moves", v.id());
    }
}

/// Four positions rich in king captures, written by hand.
#[test]
fn rich_king_positions_play_back() {
    let mut rng = Rng(7);
    for (id, fen) in [
        ("czech", "B:Wg3,e7,g7,g5:BKd6"),
        ("paraszt", "W:WK30:BK17,K18,19,K25,K26"),
        ("frisian", "B:WK2,K7,13,19,32,47,K49:BK23"),
        (
            "frisian",
            "B:W11,14,16,21,22,23,24,25,28,31,36,39,41,47:BK17",
        ),
        ("international", "W:WK47:B14,19,29,31,42"),
        ("international", "W:WK38:B18,19,32,33"),
    ] {
        let v = variant(id).unwrap();
        let pos = v.parse_fen(fen).unwrap();
        assert!(check_position(v, &pos, &mut rng) > 0);
    }
}
