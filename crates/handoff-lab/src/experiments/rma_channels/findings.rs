//! The findings of `rma-channels`, judged on the run means of bytes/s with 95% intervals:
//! the seed's Findings 4 (above 512 B puts beat messages, even at a 4 KiB minimum
//! granularity), 5 (more threads on one RMA connection do not help) and 6 (more RMA
//! connections help, four are enough), and the crossover size: "below N bytes send
//! messages, above it put".

use crate::bench::findings::{at_least, Holds};
use crate::bench::{BenchResults, Finding};
use crate::stats::{ratio_of_means, Ratio};

/// The run means of bytes/s of `series` at `size`.
fn runs(res: &BenchResults, series: &str, size: usize) -> Option<Vec<f64>> {
    res.records
        .iter()
        .find(|r| r.series == series && r.x == size as f64)
        .and_then(|r| r.metrics.get("bytes_per_s"))
        .map(|m| m.run_means.clone())
}

/// The sizes measured in `series`, ascending.
fn sizes(res: &BenchResults, series: &str) -> Vec<usize> {
    let mut v: Vec<usize> = res
        .records
        .iter()
        .filter(|r| r.series == series)
        .map(|r| r.x as usize)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The values of n measured for `prefix` ("threads, XConn") with `method`, ascending.
fn ns(res: &BenchResults, prefix: &str, method: &str) -> Vec<usize> {
    let mut v: Vec<usize> = res
        .records
        .iter()
        .filter(|r| r.series.starts_with(&format!("{prefix}×")) && r.param_text("method") == method)
        .filter_map(|r| r.param_f64("n").map(|n| n as usize))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Which side wins at one size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Puts move more bytes/s (the whole interval of RMA / messages above 1).
    Rma,
    /// Messages do (the whole interval below 1).
    Msg,
    /// The interval contains 1, or there is none.
    Tie,
}

/// Where one-sided puts overtake messages, on one connection.
#[derive(Debug, Clone, PartialEq)]
pub struct Crossover {
    /// The series prefix it was measured on ("threads, XConn×1").
    pub on: String,
    /// Per size: RMA / messages bytes/s and the side that wins.
    pub by_size: Vec<(usize, Ratio, Side)>,
}

fn side(r: &Ratio) -> Side {
    match (r.ci95_low, r.ci95_high) {
        (Some(lo), _) if lo > 1.0 => Side::Rma,
        (_, Some(hi)) if hi < 1.0 => Side::Msg,
        _ => Side::Tie,
    }
}

fn size_text(b: usize) -> String {
    crate::units::format_size(b)
}

impl Crossover {
    /// The size N of "below N bytes send messages, from N on put", when the data name one:
    /// messages win at every measured size below N, puts at N and every size above.
    /// `Some(smallest size)` when puts win everywhere; `None` when messages win everywhere
    /// or the intervals overlap around the switch.
    pub fn size(&self) -> Option<usize> {
        let first_rma = self
            .by_size
            .iter()
            .rposition(|(_, _, s)| *s != Side::Rma)
            .map_or(0, |i| i + 1);
        if first_rma >= self.by_size.len() {
            return None;
        }
        let below_all_msg = self.by_size[..first_rma]
            .iter()
            .all(|(_, _, s)| *s == Side::Msg);
        below_all_msg.then_some(self.by_size[first_rma].0)
    }

    /// The verdict as a finding.
    pub fn finding(&self) -> Finding {
        let claim = format!("message-vs-RMA crossover ({})", self.on);
        let list: Vec<String> = self
            .by_size
            .iter()
            .map(|(s, r, _)| {
                format!(
                    "{} {:.2}×{}",
                    size_text(*s),
                    r.ratio,
                    match (r.ci95_low, r.ci95_high) {
                        (Some(l), Some(h)) => format!(" ({l:.2}–{h:.2})"),
                        _ => " (no interval)".into(),
                    }
                )
            })
            .collect();
        let all_msg = self.by_size.iter().all(|(_, _, s)| *s == Side::Msg);
        let (holds, what) = match self.size() {
            Some(n) if n == self.by_size[0].0 => (
                Holds::Yes,
                format!("puts move more bytes/s at every measured size, from {} on", size_text(n)),
            ),
            Some(n) => (
                Holds::Yes,
                format!("below {} send messages, from {} on put", size_text(n), size_text(n)),
            ),
            None if all_msg => (
                Holds::Yes,
                "messages move more bytes/s at every measured size: send messages".into(),
            ),
            None => (
                Holds::Inconclusive,
                "inconclusive: the 95% intervals overlap around the switch (or it switches back), so no size is named; more runs could tell".into(),
            ),
        };
        let ratio = self
            .size()
            .and_then(|n| self.by_size.iter().find(|(s, _, _)| *s == n))
            .map(|(_, r, _)| *r);
        Finding {
            claim: claim.clone(),
            ratio,
            holds,
            sentence: format!(
                "{claim}: {what} — RMA / messages bytes/s by size: {}.",
                list.join(", ")
            ),
        }
    }
}

/// The crossover on one connection between threads (else processes), plain puts against
/// messages; `None` when neither was measured at two sizes.
pub fn crossover(res: &BenchResults) -> Option<Crossover> {
    for on in ["threads, XConn×1", "processes, XConn×1", "threads, XPYC×1"] {
        let msg = format!("{on}, msg");
        let rma = format!("{on}, rma");
        let by_size: Vec<(usize, Ratio, Side)> = sizes(res, &msg)
            .into_iter()
            .filter_map(|s| {
                let r = ratio_of_means(&runs(res, &msg, s)?, &runs(res, &rma, s)?)?;
                Some((s, r, side(&r)))
            })
            .collect();
        if by_size.len() >= 2 {
            return Some(Crossover {
                on: on.to_string(),
                by_size,
            });
        }
    }
    None
}

/// Combines per-size verdicts: holds when every size holds, does not when one does not.
fn combine(claim: &str, parts: Vec<Finding>) -> Option<Finding> {
    let first = parts.first()?.clone();
    let holds = if parts.iter().all(|f| f.holds == Holds::Yes) {
        Holds::Yes
    } else if parts.iter().any(|f| f.holds == Holds::No) {
        Holds::No
    } else {
        Holds::Inconclusive
    };
    let detail: Vec<String> = parts.iter().map(|f| f.sentence.clone()).collect();
    Some(Finding {
        claim: claim.to_string(),
        ratio: first.ratio,
        holds,
        sentence: format!("{claim}: {} — {}", holds.as_str(), detail.join(" ")),
    })
}

/// Every finding of `res`.
pub fn findings(res: &BenchResults) -> Vec<Finding> {
    let mut out = Vec::new();
    // Finding 4: above 512 B, puts at the 4 KiB minimum granularity beat messages.
    if let Some(c) = crossover(res) {
        let on = &c.on;
        let msg = format!("{on}, msg");
        let parts: Vec<Finding> = sizes(res, &msg)
            .into_iter()
            .filter(|&s| s > 512)
            .filter_map(|s| {
                let coarse = format!("{on}, rma 4K");
                let rma = runs(res, &coarse, s).or_else(|| runs(res, &format!("{on}, rma"), s))?;
                Some(at_least(
                    &format!("at {}", size_text(s)),
                    "RMA (4 KiB granularity) / messages bytes/s",
                    &rma,
                    &runs(res, &msg, s)?,
                    1.0,
                ))
            })
            .collect();
        if let Some(f) = combine(
            &format!("above 512 B puts beat messages even at a 4 KiB minimum granularity ({on}; seed Finding 4)"),
            parts,
        ) {
            out.push(f);
        }
        out.push(c.finding());
    }
    // Finding 5: more producer/consumer threads on one RMA connection do not help.
    let xpyc = ns(res, "threads, XPYC", "rma");
    if let (Some(&one), Some(&many)) = (xpyc.first(), xpyc.last()) {
        if one == 1 && many > 1 {
            let s1 = "threads, XPYC×1, rma".to_string();
            let sn = format!("threads, XPYC×{many}, rma");
            if let Some(&size) = sizes(res, &sn).last() {
                if let (Some(a), Some(b)) = (runs(res, &s1, size), runs(res, &sn, size)) {
                    out.push(at_least(
                        &format!("more threads on one RMA connection do not help: {many} producers and consumers gain under 20% over one ({}; seed Finding 5)", size_text(size)),
                        &format!("RMA bytes/s of XPYC at 1 / at {many}"),
                        &a,
                        &b,
                        0.83,
                    ));
                }
            }
        }
    }
    // Finding 6: more RMA connections help, and four are enough.
    for mode in ["processes", "threads"] {
        let prefix = format!("{mode}, XConn");
        let conns = ns(res, &prefix, "rma");
        let Some(&first) = conns.first() else {
            continue;
        };
        if first != 1 || conns.len() < 2 {
            continue;
        }
        let four = conns.iter().copied().filter(|&n| n <= 4).max().unwrap_or(1);
        let series = |n: usize| format!("{prefix}×{n}, rma");
        let Some(&size) = sizes(res, &series(1)).last() else {
            continue;
        };
        if four > 1 {
            if let (Some(a), Some(b)) =
                (runs(res, &series(four), size), runs(res, &series(1), size))
            {
                out.push(at_least(
                    &format!("more RMA connections improve throughput: {four} move at least 10% more than one ({mode}, {}; seed Finding 6)", size_text(size)),
                    &format!("RMA bytes/s with {four} connections / with 1"),
                    &a,
                    &b,
                    1.1,
                ));
            }
        }
        if let Some(&more) = conns.iter().filter(|&&n| n > 4).max() {
            if let (Some(a), Some(b)) = (
                runs(res, &series(four), size),
                runs(res, &series(more), size),
            ) {
                out.push(at_least(
                    &format!("four RMA connections suffice: {more} gain under 10% over {four} ({mode}, {}; seed Finding 6)", size_text(size)),
                    &format!("RMA bytes/s with {four} connections / with {more}"),
                    &a,
                    &b,
                    0.91,
                ));
            }
        }
    }
    out
}
