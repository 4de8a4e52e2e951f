//! The cached vs flushed figure: per mode, the read time with the block cached and flushed.

use super::plan::Figure;
use super::{metric_desc, sorted_modes};
use crate::bench::BenchResults;
use crate::experiments::exchange::record::ExchangeRecord as _;
use crate::plot::bars::Bars;
use crate::plot::kit::{draw_legend, layout, Area, DrawResult, Shape, CACHED_COLOR, FLUSHED_COLOR};
use crate::stats::Metric;

use plotters::prelude::*;

pub(super) fn draw_cached_vs_flushed<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
    fig: &Figure,
) -> DrawResult {
    let recs = &results.records;
    let (chart_area, legend_area) = layout(root, &fig.title)?;
    let read = |m: &str, flush: bool| {
        fig.records
            .iter()
            .map(|&i| &recs[i])
            .find(|r| r.mode() == m && r.flush_cache() == flush)
            .map(|r| *r.read_us())
    };
    let modes: Vec<String> = sorted_modes(recs, &fig.records)
        .into_iter()
        .filter(|m| read(m, true).is_some() && read(m, false).is_some())
        .collect();
    let group = |name: &str, color, flush| {
        let values = modes.iter().map(|m| read(m, flush)).collect();
        (name.to_string(), color, Shape::Square, values)
    };
    let bars = Bars {
        categories: modes.iter().map(|m| m.replacen('-', "-\n", 1)).collect(),
        groups: vec![
            group("cached (no flush)", CACHED_COLOR, false),
            group("flushed before t_done", FLUSHED_COLOR, true),
        ],
        floors: Vec::new(),
        log_y: false,
        x_desc: "",
        y_desc: metric_desc(Metric::Read),
        lines: false,
    };
    let (entries, _) = bars.draw(root, &chart_area)?;
    let notes = [
        "flushed: clflushopt of".to_string(),
        "every line after the write,".to_string(),
        "excluded from the times".to_string(),
    ];
    draw_legend(&legend_area, "block state", &entries, &notes)
}
