//! One table: the solved values of one material of one variant, bit-packed; and what the
//! values are.

use std::fmt;
use std::sync::Arc;

use crate::board::Dir;
use crate::budget::Budget;
use crate::material::Material;
use crate::outcome::{status, Status};
use crate::position::{Color, Position};
use crate::variant::Variant;

use super::clocks::Model;
use super::numbering::Numbering;

/// The value of a position for the side to move, with the number of plies to the end of the
/// game under best play: the winner hurries, the loser delays. `Loss(0)`: the side to move
/// has lost (no legal move, no piece, an end rule); `Win(0)`: it has won already (in the anti
/// variants, having no legal move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win(u16),
    Draw,
    Loss(u16),
}

impl Value {
    /// `"win"`, `"draw"` or `"loss"`.
    pub fn category(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }

    /// Plies to the end under best play; `None` for a draw.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// The value for the mover of a move leading to a position of value `self` (for the
    /// opponent): a loss for the opponent is a win one ply longer, and so on.
    pub fn before_move(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n.saturating_add(1)),
            Value::Draw => Value::Draw,
            Value::Loss(n) => Value::Win(n.saturating_add(1)),
        }
    }

    /// The code a table stores: 0 for an index that is no position, 1 a draw, `2 + 2n` a win
    /// in `n`, `3 + 2n` a loss in `n`.
    pub(super) fn code(self) -> u32 {
        match self {
            Value::Draw => 1,
            Value::Win(n) => 2 + 2 * u32::from(n),
            Value::Loss(n) => 3 + 2 * u32::from(n),
        }
    }

    pub(super) fn of_code(code: u32) -> Option<Value> {
        match code {
            0 => None,
            1 => Some(Value::Draw),
            c => {
                let n = ((c - 2) / 2) as u16;
                Some(if c % 2 == 0 {
                    Value::Win(n)
                } else {
                    Value::Loss(n)
                })
            }
        }
    }
}

/// Why a variant has no endgame tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub reason: &'static str,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason)
    }
}

/// Whether the solver covers a variant. Every ruleset of the catalogue is covered: the
/// variants of men and kings by taking moves back along the ruleset's directions
/// ([`super::solve()`]), the others (stones in hand, passes, the no-return rule, canters and
/// castles) over the explicit graph of their positions ([`super::graph`]). Kept for rulesets
/// a future mechanism may leave out.
pub fn supported(_variant: &Variant) -> Result<(), Unsupported> {
    Ok(())
}

/// A fingerprint of everything a table's values depend on: the board, the promotion squares
/// and the ruleset. Tables built under other rules (another version of a variant) are
/// refused when loaded.
pub fn fingerprint(variant: &Variant) -> u64 {
    // FNV-1a over a canonical text of the rules: stable across builds of the same code.
    let board = variant.board();
    let mut links = String::new();
    for cell in board.cells().iter() {
        for d in Dir::ALL {
            links.push_str(&board.next(cell, d).to_string());
            links.push(',');
        }
    }
    let text = format!(
        "{:?}|{:?}|{:?}|{}|{:?}",
        variant.rules(),
        variant.promotion(Color::White),
        variant.promotion(Color::Black),
        links,
        board.step_only()
    );
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Counts of a table's values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Legal positions (both sides to move).
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest win, in plies.
    pub longest: u16,
}

/// How many positions of a table the counting rules change, with the counts a game has at
/// the start of the material (every count fresh).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleStats {
    /// Game-theoretic wins that a count draws.
    pub cursed_wins: u64,
    /// Game-theoretic losses that a count saves.
    pub blessed_losses: u64,
}

/// The bytes of a table file that a table reads its values from in place (a memory map of
/// the file, or any buffer holding it): shared and never changed.
pub type SharedBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// Packed words: owned (a table just built), or little-endian in a range of shared bytes (a
/// table file read in place, [`Table::from_shared`]), so that serving a file takes no memory of
/// its own beyond the page cache.
#[derive(Clone)]
pub(crate) enum Words {
    Owned(Vec<u64>),
    /// `len` words from byte `start` of `bytes`.
    Shared {
        bytes: SharedBytes,
        start: usize,
        len: usize,
    },
}

/// The words of a [`Words`], borrowed: the form the bit-unpacking reads.
#[derive(Clone, Copy)]
pub(crate) enum WordsRef<'a> {
    Words(&'a [u64]),
    /// Little-endian words, 8 bytes each.
    Bytes(&'a [u8]),
}

impl WordsRef<'_> {
    #[inline]
    fn word(self, w: usize) -> u64 {
        match self {
            WordsRef::Words(words) => words[w],
            WordsRef::Bytes(bytes) => {
                let b = &bytes[w * 8..w * 8 + 8];
                u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
            }
        }
    }
}

impl Words {
    #[inline]
    pub(crate) fn view(&self) -> WordsRef<'_> {
        match self {
            Words::Owned(w) => WordsRef::Words(w),
            Words::Shared { bytes, start, len } => {
                WordsRef::Bytes(&(**bytes).as_ref()[*start..*start + *len * 8])
            }
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Words::Owned(w) => w.len(),
            Words::Shared { len, .. } => *len,
        }
    }

    /// The words in the file format: little-endian bytes.
    pub(crate) fn to_le_bytes(&self) -> Vec<u8> {
        match self.view() {
            WordsRef::Words(w) => w.iter().flat_map(|w| w.to_le_bytes()).collect(),
            WordsRef::Bytes(b) => b.to_vec(),
        }
    }

    /// Whether the words are read in place from shared bytes.
    pub(crate) fn is_shared(&self) -> bool {
        matches!(self, Words::Shared { .. })
    }
}

impl PartialEq for Words {
    fn eq(&self, other: &Words) -> bool {
        let (a, b) = (self.view(), other.view());
        self.len() == other.len() && (0..self.len()).all(|w| a.word(w) == b.word(w))
    }
}

impl Eq for Words {}

impl fmt::Debug for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.is_shared() { "shared" } else { "owned" };
        write!(f, "Words({} {kind})", self.len())
    }
}

/// Bit-packed codes: each takes the bits the largest needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Packed {
    pub(crate) bits: u32,
    pub(crate) words: Words,
}

impl Packed {
    pub(crate) fn of(codes: &[u16]) -> Packed {
        let max = codes.iter().copied().max().unwrap_or(0);
        let bits = (16 - max.leading_zeros()).max(1);
        let mut words = vec![0u64; (codes.len() * bits as usize).div_ceil(64)];
        for (i, &c) in codes.iter().enumerate() {
            put(&mut words, bits, i as u64, u32::from(c));
        }
        Packed {
            bits,
            words: Words::Owned(words),
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: u64) -> u32 {
        get(self.words.view(), self.bits, i)
    }

    /// Bytes of memory of its own (none for words read in place).
    pub(crate) fn bytes(&self) -> usize {
        match self.words {
            Words::Owned(ref w) => w.len() * 8,
            Words::Shared { .. } => 0,
        }
    }

    /// Bytes of the words, wherever they are.
    pub(crate) fn len_bytes(&self) -> usize {
        self.words.len() * 8
    }
}

/// The values under the counting rules of one material ([`super::counted`]): a code per
/// position and digit of its conditional count, with the budget each result needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RuleCodes {
    /// Values of the conditional count's digit (1 without one); index `i`, digit `d` is code
    /// `i * digits + d`.
    pub(crate) digits: u64,
    pub(crate) packed: Packed,
}

/// Solved values of one material of one variant, bit-packed: each value takes the bits its
/// largest code needs.
pub struct Table {
    pub(super) variant: &'static Variant,
    pub(super) material: Material,
    pub(super) numbering: Numbering,
    pub(super) bits: u32,
    pub(super) words: Words,
    stats: TableStats,
    /// The values under the counting rules, for a variant that has counted draw rules.
    pub(crate) rules: Option<RuleCodes>,
    /// What those values depend on.
    pub(crate) model: Option<Model>,
}

impl Table {
    pub(crate) fn from_codes(
        variant: &'static Variant,
        material: Material,
        numbering: Numbering,
        codes: &[u16],
    ) -> Table {
        let max = codes.iter().copied().max().unwrap_or(0);
        let bits = (16 - max.leading_zeros()).max(1);
        let mut words = vec![0u64; (codes.len() * bits as usize).div_ceil(64)];
        for (i, &c) in codes.iter().enumerate() {
            put(&mut words, bits, i as u64, u32::from(c));
        }
        Table::from_words(variant, material, numbering, bits, Words::Owned(words))
    }

    /// A table of the packed `words` (`bits` each), its statistics counted.
    pub(crate) fn from_words(
        variant: &'static Variant,
        material: Material,
        numbering: Numbering,
        bits: u32,
        words: Words,
    ) -> Table {
        let mut stats = TableStats::default();
        let view = words.view();
        for i in 0..numbering.size() {
            match Value::of_code(get(view, bits, i)) {
                None => continue,
                Some(Value::Win(n)) => {
                    stats.wins += 1;
                    stats.longest = stats.longest.max(n);
                }
                Some(Value::Draw) => stats.draws += 1,
                Some(Value::Loss(_)) => stats.losses += 1,
            }
            stats.positions += 1;
        }
        Table {
            variant,
            material,
            numbering,
            bits,
            words,
            stats,
            rules: None,
            model: None,
        }
    }

    /// The variant's id.
    pub fn variant(&self) -> &'static str {
        self.variant.id()
    }

    pub fn material(&self) -> Material {
        self.material
    }

    /// The value of `pos` for its side to move; `None` when `pos` has another material.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if super::material_of(self.variant, pos) != self.material {
            return None;
        }
        let i = self.numbering.index(pos)?;
        Value::of_code(self.code(i))
    }

    #[inline]
    pub(super) fn code(&self, index: u64) -> u32 {
        get(self.words.view(), self.bits, index)
    }

    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// How many of its positions the counting rules change, at the start of the material
    /// (every count fresh); `None` for a variant without counted rules.
    pub fn rule_stats(&self) -> Option<RuleStats> {
        let (rules, model) = (self.rules.as_ref()?, self.model.as_ref()?);
        let budget = model.horizon();
        let cond = model.digit.map(|(i, l)| {
            (
                &self.variant.draw_cells()[i],
                &self.variant.rules().draws[i].kind,
                u64::from(l),
            )
        });
        let mut out = RuleStats::default();
        for i in 0..self.numbering.size() {
            let Some(gt) = Value::of_code(self.code(i)) else {
                continue;
            };
            if gt == Value::Draw {
                continue;
            }
            let digit = match cond {
                Some((cells, kind, l)) => match self.numbering.position(self.variant, i) {
                    Some(p) if crate::draws::endgame_holds(cells, &p, kind) => l,
                    _ => 0,
                },
                None => 0,
            };
            let code = rules.packed.get(i * rules.digits + digit);
            if at_budget(code, budget) == Some(Value::Draw) {
                match gt {
                    Value::Win(_) => out.cursed_wins += 1,
                    _ => out.blessed_losses += 1,
                }
            }
        }
        Some(out)
    }

    /// Number of indices (positions, non-positions, both sides to move).
    pub fn size(&self) -> u64 {
        self.numbering.size()
    }

    /// Bits per stored value.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Bytes of memory of its own the values take (those under the counting rules included):
    /// none for values read in place from a file ([`Table::from_shared`]), which the page cache
    /// holds.
    pub fn bytes(&self) -> usize {
        let own = match self.words {
            Words::Owned(ref w) => w.len() * 8,
            Words::Shared { .. } => 0,
        };
        own + self.rules.as_ref().map_or(0, |r| r.packed.bytes())
    }

    /// Bytes of the values wherever they are: in memory of its own or in a file read in place.
    pub fn data_bytes(&self) -> usize {
        self.words.len() * 8 + self.rules.as_ref().map_or(0, |r| r.packed.len_bytes())
    }

    /// Whether the values are read in place from a file's bytes ([`Table::from_shared`]).
    pub fn is_shared(&self) -> bool {
        self.words.is_shared()
    }

    /// The file name the table is stored under: `<variant>-<material>.arbtb`.
    pub fn file_name(&self) -> String {
        format!("{}-{}.arbtb", self.variant.id(), self.material.name())
    }
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("variant", &self.variant.id())
            .field("material", &self.material.name())
            .field("bits", &self.bits)
            .field("stats", &self.stats)
            .finish()
    }
}

fn put(words: &mut [u64], bits: u32, i: u64, code: u32) {
    let at = i * u64::from(bits);
    let (w, b) = ((at / 64) as usize, (at % 64) as u32);
    words[w] |= u64::from(code) << b;
    if b + bits > 64 {
        words[w + 1] |= u64::from(code) >> (64 - b);
    }
}

#[inline]
pub(super) fn get(words: WordsRef<'_>, bits: u32, i: u64) -> u32 {
    let at = i * u64::from(bits);
    let (w, b) = ((at / 64) as usize, (at % 64) as u32);
    let mut v = words.word(w) >> b;
    if b + bits > 64 {
        v |= words.word(w + 1) << (64 - b);
    }
    (v & ((1u64 << bits) - 1)) as u32
}

/// Progress of a build: `done` of `total` positions of `material` examined.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub material: Material,
    pub done: u64,
    pub total: u64,
}

/// The value of a position the rules have already decided (an end rule, a side without
/// pieces), or of one without legal moves.
pub(super) fn decided_value(variant: &Variant, pos: &Position) -> Value {
    let side = pos.side();
    match status(variant, pos, &Budget::unlimited()) {
        Ok(Status::Won { winner, .. }) if winner == side => Value::Win(0),
        Ok(Status::Won { .. }) => Value::Loss(0),
        Ok(Status::Drawn { .. }) => Value::Draw,
        // An ongoing position is not decided; the callers only ask for decided ones. A
        // generation error cannot occur without a budget.
        Ok(Status::Ongoing) | Err(_) => Value::Draw,
    }
}

/// The value a code stands for at budget `budget`: a result needing more is a draw.
#[inline]
pub(crate) fn at_budget(code: u32, budget: u16) -> Option<Value> {
    Some(match Value::of_code(code)? {
        Value::Win(n) if n <= budget => Value::Win(n),
        Value::Loss(n) if n <= budget => Value::Loss(n),
        _ => Value::Draw,
    })
}
