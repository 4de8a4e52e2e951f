//! One side of a channel as Python holds it: the end (`None` once closed) and the block it
//! has out, shared by the `Producer`/`Consumer` object (`channel`) and the `Loan`/`Block` it
//! handed out (`block`), and handing that block on at once.

use std::sync::{Arc, Mutex};

use handoff::channel as ch;
use pyo3::prelude::*;

use crate::{err, UsageError};

/// The block a side has out: its sequence number and how many views of it are alive.
pub(crate) struct Out {
    pub(crate) seq: u64,
    pub(crate) exports: usize,
    /// `release()` / `publish()` was called; the hand-back waits for the views to go.
    pub(crate) done: bool,
}

/// One side's state, shared by its Python object and the block it has out.
pub(crate) struct Side<E> {
    /// `None` once closed.
    pub(crate) end: Option<E>,
    pub(crate) out: Option<Out>,
}

impl<E> Side<E> {
    pub(crate) fn end(&mut self, what: &str) -> PyResult<&mut E> {
        self.end
            .as_mut()
            .ok_or_else(|| UsageError::new_err(format!("this {what} was closed")))
    }

    /// Refuses a new block while one is out.
    pub(crate) fn check_free(&self, verb: &str, undo: &str) -> PyResult<()> {
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

    pub(crate) fn close(&mut self) -> PyResult<()> {
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

pub(crate) type ProducerSide = Arc<Mutex<Side<ch::Producer>>>;
pub(crate) type ConsumerSide = Arc<Mutex<Side<ch::Consumer>>>;

/// Hands the producer's loaned block to the consumer (the loan is still free, so
/// `try_loan` returns that very block at once).
pub(crate) fn publish_now(side: &mut Side<ch::Producer>) -> PyResult<()> {
    side.out = None;
    let p = side.end("producer")?;
    let published = match p.try_loan() {
        Ok(loan) => {
            loan.publish();
            Ok(())
        }
        Err(ch::ChannelError::Timeout { .. }) => Err(crate::HandoffError::new_err(
            "internal error in handoff (a bug, please report it): the loaned block was taken back",
        )),
        Err(e) => Err(err(e)),
    };
    published
}

/// Hands the consumer's block back to the producer (the block is still published, so
/// `try_recv` returns that very block at once, and dropping it releases it).
pub(crate) fn release_now(side: &mut Side<ch::Consumer>) -> PyResult<()> {
    side.out = None;
    let c = side.end("consumer")?;
    let released = match c.try_recv() {
        Ok(got) => {
            drop(got);
            Ok(())
        }
        Err(ch::ChannelError::Timeout { .. }) => Err(crate::HandoffError::new_err(
            "internal error in handoff (a bug, please report it): the received block vanished",
        )),
        Err(e) => Err(err(e)),
    };
    released
}
