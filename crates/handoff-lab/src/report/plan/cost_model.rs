//! The report's estimate: each experiment's part (its own cost model or its measured
//! [`crate::bench::experiment::ReportCost`]) times the measured speed, writing the report,
//! and the estimate's formatting.

use super::Plan;

/// Writing the report's leading part (figures as PNG and SVG, tables, pages), seconds (a
/// whole report with 14 other experiments wrote its 118 files in under 1 s).
pub const WRITE_S: f64 = 1.0;
/// Writing each other experiment's figures and section, seconds.
pub const WRITE_PER_EXPERIMENT_S: f64 = 0.1;

/// How long a plan is expected to take, by part.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// The leading experiment's pieces (the c2c pairs, the exchange points), seconds.
    pub lead: Vec<(&'static str, f64)>,
    /// The other experiments' report plans.
    pub others_s: f64,
    /// Writing the report: figures, tables, pages.
    pub write_s: f64,
}

impl Estimate {
    /// Every part.
    pub fn total_s(&self) -> f64 {
        self.lead.iter().map(|p| p.1).sum::<f64>() + self.others_s + self.write_s
    }

    /// The leading experiment's piece named `name` (0 when it has none).
    pub fn piece(&self, name: &str) -> f64 {
        self.lead.iter().filter(|p| p.0 == name).map(|p| p.1).sum()
    }
}

impl Plan {
    /// The expected duration: each part's own estimate (the leading one by piece), all of it
    /// times the measured speed factor ([`Plan::speed`]); writing a constant per experiment.
    pub fn estimate(&self) -> Estimate {
        let k = self.speed;
        let (lead, others) = self.parts.split_first().expect("a plan has its lead");
        Estimate {
            lead: lead.1.pieces.iter().map(|&(n, s)| (n, k * s)).collect(),
            others_s: k * others.iter().map(|p| p.1.seconds()).sum::<f64>(),
            write_s: WRITE_S + others.len() as f64 * WRITE_PER_EXPERIMENT_S,
        }
    }
}

/// `1 h 02 min`, `3 min 20 s`, `12 s`.
pub fn fmt_duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{} h {:02} min", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{s} s")
    }
}
