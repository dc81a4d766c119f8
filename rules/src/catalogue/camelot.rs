//! The Camelot family (Parker Brothers' Camelot and Cam, World Camelot Federation rules; the
//! Hungarian booklet's knights' game): square boards with their corners cut, pieces that step,
//! canter over their own pieces and capture by leaping in all eight directions, knights that
//! charge, and castles. The moves are the leap generator's ([`crate::gen::leaps`]), switched
//! on by [`PieceRules::canter`]; the castles are [`Castles`], the castle win an end rule.

use crate::board::{Corner, DirSet, Squares};
use crate::draws;
use crate::ends;
use crate::position::{Color, Kind};
use crate::rules::{Castles, PieceRules, Range, Reach, Rules};
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

/// The Camelot board, files a-l and ranks 1-16 with the corners cut (160 squares): per rank,
/// the first and last file.
const CAMELOT_RANKS: &[(u8, u8)] = &[
    (5, 6),
    (2, 9),
    (1, 10),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (1, 10),
    (2, 9),
    (5, 6),
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

/// The rules the family shares (`men`: men beside the knights), with its castles, end rules
/// and draw rules.
fn family_rules(
    men: bool,
    castles: Castles,
    ends: Vec<ends::EndRule>,
    draws: Vec<draws::DrawRule>,
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
        castles: Some(castles),
        ends,
        draws,
        ..Rules::BASE
    }
}

/// Cam's rules: castles d1 and d13; a piece on the enemy castle or every enemy piece captured
/// wins, a side without a legal move loses.
fn cam_rules(
    men: bool,
    castle_text: &'static str,
    all_text: &'static str,
    draw_text: &'static str,
) -> Rules {
    family_rules(
        men,
        Castles {
            squares: [&["d1"], &["d13"]],
            moves: 0,
        },
        ends::castle_or_all_captured(castle_text, all_text),
        draws::repetition_only(draw_text),
    )
}

#[allow(clippy::too_many_arguments)]
fn family_spec(
    id: &'static str,
    name: &'static str,
    (width, height, ranks): (u8, u8, &'static [(u8, u8)]),
    start_fen: &'static str,
    rules: Rules,
    sources: &'static [&'static str],
    provisional: Option<&'static str>,
    notes: &'static [&'static str],
) -> Spec {
    Spec {
        id,
        name,
        width,
        height,
        board: BoardShape::Grid(Squares::Ranks(ranks)),
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
const CHARGE: &str =
    "A knight's charge: a knight canters, then captures, in one move; it never captures, then \
     canters. A knight whose canter lands where it could capture must capture in that move \
     (World Camelot Federation: it must jump unless it captures elsewhere in the same move; \
     the Hungarian booklet: once its canters bring it where it can capture, the capture is \
     compulsory): it captures from there, or canters on and captures further on, and may no \
     longer end its move on a landing without capturing, the enemy castle included.";
const OBLIGATION: &str =
    "Only captures a piece can make from where it stands oblige a side to capture; a capture \
     reachable only after a canter does not, but a knight's charge that captures fulfils the \
     obligation.";
const OWN_CASTLE: &str =
    "A side's own castle may be entered only by a capture, and a piece standing in its own \
     castle must leave it on its side's next move, even if that means not capturing \
     elsewhere; among the moves that leave it, the capture obligation applies: if a piece \
     there can capture on its way out, the move must be such a capture (with two pieces in the \
     castle, by either).";
const ENEMY_CASTLE: &str =
    "A piece that lands on the opponent's castle ends its move there, even in the middle of a \
     canter or a capture, and wins the game.";
const NOTATION: &str =
    "Moves are written with every landing: `c4-c6-e8` for canters, `c4xc6` for a capture, \
     `c4-c6xc8` for a charge; the short form `c4-e8` names a move when no other has the same \
     start and end.";

pub(super) fn specs() -> Vec<Spec> {
    vec![
        family_spec(
            "cam",
            "Cam",
            (7, 13, CAM_RANKS),
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
                CHARGE,
                OBLIGATION,
                OWN_CASTLE,
                ENEMY_CASTLE,
                NOTATION,
            ],
        ),
        family_spec(
            "camelot-lovagcsata",
            "Camelot (lovagcsata), the knights' game",
            (7, 13, CAM_RANKS),
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
                CHARGE,
                OBLIGATION,
                OWN_CASTLE,
                ENEMY_CASTLE,
                NOTATION,
            ],
        ),
        family_spec(
            "camelot",
            "Camelot",
            (12, 16, CAMELOT_RANKS),
            "W:WNc6,Nj6,Nd7,Ni7,d6,e6,f6,g6,h6,i6,e7,f7,g7,h7\
             :BNd10,Ni10,Nc11,Nj11,e10,f10,g10,h10,d11,e11,f11,g11,h11,i11",
            family_rules(
                true,
                Castles {
                    squares: [&["f1", "g1"], &["f16", "g16"]],
                    moves: 2,
                },
                ends::camelot(
                    "World Camelot Federation, Camelot rules: a side wins by occupying both \
                     squares of the opponent's castle with its own pieces.",
                    "World Camelot Federation, rules changes: when both sides are down to one \
                     piece the game is drawn, and a side left with one piece cannot win (two \
                     pieces or more against one is not a win by itself).",
                    "World Camelot Federation, Camelot rules: a side wins by capturing all the \
                     opponent's pieces while keeping two pieces or more.",
                    "World Camelot Federation, Camelot rules: a side that leaves the opponent \
                     without a legal move wins if it has two pieces or more; with one piece the \
                     game is drawn.",
                ),
                draws::camelot(
                    "World Camelot Federation: a position repeated three times (same pieces, \
                     side to move and castle moves made) is a draw.",
                    "World Camelot Federation: 50 moves by each side in a row without a capture \
                     and without a piece entering the opponent's castle draw the game (a castle \
                     move inside it is not an entry).",
                ),
            ),
            &[
                "World Camelot Federation: Camelot rules \
                 (worldcamelotfederation.com/Camelot_Rules.htm), rules FAQ and rules changes",
                "BrainKing: Camelot rules (brainking.com/cn/GameRules?tp=124)",
            ],
            None,
            &[
                "Parker Brothers' Camelot (1930): four knights and ten men a side on a board of \
                 160 squares, files a-l and ranks 1-16 with the corners cut; castles f1 and g1 \
                 (White), f16 and g16 (Black). Men step, canter and capture; only knights \
                 charge.",
                CANTER,
                JUMP,
                NO_REVISIT,
                CHARGE,
                OBLIGATION,
                OWN_CASTLE,
                "A piece that lands in the opponent's castle ends its move there and never \
                 leaves it. It may step to the other square of that castle (a castle move), \
                 at most twice per side in a game, when its side has no capture to make; the \
                 castle moves made are part of the position and of its FEN (`:C1,0`).",
                NOTATION,
            ],
        ),
    ]
}
