//! Reading and writing the lab's result files: schema-checked JSON loading and the one
//! [`LoadError`] every reader returns.

use std::path::{Path, PathBuf};

use serde::Serialize;

/// A results file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read results file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid JSON of the expected shape.
    #[error(
        "{} is not a valid {expected} results file: {}",
        display_path(path),
        crate::input::quote(&source.to_string())
    )]
    Parse {
        /// The file, when read from one.
        path: Option<PathBuf>,
        /// The schema the caller expected.
        expected: &'static str,
        /// The JSON error (with line and column).
        source: serde_json::Error,
    },
    /// The file has another schema string (another tool or version).
    #[error(
        "{} has schema {:?}, expected {expected:?}: was it written by another command or version of handoff?",
        display_path(path),
        crate::input::quote(found)
    )]
    WrongSchema {
        /// The file, when read from one.
        path: Option<PathBuf>,
        /// The schema string found (empty when missing).
        found: String,
        /// The schema the caller expected.
        expected: &'static str,
    },
    /// A file of a schema of before the one results schema (`handoff.exchange/1`,
    /// `handoff.c2c/1`), which this version no longer reads.
    #[error(
        "{} has the older schema {found:?}, which this version no longer reads: measure it \
         again (`handoff bench exchange`, `handoff bench c2c` or `handoff report`) to write \
         {expected}",
        display_path(path)
    )]
    OldSchema {
        /// The file, when read from one.
        path: Option<PathBuf>,
        /// The schema string found.
        found: String,
        /// The schema the caller expected.
        expected: &'static str,
    },
    /// A number outside its domain (a time that is not > 0, a rate below 0, NaN).
    #[error(
        "{} holds {what}: {why}; the file is damaged or was edited",
        display_path(path)
    )]
    Domain {
        /// The file, when read from one.
        path: Option<PathBuf>,
        /// Which number, e.g. `record 3 (pingpong, x 64): latency mean -1000`.
        what: String,
        /// The rule it breaks.
        why: &'static str,
    },
}

/// A time must be finite and > 0.
pub(crate) const TIME: (fn(f64) -> bool, &str) = (
    |v| v.is_finite() && v > 0.0,
    "a time must be a finite number above 0",
);
/// A single sample must be finite: the fastest of many cross-CPU latencies may read at or
/// below 0 when the two CPUs' clocks differ by more than it (a real run's minimum was
/// -0.012 µs), so only means and medians must be above 0.
pub(crate) const SAMPLE: (fn(f64) -> bool, &str) =
    (|v| v.is_finite(), "a sample must be a finite number");
/// A rate or a count must be finite and >= 0.
pub(crate) const RATE: (fn(f64) -> bool, &str) = (
    |v| v.is_finite() && v >= 0.0,
    "a rate must be a finite number of at least 0",
);

/// Beyond any measurement in any unit the lab writes (µs, ns, MB/s, msg/s, MFLOP/s: 1e15 µs
/// is 31 years, 1e15 msg/s a million times a core's rate), and near enough to f64's end
/// (1e308) that sums and ratios of it overflow.
pub(crate) const ABSURD: (f64, &str) = (
    1e15,
    "no measurement is that large (at most 1e15 in any of the lab's units)",
);

fn display_path(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map_or("the input".to_string(), |p| p.display().to_string())
}

pub(crate) fn from_json_checked<T: serde::de::DeserializeOwned>(
    text: &str,
    expected: &'static str,
    path: Option<&Path>,
) -> Result<T, LoadError> {
    let path = path.map(Path::to_path_buf);
    // Check the schema first so a file of another kind gets the clearer error.
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|source| LoadError::Parse {
            path: path.clone(),
            expected,
            source,
        })?;
    let found = value
        .get("schema")
        .and_then(|s| s.as_str())
        .unwrap_or("")
        .to_string();
    if found == "handoff.exchange/1" || found == "handoff.c2c/1" {
        return Err(LoadError::OldSchema {
            path,
            found,
            expected,
        });
    }
    if found != expected {
        return Err(LoadError::WrongSchema {
            path,
            found,
            expected,
        });
    }
    serde_json::from_value(value).map_err(|source| LoadError::Parse {
        path,
        expected,
        source,
    })
}

pub(crate) fn to_json_pretty<T: Serialize>(value: &T) -> String {
    // Serializing these plain structs cannot fail: no maps with non-string keys, and
    // serde_json writes non-finite floats as null.
    let mut text = serde_json::to_string_pretty(value)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialize results: {e}\"}}"));
    text.push('\n');
    text
}
