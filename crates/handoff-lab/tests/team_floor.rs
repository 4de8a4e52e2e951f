//! The floors two PEs measure themselves (`experiments::team_floor`, beside every sample of
//! `bench pingpong`), on a word of a line that carries messages between the measurements:
//! before each measurement the word holds the last message's data, which lies above every
//! sequence number of the bounces; after it, the words hold exactly the sequence numbers the
//! protocol's last hops sent, and every figure is a one-way time a cache line can take. No
//! timing is compared. Re-executes this binary as its two PEs (`handoff_testkit`).

use std::time::Duration;

use handoff::team::{Line, Team, TeamError, LINE_PAYLOAD, LINE_WORDS};
use handoff_lab::experiments::team_floor::{TeamFloor, ROUND_TRIPS};

/// Measurements per PE.
const MEASURES: u64 = 3;

fn pe() -> Result<(), String> {
    let team = Team::from_env().map_err(|e| e.to_string())?;
    let (me, peer) = (team.rank(), 1 - team.rank());
    let line = team.alloc::<Line>(1).map_err(|e| e.to_string())?;
    // A word past the object is refused before anything collective happens.
    match TeamFloor::on(
        &team,
        peer,
        line.words().at(LINE_WORDS),
        Duration::from_secs(1),
    ) {
        Err(TeamError::InvalidArgument(_)) => {}
        Err(e) => return Err(format!("PE {me}: word {LINE_WORDS} of a line gave {e}")),
        Ok(_) => return Err(format!("PE {me}: word {LINE_WORDS} of a line was accepted")),
    }
    let mut floor = TeamFloor::on(&team, peer, line.words().at(0), Duration::from_secs(30))
        .map_err(|e| e.to_string())?
        .ok_or("the shared segment maps the peer's heap: a floor was expected")?;
    team.barrier_all().map_err(|e| e.to_string())?;
    let r = ROUND_TRIPS;
    for k in 1..=MEASURES {
        // A message each way whose first word, the floor's, is far above its numbers.
        let stale = u64::MAX - k;
        let mut msg = [0u8; LINE_PAYLOAD];
        msg[..8].copy_from_slice(&stale.to_le_bytes());
        let mut out = [0u8; 8];
        for turn in [0, 1] {
            let step = if me == turn {
                team.put_line(line, &msg, k, peer)
            } else {
                team.wait_line(line, k, &mut out).map(|_| ())
            };
            step.map_err(|e| e.to_string())?;
        }
        if u64::from_le_bytes(out) != stale || floor.words().1 != stale {
            return Err(format!(
                "PE {me}: message {k}: the line's first word holds {}, not the message's {stale}",
                floor.words().1
            ));
        }
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
        // Measure k meets once more on PE 0's meeting word (PE 1's answer 2k), zeroes both
        // copies of the line's word, bounces each copy from 0 to 2r, then stores from there:
        // PE 0's last ping 4r - 1 in PE 1's copy, PE 1's last answer 4r in PE 0's. PE 0 has
        // read each answer; PE 1 has read each ping.
        let (met, own) = (2 * k, 4 * r - u64::from(me == 1));
        let (got_met, got_own) = floor.words();
        if got_own != own {
            return Err(format!(
                "PE {me}: measure {k}: its copy of the line's word holds {got_own}, want {own}"
            ));
        }
        // Neither PE meets again before the barrier below.
        if got_met != met {
            return Err(format!(
                "PE {me}: measure {k}: the meeting word holds {got_met}, want {met}"
            ));
        }
        // PE 0's next message would overwrite PE 1's copy before PE 1 has read it here.
        team.barrier_all().map_err(|e| e.to_string())?;
    }
    team.barrier_all().map_err(|e| e.to_string())?;
    team.finalize().map_err(|e| e.to_string())
}

#[test]
fn two_pes_bounce_both_floors_in_a_line_between_its_messages() {
    const NAME: &str = "two_pes_bounce_both_floors_in_a_line_between_its_messages";
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
