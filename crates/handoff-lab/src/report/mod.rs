//! `handoff report`'s output: one folder with `results.json`, a CSV per figure, every plot
//! (PNG and SVG), `report.md` and a self-contained `index.html` (images embedded as
//! `data:image/png;base64,` URIs, no network reference).
//!
//! The report opens with its first screen ([`headline`]: the papers' questions answered in a
//! few lines), then the part of the experiment that leads it (the exchange's recommendation,
//! machine, method, figures with their tables and run-to-run disagreements:
//! `experiments::exchange::sections`, through the registry), the other experiments'
//! sections and the list of files. A partial run says so at the top.
//!
//! One job per file: [`conduct`] runs the report (plan, measurements, writing), `files`
//! writes the folder, `sections` assembles the document, [`experiments`] writes the sections
//! of the registered experiments, [`doc`] renders them.

pub mod conduct;
pub mod doc;
pub mod experiments;
mod files;
pub mod headline;
pub mod plan;
mod sections;

pub use files::{
    clear_previous_report, write_experiment_files, write_figures, write_full_report, write_report,
    ReportError, Written,
};
pub use sections::render_markdown;
