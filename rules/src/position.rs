//! Positions: where the pieces stand, who moves, and the extra state some variants need.
//!
//! A [`Position`] is always checked: it is built from a raw [`Setup`] by
//! [`Variant::position`](crate::Variant::position), which rejects anything the rules could
//! never reach (two pieces on one square, a man on its own promotion square, pieces of a kind
//! the variant does not have). Everything downstream trusts it.

use crate::bits::Bits;

/// A side. Sides are always called White and Black, whatever the colours of a given set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The FEN letter.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

/// Number of piece kinds.
pub const KINDS: usize = 4;

/// A kind of piece. What each kind may do is data in the variant's [`Rules`](crate::Rules);
/// how it is named, written and drawn is its row of [`KIND_TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Man = 0,
    King = 1,
    /// A parachutist (Parachute checkers): captures once from the enemy's back row, then
    /// becomes a man.
    Parachutist = 2,
    /// A knight (the Camelot family): moves like a man, and may also charge (canters, then
    /// jumps, in one move).
    Knight = 3,
}

/// How a kind of piece is named, written and drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// Its name in the API (`"man"`, `"king"`, ...).
    pub name: &'static str,
    /// The letter before its square in a FEN list and in a material name (`K` in `K33`);
    /// `None` for the plain man, written without one.
    pub prefix: Option<u8>,
    /// The letter drawn on it in a diagram, where it has one.
    pub mark: Option<char>,
}

/// Every kind's row, indexed by `Kind as usize`.
pub const KIND_TABLE: [KindInfo; KINDS] = [
    KindInfo {
        name: "man",
        prefix: None,
        mark: None,
    },
    KindInfo {
        name: "king",
        prefix: Some(b'K'),
        mark: None,
    },
    KindInfo {
        name: "parachutist",
        prefix: Some(b'P'),
        mark: Some('P'),
    },
    KindInfo {
        name: "knight",
        prefix: Some(b'N'),
        mark: Some('N'),
    },
];

impl Kind {
    pub const ALL: [Kind; KINDS] = [Kind::Man, Kind::King, Kind::Parachutist, Kind::Knight];

    /// This kind's row of [`KIND_TABLE`].
    #[inline(always)]
    pub fn info(self) -> &'static KindInfo {
        &KIND_TABLE[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The FEN prefix letter (`None` for the man).
    #[inline(always)]
    pub fn prefix(self) -> Option<u8> {
        self.info().prefix
    }

    /// The kind written with the FEN prefix `letter`.
    #[inline]
    pub fn of_prefix(letter: u8) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.prefix() == Some(letter))
    }
}

/// State of the "same king moved N times in a row" rule (Frisian) for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct KingRun {
    /// The cell of the king that made the last non-capturing moves.
    pub cell: u8,
    /// How many non-capturing moves in a row it made (0 = none).
    pub count: u8,
}

/// An unchecked arrangement of pieces, as parsed from text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// `(cell, colour, kind)` for every piece.
    pub pieces: Vec<(usize, Color, Kind)>,
    pub side: Option<Color>,
    /// Stones in hand, White's and Black's (the FEN's `S` field); `None` = none.
    pub hand: Option<[u8; 2]>,
    /// Each side's last move `(from, to)` (the FEN's `L` field), under the no-return rule.
    pub last: [Option<(usize, usize)>; 2],
    /// Castle moves White and Black have made (the FEN's `C` field), under a castle-move
    /// limit ([`crate::rules::Castles::moves`]); `None` = none.
    pub castle_moves: Option<[u8; 2]>,
    /// Each side's king run (the FEN's `R` field) under a king-move limit (Frisian): the cell
    /// of the king that made the side's last non-capturing moves, and how many it made in a
    /// row; `None` = none.
    pub king_run: [Option<(usize, u8)>; 2],
}

/// A checked position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Every piece of each side.
    pub(crate) sides: [Bits; 2],
    /// The pieces of each kind, both sides together. A side's pieces of one kind are one
    /// intersection; a side's pieces, one read; and a fourth kind costs one set, not two (the
    /// position is copied for every move played).
    pub(crate) kinds: [Bits; KINDS],
    pub(crate) side: Color,
    pub(crate) king_run: [KingRun; 2],
    /// Stones each side still holds in hand (drop games; 0 elsewhere).
    pub(crate) hand: [u8; 2],
    /// Each side's last move, `[from, to]` ([`crate::board::NONE`]s when unknown), kept only
    /// under the no-return rule (BrainKing's Alquerque).
    pub(crate) last: [[u8; 2]; 2],
    /// Castle moves each side has made (Camelot; 0 elsewhere): part of the position, since a
    /// side may make only so many in a game.
    pub(crate) castle_moves: [u8; 2],
}

/// Every field, as machine words: the judge hashes each position of a game. The derived
/// hash, which writes each array's length and each small field apart, cost about 550
/// instructions per position with foldhash; this one about 220 (callgrind).
impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for set in self.sides.iter().chain(&self.kinds) {
            for w in set.words() {
                state.write_u64(w);
            }
        }
        let run = |r: KingRun| (r.cell as u64) << 8 | r.count as u64;
        let last = u32::from_le_bytes([
            self.last[0][0],
            self.last[0][1],
            self.last[1][0],
            self.last[1][1],
        ]) as u64;
        let hand = (self.hand[0] as u64) << 8 | self.hand[1] as u64;
        let castles = (self.castle_moves[0] as u64) << 8 | self.castle_moves[1] as u64;
        state
            .write_u64(self.side as u64 | run(self.king_run[0]) << 1 | run(self.king_run[1]) << 17);
        state.write_u64(hand | castles << 16 | last << 32);
    }
}

impl Position {
    /// `pieces` (by colour, then kind) with `side` to move and nothing else: no king runs,
    /// no stones in hand, no last moves. Unchecked: [`Variant::position`](crate::Variant::position)
    /// checks what it is given first.
    pub(crate) fn of_pieces(side: Color, pieces: [[Bits; KINDS]; 2]) -> Position {
        let mut sides = [Bits::EMPTY; 2];
        let mut kinds = [Bits::EMPTY; KINDS];
        for (c, sets) in pieces.iter().enumerate() {
            for (k, set) in sets.iter().enumerate() {
                sides[c] = sides[c].union(*set);
                kinds[k] = kinds[k].union(*set);
            }
        }
        Position {
            sides,
            kinds,
            side,
            king_run: [KingRun::default(); 2],
            hand: [0; 2],
            last: [[crate::board::NONE; 2]; 2],
            castle_moves: [0; 2],
        }
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The cells holding pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: Kind) -> Bits {
        self.sides[color as usize].intersect(self.kinds[kind as usize])
    }

    /// Whether a piece of `kind` stands on the board, on either side.
    #[inline(always)]
    pub(crate) fn has_kind(&self, kind: Kind) -> bool {
        !self.kinds[kind as usize].is_empty()
    }

    /// All cells holding pieces of `color`.
    #[inline(always)]
    pub fn side_pieces(&self, color: Color) -> Bits {
        self.sides[color as usize]
    }

    /// All occupied cells.
    #[inline(always)]
    pub fn occupied(&self) -> Bits {
        self.sides[0].union(self.sides[1])
    }

    /// Puts a piece of `color` and `kind` on the empty `cell`.
    #[inline(always)]
    pub(crate) fn put(&mut self, color: Color, kind: Kind, cell: usize) {
        self.sides[color as usize].insert(cell);
        self.kinds[kind as usize].insert(cell);
    }

    /// Takes the piece of `color` and `kind` off `cell`.
    #[inline(always)]
    pub(crate) fn take(&mut self, color: Color, kind: Kind, cell: usize) {
        self.sides[color as usize].remove(cell);
        self.kinds[kind as usize].remove(cell);
    }

    /// Takes every piece of `color` on `cells` off the board.
    #[inline(always)]
    pub(crate) fn take_all(&mut self, color: Color, cells: Bits) {
        let gone = self.sides[color as usize].intersect(cells);
        self.sides[color as usize] = self.sides[color as usize].minus(gone);
        for set in &mut self.kinds {
            *set = set.minus(gone);
        }
    }

    /// The piece on `cell`, if any.
    pub fn piece_at(&self, cell: usize) -> Option<(Color, Kind)> {
        for c in Color::BOTH {
            for k in Kind::ALL {
                if self.pieces(c, k).contains(cell) {
                    return Some((c, k));
                }
            }
        }
        None
    }

    /// The Frisian king-run state of a side.
    pub fn king_run(&self, color: Color) -> KingRun {
        self.king_run[color as usize]
    }

    /// The stones `color` still holds in hand (drop games).
    #[inline(always)]
    pub fn hand(&self, color: Color) -> u8 {
        self.hand[color as usize]
    }

    /// The castle moves `color` has made (Camelot).
    #[inline(always)]
    pub fn castle_moves(&self, color: Color) -> u8 {
        self.castle_moves[color as usize]
    }

    /// The last move of `color` (from, to), where the no-return rule keeps it.
    pub fn last_move(&self, color: Color) -> Option<(usize, usize)> {
        let [from, to] = self.last[color as usize];
        (from != u8::MAX).then_some((from as usize, to as usize))
    }

    /// Number of pieces of each kind for a side.
    pub fn count(&self, color: Color, kind: Kind) -> u32 {
        self.pieces(color, kind).len()
    }

    /// The same placement with the other side to move.
    pub fn with_side(&self, side: Color) -> Position {
        let mut p = *self;
        p.side = side;
        p
    }
}
