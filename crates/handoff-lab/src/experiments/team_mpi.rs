//! The counting-puts experiments over MPI: which transport serves a team run
//! ([`TransportKind`]) and whether it can run here, what a team started as `mpiexec -n P
//! handoff __worker NAME SPEC` for the side-by-side runs (`--transport shm,mpi-shm,mpi-rma`)
//! is given and prints (the launcher starts it: [`super::launcher`]), and detecting a
//! command that itself runs under `mpirun`.
//!
//! # How an MPI team run goes
//!
//! The lab runs `mpiexec -n P <exe> __worker NAME SPEC` with `HANDOFF_MPI_WINDOW=shared`
//! (`mpi-shm`: the MPI library's shared window, loads, stores and CPU atomics) or `=rma`
//! (`mpi-rma`: every operation an MPI RMA call, the inter-node path), the heap size and wait
//! strategy in `HANDOFF_HEAP_SIZE` / `HANDOFF_WAIT`, and the CPUs in [`ENV_CPUS`] (rank r
//! pins itself to `cpus[r % len]`). Each rank prints its [`PeOutput`] line; mpiexec merges
//! the ranks' stdout, and the lines carry their rank. The run's deadline kills the whole
//! process group of mpiexec (mpiexec and every rank it started), so a hung job ends.

use std::path::PathBuf;

use super::team_run::{OutputError, PeOutput};
use crate::bench::experiment::BenchError;
pub use crate::bench::experiment::{TransportKind, NO_MPI};

/// The CPUs an MPI worker pins itself to, comma-separated (rank r: `cpus[r % len]`).
pub const ENV_CPUS: &str = "HANDOFF_MPI_CPUS";

/// Checks that `kinds` can run here: none, or an MPI kind without the `mpi` feature or
/// without `mpiexec` on `PATH`, is a usage error that says what to do.
pub fn check_available(
    experiment: &'static str,
    kinds: &[TransportKind],
) -> Result<(), BenchError> {
    if kinds.is_empty() {
        return Err(BenchError::usage(
            experiment,
            "no transport: use --transport shm,mpi-shm,mpi-rma",
        ));
    }
    if kinds.iter().all(|k| *k == TransportKind::Shm) || super::team_session::active() {
        return Ok(());
    }
    if !handoff_mpi::ENABLED {
        return Err(BenchError::usage(
            experiment,
            format!("--transport mpi-*: {NO_MPI}"),
        ));
    }
    mpiexec(experiment).map(|_| ())
}

/// `mpiexec` (or `mpirun`) on `PATH`.
pub fn mpiexec(experiment: &'static str) -> Result<PathBuf, BenchError> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    ["mpiexec", "mpirun"]
        .into_iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            BenchError::usage(
                experiment,
                "--transport mpi-*: no mpiexec or mpirun on PATH; install an MPI library \
                  (Debian: apt-get install mpich) or run with --transport shm",
            )
        })
}

/// The world size when this process runs under `mpirun`/`mpiexec` (MPICH's `PMI_SIZE`,
/// Open MPI's `OMPI_COMM_WORLD_SIZE`), else `None`.
pub fn mpi_world_size() -> Option<usize> {
    env_number(["PMI_SIZE", "OMPI_COMM_WORLD_SIZE"])
}

/// This process's rank in its MPI job (MPICH's `PMI_RANK`, Open MPI's
/// `OMPI_COMM_WORLD_RANK`), 0 outside one.
pub fn mpi_world_rank() -> usize {
    env_number(["PMI_RANK", "OMPI_COMM_WORLD_RANK"]).unwrap_or(0)
}

/// The number in the first of `vars` that is set (MPICH's name, then Open MPI's).
fn env_number(vars: [&str; 2]) -> Option<usize> {
    vars.iter()
        .find_map(|v| std::env::var(v).ok())
        .and_then(|s| s.trim().parse().ok())
}

/// Every rank's result line from mpiexec's merged stdout, by rank: the last line of each
/// rank wins; a rank without a line is [`OutputError::Missing`].
pub fn parse_merged(pes: usize, text: &str) -> Result<Vec<PeOutput>, OutputError> {
    let mut outs: Vec<Option<PeOutput>> = vec![None; pes];
    for line in text.lines().filter(|l| l.trim_start().starts_with('{')) {
        let o: PeOutput = serde_json::from_str(line).map_err(|source| OutputError::Bad {
            rank: usize::MAX,
            line: line.to_string(),
            source,
        })?;
        let rank = o.rank;
        *outs.get_mut(rank).ok_or(OutputError::WrongRank {
            rank: pes,
            claimed: rank,
        })? = Some(o);
    }
    outs.into_iter()
        .enumerate()
        .map(|(rank, o)| {
            o.ok_or_else(|| OutputError::Missing {
                rank,
                text: text.to_string(),
            })
        })
        .collect()
}

/// Inside an MPI worker: pins this rank to `cpus[rank % len]` of [`ENV_CPUS`] (nothing
/// when unset or empty; a CPU this process may not use is skipped, the rank runs unpinned).
pub fn pin_from_env(rank: usize) {
    let cpus: Vec<usize> = std::env::var(ENV_CPUS)
        .unwrap_or_default()
        .split(',')
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    super::rt_common::pin(cpus.get(rank % cpus.len().max(1)).copied());
}

/// The summary of the routes of a team's pairs, for a record's `transport` param: the one
/// route when every pair has it ("mpi-shm"), else "mixed: 2 shm pairs, 4 mpi-rma pairs".
/// `routes[i][j]` is the route PE i reported for PE j; a PE's route to itself is left out.
pub fn summarize(routes: &[Vec<String>]) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (i, row) in routes.iter().enumerate() {
        for (j, r) in row.iter().enumerate() {
            if i < j {
                match counts.iter_mut().find(|(n, _)| n == r) {
                    Some((_, c)) => *c += 1,
                    None => counts.push((r.clone(), 1)),
                }
            }
        }
    }
    match counts.as_slice() {
        [] => "unknown".into(),
        [(one, _)] => one.clone(),
        many => format!(
            "mixed: {}",
            many.iter()
                .map(|(n, c)| format!("{c} {n} pair{}", if *c == 1 { "" } else { "s" }))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(rank: usize) -> String {
        format!(r#"{{"rank":{rank},"samples":[{rank}.5],"verified":true,"failure":""}}"#)
    }

    #[test]
    fn merged_output_is_sorted_by_the_rank_each_line_names() {
        let text = format!("noise\n{}\n{}\nmore noise\n", line(1), line(0));
        let outs = parse_merged(2, &text).unwrap();
        assert_eq!(outs[0].samples, vec![0.5]);
        assert_eq!(outs[1].samples, vec![1.5]);
        let e = parse_merged(3, &text).unwrap_err().to_string();
        assert!(e.contains("PE 2") && e.contains("no result line"), "{e}");
        assert!(parse_merged(1, &text).is_err());
    }

    /// A config built in code with no transport is a usage error naming the flag; shared
    /// memory alone always runs.
    #[test]
    fn no_transport_is_a_usage_error() {
        let e = check_available("x", &[]).unwrap_err();
        assert!(
            matches!(&e, BenchError::Usage { message, .. } if message.contains("--transport")),
            "{e}"
        );
        assert!(check_available("x", &[TransportKind::Shm]).is_ok());
    }

    #[test]
    fn transports_parse_and_routes_summarize() {
        let k = TransportKind::parse_list("x", "shm, mpi-rma,shm").unwrap();
        assert_eq!(k, vec![TransportKind::Shm, TransportKind::MpiRma]);
        assert!(TransportKind::parse_list("x", "tcp").is_err());
        let r = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            summarize(&[r(&["shm", "mpi-shm"]), r(&["mpi-shm", "shm"])]),
            "mpi-shm"
        );
        // 3 PEs: pairs (0,1) shm, (0,2) and (1,2) mpi-rma.
        let routes = [
            r(&["shm", "shm", "mpi-rma"]),
            r(&["shm", "shm", "mpi-rma"]),
            r(&["mpi-rma", "mpi-rma", "shm"]),
        ];
        assert_eq!(summarize(&routes), "mixed: 1 shm pair, 2 mpi-rma pairs");
    }
}
