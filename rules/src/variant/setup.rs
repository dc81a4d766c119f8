//! Positions: a raw [`Setup`] checked into a [`Position`] of the variant, and whether a game
//! may start from one.

use crate::bits::Bits;
use crate::position::{Color, Kind, KingRun, Position, Setup, KINDS};

use super::Variant;

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
    /// King runs (the R field) in a variant without a king-move limit.
    NoKingRuns,
    /// A king run whose square holds no king of its side.
    BadKingRun { color: &'static str, square: String },
    /// A king run of no move, or of more moves than the limit lets a king make.
    BadKingRunCount {
        color: &'static str,
        count: u8,
        limit: u8,
    },
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
            PositionError::NoKingRuns => write!(
                f,
                "king runs (the R field) are given, but this variant has no king-move limit"
            ),
            PositionError::BadKingRun { color, square } => write!(
                f,
                "{color}'s king run names {square}, which holds no king of {color}'s"
            ),
            PositionError::BadKingRunCount {
                color,
                count,
                limit,
            } => write!(
                f,
                "{color}'s king run counts {count} moves, but a run counts 1 to {limit} (the \
                 most non-capturing moves in a row the same king may make)"
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

impl Variant {
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
        for color in Color::BOTH {
            let Some((cell, count)) = setup.king_run[color as usize] else {
                continue;
            };
            let limit = self.rules().king_quiet_limit;
            if limit == 0 {
                return Err(PositionError::NoKingRuns);
            }
            if count == 0 || count > limit {
                return Err(PositionError::BadKingRunCount {
                    color: color.name(),
                    count,
                    limit,
                });
            }
            if !p.pieces(color, Kind::King).contains(cell) {
                return Err(PositionError::BadKingRun {
                    color: color.name(),
                    square: self.square_name(cell),
                });
            }
            // The limit binds only while the side has men: a side without men has no run
            // (as after a move: see `Variant::play`), so the position reads the same however
            // it was written.
            if !p.pieces(color, Kind::Man).is_empty() {
                p.king_run[color as usize] = KingRun {
                    cell: cell as u8,
                    count,
                };
            }
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
}
