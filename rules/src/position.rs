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
pub const KINDS: usize = 3;

/// A kind of piece. What each kind may do is data in the variant's [`Rules`](crate::Rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Man = 0,
    King = 1,
    /// A parachutist (Parachute checkers): captures once from the enemy's back row, then
    /// becomes a man.
    Parachutist = 2,
}

impl Kind {
    pub const ALL: [Kind; KINDS] = [Kind::Man, Kind::King, Kind::Parachutist];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Man => "man",
            Kind::King => "king",
            Kind::Parachutist => "parachutist",
        }
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
}

/// A checked position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) pieces: [[Bits; KINDS]; 2],
    pub(crate) side: Color,
    pub(crate) king_run: [KingRun; 2],
    /// Stones each side still holds in hand (drop games; 0 elsewhere).
    pub(crate) hand: [u8; 2],
    /// Each side's last move, `[from, to]` ([`crate::board::NONE`]s when unknown), kept only
    /// under the no-return rule (BrainKing's Alquerque).
    pub(crate) last: [[u8; 2]; 2],
}

impl Position {
    /// `pieces` (by colour, then kind) with `side` to move and nothing else: no king runs,
    /// no stones in hand, no last moves. Unchecked: [`Variant::position`](crate::Variant::position)
    /// checks what it is given first.
    pub(crate) fn of_pieces(side: Color, pieces: [[Bits; KINDS]; 2]) -> Position {
        Position {
            pieces,
            side,
            king_run: [KingRun::default(); 2],
            hand: [0; 2],
            last: [[crate::board::NONE; 2]; 2],
        }
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The cells holding pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: Kind) -> Bits {
        self.pieces[color as usize][kind as usize]
    }

    /// All cells holding pieces of `color`.
    #[inline(always)]
    pub fn side_pieces(&self, color: Color) -> Bits {
        let p = &self.pieces[color as usize];
        p[0].union(p[1]).union(p[2])
    }

    /// All occupied cells.
    #[inline(always)]
    pub fn occupied(&self) -> Bits {
        self.side_pieces(Color::White)
            .union(self.side_pieces(Color::Black))
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
