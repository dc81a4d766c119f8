//! Judge game records: every game of a PDN text (a file of bounded size, judged at once), or
//! a stream of records of any size, judged game by game as its bytes come ([`RecordStream`]).
//!
//! Each game is judged under its own variant (the `GameType` tag, else the `Variant` tag),
//! unless the caller names one. A game that cannot be judged (broken text, unsupported
//! GameType, no variant, bad FEN tag, too many plies) is an entry with an `error`, never a
//! failure of the whole: only the file as a whole (the number of games, its grammar when read
//! strictly) or the work (its budget, its cancellation) fails.

use std::sync::Arc;

use arbiter_rules::adjudication::{judge_pdn_game, GameError, GameFailure, GameReport, Probe};
use arbiter_rules::catalogue::{choose_variant, VariantChoice};
use arbiter_rules::notation::pdn::{PdnGame, PdnLimits, PdnReader};
use arbiter_rules::notation::pdn::{PdnSplitter, Piece};
use arbiter_rules::{Budget, GenError, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::counters_after;
use super::endgame::TableProbe;
use super::judge::{
    claimable_draws, Agreement, ClaimableDraw, JudgeOptions, ReasonDto, RecordWarningDto,
    VerdictDto,
};
use crate::config::MAX_MOVES;
use crate::problem::{ApiError, PrecedenceRule, ProblemCode, ViolationCode};
use crate::tables::TableStore;

/// Most games judged in one request.
pub const MAX_GAMES: usize = 200;

/// Most plies judged in one game: the same bound as the moves of `/judge` and `/play`.
pub const MAX_PLIES_PER_GAME: usize = MAX_MOVES;

/// PDN text read per work unit (counting and reading a file costs about as much CPU per 8
/// bytes as a unit of engine work).
pub const BYTES_PER_UNIT: u64 = 8;

/// Most tags kept for one game besides its first GameType, Variant, FEN and Result tags (a
/// game with more is an `invalid-game-text` entry).
pub const MAX_TAGS_PER_GAME: usize = 100;

/// Longest tag value or move token kept, in bytes (longer ones are cut).
pub const MAX_TOKEN_BYTES: usize = 4096;

/// Whether a game was judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameOutcome {
    /// The moves were replayed and judged (the verdict may still be `invalid`).
    Judged,
    /// The game could not be judged (see `error`).
    Error,
}

/// The first move of a game that is not legal.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PdnInvalidMove {
    /// 1-based ply of the move in the game.
    #[schema(example = 3)]
    pub ply: usize,
    /// The move number written before it in the file, if any.
    #[schema(example = 2)]
    pub move_number: Option<u32>,
    /// The move text as written.
    #[serde(rename = "move")]
    #[schema(example = "28-22")]
    pub move_text: String,
    /// `illegal-move`, `ambiguous-move` or `unparsable-move`.
    #[schema(value_type = String, example = "illegal-move")]
    pub code: ProblemCode,
    /// Why the move was refused.
    #[schema(example = "illegal move: 28-22 does not match any legal move")]
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
}

/// Why a game could not be judged.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameErrorDto {
    /// `invalid-game-text`, `unsupported-variant`, `no-variant`, `invalid-position`,
    /// `too-many-moves` (more than 1000 plies) or `capture-limit`; in a stream also
    /// `payload-too-large` (a game of more than 1 MiB) and `budget-exceeded` (a game over the
    /// work budget of a `/judge` request).
    #[schema(value_type = String, example = "unsupported-variant")]
    pub code: ProblemCode,
    /// Human-readable explanation.
    #[schema(example = "GameType \"41\" is not a variant this service supports")]
    pub detail: String,
}

/// The judgement of one game of the file.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PdnGameResult {
    /// 0-based index of the game in the file.
    #[schema(example = 0)]
    pub index: usize,
    /// 1-based line where the game starts.
    #[schema(example = 1)]
    pub line: usize,
    /// The tag pairs, in file order.
    #[schema(example = json!({"Event": "Club", "GameType": "20", "Result": "2-0"}))]
    pub tags: serde_json::Map<String, serde_json::Value>,
    /// The variant id the game was judged under; null when none could be chosen.
    #[schema(example = "international")]
    pub variant: Option<String>,
    /// `judged`, or `error` when the game could not be judged.
    #[schema(example = "judged")]
    pub outcome: GameOutcome,
    /// `white_wins`, `black_wins`, `draw`, `undecided` or `invalid` (judged games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<VerdictDto>,
    /// Why the game ended (a rule, or the adjudication asked for); null when it did not
    /// (judged games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Option<ReasonDto>>,
    /// The ply after which the rules (or the adjudication) ended the game (0 = the start
    /// position itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_at_ply: Option<Option<usize>>,
    /// Number of moves legally played.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 4)]
    pub plies: Option<usize>,
    /// Moves written after the game had ended, or after the move limit; they are not judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 0)]
    pub moves_after_end: Option<usize>,
    /// FEN of the position after the moves legally played.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "W:W31-50:B1-20")]
    pub final_position: Option<String>,
    /// The result the moves show, in the variant's PDN style (`2-0`, `1-0`, `1/2-1/2`...);
    /// `*` when undecided or invalid.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "2-0")]
    pub result: Option<String>,
    /// The declared result (the `Result` tag, else the game terminator); null if none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "2-0")]
    pub declared_result: Option<Option<String>>,
    /// The declared result checked against the moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agreement: Option<Agreement>,
    /// Draws a player could have claimed, each with the first ply it was available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimable_draws: Option<Vec<ClaimableDraw>>,
    /// The first illegal move, when the verdict is `invalid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_move: Option<PdnInvalidMove>,
    /// What the record reader did to read the game (an ambiguous capture resolved by the rest
    /// of the game, text glued to a move, a repaired tag...), in ply order; empty when the
    /// game was read as written (judged games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!([{
        "code": "text-after-move", "ply": 34, "text": "26-22Whiteoversteppedthetimecontrolonthismove.",
        "reading": "26-22", "alternatives": [], "verdict_differs": null,
        "detail": "text glued to the move 26-22; read as the move and the comment 'Whiteoversteppedthetimecontrolonthismove.'"
    }]))]
    pub warnings: Option<Vec<RecordWarningDto>>,
    /// The game as canonical PDN 3.0 text, when asked for (`include_pdn`): its tags with the
    /// `Result` set from the judgement (the declared result where the rules do not decide
    /// the game), the moves legally played in canonical notation, every reading the record
    /// needed and an illegal move marked in comments.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(
        example = "[Event \"Club\"]\n[GameType \"20\"]\n[Result \"*\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n"
    )]
    pub pdn: Option<String>,
    /// Why the game could not be judged (`outcome` = `error` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<GameErrorDto>,
}

/// Counts over the whole file.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PdnSummary {
    /// Games found in the file.
    #[schema(example = 3)]
    pub games: usize,
    /// Games judged (including `invalid` verdicts).
    #[schema(example = 2)]
    pub judged: usize,
    /// Games that could not be judged.
    #[schema(example = 1)]
    pub errors: usize,
}

/// The judgement of a PDN file.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PdnJudgeResponse {
    /// One entry per game, in file order.
    pub games: Vec<PdnGameResult>,
    pub summary: PdnSummary,
}

/// What a PDN file's games keep when read (see [`PdnLimits`]).
pub const READ_LIMITS: PdnLimits = PdnLimits {
    max_plies: MAX_PLIES_PER_GAME,
    max_tags: MAX_TAGS_PER_GAME,
    max_token: MAX_TOKEN_BYTES,
};

/// Largest game of a stream of records, in bytes (1 MiB: any game a file judged at once may
/// hold).
pub const MAX_GAME_BYTES: usize = 1024 * 1024;

/// How the games of a file or stream are judged.
#[derive(Clone, Copy, Debug, Default)]
pub struct FileOptions {
    /// The variant of every game, whatever its tags say (`None`: each game's own).
    pub explicit: Option<&'static Variant>,
    /// The judge's options.
    pub options: JudgeOptions,
    /// Read the text as PDN 3.0's grammar writes it: a file that breaks it is the 422
    /// `pdn-syntax` problem (at once), a game of a stream that breaks it an entry with that
    /// error.
    pub strict: bool,
}

impl PdnSummary {
    /// No game yet.
    pub fn new() -> PdnSummary {
        PdnSummary {
            games: 0,
            judged: 0,
            errors: 0,
        }
    }

    /// Counts a game's entry.
    pub fn count(&mut self, entry: &PdnGameResult) {
        self.games += 1;
        if entry.outcome == GameOutcome::Judged {
            self.judged += 1;
        } else {
            self.errors += 1;
        }
    }
}

impl Default for PdnSummary {
    fn default() -> PdnSummary {
        PdnSummary::new()
    }
}

impl PdnJudgeResponse {
    /// The games judged, by variant id, in the order each variant first comes.
    pub fn judged_by_variant(&self) -> Vec<(String, u64)> {
        let mut judged: Vec<(String, u64)> = Vec::new();
        for g in &self.games {
            if let (GameOutcome::Judged, Some(v)) = (&g.outcome, &g.variant) {
                match judged.iter_mut().find(|(id, _)| id == v) {
                    Some((_, n)) => *n += 1,
                    None => judged.push((v.clone(), 1)),
                }
            }
        }
        judged
    }
}

fn game_error_code(e: &GameError) -> ProblemCode {
    match e {
        GameError::Text(_) => ProblemCode::InvalidGameText,
        GameError::UnsupportedVariant(_) => ProblemCode::UnsupportedVariant,
        GameError::NoVariant => ProblemCode::NoVariant,
        GameError::BadFen(_) => ProblemCode::InvalidPosition,
        GameError::TooManyPlies { .. } => ProblemCode::TooManyMoves,
        GameError::Gen(_) => ProblemCode::CaptureLimit,
    }
}

fn empty_entry(index: usize, game: &PdnGame, variant: Option<&Variant>) -> PdnGameResult {
    PdnGameResult {
        index,
        line: game.line,
        tags: game
            .tags
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect(),
        variant: variant.map(|v| v.id().to_string()),
        outcome: GameOutcome::Error,
        verdict: None,
        reason: None,
        decided_at_ply: None,
        plies: None,
        moves_after_end: None,
        final_position: None,
        result: None,
        declared_result: None,
        agreement: None,
        claimable_draws: None,
        invalid_move: None,
        warnings: None,
        pdn: None,
        error: None,
    }
}

fn judged_entry(index: usize, game: &PdnGame, r: GameReport) -> PdnGameResult {
    let v = r.variant;
    let j = &r.judgement;
    let mut e = empty_entry(index, game, Some(v));
    e.outcome = GameOutcome::Judged;
    e.verdict = Some(j.verdict.into());
    e.reason = Some(j.reason.map(|reason| ReasonDto::of(v, j, reason)));
    e.decided_at_ply = Some(j.decided_at_ply);
    e.plies = Some(j.moves.len());
    e.moves_after_end = Some(j.moves_after_end);
    e.final_position = Some(v.fen_counters(
        &j.final_position,
        counters_after(v, r.counters, r.start.side(), j.moves.iter().map(|d| &d.mv)),
    ));
    e.result = Some(r.result.to_string());
    e.warnings = Some(r.warnings.iter().map(RecordWarningDto::from).collect());
    e.declared_result = Some(r.declared.clone());
    e.agreement = Some(Agreement {
        agrees: r.agreement.agrees,
        explanation: r.agreement.explanation.clone(),
    });
    e.claimable_draws = Some(claimable_draws(v, j));
    e.invalid_move = j.illegal.as_ref().map(|i| {
        let problem = ApiError::bad_move(i.ply, &i.text, i.error.clone());
        let p = problem.problem();
        PdnInvalidMove {
            ply: i.ply,
            move_number: r.illegal_move_number,
            move_text: i.text.clone(),
            code: p.code,
            reason: p.reason.clone().unwrap_or_else(|| i.error.to_string()),
            violation: p.violation,
            precedence: p.precedence,
            legal_moves: i.legal.clone(),
        }
    });
    e.pdn = r.pdn;
    e
}

/// Judges the game at `index` of a file: its entry, the entry of a game that cannot be judged
/// included; an error only when the budget is spent or the work was cancelled (the request's
/// end, the same way on every replica).
pub fn judge_game(
    index: usize,
    game: &PdnGame,
    explicit: Option<&'static Variant>,
    options: JudgeOptions,
    probe: &mut Probe,
    budget: &Budget,
) -> Result<PdnGameResult, ApiError> {
    let read = options.read_options();
    let read = arbiter_rules::adjudication::ReadOptions {
        write_pdn: options.include_pdn,
        ..read
    };
    match judge_pdn_game(game, explicit, MAX_PLIES_PER_GAME, read, probe, budget) {
        Ok(report) => Ok(judged_entry(index, game, report)),
        Err(GameFailure {
            error: GameError::Gen(e @ (GenError::Budget { .. } | GenError::Cancelled)),
            ..
        }) => Err(ApiError::engine(&e)),
        Err(GameFailure { error, variant }) => Ok(error_entry(
            index,
            game,
            variant,
            game_error_code(&error),
            error.to_string(),
        )),
    }
}

/// The entry of a game that could not be judged.
pub fn error_entry(
    index: usize,
    game: &PdnGame,
    variant: Option<&Variant>,
    code: ProblemCode,
    detail: String,
) -> PdnGameResult {
    let mut e = empty_entry(index, game, variant);
    e.error = Some(GameErrorDto { code, detail });
    e
}

/// 422: more games in the file than the bound.
pub fn too_many_games(count: usize, limit: usize) -> ApiError {
    ApiError::new(
        422,
        ProblemCode::TooManyGames,
        "Too many games",
        format!(
            "the PDN text has {count} games; at most {limit} games are judged per request: \
             ask for the answer as a stream (`Accept: application/x-ndjson`, one JSON line \
             per game) to have a file of any size judged"
        ),
    )
    .with_limit("pdn", limit as u64)
}

/// Judges every game of a PDN text with the service's endgame tables (`None`: a judge
/// without tables): the work of `POST /v1/judge/pdn`. More than `max_games` games is the
/// `too-many-games` problem; with `strict`, a text that is not PDN 3.0 the `pdn-syntax`
/// problem; a table the adjudication needs that is still being computed the 503
/// `endgame-building` problem.
pub fn judge_file(
    text: &str,
    file: FileOptions,
    max_games: usize,
    tables: Option<&TableStore>,
    budget: &Budget,
) -> Result<PdnJudgeResponse, ApiError> {
    if file.strict {
        check_strict(text, budget)?;
    }
    let probe = TableProbe::new(tables);
    let answer = judge_pdn_text(
        text,
        file.explicit,
        max_games,
        file.options,
        &mut probe.probe(),
        budget,
    )?;
    probe.finish()?;
    Ok(answer)
}

/// Judges every game of a PDN text, its tables probed with `probe`. `explicit` overrides each
/// game's tags; more than `max_games` games is the too-many-games problem.
pub fn judge_pdn_text(
    text: &str,
    explicit: Option<&'static Variant>,
    max_games: usize,
    options: JudgeOptions,
    probe: &mut Probe,
    budget: &Budget,
) -> Result<PdnJudgeResponse, ApiError> {
    // Reading the text is work too (it is read twice: counted, then judged game by game).
    budget
        .charge(text.len() as u64 / BYTES_PER_UNIT)
        .map_err(|e| ApiError::engine(&e))?;
    // Count first, keeping nothing, so that an oversized file costs no memory.
    let count = PdnReader::count_games(text);
    if count > max_games {
        return Err(too_many_games(count, max_games));
    }
    let mut games = Vec::with_capacity(count);
    let mut summary = PdnSummary::new();
    for (index, game) in PdnReader::new(text, READ_LIMITS).enumerate() {
        let entry = judge_game(index, &game, explicit, options, probe, budget)?;
        summary.count(&entry);
        games.push(entry);
    }
    Ok(PdnJudgeResponse { games, summary })
}

/// `strict` reading: the text must be PDN 3.0 as the standard's grammar writes it
/// (`arbiter_rules::notation::pdn::check_file`), else the 422 `pdn-syntax` problem for its first
/// fault. Checking is charged to the budget like reading.
pub fn check_strict(text: &str, budget: &Budget) -> Result<(), ApiError> {
    budget
        .charge(text.len() as u64 / BYTES_PER_UNIT)
        .map_err(|e| ApiError::engine(&e))?;
    arbiter_rules::notation::pdn::check_file(text).map_err(|e| ApiError::pdn_syntax(&e))
}

/// Decodes PDN text: UTF-8 when it is valid UTF-8, else ISO-8859-1 (every byte one char), as
/// older PDN files are written.
pub fn decode_pdn(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

/// A stream of game records of any size, judged game by game as its bytes come: the bytes are
/// pushed in ([`RecordStream::push`], [`RecordStream::finish`]) and the games taken out
/// ([`RecordStream::next_game`]) as each is complete. Only the game being read is held (at
/// most [`MAX_GAME_BYTES`]: a larger one is an entry with the `payload-too-large` error, and
/// reading goes on at the next game).
///
/// A game that could not be read is an entry at once ([`NextGame::Entry`]); one to judge
/// ([`NextGame::Judge`]) is judged where its caller runs engine work
/// ([`GameToJudge::judge`]), within the budget of one game. The caller counts each entry
/// ([`RecordStream::count`]) for the summary.
pub struct RecordStream {
    splitter: PdnSplitter,
    file: FileOptions,
    next_index: usize,
    summary: PdnSummary,
}

/// The next game of a [`RecordStream`].
pub enum NextGame {
    /// A game that could not be read: its entry.
    Entry(Box<PdnGameResult>),
    /// A game to judge.
    Judge(GameToJudge),
}

/// A game of a [`RecordStream`] to judge: cheap to clone and to send to another thread.
#[derive(Clone)]
pub struct GameToJudge {
    index: usize,
    game: Arc<PdnGame>,
    explicit: Option<&'static Variant>,
    options: JudgeOptions,
}

impl RecordStream {
    /// A stream with nothing read yet.
    pub fn new(file: FileOptions) -> RecordStream {
        RecordStream {
            splitter: PdnSplitter::new(READ_LIMITS, MAX_GAME_BYTES).strict(file.strict),
            file,
            next_index: 0,
            summary: PdnSummary::new(),
        }
    }

    /// The next bytes of the text.
    pub fn push(&mut self, bytes: &[u8]) {
        self.splitter.push(bytes);
    }

    /// The text has ended: its last game can be taken out.
    pub fn finish(&mut self) {
        self.splitter.finish();
    }

    /// The next complete game, if any.
    pub fn next_game(&mut self) -> Option<NextGame> {
        let piece = self.splitter.next_piece()?;
        let index = self.next_index;
        self.next_index += 1;
        let explicit = self.file.explicit;
        Some(match piece {
            Piece::Game(game) => NextGame::Judge(GameToJudge {
                index,
                game: Arc::new(game),
                explicit,
                options: self.file.options,
            }),
            Piece::Rejected { game, error } => NextGame::Entry(Box::new(error_entry(
                index,
                &game,
                chosen_variant(&game, explicit),
                ProblemCode::PdnSyntax,
                error.to_string(),
            ))),
            Piece::TooLarge { line } => {
                let game = PdnGame {
                    line,
                    ..PdnGame::default()
                };
                NextGame::Entry(Box::new(error_entry(
                    index,
                    &game,
                    None,
                    ProblemCode::PayloadTooLarge,
                    format!(
                        "the game has more than {MAX_GAME_BYTES} bytes (1 MiB); it was not \
                         read, and reading went on at the next line starting with '['"
                    ),
                )))
            }
        })
    }

    /// Counts a game's entry in the summary.
    pub fn count(&mut self, entry: &PdnGameResult) {
        self.summary.count(entry);
    }

    /// The counts of the entries counted so far.
    pub fn summary(&self) -> &PdnSummary {
        &self.summary
    }
}

impl GameToJudge {
    /// The game's 0-based index in the stream.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Judges the game with the service's endgame tables (`None`: a judge without tables),
    /// charged to `budget`. An error only when the budget is spent, the work was cancelled,
    /// or a table the adjudication needs is being computed (503 `endgame-building`: judge it
    /// again later).
    pub fn judge(
        &self,
        tables: Option<&TableStore>,
        budget: &Budget,
    ) -> Result<PdnGameResult, ApiError> {
        let probe = TableProbe::new(tables);
        let entry = judge_game(
            self.index,
            &self.game,
            self.explicit,
            self.options,
            &mut probe.probe(),
            budget,
        )?;
        probe.finish()?;
        Ok(entry)
    }

    /// The entry of the game when judging it failed with `error` and the stream goes on (a
    /// game over the work budget of one game).
    pub fn failed(&self, error: &ApiError) -> PdnGameResult {
        error_entry(
            self.index,
            &self.game,
            chosen_variant(&self.game, self.explicit),
            error.problem().code,
            error.problem().detail.clone(),
        )
    }
}

/// The variant a game is read under, if one can be chosen.
fn chosen_variant(game: &PdnGame, explicit: Option<&'static Variant>) -> Option<&'static Variant> {
    match choose_variant(game, explicit) {
        VariantChoice::Found(v) => Some(v),
        _ => None,
    }
}
