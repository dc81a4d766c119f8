//! Point-and-line boards ("Dámajátékok Hétpróbára", BrainKing): Alquerque and Seth
//! on the 5×5 Alquerque board, given as a graph ([`GraphBoard`]): lines along the ranks and
//! files everywhere, diagonal lines only through the points of even parity (a1, c1, e1, b2,
//! ...), and for Seth step-only links. Stones are men that are never crowned.

use crate::board::{Corner, Dir, DirSet};
use crate::draws;
use crate::ends;
use crate::position::{Color, Kind};
use crate::rules::{PieceRules, Range, Reach, Rules};
use crate::variant::{BoardShape, GraphBoard, PromotionSquares, ResultStyle, Spec};

/// The 5×5 Alquerque board.
fn alquerque_board() -> GraphBoard {
    GraphBoard::grid_lines(5, 5, |x, y| (x + y) % 2 == 0)
}

/// White on ranks 1-2 and d3, e3; Black on ranks 4-5 and a3, b3; c3 empty.
const START: &str = "W:Wa1,b1,c1,d1,e1,a2,b2,c2,d2,e2,d3,e3:Ba3,b3,a4,b4,c4,d4,e4,a5,b5,c5,d5,e5";

/// A stone: steps along `moves` (as seen by White), jumps along `captures`.
fn stone(moves: DirSet, captures: DirSet, max_jumps: u8) -> PieceRules {
    PieceRules {
        moves: [moves, moves.flipped()],
        range: Range::Step,
        captures: [captures, captures.flipped()],
        reach: Reach::Short,
        captures_kings: true,
        max_jumps,
        after_capture: Kind::Man,
        halt_behind_last_king: false,
        canter: false,
        charge: false,
    }
}

fn spec(
    id: &'static str,
    name: &'static str,
    board: GraphBoard,
    rules: Rules,
    sources: &'static [&'static str],
    provisional: Option<&'static str>,
    notes: &'static [&'static str],
) -> Spec {
    Spec {
        id,
        name,
        width: 5,
        height: 5,
        board: BoardShape::Graph(board),
        numbering: Corner::BottomLeft,
        algebraic: true,
        first: Color::White,
        start_fen: START,
        rules,
        promotion: PromotionSquares::Squares([&[], &[]]),
        game_type: None,
        variant_tags: &[],
        capture_separator: 'x',
        result_style: ResultStyle::Default,
        sources,
        provisional,
        notes,
    }
}

pub(super) fn specs() -> Vec<Spec> {
    let forward_and_sideways = DirSet::of(&[
        Dir::North,
        Dir::NorthEast,
        Dir::NorthWest,
        Dir::East,
        Dir::West,
    ]);
    let alquerque = Rules {
        pieces: [
            stone(forward_and_sideways, DirSet::ALL, 1),
            PieceRules::ABSENT,
            PieceRules::ABSENT,
            PieceRules::ABSENT,
        ],
        far_rank_frozen: true,
        draws: draws::repetition_only(
            "No source gives a draw rule; the catalogue's safety net is threefold repetition \
             (sideways steps can loop).",
        ),
        ..Rules::BASE
    };
    let brainking = Rules {
        pieces: [
            stone(forward_and_sideways, DirSet::ALL, 0),
            PieceRules::ABSENT,
            PieceRules::ABSENT,
            PieceRules::ABSENT,
        ],
        first_jump_along_moves: true,
        no_return: true,
        draws: draws::repetition_only(
            "BrainKing gives no draw rule; the catalogue's safety net is threefold repetition \
             (the position includes each side's last move, for the no-return rule).",
        ),
        ..alquerque.clone()
    };
    let mut seth_board = alquerque_board();
    let a1 = seth_board.point(0, 0);
    let a5 = seth_board.point(0, 4);
    let e1 = seth_board.point(4, 0);
    let e5 = seth_board.point(4, 4);
    seth_board.step_only = vec![(a1, a5), (e1, e5)];
    let seth = Rules {
        pieces: [
            stone(DirSet::ALL, DirSet::ALL, 0),
            PieceRules::ABSENT,
            PieceRules::ABSENT,
            PieceRules::ABSENT,
        ],
        ends: ends::occupy_goal(
            ["c5", "c1"],
            "The Hungarian booklet Dámajátékok Hétpróbára: the first player to occupy the \
             opponent's last point wins. The goal points c5 (White's) and c1 (Black's) are a \
             reconstruction (the booklet's board figure is lost).",
        ),
        far_rank_frozen: false,
        ..alquerque.clone()
    };
    vec![
        spec(
            "alquerque",
            "Alquerque (Hungarian rules)",
            alquerque_board(),
            alquerque,
            &[
                "\"Dámajátékok Hétpróbára\" (Hungarian booklet of draughts games): Alquerque \
                 (Alkerk)",
                "Ludii, Alquerque (Ludeme/Ludii, Alquerque.lud: board and start)",
            ],
            None,
            &[
                "The 5×5 Alquerque board: lines along ranks and files, diagonals only through \
                 a1, c1, e1, b2, d2, a3, c3, e3, b4, d4, a5, c5, e5. Stones move along lines.",
                "A stone steps forward, sideways or diagonally forward, never backward; it \
                 captures by jumping an adjacent enemy stone along a line in any direction, \
                 one stone per move (no capture sequences); capturing is compulsory.",
                "A stone on the opponent's base line moves only to capture. No promotion.",
                "White (South) moves first. A side without stones or moves loses. Draws: \
                 threefold repetition, the catalogue's safety net (no source gives one).",
            ],
        ),
        spec(
            "alquerque-brainking",
            "Alquerque (BrainKing rules)",
            alquerque_board(),
            brainking,
            &[
                "BrainKing rules page, Alquerque: https://brainking.com/en/GameRules?tp=53 \
                 (German: https://brainking.com/de/GameRules?tp=53)",
                "BrainKing rules page, Checkers, with its table of draughts variants (Alquerque \
                 5x5, 12 pawns, not promoted): https://brainking.com/en/GameRules?tp=7",
                "Ludii, Alquerque (Ludeme/Ludii, Alquerque.lud: board and start)",
            ],
            None,
            &[
                "The Alquerque board and start of `alquerque`; White first.",
                "A pawn steps forward, sideways or diagonally forward along the lines, never \
                 backward; a pawn on the opponent's base line makes no more steps, only \
                 captures (sideways jumps along that line included).",
                "Captures are compulsory and go on while they can: the first jump goes in a \
                 direction the pawn may step in (forward, diagonally forward or sideways), the \
                 later ones in any direction, backward too; free choice among captures; \
                 captured pawns leave at once.",
                "A pawn may not go back to the point it came from on its side's previous move \
                 (BrainKing's German page: \"Eine Figur kann nicht an den Ort zurückkehren, \
                 auf dem sie im vorigen Zug gestanden ist\"); a capture that would is not \
                 compulsory. The FEN's L field keeps each side's last move (`:Lb2-c3,d4-d3`).",
                "A side without pawns or moves loses. Draws: threefold repetition, the \
                 catalogue's safety net.",
            ],
        ),
        spec(
            "seth",
            "Seth",
            seth_board,
            seth,
            &["\"Dámajátékok Hétpróbára\" (Hungarian booklet of draughts games): Seth"],
            Some(
                "the board figure of the Hungarian booklet Dámajátékok Hétpróbára is lost: this \
                 board (the Alquerque board with a step-only arc joining a1-a5 and e1-e5), the \
                 start and the goal points c5/c1 are a reconstruction; the board is data and \
                 will be replaced when the figure is found",
            ),
            &[
                "Stones step to an adjacent empty point along a line in any direction, or \
                 along the outer arc (a1-a5, e1-e5: one step covers the whole side).",
                "Captures: jump an adjacent enemy stone along a line, in any direction, never \
                 along the arc; compulsory, and a sequence goes on while it can, turning \
                 freely; any sequence may be chosen. Captured stones leave at once.",
                "The first side to occupy the opponent's last point wins (GOAL_REACHED: c5 for \
                 White, c1 for Black); a side without stones or moves loses. Draws: threefold \
                 repetition, the catalogue's safety net (no source gives one).",
            ],
        ),
    ]
}
