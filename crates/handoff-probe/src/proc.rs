//! Guards that keep child processes from outliving a test or a crash:
//! [`set_parent_death_signal`] (in the child), [`ChildGuard`] and [`Watchdog`] (in the parent).

use crate::{Error, Result};
use handoff::sys::{Deadline, ProcessId, UnixSignal};
use std::process::{Child, Command, ExitStatus, Output};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

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
        // One write(2) for the whole line, so lines of several processes never interleave.
        let line = format!(
            "handoff: parent process {expected_parent} is gone (our parent is now {parent}); \
             exiting\n"
        );
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
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
        rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))
            .map_err(|e| Error::io("prctl(PR_SET_PDEATHSIG, SIGKILL)", e))
    }
}

#[cfg(not(target_os = "linux"))]
mod imp_pdeath {
    use super::*;

    pub fn set() -> Result<()> {
        Err(Error::Sys(handoff::sys::Error::Unsupported(
            "parent-death signal",
        )))
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
        // Cannot fail for an unreaped child with /proc mounted; the zero identity reports
        // "gone", which only disables liveness-based features.
        let id = ProcessId::of(pid).unwrap_or_else(|_| ProcessId::new(pid, 0));
        ChildGuard {
            child: Some(child),
            id,
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
            let _ = pid.kill(UnixSignal::Kill);
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
                    .filter(|p| p.kill(UnixSignal::Kill).is_ok())
                    .map(|p| p.pid)
                    .collect();
                // One write(2) for the whole line (eprintln! writes it in pieces).
                let line = format!(
                    "handoff watchdog: {timeout:?} passed; SIGKILLed processes {alive:?}\n"
                );
                let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
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

#[cfg(test)]
mod tests {
    use super::*;
    use handoff::sys::{kill, Liveness, Pidfd};

    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    /// Role a re-executed test binary plays in the tests below.
    const ROLE_ENV: &str = "HANDOFF_TEST_PROC_ROLE";
    const CHILD_TEST: &str = "proc::tests::child_role";
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
                let _ = self.0.kill(UnixSignal::Kill);
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
            .wait_exit(Deadline::after(Duration::from_millis(10)))
            .unwrap());
        assert!(!id
            .wait_exit(Deadline::after(Duration::from_millis(10)))
            .unwrap());
        fd.send_signal(UnixSignal::Kill).unwrap();
        assert!(fd
            .wait_exit(Deadline::after(Duration::from_secs(10)))
            .unwrap());
        assert!(fd.has_exited().unwrap());
        assert!(id.kill(UnixSignal::Kill).is_err()); // a zombie now: gone
    }

    #[test]
    fn kill_rejects_bad_pids() {
        for pid in [0, u32::MAX, i32::MAX as u32 + 1] {
            assert!(matches!(
                kill(pid, UnixSignal::Kill),
                Err(handoff::sys::Error::InvalidArgument(_))
            ));
            assert!(matches!(
                Pidfd::open(pid),
                Err(handoff::sys::Error::InvalidArgument(_))
            ));
        }
        // Signal 0-free check that a live process can be signalled harmlessly.
        kill(std::process::id(), UnixSignal::Child).unwrap();
    }
}
