//! `handoff report --plan [--sysfs DIR]`: the plan and its estimate for a large machine's
//! sysfs tree, nothing run; bad trees are one-line usage errors.

mod common;

use common::handoff;
use handoff_probe::topology::synth::SynthMachine;

#[test]
fn plan_for_a_192_core_server_prints_classes_and_an_estimate() {
    let dir = std::env::temp_dir().join(format!("handoff-cli-plan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    SynthMachine::server_2s_192c().write(&dir).unwrap();
    let out = handoff(&["report", "--plan", "--sysfs", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "384 CPUs allowed of 384",
        "smt-sibling   1 of 1 CPUs: 192",
        "shared-l3     3 of 14 CPUs",
        "cross-numa    3 of 192 CPUs: 96,191,383",
        "estimated duration:",
    ] {
        assert!(text.contains(want), "{want:?} missing from:\n{text}");
    }
    // Nothing ran: no report folder was made.
    assert!(!text.contains("results.json"));
}

#[test]
fn plan_with_a_missing_sysfs_tree_is_a_usage_error() {
    let out = handoff(&["report", "--plan", "--sysfs", "/nonexistent-handoff-sysfs"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--sysfs /nonexistent-handoff-sysfs"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
