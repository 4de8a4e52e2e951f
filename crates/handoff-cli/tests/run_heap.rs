//! `handoff run`'s heap size: `--heap`, else OpenSHMEM's `SHMEM_SYMMETRIC_SIZE`, else
//! `HANDOFF_HEAP_SIZE`, else a default bounded by the free shared memory. The PEs are shell
//! one-liners: only the launcher's reading of the size is tested here (the PE side is in
//! `crates/handoff-shmem/tests/shmem.rs`).

mod common;

use common::{run_cmd, BIN};
use std::process::{Command, Output};

fn run(env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut c = Command::new(BIN);
    c.env_remove("SHMEM_SYMMETRIC_SIZE")
        .env_remove("HANDOFF_HEAP_SIZE")
        .arg("run")
        .args(args)
        .args(["--", "true"]);
    for (k, v) in env {
        c.env(k, v);
    }
    run_cmd(&mut c)
}

#[test]
fn shmem_symmetric_size_sets_the_heap_unless_heap_is_given() {
    // A size no machine has: the launcher must refuse it (so it read the variable).
    let huge = [("SHMEM_SYMMETRIC_SIZE", "900000G")];
    let o = run(&huge, &["-n", "1"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    // --heap wins over the variable.
    let o = run(&huge, &["-n", "1", "--heap", "1M"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    // The variable wins over HANDOFF_HEAP_SIZE.
    let both = [
        ("SHMEM_SYMMETRIC_SIZE", "1M"),
        ("HANDOFF_HEAP_SIZE", "900000G"),
    ];
    assert_eq!(run(&both, &["-n", "1"]).status.code(), Some(0));
    let o = run(&[("SHMEM_SYMMETRIC_SIZE", "4Q")], &["-n", "1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("SHMEM_SYMMETRIC_SIZE") && err.contains("4Q"),
        "{err}"
    );
}

#[test]
fn the_default_heap_fits_the_free_memory() {
    // Without any size the default (256 MiB, or less when memory is short) starts.
    assert_eq!(run(&[], &["-n", "2"]).status.code(), Some(0));
}
