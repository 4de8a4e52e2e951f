//! The c2c heatmap: the one-way latency between each pair of CPUs, drawn from a results
//! file's [`BenchResults::c2c`] pairs (a `bench c2c` file, or the exchange's matrix).

use crate::bench::render::c2c_csv;
use crate::bench::BenchResults;
use crate::experiments::exchange::record::ExchangeResults as _;
use crate::plot::kit::{anchored, draw_title, err, font, Axis, FONT_FAMILY, INK, MARKER};
use crate::plot::kit::{Area, DrawResult};
use crate::plot::{png_of, svg_of, Drawn, PlotError};

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Width and height of the heatmap in pixels.
pub const SIZE: (u32, u32) = (980, 820);
/// The heatmap's file stem.
pub const ID: &str = "c2c_heatmap";
/// The heatmap's title.
pub const TITLE: &str = "Core-to-core one-way latency (ns)";

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

/// Draws the heatmap of `results`' pairs under `title`.
pub(crate) fn draw_heatmap<DB: DrawingBackend>(
    root: &Area<DB>,
    results: &BenchResults,
    title: &str,
) -> DrawResult {
    let body = draw_title(root, title)?;
    let (w, _) = body.dim_in_pixel();
    let (chart_area, bar_area) = body.split_horizontally(w.saturating_sub(150));
    let cpus = results.c2c_cpus();
    let n = cpus.len();
    let value =
        |a: usize, b: usize| -> Option<f64> { results.c2c_between(a, b).filter(|_| a != b) };
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
    // Label every CPU up to 32, then thin out.
    let stride = n.div_ceil(32).max(1);
    let shown: Vec<(f64, String)> = cpus
        .iter()
        .enumerate()
        .step_by(stride)
        .map(|(i, c)| (i as f64 + 0.5, c.to_string()))
        .collect();
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
    let text_size = match n {
        0..=4 => 26,
        5..=8 => 20,
        _ => 14,
    };
    for (i, &a) in cpus.iter().enumerate() {
        for (j, &b) in cpus.iter().enumerate() {
            let (x0, y0) = (j as f64, (n - i - 1) as f64);
            let v = value(a, b);
            let color = v.map_or(RGBColor(0xee, 0xee, 0xee), |v| viridis(norm(v)));
            let corners = [(x0, y0), (x0 + 1.0, y0 + 1.0)];
            let cell = [color.filled(), WHITE.stroke_width(1)].map(|s| Rectangle::new(corners, s));
            chart.draw_series(cell).map_err(err)?;
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
    let (_, bh) = bar_area.dim_in_pixel();
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
    for (dy, word) in [(16, "one-way"), (34, "latency")] {
        let at = (left, top + height + dy);
        bar_area
            .draw(&Text::new(word.to_string(), at, font(15)))
            .map_err(err)?;
    }
    Ok(())
}

/// The registry's hook ([`crate::bench::ExperimentInfo::draw`]) of a c2c file: its heatmap,
/// with the pairs as CSV, when it holds a pair of two CPUs.
pub fn draw(res: &BenchResults, _: Option<&std::path::Path>) -> Result<Vec<Drawn>, PlotError> {
    if !res.c2c.iter().any(|p| p.cpu_a != p.cpu_b) {
        return Ok(Vec::new());
    }
    fn on<DB: DrawingBackend>(root: &Area<DB>, res: &BenchResults) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        draw_heatmap(root, res, TITLE)
    }
    Ok(vec![Drawn {
        id: ID.to_string(),
        png: png_of(ID, SIZE, |root| on(root, res))?,
        svg: svg_of(ID, SIZE, |root| on(root, res))?,
        csv: Some(c2c_csv(&res.c2c)),
    }])
}
