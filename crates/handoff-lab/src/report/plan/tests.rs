//! Unit tests of the report's folder and dates (the plan's are the leading experiment's:
//! `experiments/exchange/report_plan/tests.rs`).
use super::*;

#[test]
fn rfc3339_by_hand() {
    // 1795000000 s = 20775 days (2026-11-18) + 40000 s = 11 h 6 min 40 s.
    assert_eq!(rfc3339(1_795_000_000), "2026-11-18T11:06:40Z");
    assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
}

#[test]
fn default_folder_is_never_an_earlier_one() {
    let base = std::env::temp_dir().join(format!("handoff-outdir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let first = default_out_dir(&base, "h", "2026-01-02");
    assert_eq!(first, base.join("handoff-report-h-2026-01-02"));
    std::fs::create_dir(&first).unwrap();
    let second = default_out_dir(&base, "h", "2026-01-02");
    assert_eq!(second, base.join("handoff-report-h-2026-01-02-2"));
    std::fs::create_dir(&second).unwrap();
    assert_eq!(
        default_out_dir(&base, "h", "2026-01-02"),
        base.join("handoff-report-h-2026-01-02-3")
    );
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn civil_dates() {
    assert_eq!(civil_date(0), "1970-01-01");
    assert_eq!(civil_date(1_795_000_000), "2026-11-18");
    assert_eq!(civil_date(951_782_400), "2000-02-29");
}
