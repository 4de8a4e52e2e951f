//! The lab's data-touching kernels (fill a block, sum a block), at the width of the widest
//! vector unit the CPU has, whatever the build flags.
//!
//! A default `cargo build --release` targets generic x86-64, i.e. SSE2: a plain loop would run
//! at a half or a quarter of what the machine allows. Each kernel is therefore written once
//! per instruction set ([`Isa`]) with `std::arch` intrinsics inside `#[target_feature]`
//! functions, and [`Kernel::best`] picks the widest one this CPU supports at run time
//! (detected once). Intrinsics, not plain loops: a plain loop in an `avx2` function built with
//! `-C target-cpu=native` may still come out 512 bits wide, and `--kernel avx2` must mean AVX2.
//!
//! The sum is exact in i64 for any block (no overflow, whatever the values): each 64 Ki-element
//! chunk is summed twice in 32-bit lanes, once wrapping (the sum modulo 2^32) and once over
//! the high halves `x >> 16` (exact: at most 2^16 values in [-2^15, 2^15)); the two give the
//! exact chunk sum (see `combine`). That is three vector operations per vector of input,
//! cheaper than widening every element to 64 bits.
//!
//! [`Isa::Scalar`] is the paper's loop without the compiler's vectorization: one element per
//! volatile access, to show what vectorization gains.

use std::sync::OnceLock;

/// An instruction set a kernel is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Isa {
    /// One element at a time (volatile accesses: never vectorized).
    Scalar,
    /// 128-bit SSE2 (every x86-64 CPU).
    Sse2,
    /// 256-bit AVX2.
    Avx2,
    /// 512-bit AVX-512 (foundation).
    Avx512,
    /// 128-bit NEON (every aarch64 CPU).
    Neon,
}

impl Isa {
    /// Every instruction set, widest first (the order [`Kernel::best`] tries them in).
    pub const ALL: [Isa; 5] = [Isa::Avx512, Isa::Avx2, Isa::Neon, Isa::Sse2, Isa::Scalar];

    /// The name used by `--kernel` and in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Sse2 => "sse2",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
            Isa::Neon => "neon",
        }
    }

    /// Whether this CPU can run it (asks the CPU; see [`available`] for the cached list).
    fn detect(self) -> bool {
        match self {
            Isa::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Sse2 => std::arch::is_x86_feature_detected!("sse2"),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            _ => false,
        }
    }
}

impl std::fmt::Display for Isa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a kernel cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// Not a kernel name.
    #[error("unknown kernel '{0}': use auto, avx512, avx2, sse2, neon or scalar")]
    Unknown(String),
    /// This CPU lacks the instructions.
    #[error(
        "kernel {wanted} is not available on this CPU, which has: {have} \
         (use --kernel auto for the widest)"
    )]
    Unavailable {
        /// The kernel asked for.
        wanted: Isa,
        /// What this CPU has, widest first.
        have: String,
    },
}

/// The instruction sets this CPU can run, widest first; detected once per process.
pub fn available() -> &'static [Isa] {
    static AVAILABLE: OnceLock<Vec<Isa>> = OnceLock::new();
    AVAILABLE.get_or_init(|| Isa::ALL.into_iter().filter(|i| i.detect()).collect())
}

/// A kernel this CPU can run: the only way to call the `#[target_feature]` functions, so a
/// value of this type is the proof that their instructions exist here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kernel {
    isa: Isa,
}

impl Kernel {
    /// The widest kernel this CPU has.
    pub fn best() -> Kernel {
        Kernel {
            isa: available().first().copied().unwrap_or(Isa::Scalar),
        }
    }

    /// The kernel for `isa`, if this CPU has it.
    pub fn new(isa: Isa) -> Result<Kernel, KernelError> {
        if available().contains(&isa) {
            Ok(Kernel { isa })
        } else {
            Err(KernelError::Unavailable {
                wanted: isa,
                have: available()
                    .iter()
                    .map(|i| i.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }

    /// `auto` (the widest) or a kernel's name, as given to `--kernel`.
    pub fn choose(name: &str) -> Result<Kernel, KernelError> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("auto") {
            return Ok(Kernel::best());
        }
        let isa = Isa::ALL
            .into_iter()
            .find(|i| i.as_str().eq_ignore_ascii_case(name))
            .ok_or_else(|| KernelError::Unknown(name.to_string()))?;
        Kernel::new(isa)
    }

    /// Its instruction set.
    pub fn isa(self) -> Isa {
        self.isa
    }

    /// Its name (`avx2`...).
    pub fn name(self) -> &'static str {
        self.isa.as_str()
    }

    /// Writes `value` to every element of `block`.
    #[inline]
    pub fn fill(self, block: &mut [i32], value: i32) {
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Kernel holds Avx512 only when this CPU has avx512f (`Kernel::new`).
            Isa::Avx512 => unsafe { x86::fill_avx512(block, value) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Kernel holds Avx2 only when this CPU has avx2 (`Kernel::new`).
            Isa::Avx2 => unsafe { x86::fill_avx2(block, value) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Kernel holds Sse2 only when this CPU has sse2 (`Kernel::new`).
            Isa::Sse2 => unsafe { x86::fill_sse2(block, value) },
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => arm::fill_neon(block, value),
            _ => fill_scalar(block, value),
        }
    }

    /// The exact sum of `block`, whatever its values, for any block of up to 2^32 elements
    /// (16 GiB; |sum| <= 2^32 * 2^31 = 2^63); beyond, the sum wraps instead of panicking
    /// (the experiment's values, 1 and 2, stay exact for any size).
    #[inline]
    pub fn sum(self, block: &[i32]) -> i64 {
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Kernel holds Avx512 only when this CPU has avx512f (`Kernel::new`).
            Isa::Avx512 => unsafe { x86::sum_avx512(block) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Kernel holds Avx2 only when this CPU has avx2 (`Kernel::new`).
            Isa::Avx2 => unsafe { x86::sum_avx2(block) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a Kernel holds Sse2 only when this CPU has sse2 (`Kernel::new`).
            Isa::Sse2 => unsafe { x86::sum_sse2(block) },
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => arm::sum_neon(block),
            _ => sum_scalar(block),
        }
    }
}

impl Default for Kernel {
    fn default() -> Self {
        Kernel::best()
    }
}

/// Elements per chunk of the split sum: the high halves of 2^16 elements sum exactly in i32,
/// and the low halves (< 2^16 each) sum to less than 2^32 (see [`combine`]).
const CHUNK: usize = 1 << 16;

/// The exact sum of a chunk of at most [`CHUNK`] elements from `wrap`, the sum of its
/// elements modulo 2^32, and `hi`, the (wrapping) sum of `x >> 16` over them.
///
/// With `x = (x >> 16) * 2^16 + lo`, `lo` in [0, 2^16): `S = H * 2^16 + L` with
/// `0 <= L < CHUNK * 2^16 = 2^32`, so `L = (wrap - H * 2^16) mod 2^32`. `H` fits in i32:
/// |H| <= 2^16 * 2^15 = 2^31 (and the positive bound is 2^16 * (2^15 - 1)).
#[inline(always)]
fn combine(wrap: u32, hi: i32) -> i64 {
    let high = (hi as i64) << 16;
    high + wrap.wrapping_sub(high as u32) as i64
}

/// The split sum of a chunk's tail, element by element, continuing `(wrap, hi)`.
#[inline(always)]
fn tail_sum(tail: &[i32], mut wrap: u32, mut hi: i32) -> (u32, i32) {
    for &x in tail {
        wrap = wrap.wrapping_add(x as u32);
        hi = hi.wrapping_add(x >> 16);
    }
    (wrap, hi)
}

/// One element at a time, through volatile stores the compiler cannot vectorize.
#[inline(never)]
fn fill_scalar(block: &mut [i32], value: i32) {
    for x in block.iter_mut() {
        // SAFETY: `x` is a valid, aligned, exclusive reference.
        unsafe { std::ptr::write_volatile(x, value) };
    }
}

/// One element at a time, through volatile loads the compiler cannot vectorize.
#[inline(never)]
fn sum_scalar(block: &[i32]) -> i64 {
    let mut s = 0i64;
    for x in block {
        // SAFETY: `x` is a valid, aligned reference.
        s = s.wrapping_add(unsafe { std::ptr::read_volatile(x) } as i64);
    }
    s
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{combine, tail_sum, CHUNK};
    use std::arch::x86_64::*;

    /// Generates a fill and a sum for one vector width: 4 vectors per step (4 independent
    /// accumulator pairs, enough to keep the adders busy), unaligned loads and stores, and a
    /// scalar tail.
    macro_rules! kernels {
        ($feature:literal, $fill:ident, $sum:ident, $vec:ty, $lanes:literal,
         $set1:ident, $zero:ident, $load:ident, $store:ident, $add:ident, $srai:ident) => {
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $fill(block: &mut [i32], value: i32) {
                let v = $set1(value);
                let mut steps = block.chunks_exact_mut(4 * $lanes);
                for step in &mut steps {
                    let p = step.as_mut_ptr().cast::<$vec>();
                    // SAFETY: `step` holds exactly 4 vectors of i32; unaligned stores.
                    unsafe {
                        $store(p, v);
                        $store(p.add(1), v);
                        $store(p.add(2), v);
                        $store(p.add(3), v);
                    }
                }
                for x in steps.into_remainder() {
                    *x = value;
                }
            }

            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $sum(block: &[i32]) -> i64 {
                let mut total = 0i64;
                for chunk in block.chunks(CHUNK) {
                    let mut w = [$zero(); 4];
                    let mut h = [$zero(); 4];
                    let steps = chunk.chunks_exact(4 * $lanes);
                    let tail = steps.remainder();
                    for step in steps {
                        let p = step.as_ptr().cast::<$vec>();
                        for k in 0..4 {
                            // SAFETY: `step` holds exactly 4 vectors of i32; unaligned load.
                            let x = unsafe { $load(p.add(k)) };
                            w[k] = $add(w[k], x);
                            h[k] = $add(h[k], $srai::<16>(x));
                        }
                    }
                    let wv = $add($add(w[0], w[1]), $add(w[2], w[3]));
                    let hv = $add($add(h[0], h[1]), $add(h[2], h[3]));
                    let (mut wl, mut hl) = ([0i32; $lanes], [0i32; $lanes]);
                    // SAFETY: each array is exactly one vector wide; unaligned stores.
                    unsafe {
                        $store(wl.as_mut_ptr().cast::<$vec>(), wv);
                        $store(hl.as_mut_ptr().cast::<$vec>(), hv);
                    }
                    let wrap = wl.iter().fold(0u32, |a, &x| a.wrapping_add(x as u32));
                    let hi = hl.iter().fold(0i32, |a, &x| a.wrapping_add(x));
                    let (wrap, hi) = tail_sum(tail, wrap, hi);
                    total = total.wrapping_add(combine(wrap, hi));
                }
                total
            }
        };
    }

    kernels!(
        "sse2",
        fill_sse2,
        sum_sse2,
        __m128i,
        4,
        _mm_set1_epi32,
        _mm_setzero_si128,
        _mm_loadu_si128,
        _mm_storeu_si128,
        _mm_add_epi32,
        _mm_srai_epi32
    );
    kernels!(
        "avx2",
        fill_avx2,
        sum_avx2,
        __m256i,
        8,
        _mm256_set1_epi32,
        _mm256_setzero_si256,
        _mm256_loadu_si256,
        _mm256_storeu_si256,
        _mm256_add_epi32,
        _mm256_srai_epi32
    );
    kernels!(
        "avx512f",
        fill_avx512,
        sum_avx512,
        __m512i,
        16,
        _mm512_set1_epi32,
        _mm512_setzero_si512,
        _mm512_loadu_si512,
        _mm512_storeu_si512,
        _mm512_add_epi32,
        _mm512_srai_epi32
    );
}

/// NEON is part of every aarch64 CPU and of the default aarch64 target, so a plain loop in
/// 32-bit lanes is compiled to 128-bit NEON; the split sum keeps it exact.
#[cfg(target_arch = "aarch64")]
mod arm {
    use super::{combine, tail_sum, CHUNK};

    #[inline(never)]
    pub(super) fn fill_neon(block: &mut [i32], value: i32) {
        block.fill(value);
    }

    #[inline(never)]
    pub(super) fn sum_neon(block: &[i32]) -> i64 {
        block
            .chunks(CHUNK)
            .map(|c| {
                let (w, h) = tail_sum(c, 0, 0);
                combine(w, h)
            })
            .fold(0i64, i64::wrapping_add)
    }
}

#[cfg(test)]
mod tests;
