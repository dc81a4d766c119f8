//! Why a move text names no legal move: the first rule it breaks, as a [`Violation`] code
//! with a sentence for people ([`Explanation`]).
//!
//! The analysis runs only when a move text matches no legal move
//! ([`MoveError::Illegal`](crate::notation::movetext::MoveError::Illegal) carries its
//! result), and it asks the rules in the order a referee would: is there a move at all, is
//! the text a placement where placements are due (drops, opening removals), is there a piece
//! of the side to move on its first square; then the capture rules, by searching the
//! captures again without precedence (a text naming one of them lost on precedence); then
//! the non-capturing moves with the ruleset's limits lifted (the Frisian king-move limit, the
//! no-return rule, the frozen far rank); and last the geometry of the text, leg by leg
//! (directions, range, what stands in the way, what may be captured). A capture of the right
//! shape that is none of the searched ones stopped too early when a capture from the same
//! square takes more, or landed where it may not when one takes the same pieces. Everything
//! it reads is the ruleset's data: no variant is named.
//!
//! Each search or generation it makes is charged to the request's budget like the
//! generation it is.

use crate::bits::Bits;
use crate::board::{Dir, DirSet, NONE};
use crate::budget::{Budget, GenError};
use crate::gen::{self, DEFAULT_CAPTURE_LIMIT};
use crate::moves::Move;
use crate::notation::squares::{clip, parse_squares};
use crate::position::{Color, Kind, Position};
use crate::rules::{MidCapturePromotion, Precedence, Range, Reach, Removal, Rules};
use crate::variant::{Found, Variant};

macro_rules! violations {
    ($( $(#[doc = $doc:literal])* $name:ident = $code:literal, )*) => {
        /// The first rule an illegal move breaks: a stable code (its [`Violation::code`], in
        /// kebab-case), each documented by what it means ([`Violation::meaning`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Violation {
            $( $(#[doc = $doc])* $name, )*
        }

        impl Violation {
            /// Every code, in the order of the documentation.
            pub const ALL: &'static [Violation] = &[$(Violation::$name),*];

            /// The code, as it is written on the wire (`capture-compulsory`).
            pub fn code(self) -> &'static str {
                match self {
                    $( Violation::$name => $code, )*
                }
            }

            /// What the code means (its documentation).
            pub fn meaning(self) -> &'static str {
                match self {
                    $( Violation::$name => concat!($($doc),*).trim_ascii_start(), )*
                }
            }
        }
    };
}

violations! {
    /// The move names a square the board does not have.
    NoSuchSquare = "no-such-square",
    /// The side to move has no legal move: the game is over.
    GameOver = "game-over",
    /// There is no piece on the move's first square.
    NoPiece = "no-piece",
    /// The piece on the move's first square belongs to the side that is not to move.
    NotOwnPiece = "not-a-piece-of-the-side-to-move",
    /// The square the piece would go to (or land on during a capture) is occupied.
    DestinationOccupied = "destination-occupied",
    /// The piece does not move or capture in that direction: a man moving backwards where
    /// men may not, or sideways on a diagonal board.
    WrongDirection = "wrong-direction",
    /// The squares are not on one line of the board (on a diagonal board: not on one
    /// diagonal, nor on the orthogonal line of same-coloured squares).
    NotOnALine = "not-on-a-line",
    /// The move goes further than the piece reaches: a man's step of more than one square, a
    /// short king's slide, a capture of a piece that is not next to a short-range piece, or a
    /// landing beyond the square right behind the captured piece where the piece must land
    /// there.
    TooFar = "too-far",
    /// A piece stands in the way: on a sliding piece's path, or a capture that would jump an
    /// own piece or two pieces in a row.
    PathBlocked = "path-blocked",
    /// The piece makes no move of this kind (a piece that never makes a non-capturing move, a
    /// piece that never captures, a move from a square to itself, a line move that is not one).
    NotAMoveOfThePiece = "not-a-move-of-the-piece",
    /// A leg of the capture passes over no piece to capture.
    NothingToCapture = "nothing-to-capture",
    /// The capturing piece may not capture kings (Italian: a man may not capture a king).
    KingNotCapturable = "king-not-capturable",
    /// A capture is available, and capturing is compulsory: a non-capturing move is not legal.
    CaptureCompulsory = "capture-compulsory",
    /// The capture is a capture of the position, but another capture takes precedence under
    /// the variant's precedence rules; the problem's `precedence` names the rule that decides
    /// (`most-pieces`, `highest-value`, `capture-with-king`, `most-kings`, `kings-earliest`).
    CapturePrecedence = "capture-precedence",
    /// The capture stops while it must go on: the piece can capture further from where the
    /// text ends.
    CaptureIncomplete = "capture-incomplete",
    /// A flying piece lands where the rules do not let it: where its capture cannot go on
    /// while another landing square lets it, or (the killer rule) not right behind the last
    /// king it captured.
    CaptureLanding = "capture-landing",
    /// The start and end are those of a legal capture, but the squares between are not a
    /// route it can take (a long form gives every square where the piece turns, in order).
    CaptureRoute = "capture-route",
    /// The capture jumps a piece it has already captured in this move, or passes over it:
    /// captured pieces stay on the board until the move ends.
    PieceCapturedTwice = "piece-captured-twice",
    /// The capture turns back the way it came (Turkish: no 180° turn within a capture).
    CaptureReversal = "capture-reversal",
    /// The capture changes direction where all its jumps must go in one straight line
    /// (Konane).
    CaptureNotStraight = "capture-not-straight",
    /// The move captures more pieces than the piece may capture in one move.
    TooManyCaptures = "too-many-captures",
    /// A man crowned in the middle of a capture ends its move there, so the capture cannot go
    /// on.
    PromotionEndsCapture = "promotion-ends-capture",
    /// The same king may not make more non-capturing moves in a row while its side still has
    /// men (Frisian: three).
    KingMoveLimit = "king-move-limit",
    /// The piece may not go straight back to where it came from on its side's previous move
    /// (the no-return rule).
    NoReturn = "no-return",
    /// A man on its far rank makes no more non-capturing moves; it only captures.
    FarRankCapturesOnly = "far-rank-captures-only",
    /// The side to move still holds stones in hand: its only moves are drops (`*c2`).
    DropRequired = "drop-required",
    /// A drop, but the side to move holds no stone in hand.
    NoStoneInHand = "no-stone-in-hand",
    /// The game's first drop may not go on the goal point.
    FirstDropOnGoal = "first-drop-on-goal",
    /// An opening ply: the only moves are removals of one of the mover's own pieces (`xd5`).
    RemovalRequired = "removal-required",
    /// A removal (`xd5`), but the opening removals are over (or the game has none).
    NoRemovalNow = "no-removal-now",
    /// The opening removal may not take this piece (it is not on a square the opening step
    /// allows).
    RemovalSquare = "removal-square",
    /// A pass, while the side to move has a move (a side passes only when it is blocked).
    PassNotAllowed = "pass-not-allowed",
    /// The analysis names no more precise rule: the text is not a legal move of the position.
    NotALegalMove = "not-a-legal-move",
}

/// The precedence rules as codes (`most-pieces`...), with their meaning, in the order of
/// [`precedence_code`].
pub const PRECEDENCE_CODES: [(&str, &str); 5] = [
    (
        "most-pieces",
        "the capture taking the most pieces must be played",
    ),
    (
        "highest-value",
        "the capture taking the highest value must be played (kings are worth more than men)",
    ),
    ("capture-with-king", "a capture with a king must be played"),
    (
        "most-kings",
        "the capture taking the most kings must be played",
    ),
    (
        "kings-earliest",
        "the capture meeting kings earliest in the sequence must be played",
    ),
];

/// The code of a precedence rule (one of [`PRECEDENCE_CODES`]).
pub fn precedence_code(p: &Precedence) -> &'static str {
    PRECEDENCE_CODES[match p {
        Precedence::Count => 0,
        Precedence::Value { .. } => 1,
        Precedence::ByKing => 2,
        Precedence::KingsCaptured => 3,
        Precedence::KingsEarly => 4,
    }]
    .0
}

/// Why a move is illegal: the first rule it breaks, the precedence rule when that is what
/// decides, and a sentence naming the squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub violation: Violation,
    /// For [`Violation::CapturePrecedence`]: the precedence rule the move loses on.
    pub precedence: Option<Precedence>,
    pub reason: String,
}

type Verdict = (Violation, String);

/// The most work units the analysis of one illegal move may use (its searches repeat the
/// position's capture search once; real positions need a few thousand units). Beyond it the
/// move gets the verdicts that need no search, or [`Violation::NotALegalMove`].
pub const EXPLAIN_UNITS: u64 = 1_000_000;

impl Variant {
    /// Why `text` names none of the legal moves `found` of `pos` (`partial_route`: it is a long
    /// form whose start and end are a legal move's but whose squares are none of its routes).
    /// The extra searches are charged to `budget`.
    pub(crate) fn explain(
        &self,
        pos: &Position,
        text: &str,
        found: &[Found],
        partial_route: bool,
        budget: &Budget,
    ) -> Result<Explanation, GenError> {
        // The analysis gets a bound of its own: a position whose capture search is too rich
        // for it still gets the verdicts that need no search.
        budget.charge(0)?;
        let local = Budget::new(EXPLAIN_UNITS.min(budget.left()));
        let mut precedence = None;
        let verdict = self.violation_of(
            pos,
            text,
            found,
            partial_route,
            Some(&local),
            &mut precedence,
        );
        budget.charge(local.used())?;
        let (violation, reason) = match verdict {
            Ok(v) => v,
            Err(_) => {
                precedence = None;
                self.violation_of(pos, text, found, partial_route, None, &mut precedence)?
            }
        };
        Ok(Explanation {
            violation,
            precedence,
            reason,
        })
    }

    /// The verdict, the precedence rule set when that decides; `budget` pays the searches,
    /// and without one none is made (only the verdicts that need no capture search).
    fn violation_of(
        &self,
        pos: &Position,
        text: &str,
        found: &[Found],
        partial_route: bool,
        budget: Option<&Budget>,
        precedence: &mut Option<Precedence>,
    ) -> Result<Verdict, GenError> {
        let side = pos.side();
        let t = clip(text.trim());
        if found.is_empty() {
            return Ok((
                Violation::GameOver,
                format!("{} has no legal move (the game is over)", side.name()),
            ));
        }
        let trimmed = text.trim().trim_end_matches(['!', '?', '+', '#']);
        if trimmed.eq_ignore_ascii_case("pass") {
            return Ok((
                Violation::PassNotAllowed,
                format!(
                    "{} has a move, so it may not pass (a side passes only when it is blocked)",
                    side.name()
                ),
            ));
        }
        let squares = match self.file_short_form(text) {
            Some((file, to)) => {
                let on_file: Vec<usize> = pos
                    .side_pieces(side)
                    .iter()
                    .filter(|&c| self.board().xy(c).0 == file)
                    .collect();
                match on_file[..] {
                    [] => {
                        return Ok((
                            Violation::NoPiece,
                            format!(
                                "{t}: {} has no piece on the {}-file",
                                side.name(),
                                (b'a' + file) as char
                            ),
                        ))
                    }
                    [from] => vec![from, to],
                    _ => {
                        return Ok((
                            Violation::NotALegalMove,
                            format!(
                                "{t}: no piece of the {}-file has a legal move to {}",
                                (b'a' + file) as char,
                                self.square_str(to)
                            ),
                        ))
                    }
                }
            }
            None => match parse_squares(self, text) {
                Ok(s) => s,
                Err(_) => {
                    return Ok((
                        Violation::NotALegalMove,
                        format!("{t} does not match any legal move"),
                    ))
                }
            },
        };
        let lead = trimmed.trim_start();
        let single = squares.len() == 2 && squares[0] == squares[1];
        let drop = single && lead.starts_with(['*', '@']);
        let removal = single && lead.starts_with(['x', 'X']);
        if let Some(v) = self.placement(pos, &t, &squares, drop, removal) {
            return Ok(v);
        }
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let name = |c: usize| self.square_str(c).to_string();
        let kind = match pos.piece_at(from) {
            None => {
                return Ok((
                    Violation::NoPiece,
                    format!("{t}: there is no piece on {}", name(from)),
                ))
            }
            Some((c, _)) if c != side => {
                return Ok((
                    Violation::NotOwnPiece,
                    format!(
                        "{t}: the piece on {} is {}'s, and {} is to move",
                        name(from),
                        c.name(),
                        side.name()
                    ),
                ))
            }
            Some((_, k)) => k,
        };
        if self.leaps {
            return Ok(self.leap_verdict(pos, &t, &squares, kind, found, partial_route));
        }
        let rules = self.rules();
        let short = squares.len() == 2;
        let names = |f: &Found| {
            f.named || (short && f.mv.from() as usize == from && f.mv.to() as usize == to)
        };
        // The captures with no precedence: a text naming one lost on precedence (or on the
        // no-return rule, which the search does not apply).
        let mut free = rules.clone();
        free.precedence.clear();
        let complete = match budget {
            Some(b) => self.capture_search(pos, &free, &squares, b)?,
            None => Vec::new(),
        };
        if let Some(f) = complete.iter().find(|f| names(f)) {
            if rules.no_return && returns(pos, &f.mv) {
                return Ok(self.no_return(&t, pos));
            }
            if let Some(p) = lost_on(rules, pos, f, found) {
                *precedence = Some(p);
                return Ok((
                    Violation::CapturePrecedence,
                    format!(
                        "{t} is a capture, but another takes precedence: {} ({})",
                        PRECEDENCE_CODES[index_of(&p)].1,
                        p.describe()
                    ),
                ));
            }
        }
        let capture = found.iter().find(|f| f.mv.is_capture());
        // The non-capturing moves with the ruleset's limits lifted.
        if short {
            let mut lifted = rules.clone();
            lifted.king_quiet_limit = 0;
            lifted.far_rank_frozen = false;
            let mut quiet = Vec::new();
            gen::steps::quiet_moves(self.board(), &lifted, self.promotion(side), pos, &mut quiet);
            if let Some(b) = budget {
                b.charge(1 + quiet.len() as u64)?;
            }
            if let Some(m) = quiet
                .iter()
                .find(|m| m.from() as usize == from && m.to() as usize == to)
            {
                if let Some(c) = capture {
                    return Ok(self.compulsory(&t, c));
                }
                let run = pos.king_run(side);
                if kind == Kind::King
                    && rules.king_quiet_limit != 0
                    && run.count >= rules.king_quiet_limit
                    && run.cell as usize == from
                    && !pos.pieces(side, Kind::Man).is_empty()
                {
                    return Ok((
                        Violation::KingMoveLimit,
                        format!(
                            "{t}: the king on {} has made {} non-capturing moves in a row, the \
                             most the same king may make while its side has men",
                            name(from),
                            run.count
                        ),
                    ));
                }
                let far = match side {
                    Color::White => self.board().height() - 1,
                    Color::Black => 0,
                };
                if rules.far_rank_frozen && kind == Kind::Man && self.board().xy(from).1 == far {
                    return Ok((
                        Violation::FarRankCapturesOnly,
                        format!(
                            "{t}: the man on {} stands on its far rank, where it only captures",
                            name(from)
                        ),
                    ));
                }
                if rules.no_return && returns(pos, m) {
                    return Ok(self.no_return(&t, pos));
                }
            }
        }
        match self.geometry(pos, &t, &squares, kind) {
            Err(v) => return Ok(v),
            Ok(Some(captured)) => {
                if complete
                    .iter()
                    .any(|f| f.mv.from() as usize == from && f.mv.captured() == captured)
                {
                    return Ok((
                        Violation::CaptureLanding,
                        format!(
                            "{t}: the piece may not land on {}: a flying piece lands where its \
                             capture can go on, if it can anywhere (the killer rule: right \
                             behind the last king it captures)",
                            name(to)
                        ),
                    ));
                }
                if complete.iter().any(|f| {
                    f.mv.from() as usize == from
                        && f.mv.captured().intersect(captured) == captured
                        && f.mv.captured() != captured
                }) {
                    return Ok((
                        Violation::CaptureIncomplete,
                        format!("{t} stops the capture on {}, but it must go on", name(to)),
                    ));
                }
            }
            Ok(None) => {
                if let Some(c) = capture {
                    return Ok(self.compulsory(&t, c));
                }
            }
        }
        if partial_route {
            return Ok((
                Violation::CaptureRoute,
                format!(
                    "{t} does not name the route of a legal move: a long form gives every \
                     square where the piece changes direction, in order"
                ),
            ));
        }
        if let Some(c) = capture {
            return Ok(self.compulsory(&t, c));
        }
        Ok((
            Violation::NotALegalMove,
            format!("{t} does not match any legal move"),
        ))
    }

    /// The verdict on a move text of a game whose pieces canter (the Camelot family, see
    /// [`crate::gen::leaps`]), read landing by landing: a step is a whole move; a leap goes
    /// over an adjacent piece onto the empty square right behind it, over an own piece (a
    /// canter) or an enemy one (a capture); a man does one or the other, a knight may canter
    /// and then capture (the charge), never the other way round; a knight whose canter lands
    /// where it can capture must capture in this move; no square is landed on twice; a move
    /// ends in the enemy castle; a piece never enters its own castle, and one standing in it
    /// must leave it now.
    fn leap_verdict(
        &self,
        pos: &Position,
        t: &str,
        squares: &[usize],
        kind: Kind,
        found: &[Found],
        partial_route: bool,
    ) -> Verdict {
        let board = self.board();
        let me = pos.side();
        let c = me as usize;
        let pr = self.rules().piece(kind);
        let own = pos.side_pieces(me);
        let enemy = pos.side_pieces(me.opponent());
        let own_castle = self.castle(me);
        let enemy_castle = self.castle(me.opponent());
        let name = |c: usize| self.square_str(c).to_string();
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let capture = found.iter().find(|f| f.mv.is_capture());
        if enemy_castle.contains(from) && !enemy_castle.contains(to) {
            return (
                Violation::NotAMoveOfThePiece,
                format!(
                    "{t}: the piece on {} stands in the enemy castle, which it never leaves",
                    name(from)
                ),
            );
        }
        if let Some(held) = own
            .intersect(own_castle)
            .iter()
            .find(|&x| x != from && !own_castle.contains(from))
        {
            return (
                Violation::NotALegalMove,
                format!(
                    "{t}: the piece on {} stands in its own castle, and must leave it this move",
                    name(held)
                ),
            );
        }
        if squares.len() == 2 && from == to {
            return (
                Violation::NotAMoveOfThePiece,
                format!("{t} does not move the piece"),
            );
        }
        // The text's landings in order: what each leap goes over, and what the move owes.
        let mut at = from;
        let mut visited = Bits::single(from);
        let mut captured = Bits::EMPTY;
        let mut cantered = false;
        let mut owed: Option<usize> = None;
        // Whether the piece, having landed on `cell` (after the landings `visited`), can
        // capture from there.
        let can_capture = |cell: usize, visited: Bits, captured: Bits| {
            pr.captures[c].iter().any(|d| {
                let [over, land] = board.jump(cell, d);
                over != NONE
                    && enemy.contains(over as usize)
                    && !captured.contains(over as usize)
                    && !visited.contains(land as usize)
                    && (!pos.occupied().contains(land as usize)
                        || captured.contains(land as usize)
                        || land as usize == from)
            })
        };
        for (i, &next) in squares[1..].iter().enumerate() {
            let last = i + 2 == squares.len();
            let Some(d) = board.direction(at, next) else {
                return not_on_a_line(t, &name(at), &name(next));
            };
            if board.next(at, d) as usize == next {
                if squares.len() > 2 {
                    return (
                        Violation::NotAMoveOfThePiece,
                        format!(
                            "{t}: {}-{} is a step, which is a whole move; a move goes on only by \
                             leaps over adjacent pieces",
                            name(at),
                            name(next)
                        ),
                    );
                }
                if pos.occupied().contains(next) {
                    return taken(t, &name(next));
                }
                if !pr.moves[c].contains(d) {
                    return wrong_direction(t, me, kind, d, pr.moves[c]);
                }
                if own_castle.contains(next) {
                    return (
                        Violation::NotAMoveOfThePiece,
                        format!("{t}: a piece never enters its own castle ({})", name(next)),
                    );
                }
                break;
            }
            let [over, land] = board.jump(at, d);
            if land as usize != next {
                return (
                    Violation::TooFar,
                    format!(
                        "{t}: a piece steps to an adjacent square, or leaps over an adjacent \
                         piece onto the square right behind it; {} is neither from {}",
                        name(next),
                        name(at)
                    ),
                );
            }
            let over = over as usize;
            if !pr.captures[c].contains(d) {
                return wrong_direction(t, me, kind, d, pr.captures[c]);
            }
            if visited.contains(next) {
                return (
                    Violation::NotAMoveOfThePiece,
                    format!(
                        "{t}: the piece lands on {} twice; a move lands on no square twice, its \
                         start included",
                        name(next)
                    ),
                );
            }
            if over == from || !pos.occupied().contains(over) {
                return (
                    Violation::NothingToCapture,
                    format!(
                        "{t}: there is no piece on {} to leap over from {}",
                        name(over),
                        name(at)
                    ),
                );
            }
            if captured.contains(over) {
                return (
                    Violation::PieceCapturedTwice,
                    format!("{t}: the piece on {} was captured already", name(over)),
                );
            }
            if pos.occupied().contains(next) && !captured.contains(next) {
                return taken(t, &name(next));
            }
            if own.contains(over) {
                if !captured.is_empty() {
                    return (
                        Violation::NotAMoveOfThePiece,
                        format!(
                            "{t}: after a capture the piece only captures; it may not canter \
                             on over its own piece on {}",
                            name(over)
                        ),
                    );
                }
                if !pr.canter {
                    return (
                        Violation::NotAMoveOfThePiece,
                        format!("{t}: a {} does not canter", kind.name()),
                    );
                }
                if own_castle.contains(next) {
                    return (
                        Violation::NotAMoveOfThePiece,
                        format!("{t}: a piece never enters its own castle ({})", name(next)),
                    );
                }
                cantered = true;
                visited = visited.union(Bits::single(next));
                if owed.is_none() && pr.charge && can_capture(next, visited, captured) {
                    owed = Some(next);
                }
            } else {
                if cantered && !pr.charge {
                    return (
                        Violation::NotAMoveOfThePiece,
                        format!(
                            "{t}: a {} either canters or captures; only a knight canters and \
                             then captures in one move (the knight's charge)",
                            kind.name()
                        ),
                    );
                }
                captured = captured.union(Bits::single(over));
                visited = visited.union(Bits::single(next));
            }
            if enemy_castle.contains(next) && !last {
                return (
                    Violation::NotAMoveOfThePiece,
                    format!(
                        "{t}: the piece lands in the enemy castle on {}, where its move ends",
                        name(next)
                    ),
                );
            }
            at = next;
        }
        if !captured.is_empty() && !enemy_castle.contains(to) && can_capture(to, visited, captured)
        {
            return (
                Violation::CaptureIncomplete,
                format!("{t} stops the capture on {}, but it must go on", name(to)),
            );
        }
        if captured.is_empty() {
            if let Some(x) = owed {
                return (
                    Violation::CaptureCompulsory,
                    format!(
                        "{t}: the knight's canter lands on {}, where it can capture, so the \
                         move must capture (there, or after more canters)",
                        name(x)
                    ),
                );
            }
            if let Some(f) = capture {
                return self.compulsory(t, f);
            }
        }
        if partial_route {
            return (
                Violation::CaptureRoute,
                format!(
                    "{t} does not name the route of a legal move: a long form gives every \
                     landing, in order"
                ),
            );
        }
        (
            Violation::NotALegalMove,
            format!("{t} does not match any legal move"),
        )
    }

    /// The verdict on a text while placements are due, or on a placement text when they are
    /// not; `None` for a move text at any other time.
    fn placement(
        &self,
        pos: &Position,
        t: &str,
        squares: &[usize],
        drop: bool,
        removal: bool,
    ) -> Option<Verdict> {
        let side = pos.side();
        let cell = squares[0];
        let name = self.square_str(cell);
        if let Some((step, _)) = self.opening_removal_cells(pos) {
            return Some(if !removal {
                (
                    Violation::RemovalRequired,
                    format!(
                        "{t}: in this opening ply {} {} (written x and the square)",
                        side.name(),
                        step.describe()
                    ),
                )
            } else {
                match pos.piece_at(cell) {
                    None => (
                        Violation::NoPiece,
                        format!("{t}: there is no piece on {name}"),
                    ),
                    Some((c, _)) if c != side => (
                        Violation::NotOwnPiece,
                        format!("{t}: the piece on {name} is {}'s", c.name()),
                    ),
                    Some(_) => (
                        Violation::RemovalSquare,
                        format!(
                            "{t}: in this opening ply {} {}",
                            side.name(),
                            step.describe()
                        ),
                    ),
                }
            });
        }
        if self.drops_now(pos) {
            return Some(if !drop {
                (
                    Violation::DropRequired,
                    format!(
                        "{t}: {} still holds {} stone(s) in hand and must drop one (*square)",
                        side.name(),
                        pos.hand(side)
                    ),
                )
            } else if pos.occupied().contains(cell) {
                (
                    Violation::DestinationOccupied,
                    format!("{t}: {name} is occupied"),
                )
            } else if self.barred_drops(pos).contains(cell) {
                (
                    Violation::FirstDropOnGoal,
                    format!("{t}: the game's first drop may not go on the goal point"),
                )
            } else {
                (
                    Violation::NotALegalMove,
                    format!("{t} does not match any legal move"),
                )
            });
        }
        if drop {
            return Some((
                Violation::NoStoneInHand,
                format!("{t}: {} holds no stone in hand", side.name()),
            ));
        }
        if removal {
            return Some((
                Violation::NoRemovalNow,
                format!("{t}: a removal is an opening move only, and the opening is over"),
            ));
        }
        None
    }

    fn compulsory(&self, t: &str, capture: &Found) -> Verdict {
        (
            Violation::CaptureCompulsory,
            format!(
                "{t} does not match any legal move; a capture is compulsory (the piece on {} \
                 can capture)",
                self.square_str(capture.mv.from() as usize)
            ),
        )
    }

    fn no_return(&self, t: &str, pos: &Position) -> Verdict {
        let (from, to) = pos.last_move(pos.side()).unwrap_or((0, 0));
        (
            Violation::NoReturn,
            format!(
                "{t}: the piece that went from {} to {} on its side's previous move may not go \
                 straight back",
                self.square_str(from),
                self.square_str(to)
            ),
        )
    }

    /// The capture search of `pos` under `rules` (a relaxed copy of the variant's), with
    /// whether `squares` names each move's routes; charged to `budget` like a generation.
    fn capture_search(
        &self,
        pos: &Position,
        rules: &Rules,
        squares: &[usize],
        budget: &Budget,
    ) -> Result<Vec<Found>, GenError> {
        let mut out = Vec::new();
        let mut rs = gen::captures::RouteState::default();
        let steps = {
            // Not a hot path: the storage width serves every board.
            let mut s = gen::captures::Search::<crate::bits::Bits, true>::new(
                self.board(),
                rules,
                self.promotion(pos.side()),
                pos,
                DEFAULT_CAPTURE_LIMIT,
                budget,
                &mut out,
            )
            .with_notation(
                gen::captures::Notation {
                    numbers: self.numbers(),
                    text: Some(squares),
                    partly: false,
                },
                &mut rs,
            );
            let r = s.run(pos);
            let steps = s.steps;
            r.inspect_err(|_| {
                let _ = budget.charge(steps as u64);
            })?;
            steps
        };
        budget.charge(1 + steps as u64 + out.len() as u64)?;
        Ok(out
            .into_iter()
            .zip(rs.routes)
            .zip(rs.named)
            .map(|((mv, route), named)| Found {
                mv,
                route: Some(route),
                named,
            })
            .collect())
    }

    /// The text read as a move of the piece `kind` on its first square: `Ok(None)` when it has
    /// the shape of a non-capturing move of the piece, `Ok(Some(captured))` when it has the
    /// shape of a capture (taking `captured`), otherwise the first rule its shape breaks.
    fn geometry(
        &self,
        pos: &Position,
        t: &str,
        squares: &[usize],
        kind: Kind,
    ) -> Result<Option<Bits>, Verdict> {
        let board = self.board();
        let rules = self.rules();
        let me = pos.side();
        let c = me as usize;
        let enemy = pos.side_pieces(me.opponent());
        let name = |c: usize| self.square_str(c).to_string();
        let (from, to) = (squares[0], squares[1]);
        if squares.len() == 2 {
            if from == to {
                return Err((
                    Violation::NotAMoveOfThePiece,
                    format!("{t} does not move the piece"),
                ));
            }
            let Some(d) = board.direction(from, to) else {
                if board.step_only_from(from).any(|s| s == to) {
                    return if pos.occupied().contains(to) {
                        Err(taken(t, &name(to)))
                    } else {
                        Ok(None)
                    };
                }
                return Err(not_on_a_line(t, &name(from), &name(to)));
            };
            let ray = board.ray(from, d);
            let at = ray.iter().position(|&x| x as usize == to).unwrap_or(0);
            let between = &ray[..at];
            let first = between
                .iter()
                .map(|&x| x as usize)
                .find(|&x| pos.occupied().contains(x));
            if !first.is_some_and(|x| enemy.contains(x)) {
                // No enemy piece first on the way: the shape of a non-capturing move.
                let pr = rules.piece(kind);
                if pos.occupied().contains(to) {
                    return Err(taken(t, &name(to)));
                }
                if pr.moves[c].is_empty() {
                    return Err((
                        Violation::NotAMoveOfThePiece,
                        format!("{t}: a {} makes no non-capturing move", kind.name()),
                    ));
                }
                if !pr.moves[c].contains(d) {
                    return Err(wrong_direction(t, me, kind, d, pr.moves[c]));
                }
                if let Some(x) = first {
                    return Err((
                        Violation::PathBlocked,
                        format!("{t}: the piece on {} stands in the way", name(x)),
                    ));
                }
                match pr.range {
                    Range::Step if !between.is_empty() => {
                        return Err((
                            Violation::TooFar,
                            format!("{t}: a {} steps one square at a time", kind.name()),
                        ))
                    }
                    Range::Line if !between.is_empty() => {
                        return Err((
                            Violation::NotAMoveOfThePiece,
                            format!(
                                "{t}: a line move goes from the tail of an unbroken line of own \
                                 men to the square in front of its head"
                            ),
                        ))
                    }
                    _ => return Ok(None),
                }
            }
        }
        // The shape of a capture, leg by leg.
        let mut occupied = pos.occupied();
        occupied.remove(from);
        let immediate = rules.removal == Removal::Immediate;
        let promo = self.promotion(me);
        let mut captured = Bits::EMPTY;
        let mut k = kind;
        let mut last: Option<Dir> = None;
        let mut cur = from;
        let legs = squares.len() - 1;
        for (i, &next) in squares[1..].iter().enumerate() {
            let pr = *rules.piece(k);
            if pr.captures[c].is_empty() {
                return Err((
                    Violation::NotAMoveOfThePiece,
                    format!("{t}: a {} does not capture", k.name()),
                ));
            }
            let Some(d) = board.direction(cur, next) else {
                return Err(not_on_a_line(t, &name(cur), &name(next)));
            };
            let first_dirs = if last.is_none() && rules.first_jump_along_moves {
                pr.captures[c].0 & pr.moves[c].0
            } else {
                pr.captures[c].0
            };
            if first_dirs & (1 << d as u8) == 0 {
                return Err(wrong_direction(t, me, k, d, DirSet(first_dirs)));
            }
            if let Some(l) = last {
                if rules.no_reversal && d == l.opposite() {
                    return Err((
                        Violation::CaptureReversal,
                        format!(
                            "{t}: the capture turns back on {} the way it came",
                            name(cur)
                        ),
                    ));
                }
                if rules.straight_captures && d != l {
                    return Err((
                        Violation::CaptureNotStraight,
                        format!(
                            "{t}: the capture turns on {}; its jumps go in one straight line",
                            name(cur)
                        ),
                    ));
                }
            }
            let ray = board.ray(cur, d);
            let at = ray.iter().position(|&x| x as usize == next).unwrap_or(0);
            // Empty squares since the last captured piece of this leg (or its start), and
            // whether the leg has captured.
            let mut gap = 0usize;
            let mut victims = 0usize;
            let mut pending = false;
            for &x in &ray[..at] {
                let x = x as usize;
                let stands = occupied.contains(x) && !(immediate && captured.contains(x));
                if !stands {
                    gap += 1;
                    pending = false;
                    continue;
                }
                if captured.contains(x) {
                    return Err((
                        Violation::PieceCapturedTwice,
                        format!(
                            "{t}: the piece on {} is already captured in this move; captured \
                             pieces stay on the board until the move ends",
                            name(x)
                        ),
                    ));
                }
                if !enemy.contains(x) {
                    return Err((
                        Violation::PathBlocked,
                        format!("{t}: the own piece on {} stands in the way", name(x)),
                    ));
                }
                if pending {
                    return Err((
                        Violation::PathBlocked,
                        format!(
                            "{t}: the pieces on {} and the square before it stand in a row and \
                             cannot be jumped together",
                            name(x)
                        ),
                    ));
                }
                let short = pr.reach == Reach::Short;
                if short && gap > usize::from(victims > 0) {
                    return Err((
                        Violation::TooFar,
                        format!("{t}: a {} captures only a piece right next to it", k.name()),
                    ));
                }
                if !pr.captures_kings && pos.pieces(me.opponent(), Kind::King).contains(x) {
                    return Err((
                        Violation::KingNotCapturable,
                        format!(
                            "{t}: a {} may not capture the king on {}",
                            k.name(),
                            name(x)
                        ),
                    ));
                }
                captured.insert(x);
                if pr.max_jumps != 0 && captured.len() > u32::from(pr.max_jumps) {
                    return Err((
                        Violation::TooManyCaptures,
                        format!(
                            "{t}: a {} captures at most {} piece(s) in one move",
                            k.name(),
                            pr.max_jumps
                        ),
                    ));
                }
                victims += 1;
                gap = 0;
                pending = true;
            }
            if occupied.contains(next) && !(immediate && captured.contains(next)) {
                return Err(taken(t, &name(next)));
            }
            if victims == 0 {
                return Err((
                    Violation::NothingToCapture,
                    format!(
                        "{t}: there is no piece to capture between {} and {}",
                        name(cur),
                        name(next)
                    ),
                ));
            }
            let behind = matches!(
                pr.reach,
                Reach::Short | Reach::Flying(crate::rules::Landing::Behind)
            );
            if behind && gap > 0 {
                return Err((
                    Violation::TooFar,
                    format!(
                        "{t}: a {} lands on the square right behind the piece it captures",
                        k.name()
                    ),
                ));
            }
            if k == Kind::Man && promo.contains(next) && i + 1 < legs {
                match rules.mid_capture_promotion {
                    MidCapturePromotion::End => {
                        return Err((
                            Violation::PromotionEndsCapture,
                            format!(
                                "{t}: the man is crowned on {} and its move ends there",
                                name(next)
                            ),
                        ))
                    }
                    MidCapturePromotion::KingContinue => k = Kind::King,
                    MidCapturePromotion::Pass => {}
                }
            } else if k != Kind::King {
                k = pr.after_capture;
            }
            last = Some(d);
            cur = next;
        }
        Ok(Some(captured))
    }
}

fn taken(t: &str, square: &str) -> Verdict {
    (
        Violation::DestinationOccupied,
        format!("{t}: {square} is occupied"),
    )
}

fn not_on_a_line(t: &str, a: &str, b: &str) -> Verdict {
    (
        Violation::NotOnALine,
        format!("{t}: {a} and {b} are not on one line of the board"),
    )
}

fn wrong_direction(t: &str, me: Color, kind: Kind, d: Dir, allowed: DirSet) -> Verdict {
    let may = if allowed.is_empty() {
        "in no direction".to_string()
    } else {
        allowed.describe()
    };
    (
        Violation::WrongDirection,
        format!(
            "{t}: a {} {} does not go {} here (it may: {may})",
            me.name(),
            kind.name(),
            d.name()
        ),
    )
}

/// Whether `m` takes the piece the side to move moved last back to where it came from.
fn returns(pos: &Position, m: &Move) -> bool {
    pos.last_move(pos.side())
        .is_some_and(|(from, to)| m.from() as usize == to && m.to() as usize == from)
}

fn index_of(p: &Precedence) -> usize {
    PRECEDENCE_CODES
        .iter()
        .position(|(c, _)| *c == precedence_code(p))
        .unwrap_or(0)
}

/// The first precedence rule on which the capture `f` loses to the legal captures of
/// `found` (which all share the best precedence key).
fn lost_on(rules: &Rules, pos: &Position, f: &Found, found: &[Found]) -> Option<Precedence> {
    let best = found.iter().find(|b| b.mv.is_capture())?;
    let them = pos.side().opponent();
    let kings = pos.pieces(them, Kind::King);
    let part = |x: &Found, p: &Precedence| -> u64 {
        let captured = x.mv.captured();
        match p {
            Precedence::Count => u64::from(captured.len()),
            Precedence::Value { man, king } => {
                let k = captured.intersect(kings).len();
                u64::from(captured.len() - k) * u64::from(*man) + u64::from(k) * u64::from(*king)
            }
            Precedence::ByKing => u64::from(x.mv.piece() == Kind::King),
            Precedence::KingsCaptured => u64::from(captured.intersect(kings).len()),
            Precedence::KingsEarly => x.route.as_ref().map_or(0, |r| {
                r.jumps
                    .iter()
                    .take(32)
                    .enumerate()
                    .filter(|(_, j)| kings.contains(j.over as usize))
                    .fold(0u64, |m, (i, _)| m | 1 << (31 - i))
            }),
        }
    };
    rules
        .precedence
        .iter()
        .find(|p| part(best, p) > part(f, p))
        .copied()
}
