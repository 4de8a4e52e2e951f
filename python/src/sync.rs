//! `Segment` and the primitives placed in it: `Flag`, `Signal`, `Semaphore`, `Barrier`.
//! Waits release the GIL and watch the segment's attached processes (a dead peer raises
//! PeerGoneError). Each primitive object holds the patience its waits use (the Rust
//! library's per-process `Waiter`: a Python object is per-process already), and each wait
//! has three forms: `x()` (the patience), `x_timeout(seconds)` and `try_x()`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use handoff::shm::{Segment as Seg, SegmentError, ShmSafe};
use handoff::sync::{Barrier as Bar, Flag as Fl, Semaphore as Sem, Signal as Sig};
use handoff::sync::{Patience, WaitError, Waiter};
use pyo3::prelude::*;

use crate::{deadline_of, err, patience_of, patience_py, wait_sliced, Form};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Segment>()?;
    m.add_class::<Flag>()?;
    m.add_class::<Signal>()?;
    m.add_class::<Semaphore>()?;
    m.add_class::<Barrier>()?;
    m.add("PRIMITIVE_SIZE", 128usize)?;
    Ok(())
}

/// A shared segment: create it in one process (initialize, then `publish_ready()`), open it
/// by name in others; place primitives at multiples of PRIMITIVE_SIZE (128 bytes).
#[pyclass(module = "handoff._native", frozen)]
pub struct Segment {
    seg: Arc<Seg>,
}

fn is_timeout(e: &WaitError) -> bool {
    matches!(e, WaitError::Timeout)
}

/// A primitive of type `T` at an offset of a segment (which it keeps mapped), and how
/// this object's waits wait.
struct At<T> {
    seg: Arc<Seg>,
    offset: usize,
    patience: Mutex<Patience>,
    _t: std::marker::PhantomData<fn() -> T>,
}

impl<T: ShmSafe + Sync> At<T> {
    fn new(seg: &Arc<Seg>, offset: usize, wait: &str, timeout: Option<f64>) -> PyResult<Self> {
        let patience = patience_of(wait, timeout)?;
        seg.get::<T>(offset).map_err(err)?;
        Ok(At {
            seg: seg.clone(),
            offset,
            patience: Mutex::new(patience),
            _t: std::marker::PhantomData,
        })
    }

    fn patience(&self) -> Patience {
        // Only copies happen under the lock: ignore poisoning.
        *self.patience.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set_patience(&self, wait: &str, timeout: Option<f64>) -> PyResult<()> {
        let patience = patience_of(wait, timeout)?;
        *self.patience.lock().unwrap_or_else(|p| p.into_inner()) = patience;
        Ok(())
    }

    /// One form of a wait: `try_` for `try_x()`, else `timed` (a wait of at most the time
    /// given, with this object's strategy, watching the segment) in GIL-free slices until
    /// the form's deadline.
    fn wait<R: Send>(
        &self,
        py: Python<'_>,
        form: Form,
        try_: impl FnOnce(&T) -> Result<R, WaitError>,
        timed: impl Fn(&T, Duration, &Waiter<'_, Seg>) -> Result<R, WaitError> + Send + Sync,
    ) -> PyResult<R> {
        let patience = self.patience();
        if let Form::Try = form {
            return try_(self.get()).map_err(err);
        }
        let deadline = form.deadline(patience)?;
        let (t, seg) = (self.get(), &*self.seg);
        let waiter = Waiter::watching(seg).with_patience(patience);
        wait_sliced(py, deadline, is_timeout, |sl| {
            timed(t, sl.remaining(), &waiter)
        })?
        .map_err(err)
    }

    fn get(&self) -> &T {
        // Bounds and alignment were checked in `new`, and the mapping never changes.
        self.seg
            .get::<T>(self.offset)
            .expect("checked when the primitive was placed")
    }
}

#[pymethods]
impl Segment {
    /// Creates the named segment `/handoff-<pid>-<name>~<random>` with `size` zeroed bytes.
    #[staticmethod]
    fn create(name: &str, size: usize) -> PyResult<Segment> {
        Ok(Segment {
            seg: Arc::new(Seg::create(name, size).map_err(err)?),
        })
    }

    /// An anonymous segment, for threads of this process.
    #[staticmethod]
    fn anonymous(size: usize) -> PyResult<Segment> {
        Ok(Segment {
            seg: Arc::new(Seg::anonymous(size).map_err(err)?),
        })
    }

    /// Opens the segment `name`, waiting up to `timeout` seconds for its creator to
    /// publish it ready.
    #[staticmethod]
    #[pyo3(signature = (name, timeout = 10.0))]
    fn open(py: Python<'_>, name: &str, timeout: f64) -> PyResult<Segment> {
        let d = deadline_of(Some(timeout))?.expect("Some in, Some out");
        // In slices, so Ctrl-C interrupts a long wait for the creator's `publish_ready`.
        let not_ready = |e: &SegmentError| matches!(e, SegmentError::OpenTimedOut { .. });
        let seg = wait_sliced(py, Some(d), not_ready, |s| Seg::open(name, s))?.map_err(err)?;
        Ok(Segment { seg: Arc::new(seg) })
    }

    /// Lets openers in: they see everything written before this call.
    fn publish_ready(&self) {
        self.seg.publish_ready();
    }

    /// The full name to open it by; None for an anonymous segment.
    #[getter]
    fn name(&self) -> Option<String> {
        self.seg.name().map(str::to_string)
    }

    /// Payload bytes.
    fn __len__(&self) -> usize {
        self.seg.payload_len()
    }

    /// The Flag at `offset`, whose waits wait with strategy `wait` and default `timeout` in
    /// seconds (None: none; 0: look once); the same for the other primitives.
    #[pyo3(signature = (offset = 0, wait = "adaptive", timeout = None))]
    fn flag(&self, offset: usize, wait: &str, timeout: Option<f64>) -> PyResult<Flag> {
        Ok(Flag(At::new(&self.seg, offset, wait, timeout)?))
    }

    /// The Signal at `offset`.
    #[pyo3(signature = (offset = 0, wait = "adaptive", timeout = None))]
    fn signal(&self, offset: usize, wait: &str, timeout: Option<f64>) -> PyResult<Signal> {
        Ok(Signal(At::new(&self.seg, offset, wait, timeout)?))
    }

    /// The Semaphore at `offset`.
    #[pyo3(signature = (offset = 0, wait = "adaptive", timeout = None))]
    fn semaphore(&self, offset: usize, wait: &str, timeout: Option<f64>) -> PyResult<Semaphore> {
        Ok(Semaphore(At::new(&self.seg, offset, wait, timeout)?))
    }

    /// The Barrier at `offset` (set its party count with `init` before publishing).
    #[pyo3(signature = (offset = 0, wait = "adaptive", timeout = None))]
    fn barrier(&self, offset: usize, wait: &str, timeout: Option<f64>) -> PyResult<Barrier> {
        Ok(Barrier(At::new(&self.seg, offset, wait, timeout)?))
    }
}

/// A 32-bit flag: `store` publishes (Release), `wait_for` waits (Acquire).
#[pyclass(module = "handoff._native", frozen)]
pub struct Flag(At<Fl>);

#[pymethods]
impl Flag {
    /// The current value.
    fn load(&self) -> u32 {
        self.0.get().load()
    }

    /// Publishes `value` and wakes the waiters.
    fn store(&self, value: u32) {
        self.0.get().store(value)
    }

    /// Adds 1 (wrapping); returns the new value.
    fn increment(&self) -> u32 {
        self.0.get().increment()
    }

    /// How its waits wait: `(wait, timeout)`.
    #[getter]
    fn patience(&self) -> (String, Option<f64>) {
        patience_py(self.0.patience())
    }

    /// Sets how its waits wait: strategy `wait`, default `timeout` in seconds (None: none;
    /// 0: look once). The `_timeout` forms keep the strategy.
    #[pyo3(signature = (wait = "adaptive", timeout = None))]
    fn set_patience(&self, wait: &str, timeout: Option<f64>) -> PyResult<()> {
        self.0.set_patience(wait, timeout)
    }

    /// Waits (with its patience) until the value equals `value`.
    fn wait_for(&self, py: Python<'_>, value: u32) -> PyResult<()> {
        self.wait_for_in(py, value, Form::Patient)
    }

    /// `wait_for`, waiting at most `timeout` seconds.
    fn wait_for_timeout(&self, py: Python<'_>, value: u32, timeout: f64) -> PyResult<()> {
        self.wait_for_in(py, value, Form::Timeout(timeout))
    }

    /// Returns if the value equals `value` now; raises TimeoutError otherwise.
    fn try_wait_for(&self, py: Python<'_>, value: u32) -> PyResult<()> {
        self.wait_for_in(py, value, Form::Try)
    }

    /// Waits (with its patience) until the value differs from `old`; returns the new value.
    fn wait_change(&self, py: Python<'_>, old: u32) -> PyResult<u32> {
        self.wait_change_in(py, old, Form::Patient)
    }

    /// `wait_change`, waiting at most `timeout` seconds.
    fn wait_change_timeout(&self, py: Python<'_>, old: u32, timeout: f64) -> PyResult<u32> {
        self.wait_change_in(py, old, Form::Timeout(timeout))
    }

    /// The value if it differs from `old` now; raises TimeoutError otherwise.
    fn try_wait_change(&self, py: Python<'_>, old: u32) -> PyResult<u32> {
        self.wait_change_in(py, old, Form::Try)
    }
}

impl Flag {
    fn wait_for_in(&self, py: Python<'_>, value: u32, form: Form) -> PyResult<()> {
        self.0.wait(
            py,
            form,
            |f| f.try_wait_for(value),
            |f, d, w| f.wait_for_timeout(value, d, w),
        )
    }

    fn wait_change_in(&self, py: Python<'_>, old: u32, form: Form) -> PyResult<u32> {
        self.0.wait(
            py,
            form,
            |f| f.try_wait_change(old),
            |f, d, w| f.wait_change_timeout(old, d, w),
        )
    }
}

/// A 64-bit counter (a counting put's completion): `add`, `wait_until` it reaches n.
#[pyclass(module = "handoff._native", frozen)]
pub struct Signal(At<Sig>);

#[pymethods]
impl Signal {
    /// The current count.
    fn load(&self) -> u64 {
        self.0.get().load()
    }

    /// Adds `n` (default 1) and wakes the waiters; returns the new count.
    #[pyo3(signature = (n = 1))]
    fn add(&self, n: u64) -> u64 {
        self.0.get().add(n)
    }

    /// Sets the count and wakes the waiters.
    fn set(&self, value: u64) {
        self.0.get().set(value)
    }

    /// How its waits wait: `(wait, timeout)`.
    #[getter]
    fn patience(&self) -> (String, Option<f64>) {
        patience_py(self.0.patience())
    }

    /// Sets how its waits wait: strategy `wait`, default `timeout` in seconds (None: none;
    /// 0: look once). The `_timeout` forms keep the strategy.
    #[pyo3(signature = (wait = "adaptive", timeout = None))]
    fn set_patience(&self, wait: &str, timeout: Option<f64>) -> PyResult<()> {
        self.0.set_patience(wait, timeout)
    }

    /// Waits (with its patience) until the count is at least `target`; returns the count
    /// seen.
    fn wait_until(&self, py: Python<'_>, target: u64) -> PyResult<u64> {
        self.wait_until_in(py, target, Form::Patient)
    }

    /// `wait_until`, waiting at most `timeout` seconds.
    fn wait_until_timeout(&self, py: Python<'_>, target: u64, timeout: f64) -> PyResult<u64> {
        self.wait_until_in(py, target, Form::Timeout(timeout))
    }

    /// The count if it is at least `target` now; raises TimeoutError otherwise.
    fn try_wait_until(&self, py: Python<'_>, target: u64) -> PyResult<u64> {
        self.wait_until_in(py, target, Form::Try)
    }
}

impl Signal {
    fn wait_until_in(&self, py: Python<'_>, target: u64, form: Form) -> PyResult<u64> {
        self.0.wait(
            py,
            form,
            |s| s.try_wait_until(target),
            |s, d, w| s.wait_until_timeout(target, d, w),
        )
    }
}

/// A counting semaphore.
#[pyclass(module = "handoff._native", frozen)]
pub struct Semaphore(At<Sem>);

#[pymethods]
impl Semaphore {
    /// Permits available now.
    #[getter]
    fn value(&self) -> u32 {
        self.0.get().value()
    }

    /// Adds a permit and wakes one waiter.
    fn post(&self) -> PyResult<()> {
        self.0.get().post().map_err(err)
    }

    /// How its waits wait: `(wait, timeout)`.
    #[getter]
    fn patience(&self) -> (String, Option<f64>) {
        patience_py(self.0.patience())
    }

    /// Sets how its waits wait: strategy `wait`, default `timeout` in seconds (None: none;
    /// 0: look once). The `_timeout` forms keep the strategy.
    #[pyo3(signature = (wait = "adaptive", timeout = None))]
    fn set_patience(&self, wait: &str, timeout: Option<f64>) -> PyResult<()> {
        self.0.set_patience(wait, timeout)
    }

    /// Takes a permit, waiting (with its patience) for one.
    fn wait(&self, py: Python<'_>) -> PyResult<()> {
        self.wait_in(py, Form::Patient)
    }

    /// `wait`, waiting at most `timeout` seconds.
    fn wait_timeout(&self, py: Python<'_>, timeout: f64) -> PyResult<()> {
        self.wait_in(py, Form::Timeout(timeout))
    }

    /// Takes a permit if one is there now; raises TimeoutError otherwise.
    fn try_wait(&self, py: Python<'_>) -> PyResult<()> {
        self.wait_in(py, Form::Try)
    }
}

impl Semaphore {
    fn wait_in(&self, py: Python<'_>, form: Form) -> PyResult<()> {
        self.0
            .wait(py, form, |s| s.try_wait(), |s, d, w| s.wait_timeout(d, w))
    }
}

/// A reusable barrier for N parties (threads or processes).
#[pyclass(module = "handoff._native", frozen)]
pub struct Barrier(At<Bar>);

#[pymethods]
impl Barrier {
    /// Sets the party count (before anyone waits).
    fn init(&self, parties: u32) -> PyResult<()> {
        self.0.get().init(parties).map_err(err)
    }

    /// The party count.
    #[getter]
    fn parties(&self) -> u32 {
        self.0.get().parties()
    }

    /// How its waits wait: `(wait, timeout)`.
    #[getter]
    fn patience(&self) -> (String, Option<f64>) {
        patience_py(self.0.patience())
    }

    /// Sets how its waits wait: strategy `wait`, default `timeout` in seconds (None: none;
    /// 0: look once). The `_timeout` forms keep the strategy.
    #[pyo3(signature = (wait = "adaptive", timeout = None))]
    fn set_patience(&self, wait: &str, timeout: Option<f64>) -> PyResult<()> {
        self.0.set_patience(wait, timeout)
    }

    /// Arrives and waits (with its patience) for every party; returns True for the one
    /// that arrived last. A timeout (or a dead peer) takes this party's arrival back.
    fn wait(&self, py: Python<'_>) -> PyResult<bool> {
        self.wait_in(py, Form::Patient)
    }

    /// `wait`, waiting at most `timeout` seconds.
    fn wait_timeout(&self, py: Python<'_>, timeout: f64) -> PyResult<bool> {
        self.wait_in(py, Form::Timeout(timeout))
    }

    /// Arrives and passes if that opened the barrier; otherwise takes the arrival back and
    /// raises TimeoutError at once.
    fn try_wait(&self, py: Python<'_>) -> PyResult<bool> {
        self.wait_in(py, Form::Try)
    }
}

impl Barrier {
    fn wait_in(&self, py: Python<'_>, form: Form) -> PyResult<bool> {
        self.0
            .wait(py, form, |b| b.try_wait(), |b, d, w| b.wait_timeout(d, w))
            .map(|r| r.is_leader())
    }
}
