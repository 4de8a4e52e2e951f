use super::*;
use crate::atomic::{fence, Ordering};
use crate::sync::NoPeers;
use crate::sys::Error as SysError;
use std::sync::Arc;

#[test]
fn parse_and_display_round_trip() {
    for w in Wait::ALL {
        assert_eq!(w.to_string().parse::<Wait>().unwrap(), w);
    }
    let w: Wait = "adaptive:5us".parse().unwrap();
    assert_eq!(
        w,
        Wait::Adaptive {
            spin_budget: Duration::from_micros(5)
        }
    );
    assert_eq!(w.to_string(), "adaptive:5000ns");
    assert_eq!(w.to_string().parse::<Wait>().unwrap(), w);
    assert_eq!("FUTEX".parse::<Wait>().unwrap(), Wait::Block);
    assert_eq!(Wait::default(), Wait::ADAPTIVE);
    for bad in [
        "",
        "spinn",
        "adaptive:",
        "adaptive:5",
        "adaptive:xus",
        "adaptive:99999999999999999999ms",
    ] {
        let err = bad.parse::<Wait>().unwrap_err();
        assert!(
            matches!(err, SysError::InvalidArgument(_)),
            "{bad:?} -> {err}"
        );
    }
}

/// A minimal primitive for exercising the loop: a word that becomes nonzero.
struct NonZero<'a> {
    word: &'a AtomicU32,
    sleepers: &'a AtomicU32,
}

impl WaitCondition for NonZero<'_> {
    type Output = u32;
    fn poll(&mut self) -> Option<u32> {
        Some(self.word.load(Ordering::Acquire)).filter(|&v| v != 0)
    }
    fn futex_word(&self) -> &AtomicU32 {
        self.word
    }
    fn prepare_sleep(&mut self) -> Result<u32, u32> {
        self.sleepers.fetch_add(1, Ordering::Relaxed);
        fence(Ordering::SeqCst);
        match self.poll() {
            Some(v) => {
                self.sleepers.fetch_sub(1, Ordering::Relaxed);
                Err(v)
            }
            None => Ok(0),
        }
    }
    fn finish_sleep(&mut self) {
        self.sleepers.fetch_sub(1, Ordering::Relaxed);
    }
}

fn publish(word: &AtomicU32, sleepers: &AtomicU32, v: u32) {
    word.store(v, Ordering::Release);
    fence(Ordering::SeqCst);
    if sleepers.load(Ordering::Relaxed) != 0 {
        futex::wake_all(word);
    }
}

/// `Wait::may_sleep` (public) tells a caller whether a strategy can park the thread on a
/// futex: only `Block` and `Adaptive` can.
#[test]
fn only_futex_strategies_may_sleep() {
    let got: Vec<(Wait, bool)> = [Wait::Spin, Wait::SpinYield, Wait::Block, Wait::ADAPTIVE]
        .into_iter()
        .map(|w| (w, w.may_sleep()))
        .collect();
    assert_eq!(
        got,
        [
            (Wait::Spin, false),
            (Wait::SpinYield, false),
            (Wait::Block, true),
            (Wait::ADAPTIVE, true)
        ]
    );
}

#[test]
fn every_strategy_times_out_on_a_false_condition() {
    let word = AtomicU32::new(0);
    let sleepers = AtomicU32::new(0);
    for how in Wait::ALL {
        let d = Deadline::after(Duration::from_millis(5));
        let r = wait_on(
            NonZero {
                word: &word,
                sleepers: &sleepers,
            },
            Until {
                wait: how,
                deadline: Some(d),
            },
            &NoPeers,
            None,
        );
        assert_eq!(r, Err(WaitError::Timeout), "{how}");
        assert!(d.expired());
        assert_eq!(sleepers.load(Ordering::Relaxed), 0);
    }
}

#[test]
fn every_strategy_sees_a_publish_from_another_thread() {
    for how in Wait::ALL.into_iter().chain([Wait::Adaptive {
        spin_budget: Duration::ZERO,
    }]) {
        let word = Arc::new(AtomicU32::new(0));
        let sleepers = Arc::new(AtomicU32::new(0));
        let (w2, s2) = (word.clone(), sleepers.clone());
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(2));
            publish(&w2, &s2, 7);
        });
        let d = Deadline::after(Duration::from_secs(20));
        let r = wait_on(
            NonZero {
                word: &word,
                sleepers: &sleepers,
            },
            Until {
                wait: how,
                deadline: Some(d),
            },
            &NoPeers,
            None,
        );
        assert_eq!(r, Ok(7), "{how}");
        t.join().unwrap();
    }
}

struct DeadPeer;
impl PeerWatch for DeadPeer {
    fn check_peers(&self) -> Result<(), WaitError> {
        Err(WaitError::PeerGone { pid: 4242 })
    }
}

#[test]
fn a_dead_peer_ends_every_strategy() {
    let word = AtomicU32::new(0);
    let sleepers = AtomicU32::new(0);
    for how in Wait::ALL {
        // The watchdog is the deadline: a hang would show as Timeout, not PeerGone.
        let d = Deadline::after(Duration::from_secs(20));
        let r = wait_on(
            NonZero {
                word: &word,
                sleepers: &sleepers,
            },
            Until {
                wait: how,
                deadline: Some(d),
            },
            &DeadPeer,
            None,
        );
        assert_eq!(r, Err(WaitError::PeerGone { pid: 4242 }), "{how}");
    }
}

/// A peer that publishes and then leaves, caught between the waiter's poll and its peer
/// check: the wait must still succeed (the loop polls once more after a failed check).
struct PublishThenLeave<'a>(&'a AtomicU32);
impl PeerWatch for PublishThenLeave<'_> {
    fn check_peers(&self) -> Result<(), WaitError> {
        self.0.store(5, Ordering::Release);
        Err(WaitError::PeerGone { pid: 4243 })
    }
}

#[test]
fn a_peer_that_published_before_leaving_ends_nothing() {
    for how in Wait::ALL {
        let word = AtomicU32::new(0);
        let sleepers = AtomicU32::new(0);
        let cond = NonZero {
            word: &word,
            sleepers: &sleepers,
        };
        let d = Deadline::after(Duration::from_secs(20));
        let r = wait_on(
            cond,
            Until {
                wait: how,
                deadline: Some(d),
            },
            &PublishThenLeave(&word),
            None,
        );
        assert_eq!(r, Ok(5), "{how}");
    }
}

/// A condition that holds from its `n`th poll on (counting every poll).
struct TrueOnPoll {
    n: u32,
    polls: u32,
    word: AtomicU32,
}

impl TrueOnPoll {
    fn new(n: u32) -> Self {
        TrueOnPoll {
            n,
            polls: 0,
            word: AtomicU32::new(0),
        }
    }
}

/// The one site every `TrueOnPoll` wait learns at (a fresh condition per wait would
/// otherwise be a fresh site whenever its stack address differs).
const TRUE_ON_POLL_SITE: usize = 0x7e57;

impl WaitCondition for &mut TrueOnPoll {
    type Output = u32;
    fn site(&self) -> usize {
        TRUE_ON_POLL_SITE
    }
    fn poll(&mut self) -> Option<u32> {
        self.polls += 1;
        (self.polls >= self.n).then_some(self.polls)
    }
    fn futex_word(&self) -> &AtomicU32 {
        &self.word
    }
    fn prepare_sleep(&mut self) -> Result<u32, u32> {
        match self.poll() {
            Some(v) => Err(v),
            None => Ok(0),
        }
    }
}

/// Pinned to one CPU and told the peer last ran there, an adaptive wait yields to the
/// peer on every spin iteration: a condition true on its 5th poll (1 inline poll, then
/// 4 in the spin loop) costs exactly 3 yields.
#[test]
fn adaptive_yields_to_a_peer_on_its_cpu() {
    let cpu = crate::sys::affinity::thread_affinity().unwrap()[0];
    crate::sys::affinity::pin_current_thread(cpu).unwrap();
    reset_adaptive_stats();
    learn::set_state(TRUE_ON_POLL_SITE, 0, 0);
    // A budget no yield outlasts, whatever the load: the wait ends by spinning.
    let how = Wait::Adaptive {
        spin_budget: Duration::from_secs(60),
    };
    let mut cond = TrueOnPoll::new(5);
    let r = wait_on(
        &mut cond,
        Until {
            wait: how,
            deadline: None,
        },
        &NoPeers,
        Some(cpu as u32),
    );
    assert_eq!(r, Ok(5));
    let s = adaptive_stats();
    assert_eq!(
        (s.same_cpu, s.yields, s.spun, s.blocked),
        (1, 3, 1, 0),
        "{s:?}"
    );
    // A peer on another CPU: pause, no yield (true after the quick polls, so the wait
    // reaches the adaptive spin).
    reset_adaptive_stats();
    let n = QUICK_POLLS + 5;
    let mut cond = TrueOnPoll::new(n);
    let other = Some(cpu as u32 + 1);
    assert_eq!(
        wait_on(
            &mut cond,
            Until {
                wait: Wait::ADAPTIVE,
                deadline: None
            },
            &NoPeers,
            other
        ),
        Ok(n)
    );
    let s = adaptive_stats();
    assert_eq!((s.same_cpu, s.yields, s.spun), (0, 0, 1), "{s:?}");
}

/// A peer that answers within the quick polls ends an adaptive wait before any of its
/// bookkeeping (no spin, yield, sleep or learning recorded); on the peer's CPU there are no
/// quick polls (the peer cannot answer while we poll), so the wait goes straight to its
/// yields.
#[test]
fn a_quick_answer_skips_the_adaptive_bookkeeping() {
    reset_adaptive_stats();
    learn::set_state(TRUE_ON_POLL_SITE, 0, 0);
    let n = QUICK_POLLS + 1; // the inline poll, then the quick ones
    let mut cond = TrueOnPoll::new(n);
    assert_eq!(
        wait_on(
            &mut cond,
            Until {
                wait: Wait::ADAPTIVE,
                deadline: None
            },
            &NoPeers,
            None
        ),
        Ok(n)
    );
    let s = adaptive_stats();
    assert_eq!(
        (s.spun, s.blocked, s.yields, s.short),
        (0, 0, 0, 0),
        "{s:?}"
    );
    // One poll later, the wait is an adaptive spin, counted.
    let mut cond = TrueOnPoll::new(n + 1);
    assert_eq!(
        wait_on(
            &mut cond,
            Until {
                wait: Wait::ADAPTIVE,
                deadline: None
            },
            &NoPeers,
            None
        ),
        Ok(n + 1)
    );
    assert_eq!(adaptive_stats().spun, 1);
}

/// From short mode (score high), the 16th wait probes the full budget; a probe that ends
/// by spinning switches back to full-budget spins at once.
#[test]
fn adaptive_probe_that_spins_switches_back_to_full_budget() {
    reset_adaptive_stats();
    learn::set_state(TRUE_ON_POLL_SITE, 256, 0);
    let wait = |stats_short: u64| {
        let n = QUICK_POLLS + 2;
        let mut cond = TrueOnPoll::new(n);
        assert_eq!(
            wait_on(
                &mut cond,
                Until {
                    wait: Wait::ADAPTIVE,
                    deadline: None
                },
                &NoPeers,
                None
            ),
            Ok(n)
        );
        assert_eq!(adaptive_stats().short, stats_short);
    };
    // Waits 1-15 spin short, even though they end spinning (score 256 -> decays
    // only slowly: 192, 144, 108 — below the threshold after the 3rd).
    learn::set_state(TRUE_ON_POLL_SITE, 256, 15);
    wait(0); // the 16th: a probe, not short
             // The probe ended spinning: the next waits spin the full budget.
    for _ in 0..20 {
        wait(0);
    }
    // Control: without a probe, a high score gives short spins.
    learn::set_state(TRUE_ON_POLL_SITE, 256, 0);
    wait(1);
}

/// Waits that outlast the budget switch their site to short spins.
#[test]
fn adaptive_learns_to_spin_short() {
    reset_adaptive_stats();
    // The slow site must not share a slot of the learning table with the quick one below
    // (a stack address does 1 time in 64, which evicted what the slow site had learned).
    let words = [AtomicU32::new(0), AtomicU32::new(0)];
    let word = words
        .iter()
        .find(|w| {
            learn::slot_of(std::ptr::from_ref(*w) as usize) != learn::slot_of(TRUE_ON_POLL_SITE)
        })
        .expect("two adjacent words map to different slots");
    learn::set_state(std::ptr::from_ref(word) as usize, 0, 0);
    let sleepers = AtomicU32::new(0);
    let how = Wait::Adaptive {
        spin_budget: Duration::from_micros(50),
    };
    // Eight long waits teach a quiet machine; on a loaded one a waiter preempted past its
    // deadline while spinning teaches nothing that time, so keep waiting (at most 64) until
    // a short spin shows. A learner that never learns still fails.
    for _ in 0..64 {
        let d = Deadline::after(Duration::from_micros(200));
        let r = wait_on(
            NonZero {
                word,
                sleepers: &sleepers,
            },
            Until {
                wait: how,
                deadline: Some(d),
            },
            &NoPeers,
            None,
        );
        assert_eq!(r, Err(WaitError::Timeout));
        if adaptive_stats().short > 0 {
            break;
        }
    }
    let s = adaptive_stats();
    assert!(
        s.short > 0,
        "long waits should switch to short spins: {s:?}"
    );
    // Learned per site: a wait elsewhere (a quick flag beside the slow barrier) still spins
    // its full budget.
    reset_adaptive_stats();
    learn::set_state(TRUE_ON_POLL_SITE, 0, 0);
    // A budget no preemption of a loaded machine exhausts before the third poll (with the
    // 50 µs one, a descheduled spinner ran out of budget and the test failed under load);
    // a site that had learned "short" from the other one would still be counted in `short`.
    let roomy = Wait::Adaptive {
        spin_budget: Duration::from_millis(20),
    };
    let n = QUICK_POLLS + 3;
    let mut cond = TrueOnPoll::new(n);
    assert_eq!(
        wait_on(
            &mut cond,
            Until {
                wait: roomy,
                deadline: None
            },
            &NoPeers,
            None
        ),
        Ok(n)
    );
    let s = adaptive_stats();
    assert_eq!((s.short, s.spun), (0, 1), "another site spun short: {s:?}");
    // And the slow site is still short: of two waits there (one of them may be the probe
    // that short mode makes every PROBE_EVERY waits), one spins short.
    for _ in 0..2 {
        let d = Deadline::after(Duration::from_micros(200));
        let cond = NonZero {
            word,
            sleepers: &sleepers,
        };
        assert_eq!(
            wait_on(
                cond,
                Until {
                    wait: how,
                    deadline: Some(d)
                },
                &NoPeers,
                None
            ),
            Err(WaitError::Timeout)
        );
    }
    assert!(adaptive_stats().short >= 1, "{:?}", adaptive_stats());
    reset_adaptive_stats();
}

#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
fn cpu_hint_records_the_cpu() {
    let h = CpuHint::new();
    assert_eq!(h.get(), None);
    h.note();
    assert_eq!(h.get(), None, "its own publication says nothing of a peer");
    std::thread::scope(|s| {
        s.spawn(|| {
            assert!(h.get().is_some(), "the other thread's");
            h.note();
        });
    });
    assert!(h.get().is_some());
    assert!(h.replace().is_some());
}

/// `Spin` is refused where it cannot work (two parties on one CPU, more parties than CPUs),
/// with one line naming the cause and the alternatives; everything else passes.
#[test]
fn spin_is_refused_where_it_cannot_work() {
    let e = check_spin(Wait::Spin, 2, &[Some(0), Some(0)], 2).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("PEs 0 and 1 both pinned to CPU 0"), "{msg}");
    assert!(
        msg.contains("spin-yield") && msg.contains("adaptive"),
        "{msg}"
    );
    assert!(!msg.contains('\n'), "one line: {msg}");
    let e = check_spin(Wait::Spin, 4, &[None; 4], 2).unwrap_err();
    assert!(e.to_string().contains("4 PEs on 2 CPUs"), "{e}");
    assert!(check_spin(Wait::Spin, 2, &[Some(0), Some(1)], 2).is_ok());
    assert!(check_spin(Wait::Spin, 2, &[None, None], 2).is_ok());
    for how in [Wait::SpinYield, Wait::Block, Wait::ADAPTIVE] {
        assert!(check_spin(how, 4, &[Some(0); 4], 1).is_ok());
    }
}

/// More runnable threads than CPUs on the machine (spinning threads of this test, none of
/// them a party of the wait) do not make an adaptive wait whose peer is elsewhere yield:
/// it decides from its partner (the hint), not from the machine's load. Before, the load
/// check (`/proc/loadavg`'s runnable count) made such a wait pause only 1 µs and then
/// yield, and a two-PE barrier flipped between spinning and yielding with whatever else
/// ran (issue #44). A peer on the wait's own CPU is still yielded to.
#[test]
fn adaptive_decides_from_its_partner_not_the_machines_load() {
    let online = crate::sys::affinity::online_cpus().map_or(1, |c| c.len());
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    // One more spinner than CPUs: the kernel counts more runnable threads than CPUs for as
    // long as they run (the waiting thread counted too).
    let hogs: Vec<_> = (0..=online)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            })
        })
        .collect();
    // Past the old check's 20 ms refresh, so that it would have read the hogs.
    std::thread::sleep(Duration::from_millis(40));
    let crowded = super::load::oversubscribed_now();
    // A condition that holds after 2 ms: far past the old short spin, within the budget.
    let how = Wait::Adaptive {
        spin_budget: Duration::from_secs(60),
    };
    let until = |ns: u64| TrueAt {
        end: monotonic_ns() + ns,
        word: AtomicU32::new(0),
    };
    learn::set_state(TRUE_AT_SITE, 0, 0);
    reset_adaptive_stats();
    let mut cond = until(2_000_000);
    let elsewhere = wait_on(
        &mut cond,
        Until {
            wait: how,
            deadline: None,
        },
        &NoPeers,
        None,
    );
    let s_elsewhere = adaptive_stats();
    // The same wait told its peer runs on this CPU yields to it.
    learn::set_state(TRUE_AT_SITE, 0, 0);
    reset_adaptive_stats();
    let mut cond = until(2_000_000);
    let here = Some(current_cpu());
    let same = wait_on(
        &mut cond,
        Until {
            wait: how,
            deadline: None,
        },
        &NoPeers,
        here,
    );
    let s_same = adaptive_stats();
    stop.store(true, Ordering::Relaxed);
    for h in hogs {
        h.join().unwrap();
    }
    if !crowded {
        eprintln!(
            "SKIP: adaptive_decides_from_its_partner_not_the_machines_load: {} spinning \
             threads on {online} CPUs did not read as oversubscribed",
            online + 1
        );
        return;
    }
    assert_eq!(elsewhere, Ok(()));
    assert_eq!(
        (s_elsewhere.same_cpu, s_elsewhere.yields, s_elsewhere.spun),
        (0, 0, 1),
        "a wait whose peer is elsewhere paused: {s_elsewhere:?}"
    );
    assert_eq!(same, Ok(()));
    assert!(
        s_same.same_cpu == 1 && s_same.yields > 0,
        "a wait whose peer is on its CPU yields: {s_same:?}"
    );
}

/// A condition that holds from a point in time on.
struct TrueAt {
    end: u64,
    word: AtomicU32,
}

const TRUE_AT_SITE: usize = 0x7e58;

impl WaitCondition for &mut TrueAt {
    type Output = ();
    fn site(&self) -> usize {
        TRUE_AT_SITE
    }
    fn poll(&mut self) -> Option<()> {
        (monotonic_ns() >= self.end).then_some(())
    }
    fn futex_word(&self) -> &AtomicU32 {
        &self.word
    }
    fn prepare_sleep(&mut self) -> Result<u32, ()> {
        match self.poll() {
            Some(v) => Err(v),
            None => Ok(0),
        }
    }
    fn max_sleep(&mut self) -> Option<Duration> {
        Some(Duration::from_micros(100))
    }
}

/// The wake-up cost is measured (two placements, sane figures), cached, and bounds the
/// default adaptive budget.
#[test]
fn wake_cost_is_measured_and_bounds_the_default_budget() {
    let Some(c) = measure_wake_cost() else {
        eprintln!("SKIP: wake_cost_is_measured_and_bounds_the_default_budget: no measurement (no thread, or no answer within 50 ms)");
        return;
    };
    eprintln!("measured wake-up cost: {c:?}");
    assert!(
        c.cross_cpu > Duration::ZERO && c.same_cpu > Duration::ZERO,
        "{c:?}"
    );
    // A sleeper woken from another CPU costs microseconds anywhere; a fraction of one is
    // two threads that never slept (4 in 40 processes measured 0.2-0.6 µs so).
    assert!(c.cross_cpu >= Duration::from_micros(1), "{c:?}");
    assert!(
        c.cross_cpu < cost::GIVE_UP && c.same_cpu < cost::GIVE_UP,
        "{c:?}"
    );
    assert_eq!(wake_cost(), Some(c), "cached");
    assert_eq!(measure_wake_cost(), Some(c), "measured once");
    let b = cost::spin_budget(Wait::DEFAULT_SPIN_BUDGET);
    assert_eq!(b, c.spin_budget());
    assert!((cost::MIN_BUDGET..=cost::MAX_BUDGET).contains(&b), "{b:?}");
}

/// `poll_until` (no waker): every strategy sees a condition that comes true from another
/// thread, and one that never does ends at the deadline; a long adaptive wait sleeps in
/// bounded slices rather than spinning (its thread's CPU time stays a small part).
#[test]
fn poll_until_waits_without_a_waker() {
    for how in Wait::ALL {
        let word = Arc::new(AtomicU32::new(0));
        let w2 = word.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(3));
            w2.store(5, Ordering::Release);
        });
        let got = poll_until(
            || Some(word.load(Ordering::Acquire)).filter(|&v| v != 0),
            Until {
                wait: how,
                deadline: Some(Deadline::after(Duration::from_secs(10))),
            },
            &NoPeers,
        );
        t.join().unwrap();
        assert_eq!(got, Ok(5), "{how}");
        let never = poll_until(
            || None::<()>,
            Until {
                wait: how,
                deadline: Some(Deadline::after(Duration::from_millis(2))),
            },
            &NoPeers,
        );
        assert_eq!(never, Err(WaitError::Timeout), "{how}");
    }
    let cpu = || {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
    };
    let (c0, t0) = (cpu(), std::time::Instant::now());
    let never = poll_until(
        || None::<()>,
        Until {
            wait: Wait::ADAPTIVE,
            deadline: Some(Deadline::after(Duration::from_millis(300))),
        },
        &NoPeers,
    );
    assert_eq!(never, Err(WaitError::Timeout));
    let share = (cpu() - c0).as_secs_f64() / t0.elapsed().as_secs_f64();
    assert!(share < 0.5, "a long polling wait used {share:.2} of a CPU");
}

/// The quick polls before a wait's bookkeeping: `Spin` and `Adaptive` poll up to 16 times
/// and stop at the first answer; `Adaptive` on the peer's CPU, `Block` and `SpinYield`
/// do not poll at all (they give the CPU away, or yield soon anyway).
#[test]
fn poll_quickly_polls_only_spinning_waits_off_the_peer_cpu() {
    let count = |how: Wait, same_cpu: bool, answer_at: u32| {
        let mut polls = 0;
        let got = poll_quickly(how, same_cpu, || {
            polls += 1;
            (polls == answer_at).then_some(polls)
        });
        (got, polls)
    };
    assert_eq!(count(Wait::Spin, false, 5), (Some(5), 5));
    assert_eq!(count(Wait::ADAPTIVE, false, 3), (Some(3), 3));
    assert_eq!(count(Wait::Spin, false, 0), (None, QUICK_POLLS));
    assert_eq!(
        count(Wait::ADAPTIVE, false, QUICK_POLLS + 1),
        (None, QUICK_POLLS)
    );
    assert_eq!(count(Wait::ADAPTIVE, true, 1), (None, 0));
    assert_eq!(count(Wait::Block, false, 1), (None, 0));
    assert_eq!(count(Wait::SpinYield, false, 1), (None, 0));
}

/// Two threads on two CPUs taking turns on one flag (each stores, then waits for the
/// other's store): no wait takes the other for a thread on its own CPU. With a hint of one
/// slot each read its own store's CPU and yielded on every poll (the default wait 2.3-6.8×
/// a spinning one).
#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
fn a_turn_flag_between_two_cpus_takes_no_same_cpu_wait() {
    let cpus = crate::sys::allowed_cpus().expect("allowed CPUs");
    if cpus.len() < 2 {
        eprintln!("SKIP: a_turn_flag_between_two_cpus_takes_no_same_cpu_wait: needs 2 CPUs");
        return;
    }
    const TURNS: u32 = 500;
    let f = crate::sync::Flag::new();
    let how = Wait::ADAPTIVE;
    let (mine, theirs) = std::thread::scope(|s| {
        let other = s.spawn(|| {
            crate::sys::pin_current_thread(cpus[1]).unwrap();
            reset_adaptive_stats();
            for i in 0..TURNS {
                f.wait_for(2 * i + 1, &crate::sync::waiter::w(how, None, &NoPeers))
                    .unwrap();
                f.store(2 * i + 2);
            }
            adaptive_stats()
        });
        crate::sys::pin_current_thread(cpus[0]).unwrap();
        reset_adaptive_stats();
        for i in 0..TURNS {
            f.store(2 * i + 1);
            f.wait_for(2 * i + 2, &crate::sync::waiter::w(how, None, &NoPeers))
                .unwrap();
        }
        (adaptive_stats(), other.join().unwrap())
    });
    assert_eq!(mine.same_cpu + theirs.same_cpu, 0, "{mine:?} {theirs:?}");
}
