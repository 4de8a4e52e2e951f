//! With the `mpi` feature: compiles `src/shim.c` against the MPI headers the `mpi` crate's
//! build found (the same probe: `mpicc -show`, pkg-config). Without it: nothing.

fn main() {
    println!("cargo:rerun-if-changed=src/shim.c");
    #[cfg(feature = "mpi")]
    {
        let lib = build_probe_mpi::probe().unwrap_or_else(|errs| {
            panic!(
                "handoff-mpi: no MPI library found ({errs:?}); install one \
                 (Debian: apt-get install mpich libmpich-dev libclang-dev) or build without \
                 the `mpi` feature"
            )
        });
        let mut build = cc::Build::new();
        for dir in &lib.include_paths {
            build.include(dir);
        }
        build.file("src/shim.c").compile("handoff_mpi_shim");
    }
}
