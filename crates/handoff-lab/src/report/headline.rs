//! The report's first screen: the answers before any detail. In order:
//!
//! 1. one warning, once, when any experiment ran on a busy machine: which ones and why (the
//!    reasons each record's [`MachineLoad`] gives; nothing per experiment below repeats it);
//! 2. the paper's question (are two processes as fast as two threads?) answered in one line
//!    per placement class: processes-spin / threads-spin read time over every size measured
//!    there ([`Answer`]), its 95% interval and the verdict, "inconclusive" included;
//! 3. what to use per size class and placement: the pick among **two processes** (the
//!    paper's setting: a simulation and its analysis are two programs) beside the best of
//!    every mode, with how they relate ([`Recommendation::process_picks`],
//!    [`Recommendation::picks`]);
//! 4. the figure of the question (`processes_vs_threads`, [`crate::experiments::exchange::figures::plan`]);
//! 5. the seeds' claims on this machine: each claim, its figure, this machine's ratio with
//!    its interval, and the verdict ([`crate::bench::findings`]).
//!
//! `report.md` and `index.html` render [`FirstScreen::blocks`]; the terminal prints
//! [`FirstScreen::terminal`] (no Markdown).

use crate::bench::busy::MachineLoad;
use crate::bench::findings::{Finding, Holds};
use crate::bench::registry;
use crate::bench::text::{fmt_ns, fmt_size, fmt_us};
use crate::bench::BenchResults;
use crate::experiments::exchange::figures::Figure;
use crate::machine::placement;

use super::doc::Block;
use super::recommend::{fmt_ratio, ratio_verdict, Answer, Pick, Recommendation};

/// What the first screen says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FirstScreen {
    /// The one busy warning of the whole run, when any experiment ran on a busy machine.
    pub busy: Option<String>,
    /// The paper's question, one line per placement class (Markdown inline syntax).
    pub answers: Vec<String>,
    /// What to use: one row per (size class, placement): size class, consumer, the pick
    /// among two processes, the best of every mode.
    pub picks: Vec<[String; 4]>,
    /// The same for the terminal: the picks of the nearest placement across cores.
    pick_line: Option<String>,
    /// One-line facts beside the picks: the cache-line floor, messages or puts.
    pub notes: Vec<String>,
    /// The seeds' claims: experiment, claim, the claim's figure, this machine's, verdict.
    pub claims: Vec<[String; 5]>,
    /// For the terminal: how many claims hold, do not, are inconclusive.
    tally: Option<String>,
}

/// The first screen of `results` (the exchange) and the registered experiments run beside
/// it, given the recommendation drawn from the exchange.
pub fn first_screen(
    results: &BenchResults,
    rec: &Recommendation,
    experiments: &[BenchResults],
) -> FirstScreen {
    let answers = if rec.answers.is_empty() {
        vec![if first_busy(results).is_some() {
            "**Not answered:** the exchange ran on a busy machine, so no ratio is drawn from \
             it (see the warning above)."
                .to_string()
        } else {
            "**Not answered:** processes-spin and threads-spin were not both measured on one \
             core pair (run the exchange with both modes)."
                .to_string()
        }]
    } else {
        rec.answers.iter().map(answer_line).collect()
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
    let mut notes: Vec<String> = floor_line(results).into_iter().collect();
    notes.extend(
        experiments
            .iter()
            .filter_map(crate::experiments::rma_channels::recommendation),
    );
    let mut held = [0usize; 3];
    let mut claims = Vec::new();
    for res in experiments {
        let busy = first_busy(res).is_some();
        for f in registry::findings(res) {
            held[f.holds as usize] += 1;
            claims.push(claim_row(&res.experiment, &f, busy));
        }
    }
    let tally = (!claims.is_empty()).then(|| {
        format!(
            "The seeds' claims here: {} hold, {} do not, {} inconclusive (the table in \
             index.html).",
            held[Holds::Yes as usize],
            held[Holds::No as usize],
            held[Holds::Inconclusive as usize]
        )
    });
    FirstScreen {
        busy: busy_warning(results, experiments),
        answers,
        picks,
        pick_line: pick_line(rec),
        notes,
        claims,
        tally,
    }
}

impl FirstScreen {
    /// The busy line (if any), the answers, the two-process picks and the claims' tally, as
    /// plain text for a terminal.
    pub fn terminal(&self) -> Vec<String> {
        self.busy
            .iter()
            .chain(&self.answers)
            .chain(&self.pick_line)
            .chain(&self.notes)
            .chain(&self.tally)
            .map(|s| s.replace("**", "").replace('`', ""))
            .collect()
    }

    /// The first screen as report blocks, `figure` (the processes-vs-threads figure, if the
    /// data supports it) after the picks.
    pub fn blocks(&self, figure: Option<&Figure>) -> Vec<Block> {
        let mut b = Vec::new();
        if let Some(w) = &self.busy {
            b.push(Block::Notice(w.clone()));
        }
        b.push(Block::Para(
            "**Are two processes as fast as two threads?** The paper's question, per placement: \
             processes-spin / threads-spin read time, geometric mean over the sizes measured, \
             95% CI."
                .to_string(),
        ));
        b.push(Block::List(self.answers.clone()));
        if !self.picks.is_empty() {
            b.push(Block::Para(
                "**What to use** (cost = mean read time + latency of the largest size measured \
                 in the class; ×: a cost relative to the best measured; how picks are made: \
                 under Recommendation):"
                    .to_string(),
            ));
            b.push(Block::Table {
                header: vec![
                    "block size".to_string(),
                    "consumer".to_string(),
                    "two processes (the paper's setting)".to_string(),
                    "best of every mode".to_string(),
                ],
                rows: self.picks.iter().map(|r| r.to_vec()).collect(),
            });
        }
        if !self.notes.is_empty() {
            b.push(Block::List(self.notes.clone()));
        }
        if let Some(f) = figure {
            b.push(Block::Figure {
                id: f.id.clone(),
                alt: f.title.clone(),
                caption: "Mean read time (left) and latency (right) vs block size, log-log, \
                          one row per placement; error bars: 95% CI; dashed: cache sizes and \
                          the c2c floor. Tables of every mode: under Figures."
                    .to_string(),
                csv: true,
            });
        }
        b.push(Block::Para(
            "**The seeds' claims on this machine**".to_string(),
        ));
        if self.claims.is_empty() {
            b.push(Block::Para(
                "No registered experiment ran beside the exchange, so no claim was judged."
                    .to_string(),
            ));
        } else {
            b.push(Block::Table {
                header: vec![
                    "experiment".to_string(),
                    "claim".to_string(),
                    "the paper's figure".to_string(),
                    "this machine (95% CI)".to_string(),
                    "verdict".to_string(),
                ],
                rows: self.claims.iter().map(|r| r.to_vec()).collect(),
            });
        }
        b
    }
}

/// The first busy evidence among `res`'s records, and how many of them were busy.
fn first_busy(res: &BenchResults) -> Option<(&MachineLoad, usize)> {
    let busy: Vec<&MachineLoad> = res
        .records
        .iter()
        .filter_map(|r| r.load.as_ref())
        .filter(|l| l.is_busy())
        .collect();
    Some((*busy.first()?, busy.len()))
}

/// The run's one busy warning: which experiments ran on a busy machine (with how many of
/// their records, when not all) and why: each kind of reason once, as the first busy record
/// that gave it said it (a kind: the reason's words before its first figure); `None` when
/// none did.
fn busy_warning(results: &BenchResults, experiments: &[BenchResults]) -> Option<String> {
    let all: Vec<&BenchResults> = std::iter::once(results).chain(experiments).collect();
    let mut names = Vec::new();
    let mut why: Vec<(String, String)> = Vec::new();
    for res in &all {
        let Some((load, n)) = first_busy(res) else {
            continue;
        };
        names.push(if n < res.records.len() {
            format!(
                "`{}` ({n} of {} records)",
                res.experiment,
                res.records.len()
            )
        } else {
            format!("`{}`", res.experiment)
        });
        for reason in load.busy_reasons() {
            let kind: String = reason.chars().take_while(|c| !c.is_ascii_digit()).collect();
            if !why.iter().any(|(k, _)| *k == kind) {
                why.push((kind, format!("{reason} (`{}`)", res.experiment)));
            }
        }
    }
    let ran = all.iter().filter(|r| !r.records.is_empty()).count();
    (!names.is_empty()).then(|| {
        format!(
            "**Machine busy** during {} of {ran} experiments: {}. Why: {}. Their figures may \
             include that other work and their verdicts are marked; rerun them on a quiet \
             machine.",
            names.len(),
            names.join(", "),
            why.into_iter().map(|w| w.1).collect::<Vec<_>>().join("; ")
        )
    })
}

/// One placement's answer: the pooled ratio, its interval, the verdict and the per-size tally.
fn answer_line(a: &Answer) -> String {
    let sizes = match (a.sizes.first(), a.sizes.last()) {
        (Some(lo), Some(hi)) if a.sizes.len() > 1 => {
            format!(
                "{} sizes, {}–{}",
                a.sizes.len(),
                fmt_size(*lo),
                fmt_size(*hi)
            )
        }
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
    let head = if two.at_size == best.at_size {
        format!(
            "**{}** {}",
            best.mode,
            fmt_us(best.read_us + best.latency_us)
        )
    } else {
        format!("**{}** {}", best.mode, cost(best))
    };
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

/// The cache-line floor between cores: the median of the c2c matrix.
fn floor_line(results: &BenchResults) -> Option<String> {
    let mut v: Vec<f64> = results
        .c2c
        .iter()
        .filter(|p| p.cpu_a != p.cpu_b && p.one_way_ns.is_finite() && p.one_way_ns > 0.0)
        .map(|p| p.one_way_ns)
        .collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let median = v[v.len() / 2];
    Some(format!(
        "**Floor:** one cache line takes {} one way between two cores here (median of {} \
         pair(s)); no hand-off across cores beats it.",
        fmt_ns(median),
        v.len()
    ))
}

/// One row of the claims table.
fn claim_row(experiment: &str, f: &Finding, busy: bool) -> [String; 5] {
    let figure = f
        .threshold
        .map_or_else(|| "–".to_string(), |t| format!("{} ≥ {t}×", f.what));
    let here = match &f.ratio {
        None => "not measured".to_string(),
        Some(r) => match (r.ci95_low, r.ci95_high) {
            (Some(l), Some(h)) => format!("{:.2}× ({l:.2}–{h:.2})", r.ratio),
            _ => format!("{:.2}× (one run, no interval)", r.ratio),
        },
    };
    let verdict = if busy {
        format!("{} (machine busy)", f.holds.as_str())
    } else {
        f.holds.as_str().to_string()
    };
    [
        format!("`{experiment}`"),
        f.claim.clone(),
        figure,
        here,
        verdict,
    ]
}
