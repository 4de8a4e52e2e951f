//! The recommendation in words: the sentences the report and the terminal print, and how a
//! ratio and its interval are phrased.

use crate::bench::BenchResults;
use crate::experiments::exchange::record::record_disagreements;

use super::{Recommendation, BUSY_CPU_PCT};
use crate::bench::text::{fmt_ns, fmt_size, fmt_us};
use crate::experiments::exchange::mode::ModeInfo;
use crate::machine::placement;
use crate::stats::Ratio;

/// "1.02 (95% CI 0.99–1.05)".
pub fn fmt_ratio(r: &Ratio) -> String {
    match (r.ci95_low, r.ci95_high) {
        (Some(l), Some(h)) => format!("{:.2} (95% CI {:.2}–{:.2})", r.ratio, l, h),
        _ => format!("{:.2} (no CI: one run)", r.ratio),
    }
}

/// What a processes/threads ratio means, in words: "as fast" only when the interval holds 1
/// and stays within ±5% of it (no difference shown, and none larger than 5% left possible);
/// an interval that holds 1 but reaches further is "inconclusive".
pub fn ratio_verdict(r: &Ratio) -> String {
    match (r.ci95_low, r.ci95_high) {
        (Some(l), Some(h)) if (0.95..=1.0).contains(&l) && (1.0..=1.05).contains(&h) => {
            "as fast (the CI contains 1 and stays within 5% of it)".to_string()
        }
        (Some(l), Some(h)) if l <= 1.0 && 1.0 <= h => {
            "inconclusive (the CI contains 1: no difference shown either way)".to_string()
        }
        (Some(_), Some(h)) if h < 1.0 => {
            format!("processes are faster by {:.0}%", (1.0 - r.ratio) * 100.0)
        }
        (Some(_), Some(h)) if h <= 1.05 => format!(
            "processes are slower by {:.1}%, within 5%",
            (r.ratio - 1.0) * 100.0
        ),
        (Some(_), Some(_)) => format!("processes are slower by {:.0}%", (r.ratio - 1.0) * 100.0),
        _ => "a single run cannot tell".to_string(),
    }
}

pub(super) fn sentences(results: &BenchResults, rec: &Recommendation) -> Vec<String> {
    let mut out = Vec::new();
    if rec.picks.is_empty() {
        out.push(
            "No two-party mode was measured with the block cached, so there is nothing to \
             recommend yet: run the exchange with at least one of threads-spin, processes-spin, \
             processes-futex, processes-adaptive, processes-semaphore, threads-blocking or pipe."
                .to_string(),
        );
    }
    for p in &rec.picks {
        let measured = match (p.sizes.first(), p.sizes.last()) {
            (Some(a), Some(b)) if a != b => format!("{}–{}", fmt_size(*a), fmt_size(*b)),
            (Some(a), _) => fmt_size(*a),
            _ => String::new(),
        };
        let floor = match p.floor_ns {
            Some(f) if p.placement != placement::SAME_CORE && f > 0.0 => format!(
                " = {:.1}× the c2c floor of {}",
                p.latency_us * 1e3 / f,
                fmt_ns(f)
            ),
            _ => String::new(),
        };
        let spin = if p.cpu_pct >= BUSY_CPU_PCT {
            " (it keeps the consumer's CPU busy while waiting)"
        } else {
            ""
        };
        let mut s = format!(
            "**{} ({}; measured {measured}), consumer {}:** use **{}** — read + latency {} at \
             {} (read {}, latency {}{floor}), consumer CPU {:.0}%{spin}.",
            p.class.phrase(),
            p.class.range_text(),
            placement::describe(&p.placement),
            p.mode,
            fmt_us(p.read_us + p.latency_us),
            fmt_size(p.at_size),
            fmt_us(p.read_us),
            fmt_us(p.latency_us),
            p.cpu_pct,
        );
        if let Some((m, score, cpu)) = &p.alternative {
            s.push_str(&format!(
                " To leave the CPU free: **{m}**, {:+.0}% read + latency, {cpu:.0}% CPU.",
                (score - 1.0) * 100.0
            ));
        }
        if !p.tied.is_empty() {
            let mut all: Vec<&str> = std::iter::once(p.best_measured.as_str())
                .chain(p.tied.iter().map(String::as_str))
                .collect();
            all.sort_by_key(|m| ModeInfo::rank(m));
            s.push_str(&format!(
                " Within noise: {} — pick by CPU cost; **{}** is named as the cheapest, most \
                 ordinary of them{}.",
                all.join(", "),
                p.mode,
                if p.best_measured != p.mode {
                    format!(" ({} measured lowest, within noise)", p.best_measured)
                } else {
                    String::new()
                }
            ));
        }
        out.push(s);
    }

    if let Some(c) = &rec.cache_reuse {
        out.push(format!(
            "**Cache reuse on one core:** processes-futex / single-thread read time at {} = {} — {}.",
            fmt_size(c.size_bytes),
            fmt_ratio(&c.ratio),
            match (c.ratio.ci95_low, c.ratio.ci95_high) {
                (Some(l), Some(h)) if l >= 0.90 && h <= 1.10 => {
                    "as fast as the single-thread baseline: the consumer process reads the block \
                     from the cache the producer left it in"
                }
                (Some(_), Some(h)) if h < 0.90 => {
                    "faster than the single-thread baseline, which a cache cannot explain: the \
                     baseline was probably disturbed (another load, a frequency change); rerun \
                     before drawing a conclusion"
                }
                (Some(l), Some(_)) if l > 1.10 => {
                    "the consumer process pays to bring the block back into cache"
                }
                (Some(_), Some(_)) => "inconclusive: the CI is too wide to tell",
                _ => "a single run cannot tell",
            }
        ));
    }
    // Disagreeing metrics per record.
    let per_record: Vec<usize> = results
        .records
        .iter()
        .map(|r| record_disagreements(r).len())
        .collect();
    let flagged = per_record.iter().filter(|&&n| n > 0).count();
    if flagged > 0 {
        let metrics: usize = per_record.iter().sum();
        out.push(format!(
            "**Run-to-run disagreement:** {flagged} record(s) ({metrics} record–metric \
             pair(s)) have runs whose means disagree (listed under \"Run-to-run \
             disagreement\"); their means hide a real difference between runs, so treat them \
             with care."
        ));
    }
    out
}
