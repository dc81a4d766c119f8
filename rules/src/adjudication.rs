//! Adjudication of game records: a PDN game (or a move list) judged under its variant's
//! rules, with the declared result checked against what the moves show.
//!
//! On top of the rules, a game they leave running can be adjudicated as match runners do
//! (cutechess-cli's `-tb` and `-maxmoves`, fastchess's `-tbadjudicate`): by the endgame
//! tables ([`Adjudication::tables`]) and at a move limit ([`Adjudication::max_plies`]). See
//! [`adjudicate`].

use crate::budget::Budget;
use crate::budget::GenError;
use crate::catalogue::{choose_variant, VariantChoice};
use crate::notation::pdn::{PdnGame, PdnNoteKind};
use crate::outcome::DrawClock;
use crate::outcome::{Judgement, Reason, Verdict};
use crate::position::{Color, Position};
use crate::records::{read_record, RecordOptions, RecordWarning, WarningKind, MAX_LINES};
use crate::tables::{supported, Material, TableValue, Value};
use crate::variant::{ResultStyle, Variant};

/// Whose score a PDN result (`1-0`, `2-0`...) writes first.
///
/// PDN 3.0 (pdn.fmjd.org, "PDN Tags", Result): "The result codes are given from the
/// perspective of the 1st side to move", the colour that starts a game of the variant (its
/// GameType's start colour). That is White in most variants, Black in English, Pool and Thai,
/// where English files disagree: CheckerBoard and PlayStrategy write the first mover's
/// (Black's) score first, some programs White's, as chess does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ResultConvention {
    /// The first figure is the score of the side that moves first in the variant (PDN 3.0).
    #[default]
    FirstMover,
    /// The first figure is always White's.
    WhiteFirst,
}

impl ResultConvention {
    pub const ALL: [ResultConvention; 2] =
        [ResultConvention::FirstMover, ResultConvention::WhiteFirst];

    /// `first-mover` or `white-first`.
    pub fn parse(s: &str) -> Option<ResultConvention> {
        ResultConvention::ALL
            .into_iter()
            .find(|c| c.code().eq_ignore_ascii_case(s.trim()))
    }

    pub fn code(self) -> &'static str {
        match self {
            ResultConvention::FirstMover => "first-mover",
            ResultConvention::WhiteFirst => "white-first",
        }
    }

    /// The colour whose score a result of `variant` writes first.
    pub fn first_figure(self, variant: &Variant) -> Color {
        match self {
            ResultConvention::FirstMover => variant.first_mover(),
            ResultConvention::WhiteFirst => Color::White,
        }
    }

    fn other(self) -> ResultConvention {
        match self {
            ResultConvention::FirstMover => ResultConvention::WhiteFirst,
            ResultConvention::WhiteFirst => ResultConvention::FirstMover,
        }
    }
}

/// How a game record is read and judged: the result convention, the bound on the readings of
/// ambiguous moves tried ([`crate::records`]) and the adjudication on top of the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    pub convention: ResultConvention,
    pub max_lines: usize,
    pub adjudication: Adjudication,
    /// Also write the judged game as canonical PDN text ([`GameReport::pdn`]).
    pub write_pdn: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            convention: ResultConvention::default(),
            max_lines: MAX_LINES,
            adjudication: Adjudication::default(),
            write_pdn: false,
        }
    }
}

/// How a game the rules leave running is decided, as match runners adjudicate unfinished
/// games (cutechess-cli's `-tb` and `-maxmoves`, fastchess's `-tbadjudicate`). The default
/// adjudicates nothing: the rules alone judge.
///
/// The variant's rules come first, draw rules included: a game they end (by the moves, an
/// end rule or an automatic draw rule, before the move limit) is never re-decided. The tables
/// decide by the value under the variant's counting rules, from the counts of the game
/// judged ([`crate::tables::Tables::probe_rules`]): a win that a count would turn into a draw
/// before it comes is adjudicated a draw, and the reason names the rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Adjudication {
    /// A game the rules leave undecided whose final position is in the endgame tables is
    /// decided by them ([`Reason::EndgameTables`]).
    pub tables: bool,
    /// A move limit: a game still running at this ply is decided there, by the tables when
    /// `tables` is set and they can, else drawn ([`Reason::MoveLimit`]); the moves after it
    /// are not judged ([`Judgement::moves_after_end`]).
    pub max_plies: Option<usize>,
}

/// A probe of the endgame tables: what they say of a position of a game, its game-theoretic
/// value and its value under the counting rules with the game's counts ([`TableValue`]);
/// `Ok(None)` when it is not in the tables, `Err` (a reason) when they cannot be probed. It
/// may build a table, so it can take long: [`adjudicate`] charges [`PROBE_UNITS`] first.
pub type Probe<'a> = dyn FnMut(&'static Variant, &Position, &DrawClock, &Budget) -> Result<Option<TableValue>, String>
    + 'a;

/// The probe of a judge without tables: no position is in them.
pub fn no_tables(
    _: &'static Variant,
    _: &Position,
    _: &DrawClock,
    _: &Budget,
) -> Result<Option<TableValue>, String> {
    Ok(None)
}

/// Work units a probe of the endgame tables is charged (it may build a table on first use):
/// more than the slice of work a service tries before moving work off its I/O threads.
pub const PROBE_UNITS: u64 = 100_000;

/// Applies `adjudication` to a judgement of `variant` (made with the move limit
/// `adjudication.max_plies`, so that it has at most that many plies), probing the tables
/// with `probe`. A game the rules decided, and an invalid one, are left as they are. An
/// undecided game is decided, at its last ply:
///
/// - by the tables, when `adjudication.tables` is set and the final position is in them: the
///   side to move wins, loses or draws as its value under the counting rules says, from the
///   game's counts ([`Reason::EndgameTables`], with the material, the plies to the end under
///   best play and the rule that draws a game-theoretic win);
/// - else, when it reached the move limit, as a draw ([`Reason::MoveLimit`]).
///
/// Returns warnings: the variant has no tables (`tables-unsupported`), or the probe failed
/// (`tables-unavailable`); the game is then judged without them. Errors only when the budget
/// is spent (the probe is charged [`PROBE_UNITS`]).
pub fn adjudicate(
    variant: &'static Variant,
    j: &mut Judgement,
    adjudication: Adjudication,
    probe: &mut Probe,
    budget: &Budget,
) -> Result<Vec<RecordWarning>, GenError> {
    let mut warnings = Vec::new();
    if j.verdict != Verdict::Undecided {
        return Ok(warnings);
    }
    let ply = j.moves.len();
    let at_limit = adjudication.max_plies.filter(|&n| ply >= n);
    if adjudication.tables {
        match supported(variant) {
            Err(u) => warnings.push(RecordWarning::game(
                WarningKind::TablesUnsupported,
                variant.id(),
                format!(
                    "{} has no endgame tables ({}); the game is judged without them",
                    variant.id(),
                    u.reason
                ),
            )),
            Ok(()) => {
                budget.charge(PROBE_UNITS)?;
                match probe(variant, &j.final_position, &j.clock, budget) {
                    Ok(Some(found)) => {
                        let side = j.final_position.side();
                        // The value under the counting rules decides: a win the counts
                        // draw is a draw.
                        j.verdict = match found.rules.value {
                            Value::Win(_) => Verdict::win_for(side),
                            Value::Loss(_) => Verdict::win_for(side.opponent()),
                            Value::Draw => Verdict::Draw,
                        };
                        let plies = match found.rules.value {
                            Value::Draw => None,
                            _ => found.value.plies(),
                        };
                        j.reason = Some(Reason::EndgameTables {
                            material: Material::of(&j.final_position),
                            plies,
                            move_limit: at_limit,
                            drawn_by: found.drawn_by,
                        });
                        j.decided_at_ply = Some(ply);
                        return Ok(warnings);
                    }
                    Ok(None) => {}
                    Err(why) => warnings.push(RecordWarning::game(
                        WarningKind::TablesUnavailable,
                        Material::of(&j.final_position).name(),
                        format!(
                            "the endgame tables could not be probed ({why}); the game is \
                             judged without them"
                        ),
                    )),
                }
            }
        }
    }
    if let Some(limit) = at_limit {
        j.verdict = Verdict::Draw;
        j.reason = Some(Reason::MoveLimit { limit });
        j.decided_at_ply = Some(ply);
    }
    Ok(warnings)
}

/// The PDN result text of a verdict in the variant's style (`2-0` or `1-0`...), the figures in
/// the order of `convention`; `*` when the game is undecided or invalid.
pub fn result_text(
    variant: &Variant,
    verdict: Verdict,
    convention: ResultConvention,
) -> &'static str {
    let first = convention.first_figure(variant);
    let international = variant.spec().result_style == ResultStyle::International;
    let first_won = match verdict {
        Verdict::WhiteWins => first == Color::White,
        Verdict::BlackWins => first == Color::Black,
        Verdict::Draw => return if international { "1-1" } else { "1/2-1/2" },
        Verdict::Undecided | Verdict::Invalid => return "*",
    };
    match (international, first_won) {
        (true, true) => "2-0",
        (true, false) => "0-2",
        (false, true) => "1-0",
        (false, false) => "0-1",
    }
}

/// A declared result, as written in a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    WhiteWins,
    BlackWins,
    Draw,
    /// `0-0`: both players lost (double forfeit).
    DoubleForfeit,
    /// `*`: unknown or unfinished.
    Unknown,
}

impl Declared {
    /// Reads `1-0`, `2-0`, `0-1`, `0-2`, `1/2-1/2`, `1-1`, `0-0`, `*` (`:` for `-` too) and the
    /// words `white_wins`, `black_wins`, `draw`; the figures name a winner by `convention`.
    pub fn read(s: &str, variant: &Variant, convention: ResultConvention) -> Option<Declared> {
        let first = convention.first_figure(variant);
        let win = |c: Color| match c {
            Color::White => Declared::WhiteWins,
            Color::Black => Declared::BlackWins,
        };
        Some(match s.trim().replace(':', "-").as_str() {
            "1-0" | "2-0" => win(first),
            "0-1" | "0-2" => win(first.opponent()),
            "white_wins" => Declared::WhiteWins,
            "black_wins" => Declared::BlackWins,
            "1/2-1/2" | "1-1" | "½-½" | "draw" => Declared::Draw,
            "0-0" => Declared::DoubleForfeit,
            "*" | "-" | "?" => Declared::Unknown,
            _ => return None,
        })
    }

    fn verdict(self) -> Option<Verdict> {
        match self {
            Declared::WhiteWins => Some(Verdict::WhiteWins),
            Declared::BlackWins => Some(Verdict::BlackWins),
            Declared::Draw => Some(Verdict::Draw),
            _ => None,
        }
    }
}

/// `1-0` as read: "1-0 (a win for Black: the first mover's score first)" where the convention
/// matters (the variant's first mover is Black), else the text alone.
fn declared_words(text: &str, d: Declared, variant: &Variant, c: ResultConvention) -> String {
    let by_figures = text.chars().next().is_some_and(|ch| ch.is_ascii_digit());
    if variant.first_mover() == Color::White
        || !by_figures
        || !matches!(d, Declared::WhiteWins | Declared::BlackWins)
    {
        return text.to_string();
    }
    let whose = match c {
        ResultConvention::FirstMover => "the first mover's score first",
        ResultConvention::WhiteFirst => "White's score first",
    };
    let winner = if d == Declared::WhiteWins {
        "White"
    } else {
        "Black"
    };
    format!("{text} (a win for {winner}, reading {whose})")
}

/// Whether a declared result agrees with the judgement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// `Some(true)`: the moves show this result; `Some(false)`: they show another one;
    /// `None`: the moves cannot confirm it (undecided game, illegal move, no result given).
    pub agrees: Option<bool>,
    pub explanation: String,
}

fn verdict_words(v: Verdict) -> &'static str {
    match v {
        Verdict::WhiteWins => "a win for White",
        Verdict::BlackWins => "a win for Black",
        Verdict::Draw => "a draw",
        Verdict::Undecided => "undecided",
        Verdict::Invalid => "invalid",
    }
}

fn reason_words(variant: &Variant, j: &Judgement) -> String {
    match j.reason {
        Some(Reason::NoLegalMoves) => {
            let side = j.final_position.side();
            format!(
                "{} has no legal move after ply {}",
                capitalised(side),
                j.decided_at_ply.unwrap_or(0)
            )
        }
        Some(Reason::NoPieces) => {
            let side = j.final_position.side().opponent();
            format!(
                "{} has no piece left after ply {}",
                capitalised(side),
                j.decided_at_ply.unwrap_or(0)
            )
        }
        Some(Reason::End(code)) => {
            let rule = variant.rules().ends.iter().find(|e| e.code == code);
            format!(
                "the {} rule ended the game at ply {}{}",
                code.code(),
                j.decided_at_ply.unwrap_or(0),
                rule.map(|r| format!(" ({})", r.trigger()))
                    .unwrap_or_default()
            )
        }
        Some(Reason::Draw(code)) => {
            let rule = variant.rules().draws.iter().find(|d| d.code == code);
            format!(
                "the {} rule ended the game at ply {}{}",
                code.code(),
                j.decided_at_ply.unwrap_or(0),
                rule.map(|r| format!(" ({})", r.text)).unwrap_or_default()
            )
        }
        Some(Reason::EndgameTables {
            material,
            plies,
            move_limit,
            drawn_by,
        }) => {
            let at = j.decided_at_ply.unwrap_or(0);
            let stopped = move_limit
                .map(|n| {
                    format!(
                        ", where the game stopped at the move limit of {}",
                        plies_words(n)
                    )
                })
                .unwrap_or_default();
            let value = match (j.verdict, plies) {
                (Verdict::Draw, _) | (_, None) => "a draw".to_string(),
                (v, Some(n)) => format!("{} in {}", verdict_words(v), plies_words(n)),
            };
            match drawn_by {
                Some(code) => format!(
                    "the endgame tables give the position after ply {at}{stopped} ({material}) \
                     as a win under best play, but the {} rule draws it before the win comes, \
                     with the game's counts: a draw",
                    code.code()
                ),
                None => format!(
                    "the endgame tables give the position after ply {at}{stopped} ({material}) \
                     as {value} under best play, with the game's counts"
                ),
            }
        }
        Some(Reason::MoveLimit { limit }) => format!(
            "the game was still running at the move limit of {}, adjudicated a draw",
            plies_words(limit)
        ),
        None => String::new(),
    }
}

fn capitalised(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Checks a declared result (its text as written) against a judgement, with the default
/// result convention ([`ResultConvention::FirstMover`]).
pub fn check_declared(variant: &Variant, j: &Judgement, declared: Option<&str>) -> Agreement {
    check_declared_with(variant, j, declared, ResultConvention::default())
}

/// Checks a declared result against a judgement, its figures read by `convention`.
pub fn check_declared_with(
    variant: &Variant,
    j: &Judgement,
    declared: Option<&str>,
    convention: ResultConvention,
) -> Agreement {
    let Some(text) = declared else {
        return Agreement {
            agrees: None,
            explanation: "no result was declared".into(),
        };
    };
    let Some(d) = Declared::read(text, variant, convention) else {
        return Agreement {
            agrees: None,
            explanation: format!("'{text}' is not a PDN result"),
        };
    };
    let words = declared_words(text, d, variant, convention);
    let text = words.as_str();
    if j.verdict == Verdict::Invalid {
        let ply = j.illegal.as_ref().map(|i| i.ply).unwrap_or(0);
        return Agreement {
            agrees: None,
            explanation: format!(
                "declared {text}, but the record has an illegal move at ply {ply}, so the moves \
                 cannot confirm any result"
            ),
        };
    }
    match (d, j.verdict) {
        (Declared::Unknown, Verdict::Undecided) => Agreement {
            agrees: None,
            explanation: "the result is declared unknown (*) and the moves do not decide the game"
                .into(),
        },
        (Declared::Unknown, v) => Agreement {
            agrees: Some(false),
            explanation: format!(
                "declared * (unknown), but the game is {}: {}",
                verdict_words(v),
                reason_words(variant, j)
            ),
        },
        (_, Verdict::Undecided) => {
            let claim = j.claimable.first();
            match (d, claim) {
                (Declared::Draw, Some(c)) => Agreement {
                    agrees: Some(true),
                    explanation: format!(
                        "declared {text}: a draw could be claimed under the {} rule from ply {}",
                        c.code.code(),
                        c.ply
                    ),
                },
                (Declared::DoubleForfeit, _) => Agreement {
                    agrees: None,
                    explanation: format!(
                        "declared {text} (double forfeit): a decision outside the rules"
                    ),
                },
                _ => Agreement {
                    agrees: None,
                    explanation: format!(
                        "declared {text} but the game is undecided: the result must come from \
                         resignation, time or agreement"
                    ),
                },
            }
        }
        (d, v) => {
            if d.verdict() == Some(v) {
                Agreement {
                    agrees: Some(true),
                    explanation: format!(
                        "declared {text}, {}: {}",
                        verdict_words(v),
                        reason_words(variant, j)
                    ),
                }
            } else {
                Agreement {
                    agrees: Some(false),
                    explanation: format!(
                        "declared {text} but the game is {}: {}",
                        verdict_words(v),
                        reason_words(variant, j)
                    ),
                }
            }
        }
    }
}

/// Why a game of a file could not be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game's text is broken (unterminated comment, malformed tag...).
    Text(String),
    /// Its GameType or Variant tag names a variant this service does not support.
    UnsupportedVariant(String),
    /// No GameType or Variant tag, and no variant was given with the request.
    NoVariant,
    /// Its FEN tag is not a valid position.
    BadFen(String),
    /// More plies than the bound.
    TooManyPlies { plies: usize, limit: usize },
    /// The capture enumeration bound was exceeded.
    Gen(GenError),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Text(e) => write!(f, "{e}"),
            GameError::UnsupportedVariant(what) => {
                write!(f, "{what} is not a variant this service supports")
            }
            GameError::NoVariant => write!(
                f,
                "the game has no GameType or Variant tag and no variant was given"
            ),
            GameError::BadFen(e) => write!(f, "FEN tag: {e}"),
            GameError::TooManyPlies { plies, limit } => {
                write!(
                    f,
                    "the game has {plies} plies, more than the bound of {limit}"
                )
            }
            GameError::Gen(e) => write!(f, "{e}"),
        }
    }
}

/// A warning when the moves decide the game against the declared result, which would agree
/// if its figures were read by the other convention (the file may write the other side's
/// score first). The declared result is never flipped: this only says so.
pub fn convention_warning(
    variant: &Variant,
    j: &Judgement,
    declared: Option<&str>,
    convention: ResultConvention,
) -> Option<RecordWarning> {
    let text = declared?;
    if !matches!(j.verdict, Verdict::WhiteWins | Verdict::BlackWins) {
        return None;
    }
    let read = Declared::read(text, variant, convention)?.verdict()?;
    let other = convention.other();
    let read_other = Declared::read(text, variant, other)?.verdict()?;
    if read == j.verdict || read_other != j.verdict {
        return None;
    }
    Some(RecordWarning::game(
        WarningKind::ResultConvention,
        text,
        format!(
            "the moves end the game with {}, and the declared {text} disagrees when read with \
             result_convention={}; read with result_convention={} it agrees: the record may \
             write {} score first",
            verdict_words(j.verdict),
            convention.code(),
            other.code(),
            match other {
                ResultConvention::WhiteFirst => "White's",
                ResultConvention::FirstMover => "the first mover's",
            }
        ),
    ))
}

/// A judged game: a PDN game of a file, or a move list.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub variant: &'static Variant,
    pub judgement: Judgement,
    /// Move number of the first illegal move, if any (a PDN game's, as written before it).
    pub illegal_move_number: Option<u32>,
    pub declared: Option<String>,
    pub agreement: Agreement,
    /// What the record reader did to read the game ([`crate::records`]), and what the
    /// adjudication and the declared result's reading noticed, in the order they are written.
    pub warnings: Vec<RecordWarning>,
    /// The convention the results were read and written with.
    pub convention: ResultConvention,
    /// The result the moves show, in the variant's PDN style ([`result_text`]).
    pub result: &'static str,
    /// The move counters of the game's FEN (lidraughts' `H` and `F` fields), if it had
    /// them; the judge's count of plies without a man move or capture started from `H`.
    pub counters: Option<crate::Counters>,
    /// The position the game started from (its FEN, else the variant's start).
    pub start: Position,
    /// The game as canonical PDN text ([`write_pdn`]), when [`ReadOptions::write_pdn`].
    pub pdn: Option<String>,
}

/// A game of a file that cannot be judged, and the variant it was read under when one was
/// chosen.
#[derive(Clone, Debug)]
pub struct GameFailure {
    pub error: GameError,
    pub variant: Option<&'static Variant>,
}

/// Judges a game given as a move list from `start` (whose FEN had the move counters
/// `counters`): the moves read as a record ([`crate::records`]), adjudicated by
/// `options.adjudication` ([`adjudicate`], the tables probed with `probe`), `declared` read
/// with `options.convention`, the work charged to `budget`.
#[allow(clippy::too_many_arguments)]
pub fn judge_moves<S: AsRef<str>>(
    variant: &'static Variant,
    start: Position,
    counters: Option<crate::Counters>,
    moves: &[S],
    declared: Option<&str>,
    options: ReadOptions,
    probe: &mut Probe,
    budget: &Budget,
) -> Result<GameReport, GenError> {
    let game = Game {
        variant,
        start,
        counters,
        tags: &[],
        declared,
    };
    judge(game, moves, Vec::new(), options, probe, budget).map(|(report, _)| report)
}

/// What [`judge`] judges besides the moves.
struct Game<'a> {
    variant: &'static Variant,
    start: Position,
    counters: Option<crate::Counters>,
    /// The record's tags, for its PDN text.
    tags: &'a [(String, String)],
    declared: Option<&'a str>,
}

/// The judgement of a game's moves, `warnings` (what reading its text noticed) first among
/// its warnings; with the index of the first illegal move's text.
fn judge<S: AsRef<str>>(
    game: Game,
    moves: &[S],
    mut warnings: Vec<RecordWarning>,
    options: ReadOptions,
    probe: &mut Probe,
    budget: &Budget,
) -> Result<(GameReport, Option<usize>), GenError> {
    let Game {
        variant,
        start,
        counters,
        tags,
        declared,
    } = game;
    let record_options = RecordOptions {
        halfmoves: counters.map_or(0, |c| c.halfmoves),
        max_lines: options.max_lines,
        max_plies: options.adjudication.max_plies,
    };
    let record = read_record(variant, start, moves, record_options, budget)?;
    let mut judgement = record.judgement;
    let adjudication_warnings =
        adjudicate(variant, &mut judgement, options.adjudication, probe, budget)?;
    let convention = options.convention;
    let agreement = check_declared_with(variant, &judgement, declared, convention);
    warnings.extend(convention_warning(
        variant, &judgement, declared, convention,
    ));
    warnings.extend(record.warnings);
    warnings.extend(adjudication_warnings);
    let pdn = options.write_pdn.then(|| {
        write_pdn(&PdnOut {
            variant,
            tags,
            start: &start,
            counters,
            judgement: &judgement,
            warnings: &warnings,
            result: &result_for_pdn(variant, &judgement, declared, convention),
        })
    });
    let report = GameReport {
        variant,
        result: result_text(variant, judgement.verdict, convention),
        judgement,
        illegal_move_number: None,
        declared: declared.map(str::to_string),
        agreement,
        warnings,
        convention,
        counters,
        start,
        pdn,
    };
    Ok((report, record.illegal_text))
}

/// Judges one game of a PDN file: its moves ([`judge_moves`]) from its FEN tag, under the
/// variant its tags name (`explicit` overrides them), its `Result` tag the declared result;
/// what reading its text noticed comes first among the warnings. A game that cannot be judged
/// is a [`GameFailure`].
pub fn judge_pdn_game(
    game: &PdnGame,
    explicit: Option<&'static Variant>,
    max_plies: usize,
    options: ReadOptions,
    probe: &mut Probe,
    budget: &Budget,
) -> Result<GameReport, GameFailure> {
    let fail = |error, variant| GameFailure { error, variant };
    if let Some(e) = &game.error {
        return Err(fail(GameError::Text(e.clone()), None));
    }
    let found = match choose_variant(game, explicit) {
        VariantChoice::Found(v) => v,
        VariantChoice::Unsupported(what) => {
            return Err(fail(GameError::UnsupportedVariant(what), None))
        }
        VariantChoice::Missing => return Err(fail(GameError::NoVariant, None)),
    };
    let variant = Some(found);
    if game.plies > max_plies || game.moves.len() > max_plies {
        let error = GameError::TooManyPlies {
            plies: game.plies.max(game.moves.len()),
            limit: max_plies,
        };
        return Err(fail(error, variant));
    }
    let (start, counters) = match game.tag("FEN").map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => found
            .parse_start_fen_counters(fen)
            .map_err(|e| fail(GameError::BadFen(e.to_string()), variant))?,
        None => (found.start(), None),
    };
    let texts: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
    let declared = game.declared_result();
    let convention = options.convention;
    // Where the grammar has no name for the variant's squares or pieces (the Camelot family:
    // squares past h8, knights), its moves or FEN are no deviation the record could mend: the
    // record is read in the variant's own notation, and a move it cannot read is said by the
    // move reading.
    let beyond = |kind: PdnNoteKind| match kind {
        PdnNoteKind::MalformedMove => found.beyond_pdn_squares(),
        PdnNoteKind::InvalidFen => found.beyond_pdn_fen(),
        _ => false,
    };
    let mut warnings: Vec<RecordWarning> = game
        .notes
        .iter()
        .filter(|n| !beyond(n.kind))
        .map(RecordWarning::from)
        .collect();
    if game.placeholders > 0 {
        warnings.push(RecordWarning::game(
            WarningKind::UnknownMoves,
            "-",
            format!(
                "the move text has {} placeholders '-' where the moves should be: the moves \
                 are unknown",
                game.placeholders
            ),
        ));
    }
    if let (Some(tag), Some(end)) = (game.tag("Result"), game.terminator.as_deref()) {
        let read = |t: &str| Declared::read(t, found, convention);
        if let (Some(a), Some(b)) = (read(tag), read(end)) {
            if a != b && a != Declared::Unknown && b != Declared::Unknown {
                warnings.push(RecordWarning::game(
                    WarningKind::ResultTagConflict,
                    format!("{} / {end}", tag.trim()),
                    format!(
                        "the Result tag says {} and the game terminator {end}; the tag is the \
                         declared result",
                        tag.trim()
                    ),
                ));
            }
        }
    }
    let judged = Game {
        variant: found,
        start,
        counters,
        tags: &game.tags,
        declared,
    };
    let (mut report, illegal_text) = judge(judged, &texts, warnings, options, probe, budget)
        .map_err(|e| fail(GameError::Gen(e), variant))?;
    report.illegal_move_number = illegal_text
        .and_then(|i| game.moves.get(i))
        .and_then(|m| m.number);
    Ok(report)
}

/// What [`write_pdn`] writes a game from.
pub struct PdnOut<'a> {
    pub variant: &'a Variant,
    /// The game's tags, in order (a record's own; empty for a game sent as a move list).
    /// `GameType`, `Variant`, `FEN` and `Result` are written anew.
    pub tags: &'a [(String, String)],
    /// The position the game started from, and its move counters if its FEN had them.
    pub start: &'a Position,
    pub counters: Option<crate::Counters>,
    pub judgement: &'a Judgement,
    /// What the record reader did to read the moves (each becomes a comment after its ply).
    pub warnings: &'a [RecordWarning],
    /// The result to write: the judged one when the rules decided the game, else the
    /// declared one (a resignation, a result by agreement), else `*`.
    pub result: &'a str,
}

/// The result tag of a judged game: the judged result when the rules decided it; the
/// declared result when they did not (a game ended by resignation, time or agreement, which
/// the moves cannot show); `*` when a move is illegal or nothing was declared.
pub fn result_for_pdn<'a>(
    variant: &Variant,
    judgement: &Judgement,
    declared: Option<&'a str>,
    convention: ResultConvention,
) -> std::borrow::Cow<'a, str> {
    match judgement.verdict {
        Verdict::WhiteWins | Verdict::BlackWins | Verdict::Draw => {
            result_text(variant, judgement.verdict, convention).into()
        }
        Verdict::Invalid => "*".into(),
        Verdict::Undecided => declared
            .map(str::trim)
            .filter(|d| Declared::read(d, variant, convention).is_some())
            .map_or("*".into(), Into::into),
    }
}

/// Writes a judged game as canonical PDN 3.0 text: the tags (the variant's `GameType`, or a
/// `Variant` tag where it has no number; `FEN` when the game does not start from the
/// variant's start position; `Result`), then the moves legally played in canonical notation
/// with their move numbers, 80 columns at most a line, then the result. Every warning of the
/// record reader becomes a comment after its move, an illegal move a comment after the last
/// legal one (with the reason and the legal moves), and moves after the end of the game a
/// comment saying they were not judged.
pub fn write_pdn(out: &PdnOut) -> String {
    let v = out.variant;
    let j = out.judgement;
    let mut text = String::new();
    for (name, value) in out.tags {
        if !crate::notation::pdn::is_setup_tag(name) {
            text.push_str(&format!("[{} \"{}\"]\n", name, tag_value(value)));
        }
    }
    match v.spec().game_type {
        Some(gt) => text.push_str(&format!("[GameType \"{gt}\"]\n")),
        None => text.push_str(&format!("[Variant \"{}\"]\n", v.id())),
    }
    if *out.start != v.start() || out.counters.is_some() {
        text.push_str(&format!(
            "[FEN \"{}\"]\n",
            v.fen_counters(out.start, out.counters)
        ));
    }
    text.push_str(&format!("[Result \"{}\"]\n", tag_value(out.result)));
    text.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut number = out.counters.map_or(1, |c| c.fullmove);
    let mut side = out.start.side();
    let first = v.first_mover();
    let comment = |s: &str| format!("{{{}}}", s.replace(['{', '}'], ""));
    for w in out.warnings.iter().filter(|w| w.ply == 0) {
        tokens.push(comment(&format!("{}: {}", w.kind.code(), w.detail)));
    }
    for (i, d) in j.moves.iter().enumerate() {
        if side == first {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(d.notation.clone());
        for w in out.warnings.iter().filter(|w| w.ply == i + 1) {
            tokens.push(comment(&format!("{}: {}", w.kind.code(), w.detail)));
        }
        if side != first {
            number += 1;
        }
        side = side.opponent();
    }
    if let Some(ill) = &j.illegal {
        tokens.push(comment(&format!(
            "ply {}: '{}' is not a legal move ({}); legal: {}",
            ill.ply,
            ill.text,
            ill.error,
            ill.legal.join(", ")
        )));
    }
    match (j.reason, j.decided_at_ply) {
        (
            Some(
                reason @ Reason::EndgameTables {
                    material, plies, ..
                },
            ),
            Some(at),
        ) => {
            let value = plies
                .map(|n| format!(", {n} plies to the end"))
                .unwrap_or_default();
            tokens.push(comment(&format!(
                "adjudicated after ply {at}: {} ({material}{value})",
                reason.code()
            )));
        }
        (Some(reason @ Reason::MoveLimit { .. }), Some(at)) => {
            tokens.push(comment(&format!(
                "adjudicated after ply {at}: {}",
                reason.code()
            )));
        }
        (Some(reason), Some(at)) => {
            tokens.push(comment(&format!(
                "game over after ply {at}: {}",
                reason.code()
            )));
        }
        _ => {}
    }
    if j.moves_after_end > 0 {
        let when = match j.reason {
            Some(Reason::MoveLimit { .. }) => "after the move limit",
            Some(Reason::EndgameTables {
                move_limit: Some(_),
                ..
            }) => "after the move limit",
            _ => "after the end of the game",
        };
        tokens.push(comment(&format!(
            "{} more moves in the record, {when}, are not judged",
            j.moves_after_end
        )));
    }
    tokens.push(out.result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    text.push_str(&line);
    text.push('\n');
    text
}

/// A tag value as PDN writes it: `"` and `\` escaped.
fn tag_value(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// "1 ply", "2 plies".
pub fn plies_words(n: impl std::fmt::Display) -> String {
    let n = n.to_string();
    if n == "1" {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}
