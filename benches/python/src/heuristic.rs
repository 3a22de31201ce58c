//! A Python callable as a heuristic: slow (every estimate takes the GIL
//! and builds a Python object of the state), meant for prototyping an idea
//! before writing it in Rust.
//!
//! The callable gets the state, forward search only:
//!
//! - atomic problems and PDDL tasks: a `frozenset` of the names of the
//!   atoms that hold (PDDL facts as `(at ball1 rooma)`);
//! - factored problems: a `dict` from each variable's name to its value.
//!
//! It returns a number (an `int`, or a `float`, rounded down; `inf` is a
//! dead end; above 2^31 - 1 it counts as 2^31 - 1) or `None` for a dead
//! end. If it raises, the search stops and
//! the exception comes out of `plan(...)`. An attribute `admissible = True`
//! on the callable declares it admissible (see `searchlab.heuristic`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use planners::heuristics::{AtomicFactory, FactoredFactory, NamedHeuristic};
use planners::BoxedHeuristic;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyInt, PyString};
use search_core::{Estimate, Heuristic};
use state_atomic::{ActionSet, Bits, PartialState, WorldState};
use state_factored::{Domain, Goal, State, Subgoal, Value};

/// A Python heuristic, shared by the searches of one `plan` call: the
/// callable, the first exception it raised, and the flag that stops the
/// search when it raises.
#[derive(Clone)]
pub struct PythonHeuristic {
    callable: Arc<Py<PyAny>>,
    admissible: bool,
    failure: Arc<Mutex<Option<PyErr>>>,
    stop: Arc<AtomicBool>,
}

impl PythonHeuristic {
    /// Wraps `callable`; its attribute `admissible`, if `True`, declares it
    /// admissible.
    ///
    /// # Errors
    /// None today; kept fallible for the callable's checks.
    pub fn new(callable: &Bound<'_, PyAny>) -> PyResult<Self> {
        // Only a real `True` declares it: an object's method called
        // `admissible` is not a declaration.
        let admissible = callable
            .getattr("admissible")
            .is_ok_and(|flag| flag.extract::<bool>().unwrap_or(false));
        Ok(Self {
            callable: Arc::new(callable.clone().unbind()),
            admissible,
            failure: Arc::new(Mutex::new(None)),
            stop: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The flag raised when the callable raises: the search's cancellation
    /// flag.
    pub fn stop(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// The first exception the callable raised, taken out.
    pub fn take_failure(&self) -> Option<PyErr> {
        self.failure.lock().ok().and_then(|mut f| f.take())
    }

    /// As a named heuristic `python`, for atomic (PDDL included) and
    /// factored problems, forward only.
    pub fn named(&self) -> NamedHeuristic {
        let builder = NamedHeuristic::builder(
            "python",
            "a Python callable (forward search only; slow, for prototyping)",
        )
        .forward_only();
        let builder = if self.admissible {
            builder.admissible()
        } else {
            builder
        };
        builder
            .atomic(AtomicPython(self.clone()))
            .factored(FactoredPython(self.clone()))
            .build()
    }

    /// Calls the callable on the state `arg` makes; any exception is kept
    /// (the first one) and stops the search.
    fn estimate(
        &self,
        arg: impl for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, PyAny>>,
    ) -> Estimate<u32> {
        if self.stop.load(Ordering::Relaxed) {
            return Estimate::DeadEnd;
        }
        Python::with_gil(|py| {
            let value = py
                .check_signals()
                .and_then(|()| arg(py))
                .and_then(|state| self.callable.bind(py).call1((state,)))
                .and_then(|value| to_estimate(&value));
            value.unwrap_or_else(|e| {
                self.fail(e);
                Estimate::DeadEnd
            })
        })
    }

    fn fail(&self, error: PyErr) {
        if let Ok(mut failure) = self.failure.lock() {
            failure.get_or_insert(error);
        }
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The largest estimate a Python heuristic gives; larger answers are
/// lowered to it (which keeps an admissible heuristic admissible), so that
/// a path cost plus an estimate stays within the engine's `u32` costs for
/// any path cheaper than 2^31.
pub(crate) const MAX_ESTIMATE: u32 = u32::MAX / 2;

/// A callable's answer as an estimate: `None` or `inf` is a dead end, a
/// number from 0 up is rounded down and capped at [`MAX_ESTIMATE`].
fn to_estimate(value: &Bound<'_, PyAny>) -> PyResult<Estimate<u32>> {
    if value.is_none() {
        return Ok(Estimate::DeadEnd);
    }
    if let Ok(whole) = value.extract::<u64>() {
        let capped = u32::try_from(whole).map_or(MAX_ESTIMATE, |h| h.min(MAX_ESTIMATE));
        return Ok(Estimate::Value(capped));
    }
    if value.is_instance_of::<PyInt>() && value.gt(0)? {
        return Ok(Estimate::Value(MAX_ESTIMATE)); // an int beyond 2^64
    }
    let number: f64 = value.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "a heuristic returns a number or None, not {}",
            value
                .repr()
                .map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))
    })?;
    if number == f64::INFINITY {
        Ok(Estimate::DeadEnd)
    } else if number.is_nan() || number < 0.0 {
        Err(PyValueError::new_err(format!(
            "a heuristic's estimate must be 0 or more, not {number}"
        )))
    } else {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a finite number from 0 up, floored; `as` saturates at u32::MAX"
        )]
        let whole = number.floor() as u32;
        Ok(Estimate::Value(whole.min(MAX_ESTIMATE)))
    }
}

/// Names as Python strings, made once per search.
fn py_names<'n>(names: impl Iterator<Item = &'n str>) -> Vec<Py<PyString>> {
    Python::with_gil(|py| names.map(|n| PyString::new(py, n).unbind()).collect())
}

/// One search's heuristic: the shared callable and a conversion of the
/// node to its Python argument.
struct Estimator<F> {
    shared: PythonHeuristic,
    convert: F,
}

impl<N, F> Heuristic<N, u32> for Estimator<F>
where
    F: for<'py> Fn(Python<'py>, &N) -> PyResult<Bound<'py, PyAny>>,
{
    fn estimate(&mut self, node: &N) -> Estimate<u32> {
        let convert = &self.convert;
        self.shared.estimate(|py| convert(py, node))
    }

    fn is_admissible(&self) -> bool {
        self.shared.admissible
    }
}

/// `convert`, its closure type pinned to any GIL lifetime (a closure's
/// own inference would tie it to one).
fn converter<N, F>(convert: F) -> F
where
    F: for<'py> Fn(Python<'py>, &N) -> PyResult<Bound<'py, PyAny>>,
{
    convert
}

/// The Python heuristic on atomic tasks: the state as a frozenset of the
/// true atoms' names.
struct AtomicPython(PythonHeuristic);

impl AtomicFactory for AtomicPython {
    fn forward<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        _start: &'a WorldState<B>,
        _goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        let names = py_names(actions.registry().names());
        Some(Box::new(Estimator {
            shared: self.0.clone(),
            convert: converter(move |py: Python<'_>, state: &WorldState<B>| {
                let mut atoms = Vec::new();
                state.as_bits().for_each_one(|i| {
                    if let Some(name) = names.get(i) {
                        atoms.push(name.bind(py).clone());
                    }
                });
                Ok(PyFrozenSet::new(py, &atoms)?.into_any())
            }),
        }))
    }

    fn regression<'a, B: Bits>(
        &self,
        _actions: &'a ActionSet<B>,
        _start: &'a WorldState<B>,
        _goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        None
    }
}

/// The Python heuristic on factored domains: the state as a dict of the
/// variables' values.
struct FactoredPython(PythonHeuristic);

impl FactoredFactory for FactoredPython {
    fn forward<'a>(
        &self,
        domain: &'a Domain,
        _start: &'a State,
        _goal: &'a Goal,
    ) -> Option<BoxedHeuristic<'a, State>> {
        let schema = domain.schema();
        let vars: Vec<_> = schema.vars().collect();
        let names = py_names(vars.iter().map(|&v| schema.name(v)));
        Some(Box::new(Estimator {
            shared: self.0.clone(),
            convert: converter(move |py: Python<'_>, state: &State| {
                let dict = PyDict::new(py);
                for (&var, name) in vars.iter().zip(&names) {
                    let name = name.bind(py);
                    match schema.value(state, var) {
                        Value::Bool(b) => dict.set_item(name, b)?,
                        Value::Int(i) => dict.set_item(name, i)?,
                        Value::Float(f) => dict.set_item(name, f)?,
                        Value::Str(s) => dict.set_item(name, s)?,
                    }
                }
                Ok(dict.into_any())
            }),
        }))
    }

    fn regression<'a>(
        &self,
        _domain: &'a Domain,
        _start: &'a State,
        _goal: &'a Goal,
    ) -> Option<BoxedHeuristic<'a, Subgoal>> {
        None
    }
}
