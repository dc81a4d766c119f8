//! A second solver for whole game graphs, sharing nothing with the engine: the states are
//! whatever the rules module given makes them (its own positions, from its own move
//! generator written from the rules text), and the values come from plain iteration to a
//! fixed point, ply by ply:
//!
//! - a decided state has its value at once (the rules module says: won, lost or drawn for
//!   the side to move, in 0 plies);
//! - in round `n`, a state still open is a win in `n` plies if one of its moves leads to a
//!   state lost in `n - 1`, and a loss in `n` plies if every move leads to a state won for
//!   the opponent and the slowest of those wins takes `n - 1` plies;
//! - when a round resolves nothing, every state still open is a draw.

use std::collections::HashMap;
use std::hash::Hash;

/// A value for the side to move, in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Val {
    Win(u16),
    Draw,
    Loss(u16),
}

/// A game as the oracle sees it.
pub trait Rules {
    type State: Clone + Eq + Hash;
    /// The value of a state the rules have decided (for the side to move, 0 plies), `None`
    /// while the game goes on. A state that is not decided has at least one move.
    fn decided(&self, s: &Self::State) -> Option<Val>;
    /// The states the legal moves lead to (a state the game goes on in).
    fn children(&self, s: &Self::State) -> Vec<Self::State>;
}

/// Every state reachable from the roots, with its value.
pub struct Solved<S> {
    pub states: Vec<S>,
    pub values: Vec<Val>,
    index: HashMap<S, u32>,
}

impl<S: Clone + Eq + Hash> Solved<S> {
    pub fn value(&self, s: &S) -> Option<Val> {
        self.index.get(s).map(|&i| self.values[i as usize])
    }
}

/// Enumerates the states reachable from `roots` and solves them.
pub fn solve<R: Rules>(rules: &R, roots: impl IntoIterator<Item = R::State>) -> Solved<R::State> {
    let mut states: Vec<R::State> = Vec::new();
    let mut index: HashMap<R::State, u32> = HashMap::new();
    for r in roots {
        if !index.contains_key(&r) {
            index.insert(r.clone(), states.len() as u32);
            states.push(r);
        }
    }
    let mut decided = Vec::new();
    let mut start = vec![0];
    let mut succ = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let s = states[i].clone();
        let d = rules.decided(&s);
        if d.is_none() {
            let children = rules.children(&s);
            assert!(!children.is_empty(), "a state goes on without a move");
            for c in children {
                let j = match index.get(&c) {
                    Some(&j) => j,
                    None => {
                        let j = states.len() as u32;
                        index.insert(c.clone(), j);
                        states.push(c);
                        j
                    }
                };
                succ.push(j);
            }
        }
        start.push(succ.len());
        decided.push(d);
        i += 1;
    }
    let values = iterate(&start, &succ, decided);
    Solved {
        states,
        values,
        index,
    }
}

/// Values by iteration to a fixed point, ply by ply (see the module's documentation).
fn iterate(start: &[usize], succ: &[u32], decided: Vec<Option<Val>>) -> Vec<Val> {
    let n = decided.len();
    let mut val = decided;
    let mut open: Vec<usize> = (0..n).filter(|&i| val[i].is_none()).collect();
    let mut ply: u16 = 1;
    loop {
        let mut found = Vec::new();
        for &i in &open {
            let mut wins_only = true;
            let mut slowest = 0u16;
            let mut win = false;
            for &j in &succ[start[i]..start[i + 1]] {
                match val[j as usize] {
                    Some(Val::Loss(k)) if k + 1 == ply => win = true,
                    Some(Val::Win(k)) => slowest = slowest.max(k),
                    _ => wins_only = false,
                }
            }
            if win {
                found.push((i, Val::Win(ply)));
            } else if wins_only && slowest + 1 == ply {
                found.push((i, Val::Loss(ply)));
            }
        }
        if found.is_empty() {
            break;
        }
        for &(i, v) in &found {
            val[i] = Some(v);
        }
        open.retain(|&i| val[i].is_none());
        ply += 1;
    }
    val.into_iter().map(|v| v.unwrap_or(Val::Draw)).collect()
}
