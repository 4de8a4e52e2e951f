//! The findings of `rma-channels`, judged on the run means of bytes/s with 95% intervals:
//! the seed's Findings 4 (above 512 B puts beat messages, even at a 4 KiB minimum
//! granularity), 5 (more threads on one RMA connection do not help) and 6 (more RMA
//! connections help, four are enough), and the crossover size: "below N bytes send
//! messages, above it put".

use crate::bench::findings::{at_least, at_least_if, run_means, Holds};
use crate::bench::{BenchResults, Finding};
use crate::stats::{distinct, ratio_of_means, Ratio};
use crate::units::format_size;

/// The run means of bytes/s of `series` at `size`.
fn runs(res: &BenchResults, series: &str, size: usize) -> Option<Vec<f64>> {
    run_means(res, series, size as f64, "bytes_per_s")
}

/// The sizes measured in `series`, ascending.
fn sizes(res: &BenchResults, series: &str) -> Vec<usize> {
    distinct(res.series(series).iter().map(|r| r.x as usize))
}

/// The values of n measured for `prefix` ("threads, XConn") with `method`, ascending.
fn ns(res: &BenchResults, prefix: &str, method: &str) -> Vec<usize> {
    distinct(
        res.records
            .iter()
            .filter(|r| {
                r.series.starts_with(&format!("{prefix}×")) && r.param_text("method") == method
            })
            .filter_map(|r| r.param_f64("n").map(|n| n as usize)),
    )
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

/// What the per-size verdicts say about the crossover.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Messages win at `msg_up_to`, the largest size where they win (whole 95% interval of
    /// RMA / messages below 1), puts at `rma_from`, the smallest larger size where they win
    /// (whole interval above 1); the sizes between them and above `rma_from` are put wins or
    /// ties. `estimate`: where the ratio's point estimates cross 1 (interpolated on log size
    /// and log ratio), inside `msg_up_to..=rma_from`. `rma_below`: sizes under `msg_up_to`
    /// where puts win all the same (the tiniest payloads, whose put has no frame to fill).
    Between {
        /// The largest size where messages win.
        msg_up_to: usize,
        /// The smallest size above it where puts win.
        rma_from: usize,
        /// The interpolated crossing, bytes.
        estimate: usize,
        /// Sizes below `msg_up_to` where puts win.
        rma_below: Vec<usize>,
    },
    /// Messages win nowhere, puts from `rma_from` on (the smallest size where they win;
    /// smaller sizes are ties).
    RmaFrom(usize),
    /// Messages win at every measured size.
    MsgEverywhere,
    /// No size can be named; the reason in words.
    Inconclusive(String),
}

fn side(r: &Ratio) -> Side {
    match (r.ci95_low, r.ci95_high) {
        (Some(lo), _) if lo > 1.0 => Side::Rma,
        (_, Some(hi)) if hi < 1.0 => Side::Msg,
        _ => Side::Tie,
    }
}

/// A size to two significant figures ("940B", "180KiB", "1.3MiB"), for an estimate.
pub fn approx_size(b: usize) -> String {
    let (v, unit) = if b >= 1 << 20 {
        (b as f64 / (1u64 << 20) as f64, "MiB")
    } else if b >= 1 << 10 {
        (b as f64 / 1024.0, "KiB")
    } else {
        (b as f64, "B")
    };
    if v >= 10.0 {
        let p = 10f64.powi(v.log10().floor() as i32 - 1);
        format!("{}{unit}", (v / p).round() * p)
    } else {
        format!("{v:.1}{unit}")
    }
}

/// "; puts also win at 8B" (sizes under the messages' range), or "".
pub fn below_text(sizes: &[usize]) -> String {
    if sizes.is_empty() {
        return String::new();
    }
    let list: Vec<String> = sizes.iter().map(|&s| format_size(s)).collect();
    format!(
        "; puts also win at {} (below the sizes where messages win)",
        list.join(", ")
    )
}

fn ratio_text(s: usize, r: &Ratio) -> String {
    format!(
        "{} {:.2}×{}",
        format_size(s),
        r.ratio,
        match (r.ci95_low, r.ci95_high) {
            (Some(l), Some(h)) => format!(" ({l:.2}–{h:.2})"),
            _ => " (no interval)".into(),
        }
    )
}

impl Crossover {
    /// The verdict: where messages stop winning and puts start, judged on the 95% intervals
    /// of RMA / messages bytes/s at each size.
    pub fn verdict(&self) -> Verdict {
        let v = &self.by_size;
        if v.is_empty() {
            return Verdict::Inconclusive("no size measured on both sides".into());
        }
        if v.iter().all(|(_, _, s)| *s == Side::Msg) {
            return Verdict::MsgEverywhere;
        }
        let last_msg = v.iter().rposition(|(_, _, s)| *s == Side::Msg);
        let from = last_msg.map_or(0, |i| i + 1);
        let first_rma = v[from..]
            .iter()
            .position(|(_, _, s)| *s == Side::Rma)
            .map(|i| from + i);
        let (m, b) = match (last_msg, first_rma) {
            (_, None) => {
                let ties: Vec<String> = v[from..]
                    .iter()
                    .map(|(s, r, _)| ratio_text(*s, r))
                    .collect();
                return Verdict::Inconclusive(match last_msg {
                    Some(i) if ties.is_empty() => format!(
                        "messages win at the largest size measured ({}) but not at every size, so \
                         no size from which puts win",
                        format_size(v[i].0)
                    ),
                    Some(i) => format!(
                        "messages win up to {}, but above it the 95% intervals contain 1 ({}), so no size where puts win clearly",
                        format_size(v[i].0),
                        ties.join(", ")
                    ),
                    None => "the 95% intervals of RMA / messages contain 1 at every size".into(),
                });
            }
            (None, Some(b)) => return Verdict::RmaFrom(v[b].0),
            (Some(m), Some(b)) => (m, b),
        };
        // Between the bracket's ends: the last pair of neighbours whose point estimates go
        // from below 1 to at least 1, interpolated on log-log.
        let cross = v[m..=b]
            .windows(2)
            .rev()
            .find(|w| w[0].1.ratio < 1.0 && w[1].1.ratio >= 1.0)
            .map(|w| {
                let (x0, x1) = ((w[0].0 as f64).ln(), (w[1].0 as f64).ln());
                let (y0, y1) = (w[0].1.ratio.ln(), w[1].1.ratio.ln());
                let t = if y1 > y0 { -y0 / (y1 - y0) } else { 0.5 };
                (x0 + t.clamp(0.0, 1.0) * (x1 - x0)).exp()
            })
            .unwrap_or_else(|| ((v[m].0 as f64) * (v[b].0 as f64)).sqrt());
        Verdict::Between {
            msg_up_to: v[m].0,
            rma_from: v[b].0,
            estimate: cross.round() as usize,
            rma_below: v[..m]
                .iter()
                .filter(|(_, _, s)| *s == Side::Rma)
                .map(|(s, _, _)| *s)
                .collect(),
        }
    }

    /// The verdict as a finding.
    pub fn finding(&self) -> Finding {
        let claim = format!("message-vs-RMA crossover ({})", self.on);
        let list: Vec<String> = self
            .by_size
            .iter()
            .map(|(s, r, _)| ratio_text(*s, r))
            .collect();
        let first = self.by_size.first().map_or(0, |x| x.0);
        let (holds, what, at) = match self.verdict() {
            Verdict::Between {
                msg_up_to,
                rma_from,
                estimate,
                rma_below,
            } => (
                Holds::Yes,
                format!(
                    "below about {} send messages, above it put — the crossover lies between {} (the largest size where messages are faster, whole 95% interval) and {} (puts faster, whole interval), interpolated at {}{}",
                    approx_size(estimate),
                    format_size(msg_up_to),
                    format_size(rma_from),
                    approx_size(estimate),
                    below_text(&rma_below)
                ),
                Some(rma_from),
            ),
            Verdict::RmaFrom(n) if n == first && self.by_size.iter().all(|x| x.2 == Side::Rma) => (
                Holds::Yes,
                format!("puts move more bytes/s at every measured size, from {} on", format_size(n)),
                Some(n),
            ),
            Verdict::RmaFrom(n) => (
                Holds::Yes,
                format!(
                    "put: messages are faster at no size, puts from {} on wherever the 95% intervals tell them apart",
                    format_size(n)
                ),
                Some(n),
            ),
            Verdict::MsgEverywhere => (
                Holds::Yes,
                "messages move more bytes/s at every measured size: send messages".into(),
                None,
            ),
            Verdict::Inconclusive(why) => (
                Holds::Inconclusive,
                format!("inconclusive, no size named: {why}; more runs (--runs) could tell"),
                None,
            ),
        };
        let ratio = at
            .and_then(|n| self.by_size.iter().find(|(s, _, _)| *s == n))
            .map(|(_, r, _)| *r);
        Finding {
            claim: claim.clone(),
            what: "RMA / messages bytes/s".to_string(),
            threshold: None,
            ratio,
            holds,
            sentence: format!(
                "{claim}: {what} — RMA / messages bytes/s by size: {}.",
                list.join(", ")
            ),
        }
    }
}

/// RMA / messages bytes/s at `size` on `on`: per run pair when the runs were interleaved
/// (each run of messages next to a run of puts, so the ratio of each pair shares the load of
/// its moment: the mean of the log ratios with its Student-t 95% interval), else the ratio
/// of the means with Welch's interval.
fn rma_over_msg(res: &BenchResults, on: &str, size: usize, paired: bool) -> Option<Ratio> {
    let msg = runs(res, &format!("{on}, msg"), size)?;
    let rma = runs(res, &format!("{on}, rma"), size)?;
    if paired
        && msg.len() == rma.len()
        && msg.len() >= 2
        && msg.iter().chain(&rma).all(|x| x.is_finite() && *x > 0.0)
    {
        let logs: Vec<f64> = msg.iter().zip(&rma).map(|(m, r)| (r / m).ln()).collect();
        let (m, ci) = crate::stats::mean_ci95(&logs);
        return Some(Ratio {
            ratio: m.exp(),
            ci95_low: ci.map(|c| c.0.exp()),
            ci95_high: ci.map(|c| c.1.exp()),
        });
    }
    ratio_of_means(&msg, &rma)
}

/// The crossover on one connection between threads (else processes), plain puts against
/// messages; `None` when neither was measured at two sizes.
pub fn crossover(res: &BenchResults) -> Option<Crossover> {
    let paired = res.config.get("interleaved") == Some(&serde_json::Value::Bool(true));
    for on in ["threads, XConn×1", "processes, XConn×1", "threads, XPYC×1"] {
        let by_size: Vec<(usize, Ratio, Side)> = sizes(res, &format!("{on}, msg"))
            .into_iter()
            .filter_map(|s| {
                let r = rma_over_msg(res, on, s, paired)?;
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
        what: first.what,
        threshold: first.threshold,
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
                    &format!("at {}", format_size(s)),
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
    // Finding 5: more producer/consumer threads on one RMA connection do not help (threads;
    // processes: n threads in each of the two PEs sharing the team).
    for mode in ["threads", "processes"] {
        let prefix = format!("{mode}, XPYC");
        let series = |n: usize| format!("{prefix}×{n}, rma");
        let [1, .., many] = ns(res, &prefix, "rma")[..] else {
            continue;
        };
        let Some(&size) = sizes(res, &series(many)).last() else {
            continue;
        };
        out.extend(at_least_if(
            &format!("more threads on one RMA connection do not help: {many} producers and consumers gain under 20% over one ({mode}, {}; seed Finding 5)", format_size(size)),
            &format!("RMA bytes/s of XPYC at 1 / at {many}"),
            runs(res, &series(1), size),
            runs(res, &series(many), size),
            0.83,
        ));
    }
    // Finding 6: more RMA connections help, and four are enough.
    for mode in ["processes", "threads"] {
        let prefix = format!("{mode}, XConn");
        let series = |n: usize| format!("{prefix}×{n}, rma");
        let conns = ns(res, &prefix, "rma");
        let [1, .., _] = conns[..] else {
            continue;
        };
        let four = conns.iter().copied().filter(|&n| n <= 4).max().unwrap_or(1);
        let Some(&size) = sizes(res, &series(1)).last() else {
            continue;
        };
        if four > 1 {
            out.extend(at_least_if(
                &format!("more RMA connections improve throughput: {four} move at least 10% more than one ({mode}, {}; seed Finding 6)", format_size(size)),
                &format!("RMA bytes/s with {four} connections / with 1"),
                runs(res, &series(four), size),
                runs(res, &series(1), size),
                1.1,
            ));
        }
        if let Some(&more) = conns.iter().filter(|&&n| n > 4).max() {
            out.extend(at_least_if(
                &format!("four RMA connections suffice: {more} gain under 10% over {four} ({mode}, {}; seed Finding 6)", format_size(size)),
                &format!("RMA bytes/s with {four} connections / with {more}"),
                runs(res, &series(four), size),
                runs(res, &series(more), size),
                0.91,
            ));
        }
    }
    out
}
