//! The harness the cross-process tests share: a child is this test binary re-executed to run
//! one test in a role (never `fork`), guarded (SIGKILLed and reaped on drop) and watched (a
//! watchdog kills it if the test hangs).

#![allow(dead_code)] // each test binary uses part of it

use handoff::sys::Deadline;
use handoff_probe::proc::{ChildGuard, Watchdog};
use std::io::{BufRead, BufReader};
use std::process::{ChildStdout, Command, Stdio};
use std::time::Duration;

/// A child running `test` of this binary in `role`, guarded and watched.
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
