//! Grouped bars: in each category along x one bar per group with its 95% CI, or, when the
//! categories are many, one line of markers per group; a dashed floor per category. The
//! exchange's per-CPU and cached-vs-flushed figures draw with it.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::kit::{
    anchored, draw_markers, err, error_bar, frame, value_range, Area, Axis, DrawError, Shape,
    Swatch, INK,
};
use crate::stats::Summary;

/// A bar chart (no title, no legend: [`Bars::draw`] returns its legend's entries).
pub(crate) struct Bars<'a> {
    /// One label per category (a `\n` breaks it).
    pub(crate) categories: Vec<String>,
    /// Per group: its name, colour and marker, and its value in each category.
    pub(crate) groups: Vec<(String, RGBColor, Shape, Vec<Option<Summary>>)>,
    /// Per category, a dashed level across its bars (the c2c floor), in y's unit.
    pub(crate) floors: Vec<Option<f64>>,
    pub(crate) log_y: bool,
    pub(crate) x_desc: &'a str,
    pub(crate) y_desc: &'a str,
    /// Markers joined by a line per group instead of bars (many categories).
    pub(crate) lines: bool,
}

impl Bars<'_> {
    /// Draws the chart into `area` and its category labels into `root`; returns the legend's
    /// entries and how many values the log axis could not show.
    pub(crate) fn draw<DB: DrawingBackend>(
        &self,
        root: &Area<DB>,
        area: &Area<DB>,
    ) -> Result<(Vec<(String, Swatch)>, usize), DrawError> {
        let sums = self.groups.iter().flat_map(|g| g.3.iter().flatten());
        let (min, mut min_pos, mut max) = value_range(sums);
        for f in self.floors.iter().flatten() {
            (min_pos, max) = (min_pos.min(*f), max.max(*f));
        }
        let y = if self.log_y {
            Axis::log(min_pos, max)
        } else {
            Axis::linear(min, max)
        };
        let n = self.categories.len() as f64;
        let x = Axis {
            log: false,
            lo: -0.5,
            hi: n - 0.5,
            ticks: Vec::new(),
        };
        let mut chart = frame(area, &x, &y, self.x_desc, self.y_desc, true)?;
        let groups = self.groups.len().max(1) as f64;
        let bar_w = 0.8 / groups;
        let base = if y.log { y.lo } else { 0.0f64.max(y.lo) };
        let (mut entries, mut omitted) = (Vec::new(), 0);
        for (k, (name, color, shape, values)) in self.groups.iter().enumerate() {
            let k = k as f64;
            let mut line_pts = Vec::new();
            for (ci, s) in values.iter().enumerate() {
                let Some(s) = s else { continue };
                let Some(top) = y.pos(s.mean) else {
                    omitted += 1;
                    continue;
                };
                let cx = if self.lines {
                    ci as f64 + (k - (groups - 1.0) / 2.0) * 0.6 / groups
                } else {
                    ci as f64 - 0.4 + bar_w * (k + 0.5)
                };
                if self.lines {
                    line_pts.push((cx, top));
                } else {
                    let corners = [(cx - bar_w * 0.44, base), (cx + bar_w * 0.44, top)];
                    chart
                        .draw_series([Rectangle::new(corners, color.filled())])
                        .map_err(err)?;
                }
                if let (Some(lo), Some(hi)) = (s.ci95_low, s.ci95_high) {
                    error_bar(&mut chart, cx, y.clamp(lo), y.clamp(hi), bar_w * 0.2)?;
                }
            }
            if !line_pts.is_empty() {
                let line = LineSeries::new(line_pts.clone(), color.stroke_width(2));
                chart.draw_series(line).map_err(err)?;
                draw_markers(&mut chart, &line_pts, *shape, *color)?;
            }
            let swatch = match self.lines {
                true => Swatch::Line(*color, *shape),
                false => Swatch::Box(*color),
            };
            entries.push((name.clone(), swatch));
        }
        entries.push(("95% CI of the mean".to_string(), Swatch::ErrorBar));
        for (c, f) in self.floors.iter().enumerate() {
            if let Some(f) = f.and_then(|f| y.pos(f)) {
                let line = vec![(c as f64 - 0.46, f), (c as f64 + 0.46, f)];
                let dashed = DashedLineSeries::new(line, 8, 5, INK.stroke_width(2));
                chart.draw_series(dashed).map_err(err)?;
            }
        }
        if self.floors.iter().any(Option::is_some) {
            entries.push(("c2c one-way floor".to_string(), Swatch::Dashed(INK)));
        }
        // The category labels under the x axis, a line per `\n`.
        for (i, label) in self.categories.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(i as f64, y.lo));
            for (k, line) in label.split('\n').enumerate() {
                let at = (px, py + 8 + 20 * k as i32);
                let style = anchored(16, HPos::Center, VPos::Top);
                root.draw(&Text::new(line.to_string(), at, style))
                    .map_err(err)?;
            }
        }
        Ok((entries, omitted))
    }
}
