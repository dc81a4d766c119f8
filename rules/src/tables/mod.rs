//! Endgame tables: the game-theoretic value of every position of a given material, for any
//! variant of men and kings, computed by retrograde analysis on the variant's own rules.
//!
//! A table holds, for each position of one material (say two white kings against one black
//! king) and either side to move, whether the side to move wins, draws or loses with best
//! play, and in how many plies the game ends: the winner hurries, the loser delays. Play that
//! never ends is a draw. The variant's draw rules (the 25-move rule, the 16- and 5-move
//! endings, repetition) are not part of the value: they depend on the game's history, and the
//! judge applies them on top ([`crate::outcome`]).
//!
//! The solver ([`solve`]) knows nothing about any variant: it enumerates positions with the
//! variant's validity checks, generates moves with its generator, ends games with its end
//! rules and walks back along non-capturing moves by reading the ruleset's move directions and
//! ranges. A capture or a promotion leads into another material, whose table is computed
//! first ([`Tables::build`]).

mod file;
mod index;
mod mirror;
mod solve;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::budget::Budget;
use crate::outcome::{status, Status};
use crate::position::{Color, Kind, Position, KINDS};
use crate::rules::Goal;
use crate::variant::Variant;

pub use file::TableFileError;
pub use solve::{solve, SolveError};

use index::Indexer;
use mirror::Mirror;

/// The pieces of a position, counted by colour and kind: `counts[color][kind]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub counts: [[u8; KINDS]; 2],
}

/// The letter of each kind in a material's name, in the order they are written.
const LETTERS: [(Kind, char); KINDS] = [
    (Kind::King, 'K'),
    (Kind::Man, 'M'),
    (Kind::Parachutist, 'P'),
    (Kind::Knight, 'N'),
];

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let mut counts = [[0u8; KINDS]; 2];
        for c in Color::BOTH {
            for k in Kind::ALL {
                counts[c as usize][k as usize] = pos.count(c, k) as u8;
            }
        }
        Material { counts }
    }

    /// Number of pieces on the board.
    pub fn pieces(&self) -> u32 {
        self.counts.iter().flatten().map(|&n| u32::from(n)).sum()
    }

    /// Number of pieces of one side.
    pub fn side(&self, color: Color) -> u32 {
        self.counts[color as usize]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Number of pieces that are not kings (men, parachutists): a promotion lowers it.
    fn unpromoted(&self) -> u32 {
        self.pieces() - self.count(Color::White, Kind::King) - self.count(Color::Black, Kind::King)
    }

    pub fn count(&self, color: Color, kind: Kind) -> u32 {
        u32::from(self.counts[color as usize][kind as usize])
    }

    /// The name: White's pieces, `v`, Black's; `K` a king, `M` a man, `P` a parachutist,
    /// kings first ("KKvK", "KMvK").
    pub fn name(&self) -> String {
        let mut s = String::new();
        for c in Color::BOTH {
            if c == Color::Black {
                s.push('v');
            }
            for (k, letter) in LETTERS {
                for _ in 0..self.count(c, k) {
                    s.push(letter);
                }
            }
        }
        s
    }

    /// Reads a name written like [`Material::name`] (the letters of a side in any order).
    pub fn parse(s: &str) -> Option<Material> {
        let (white, black) = s.split_once('v')?;
        let mut counts = [[0u8; KINDS]; 2];
        for (c, text) in [(Color::White, white), (Color::Black, black)] {
            for ch in text.chars() {
                let (k, _) = LETTERS.iter().find(|(_, l)| *l == ch)?;
                let n = &mut counts[c as usize][*k as usize];
                *n = n.checked_add(1)?;
                if usize::from(*n) > index::MAX_GROUP {
                    return None;
                }
            }
        }
        Some(Material { counts })
    }

    /// Build order: fewer pieces first, then fewer men (a promotion leads to a material with
    /// one man fewer and the same number of pieces).
    fn order_key(&self) -> (u32, u32, String) {
        (self.pieces(), self.unpromoted(), self.name())
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

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
    fn code(self) -> u32 {
        match self {
            Value::Draw => 1,
            Value::Win(n) => 2 + 2 * u32::from(n),
            Value::Loss(n) => 3 + 2 * u32::from(n),
        }
    }

    fn of_code(code: u32) -> Option<Value> {
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

/// Whether the solver covers a variant: every variant whose positions are pieces on cells and
/// a side to move. Variants whose positions carry more (stones in hand, the previous move, a
/// king's run of moves) or whose moves are not piece moves (passes) are not covered.
pub fn supported(variant: &Variant) -> Result<(), Unsupported> {
    let r = variant.rules();
    if r.stones_in_hand != 0 {
        return Err(Unsupported {
            reason: "positions hold stones in hand and moves drop them: the tables cover \
                     positions of pieces on the board only",
        });
    }
    if r.no_return {
        return Err(Unsupported {
            reason: "a position depends on each side's previous move (the no-return rule): \
                     the tables cover positions without history",
        });
    }
    if r.king_quiet_limit != 0 {
        return Err(Unsupported {
            reason: "a position depends on how many moves in a row a king has made (the \
                     king-move limit): the tables cover positions without history",
        });
    }
    if r.goal == Goal::NoMovesPasses {
        return Err(Unsupported {
            reason: "a blocked side passes: the tables cover games made of piece moves only",
        });
    }
    if r.leaps() {
        return Err(Unsupported {
            reason: "pieces canter (leap over their own pieces, several times in one move): \
                     the tables take moves back by steps, slides and line moves only",
        });
    }
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
        for d in crate::board::Dir::ALL {
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

/// Solved values of one material of one variant, bit-packed: each value takes the bits its
/// largest code needs.
pub struct Table {
    variant: &'static Variant,
    material: Material,
    indexer: Indexer,
    bits: u32,
    words: Vec<u64>,
    stats: TableStats,
}

impl Table {
    pub(crate) fn from_codes(
        variant: &'static Variant,
        material: Material,
        indexer: Indexer,
        codes: &[u16],
    ) -> Table {
        let max = codes.iter().copied().max().unwrap_or(0);
        let bits = (16 - max.leading_zeros()).max(1);
        let mut words = vec![0u64; (codes.len() * bits as usize).div_ceil(64)];
        let mut stats = TableStats::default();
        for (i, &c) in codes.iter().enumerate() {
            put(&mut words, bits, i as u64, u32::from(c));
            match Value::of_code(u32::from(c)) {
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
            indexer,
            bits,
            words,
            stats,
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
        if Material::of(pos) != self.material {
            return None;
        }
        let i = self.indexer.index(pos)?;
        Value::of_code(self.code(i))
    }

    #[inline]
    fn code(&self, index: u64) -> u32 {
        get(&self.words, self.bits, index)
    }

    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// Number of indices (positions, non-positions, both sides to move).
    pub fn size(&self) -> u64 {
        self.indexer.size()
    }

    /// Bits per stored value.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Bytes of memory the values take.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
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
fn get(words: &[u64], bits: u32, i: u64) -> u32 {
    let at = i * u64::from(bits);
    let (w, b) = ((at / 64) as usize, (at % 64) as u32);
    let mut v = words[w] >> b;
    if b + bits > 64 {
        v |= words[w + 1] << (64 - b);
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

/// The kinds a side may have pieces of in `variant`.
fn kinds_of(variant: &Variant, color: Color) -> Vec<Kind> {
    Kind::ALL
        .into_iter()
        .filter(|&k| {
            let pr = variant.rules().piece(k);
            !pr.moves[color as usize].is_empty() || !pr.captures[color as usize].is_empty()
        })
        .collect()
}

/// Every split of `n` pieces among `kinds`, as counts by kind.
fn splits(kinds: &[Kind], n: u32, out: &mut Vec<[u8; KINDS]>) {
    fn go(kinds: &[Kind], n: u32, acc: [u8; KINDS], out: &mut Vec<[u8; KINDS]>) {
        match kinds {
            [] => {
                if n == 0 {
                    out.push(acc)
                }
            }
            [k, rest @ ..] => {
                for take in 0..=n {
                    let mut a = acc;
                    a[*k as usize] = take as u8;
                    go(rest, n - take, a, out);
                }
            }
        }
    }
    go(kinds, n, [0; KINDS], out)
}

/// Whether positions of `m` can exist at all in `variant`: its kinds are the variant's and
/// no end rule forbids them (kings of both sides where the first king wins).
fn possible(variant: &Variant, m: &Material) -> bool {
    let kings_of_both =
        m.count(Color::White, Kind::King) > 0 && m.count(Color::Black, Kind::King) > 0;
    if kings_of_both && variant.rules().ends.iter().any(|e| e.kind.forbids_kings()) {
        return false;
    }
    Indexer::new(variant, m).is_some()
}

/// Every material of 2 to `pieces` pieces, each side with at least one, that `variant` can
/// have, in build order (a material's captures and promotions lead to earlier ones).
pub fn materials_up_to(variant: &Variant, pieces: u32) -> Vec<Material> {
    let kinds = [
        kinds_of(variant, Color::White),
        kinds_of(variant, Color::Black),
    ];
    let mut out = Vec::new();
    for total in 2..=pieces {
        for white in 1..total {
            let (mut ws, mut bs) = (Vec::new(), Vec::new());
            splits(&kinds[0], white, &mut ws);
            splits(&kinds[1], total - white, &mut bs);
            for w in &ws {
                for b in &bs {
                    let m = Material { counts: [*w, *b] };
                    if possible(variant, &m) {
                        out.push(m);
                    }
                }
            }
        }
    }
    out.sort_by_key(|m| m.order_key());
    out
}

/// Every material a game of material `m` can come to (captures remove pieces, promotions turn
/// men into kings, a parachutist becomes a man), `m` included, in build order; sides left
/// without pieces are not materials.
pub fn reachable(variant: &Variant, m: &Material) -> Vec<Material> {
    let side_options = |c: Color| -> Vec<[u8; KINDS]> {
        let have = m.counts[c as usize];
        let (kings, men, paras) = (
            have[Kind::King as usize],
            have[Kind::Man as usize],
            have[Kind::Parachutist as usize],
        );
        let mut v = Vec::new();
        for p in 0..=paras {
            for mm in 0..=(men + paras - p) {
                for k in 0..=(kings + men + paras - p - mm) {
                    if p + mm + k == 0 {
                        continue;
                    }
                    let mut a = [0u8; KINDS];
                    a[Kind::King as usize] = k;
                    a[Kind::Man as usize] = mm;
                    a[Kind::Parachutist as usize] = p;
                    v.push(a);
                }
            }
        }
        v
    };
    let kinds = [
        kinds_of(variant, Color::White),
        kinds_of(variant, Color::Black),
    ];
    let allowed = |c: Color, a: &[u8; KINDS]| {
        Kind::ALL
            .iter()
            .all(|k| a[*k as usize] == 0 || kinds[c as usize].contains(k))
    };
    let mut out = Vec::new();
    for w in side_options(Color::White) {
        for b in side_options(Color::Black) {
            let cand = Material { counts: [w, b] };
            if allowed(Color::White, &w) && allowed(Color::Black, &b) && possible(variant, &cand) {
                out.push(cand);
            }
        }
    }
    out.sort_by_key(|m| m.order_key());
    out.dedup();
    out
}

/// The tables of one variant, by material.
pub struct Tables {
    variant: &'static Variant,
    map: HashMap<Material, Arc<Table>>,
    /// The variant's colour symmetry, if any: a material is then read off its mirror when
    /// that one is held.
    mirror: Option<Mirror>,
}

impl Tables {
    /// An empty set of tables for `variant`.
    pub fn new(variant: &'static Variant) -> Result<Tables, Unsupported> {
        supported(variant)?;
        Ok(Tables {
            variant,
            map: HashMap::new(),
            mirror: Mirror::of(variant),
        })
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// Whether the variant has a colour symmetry, so that a material and its mirror share one
    /// solution.
    pub fn symmetric(&self) -> bool {
        self.mirror.is_some()
    }

    /// Adds a table of this variant (a table of another variant is ignored).
    pub fn insert(&mut self, table: Arc<Table>) {
        if table.variant.id() == self.variant.id() {
            self.map.insert(table.material, table);
        }
    }

    pub fn get(&self, m: &Material) -> Option<&Arc<Table>> {
        self.map.get(m)
    }

    /// The materials held, in build order.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.map.keys().copied().collect();
        v.sort_by_key(|m| m.order_key());
        v
    }

    /// Memory the held tables take, in bytes.
    pub fn bytes(&self) -> usize {
        self.map.values().map(|t| t.bytes()).sum()
    }

    /// The value of `pos` for its side to move: from its material's table, or at once when the
    /// game is already over (an end rule decides it, a side has no piece). `None` when the
    /// table of its material is missing.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let m = Material::of(pos);
        if m.side(Color::White) == 0 || m.side(Color::Black) == 0 || self.variant.decided(pos) {
            return Some(decided_value(self.variant, pos));
        }
        self.map.get(&m)?.probe(pos)
    }

    /// Builds `material` and every missing table it leads to, smallest first, calling
    /// `progress` now and then. Returns the materials it built.
    pub fn build(
        &mut self,
        material: Material,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Vec<Material>, SolveError> {
        let mut built = Vec::new();
        for m in reachable(self.variant, &material) {
            if self.map.contains_key(&m) {
                continue;
            }
            let mirrored = match (&self.mirror, self.map.get(&m.mirrored())) {
                (Some(mirror), Some(of)) => {
                    let indexer =
                        Indexer::new(self.variant, &m).ok_or(SolveError::Impossible(m))?;
                    let size = indexer.size();
                    let t = mirror.table(self.variant, m, indexer, of);
                    progress(Progress {
                        material: m,
                        done: size,
                        total: size,
                    });
                    Some(t)
                }
                _ => None,
            };
            let t = match mirrored {
                Some(t) => t,
                None => solve(self.variant, m, self, progress)?,
            };
            self.map.insert(m, Arc::new(t));
            built.push(m);
        }
        Ok(built)
    }
}

/// The value of a position the rules have already decided (an end rule, a side without
/// pieces), or of one without legal moves.
fn decided_value(variant: &Variant, pos: &Position) -> Value {
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
