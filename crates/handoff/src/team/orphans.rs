//! Keeping a team from outliving its launcher: what [`super::Launch`] does to each PE before
//! it runs, and the watcher that ends the team and removes its segment if the launcher is
//! killed without a chance to clean up (SIGKILL).
//!
//! - Each PE runs in its own process group (its pgid is its pid), so ending the group ends
//!   the PE's own children too (a PE that is `sh -c ...`).
//! - Each PE asks the kernel for SIGKILL when the launcher's thread that spawned it dies
//!   (`PR_SET_PDEATHSIG`), set in the child between `fork` and `exec` with async-signal-safe
//!   calls only (`prctl`, `getppid`); a launcher already gone by then fails the spawn.
//! - A watcher process (`/bin/sh`, in its own process group, so a terminal's Ctrl-C does not
//!   reach it) reads one line from a pipe the launcher holds. The launcher writes that line
//!   when it ends normally (the watcher then exits doing nothing); if the launcher dies first
//!   the read sees end-of-file and the watcher kills the PEs' process groups and removes the
//!   segment from `/dev/shm`.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

use crate::sys::mem::SHM_DIR;

/// Sets up `cmd` as a PE: its own process group, SIGKILL on the launcher's death.
pub(super) fn guard_pe(cmd: &mut Command) {
    let launcher = std::process::id() as libc::pid_t;
    cmd.process_group(0);
    // SAFETY: the closure runs in the forked child before exec and calls only prctl and
    // getppid, both async-signal-safe system calls; it allocates nothing and takes no lock.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            // The launcher died between fork and prctl: the signal will never come.
            if libc::getppid() != launcher {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

/// Sends `signal` to PE `pid`'s process group (the PE and its own children). Errors (the
/// group is gone) are ignored.
pub(super) fn signal_group(pid: u32, signal: i32) {
    if pid == 0 || pid > i32::MAX as u32 {
        return;
    }
    // SAFETY: kill(2) with a negative pid (a process group) has no memory effects.
    unsafe {
        libc::kill(-(pid as libc::pid_t), signal);
    }
}

/// The watcher of a team whose launcher may die without cleaning up (module docs).
#[derive(Debug)]
pub(super) struct Watcher {
    child: Child,
}

/// What the watcher runs: wait for one line (the launcher ended normally) or end-of-file
/// (the launcher died), then end the PEs' groups and remove the segment.
const SCRIPT: &str = "trap '' INT TERM HUP; if read -r _; then exit 0; fi; \
                      for g in \"$@\"; do kill -KILL \"$g\" 2>/dev/null; done; rm -f -- \"$0\"";

impl Watcher {
    /// Starts the watcher for segment `name` (full name) and the PEs `pids`; `None` if
    /// `/bin/sh` cannot be started (the PEs still die with the launcher; only the segment
    /// would be left for `handoff cleanup`).
    pub(super) fn start(name: &str, pids: &[u32]) -> Option<Watcher> {
        let path = format!("{SHM_DIR}{name}");
        let child = Command::new("/bin/sh")
            .arg("-c")
            .arg(SCRIPT)
            .arg(path)
            .args(pids.iter().map(|p| format!("-{p}")))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .ok()?;
        Some(Watcher { child })
    }

    /// The launcher ends normally: the watcher exits without touching anything.
    pub(super) fn dismiss(mut self) {
        if let Some(mut pipe) = self.child.stdin.take() {
            let _ = pipe.write_all(b"done\n");
        }
        let _ = self.child.wait();
    }
}
