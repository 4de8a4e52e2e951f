//! Calling the armed ring ([`LazyBell::ring_armed`]) from the inline fast path without
//! clobbering the caller's registers (x86-64): a `preserve_most`-style call, which stable
//! Rust has no calling convention for.
//!
//! Why: `ring` is inlined into every push and pop, so its out-of-line call sits inside the
//! caller's loop. An ordinary call clobbers the nine caller-saved integer registers, so a
//! loop that pushes and pops keeps its positions in the six callee-saved ones or on the
//! stack across it, although the call almost never runs (measured with
//! `examples/queue_bench`, one-thread code path: the ring with its call ran at 0.84-1.0x
//! rtrb; the same armed-word check branching to a plain store, no call, 1.14-1.20x). Here
//! the call goes through a naked trampoline that saves and restores those nine registers,
//! and the `asm!` call site declares only the vector and x87 registers as clobbered: the
//! register allocator keeps the loop's integers where they are.

use super::LazyBell;

/// Rings `bell`, found in the `armed` state `armed`, keeping every general-purpose register.
#[inline(always)]
pub(super) fn ring_armed(bell: &LazyBell, armed: u32) {
    // SAFETY: `trampoline` follows the contract of this block: it takes `bell` in rdi and
    // `armed` in esi, restores every general-purpose register and rsp, leaves the direction
    // flag clear, and clobbers at most the registers listed here (the vector, mask and x87
    // registers a Rust callee may use; the flags are clobbered by default). Not `nostack`:
    // the call pushes, and Rust then keeps the stack below rsp free and rsp aligned for a
    // call. `entry` cannot unwind (an `extern "C"` function aborts on a panic).
    unsafe {
        core::arch::asm!(
            "call {t}",
            t = sym trampoline,
            in("rdi") bell as *const LazyBell,
            in("esi") armed,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            out("mm0") _, out("mm1") _, out("mm2") _, out("mm3") _,
            out("mm4") _, out("mm5") _, out("mm6") _, out("mm7") _,
            out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
            out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
        );
        #[cfg(target_feature = "avx512f")]
        avx512_clobbers();
    }
}

/// With AVX-512 enabled, a callee may also use xmm16-31 and the mask registers: an empty
/// block that clobbers them, right after the call, so that the caller keeps nothing there
/// across it.
#[cfg(target_feature = "avx512f")]
#[inline(always)]
unsafe fn avx512_clobbers() {
    // SAFETY: an empty block; it only tells the compiler these registers hold nothing.
    unsafe {
        core::arch::asm!(
            "",
            out("xmm16") _, out("xmm17") _, out("xmm18") _, out("xmm19") _,
            out("xmm20") _, out("xmm21") _, out("xmm22") _, out("xmm23") _,
            out("xmm24") _, out("xmm25") _, out("xmm26") _, out("xmm27") _,
            out("xmm28") _, out("xmm29") _, out("xmm30") _, out("xmm31") _,
            out("k1") _, out("k2") _, out("k3") _, out("k4") _,
            out("k5") _, out("k6") _, out("k7") _,
            options(nomem, nostack, preserves_flags),
        );
    }
}

/// Saves the nine caller-saved general-purpose registers, calls [`entry`] (its arguments
/// still in rdi and esi), restores them. On entry rsp is 8 mod 16 (the asm block's call
/// pushed the return address onto a call-aligned stack); nine pushes make it 0 mod 16, as
/// the call to `entry` needs.
#[unsafe(naked)]
unsafe extern "C" fn trampoline() {
    core::arch::naked_asm!(
        "push rax",
        "push rcx",
        "push rdx",
        "push rsi",
        "push rdi",
        "push r8",
        "push r9",
        "push r10",
        "push r11",
        "call {entry}",
        "pop r11",
        "pop r10",
        "pop r9",
        "pop r8",
        "pop rdi",
        "pop rsi",
        "pop rdx",
        "pop rcx",
        "pop rax",
        "ret",
        entry = sym entry,
    );
}

/// The C-ABI entry the trampoline calls. `extern "C"`: a panic here aborts instead of
/// unwinding through the trampoline.
extern "C" fn entry(bell: *const LazyBell, armed: u32) {
    // SAFETY: `bell` is the `&LazyBell` passed to `ring_armed`, alive for the whole call.
    unsafe { &*bell }.ring_armed_call(armed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atomic::Ordering;
    use crate::queue::doorbell::{ARMED, ASKED};

    /// Every general-purpose register the asm block may hold a value in comes back from the
    /// trampoline as it went in, and the call reached the ring: it acknowledged an asked
    /// bell (the fenced path, the one that runs code). Fails if the trampoline forgets to
    /// save a register (each holds a distinct value here).
    #[test]
    fn trampoline_keeps_every_register_and_rings() {
        let bell = LazyBell::default();
        for round in 0..16u64 {
            bell.armed.store(ASKED, Ordering::Relaxed);
            let want: [u64; 11] = std::array::from_fn(|i| (round << 32) | (0xA0 + i as u64));
            let mut got = want;
            let bell_ptr = &bell as *const LazyBell as u64;
            let (mut rdi, mut rsi) = (bell_ptr, u64::from(ASKED));
            // SAFETY: the same contract as `ring_armed`'s block, with every register the
            // trampoline must keep given a value and read back.
            unsafe {
                core::arch::asm!(
                    "call {t}",
                    t = sym trampoline,
                    inout("rdi") rdi,
                    inout("rsi") rsi,
                    inout("rax") got[0], inout("rcx") got[1], inout("rdx") got[2],
                    inout("r8") got[3], inout("r9") got[4], inout("r10") got[5],
                    inout("r11") got[6], inout("r12") got[7], inout("r13") got[8],
                    inout("r14") got[9], inout("r15") got[10],
                    out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                    out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                    out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
                    out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
                );
            }
            assert_eq!(got, want, "round {round}");
            assert_eq!((rdi, rsi), (bell_ptr, u64::from(ASKED)), "round {round}");
            assert_eq!(bell.armed(), ARMED, "the ring ran and acknowledged");
        }
    }
}
