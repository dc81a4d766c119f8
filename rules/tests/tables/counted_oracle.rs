//! A second solver of values under the counting rules, written from the rules' text alone,
//! to check the engine's tables and their search against.
//!
//! It shares nothing with `arbiter_rules::tables` nor with the judge's counts: it keeps its
//! own tally of each counted draw rule as the rule states it (the plies since the last man
//! move or capture, since the last capture or promotion, the plies without capture or
//! promotion while both sides have kings, and for each endgame rule the plies since its
//! configuration arose), follows every legal move forward ([`Variant::legal_moves`],
//! [`Variant::play`]), ends games with [`status`], and finds each state's result by plain
//! minimax over the states its moves lead to: a state is a win if a move leads to a loss for
//! the opponent, a loss if every move leads to a win for the opponent, else a draw. A state
//! whose tally has reached a rule's limit is drawn, once the rules that end a game on the
//! board have had their say.
//!
//! Where a counted rule runs, every move either brings a count nearer its limit or restarts
//! counts with progress that never comes back (a capture, a promotion, a man's step
//! forward), so the states never repeat and the recursion ends. Materials where no count runs
//! are not covered by this solver.

use std::collections::HashMap;

use super::oracle::{counts_of, enumerate, Counts};

use arbiter_rules::{
    status, Budget, Color, DrawKind, Kind, Move, MoveKind, Position, Status, Variant,
};

/// A count that does not run (an endgame configuration that does not hold).
pub const OFF: u16 = u16::MAX;

/// The oracle's tally of the counted draw rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Plies in a row in which only kings moved and nothing was captured.
    pub kings_only: u16,
    /// Plies since the last capture or promotion.
    pub unchanged: u16,
    /// Plies without capture or promotion while both sides have kings.
    pub balance: u16,
    /// Per draw rule: plies since its endgame configuration arose ([`OFF`]: it does not hold).
    pub since: [u16; 8],
}

/// A categorical result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Res {
    Win,
    Draw,
    Loss,
}

fn has_kings(pos: &Position, c: Color) -> bool {
    pos.count(c, Kind::King) > 0
}

/// Whether endgame rule `i` of `v` holds in `pos`: one side has one of the strong materials
/// (kings and men counted, no other pieces) and the other a lone king, with the squares the
/// rule names: the lone king on one of its squares and alone on them, a strong king on one
/// of its squares.
pub fn config(v: &Variant, i: usize, pos: &Position) -> bool {
    let DrawKind::Endgame {
        strong,
        lone_king_on,
        strong_king_on,
        ..
    } = &v.rules().draws[i].kind
    else {
        return false;
    };
    let board = v.board();
    let squares = |names: &[&str]| -> Vec<usize> {
        names
            .iter()
            .map(|n| board.parse_algebraic(n).expect("a square of the board"))
            .collect()
    };
    let (lone_sq, strong_sq) = (squares(lone_king_on), squares(strong_king_on));
    for s in Color::BOTH {
        let w = s.opponent();
        let total = |c: Color| Kind::ALL.iter().map(|&k| pos.count(c, k)).sum::<u32>();
        if !(pos.count(w, Kind::King) == 1 && total(w) == 1) {
            continue;
        }
        let (k, m) = (pos.count(s, Kind::King), pos.count(s, Kind::Man));
        if total(s) != k + m {
            continue;
        }
        if !strong.iter().any(|x| {
            u32::from(x.men) == m
                && if x.or_more_kings {
                    k >= u32::from(x.kings)
                } else {
                    k == u32::from(x.kings)
                }
        }) {
            continue;
        }
        let lone = pos.pieces(w, Kind::King).first().expect("a lone king");
        if !lone_sq.is_empty() {
            if !lone_sq.contains(&lone) {
                continue;
            }
            let on = lone_sq
                .iter()
                .filter(|&&c| pos.piece_at(c).is_some())
                .count();
            if on != 1 {
                continue;
            }
        }
        if !strong_sq.is_empty()
            && !pos
                .pieces(s, Kind::King)
                .iter()
                .any(|c| strong_sq.contains(&c))
        {
            continue;
        }
        return true;
    }
    false
}

impl Tally {
    /// A game's tally at `pos` with nothing known of its history: every count at zero, the
    /// endgame rules whose configuration holds running from here.
    pub fn fresh(v: &Variant, pos: &Position) -> Tally {
        let mut since = [OFF; 8];
        for (i, s) in since.iter_mut().enumerate().take(v.rules().draws.len()) {
            if config(v, i, pos) {
                *s = 0;
            }
        }
        Tally {
            kings_only: 0,
            unchanged: 0,
            balance: 0,
            since,
        }
    }

    /// The tally after `m` is played from `before` to `after`.
    pub fn after(&self, v: &Variant, before: &Position, m: &Move, after: &Position) -> Tally {
        let captured = m.kind() == MoveKind::Capture;
        let promoted = m.piece() != m.becomes();
        let both = |p: &Position| has_kings(p, Color::White) && has_kings(p, Color::Black);
        // Only the counts the variant's rules keep (the others would tell equal states apart).
        let rules = &v.rules().draws;
        let keeps = |f: &dyn Fn(&DrawKind) -> bool| rules.iter().any(|d| f(&d.kind));
        let quiet_rule = keeps(&|k| {
            matches!(
                k,
                DrawKind::NoProgress {
                    reset: arbiter_rules::draws::Reset::ManMoveOrCapture,
                    ..
                }
            )
        });
        let change_rule = keeps(&|k| {
            matches!(
                k,
                DrawKind::NoProgress {
                    reset: arbiter_rules::draws::Reset::CaptureOrPromotion,
                    ..
                }
            )
        });
        let balance_rule = keeps(&|k| matches!(k, DrawKind::Balance { .. }));
        let mut t = *self;
        t.kings_only = if quiet_rule && m.piece() == Kind::King && !captured {
            self.kings_only + 1
        } else {
            0
        };
        t.unchanged = if change_rule && !(captured || promoted) {
            self.unchanged + 1
        } else {
            0
        };
        t.balance = if balance_rule && both(before) && both(after) && !captured && !promoted {
            self.balance + 1
        } else {
            0
        };
        for i in 0..v.rules().draws.len() {
            t.since[i] = if !config(v, i, after) {
                OFF
            } else if self.since[i] == OFF {
                0
            } else {
                self.since[i] + 1
            };
        }
        t
    }

    /// Whether a counted rule of `v` has reached its limit in `pos`.
    pub fn drawn(&self, v: &Variant, pos: &Position) -> bool {
        v.rules()
            .draws
            .iter()
            .enumerate()
            .any(|(i, d)| match &d.kind {
                DrawKind::Repetition { .. } => false,
                DrawKind::NoProgress { plies, reset } => {
                    let c = match reset {
                        arbiter_rules::draws::Reset::ManMoveOrCapture => self.kings_only,
                        arbiter_rules::draws::Reset::CaptureOrPromotion => self.unchanged,
                        arbiter_rules::draws::Reset::CaptureOrCastleEntry => {
                            panic!("castle entries are not covered")
                        }
                    };
                    c >= *plies
                }
                DrawKind::Balance { pieces, plies } => {
                    let n = pos.occupied().len();
                    has_kings(pos, Color::White)
                        && has_kings(pos, Color::Black)
                        && (u32::from(pieces.0)..=u32::from(pieces.1)).contains(&n)
                        && self.balance >= *plies
                }
                DrawKind::Endgame { plies, .. } => self.since[i] != OFF && self.since[i] >= *plies,
            })
    }
}

/// The minimax solver, its results kept by state: a state is its material's number, its
/// position's number among the material's positions (enumerated on first sight) and the
/// tally, packed into one key.
pub struct Oracle {
    pub variant: &'static Variant,
    materials: HashMap<Counts, (u8, HashMap<Position, u32>)>,
    memo: HashMap<u128, Res>,
    /// The results of the materials where no count runs, solved whole.
    uncounted: HashMap<Counts, Vec<Res>>,
}

impl Oracle {
    pub fn new(variant: &'static Variant) -> Oracle {
        Oracle {
            variant,
            materials: HashMap::new(),
            memo: HashMap::new(),
            uncounted: HashMap::new(),
        }
    }

    fn key(&mut self, pos: &Position, t: &Tally) -> u128 {
        let counts = counts_of(pos);
        let n = self.materials.len() as u8;
        let v = self.variant;
        let (m, index) = self.materials.entry(counts).or_insert_with(|| {
            let all = enumerate(v, &counts);
            let index = all
                .iter()
                .enumerate()
                .map(|(i, p)| (*p, i as u32))
                .collect();
            (n, index)
        });
        let i = *index
            .get(pos)
            .unwrap_or_else(|| panic!("{}: not enumerated", v.fen(pos)));
        let small = |c: u16| -> u128 {
            assert!(c == OFF || c < 255, "a count beyond any limit");
            u128::from(if c == OFF { 255 } else { c as u8 })
        };
        let mut k = u128::from(*m) << 120 | u128::from(i) << 88;
        k |= small(t.kings_only) << 80 | small(t.unchanged) << 72 | small(t.balance) << 64;
        for (j, &s) in t.since.iter().enumerate() {
            k |= small(s) << (8 * j);
        }
        k
    }

    /// Whether no counted rule runs in `pos`: no no-progress count in the variant, no
    /// balance or endgame configuration holding.
    fn counted(&self, pos: &Position) -> bool {
        let v = self.variant;
        v.rules()
            .draws
            .iter()
            .enumerate()
            .any(|(i, d)| match &d.kind {
                DrawKind::Repetition { .. } => false,
                DrawKind::NoProgress { .. } => true,
                DrawKind::Balance { pieces, .. } => {
                    let n = pos.occupied().len();
                    has_kings(pos, Color::White)
                        && has_kings(pos, Color::Black)
                        && (u32::from(pieces.0)..=u32::from(pieces.1)).contains(&n)
                }
                DrawKind::Endgame { .. } => config(v, i, pos),
            })
    }

    /// The result of `pos` with tally `t` under the rules, for its side to move.
    pub fn solve(&mut self, pos: &Position, t: &Tally) -> Res {
        if !self.counted(pos) {
            return self.solve_uncounted(pos);
        }
        let key = self.key(pos, t);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let v = self.variant;
        let b = Budget::unlimited();
        let moves = if v.decided(pos) {
            Vec::new()
        } else {
            v.legal_moves(pos, &b).expect("no budget")
        };
        let r = if moves.is_empty() {
            match status(v, pos, &b).expect("no budget") {
                Status::Won { winner, .. } if winner == pos.side() => Res::Win,
                Status::Won { .. } => Res::Loss,
                _ => Res::Draw,
            }
        } else if t.drawn(v, pos) {
            Res::Draw
        } else {
            let mut best = Res::Loss;
            for m in &moves {
                let q = v.play(pos, m);
                let tq = t.after(v, pos, m, &q);
                match self.solve(&q, &tq) {
                    Res::Loss => {
                        best = Res::Win;
                        break;
                    }
                    Res::Draw => best = Res::Draw,
                    Res::Win => {}
                }
            }
            best
        };
        self.memo.insert(key, r);
        r
    }
}

impl Oracle {
    /// The result of `pos`, in a material where no count runs: the whole material is solved
    /// by retrograde counting over its own moves (a move that leaves it is solved by
    /// [`Oracle::solve`] with the tally a game has there), play that never ends a draw.
    fn solve_uncounted(&mut self, pos: &Position) -> Res {
        let counts = counts_of(pos);
        let v = self.variant;
        if !self.uncounted.contains_key(&counts) {
            let all = enumerate(v, &counts);
            let index: HashMap<Position, usize> =
                all.iter().enumerate().map(|(i, p)| (*p, i)).collect();
            let b = Budget::unlimited();
            let n = all.len();
            let mut res: Vec<Option<Res>> = vec![None; n];
            let mut left = vec![0u32; n];
            let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
            let mut queue = Vec::new();
            for (i, p) in all.iter().enumerate() {
                let moves = if v.decided(p) {
                    Vec::new()
                } else {
                    v.legal_moves(p, &b).expect("no budget")
                };
                if moves.is_empty() {
                    let r = match status(v, p, &b).expect("no budget") {
                        Status::Won { winner, .. } if winner == p.side() => Res::Win,
                        Status::Won { .. } => Res::Loss,
                        _ => Res::Draw,
                    };
                    res[i] = Some(r);
                    queue.push(i);
                    continue;
                }
                let mut win = false;
                let mut draw = false;
                for m in &moves {
                    let q = v.play(p, m);
                    if let Some(&j) = index.get(&q) {
                        preds[j].push(i as u32);
                        left[i] += 1;
                        continue;
                    }
                    let tq = Tally::fresh(v, p).after(v, p, m, &q);
                    match self.solve(&q, &tq) {
                        Res::Loss => win = true,
                        Res::Draw => draw = true,
                        Res::Win => {}
                    }
                }
                if win {
                    res[i] = Some(Res::Win);
                    queue.push(i);
                } else if draw {
                    // Never a loss: only a win can still come.
                    left[i] += 1 << 30;
                } else if left[i] == 0 {
                    res[i] = Some(Res::Loss);
                    queue.push(i);
                }
            }
            while let Some(j) = queue.pop() {
                let r = res[j].expect("decided");
                for &i in &preds[j].clone() {
                    let i = i as usize;
                    if res[i].is_some() {
                        continue;
                    }
                    match r {
                        Res::Loss => {
                            res[i] = Some(Res::Win);
                            queue.push(i);
                        }
                        Res::Win => {
                            left[i] -= 1;
                            if left[i] == 0 {
                                res[i] = Some(Res::Loss);
                                queue.push(i);
                            }
                        }
                        Res::Draw => {}
                    }
                }
            }
            let values: Vec<Res> = res.into_iter().map(|r| r.unwrap_or(Res::Draw)).collect();
            let id = self.materials.len() as u8;
            self.materials.entry(counts).or_insert_with(|| {
                (
                    id,
                    all.iter()
                        .enumerate()
                        .map(|(i, p)| (*p, i as u32))
                        .collect(),
                )
            });
            self.uncounted.insert(counts, values);
        }
        let (_, index) = &self.materials[&counts];
        let i = index[pos] as usize;
        self.uncounted[&counts][i]
    }
}
