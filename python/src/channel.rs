//! `Channel`, `Producer` / `Loan`, `Consumer` / `Block`.
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
use std::time::Duration;

use handoff::channel::{self as ch, ChannelConfig, ChannelError};
use handoff::shm::{SegmentError, ShmError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::{deadline_of, err, lock, wait_of, wait_sliced, UsageError};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Channel>()?;
    m.add_class::<Producer>()?;
    m.add_class::<Consumer>()?;
    m.add_class::<Loan>()?;
    m.add_class::<Block>()?;
    Ok(())
}

/// A channel mapped in this process: `Channel.create` in one process, `Channel.open` in
/// the other, then `producer()` on one side and `consumer()` on the other.
#[pyclass(module = "handoff._native", frozen)]
pub struct Channel {
    chan: ch::Channel,
}

#[pymethods]
impl Channel {
    /// Creates the named channel `/handoff-<pid>-<name>`: `blocks` blocks of `block_size`
    /// bytes.
    #[staticmethod]
    #[pyo3(signature = (name, block_size, blocks = 2))]
    fn create(name: &str, block_size: usize, blocks: usize) -> PyResult<Channel> {
        let chan =
            ch::Channel::create(name, ChannelConfig::new(block_size, blocks)).map_err(err)?;
        Ok(Channel { chan })
    }

    /// Opens the channel `name` (the creator's full name, or the short one when a single
    /// live creator has it) with the creator's shape, waiting up to `timeout` seconds for
    /// the creator to create and publish it.
    #[staticmethod]
    #[pyo3(signature = (name, block_size, blocks = 2, timeout = 10.0))]
    fn open(
        py: Python<'_>,
        name: &str,
        block_size: usize,
        blocks: usize,
        timeout: f64,
    ) -> PyResult<Channel> {
        let deadline = deadline_of(Some(timeout))?.expect("Some in, Some out");
        let cfg = ChannelConfig::new(block_size, blocks);
        let chan = py
            .detach(|| loop {
                match ch::Channel::open(name, cfg, deadline) {
                    Err(ChannelError::Segment(ShmError::Segment(SegmentError::NotFound {
                        ..
                    }))) if !deadline.expired() => {
                        std::thread::sleep(Duration::from_millis(5).min(deadline.remaining()))
                    }
                    r => return r,
                }
            })
            .map_err(err)?;
        Ok(Channel { chan })
    }

    /// The full name to open it by in another process.
    #[getter]
    fn name(&self) -> Option<String> {
        self.chan.name().map(str::to_string)
    }

    /// Bytes per block.
    #[getter]
    fn block_size(&self) -> usize {
        self.chan.config().block_size
    }

    /// Blocks in the ring.
    #[getter]
    fn blocks(&self) -> usize {
        self.chan.config().blocks
    }

    /// Claims the producer side (once per channel, across all processes).
    fn producer(&self) -> PyResult<Producer> {
        let p = self.chan.producer().map_err(err)?;
        Ok(Producer {
            st: Arc::new(Mutex::new(Side {
                end: Some(p),
                out: None,
            })),
        })
    }

    /// Claims the consumer side (once per channel, across all processes).
    fn consumer(&self) -> PyResult<Consumer> {
        let c = self.chan.consumer().map_err(err)?;
        Ok(Consumer {
            st: Arc::new(Mutex::new(Side {
                end: Some(c),
                out: None,
            })),
        })
    }

    fn __repr__(&self) -> String {
        let c = self.chan.config();
        format!(
            "Channel(name={:?}, block_size={}, blocks={})",
            self.chan.name().unwrap_or("anonymous"),
            c.block_size,
            c.blocks
        )
    }
}

/// The block a side has out: its sequence number and how many views of it are alive.
struct Out {
    seq: u64,
    exports: usize,
    /// `release()` / `publish()` was called; the hand-back waits for the views to go.
    done: bool,
}

/// One side's state, shared by its Python object and the block it has out.
struct Side<E> {
    /// `None` once closed.
    end: Option<E>,
    out: Option<Out>,
}

impl<E> Side<E> {
    fn end(&mut self, what: &str) -> PyResult<&mut E> {
        self.end
            .as_mut()
            .ok_or_else(|| UsageError::new_err(format!("this {what} was closed")))
    }

    /// Refuses a new block while one is out.
    fn check_free(&self, verb: &str, undo: &str) -> PyResult<()> {
        match &self.out {
            None => Ok(()),
            Some(o) if o.done => Err(UsageError::new_err(format!(
                "block #{} is {undo} but {} numpy view(s) or memoryview(s) of it are still \
                 alive, so it is held until they go: `del` them (or keep a copy: arr.copy()) \
                 before you {verb} the next block",
                o.seq, o.exports
            ))),
            Some(o) => Err(UsageError::new_err(format!(
                "block #{} is still out: {} it (or leave its `with` block) before you {verb} \
                 the next one",
                o.seq,
                if undo == "released" {
                    "release"
                } else {
                    "publish"
                }
            ))),
        }
    }

    fn close(&mut self) -> PyResult<()> {
        if let Some(o) = &self.out {
            if o.exports > 0 {
                return Err(UsageError::new_err(format!(
                    "block #{} still has {} view(s): `del` them before closing",
                    o.seq, o.exports
                )));
            }
        }
        self.out = None;
        self.end = None;
        Ok(())
    }
}

type ProducerSide = Arc<Mutex<Side<ch::Producer>>>;
type ConsumerSide = Arc<Mutex<Side<ch::Consumer>>>;

/// Hands the producer's loaned block to the consumer (the loan is still free, so
/// `try_loan` returns that very block at once).
fn publish_now(side: &mut Side<ch::Producer>) -> PyResult<()> {
    side.out = None;
    let p = side.end("producer")?;
    let loan = p.try_loan().map_err(err)?;
    match loan {
        Some(loan) => {
            loan.publish();
            Ok(())
        }
        None => Err(crate::HandoffError::new_err(
            "internal error in handoff (a bug, please report it): the loaned block was taken back",
        )),
    }
}

/// Hands the consumer's block back to the producer (the block is still published, so
/// `try_recv` returns that very block at once, and dropping it releases it).
fn release_now(side: &mut Side<ch::Consumer>) -> PyResult<()> {
    side.out = None;
    let c = side.end("consumer")?;
    let got = c.try_recv().map_err(err)?;
    match got {
        Some(got) => {
            drop(got);
            Ok(())
        }
        None => Err(crate::HandoffError::new_err(
            "internal error in handoff (a bug, please report it): the received block vanished",
        )),
    }
}

/// The producing end: `loan()` a block, write it, `publish()` it.
#[pyclass(module = "handoff._native", frozen)]
pub struct Producer {
    st: ProducerSide,
}

#[pymethods]
impl Producer {
    /// Waits for a free block (at most `timeout` seconds; None = forever, 0 = poll) and
    /// loans it. Raises ClosedError once the consumer closed.
    #[pyo3(signature = (timeout = None, wait = "adaptive"))]
    fn loan(&self, py: Python<'_>, timeout: Option<f64>, wait: &str) -> PyResult<Loan> {
        let how = wait_of(wait)?;
        let deadline = deadline_of(timeout)?;
        let mut side = lock(&self.st, "producer")?;
        side.check_free("loan", "published")?;
        let p = side.end("producer")?;
        let got = if timeout == Some(0.0) {
            p.try_loan()
                .map(|l| l.map(|mut l| (l.as_mut_ptr() as usize, l.len(), l.seq())))
                .and_then(|o| o.ok_or(ChannelError::Timeout { what: "free block" }))
        } else {
            wait_sliced(
                py,
                deadline,
                |e| matches!(e, ChannelError::Timeout { .. }),
                |d| {
                    // A dropped loan keeps its block for the next loan (documented): the
                    // `Loan` object re-takes it at publish.
                    p.loan(how, Some(d))
                        .map(|mut l| (l.as_mut_ptr() as usize, l.len(), l.seq()))
                },
            )?
        };
        let (ptr, len, seq) = got.map_err(err)?;
        side.out = Some(Out {
            seq,
            exports: 0,
            done: false,
        });
        Ok(Loan {
            blk: BlockRef {
                ptr,
                len,
                seq,
                writable: true,
            },
            side: self.st.clone(),
        })
    }

    /// Blocks published so far.
    #[getter]
    fn published(&self) -> PyResult<u64> {
        Ok(lock(&self.st, "producer")?.end("producer")?.published())
    }

    /// Closes the producer side: the consumer drains what was published, then sees
    /// ClosedError. A loaned, unpublished block is dropped.
    fn close(&self) -> PyResult<()> {
        lock(&self.st, "producer")?.close()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(&self, _t: Py<PyAny>, _v: Py<PyAny>, _tb: Py<PyAny>) -> PyResult<bool> {
        self.close()?;
        Ok(false)
    }
}

/// The consuming end: `recv()` a block, read it, `release()` it.
#[pyclass(module = "handoff._native", frozen)]
pub struct Consumer {
    st: ConsumerSide,
}

#[pymethods]
impl Consumer {
    /// Waits for the next published block (at most `timeout` seconds; None = forever, 0 =
    /// poll). Raises ClosedError once the producer closed and every block was received,
    /// PeerGoneError if its process died.
    #[pyo3(signature = (timeout = None, wait = "adaptive"))]
    fn recv(&self, py: Python<'_>, timeout: Option<f64>, wait: &str) -> PyResult<Block> {
        let how = wait_of(wait)?;
        let deadline = deadline_of(timeout)?;
        let mut side = lock(&self.st, "consumer")?;
        side.check_free("receive", "released")?;
        let c = side.end("consumer")?;
        let grab = |got: ch::Received<'_>| {
            let r = (got.as_ptr() as usize, got.len(), got.seq());
            // Forgotten, not dropped: the block stays received until `release_now`.
            std::mem::forget(got);
            r
        };
        let got = if timeout == Some(0.0) {
            c.try_recv().map(|g| g.map(grab)).and_then(|o| {
                o.ok_or(ChannelError::Timeout {
                    what: "published block",
                })
            })
        } else {
            wait_sliced(
                py,
                deadline,
                |e| matches!(e, ChannelError::Timeout { .. }),
                |d| c.recv(how, Some(d)).map(grab),
            )?
        };
        let (ptr, len, seq) = got.map_err(err)?;
        side.out = Some(Out {
            seq,
            exports: 0,
            done: false,
        });
        Ok(Block {
            blk: BlockRef {
                ptr,
                len,
                seq,
                writable: false,
            },
            side: self.st.clone(),
        })
    }

    /// Blocks received and released so far.
    #[getter]
    fn received(&self) -> PyResult<u64> {
        Ok(lock(&self.st, "consumer")?.end("consumer")?.received())
    }

    /// Closes the consumer side: the producer's next loan raises ClosedError.
    fn close(&self) -> PyResult<()> {
        lock(&self.st, "consumer")?.close()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __exit__(&self, _t: Py<PyAny>, _v: Py<PyAny>, _tb: Py<PyAny>) -> PyResult<bool> {
        self.close()?;
        Ok(false)
    }
}

/// Where a block lies in the mapping.
struct BlockRef {
    ptr: usize,
    len: usize,
    seq: u64,
    writable: bool,
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
    blk: BlockRef,
    side: ProducerSide,
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
    blk: BlockRef,
    side: ConsumerSide,
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
        match self.live() {
            Ok(side) => {
                drop(side);
                self.finish()?;
            }
            Err(_) => {}
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
