//! Judging: one game (`ops::judge::judge`, the work of `/judge`), a PDN text, or a PDN file of
//! any size read game by game (`ops::records::RecordStream`, the work of `/v1/judge/pdn` and
//! `arbiter judge`). Each game is judged within its own work budget, as a game of the HTTP
//! stream is; a game over it is an entry with the `budget-exceeded` error, and the file goes
//! on.

use std::io::Read;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use arbiter::ops;
use arbiter::ops::judge::{
    AdjudicateDto, ClaimedResult, GameInput, JudgeOptions, JudgeSettings, ResultConventionDto,
};
use arbiter::ops::records::{
    check_strict, decode_pdn, FileOptions, NextGame, PdnGameResult, PdnJudgeResponse, RecordStream,
};
use arbiter::problem::{ApiError, ProblemCode};
use arbiter::tables::TableStore;
use arbiter_rules::Budget;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::catalogue::VariantArg;
use crate::convert::{typed, OrRaise};
use crate::endgame::{store_for, EndgameTables};
use crate::game::Move;
use crate::work;

/// Bytes read from a file at a time.
const CHUNK: usize = 64 * 1024;

/// A value of a string option, read as the HTTP API reads it (its JSON form).
fn option<T: serde::de::DeserializeOwned>(name: &str, value: &str, allowed: &str) -> PyResult<T> {
    serde_json::from_value(serde_json::Value::String(value.to_string())).map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be one of {allowed}, not '{}'",
            arbiter::problem::clip(value)
        ))
    })
}

/// The judge's options, read and checked as `/judge` reads them.
pub fn judge_options(
    result_convention: &str,
    adjudicate: Option<&str>,
    max_plies: Option<u64>,
    include_pdn: bool,
) -> PyResult<JudgeOptions> {
    let settings = JudgeSettings {
        result_convention: Some(option::<ResultConventionDto>(
            "result_convention",
            result_convention,
            "'first-mover', 'white-first'",
        )?),
        include_pdn: Some(include_pdn),
        adjudicate: adjudicate
            .map(|a| option::<AdjudicateDto>("adjudicate", a, "'none', 'tables'"))
            .transpose()?,
        max_plies,
    };
    let settings = settings
        .check(false)
        .map_err(|e| PyValueError::new_err(e.problem().detail.clone()))?;
    Ok(settings.options())
}

/// Judges moves from a start position (`None`: the variant's), as `/judge` does.
#[allow(clippy::too_many_arguments)]
pub fn judge_moves<'py>(
    py: Python<'py>,
    v: &'static arbiter_rules::Variant,
    start: Option<String>,
    moves: Vec<String>,
    declared_result: Option<&str>,
    options: JudgeOptions,
    tables: Option<&Bound<'py, EndgameTables>>,
    budget: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    ops::check_move_count(moves.len()).or_raise(py)?;
    let declared = declared_result
        .map(|d| {
            option::<ClaimedResult>(
                "declared_result",
                d,
                "'white_wins', 'black_wins', 'draw', '1-0', '0-1', '1/2-1/2', '2-0', '0-2', \
                 '1-1', '0-0', '*'",
            )
        })
        .transpose()?;
    let game = GameInput {
        start_position: start,
        moves,
        declared_result: declared,
        options,
    };
    let store = Some(store_for(tables));
    let answer = work::run(py, |cancel| {
        ops::judge::judge(v, &game, store, &work::budget(budget, cancel))
    })?;
    typed(py, "Judgement", &answer.or_raise(py)?)
}

/// Move texts from `Move`s and strings.
fn move_texts(moves: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if moves.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "moves is a list of moves, not one string: split it first",
        ));
    }
    // A list's length is known: more moves than the judge takes are refused at once.
    if let Ok(n) = moves.len() {
        ops::check_move_count(n).or_raise(moves.py())?;
    }
    let mut out = Vec::new();
    for item in moves.try_iter()? {
        let item = item?;
        if let Ok(m) = item.cast::<Move>() {
            out.push(m.get().notation(moves.py())?);
        } else {
            out.push(
                item.extract::<String>().map_err(|_| {
                    PyTypeError::new_err("a move is a Move or move text (a string)")
                })?,
            );
        }
        // An iterator's: before it grows past the bound.
        if out.len() > arbiter::config::MAX_MOVES {
            ops::check_move_count(out.len()).or_raise(moves.py())?;
        }
    }
    Ok(out)
}

/// Judges a game: its moves (a list of move texts or `Move`s) played from the variant's start
/// position or `start` (a FEN), with the end and draw rules, the adjudication asked for, and
/// the declared result checked, as `POST /v1/variants/{variant}/judge` does.
#[pyfunction]
#[pyo3(signature = (variant, moves, *, start=None, declared_result=None, result_convention="first-mover", adjudicate=None, max_plies=None, include_pdn=false, tables=None, budget=Some(arbiter::config::DEFAULT_WORK_BUDGET)))]
#[allow(clippy::too_many_arguments)]
pub fn judge<'py>(
    py: Python<'py>,
    variant: VariantArg<'_>,
    moves: &Bound<'py, PyAny>,
    start: Option<String>,
    declared_result: Option<&str>,
    result_convention: &str,
    adjudicate: Option<&str>,
    max_plies: Option<u64>,
    include_pdn: bool,
    tables: Option<&Bound<'py, EndgameTables>>,
    budget: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let v = variant.find(py)?;
    let options = judge_options(result_convention, adjudicate, max_plies, include_pdn)?;
    let moves = move_texts(moves)?;
    judge_moves(
        py,
        v,
        start,
        moves,
        declared_result,
        options,
        tables,
        budget,
    )
}

/// How the games of a PDN text are judged.
#[derive(Clone, Copy)]
struct FileJudge {
    file: FileOptions,
    budget: Option<u64>,
}

impl FileJudge {
    #[allow(clippy::too_many_arguments)]
    fn read(
        py: Python<'_>,
        variant: Option<VariantArg<'_>>,
        result_convention: &str,
        adjudicate: Option<&str>,
        max_plies: Option<u64>,
        include_pdn: bool,
        strict: bool,
        budget: Option<u64>,
    ) -> PyResult<FileJudge> {
        Ok(FileJudge {
            file: FileOptions {
                explicit: variant.map(|v| v.find(py)).transpose()?,
                options: judge_options(result_convention, adjudicate, max_plies, include_pdn)?,
                strict,
            },
            budget,
        })
    }

    /// The entry of the next game of `records`, judged within its own budget; `Ok(None)`
    /// when no complete game is waiting.
    fn next(
        &self,
        records: &mut RecordStream,
        store: Option<&TableStore>,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Option<PdnGameResult>, ApiError> {
        let game = match records.next_game() {
            None => return Ok(None),
            Some(NextGame::Entry(entry)) => *entry,
            Some(NextGame::Judge(game)) => {
                match game.judge(store, &work::budget(self.budget, cancel)) {
                    Ok(entry) => entry,
                    Err(e) if e.problem().code == ProblemCode::BudgetExceeded => game.failed(&e),
                    Err(e) => return Err(e),
                }
            }
        };
        records.count(&game);
        Ok(Some(game))
    }
}

/// PDN text as bytes: `str` as UTF-8, `bytes` as they are (UTF-8, else ISO-8859-1).
fn text_bytes(text: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = text.cast::<PyString>() {
        return Ok(s.to_str()?.as_bytes().to_vec());
    }
    if let Ok(b) = text.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err("PDN text is a str or bytes"))
}

/// Judges every game of a PDN text (`str`, or `bytes` in UTF-8 or ISO-8859-1), each under its
/// own variant (its `GameType` or `Variant` tag) unless `variant` names one, as `POST
/// /v1/judge/pdn` does (a `PdnJudgement`). With `strict`, a text that is not PDN 3.0 raises
/// `PdnSyntaxError`. A game that cannot be judged is an entry with its `error`.
#[pyfunction]
#[pyo3(signature = (text, *, variant=None, result_convention="first-mover", adjudicate=None, max_plies=None, include_pdn=false, strict=false, tables=None, budget=Some(arbiter::config::DEFAULT_WORK_BUDGET)))]
#[allow(clippy::too_many_arguments)]
pub fn judge_pdn<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    variant: Option<VariantArg<'_>>,
    result_convention: &str,
    adjudicate: Option<&str>,
    max_plies: Option<u64>,
    include_pdn: bool,
    strict: bool,
    tables: Option<&Bound<'py, EndgameTables>>,
    budget: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let judge = FileJudge::read(
        py,
        variant,
        result_convention,
        adjudicate,
        max_plies,
        include_pdn,
        // The whole text is checked first: a text that breaks the grammar is refused at once.
        false,
        budget,
    )?;
    let bytes = text_bytes(text)?;
    let store = Some(store_for(tables));
    let answer = work::run(py, |cancel| -> Result<PdnJudgeResponse, ApiError> {
        if strict {
            check_strict(&decode_pdn(&bytes), &Budget::unlimited())?;
        }
        let mut records = RecordStream::new(judge.file);
        records.push(&bytes);
        records.finish();
        let mut games = Vec::new();
        while let Some(entry) = judge.next(&mut records, store, cancel)? {
            games.push(entry);
        }
        Ok(PdnJudgeResponse {
            games,
            summary: records.summary().clone(),
        })
    })?;
    typed(py, "PdnJudgement", &answer.or_raise(py)?)
}

/// Where the games of a file come from.
enum Source {
    /// A file opened here.
    File(std::fs::File),
    /// A Python file object (its `read(n)` gives bytes or str).
    Object(Py<PyAny>),
    /// Nothing more to read.
    Done,
}

/// The games of a PDN file judged one at a time, as they are read: an iterator of
/// `GameJudgement`s that holds one game in memory at a time (at most 1 MiB: a larger game is an
/// entry with the `payload-too-large` error, and reading goes on at the next game), so that a
/// file of any size is judged in constant memory. `summary` counts the games so far.
#[pyclass(module = "arbiter_draughts")]
pub struct PdnGames {
    source: Source,
    records: RecordStream,
    judge: FileJudge,
    tables: Option<Py<EndgameTables>>,
    finished: bool,
}

#[pymethods]
impl PdnGames {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        loop {
            let tables = self.tables.as_ref().map(|t| t.bind(py).clone());
            let store = Some(store_for(tables.as_ref()));
            let judge = self.judge;
            let records = &mut self.records;
            let entry = work::run(py, |cancel| judge.next(records, store, cancel))?;
            if let Some(entry) = entry.or_raise(py)? {
                return typed(py, "GameJudgement", &entry).map(Some);
            }
            if self.finished {
                return Ok(None);
            }
            let chunk = self.read_chunk(py)?;
            if chunk.is_empty() {
                self.records.finish();
                self.finished = true;
                self.source = Source::Done;
            } else {
                self.records.push(&chunk);
            }
        }
    }

    /// The counts of the games judged so far (a `PdnSummary`).
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        typed(py, "PdnSummary", self.records.summary())
    }

    /// Stops reading (a file opened from a path is closed).
    fn close(&mut self) {
        self.source = Source::Done;
        self.finished = true;
        self.records = RecordStream::new(self.judge.file);
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&mut self, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.close();
        false
    }
}

impl PdnGames {
    /// The next bytes of the source (empty at its end).
    fn read_chunk(&mut self, py: Python<'_>) -> PyResult<Vec<u8>> {
        match &mut self.source {
            Source::Done => Ok(Vec::new()),
            Source::File(f) => {
                let mut buf = vec![0u8; CHUNK];
                let n = py.detach(|| loop {
                    match f.read(&mut buf) {
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        other => break other,
                    }
                })?;
                buf.truncate(n);
                Ok(buf)
            }
            Source::Object(obj) => {
                let data = obj.bind(py).call_method1("read", (CHUNK,))?;
                if let Ok(s) = data.cast::<PyString>() {
                    Ok(s.to_str()?.as_bytes().to_vec())
                } else if let Ok(b) = data.cast::<PyBytes>() {
                    Ok(b.as_bytes().to_vec())
                } else {
                    Err(PyTypeError::new_err(
                        "the file object's read() must give bytes or str",
                    ))
                }
            }
        }
    }
}

/// The games of a PDN file judged one at a time as they are read (a `PdnGames` iterator of
/// `GameJudgement`s): `source` is a path (str or path-like) or a file object opened for
/// reading (binary or text). Memory stays bounded whatever the file's size; the work runs
/// without the GIL. The options are `judge_pdn()`'s; with `strict`, a game that breaks the PDN
/// 3.0 grammar is an entry with the `pdn-syntax` error.
#[pyfunction]
#[pyo3(signature = (source, *, variant=None, result_convention="first-mover", adjudicate=None, max_plies=None, include_pdn=false, strict=false, tables=None, budget=Some(arbiter::config::DEFAULT_WORK_BUDGET)))]
#[allow(clippy::too_many_arguments)]
pub fn read_pdn(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    variant: Option<VariantArg<'_>>,
    result_convention: &str,
    adjudicate: Option<&str>,
    max_plies: Option<u64>,
    include_pdn: bool,
    strict: bool,
    tables: Option<Py<EndgameTables>>,
    budget: Option<u64>,
) -> PyResult<PdnGames> {
    let judge = FileJudge::read(
        py,
        variant,
        result_convention,
        adjudicate,
        max_plies,
        include_pdn,
        strict,
        budget,
    )?;
    let source = if source.hasattr("read")? {
        Source::Object(source.clone().unbind())
    } else if let Ok(path) = source.extract::<std::path::PathBuf>() {
        Source::File(std::fs::File::open(&path).map_err(|e| {
            PyErr::from(std::io::Error::new(
                e.kind(),
                format!("cannot read {}: {e}", path.display()),
            ))
        })?)
    } else {
        return Err(PyTypeError::new_err(
            "source is a path or a file object opened for reading",
        ));
    };
    Ok(PdnGames {
        source,
        records: RecordStream::new(judge.file),
        judge,
        tables,
        finished: false,
    })
}
