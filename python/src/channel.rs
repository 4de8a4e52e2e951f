//! `Channel`, `Producer`, `Consumer`: the channel's ends. What they hand out, `Loan` and
//! `Block`, and the rules that make their numpy views safe are in `block`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use handoff::channel::{self as ch, ChannelConfig, ChannelError};
use handoff::shm::SegmentError;
use pyo3::prelude::*;

use crate::block::{Block, BlockRef, Loan};
use crate::side::{ConsumerSide, Out, ProducerSide, Side};
use crate::{deadline_of, err, lock, patience_of, patience_py, wait_sliced, Form};

/// The channel's segment does not exist yet.
fn is_missing(e: &ChannelError) -> bool {
    matches!(e, ChannelError::Segment(SegmentError::NotFound { .. }))
}

/// An open that may still succeed later: the segment is missing or not yet ready.
fn open_pending(e: &ChannelError) -> bool {
    is_missing(e) || matches!(e, ChannelError::Segment(SegmentError::OpenTimedOut { .. }))
}

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
    /// Creates the named channel `/handoff-<pid>-<name>~<random>`: `blocks` blocks of `block_size`
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
        // In slices, so Ctrl-C interrupts a long wait for the creator.
        let chan = wait_sliced(py, Some(deadline), open_pending, |d| loop {
            match ch::Channel::open(name, cfg, d) {
                Err(e) if is_missing(&e) && !d.expired() => {
                    std::thread::sleep(Duration::from_millis(5).min(d.remaining()))
                }
                r => return r,
            }
        })?
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

    /// Claims the producer side (once per channel, across all processes), with the patience
    /// its `loan()` waits with: strategy `wait` and default `timeout` in seconds (None:
    /// none; 0: look once).
    #[pyo3(signature = (wait = "adaptive", timeout = None))]
    fn producer(&self, wait: &str, timeout: Option<f64>) -> PyResult<Producer> {
        let patience = patience_of(wait, timeout)?;
        let mut p = self.chan.producer().map_err(err)?;
        p.set_patience(patience);
        Ok(Producer {
            st: Arc::new(Mutex::new(Side {
                end: Some(p),
                out: None,
            })),
        })
    }

    /// Claims the consumer side (once per channel, across all processes), with the patience
    /// its `recv()` waits with (as `producer`).
    #[pyo3(signature = (wait = "adaptive", timeout = None))]
    fn consumer(&self, wait: &str, timeout: Option<f64>) -> PyResult<Consumer> {
        let patience = patience_of(wait, timeout)?;
        let mut c = self.chan.consumer().map_err(err)?;
        c.set_patience(patience);
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

/// The producing end: `loan()` a block, write it, `publish()` it.
#[pyclass(module = "handoff._native", frozen)]
pub struct Producer {
    st: ProducerSide,
}

impl Producer {
    fn loan_in(&self, py: Python<'_>, form: Form) -> PyResult<Loan> {
        let mut side = lock(&self.st, "producer")?;
        side.check_free("loan", "published")?;
        let p = side.end("producer")?;
        let deadline = form.deadline(p.patience())?;
        let got = if let Form::Try = form {
            p.try_loan()
                .map(|mut l| (l.as_mut_ptr() as usize, l.len(), l.seq()))
        } else {
            wait_sliced(
                py,
                deadline,
                |e| matches!(e, ChannelError::Timeout { .. }),
                |d| {
                    // A dropped loan keeps its block for the next loan (documented): the
                    // `Loan` object re-takes it at publish.
                    p.loan_timeout(d.remaining())
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
}

#[pymethods]
impl Producer {
    /// Waits (with the producer's patience) for a free block and loans it. Raises
    /// TimeoutError when the patience's time limit passed, ClosedError once the consumer
    /// closed.
    fn loan(&self, py: Python<'_>) -> PyResult<Loan> {
        self.loan_in(py, Form::Patient)
    }

    /// `loan()`, waiting at most `timeout` seconds (the producer's strategy).
    fn loan_timeout(&self, py: Python<'_>, timeout: f64) -> PyResult<Loan> {
        self.loan_in(py, Form::Timeout(timeout))
    }

    /// `loan()` without waiting: TimeoutError at once when every block is in flight.
    fn try_loan(&self, py: Python<'_>) -> PyResult<Loan> {
        self.loan_in(py, Form::Try)
    }

    /// How `loan()` waits: `(wait, timeout)`.
    #[getter]
    fn patience(&self) -> PyResult<(String, Option<f64>)> {
        Ok(patience_py(
            lock(&self.st, "producer")?.end("producer")?.patience(),
        ))
    }

    /// Sets how `loan()` waits: strategy `wait`, default `timeout` in seconds (None: none;
    /// 0: look once). `loan_timeout` keeps the strategy.
    #[pyo3(signature = (wait = "adaptive", timeout = None))]
    fn set_patience(&self, wait: &str, timeout: Option<f64>) -> PyResult<()> {
        let patience = patience_of(wait, timeout)?;
        lock(&self.st, "producer")?
            .end("producer")?
            .set_patience(patience);
        Ok(())
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

impl Consumer {
    fn recv_in(&self, py: Python<'_>, form: Form) -> PyResult<Block> {
        let mut side = lock(&self.st, "consumer")?;
        side.check_free("receive", "released")?;
        let c = side.end("consumer")?;
        let deadline = form.deadline(c.patience())?;
        let grab = |got: ch::Received<'_>| {
            let r = (got.as_ptr() as usize, got.len(), got.seq());
            // Forgotten, not dropped: the block stays received until `release_now`.
            std::mem::forget(got);
            r
        };
        let got = if let Form::Try = form {
            c.try_recv().map(grab)
        } else {
            wait_sliced(
                py,
                deadline,
                |e| matches!(e, ChannelError::Timeout { .. }),
                |d| c.recv_timeout(d.remaining()).map(grab),
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
}

#[pymethods]
impl Consumer {
    /// Waits (with the consumer's patience) for the next published block. Raises
    /// TimeoutError when the patience's time limit passed, ClosedError once the producer
    /// closed and every block was received, PeerGoneError if its process died.
    fn recv(&self, py: Python<'_>) -> PyResult<Block> {
        self.recv_in(py, Form::Patient)
    }

    /// `recv()`, waiting at most `timeout` seconds (the consumer's strategy).
    fn recv_timeout(&self, py: Python<'_>, timeout: f64) -> PyResult<Block> {
        self.recv_in(py, Form::Timeout(timeout))
    }

    /// `recv()` without waiting: TimeoutError at once when nothing is published.
    fn try_recv(&self, py: Python<'_>) -> PyResult<Block> {
        self.recv_in(py, Form::Try)
    }

    /// How `recv()` waits: `(wait, timeout)`.
    #[getter]
    fn patience(&self) -> PyResult<(String, Option<f64>)> {
        Ok(patience_py(
            lock(&self.st, "consumer")?.end("consumer")?.patience(),
        ))
    }

    /// Sets how `recv()` waits (as `Producer.set_patience`).
    #[pyo3(signature = (wait = "adaptive", timeout = None))]
    fn set_patience(&self, wait: &str, timeout: Option<f64>) -> PyResult<()> {
        let patience = patience_of(wait, timeout)?;
        lock(&self.st, "consumer")?
            .end("consumer")?
            .set_patience(patience);
        Ok(())
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
