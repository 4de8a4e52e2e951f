//! Unit tests of `rma-channels`: data verified on threads (oversubscribed), a corrupted
//! transfer caught, the plan, the flags' checks, and the findings on hand-made records.

use super::*;
use crate::bench::{Holds, MetricRecord};

fn point(method: Method, layout: Layout, n: usize, size: usize, granularity: usize) -> Point {
    Point {
        processes: false,
        layout,
        n,
        method,
        granularity,
        size,
        per: 40,
        corrupt_at: None,
    }
}

#[test]
fn every_method_and_layout_delivers_every_byte_once_oversubscribed() {
    // 3 producers + 3 consumers on at most 2 CPUs (pinned round-robin over 0, 1).
    let cpus = [0usize, 1];
    for method in [Method::Msg, Method::Rma] {
        for layout in [Layout::Xpyc, Layout::Xconn] {
            // 13 B: not a multiple of 8; 200 KiB: several 64 KiB frames per message.
            for (size, g) in [(13usize, 8usize), (64, 4096), (200 << 10, 8)] {
                let pt = point(method, layout, 3, size, g);
                let out = threads::run(&pt, &cpus).unwrap();
                let what = format!("{} {size} B", pt.series());
                assert!(out.seen.complete(pt.per), "{what}: {:?}", out.seen);
                assert_eq!(out.seen.checked, 3 * pt.per, "{what}");
                assert_eq!(out.lat_mean_us.len(), 3, "{what}");
                assert!(out.bytes_per_s > 0.0, "{what}");
            }
        }
    }
}

#[test]
fn a_corrupted_transfer_fails_verification() {
    for method in [Method::Msg, Method::Rma] {
        for layout in [Layout::Xpyc, Layout::Xconn] {
            let pt = Point {
                corrupt_at: Some(7),
                ..point(method, layout, 2, 4096, 8)
            };
            let out = threads::run(&pt, &[0]).unwrap();
            assert_eq!(out.seen.wrong, 1, "{}", pt.series());
            assert!(!out.seen.complete(pt.per), "{}", pt.series());
        }
    }
}

#[test]
fn the_coarse_granularity_runs_only_where_it_pads() {
    let cfg = Config {
        sizes: vec![64, 4096],
        n: vec![1],
        layouts: vec![Layout::Xconn],
        processes: false,
        ..Config::for_report(true, &[0])
    };
    let labels: Vec<String> = cfg
        .points()
        .iter()
        .map(|p| format!("{} {}", p.method_label(), p.size))
        .collect();
    assert_eq!(
        labels,
        ["msg 64", "rma 64", "rma 4K 64", "msg 4096", "rma 4096"]
    );
    // Processes run XConn only; n from processes_n.
    let cfg = Config {
        processes_n: vec![2],
        ..Config::for_report(true, &[0])
    };
    assert!(cfg
        .points()
        .iter()
        .filter(|p| p.processes)
        .all(|p| p.layout == Layout::Xconn && p.n == 2));
}

#[test]
fn bad_configurations_are_refused_before_anything_runs() {
    let ok = Config::for_report(true, &[0]);
    ok.validate().unwrap();
    for (bad, needle) in [
        (
            Config {
                sizes: vec![0],
                ..ok.clone()
            },
            "--sizes",
        ),
        (
            Config {
                sizes: vec![MAX_SIZE + 1],
                ..ok.clone()
            },
            "--sizes",
        ),
        (
            Config {
                granularities: vec![3000],
                ..ok.clone()
            },
            "--rma-granularity",
        ),
        (
            Config {
                n: vec![0],
                ..ok.clone()
            },
            "--n",
        ),
        (
            Config {
                n: vec![MAX_N + 1],
                ..ok.clone()
            },
            "--n",
        ),
        (
            Config {
                layouts: vec![],
                ..ok.clone()
            },
            "--layout",
        ),
        (
            Config {
                runs: 0,
                ..ok.clone()
            },
            "--runs",
        ),
        (
            Config {
                threads: false,
                layouts: vec![Layout::Xpyc],
                ..ok.clone()
            },
            "XConn",
        ),
    ] {
        let e = bad.validate().unwrap_err();
        assert!(matches!(e, BenchError::Usage { .. }), "{e}");
        assert!(e.to_string().contains(needle), "{e}");
    }
}

/// A record of `series` at `size` whose three run means of bytes/s are `rate` ± 1%.
fn rec(series: &str, size: usize, rate: f64) -> BenchRecord {
    let m = MetricRecord::from_runs(
        "B/s",
        true,
        &[vec![rate], vec![rate * 1.01], vec![rate * 0.99]],
    )
    .unwrap();
    let method = series.rsplit(", ").next().unwrap_or("").to_string();
    let n: usize = series
        .split('×')
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or(1);
    BenchRecord::new(series, size as f64, 3, 10, true)
        .param("method", method)
        .param("n", n)
        .metric("bytes_per_s", m)
}

fn results(recs: Vec<BenchRecord>) -> BenchResults {
    let mut r = BenchResults::new(
        NAME,
        Default::default(),
        Default::default(),
        Default::default(),
    );
    r.records = recs;
    r
}

#[test]
fn the_crossover_is_named_where_the_intervals_separate() {
    // Messages win at 64 B and 512 B, puts from 4 KiB on: "below 4 KiB send messages".
    let on = "threads, XConn×1";
    let mut recs = Vec::new();
    for (size, msg, rma) in [
        (64, 2.0, 1.0),
        (512, 2.0, 1.5),
        (4096, 1.0, 2.0),
        (1 << 20, 1.0, 3.0),
    ] {
        recs.push(rec(&format!("{on}, msg"), size, msg));
        recs.push(rec(&format!("{on}, rma"), size, rma));
    }
    let res = results(recs.clone());
    let c = crossover(&res).unwrap();
    assert_eq!(c.size(), Some(4096));
    let f = c.finding();
    assert_eq!(f.holds, Holds::Yes, "{}", f.sentence);
    assert!(
        f.sentence.contains("below 4KiB send messages"),
        "{}",
        f.sentence
    );
    assert!(recommendation(&res).unwrap().contains("4KiB"));
    // Finding 4 at 4 KiB and 1 MiB (both > 512 B): puts win at both → holds.
    let f4 = &findings(&res)[0];
    assert!(f4.claim.contains("Finding 4"), "{}", f4.claim);
    assert_eq!(f4.holds, Holds::Yes, "{}", f4.sentence);

    // A tie at 4 KiB between a message win and a put win: no size named.
    let mut tie = recs.clone();
    tie[4] = rec(&format!("{on}, msg"), 4096, 1.0);
    tie[5] = wide_rec(&format!("{on}, rma"), 4096);
    let res = results(tie);
    let c = crossover(&res).unwrap();
    assert_eq!(c.size(), None);
    assert_eq!(c.finding().holds, Holds::Inconclusive);
    assert!(
        c.finding().sentence.contains("overlap"),
        "{}",
        c.finding().sentence
    );

    // Messages win everywhere: Finding 4 does not hold, and the advice is "messages".
    let mut msg_wins = Vec::new();
    for size in [64, 4096, 1 << 20] {
        msg_wins.push(rec(&format!("{on}, msg"), size, 2.0));
        msg_wins.push(rec(&format!("{on}, rma"), size, 1.0));
    }
    let res = results(msg_wins);
    assert_eq!(crossover(&res).unwrap().size(), None);
    assert_eq!(findings(&res)[0].holds, Holds::No);
    assert!(recommendation(&res)
        .unwrap()
        .contains("send messages (handoff::queue"));
}

/// A record whose interval is wide (run means 0.5, 1.5, 2.5): a tie with 1.
fn wide_rec(series: &str, size: usize) -> BenchRecord {
    let m = MetricRecord::from_runs("B/s", true, &[vec![0.5], vec![1.5], vec![2.5]]).unwrap();
    BenchRecord::new(series, size as f64, 3, 10, true)
        .param("method", "rma")
        .param("n", 1)
        .metric("bytes_per_s", m)
}

#[test]
fn findings_5_and_6_compare_threads_and_connections() {
    let s = 1 << 20;
    let res = results(vec![
        // One connection shared by 4 threads: 1.5× one thread (so Finding 5 does not hold).
        rec("threads, XPYC×1, rma", s, 1.0),
        rec("threads, XPYC×4, rma", s, 1.5),
        // Connections: 4 give 2× one (helps), 6 give 2.02× (four suffice).
        rec("processes, XConn×1, rma", s, 1.0),
        rec("processes, XConn×4, rma", s, 2.0),
        rec("processes, XConn×6, rma", s, 2.02),
    ]);
    let f = findings(&res);
    let by = |needle: &str| f.iter().find(|x| x.claim.contains(needle)).unwrap();
    let f5 = by("Finding 5");
    assert_eq!(f5.holds, Holds::No, "{}", f5.sentence);
    let help = by("improve");
    assert_eq!(help.holds, Holds::Yes, "{}", help.sentence);
    let suffice = by("suffice");
    assert_eq!(suffice.holds, Holds::Yes, "{}", suffice.sentence);
    // Six connections 1.5× four: four do not suffice.
    let res = results(vec![
        rec("processes, XConn×1, rma", s, 1.0),
        rec("processes, XConn×4, rma", s, 2.0),
        rec("processes, XConn×6, rma", s, 3.0),
    ]);
    let f = findings(&res);
    let suffice = f.iter().find(|x| x.claim.contains("suffice")).unwrap();
    assert_eq!(suffice.holds, Holds::No, "{}", suffice.sentence);
}
