//! Text table, CSV and JSON of [`BenchResults`], and the c2c floor's footer and CSV.

use std::fmt::Write as _;

use super::schema::{BenchResults, C2cPair, MetricRecord};
use crate::bench::text::{csv_field, fmt_ns, fmt_size, fmt_us, sig3, Align, Format, TextTable};
use crate::machine::placement;
use crate::stats::{distinct, run_modes};

/// Renders `results` in `format`.
pub fn render(results: &BenchResults, format: Format) -> String {
    match format {
        Format::Table => table(results),
        Format::Json => results.to_json_pretty(),
        Format::Csv => csv(results),
    }
}

/// Every parameter name used by some record, sorted.
fn param_names(results: &BenchResults) -> Vec<String> {
    let names = results.records.iter().flat_map(|r| r.params.keys());
    distinct(names.cloned())
}

/// Every metric name used by some record, sorted.
pub fn metric_names(results: &BenchResults) -> Vec<String> {
    let names = results.records.iter().flat_map(|r| r.metrics.keys());
    distinct(names.cloned())
}

/// How many of a time `unit` make a µs (`None`: not a time).
fn per_us(unit: &str) -> Option<f64> {
    match unit {
        "µs" | "us" => Some(1.0),
        "ns" => Some(1e3),
        _ => None,
    }
}

/// A value in its unit, times scaled like the exchange tables ("12.3 µs", "850 ns").
pub fn fmt_value(v: f64, unit: &str) -> String {
    match per_us(unit) {
        Some(k) => fmt_us(v / k),
        None => format!("{} {unit}", sig3(v)),
    }
}

/// "mean (95% CI lo–hi)" of a metric, plus the run levels when the runs formed two.
pub fn fmt_metric(m: &MetricRecord) -> String {
    let s = &m.summary;
    let mut cell = fmt_value(s.mean, &m.unit);
    if let (Some(l), Some(h)) = (s.ci95_low, s.ci95_high) {
        cell.push_str(&format!(
            " ({}–{})",
            sig3(scaled(l, &m.unit, s.mean)),
            fmt_value(h, &m.unit)
        ));
    }
    // The modes are described in µs: only for times.
    if let Some(k) = per_us(&m.unit) {
        let us: Vec<f64> = m.run_means.iter().map(|v| v / k).collect();
        if let Some(modes) = run_modes(&us) {
            cell.push_str(&format!(" [{}]", modes.describe()));
        }
    }
    cell
}

// The low end of an interval in the same scale fmt_value picks for the high end.
fn scaled(v: f64, unit: &str, reference: f64) -> f64 {
    let Some(k) = per_us(unit) else {
        return v;
    };
    let (vu, us) = (v / k, reference / k);
    if us < 1.0 {
        vu * 1e3
    } else if us >= 1e6 {
        vu / 1e6
    } else if us >= 1e3 {
        vu / 1e3
    } else {
        vu
    }
}

fn fmt_param(name: &str, v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) if name.ends_with("bytes") => {
            n.as_u64().map_or_else(|| n.to_string(), fmt_size)
        }
        other => other.to_string(),
    }
}

/// An aligned table: series, parameters, then each metric as mean (CI), and "ok"/"FAILED" for
/// the data check; then the notes and the seed's claims judged on these results (the
/// experiment's registered findings), one line each.
pub fn table(results: &BenchResults) -> String {
    let params = param_names(results);
    let metrics = metric_names(results);
    let mut cols: Vec<(&str, Align)> = vec![("series", Align::Left)];
    cols.extend(params.iter().map(|p| (p.as_str(), Align::Right)));
    cols.extend(metrics.iter().map(|m| (m.as_str(), Align::Right)));
    cols.push(("runs", Align::Right));
    cols.push(("data", Align::Left));
    let mut t = TextTable::new(&cols);
    for r in &results.records {
        let param = |p: &String| r.params.get(p).map_or("-".into(), |v| fmt_param(p, v));
        let metric = |m: &String| r.metrics.get(m).map_or("-".into(), fmt_metric);
        let mut row = vec![r.series.clone()];
        row.extend(params.iter().map(param));
        row.extend(metrics.iter().map(metric));
        row.push(r.runs.to_string());
        row.push(r.data_text());
        t.row(row);
    }
    // A busy machine opens the table: the figures below may measure the other work.
    let mut out = results
        .busy_warning()
        .map_or_else(String::new, |w| format!("{w}\n"));
    out += &format!(
        "{}: {} point(s); mean over runs (95% CI)\n",
        results.experiment,
        results.records.len()
    );
    out.push_str(&t.render());
    if !results.c2c.is_empty() {
        out.push_str(&c2c_footer(&results.c2c));
    }
    for n in &results.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    // The seed's claims judged on these records, as the report words them.
    for f in super::registry::findings(results) {
        out.push_str(&format!("finding: {}\n", f.sentence));
    }
    if results.partial {
        out.push_str(&format!(
            "PARTIAL: {}\n",
            results.stopped_early.as_deref().unwrap_or("stopped early")
        ));
    }
    out
}

/// CSV: one row per record; for every metric its mean, CI, median, p99, min, max and unit.
pub fn csv(results: &BenchResults) -> String {
    let params = param_names(results);
    let metrics = metric_names(results);
    let mut header: Vec<String> = vec!["experiment".into(), "series".into(), "x".into()];
    header.extend(params.iter().cloned());
    header.extend(["runs", "reps", "verified", "c2c_one_way_ns"].map(String::from));
    for m in &metrics {
        for f in [
            "mean",
            "ci95_low",
            "ci95_high",
            "median",
            "p99",
            "min",
            "max",
            "unit",
        ] {
            header.push(format!("{m}_{f}"));
        }
    }
    // Last, so older readers' column positions hold: the data checks and the busy flag.
    header.extend(["checked", "wrong", "machine_busy"].map(String::from));
    let line = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| csv_field(c)).collect();
        cells.join(",") + "\n"
    };
    let mut out = line(&header);
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for r in &results.records {
        let mut row = vec![
            results.experiment.clone(),
            r.series.clone(),
            r.x.to_string(),
        ];
        row.extend(params.iter().map(|p| r.param_text(p)));
        row.push(r.runs.to_string());
        row.push(r.reps.to_string());
        row.push(r.verified.to_string());
        row.push(opt(r.c2c_one_way_ns));
        for m in &metrics {
            match r.metrics.get(m) {
                Some(mr) => {
                    let s = &mr.summary;
                    row.extend([
                        s.mean.to_string(),
                        opt(s.ci95_low),
                        opt(s.ci95_high),
                        s.median.to_string(),
                        s.p99.to_string(),
                        s.min.to_string(),
                        s.max.to_string(),
                        mr.unit.clone(),
                    ]);
                }
                None => row.extend(std::iter::repeat_n(String::new(), 8)),
            }
        }
        let c = r.checks.as_ref();
        row.push(c.map_or(String::new(), |c| c.checked.to_string()));
        row.push(c.map_or(String::new(), |c| c.wrong.to_string()));
        let busy = r.load.as_ref().map(|l| l.is_busy().to_string());
        row.push(busy.unwrap_or_default());
        out.push_str(&line(&row));
    }
    out
}

/// Distinct unordered pairs above which the footer summarizes per placement class.
const FOOTER_MAX_PAIRS: usize = 6;

/// The footer line with the c2c floor: every pair measured (both directions averaged), or a
/// range per placement class when there are many.
pub fn c2c_footer(pairs: &[C2cPair]) -> String {
    let mut distinct: Vec<(usize, usize, &str, f64)> = Vec::new();
    for p in pairs.iter().filter(|p| p.cpu_a != p.cpu_b) {
        let (a, b) = (p.cpu_a.min(p.cpu_b), p.cpu_a.max(p.cpu_b));
        if distinct.iter().any(|d| (d.0, d.1) == (a, b)) {
            continue;
        }
        // Both directions of the pair, averaged.
        let both: Vec<f64> = pairs
            .iter()
            .filter(|q| (q.cpu_a.min(q.cpu_b), q.cpu_a.max(q.cpu_b)) == (a, b))
            .map(|q| q.one_way_ns)
            .collect();
        distinct.push((a, b, p.placement.as_str(), crate::stats::mean(&both)));
    }
    if distinct.is_empty() {
        return "c2c floor: not measured\n".to_string();
    }
    distinct.sort_by_key(|d| (placement::rank(d.2), d.0, d.1));
    let parts: Vec<String> = if distinct.len() <= FOOTER_MAX_PAIRS {
        distinct
            .iter()
            .map(|(a, b, pl, ns)| format!("cpu {a}↔{b} ({pl}) {}", fmt_ns(*ns)))
            .collect()
    } else {
        let classes = crate::stats::first_seen(distinct.iter().map(|d| d.2));
        classes
            .into_iter()
            .map(|pl| {
                let mut v: Vec<f64> = distinct.iter().filter(|d| d.2 == pl).map(|d| d.3).collect();
                v.sort_by(f64::total_cmp);
                format!(
                    "{pl} {}–{} (median {}, {} pairs)",
                    fmt_ns(v[0]),
                    fmt_ns(v[v.len() - 1]),
                    fmt_ns(v[v.len() / 2]),
                    v.len()
                )
            })
            .collect()
    };
    format!(
        "c2c floor (one-way cache-line transfer): {}\n",
        parts.join("; ")
    )
}

/// The c2c pairs as CSV: `cpu_a,cpu_b,placement,one_way_ns`.
pub fn c2c_csv(pairs: &[C2cPair]) -> String {
    let mut out = String::from("cpu_a,cpu_b,placement,one_way_ns\n");
    for p in pairs {
        let _ = writeln!(
            out,
            "{},{},{},{}",
            p.cpu_a,
            p.cpu_b,
            csv_field(&p.placement),
            p.one_way_ns
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::schema::BenchRecord;

    fn sample() -> BenchResults {
        let mut r = BenchResults::empty("demo");
        let lat = MetricRecord::from_runs("µs", false, &[vec![1.0, 1.0], vec![3.0, 3.0]]).unwrap();
        r.records.push(
            BenchRecord::new("a, b", 64.0, 2, 2, true)
                .param("size_bytes", 64)
                .metric("latency_us", lat),
        );
        r
    }

    #[test]
    fn csv_has_one_row_per_record_with_the_metric_columns() {
        let text = csv(&sample());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        let header: Vec<&str> = lines[0].split(',').collect();
        let mean_col = header.iter().position(|h| *h == "latency_us_mean").unwrap();
        let size_col = header.iter().position(|h| *h == "size_bytes").unwrap();
        // "a, b" is quoted, so split on the quoted field's end first.
        let row = lines[1].replacen("\"a, b\"", "ab", 1);
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[mean_col], "2");
        assert_eq!(cells[size_col], "64");
        assert_eq!(cells.len(), header.len());
    }

    #[test]
    fn table_ends_with_the_registered_experiments_claims() {
        // "demo" is not registered: no claim line.
        assert!(!table(&sample()).contains("finding:"));
        let mut r = sample();
        r.experiment = "pingpong".into();
        for (m, v) in [("fence-flag", 3.0), ("put-signal", 1.0)] {
            let runs = [vec![v], vec![v * 1.01], vec![v * 0.99]];
            r.records.push(
                BenchRecord::new(m, 8.0, 3, 1, true)
                    .param("method", m)
                    .param("placement", "x")
                    .metric(
                        "latency_us",
                        MetricRecord::from_runs("µs", false, &runs).unwrap(),
                    ),
            );
        }
        let t = table(&r);
        assert!(
            t.contains("finding: put-with-signal halves 8 B latency") && t.contains("holds here"),
            "{t}"
        );
    }

    #[test]
    fn table_shows_sizes_means_and_a_failed_check() {
        let mut r = sample();
        r.records[0].verified = false;
        let t = table(&r);
        assert!(t.contains("64 B"), "{t}");
        assert!(t.contains("2.00 µs"), "{t}");
        assert!(t.contains("FAILED"), "{t}");
    }

    #[test]
    fn the_c2c_footer_averages_both_directions_and_summarizes_many_pairs() {
        let pair = |cpu_a, cpu_b, placement: &str, one_way_ns| C2cPair {
            cpu_a,
            cpu_b,
            placement: placement.into(),
            one_way_ns,
        };
        let two = [pair(0, 1, "shared-l3", 40.0), pair(1, 0, "shared-l3", 60.0)];
        assert_eq!(
            c2c_footer(&two),
            "c2c floor (one-way cache-line transfer): cpu 0↔1 (shared-l3) 50.0 ns\n"
        );
        // Seven pairs: a range per class, the nearest class first.
        let mut many: Vec<C2cPair> = (1..=4)
            .map(|b| pair(0, b, "cross-numa", 100.0 * b as f64))
            .collect();
        many.extend((5..=7).map(|b| pair(b, 0, "shared-l3", 10.0 * b as f64)));
        assert_eq!(
            c2c_footer(&many),
            "c2c floor (one-way cache-line transfer): shared-l3 50.0 ns–70.0 ns (median 60.0 ns, \
             3 pairs); cross-numa 100 ns–400 ns (median 300 ns, 4 pairs)\n"
        );
    }
}
