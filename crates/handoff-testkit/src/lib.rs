//! Test harnesses of the handoff workspace, for its tests only (a dev-dependency, never
//! published):
//!
//! - [`Kid`]: a child process that is the test binary itself re-executed to run one test in
//!   a role (never `fork`: a threaded Rust process must not fork), guarded (SIGKILLed and
//!   reaped on drop) and watched (a watchdog kills it if the test hangs);
//! - [`team_launch`] / [`run_team`]: a team of PEs that are this test binary re-executed,
//!   under a watchdog; [`conformance`]: the team transport contract as checks;
//! - [`WAITS`]: one of each wait strategy, for tests that run under every one;
//! - [`within`]: runs a call that must not hang on a thread and fails the test if it does
//!   not return in time (a watchdog, not a timing assertion).
//!
//! The child guard and the watchdog themselves live in `handoff-probe`, whose lab runs
//! worker processes with them.

use std::sync::mpsc;

// Teams are not built under loom (segments cannot hold loom's atomics).
#[cfg(not(loom))]
pub mod conformance;

#[cfg(not(loom))]
use handoff::team::{Launch, TeamReport};

use handoff::sync::Wait;
use handoff::sys::Deadline;
use handoff_probe::proc::{ChildGuard, Watchdog};
use std::io::{BufRead, BufReader};
use std::process::{ChildStdout, Command, Stdio};
use std::time::Duration;

/// One of each wait strategy (`Adaptive` with its default budget), for tests that must pass
/// under every one.
pub const WAITS: [Wait; 4] = [Wait::Spin, Wait::SpinYield, Wait::Block, Wait::ADAPTIVE];

/// A child running `test` of this binary in `role`, guarded and watched.
///
/// The test decides its role by the environment: the parent spawns itself with
/// `Kid::spawn("the_test", ROLE_ENV, "child", ...)`, and `the_test` checks
/// `std::env::var(ROLE_ENV)` first and plays the child's part when it is set.
pub struct Kid {
    guard: ChildGuard,
    out: BufReader<ChildStdout>,
    watchdog: Duration,
    _dog: Watchdog,
}

impl Kid {
    /// Runs `test` of this binary with `role_env = role` and `vars`, killed after `watchdog`.
    pub fn spawn(
        test: &str,
        role_env: &str,
        role: &str,
        vars: &[(&str, String)],
        watchdog: Duration,
    ) -> Kid {
        let exe = std::env::current_exe().unwrap();
        let mut cmd = Command::new(exe);
        cmd.args(["--exact", test, "--nocapture", "--test-threads=1"])
            .env(role_env, role)
            .stdout(Stdio::piped());
        for (k, v) in vars {
            cmd.env(k, v);
        }
        Kid::command(cmd, watchdog)
    }

    /// Runs another program (a compiled C test, a Python script) guarded and watched the
    /// same way: its stdout is piped for [`Kid::expect_line`], it is killed after
    /// `watchdog`.
    pub fn command(mut cmd: Command, watchdog: Duration) -> Kid {
        cmd.stdout(Stdio::piped());
        let mut guard = ChildGuard::spawn(&mut cmd).unwrap();
        let dog = Watchdog::new([guard.process_id()], watchdog);
        let out = BufReader::new(guard.child_mut().stdout.take().unwrap());
        Kid {
            guard,
            out,
            watchdog,
            _dog: dog,
        }
    }

    /// Reads the child's stdout until a line containing `prefix`; returns what follows it.
    pub fn expect_line(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.out.read_line(&mut line).unwrap();
            assert!(n > 0, "child exited before printing {prefix:?}");
            // The harness may print "test NAME ... " on the same line first.
            if let Some(at) = line.find(prefix) {
                return line[at + prefix.len()..].trim_end().to_string();
            }
        }
    }

    /// The child's pid.
    pub fn pid(&self) -> u32 {
        self.guard.id()
    }

    /// The guard, for signals and waits of its own.
    pub fn guard(&mut self) -> &mut ChildGuard {
        &mut self.guard
    }

    /// SIGKILLs the child and reaps it.
    pub fn kill(&mut self) {
        self.guard.kill().unwrap();
        self.guard.wait().unwrap();
    }

    /// Waits (at most the watchdog time) and asserts the child succeeded.
    pub fn wait_success(&mut self) {
        let status = self
            .guard
            .wait_deadline(Deadline::after(self.watchdog))
            .unwrap();
        assert!(
            status.is_some_and(|s| s.success()),
            "child failed: {status:?}"
        );
    }
}

/// A [`Waiter`](handoff::sync::Waiter) for a test's wait: strategy `how`, the time left
/// before `deadline` as its default timeout (`None`: none; an expired one polls once), and
/// the `peers` whose death ends the wait.
pub fn waiter<P: handoff::sync::PeerWatch + ?Sized>(
    how: handoff::sync::Wait,
    deadline: Option<Deadline>,
    peers: &P,
) -> handoff::sync::Waiter<'_, P> {
    let patience = handoff::sync::Patience::new(how).with_timeout(deadline.map(|d| d.remaining()));
    handoff::sync::Waiter::watching(peers).with_patience(patience)
}

/// Runs `f` on a thread and fails the test if it has not returned within `limit`: for calls
/// that used to hang. The thread is left behind when it hangs (the test fails anyway).
pub fn within<T: Send + 'static>(
    what: &str,
    limit: Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(limit) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what} hung (no return within the {limit:?} watchdog)")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what} failed (see above)"),
    }
}

#[cfg(not(loom))]
/// A team whose PEs run `test` of this binary (which checks [`handoff::team::in_team`] first
/// and plays a PE then).
pub fn team_launch(test: &str, n: usize) -> Launch {
    Launch::new(n)
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .heap(4 << 20)
}

#[cfg(not(loom))]
/// Runs test `test` of this binary as two PEs pinned to two distinct CPUs (PEs that spin on
/// each other) and asserts that both succeeded; with fewer CPUs prints a `SKIP:` line.
pub fn run_on_two_cpus(test: &str, watchdog: Duration) {
    let cpus = handoff::sys::allowed_cpus().expect("allowed CPUs");
    if cpus.len() < 2 {
        eprintln!("SKIP: {test}: needs 2 CPUs");
        return;
    }
    let launch =
        team_launch(test, 2).cores(handoff::team::Placement::Cores(vec![cpus[0], cpus[1]]));
    let report = run_team(launch, watchdog);
    assert!(report.success(), "a PE failed: {:?}", report.exits);
}

#[cfg(not(loom))]
/// Starts `launch` and waits for every PE; a watchdog SIGKILLs the PEs (so the wait ends
/// and the test fails) if they have not ended within `watchdog`.
pub fn run_team(launch: Launch, watchdog: Duration) -> TeamReport {
    let running = launch.spawn().expect("start the team");
    let ids: Vec<_> = running
        .pids()
        .iter()
        .filter_map(|&pid| handoff::sys::ProcessId::of(pid).ok())
        .collect();
    let _dog = Watchdog::new(ids, watchdog);
    running.wait().expect("wait for the team")
}
