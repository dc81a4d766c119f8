//! PDN 3.0 game files (pdn.fmjd.org): tag pairs, move text with move numbers, comments,
//! variations (skipped), NAGs, results in both styles, several games per file, CRLF or LF, a
//! UTF-8 byte-order mark.
//!
//! Reading is liberal, as PDN asks: tags without quotes (`[Round 17]`), tags indented with
//! tabs, several tags on one line, text before the first tag, a move number glued to its move
//! (`1.32-28`), forfeits written `1. 1-0`. Errors that spoil one game (an unterminated comment
//! or variation, a broken tag) are reported for that game; the rest of the file is still read
//! when it can be. Every deviation of a game from the PDN 3.0 grammar is a note on it
//! ([`PdnNoteKind`], found by [`super::deviations`]); `strict` reading refuses
//! such a file instead ([`super::check_file`]).

use super::game::{
    is_setup_tag, PdnGame, PdnLimits, PdnMove, PdnNote, PdnNoteKind, ReadPoint, MAX_NOTES, RESULTS,
};
use super::grammar::deviations_in;

/// Splits a PDN file into games (no bounds; see [`PdnReader`] for bounded reading).
pub fn parse_pdn(text: &str) -> Vec<PdnGame> {
    PdnReader::new(text, PdnLimits::default()).collect()
}

/// Reads the games of a PDN text one at a time, in a single pass over its bytes: nothing is
/// built for a game before the previous one is handed out, and what a game keeps is bounded
/// by [`PdnLimits`].
#[derive(Clone, Debug)]
pub struct PdnReader<'a> {
    text: &'a str,
    i: usize,
    line: usize,
    at_line_start: bool,
    /// Characters on the first line before the text starts (a resumed reader's).
    first_column: usize,
    limits: PdnLimits,
    /// Count games without keeping their moves or tags ([`PdnReader::count`]).
    skim: bool,
}

impl<'a> PdnReader<'a> {
    pub fn new(text: &'a str, limits: PdnLimits) -> PdnReader<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        PdnReader {
            text,
            i: 0,
            line: 1,
            at_line_start: true,
            first_column: 0,
            limits,
            skim: false,
        }
    }

    /// A reader that keeps nothing of the games but where they are ([`PdnGame::span`]) and how
    /// they end.
    pub(crate) fn skimming(text: &'a str) -> PdnReader<'a> {
        let mut r = PdnReader::new(text, PdnLimits::default());
        r.skim = true;
        r
    }

    /// The number of games of a text, found without keeping any of them: the bound on the
    /// number of games of a request is checked with this before anything is built.
    pub fn count_games(text: &str) -> usize {
        let mut r = PdnReader::new(text, PdnLimits::default());
        r.skim = true;
        r.count()
    }

    /// A reader of `text` that goes on where another reader of the same file stood (its
    /// [`PdnReader::point`]): `text` starts there, and no byte-order mark is looked for.
    pub(super) fn resume(text: &'a str, limits: PdnLimits, from: ReadPoint) -> PdnReader<'a> {
        PdnReader {
            text,
            i: 0,
            line: from.line,
            at_line_start: from.at_line_start,
            first_column: from.column,
            limits,
            skim: false,
        }
    }

    /// Where the reader stands: its byte offset in the text, and what [`PdnReader::resume`]
    /// needs to read on from there.
    pub(super) fn point(&self) -> (usize, ReadPoint) {
        let i = self.i.min(self.text.len());
        let column = match self.text[..i].rfind('\n') {
            Some(n) => self.text[n + 1..i].chars().count(),
            None => self.first_column + self.text[..i].chars().count(),
        };
        let point = ReadPoint {
            line: self.line,
            at_line_start: self.at_line_start,
            column,
        };
        (i, point)
    }

    /// The character at byte `i` (every syntax character of PDN is ASCII).
    fn char_at(&self, i: usize) -> Option<char> {
        self.text[i..].chars().next()
    }

    fn is_space(&self, i: usize) -> bool {
        let b = self.text.as_bytes()[i];
        if b < 0x80 {
            b.is_ascii_whitespace()
        } else {
            // Only the first byte of a character starts one (continuation bytes never do).
            self.text.is_char_boundary(i) && self.char_at(i).is_some_and(char::is_whitespace)
        }
    }

    /// Bytes `[i, j)` as a string, cut to `max` bytes (at a character boundary).
    fn slice(&self, i: usize, j: usize, max: usize) -> String {
        cut(&self.text[i..j], max).to_string()
    }

    /// Keeps the tag whose text (between the brackets) is bytes `[i, j)`, and notes in `seen`
    /// the value of the game's first `Result` tag (any case, as [`PdnGame::tag`] finds it): a
    /// move-text token equal to it ends the game. That value is noted whole, whatever the
    /// limits keep of the tags, so that the games are split the same way with and without
    /// limits and when only counted. Skimming keeps no tag.
    ///
    /// `max_tags` bounds the tags other than the [`SETUP_TAGS`]; of those, the first of each
    /// name is kept (the one [`PdnGame::tag`] finds) and a repeat is not. So a game written
    /// back with its setup tags rewritten (`adjudication::write_pdn`) is read again within
    /// the same limits.
    fn take_tag(
        &self,
        cur: &mut PdnGame,
        seen: &mut TagsSeen,
        (i, j): (usize, usize),
        line: usize,
        repaired: bool,
    ) {
        let body = &self.text[i..j];
        let name = tag_name(body);
        if seen.ends.is_none() && name.eq_ignore_ascii_case("Result") {
            seen.ends = parse_tag(body).map(|(_, value)| value);
        }
        if self.skim {
            return;
        }
        let setup = is_setup_tag(&name);
        if setup && cur.tag(&name).is_some() {
            return;
        }
        if !setup && seen.ordinary >= self.limits.max_tags {
            cur.error.get_or_insert(format!(
                "line {line}: more than {} tags in one game (besides GameType, Variant, FEN \
                 and Result)",
                self.limits.max_tags
            ));
            return;
        }
        match parse_tag(body) {
            Some((name, mut value)) => {
                value.truncate(cut(&value, self.limits.max_token).len());
                cur.tags.push((name, value));
                seen.ordinary += usize::from(!setup);
                if repaired && cur.notes.len() < MAX_NOTES {
                    cur.notes.push(PdnNote {
                        kind: PdnNoteKind::TagRepaired,
                        line,
                        column: 1,
                        text: body.trim().chars().take(80).collect(),
                    });
                }
            }
            None => {
                cur.error.get_or_insert(format!(
                    "line {line}: '[{}]' is not a tag (expected [Name \"value\"])",
                    body.chars().take(60).collect::<String>()
                ));
            }
        }
    }
}

/// `text` cut to at most `max` bytes, at a character boundary.
fn cut(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Whether byte `j` starts one of the two escapes of a PDN string, `\"` and `\\`.
fn is_escape(bytes: &[u8], j: usize) -> bool {
    bytes[j] == b'\\' && matches!(bytes.get(j + 1), Some(b'"' | b'\\'))
}

/// The `]` that ends the line holding bytes `[from, newline)`, if the line ends with one
/// (after spaces, tabs, carriage returns or a literal `\\r`).
fn bracket_ending_line(bytes: &[u8], from: usize, newline: usize) -> Option<usize> {
    let mut k = newline;
    while k > from {
        match bytes[k - 1] {
            b' ' | b'\t' | b'\r' => k -= 1,
            b'r' if k >= from + 2 && bytes[k - 2] == b'\\' => k -= 2,
            b']' => return Some(k - 1),
            _ => return None,
        }
    }
    None
}

/// Whether a line starting at byte `i` is a tag without its opening bracket:
/// `Name "value"]`, then only white space (or a literal `\\r`) to the end of the line.
/// Returns the position of the `]`.
fn bare_tag_line(bytes: &[u8], i: usize) -> Option<usize> {
    let len = bytes.len();
    let mut j = i;
    if !bytes.get(j)?.is_ascii_alphabetic() {
        return None;
    }
    while j < len && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
        j += 1;
    }
    let name_end = j;
    while j < len && (bytes[j] == b' ' || bytes[j] == b'\t') {
        j += 1;
    }
    if j == name_end || bytes.get(j) != Some(&b'"') {
        return None;
    }
    j += 1;
    while j < len && bytes[j] != b'"' && bytes[j] != b'\n' {
        j += if is_escape(bytes, j) { 2 } else { 1 };
    }
    if bytes.get(j) != Some(&b'"') || bytes.get(j + 1) != Some(&b']') {
        return None;
    }
    let close = j + 1;
    let mut k = close + 1;
    while k < len && bytes[k] != b'\n' {
        match bytes[k] {
            b' ' | b'\t' | b'\r' => k += 1,
            b'\\' if bytes.get(k + 1) == Some(&b'r') => k += 2,
            _ => return None,
        }
    }
    Some(close)
}

/// What the reader keeps of the game it is reading, between the tokens.
#[derive(Default)]
struct GameState {
    game: PdnGame,
    /// A tag was read (skimming keeps none).
    tagged: bool,
    /// The last move number read.
    number: Option<u32>,
    /// The last token was a move number or a placeholder: a lone '-' now is a placeholder
    /// for an unknown move (`1. - - 2. - -`), not a result.
    after_number: bool,
    /// What the game's tags said so far ([`PdnReader::take_tag`]).
    seen: TagsSeen,
}

/// What the reader does after a token.
enum Step {
    /// Reads on.
    Next,
    /// Hands out the game read so far: the token ended it (a result), or starts the next
    /// game (a tag after move text).
    Done,
}

impl Iterator for PdnReader<'_> {
    type Item = PdnGame;

    fn next(&mut self) -> Option<PdnGame> {
        let bytes = self.text.as_bytes();
        let len = bytes.len();
        let mut g = GameState::default();
        g.game.span = self.i..self.i;
        g.game.span_line = self.line;
        g.game.text_column = self.first_column;
        while self.i < len {
            let i = self.i;
            let c = bytes[i];
            if c == b'\n' {
                self.line += 1;
                self.i += 1;
                self.at_line_start = true;
                continue;
            }
            if self.is_space(i) {
                self.i += self.char_at(i).map_or(1, char::len_utf8);
                continue;
            }
            // Some exporters write a literal backslash-r at line ends: treat it as white space.
            if c == b'\\' && matches!(bytes.get(i + 1), Some(b'r') | Some(b'n')) {
                self.i += 2;
                continue;
            }
            let line_start = self.at_line_start;
            self.at_line_start = false;
            if g.game.line == 0 {
                g.game.line = self.line;
            }
            let step = match c {
                b'%' if line_start => self.skip_line(),
                b';' => self.skip_line(),
                b'[' => self.read_tag(i, &mut g),
                b'{' => self.skip_comment(i, &mut g.game),
                b'(' => self.skip_variation(i, &mut g.game),
                _ if line_start && bare_tag_line(bytes, i).is_some() => {
                    self.read_bare_tag(i, &mut g)
                }
                _ => self.read_token(i, &mut g),
            };
            if let Step::Done = step {
                return Some(self.finish(g.game));
            }
        }
        (!g.game.is_empty() || g.tagged).then(|| self.finish(g.game))
    }
}

impl PdnReader<'_> {
    /// Ends a game where the reader stands, and notes its deviations from the grammar.
    fn finish(&self, mut game: PdnGame) -> PdnGame {
        game.span.end = self.i.min(self.text.len());
        if self.skim {
            return game;
        }
        let repaired: Vec<usize> = game
            .notes
            .iter()
            .filter(|n| n.kind == PdnNoteKind::TagRepaired)
            .map(|n| n.line)
            .collect();
        for d in deviations_in(self.text, &game) {
            if game.notes.len() >= MAX_NOTES {
                break;
            }
            // A broken tag the reader repaired is said once, by its repair.
            if d.kind == PdnNoteKind::MalformedTag && repaired.contains(&d.line) {
                continue;
            }
            game.notes.push(PdnNote {
                kind: d.kind,
                line: d.line,
                column: d.column,
                text: d.text,
            });
        }
        game
    }
}

impl<'a> PdnReader<'a> {
    /// Skips the rest of the line: a `%` escape line or a `;` comment.
    fn skip_line(&mut self) -> Step {
        let bytes = self.text.as_bytes();
        while self.i < bytes.len() && bytes[self.i] != b'\n' {
            self.i += 1;
        }
        Step::Next
    }

    /// Reads the tag that starts with the `[` at `i`, repairing what common exporters get
    /// wrong; a tag after move text starts the next game.
    fn read_tag(&mut self, i: usize, g: &mut GameState) -> Step {
        let bytes = self.text.as_bytes();
        let len = bytes.len();
        let cur = &mut g.game;
        if cur.has_content() {
            // A new game starts: hand out the one read so far.
            return Step::Done;
        }
        let start_line = self.line;
        let mut j = i + 1;
        let mut in_quotes = false;
        let mut repaired = false;
        // "[[Event ...]": a doubled bracket.
        while bytes.get(j) == Some(&b'[') {
            j += 1;
            repaired = true;
        }
        // A '[' alone on its line: noise before a tag on the next line, or a tag
        // whose name went to the next line.
        let mut k = j;
        while k < len && matches!(bytes[k], b' ' | b'\t' | b'\r') {
            k += 1;
        }
        if k < len && bytes[k] == b'\n' {
            let mut n = k;
            while n < len && bytes[n].is_ascii_whitespace() {
                n += 1;
            }
            if n < len && bytes[n] == b'[' {
                self.i = i + 1;
                return Step::Next;
            }
            if n < len && bytes[n].is_ascii_alphabetic() {
                self.line += bytes[k..n].iter().filter(|&&b| b == b'\n').count();
                j = n;
                repaired = true;
            }
        }
        let body_start = j;
        while j < len && (in_quotes || bytes[j] != b']') {
            // `\"` and `\\` are a quote and a backslash (PDN follows PGN's
            // strings): neither opens nor closes a value.
            if is_escape(bytes, j) {
                j += 2;
                continue;
            }
            if bytes[j] == b'"' {
                in_quotes = !in_quotes;
            }
            if bytes[j] == b'\n' {
                if !in_quotes {
                    break;
                }
                // A value whose closing quote is missing (`[Round "11.1]`): the
                // tag ends at the ']' that ends its line.
                if let Some(k) = bracket_ending_line(bytes, i + 1, j) {
                    j = k;
                    repaired = true;
                    break;
                }
                self.line += 1;
            }
            j += 1;
        }
        if j >= len || bytes[j] != b']' {
            let body = self.slice(i, j.min(len), 60);
            cur.error.get_or_insert(format!(
                "line {start_line}: tag '{}' is not closed with ']'",
                body.trim()
            ));
            self.i = j;
            return Step::Next;
        }
        self.i = j + 1;
        g.tagged = true;
        self.take_tag(
            &mut g.game,
            &mut g.seen,
            (body_start, j),
            start_line,
            repaired,
        );
        Step::Next
    }

    /// Reads a tag line that lost its '[' (`Event "..."]`), starting at `i`; after move text
    /// it starts the next game.
    fn read_bare_tag(&mut self, i: usize, g: &mut GameState) -> Step {
        if g.game.has_content() {
            self.at_line_start = true;
            return Step::Done;
        }
        let j = bare_tag_line(self.text.as_bytes(), i).unwrap_or(i);
        self.i = j + 1;
        g.tagged = true;
        self.take_tag(&mut g.game, &mut g.seen, (i, j), self.line, true);
        Step::Next
    }

    /// Skips the comment that starts with the `{` at `i` (nested braces included).
    fn skip_comment(&mut self, i: usize, cur: &mut PdnGame) -> Step {
        let bytes = self.text.as_bytes();
        let len = bytes.len();
        let start_line = self.line;
        let mut depth = 0;
        let mut j = i;
        while j < len {
            match bytes[j] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'\n' => self.line += 1,
                _ => {}
            }
            j += 1;
        }
        if j >= len {
            cur.error.get_or_insert(format!(
                "line {start_line}: comment '{{' is never closed (the rest of the file \
                 is inside it)"
            ));
        }
        self.i = j + 1;
        Step::Next
    }

    /// Skips the variation that starts with the `(` at `i` (nested ones and their comments
    /// included).
    fn skip_variation(&mut self, i: usize, cur: &mut PdnGame) -> Step {
        let bytes = self.text.as_bytes();
        let len = bytes.len();
        let start_line = self.line;
        let mut depth = 0;
        let mut j = i;
        while j < len {
            match bytes[j] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'{' => {
                    // Comments inside a variation may hold parentheses.
                    while j < len && bytes[j] != b'}' {
                        if bytes[j] == b'\n' {
                            self.line += 1;
                        }
                        j += 1;
                    }
                }
                b'\n' => self.line += 1,
                _ => {}
            }
            j += 1;
        }
        if j >= len {
            cur.error
                .get_or_insert(format!("line {start_line}: variation '(' is never closed"));
        }
        self.i = j + 1;
        Step::Next
    }

    /// The token of move text that starts at `i`, with the next word glued to it when the
    /// token ends in a separator, and where it ends.
    fn token_at(&self, i: usize) -> (std::borrow::Cow<'a, str>, usize) {
        let text: &'a str = self.text;
        let bytes = text.as_bytes();
        let len = bytes.len();
        let ends_token = |j: usize| {
            matches!(bytes[j], b'{' | b'(' | b'[' | b';' | b')' | b'}')
                || (bytes[j] == b'\\' && matches!(bytes.get(j + 1), Some(b'r' | b'n')))
                || self.is_space(j)
        };
        let mut j = i;
        while j < len && !ends_token(j) {
            j += 1;
        }
        let mut token_end = j;
        let mut glued: Option<(usize, usize)> = None;
        // Old files pad squares with spaces ("1- 6", "47x 9"): a move that ends in
        // a separator continues with the next word on the same line.
        if j - i > 1 && matches!(bytes[j - 1], b'-' | b'x' | b'X' | b':') {
            let mut k = j;
            while k < len && (bytes[k] == b' ' || bytes[k] == b'\t') {
                k += 1;
            }
            let mut e = k;
            while e < len && bytes[e].is_ascii_alphanumeric() {
                e += 1;
            }
            if e > k {
                glued = Some((k, e));
                token_end = e;
            }
        }
        let token = match glued {
            Some((k, e)) => format!("{}{}", &text[i..j], &text[k..e]).into(),
            None => text[i..j].into(),
        };
        (token, token_end)
    }

    /// Reads the token of move text that starts at `i`: a move number, a move, a result (which
    /// ends the game), or something to pass over (a NAG, a placeholder, a move strength).
    fn read_token(&mut self, i: usize, g: &mut GameState) -> Step {
        let (token, token_end) = self.token_at(i);
        self.i = token_end.max(i + 1);
        let mut rest: &str = &token;
        // A move number, maybe glued to the move: "12." "12..." "12.32-28".
        let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 && rest[digits..].starts_with('.') {
            g.number = rest[..digits].parse().ok();
            rest = rest[digits..].trim_start_matches('.');
            if rest.is_empty() {
                g.after_number = true;
                return Step::Next;
            }
        }
        if rest.starts_with('$') {
            return Step::Next; // NAG
        }
        if rest.chars().all(|c| c == '.') {
            return Step::Next; // "..." continuing a move number written apart
        }
        let cur = &mut g.game;
        if rest == "-" && g.after_number {
            cur.placeholders += 1;
            return Step::Next;
        }
        g.after_number = false;
        // Russian files write results with ':' ("1/2:1/2"); a lone "-" ends some
        // exports' games (an unknown result); some files end the move text with
        // the Result tag's own value, even when it is no PDN result ("4-6").
        let as_result = rest.replace(':', "-");
        let tag_value = g.seen.ends.as_deref().map(str::trim);
        if RESULTS.contains(&as_result.as_str())
            || rest == "-"
            || tag_value.is_some_and(|r| !r.is_empty() && r == rest)
        {
            // Cut like the tag whose value it can be.
            cur.terminator = Some(cut(&as_result, self.limits.max_token).to_string());
            return Step::Done;
        }
        if rest.chars().all(|c| matches!(c, '!' | '?')) {
            return Step::Next; // a move strength written apart
        }
        cur.plies += 1;
        if self.skim || cur.moves.len() >= self.limits.max_plies {
            return Step::Next;
        }
        cur.moves.push(PdnMove {
            text: cut(rest, self.limits.max_token).to_string(),
            number: g.number,
            line: self.line,
        });
        Step::Next
    }
}

/// What the reader notes of a game's tags as it reads them ([`PdnReader::take_tag`]).
#[derive(Default)]
struct TagsSeen {
    /// The value of the game's first Result tag, whole.
    ends: Option<String>,
    /// The tags kept besides the [`SETUP_TAGS`].
    ordinary: usize,
}

/// The name of the tag whose text (between the brackets) is `body`, as [`parse_tag`] reads
/// it (character references decoded), found without building the tag.
fn tag_name(body: &str) -> std::borrow::Cow<'_, str> {
    let body = body.trim();
    let name = &body[..body
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(body.len())];
    if name.contains("&#") {
        decode_references(name).into()
    } else {
        name.into()
    }
}

/// Parses the inside of `[...]`.
fn parse_tag(body: &str) -> Option<(String, String)> {
    let body = body.trim();
    let name_len = body
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(body.len());
    let name = decode_references(&body[..name_len]);
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let rest = body[name_len..].trim();
    let value = if let Some(inner) = rest.strip_prefix('"') {
        // Up to the last quote: a quote inside that is not escaped (`"The "Big" Open"`, as
        // some files have it) is part of the value.
        let inner = inner.strip_suffix('"').unwrap_or(inner);
        let mut value = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.clone().next() {
                    Some(e @ ('"' | '\\')) => {
                        value.push(e);
                        chars.next();
                    }
                    _ => value.push(c),
                },
                _ => value.push(c),
            }
        }
        value
    } else {
        rest.to_string()
    };
    Some((name, value))
}

/// Decodes the numeric character references of a tag name (`&#x00c9;v&#x00e9;nement`, as an
/// exporter wrote `Événement`).
fn decode_references(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find("&#") {
        out.push_str(&rest[..p]);
        let after = &rest[p + 2..];
        let decoded = after.find(';').and_then(|e| {
            let code = &after[..e];
            let n = match code.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => code.parse().ok(),
            };
            n.and_then(char::from_u32).map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &after[e + 1..];
            }
            None => {
                out.push_str("&#");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_games_and_skips_annotations() {
        let text = "\u{feff}[Event \"A\"]\r\n[GameType \"20\"]\r\n1. 32-28 {comment (with) \
                    parens} 19-23 (2. 28x19 14x23) 2.28x19! $3 14x23 2-0\r\n\r\n[Event \"B\"]\n\
                    [Round 17]\n1. 1-0\n";
        let games = parse_pdn(text);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("event"), Some("A"));
        let moves: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["32-28", "19-23", "28x19!", "14x23"]);
        assert_eq!(g.moves[2].number, Some(2));
        assert_eq!(g.terminator.as_deref(), Some("2-0"));
        assert_eq!(games[1].tag("Round"), Some("17"));
        assert!(games[1].moves.is_empty());
        assert_eq!(games[1].declared_result(), Some("1-0"));
    }

    #[test]
    fn bounded_reading_keeps_what_the_limits_allow() {
        let limits = PdnLimits {
            max_plies: 2,
            max_tags: 1,
            max_token: 5,
        };
        let text =
            "[A \"1\"]\n[B \"2\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n[C \"3\"] 1. 31-27123456 *\n";
        let games: Vec<PdnGame> = PdnReader::new(text, limits).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].plies, 4);
        assert_eq!(games[0].moves.len(), 2);
        assert!(games[0]
            .error
            .as_deref()
            .unwrap()
            .contains("more than 1 tags"));
        assert_eq!(games[1].moves[0].text, "31-27");
        assert_eq!(PdnReader::count_games(text), 2);
        assert_eq!(PdnReader::count_games(&"* ".repeat(1000)), 1000);
        assert_eq!(PdnReader::count_games("[Event \"only tags\"]"), 1);
        // Multi-byte characters anywhere in a token are not white space.
        assert_eq!(parse_pdn("1. 32-28é\u{a0}19-23 *")[0].plies, 2);
    }

    #[test]
    fn repairs_broken_tags_as_real_files_have_them() {
        // Each case is from a file of tests/data/games (see its README).
        let text = "[Round \"11.1]\n[GameType \"25\"]\n1. cb4 fg5 1/2:1/2\n\n\
                    [Event \"A\"]\n1. 32-28 *\\r\n\nEvent \"B\"]\n[Site \"\"]\\r\n1. 33-28 *\n\
                    [\n[Event \"C\"]\n1. 31-27 *\n[[Event \"D\"]\n1. 34-30 *\n\
                    [&#x00c9;v&#x00e9;nement \"E\"]\n1. 32-27 *\n[\nEvent \"F\"]\n1. 31-26 *\n";
        let games = parse_pdn(text);
        let events: Vec<Option<&str>> = games.iter().map(|g| g.tag("Event")).collect();
        assert_eq!(
            events,
            [
                None,
                Some("A"),
                Some("B"),
                Some("C"),
                Some("D"),
                None,
                Some("F")
            ]
        );
        assert_eq!(games[0].tag("Round"), Some("11.1"));
        assert_eq!(games[0].tag("GameType"), Some("25"));
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[0].notes[0].kind, PdnNoteKind::TagRepaired);
        assert_eq!(games[2].notes[0].text, "Event \"B\"");
        assert_eq!(games[2].moves[0].text, "33-28");
        assert_eq!(games[5].tag("Événement"), Some("E"));
        for g in &games {
            assert!(g.error.is_none(), "{g:?}");
            assert!(!g.moves.is_empty(), "{g:?}");
        }
        assert_eq!(PdnReader::count_games(text), games.len());
    }

    #[test]
    fn placeholders_dots_and_non_standard_terminators() {
        // Unknown moves (abatsiev g36), a lone '-' result (Polish team championship), '...'
        // continuations (windragon), the Result tag's own value as terminator (delfts).
        let text = "[Event \"A\"]\n1. - - 2. - - 1/2-1/2\n[Event \"B\"]\n1.32-28 19-23  -\n\
                    [Event \"C\"]\n1. 32-28 {x} 1... 19-23 2. ... *\n\
                    [Result \"4-6\"]\n01. 34-29 4-6\n[Event \"E\"]\n1. 33-29 *\n";
        let games = parse_pdn(text);
        assert_eq!(games.len(), 5);
        assert_eq!(games[0].placeholders, 4);
        assert!(games[0].moves.is_empty());
        assert_eq!(games[0].terminator.as_deref(), Some("1/2-1/2"));
        assert_eq!(games[1].moves.len(), 2);
        assert_eq!(games[1].terminator.as_deref(), Some("-"));
        assert_eq!(games[2].moves.len(), 2);
        assert_eq!(games[3].moves.len(), 1);
        assert_eq!(games[3].terminator.as_deref(), Some("4-6"));
        assert_eq!(games[4].tag("Event"), Some("E"));
        assert_eq!(PdnReader::count_games(text), 5);
    }

    #[test]
    fn the_result_tag_ends_a_game_the_same_way_counted_bounded_or_not() {
        // A game's move text may end with its Result tag's value (`1`, `4-6`: no PDN result),
        // and another game follow without tags. The tag in any case or with a character
        // reference (as `tag` finds it), a value longer than the bounded reader keeps, and a
        // game with more tags than it keeps: every reader must split these texts the same way
        // (before, counting found 4 games of the first text's 6, and the bounded reader 2 of
        // the second's 4).
        let text = "[ResuLt \"1\"]\n[GameType \"20\"]\n1. 32-28 1 1. 31-27 *\n\n\
                    [&#82;esult \"4-6\"]\n1. 33-28 4-6 1. 33-29 *\n\n\
                    [result \"0-2\"]\n1. 34-29 0-2 1. 34-30 *\n";
        let long = "z".repeat(40);
        let bounded = PdnLimits {
            max_plies: 10,
            max_tags: 2,
            max_token: 8,
        };
        let text2 = format!(
            "[Result \"{long}\"]\n1. 32-28 {long} 1. 31-27 *\n\n[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n\
             [Result \"4-6\"]\n1. 32-28 4-6 1. 33-28 *\n"
        );
        // Where each game starts, its plies, and whether a terminator ended it.
        let split = |r: PdnReader| -> Vec<_> {
            r.map(|g| (g.line, g.plies, g.terminator.is_some()))
                .collect()
        };
        for (text, limits, n) in [
            (text, PdnLimits::default(), 6),
            (text2.as_str(), bounded, 4),
        ] {
            let full = split(PdnReader::new(text, PdnLimits::default()));
            assert_eq!(full.len(), n, "{full:?}");
            assert_eq!(split(PdnReader::new(text, limits)), full);
            let mut skim = PdnReader::new(text, PdnLimits::default());
            skim.skim = true;
            assert_eq!(split(skim), full);
            assert_eq!(PdnReader::count_games(text), n);
        }
        let full = parse_pdn(text);
        assert_eq!(full[0].terminator.as_deref(), Some("1"));
        assert_eq!(full[0].plies, 1);
        assert_eq!(full[2].terminator.as_deref(), Some("4-6"));
        assert_eq!(full[2].tag("Result"), Some("4-6"));
        assert_eq!(full[4].terminator.as_deref(), Some("0-2"));
        // What the bounded reader keeps of the tags is still cut to its limits.
        let read: Vec<PdnGame> = PdnReader::new(&text2, bounded).collect();
        assert_eq!(read[0].tag("Result"), Some("zzzzzzzz"));
        assert_eq!(read[0].terminator.as_deref(), Some("zzzzzzzz"));
        assert_eq!(
            parse_pdn(&text2)[0].terminator.as_deref(),
            Some(long.as_str())
        );
        assert_eq!(read[2].tag("Result"), Some("4-6"));
        assert_eq!(read[2].terminator.as_deref(), Some("4-6"));
        assert!(read[2]
            .error
            .as_deref()
            .unwrap()
            .contains("more than 2 tags"));
    }

    #[test]
    fn setup_tags_are_kept_once_and_not_counted_against_the_tag_limit() {
        let limits = PdnLimits {
            max_plies: 10,
            max_tags: 2,
            max_token: 64,
        };
        // Two ordinary tags (the limit), the four setup tags, repeats of two of them.
        let text = "[A \"1\"]\n[GameType \"20\"]\n[B \"2\"]\n[variant \"x\"]\n[FEN \"W:W31:B1\"]\n\
                    [Result \"1-0\"]\n[gametype \"25\"]\n[Result \"0-1\"]\n1. 31-26 1-0\n\n\
                    [A \"1\"]\n[B \"2\"]\n[GameType \"20\"]\n[C \"3\"]\n1. 31-26 *\n";
        let games: Vec<PdnGame> = PdnReader::new(text, limits).collect();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert!(g.error.is_none(), "{g:?}");
        assert_eq!(g.tags.len(), 6);
        assert_eq!(g.tag("GameType"), Some("20"));
        assert_eq!(g.tag("Result"), Some("1-0"));
        assert_eq!(g.tag("Variant"), Some("x"));
        // A third ordinary tag is one too many, wherever the setup tags are.
        assert!(games[1]
            .error
            .as_deref()
            .unwrap()
            .starts_with("line 14: more than 2 tags in one game"));
        assert_eq!(games[1].tag("GameType"), Some("20"));
        assert!(is_setup_tag("fen") && is_setup_tag("RESULT") && !is_setup_tag("Event"));
    }

    #[test]
    fn tag_values_read_pdn_string_escapes() {
        // `\\` is a backslash and `\"` a quote: a value ending in a backslash ends at its
        // closing quote, and the next tag on the line is a tag of its own.
        let text = "[Event \"C:\\\\\"] [Site \"a \\\"b\\\" c\"]\n\
                    Annotator \"x\\\\\"]\n[Round \"The \"Big\" Open\"]\n[Result \"2-0\"]\n\
                    1. 32-28 2-0\n";
        let games = parse_pdn(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert!(g.error.is_none(), "{g:?}");
        assert_eq!(g.tag("Event"), Some("C:\\"));
        assert_eq!(g.tag("Site"), Some("a \"b\" c"));
        // A line that lost its '[' is read with the same escapes.
        assert_eq!(g.tag("Annotator"), Some("x\\"));
        // A quote left unescaped inside a value stays in it, as before.
        assert_eq!(g.tag("Round"), Some("The \"Big\" Open"));
        assert_eq!(g.tag("Result"), Some("2-0"));
        assert_eq!(g.moves.len(), 1);
        assert!(
            g.notes
                .iter()
                .all(|n| n.kind != PdnNoteKind::TagRepaired || n.text.starts_with("Annotator")),
            "{:?}",
            g.notes
        );
    }

    #[test]
    fn reports_unterminated_comment() {
        let games = parse_pdn("[Event \"A\"]\n1. 32-28 {never closed\n19-23 *\n");
        assert_eq!(games.len(), 1);
        assert!(games[0].error.as_deref().unwrap().contains("never closed"));
    }
}
