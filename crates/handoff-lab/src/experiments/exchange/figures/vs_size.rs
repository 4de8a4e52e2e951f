//! Figures against the block size: read time and latency, log-log.

use super::plan::{Figure, FigureKind};
use super::{metric_desc, mode_color, mode_shape, short_placement, sorted_modes};
use crate::bench::BenchResults;
use crate::experiments::exchange::record::{ExchangeRecord as _, ExchangeResults as _};
use crate::plot::kit::{
    anchored, draw_floor_line, draw_legend, draw_line_series, err, frame, layout, value_range,
    Axis, Swatch, CACHE_MARK, INK,
};
use crate::plot::kit::{draw_title, Area, DrawError, DrawResult, LEGEND_WIDTH};

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use crate::bench::text::{fmt_ns, fmt_size};
use crate::stats::Metric;
use crate::stats::Summary;

/// Height of a panel's title band in the processes-vs-threads figure, in pixels.
const PANEL_TITLE_HEIGHT: u32 = 34;

// ---------------------------------------------------------------------------------------------
// Vs size

pub(super) fn draw_vs_size<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
    fig: &Figure,
    metric: Metric,
    producer: usize,
    consumer: usize,
) -> DrawResult {
    let (chart_area, legend_area) = layout(root, &fig.title)?;
    let y_desc = format!("{} (log scale)", metric_desc(metric));
    let (entries, notes) = vs_size_chart(
        &chart_area,
        results,
        fig,
        (metric, &y_desc),
        producer,
        consumer,
    )?;
    draw_legend(&legend_area, "mode", &entries, &notes)
}

/// A legend's entries and notes.
type Legend = (Vec<(String, Swatch)>, Vec<String>);

/// Draws the chart of a vs-size figure of `metric` into `area` (no title, no legend), its y
/// axis described as `y_desc`; returns what its legend lists.
fn vs_size_chart<DB: DrawingBackend>(
    area: &Area<DB>,
    results: &BenchResults,
    fig: &Figure,
    (metric, y_desc): (Metric, &str),
    producer: usize,
    consumer: usize,
) -> Result<Legend, DrawError> {
    let recs = &results.records;
    let modes = sorted_modes(recs, &fig.records);
    let sizes = fig.distinct(recs, |r| r.size_bytes());
    let x = Axis::sizes(&sizes);
    let (_, mut min_pos, mut max) =
        value_range(fig.records.iter().map(|&i| &recs[i].timed(metric).summary));
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
    let mut chart = frame(area, &x, &y, "block size (log scale)", y_desc, false)?;

    let mut entries: Vec<(String, Swatch)> = Vec::new();
    let mut omitted = 0usize;
    for mode in &modes {
        let color = mode_color(mode);
        let mut pts: Vec<(f64, f64, Summary)> = Vec::new();
        for &i in &fig.records {
            let r = &recs[i];
            if r.mode() != mode {
                continue;
            }
            let s = &r.timed(metric).summary;
            match (x.pos(r.size_bytes() as f64), y.pos(s.mean)) {
                (Some(px), Some(py)) => pts.push((px, py, *s)),
                _ => omitted += 1,
            }
        }
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        draw_line_series(&mut chart, &pts, &y, 0.025, (color, mode_shape(mode)))?;
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
        let (bx, by) = area.get_base_pixel();
        area.draw(&Text::new(
            format!("{name} {}", fmt_size(*size)),
            (px - bx + 6, py - by + 6),
            anchored(16, HPos::Left, VPos::Top),
        ))
        .map_err(err)?;
    }
    if any_mark {
        entries.push(("cache size".to_string(), Swatch::Dashed(CACHE_MARK)));
    }
    if let Some(f) = floor_us.and_then(|f| y.pos(f)) {
        let label = format!("c2c floor {}", fmt_ns(floor_us.unwrap_or(0.0) * 1e3));
        draw_floor_line(&mut chart, area, &x, f, label)?;
        entries.push(("c2c one-way floor".to_string(), Swatch::Dashed(INK)));
    }
    let mut notes = Vec::new();
    if omitted > 0 {
        notes.push(format!("{omitted} non-positive mean(s)"));
        notes.push("not drawn on the log axis".to_string());
    }
    Ok((entries, notes))
}

// ---------------------------------------------------------------------------------------------
// Processes vs threads: the report's first figure

/// One row per placement of `fig`, read time left and latency right, each panel the chart of
/// a vs-size figure ([`vs_size_chart`]) of the records of that row's core pair; one legend
/// for all, on the right.
pub(super) fn draw_processes_vs_threads<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
    fig: &Figure,
    panels: &[(String, usize, usize)],
) -> DrawResult {
    let body = draw_title(root, &fig.title)?;
    let (w, _) = body.dim_in_pixel();
    let (grid, legend_area) = body.split_horizontally(w.saturating_sub(LEGEND_WIDTH));
    let cells = grid.split_evenly((panels.len().max(1), 2));
    let recs = &results.records;
    let (mut entries, mut notes): Legend = (Vec::new(), Vec::new());
    for (row, (pl, p, c)) in panels.iter().enumerate() {
        let idx: Vec<usize> = fig
            .records
            .iter()
            .copied()
            .filter(|&i| recs[i].producer_core() == *p && recs[i].consumer_core() == *c)
            .collect();
        for (col, (metric, what)) in [(Metric::Read, "Read time"), (Metric::Latency, "Latency")]
            .into_iter()
            .enumerate()
        {
            let cell = &cells[row * 2 + col];
            let (cw, _) = cell.dim_in_pixel();
            let (top, chart_area) = cell.split_vertically(PANEL_TITLE_HEIGHT);
            top.draw(&Text::new(
                format!("{what}: {} (CPU {p} → {c})", short_placement(pl)),
                (cw as i32 / 2, 6),
                anchored(19, HPos::Center, VPos::Top),
            ))
            .map_err(err)?;
            let panel = Figure {
                id: fig.id.clone(),
                title: String::new(),
                kind: FigureKind::VsSize {
                    metric,
                    placement: pl.clone(),
                    producer_core: *p,
                    consumer_core: *c,
                },
                records: idx.clone(),
            };
            let (e, n) = vs_size_chart(
                &chart_area,
                results,
                &panel,
                (metric, "µs, log scale"),
                *p,
                *c,
            )?;
            for x in e {
                if !entries.iter().any(|(l, _)| *l == x.0) {
                    entries.push(x);
                }
            }
            for x in n {
                if !notes.contains(&x) {
                    notes.push(x);
                }
            }
        }
    }
    draw_legend(&legend_area, "mode", &entries, &notes)
}
