//! The C ABI from C: test programs in `tests/c/` compiled with the README's command
//! (`cc app.c $(pkg-config --cflags --libs handoff)`, with the `handoff.pc` this build wrote)
//! and run as separate processes under a watchdog.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use handoff_testkit::Kid;

const WATCHDOG: Duration = Duration::from_secs(60);

/// `target/<profile>`: this test runs from `target/<profile>/deps`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .and_then(Path::parent)
        .expect("test binary in target/<profile>/deps")
        .to_path_buf()
}

/// Compiles `src` (relative to the crate) into the test's temp dir the way the README says
/// a user does; returns the executable.
pub fn compile(src: &str) -> PathBuf {
    let pc_path = profile_dir().join("pkgconfig");
    assert!(
        pc_path.join("handoff.pc").exists(),
        "the build did not write {}/handoff.pc",
        pc_path.display()
    );
    let flags = Command::new("pkg-config")
        .args(["--cflags", "--libs", "handoff"])
        .env("PKG_CONFIG_PATH", &pc_path)
        .output()
        .expect("pkg-config is needed to build the C tests (apt-get install pkg-config)");
    assert!(flags.status.success(), "pkg-config: {flags:?}");
    let flags = String::from_utf8(flags.stdout).expect("pkg-config prints UTF-8");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(src.file_stem().expect("a file name"))
        .with_extension("exe");
    // `cargo test` leaves the library it just built in `deps/` (only `cargo build` copies it
    // up to target/<profile>, where handoff.pc points): search there first, so the C
    // programs always run this build's library.
    let deps = profile_dir().join("deps");
    let out = Command::new("cc")
        .args(["-std=gnu11", "-O1", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg(format!("-L{}", deps.display()))
        .arg(format!("-Wl,-rpath,{}", deps.display()))
        .args(flags.split_whitespace())
        .output()
        .expect("a C compiler `cc` is needed to build the C tests");
    assert!(
        out.status.success(),
        "cc {} failed:\n{}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn roundtrip_exe() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| compile("tests/c/roundtrip.c"))
}

fn unique(tag: &str) -> String {
    format!("capi-{tag}-{}", std::process::id())
}

fn run(exe: &Path, args: &[&str]) -> Kid {
    let mut cmd = Command::new(exe);
    // Cargo's LD_LIBRARY_PATH (which wins over the rpath) may name a stale copy of the
    // library: the programs find this build's through their rpath alone.
    cmd.args(args)
        .stdin(Stdio::null())
        .env_remove("LD_LIBRARY_PATH");
    Kid::command(cmd, WATCHDOG)
}

/// Closed form of the sum the C programs print: block i holds u32 words i*1000003 + j.
fn expected_sum(blocks: u64, words: u64) -> u64 {
    words * 1_000_003 * (blocks * (blocks - 1) / 2) + blocks * (words * (words - 1) / 2)
}

#[test]
fn c_producer_and_c_consumer_round_trip_in_two_processes() {
    let exe = roundtrip_exe();
    let (blocks, bytes) = (300u64, 4096u64);
    let (n, b) = (blocks.to_string(), bytes.to_string());
    let mut producer = run(exe, &["produce", &unique("rt"), &n, &b]);
    let name = producer.expect_line("name=");
    let mut consumer = run(exe, &["consume", &name, &n, &b]);
    let want = expected_sum(blocks, bytes / 4).to_string();
    assert_eq!(producer.expect_line("sum="), want, "producer's sum");
    assert_eq!(consumer.expect_line("sum="), want, "consumer's sum");
    consumer.expect_line("closed");
    producer.wait_success();
    consumer.wait_success();
}

#[test]
fn bad_handles_and_misuse_return_error_codes() {
    let exe = compile("tests/c/misuse.c");
    let mut kid = run(&exe, &[&unique("misuse")]);
    let summary = kid.expect_line("checks=");
    assert!(summary.ends_with("failed=0"), "misuse.c: checks={summary}");
    kid.wait_success();
}

/// Each blocking call's three forms (handle's patience, `_timeout`, `try_`) wait by their
/// own rule (issue #43).
#[test]
fn each_blocking_call_has_three_forms() {
    let exe = compile("tests/c/forms.c");
    let mut kid = run(&exe, &[&unique("forms")]);
    let summary = kid.expect_line("checks=");
    assert!(summary.ends_with("failed=0"), "forms.c: checks={summary}");
    kid.wait_success();
}

#[test]
fn a_dead_producer_ends_the_consumers_wait_with_peer_gone() {
    let exe = roundtrip_exe();
    let mut producer = run(exe, &["hang", &unique("dead")]);
    let name = producer.expect_line("name=");
    let mut consumer = run(exe, &["wait", &name]);
    consumer.expect_line("waiting");
    producer.kill();
    assert_eq!(consumer.expect_line("code="), "HANDOFF_E_PEER_GONE");
    let msg = consumer.expect_line("message=");
    assert!(msg.contains("died"), "message: {msg}");
    consumer.wait_success();
    // The killed producer's channel is ours to remove.
    let _ = std::fs::remove_file(format!("/dev/shm{name}"));
}

/// An error's advice names the C call to use, never a Rust-only option (the channel of
/// another shape used to say "the same ChannelConfig the creator used").
#[test]
fn errors_name_the_c_calls_not_rust_options() {
    let exe = roundtrip_exe();
    let mut producer = run(exe, &["hang", &unique("shape")]);
    let name = producer.expect_line("name=");
    let mut opener = run(exe, &["misopen", &name]);
    assert_eq!(opener.expect_line("code="), "HANDOFF_E_MISMATCH");
    let msg = opener.expect_line("message=");
    assert!(
        msg.contains("handoff_channel_create") && !msg.contains("ChannelConfig"),
        "message: {msg}"
    );
    opener.wait_success();
    producer.kill();
    // The killed producer's channel is ours to remove.
    let _ = std::fs::remove_file(format!("/dev/shm{name}"));
}

#[test]
fn the_c_example_builds() {
    compile("../../examples/c/simulation.c");
}
