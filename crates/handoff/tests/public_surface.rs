//! The public surface has a ceiling: every public item of the crate — each name reachable
//! from outside (`handoff::sync::Flag`), its signature, its public methods and fields, the
//! traits it implements — is listed in `tests/public_surface.txt`, and this test fails on any
//! addition, removal or change until that file is updated on purpose:
//!
//! ```sh
//! HANDOFF_BLESS=1 cargo test -p handoff --test public_surface
//! ```
//!
//! The list is read from the source with `syn` (stable Rust has no rustdoc JSON): it follows
//! `pub mod` and `pub use` from `lib.rs` through the private files, as a user of the crate
//! sees them. Items compiled only for tests or loom are not part of the surface. The header
//! counts the *default* surface — what a user of the crate without features sees — and its
//! error types; items behind a feature (`diagnostics`, `implementor`) are marked with it
//! (`[diagnostics]`), listed in a section of their own per feature and counted apart.
#![cfg(not(loom))]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::{Attribute, Item, UseTree, Visibility};

/// One module of the crate: its items (cfg-filtered) and whether it is `pub`.
struct Module {
    items: Vec<Item>,
    public: bool,
    /// The features its declaration needs (`#[cfg(feature = "x")]`), outermost first.
    features: Vec<String>,
}

type ModPath = Vec<String>;

/// Whether an item is compiled in a normal build (not only for tests or loom), and the
/// features it needs.
fn cfg_of(attrs: &[Attribute]) -> Option<Vec<String>> {
    let mut features = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("cfg")) {
        let text = a.meta.to_token_stream().to_string().replace(' ', "");
        // `cfg(not(loom))`, `cfg(target_os="linux")` and the like are on in a normal build.
        if ["cfg(test)", "cfg(loom)", "cfg(doctest)"].contains(&text.as_str())
            || text.starts_with("cfg(all(test")
            || text.starts_with("cfg(all(doctest")
        {
            return None;
        }
        if text.starts_with("cfg(all(loom") || text.starts_with("cfg(any(test,loom") {
            return None;
        }
        // `cfg(feature="x")`, also inside `all(..)`/`any(..)`; `not(feature="x")` needs none.
        let mut rest = text.as_str();
        while let Some(i) = rest.find("feature=\"") {
            let negated = rest[..i].ends_with("not(");
            let after = &rest[i + "feature=\"".len()..];
            let end = after.find('"').expect("a closed feature name");
            if !negated {
                features.push(after[..end].to_string());
            }
            rest = &after[end..];
        }
    }
    Some(features)
}

fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        _ => &[],
    }
}

/// Reads the module tree from `file` down.
fn load(
    mods: &mut BTreeMap<ModPath, Module>,
    path: ModPath,
    file: &Path,
    public: bool,
    features: Vec<String>,
) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    // Children of `lib.rs`/`mod.rs` live beside it; those of `x.rs` in `x/`.
    let stem = file.file_stem().unwrap().to_str().unwrap();
    let dir: PathBuf = if stem == "lib" || stem == "mod" {
        file.parent().unwrap().to_path_buf()
    } else {
        file.with_extension("")
    };
    add(mods, path, parsed.items, &dir, public, features);
}

fn add(
    mods: &mut BTreeMap<ModPath, Module>,
    path: ModPath,
    items: Vec<Item>,
    dir: &Path,
    public: bool,
    features: Vec<String>,
) {
    let mut kept = Vec::new();
    for item in items {
        let Some(f) = cfg_of(item_attrs(&item)) else {
            continue;
        };
        if let Item::Mod(m) = &item {
            let mut child = path.clone();
            child.push(m.ident.to_string());
            let pub_child = public && matches!(m.vis, Visibility::Public(_));
            let mut feats = features.clone();
            feats.extend(f);
            match &m.content {
                Some((_, inner)) => add(
                    mods,
                    child,
                    inner.clone(),
                    &dir.join(m.ident.to_string()),
                    pub_child,
                    feats,
                ),
                None => {
                    let own = m.attrs.iter().find(|a| a.path().is_ident("path"));
                    let file = match own {
                        Some(a) => {
                            let lit: syn::LitStr = match &a.meta {
                                syn::Meta::NameValue(nv) => {
                                    syn::parse2(nv.value.to_token_stream()).unwrap()
                                }
                                _ => panic!("odd #[path]"),
                            };
                            dir.join(lit.value())
                        }
                        None => {
                            let flat = dir.join(format!("{}.rs", m.ident));
                            if flat.exists() {
                                flat
                            } else {
                                dir.join(m.ident.to_string()).join("mod.rs")
                            }
                        }
                    };
                    load(mods, child, &file, pub_child, feats);
                }
            }
            continue;
        }
        kept.push(item);
    }
    mods.insert(
        path,
        Module {
            items: kept,
            public,
            features,
        },
    );
}

/// Token text with the spaces `to_string` puts around punctuation taken out.
fn tidy(tokens: impl ToTokens) -> String {
    let mut s = tokens.to_token_stream().to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" ::", "::"),
        ("& ", "&"),
        (" ,", ","),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        ("- >", "->"),
        (" :", ":"),
        (" ;", ";"),
        ("' ", "'"),
        ("# [", "#["),
        ("! [", "!["),
        ("* const", "*const"),
        ("* mut", "*mut"),
        ("? ", "?"),
        (" (", "("),
    ] {
        s = s.replace(from, to);
    }
    s.replace("->", " -> ").replace("  ", " ")
}

fn is_pub(v: &Visibility) -> bool {
    matches!(v, Visibility::Public(_))
}

fn derives(attrs: &[Attribute]) -> String {
    let mut out = Vec::new();
    for a in attrs {
        if a.path().is_ident("derive") || a.path().is_ident("non_exhaustive") {
            out.push(tidy(&a.meta));
        }
    }
    if out.is_empty() {
        String::new()
    } else {
        format!(" #[{}]", out.join(", "))
    }
}

/// Where a name used in module `at` is defined: (module, name), following `use` items.
fn resolve(
    mods: &BTreeMap<ModPath, Module>,
    at: &ModPath,
    name: &str,
    depth: u32,
) -> Option<(ModPath, String)> {
    assert!(depth < 16, "use cycle resolving {name} in {at:?}");
    let m = mods.get(at)?;
    let defines = m
        .items
        .iter()
        .any(|i| item_name(i).as_deref() == Some(name));
    if defines {
        return Some((at.clone(), name.to_string()));
    }
    for item in &m.items {
        if let Item::Use(u) = item {
            let mut found = None;
            let mut globs = Vec::new();
            walk_use(&u.tree, Vec::new(), &mut |mut segs, alias| {
                if alias == "*" {
                    segs.pop();
                    segs.push(name.to_string());
                    globs.push(segs);
                } else if alias == name && found.is_none() {
                    found = Some(segs);
                }
            });
            if let Some(segs) = found {
                return follow(mods, at, &segs, depth);
            }
            if let Some(hit) = globs.iter().find_map(|g| follow(mods, at, g, depth)) {
                return Some(hit);
            }
        }
    }
    None
}

/// Resolves a use path (`self::x::Y`, `super::Y`, `crate::a::Y`, `x::Y`) from module `at`.
fn follow(
    mods: &BTreeMap<ModPath, Module>,
    at: &ModPath,
    segs: &[String],
    depth: u32,
) -> Option<(ModPath, String)> {
    let mut cur = at.clone();
    let (last, head) = segs.split_last()?;
    for (i, s) in head.iter().enumerate() {
        match s.as_str() {
            "self" => {}
            "super" => {
                cur.pop();
            }
            "crate" if i == 0 => cur.clear(),
            _ => {
                let mut next = cur.clone();
                next.push(s.clone());
                if !mods.contains_key(&next) {
                    return None; // another crate (std, libc, ...)
                }
                cur = next;
            }
        }
    }
    resolve(mods, &cur, last, depth + 1)
}

/// Calls `f(path, name_as_used)` for each leaf of a use tree.
fn walk_use(tree: &UseTree, prefix: Vec<String>, f: &mut dyn FnMut(Vec<String>, String)) {
    match tree {
        UseTree::Path(p) => {
            let mut next = prefix;
            next.push(p.ident.to_string());
            walk_use(&p.tree, next, f);
        }
        UseTree::Name(n) => {
            let mut full = prefix;
            full.push(n.ident.to_string());
            let alias = n.ident.to_string();
            f(full, alias);
        }
        UseTree::Rename(r) => {
            let mut full = prefix;
            full.push(r.ident.to_string());
            f(full, r.rename.to_string());
        }
        UseTree::Group(g) => {
            for t in &g.items {
                walk_use(t, prefix.clone(), f);
            }
        }
        UseTree::Glob(_) => {
            let mut full = prefix;
            full.push("*".into());
            f(full, "*".into());
        }
    }
}

fn item_name(item: &Item) -> Option<String> {
    Some(match item {
        Item::Const(i) => i.ident.to_string(),
        Item::Enum(i) => i.ident.to_string(),
        Item::Fn(i) => i.sig.ident.to_string(),
        Item::Static(i) => i.ident.to_string(),
        Item::Struct(i) => i.ident.to_string(),
        Item::Trait(i) => i.ident.to_string(),
        Item::Type(i) => i.ident.to_string(),
        Item::Union(i) => i.ident.to_string(),
        _ => return None,
    })
}

/// The definition's signature lines (the item itself, then its public parts).
fn render(item: &Item, shown: &str) -> Vec<String> {
    let mut out = Vec::new();
    match item {
        Item::Fn(f) => {
            let mut sig = f.sig.clone();
            sig.ident = syn::Ident::new(shown, sig.ident.span());
            out.push(format!("pub {}", tidy(&sig)));
        }
        Item::Const(c) => out.push(format!("pub const {shown}: {}", tidy(&c.ty))),
        Item::Static(s) => out.push(format!("pub static {shown}: {}", tidy(&s.ty))),
        Item::Type(t) => out.push(format!(
            "pub type {shown}{} = {}",
            tidy(&t.generics),
            tidy(&t.ty)
        )),
        Item::Struct(s) => {
            out.push(format!(
                "pub struct {shown}{}{}",
                tidy(&s.generics),
                derives(&s.attrs)
            ));
            for (i, field) in s.fields.iter().enumerate() {
                if is_pub(&field.vis) {
                    let name = field
                        .ident
                        .as_ref()
                        .map_or_else(|| i.to_string(), ToString::to_string);
                    out.push(format!("  field {name}: {}", tidy(&field.ty)));
                }
            }
        }
        Item::Union(u) => out.push(format!("pub union {shown}{}", tidy(&u.generics))),
        Item::Enum(e) => {
            out.push(format!(
                "pub enum {shown}{}{}",
                tidy(&e.generics),
                derives(&e.attrs)
            ));
            for v in &e.variants {
                let mut v = v.clone();
                v.attrs.clear();
                for f in v.fields.iter_mut() {
                    f.attrs.clear();
                }
                out.push(format!("  variant {}", tidy(&v)));
            }
        }
        Item::Trait(t) => {
            let unsafety = if t.unsafety.is_some() { "unsafe " } else { "" };
            let sup = if t.supertraits.is_empty() {
                String::new()
            } else {
                format!(": {}", tidy(&t.supertraits))
            };
            out.push(format!(
                "pub {unsafety}trait {shown}{}{sup}",
                tidy(&t.generics)
            ));
            for ti in &t.items {
                if cfg_of(trait_item_attrs(ti)).is_none() {
                    continue;
                }
                match ti {
                    syn::TraitItem::Fn(f) => {
                        let default = if f.default.is_some() {
                            " (provided)"
                        } else {
                            ""
                        };
                        out.push(format!("  {}{default}", tidy(&f.sig)));
                    }
                    syn::TraitItem::Type(ty) => out.push(format!("  type {}", tidy(&ty.ident))),
                    syn::TraitItem::Const(c) => {
                        out.push(format!("  const {}: {}", c.ident, tidy(&c.ty)))
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    out
}

fn trait_item_attrs(ti: &syn::TraitItem) -> &[Attribute] {
    match ti {
        syn::TraitItem::Fn(f) => &f.attrs,
        syn::TraitItem::Type(t) => &t.attrs,
        syn::TraitItem::Const(c) => &c.attrs,
        _ => &[],
    }
}

/// The name of an impl's self type, if it is a plain path.
fn self_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

struct Surface {
    /// The default surface's entries (path, then its signature lines).
    lines: BTreeSet<String>,
    /// Each feature's entries: the items that need it (the first feature an item needs).
    featured: BTreeMap<String, BTreeSet<String>>,
    /// Public names of the default surface.
    names: usize,
    /// Its error types (names ending in `Error`, and `Result`).
    errors: Vec<String>,
}

fn surface() -> Surface {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let mut mods = BTreeMap::new();
    load(&mut mods, Vec::new(), &root, true, Vec::new());

    // Every public name: (its path, the module and name of its definition, its features).
    let mut public: BTreeMap<String, ((ModPath, String), Vec<String>)> = BTreeMap::new();
    for (path, m) in &mods {
        if !m.public {
            continue;
        }
        for item in &m.items {
            let mut feats = m.features.clone();
            feats.extend(cfg_of(item_attrs(item)).unwrap_or_default());
            match item {
                Item::Use(u) if is_pub(&u.vis) => {
                    walk_use(&u.tree, Vec::new(), &mut |segs, alias| {
                        assert!(alias != "*", "a glob `pub use` in {path:?}: list the names");
                        let def = follow(&mods, path, &segs, 0)
                            .unwrap_or_else(|| (vec!["<extern>".into()], segs.join("::")));
                        public.insert(join(path, &alias), (def, feats.clone()));
                    });
                }
                Item::Macro(_) => {}
                _ => {
                    let vis_pub = match item {
                        Item::Const(i) => is_pub(&i.vis),
                        Item::Enum(i) => is_pub(&i.vis),
                        Item::Fn(i) => is_pub(&i.vis),
                        Item::Static(i) => is_pub(&i.vis),
                        Item::Struct(i) => is_pub(&i.vis),
                        Item::Trait(i) => is_pub(&i.vis),
                        Item::Type(i) => is_pub(&i.vis),
                        Item::Union(i) => is_pub(&i.vis),
                        _ => false,
                    };
                    if let (true, Some(name)) = (vis_pub, item_name(item)) {
                        public.insert(join(path, &name), ((path.clone(), name), feats));
                    }
                }
            }
        }
    }

    // Inherent and trait impls, by the definition of their self type.
    let mut methods: BTreeMap<(ModPath, String), Vec<String>> = BTreeMap::new();
    for (path, m) in &mods {
        for item in &m.items {
            let Item::Impl(imp) = item else { continue };
            let Some(name) = self_name(&imp.self_ty) else {
                continue;
            };
            let Some(def) = resolve(&mods, path, &name, 0) else {
                continue;
            };
            let entry = methods.entry(def).or_default();
            match &imp.trait_ {
                Some((neg, tr, _)) => {
                    let neg = if neg.is_some() { "!" } else { "" };
                    let unsafety = if imp.unsafety.is_some() {
                        "unsafe "
                    } else {
                        ""
                    };
                    entry.push(format!(
                        "  {unsafety}impl{} {neg}{} for {}",
                        tidy(&imp.generics),
                        tidy(tr),
                        tidy(&imp.self_ty)
                    ));
                }
                None => {
                    for ii in &imp.items {
                        match ii {
                            syn::ImplItem::Fn(f) if is_pub(&f.vis) => {
                                if let Some(feats) = cfg_of(&f.attrs) {
                                    entry.push(format!("  {}pub {}", mark(&feats), tidy(&f.sig)));
                                }
                            }
                            syn::ImplItem::Const(c) if is_pub(&c.vis) => {
                                entry.push(format!("  pub const {}: {}", c.ident, tidy(&c.ty)))
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
    }

    let mut lines = BTreeSet::new();
    let mut featured: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut errors = Vec::new();
    for (shown_path, ((def_mod, def_name), feats)) in &public {
        let shown = shown_path.rsplit("::").next().unwrap();
        if feats.is_empty() && (shown.ends_with("Error") || shown == "Result") {
            errors.push(shown_path.clone());
        }
        let def = mods.get(def_mod).and_then(|m| {
            m.items
                .iter()
                .find(|i| item_name(i).as_deref() == Some(def_name))
        });
        let body = match def {
            Some(item) => render(item, shown),
            None => vec![format!("pub use {def_name}")],
        };
        let mut text = String::new();
        for (i, l) in body.iter().enumerate() {
            if i == 0 {
                let _ = write!(text, "{}{l}", mark(feats));
            } else {
                let _ = write!(text, "\n{l}");
            }
        }
        if let Some(ms) = methods.get(&(def_mod.clone(), def_name.clone())) {
            let mut ms = ms.clone();
            ms.sort();
            for l in ms {
                let _ = write!(text, "\n{l}");
            }
        }
        let entry = format!("{shown_path}\n{text}");
        match feats.first() {
            None => lines.insert(entry),
            Some(f) => featured.entry(f.clone()).or_default().insert(entry),
        };
    }
    Surface {
        names: lines.len(),
        errors,
        lines,
        featured,
    }
}

fn mark(feats: &[String]) -> String {
    if feats.is_empty() {
        String::new()
    } else {
        format!("[{}] ", feats.join(", "))
    }
}

fn join(path: &ModPath, name: &str) -> String {
    let mut p = path.clone();
    p.push(name.to_string());
    p.join("::")
}

fn render_all(s: &Surface) -> String {
    let mut out = String::from(
        "# The public surface of `handoff` (tests/public_surface.rs). Update on purpose with\n\
         # HANDOFF_BLESS=1 cargo test -p handoff --test public_surface\n",
    );
    let _ = writeln!(
        out,
        "# {} public names, {} error types: {}",
        s.names,
        s.errors.len(),
        s.errors.join(", ")
    );
    let apart: Vec<String> = s
        .featured
        .iter()
        .map(|(f, l)| format!("{f} {}", l.len()))
        .collect();
    let _ = writeln!(
        out,
        "# (the default features; counted apart, behind a feature: {})",
        if apart.is_empty() {
            "none".to_string()
        } else {
            apart.join(", ")
        }
    );
    for l in &s.lines {
        let _ = write!(out, "\n{l}\n");
    }
    for (f, ls) in &s.featured {
        let _ = write!(out, "\n# ---- behind the `{f}` feature ----\n");
        for l in ls {
            let _ = write!(out, "\n{l}\n");
        }
    }
    out
}

#[test]
fn the_public_surface_is_the_snapshot() {
    let s = surface();
    let now = render_all(&s);
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/public_surface.txt");
    if std::env::var_os("HANDOFF_BLESS").is_some() {
        std::fs::write(&file, &now).unwrap();
        return;
    }
    let before = std::fs::read_to_string(&file).unwrap_or_default();
    if before == now {
        return;
    }
    let old: BTreeSet<&str> = before.trim_end().split("\n\n").collect();
    let new: BTreeSet<&str> = now.trim_end().split("\n\n").collect();
    let mut msg = String::from(
        "the public surface changed; if on purpose, update the snapshot with\n  \
         HANDOFF_BLESS=1 cargo test -p handoff --test public_surface\n",
    );
    for gone in old.difference(&new) {
        let _ = writeln!(msg, "- {}", gone.replace('\n', "\n- "));
    }
    for added in new.difference(&old) {
        let _ = writeln!(msg, "+ {}", added.replace('\n', "\n+ "));
    }
    panic!("{msg}");
}

/// The reader itself: it sees the items a user sees, and nothing private.
#[test]
fn the_reader_finds_public_items_and_skips_private_ones() {
    let s = surface();
    let has = |p: &str| s.lines.iter().any(|l| l.starts_with(&format!("{p}\n")));
    assert!(has("sync::Flag"), "a re-exported struct");
    assert!(has("team::Team"), "a re-export under cfg(not(loom))");
    assert!(has("Error") && has("Result"), "the crate root's re-exports");
    assert!(!has("atomic::AtomicU32"), "a pub(crate) module's items");
    let flag = s
        .lines
        .iter()
        .find(|l| l.starts_with("sync::Flag\n"))
        .unwrap();
    assert!(
        flag.contains("pub fn store(&self"),
        "inherent methods: {flag}"
    );
    assert!(s.errors.iter().any(|e| e == "team::TeamError"));
}

/// The header's count is the default surface: an item behind a feature is listed (in its
/// feature's section) but not counted.
#[test]
fn feature_items_are_listed_apart_and_not_counted() {
    let s = surface();
    let in_feature = |f: &str, p: &str| {
        s.featured
            .get(f)
            .is_some_and(|ls| ls.iter().any(|l| l.starts_with(&format!("{p}\n"))))
    };
    assert!(in_feature("diagnostics", "sync::adaptive_stats"));
    assert!(in_feature("implementor", "implementor::poll_until"));
    assert!(!s
        .lines
        .iter()
        .any(|l| l.starts_with("sync::adaptive_stats\n")));
    assert_eq!(s.names, s.lines.len());
    let text = render_all(&s);
    let header = text.lines().nth(2).unwrap();
    assert!(
        header.starts_with(&format!("# {} public names, ", s.lines.len())),
        "{header}"
    );
}
