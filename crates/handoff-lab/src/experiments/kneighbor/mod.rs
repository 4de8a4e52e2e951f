//! `kneighbor` (Charm++ seed 002, "CPU affinity"): `p` PEs on a ring; every iteration each
//! PE sends one message to each of its `k` neighbours on either side and receives theirs,
//! reading every byte. Time per iteration (slowest PE) against message size, per placement
//! of PEs on CPUs (`compact`: neighbours in the nearest placement classes of the probe's
//! topology, sharing a CPU when there are fewer CPUs than PEs; `spread`: the farthest
//! classes, round-robin when oversubscribed; see [`handoff_probe::topology::maps`]; a custom list, e.g. the seed's `0,2,4,6,1,3,5`; `os`: not pinned) and per mode (threads of one
//! process, or one process per PE over shared segments).
//!
//! The messages travel in [`handoff::queue::FrameQueue`]s, one per directed neighbour pair,
//! written and read in place; waits are adaptive (spin, then sleep on the queue's futex), so
//! runs with more PEs than CPUs complete. Each message carries a pattern derived from
//! (iteration, sender, receiver), checked byte by byte on receipt.

use std::time::{Duration, Instant};

use handoff::queue::{FrameConsumer, FrameProducer, FrameQueue, QueueError};
use handoff_probe::topology::maps::{pe_cpus, Map};
use handoff_probe::topology::Topology;

use super::launcher::Workers;
use super::rt_common::{
    arg, check, fill, join_all, open_deadline, pin, run_id, POINT_DEADLINE, SECTION,
};
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::findings::{at_least_if, run_means};
use crate::bench::{BenchRecord, BenchResults, Checks, Finding};

const NAME: &str = "kneighbor";

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "kNeighbor: iteration time per placement of PEs on CPUs",
    section: SECTION,
    seed: "Mei et al., Charm++ on multicore (seed 002), \"CPU affinity\" (kNeighbor)",
    what: "p PEs on a ring each exchange one message with k neighbours on either side per \
           iteration and read every byte; µs per iteration of the slowest PE against message \
           size, per placement (compact, spread, a CPU list, or unpinned) and mode (threads or \
           processes). Messages go through handoff's frame queues with adaptive waits; every \
           byte is checked against its (iteration, sender, receiver) pattern.",
    figures: &[FigureSpec::vs_size(
        "kneighbor",
        "kNeighbor: µs per iteration vs message size",
        "iter_us",
    )],
    findings,
    run: Some(|ctx| run(&Config::for_report(ctx.quick, ctx.allowed_cpus), ctx)),
    worker: Some(worker),
    report_cost: ReportCost::fixed(12.4, 0.4),
    draw: None,
    report: None,
};

super::named::named_enum! {
    /// Threads of this process or one process per PE.
    pub enum Mode {
        /// Threads of this process, queues on the heap.
        Threads = "threads",
        /// One worker process per PE, queues in shared segments.
        Processes = "processes",
    }
}

/// Where PE `i` of `p` runs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Placement {
    /// Neighbours in the nearest placement classes: PE i on the i-th CPU nearest the
    /// lowest one (its SMT sibling, its L2, its L3, its package, ...); with fewer CPUs than
    /// PEs, consecutive PEs share a CPU (see [`handoff_probe::topology::maps`]).
    Compact,
    /// Neighbours in the farthest placement classes (other NUMA node, other package, other
    /// L3, ... first); with fewer CPUs than PEs, round-robin (see [`handoff_probe::topology::maps`]).
    Spread,
    /// PE i on `list[i mod len]` (the seed's `0,2,4,6,1,3,5`).
    List(Vec<usize>),
    /// Not pinned: the OS places them.
    Os,
}

impl Placement {
    /// Its name in series.
    pub fn name(&self) -> String {
        match self {
            Placement::Compact => "compact".into(),
            Placement::Spread => "spread".into(),
            Placement::Os => "os".into(),
            Placement::List(l) => {
                let v: Vec<String> = l.iter().map(|c| c.to_string()).collect();
                format!("cpus {}", v.join(","))
            }
        }
    }

    /// The CPUs of PEs `0..p` (see [`handoff_probe::topology::maps`]); `None` = not pinned.
    pub fn map(&self, p: usize, cpus: &[usize], topo: Option<&Topology>) -> Vec<Option<usize>> {
        let mapped = |map| pe_cpus(topo, cpus, map, p).into_iter().map(Some).collect();
        match self {
            Placement::Compact => mapped(Map::Compact),
            Placement::Spread => mapped(Map::Spread),
            Placement::List(l) => (0..p).map(|i| Some(l[i % l.len()])).collect(),
            Placement::Os => vec![None; p],
        }
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    /// PEs on the ring (at least 2k+1, so the 2k neighbours are distinct).
    pub pes: usize,
    /// Neighbours on each side.
    pub k: usize,
    /// Message sizes in bytes.
    pub sizes: Vec<usize>,
    pub placements: Vec<Placement>,
    pub modes: Vec<Mode>,
    /// Timed iterations per repetition.
    pub iters: u64,
    /// Repetitions per run (after a warm-up of `iters / 4 + 1` iterations).
    pub reps: u64,
    /// Runs (fresh threads or processes each).
    pub runs: u64,
    /// CPUs for `compact` and `spread`.
    pub cpus: Vec<usize>,
}

impl Config {
    /// The report's plan: 7 PEs, k = 3, compact vs spread, threads and processes.
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        Config {
            pes: 7,
            k: 3,
            sizes: if quick {
                vec![256, 16384]
            } else {
                vec![64, 256, 4096, 65536]
            },
            placements: vec![Placement::Compact, Placement::Spread],
            modes: vec![Mode::Threads, Mode::Processes],
            iters: if quick { 60 } else { 200 },
            reps: 3,
            runs: if quick { 2 } else { 3 },
            cpus: cpus.to_vec(),
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.k == 0 || self.k > 64 {
            return Err(bad(format!(
                "--k {}: use 1 to 64 neighbours per side",
                self.k
            )));
        }
        if self.pes < 2 * self.k + 1 || self.pes > 256 {
            return Err(bad(format!(
                "--pes {}: k = {} needs at least {} PEs (2k+1, distinct neighbours) and at most 256",
                self.pes,
                self.k,
                2 * self.k + 1
            )));
        }
        if self.sizes.is_empty() || self.sizes.iter().any(|&s| s == 0 || s > 16 << 20) {
            return Err(bad(
                "--sizes: use sizes from 1 B to 16 MiB, e.g. 64,4KiB".into()
            ));
        }
        let queues = self.pes * 2 * self.k;
        let biggest = self.sizes.iter().max().copied().unwrap_or(0);
        if (queues as u128) * (capacity_for(biggest) as u128) > 2 << 30 {
            return Err(bad(format!(
                "{queues} queues of {biggest}-byte messages need over 2 GiB: lower --pes, --k or --sizes"
            )));
        }
        if self.placements.is_empty() || self.modes.is_empty() {
            return Err(bad(
                "no placement or mode: use e.g. --placement compact,spread --mode threads".into(),
            ));
        }
        if self.iters == 0 || self.reps == 0 || self.runs == 0 {
            return Err(bad("--iters, --reps and --runs must be at least 1".into()));
        }
        if self.cpus.is_empty() {
            return Err(bad("no CPU to run on".into()));
        }
        Ok(())
    }
}

/// Ring bytes per queue: room for four messages (neighbours are at most one iteration apart,
/// so two are ever in flight; a frame never wraps, so up to one more is padding).
fn capacity_for(size: usize) -> usize {
    4 * (size.next_multiple_of(8) + 8)
}

/// The neighbours of `rank`: offsets -k..-1 then 1..k around the ring.
fn neighbours(rank: usize, p: usize, k: usize) -> Vec<usize> {
    (1..=k)
        .rev()
        .map(|d| (rank + p - d) % p)
        .chain((1..=k).map(|d| (rank + d) % p))
        .collect()
}

fn tag(iter: u64, from: usize, to: usize) -> u64 {
    iter.wrapping_mul(1_000_003) ^ ((from as u64) << 20) ^ to as u64
}

/// One PE's (or one run's) samples and its checks: [items checked, items wrong].
type PeRun = (Vec<f64>, [u64; 2]);

/// One PE: `outs[j]` and `ins[j]` go to and come from `neighbours(rank)[j]`. Returns µs per
/// iteration per repetition and whether every byte checked out.
fn pe_loop(
    rank: usize,
    cfg: &Config,
    size: usize,
    outs: &mut [FrameProducer],
    ins: &mut [FrameConsumer],
) -> Result<PeRun, QueueError> {
    let nb = neighbours(rank, cfg.pes, cfg.k);
    let warm = cfg.iters / 4 + 1;
    // Frames checked (length and every word of the payload) and frames wrong.
    let (mut checked, mut wrong) = (0u64, 0u64);
    let mut samples = Vec::with_capacity(cfg.reps as usize);
    let mut it = 0u64;
    // A watchdog per wait (a clock read only when a call has to wait).
    let limit = Duration::from_secs(30);
    for rep in 0..=cfg.reps {
        let n = if rep == 0 { warm } else { cfg.iters };
        let t0 = Instant::now();
        for _ in 0..n {
            for (j, tx) in outs.iter_mut().enumerate() {
                let mut loan = tx.loan_timeout(size, limit)?;
                fill(&mut loan, tag(it, rank, nb[j]));
                loan.commit();
            }
            for (j, rx) in ins.iter_mut().enumerate() {
                let f = rx.recv_timeout(limit)?;
                checked += 1;
                wrong += u64::from(!(f.len() == size && check(&f, tag(it, nb[j], rank))));
            }
            it += 1;
        }
        if rep > 0 {
            samples.push(t0.elapsed().as_secs_f64() * 1e6 / n as f64);
        }
    }
    Ok((samples, [checked, wrong]))
}

/// One run of one point: per repetition, µs per iteration of the slowest PE; verified.
fn one_run(
    cfg: &Config,
    size: usize,
    placement: &Placement,
    mode: Mode,
    ctx: &RunCtx<'_>,
) -> Result<PeRun, BenchError> {
    let p = cfg.pes;
    let qerr = |e: QueueError| BenchError::failed(NAME, e);
    let cpu_map = placement.map(p, &cfg.cpus, map::detected());
    // queues[from][j] carries from → neighbours(from)[j].
    let per_pe: Vec<PeRun> = match mode {
        Mode::Threads => {
            let mut txs: Vec<Vec<FrameProducer>> = Vec::new();
            let mut rxs: Vec<Vec<Option<FrameConsumer>>> = (0..p)
                .map(|_| (0..2 * cfg.k).map(|_| None).collect())
                .collect();
            for from in 0..p {
                let mut row = Vec::new();
                for (j, to) in neighbours(from, p, cfg.k).into_iter().enumerate() {
                    let (tx, rx) = FrameQueue::new(capacity_for(size)).map_err(qerr)?;
                    row.push(tx);
                    // `from` is `to`'s neighbour at the mirrored offset.
                    rxs[to][2 * cfg.k - 1 - j] = Some(rx);
                }
                txs.push(row);
            }
            let results: Vec<Result<PeRun, QueueError>> = std::thread::scope(|s| {
                let handles: Vec<_> = txs
                    .into_iter()
                    .zip(rxs)
                    .enumerate()
                    .map(|(rank, (mut outs, ins))| {
                        // Every receiving end was set above (a neighbour's queue to this PE).
                        let mut ins: Vec<FrameConsumer> =
                            ins.into_iter().map(|r| r.expect("each end once")).collect();
                        let cpu = cpu_map[rank];
                        s.spawn(move || {
                            pin(cpu);
                            pe_loop(rank, cfg, size, &mut outs, &mut ins)
                        })
                    })
                    .collect();
                join_all(handles, || {
                    QueueError::InvalidConfig("a PE thread panicked".into())
                })
            });
            results
                .into_iter()
                .collect::<Result<_, _>>()
                .map_err(qerr)?
        }
        Mode::Processes => {
            let id = run_id();
            let mut queues = Vec::new();
            let mut names = vec![vec![String::new(); 2 * cfg.k]; p];
            for (from, row) in names.iter_mut().enumerate() {
                for (j, to) in neighbours(from, p, cfg.k).into_iter().enumerate() {
                    let q = FrameQueue::create(&format!("kn{id}-{from}-{to}"), capacity_for(size))
                        .map_err(qerr)?;
                    row[j] = q.name().unwrap_or_default().to_string();
                    queues.push(q);
                }
            }
            let mut w = Workers::new(NAME, &ctx.exe, &ctx.args);
            for rank in 0..p {
                let outs = names[rank].join(",");
                let ins: Vec<String> = neighbours(rank, p, cfg.k)
                    .into_iter()
                    .enumerate()
                    .map(|(j, from)| names[from][2 * cfg.k - 1 - j].clone())
                    .collect();
                let cpu = cpu_map[rank].map_or("-".to_string(), |c| c.to_string());
                let args = [
                    rank.to_string(),
                    p.to_string(),
                    cfg.k.to_string(),
                    size.to_string(),
                    cfg.iters.to_string(),
                    cfg.reps.to_string(),
                    cpu,
                    outs,
                    ins.join(","),
                ];
                w.spawn(&args)?;
            }
            let outs = w.finish(Instant::now() + POINT_DEADLINE)?;
            drop(queues);
            outs.iter()
                .map(|o| parse_worker_output(o))
                .collect::<Result<_, _>>()?
        }
    };
    let reps = cfg.reps as usize;
    let slowest: Vec<f64> = (0..reps)
        .map(|r| {
            per_pe
                .iter()
                .map(|(s, _)| s.get(r).copied().unwrap_or(f64::NAN))
                .fold(0.0, f64::max)
        })
        .collect();
    // A PE that returned fewer samples than repetitions counts as one wrong check.
    let counts = per_pe.iter().fold([0, 0], |[c, w], (s, [pc, pw])| {
        [c + pc, w + pw + u64::from(s.len() != reps)]
    });
    Ok((slowest, counts))
}

fn parse_worker_output(text: &str) -> Result<PeRun, BenchError> {
    let mut words = text.split_whitespace();
    let mut count = || {
        words
            .next()
            .and_then(|w| w.parse::<u64>().ok())
            .ok_or_else(|| {
                BenchError::failed(
                    NAME,
                    format!("a PE process printed {text:?}, not its checks and samples"),
                )
            })
    };
    let ok = [count()?, count()?];
    let samples = words
        .map(|w| w.parse::<f64>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| BenchError::failed(NAME, format!("a PE process's samples: {e}")))?;
    Ok((samples, ok))
}

/// A PE process: `RANK P K SIZE ITERS REPS CPU|- OUT_NAMES IN_NAMES`; prints the frames it
/// checked, those wrong, and its samples.
fn worker(args: &[String]) -> Result<(), BenchError> {
    let rank: usize = arg(NAME, args, 0)?;
    let cfg = Config {
        pes: arg(NAME, args, 1)?,
        k: arg(NAME, args, 2)?,
        iters: arg(NAME, args, 4)?,
        reps: arg(NAME, args, 5)?,
        ..Config::for_report(true, &[0])
    };
    let size: usize = arg(NAME, args, 3)?;
    pin(args.get(6).and_then(|s| s.parse::<usize>().ok()));
    let qerr = |e: QueueError| BenchError::failed(NAME, e);
    let open = |list: Option<&String>| -> Result<Vec<FrameQueue>, BenchError> {
        list.into_iter()
            .flat_map(|l| l.split(','))
            .map(|n| FrameQueue::open(n, capacity_for(size), open_deadline()).map_err(qerr))
            .collect()
    };
    let (oq, iq) = (open(args.get(7))?, open(args.get(8))?);
    if oq.len() != 2 * cfg.k || iq.len() != 2 * cfg.k {
        return Err(BenchError::usage(
            NAME,
            format!("worker needs {} queue names each way", 2 * cfg.k),
        ));
    }
    let mut outs = oq
        .iter()
        .map(|q| q.producer())
        .collect::<Result<Vec<_>, _>>()
        .map_err(qerr)?;
    let mut ins = iq
        .iter()
        .map(|q| q.consumer())
        .collect::<Result<Vec<_>, _>>()
        .map_err(qerr)?;
    let (samples, ok) = pe_loop(rank, &cfg, size, &mut outs, &mut ins).map_err(qerr)?;
    let s: Vec<String> = samples.iter().map(|x| x.to_string()).collect();
    println!("{} {} {}", ok[0], ok[1], s.join(" "));
    Ok(())
}

/// Runs `cfg`; stops early (partial) on `ctx.cancel`.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let mut points = Vec::new();
    for &mode in &cfg.modes {
        for placement in &cfg.placements {
            points.extend(cfg.sizes.iter().map(|&size| (mode, placement, size)));
        }
    }
    let mut res = ctx.run_points(NAME, cfg, &points, |ctx, res, &(mode, placement, size)| {
        let mut per_run = Vec::new();
        let mut checks = Checks::of("frames");
        for _ in 0..cfg.runs {
            let (s, [c, w]) = one_run(cfg, size, placement, mode, ctx)?;
            checks.add(c, w);
            per_run.push(s);
        }
        let series = format!("{}, {}", mode.name(), placement.name());
        res.records.push(
            BenchRecord::new(series.clone(), size as f64, cfg.runs, cfg.reps, false)
                .checked(checks)
                .param("mode", mode.name())
                .param("placement", placement.name())
                .param("pes", cfg.pes)
                .param("k", cfg.k)
                .param("size_bytes", size)
                .metric("iter_us", metric(NAME, "µs", false, &per_run)?),
        );
        Ok(Some(format!("{series}, {size} B")))
    })?;
    if cfg.pes > cfg.cpus.len() {
        res.notes.push(format!(
            "{} PEs on {} CPUs (oversubscribed): PEs sharing a CPU take turns; waits sleep on futexes",
            cfg.pes,
            cfg.cpus.len()
        ));
    }
    Ok(res)
}

/// The seed: the best placement depends on the communication pattern — for neighbour
/// exchange, keeping neighbours close wins (11.66 vs 13.37 µs there). Judged as spread /
/// compact per mode at the size nearest the seed's 256 B.
fn findings(res: &BenchResults) -> Vec<Finding> {
    let mut out = Vec::new();
    for mode in ["threads", "processes"] {
        let runs_of = |placement: &str, size: f64| {
            run_means(res, &format!("{mode}, {placement}"), size, "iter_us")
        };
        let size = res
            .records
            .iter()
            .filter(|r| r.param_text("mode") == mode)
            .map(|r| r.x)
            .min_by(|a, b| (a.log2() - 8.0).abs().total_cmp(&(b.log2() - 8.0).abs()));
        let Some(size) = size else { continue };
        out.extend(at_least_if(
            &format!("placement matters for kNeighbor: compact (neighbours in the nearest placement classes) is at least as fast as spread, {mode}, {size} B (seed: 13.37 vs 11.66 µs between two maps)"),
            "spread / compact iteration time",
            runs_of("spread", size),
            runs_of("compact", size),
            1.0,
        ));
    }
    out
}

pub mod map;
#[cfg(test)]
mod tests;
