//! The PDN 3.0 grammar, as the standard writes it: a checker for `strict` reading, and the list
//! of a game's deviations from it for tolerant reading.
//!
//! The standard is PDN 3.0 as the FMJD publishes it (pdn.fmjd.org; source text
//! github.com/wiegerw/pdn): its "PDN Reading Grammar" (section "PDN Grammars", the grammar the
//! standard gives "for reading existing PDN files", which its own parser test set
//! `games/succeed` and `games/fail` is checked with), the FEN tag grammar (section "FEN tag"),
//! the GameType expression (section "GameType tag") and the results allowed for a game type
//! (section "PDN Tags", Result tag, and the Result type column of the GameType table).
//!
//! The grammar is `pdn.pest` beside this file, read by [pest](https://pest.rs): a PEG whose
//! rules are named as the standard's productions and tokens, so that an error names the rule
//! the text breaks and the tokens it expected there, with its line and column. pest was chosen
//! over a parser-combinator crate (nom, winnow, chumsky) because the grammar then stays a
//! grammar: one file that reads like the standard's EBNF, checked against it rule by rule,
//! with error positions and expected-rule lists for free.
//!
//! Measured, a pest parse of every game made judging the real international files about a
//! third slower (the tolerant reader checks every game), so a game is first read by a
//! hand-written reading of the same grammar (`fast`), which only says whether the game is of
//! the grammar and finds its tags and result; pest runs where that rejects a game, to say where
//! and why. The tests check that the two agree.
//!
//! Beyond the grammar itself the checker applies what the standard states as part of the
//! syntax of tag values and results:
//!
//! - a `FEN` tag's value follows the FEN grammar (`Fen`);
//! - a `GameType` tag's value follows its expression (`GameType`);
//! - a game terminator, and a `Result` tag's value, is one of the results of the game's result
//!   type (`Result`): `1-0 0-1 1/2-1/2 0-0 *` for the Default type, `2-0 0-2 1-1 0-0 *` for
//!   International (GameType 20 and 27); a game without a GameType tag of the standard's table
//!   may use either set; a `Result` tag may also be empty (an unknown value), and is not
//!   checked when a `ResultFormat` tag overrides the set.
//!
//! A text is checked game by game, as [`PdnReader`](super::PdnReader) splits it
//! ([`check_game`], [`check_file`](super::check_file)), so that the answer for a file and for
//! a stream of its games is the same. A UTF-8 byte-order mark is an encoding mark, not text,
//! and is not checked.

use std::ops::Range;

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser;

use super::game::{PdnGame, PdnNoteKind};

#[derive(pest_derive::Parser)]
#[grammar = "notation/pdn/pdn.pest"]
struct PdnGrammar;

/// Where and how a text breaks the PDN 3.0 grammar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnSyntaxError {
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based column (in characters) in the file.
    pub column: usize,
    /// The production (or token) of the standard the text breaks there (`PdnTag`, `Move`,
    /// `Game`, `Variation`, `Result`, `Fen`, `GameType`, `PdnFile`).
    pub rule: String,
    /// The productions and tokens the grammar would accept there, by the standard's names (for
    /// a result, the results allowed).
    pub expected: Vec<String>,
    /// What stands there (cut to 40 characters; empty at the end of the text).
    pub found: String,
}

impl std::fmt::Display for PdnSyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        if self.found.is_empty() {
            write!(f, "the text ends")?;
        } else {
            write!(f, "'{}'", self.found)?;
        }
        write!(f, " breaks the PDN 3.0 rule {}", self.rule)?;
        if !self.expected.is_empty() {
            write!(f, " (expected {})", self.expected.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for PdnSyntaxError {}

/// Checks one game of a PDN text against the grammar: `text` is the whole text given to
/// [`PdnReader::new`](super::PdnReader::new), `game` one of the games it read (the error's
/// line and column are the file's). A game that is not the last of the text must end with its
/// `GameSeparator` (a result or `*`): the reader also ends a game where the next one's tags
/// start, the grammar does not.
pub fn check_game(text: &str, game: &PdnGame) -> Result<(), PdnSyntaxError> {
    check_game_in(strip_bom(text), game)
}

/// [`check_game`] in the text after its byte-order mark.
fn check_game_in(body: &str, game: &PdnGame) -> Result<(), PdnSyntaxError> {
    if body.get(game.span.clone()).is_none() {
        return Err(not_of_this_text());
    }
    let last = game.span.end >= body.len();
    check_span(
        body,
        game.span.clone(),
        (game.span_line, game.text_column),
        last,
    )
}

/// The error for a game whose span is not in the text given.
fn not_of_this_text() -> PdnSyntaxError {
    PdnSyntaxError {
        line: 1,
        column: 1,
        rule: "PdnFile".to_string(),
        expected: Vec::new(),
        found: "(a game read from another text)".to_string(),
    }
}

pub(super) fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The result sets of the standard ("PDN Tags", Result tag).
const DEFAULT_RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "0-0", "*"];
const INTERNATIONAL_RESULTS: [&str; 5] = ["2-0", "0-2", "1-1", "0-0", "*"];
const ANY_RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// The results allowed for the game type of a `GameType` value (its first number): the Result
/// type column of the standard's GameType table; every result of the grammar for a number the
/// table gives no result type.
fn results_for(game_type: Option<&str>) -> &'static [&'static str] {
    let number = game_type.and_then(|v| {
        let digits = v.trim().split(',').next()?;
        digits.trim().parse::<u32>().ok()
    });
    match number {
        Some(20 | 27) => &INTERNATIONAL_RESULTS,
        Some(21..=26 | 28..=31 | 40 | 41) => &DEFAULT_RESULTS,
        _ => &ANY_RESULTS,
    }
}

/// A tag of a game: name, its value as written (between the quotes), where the value starts.
struct Tag<'a> {
    name: &'a str,
    value: &'a str,
    at: usize,
}

/// Maps byte offsets of a text to lines and columns, from a known line at a known offset.
struct Locator<'a> {
    text: &'a str,
    from: usize,
    line: usize,
    /// Characters on the text's first line before the text starts.
    first_column: usize,
}

impl Locator<'_> {
    fn error(&self, at: usize, rule: &str, expected: Vec<String>) -> PdnSyntaxError {
        let at = at.min(self.text.len());
        let line = self.line
            + self.text[self.from.min(at)..at]
                .bytes()
                .filter(|&b| b == b'\n')
                .count();
        let (line_start, before) = match self.text[..at].rfind('\n') {
            Some(n) => (n + 1, 0),
            None => (0, self.first_column),
        };
        let column = before + self.text[line_start..at].chars().count() + 1;
        PdnSyntaxError {
            line,
            column,
            rule: rule.to_string(),
            expected,
            found: found_at(self.text, at),
        }
    }
}

/// The token at `at` (up to white space), cut to 40 characters.
fn found_at(text: &str, at: usize) -> String {
    let rest = &text[at..];
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    rest[..end].chars().take(40).collect()
}

/// The standard's name of a rule of the grammar file (`BRACECOMMENT` is its `COMMENT`).
fn name(rule: Rule) -> String {
    match rule {
        Rule::BRACECOMMENT => "COMMENT".to_string(),
        Rule::FENNUMSQUARE => "NUMSQUARE".to_string(),
        r => format!("{r:?}"),
    }
}

/// The production that expects the first of `positives` that belongs to a specific one (a tag,
/// a move, a variation, the FEN value), else the game's or the file's.
fn production(positives: &[Rule]) -> &'static str {
    let specific = |r: &Rule| match r {
        Rule::IDENTIFIER | Rule::STRING | Rule::RBRACKET => Some("PdnTag"),
        Rule::Move => Some("GameMove"),
        Rule::Square
        | Rule::NormalMove
        | Rule::CaptureMove
        | Rule::ALPHASQUARE
        | Rule::NUMSQUARE
        | Rule::MOVESEPARATOR
        | Rule::CAPTURESEPARATOR
        | Rule::ALPHAMOVE
        | Rule::ELLIPSES => Some("Move"),
        Rule::RPAREN => Some("Variation"),
        Rule::Fen
        | Rule::COLOR
        | Rule::COLON
        | Rule::COMMA
        | Rule::KING
        | Rule::FENNUMSQUARE
        | Rule::HYPHEN
        | Rule::DOT
        | Rule::NumericSquares
        | Rule::AlphaNumericSquares
        | Rule::NumericSquareSequence
        | Rule::NumericSquareRange
        | Rule::AlphaNumericSquareSequence => Some("Fen"),
        _ => None,
    };
    if let Some(p) = positives.iter().find_map(specific) {
        return p;
    }
    // Only a game body can follow a variation's '('.
    if positives == [Rule::GameBody] {
        return "Variation";
    }
    if positives.contains(&Rule::Game) {
        "PdnFile"
    } else {
        "Game"
    }
}

/// A pest error as a syntax error, `offset` being where the parsed slice starts in the text.
fn from_pest(e: pest::error::Error<Rule>, offset: usize, at: &Locator) -> PdnSyntaxError {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((p, _)) => p,
    };
    match e.variant {
        // Only a negative lookahead failed there: the `!Result` of a move (a result where a
        // move must stand, after a move number: `1. 2-0`).
        ErrorVariant::ParsingError { positives, .. } if positives.is_empty() => {
            at.error(offset + pos, "GameMove", vec!["Move".to_string()])
        }
        ErrorVariant::ParsingError { positives, .. } => {
            let rule = production(&positives);
            let mut expected: Vec<String> = Vec::new();
            for p in positives {
                let n = name(p);
                if !expected.contains(&n) {
                    expected.push(n);
                }
            }
            at.error(offset + pos, rule, expected)
        }
        // pest's own limits (a text nested deeper than the stack allows).
        ErrorVariant::CustomError { .. } => at.error(offset + pos, "Variation", Vec::new()),
    }
}

pub(super) fn check_span(
    text: &str,
    span: Range<usize>,
    (span_line, first_column): (usize, usize),
    last: bool,
) -> Result<(), PdnSyntaxError> {
    let at = Locator {
        text,
        from: span.start,
        line: span_line.max(1),
        first_column,
    };
    let slice = &text[span.clone()];
    let (tags, separator) = match read_game(slice, span.start) {
        Some(parts) => parts,
        // The named grammar says where and why the game is not of it.
        None => {
            let pairs = PdnGrammar::parse(Rule::GameText, slice)
                .map_err(|e| from_pest(e, span.start, &at))?;
            debug_assert!(
                false,
                "the hand-written reading rejects what pest accepts: {slice}"
            );
            tags_and_separator(pairs, span.start)
        }
    };
    if let Some(e) = check_tags(&tags, &at).into_iter().next() {
        return Err(e);
    }
    if let Some((result, pos)) = separator {
        let allowed = results_for(tag_value(&tags, "GameType"));
        if !allowed.contains(&result) {
            return Err(at.error(pos, "Result", strings(allowed)));
        }
    } else if !last {
        // The next game's text starts at the span's end.
        return Err(at.error(span.end, "PdnFile", vec!["GameSeparator".to_string()]));
    }
    Ok(())
}

/// A game's tags and separator, if its text (starting at `offset`) is of the grammar: read by
/// hand (`fast`), or by pest's `FastGame` where variations nest deeper than that reads.
#[allow(clippy::type_complexity)]
fn read_game(slice: &str, offset: usize) -> Option<(Vec<Tag<'_>>, Option<(&str, usize)>)> {
    match fast::read(slice) {
        fast::Verdict::Accepted(tags, separator) => Some((
            tags.into_iter()
                .map(|(name, value, at)| Tag {
                    name,
                    value,
                    at: offset + at,
                })
                .collect(),
            separator.map(|(s, p)| (s, offset + p)),
        )),
        fast::Verdict::Rejected => None,
        fast::Verdict::TooDeep => PdnGrammar::parse(Rule::FastGame, slice)
            .ok()
            .map(|pairs| tags_and_separator(pairs, offset)),
    }
}

/// The tags and the separator of a game's parse (either form), `offset` being where the parsed
/// text starts.
#[allow(clippy::type_complexity)]
fn tags_and_separator<'a>(
    pairs: pest::iterators::Pairs<'a, Rule>,
    offset: usize,
) -> (Vec<Tag<'a>>, Option<(&'a str, usize)>) {
    let mut tags: Vec<Tag> = Vec::new();
    let mut separator: Option<(&str, usize)> = None;
    for pair in pairs.flatten() {
        match pair.as_rule() {
            Rule::PdnTag | Rule::FastTag => tags.push(tag_of(&pair, offset)),
            Rule::GameSeparator | Rule::FastSeparator => {
                separator = Some((pair.as_str(), offset + pair.as_span().start()))
            }
            _ => {}
        }
    }
    (tags, separator)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn tag_of<'a>(pair: &Pair<'a, Rule>, offset: usize) -> Tag<'a> {
    let mut name = "";
    let mut value = "";
    let mut at = 0;
    for p in pair.clone().into_inner() {
        match p.as_rule() {
            Rule::IDENTIFIER => name = p.as_str(),
            Rule::STRING => {
                let s = p.as_str();
                value = &s[1..s.len() - 1];
                at = offset + p.as_span().start() + 1;
            }
            _ => {}
        }
    }
    Tag { name, value, at }
}

fn tag_value<'a>(tags: &[Tag<'a>], name: &str) -> Option<&'a str> {
    tags.iter().find(|t| t.name == name).map(|t| t.value)
}

/// The errors of a game's tag values (FEN, GameType, Result), in text order.
fn check_tags(tags: &[Tag], at: &Locator) -> Vec<PdnSyntaxError> {
    let allowed = results_for(tag_value(tags, "GameType"));
    let result_format = tags.iter().any(|t| t.name == "ResultFormat");
    let mut errors = Vec::new();
    for t in tags {
        match t.name {
            "FEN" => {
                if let Err(e) = PdnGrammar::parse(Rule::FenValue, t.value) {
                    errors.push(from_pest(e, t.at, at));
                }
            }
            "GameType" if PdnGrammar::parse(Rule::GameTypeValue, t.value).is_err() => {
                errors.push(at.error(
                    t.at,
                    "GameType",
                    vec!["[0-9]+(,[WB],[0-9]+,[0-9]+,[ANS][0123](,[01])?)?".to_string()],
                ));
            }
            "Result" if !result_format && !t.value.is_empty() && !allowed.contains(&t.value) => {
                errors.push(at.error(t.at, "Result", strings(allowed)));
            }
            _ => {}
        }
    }
    errors
}

/// Something in a game's text that the grammar does not allow, found by [`deviations`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    pub kind: PdnNoteKind,
    /// 1-based line and column in the file.
    pub line: usize,
    pub column: usize,
    /// The text concerned (cut to 40 characters).
    pub text: String,
}

/// Most deviations listed for one game.
pub const MAX_DEVIATIONS: usize = 12;

/// Every deviation of a game from the grammar (at most [`MAX_DEVIATIONS`]), for tolerant
/// reading: empty when [`check_game`] accepts the game (and only then). `text` and `game` are
/// as for [`check_game`].
///
/// The game is scanned token by token ([`Rule::Item`]): each token the grammar does not allow
/// where it stands is a deviation of its kind ([`PdnNoteKind`]) and is passed over, and so is a
/// comment nested in a comment, whole; then the tag values and the result are checked. Where
/// the scan finds nothing but the grammar still rejects the game (a move number without its
/// move, a tag after the move text...), the grammar's error is the one deviation.
pub fn deviations(text: &str, game: &PdnGame) -> Vec<Deviation> {
    deviations_in(strip_bom(text), game)
}

/// [`deviations`] in the text after its byte-order mark (as the reader holds it).
pub(crate) fn deviations_in(body: &str, game: &PdnGame) -> Vec<Deviation> {
    if body.get(game.span.clone()).is_none() {
        let e = not_of_this_text();
        return vec![Deviation {
            kind: PdnNoteKind::NotInGrammar,
            line: e.line,
            column: e.column,
            text: e.found,
        }];
    }
    let at = Locator {
        text: body,
        from: game.span.start,
        line: game.span_line.max(1),
        first_column: game.text_column,
    };
    let last = game.span.end >= body.len();
    // A game of the grammar: only its tag values and result can deviate (the same checks as
    // `check_game`'s, all of them).
    if let Some((tags, separator)) = read_game(&body[game.span.clone()], game.span.start) {
        if separator.is_some() || last {
            let mut out = semantic(&tags, separator, &at);
            out.truncate(MAX_DEVIATIONS);
            return out;
        }
    }
    let mut out = scan(body, game, last, &at);
    if out.is_empty() {
        let Err(strict) = check_game_in(body, game) else {
            return out;
        };
        let kind = match strict.rule.as_str() {
            "Result" => PdnNoteKind::NonStandardResult,
            "Fen" => PdnNoteKind::InvalidFen,
            "GameType" => PdnNoteKind::InvalidGameType,
            "PdnTag" => PdnNoteKind::MalformedTag,
            "GameMove" => PdnNoteKind::MalformedMoveNumber,
            "Move" => PdnNoteKind::MalformedMove,
            "Variation" if strict.found.starts_with('{') => PdnNoteKind::NestedComment,
            _ => PdnNoteKind::NotInGrammar,
        };
        out.push(Deviation {
            kind,
            line: strict.line,
            column: strict.column,
            text: strict.found,
        });
    }
    out.truncate(MAX_DEVIATIONS);
    out
}

/// Whether byte `b` ends a token of the scan.
fn ends_token(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';')
}

fn scan(text: &str, game: &PdnGame, last: bool, at: &Locator) -> Vec<Deviation> {
    let span = game.span.clone();
    let bytes = text.as_bytes();
    let end = span.end;
    let mut out: Vec<Deviation> = Vec::new();
    let push = |out: &mut Vec<Deviation>, kind: PdnNoteKind, pos: usize, len: usize| {
        let e = at.error(pos, "", Vec::new());
        out.push(Deviation {
            kind,
            line: e.line,
            column: e.column,
            text: text[pos..(pos + len).min(end)].chars().take(40).collect(),
        });
    };
    let mut tags: Vec<Tag> = Vec::new();
    let mut separator: Option<(&str, usize)> = None;
    // A move number waiting for its move (where it starts), and whether the last token was a
    // move number or a placeholder `-`.
    let mut number: Option<usize> = None;
    let mut after_number = false;
    let mut last_was_move = false;
    let mut placeholder = false;
    // The last token read, when it was a move: where it starts and its length.
    let mut last_move: Option<(usize, usize)> = None;
    let mut depth = 0usize;
    // Where the move text starts (a tag may not follow it).
    let mut body_at: Option<usize> = None;
    let mut pos = span.start;
    loop {
        // White space and `%` line comments.
        while pos < end {
            if bytes[pos].is_ascii_whitespace() {
                pos += 1;
            } else if bytes[pos] == b'%' {
                while pos < end && bytes[pos] != b'\n' {
                    pos += 1;
                }
            } else {
                break;
            }
        }
        if pos >= end || out.len() >= MAX_DEVIATIONS {
            break;
        }
        // Parentheses one by one (a variation may hold what the grammar rejects).
        let c = bytes[pos];
        if c == b'(' && !is_strength(&bytes[pos..end]) {
            depth += 1;
            body_at.get_or_insert(pos);
            if let Some(n) = number.take() {
                push(&mut out, PdnNoteKind::MalformedMoveNumber, n, pos - n);
            }
            (after_number, last_was_move, last_move) = (false, false, None);
            pos += 1;
            continue;
        }
        if c == b')' {
            if depth == 0 {
                push(&mut out, PdnNoteKind::NotInGrammar, pos, 1);
            } else {
                depth -= 1;
            }
            (after_number, last_was_move, last_move) = (false, false, None);
            pos += 1;
            continue;
        }
        // The longest run of tags, moves, comments, setups, NAGs and results from here, in one
        // parse.
        if number.is_none() {
            if let Some(run) = PdnGrammar::parse(Rule::Run, &text[pos..end])
                .ok()
                .and_then(|mut p| p.next())
            {
                let mut consumed = 0;
                let mut restart = None;
                for p in run.into_inner() {
                    let (from, to) = (p.as_span().start(), p.as_span().end());
                    let rule = p.as_rule();
                    match rule {
                        Rule::FastTag => {
                            tags.push(tag_of(&p, pos));
                            // Move text (a comment, most often) before the tags: once.
                            if let Some(b) = body_at.filter(|&b| b != usize::MAX) {
                                let len = text[b..pos + from].trim_end().len();
                                push(&mut out, PdnNoteKind::NotInGrammar, b, len);
                                body_at = Some(usize::MAX);
                            }
                        }
                        Rule::FastSeparator => separator = Some((p.as_str(), pos + from)),
                        Rule::RunComment if p.as_str()[1..].contains('{') => {
                            // A comment inside a comment: it ends where its braces balance.
                            push(&mut out, PdnNoteKind::NestedComment, pos + from, to - from);
                            body_at.get_or_insert(usize::MAX);
                            restart = Some(balanced_end(bytes, pos + from, end));
                            break;
                        }
                        _ => {
                            body_at.get_or_insert(pos + from);
                        }
                    }
                    last_was_move = rule == Rule::RunMove;
                    last_move = last_was_move.then_some((pos + from, to - from));
                    after_number = false;
                    consumed = to;
                }
                if let Some(r) = restart {
                    pos = r;
                    (after_number, last_was_move, last_move) = (false, false, None);
                    continue;
                }
                if consumed > 0 {
                    pos += consumed;
                    continue;
                }
            }
        }
        let rest = &text[pos..end];
        let parsed = PdnGrammar::parse(Rule::Item, rest)
            .ok()
            .and_then(|mut p| p.next());
        if let Some(item) = parsed {
            let len = item.as_span().end();
            let first = item.clone().into_inner().next();
            let rule = first.as_ref().map(Pair::as_rule);
            let was_number = number.take();
            let mut is_move = false;
            match rule {
                Some(Rule::PdnTag) => {
                    if let Some(p) = &first {
                        tags.push(tag_of(p, pos));
                    }
                    // Move text (a comment, most often) before the tags: once.
                    if let Some(b) = body_at.filter(|&b| b != usize::MAX) {
                        let len = text[b..pos].trim_end().len();
                        push(&mut out, PdnNoteKind::NotInGrammar, b, len);
                        body_at = Some(usize::MAX);
                    }
                }
                Some(Rule::GameSeparator) => separator = Some((rest[..len].trim(), pos)),
                Some(Rule::MOVENUMBER) => number = Some(pos),
                Some(Rule::Move) => is_move = true,
                Some(Rule::LPAREN) => depth += 1,
                Some(Rule::RPAREN) if depth == 0 => {
                    push(&mut out, PdnNoteKind::NotInGrammar, pos, 1)
                }
                Some(Rule::RPAREN) => depth -= 1,
                Some(Rule::MOVESTRENGTH) if !last_was_move => {
                    push(&mut out, PdnNoteKind::NotInGrammar, pos, len)
                }
                Some(Rule::BRACECOMMENT) if rest[1..len].contains('{') => {
                    // A comment inside a comment: it ends where its braces balance.
                    push(&mut out, PdnNoteKind::NestedComment, pos, len);
                    body_at.get_or_insert(usize::MAX);
                    pos = balanced_end(bytes, pos, end);
                    last_was_move = false;
                    after_number = false;
                    continue;
                }
                _ => {}
            }
            if let Some(n) = was_number {
                if !is_move {
                    push(&mut out, PdnNoteKind::MalformedMoveNumber, n, pos - n);
                }
            }
            if rule != Some(Rule::PdnTag) && body_at.is_none() {
                body_at = Some(pos);
            }
            after_number = rule == Some(Rule::MOVENUMBER);
            last_was_move = is_move;
            last_move = is_move.then_some((pos, len));
            pos += len.max(1);
            continue;
        }
        // A token the grammar does not allow here.
        let mut j = pos + 1;
        while j < end && !ends_token(bytes[j]) {
            j += 1;
        }
        while !text.is_char_boundary(j) {
            j += 1;
        }
        let token = &text[pos..j];
        let was_number = number.take();
        let c = bytes[pos];
        let next_is_dot = text[j..end].trim_start().starts_with('.');
        let (kind, skip_to) = if c == b'[' {
            let close = text[pos..end].find(']').map_or(end, |k| pos + k + 1);
            let eol = text[pos..end].find('\n').map_or(end, |k| pos + k);
            (Some(PdnNoteKind::MalformedTag), close.min(eol.max(pos + 1)))
        } else if c == b'{' {
            // A comment never closed (the reader reports it as the game's error).
            (Some(PdnNoteKind::NotInGrammar), end)
        } else if c == b';' {
            let eol = text[pos..end].find('\n').map_or(end, |k| pos + k);
            (Some(PdnNoteKind::NotInGrammar), eol)
        } else if token == "-" && (after_number || was_number.is_some()) {
            // A placeholder for an unknown move (`1. - -`): the first one of the game.
            after_number = true;
            pos = j;
            if !placeholder {
                placeholder = true;
                push(&mut out, PdnNoteKind::MalformedMove, pos - 1, 1);
            }
            continue;
        } else if c.is_ascii_alphabetic()
            && text[pos..].split('\n').next().is_some_and(|l| {
                let l = l.trim_end();
                l.contains('"') && l.ends_with(']')
            })
        {
            // A tag line without its '['.
            let eol = text[pos..end].find('\n').map_or(end, |k| pos + k);
            (Some(PdnNoteKind::MalformedTag), eol)
        } else if j >= end.min(text.len()) && looks_like_result(token) {
            (Some(PdnNoteKind::NonStandardResult), j)
        } else if c == b'.' && after_number {
            (Some(PdnNoteKind::MalformedMoveNumber), j)
        } else if c.is_ascii_digit() {
            let digits = token.bytes().take_while(u8::is_ascii_digit).count();
            let after = token.as_bytes().get(digits).copied();
            // `9n` for `9.`, `1 .`: digits, then no more digits.
            let numberlike = next_is_dot && digits == token.len()
                || after.is_some_and(|b| b.is_ascii_alphabetic())
                    && !token[digits..].bytes().any(|b| b.is_ascii_digit());
            if numberlike {
                (Some(PdnNoteKind::MalformedMoveNumber), j)
            } else if looks_like_result(token) {
                (Some(PdnNoteKind::NonStandardResult), j)
            } else {
                (Some(PdnNoteKind::MalformedMove), j)
            }
        } else if c.is_ascii_lowercase() && token.bytes().any(|b| b.is_ascii_digit()) {
            (Some(PdnNoteKind::MalformedMove), j)
        } else {
            (Some(PdnNoteKind::NotInGrammar), j)
        };
        if let Some(kind) = kind {
            // Dots glued to a move number (`2..`) are said at the number.
            let from = match was_number {
                Some(n) if c == b'.' && text[n..pos].trim_end().len() == pos - n => n,
                _ => pos,
            };
            push(&mut out, kind, from, skip_to - from);
        }
        after_number = false;
        last_was_move = false;
        last_move = None;
        pos = skip_to.max(pos + 1);
        while pos < text.len() && !text.is_char_boundary(pos) {
            pos += 1;
        }
    }
    if let Some(n) = number {
        push(&mut out, PdnNoteKind::MalformedMoveNumber, n, 1);
    }
    if separator.is_none() && !last {
        match last_move {
            // The reader took the last move-like token for the game's result (`4-6`, the
            // Result tag's own value).
            Some((p, len)) if game.terminator.is_some() => {
                push(&mut out, PdnNoteKind::NonStandardResult, p, len)
            }
            // No result nor `*` before the next game's tags.
            _ => {
                let e = at.error(span.end, "", Vec::new());
                out.push(Deviation {
                    kind: PdnNoteKind::NotInGrammar,
                    line: e.line,
                    column: e.column,
                    text: e.found,
                });
            }
        }
    }
    out.extend(semantic(&tags, separator, at));
    out.sort_by_key(|d| (d.line, d.column));
    out
}

/// The deviations of a game's tag values and result (FEN, GameType, Result), in text order.
fn semantic(tags: &[Tag], separator: Option<(&str, usize)>, at: &Locator) -> Vec<Deviation> {
    let mut out: Vec<Deviation> = check_tags(tags, at)
        .into_iter()
        .map(|e| Deviation {
            kind: match e.rule.as_str() {
                "Fen" => PdnNoteKind::InvalidFen,
                "GameType" => PdnNoteKind::InvalidGameType,
                _ => PdnNoteKind::NonStandardResult,
            },
            line: e.line,
            column: e.column,
            text: e.found,
        })
        .collect();
    if let Some((result, p)) = separator {
        let allowed = results_for(tag_value(tags, "GameType"));
        if !allowed.contains(&result) {
            let e = at.error(p, "Result", Vec::new());
            out.push(Deviation {
                kind: PdnNoteKind::NonStandardResult,
                line: e.line,
                column: e.column,
                text: result.to_string(),
            });
        }
    }
    out
}

/// Where the comment that starts at `from` ends when its braces are counted (after its `}`).
fn balanced_end(bytes: &[u8], from: usize, end: usize) -> usize {
    let mut d = 0usize;
    let mut j = from;
    while j < end {
        match bytes[j] {
            b'{' => d += 1,
            b'}' => {
                d -= 1;
                if d == 0 {
                    break;
                }
            }
            _ => {}
        }
        j += 1;
    }
    (j + 1).min(end)
}

/// Whether the bytes start with a move strength in parentheses (`(?)`, `(!!)`).
fn is_strength(b: &[u8]) -> bool {
    let n = b
        .iter()
        .skip(1)
        .take_while(|c| matches!(c, b'!' | b'?'))
        .count();
    n > 0 && b.get(n + 1) == Some(&b')')
}

/// Whether a token is written like a result (`1:0`, `4-6`, `1/2:1/2`, `-`): a lone `-`, or
/// numbers joined by `-`, `:` or `/`, of at most 7 characters.
fn looks_like_result(token: &str) -> bool {
    let b = token.as_bytes();
    token == "-"
        || (b.len() <= 7
            && b.first().is_some_and(u8::is_ascii_digit)
            && b.last().is_some_and(u8::is_ascii_digit)
            && b.iter().any(|c| matches!(c, b'-' | b':' | b'/'))
            && b.iter()
                .all(|c| c.is_ascii_digit() || matches!(c, b'-' | b':' | b'/')))
}

/// The grammar's `GameText` (as `FastGame` in `pdn.pest`) written out by hand, for speed: the
/// pest parse of every game costs about a third of judging the real files, this a small part
/// (docs/pdn.md). It decides only whether a game's text is of the grammar, and finds its tags
/// and separator; where it rejects, the pest grammar says where and why. The tests check that
/// the two agree ([`agrees_with_pest`]).
mod fast {
    /// What the hand-written reading says of a game's text.
    pub(super) enum Verdict<'a> {
        /// Of the grammar: its tags (name, value, where the value starts) and its separator.
        Accepted(Vec<(&'a str, &'a str, usize)>, Option<(&'a str, usize)>),
        Rejected,
        /// Variations nested deeper than this reading follows: ask pest.
        TooDeep,
    }

    /// Deepest variation nesting read by hand.
    const MAX_DEPTH: usize = 64;

    struct Cur<'a> {
        s: &'a str,
        b: &'a [u8],
        i: usize,
    }

    /// A failed production (the text is not of the grammar, or too deep).
    enum Stop {
        Fail,
        Deep,
    }

    type R<T> = Result<T, Stop>;

    impl<'a> Cur<'a> {
        fn peek(&self) -> Option<u8> {
            self.b.get(self.i).copied()
        }

        fn at(&self, i: usize) -> u8 {
            self.b.get(i).copied().unwrap_or(0)
        }

        /// White space and `%` line comments.
        fn skip(&mut self) {
            while let Some(c) = self.peek() {
                match c {
                    b' ' | b'\t' | b'\r' | b'\n' => self.i += 1,
                    b'%' => {
                        while self.peek().is_some_and(|c| c != b'\n') {
                            self.i += 1;
                        }
                    }
                    _ => break,
                }
            }
        }

        /// The length of the result at `i` (the standard's `Result`), if one starts there.
        fn result_at(&self, i: usize) -> Option<usize> {
            let b = &self.b[i.min(self.b.len())..];
            let is = |p: &[u8]| b.starts_with(p);
            if is(b"1/2-1/2") {
                Some(7)
            } else if is(b"1-0")
                || is(b"0-1")
                || is(b"2-0")
                || is(b"0-2")
                || is(b"0-0")
                || (is(b"1-1") && !b.get(3).is_some_and(u8::is_ascii_digit))
            {
                Some(3)
            } else {
                None
            }
        }

        fn separator_at(&self, i: usize) -> Option<usize> {
            if self.at(i) == b'*' {
                Some(1)
            } else {
                self.result_at(i)
            }
        }

        /// `[` IDENTIFIER STRING `]`.
        fn tag(&mut self) -> R<(&'a str, &'a str, usize)> {
            self.i += 1;
            self.skip();
            let n0 = self.i;
            if !self.at(self.i).is_ascii_uppercase() {
                return Err(Stop::Fail);
            }
            while self.at(self.i).is_ascii_alphanumeric() || self.at(self.i) == b'_' {
                self.i += 1;
            }
            let name = &self.s[n0..self.i];
            self.skip();
            if self.peek() != Some(b'"') {
                return Err(Stop::Fail);
            }
            self.i += 1;
            let v0 = self.i;
            loop {
                match self.peek() {
                    None => return Err(Stop::Fail),
                    Some(b'"') => break,
                    Some(b'\\') => {
                        self.i += 1;
                        // ANY: one character.
                        let c = self.s[self.i..].chars().next().ok_or(Stop::Fail)?;
                        self.i += c.len_utf8();
                    }
                    Some(_) => self.i += 1,
                }
            }
            let value = &self.s[v0..self.i];
            self.i += 1;
            self.skip();
            if self.peek() != Some(b']') {
                return Err(Stop::Fail);
            }
            self.i += 1;
            Ok((name, value, v0))
        }

        /// A square at `i`: its end.
        fn square(&self, i: usize) -> Option<usize> {
            let (c, d) = (self.at(i), self.at(i + 1));
            match c {
                b'a'..=b'h' if (b'1'..=b'8').contains(&d) => Some(i + 2),
                b'1'..=b'9' if d.is_ascii_digit() => Some(i + 2),
                b'1'..=b'9' => Some(i + 1),
                b'0' if (b'1'..=b'9').contains(&d) => Some(i + 2),
                _ => None,
            }
        }

        /// The end of the white space from `i`.
        fn skipped(&mut self, i: usize) -> usize {
            let keep = self.i;
            self.i = i;
            self.skip();
            let j = self.i;
            self.i = keep;
            j
        }

        /// `MOVENUMBER? Move MOVESTRENGTH?`.
        fn game_move(&mut self) -> R<()> {
            let start = self.i;
            let mut i = self.i;
            while self.at(i).is_ascii_digit() {
                i += 1;
            }
            if i > start && self.at(i) == b'.' {
                i += 1;
                if self.at(i) == b'.' && self.at(i + 1) == b'.' {
                    i += 2;
                }
                self.i = self.skipped(i);
            }
            if self.result_at(self.i).is_some() {
                return Err(Stop::Fail);
            }
            let m = self.i;
            let mut end = None;
            if let Some(e) = self.square(m) {
                let j = self.skipped(e);
                if self.at(j) == b'-' {
                    let k = self.skipped(j + 1);
                    end = self.square(k);
                } else {
                    let mut e = e;
                    let mut captures = 0;
                    loop {
                        let j = self.skipped(e);
                        if !matches!(self.at(j), b'x' | b':') {
                            break;
                        }
                        let k = self.skipped(j + 1);
                        match self.square(k) {
                            Some(f) => {
                                e = f;
                                captures += 1;
                            }
                            None => break,
                        }
                    }
                    if captures > 0 {
                        end = Some(e);
                    }
                }
            }
            if end.is_none() {
                let b = &self.b[m.min(self.b.len())..];
                let file = |c: u8| (b'a'..=b'h').contains(&c);
                let rank = |c: u8| (b'1'..=b'8').contains(&c);
                if b.len() >= 4 && file(b[0]) && rank(b[1]) && file(b[2]) && rank(b[3]) {
                    end = Some(m + 4);
                } else if b.starts_with(b"...") {
                    end = Some(m + 3);
                }
            }
            self.i = end.ok_or(Stop::Fail)?;
            // (SKIP MOVESTRENGTH)?
            let j = self.skipped(self.i);
            let strength = |c: u8| matches!(c, b'!' | b'?');
            if strength(self.at(j)) {
                let mut k = j;
                while strength(self.at(k)) {
                    k += 1;
                }
                self.i = k;
            } else if self.at(j) == b'(' && strength(self.at(j + 1)) {
                let mut k = j + 1;
                while strength(self.at(k)) {
                    k += 1;
                }
                if self.at(k) == b')' {
                    self.i = k + 1;
                }
            }
            Ok(())
        }

        /// One item of a game body; `Fail` where none starts.
        fn item(&mut self, depth: usize) -> R<()> {
            match self.peek() {
                Some(b'(') => {
                    if depth >= MAX_DEPTH {
                        return Err(Stop::Deep);
                    }
                    self.i += 1;
                    self.skip();
                    self.body(depth + 1)?;
                    self.skip();
                    if self.peek() != Some(b')') {
                        return Err(Stop::Fail);
                    }
                    self.i += 1;
                    Ok(())
                }
                Some(b'{') => self.until(b'}'),
                Some(b'/') => self.until(b'/'),
                Some(b'$') => {
                    let mut k = self.i + 1;
                    while self.at(k).is_ascii_digit() {
                        k += 1;
                    }
                    if k == self.i + 1 {
                        return Err(Stop::Fail);
                    }
                    self.i = k;
                    Ok(())
                }
                Some(_) => self.game_move(),
                None => Err(Stop::Fail),
            }
        }

        fn until(&mut self, close: u8) -> R<()> {
            match self.b[self.i + 1..].iter().position(|&c| c == close) {
                Some(k) => {
                    self.i += k + 2;
                    Ok(())
                }
                None => Err(Stop::Fail),
            }
        }

        /// `(GameMove | Variation | COMMENT | SETUP | NAG)+`, up to a separator, a `)`, a `[`
        /// or the end; an item that fails is a failure (the grammar has nothing else there).
        fn body(&mut self, depth: usize) -> R<()> {
            let mut items = 0;
            loop {
                let c = self.peek();
                if c.is_none()
                    || c == Some(b')')
                    || c == Some(b'[')
                    || self.separator_at(self.i).is_some()
                {
                    break;
                }
                self.item(depth)?;
                items += 1;
                self.skip();
            }
            if items == 0 {
                return Err(Stop::Fail);
            }
            Ok(())
        }
    }

    /// Reads a game's text (the grammar's `GameText`).
    pub(super) fn read(s: &str) -> Verdict<'_> {
        let mut c = Cur {
            s,
            b: s.as_bytes(),
            i: 0,
        };
        fn run<'a>(c: &mut Cur<'a>) -> R<Verdict<'a>> {
            let mut tags = Vec::new();
            c.skip();
            while c.peek() == Some(b'[') {
                tags.push(c.tag()?);
                c.skip();
            }
            let c0 = c.peek();
            if c0.is_some() && c.separator_at(c.i).is_none() {
                c.body(0)?;
            } else if tags.is_empty() {
                return Err(Stop::Fail);
            }
            c.skip();
            let mut separator = None;
            if let Some(n) = c.separator_at(c.i) {
                separator = Some((&c.s[c.i..c.i + n], c.i));
                c.i += n;
                c.skip();
            }
            if c.i != c.b.len() {
                return Err(Stop::Fail);
            }
            Ok(Verdict::Accepted(tags, separator))
        }
        match run(&mut c) {
            Ok(v) => v,
            Err(Stop::Fail) => Verdict::Rejected,
            Err(Stop::Deep) => Verdict::TooDeep,
        }
    }
}

/// Whether the hand-written reading of a game's text agrees with the pest grammar (both
/// accept it, with the same tags and separator, or both reject it): for the tests.
#[doc(hidden)]
pub fn agrees_with_pest(game_text: &str) -> bool {
    let pest = PdnGrammar::parse(Rule::GameText, game_text);
    let fast_pest = PdnGrammar::parse(Rule::FastGame, game_text);
    if pest.is_ok() != fast_pest.is_ok() {
        return false;
    }
    match (fast::read(game_text), pest) {
        (fast::Verdict::TooDeep, _) => true,
        (fast::Verdict::Rejected, p) => p.is_err(),
        (fast::Verdict::Accepted(tags, sep), Ok(pairs)) => {
            let (ptags, psep) = tags_and_separator(pairs, 0);
            let ptags: Vec<(&str, &str, usize)> =
                ptags.iter().map(|t| (t.name, t.value, t.at)).collect();
            ptags == tags && psep == sep
        }
        (fast::Verdict::Accepted(..), Err(_)) => false,
    }
}
