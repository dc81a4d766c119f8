//! What a catalogue entry writes: a variant as plain data ([`Spec`]), with the board it is
//! played on ([`BoardShape`], [`GraphBoard`]).

use crate::board::{Board, Corner, Dir, Squares};
use crate::position::Color;
use crate::rules::Rules;

/// Where men are crowned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromotionSquares {
    /// The far rank of each side.
    FarRank,
    /// Explicit squares per side, by algebraic name: `[white, black]`.
    Squares([&'static [&'static str]; 2]),
}

/// How results are written in PDN (PDN 3.0 result types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultStyle {
    /// `1-0`, `0-1`, `1/2-1/2`.
    Default,
    /// `2-0`, `0-2`, `1-1` (International, Canadian).
    International,
}

/// Everything that defines a variant, as plain data.
#[derive(Clone, Debug)]
pub struct Spec {
    pub id: &'static str,
    pub name: &'static str,
    /// Files and ranks of the board (for a graph board: of the grid its points are drawn on).
    pub width: u8,
    pub height: u8,
    /// Which board the variant is played on.
    pub board: BoardShape,
    /// Where square 1 lies for numeric names.
    pub numbering: Corner,
    /// Whether squares are written algebraically (`c3`) rather than by number.
    pub algebraic: bool,
    pub first: Color,
    pub start_fen: &'static str,
    pub rules: Rules,
    pub promotion: PromotionSquares,
    /// The full PDN GameType tag value, if the variant has a standard number.
    pub game_type: Option<&'static str>,
    /// Values other software writes in a PDN `Variant` tag for this variant, besides its id
    /// (lidraughts `Standard`, PlayStrategy `American/English`); compared without regard to
    /// case, spaces, `_` and `-`.
    pub variant_tags: &'static [&'static str],
    pub capture_separator: char,
    pub result_style: ResultStyle,
    pub sources: &'static [&'static str],
    /// Why the variant is provisional, if it is.
    pub provisional: Option<&'static str>,
    /// Rule decisions worth stating (readings chosen where sources disagree).
    pub notes: &'static [&'static str],
}

/// The board a variant is played on.
#[derive(Clone, Debug)]
pub enum BoardShape {
    /// The `width`×`height` grid of squares; the value says which squares are played on (the
    /// dark ones, on either colouring, or all of them). Direction links join neighbouring
    /// playable squares: diagonally adjacent ones, and on the orthogonal lines the next
    /// playable square (two squares away on a checkered board, adjacent on a full one).
    Grid(Squares),
    /// An explicit graph of points and lines (point-and-line boards, irregular boards).
    Graph(GraphBoard),
}

/// A board given as a graph: its points, drawn on the `width`×`height` grid of the spec (the
/// coordinates give algebraic names), its lines and its step-only links. A jump follows a line
/// and then the line of the same direction from the point it reaches; a step-only link (Seth's
/// arc) may be used by a step, never by a capture.
#[derive(Clone, Debug, Default)]
pub struct GraphBoard {
    /// `(file, rank)` of each point, a1 = (0, 0); the index is the point's id.
    pub points: Vec<(u8, u8)>,
    /// `(from, direction, to)`, by point index: a line between two neighbouring points, in
    /// both directions (`to` is reached from `from` going `direction`, and back the
    /// opposite way).
    pub lines: Vec<(usize, Dir, usize)>,
    /// Pairs of points joined by a step-only link.
    pub step_only: Vec<(usize, usize)>,
}

impl GraphBoard {
    /// The points of the `width`×`height` grid with lines between orthogonal neighbours, and
    /// diagonal lines from the points `diagonal` selects (to their diagonal neighbours).
    pub fn grid_lines(width: u8, height: u8, diagonal: impl Fn(u8, u8) -> bool) -> GraphBoard {
        let index = |x: u8, y: u8| y as usize * width as usize + x as usize;
        let mut g = GraphBoard::default();
        for y in 0..height {
            for x in 0..width {
                g.points.push((x, y));
                if x + 1 < width {
                    g.lines.push((index(x, y), Dir::East, index(x + 1, y)));
                }
                if y + 1 < height {
                    g.lines.push((index(x, y), Dir::North, index(x, y + 1)));
                    if diagonal(x, y) {
                        if x + 1 < width {
                            g.lines
                                .push((index(x, y), Dir::NorthEast, index(x + 1, y + 1)));
                        }
                        if x > 0 {
                            g.lines
                                .push((index(x, y), Dir::NorthWest, index(x - 1, y + 1)));
                        }
                    }
                }
            }
        }
        g
    }

    /// The point at `(x, y)`.
    ///
    /// # Panics
    /// If there is none (catalogue data).
    pub fn point(&self, x: u8, y: u8) -> usize {
        self.points
            .iter()
            .position(|&p| p == (x, y))
            .unwrap_or_else(|| panic!("no point at ({x}, {y})"))
    }
}

impl BoardShape {
    /// Builds the board of this shape.
    pub fn build(&self, width: u8, height: u8) -> Board {
        match self {
            BoardShape::Grid(squares) => Board::checkered(width, height, *squares),
            BoardShape::Graph(g) => {
                let mut links = Vec::with_capacity(2 * g.lines.len());
                for &(a, d, b) in &g.lines {
                    links.push((a, d, b));
                    links.push((b, d.opposite(), a));
                }
                Board::from_links(
                    width,
                    height,
                    g.points.iter().map(|&p| Some(p)).collect(),
                    &links,
                )
                .with_step_only(&g.step_only)
            }
        }
    }

    /// The layout of the board, in a word: `checkered` (the dark squares of a grid), `full`
    /// (every square of a grid) or `graph` (points and lines).
    pub fn layout(&self) -> &'static str {
        match self {
            BoardShape::Grid(Squares::DarkA1 | Squares::LightA1) => "checkered",
            BoardShape::Grid(Squares::All | Squares::Ranks(_)) => "full",
            BoardShape::Graph(_) => "graph",
        }
    }
}

#[cfg(test)]
mod shape_tests {
    use super::*;

    /// A 3×3 point board with lines along the ranks and files and diagonals through the
    /// points of even parity (a small Alquerque board), and a step-only link a1-c1.
    fn small() -> GraphBoard {
        let mut g = GraphBoard::grid_lines(3, 3, |x, y| (x + y) % 2 == 0);
        g.step_only.push((0, 2));
        g
    }

    #[test]
    fn a_graph_board_has_its_points_lines_and_jumps() {
        let shape = BoardShape::Graph(small());
        assert_eq!(shape.layout(), "graph");
        let b = shape.build(3, 3);
        assert_eq!(b.len(), 9);
        // Jumps follow a line straight on: a1 over b2 to c3, a1 over a2 to a3.
        assert_eq!(b.jump(0, Dir::NorthEast), [4, 8]);
        assert_eq!(b.jump(0, Dir::North), [3, 6]);
        // Lines go both ways: b2 back to a1.
        assert_eq!(b.next(4, Dir::SouthWest), 0);
        // No line, no jump: b1 has no diagonal, c1 nothing to the east.
        assert_eq!(b.jump(1, Dir::NorthEast), [NONE_CELL; 2]);
        assert_eq!(b.next(2, Dir::East), NONE_CELL);
        // The step-only link a1-c1 is not a line.
        assert_eq!(b.step_only_from(0).collect::<Vec<_>>(), [2]);
        assert_eq!(b.step_only_from(2).collect::<Vec<_>>(), [0]);
        assert!(Dir::ALL.iter().all(|&d| b.next(0, d) != 2));
        assert_eq!(b.at(1, 1), Some(4));
        assert_eq!(b.algebraic(8), "c3");
    }

    const NONE_CELL: u8 = crate::board::NONE;

    #[test]
    fn grid_shapes_say_their_layout() {
        assert_eq!(BoardShape::Grid(Squares::DarkA1).layout(), "checkered");
        assert_eq!(BoardShape::Grid(Squares::LightA1).layout(), "checkered");
        let full = BoardShape::Grid(Squares::All).build(8, 8);
        assert_eq!(
            (BoardShape::Grid(Squares::All).layout(), full.len()),
            ("full", 64)
        );
    }
}
