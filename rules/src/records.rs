//! Reading game records tolerantly.
//!
//! [`crate::outcome::judge`] reads every move text strictly, as the service reads its
//! own input: a text that does not name exactly one legal move makes the game `invalid`. A
//! game record (a PDN file, a list of moves from tournament software) cannot be sent back, so
//! [`read_record`] reads it as an adjudicator would, and says what it did: every
//! repair is a [`RecordWarning`] with a stable code.
//!
//! - A text that names several legal moves (a short capture with two routes, a Russian `hg7`
//!   with two pieces on the h-file) is resolved by the rest of the game: the reading under
//!   which the remaining moves are legal is taken. When several readings stay legal to the
//!   end, the first is judged and the warning says whether the others give another verdict.
//!   The search over readings replays the game once per reading tried and tries at most
//!   [`MAX_LINES`] readings of the whole game, so a file built to make it exponential costs
//!   at most that many replays (and every replay is charged to the [`Budget`]).
//! - A long form that leaves out turning squares (`15x33x31`) is read as the capture whose
//!   route passes through its squares in order.
//! - A capture split over several half-moves (`e1xc3 c3xe5`, as PlayStrategy exports some
//!   multi-jumps) is joined into one move.
//! - Text glued to a move (`8-11Redoversteppedthetimecontrolonthismove.`) is read as the move
//!   and a comment.
//! - A token that is no move at all (`9n` for `9.`) is skipped.
//! - On a numeric board whose first mover is Black (English, Pool, Thai), algebraic squares
//!   are read both as seen from White's side and as seen from the first mover's side (as
//!   PlayStrategy and lidraughts export English games: `c3-d4` is 11-15), and the reading
//!   under which the moves are legal is kept.

use crate::budget::Budget;
use crate::budget::GenError;
use crate::notation::listing::DescribedMove;
use crate::notation::movetext::MoveError;
use crate::notation::pdn::{PdnNote, PdnNoteKind};
use crate::notation::squares::parse_squares;
use crate::outcome::{end_state, IllegalMove, Judgement, Status, Tracker, Verdict};
use crate::position::{Color, Position};
use crate::variant::Variant;

/// Most readings of a whole game tried (each is one replay of the game).
pub const MAX_LINES: usize = 32;

/// Most half-move texts joined into one split capture.
const MAX_JOINED: usize = 12;

/// What a warning is about. Each kind has a stable code ([`WarningKind::code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// Several legal moves match the text; only the reading taken keeps the rest of the record
    /// legal.
    AmbiguousMoveResolved,
    /// Several legal moves match the text and the rest of the record does not single one out
    /// (several stay legal to the end with the same verdict, none does, or the search bound
    /// was reached); the first reading is judged.
    AmbiguousMoveUnresolved,
    /// Several readings stay legal to the end and another one gives a different verdict; the
    /// first is judged.
    VerdictWouldDiffer,
    /// The search over ambiguous readings stopped at its bound ([`MAX_LINES`]).
    SearchBoundReached,
    /// A long form that leaves out turning squares, read as the one capture whose route passes
    /// through its squares in order.
    IncompleteRoute,
    /// A capture written over several half-moves, joined into one move.
    SplitCapture,
    /// Text glued to a move, read as a comment.
    TextAfterMove,
    /// A token that is no move, skipped.
    NotAMove,
    /// Algebraic squares seen from the first mover's side (Black's), turned to the board's
    /// orientation.
    AlgebraicSquaresRotated,
    /// A broken tag line repaired by the PDN reader.
    TagRepaired,
    /// Placeholders where the moves should be: the moves are unknown.
    UnknownMoves,
    /// The Result tag and the game terminator give different results.
    ResultTagConflict,
    /// The moves decide the game against the declared result, which would agree under the
    /// other result convention.
    ResultConvention,
    /// A comment inside a comment (PDN 3.0 grammar).
    NestedComment,
    /// A tag that is not `[Name "value"]` (PDN 3.0 grammar).
    MalformedTag,
    /// A FEN tag that does not follow the standard's FEN grammar.
    InvalidFen,
    /// A GameType tag that does not follow the standard's expression.
    InvalidGameType,
    /// A result outside the standard's set for the game type.
    NonStandardResult,
    /// A move number the grammar does not allow, or one without its move.
    MalformedMoveNumber,
    /// A move the grammar does not allow.
    MalformedMove,
    /// Anything else the PDN 3.0 grammar does not allow.
    NotInGrammar,
    /// Adjudication by the endgame tables was asked for, but the variant has no tables
    /// (its rules keep state the tables cannot hold): the game is judged without them.
    TablesUnsupported,
    /// The endgame tables could not be probed (a table could not be built or loaded): the
    /// game is judged without them.
    TablesUnavailable,
}

impl WarningKind {
    pub const ALL: [WarningKind; 23] = [
        WarningKind::AmbiguousMoveResolved,
        WarningKind::AmbiguousMoveUnresolved,
        WarningKind::VerdictWouldDiffer,
        WarningKind::SearchBoundReached,
        WarningKind::IncompleteRoute,
        WarningKind::SplitCapture,
        WarningKind::TextAfterMove,
        WarningKind::NotAMove,
        WarningKind::AlgebraicSquaresRotated,
        WarningKind::TagRepaired,
        WarningKind::UnknownMoves,
        WarningKind::ResultTagConflict,
        WarningKind::ResultConvention,
        WarningKind::NestedComment,
        WarningKind::MalformedTag,
        WarningKind::InvalidFen,
        WarningKind::InvalidGameType,
        WarningKind::NonStandardResult,
        WarningKind::MalformedMoveNumber,
        WarningKind::MalformedMove,
        WarningKind::NotInGrammar,
        WarningKind::TablesUnsupported,
        WarningKind::TablesUnavailable,
    ];

    /// The stable code.
    pub fn code(self) -> &'static str {
        match self {
            WarningKind::AmbiguousMoveResolved => "ambiguous-move-resolved",
            WarningKind::AmbiguousMoveUnresolved => "ambiguous-move-unresolved",
            WarningKind::VerdictWouldDiffer => "verdict-would-differ",
            WarningKind::SearchBoundReached => "search-bound-reached",
            WarningKind::IncompleteRoute => "incomplete-route",
            WarningKind::SplitCapture => "split-capture",
            WarningKind::TextAfterMove => "text-after-move",
            WarningKind::NotAMove => "not-a-move",
            WarningKind::AlgebraicSquaresRotated => "algebraic-squares-rotated",
            WarningKind::TagRepaired => "tag-repaired",
            WarningKind::UnknownMoves => "unknown-moves",
            WarningKind::ResultTagConflict => "result-tag-conflict",
            WarningKind::ResultConvention => "result-convention",
            WarningKind::NestedComment => "nested-comment",
            WarningKind::MalformedTag => "malformed-tag",
            WarningKind::InvalidFen => "invalid-fen",
            WarningKind::InvalidGameType => "invalid-game-type",
            WarningKind::NonStandardResult => "non-standard-result",
            WarningKind::MalformedMoveNumber => "malformed-move-number",
            WarningKind::MalformedMove => "malformed-move",
            WarningKind::NotInGrammar => "not-in-grammar",
            WarningKind::TablesUnsupported => "tables-unsupported",
            WarningKind::TablesUnavailable => "tables-unavailable",
        }
    }
}

impl From<&PdnNote> for RecordWarning {
    /// A note of the PDN reader as a warning on the game as a whole; the detail starts with
    /// the note's line and column.
    fn from(n: &PdnNote) -> RecordWarning {
        let (kind, what) = match n.kind {
            PdnNoteKind::TagRepaired => (
                WarningKind::TagRepaired,
                "a tag line without its opening '[' or its closing quote, read as a tag",
            ),
            PdnNoteKind::NestedComment => (
                WarningKind::NestedComment,
                "a comment inside a comment: PDN 3.0 comments end at the first '}'",
            ),
            PdnNoteKind::MalformedTag => (
                WarningKind::MalformedTag,
                "a tag that is not [Name \"value\"] (PDN 3.0 PdnTag)",
            ),
            PdnNoteKind::InvalidFen => (
                WarningKind::InvalidFen,
                "the FEN tag does not follow the PDN 3.0 FEN grammar",
            ),
            PdnNoteKind::InvalidGameType => (
                WarningKind::InvalidGameType,
                "the GameType tag does not follow the PDN 3.0 GameType expression",
            ),
            PdnNoteKind::NonStandardResult => (
                WarningKind::NonStandardResult,
                "a result outside the PDN 3.0 results of the game type",
            ),
            PdnNoteKind::MalformedMoveNumber => (
                WarningKind::MalformedMoveNumber,
                "a move number that is not digits and '.' or '...', or without its move \
                 (PDN 3.0 MOVENUMBER, GameMove)",
            ),
            PdnNoteKind::MalformedMove => (
                WarningKind::MalformedMove,
                "a move that is no move of the PDN 3.0 grammar",
            ),
            PdnNoteKind::NotInGrammar => (
                WarningKind::NotInGrammar,
                "text the PDN 3.0 grammar does not allow here",
            ),
        };
        let at = if n.kind == PdnNoteKind::TagRepaired {
            format!("line {}", n.line)
        } else {
            format!("line {}, column {}", n.line, n.column)
        };
        RecordWarning::game(kind, n.text.clone(), format!("{at}: {what}"))
    }
}

/// Something the record reader did to read a game, or noticed about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordWarning {
    pub kind: WarningKind,
    /// The 1-based ply concerned; 0 for the game as a whole.
    pub ply: usize,
    /// The text concerned, as written.
    pub text: String,
    /// The move as read (long form), when a move was read.
    pub reading: Option<String>,
    /// The other readings (long forms), for an ambiguous text.
    pub alternatives: Vec<String>,
    /// For an ambiguous text: whether another reading that stays legal to the end gives a
    /// different verdict (`Some(false)` when only the reading taken does; `None` when not
    /// every reading could be checked, when none is legal, and for other warnings).
    pub verdict_differs: Option<bool>,
    /// Readable explanation.
    pub detail: String,
}

impl RecordWarning {
    /// A warning about the game as a whole.
    pub fn game(kind: WarningKind, text: impl Into<String>, detail: impl Into<String>) -> Self {
        RecordWarning {
            kind,
            ply: 0,
            text: text.into(),
            reading: None,
            alternatives: Vec::new(),
            verdict_differs: None,
            detail: detail.into(),
        }
    }
}

/// A record read and judged.
#[derive(Clone, Debug)]
pub struct Record {
    pub judgement: Judgement,
    pub warnings: Vec<RecordWarning>,
    /// Index of the text of the first illegal move, when the verdict is `invalid`.
    pub illegal_text: Option<usize>,
    /// Readings of the whole game tried (replays), at most the bound given.
    pub lines: usize,
}

/// How a record is read ([`read_record`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordOptions {
    /// The half-move clock of the start position (plies since the last man move or capture, a
    /// lidraughts FEN's `H` field): the draw rules that count those plies go on from it.
    pub halfmoves: u32,
    /// The bound on the readings of the whole game tried.
    pub max_lines: usize,
    /// A move limit: the game is read up to this ply and no further, the texts after it
    /// counted in [`Judgement::moves_after_end`] like the moves after the end of a game.
    /// `None`: no limit.
    pub max_plies: Option<usize>,
}

impl Default for RecordOptions {
    /// A clock at 0, at most [`MAX_LINES`] readings and no move limit.
    fn default() -> Self {
        RecordOptions {
            halfmoves: 0,
            max_lines: MAX_LINES,
            max_plies: None,
        }
    }
}

/// Reads and judges a game record (see the module documentation), charged to `budget`.
pub fn read_record<S: AsRef<str>>(
    variant: &Variant,
    start: Position,
    texts: &[S],
    options: RecordOptions,
    budget: &Budget,
) -> Result<Record, GenError> {
    let RecordOptions {
        halfmoves,
        max_lines,
        max_plies,
    } = options;
    let written: Vec<&str> = texts.iter().map(|t| t.as_ref().trim()).collect();
    let rotate = !variant.algebraic()
        && variant.first_mover() == Color::Black
        && written.iter().any(|t| starts_algebraic(t));
    let as_written = Reader {
        variant,
        start,
        halfmoves,
        max_plies,
        texts: written.iter().map(|t| t.to_string()).collect(),
        shown: &written,
        budget,
    }
    .read(max_lines)?;
    if !rotate {
        return Ok(as_written);
    }
    let rotated_texts: Vec<String> = written.iter().map(|t| rotate_text(variant, t)).collect();
    let mut rotated = Reader {
        variant,
        start,
        halfmoves,
        max_plies,
        texts: rotated_texts,
        shown: &written,
        budget,
    }
    .read(max_lines)?;
    let legal = |r: &Record| r.judgement.verdict != Verdict::Invalid;
    let plies = |r: &Record| r.judgement.moves.len();
    let take_rotated = match (legal(&as_written), legal(&rotated)) {
        (false, true) => true,
        (true, false) => false,
        (true, true) => true,
        (false, false) => plies(&rotated) > plies(&as_written),
    };
    rotated.lines += as_written.lines;
    if !take_rotated {
        return Ok(Record {
            lines: rotated.lines,
            ..as_written
        });
    }
    let other = if legal(&as_written) {
        "read from White's side the moves are legal too; the first mover's view is taken, as \
         PDN orients squares from the starting player's side"
            .to_string()
    } else {
        let at = as_written.judgement.illegal.as_ref().map_or(0, |i| i.ply);
        format!("read from White's side, the move at ply {at} is illegal")
    };
    let first = written.iter().find(|t| starts_algebraic(t)).copied();
    rotated.warnings.insert(
        0,
        RecordWarning::game(
            WarningKind::AlgebraicSquaresRotated,
            first.unwrap_or_default(),
            format!(
                "algebraic squares read as seen from the first mover's side (Black's), as \
                 PlayStrategy and lidraughts write {} games: {} is {}; {other}",
                variant.id(),
                first.unwrap_or_default(),
                rotated
                    .judgement
                    .moves
                    .first()
                    .map_or(String::new(), |m| m.notation.clone())
            ),
        ),
    );
    Ok(rotated)
}

/// Whether a text starts with a square written algebraically (a letter, then a digit).
fn starts_algebraic(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1].is_ascii_digit()
}

/// The text with every algebraic square turned half a turn (`c3` ↔ `f6` on 8×8).
fn rotate_text(variant: &Variant, t: &str) -> String {
    let board = variant.board();
    let b = t.as_bytes();
    let mut out = String::with_capacity(t.len());
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let square = &t[i..j];
            let turned = board.parse_algebraic(square).and_then(|c| {
                let (x, y) = board.xy(c);
                board.at(
                    board.width() as i32 - 1 - x as i32,
                    board.height() as i32 - 1 - y as i32,
                )
            });
            match turned {
                Some(c) => out.push_str(&board.algebraic(c)),
                None => out.push_str(square),
            }
            i = j;
        } else {
            let c = t[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// One way to read a text (or several texts, for a split capture).
#[derive(Clone, Debug)]
struct Reading {
    mv: DescribedMove,
    /// Texts consumed.
    texts: usize,
    /// What reading it this way took (without the ply, filled in when played).
    notes: Vec<RecordWarning>,
}

/// What a text is, in a position.
enum Step {
    /// One or more moves (more: the text is ambiguous).
    Moves(Vec<Reading>),
    /// No move at all: skipped.
    Skip(RecordWarning),
    /// A move that is not legal.
    Fail(MoveError),
}

/// An ambiguous text met on a line.
#[derive(Clone, Debug)]
struct Branch {
    text: usize,
    ply: usize,
    options: Vec<String>,
    chosen: usize,
}

/// One reading of the whole game.
#[derive(Clone, Debug)]
struct Line {
    judgement: Judgement,
    warnings: Vec<RecordWarning>,
    branches: Vec<Branch>,
    illegal_text: Option<usize>,
}

impl Line {
    fn legal(&self) -> bool {
        self.illegal_text.is_none()
    }

    fn choices(&self) -> Vec<usize> {
        self.branches.iter().map(|b| b.chosen).collect()
    }
}

/// The fate of another reading of an ambiguous text.
#[derive(Clone, Debug)]
enum Fate {
    /// Every line through it has an illegal move; the last one tried, at this ply.
    Fails(usize),
    /// A line through it is legal to the end, with this verdict.
    Legal(Verdict),
    /// Not (fully) checked: the search bound was reached.
    Unknown,
}

/// The outcome of a search below a fixed prefix of choices.
enum Search {
    Legal(Line),
    /// No line is legal; the one that got furthest.
    Exhausted(Line),
    /// The bound was reached first; the line that got furthest.
    Bound(Line),
}

struct Reader<'a> {
    variant: &'a Variant,
    start: Position,
    /// The half-move clock of the start position.
    halfmoves: u32,
    /// The move limit: no ply is read after it.
    max_plies: Option<usize>,
    /// The texts read (turned, for rotated algebraic squares).
    texts: Vec<String>,
    /// The texts as written.
    shown: &'a [&'a str],
    budget: &'a Budget,
}

impl Reader<'_> {
    fn read(&self, max_lines: usize) -> Result<Record, GenError> {
        let mut left = max_lines.max(1);
        // Fates of the readings abandoned by the search: (choices before the branch, option,
        // ply where its last line failed).
        let mut failures: Vec<(Vec<usize>, usize, usize)> = Vec::new();
        let (line, bound) = match self.search(&[], &mut left, &mut failures)? {
            Search::Legal(l) => (l, false),
            Search::Exhausted(l) => (l, false),
            Search::Bound(l) => (l, true),
        };
        let mut bound = bound;
        let mut warnings = Vec::new();
        let choices = line.choices();
        let mut by_ply: Vec<(usize, RecordWarning)> = Vec::new();
        for (b, branch) in line.branches.iter().enumerate() {
            let mut fates = Vec::new();
            for (o, _) in branch.options.iter().enumerate() {
                if o == branch.chosen {
                    continue;
                }
                let known = failures
                    .iter()
                    .rev()
                    .find(|(prefix, option, _)| *option == o && prefix[..] == choices[..b]);
                let fate = if let Some((_, _, ply)) = known {
                    Fate::Fails(*ply)
                } else if !line.legal() && !bound {
                    // The search tried every reading and none is legal.
                    Fate::Fails(0)
                } else if o < branch.chosen || !line.legal() {
                    // Searched before the chosen one and abandoned without a recorded failure:
                    // only when the bound cut it short.
                    Fate::Unknown
                } else if left == 0 {
                    bound = true;
                    Fate::Unknown
                } else {
                    let mut prefix = choices[..b].to_vec();
                    prefix.push(o);
                    let mut ignored = Vec::new();
                    match self.search(&prefix, &mut left, &mut ignored)? {
                        Search::Legal(l) => Fate::Legal(l.judgement.verdict),
                        Search::Exhausted(l) => Fate::Fails(failure_ply(&l)),
                        Search::Bound(_) => {
                            bound = true;
                            Fate::Unknown
                        }
                    }
                };
                fates.push((o, fate));
            }
            by_ply.push((branch.text, self.branch_warning(&line, branch, &fates)));
        }
        // Warnings in ply order: the line's own, then the ambiguities at their plies.
        let mut all: Vec<(usize, usize, RecordWarning)> = line
            .warnings
            .iter()
            .cloned()
            .enumerate()
            .map(|(k, w)| (w.ply, k, w))
            .collect();
        for (k, (_, w)) in by_ply.into_iter().enumerate() {
            all.push((w.ply, usize::MAX / 2 + k, w));
        }
        all.sort_by_key(|(ply, k, _)| (*ply, *k));
        if bound {
            warnings.push(RecordWarning::game(
                WarningKind::SearchBoundReached,
                "",
                format!(
                    "the record has ambiguous moves; at most {} readings of the game are tried, \
                     so some readings were not checked against the rest of the game",
                    max_lines.max(1)
                ),
            ));
        }
        warnings.extend(all.into_iter().map(|(_, _, w)| w));
        Ok(Record {
            judgement: line.judgement,
            warnings,
            illegal_text: line.illegal_text,
            lines: max_lines.max(1) - left,
        })
    }

    /// Depth-first search over the readings of ambiguous texts, the first `prefix.len()`
    /// choices fixed: the first line (in reading order) that is legal to the end.
    fn search(
        &self,
        prefix: &[usize],
        left: &mut usize,
        failures: &mut Vec<(Vec<usize>, usize, usize)>,
    ) -> Result<Search, GenError> {
        let mut choices = prefix.to_vec();
        let mut best: Option<Line> = None;
        loop {
            *left = left.saturating_sub(1);
            let line = self.line(&choices)?;
            if line.legal() {
                return Ok(Search::Legal(line));
            }
            let furthest = best
                .as_ref()
                .is_none_or(|b| line.judgement.moves.len() > b.judgement.moves.len());
            // The deepest branch below the prefix with a reading left.
            let next = (prefix.len()..line.branches.len())
                .rev()
                .find(|&b| line.branches[b].chosen + 1 < line.branches[b].options.len());
            let fail = failure_ply(&line);
            if let Some(b) = next {
                let c = line.choices();
                failures.push((c[..b].to_vec(), c[b], fail));
                choices = c[..b].to_vec();
                choices.push(c[b] + 1);
            }
            if furthest {
                best = Some(line);
            }
            let best_line = || best.clone().expect("a line was read");
            if next.is_none() {
                return Ok(Search::Exhausted(best_line()));
            }
            if *left == 0 {
                return Ok(Search::Bound(best_line()));
            }
        }
    }

    /// Replays the game, taking reading `choices[b]` at the `b`-th ambiguous text (the first
    /// reading beyond the choices given).
    fn line(&self, choices: &[usize]) -> Result<Line, GenError> {
        let v = self.variant;
        let budget = self.budget;
        let mut pos = self.start;
        let mut tracker = Tracker::new(v, &pos).with_halfmoves(self.halfmoves);
        let mut played: Vec<DescribedMove> = Vec::new();
        let mut warnings = Vec::new();
        let mut branches = Vec::new();
        let mut ended = end_state(v, &pos, &mut tracker, budget)?;
        let mut decided_at = ended.map(|_| 0);
        let mut i = 0;
        let limit = self.max_plies.unwrap_or(usize::MAX);
        while i < self.texts.len() && ended.is_none() && played.len() < limit {
            let ply = played.len() + 1;
            match self.step(&pos, i)? {
                Step::Skip(mut w) => {
                    w.ply = ply;
                    warnings.push(w);
                    i += 1;
                }
                Step::Fail(error) => {
                    let legal = match &error {
                        MoveError::Illegal { legal, .. } => legal.clone(),
                        _ => v
                            .describe_moves(&pos, budget)?
                            .into_iter()
                            .map(|d| d.notation)
                            .collect(),
                    };
                    return Ok(Line {
                        judgement: Judgement {
                            verdict: Verdict::Invalid,
                            reason: None,
                            decided_at_ply: None,
                            moves: played,
                            final_position: pos,
                            illegal: Some(IllegalMove {
                                ply,
                                text: self.shown[i].to_string(),
                                error,
                                legal,
                            }),
                            moves_after_end: 0,
                            claimable: tracker.claimable().to_vec(),
                            draw_counts: tracker.counts(&pos),
                            clock: *tracker.clock(),
                        },
                        warnings,
                        branches,
                        illegal_text: Some(i),
                    });
                }
                Step::Moves(mut readings) => {
                    let mut k = 0;
                    if readings.len() > 1 {
                        k = choices
                            .get(branches.len())
                            .copied()
                            .unwrap_or(0)
                            .min(readings.len() - 1);
                        branches.push(Branch {
                            text: i,
                            ply,
                            options: readings.iter().map(|r| r.mv.long.clone()).collect(),
                            chosen: k,
                        });
                    }
                    let r = readings.swap_remove(k);
                    for mut n in r.notes {
                        n.ply = ply;
                        warnings.push(n);
                    }
                    let next = v.play(&pos, &r.mv.mv);
                    tracker.push(&pos, &r.mv.mv, &next);
                    pos = next;
                    played.push(r.mv);
                    i += r.texts;
                    ended = end_state(v, &pos, &mut tracker, budget)?;
                    if ended.is_some() {
                        decided_at = Some(played.len());
                    }
                }
            }
        }
        let (verdict, reason) = match ended {
            Some(Status::Won { winner, reason }) => (Verdict::win_for(winner), Some(reason)),
            Some(Status::Drawn { reason }) => (Verdict::Draw, Some(reason)),
            _ => (Verdict::Undecided, None),
        };
        Ok(Line {
            judgement: Judgement {
                verdict,
                reason,
                decided_at_ply: decided_at,
                moves: played,
                final_position: pos,
                illegal: None,
                moves_after_end: self.texts.len() - i,
                claimable: tracker.claimable().to_vec(),
                draw_counts: tracker.counts(&pos),
                clock: *tracker.clock(),
            },
            warnings,
            branches,
            illegal_text: None,
        })
    }

    /// The readings of text `i` in `pos`.
    fn step(&self, pos: &Position, i: usize) -> Result<Step, GenError> {
        let v = self.variant;
        let text = self.texts[i].as_str();
        let shown = self.shown[i];
        let error = match v.matching_moves(pos, text, self.budget) {
            Ok(ms) => {
                return Ok(Step::Moves(
                    ms.into_iter()
                        .map(|mv| Reading {
                            mv,
                            texts: 1,
                            notes: Vec::new(),
                        })
                        .collect(),
                ))
            }
            Err(MoveError::Gen(e)) => return Err(e),
            Err(e) => e,
        };
        match error {
            MoveError::Illegal { .. } => {
                let partly = match v.partly_named_moves(pos, text, self.budget) {
                    Ok(ms) => ms,
                    Err(MoveError::Gen(e)) => return Err(e),
                    Err(_) => Vec::new(),
                };
                if !partly.is_empty() {
                    let n = partly.len();
                    return Ok(Step::Moves(
                        partly
                            .into_iter()
                            .map(|mv| Reading {
                                notes: vec![RecordWarning {
                                    kind: WarningKind::IncompleteRoute,
                                    ply: 0,
                                    text: shown.to_string(),
                                    reading: Some(mv.long.clone()),
                                    alternatives: Vec::new(),
                                    verdict_differs: None,
                                    detail: format!(
                                        "{shown} leaves out squares where the piece turns; read \
                                         as {}, {}",
                                        mv.long,
                                        if n == 1 {
                                            "the one legal capture whose route passes through its \
                                             squares in order"
                                        } else {
                                            "one of the legal captures whose routes pass through \
                                             its squares in order"
                                        }
                                    ),
                                }],
                                mv,
                                texts: 1,
                            })
                            .collect(),
                    ));
                }
                if let Some(step) = self.joined(pos, i)? {
                    return Ok(step);
                }
                Ok(Step::Fail(error))
            }
            MoveError::Syntax { .. } | MoveError::UnknownSquare { .. } => {
                if let Some((prefix, rest)) = split_glued(text) {
                    match v.matching_moves(pos, prefix, self.budget) {
                        Ok(ms) => {
                            let shown_prefix = split_glued(shown).map_or(prefix, |(p, _)| p);
                            let shown_rest = split_glued(shown).map_or(rest, |(_, r)| r);
                            return Ok(Step::Moves(
                                ms.into_iter()
                                    .map(|mv| Reading {
                                        notes: vec![RecordWarning {
                                            kind: WarningKind::TextAfterMove,
                                            ply: 0,
                                            text: shown.to_string(),
                                            reading: Some(mv.long.clone()),
                                            alternatives: Vec::new(),
                                            verdict_differs: None,
                                            detail: format!(
                                                "text glued to the move {shown_prefix}; read as \
                                                 the move and the comment '{}'",
                                                shown_rest.chars().take(80).collect::<String>()
                                            ),
                                        }],
                                        mv,
                                        texts: 1,
                                    })
                                    .collect(),
                            ));
                        }
                        Err(MoveError::Gen(e)) => return Err(e),
                        Err(e) => return Ok(Step::Fail(e)),
                    }
                }
                if !starts_like_move(text) {
                    return Ok(Step::Skip(RecordWarning::game(
                        WarningKind::NotAMove,
                        shown,
                        format!(
                            "'{}' is no move (no square followed by a separator); skipped as a \
                             comment",
                            shown.chars().take(40).collect::<String>()
                        ),
                    )));
                }
                Ok(Step::Fail(error))
            }
            other => Ok(Step::Fail(other)),
        }
    }

    /// Text `i` as the first part of a capture written over several half-moves: joined with
    /// the texts after it that go on from where it ends, the first joined text that names a
    /// legal capture.
    fn joined(&self, pos: &Position, i: usize) -> Result<Option<Step>, GenError> {
        let v = self.variant;
        let text = self.texts[i].as_str();
        let separator = v.spec().capture_separator;
        if !text.contains(['x', 'X', ':', separator]) {
            return Ok(None);
        }
        let Ok(mut squares) = parse_squares(v, text) else {
            return Ok(None);
        };
        for j in i + 1..self.texts.len().min(i + MAX_JOINED) {
            let Ok(more) = parse_squares(v, &self.texts[j]) else {
                return Ok(None);
            };
            if more[0] != squares[squares.len() - 1] {
                return Ok(None);
            }
            squares.extend_from_slice(&more[1..]);
            let joined = squares
                .iter()
                .map(|&c| v.square_name(c))
                .collect::<Vec<_>>()
                .join("x");
            match v.matching_moves(pos, &joined, self.budget) {
                Ok(ms) => {
                    let shown = self.shown[i..=j].join(" ");
                    return Ok(Some(Step::Moves(
                        ms.into_iter()
                            .map(|mv| Reading {
                                notes: vec![RecordWarning {
                                    kind: WarningKind::SplitCapture,
                                    ply: 0,
                                    text: shown.clone(),
                                    reading: Some(mv.long.clone()),
                                    alternatives: Vec::new(),
                                    verdict_differs: None,
                                    detail: format!(
                                        "one capture written as {} half-moves ({shown}); joined \
                                         into {}",
                                        j - i + 1,
                                        mv.long
                                    ),
                                }],
                                mv,
                                texts: j - i + 1,
                            })
                            .collect(),
                    )));
                }
                Err(MoveError::Gen(e)) => return Err(e),
                Err(_) => continue,
            }
        }
        Ok(None)
    }

    /// The warning for an ambiguous text of the line judged.
    fn branch_warning(&self, line: &Line, b: &Branch, fates: &[(usize, Fate)]) -> RecordWarning {
        let text = self.shown[b.text].to_string();
        let chosen = b.options[b.chosen].clone();
        let alternatives: Vec<String> = fates.iter().map(|(o, _)| b.options[*o].clone()).collect();
        let mine = line.judgement.verdict;
        let describe = |(o, fate): &(usize, Fate)| -> String {
            let name = &b.options[*o];
            match fate {
                Fate::Fails(0) => format!("{name} makes a later move illegal"),
                Fate::Fails(ply) => format!("{name} makes the move at ply {ply} illegal"),
                Fate::Legal(v) => format!(
                    "{name} also keeps the record legal to its end ({})",
                    verdict_name(*v)
                ),
                Fate::Unknown => format!("{name} was not checked (search bound)"),
            }
        };
        let others = fates.iter().map(describe).collect::<Vec<_>>().join("; ");
        let any_legal = fates.iter().any(|(_, f)| matches!(f, Fate::Legal(_)));
        let any_unknown = fates.iter().any(|(_, f)| matches!(f, Fate::Unknown));
        let differs = fates
            .iter()
            .any(|(_, f)| matches!(f, Fate::Legal(v) if *v != mine));
        let head = format!(
            "{text} matches {} legal moves",
            b.options.len().max(fates.len() + 1)
        );
        let (kind, verdict_differs, detail) = if !line.legal() {
            (
                WarningKind::AmbiguousMoveUnresolved,
                None,
                format!(
                    "{head}; no reading keeps the rest of the record legal; {chosen} is shown; \
                     {others}"
                ),
            )
        } else if differs {
            (
                WarningKind::VerdictWouldDiffer,
                Some(true),
                format!(
                    "{head}; several readings keep the record legal, and they do not give the \
                     same verdict; the first, {chosen}, is judged ({}); {others}",
                    verdict_name(mine)
                ),
            )
        } else if any_legal || any_unknown {
            (
                WarningKind::AmbiguousMoveUnresolved,
                if any_unknown { None } else { Some(false) },
                format!(
                    "{head}; the rest of the record does not single one out; the first, \
                     {chosen}, is judged ({}); {others}",
                    verdict_name(mine)
                ),
            )
        } else {
            (
                WarningKind::AmbiguousMoveResolved,
                Some(false),
                format!("{head}; only {chosen} keeps the rest of the record legal: {others}"),
            )
        };
        RecordWarning {
            kind,
            ply: b.ply,
            text,
            reading: Some(chosen),
            alternatives,
            verdict_differs,
            detail,
        }
    }
}

fn failure_ply(line: &Line) -> usize {
    line.judgement.illegal.as_ref().map_or(0, |i| i.ply)
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::WhiteWins => "a win for White",
        Verdict::BlackWins => "a win for Black",
        Verdict::Draw => "a draw",
        Verdict::Undecided => "undecided",
        Verdict::Invalid => "invalid",
    }
}

/// A move with text glued after it: `(move, rest)` when the text starts with two or more
/// squares joined by separators and goes on with something else.
fn split_glued(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    let square = |i: usize| -> Option<usize> {
        let mut j = i;
        if b.get(j).is_some_and(u8::is_ascii_alphabetic) {
            j += 1;
        }
        let digits = j;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        (j > digits).then_some(j)
    };
    let mut end = square(0)?;
    let mut squares = 1;
    while b
        .get(end)
        .is_some_and(|c| matches!(c, b'-' | b'x' | b'X' | b':'))
    {
        match square(end + 1) {
            Some(e) => {
                end = e;
                squares += 1;
            }
            None => break,
        }
    }
    let rest = &text[end..];
    (squares >= 2
        && !rest
            .trim_start_matches(['!', '?', '+', '#', '*'])
            .is_empty())
    .then(|| (&text[..end], rest))
}

/// Whether a text begins like a move: a square, then a separator.
fn starts_like_move(text: &str) -> bool {
    let b = text.as_bytes();
    let mut j = 0;
    if b.first().is_some_and(u8::is_ascii_alphabetic) {
        j = 1;
    }
    let digits = j;
    while b.get(j).is_some_and(u8::is_ascii_digit) {
        j += 1;
    }
    j > digits
        && b.get(j)
            .is_some_and(|c| matches!(c, b'-' | b'x' | b'X' | b':'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::variant;

    #[test]
    fn glued_text_and_move_like_tokens() {
        assert_eq!(
            split_glued("8-11Redoversteppedthetimecontrolonthismove."),
            Some(("8-11", "Redoversteppedthetimecontrolonthismove."))
        );
        assert_eq!(split_glued("c3-d4Comment"), Some(("c3-d4", "Comment")));
        assert_eq!(split_glued("32-28!"), None);
        assert_eq!(split_glued("9n"), None);
        assert!(starts_like_move("33-"));
        assert!(starts_like_move("e3:g5"));
        assert!(!starts_like_move("9n"));
        assert!(!starts_like_move("Event"));
    }

    /// Russian kings: `ab2` (from a1 or a3), `ba7` (from b8 or b6), `cd2` (from c1 or c3) are
    /// each ambiguous and every reading keeps the game legal; no line of kings meets another.
    const KINGS: &str = "W:WKa1,Ka3,Kc1,Kc3:BKb8,Kb6,Kd8";
    const AMBIGUOUS: [&str; 4] = ["ab2", "ba7", "cd2", "d8-c7"];

    fn read(fen: &str, texts: &[&str], max_lines: usize) -> (Record, u64) {
        let v = variant("russian").unwrap();
        let budget = Budget::unlimited();
        let r = read_record(
            v,
            v.parse_fen(fen).unwrap(),
            texts,
            RecordOptions {
                max_lines,
                ..RecordOptions::default()
            },
            &budget,
        )
        .unwrap();
        (r, budget.used())
    }

    fn codes(r: &Record) -> Vec<(&'static str, usize)> {
        r.warnings.iter().map(|w| (w.kind.code(), w.ply)).collect()
    }

    #[test]
    fn readings_that_all_stay_legal_judge_the_first_and_say_so() {
        let (r, _) = read(KINGS, &AMBIGUOUS, MAX_LINES);
        assert_eq!(r.judgement.verdict, Verdict::Undecided);
        assert_eq!(
            codes(&r),
            [
                ("ambiguous-move-unresolved", 1),
                ("ambiguous-move-unresolved", 2),
                ("ambiguous-move-unresolved", 3)
            ]
        );
        let w = &r.warnings[0];
        assert_eq!(w.reading.as_deref(), Some("a1-b2"));
        assert_eq!(w.alternatives, ["a3-b2"]);
        assert_eq!(w.verdict_differs, Some(false));
        // One line, then one per other reading.
        assert_eq!(r.lines, 4);
    }

    #[test]
    fn a_reading_that_breaks_a_later_move_is_dropped() {
        // b2-a3 two plies later is legal only if ab2 came from a3.
        let (r, _) = read(KINGS, &["ab2", "ba7", "b2-a3"], MAX_LINES);
        assert_eq!(r.judgement.verdict, Verdict::Undecided, "{:?}", r.warnings);
        assert_eq!(r.judgement.moves[0].long, "a3-b2");
        let w = &r.warnings[0];
        assert_eq!(w.kind, WarningKind::AmbiguousMoveResolved);
        assert_eq!(
            (w.ply, w.alternatives.as_slice()),
            (1, &["a1-b2".to_string()][..])
        );
        assert!(w.detail.contains("ply 3"), "{}", w.detail);
    }

    #[test]
    fn a_record_with_no_legal_reading_is_invalid_after_every_reading_was_tried() {
        let mut texts = AMBIGUOUS.to_vec();
        texts.push("e5-f6");
        let (r, _) = read(KINGS, &texts, MAX_LINES);
        assert_eq!(r.judgement.verdict, Verdict::Invalid);
        assert_eq!(r.judgement.illegal.as_ref().unwrap().ply, 5);
        assert_eq!(r.illegal_text, Some(4));
        // 2 × 2 × 2 lines, every one tried.
        assert_eq!(r.lines, 8);
        assert!(
            r.warnings
                .iter()
                .all(|w| w.kind == WarningKind::AmbiguousMoveUnresolved
                    && w.verdict_differs.is_none())
        );
        assert!(r.warnings[0].detail.contains("no reading keeps"));
    }

    #[test]
    fn the_search_stops_at_its_bound_and_says_so() {
        let mut texts = AMBIGUOUS.to_vec();
        texts.push("e5-f6");
        let (one, one_cost) = read(KINGS, &texts, 1);
        assert_eq!(one.lines, 1);
        for bound in [2, 3, 5] {
            let (r, cost) = read(KINGS, &texts, bound);
            assert_eq!(r.lines, bound);
            assert_eq!(r.judgement.verdict, Verdict::Invalid);
            assert_eq!(r.warnings[0].kind, WarningKind::SearchBoundReached);
            // The work grows with the bound, one replay of the game per line at most.
            assert!(
                cost <= one_cost * bound as u64,
                "{cost} > {bound} × {one_cost}"
            );
        }
    }

    /// 40 moves of Russian kings written in the file form (`ab2`: the piece on the a-file
    /// that goes to b2), 15 of them naming two or more moves; then a text that is no legal
    /// move. (Found by playing random games from `CROWD` and preferring, at every ply, a move
    /// whose file form is ambiguous.)
    const CROWD: &str = "W:WKa1,Ka3,Kc1,Kc3,Ke1,Ke3,Kg1,Kg3:BKb8,Kb6,Kd8,Kd6,Kf8,Kf6,Kh8,Kh6";
    const HOSTILE: &str = "ea7 dh2 cg7 hf6 ah8 hf4 cg5 dh4 ac5 fb4 ea5 hg5 ab6 gh6 he5 bf4 \
                           ba5 hg5 ab6 fh2 gc5 hg3 ac3 gh4 cb4 hg5 ba5 gh4 ac3 hg3 cb4 gf4 \
                           ba5 fd2 ce1 gd2 eb4 hd6 be7 a2-b3";

    #[test]
    fn a_hostile_record_stays_bounded() {
        let texts: Vec<&str> = HOSTILE.split_whitespace().collect();
        let (r, cost) = read(CROWD, &texts, MAX_LINES);
        assert_eq!(r.lines, MAX_LINES);
        assert_eq!(r.warnings[0].kind, WarningKind::SearchBoundReached);
        assert_eq!(r.judgement.verdict, Verdict::Invalid);
        // About one replay of the game per line: the furthest line, replayed strictly in its
        // long forms, costs at least what each line costs up to twice.
        let v = variant("russian").unwrap();
        let strict = Budget::unlimited();
        let mut long: Vec<&str> = r.judgement.moves.iter().map(|d| d.long.as_str()).collect();
        long.push("a2-b3");
        crate::outcome::judge(v, v.parse_fen(CROWD).unwrap(), &long, &strict).unwrap();
        assert!(
            cost <= 2 * strict.used() * MAX_LINES as u64,
            "{cost} units, {} for one replay",
            strict.used()
        );
        let ambiguous = r
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::AmbiguousMoveUnresolved)
            .count();
        assert!(ambiguous >= 10, "{:?}", codes(&r));
    }

    #[test]
    fn verdict_would_differ() {
        // g1:g5 is g1:e3:g5 (taking f2 and f4) or g1:c5:a3:c1:g5 (taking f2, b4, b2 and f4):
        // Russian kings need not take the most pieces. The longer capture leaves Black without
        // a piece, so the game is a White win under that reading only.
        let fen = "W:WKg1,h6:BKb4,f4,Kf2,Kb2";
        let (r, _) = read(fen, &["g1:g5"], MAX_LINES);
        assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
        let w = &r.warnings[0];
        assert_eq!(w.kind, WarningKind::VerdictWouldDiffer, "{w:?}");
        assert_eq!(w.verdict_differs, Some(true));
        let mut both = vec![w.reading.clone().unwrap(), w.alternatives[0].clone()];
        both.sort();
        assert_eq!(both, ["g1:c5:a3:c1:g5", "g1:e3:g5"]);
        assert_eq!(Some(&r.judgement.moves[0].long), w.reading.as_ref());
        let won = r.judgement.verdict == Verdict::WhiteWins;
        assert_eq!(won, r.judgement.moves[0].long == "g1:c5:a3:c1:g5");
    }

    #[test]
    fn an_incomplete_long_form_is_read_as_the_one_route_through_its_squares() {
        // PDN 3.0, capture disambiguation: 47x24x36 is not a PDN long form (it leaves out 38
        // and 13), so the strict reading refuses it; a record names the capture 47x38x24x13x36
        // with it.
        let v = variant("international").unwrap();
        let pos = v.parse_fen("W:WK47:B14,19,29,31,42").unwrap();
        assert!(v
            .parse_move(&pos, "47x24x36", &Budget::unlimited())
            .is_err());
        let budget = Budget::unlimited();
        let r = read_record(v, pos, &["47x24x36"], RecordOptions::default(), &budget).unwrap();
        assert_eq!(r.judgement.moves[0].long, "47x38x24x13x36");
        let w = &r.warnings[0];
        assert_eq!((w.kind, w.ply), (WarningKind::IncompleteRoute, 1));
        // Squares in the wrong order name no route.
        let r = read_record(v, pos, &["47x13x24x36"], RecordOptions::default(), &budget).unwrap();
        assert_eq!(r.judgement.verdict, Verdict::Invalid);
    }

    #[test]
    fn rotation_turns_algebraic_squares_half_a_turn() {
        let v = variant("english").unwrap();
        assert_eq!(rotate_text(v, "c3-d4"), "f6-e5");
        assert_eq!(rotate_text(v, "e1xc3"), "d8xf6");
        assert_eq!(rotate_text(v, "11-15"), "11-15");
    }
}
