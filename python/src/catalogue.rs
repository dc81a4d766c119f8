//! The catalogue: every variant, found by its id or an alias, with its rules
//! (`ops::variants::VariantInfo`, the answer of `GET /v1/variants/{variant}`).

use std::hash::{Hash, Hasher};

use arbiter::ops;
use arbiter::ops::variants::VariantInfo;
use pyo3::basic::CompareOp;
use pyo3::prelude::*;

use crate::convert::{plain, typed, OrRaise};
use crate::game::{Board, Position};

/// A variant of the catalogue: a board, a ruleset, a start position and a notation.
#[pyclass(frozen, module = "arbiter_draughts")]
pub struct Variant {
    pub v: &'static arbiter_rules::Variant,
}

/// A variant named by the caller: its id (in any case), an alias, or a `Variant`.
#[derive(FromPyObject)]
pub enum VariantArg<'py> {
    Object(Bound<'py, Variant>),
    Name(String),
}

impl VariantArg<'_> {
    /// The variant, or `UnknownVariantError`.
    pub fn find(&self, py: Python<'_>) -> PyResult<&'static arbiter_rules::Variant> {
        match self {
            VariantArg::Object(v) => Ok(v.get().v),
            VariantArg::Name(name) => ops::find_variant(name).or_raise(py),
        }
    }
}

#[pymethods]
impl Variant {
    /// The variant with this id or alias (`Variant("standard")` is international).
    #[new]
    fn new(py: Python<'_>, name: VariantArg<'_>) -> PyResult<Self> {
        Ok(Variant { v: name.find(py)? })
    }

    /// The id (`international`).
    #[getter]
    fn id(&self) -> &'static str {
        self.v.id()
    }

    /// The full name.
    #[getter]
    fn name(&self) -> &'static str {
        self.v.name()
    }

    /// The other names it is found by (the names lidraughts, PlayStrategy and pydraughts
    /// give it), compared without regard to case, spaces, `_` and `-`.
    #[getter]
    fn aliases(&self) -> Vec<&'static str> {
        self.v.spec().variant_tags.to_vec()
    }

    /// The side that moves first from the start position: `white` or `black`.
    #[getter]
    fn first_mover(&self) -> &'static str {
        self.v.first_mover().name()
    }

    /// The start position as FEN.
    #[getter]
    fn start_fen(&self) -> String {
        self.v.fen(&self.v.start())
    }

    /// The PDN `GameType` tag value, if the variant has a number of its own.
    #[getter]
    fn pdn_game_type(&self) -> Option<&'static str> {
        self.v.spec().game_type
    }

    /// Everything about the variant: board, rules, end and draw rules, notes, sources (a
    /// `VariantInfo`).
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        typed(py, "VariantInfo", &VariantInfo::of(self.v))
    }

    /// The board (a `BoardInfo`).
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.info(py)?.getattr("board")
    }

    /// The rule parameters in words (name -> description).
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.info(py)?.getattr("rules")
    }

    /// The end rules, in the order the judge applies them (a list of `EndRule`).
    #[getter]
    fn end_rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.info(py)?.getattr("end_rules")
    }

    /// The draw rules, in the order the judge applies them (a list of `DrawRule`).
    #[getter]
    fn draw_rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.info(py)?.getattr("draw_rules")
    }

    /// The start position.
    fn start(&self) -> Position {
        Position::start(self.v)
    }

    /// The position of a FEN (`InvalidPositionError` when the variant cannot have it).
    fn position(&self, py: Python<'_>, fen: &str) -> PyResult<Position> {
        Position::of_fen(py, self.v, Some(fen))
    }

    /// A board at the start position, or at a FEN.
    #[pyo3(signature = (fen=None))]
    fn board_at(&self, py: Python<'_>, fen: Option<&str>) -> PyResult<Board> {
        Board::of(py, self.v, fen)
    }

    /// The variant as `GET /v1/variants/{variant}` gives it (a dict).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        plain(py, &VariantInfo::of(self.v))
    }

    fn __repr__(&self) -> String {
        format!("Variant('{}')", self.v.id())
    }

    fn __str__(&self) -> &'static str {
        self.v.id()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Compared {
        let same = other
            .cast::<Variant>()
            .map(|o| std::ptr::eq(o.get().v, self.v))
            .ok();
        Compared::of(op, same)
    }

    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.v.id().hash(&mut h);
        h.finish()
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let cls = py.get_type::<Variant>().into_any().unbind();
        Ok((cls, (self.v.id().to_string(),)))
    }
}

/// The answer of a rich comparison: a boolean, or `NotImplemented` for another type.
pub enum Compared {
    Bool(bool),
    NotImplemented,
}

impl Compared {
    /// `==` and `!=` from whether `other` is of the same type and the same value (`None`:
    /// another type); the order comparisons are not implemented.
    pub fn of(op: CompareOp, same: Option<bool>) -> Compared {
        match (op, same) {
            (CompareOp::Eq, Some(s)) => Compared::Bool(s),
            (CompareOp::Ne, Some(s)) => Compared::Bool(!s),
            _ => Compared::NotImplemented,
        }
    }
}

impl<'py> IntoPyObject<'py> for Compared {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = std::convert::Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        Ok(match self {
            Compared::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
            Compared::NotImplemented => py.NotImplemented().into_bound(py),
        })
    }
}

/// Every variant of the catalogue, in a stable order (international first).
#[pyfunction]
pub fn variants() -> Vec<Variant> {
    arbiter_rules::variants()
        .iter()
        .map(|v| Variant { v })
        .collect()
}

/// The variant with this id (in any case) or alias; `UnknownVariantError` otherwise.
#[pyfunction]
pub fn variant(py: Python<'_>, name: VariantArg<'_>) -> PyResult<Variant> {
    Ok(Variant { v: name.find(py)? })
}
