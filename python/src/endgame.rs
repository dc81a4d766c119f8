//! Endgame tables: a store of the service's kind (`arbiter::tables::TableStore`), from a
//! directory of prebuilt table files and computed on first use, probed by the operation of
//! `GET /v1/variants/{variant}/endgame` (`ops::endgame::evaluate`) and by the judge's
//! adjudication.
//!
//! Unlike a replica, which answers 503 `endgame-building` after a few seconds, a store made
//! here waits for a table being computed as long as the build takes (as `arbiter judge`
//! does), without the GIL; Ctrl-C takes effect when the build ends (the store's wait is not
//! cancellable), and the table is kept for the next probe.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use arbiter::config::{
    TablesConfig, DEFAULT_TABLES_BUILTIN_MAX_POSITIONS, DEFAULT_TABLES_BUILTIN_PIECES,
    DEFAULT_TABLES_MEMORY_BYTES,
};
use arbiter::ops;
use arbiter::tables::TableStore;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

use crate::catalogue::VariantArg;
use crate::convert::{plain, typed, OrRaise};
use crate::work;

/// How long a probe waits for a table being computed: as long as the build takes.
const BUILD_WAIT: Duration = Duration::from_secs(7 * 24 * 3600);

/// The tables of `config`, waiting for builds as long as they take.
fn store(config: TablesConfig) -> Result<TableStore, String> {
    TableStore::from_config(&TablesConfig {
        build_wait: BUILD_WAIT,
        ..config
    })
}

/// The built-in tables: positions of up to 4 pieces computed on first use, kept in memory up
/// to 96 MiB (the service's defaults), shared by every call that names no `tables`.
fn builtin() -> &'static TableStore {
    static BUILTIN: OnceLock<TableStore> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        // No directory to read: building the store cannot fail.
        store(TablesConfig::default()).unwrap_or_else(|e| unreachable!("{e}"))
    })
}

/// The store a call uses: its `tables`, or the built-in ones. Every judgement has one, as
/// every replica has (a move limit is decided by the tables where they can).
pub fn store_for<'a>(tables: Option<&'a Bound<'_, EndgameTables>>) -> &'a TableStore {
    match tables {
        Some(t) => &t.get().store,
        None => builtin(),
    }
}

/// Endgame tables: the tables of a directory of prebuilt files (`*.arbtb`, written by
/// `arbiter tables build`), and positions of up to `builtin_pieces` pieces computed on first
/// use, which with the build computing them take at most `memory_bytes`.
#[pyclass(frozen, module = "arbiter_draughts")]
pub struct EndgameTables {
    store: TableStore,
}

#[pymethods]
impl EndgameTables {
    /// Tables from `directory` (None: none prebuilt) and computed on first use. A directory
    /// that cannot be read raises `OSError`; a file in it whose header does not match its
    /// name is skipped.
    #[new]
    #[pyo3(signature = (directory=None, *, builtin_pieces=DEFAULT_TABLES_BUILTIN_PIECES, builtin_max_positions=DEFAULT_TABLES_BUILTIN_MAX_POSITIONS, memory_bytes=DEFAULT_TABLES_MEMORY_BYTES), text_signature = "(directory=None, *, builtin_pieces=4, builtin_max_positions=50000000, memory_bytes=671088640)")]
    fn new(
        directory: Option<PathBuf>,
        builtin_pieces: u32,
        builtin_max_positions: u64,
        memory_bytes: u64,
    ) -> PyResult<Self> {
        let store = store(TablesConfig {
            dir: directory,
            builtin_pieces,
            builtin_max_positions,
            memory_bytes,
            build_wait: BUILD_WAIT,
        })
        .map_err(PyOSError::new_err)?;
        Ok(EndgameTables { store })
    }

    /// The value of a position (`variant` and `fen`) under best play and under the counting
    /// rules, and its moves' (an `EndgameResult`); `counts` as in [`endgame`].
    #[pyo3(signature = (variant, fen, *, counts=None))]
    fn probe<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        variant: VariantArg<'_>,
        fen: &str,
        counts: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        evaluate(py, variant.find(py)?, fen, counts, Some(slf))
    }

    /// What tables exist for a variant: `builtin_pieces`, `builtin_max_positions`,
    /// `builtin_memory_bytes`, and the materials of the prebuilt ones (`prebuilt`), as a dict.
    fn available<'py>(
        &self,
        py: Python<'py>,
        variant: VariantArg<'_>,
    ) -> PyResult<Bound<'py, PyAny>> {
        plain(py, &self.store.available(variant.find(py)?))
    }

    /// Tables loaded from files, over every variant.
    #[getter]
    fn prebuilt_count(&self) -> usize {
        self.store.prebuilt_count()
    }

    fn __repr__(&self) -> String {
        let c = self.store.config();
        format!(
            "EndgameTables(directory={}, builtin_pieces={}, prebuilt={})",
            c.dir
                .as_ref()
                .map_or("None".to_string(), |d| format!("'{}'", d.display())),
            c.builtin_pieces,
            self.store.prebuilt_count()
        )
    }
}

/// The endgame answer for a position of `v` with the counted rules' `counts`, from `tables`
/// (or the built-in ones).
pub fn evaluate<'py>(
    py: Python<'py>,
    v: &'static arbiter_rules::Variant,
    fen: &str,
    counts: Option<&str>,
    tables: Option<&Bound<'py, EndgameTables>>,
) -> PyResult<Bound<'py, PyAny>> {
    let store = store_for(tables);
    let answer = work::run(py, |cancel| {
        ops::endgame::evaluate(store, v, fen, counts, &work::budget(None, cancel))
    })?;
    typed(py, "EndgameResult", &answer.or_raise(py)?)
}

/// The value of a position under best play for the side to move (win, draw or loss, and the
/// plies to the end) and of each of its legal moves, from the endgame tables, as `GET
/// /v1/variants/{variant}/endgame` answers (an `EndgameResult`): `tables`, or the built-in
/// tables (up to 4 pieces, computed on first use). The value under the counting rules starts
/// from the FEN's half-move clock and `counts`, the counts the FEN cannot carry, as the
/// `counts` query parameter gives them (`"FRISIAN_2V1_7:1,KINGS_25:4"`: a rule's code and
/// the plies it has counted).
#[pyfunction]
#[pyo3(signature = (variant, fen, *, tables=None, counts=None))]
pub fn endgame<'py>(
    py: Python<'py>,
    variant: VariantArg<'_>,
    fen: &str,
    tables: Option<&Bound<'py, EndgameTables>>,
    counts: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    evaluate(py, variant.find(py)?, fen, counts, tables)
}
