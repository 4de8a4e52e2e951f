//! The CLI side of the registered experiments ([`handoff_lab::bench`]): their worker
//! processes, their files in `plot` and `compare`, and the output flags every `bench NAME` command shares.

use std::path::{Path, PathBuf};

use clap::Args;
use handoff_lab::bench::registry;
use handoff_lab::bench::text::{self as output, Format};
use handoff_lab::bench::{render, BenchResults};
use handoff_lab::bench::{BenchError, RunCtx};

use handoff_lab::experiments::named::Named;
use handoff_lab::experiments::team_config::{FaultSetting, TeamConfig};
use handoff_lab::experiments::team_mpi::TransportKind;

use crate::common::CANCEL;
use crate::Failure;

impl From<BenchError> for Failure {
    fn from(e: BenchError) -> Failure {
        match e {
            BenchError::Usage { .. } => Failure::usage(e.to_string()),
            BenchError::Failed { .. } => Failure::runtime(e.to_string()),
            BenchError::PeerGone { .. } => Failure {
                code: handoff_lab::bench::experiment::EXIT_PEER_GONE,
                message: e.to_string(),
            },
        }
    }
}

/// Output flags of every `handoff bench NAME` of a registered experiment.
#[derive(Debug, Args)]
pub struct BenchOutputArgs {
    /// table, json or csv.
    #[arg(long, default_value = "table")]
    pub format: String,
    /// Write the output to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

impl BenchOutputArgs {
    /// [`BenchOutputArgs::check`], then `cpus` (the `--cpus` flag) among the CPUs this process
    /// may use: those CPUs and the ones `--cpus` picked.
    pub fn check_cpus(&self, cpus: &str) -> Result<(Vec<usize>, Vec<usize>), Failure> {
        self.check()?;
        let allowed = crate::common::allowed_cpus()?;
        let picked = crate::common::parse_cores(cpus, &allowed, "--cpus")?;
        Ok((allowed, picked))
    }

    /// Checks the flags before anything runs (a bad format or output path is usage).
    pub fn check(&self) -> Result<Format, Failure> {
        let f = self
            .format
            .parse::<Format>()
            .map_err(|e| Failure::usage(e.to_string()))?;
        if let Some(path) = &self.output {
            output::check_output_path(path).map_err(|e| Failure::usage(e.to_string()))?;
        }
        Ok(f)
    }

    /// Writes `results` as asked; 128 + the signal when one stopped the run (130 Ctrl-C,
    /// 143 SIGTERM), 3 when data failed verification, else 0.
    pub fn emit(&self, results: &BenchResults, format: Format) -> Result<u8, Failure> {
        // Under mpirun only rank 0 writes; the others compute the same exit code.
        if !crate::mpi_bench::secondary() {
            output::write_output(&render::render(results, format), self.output.as_deref())
                .map_err(|e| Failure::runtime(e.to_string()))?;
        }
        if let Some(sig) = crate::signals::received().filter(|_| results.partial) {
            eprintln!(
                "handoff: {}; the output holds the points measured so far",
                crate::signals::describe(sig)
            );
            return Ok(crate::signals::exit_code(sig));
        }
        if !results.all_verified() {
            return Err(Failure::runtime(format!(
                "{}: some data FAILED verification (see the 'data' column); the numbers are not to be trusted",
                results.experiment
            )));
        }
        Ok(0)
    }
}

/// The flags every team `bench` command (`pingpong`, `alltoall`, `stencil`, `rma-sync`,
/// `atomics`, `msgrate`, `overlap`) shares, its output flags included.
#[derive(Debug, Args)]
pub struct TeamArgs {
    /// CPUs the PEs run on, PE r on the (r mod n)-th (a list such as 0-3, or `all`).
    #[arg(long, default_value = "all")]
    pub cpus: String,
    /// Runs (a fresh team each).
    #[arg(long)]
    pub runs: Option<u64>,
    /// The PEs' wait: spin, spin-yield, block or adaptive.
    #[arg(long, default_value = "adaptive")]
    pub wait: String,
    /// Transports to run side by side: shm (handoff's team), mpi-shm and mpi-rma (the MPI
    /// transport under mpiexec with a shared window / MPI RMA calls; needs the `mpi` build;
    /// pingpong, alltoall, stencil and rma-sync).
    #[arg(long, default_value = "shm")]
    pub transport: String,
    #[command(flatten)]
    pub out: BenchOutputArgs,
}

/// What [`TeamArgs::check`] found: the CPUs this process may use, those `--cpus` picked, and
/// the transports.
#[derive(Debug)]
pub struct TeamFlags {
    /// Every CPU this process may use.
    pub allowed: Vec<usize>,
    /// `--cpus`.
    pub cpus: Vec<usize>,
    /// `--transport`.
    pub transports: Vec<TransportKind>,
}

impl TeamArgs {
    /// Checks the flags of `experiment` before anything runs (usage errors); `mpi`: whether
    /// its PEs run over MPI transports (else `--transport` may only be `shm`).
    pub fn check(&self, experiment: &'static str, mpi: bool) -> Result<TeamFlags, Failure> {
        let (allowed, cpus) = self.out.check_cpus(&self.cpus)?;
        let transports = crate::mpi_bench::transports(experiment, &self.transport)?;
        if !mpi && transports != [TransportKind::Shm] {
            return Err(Failure::usage(format!(
                "--transport {}: {experiment} runs on handoff's shared-memory team only (shm)",
                self.transport
            )));
        }
        Ok(TeamFlags {
            allowed,
            cpus,
            transports,
        })
    }

    /// Sets the experiment's runs (when given), wait and, if it has a choice, transports.
    pub fn apply<F: FaultSetting>(&self, team: &mut TeamConfig<F>, t: &TeamFlags) {
        team.runs = self.runs.unwrap_or(team.runs);
        team.wait.clone_from(&self.wait);
        if let Some(transports) = &mut team.transports {
            transports.clone_from(&t.transports);
        }
    }

    /// Whether `--wait` asks for spinning (some default plans leave out what cannot spin).
    pub fn spins(&self) -> bool {
        matches!(self.wait.parse(), Ok(handoff::sync::Wait::Spin))
    }
}

impl BenchOutputArgs {
    /// Runs `body` with a full (not quick) context on `cpus` and writes its results as asked
    /// ([`BenchOutputArgs::emit`]); Ctrl-C stops it with the points measured so far.
    pub fn run(
        &self,
        cpus: &[usize],
        body: impl FnOnce(&mut RunCtx<'_>) -> Result<BenchResults, BenchError>,
    ) -> Result<u8, Failure> {
        let format = self.check()?;
        crate::common::install_interrupt_handler();
        let (exe, args) = crate::common::launcher()?;
        let clock = handoff_probe::clock::Clock::detect();
        let machine = handoff_lab::machine::detect(&clock.calibration());
        let tool = handoff_lab::machine::tool();
        let mut prog = crate::progress::Stderr::new(self.quiet);
        let mut ctx = RunCtx {
            quick: false,
            machine: &machine,
            tool: &tool,
            exe,
            args,
            allowed_cpus: cpus,
            cancel: &CANCEL,
            progress: &mut prog,
            transports: vec![TransportKind::Shm],
        };
        // Every bench command's records carry what else the machine did meanwhile.
        let res = handoff_lab::bench::registry::run_measured(&mut ctx, body)?;
        self.emit(&res, format)
    }
}

/// `handoff __worker NAME ARGS...` for a registered experiment.
pub fn worker(experiment: &str, args: &[String]) -> Result<u8, Failure> {
    let info = registry::by_name(experiment)
        .filter(|i| i.worker.is_some())
        .ok_or_else(|| Failure::usage(format!("unknown worker experiment '{experiment}'")))?;
    let body = info.worker.unwrap_or(|_| Ok(()));
    // A worker's exit code says what kind of failure it was (its parent reads no text).
    body(args).map(|()| 0).map_err(|e| Failure {
        message: format!("worker: {e}"),
        ..Failure::from(e)
    })
}

/// A results file given on the command line; a missing, malformed or older one is bad usage
/// (2).
pub fn load(path: &Path) -> Result<BenchResults, Failure> {
    BenchResults::load(path).map_err(|e| Failure::usage(e.to_string()))
}

/// Reads `paths` for `compare`: every problem of every file (an edited or damaged number,
/// [`BenchResults::problems`]) on a line of its own, then the last one as the error (exit
/// 2); a file that cannot be read or parsed is the error at once.
fn load_inputs(paths: &[PathBuf]) -> Result<Vec<BenchResults>, Failure> {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for p in paths {
        let r = BenchResults::load_unchecked(p).map_err(|e| Failure::usage(e.to_string()))?;
        problems.extend(r.problems(Some(p)));
        files.push(r);
    }
    match problems.pop() {
        None => Ok(files),
        Some(last) => {
            for e in problems {
                eprintln!("handoff: {e}");
            }
            Err(Failure::usage(last.to_string()))
        }
    }
}

/// `handoff compare` of registered experiments' files.
pub fn compare(
    a: &[PathBuf],
    b: &[PathBuf],
    (fail_above, noise, drift): (Option<f64>, f64, f64),
    format: &str,
) -> Result<u8, Failure> {
    let (ra, rb) = (load_inputs(a)?, load_inputs(b)?);
    for (path, r) in a.iter().zip(&ra).chain(b.iter().zip(&rb)) {
        if r.partial {
            eprintln!(
                "handoff: note: {} is partial ({}): its missing points are not compared",
                path.display(),
                r.stopped_early
                    .as_deref()
                    .unwrap_or("the run stopped early")
            );
        }
    }
    use handoff_lab::bench::verdict::CompareError;
    let cmp = handoff_lab::bench::compare::compare_bench(&ra, &rb, fail_above, noise, drift)
        .map_err(|e| match e {
            CompareError::NothingMatched { .. } => Failure::runtime(e.to_string()),
            _ => Failure::usage(e.to_string()),
        })?;
    match format {
        "json" => print!("{}", cmp.to_json_pretty()),
        _ => print!("{}", cmp.render_table()),
    }
    Ok(u8::try_from(cmp.exit_code()).unwrap_or(crate::EXIT_RUNTIME))
}

/// Parses a comma list with `item` (e.g. `--sizes 8,4K,1M`); an empty or bad element is a
/// usage error naming `flag`.
pub fn parse_list<T>(
    text: &str,
    flag: &str,
    what: &str,
    item: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, Failure> {
    text.split(',')
        .map(|x| {
            item(x.trim()).ok_or_else(|| Failure::usage(format!("{flag} {}: {what}", x.trim())))
        })
        .collect()
}

/// Parses a comma list of an experiment's named choices (`--method fence-flag,line`); an
/// unknown name is a usage error listing them.
pub fn choices<E: Named>(text: &str, flag: &str) -> Result<Vec<E>, Failure> {
    parse_list(
        text,
        flag,
        &format!("use some of {}", E::names()),
        E::from_name,
    )
}
