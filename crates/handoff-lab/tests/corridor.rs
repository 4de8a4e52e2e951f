//! One corridor (#39): the lab's generic machinery names no experiment. `plot/` (the chart
//! kit, the line figure of a `FigureSpec`, the PNG and SVG backends) and `report/` (the
//! document, the folder, the first screen's frame, the plan and its conduct) reach every
//! experiment through the registry (`bench::registry`), never by importing an experiment's
//! module: an experiment's own figures, sections and record readers live in its folder.
//! Reads the sources, so it builds nothing it checks.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out
}

/// The lines of the code (comments and test modules left out) of the files under `dir` that
/// name an experiment's module (`experiments::NAME`), as `file:line: text`.
fn naming_experiments(dir: &Path) -> Vec<String> {
    naming(dir, "experiments::")
}

/// The lines of the code of the files under `dir` that hold `what`, as `file:line: text`.
fn naming(dir: &Path, what: &str) -> Vec<String> {
    let mut found = Vec::new();
    for f in files(dir) {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or("");
            if code.contains(what) {
                found.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn plot_names_no_experiment() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert!(files(&src.join("plot")).len() >= 3);
    let found = naming_experiments(&src.join("plot"));
    assert!(
        found.is_empty(),
        "plot/ names experiments:\n{}",
        found.join("\n")
    );
}

/// The report (its document, folder, figures, sections, first screen, and its plan and
/// conduct) reaches every experiment through the registry only: the exchange's and c2c's
/// plans, cost models and runs are registry hooks (`ExperimentInfo::report_cost`, `run`),
/// and what the first screen says of another experiment (`rma-channels`' messages or puts)
/// comes in the leading experiment's part (`ExperimentInfo::report`).
#[test]
fn the_report_names_no_experiment() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join("report");
    // `crate::`: the report's own `experiments` module (the registered experiments'
    // sections) is not an experiment.
    let found = naming(&src, "crate::experiments::");
    assert!(
        found.is_empty(),
        "report/ names experiments:\n{}",
        found.join("\n")
    );
    assert!(files(&src).len() >= 8);
}

#[test]
fn a_named_experiment_is_caught() {
    let dir = std::env::temp_dir().join(format!("handoff-corridor-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("sub/a.rs"),
        "use crate::experiments::exchange::record; // fine: crate::experiments::x\n",
    )
    .unwrap();
    std::fs::write(dir.join("b.rs"), "// crate::experiments::c2c\nfn f() {}\n").unwrap();
    let found = naming_experiments(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("a.rs:1"), "{found:?}");
}
