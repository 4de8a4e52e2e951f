//! The reductions (`shmem_TYPE_OP_to_all`, `shmem_TYPE_OP_reduce`): the operators, their
//! element types, and the algorithm, chosen by size:
//!
//! - **small** (a set of at most `coll_msgs::FLAT_MAX` members, at most [`SMALL_MAX`] bytes,
//!   [`PAIR_SMALL_MAX`] for two members, that fit a slot): every member sends its operand to every other member's slot in one
//!   message, waits for theirs, and combines them in set order: one synchronization, and the
//!   same bits on every member (floating-point results too);
//! - **large**: reduce-scatter and all-gather in one pass between two barriers: member `k`
//!   combines chunk `k` (1/p of the elements) of every member's source, block by block in its
//!   cache, and puts the result block into every member's `dest`. Each member reads `n`
//!   elements and writes `n`; nobody makes a serial pass over remote memory. Each chunk is
//!   computed once, so every member gets the same bits.
//!
//! `dest == source` is safe in both: a small reduction's operands travel in slots before any
//! member writes its `dest`; in a large one, chunk `k` of a source is read only by member `k`,
//! just before it writes chunk `k` of the results. `pSync` and `pWrk` are not used.

use std::mem::size_of;

use handoff::team::Transport;

use crate::coll_msgs::{barrier, Msgs, FLAT_MAX};
use crate::error::{Result, ShmemError};
use crate::state::State;

/// Reductions of at most this many bytes go in one message per pair of members.
const SMALL_MAX: usize = 16 << 10;
/// The same bound for a pair of members. Both algorithms then move about the same bytes
/// between the two, but the small one copies the whole operand through a slot first: on the
/// 2-vCPU EPYC VM (`coll_run.sh` with `BASE_LIB`, 2026-11-28 17:48, int sum, 2 PEs) the large
/// one took 1.23 and 1.68 µs at 8 and 16 KiB where the small one took 1.57 and 3.11, and
/// both 0.72-0.78 µs at 4 KiB.
const PAIR_SMALL_MAX: usize = 2 << 10;
/// Bytes of each operand combined at a time in a large reduction (two stay in L1).
const BLOCK: usize = 8 << 10;

/// A reduction operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    And,
    Or,
    Xor,
    Max,
    Min,
    Sum,
    Prod,
}

/// An element type of the reductions.
pub trait Reduce: Copy + Default {
    /// `acc[i] = acc[i] op b[i]` for every `i` (`b` is at least as long as `acc`).
    fn combine(op: Op, acc: &mut [Self], b: &[Self]);
}

/// `acc[i] = f(acc[i], b[i])`: one loop per operator (so it vectorizes), not a `match` per
/// element.
#[inline(always)]
fn zip<T: Copy>(acc: &mut [T], b: &[T], f: impl Fn(T, T) -> T) {
    for (a, &b) in acc.iter_mut().zip(b) {
        *a = f(*a, b);
    }
}

macro_rules! reduce_int {
    ($($t:ty),*) => {$(
        impl Reduce for $t {
            fn combine(op: Op, acc: &mut [Self], b: &[Self]) {
                match op {
                    Op::And => zip(acc, b, |x, y| x & y),
                    Op::Or => zip(acc, b, |x, y| x | y),
                    Op::Xor => zip(acc, b, |x, y| x ^ y),
                    Op::Max => zip(acc, b, |x: Self, y| x.max(y)),
                    Op::Min => zip(acc, b, |x: Self, y| x.min(y)),
                    Op::Sum => zip(acc, b, |x: Self, y| x.wrapping_add(y)),
                    Op::Prod => zip(acc, b, |x: Self, y| x.wrapping_mul(y)),
                }
            }
        }
    )*};
}
reduce_int!(i8, i16, i32, i64, u8, u16, u32, u64, isize, usize);

macro_rules! reduce_float {
    ($($t:ty),*) => {$(
        impl Reduce for $t {
            fn combine(op: Op, acc: &mut [Self], b: &[Self]) {
                match op {
                    Op::Max => zip(acc, b, |x: Self, y| x.max(y)),
                    Op::Min => zip(acc, b, |x: Self, y| x.min(y)),
                    Op::Sum => zip(acc, b, |x, y| x + y),
                    Op::Prod => zip(acc, b, |x, y| x * y),
                    // Not declared for floating types in shmem.h.
                    Op::And | Op::Or | Op::Xor => unreachable!("bitwise reduction of a float"),
                }
            }
        }
    )*};
}
reduce_float!(f32, f64);

/// A C complex number (`float _Complex`, `double _Complex`): real, imaginary.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Complex<T>(pub T, pub T);

macro_rules! reduce_complex {
    ($($t:ty),*) => {$(
        impl Reduce for Complex<$t> {
            fn combine(op: Op, acc: &mut [Self], b: &[Self]) {
                match op {
                    Op::Sum => zip(acc, b, |a, b| Complex(a.0 + b.0, a.1 + b.1)),
                    Op::Prod => zip(acc, b, |a, b| {
                        Complex(a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
                    }),
                    // Only sum and prod are declared for complex types in shmem.h.
                    _ => unreachable!("{op:?} reduction of a complex number"),
                }
            }
        }
    )*};
}
reduce_complex!(f32, f64);

/// The bytes of a buffer of `T`.
fn as_bytes<T: Copy>(v: &[T]) -> &[u8] {
    // SAFETY: T is a plain C scalar (every caller's T): its bytes may be read; the slice
    // covers exactly the elements.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), std::mem::size_of_val(v)) }
}

/// The bytes of a private buffer of `T`, writable.
fn as_bytes_mut<T: Copy>(v: &mut [T]) -> &mut [u8] {
    // SAFETY: T is a plain C scalar (every caller's T): any bytes are a valid value; the
    // slice covers exactly the vector's elements.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), std::mem::size_of_val(v)) }
}

/// Reduces `n` elements of every member's `source` with `op` into `dest` (`dest` may be
/// `source`).
///
/// # Safety
/// `dest` is valid for writes of `n` elements.
pub unsafe fn reduce<T: Reduce>(
    s: &State,
    set: &[usize],
    dest: *mut T,
    source: *const T,
    n: usize,
    op: Op,
) -> Result<()> {
    let len = n
        .checked_mul(size_of::<T>())
        .ok_or(ShmemError::Overflow("nreduce"))?;
    let src = s.offset(source.cast(), len, "source")?;
    let dst = s.offset(dest.cast(), len, "dest")?;
    if n == 0 {
        return Ok(()); // the same on every member: nothing to wait for
    }
    let max = if set.len() == 2 {
        PAIR_SMALL_MAX
    } else {
        SMALL_MAX
    };
    let small = Msgs::flat(s, set.len()).filter(|m| len <= m.slot_len().min(max));
    match small {
        // SAFETY: the caller's promise; `source` is this PE's symmetric object of n
        // elements (checked above).
        Some(m) => unsafe { reduce_small(s, &m, set, dest, source, n, op) },
        None => reduce_large::<T>(s, set, dst, src, n, op),
    }
}

/// The small reduction (module docs).
///
/// # Safety
/// `dest` is valid for writes and `source` for reads of `n` elements.
unsafe fn reduce_small<T: Reduce>(
    s: &State,
    m: &Msgs,
    set: &[usize],
    dest: *mut T,
    source: *const T,
    n: usize,
    op: Op,
) -> Result<()> {
    let len = n * size_of::<T>();
    // At most FLAT_MAX members: the lists live on the stack (no allocation per call).
    let mut others = [0usize; FLAT_MAX];
    let mut no = 0;
    for &r in set.iter().filter(|&&r| r != s.rank) {
        others[no] = r;
        no += 1;
    }
    let others = &others[..no];
    {
        // SAFETY: the caller's promise; the slice ends before `dest` is written.
        let mine = unsafe { std::slice::from_raw_parts(source.cast::<u8>(), len) };
        for &r in others {
            m.send_slot(r, &[], mine)?;
        }
    }
    m.wait(others)?;
    let mut operands = [source; FLAT_MAX];
    for (o, &r) in operands.iter_mut().zip(set) {
        if r != s.rank {
            *o = m.take_slot(r, len).as_ptr().cast();
        }
    }
    let operands = &operands[..set.len()];
    const { assert!(std::mem::align_of::<T>() <= 16 && size_of::<T>() <= BLOCK) };
    // Uninitialized, then only the elements used zeroed: a small reduction must not pay for
    // clearing 8 KiB.
    let mut block = std::mem::MaybeUninit::<[u128; BLOCK / 16]>::uninit();
    let cap = n.min(BLOCK / size_of::<T>().max(1));
    // SAFETY: T is a plain C scalar of alignment at most 16 (every caller's T, checked
    // above), so the 16-aligned block holds `cap` of them; the first `cap` are zeroed before
    // the slice is made, and all bits zero is a valid value of every such T.
    let acc: &mut [T] = unsafe {
        let p = block.as_mut_ptr().cast::<T>();
        std::ptr::write_bytes(p, 0, cap);
        std::slice::from_raw_parts_mut(p, cap)
    };
    let mut lo = 0;
    while lo < n {
        let k = acc.len().min(n - lo);
        for (i, &p) in operands.iter().enumerate() {
            // SAFETY: each operand holds n elements (this PE's source, the caller's promise;
            // or a slot of `len` bytes, 64-aligned, written before the message `wait` saw);
            // the slice ends before `dest` is written below.
            let b = unsafe { std::slice::from_raw_parts(p.add(lo), k) };
            if i == 0 {
                acc[..k].copy_from_slice(b);
            } else {
                T::combine(op, &mut acc[..k], b);
            }
        }
        // SAFETY: the caller's promise for `dest`; `acc` is private.
        unsafe { std::ptr::copy_nonoverlapping(acc.as_ptr(), dest.add(lo), k) };
        lo += k;
    }
    Ok(())
}

/// The large reduction (module docs): `dst` and `src` are partition offsets.
fn reduce_large<T: Reduce>(
    s: &State,
    set: &[usize],
    dst: usize,
    src: usize,
    n: usize,
    op: Op,
) -> Result<()> {
    let size = size_of::<T>();
    let me = set.iter().position(|&r| r == s.rank).unwrap_or(0);
    let per = n.div_ceil(set.len().max(1));
    let lo = (me * per).min(n);
    let hi = (lo + per).min(n);
    let block = (BLOCK / size.max(1)).max(1).min(hi - lo);
    let mut acc = vec![T::default(); block];
    let mut tmp = vec![T::default(); block];
    // Every source is ready, and every dest (the spec's rule).
    barrier(s, set)?;
    let mut at = lo;
    while at < hi {
        let k = block.min(hi - at);
        for (i, &r) in set.iter().enumerate() {
            let into = if i == 0 { &mut acc[..k] } else { &mut tmp[..k] };
            s.x().get(r, src + at * size, as_bytes_mut(into))?;
            if i > 0 {
                T::combine(op, &mut acc[..k], &tmp[..k]);
            }
        }
        for &r in set {
            s.x().put(r, dst + at * size, as_bytes(&acc[..k]))?;
        }
        at += k;
    }
    // Every chunk is in every dest (the barrier completes the puts), and nobody reads a
    // source any more.
    barrier(s, set)
}
