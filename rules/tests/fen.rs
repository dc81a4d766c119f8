//! FEN reading and writing (PDN 3.0 FEN), with the expected positions written out.

use arbiter_rules::{variant, Color, FenErrorKind, Kind};

fn squares(v: &arbiter_rules::Variant, fen: &str, c: Color, k: Kind) -> Vec<String> {
    let p = v.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    p.pieces(c, k)
        .iter()
        .map(|s| v.square_name(s))
        .collect::<Vec<_>>()
}

#[test]
fn ranges_kings_and_either_colour_first() {
    let v = variant("international").unwrap();
    let a = v.parse_fen("W:W31-50:B1-20").unwrap();
    let b = v.parse_fen("W:B1-20:W31-50").unwrap();
    assert_eq!(a, b);
    assert_eq!(a, v.start());
    assert_eq!(a.count(Color::White, Kind::Man), 20);
    let mut kings = squares(v, "B:WK10,K15-17,28:BK1", Color::White, Kind::King);
    kings.sort();
    assert_eq!(kings, ["10", "15", "16", "17"]);
    assert_eq!(squares(v, "B:WK10,28:BK1", Color::White, Kind::Man), ["28"]);
    // Written back with explicit lists, kings prefixed.
    assert_eq!(
        v.fen(&v.parse_fen("B:W28,K10:BK1").unwrap()),
        "B:WK10,28:BK1"
    );
}

#[test]
fn a_side_of_more_than_forty_pieces_is_written_whole() {
    // Canadian draughts (12x12, 72 squares): 44 white men and a black king; then 46 men
    // with kings among them, and the 40 and 41 around the writer's usual room.
    let v = variant("canadian").unwrap();
    let list = |range: std::ops::RangeInclusive<u32>| {
        range.map(|n| n.to_string()).collect::<Vec<_>>().join(",")
    };
    for (fen, written) in [
        ("W:W7-50:BK70", format!("W:W{}:BK70", list(7..=50))),
        (
            "B:WK1-6,7-46:BK72",
            format!(
                "B:W{}:BK72",
                [
                    (1..=6)
                        .map(|n| format!("K{n}"))
                        .collect::<Vec<_>>()
                        .join(","),
                    list(7..=46)
                ]
                .join(",")
            ),
        ),
        (
            "W:W7-46:B47-66",
            format!("W:W{}:B{}", list(7..=46), list(47..=66)),
        ),
        (
            "W:W7-47:B48-66",
            format!("W:W{}:B{}", list(7..=47), list(48..=66)),
        ),
    ] {
        assert_eq!(v.fen(&v.parse_fen(fen).unwrap()), written, "{fen}");
    }
}

#[test]
fn empty_lists_suffixes_and_trailing_dot() {
    let v = variant("international").unwrap();
    let p = v.parse_fen("W:W:B1").unwrap();
    assert_eq!(p.side_pieces(Color::White).len(), 0);
    assert_eq!(p.side_pieces(Color::Black).len(), 1);
    // lidraughts' half-move clock and move number are not part of the position.
    assert_eq!(
        v.parse_fen("W:W31-50:B1-20:H0:F1").unwrap(),
        v.parse_fen("W:W31-50:B1-20.").unwrap()
    );
}

#[test]
fn lidraughts_move_counters_are_read_and_carried() {
    use arbiter_rules::Counters;
    let v = variant("international").unwrap();
    let (p, c) = v.parse_fen_counters("W:WK46,K47:BK5:H12:F40").unwrap();
    assert_eq!(
        c,
        Some(Counters {
            halfmoves: 12,
            fullmove: 40
        })
    );
    assert_eq!(v.fen_counters(&p, c), "W:WK46,K47:BK5:H12:F40");
    // Missing fields take their start values; no counters, no fields written.
    let (_, c) = v.parse_fen_counters("W:WK46:BK5:F7").unwrap();
    assert_eq!(c.map(|c| (c.halfmoves, c.fullmove)), Some((0, 7)));
    let (p0, none) = v.parse_fen_counters("W:WK46:BK5").unwrap();
    assert_eq!(none, None);
    assert_eq!(v.fen_counters(&p0, None), "W:WK46:BK5");
    assert!(v.parse_fen("W:WK46:BK5:Hx").is_err());
    // A king's quiet move counts; a man move or a capture restarts the clock. The move
    // number goes up after Black's ply (White moves first in international).
    let c = Counters {
        halfmoves: 12,
        fullmove: 40,
    };
    let king = v
        .parse_move(&p, "47-42", &arbiter_rules::Budget::unlimited())
        .unwrap()
        .mv;
    let after = c.after(v, Color::White, &king);
    assert_eq!((after.halfmoves, after.fullmove), (13, 40));
    let p2 = v.play(&p, &king);
    let black = v
        .parse_move(&p2, "5-10", &arbiter_rules::Budget::unlimited())
        .unwrap()
        .mv;
    let after2 = after.after(v, Color::Black, &black);
    assert_eq!((after2.halfmoves, after2.fullmove), (14, 41));
    let (m, _) = v.parse_fen_counters("W:W31:B20:H9:F3").unwrap();
    let man = v
        .parse_move(&m, "31-26", &arbiter_rules::Budget::unlimited())
        .unwrap()
        .mv;
    assert_eq!(c.after(v, Color::White, &man).halfmoves, 0);
}

#[test]
fn algebraic_and_numeric_russian() {
    let v = variant("russian").unwrap();
    let num = v.parse_fen("W:W21-32:B1-12").unwrap();
    assert_eq!(num, v.start());
    assert_eq!(
        v.fen(&num),
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    );
    // 12x12: k1 is a square, not a king prefix (lower case).
    let c = variant("canadian").unwrap();
    assert_eq!(squares(c, "W:Wk1:BK1", Color::White, Kind::Man), ["72"]);
}

#[test]
fn errors_say_where() {
    let v = variant("international").unwrap();
    let err = |fen: &str| v.parse_fen(fen).unwrap_err();
    assert_eq!(err("").kind, FenErrorKind::Empty);
    assert!(matches!(err("X:W31").kind, FenErrorKind::BadSideToMove(_)));
    let e = err("W:W31,51:B1");
    assert!(
        matches!(e.kind, FenErrorKind::BadSquare(ref s) if s == "51"),
        "{e:?}"
    );
    assert_eq!(e.at, 6, "0-based character where \"51\" starts");
    assert!(e.to_string().contains("at character 7"), "{e}");
    assert!(matches!(err("W:W50-31").kind, FenErrorKind::BadRange(_)));
    assert!(matches!(err("W:Q1").kind, FenErrorKind::BadField(_)));
    // Two pieces on one square; a white man on its promotion row.
    assert!(err("W:W28:B28").to_string().contains("more than one piece"));
    assert!(err("W:W3:B40").to_string().contains("crowned"));
    // A kind the variant does not have.
    assert!(err("W:WP33:B1").to_string().contains("no parachutists"));
    // Odd squares of an 8x8 board in algebraic form.
    let r = variant("russian").unwrap();
    assert!(matches!(
        r.parse_fen("W:Wa2:Bb8").unwrap_err().kind,
        FenErrorKind::BadSquare(_)
    ));
}

/// `child_fen_into` writes what `fen` writes for every legal move of the positions of a
/// seeded random game of every variant (steps, captures, drops, opening removals, passes),
/// and of positions where a move empties a list or changes its first or last row, whichever
/// list it copies from the parent's text.
#[test]
fn a_childs_fen_from_its_parents_text_is_its_fen() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut children = 0;
    let mut copied = 0;
    let mut written = 0;
    let mut check = |v: &arbiter_rules::Variant, pos: &arbiter_rules::Position| {
        let mut parent_fen = Vec::new();
        let lists = v.fen_into(pos, &mut parent_fen);
        assert_eq!(parent_fen, v.fen(pos).into_bytes());
        let moves = v
            .describe_moves(pos, &arbiter_rules::Budget::unlimited())
            .unwrap();
        for m in &moves {
            let child = v.play(pos, &m.mv);
            let mut out = b"prefix".to_vec();
            v.child_fen_into(pos, &parent_fen, &lists, &m.mv, &child, &mut out);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("prefix{}", v.fen(&child)),
                "{} {} {}",
                v.id(),
                v.fen(pos),
                m.notation
            );
            children += 1;
            for c in Color::BOTH {
                let same = Kind::ALL
                    .iter()
                    .all(|&k| pos.pieces(c, k) == child.pieces(c, k));
                copied += usize::from(same);
                written += usize::from(!same);
            }
        }
        moves
    };
    for v in arbiter_rules::variants() {
        let mut pos = v.start();
        for _ in 0..80 {
            let moves = check(v, &pos);
            if moves.is_empty() {
                break;
            }
            pos = v.play(&pos, &moves[(next() % moves.len() as u64) as usize].mv);
        }
    }
    let international = arbiter_rules::variant("international").unwrap();
    for fen in [
        // The last black piece taken: Black's list becomes `:B`.
        "W:W28:B23",
        // Promotion on the first row, a king leaving the first row, a capture over both ends.
        "W:W6,50:B45",
        "B:WK1,46:B5,K50",
        "W:WK46:B41,28,14",
    ] {
        let pos = international.parse_fen(fen).unwrap();
        assert!(!check(international, &pos).is_empty(), "{fen}");
    }
    assert!(children > 10_000, "{children} children");
    // Both ways are taken often: a list copied (the side that did not move, mostly), a list
    // written again (the side that moved).
    assert!(copied > children / 2, "{copied} of {children} lists copied");
    assert!(
        written > children / 2,
        "{written} of {children} lists written"
    );
}

/// Camelot's castle moves made (`:C<white>,<black>`): read, written back only when a side has
/// made one, bounded by the two a side may make, and refused in variants without them.
#[test]
fn castle_moves_are_read_written_and_bounded() {
    let v = variant("camelot").unwrap();
    let p = v.parse_fen("B:Wg16,a4,b4:Ba13,b13:C1,0").unwrap();
    assert_eq!(p.castle_moves(Color::White), 1);
    assert_eq!(p.castle_moves(Color::Black), 0);
    assert_eq!(v.fen(&p), "B:Wa4,b4,g16:Ba13,b13:C1,0");
    let none = v.parse_fen("B:Wg16,a4,b4:Ba13,b13:C0,0").unwrap();
    assert_eq!(v.fen(&none), "B:Wa4,b4,g16:Ba13,b13");
    // The count is part of the position: the same pieces with another count differ.
    assert_ne!(p, none);
    assert!(v
        .parse_fen("W:Wf16,a4:Ba13,b13:C3,0")
        .unwrap_err()
        .to_string()
        .contains("only 2"));
    assert!(matches!(
        v.parse_fen("W:Wf16,a4:Ba13,b13:C1").unwrap_err().kind,
        FenErrorKind::BadField(_)
    ));
    for id in ["cam", "international"] {
        let w = variant(id).unwrap();
        let fen = format!("{}:C1,0", w.fen(&w.start()));
        assert!(
            w.parse_fen(&fen)
                .unwrap_err()
                .to_string()
                .contains("no castle moves"),
            "{id}"
        );
    }
}
