//! A PDN file of any size, read game by game from pieces of its bytes.
//!
//! Where one game ends and the next starts is the [`PdnReader`]'s own decision, so a file read
//! in pieces is split exactly as the file read whole: [`first_game`] asks the reader for the
//! first game of a text and says whether that game is complete or the text may end inside
//! it; [`PdnSplitter`] keeps the bytes of the game being read (at most a bound per game), hands
//! out each game once it is complete, and forgets its bytes.
//!
//! A game is complete once the reader has ended it (with its result, or at the next game's
//! first tag) and a line break follows in the text read so far: up to the end of its line the
//! reader may still glue words to the game's last token (`1- 0`), or read the line as a tag.

use super::game::{PdnGame, PdnLimits, ReadPoint};
use super::grammar::{check_game, PdnSyntaxError};
use super::reader::PdnReader;

/// The first game of a text, as [`first_game`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FirstGame {
    /// The game, which ends at byte `end` of the text; the next one is read from there, from
    /// `next`.
    Game {
        game: PdnGame,
        end: usize,
        next: ReadPoint,
    },
    /// No game starts in the text, and its first `end` bytes are blank lines: they can be
    /// dropped, and reading goes on from there, from `next`.
    Blank { end: usize, next: ReadPoint },
    /// The text may end inside the game that starts on `line`: more bytes are needed.
    NeedMore { line: usize },
    /// The whole file was read: no game is left.
    End,
}

/// The first game of `text`, which starts at `from` in its file (at the start of the file:
/// [`ReadPoint::default`], after a byte-order mark if there is one). `complete` says that
/// `text` runs to the end of the file.
pub fn first_game(text: &str, from: ReadPoint, limits: PdnLimits, complete: bool) -> FirstGame {
    let mut reader = PdnReader::resume(text, limits, from);
    match reader.next() {
        Some(game) => {
            let (end, next) = reader.point();
            if complete || text[end..].contains('\n') {
                FirstGame::Game { game, end, next }
            } else {
                FirstGame::NeedMore { line: game.line }
            }
        }
        None if complete => FirstGame::End,
        None => {
            // No game yet: drop the blank lines, keep the rest (a game starts on the line of
            // the first thing the reader passes over, an escape line or a comment included).
            let blank = text.len() - text.trim_start().len();
            let end = text[..blank].rfind('\n').map_or(0, |n| n + 1);
            let next = ReadPoint {
                line: from.line + text[..end].bytes().filter(|&b| b == b'\n').count(),
                at_line_start: from.at_line_start || end > 0,
                column: if end > 0 { 0 } else { from.column },
            };
            FirstGame::Blank { end, next }
        }
    }
}

/// A piece handed out by [`PdnSplitter::next_piece`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The next game of the file.
    Game(PdnGame),
    /// The next game, which starts on `line`, has more bytes than the bound per game: it is
    /// not read, and reading goes on at the next line that starts with `[` after its first
    /// `max_game_bytes` bytes.
    TooLarge { line: usize },
    /// The next game, read, but not PDN 3.0 as the standard's grammar writes it (only from a
    /// splitter made [`PdnSplitter::strict`]): `error` is its first fault.
    Rejected {
        game: PdnGame,
        error: PdnSyntaxError,
    },
}

/// The bytes of ISO-8859-1 text first decoded to look for a game ([`PdnSplitter`]).
const LATIN1_WINDOW: usize = 8 * 1024;

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Splits a PDN file given in pieces of bytes into its games, holding at most the bytes of
/// the game being read.
///
/// Feed it with [`PdnSplitter::push`] (any piece size), then take the games with
/// [`PdnSplitter::next_piece`] until it answers `None` (more bytes needed), and so on; after
/// the last bytes, [`PdnSplitter::finish`], then take the rest. Taking the games after each
/// push keeps the bytes held under the bound per game plus one piece.
///
/// The text is read as UTF-8 up to its first byte that is not UTF-8, then as ISO-8859-1
/// (every byte one character), as older PDN files are written.
///
/// A game's [`PdnGame::span`] is where its text lies in the whole text, except that it starts
/// after the blank lines before the game (read whole, a game's text starts where the previous
/// game ended); `span_line` is the line where it starts.
#[derive(Clone, Debug)]
pub struct PdnSplitter {
    buf: Vec<u8>,
    /// Bytes of `buf` already handed out.
    start: usize,
    point: ReadPoint,
    limits: PdnLimits,
    max_game_bytes: usize,
    latin1: bool,
    /// Bytes of ISO-8859-1 text decoded to look for the next game: decoding all the bytes
    /// held for every game made a file read in large pieces cost a decoding of each piece
    /// per game (callgrind: +30 % on judging 1,426 games). Doubled while the game does not
    /// end within it, back to [`LATIN1_WINDOW`] after each game.
    latin1_window: usize,
    bom_checked: bool,
    /// Bytes pending before the game being read is looked at again: growing geometrically,
    /// so that a long game is read a bounded number of times over.
    rescan_at: usize,
    /// Skipping the rest of a game over the bound.
    skipping: bool,
    finished: bool,
    /// Checking each game against the PDN 3.0 grammar.
    strict: bool,
    /// Length of the text handed out so far, as read: where the next game's
    /// [`PdnGame::span`] starts in the whole text.
    offset: usize,
}

impl PdnSplitter {
    /// A splitter whose games are read within `limits`, each of at most `max_game_bytes`
    /// bytes (at least 64).
    pub fn new(limits: PdnLimits, max_game_bytes: usize) -> PdnSplitter {
        PdnSplitter {
            buf: Vec::new(),
            start: 0,
            point: ReadPoint::default(),
            limits,
            max_game_bytes: max_game_bytes.max(64),
            latin1: false,
            latin1_window: LATIN1_WINDOW,
            bom_checked: false,
            rescan_at: 0,
            skipping: false,
            finished: false,
            strict: false,
            offset: 0,
        }
    }

    /// Checks each game against the PDN 3.0 grammar
    /// ([`check_game`](super::check_game)): a game it rejects is a
    /// [`Piece::Rejected`].
    pub fn strict(mut self, strict: bool) -> PdnSplitter {
        self.strict = strict;
        self
    }

    /// Adds the next bytes of the file.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.start > 0 && self.start * 2 >= self.buf.len() {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Says that the file has no more bytes.
    pub fn finish(&mut self) {
        self.finished = true;
    }

    /// Bytes held that are not handed out yet.
    pub fn pending(&self) -> usize {
        self.buf.len() - self.start
    }

    /// The line the next piece is read from.
    pub fn line(&self) -> usize {
        self.point.line
    }

    /// Drops `n` pending bytes, counting their lines.
    fn advance(&mut self, n: usize, next: Option<ReadPoint>) {
        if next.is_none() {
            // Bytes skipped, not read: counted as they are.
            self.offset += n;
        }
        let dropped = &self.buf[self.start..self.start + n];
        self.point = next.unwrap_or_else(|| {
            let lines = dropped.iter().filter(|&&b| b == b'\n').count();
            ReadPoint {
                line: self.point.line + lines,
                at_line_start: if n == 0 {
                    self.point.at_line_start
                } else {
                    dropped[n - 1] == b'\n'
                },
                column: match dropped.iter().rposition(|&b| b == b'\n') {
                    Some(k) => n - k - 1,
                    None => self.point.column + n,
                },
            }
        });
        self.start += n;
    }

    /// The next game, or `None` when more bytes are needed (after [`PdnSplitter::finish`]:
    /// when every game was handed out).
    pub fn next_piece(&mut self) -> Option<Piece> {
        loop {
            let pending = self.pending();
            if pending == 0 {
                return None;
            }
            if self.skipping {
                let bytes = &self.buf[self.start..];
                match bytes.windows(2).position(|w| w == b"\n[") {
                    Some(k) => {
                        self.advance(k + 1, None);
                        self.skipping = false;
                        self.rescan_at = 0;
                        continue;
                    }
                    None if self.finished => {
                        self.advance(pending, None);
                        return None;
                    }
                    None => {
                        // Keep the last byte: it may be the line break before a '['.
                        self.advance(pending - 1, None);
                        return None;
                    }
                }
            }
            if !self.bom_checked {
                let bytes = &self.buf[self.start..];
                if bytes.len() < BOM.len() && BOM.starts_with(bytes) && !self.finished {
                    return None;
                }
                if bytes.starts_with(BOM) {
                    self.start += BOM.len();
                }
                self.bom_checked = true;
                continue;
            }
            if !self.finished && pending < self.rescan_at {
                return None;
            }
            let held = pending.min(self.max_game_bytes);
            let window_len = if self.latin1 {
                held.min(self.latin1_window)
            } else {
                held
            };
            // A window cut short of the bytes held reads as bytes still to come.
            let cut = window_len < held;
            let complete = self.finished && pending <= self.max_game_bytes && !cut;
            let window = &self.buf[self.start..self.start + window_len];
            // Whether only the UTF-8 text before a byte that is not UTF-8 is read: if the
            // first game does not end before that byte, the rest is read as ISO-8859-1.
            let mut before_latin1 = false;
            let mut complete = complete;
            let decoded: std::borrow::Cow<'_, str> = if self.latin1 {
                window.iter().map(|&b| b as char).collect::<String>().into()
            } else {
                match std::str::from_utf8(window) {
                    Ok(text) => text.into(),
                    Err(e) => {
                        // A character cut by the end of the bytes read so far, or a byte
                        // that is not UTF-8.
                        before_latin1 = e.error_len().is_some() || complete;
                        complete = false;
                        std::str::from_utf8(&window[..e.valid_up_to()])
                            .expect("valid up to there")
                            .into()
                    }
                }
            };
            let text: &str = &decoded;
            // Bytes of the file for a byte offset of `text`.
            let latin1 = self.latin1;
            let bytes_of = |end: usize| {
                if latin1 {
                    text[..end].chars().count()
                } else {
                    end
                }
            };
            match first_game(text, self.point, self.limits, complete) {
                FirstGame::Game {
                    mut game,
                    end,
                    next,
                } => {
                    let n = bytes_of(end);
                    let checked = if self.strict {
                        check_game(text, &game)
                    } else {
                        Ok(())
                    };
                    game.span = game.span.start + self.offset..game.span.end + self.offset;
                    self.offset += end;
                    self.advance(n, Some(next));
                    self.rescan_at = 0;
                    self.latin1_window = LATIN1_WINDOW;
                    return Some(match checked {
                        Ok(()) => Piece::Game(game),
                        Err(error) => Piece::Rejected { game, error },
                    });
                }
                FirstGame::Blank { end: 0, .. } | FirstGame::NeedMore { .. } if before_latin1 => {
                    self.latin1 = true;
                }
                FirstGame::Blank { end, next } => {
                    let n = bytes_of(end);
                    self.offset += end;
                    self.advance(n, Some(next));
                    if n == 0 {
                        if cut {
                            self.latin1_window *= 2;
                            continue;
                        }
                        self.rescan_at = self.next_scan(pending);
                        return None;
                    }
                }
                FirstGame::NeedMore { line } => {
                    if cut {
                        self.latin1_window *= 2;
                        continue;
                    }
                    if window_len < self.max_game_bytes {
                        self.rescan_at = self.next_scan(pending);
                        return None;
                    }
                    // Over the bound: skip the game, from its last byte looked at on.
                    self.advance(window_len - 1, None);
                    self.skipping = true;
                    return Some(Piece::TooLarge { line });
                }
                FirstGame::End => {
                    self.advance(pending, None);
                    return None;
                }
            }
        }
    }

    /// The pending length at which a game not complete with `pending` bytes is looked at
    /// again.
    fn next_scan(&self, pending: usize) -> usize {
        (pending + pending / 2 + 1).min(self.max_game_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_pdn;
    use super::*;

    fn split(text: &[u8], piece: usize, max: usize) -> Vec<Piece> {
        let mut s = PdnSplitter::new(PdnLimits::default(), max);
        let mut out = Vec::new();
        for chunk in text.chunks(piece.max(1)) {
            s.push(chunk);
            while let Some(p) = s.next_piece() {
                out.push(p);
            }
            assert!(s.pending() <= max + piece, "{} held", s.pending());
        }
        s.finish();
        while let Some(p) = s.next_piece() {
            out.push(p);
        }
        out
    }

    /// Where a game's text starts differs by design (see [`PdnSplitter`]); where it ends not.
    fn comparable(mut g: PdnGame) -> PdnGame {
        g.span.start = 0;
        g.span_line = 0;
        g.text_column = 0;
        g
    }

    fn games(pieces: Vec<Piece>) -> Vec<PdnGame> {
        pieces
            .into_iter()
            .map(|p| match p {
                Piece::Game(g) => comparable(g),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn pieces_of_every_size_give_the_games_of_the_whole_text() {
        let text = "\u{feff}[Event \"a\"]\n[Result \"1- 0\"]\n1. 32-28 19-23 1-\n 0\n\
                    %escape\n; comment\n{note} 1. 33-29 2-0 [Event \"b\"] 1. 31-27 *\n\
                    Event \"c\"]\n1. 32-28 {unterminated";
        let whole: Vec<PdnGame> = parse_pdn(text).into_iter().map(comparable).collect();
        assert_eq!(whole.len(), 3);
        for piece in 1..=text.len() {
            assert_eq!(
                games(split(text.as_bytes(), piece, 1 << 20)),
                whole,
                "{piece}"
            );
        }
    }

    #[test]
    fn latin1_after_the_first_byte_that_is_not_utf8() {
        let mut text = "[Event \"Zürich\"]\n1. 32-28 *\n".as_bytes().to_vec();
        text.extend_from_slice(b"[Event \"Z\xfcrich\"]\n1. 32-28 *\n");
        for piece in [1, 2, 3, 7, 100] {
            let g = games(split(&text, piece, 1 << 20));
            assert_eq!(g.len(), 2);
            assert_eq!(g[0].tag("Event"), Some("Zürich"));
            assert_eq!(g[1].tag("Event"), Some("Zürich"));
            assert_eq!(g[1].line, 3);
        }
    }

    /// ISO-8859-1 games longer than the first window looked at (a long comment, long
    /// movetext), and a blank stretch longer than it, read as the whole text reads them.
    #[test]
    fn latin1_games_longer_than_the_window() {
        let long_comment = format!("{{{}}}", "K\u{fc}nig ".repeat(LATIN1_WINDOW / 4));
        let moves = "32-28 19-23 28x19 14x23 ".repeat(LATIN1_WINDOW / 20);
        let text = format!(
            "[Event \"\u{dc}bung\"]\n1. 32-28 *\n\n[Event \"a\"]\n{long_comment}\n1. 32-28 *\n{}\n\
             [Event \"b\"]\n{moves}*\n[Event \"c\"]\n1. 31-27 *\n",
            "\n".repeat(LATIN1_WINDOW * 3)
        );
        let bytes: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
        let whole: Vec<PdnGame> = parse_pdn(&text).into_iter().map(comparable).collect();
        assert_eq!(whole.len(), 4);
        for piece in [1, 7, 4096, LATIN1_WINDOW + 1, bytes.len()] {
            assert_eq!(games(split(&bytes, piece, 1 << 20)), whole, "{piece}");
        }
    }

    #[test]
    fn a_game_over_the_bound_is_skipped_to_the_next_tag_line() {
        let big = format!("[Event \"big\"]\n1. {}*\n", "32-28 28-32 ".repeat(100));
        let text = format!("[Event \"a\"]\n1. 32-28 *\n\n{big}\n[Event \"b\"]\n1. 31-27 *\n");
        for piece in [1, 5, 64, 4096] {
            let p = split(text.as_bytes(), piece, 256);
            assert_eq!(p.len(), 3, "{piece}: {p:?}");
            assert!(matches!(&p[0], Piece::Game(g) if g.tag("Event") == Some("a")));
            assert_eq!(p[1], Piece::TooLarge { line: 4 });
            assert!(matches!(&p[2], Piece::Game(g) if g.tag("Event") == Some("b") && g.line == 7));
        }
    }

    #[test]
    fn blank_text_is_dropped_as_it_comes() {
        let mut s = PdnSplitter::new(PdnLimits::default(), 1024);
        for _ in 0..1000 {
            s.push(b"   \n \r\n");
            assert_eq!(s.next_piece(), None);
            assert!(s.pending() < 64);
        }
        s.push(b"% escape\n1. 32-28 *\n");
        s.finish();
        match s.next_piece() {
            Some(Piece::Game(g)) => assert_eq!(g.line, 2001),
            other => panic!("{other:?}"),
        }
        assert_eq!(s.next_piece(), None);
    }
}
