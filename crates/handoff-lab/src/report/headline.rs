//! The report's first screen: the answers before any detail. In order:
//!
//! 1. one warning, once, when any experiment ran on a busy machine: which ones and why (the
//!    reasons each record's [`crate::bench::busy::MachineLoad`] gives; nothing per
//!    experiment below repeats it);
//! 2. the paper's question (are two processes as fast as two threads?) answered in one line
//!    per placement class: processes-spin / threads-spin read time over every size measured
//!    there, its 95% interval and the verdict, "inconclusive" included;
//! 3. what to use per size class and placement: the pick among **two processes** (the
//!    paper's setting: a simulation and its analysis are two programs) beside the best of
//!    every mode, with how they relate;
//! 4. the figure of the question (`processes_vs_threads`);
//! 5. the seeds' claims on this machine: each claim, its figure, this machine's ratio with
//!    its interval, and the verdict ([`crate::bench::findings`]).
//!
//! Items 2-4 are the answer of the experiment that leads the report (the exchange), asked
//! through its registry entry as a [`Lead`]; the rest is the frame every report has.
//!
//! `report.md` and `index.html` render [`FirstScreen::blocks`]; the terminal prints
//! [`FirstScreen::terminal`] (no Markdown).

use crate::bench::findings::{Finding, Holds};
use crate::bench::registry;
use crate::bench::BenchResults;

use super::doc::{Block, Lead, Part};

/// What the first screen says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FirstScreen {
    /// The one busy warning of the whole run, when any experiment ran on a busy machine.
    pub busy: Option<String>,
    /// The paper's question answered by the experiment that leads the report.
    pub lead: Lead,
    /// The seeds' claims: experiment, claim, the claim's figure, this machine's, verdict.
    pub claims: Vec<[String; 5]>,
    /// For the terminal: how many claims hold, do not, are inconclusive.
    tally: Option<String>,
}

/// The part of the report that `results`' experiment writes, through its registry entry
/// ([`crate::bench::ExperimentInfo::report`]; none for most).
pub fn part(results: &BenchResults, experiments: &[BenchResults]) -> Part {
    registry::by_name(&results.experiment)
        .and_then(|i| i.report)
        .map_or_else(Part::default, |report| report(results, experiments))
}

/// The first screen of `results` (the exchange) and the registered experiments run beside
/// it: the answer is the one `results`' experiment gives ([`part`]).
pub fn first_screen(results: &BenchResults, experiments: &[BenchResults]) -> FirstScreen {
    first_screen_of(results, part(results, experiments).lead, experiments)
}

/// [`first_screen`] with the answer `lead` already drawn.
pub fn first_screen_of(
    results: &BenchResults,
    lead: Lead,
    experiments: &[BenchResults],
) -> FirstScreen {
    let mut held = [0usize; 3];
    let mut claims = Vec::new();
    for res in experiments {
        let busy = res.busy_part().is_some();
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
        lead,
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
            .chain(&self.lead.answers)
            .chain(&self.lead.pick_line)
            .chain(&self.lead.notes)
            .chain(&self.tally)
            .map(|s| s.replace("**", "").replace('`', ""))
            .collect()
    }

    /// The first screen as report blocks, the figure of the question (if the data supports
    /// it) after the picks.
    pub fn blocks(&self) -> Vec<Block> {
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
        b.push(Block::List(self.lead.answers.clone()));
        if !self.lead.picks.is_empty() {
            b.push(Block::Para(
                "**What to use** (cost = mean read time + latency of the largest size measured \
                 in the class; ×: a cost relative to the best measured; how picks are made: \
                 under Recommendation):"
                    .to_string(),
            ));
            b.push(Block::table(
                &[
                    "block size",
                    "consumer",
                    "two processes (the paper's setting)",
                    "best of every mode",
                ],
                self.lead.picks.iter().map(|r| r.to_vec()).collect(),
            ));
        }
        if !self.lead.notes.is_empty() {
            b.push(Block::List(self.lead.notes.clone()));
        }
        b.extend(self.lead.figure.clone());
        b.push(Block::Para(
            "**The seeds' claims on this machine**".to_string(),
        ));
        if self.claims.is_empty() {
            b.push(Block::Para(
                "No registered experiment ran beside the exchange, so no claim was judged."
                    .to_string(),
            ));
        } else {
            b.push(Block::table(
                &[
                    "experiment",
                    "claim",
                    "the paper's figure",
                    "this machine (95% CI)",
                    "verdict",
                ],
                self.claims.iter().map(|r| r.to_vec()).collect(),
            ));
        }
        b
    }
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
        let Some(part) = res.busy_part() else {
            continue;
        };
        names.push(if part.busy_records < part.records {
            let (n, all) = (part.busy_records, part.records);
            format!("`{}` ({n} of {all} records)", res.experiment)
        } else {
            format!("`{}`", res.experiment)
        });
        for reason in part.reasons {
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
    let verdict = format!(
        "{}{}",
        f.holds.as_str(),
        if busy { " (machine busy)" } else { "" }
    );
    [
        format!("`{experiment}`"),
        f.claim.clone(),
        figure,
        here,
        verdict,
    ]
}
