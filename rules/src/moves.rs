//! Moves.
//!
//! A move is one of five kinds ([`MoveKind`]): a step, a capture, a drop, an opening removal
//! or a pass; [`Move`] is an enum of them behind one constructor per kind. The enum costs
//! nothing next to a packed struct with the kind in a byte of its own (callgrind, `arbiter
//! perft`, instructions: Hageby to depth 7 768,100,882 against 768,984,394; Cam to depth 4
//! 4,756,205,695 against 4,751,697,135; Dameo to depth 4 424,698,410 against 424,468,660;
//! international, russian and frisian the same to 0.001 %, their perft counting in the narrow
//! generator's own moves, [`crate::gen::bulk`]).
//!
//! A move is identified by its start, its end, the set of pieces it captures and what the
//! moving piece becomes (PDN 3.0): two capture routes with the same identity are one
//! move. The route itself is not part of the move; the search keeps one canonical route per
//! move for notation, and reads move text against every route as it finds them
//! ([`names_route`]).

use crate::bits::Bits;
use crate::board::{Board, Dir, NONE};
use crate::position::Kind;

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece goes from [`Move::from`] to [`Move::to`] and captures nothing: a step, a
    /// king's slide, a Dameo line move, a Camelot canter or castle move.
    Step,
    /// A piece goes from [`Move::from`] to [`Move::to`] and captures the pieces on
    /// [`Move::captured`] (never empty). The end may be the start: a capture can come round to
    /// where it began (Alquerque's a1xc1xa3xa1).
    Capture,
    /// A stone from the hand of the side to move is placed on the empty cell [`Move::to`]
    /// (drop games); [`Move::from`] is the same cell, nothing is captured.
    Drop,
    /// An opening removal (Konane): the side to move takes its own piece on [`Move::from`]
    /// (= [`Move::to`]) off the board; [`Move::captured`] holds that cell.
    Removal,
    /// A pass (Hageby: the side to move has no other legal move). Its start and end are no
    /// cell ([`crate::board::NONE`]), nothing is captured.
    Pass,
}

/// A legal move (or a candidate for one): its kind, start, end, captured cells and what the
/// moving piece is before and after.
///
/// Its parts are private and each kind has its own constructor ([`Move::step`],
/// [`Move::capture`], [`Move::drop`], [`Move::removal`], [`Move::PASS`]; [`Move::new`] for a
/// step or a capture alike), so a move's kind is what built it, never read from its cells,
/// and a move holds only what its kind has: a pass no cell, a drop one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(Repr);

/// A [`Move`], by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Step {
        from: u8,
        to: u8,
        piece: Kind,
        becomes: Kind,
    },
    Capture {
        from: u8,
        to: u8,
        piece: Kind,
        becomes: Kind,
        captured: Bits,
    },
    Drop {
        cell: u8,
        piece: Kind,
    },
    Removal {
        cell: u8,
        piece: Kind,
    },
    Pass,
}

impl Move {
    /// A pass ([`MoveKind::Pass`]).
    pub const PASS: Move = Move(Repr::Pass);

    /// A piece of kind `piece` going from `from` to `to` without capturing, becoming `becomes`
    /// (a man crowned on arrival becomes a king) ([`MoveKind::Step`]).
    #[inline(always)]
    pub fn step(from: usize, to: usize, piece: Kind, becomes: Kind) -> Move {
        Move(Repr::Step {
            from: from as u8,
            to: to as u8,
            piece,
            becomes,
        })
    }

    /// A piece of kind `piece` going from `from` to `to` and capturing the pieces on
    /// `captured`, becoming `becomes` ([`MoveKind::Capture`]). A capture captures: with
    /// `captured` empty this is a step, as [`Move::new`] makes it.
    #[inline(always)]
    pub fn capture(from: usize, to: usize, piece: Kind, becomes: Kind, captured: Bits) -> Move {
        debug_assert!(!captured.is_empty(), "a capture captures");
        Move::new(from, to, piece, becomes, captured)
    }

    /// A piece's move from `from` to `to`, becoming `becomes`: a capture of the pieces on
    /// `captured`, or a step when `captured` is empty (for generators that find both alike).
    #[inline(always)]
    pub fn new(from: usize, to: usize, piece: Kind, becomes: Kind, captured: Bits) -> Move {
        if captured.is_empty() {
            Move::step(from, to, piece, becomes)
        } else {
            Move(Repr::Capture {
                from: from as u8,
                to: to as u8,
                piece,
                becomes,
                captured,
            })
        }
    }

    /// A stone of kind `piece` from the hand of the side to move placed on `cell`
    /// ([`MoveKind::Drop`]).
    #[inline(always)]
    pub fn drop(cell: usize, piece: Kind) -> Move {
        Move(Repr::Drop {
            cell: cell as u8,
            piece,
        })
    }

    /// The side to move's own piece of kind `piece` on `cell` taken off the board
    /// ([`MoveKind::Removal`]).
    #[inline(always)]
    pub fn removal(cell: usize, piece: Kind) -> Move {
        Move(Repr::Removal {
            cell: cell as u8,
            piece,
        })
    }

    /// What the move does.
    #[inline(always)]
    pub fn kind(&self) -> MoveKind {
        match self.0 {
            Repr::Step { .. } => MoveKind::Step,
            Repr::Capture { .. } => MoveKind::Capture,
            Repr::Drop { .. } => MoveKind::Drop,
            Repr::Removal { .. } => MoveKind::Removal,
            Repr::Pass => MoveKind::Pass,
        }
    }

    /// The cell the moving piece starts on (a drop's and a removal's cell;
    /// [`crate::board::NONE`] for a pass).
    #[inline(always)]
    pub fn from(&self) -> u8 {
        match self.0 {
            Repr::Step { from, .. } | Repr::Capture { from, .. } => from,
            Repr::Drop { cell, .. } | Repr::Removal { cell, .. } => cell,
            Repr::Pass => NONE,
        }
    }

    /// The cell the moving piece ends on (a drop's and a removal's cell;
    /// [`crate::board::NONE`] for a pass).
    #[inline(always)]
    pub fn to(&self) -> u8 {
        match self.0 {
            Repr::Step { to, .. } | Repr::Capture { to, .. } => to,
            Repr::Drop { cell, .. } | Repr::Removal { cell, .. } => cell,
            Repr::Pass => NONE,
        }
    }

    /// The kind of the moving piece before the move (the dropped or removed piece's; a man
    /// for a pass).
    #[inline(always)]
    pub fn piece(&self) -> Kind {
        match self.0 {
            Repr::Step { piece, .. }
            | Repr::Capture { piece, .. }
            | Repr::Drop { piece, .. }
            | Repr::Removal { piece, .. } => piece,
            Repr::Pass => Kind::Man,
        }
    }

    /// The kind of the moving piece after the move (a man that is crowned becomes a king).
    #[inline(always)]
    pub fn becomes(&self) -> Kind {
        match self.0 {
            Repr::Step { becomes, .. } | Repr::Capture { becomes, .. } => becomes,
            Repr::Drop { piece, .. } | Repr::Removal { piece, .. } => piece,
            Repr::Pass => Kind::Man,
        }
    }

    /// The cells of the pieces the move takes off the board: a capture's captured pieces, a
    /// removal's own piece; empty for the other kinds.
    #[inline(always)]
    pub fn captured(&self) -> Bits {
        match self.0 {
            Repr::Capture { captured, .. } => captured,
            Repr::Removal { cell, .. } => Bits::single(cell as usize),
            _ => Bits::EMPTY,
        }
    }

    /// Whether this is a pass.
    #[inline(always)]
    pub fn is_pass(&self) -> bool {
        matches!(self.0, Repr::Pass)
    }

    /// Whether this is a capture ([`MoveKind::Capture`]; an opening removal is not one).
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        matches!(self.0, Repr::Capture { .. })
    }

    /// Whether this is an opening removal.
    #[inline(always)]
    pub fn is_removal(&self) -> bool {
        matches!(self.0, Repr::Removal { .. })
    }

    /// Whether this is a drop.
    #[inline(always)]
    pub fn is_drop(&self) -> bool {
        matches!(self.0, Repr::Drop { .. })
    }

    /// Whether the moving piece is crowned by this move.
    pub fn is_promotion(&self) -> bool {
        self.becomes() == Kind::King && self.piece() != Kind::King
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
            from: self.from(),
            to: self.to(),
            becomes: self.becomes(),
            captured: self.captured(),
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
