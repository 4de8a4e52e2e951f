#!/usr/bin/env python3
"""Writes handoff.f90 (the Fortran module `handoff`) next to this script.

The module is plain Fortran 2008 + iso_c_binding; only its array procedures repeat once per
kind and rank (loan, publish, recv, release for 7 kinds x ranks 1-3), so they are generated
here rather than written 84 times by hand. handoff.f90 is committed: building it needs only a
Fortran compiler. After editing this script, run it and commit both files
(`python3 crates/handoff-capi/fortran/gen_handoff.py`); scripts/fortran-test fails when
handoff.f90 is stale.
"""

import pathlib
import sys

# (suffix, Fortran type, bytes per element, name in messages)
KINDS = [
    ("i1", "integer(c_int8_t)", 1, "integer(c_int8_t)"),
    ("i4", "integer(c_int32_t)", 4, "integer(c_int32_t)"),
    ("i8", "integer(c_int64_t)", 8, "integer(c_int64_t)"),
    ("r4", "real(c_float)", 4, "real(c_float)"),
    ("r8", "real(c_double)", 8, "real(c_double)"),
    ("c4", "complex(c_float_complex)", 8, "complex(c_float_complex)"),
    ("c8", "complex(c_double_complex)", 16, "complex(c_double_complex)"),
]
RANKS = [1, 2, 3]


def dims(rank):
    return "(" + ",".join([":"] * rank) + ")"


def specifics(verb):
    return [f"{verb}_{k}_{r}" for k, _, _, _ in KINDS for r in RANKS]


def generic(name, procs, indent="        "):
    lines = []
    chunk = []
    for p in procs:
        chunk.append(p)
        if len(chunk) == 4:
            lines.append(", ".join(chunk))
            chunk = []
    if chunk:
        lines.append(", ".join(chunk))
    body = (", &\n" + indent + "    ").join(lines)
    specific = [q for q in procs if q.endswith(tuple(f"_{r}" for r in RANKS))]
    decl = "".join(f"{indent}procedure, private :: {', '.join(specific[i:i + 4])}\n"
                   for i in range(0, len(specific), 4))
    return f"{decl}{indent}generic :: {name} => {body}\n"


def array_procs():
    out = []
    for k, ftype, size, tname in KINDS:
        for r in RANKS:
            d = dims(r)
            out.append(f"""
    !> Loans the next free block as a {tname} array of rank {r} (see `loan_block`).
    subroutine loan_{k}_{r}(self, a, shape, timeout, stat, errmsg)
        class(handoff_producer), intent(inout) :: self
        {ftype}, pointer, intent(inout) :: a{d}
        integer, intent(in), optional :: shape(:)
        real(c_double), intent(in), optional :: timeout
        integer, intent(out), optional :: stat
        character(*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: n({r})
        type(c_ptr) :: p
        nullify (a)
        if (.not. fits(self%block_size, {size}_c_size_t, {r}, shape, 'loan', '{tname}', n, stat, errmsg)) return
        if (.not. loan_block(self, p, timeout, stat, errmsg)) return
        call c_f_pointer(p, a, n)
    end subroutine

    !> Publishes the loaned block `a` points at and nullifies `a`.
    subroutine publish_{k}_{r}(self, a, stat, errmsg)
        class(handoff_producer), intent(inout) :: self
        {ftype}, pointer, intent(inout) :: a{d}
        integer, intent(out), optional :: stat
        character(*), intent(inout), optional :: errmsg
        if (.not. associated(a)) then
            call fail(HANDOFF_E_STATE, 'publish: the array is not associated (published already, or never loaned)', &
                      stat, errmsg)
            return
        end if
        if (.not. c_associated(c_loc(a), self%loaned)) then
            call fail(HANDOFF_E_STATE, 'publish: the array is not the block this producer loaned last', stat, errmsg)
            return
        end if
        call publish_block(self, stat, errmsg)
        nullify (a)
    end subroutine

    !> Receives the next block as a read-only {tname} view of rank {r} (see `recv_block`).
    subroutine recv_{k}_{r}(self, a, shape, timeout, seq, stat, errmsg)
        class(handoff_consumer), intent(inout) :: self
        {ftype}, pointer, intent(inout) :: a{d}
        integer, intent(in), optional :: shape(:)
        real(c_double), intent(in), optional :: timeout
        integer(c_int64_t), intent(out), optional :: seq
        integer, intent(out), optional :: stat
        character(*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: n({r})
        type(c_ptr) :: p
        nullify (a)
        if (.not. fits(self%block_size, {size}_c_size_t, {r}, shape, 'recv', '{tname}', n, stat, errmsg)) return
        if (.not. recv_block(self, p, timeout, seq, stat, errmsg)) return
        call c_f_pointer(p, a, n)
    end subroutine

    !> Releases the received block `a` points at and nullifies `a`.
    subroutine release_{k}_{r}(self, a, stat, errmsg)
        class(handoff_consumer), intent(inout) :: self
        {ftype}, pointer, intent(inout) :: a{d}
        integer, intent(out), optional :: stat
        character(*), intent(inout), optional :: errmsg
        if (.not. associated(a)) then
            call fail(HANDOFF_E_STATE, 'release: the array is not associated (released already, or never received)', &
                      stat, errmsg)
            return
        end if
        if (.not. c_associated(c_loc(a), self%held)) then
            call fail(HANDOFF_E_STATE, 'release: the array is not the block this consumer received last', stat, errmsg)
            return
        end if
        call release_block(self, stat, errmsg)
        nullify (a)
    end subroutine
""")
    return "".join(out)


def main():
    here = pathlib.Path(__file__).resolve().parent
    template = (here / "handoff.f90.in").read_text()
    text = template.replace("!@PRODUCER_GENERICS@\n", generic("loan", specifics("loan")) + generic(
        "publish", ["publish_block"] + specifics("publish")))
    text = text.replace("!@CONSUMER_GENERICS@\n", generic("recv", specifics("recv")) + generic(
        "release", ["release_block"] + specifics("release")))
    text = text.replace("!@ARRAY_PROCEDURES@\n", array_procs())
    target = here / "handoff.f90"
    header = ("! GENERATED by gen_handoff.py from handoff.f90.in: edit those, then run\n"
              "! `python3 crates/handoff-capi/fortran/gen_handoff.py` and commit all three.\n")
    text = header + text
    if "--check" in sys.argv:
        if not target.exists() or target.read_text() != text:
            print(f"{target} is stale: run python3 {pathlib.Path(__file__)}", file=sys.stderr)
            return 1
        return 0
    target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
