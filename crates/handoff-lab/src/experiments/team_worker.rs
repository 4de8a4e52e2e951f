//! What the team experiments `atomics`, `msgrate` and `overlap` share: a fresh team of p
//! worker processes (`handoff __worker NAME ARGS...` through [`super::launcher`], pinned
//! round-robin over the allowed CPUs, a deadline so a hung team ends), and rank 0's one
//! result line on stdout.

use std::time::Duration;

use handoff::team::Placement;

use super::launcher;

use crate::bench::experiment::{BenchError, RunCtx};

/// Prefix of rank 0's result line.
pub const LINE: &str = "TEAM-RESULT ";

/// A team run's result, printed by rank 0.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// µs per operation, one per timed repetition.
    pub samples_us: Vec<f64>,
    /// Every PE verified every value it moved.
    pub verified: bool,
    /// Items (bytes, elements) the PEs checked.
    #[serde(default)]
    pub checked: u64,
    /// Items found wrong.
    #[serde(default)]
    pub wrong: u64,
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
    let texts = launcher::launch(&launcher::ShmTeam {
        exe: &ctx.exe,
        args: all,
        pes: p,
        cores: Placement::Cores(ctx.allowed_cpus.to_vec()),
        wait: None,
        heap: 4 << 20,
        deadline: timeout,
    })
    .map_err(failed)?;
    let line = texts
        .first()
        .and_then(|t| t.lines().rev().find_map(|l| l.strip_prefix(LINE)))
        .ok_or_else(|| failed("rank 0 printed no result".into()))?;
    serde_json::from_str(line).map_err(|e| failed(format!("rank 0's result {line:?}: {e}")))
}
