//! The lab's text output: the output format and file (`--format`, `--output FILE`), humane
//! units, aligned text tables and CSV fields.

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// An output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned text for people.
    #[default]
    Table,
    /// Pretty JSON, the schema of [`crate::bench::schema`].
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
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let parent = parent.unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(OutputError::MissingDirectory(parent.to_path_buf()));
    }
    let existed = path.exists();
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(write_error(path))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    |source| OutputError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `text` to `path`, or to stdout when `path` is `None`.
pub fn write_output(text: &str, path: Option<&Path>) -> Result<(), OutputError> {
    match path {
        Some(path) => {
            if path.is_dir() {
                return Err(OutputError::IsDirectory(path.to_path_buf()));
            }
            std::fs::write(path, text).map_err(write_error(path))
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(OutputError::Stdout)
        }
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

/// A CSV field, quoted when it contains a comma, quote or line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
