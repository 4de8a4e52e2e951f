//! The OpenSHMEM 1.5 C interface as a whole: the headers and the library agree name by name
//! (every routine shmem.h and shmemx.h declare is defined, every routine defined is
//! declared, each also under its profiling name), pshmem.h is generated from the headers'
//! own declarations, a program calling every routine (`tests/c/api.c`) builds through each
//! header in C11 and C++ with `-Wall -Wextra -Werror` and runs with its data checked, and a
//! tool wraps routines through the profiling interface (`tests/c/profile.c`).
//!
//! The headers' declarations come from the compiler (`gcc -aux-info`, which lists every
//! function a translation unit declares with its file, line and whether it is defined
//! there), the library's from `nm -D`. Without them the tests print a SKIP line.
//!
//! `HANDOFF_SHMEM_BLESS=1 cargo test -p handoff-shmem --test shmem pshmem_h` rewrites
//! `include/pshmem.h` after shmem.h or shmemx.h changed.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use handoff::sync::Wait;

use super::{build_with, crate_dir, lib_dir, passes_prog, run, work_dir};

/// One function a header declares, as `gcc -aux-info` reports it.
#[derive(Debug, Clone)]
struct Decl {
    name: String,
    ret: String,
    /// The parameter list as declared (types only for `extern`, with names for `static`).
    params: String,
    /// The parameter names of a function defined in the header (`static inline`).
    names: Option<Vec<String>>,
}

/// The functions declared (`extern`) and defined (`static inline`) by the headers under
/// `include/` that `code` includes, in order of appearance; `None` without gcc's
/// `-aux-info`.
fn header_decls(code: &str) -> Option<(Vec<Decl>, Vec<Decl>)> {
    let dir = work_dir().join(format!("aux-{}-{}", std::process::id(), code.len()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("decls.c");
    let aux = dir.join("decls.aux");
    std::fs::write(&src, code).unwrap();
    let inc = crate_dir().join("include");
    let ok = Command::new("cc")
        .args(["-std=c11", "-fsyntax-only", "-aux-info"])
        .arg(&aux)
        .arg(format!("-I{}", inc.display()))
        .arg(&src)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .is_some();
    let text = std::fs::read_to_string(&aux).ok().filter(|_| ok);
    let _ = std::fs::remove_dir_all(&dir);
    let text = text?;
    let inc = inc.display().to_string();
    let (mut ext, mut inl) = (Vec::new(), Vec::new());
    let mut seen = BTreeSet::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("/* ") else {
            continue;
        };
        let Some((place, decl)) = rest.split_once(" */ ") else {
            continue;
        };
        if !place.starts_with(&inc) || INTERNAL.iter().any(|i| decl.contains(i)) {
            continue;
        }
        let (is_static, decl) = match (decl.strip_prefix("extern "), decl.strip_prefix("static ")) {
            (Some(d), _) => (false, d),
            (_, Some(d)) => (true, d),
            _ => continue,
        };
        let open = decl.find(" (").expect("a declaration has a parameter list");
        let head = &decl[..open];
        let cut = head.rfind([' ', '*']).map_or(0, |i| i + 1);
        let (ret, name) = (head[..cut].trim().to_string(), head[cut..].to_string());
        let mut depth = 0;
        let close = decl[open + 1..]
            .char_indices()
            .find(|&(_, c)| {
                depth += i32::from(c == '(') - i32::from(c == ')');
                depth == 0
            })
            .map(|(i, _)| open + 1 + i)
            .expect("balanced parameter list");
        let params = decl[open + 2..close].replace("complex float", "float _Complex");
        let params = params.replace("complex double", "double _Complex");
        let names = is_static.then(|| {
            let c = decl
                .find("/* (")
                .expect("aux-info names a definition's parameters");
            let end = decl[c..].find(')').unwrap() + c;
            decl[c + 4..end]
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        });
        if !seen.insert(name.clone()) {
            continue;
        }
        let d = Decl {
            name,
            ret,
            params,
            names,
        };
        if is_static {
            inl.push(d);
        } else {
            ext.push(d);
        }
    }
    Some((ext, inl))
}

const HEADERS: &str = "#include <shmem.h>\n#include <shmemx.h>\n";

/// The text of `include/pshmem.h`, generated from shmem.h's and shmemx.h's declarations.
fn generate_pshmem_h(ext: &[Decl], inl: &[Decl]) -> String {
    let mut s = String::from(
        "/*\n * pshmem.h — the OpenSHMEM 1.5 profiling interface: every routine of shmem.h and\n \
         * shmemx.h under its profiling name (`p` and the routine's name: pshmem_putmem,\n \
         * pshmemx_ct_wait, pshmalloc, pstart_pes), as libhandoff_shmem defines it\n \
         * (src/profile.rs). A tool defines shmem_NAME and calls pshmem_NAME from it.\n *\n \
         * GENERATED from the headers' own declarations (gcc -aux-info) by\n \
         * crates/handoff-shmem/tests/api/mod.rs; do not edit. After changing shmem.h or\n \
         * shmemx.h: HANDOFF_SHMEM_BLESS=1 cargo test -p handoff-shmem --test shmem pshmem_h\n \
         */\n#ifndef HANDOFF_PSHMEM_H\n#define HANDOFF_PSHMEM_H\n\n#include <shmem.h>\n\
         #include <shmemx.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n",
    );
    for d in ext {
        let sp = if d.ret.ends_with('*') { "" } else { " " };
        s += &format!("{}{sp}p{}({});\n", d.ret, d.name, d.params);
    }
    s += "\n/* shmem.h's inline routines (the context forms, long double p/g and reductions) under\n \
          * their profiling names: a context form calls the profiling name of the routine\n \
          * without a context, the others shmem.h's inline routine. */\n";
    let inline_names: BTreeSet<&str> = inl.iter().map(|d| d.name.as_str()).collect();
    let ext_names: BTreeSet<&str> = ext.iter().map(|d| d.name.as_str()).collect();
    // Those calling shmem.h's inline routines first: the context forms may call them.
    let (ctx, plain): (Vec<&Decl>, Vec<&Decl>) = inl
        .iter()
        .filter(|d| d.name.starts_with("shmem_"))
        .partition(|d| {
            let base = d.name.replacen("shmem_ctx_", "shmem_", 1);
            d.name.starts_with("shmem_ctx_")
                && (ext_names.contains(base.as_str()) || inline_names.contains(base.as_str()))
        });
    for d in plain.into_iter().chain(ctx.iter().copied()) {
        let names = d.names.as_ref().unwrap();
        let is_ctx = d.name.starts_with("shmem_ctx_");
        let call = if is_ctx {
            assert!(
                names.first().map(String::as_str) == Some("ctx")
                    && names.last().map(String::as_str) == Some("pe"),
                "{}: a context form is (ctx, ..., pe)",
                d.name
            );
            let mut args: Vec<String> = names[1..names.len() - 1].to_vec();
            args.push("handoff_shmem_ctx_pe_(ctx, pe)".into());
            format!(
                "p{}({})",
                d.name.replacen("shmem_ctx_", "shmem_", 1),
                args.join(", ")
            )
        } else {
            format!("{}({})", d.name, names.join(", "))
        };
        let ret = if d.ret == "void" { "" } else { "return " };
        let sp = if d.ret.ends_with('*') { "" } else { " " };
        s += &format!(
            "static inline {}{sp}p{}({}) {{ {ret}{call}; }}\n",
            d.ret, d.name, d.params
        );
    }
    s += "\n#ifdef __cplusplus\n}\n#endif\n\n";
    s += &generic_names(&std::fs::read_to_string(crate_dir().join("include/shmem.h")).unwrap());
    s += "\n#endif /* HANDOFF_PSHMEM_H */\n";
    s
}

/// `text` with every routine name `shmem_*` shifted to `pshmem_*` (and shmem.h's own
/// helper macros `handoff_shmem_*`, `HANDOFF_SHMEM_CXX_*` to theirs); the type names stay.
fn shift_names(text: &str) -> String {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len() + 64);
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        if !word(prev) && text[i..].starts_with("shmem_") {
            out.push('p');
        }
        out.push(c);
        prev = c;
    }
    let mut out = out
        .replace("handoff_shmem_", "handoff_pshmem_")
        .replace("HANDOFF_SHMEM_CXX_", "HANDOFF_PSHMEM_CXX_");
    for t in ["shmem_ctx_t", "shmem_team_t", "shmem_team_config_t"] {
        let shifted = format!("p{t}");
        let mut fixed = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(&shifted) {
            let after = rest[at + shifted.len()..].chars().next().unwrap_or(' ');
            fixed += &rest[..at];
            fixed += if word(after) { &shifted } else { t };
            rest = &rest[at + shifted.len()..];
        }
        fixed += rest;
        out = fixed;
    }
    out
}

/// shmem.h's type-generic names under their profiling names: its C11 `_Generic` macros
/// (over the `HANDOFF_SHMEM_G_*` selections shmem.h defines) and its C++ overloads, with the
/// names shifted.
fn generic_names(shmem_h: &str) -> String {
    // Logical lines: a macro's continuation lines joined.
    let mut lines = Vec::new();
    let mut cur = String::new();
    for l in shmem_h.lines() {
        if let Some(head) = l.strip_suffix('\\') {
            cur += head;
            continue;
        }
        cur += l;
        lines.push(std::mem::take(&mut cur));
    }
    let (mut c11, mut cxx, mut sync) = (Vec::new(), Vec::new(), Vec::new());
    let mut region = 0;
    for l in &lines {
        if l.starts_with("#if defined(__STDC_VERSION__)") {
            region = 1;
        } else if l.starts_with("#endif /* C11 */") {
            region = 0;
        } else if l.starts_with("/* ---- C++: the generic names") {
            region = 2;
        } else if l.starts_with("#endif /* __cplusplus */") {
            region = 0;
        } else if l.starts_with("#define shmem_sync(") {
            sync.push(shift_names(l));
        } else if region == 1
            && (l.starts_with("#define shmem_") || l.starts_with("#define handoff_shmem_"))
        {
            c11.push(shift_names(l));
        } else if region == 2
            && (l.starts_with("inline ")
                || l.starts_with("HANDOFF_SHMEM_CXX_")
                || l.starts_with("#define HANDOFF_SHMEM_CXX_"))
        {
            cxx.push(shift_names(l));
        }
    }
    assert!(
        c11.len() > 100 && cxx.len() > 500 && sync.len() == 1,
        "shmem.h's generic sections were not found ({} C11 lines, {} C++ lines)",
        c11.len(),
        cxx.len()
    );
    format!(
        "/* shmem.h's type-generic names under their profiling names: C11 _Generic selections\n \
         * (HANDOFF_SHMEM_G_* of shmem.h) and C++ overloads. */\n\
         #if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)\n\
         {}\n#endif /* C11 */\n\n#ifdef __cplusplus\n{}\n#endif /* __cplusplus */\n\n{}\n",
        c11.join("\n"),
        cxx.join("\n"),
        sync.join("\n")
    )
}

fn skip(test: &str, why: &str) {
    eprintln!("SKIP: {test}: {why}");
}

#[test]
fn pshmem_h_declares_the_profiling_name_of_every_routine() {
    let Some((ext, inl)) = header_decls(HEADERS) else {
        return skip(
            "pshmem_h_declares_the_profiling_name_of_every_routine",
            "cc has no -aux-info (not gcc)",
        );
    };
    let path = crate_dir().join("include/pshmem.h");
    let text = generate_pshmem_h(&ext, &inl);
    if std::env::var_os("HANDOFF_SHMEM_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    // What pshmem.h declares, read back by the compiler: exactly `p` + every routine.
    let (pext, pinl) = header_decls("#include <pshmem.h>\n").unwrap();
    let want: BTreeSet<String> = ext.iter().map(|d| format!("p{}", d.name)).collect();
    let got: BTreeSet<String> = pext
        .iter()
        .map(|d| d.name.clone())
        .filter(|n| !ext.iter().any(|d| &d.name == n))
        .collect();
    let missing: Vec<_> = want.difference(&got).collect();
    let extra: Vec<_> = got.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "include/pshmem.h is stale (missing {missing:?}, extra {extra:?}): run \
         HANDOFF_SHMEM_BLESS=1 cargo test -p handoff-shmem --test shmem pshmem_h"
    );
    let want_inl: BTreeSet<String> = inl
        .iter()
        .filter(|d| d.name.starts_with("shmem_"))
        .map(|d| format!("p{}", d.name))
        .collect();
    let got_inl: BTreeSet<String> = pinl
        .iter()
        .map(|d| d.name.clone())
        .filter(|n| n.starts_with("pshmem_"))
        .collect();
    assert_eq!(
        want_inl, got_inl,
        "pshmem.h's inline routines are stale: bless it (see the module docs)"
    );
    if std::fs::read_to_string(&path).unwrap() != text {
        // Another gcc may print the same types differently: the names above are what counts.
        eprintln!("note: include/pshmem.h differs in text from this compiler's rendering");
    }
    eprintln!(
        "pshmem.h: {} routines, {} inline forms",
        want.len(),
        want_inl.len()
    );
}

/// The names `nm -D` lists as defined in `libhandoff_shmem.so`, or `None` without `nm`.
fn library_symbols() -> Option<BTreeSet<String>> {
    let o = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(lib_dir().join("libhandoff_shmem.so"))
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                let (_, kind, name) = (f.next()?, f.next()?, f.next()?);
                matches!(kind, "T" | "W").then(|| name.to_string())
            })
            .collect(),
    )
}

/// The library's own internal entry point the inline context forms call.
const INTERNAL: &[&str] = &["handoff_shmem_ctx_pe"];

#[test]
fn the_library_defines_what_the_headers_declare_each_with_its_profiling_name() {
    let test = "the_library_defines_what_the_headers_declare_each_with_its_profiling_name";
    let Some((ext, _)) = header_decls(HEADERS) else {
        return skip(test, "cc has no -aux-info (not gcc)");
    };
    let Some(lib) = library_symbols() else {
        return skip(test, "nm is not installed");
    };
    let declared: BTreeSet<String> = ext.iter().map(|d| d.name.clone()).collect();
    let undefined: Vec<_> = declared.iter().filter(|n| !lib.contains(*n)).collect();
    assert!(
        undefined.is_empty(),
        "declared, not in the library: {undefined:?}"
    );
    let no_profile: Vec<_> = declared
        .iter()
        .filter(|n| !lib.contains(&format!("p{n}")))
        .collect();
    assert!(no_profile.is_empty(), "no profiling name: {no_profile:?}");
    // Every routine the library exports is declared (the profiling names are their p-twins).
    let undeclared: Vec<_> = lib
        .iter()
        .filter(|n| !declared.contains(*n) && !INTERNAL.contains(&n.as_str()))
        .filter(|n| !n.strip_prefix('p').is_some_and(|b| declared.contains(b)))
        .collect();
    assert!(
        undeclared.is_empty(),
        "exported, not declared: {undeclared:?}"
    );
    let shmem = declared.iter().filter(|n| n.starts_with("shmem_")).count();
    assert!(shmem > 1000, "only {shmem} shmem_ routines");
    eprintln!(
        "{} routines declared and defined ({shmem} shmem_*), each with its p-name",
        declared.len()
    );
}

/// Builds `tests/c/api.c` against header `h` (see api.c) in C11 or as C++.
fn build_api(h: u32, cxx: bool) -> PathBuf {
    let def = format!("-DAPI_HEADER={h}");
    if cxx {
        build_with(
            "api",
            "api_cxx.cpp",
            &format!("-cxx-h{h}"),
            &[&def],
            &[("CC", "c++")],
        )
    } else {
        build_with("api", "api.c", &format!("-h{h}"), &[&def], &[])
    }
}

/// Header names for the messages.
const API_HEADERS: [&str; 5] = [
    "shmem.h",
    "shmemx.h",
    "mpp/shmem.h",
    "mpp/shmemx.h",
    "pshmem.h",
];

#[test]
fn every_routine_through_each_header_in_c_and_cxx() {
    // shmem.h in C on 1, 2 and 4 PEs; every header in C and C++ on 2 PEs (handoff run -n 2).
    passes_prog("api", &build_api(0, false));
    for cxx in [false, true] {
        for (h, name) in API_HEADERS.iter().enumerate() {
            let prog = build_api(h as u32, cxx);
            let o = run(&prog, 2, &[], Wait::ADAPTIVE);
            assert!(
                o.report.success() && o.out[0].contains("OK api 2 PEs"),
                "api through {name} ({}): {:?}\n{}",
                if cxx { "C++" } else { "C11" },
                o.report.exits,
                o.all_err()
            );
        }
    }
    // Started with shmem_init and with the deprecated start_pes instead of init_thread.
    for (h, how) in [(0, "init"), (0, "start_pes"), (4, "init"), (4, "start_pes")] {
        let o = run(&build_api(h, false), 2, &[how], Wait::ADAPTIVE);
        assert!(
            o.report.success(),
            "{how} ({}): {}",
            API_HEADERS[h as usize],
            o.all_err()
        );
    }
}

#[test]
fn every_routine_is_called_by_a_test_program() {
    let test = "every_routine_is_called_by_a_test_program";
    let Some((ext, _)) = header_decls(HEADERS) else {
        return skip(test, "cc has no -aux-info (not gcc)");
    };
    let progs = [
        build_api(0, false),
        build_api(1, false),
        build_api(0, true),
        super::build("ct"),
        super::build("misuse"),
    ];
    let mut called = BTreeSet::new();
    for p in &progs {
        let Some(o) = Command::new("nm")
            .arg("-u")
            .arg(p)
            .output()
            .ok()
            .filter(|o| o.status.success())
        else {
            return skip(test, "nm is not installed");
        };
        for l in String::from_utf8_lossy(&o.stdout).lines() {
            if let Some(n) = l.split_whitespace().last() {
                called.insert(n.split('@').next().unwrap().to_string());
            }
        }
    }
    let never: Vec<_> = ext
        .iter()
        .map(|d| d.name.as_str())
        .filter(|n| !called.contains(*n))
        .collect();
    assert!(
        never.is_empty(),
        "routines no test program calls: {never:?}"
    );
    // The profiling names, through pshmem.h (the counting puts and shmem_global_exit, which
    // ends the program, are called by their own names only: the names are checked to exist
    // above).
    let mut pcalled = BTreeSet::new();
    for p in [build_api(4, false), build_api(4, true)] {
        let o = Command::new("nm").arg("-u").arg(&p).output().unwrap();
        for l in String::from_utf8_lossy(&o.stdout).lines() {
            if let Some(n) = l.split_whitespace().last() {
                pcalled.insert(n.split('@').next().unwrap().to_string());
            }
        }
    }
    let pnever: Vec<_> = ext
        .iter()
        .map(|d| format!("p{}", d.name))
        .filter(|n| !pcalled.contains(n))
        .filter(|n| !n.contains("_ct") && n != "pshmem_global_exit")
        .collect();
    assert!(
        pnever.is_empty(),
        "profiling names api.c does not call: {pnever:?}"
    );
}

#[test]
fn a_tool_wraps_routines_through_their_profiling_names() {
    passes_prog("profile", &super::build("profile"));
}

#[test]
fn a_tool_wraps_routines_with_the_static_library() {
    // The archive's shmem_* are not weak (stable Rust cannot say so): the tool's own
    // definitions win with --allow-multiple-definition, the documented way.
    let prog = build_with(
        "profile",
        "profile.c",
        "-static",
        &["-Wl,--allow-multiple-definition"],
        &[("OSHCC_STATIC", "1")],
    );
    passes_prog("profile", &prog);
}

#[test]
fn a_preloaded_tool_library_wraps_an_unmodified_program() {
    let lib = work_dir().join(format!("libprofile_tool-{}.so", std::process::id()));
    let o = Command::new("cc")
        .args([
            "-std=c11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
        ])
        .arg(format!("-I{}", crate_dir().join("include").display()))
        .arg("-o")
        .arg(&lib)
        .arg(crate_dir().join("tests/c/profile_tool.c"))
        .arg(format!("-L{}", lib_dir().display()))
        .arg("-lhandoff_shmem")
        .output()
        .expect("run cc");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let preload = lib.display().to_string();
    let o = super::run_env(
        &super::build("rma"),
        2,
        &[],
        Wait::ADAPTIVE,
        &[("LD_PRELOAD", &preload)],
    );
    assert!(o.report.success(), "{}", o.all_err());
    assert!(o.out[0].contains("OK rma 2 PEs"), "{}", o.out[0]);
    for (r, err) in o.err.iter().enumerate() {
        let line = err
            .lines()
            .find(|l| l.starts_with("tool: "))
            .unwrap_or_default();
        let n: Vec<u64> = line
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        // rma.c calls shmem_putmem once and shmem_barrier_all many times on every PE.
        assert!(
            n.len() == 2 && n[0] >= 1 && n[1] >= 10,
            "PE {r}: the tool saw {line:?}\n{err}"
        );
    }
    let _ = std::fs::remove_file(&lib);
}

#[test]
fn an_allocation_without_room_returns_null_and_says_why_under_shmem_debug() {
    // api.c checks the NULLs and the heap afterwards; SHMEM_DEBUG adds the reason.
    let o = super::run_env(
        &build_api(0, false),
        1,
        &[],
        Wait::ADAPTIVE,
        &[("SHMEM_DEBUG", "1")],
    );
    assert!(o.report.success(), "{}", o.all_err());
    assert!(
        o.err[0].contains(
            "handoff-shmem: PE 0: debug: an allocation returns NULL: the symmetric heap has \
             no room for 1099511627776 bytes"
        ),
        "{}",
        o.err[0]
    );
}
