//! Line figures: a metric against x, one line per series with 95% CI bars, and what a figure
//! marks on them (a fitted model, the c2c floor, cache sizes). Every registered experiment's
//! [`FigureSpec`] is drawn with it, and so are the exchange's figures against the block size
//! (`LineChart`).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::kit::{
    anchored, draw_floor_line, draw_legend, draw_line_series, err, frame, layout, value_range,
    Area, Axis, DrawError, DrawResult, Shape, Swatch, CACHE_MARK, INK,
};
use super::PlotError;
use crate::bench::models::ModelFit;
use crate::bench::render::fmt_value;
use crate::bench::{BenchResults, FigureSpec};
use crate::stats::Summary;

/// Distinct series colours (Tableau 10), by series index.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xba, 0xb0, 0xac),
];
const SHAPES: [Shape; 3] = [Shape::Circle, Shape::Square, Shape::Triangle];

/// One line of a [`LineChart`]: x values (not plot coordinates) with the summary of y.
pub(crate) struct Line<'a> {
    pub(crate) name: String,
    pub(crate) style: (RGBColor, Shape),
    pub(crate) points: Vec<(f64, Summary)>,
    /// Drawn dashed over the line's own x range, clamped into the plot.
    pub(crate) model: Option<&'a ModelFit>,
}

/// A chart of lines against x (no title, no legend: [`LineChart::draw`] returns its legend).
pub(crate) struct LineChart<'a> {
    pub(crate) x: Axis,
    pub(crate) log_y: bool,
    pub(crate) x_desc: String,
    pub(crate) y_desc: String,
    pub(crate) lines: Vec<Line<'a>>,
    /// The c2c floor in y's unit, and its label.
    pub(crate) floor: Option<(f64, String)>,
    /// Dashed verticals at these x values, each labelled ("L2 1 MiB").
    pub(crate) cache_sizes: Vec<(f64, String)>,
}

/// A legend's entries and notes.
pub(crate) type Legend = (Vec<(String, Swatch)>, Vec<String>);

impl LineChart<'_> {
    /// Draws the chart into `area`; returns what its legend lists.
    pub(crate) fn draw<DB: DrawingBackend>(&self, area: &Area<DB>) -> Result<Legend, DrawError> {
        let sums = self
            .lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| &p.1));
        let (_, mut lo, mut hi) = value_range(sums);
        if let Some((f, _)) = self.floor {
            lo = lo.min(f);
            hi = hi.max(f);
        }
        let y = if self.log_y {
            Axis::log(lo, hi)
        } else {
            Axis::linear(0.0, hi)
        };
        let (x, y) = (&self.x, &y);
        let mut chart = frame(area, x, y, &self.x_desc, &self.y_desc, false)?;
        let mut entries: Vec<(String, Swatch)> = Vec::new();
        let mut omitted = 0usize;
        for line in &self.lines {
            let mut pts = Vec::new();
            for (xv, s) in &line.points {
                match (x.pos(*xv), y.pos(s.mean)) {
                    (Some(px), Some(py)) => pts.push((px, py, *s)),
                    _ => omitted += 1,
                }
            }
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            draw_line_series(&mut chart, &pts, y, (x.hi - x.lo) * 0.006, line.style)?;
            let (color, shape) = line.style;
            entries.push((line.name.clone(), Swatch::Line(color, shape)));
            let xs = line.points.iter().map(|p| p.0);
            let span = xs.clone().reduce(f64::min).zip(xs.reduce(f64::max));
            if let (Some(m), Some((x0, x1)), false) = (line.model, span, pts.is_empty()) {
                let curve: Vec<(f64, f64)> = (0..=48)
                    .map(|i| x0 + (x1 - x0) * f64::from(i) / 48.0)
                    .filter_map(|xv| Some((x.pos(xv)?, y.clamp(m.predict(xv)))))
                    .collect();
                chart
                    .draw_series(DashedLineSeries::new(curve, 6, 4, color.stroke_width(2)))
                    .map_err(err)?;
                let name = format!("{}: model (least squares)", line.name);
                entries.push((name, Swatch::Dashed(color)));
            }
        }
        entries.push(("95% CI of the mean".to_string(), Swatch::ErrorBar));
        let mut any_mark = false;
        for (p, label) in self
            .cache_sizes
            .iter()
            .filter_map(|(v, l)| Some((x.pos(*v)?, l)))
        {
            if p <= x.lo || p >= x.hi {
                continue;
            }
            any_mark = true;
            let line = vec![(p, y.lo), (p, y.hi)];
            let dashed = DashedLineSeries::new(line, 10, 6, CACHE_MARK.stroke_width(2));
            chart.draw_series(dashed).map_err(err)?;
            let (px, py) = chart.backend_coord(&(p, y.hi));
            let (bx, by) = area.get_base_pixel();
            let at = anchored(16, HPos::Left, VPos::Top);
            area.draw(&Text::new(label.clone(), (px - bx + 6, py - by + 6), at))
                .map_err(err)?;
        }
        if any_mark {
            entries.push(("cache size".to_string(), Swatch::Dashed(CACHE_MARK)));
        }
        if let Some((p, label)) = self.floor.as_ref().and_then(|(f, l)| Some((y.pos(*f)?, l))) {
            draw_floor_line(&mut chart, area, x, p, label.clone())?;
            entries.push(("c2c one-way floor".to_string(), Swatch::Dashed(INK)));
        }
        let mut notes = Vec::new();
        if omitted > 0 {
            notes.push(format!("{omitted} non-positive mean(s)"));
            notes.push("not drawn on the log axis".to_string());
        }
        Ok((entries, notes))
    }
}

/// The series a figure draws: those starting with its prefix that have its metric.
pub fn figure_series(results: &BenchResults, spec: &FigureSpec) -> Vec<String> {
    let names = results.records.iter().map(|r| r.series.clone());
    crate::stats::first_seen(names)
        .into_iter()
        .filter(|s| s.starts_with(spec.series_prefix))
        .filter(|s| {
            results
                .series(s)
                .iter()
                .any(|r| r.metrics.contains_key(spec.metric))
        })
        .collect()
}

/// Draws `spec` of `results` as PNG bytes.
pub fn render_png(results: &BenchResults, spec: &FigureSpec) -> Result<Vec<u8>, PlotError> {
    super::png_of(spec.id, super::FIGURE_SIZE, |root| {
        draw(root, results, spec)
    })
}

/// Draws `spec` of `results` as SVG text.
pub fn render_svg(results: &BenchResults, spec: &FigureSpec) -> Result<String, PlotError> {
    super::svg_of(spec.id, super::FIGURE_SIZE, |root| {
        draw(root, results, spec)
    })
}

/// The chart of `spec`: a line per series, its model when one was fitted, the smallest c2c
/// floor of its records when asked.
fn chart<'a>(results: &'a BenchResults, spec: &FigureSpec) -> LineChart<'a> {
    let lines: Vec<Line<'a>> = figure_series(results, spec)
        .into_iter()
        .enumerate()
        .map(|(k, name)| Line {
            style: (PALETTE[k % PALETTE.len()], SHAPES[k % SHAPES.len()]),
            points: (results.series(&name).into_iter())
                .filter_map(|r| Some((r.x, r.metrics.get(spec.metric)?.summary)))
                .collect(),
            model: (results.models.iter()).find(|m| m.series == name && m.metric == spec.metric),
            name,
        })
        .collect();
    let recs = || {
        let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
        results
            .records
            .iter()
            .filter(move |r| names.contains(&r.series.as_str()))
            .filter_map(|r| Some((r, r.metrics.get(spec.metric)?)))
    };
    let unit = recs().next().map_or(String::new(), |(_, m)| m.unit.clone());
    let mut xs: Vec<f64> = recs().map(|(r, _)| r.x).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let (first, last) = (xs.first().copied(), xs.last().copied());
    let x = if spec.x_is_size {
        Axis::sizes(&xs.iter().map(|&v| v.max(1.0) as u64).collect::<Vec<_>>())
    } else if spec.log_x {
        Axis::log(first.unwrap_or(1.0), last.unwrap_or(10.0))
    } else {
        Axis::linear(first.unwrap_or(0.0).min(0.0), last.unwrap_or(1.0))
    };
    let floor = spec
        .floor
        .then(|| {
            recs()
                .filter_map(|(r, _)| r.c2c_one_way_ns)
                .reduce(f64::min)
        })
        .flatten()
        .map(|ns| if unit == "ns" { ns } else { ns / 1e3 })
        .map(|f| (f, format!("c2c floor {}", fmt_value(f, &unit))));
    let scale = |log: bool| if log { " (log scale)" } else { "" };
    let metric = spec.metric.split('_').next().unwrap_or(spec.metric);
    LineChart {
        x,
        log_y: spec.log_y,
        x_desc: format!("{}{}", spec.x_label, scale(spec.log_x || spec.x_is_size)),
        y_desc: format!("{metric} ({unit}), mean and 95% CI{}", scale(spec.log_y)),
        lines,
        floor,
        cache_sizes: Vec::new(),
    }
}

fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
    spec: &FigureSpec,
) -> DrawResult {
    root.fill(&WHITE).map_err(err)?;
    let (chart_area, legend_area) = layout(root, spec.title)?;
    let (entries, mut notes) = chart(results, spec).draw(&chart_area)?;
    notes.push(if results.all_verified() {
        "all data verified".to_string()
    } else {
        "SOME DATA FAILED VERIFICATION".to_string()
    });
    draw_legend(&legend_area, "series", &entries, &notes)
}
