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
//!   reach it) owns the team segment from before its creation: started with the segment's
//!   name (chosen before the file exists), it reads lines from a pipe the launcher holds.
//!   Each PE writes its own process group to that pipe between `fork` and `exec` (the pipe's
//!   end is still open in the child then), so the watcher knows every PE that may run,
//!   however early the launcher dies. The launcher writes `done` when it ends normally (the
//!   watcher then exits doing nothing); if the launcher dies first the read sees end-of-file
//!   and the watcher kills the PEs' process groups and removes the segment from `/dev/shm`.
//!   A SIGKILL at any moment of `Launch::spawn` so leaves no segment and no PE.

use std::io::Write;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

use crate::sys::mem::SHM_DIR;

/// Sets up `cmd` as a PE: its own process group, SIGKILL on the launcher's death, and its
/// group told to the watcher whose pipe is `watcher` (if one runs) before it execs.
pub(super) fn guard_pe(cmd: &mut Command, watcher: Option<RawFd>) {
    let launcher = std::process::id() as libc::pid_t;
    cmd.process_group(0);
    // SAFETY: the closure runs in the forked child before exec and calls only prctl,
    // getppid and `tell_watcher`'s calls, all async-signal-safe; it allocates nothing and
    // takes no lock.
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
            if let Some(fd) = watcher {
                tell_watcher(fd);
            }
            // The launcher died between fork and prctl: the signal will never come.
            if libc::getppid() != launcher {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

/// Writes `-PID\n` (this process's group: a PE leads its own) to the watcher's pipe `fd`,
/// in a child between `fork` and `exec`: async-signal-safe calls only, no allocation. One
/// write of a few bytes to a pipe is atomic, so lines of PEs never mix. A watcher that is
/// gone makes the write fail (EPIPE, with SIGPIPE ignored for it), which is not the PE's
/// failure.
fn tell_watcher(fd: RawFd) {
    let mut line = [0u8; 16];
    let mut at = line.len() - 1;
    line[at] = b'\n';
    // SAFETY: getpid has no preconditions.
    let mut pid = unsafe { libc::getpid() } as u32;
    loop {
        at -= 1;
        line[at] = b'0' + (pid % 10) as u8;
        pid /= 10;
        if pid == 0 {
            break;
        }
    }
    at -= 1;
    line[at] = b'-';
    // SAFETY: signal(2) and write(2) are async-signal-safe; `line[at..]` is a live buffer
    // of that length; the old SIGPIPE disposition is put back before exec.
    unsafe {
        let old = libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        let _ = libc::write(fd, line[at..].as_ptr().cast(), line.len() - at);
        libc::signal(libc::SIGPIPE, old);
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

/// What the watcher runs: collect the PEs' process groups (`-PID` lines) until `done` (the
/// launcher ended normally: exit) or end-of-file (the launcher died), then end the groups
/// and remove the segment (`$0`).
const SCRIPT: &str = "trap '' INT TERM HUP PIPE; \
                      while read -r l; do case $l in done) exit 0;; -[0-9]*) set -- \"$@\" \"$l\";; esac; done; \
                      for g in \"$@\"; do kill -KILL \"$g\" 2>/dev/null; done; rm -f -- \"$0\"";

impl Watcher {
    /// Starts the watcher for segment `name` (full name; the segment need not exist yet);
    /// `None` if `/bin/sh` cannot be started (the PEs still die with the launcher; only the
    /// segment would be left for `handoff cleanup`).
    pub(super) fn start(name: &str) -> Option<Watcher> {
        let path = format!("{SHM_DIR}{name}");
        let child = Command::new("/bin/sh")
            .arg("-c")
            .arg(SCRIPT)
            .arg(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .ok()?;
        Some(Watcher { child })
    }

    /// The pipe PEs tell their groups through ([`guard_pe`]).
    pub(super) fn fd(&self) -> Option<RawFd> {
        self.child.stdin.as_ref().map(|p| p.as_raw_fd())
    }
}

impl Drop for Watcher {
    /// The launcher ends normally (the segment is removed by its owner): the watcher exits
    /// without touching anything.
    fn drop(&mut self) {
        if let Some(mut pipe) = self.child.stdin.take() {
            let _ = pipe.write_all(b"done\n");
        }
        let _ = self.child.wait();
    }
}
