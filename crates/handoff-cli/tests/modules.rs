//! The CLI's files import one way: no two of its modules name each other (`crate::x`) in a
//! circle (issue 8: `cli` dispatches to `cli_report`, both read `common`, none reads back).
//! Reads the source files, so it needs no build of anything it checks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The modules (file stems) each `src/*.rs` file names through `crate::`, comments left out.
fn edges(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<&str> = files.iter().map(|(m, _)| m.as_str()).collect();
    let mut out = BTreeMap::new();
    for (module, text) in files {
        let mut to = BTreeSet::new();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            for part in code.split("crate::").skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if modules.contains(name.as_str()) && name != *module {
                    to.insert(name);
                }
            }
        }
        out.insert(module.clone(), to);
    }
    out
}

/// Every circle, as `a -> b -> a`.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    fn walk(
        at: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        found: &mut Vec<String>,
    ) {
        if let Some(i) = path.iter().position(|p| p == at) {
            found.push(format!("{} -> {at}", path[i..].join(" -> ")));
            return;
        }
        path.push(at.to_string());
        for next in edges.get(at).into_iter().flatten() {
            walk(next, edges, path, found);
        }
        path.pop();
    }
    let mut found = Vec::new();
    for start in edges.keys() {
        walk(start, edges, &mut Vec::new(), &mut found);
    }
    found
}

#[test]
fn the_cli_files_import_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            files.push((stem, std::fs::read_to_string(&p).unwrap()));
        }
    }
    assert!(
        files.len() >= 4,
        "read {} files from {}",
        files.len(),
        src.display()
    );
    let e = edges(&files);
    assert!(e["cli"].contains("cli_report"), "{e:?}");
    let found = circles(&e);
    assert!(
        found.is_empty(),
        "import circles between CLI files: {found:?}"
    );
}

#[test]
fn a_circle_is_caught() {
    let files = vec![
        ("a".to_string(), "use crate::b::X; // crate::c".to_string()),
        ("b".to_string(), "fn f() { crate::a::g() }".to_string()),
        ("c".to_string(), "use crate::a;".to_string()),
    ];
    let found = circles(&edges(&files));
    assert!(found.iter().any(|c| c == "a -> b -> a"), "{found:?}");
    assert!(!found.iter().any(|c| c.contains('c')), "{found:?}");
}

/// The code of `text` (comments left out) between `fn NAME(` and the next top-level `fn `.
fn function(text: &str, name: &str) -> String {
    let code: Vec<&str> = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    let start = code
        .iter()
        .position(|l| l.contains(&format!("fn {name}(")))
        .unwrap_or_else(|| panic!("no fn {name}"));
    let end = code[start + 1..]
        .iter()
        .position(|l| l.starts_with("fn ") || l.starts_with("pub fn "))
        .map_or(code.len(), |i| start + 1 + i);
    code[start..end].join("\n")
}

/// One corridor (#39): `handoff report`, `plot` and `compare` name no experiment in the CLI;
/// the lab conducts the report and draws and compares every results file through its registry.
#[test]
fn report_plot_and_compare_name_no_experiment() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let read = |f: &str| std::fs::read_to_string(src.join(f)).unwrap();
    let cli = read("cli.rs");
    let report = read("cli_report.rs");
    let bench = read("cli_bench.rs");
    let parts = [
        ("cli.rs plot", function(&cli, "plot")),
        ("cli.rs compare", function(&cli, "compare")),
        ("cli_bench.rs compare", function(&bench, "compare")),
        ("cli_report.rs report", function(&report, "report")),
    ];
    for (what, code) in parts {
        for name in ["\"exchange\"", "\"c2c\"", "exchange::", "c2c::"] {
            assert!(!code.contains(name), "{what} names {name}:\n{code}");
        }
    }
}

/// One corridor (#39): `bench exchange` and `bench c2c` only parse their flags and hand them
/// to the lab through the output flags' generic runner, like every other `bench NAME`; the
/// runner and the CLI's shared helpers name neither experiment (no rig, memory check or
/// c2c check of their own).
#[test]
fn bench_exchange_and_c2c_take_the_generic_path() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let read = |f: &str| std::fs::read_to_string(src.join(f)).unwrap();
    let cli = read("cli.rs");
    for f in ["bench_exchange", "bench_c2c"] {
        let code = function(&cli, f);
        assert!(code.contains(".out.run("), "{f} runs apart:\n{code}");
        for name in ["run_on", "Rig", "check_memory", "Topology", "C2cOptions"] {
            assert!(!code.contains(name), "{f} names {name}:\n{code}");
        }
    }
    let bench = read("cli_bench.rs");
    assert!(!bench.contains("exchange") && !bench.contains("c2c"));
    let common = read("common.rs");
    for name in ["Rig", "check_memory", "memory::"] {
        assert!(!common.contains(name), "common.rs names {name}");
    }
}
