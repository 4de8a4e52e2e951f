//! `handoff bench rma-channels`.

use clap::Args;
use handoff_lab::experiments::rma_channels::{self, Config, Layout};

use crate::cli_bench::BenchOutputArgs;
use crate::cli_rt::{parse_list, parse_sizes};
use crate::Failure;

/// Flags of `handoff bench rma-channels`.
#[derive(Debug, Args)]
pub struct RmaChannelsArgs {
    /// Payload sizes (comma list, 1 B .. 64 MiB; default 8 B .. 4 MiB).
    #[arg(long)]
    sizes: Option<String>,
    /// More sizes on the crossover's connection only (one connection, threads first), to
    /// place the message/put crossover between two of them (comma list, or "none"; default
    /// 16K,128K,256K,512K,2M, none when --sizes is given).
    #[arg(long)]
    crossover_sizes: Option<String>,
    /// RMA granularities: each put moves its payload rounded up to one (comma list of powers
    /// of two; 8 = as is, 4K = the seed's minimum; default 8,4K).
    #[arg(long)]
    rma_granularity: Option<String>,
    /// Values of n = producers = consumers (XPYC) = connections (XConn) (comma list).
    #[arg(long)]
    n: Option<String>,
    /// Layouts: xpyc, xconn (comma list).
    #[arg(long)]
    layout: Option<String>,
    /// Threads only (no producer processes).
    #[arg(long, conflicts_with = "processes_only")]
    threads_only: bool,
    /// Producer processes only (XPYC: one producer process of n threads).
    #[arg(long)]
    processes_only: bool,
    /// Payload bytes per run of a point, split over the producers (e.g. 16M).
    #[arg(long)]
    bytes: Option<String>,
    /// The most transfers per run of a point.
    #[arg(long)]
    transfers: Option<u64>,
    /// CPUs, round-robin over producers then consumers.
    #[arg(long, default_value = "all")]
    cpus: String,
    /// Runs (fresh threads or processes each).
    #[arg(long)]
    runs: Option<u64>,
    /// Test hook: producer 0 flips a byte of its transfer N (verification must fail, exit 3).
    #[arg(long, hide = true)]
    corrupt_at: Option<u64>,
    #[command(flatten)]
    out: BenchOutputArgs,
}

/// Runs `handoff bench rma-channels`.
pub fn run(a: RmaChannelsArgs) -> Result<u8, Failure> {
    let (allowed, cpus) = a.out.check_cpus(&a.cpus)?;
    let mut cfg = Config::for_report(false, &cpus);
    if let Some(s) = &a.sizes {
        cfg.sizes = parse_sizes(s, "--sizes")?;
        cfg.crossover_sizes.clear();
    }
    match a.crossover_sizes.as_deref() {
        Some("none") => cfg.crossover_sizes.clear(),
        Some(s) => cfg.crossover_sizes = parse_sizes(s, "--crossover-sizes")?,
        None => {}
    }
    if let Some(s) = &a.rma_granularity {
        cfg.granularities = parse_sizes(s, "--rma-granularity")?;
    }
    if let Some(n) = &a.n {
        cfg.n = parse_list(n, "--n", "1,2,4,6")?;
    }
    if let Some(l) = &a.layout {
        cfg.layouts = l
            .split(',')
            .map(|w| {
                Layout::parse(w.trim()).ok_or_else(|| {
                    Failure::usage(format!("--layout {l}: use xpyc, xconn or xpyc,xconn"))
                })
            })
            .collect::<Result<_, _>>()?;
    }
    if let Some(b) = &a.bytes {
        cfg.bytes = parse_sizes(b, "--bytes")?
            .first()
            .map(|&b| b as u64)
            .ok_or_else(|| Failure::usage("--bytes: one size, e.g. 16M"))?;
    }
    cfg.threads = !a.processes_only;
    cfg.processes = !a.threads_only;
    cfg.max_transfers = a.transfers.unwrap_or(cfg.max_transfers);
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    cfg.corrupt_at = a.corrupt_at;
    cfg.validate()?;
    a.out.run(&allowed, |ctx| rma_channels::run(&cfg, ctx))
}
