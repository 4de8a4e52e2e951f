//! The counting-puts experiments from the command line (`bench pingpong | alltoall |
//! stencil`): their JSON, deliberate faults caught (a corrupted transfer exits 3, a dying PE
//! is named, never a hang), bad flags (exit 2 before anything runs), and their plots.
//! No timing assertions: expected counts and values come from the flags and closed forms.

mod common;

use common::{check_records, cpus, exits, fails_verification, read_json, records, serial};
use common::{segments_of, spawn, text, tmpdir, usage_errors, wait_child, words, words_and_path};
use serde_json::Value;

fn json_of(args: &[&str], tag: &str) -> Value {
    let dir = tmpdir(tag);
    let file = dir.join("out.json");
    let mut a = args.to_vec();
    a.extend(["--format", "json", "-q", "-o", file.to_str().unwrap()]);
    exits(&a, 0);
    let v = read_json(&file);
    exits(
        &[
            "plot",
            file.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ],
        0,
    );
    let _ = std::fs::remove_dir_all(&dir);
    v
}

#[test]
fn pingpong_json_has_every_point_verified_with_the_floor_beside_cross_cpu_pairs() {
    if cpus() < 2 {
        eprintln!("SKIP: pingpong_json_has_every_point_verified_with_the_floor_beside_cross_cpu_pairs: needs 2 CPUs");
        return;
    }
    let _g = serial();
    let v = json_of(
        &words("bench pingpong --sizes 8,64 --runs 2 --samples 2 --round-trips 50"),
        "pp",
    );
    assert_eq!(v["schema"], "handoff.bench/1");
    assert_eq!(v["experiment"], "pingpong");
    let placements = v["config"]["placements"].as_array().unwrap();
    assert!(
        placements.len() >= 2,
        "same core and another: {placements:?}"
    );
    // Per placement: 4 methods at 8 B, 3 at 64 B (a line holds 56 payload bytes).
    let recs = records(&v);
    assert_eq!(recs.len(), placements.len() * 7);
    check_records(&v, 2, &["latency_us"]);
    for r in recs {
        assert_eq!(r["metrics"]["latency_us"]["unit"], "µs");
        let cpus: Vec<&str> = r["params"]["cpus"].as_str().unwrap().split(',').collect();
        let cross = cpus[0] != cpus[1];
        // Probed before and after every cross-CPU record; the record carries the floor
        // unless the host changed state in between, which a note then names.
        let probed = ["c2c_before_ns", "c2c_after_ns"].map(|k| r["info"][k].is_number());
        assert_eq!(probed, [cross; 2], "{r}");
        let drifted = v["notes"].as_array().unwrap().iter().any(|n| {
            let n = n.as_str().unwrap();
            n.contains("the host changed state")
                && n.starts_with(&format!(
                    "{} {} B {}:",
                    r["params"]["method"].as_str().unwrap(),
                    r["params"]["size_bytes"],
                    r["params"]["placement"].as_str().unwrap()
                ))
        });
        assert_eq!(
            r["c2c_one_way_ns"].is_number() || drifted,
            cross,
            "a floor exactly for cross-CPU pairs: {r}"
        );
        assert!(!(r["c2c_one_way_ns"].is_number() && drifted), "{r}");
        // The PEs measure the floors themselves before each sample on two CPUs (never on
        // one: they spin): each sample's latency over them, per run, and their medians.
        for m in ["over_c2c_floor", "over_store_floor"] {
            let means = r["metrics"][m]["run_means"].as_array();
            assert_eq!(means.map(|m| m.len()), cross.then_some(2), "{m}: {r}");
            if cross {
                assert_eq!(r["metrics"][m]["unit"], "×", "{r}");
                assert!(
                    means.unwrap().iter().all(|x| x.as_f64().unwrap() > 0.0),
                    "{r}"
                );
            }
        }
        for k in ["c2c_in_team_ns", "store_floor_ns"] {
            let ns = r["info"][k].as_f64();
            assert_eq!(ns.is_some(), cross, "{k}: {r}");
            assert!(ns.is_none_or(|ns| ns > 0.0 && ns < 1e6), "{k}: {r}");
        }
        if r["params"]["method"] == "line" {
            assert_eq!(r["x"], 8.0);
        }
    }
    assert!(!v["c2c"].as_array().unwrap().is_empty());
    let notes = v["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n
            .as_str()
            .unwrap()
            .starts_with("over_c2c_floor, over_store_floor:")),
        "{notes:?}"
    );
}

#[test]
fn alltoall_json_counts_every_method_size_and_team_size() {
    let _g = serial();
    let v = json_of(
        &words("bench alltoall --sizes 8,4K --pes 2,3 --runs 2 --samples 2 --rounds 20"),
        "a2a",
    );
    assert_eq!(v["experiment"], "alltoall");
    let recs = records(&v);
    assert_eq!(recs.len(), 3 * 2 * 2);
    for r in recs {
        assert_eq!(r["verified"], true, "{r}");
        let p = r["params"]["pes"].as_f64().unwrap();
        let node = r["metrics"]["bandwidth_node_mbps"]["run_means"]
            .as_array()
            .unwrap();
        let pe = r["metrics"]["bandwidth_pe_mbps"]["run_means"]
            .as_array()
            .unwrap();
        // Per node is p times per PE, run by run.
        for (n, e) in node.iter().zip(pe) {
            let (n, e) = (n.as_f64().unwrap(), e.as_f64().unwrap());
            assert!((n - p * e).abs() <= 1e-9 * n, "{n} vs {p} × {e}");
        }
    }
}

#[test]
fn stencil_json_has_strong_points_by_pes_and_weak_points_by_rows() {
    let _g = serial();
    let v = json_of(
        &words(
            "bench stencil --grid 100x24 --pes 1,2,3 --weak-m 50,200 --weak-n 24 --weak-pes 2 \
            --iterations 3 --runs 2",
        ),
        "st",
    );
    assert_eq!(v["experiment"], "stencil");
    let recs = records(&v);
    assert_eq!(recs.len(), (3 + 2) * 3);
    for r in recs {
        assert_eq!(r["verified"], true, "{r}");
        // 3 iterations, the first a warm-up: 2 timed.
        assert_eq!(r["reps"], 2);
        let x = r["x"].as_f64().unwrap();
        match r["params"]["scaling"].as_str().unwrap() {
            "strong" => assert_eq!(x, r["params"]["pes"].as_f64().unwrap()),
            _ => assert_eq!(x, r["params"]["m"].as_f64().unwrap()),
        }
        assert_eq!(r["metrics"]["mflops"]["unit"], "MFLOP/s");
    }
}

#[test]
fn a_corrupted_transfer_is_caught_and_exits_3() {
    let _g = serial();
    for (args, needle) in [
        (
            words(
                "bench pingpong --sizes 64 --method counting-put --runs 1 --samples 2 \
                --round-trips 20 --fault skip-put@25",
            ),
            "stamp word is 24, expected message 25",
        ),
        (
            words(
                "bench alltoall --sizes 64 --pes 3 --method counting --runs 1 --samples 2 \
                --rounds 10 --fault skip-put@15",
            ),
            "round 15: the slot of PE 1 has stamp 13",
        ),
        (
            // Row 7 of a 50 × 20 grid on 2 PEs: PE 1's first column is 10, so the boundary
            // A(7, 9) = 7 + 9 = 16 in iteration 1, sent as 17.
            words(
                "bench stencil --grid 50x20 --pes 2 --weak-m none --method fence-flag \
                --iterations 2 --runs 1 --fault wrong-value@7",
            ),
            "row 7: boundary value 17, expected 16",
        ),
        (
            // The last row: the corner is off too, 1 × (50 + 20 - 2) = 68 expected.
            words(
                "bench stencil --grid 50x20 --pes 2 --weak-m none --method counting-put \
                --iterations 2 --runs 1 --fault wrong-value@49",
            ),
            "iteration 1: corner 69, expected 68",
        ),
    ] {
        let stdout = fails_verification(&args);
        assert!(stdout.contains(needle), "{stdout}");
    }
}

#[test]
fn a_pe_that_dies_ends_the_run_with_its_rank_not_a_hang() {
    let _g = serial();
    for args in [
        words(
            "bench pingpong --sizes 8 --method fence-flag --runs 1 --samples 2 --round-trips 20 \
            --fault exit@30",
        ),
        words(
            "bench alltoall --sizes 8 --pes 4 --method barrier --runs 1 --samples 2 --rounds 10 \
            --fault exit@15",
        ),
        words(
            "bench stencil --grid 100x20 --pes 3 --weak-m none --method put-signal --iterations 2 \
            --runs 1 --fault exit@40",
        ),
    ] {
        let err = text(&exits(&args, 3).stderr);
        assert!(err.contains("PE 1 (pid"), "{err}");
        assert!(err.contains("exited with code 9"), "{err}");
    }
}

#[test]
fn bad_flags_are_usage_errors_before_anything_runs() {
    usage_errors(
        "bench",
        &[
            ("pingpong --sizes 12", "multiples of 8"),
            ("pingpong --sizes 8,x", "size 'x' must start with a number"),
            ("pingpong --method smoke", "--method smoke"),
            ("pingpong --placement moon", "--placement moon"),
            ("pingpong --runs 0", "at least 1"),
            ("pingpong --wait sometimes", "--wait sometimes"),
            ("pingpong --method line --sizes 64", "56"),
            ("pingpong --fault melt@3", "--fault melt@3"),
            ("pingpong --cpus 999", "999"),
            ("alltoall --pes 1", "--pes 1"),
            ("alltoall --pes 0,2", "--pes 0"),
            ("alltoall --pes 2000000", "--pes 2000000"),
            ("alltoall --sizes 64M --pes 4", "receive buffers"),
            ("alltoall --method smoke", "--method smoke"),
            ("alltoall --format xml", "xml"),
            ("stencil --grid 100", "--grid 100"),
            ("stencil --grid 100x3 --pes 2", "two columns"),
            ("stencil --grid 1x100", "M and N"),
            ("stencil --iterations 1", "--iterations"),
            ("stencil --grid none --weak-m none", "nothing to run"),
            ("stencil --pes 0", "0 PEs"),
            // #23: spinning PEs pinned to one CPU are refused up front, offering what works.
            ("alltoall --wait spin --pes 2 --cpus 0", "spin-yield"),
            (
                "stencil --wait spin --pes 2 --cpus 0",
                "both pinned to CPU 0",
            ),
            ("pingpong --wait spin --placement same-core", "spin-yield"),
        ],
    );
}

#[test]
fn ctrl_c_stops_after_the_current_team_with_partial_output_and_no_segments() {
    let _g = serial();
    let dir = tmpdir("st-int");
    let file = dir.join("partial.json");
    // 3 × 3 points of 5 runs of 50 iterations: many seconds; interrupted after about one.
    let child = spawn(&words_and_path(
        "bench stencil --grid 2000x200 --pes 1,2,3 --weak-m none --iterations 50 --runs 5 \
        --format json -q -o",
        &file,
    ));
    let parent = child.id();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    common::signal(parent, "INT");
    let (code, err) = wait_child(child, 60, "bench stencil after SIGINT");
    assert_eq!(code, Some(130), "{err}");
    let v = read_json(&file);
    assert_eq!(v["partial"], true);
    assert!(records(&v).len() < 9, "{}", records(&v).len());
    assert!(segments_of(parent).is_empty(), "{:?}", segments_of(parent));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without the `mpi` feature, a command under mpirun (MPICH's PMI_SIZE > 1) and an MPI
/// transport both say how to rebuild, exit 2, and run nothing.
#[cfg(not(feature = "mpi"))]
#[test]
fn without_the_mpi_feature_mpirun_and_mpi_transports_say_how_to_rebuild() {
    let mut cmd = std::process::Command::new(common::BIN);
    cmd.args(["bench", "pingpong", "--sizes", "8", "-q"])
        .env("PMI_SIZE", "2")
        .env("PMI_RANK", "0");
    let out = common::run_cmd(&mut cmd);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("built without MPI") && err.contains("--features mpi"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    common::usage_error(
        &["bench", "alltoall", "--transport", "shm,mpi-shm", "-q"],
        "--features mpi",
    );
}
