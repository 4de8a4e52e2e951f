//! The compiler wrappers `bin/oshcc` / `bin/oshc++` as build systems use them: the back end
//! from their own variables, `CC=oshcc` (what `CC=oshcc ./configure` hands on) skipped instead
//! of run again, a back end that loops back an error instead of a hang, the `--showme:*`
//! queries, and `handoff-shmem.pc` agreeing with them. Every wrapper run is under a watchdog:
//! a wrapper that calls itself forever fails the test instead of hanging it.
//! (The autotools project and shmem4py on top: scripts/shmem-tools-test.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use handoff_probe::proc::{ChildGuard, Watchdog};

const WATCHDOG: Duration = Duration::from_secs(60);

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin(tool: &str) -> PathBuf {
    crate_dir().join("bin").join(tool)
}

/// `target/<profile>/deps`, beside the test binary, where `cargo test` leaves this build's
/// `libhandoff_shmem.so`.
fn lib_dir() -> PathBuf {
    let dir = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    assert!(
        dir.join("libhandoff_shmem.so").exists(),
        "libhandoff_shmem.so not found in {}",
        dir.display()
    );
    dir
}

/// `target/<profile>`, where the build script writes `pkgconfig/handoff-shmem.pc`.
fn profile_dir() -> PathBuf {
    lib_dir().parent().unwrap().to_path_buf()
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let d =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("oshcc-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `bin/TOOL ARGS` with only the compiler variables in `env` set (the caller's CC,
/// CXX, HANDOFF_SHMEM_* removed), killed by a watchdog if it has not ended in a minute.
fn wrapper(tool: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin(tool));
    for v in [
        "CC",
        "CXX",
        "HANDOFF_SHMEM_CC",
        "HANDOFF_SHMEM_CXX",
        "HANDOFF_SHMEM_LIBDIR",
        "HANDOFF_SHMEM_WRAPPER_ACTIVE",
        "OSHCC_STATIC",
    ] {
        cmd.env_remove(v);
    }
    cmd.env("HANDOFF_SHMEM_LIBDIR", lib_dir())
        .envs(env.iter().copied())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let guard = ChildGuard::spawn(&mut cmd).unwrap();
    let dog = Watchdog::new([guard.process_id()], WATCHDOG);
    let out = guard.wait_with_output().unwrap();
    assert!(
        !dog.fired(),
        "{tool} {args:?} with {env:?} did not end within {WATCHDOG:?} (it ran itself again?)"
    );
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[track_caller]
fn assert_ok(o: &Output, what: &str) {
    assert!(
        o.status.success(),
        "{what} failed ({}):\n{}",
        o.status,
        stderr(o)
    );
}

/// A one-line error (exit 2) containing `needle`.
#[track_caller]
fn assert_one_line_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert!(err.contains(needle), "{err:?} lacks {needle:?}");
}

const C_PROGRAM: &str = "#include <shmem.h>\n\
    #ifdef NEED\n#ifndef FROM_BACKEND\n#error the back end was not the one expected\n#endif\n#endif\n\
    int main(void) { shmem_init(); int me = shmem_my_pe(); shmem_finalize(); return me < 0; }\n";

const CXX_PROGRAM: &str = "#include <shmem.h>\n\
    int main() { static long x; shmem_init(); shmem_p(&x, 1L, shmem_my_pe());\n\
    shmem_finalize(); return 0; }\n";

/// Writes `src` into `dir/name` and compiles and links it with `tool` and `env`.
fn build(
    dir: &Path,
    name: &str,
    src: &str,
    tool: &str,
    flags: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let file = dir.join(name);
    std::fs::write(&file, src).unwrap();
    let exe = dir.join(format!("{name}.exe"));
    let mut args: Vec<&str> = flags.to_vec();
    let (exe_s, file_s) = (exe.to_str().unwrap(), file.to_str().unwrap());
    args.extend(["-Wall", "-Werror", "-o", exe_s, file_s]);
    let o = wrapper(tool, &args, env);
    if o.status.success() {
        assert!(
            exe.exists(),
            "{tool} succeeded without writing {}",
            exe.display()
        );
    }
    o
}

#[test]
fn oshcc_adds_the_include_dir_and_links_only_when_linking() {
    let show = |args: &[&str]| {
        let o = wrapper("oshcc", &[&["--showme"], args].concat(), &[("CC", "cc")]);
        assert_ok(&o, "oshcc --showme");
        stdout(&o)
    };
    let inc = format!("-I{}", crate_dir().join("include").display());
    assert_eq!(show(&["-c", "x.c"]), format!("cc {inc} -c x.c"));
    let lib = lib_dir().display().to_string();
    assert_eq!(
        show(&["-o", "x", "x.c"]),
        format!("cc {inc} -o x x.c -L{lib} -Wl,-rpath,{lib} -lhandoff_shmem")
    );
}

/// What `CC=oshcc ./configure` does: configure runs `$CC` with CC=oshcc in its environment.
/// The wrapper must compile with its default back end, not run itself forever.
#[test]
fn cc_naming_the_wrapper_is_skipped_not_run_again() {
    let dir = scratch("cc-self");
    let path = format!(
        "{}:{}",
        crate_dir().join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let abs = bin("oshcc");
    let abs = abs.to_str().unwrap();
    for (i, cc) in [
        abs,
        "oshcc",
        "ccache oshcc",
        "/opt/other-shmem/bin/oshcc -m64",
    ]
    .into_iter()
    .enumerate()
    {
        let o = build(
            &dir,
            &format!("p{i}.c"),
            C_PROGRAM,
            "oshcc",
            &[],
            &[("CC", cc), ("PATH", &path)],
        );
        assert_ok(&o, &format!("CC='{cc}' oshcc"));
    }
    let cxx = bin("oshc++");
    for (i, cxx) in [cxx.to_str().unwrap(), "oshc++", "oshCC", "oshcxx"]
        .into_iter()
        .enumerate()
    {
        let o = build(
            &dir,
            &format!("q{i}.cpp"),
            CXX_PROGRAM,
            "oshc++",
            &[],
            &[("CXX", cxx), ("PATH", &path)],
        );
        assert_ok(&o, &format!("CXX='{cxx}' oshc++"));
    }
    // oshCC and oshcxx are oshc++.
    for tool in ["oshCC", "oshcxx"] {
        let o = build(&dir, &format!("{tool}.cpp"), CXX_PROGRAM, tool, &[], &[]);
        assert_ok(&o, tool);
    }
}

#[test]
fn the_back_end_is_handoff_shmem_cc_then_cc_then_cc() {
    let dir = scratch("backend");
    // HANDOFF_SHMEM_CC wins over CC (a CC that would fail proves it is not run).
    let o = build(
        &dir,
        "own.c",
        C_PROGRAM,
        "oshcc",
        &["-DNEED"],
        &[("HANDOFF_SHMEM_CC", "cc -DFROM_BACKEND"), ("CC", "false")],
    );
    assert_ok(&o, "HANDOFF_SHMEM_CC='cc -DFROM_BACKEND' CC=false oshcc");
    // Without it, CC (a command line: its words are split).
    let o = build(
        &dir,
        "cc.c",
        C_PROGRAM,
        "oshcc",
        &["-DNEED"],
        &[("CC", "cc -DFROM_BACKEND")],
    );
    assert_ok(&o, "CC='cc -DFROM_BACKEND' oshcc");
    // Without either, cc (and not a CC of another language: oshc++ reads CXX).
    let o = build(&dir, "none.c", C_PROGRAM, "oshcc", &["-DNEED"], &[]);
    assert!(
        !o.status.success(),
        "FROM_BACKEND defined without a back end that defines it"
    );
    assert_eq!(stdout(&wrapper("oshcc", &["--showme:command"], &[])), "cc");
    let o = wrapper(
        "oshc++",
        &["--showme:command"],
        &[("CC", "false"), ("HANDOFF_SHMEM_CC", "false")],
    );
    assert_eq!(stdout(&o), "c++");
    let o = wrapper(
        "oshc++",
        &["--showme:command"],
        &[("CXX", "g++"), ("HANDOFF_SHMEM_CXX", "clang++ -std=c++17")],
    );
    assert_eq!(stdout(&o), "clang++ -std=c++17");
    // The wrapper's own variable naming a wrapper is a mistake said in one line.
    let o = wrapper("oshcc", &["-c", "x.c"], &[("HANDOFF_SHMEM_CC", "oshcc")]);
    assert_one_line_error(&o, "HANDOFF_SHMEM_CC='oshcc' names an OpenSHMEM wrapper");
    let o = wrapper(
        "oshc++",
        &["-c", "x.cpp"],
        &[("HANDOFF_SHMEM_CXX", "/usr/bin/oshc++")],
    );
    assert_one_line_error(
        &o,
        "HANDOFF_SHMEM_CXX='/usr/bin/oshc++' names an OpenSHMEM wrapper",
    );
}

/// A back end that runs the wrapper again under another name (a script) would loop: the
/// wrapper refuses to run inside its own back end, with one line naming the back end.
#[test]
fn a_back_end_that_runs_the_wrapper_again_is_an_error_not_a_loop() {
    let dir = scratch("loop");
    let script = dir.join("mycc");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nexec {} \"$@\"\n", bin("oshcc").display()),
    )
    .unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&script, mode).unwrap();
    let script = script.to_str().unwrap();
    for var in ["HANDOFF_SHMEM_CC", "CC"] {
        let o = build(&dir, "p.c", C_PROGRAM, "oshcc", &[], &[(var, script)]);
        assert_one_line_error(
            &o,
            &format!("the back-end compiler '{script}' runs oshcc again"),
        );
    }
}

#[test]
fn showme_queries_and_the_pkg_config_file_agree() {
    let q = |what: &str, env: &[(&str, &str)]| {
        let o = wrapper("oshcc", &[&format!("--showme:{what}")], env);
        assert_ok(&o, &format!("oshcc --showme:{what}"));
        stdout(&o)
    };
    let inc = crate_dir().join("include").display().to_string();
    let lib = lib_dir().display().to_string();
    assert_eq!(q("compile", &[]), format!("-I{inc}"));
    assert_eq!(
        q("link", &[]),
        format!("-L{lib} -Wl,-rpath,{lib} -lhandoff_shmem")
    );
    assert_eq!(q("incdirs", &[]), inc);
    assert_eq!(q("libdirs", &[]), lib);
    assert_eq!(q("libs", &[]), "handoff_shmem");
    assert_eq!(q("command", &[("CC", "gcc")]), "gcc");
    assert_eq!(
        q("link", &[("OSHCC_STATIC", "1")]),
        format!("{lib}/libhandoff_shmem.a -lpthread -ldl -lm")
    );
    let o = wrapper("oshcc", &["--showme:bogus"], &[]);
    assert_one_line_error(&o, "unknown option '--showme:bogus'");
    // Without a library directory, the link query says how to get one.
    let o = wrapper("oshcc", &["--showme:link"], &[("HANDOFF_SHMEM_LIBDIR", "")]);
    if !o.status.success() {
        assert_one_line_error(&o, "cargo build --release -p handoff-shmem");
    }

    // handoff-shmem.pc, written by the build script, says the same for target/<profile>.
    let pc_dir = profile_dir().join("pkgconfig");
    assert!(
        pc_dir.join("handoff-shmem.pc").exists(),
        "the build did not write {}/handoff-shmem.pc",
        pc_dir.display()
    );
    let pc = match Command::new("pkg-config")
        .args(["--cflags", "--libs", "handoff-shmem"])
        .env("PKG_CONFIG_PATH", &pc_dir)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("SKIP: showme_queries_and_the_pkg_config_file_agree: pkg-config: {e} (apt-get install pkg-config)");
            return;
        }
    };
    assert_ok(&pc, "pkg-config --cflags --libs handoff-shmem");
    let profile = profile_dir().display().to_string();
    let env = [("HANDOFF_SHMEM_LIBDIR", profile.as_str())];
    assert_eq!(
        stdout(&pc),
        format!("{} {}", q("compile", &env), q("link", &env))
    );
}

#[test]
fn help_says_how_the_back_end_and_the_library_are_picked() {
    for tool in ["oshcc", "oshc++"] {
        let o = wrapper(tool, &["--help"], &[("CC", "false")]);
        assert_ok(&o, &format!("{tool} --help"));
        let help = stdout(&o);
        for needle in [
            "HANDOFF_SHMEM_CC",
            "HANDOFF_SHMEM_CXX",
            "HANDOFF_SHMEM_LIBDIR",
            "OSHCC_STATIC",
            "--showme:compile",
            "--showme:link",
            "pkg-config --cflags --libs handoff-shmem",
            "handoff run -n N",
        ] {
            assert!(
                help.contains(needle),
                "{tool} --help lacks {needle}:\n{help}"
            );
        }
    }
}

/// The vendor macros of shmem.h (HANDOFF_SHMEM_*_VERSION) and `--showme:version` give the
/// workspace's version.
#[test]
fn vendor_macros_give_the_workspace_version() {
    let dir = scratch("version");
    let (maj, min, pat) = (
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
    );
    let src = format!(
        "#include <shmem.h>\n#include <string.h>\n\
         #if !defined(HANDOFF_SHMEM) || HANDOFF_SHMEM_MAJOR_VERSION != {maj} || \
         HANDOFF_SHMEM_MINOR_VERSION != {min} || HANDOFF_SHMEM_PATCH_VERSION != {pat} || \
         HANDOFF_SHMEM_NUMVERSION != {maj} * 10000 + {min} * 100 + {pat}\n\
         #error the vendor macros do not give version {maj}.{min}.{pat}\n#endif\n\
         int main(void) {{ return strcmp(HANDOFF_SHMEM_VERSION_STRING, \"{maj}.{min}.{pat}\") != 0; }}\n"
    );
    let o = build(&dir, "v.c", &src, "oshcc", &[], &[]);
    assert_ok(&o, "the version check");
    // No shmem_init: it runs without a team.
    let run = Command::new(dir.join("v.c.exe")).output().unwrap();
    assert!(
        run.status.success(),
        "HANDOFF_SHMEM_VERSION_STRING is not {maj}.{min}.{pat}"
    );
    let o = wrapper("oshcc", &["--showme:version"], &[]);
    assert_ok(&o, "oshcc --showme:version");
    assert!(
        stdout(&o).contains(&format!("handoff-shmem {}", env!("CARGO_PKG_VERSION"))),
        "{}",
        stdout(&o)
    );
}
