//! The documents say only what the code does: every `handoff ...` command quoted in a fenced
//! shell block of README.md, CONTRIBUTING.md, docs/*.md and the crate READMEs names a real
//! subcommand, and each of its `--flags` is one that subcommand accepts (checked against its
//! `--help`); the README's library example is the crate's first doc test, word for word.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn documents() -> Vec<PathBuf> {
    let r = root();
    let mut v = vec![r.join("README.md"), r.join("CONTRIBUTING.md")];
    for dir in [
        "docs",
        "crates/handoff-capi",
        "crates/handoff-mpi",
        "crates/handoff-shmem",
        "python",
    ] {
        if let Ok(rd) = std::fs::read_dir(r.join(dir)) {
            v.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "md")),
            );
        }
    }
    v.retain(|p| p.exists());
    v
}

/// The fenced blocks of `text` whose info string is `lang`, as their lines.
fn blocks(text: &str, lang: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // Inside a fence: Some(true) when its language is `lang` (its lines are kept).
    let mut fence: Option<bool> = None;
    for line in text.lines() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => {
                    let keep = info.trim() == lang;
                    if keep {
                        out.push(Vec::new());
                    }
                    Some(keep)
                }
            };
            continue;
        }
        if fence == Some(true) {
            if let Some(b) = out.last_mut() {
                b.push(line.to_string());
            }
        }
    }
    out
}

/// The `handoff` invocations of a shell line: after `handoff ` or `handoff-cli -- `, up to a
/// comment, a pipe or `&&`.
fn invocations(line: &str) -> Vec<Vec<String>> {
    let line = line.split(" #").next().unwrap_or("");
    let mut out = Vec::new();
    for part in line.split(['|', ';']).flat_map(|p| p.split("&&")) {
        let p = part.trim();
        let rest = if let Some(i) = p.find("handoff-cli -- ") {
            &p[i + "handoff-cli -- ".len()..]
        } else if let Some(r) = p.strip_prefix("handoff ") {
            r
        } else if let Some(i) = p.find("/handoff ") {
            &p[i + "/handoff ".len()..]
        } else {
            continue;
        };
        out.push(rest.split_whitespace().map(String::from).collect());
    }
    out
}

#[test]
fn every_quoted_command_and_flag_exists() {
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for block in blocks(&text, "sh") {
            for line in &block {
                for words in invocations(line) {
                    // The subcommand: the leading words that are not flags, placeholders or
                    // file names.
                    let sub: Vec<&str> = words
                        .iter()
                        .map(String::as_str)
                        .take_while(|w| {
                            w.starts_with(|c: char| c.is_ascii_lowercase())
                                && w.chars().all(|c| {
                                    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
                                })
                        })
                        .filter(|w| !w.starts_with('-'))
                        .take(2)
                        .collect();
                    let mut args: Vec<&str> = sub.clone();
                    args.push("--help");
                    let out = handoff(&args);
                    let help = String::from_utf8_lossy(&out.stdout);
                    assert!(
                        out.status.success(),
                        "{}: `handoff {}` is not a command: {}",
                        doc.display(),
                        sub.join(" "),
                        String::from_utf8_lossy(&out.stderr)
                    );
                    for w in &words {
                        let flag = w
                            .trim_start_matches('[')
                            .split(['=', ']'])
                            .next()
                            .unwrap_or("");
                        if flag.starts_with("--") && flag.len() > 2 && flag != "--help" {
                            assert!(
                                help.contains(&format!("{flag} "))
                                    || help.contains(&format!("{flag}\n")),
                                "{}: `handoff {}` has no flag {flag} (line: {line})",
                                doc.display(),
                                sub.join(" ")
                            );
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked >= 10,
        "only {checked} commands found in the documents"
    );
}

#[test]
fn the_readme_library_example_is_the_doc_test() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let example = blocks(&readme, "rust")
        .into_iter()
        .next()
        .expect("a rust block in README.md");
    let lib = std::fs::read_to_string(root().join("crates/handoff/src/lib.rs")).unwrap();
    let doc: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).to_string())
        .collect();
    let test = blocks(&doc.join("\n"), "")
        .into_iter()
        .next()
        .expect("a doc test in lib.rs");
    let visible: Vec<String> = test.into_iter().filter(|l| !l.starts_with("# ")).collect();
    assert_eq!(
        example, visible,
        "README.md's example differs from lib.rs's doc test"
    );
}
