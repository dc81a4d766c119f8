//! The Camelot family (Parker Brothers' Camelot and Cam, World Camelot Federation rules; the
//! Hungarian booklet's knights' game): square boards with their corners cut, pieces that step,
//! canter over their own pieces and capture by leaping in all eight directions, knights that
//! charge, and castles. The moves are the leap generator's ([`crate::gen::leaps`]), switched
//! on by [`PieceRules::canter`]; the castles are [`Castles`], the castle win an end rule.

use crate::board::{Corner, DirSet, Squares};
use crate::draws;
use crate::ends;
use crate::position::{Color, Kind};
use crate::rules::{Castles, Goal, MidCapturePromotion, PieceRules, Range, Reach, Removal, Rules};
use crate::variant::{BoardShape, PromotionSquares, ResultStyle, Spec};

/// The Cam board, files a-g and ranks 1-13 with the corners cut (67 squares): per rank, the
/// first and last file.
const CAM_RANKS: &[(u8, u8)] = &[
    (3, 3),
    (2, 4),
    (1, 5),
    (0, 6),
    (0, 6),
    (0, 6),
    (0, 6),
    (0, 6),
    (0, 6),
    (0, 6),
    (1, 5),
    (2, 4),
    (3, 3),
];

/// A piece of the family: steps, canters and captures in all eight directions; `charge` for
/// a knight.
fn piece(charge: bool) -> PieceRules {
    PieceRules {
        moves: [DirSet::ALL; 2],
        range: Range::Step,
        captures: [DirSet::ALL; 2],
        reach: Reach::Short,
        captures_kings: true,
        max_jumps: 0,
        after_capture: Kind::Man,
        halt_behind_last_king: false,
        canter: true,
        charge,
    }
}

/// The rules the family shares, with the Cam castles (d1, d13) and Cam's end: a piece on the
/// enemy castle or every enemy piece captured wins, a side without a legal move loses.
fn cam_rules(
    men: bool,
    castle_text: &'static str,
    all_text: &'static str,
    draw_text: &'static str,
) -> Rules {
    let mut knight = piece(true);
    knight.after_capture = Kind::Knight;
    Rules {
        pieces: [
            if men {
                piece(false)
            } else {
                PieceRules::ABSENT
            },
            PieceRules::ABSENT,
            PieceRules::ABSENT,
            knight,
        ],
        removal: Removal::Immediate,
        mid_capture_promotion: MidCapturePromotion::Pass,
        precedence: vec![],
        no_reversal: false,
        straight_captures: false,
        capture_may_stop: false,
        first_jump_along_moves: false,
        no_return: false,
        opening_removals: vec![],
        stones_in_hand: 0,
        first_drop_off_goal: false,
        far_rank_frozen: false,
        king_quiet_limit: 0,
        castles: Some(Castles {
            squares: [&["d1"], &["d13"]],
        }),
        goal: Goal::NoMovesLoses,
        ends: ends::castle_or_all_captured(castle_text, all_text),
        draws: draws::repetition_only(draw_text),
    }
}

fn cam_spec(
    id: &'static str,
    name: &'static str,
    start_fen: &'static str,
    rules: Rules,
    sources: &'static [&'static str],
    provisional: Option<&'static str>,
    notes: &'static [&'static str],
) -> Spec {
    Spec {
        id,
        name,
        width: 7,
        height: 13,
        board: BoardShape::Grid(Squares::Ranks(CAM_RANKS)),
        numbering: Corner::BottomLeft,
        algebraic: true,
        first: Color::White,
        start_fen,
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

/// Notes every game of the family shares.
const CANTER: &str =
    "A canter leaps over an adjacent piece of the mover's own side onto the empty square \
     behind it; it may be repeated in any direction and stopped on any landing, and is never \
     compulsory. A canter captures nothing.";
const JUMP: &str =
    "A capture (jump) leaps over an adjacent enemy piece, which is removed at once; it is \
     compulsory and goes on while it can. There is no rule of the majority: any capture may be \
     chosen.";
const NO_REVISIT: &str =
    "No square may be landed on twice in one move, and the start square counts as landed on \
     (the Hungarian booklet's reading; the World Camelot Federation forbids only ending on the \
     start square). The same piece may be cantered over more than once.";
const OBLIGATION: &str =
    "Only captures a piece can make from where it stands oblige a side to capture; a capture \
     reachable only after a canter does not, but a knight's charge that captures fulfils the \
     obligation.";
const OWN_CASTLE: &str =
    "A side's own castle may be entered only by a capture, and a piece standing in its own \
     castle must leave it on its side's next move, even if that means not capturing \
     elsewhere; it must capture on its way out if a capture takes it out.";
const ENEMY_CASTLE: &str =
    "A piece that lands on the opponent's castle ends its move there, even in the middle of a \
     canter or a capture, and wins the game.";
const NOTATION: &str =
    "Moves are written with every landing: `c4-c6-e8` for canters, `c4xc6` for a capture, \
     `c4-c6xc8` for a charge; the short form `c4-e8` names a move when no other has the same \
     start and end.";

pub(super) fn specs() -> Vec<Spec> {
    vec![
        cam_spec(
            "cam",
            "Cam",
            "W:WNc4,Ne4,b5,c5,d5,e5,f5:BNc10,Ne10,b9,c9,d9,e9,f9",
            cam_rules(
                true,
                "World Camelot Federation, Cam rules: a side wins by moving a piece into the \
                 opponent's castle; it wins at once, even in the middle of a move.",
                "World Camelot Federation, Cam rules: a side wins by capturing all the \
                 opponent's pieces.",
                "The Cam rules state no draw (Porges: no draws or stalemates); the catalogue \
                 applies threefold repetition as a safety net, and a side without a legal move \
                 loses.",
            ),
            &[
                "World Camelot Federation: Cam rules (worldcamelotfederation.com/Cam_Rules.htm)",
                "iggamecenter.com: Cam",
            ],
            None,
            &[
                "Parker Brothers' Cam (1949): two knights and five men a side on a board of 67 \
                 squares, one castle square each (d1 for White, d13 for Black). Men step, \
                 canter and capture; only knights charge.",
                CANTER,
                JUMP,
                NO_REVISIT,
                OBLIGATION,
                OWN_CASTLE,
                ENEMY_CASTLE,
                NOTATION,
            ],
        ),
        cam_spec(
            "camelot-lovagcsata",
            "Camelot (lovagcsata), the knights' game",
            "W:WNc4,Ne4,Nb5,Nc5,Nd5,Ne5,Nf5:BNc10,Ne10,Nb9,Nc9,Nd9,Ne9,Nf9",
            cam_rules(
                false,
                "The Hungarian booklet Dámajátékok Hétpróbára: the goal is to move any one \
                 piece onto the opponent's marked castle square, or to capture all the \
                 opponent's pieces.",
                "The Hungarian booklet Dámajátékok Hétpróbára: capturing all the opponent's \
                 pieces wins.",
                "The booklet states no draw rule; the catalogue applies threefold repetition, \
                 and a side without a legal move loses.",
            ),
            &[
                "\"Dámajátékok Hétpróbára\" (Hungarian booklet of draughts games): Camelot \
               (lovagcsata)",
            ],
            Some(
                "the board figure of the Hungarian booklet Dámajátékok Hétpróbára is lost: the \
                 booklet gives seven knights a side and the rules, and the catalogue plays them \
                 on the Cam board from the Cam start squares, the only game of the family with \
                 seven pieces a side and a one-square castle",
            ),
            &[
                "Every piece is a knight: seven a side, on Cam's 67-square board and start \
                 squares, castles d1 (White) and d13 (Black).",
                CANTER,
                JUMP,
                NO_REVISIT,
                OBLIGATION,
                OWN_CASTLE,
                ENEMY_CASTLE,
                NOTATION,
            ],
        ),
    ]
}
