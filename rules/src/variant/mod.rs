//! Variants: a board, a ruleset, a start position and a notation, put together from a
//! declarative [`Spec`]. The catalogue itself is in [`crate::catalogue`].

mod legal;

pub use legal::Found;

use crate::bits::Bits;
use crate::board::{Board, Corner, Dir, Squares};
use crate::draws::DrawKind;
use crate::ends::EndKind;
use crate::gen::bulk::Bulk;
use crate::moves::{Move, MoveKind};
use crate::position::{Color, Kind, KingRun, Position, Setup, KINDS};
use crate::rules::{Goal, OpeningRemoval, Rules};

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

/// Why a setup is not a valid position for a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Two pieces on one square.
    Occupied { square: String },
    /// A man on a square where it would have been crowned.
    ManOnPromotionSquare { square: String },
    /// A kind of piece the variant does not have.
    KindNotInVariant { square: String, kind: &'static str },
    /// No side to move was given.
    NoSideToMove,
    /// A king in a game's start position, in a variant where a king on the board means the
    /// game is already over (an end rule such as Breakthrough's `KING_CROWNED`).
    KingEndsGame { square: String, code: &'static str },
    /// Stones in hand in a variant without drops.
    NoDrops,
    /// Last moves (the L field) in a variant without the no-return rule.
    NoLastMoves,
    /// Castle moves (the C field) in a variant without castle moves.
    NoCastleMoves,
    /// More castle moves than a side may make.
    TooManyCastleMoves {
        color: &'static str,
        made: u8,
        limit: u8,
    },
    /// A side's last move does not end on one of its pieces.
    BadLastMove { color: &'static str, to: String },
    /// More stones in hand and on the board than a side has.
    TooManyStones {
        color: &'static str,
        in_hand: u8,
        on_board: u32,
        stones: u8,
    },
    /// Kings of both sides in such a variant: the first crowning ended the game, so no game
    /// reaches a second one.
    KingsOfBothSides {
        squares: [String; 2],
        code: &'static str,
    },
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Occupied { square } => {
                write!(f, "square {square} is given more than one piece")
            }
            PositionError::ManOnPromotionSquare { square } => write!(
                f,
                "a man stands on {square}, a square where it would already have been crowned"
            ),
            PositionError::KindNotInVariant { square, kind } => {
                write!(f, "square {square}: this variant has no {kind}s")
            }
            PositionError::NoSideToMove => write!(f, "the side to move is missing"),
            PositionError::KingEndsGame { square, code } => write!(
                f,
                "square {square} holds a king, but in this variant a king on the board means \
                 the game is already over ({code}), so no game can start from this position"
            ),
            PositionError::NoLastMoves => write!(
                f,
                "last moves (the L field) are given, but this variant has no no-return rule"
            ),
            PositionError::BadLastMove { color, to } => write!(
                f,
                "{color}'s last move must end on a piece of {color}'s, but {to} is not one"
            ),
            PositionError::NoCastleMoves => write!(
                f,
                "castle moves (the C field) are given, but this variant has no castle moves"
            ),
            PositionError::TooManyCastleMoves { color, made, limit } => write!(
                f,
                "{color} is given {made} castle moves, but a side may make only {limit} in a game"
            ),
            PositionError::NoDrops => write!(
                f,
                "stones in hand (the S field) are given, but this variant has no drops"
            ),
            PositionError::TooManyStones {
                color,
                in_hand,
                on_board,
                stones,
            } => write!(
                f,
                "{color} has {in_hand} stones in hand and {on_board} on the board, but a side \
                 has only {stones} stones"
            ),
            PositionError::KingsOfBothSides { squares, code } => write!(
                f,
                "both sides hold a king ({} and {}), but in this variant the first crowning \
                 ends the game ({code}), so no game reaches this position",
                squares[0], squares[1]
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// The longest square name a board may have, in bytes: `a1`-style names up to `z999` or
/// numbers up to 9999, more than any board of the catalogue needs.
pub const MAX_NAME_BYTES: usize = 4;

/// Bytes of a cell's entry in a FEN list as it is copied: a comma and the name, padded.
pub(crate) const FEN_ENTRY_BYTES: usize = 8;
const _: () = assert!(MAX_NAME_BYTES < FEN_ENTRY_BYTES); // a comma and a name

/// A variant of the catalogue, ready to generate moves.
#[derive(Debug)]
pub struct Variant {
    spec: Spec,
    board: Board,
    promotion: [Bits; 2],
    /// Numeric name of each cell.
    numbers: Vec<u16>,
    /// Cell of each numeric name (index 0 unused).
    by_number: Vec<u8>,
    start: Position,
    /// See [`Variant::has_placements`].
    placements: bool,
    /// The narrow generator, when the ruleset is within its reach ([`crate::gen::bulk`]).
    bulk: Option<Bulk>,
    /// The cells the end rules name ([`Rules::ends`]), resolved once, rule by rule: each
    /// side's goal ([`EndKind::Occupies`]: `[white's, black's]`; [`EndKind::LastStoneArrives`]:
    /// the goal for both), empty sets for the rules that name none.
    end_cells: Vec<[Bits; 2]>,
    /// Each side's castle squares ([`Rules::castles`]): `[white's, black's]`, empty sets where
    /// the game has none.
    castles: [Bits; 2],
    /// Whether the ruleset's pieces canter ([`Rules::leaps`]): the leap generator makes its
    /// moves.
    pub(crate) leaps: bool,
    /// The cells the draw rules name ([`Rules::draws`]), rule by rule: `[lone_king_on,
    /// strong_king_on]` of a [`DrawKind::Endgame`] rule (an empty set: anywhere), empty sets
    /// for the other rules.
    draw_cells: Vec<[Bits; 2]>,
    /// The cells of each opening removal step ([`Rules::opening_removals`]): those an
    /// [`OpeningRemoval::Among`] step names, an empty set for the other steps.
    removal_cells: Vec<Bits>,
    /// The display name of each cell id (empty for unused ids).
    names: Vec<String>,
    /// The cells in the order a FEN lists them (by number, or rank by rank on algebraic
    /// boards) as runs of consecutive cell ids within one word of a cell set (a row
    /// of the board, usually): the first cell and the length of each.
    fen_runs: Vec<(u8, u8)>,
    /// Each cell's entry in a FEN list, a comma and its name, zero-padded to
    /// [`FEN_ENTRY_BYTES`], and its length.
    fen_entries: Vec<([u8; FEN_ENTRY_BYTES], u8)>,
}

impl Variant {
    /// Builds a variant from its spec, all but its start position, which
    /// [`Variant::new`] reads from the spec's start FEN (the FEN reader is a layer up, in
    /// [`crate::notation::fen`]): until then the start position is an empty board.
    ///
    /// # Panics
    /// If the spec is inconsistent (a promotion square does not exist). Specs are catalogue
    /// data; the catalogue test builds every one.
    pub(crate) fn without_start(spec: Spec) -> Variant {
        let board = spec.board.build(spec.width, spec.height);
        let numbers = board.numbering(spec.numbering);
        let mut by_number = vec![u8::MAX; board.len() + 1];
        for cell in board.cells().iter() {
            by_number[numbers[cell] as usize] = cell as u8;
        }
        // Square names in rule data, resolved here once: judging and generation read cell
        // sets only.
        let cells = |names: &[&str], what: &str| -> Bits {
            names
                .iter()
                .map(|n| {
                    board
                        .parse_algebraic(n)
                        .unwrap_or_else(|| panic!("{}: bad {what} square {n}", spec.id))
                })
                .collect()
        };
        let promotion = match &spec.promotion {
            PromotionSquares::FarRank => [board.rank(spec.height - 1), board.rank(0)],
            PromotionSquares::Squares(sq) => sq.map(|names| cells(names, "promotion")),
        };
        let castles = spec.rules.castles.map_or([Bits::EMPTY; 2], |c| {
            c.squares.map(|names| cells(names, "castle"))
        });
        let end_cells = spec
            .rules
            .ends
            .iter()
            .map(|e| match e.kind {
                EndKind::Occupies([w, b]) => [cells(&[w], "goal"), cells(&[b], "goal")],
                // Each side's goal is the opponent's castle.
                EndKind::CastleTaken => [castles[1], castles[0]],
                EndKind::LastStoneArrives(goal) => [cells(&[goal], "goal"); 2],
                _ => [Bits::EMPTY; 2],
            })
            .collect();
        let draw_cells = spec
            .rules
            .draws
            .iter()
            .map(|d| match d.kind {
                DrawKind::Endgame {
                    lone_king_on,
                    strong_king_on,
                    ..
                } => [
                    cells(lone_king_on, "draw rule"),
                    cells(strong_king_on, "draw rule"),
                ],
                _ => [Bits::EMPTY; 2],
            })
            .collect();
        let removal_cells = spec
            .rules
            .opening_removals
            .iter()
            .map(|step| match step {
                OpeningRemoval::Among(squares) => cells(squares, "opening removal"),
                OpeningRemoval::NextToEmpty(_) => Bits::EMPTY,
            })
            .collect();
        let placements = !spec.rules.opening_removals.is_empty() || spec.rules.stones_in_hand != 0;
        let bulk = Bulk::of(&board, &spec.rules, promotion);
        let names: Vec<String> = (0..board.id_bound())
            .map(|c| {
                if !board.cells().contains(c) {
                    String::new()
                } else if spec.algebraic {
                    board.algebraic(c)
                } else {
                    numbers[c].to_string()
                }
            })
            .collect();
        // The cells in the order a FEN lists them: by number, or rank by rank (algebraic).
        let mut fen_order: Vec<u8> = board.cells().iter().map(|c| c as u8).collect();
        if spec.algebraic {
            fen_order.sort_by_key(|&c| {
                let (x, y) = board.xy(c as usize);
                (y, x)
            });
        } else {
            fen_order.sort_by_key(|&c| numbers[c as usize]);
        }
        // FEN and move texts are written without escaping (JSON, query strings): a name
        // must not need any. FENs copy names as fixed-width byte blocks.
        // (Ids that are not cells have an empty name.)
        assert!(
            names
                .iter()
                .all(|n| n.len() <= MAX_NAME_BYTES && n.bytes().all(|b| b.is_ascii_alphanumeric())),
            "{}: square names are at most {MAX_NAME_BYTES} letters and digits",
            spec.id
        );
        let mut fen_runs: Vec<(u8, u8)> = Vec::new();
        for &c in &fen_order {
            match fen_runs.last_mut() {
                Some((first, len)) if c == *first + *len && c % 64 != 0 => *len += 1,
                _ => fen_runs.push((c, 1)),
            }
        }
        let fen_entries = names
            .iter()
            .map(|n| {
                let mut b = [0u8; FEN_ENTRY_BYTES];
                b[0] = b',';
                b[1..=n.len()].copy_from_slice(n.as_bytes());
                (b, 1 + n.len() as u8)
            })
            .collect();
        Variant {
            castles,
            leaps: spec.rules.leaps(),
            end_cells,
            draw_cells,
            removal_cells,
            fen_entries,
            placements,
            bulk,
            names,
            fen_runs,
            board,
            promotion,
            numbers,
            by_number,
            start: Position::of_pieces(spec.first, Default::default()),
            spec,
        }
    }

    /// Sets the start position ([`Variant::new`]).
    pub(crate) fn set_start(&mut self, start: Position) {
        self.start = start;
    }

    /// The narrow generator of the variant (perft's fast path), if it has one.
    pub fn bulk(&self) -> Option<&Bulk> {
        self.bulk.as_ref()
    }

    /// The cells each end rule names, rule by rule (see [`Rules::ends`]): `[white's, black's]`
    /// goal, empty sets for a rule that names none.
    #[inline]
    pub fn end_cells(&self) -> &[[Bits; 2]] {
        &self.end_cells
    }

    /// The cells each draw rule names, rule by rule (see [`Rules::draws`]): `[lone_king_on,
    /// strong_king_on]` of an endgame rule, empty sets for the other rules.
    #[inline]
    pub fn draw_cells(&self) -> &[[Bits; 2]] {
        &self.draw_cells
    }

    pub fn id(&self) -> &'static str {
        self.spec.id
    }

    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The number of the PDN GameType tag, if the variant has one (the first field of
    /// [`Spec::game_type`]).
    pub fn game_type_number(&self) -> Option<u32> {
        self.spec.game_type?.split(',').next()?.trim().parse().ok()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> &Rules {
        &self.spec.rules
    }

    /// The side that moves first from the start position.
    pub fn first_mover(&self) -> Color {
        self.spec.first
    }

    /// The castle squares of `color` (empty where the game has no castles).
    pub fn castle(&self, color: Color) -> Bits {
        self.castles[color as usize]
    }

    /// The squares where men of `color` are crowned.
    #[inline(always)]
    pub fn promotion(&self, color: Color) -> Bits {
        self.promotion[color as usize]
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start
    }

    /// Whether the PDN 3.0 grammar has no name for some of this variant's squares: an
    /// algebraic board wider or taller than 8 (its squares are `a1` to `h8`). Moves of such a
    /// variant are no moves of the grammar ([`Variant::beyond_pdn_fen`] for its FEN).
    pub fn beyond_pdn_squares(&self) -> bool {
        self.algebraic() && (self.board().width() > 8 || self.board().height() > 8)
    }

    /// Whether a FEN of this variant can be beyond the PDN 3.0 FEN grammar: squares it has no
    /// name for ([`Variant::beyond_pdn_squares`]), or pieces other than men and kings (the
    /// grammar has only the `K` prefix).
    pub fn beyond_pdn_fen(&self) -> bool {
        let other_kinds = [Kind::Parachutist, Kind::Knight].iter().any(|&k| {
            let p = self.rules().piece(k);
            !p.moves[0].is_empty() || !p.captures[0].is_empty()
        });
        self.beyond_pdn_squares() || other_kinds
    }

    /// Whether squares are written algebraically.
    pub fn algebraic(&self) -> bool {
        self.spec.algebraic
    }

    /// The display name of a cell in this variant's notation.
    pub fn square_name(&self, cell: usize) -> String {
        self.square_str(cell).to_string()
    }

    /// The display name of a cell, borrowed from the variant's table of names.
    #[inline]
    pub fn square_str(&self, cell: usize) -> &str {
        &self.names[cell]
    }

    /// The cells in the order a FEN lists them, as runs of consecutive cell ids, each within
    /// one word of a cell set: the first cell and the length.
    #[inline]
    pub(crate) fn fen_runs(&self) -> &[(u8, u8)] {
        &self.fen_runs
    }

    /// Each cell's entry in a FEN list (`,31`), zero-padded to [`FEN_ENTRY_BYTES`], and its
    /// length.
    #[inline]
    pub(crate) fn fen_entries(&self) -> &[([u8; FEN_ENTRY_BYTES], u8)] {
        &self.fen_entries
    }

    /// A cell's entry in a FEN list: a comma and the cell's name (`,31`), zero-padded to a
    /// fixed 8 bytes, and its length: a block that writers copy whole, then cut.
    #[inline]
    pub fn fen_entry(&self, cell: usize) -> ([u8; FEN_ENTRY_BYTES], usize) {
        let (entry, len) = self.fen_entries[cell];
        (entry, usize::from(len))
    }

    /// Where a cell comes in the documented order of squares: the numeric name on boards
    /// written with numbers; on algebraic boards file by file, each from rank 1 up (a1, a2,
    /// ..., b1, ...), which is the alphabetical order of the names on boards with at most 9
    /// ranks. Move lists are sorted by it ([`Variant::describe_moves`]).
    pub fn square_order(&self, cell: usize) -> u16 {
        if self.spec.algebraic {
            let (x, y) = self.board.xy(cell);
            x as u16 * self.board.height() as u16 + y as u16
        } else {
            self.numbers[cell]
        }
    }

    /// Numeric name of a cell (every variant has one, even algebraic ones).
    pub fn square_number(&self, cell: usize) -> u16 {
        self.numbers[cell]
    }

    /// The cell with numeric name `n`.
    pub fn cell_of_number(&self, n: u32) -> Option<usize> {
        match self.by_number.get(n as usize) {
            Some(&c) if n > 0 && c != u8::MAX => Some(c as usize),
            _ => None,
        }
    }

    /// Checks a raw setup and turns it into a position.
    pub fn position(&self, setup: &Setup) -> Result<Position, PositionError> {
        let side = setup.side.ok_or(PositionError::NoSideToMove)?;
        // The pieces as sets, checked with set operations; only a setup that fails a check
        // goes through them one by one, to name the first piece at fault.
        let mut sets = [[Bits::EMPTY; KINDS]; 2];
        let mut seen = Bits::EMPTY;
        let mut twice = false;
        for &(cell, color, kind) in &setup.pieces {
            twice |= seen.contains(cell);
            seen.insert(cell);
            sets[color as usize][kind as usize].insert(cell);
        }
        let placed = if twice { None } else { self.placed(side, sets) };
        let mut p = match placed {
            Some(p) => p,
            None => self.place_each(side, setup)?,
        };
        if let Some(hand) = setup.hand {
            let stones = self.rules().stones_in_hand;
            if stones == 0 && hand != [0, 0] {
                return Err(PositionError::NoDrops);
            }
            for color in Color::BOTH {
                let held = hand[color as usize];
                let on_board = p.side_pieces(color).len();
                if u32::from(held) + on_board > u32::from(stones) {
                    return Err(PositionError::TooManyStones {
                        color: color.name(),
                        in_hand: held,
                        on_board,
                        stones,
                    });
                }
            }
            p.hand = hand;
        }
        if let Some(made) = setup.castle_moves {
            let limit = self.rules().castles.map_or(0, |c| c.moves);
            if limit == 0 && made != [0, 0] {
                return Err(PositionError::NoCastleMoves);
            }
            for color in Color::BOTH {
                if made[color as usize] > limit {
                    return Err(PositionError::TooManyCastleMoves {
                        color: color.name(),
                        made: made[color as usize],
                        limit,
                    });
                }
            }
            p.castle_moves = made;
        }
        for color in Color::BOTH {
            let Some((from, to)) = setup.last[color as usize] else {
                continue;
            };
            if !self.rules().no_return {
                return Err(PositionError::NoLastMoves);
            }
            // `from == to` is a capture that came round to the point it started from
            // (Alquerque's a1xc1xa3xa1): the piece may not come back there next time either.
            if !p.side_pieces(color).contains(to) {
                return Err(PositionError::BadLastMove {
                    color: color.name(),
                    to: self.square_name(to),
                });
            }
            p.last[color as usize] = [from as u8, to as u8];
        }
        self.check_kings(&p)?;
        Ok(p)
    }

    /// Under an end rule that forbids kings of both sides at once, the error naming them.
    pub(crate) fn check_kings(&self, p: &Position) -> Result<(), PositionError> {
        if let Some(rule) = self.rules().ends.iter().find(|e| e.kind.forbids_kings()) {
            let white = p.pieces(Color::White, Kind::King);
            let black = p.pieces(Color::Black, Kind::King);
            if let (Some(w), Some(b)) = (white.first(), black.first()) {
                return Err(PositionError::KingsOfBothSides {
                    squares: [self.square_name(w), self.square_name(b)],
                    code: rule.code.code(),
                });
            }
        }
        Ok(())
    }

    /// The pieces `sets` (by colour and kind, on distinct cells) with `side` to move, no
    /// stones in hand and no last moves, when every piece may stand where it is: its kind is
    /// one of the variant's and no man stands on its own promotion row. `None` otherwise.
    pub(crate) fn placed(&self, side: Color, sets: [[Bits; KINDS]; 2]) -> Option<Position> {
        for color in Color::BOTH {
            for kind in Kind::ALL {
                let pr = self.rules().piece(kind);
                if !sets[color as usize][kind as usize].is_empty()
                    && pr.moves[color as usize].is_empty()
                    && pr.captures[color as usize].is_empty()
                {
                    return None;
                }
            }
            let men = sets[color as usize][Kind::Man as usize];
            if !men.intersect(self.promotion(color)).is_empty() {
                return None;
            }
        }
        Some(Position::of_pieces(side, sets))
    }

    /// [`Variant::placed`] piece by piece, in the setup's order: the error names the first
    /// piece at fault.
    fn place_each(&self, side: Color, setup: &Setup) -> Result<Position, PositionError> {
        let mut p = Position::of_pieces(side, Default::default());
        let mut seen = Bits::EMPTY;
        for &(cell, color, kind) in &setup.pieces {
            // Named only for an error: most positions have none.
            let square = || self.square_name(cell);
            if seen.contains(cell) {
                return Err(PositionError::Occupied { square: square() });
            }
            seen.insert(cell);
            let pr = self.rules().piece(kind);
            if pr.moves[color as usize].is_empty() && pr.captures[color as usize].is_empty() {
                return Err(PositionError::KindNotInVariant {
                    square: square(),
                    kind: kind.name(),
                });
            }
            if kind == Kind::Man && self.promotion(color).contains(cell) {
                return Err(PositionError::ManOnPromotionSquare { square: square() });
            }
            p.put(color, kind, cell);
        }
        Ok(p)
    }

    /// Checks that a game may start from `pos` (a judged game's start position, a record's
    /// FEN tag): under an end rule that a king on the board has already fired (Breakthrough's
    /// `KING_CROWNED`), a position holding a king is a finished game, which `/moves` and
    /// `/play` describe as such, but no game can start from it.
    pub fn check_start(&self, pos: &Position) -> Result<(), PositionError> {
        if let Some(rule) = self.rules().ends.iter().find(|e| e.kind.forbids_kings()) {
            let kings = pos
                .pieces(Color::White, Kind::King)
                .union(pos.pieces(Color::Black, Kind::King));
            if let Some(cell) = kings.first() {
                return Err(PositionError::KingEndsGame {
                    square: self.square_name(cell),
                    code: rule.code.code(),
                });
            }
        }
        Ok(())
    }

    /// The numeric name of every cell, indexed by cell id.
    pub fn numbers(&self) -> &[u16] {
        &self.numbers
    }

    /// Plays a move generated for `pos`. The move is not checked: pass only moves from
    /// [`Variant::legal_moves`] for the same position.
    #[inline(always)]
    pub fn play(&self, pos: &Position, m: &Move) -> Position {
        let mut p = *pos;
        let me = pos.side as usize;
        let them = 1 - me;
        // A pass, a drop or an opening removal: no piece moves on the board.
        match m.kind() {
            MoveKind::Step | MoveKind::Capture => {}
            placement => {
                if placement == MoveKind::Drop {
                    p.put(pos.side, m.piece(), m.to() as usize);
                    p.hand[me] -= 1;
                } else if placement == MoveKind::Removal {
                    p.take(pos.side, m.piece(), m.from() as usize);
                }
                p.king_run = [KingRun::default(); 2];
                p.side = pos.side.opponent();
                return p;
            }
        }
        p.take(pos.side, m.piece(), m.from() as usize);
        // The captured pieces first: under immediate removal a capture may end on the square
        // of a piece it took.
        if m.is_capture() {
            p.take_all(pos.side.opponent(), m.captured());
        }
        p.put(pos.side, m.becomes(), m.to() as usize);
        if self.spec.rules.no_return {
            p.last[me] = [m.from(), m.to()];
            // A captured stone's last move no longer binds anything: forget it, so that the
            // position reads the same whichever way it was reached.
            let [_, their_to] = p.last[them];
            if their_to != crate::board::NONE && m.captured().contains(their_to as usize) {
                p.last[them] = [crate::board::NONE; 2];
            }
        }
        if self.leaps && self.castles[them].contains(m.from() as usize) {
            // A castle move: a step inside the enemy castle, the only move a piece there has.
            p.castle_moves[me] = p.castle_moves[me].saturating_add(1);
        }
        if self.spec.rules.king_quiet_limit != 0 {
            let limit = self.spec.rules.king_quiet_limit;
            let has_men = !p.pieces(pos.side, Kind::Man).is_empty();
            let run = &mut p.king_run[me];
            if m.piece() == Kind::King && !m.is_capture() && has_men {
                if run.count > 0 && run.cell == m.from() {
                    // Only "limit reached or not" matters: saturate, so that positions can
                    // repeat.
                    run.count = (run.count + 1).min(limit);
                } else {
                    run.count = 1;
                }
                run.cell = m.to();
            } else {
                // Men moved, a capture, or no men left (the rule no longer applies).
                *run = KingRun::default();
            }
            let other = &mut p.king_run[them];
            if other.count > 0 && m.captured().contains(other.cell as usize) {
                *other = KingRun::default();
            }
        }
        p.side = pos.side.opponent();
        p
    }

    /// Whether `color` has no piece on the board and none in hand: it has lost everything
    /// (the game is over, [`crate::Reason::NoPieces`] when it is not the side to move).
    #[inline(always)]
    pub fn has_nothing(&self, pos: &Position, color: Color) -> bool {
        pos.side_pieces(color).is_empty() && pos.hand(color) == 0
    }

    /// The opening removal step that applies in `pos`, if any: step `i` of
    /// [`Rules::opening_removals`] while exactly `i` cells are empty.
    #[inline(always)]
    pub fn opening_removal(&self, pos: &Position) -> Option<OpeningRemoval> {
        self.opening_removal_cells(pos).map(|(step, _)| step)
    }

    /// [`Variant::opening_removal`], with the cells the step names (an empty set for a step
    /// that names none).
    #[inline(always)]
    pub(crate) fn opening_removal_cells(&self, pos: &Position) -> Option<(OpeningRemoval, Bits)> {
        let steps = &self.spec.rules.opening_removals;
        if steps.is_empty() {
            return None;
        }
        let empty = self.board.cells().minus(pos.occupied()).len() as usize;
        steps
            .get(empty)
            .map(|&step| (step, self.removal_cells[empty]))
    }

    /// Whether some positions of the variant have placement moves only: opening removals
    /// (Konane) or drops. Checked once per generation, before the per-position tests.
    #[inline(always)]
    pub fn has_placements(&self) -> bool {
        self.placements
    }

    /// The points the side to move may not drop on: the goal point for the game's first drop
    /// (an empty board, both hands full) under [`Rules::first_drop_off_goal`].
    pub fn barred_drops(&self, pos: &Position) -> Bits {
        let r = &self.spec.rules;
        let first = pos.occupied().is_empty()
            && pos.hand(Color::White) == r.stones_in_hand
            && pos.hand(Color::Black) == r.stones_in_hand;
        if !(r.first_drop_off_goal && first) {
            return Bits::EMPTY;
        }
        r.ends
            .iter()
            .zip(&self.end_cells)
            .filter(|(e, _)| matches!(e.kind, EndKind::LastStoneArrives(_)))
            .fold(Bits::EMPTY, |goals, (_, cells)| goals.union(cells[0]))
    }

    /// Whether the side to move drops a stone (it still holds stones in hand).
    #[inline(always)]
    pub fn drops_now(&self, pos: &Position) -> bool {
        self.spec.rules.stones_in_hand != 0 && pos.hand(pos.side()) > 0
    }

    /// The verdict for a side that has no legal move.
    pub fn no_moves_winner(&self, side_to_move: Color) -> Color {
        match self.spec.rules.goal {
            // With passes a side always has a move; a position where neither side has any other
            // is decided by the BOTH_BLOCKED end rule.
            Goal::NoMovesLoses | Goal::NoMovesPasses => side_to_move.opponent(),
            Goal::NoMovesWins => side_to_move,
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
