//! #24 item 4: counts without an upper bound are refused up front (exit 2, one line), and a
//! long single step stops on Ctrl-C / SIGTERM.

mod common;

use common::{handoff, text};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_handoff");

#[test]
fn counts_beyond_their_bound_are_usage_errors() {
    for args in [
        &["bench", "private-vars", "--accesses", "100000000000000"][..],
        &["bench", "private-vars", "--reps", "100000000000"],
        &["bench", "queue", "--count", "4000000000"],
        &["bench", "queue", "--rtt-iters", "4000000000"],
    ] {
        let out = handoff(args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("at most"), "{args:?}: {err}");
    }
}

/// `bench private-vars` with the largest count it takes, interrupted by SIGINT and SIGTERM
/// during its first repetition: it stops (with the interrupted exit code) instead of running
/// on for minutes.
#[test]
fn a_long_private_vars_step_stops_on_ctrl_c_and_sigterm() {
    for signal in ["INT", "TERM"] {
        let mut child = Command::new(BIN)
            .args([
                "bench",
                "private-vars",
                "--method",
                "tls",
                "--threads",
                "1",
                "--accesses",
                "1073741824",
                "--reps",
                "1000",
                "--runs",
                "1",
                "-q",
                "--format",
                "json",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let _ = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status();
        let mut status = None;
        for _ in 0..3000 {
            status = child.try_wait().unwrap();
            if status.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if status.is_none() {
            let _ = child.kill();
            let _ = child.wait();
            panic!("SIG{signal}: bench private-vars ran on for 30 s");
        }
    }
}

/// #24 item 10: `bench c2c --round-trips 4294967295` is refused up front with its bound, and
/// `run --heap 64KB` is ambiguous as `--size 4KB` is everywhere else.
#[test]
fn c2c_round_trips_and_ambiguous_heap_sizes_are_usage() {
    for (args, needle) in [
        (
            &["bench", "c2c", "--round-trips", "4294967295"][..],
            "at most",
        ),
        (
            &["run", "-n", "1", "--heap", "64KB", "--", "true"],
            "ambiguous",
        ),
        (
            &["run", "-n", "1", "--heap", "1mb", "--", "true"],
            "ambiguous",
        ),
    ] {
        let out = handoff(args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let out = handoff(&["run", "-n", "1", "--heap", "64KiB", "--", "true"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}
