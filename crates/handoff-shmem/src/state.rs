//! This PE's OpenSHMEM state and the wrapper every C entry point runs its body in.
//!
//! The state is one heap object behind a global pointer, shared by every thread of the PE:
//! handoff's OpenSHMEM provides `SHMEM_THREAD_MULTIPLE`. The state is `Sync`: the team and
//! its transport are (atomics on the shared mapping), and this layer's own bookkeeping is
//! atomics (agreement and scan counters) or a `Mutex` taken only by calls that allocate
//! (heap, counters, teams, contexts) — never by a put, get, AMO or wait, so the fast path takes
//! no lock. Collective calls (barriers, collectives, allocation, team splits) are made by one
//! thread of the PE at a time: the specification requires it of one team, and handoff of all
//! teams (their barriers share the PE's arrival counters). (No thread-local either: in a shared library each access is a
//! `__tls_get_addr` call, about 15 ns on every OpenSHMEM call, measured in the ping-pong.)
//!
//! [`entry`] runs a call's body under `catch_unwind` (a panic never crosses the C ABI) and turns
//! any error into one line on stderr naming the call, then ends the PE with
//! [`EXIT_ERROR`] after marking it as gone in the team, so every
//! other PE's wait ends at once with an error naming this PE and the launcher ends the team.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use handoff::team::{Counter, Team, Transport};

use crate::net::Net;

use crate::error::{Result, ShmemError, EXIT_ERROR};
use crate::heap::Allocator;

/// Bytes of this layer's own symmetric words, at the start of its region (see [`State`]):
/// the words below, then the collectives' message block ([`COLL_AT`]).
pub const INTERNAL: usize = COLL_AT + COLL_LEN;
/// Offset and length of the collectives' message block in the internal block
/// (`coll_msgs`: per-sender counters and small-message slots).
pub const COLL_AT: usize = 128;
pub const COLL_LEN: usize = 256 << 10;
/// Offset of the agreement records (two slots of (seq, kind, value)) in the internal block.
const AGREE_AT: usize = 0;
/// Offset of the word a PE publishes its element count in for `collect`.
pub const COLLECT_AT: usize = 64;

/// One PE's OpenSHMEM state.
pub struct State {
    /// The team, on the transport `shmem_init` joined ([`Net`]).
    pub team: Team<Net>,
    pub rank: usize,
    pub npes: usize,
    /// Address of this PE's heap partition as the program sees it: a view of the partition
    /// aligned to the heap's size rounded up to a power of two (at most 1 GiB), so that
    /// `shmem_align` offsets are absolutely aligned addresses on every PE.
    pub heap: *mut u8,
    /// Address of this PE's partition in the transport's memory (the team segment, or the
    /// MPI window).
    pub seg_heap: *mut u8,
    /// The executable's static data, moved into the heap (`symdata`).
    pub data: crate::symdata::DataMap,
    /// The partition's length.
    pub heap_len: usize,
    /// Partition offset of the internal block (then the allocator's region).
    pub internal: usize,
    pub alloc: Mutex<Allocator>,
    /// Collective agreements made so far.
    pub agreements: AtomicU64,
    /// Where the next `wait_until_any` / `test_any` scan starts (fairness).
    pub any_start: AtomicUsize,
    /// Counting-put counters made by `shmemx_ct_create`, by handle, and whether live (a
    /// freed one is reused by the next create).
    pub counters: Mutex<Vec<(Counter, bool)>>,
}

/// Locks `m`, ignoring poisoning (a panic inside a body ends the PE anyway).
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

// SAFETY: `heap` is the address of this PE's partition of the shared mapping, which lives as
// long as the team; it is only used to form addresses (and the internal words, atomics).
// Every other field is Sync (checked below), so the PE's threads may share the state
// (SHMEM_THREAD_MULTIPLE).
unsafe impl Sync for State {}
// SAFETY: as above; nothing in the state is tied to the thread that made it.
unsafe impl Send for State {}
// The fields other than `heap` must stay Sync by themselves: the team and its transport.
const _: fn() = || {
    fn sync<T: Sync>() {}
    sync::<Team<Net>>();
    sync::<Mutex<Allocator>>();
    sync::<Mutex<Vec<(Counter, bool)>>>();
};

/// The state, or null before `shmem_init` and after `shmem_finalize`.
static STATE: AtomicPtr<State> = AtomicPtr::new(std::ptr::null_mut());
/// Set by `shmem_finalize`.
static FINALIZED: AtomicBool = AtomicBool::new(false);

/// The PE's state: `None` before `shmem_init` and after `shmem_finalize`.
#[inline]
fn current() -> Option<*mut State> {
    // Acquire: pairs with the Release store in `install`, so a thread that sees the pointer
    // sees the state it points to.
    let p = STATE.load(Ordering::Acquire);
    (!p.is_null()).then_some(p)
}

/// Whether this thread has a live state.
pub fn initialized() -> bool {
    current().is_some()
}

/// Installs the state made by `shmem_init` on this thread; a program exiting without
/// `shmem_finalize` then leaves the team at once (an `atexit` handler), so the other PEs'
/// waits name it instead of noticing the dead process later.
pub fn install(state: State) {
    // Release: pairs with the Acquire load in `current`.
    STATE.store(Box::into_raw(Box::new(state)), Ordering::Release);
    // SAFETY: registers a plain extern "C" fn with no preconditions; a failure to register
    // only loses the early notice.
    unsafe { libc::atexit(leave_at_exit) };
}

extern "C" fn leave_at_exit() {
    if let Some(state) = take_state() {
        // On MPI an exit without finalize may be the MPI library's own reaction to another
        // PE's `shmem_global_exit` (its MPI_Abort): the grace lets the launcher end this PE
        // before its drop aborts the job with another status (`Net::before_failing`).
        state.x().before_failing();
        drop(state);
    }
}

/// Takes the state out.
fn take_state() -> Option<Box<State>> {
    current()?;
    // AcqRel: the Acquire side pairs with the Release store in `install`.
    let p = STATE.swap(std::ptr::null_mut(), Ordering::AcqRel);
    // SAFETY: `p` came from Box::into_raw in `install` and is taken out exactly once (the
    // swap); this is called from finalize, exit paths and atexit, never from inside a body,
    // and the specification requires every other thread of the PE to have finished its
    // OpenSHMEM calls before `shmem_finalize` (or an exit).
    (!p.is_null()).then(|| unsafe { Box::from_raw(p) })
}

/// Removes the state (`shmem_finalize`); later calls fail with [`ShmemError::Finalized`].
pub fn take() -> Option<Box<State>> {
    let st = take_state();
    if st.is_some() {
        FINALIZED.store(true, Ordering::Relaxed);
    }
    st
}

/// Whether `shmem_finalize` has run.
pub fn finalized() -> bool {
    FINALIZED.load(Ordering::Relaxed)
}

/// Runs `body` on this PE's state for the C entry point `name`; on an error or a panic,
/// reports it and ends the PE ([`fail`]).
#[inline]
pub fn entry<R>(name: &'static str, body: impl FnOnce(&State) -> Result<R>) -> R {
    let r = catch_unwind(AssertUnwindSafe(|| match current() {
        // SAFETY: the state stays alive until `take_state`, which no body calls and which
        // runs only after the PE's other threads are done with OpenSHMEM (the spec's rule
        // for shmem_finalize).
        Some(p) => body(unsafe { &*p }),
        None if FINALIZED.load(Ordering::Relaxed) => Err(ShmemError::Finalized),
        None => Err(ShmemError::NotInitialized),
    }));
    match r {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => fail(name, &e),
        Err(p) => fail(name, &ShmemError::Panic(panic_text(&p))),
    }
}

/// Runs `body` (a call that works without a state, such as `shmem_init`) under
/// `catch_unwind`, reporting errors as [`entry`] does.
pub fn entry_bare<R>(name: &'static str, body: impl FnOnce() -> Result<R>) -> R {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => fail(name, &e),
        Err(p) => fail(name, &ShmemError::Panic(panic_text(&p))),
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// Reports `err` of call `name` on stderr in one line and ends the PE with `EXIT_ERROR`.
pub fn fail(name: &str, err: &ShmemError) -> ! {
    if let Some(p) = current() {
        // SAFETY: as in `entry`: the live state.
        unsafe { (*p).x().before_failing() };
    }
    // SAFETY: as in `entry`: the live state.
    let who = current().map(|p| unsafe { (*p).rank }).or_else(|| {
        std::env::var(handoff::implementor::ENV_RANK)
            .ok()?
            .parse()
            .ok()
    });
    let line = match who {
        Some(r) => format!("handoff-shmem: PE {r}: {name}: {err}\n"),
        None => format!("handoff-shmem: {name}: {err}\n"),
    };
    write_line(&line);
    exit_team(EXIT_ERROR)
}

/// Writes `line` to stderr in one `write(2)` call, so that lines of several PEs sharing
/// the terminal or a pipe never interleave mid-line (`eprintln!` may split a line into
/// several writes; a pipe keeps one write of at most `PIPE_BUF` bytes whole).
pub fn write_line(line: &str) {
    let b = line.as_bytes();
    // SAFETY: writes `b.len()` bytes of a live buffer to fd 2; a short or failed write of a
    // diagnostic has no remedy (retrying the rest would split the line anyway).
    let _ = unsafe { libc::write(2, b.as_ptr().cast(), b.len()) };
}

/// Ends this PE with `code`, leaving the team first (unless it finalized): the other PEs'
/// waits end at once with an error naming this PE, and the launcher ends the team.
pub fn exit_team(code: i32) -> ! {
    // Dropping the team without finalize marks this PE as gone and rings every PE.
    drop(take_state());
    std::process::exit(code)
}

impl State {
    /// The partition offset of `len` bytes at `addr`, checked to lie in the symmetric
    /// heap region handed out by the allocator or in the executable's static data (which
    /// lives in the heap too: `region + (addr - start)`, see [`crate::symdata`]).
    #[inline]
    pub fn offset(&self, addr: *const u8, len: usize, what: &'static str) -> Result<usize> {
        let a = addr as usize;
        let lo = self.heap as usize + self.internal + INTERNAL;
        let hi = self.heap as usize + self.heap_len;
        match a.checked_add(len) {
            Some(end) if a >= lo && end <= hi => Ok(a - self.heap as usize),
            _ => self.offset_outside_heap(addr, len, what),
        }
    }

    /// [`offset`](Self::offset) of an address outside the symmetric heap: static data, NULL
    /// or an error (out of line: the heap's case is a put's fast path).
    #[inline(never)]
    fn offset_outside_heap(
        &self,
        addr: *const u8,
        len: usize,
        what: &'static str,
    ) -> Result<usize> {
        let a = addr as usize;
        match () {
            _ if addr.is_null() && len > 0 => Err(ShmemError::Null(what, len)),
            _ if addr.is_null() => Ok(self.internal + INTERNAL),
            _ => self
                .data
                .offset(a, len)
                .ok_or_else(|| ShmemError::NotSymmetric {
                    what,
                    addr: a,
                    len,
                    why: crate::symdata::whose(a),
                }),
        }
    }

    /// [`offset`](Self::offset) of a word of `align` bytes, checked to be aligned.
    #[inline]
    pub fn word_offset(&self, addr: *const u8, align: usize, what: &'static str) -> Result<usize> {
        let off = self.offset(addr, align, what)?;
        if !(addr as usize).is_multiple_of(align) {
            return Err(ShmemError::Misaligned {
                what,
                addr: addr as usize,
                align,
            });
        }
        Ok(off)
    }

    /// A PE number from C, checked.
    #[inline]
    pub fn pe(&self, pe: i32) -> Result<usize> {
        match usize::try_from(pe) {
            Ok(p) if p < self.npes => Ok(p),
            _ => Err(self.no_such_pe(pe)),
        }
    }

    #[cold]
    fn no_such_pe(&self, pe: i32) -> ShmemError {
        ShmemError::NoSuchPe {
            pe: i64::from(pe),
            npes: self.npes,
        }
    }

    /// A local slice of `len` bytes at `addr` (a private or symmetric source buffer).
    ///
    /// # Safety
    /// `addr` must be valid for reads of `len` bytes for the returned lifetime (the C
    /// caller's promise), or `len` must be 0.
    #[inline]
    pub unsafe fn src<'a>(
        &self,
        addr: *const u8,
        len: usize,
        what: &'static str,
    ) -> Result<&'a [u8]> {
        if len == 0 {
            return Ok(&[]);
        }
        if addr.is_null() {
            return Err(ShmemError::Null(what, len));
        }
        // SAFETY: the caller's promise above; checked non-null.
        Ok(unsafe { std::slice::from_raw_parts(addr, len) })
    }

    /// A local writable slice of `len` bytes at `addr`.
    ///
    /// # Safety
    /// `addr` must be valid for writes of `len` bytes and not otherwise referenced for the
    /// returned lifetime (the C caller's promise), or `len` must be 0.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn dst<'a>(
        &self,
        addr: *mut u8,
        len: usize,
        what: &'static str,
    ) -> Result<&'a mut [u8]> {
        if len == 0 {
            return Ok(&mut []);
        }
        if addr.is_null() {
            return Err(ShmemError::Null(what, len));
        }
        // SAFETY: the caller's promise above; checked non-null.
        Ok(unsafe { std::slice::from_raw_parts_mut(addr, len) })
    }

    /// The transport (byte-offset operations).
    #[inline]
    pub fn x(&self) -> &Net {
        self.team.transport()
    }

    /// The wait of one OpenSHMEM call, starting now: the team's patience (its strategy,
    /// `HANDOFF_WAIT`; no timeout: OpenSHMEM waits have none).
    #[inline]
    pub fn until(&self) -> handoff::sync::Until {
        self.team.patience().start()
    }

    /// The address of this PE's internal word at `at`.
    pub fn internal_word(&self, at: usize) -> &std::sync::atomic::AtomicU64 {
        // SAFETY: the internal block (INTERNAL bytes at `internal`, 64-byte aligned) lies in
        // the local partition; `at` + 8 <= INTERNAL and 8-aligned at every caller.
        unsafe { &*self.heap.add(self.internal + at).cast() }
    }

    /// Collective: checks that every PE makes the same collective call now (`kind` names it,
    /// `value` is its size or offset), with a barrier over all PEs; a disagreement is
    /// [`ShmemError::Mismatch`] on every PE that sees it.
    pub fn agree(&self, kind: u64, value: u64) -> Result<()> {
        use std::sync::atomic::Ordering::Relaxed;
        let seq = self.agreements.fetch_add(1, Relaxed) + 1;
        let slot = AGREE_AT + (seq % 2) as usize * 24;
        self.internal_word(slot).store(seq, Relaxed);
        self.internal_word(slot + 8).store(kind, Relaxed);
        self.internal_word(slot + 16).store(value, Relaxed);
        // The barrier's Release/Acquire chain publishes the record to every PE; a PE
        // reuses this slot only two agreements later, after a barrier every PE has passed
        // after reading it.
        self.team.barrier_all()?;
        for r in 0..self.npes {
            let mut rec = [0u8; 24];
            self.x().get(r, self.internal + slot, &mut rec)?;
            let w = |i: usize| u64::from_ne_bytes(rec[i * 8..i * 8 + 8].try_into().unwrap());
            let (s, k, v) = (w(0), w(1), w(2));
            if (s, k, v) != (seq, kind, value) {
                let theirs = if s == seq {
                    describe(k, v)
                } else {
                    format!("a different sequence of collectives (its call #{s})")
                };
                return Err(ShmemError::Mismatch {
                    seq,
                    rank: r,
                    ours: describe(kind, value),
                    theirs,
                });
            }
        }
        Ok(())
    }
}

/// Agreement kinds (the low byte; `MALLOC` carries log2 of the alignment above it).
pub mod kind {
    pub const MALLOC: u64 = 1;
    pub const FREE: u64 = 2;
    pub const CT_CREATE: u64 = 3;
    pub const CT_FREE: u64 = 4;
    pub const REALLOC: u64 = 5;
    pub const DATA: u64 = 6;
}

fn describe(kind: u64, value: u64) -> String {
    match kind & 0xff {
        kind::MALLOC if kind >> 8 > 6 => {
            format!(
                "an allocation of {value} bytes aligned to {}",
                1u64 << (kind >> 8)
            )
        }
        kind::MALLOC => format!("an allocation of {value} bytes"),
        kind::FREE => format!("shmem_free of the block at heap offset {value}"),
        kind::CT_CREATE => "shmemx_ct_create".into(),
        kind::CT_FREE => format!("shmemx_ct_free of counter {value}"),
        kind::REALLOC => format!("shmem_realloc to {value} bytes"),
        kind::DATA => format!("shmem_init with {value} bytes of static data (another program?)"),
        _ => format!("collective {kind} ({value})"),
    }
}
