//! `handoff bench` over MPI (built with `--features mpi`; `scripts/test`'s MPI step runs
//! `cargo test -p handoff-cli --features mpi --test bench_mpi`): the command under
//! `mpiexec -n N` (the job's ranks as the team, rank 0 printing, each record naming the
//! transport that served its pair), the side-by-side `--transport shm,mpi-rma`, a fault
//! caught (exit 3) and flags that conflict with mpirun (exit 2). No timing assertions:
//! expected counts and names come from the flags; the data checks are the PEs' own
//! (`verified`), which the fault test proves can fail.
#![cfg(feature = "mpi")]

mod common;

use std::os::unix::process::CommandExt;
use std::process::{Command, Output};

use common::{check_records, records, run_cmd, serial, text, words, BIN};
use serde_json::Value;

/// `mpiexec -n N handoff ARGS` with `envs`, in its own process group (the watchdog kills
/// the whole job).
fn mpiexec(n: usize, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new("mpiexec");
    cmd.arg("-n").arg(n.to_string()).arg(BIN).args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.process_group(0);
    run_cmd(&mut cmd)
}

fn json(out: &Output, what: &str) -> Value {
    assert!(
        out.status.success(),
        "{what}: {:?}: {}",
        out.status,
        text(&out.stderr)
    );
    serde_json::from_str(&text(&out.stdout)).unwrap_or_else(|e| {
        panic!(
            "{what}: stdout is not one JSON document ({e}): {}",
            text(&out.stdout)
        )
    })
}

/// `v` holds `count` records, every one verified with `runs` run means of `metric` and run
/// on the job's `pes` ranks over `transport`.
fn on_the_job(v: &Value, count: usize, runs: usize, metric: &str, pes: usize, transport: &str) {
    assert_eq!(records(v).len(), count, "{v}");
    for r in records(v) {
        assert_eq!(r["params"]["pes"], pes, "{r}");
        assert_eq!(r["params"]["transport"], transport, "{r}");
    }
    check_records(v, runs, &[metric]);
}

/// The job exited with `code`, `needle` on its stderr.
fn exited_saying(out: &Output, code: i32, needle: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert!(err.contains(needle), "{err}");
}

const PINGPONG: &str =
    "bench pingpong --sizes 8 --runs 2 --samples 2 --round-trips 50 --format json -q";

#[test]
fn pingpong_under_mpiexec_names_the_window_that_served_the_pair() {
    let _g = serial();
    for (window, want) in [("shared", "mpi-shm"), ("rma", "mpi-rma")] {
        let out = mpiexec(2, &words(PINGPONG), &[("HANDOFF_MPI_WINDOW", window)]);
        let v = json(&out, window);
        assert_eq!(v["experiment"], "pingpong");
        // Every method fits 8 B: four records, one pair (0-1), the job's window.
        let recs = records(&v);
        assert_eq!(recs.len(), 4, "{v}");
        for r in recs {
            assert_eq!(r["params"]["transport"], want, "{r}");
            assert_eq!(r["params"]["pair"], "0-1", "{r}");
            assert_eq!(r["params"]["placement"], "mpirun", "{r}");
            assert!(
                r["series"]
                    .as_str()
                    .unwrap()
                    .ends_with(&format!("[{want}]")),
                "{r}"
            );
        }
        check_records(&v, 2, &["latency_us"]);
    }
    // Three ranks: rank 0 with each other rank in turn, each record naming its pair.
    let mut args = words(PINGPONG);
    args.extend(["--method", "put-signal"]);
    let v = json(&mpiexec(3, &args, &[]), "3 ranks");
    let pairs: Vec<&str> = records(&v)
        .iter()
        .map(|r| r["params"]["pair"].as_str().unwrap())
        .collect();
    assert_eq!(pairs, ["0-1", "0-2"], "{v}");
    check_records(&v, 2, &["latency_us"]);
}

#[test]
fn alltoall_and_stencil_on_four_ranks_are_verified() {
    let _g = serial();
    let v = json(
        &mpiexec(
            4,
            &words("bench alltoall --sizes 8,4K --runs 2 --samples 2 --rounds 20 --format json -q"),
            &[],
        ),
        "alltoall",
    );
    // 3 methods × 2 sizes, all on the job's 4 ranks.
    on_the_job(&v, 6, 2, "round_us", 4, "mpi-shm");
    let v = json(
        &mpiexec(
            4,
            &words(
                "bench stencil --grid 64x16 --weak-m none --iterations 3 --runs 1 --format json -q",
            ),
            &[("HANDOFF_MPI_WINDOW", "rma")],
        ),
        "stencil",
    );
    on_the_job(&v, 3, 1, "time_ms", 4, "mpi-rma");
}

#[test]
fn rma_sync_on_three_ranks_is_verified_in_every_mode() {
    let _g = serial();
    let v = json(
        &mpiexec(
            3,
            &words("bench rma-sync --iters 50 --reps 2 --runs 1 --format json -q"),
            // The shared window: 3 ranks polling MPI RMA calls on 2 busy CPUs can take
            // minutes (the rma path is the pingpong test's).
            &[("HANDOFF_MPI_WINDOW", "shared")],
        ),
        "rma-sync",
    );
    // 8 modes at p = 3, pscw-k at k = 1 and 2: 9 records, every one on the job's 3 ranks.
    on_the_job(&v, 9, 1, "sync_us", 3, "mpi-shm");
}

#[test]
fn side_by_side_runs_both_transports_as_separate_series() {
    let _g = serial();
    let mut cmd = Command::new(BIN);
    cmd.args(words(
        "bench pingpong --sizes 8 --method put-signal --runs 2 --samples 2 --round-trips 50 \
        --transport shm,mpi-rma --format json -q",
    ));
    let v = json(&run_cmd(&mut cmd), "side by side");
    let recs = records(&v);
    let placements = v["config"]["placements"].as_array().unwrap().len();
    assert_eq!(recs.len(), 2 * placements, "{v}");
    let shm = recs
        .iter()
        .filter(|r| r["params"]["transport"] == "shm")
        .count();
    let rma = recs
        .iter()
        .filter(|r| r["params"]["transport"] == "mpi-rma")
        .count();
    assert_eq!((shm, rma), (placements, placements), "{v}");
    let mut series: Vec<&str> = recs.iter().map(|r| r["series"].as_str().unwrap()).collect();
    series.sort_unstable();
    series.dedup();
    assert_eq!(series.len(), recs.len(), "series merged: {series:?}");
    check_records(&v, 2, &["latency_us"]);
}

#[test]
fn a_fault_under_mpiexec_exits_3_and_conflicting_flags_exit_2() {
    let _g = serial();
    let mut args = words(PINGPONG);
    args.extend(["--method", "put-signal", "--fault", "skip-put@3"]);
    exited_saying(&mpiexec(2, &args, &[]), 3, "FAILED verification");
    exited_saying(
        &mpiexec(2, &words("bench alltoall --pes 4 -q"), &[]),
        2,
        "mpirun -n 4",
    );
    exited_saying(
        &mpiexec(2, &words("bench pingpong --transport mpi-rma -q"), &[]),
        2,
        "HANDOFF_MPI_WINDOW",
    );
}
