//! [`Net`]: the transport an OpenSHMEM PE runs on, chosen at `shmem_init`. The operations
//! (`rma`, `amo`, `signal`, `wait`, `lock`, `ct`, `coll`, `teams`) call it only through the
//! team's [`Transport`] trait; this file forwards each trait method to the transport in use
//! by one `match` (the shared-memory arm inlined, so `handoff run`'s path stays as fast as a
//! direct call), and provides what the trait does not: joining, the heap view aligned for
//! `shmem_align`, mapping heap pages over the program's static data, and `shmem_global_exit`.
//!
//! - [`Net::Shm`]: handoff's shared segment ([`ShmTransport`]), started by `handoff run`.
//! - `Net::Mpi` (the crate's `mpi` feature: a `libhandoff_shmem` linked with an MPI library,
//!   `oshcc --mpi`): handoff-mpi's `MpiTransport`, started by an
//!   MPI launcher (`mpiexec`/`mpirun`): a shared window on one node, MPI RMA between nodes
//!   (`HANDOFF_MPI_WINDOW=rma` on one node), or both (mixed).
//!
//! Which one: `handoff run` sets `HANDOFF_TEAM`, which always means [`Net::Shm`]; without it,
//! an MPI launcher's environment ([`MPI_LAUNCHER_VARS`]) means `Net::Mpi` in an MPI build
//! and an error saying how to get one otherwise.
//!
//! On MPI the heap's extra views are second mappings of the window's pages
//! ([`handoff::implementor::alias_shared`]), which needs the window memory to be a shared mapping:
//! MPICH and Open MPI allocate their windows (`MPI_Win_allocate_shared`, and on one node
//! `MPI_Win_allocate` too) in `/dev/shm` files. Another library's private memory is an error
//! at `shmem_init` naming it.

use handoff::sync::{Until, Wait};
use handoff::team::{AtomicOp, Route, ShmTransport, SignalOp, TeamError, Transport};

use crate::error::{Result, ShmemError};

/// Variables an MPI launcher sets in every rank's environment: MPICH's Hydra and Slurm's
/// PMI (`PMI_RANK`, `PMI_SIZE`), Open MPI (`OMPI_COMM_WORLD_SIZE`), PMIx launchers
/// (`PMIX_RANK`).
pub const MPI_LAUNCHER_VARS: [&str; 4] =
    ["PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK"];

/// How long a PE that fails on MPI waits before it aborts the job ([`Net::before_failing`]).
#[cfg(feature = "mpi")]
const FAIL_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// The transport of this PE's team.
pub enum Net {
    /// handoff's shared segment (`handoff run`).
    Shm(ShmTransport),
    /// An MPI job (`mpiexec`), through handoff-mpi.
    #[cfg(feature = "mpi")]
    Mpi(handoff_mpi::MpiTransport),
}

// SAFETY: `ShmTransport` is Sync by itself. `MpiTransport` is not (MPI handles and mapped
// pointers), but its own state is atomics and locks, and MPI decides which threads may call
// it: MPI is asked for the thread level the program asked for (`shmem_init`: single;
// `shmem_init_thread`: its level) and this library grants no more than MPI granted
// ([`Net::max_thread_level`], checked by `shmem_init_thread` and reported by
// `shmem_query_thread`), so the PE's threads call into it only as MPI allows; the OpenSHMEM
// layer itself starts no thread.
#[cfg(feature = "mpi")]
unsafe impl Sync for Net {}
// SAFETY: as above: the state moves between threads only as the program's calls do, which
// the thread level granted allows (MPI_THREAD_SERIALIZED and MPI_THREAD_MULTIPLE let any
// thread call; at SINGLE and FUNNELED the program calls from the thread that made it).
#[cfg(feature = "mpi")]
unsafe impl Send for Net {}

/// Runs `$body` with `$x` bound to the transport in use.
macro_rules! each {
    ($self:expr, $x:ident => $body:expr) => {
        match $self {
            Net::Shm($x) => $body,
            #[cfg(feature = "mpi")]
            Net::Mpi($x) => $body,
        }
    };
}

/// `SHMEM_THREAD_SINGLE`, `_FUNNELED`, `_SERIALIZED` (shmem.h).
#[cfg(feature = "mpi")]
const THREAD_SINGLE: i32 = 0;
#[cfg(feature = "mpi")]
const THREAD_FUNNELED: i32 = 1;
#[cfg(feature = "mpi")]
const THREAD_SERIALIZED: i32 = 2;
/// `SHMEM_THREAD_MULTIPLE` (shmem.h).
const THREAD_MULTIPLE: i32 = 3;

/// Whether this process was started by an MPI launcher (one of [`MPI_LAUNCHER_VARS`] set).
pub fn mpi_launched() -> bool {
    MPI_LAUNCHER_VARS
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

impl Net {
    /// Joins the team this process was started in: `handoff run`'s (`HANDOFF_TEAM` set),
    /// else, in an MPI build under an MPI launcher, the MPI job's with a heap of
    /// `mpi_heap()` bytes per PE (called only on that path), with MPI initialized for the
    /// thread level the program asked for, `requested` (`SHMEM_THREAD_SINGLE` for
    /// `shmem_init`; a higher level costs Open MPI's blocking calls a lock, see
    /// `MpiTransport::init_thread`). No barrier.
    pub fn join(mpi_heap: impl FnOnce() -> Result<usize>, requested: i32) -> Result<Net> {
        if std::env::var_os(handoff::implementor::ENV_TEAM).is_some() || !mpi_launched() {
            let _ = (mpi_heap, requested);
            return ShmTransport::from_env().map(Net::Shm).map_err(|e| match e {
                TeamError::NotInTeam { var } => ShmemError::NotLaunched(var),
                e => ShmemError::Team(e),
            });
        }
        Self::join_mpi(mpi_heap, requested)
    }

    #[cfg(feature = "mpi")]
    fn join_mpi(mpi_heap: impl FnOnce() -> Result<usize>, requested: i32) -> Result<Net> {
        use handoff_mpi::Threading;
        let heap = mpi_heap()?;
        let wait = match std::env::var(handoff::implementor::ENV_WAIT) {
            Ok(w) => w.parse().map_err(|e: handoff::sys::Error| {
                ShmemError::Team(TeamError::BadEnv {
                    var: handoff::implementor::ENV_WAIT,
                    value: w.clone(),
                    why: e.to_string(),
                })
            })?,
            Err(_) => Wait::ADAPTIVE,
        };
        let threading = match requested {
            i32::MIN..=THREAD_SINGLE => Threading::Single,
            THREAD_FUNNELED => Threading::Funneled,
            THREAD_SERIALIZED => Threading::Serialized,
            _ => Threading::Multiple,
        };
        Ok(Net::Mpi(handoff_mpi::MpiTransport::init_thread(
            heap, wait, threading,
        )?))
    }

    #[cfg(not(feature = "mpi"))]
    fn join_mpi(_: impl FnOnce() -> Result<usize>, _: i32) -> Result<Net> {
        Err(ShmemError::Invalid(
            "this program was started by an MPI launcher, but this libhandoff_shmem has no \
             MPI transport; build one (`scripts/mpi-test mpich|openmpi cargo build --release \
             -p handoff-shmem --features mpi`) and link with `oshcc --mpi`, or start the \
             program with `handoff run -n N -- PROGRAM`"
                .into(),
        ))
    }

    /// The transport's name for messages: `shm`, or `mpi-shared`, `mpi-mixed`, `mpi-rma`.
    pub fn kind(&self) -> &'static str {
        match self {
            Net::Shm(_) => "shm",
            #[cfg(feature = "mpi")]
            Net::Mpi(m) => match m.window_kind() {
                "shared" => "mpi-shared",
                "mixed" => "mpi-mixed",
                _ => "mpi-rma",
            },
        }
    }

    /// The highest thread level this transport supports: `SHMEM_THREAD_MULTIPLE` on shared
    /// memory; on MPI, the level MPI granted (`MPI_THREAD_SINGLE` after `shmem_init`, as
    /// asked, gives `SHMEM_THREAD_SINGLE`; `shmem_init_thread`'s level otherwise).
    pub fn max_thread_level(&self) -> i32 {
        match self {
            Net::Shm(_) => THREAD_MULTIPLE,
            #[cfg(feature = "mpi")]
            Net::Mpi(x) => match x.threading() {
                handoff_mpi::Threading::Single => THREAD_SINGLE,
                handoff_mpi::Threading::Funneled => THREAD_FUNNELED,
                handoff_mpi::Threading::Serialized => THREAD_SERIALIZED,
                handoff_mpi::Threading::Multiple => THREAD_MULTIPLE,
            },
        }
    }

    /// A second view of this PE's whole heap at an address aligned to `align` (a power of
    /// two, at least a page), so offsets aligned to `align` are aligned addresses on every
    /// PE. Lives until the process ends.
    pub fn local_view_aligned(&self, align: usize) -> Result<*mut u8> {
        match self {
            Net::Shm(x) => Ok(x.local_view_aligned(align)?),
            #[cfg(feature = "mpi")]
            Net::Mpi(x) => {
                let len = x.heap_len();
                let dst = handoff::implementor::reserve_aligned(len, align).map_err(|e| {
                    ShmemError::Invalid(format!("cannot view the symmetric heap aligned: {e}"))
                })?;
                // SAFETY: `dst` is a fresh reservation of `len` bytes nothing references;
                // `map_window_pages` checks the window's pages are one shared mapping.
                unsafe { map_window_pages(x.local_heap(), len, dst) }?;
                Ok(dst)
            }
        }
    }

    /// Maps this PE's heap bytes `[offset, offset + len)` (page aligned) over the pages at
    /// `addr`, replacing them: a second view of the same memory, which peers' puts reach.
    ///
    /// # Safety
    /// As [`ShmTransport::map_local_at`]: `addr` page aligned, what was mapped there is
    /// discarded (copied first by the caller), no Rust reference points into it and no other
    /// thread uses it meanwhile.
    pub unsafe fn map_local_at(&self, offset: usize, len: usize, addr: *mut u8) -> Result<()> {
        match self {
            // SAFETY: the caller's promise, as that method requires.
            Net::Shm(x) => Ok(unsafe { x.map_local_at(offset, len, addr) }?),
            #[cfg(feature = "mpi")]
            Net::Mpi(x) => {
                let end = offset.checked_add(len).filter(|&e| e <= x.heap_len());
                if end.is_none() {
                    return Err(ShmemError::Team(TeamError::OutOfBounds {
                        op: "map_local_at",
                        offset,
                        end: offset.saturating_add(len),
                        len: x.heap_len(),
                    }));
                }
                // SAFETY: the range lies in this PE's heap (checked above), the rest is the
                // caller's promise; `map_window_pages` checks the mapping is shared.
                unsafe { map_window_pages(x.local_heap().add(offset), len, addr) }
            }
        }
    }

    /// Called before this PE reports an error and leaves (`state::fail`). On MPI a PE's
    /// error may be the consequence of another PE's `shmem_global_exit` (its `MPI_Abort`
    /// makes the others' MPI calls fail), and this PE's own abort would then race it for the
    /// job's exit status and print a line the global exit should not: so the PE first waits
    /// `FAIL_GRACE` (5 s), in which the launcher kills it if the job is ending. On shared memory
    /// nothing (the launcher knows a global exit from the segment).
    pub fn before_failing(&self) {
        match self {
            Net::Shm(_) => {}
            #[cfg(feature = "mpi")]
            Net::Mpi(_) => std::thread::sleep(FAIL_GRACE),
        }
    }

    /// Runs `poll` (loads of this PE's heap bytes `[offset, offset + len)`) once, as
    /// `shmem_test*` do: a plain call on shared memory and MPI's shared window (peers' stores
    /// are visible as they land); on MPI's RMA and mixed paths a wait that is already over
    /// ([`Transport::wait_local_on`] with an expired deadline), so the window is synced before
    /// the loads and MPI progresses after a miss. Without that, a program spinning on
    /// `shmem_test` under a library whose RMA needs the target to call MPI (MPICH) never let
    /// a peer's put land. `Ok(None)`: `poll` found nothing.
    #[inline]
    pub fn test_local(
        &self,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
    ) -> Result<Option<usize>> {
        let _ = (offset, len); // the shared-memory arm reads no range
        match self {
            Net::Shm(_) => Ok(poll()),
            #[cfg(feature = "mpi")]
            Net::Mpi(x) if x.window_kind() == "shared" => Ok(poll()),
            #[cfg(feature = "mpi")]
            Net::Mpi(x) => {
                let now = Until::deadline(
                    x.wait_strategy(),
                    handoff::sys::Deadline::after(std::time::Duration::ZERO),
                );
                match x.wait_local_on(offset, len, poll, now, "a test") {
                    Ok(v) => Ok(Some(v)),
                    Err(TeamError::Timeout { .. }) => Ok(None),
                    Err(e) => Err(e.into()),
                }
            }
        }
    }

    /// `shmem_global_exit`: ends every PE with `status`. On shared memory it records the
    /// status for the launcher, stops the other PEs and returns (the caller exits); on MPI
    /// it aborts the job (`MPI_Abort`) and does not return.
    pub fn global_exit(&self, status: i32) {
        match self {
            Net::Shm(x) => x.global_exit(status),
            #[cfg(feature = "mpi")]
            Net::Mpi(x) => x.global_exit(status),
        }
    }
}

/// Makes `[dst, dst + len)` a view of the window pages at `src`, after checking they are one
/// shared mapping (what a second view needs: a private mapping's pages cannot be shared).
///
/// # Safety
/// `[src, src + len)` is this PE's window memory; `dst` as for
/// [`handoff::implementor::alias_shared`] (its old contents discarded, unreferenced, unused by other
/// threads).
#[cfg(feature = "mpi")]
unsafe fn map_window_pages(src: *mut u8, len: usize, dst: *mut u8) -> Result<()> {
    shared_mapping(src as usize, len)?;
    // SAFETY: `shared_mapping` proved `[src, src + len)` lies in one MAP_SHARED mapping;
    // page alignment is checked by the call; the rest is the caller's promise.
    unsafe { handoff::implementor::alias_shared(src, len, dst) }.map_err(|e| {
        ShmemError::Invalid(format!(
            "cannot map the MPI window's pages {src:p} (+{len:#x}) at {dst:p}: {e}"
        ))
    })
}

/// `Ok` when `[addr, addr + len)` lies in one shared (`s`) mapping of `/proc/self/maps`.
#[cfg(feature = "mpi")]
fn shared_mapping(addr: usize, len: usize) -> Result<()> {
    let maps = std::fs::read_to_string("/proc/self/maps")
        .map_err(|e| ShmemError::Invalid(format!("cannot read /proc/self/maps: {e}")))?;
    let line = maps.lines().find(|l| {
        let range = l.split(' ').next().unwrap_or("");
        let mut it = range.split('-').map(|h| usize::from_str_radix(h, 16).ok());
        matches!((it.next(), it.next()), (Some(Some(a)), Some(Some(e))) if a <= addr && addr < e)
    });
    let shared = line.and_then(|l| {
        let mut words = l.split_whitespace();
        let range = words.next()?;
        let end = usize::from_str_radix(range.split('-').nth(1)?, 16).ok()?;
        let perms = words.next()?;
        Some(perms.ends_with('s') && addr.checked_add(len)? <= end)
    });
    match shared {
        Some(true) => Ok(()),
        _ => Err(ShmemError::Invalid(format!(
            "the MPI library's window memory at {addr:#x} ({len} bytes) is not one shared \
             mapping ({}); handoff-shmem maps it a second time (the heap view for \
             shmem_align, the program's static data) and needs an MPI library that allocates \
             windows in shared memory (MPICH and Open MPI do)",
            line.unwrap_or("not mapped").trim()
        ))),
    }
}

impl Transport for Net {
    #[inline]
    fn rank(&self) -> usize {
        each!(self, x => x.rank())
    }
    #[inline]
    fn size(&self) -> usize {
        each!(self, x => x.size())
    }
    #[inline]
    fn heap_len(&self) -> usize {
        each!(self, x => x.heap_len())
    }
    #[inline]
    fn wait_strategy(&self) -> Wait {
        each!(self, x => x.wait_strategy())
    }
    #[inline]
    fn route(&self, pe: usize) -> Option<Route> {
        each!(self, x => x.route(pe))
    }
    #[inline]
    fn crowded_cpu(&self) -> bool {
        each!(self, x => x.crowded_cpu())
    }
    #[inline]
    fn local_heap(&self) -> *mut u8 {
        each!(self, x => x.local_heap())
    }
    #[inline]
    fn peer_heap(&self, pe: usize) -> Option<*mut u8> {
        each!(self, x => x.peer_heap(pe))
    }
    #[inline]
    fn put(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        each!(self, x => x.put(pe, offset, src))
    }
    #[inline]
    fn put_nbi(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        each!(self, x => x.put_nbi(pe, offset, src))
    }
    #[inline]
    fn get(&self, pe: usize, offset: usize, dst: &mut [u8]) -> Result<(), TeamError> {
        each!(self, x => x.get(pe, offset, dst))
    }
    #[inline]
    fn fence(&self) {
        each!(self, x => x.fence())
    }
    #[inline]
    fn quiet(&self) {
        each!(self, x => x.quiet())
    }
    #[inline]
    fn atomic64(&self, pe: usize, offset: usize, op: AtomicOp<u64>) -> Result<u64, TeamError> {
        each!(self, x => x.atomic64(pe, offset, op))
    }
    #[inline]
    fn atomic64_unwatched(
        &self,
        pe: usize,
        offset: usize,
        op: AtomicOp<u64>,
    ) -> Result<u64, TeamError> {
        each!(self, x => x.atomic64_unwatched(pe, offset, op))
    }
    #[inline]
    fn atomic32(&self, pe: usize, offset: usize, op: AtomicOp<u32>) -> Result<u32, TeamError> {
        each!(self, x => x.atomic32(pe, offset, op))
    }
    #[inline]
    fn signal(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        each!(self, x => x.signal(pe, sig, op))
    }
    #[inline]
    fn put_signal(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        sig: usize,
        op: SignalOp,
    ) -> Result<(), TeamError> {
        each!(self, x => x.put_signal(pe, offset, src, sig, op))
    }
    #[inline]
    fn counter_add(&self, pe: usize, ct: usize, n: u64) -> Result<(), TeamError> {
        each!(self, x => x.counter_add(pe, ct, n))
    }
    #[inline]
    fn put_counted(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        ct: usize,
    ) -> Result<(), TeamError> {
        each!(self, x => x.put_counted(pe, offset, src, ct))
    }
    #[inline]
    fn counter_get(&self, ct: usize) -> u64 {
        each!(self, x => x.counter_get(ct))
    }
    #[inline]
    fn counter_set(&self, ct: usize, value: u64) {
        each!(self, x => x.counter_set(ct, value))
    }
    #[inline]
    fn counter_wait(&self, ct: usize, target: u64, until: Until) -> Result<u64, TeamError> {
        each!(self, x => x.counter_wait(ct, target, until))
    }
    #[inline]
    fn wait_local(
        &self,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        each!(self, x => x.wait_local(poll, until, what))
    }
    #[inline]
    fn wait_local_on(
        &self,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        each!(self, x => x.wait_local_on(offset, len, poll, until, what))
    }
    #[inline]
    fn wait_remote_on(
        &self,
        pe: usize,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        each!(self, x => x.wait_remote_on(pe, offset, len, poll, until, what))
    }
    #[inline]
    fn barrier(&self, ranks: &[usize], until: Until) -> Result<(), TeamError> {
        each!(self, x => x.barrier(ranks, until))
    }
    #[inline]
    fn agree(&self, seq: u64, value: u64, until: Until) -> Result<(), TeamError> {
        each!(self, x => x.agree(seq, value, until))
    }
    #[inline]
    fn finish(&self) {
        each!(self, x => x.finish())
    }
}
