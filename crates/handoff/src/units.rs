//! The one size rule of the workspace: `HANDOFF_HEAP_SIZE` (the team's environment,
//! `heap_from_env`), `SHMEM_SYMMETRIC_SIZE` (handoff-shmem) and every `handoff`
//! command's `--size`, `--sizes`, `--msg-sizes`, `--heap`, … (through `handoff-probe`, which
//! re-exports this module): a whole number with an optional binary unit, case-insensitive —
//! `B`, `K`/`KiB` (1024), `M`/`MiB` (1024²), `G`/`GiB` (1024³). `KB`/`MB`/`GB` are refused
//! with a message that names both readings (`4KiB` = 4096 bytes or `4000B`): they mean powers
//! of 1000 to some tools and of 1024 to others (OSU), and a block silently of the other size
//! would be misread.

use thiserror::Error;

/// A `--size` text that is not a size; each message shows how to write one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SizeError {
    /// No leading number.
    #[error("size '{0}' must start with a number, e.g. 4KiB or 1MiB")]
    NoNumber(String),
    /// The number does not parse.
    #[error("size '{0}' is not a number")]
    NotANumber(String),
    /// `KB`/`MB`/`GB`: powers of 1000 to some, of 1024 to others.
    #[error(
        "size '{text}' is ambiguous: write {num}{binary} for {binary_bytes} bytes, or \
         {decimal_bytes}B for {decimal_bytes} bytes"
    )]
    Ambiguous {
        /// The text given.
        text: String,
        /// Its number.
        num: String,
        /// The binary unit meant perhaps (`KiB`).
        binary: &'static str,
        /// The size with the binary unit.
        binary_bytes: u64,
        /// The size with the decimal unit.
        decimal_bytes: u64,
    },
    /// A unit that is none of B, KiB, MiB, GiB.
    #[error("size '{text}' has an unknown unit '{unit}' (use B, KiB, MiB or GiB)")]
    UnknownUnit {
        /// The text given.
        text: String,
        /// The unit, lower-cased.
        unit: String,
    },
    /// More bytes than this machine can address.
    #[error("size '{0}' is too large")]
    TooLarge(String),
    /// An empty list.
    #[error("no size given: use e.g. --size 4KiB,1MiB")]
    Empty,
}

/// Parses one size: a number with an optional binary unit (`B`, `K`/`KiB`, `M`/`MiB`,
/// `G`/`GiB`; case-insensitive). `KB`/`MB`/`GB` are refused: they mean powers of 1000 to some
/// and of 1024 to others (OSU), and a block silently of the other size would be misread.
pub fn parse_size(text: &str) -> Result<usize, SizeError> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    if num.is_empty() {
        return Err(SizeError::NoNumber(text.to_string()));
    }
    let n: u64 = num
        .parse()
        .map_err(|_| SizeError::NotANumber(text.to_string()))?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        si @ ("kb" | "mb" | "gb") => {
            let (binary, pow, dec) = match si {
                "kb" => ("KiB", 1u64 << 10, 1000u64),
                "mb" => ("MiB", 1 << 20, 1_000_000),
                _ => ("GiB", 1 << 30, 1_000_000_000),
            };
            return Err(SizeError::Ambiguous {
                text: text.to_string(),
                num: num.to_string(),
                binary,
                binary_bytes: n.saturating_mul(pow),
                decimal_bytes: n.saturating_mul(dec),
            });
        }
        other => {
            return Err(SizeError::UnknownUnit {
                text: text.to_string(),
                unit: other.to_string(),
            })
        }
    };
    let bytes = n
        .checked_mul(mult)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| SizeError::TooLarge(text.to_string()))?;
    Ok(bytes)
}

/// Parses a comma-separated list of sizes.
pub fn parse_size_list(text: &str) -> Result<Vec<usize>, SizeError> {
    let sizes: Vec<usize> = text
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(parse_size)
        .collect::<Result<_, _>>()?;
    if sizes.is_empty() {
        return Err(SizeError::Empty);
    }
    Ok(sizes)
}

/// Formats bytes with the largest binary unit that divides them exactly (`1MiB`, `1536KiB`).
pub fn format_size(bytes: usize) -> String {
    const UNITS: [(usize, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (m, u) in UNITS {
        if bytes >= m && bytes.is_multiple_of(m) {
            return format!("{}{u}", bytes / m);
        }
    }
    format!("{bytes}B")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("4KiB").unwrap(), 4096);
        assert_eq!(parse_size("1MiB").unwrap(), 1 << 20);
        assert_eq!(parse_size("1m").unwrap(), 1 << 20);
        assert_eq!(parse_size("64").unwrap(), 64);
        assert_eq!(parse_size(" 2GiB ").unwrap(), 2 << 30);
        assert_eq!(
            parse_size_list("4KiB,64KiB,1MiB").unwrap(),
            vec![4096, 65536, 1 << 20]
        );
    }

    #[test]
    fn sizes_reject_nonsense() {
        assert!(parse_size("KiB").is_err());
        assert!(parse_size("4XB").is_err());
        assert!(parse_size("-4").is_err());
        assert!(parse_size("").is_err() && parse_size("12Q").is_err());
        assert!(parse_size("99999999999999999999GiB").is_err());
        // Decimal-looking units are refused, never silently binary.
        let e = parse_size("4KB").unwrap_err().to_string();
        assert!(
            e.contains("write 4KiB for 4096 bytes, or 4000B for 4000 bytes"),
            "{e}"
        );
        let e = parse_size("1gb").unwrap_err().to_string();
        assert!(
            e.contains("1GiB for 1073741824 bytes, or 1000000000B"),
            "{e}"
        );
        assert_eq!(
            parse_size("1tb").unwrap_err().to_string(),
            "size '1tb' has an unknown unit 'tb' (use B, KiB, MiB or GiB)"
        );
        assert_eq!(
            parse_size_list(",").unwrap_err().to_string(),
            "no size given: use e.g. --size 4KiB,1MiB"
        );
    }

    #[test]
    fn sizes_format_round_trip() {
        for b in [4usize, 4096, 65536, 1 << 20, 3 << 20, 1536 * 1024, 1 << 30] {
            assert_eq!(parse_size(&format_size(b)).unwrap(), b);
        }
        assert_eq!(format_size(1 << 20), "1MiB");
        assert_eq!(format_size(100), "100B");
    }
}
