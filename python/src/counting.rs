//! Perft and divide: the engine's counts (`arbiter_rules::count_leaves`, `ops::perft`), run
//! without the GIL and stoppable with Ctrl-C.
//!
//! `Position.perft` counts on every core the process may use: the positions two plies below
//! are shared out among the threads, each counted by the engine's own perft, charged to a
//! budget with no bound that the call's cancellation flag stops (counting with the flag costs
//! no measurable time against counting without it: `arbiter perft` and `Position.perft(9,
//! threads=1)`, alternating on one machine, run at the same pace within the noise).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use arbiter::ops;
use arbiter::ops::perft::{PerftInput, MAX_DEPTH};
use arbiter_rules::{Budget, GenError, Routes};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::catalogue::VariantArg;
use crate::convert::{typed, OrRaise};
use crate::game::Node;
use crate::work;

/// The most threads a count may use.
const MAX_THREADS: usize = 256;

fn check_depth(depth: u32) -> PyResult<()> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "depth must be at most {MAX_DEPTH}, not {depth}"
        )));
    }
    Ok(())
}

fn routes(keep: bool) -> Routes {
    if keep {
        Routes::Each
    } else {
        Routes::Merged
    }
}

/// The positions `plies` plies below `pos` (each once per route with `keep`), as perft
/// reaches them.
fn below(
    v: &arbiter_rules::Variant,
    pos: &arbiter_rules::Position,
    plies: u32,
    keep: bool,
) -> Result<Vec<arbiter_rules::Position>, GenError> {
    let mut level = vec![*pos];
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut next = Vec::new();
        for p in &level {
            v.generate_paths(p, &Budget::unlimited(), !keep, &mut moves)?;
            next.extend(moves.iter().map(|m| v.play(p, m)));
        }
        level = next;
    }
    Ok(level)
}

/// Perft of a node at `depth` on `threads` threads (None: one per core the process may use).
pub fn leaves(
    py: Python<'_>,
    node: &Arc<Node>,
    depth: u32,
    keep: bool,
    threads: Option<usize>,
) -> PyResult<u64> {
    check_depth(depth)?;
    let threads = match threads {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => n.min(MAX_THREADS),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let (v, pos) = (node.v, node.pos);
    let counted = work::run(py, |cancel| -> Result<u64, GenError> {
        if depth < 4 || threads == 1 {
            return arbiter_rules::count_leaves(
                v,
                &pos,
                depth,
                routes(keep),
                &work::budget(None, cancel),
            );
        }
        let units = below(v, &pos, 2, keep)?;
        let next = AtomicUsize::new(0);
        let failed: Mutex<Option<GenError>> = Mutex::new(None);
        let total: u64 = std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads.min(units.len()).max(1))
                .map(|_| {
                    s.spawn(|| {
                        // A budget of its own (budgets are not shared between threads), stopped
                        // by the call's flag.
                        let budget = work::budget(None, cancel);
                        let mut sum = 0u64;
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= units.len() || stopped(cancel, &failed) {
                                return sum;
                            }
                            match arbiter_rules::count_leaves(
                                v,
                                &units[i],
                                depth - 2,
                                routes(keep),
                                &budget,
                            ) {
                                Ok(n) => sum += n,
                                Err(e) => {
                                    let mut f = failed.lock().unwrap_or_else(|p| p.into_inner());
                                    f.get_or_insert(e);
                                    return sum;
                                }
                            }
                        }
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
        });
        if let Some(e) = *failed.lock().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(GenError::Cancelled);
        }
        Ok(total)
    })?;
    counted.or_raise(py)
}

fn stopped(cancel: &AtomicBool, failed: &Mutex<Option<GenError>>) -> bool {
    cancel.load(Ordering::Relaxed) || failed.lock().map_or(true, |f| f.is_some())
}

/// Divide of a node: the leaves below each legal move, by its canonical notation.
pub fn divide<'py>(
    py: Python<'py>,
    node: &Arc<Node>,
    depth: u32,
    keep: bool,
) -> PyResult<Bound<'py, PyDict>> {
    check_depth(depth)?;
    let input = PerftInput {
        position: Some(node.fen()),
        depth,
        divide: true,
        keep,
    };
    let v = node.v;
    let count = work::run(py, |cancel| {
        ops::perft::count(v, &input, &work::budget(None, cancel))
    })?
    .or_raise(py)?;
    let out = PyDict::new(py);
    for m in count.divide.unwrap_or_default() {
        out.set_item(m.notation, m.nodes)?;
    }
    Ok(out)
}

/// Perft as `GET /v1/variants/{variant}/perft` answers it (a `PerftResult`): the leaves at
/// every depth from 1 to `depth` below the start position or `fen`, with `divide` the count
/// below each legal move, with `keep` every capture route counted. `budget` bounds the work in
/// work units (None: no bound; `BudgetExceededError` says the depth it reaches).
#[pyfunction]
#[pyo3(signature = (variant, depth, *, fen=None, divide=false, keep=false, budget=None))]
pub fn perft<'py>(
    py: Python<'py>,
    variant: VariantArg<'_>,
    depth: u32,
    fen: Option<String>,
    divide: bool,
    keep: bool,
    budget: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    check_depth(depth)?;
    let v = variant.find(py)?;
    let input = PerftInput {
        position: fen,
        depth,
        divide,
        keep,
    };
    let answer = work::run(py, |cancel| {
        ops::perft::perft(v, &input, &work::budget(budget, cancel))
    })?;
    typed(py, "PerftResult", &answer.or_raise(py)?)
}
