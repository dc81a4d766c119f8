//! The orthogonal family (Turkish, Croda, Dameo, Gothic, Konane; sources per spec): games on all 64
//! squares of an 8×8 board, where men step and jump along files and ranks. Each is data for the
//! same generators as the diagonal family: the board is [`BoardShape::Grid`] with
//! [`Squares::All`], and what differs is in the piece rules, removal, precedence, promotion
//! and end rules.

use crate::board::{Corner, Dir, DirSet, Squares};
use crate::draws;
use crate::ends;
use crate::position::{Color, Kind};
use crate::rules::{
    Landing, MidCapturePromotion, OpeningRemoval, PieceRules, Precedence, Range, Reach, Removal,
    Rules,
};
use crate::variant::{BoardShape, PromotionSquares, ResultStyle, Spec};

/// White's directions and Black's (the same set seen from the other side).
const fn both(white: DirSet) -> [DirSet; 2] {
    [white, flip(white)]
}

/// North and south swapped.
const fn flip(d: DirSet) -> DirSet {
    // Bits: NE 0, NW 1, SE 2, SW 3, N 4, S 5, E 6, W 7.
    let m = d.0;
    DirSet(
        (m & 0b1100_0000)
            | ((m & 0b0000_0011) << 2)
            | ((m & 0b0000_1100) >> 2)
            | ((m & 0b0001_0000) << 1)
            | ((m & 0b0010_0000) >> 1),
    )
}

const FORWARD: DirSet = DirSet::of(&[Dir::North]);
const SIDEWAYS: DirSet = DirSet::of(&[Dir::East, Dir::West]);
const FORWARD_DIAGONALS: DirSet = DirSet::of(&[Dir::NorthEast, Dir::NorthWest]);

/// A man of the family: steps in `moves`, short jumps in `captures` (as seen by White).
fn man(moves: DirSet, captures: DirSet) -> PieceRules {
    PieceRules {
        moves: both(moves),
        range: Range::Step,
        captures: both(captures),
        reach: Reach::Short,
        captures_kings: true,
        max_jumps: 0,
        after_capture: Kind::Man,
        halt_behind_last_king: false,
        canter: false,
        charge: false,
    }
}

/// A king that slides along `moves` and captures flying along `captures`, landing on any
/// empty square behind the captured piece.
fn flying_king(moves: DirSet, captures: DirSet) -> PieceRules {
    PieceRules {
        moves: [moves; 2],
        range: Range::Slide,
        captures: [captures; 2],
        reach: Reach::Flying(Landing::Any),
        captures_kings: true,
        max_jumps: 0,
        after_capture: Kind::King,
        halt_behind_last_king: false,
        canter: false,
        charge: false,
    }
}

/// An 8×8 board of 64 squares, algebraic names, White first.
fn grid64(
    id: &'static str,
    name: &'static str,
    start_fen: &'static str,
    rules: Rules,
    game_type: Option<&'static str>,
    sources: &'static [&'static str],
    notes: &'static [&'static str],
) -> Spec {
    Spec {
        id,
        name,
        width: 8,
        height: 8,
        board: BoardShape::Grid(Squares::All),
        numbering: Corner::BottomLeft,
        algebraic: true,
        first: Color::White,
        start_fen,
        rules,
        promotion: PromotionSquares::FarRank,
        game_type,
        variant_tags: &[],
        capture_separator: 'x',
        result_style: ResultStyle::Default,
        sources,
        provisional: None,
        notes,
    }
}

pub(super) fn specs() -> Vec<Spec> {
    let turkish = Rules {
        pieces: [
            man(FORWARD.union(SIDEWAYS), FORWARD.union(SIDEWAYS)),
            flying_king(DirSet::ORTHOGONAL, DirSet::ORTHOGONAL),
            PieceRules::ABSENT,
            PieceRules::ABSENT,
        ],
        mid_capture_promotion: MidCapturePromotion::KingContinue,
        precedence: vec![Precedence::Count],
        no_reversal: true,
        ends: ends::lone_pieces(
            "The Polish article \"Warcaby ortogonalne 8×8 – tureckie, Croda i Dameo\" \
             (Warcaby Tureckie) and the newer Wikipedia wording: the side left with a lone man \
             against a king loses. Turkish-language pages call it a draw; the catalogue follows \
             the Polish article.",
            "All sources that mention it: one king against one king is a draw.",
        ),
        draws: draws::repetition_only(
            "Threefold repetition (alemanni, kish). kish's 50-move no-progress rule is not \
             applied.",
        ),
        ..Rules::BASE
    };
    let croda = Rules {
        pieces: [
            man(FORWARD.union(FORWARD_DIAGONALS), DirSet::ORTHOGONAL),
            flying_king(DirSet::ORTHOGONAL, DirSet::ORTHOGONAL),
            PieceRules::ABSENT,
            PieceRules::ABSENT,
        ],
        removal: Removal::Deferred,
        precedence: vec![Precedence::Count],
        draws: draws::repetition_only(
            "Threefold repetition (jpneto); a draw by mutual impotence needs the players' \
             agreement.",
        ),
        ..Rules::BASE
    };
    let gothic = Rules {
        pieces: [
            man(
                FORWARD.union(FORWARD_DIAGONALS).union(SIDEWAYS),
                FORWARD.union(FORWARD_DIAGONALS).union(SIDEWAYS),
            ),
            PieceRules {
                moves: [DirSet::ALL; 2],
                range: Range::Step,
                captures: [DirSet::ALL; 2],
                reach: Reach::Short,
                captures_kings: true,
                max_jumps: 0,
                after_capture: Kind::King,
                halt_behind_last_king: false,
                canter: false,
                charge: false,
            },
            PieceRules::ABSENT,
            PieceRules::ABSENT,
        ],
        mid_capture_promotion: MidCapturePromotion::End,
        draws: draws::repetition_only(
            "No draw rule in the sources (BrainKing: \"other rules as Checkers\"); the \
             catalogue applies threefold repetition, as for the other games of the family.",
        ),
        ..Rules::BASE
    };
    let dameo = Rules {
        pieces: [
            PieceRules {
                range: Range::Line,
                ..man(FORWARD.union(FORWARD_DIAGONALS), DirSet::ORTHOGONAL)
            },
            flying_king(DirSet::ALL, DirSet::ORTHOGONAL),
            PieceRules::ABSENT,
            PieceRules::ABSENT,
        ],
        removal: Removal::Deferred,
        precedence: vec![Precedence::Count],
        draws: draws::repetition_only(
            "Threefold repetition (jpneto; Freeling's \"mutual exhaustion of material\" needs \
             the players' agreement).",
        ),
        ..Rules::BASE
    };
    let hawaiian = Rules {
        pieces: [
            PieceRules {
                moves: [DirSet::NONE; 2],
                ..man(DirSet::NONE, DirSet::ORTHOGONAL)
            },
            PieceRules::ABSENT,
            PieceRules::ABSENT,
            PieceRules::ABSENT,
        ],
        straight_captures: true,
        capture_may_stop: true,
        opening_removals: vec![
            OpeningRemoval::Among(&["a8", "h1", "d5", "e4"]),
            OpeningRemoval::NextToEmpty(DirSet::ORTHOGONAL),
        ],
        ..Rules::BASE
    };
    vec![
        grid64(
            "turkish",
            "Turkish draughts (Dama)",
            "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3\
             :Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
            turkish,
            Some("30,W,8,8,A0,0"),
            &[
                "\"Dámajátékok Hétpróbára\" (Hungarian booklet of draughts games): \"török\" \
                 Dáma",
                "Polish article \"Warcaby ortogonalne 8×8 – tureckie, Croda i Dameo\": Warcaby \
                 Tureckie",
                "BrainKing rules page, Turkish draughts (German: Türkische Dame): \
                 https://brainking.com/en/GameRules?tp=36",
                "Wikipedia, Turkish draughts: https://en.wikipedia.org/wiki/Turkish_draughts",
                "alemanni, Turkish draughts: http://alemanni.pagesperso-orange.fr/turkish.html",
                "kish, a Rust crate on crates.io (perft): https://docs.rs/kish",
                "Ludii, Dama (Ludeme/Ludii, Dama.lud)",
                "PDN 3.0 (FMJD), GameType 30: https://pdn.fmjd.org/gametype.html",
            ],
            &[
                "All 64 squares; men step one square forward or sideways and capture the same \
                 way (never backward or diagonally); kings slide and capture along files and \
                 ranks, landing on any empty square behind.",
                "Captured pieces leave the board at once; a capture may not turn back (180°) \
                 on the jump it just made; the sequence capturing the most pieces is \
                 compulsory (kings count as men).",
                "A man crowned in the middle of a capture goes on capturing as a king (as the \
                 Polish article and the newer Wikipedia wording have it).",
                "One king against one man: the king's side wins (KING_VS_MAN); one king each: \
                 a draw (KING_VS_KING); threefold repetition: a draw.",
            ],
        ),
        grid64(
            "croda",
            "Croda (Ljuban Dedić, 1995)",
            "W:Wa1,b1,c1,d1,e1,f1,g1,h1,a2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3\
             :Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7,a8,b8,c8,d8,e8,f8,g8,h8",
            croda,
            None,
            &[
                "Polish article \"Warcaby ortogonalne 8×8 – tureckie, Croda i Dameo\": Croda",
                "jpneto, World of Abstract Games: Croda, \
                 https://jpneto.github.io/world_abstract_games/croda.htm",
            ],
            &[
                "Men step one square forward, straight or diagonally, but capture only along \
                 files and ranks, backward too; kings slide and capture along files and ranks.",
                "Captured pieces are removed at the end of the move; the most pieces must be \
                 captured (kings count as men).",
                "A man is crowned only if its move ends on the far rank; passing it during a \
                 capture does not crown it.",
                "White moves first (the sources show no first player; as in Dameo).",
            ],
        ),
        grid64(
            "dameo",
            "Dameo (Christian Freeling, 2000)",
            "W:Wa1,b1,c1,d1,e1,f1,g1,h1,b2,c2,d2,e2,f2,g2,c3,d3,e3,f3\
             :Bc6,d6,e6,f6,b7,c7,d7,e7,f7,g7,a8,b8,c8,d8,e8,f8,g8,h8",
            dameo,
            None,
            &[
                "Christian Freeling, Dameo rules: \
                 https://mindsports.nl/index.php/arena/dameo/65-rules",
                "Polish article \"Warcaby ortogonalne 8×8 – tureckie, Croda i Dameo\": Dameo",
                "jpneto, World of Abstract Games: Dameo, \
                 https://jpneto.github.io/world_abstract_games/dameo.htm",
                "BrainKing rules page, Checkers, with its table of draughts variants (Dameo): \
                 https://brainking.com/en/GameRules?tp=7",
            ],
            &[
                "Linear moves: a man, alone or with the unbroken line of own men straight ahead \
                 of it along a file or a forward diagonal, advances one square; any line \
                 anchored at its head may move (Freeling's 52 opening moves). Written from the \
                 tail to the square in front of the head: c1-c4 moves the line c1, c2, c3 one \
                 square forward, emptying c1 and filling c4.",
                "Kings slide in all eight directions; men and kings capture only along files \
                 and ranks, backward too, kings flying; captured pieces are removed at the end \
                 of the move; the most pieces must be captured (kings count as men).",
                "A man is crowned only if its move ends on the far rank; a linear move reaching \
                 it crowns only its head.",
            ],
        ),
        grid64(
            "gothic",
            "Gothic draughts (Gotische Dame)",
            "W:Wa1,b1,c1,d1,e1,f1,g1,h1,a2,b2,c2,d2,e2,f2,g2,h2\
             :Ba7,b7,c7,d7,e7,f7,g7,h7,a8,b8,c8,d8,e8,f8,g8,h8",
            gothic,
            None,
            &[
                "BrainKing rules page, Gothic checkers (German: Gotische Dame): \
                 https://brainking.com/en/GameRules?tp=35",
                "jpneto, World of Abstract Games: Gothic checkers, \
                 https://jpneto.github.io/world_abstract_games/gothic.htm",
                "setupgroup.com, Gothic checkers (another reading): \
                 http://setupgroup.com/xo/gothic_checkers.php",
            ],
            &[
                "BrainKing's rules: men move and capture one square forward, \
                 diagonally forward or sideways; kings move and capture one square in all \
                 eight directions.",
                "Free choice among captures (no majority rule); a man crowned by a capture \
                 stops there; captured pieces leave the board at once.",
                "Other readings (flying kings, majority capture, diagonal-only man moves) are \
                 not used.",
            ],
        ),
        Spec {
            first: Color::Black,
            promotion: PromotionSquares::Squares([&[], &[]]),
            ..grid64(
                "hawaiian",
                "Hawaiian draughts (Konane)",
                "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4,d4,f4,h4,a5,c5,e5,g5,b6,d6,f6,h6,a7,c7,\
             e7,g7,b8,d8,f8,h8:Bb1,d1,f1,h1,a2,c2,e2,g2,b3,d3,f3,h3,a4,c4,e4,g4,b5,d5,f5,h5,\
             a6,c6,e6,g6,b7,d7,f7,h7,a8,c8,e8,g8",
                hawaiian,
                None,
                &[
                    "BrainKing rules page, Hawaiian checkers (German: Hawaiianische Dame): \
                     https://brainking.com/en/GameRules?tp=94",
                    "Ludii, Konane (Ludeme/Ludii, Konane.lud)",
                    "jpneto, World of Abstract Games: Konane, \
                     https://jpneto.github.io/world_abstract_games/konane.htm",
                ],
                &[
                    "The board starts full: White on the dark squares (a1 dark), Black on the \
                     light ones. Black moves first.",
                    "Two opening plies remove one's own piece: Black takes one off a8, h1, d5 \
                     or e4, then White one orthogonally next to the hole. They are written \
                     `x` and the square: xd5, then xd4.",
                    "Then every move is a jump over an adjacent enemy piece along a file or a \
                     rank onto the empty square behind; the piece may go on jumping in the \
                     same direction only, and stopping after any jump is a move of its own \
                     (d4xd6 and d4xd8 are two moves).",
                    "No promotion, no draws (pieces only leave the board); the side to move \
                     without a jump loses.",
                ],
            )
        },
    ]
}
