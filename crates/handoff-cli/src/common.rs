//! What `bench exchange` and `report` share: their common flags, the worker launcher, and
//! the cancel flag.

use crate::Failure;
use clap::Args;
use handoff_lab::bench::experiment::ReportFlags;
use handoff_lab::experiments::exchange::Mode;

/// Flags shared by `bench exchange` and `report`.
#[derive(Debug, Args, Clone)]
pub struct CommonExchangeArgs {
    /// Modes, comma-separated, or `all`: single-thread, file, threads-spin, processes-spin,
    /// threads-blocking, processes-semaphore, processes-futex, processes-adaptive, pipe.
    #[arg(long)]
    pub mode: Option<String>,
    /// Block sizes, comma-separated, with units: 4KiB,64KiB,1MiB (multiples of 4 bytes).
    #[arg(long)]
    pub size: Option<String>,
    /// Consumer CPUs: a list such as 0,1 or 0-3, or `all` (every CPU this process may use).
    #[arg(long)]
    pub consumer_core: Option<String>,
    /// Measured repetitions per run.
    #[arg(long)]
    pub reps: Option<u32>,
    /// Runs per point, each with a fresh pair of threads or processes.
    #[arg(long)]
    pub runs: Option<u32>,
    /// The fill and sum kernel: auto (the widest vector unit this CPU has), avx512, avx2, sse2,
    /// neon or scalar (one element at a time, to see what vectorization gains).
    #[arg(long, value_name = "KERNEL")]
    pub kernel: Option<String>,
}

pub use crate::signals::CANCEL;

/// Ctrl-C, SIGTERM and SIGHUP set the cancel flag (and record which came, `signals`).
pub fn install_interrupt_handler() {
    crate::signals::catch();
}

/// The CPUs this process may use.
pub fn allowed_cpus() -> Result<Vec<usize>, Failure> {
    handoff::sys::allowed_cpus()
        .map_err(|e| Failure::runtime(format!("reading the CPU affinity mask: {e}")))
}

/// Parses `all` or a CPU list, checking every CPU is allowed.
pub fn parse_cores(text: &str, allowed: &[usize], flag: &str) -> Result<Vec<usize>, Failure> {
    if text.trim() == "all" {
        return Ok(allowed.to_vec());
    }
    let cpus = handoff::sys::parse_cpu_list(text)
        .map_err(|e| Failure::usage(format!("{flag} {text}: {e}")))?;
    if cpus.is_empty() {
        return Err(Failure::usage(format!("{flag} names no CPU")));
    }
    for &c in &cpus {
        if !allowed.contains(&c) {
            return Err(Failure::usage(format!(
                "{flag}: CPU {c} is not available: this process may use CPUs {}",
                handoff::sys::format_cpu_list(allowed)
            )));
        }
    }
    Ok(cpus)
}

/// Parses the shared flags; `None` where the user gave none.
pub fn overrides(common: &CommonExchangeArgs, allowed: &[usize]) -> Result<ReportFlags, Failure> {
    Ok(ReportFlags {
        modes: common
            .mode
            .as_deref()
            .map(Mode::parse_list)
            .transpose()?
            .map(|modes| modes.iter().map(|m| m.as_str().to_string()).collect()),
        sizes: common
            .size
            .as_deref()
            .map(handoff_lab::units::parse_size_list)
            .transpose()?,
        consumer_cores: common
            .consumer_core
            .as_deref()
            .map(|c| parse_cores(c, allowed, "--consumer-core"))
            .transpose()?,
        reps: common.reps,
        runs: common.runs,
        kernel: common.kernel.clone(),
    })
}

/// How the lab starts worker processes: this binary and its hidden `__worker` command.
pub fn launcher() -> Result<(std::path::PathBuf, Vec<std::ffi::OsString>), Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::runtime(format!("finding our own executable: {e}")))?;
    Ok((exe, vec!["__worker".into()]))
}
