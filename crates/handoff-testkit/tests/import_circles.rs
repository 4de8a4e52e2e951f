//! No crate of the workspace imports in a circle: in every member's `src/`, the graph of
//! which file names which (`crate::a::b`, `super::x`, `use crate::a::{b, c::d}`) has no
//! cycle. A file's own parent and children do not count (a `mod.rs` declares and re-exports
//! its children; a child uses its parent's items), nor do re-exports (`pub use`) in `mod.rs` /
//! `lib.rs` / `main.rs`, nor test modules (`#[cfg(test)]` ends a file's scan). Reads the
//! sources, so it builds nothing it checks. `/work/shared/tools/rust_imports.py` draws the
//! same graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;
type Graph = BTreeMap<Module, BTreeSet<Module>>;

/// Every `.rs` file under `src` by its module path (`a/b.rs` and `a/b/mod.rs` → `[a, b]`;
/// `lib.rs` / `main.rs` → `[]`).
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(src).unwrap().with_extension("");
            let mut m: Module = rel
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                m.pop();
            }
            (m, p)
        })
        .collect()
}

/// The paths a line of code names: each `crate::…` / `super::…` path as segments from the
/// crate root, `{…}` groups (on one line) expanded one level. `own` is the line's module.
fn paths_in(code: &str, own: &[String]) -> Vec<Module> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let Some(i) = rest
            .find("crate::")
            .into_iter()
            .chain(rest.find("super::"))
            .min()
        else {
            break;
        };
        let start = at + i;
        at = start + 1;
        if code[..start].ends_with(word) {
            continue; // `my_crate::`, `handoff_lab::`
        }
        // Leading `crate` / `super`s.
        let mut s = &code[start..];
        let mut base: Module = Vec::new();
        if let Some(r) = s.strip_prefix("crate::") {
            s = r;
        } else {
            base = own.to_vec();
            while let Some(r) = s.strip_prefix("super::") {
                base.pop();
                s = r;
            }
        }
        // Segments, then an optional group.
        loop {
            let seg: String = s.chars().take_while(|&c| word(c)).collect();
            if seg.is_empty() {
                break;
            }
            s = &s[seg.len()..];
            base.push(seg);
            match s.strip_prefix("::") {
                Some(r) => s = r,
                None => break,
            }
        }
        if let Some(group) = s.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            for part in group.split(',') {
                let mut p = base.clone();
                p.extend(
                    part.trim()
                        .split("::")
                        .map(|x| x.trim().to_string())
                        .filter(|x| !x.is_empty() && x != "self" && x.chars().all(word)),
                );
                out.push(p);
            }
        } else {
            out.push(base);
        }
        at = start + 1;
    }
    out
}

/// Which file names which, in the crate whose sources are under `src`.
fn graph(src: &Path) -> Graph {
    let mods = modules(src);
    let resolve = |path: &[String]| -> Option<Module> {
        (1..=path.len())
            .rev()
            .map(|k| path[..k].to_vec())
            .find(|p| mods.contains_key(p))
    };
    let mut g = Graph::new();
    for (m, file) in &mods {
        let edges = g.entry(m.clone()).or_default();
        let root = file
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs" || n == "main.rs");
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines() {
            let code = line.split("//").next().unwrap();
            if code.contains("#[cfg(test)]") {
                break;
            }
            let t = code.trim_start();
            let reexport = t.starts_with("pub use ")
                || (t.starts_with("pub(")
                    && t.split(')')
                        .nth(1)
                        .is_some_and(|r| r.trim_start().starts_with("use ")));
            if root && reexport {
                continue;
            }
            for p in paths_in(code, m) {
                if let Some(t) = resolve(&p) {
                    if !t.starts_with(m) && !m.starts_with(&t) {
                        edges.insert(t);
                    }
                }
            }
        }
    }
    g
}

/// The strongly connected components of more than one file (Tarjan).
fn circles(g: &Graph) -> Vec<Vec<Module>> {
    struct St<'a> {
        g: &'a Graph,
        next: usize,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(s: &mut St<'a>, v: &'a Module) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on.insert(v);
        for w in &s.g[v] {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut c = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                c.push(w.clone());
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                c.sort();
                s.out.push(c);
            }
        }
    }
    let mut s = St {
        g,
        next: 0,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "lib".into()
    } else {
        m.join("/")
    }
}

/// The workspace's member directories, from the root `Cargo.toml`'s `members = [...]`.
fn members(root: &Path) -> Vec<PathBuf> {
    let toml = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let list = toml
        .split("members")
        .nth(1)
        .and_then(|r| r.split('[').nth(1))
        .and_then(|r| r.split(']').next())
        .expect("the workspace Cargo.toml lists its members");
    list.split(',')
        .map(|m| m.split('#').next().unwrap().trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| root.join(m))
        .collect()
}

#[test]
fn no_crate_of_the_workspace_imports_in_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let crates = members(&root);
    assert!(crates.len() >= 5, "members: {crates:?}");
    let mut bad = Vec::new();
    for dir in crates {
        let src = dir.join("src");
        assert!(src.is_dir(), "{} has no src/", dir.display());
        for c in circles(&graph(&src)) {
            let names: Vec<String> = c.iter().map(name).collect();
            bad.push(format!("{}: {}", src.display(), names.join(" <-> ")));
        }
    }
    assert!(bad.is_empty(), "import circles:\n{}", bad.join("\n"));
}

/// The check sees a circle through `super::`, `crate::` groups and a child-of-a-sibling, and
/// ignores parent/child links and `mod.rs` re-exports.
#[test]
fn the_graph_finds_circles_and_only_circles() {
    let dir = std::env::temp_dir().join(format!("handoff-import-circles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
    write("lib.rs", "mod a;\nmod b;\nmod c;\npub use b::X;\n");
    write(
        "a/mod.rs",
        "mod x;\npub use x::Y; // re-export: not an edge\nuse crate::c::Z;\n",
    );
    write(
        "a/x.rs",
        "use super::super::b::X;\nuse super::Q; // own parent: not an edge\n",
    );
    write("b.rs", "use crate::{c::Z, lib_item};\n");
    write(
        "c.rs",
        "#[cfg(test)]\nuse crate::a::x::Y; // test code: not an edge\n",
    );
    let g = graph(&dir);
    assert!(circles(&g).is_empty(), "{g:?}");
    // Close the circle a/x -> b -> c -> a/x (a names c but nothing names a itself).
    write("c.rs", "fn f() { let _ = crate::a::x::Y; }\n");
    let c = circles(&graph(&dir));
    let names: Vec<Vec<String>> = c.iter().map(|c| c.iter().map(name).collect()).collect();
    assert_eq!(names, vec![vec!["a/x", "b", "c"]], "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
