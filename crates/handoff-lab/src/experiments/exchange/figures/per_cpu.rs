//! Figures per consumer CPU: read time and latency, one bar (or, past 8 CPUs, one line) per
//! mode, the c2c floor of each CPU for the latency.

use super::plan::Figure;
use super::{metric_desc, mode_color, mode_shape, short_placement, sorted_modes};
use crate::bench::BenchResults;
use crate::experiments::exchange::record::{ExchangeRecord as _, ExchangeResults as _};
use crate::plot::bars::Bars;
use crate::plot::kit::{draw_legend, layout, Area, DrawResult};
use crate::stats::Metric;

use plotters::prelude::*;

pub(super) fn draw_per_cpu<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
    fig: &Figure,
    metric: Metric,
    log_y: bool,
) -> DrawResult {
    let recs = &results.records;
    let (chart_area, legend_area) = layout(root, &fig.title)?;
    let cpus = fig.distinct(recs, |r| r.consumer_core());
    let of_cpu = |c: usize| {
        fig.records
            .iter()
            .map(|&i| &recs[i])
            .filter(move |r| r.consumer_core() == c)
    };
    let floor_us = |c| Some(results.floor_for(of_cpu(c).next()?)? / 1e3);
    let floors = cpus
        .iter()
        .map(|&c| floor_us(c).filter(|_| metric == Metric::Latency))
        .collect();
    let groups = sorted_modes(recs, &fig.records)
        .into_iter()
        .map(|m| {
            let values = cpus
                .iter()
                .map(|&c| {
                    of_cpu(c)
                        .find(|r| r.mode() == m)
                        .map(|r| r.timed(metric).summary)
                })
                .collect();
            (m.clone(), mode_color(&m), mode_shape(&m), values)
        })
        .collect();
    let many = cpus.len() > 8;
    let categories = cpus
        .iter()
        .map(|&cpu| match of_cpu(cpu).next().filter(|_| !many) {
            Some(r) => format!("CPU {cpu}\n({})", short_placement(r.placement())),
            None => format!("{cpu}"),
        })
        .collect();
    let bars = Bars {
        categories,
        groups,
        floors,
        log_y,
        x_desc: "consumer CPU",
        y_desc: metric_desc(metric),
        lines: many,
    };
    let (entries, omitted) = bars.draw(root, &chart_area)?;
    let mut notes = Vec::new();
    if log_y {
        notes.push("log scale".to_string());
    }
    if omitted > 0 {
        notes.push(format!("{omitted} non-positive mean(s)"));
        notes.push("not drawn on the log axis".to_string());
    }
    draw_legend(&legend_area, "mode", &entries, &notes)
}
