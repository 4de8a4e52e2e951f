//! The floors two PEs measure themselves (`experiments::team_floor`, beside every sample of
//! `bench pingpong`): after each measurement the words hold exactly the sequence numbers the
//! protocol's last hops sent, and every figure is a one-way time a cache line can take. No
//! timing is compared. Re-executes this binary as its two PEs (`handoff_testkit`).

use std::time::Duration;

use handoff::team::Team;
use handoff_lab::experiments::team_floor::{TeamFloor, ROUND_TRIPS};

/// Measurements per PE.
const MEASURES: u64 = 3;

fn pe() -> Result<(), String> {
    let team = Team::from_env().map_err(|e| e.to_string())?;
    let (me, peer) = (team.rank(), 1 - team.rank());
    let mut floor = TeamFloor::new(&team, peer, Duration::from_secs(30))
        .map_err(|e| e.to_string())?
        .ok_or("the shared segment maps the peer's heap: a floor was expected")?;
    team.barrier_all().map_err(|e| e.to_string())?;
    let r = ROUND_TRIPS;
    for k in 1..=MEASURES {
        let f = floor.measure().map_err(|e| e.to_string())?;
        // A cache line does not cross between CPUs in under a nanosecond, and a spinning
        // hop on two CPUs of their own takes far less than a millisecond.
        for (what, ns) in [("c2c", f.c2c_ns), ("store", f.store_ns)] {
            if !(1.0..1e6).contains(&ns) {
                return Err(format!(
                    "PE {me}: measure {k}: the {what} floor reads {ns} ns"
                ));
            }
        }
        // Measure k's c2c bounce ends with PE 1's answer 4r(k-1) + 2r in PE 0's word 0;
        // its store bounce with PE 0's last ping 4rk - 1 in PE 1's word 1 and PE 1's last
        // answer 4rk in PE 0's word 1. PE 0 has read each answer; PE 1 has read each ping.
        let (shared, own) = (4 * r * (k - 1) + 2 * r, 4 * r * k - u64::from(me == 1));
        let (got_shared, got_own) = floor.words();
        if got_own != own {
            return Err(format!(
                "PE {me}: measure {k}: its store word holds {got_own}, want {own}"
            ));
        }
        // PE 1 may not read PE 0's word here: PE 0 may already be pinging the next measure.
        if me == 0 && got_shared != shared {
            return Err(format!(
                "PE 0: measure {k}: its c2c word holds {got_shared}, want {shared}"
            ));
        }
    }
    team.barrier_all().map_err(|e| e.to_string())?;
    team.finalize().map_err(|e| e.to_string())
}

#[test]
fn two_pes_bounce_both_floors_through_their_own_words() {
    const NAME: &str = "two_pes_bounce_both_floors_through_their_own_words";
    if handoff::team::in_team() {
        let code = match pe() {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("{e}");
                1
            }
        };
        std::process::exit(code);
    }
    handoff_testkit::run_on_two_cpus(NAME, Duration::from_secs(120));
}
