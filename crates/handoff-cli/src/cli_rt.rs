//! What the runtime-queue `bench` commands (`malloc`, `kneighbor`, `queue`, `aggregation`,
//! `channels`) share: list flags and running an experiment with this binary's context.

use handoff_lab::bench::BenchResults;
use handoff_lab::bench::{BenchError, RunCtx};

use crate::cli_bench::{run_ctx, BenchOutputArgs};
use crate::common::{allowed_cpus, install_interrupt_handler};
use crate::{progress, Failure};

/// Parses a comma list of `T` (counts, names) with [`crate::cli_bench::parse_list`], saying
/// what to write instead on error.
pub fn parse_list<T: std::str::FromStr>(
    text: &str,
    flag: &str,
    example: &str,
) -> Result<Vec<T>, Failure> {
    crate::cli_bench::parse_list(
        text,
        flag,
        &format!("not understood; use e.g. {example}"),
        |x| x.parse().ok(),
    )
}

/// Parses a list of sizes such as `8,64,1KiB`.
pub fn parse_sizes(text: &str, flag: &str) -> Result<Vec<usize>, Failure> {
    handoff_lab::units::parse_size_list(text).map_err(|e| Failure::usage(format!("{flag}: {e}")))
}

/// The CPUs this process may use.
pub fn allowed() -> Result<Vec<usize>, Failure> {
    allowed_cpus()
}

/// Runs `body` with a full (not quick) context and writes its results as `out` asks.
pub fn run_and_emit(
    out: &BenchOutputArgs,
    body: impl FnOnce(&mut RunCtx<'_>) -> Result<BenchResults, BenchError>,
) -> Result<u8, Failure> {
    let format = out.check()?;
    install_interrupt_handler();
    let allowed = allowed_cpus()?;
    let m = crate::common::Machine::detect()?;
    let machine = handoff_lab::machine::detect(&m.calibration);
    let tool = handoff_lab::machine::tool();
    let mut prog = progress::Stderr::new(out.quiet);
    let mut ctx = run_ctx(false, &machine, &tool, &allowed, &mut prog)?;
    let res = body(&mut ctx)?;
    out.emit(&res, format)
}
