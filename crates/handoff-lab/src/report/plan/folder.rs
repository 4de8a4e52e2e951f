//! The report folder: its default name, clearing an earlier report in it, the dates in its
//! name and in `results.json`.

use crate::report::ReportError;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The report folder cannot be used.
#[derive(Debug, Error)]
pub enum OutDirError {
    /// It could not be created.
    #[error("cannot create the output folder {}: {source}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An earlier report in it could not be cleared.
    #[error("{0}; choose another --out folder")]
    Clear(#[source] ReportError),
}

/// Creates the report folder; when it holds an earlier report, removes that report's generated
/// files (so no stale plot survives beside the new results.json) and returns them.
pub fn prepare_out_dir(out: &Path) -> Result<Vec<PathBuf>, OutDirError> {
    std::fs::create_dir_all(out).map_err(|source| OutDirError::Create {
        path: out.to_path_buf(),
        source,
    })?;
    crate::report::clear_previous_report(out).map_err(OutDirError::Clear)
}

/// `YYYY-MM-DD` of a Unix time (UTC), without a date crate.
pub fn civil_date(unix_secs: u64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = (unix_secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339, UTC) of a Unix time.
pub fn rfc3339(unix_secs: u64) -> String {
    let t = unix_secs % 86_400;
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        civil_date(unix_secs),
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

/// The default output folder `handoff-report-HOST-DATE`, with `-2`, `-3`... appended when an
/// earlier report of the same day is there (it is never overwritten).
pub fn default_out_dir(base: &std::path::Path, host: &str, date: &str) -> PathBuf {
    let name = format!("handoff-report-{host}-{date}");
    let mut dir = base.join(&name);
    let mut n = 2;
    while dir.exists() {
        dir = base.join(format!("{name}-{n}"));
        n += 1;
    }
    dir
}

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}
