//! The core's layers run one way (lib.rs lists them): a file may name `crate::X` only when X
//! sits in its own layer or a lower one, and no two files import each other in a circle.
//! Reads the source files, so it needs no build of anything it checks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Layer of a top-level item of the crate (first path segment after `crate::`).
fn layer_of_item(item: &str) -> Option<u32> {
    Some(match item {
        "sys" => 1,
        "atomic" | "layout" | "peers" | "WaitError" => 2,
        "sync" | "shm" => 3,
        "channel" => 4,
        "error" | "Error" | "Result" => 5,
        _ => return None,
    })
}

/// Layer of a source file, from its path under `src/`.
fn layer_of_file(rel: &str) -> u32 {
    let first = rel.split(['/', '.']).next().unwrap();
    match first {
        "lib" => 5,
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
    let mut refs = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = &rest[..at];
            rest = &rest[at + "crate::".len()..];
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue; // e.g. `my_crate::`
            }
            if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap();
                for part in group.split(',') {
                    let item = part.trim().split("::").next().unwrap().trim();
                    if !item.is_empty() {
                        refs.insert(item.to_string());
                    }
                }
            } else {
                let item: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                refs.insert(item);
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
    // Circles between modules (sibling imports within one layer included).
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
    std::fs::write(dir.join("shm/mod.rs"), "use crate::{sys, sync::Flag};\n").unwrap();
    let bad = violations(&dir);
    let _ = std::fs::remove_dir_all(&dir);
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
