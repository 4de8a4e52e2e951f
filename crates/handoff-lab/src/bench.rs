//! The common shape of every experiment after `exchange`: one results schema
//! ([`BENCH_SCHEMA`]), records built from per-run samples with the lab's statistics, a
//! registry of experiments ([`registry::EXPERIMENTS`]) that says what each measures and how
//! to draw it, the seed's claims judged as ratios with intervals ([`findings`]), and the
//! generic outputs: text table, CSV, line plots, report section and `compare`.
//!
//! An experiment plugs in by
//! 1. measuring points and building [`BenchRecord`]s with [`BenchRecord::new`] and
//!    [`MetricRecord::from_runs`] (one `Vec` of samples per run, every run verified);
//! 2. adding an [`experiment::ExperimentInfo`] (figures, findings) to [`registry::EXPERIMENTS`];
//! 3. a `handoff bench NAME` subcommand that writes [`BenchResults`] with
//!    [`render::render`] (text, JSON or CSV).
//!
//! `handoff report`, `handoff plot` and `handoff compare` then handle it with no code of its
//! own.

pub mod busy;
pub mod compare;
pub mod experiment;
pub mod findings;
pub mod load;
pub mod models;
pub mod registry;
pub mod render;
pub mod schema;
pub mod text;
pub mod verdict;

pub use experiment::{BenchError, ExperimentInfo, FigureSpec, RunCtx};
pub use findings::{Finding, Holds};
pub use models::{ModelFit, ModelForm};
pub use schema::{BenchRecord, BenchResults, Checks, MetricRecord, BENCH_SCHEMA};
