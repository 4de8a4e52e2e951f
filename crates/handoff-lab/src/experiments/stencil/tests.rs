use super::*;
use crate::bench::experiment::assert_each_refused;
use crate::bench::BenchRecord;
use crate::machine::{Machine, Tool};

/// PRK's serial synch_p2p, written out plainly: `iterations` sweeps with the corner fed back.
fn serial(m: usize, n: usize, iterations: u64) -> Vec<Vec<f64>> {
    let mut a = vec![vec![0.0; n]; m];
    for (j, x) in a[0].iter_mut().enumerate() {
        *x = j as f64;
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[0] = i as f64;
    }
    for _ in 0..iterations {
        for i in 1..m {
            for j in 1..n {
                a[i][j] = a[i - 1][j] + a[i][j - 1] - a[i - 1][j - 1];
            }
        }
        a[0][0] = -a[m - 1][n - 1];
    }
    a
}

#[test]
fn closed_form_matches_a_3_by_3_grid_worked_by_hand() {
    // Iteration 1 by hand: A = i + j, so rows [0 1 2] [1 2 3] [2 3 4]: corner 4 = 3 + 3 - 2.
    let a = serial(3, 3, 1);
    assert_eq!(a[1], vec![1.0, 2.0, 3.0]);
    assert_eq!(a[2], vec![2.0, 3.0, 4.0]);
    assert_eq!(corner(3, 3, 1), 4.0);
    // Iteration 2 by hand with A(0,0) = -4: A(1,1) = 1 + 1 + 4 = 6, A(1,2) = 2 + 6 - 1 = 7,
    // A(2,1) = 6 + 2 - 1 = 7, A(2,2) = 7 + 7 - 6 = 8.
    let a = serial(3, 3, 2);
    assert_eq!(a[0][0], -8.0);
    assert_eq!([a[1][1], a[1][2], a[2][1], a[2][2]], [6.0, 7.0, 7.0, 8.0]);
    assert_eq!(corner(3, 3, 2), 8.0);
    assert_eq!(cell(3, 3, 2, 1, 1), 6.0);
    assert_eq!(cell(3, 3, 2, 1, 2), 7.0);
    assert_eq!(cell(3, 3, 2, 2, 2), 8.0);
    // And a bigger, non-square grid: every interior cell after 5 iterations.
    let a = serial(7, 4, 5);
    for (i, row) in a.iter().enumerate().skip(1) {
        for (j, &x) in row.iter().enumerate().skip(1) {
            assert_eq!(x, cell(7, 4, 5, i, j), "({i},{j})");
        }
    }
    assert_eq!(a[6][3], 5.0 * 9.0);
}

#[test]
fn columns_cover_the_grid_without_overlap() {
    assert_eq!(columns(10, 3, 0), (0, 4));
    assert_eq!(columns(10, 3, 1), (4, 7));
    assert_eq!(columns(10, 3, 2), (7, 10));
    assert_eq!(columns(8, 1, 0), (0, 8));
    for (n, p) in [(1000, 7), (4, 2), (63, 63)] {
        let mut next = 0;
        for r in 0..p {
            let (lo, hi) = columns(n, p, r);
            assert_eq!(lo, next);
            assert!(hi > lo);
            next = hi;
        }
        assert_eq!(next, n);
    }
}

#[test]
fn report_plan_and_bad_grids() {
    let c = Config::for_report(false, &[0, 1]);
    assert_eq!(c.strong_pes, vec![1, 2, 4]);
    assert_eq!(c.weak_pes, 2);
    assert_eq!(c.points().len(), 3 + 4);
    c.validate().unwrap();
    let q = Config::for_report(true, &[0, 1]);
    q.validate().unwrap();
    assert_eq!(q.points().len(), 3 + 2);
    assert_each_refused(
        &q,
        Config::validate,
        &[
            |c| c.strong = Some((1, 100)),
            |c| {
                c.strong = Some((100, 5));
                c.strong_pes = vec![3];
            },
            |c| c.strong_pes = vec![0],
            |c| c.iterations = 1,
            |c| c.methods = vec![],
            |c| {
                c.strong = None;
                c.weak_m = vec![];
            },
            |c| c.weak_m = vec![1 << 21],
            |c| {
                c.strong = Some((1 << 20, 1 << 20));
                c.strong_pes = vec![1];
            },
        ],
    );
}

fn rec(method: Method, pes: usize, run_means: &[f64]) -> BenchRecord {
    let series = format!("strong: {}", method.name());
    crate::bench::findings::record_of_runs(
        series,
        pes as f64,
        ("mflops", "MFLOP/s", true),
        run_means,
    )
    .param("scaling", "strong")
    .param("method", method.name())
    .param("pes", pes)
}

#[test]
fn findings_compare_counting_with_fence_flag_per_team_size() {
    let m = Machine {
        allowed_cpus: vec![0, 1],
        ..Machine::default()
    };
    let mut r = BenchResults::new(NAME, m, Tool::default(), serde_json::json!({}));
    // By hand: 1 PE is not judged; 2 PEs 500 vs 200 (2.5×: holds); 4 PEs 100 vs 90 (1.11×:
    // does not hold, oversubscribed).
    r.records
        .push(rec(Method::CountingPut, 1, &[900.0, 901.0, 899.0]));
    r.records
        .push(rec(Method::FenceFlag, 1, &[300.0, 301.0, 299.0]));
    r.records
        .push(rec(Method::CountingPut, 2, &[500.0, 501.0, 499.0]));
    r.records
        .push(rec(Method::FenceFlag, 2, &[200.0, 201.0, 199.0]));
    r.records
        .push(rec(Method::CountingPut, 4, &[100.0, 101.0, 99.0]));
    r.records
        .push(rec(Method::FenceFlag, 4, &[90.0, 90.5, 89.5]));
    let f = findings(&r);
    assert_eq!(f.len(), 2, "{f:#?}");
    assert_eq!(f[0].holds, crate::bench::Holds::Yes, "{}", f[0].sentence);
    assert!((f[0].ratio.unwrap().ratio - 2.5).abs() < 0.01);
    assert_eq!(f[1].holds, crate::bench::Holds::No, "{}", f[1].sentence);
    assert!(f[1].claim.contains("oversubscribed"));
}

/// #23: `--wait spin` on a grid whose team shares CPUs (4 PEs on CPUs 0 and 1) is refused
/// before anything runs, in one line offering the waits that work; adaptive is not.
#[test]
fn spin_is_refused_where_pes_share_a_cpu() {
    let q = Config::for_report(true, &[0, 1]);
    let mut spin = Config {
        strong_pes: vec![1, 4],
        ..q.clone()
    };
    spin.team.wait = "spin".into();
    let e = spin.validate().unwrap_err().to_string();
    assert!(e.contains("spin-yield") && e.contains("adaptive"), "{e}");
    assert!(e.contains("4 PEs"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    let mut adaptive = spin.clone();
    adaptive.team.wait = "adaptive".into();
    adaptive.validate().unwrap();
    if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
        let fits = Config {
            strong_pes: vec![1, 2],
            weak_pes: 2,
            ..spin
        };
        fits.validate().unwrap();
    }
}
