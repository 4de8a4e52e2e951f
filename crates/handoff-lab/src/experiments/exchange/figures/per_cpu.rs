//! Figures per consumer CPU: read time and latency, one bar or line per mode.

use super::plan::Figure;
use super::{metric_desc, mode_color, mode_shape, short_placement, sorted_modes};
use crate::bench::BenchResults;
use crate::experiments::exchange::record::{ExchangeRecord as _, ExchangeResults as _};
use crate::plot::kit::{
    draw_legend, draw_markers, draw_x_categories, err, error_bar, frame, layout, value_range, Axis,
    Swatch, INK,
};
use crate::plot::kit::{Area, DrawResult};

use plotters::prelude::*;

use crate::stats::Metric;

// ---------------------------------------------------------------------------------------------
// Per CPU

pub(super) fn draw_per_cpu<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
    fig: &Figure,
    metric: Metric,
    log_y: bool,
) -> DrawResult {
    let recs = &results.records;
    let (chart_area, legend_area) = layout(root, &fig.title)?;
    let modes = sorted_modes(recs, &fig.records);
    let cpus = fig.distinct(recs, |r| r.consumer_core());

    let (min, min_pos, mut max) =
        value_range(fig.records.iter().map(|&i| &recs[i].timed(metric).summary));
    let floors: Vec<Option<f64>> = cpus
        .iter()
        .map(|&c| {
            if metric != Metric::Latency {
                return None;
            }
            fig.records
                .iter()
                .map(|&i| &recs[i])
                .find(|r| r.consumer_core() == c)
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
                .find(|r| r.mode() == mode && r.consumer_core() == cpu)
            else {
                continue;
            };
            let s = &r.timed(metric).summary;
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
                .find(|r| r.consumer_core() == cpu)
                .map(|r| short_placement(r.placement()).to_string())
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
