use super::*;
use crate::bench::models::ModelFit;
use crate::bench::{BenchRecord, Checks, MetricRecord};
use crate::experiments::team_run::{self, PeOutput};

#[test]
fn report_plans_and_points() {
    let q = Config::for_report(true);
    q.validate().unwrap();
    // 7 modes × 2 p + pscw-k × 3 k.
    assert_eq!(q.points().len(), 7 * 2 + 3);
    assert!(q.points().contains(&(Mode::PscwK, 4, 3, 3)));
    assert!(
        q.points().contains(&(Mode::PscwRing, 2, 1, 2)),
        "k = 2 capped at p − 1"
    );
    let full = Config::for_report(false);
    full.validate().unwrap();
    assert_eq!(full.points().len(), 7 * 5 + 7);
    let bad = |f: fn(&mut Config)| {
        let mut c = Config::for_report(true);
        f(&mut c);
        c.validate().is_err()
    };
    assert!(bad(|c| c.pes = vec![1]));
    assert!(bad(|c| c.ks = vec![4])); // k must be below the largest p (4)
    assert!(bad(|c| c.modes.clear()));
    assert!(bad(|c| c.iters = 0));
    assert!(bad(|c| c.team.wait = "sometimes".into()));
}

/// #23: `wait = spin` with a team past the CPUs (PEs 0 and 2 pinned to one CPU) is refused
/// before anything runs, in one line offering the waits that work; the other waits, and
/// spin on a team that fits, are not.
#[test]
fn spin_is_refused_where_pes_share_a_cpu() {
    let mut spin = Config {
        pes: vec![2, 4],
        ..Config::for_report(true)
    };
    spin.team.wait = "spin".into();
    spin.validate().unwrap();
    let e = spin.check_wait(&[0, 1]).unwrap_err().to_string();
    assert!(e.contains("spin-yield") && e.contains("adaptive"), "{e}");
    assert!(e.contains("4 PEs"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    for wait in ["spin-yield", "adaptive", "block"] {
        let mut c = spin.clone();
        c.team.wait = wait.into();
        c.check_wait(&[0, 1]).unwrap();
    }
    if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
        let fits = Config {
            pes: vec![2],
            ..spin.clone()
        };
        fits.check_wait(&[0, 1]).unwrap();
    }
}

fn rec(series: &str, x: f64, runs: &[f64]) -> BenchRecord {
    let per_run: Vec<Vec<f64>> = runs.iter().map(|&v| vec![v, v]).collect();
    BenchRecord::new(series, x, runs.len() as u64, 2, true)
        .param("pes", 4)
        .metric(
            METRIC,
            MetricRecord::from_runs("µs", false, &per_run).unwrap(),
        )
}

fn results() -> BenchResults {
    let mut r = BenchResults::empty(NAME);
    // fence 2 + 1·log2 p: 3 at p = 2, 4 at p = 4; pscw-ring flat 1; lock flat 0.5.
    for (p, f) in [(2.0, 3.0), (4.0, 4.0)] {
        r.records.push(rec("fence", p, &[f * 0.99, f, f * 1.01]));
        r.records.push(rec("pscw-ring", p, &[0.99, 1.0, 1.01]));
        r.records
            .push(rec("lock-exclusive", p, &[0.495, 0.5, 0.505]));
    }
    // pscw-k 0.5 + 0.5·k.
    for k in [1.0, 2.0, 3.0] {
        r.records.push(rec("pscw-k", k, &[0.5 + 0.5 * k]));
    }
    r
}

#[test]
fn findings_by_hand() {
    let f = findings(&results());
    assert_eq!(f.len(), 2);
    // fence / pscw-ring at p = 4: 4 / 1 = 4 ≥ 1, tight interval: holds.
    assert_eq!(f[0].holds, crate::bench::Holds::Yes, "{}", f[0].sentence);
    assert!(f[0].sentence.contains("4.00×"), "{}", f[0].sentence);
    // lock at p=2 / p=4 = 1 ≥ 0.67: holds.
    assert_eq!(f[1].holds, crate::bench::Holds::Yes, "{}", f[1].sentence);
}

#[test]
fn advice_uses_the_models_crossover() {
    let mut r = results();
    r.records.push(rec("flush", 2.0, &[0.0119, 0.012, 0.0121]));
    for m in [Mode::Fence, Mode::PscwK, Mode::LockExclusive] {
        let (form, x) = m.model();
        let fit: ModelFit = r.fit_series(m.name(), METRIC, form, x).unwrap();
        r.models.push(fit);
    }
    // fence at p = 4 (pscw-k's pes param): 2 + 1·2 = 4; PSCW 0.5 + 0.5·k = 4 at k = 7.
    let a = advice(&r);
    assert!(a[0].contains("fewer than about 7.0 partners"), "{a:?}");
    // lock at p = 2: 0.5 µs; flush 0.012 µs.
    assert!(
        a[1].contains("costs 500 ns at p = 2") && a[1].contains("a flush 12 ns"),
        "{a:?}"
    );
    assert!(
        r.models[0]
            .formula()
            .starts_with("fence ≈ 2.00 µs + 1.00 µs · log2 p"),
        "{}",
        r.models[0].formula()
    );
}

/// A run's record sums every PE's checks ([`team_run::add_checks`]); a run whose PEs checked
/// nothing is not verified, nor is one where any PE found a wrong value.
#[test]
fn a_run_is_verified_only_when_its_pes_checked_values_and_none_was_wrong() {
    let pe = |rank, checked, wrong| PeOutput::counted(rank, vec![1.0], checked, wrong);
    let sum = |outs: &[PeOutput]| {
        let mut checks = Checks::of("values");
        team_run::add_checks(&mut checks, outs);
        checks
    };
    let ok = sum(&[pe(0, 150, 0), pe(1, 150, 0)]);
    assert!(ok.verified());
    assert_eq!((ok.checked, ok.wrong), (300, 0));
    let unchecked = sum(&[pe(0, 0, 0), pe(1, 0, 0)]);
    assert!(!unchecked.verified(), "no value checked: not verified");
    let one_bad = sum(&[pe(0, 150, 0), pe(1, 150, 1)]);
    assert!(!one_bad.verified());
    assert_eq!((one_bad.checked, one_bad.wrong), (300, 1));
    let rec = BenchRecord::new("fence", 2.0, 1, 1, true).checked(unchecked);
    assert!(
        !rec.verified,
        "a record of a run with zero checks is not verified"
    );
    assert_eq!(rec.data_text(), "NOT CHECKED (0 values)");
}
