//! `Segment` and the primitives placed in it: `Flag`, `Signal`, `Semaphore`, `Barrier`.
//! Waits release the GIL and watch the segment's attached processes (a dead peer raises
//! PeerGoneError).

use std::sync::Arc;

use handoff::shm::{Segment as Seg, SegmentError, ShmSafe};
use handoff::sync::{Barrier as Bar, Flag as Fl, Semaphore as Sem, Signal as Sig};
use handoff::sync::{Patience, WaitError, Waiter};
use pyo3::prelude::*;

use crate::{deadline_of, err, wait_of, wait_sliced};

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

/// A primitive of type `T` at an offset of a segment (which it keeps mapped).
struct At<T> {
    seg: Arc<Seg>,
    offset: usize,
    _t: std::marker::PhantomData<fn() -> T>,
}

impl<T: ShmSafe> At<T> {
    fn new(seg: &Arc<Seg>, offset: usize) -> PyResult<Self> {
        seg.get::<T>(offset).map_err(err)?;
        Ok(At {
            seg: seg.clone(),
            offset,
            _t: std::marker::PhantomData,
        })
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

    /// The Flag at `offset`.
    #[pyo3(signature = (offset = 0))]
    fn flag(&self, offset: usize) -> PyResult<Flag> {
        Ok(Flag(At::new(&self.seg, offset)?))
    }

    /// The Signal at `offset`.
    #[pyo3(signature = (offset = 0))]
    fn signal(&self, offset: usize) -> PyResult<Signal> {
        Ok(Signal(At::new(&self.seg, offset)?))
    }

    /// The Semaphore at `offset`.
    #[pyo3(signature = (offset = 0))]
    fn semaphore(&self, offset: usize) -> PyResult<Semaphore> {
        Ok(Semaphore(At::new(&self.seg, offset)?))
    }

    /// The Barrier at `offset` (set its party count with `init` before publishing).
    #[pyo3(signature = (offset = 0))]
    fn barrier(&self, offset: usize) -> PyResult<Barrier> {
        Ok(Barrier(At::new(&self.seg, offset)?))
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

    /// Waits until the value equals `value` (timeout in seconds; None = forever).
    #[pyo3(signature = (value, timeout = None, wait = "adaptive"))]
    fn wait_for(
        &self,
        py: Python<'_>,
        value: u32,
        timeout: Option<f64>,
        wait: &str,
    ) -> PyResult<()> {
        let (how, d) = (wait_of(wait)?, deadline_of(timeout)?);
        let (f, seg) = (self.0.get(), &*self.0.seg);
        wait_sliced(py, d, is_timeout, |s| {
            f.wait_for_timeout(
                value,
                s.remaining(),
                &Waiter::watching(seg).with_patience(Patience::new(how)),
            )
        })?
        .map_err(err)
    }

    /// Waits until the value differs from `old`; returns the new value.
    #[pyo3(signature = (old, timeout = None, wait = "adaptive"))]
    fn wait_change(
        &self,
        py: Python<'_>,
        old: u32,
        timeout: Option<f64>,
        wait: &str,
    ) -> PyResult<u32> {
        let (how, d) = (wait_of(wait)?, deadline_of(timeout)?);
        let (f, seg) = (self.0.get(), &*self.0.seg);
        wait_sliced(py, d, is_timeout, |s| {
            f.wait_change_timeout(
                old,
                s.remaining(),
                &Waiter::watching(seg).with_patience(Patience::new(how)),
            )
        })?
        .map_err(err)
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

    /// Waits until the count is at least `target`; returns the count seen.
    #[pyo3(signature = (target, timeout = None, wait = "adaptive"))]
    fn wait_until(
        &self,
        py: Python<'_>,
        target: u64,
        timeout: Option<f64>,
        wait: &str,
    ) -> PyResult<u64> {
        let (how, d) = (wait_of(wait)?, deadline_of(timeout)?);
        let (s, seg) = (self.0.get(), &*self.0.seg);
        wait_sliced(py, d, is_timeout, |sl| {
            s.wait_until_timeout(
                target,
                sl.remaining(),
                &Waiter::watching(seg).with_patience(Patience::new(how)),
            )
        })?
        .map_err(err)
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

    /// Takes a permit if one is there now; returns whether it did.
    fn try_wait(&self) -> bool {
        self.0.get().try_wait().is_ok()
    }

    /// Takes a permit, waiting for one.
    #[pyo3(signature = (timeout = None, wait = "adaptive"))]
    fn wait(&self, py: Python<'_>, timeout: Option<f64>, wait: &str) -> PyResult<()> {
        let (how, d) = (wait_of(wait)?, deadline_of(timeout)?);
        let (s, seg) = (self.0.get(), &*self.0.seg);
        wait_sliced(py, d, is_timeout, |sl| {
            s.wait_timeout(
                sl.remaining(),
                &Waiter::watching(seg).with_patience(Patience::new(how)),
            )
        })?
        .map_err(err)
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

    /// Arrives and waits for every party; returns True for the one that arrived last.
    /// A timeout (or a dead peer) takes this party's arrival back.
    #[pyo3(signature = (timeout = None, wait = "adaptive"))]
    fn wait(&self, py: Python<'_>, timeout: Option<f64>, wait: &str) -> PyResult<bool> {
        let (how, d) = (wait_of(wait)?, deadline_of(timeout)?);
        let (b, seg) = (self.0.get(), &*self.0.seg);
        wait_sliced(py, d, is_timeout, |sl| {
            b.wait_timeout(
                sl.remaining(),
                &Waiter::watching(seg).with_patience(Patience::new(how)),
            )
        })?
        .map(|r| r.is_leader())
        .map_err(err)
    }
}
