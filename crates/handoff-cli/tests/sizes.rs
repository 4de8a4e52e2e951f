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
        let err = usage_line(&args, "'1MB' is ambiguous");
        assert!(err.contains("1MiB for 1048576 bytes"), "{args:?}: {err}");
    }
}

#[test]
fn run_heap_follows_the_rule() {
    // Decimal units in either case are ambiguous (#24 item 10), and the error names the flag
    // and the binary spelling.
    for (heap, binary) in [("64MB", "64MiB"), ("64KB", "64KiB"), ("1mb", "1MiB")] {
        let err = usage_error(
            &["run", "-n", "1", "--heap", heap, "--", "true"],
            "ambiguous",
        );
        assert!(err.contains("--heap") && err.contains(binary), "{err}");
    }
    // The binary spellings start the team.
    for heap in ["64KiB", "64K", "1m"] {
        exits(&["run", "-n", "1", "--heap", heap, "--", "true"], 0);
    }
}

#[test]
fn binary_units_mean_powers_of_1024() {
    // malloc's block limit is 1 MiB: 2 MiB, however spelled, is refused by the range check,
    // which quotes the size in bytes — 2 × 1024², so the parser read it as binary.
    for size in ["2MiB", "2M", "2m", "2048K", "2048kib"] {
        usage_error(
            &["bench", "malloc", "--size", size],
            "--size 2097152: use 8 B to 1 MiB",
        );
    }
}
