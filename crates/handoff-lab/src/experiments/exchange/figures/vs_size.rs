//! Figures against the block size: read time and latency, log-log.

use super::plan::Figure;
use super::{metric_desc, mode_color, mode_shape, short_placement, sorted_modes};
use crate::bench::text::{fmt_ns, fmt_size};
use crate::bench::BenchResults;
use crate::experiments::exchange::record::{ExchangeRecord as _, ExchangeResults as _};
use crate::plot::kit::{anchored, draw_legend, draw_title, err, layout, Axis};
use crate::plot::kit::{Area, DrawError, DrawResult, LEGEND_WIDTH};
use crate::plot::lines::{Legend, Line, LineChart};
use crate::stats::{distinct, Metric};

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

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
    let pair = (producer, consumer);
    let (entries, notes) =
        vs_size_chart(&chart_area, results, &fig.records, (metric, &y_desc), pair)?;
    draw_legend(&legend_area, "mode", &entries, &notes)
}

/// Draws the chart of `metric` against the block size of the records `idx` (one core pair)
/// into `area` (no title, no legend), its y axis described as `y_desc`; returns what its
/// legend lists.
fn vs_size_chart<DB: DrawingBackend>(
    area: &Area<DB>,
    results: &BenchResults,
    idx: &[usize],
    (metric, y_desc): (Metric, &str),
    (producer, consumer): (usize, usize),
) -> Result<Legend, DrawError> {
    let recs = &results.records;
    let floor_us = if metric == Metric::Latency && producer != consumer {
        idx.iter()
            .find_map(|&i| recs[i].c2c_one_way_ns)
            .or_else(|| results.c2c_between(producer, consumer))
            .map(|ns| ns / 1e3)
    } else {
        None
    };
    let lines = sorted_modes(recs, idx)
        .into_iter()
        .map(|mode| Line {
            style: (mode_color(&mode), mode_shape(&mode)),
            points: (idx.iter().map(|&i| &recs[i]))
                .filter(|r| r.mode() == mode)
                .map(|r| (r.size_bytes() as f64, r.timed(metric).summary))
                .collect(),
            name: mode,
            model: None,
        })
        .collect();
    let m = &results.machine;
    let cache_sizes = (1..=4u8)
        .filter_map(|level| {
            let size = m.cache_size(level)?;
            let data = if level == 1 { "d" } else { "" };
            Some((size as f64, format!("L{level}{data} {}", fmt_size(size))))
        })
        .collect();
    LineChart {
        x: Axis::sizes(&distinct(idx.iter().map(|&i| recs[i].size_bytes()))),
        log_y: true,
        x_desc: "block size (log scale)".to_string(),
        y_desc: y_desc.to_string(),
        lines,
        floor: floor_us.map(|f| (f, format!("c2c floor {}", fmt_ns(f * 1e3)))),
        cache_sizes,
    }
    .draw(area)
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
        let idx = super::plan::select(recs, &fig.records, |r| {
            (r.producer_core(), r.consumer_core()) == (*p, *c)
        });
        for (col, (metric, _, what)) in super::plan::METRICS.into_iter().enumerate() {
            let cell = &cells[row * 2 + col];
            let (cw, _) = cell.dim_in_pixel();
            let (top, chart_area) = cell.split_vertically(PANEL_TITLE_HEIGHT);
            top.draw(&Text::new(
                format!("{what}: {} (CPU {p} → {c})", short_placement(pl)),
                (cw as i32 / 2, 6),
                anchored(19, HPos::Center, VPos::Top),
            ))
            .map_err(err)?;
            let y_desc = (metric, "µs, log scale");
            let (e, n) = vs_size_chart(&chart_area, results, &idx, y_desc, (*p, *c))?;
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
