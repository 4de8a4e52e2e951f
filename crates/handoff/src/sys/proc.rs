//! Processes: identity that survives pid reuse (pid + start time), liveness checks, signals
//! and pidfds, and the guards that keep child processes from outliving a test or a crash:
//! [`set_parent_death_signal`] (in the child), [`ChildGuard`] and [`Watchdog`] (in the parent).

use crate::sys::Deadline;
use crate::{Error, Result};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::process::{Child, Command, ExitStatus, Output};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

pub use rustix::process::Signal;

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
    pub fn kill(&self, signal: Signal) -> Result<()> {
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
            Ok(Some(fd)) => fd.wait_exit(Some(deadline)),
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
pub fn kill(pid: u32, signal: Signal) -> Result<()> {
    let p = rustix_pid(pid)?;
    rustix::process::kill_process(p, signal)
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
    pub fn send_signal(&self, signal: Signal) -> Result<()> {
        rustix::process::pidfd_send_signal(&self.fd, signal).map_err(|e| {
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
    /// `None` waits forever.
    pub fn wait_exit(&self, deadline: Option<Deadline>) -> Result<bool> {
        loop {
            let timeout_ms = match deadline {
                None => -1,
                Some(d) => {
                    let left = d.remaining();
                    if left.is_zero() {
                        return self.has_exited();
                    }
                    // Round up so we do not wake just before the deadline and spin.
                    i32::try_from(left.as_nanos().div_ceil(1_000_000)).unwrap_or(i32::MAX)
                }
            };
            if self.poll(timeout_ms)? {
                return Ok(true);
            }
        }
    }

    /// One `poll` for readability (= exited) with a timeout in milliseconds (-1: forever).
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

impl AsFd for Pidfd {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

/// Environment variable [`ChildGuard::spawn`] sets in the child: the parent's pid, for
/// [`die_with_parent`].
///
/// Processes the child spawns in turn inherit it: spawn them with [`ChildGuard::spawn`]
/// (which overwrites it) or remove it (`Command::env_remove`), or their
/// [`die_with_parent`] sees the wrong parent and exits.
pub const PARENT_PID_ENV: &str = "HANDOFF_PARENT_PID";

/// Exit status of a child whose parent was already gone when it called
/// [`set_parent_death_signal`].
pub const PARENT_GONE_EXIT_CODE: i32 = 86;

/// For a child process, first thing after it starts: asks the kernel to SIGKILL us when our
/// parent dies (`PR_SET_PDEATHSIG`), then closes the race where the parent died before that
/// call: if our parent is no longer `expected_parent`, exits at once with
/// [`PARENT_GONE_EXIT_CODE`].
///
/// Linux counts the *thread* that spawned us as the parent: a child spawned from a
/// short-lived thread is killed when that thread exits. Spawn long-lived children from a
/// thread that lives as long as they should (e.g. the main thread).
pub fn set_parent_death_signal(expected_parent: u32) -> Result<()> {
    imp_pdeath::set()?;
    let parent = rustix::process::getppid().map_or(0, |p| p.as_raw_nonzero().get() as u32);
    if parent != expected_parent {
        eprintln!(
            "handoff: parent process {expected_parent} is gone (our parent is now {parent}); \
             exiting"
        );
        std::process::exit(PARENT_GONE_EXIT_CODE);
    }
    Ok(())
}

/// [`set_parent_death_signal`] with the parent pid from [`PARENT_PID_ENV`] (set by
/// [`ChildGuard::spawn`]). Without the variable, sets the signal only; the check for a
/// parent that already died is then skipped.
pub fn die_with_parent() -> Result<()> {
    match std::env::var(PARENT_PID_ENV)
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
    {
        Some(parent) => set_parent_death_signal(parent),
        None => imp_pdeath::set(),
    }
}

#[cfg(target_os = "linux")]
mod imp_pdeath {
    use super::*;

    pub fn set() -> Result<()> {
        rustix::process::set_parent_process_death_signal(Some(Signal::KILL))
            .map_err(|e| Error::io("prctl(PR_SET_PDEATHSIG, SIGKILL)", e))
    }
}

#[cfg(not(target_os = "linux"))]
mod imp_pdeath {
    use super::*;

    pub fn set() -> Result<()> {
        Err(Error::Unsupported("parent-death signal"))
    }
}

/// A child process that is SIGKILLed and reaped when the guard is dropped (at the end of a
/// scope, or while unwinding from a panic), unless it was already waited for.
#[derive(Debug)]
pub struct ChildGuard {
    child: Option<Child>,
    id: ProcessId,
}

impl ChildGuard {
    /// Spawns `cmd` with [`PARENT_PID_ENV`] set to our pid and guards it.
    pub fn spawn(cmd: &mut Command) -> Result<ChildGuard> {
        let child = cmd
            .env(PARENT_PID_ENV, std::process::id().to_string())
            .spawn()
            .map_err(|e| Error::io(format!("spawning {:?}", cmd.get_program()), e))?;
        Ok(ChildGuard::new(child))
    }

    /// Guards a child that is already running.
    pub fn new(child: Child) -> ChildGuard {
        let pid = child.id();
        let start = match read_stat(pid) {
            Ok(Some((_, start))) => start,
            // Cannot happen for an unreaped child with /proc mounted; zero makes the
            // identity report "gone", which only disables liveness-based features.
            _ => 0,
        };
        ChildGuard {
            child: Some(child),
            id: ProcessId::new(pid, start),
        }
    }

    /// The child's pid.
    pub fn id(&self) -> u32 {
        self.id.pid
    }

    /// The child's identity (pid + start time), e.g. for a [`Watchdog`].
    pub fn process_id(&self) -> ProcessId {
        self.id
    }

    /// The guarded child (for its pipes).
    pub fn child_mut(&mut self) -> &mut Child {
        self.child
            .as_mut()
            .expect("ChildGuard holds its child until consumed")
    }

    /// Sends SIGKILL (a no-op once the child was reaped).
    pub fn kill(&mut self) -> Result<()> {
        let pid = self.id();
        self.child_mut()
            .kill()
            .map_err(|e| Error::io(format!("kill({pid}, SIGKILL)"), e))
    }

    /// Waits for the child to exit and reaps it.
    pub fn wait(&mut self) -> Result<ExitStatus> {
        let pid = self.id();
        self.child_mut()
            .wait()
            .map_err(|e| Error::io(format!("waitpid({pid})"), e))
    }

    /// Reaps the child if it has exited, without blocking.
    pub fn try_wait(&mut self) -> Result<Option<ExitStatus>> {
        let pid = self.id();
        self.child_mut()
            .try_wait()
            .map_err(|e| Error::io(format!("waitpid({pid}, WNOHANG)"), e))
    }

    /// Waits for the child to exit until `deadline`: `Ok(None)` if it still runs then (it is
    /// not killed; dropping the guard does that).
    pub fn wait_deadline(&mut self, deadline: Deadline) -> Result<Option<ExitStatus>> {
        loop {
            if let Some(status) = self.try_wait()? {
                return Ok(Some(status));
            }
            if deadline.expired() {
                return Ok(None);
            }
            // Bounded slices: also correct when the start time is unknown (identity "gone").
            self.id
                .wait_exit(Deadline::after(Duration::from_millis(10)).min(deadline))?;
        }
    }

    /// Collects the child's remaining stdout/stderr and waits for it (as
    /// [`Child::wait_with_output`]). The guard is consumed, so use a [`Watchdog`] if the
    /// child might hang.
    pub fn wait_with_output(mut self) -> Result<Output> {
        let pid = self.id();
        let child = self
            .child
            .take()
            .expect("ChildGuard holds its child until consumed");
        child
            .wait_with_output()
            .map_err(|e| Error::io(format!("waiting for the output of {pid}"), e))
    }

    /// Gives the child back, unguarded.
    pub fn into_inner(mut self) -> Child {
        self.child
            .take()
            .expect("ChildGuard holds its child until consumed")
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // std never signals a child it has already reaped, so this cannot hit a reused
            // pid; errors mean it already exited.
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A thread that SIGKILLs the processes it watches if a deadline passes before the watchdog
/// is dropped. For tests and the lab: whatever hangs, no process outlives the deadline.
///
/// Dropping the watchdog disarms it (and joins its thread, promptly).
#[derive(Debug)]
pub struct Watchdog {
    shared: Arc<WatchdogShared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[derive(Debug, Default)]
struct WatchdogShared {
    state: Mutex<WatchdogState>,
    cond: Condvar,
}

#[derive(Debug, Default)]
struct WatchdogState {
    pids: Vec<ProcessId>,
    disarmed: bool,
    fired: bool,
}

impl Watchdog {
    /// Starts a watchdog that kills `pids` (and any added later with [`Watchdog::watch`])
    /// once `timeout` has passed.
    pub fn new(pids: impl IntoIterator<Item = ProcessId>, timeout: Duration) -> Watchdog {
        let shared = Arc::new(WatchdogShared::default());
        shared.lock().pids.extend(pids);
        let deadline = Deadline::after(timeout);
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("handoff-watchdog".into())
            .spawn(move || s.run(deadline, timeout))
            .expect("spawning the watchdog thread failed");
        Watchdog {
            shared,
            thread: Some(thread),
        }
    }

    /// Adds a process to kill when the deadline passes (killed at once if it already has).
    pub fn watch(&self, pid: ProcessId) {
        let mut st = self.shared.lock();
        if st.fired {
            let _ = pid.kill(Signal::KILL);
        }
        st.pids.push(pid);
    }

    /// Whether the deadline passed and the watched processes were killed.
    pub fn fired(&self) -> bool {
        self.shared.lock().fired
    }
}

impl WatchdogShared {
    fn lock(&self) -> std::sync::MutexGuard<'_, WatchdogState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn run(&self, deadline: Deadline, timeout: Duration) {
        let mut st = self.lock();
        while !st.disarmed {
            let left = deadline.remaining();
            if left.is_zero() {
                st.fired = true;
                let alive: Vec<u32> = st
                    .pids
                    .iter()
                    .filter(|p| p.kill(Signal::KILL).is_ok())
                    .map(|p| p.pid)
                    .collect();
                eprintln!("handoff watchdog: {timeout:?} passed; SIGKILLed processes {alive:?}");
                return;
            }
            st = self
                .cond
                .wait_timeout(st, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.shared.lock().disarmed = true;
        self.shared.cond.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

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

    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    /// Role a re-executed test binary plays in the tests below.
    const ROLE_ENV: &str = "HANDOFF_TEST_PROC_ROLE";
    const CHILD_TEST: &str = "sys::proc::tests::child_role";
    /// A child never lives longer than this, even if every other guard fails.
    const CHILD_MAX_LIFE: Duration = Duration::from_secs(60);

    fn reexec(role: &str) -> Command {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args(["--exact", CHILD_TEST, "--nocapture", "--test-threads=1"])
            .env(ROLE_ENV, role);
        cmd
    }

    /// Reads lines until one contains `marker`; returns the rest of that line.
    fn read_marker(out: impl std::io::Read, marker: &str) -> String {
        for line in BufReader::new(out).lines() {
            let line = line.unwrap();
            // libtest prints "test NAME ... " without a newline before the test's output.
            if let Some(at) = line.find(marker) {
                return line[at + marker.len()..].trim().to_owned();
            }
        }
        panic!("child closed its stdout before printing {marker}");
    }

    /// The child side of the cross-process tests; does nothing when run normally.
    #[test]
    fn child_role() {
        let Ok(role) = std::env::var(ROLE_ENV) else {
            return;
        };
        match role.as_str() {
            // Parent test -> middle -> grandchild; the test kills the middle.
            "middle" => {
                die_with_parent().unwrap();
                let mut grandchild = reexec("grandchild");
                grandchild.stdout(Stdio::piped());
                // The test SIGKILLs us, so this guard's destructor never runs: the grandchild
                // must die of its parent-death signal alone.
                let mut gc = ChildGuard::new(
                    grandchild
                        .env(PARENT_PID_ENV, std::process::id().to_string())
                        .spawn()
                        .unwrap(),
                );
                read_marker(gc.child_mut().stdout.take().unwrap(), "GRANDCHILD_READY");
                println!("GRANDCHILD_PID={}", gc.id());
                std::io::stdout().flush().unwrap();
                std::thread::sleep(CHILD_MAX_LIFE);
            }
            "grandchild" => {
                die_with_parent().unwrap();
                println!("GRANDCHILD_READY");
                std::io::stdout().flush().unwrap();
                std::thread::sleep(CHILD_MAX_LIFE);
            }
            // Claims a parent that is not ours: must exit with PARENT_GONE_EXIT_CODE.
            "orphan" => {
                let not_our_parent = i32::MAX as u32 - 7;
                set_parent_death_signal(not_our_parent).unwrap();
                println!("still alive: the race check did not fire");
            }
            other => panic!("unknown role {other}"),
        }
    }

    #[test]
    fn grandchild_dies_with_its_parent() {
        let mut middle = ChildGuard::spawn(reexec("middle").stdout(Stdio::piped())).unwrap();
        let watchdog = Watchdog::new([middle.process_id()], Duration::from_secs(30));
        let out = middle.child_mut().stdout.take().unwrap();
        let gc_pid: u32 = read_marker(out, "GRANDCHILD_PID=").parse().unwrap();
        let grandchild = ProcessId::of(gc_pid).unwrap();
        watchdog.watch(grandchild);
        // Kills the grandchild if an assertion below fails (the watchdog is disarmed then).
        struct KillOnDrop(ProcessId);
        impl Drop for KillOnDrop {
            fn drop(&mut self) {
                let _ = self.0.kill(Signal::KILL);
            }
        }
        let _cleanup = KillOnDrop(grandchild);
        assert!(grandchild.is_alive());

        middle.kill().unwrap();
        middle.wait().unwrap();
        let gone = grandchild
            .wait_exit(Deadline::after(Duration::from_secs(10)))
            .unwrap();
        assert!(gone, "grandchild {gc_pid} outlived its killed parent");
        assert!(!watchdog.fired());
    }

    #[test]
    fn parent_already_gone_exits() {
        let mut child = ChildGuard::spawn(reexec("orphan").stdout(Stdio::null())).unwrap();
        let status = child
            .wait_deadline(Deadline::after(Duration::from_secs(30)))
            .unwrap()
            .expect("orphan child did not exit");
        assert_eq!(status.code(), Some(PARENT_GONE_EXIT_CODE));
    }

    #[test]
    fn child_guard_kills_on_drop() {
        let guard = ChildGuard::spawn(Command::new("sleep").arg("100")).unwrap();
        let id = guard.process_id();
        assert!(id.is_alive());
        drop(guard);
        // Drop killed and reaped it.
        assert_eq!(id.liveness(), Liveness::Gone);
        assert!(id.wait_exit(Deadline::at_ns(0)).unwrap());
    }

    #[test]
    fn child_guard_waits() {
        let mut guard = ChildGuard::spawn(Command::new("sleep").arg("100")).unwrap();
        let early = guard.wait_deadline(Deadline::after(Duration::from_millis(20)));
        assert!(early.unwrap().is_none());
        guard.kill().unwrap();
        let status = guard
            .wait_deadline(Deadline::after(Duration::from_secs(10)))
            .unwrap()
            .expect("killed child not reaped");
        assert!(!status.success());
        let mut done = ChildGuard::spawn(&mut Command::new("true")).unwrap();
        assert!(done.wait().unwrap().success());
    }

    #[test]
    fn watchdog_kills_a_hung_child() {
        let mut child = Command::new("sleep").arg("100").spawn().unwrap();
        let id = ProcessId::of(child.id()).unwrap();
        let watchdog = Watchdog::new([id], Duration::from_millis(50));
        let status = child.wait().unwrap(); // returns because the watchdog kills it
        assert!(!status.success());
        assert!(watchdog.fired());
    }

    #[test]
    fn watchdog_drop_disarms_promptly() {
        let guard = ChildGuard::spawn(Command::new("sleep").arg("100")).unwrap();
        let watchdog = Watchdog::new([guard.process_id()], Duration::from_secs(3600));
        assert!(!watchdog.fired());
        drop(watchdog); // must not wait an hour
        assert!(guard.process_id().is_alive());
    }

    #[test]
    fn pidfd_signal_and_wait() {
        let guard = ChildGuard::spawn(Command::new("sleep").arg("100")).unwrap();
        let id = guard.process_id();
        let Some(fd) = id.pidfd().unwrap() else {
            eprintln!("SKIP: pidfd_signal_and_wait: this kernel has no pidfd_open");
            return;
        };
        assert_eq!(fd.pid(), id.pid);
        assert!(!fd.has_exited().unwrap());
        assert!(!fd
            .wait_exit(Some(Deadline::after(Duration::from_millis(10))))
            .unwrap());
        assert!(!id
            .wait_exit(Deadline::after(Duration::from_millis(10)))
            .unwrap());
        fd.send_signal(Signal::KILL).unwrap();
        assert!(fd
            .wait_exit(Some(Deadline::after(Duration::from_secs(10))))
            .unwrap());
        assert!(fd.has_exited().unwrap());
        assert!(id.kill(Signal::KILL).is_err()); // a zombie now: gone
    }

    #[test]
    fn kill_rejects_bad_pids() {
        for pid in [0, u32::MAX, i32::MAX as u32 + 1] {
            assert!(matches!(
                kill(pid, Signal::KILL),
                Err(Error::InvalidArgument(_))
            ));
            assert!(matches!(Pidfd::open(pid), Err(Error::InvalidArgument(_))));
        }
        // Signal 0-free check that a live process can be signalled harmlessly.
        kill(std::process::id(), Signal::CHILD).unwrap();
    }
}
