//! Processes: identity that survives pid reuse (pid + start time), liveness checks, signals
//! and pidfds. (The guards that keep child processes from outliving a test or a crash live
//! in the `handoff-probe` crate.)

use crate::sys::Deadline;
use crate::sys::{Error, Result};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::time::Duration;

/// A signal to send to a process ([`ProcessId::kill`], [`kill`], [`Pidfd::send_signal`]):
/// the ones a supervisor of cooperating processes needs, named as in `signal(7)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnixSignal {
    /// `SIGKILL`: ends the process; cannot be caught.
    Kill,
    /// `SIGTERM`: asks the process to end.
    Term,
    /// `SIGINT`: as Ctrl-C.
    Int,
    /// `SIGHUP`: the terminal went away.
    Hup,
    /// `SIGQUIT`: as Ctrl-\\.
    Quit,
    /// `SIGSTOP`: stops the process; cannot be caught.
    Stop,
    /// `SIGCONT`: resumes a stopped process.
    Cont,
    /// `SIGCHLD`: ignored by default, so it only tests that the process can be signalled.
    Child,
    /// `SIGUSR1`.
    Usr1,
    /// `SIGUSR2`.
    Usr2,
}

impl UnixSignal {
    /// The signal's number on this platform (`libc::SIGKILL`...).
    pub fn number(self) -> i32 {
        self.rustix().as_raw()
    }

    fn rustix(self) -> rustix::process::Signal {
        use rustix::process::Signal as S;
        match self {
            UnixSignal::Kill => S::KILL,
            UnixSignal::Term => S::TERM,
            UnixSignal::Int => S::INT,
            UnixSignal::Hup => S::HUP,
            UnixSignal::Quit => S::QUIT,
            UnixSignal::Stop => S::STOP,
            UnixSignal::Cont => S::CONT,
            UnixSignal::Child => S::CHILD,
            UnixSignal::Usr1 => S::USR1,
            UnixSignal::Usr2 => S::USR2,
        }
    }
}

/// A process identity that a reused pid cannot fake: the pid plus the process start time
/// (field 22 of `/proc/PID/stat`, clock ticks since boot).
///
/// `repr(C)` and pointer-free, so it may be stored in a shared segment; all-zero means "none".
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ProcessId {
    /// The pid.
    pub pid: u32,
    _pad: u32,
    /// Start time in clock ticks since boot, as the kernel reports it.
    pub start_time: u64,
}

/// What `/proc` says about a pid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Liveness {
    /// Running (or sleeping), and it is the same process (start time matches).
    Alive,
    /// No such process, a zombie, or the pid now belongs to another process.
    Gone,
}

impl ProcessId {
    /// Builds an identity from its parts.
    pub fn new(pid: u32, start_time: u64) -> Self {
        ProcessId {
            pid,
            _pad: 0,
            start_time,
        }
    }

    /// The calling process.
    pub fn current() -> Self {
        let pid = std::process::id();
        let (_, start) = read_stat(pid)
            .expect("reading /proc/self/stat failed: is /proc mounted?")
            .expect("our own /proc entry is missing");
        ProcessId::new(pid, start)
    }

    /// The identity of a live pid (e.g. a child just spawned).
    pub fn of(pid: u32) -> Result<Self> {
        match read_stat(pid)? {
            Some((state, start)) if state != 'Z' && state != 'X' => Ok(ProcessId::new(pid, start)),
            _ => Err(Error::io(
                format!("reading /proc/{pid}/stat"),
                std::io::Error::from_raw_os_error(libc::ESRCH),
            )),
        }
    }

    /// Whether this is the null identity (all zero).
    pub fn is_none(&self) -> bool {
        self.pid == 0
    }

    /// Whether the process still runs. A zombie counts as gone: it can no longer act.
    pub fn liveness(&self) -> Liveness {
        if self.pid == 0 {
            return Liveness::Gone;
        }
        match read_stat(self.pid) {
            Ok(Some((state, start)))
                if start == self.start_time && state != 'Z' && state != 'X' =>
            {
                Liveness::Alive
            }
            Ok(_) => Liveness::Gone,
            // /proc unreadable for another reason (e.g. hidepid): fall back to kill(pid, 0),
            // which cannot detect pid reuse but never reports a live process as gone.
            Err(_) => {
                if kill0(self.pid) {
                    Liveness::Alive
                } else {
                    Liveness::Gone
                }
            }
        }
    }

    /// Shorthand for `liveness() == Alive`.
    pub fn is_alive(&self) -> bool {
        self.liveness() == Liveness::Alive
    }

    /// Whether the process is alive but stopped: state `T` (SIGSTOP, SIGTSTP, Ctrl-Z) or `t`
    /// (held by a debugger) in `/proc/PID/stat`. It runs again only after SIGCONT; a wait
    /// on it cannot end by itself. `false` when it runs, is gone or cannot be read.
    pub fn is_stopped(&self) -> bool {
        self.pid != 0
            && matches!(
                read_stat(self.pid),
                Ok(Some((state, start))) if start == self.start_time && matches!(state, 'T' | 't')
            )
    }
}

impl ProcessId {
    /// A pidfd for this process, checked to still be *this* process (start time) after
    /// opening, so a reused pid is never signalled or waited on by mistake.
    ///
    /// `Ok(None)` when the kernel has no pidfds (before Linux 5.3); an error with `ESRCH`
    /// when the process is gone.
    pub fn pidfd(&self) -> Result<Option<Pidfd>> {
        let Some(fd) = Pidfd::open(self.pid)? else {
            return Ok(None);
        };
        // The pidfd pins the process it refers to: if /proc still shows our start time now,
        // the pidfd refers to our process and keeps referring to it.
        if self.is_alive() {
            Ok(Some(fd))
        } else {
            Err(gone(self.pid))
        }
    }

    /// Sends `signal` unless the process is gone (an `ESRCH` error then). Uses a pidfd where
    /// the kernel has them, so a reused pid is never hit.
    pub fn kill(&self, signal: UnixSignal) -> Result<()> {
        match self.pidfd()? {
            Some(fd) => fd.send_signal(signal),
            None if self.is_alive() => kill(self.pid, signal),
            None => Err(gone(self.pid)),
        }
    }

    /// Waits until the process is gone or `deadline` passes: `Ok(true)` when it is gone,
    /// `Ok(false)` on timeout. Sleeps in `poll` on a pidfd where the kernel has them,
    /// otherwise polls `/proc` every millisecond or so.
    pub fn wait_exit(&self, deadline: Deadline) -> Result<bool> {
        match self.pidfd() {
            Ok(Some(fd)) => fd.wait_exit(deadline),
            Err(Error::Io { ref source, .. }) if source.raw_os_error() == Some(libc::ESRCH) => {
                Ok(true)
            }
            Err(e) => Err(e),
            Ok(None) => loop {
                if !self.is_alive() {
                    return Ok(true);
                }
                if deadline.expired() {
                    return Ok(false);
                }
                std::thread::sleep(Duration::from_millis(1).min(deadline.remaining()));
            },
        }
    }
}

fn gone(pid: u32) -> Error {
    Error::io(
        format!("process {pid}"),
        std::io::Error::from_raw_os_error(libc::ESRCH),
    )
}

fn rustix_pid(pid: u32) -> Result<rustix::process::Pid> {
    i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
        .ok_or_else(|| {
            Error::InvalidArgument(format!("{pid} is not a pid (must be 1..={})", i32::MAX))
        })
}

/// Sends `signal` to process `pid` (`kill(2)`). Pid 0 and pids above `i32::MAX` are
/// rejected (they would mean a process group or "every process"). Prefer
/// [`ProcessId::kill`], which cannot hit a reused pid.
pub fn kill(pid: u32, signal: UnixSignal) -> Result<()> {
    let p = rustix_pid(pid)?;
    rustix::process::kill_process(p, signal.rustix())
        .map_err(|e| Error::io(format!("kill({pid}, {signal:?})"), e))
}

/// A pidfd: a file descriptor that refers to one process for as long as it is open, even
/// after its pid is reused.
#[derive(Debug)]
pub struct Pidfd {
    fd: OwnedFd,
    pid: u32,
}

impl Pidfd {
    /// Opens a pidfd for `pid` (`pidfd_open(2)`). `Ok(None)` when the kernel has no pidfds
    /// (Linux before 5.3, or a sandbox that blocks the call): callers fall back to polling
    /// [`ProcessId::liveness`]. An `ESRCH` error when there is no such process.
    ///
    /// Prefer [`ProcessId::pidfd`], which also checks that the pid was not reused.
    pub fn open(pid: u32) -> Result<Option<Pidfd>> {
        let p = rustix_pid(pid)?;
        match rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty()) {
            Ok(fd) => Ok(Some(Pidfd { fd, pid })),
            Err(rustix::io::Errno::NOSYS) | Err(rustix::io::Errno::PERM) => Ok(None),
            Err(e) => Err(Error::io(format!("pidfd_open({pid})"), e)),
        }
    }

    /// The pid this pidfd was opened for.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Sends `signal` to the process (`pidfd_send_signal(2)`); `ESRCH` once it has exited.
    pub fn send_signal(&self, signal: UnixSignal) -> Result<()> {
        rustix::process::pidfd_send_signal(&self.fd, signal.rustix()).map_err(|e| {
            Error::io(
                format!("pidfd_send_signal(pid {}, {signal:?})", self.pid),
                e,
            )
        })
    }

    /// Whether the process has exited (a zombie counts as exited). Does not block.
    pub fn has_exited(&self) -> Result<bool> {
        self.poll(0)
    }

    /// Blocks until the process exits (`Ok(true)`) or `deadline` passes (`Ok(false)`);
    /// [`has_exited`](Self::has_exited) is the form that does not wait.
    pub fn wait_exit(&self, deadline: Deadline) -> Result<bool> {
        loop {
            let left = deadline.remaining();
            if left.is_zero() {
                return self.has_exited();
            }
            // Round up so we do not wake just before the deadline and spin.
            let timeout_ms = i32::try_from(left.as_nanos().div_ceil(1_000_000)).unwrap_or(i32::MAX);
            if self.poll(timeout_ms)? {
                return Ok(true);
            }
        }
    }

    /// One `poll` for readability (= exited) with a timeout in milliseconds (-1 would wait forever).
    fn poll(&self, timeout_ms: i32) -> Result<bool> {
        let mut pfd = libc::pollfd {
            fd: self.fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            // SAFETY: `pfd` is one valid pollfd that lives across the call, and nfds is 1.
            // (libc because rustix's poll needs a feature this crate does not enable.)
            let n = unsafe { libc::poll(&mut pfd, 1, timeout_ms) };
            if n >= 0 {
                return Ok(n > 0 && pfd.revents & (libc::POLLIN | libc::POLLHUP) != 0);
            }
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() != Some(libc::EINTR) {
                return Err(Error::io(format!("poll(pidfd of {})", self.pid), err));
            }
            if timeout_ms == 0 {
                continue;
            }
            // Interrupted: report "not yet"; `wait_exit` recomputes the timeout and retries.
            return Ok(false);
        }
    }
}

/// Blocks until one of `fds` has exited (`Ok(true)`) or `timeout` passes (`Ok(false)`;
/// also when a signal interrupts the wait, so the caller looks at its flags at once).
pub fn wait_any_exit(fds: &[&Pidfd], timeout: Duration) -> Result<bool> {
    let mut pfds: Vec<libc::pollfd> = fds
        .iter()
        .map(|f| libc::pollfd {
            fd: f.fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    let ms = i32::try_from(timeout.as_nanos().div_ceil(1_000_000)).unwrap_or(i32::MAX);
    // SAFETY: `pfds` is a valid array of `pfds.len()` pollfds that lives across the call.
    // (libc because rustix's poll needs a feature this crate does not enable.)
    let n = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, ms) };
    if n >= 0 {
        return Ok(n > 0);
    }
    let err = std::io::Error::last_os_error();
    if err.raw_os_error() == Some(libc::EINTR) {
        return Ok(false);
    }
    Err(Error::io("poll(pidfds)".to_string(), err))
}

impl AsFd for Pidfd {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

/// Environment variable [`ChildGuard::spawn`] sets in the child: the parent's pid, for
/// [`die_with_parent`].
fn kill0(pid: u32) -> bool {
    let Some(p) = rustix::process::Pid::from_raw(pid as i32) else {
        return false;
    };
    match rustix::process::test_kill_process(p) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    }
}

/// Reads state and start time from `/proc/PID/stat`; `Ok(None)` when there is no such pid.
fn read_stat(pid: u32) -> Result<Option<(char, u64)>> {
    let path = format!("/proc/{pid}/stat");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ESRCH) => return Ok(None),
        Err(e) => return Err(Error::io(format!("reading {path}"), e)),
    };
    Ok(parse_stat(&text))
}

/// Parses `pid (comm) state ... starttime ...`; comm may hold spaces and parentheses, so
/// fields are counted after the last `)`.
fn parse_stat(text: &str) -> Option<(char, u64)> {
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    let state = fields.next()?.chars().next()?;
    // After the state (field 3), start time is field 22: 18 more fields to skip.
    let start = fields.nth(18)?.parse().ok()?;
    Some((state, start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_handles_odd_comm() {
        let line = "1234 (a) b (c)) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 424242 99 100";
        assert_eq!(parse_stat(line), Some(('S', 424242)));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn current_is_alive() {
        let me = ProcessId::current();
        assert_eq!(me.pid, std::process::id());
        assert!(me.start_time > 0);
        assert!(me.is_alive());
        assert_eq!(ProcessId::of(me.pid).unwrap(), me);
    }

    #[test]
    fn reused_pid_is_not_the_peer() {
        let me = ProcessId::current();
        let impostor = ProcessId::new(me.pid, me.start_time + 1);
        assert_eq!(impostor.liveness(), Liveness::Gone);
        assert_eq!(ProcessId::default().liveness(), Liveness::Gone);
    }

    #[test]
    fn exited_child_is_gone() {
        let mut child = std::process::Command::new("sleep")
            .arg("10")
            .spawn()
            .unwrap();
        let id = ProcessId::of(child.id()).unwrap();
        assert!(id.is_alive());
        child.kill().unwrap();
        // Before reaping it is a zombie: already gone.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while id.is_alive() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(id.liveness(), Liveness::Gone);
        child.wait().unwrap();
        assert_eq!(id.liveness(), Liveness::Gone);
    }
}
