//! From the operations' answers and problems to Python: an answer (a serde structure) becomes
//! the dataclass of `arbiter_draughts._types` that has its fields, built from the dict
//! `pythonize` makes of it (no JSON text in between); a problem becomes the exception class of
//! its code (`arbiter_draughts._errors`), carrying the problem document.

use arbiter::problem::ApiError;
use arbiter_rules::GenError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use serde::Serialize;

static TYPES: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn module<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyModule>>,
    name: &str,
) -> PyResult<Bound<'py, PyModule>> {
    cell.get_or_try_init(py, || py.import(name).map(Bound::unbind))
        .map(|m| m.bind(py).clone())
}

/// `value` as a Python object: dicts, lists, strings, numbers, None, as its JSON reads (a
/// pair such as a rank's first and last square is a list, as in JSON, not a tuple).
pub fn plain<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let tree = serde_json::to_value(value)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    pythonize::pythonize(py, &tree).map_err(PyErr::from)
}

/// `value` as the dataclass `class` of `arbiter_draughts._types`.
pub fn typed<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    class: &str,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let data = plain(py, value)?;
    module(py, &TYPES, "arbiter_draughts._types")?
        .getattr(class)?
        .call_method1("from_dict", (data,))
}

/// The exception of a problem: the class of its code, with the problem document.
pub fn problem(py: Python<'_>, e: &ApiError) -> PyErr {
    let made = (|| -> PyResult<Bound<'_, PyAny>> {
        let doc = plain(py, e.problem())?;
        module(py, &ERRORS, "arbiter_draughts._errors")?.call_method1("_from_problem", (doc,))
    })();
    match made {
        Ok(exception) => PyErr::from_value(exception),
        Err(err) => err,
    }
}

/// The exception of an engine stop (capture bound, budget), as the operations word it.
pub fn engine(py: Python<'_>, e: &GenError) -> PyErr {
    problem(py, &ApiError::engine(e))
}

/// Results of operations as Python results.
pub trait OrRaise<T> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> OrRaise<T> for Result<T, ApiError> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| problem(py, &e))
    }
}

impl<T> OrRaise<T> for Result<T, GenError> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| engine(py, &e))
    }
}
