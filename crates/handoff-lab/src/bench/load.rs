//! Reading and writing the lab's result files: schema-checked JSON loading and the one
//! [`LoadError`] every reader returns.

use std::fmt;
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

/// Checks a time against its domain (finite, > 0).
pub(crate) fn check_time(
    path: Option<&Path>,
    what: impl Fn() -> String,
    v: f64,
) -> Result<(), LoadError> {
    if v.is_finite() && v > 0.0 {
        return Ok(());
    }
    Err(LoadError::Domain {
        path: path.map(Path::to_path_buf),
        what: format!("{} = {v}", what()),
        why: "a time must be a finite number above 0",
    })
}

/// Checks a single sample against its domain (finite): the fastest of many cross-CPU
/// latencies may read at or below 0 when the two CPUs' clocks differ by more than it (a real
/// run's minimum was -0.012 µs), so only means and medians must be above 0.
pub(crate) fn check_sample(
    path: Option<&Path>,
    what: impl Fn() -> String,
    v: f64,
) -> Result<(), LoadError> {
    if v.is_finite() {
        return Ok(());
    }
    Err(LoadError::Domain {
        path: path.map(Path::to_path_buf),
        what: format!("{} = {v}", what()),
        why: "a sample must be a finite number",
    })
}

/// Checks a rate or a count against its domain (finite, >= 0).
pub(crate) fn check_rate(
    path: Option<&Path>,
    what: impl Fn() -> String,
    v: f64,
) -> Result<(), LoadError> {
    if v.is_finite() && v >= 0.0 {
        return Ok(());
    }
    Err(LoadError::Domain {
        path: path.map(Path::to_path_buf),
        what: format!("{} = {v}", what()),
        why: "a rate must be a finite number of at least 0",
    })
}

fn display_path(path: &Option<PathBuf>) -> DisplayPath<'_> {
    DisplayPath(path)
}

struct DisplayPath<'a>(&'a Option<PathBuf>);

impl fmt::Display for DisplayPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(p) => write!(f, "{}", p.display()),
            None => f.write_str("the input"),
        }
    }
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
