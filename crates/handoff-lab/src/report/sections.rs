//! The report as one document, for any results that lead it: title, partial banner, the first
//! screen ([`headline`]), the leading experiment's own part through its registry entry
//! ([`crate::bench::ExperimentInfo::report`]: the exchange's recommendation, machine, method,
//! figures and checks), the other experiments' sections ([`super::experiments`]) and the
//! list of files, as [`Block`]s.

use super::doc::{self, Block};
use super::headline;
use crate::bench::BenchResults;

pub(super) fn title(results: &BenchResults) -> String {
    format!("handoff report — {}", results.machine.hostname)
}

/// The report as Markdown text (what `report.md` holds), without writing anything.
pub fn render_markdown(results: &BenchResults) -> String {
    doc::to_markdown(&build(results, &[]))
}

pub(super) fn build(results: &BenchResults, experiments: &[BenchResults]) -> Vec<Block> {
    let mut b = vec![Block::Heading(1, title(results))];
    if results.partial {
        b.push(Block::Banner(format!(
            "PARTIAL REPORT: {}. Only the {} record(s) measured before the stop are shown; \
             figures, tables and the recommendation cover those alone.",
            results
                .stopped_early
                .as_deref()
                .unwrap_or("the run stopped early"),
            results.records.len()
        )));
    }
    let part = headline::part(results, experiments);
    // The first screen: the one busy warning, the answers, the figure, the picks and the
    // seeds' claims, before every detail.
    b.extend(headline::first_screen_of(results, part.lead, experiments).blocks());
    b.extend(part.sections);
    b.extend(super::experiments::blocks(experiments));

    b.push(Block::Heading(2, "Files".to_string()));
    let mut files = vec![
        "`results.json`: every record, the machine, the configuration (schema `handoff.bench/1`)"
            .to_string(),
        "`report.md`, `index.html`: this report (the HTML embeds every image)".to_string(),
    ];
    files.extend(part.files);
    for e in experiments {
        files.push(format!(
            "`{0}.json`, `{0}.csv`: every point of `{0}` (schema `{1}`)",
            e.experiment,
            crate::bench::BENCH_SCHEMA
        ));
    }
    b.push(Block::List(files));
    b.push(Block::Para(
        "Redraw the plots with `handoff plot results.json`; compare two machines or versions \
         with `handoff compare A/results.json B/results.json`."
            .to_string(),
    ));
    b
}
