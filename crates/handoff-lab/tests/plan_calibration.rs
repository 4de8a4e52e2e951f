//! The exchange's cost model (`experiments::exchange::cost`) against the steps of two recorded `handoff
//! report` runs (`tests/fixtures/report_steps.csv`: the quick and the full plan on a 2-CPU
//! KVM guest). Not a timing test: the durations are data in the fixture.
//!
//! Stated bounds: each whole run is estimated within ±30% of its measured time (the report's
//! promise), and every step that took at least 0.1 s at 0.33x-3x.

use handoff_lab::experiments::exchange::cost::point_s;
use handoff_lab::experiments::exchange::{Mode, Point};
use std::collections::BTreeMap;

/// (run name, point, measured seconds) per line of the fixture.
fn steps() -> Vec<(String, Point, f64)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/report_steps.csv"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    assert_eq!(
        lines.next(),
        Some("run,mode,size,producer,consumer,flush,reps,warmup,runs,measured_s")
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 10, "{l}");
            let p = Point {
                mode: f[1].parse::<Mode>().unwrap(),
                size: f[2].parse().unwrap(),
                producer_core: f[3].parse().unwrap(),
                consumer_core: f[4].parse().unwrap(),
                flush: f[5].parse().unwrap(),
                reps: f[6].parse().unwrap(),
                warmup: f[7].parse().unwrap(),
                runs: f[8].parse().unwrap(),
            };
            (f[0].to_string(), p, f[9].parse().unwrap())
        })
        .collect()
}

#[test]
fn whole_runs_are_estimated_within_30_percent() {
    let mut runs: BTreeMap<String, (f64, f64, usize)> = BTreeMap::new();
    for (run, p, measured) in steps() {
        let e = runs.entry(run).or_default();
        e.0 += point_s(&p);
        e.1 += measured;
        e.2 += 1;
    }
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!(runs["quick"].2, 80);
    assert_eq!(runs["full"].2, 160);
    for (run, (est, measured, _)) in &runs {
        let r = est / measured;
        assert!(
            (0.7..=1.3).contains(&r),
            "{run}: estimate {est:.1} s vs measured {measured:.1} s ({r:.2}x)"
        );
    }
}

#[test]
fn every_long_step_is_estimated_within_3x() {
    let mut checked = 0;
    for (run, p, measured) in steps() {
        if measured < 0.1 {
            continue;
        }
        let r = point_s(&p) / measured;
        assert!(
            (1.0 / 3.0..=3.0).contains(&r),
            "{run}: {}: estimate {:.3} s vs measured {measured:.3} s ({r:.2}x)",
            p.label(),
            point_s(&p)
        );
        checked += 1;
    }
    // Enough steps to mean something: the large sizes, files, pipes and flushed points.
    assert!(checked >= 80, "{checked}");
}
