//! Unit tests of `kneighbor`.

use super::*;

#[test]
fn neighbours_and_placements_by_hand() {
    assert_eq!(neighbours(0, 7, 3), vec![4, 5, 6, 1, 2, 3]);
    assert_eq!(neighbours(5, 7, 1), vec![4, 6]);
    let cpus = [0, 1];
    let compact: Vec<_> = (0..7)
        .map(|i| Placement::Compact.cpu_of(i, 7, &cpus))
        .collect();
    assert_eq!(compact, [0, 0, 0, 0, 1, 1, 1].map(Some));
    let spread: Vec<_> = (0..7)
        .map(|i| Placement::Spread.cpu_of(i, 7, &cpus))
        .collect();
    assert_eq!(spread, [0, 1, 0, 1, 0, 1, 0].map(Some));
    let seed = Placement::List(vec![0, 2, 4, 6, 1, 3, 5]);
    assert_eq!(seed.cpu_of(3, 7, &cpus), Some(6));
    assert_eq!(seed.name(), "cpus 0,2,4,6,1,3,5");
    assert_eq!(Placement::Os.cpu_of(3, 7, &cpus), None);
}

#[test]
fn oversubscribed_threads_complete_and_verify() {
    // 7 PEs on one CPU: only adaptive/blocking waits let this finish.
    let cfg = Config {
        sizes: vec![100],
        iters: 20,
        reps: 2,
        runs: 1,
        cpus: vec![0],
        ..Config::for_report(true, &[0])
    };
    let tool = crate::schema::Tool::default();
    let machine = crate::schema::Machine::default();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut prog = crate::progress::Silent;
    let ctx = RunCtx {
        quick: true,
        machine: &machine,
        tool: &tool,
        exe: "/nonexistent".into(),
        args: vec![],
        allowed_cpus: &[0],
        cancel: &cancel,
        progress: &mut prog,
        transports: Vec::new(),
    };
    let (s, [checked, wrong]) =
        one_run(&cfg, 100, &Placement::Compact, Mode::Threads, &ctx).unwrap();
    assert!(
        checked > 0 && wrong == 0,
        "{checked} checked, {wrong} wrong"
    );
    assert_eq!(s.len(), 2);
    assert!(s.iter().all(|x| x.is_finite() && *x > 0.0));
}

#[test]
fn bad_configs_are_refused() {
    let good = Config::for_report(true, &[0, 1]);
    assert!(good.validate().is_ok());
    for bad in [
        Config {
            pes: 6,
            ..good.clone()
        },
        Config {
            k: 0,
            ..good.clone()
        },
        Config {
            sizes: vec![0],
            ..good.clone()
        },
        Config {
            iters: 0,
            ..good.clone()
        },
        Config {
            pes: 256,
            k: 64,
            sizes: vec![16 << 20],
            ..good.clone()
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
    }
}
