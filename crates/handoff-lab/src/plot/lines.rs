//! The figure of every registered experiment ([`crate::bench`]): one metric against the
//! records' x, one line per series, 95% CI bars, the c2c floor when asked.

use plotters::prelude::*;

use super::kit::Shape;
use super::kit::{
    draw_floor_line, draw_legend, draw_line_series, err, frame, layout, Area, Axis, DrawResult,
    Swatch, INK,
};
use super::PlotError;
use crate::bench::render::fmt_value;
use crate::bench::{BenchResults, FigureSpec};

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

/// The series a figure draws: those starting with its prefix that have its metric.
pub fn figure_series(results: &BenchResults, spec: &FigureSpec) -> Vec<String> {
    results
        .series_names()
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

fn draw<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
    spec: &FigureSpec,
) -> DrawResult {
    root.fill(&WHITE).map_err(err)?;
    let (chart_area, legend_area) = layout(root, spec.title)?;
    let series = figure_series(results, spec);
    let recs: Vec<_> = results
        .records
        .iter()
        .filter(|r| series.contains(&r.series))
        .filter(|r| r.metrics.contains_key(spec.metric))
        .collect();
    let unit = recs
        .first()
        .and_then(|r| r.metrics.get(spec.metric))
        .map_or(String::new(), |m| m.unit.clone());

    let mut xs: Vec<f64> = recs.iter().map(|r| r.x).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let x = if spec.x_is_size {
        let sizes: Vec<u64> = xs.iter().map(|&v| v.max(1.0) as u64).collect();
        Axis::sizes(&sizes)
    } else if spec.log_x {
        Axis::log(
            xs.first().copied().unwrap_or(1.0),
            xs.last().copied().unwrap_or(10.0),
        )
    } else {
        Axis::linear(
            xs.first().copied().unwrap_or(0.0).min(0.0),
            xs.last().copied().unwrap_or(1.0),
        )
    };
    let floor = spec
        .floor
        .then(|| {
            recs.iter()
                .filter_map(|r| r.c2c_one_way_ns)
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))))
        })
        .flatten()
        .map(|ns| if unit == "ns" { ns } else { ns / 1e3 });
    let mut lo = f64::INFINITY;
    let mut hi = 0.0f64;
    for r in &recs {
        let s = &r.metrics[spec.metric].summary;
        let l = s.ci95_low.unwrap_or(s.mean).min(s.mean);
        let h = s.ci95_high.unwrap_or(s.mean).max(s.mean);
        if l > 0.0 {
            lo = lo.min(l);
        }
        hi = hi.max(h);
    }
    if let Some(f) = floor {
        lo = lo.min(f);
        hi = hi.max(f);
    }
    if !lo.is_finite() {
        lo = hi.max(1.0) / 10.0;
    }
    let y = if spec.log_y {
        Axis::log(lo, hi.max(lo))
    } else {
        Axis::linear(0.0, hi)
    };
    let scale = |log: bool| if log { " (log scale)" } else { "" };
    let y_desc = format!(
        "{} ({unit}), mean and 95% CI{}",
        spec.metric.split('_').next().unwrap_or(spec.metric),
        scale(spec.log_y)
    );
    let mut chart = frame(
        &chart_area,
        &x,
        &y,
        &format!("{}{}", spec.x_label, scale(spec.log_x || spec.x_is_size)),
        &y_desc,
        false,
    )?;
    let mut entries: Vec<(String, Swatch)> = Vec::new();
    for (k, name) in series.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        let shape = SHAPES[k % SHAPES.len()];
        let mut pts = Vec::new();
        for r in results.series(name) {
            let Some(m) = r.metrics.get(spec.metric) else {
                continue;
            };
            if let (Some(px), Some(py)) = (x.pos(r.x), y.pos(m.summary.mean)) {
                pts.push((px, py, m.summary));
            }
        }
        draw_line_series(&mut chart, &pts, &y, (x.hi - x.lo) * 0.006, (color, shape))?;
        entries.push((name.clone(), Swatch::Line(color, shape)));
        let model = results
            .models
            .iter()
            .find(|m| &m.series == name && m.metric == spec.metric);
        let span = results
            .series(name)
            .iter()
            .map(|r| r.x)
            .fold(None, |s: Option<(f64, f64)>, v| {
                Some(s.map_or((v, v), |(a, b)| (a.min(v), b.max(v))))
            });
        if let (Some(m), Some((x0, x1)), false) = (model, span, pts.is_empty()) {
            // The model over the series' own x range, clamped into the plot.
            let curve: Vec<(f64, f64)> = (0..=48)
                .map(|i| x0 + (x1 - x0) * f64::from(i) / 48.0)
                .filter_map(|xv| Some((x.pos(xv)?, y.clamp(m.predict(xv)))))
                .collect();
            chart
                .draw_series(DashedLineSeries::new(curve, 6, 4, color.stroke_width(2)))
                .map_err(err)?;
            entries.push((
                format!("{name}: model (least squares)"),
                Swatch::Dashed(color),
            ));
        }
    }
    entries.push(("95% CI of the mean".to_string(), Swatch::ErrorBar));
    if let Some(f) = floor {
        if let Some(p) = y.pos(f) {
            let label = format!("c2c floor {}", fmt_value(f, &unit));
            draw_floor_line(&mut chart, root, &x, p, label)?;
            entries.push(("c2c floor".to_string(), Swatch::Dashed(INK)));
        }
    }
    let notes: Vec<String> = if results.all_verified() {
        vec!["all data verified".to_string()]
    } else {
        vec!["SOME DATA FAILED VERIFICATION".to_string()]
    };
    draw_legend(&legend_area, "series", &entries, &notes)
}
