use super::*;
use crate::bench::experiment::assert_each_refused;
use crate::bench::experiment::TransportKind;
use crate::bench::BenchRecord;

fn rec(method: Method, class: &str, size: usize, run_means: &[f64]) -> BenchRecord {
    let series = format!("{}, {class}", method.name());
    crate::bench::findings::record_of_runs(
        series,
        size as f64,
        ("latency_us", "µs", false),
        run_means,
    )
    .param("method", method.name())
    .param("size_bytes", size)
    .param("placement", class)
}

#[test]
fn report_plan_spans_8_bytes_to_4_mib_and_quick_keeps_the_other_core() {
    let full = Config::for_report(false, &[0, 1]);
    assert_eq!(full.sizes.first(), Some(&8));
    assert_eq!(full.sizes.last(), Some(&(4 << 20)));
    // 8, 32, 128, ... 2 MiB (powers of 4 times 8), then 4 MiB.
    assert_eq!(full.sizes.len(), 11);
    assert_eq!(full.methods.len(), 4);
    full.validate().unwrap();
    let quick = Config::for_report(true, &[0, 1]);
    assert_eq!(quick.sizes, vec![8, 4096, 262_144]);
    // On 2 CPUs: one pair, on two different CPUs.
    assert_eq!(quick.placements.len(), 1);
    assert_ne!(quick.placements[0].cpus[0], quick.placements[0].cpus[1]);
    // Same core first in the full plan.
    assert_eq!(full.placements[0].cpus, [0, 0]);
    assert_eq!(full.placements[0].class, "same-core");
}

#[test]
fn sizes_and_counts_are_checked() {
    let ok = Config::for_report(true, &[0, 1]);
    assert_each_refused(
        &ok,
        Config::validate,
        &[
            |c| c.sizes = vec![12],
            |c| c.sizes = vec![0],
            |c| c.sizes = vec![MAX_SIZE + 8],
            |c| c.sizes = vec![],
            |c| c.methods = vec![],
            |c| c.team.runs = 0,
            |c| c.team.wait = "sometimes".into(),
            |c| {
                c.methods = vec![Method::Line];
                c.sizes = vec![64];
            },
        ],
    );
    // 16 MiB per sample: 2000 round trips of 8 B, 16 of 1 MiB, never fewer than 2.
    let c = Config {
        round_trips: 2000,
        ..ok
    };
    assert_eq!(c.round_trips_at(8), 2000);
    assert_eq!(c.round_trips_at(1 << 20), 16);
    assert_eq!(c.round_trips_at(64 << 20), 2);
    assert!(Method::Line.fits(56) && !Method::Line.fits(64) && Method::FenceFlag.fits(64));
}

#[test]
fn findings_judge_fence_flag_over_each_method_at_8_bytes() {
    let mut r = BenchResults::empty(NAME);
    // By hand: fence-flag 2.0 µs; put-signal 1.0 (2.0×: holds); counting-put 1.6 (1.25×:
    // does not hold); line 0.8 (2.5×: holds). A 4 KiB record must not be used.
    r.records.push(rec(
        Method::FenceFlag,
        "same-package",
        8,
        &[2.0, 2.01, 1.99],
    ));
    r.records.push(rec(
        Method::PutSignal,
        "same-package",
        8,
        &[0.95, 0.96, 0.94],
    ));
    r.records.push(rec(
        Method::CountingPut,
        "same-package",
        8,
        &[1.6, 1.61, 1.59],
    ));
    r.records
        .push(rec(Method::Line, "same-package", 8, &[0.8, 0.81, 0.79]));
    r.records.push(rec(
        Method::PutSignal,
        "same-package",
        4096,
        &[99.0, 99.0, 99.0],
    ));
    let f = findings(&r);
    assert_eq!(f.len(), 3, "{f:?}");
    assert_eq!(f[0].holds, crate::bench::Holds::Yes, "{}", f[0].sentence);
    assert!((f[0].ratio.unwrap().ratio - 2.0 / 0.95).abs() < 0.01);
    assert_eq!(f[1].holds, crate::bench::Holds::No, "{}", f[1].sentence);
    assert!((f[1].ratio.unwrap().ratio - 1.25).abs() < 0.01);
    assert_eq!(f[2].holds, crate::bench::Holds::Yes, "{}", f[2].sentence);
    assert!(f[0].claim.contains("same-package"));
    assert!(
        f[0].sentence
            .contains("Why here: on one node a put is a memcpy"),
        "{}",
        f[0].sentence
    );
    assert!(
        f[2].sentence.contains("one cache-line transfer"),
        "{}",
        f[2].sentence
    );
    // Without fence-flag at 8 B: not measured, inconclusive.
    r.records.remove(0);
    let f = findings(&r);
    assert!(f
        .iter()
        .all(|f| f.holds == crate::bench::Holds::Inconclusive));
}

#[test]
fn side_by_side_findings_judge_mpi_over_shm_at_8_bytes_and_the_largest_size() {
    let mut r = BenchResults::empty(NAME);
    let over = |t: TransportKind, size: usize, means: &[f64]| {
        let mut rec = rec(Method::PutSignal, "shared-l3", size, means);
        rec.series = series_name(Method::PutSignal, "shared-l3", t.name());
        rec.param("transport", t.name())
    };
    // By hand: 8 B shm 1.0 µs, mpi-rma 5.0 (5×: holds), mpi-shm 0.5 (0.5×: does not hold);
    // 1 MiB shm 100, mpi-rma 200 (2×: holds); mpi-shm has no 1 MiB record (not judged).
    r.records
        .push(over(TransportKind::Shm, 8, &[1.0, 1.01, 0.99]));
    r.records
        .push(over(TransportKind::MpiRma, 8, &[5.0, 5.05, 4.95]));
    r.records
        .push(over(TransportKind::MpiShm, 8, &[0.5, 0.51, 0.49]));
    r.records
        .push(over(TransportKind::Shm, 1 << 20, &[100.0, 101.0, 99.0]));
    r.records
        .push(over(TransportKind::MpiRma, 1 << 20, &[200.0, 202.0, 198.0]));
    let f: Vec<_> = findings(&r)
        .into_iter()
        .filter(|f| f.claim.contains("MPI transport"))
        .collect();
    assert_eq!(f.len(), 3, "{f:?}");
    let find = |t: &str, size: &str| {
        f.iter()
            .find(|f| f.claim.contains(&format!("({t})")) && f.claim.contains(size))
            .unwrap_or_else(|| panic!("no finding for {t} {size}: {f:?}"))
    };
    let rma8 = find("mpi-rma", "a 8 B");
    assert_eq!(rma8.holds, crate::bench::Holds::Yes, "{}", rma8.sentence);
    assert!((rma8.ratio.unwrap().ratio - 5.0).abs() < 0.05);
    let shm8 = find("mpi-shm", "a 8 B");
    assert_eq!(shm8.holds, crate::bench::Holds::No, "{}", shm8.sentence);
    let rma_big = find("mpi-rma", "1048576 B");
    assert!((rma_big.ratio.unwrap().ratio - 2.0).abs() < 0.02);
    // The seed's findings still read the shm records only: put-signal without fence-flag
    // at 8 B is inconclusive, whatever the MPI records say.
    assert!(findings(&r)
        .iter()
        .filter(|f| !f.claim.contains("MPI transport"))
        .all(|f| f.holds == crate::bench::Holds::Inconclusive));
}

#[test]
fn under_mpirun_the_seed_findings_compare_methods_within_each_pair_and_its_route() {
    let mut r = BenchResults::empty(NAME);
    let at = |m: Method, pair: &str, route: &str, means: &[f64]| {
        rec(m, MPIRUN, 8, means)
            .param("transport", route)
            .param("pair", pair)
    };
    // By hand: pair 0-1 (mpi-shm) fence-flag 4.0 over put-signal 1.0 µs = 4× (holds);
    // pair 0-2 (mpi-rma) 3.0 over 3.0 = 1× (does not hold). Mixing the pairs up would give
    // 4/3 or 3/1 instead.
    r.records
        .push(at(Method::FenceFlag, "0-1", "mpi-shm", &[4.0, 4.04, 3.96]));
    r.records
        .push(at(Method::PutSignal, "0-1", "mpi-shm", &[1.0, 1.01, 0.99]));
    r.records
        .push(at(Method::FenceFlag, "0-2", "mpi-rma", &[3.0, 3.03, 2.97]));
    r.records
        .push(at(Method::PutSignal, "0-2", "mpi-rma", &[3.0, 3.03, 2.97]));
    let f: Vec<_> = findings(&r)
        .into_iter()
        .filter(|f| f.claim.starts_with("put-with-signal halves"))
        .collect();
    assert_eq!(f.len(), 2, "{f:?}");
    let near = f
        .iter()
        .find(|f| f.claim.contains("[mpirun, 0-1 mpi-shm]"))
        .unwrap();
    assert_eq!(near.holds, crate::bench::Holds::Yes, "{}", near.sentence);
    assert!((near.ratio.as_ref().unwrap().ratio - 4.0).abs() < 0.05);
    let far = f
        .iter()
        .find(|f| f.claim.contains("[mpirun, 0-2 mpi-rma]"))
        .unwrap();
    assert_eq!(far.holds, crate::bench::Holds::No, "{}", far.sentence);
    assert!((far.ratio.as_ref().unwrap().ratio - 1.0).abs() < 0.02);
}
