use handoff::team::Team;
use std::time::Instant;
fn main() -> Result<(), handoff::Error> {
    let team = Team::from_env()?;
    const N: u32 = 2000;
    team.barrier_all()?;
    let t0 = Instant::now();
    for _ in 0..N {
        team.barrier_all()?;
    }
    let us = t0.elapsed().as_secs_f64() * 1e6 / N as f64;
    if team.rank() == 0 {
        println!(
            "{} PEs, wait {}: barrier_all {us:.1} µs (mean of {N})",
            team.size(),
            team.wait_strategy()
        );
    }
    team.finalize()?;
    Ok(())
}
