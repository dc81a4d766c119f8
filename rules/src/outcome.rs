//! End of game and draw rules: the judge's core.
//!
//! Evaluation order (a game won on the board is won before any draw count): after each move,
//! first the variant's end rules ([`crate::ends`]: Breakthrough's first king), then whether the
//! side to move has a legal move (none: the game is won or, in anti variants, lost), then the
//! draw rules. Draws by
//! agreement, resignation and time are outside the rules.

use crate::budget::Budget;
use crate::budget::GenError;
use crate::draws::{endgame_holds, DrawCode, DrawKind, Reset, MAX_DRAW_RULES};
use crate::ends::{EndCode, EndOutcome};
use crate::material::Material;
use crate::moves::{Move, MoveKind};
use crate::notation::listing::DescribedMove;
use crate::notation::movetext::MoveError;
use crate::position::{Color, Kind, Position};
use crate::variant::Variant;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move has no legal move (no pieces, or all blocked).
    NoLegalMoves,
    /// The side *not* to move has no piece left (and none in hand): the game ended with the
    /// move that took its last piece. Only a position sent as a FEN can show it, since after
    /// that move the pieceless side is the one to move ([`Reason::NoLegalMoves`]).
    NoPieces,
    /// An end rule of the variant (decides on the position alone).
    End(EndCode),
    /// A draw rule of the variant.
    Draw(DrawCode),
    /// Adjudication ([`crate::adjudication::adjudicate`]), not a rule: the rules left the
    /// game running and the endgame tables give its final position's value under best play.
    EndgameTables {
        /// The material of the final position (`KKvK`).
        material: Material,
        /// Plies from the final position to the end of the game under best play (the winner
        /// hurrying, the loser delaying); `None` for a draw.
        plies: Option<u16>,
        /// The move limit, when the game was stopped there.
        move_limit: Option<usize>,
        /// The counted draw rule that turns a game-theoretic win into a draw: the tables'
        /// value under the rules, with the game's counts, is a draw where best play without
        /// the count would win (a "cursed win" for the winner, a "blessed loss" for the
        /// loser).
        drawn_by: Option<DrawCode>,
    },
    /// Adjudication, not a rule: the game was still running at the move limit, this ply, and
    /// the endgame tables did not decide it: a draw.
    MoveLimit { limit: usize },
}

impl Reason {
    /// Whether the game was decided by adjudication (the tables or the move limit), not by
    /// the rules.
    pub fn adjudicated(self) -> bool {
        matches!(
            self,
            Reason::EndgameTables { .. } | Reason::MoveLimit { .. }
        )
    }

    /// The stable reason code.
    pub fn code(self) -> &'static str {
        match self {
            Reason::NoLegalMoves => "NO_LEGAL_MOVES",
            Reason::NoPieces => "NO_PIECES",
            Reason::End(c) => c.code(),
            Reason::Draw(c) => c.code(),
            Reason::EndgameTables { .. } => "ENDGAME_TABLES",
            Reason::MoveLimit { .. } => "MOVE_LIMIT",
        }
    }
}

/// A draw a player could have claimed (the variant does not apply it automatically).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claimable {
    pub code: DrawCode,
    /// The first ply after which the claim was available.
    pub ply: usize,
}

/// The state of a single position, without history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Won { winner: Color, reason: Reason },
    Drawn { reason: Reason },
}

/// The status of a position judged on its own (no repetition history): the end rules, then
/// the "no legal move" rule, charged to `budget`.
pub fn status(variant: &Variant, pos: &Position, budget: &Budget) -> Result<Status, GenError> {
    if let Some((code, outcome)) = variant.end_rule(pos) {
        let reason = Reason::End(code);
        return Ok(match outcome {
            EndOutcome::Win(winner) => Status::Won { winner, reason },
            EndOutcome::Draw => Status::Drawn { reason },
        });
    }
    let other = pos.side().opponent();
    if variant.has_nothing(pos, other) {
        return Ok(Status::Won {
            // The pieceless side is the one that would have no move: it loses, or wins in
            // the anti variants.
            winner: variant.no_moves_winner(other),
            reason: Reason::NoPieces,
        });
    }
    if !variant.has_legal_move(pos, budget)? {
        Ok(Status::Won {
            winner: variant.no_moves_winner(pos.side()),
            reason: Reason::NoLegalMoves,
        })
    } else {
        Ok(Status::Ongoing)
    }
}

/// A verdict on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    WhiteWins,
    BlackWins,
    Draw,
    /// The moves are legal but the rules do not end the game.
    Undecided,
    /// A move is not legal.
    Invalid,
}

impl Verdict {
    pub fn win_for(c: Color) -> Verdict {
        match c {
            Color::White => Verdict::WhiteWins,
            Color::Black => Verdict::BlackWins,
        }
    }
}

/// The first move of a game that is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 1-based ply.
    pub ply: usize,
    pub text: String,
    pub error: MoveError,
    /// The legal moves at that point, in canonical notation.
    pub legal: Vec<String>,
}

/// The judge's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub verdict: Verdict,
    pub reason: Option<Reason>,
    /// The ply after which a rule ended the game (0 = the start position itself).
    pub decided_at_ply: Option<usize>,
    /// The legal moves played, in canonical notation.
    pub moves: Vec<DescribedMove>,
    pub final_position: Position,
    pub illegal: Option<IllegalMove>,
    /// Moves given after the rules had ended the game; they are not judged.
    pub moves_after_end: usize,
    /// Draws that could have been claimed (not automatic in this variant), first ply each.
    pub claimable: Vec<Claimable>,
    /// Where each draw rule's count stands in the final position, in the variant's order.
    pub draw_counts: Vec<DrawCount>,
    /// The counted draw rules' counts in the final position: what a value under the rules
    /// ([`crate::tables::Tables::probe_rules`]) starts from.
    pub clock: DrawClock,
}

/// Where a draw rule's count stands in a position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawCount {
    pub code: DrawCode,
    /// The count, in the unit of the rule's limit ([`crate::DrawRule::limit`]): how often the
    /// position has occurred (a repetition), or the plies counted so far.
    pub count: u32,
    /// The count at which the rule draws.
    pub limit: u16,
    /// Whether the rule can draw in this position: its material condition holds (the
    /// endgame and balance rules, whose counts run only while it does); always for the
    /// repetition and no-progress rules.
    pub applies: bool,
}

/// A count that is not running (an endgame rule whose material does not hold).
const OFF: u16 = u16::MAX;

/// Where the counted draw rules of a game stand (every rule but repetition, which needs the
/// positions seen): the plies since the last man move or capture, since the last capture or
/// promotion, since the last capture or castle entry, the plies without capture or promotion
/// while both sides have kings, and for each endgame rule the plies since its configuration
/// arose. It is the state the judge ([`Tracker`]) and the endgame tables' values under the
/// rules ([`crate::tables`]) count with; [`DrawClock::step`] is the one place that says
/// what a move does to each count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawClock {
    /// Plies since the last man move or capture.
    since_man_or_capture: u16,
    /// Plies since the last capture or promotion.
    since_capture_or_promotion: u16,
    /// Plies since the last capture or entry into the opponent's castle.
    since_capture_or_castle_entry: u16,
    /// Plies without capture or promotion while both sides have kings.
    balance: u16,
    /// Per draw rule (the variant's order): plies since its endgame configuration arose,
    /// while it holds; [`OFF`] otherwise and for the other rules.
    endgame: [u16; MAX_DRAW_RULES],
}

impl DrawClock {
    /// The counts at the start of a game in `pos`, whose history is unknown: every count at
    /// zero, each endgame rule's running if its configuration holds.
    pub fn start(variant: &Variant, pos: &Position) -> DrawClock {
        let mut endgame = [OFF; MAX_DRAW_RULES];
        for (i, (d, cells)) in variant
            .rules()
            .draws
            .iter()
            .zip(variant.draw_cells())
            .enumerate()
            .take(MAX_DRAW_RULES)
        {
            if endgame_holds(cells, pos, &d.kind) {
                endgame[i] = 0;
            }
        }
        DrawClock {
            since_man_or_capture: 0,
            since_capture_or_promotion: 0,
            since_capture_or_castle_entry: 0,
            balance: 0,
            endgame,
        }
    }

    /// Starts the "plies since the last man move or capture" count at `plies` (the half-move
    /// clock of a lidraughts FEN).
    pub fn with_halfmoves(mut self, plies: u32) -> DrawClock {
        self.since_man_or_capture = plies.min(u32::from(OFF - 1)) as u16;
        self
    }

    /// Records that `m` was played from `before`, reaching `after`.
    #[inline]
    pub fn step(&mut self, variant: &Variant, before: &Position, m: &Move, after: &Position) {
        let tick = |c: u16| c.saturating_add(1).min(OFF - 1);
        // An opening removal counts as a capture: a piece leaves the board.
        let takes = matches!(m.kind(), MoveKind::Capture | MoveKind::Removal);
        let progress = takes || m.is_promotion();
        self.since_man_or_capture = if m.piece() != Kind::King || takes {
            0
        } else {
            tick(self.since_man_or_capture)
        };
        self.since_capture_or_promotion = if progress {
            0
        } else {
            tick(self.since_capture_or_promotion)
        };
        let castle = variant.castle(before.side().opponent());
        self.since_capture_or_castle_entry =
            if takes || (castle.contains(m.to() as usize) && !castle.contains(m.from() as usize)) {
                0
            } else {
                tick(self.since_capture_or_castle_entry)
            };
        self.balance = if !both_have_kings(after) || !both_have_kings(before) || progress {
            0
        } else {
            tick(self.balance)
        };
        let rules = variant.rules().draws.iter();
        for ((count, d), cells) in self.endgame.iter_mut().zip(rules).zip(variant.draw_cells()) {
            *count = if endgame_holds(cells, after, &d.kind) {
                if *count == OFF {
                    0
                } else {
                    tick(*count)
                }
            } else {
                OFF
            };
        }
    }

    /// The count of draw rule `i` of `variant` in `pos` (the position these counts stand
    /// at), in plies; `None` for a repetition rule, and for a rule that does not apply in
    /// `pos` (an endgame configuration that does not hold, a balance whose material does not).
    #[inline]
    pub fn count(&self, variant: &Variant, i: usize, pos: &Position) -> Option<u16> {
        let d = variant.rules().draws.get(i)?;
        match &d.kind {
            DrawKind::Repetition { .. } => None,
            DrawKind::NoProgress { reset, .. } => Some(match reset {
                Reset::ManMoveOrCapture => self.since_man_or_capture,
                Reset::CaptureOrPromotion => self.since_capture_or_promotion,
                Reset::CaptureOrCastleEntry => self.since_capture_or_castle_entry,
            }),
            DrawKind::Balance { pieces, .. } => {
                let total = pos.occupied().len();
                (both_have_kings(pos) && (pieces.0 as u32..=pieces.1 as u32).contains(&total))
                    .then_some(self.balance)
            }
            DrawKind::Endgame { .. } => {
                let c = self.endgame.get(i).copied().unwrap_or(OFF);
                (c != OFF).then_some(c)
            }
        }
    }

    /// Sets the count of draw rule `i` to `count` (a count the caller knows from the game's
    /// history: a lidraughts FEN's half-move clock, a client's figures). A rule that does
    /// not apply in `pos` keeps no count: `Err` with the reason.
    pub fn set_count(
        &mut self,
        variant: &Variant,
        i: usize,
        pos: &Position,
        count: u16,
    ) -> Result<(), &'static str> {
        let d = variant
            .rules()
            .draws
            .get(i)
            .ok_or("the variant has no such draw rule")?;
        let count = count.min(OFF - 1);
        match &d.kind {
            DrawKind::Repetition { .. } => {
                return Err("a repetition is counted from the positions of the game, not a count")
            }
            DrawKind::NoProgress { reset, .. } => match reset {
                Reset::ManMoveOrCapture => self.since_man_or_capture = count,
                Reset::CaptureOrPromotion => self.since_capture_or_promotion = count,
                Reset::CaptureOrCastleEntry => self.since_capture_or_castle_entry = count,
            },
            DrawKind::Balance { .. } => {
                if self.count(variant, i, pos).is_none() {
                    return Err("the rule's material condition does not hold in the position");
                }
                self.balance = count;
            }
            DrawKind::Endgame { .. } => {
                if self.count(variant, i, pos).is_none() {
                    return Err("the rule's endgame configuration does not hold in the position");
                }
                self.endgame[i] = count;
            }
        }
        Ok(())
    }

    /// The first counted rule of `variant` (in its order) whose count has reached its limit
    /// in `pos`, automatic or claimable: its index.
    #[inline]
    pub fn reached(&self, variant: &Variant, pos: &Position) -> Option<usize> {
        (0..variant.rules().draws.len()).find(|&i| self.reached_rule(variant, i, pos))
    }

    /// Whether counted rule `i` has reached its limit in `pos`.
    #[inline]
    pub fn reached_rule(&self, variant: &Variant, i: usize, pos: &Position) -> bool {
        let d = &variant.rules().draws[i];
        self.count(variant, i, pos)
            .is_some_and(|c| c >= d.limit().0)
    }
}

/// The counters the draw rules need, updated move by move.
#[derive(Clone, Debug)]
pub struct Tracker<'v> {
    variant: &'v Variant,
    /// How often each position since the last loss of material has occurred. A position
    /// from before it cannot occur again (nothing adds material: a drop moves a stone from
    /// the hand to the board), so the table holds only those since and is emptied when
    /// material goes. Hashed with foldhash, seeded per process. Measured with callgrind on
    /// judging 1,426 international games: with SipHash and every position of the game kept,
    /// this table took a third of the instructions; as it is, under a tenth.
    seen: foldhash::HashMap<Position, u8>,
    count: u8,
    /// The counted rules' counts.
    clock: DrawClock,
    claimable: Vec<Claimable>,
    ply: usize,
}

impl<'v> Tracker<'v> {
    /// Starts tracking at `start`. History before it is unknown: counters start at zero.
    pub fn new(variant: &'v Variant, start: &Position) -> Self {
        let mut seen = foldhash::HashMap::default();
        seen.insert(*start, 1);
        Tracker {
            variant,
            seen,
            count: 1,
            clock: DrawClock::start(variant, start),
            claimable: Vec::new(),
            ply: 0,
        }
    }

    /// Starts the "plies since the last man move or capture" count at `plies` instead of 0
    /// (the half-move clock of a lidraughts FEN), for the draw rules that count those plies.
    pub fn with_halfmoves(mut self, plies: u32) -> Self {
        self.clock = self.clock.with_halfmoves(plies);
        self
    }

    /// Records that `m` was played from `before`, reaching `after`.
    pub fn push(&mut self, before: &Position, m: &Move, after: &Position) {
        self.ply += 1;
        if material(after) < material(before) {
            self.seen.clear();
        }
        let n = self.seen.entry(*after).or_insert(0);
        *n = n.saturating_add(1);
        self.count = *n;
        self.clock.step(self.variant, before, m, after);
    }

    /// The counted rules' counts in the position after the moves pushed.
    pub fn clock(&self) -> &DrawClock {
        &self.clock
    }

    /// The first automatic draw rule that holds now, recording claimable ones on the way.
    pub fn draw(&mut self, pos: &Position) -> Option<DrawCode> {
        for (i, d) in self.variant.rules().draws.iter().enumerate() {
            let fired = match &d.kind {
                DrawKind::Repetition { occurrences } => self.count >= *occurrences,
                _ => self.clock.reached_rule(self.variant, i, pos),
            };
            if !fired {
                continue;
            }
            if d.claim {
                if !self.claimable.iter().any(|c| c.code == d.code) {
                    self.claimable.push(Claimable {
                        code: d.code,
                        ply: self.ply,
                    });
                }
            } else {
                return Some(d.code);
            }
        }
        None
    }

    /// Draws that could have been claimed so far.
    pub fn claimable(&self) -> &[Claimable] {
        &self.claimable
    }

    /// Where each draw rule's count stands in `pos`, the position after the moves pushed,
    /// in the variant's order: the values [`Tracker::draw`] compares with the limits.
    pub fn counts(&self, pos: &Position) -> Vec<DrawCount> {
        self.variant
            .rules()
            .draws
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let (count, applies) = match &d.kind {
                    DrawKind::Repetition { .. } => (self.count as u32, true),
                    _ => match self.clock.count(self.variant, i, pos) {
                        Some(c) => (u32::from(c), true),
                        None => (0, false),
                    },
                };
                DrawCount {
                    code: d.code,
                    count,
                    limit: d.limit().0,
                    applies,
                }
            })
            .collect()
    }
}

/// The pieces on the board and in hand.
fn material(pos: &Position) -> u32 {
    pos.occupied().len() + pos.hand(Color::White) as u32 + pos.hand(Color::Black) as u32
}

fn both_have_kings(pos: &Position) -> bool {
    !pos.pieces(Color::White, Kind::King).is_empty()
        && !pos.pieces(Color::Black, Kind::King).is_empty()
}

/// Plays `moves` from `start` and judges the game: the first rule that ends it (the end rules,
/// no legal move, then the automatic draw rules, each in the variant's order), or the first
/// illegal move.
///
/// The work is charged to `budget`: the whole game fails with the budget's error when its
/// replay needs more work.
pub fn judge<S: AsRef<str>>(
    variant: &Variant,
    start: Position,
    moves: &[S],
    budget: &Budget,
) -> Result<Judgement, GenError> {
    let mut pos = start;
    let mut tracker = Tracker::new(variant, &pos);
    let mut played = Vec::new();
    let mut ended = end_state(variant, &pos, &mut tracker, budget)?;
    let mut decided_at = ended.map(|_| 0);
    for (i, text) in moves.iter().enumerate() {
        if ended.is_some() {
            break;
        }
        let text = text.as_ref();
        match variant.parse_move(&pos, text, budget) {
            Ok(d) => {
                let next = variant.play(&pos, &d.mv);
                tracker.push(&pos, &d.mv, &next);
                pos = next;
                played.push(d);
                ended = end_state(variant, &pos, &mut tracker, budget)?;
                if ended.is_some() {
                    decided_at = Some(i + 1);
                }
            }
            Err(MoveError::Gen(e)) => return Err(e),
            Err(error) => {
                let legal = match &error {
                    MoveError::Illegal { legal, .. } => legal.clone(),
                    _ => variant
                        .describe_moves(&pos, budget)?
                        .into_iter()
                        .map(|d| d.notation)
                        .collect(),
                };
                return Ok(Judgement {
                    verdict: Verdict::Invalid,
                    reason: None,
                    decided_at_ply: None,
                    moves: played,
                    final_position: pos,
                    illegal: Some(IllegalMove {
                        ply: i + 1,
                        text: text.to_string(),
                        error,
                        legal,
                    }),
                    moves_after_end: 0,
                    claimable: tracker.claimable().to_vec(),
                    draw_counts: tracker.counts(&pos),
                    clock: *tracker.clock(),
                });
            }
        }
    }
    let plies = played.len();
    let (verdict, reason) = match ended {
        Some(Status::Won { winner, reason }) => (Verdict::win_for(winner), Some(reason)),
        Some(Status::Drawn { reason }) => (Verdict::Draw, Some(reason)),
        _ => (Verdict::Undecided, None),
    };
    Ok(Judgement {
        verdict,
        reason,
        decided_at_ply: decided_at,
        moves: played,
        final_position: pos,
        illegal: None,
        moves_after_end: moves.len() - plies,
        claimable: tracker.claimable().to_vec(),
        draw_counts: tracker.counts(&pos),
        clock: *tracker.clock(),
    })
}

/// Whether the game is over in `pos` (the end rules and a side without moves first,
/// then draws).
pub(crate) fn end_state(
    variant: &Variant,
    pos: &Position,
    tracker: &mut Tracker,
    budget: &Budget,
) -> Result<Option<Status>, GenError> {
    match status(variant, pos, budget)? {
        Status::Ongoing => {}
        s => return Ok(Some(s)),
    }
    Ok(tracker.draw(pos).map(|code| Status::Drawn {
        reason: Reason::Draw(code),
    }))
}
