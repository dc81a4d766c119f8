//! Judge a game: play its moves, apply the end and draw rules, adjudicate what the rules leave
//! running when asked, and check a declared result.

use arbiter_rules::adjudication::{
    judge_moves, plies_words, Adjudication, ReadOptions, ResultConvention,
};
use arbiter_rules::{Budget, DrawCode, Judgement, Reason, RecordWarning, Variant, Verdict};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::endgame::TableProbe;
use super::{counters_after, Side};
use crate::config::MAX_MOVES;
use crate::problem::{ApiError, PrecedenceRule, ProblemCode, ViolationCode};
use crate::tables::TableStore;

/// How a game the rules leave running is adjudicated, as match runners adjudicate
/// unfinished games (cutechess-cli's `-tb`, fastchess's `-tbadjudicate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Adjudicate)]
pub enum AdjudicateDto {
    /// The rules alone judge (the default).
    #[default]
    None,
    /// A game the rules leave undecided whose final position is in the endgame tables is
    /// decided by them (`ENDGAME_TABLES`).
    Tables,
}

/// The largest move limit (`max_plies`): the most plies a game may have.
pub const MAX_PLIES_LIMIT: usize = MAX_MOVES;

/// A result declared by the players or the tournament software (a game record's `Result`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = DeclaredResult)]
pub enum ClaimedResult {
    #[serde(rename = "white_wins")]
    WhiteWins,
    #[serde(rename = "black_wins")]
    BlackWins,
    #[serde(rename = "draw")]
    Draw,
    /// PDN: the side whose score comes first wins (see `result_convention`).
    #[serde(rename = "1-0")]
    Pdn10,
    /// PDN: the side whose score comes second wins.
    #[serde(rename = "0-1")]
    Pdn01,
    /// PDN: draw.
    #[serde(rename = "1/2-1/2")]
    PdnHalf,
    /// PDN (international style): the side whose score comes first wins.
    #[serde(rename = "2-0")]
    Pdn20,
    /// PDN (international style): the side whose score comes second wins.
    #[serde(rename = "0-2")]
    Pdn02,
    /// PDN (international style): draw.
    #[serde(rename = "1-1")]
    Pdn11,
    /// PDN: both players lost (double forfeit).
    #[serde(rename = "0-0")]
    Pdn00,
    /// PDN: unknown or unfinished.
    #[serde(rename = "*")]
    Unknown,
}

impl ClaimedResult {
    fn text(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    }
}

/// Whose score a PDN result writes first: `first-mover` (the default, PDN 3.0: "the result
/// codes are given from the perspective of the 1st side to move", so `1-0` is a Black win in
/// English, Pool and Thai, where Black moves first) or `white-first` (`1-0` is always a White
/// win, as chess writes it and some checkers programs do). Only variants whose first mover is
/// Black read differently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
#[schema(as = ResultConvention)]
pub enum ResultConventionDto {
    /// The first figure is the score of the side that moves first in the variant.
    #[default]
    FirstMover,
    /// The first figure is always White's.
    WhiteFirst,
}

impl From<ResultConventionDto> for ResultConvention {
    fn from(c: ResultConventionDto) -> ResultConvention {
        match c {
            ResultConventionDto::FirstMover => ResultConvention::FirstMover,
            ResultConventionDto::WhiteFirst => ResultConvention::WhiteFirst,
        }
    }
}

/// Something the record reader did to read the game, or noticed about it. The game is still
/// judged; a warning says what an adjudicator should know.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(as = RecordWarning)]
pub struct RecordWarningDto {
    /// Stable code: `ambiguous-move-resolved`, `ambiguous-move-unresolved`,
    /// `verdict-would-differ`, `search-bound-reached`, `incomplete-route`, `split-capture`,
    /// `text-after-move`, `not-a-move`, `algebraic-squares-rotated`, `tag-repaired`,
    /// `unknown-moves`, `result-tag-conflict`, `result-convention`, the PDN 3.0 grammar's
    /// codes with `strict` off, and for adjudication `tables-unsupported` (the variant has
    /// no endgame tables) or `tables-unavailable` (the tables could not be probed); the game
    /// is then judged without the tables.
    #[schema(example = "ambiguous-move-resolved")]
    pub code: String,
    /// The 1-based ply concerned; 0 for the game as a whole.
    #[schema(example = 37)]
    pub ply: usize,
    /// The text concerned, as written.
    #[schema(example = "10x26")]
    pub text: String,
    /// The move as read (long form), when a move was read.
    #[schema(example = "10x17x26")]
    pub reading: Option<String>,
    /// The other legal moves the text could name (long form), for an ambiguous text.
    #[schema(example = json!(["10x19x26"]))]
    pub alternatives: Vec<String>,
    /// For an ambiguous text: whether another reading that keeps the record legal to its end
    /// gives a different verdict (false when only the reading taken does); null when not
    /// every reading could be checked, when no reading is legal, and for other warnings.
    #[schema(example = false)]
    pub verdict_differs: Option<bool>,
    /// Explanation.
    #[schema(
        example = "10x26 matches 2 legal moves; only 10x17x26 keeps the rest of the record legal: 10x19x26 makes the move at ply 38 illegal"
    )]
    pub detail: String,
}

impl From<&RecordWarning> for RecordWarningDto {
    fn from(w: &RecordWarning) -> RecordWarningDto {
        RecordWarningDto {
            code: w.kind.code().to_string(),
            ply: w.ply,
            text: w.text.clone(),
            reading: w.reading.clone(),
            alternatives: w.alternatives.clone(),
            verdict_differs: w.verdict_differs,
            detail: w.detail.clone(),
        }
    }
}

/// The judge's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Verdict)]
pub enum VerdictDto {
    /// The rules (or the adjudication asked for) end the game with a White win.
    WhiteWins,
    /// The rules (or the adjudication asked for) end the game with a Black win.
    BlackWins,
    /// The rules (or the adjudication asked for) end the game in a draw.
    Draw,
    /// Every move is legal but neither the rules nor the adjudication asked for end the game.
    Undecided,
    /// A move is not legal (see `invalid_move`).
    Invalid,
}

impl From<Verdict> for VerdictDto {
    fn from(v: Verdict) -> VerdictDto {
        match v {
            Verdict::WhiteWins => VerdictDto::WhiteWins,
            Verdict::BlackWins => VerdictDto::BlackWins,
            Verdict::Draw => VerdictDto::Draw,
            Verdict::Undecided => VerdictDto::Undecided,
            Verdict::Invalid => VerdictDto::Invalid,
        }
    }
}

/// Why the game ended: a rule, or the adjudication asked for (`ENDGAME_TABLES`,
/// `MOVE_LIMIT`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(as = Reason)]
pub struct ReasonDto {
    /// Stable code: `NO_LEGAL_MOVES`, `NO_PIECES`, an end rule's code (`KING_CROWNED`) or a
    /// draw rule's (`REPETITION`, `KINGS_25`...); adjudicated (`adjudicate`, `max_plies`):
    /// `ENDGAME_TABLES` (the endgame tables decide the final position: `material`, `plies`)
    /// or `MOVE_LIMIT` (a draw at the move limit: `move_limit`).
    #[schema(example = "NO_LEGAL_MOVES")]
    pub code: String,
    /// Human-readable explanation.
    #[schema(example = "black, to move, has no legal move")]
    pub description: String,
    /// `ENDGAME_TABLES`: the material of the final position, White's pieces, `v`, Black's
    /// (`K` king, `M` man, `P` parachutist): `KKvK`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(null))]
    pub material: Option<String>,
    /// `ENDGAME_TABLES`: plies from the final position to the end of the game under best
    /// play (the winner hurrying, the loser delaying); absent for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(null))]
    pub plies: Option<u16>,
    /// `MOVE_LIMIT`, and `ENDGAME_TABLES` at the move limit: the limit (`max_plies`) at which
    /// the game was stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(null))]
    pub move_limit: Option<usize>,
    /// `ENDGAME_TABLES`: the counted draw rule (`FRISIAN_2V1_7`, `KINGS_25`...) that turns
    /// the tables' game-theoretic win into a draw, with the game's counts; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(null))]
    pub drawn_by: Option<String>,
}

impl ReasonDto {
    /// The reason of a judgement of `v`.
    pub fn of(v: &Variant, j: &Judgement, reason: Reason) -> ReasonDto {
        let (material, plies, move_limit, drawn_by) = match reason {
            Reason::EndgameTables {
                material,
                plies,
                move_limit,
                drawn_by,
            } => (
                Some(material.name()),
                plies,
                move_limit,
                drawn_by.map(|c| c.code().to_string()),
            ),
            Reason::MoveLimit { limit } => (None, None, Some(limit), None),
            _ => (None, None, None, None),
        };
        ReasonDto {
            code: reason.code().to_string(),
            description: describe_reason(v, j, reason),
            material,
            plies,
            move_limit,
            drawn_by,
        }
    }
}

/// The first move that is not legal.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct InvalidMove {
    /// 1-based ply of the move in the game.
    #[schema(example = 3)]
    pub ply: usize,
    /// The move text as sent.
    #[serde(rename = "move")]
    #[schema(example = "28-22")]
    pub move_text: String,
    /// `illegal-move`, `ambiguous-move` or `unparsable-move`.
    #[schema(value_type = String, example = "illegal-move")]
    pub code: ProblemCode,
    /// Why the move was refused.
    #[schema(
        example = "illegal move: 28-22 does not match any legal move; a capture is compulsory"
    )]
    pub reason: String,
    /// Illegal move: the first rule it breaks (as in a problem document's `violation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violation: Option<ViolationCode>,
    /// `capture-precedence`: the precedence rule the capture loses on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precedence: Option<PrecedenceRule>,
    /// The legal moves at that point, in canonical notation.
    #[schema(example = json!(["28x19"]))]
    pub legal_moves: Vec<String>,
    /// Ambiguous move: the moves the text matches, in long notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<String>>,
}

/// A draw the rules let a player claim (it is not automatic in this variant).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ClaimableDraw {
    /// Stable code of the draw rule.
    #[schema(example = "REPETITION")]
    pub code: String,
    /// The rule in readable form.
    #[schema(example = "claimable: the same position with the same side to move occurs 3 times")]
    pub description: String,
    /// The first ply after which the draw could be claimed.
    #[schema(example = 7)]
    pub ply: usize,
}

/// Where a draw rule's count stands in the final position of a game.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct DrawCounter {
    /// Stable code of the draw rule, as in the variant's `draw_rules`.
    #[schema(example = "KINGS_25")]
    pub code: String,
    /// `automatic` (the judge ends the game at the limit) or `claimable`.
    #[schema(example = "automatic")]
    pub mode: String,
    /// The count, in `limit_unit`: how often the final position has occurred (a repetition),
    /// or the plies counted so far. Counts start at the game's start position (from the
    /// half-move clock of a FEN that has one, for the rules that count plies without a man
    /// move or a capture).
    #[schema(example = 12)]
    pub count: u32,
    /// The count at which the rule draws.
    #[schema(example = 50)]
    pub limit: u16,
    /// `occurrences` or `plies`.
    #[schema(example = "plies")]
    pub limit_unit: String,
    /// Whether the rule's material condition holds in the final position (the endgame and
    /// balance rules count only while it does; `count` is 0 when it does not); always true
    /// for the repetition and no-progress rules.
    #[schema(example = true)]
    pub applies: bool,
}

/// The draw-rule counters of the final position of the game `j` of `v`.
pub fn draw_counters(v: &Variant, j: &Judgement) -> Vec<DrawCounter> {
    j.draw_counts
        .iter()
        .zip(&v.rules().draws)
        .map(|(c, d)| DrawCounter {
            code: c.code.code().to_string(),
            mode: if d.claim { "claimable" } else { "automatic" }.to_string(),
            count: c.count,
            limit: c.limit,
            limit_unit: d.limit().1.to_string(),
            applies: c.applies,
        })
        .collect()
}

/// Whether a declared result agrees with the moves (`/judge` and `/judge/pdn`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Agreement {
    /// true: the moves show the declared result; false: they show another one; null: the
    /// moves cannot confirm it (the game is undecided, so the result must come from
    /// resignation, time or agreement; or the record has an illegal move; or no result was
    /// declared).
    #[schema(example = true)]
    pub agrees: Option<bool>,
    /// Explanation.
    #[schema(example = "declared 2-0, a win for White: Black has no legal move after ply 1")]
    pub explanation: String,
}

/// The judgement of a game.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct JudgeResponse {
    /// The variant id.
    #[schema(example = "international")]
    pub variant: String,
    /// `white_wins`, `black_wins`, `draw`, `undecided` or `invalid`.
    #[schema(example = "undecided")]
    pub verdict: VerdictDto,
    /// Why the game ended (a rule, or the adjudication asked for); null when it did not.
    pub reason: Option<ReasonDto>,
    /// The result in PDN, in the variant's style (`1-0`/`2-0`...); `*` when undecided or
    /// invalid.
    #[schema(example = "*")]
    pub result: String,
    /// Number of moves legally played.
    #[schema(example = 4)]
    pub plies: usize,
    /// The ply after which the rules (or the adjudication) ended the game (0 = the start
    /// position itself).
    #[schema(example = json!(null))]
    pub decided_at_ply: Option<usize>,
    /// Moves sent after the game had ended, or after the move limit; they are not judged.
    #[schema(example = 0)]
    pub moves_after_end: usize,
    /// FEN of the position after the moves legally played.
    #[schema(
        example = "W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20,23"
    )]
    pub final_position: String,
    /// The side to move in the final position.
    #[schema(example = "white")]
    pub side_to_move: Side,
    /// The moves legally played, in canonical notation.
    #[schema(example = json!(["32-28", "19-23", "28x19", "14x23"]))]
    pub moves: Vec<String>,
    /// The first illegal move, when the verdict is `invalid`.
    pub invalid_move: Option<InvalidMove>,
    /// Draws a player could have claimed during the game (draw rules that are not automatic
    /// in this variant), each with the first ply it was available.
    pub claimable_draws: Vec<ClaimableDraw>,
    /// Where each draw rule of the variant stands in the final position, in the order of
    /// the variant's `draw_rules` (empty when it has none): how close the game is to a draw
    /// by rule.
    pub draw_counters: Vec<DrawCounter>,
    /// The declared result as sent; null when none was.
    #[schema(example = "1-1")]
    pub declared_result: Option<String>,
    /// The declared result checked against the moves; null when no result was declared.
    pub agreement: Option<Agreement>,
    /// What the record reader did to read the moves (an ambiguous capture resolved by the
    /// rest of the game, text glued to a move...), in ply order; empty when every move was
    /// read as written.
    pub warnings: Vec<RecordWarningDto>,
    /// The game as canonical PDN 3.0 text, when asked for (`include_pdn`): the variant's
    /// GameType, the FEN when the game does not start from the start position, the `Result`
    /// set from the judgement (the declared result where the rules do not decide the game),
    /// the moves in canonical notation, and every reading the record needed and an illegal
    /// move marked in comments.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(
        example = "[GameType \"20\"]\n[Result \"1-1\"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-1\n"
    )]
    pub pdn: Option<String>,
}

pub(crate) fn describe_reason(v: &Variant, j: &Judgement, reason: Reason) -> String {
    match reason {
        Reason::NoLegalMoves => {
            let side = j.final_position.side();
            let winner = v.no_moves_winner(side);
            format!(
                "{}, to move, has no legal move (no pieces left or all blocked), so {} wins",
                side.name(),
                winner.name()
            )
        }
        Reason::NoPieces => {
            let side = j.final_position.side().opponent();
            let winner = v.no_moves_winner(side);
            format!(
                "{} has no piece left, so {} wins",
                side.name(),
                winner.name()
            )
        }
        Reason::End(code) => {
            let rule = v.rules().ends.iter().find(|e| e.code == code);
            let winner = match j.verdict {
                Verdict::WhiteWins => "so white wins",
                Verdict::BlackWins => "so black wins",
                _ => "so the game is over",
            };
            match rule {
                Some(r) => format!("{} ({winner})", r.describe()),
                None => code.code().to_string(),
            }
        }
        Reason::Draw(code) => draw_rule_text(v, code),
        Reason::EndgameTables {
            material,
            plies,
            move_limit,
            drawn_by,
        } => {
            let side = j.final_position.side();
            let value = match (j.verdict, plies) {
                (Verdict::Draw, _) | (_, None) => "a draw".to_string(),
                (verdict, Some(n)) => {
                    let mover_wins = verdict == Verdict::win_for(side);
                    format!(
                        "a {} for {} in {}",
                        if mover_wins { "win" } else { "loss" },
                        side.name(),
                        plies_words(n)
                    )
                }
            };
            let stopped = move_limit
                .map(|n| format!("the game stopped at the move limit of {}; ", plies_words(n)))
                .unwrap_or_default();
            match drawn_by {
                Some(code) => format!(
                    "adjudicated: {stopped}the endgame tables give the final position \
                     ({material}, {} to move) as a win under best play, but with the game's \
                     counts the {} rule draws it before the win comes ({}): a draw",
                    side.name(),
                    code.code(),
                    draw_rule_text(v, code)
                ),
                None => format!(
                    "adjudicated: {stopped}the endgame tables give the final position \
                     ({material}, {} to move) as {value} under best play with the game's \
                     counts",
                    side.name()
                ),
            }
        }
        Reason::MoveLimit { limit } => format!(
            "adjudicated: the game was still running at the move limit of {} and the \
             endgame tables did not decide it, so it is drawn",
            plies_words(limit)
        ),
    }
}

pub(crate) fn draw_rule_text(v: &Variant, code: DrawCode) -> String {
    v.rules()
        .draws
        .iter()
        .find(|d| d.code == code)
        .map(|d| d.describe())
        .unwrap_or_else(|| code.code().to_string())
}

/// The options of a judgement as a request gives them, each optional: the members of a
/// `/judge` body, and the query parameters and JSON members of `/v1/judge/pdn`. Checked and
/// completed with their defaults by [`JudgeSettings::check`] and [`JudgeSettings::options`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeSettings {
    pub result_convention: Option<ResultConventionDto>,
    pub include_pdn: Option<bool>,
    pub adjudicate: Option<AdjudicateDto>,
    pub max_plies: Option<u64>,
}

impl JudgeSettings {
    /// The settings, once `max_plies` is checked: 1 to [`MAX_PLIES_LIMIT`], else 400 naming
    /// the field (`invalid-query` when `query`, the settings having come in the query string;
    /// `invalid-body` otherwise).
    pub fn check(self, query: bool) -> Result<JudgeSettings, ApiError> {
        match self.max_plies {
            Some(n) if !(1..=MAX_PLIES_LIMIT as u64).contains(&n) => {
                let what = format!(
                    "`max_plies` must be a whole number from 1 to {MAX_PLIES_LIMIT} (the most \
                     plies a game may have), not {n}"
                );
                let e = if query {
                    ApiError::invalid_query(what)
                } else {
                    ApiError::invalid_body(what)
                };
                Err(e.with_limit("max_plies", MAX_PLIES_LIMIT as u64))
            }
            _ => Ok(self),
        }
    }

    /// Each setting from `self` when it has it, else from `other` (the query string's settings
    /// win over the body's).
    pub fn or(self, other: JudgeSettings) -> JudgeSettings {
        JudgeSettings {
            result_convention: self.result_convention.or(other.result_convention),
            include_pdn: self.include_pdn.or(other.include_pdn),
            adjudicate: self.adjudicate.or(other.adjudicate),
            max_plies: self.max_plies.or(other.max_plies),
        }
    }

    /// The options these settings give, the defaults filling in what they leave out.
    pub fn options(self) -> JudgeOptions {
        JudgeOptions {
            convention: self.result_convention.unwrap_or_default().into(),
            include_pdn: self.include_pdn.unwrap_or(false),
            adjudication: Adjudication {
                tables: self.adjudicate.unwrap_or_default() == AdjudicateDto::Tables,
                max_plies: self.max_plies.map(|n| (n as usize).min(MAX_PLIES_LIMIT)),
            },
        }
    }
}

/// How games are judged: the result convention, whether the answer gives each game as PDN
/// text, and the adjudication on top of the rules. The default is the rules alone, results
/// written first-mover first, no PDN text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeOptions {
    /// Whose score a PDN result writes first.
    pub convention: ResultConvention,
    /// Also give the game as canonical PDN 3.0 text.
    pub include_pdn: bool,
    /// Tables and a move limit, for what the rules leave running.
    pub adjudication: Adjudication,
}

impl JudgeOptions {
    /// The record reader's options.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            convention: self.convention,
            adjudication: self.adjudication,
            ..ReadOptions::default()
        }
    }
}

/// A game to judge: where it starts, its moves as text, and the result declared for it.
#[derive(Clone, Debug, Default)]
pub struct GameInput {
    /// FEN of the start position (`None`: the variant's start position); lidraughts' move
    /// counters are read and carried on.
    pub start_position: Option<String>,
    /// The moves, in any notation the record reader reads.
    pub moves: Vec<String>,
    /// The declared result to check.
    pub declared_result: Option<ClaimedResult>,
    pub options: JudgeOptions,
}

/// Judges `game` with the service's endgame tables (`None`: a judge without tables), charged
/// to `budget`: the work of `/judge`. A table the adjudication needs that is still being
/// computed is the 503 `endgame-building` problem, so that the answer never depends on what
/// this replica has built so far.
pub fn judge(
    v: &'static Variant,
    game: &GameInput,
    tables: Option<&TableStore>,
    budget: &Budget,
) -> Result<JudgeResponse, ApiError> {
    let probe = TableProbe::new(tables);
    let answer = judge_game(v, game, &mut probe.probe(), budget)?;
    probe.finish()?;
    Ok(answer)
}

/// Judges `game`, its tables probed with `probe`, charged to `budget`.
pub fn judge_game(
    v: &'static Variant,
    game: &GameInput,
    probe: &mut arbiter_rules::adjudication::Probe,
    budget: &Budget,
) -> Result<JudgeResponse, ApiError> {
    let (start, counters) = match game.start_position.as_deref() {
        None => (v.start(), None),
        Some(text) => v
            .parse_start_fen_counters(text)
            .map_err(|e| ApiError::invalid_position("start_position", &e))?,
    };
    let options = ReadOptions {
        write_pdn: game.options.include_pdn,
        ..game.options.read_options()
    };
    let claimed = game.declared_result.map(ClaimedResult::text);
    let r = judge_moves(
        v,
        start,
        counters,
        &game.moves,
        claimed.as_deref(),
        options,
        probe,
        budget,
    )
    .map_err(|e| ApiError::engine(&e))?;
    let j = &r.judgement;
    let invalid_move = j.illegal.as_ref().map(|i| {
        let problem = ApiError::bad_move(i.ply, &i.text, i.error.clone());
        let p = problem.problem();
        InvalidMove {
            ply: i.ply,
            move_text: i.text.clone(),
            code: p.code,
            reason: p.reason.clone().unwrap_or_else(|| i.error.to_string()),
            violation: p.violation,
            precedence: p.precedence,
            legal_moves: i.legal.clone(),
            candidates: p.candidates.clone(),
        }
    });
    Ok(JudgeResponse {
        variant: v.id().to_string(),
        verdict: j.verdict.into(),
        reason: j.reason.map(|reason| ReasonDto::of(v, j, reason)),
        result: r.result.to_string(),
        plies: j.moves.len(),
        decided_at_ply: j.decided_at_ply,
        moves_after_end: j.moves_after_end,
        final_position: v.fen_counters(
            &j.final_position,
            counters_after(v, counters, start.side(), j.moves.iter().map(|d| &d.mv)),
        ),
        side_to_move: j.final_position.side().into(),
        moves: j.moves.iter().map(|d| d.notation.clone()).collect(),
        invalid_move,
        claimable_draws: claimable_draws(v, j),
        draw_counters: draw_counters(v, j),
        declared_result: claimed,
        agreement: game.declared_result.map(|_| Agreement {
            agrees: r.agreement.agrees,
            explanation: r.agreement.explanation.clone(),
        }),
        warnings: r.warnings.iter().map(RecordWarningDto::from).collect(),
        pdn: r.pdn,
    })
}

/// The draws a player could have claimed during the game `j` of `v`.
pub fn claimable_draws(v: &Variant, j: &Judgement) -> Vec<ClaimableDraw> {
    j.claimable
        .iter()
        .map(|c| ClaimableDraw {
            code: c.code.code().to_string(),
            description: draw_rule_text(v, c.code),
            ply: c.ply,
        })
        .collect()
}
