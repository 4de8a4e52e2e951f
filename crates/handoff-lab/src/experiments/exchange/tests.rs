//! Runs of the exchange in-process (threads and single-thread modes), with test doubles for
//! the floor measurer and the progress sink.

use super::*;
use crate::kernels::Kernel;
use std::sync::Mutex;

/// Events in order: floor measurements (by the double) and finished records (by progress).
static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The floor double: returns 1000, 1001, ... in call order, so each record's floor says which
/// measurement it got.
fn counting_floor(a: usize, b: usize) -> Option<f64> {
    let mut log = LOG.lock().unwrap();
    let n = log.iter().filter(|e| e.starts_with("floor")).count();
    log.push(format!("floor {a}-{b}"));
    Some(1000.0 + n as f64)
}

struct LoggedProgress;

impl crate::progress::Progress for LoggedProgress {
    fn begin(&mut self, _total: usize, _what: &str) {}
    fn advance(&mut self, label: &str) {
        LOG.lock().unwrap().push(format!("record {label}"));
    }
    fn end(&mut self) {}
}

fn point(mode: Mode, size: usize, consumer_core: usize) -> Point {
    Point {
        mode,
        size,
        producer_core: 0,
        consumer_core,
        flush: false,
        reps: 3,
        warmup: 1,
        runs: 1,
    }
}

fn with_env<T>(fault: Option<fault::Fault>, f: impl FnOnce(&Env<'_>) -> T) -> T {
    let rig = Rig::detect().unwrap();
    let cfg = ExchangeConfig {
        fault,
        ..Default::default()
    };
    let launcher = (std::env::current_exe().unwrap(), vec![]);
    let cancel = AtomicBool::new(false);
    let env = Env {
        launcher,
        cancel: &cancel,
        rig: &rig,
        cfg: &cfg,
        kernel: Kernel::best(),
        adjacent_floor: counting_floor,
    };
    f(&env)
}

fn two_cpus() -> bool {
    let cpus = handoff::sys::allowed_cpus().unwrap();
    cpus.contains(&0) && cpus.contains(&1)
}

#[test]
fn each_cross_cpu_record_carries_the_floor_measured_just_before_it() {
    if !two_cpus() {
        eprintln!("SKIP: each_cross_cpu_record_carries_the_floor_measured_just_before_it: needs CPUs 0 and 1");
        return;
    }
    let points = vec![
        point(Mode::ThreadsSpin, 4096, 1),
        point(Mode::ThreadsBlocking, 4096, 1),
        point(Mode::SingleThread, 4096, 0),
        point(Mode::ThreadsSpin, 8192, 1),
    ];
    // The run's matrix knows the pair (999 ns): records must not take that value.
    let known = vec![crate::bench::schema::C2cPair {
        cpu_a: 0,
        cpu_b: 1,
        placement: "x".into(),
        one_way_ns: 999.0,
    }];
    let (machine, tool, cancel): (crate::machine::Machine, crate::machine::Tool, AtomicBool) =
        Default::default();
    let mut progress = LoggedProgress;
    let mut ctx = RunCtx {
        quick: true,
        machine: &machine,
        tool: &tool,
        exe: "/nonexistent".into(),
        args: vec![],
        allowed_cpus: &[0, 1],
        cancel: &cancel,
        progress: &mut progress,
        transports: Vec::new(),
    };
    let out = with_env(None, |env| {
        run(&mut ctx, &(), &points, env, (&[], &known), None).unwrap()
    });
    let log = LOG.lock().unwrap().clone();
    let labels: Vec<String> = points.iter().map(|p| p.label()).collect();
    assert_eq!(
        log,
        vec![
            "floor 0-1".to_string(),
            format!("record {}", labels[0]),
            "floor 0-1".into(),
            format!("record {}", labels[1]),
            format!("record {}", labels[2]),
            "floor 0-1".into(),
            format!("record {}", labels[3]),
        ],
        "one floor measurement right before each cross-CPU record, none for same-CPU ones"
    );
    let floor_of = |mode: &str, size: u64| {
        out.records
            .iter()
            .find(|r| r.mode() == mode && r.size_bytes() == size)
            .unwrap()
            .c2c_one_way_ns
    };
    assert_eq!(floor_of("threads-spin", 4096), Some(1000.0));
    assert_eq!(floor_of("threads-blocking", 4096), Some(1001.0));
    assert_eq!(floor_of("single-thread", 4096), None);
    assert_eq!(floor_of("threads-spin", 8192), Some(1002.0));
    assert!(out.records.iter().all(|r| r.verified));
    assert!(out
        .records
        .iter()
        .all(|r| r.kernel() == Some(Kernel::best().name())));
}

#[test]
fn a_stale_block_fails_verification_in_every_in_process_mode() {
    if !two_cpus() {
        eprintln!(
            "SKIP: a_stale_block_fails_verification_in_every_in_process_mode: needs CPUs 0 and 1"
        );
        return;
    }
    let stale = Some(fault::Fault::SkipFill { rep: 2 });
    for p in [
        point(Mode::SingleThread, 4096, 0),
        point(Mode::ThreadsSpin, 4096, 1),
        point(Mode::ThreadsBlocking, 4096, 0),
    ] {
        let e = with_env(stale, |env| run_point(&p, env))
            .unwrap_err()
            .to_string();
        // Repetition 2 finds repetition 1's twos where ones belong: 1024 x 2 instead of 1024.
        assert!(
            e.contains(
                "verification failed in repetition 2: the consumer summed 2048, expected 1024"
            ),
            "{}: {e}",
            p.label()
        );
        let ok = with_env(None, |env| run_point(&p, env)).unwrap().unwrap();
        assert!(ok.verified, "{}", p.label());
    }
}

/// What the first screen says of `rma-channels` (messages or puts by size) comes in the
/// exchange's part, the report's lead, beside the floor; the report's generic first screen
/// names no experiment (#39).
#[test]
fn the_rma_channels_advice_reaches_the_first_screen_in_the_exchanges_part() {
    use crate::bench::MetricRecord;
    use crate::experiments::rma_channels;
    // Three runs of bytes/s at `rate` ± 1%.
    let rec = |series: &str, size: usize, rate: f64| {
        let runs = [vec![rate], vec![rate * 1.01], vec![rate * 0.99]];
        let m = MetricRecord::from_runs("B/s", true, &runs).unwrap();
        let method = series.rsplit(", ").next().unwrap().to_string();
        BenchRecord::new(series, size as f64, 3, 10, true)
            .param("method", method)
            .param("n", 1)
            .metric("bytes_per_s", m)
    };
    let mut rma = BenchResults::empty(rma_channels::INFO.name);
    // Messages faster up to 512 B, puts from 4 KiB.
    for (size, msg, put) in [
        (64, 2e9, 1e9),
        (512, 2e9, 1e9),
        (4096, 1e9, 2e9),
        (1 << 20, 1e9, 3e9),
    ] {
        rma.records.push(rec("threads, XConn×1, msg", size, msg));
        rma.records.push(rec("threads, XConn×1, rma", size, put));
    }
    let advice = rma_channels::recommendation(&rma).expect("a crossover");
    let ex = BenchResults::empty(record::NAME);
    let part = sections::part(&ex, std::slice::from_ref(&rma));
    assert!(part.lead.notes.contains(&advice), "{:?}", part.lead.notes);
    let first = crate::report::headline::first_screen(&ex, &[rma]);
    assert_eq!(first.lead.notes, part.lead.notes);
}
