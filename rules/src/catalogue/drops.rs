//! Drop games by Markus Salo (his Zillions rules files; "Dámajátékok Hétpróbára"): Vilbergen
//! (the Hungarian booklet's rules and Salo's own) and Lahti. The board starts empty; each side
//! holds its stones in hand ([`Rules::stones_in_hand`]) and drops them one at a time, White
//! first, then the stones move and capture along the lines of a small grid given as a graph
//! ([`GraphBoard`]). A side wins by capturing every enemy stone (`ALL_CAPTURED`) or by moving
//! its last remaining stone onto the goal point (`LAST_STONE_ON_GOAL`); a side with no legal
//! move loses.

use crate::board::{Corner, Dir, DirSet};
use crate::draws;
use crate::ends;
use crate::position::{Color, Kind};
use crate::rules::{Goal, PieceRules, Range, Reach, Rules};
use crate::variant::{BoardShape, GraphBoard, PromotionSquares, ResultStyle, Spec};

/// A stone: steps and jumps along `dirs`; a capture goes on while it can, turning freely.
fn stone(dirs: DirSet) -> PieceRules {
    PieceRules {
        moves: [dirs, dirs],
        range: Range::Step,
        captures: [dirs, dirs],
        reach: Reach::Short,
        captures_kings: true,
        max_jumps: 0,
        after_capture: Kind::Man,
        halt_behind_last_king: false,
        canter: false,
        charge: false,
    }
}

/// Hageby's 13 points, named as in Salo's rules file: rows 3 (top) to 1,
/// letters along a row. Each row is shifted half a point against the next, so the six
/// neighbours of a point are the two of its row (e, w), the same letter one row up or down
/// (n, s), one letter back one row up (nw) and one letter on one row down (se). Those are the
/// grid's E, W, N, S, NW and SE on the 5×3 grid without a1 and e3; its drawing as a triangular
/// lattice only shears the grid.
fn hageby_board() -> GraphBoard {
    let mut g = GraphBoard::default();
    for y in 0..3u8 {
        for x in 0..5u8 {
            if (x, y) != (0, 0) && (x, y) != (4, 2) {
                g.points.push((x, y));
            }
        }
    }
    let index = |x: i32, y: i32| {
        g.points
            .iter()
            .position(|&p| (p.0 as i32, p.1 as i32) == (x, y))
    };
    let mut lines = Vec::new();
    for (i, &(x, y)) in g.points.iter().enumerate() {
        for (dir, dx, dy) in [
            (Dir::East, 1, 0),
            (Dir::North, 0, 1),
            (Dir::NorthWest, -1, 1),
        ] {
            if let Some(j) = index(x as i32 + dx, y as i32 + dy) {
                lines.push((i, dir, j));
            }
        }
    }
    g.lines = lines;
    g
}

/// The rules shared by the games: `stones` in hand, steps and jumps along `dirs`, captured
/// stones removed at once, free choice among captures, the goal point `goal`.
fn rules(stones: u8, dirs: DirSet, goal: &'static str) -> Rules {
    Rules {
        pieces: [
            stone(dirs),
            PieceRules::ABSENT,
            PieceRules::ABSENT,
            PieceRules::ABSENT,
        ],
        stones_in_hand: stones,
        ends: ends::last_stone_goal(
            goal,
            "The Hungarian booklet Dámajátékok Hétpróbára and Salo's rules: capturing every \
             enemy stone wins.",
            "The Hungarian booklet Dámajátékok Hétpróbára (\"belép\": steps onto) and Salo's \
             rules of 20 Sep 2003: the last stone must itself move onto the goal; one already \
             standing there does not win until it moves onto it again.",
        ),
        draws: draws::repetition_only(
            "No source gives a draw rule; the catalogue's safety net is threefold repetition \
             (the position includes the stones in hand).",
        ),
        ..Rules::BASE
    }
}

#[allow(clippy::too_many_arguments)]
fn spec(
    id: &'static str,
    name: &'static str,
    (width, height): (u8, u8),
    board: GraphBoard,
    start_fen: &'static str,
    rules: Rules,
    sources: &'static [&'static str],
    notes: &'static [&'static str],
) -> Spec {
    Spec {
        id,
        name,
        width,
        height,
        board: BoardShape::Graph(board),
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
        provisional: None,
        notes,
    }
}

pub(super) fn specs() -> Vec<Spec> {
    // Every point of these grids is joined to its orthogonal and diagonal neighbours; a
    // variant's piece rules say which of those lines its stones use.
    let full = |w, h| GraphBoard::grid_lines(w, h, |_, _| true);
    let hageby_lines = DirSet::of(&[
        Dir::East,
        Dir::West,
        Dir::North,
        Dir::South,
        Dir::NorthWest,
        Dir::SouthEast,
    ]);
    vec![
        spec(
            "hageby",
            "Hageby",
            (5, 3),
            hageby_board(),
            "W:W:B:S5,5",
            Rules {
                goal: Goal::NoMovesPasses,
                ends: ends::last_stone_goal_or_blocked(
                    "d2",
                    "The Hungarian booklet Dámajátékok Hétpróbára and Salo's rules: capturing \
                     every enemy stone wins.",
                    "The Hungarian booklet Dámajátékok Hétpróbára (\"belép\": steps onto) and \
                     Salo's rules file (the win is recognised only after the owner's own \
                     move): a last stone already standing on d2 must move onto it again.",
                    "Salo's rules file: a player who cannot move passes; if both must pass the \
                     game is drawn.",
                ),
                ..rules(5, hageby_lines, "d2")
            },
            &[
                "\"Dámajátékok Hétpróbára\" (Hungarian booklet of draughts games): Hageby",
                "Markus Salo, Hageby (Zillions rules file hageby.zrf and readme, 2003; kept in \
                 jpneto's World of Abstract Games repository, zrfs/Hageby.zip)",
                "jpneto, World of Abstract Games: Vilbergen (the Hageby board), \
                 https://jpneto.github.io/world_abstract_games/vilbergen.htm",
            ],
            &[
                "13 points in rows of 4, 5 and 4 (Salo's names: A3-D3, A2-E2, B1-E1); each \
                 point is joined to up to six neighbours along three line directions; the \
                 goal point is D2 (\"Hageby II\", goal E2, is not served).",
                "Each side holds 5 stones (the rules file reserves 6, a slip in it). White \
                 first: the players drop one stone at a time on any empty point, the goal \
                 included (the Hungarian booklet has no first-drop restriction), until both \
                 hands are empty; then White makes the first move.",
                "A stone steps to a neighbouring empty point, or captures by jumping an \
                 adjacent enemy stone along a line to the empty point beyond; captures are \
                 compulsory and go on while they can, turning freely, with free choice among \
                 them; captured stones leave at once.",
                "A side wins by capturing every enemy stone (ALL_CAPTURED) or by moving its \
                 last remaining stone onto D2 (LAST_STONE_ON_GOAL). A side that cannot move \
                 passes (the move \"pass\"); when neither side can move, the game is drawn \
                 (BOTH_BLOCKED).",
            ],
        ),
        spec(
            "vilbergen",
            "Vilbergen (Hungarian rules)",
            (4, 3),
            full(4, 3),
            "W:W:B:S4,4",
            rules(4, DirSet::ALL, "d2"),
            &[
                "\"Dámajátékok Hétpróbára\" (Hungarian booklet of draughts games): Vilbergen",
                "Markus Salo, Vilbergen (Zillions rules file and readme, 2003): \
                 http://www.zillions-of-games.com/cgi-bin/zilligames/\
                 submissions.cgi?do=show;id=457",
            ],
            &[
                "A 4×3 board (a1-d3); the goal point is d2, the middle of the right-hand side.",
                "Each side holds 4 stones. White first: the players drop one stone at a time on \
                 any empty point (the goal included) until both hands are empty; then White \
                 makes the first move.",
                "A stone steps to an adjacent empty point in any of the 8 directions, or \
                 captures by jumping an adjacent enemy stone in any of them; captures are \
                 compulsory and go on while they can, turning freely, with free choice among \
                 them; captured stones leave at once.",
                "A side wins by capturing every enemy stone (ALL_CAPTURED) or by moving its \
                 last remaining stone onto the goal point (LAST_STONE_ON_GOAL); a side with no \
                 legal move loses.",
            ],
        ),
        spec(
            "vilbergen-salo",
            "Vilbergen, the designer's version",
            (4, 3),
            full(4, 3),
            "W:W:B:S5,5",
            rules(5, DirSet::ORTHOGONAL, "d2"),
            &[
                "Markus Salo, Vilbergen (Zillions rules file and readme, updated 20 Sep 2003): \
                 http://www.zillions-of-games.com/cgi-bin/zilligames/\
                 submissions.cgi?do=show;id=457",
                "jpneto, World of Abstract Games: Vilbergen, \
                 https://jpneto.github.io/world_abstract_games/vilbergen.htm",
            ],
            &[
                "Salo's rules: as Vilbergen, with 5 stones each and steps and captures along \
                 ranks and files only.",
                "The goal point d2 wins only when the last remaining stone moves onto it \
                 (Salo's final rules; jpneto's page says \"has\" it there, the readme and the \
                 rules file say \"moves\").",
            ],
        ),
        spec(
            "lahti",
            "Lahti",
            (5, 2),
            full(5, 2),
            "W:W:B:S4,4",
            rules(4, DirSet::ALL, "c2"),
            &[
                "\"Dámajátékok Hétpróbára\" (Hungarian booklet of draughts games): Lahti",
                "Markus Salo, Lahti (Zillions rules file and readme, 2003; kept in jpneto's \
                 World of Abstract Games repository, zrfs/Lahti.zip)",
            ],
            &[
                "Lahti I: a 5×2 board (a1-e2), goal point c2 (the middle of one long side).",
                "Each side holds 4 stones and drops them as in Vilbergen (any empty point, the \
                 goal included: the Hungarian booklet has no first-drop restriction).",
                "A stone steps in any of the 8 directions and captures by jumping; on two rows \
                 only jumps along a row exist, so a capture takes at most two stones \
                 (a→c→e). Captures are compulsory and go on while they can.",
                "A side wins by capturing every enemy stone (ALL_CAPTURED) or by moving its \
                 last remaining stone onto c2 (LAST_STONE_ON_GOAL); a side with no legal move \
                 loses.",
            ],
        ),
    ]
}
