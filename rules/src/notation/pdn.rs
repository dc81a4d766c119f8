//! PDN 3.0 game files (`diagonal.md` §6): tag pairs, move text with move numbers, comments,
//! variations (skipped), NAGs, results in both styles, several games per file, CRLF or LF, a
//! UTF-8 byte-order mark.
//!
//! Reading is liberal, as PDN asks: tags without quotes (`[Round 17]`), tags indented with
//! tabs, several tags on one line, text before the first tag, a move number glued to its move
//! (`1.32-28`), forfeits written `1. 1-0`. Errors that spoil one game (an unterminated comment
//! or variation, a broken tag) are reported for that game; the rest of the file is still read
//! when it can be.

use crate::catalogue::variant;
use crate::variant::Variant;

/// One game of a PDN file, as text.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PdnGame {
    /// `(name, value)` in file order.
    pub tags: Vec<(String, String)>,
    pub moves: Vec<PdnMove>,
    /// The game terminator (`1-0`, `2-0`, `*`...), if present.
    pub terminator: Option<String>,
    /// 1-based line where the game starts.
    pub line: usize,
    /// What spoiled the game's text, if anything (an unterminated comment, a broken tag).
    pub error: Option<String>,
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
}

/// The result tokens that end a game's move text.
pub const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// Splits a PDN file into games.
pub fn parse_pdn(text: &str) -> Vec<PdnGame> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games: Vec<PdnGame> = Vec::new();
    let mut cur = PdnGame::default();
    let mut number: Option<u32> = None;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut line = 1;
    let mut at_line_start = true;
    let has_content = |g: &PdnGame| !g.moves.is_empty() || g.terminator.is_some();
    macro_rules! finish {
        () => {
            if has_content(&cur) || !cur.tags.is_empty() || cur.error.is_some() {
                games.push(std::mem::take(&mut cur));
            } else {
                cur = PdnGame::default();
            }
            number = None;
        };
    }
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
            at_line_start = true;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        // Some exporters write a literal backslash-r at line ends: treat it as white space.
        if c == '\\' && matches!(chars.get(i + 1), Some('r') | Some('n')) {
            i += 2;
            continue;
        }
        let line_start = at_line_start;
        at_line_start = false;
        if cur.line == 0 {
            cur.line = line;
        }
        match c {
            '%' if line_start => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '[' => {
                if has_content(&cur) {
                    finish!();
                    cur.line = line;
                }
                let start_line = line;
                let mut j = i + 1;
                let mut in_quotes = false;
                while j < chars.len() && (in_quotes || chars[j] != ']') {
                    if chars[j] == '"' && chars[j - 1] != '\\' {
                        in_quotes = !in_quotes;
                    }
                    if chars[j] == '\n' {
                        if !in_quotes {
                            break;
                        }
                        line += 1;
                    }
                    j += 1;
                }
                if j >= chars.len() || chars[j] != ']' {
                    let body: String = chars[i..j.min(chars.len())].iter().take(60).collect();
                    cur.error.get_or_insert(format!(
                        "line {start_line}: tag '{}' is not closed with ']'",
                        body.trim()
                    ));
                    i = j;
                    continue;
                }
                let body: String = chars[i + 1..j].iter().collect();
                match parse_tag(&body) {
                    Some(tag) => cur.tags.push(tag),
                    None => {
                        cur.error.get_or_insert(format!(
                            "line {start_line}: '[{}]' is not a tag (expected [Name \"value\"])",
                            body.chars().take(60).collect::<String>()
                        ));
                    }
                }
                i = j + 1;
            }
            '{' => {
                let start_line = line;
                let mut depth = 0;
                let mut j = i;
                while j < chars.len() {
                    match chars[j] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        '\n' => line += 1,
                        _ => {}
                    }
                    j += 1;
                }
                if j >= chars.len() {
                    cur.error.get_or_insert(format!(
                        "line {start_line}: comment '{{' is never closed (the rest of the file \
                         is inside it)"
                    ));
                }
                i = j + 1;
            }
            '(' => {
                let start_line = line;
                let mut depth = 0;
                let mut j = i;
                while j < chars.len() {
                    match chars[j] {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        '{' => {
                            // Comments inside a variation may hold parentheses.
                            while j < chars.len() && chars[j] != '}' {
                                if chars[j] == '\n' {
                                    line += 1;
                                }
                                j += 1;
                            }
                        }
                        '\n' => line += 1,
                        _ => {}
                    }
                    j += 1;
                }
                if j >= chars.len() {
                    cur.error
                        .get_or_insert(format!("line {start_line}: variation '(' is never closed"));
                }
                i = j + 1;
            }
            _ => {
                let mut j = i;
                let ends_token = |j: usize| {
                    chars[j].is_whitespace()
                        || matches!(chars[j], '{' | '(' | '[' | ';' | ')' | '}')
                        || (chars[j] == '\\' && matches!(chars.get(j + 1), Some('r' | 'n')))
                };
                while j < chars.len() && !ends_token(j) {
                    j += 1;
                }
                let mut token: String = chars[i..j].iter().collect();
                // Old files pad squares with spaces ("1- 6", "47x 9"): a move that ends in
                // a separator continues with the next word on the same line.
                if token.len() > 1 && token.ends_with(['-', 'x', 'X', ':']) {
                    let mut k = j;
                    while k < chars.len() && (chars[k] == ' ' || chars[k] == '\t') {
                        k += 1;
                    }
                    let mut e = k;
                    while e < chars.len() && chars[e].is_ascii_alphanumeric() {
                        e += 1;
                    }
                    if e > k && chars[k].is_ascii_alphanumeric() {
                        token.extend(&chars[k..e]);
                        j = e;
                    }
                }
                i = j.max(i + 1);
                let mut rest = token.as_str();
                // A move number, maybe glued to the move: "12." "12..." "12.32-28".
                let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
                if digits > 0 && rest[digits..].starts_with('.') {
                    number = rest[..digits].parse().ok();
                    rest = rest[digits..].trim_start_matches('.');
                    if rest.is_empty() {
                        continue;
                    }
                }
                if rest.starts_with('$') {
                    continue; // NAG
                }
                // Russian files write results with ':' ("1/2:1/2"); a lone "-" ends some
                // exports' games (an unknown result).
                let as_result = rest.replace(':', "-");
                if RESULTS.contains(&as_result.as_str()) || rest == "-" {
                    cur.terminator = Some(as_result);
                    finish!();
                    continue;
                }
                if rest.chars().all(|c| matches!(c, '!' | '?')) {
                    continue; // a move strength written apart
                }
                cur.moves.push(PdnMove {
                    text: rest.to_string(),
                    number,
                    line,
                });
            }
        }
    }
    if has_content(&cur) || !cur.tags.is_empty() || cur.error.is_some() {
        games.push(cur);
    }
    games
}

/// Parses the inside of `[...]`.
fn parse_tag(body: &str) -> Option<(String, String)> {
    let body = body.trim();
    let name_len = body
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(body.len());
    let name = &body[..name_len];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let rest = body[name_len..].trim();
    let value = if let Some(inner) = rest.strip_prefix('"') {
        let inner = inner.strip_suffix('"').unwrap_or(inner);
        inner.replace("\\\"", "\"").replace("\\\\", "\\")
    } else {
        rest.to_string()
    };
    Some((name.to_string(), value))
}

/// Why a game's variant cannot be chosen.
#[derive(Clone, Debug)]
pub enum VariantChoice {
    Found(&'static Variant),
    /// A GameType (or Variant tag) this service does not support.
    Unsupported(String),
    /// Neither tag is present and no default was given.
    Missing,
}

/// The variant ids of the PDN GameType numbers (§6.1).
pub fn variant_for_game_type(number: u32) -> Option<&'static str> {
    Some(match number {
        20 => "international",
        21 => "english",
        22 => "italian",
        23 => "pool",
        25 => "russian",
        26 => "brazilian",
        27 => "canadian",
        28 => "portuguese",
        29 => "czech",
        31 => "thai",
        40 => "frisian",
        _ => return None,
    })
}

/// The variant of a game: the explicit choice if given, else its `GameType` tag, else its
/// `Variant` tag (lidraughts), else `None`.
pub fn choose_variant(game: &PdnGame, explicit: Option<&'static Variant>) -> VariantChoice {
    if let Some(v) = explicit {
        return VariantChoice::Found(v);
    }
    if let Some(gt) = game.tag("GameType") {
        let num = gt.split(',').next().unwrap_or("").trim();
        return match num.parse::<u32>().ok().and_then(variant_for_game_type) {
            Some(id) => VariantChoice::Found(variant(id).expect("catalogue id")),
            None => VariantChoice::Unsupported(format!("GameType \"{gt}\"")),
        };
    }
    if let Some(name) = game.tag("Variant") {
        let id = name.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        let id = match id.as_str() {
            "standard" | "international-draughts" | "draughts" => "international",
            "american" | "checkers-english" => "english",
            other => other,
        };
        return match variant(id) {
            Some(v) => VariantChoice::Found(v),
            None => VariantChoice::Unsupported(format!("Variant \"{name}\"")),
        };
    }
    VariantChoice::Missing
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
    fn reports_unterminated_comment() {
        let games = parse_pdn("[Event \"A\"]\n1. 32-28 {never closed\n19-23 *\n");
        assert_eq!(games.len(), 1);
        assert!(games[0].error.as_deref().unwrap().contains("never closed"));
    }
}
