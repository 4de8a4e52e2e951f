//! Plots of exchange results, PNG and SVG, drawn with plotters and a bundled font (no system
//! font library).
//!
//! [`plan_figures`] decides which figures the data supports (a figure needs records that vary
//! on its axis); [`plot_all`] draws each as `<id>.png` and `<id>.svg`. The figures:
//!
//! | id | shows |
//! |---|---|
//! | `read_per_cpu` | read time per consumer CPU, one bar per mode, 95% CI error bars |
//! | `latency_per_cpu` | latency per consumer CPU and mode (log y when the spread exceeds 30×), c2c floor marked |
//! | `read_vs_size_<placement>` | read time vs block size, log-log, L1/L2/L3 sizes marked |
//! | `latency_vs_size_<placement>` | latency vs block size, log-log, c2c floor marked |
//! | `cached_vs_flushed_<placement>` | read time with the block cached vs flushed, per mode |
//! | `c2c_heatmap` | one-way core-to-core latency matrix with values in the cells |
//!
//! Axes are drawn in linear coordinates; a log axis plots log10 of the value with its own
//! decade ticks, so every figure uses one coordinate type.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::experiments::exchange::mode::{ModeInfo, Shape};
use crate::output::{fmt_ns, fmt_size, sig3};
use crate::schema::{mode_rank, placement, ExchangeRecord, ExchangeResults, Summary};
use crate::stats::Metric;

/// The bundled font: a Latin/Greek/symbols subset of DejaVu Sans (see `assets/`).
const FONT_BYTES: &[u8] = include_bytes!("../assets/DejaVuSans-subset.ttf");
/// The font family name the plots use; the bundled font is registered under it.
pub const FONT_FAMILY: &str = "sans-serif";

/// Width and height of the per-CPU, per-size and cache figures in pixels.
pub const FIGURE_SIZE: (u32, u32) = (1280, 720);
/// Width and height of the heatmap in pixels.
pub const HEATMAP_SIZE: (u32, u32) = (980, 820);
/// Spread (max / min of the plotted values) above which a latency axis is logarithmic.
pub const LOG_SPREAD: f64 = 30.0;
/// The block size per-CPU and cache figures prefer when it was measured.
pub const PREFERRED_SIZE: u64 = 1 << 20;

const LEGEND_WIDTH: u32 = 270;

/// A figure could not be drawn or written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The bundled font did not load (a build problem: the asset is corrupt).
    #[error("the bundled plot font could not be loaded; the build is broken (assets/DejaVuSans-subset.ttf)")]
    Font,
    /// The output directory could not be created.
    #[error("cannot create plot directory {}: {source}", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A plot file could not be written.
    #[error("cannot write plot {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
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

/// Registers the bundled font with plotters under [`FONT_FAMILY`]. Idempotent; [`plot_all`]
/// and the `render_*` functions call it, so callers need not.
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
// Planning

/// What a figure shows.
#[derive(Debug, Clone, PartialEq)]
pub enum FigureKind {
    /// A metric per consumer CPU, one bar per mode, at one size.
    PerCpu {
        /// Read time or latency.
        metric: Metric,
        /// Block size.
        size_bytes: u64,
        /// Producer CPU.
        producer_core: usize,
        /// Logarithmic y axis.
        log_y: bool,
    },
    /// A metric vs block size, one line per mode, for one core pair.
    VsSize {
        /// Read time or latency.
        metric: Metric,
        /// Placement class of the pair.
        placement: String,
        /// Producer CPU.
        producer_core: usize,
        /// Consumer CPU.
        consumer_core: usize,
    },
    /// Read time with the block cached and flushed, per mode, for one core pair and size.
    CachedVsFlushed {
        /// Block size.
        size_bytes: u64,
        /// Placement class of the pair.
        placement: String,
        /// Producer CPU.
        producer_core: usize,
        /// Consumer CPU.
        consumer_core: usize,
    },
    /// The c2c one-way latency matrix.
    C2cHeatmap,
}

/// One figure the data supports.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// File stem, e.g. `read_per_cpu` or `latency_vs_size_same-core`.
    pub id: String,
    /// Title drawn on the figure.
    pub title: String,
    /// What it shows.
    pub kind: FigureKind,
    /// Indices into `results.records` of the records it plots (empty for the heatmap).
    pub records: Vec<usize>,
}

/// The figures `results` supports, in report order.
pub fn plan_figures(results: &ExchangeResults) -> Vec<Figure> {
    let recs = &results.records;
    let cached: Vec<usize> = (0..recs.len()).filter(|&i| !recs[i].flush_cache).collect();
    let mut figures = Vec::new();

    // Per CPU: the (size, producer) with the most distinct consumer CPUs (at least 2).
    let mut by_size: BTreeMap<(u64, usize), BTreeSet<usize>> = BTreeMap::new();
    for &i in &cached {
        let r = &recs[i];
        by_size
            .entry((r.size_bytes, r.producer_core))
            .or_default()
            .insert(r.consumer_core);
    }
    let best = by_size
        .iter()
        .filter(|(_, cores)| cores.len() >= 2)
        .max_by(|a, b| {
            a.1.len()
                .cmp(&b.1.len())
                .then(size_distance(b.0 .0).total_cmp(&size_distance(a.0 .0)))
                .then(b.0 .1.cmp(&a.0 .1))
        })
        .map(|(k, _)| *k);
    if let Some((size, producer)) = best {
        let idx: Vec<usize> = cached
            .iter()
            .copied()
            .filter(|&i| recs[i].size_bytes == size && recs[i].producer_core == producer)
            .collect();
        for metric in [Metric::Read, Metric::Latency] {
            let log_y = metric == Metric::Latency && spread(recs, &idx, metric) > LOG_SPREAD;
            let what = match metric {
                Metric::Read => "Read time",
                Metric::Latency => "Latency (producer done → consumer starts)",
            };
            figures.push(Figure {
                id: format!("{}_per_cpu", metric_id(metric)),
                title: format!(
                    "{what} of a {} block by consumer CPU (producer on CPU {producer})",
                    fmt_size(size)
                ),
                kind: FigureKind::PerCpu {
                    metric,
                    size_bytes: size,
                    producer_core: producer,
                    log_y,
                },
                records: idx.clone(),
            });
        }
    }

    // Vs size: per placement, the core pair with the most sizes (at least 2).
    let mut by_pair: BTreeMap<(usize, usize), (String, BTreeSet<u64>)> = BTreeMap::new();
    for &i in &cached {
        let r = &recs[i];
        let e = by_pair
            .entry((r.producer_core, r.consumer_core))
            .or_insert_with(|| (r.placement.clone(), BTreeSet::new()));
        e.1.insert(r.size_bytes);
    }
    let mut per_placement: BTreeMap<(u8, String), ((usize, usize), usize)> = BTreeMap::new();
    for (pair, (pl, sizes)) in &by_pair {
        if sizes.len() < 2 {
            continue;
        }
        let key = (placement::rank(pl), pl.clone());
        let better = per_placement
            .get(&key)
            .is_none_or(|(_, n)| sizes.len() > *n);
        if better {
            per_placement.insert(key, (*pair, sizes.len()));
        }
    }
    for ((_, pl), ((p, c), _)) in &per_placement {
        let idx: Vec<usize> = cached
            .iter()
            .copied()
            .filter(|&i| recs[i].producer_core == *p && recs[i].consumer_core == *c)
            .collect();
        for metric in [Metric::Read, Metric::Latency] {
            let what = match metric {
                Metric::Read => "Read time",
                Metric::Latency => "Latency",
            };
            figures.push(Figure {
                id: format!("{}_vs_size_{}", metric_id(metric), file_safe(pl)),
                title: format!(
                    "{what} vs block size, consumer {} (CPU {p} → {c})",
                    placement::describe(pl)
                ),
                kind: FigureKind::VsSize {
                    metric,
                    placement: pl.clone(),
                    producer_core: *p,
                    consumer_core: *c,
                },
                records: idx.clone(),
            });
        }
    }

    // Cached vs flushed: per placement, the (size, pair) with the most modes having both.
    let mut flushed_keys: BTreeMap<(String, u64, usize, usize), Vec<usize>> = BTreeMap::new();
    for (i, r) in recs.iter().enumerate() {
        flushed_keys
            .entry((
                r.mode.clone(),
                r.size_bytes,
                r.producer_core,
                r.consumer_core,
            ))
            .or_default()
            .push(i);
    }
    let mut both: BTreeMap<(u64, usize, usize), Vec<usize>> = BTreeMap::new();
    for ((_, size, p, c), idx) in &flushed_keys {
        let has_cached = idx.iter().any(|&i| !recs[i].flush_cache);
        let has_flushed = idx.iter().any(|&i| recs[i].flush_cache);
        if has_cached && has_flushed {
            both.entry((*size, *p, *c)).or_default().extend(idx);
        }
    }
    // (placement rank, placement) → ((size, producer, consumer), modes with both states)
    type Best = ((u64, usize, usize), usize);
    let mut cvf: BTreeMap<(u8, String), Best> = BTreeMap::new();
    for (key, idx) in &both {
        let pl = recs[idx[0]].placement.clone();
        let k = (placement::rank(&pl), pl);
        let n = idx.len();
        let better = match cvf.get(&k) {
            None => true,
            Some((old, old_n)) => {
                n > *old_n || (n == *old_n && size_distance(key.0) < size_distance(old.0))
            }
        };
        if better {
            cvf.insert(k, (*key, n));
        }
    }
    for ((_, pl), ((size, p, c), _)) in &cvf {
        figures.push(Figure {
            id: format!("cached_vs_flushed_{}", file_safe(pl)),
            title: format!(
                "Read time of a {} block, cached vs flushed, consumer {} (CPU {p} → {c})",
                fmt_size(*size),
                placement::describe(pl)
            ),
            kind: FigureKind::CachedVsFlushed {
                size_bytes: *size,
                placement: pl.clone(),
                producer_core: *p,
                consumer_core: *c,
            },
            records: both[&(*size, *p, *c)].clone(),
        });
    }

    if results.c2c.iter().any(|p| p.cpu_a != p.cpu_b) {
        figures.push(Figure {
            id: "c2c_heatmap".to_string(),
            title: "Core-to-core one-way latency (ns)".to_string(),
            kind: FigureKind::C2cHeatmap,
            records: Vec::new(),
        });
    }
    figures
}

fn metric_id(metric: Metric) -> &'static str {
    match metric {
        Metric::Read => "read",
        Metric::Latency => "latency",
    }
}

fn file_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Distance of a size from [`PREFERRED_SIZE`] in octaves.
fn size_distance(size: u64) -> f64 {
    ((size.max(1) as f64).log2() - (PREFERRED_SIZE as f64).log2()).abs()
}

fn summary(r: &ExchangeRecord, metric: Metric) -> &Summary {
    match metric {
        Metric::Read => &r.read_us,
        Metric::Latency => &r.latency_us,
    }
}

/// max / min of the positive means of `metric` over `idx`.
fn spread(recs: &[ExchangeRecord], idx: &[usize], metric: Metric) -> f64 {
    let vals: Vec<f64> = idx
        .iter()
        .map(|&i| summary(&recs[i], metric).mean)
        .filter(|v| *v > 0.0)
        .collect();
    let min = vals.iter().copied().fold(f64::INFINITY, f64::min);
    let max = vals.iter().copied().fold(0.0, f64::max);
    if vals.is_empty() {
        1.0
    } else {
        max / min
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing entry points

/// Draws every figure `results` supports into `out_dir` (created if needed) as PNG and SVG;
/// returns the files written.
pub fn plot_all(results: &ExchangeResults, out_dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
    std::fs::create_dir_all(out_dir).map_err(|source| PlotError::CreateDir {
        path: out_dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::new();
    for fig in plan_figures(results) {
        written.extend(write_figure(results, &fig, out_dir)?);
    }
    Ok(written)
}

/// Draws one figure into `out_dir` as `<id>.png` and `<id>.svg`; returns both paths.
pub fn write_figure(
    results: &ExchangeResults,
    fig: &Figure,
    out_dir: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    let png = render_png(results, fig)?;
    let svg = render_svg(results, fig)?;
    let mut out = Vec::new();
    for (ext, bytes) in [("png", png), ("svg", svg.into_bytes())] {
        let path = out_dir.join(format!("{}.{ext}", fig.id));
        std::fs::write(&path, bytes).map_err(|source| PlotError::Write {
            path: path.clone(),
            source,
        })?;
        out.push(path);
    }
    Ok(out)
}

fn figure_size(fig: &Figure) -> (u32, u32) {
    match fig.kind {
        FigureKind::C2cHeatmap => HEATMAP_SIZE,
        _ => FIGURE_SIZE,
    }
}

/// Draws one figure as PNG bytes.
pub fn render_png(results: &ExchangeResults, fig: &Figure) -> Result<Vec<u8>, PlotError> {
    register_font()?;
    let (w, h) = figure_size(fig);
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        draw(&root, results, fig).map_err(|message| PlotError::Draw {
            figure: fig.id.clone(),
            message,
        })?;
        root.present().map_err(|e| PlotError::Draw {
            figure: fig.id.clone(),
            message: e.to_string(),
        })?;
    }
    encode_png(&rgb, w, h).map_err(|e| PlotError::Encode {
        figure: fig.id.clone(),
        message: e.to_string(),
    })
}

/// Draws one figure as SVG text.
pub fn render_svg(results: &ExchangeResults, fig: &Figure) -> Result<String, PlotError> {
    register_font()?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, figure_size(fig)).into_drawing_area();
        draw(&root, results, fig).map_err(|message| PlotError::Draw {
            figure: fig.id.clone(),
            message,
        })?;
        root.present().map_err(|e| PlotError::Draw {
            figure: fig.id.clone(),
            message: e.to_string(),
        })?;
    }
    Ok(svg)
}

fn encode_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Balanced);
        let mut writer = enc.write_header()?;
        writer.write_image_data(rgb)?;
        writer.finish()?;
    }
    Ok(out)
}

type Area<DB> = DrawingArea<DB, Shift>;
type DrawResult = Result<(), String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &ExchangeResults,
    fig: &Figure,
) -> DrawResult {
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
    }
}

// ---------------------------------------------------------------------------------------------
// Colors and text

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

/// Draws markers of `shape` at plot points.
fn draw_markers<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    pts: &[(f64, f64)],
    shape: Shape,
    color: RGBColor,
) -> DrawResult {
    let fill = color.filled();
    let edge = WHITE.stroke_width(1);
    let tri = [(0, -8), (7, 5), (-7, 5)];
    match shape {
        Shape::Circle => chart
            .draw_series(pts.iter().map(|p| {
                EmptyElement::at(*p) + Circle::new((0, 0), 6, fill) + Circle::new((0, 0), 6, edge)
            }))
            .map(|_| ()),
        Shape::Triangle => chart
            .draw_series(pts.iter().map(|p| {
                EmptyElement::at(*p)
                    + Polygon::new(tri.to_vec(), fill)
                    + PathElement::new(vec![tri[0], tri[1], tri[2], tri[0]], edge)
            }))
            .map(|_| ()),
        Shape::Square => chart
            .draw_series(pts.iter().map(|p| {
                EmptyElement::at(*p)
                    + Rectangle::new([(-5, -5), (5, 5)], fill)
                    + Rectangle::new([(-5, -5), (5, 5)], edge)
            }))
            .map(|_| ()),
    }
    .map_err(err)
}

/// Draws one marker of `shape` at a pixel position of `area` (legend swatches).
fn draw_marker_px<DB: DrawingBackend>(
    area: &Area<DB>,
    at: (i32, i32),
    shape: Shape,
    color: RGBColor,
) -> DrawResult {
    let fill = color.filled();
    match shape {
        Shape::Circle => area.draw(&Circle::new(at, 6, fill)),
        Shape::Triangle => area.draw(&Polygon::new(
            vec![(at.0, at.1 - 8), (at.0 + 7, at.1 + 5), (at.0 - 7, at.1 + 5)],
            fill,
        )),
        Shape::Square => area.draw(&Rectangle::new(
            [(at.0 - 5, at.1 - 5), (at.0 + 5, at.1 + 5)],
            fill,
        )),
    }
    .map_err(err)
}

const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
const GRID: RGBColor = RGBColor(0xe2, 0xe2, 0xe2);
const MARKER: RGBColor = RGBColor(0x55, 0x55, 0x55);
const CACHE_MARK: RGBColor = RGBColor(0x99, 0x99, 0x99);
const CACHED_COLOR: RGBColor = RGBColor(0x4e, 0x79, 0xa7);
const FLUSHED_COLOR: RGBColor = RGBColor(0xe1, 0x57, 0x59);

fn font(size: u32) -> TextStyle<'static> {
    (FONT_FAMILY, size as f64).into_font().color(&INK)
}

fn anchored(size: u32, h: HPos, v: VPos) -> TextStyle<'static> {
    font(size).pos(Pos::new(h, v))
}

// ---------------------------------------------------------------------------------------------
// Axes

/// One axis: its range in plot coordinates (log10 of the value when `log`), ticks and labels.
struct Axis {
    log: bool,
    lo: f64,
    hi: f64,
    ticks: Vec<(f64, String)>,
}

impl Axis {
    /// A linear axis from 0 (or `min` when negative) to a little above `max`.
    fn linear(min: f64, max: f64) -> Axis {
        let lo = min.min(0.0);
        let hi = if max > lo { max * 1.08 } else { lo + 1.0 };
        let step = nice_step((hi - lo) / 6.0);
        let mut ticks = Vec::new();
        let mut t = (lo / step).ceil() * step;
        while t <= hi + step * 1e-9 {
            ticks.push((t, fmt_tick(t)));
            t += step;
        }
        Axis {
            log: false,
            lo,
            hi,
            ticks,
        }
    }

    /// A log axis covering `[min, max]` (both > 0), ticks at 1-2-5 or decades.
    fn log(min: f64, max: f64) -> Axis {
        let (min, max) = if min > 0.0 && max >= min {
            (min, max)
        } else {
            (1.0, 10.0)
        };
        let lo = min.log10() - 0.12;
        let hi = max.log10() + 0.12;
        let decades = hi - lo;
        let mults: &[f64] = if decades <= 3.3 {
            &[1.0, 2.0, 5.0]
        } else {
            &[1.0]
        };
        let mut ticks = Vec::new();
        for e in (lo.floor() as i32)..=(hi.ceil() as i32) {
            for m in mults {
                let v = m * 10f64.powi(e);
                let p = v.log10();
                if p >= lo && p <= hi {
                    ticks.push((p, fmt_tick(v)));
                }
            }
        }
        Axis {
            log: true,
            lo,
            hi,
            ticks,
        }
    }

    /// A log axis of block sizes with a tick at every size.
    fn sizes(sizes: &[u64]) -> Axis {
        let min = sizes.iter().copied().min().unwrap_or(1).max(1) as f64;
        let max = sizes.iter().copied().max().unwrap_or(1).max(1) as f64;
        let pad = 0.25;
        Axis {
            log: true,
            lo: min.log10() - pad,
            hi: max.log10() + pad,
            ticks: sizes
                .iter()
                .map(|&s| ((s.max(1) as f64).log10(), fmt_size(s)))
                .collect(),
        }
    }

    /// Plot coordinate of a value (`None` for a non-positive value on a log axis).
    fn pos(&self, v: f64) -> Option<f64> {
        if self.log {
            (v > 0.0).then(|| v.log10())
        } else {
            Some(v)
        }
    }

    /// Plot coordinate clamped into the axis range.
    fn clamp(&self, v: f64) -> f64 {
        self.pos(v).unwrap_or(self.lo).clamp(self.lo, self.hi)
    }

    fn label(&self, p: f64) -> String {
        let eps = (self.hi - self.lo).abs() * 1e-6;
        self.ticks
            .iter()
            .find(|(t, _)| (t - p).abs() <= eps)
            .map(|(_, s)| s.clone())
            .unwrap_or_default()
    }

    fn coord(&self) -> AxisCoord {
        AxisCoord {
            lo: self.lo,
            hi: self.hi,
            ticks: self.ticks.iter().map(|t| t.0).collect(),
        }
    }
}

/// A linear f64 coordinate with fixed key points (plotters' `WithKeyPoints` over
/// `RangedCoordf64` cannot take a label formatter).
struct AxisCoord {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ranged for AxisCoord {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        if self.hi == self.lo {
            return (limit.0 + limit.1) / 2;
        }
        let t = ((*v - self.lo) / (self.hi - self.lo)).clamp(-10.0, 10.0);
        limit.0 + ((limit.1 - limit.0) as f64 * t).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    let f = raw / p;
    let m = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * p
}

fn fmt_tick(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".to_string()
    } else if a >= 1e5 {
        format!("{v:.0e}")
    } else if a >= 1.0 && (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let s = sig3(v);
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    }
}

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<AxisCoord, AxisCoord>>;

/// Builds the chart frame: mesh, tick labels (the x tick labels are drawn by the caller when
/// `own_x_labels`), axis descriptions.
fn frame<'a, DB: DrawingBackend>(
    area: &'a Area<DB>,
    x: &Axis,
    y: &Axis,
    x_desc: &str,
    y_desc: &str,
    own_x_labels: bool,
) -> Result<Chart<'a, DB>, String> {
    let mut chart = ChartBuilder::on(area)
        .margin_top(10)
        .margin_left(14)
        .margin_right(20)
        .x_label_area_size(if own_x_labels { 80 } else { 60 })
        .y_label_area_size(96)
        .build_cartesian_2d(x.coord(), y.coord())
        .map_err(err)?;
    let xf = |v: &f64| {
        if own_x_labels {
            String::new()
        } else {
            x.label(*v)
        }
    };
    let yf = |v: &f64| y.label(*v);
    chart
        .configure_mesh()
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(MARKER)
        .x_label_formatter(&xf)
        .y_label_formatter(&yf)
        .x_label_style(font(16))
        .y_label_style(font(16))
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style(font(19))
        .disable_x_mesh()
        .draw()
        .map_err(err)?;
    Ok(chart)
}

/// Title on top, chart left, legend panel right.
fn layout<DB: DrawingBackend>(
    root: &Area<DB>,
    title: &str,
) -> Result<(Area<DB>, Area<DB>), String> {
    let body = draw_title(root, title)?;
    let (w, _) = body.dim_in_pixel();
    let (chart, legend) = body.split_horizontally(w.saturating_sub(LEGEND_WIDTH));
    Ok((chart, legend))
}

/// Draws the title centered at the top; returns the area below it.
fn draw_title<DB: DrawingBackend>(root: &Area<DB>, title: &str) -> Result<Area<DB>, String> {
    let (w, _) = root.dim_in_pixel();
    let (top, body) = root.split_vertically(54);
    top.draw(&Text::new(
        title.to_string(),
        (w as i32 / 2, 16),
        anchored(23, HPos::Center, VPos::Top),
    ))
    .map_err(err)?;
    Ok(body)
}

/// How a legend entry's swatch looks.
#[derive(Clone, Copy)]
enum Swatch {
    Box(RGBColor),
    Line(RGBColor, Shape),
    Dashed(RGBColor),
    ErrorBar,
}

fn draw_legend<DB: DrawingBackend>(
    area: &Area<DB>,
    heading: &str,
    entries: &[(String, Swatch)],
    notes: &[String],
) -> DrawResult {
    let x0 = 14;
    let mut y = 40;
    area.draw(&Text::new(heading.to_string(), (x0, y), font(18)))
        .map_err(err)?;
    y += 34;
    for (label, swatch) in entries {
        let cy = y + 9;
        match *swatch {
            Swatch::Box(c) => area
                .draw(&Rectangle::new([(x0, y), (x0 + 22, y + 18)], c.filled()))
                .map_err(err)?,
            Swatch::Line(c, shape) => {
                area.draw(&PathElement::new(
                    vec![(x0, cy), (x0 + 24, cy)],
                    c.stroke_width(3),
                ))
                .map_err(err)?;
                draw_marker_px(area, (x0 + 12, cy), shape, c)?;
            }
            Swatch::Dashed(c) => {
                for k in 0..3 {
                    let s = x0 + k * 9;
                    area.draw(&PathElement::new(
                        vec![(s, cy), (s + 5, cy)],
                        c.stroke_width(2),
                    ))
                    .map_err(err)?;
                }
            }
            Swatch::ErrorBar => {
                let xm = x0 + 11;
                let st = INK.stroke_width(2);
                area.draw(&PathElement::new(vec![(xm, y), (xm, y + 18)], st))
                    .map_err(err)?;
                area.draw(&PathElement::new(vec![(xm - 5, y), (xm + 5, y)], st))
                    .map_err(err)?;
                area.draw(&PathElement::new(
                    vec![(xm - 5, y + 18), (xm + 5, y + 18)],
                    st,
                ))
                .map_err(err)?;
            }
        }
        area.draw(&Text::new(
            label.clone(),
            (x0 + 34, cy),
            anchored(16, HPos::Left, VPos::Center),
        ))
        .map_err(err)?;
        y += 28;
    }
    y += 14;
    for note in notes {
        area.draw(&Text::new(note.clone(), (x0, y), font(14)))
            .map_err(err)?;
        y += 20;
    }
    Ok(())
}

/// A vertical 95% CI bar with caps, in plot coordinates, `half` = cap half-width.
fn error_bar<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    x: f64,
    lo: f64,
    hi: f64,
    half: f64,
) -> DrawResult {
    let st = INK.stroke_width(2);
    chart
        .draw_series([
            PathElement::new(vec![(x, lo), (x, hi)], st),
            PathElement::new(vec![(x - half, lo), (x + half, lo)], st),
            PathElement::new(vec![(x - half, hi), (x + half, hi)], st),
        ])
        .map_err(err)?;
    Ok(())
}

/// Draws category labels under the x axis at plot x positions; a label may hold `\n`.
fn draw_x_categories<DB: DrawingBackend>(
    root: &Area<DB>,
    chart: &Chart<'_, DB>,
    y_axis: &Axis,
    cats: &[(f64, String)],
) -> DrawResult {
    for (x, label) in cats {
        let (px, py) = chart.backend_coord(&(*x, y_axis.lo));
        for (k, line) in label.split('\n').enumerate() {
            root.draw(&Text::new(
                line.to_string(),
                (px, py + 8 + 20 * k as i32),
                anchored(16, HPos::Center, VPos::Top),
            ))
            .map_err(err)?;
        }
    }
    Ok(())
}

fn metric_desc(metric: Metric) -> &'static str {
    match metric {
        Metric::Read => "read time (µs), mean and 95% CI",
        Metric::Latency => "latency (µs), mean and 95% CI",
    }
}

fn sorted_modes(recs: &[ExchangeRecord], idx: &[usize]) -> Vec<String> {
    let mut modes: Vec<String> = idx.iter().map(|&i| recs[i].mode.clone()).collect();
    modes.sort_by(|a, b| mode_rank(a).cmp(&mode_rank(b)).then(a.cmp(b)));
    modes.dedup();
    modes
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

/// The y range (min positive low, max high) of the bars/points to plot.
fn value_range<'s>(sums: impl Iterator<Item = &'s Summary>) -> (f64, f64, f64) {
    let mut min_pos = f64::INFINITY;
    let mut min = 0.0f64;
    let mut max = 0.0f64;
    for s in sums {
        let lo = s.ci95_low.unwrap_or(s.mean).min(s.mean);
        let hi = s.ci95_high.unwrap_or(s.mean).max(s.mean);
        if s.mean > 0.0 {
            min_pos = min_pos.min(if lo > 0.0 { lo } else { s.mean });
        }
        min = min.min(lo);
        max = max.max(hi);
    }
    (min, min_pos, max)
}

// ---------------------------------------------------------------------------------------------
// Per CPU

fn draw_per_cpu<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &ExchangeResults,
    fig: &Figure,
    metric: Metric,
    log_y: bool,
) -> DrawResult {
    let recs = &results.records;
    let (chart_area, legend_area) = layout(root, &fig.title)?;
    let modes = sorted_modes(recs, &fig.records);
    let mut cpus: Vec<usize> = fig.records.iter().map(|&i| recs[i].consumer_core).collect();
    cpus.sort_unstable();
    cpus.dedup();

    let (min, min_pos, mut max) =
        value_range(fig.records.iter().map(|&i| summary(&recs[i], metric)));
    let floors: Vec<Option<f64>> = cpus
        .iter()
        .map(|&c| {
            if metric != Metric::Latency {
                return None;
            }
            fig.records
                .iter()
                .map(|&i| &recs[i])
                .find(|r| r.consumer_core == c)
                .and_then(|r| results.floor_for(r))
                .map(|ns| ns / 1e3)
        })
        .collect();
    for f in floors.iter().flatten() {
        max = max.max(*f);
    }
    let min_pos = floors.iter().flatten().fold(min_pos, |m, f| m.min(*f));
    let y = if log_y {
        Axis::log(min_pos, max)
    } else {
        Axis::linear(min, max)
    };
    let n = cpus.len() as f64;
    let x = Axis {
        log: false,
        lo: -0.5,
        hi: n - 0.5,
        ticks: Vec::new(),
    };
    let mut chart = frame(
        &chart_area,
        &x,
        &y,
        "consumer CPU",
        metric_desc(metric),
        true,
    )?;

    let many = cpus.len() > 8;
    let group_w = 0.8;
    let bar_w = group_w / modes.len().max(1) as f64;
    let base = if y.log { y.lo } else { 0.0f64.max(y.lo) };
    let mut omitted = 0usize;
    for (k, mode) in modes.iter().enumerate() {
        let color = mode_color(mode);
        let mut line_pts = Vec::new();
        for (ci, &cpu) in cpus.iter().enumerate() {
            let Some(r) = fig
                .records
                .iter()
                .map(|&i| &recs[i])
                .find(|r| &r.mode == mode && r.consumer_core == cpu)
            else {
                continue;
            };
            let s = summary(r, metric);
            let Some(top) = y.pos(s.mean) else {
                omitted += 1;
                continue;
            };
            let cx = if many {
                ci as f64 + (k as f64 - (modes.len() as f64 - 1.0) / 2.0) * 0.6 / modes.len() as f64
            } else {
                ci as f64 - group_w / 2.0 + bar_w * (k as f64 + 0.5)
            };
            if many {
                line_pts.push((cx, top));
            } else {
                chart
                    .draw_series([Rectangle::new(
                        [(cx - bar_w * 0.44, base), (cx + bar_w * 0.44, top)],
                        color.filled(),
                    )])
                    .map_err(err)?;
            }
            if let (Some(lo), Some(hi)) = (s.ci95_low, s.ci95_high) {
                error_bar(&mut chart, cx, y.clamp(lo), y.clamp(hi), bar_w * 0.2)?;
            }
        }
        if many && !line_pts.is_empty() {
            chart
                .draw_series(LineSeries::new(line_pts.clone(), color.stroke_width(2)))
                .map_err(err)?;
            draw_markers(&mut chart, &line_pts, mode_shape(mode), color)?;
        }
    }
    let mut entries: Vec<(String, Swatch)> = modes
        .iter()
        .map(|m| {
            let c = mode_color(m);
            (
                m.clone(),
                if many {
                    Swatch::Line(c, mode_shape(m))
                } else {
                    Swatch::Box(c)
                },
            )
        })
        .collect();
    entries.push(("95% CI of the mean".to_string(), Swatch::ErrorBar));
    if floors.iter().any(Option::is_some) {
        for (ci, f) in floors.iter().enumerate() {
            if let Some(f) = f.and_then(|f| y.pos(f)) {
                let c = ci as f64;
                chart
                    .draw_series(DashedLineSeries::new(
                        vec![(c - 0.46, f), (c + 0.46, f)],
                        8,
                        5,
                        INK.stroke_width(2),
                    ))
                    .map_err(err)?;
            }
        }
        entries.push(("c2c one-way floor".to_string(), Swatch::Dashed(INK)));
    }
    let cats: Vec<(f64, String)> = cpus
        .iter()
        .enumerate()
        .map(|(ci, &cpu)| {
            let pl = fig
                .records
                .iter()
                .map(|&i| &recs[i])
                .find(|r| r.consumer_core == cpu)
                .map(|r| short_placement(&r.placement).to_string())
                .unwrap_or_default();
            let label = if many {
                format!("{cpu}")
            } else {
                format!("CPU {cpu}\n({pl})")
            };
            (ci as f64, label)
        })
        .collect();
    draw_x_categories(root, &chart, &y, &cats)?;
    let mut notes = Vec::new();
    if y.log {
        notes.push("log scale".to_string());
    }
    if omitted > 0 {
        notes.push(format!("{omitted} non-positive mean(s)"));
        notes.push("not drawn on the log axis".to_string());
    }
    draw_legend(&legend_area, "mode", &entries, &notes)
}

// ---------------------------------------------------------------------------------------------
// Vs size

fn draw_vs_size<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &ExchangeResults,
    fig: &Figure,
    metric: Metric,
    producer: usize,
    consumer: usize,
) -> DrawResult {
    let recs = &results.records;
    let (chart_area, legend_area) = layout(root, &fig.title)?;
    let modes = sorted_modes(recs, &fig.records);
    let mut sizes: Vec<u64> = fig.records.iter().map(|&i| recs[i].size_bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let x = Axis::sizes(&sizes);
    let (_, mut min_pos, mut max) =
        value_range(fig.records.iter().map(|&i| summary(&recs[i], metric)));
    let floor_us = if metric == Metric::Latency && producer != consumer {
        fig.records
            .iter()
            .find_map(|&i| recs[i].c2c_one_way_ns)
            .or_else(|| results.c2c_between(producer, consumer))
            .map(|ns| ns / 1e3)
    } else {
        None
    };
    if let Some(f) = floor_us {
        min_pos = min_pos.min(f);
        max = max.max(f);
    }
    let y = Axis::log(min_pos, max);
    let mut chart = frame(
        &chart_area,
        &x,
        &y,
        "block size (log scale)",
        &format!("{} (log scale)", metric_desc(metric)),
        false,
    )?;

    let mut entries: Vec<(String, Swatch)> = Vec::new();
    let mut omitted = 0usize;
    for mode in &modes {
        let color = mode_color(mode);
        let mut pts: Vec<(f64, f64, &Summary)> = Vec::new();
        for &i in &fig.records {
            let r = &recs[i];
            if &r.mode != mode {
                continue;
            }
            let s = summary(r, metric);
            match (x.pos(r.size_bytes as f64), y.pos(s.mean)) {
                (Some(px), Some(py)) => pts.push((px, py, s)),
                _ => omitted += 1,
            }
        }
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|p| (p.0, p.1)),
                color.stroke_width(3),
            ))
            .map_err(err)?;
        let xy: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
        draw_markers(&mut chart, &xy, mode_shape(mode), color)?;
        for (px, _, s) in &pts {
            if let (Some(lo), Some(hi)) = (s.ci95_low, s.ci95_high) {
                let (lo, hi) = (y.clamp(lo), y.clamp(hi));
                // Skip bars shorter than the marker: they would only blur it.
                if hi - lo > (y.hi - y.lo) * 0.012 {
                    error_bar(&mut chart, *px, lo, hi, 0.025)?;
                }
            }
        }
        entries.push((mode.clone(), Swatch::Line(color, mode_shape(mode))));
    }
    entries.push(("95% CI of the mean".to_string(), Swatch::ErrorBar));

    // Cache sizes.
    let m = &results.machine;
    let mut marks = Vec::new();
    for level in 1..=4u8 {
        if let Some(size) = m.cache_size(level) {
            let name = if level == 1 {
                "L1d".to_string()
            } else {
                format!("L{level}")
            };
            marks.push((size, name));
        }
    }
    let mut any_mark = false;
    for (size, name) in &marks {
        let p = (*size as f64).log10();
        if p <= x.lo || p >= x.hi {
            continue;
        }
        any_mark = true;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(p, y.lo), (p, y.hi)],
                10,
                6,
                CACHE_MARK.stroke_width(2),
            ))
            .map_err(err)?;
        let (px, py) = chart.backend_coord(&(p, y.hi));
        root.draw(&Text::new(
            format!("{name} {}", fmt_size(*size)),
            (px + 6, py + 6),
            anchored(16, HPos::Left, VPos::Top),
        ))
        .map_err(err)?;
    }
    if any_mark {
        entries.push(("cache size".to_string(), Swatch::Dashed(CACHE_MARK)));
    }
    if let Some(f) = floor_us.and_then(|f| y.pos(f)) {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x.lo, f), (x.hi, f)],
                8,
                5,
                INK.stroke_width(2),
            ))
            .map_err(err)?;
        let (px, py) = chart.backend_coord(&(x.hi, f));
        root.draw(&Text::new(
            format!("c2c floor {}", fmt_ns(floor_us.unwrap_or(0.0) * 1e3)),
            (px - 8, py - 6),
            anchored(15, HPos::Right, VPos::Bottom),
        ))
        .map_err(err)?;
        entries.push(("c2c one-way floor".to_string(), Swatch::Dashed(INK)));
    }
    let mut notes = Vec::new();
    if omitted > 0 {
        notes.push(format!("{omitted} non-positive mean(s)"));
        notes.push("not drawn on the log axis".to_string());
    }
    draw_legend(&legend_area, "mode", &entries, &notes)
}

// ---------------------------------------------------------------------------------------------
// Cached vs flushed

fn draw_cached_vs_flushed<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &ExchangeResults,
    fig: &Figure,
) -> DrawResult {
    let recs = &results.records;
    let (chart_area, legend_area) = layout(root, &fig.title)?;
    let modes: Vec<String> = sorted_modes(recs, &fig.records)
        .into_iter()
        .filter(|m| {
            let has = |f: bool| {
                fig.records
                    .iter()
                    .any(|&i| &recs[i].mode == m && recs[i].flush_cache == f)
            };
            has(true) && has(false)
        })
        .collect();
    let (min, _, max) = value_range(fig.records.iter().map(|&i| &recs[i].read_us));
    let y = Axis::linear(min, max);
    let n = modes.len() as f64;
    let x = Axis {
        log: false,
        lo: -0.5,
        hi: n - 0.5,
        ticks: Vec::new(),
    };
    let mut chart = frame(&chart_area, &x, &y, "", metric_desc(Metric::Read), true)?;
    let bar_w = 0.36;
    for (k, mode) in modes.iter().enumerate() {
        for (j, flush) in [false, true].into_iter().enumerate() {
            let Some(r) = fig
                .records
                .iter()
                .map(|&i| &recs[i])
                .find(|r| &r.mode == mode && r.flush_cache == flush)
            else {
                continue;
            };
            let cx = k as f64 + if j == 0 { -bar_w / 2.0 } else { bar_w / 2.0 };
            let color = if flush { FLUSHED_COLOR } else { CACHED_COLOR };
            chart
                .draw_series([Rectangle::new(
                    [
                        (cx - bar_w * 0.46, 0.0f64.max(y.lo)),
                        (cx + bar_w * 0.46, r.read_us.mean),
                    ],
                    color.filled(),
                )])
                .map_err(err)?;
            if let (Some(lo), Some(hi)) = (r.read_us.ci95_low, r.read_us.ci95_high) {
                error_bar(&mut chart, cx, y.clamp(lo), y.clamp(hi), bar_w * 0.15)?;
            }
        }
    }
    let cats: Vec<(f64, String)> = modes
        .iter()
        .enumerate()
        .map(|(k, m)| (k as f64, m.replacen('-', "-\n", 1)))
        .collect();
    draw_x_categories(root, &chart, &y, &cats)?;
    let entries = vec![
        ("cached (no flush)".to_string(), Swatch::Box(CACHED_COLOR)),
        (
            "flushed before t_done".to_string(),
            Swatch::Box(FLUSHED_COLOR),
        ),
        ("95% CI of the mean".to_string(), Swatch::ErrorBar),
    ];
    let notes = vec![
        "flushed: clflushopt of".to_string(),
        "every line after the write,".to_string(),
        "excluded from the times".to_string(),
    ];
    draw_legend(&legend_area, "block state", &entries, &notes)
}

// ---------------------------------------------------------------------------------------------
// Heatmap

/// Viridis, interpolated between 6 anchors; `t` in 0..=1.
fn viridis(t: f64) -> RGBColor {
    const A: [(f64, f64, f64); 6] = [
        (68.0, 1.0, 84.0),
        (65.0, 68.0, 135.0),
        (42.0, 120.0, 142.0),
        (34.0, 168.0, 132.0),
        (122.0, 209.0, 81.0),
        (253.0, 231.0, 37.0),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let f = t * (A.len() - 1) as f64;
    let i = (f.floor() as usize).min(A.len() - 2);
    let u = f - i as f64;
    let mix = |a: f64, b: f64| (a + (b - a) * u).round() as u8;
    RGBColor(
        mix(A[i].0, A[i + 1].0),
        mix(A[i].1, A[i + 1].1),
        mix(A[i].2, A[i + 1].2),
    )
}

fn draw_heatmap<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &ExchangeResults,
    fig: &Figure,
) -> DrawResult {
    let body = draw_title(root, &fig.title)?;
    let (w, _) = body.dim_in_pixel();
    let (chart_area, bar_area) = body.split_horizontally(w.saturating_sub(150));
    let cpus = results.c2c_cpus();
    let n = cpus.len();
    let value = |a: usize, b: usize| -> Option<f64> {
        results
            .c2c
            .iter()
            .find(|p| p.cpu_a == a && p.cpu_b == b)
            .or_else(|| results.c2c.iter().find(|p| p.cpu_a == b && p.cpu_b == a))
            .map(|p| p.one_way_ns)
            .filter(|_| a != b)
    };
    let vals: Vec<f64> = cpus
        .iter()
        .flat_map(|&a| cpus.iter().filter_map(move |&b| value(a, b)))
        .collect();
    let vmin = vals.iter().copied().fold(f64::INFINITY, f64::min);
    let vmax = vals.iter().copied().fold(0.0, f64::max);
    // The scale starts at most at half the maximum, so that a few percent of difference
    // does not look like the difference between black and white.
    let vmin = vmin.min(vmax / 2.0);
    let norm = |v: f64| {
        if vmax > vmin {
            (v - vmin) / (vmax - vmin)
        } else {
            0.5
        }
    };
    let ticks: Vec<(f64, String)> = cpus
        .iter()
        .enumerate()
        .map(|(i, c)| (i as f64 + 0.5, c.to_string()))
        .collect();
    // Label every CPU up to 32, then thin out.
    let stride = n.div_ceil(32).max(1);
    let shown: Vec<(f64, String)> = ticks.iter().step_by(stride).cloned().collect();
    let x = Axis {
        log: false,
        lo: 0.0,
        hi: n as f64,
        ticks: shown.clone(),
    };
    // Rows top to bottom: plot y runs from n (top) down to 0; row i spans [n-i-1, n-i].
    let y = Axis {
        log: false,
        lo: 0.0,
        hi: n as f64,
        ticks: shown
            .iter()
            .map(|(p, l)| (n as f64 - p, l.clone()))
            .collect(),
    };
    let mut chart = ChartBuilder::on(&chart_area)
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(80)
        .build_cartesian_2d(x.coord(), y.coord())
        .map_err(err)?;
    let xf = |v: &f64| x.label(*v);
    let yf = |v: &f64| y.label(*v);
    chart
        .configure_mesh()
        .disable_mesh()
        .axis_style(MARKER)
        .x_label_formatter(&xf)
        .y_label_formatter(&yf)
        .x_label_style(font(16))
        .y_label_style(font(16))
        .x_desc("to CPU")
        .y_desc("from CPU")
        .axis_desc_style(font(19))
        .draw()
        .map_err(err)?;
    let write_values = n <= 16;
    let text_size = if n <= 4 {
        26
    } else if n <= 8 {
        20
    } else {
        14
    };
    for (i, &a) in cpus.iter().enumerate() {
        for (j, &b) in cpus.iter().enumerate() {
            let (x0, y0) = (j as f64, (n - i - 1) as f64);
            let v = value(a, b);
            let color = v.map_or(RGBColor(0xee, 0xee, 0xee), |v| viridis(norm(v)));
            chart
                .draw_series([Rectangle::new(
                    [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                    color.filled(),
                )])
                .map_err(err)?;
            chart
                .draw_series([Rectangle::new(
                    [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                    WHITE.stroke_width(1),
                )])
                .map_err(err)?;
            if write_values {
                let text = v.map_or("–".to_string(), |v| format!("{v:.0}"));
                let ink = match v {
                    Some(v) if norm(v) > 0.6 => INK,
                    Some(_) => WHITE,
                    None => MARKER,
                };
                let (px, py) = chart.backend_coord(&(x0 + 0.5, y0 + 0.5));
                root.draw(&Text::new(
                    text,
                    (px, py),
                    (FONT_FAMILY, text_size as f64)
                        .into_font()
                        .color(&ink)
                        .pos(Pos::new(HPos::Center, VPos::Center)),
                ))
                .map_err(err)?;
            }
        }
    }
    // Color bar.
    if vals.is_empty() {
        return Ok(());
    }
    let (bw, bh) = bar_area.dim_in_pixel();
    let top = 40i32;
    let height = (bh as i32 - 140).max(60);
    let left = 20i32;
    for k in 0..height {
        let t = 1.0 - k as f64 / (height - 1).max(1) as f64;
        bar_area
            .draw(&Rectangle::new(
                [(left, top + k), (left + 28, top + k + 1)],
                viridis(t).filled(),
            ))
            .map_err(err)?;
    }
    let _ = bw;
    for (t, v) in [(1.0, vmax), (0.5, (vmin + vmax) / 2.0), (0.0, vmin)] {
        let yk = top + ((1.0 - t) * (height - 1) as f64) as i32;
        bar_area
            .draw(&Text::new(
                format!("{v:.0} ns"),
                (left + 36, yk),
                anchored(15, HPos::Left, VPos::Center),
            ))
            .map_err(err)?;
    }
    bar_area
        .draw(&Text::new(
            "one-way".to_string(),
            (left, top + height + 16),
            font(15),
        ))
        .map_err(err)?;
    bar_area
        .draw(&Text::new(
            "latency".to_string(),
            (left, top + height + 34),
            font(15),
        ))
        .map_err(err)?;
    Ok(())
}
