//! Output formats and the exchange in the one schema: table, JSON, units, output paths,
//! files of another or an older schema.

mod common;

use common::fixture;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use handoff_lab::bench::load::LoadError;
use handoff_lab::bench::render::render;
use handoff_lab::bench::text::{
    check_output_path, fmt_size, fmt_us, write_output, Format, OutputError,
};
use handoff_lab::bench::{BenchResults, BENCH_SCHEMA};
use handoff_lab::experiments::exchange::record;

fn temp_path(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "handoff-lab-out-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

#[test]
fn the_exchange_file_is_one_schema_with_every_field() {
    let results = fixture();
    let text = render(&results, Format::Json);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["schema"], BENCH_SCHEMA);
    assert_eq!(v["experiment"], "exchange");
    for key in [
        "machine", "tool", "config", "c2c", "records", "report", "partial",
    ] {
        assert!(v.get(key).is_some(), "missing top-level {key}");
    }
    for key in ["cpu_a", "cpu_b", "placement", "one_way_ns"] {
        assert!(v["c2c"][0].get(key).is_some(), "missing c2c.{key}");
    }
    let flushed = v["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["params"]["flush_cache"] == true)
        .unwrap();
    for key in [
        "mode",
        "size_bytes",
        "producer_core",
        "consumer_core",
        "placement",
    ] {
        assert!(flushed["params"].get(key).is_some(), "missing params.{key}");
    }
    for key in ["wait", "clock_anomalies", "consumer_cpu_pct"] {
        assert!(flushed["info"].get(key).is_some(), "missing info.{key}");
    }
    for metric in ["read_us", "latency_us", "write_us", "flush_us"] {
        for stat in [
            "mean",
            "ci95_low",
            "ci95_high",
            "median",
            "min",
            "max",
            "p99",
        ] {
            let m = &flushed["metrics"][metric];
            assert!(m["summary"][stat].is_number(), "{metric}.{stat}");
            assert!(m["run_means"][0].is_number(), "{metric} run means");
        }
    }
    assert!(flushed["metrics"]["latency_us"]["run_iqrs"][0][1].is_number());
    // Round trip through the file.
    let back = BenchResults::from_json_str(&text).unwrap();
    assert_eq!(record::checked(back, None).unwrap(), results);
}

#[test]
fn wrong_files_are_clear_errors() {
    let path = temp_path("wrong");
    std::fs::write(&path, "{\"schema\": \"other/1\"}").unwrap();
    let err = BenchResults::load(&path).unwrap_err();
    assert!(matches!(err, LoadError::WrongSchema { .. }));
    assert!(err.to_string().contains("other/1"), "{err}");
    // Files of before the one schema: refused, naming the commands that write this one.
    for old in ["handoff.exchange/1", "handoff.c2c/1"] {
        std::fs::write(&path, format!("{{\"schema\": \"{old}\", \"pairs\": []}}")).unwrap();
        let err = record::load(&path).unwrap_err();
        assert!(matches!(err, LoadError::OldSchema { .. }), "{err}");
        let msg = err.to_string();
        assert!(
            msg.contains(old) && msg.contains("handoff bench c2c"),
            "{msg}"
        );
    }
    let err = record::load(Path::new("/nonexistent/handoff/results.json")).unwrap_err();
    assert!(matches!(err, LoadError::Read { .. }));
    assert!(
        err.to_string()
            .contains("/nonexistent/handoff/results.json"),
        "{err}"
    );
    let mut v: serde_json::Value = serde_json::from_str(&fixture().to_json_pretty()).unwrap();
    v["records"][0]["runs"] = serde_json::json!("many");
    std::fs::write(&path, v.to_string()).unwrap();
    let err = BenchResults::load(&path).unwrap_err();
    assert!(matches!(err, LoadError::Parse { .. }), "{err}");
    // A record of the one schema that is not an exchange record is named.
    v["records"][0]["runs"] = serde_json::json!(3);
    v["records"][0]["metrics"]
        .as_object_mut()
        .unwrap()
        .remove("read_us");
    std::fs::write(&path, v.to_string()).unwrap();
    let err = record::load(&path).unwrap_err();
    assert!(err.to_string().contains("record 1"), "{err}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_exchange_table_carries_the_c2c_floor() {
    let mut results = fixture();
    let table = render(&results, Format::Table);
    assert!(
        table.contains("c2c floor (one-way cache-line transfer): cpu 0↔1 (shared-l3) 63.0 ns"),
        "{table}"
    );
    for mode in ["single-thread", "processes-adaptive", "pipe"] {
        assert!(table.contains(mode));
    }
    assert!(!table.contains("PARTIAL"));
    results.partial = true;
    results.stopped_early = Some("interrupted".into());
    assert!(render(&results, Format::Table).contains("PARTIAL: interrupted"));
}

#[test]
fn humane_units() {
    assert_eq!(fmt_us(0.85), "850 ns");
    assert_eq!(fmt_us(0.0123), "12.3 ns");
    assert_eq!(fmt_us(0.0009), "0.900 ns");
    assert_eq!(fmt_us(12.345), "12.3 µs");
    assert_eq!(fmt_us(1.0), "1.00 µs");
    assert_eq!(fmt_us(1250.0), "1.25 ms");
    assert_eq!(fmt_us(2e6), "2.00 s");
    assert_eq!(fmt_us(-0.012), "-12.0 ns");
    assert_eq!(fmt_size(4096), "4 KiB");
    assert_eq!(fmt_size(1 << 20), "1 MiB");
    assert_eq!(fmt_size(1536 * 1024), "1.50 MiB");
    assert_eq!(fmt_size(300), "300 B");
}

#[test]
fn formats_parse() {
    assert_eq!(Format::from_str("json").unwrap(), Format::Json);
    assert_eq!(Format::from_str("csv").unwrap(), Format::Csv);
    assert_eq!(Format::from_str("table").unwrap(), Format::Table);
    let err = Format::from_str("xml").unwrap_err();
    assert!(err.to_string().contains("table, json, csv"), "{err}");
}

#[test]
fn output_paths() {
    // Writable new file: accepted, and not left behind.
    let p = temp_path("new");
    check_output_path(&p).unwrap();
    assert!(!p.exists());
    // Existing file: accepted and untouched.
    std::fs::write(&p, "keep").unwrap();
    check_output_path(&p).unwrap();
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "keep");
    write_output("new text\n", Some(&p)).unwrap();
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "new text\n");
    std::fs::remove_file(&p).unwrap();
    // A directory, a missing directory, an unwritable place.
    assert!(matches!(
        check_output_path(&std::env::temp_dir()),
        Err(OutputError::IsDirectory(_))
    ));
    let missing = temp_path("missing").join("out.json");
    let err = check_output_path(&missing).unwrap_err();
    assert!(matches!(err, OutputError::MissingDirectory(_)), "{err}");
    assert!(err.to_string().contains("does not exist"));
    let err = check_output_path(Path::new("/proc/handoff-cannot-write-here.json")).unwrap_err();
    assert!(matches!(err, OutputError::Write { .. }), "{err}");
    assert!(err
        .to_string()
        .contains("/proc/handoff-cannot-write-here.json"));
    assert!(write_output("x", Some(Path::new("/proc/handoff-nope"))).is_err());
}
