//! Illegal moves explain themselves: every illegal move text gets the code of the first rule it
//! breaks ([`Violation`]), whichever variant. The positions are written by hand from the rules
//! cited at each case; the expected code is what the rule says, not what the code returns.

use arbiter_rules::notation::violation::{precedence_code, Violation};
use arbiter_rules::rules::Precedence;
use arbiter_rules::{variant, Budget, MoveError, Position};

/// The error for `text` in `fen` of variant `id`: it must be illegal (or name a square the
/// board does not have) with the code `expected`.
fn check(id: &str, fen: &str, text: &str, expected: Violation) -> MoveError {
    let v = variant(id).unwrap_or_else(|| panic!("no variant {id}"));
    let pos = v
        .parse_fen(fen)
        .unwrap_or_else(|e| panic!("{id}: {fen}: {e}"));
    check_at(id, &pos, text, expected)
}

fn check_at(id: &str, pos: &Position, text: &str, expected: Violation) -> MoveError {
    let v = variant(id).unwrap();
    let err = match v.parse_move(pos, text, &Budget::unlimited()) {
        Ok(d) => panic!("{id}: {} {text}: legal ({})", v.fen(pos), d.long),
        Err(e) => e,
    };
    assert_eq!(
        err.violation(),
        Some(expected),
        "{id}: {} {text}: {err}",
        v.fen(pos)
    );
    if let MoveError::Illegal { reason, legal, .. } = &err {
        assert!(!reason.is_empty());
        if expected != Violation::GameOver {
            assert!(
                !legal.is_empty(),
                "{id}: {text}: the legal moves are listed"
            );
        }
    }
    err
}

fn precedence_of(err: &MoveError) -> &'static str {
    precedence_code(&err.precedence().expect("a precedence rule"))
}

// International draughts, FMJD rules (art. 3: moves of men and kings; art. 4: captures).

#[test]
fn international_squares_and_pieces() {
    let start = "W:W31-50:B1-20";
    // The board has 50 playable squares.
    check("international", start, "32-51", Violation::NoSuchSquare);
    // Art. 3.1: a move is made with a piece of the side to move; 27 is empty at the start.
    check("international", start, "27-22", Violation::NoPiece);
    check("international", start, "19-23", Violation::NotOwnPiece);
    // Art. 3.3: a man moves to an empty square; 32 holds a white man.
    check(
        "international",
        start,
        "37-32",
        Violation::DestinationOccupied,
    );
}

#[test]
fn international_geometry() {
    let fen = "W:W28,46,41,K50:B5";
    // Art. 3.3: a man moves diagonally forward, one square.
    check("international", fen, "28-33", Violation::WrongDirection);
    check("international", fen, "28-29", Violation::WrongDirection);
    check("international", fen, "28-19", Violation::TooFar);
    check("international", fen, "28-24", Violation::NotOnALine);
    // Art. 3.7: a king moves along a diagonal over empty squares; 41 stands between 46 and 37
    // (a man, not a king, but the line is the same for any piece).
    check(
        "international",
        "W:WK46,41:B5",
        "46-37",
        Violation::PathBlocked,
    );
    check("international", fen, "28-28", Violation::NotAMoveOfThePiece);
}

#[test]
fn international_captures() {
    // 32 takes 27 and 17 (32x21x12); 34 takes only 29 (34x23); 33 could step to 29's side.
    let fen = "W:W32,33,34:B27,17,29";
    // Art. 4.1: capturing is compulsory.
    check("international", fen, "33-28", Violation::CaptureCompulsory);
    // Art. 4.13: the capture of the most pieces is compulsory.
    let err = check("international", fen, "34x23", Violation::CapturePrecedence);
    assert_eq!(precedence_of(&err), "most-pieces");
    // Art. 4.2/4.13: a capture is played to its end; 32x21 stops with 17 still capturable.
    check("international", fen, "32x21", Violation::CaptureIncomplete);
    // A leg over empty squares captures nothing (23 to 12 passes 18, empty).
    check(
        "international",
        fen,
        "34x23x12",
        Violation::NothingToCapture,
    );
    // The capture of one piece by 32 does not land on 27 (occupied): 32x27 is not a move.
    check(
        "international",
        fen,
        "32-27",
        Violation::DestinationOccupied,
    );
}

#[test]
fn game_over() {
    // White's only man is blocked and cannot capture: the game is over (FMJD art. 8).
    check(
        "international",
        "W:W50:B44,45,39",
        "50-44",
        Violation::GameOver,
    );
}

// Russian draughts, FMJD-64 rules: men capture backwards too, flying kings, free choice.

#[test]
fn russian() {
    let fen = "W:Wc3,e3:Bd4";
    check("russian", fen, "e3-f4", Violation::CaptureCompulsory);
    // A man steps diagonally forward only, whatever captures exist.
    check("russian", fen, "c3-b2", Violation::WrongDirection);
    check("russian", fen, "h8-g7", Violation::NoPiece);
    // c3xe5 takes d4; its second leg, e5 to c7, passes d6, which is empty.
    check("russian", fen, "c3xe5xc7", Violation::NothingToCapture);
    // A man of Russian draughts may capture backwards (FMJD-64), so black's d4 capturing
    // back over c3 is a capture: with two white men adjacent, black must capture.
    check(
        "russian",
        "B:Wc3,e3:Bd4,h8",
        "h8-g7",
        Violation::CaptureCompulsory,
    );
}

// English draughts, WCDF rules: men move and capture forward only, kings are short, a man
// reaching the king row ends its move.

#[test]
fn english() {
    // Black (moving first, towards 32) may not capture backwards with a man.
    check("english", "B:W14:B18", "18x9", Violation::WrongDirection);
    // A king moves one square.
    check("english", "B:W32:BK1", "1-10", Violation::TooFar);
    // 11x2 crowns the man on 2: its move ends there, so 11x2x9 is not a move.
    check(
        "english",
        "W:W11:B7,6",
        "11x2x9",
        Violation::PromotionEndsCapture,
    );
    // The capture must be taken (WCDF 1.18, 1.19).
    check(
        "english",
        "W:W11,30:B7",
        "30-26",
        Violation::CaptureCompulsory,
    );
}

// Frisian draughts: the capture of the highest value; a king makes at most three
// non-capturing moves in a row while its side has men.

#[test]
fn frisian_value_precedence() {
    let err = check(
        "frisian",
        "W:W32,34:B27,K29",
        "32x21",
        Violation::CapturePrecedence,
    );
    assert_eq!(precedence_of(&err), "highest-value");
    assert!(matches!(err.precedence(), Some(Precedence::Value { .. })));
}

#[test]
fn frisian_king_move_limit() {
    let v = variant("frisian").unwrap();
    let mut pos = v.parse_fen("W:WK46,50:BK1,5").unwrap();
    for text in ["46-41", "1-6", "41-46", "6-1", "46-41", "1-6"] {
        let m = v.parse_move(&pos, text, &Budget::unlimited()).unwrap();
        pos = v.play(&pos, &m.mv);
    }
    // Three moves of the king on 46/41 in a row: a fourth is not allowed, a man's move is.
    check_at("frisian", &pos, "41-46", Violation::KingMoveLimit);
    assert!(v.parse_move(&pos, "50-44", &Budget::unlimited()).is_ok());
}

// Italian draughts, FID rules: a man may not capture a king; with equal counts, the capture
// with a king comes first.

#[test]
fn italian() {
    check(
        "italian",
        "W:W22:BK18,1",
        "22x13",
        Violation::KingNotCapturable,
    );
    let err = check(
        "italian",
        "W:W22,K30:B18,27",
        "22x13",
        Violation::CapturePrecedence,
    );
    assert_eq!(precedence_of(&err), "capture-with-king");
}

// Turkish draughts: orthogonal moves, men forward and sideways, flying kings, captured pieces
// removed at once, no 180° turn within a capture, the majority rule.

#[test]
fn turkish() {
    check(
        "turkish",
        "W:We4,h1:Ba8",
        "e4-e3",
        Violation::WrongDirection,
    );
    check(
        "turkish",
        "W:We4,h1:Ba8",
        "e4-d5",
        Violation::WrongDirection,
    );
    check(
        "turkish",
        "W:WKd4:Bd6,d2,a8",
        "d4xd7xd1",
        Violation::CaptureReversal,
    );
    let err = check(
        "turkish",
        "W:Wa3,h3:Ba4,a6,h4",
        "h3xh5",
        Violation::CapturePrecedence,
    );
    assert_eq!(precedence_of(&err), "most-pieces");
}

// Drop games (Vilbergen, the Hungarian booklet): stones are dropped first, one a ply.

#[test]
fn drops() {
    let v = variant("vilbergen").unwrap();
    let start = v.fen(&v.start());
    check("vilbergen", &start, "a1-a2", Violation::DropRequired);
    let mut pos = v.start();
    for _ in 0..8 {
        let moves = v.legal_moves(&pos, &Budget::unlimited()).unwrap();
        pos = v.play(&pos, &moves[moves.len() / 2]);
    }
    assert_eq!(pos.hand(pos.side()), 0);
    let empty = v
        .board()
        .cells()
        .iter()
        .find(|&c| !pos.occupied().contains(c))
        .unwrap();
    let drop = format!("*{}", v.square_str(empty));
    check_at("vilbergen", &pos, &drop, Violation::NoStoneInHand);
}

// Konane (BrainKing's rules): the game opens with removals of own pieces.

#[test]
fn konane_opening() {
    let v = variant("hawaiian").unwrap();
    let start = v.fen(&v.start());
    check("hawaiian", &start, "d5-d3", Violation::RemovalRequired);
}

// Alquerque: the Hungarian rules capture one stone per move; a stone on the far line only
// captures. BrainKing's rules forbid going straight back.

#[test]
fn alquerque() {
    check(
        "alquerque",
        "W:Wc1:Bc2,c4,a5",
        "c1xc3xc5",
        Violation::TooManyCaptures,
    );
    check(
        "alquerque",
        "W:Wa5,c1:Be3",
        "a5-b5",
        Violation::FarRankCapturesOnly,
    );
    check(
        "alquerque-brainking",
        "W:Wc3:Be4:Lb3-c3,e5-e4",
        "c3-b3",
        Violation::NoReturn,
    );
}

/// Every code has a documented meaning and a distinct kebab-case name.
#[test]
fn codes_are_documented() {
    let mut seen = std::collections::BTreeSet::new();
    for v in Violation::ALL {
        assert!(!v.meaning().is_empty(), "{v:?}");
        assert!(
            v.code()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{}",
            v.code()
        );
        assert!(seen.insert(v.code()), "{} twice", v.code());
    }
}

/// On the positions of random games of every variant, texts from a piece of the side to move
/// to random squares (with a random turning square now and then) always get a code more
/// precise than the fallback, and a sentence.
#[test]
fn random_illegal_texts_are_named_precisely() {
    let mut seed = 0x1234_5678_9abc_def1_u64;
    let mut below = |n: usize| {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
    };
    let mut named = 0;
    for v in arbiter_rules::variants() {
        let cells: Vec<usize> = v.board().cells().iter().collect();
        let mut pos = v.start();
        for _ in 0..30 {
            let moves = v.legal_moves(&pos, &Budget::unlimited()).unwrap();
            if moves.is_empty() {
                break;
            }
            let own: Vec<usize> = pos.side_pieces(pos.side()).iter().collect();
            for _ in 0..(if own.is_empty() { 0 } else { 20 }) {
                let mut squares = vec![v.square_name(own[below(own.len())])];
                for _ in 0..(1 + usize::from(below(4) == 0)) {
                    squares.push(v.square_name(cells[below(cells.len())]));
                }
                let text = squares.join("-");
                if let Err(MoveError::Illegal {
                    violation, reason, ..
                }) = v.parse_move(&pos, &text, &Budget::unlimited())
                {
                    assert_ne!(
                        violation,
                        Violation::NotALegalMove,
                        "{}: {} {text}: {reason}",
                        v.id(),
                        v.fen(&pos)
                    );
                    assert!(reason.contains(&text), "{reason}");
                    named += 1;
                }
            }
            pos = v.play(&pos, &moves[below(moves.len())]);
        }
    }
    assert!(named > 10_000, "{named} illegal texts");
}

// More capture rules: captured pieces stay until the move ends (FMJD art. 4.10, 4.11), one
// jump takes one piece, and the killer rule (Scan, dctl: a king whose last captured piece is a
// king stops right behind it).

#[test]
fn capture_shapes() {
    // 46x28 takes 37; going back over 37 would take it twice.
    check(
        "international",
        "W:WK46:B37,5",
        "46x28x46",
        Violation::PieceCapturedTwice,
    );
    // 41 and 37 stand in a row: no jump takes both.
    check(
        "international",
        "W:WK46,50:B41,37,5",
        "46x32",
        Violation::PathBlocked,
    );
    // Killer: the king takes the king on 37 last, so it stops on 32.
    check(
        "killer",
        "W:WK46:BK37,5",
        "46x23",
        Violation::CaptureLanding,
    );
}

#[test]
fn placements_and_passes_out_of_turn() {
    let start = "W:W31-50:B1-20";
    // International has no opening removals, no drops and no passes.
    check("international", start, "x32", Violation::NoRemovalNow);
    check("international", start, "pass", Violation::PassNotAllowed);
    // Konane's first removal is one of the listed squares only (BrainKing's rules).
    let v = variant("hawaiian").unwrap();
    let pos = v.start();
    let legal = v.legal_moves(&pos, &Budget::unlimited()).unwrap();
    let other = pos
        .side_pieces(pos.side())
        .iter()
        .find(|&c| !legal.iter().any(|m| m.from() as usize == c))
        .expect("a piece the first removal may not take");
    let text = format!("x{}", v.square_str(other));
    check_at("hawaiian", &pos, &text, Violation::RemovalSquare);
}

// The Camelot family (World Camelot Federation rules: plain moves, canters over own pieces,
// jumps over enemy pieces, the knight's charge; no square landed on twice in one move).

#[test]
fn cam_leaps_explain_themselves() {
    // Black to move: the knight on d7 can charge (d7-b5xd3, d7-d5-b7xb5xd3...), and the man on
    // c6 can jump b6 (c6xa6), so every legal move captures.
    let p = "B:WNa4,c4,b6:Bc6,d6,Nd7,g9,b10,Nc10,f10";
    // Its canter over d6 lands on d5, next to c4 with b3 empty behind: it must capture.
    check("cam", p, "d7-d5", Violation::CaptureCompulsory);
    // Cantering on over c6 to b7 does not discharge that: the move still captures nothing.
    check("cam", p, "d7-d5-b7", Violation::CaptureCompulsory);
    // The charge takes b6 and stops on b5, from where it can jump c4 to d3: it must go on.
    check("cam", p, "d7-d5-b7xb5", Violation::CaptureIncomplete);
    // e7 is empty: there is nothing to leap over towards f7.
    check("cam", p, "d7-f7", Violation::NothingToCapture);
    // d5 back over d6 lands on d7, the start square: no square twice in one move.
    check("cam", p, "d7-d5-d7", Violation::NotAMoveOfThePiece);
    // A step is a whole move: d7-e8 then on is no move.
    check("cam", p, "d7-e8-e10", Violation::NotAMoveOfThePiece);
    // A jump goes over the adjacent square only: d7 to d4 is neither a step nor a leap.
    check("cam", p, "d7-d4", Violation::TooFar);
    // The man on c6 jumps b6 and lands on a6; a man never canters after a capture, and no
    // piece does: a6 back over... a6-a8 would leap over a7, which is empty.
    check("cam", p, "c6xa6-a8", Violation::NothingToCapture);
}

#[test]
fn cam_charges_and_canters() {
    // No capture from where any piece stands, so no move must capture; but the knight's canter
    // over d6 lands on d5, next to c4 with b3 empty behind it, and then the move must capture.
    check(
        "cam",
        "B:WNa4,c4:Bd6,Nd7,g9",
        "d7-d5",
        Violation::CaptureCompulsory,
    );
    // A man canters or captures, never both in one move: the man on c6 canters over d6 to e6,
    // then would jump f6 to g6.
    check(
        "cam",
        "B:WNa4,f6:Bc6,d6,Nd7,g9",
        "c6-e6xg6",
        Violation::NotAMoveOfThePiece,
    );
    // Never a capture, then a canter: the knight on d7 jumps e6 to f5, then would canter over
    // its own man on e4 to d3.
    check(
        "cam",
        "B:WNa4,e6:Bd6,Nd7,e4,g9",
        "d7xf5-d3",
        Violation::NotAMoveOfThePiece,
    );
}
