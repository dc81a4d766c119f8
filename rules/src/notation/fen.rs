//! FEN as in PDN 3.0 (pdn.fmjd.org, FEN): `W:W31-50:B1-20`, `B:W18,24,K10:BK22,12`.
//!
//! Accepted on input: either colour first, numeric ranges (`31-50`, `K31-50`), numeric or
//! algebraic squares, empty colour lists (`W:W:B1`), lidraughts' move counters `:H<n>:F<n>`
//! ([`Counters`], read by [`Variant::parse_fen_counters`]) and a trailing dot. Written on
//! output: explicit lists, kings prefixed with `K`, squares in the variant's notation, and the
//! counters when the input had them ([`Variant::fen_counters`]).
//!
//! The optional fields of the state some variants keep, written where it is not empty, in
//! this order: `S` the stones in hand (`:S3,3`), `C` the castle moves made (`:C1,0`), `R` each
//! side's king run under a king-move limit (Frisian: `:R46/2,-`, the king on 46 has made two
//! non-capturing moves in a row, Black has no run), `L` each side's last move under the
//! no-return rule (`:Lb3-c3,-`); White's first, `-` for none. lidraughts' form of the Frisian
//! king runs, `:+<count><square>+<count><square>` with Black's first (`:+0+246`), is read
//! too.

use crate::bits::{Bits, MAX_CELLS};
use crate::moves::{Move, MoveKind};
use crate::position::{Color, Kind, Position, Setup, KINDS};
use crate::variant::{PositionError, Variant, FEN_ENTRY_BYTES, MAX_NAME_BYTES};

/// lidraughts' move counters, the FEN fields `:H<halfmoves>:F<fullmove>`. They are not part
/// of the position (two positions that differ only in them are the same for repetition);
/// the judge starts its "no man move, no capture" count from `halfmoves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counters {
    /// Plies since the last man move or capture (lidraughts' half-move clock, which its
    /// 25-king-moves rule counts).
    pub halfmoves: u32,
    /// The number of the move (a move = one ply of each side), from 1; it goes up after each
    /// ply of the side that moves second in the variant.
    pub fullmove: u32,
}

impl Default for Counters {
    fn default() -> Self {
        Counters {
            halfmoves: 0,
            fullmove: 1,
        }
    }
}

/// The counters as a FEN ends with them: `:H0:F1`.
impl std::fmt::Display for Counters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, ":H{}:F{}", self.halfmoves, self.fullmove)
    }
}

impl Counters {
    /// `fen` with these counters appended (`:H..:F..`).
    pub fn append_to(self, mut fen: String) -> String {
        use std::fmt::Write;
        let _ = write!(fen, "{self}");
        fen
    }

    /// The counters after `m`, played by `mover`: the half-move clock restarts on a man move
    /// (a drop or removal included) or a capture and counts a king's quiet move; the move
    /// number goes up after the second mover's ply.
    pub fn after(self, variant: &Variant, mover: Color, m: &Move) -> Counters {
        let man_move_or_capture = match m.kind() {
            MoveKind::Step => m.piece() != Kind::King,
            MoveKind::Capture | MoveKind::Drop | MoveKind::Removal => true,
            MoveKind::Pass => false,
        };
        Counters {
            halfmoves: if man_move_or_capture {
                0
            } else {
                self.halfmoves.saturating_add(1)
            },
            fullmove: if mover != variant.first_mover() {
                self.fullmove.saturating_add(1)
            } else {
                self.fullmove
            },
        }
    }
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenErrorKind {
    Empty,
    /// The first field is not `W` or `B`.
    BadSideToMove(String),
    /// A field that is not a list of pieces, a counter or a field of the position's state, or
    /// one that is badly formed.
    BadField(String),
    /// A square that is not on the board (or not playable).
    BadSquare(String),
    /// A range whose ends are not numbers in increasing order.
    BadRange(String),
    /// The pieces parse but do not make a valid position.
    Position(PositionError),
}

/// A FEN error and the character (0-based) where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub at: usize,
    pub kind: FenErrorKind,
}

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = self.at + 1;
        match &self.kind {
            FenErrorKind::Empty => write!(f, "the FEN is empty"),
            FenErrorKind::BadSideToMove(s) => write!(
                f,
                "at character {at}: side to move must be W or B, found '{s}'"
            ),
            FenErrorKind::BadField(s) => write!(
                f,
                "at character {at}: a field must be W or B (pieces), H or F (counters), or \
                 S, C, R or L (stones in hand, castle moves, king runs, last moves), well \
                 formed, found '{s}'"
            ),
            FenErrorKind::BadSquare(s) => {
                write!(
                    f,
                    "at character {at}: '{s}' is not a playable square of this board"
                )
            }
            FenErrorKind::BadRange(s) => write!(
                f,
                "at character {at}: '{s}' is not a valid range (two square numbers, lower first)"
            ),
            FenErrorKind::Position(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Longest FEN accepted, in bytes.
pub const MAX_FEN_LEN: usize = 4096;

impl Variant {
    /// Parses a FEN that a game starts from ([`Variant::parse_fen`], then
    /// [`Variant::check_start`]).
    pub fn parse_start_fen(&self, text: &str) -> Result<Position, FenError> {
        self.parse_start_fen_counters(text).map(|(pos, _)| pos)
    }

    /// [`Variant::parse_start_fen`], with lidraughts' move counters when the FEN has them.
    pub fn parse_start_fen_counters(
        &self,
        text: &str,
    ) -> Result<(Position, Option<Counters>), FenError> {
        let (pos, counters) = self.parse_fen_counters(text)?;
        self.check_start(&pos).map_err(|e| FenError {
            at: 0,
            kind: FenErrorKind::Position(e),
        })?;
        Ok((pos, counters))
    }

    /// Parses a FEN into a checked position (lidraughts' move counters are read and dropped:
    /// see [`Variant::parse_fen_counters`]).
    pub fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        self.parse_fen_counters(text).map(|(pos, _)| pos)
    }

    /// Parses a FEN into a checked position and lidraughts' move counters, when the FEN has
    /// them (`:H<n>` and/or `:F<n>`; a missing one takes its start value, 0 and 1).
    pub fn parse_fen_counters(&self, text: &str) -> Result<(Position, Option<Counters>), FenError> {
        if let Some(parsed) = self.parse_plain_fen(text.as_bytes()) {
            return Ok(parsed);
        }
        self.parse_any_fen(text)
    }

    /// The common FEN, read byte by byte: the side, then lists of numbered squares and
    /// ranges (`K` and `P` prefixes allowed) and the `H`/`F` counters, with no spaces, quotes,
    /// trailing dot or other fields, making a valid position of pieces and nothing else.
    /// `None` for anything else, which [`Variant::parse_any_fen`] reads (or says what is
    /// wrong with): for the FENs this takes, the two agree.
    fn parse_plain_fen(&self, text: &[u8]) -> Option<(Position, Option<Counters>)> {
        /// A square number or a counter: 1 to `max` ASCII digits.
        fn number(digits: &[u8], max: usize) -> Option<u32> {
            if digits.is_empty() || digits.len() > max {
                return None;
            }
            digits.iter().try_fold(0u32, |n, &d| {
                d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
            })
        }
        if text.len() > MAX_FEN_LEN {
            return None;
        }
        let mut fields = text.split(|&b| b == b':');
        let side = match fields.next()? {
            b"W" | b"w" => Color::White,
            b"B" | b"b" => Color::Black,
            _ => return None,
        };
        let mut sets = [[Bits::EMPTY; KINDS]; 2];
        let mut seen = Bits::EMPTY;
        let mut counters: Option<Counters> = None;
        for field in fields {
            let (&tag, list) = field.split_first()?;
            let color = match tag {
                b'W' | b'w' => Color::White,
                b'B' | b'b' => Color::Black,
                b'H' | b'h' | b'F' | b'f' => {
                    let n = number(list, 9)?;
                    let k = counters.get_or_insert_with(Counters::default);
                    if tag.eq_ignore_ascii_case(&b'H') {
                        k.halfmoves = n;
                    } else {
                        k.fullmove = n.max(1);
                    }
                    continue;
                }
                _ => return None,
            };
            for token in list.split(|&b| b == b',') {
                let (kind, squares) = match token.split_first() {
                    None => continue,
                    Some((&c, rest)) => match Kind::of_prefix(c) {
                        Some(kind) => (kind, rest),
                        None => (Kind::Man, token),
                    },
                };
                let (first, last) = match squares.iter().position(|&b| b == b'-') {
                    Some(dash) => (
                        number(&squares[..dash], 4)?,
                        number(&squares[dash + 1..], 4)?,
                    ),
                    None => {
                        let n = number(squares, 4)?;
                        (n, n)
                    }
                };
                if first > last {
                    return None;
                }
                for n in first..=last {
                    let cell = self.cell_of_number(n)?;
                    if seen.contains(cell) {
                        return None;
                    }
                    seen.insert(cell);
                    sets[color as usize][kind as usize].insert(cell);
                }
            }
        }
        let pos = self.placed(side, sets)?;
        self.check_kings(&pos).ok()?;
        Some((pos, counters))
    }

    /// [`Variant::parse_fen_counters`] for every FEN it accepts, and the error for the others.
    fn parse_any_fen(&self, text: &str) -> Result<(Position, Option<Counters>), FenError> {
        let mut counters: Option<Counters> = None;
        let lead = text.len() - text.trim_start().len();
        let mut s = text.trim();
        if s.is_empty() {
            return Err(FenError {
                at: 0,
                kind: FenErrorKind::Empty,
            });
        }
        if s.len() > MAX_FEN_LEN {
            return Err(FenError {
                at: MAX_FEN_LEN,
                kind: FenErrorKind::BadField(format!("FEN longer than {MAX_FEN_LEN} bytes")),
            });
        }
        if let Some(t) = s.strip_suffix('.') {
            s = t;
        }
        // lidraughts sometimes wraps the FEN in quotes.
        s = s.trim_matches('"');
        let mut setup = Setup::default();
        // Room for a piece on every cell at once, not a doubling per few pieces.
        setup.pieces.reserve(self.board().len());
        let mut offset = lead;
        for (i, field) in s.split(':').enumerate() {
            let at = offset;
            offset += field.len() + 1;
            let f = field.trim();
            if i == 0 {
                setup.side = Some(match f {
                    "W" | "w" => Color::White,
                    "B" | "b" => Color::Black,
                    _ => {
                        return Err(FenError {
                            at,
                            kind: FenErrorKind::BadSideToMove(clip(f)),
                        })
                    }
                });
                continue;
            }
            let mut chars = f.chars();
            let color = match chars.next() {
                Some('W') | Some('w') => Color::White,
                Some('B') | Some('b') => Color::Black,
                Some(c @ ('H' | 'F' | 'h' | 'f')) => {
                    let n: u32 = chars.as_str().trim().parse().map_err(|_| FenError {
                        at,
                        kind: FenErrorKind::BadField(clip(f)),
                    })?;
                    let k = counters.get_or_insert_with(Counters::default);
                    if c.eq_ignore_ascii_case(&'H') {
                        k.halfmoves = n;
                    } else {
                        k.fullmove = n.max(1);
                    }
                    continue;
                }
                Some('L') | Some('l') => {
                    // Each side's last move under the no-return rule: `Lb2-b3,-`.
                    let bad = || FenError {
                        at,
                        kind: FenErrorKind::BadField(clip(f)),
                    };
                    let (w, b) = chars.as_str().split_once(',').ok_or_else(bad)?;
                    for (i, m) in [w, b].into_iter().enumerate() {
                        let m = m.trim();
                        if m == "-" {
                            continue;
                        }
                        let (a, z) = m.split_once('-').ok_or_else(bad)?;
                        let a = self.parse_square(a.trim()).ok_or_else(bad)?;
                        let z = self.parse_square(z.trim()).ok_or_else(bad)?;
                        setup.last[i] = Some((a, z));
                    }
                    continue;
                }
                Some('R') | Some('r') => {
                    // Each side's king run under a king-move limit: `R46/2,-`, the king's
                    // square and its non-capturing moves in a row, White's then Black's.
                    let bad = || FenError {
                        at,
                        kind: FenErrorKind::BadField(clip(f)),
                    };
                    let (w, b) = chars.as_str().split_once(',').ok_or_else(bad)?;
                    for (i, run) in [w, b].into_iter().enumerate() {
                        let run = run.trim();
                        if run == "-" {
                            continue;
                        }
                        let (sq, n) = run.split_once('/').ok_or_else(bad)?;
                        let cell = self.parse_square(sq.trim()).ok_or_else(bad)?;
                        let n: u8 = n.trim().parse().map_err(|_| bad())?;
                        setup.king_run[i] = Some((cell, n));
                    }
                    continue;
                }
                Some('+') => {
                    // lidraughts' Frisian king moves, `+<count><square>+<count><square>`,
                    // Black's then White's: the count a digit, the square of the king that
                    // made them two digits (`+0+205`: none for Black, two by the White king
                    // on 5).
                    let bad = || FenError {
                        at,
                        kind: FenErrorKind::BadField(clip(f)),
                    };
                    let parts: Vec<&str> = f[1..].split('+').collect();
                    let [black, white] = parts[..] else {
                        return Err(bad());
                    };
                    for (i, part) in [white, black].into_iter().enumerate() {
                        let mut digits = part.chars();
                        let n = digits.next().and_then(|d| d.to_digit(10)).ok_or_else(bad)?;
                        let sq = digits.as_str();
                        if n == 0 {
                            continue;
                        }
                        let cell = self.parse_square(sq).ok_or_else(bad)?;
                        setup.king_run[i] = Some((cell, n as u8));
                    }
                    continue;
                }
                Some(c @ ('C' | 'c' | 'S' | 's')) => {
                    // Two counts, White's and Black's: the castle moves made (`C1,0`) or the
                    // stones in hand (`S3,3`).
                    let pair = || -> Option<[u8; 2]> {
                        let (w, b) = chars.as_str().split_once(',')?;
                        Some([w.trim().parse().ok()?, b.trim().parse().ok()?])
                    };
                    let pair = pair().ok_or_else(|| FenError {
                        at,
                        kind: FenErrorKind::BadField(clip(f)),
                    })?;
                    if c.eq_ignore_ascii_case(&'C') {
                        setup.castle_moves = Some(pair);
                    } else {
                        setup.hand = Some(pair);
                    }
                    continue;
                }
                _ => {
                    return Err(FenError {
                        at,
                        kind: FenErrorKind::BadField(clip(f)),
                    })
                }
            };
            let list = chars.as_str();
            let mut tok_at = at + (field.len() - field.trim_start().len()) + 1;
            for tok in list.split(',') {
                let here = tok_at;
                tok_at += tok.len() + 1;
                let t = tok.trim();
                if t.is_empty() {
                    continue;
                }
                let (kind, sq) = match Kind::of_prefix(t.as_bytes()[0]) {
                    Some(kind) => (kind, &t[1..]),
                    None => (Kind::Man, t),
                };
                if let Some((a, b)) = sq.split_once('-') {
                    let bad = || FenError {
                        at: here,
                        kind: FenErrorKind::BadRange(clip(t)),
                    };
                    let a: u32 = a.trim().parse().map_err(|_| bad())?;
                    let b: u32 = b.trim().parse().map_err(|_| bad())?;
                    if a > b || self.cell_of_number(a).is_none() || self.cell_of_number(b).is_none()
                    {
                        return Err(bad());
                    }
                    for n in a..=b {
                        let cell = self.cell_of_number(n).ok_or_else(bad)?;
                        setup.pieces.push((cell, color, kind));
                    }
                } else {
                    let cell = self.parse_square(sq).ok_or_else(|| FenError {
                        at: here,
                        kind: FenErrorKind::BadSquare(clip(t)),
                    })?;
                    setup.pieces.push((cell, color, kind));
                }
            }
        }
        let pos = self.position(&setup).map_err(|e| FenError {
            at: 0,
            kind: FenErrorKind::Position(e),
        })?;
        Ok((pos, counters))
    }

    /// Writes a position as FEN ([`Variant::fen`]) followed by lidraughts' move counters,
    /// when given: `W:W31-50:B1-20:H0:F1`.
    pub fn fen_counters(&self, pos: &Position, counters: Option<Counters>) -> String {
        let out = self.fen(pos);
        match counters {
            Some(c) => c.append_to(out),
            None => out,
        }
    }

    /// Writes a position as FEN, with explicit square lists.
    pub fn fen(&self, pos: &Position) -> String {
        let mut out = Vec::with_capacity(16 + 5 * self.board().len());
        self.fen_into(pos, &mut out);
        String::from_utf8(out).expect("whole UTF-8 texts joined")
    }

    /// [`Variant::fen`], appended to `out` (which is UTF-8 afterwards if it was before). The
    /// text is ASCII letters, digits and `:,-` only (square names are letters and digits,
    /// checked when the variant is built) and `:,-/` only, so it needs no escaping in JSON or a
    /// query string.
    pub fn fen_into(&self, pos: &Position, out: &mut Vec<u8>) -> FenLists {
        let start = out.len();
        out.push(pos.side().letter() as u8);
        let mut lists = [0..0, 0..0];
        for (list, color) in lists.iter_mut().zip(Color::BOTH) {
            let from = out.len() - start;
            self.fen_side_into(pos, color, out);
            *list = from..out.len() - start;
        }
        self.fen_rest_into(pos, out);
        FenLists(lists)
    }

    /// The FEN of `child`, the position `mv` leads to from `parent`, appended to `out`: the
    /// same text as [`Variant::fen_into`], with the list of a side whose pieces the move left
    /// as they were copied from the parent's FEN instead of written again (a step moves one
    /// side's pieces only). `parent_fen` is the parent's FEN and `lists` where its lists are,
    /// as `fen_into` wrote and returned them.
    pub fn child_fen_into(
        &self,
        parent: &Position,
        parent_fen: &[u8],
        lists: &FenLists,
        mv: &Move,
        child: &Position,
        out: &mut Vec<u8>,
    ) {
        out.push(child.side().letter() as u8);
        for (list, color) in lists.0.iter().zip(Color::BOTH) {
            // Read off the move, not by comparing the two positions' sets: only a pass leaves
            // the mover's pieces as they were, and only a capture takes the opponent's (an
            // opening removal takes one of the mover's own).
            let same = if color == parent.side() {
                mv.is_pass()
            } else {
                !mv.is_capture()
            };
            match parent_fen.get(list.clone()) {
                Some(text) if same => out.extend_from_slice(text),
                _ => self.fen_side_into(child, color, out),
            }
        }
        self.fen_rest_into(child, out);
    }

    /// One side's list of a FEN: `:W31,32,K33` (`:` and the side's letter, then its pieces in
    /// FEN order, each kind with its prefix letter: `K` for a king).
    fn fen_side_into(&self, pos: &Position, color: Color, out: &mut Vec<u8>) {
        // A buffer for the side's pieces (cleared before use): a small one for the usual
        // count, one for every cell of the largest board otherwise.
        const USUAL: usize = 40;
        if pos.side_pieces(color).len() as usize <= USUAL {
            self.fen_side_buffered::<{ 3 + (2 + MAX_NAME_BYTES) * USUAL + FEN_ENTRY_BYTES }>(
                pos, color, out,
            )
        } else {
            self.fen_side_buffered::<{ 3 + (2 + MAX_NAME_BYTES) * MAX_CELLS + FEN_ENTRY_BYTES }>(
                pos, color, out,
            )
        }
    }

    /// [`Variant::fen_side_into`] with a buffer of `N` bytes, room for the colon, the letter,
    /// a comma, a kind prefix and a name per piece, and one block more.
    fn fen_side_buffered<const N: usize>(&self, pos: &Position, color: Color, out: &mut Vec<u8>) {
        let entries = self.fen_entries();
        // The list is written into a buffer on the stack, then copied once; the loop keeps
        // its length in a register instead of going through the Vec's length and capacity
        // checks for every byte. Each piece's entry (`,31`, with its comma) is written from
        // byte 2 on as a fixed-width block (the padding is overwritten or left off); the
        // first entry's comma then gives way to the side's letter.
        let mut buf = [0u8; N];
        let men = pos.pieces(color, Kind::Man);
        let kings = pos.pieces(color, Kind::King);
        let all = pos.side_pieces(color);
        let mut n = 2;
        // The pieces in FEN order: the order's runs of consecutive cells, each a shift and a
        // mask of one word of the set, then its set bits (not a test of every cell).
        let words = all.words();
        let crowned = all.minus(men).words();
        for &(first, len) in self.fen_runs() {
            let first = usize::from(first);
            let (word, shift) = (first >> 6, first & 63);
            let mask = if len >= 64 {
                u64::MAX
            } else {
                (1u64 << len) - 1
            };
            let mut bits = (words[word] >> shift) & mask;
            let crowned = (crowned[word] >> shift) & mask;
            while bits != 0 {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                let c = first + i as usize;
                let (entry, len) = entries[c];
                if (crowned >> i) & 1 == 0 {
                    buf[n..n + FEN_ENTRY_BYTES].copy_from_slice(&entry);
                    n += len as usize;
                } else {
                    // A kind with a prefix: its letter between the comma and the name.
                    buf[n] = b',';
                    buf[n + 1] = if kings.contains(c) {
                        b'K'
                    } else {
                        Kind::ALL[2..]
                            .iter()
                            .find(|&&k| pos.pieces(color, k).contains(c))
                            .and_then(|k| k.prefix())
                            .unwrap_or(b'K')
                    };
                    buf[n + 2..n + 1 + FEN_ENTRY_BYTES].copy_from_slice(&entry[1..]);
                    n += 1 + len as usize;
                }
            }
        }
        buf[1] = b':';
        buf[2] = color.letter() as u8;
        out.extend_from_slice(&buf[1..n.max(3)]);
    }

    /// The end of a FEN after the two lists: the hands, the castle moves, the king runs and
    /// the last moves, where they matter.
    fn fen_rest_into(&self, pos: &Position, out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail.
        use std::io::Write;
        if pos.hand != [0, 0] {
            let _ = write!(out, ":S{},{}", pos.hand[0], pos.hand[1]);
        }
        if pos.castle_moves != [0, 0] {
            let _ = write!(out, ":C{},{}", pos.castle_moves[0], pos.castle_moves[1]);
        }
        // The king runs that bind: a side without men has none (the position reader and
        // `Variant::play` keep none).
        let runs = Color::BOTH.map(|c| {
            let r = pos.king_run(c);
            (r.count > 0 && !pos.pieces(c, Kind::Man).is_empty()).then_some(r)
        });
        if runs.iter().any(Option::is_some) {
            out.extend_from_slice(b":R");
            for (i, r) in runs.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                match r {
                    Some(r) => {
                        let _ = write!(out, "{}/{}", self.square_str(r.cell as usize), r.count);
                    }
                    None => out.push(b'-'),
                }
            }
        }
        let last = Color::BOTH.map(|c| pos.last_move(c));
        if last.iter().any(Option::is_some) {
            out.extend_from_slice(b":L");
            for (i, m) in last.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                match m {
                    Some((a, z)) => {
                        let _ = write!(out, "{}-{}", self.square_str(*a), self.square_str(*z));
                    }
                    None => out.push(b'-'),
                }
            }
        }
    }
}

/// Where the two lists of a FEN text are (`:W...` and `:B...`, in the order of
/// `Color::BOTH`), as byte ranges from its start: what [`Variant::fen_into`] returns for
/// [`Variant::child_fen_into`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenLists([std::ops::Range<usize>; 2]);

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use crate::catalogue::{variant, variants};

    /// The FEN with each run of three or more consecutive numbers written as a range
    /// (`W31-50`), as other programs write it; other squares as they are.
    fn with_ranges(fen: &str) -> String {
        let fields: Vec<String> = fen
            .split(':')
            .map(|field| {
                let Some(list) = field.strip_prefix(['W', 'B']) else {
                    return field.to_string();
                };
                let mut out: Vec<String> = Vec::new();
                let mut run: Vec<u32> = Vec::new();
                let flush = |run: &mut Vec<u32>, out: &mut Vec<String>| {
                    if run.len() >= 3 {
                        out.push(format!("{}-{}", run[0], run[run.len() - 1]));
                    } else {
                        out.extend(run.iter().map(u32::to_string));
                    }
                    run.clear();
                };
                for tok in list.split(',').filter(|t| !t.is_empty()) {
                    match tok.parse::<u32>() {
                        Ok(n) if run.last().is_none_or(|&l| l + 1 == n) => run.push(n),
                        Ok(n) => {
                            flush(&mut run, &mut out);
                            run.push(n);
                        }
                        Err(_) => {
                            flush(&mut run, &mut out);
                            out.push(tok.to_string());
                        }
                    }
                }
                flush(&mut run, &mut out);
                format!("{}{}", &field[..1], out.join(","))
            })
            .collect();
        fields.join(":")
    }

    /// Texts near `fen`: one byte changed, removed or doubled, a space or a quote added,
    /// a square named twice, counters and fields the fast reader leaves to the other.
    fn mutations(fen: &str) -> Vec<String> {
        let bytes = fen.as_bytes();
        let mut out = Vec::new();
        for (i, _) in bytes.iter().enumerate().step_by(3) {
            for b in [
                b' ', b'-', b',', b':', b'K', b'P', b'0', b'9', b'"', b'.', b'x',
            ] {
                let mut changed = bytes.to_vec();
                changed[i] = b;
                out.push(changed);
                let mut inserted = bytes.to_vec();
                inserted.insert(i, b);
                out.push(inserted);
            }
            let mut removed = bytes.to_vec();
            removed.remove(i);
            out.push(removed);
        }
        let mut out: Vec<String> = out
            .into_iter()
            .filter_map(|b| String::from_utf8(b).ok())
            .collect();
        for tail in [
            ":H0:F1",
            ":H7",
            ":F0",
            ":F12:H3",
            ":H",
            ":Hx",
            ":H1234567890",
            ":S1,1",
            ":L-,-",
            ".",
            ":",
            ":W",
            ":B",
            ":W1",
            ":B50",
            ":WK1",
            ":BK46",
            ":W1-1",
            ":B5-1",
            ":WP1",
        ] {
            out.push(format!("{fen}{tail}"));
        }
        out.push(format!(" {fen}"));
        out.push(format!("\"{fen}\""));
        out.push(fen.to_lowercase());
        out
    }

    /// The fast reader agrees with the general one on every FEN it takes: the positions of a
    /// seeded random game of every variant, written out, with ranges, with counters, and
    /// thousands of texts near them (most of them wrong). It must take the common FENs.
    #[test]
    fn the_plain_reader_agrees_with_the_general_one() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut pick = move |n: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % n
        };
        let (mut taken, mut left, mut checked) = (0, 0, 0);
        for v in variants() {
            let mut pos = v.start();
            for ply in 0..40 {
                let fen = v.fen(&pos);
                let ranged = with_ranges(&fen);
                let mut texts = vec![fen.clone(), ranged.clone()];
                if ply % 8 == 0 {
                    texts.extend(mutations(&fen));
                    texts.extend(mutations(&ranged));
                }
                for text in &texts {
                    let general = v.parse_any_fen(text);
                    match v.parse_plain_fen(text.as_bytes()) {
                        Some(fast) => {
                            assert_eq!(general, Ok(fast), "{} {text:?}", v.id());
                            taken += 1;
                        }
                        None => left += 1,
                    }
                    assert_eq!(v.parse_fen_counters(text), general, "{} {text:?}", v.id());
                    checked += 1;
                }
                let moves = v
                    .legal_moves(&pos, &crate::budget::Budget::unlimited())
                    .unwrap();
                if moves.is_empty() {
                    break;
                }
                pos = v.play(&pos, &moves[pick(moves.len())]);
            }
        }
        assert!(checked > 50_000, "{checked} texts");
        assert!(taken > 5_000 && left > 20_000, "{taken} taken, {left} left");
        // The FENs that clients send take the fast road.
        let intl = variant("international").unwrap();
        for text in [
            "W:W31-50:B1-20",
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
            "W:W31-50:B1-20:H0:F1",
            "w:wK46:b5",
        ] {
            assert!(intl.parse_plain_fen(text.as_bytes()).is_some(), "{text}");
        }
    }
}
