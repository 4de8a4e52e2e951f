//! The chart kit every figure draws with: colours and text, axes, frames, legends, markers.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::bench::text::{fmt_size, sig3};
use crate::stats::Summary;

/// The font family name the plots use; the bundled font is registered under it.
pub const FONT_FAMILY: &str = "sans-serif";
/// Height of a figure's title band, in pixels.
pub(crate) const TITLE_HEIGHT: u32 = 54;
/// Width of the legend column beside a chart, in pixels.
pub(crate) const LEGEND_WIDTH: u32 = 270;

pub(crate) type Area<DB> = DrawingArea<DB, Shift>;
pub(crate) type DrawResult = Result<(), DrawError>;

/// plotters failed while drawing; its error types are generic over the backend, so the
/// message is kept as text (the caller adds the figure in [`super::PlotError::Draw`]).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct DrawError(String);

pub(crate) fn err<E: std::fmt::Display>(e: E) -> DrawError {
    DrawError(e.to_string())
}

// ---------------------------------------------------------------------------------------------
// Colors and text

/// Marker shape of a line series: the exchange draws threads as circles, processes as
/// triangles, the rest as squares, so series that coincide stay distinguishable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Threads.
    Circle,
    /// Processes (apart from `pipe`).
    Triangle,
    /// Everything else.
    Square,
}

/// Draws markers of `shape` at plot points.
pub(crate) fn draw_markers<DB: DrawingBackend>(
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
pub(crate) fn draw_marker_px<DB: DrawingBackend>(
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

pub(crate) const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
pub(crate) const GRID: RGBColor = RGBColor(0xe2, 0xe2, 0xe2);
pub(crate) const MARKER: RGBColor = RGBColor(0x55, 0x55, 0x55);
pub(crate) const CACHE_MARK: RGBColor = RGBColor(0x99, 0x99, 0x99);
pub(crate) const CACHED_COLOR: RGBColor = RGBColor(0x4e, 0x79, 0xa7);
pub(crate) const FLUSHED_COLOR: RGBColor = RGBColor(0xe1, 0x57, 0x59);

pub(crate) fn font(size: u32) -> TextStyle<'static> {
    (FONT_FAMILY, size as f64).into_font().color(&INK)
}

pub(crate) fn anchored(size: u32, h: HPos, v: VPos) -> TextStyle<'static> {
    font(size).pos(Pos::new(h, v))
}

// ---------------------------------------------------------------------------------------------
// Axes

/// One axis: its range in plot coordinates (log10 of the value when `log`), ticks and labels.
pub(crate) struct Axis {
    pub(crate) log: bool,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) ticks: Vec<(f64, String)>,
}

impl Axis {
    /// A linear axis from 0 (or `min` when negative) to a little above `max`.
    pub(crate) fn linear(min: f64, max: f64) -> Axis {
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
    pub(crate) fn log(min: f64, max: f64) -> Axis {
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

    /// A log axis of block sizes with a tick at every size that leaves room for its label:
    /// from the smallest size up, a size closer than 1/14 of the axis to the last tick kept
    /// gets none (the largest size always does, in place of its left neighbour), so a
    /// dense sweep (64 KiB, 128 KiB, 256 KiB …) does not print its labels over each other.
    pub(crate) fn sizes(sizes: &[u64]) -> Axis {
        let min = sizes.iter().copied().min().unwrap_or(1).max(1) as f64;
        let max = sizes.iter().copied().max().unwrap_or(1).max(1) as f64;
        let pad = 0.25;
        let (lo, hi) = (min.log10() - pad, max.log10() + pad);
        let gap = (hi - lo) / 14.0;
        let mut ticks: Vec<(f64, String)> = Vec::new();
        for s in crate::stats::distinct(sizes.iter().map(|&s| s.max(1))) {
            let p = (s as f64).log10();
            let last = s as f64 == max;
            while last && ticks.last().is_some_and(|t| p - t.0 < gap) && ticks.len() > 1 {
                ticks.pop();
            }
            if last || ticks.last().is_none_or(|t| p - t.0 >= gap) {
                ticks.push((p, fmt_size(s)));
            }
        }
        Axis {
            log: true,
            lo,
            hi,
            ticks,
        }
    }

    /// Plot coordinate of a value (`None` for a non-positive value on a log axis).
    pub(crate) fn pos(&self, v: f64) -> Option<f64> {
        if self.log {
            (v > 0.0).then(|| v.log10())
        } else {
            Some(v)
        }
    }

    /// Plot coordinate clamped into the axis range.
    pub(crate) fn clamp(&self, v: f64) -> f64 {
        self.pos(v).unwrap_or(self.lo).clamp(self.lo, self.hi)
    }

    pub(crate) fn label(&self, p: f64) -> String {
        let eps = (self.hi - self.lo).abs() * 1e-6;
        self.ticks
            .iter()
            .find(|(t, _)| (t - p).abs() <= eps)
            .map(|(_, s)| s.clone())
            .unwrap_or_default()
    }

    pub(crate) fn coord(&self) -> AxisCoord {
        AxisCoord {
            lo: self.lo,
            hi: self.hi,
            ticks: self.ticks.iter().map(|t| t.0).collect(),
        }
    }
}

/// A linear f64 coordinate with fixed key points (plotters' `WithKeyPoints` over
/// `RangedCoordf64` cannot take a label formatter).
pub(crate) struct AxisCoord {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) ticks: Vec<f64>,
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
pub(crate) fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    let m = [1.0, 2.0, 5.0].into_iter().find(|&m| raw / p <= m);
    m.unwrap_or(10.0) * p
}

pub(crate) fn fmt_tick(v: f64) -> String {
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

pub(crate) type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<AxisCoord, AxisCoord>>;

/// The c2c floor across a chart: a dashed line at `y_pos` (a position on the y axis)
/// labelled `label` above its right end.
pub(crate) fn draw_floor_line<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    root: &Area<DB>,
    x: &Axis,
    y_pos: f64,
    label: String,
) -> DrawResult {
    let line = vec![(x.lo, y_pos), (x.hi, y_pos)];
    chart
        .draw_series(DashedLineSeries::new(line, 8, 5, INK.stroke_width(2)))
        .map_err(err)?;
    let (px, py) = chart.backend_coord(&(x.hi, y_pos));
    let (bx, by) = root.get_base_pixel();
    let at = anchored(15, HPos::Right, VPos::Bottom);
    root.draw(&Text::new(label, (px - bx - 8, py - by - 6), at))
        .map_err(err)
}

/// Builds the chart frame: mesh, tick labels (the x tick labels are drawn by the caller when
/// `own_x_labels`), axis descriptions.
pub(crate) fn frame<'a, DB: DrawingBackend>(
    area: &'a Area<DB>,
    x: &Axis,
    y: &Axis,
    x_desc: &str,
    y_desc: &str,
    own_x_labels: bool,
) -> Result<Chart<'a, DB>, DrawError> {
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
pub(crate) fn layout<DB: DrawingBackend>(
    root: &Area<DB>,
    title: &str,
) -> Result<(Area<DB>, Area<DB>), DrawError> {
    let body = draw_title(root, title)?;
    let (w, _) = body.dim_in_pixel();
    Ok(body.split_horizontally(w.saturating_sub(LEGEND_WIDTH)))
}

/// Draws the title centered at the top; returns the area below it.
pub(crate) fn draw_title<DB: DrawingBackend>(
    root: &Area<DB>,
    title: &str,
) -> Result<Area<DB>, DrawError> {
    let (w, _) = root.dim_in_pixel();
    let (top, body) = root.split_vertically(TITLE_HEIGHT);
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
pub(crate) enum Swatch {
    Box(RGBColor),
    Line(RGBColor, Shape),
    Dashed(RGBColor),
    ErrorBar,
}

pub(crate) fn draw_legend<DB: DrawingBackend>(
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
                let (xm, st) = (x0 + 11, INK.stroke_width(2));
                let bar = [(xm, y), (xm, y + 18)];
                let caps = [
                    [(xm - 5, y), (xm + 5, y)],
                    [(xm - 5, y + 18), (xm + 5, y + 18)],
                ];
                for stroke in std::iter::once(bar).chain(caps) {
                    area.draw(&PathElement::new(stroke.to_vec(), st))
                        .map_err(err)?;
                }
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
pub(crate) fn error_bar<DB: DrawingBackend>(
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

/// Draws one series: a line through `pts` (plot x, plot y, the point's summary), a marker
/// per point, and the 95% interval as a bar `half` wide on each side where it is longer than
/// the marker.
pub(crate) fn draw_line_series<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    pts: &[(f64, f64, Summary)],
    y: &Axis,
    half: f64,
    (color, shape): (RGBColor, Shape),
) -> DrawResult {
    let xy: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
    let line = LineSeries::new(xy.clone(), color.stroke_width(3));
    chart.draw_series(line).map_err(err)?;
    draw_markers(chart, &xy, shape, color)?;
    for (px, _, s) in pts {
        if let (Some(lo), Some(hi)) = (s.ci95_low, s.ci95_high) {
            let (lo, hi) = (y.clamp(lo), y.clamp(hi));
            // Skip bars shorter than the marker: they would only blur it.
            if hi - lo > (y.hi - y.lo) * 0.012 {
                error_bar(chart, *px, lo, hi, half)?;
            }
        }
    }
    Ok(())
}

/// The y range (min positive low, max high) of the bars/points to plot.
pub(crate) fn value_range<'s>(sums: impl Iterator<Item = &'s Summary>) -> (f64, f64, f64) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_ticks_leave_room_for_their_labels() {
        let dense: Vec<u64> = [8u64, 64, 512, 4096, 16 << 10, 64 << 10, 128 << 10]
            .into_iter()
            .chain([256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20])
            .collect();
        let a = Axis::sizes(&dense);
        let gap = (a.hi - a.lo) / 14.0;
        for w in a.ticks.windows(2) {
            assert!(w[1].0 - w[0].0 >= gap, "{:?}", a.ticks);
        }
        let labels: Vec<&str> = a.ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels.first(), Some(&fmt_size(8).as_str()));
        assert_eq!(labels.last(), Some(&fmt_size(4 << 20).as_str()));
        assert!(labels.contains(&fmt_size(1 << 20).as_str()), "{labels:?}");
        assert!(
            !labels.contains(&fmt_size(128 << 10).as_str()),
            "{labels:?}"
        );
        // A sparse sweep keeps every size.
        let sparse = [64u64, 4096, 256 << 10];
        assert_eq!(Axis::sizes(&sparse).ticks.len(), 3);
    }
}
