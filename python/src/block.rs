//! `Loan` and `Block`: a block out of the channel, exported through the buffer protocol.
//!
//! # Blocks and their numpy views
//!
//! A `Loan` (writable) or `Block` (read-only) exports the block's memory in the channel's
//! mapping through the buffer protocol: `np.frombuffer(block)` / `block.array(...)` view it
//! without a copy. Safety rests on three rules:
//!
//! 1. Every view holds a reference to its block object (the buffer protocol's `obj`), the
//!    block holds the producer's or consumer's state, and that state holds the mapping: a
//!    view can never point at unmapped memory. `close()` refuses while a block is out.
//! 2. The block is held until its views are dropped: `release()` (or `publish()`, or leaving
//!    the `with`) marks the block done at once (the block object then refuses everything:
//!    `array()`, a new view, a second release raise `UsageError`), but hands it back to the
//!    channel only when the last view is gone. So no view ever reads a block the producer is
//!    rewriting, nor writes one the consumer is reading.
//! 3. Until then the next `recv()` / `loan()` raises `UsageError` naming the block and its
//!    live views (`del` them, or `.copy()` what must outlive the block). Views that die
//!    with the `with` body or a function (the usual case) cost nothing.
//!
//! Raising on access through a stale numpy array is impossible (numpy reads raw memory), so
//! rule 2 is what keeps such an array's contents the block it was.

use std::ffi::c_int;
use std::sync::{Arc, Mutex};

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::side::{publish_now, release_now, ConsumerSide, ProducerSide, Side};
use crate::{lock, UsageError};
use handoff::channel as ch;

/// Where a block lies in the mapping.
pub(crate) struct BlockRef {
    pub(crate) ptr: usize,
    pub(crate) len: usize,
    pub(crate) seq: u64,
    pub(crate) writable: bool,
}

/// What `Loan` and `Block` share: the side's state and the view bookkeeping.
trait Held {
    type End;
    fn side(&self) -> &Arc<Mutex<Side<Self::End>>>;
    fn blk(&self) -> &BlockRef;
    /// Hands the block back (publish / release).
    fn hand_back(side: &mut Side<Self::End>) -> PyResult<()>;
    const WHAT: &'static str;
    const DONE: &'static str;

    /// The side's state if this block is still the one out and not done.
    fn live(&self) -> PyResult<std::sync::MutexGuard<'_, Side<Self::End>>> {
        let side = lock(self.side(), Self::WHAT)?;
        match &side.out {
            Some(o) if o.seq == self.blk().seq && !o.done => Ok(side),
            _ => Err(UsageError::new_err(format!(
                "block #{} was {} already: it cannot be used any more (receive or loan the \
                 next one)",
                self.blk().seq,
                Self::DONE
            ))),
        }
    }

    /// Marks the block done; hands it back now if no view is alive, else when the last
    /// view goes.
    fn finish(&self) -> PyResult<()> {
        let mut side = self.live()?;
        let out = side.out.as_mut().expect("checked by live");
        out.done = true;
        if out.exports == 0 {
            Self::hand_back(&mut side)?;
        }
        Ok(())
    }

    /// Fills a buffer-protocol view of the block.
    ///
    /// # Safety
    /// `view` is the `Py_buffer` Python passed to `__getbuffer__`; `obj` is the block object.
    unsafe fn export(
        &self,
        obj: *mut ffi::PyObject,
        view: *mut ffi::Py_buffer,
        flags: c_int,
    ) -> PyResult<()> {
        let mut side = self.live()?;
        let b = self.blk();
        // SAFETY: `view` comes from Python for this call; the block's `len` bytes at `ptr`
        // stay mapped while the view holds `obj` (rule 1 in the module docs) and are not
        // handed back while any view lives (rule 2); a read-only block refuses writable
        // requests (PyBuffer_FillInfo raises BufferError then).
        let rc = unsafe {
            ffi::PyBuffer_FillInfo(
                view,
                obj,
                b.ptr as *mut std::ffi::c_void,
                b.len as ffi::Py_ssize_t,
                c_int::from(!b.writable),
                flags,
            )
        };
        if rc != 0 {
            // SAFETY: called with the GIL held (we are in __getbuffer__).
            return Err(PyErr::fetch(unsafe { Python::assume_attached() }));
        }
        side.out.as_mut().expect("checked by live").exports += 1;
        Ok(())
    }

    /// A view ended; the last view of a done block hands it back.
    fn unexport(&self) {
        let Ok(mut side) = lock(self.side(), Self::WHAT) else {
            return;
        };
        let seq = self.blk().seq;
        let Some(out) = side.out.as_mut().filter(|o| o.seq == seq) else {
            return;
        };
        out.exports = out.exports.saturating_sub(1);
        if out.exports == 0 && out.done {
            // A failure here (the peer closed) cannot be raised from a buffer release; the
            // next call on the side reports the channel's state.
            let _ = Self::hand_back(&mut side);
        }
    }

    /// The block as a numpy array of `dtype` (and `shape`), viewing it without a copy.
    fn array<'py>(
        slf: &Bound<'py, PyAny>,
        dtype: Option<Bound<'py, PyAny>>,
        shape: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let np = py.import("numpy")?;
        let kw = PyDict::new(py);
        kw.set_item(
            "dtype",
            dtype.unwrap_or_else(|| "u1".into_pyobject(py).expect("str").into_any()),
        )?;
        let arr = np.getattr("frombuffer")?.call((slf,), Some(&kw))?;
        match shape {
            Some(s) => arr.call_method1("reshape", (s,)),
            None => Ok(arr),
        }
    }
}

/// A block loaned to the producer: write it (`array()`, `memoryview(loan)`), then
/// `publish()` (or leave the `with` block without an exception).
#[pyclass(module = "handoff._native", frozen)]
pub struct Loan {
    pub(crate) blk: BlockRef,
    pub(crate) side: ProducerSide,
}

impl Held for Loan {
    type End = ch::Producer;
    fn side(&self) -> &ProducerSide {
        &self.side
    }
    fn blk(&self) -> &BlockRef {
        &self.blk
    }
    fn hand_back(side: &mut Side<ch::Producer>) -> PyResult<()> {
        publish_now(side)
    }
    const WHAT: &'static str = "producer";
    const DONE: &'static str = "published";
}

#[pymethods]
impl Loan {
    /// The block's sequence number (0 for the first block).
    #[getter]
    fn seq(&self) -> u64 {
        self.blk.seq
    }

    /// Bytes in the block.
    fn __len__(&self) -> usize {
        self.blk.len
    }

    /// A writable numpy array of `dtype` (default uint8), reshaped to `shape` if given,
    /// viewing the block (no copy).
    #[pyo3(signature = (dtype = None, shape = None))]
    fn array<'py>(
        slf: &Bound<'py, Self>,
        dtype: Option<Bound<'py, PyAny>>,
        shape: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        drop(slf.get().live()?);
        <Self as Held>::array(slf.as_any(), dtype, shape)
    }

    /// Publishes the block to the consumer: once its views are gone (at once when there
    /// are none). The loan refuses any use afterwards.
    fn publish(&self) -> PyResult<()> {
        self.finish()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// Publishes on a normal exit; on an exception the block is not published (the next
    /// loan reuses it).
    fn __exit__(
        &self,
        t: Option<Bound<'_, PyAny>>,
        _v: Py<PyAny>,
        _tb: Py<PyAny>,
    ) -> PyResult<bool> {
        if t.is_some() {
            let mut side = lock(&self.side, "producer")?;
            if side
                .out
                .as_ref()
                .is_some_and(|o| o.seq == self.blk.seq && !o.done)
            {
                side.out = None;
            }
            return Ok(false);
        }
        self.finish()?;
        Ok(false)
    }

    /// # Safety
    /// Called by Python with a valid `view`.
    unsafe fn __getbuffer__(
        slf: Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: c_int,
    ) -> PyResult<()> {
        // SAFETY: Python's contract for __getbuffer__; `slf` is the exporting object.
        unsafe { slf.get().export(slf.as_ptr(), view, flags) }
    }

    /// # Safety
    /// Called by Python with a view this object exported.
    unsafe fn __releasebuffer__(&self, _view: *mut ffi::Py_buffer) {
        self.unexport();
    }

    fn __repr__(&self) -> String {
        format!("Loan(seq={}, bytes={})", self.blk.seq, self.blk.len)
    }
}

/// A received block: read it (`array()`, `memoryview(block)`, read-only), then
/// `release()` it (or leave the `with` block).
#[pyclass(module = "handoff._native", frozen)]
pub struct Block {
    pub(crate) blk: BlockRef,
    pub(crate) side: ConsumerSide,
}

impl Held for Block {
    type End = ch::Consumer;
    fn side(&self) -> &ConsumerSide {
        &self.side
    }
    fn blk(&self) -> &BlockRef {
        &self.blk
    }
    fn hand_back(side: &mut Side<ch::Consumer>) -> PyResult<()> {
        release_now(side)
    }
    const WHAT: &'static str = "consumer";
    const DONE: &'static str = "released";
}

#[pymethods]
impl Block {
    /// The block's sequence number (the producer's loan.seq).
    #[getter]
    fn seq(&self) -> u64 {
        self.blk.seq
    }

    /// Bytes in the block.
    fn __len__(&self) -> usize {
        self.blk.len
    }

    /// A read-only numpy array of `dtype` (default uint8), reshaped to `shape` if given,
    /// viewing the block in shared memory (no copy).
    #[pyo3(signature = (dtype = None, shape = None))]
    fn array<'py>(
        slf: &Bound<'py, Self>,
        dtype: Option<Bound<'py, PyAny>>,
        shape: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        drop(slf.get().live()?);
        <Self as Held>::array(slf.as_any(), dtype, shape)
    }

    /// Releases the block to the producer: once its views are gone (at once when there are
    /// none). The block refuses any use afterwards.
    fn release(&self) -> PyResult<()> {
        self.finish()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(&self, _t: Py<PyAny>, _v: Py<PyAny>, _tb: Py<PyAny>) -> PyResult<bool> {
        // Released already (explicitly) is fine on exit.
        let live = self.live().is_ok();
        if live {
            self.finish()?;
        }
        Ok(false)
    }

    /// # Safety
    /// Called by Python with a valid `view`.
    unsafe fn __getbuffer__(
        slf: Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: c_int,
    ) -> PyResult<()> {
        // SAFETY: Python's contract for __getbuffer__; `slf` is the exporting object.
        unsafe { slf.get().export(slf.as_ptr(), view, flags) }
    }

    /// # Safety
    /// Called by Python with a view this object exported.
    unsafe fn __releasebuffer__(&self, _view: *mut ffi::Py_buffer) {
        self.unexport();
    }

    fn __repr__(&self) -> String {
        format!("Block(seq={}, bytes={})", self.blk.seq, self.blk.len)
    }
}

impl Drop for Block {
    /// A block dropped without `release()` is released (as in Rust).
    fn drop(&mut self) {
        if let Ok(mut side) = self.side.try_lock() {
            if side
                .out
                .as_ref()
                .is_some_and(|o| o.seq == self.blk.seq && !o.done)
            {
                let _ = release_now(&mut side);
            }
        }
    }
}

impl Drop for Loan {
    /// A loan dropped without `publish()` is not published; the next loan reuses its block.
    fn drop(&mut self) {
        if let Ok(mut side) = self.side.try_lock() {
            if side
                .out
                .as_ref()
                .is_some_and(|o| o.seq == self.blk.seq && !o.done)
            {
                side.out = None;
            }
        }
    }
}
