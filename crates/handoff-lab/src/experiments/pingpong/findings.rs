//! The findings of `pingpong`: the seed's claims at 8 B (fence-flag over each method), and
//! what the MPI transport costs next to handoff's team when both ran side by side.

use super::{team_run, Method};
use crate::bench::experiment::TransportKind;
use crate::bench::findings::{at_least, judge, run_means_of};
use crate::bench::{BenchResults, Finding};
use crate::stats::first_seen;

/// A record's (placement, transport, pair); a record without `transport` is from before
/// MPI transports: shared memory.
fn group_of(r: &crate::bench::BenchRecord) -> (String, String, String) {
    let t = r.param_text("transport");
    (
        r.param_text("placement"),
        if t.is_empty() { "shm".into() } else { t },
        r.param_text("pair"),
    )
}

/// The run means of `latency_us` of (method, placement, transport) at `size`.
fn latency_over(
    res: &BenchResults,
    method: Method,
    class: &str,
    size: f64,
    transport: TransportKind,
) -> Option<Vec<f64>> {
    run_means_of(res, "latency_us", |r| {
        r.x == size
            && r.param_text("method") == method.name()
            && r.param_text("placement") == class
            && match transport {
                TransportKind::Shm => team_run::on_shm(r),
                t => r.param_text("transport") == t.name(),
            }
    })
}

/// The seed's claim "counting puts halve small-message latency" at 8 B, per placement (and,
/// under `mpirun`, per pair and its transport): fence-flag / put-signal and fence-flag /
/// counting-put ≥ 2; and (not the seed's) what one line transfer buys: fence-flag / line ≥ 2.
pub(super) fn findings(res: &BenchResults) -> Vec<Finding> {
    // (placement, transport, pair): the records of one group were measured alike.
    let groups = first_seen(res.records.iter().filter(|r| r.x == 8.0).map(group_of));
    let mut out = Vec::new();
    for g in &groups {
        let class = &g.0;
        let latency = |m: Method| {
            run_means_of(res, "latency_us", |r| {
                r.x == 8.0 && r.param_text("method") == m.name() && group_of(r) == *g
            })
        };
        let label = match (g.1.as_str(), g.2.as_str()) {
            ("shm", "") => class.clone(),
            (t, "") => format!("{class}, {t}"),
            (t, pair) => format!("{class}, {pair} {t}"),
        };
        let ff = latency(Method::FenceFlag);
        for (m, claim) in [
            (
                Method::PutSignal,
                "put-with-signal halves 8 B latency against put + fence + flag (seed: ½ latency)",
            ),
            (
                Method::CountingPut,
                "a counting put halves 8 B latency against put + fence + flag (seed: ½ latency)",
            ),
            (
                Method::Line,
                "payload and signal in one cache line halve 8 B latency against put + fence + flag",
            ),
        ] {
            let what = format!("fence-flag / {} latency, {label}", m.name());
            let claim = format!("{claim} [{label}]");
            let why = if class == "same-core" {
                "both PEs share one CPU, so every hand-off is a context switch, the same for \
                 every method and far above a cache-line transfer."
            } else if m == Method::Line {
                "a line moves the payload and its sequence word in one cache-line transfer, \
                 where put + fence + flag moves the data line and then the flag line, so up \
                 to 2× is possible when line transfers dominate the hand-off."
            } else {
                team_run::SAME_WORK
            };
            match (&ff, latency(m)) {
                (Some(a), Some(b)) => {
                    out.push(team_run::because(at_least(&claim, &what, a, &b, 2.0), why))
                }
                _ if res
                    .records
                    .iter()
                    .any(|r| r.param_text("method") == m.name()) =>
                {
                    out.push(judge(&claim, &what, None, 2.0))
                }
                _ => {}
            }
        }
    }
    let all_classes = first_seen(res.records.iter().map(|r| r.param_text("placement")));
    out.extend(mpi_findings(res, &all_classes));
    out
}

/// What the MPI library's one-sided path costs next to handoff's team, per MPI transport
/// that ran and placement: MPI / shm put-signal latency at 8 B and at the largest size ≥ 1
/// (the MPI transport is not faster than the shared-memory team it wraps).
fn mpi_findings(res: &BenchResults, classes: &[String]) -> Vec<Finding> {
    let mut out = Vec::new();
    let largest = res.records.iter().map(|r| r.x).fold(0.0, f64::max);
    for t in [TransportKind::MpiShm, TransportKind::MpiRma] {
        for class in classes {
            for size in [8.0, largest] {
                let (Some(mpi), Some(shm)) = (
                    latency_over(res, Method::PutSignal, class, size, t),
                    latency_over(res, Method::PutSignal, class, size, TransportKind::Shm),
                ) else {
                    continue;
                };
                let what = format!(
                    "{} / shm put-signal latency, {} B, {class}",
                    t.name(),
                    size as u64
                );
                let claim = format!(
                    "handoff's shared-memory team is at least as fast as the MPI transport \
                     ({}) for a {} B put-signal [{class}]",
                    t.name(),
                    size as u64
                );
                let why = if t == TransportKind::MpiShm {
                    "mpi-shm maps the MPI library's shared window and then does the same loads, \
                     stores and CPU atomics as shm; only the MPI library's wait (polling with \
                     MPI_Win_sync) differs, so parity or a small cost is expected."
                } else {
                    "mpi-rma makes every put an MPI_Put + MPI_Win_flush and the signal an \
                     MPI_Accumulate, which the MPI library carries through its own protocol \
                     (on one node its shared-memory channel), and the target polls without a \
                     futex wake-up; several times shm is expected for small messages, less for \
                     large ones where the copy dominates."
                };
                out.push(team_run::because(
                    at_least(&claim, &what, &mpi, &shm, 1.0),
                    why,
                ));
                if size == 8.0 && largest == 8.0 {
                    break;
                }
            }
        }
    }
    out
}
