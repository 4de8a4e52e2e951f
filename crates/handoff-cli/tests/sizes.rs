//! One size rule for every command's size flag (`handoff_probe::units`): `KB`/`MB`/`GB` are
//! refused the same way everywhere (exit 2, the message names the `KiB`/`MiB` spelling), and
//! binary units are accepted. Nothing is measured: every refusal comes before a run.

mod common;
use common::*;

/// Every size flag of every command, with the arguments that reach it.
const FLAGS: &[&[&str]] = &[
    &["bench", "exchange", "--size"],
    &["bench", "pingpong", "--sizes"],
    &["bench", "alltoall", "--sizes"],
    &["bench", "msgrate", "--sizes"],
    &["bench", "overlap", "--sizes"],
    &["bench", "kneighbor", "--sizes"],
    &["bench", "queue", "--sizes"],
    &["bench", "aggregation", "--msg-sizes"],
    &["bench", "aggregation", "--frame-sizes"],
    &["bench", "malloc", "--size"],
    &["report", "--size"],
];

#[test]
fn every_size_flag_refuses_decimal_units_the_same_way() {
    for flag in FLAGS {
        let mut args: Vec<&str> = flag.to_vec();
        args.push("1MB");
        if args[0] == "report" {
            args.extend(["--out", "/nonexistent/handoff-sizes-test"]);
        }
        let out = handoff(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("'1MB' is ambiguous") && err.contains("1MiB for 1048576 bytes"),
            "{args:?}: {err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    }
}

#[test]
fn run_heap_follows_the_rule() {
    let out = handoff(&["run", "-n", "1", "--heap", "64MB", "--", "true"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--heap") && err.contains("64MiB"), "{err}");
    // The binary spellings start the team.
    for heap in ["64KiB", "64K", "1m"] {
        let out = handoff(&["run", "-n", "1", "--heap", heap, "--", "true"]);
        assert!(
            out.status.success(),
            "--heap {heap}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn binary_units_mean_powers_of_1024() {
    // malloc's block limit is 1 MiB: 2 MiB, however spelled, is refused by the range check,
    // which quotes the size in bytes — 2 × 1024², so the parser read it as binary.
    for size in ["2MiB", "2M", "2m", "2048K", "2048kib"] {
        let out = handoff(&["bench", "malloc", "--size", size]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{size}: {err}");
        assert!(
            err.contains("--size 2097152: use 8 B to 1 MiB"),
            "{size}: {err}"
        );
    }
}
