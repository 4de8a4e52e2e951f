//! The report's recommendation: which mode to use for which size class and placement, among
//! every mode ([`Recommendation::picks`]) and among the modes whose two parties are processes
//! ([`Recommendation::process_picks`]: the paper's setting), and the paper's question
//! (processes vs threads) answered with a ratio and its CI at every size and once per
//! placement ([`Answer`]).
//!
//! # Method
//!
//! Only cached (not flushed), verified records of two-party modes are candidates. For a size
//! class (fits L1 / L2 / last-level cache / beyond, from the machine's data-cache sizes) and
//! a placement class, the cost of a mode at a size is its mean read time + mean latency
//! (averaged over the consumer CPUs of that placement). Each mode's score is the geometric
//! mean, over the class's sizes it was measured at, of its cost divided by the best cost at
//! that size (1.0 = best everywhere); modes measured at fewer than half of the class's sizes
//! are not ranked. The lowest score is the best *measured* mode, but a mode whose cost is
//! within noise of it is a tie: it is not materially costlier with 95% confidence (the lower
//! bound of the 95% CI of its per-run cost over the best's must exceed 1 + [`TIE_NOISE`], as
//! `compare`'s `--fail-above` gate asks),
//! tested once over the class's sizes ([`pooled_log_ratio`]: geometric mean of the per-size
//! ratios, Welch's t on the log scale); a mode never measured at a size the best was is not a
//! tie. Among the tied modes the pick is the cheap, ordinary one: a mode that does not
//! busy-wait (by the mode registry: a wait that does not poll, not `spin` or `spin-yield`; the
//! measured CPU, which flickers around any threshold, is only reported) first, then the order of [`crate::experiments::exchange::mode::MODES`] (so `pipe`, last,
//! is named only when it is measurably best). The sentence names the ties ("within noise: A, B — pick by CPU cost") instead of a
//! winner drawn from noise. When the pick keeps the consumer's CPU busy, the best mode using
//! under [`BUSY_CPU_PCT`] and at most half the pick's CPU is named as the alternative.

use super::record::{ExchangeRecord as _, ExchangeResults as _};
use crate::bench::{BenchRecord, BenchResults};
use std::collections::{BTreeMap, BTreeSet};

use super::figures::plan::size_distance;
use super::mode::{ModeInfo, Parties};
use crate::bench::text::fmt_size;
use crate::machine::{placement, Machine};
use crate::stats::{self, first_seen, pooled_log_ratio, ratio_of_means, Metric, Ratio};

mod wording;
use wording::sentences;
pub use wording::{fmt_ratio, ratio_verdict};

/// Consumer CPU use (percent) at or above which a mode counts as busy-waiting. A consumer that
/// only works (sums) while the producer fills uses well under this; one that spins, ~100%.
/// (On a shared CPU every party gets at most about half of it, so that case never counts.)
pub const BUSY_CPU_PCT: f64 = 90.0;
/// A mode is tied with the best unless its cost is higher by more than this fraction with 95%
/// confidence (the interval's lower bound above 1 + TIE_NOISE, see `materially_costlier`).
/// Whole invocations of the lab differ by 20-50% and more on a VM whose host moves vCPUs, and a
/// pick drawn from that noise changed from run to run. Measured by re-running the recommender
/// (`examples/recommend.rs`) on three sets of 5 saved `handoff report` runs: picks named by
/// ≥ 4 of 5 runs and whole recommendations identical went from 7/8 and 3 of 5 (20%, point
/// rule) to 8/8 and 4 of 5 on the current binary's set (chosen on it), and from 7/8, 2 of 5
/// to 8/8, 4 of 5 and from 5/8, 2 of 5 to 7/8, 2 of 5 on two sets of an older binary.
pub const TIE_NOISE: f64 = 0.30;

/// Whether a cost ratio (mode / best) is higher than 1 + [`TIE_NOISE`] with 95% confidence:
/// the interval's lower bound, not only the point, must clear the noise (as `compare`'s
/// `--fail-above` gate does), so a mode whose interval reaches into the noise stays tied.
fn materially_costlier(r: &Ratio) -> bool {
    r.ci95_low.is_some_and(|l| l > 1.0 + TIE_NOISE)
}

/// A class of block sizes relative to the machine's caches.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeClass {
    /// e.g. "fits L1", "fits L2", "fits the last-level cache", "beyond the last-level cache".
    pub name: String,
    /// Smallest size of the class, exclusive (0 for the first).
    pub above: u64,
    /// Largest size of the class, inclusive (`None` for the last).
    pub up_to: Option<u64>,
}

impl SizeClass {
    /// Whether `size` falls in the class.
    pub fn contains(&self, size: u64) -> bool {
        size > self.above && self.up_to.is_none_or(|hi| size <= hi)
    }

    /// The start of a sentence about the class: "Blocks that fit L1", "Blocks that go beyond
    /// the last-level cache", "All block sizes".
    pub fn phrase(&self) -> String {
        if let Some(rest) = self.name.strip_prefix("fits ") {
            format!("Blocks that fit {rest}")
        } else if self.name.starts_with("beyond") {
            format!("Blocks that go {}", self.name)
        } else {
            "All block sizes".to_string()
        }
    }

    /// "≤ 32 KiB", "> 32 KiB and ≤ 1 MiB", "> 32 MiB".
    pub fn range_text(&self) -> String {
        match (self.above, self.up_to) {
            (0, Some(hi)) => format!("≤ {}", fmt_size(hi)),
            (lo, Some(hi)) => format!("> {} and ≤ {}", fmt_size(lo), fmt_size(hi)),
            (lo, None) if lo > 0 => format!("> {}", fmt_size(lo)),
            _ => "all sizes".to_string(),
        }
    }
}

/// The size classes of `machine`: one per distinct data-cache size, plus "beyond".
pub fn size_classes(machine: &Machine) -> Vec<SizeClass> {
    let llc = machine.llc_size();
    let mut classes = Vec::new();
    let mut above = 0;
    for level in 1..=4u8 {
        let Some(size) = machine.cache_size(level) else {
            continue;
        };
        if !classes.is_empty() && size <= above {
            continue;
        }
        let name = if Some(size) == llc && level > 1 {
            "fits the last-level cache".to_string()
        } else {
            format!("fits L{level}")
        };
        let up_to = Some(size);
        classes.push(SizeClass { name, above, up_to });
        above = size;
    }
    classes.push(SizeClass {
        name: if above > 0 {
            "beyond the last-level cache".to_string()
        } else {
            "all sizes (cache sizes unknown)".to_string()
        },
        above,
        up_to: None,
    });
    classes
}

/// The recommended mode for one size class and placement.
#[derive(Debug, Clone, PartialEq)]
pub struct Pick {
    pub class: SizeClass,
    pub placement: String,
    /// Sizes of the class that were measured.
    pub sizes: Vec<u64>,
    /// The recommended mode: the cheapest of the modes tied with the best measured one.
    pub mode: String,
    /// The mode with the lowest measured cost (may differ from `mode` within noise).
    pub best_measured: String,
    /// The other modes within noise of the best measured one, in ranking order.
    pub tied: Vec<String>,
    /// The size its numbers are quoted at (the largest measured in the class).
    pub at_size: u64,
    /// Its mean read time there (µs).
    pub read_us: f64,
    /// Its mean latency there (µs).
    pub latency_us: f64,
    /// Its consumer CPU use there (percent).
    pub cpu_pct: f64,
    /// The c2c one-way floor of the placement (ns), if measured.
    pub floor_ns: Option<f64>,
    /// Modes ranked, best first: (mode, score = geometric-mean cost relative to the best).
    pub ranking: Vec<(String, f64)>,
    /// When the winner is busy: the best mode under [`BUSY_CPU_PCT`] and at most half the
    /// winner's CPU use: (mode, score, CPU %).
    pub alternative: Option<(String, f64, f64)>,
}

/// processes-spin / threads-spin read time at one size and placement.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcVsThreads {
    pub placement: String,
    /// Block size.
    pub size_bytes: u64,
    /// Ratio of means with its CI ([`ratio_of_means`]).
    pub ratio: Ratio,
    /// The run means of the denominator (threads-spin) and of the numerator (processes-spin),
    /// µs; empty for a file from before records kept them.
    pub runs: (Vec<f64>, Vec<f64>),
}

/// The paper's question answered for one placement class, over every size measured there.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub placement: String,
    /// The sizes both modes were measured at.
    pub sizes: Vec<u64>,
    /// processes-spin / threads-spin read time over those sizes: the geometric mean of the
    /// per-size ratios with one Welch interval ([`pooled_log_ratio`]); `None` without two
    /// runs a side at every size.
    pub pooled: Option<Ratio>,
    /// How many sizes alone show processes slower / faster (the interval clear of 1).
    pub slower_at: usize,
    /// See `slower_at`.
    pub faster_at: usize,
}

/// The whole recommendation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Recommendation {
    /// One pick per (size class, placement) with data.
    pub picks: Vec<Pick>,
    /// The picks among the modes whose two parties are processes (the paper's setting: a
    /// simulation and its analysis are two programs), one per (size class, placement).
    pub process_picks: Vec<Pick>,
    /// processes-spin / threads-spin read time ratios, every size and placement measured.
    pub proc_vs_threads: Vec<ProcVsThreads>,
    /// The paper's question, one answer per placement class (nearest placement first).
    pub answers: Vec<Answer>,
    /// Same-core processes-futex / single-thread read time (the paper's cache-reuse effect).
    pub cache_reuse: Option<ProcVsThreads>,
    /// The generated sentences, in order (Markdown inline syntax).
    pub sentences: Vec<String>,
}

/// Builds the recommendation from `results` (see the module docs for the method). Records
/// measured on a busy machine ([`crate::bench::busy`]) name no winner: the one sentence says
/// "machine busy: rerun" and why.
pub fn recommend(results: &BenchResults) -> Recommendation {
    if let Some(reasons) = results.machine_load().filter(|l| l.is_busy()) {
        return Recommendation {
            sentences: vec![format!(
                "**Machine busy: rerun.** No mode is recommended from these records: {}. \
                 Run `handoff report` again when the machine is quiet.",
                reasons.busy_reasons().join("; ")
            )],
            ..Recommendation::default()
        };
    }
    let cands: Vec<&BenchRecord> = results
        .records
        .iter()
        .filter(|r| !r.flush_cache() && r.verified && ModeInfo::is_two_party(r.mode()))
        .collect();
    let mut placements: Vec<String> = cands.iter().map(|r| r.placement().to_string()).collect();
    placements.sort_by_key(|p| (placement::rank(p), p.clone()));
    placements.dedup();

    let classes = size_classes(&results.machine);
    let picks_among = |cands: &[&BenchRecord]| -> Vec<Pick> {
        let at = |class| {
            placements
                .iter()
                .filter_map(move |pl| pick(results, cands, class, pl))
        };
        classes.iter().flat_map(at).collect()
    };
    let picks = picks_among(&cands);
    let processes: Vec<&BenchRecord> = cands
        .iter()
        .copied()
        .filter(|r| ModeInfo::by_name(r.mode()).is_some_and(|i| i.parties == Parties::Processes))
        .collect();
    let process_picks = picks_among(&processes);

    let proc_vs_threads = ratios(results, "threads-spin", "processes-spin", None);
    let answers = answers(&proc_vs_threads);
    let cache_reuse = ratios(
        results,
        "single-thread",
        "processes-futex",
        Some(placement::SAME_CORE),
    )
    .into_iter()
    .min_by(|a, b| size_distance(a.size_bytes).total_cmp(&size_distance(b.size_bytes)));

    let mut rec = Recommendation {
        picks,
        process_picks,
        proc_vs_threads,
        answers,
        cache_reuse,
        sentences: Vec::new(),
    };
    rec.sentences = sentences(results, &rec);
    rec
}

/// One [`Answer`] per placement of `per_size` (in its order: nearest placement first).
fn answers(per_size: &[ProcVsThreads]) -> Vec<Answer> {
    let placements = first_seen(per_size.iter().map(|r| &r.placement));
    let answer = |placement: &String| {
        let here: Vec<&ProcVsThreads> = per_size
            .iter()
            .filter(|x| &x.placement == placement)
            .collect();
        let pairs: Vec<(&[f64], &[f64])> = here
            .iter()
            .map(|x| (x.runs.0.as_slice(), x.runs.1.as_slice()))
            .collect();
        let count = |clear: fn(&Ratio) -> bool| here.iter().filter(|x| clear(&x.ratio)).count();
        Answer {
            placement: placement.clone(),
            sizes: here.iter().map(|x| x.size_bytes).collect(),
            pooled: pooled_log_ratio(&pairs),
            slower_at: count(|r| r.ci95_low.is_some_and(|l| l > 1.0)),
            faster_at: count(|r| r.ci95_high.is_some_and(|h| h < 1.0)),
        }
    };
    placements.into_iter().map(answer).collect()
}

fn pick(
    results: &BenchResults,
    cands: &[&BenchRecord],
    class: &SizeClass,
    pl: &str,
) -> Option<Pick> {
    let recs: Vec<&BenchRecord> = cands
        .iter()
        .copied()
        .filter(|r| r.placement() == pl && class.contains(r.size_bytes()))
        .collect();
    if recs.is_empty() {
        return None;
    }
    // Sums over the consumer CPUs of one placement, per (mode, size).
    #[derive(Default)]
    struct Acc {
        read: f64,
        latency: f64,
        cpu: f64,
        floor: f64,
        n: usize,
        /// Per-run costs (read + latency), over the placement's consumer CPUs.
        runs: Vec<f64>,
    }
    let mut cost: BTreeMap<(String, u64), Acc> = BTreeMap::new();
    for r in &recs {
        let (read, latency) = (r.timed(Metric::Read), r.timed(Metric::Latency));
        let e = cost
            .entry((r.mode().to_string(), r.size_bytes()))
            .or_default();
        if latency.run_means.is_empty() {
            e.runs.push(read.summary.mean + latency.summary.mean);
        } else {
            e.runs
                .extend(latency.run_means.iter().enumerate().map(|(i, l)| {
                    // A file from before every metric kept its run means: the read's mean.
                    read.run_means.get(i).copied().unwrap_or(read.summary.mean) + l
                }));
        }
        e.read += r.read_us().mean;
        e.latency += r.latency_us().mean;
        e.cpu += r.consumer_cpu_pct();
        e.floor += r.c2c_one_way_ns.unwrap_or(f64::NAN);
        e.n += 1;
    }
    // (read, latency, CPU %, floor) of `m` at `s`, averaged over the consumer CPUs.
    let avg = |m: &str, s: u64| {
        let e = cost.get(&(m.to_string(), s))?;
        let n = e.n as f64;
        Some((e.read / n, e.latency / n, e.cpu / n, e.floor / n))
    };
    let sizes: BTreeSet<u64> = recs.iter().map(|r| r.size_bytes()).collect();
    let modes: BTreeSet<String> = recs.iter().map(|r| r.mode().to_string()).collect();
    let best_at: BTreeMap<u64, f64> = sizes
        .iter()
        .map(|&s| {
            let costs = modes.iter().filter_map(|m| avg(m, s)).map(|a| a.0 + a.1);
            (s, costs.fold(f64::INFINITY, f64::min))
        })
        .collect();
    let score = |m: &String| {
        let rel: Vec<f64> = sizes
            .iter()
            .filter_map(|&s| avg(m, s).map(|a| (a.0 + a.1).max(1e-9) / best_at[&s].max(1e-9)))
            .collect();
        let score = (rel.iter().map(|x| x.ln()).sum::<f64>() / rel.len() as f64).exp();
        (!rel.is_empty() && rel.len() * 2 >= sizes.len()).then(|| (m.clone(), score))
    };
    let mut ranking: Vec<(String, f64)> = modes.iter().filter_map(score).collect();
    ranking.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let (best_measured, _) = ranking.first()?.clone();
    // Ties: modes not measurably and materially costlier than the best over the class's
    // sizes (one test over all sizes both were measured at; per size when some cost is not
    // positive).
    let tied: Vec<String> = ranking
        .iter()
        .skip(1)
        .map(|(m, _)| m.clone())
        .filter(|m| {
            let pairs: Vec<(&[f64], &[f64])> = sizes
                .iter()
                .filter_map(|&s| {
                    let best = &cost.get(&(best_measured.clone(), s))?.runs;
                    let other = &cost.get(&(m.clone(), s))?.runs;
                    Some((best.as_slice(), other.as_slice()))
                })
                .collect();
            if pairs.is_empty() {
                return false;
            }
            let slower = match pooled_log_ratio(&pairs) {
                Some(r) => materially_costlier(&r),
                None => pairs.iter().any(|(b, o)| {
                    ratio_of_means(b, o)
                        .as_ref()
                        .is_some_and(materially_costlier)
                }),
            };
            !slower
        })
        .collect();
    let mode_cpu = |m: &str| {
        let v: Vec<f64> = sizes.iter().filter_map(|&s| Some(avg(m, s)?.2)).collect();
        stats::mean(&v)
    };
    // A mode busy-waits when its consumer keeps the CPU busy or it polls (spin, spin-yield:
    // on a shared core the yield loop takes turns with the producer): the mode registry says
    // which poll; for a mode it does not know, the records' wait does.
    let spins = |m: &str| {
        ModeInfo::by_name(m).map_or_else(
            || {
                recs.iter()
                    .any(|r| r.mode() == m && r.wait().starts_with("spin"))
            },
            |i| i.busy_waits,
        )
    };
    let mode = std::iter::once(&best_measured)
        .chain(&tied)
        .min_by_key(|m| (spins(m), ModeInfo::rank(m)))
        .cloned()
        .unwrap_or_else(|| best_measured.clone());
    let at_size = sizes
        .iter()
        .rev()
        .copied()
        .find(|&s| avg(&mode, s).is_some())?;
    let (read_us, latency_us, cpu_pct, floor) = avg(&mode, at_size)?;
    let floor_ns = floor.is_finite().then_some(floor).or_else(|| {
        results
            .c2c
            .iter()
            .filter(|p| p.placement == pl && p.cpu_a != p.cpu_b)
            .map(|p| p.one_way_ns)
            .reduce(f64::min)
    });
    let light = |m: &String| {
        let c = mode_cpu(m);
        *m != mode && c < BUSY_CPU_PCT && c <= cpu_pct / 2.0
    };
    let alternative = (cpu_pct >= BUSY_CPU_PCT)
        .then(|| ranking.iter().find(|(m, _)| light(m)))
        .flatten()
        .map(|(m, s)| (m.clone(), *s, mode_cpu(m)));
    Some(Pick {
        class: class.clone(),
        placement: pl.to_string(),
        sizes: sizes.into_iter().collect(),
        mode,
        best_measured,
        tied,
        at_size,
        read_us,
        latency_us,
        cpu_pct,
        floor_ns,
        ranking,
        alternative,
    })
}

/// Ratios `b_mode` / `a_mode` of read time for every (placement, size) where both were
/// measured on the same core pair, cached. With several core pairs per placement the pair
/// with the lowest consumer CPU number is used.
fn ratios(
    results: &BenchResults,
    a_mode: &str,
    b_mode: &str,
    only_placement: Option<&str>,
) -> Vec<ProcVsThreads> {
    let mut out = Vec::new();
    let find = |mode: &str, size: u64, p: usize, c: usize| {
        results.records.iter().find(|r| {
            let point = (r.size_bytes(), r.producer_core(), r.consumer_core());
            !r.flush_cache() && r.mode() == mode && point == (size, p, c)
        })
    };
    let mut seen: BTreeSet<(u8, String, u64)> = BTreeSet::new();
    let mut bs: Vec<&BenchRecord> = results
        .records
        .iter()
        .filter(|r| !r.flush_cache() && r.mode() == b_mode)
        .filter(|r| only_placement.is_none_or(|p| p == r.placement()))
        .collect();
    bs.sort_by_key(|r| {
        (
            placement::rank(r.placement()),
            r.size_bytes(),
            r.consumer_core(),
        )
    });
    for b in bs {
        let key = (
            placement::rank(b.placement()),
            b.placement().to_string(),
            b.size_bytes(),
        );
        if seen.contains(&key) {
            continue;
        }
        // single-thread has consumer = producer; match it by producer only.
        let a = find(a_mode, b.size_bytes(), b.producer_core(), b.consumer_core()).or_else(|| {
            (!ModeInfo::is_two_party(a_mode))
                .then(|| find(a_mode, b.size_bytes(), b.producer_core(), b.producer_core()))
                .flatten()
        });
        let Some(a) = a else {
            continue;
        };
        let (am, bm) = (
            &a.timed(Metric::Read).run_means,
            &b.timed(Metric::Read).run_means,
        );
        let ratio = if am.is_empty() || bm.is_empty() {
            ratio_of_means(&[a.read_us().mean], &[b.read_us().mean])
        } else {
            ratio_of_means(am, bm)
        };
        if let Some(ratio) = ratio {
            seen.insert(key);
            out.push(ProcVsThreads {
                placement: b.placement().to_string(),
                size_bytes: b.size_bytes(),
                ratio,
                runs: (am.clone(), bm.clone()),
            });
        }
    }
    out
}
