//! The MPI build (feature `mpi`, issue #42): test programs of `tests/c/`, linked once with
//! `bin/oshcc --mpi` against this build's `libhandoff_shmem.so`, run unchanged under
//! `handoff run` (the team launcher, shared memory) and under the MPI launcher on `PATH`
//! (`mpiexec`; `scripts/mpi-test mpich|openmpi cargo test -p handoff-shmem --features mpi
//! --test mpi` pins one library) on its three paths: the shared window (`mpiexec -n 2`), MPI
//! RMA (`HANDOFF_MPI_WINDOW=rma`) and mixed (`HANDOFF_MPI_NODES=2 mpiexec -n 4`). Static
//! symmetric data, contexts, teams, locks, signals, counting puts, waits and collectives;
//! each program checks its data against closed forms and PE 0 prints `OK NAME N PEs`;
//! `threads` asks for `SHMEM_THREAD_MULTIPLE` (MPI then initializes `MPI_THREAD_MULTIPLE`)
//! and runs 4 threads per PE at once. What a path cannot give (`shmem_ptr` to a PE reached
//! by MPI calls) the programs expect from the launcher's settings (`check.h`). Also: `shmem_global_exit` ends
//! the MPI job with its status, and a program run without any launcher is told how to start.
//! Without an MPI launcher on `PATH` each test prints a `SKIP:` line.

#![cfg(feature = "mpi")]

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use handoff::sync::Wait;
use handoff::team::Launch;

/// A job that runs longer is killed and the test fails (a hang, not a slow machine: the
/// programs take seconds; MPICH's RMA path with 4 ranks on 2 busy CPUs takes tens).
const LIMIT: Duration = Duration::from_secs(240);

/// The programs run on every path.
const PROGRAMS: [&str; 10] = [
    "symdata", "rma", "amo", "wait", "coll", "teams", "ctx", "ct", "p2p", "threads",
];

/// The directory holding this build's `libhandoff_shmem.so` (`deps/`, beside the test).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().to_path_buf();
    assert!(
        dir.join("libhandoff_shmem.so").exists(),
        "libhandoff_shmem.so not found in {}",
        dir.display()
    );
    dir
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles `tests/c/NAME.c` with `bin/oshcc --mpi` (once per test binary run).
fn build(name: &str) -> PathBuf {
    build_with(name, "cc")
}

/// [`build`] with the back-end compiler `cc` (`mpicc` for a program that includes `mpi.h`).
fn build_with(name: &str, cc: &str) -> PathBuf {
    static BUILD: Mutex<()> = Mutex::new(());
    let _g = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let dir = lib_dir().parent().unwrap().join("shmem-mpi-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(format!("{name}-{}", std::process::id()));
    if out.exists() {
        return out;
    }
    let o = Command::new(crate_dir().join("bin/oshcc"))
        .env("HANDOFF_SHMEM_LIBDIR", lib_dir())
        .env_remove("HANDOFF_SHMEM_CC")
        .env("CC", cc)
        .args([
            "--mpi", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-pthread",
        ])
        .arg("-o")
        .arg(&out)
        .arg(crate_dir().join("tests/c").join(format!("{name}.c")))
        .output()
        .unwrap_or_else(|e| panic!("run bin/oshcc (needs cc): {e}"));
    assert!(
        o.status.success(),
        "oshcc --mpi {name}.c failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The MPI launcher on `PATH`, checked to belong to the library this build is linked with
/// (another library's launcher starts each rank as a job of its own); `None`: none there.
fn launcher() -> Option<(&'static str, bool)> {
    let version = ["mpiexec", "mpirun"].into_iter().find_map(|l| {
        let o = Command::new(l).arg("--version").output().ok()?;
        Some((
            l,
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr),
        ))
    })?;
    let open = version.1.contains("Open MPI") || version.1.contains("OpenRTE");
    let library = handoff_mpi::MpiTransport::library_version();
    assert_eq!(
        open,
        library.contains("Open MPI"),
        "this build runs on {library:?} but `{}` on PATH is another library's; pin one with \
         scripts/mpi-test mpich|openmpi",
        version.0
    );
    Some((version.0, open))
}

/// How a job ended: its exit code (`None`: killed by a signal) and everything it printed.
struct Job {
    code: Option<i32>,
    output: String,
}

/// Runs `prog ARGS` on `n` ranks under the MPI launcher with `env`; `None` (after a `SKIP:`
/// line naming `test`) when there is no launcher.
fn mpiexec(test: &str, prog: &Path, args: &[&str], n: usize, env: &[(&str, &str)]) -> Option<Job> {
    static ONE_JOB_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _one = ONE_JOB_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some((launcher, open_mpi)) = launcher() else {
        eprintln!("SKIP: {test}: no mpiexec/mpirun on PATH (scripts/mpi-test mpich|openmpi)");
        return None;
    };
    let mut cmd = Command::new(launcher);
    if open_mpi {
        cmd.arg("--oversubscribe");
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            cmd.arg("--allow-run-as-root");
        }
        for (k, _) in env {
            cmd.args(["-x", k]);
        }
    }
    cmd.args(["-n", &n.to_string()])
        .arg(prog)
        .args(args)
        .env_remove("HANDOFF_MPI_WINDOW")
        .env_remove("HANDOFF_MPI_NODES")
        .env_remove(handoff::implementor::ENV_TEAM)
        .envs(env.iter().copied())
        .env("SHMEM_SYMMETRIC_SIZE", "16M")
        // cargo's LD_LIBRARY_PATH may hold a stale libhandoff_shmem.so of `cargo build`.
        .env("LD_LIBRARY_PATH", lib_dir())
        .stdin(Stdio::null())
        .process_group(0);
    Some(watch(
        cmd,
        &format!("{launcher} -n {n} {} {env:?}", prog.display()),
    ))
}

/// Runs `cmd` (its own process group) with output to a file; past [`LIMIT`] the group is
/// killed and the test fails.
fn watch(mut cmd: Command, what: &str) -> Job {
    let log = std::env::temp_dir().join(format!(
        "handoff-shmem-mpi-{}-{:?}.log",
        std::process::id(),
        std::thread::current().id()
    ));
    let file = std::fs::File::create(&log).unwrap();
    cmd.stdout(file.try_clone().unwrap()).stderr(file);
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("start {what}: {e}"));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > LIMIT {
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    let Some(status) = status else {
        // SAFETY: kill(2) of the job's own process group (made by process_group(0)).
        unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
        let _ = child.wait();
        panic!("{what} still ran after {LIMIT:?} (killed); it printed:\n{output}");
    };
    Job {
        code: status.code(),
        output,
    }
}

/// Every program of [`PROGRAMS`] under the MPI launcher with `env` on `n` ranks.
fn all_pass(test: &str, n: usize, env: &[(&str, &str)]) {
    for name in PROGRAMS {
        let prog = build(name);
        let Some(job) = mpiexec(test, &prog, &[], n, env) else {
            return;
        };
        assert!(
            job.code == Some(0) && job.output.contains(&format!("OK {name} {n} PEs")),
            "{name} on {n} ranks {env:?}: exit {:?}, printed:\n{}",
            job.code,
            job.output
        );
    }
}

#[test]
fn programs_pass_on_the_mpi_shared_window() {
    all_pass("programs_pass_on_the_mpi_shared_window", 2, &[]);
}

#[test]
fn programs_pass_on_mpi_rma() {
    all_pass(
        "programs_pass_on_mpi_rma",
        2,
        &[("HANDOFF_MPI_WINDOW", "rma")],
    );
}

#[test]
fn programs_pass_on_the_mixed_path() {
    all_pass(
        "programs_pass_on_the_mixed_path",
        4,
        &[("HANDOFF_MPI_NODES", "2")],
    );
}

/// Which MPI calls barriers and gets make (`mpi_calls.c` counts them through the MPI
/// profiling interface): none on the shared window; on the RMA and mixed paths with Open
/// MPI, its blocking `MPI_Barrier` when the wait has no deadline (it polled `MPI_Ibarrier`,
/// which made its RMA barrier 3.3 times a plain `MPI_Barrier` program), else the polled
/// `MPI_Ibarrier` (MPICH, `HANDOFF_WAIT=block`, more ranks than CPUs); gets are `MPI_Get`,
/// but `MPI_Rget` polled with yields when the node runs more ranks than CPUs (MPICH's
/// blocking calls spin without yielding; tests-sos `spam` ran past 60 s on the mixed path);
/// atomics and signals off the shared window are `MPI_Accumulate` / `MPI_Fetch_and_op`, but
/// on such a node `MPI_Raccumulate` / `MPI_Rget_accumulate` polled with yields and never
/// `MPI_Win_flush_local` (every rank of spam's collectives sat in MPICH's flushes, 10-60 ms
/// a collective). One run has a rank more than the CPUs online, so both kinds of node are
/// seen. Built with the launcher's library's
/// `mpicc` (`scripts/mpi-test` puts it first on `PATH`).
#[test]
fn mpi_calls_follow_the_deadline_and_the_cpus() {
    let test = "mpi_calls_follow_the_deadline_and_the_cpus";
    if launcher().is_none() {
        eprintln!("SKIP: {test}: no mpiexec/mpirun on PATH (scripts/mpi-test mpich|openmpi)");
        return;
    }
    if Command::new("mpicc").arg("--version").output().is_err() {
        eprintln!("SKIP: {test}: no mpicc on PATH (scripts/mpi-test mpich|openmpi)");
        return;
    }
    let prog = build_with("mpi_calls", "mpicc");
    // The count the transport's crowding check reads (handoff-mpi's nodes.rs).
    let cpus = handoff::sys::online_cpus().map_or(1, |c| c.len().max(1));
    let mut runs: Vec<(usize, &[(&str, &str)])> = vec![
        (2, &[]),
        (2, &[("HANDOFF_MPI_WINDOW", "rma")]),
        (4, &[("HANDOFF_MPI_NODES", "2")]),
        (
            2,
            &[("HANDOFF_MPI_WINDOW", "rma"), ("HANDOFF_WAIT", "block")],
        ),
        (4, &[("HANDOFF_MPI_NODES", "2"), ("HANDOFF_WAIT", "block")]),
    ];
    if cpus < 8 {
        runs.push((cpus + 1, &[("HANDOFF_MPI_WINDOW", "rma")]));
    } else {
        eprintln!("SKIP: {test}: the crowded case ({cpus} CPUs + 1 ranks) is too many ranks here");
    }
    for (n, env) in runs {
        let Some(job) = mpiexec(test, &prog, &[], n, env) else {
            return;
        };
        assert!(
            job.code == Some(0) && job.output.contains(&format!("OK mpi_calls {n} PEs")),
            "mpi_calls on {n} ranks ({cpus} CPUs) {env:?}: exit {:?}, printed:\n{}",
            job.code,
            job.output
        );
    }
}

/// What tests-sos `spam` does (`crowded.c`: 2 KiB collects, fcollects and broadcasts, then
/// puts with a signal, counter adds, fetch-adds and a lock into PE 0 while it waits) on a
/// node with more ranks than CPUs, on the mixed and RMA paths, where the transport polls
/// requests with yields instead of MPI's blocking flushes: every byte and count arrives, and
/// the run ends within `crowded.c`'s watchdog (a stall fails instead of hanging). Which MPI
/// calls it makes there is `mpi_calls_follow_the_deadline_and_the_cpus`'s check.
#[test]
fn spam_like_traffic_ends_on_a_crowded_node() {
    let test = "spam_like_traffic_ends_on_a_crowded_node";
    let cpus = handoff::sys::online_cpus().map_or(1, |c| c.len().max(1));
    if cpus >= 8 {
        eprintln!("SKIP: {test}: a crowded node needs more ranks ({cpus} CPUs + 1) than fit here");
        return;
    }
    let prog = build("crowded");
    // At least 4 ranks: two pretend nodes of two on the mixed path.
    let n = (cpus + 1).max(4);
    let runs: [&[(&str, &str)]; 2] = [
        &[("HANDOFF_MPI_NODES", "2"), ("CROWDED_DEADLINE", "60")],
        &[("HANDOFF_MPI_WINDOW", "rma"), ("CROWDED_DEADLINE", "60")],
    ];
    for env in runs {
        let Some(job) = mpiexec(test, &prog, &[], n, env) else {
            return;
        };
        assert!(
            job.code == Some(0) && job.output.contains(&format!("OK crowded {n} PEs")),
            "crowded on {n} ranks ({cpus} CPUs) {env:?}: exit {:?}, printed:\n{}",
            job.code,
            job.output
        );
    }
}

/// Busy loops, one pinned to each online CPU, until dropped: the other jobs or builds that
/// share a node with an MPI job.
struct CpuHogs {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl CpuHogs {
    fn start(cpus: &[usize]) -> CpuHogs {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = cpus
            .iter()
            .map(|&cpu| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    // Unpinned when the CPU cannot be had: still a hog somewhere.
                    let _ = handoff::sys::pin_current_thread(cpu);
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        CpuHogs { stop, threads }
    }
}

impl Drop for CpuHogs {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// tests-sos `spam`'s gets on MPICH's mixed path with a busy loop on every CPU beside the
/// job (another job, a build): `crowded.c` with PE 0 getting 2 KiB 200 more times per round
/// from each other PE while they wait in a barrier — 40,000 gets across pretend nodes on 4
/// ranks, each served by MPICH (ch4:ucx emulates RMA between processes of one node with
/// active messages) only when its target runs MPI. Waits that yielded between polls handed
/// the hog a time slice at each yield (Linux's EEVDF moves a yielder's deadline on), about
/// 1.5 ms a get: tests-sos `spam` ran past 200 s. Waits that nap once a yield was slow
/// (handoff-mpi's `pace`) poll every ~65 µs whoever runs: 80 µs a get, 3-8 s for this run
/// on 2 CPUs (10-15 s while other builds ran). The watchdog (`CROWDED_DEADLINE`, 45 s) lies between both: the old pacing or
/// a stall fails, a slow machine does not. Every byte read is checked.
#[test]
fn gets_end_on_a_crowded_node_beside_cpu_hogs() {
    let test = "gets_end_on_a_crowded_node_beside_cpu_hogs";
    let cpus = handoff::sys::online_cpus().unwrap_or_default();
    if cpus.is_empty() || cpus.len() >= 4 {
        eprintln!(
            "SKIP: {test}: sized for 4 ranks on a node with fewer CPUs ({} online)",
            cpus.len()
        );
        return;
    }
    let prog = build("crowded");
    let env: &[(&str, &str)] = &[
        ("HANDOFF_MPI_NODES", "2"),
        ("CROWDED_GETS", "200"),
        ("CROWDED_DEADLINE", "45"),
    ];
    let hogs = CpuHogs::start(&cpus);
    let job = mpiexec(test, &prog, &[], 4, env);
    drop(hogs);
    let Some(job) = job else {
        return;
    };
    assert!(
        job.code == Some(0) && job.output.contains("OK crowded 4 PEs"),
        "crowded on 4 ranks beside {} busy CPUs {env:?}: exit {:?}, printed:\n{}",
        cpus.len(),
        job.code,
        job.output
    );
}

/// The same MPI-linked binaries under `handoff run`: shared memory, MPI never initialized.
#[test]
fn the_same_binaries_pass_under_handoff_run() {
    for name in PROGRAMS {
        let prog = build(name);
        let dir = lib_dir()
            .parent()
            .unwrap()
            .join(format!("shmem-mpi-run-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = r#"exec "$0" >"$SHMEM_TEST_OUT/$HANDOFF_RANK.out" 2>"$SHMEM_TEST_OUT/$HANDOFF_RANK.err""#;
        let report = Launch::new(2)
            .program("/bin/sh")
            .args([
                "-c".to_string(),
                script.to_string(),
                prog.display().to_string(),
            ])
            .env("SHMEM_TEST_OUT", &dir)
            .env("LD_LIBRARY_PATH", lib_dir())
            .heap(16 << 20)
            .wait(Wait::ADAPTIVE)
            .timeout(LIMIT)
            .run()
            .unwrap_or_else(|e| panic!("handoff run -n 2 {name}: {e}"));
        let out = std::fs::read_to_string(dir.join("0.out")).unwrap_or_default();
        let err = std::fs::read_to_string(dir.join("0.err")).unwrap_or_default();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            report.success() && out.contains(&format!("OK {name} 2 PEs")),
            "{name} under handoff run: {:?}\n{out}{err}",
            report.exits
        );
    }
}

/// `shmem_global_exit(7)` on PE 0 ends the MPI job with status 7 on every path, while the
/// other PEs wait in a barrier; they end without an error line of their own.
#[test]
fn global_exit_ends_the_mpi_job_with_its_status() {
    let test = "global_exit_ends_the_mpi_job_with_its_status";
    let prog = build("misuse");
    let paths: [(usize, &[(&str, &str)]); 3] = [
        (2, &[]),
        (2, &[("HANDOFF_MPI_WINDOW", "rma")]),
        (4, &[("HANDOFF_MPI_NODES", "2")]),
    ];
    for (n, env) in paths {
        let Some(job) = mpiexec(test, &prog, &["exit"], n, env) else {
            return;
        };
        assert_eq!(job.code, Some(7), "{n} ranks {env:?}:\n{}", job.output);
        assert!(
            !job.output.contains("handoff-shmem: PE") && !job.output.contains("not reached"),
            "{n} ranks {env:?}: another PE went on or failed after the global exit:\n{}",
            job.output
        );
    }
}

/// A rank that exits before `shmem_init` (never joins): the other rank, blocked in MPI's
/// start-up, ends within the join timeout with one line naming its rank and node, and the
/// job exits non-zero (it used to hang there for good under MPICH). Open MPI's launcher may
/// see the rank leave first and end the job itself, with its own message naming the rank
/// that exited "improperly": as clear, and no hang either.
#[test]
fn a_rank_that_never_joins_ends_the_job_with_a_line() {
    let test = "a_rank_that_never_joins_ends_the_job_with_a_line";
    let prog = build("nojoin");
    let Some(job) = mpiexec(test, &prog, &[], 2, &[("HANDOFF_JOIN_TIMEOUT", "3s")]) else {
        return;
    };
    let ours = job.output.contains("handoff-mpi: rank 0 on node ")
        && job.output.contains("a rank never joined");
    let launchers =
        job.output.contains("process rank 1 with PID") && job.output.contains("exiting improperly");
    assert!(
        job.code.is_some_and(|c| c != 0)
            && (ours || launchers)
            && !job.output.contains("not reached"),
        "exit {:?}, printed:\n{}",
        job.code,
        job.output
    );
}

/// A program of the MPI build started without any launcher is told how to start it.
#[test]
fn a_program_started_without_a_launcher_is_told_how() {
    let o = Command::new(build("rma"))
        .env_remove(handoff::implementor::ENV_TEAM)
        .env_remove("PMI_RANK")
        .env_remove("PMI_SIZE")
        .env_remove("OMPI_COMM_WORLD_SIZE")
        .env_remove("PMIX_RANK")
        .env("LD_LIBRARY_PATH", lib_dir())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("handoff-shmem: shmem_init: ") && err.contains("mpiexec"),
        "{err}"
    );
}
