//! The core's layers run one way (lib.rs lists them): a file may name `crate::X` only when X
//! sits in its own layer or a lower one, no two modules import each other in a circle, and
//! no two files of one module do (`super::x`, or an item `mod.rs` re-exports from `x`).
//! Reads the source files, so it needs no build of anything it checks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Layer of a top-level item of the crate (first path segment after `crate::`).
fn layer_of_item(item: &str) -> Option<u32> {
    Some(match item {
        "sys" => 1,
        "atomic" | "layout" | "units" => 2,
        "sync" => 3,
        "shm" => 4,
        "channel" | "queue" => 5,
        "team" => 6,
        "error" | "Error" | "Result" | "implementor" => 7,
        _ => return None,
    })
}

/// Layer of a source file, from its path under `src/`.
fn layer_of_file(rel: &str) -> u32 {
    let first = rel.split(['/', '.']).next().unwrap();
    match first {
        "lib" => 7,
        f => layer_of_item(f).unwrap_or_else(|| panic!("src/{rel}: map this file to a layer")),
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `crate::` path in `text` outside comments: the items it names, `crate::a::b` →
/// "a"; `use crate::{a, b::c}` → "a", "b".
fn crate_refs(text: &str) -> BTreeSet<String> {
    path_refs(text, "crate::")
}

/// Every path starting with `prefix` (`crate::`, `super::`) in `text` outside comments: the
/// first segment after it, or each first segment of a `{...}` group (on one line).
fn path_refs(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut refs = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap();
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            let before = &rest[..at];
            rest = &rest[at + prefix.len()..];
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue; // e.g. `my_crate::`
            }
            if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap();
                for part in group.split(',') {
                    let item = part.trim().split("::").next().unwrap().trim();
                    if !item.is_empty() && item != "self" {
                        refs.insert(item.to_string());
                    }
                }
            } else {
                let item: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !item.is_empty() {
                    refs.insert(item);
                }
            }
        }
    }
    refs
}

/// Checks the sources under `src`; returns the violations.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut bad = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let rel = f
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(f).unwrap();
        let own = layer_of_file(&rel);
        let top_module = rel.split(['/', '.']).next().unwrap().to_string();
        for item in crate_refs(&text) {
            let Some(layer) = layer_of_item(&item) else {
                bad.push(format!("src/{rel}: crate::{item} is not mapped to a layer"));
                continue;
            };
            if item != top_module {
                edges
                    .entry(top_module.clone())
                    .or_default()
                    .insert(item.clone());
            }
            if layer > own {
                bad.push(format!(
                    "src/{rel} (layer {own}) uses crate::{item} (layer {layer}): a layer may \
                     only use its own layer and the ones below"
                ));
            }
        }
    }
    // Circles between modules (sibling imports within one layer included), and between the
    // files of one module.
    bad.extend(circles(&edges));
    for dir in std::fs::read_dir(src).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            bad.extend(circles(&file_edges(src, &dir)));
        }
    }
    bad
}

/// Which file of module directory `dir` imports which: `super::x` where `x` is a sibling
/// file or an item the module's `mod.rs` re-exports from one (`pub use x::{a, b};`).
/// Files are named by their path under `src` (`shm/header`); `mod.rs`, which re-exports
/// everything, and nested test modules are left out.
fn file_edges(src: &Path, dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let module = dir.strip_prefix(src).unwrap().to_string_lossy().to_string();
    let stems: BTreeSet<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .filter(|s| s != "mod")
        .collect();
    // Item -> the sibling file it comes from, per `mod.rs`'s `use` lines.
    let mut origin: BTreeMap<String, String> = BTreeMap::new();
    let root = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
    let flat: String = root
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join(" ");
    for stmt in flat.split(';') {
        let Some(at) = stmt.find("use ") else {
            continue;
        };
        let path = stmt[at + 4..].trim();
        let Some((file, items)) = path.split_once("::") else {
            continue;
        };
        if !stems.contains(file) {
            continue;
        }
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let item = item.trim().rsplit("::").next().unwrap().trim();
            if !item.is_empty() && item != "self" && item != "*" {
                origin.insert(item.to_string(), file.to_string());
            }
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for stem in &stems {
        let text = std::fs::read_to_string(dir.join(format!("{stem}.rs"))).unwrap();
        for item in path_refs(&text, "super::") {
            let target = if stems.contains(&item) {
                Some(item.clone())
            } else {
                origin.get(&item).cloned()
            };
            if let Some(t) = target.filter(|t| t != stem) {
                edges
                    .entry(format!("{module}/{stem}"))
                    .or_default()
                    .insert(format!("{module}/{t}"));
            }
        }
    }
    edges
}

/// Every circle in an import graph, as "import circle: a -> b -> a".
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut bad = Vec::new();
    for start in edges.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, path)) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if next == start {
                    bad.push(format!("import circle: {} -> {next}", path.join(" -> ")));
                } else if seen.insert(next.clone()) {
                    let mut p = path.clone();
                    p.push(next.clone());
                    stack.push((next.clone(), p));
                }
            }
        }
    }
    bad
}

#[test]
fn the_core_imports_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = violations(&src);
    assert!(bad.is_empty(), "layer rule broken:\n{}", bad.join("\n"));
}

#[test]
fn an_upward_import_is_caught() {
    // An independent fixture: a platform file that reaches up into `shm`, and two siblings
    // that import each other.
    let dir = std::env::temp_dir().join(format!("handoff-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sys")).unwrap();
    std::fs::create_dir_all(dir.join("sync")).unwrap();
    std::fs::create_dir_all(dir.join("shm")).unwrap();
    std::fs::write(dir.join("sys/mem.rs"), "use crate::shm::SegmentError;\n").unwrap();
    std::fs::write(dir.join("sync/flag.rs"), "use crate::shm::ShmSafe;\n").unwrap();
    // Two files of one module in a circle, one edge through a re-export of `mod.rs`.
    std::fs::write(dir.join("shm/header.rs"), "use super::table::Slot;\n").unwrap();
    std::fs::write(
        dir.join("shm/table.rs"),
        "use super::{Result, MAX_SLOTS};\n",
    )
    .unwrap();
    std::fs::write(dir.join("shm/error.rs"), "pub type Result = ();\n").unwrap();
    std::fs::write(
        dir.join("shm/mod.rs"),
        "use crate::{sys, sync::Flag};\npub use header::{offsets, MAX_SLOTS};\n",
    )
    .unwrap();
    let bad = violations(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        bad.iter()
            .any(|b| b == "import circle: shm/header -> shm/table -> shm/header"),
        "{bad:?}"
    );
    assert!(
        bad.iter()
            .any(|b| b.contains("src/sys/mem.rs (layer 1) uses crate::shm")),
        "{bad:?}"
    );
    assert!(
        bad.iter().any(|b| b.starts_with("import circle")),
        "{bad:?}"
    );
}
