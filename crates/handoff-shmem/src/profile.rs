//! The profiling interface (OpenSHMEM 1.5 §9.16 and Annex): every routine of the library is
//! exported under its name-shifted profiling name (`pshmem_putmem`, `pshmem_int_put`, ...: `p`
//! and the routine's name, so also `pshmemx_ct_wait`, `pstart_pes`, `pshmalloc`) and under its
//! own name (`shmem_putmem`), two symbols. A tool wraps a routine by defining its own
//! `shmem_putmem` (in the program or in a library loaded first) and calling `pshmem_putmem`
//! from it: the program's calls reach the tool, the library's own calls between routines are
//! Rust calls to the implementation and never go back into the tool.
//!
//! Stable Rust cannot mark a symbol weak (`#[linkage]` is unstable), and symbols defined
//! outside Rust (assembly aliases, a C object) are not exported from the cdylib (rustc's
//! version script lists only Rust's own). So the `shmem_*` names are ordinary global
//! symbols; for the shared library that is what a tool needs, since the dynamic linker binds
//! a program's calls to the first definition in the lookup order (the program, then
//! `LD_PRELOAD`ed tools, then `libhandoff_shmem.so`), weak or not. With the static library a
//! tool's own `shmem_*` definitions collide with the archive's: link the tool with
//! `-Wl,--allow-multiple-definition` placed before the library (the first definition wins).

/// Defines an exported routine: the Rust function `$name` (the implementation, called by
/// the library's Rust code, not exported) and two exported symbols calling it, its
/// profiling name (`p` + `$name`) and its own name, the one a tool may replace. The
/// implementation is `#[inline]`, so each symbol is the routine's own code rather than a
/// jump through the GOT to the other (a `jmp *GOT` measured on every call otherwise).
macro_rules! profiled {
    ($(#[$m:meta])* pub unsafe extern "C" fn $($rest:tt)*) => {
        profiled!(@emit [unsafe] $(#[$m])* $($rest)*);
    };
    ($(#[$m:meta])* pub extern "C" fn $($rest:tt)*) => {
        profiled!(@emit [] $(#[$m])* $($rest)*);
    };
    (@emit [$($u:tt)*] $(#[$m:meta])*
     $name:ident ( $($a:ident : $t:ty),* $(,)? ) $(-> $r:ty)? $body:block) => {
        $(#[$m])*
        #[inline]
        pub $($u)* extern "C" fn $name($($a: $t),*) $(-> $r)? $body

        const _: () = {
            /// The routine under its profiling name.
            #[export_name = concat!("p", stringify!($name))]
            #[allow(clippy::too_many_arguments, unused_unsafe)]
            $($u)* extern "C" fn profiling($($a: $t),*) $(-> $r)? {
                // SAFETY: the same arguments to the same routine: the caller's promises for
                // this call are that routine's.
                unsafe { $name($($a),*) }
            }
            /// The routine under its own name.
            #[export_name = stringify!($name)]
            #[allow(clippy::too_many_arguments, unused_unsafe)]
            $($u)* extern "C" fn forward($($a: $t),*) $(-> $r)? {
                // SAFETY: as above.
                unsafe { $name($($a),*) }
            }
        };
    };
}

profiled! {
    /// `shmem_pcontrol` (OpenSHMEM 1.5 §9.16): sets the profiling level for a tool that
    /// intercepts it (0 off, 1 normal, 2 flush the tool's buffers, others the tool's own).
    /// The library itself has no profiling, so it has no effect here. Declared
    /// `void shmem_pcontrol(const int level, ...)` in shmem.h: the variable arguments are the
    /// tool's business; on the C ABIs Rust targets (x86-64 and AArch64 System V) a
    /// definition without them receives `level` as the variadic call passes it.
    pub extern "C" fn shmem_pcontrol(level: std::ffi::c_int) {
        let _ = level;
    }
}
