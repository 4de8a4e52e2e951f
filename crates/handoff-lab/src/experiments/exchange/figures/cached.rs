//! The cached vs flushed figure.

use super::plan::Figure;
use super::{metric_desc, sorted_modes};
use crate::bench::BenchResults;
use crate::experiments::exchange::record::ExchangeRecord as _;
use crate::plot::kit::{
    draw_legend, draw_x_categories, err, error_bar, frame, layout, value_range, Axis, Swatch,
    CACHED_COLOR, FLUSHED_COLOR,
};
use crate::plot::kit::{Area, DrawResult};

use plotters::prelude::*;

use crate::stats::Metric;

// ---------------------------------------------------------------------------------------------
// Cached vs flushed

pub(super) fn draw_cached_vs_flushed<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
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
                    .any(|&i| recs[i].mode() == m && recs[i].flush_cache() == f)
            };
            has(true) && has(false)
        })
        .collect();
    let (min, _, max) = value_range(fig.records.iter().map(|&i| recs[i].read_us()));
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
                .find(|r| r.mode() == mode && r.flush_cache() == flush)
            else {
                continue;
            };
            let cx = k as f64 + if j == 0 { -bar_w / 2.0 } else { bar_w / 2.0 };
            let color = if flush { FLUSHED_COLOR } else { CACHED_COLOR };
            chart
                .draw_series([Rectangle::new(
                    [
                        (cx - bar_w * 0.46, 0.0f64.max(y.lo)),
                        (cx + bar_w * 0.46, r.read_us().mean),
                    ],
                    color.filled(),
                )])
                .map_err(err)?;
            if let (Some(lo), Some(hi)) = (r.read_us().ci95_low, r.read_us().ci95_high) {
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
