//! Unit tests of `channels`.

use super::*;

fn ctx_parts() -> (
    crate::schema::Machine,
    crate::schema::Tool,
    std::sync::atomic::AtomicBool,
    crate::progress::Silent,
) {
    Default::default()
}

#[test]
fn both_layouts_deliver_everything_once() {
    let cfg = Config {
        count: 6000,
        ..Config::for_report(true, &[0, 1])
    };
    let (machine, tool, cancel, mut prog) = ctx_parts();
    let ctx = RunCtx {
        quick: true,
        machine: &machine,
        tool: &tool,
        exe: "/nonexistent".into(),
        args: vec![],
        allowed_cpus: &[0],
        cancel: &cancel,
        progress: &mut prog,
    };
    for layout in [Layout::Xpyc, Layout::Xconn] {
        let (rate, seen) = one_run(&cfg, layout, false, 3, &ctx).unwrap();
        assert!(rate > 0.0);
        assert!(verify(&seen, 3, 2000), "{layout:?}");
        assert_eq!(seen.iter().map(|s| s.lat_us.len()).sum::<usize>(), 6000);
    }
}

#[test]
fn a_lost_or_duplicated_message_fails_verification() {
    let mut s = Seen::new(2);
    for seq in 0..4 {
        s.take(&make(0, seq), 0);
        s.take(&make(1, seq), 0);
    }
    assert!(verify(&[s.clone()], 2, 4));
    // A duplicate of producer 1's message 2 in place of its message 3: same count, wrong sum.
    let mut dup = Seen::new(2);
    for (i, seq) in [0, 1, 2, 2].into_iter().enumerate() {
        dup.take(&make(0, i as u64), 0);
        dup.take(&make(1, seq), 0);
    }
    assert!(!verify(&[dup], 2, 4));
    let mut torn = make(0, 0);
    torn[3] ^= 1;
    let mut t = Seen::new(1);
    t.take(&torn, 0);
    assert!(!t.ok);
}
