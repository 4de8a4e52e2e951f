//! Output formats and the JSON schema: table, JSON, CSV, units, output paths.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use handoff_lab::output::{
    check_output_path, exchange_csv, exchange_csv_header, fmt_size, fmt_us, render_c2c,
    render_exchange, write_output, Format, OutputError,
};
use handoff_lab::schema::{
    C2cPair, C2cResults, ExchangeResults, LoadError, C2C_SCHEMA, EXCHANGE_SCHEMA,
};

fn fixture() -> ExchangeResults {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exchange_small.json");
    ExchangeResults::load(&path).expect("fixture loads")
}

fn temp_path(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "handoff-lab-out-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

#[test]
fn json_has_every_field_of_the_schema() {
    let results = fixture();
    let text = render_exchange(&results, Format::Json);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["schema"], EXCHANGE_SCHEMA);
    for key in [
        "machine", "tool", "config", "c2c", "records", "report", "partial",
    ] {
        assert!(v.get(key).is_some(), "missing top-level {key}");
    }
    for key in [
        "cpu_model",
        "logical_cpus",
        "allowed_cpus",
        "caches",
        "topology",
        "kernel",
        "hostname",
        "clock",
        "virtualized",
        "hypervisor",
        "governor",
    ] {
        assert!(v["machine"].get(key).is_some(), "missing machine.{key}");
    }
    for key in ["source", "ticks_per_ns", "read_cost_ns"] {
        assert!(
            v["machine"]["clock"].get(key).is_some(),
            "missing clock.{key}"
        );
    }
    for key in ["version", "git_commit"] {
        assert!(v["tool"].get(key).is_some(), "missing tool.{key}");
    }
    for key in ["cpu_a", "cpu_b", "placement", "one_way_ns"] {
        assert!(v["c2c"][0].get(key).is_some(), "missing c2c.{key}");
    }
    let flushed = v["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["flush_cache"] == true)
        .unwrap();
    for key in [
        "mode",
        "size_bytes",
        "producer_core",
        "consumer_core",
        "placement",
        "flush_cache",
        "reps",
        "runs",
        "wait",
        "verified",
        "clock_anomalies",
        "c2c_one_way_ns",
        "consumer_cpu_pct",
        "runs_detail",
        "read_us",
        "latency_us",
        "write_us",
        "flush_us",
    ] {
        assert!(flushed.get(key).is_some(), "missing record.{key}");
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
            assert!(flushed[metric][stat].is_number(), "{metric}.{stat}");
        }
    }
    for key in ["read_us", "latency_us", "write_us"] {
        assert!(
            flushed["runs_detail"][0][key].is_number(),
            "runs_detail.{key}"
        );
    }
    // Round trip.
    assert_eq!(ExchangeResults::from_json_str(&text).unwrap(), results);
}

#[test]
fn wrong_files_are_clear_errors() {
    let err = ExchangeResults::from_json_str("{\"schema\": \"other/1\"}").unwrap_err();
    assert!(matches!(err, LoadError::WrongSchema { .. }));
    assert!(err.to_string().contains("other/1"), "{err}");
    let err = ExchangeResults::load(Path::new("/nonexistent/handoff/results.json")).unwrap_err();
    assert!(matches!(err, LoadError::Read { .. }));
    assert!(
        err.to_string()
            .contains("/nonexistent/handoff/results.json"),
        "{err}"
    );
    let mut v: serde_json::Value = serde_json::from_str(&fixture().to_json_pretty()).unwrap();
    v["records"][0]["size_bytes"] = serde_json::json!("big");
    let err = ExchangeResults::from_json_str(&v.to_string()).unwrap_err();
    assert!(matches!(err, LoadError::Parse { .. }), "{err}");
}

#[test]
fn csv_is_flat_and_stable() {
    let results = fixture();
    let header = exchange_csv_header();
    assert_eq!(header.len(), 13 + 4 * 7 + 2);
    assert_eq!(
        &header[..4],
        &["mode", "size_bytes", "producer_core", "consumer_core"]
    );
    for col in [
        "read_us_mean",
        "read_us_ci95_low",
        "read_us_ci95_high",
        "read_us_median",
        "read_us_p99",
        "latency_us_mean",
        "write_us_max",
        "flush_us_min",
        "consumer_cpu_pct",
        "c2c_one_way_ns",
    ] {
        assert!(header.iter().any(|h| h == col), "missing column {col}");
    }
    let csv = render_exchange(&results, Format::Csv);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), results.records.len() + 1);
    assert_eq!(lines[0], header.join(","));
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    for (line, rec) in lines[1..].iter().zip(&results.records) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), header.len(), "{line}");
        assert_eq!(cells[col("mode")], rec.mode);
        assert_eq!(
            cells[col("read_us_mean")].parse::<f64>().unwrap(),
            rec.read_us.mean
        );
        assert_eq!(
            cells[col("latency_us_p99")].parse::<f64>().unwrap(),
            rec.latency_us.p99
        );
        // flush_us is empty unless flushing.
        assert_eq!(cells[col("flush_us_mean")].is_empty(), !rec.flush_cache);
    }
    // Same header with no records.
    assert_eq!(exchange_csv(&[]), format!("{}\n", header.join(",")));
}

#[test]
fn table_is_readable() {
    let mut results = fixture();
    let table = render_exchange(&results, Format::Table);
    assert!(
        table.contains("c2c floor (one-way cache-line transfer): cpu 0↔1 (shared-l3) 63.0 ns"),
        "{table}"
    );
    for mode in ["single-thread", "processes-adaptive", "pipe"] {
        assert!(table.contains(mode));
    }
    assert!(table.contains("clock anomalies"), "anomalies footer");
    // Rows are aligned: the "mode" column is padded to one width.
    let lines: Vec<&str> = table.lines().collect();
    let rule = lines[1];
    assert!(rule.starts_with("----"));
    let first_col = rule.split("  ").next().unwrap().chars().count();
    assert_eq!(first_col, "processes-semaphore".len());
    assert!(!table.contains("PARTIAL"));
    results.partial = true;
    results.stopped_early = Some("interrupted".into());
    assert!(render_exchange(&results, Format::Table).starts_with("PARTIAL RESULTS: interrupted"));
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

#[test]
fn c2c_results_render() {
    let f = fixture();
    let pairs = vec![
        C2cPair {
            cpu_a: 0,
            cpu_b: 1,
            placement: "shared-l3".into(),
            one_way_ns: 62.4,
        },
        C2cPair {
            cpu_a: 1,
            cpu_b: 0,
            placement: "shared-l3".into(),
            one_way_ns: 64.0,
        },
    ];
    let r = C2cResults::new(
        f.machine,
        f.tool,
        serde_json::json!({"cores": "all"}),
        vec![0, 1],
        pairs,
    );
    let json = render_c2c(&r, Format::Json);
    assert!(json.contains(C2C_SCHEMA));
    assert_eq!(C2cResults::from_json_str(&json).unwrap(), r);
    assert!(
        ExchangeResults::from_json_str(&json).is_err(),
        "schemas are distinct"
    );
    let table = render_c2c(&r, Format::Table);
    assert!(
        table.contains("cpu 0") && table.contains("62") && table.contains("64"),
        "{table}"
    );
    let csv = render_c2c(&r, Format::Csv);
    assert_eq!(
        csv,
        "cpu_a,cpu_b,placement,one_way_ns\n0,1,shared-l3,62.4\n1,0,shared-l3,64\n"
    );
}
