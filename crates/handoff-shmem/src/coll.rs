//! Collectives: `shmem_barrier_all`, `shmem_sync_all`, the active-set `shmem_barrier` /
//! `shmem_sync`, `shmem_broadcast32/64`, `shmem_collect32/64`, `shmem_fcollect32/64`, the
//! reductions `shmem_TYPE_OP_to_all`, and their OpenSHMEM 1.5 team forms on
//! `SHMEM_TEAM_WORLD` (`shmem_broadcastmem`, `shmem_collectmem`, `shmem_fcollectmem`,
//! `shmem_TYPE_OP_reduce`), with the team queries of `teams.rs`.
//!
//! The algorithms are chosen by size and by the set's size, the same way on every member.
//! Over a small set (`coll_msgs::FLAT_MAX` members) a small collective synchronizes once:
//! each member's data goes straight to where it is needed with a one-way message
//! (`coll_msgs`) and each member waits only for the messages it needs. Large ones move each
//! byte once, every member copying its share in parallel: broadcast pulls from the root
//! between two barriers, (f)collect and all-to-all put each block into every `dest` once,
//! reductions reduce-scatter and all-gather in one pass (`coll_reduce`). Over a large set the
//! messages are replaced by barriers (⌈log2 p⌉ rounds). The spec makes the caller ensure
//! every `dest` is ready before any PE calls a collective, so members put into each other's
//! `dest` without asking. `pSync` and `pWrk` are accepted and unused.

use std::ffi::{c_int, c_long, c_void};

use handoff::team::Transport;

use crate::coll_msgs::{barrier, Msgs};
pub use crate::coll_reduce::{reduce, Complex, Op, Reduce};
use crate::error::{Result, ShmemError};
use crate::state::{entry, State, COLLECT_AT};

/// The PEs of an active set (`PE_start`, `logPE_stride`, `PE_size`), checked to be PEs of the
/// team and to include this PE.
pub fn active_set(s: &State, start: c_int, log_stride: c_int, size: c_int) -> Result<Vec<usize>> {
    let bad = |why: String| ShmemError::ActiveSet {
        start,
        log_stride,
        size,
        why,
    };
    if start < 0 || size < 1 || !(0..31).contains(&log_stride) {
        return Err(bad(
            "is not a set of PEs: PE_start >= 0, PE_size >= 1 and 0 <= logPE_stride < 31".into(),
        ));
    }
    let stride = 1usize << log_stride;
    let last = (start as usize).saturating_add((size as usize - 1).saturating_mul(stride));
    if last >= s.npes {
        return Err(bad(format!(
            "reaches PE {last}, but there are {} PEs; keep the set within 0..{}",
            s.npes, s.npes
        )));
    }
    let set: Vec<usize> = (0..size as usize)
        .map(|k| start as usize + k * stride)
        .collect();
    if !set.contains(&s.rank) {
        return Err(bad(format!(
            "does not contain this PE ({}); only members of the set call the collective",
            s.rank
        )));
    }
    Ok(set)
}

/// All PEs.
pub fn world(s: &State) -> Vec<usize> {
    (0..s.npes).collect()
}

/// Broadcasts of at most this many bytes (or to one other PE) are pushed by the root into
/// every member's `dest`; larger ones to more members are pulled by every member from the
/// root's `source` at once (the root's link is not the bottleneck).
const PUSH_MAX: usize = 64 << 10;

/// Copies `len` bytes from `src` to `dst` within this PE (they may be the same buffer).
///
/// # Safety
/// Both are valid for `len` bytes.
unsafe fn copy_local(dst: *mut u8, src: *const u8, len: usize) {
    if len > 0 && !std::ptr::eq(dst, src) {
        // SAFETY: the caller's promise; `copy` allows overlap.
        unsafe { std::ptr::copy(src, dst, len) };
    }
}

/// This PE's index in `set`.
fn my_index(s: &State, set: &[usize]) -> usize {
    set.iter().position(|&r| r == s.rank).unwrap_or(0)
}

/// The members of `set` other than this PE.
fn others(s: &State, set: &[usize]) -> Vec<usize> {
    set.iter().copied().filter(|&r| r != s.rank).collect()
}

/// Broadcast of `len` bytes from member `root` (an index into `set`) of `source` to `dest`
/// of the other members (and of the root too when `to_root`).
///
/// Small (or to one other PE): the root puts into every member's `dest` with a message
/// (`coll_msgs`): the members wait for it, the root for nobody (the spec makes the caller
/// ensure every `dest` is ready before any PE calls a broadcast). Large, or over a set too
/// big for messages: a barrier (the root's source is ready), every member copies it, a
/// barrier (nobody reads it any more).
///
/// # Safety
/// `dest` is valid for writes of `len` bytes (it is checked to be symmetric).
pub unsafe fn broadcast(
    s: &State,
    set: &[usize],
    dest: *mut u8,
    source: *const u8,
    len: usize,
    root: c_int,
    to_root: bool,
) -> Result<()> {
    let root = usize::try_from(root)
        .ok()
        .and_then(|r| set.get(r).copied())
        .ok_or_else(|| {
            ShmemError::Invalid(format!(
                "PE_root {root} is not an index into the active set of {} PEs",
                set.len()
            ))
        })?;
    let src = s.offset(source, len, "source")?;
    let dst = s.offset(dest, len, "dest")?;
    if len == 0 {
        return Ok(()); // the same on every member: nothing to wait for
    }
    let msgs = Msgs::flat(s, set.len()).filter(|_| len <= PUSH_MAX || set.len() <= 2);
    if let Some(m) = msgs {
        if s.rank != root {
            return m.wait(&[root]);
        }
        // SAFETY: `source` is this PE's symmetric object of `len` bytes (checked above).
        let data = unsafe { s.src(source, len, "source") }?;
        for &r in set.iter().filter(|&&r| r != root) {
            m.send_put(r, dst, data)?;
        }
        if to_root {
            // SAFETY: the caller's promise for `dest`; `source` as above.
            unsafe { copy_local(dest, source, len) };
        }
        return Ok(());
    }
    barrier(s, set)?;
    if s.rank != root {
        // SAFETY: the caller's promise.
        let d = unsafe { s.dst(dest, len, "dest") }?;
        s.x().get(root, src, d)?;
    } else if to_root {
        // SAFETY: the caller's promise for `dest`; `source` is symmetric (checked above).
        unsafe { copy_local(dest, source, len) };
    }
    barrier(s, set)
}

/// Collect (`fixed`: every member contributes `len` bytes; else each its own `len`) of every
/// member's `source` into `dest`, in set order.
///
/// Every member puts its block straight into every member's `dest` (the spec makes the
/// caller ensure they are ready): each byte is written once per member, by its owner, in
/// parallel. Over a small set, with a message each; a variable-size collect first sends its
/// length (and its data, when it fits a slot) in one message, then the data that did not
/// fit. Over a large set, a barrier ends it (after the lengths' barrier, for `collect`).
///
/// # Safety
/// `dest` is valid for writes of the total.
pub unsafe fn collect(
    s: &State,
    set: &[usize],
    dest: *mut u8,
    source: *const u8,
    len: usize,
    fixed: bool,
) -> Result<()> {
    s.offset(source, len, "source")?;
    // SAFETY: `source` is this PE's symmetric object of `len` bytes (checked above).
    let data = unsafe { s.src(source, len, "source") }?;
    if fixed && len == 0 {
        return Ok(()); // the same on every member: nothing to wait for
    }
    let me = my_index(s, set);
    let others = others(s, set);
    let msgs = Msgs::flat(s, set.len());
    let lens: Vec<usize> = match (&msgs, fixed) {
        (_, true) => vec![len; set.len()],
        (Some(m), false) => {
            let cap = m.slot_len().saturating_sub(8);
            let inline = if len <= cap { data } else { &[][..] };
            for &r in &others {
                m.send_slot(r, &(len as u64).to_ne_bytes(), inline)?;
            }
            m.wait(&others)?;
            // SAFETY: the caller's promise.
            return unsafe { collect_slots(s, m, set, dest, data, cap) };
        }
        (None, false) => {
            use std::sync::atomic::Ordering::Relaxed;
            // Published before the barrier, whose Release/Acquire chain makes it visible;
            // rewritten only after the closing barrier, when every member has read it.
            s.internal_word(COLLECT_AT).store(len as u64, Relaxed);
            barrier(s, set)?;
            let mut lens = Vec::with_capacity(set.len());
            for &r in set {
                let mut w = [0u8; 8];
                s.x().get(r, s.internal + COLLECT_AT, &mut w)?;
                lens.push(u64::from_ne_bytes(w) as usize);
            }
            lens
        }
    };
    let at: usize = lens[..me].iter().sum();
    let total = lens.iter().try_fold(0usize, |a, &l| a.checked_add(l));
    let total = total.ok_or(ShmemError::Overflow("collect"))?;
    let dst = s.offset(dest, total, "dest")?;
    match &msgs {
        Some(m) => {
            for &r in &others {
                m.send_put(r, dst + at, data)?;
            }
        }
        None => {
            for &r in &others {
                s.x().put(r, dst + at, data)?;
            }
        }
    }
    // SAFETY: the caller's promise for `dest` (`at + len <= total`); `source` as above.
    unsafe { copy_local(dest.add(at), source, len) };
    match &msgs {
        Some(m) => m.wait(&others),
        None => barrier(s, set),
    }
}

/// The rest of a variable-size collect over a small set, once every member's first message
/// (its length, and its data when at most `cap` bytes) is here: copies the inline blocks,
/// then sends this PE's block if it was too large and waits for the others' that were.
///
/// # Safety
/// As [`collect`].
unsafe fn collect_slots(
    s: &State,
    m: &Msgs,
    set: &[usize],
    dest: *mut u8,
    data: &[u8],
    cap: usize,
) -> Result<()> {
    let me = my_index(s, set);
    let mut lens = Vec::with_capacity(set.len());
    let mut slots = Vec::with_capacity(set.len());
    for &r in set {
        if r == s.rank {
            lens.push(data.len());
            slots.push(&[][..]);
            continue;
        }
        let slot = m.take_slot(r, m.slot_len());
        let l = u64::from_ne_bytes(slot[..8].try_into().expect("8 bytes")) as usize;
        lens.push(l);
        slots.push(&slot[8..]);
    }
    let total = lens.iter().try_fold(0usize, |a, &l| a.checked_add(l));
    let total = total.ok_or(ShmemError::Overflow("collect"))?;
    let dst = s.offset(dest, total, "dest")?;
    let mut at = 0;
    let mut late = Vec::new();
    for (k, (&l, &slot)) in lens.iter().zip(&slots).enumerate() {
        if k == me {
            // SAFETY: the caller's promise for `dest` (`at + l <= total`); `data` is this
            // PE's source.
            unsafe { copy_local(dest.add(at), data.as_ptr(), l) };
        } else if l <= cap {
            // SAFETY: as above; the slot is this PE's internal block, apart from `dest`.
            unsafe { copy_local(dest.add(at), slot.as_ptr(), l) };
        } else {
            late.push(set[k]);
        }
        at += l;
    }
    if data.len() > cap {
        let mine: usize = lens[..me].iter().sum();
        for &r in set.iter().filter(|&&r| r != s.rank) {
            m.send_put(r, dst + mine, data)?;
        }
    }
    m.wait(&late)
}

/// All-to-all: member `j`'s block `i` of `dest` (`len` bytes) is member `i`'s block `j` of
/// `source`. Every member puts its blocks into the others' `dest` (ready, by the spec's
/// rule), with a message each over a small set, or then a barrier.
///
/// # Safety
/// `dest` is valid for writes of `len * set.len()` bytes.
pub unsafe fn alltoall(
    s: &State,
    set: &[usize],
    dest: *mut u8,
    source: *const u8,
    len: usize,
) -> Result<()> {
    let total = len
        .checked_mul(set.len())
        .ok_or(ShmemError::Overflow("alltoall"))?;
    s.offset(source, total, "source")?;
    let dst = s.offset(dest, total, "dest")?;
    // SAFETY: `source` is this PE's symmetric object of `total` bytes (checked above).
    let data = unsafe { s.src(source, total, "source") }?;
    if total == 0 {
        return Ok(()); // the same on every member: nothing to wait for
    }
    let me = my_index(s, set);
    let msgs = Msgs::flat(s, set.len());
    for (j, &r) in set.iter().enumerate() {
        let block = &data[j * len..(j + 1) * len];
        match &msgs {
            _ if r == s.rank => {}
            Some(m) => m.send_put(r, dst + me * len, block)?,
            None => s.x().put(r, dst + me * len, block)?,
        }
    }
    // SAFETY: the caller's promise for `dest`; `source` as above.
    unsafe { copy_local(dest.add(me * len), source.add(me * len), len) };
    match &msgs {
        Some(m) => m.wait(&others(s, set)),
        None => barrier(s, set),
    }
}

/// Strided all-to-all: member `j` gets member `i`'s `nelems` elements (of `elem` bytes)
/// starting at element `j * nelems * sst`, `sst` apart, into its block `i` (elements
/// `dst` apart from element `i * nelems * dst`). Every member puts its elements into the
/// others' `dest`, as [`alltoall`].
///
/// # Safety
/// `dest` is valid for writes of the strided elements.
#[allow(clippy::too_many_arguments)]
pub unsafe fn alltoalls(
    s: &State,
    set: &[usize],
    dest: *mut u8,
    source: *const u8,
    dst: isize,
    sst: isize,
    nelems: usize,
    elem: usize,
) -> Result<()> {
    if dst < 1 || sst < 1 {
        return Err(ShmemError::Invalid(format!(
            "alltoalls strides {dst} and {sst} must be at least 1 element"
        )));
    }
    let span = |stride: isize| -> Result<usize> {
        let n = set.len().checked_mul(nelems);
        match n {
            Some(0) => Ok(0),
            Some(n) => (n - 1)
                .checked_mul(stride as usize)
                .and_then(|x| x.checked_add(1))
                .and_then(|x| x.checked_mul(elem))
                .ok_or(ShmemError::Overflow("alltoalls")),
            None => Err(ShmemError::Overflow("alltoalls")),
        }
    };
    let (slen, dlen) = (span(sst)?, span(dst)?);
    s.offset(source, slen, "source")?;
    let doff = s.offset(dest, dlen, "dest")?;
    // SAFETY: `source` is this PE's symmetric object of `slen` bytes (checked above).
    let data = unsafe { s.src(source, slen, "source") }?;
    if nelems == 0 {
        return Ok(()); // the same on every member: nothing to wait for
    }
    let me = my_index(s, set);
    let (sst, dst) = (sst as usize, dst as usize);
    let msgs = Msgs::flat(s, set.len());
    for (j, &r) in set.iter().enumerate() {
        for k in 0..nelems {
            let from = (j * nelems + k) * sst * elem;
            let to = (me * nelems + k) * dst * elem;
            let e = &data[from..from + elem];
            if r == s.rank {
                // SAFETY: the caller's promise (the span was checked to be symmetric, so
                // in bounds); source and dest are distinct objects (the spec's rule).
                unsafe { copy_local(dest.add(to), e.as_ptr(), elem) };
            } else {
                s.x().put(r, doff + to, e)?;
            }
        }
        if let (Some(m), true) = (&msgs, r != s.rank) {
            m.send(r)?;
        }
    }
    match &msgs {
        Some(m) => m.wait(&others(s, set)),
        None => barrier(s, set),
    }
}

profiled! {
/// `shmem_barrier_all`: completes this PE's puts, then waits for every PE.
pub extern "C" fn shmem_barrier_all() {
    entry("shmem_barrier_all", |s| Ok(s.team.barrier_all()?))
}
}

profiled! {
/// `shmem_sync_all`: waits for every PE (puts are complete on one node anyway).
pub extern "C" fn shmem_sync_all() {
    entry("shmem_sync_all", |s| Ok(s.team.barrier_all()?))
}
}

profiled! {
/// `shmem_barrier` over an active set (deprecated in 1.5, still common).
pub extern "C" fn shmem_barrier(start: c_int, log_stride: c_int, size: c_int, _psync: *mut c_long) {
    entry("shmem_barrier", |s| {
        barrier(s, &active_set(s, start, log_stride, size)?)
    })
}
}

profiled! {
/// `shmem_sync` over an active set.
pub extern "C" fn shmem_sync(start: c_int, log_stride: c_int, size: c_int, _psync: *mut c_long) {
    entry("shmem_sync", |s| {
        barrier(s, &active_set(s, start, log_stride, size)?)
    })
}
}

macro_rules! bcast_sized {
    ($name:ident, $bytes:expr) => {
        profiled! {
        /// Active-set broadcast of `nelems` elements of this size from member `PE_root`.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems` elements.
        pub unsafe extern "C" fn $name(
            dest: *mut c_void,
            source: *const c_void,
            nelems: usize,
            root: c_int,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                let len = crate::rma::bytes::<[u8; $bytes]>(nelems, stringify!($name))?;
                // SAFETY: the caller's promise.
                unsafe { broadcast(s, &set, dest.cast(), source.cast(), len, root, false) }
            })
        }
        }
    };
}
bcast_sized!(shmem_broadcast32, 4);
bcast_sized!(shmem_broadcast64, 8);

macro_rules! collect_sized {
    ($name:ident, $bytes:expr, $fixed:expr) => {
        profiled! {
        /// Active-set (f)collect of `nelems` elements of this size from every member.
        ///
        /// # Safety
        /// `dest` is valid for writes of the total.
        pub unsafe extern "C" fn $name(
            dest: *mut c_void,
            source: *const c_void,
            nelems: usize,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                let len = crate::rma::bytes::<[u8; $bytes]>(nelems, stringify!($name))?;
                // SAFETY: the caller's promise.
                unsafe { collect(s, &set, dest.cast(), source.cast(), len, $fixed) }
            })
        }
        }
    };
}
collect_sized!(shmem_collect32, 4, false);
collect_sized!(shmem_collect64, 8, false);
collect_sized!(shmem_fcollect32, 4, true);
collect_sized!(shmem_fcollect64, 8, true);

macro_rules! alltoall_sized {
    ($name:ident, $bytes:expr) => {
        profiled! {
        /// Active-set all-to-all of `nelems` elements of this size per pair of members.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems * PE_size` elements.
        pub unsafe extern "C" fn $name(
            dest: *mut c_void,
            source: *const c_void,
            nelems: usize,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                let len = crate::rma::bytes::<[u8; $bytes]>(nelems, stringify!($name))?;
                // SAFETY: the caller's promise.
                unsafe { alltoall(s, &set, dest.cast(), source.cast(), len) }
            })
        }
        }
    };
}
alltoall_sized!(shmem_alltoall32, 4);
alltoall_sized!(shmem_alltoall64, 8);

macro_rules! alltoalls_sized {
    ($name:ident, $bytes:expr) => {
        profiled! {
        /// Active-set strided all-to-all of `nelems` elements of this size per pair.
        ///
        /// # Safety
        /// `dest` is valid for writes of the strided elements.
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            dest: *mut c_void,
            source: *const c_void,
            dst: isize,
            sst: isize,
            nelems: usize,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                // SAFETY: the caller's promise.
                unsafe {
                    alltoalls(
                        s,
                        &set,
                        dest.cast(),
                        source.cast(),
                        dst,
                        sst,
                        nelems,
                        $bytes,
                    )
                }
            })
        }
        }
    };
}
alltoalls_sized!(shmem_alltoalls32, 4);
alltoalls_sized!(shmem_alltoalls64, 8);

/// Defines `shmem_TYPE_OP_to_all`.
macro_rules! to_all {
    ($t:ty, $op:expr; $name:ident) => {
        profiled! {
        /// Active-set reduction (`dest` may equal `source`).
        ///
        /// # Safety
        /// `dest` is valid for writes of `nreduce` elements.
        pub unsafe extern "C" fn $name(
            dest: *mut $t,
            source: *const $t,
            nreduce: c_int,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _pwrk: *mut $t,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                let n = usize::try_from(nreduce).map_err(|_| ShmemError::Overflow("nreduce"))?;
                // SAFETY: the caller's promise.
                unsafe { reduce(s, &set, dest, source, n, $op) }
            })
        }
        }
    };
}

include!("coll_types.rs");
