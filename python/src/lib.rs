//! `arbiter_draughts._native`: Arbiter's rules engine for Python, a front end on the same
//! operations as HTTP and the command line (`arbiter::ops`). No rule is written here: every
//! answer comes from the engine (`arbiter_rules`) or an operation, and every failure is the
//! operation's problem, raised as the exception class of its code.
//!
//! | Python | here | operation or engine |
//! |---|---|---|
//! | `variants()`, `variant()`, `Variant` | [`catalogue`] | `ops::variants`, `variant_named` |
//! | `Position`, `Move`, `LegalMoves`, `Board` | [`game`] | `Variant::legal_moves`, `list_moves`, `parse_move`, `play`, `ops::moves` |
//! | `judge()`, `Board.judge()` | [`judging`] | `ops::judge::judge` |
//! | `judge_pdn()`, `read_pdn()` | [`judging`] | `ops::records` (`RecordStream`) |
//! | `perft()`, `Position.perft()` / `divide()` | [`counting`] | `ops::perft`, `count_leaves` |
//! | `diagram()`, `Position.svg()` | [`game`] | `ops::diagram::diagram_svg` |
//! | `EndgameTables`, `endgame()` | [`endgame`] | `ops::endgame::evaluate`, `tables::TableStore` |
//!
//! Long calls (perft, judging, waiting for a table being computed) run without the GIL, on a
//! thread of their own while the calling thread watches for signals ([`work::run`]): Ctrl-C
//! stops them.

use pyo3::prelude::*;

mod catalogue;
mod convert;
mod counting;
mod endgame;
mod game;
mod judging;
mod work;

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<catalogue::Variant>()?;
    m.add_function(wrap_pyfunction!(catalogue::variants, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue::variant, m)?)?;
    m.add_class::<game::Position>()?;
    m.add_class::<game::Move>()?;
    m.add_class::<game::LegalMoves>()?;
    m.add_class::<game::LegalMovesIter>()?;
    m.add_class::<game::Board>()?;
    m.add_function(wrap_pyfunction!(game::diagram, m)?)?;
    m.add_function(wrap_pyfunction!(judging::judge, m)?)?;
    m.add_function(wrap_pyfunction!(judging::judge_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(judging::read_pdn, m)?)?;
    m.add_class::<judging::PdnGames>()?;
    m.add_function(wrap_pyfunction!(counting::perft, m)?)?;
    m.add_class::<endgame::EndgameTables>()?;
    m.add_function(wrap_pyfunction!(endgame::endgame, m)?)?;
    m.add("DEFAULT_WORK_BUDGET", arbiter::config::DEFAULT_WORK_BUDGET)?;
    m.add("MAX_MOVES", arbiter::config::MAX_MOVES)?;
    Ok(())
}
