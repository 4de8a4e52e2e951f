//! Cache sizes as sysfs writes them and as people read them.

/// Parses a sysfs cache size (`48K`, `1024K`, `32M`, or plain bytes) into bytes (the one
/// size rule, [`crate::units`]).
pub(crate) fn parse_size(text: &str) -> Option<u64> {
    crate::units::parse_size(text).ok().map(|b| b as u64)
}

/// Formats a byte count the way a person writes cache sizes: `48 KiB`, `1 MiB`,
/// `1.25 MiB`, `32 MiB`.
pub fn format_bytes(bytes: u64) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;
    let scaled = |unit: u64, name: &str| {
        if bytes.is_multiple_of(unit) {
            format!("{} {name}", bytes / unit)
        } else {
            let v = format!("{:.2}", bytes as f64 / unit as f64);
            let v = v.trim_end_matches('0').trim_end_matches('.');
            format!("{v} {name}")
        }
    };
    if bytes >= GIB {
        scaled(GIB, "GiB")
    } else if bytes >= MIB {
        scaled(MIB, "MiB")
    } else if bytes >= KIB {
        scaled(KIB, "KiB")
    } else {
        format!("{bytes} B")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("48K\n"), Some(48 << 10));
        assert_eq!(parse_size("32768K"), Some(32 << 20));
        assert_eq!(parse_size("2M"), Some(2 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("K"), None);
        assert_eq!(parse_size("lots"), None);
        assert_eq!(format_bytes(48 << 10), "48 KiB");
        assert_eq!(format_bytes(1 << 20), "1 MiB");
        assert_eq!(format_bytes(1280 << 10), "1.25 MiB");
        assert_eq!(format_bytes(11264 << 10), "11 MiB");
        assert_eq!(format_bytes(1536), "1.5 KiB");
        assert_eq!(format_bytes(100), "100 B");
    }
}
