//! Output of the lab: an aligned text table with humane units, pretty JSON, flattened CSV;
//! written to a file (`--output FILE`) or stdout.
//!
//! The CSV header is stable: [`exchange_csv_header`] lists the columns in order, one row per
//! record, metrics flattened as `<metric>_<stat>` (`read_us_mean`, `read_us_ci95_low`, ...);
//! a missing value is an empty field.

use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::schema::{placement, C2cPair, C2cResults, ExchangeRecord, ExchangeResults, Summary};
use crate::stats::{run_levels, run_modes, Metric};

/// An output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned text for people.
    #[default]
    Table,
    /// Pretty JSON, the schema of [`crate::schema`].
    Json,
    /// Comma-separated values, one row per record.
    Csv,
}

impl Format {
    /// The names `--format` accepts.
    pub const NAMES: [&'static str; 3] = ["table", "json", "csv"];
}

impl FromStr for Format {
    type Err = OutputError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "table" => Ok(Format::Table),
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            other => Err(OutputError::UnknownFormat(other.to_string())),
        }
    }
}

/// Output could not be produced or written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// `--format` names no format.
    #[error("unknown output format {0:?}: use one of table, json, csv")]
    UnknownFormat(String),
    /// The output path is a directory.
    #[error("output path {} is a directory: give a file name", .0.display())]
    IsDirectory(PathBuf),
    /// The directory of the output path does not exist.
    #[error("directory {} of the output file does not exist: create it first", .0.display())]
    MissingDirectory(PathBuf),
    /// The output file cannot be created or written.
    #[error("cannot write output file {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Standard output cannot be written.
    #[error("cannot write to standard output: {0}")]
    Stdout(std::io::Error),
}

/// Checks, before anything runs, that `path` can be written: not a directory, its directory
/// exists, and the file can be opened for writing. A file that did not exist is removed
/// again; an existing file is left untouched.
pub fn check_output_path(path: &Path) -> Result<(), OutputError> {
    if path.is_dir() {
        return Err(OutputError::IsDirectory(path.to_path_buf()));
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(OutputError::MissingDirectory(parent.to_path_buf()));
    }
    let existed = path.exists();
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|source| OutputError::Write {
            path: path.to_path_buf(),
            source,
        })?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Writes `text` to `path`, or to stdout when `path` is `None`.
pub fn write_output(text: &str, path: Option<&Path>) -> Result<(), OutputError> {
    match path {
        Some(path) => {
            if path.is_dir() {
                return Err(OutputError::IsDirectory(path.to_path_buf()));
            }
            std::fs::write(path, text).map_err(|source| OutputError::Write {
                path: path.to_path_buf(),
                source,
            })
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(OutputError::Stdout)
        }
    }
}

/// Renders exchange results in `format`.
pub fn render_exchange(results: &ExchangeResults, format: Format) -> String {
    match format {
        Format::Table => exchange_table(results),
        Format::Json => results.to_json_pretty(),
        Format::Csv => exchange_csv(&results.records),
    }
}

/// Renders c2c results in `format` (the table is the one-way matrix).
pub fn render_c2c(results: &C2cResults, format: Format) -> String {
    match format {
        Format::Table => c2c_table(&results.cpus, &results.pairs),
        Format::Json => results.to_json_pretty(),
        Format::Csv => c2c_csv(&results.pairs),
    }
}

// ---------------------------------------------------------------------------------------------
// Humane units

/// A time given in microseconds, with a unit that keeps 3 significant digits:
/// `850 ns`, `12.3 µs`, `1.25 ms`, `2.00 s`.
pub fn fmt_us(us: f64) -> String {
    if !us.is_finite() {
        return "-".to_string();
    }
    let a = us.abs();
    if a < 1.0 {
        format!("{} ns", sig3(us * 1e3))
    } else if a < 1e3 {
        format!("{} µs", sig3(us))
    } else if a < 1e6 {
        format!("{} ms", sig3(us / 1e3))
    } else {
        format!("{} s", sig3(us / 1e6))
    }
}

/// A time given in nanoseconds, like [`fmt_us`].
pub fn fmt_ns(ns: f64) -> String {
    fmt_us(ns / 1e3)
}

/// Three significant digits, without exponent (`0.0123`, `1.23`, `12.3`, `123`, `1234`).
pub fn sig3(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 {
        "0".to_string()
    } else if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        let decimals = (2.0 - a.log10().floor()) as usize;
        format!("{x:.decimals$}")
    }
}

/// A size in bytes with a binary unit: `4 KiB`, `1 MiB`, `1.5 MiB`, `300 B`.
pub fn fmt_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if v.fract() == 0.0 {
        format!("{v:.0} {}", UNITS[u])
    } else {
        format!("{} {}", sig3(v), UNITS[u])
    }
}

/// The 95% interval of a summary's median as `12.1–12.9 µs`, or `-` without one.
pub fn fmt_median_ci(s: &Summary) -> String {
    match s.median_ci() {
        Some((l, h)) => fmt_interval(l, h),
        None => "-".to_string(),
    }
}

/// An interval of times in µs as `12.1–12.9 µs`, both ends in the upper bound's unit.
pub fn fmt_interval(l: f64, h: f64) -> String {
    let unit_text = fmt_us(h);
    let (_, unit) = unit_text.rsplit_once(' ').unwrap_or(("", "µs"));
    let scale = match unit {
        "ns" => 1e3,
        "ms" => 1e-3,
        "s" => 1e-6,
        _ => 1.0,
    };
    format!("{}–{} {unit}", sig3(l * scale), sig3(h * scale))
}

// ---------------------------------------------------------------------------------------------
// Text tables

/// Column alignment in a [`TextTable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Pad on the right.
    Left,
    /// Pad on the left.
    Right,
}

/// A plain aligned text table (widths count characters, not bytes).
#[derive(Debug, Clone, Default)]
pub struct TextTable {
    header: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl TextTable {
    /// A table with these column headers and alignments.
    pub fn new(columns: &[(&str, Align)]) -> Self {
        TextTable {
            header: columns.iter().map(|c| c.0.to_string()).collect(),
            align: columns.iter().map(|c| c.1).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (missing cells are blank, extra cells ignored).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as text, a rule under the header, each line ending in a newline.
    pub fn render(&self) -> String {
        let n = self.header.len();
        let cell = |r: &Vec<String>, i: usize| r.get(i).cloned().unwrap_or_default();
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (i, w) in widths.iter_mut().enumerate() {
                *w = (*w).max(cell(r, i).chars().count());
            }
        }
        let line = |cells: Vec<String>| {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate() {
                let pad = widths[i].saturating_sub(c.chars().count());
                if i > 0 {
                    s.push_str("  ");
                }
                match self.align[i] {
                    Align::Left if i + 1 == n => s.push_str(c),
                    Align::Left => {
                        s.push_str(c);
                        s.push_str(&" ".repeat(pad));
                    }
                    Align::Right => {
                        s.push_str(&" ".repeat(pad));
                        s.push_str(c);
                    }
                }
            }
            s.truncate(s.trim_end().len());
            s.push('\n');
            s
        };
        let mut out = line(self.header.clone());
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        out.push_str(&line(rule));
        for r in &self.rows {
            out.push_str(&line((0..n).map(|i| cell(r, i)).collect()));
        }
        out
    }
}

/// The exchange results as an aligned text table, the c2c floor in its footer.
pub fn exchange_table(results: &ExchangeResults) -> String {
    let mut out = String::new();
    if let Some(w) = results.busy_warning() {
        let _ = writeln!(out, "{w}\n");
    }
    if results.partial {
        let why = results.stopped_early.as_deref().unwrap_or("stopped early");
        let _ = writeln!(out, "PARTIAL RESULTS: {why}\n");
    }
    let mut t = TextTable::new(&[
        ("mode", Align::Left),
        ("size", Align::Right),
        ("cpus", Align::Left),
        ("placement", Align::Left),
        ("flush", Align::Left),
        ("wait", Align::Left),
        ("read", Align::Right),
        ("read median 95% CI", Align::Right),
        ("latency", Align::Right),
        ("latency median 95% CI", Align::Right),
        ("write", Align::Right),
        ("cons. CPU", Align::Right),
        ("ok", Align::Left),
    ]);
    for r in &results.records {
        t.row(vec![
            r.mode.clone(),
            fmt_size(r.size_bytes),
            format!("{}→{}", r.producer_core, r.consumer_core),
            r.placement.clone(),
            if r.flush_cache { "yes" } else { "no" }.to_string(),
            r.wait.clone(),
            fmt_us(r.read_us.median),
            with_modes(fmt_median_ci(&r.read_us), r, Metric::Read),
            fmt_us(r.latency_us.median),
            with_modes(fmt_median_ci(&r.latency_us), r, Metric::Latency),
            fmt_us(r.write_us.median),
            format!("{:.0}%", r.consumer_cpu_pct),
            if r.verified { "yes" } else { "NO" }.to_string(),
        ]);
    }
    out.push_str(&t.render());
    let _ = writeln!(
        out,
        "\nread, latency, write: medians over all repetitions; 95% CI: the median's, \
         distribution-free (order statistics of the repetitions and of the run medians); \
         bimodal: the run medians form two levels (share of runs at each)."
    );
    out.push_str(&crate::kernels::footer(
        results.records.iter().map(|r| r.kernel.as_deref()),
    ));
    out.push_str(&c2c_footer(&results.c2c));
    let anomalies: u64 = results.records.iter().map(|r| r.clock_anomalies).sum();
    if anomalies > 0 {
        let _ = writeln!(
            out,
            "clock anomalies (negative latencies, kept as measured): {anomalies}"
        );
    }
    let bad: Vec<String> = results
        .records
        .iter()
        .filter(|r| !r.verified)
        .map(|r| format!("{} {}", r.mode, fmt_size(r.size_bytes)))
        .collect();
    if !bad.is_empty() {
        let _ = writeln!(out, "NOT VERIFIED (wrong sums): {}", bad.join(", "));
    }
    out
}

/// Distinct unordered pairs above which the footer summarizes per placement class.
const FOOTER_MAX_PAIRS: usize = 6;

/// The footer line with the c2c floor: every pair measured (both directions averaged), or a
/// range per placement class when there are many.
fn c2c_footer(pairs: &[C2cPair]) -> String {
    let mut distinct: Vec<(usize, usize, &str, f64)> = Vec::new();
    for p in pairs.iter().filter(|p| p.cpu_a != p.cpu_b) {
        let (a, b) = (p.cpu_a.min(p.cpu_b), p.cpu_a.max(p.cpu_b));
        if distinct.iter().any(|d| (d.0, d.1) == (a, b)) {
            continue;
        }
        let ns = pairs_mean(pairs, a, b).unwrap_or(p.one_way_ns);
        distinct.push((a, b, p.placement.as_str(), ns));
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
        let mut classes: Vec<(&str, Vec<f64>)> = Vec::new();
        for (_, _, pl, ns) in &distinct {
            match classes.iter_mut().find(|c| c.0 == *pl) {
                Some(c) => c.1.push(*ns),
                None => classes.push((pl, vec![*ns])),
            }
        }
        classes
            .into_iter()
            .map(|(pl, mut v)| {
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

/// Mean of the one-way latencies measured between `a` and `b` in both directions.
fn pairs_mean(pairs: &[C2cPair], a: usize, b: usize) -> Option<f64> {
    let v: Vec<f64> = pairs
        .iter()
        .filter(|p| (p.cpu_a == a && p.cpu_b == b) || (p.cpu_a == b && p.cpu_b == a))
        .map(|p| p.one_way_ns)
        .collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// The c2c one-way matrix as text (rows: from, columns: to; ns).
pub fn c2c_table(cpus: &[usize], pairs: &[C2cPair]) -> String {
    let mut cpus = cpus.to_vec();
    if cpus.is_empty() {
        for p in pairs {
            cpus.push(p.cpu_a);
            cpus.push(p.cpu_b);
        }
        cpus.sort_unstable();
        cpus.dedup();
    }
    let headers: Vec<String> = std::iter::once("from \\ to".to_string())
        .chain(cpus.iter().map(|c| format!("cpu {c}")))
        .collect();
    let cols: Vec<(&str, Align)> = headers
        .iter()
        .enumerate()
        .map(|(i, h)| (h.as_str(), if i == 0 { Align::Left } else { Align::Right }))
        .collect();
    let mut t = TextTable::new(&cols);
    for &a in &cpus {
        let mut row = vec![format!("cpu {a}")];
        for &b in &cpus {
            let v = pairs
                .iter()
                .find(|p| p.cpu_a == a && p.cpu_b == b)
                .map(|p| format!("{:.0}", p.one_way_ns))
                .unwrap_or_else(|| "-".to_string());
            row.push(v);
        }
        t.row(row);
    }
    let mut out = String::from("one-way core-to-core latency (ns)\n");
    out.push_str(&t.render());
    out
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

// ---------------------------------------------------------------------------------------------
// CSV

const CSV_LEADING: [&str; 13] = [
    "mode",
    "size_bytes",
    "producer_core",
    "consumer_core",
    "placement",
    "flush_cache",
    "reps",
    "runs",
    "wait",
    "verified",
    "clock_anomalies",
    "c2c_one_way_ns",
    "consumer_cpu_pct",
];
const CSV_METRICS: [&str; 4] = ["read_us", "latency_us", "write_us", "flush_us"];
const CSV_STATS: [&str; 7] = [
    "mean",
    "ci95_low",
    "ci95_high",
    "median",
    "min",
    "max",
    "p99",
];
const CSV_TRAILING: [&str; 2] = ["pipe_size_bytes", "filesystem"];

/// The CSV header columns, in order.
pub fn exchange_csv_header() -> Vec<String> {
    let mut cols: Vec<String> = CSV_LEADING.iter().map(|s| s.to_string()).collect();
    for m in CSV_METRICS {
        for s in CSV_STATS {
            cols.push(format!("{m}_{s}"));
        }
    }
    cols.extend(CSV_TRAILING.iter().map(|s| s.to_string()));
    cols
}

/// Records as CSV, header first, one row per record.
pub fn exchange_csv(records: &[ExchangeRecord]) -> String {
    let mut out = exchange_csv_header().join(",");
    out.push('\n');
    for r in records {
        let opt = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
        let mut cells = vec![
            csv_field(&r.mode),
            r.size_bytes.to_string(),
            r.producer_core.to_string(),
            r.consumer_core.to_string(),
            csv_field(&r.placement),
            r.flush_cache.to_string(),
            r.reps.to_string(),
            r.runs.to_string(),
            csv_field(&r.wait),
            r.verified.to_string(),
            r.clock_anomalies.to_string(),
            opt(r.c2c_one_way_ns),
            r.consumer_cpu_pct.to_string(),
        ];
        for s in [
            Some(&r.read_us),
            Some(&r.latency_us),
            Some(&r.write_us),
            r.flush_us.as_ref(),
        ] {
            match s {
                Some(s) => cells.extend([
                    s.mean.to_string(),
                    opt(s.ci95_low),
                    opt(s.ci95_high),
                    s.median.to_string(),
                    s.min.to_string(),
                    s.max.to_string(),
                    s.p99.to_string(),
                ]),
                None => cells.extend(std::iter::repeat_n(String::new(), CSV_STATS.len())),
            }
        }
        cells.push(r.pipe_size_bytes.map(|v| v.to_string()).unwrap_or_default());
        cells.push(r.filesystem.as_deref().map(csv_field).unwrap_or_default());
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// A CSV field, quoted when it contains a comma, quote or line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// An interval cell followed by the run-to-run modes of `metric`, if the run means form two.
fn with_modes(cell: String, r: &ExchangeRecord, metric: Metric) -> String {
    match run_modes(&run_levels(r, metric)) {
        Some(m) => format!("{cell} ({})", m.describe()),
        None => cell,
    }
}
