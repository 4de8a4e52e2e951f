//! The sync primitives between real processes: stress hand-offs with every value checked,
//! dead peers in every wait strategy, deadlines between processes.
//!
//! The test binary re-executes itself as the child (`--exact <test>` with [`ROLE_ENV`] set);
//! never `fork`. Every child is guarded (`ChildGuard` kills it on drop), watched (`Watchdog`
//! kills it after [`WATCHDOG`]) and dies with its parent; every wait has a deadline. The
//! tests hold one lock, so they run one at a time even inside this binary (two spinning
//! pairs on a 2-CPU machine would only measure each other). No test asserts on timing; the
//! hand-off rates are printed for information.
//!
//! Hand-offs between processes across the suite (checked by `suite_hands_off_a_million`):
//! SpinYield, Adaptive and Block only, each value checked for loss, duplication and tearing.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::shm::{Segment, ShmSafe};
use handoff::sync::WaitError;
use handoff::sync::{Barrier, Flag, Patience, Semaphore, Signal, Wait, Waiter};
use handoff::sys::Deadline;
use handoff::sys::UnixSignal;
use handoff_probe::proc::die_with_parent;
use handoff_testkit::{waiter, Kid};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const ROLE_ENV: &str = "HANDOFF_SYNC_TEST_ROLE";
const NAME_ENV: &str = "HANDOFF_SYNC_TEST_SEGMENT";
const WAIT_ENV: &str = "HANDOFF_SYNC_TEST_WAIT";
const COUNT_ENV: &str = "HANDOFF_SYNC_TEST_COUNT";
const CPU_ENV: &str = "HANDOFF_SYNC_TEST_CPU";
/// Children are SIGKILLed after this long, whatever happens.
const WATCHDOG: Duration = Duration::from_secs(30);
/// Every wait in a stress test gives up (with `Timeout`, failing the test) after this long.
const WAIT_LIMIT: Duration = Duration::from_secs(25);

/// Slots in the counting-put ring; words per slot (a 64-byte record, so a torn read shows).
const RING: usize = 64;
const WORDS: usize = 8;

// Stress sizes (rounds; a round of a ping-pong is two hand-offs, a barrier phase is two).
const FLAG_SPIN_YIELD_ROUNDS: u64 = 150_000;
const FLAG_ADAPTIVE_ROUNDS: u64 = 150_000;
const FLAG_BLOCK_ROUNDS: u64 = 10_000;
const FLAG_SPIN_PINNED_ROUNDS: u64 = 100_000;
const SIGNAL_ADAPTIVE_ITEMS: u64 = 300_000;
const SIGNAL_BLOCK_ITEMS: u64 = 20_000;
const SEM_ADAPTIVE_ROUNDS: u64 = 50_000;
const SEM_BLOCK_ROUNDS: u64 = 5_000;
const BARRIER_SPIN_YIELD_PHASES: u64 = 50_000;
const BARRIER_ADAPTIVE_PHASES: u64 = 20_000;

/// Everything the two processes share, at payload offset 0.
#[repr(C)]
struct Shared {
    to_child: Flag,
    to_parent: Flag,
    ready: Flag,
    put: Signal,
    ack: Signal,
    sem_to_child: Semaphore,
    sem_to_parent: Semaphore,
    barrier: Barrier,
    data: [AtomicU64; RING * WORDS],
}

// SAFETY: repr(C) of ShmSafe fields only (the sync primitives and atomics): pointer-free,
// valid when zeroed (the barrier then has one party until `init`), shared through atomics.
unsafe impl ShmSafe for Shared {}

/// Tests run one at a time (see the module docs).
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

fn unique(tag: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!("sync-{tag}-{}", N.fetch_add(1, Ordering::Relaxed))
}

fn env(key: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| panic!("child needs {key}"))
}

fn limit() -> Option<Deadline> {
    Some(Deadline::after(WAIT_LIMIT))
}

/// A distinct value for every (item, word): a lost, duplicated or torn record shows.
fn pattern(item: u64, word: usize, salt: u64) -> u64 {
    (item ^ salt).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (word as u64) << 56
}

fn write_record(sh: &Shared, slot: usize, item: u64, salt: u64) {
    for w in 0..WORDS {
        sh.data[slot * WORDS + w].store(pattern(item, w, salt), Ordering::Relaxed);
    }
}

#[track_caller]
fn check_record(sh: &Shared, slot: usize, item: u64, salt: u64) {
    for w in 0..WORDS {
        let got = sh.data[slot * WORDS + w].load(Ordering::Relaxed);
        assert_eq!(
            got,
            pattern(item, w, salt),
            "record {item} word {w} in slot {slot}: lost or torn"
        );
    }
}

fn shm_exists(full: &str) -> bool {
    std::path::Path::new(&format!("{}{full}", "/dev/shm")).exists()
}

/// A segment holding [`Shared`], created and published by the parent.
fn create_shared(tag: &str) -> Segment {
    let seg = Segment::create(&unique(tag), std::mem::size_of::<Shared>()).unwrap();
    seg.get::<Shared>(0).unwrap().barrier.init(2).unwrap();
    seg.publish_ready();
    seg
}

/// A child running `test` of this binary in `role` with `vars`.
fn kid(test: &str, role: &str, vars: &[(&str, String)]) -> Kid {
    Kid::spawn(test, ROLE_ENV, role, vars, WATCHDOG)
}

/// In a child: the role, after arranging to die with the parent.
fn child_role() -> Option<String> {
    let role = std::env::var(ROLE_ENV).ok()?;
    die_with_parent().unwrap();
    Some(role)
}

fn open_shared() -> Segment {
    Segment::open(&env(NAME_ENV), Deadline::after(WAIT_LIMIT)).unwrap()
}

// ---------------------------------------------------------------------------------------
// Stress: the scenario runner

#[derive(Clone, Copy, Debug)]
enum Scenario {
    /// Two flags, a counter bounced back and forth with a record each way.
    FlagPingPong,
    /// The child writes records into a ring and `add`s to a signal; the parent waits for each
    /// count, checks the record and acknowledges with a second signal.
    CountingPut,
    /// Two semaphores, a record each way.
    SemaphorePingPong,
    /// Both write their slot, barrier, check the other's slot, barrier.
    BarrierPhases,
}

/// Runs `scenario` between this process and a child, or, in the child, the child's side.
/// `pin`: pin the two sides to two distinct CPUs (skips with a message when there are not two).
/// Returns the hand-offs the parent saw complete (each one checked), 0 in the child or
/// when skipped. A configuration runs once per test binary: the individual test and
/// `suite_hands_off_a_million` share its result.
fn run(test: &'static str, scenario: Scenario, how: Wait, n: u64, pin: bool) -> u64 {
    if let Some(role) = child_role() {
        assert_eq!(role, "peer");
        let how: Wait = env(WAIT_ENV).parse().unwrap();
        let n: u64 = env(COUNT_ENV).parse().unwrap();
        if let Ok(cpu) = std::env::var(CPU_ENV) {
            handoff::sys::pin_current_thread(cpu.parse().unwrap()).unwrap();
        }
        let seg = open_shared();
        let sh: &Shared = seg.get(0).unwrap();
        child_side(scenario, sh, &seg, how, n);
        return 0;
    }
    let _serial = serial();
    if let Some(&done) = DONE.lock().unwrap().get(test) {
        return done;
    }
    let mut cpus = None;
    if pin {
        let allowed = handoff::sys::allowed_cpus().unwrap();
        if allowed.len() < 2 {
            eprintln!(
                "SKIP: {test}: {how} needs two CPUs to pin to; this process may use {allowed:?}"
            );
            return 0;
        }
        cpus = Some((allowed[0], allowed[1]));
    }
    let seg = create_shared(test);
    let full = seg.name().unwrap().to_string();
    let mut vars = vec![
        (NAME_ENV, full.clone()),
        (WAIT_ENV, how.to_string()),
        (COUNT_ENV, n.to_string()),
    ];
    if let Some((_, child_cpu)) = cpus {
        vars.push((CPU_ENV, child_cpu.to_string()));
    }
    let mut kid = kid(test, "peer", &vars);
    // The parent's side runs on its own thread so that pinning it leaves the harness alone.
    let started = Instant::now();
    let handoffs = std::thread::scope(|s| {
        s.spawn(|| {
            if let Some((parent_cpu, _)) = cpus {
                handoff::sys::pin_current_thread(parent_cpu).unwrap();
            }
            parent_side(scenario, seg.get(0).unwrap(), &seg, how, n, &mut kid)
        })
        .join()
        .unwrap()
    });
    let took = started.elapsed();
    kid.wait_success();
    drop(seg);
    assert!(!shm_exists(&full), "{full} left behind");
    println!(
        "{test}: {handoffs} hand-offs between processes ({how}) in {:.3} s, {:.2} us each",
        took.as_secs_f64(),
        took.as_secs_f64() * 1e6 / handoffs as f64
    );
    // By hand: a ping-pong round and a barrier phase are two hand-offs, a put is one.
    let expected = match scenario {
        Scenario::CountingPut => n,
        _ => 2 * n,
    };
    assert_eq!(handoffs, expected, "{test}: hand-offs seen");
    DONE.lock().unwrap().insert(test, handoffs);
    handoffs
}

/// Hand-offs counted by configurations that already ran (see [`run`]).
static DONE: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());

/// The parent's side; returns the number of hand-offs.
fn parent_side(
    scenario: Scenario,
    sh: &Shared,
    seg: &Segment,
    how: Wait,
    n: u64,
    kid: &mut Kid,
) -> u64 {
    match scenario {
        Scenario::FlagPingPong => {
            let mut done = 0;
            for i in 1..=n {
                write_record(sh, 0, i, 1);
                sh.to_child.store(i as u32);
                let got = sh
                    .to_parent
                    .wait_change((i - 1) as u32, &waiter(how, limit(), seg))
                    .unwrap();
                assert_eq!(u64::from(got), i, "reply lost or duplicated");
                check_record(sh, 1, i, 2);
                done += 2; // ours, seen checked by the child's reply, and the reply
            }
            done
        }
        Scenario::CountingPut => {
            let mut done = 0;
            for i in 0..n {
                let seen = sh
                    .put
                    .wait_until(i + 1, &waiter(how, limit(), seg))
                    .unwrap();
                assert!(
                    seen > i && seen <= n,
                    "count {seen} while waiting for {}",
                    i + 1
                );
                check_record(sh, (i as usize) % RING, i, 3);
                done += 1;
                if (i + 1) % 16 == 0 || i + 1 == n {
                    sh.ack.set(i + 1);
                }
            }
            assert_eq!(sh.put.load(), n, "the producer added more than it wrote");
            done
        }
        Scenario::SemaphorePingPong => {
            let mut done = 0;
            for i in 1..=n {
                write_record(sh, 0, i, 4);
                sh.sem_to_child.post().unwrap();
                sh.sem_to_parent.wait(&waiter(how, limit(), seg)).unwrap();
                check_record(sh, 1, i, 5);
                assert!(sh.sem_to_child.value() <= 1 && sh.sem_to_parent.value() == 0);
                done += 2;
            }
            done
        }
        Scenario::BarrierPhases => {
            let leaders = barrier_phases(sh, seg, how, n, 0);
            let child_leaders: u64 = kid.expect_line("leaders: ").parse().unwrap();
            assert_eq!(
                leaders + child_leaders,
                2 * n,
                "one leader per barrier generation"
            );
            // Each generation one side led: a hand-off to the other.
            leaders + child_leaders
        }
    }
}

fn child_side(scenario: Scenario, sh: &Shared, seg: &Segment, how: Wait, n: u64) {
    match scenario {
        Scenario::FlagPingPong => {
            for i in 1..=n {
                let got = sh
                    .to_child
                    .wait_change((i - 1) as u32, &waiter(how, limit(), seg))
                    .unwrap();
                assert_eq!(u64::from(got), i, "value lost or duplicated");
                check_record(sh, 0, i, 1);
                write_record(sh, 1, i, 2);
                sh.to_parent.store(i as u32);
            }
        }
        Scenario::CountingPut => {
            for i in 0..n {
                if i >= RING as u64 {
                    // The slot is free once the consumer acknowledged the item RING back.
                    sh.ack
                        .wait_until(i + 1 - RING as u64, &waiter(how, limit(), seg))
                        .unwrap();
                }
                write_record(sh, (i as usize) % RING, i, 3);
                sh.put.add(1);
            }
            sh.ack.wait_until(n, &waiter(how, limit(), seg)).unwrap();
        }
        Scenario::SemaphorePingPong => {
            for i in 1..=n {
                sh.sem_to_child.wait(&waiter(how, limit(), seg)).unwrap();
                check_record(sh, 0, i, 4);
                write_record(sh, 1, i, 5);
                sh.sem_to_parent.post().unwrap();
            }
        }
        Scenario::BarrierPhases => {
            let leaders = barrier_phases(sh, seg, how, n, 1);
            println!("leaders: {leaders}");
        }
    }
}

/// `n` phases; returns how many barrier generations this side led.
fn barrier_phases(sh: &Shared, seg: &Segment, how: Wait, n: u64, me: usize) -> u64 {
    let mut leaders = 0;
    for phase in 1..=n {
        sh.data[me].store(phase, Ordering::Relaxed);
        leaders += u64::from(
            sh.barrier
                .wait(&waiter(how, limit(), seg))
                .unwrap()
                .is_leader(),
        );
        let other = sh.data[1 - me].load(Ordering::Relaxed);
        assert_eq!(other, phase, "the other side is not in phase {phase}");
        leaders += u64::from(
            sh.barrier
                .wait(&waiter(how, limit(), seg))
                .unwrap()
                .is_leader(),
        );
    }
    leaders
}

#[test]
fn flag_pingpong_spin_yield() {
    run(
        "flag_pingpong_spin_yield",
        Scenario::FlagPingPong,
        Wait::SpinYield,
        FLAG_SPIN_YIELD_ROUNDS,
        false,
    );
}

#[test]
fn flag_pingpong_adaptive() {
    run(
        "flag_pingpong_adaptive",
        Scenario::FlagPingPong,
        Wait::ADAPTIVE,
        FLAG_ADAPTIVE_ROUNDS,
        false,
    );
}

#[test]
fn flag_pingpong_block() {
    run(
        "flag_pingpong_block",
        Scenario::FlagPingPong,
        Wait::Block,
        FLAG_BLOCK_ROUNDS,
        false,
    );
}

/// Pure spinning only with the two sides pinned to distinct CPUs (see `handoff::sync`, "Waiting").
#[test]
fn flag_pingpong_spin_pinned() {
    run(
        "flag_pingpong_spin_pinned",
        Scenario::FlagPingPong,
        Wait::Spin,
        FLAG_SPIN_PINNED_ROUNDS,
        true,
    );
}

#[test]
fn signal_counting_put_adaptive() {
    run(
        "signal_counting_put_adaptive",
        Scenario::CountingPut,
        Wait::ADAPTIVE,
        SIGNAL_ADAPTIVE_ITEMS,
        false,
    );
}

#[test]
fn signal_counting_put_block() {
    run(
        "signal_counting_put_block",
        Scenario::CountingPut,
        Wait::Block,
        SIGNAL_BLOCK_ITEMS,
        false,
    );
}

#[test]
fn semaphore_pingpong_adaptive() {
    run(
        "semaphore_pingpong_adaptive",
        Scenario::SemaphorePingPong,
        Wait::ADAPTIVE,
        SEM_ADAPTIVE_ROUNDS,
        false,
    );
}

#[test]
fn semaphore_pingpong_block() {
    run(
        "semaphore_pingpong_block",
        Scenario::SemaphorePingPong,
        Wait::Block,
        SEM_BLOCK_ROUNDS,
        false,
    );
}

#[test]
fn barrier_phases_spin_yield() {
    run(
        "barrier_phases_spin_yield",
        Scenario::BarrierPhases,
        Wait::SpinYield,
        BARRIER_SPIN_YIELD_PHASES,
        false,
    );
}

#[test]
fn barrier_phases_adaptive() {
    run(
        "barrier_phases_adaptive",
        Scenario::BarrierPhases,
        Wait::ADAPTIVE,
        BARRIER_ADAPTIVE_PHASES,
        false,
    );
}

/// The suite's hand-offs between processes with SpinYield / Adaptive / Block (the pinned
/// pure-spin test, which may skip, is not counted), as the parents counted them: each
/// configuration's real, checked hand-offs (run here unless its own test already ran).
#[test]
fn suite_hands_off_a_million() {
    let configs: [(&'static str, Scenario, Wait, u64); 9] = [
        (
            "flag_pingpong_spin_yield",
            Scenario::FlagPingPong,
            Wait::SpinYield,
            FLAG_SPIN_YIELD_ROUNDS,
        ),
        (
            "flag_pingpong_adaptive",
            Scenario::FlagPingPong,
            Wait::ADAPTIVE,
            FLAG_ADAPTIVE_ROUNDS,
        ),
        (
            "flag_pingpong_block",
            Scenario::FlagPingPong,
            Wait::Block,
            FLAG_BLOCK_ROUNDS,
        ),
        (
            "signal_counting_put_adaptive",
            Scenario::CountingPut,
            Wait::ADAPTIVE,
            SIGNAL_ADAPTIVE_ITEMS,
        ),
        (
            "signal_counting_put_block",
            Scenario::CountingPut,
            Wait::Block,
            SIGNAL_BLOCK_ITEMS,
        ),
        (
            "semaphore_pingpong_adaptive",
            Scenario::SemaphorePingPong,
            Wait::ADAPTIVE,
            SEM_ADAPTIVE_ROUNDS,
        ),
        (
            "semaphore_pingpong_block",
            Scenario::SemaphorePingPong,
            Wait::Block,
            SEM_BLOCK_ROUNDS,
        ),
        (
            "barrier_phases_spin_yield",
            Scenario::BarrierPhases,
            Wait::SpinYield,
            BARRIER_SPIN_YIELD_PHASES,
        ),
        (
            "barrier_phases_adaptive",
            Scenario::BarrierPhases,
            Wait::ADAPTIVE,
            BARRIER_ADAPTIVE_PHASES,
        ),
    ];
    let total: u64 = configs
        .into_iter()
        .map(|(test, scenario, how, n)| run(test, scenario, how, n, false))
        .sum();
    assert!(total >= 1_000_000, "only {total} hand-offs");
}

// ---------------------------------------------------------------------------------------
// Dead peers

/// Waits on each primitive in turn with peers = the segment; all must end with `PeerGone`.
fn every_wait_sees_peer_gone(sh: &Shared, seg: &Segment, how: Wait, pid: u32) {
    let d = Some(Deadline::after(Duration::from_secs(20)));
    let gone = WaitError::PeerGone { pid };
    let t = Instant::now();
    assert_eq!(
        sh.to_parent.wait_change(0, &waiter(how, d, seg)),
        Err(gone),
        "flag, {how}"
    );
    let first = t.elapsed();
    assert_eq!(
        sh.put.wait_until(1, &waiter(how, d, seg)),
        Err(gone),
        "signal, {how}"
    );
    assert_eq!(
        sh.sem_to_parent.wait(&waiter(how, d, seg)),
        Err(gone),
        "semaphore, {how}"
    );
    assert_eq!(
        sh.barrier.wait(&waiter(how, d, seg)),
        Err(gone),
        "barrier, {how}"
    );
    println!(
        "{how}: PeerGone {first:?} after the kill (all four primitives then in {:?})",
        t.elapsed()
    );
}

/// The child of the three-forms test: answers the parent's flag through each form.
fn three_forms_child() {
    let seg = open_shared();
    let sh: &Shared = seg.get(0).unwrap();
    let patient = Waiter::watching(&seg)
        .with_patience(Patience::new(Wait::ADAPTIVE).with_timeout(Some(WAIT_LIMIT)));
    sh.to_child.wait_for(1, &patient).unwrap(); // the default form waits for the parent
    sh.to_parent.store(1);
    sh.to_child
        .wait_for_timeout(2, WAIT_LIMIT, &patient)
        .unwrap();
    // The parent stores 3 only after it saw 2: `try_` must answer at once.
    assert_eq!(sh.to_child.try_wait_for(3), Err(WaitError::Timeout));
    sh.to_parent.store(2);
    sh.to_child.wait_for(3, &patient).unwrap();
}

/// A flag's three forms between processes: `wait_for` waits with the waiter's patience (and
/// ends with `Timeout` after its default timeout), `wait_for_timeout` at most the duration
/// given, `try_wait_for` not at all. With no default timeout on the parent's first waiter, a
/// `try_` or `_timeout` form that waited with the patience would hang and fail the watchdog.
#[test]
fn flag_waits_in_their_three_forms_between_processes() {
    const TEST: &str = "flag_waits_in_their_three_forms_between_processes";
    if child_role().is_some() {
        three_forms_child();
        return;
    }
    let _serial = serial();
    handoff_testkit::within(TEST, Duration::from_secs(60), || {
        let seg = create_shared("forms");
        let full = seg.name().unwrap().to_string();
        let sh: &Shared = seg.get(0).unwrap();
        let forever = Waiter::watching(&seg).with_patience(Patience::new(Wait::Block));
        assert_eq!(sh.to_parent.try_wait_for(1), Err(WaitError::Timeout));
        let short = Duration::from_millis(5);
        assert_eq!(
            sh.to_parent.wait_for_timeout(1, short, &forever),
            Err(WaitError::Timeout)
        );
        let impatient = forever.with_patience(Patience::new(Wait::Block).with_timeout(Some(short)));
        assert_eq!(
            sh.to_parent.wait_for(1, &impatient),
            Err(WaitError::Timeout)
        );

        let mut kid = kid(TEST, "three-forms", &[(NAME_ENV, full)]);
        let patient =
            forever.with_patience(Patience::new(Wait::ADAPTIVE).with_timeout(Some(WAIT_LIMIT)));
        sh.to_child.store(1);
        sh.to_parent.wait_for(1, &patient).unwrap();
        sh.to_child.store(2);
        sh.to_parent
            .wait_for_timeout(2, WAIT_LIMIT, &patient)
            .unwrap();
        sh.to_child.store(3);
        assert_eq!(sh.to_parent.try_wait_for(2), Ok(()));
        kid.wait_success();
    });
}

/// A child that attaches, says so, and sleeps until killed.
fn attach_and_sleep() {
    let seg = open_shared();
    let sh: &Shared = seg.get(0).unwrap();
    sh.ready.store(1);
    loop {
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// The parent waits in each strategy while its child is SIGKILLed: `PeerGone`, no hang, and
/// the segment is gone once the parent drops it. Before the kill, deadlines expire with
/// `Timeout` between live processes.
#[test]
fn killed_child_ends_parent_wait_in_every_strategy() {
    const TEST: &str = "killed_child_ends_parent_wait_in_every_strategy";
    if child_role().is_some() {
        attach_and_sleep();
        return;
    }
    let _serial = serial();
    for how in handoff_testkit::WAITS {
        let seg = create_shared("kill-child");
        let full = seg.name().unwrap().to_string();
        let sh: &Shared = seg.get(0).unwrap();
        let mut kid = kid(TEST, "sleeper", &[(NAME_ENV, full.clone())]);
        sh.ready
            .wait_for(1, &waiter(Wait::Block, limit(), &seg))
            .unwrap();

        // Alive peer, short deadline: Timeout from every primitive.
        let short = || Some(Deadline::after(Duration::from_millis(5)));
        assert_eq!(
            sh.to_parent.wait_change(0, &waiter(how, short(), &seg)),
            Err(WaitError::Timeout)
        );
        assert_eq!(
            sh.put.wait_until(1, &waiter(how, short(), &seg)),
            Err(WaitError::Timeout)
        );
        assert_eq!(
            sh.sem_to_parent.wait(&waiter(how, short(), &seg)),
            Err(WaitError::Timeout)
        );
        assert_eq!(
            sh.barrier.wait(&waiter(how, short(), &seg)),
            Err(WaitError::Timeout)
        );

        let victim = kid.guard().process_id();
        let killer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            victim.kill(UnixSignal::Kill).unwrap();
        });
        every_wait_sees_peer_gone(sh, &seg, how, kid.pid());
        killer.join().unwrap();
        kid.guard().wait().unwrap();
        drop(seg);
        assert!(!shm_exists(&full), "{full} left behind");
    }
}

/// Child A creates a segment and sleeps; child B opens it and waits in strategy `how`; A is
/// SIGKILLed. B must see `PeerGone { A }`, exit, and leave no segment behind.
#[test]
fn survivor_of_killed_creator_cleans_up() {
    const TEST: &str = "survivor_of_killed_creator_cleans_up";
    match child_role().as_deref() {
        Some("creator") => {
            let seg = create_shared("creator");
            println!("name: {}", seg.name().unwrap());
            loop {
                std::thread::sleep(Duration::from_secs(1));
            }
        }
        Some("survivor") => {
            let how: Wait = env(WAIT_ENV).parse().unwrap();
            let seg = open_shared();
            let sh: &Shared = seg.get(0).unwrap();
            println!("waiting");
            let r = sh.to_child.wait_change(
                0,
                &waiter(how, Some(Deadline::after(Duration::from_secs(20))), &seg),
            );
            println!("result: {r:?}");
            return; // drops the segment: the creator is dead, so this unlinks it
        }
        Some(other) => panic!("unknown role {other}"),
        None => {}
    }
    let _serial = serial();
    for how in handoff_testkit::WAITS {
        let mut creator = kid(TEST, "creator", &[]);
        let full = creator.expect_line("name: ");
        let mut survivor = kid(
            TEST,
            "survivor",
            &[(NAME_ENV, full.clone()), (WAIT_ENV, how.to_string())],
        );
        survivor.expect_line("waiting");
        std::thread::sleep(Duration::from_millis(10));
        creator.guard().kill().unwrap();
        creator.guard().wait().unwrap();
        let result = survivor.expect_line("result: ");
        assert_eq!(
            result,
            format!(
                "{:?}",
                Err::<u32, _>(WaitError::PeerGone { pid: creator.pid() })
            ),
            "{how}"
        );
        survivor.wait_success();
        assert!(
            !shm_exists(&full),
            "{how}: {full} left behind by the survivor"
        );
    }
}
