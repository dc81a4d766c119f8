//! Variants: a board, a ruleset, a start position and a notation, put together from a
//! declarative [`Spec`]. The catalogue itself is in [`crate::catalogue`].
//!
//! [`Variant`]'s methods are gathered by concern, one file each:
//!
//! | concern | file | methods |
//! |---|---|---|
//! | what the variant is | `variant/mod.rs` | `id`, `name`, `spec`, `rules`, `board`, `start`, `first_mover`, `promotion`, `castle`, `game_type_number` |
//! | building one | `variant/spec.rs`, `catalogue/mod.rs` | [`Spec`], `Variant::new`; the catalogue's entries |
//! | positions set up | `variant/setup.rs` | `position`, `check_start` |
//! | square names and numbers | `variant/squares.rs` | `square_name`, `square_number`, `square_order`, `cell_of_number`, `algebraic`, `numbers` |
//! | legal moves | `variant/legal.rs` | `legal_moves`, `has_legal_move`, `generate`, `generate_paths`, `count_paths`, `decided`, `end_rule` |
//! | playing a move | `variant/play.rs` | `play`, `opening_removal`, `drops_now`, `barred_drops`, `has_nothing`, `no_moves_winner` |
//! | FEN read and written | `notation/fen.rs` | `parse_fen`, `parse_fen_counters`, `parse_start_fen`, `fen`, `fen_counters`, `fen_into` |
//! | moves written out | `notation/listing.rs` | `list_moves`, `describe_moves`, `sort_moves` |
//! | move text read | `notation/movetext.rs`, `notation/squares.rs` | `parse_move`, `matching_moves`, `partly_named_moves`, `parse_square` |
//! | why a move is illegal | `notation/violation.rs` | `explain`, which `parse_move` calls for a text that names no legal move |
//! | the rules described | `catalogue/describe.rs` | `parameters` |

mod legal;
mod play;
mod setup;
mod spec;
mod squares;

pub use legal::Found;
pub use setup::PositionError;
pub use spec::{BoardShape, GraphBoard, PromotionSquares, ResultStyle, Spec};

use crate::bits::Bits;
use crate::board::Board;
use crate::draws::DrawKind;
use crate::ends::EndKind;
use crate::gen::bulk::Bulk;
use crate::position::{Color, Position};
use crate::rules::{OpeningRemoval, Rules};

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
        // The draw counts ([`crate::outcome::DrawClock`]) hold one count per rule.
        assert!(
            spec.rules.draws.len() <= crate::draws::MAX_DRAW_RULES,
            "{}: at most {} draw rules",
            spec.id,
            crate::draws::MAX_DRAW_RULES
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
}
