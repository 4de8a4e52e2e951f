//! The exchange's figures, drawn with the lab's chart kit (`crate::plot::kit`) and handed
//! to the report and `handoff plot` through the registry ([`draw`]).
//!
//! [`plan_figures`] decides which figures the data supports (a figure needs records that vary
//! on its axis); [`draw`] draws each as PNG and SVG. The figures:
//!
//! | id | shows |
//! |---|---|
//! | `read_per_cpu` | read time per consumer CPU, one bar per mode, 95% CI error bars |
//! | `latency_per_cpu` | latency per consumer CPU and mode (log y when the spread exceeds 30×), c2c floor marked |
//! | `read_vs_size_<placement>` | read time vs block size, log-log, L1/L2/L3 sizes marked |
//! | `latency_vs_size_<placement>` | latency vs block size, log-log, c2c floor marked |
//! | `cached_vs_flushed_<placement>` | read time with the block cached vs flushed, per mode |
//! | `c2c_heatmap` | one-way core-to-core latency matrix with values in the cells ([`crate::experiments::c2c::heatmap`]) |
//! | `processes_vs_threads` | the report's first figure: read time and latency vs size of processes-spin and threads-spin, a row per placement |
//!
//! One file per figure family draws it (`per_cpu`, `vs_size`, `cached`).

mod cached;
mod per_cpu;
pub mod plan;
mod vs_size;

use std::path::Path;

use plotters::prelude::*;

use super::mode::{ModeInfo, Shape};
use super::record::{self, ExchangeRecord as _};
use crate::bench::render::c2c_csv;
use crate::bench::{BenchRecord, BenchResults};
use crate::experiments::c2c::heatmap;
use crate::machine::placement;
use crate::plot::kit::{self, err, Area, DrawResult};
use crate::plot::{png_of, svg_of, Drawn, PlotError, FIGURE_SIZE};
use crate::stats::Metric;
pub use plan::{plan_figures, Figure, FigureKind, HEADLINE_MODES, LOG_SPREAD, PREFERRED_SIZE};

/// Width and height of one panel of the processes-vs-threads figure (two panels a row, one
/// legend beside them).
pub const PANEL_SIZE: (u32, u32) = (580, 360);

/// The registry's hook ([`crate::bench::ExperimentInfo::draw`]): every figure the records of
/// an exchange file support, each with its data as CSV. A file whose records lack what the
/// figures read ([`record::checked`]; `source` names it) is refused before anything is drawn.
pub fn draw(res: &BenchResults, source: Option<&Path>) -> Result<Vec<Drawn>, PlotError> {
    let ex = record::checked(res.clone(), source).map_err(PlotError::Input)?;
    plan_figures(&ex)
        .iter()
        .map(|fig| {
            let size = figure_size(fig);
            Ok(Drawn {
                id: fig.id.clone(),
                png: png_of(&fig.id, size, |root| draw_one(root, &ex, fig))?,
                svg: svg_of(&fig.id, size, |root| draw_one(root, &ex, fig))?,
                csv: Some(figure_csv(&ex, fig)),
            })
        })
        .collect()
}

/// The CSV of one figure's data: its records flattened (or the c2c pairs for the heatmap).
fn figure_csv(results: &BenchResults, fig: &Figure) -> String {
    match fig.kind {
        FigureKind::C2cHeatmap => c2c_csv(&results.c2c),
        _ => {
            let mut b = results.clone();
            b.records = fig.records.iter().map(|&i| b.records[i].clone()).collect();
            crate::bench::render::csv(&b)
        }
    }
}

fn figure_size(fig: &Figure) -> (u32, u32) {
    match &fig.kind {
        FigureKind::C2cHeatmap => heatmap::SIZE,
        FigureKind::ProcessesVsThreads { panels } => (
            2 * PANEL_SIZE.0 + kit::LEGEND_WIDTH,
            kit::TITLE_HEIGHT + PANEL_SIZE.1 * panels.len().max(1) as u32,
        ),
        _ => FIGURE_SIZE,
    }
}

fn draw_one<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
    fig: &Figure,
) -> DrawResult {
    root.fill(&WHITE).map_err(err)?;
    match &fig.kind {
        FigureKind::PerCpu { metric, log_y, .. } => {
            per_cpu::draw_per_cpu(root, results, fig, *metric, *log_y)
        }
        FigureKind::VsSize {
            metric,
            producer_core,
            consumer_core,
            ..
        } => vs_size::draw_vs_size(root, results, fig, *metric, *producer_core, *consumer_core),
        FigureKind::CachedVsFlushed { .. } => cached::draw_cached_vs_flushed(root, results, fig),
        FigureKind::C2cHeatmap => heatmap::draw_heatmap(root, results, &fig.title),
        FigureKind::ProcessesVsThreads { panels } => {
            vs_size::draw_processes_vs_threads(root, results, fig, panels)
        }
    }
}

/// The color of a mode, the same in every figure: the registry's colour, or one of a few
/// extra colours for a mode this version does not know.
pub fn mode_color(mode: &str) -> RGBColor {
    if let Some(info) = ModeInfo::by_name(mode) {
        let (r, g, b) = info.colour;
        return RGBColor(r, g, b);
    }
    const EXTRA: [RGBColor; 4] = [
        RGBColor(0xbc, 0xbd, 0x22),
        RGBColor(0x39, 0x3b, 0x79),
        RGBColor(0x63, 0x79, 0x39),
        RGBColor(0x84, 0x3c, 0x39),
    ];
    let h = mode
        .bytes()
        .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
    EXTRA[h % EXTRA.len()]
}

/// Marker shape of a mode's line series (the registry's; squares for an unknown mode).
fn mode_shape(mode: &str) -> Shape {
    ModeInfo::by_name(mode).map_or(Shape::Square, |i| i.shape)
}

fn metric_desc(metric: Metric) -> &'static str {
    match metric {
        Metric::Read => "read time (µs), mean and 95% CI",
        Metric::Latency => "latency (µs), mean and 95% CI",
    }
}

fn sorted_modes(recs: &[BenchRecord], idx: &[usize]) -> Vec<String> {
    ModeInfo::sorted(idx.iter().map(|&i| recs[i].mode()))
}

fn short_placement(pl: &str) -> &str {
    match pl {
        placement::SAME_CORE => "same core",
        placement::SMT_SIBLING => "SMT sibling",
        placement::SHARED_L2 => "shares L2",
        placement::SHARED_L3 => "shares L3",
        placement::SAME_PACKAGE => "same package",
        placement::CROSS_PACKAGE => "other package",
        placement::CROSS_NUMA => "other NUMA node",
        other => other,
    }
}
