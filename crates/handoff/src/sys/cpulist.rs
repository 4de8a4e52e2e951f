//! The kernel's CPU list format (`0-3,8,10-11`).

use super::{Error, Result};

/// The largest CPU id a list may name. The kernel's own limit (`NR_CPUS`) is 8192 today;
/// this guards against a corrupt file making us allocate gigabytes.
const MAX_CPU_ID: usize = 1 << 16;

/// Parses a kernel CPU list such as `0-3,8,10-11` (the `*_list` files in sysfs, `cpulist`
/// of a NUMA node, `Cpus_allowed_list` in `/proc/PID/status`) into sorted, distinct ids.
///
/// An empty string (or only whitespace) is the empty set. Anything else that is not a
/// comma-separated list of ids and ascending `a-b` ranges is an
/// [`Error::InvalidArgument`] naming the bad piece.
pub fn parse_cpu_list(text: &str) -> Result<Vec<usize>> {
    let text = text.trim();
    let mut cpus = Vec::new();
    if text.is_empty() {
        return Ok(cpus);
    }
    let bad = |piece: &str, why: &str| {
        Error::InvalidArgument(format!(
            "bad CPU list {text:?}: {piece:?} {why} (expected e.g. \"0-3,8\")"
        ))
    };
    let id = |s: &str, piece: &str| -> Result<usize> {
        let v: usize = s
            .trim()
            .parse()
            .map_err(|_| bad(piece, "is not a CPU id"))?;
        if v > MAX_CPU_ID {
            return Err(bad(piece, "names a CPU id above 65536"));
        }
        Ok(v)
    };
    for piece in text.split(',') {
        match piece.split_once('-') {
            Some((lo, hi)) => {
                let (lo, hi) = (id(lo, piece)?, id(hi, piece)?);
                if lo > hi {
                    return Err(bad(piece, "is a descending range"));
                }
                cpus.extend(lo..=hi);
            }
            None => cpus.push(id(piece, piece)?),
        }
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
}

/// Formats CPU ids as the kernel does (`0-3,8,10-11`); the inverse of [`parse_cpu_list`].
/// The input need not be sorted; duplicates are ignored.
pub fn format_cpu_list(cpus: &[usize]) -> String {
    let mut sorted = cpus.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = String::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        if !out.is_empty() {
            out.push(',');
        }
        if end == start {
            out.push_str(&start.to_string());
        } else {
            out.push_str(&format!("{start}-{end}"));
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_round_trip() {
        assert_eq!(
            parse_cpu_list("0-3,8,10-11\n").unwrap(),
            [0, 1, 2, 3, 8, 10, 11]
        );
        assert_eq!(parse_cpu_list("").unwrap(), Vec::<usize>::new());
        assert_eq!(parse_cpu_list(" \n").unwrap(), Vec::<usize>::new());
        assert_eq!(parse_cpu_list("5").unwrap(), [5]);
        assert_eq!(parse_cpu_list("3,1,1-2").unwrap(), [1, 2, 3]);
        assert_eq!(format_cpu_list(&[11, 0, 1, 2, 3, 8, 10]), "0-3,8,10-11");
        assert_eq!(format_cpu_list(&[]), "");
        assert_eq!(format_cpu_list(&[4, 4]), "4");
    }

    #[test]
    fn bad_lists_are_errors() {
        for bad in ["x", "1-", "3-1", "1,,2", "0-99999999", "-1", "0-3:2"] {
            let e = parse_cpu_list(bad).unwrap_err();
            assert!(matches!(e, Error::InvalidArgument(_)), "{bad}: {e}");
        }
    }
}
