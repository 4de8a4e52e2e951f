//! The signals that end a command early: SIGINT (Ctrl-C), SIGTERM (a batch scheduler, `kill`)
//! and SIGHUP (a closed terminal). [`catch`] records the one received in [`SIGNAL`] and sets
//! the lab's cancel flag ([`CANCEL`]); `handoff run` forwards it to the PEs,
//! `bench` and `report` stop at the next safe point. Either way the command then exits with
//! 128 + the signal's number ([`exit_code`]) and says which signal it was ([`describe`]), as
//! a shell reports a process that signal ended.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Set by SIGINT (Ctrl-C), SIGTERM or SIGHUP: experiments stop at the next safe point.
pub static CANCEL: AtomicBool = AtomicBool::new(false);

/// The signal received (0: none yet).
pub static SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    // Atomic stores are async-signal-safe.
    SIGNAL.store(sig, Ordering::Relaxed);
    CANCEL.store(true, Ordering::SeqCst);
}

/// Records SIGINT, SIGTERM and SIGHUP sent to this process (to its pid, or to its terminal's
/// process group) instead of dying of them.
pub fn catch() {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" value; the handler
        // only stores into atomics (async-signal-safe).
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            act.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
    }
}

/// The signal received, if any.
pub fn received() -> Option<i32> {
    Some(SIGNAL.load(Ordering::Relaxed)).filter(|&s| s != 0)
}

/// The exit code for a command that signal `sig` ended: 128 + `sig` (130 SIGINT, 143 SIGTERM,
/// 129 SIGHUP).
pub fn exit_code(sig: i32) -> u8 {
    128u8.wrapping_add(sig as u8)
}

/// How signal `sig` is named in a message.
pub fn describe(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "interrupted (Ctrl-C, SIGINT)",
        libc::SIGTERM => "terminated (SIGTERM)",
        libc::SIGHUP => "hung up (SIGHUP)",
        _ => "stopped by a signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(exit_code(libc::SIGINT), 130);
        assert_eq!(exit_code(libc::SIGTERM), 143);
        assert_eq!(exit_code(libc::SIGHUP), 129);
        assert!(describe(libc::SIGTERM).contains("SIGTERM"));
    }
}
