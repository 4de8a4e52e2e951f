//! `malloc` (Charm++ seed 002, "Memory management"): every thread allocates blocks of one
//! size `count` times (100,000 in the seed), then frees them; the time per allocate+free of
//! the slowest thread against the number of threads, for the system allocator and mimalloc
//! side by side — the seed's table (µs per thread count, one column per allocator).
//!
//! Each block is filled with a pattern of its own (its owner thread, repetition and index)
//! and checked byte for byte before it is freed: a block handed out twice, a byte written
//! by someone else, or a failed allocation fails the run's verification, and the first bad
//! block is named in the results' notes. A hidden fault (`corrupt@N`) overwrites one byte of
//! block N to prove it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::Instant;

use super::rt_common::{self, doubling_to, SECTION};
use super::team_run::Fault;
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::findings::{at_least_if, most_threads_with_a_cpu, run_means};
use crate::bench::{BenchRecord, BenchResults, Checks, Finding};

const NAME: &str = "malloc";

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Allocator contention: system malloc vs mimalloc",
    section: SECTION,
    seed: "Mei et al., Charm++ on multicore (seed 002), \"Memory management\"",
    what: "Every thread allocates blocks of one size 100,000 times, then frees them, all threads \
           at once (pinned round-robin); µs per allocate+free of the slowest thread against \
           threads, per allocator. Each block is filled with its own pattern (a few stores at \
           64 B) and checked byte for byte before it is freed.",
    figures: &[FigureSpec {
        x_label: "threads",
        x_is_size: false,
        log_x: false,
        ..FigureSpec::vs_size(
            "malloc",
            "Allocator: µs per allocate+free vs threads",
            "op_us",
        )
    }],
    findings,
    run: Some(|ctx| run(&Config::for_report(ctx.quick, ctx.allowed_cpus), ctx)),
    worker: None,
    report_cost: ReportCost::fixed(3.8, 0.2),
    draw: None,
    report: None,
};

super::named::named_enum! {
    /// Which allocator.
    pub enum Allocator {
        /// `std::alloc::System` (glibc malloc here).
        System = "system",
        /// `mimalloc::MiMalloc`.
        Mimalloc = "mimalloc",
    }
}

impl Allocator {
    /// # Safety
    /// `layout` has a non-zero size.
    unsafe fn alloc(self, layout: Layout) -> *mut u8 {
        match self {
            // SAFETY: the caller guarantees a non-zero size.
            Allocator::System => unsafe { System.alloc(layout) },
            // SAFETY: as above.
            Allocator::Mimalloc => unsafe { mimalloc::MiMalloc.alloc(layout) },
        }
    }

    /// # Safety
    /// `p` came from `self.alloc(layout)` and is freed once.
    unsafe fn free(self, p: *mut u8, layout: Layout) {
        match self {
            // SAFETY: the caller guarantees `p` is this allocator's block of `layout`.
            Allocator::System => unsafe { System.dealloc(p, layout) },
            // SAFETY: as above.
            Allocator::Mimalloc => unsafe { mimalloc::MiMalloc.dealloc(p, layout) },
        }
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    pub allocators: Vec<Allocator>,
    /// Thread counts.
    pub threads: Vec<usize>,
    /// Block size in bytes (at least 8: the tag).
    pub size: usize,
    /// Allocations per thread per repetition.
    pub count: usize,
    /// Repetitions per run.
    pub reps: u64,
    /// Runs (fresh threads each).
    pub runs: u64,
    /// CPUs to pin to, round-robin.
    pub cpus: Vec<usize>,
    /// Test only: `corrupt@N` overwrites a byte of block N of thread 0 in each run's first
    /// repetition, after its pattern was written.
    pub fault: Option<Fault>,
}

impl Config {
    /// The report's plan: threads 1 … 2× the CPUs, 64-byte blocks, 100,000 allocations.
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        Config {
            allocators: Allocator::ALL.to_vec(),
            threads: doubling_to(2 * cpus.len().max(1)),
            size: 64,
            count: if quick { 20_000 } else { 100_000 },
            reps: if quick { 3 } else { 5 },
            runs: if quick { 2 } else { 3 },
            cpus: cpus.to_vec(),
            fault: None,
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.allocators.is_empty() {
            return Err(bad("no allocator: use --allocator system,mimalloc".into()));
        }
        if self.threads.is_empty() || self.threads.iter().any(|&t| t == 0 || t > 1024) {
            return Err(bad(
                "--threads needs counts from 1 to 1024, e.g. 1,2,4".into()
            ));
        }
        if !(8..=1 << 20).contains(&self.size) {
            return Err(bad(format!("--size {}: use 8 B to 1 MiB", self.size)));
        }
        // The pointers of every thread are held at once: keep it well under memory.
        let max_threads = self.threads.iter().max().copied().unwrap_or(1);
        let bytes = (self.size as u128 + 16) * self.count as u128 * max_threads as u128;
        if bytes > 4 << 30 {
            return Err(bad(format!(
                "{max_threads} threads × {} blocks × {} B would hold {} GiB at once: lower --count or --size",
                self.count,
                self.size,
                bytes >> 30
            )));
        }
        if self.count == 0 || self.reps == 0 || self.runs == 0 {
            return Err(bad("--count, --reps and --runs must be at least 1".into()));
        }
        if self.cpus.is_empty() {
            return Err(bad("no CPU to run on".into()));
        }
        let bad_fault = |f: &&Fault| f.kind != "corrupt" || f.at >= self.count as u64;
        if let Some(f) = self.fault.as_ref().filter(bad_fault) {
            return Err(bad(format!(
                "--fault {}@{}: expected corrupt@N with N below --count ({})",
                f.kind, f.at, self.count
            )));
        }
        Ok(())
    }
}

/// Byte `j` of the pattern of the block tagged `t`.
#[inline]
fn pattern(t: u64, j: usize) -> u8 {
    (t >> (8 * (j % 8))) as u8 ^ (j / 8) as u8
}

/// Fills the `size` bytes at `p` with the pattern of tag `t`.
///
/// # Safety
/// `p` is valid for `size` bytes of writes.
unsafe fn fill(p: *mut u8, size: usize, t: u64) {
    for j in 0..size {
        // SAFETY: j < size, the caller's guarantee.
        unsafe { p.add(j).write(pattern(t, j)) };
    }
}

/// The first byte of the `size` bytes at `p` that is not the pattern of tag `t`: (offset,
/// found).
///
/// # Safety
/// `p` is valid for `size` bytes of reads.
unsafe fn check(p: *const u8, size: usize, t: u64) -> Option<(usize, u8)> {
    (0..size).find_map(|j| {
        // SAFETY: j < size, the caller's guarantee.
        let b = unsafe { p.add(j).read() };
        (b != pattern(t, j)).then_some((j, b))
    })
}

/// What one thread's repetition found wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChurnError {
    /// The allocator returned null.
    #[error("allocation {index} of {size} B failed (out of memory): lower --count or --size")]
    OutOfMemory {
        /// Which allocation of the repetition.
        index: usize,
        /// Bytes asked for.
        size: usize,
    },
    /// A block did not hold the pattern written into it.
    #[error(
        "block {block}: byte {at} of {size} is {found:#04x}, expected {expected:#04x} (written \
         by someone else while allocated: handed out twice, or an injected fault)"
    )]
    Corrupt {
        /// Which block of the repetition.
        block: usize,
        /// The first wrong byte.
        at: usize,
        size: usize,
        /// What it held.
        found: u8,
        /// What was written.
        expected: u8,
    },
}

/// One thread's repetition: allocate `count` blocks, each filled with its own pattern,
/// then check and free them (the fault `corrupt`: overwrite a byte of that block first).
/// `Err` names the first failed allocation or bad block.
fn churn(
    a: Allocator,
    layout: Layout,
    count: usize,
    tag: u64,
    corrupt: Option<usize>,
    ptrs: &mut Vec<*mut u8>,
    counts: &[AtomicU64; 2],
) -> Result<(), ChurnError> {
    let size = layout.size();
    let mut bad = None;
    ptrs.clear();
    for i in 0..count {
        // SAFETY: validate() keeps the size at least 8.
        let p = unsafe { a.alloc(layout) };
        if p.is_null() {
            // A block that could not be had is a wrong one.
            counts[1].fetch_add(1, Ordering::Relaxed);
            bad = Some(ChurnError::OutOfMemory { index: i, size });
            break;
        }
        // SAFETY: `p` is a fresh block of `size` bytes.
        unsafe { fill(p, size, tag ^ i as u64) };
        if corrupt == Some(i) {
            // SAFETY: the middle byte of the block just written (the fault).
            unsafe { *p.add(size / 2) ^= 0x5a };
        }
        ptrs.push(p);
    }
    for (i, &p) in ptrs.iter().enumerate() {
        let t = tag ^ i as u64;
        counts[0].fetch_add(1, Ordering::Relaxed);
        // SAFETY: `p` is a live block of ours of `size` bytes, filled above.
        if let Some((at, found)) = unsafe { check(p, size, t) } {
            counts[1].fetch_add(1, Ordering::Relaxed);
            bad.get_or_insert(ChurnError::Corrupt {
                block: i,
                at,
                size,
                found,
                expected: pattern(t, at),
            });
        }
        // SAFETY: `p` came from `a.alloc(layout)` and is freed once (the vector is cleared).
        unsafe { a.free(p, layout) };
    }
    ptrs.clear();
    bad.map_or(Ok(()), Err)
}

/// A run's samples, its first bad block (if any), and [blocks checked, blocks wrong].
type RunOut = (Vec<f64>, Option<String>, [u64; 2]);

/// One run: fresh threads, `reps` repetitions; µs per allocate+free of the slowest thread
/// per repetition, the first bad block, if any ("thread T, repetition R: ..."), and the
/// blocks checked and found wrong.
fn one_run(cfg: &Config, a: Allocator, threads: usize) -> Result<RunOut, BenchError> {
    let layout = Layout::from_size_align(cfg.size, 8).map_err(|e| BenchError::failed(NAME, e))?;
    let start = Barrier::new(threads + 1);
    let done = Barrier::new(threads + 1);
    let bad = Mutex::new(None::<String>);
    let corrupt = cfg.fault.as_ref().map(|f| f.at as usize);
    let mut samples = Vec::new();
    let counts = [AtomicU64::new(0), AtomicU64::new(0)];
    std::thread::scope(|s| {
        for t in 0..threads {
            let (start, done, bad, counts) = (&start, &done, &bad, &counts);
            let cpu = cfg.cpus[t % cfg.cpus.len()];
            s.spawn(move || {
                super::rt_common::pin(cpu);
                let mut ptrs = Vec::with_capacity(cfg.count);
                for rep in 0..cfg.reps {
                    start.wait();
                    let tag = ((t as u64) << 48) ^ (rep << 40);
                    let fault = corrupt.filter(|_| t == 0 && rep == 0);
                    if let Err(e) = churn(a, layout, cfg.count, tag, fault, &mut ptrs, counts) {
                        let mut b = bad.lock().unwrap_or_else(|p| p.into_inner());
                        b.get_or_insert_with(|| format!("thread {t}, repetition {rep}: {e}"));
                    }
                    done.wait();
                }
            });
        }
        for _ in 0..cfg.reps {
            start.wait();
            let t0 = Instant::now();
            done.wait();
            samples.push(t0.elapsed().as_secs_f64() * 1e6 / cfg.count as f64);
        }
    });
    Ok((
        samples,
        bad.into_inner().unwrap_or_else(|p| p.into_inner()),
        counts.map(AtomicU64::into_inner),
    ))
}

/// Runs `cfg`; stops early (partial) on `ctx.cancel`.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let points: Vec<(usize, Allocator)> = cfg
        .threads
        .iter()
        .flat_map(|&t| cfg.allocators.iter().map(move |&a| (t, a)))
        .collect();
    let mut res = ctx.run_points(NAME, cfg, &points, |_, res, &(threads, a)| {
        let mut per_run = Vec::new();
        let mut checks = Checks::of("blocks");
        for _ in 0..cfg.runs {
            let (s, bad, [c, w]) = one_run(cfg, a, threads)?;
            // The first bad block of this point is enough to say what went wrong.
            if let Some(b) = bad.filter(|_| checks.wrong == 0) {
                res.notes.push(format!(
                    "FAILED verification: {} × {threads} threads: {b}",
                    a.name()
                ));
            }
            checks.add(c, w);
            per_run.push(s);
        }
        res.records.push(
            BenchRecord::new(a.name(), threads as f64, cfg.runs, cfg.reps, false)
                .checked(checks)
                .param("allocator", a.name())
                .param("threads", threads)
                .param("size_bytes", cfg.size)
                .metric("op_us", metric(NAME, "µs", false, &per_run)?),
        );
        Ok(Some(format!("{} × {threads}", a.name())))
    })?;
    let why = "the slowest thread waits for a CPU too";
    rt_common::note_oversubscribed(&mut res.notes, &cfg.threads, cfg.cpus.len(), why);
    Ok(res)
}

/// The seed's point: an allocator that does not serialize threads keeps the time per
/// allocation flat as threads are added. Judged as system / mimalloc at the most threads
/// that still have a CPU each (≥ 2), and as the system allocator's growth from 1 thread.
fn findings(res: &BenchResults) -> Vec<Finding> {
    let runs_of = |series: &str, x: f64| run_means(res, series, x, "op_us");
    let mut out = Vec::new();
    let Some(t) = most_threads_with_a_cpu(res) else {
        return out;
    };
    out.extend(at_least_if(
        &format!("the alternative allocator is at least as fast as the system one at {t} threads (seed: Charm++'s locked allocator lost to the OS's)"),
        "system / mimalloc time",
        runs_of("system", t),
        runs_of("mimalloc", t),
        1.0,
    ));
    out.extend(at_least_if(
        &format!("the system allocator slows down with threads: {t} threads cost at least 1.5× one (seed, column A: 2.1× at 2)"),
        &format!("system time at {t} / at 1 thread"),
        runs_of("system", t),
        runs_of("system", 1.0),
        1.5,
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::experiment::assert_each_refused;

    #[test]
    fn blocks_are_checked_and_freed() {
        let layout = Layout::from_size_align(24, 8).unwrap();
        let mut ptrs = Vec::new();
        for a in Allocator::ALL {
            let counts = [AtomicU64::new(0), AtomicU64::new(0)];
            let r = churn(a, layout, 1000, 77, None, &mut ptrs, &counts);
            assert_eq!(r, Ok(()), "{a:?}");
            assert!(ptrs.is_empty());
            assert_eq!(counts.map(|c| c.into_inner()), [1000, 0], "{a:?}");
        }
        let cfg = Config {
            threads: vec![3],
            count: 500,
            reps: 2,
            ..Config::for_report(true, &[0])
        };
        let (s, bad, counts) = one_run(&cfg, Allocator::Mimalloc, 3).unwrap();
        assert_eq!(bad, None);
        // 3 threads × 2 repetitions × 500 blocks, each checked.
        assert_eq!(counts, [3000, 0]);
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn the_checker_finds_a_byte_overwritten_anywhere_in_a_block() {
        // The pattern by hand: tag 0x0102_0304_0506_0708, byte j is the tag's byte j % 8
        // (little end first) xor the word index j / 8.
        let t = 0x0102_0304_0506_0708u64;
        let want: Vec<u8> = (0..20u8)
            .map(|j| [8u8, 7, 6, 5, 4, 3, 2, 1][j as usize % 8] ^ (j / 8))
            .collect();
        let mut buf = vec![0u8; 20];
        // SAFETY: `buf` holds 20 bytes.
        unsafe { fill(buf.as_mut_ptr(), 20, t) };
        assert_eq!(buf, want);
        // SAFETY: as above.
        assert_eq!(unsafe { check(buf.as_ptr(), 20, t) }, None);
        // The pattern of another block (tag differs in one bit) is not this one's.
        // SAFETY: as above.
        assert_eq!(unsafe { check(buf.as_ptr(), 20, t ^ 1) }, Some((0, 8)));
        for at in [0, 9, 19] {
            let mut b = buf.clone();
            b[at] ^= 0x40;
            // SAFETY: `b` holds 20 bytes.
            let found = unsafe { check(b.as_ptr(), 20, t) };
            assert_eq!(found, Some((at, want[at] ^ 0x40)));
        }
        // Through churn: a corrupted middle byte of block 7 is named.
        let layout = Layout::from_size_align(64, 8).unwrap();
        let counts = [AtomicU64::new(0), AtomicU64::new(0)];
        let e = churn(
            Allocator::System,
            layout,
            10,
            5,
            Some(7),
            &mut Vec::new(),
            &counts,
        )
        .unwrap_err();
        assert_eq!(counts.map(|c| c.into_inner()), [10, 1]);
        assert!(
            matches!(
                e,
                ChurnError::Corrupt {
                    block: 7,
                    at: 32,
                    size: 64,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().starts_with("block 7: byte 32 of 64"), "{e}");
        // And a run with the fault fails verification with that block in its note.
        let cfg = Config {
            threads: vec![2],
            count: 100,
            reps: 2,
            runs: 1,
            allocators: vec![Allocator::Mimalloc],
            fault: Some(Fault {
                kind: "corrupt".into(),
                at: 42,
            }),
            ..Config::for_report(true, &[0])
        };
        let (_, bad, counts) = one_run(&cfg, Allocator::Mimalloc, 2).unwrap();
        assert_eq!(counts, [400, 1]);
        let bad = bad.expect("the corrupted block is caught");
        assert!(
            bad.starts_with("thread 0, repetition 0: block 42: byte 32 of 64"),
            "{bad}"
        );
    }

    #[test]
    fn plan_and_bad_configs() {
        // 2 CPUs: threads 1, 2, 4 (up to 2× the CPUs) as the issue asks.
        let cfg = Config::for_report(false, &[0, 1]);
        assert_eq!(cfg.threads, vec![1, 2, 4]);
        assert_eq!(cfg.count, 100_000);
        assert_each_refused(
            &cfg,
            Config::validate,
            &[
                |c| c.size = 4,
                |c| c.threads = vec![0],
                |c| c.count = 0,
                |c| c.allocators = vec![],
                |c| {
                    c.fault = Some(Fault {
                        kind: "corrupt".into(),
                        at: 100_000,
                    })
                },
                // 1024 threads × 10^6 blocks of 1 MiB: refused, not an OOM.
                |c| {
                    c.threads = vec![1024];
                    c.count = 1_000_000;
                    c.size = 1 << 20;
                },
            ],
        );
    }
}
