//! `bench c2c`: the hardware floor, one cache line bounced between every pair of CPUs; a
//! registered experiment ([`INFO`]) whose records are the pairs and whose file also carries
//! them as [`BenchResults::c2c`] (what the heatmap and the exchange's floor read).

pub mod heatmap;

use crate::bench::experiment::{
    metric, no_findings, BenchError, ExperimentInfo, ReportCost, RunCtx,
};
use crate::bench::schema::C2cPair;
use crate::bench::{BenchRecord, BenchResults, Checks};
use crate::progress::Progress;
use handoff_probe::floor::{c2c, C2cOptions};
use handoff_probe::topology::Topology;
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

/// Registry name of the experiment (the results' `experiment`).
pub const NAME: &str = "c2c";

/// Every unordered pair of distinct CPUs in `cpus` (one-way latency is symmetric).
pub fn all_pairs(cpus: &[usize]) -> Vec<(usize, usize)> {
    let after = |(i, &a): (usize, &usize)| cpus[i + 1..].iter().map(move |&b| (a, b));
    cpus.iter().enumerate().flat_map(after).collect()
}

/// On a large machine, one pair per placement class from `from` instead of all pairs.
pub fn representative_pairs(
    topology: &Topology,
    from: usize,
    cpus: &[usize],
) -> Vec<(usize, usize)> {
    topology
        .representatives(from, cpus)
        .into_iter()
        .filter(|&(_, cpu)| cpu != from)
        .map(|(_, cpu)| (from, cpu))
        .collect()
}

/// One pair at the default options (110 samples of 1000 round trips of <= 1 µs, plus thread
/// starts), seconds; measured 0.5 s at load average 7 (a report's estimate).
pub const PAIR_S: f64 = 0.5;

/// Measuring the c2c floor between two CPUs failed.
#[derive(Debug, Error)]
#[error("c2c between CPUs {a} and {b}: {source}")]
pub struct C2cError {
    pub a: usize,
    pub b: usize,
    /// What the measurement reported.
    #[source]
    pub source: handoff::Error,
}

/// The registry entry: `handoff bench c2c`; `handoff report` measures its matrix within the
/// exchange's plan (the exchange's floor: [`PAIR_S`] a pair), never on its own.
pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Core-to-core floor",
    section: "The hardware floor",
    seed: "the exchange paper's floor (one cache line bounced between two CPUs)",
    what: "One-way latency of one cache line bounced between each pair of CPUs (half a round \
           trip); every bounce waits for the exact value the other side wrote, a wrong value \
           stops the run.",
    figures: &[],
    findings: no_findings,
    run: Some(run_all),
    worker: None,
    report_cost: ReportCost::WITHIN_LEAD,
    draw: Some(heatmap::draw),
    report: None,
};

/// One measured pair with its samples.
pub struct Measured {
    /// The pair and its median one-way latency.
    pub pair: C2cPair,
    /// One-way ns of each sample.
    pub samples: Vec<f64>,
}

/// Measures each pair, one progress phase of one step a pair. Stops early (returning what it
/// has) when `cancel` is set.
pub fn measure(
    pairs: &[(usize, usize)],
    opts: &C2cOptions,
    topology: &Topology,
    cancel: &AtomicBool,
    progress: &mut dyn Progress,
) -> Result<Vec<Measured>, C2cError> {
    progress.begin(pairs.len(), "c2c");
    let mut out = Vec::with_capacity(pairs.len());
    for &(a, b) in pairs {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        out.push(measure_pair(a, b, opts, topology)?);
        progress.advance(&format!("{a}-{b}"));
    }
    progress.end();
    Ok(out)
}

/// Measures the pair `a`, `b`.
fn measure_pair(
    a: usize,
    b: usize,
    opts: &C2cOptions,
    topology: &Topology,
) -> Result<Measured, C2cError> {
    let r = c2c(a, b, opts).map_err(|source| C2cError { a, b, source })?;
    Ok(Measured {
        pair: C2cPair {
            cpu_a: a,
            cpu_b: b,
            placement: topology.placement(a, b).as_str().to_string(),
            one_way_ns: r.median_one_way_ns,
        },
        samples: r.one_way_ns_samples,
    })
}

/// The most round trips per sample and samples per pair: a sample is not interruptible and
/// runs under a deadline (a million round trips take about a second).
pub const MAX_ROUND_TRIPS: u32 = 1_000_000;

/// `handoff bench c2c` on `cpus` (at least two), `samples` samples of `round_trips` round
/// trips per pair (both 1 to [`MAX_ROUND_TRIPS`], else a usage error before anything runs):
/// every pair measured, one record per pair (series = its placement class, x = the pair's
/// index) and the pairs in [`BenchResults::c2c`].
pub fn run(
    ctx: &mut RunCtx<'_>,
    cpus: &[usize],
    samples: u32,
    round_trips: u32,
) -> Result<BenchResults, BenchError> {
    let usage = |m: String| Err(BenchError::usage(NAME, m));
    if samples == 0 || round_trips == 0 {
        return usage("--samples and --round-trips must be at least 1".into());
    }
    if round_trips > MAX_ROUND_TRIPS || samples > MAX_ROUND_TRIPS {
        return usage(format!(
            "--round-trips and --samples: at most {MAX_ROUND_TRIPS} (a sample of a million \
             round trips takes about a second; use more --samples for more)"
        ));
    }
    if cpus.len() < 2 {
        return usage(format!(
            "needs at least two CPUs; this process may use {}",
            handoff::sys::format_cpu_list(cpus)
        ));
    }
    let topology = Topology::detect()
        .map_err(|e| BenchError::failed(NAME, format!("reading the CPU topology: {e}")))?;
    let opts = C2cOptions {
        samples,
        round_trips_per_sample: round_trips,
        ..Default::default()
    };
    let config = serde_json::json!({
        "cores": cpus,
        "samples": opts.samples,
        "round_trips_per_sample": opts.round_trips_per_sample,
    });
    let round_trips = u64::from(opts.samples) * u64::from(opts.round_trips_per_sample);
    ctx.run_points(NAME, &config, &all_pairs(cpus), |_, res, &(a, b)| {
        let m = measure_pair(a, b, &opts, &topology).map_err(|e| BenchError::failed(NAME, e))?;
        let metric = metric(NAME, "ns", false, std::slice::from_ref(&m.samples))?;
        let mut checks = Checks::of("round trips");
        // A bounce that carries another value than the one waited for is an error above.
        checks.add(round_trips, 0);
        let x = (res.records.len() + 1) as f64;
        res.records.push(
            BenchRecord::new(m.pair.placement.clone(), x, 1, round_trips, true)
                .param("cpu_a", a)
                .param("cpu_b", b)
                .param("placement", m.pair.placement.clone())
                .metric("one_way_ns", metric)
                .checked(checks),
        );
        res.c2c.push(m.pair);
        Ok(Some(format!("{a}-{b}")))
    })
}

/// The registry's `run`: every pair of the CPUs `ctx` may use, at the default options.
pub fn run_all(ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    let (cpus, opts) = (ctx.allowed_cpus, C2cOptions::default());
    run(ctx, cpus, opts.samples, opts.round_trips_per_sample)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_unordered_and_distinct() {
        assert_eq!(all_pairs(&[0, 1, 2]), vec![(0, 1), (0, 2), (1, 2)]);
        assert!(all_pairs(&[5]).is_empty());
    }
}
