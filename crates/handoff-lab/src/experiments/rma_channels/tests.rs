//! Unit tests of `rma-channels`: data verified on threads (oversubscribed), a corrupted
//! transfer caught, the plan, the flags' checks, and the findings on hand-made records.

use super::*;
use crate::bench::experiment::assert_each_refused_naming;
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
                assert_eq!(out.lat_us.len(), 3, "{what}");
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
    // Processes run both layouts, n from processes_n.
    let cfg = Config {
        processes_n: vec![2],
        ..Config::for_report(true, &[0])
    };
    let procs: Vec<Point> = cfg.points().into_iter().filter(|p| p.processes).collect();
    assert!(procs.iter().all(|p| p.n == 2));
    for layout in [Layout::Xpyc, Layout::Xconn] {
        assert!(procs.iter().any(|p| p.layout == layout), "{layout:?}");
    }
}

#[test]
fn bad_configurations_are_refused_before_anything_runs() {
    let ok = Config::for_report(true, &[0]);
    ok.validate().unwrap();
    assert_each_refused_naming(
        &ok,
        Config::validate,
        &[
            (|c| c.sizes = vec![0], "--sizes"),
            (|c| c.sizes = vec![MAX_SIZE + 1], "--sizes"),
            (|c| c.granularities = vec![3000], "--rma-granularity"),
            (|c| c.n = vec![0], "--n"),
            (|c| c.n = vec![MAX_N + 1], "--n"),
            (|c| c.layouts = vec![], "--layout"),
            (|c| c.runs = 0, "--runs"),
        ],
    );
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

/// The size N of "below N send messages, above it put", when the verdict names one: the
/// interpolated crossing, or the smallest size when puts win everywhere they win at all.
fn named_size(c: &Crossover) -> Option<usize> {
    match c.verdict() {
        Verdict::Between { estimate, .. } => Some(estimate),
        Verdict::RmaFrom(n) => Some(n),
        _ => None,
    }
}

fn results(recs: Vec<BenchRecord>) -> BenchResults {
    let mut r = BenchResults::empty(NAME);
    r.records = recs;
    r
}

/// Records of messages and puts on one connection (threads) at each (size, msg, rma) rate.
fn pairs(rates: &[(usize, f64, f64)]) -> Vec<BenchRecord> {
    let on = "threads, XConn×1";
    let mut recs = Vec::new();
    for &(size, msg, rma) in rates {
        recs.push(rec(&format!("{on}, msg"), size, msg));
        recs.push(rec(&format!("{on}, rma"), size, rma));
    }
    recs
}

#[test]
fn the_crossover_is_named_where_the_intervals_separate() {
    // Messages win at 64 B and 512 B, puts from 4 KiB on: the crossing lies between 512 B
    // and 4 KiB, where the ratios 0.75 and 2 cross 1 on log-log: 512 · 8^0.293 ≈ 940 B.
    let recs = pairs(&[
        (64, 2.0, 1.0),
        (512, 2.0, 1.5),
        (4096, 1.0, 2.0),
        (1 << 20, 1.0, 3.0),
    ]);
    let res = results(recs.clone());
    let c = crossover(&res).unwrap();
    let Verdict::Between {
        msg_up_to,
        rma_from,
        estimate,
        ..
    } = c.verdict()
    else {
        panic!("{:?}", c.verdict());
    };
    assert_eq!((msg_up_to, rma_from), (512, 4096));
    assert!((930..=950).contains(&estimate), "{estimate}");
    assert_eq!(named_size(&c), Some(estimate));
    let f = c.finding();
    assert_eq!(f.holds, Holds::Yes, "{}", f.sentence);
    assert!(
        f.sentence.contains("below about 940B send messages")
            && f.sentence.contains("between 512B")
            && f.sentence.contains("and 4KiB"),
        "{}",
        f.sentence
    );
    let advice = recommendation(&res).unwrap();
    assert!(
        advice.contains("below about 940B send messages") && advice.contains("puts at 4KiB"),
        "{advice}"
    );
    // Finding 4 at 4 KiB and 1 MiB (both > 512 B): puts win at both → holds.
    let f4 = &findings(&res)[0];
    assert!(f4.claim.contains("Finding 4"), "{}", f4.claim);
    assert_eq!(f4.holds, Holds::Yes, "{}", f4.sentence);

    // Ties between the last message win and the first put win widen the bracket.
    let res = results(pairs(&[
        (64, 2.0, 1.0),
        (4096, 2.0, 1.0),
        (64 << 10, 1.0, 1.0),
        (256 << 10, 1.0, 1.0),
        (1 << 20, 1.0, 2.0),
        (4 << 20, 1.0, 3.0),
    ]));
    let c = crossover(&res).unwrap();
    assert!(
        matches!(c.verdict(), Verdict::Between { msg_up_to: 4096, rma_from: 0x10_0000, estimate, .. } if (4096..=1 << 20).contains(&estimate)),
        "{:?}",
        c.verdict()
    );

    // A tie at 4 KiB between a message win and a put win still brackets it: 512 B .. 1 MiB.
    let mut tie = recs.clone();
    tie[4] = rec("threads, XConn×1, msg", 4096, 1.0);
    tie[5] = wide_rec("threads, XConn×1, rma", 4096);
    let c = crossover(&results(tie)).unwrap();
    assert!(
        matches!(
            c.verdict(),
            Verdict::Between {
                msg_up_to: 512,
                rma_from: 0x10_0000,
                ..
            }
        ),
        "{:?}",
        c.verdict()
    );

    // Messages win everywhere: Finding 4 does not hold, and the advice is "messages".
    let res = results(pairs(&[
        (64, 2.0, 1.0),
        (4096, 2.0, 1.0),
        (1 << 20, 2.0, 1.0),
    ]));
    assert_eq!(crossover(&res).unwrap().verdict(), Verdict::MsgEverywhere);
    assert_eq!(named_size(&crossover(&res).unwrap()), None);
    assert_eq!(findings(&res)[0].holds, Holds::No);
    assert!(recommendation(&res)
        .unwrap()
        .contains("send messages (handoff::queue"));

    // Puts from 1 MiB on, ties below: "from 1 MiB on put".
    let res = results(pairs(&[
        (64, 1.0, 1.0),
        (4096, 1.0, 1.0),
        (1 << 20, 1.0, 2.0),
    ]));
    assert_eq!(
        crossover(&res).unwrap().verdict(),
        Verdict::RmaFrom(1 << 20)
    );

    // Puts win at 8 B (no frame to fill), messages from 64 B to 64 KiB, puts at 1 MiB, a tie
    // at 4 MiB: the crossover lies between 64 KiB and 1 MiB, and the 8-byte win is named.
    let mut recs = pairs(&[
        (8, 1.0, 3.0),
        (64, 2.0, 1.0),
        (64 << 10, 2.0, 1.0),
        (1 << 20, 1.0, 2.0),
    ]);
    recs.push(rec("threads, XConn×1, msg", 4 << 20, 1.0));
    recs.push(wide_rec("threads, XConn×1, rma", 4 << 20));
    let res = results(recs);
    let c = crossover(&res).unwrap();
    assert!(
        matches!(&c.verdict(), Verdict::Between { msg_up_to: 0x1_0000, rma_from: 0x10_0000, rma_below, .. } if rma_below == &[8]),
        "{:?}",
        c.verdict()
    );
    let f = c.finding();
    assert_eq!(f.holds, Holds::Yes);
    assert!(f.sentence.contains("puts also win at 8B"), "{}", f.sentence);
    assert!(
        recommendation(&res)
            .unwrap()
            .contains("puts also win at 8B"),
        "{}",
        recommendation(&res).unwrap()
    );
}

#[test]
fn the_crossover_is_inconclusive_only_with_a_reason() {
    // Messages win up to 64 KiB, then the intervals contain 1 up to the largest size.
    let mut recs = pairs(&[(64, 2.0, 1.0), (64 << 10, 2.0, 1.0)]);
    recs.push(rec("threads, XConn×1, msg", 1 << 20, 1.0));
    recs.push(wide_rec("threads, XConn×1, rma", 1 << 20));
    let c = crossover(&results(recs)).unwrap();
    let f = c.finding();
    assert_eq!(f.holds, Holds::Inconclusive, "{}", f.sentence);
    assert!(
        f.sentence.contains("messages win up to 64KiB") && f.sentence.contains("contain 1"),
        "{}",
        f.sentence
    );
    assert_eq!(named_size(&c), None);
    // A tie at 64 B, messages win at the largest size: no size above it to name.
    let mut recs = vec![
        rec("threads, XConn×1, msg", 64, 1.0),
        wide_rec("threads, XConn×1, rma", 64),
    ];
    recs.extend(pairs(&[(64 << 10, 2.0, 1.0)]));
    let f = crossover(&results(recs)).unwrap().finding();
    assert_eq!(f.holds, Holds::Inconclusive, "{}", f.sentence);
    assert!(
        f.sentence
            .contains("messages win at the largest size measured (64KiB)")
            && !f.sentence.contains("()"),
        "{}",
        f.sentence
    );
    // Every interval contains 1.
    let mut recs = Vec::new();
    for size in [64, 4096] {
        recs.push(rec("threads, XConn×1, msg", size, 1.0));
        recs.push(wide_rec("threads, XConn×1, rma", size));
    }
    let res = results(recs);
    let c = crossover(&res).unwrap();
    assert_eq!(c.finding().holds, Holds::Inconclusive);
    assert!(
        c.finding().sentence.contains("contain 1 at every size"),
        "{}",
        c.finding().sentence
    );
    assert!(
        recommendation(&res).unwrap().contains("no crossover size"),
        "{}",
        recommendation(&res).unwrap()
    );
}

#[test]
fn interleaved_runs_are_judged_per_round() {
    // Runs whose level drifts 1, 2, 3 with puts 1.2× messages in every round: the ratio of
    // means cannot tell (their spreads overlap), the ratio per round can.
    let on = "threads, XConn×1";
    let drifting = |series: &str, size: usize, f: f64| {
        let m =
            MetricRecord::from_runs("B/s", true, &[vec![f], vec![2.0 * f], vec![3.0 * f]]).unwrap();
        BenchRecord::new(series, size as f64, 3, 10, true)
            .param("n", 1)
            .metric("bytes_per_s", m)
    };
    let recs = vec![
        drifting(&format!("{on}, msg"), 4096, 1.2),
        drifting(&format!("{on}, rma"), 4096, 1.0),
        drifting(&format!("{on}, msg"), 1 << 20, 1.0),
        drifting(&format!("{on}, rma"), 1 << 20, 1.2),
    ];
    let mut res = results(recs);
    let c = crossover(&res).unwrap();
    assert!(c.by_size.iter().all(|(_, _, s)| *s == findings::Side::Tie));
    res.config = serde_json::json!({ "interleaved": true });
    let c = crossover(&res).unwrap();
    let sides: Vec<findings::Side> = c.by_size.iter().map(|x| x.2).collect();
    assert_eq!(sides, [findings::Side::Msg, findings::Side::Rma]);
    assert!((c.by_size[1].1.ratio - 1.2).abs() < 1e-9);
    assert!(matches!(
        c.verdict(),
        Verdict::Between {
            msg_up_to: 4096,
            rma_from: 0x10_0000,
            ..
        }
    ));
}

#[test]
fn the_crossover_sizes_run_on_its_connection_only() {
    let cfg = Config {
        sizes: vec![64, 1 << 20],
        crossover_sizes: vec![4096],
        granularities: vec![8],
        n: vec![1, 2],
        ..Config::for_report(true, &[0])
    };
    let at = |processes: bool, layout: Layout, n: usize| -> Vec<usize> {
        let mut v: Vec<usize> = cfg
            .points()
            .iter()
            .filter(|p| p.processes == processes && p.layout == layout && p.n == n)
            .map(|p| p.size)
            .collect();
        v.dedup();
        v
    };
    assert_eq!(at(false, Layout::Xconn, 1), [64, 4096, 1 << 20]);
    assert_eq!(at(false, Layout::Xconn, 2), [64, 1 << 20]);
    assert_eq!(at(false, Layout::Xpyc, 1), [64, 1 << 20]);
    assert_eq!(at(true, Layout::Xconn, 1), [64, 1 << 20]);
    // Without threads, the processes' connection is the crossover's.
    let cfg = Config {
        threads: false,
        ..cfg
    };
    let v: Vec<usize> = cfg
        .points()
        .iter()
        .filter(|p| p.n == 1 && p.layout == Layout::Xconn)
        .map(|p| p.size)
        .collect();
    assert!(v.contains(&4096), "{v:?}");
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

#[test]
fn every_pair_crosses_cpus() {
    for len in 2..=4usize {
        let cpus: Vec<usize> = (10..10 + len).collect();
        for n in 1..=6 {
            for c in 0..n {
                let (p, q) = (producer_cpu(&cpus, c), consumer_cpu(&cpus, n, c));
                assert_ne!(p, q, "{len} CPUs, pair {c} of {n}");
                assert!(q.is_some_and(|q| cpus.contains(&q)));
            }
        }
    }
    // With as many CPUs as threads, each thread has its own: producers first, then consumers.
    let cpus: Vec<usize> = (0..4).collect();
    let all: Vec<Option<usize>> = (0..2)
        .map(|p| producer_cpu(&cpus, p))
        .chain((0..2).map(|c| consumer_cpu(&cpus, 2, c)))
        .collect();
    assert_eq!(all, [Some(0), Some(1), Some(2), Some(3)]);
    assert_eq!(consumer_cpu(&[7], 3, 1), Some(7));
    assert_eq!(consumer_cpu(&[], 3, 1), None);
}

#[test]
fn finding_5_is_judged_between_processes_too() {
    let s = 1 << 20;
    let res = results(vec![
        rec("processes, XPYC×1, rma", s, 1.0),
        rec("processes, XPYC×4, rma", s, 1.02),
    ]);
    let f = findings(&res);
    let f5 = f.iter().find(|x| x.claim.contains("Finding 5")).unwrap();
    assert!(f5.claim.contains("processes"), "{}", f5.claim);
    assert_eq!(f5.holds, Holds::Yes, "{}", f5.sentence);
}
