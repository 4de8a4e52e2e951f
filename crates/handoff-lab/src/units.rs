//! Parsing and printing of the lab's units: byte sizes (`4KiB`, `1MiB`) and CPU lists.

/// Parses one size: a number with an optional binary unit (`B`, `K`/`KiB`, `M`/`MiB`,
/// `G`/`GiB`; case-insensitive). `KB`/`MB`/`GB` are refused: they mean powers of 1000 to some
/// and of 1024 to others (OSU), and a block silently of the other size would be misread.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    if num.is_empty() {
        return Err(format!(
            "size '{text}' must start with a number, e.g. 4KiB or 1MiB"
        ));
    }
    let n: u64 = num
        .parse()
        .map_err(|_| format!("size '{text}' is not a number"))?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        si @ ("kb" | "mb" | "gb") => {
            let (bin, pow, dec) = match si {
                "kb" => ("KiB", 1u64 << 10, 1000u64),
                "mb" => ("MiB", 1 << 20, 1_000_000),
                _ => ("GiB", 1 << 30, 1_000_000_000),
            };
            let (b, d) = (n.saturating_mul(pow), n.saturating_mul(dec));
            return Err(format!(
                "size '{text}' is ambiguous: write {num}{bin} for {b} bytes, or {d}B for {d} bytes"
            ));
        }
        other => {
            return Err(format!(
                "size '{text}' has an unknown unit '{other}' (use B, KiB, MiB or GiB)"
            ))
        }
    };
    let bytes = n
        .checked_mul(mult)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("size '{text}' is too large"))?;
    Ok(bytes)
}

/// Parses a comma-separated list of sizes.
pub fn parse_size_list(text: &str) -> Result<Vec<usize>, String> {
    let sizes: Vec<usize> = text
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(parse_size)
        .collect::<Result<_, _>>()?;
    if sizes.is_empty() {
        return Err("no size given: use e.g. --size 4KiB,1MiB".into());
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
        assert!(parse_size("99999999999999999999GiB").is_err());
        // Decimal-looking units are refused, never silently binary.
        let e = parse_size("4KB").unwrap_err();
        assert!(
            e.contains("write 4KiB for 4096 bytes, or 4000B for 4000 bytes"),
            "{e}"
        );
        let e = parse_size("1gb").unwrap_err();
        assert!(
            e.contains("1GiB for 1073741824 bytes, or 1000000000B"),
            "{e}"
        );
        assert!(parse_size_list(",").is_err());
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
