//! The exchange's part of the report it leads ([`part`], its registry entry's
//! [`crate::bench::ExperimentInfo::report`]): the paper's question answered for the first
//! screen ([`Lead`]), then the recommendation, the machine, the method, one section per
//! figure with its table, the run-to-run disagreements and the data checks, and its files.

use std::collections::{BTreeMap, BTreeSet};

use super::figures::{plan_figures, Figure, FigureKind};
use super::recommend::{self, fmt_ratio, ratio_verdict, Answer, Pick, Recommendation};
use super::record::ExchangeRecord as _;
use super::tables::{disagreements, figure_table, machine_table, record_name};
use crate::bench::text::{fmt_ns, fmt_size, fmt_us};
use crate::bench::BenchResults;
use crate::machine::placement;
use crate::report::doc::{Block, Lead, Part};
use crate::stats::Metric;

/// The exchange's part of a report of `results`, with `experiments` run beside it.
pub fn part(results: &BenchResults, experiments: &[BenchResults]) -> Part {
    let rec = recommend::recommend(results);
    let figures = plan_figures(results);
    let (head, figures): (Vec<&Figure>, Vec<&Figure>) = figures
        .iter()
        .partition(|f| matches!(f.kind, FigureKind::ProcessesVsThreads { .. }));
    let mut b = Vec::new();
    b.push(Block::Para(intro(results)));

    b.push(Block::Heading(2, "Recommendation".to_string()));
    // Messages or puts by size, when `rma-channels` ran (its crossover): a recommendation
    // here and a note of the first screen.
    let rma: Vec<String> = experiments
        .iter()
        .filter_map(crate::experiments::rma_channels::recommendation)
        .collect();
    b.push(Block::List([&rec.sentences[..], &rma].concat()));
    if !rec.picks.is_empty() {
        b.push(Block::Para(
            "How the pick is made: only cached, verified two-party modes compete; the cost of a \
             mode is its mean read time + mean latency; within a size class a mode's score is \
             the geometric mean of its cost relative to the best mode at each size measured. A \
             mode is within noise of the best unless its cost is higher by more than 30% with \
             95% confidence (the lower end of the 95% CI of the ratio above 1.3, as \
             `compare --fail-above` asks), tested once over the class's sizes (geometric mean \
             of the per-size ratios, Welch's t on the log scale): whole runs of this lab differ \
             by that much on a shared VM. Among tied modes the one that does not busy-wait, \
             then the most ordinary, is named."
                .to_string(),
        ));
        b.push(ranking_table(&rec));
    }
    if !rec.proc_vs_threads.is_empty() {
        b.push(Block::Heading(
            3,
            "Processes vs threads at every size".to_string(),
        ));
        b.push(proc_vs_threads_table(&rec));
    }

    b.push(Block::Heading(2, "Machine".to_string()));
    b.push(machine_table(results));

    b.push(Block::Heading(2, "Method".to_string()));
    b.extend(method(results));

    b.push(Block::Heading(2, "Figures".to_string()));
    if figures.is_empty() {
        b.push(Block::Para(
            "No figure: the results do not vary along any figure's axis (consumer CPU, block \
             size, cache state) and hold no c2c pair."
                .to_string(),
        ));
    }
    for &fig in &figures {
        b.push(Block::Heading(3, fig.title.clone()));
        b.push(Block::Figure {
            id: fig.id.clone(),
            alt: fig.title.clone(),
            caption: caption(fig),
            csv: true,
        });
        b.extend(figure_table(results, fig));
    }

    b.push(Block::Heading(2, "Run-to-run disagreement".to_string()));
    b.push(disagreements(results));

    let bad: Vec<String> = results
        .records
        .iter()
        .filter(|r| !r.verified)
        .map(record_name)
        .collect();
    let anomalies: Vec<String> = results
        .records
        .iter()
        .filter(|r| r.clock_anomalies() > 0)
        .map(|r| format!("{}: {}", record_name(r), r.clock_anomalies()))
        .collect();
    if !bad.is_empty() || !anomalies.is_empty() {
        b.push(Block::Heading(2, "Data checks".to_string()));
        if !bad.is_empty() {
            b.push(Block::Para(format!(
                "**NOT VERIFIED** (the consumer computed a wrong sum; these numbers are not \
                 data): {}.",
                bad.join("; ")
            )));
        }
        if !anomalies.is_empty() {
            b.push(Block::Para(format!(
                "Clock anomalies (negative latencies, kept as measured, never clamped): {}.",
                anomalies.join("; ")
            )));
        }
    }

    let files = head
        .iter()
        .chain(&figures)
        .map(|fig| {
            format!(
                "`{0}.png`, `{0}.svg`, `{0}.csv`: {1}",
                fig.id,
                fig.title.to_lowercase()
            )
        })
        .collect();
    let mut lead = lead(results, &rec, head.first().copied());
    lead.notes.extend(rma);
    Part {
        lead,
        sections: b,
        files,
    }
}

/// The paper's question answered: one line per placement, the picks for two processes beside
/// the best of every mode, the cache-line floor, and `figure` (processes vs threads).
pub fn lead(results: &BenchResults, rec: &Recommendation, figure: Option<&Figure>) -> Lead {
    let busy = results
        .records
        .iter()
        .any(|r| r.load.as_ref().is_some_and(|l| l.is_busy()));
    let not_answered = if busy {
        "**Not answered:** the exchange ran on a busy machine, so no ratio is drawn from it \
         (see the warning above)."
    } else {
        "**Not answered:** processes-spin and threads-spin were not both measured on one core \
         pair (run the exchange with both modes)."
    };
    let answers = match rec.answers.is_empty() {
        true => vec![not_answered.to_string()],
        false => rec.answers.iter().map(answer_line).collect(),
    };
    let picks = rec
        .picks
        .iter()
        .map(|best| {
            let two = rec
                .process_picks
                .iter()
                .find(|p| p.class == best.class && p.placement == best.placement);
            [
                best.class.range_text(),
                placement::describe(&best.placement)
                    .trim_start_matches("on ")
                    .to_string(),
                two.map_or_else(
                    || "– (no process mode measured)".to_string(),
                    |p| format!("**{}** {}", p.mode, cost(p)),
                ),
                beside(best, two),
            ]
        })
        .collect();
    Lead {
        answers,
        picks,
        pick_line: pick_line(rec),
        notes: floor_line(results).into_iter().collect(),
        figure: figure.map(|f| Block::Figure {
            id: f.id.clone(),
            alt: f.title.clone(),
            caption: "Mean read time (left) and latency (right) vs block size, log-log, \
                      one row per placement; error bars: 95% CI; dashed: cache sizes and \
                      the c2c floor. Tables of every mode: under Figures."
                .to_string(),
            csv: true,
        }),
    }
}

/// One placement's answer: the pooled ratio, its interval, the verdict and the per-size tally.
fn answer_line(a: &Answer) -> String {
    let sizes = match (a.sizes.first(), a.sizes.last()) {
        (Some(lo), Some(hi)) if a.sizes.len() > 1 => format!(
            "{} sizes, {}–{}",
            a.sizes.len(),
            fmt_size(*lo),
            fmt_size(*hi)
        ),
        (Some(one), _) => fmt_size(*one),
        _ => "no size".to_string(),
    };
    let head = format!(
        "**Consumer {}:** processes / threads",
        placement::describe(&a.placement)
    );
    let tally = format!(
        "{} of {} size(s) alone show processes slower, {} faster",
        a.slower_at,
        a.sizes.len(),
        a.faster_at
    );
    match &a.pooled {
        Some(r) => format!(
            "{head} = {} over {sizes} — {}; {tally}.",
            fmt_ratio(r),
            ratio_verdict(r)
        ),
        None => format!(
            "{head}: no interval over {sizes} (fewer than 2 runs a side at some size); {tally}."
        ),
    }
}

/// "12.3 µs at 1 MiB": a pick's read + latency where it is quoted.
fn cost(p: &Pick) -> String {
    format!(
        "{} at {}",
        fmt_us(p.read_us + p.latency_us),
        fmt_size(p.at_size)
    )
}

/// The best-of-every-mode cell: the pick (its size only where the two-process pick is quoted
/// at another), and how the two-process pick stands beside it: the same, within noise, or
/// its cost relative to the best measured.
fn beside(best: &Pick, two: Option<&Pick>) -> String {
    let Some(two) = two else {
        return format!("**{}** {}", best.mode, cost(best));
    };
    if two.mode == best.mode {
        return format!("the same: **{}**", best.mode);
    }
    let quoted = if two.at_size == best.at_size {
        fmt_us(best.read_us + best.latency_us)
    } else {
        cost(best)
    };
    let head = format!("**{}** {quoted}", best.mode);
    if two.mode == best.best_measured || best.tied.contains(&two.mode) {
        return format!("{head} — {} within noise", two.mode);
    }
    match best.ranking.iter().find(|(m, _)| *m == two.mode) {
        Some((_, score)) => format!("{head} — {} ×{score:.2}", two.mode),
        None => head,
    }
}

/// The terminal's one line of picks: two processes, consumer on the nearest placement across
/// cores (else the only one measured).
fn pick_line(rec: &Recommendation) -> Option<String> {
    let pl = rec
        .process_picks
        .iter()
        .map(|p| p.placement.as_str())
        .filter(|p| *p != placement::SAME_CORE)
        .min_by_key(|p| placement::rank(p))
        .or_else(|| rec.process_picks.first().map(|p| p.placement.as_str()))?;
    let clauses: Vec<String> = rec
        .process_picks
        .iter()
        .filter(|p| p.placement == pl)
        .map(|p| format!("{} → {} ({})", p.class.range_text(), p.mode, cost(p)))
        .collect();
    Some(format!(
        "What to use for two processes (consumer {}): {}.",
        placement::describe(pl),
        clauses.join("; ")
    ))
}

/// The cache-line floor between cores: the median of the floors measured next to the
/// cross-core records (each of its own moment: the host flips between states within
/// seconds, and the matrix at the run's start may have caught another one), else of the c2c
/// matrix.
fn floor_line(results: &BenchResults) -> Option<String> {
    let usable = |ns: &f64| ns.is_finite() && *ns > 0.0;
    let beside: Vec<f64> = results
        .records
        .iter()
        .filter(|r| r.producer_core() != r.consumer_core())
        .filter_map(|r| r.c2c_one_way_ns)
        .filter(usable)
        .collect();
    let (mut v, what) = if beside.is_empty() {
        let matrix = results
            .c2c
            .iter()
            .filter(|p| p.cpu_a != p.cpu_b)
            .map(|p| p.one_way_ns)
            .filter(usable)
            .collect();
        (matrix, "pair(s) of the c2c matrix")
    } else {
        (beside, "floors measured next to the records")
    };
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let median = v[v.len() / 2];
    Some(format!(
        "**Floor:** one cache line takes {} one way between two cores here (median of {} \
         {what}); no hand-off across cores beats it.",
        fmt_ns(median),
        v.len()
    ))
}

fn intro(results: &BenchResults) -> String {
    let m = &results.machine;
    let mut s = format!(
        "{} with {} logical CPUs, measured by handoff {}",
        m.cpu_model, m.logical_cpus, results.tool.version
    );
    if let Some(c) = &results.tool.git_commit {
        s.push_str(&format!(" (commit `{c}`)"));
    }
    if let Some(rs) = &results.report {
        if let Some(t) = &rs.started {
            s.push_str(&format!(", started {t}"));
        }
        if let Some(e) = rs.elapsed_s {
            s.push_str(&format!(", took {e:.0} s"));
        }
        s.push_str(&format!(". Command: `{}`", rs.command));
        if rs.quick {
            s.push_str(" (quick mode: fewer repetitions and points)");
        }
    }
    s.push_str(&format!(
        ". {} record(s). Times are medians over all repetitions with the median's own 95% \
         interval in brackets (distribution-free, see Method), unless a table says otherwise; \
         plots show means with their 95% CI.",
        results.records.len()
    ));
    s
}

fn ranking_table(rec: &Recommendation) -> Block {
    let header = [
        "size class",
        "placement",
        "pick",
        "read + latency",
        "consumer CPU",
        "within noise of the best",
        "runners-up (relative cost)",
    ];
    let rows = rec
        .picks
        .iter()
        .map(|p| {
            vec![
                format!("{} ({})", p.class.name, p.class.range_text()),
                p.placement.clone(),
                format!("**{}**", p.mode),
                cost(p),
                format!("{:.0}%", p.cpu_pct),
                if p.tied.is_empty() {
                    "none: the best is measurably best".to_string()
                } else {
                    std::iter::once(&p.best_measured)
                        .chain(&p.tied)
                        .filter(|m| **m != p.mode)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                },
                p.ranking
                    .iter()
                    .filter(|(m, _)| *m != p.mode && !p.tied.contains(m) && *m != p.best_measured)
                    .take(3)
                    .map(|(m, s)| format!("{m} ×{s:.2}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ]
        })
        .collect();
    Block::table(&header, rows)
}

fn proc_vs_threads_table(rec: &Recommendation) -> Block {
    let header = [
        "block size",
        "placement",
        "processes-spin / threads-spin read time",
        "verdict",
    ];
    let mut ratios: Vec<_> = rec.proc_vs_threads.iter().collect();
    ratios.sort_by_key(|r| (placement::rank(&r.placement), r.size_bytes));
    let rows = ratios
        .into_iter()
        .map(|r| {
            vec![
                fmt_size(r.size_bytes),
                r.placement.clone(),
                fmt_ratio(&r.ratio),
                ratio_verdict(&r.ratio),
            ]
        })
        .collect();
    Block::table(&header, rows)
}

fn method(results: &BenchResults) -> Vec<Block> {
    let mut b = Vec::new();
    match &results.report {
        Some(rs) => {
            b.push(Block::Para(format!(
                "**How repetitions were scaled** ({}): {}",
                rs.rep_scaling, rs.rep_scaling_description
            )));
            if !rs.notes.is_empty() {
                b.push(Block::List(rs.notes.clone()));
            }
        }
        None => b.push(Block::Para(
            "**How repetitions were scaled:** as configured for `bench exchange` (the same for \
             every point; see the table)."
                .to_string(),
        )),
    }
    // reps and runs per size, as recorded.
    let mut per_size: BTreeMap<u64, (BTreeSet<u64>, BTreeSet<u64>)> = BTreeMap::new();
    for r in &results.records {
        let e = per_size.entry(r.size_bytes()).or_default();
        e.0.insert(r.reps);
        e.1.insert(r.runs);
    }
    let span = |v: &BTreeSet<u64>| match (v.first(), v.last()) {
        (Some(first), Some(last)) if first != last => format!("{first}–{last}"),
        (Some(one), _) => one.to_string(),
        _ => "-".to_string(),
    };
    let rows = per_size
        .into_iter()
        .map(|(size, (reps, runs))| vec![fmt_size(size), span(&reps), span(&runs)])
        .collect();
    b.push(Block::table(
        &["block size", "repetitions per run", "runs"],
        rows,
    ));
    b.push(Block::Para(
        "Each run is a fresh pair of threads or processes; runs, not repetitions, are the \
         independent units. Median, p99: over every repetition of every run. Table cells: the \
         median and its 95% interval — distribution-free: the binomial order-statistic \
         interval of the repetitions joined with that of the run medians (6 runs or more) or \
         their range (fewer runs; it then covers the typical run with probability \
         1 − 2^(1−runs), 94% with 5 runs, 75% with 3). Plots: mean of the per-run means with \
         its 95% CI, a Student-t interval on the log scale (it stays above zero), widened to \
         include the mean if needed. Ratios: ratio of means with Welch's t interval on the log \
         scale of the run means. Run-to-run modes: when the run medians (run means in older \
         files) form two levels far apart (a gap of ≥ 25% between neighbours, twice as wide \
         as either level), the cell says so (\"bimodal: 3/5 runs ≈ 18 µs, 2/5 ≈ 34 µs\") \
         instead of hiding it in one mean. Verdicts say \"inconclusive\" when the CI \
         contains 1. Latency is measured from the producer's last write (before it notifies) \
         to the \
         consumer's first read, so it includes the cost of waking the consumer. The c2c floor \
         is the one-way latency of one cache line between the two CPUs: no handoff between \
         those CPUs can be faster."
            .to_string(),
    ));
    b
}

fn caption(fig: &Figure) -> String {
    match &fig.kind {
        FigureKind::PerCpu { metric, log_y, .. } => format!(
            "Bars: mean {} per consumer CPU; error bars: 95% CI of the mean over runs (log-scale \
             t){}{}.",
            metric.name(),
            if *metric == Metric::Latency {
                "; dashed: c2c one-way floor"
            } else {
                ""
            },
            if *log_y { "; log scale" } else { "" }
        ),
        FigureKind::VsSize {
            metric,
            producer_core,
            consumer_core,
            ..
        } => format!(
            "Mean {} vs block size, log-log; error bars: 95% CI; dashed verticals: cache sizes{}.",
            metric.name(),
            if *metric == Metric::Latency && producer_core != consumer_core {
                "; dashed horizontal: c2c one-way floor"
            } else {
                ""
            }
        ),
        FigureKind::CachedVsFlushed { .. } => "Mean read time with the block left in cache by the \
            producer vs flushed from every cache (clflushopt) before the handoff; error bars: 95% CI."
            .to_string(),
        FigureKind::ProcessesVsThreads { .. } => {
            "Read time and latency of processes-spin and threads-spin vs block size.".to_string()
        }
        FigureKind::C2cHeatmap => {
            "One-way latency of one cache line between each pair of CPUs, in ns.".to_string()
        }
    }
}
