//! Unit tests of the team's pure parts (placement, comparisons, fairness); the
//! cross-process behaviour is in `tests/team*.rs`.

use super::*;

#[test]
fn cmp_holds() {
    assert!(Cmp::Ge.holds(5, 5) && !Cmp::Gt.holds(5, 5));
    assert!(Cmp::Lt.holds(4, 5) && Cmp::Le.holds(5, 5) && !Cmp::Le.holds(6, 5));
    assert!(Cmp::Eq.holds(3, 3) && Cmp::Ne.holds(3, 4) && !Cmp::Ne.holds(3, 3));
}

#[test]
fn placement_parses_and_maps() {
    assert_eq!("compact".parse::<Placement>().unwrap(), Placement::Compact);
    assert_eq!(
        "0-1".parse::<Placement>().unwrap(),
        Placement::Cores(vec![0, 1])
    );
    assert!("x".parse::<Placement>().is_err());
    let allowed = crate::sys::affinity::allowed_cpus().unwrap();
    // Compact: PE r on the (r mod n)-th allowed CPU.
    let c = Placement::Compact.cpus(3).unwrap();
    assert_eq!(c[0], Some(allowed[0]));
    assert_eq!(c[2], Some(allowed[2 % allowed.len()]));
    // A CPU that does not exist is an error naming the PE and the CPU.
    let e = Placement::Cores(vec![allowed[0], 100_000])
        .cpus(2)
        .unwrap_err();
    assert!(
        matches!(
            e,
            TeamError::CpuUnavailable {
                rank: 1,
                cpu: 100_000,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(Placement::Unpinned.cpus(2).unwrap(), vec![None, None]);
    let e = Placement::Cores(vec![]).cpus(2).unwrap_err();
    assert!(matches!(e, TeamError::InvalidArgument(_)), "{e}");
}

#[test]
fn launch_rejects_bad_sizes() {
    for n in [0, MAX_PES + 1] {
        let e = Launch::new(n).spawn().unwrap_err();
        assert!(matches!(e, TeamError::TeamSize { .. }), "{e}");
    }
    let e = Launch::new(2).heap(0).spawn().unwrap_err();
    assert!(matches!(e, TeamError::InvalidArgument(_)), "{e}");
    // More than /dev/shm and memory can hold: a big team is stopped by memory, before
    // anything is created or spawned, and says so.
    let e = Launch::new(1024).heap(1 << 50).spawn().unwrap_err();
    assert!(matches!(e, TeamError::NoSpace { .. }), "{e}");
    // The sizes themselves overflowing is a size error, not a crash.
    let e = Launch::new(MAX_PES).heap(1 << 50).spawn().unwrap_err();
    assert!(matches!(e, TeamError::InvalidArgument(_)), "{e}");
}

#[test]
fn any_from_rotates() {
    let set = [true, false, true, true];
    assert_eq!(ops::any_from(0, 4, |i| set[i]), Some(0));
    assert_eq!(ops::any_from(1, 4, |i| set[i]), Some(2));
    assert_eq!(ops::any_from(3, 4, |i| set[i]), Some(3));
    assert_eq!(ops::any_from(1, 4, |_| false), None);
}

#[test]
fn from_env_outside_a_team_says_how_to_start_one() {
    if in_team() {
        return;
    }
    let e = Team::from_env().unwrap_err();
    assert!(
        matches!(
            e,
            TeamError::NotInTeam {
                var: "HANDOFF_TEAM"
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("handoff run -n N"), "{e}");
}
