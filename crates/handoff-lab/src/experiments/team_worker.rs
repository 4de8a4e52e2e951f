//! What the team experiment `atomics` shares (`rma-sync` moved to `team_run`): starting a fresh team of p
//! worker processes (`handoff __worker NAME ARGS...` through `team::Launch`, pinned
//! round-robin over the allowed CPUs, a timeout so a hung team ends), and rank 0's one
//! result line on stdout.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use handoff::team::{Launch, Placement};

use crate::bench::experiment::{BenchError, RunCtx};

/// Prefix of rank 0's result line.
pub const LINE: &str = "TEAM-RESULT ";

/// A team run's result, printed by rank 0.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// µs per operation, one per timed repetition.
    pub samples_us: Vec<f64>,
    /// Every PE verified every value it moved.
    pub verified: bool,
}

/// Prints `out` as rank 0's result line.
pub fn print(out: &Outcome) {
    if let Ok(line) = serde_json::to_string(out) {
        println!("{LINE}{line}");
    }
}

/// Starts `p` PEs of `experiment`'s worker with `args`, waits for them (at most
/// `timeout`), and returns rank 0's outcome; `what` names the point in errors.
pub fn run(
    ctx: &RunCtx<'_>,
    experiment: &'static str,
    p: usize,
    what: &str,
    args: &[String],
    timeout: Duration,
) -> Result<Outcome, BenchError> {
    let failed = |message: String| BenchError::Failed {
        experiment,
        message: format!("{what} with {p} PEs: {message}"),
    };
    let mut all = ctx.args.clone();
    all.push(experiment.into());
    all.extend(args.iter().map(Into::into));
    let mut running = Launch::new(p)
        .program(&ctx.exe)
        .args(all)
        .cores(Placement::Cores(ctx.allowed_cpus.to_vec()))
        .heap(4 << 20)
        .capture_stdout(true)
        .timeout(timeout)
        .spawn()
        .map_err(|e| failed(format!("cannot start the team: {e}")))?;
    let mut line = None;
    if let Some(out) = running.take_stdout(0) {
        for l in BufReader::new(out).lines().map_while(Result::ok) {
            if let Some(rest) = l.strip_prefix(LINE) {
                line = Some(rest.to_string());
            }
        }
    }
    let report = running.wait().map_err(|e| failed(e.to_string()))?;
    report.into_result().map_err(|e| failed(e.to_string()))?;
    let line = line.ok_or_else(|| failed("rank 0 printed no result".into()))?;
    serde_json::from_str(&line).map_err(|e| failed(format!("rank 0's result {line:?}: {e}")))
}
