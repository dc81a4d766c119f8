//! Moves.
//!
//! A move is identified by its start, its end, the set of pieces it captures and what the
//! moving piece becomes (PDN 3.0): two capture routes with the same identity are one
//! move. The route itself is not part of the move; the search keeps one canonical route per
//! move for notation, and reads move text against every route as it finds them
//! ([`names_route`]).

use crate::bits::Bits;
use crate::board::{Board, Dir};
use crate::position::Kind;

/// A legal move (or a candidate for one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    /// The kind of the moving piece before the move.
    pub piece: Kind,
    /// The kind of the moving piece after the move (a man that is crowned becomes a king).
    pub becomes: Kind,
    /// The cells of the captured pieces.
    pub captured: Bits,
}

impl Move {
    /// A pass (Hageby: the side to move has no other legal move). Its start and end are no
    /// cell.
    pub const PASS: Move = Move {
        from: u8::MAX,
        to: u8::MAX,
        piece: Kind::Man,
        becomes: Kind::Man,
        captured: Bits::EMPTY,
    };

    /// Whether this is a pass.
    #[inline(always)]
    pub fn is_pass(&self) -> bool {
        self.from == u8::MAX
    }

    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Whether this is an opening removal (Konane): the side to move takes its own piece on
    /// `from` (= `to`) off the board; `captured` holds that cell.
    #[inline(always)]
    pub fn is_removal(&self) -> bool {
        self.from == self.to && self.captured.contains(self.from as usize)
    }

    /// Whether this is a drop (drop games): a stone from the hand of the side to move placed
    /// on the empty cell `to` (= `from`); nothing is captured.
    #[inline(always)]
    pub fn is_drop(&self) -> bool {
        self.from == self.to && self.captured.is_empty() && self.from != u8::MAX
    }

    /// Whether the moving piece is crowned by this move.
    pub fn is_promotion(&self) -> bool {
        self.becomes == Kind::King && self.piece != Kind::King
    }

    /// Same start, end, captured set and resulting kind.
    #[inline(always)]
    pub fn same_identity(&self, other: &Move) -> bool {
        self.identity() == other.identity()
    }

    /// What identifies the move ([`Move::same_identity`]), as a key for a hash table.
    #[inline(always)]
    pub(crate) fn identity(&self) -> Identity {
        Identity {
            from: self.from,
            to: self.to,
            becomes: self.becomes,
            captured: self.captured,
        }
    }
}

/// A move's start, end, resulting kind and captured set: two moves with the same identity are
/// one move ([`Move::identity`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Identity {
    from: u8,
    to: u8,
    becomes: Kind,
    captured: Bits,
}

/// One jump of a capture route.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    pub dir: Dir,
    /// The cell of the captured piece.
    pub over: u8,
    /// Where the piece landed.
    pub to: u8,
}

/// A capture route: the start cell and the jumps in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Route {
    pub from: u8,
    pub jumps: Vec<Jump>,
}

/// The PDN squares of a capture route (PDN 3.0, capture disambiguation) into `out` (cleared
/// first): the start, then for every jump but the last the square where the piece turns or,
/// going straight on, the square right behind the captured piece, then the end.
pub fn pdn_squares(board: &Board, from: usize, jumps: &[Jump], out: &mut Vec<usize>) {
    out.clear();
    pdn_squares_onto(board, from, jumps, out);
}

/// [`pdn_squares`], appended to what `out` holds.
pub fn pdn_squares_onto(board: &Board, from: usize, jumps: &[Jump], out: &mut Vec<usize>) {
    out.push(from);
    for (i, j) in jumps.iter().enumerate() {
        let turns_or_ends = jumps.get(i + 1).is_none_or(|n| n.dir != j.dir);
        if turns_or_ends {
            out.push(j.to as usize);
        } else {
            out.push(board.next(j.over as usize, j.dir) as usize);
        }
    }
}

/// Whether the squares of a move text (`text[0]` the start) are a complete long form of a
/// capture route: the start, then every square where the piece changes direction, then the
/// end, in order. On a straight run (two jumps in a row in the same direction) the text may
/// also name the square where the piece lands between the two captured pieces: any square
/// strictly between them, since the piece could land on any of them. A square the piece only
/// passes over is never a turning square.
///
/// Read as a small automaton over the text, route jump by route jump, so it never backtracks
/// (texts longer than 127 squares name no route).
pub fn names_route(board: &Board, text: &[usize], from: usize, jumps: &[Jump]) -> bool {
    match_route::<false>(board, text, from, jumps)
}

/// Whether a move text is an *incomplete* long form of a capture route: its start and end are
/// the route's, and its other squares are squares [`names_route`] would accept, in order, but
/// some turning squares may be left out (`15x33x31` for a route that turns twice). Records
/// are read this way when nothing else fits; the service's own input never is.
pub fn names_route_partly(board: &Board, text: &[usize], from: usize, jumps: &[Jump]) -> bool {
    match_route::<true>(board, text, from, jumps)
}

fn match_route<const PARTIAL: bool>(
    board: &Board,
    text: &[usize],
    from: usize,
    jumps: &[Jump],
) -> bool {
    let n = text.len();
    if !(2..128).contains(&n) || text[0] != from || jumps.is_empty() {
        return false;
    }
    // Bit i: the text up to (not including) square i is read.
    let mut states: u128 = 1 << 1;
    let advance = |states: u128, square: usize| -> u128 {
        let mut next = 0u128;
        let mut s = states;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            if i < n && text[i] == square {
                next |= 1 << (i + 1);
            }
        }
        next
    };
    for w in jumps.windows(2) {
        let (prev, j) = (w[0], w[1]);
        if j.dir == prev.dir {
            // Straight on: the text may name where it landed between the two pieces.
            let mut named = 0u128;
            for &c in board.ray(prev.over as usize, j.dir) {
                if c == j.over {
                    break;
                }
                named |= advance(states, c as usize);
            }
            states |= named;
        } else if PARTIAL {
            states |= advance(states, prev.to as usize);
        } else {
            states = advance(states, prev.to as usize);
        }
        if states == 0 {
            return false;
        }
    }
    let last = jumps[jumps.len() - 1];
    advance(states, last.to as usize) & (1 << n) != 0
}
