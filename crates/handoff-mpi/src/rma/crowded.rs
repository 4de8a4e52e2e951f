//! How a [`Window`] waits for MPI on a crowded node (more ranks than CPUs): MPICH 4.0's
//! flushes spin without yielding while the target, which must run MPI to acknowledge, waits
//! for the CPU the spinner holds (#42). Here transfers are request-based RMA calls whose
//! requests are polled, paced for a crowded node ([`finish`]: yields between polls, or naps
//! while other tasks hold the CPUs), and a flush is preceded by a polled atomic read of each
//! target this rank owes ([`Window::flush`]).

use std::ffi::{c_int, c_void};
use std::sync::atomic::Ordering::Relaxed;

use handoff::sync::Wait;
use handoff::team::TeamError;
use mpi::ffi;

use super::{byte, RmaOp, Width, Window, MAX_CHUNK};
use crate::comm::{abort_world, check, complete};

/// The buffer of a [`Window::transfer`]: the source of a put or the destination of a get.
pub(super) enum Transfer<'a> {
    Put(&'a [u8]),
    Get(&'a mut [u8]),
}

impl Transfer<'_> {
    pub(super) fn len(&self) -> usize {
        match self {
            Transfer::Put(s) => s.len(),
            Transfer::Get(d) => d.len(),
        }
    }
}

impl Window {
    /// [`put`](Self::put) or [`get`](Self::get) on a crowded node: each chunk an `MPI_Rput`
    /// or `MPI_Rget`, its request tested until complete, paced ([`finish`]) — for `MPI_Rput`
    /// its source is reusable, as after `MPI_Win_flush_local`; for `MPI_Rget` the data are
    /// here, as after `MPI_Win_flush`.
    /// MPICH 4.0's flush spins without yielding while the target's progress, which its RMA
    /// between processes needs, waits for the CPU the spinner holds: with 4 ranks on 2
    /// CPUs a plain MPI program's 2 KiB `MPI_Get` + `MPI_Win_flush` took 8-10 ms, the
    /// polled `MPI_Rget` 0.9-1.9 ms, and tests-sos `spam` on the mixed path ran past its 60 s
    /// (#42).
    pub(super) fn transfer(
        &self,
        pe: usize,
        disp: usize,
        mut t: Transfer<'_>,
    ) -> Result<(), TeamError> {
        let len = t.len();
        if let Transfer::Put(_) = t {
            self.started(pe);
        }
        let mut at = 0;
        while at < len {
            let n = (len - at).min(MAX_CHUNK);
            let d = self.disp(pe, disp + at)?;
            // SAFETY: a predefined handle.
            let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
            let (call, rc) = match &mut t {
                // SAFETY: `src[at..at + n]` is valid for reads until the request completes,
                // which `finish` below waits for before this borrow ends (or the job is
                // aborted); the caller checked pe and the range.
                Transfer::Put(src) => ("MPI_Rput", unsafe {
                    ffi::MPI_Rput(
                        src[at..].as_ptr().cast(),
                        n as c_int,
                        byte(),
                        pe as c_int,
                        d,
                        n as c_int,
                        byte(),
                        self.win,
                        &mut req,
                    )
                }),
                // SAFETY: `dst[at..at + n]` is valid for writes until the request completes
                // (as above); nothing reads it meanwhile (we hold the only borrow).
                Transfer::Get(dst) => ("MPI_Rget", unsafe {
                    ffi::MPI_Rget(
                        dst[at..].as_mut_ptr().cast(),
                        n as c_int,
                        byte(),
                        pe as c_int,
                        d,
                        n as c_int,
                        byte(),
                        self.win,
                        &mut req,
                    )
                }),
            };
            check(call, rc)?;
            finish(&mut req, call);
            at += n;
        }
        Ok(())
    }

    /// Notes that an operation that needs `pe`'s acknowledgement was started to it (crowded
    /// nodes only: see [`flush`](Self::flush)).
    pub(super) fn started(&self, pe: usize) {
        if let Some(u) = self.unflushed.get(pe) {
            u.store(true, Relaxed);
        }
    }

    /// An atomic read (`MPI_Rget_accumulate`, `MPI_NO_OP`) of each word `(pe, displacement,
    /// width)`, all started, then each request polled until complete ([`finish`],
    /// [`flush`](Self::flush)).
    pub(super) fn probe(&self, words: &[(usize, ffi::MPI_Aint, Width)]) -> Result<(), TeamError> {
        // Room for every answer before the first read starts: the buffers do not move while
        // MPI may write them.
        let mut answers = vec![0u64; words.len()];
        let mut reqs = Vec::with_capacity(words.len());
        let unused = 0u64;
        let mut failed = None;
        for (&(pe, d, width), answer) in words.iter().zip(answers.iter_mut()) {
            // SAFETY: `unused` (ignored by MPI_NO_OP) and `answer` (a u64, room for either
            // width) live until every request is complete below; the caller computed `d`
            // within `pe`'s part.
            let r = unsafe {
                self.rget_accumulate(
                    (&unused as *const u64).cast(),
                    (answer as *mut u64).cast(),
                    width,
                    pe,
                    d,
                    RmaOp::NoOp,
                )
            };
            match r {
                Ok(req) => reqs.push(req),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        // The ones started are completed even after an error: their buffers are locals.
        for req in &mut reqs {
            finish(req, "MPI_Rget_accumulate");
        }
        failed.map_or(Ok(()), Err)
    }

    /// Starts an `MPI_Rget_accumulate` of one word of `width` at displacement `d` of `pe`
    /// (`src` the operand, `dst` the old value) and returns its request.
    ///
    /// # Safety
    ///
    /// `src` and `dst` must point to `width`-sized buffers that stay valid until the
    /// request is complete.
    pub(super) unsafe fn rget_accumulate(
        &self,
        src: *const c_void,
        dst: *mut c_void,
        width: Width,
        pe: usize,
        d: ffi::MPI_Aint,
        op: RmaOp,
    ) -> Result<ffi::MPI_Request, TeamError> {
        // SAFETY: a predefined handle.
        let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
        // SAFETY: the caller's promise for `src` and `dst`; the request is written to a
        // local.
        check("MPI_Rget_accumulate", unsafe {
            ffi::MPI_Rget_accumulate(
                src,
                1,
                width.raw(),
                dst,
                1,
                width.raw(),
                pe as c_int,
                d,
                1,
                width.raw(),
                op.raw(),
                self.win,
                &mut req,
            )
        })?;
        Ok(req)
    }
}

/// Waits for an RMA request by polling it, paced for a crowded node (yields, or naps while
/// this process is contended: `pace`), with no deadline, until it is complete. An error of
/// `MPI_Test` leaves MPI free to use the buffer the caller is about to get back: the job
/// cannot go on, so this rank says why and aborts it.
pub(super) fn finish(req: &mut ffi::MPI_Request, call: &'static str) {
    if let Err(e) = complete(req, call, Wait::ADAPTIVE, None, "an RMA operation", true) {
        let line = format!("handoff-mpi: {e}; aborting the MPI job\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        abort_world(3);
    }
}
