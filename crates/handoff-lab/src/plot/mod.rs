//! The lab's plots, PNG and SVG, drawn with plotters and a bundled font (no system font
//! library): the chart kit every figure draws with (`kit`: colours, axes, frames, legends,
//! markers), line charts ([`lines`]: every registered experiment's
//! [`crate::bench::FigureSpec`], the exchange's figures against the block size), grouped
//! bars (`bars`), and the PNG and SVG backends (`png_of`, `svg_of`). An experiment whose
//! figures its data decides (exchange, c2c) lays them out itself and hands them over as
//! [`Drawn`] through its registry entry (`ExperimentInfo::draw`).
//!
//! Axes are drawn in linear coordinates; a log axis plots log10 of the value with its own
//! decade ticks, so every figure uses one coordinate type.

pub(crate) mod bars;
pub(crate) mod kit;
pub mod lines;

use crate::bench::load::LoadError;
pub use kit::FONT_FAMILY;
use kit::{Area, DrawResult};

use std::sync::OnceLock;

use plotters::prelude::*;

/// The bundled font: a Latin/Greek/symbols subset of DejaVu Sans (see `assets/`).
const FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans-subset.ttf");

/// Width and height of the per-CPU, per-size and cache figures in pixels.
pub const FIGURE_SIZE: (u32, u32) = (1280, 720);

/// A figure could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The bundled font did not load (a build problem: the asset is corrupt).
    #[error("the bundled plot font could not be loaded; the build is broken (assets/DejaVuSans-subset.ttf)")]
    Font,
    /// plotters failed while drawing.
    #[error("cannot draw figure {figure}: {message}")]
    Draw { figure: String, message: String },
    /// A results file lacks what its figures read.
    #[error(transparent)]
    Input(LoadError),
    /// PNG encoding failed.
    #[error("cannot encode figure {figure} as PNG: {message}")]
    Encode { figure: String, message: String },
}

/// Registers the bundled font with plotters under [`FONT_FAMILY`]. Idempotent; the `render_*`
/// functions call it, so callers need not.
pub fn register_font() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT_FAMILY, FontStyle::Normal, FONT_BYTES).is_ok()
            && plotters::style::register_font(FONT_FAMILY, FontStyle::Bold, FONT_BYTES).is_ok()
    });
    ok.then_some(()).ok_or(PlotError::Font)
}

/// One figure drawn by an experiment: its file stem, PNG and SVG, and its data as CSV when
/// the figure has a table of its own (`<id>.csv`).
#[derive(Debug, Clone)]
pub struct Drawn {
    /// File stem, unique in a report.
    pub id: String,
    pub png: Vec<u8>,
    pub svg: String,
    /// The figure's data, `<id>.csv`.
    pub csv: Option<String>,
}

fn draw_error(figure: &str, e: impl std::fmt::Display) -> PlotError {
    PlotError::Draw {
        figure: figure.to_string(),
        message: e.to_string(),
    }
}

/// Draws figure `id` with `draw` into a PNG of `(w, h)` pixels (what every `render_png` does).
pub(crate) fn png_of(
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
pub(crate) fn svg_of(
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
