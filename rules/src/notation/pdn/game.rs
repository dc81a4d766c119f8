//! What the PDN readers hand out: a game as text, with its tags, moves and notes, the bounds
//! a reader keeps to, and where a reader stands between two games.

/// One game of a PDN file, as text.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PdnGame {
    /// `(name, value)` in file order (at most [`PdnLimits::max_tags`]).
    pub tags: Vec<(String, String)>,
    /// The moves, in order (at most [`PdnLimits::max_plies`]; `plies` counts them all).
    pub moves: Vec<PdnMove>,
    /// The number of moves in the game's text, including any beyond the stored bound.
    pub plies: usize,
    /// The game terminator (`1-0`, `2-0`, `*`...), if present.
    pub terminator: Option<String>,
    /// 1-based line where the game starts.
    pub line: usize,
    /// What spoiled the game's text, if anything (an unterminated comment, a broken tag).
    pub error: Option<String>,
    /// What the reader repaired in the game's text (at most [`MAX_NOTES`]).
    pub notes: Vec<PdnNote>,
    /// Placeholders `-` written where the moves are unknown (`1. - - 2. - -`).
    pub placeholders: usize,
    /// The bytes of the text read as this game (after a byte-order mark): from the end of the
    /// previous game (its terminator, or where its text stopped) to this one's end, so the
    /// games of a text cover it; what [`super::check_game`] checks.
    pub span: std::ops::Range<usize>,
    /// The 1-based line where `span` starts.
    pub span_line: usize,
    /// Characters on the first line of the text the game was read from, before that text
    /// starts: 0 for a text read whole; a game split from a stream may start mid-line.
    pub text_column: usize,
}

/// Most notes kept per game.
pub const MAX_NOTES: usize = 16;

/// Something the reader repaired in a game's text so that it could read it, or found there that
/// the PDN 3.0 grammar does not allow ([`super::deviations`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnNote {
    pub kind: PdnNoteKind,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// The text concerned (cut to 80 characters).
    pub text: String,
}

/// The kinds of [`PdnNote`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnNoteKind {
    /// A tag line that lacks its opening `[` (`Event "..."]` at the start of a line) or the
    /// closing quote of its value (`[Round "11.1]`), read as a tag.
    TagRepaired,
    // The deviations from the PDN 3.0 grammar (`grammar.rs`).
    /// A comment inside a comment (`{a {b} c}`): the grammar's comment ends at the first `}`.
    NestedComment,
    /// A tag that is not `[Name "value"]` (no quotes, a name that does not start with a capital
    /// letter, a missing bracket or quote).
    MalformedTag,
    /// A `FEN` tag whose value does not follow the standard's FEN grammar.
    InvalidFen,
    /// A `GameType` tag whose value does not follow the standard's expression.
    InvalidGameType,
    /// A result (game terminator or `Result` tag) outside the standard's set for the game type
    /// (`1:0`, `4-6`, `2-0` in English draughts, a lone `-`).
    NonStandardResult,
    /// A move number that is not digits and one or three dots, or that no move follows
    /// (`9n`, `1..`, `1. 1-0`).
    MalformedMoveNumber,
    /// A move that is no move of the grammar (`3228`, `33-`, `1-100`).
    MalformedMove,
    /// Anything else the grammar does not allow where it stands: a `;` comment, text outside
    /// comments, a stray bracket, a game without a result or `*` before the next game's tags.
    NotInGrammar,
}

/// A move of the move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnMove {
    pub text: String,
    /// The move number written before it (the number of the move pair it belongs to).
    pub number: Option<u32>,
    /// 1-based line.
    pub line: usize,
}

impl PdnGame {
    /// The value of a tag (case-insensitive name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The declared result: the `Result` tag, or the game terminator.
    pub fn declared_result(&self) -> Option<&str> {
        self.tag("Result")
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .or(self.terminator.as_deref())
    }

    pub(super) fn has_content(&self) -> bool {
        self.plies > 0 || self.placeholders > 0 || self.terminator.is_some()
    }

    pub(super) fn is_empty(&self) -> bool {
        !self.has_content() && self.tags.is_empty() && self.error.is_none()
    }
}

/// The result tokens that end a game's move text.
pub const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// What the reader keeps of each game, so that memory follows the bounds and not the size of
/// the text: moves beyond `max_plies` are counted but not stored, and more than `max_tags`
/// tags spoil the game (its `error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PdnLimits {
    pub max_plies: usize,
    /// Most tags besides the [`SETUP_TAGS`] (of which the first of each name is kept).
    pub max_tags: usize,
    /// Longest tag value, move token and terminator kept, in bytes (longer ones are cut).
    pub max_token: usize,
}

impl Default for PdnLimits {
    fn default() -> Self {
        PdnLimits {
            max_plies: usize::MAX,
            max_tags: usize::MAX,
            max_token: usize::MAX,
        }
    }
}

/// The tags that say what a game is and how it ended: a writer of canonical PDN
/// (`adjudication::write_pdn`) rewrites these and keeps the others as they are.
pub const SETUP_TAGS: [&str; 4] = ["GameType", "Variant", "FEN", "Result"];

/// Whether `name` is one of the [`SETUP_TAGS`] (any ASCII case, as [`PdnGame::tag`] finds
/// tags).
pub fn is_setup_tag(name: &str) -> bool {
    SETUP_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name))
}

/// Where the reader stands between two games of a file: its line and whether it is at the
/// start of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadPoint {
    /// 1-based line.
    pub line: usize,
    /// At the start of a line (a `%` escape line or a tag without its `[` may start here).
    pub at_line_start: bool,
    /// Characters on its line before it.
    pub column: usize,
}

impl Default for ReadPoint {
    /// The start of a file.
    fn default() -> Self {
        ReadPoint {
            line: 1,
            at_line_start: true,
            column: 0,
        }
    }
}
