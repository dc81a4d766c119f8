//! Hub, the text protocol of Scan (version 2): a GUI, here the referee, speaks to an engine
//! over its standard input and output, one line at a time, each line a command and
//! `name=value` arguments (values with spaces in double quotes).
//!
//! The referee's side of it: `hub` (the engine answers `id`, `param` lines, `wait`),
//! `set-param name=... value=...`, `init` (`ready`), then for each move `pos pos=... moves="..."`,
//! `level ...`, `go think` (the engine answers `info` lines, then `done move=...`), `new-game`
//! between games, `stop` to end a search, `quit`. The position is the side to move (`W` or
//! `B`) and one letter per square in number order (`w`/`b` a man, `W`/`B` a king, `e` empty).
//! A move is `from-to`, or for a capture `fromxto` followed by `x` and each captured square, in
//! any order (`28x19x23`).
//!
//! Result claims are the referee's extension, which other GUIs ignore as the protocol asks: a
//! `done` line may carry `claim=win`, `claim=draw` or `claim=loss` (from the engine's side),
//! about the position after its move, or without a move about the position it was given.

use arbiter_rules::{Color, Kind, Position, Variant};

/// The longest line read from an engine, newline excluded; a longer one is refused, never
/// buffered.
pub const MAX_LINE: usize = 64 * 1024;

/// A line of the protocol: the command and its arguments (`None` for a flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// Reads a line: the command, then `name`, `name=value` or `name="a value"` arguments.
    /// `None` for a blank line.
    pub fn parse(text: &str) -> Option<Line> {
        let mut chars = text.trim().chars().peekable();
        let word = |chars: &mut std::iter::Peekable<std::str::Chars>| {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '=' {
                    break;
                }
                w.push(c);
                chars.next();
            }
            w
        };
        let command = word(&mut chars);
        if command.is_empty() {
            return None;
        }
        let mut args = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            if chars.peek().is_none() {
                break;
            }
            let name = word(&mut chars);
            if chars.peek() == Some(&'=') {
                chars.next();
                let mut value = String::new();
                if chars.peek() == Some(&'"') {
                    chars.next();
                    for c in chars.by_ref() {
                        if c == '"' {
                            break;
                        }
                        value.push(c);
                    }
                } else {
                    while let Some(&c) = chars.peek() {
                        if c.is_whitespace() {
                            break;
                        }
                        value.push(c);
                        chars.next();
                    }
                }
                args.push((name, Some(value)));
            } else if name.is_empty() {
                // A stray character: skip it.
                chars.next();
            } else {
                args.push((name, None));
            }
        }
        Some(Line { command, args })
    }

    /// The value of argument `name`, if given with a value.
    pub fn arg(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// A value for a line: quoted when it is empty or holds a space, `=` or `"` (a `"` inside is
/// dropped: the protocol has no escape).
pub fn quote(value: &str) -> String {
    let clean: String = value
        .chars()
        .filter(|&c| c != '"' && c != '\n' && c != '\r')
        .collect();
    if clean.is_empty() || clean.contains([' ', '=', '\t']) {
        format!("\"{clean}\"")
    } else {
        clean
    }
}

/// The position as Hub writes it: the side to move, then each square in number order.
pub fn position_string(v: &Variant, pos: &Position) -> String {
    let mut s = String::with_capacity(v.board().len() + 1);
    s.push(match pos.side() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    for n in 1..=v.board().len() as u32 {
        let piece = v.cell_of_number(n).and_then(|c| pos.piece_at(c));
        s.push(match piece {
            None => 'e',
            Some((Color::White, Kind::King)) => 'W',
            Some((Color::Black, Kind::King)) => 'B',
            Some((Color::White, _)) => 'w',
            Some((Color::Black, _)) => 'b',
        });
    }
    s
}

/// A move as Hub writes it, from the squares' numbers: `32-28`, `28x19x23`.
pub fn move_text(from: u32, to: u32, captured: &[u32]) -> String {
    if captured.is_empty() {
        format!("{from}-{to}")
    } else {
        let mut s = format!("{from}x{to}");
        for c in captured {
            s.push_str(&format!("x{c}"));
        }
        s
    }
}

/// A Hub move read as numbers: from, to, and the captured squares (in the order written).
/// `None` when the text is not of that form.
pub fn parse_move(text: &str) -> Option<(u32, u32, Vec<u32>)> {
    let text = text.trim();
    let number = |s: &str| -> Option<u32> {
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    if let Some((from, to)) = text.split_once('-') {
        return Some((number(from)?, number(to)?, Vec::new()));
    }
    let mut parts = text.split('x');
    let from = number(parts.next()?)?;
    let to = number(parts.next()?)?;
    let captured = parts.map(number).collect::<Option<Vec<u32>>>()?;
    if captured.is_empty() {
        return None;
    }
    Some((from, to, captured))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_as_the_protocol_writes_them() {
        let l = Line::parse("info depth=21 score=-0.01 pv=\"32-28 17-22\" flag").unwrap();
        assert_eq!(l.command, "info");
        assert_eq!(l.arg("depth"), Some("21"));
        assert_eq!(l.arg("pv"), Some("32-28 17-22"));
        assert_eq!(l.args.last().unwrap(), &("flag".to_string(), None));
        assert_eq!(Line::parse("   "), None);
        let d = Line::parse("done move=32-28 ponder=17-22").unwrap();
        assert_eq!(d.arg("move"), Some("32-28"));
    }

    #[test]
    fn moves_are_from_to_and_captures() {
        assert_eq!(parse_move("32-28"), Some((32, 28, vec![])));
        assert_eq!(parse_move("28x19x23"), Some((28, 19, vec![23])));
        assert_eq!(parse_move("28x19"), None);
        assert_eq!(parse_move("a-b"), None);
        assert_eq!(parse_move("99999-1"), None);
        assert_eq!(move_text(28, 19, &[23, 14]), "28x19x23x14");
    }

    #[test]
    fn the_start_position_string() {
        let v = arbiter_rules::variant("international").unwrap();
        let s = position_string(v, &v.start());
        assert_eq!(s.len(), 51);
        assert_eq!(
            s,
            format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20))
        );
    }
}
