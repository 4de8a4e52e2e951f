//! What the `bench` commands share beside their flags: list and size flags.

use crate::Failure;

/// Parses a comma list of `T` (counts, names) with [`crate::cli_bench::parse_list`], saying
/// what to write instead on error.
pub fn parse_list<T: std::str::FromStr>(
    text: &str,
    flag: &str,
    example: &str,
) -> Result<Vec<T>, Failure> {
    crate::cli_bench::parse_list(
        text,
        flag,
        &format!("not understood; use e.g. {example}"),
        |x| x.parse().ok(),
    )
}

/// Parses a list of sizes such as `8,64,1KiB` by the one size rule
/// ([`handoff_probe::units`]); every size flag of every command goes through it.
pub fn parse_sizes(text: &str, flag: &str) -> Result<Vec<usize>, Failure> {
    handoff_lab::units::parse_size_list(text).map_err(|e| Failure::usage(format!("{flag}: {e}")))
}
