//! What every team experiment (`pingpong`, `alltoall`, `stencil`, `rma-sync`, `atomics`,
//! `msgrate`, `overlap`) shares on the PE side: one team run ([`TeamSpec`]), each PE printing
//! one [`PeOutput`] line on its stdout; the PE body generic over the transport ([`PeBody`]);
//! the payload patterns the PEs verify and the faults tests inject. [`super::launcher`]
//! starts and supervises the teams (and says how a failure ends a run, never hangs it).

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use handoff::sync::Wait;
use handoff::team::{Team, Transport};
use serde::{Deserialize, Serialize};

use crate::bench::experiment::{BenchError, RunCtx, TransportKind};

/// The report section of the counting-puts experiments (`pingpong`, `alltoall`, `stencil`).
pub const SECTION: &str = "Counting puts";
/// The seed they reproduce.
pub const SEED: &str =
    "Dinan et al., \"Reducing synchronization overhead through bundled communication\" (seed 003)";

/// What one PE reports to the launcher: one JSON line on its stdout.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PeOutput {
    /// The PE's rank.
    pub rank: usize,
    /// The PE's measurements (the experiment says what they are; may be empty).
    pub samples: Vec<f64>,
    /// Whether every check this PE made of the data it received passed.
    pub verified: bool,
    /// The first failed check, in words ("" when verified).
    pub failure: String,
    /// Items (messages, values) this PE checked; 0 from workers that do not count.
    #[serde(default)]
    pub checked: u64,
    /// Checks that failed (each [`PeOutput::fail`] is one).
    #[serde(default)]
    pub wrong: u64,
    /// `routes[j]`: the mechanism that served this PE's operations to PE j
    /// ([`Team::route`]: "shm", "mpi-shm", "mpi-rma"); empty from older workers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<String>,
    /// Per sample, the hand-off floors the PE pair measured just before it, one-way ns:
    /// `[c2c, store]` ([`super::team_floor`]); empty when not measured.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub floors: Vec<[f64; 2]>,
}

impl PeOutput {
    /// PE `rank`'s output before anything is measured or checked: verified until
    /// [`PeOutput::fail`].
    pub fn of(rank: usize) -> PeOutput {
        PeOutput {
            rank,
            verified: true,
            ..PeOutput::default()
        }
    }

    /// A PE's output with its `samples` and its own checks: `checked` items of which `wrong`
    /// were wrong (verified when none was).
    pub fn counted(rank: usize, samples: Vec<f64>, checked: u64, wrong: u64) -> PeOutput {
        PeOutput {
            samples,
            verified: wrong == 0,
            failure: if wrong == 0 {
                String::new()
            } else {
                format!("PE {rank}: {wrong} of {checked} items wrong")
            },
            checked,
            wrong,
            ..PeOutput::of(rank)
        }
    }

    /// Counts one item checked: a wrong one (`ok` false) fails ([`PeOutput::fail`]) with
    /// "PE {rank}: " and `why()`.
    pub fn verify(&mut self, ok: bool, why: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok {
            self.fail(format!("PE {}: {}", self.rank, why()));
        }
    }

    /// Records a failed check: `verified` becomes false; the first three failures are kept
    /// in `failure`, joined by "; ".
    pub fn fail(&mut self, why: String) {
        self.verified = false;
        self.wrong += 1;
        if self.failure.is_empty() {
            self.failure = why;
        } else if self.failure.matches("; ").count() < 2 {
            self.failure.push_str("; ");
            self.failure.push_str(&why);
        }
    }
}

/// Adds the counted checks of every PE of a run to `checks`; a PE that says it did not
/// verify without a failure counted adds one wrong.
pub fn add_checks(checks: &mut crate::bench::Checks, outs: &[PeOutput]) {
    for o in outs {
        checks.add(o.checked, o.wrong.max(u64::from(!o.verified)));
    }
}

/// One team to start for one run of a point.
#[derive(Debug, Clone)]
pub struct TeamSpec {
    /// The executable (`handoff`).
    pub exe: PathBuf,
    /// Its arguments before the experiment's name (`["__worker"]`).
    pub args: Vec<OsString>,
    /// The experiment's name (the worker to run).
    pub experiment: &'static str,
    /// The worker's one argument (its JSON spec).
    pub spec: String,
    pub pes: usize,
    /// PE `r` runs on `cpus[r % cpus.len()]`; empty: unpinned.
    pub cpus: Vec<usize>,
    pub wait: Wait,
    /// Symmetric heap bytes per PE.
    pub heap: usize,
    /// Kill every PE still running after this long ([`handoff::team::Launch::timeout`]).
    pub deadline: Duration,
    /// The point, for error messages ("counting-put 8 B same-core").
    pub label: String,
    /// Which transport serves the team ([`TransportKind::Shm`]: `team::Launch`; an MPI
    /// kind: `mpiexec`, see [`super::team_mpi`]).
    pub transport: TransportKind,
    /// Under `mpirun` ([`super::team_session`]): the job ranks that run this team, as ranks
    /// `0..`; empty: every rank (then `pes` must be the job's size).
    pub members: Vec<usize>,
}

impl TeamSpec {
    /// A team of `pes` PEs of `experiment`'s worker with `spec`, started from this run's
    /// executable: PE `r` on the run's `r mod n`-th CPU, adaptive waits, 4 MiB of heap per PE,
    /// handoff's shared-memory transport, killed after 120 s; `label` names the point in
    /// errors. Callers change what differs with struct update syntax.
    pub fn new(
        ctx: &RunCtx<'_>,
        experiment: &'static str,
        spec: &impl Serialize,
        pes: usize,
        label: String,
    ) -> TeamSpec {
        TeamSpec {
            exe: ctx.exe.clone(),
            args: ctx.args.clone(),
            experiment,
            spec: serde_json::to_string(spec).unwrap_or_default(),
            pes,
            cpus: ctx.allowed_cpus.to_vec(),
            wait: Wait::ADAPTIVE,
            heap: 4 << 20,
            deadline: Duration::from_secs(120),
            label,
            transport: TransportKind::Shm,
            members: Vec::new(),
        }
    }
}

/// Whether `r` ran on handoff's shared-memory transport (a record without `transport` is
/// from before MPI transports: shared memory).
pub fn on_shm(r: &crate::bench::BenchRecord) -> bool {
    ["shm", ""].contains(&r.param_text("transport").as_str())
}

/// A record's series: `base`, with " [mpi-rma]" when the `transport` (or route) that served
/// it is not handoff's own `shm`, so the transports' series never merge (shm keeps the name
/// of results from before MPI transports existed).
pub fn series(base: String, transport: &str) -> String {
    match transport {
        "shm" => base,
        t => format!("{base} [{t}]"),
    }
}

/// A PE's stdout did not end with its result line (a bug in the worker, or a PE that died
/// before writing it: its exit status says which).
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// No line starts with `{`.
    #[error("PE {rank} printed no result line (stdout: {text:?})")]
    Missing {
        rank: usize,
        /// Its whole stdout.
        text: String,
    },
    /// The last `{` line is not a [`PeOutput`].
    #[error("PE {rank} printed a bad result line ({source}): {line:?}")]
    Bad {
        rank: usize,
        line: String,
        /// What serde_json said.
        source: serde_json::Error,
    },
    /// The line names another rank (outputs were mixed up).
    #[error("PE {rank}'s result line says it is rank {claimed}")]
    WrongRank {
        rank: usize,
        /// The rank its line claims.
        claimed: usize,
    },
}

/// The last JSON line of a PE's stdout as its [`PeOutput`].
pub fn parse_output(rank: usize, text: &str) -> Result<PeOutput, OutputError> {
    let line = text
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
        .ok_or_else(|| OutputError::Missing {
            rank,
            text: text.to_string(),
        })?;
    let out: PeOutput = serde_json::from_str(line).map_err(|source| OutputError::Bad {
        rank,
        line: line.to_string(),
        source,
    })?;
    if out.rank != rank {
        return Err(OutputError::WrongRank {
            rank,
            claimed: out.rank,
        });
    }
    Ok(out)
}

/// What a PE of a counting-puts experiment runs, on any transport: the worker's JSON spec.
pub trait PeBody: serde::de::DeserializeOwned {
    const NAME: &'static str;
    /// What a PE's part can fail with (a team call's error).
    type Error: std::fmt::Display;
    /// The bound on every wait of the team.
    const WAIT_TIMEOUT: Duration;
    /// This PE's part of the run.
    fn run<X: Transport>(&self, team: &Team<X>) -> Result<PeOutput, Self::Error>;
}

/// Implements [`PeBody`] for a team worker's spec: `NAME` of the calling module, waits
/// bounded by `$wait` (a `Duration`), and the PE's part `$pe_main(team, spec)`, which fails
/// with a [`handoff::team::TeamError`] or the error type given last. The worker's entry
/// point is then `launcher::worker_main::<$spec>`.
macro_rules! pe_body {
    ($spec:ty, $pe_main:path, $wait:expr) => {
        $crate::experiments::team_run::pe_body!($spec, $pe_main, $wait, handoff::team::TeamError);
    };
    ($spec:ty, $pe_main:path, $wait:expr, $error:ty) => {
        impl $crate::experiments::team_run::PeBody for $spec {
            const NAME: &'static str = NAME;
            const WAIT_TIMEOUT: std::time::Duration = $wait;
            type Error = $error;
            fn run<X: handoff::team::Transport>(
                &self,
                team: &handoff::team::Team<X>,
            ) -> Result<$crate::experiments::team_run::PeOutput, $error> {
                $pe_main(team, self)
            }
        }
    };
}
pub(crate) use pe_body;

/// Runs `spec`'s body on `team` (every wait bounded by its `WAIT_TIMEOUT`) and returns this
/// PE's output, with the route that served it to every PE.
pub fn run_body<B: PeBody, X: Transport>(
    team: &mut Team<X>,
    spec: &B,
) -> Result<PeOutput, BenchError> {
    let patience = team.patience().with_timeout(Some(B::WAIT_TIMEOUT));
    team.set_patience(patience)
        .map_err(|e| pe_failed(B::NAME, e))?;
    let mut out = spec.run(team).map_err(|e| pe_failed(B::NAME, e))?;
    out.routes = (0..team.size())
        .map(|pe| super::team_view::route_name(team.route(pe)))
        .collect();
    Ok(out)
}

/// Inside a worker: prints this PE's output line and ends its part of the team.
pub fn finish<X: Transport>(
    experiment: &'static str,
    team: Team<X>,
    out: &PeOutput,
) -> Result<(), BenchError> {
    let line = serde_json::to_string(out).unwrap_or_default();
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{line}")
        .and_then(|()| stdout.flush())
        .map_err(|e| BenchError::failed(experiment, format!("writing the result line: {e}")))?;
    team.finalize().map_err(|e| pe_failed(experiment, e))
}

/// A PE's part failed inside a worker.
pub fn pe_failed(experiment: &'static str, e: impl std::fmt::Display) -> BenchError {
    BenchError::failed(experiment, format!("PE: {e}"))
}

/// Word `i` of the payload a PE with salt `salt` sends in its message `m`: a multiplicative
/// hash, different for every word, sender and message parity, so a stale, torn or misplaced
/// copy differs in every cache line.
#[inline]
pub fn pattern(i: usize, salt: u64, m: u64) -> u64 {
    ((i as u64) ^ (salt << 40) ^ ((m & 1) << 63)).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
}

/// The `words`-word payloads of `salt` for messages of parity 0 and 1 (word 0 is then
/// stamped by the sender with the message's number).
pub fn payloads(words: usize, salt: u64) -> [Vec<u64>; 2] {
    [0, 1].map(|m| (0..words).map(|i| pattern(i, salt, m)).collect())
}

/// Checks a received payload of message `m` from `salt`: word 0 must be the stamp `m`, and
/// one word in every cache line (every 8th) and the last word must be the pattern. `None`
/// when it checks out, else the first wrong word in words.
pub fn check(buf: &[u64], salt: u64, m: u64) -> Option<String> {
    first_wrong(buf, salt, m).map(|i| describe_wrong(buf, salt, m, i))
}

/// [`check`]'s test without the words: the index of the first wrong word it checks.
///
/// For a timed loop: a check returning `Option<String>` inlined into a hand-off loop cost
/// 2-15 ns a hop (`examples/line_hop`, issue #23); the words are made out of line, on failure.
#[inline]
pub fn first_wrong(buf: &[u64], salt: u64, m: u64) -> Option<usize> {
    match buf {
        [] => None,
        // A one-word message (8 B) is its stamp: its test is one compare, with nothing of the
        // longer messages' loop on a small hand-off's critical path (it cost 0.15-0.3× the
        // store floor of a line hop, issue #23).
        [first] => (*first != m).then_some(0),
        [first, ..] if *first != m => Some(0),
        _ => pattern_wrong(buf, salt, m),
    }
}

/// The pattern words [`first_wrong`] tests in a message of 2 words or more whose stamp is
/// right: one in every cache line and the last.
#[inline(never)]
fn pattern_wrong(buf: &[u64], salt: u64, m: u64) -> Option<usize> {
    let last = buf.len() - 1;
    (8..buf.len())
        .step_by(8)
        .chain((last > 0).then_some(last))
        .find(|&i| buf[i] != pattern(i, salt, m))
}

/// What is wrong with word `i` of a payload [`first_wrong`] refused, in words.
#[cold]
#[inline(never)]
pub fn describe_wrong(buf: &[u64], salt: u64, m: u64, i: usize) -> String {
    if i == 0 {
        return format!("stamp word is {}, expected message {m}", buf[0]);
    }
    format!(
        "word {i} of message {m} is {:#x}, expected {:#x}",
        buf[i],
        pattern(i, salt, m)
    )
}

/// A fault injected on purpose (tests prove a bad transfer is caught and a dying PE is
/// reported): `KIND@N`, N the message, round or row it hits (0-based).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// Which fault, one of the experiment's kinds.
    pub kind: String,
    /// Which message / round / row it hits (0-based).
    pub at: u64,
}

/// Parses `--fault KIND@N` where `KIND` is one of `kinds`.
pub fn parse_fault(
    experiment: &'static str,
    kinds: &[&str],
    text: &str,
) -> Result<Fault, BenchError> {
    let bad = || {
        BenchError::usage(
            experiment,
            format!(
                "--fault {text}: expected KIND@N, KIND one of {}",
                kinds.join(", ")
            ),
        )
    };
    let (k, n) = text.split_once('@').ok_or_else(bad)?;
    if !kinds.contains(&k) {
        return Err(bad());
    }
    Ok(Fault {
        kind: k.to_string(),
        at: n.trim().parse().map_err(|_| bad())?,
    })
}

/// Inside a worker: the fault `exit@N` ends this PE with code 9 at step N, as a crash would.
pub fn maybe_exit(fault: &Option<Fault>, rank: usize, step: u64) {
    if rank == 1 && hits(fault, "exit", step) {
        std::process::exit(9);
    }
}

/// Whether `fault` is `kind@step`.
pub fn hits(fault: &Option<Fault>, kind: &str, step: u64) -> bool {
    fault
        .as_ref()
        .is_some_and(|f| f.kind == kind && f.at == step)
}

/// Adds the reason to a finding's sentence ("Why here: ...").
pub fn because(mut f: crate::bench::Finding, why: &str) -> crate::bench::Finding {
    f.sentence.push_str(" Why here: ");
    f.sentence.push_str(why);
    f
}

/// What a method costs on one node, for the findings' reasons: the seed's own "shared memory
/// implementation" of a counting put is copy, membar, atomic increment.
pub const SAME_WORK: &str = "on one node a put is a memcpy and a counting put (or put with \
    signal) is that copy plus one atomic on the target's word — the seed's own shared-memory \
    implementation, and exactly what put + fence + flag does (the fence is free on x86); the \
    seed's gain came from sparing a network message, which does not exist here, so parity is \
    expected.";

/// Why oversubscribed points differ, for the findings' reasons.
pub const OVERSUBSCRIBED: &str = "with more PEs than CPUs a wait that is not already \
    satisfied costs a scheduler hand-off (tens of µs), which dwarfs the message costs the \
    claim is about; which method wins depends on how often a PE must sleep.";

/// ", oversubscribed" when a team of `pes` PEs had more PEs than `res`'s machine has CPUs
/// (else ""), for a finding's claim.
pub fn oversubscribed(res: &crate::bench::BenchResults, pes: usize) -> &'static str {
    let cpus = res.machine.allowed_cpus.len();
    if cpus > 0 && pes > cpus {
        ", oversubscribed"
    } else {
        ""
    }
}

/// Parses a wait strategy flag.
pub fn parse_wait(experiment: &'static str, text: &str) -> Result<Wait, BenchError> {
    text.parse::<Wait>()
        .map_err(|e| BenchError::usage(experiment, format!("--wait {text}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_catches_stale_torn_and_misplaced_payloads() {
        let [mut stale, mut b] = payloads(64, 3);
        b[0] = 5;
        assert_eq!(check(&b, 3, 5), None);
        // Stale: the previous message (other parity), stamp and all.
        stale[0] = 4;
        assert!(check(&stale, 3, 5).unwrap().contains("stamp"));
        // Torn: the stamp is new but the second half is the previous message's.
        let mut torn = b.clone();
        torn[32..].copy_from_slice(&stale[32..]);
        assert!(check(&torn, 3, 5).unwrap().contains("word 32"));
        // From another sender.
        let [_, mut other] = payloads(64, 4);
        other[0] = 5;
        assert!(check(&other, 3, 5).is_some());
        // One word: only the stamp.
        assert_eq!(check(&[7], 0, 7), None);
        assert!(check(&[6], 0, 7).is_some());
        assert_eq!(first_wrong(&[], 0, 7), None);
        // Two words and a line's seven: the last word is tested, and the stamp first.
        for n in [2, 7] {
            let [_, mut w] = payloads(n, 3);
            w[0] = 5;
            assert_eq!(first_wrong(&w, 3, 5), None, "{n} words");
            w[n - 1] ^= 1;
            assert_eq!(first_wrong(&w, 3, 5), Some(n - 1), "{n} words");
            w[0] = 4;
            assert_eq!(first_wrong(&w, 3, 5), Some(0), "{n} words");
        }
    }

    #[test]
    fn failures_keep_the_first_three() {
        let mut o = PeOutput {
            verified: true,
            ..PeOutput::default()
        };
        for i in 0..5 {
            o.fail(format!("f{i}"));
        }
        assert!(!o.verified);
        assert_eq!(o.failure, "f0; f1; f2");
        // Every failure counts as one wrong item; a PE's own flag without a count is one.
        assert_eq!(o.wrong, 5);
        o.checked = 9;
        let flag_only = PeOutput {
            verified: false,
            checked: 4,
            ..PeOutput::default()
        };
        let mut c = crate::bench::Checks::of("messages");
        add_checks(&mut c, &[o.clone(), flag_only]);
        assert_eq!((c.checked, c.wrong), (13, 6));
    }

    #[test]
    fn output_lines_parse_and_name_their_rank() {
        let o = PeOutput {
            rank: 1,
            samples: vec![1.5],
            verified: true,
            failure: String::new(),
            routes: Vec::new(),
            checked: 7,
            wrong: 0,
            floors: vec![[38.5, 52.0]],
        };
        let text = format!("noise\n{}\n", serde_json::to_string(&o).unwrap());
        assert_eq!(parse_output(1, &text).unwrap(), o);
        assert!(parse_output(0, &text)
            .unwrap_err()
            .to_string()
            .contains("rank 1"));
        assert!(parse_output(0, "")
            .unwrap_err()
            .to_string()
            .contains("no result line"));
        let f = parse_fault("x", &["skip-put", "exit"], "skip-put@3").unwrap();
        assert_eq!((f.kind.as_str(), f.at), ("skip-put", 3));
        assert!(hits(&Some(f.clone()), "skip-put", 3));
        assert!(!hits(&Some(f), "skip-put", 2));
        assert!(parse_fault("x", &["skip-put"], "skip@3").is_err());
        assert!(parse_fault("x", &["skip-put"], "skip-put@x").is_err());
        assert!(parse_fault("x", &["skip-put"], "skip-put").is_err());
    }
}
