//! Jump captures: short and flying pieces, deferred and immediate removal, the three
//! mid-capture promotion behaviours, the landing rule for flying kings (with Killer's halt
//! behind a last captured king) and capture precedence (FMJD rules, art. 4; the
//! national federations' rules; Killer as in Scan and dctl).
//!
//! The search is a depth-first walk per piece. Complete sequences are scored with the
//! variant's precedence key; only those with the best key survive, and sequences with the same
//! (from, to, captured set, resulting kind) collapse into one move. With `ROUTES` the search
//! also keeps, for each move, its canonical route (the PDN route with the smallest list of
//! square numbers) and whether any of its routes is named by a move text; routes are looked at
//! one by one as the search completes them and never stored, so memory stays one route per
//! move. Without `ROUTES` the search allocates nothing while a position has few moves; past
//! [`INDEX_FROM`] moves it indexes them in a hash table, so that finding a route's move costs
//! the same however many moves there are (a scan of the list would make the work grow with
//! routes × moves, beyond what the budget counts).

use std::collections::HashMap;

use crate::bits::{Bits, CellSet};
use crate::board::{Board, Dir, DirSet};
use crate::budget::{Budget, GenError};
use crate::moves::{Identity, Jump, Move, Route};
use crate::position::{Color, Kind, Position};
use crate::rules::{Landing, MidCapturePromotion, Precedence, Reach, Removal, Rules};

/// Moves found before a route's move is looked up in a hash table instead of the list: a
/// scan of a few moves is cheaper than hashing, and real positions have few.
const INDEX_FROM: usize = 32;

/// The moves of `out` by identity, once there are [`INDEX_FROM`]; the first `indexed` of
/// them are in the table (the others are added at the next lookup).
#[derive(Default)]
struct MoveIndex {
    table: HashMap<Identity, u32>,
    indexed: usize,
}

/// What a capture sequence has taken so far.
#[derive(Clone, Copy, Default)]
struct Seq<S> {
    captured: S,
    /// Pieces captured.
    n: u32,
    /// Kings captured.
    kings: u32,
    /// Bit `31 - i` set when the `i`-th captured piece is a king (earlier kings: larger).
    king_mask: u32,
    /// Total value of the captured pieces (for value precedence).
    value: u32,
}

impl<S: CellSet> Seq<S> {
    #[inline(always)]
    fn with(self, victim: usize, is_king: bool, value: u32) -> Seq<S> {
        Seq {
            captured: self.captured.with(victim),
            n: self.n + 1,
            kings: self.kings + is_king as u32,
            king_mask: if is_king && self.n < 32 {
                self.king_mask | 1 << (31 - self.n)
            } else {
                self.king_mask
            },
            value: self.value + value,
        }
    }
}

/// What the search needs in `ROUTES` mode.
#[derive(Clone, Copy)]
pub(crate) struct Notation<'a> {
    /// The numeric name of each cell: the canonical route of a move is its PDN route with the
    /// smallest list of square numbers.
    pub numbers: &'a [u16],
    /// The squares of a move text, read as a long form: each move records whether one of its
    /// routes is named by it ([`names_route`](crate::moves::names_route)).
    pub text: Option<&'a [usize]>,
    /// Read `text` as a possibly incomplete long form
    /// ([`names_route_partly`](crate::moves::names_route_partly)).
    pub partly: bool,
}

/// What the search keeps in `ROUTES` mode.
#[derive(Default)]
pub(crate) struct RouteState {
    /// The canonical route of each move of `out`, its key, and whether the text names one of
    /// its routes.
    pub(crate) routes: Vec<Route>,
    keys: Vec<Vec<u16>>,
    pub(crate) named: Vec<bool>,
    /// The jumps of the sequence being searched.
    jumps: Vec<Jump>,
    scratch: Vec<usize>,
}

/// Search state shared by every piece of the side to move, in cell sets of the board's width
/// `S`.
pub(crate) struct Search<'a, S: CellSet, const ROUTES: bool> {
    board: &'a Board,
    rules: &'a Rules,
    color: usize,
    promo: S,
    enemy: S,
    enemy_kings: S,
    /// Every piece on the board except the one capturing.
    occupied: S,
    from: u8,
    start: Kind,
    best: u64,
    /// Search nodes visited.
    pub(crate) steps: u32,
    /// Nodes allowed: the per-position bound, or what is left of the budget if that is less.
    limit: u32,
    capture_limit: u32,
    budget: &'a Budget,
    cancelled: bool,
    pub(crate) out: &'a mut Vec<Move>,
    /// `ROUTES` only: what the move text asks and the caller's route state (a reference, so
    /// that the plain search neither builds nor drops one).
    track: Option<(Notation<'a>, &'a mut RouteState)>,
    /// Collapse routes with the same identity into one move (the default); without it every
    /// complete route is a separate entry (the "keep duplicates" perft convention).
    pub(crate) dedup: bool,
    /// `out` by identity, once it holds `index_from` moves ([`INDEX_FROM`]; tests lower it).
    index: Option<MoveIndex>,
    index_from: usize,
}

impl<'a, S: CellSet, const ROUTES: bool> Search<'a, S, ROUTES> {
    pub(crate) fn new(
        board: &'a Board,
        rules: &'a Rules,
        promo: Bits,
        pos: &Position,
        capture_limit: u32,
        budget: &'a Budget,
        out: &'a mut Vec<Move>,
    ) -> Self {
        let me = pos.side();
        let them = me.opponent();
        Search {
            board,
            rules,
            color: me as usize,
            promo: S::from_bits(promo),
            enemy: S::from_bits(pos.side_pieces(them)),
            enemy_kings: S::from_bits(pos.pieces(them, Kind::King)),
            occupied: S::from_bits(pos.occupied()),
            from: 0,
            start: Kind::Man,
            best: 0,
            steps: 0,
            limit: capture_limit.min(budget.left().min(u32::MAX as u64) as u32),
            capture_limit,
            budget,
            cancelled: false,
            out,
            track: None,
            dedup: true,
            index: None,
            index_from: INDEX_FROM,
        }
    }

    /// Turns on route tracking (`ROUTES` mode only), kept in `rs`.
    pub(crate) fn with_notation(mut self, notation: Notation<'a>, rs: &'a mut RouteState) -> Self {
        self.track = Some((notation, rs));
        self
    }

    /// Why the search stopped early, once it has.
    fn stop_reason(&self) -> GenError {
        super::stop_reason(self.cancelled, self.limit, self.capture_limit, self.budget)
    }

    /// Generates the captures of every piece of the side to move.
    #[inline(always)]
    pub(crate) fn run(&mut self, pos: &Position) -> Result<(), GenError> {
        let me: Color = pos.side();
        let all = self.occupied;
        for kind in Kind::ALL {
            if !pos.has_kind(kind) || self.rules.piece(kind).captures[self.color].is_empty() {
                continue;
            }
            let pr = *self.rules.piece(kind);
            let mut pieces = S::from_bits(pos.pieces(me, kind));
            let short = pr.reach == Reach::Short;
            if short {
                if let Some(shifts) = self.board.shifts() {
                    // Whole-set test: pieces with a capturable piece next to them and an
                    // empty cell behind it, in any capture direction.
                    let free = S::from_bits(self.board.cells()).andn(all);
                    let targets = if pr.captures_kings {
                        self.enemy
                    } else {
                        self.enemy.andn(self.enemy_kings)
                    };
                    let mut can = S::default();
                    for d in pr.captures[self.color].iter() {
                        let off = shifts[d as usize] as i32;
                        can = can.or(targets.shift(-off).and(free.shift(-2 * off)));
                    }
                    pieces = pieces.and(can);
                }
            }
            let quick = short && self.board.shifts().is_none();
            for from in pieces.cells() {
                if quick && !self.short_capture_from(from, kind) {
                    continue;
                }
                self.from = from as u8;
                self.start = kind;
                self.occupied = all.without(from);
                self.search(from, kind, Seq::default(), None, None);
                if self.steps > self.limit {
                    return Err(self.stop_reason());
                }
            }
        }
        Ok(())
    }

    /// Quick test: can a short-range piece standing on `from` capture at all? Most pieces in
    /// most positions cannot, and this spares them the full search.
    #[inline(always)]
    fn short_capture_from(&self, from: usize, kind: Kind) -> bool {
        let pr = self.rules.piece(kind);
        let occ = self.occupied;
        for d in pr.captures[self.color].iter() {
            let [over, land] = self.board.jump(from, d);
            if land != crate::board::NONE
                && self.enemy.has(over as usize)
                && (!occ.has(land as usize) || land as usize == from)
                && (pr.captures_kings || !self.enemy_kings.has(over as usize))
            {
                return true;
            }
        }
        false
    }

    /// Whether the piece on `cell` blocks a line, given the pieces captured so far.
    #[inline(always)]
    fn blocked(&self, cell: usize, captured: S) -> bool {
        self.occupied.has(cell) && !(self.rules.removal == Removal::Immediate && captured.has(cell))
    }

    #[inline(always)]
    fn capturable(&self, cell: usize, kind: Kind, captured: S) -> bool {
        self.enemy.has(cell)
            && !captured.has(cell)
            && (self.rules.piece(kind).captures_kings || !self.enemy_kings.has(cell))
    }

    /// Finds the piece a capture in direction `d` from `cur` would take, and the range of
    /// landing cells behind it: `(victim, ray, start, end)` with landings `ray[start..end]`.
    #[inline(always)]
    fn target(
        &self,
        cur: usize,
        kind: Kind,
        d: Dir,
        captured: S,
    ) -> Option<(usize, &'a [u8], usize, usize)> {
        let board: &'a Board = self.board;
        let ray = board.ray(cur, d);
        let pr = self.rules.piece(kind);
        let (vi, landing) = match pr.reach {
            Reach::Short => {
                if ray.len() < 2 {
                    return None;
                }
                (0, Landing::Behind)
            }
            Reach::Flying(landing) => {
                let mut i = 0;
                while i < ray.len() && !self.blocked(ray[i] as usize, captured) {
                    i += 1;
                }
                if i + 1 >= ray.len() {
                    return None;
                }
                (i, landing)
            }
        };
        let victim = ray[vi] as usize;
        if !self.capturable(victim, kind, captured) {
            return None;
        }
        let start = vi + 1;
        let mut end = start;
        while end < ray.len() && !self.blocked(ray[end] as usize, captured) {
            end += 1;
            if landing == Landing::Behind {
                break;
            }
        }
        if end == start {
            return None;
        }
        Some((victim, ray, start, end))
    }

    /// The kind a piece continues as after landing on `cell`, or `None` if the move must end
    /// there (a man crowned under the END rule).
    #[inline(always)]
    fn continues_as(&self, kind: Kind, cell: usize) -> Option<Kind> {
        if kind == Kind::Man && self.promo.has(cell) {
            match self.rules.mid_capture_promotion {
                MidCapturePromotion::End => None,
                MidCapturePromotion::Pass => Some(Kind::Man),
                MidCapturePromotion::KingContinue => Some(Kind::King),
            }
        } else {
            Some(kind)
        }
    }

    /// Whether a further capture exists from `cell`.
    fn can_continue(&self, cell: usize, kind: Kind, captured: S, n: u32, last: Dir) -> bool {
        let Some(kind) = self.continues_as(kind, cell) else {
            return false;
        };
        let pr = self.rules.piece(kind);
        if pr.max_jumps != 0 && n >= pr.max_jumps as u32 {
            return false;
        }
        for d in pr.captures[self.color].iter() {
            if (self.rules.no_reversal && d == last.opposite())
                || (self.rules.straight_captures && d != last)
            {
                continue;
            }
            if self.target(cell, kind, d, captured).is_some() {
                return true;
            }
        }
        false
    }

    /// Extends a sequence from `cur`; returns whether any further capture was found.
    ///
    /// `straight` excludes going on in the direction just taken: from every landing cell but
    /// the first behind a captured piece, going straight on meets the same pieces as from the
    /// first, so it is explored once (one route, as PDN writes it).
    fn search(
        &mut self,
        cur: usize,
        kind: Kind,
        seq: Seq<S>,
        last: Option<Dir>,
        straight: Option<Dir>,
    ) -> bool {
        self.steps += 1;
        if self.steps & 0xffff == 0 && self.budget.cancelled() {
            self.cancelled = true;
            self.limit = 0;
        }
        if self.steps > self.limit {
            return true;
        }
        let pr = *self.rules.piece(kind);
        if pr.max_jumps != 0 && seq.n >= pr.max_jumps as u32 {
            return false;
        }
        let mut found = false;
        let mut dirs = pr.captures[self.color].0;
        if last.is_none() && self.rules.first_jump_along_moves {
            dirs &= pr.moves[self.color].0;
        }
        if let Some(l) = last {
            if self.rules.straight_captures {
                dirs &= 1 << l as u8;
            } else if self.rules.no_reversal {
                dirs &= !(1 << l.opposite() as u8);
            }
        }
        if let Some(s) = straight {
            dirs &= !(1 << s as u8);
        }
        for d in DirSet(dirs).iter() {
            let Some((victim, ray, start, end)) = self.target(cur, kind, d, seq.captured) else {
                continue;
            };
            found = true;
            let is_king = self.enemy_kings.has(victim);
            let next = seq.with(victim, is_king, self.value_of(is_king));
            // Landing rule (a capture goes on): where a further capture is possible from some
            // landing cells, only those are allowed.
            let mut allowed = u64::MAX;
            if end - start > 1 {
                // Each landing probed is work too (a step of the search).
                self.steps += (end - start) as u32;
                let mut cont = 0u64;
                for (j, &l) in ray[start..end].iter().enumerate() {
                    if self.can_continue(l as usize, kind, next.captured, next.n, d) {
                        cont |= 1 << j;
                    }
                }
                if cont != 0 {
                    allowed = cont;
                } else if pr.halt_behind_last_king && is_king {
                    // The killer rule: the capture ends here and its last piece is a king, so
                    // the capturer stops right behind it.
                    allowed = 1;
                }
            }
            for (j, &l) in ray[start..end].iter().enumerate() {
                if allowed & (1 << j) == 0 {
                    continue;
                }
                if ROUTES {
                    if let Some((_, rs)) = self.track.as_mut() {
                        rs.jumps.push(Jump {
                            dir: d,
                            over: victim as u8,
                            to: l,
                        });
                    }
                }
                // A landing cell after the first that may only go straight on repeats the
                // first one's routes: it is neither explored that way nor an end.
                let repeat = j > 0 && allowed != u64::MAX;
                self.land(l as usize, kind, next, d, j > 0, repeat);
                if ROUTES {
                    if let Some((_, rs)) = self.track.as_mut() {
                        rs.jumps.pop();
                    }
                }
                if self.steps > self.limit {
                    return true;
                }
            }
        }
        found
    }

    #[inline(always)]
    fn land(
        &mut self,
        cell: usize,
        kind: Kind,
        seq: Seq<S>,
        d: Dir,
        not_first: bool,
        repeat: bool,
    ) {
        let straight = not_first.then_some(d);
        let continued = match self.continues_as(kind, cell) {
            Some(next) => self.search(cell, next, seq, Some(d), straight),
            None => false,
        };
        if (!continued || self.rules.capture_may_stop) && !repeat {
            let mut becomes = self.rules.piece(self.start).after_capture;
            if self.start == Kind::King {
                becomes = Kind::King;
            }
            if kind == Kind::King || (becomes == Kind::Man && self.promo.has(cell)) {
                becomes = Kind::King;
            }
            self.record(cell, becomes, seq);
        }
    }

    #[inline(always)]
    fn value_of(&self, is_king: bool) -> u32 {
        for p in &self.rules.precedence {
            if let Precedence::Value { man, king } = p {
                return if is_king { *king } else { *man } as u32;
            }
        }
        0
    }

    #[inline(always)]
    fn key(&self, seq: &Seq<S>) -> u64 {
        let mut key = 0u64;
        for p in &self.rules.precedence {
            key = match p {
                Precedence::Count => key << 8 | seq.n as u64,
                Precedence::Value { .. } => key << 16 | seq.value as u64,
                Precedence::ByKing => key << 1 | (self.start == Kind::King) as u64,
                Precedence::KingsCaptured => key << 8 | seq.kings as u64,
                Precedence::KingsEarly => key << 32 | seq.king_mask as u64,
            };
        }
        key
    }

    /// Where `m`'s move is in `out`, if it is there.
    #[inline(always)]
    fn find(&mut self, m: &Move) -> Option<usize> {
        if self.out.len() < self.index_from {
            return self.out.iter().position(|o| o.same_identity(m));
        }
        let ix = self.index.get_or_insert_with(MoveIndex::default);
        for (i, o) in self.out.iter().enumerate().skip(ix.indexed) {
            ix.table.insert(o.identity(), i as u32);
        }
        ix.indexed = self.out.len();
        ix.table.get(&m.identity()).map(|&i| i as usize)
    }

    #[inline(always)]
    fn record(&mut self, to: usize, becomes: Kind, seq: Seq<S>) {
        let key = self.key(&seq);
        if key < self.best {
            return;
        }
        if key > self.best {
            self.best = key;
            self.out.clear();
            if let Some(ix) = self.index.as_mut() {
                ix.table.clear();
                ix.indexed = 0;
            }
            if let Some((_, rs)) = self.track.as_mut() {
                rs.routes.clear();
                rs.keys.clear();
                rs.named.clear();
            }
        }
        let m = Move::capture(
            self.from as usize,
            to,
            self.start,
            becomes,
            seq.captured.to_bits(),
        );
        if !self.dedup {
            self.out.push(m);
            return;
        }
        let found = self.find(&m);
        if !ROUTES {
            if found.is_none() {
                self.out.push(m);
            }
            return;
        }
        let from = self.from;
        let board = self.board;
        let Some((notation, rs)) = self.track.as_mut() else {
            if found.is_none() {
                self.out.push(m);
            }
            return;
        };
        let notation = *notation;
        let named = notation.text.is_some_and(|t| {
            if notation.partly {
                crate::moves::names_route_partly(board, t, from as usize, &rs.jumps)
            } else {
                crate::moves::names_route(board, t, from as usize, &rs.jumps)
            }
        });
        crate::moves::pdn_squares(board, from as usize, &rs.jumps, &mut rs.scratch);
        let numbers = notation.numbers;
        let key = rs.scratch.iter().map(|&c| numbers[c]);
        let route = |rs: &RouteState| Route {
            from,
            jumps: rs.jumps.clone(),
        };
        match found {
            Some(i) => {
                rs.named[i] |= named;
                if key.lt(rs.keys[i].iter().copied()) {
                    rs.keys[i].clear();
                    rs.keys[i].extend(rs.scratch.iter().map(|&c| numbers[c]));
                    rs.routes[i] = route(rs);
                }
            }
            None => {
                self.out.push(m);
                rs.keys.push(key.collect());
                rs.routes.push(route(rs));
                rs.named.push(named);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::variants;
    use crate::variant::Variant;

    /// A capture search of `pos` into `out`, with the hash table used from move `index_from`
    /// on.
    fn searcher<'a, S: CellSet, const ROUTES: bool>(
        v: &'a Variant,
        pos: &Position,
        budget: &'a Budget,
        out: &'a mut Vec<Move>,
        index_from: usize,
    ) -> Search<'a, S, ROUTES> {
        let promo = v.promotion(pos.side());
        let limit = crate::gen::DEFAULT_CAPTURE_LIMIT;
        let mut s = Search::new(v.board(), v.rules(), promo, pos, limit, budget, out);
        s.index_from = index_from;
        s
    }

    /// The moves and canonical routes of the capture search of `pos` (with and without
    /// routes, which must find the same moves), the hash table used from move `index_from`
    /// on; nothing when the search needs more than its budget.
    /// The plain search runs in the widest sets, the one with routes in the board's own
    /// width, so that the two widths are compared too.
    fn search(v: &Variant, pos: &Position, index_from: usize) -> (Vec<Move>, Vec<Route>) {
        let (budget, mut out) = (Budget::new(2_000_000), Vec::new());
        let plain = searcher::<Bits, false>(v, pos, &budget, &mut out, index_from).run(pos);
        let (budget, mut routed) = (Budget::new(2_000_000), Vec::new());
        let mut rs = RouteState::default();
        let notation = Notation {
            numbers: v.numbers(),
            text: None,
            partly: false,
        };
        let with_routes = crate::gen::by_width!(v.board(), S => {
            searcher::<S, true>(v, pos, &budget, &mut routed, index_from)
                .with_notation(notation, &mut rs)
                .run(pos)
        });
        if plain.is_err() || with_routes.is_err() {
            return (Vec::new(), Vec::new());
        }
        assert_eq!(out, routed, "{}: {}", v.id(), v.fen(pos));
        (out, rs.routes)
    }

    /// The hash table finds a route's move where the scan of the list does, also when a
    /// route with a better precedence key empties the list: the same moves in the same order,
    /// and the same canonical routes, on the positions of random games and king-rich random
    /// placements of every variant.
    #[test]
    fn the_move_index_finds_what_the_scan_finds() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut below = |n: usize| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
        };
        let mut compared = 0;
        for v in variants() {
            let mut positions = Vec::new();
            let mut pos = v.start();
            for _ in 0..60 {
                positions.push(pos);
                let moves = v
                    .legal_moves(&pos, &Budget::unlimited())
                    .unwrap_or_default();
                if moves.is_empty() {
                    break;
                }
                pos = v.play(&pos, &moves[below(moves.len())]);
            }
            let cells: Vec<usize> = v.board().cells().iter().collect();
            for _ in 0..60 {
                let mut lists = [Vec::new(), Vec::new()];
                for (i, &cell) in cells.iter().enumerate() {
                    if below(5) < 2 {
                        let color = usize::from(i % 3 != 0);
                        let prefix =
                            if below(3) == 0 || v.promotion(Color::BOTH[color]).contains(cell) {
                                "K"
                            } else {
                                ""
                            };
                        lists[color].push(format!("{prefix}{}", v.square_name(cell)));
                    }
                }
                let fen = format!("W:W{}:B{}", lists[0].join(","), lists[1].join(","));
                if let Ok(p) = v.parse_fen(&fen) {
                    positions.push(p);
                }
            }
            for pos in &positions {
                let scanned = search(v, pos, usize::MAX);
                let indexed = search(v, pos, 0);
                assert_eq!(scanned.0, indexed.0, "{}: {}", v.id(), v.fen(pos));
                assert_eq!(scanned.1, indexed.1, "{}: {}", v.id(), v.fen(pos));
                compared += usize::from(!scanned.0.is_empty());
            }
        }
        assert!(compared > 1000, "{compared} positions with captures");
    }
}
