//! Plots of exchange results, PNG and SVG, drawn with plotters and a bundled font (no system
//! font library).
//!
//! [`plan_figures`] decides which figures the data supports (a figure needs records that vary
//! on its axis); [`render_png`] and [`render_svg`] draw one (`report::write_figures` writes them). The figures:
//!
//! | id | shows |
//! |---|---|
//! | `read_per_cpu` | read time per consumer CPU, one bar per mode, 95% CI error bars |
//! | `latency_per_cpu` | latency per consumer CPU and mode (log y when the spread exceeds 30×), c2c floor marked |
//! | `read_vs_size_<placement>` | read time vs block size, log-log, L1/L2/L3 sizes marked |
//! | `latency_vs_size_<placement>` | latency vs block size, log-log, c2c floor marked |
//! | `cached_vs_flushed_<placement>` | read time with the block cached vs flushed, per mode |
//! | `c2c_heatmap` | one-way core-to-core latency matrix with values in the cells |
//! | `processes_vs_threads` | the report's first figure: read time and latency vs size of processes-spin and threads-spin, a row per placement |
//!
//! Axes are drawn in linear coordinates; a log axis plots log10 of the value with its own
//! decade ticks, so every figure uses one coordinate type.
//!
//! Layout: [`plan`] decides the figures, `kit` is the small chart toolkit (colours, axes,
//! legends, markers), and one file per figure family draws it (`per_cpu`, `vs_size`,
//! `cached`, `heatmap`).

mod cached;
mod heatmap;
mod kit;
pub mod lines;
mod per_cpu;
pub mod plan;
mod vs_size;

use crate::bench::BenchResults;
use cached::draw_cached_vs_flushed;
use heatmap::draw_heatmap;
use kit::{err, Area, DrawResult};
pub use kit::{mode_color, FONT_FAMILY};
use per_cpu::draw_per_cpu;
pub use plan::{plan_figures, Figure, FigureKind};
pub use plan::{HEADLINE_MODES, LOG_SPREAD, PREFERRED_SIZE};
use vs_size::{draw_processes_vs_threads, draw_vs_size};

use std::sync::OnceLock;

use plotters::prelude::*;

/// The bundled font: a Latin/Greek/symbols subset of DejaVu Sans (see `assets/`).
const FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans-subset.ttf");

/// Width and height of the per-CPU, per-size and cache figures in pixels.
pub const FIGURE_SIZE: (u32, u32) = (1280, 720);
/// Width and height of the heatmap in pixels.
pub const HEATMAP_SIZE: (u32, u32) = (980, 820);
/// Width and height of one panel of the processes-vs-threads figure (two panels a row, one
/// legend beside them).
pub const PANEL_SIZE: (u32, u32) = (580, 360);

/// A figure could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The bundled font did not load (a build problem: the asset is corrupt).
    #[error("the bundled plot font could not be loaded; the build is broken (assets/DejaVuSans-subset.ttf)")]
    Font,
    /// plotters failed while drawing.
    #[error("cannot draw figure {figure}: {message}")]
    Draw {
        /// Figure id.
        figure: String,
        /// What plotters said.
        message: String,
    },
    /// PNG encoding failed.
    #[error("cannot encode figure {figure} as PNG: {message}")]
    Encode {
        /// Figure id.
        figure: String,
        /// What the encoder said.
        message: String,
    },
}

/// Registers the bundled font with plotters under [`FONT_FAMILY`]. Idempotent; the `render_*`
/// functions call it, so callers need not.
pub fn register_font() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT_FAMILY, FontStyle::Normal, FONT_BYTES).is_ok()
            && plotters::style::register_font(FONT_FAMILY, FontStyle::Bold, FONT_BYTES).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(PlotError::Font)
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing entry points

fn figure_size(fig: &Figure) -> (u32, u32) {
    match &fig.kind {
        FigureKind::C2cHeatmap => HEATMAP_SIZE,
        FigureKind::ProcessesVsThreads { panels } => (
            2 * PANEL_SIZE.0 + kit::LEGEND_WIDTH,
            kit::TITLE_HEIGHT + PANEL_SIZE.1 * panels.len().max(1) as u32,
        ),
        _ => FIGURE_SIZE,
    }
}

/// Draws one figure as PNG bytes.
pub fn render_png(results: &BenchResults, fig: &Figure) -> Result<Vec<u8>, PlotError> {
    png_of(&fig.id, figure_size(fig), |root| draw(root, results, fig))
}

/// Draws one figure as SVG text.
pub fn render_svg(results: &BenchResults, fig: &Figure) -> Result<String, PlotError> {
    svg_of(&fig.id, figure_size(fig), |root| draw(root, results, fig))
}

fn draw_error(figure: &str, e: impl std::fmt::Display) -> PlotError {
    PlotError::Draw {
        figure: figure.to_string(),
        message: e.to_string(),
    }
}

/// Draws figure `id` with `draw` into a PNG of `(w, h)` pixels (what every `render_png` does).
fn png_of(
    id: &str,
    (w, h): (u32, u32),
    draw: impl FnOnce(&Area<BitMapBackend<'_>>) -> DrawResult,
) -> Result<Vec<u8>, PlotError> {
    register_font()?;
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        draw(&root).map_err(|e| draw_error(id, e))?;
        root.present().map_err(|e| draw_error(id, e))?;
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Balanced);
    enc.write_header()
        .and_then(|mut writer| writer.write_image_data(&rgb).and_then(|()| writer.finish()))
        .map_err(|e| PlotError::Encode {
            figure: id.to_string(),
            message: e.to_string(),
        })?;
    Ok(out)
}

/// Draws figure `id` with `draw` into SVG text of `size` pixels.
fn svg_of(
    id: &str,
    size: (u32, u32),
    draw: impl FnOnce(&Area<SVGBackend<'_>>) -> DrawResult,
) -> Result<String, PlotError> {
    register_font()?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root).map_err(|e| draw_error(id, e))?;
        root.present().map_err(|e| draw_error(id, e))?;
    }
    Ok(svg)
}

fn draw<DB: DrawingBackend>(root: &Area<DB>, results: &BenchResults, fig: &Figure) -> DrawResult {
    root.fill(&WHITE).map_err(err)?;
    match &fig.kind {
        FigureKind::PerCpu { metric, log_y, .. } => {
            draw_per_cpu(root, results, fig, *metric, *log_y)
        }
        FigureKind::VsSize {
            metric,
            producer_core,
            consumer_core,
            ..
        } => draw_vs_size(root, results, fig, *metric, *producer_core, *consumer_core),
        FigureKind::CachedVsFlushed { .. } => draw_cached_vs_flushed(root, results, fig),
        FigureKind::C2cHeatmap => draw_heatmap(root, results, fig),
        FigureKind::ProcessesVsThreads { panels } => {
            draw_processes_vs_threads(root, results, fig, panels)
        }
    }
}
