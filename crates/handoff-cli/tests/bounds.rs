//! #24 item 4: counts without an upper bound are refused up front (exit 2, one line), and a
//! long single step stops on Ctrl-C / SIGTERM.

mod common;

use common::{signal, spawn, usage_line, wait_child, words};
use std::time::Duration;

#[test]
fn counts_beyond_their_bound_are_usage_errors() {
    for args in [
        &["bench", "private-vars", "--accesses", "100000000000000"][..],
        &["bench", "private-vars", "--reps", "100000000000"],
        &["bench", "queue", "--count", "4000000000"],
        &["bench", "queue", "--rtt-iters", "4000000000"],
        // #24 item 10 (`run --heap 64KB` being ambiguous is in sizes.rs, with every other
        // size flag).
        &["bench", "c2c", "--round-trips", "4294967295"],
    ] {
        usage_line(args, "at most");
    }
}

/// `bench private-vars` with the largest count it takes, interrupted by SIGINT and SIGTERM
/// during its first repetition: it stops at once (with the interrupted exit code) instead of
/// running on through its 1,000 repetitions.
#[test]
fn a_long_private_vars_step_stops_on_ctrl_c_and_sigterm() {
    for (sig, code, says) in [("INT", 130, "interrupted"), ("TERM", 143, "terminated")] {
        let child = spawn(&words(
            "bench private-vars --method tls --threads 1 --accesses 1073741824 --reps 1000 \
            --runs 1 -q --format json",
        ));
        std::thread::sleep(Duration::from_millis(500));
        signal(child.id(), sig);
        // It stops within milliseconds; 5 s leaves room for a loaded machine. Running on (an
        // unoptimized build that bumped one chunk per repetition left took 13 s): a panic
        // naming the signal.
        let (got, err) = wait_child(child, 5, &format!("SIG{sig}: bench private-vars"));
        assert_eq!(got, Some(code), "SIG{sig}: exit code; stderr: {err}");
        assert!(err.contains(says), "SIG{sig}: stderr: {err}");
    }
}
