//! "Busy" means someone else, across processes: the lab's own workers (children that still
//! run or are not yet reaped when a sample is taken) count as the lab's CPU, never as other
//! processes'; the load average a heavy experiment leaves behind does not make the next one
//! busy; two CPU hogs that are not the lab's make it busy.
//!
//! The machine these tests run on may be busy with other work, so the quiet case asserts
//! the attribution (the workers' CPU is the lab's own, no load-average reason), not that the
//! machine was quiet.

use handoff_lab::bench::busy::{measure, LOAD_MEMORY_S};
use handoff_testkit::Kid;
use std::time::Duration;

const ROLE: &str = "HANDOFF_BUSY_TEST_ROLE";
/// One test at a time: the workers of one must not run in the other's sample.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
/// CPU each worker of the heavy experiment burns, nanoseconds.
const SPIN_NS: u64 = 300_000_000;
const WORKERS: usize = 4;

/// Burns `ns` of this thread's CPU (a 20 s watchdog ends it early on a starved machine).
fn spin(ns: u64) -> u64 {
    let t0 = handoff_probe::usage::thread_cpu_ns();
    let dog = std::time::Instant::now() + Duration::from_secs(20);
    let mut x = 0u64;
    while handoff_probe::usage::thread_cpu_ns() < t0 + ns && std::time::Instant::now() < dog {
        x = std::hint::black_box(x.wrapping_add(1));
    }
    handoff_probe::usage::thread_cpu_ns() - t0
}

/// A heavy multi-process experiment (4 workers burning 0.3 s of CPU each, on 2 CPUs: the
/// load average climbs) whose workers have exited but are not yet reaped when its sample
/// ends, then a light one (a sleep). The workers' CPU is the lab's own; the light one
/// carries no load-average reason, however high the heavy one left the load.
#[test]
fn the_labs_own_workers_are_never_other_work() {
    if std::env::var(ROLE).as_deref() == Ok("spin") {
        println!("spun {}", spin(SPIN_NS));
        return;
    }
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut kids = Vec::new();
    let mut spun_ns = 0u64;
    let (_, heavy) = measure(|| -> Result<(), ()> {
        for _ in 0..WORKERS {
            kids.push(Kid::spawn(
                "the_labs_own_workers_are_never_other_work",
                ROLE,
                "spin",
                &[],
                Duration::from_secs(60),
            ));
        }
        for k in &mut kids {
            spun_ns += k.expect_line("spun ").parse::<u64>().unwrap();
        }
        // Give them the moment to exit; they stay unreaped (zombies) until `kids` drops.
        std::thread::sleep(Duration::from_millis(200));
        Ok(())
    })
    .unwrap();
    let own_s = heavy.own_cpus.unwrap() * heavy.elapsed_s;
    assert!(
        own_s >= 0.9 * spun_ns as f64 / 1e9,
        "the workers burned {:.2} s of CPU but the lab's own time is {own_s:.2} s: {heavy:?}",
        spun_ns as f64 / 1e9
    );
    let (_, light) = measure(|| -> Result<(), ()> {
        std::thread::sleep(Duration::from_millis(600));
        Ok(())
    })
    .unwrap();
    drop(kids);
    assert!(
        light.lab_quiet_before_s.unwrap() < LOAD_MEMORY_S,
        "{light:?}"
    );
    let why = light.busy_reasons();
    assert!(
        !why.iter().any(|r| r.contains("load average")),
        "the heavy experiment's own load made the light one busy: {why:?}"
    );
    // Its own CPU (a sleep) is not the workers': they were counted before.
    assert!(light.own_cpus.unwrap() < 0.5, "{light:?}");
}

/// Two CPU hogs that are not the lab's (orphans: their parent shell exited) beside a light
/// experiment: the run is busy, because of other processes' CPU.
#[test]
fn two_cpu_hogs_beside_a_run_make_it_busy() {
    if std::env::var(ROLE).as_deref() == Ok("hog") {
        spin(8_000_000_000);
        return;
    }
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let exe = std::env::current_exe().unwrap();
    let mut hogs = Vec::new();
    for _ in 0..2 {
        // `sh` starts the hog in the background and exits: the hog is not our descendant.
        let out = std::process::Command::new("sh")
            .args([
                "-c",
                "\"$0\" --exact two_cpu_hogs_beside_a_run_make_it_busy --nocapture \
                 >/dev/null 2>&1 & echo $!",
            ])
            .arg(&exe)
            .env(ROLE, "hog")
            .output()
            .unwrap();
        let pid: i32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        hogs.push(pid);
    }
    // Let the hogs start spinning.
    std::thread::sleep(Duration::from_millis(300));
    let (_, run) = measure(|| -> Result<(), ()> {
        std::thread::sleep(Duration::from_millis(1500));
        Ok(())
    })
    .unwrap();
    for pid in hogs {
        // SAFETY: kill(2) on a pid this test started; it has no memory effects here.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let why = run.busy_reasons();
    assert!(
        why.iter().any(|r| r.contains("other processes used")),
        "two hogs ran beside it: {why:?} {run:?}"
    );
    assert!(
        run.own_cpus.unwrap() < 0.5,
        "the hogs are not the lab's: {run:?}"
    );
}
