//! `handoff report`'s output: one folder with `results.json`, a CSV per figure, every plot
//! (PNG and SVG), `report.md` and a self-contained `index.html` (images embedded as
//! `data:image/png;base64,` URIs, no network reference).
//!
//! The report opens with its first screen ([`headline`]: the papers' questions answered in a
//! few lines), then a generated recommendation ([`recommend::recommend`]), the
//! machine, the method (how repetitions were scaled), one section per figure with a table of
//! medians and confidence intervals (the c2c floor beside latencies), and the records whose
//! runs disagree ([`crate::stats::disagreement`]). A partial run says so at the top.
//!
//! One job per file: [`conduct`] runs the report (plan, measurements, writing), `files`
//! writes the folder, `sections` the exchange's sections, [`experiments`] the sections of the
//! registered experiments, [`doc`] renders them.

mod class_table;
pub mod conduct;
pub mod doc;
pub mod experiments;
mod files;
pub mod headline;
pub mod plan;
pub mod recommend;
mod sections;
mod tables;

pub use files::{
    clear_previous_report, write_experiment_files, write_figures, write_full_report, write_report,
    ReportError, Written,
};
pub use sections::render_markdown;
