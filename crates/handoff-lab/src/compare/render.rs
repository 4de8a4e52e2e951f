//! The text table of a [`Comparison`].

use super::{Comparison, Matched, Verdict, MAX_LISTED_UNMATCHED};
use crate::output::{fmt_size, fmt_us, Align, TextTable};
use crate::stats::Ratio;

impl Comparison {
    /// The comparison as an aligned text table, a summary line, one line per inconclusive
    /// record with its reason, the unmatched records and the gate's outcome.
    pub fn render_table(&self) -> String {
        let mut t = TextTable::new(&[
            ("mode", Align::Left),
            ("size", Align::Right),
            ("flush", Align::Left),
            ("placement", Align::Left),
            ("read A", Align::Right),
            ("read B", Align::Right),
            ("read B/A [95% CI]", Align::Right),
            ("", Align::Left),
            ("latency A", Align::Right),
            ("latency B", Align::Right),
            ("latency B/A [95% CI]", Align::Right),
            ("", Align::Left),
        ]);
        for m in &self.matched {
            let mut row = vec![
                m.mode.clone(),
                fmt_size(m.size_bytes),
                if m.flush_cache { "yes" } else { "no" }.to_string(),
                m.placement.clone(),
            ];
            for c in [&m.read, &m.latency] {
                row.push(fmt_us(c.a_mean));
                row.push(fmt_us(c.b_mean));
                row.push(
                    c.ratio
                        .as_ref()
                        .map(fmt_ratio_short)
                        .unwrap_or_else(|| "-".into()),
                );
                row.push(format!(
                    "{}{}",
                    c.verdict.as_str(),
                    if c.exceeds { " (FAIL)" } else { "" }
                ));
            }
            t.row(row);
        }
        let mut out = t.render();
        let over_invocations = self.matched.iter().all(Matched::over_invocations);
        out.push_str(&format!(
            "\nA: {} file(s), B: {} file(s); CIs over {}.\n",
            self.files_a,
            self.files_b,
            if over_invocations {
                "invocations (one value per file)"
            } else {
                "the runs of one invocation: they do not include the drift between invocations; \
                 a regression gate should compare >= 2 (better 3) files per side"
            }
        ));
        out.push_str(&format!(
            "{} matched record(s), read and latency: {} faster, {} slower, {} same, {} \
             inconclusive, {} unknown (B relative to A; slower/faster = the 95% CI of B/A \
             excludes 1 and the change exceeds the {:.0}% noise threshold; same = no change \
             beyond noise; inconclusive = the machine changed or one invocation cannot tell; \
             unknown = one run, no evidence).\n",
            self.matched.len(),
            self.count(Verdict::Faster),
            self.count(Verdict::Slower),
            self.count(Verdict::Same),
            self.count(Verdict::Inconclusive),
            self.count(Verdict::Unknown),
            self.noise_threshold * 100.0
        ));
        let inconclusive: Vec<String> = self
            .matched
            .iter()
            .flat_map(|m| {
                [("read", &m.read), ("latency", &m.latency)]
                    .into_iter()
                    .filter_map(move |(name, c)| {
                        c.reason.as_ref().map(|why| {
                            format!(
                                "{} {} {} {} {name}: {why}",
                                m.mode,
                                fmt_size(m.size_bytes),
                                if m.flush_cache { "flushed" } else { "cached" },
                                m.placement
                            )
                        })
                    })
            })
            .collect();
        let lists = [
            ("inconclusive", "metric(s)", &inconclusive),
            ("only in A", "record(s)", &self.unmatched_a),
            ("only in B", "record(s)", &self.unmatched_b),
        ];
        for (title, unit, list) in lists {
            if list.is_empty() {
                continue;
            }
            out.push_str(&format!("{title} ({} {unit}):\n", list.len()));
            for k in list.iter().take(MAX_LISTED_UNMATCHED) {
                out.push_str(&format!("  {k}\n"));
            }
            if list.len() > MAX_LISTED_UNMATCHED {
                out.push_str(&format!(
                    "  ... and {} more (all are listed by --format json)\n",
                    list.len() - MAX_LISTED_UNMATCHED
                ));
            }
        }
        if let Some(f) = self.fail_above {
            if self.exceeded() {
                out.push_str(&format!(
                    "FAIL: B is slower than {f} × A with 95% confidence for the rows marked FAIL.\n"
                ));
            } else {
                out.push_str(&format!(
                    "ok: no ratio is above {f} with 95% confidence and beyond noise{}.\n",
                    match self.count(Verdict::Inconclusive) {
                        0 => String::new(),
                        n => format!(" ({n} inconclusive metric(s) were not gated)"),
                    }
                ));
            }
        }
        out
    }
}

fn fmt_ratio_short(r: &Ratio) -> String {
    match (r.ci95_low, r.ci95_high) {
        (Some(l), Some(h)) => format!("{:.3} [{:.3}–{:.3}]", r.ratio, l, h),
        _ => format!("{:.3} [-]", r.ratio),
    }
}
