! The Fortran consumer of the receive benchmark (scripts/fortran-test --bench; a benchmark, not
! a test), compared with bench_recv.c's C consumer in the same run, from the same C producer:
!
!   bench_recv_f consume NAME BYTES REPS   per rep: receive the block as a real(c_double) view,
!                                          sum(view) in place, check it, release; prints
!                                          "median_ns=<t> min_ns=<t>" of receive + sum + release
!                                          (the first 10% dropped)
program bench_recv
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: int64, output_unit, error_unit
    use handoff
    implicit none
    type, bind(c) :: timespec
        integer(c_long) :: sec, nsec
    end type
    interface
        integer(c_int) function clock_gettime(clock, ts) bind(c)
            import :: c_int, timespec
            integer(c_int), value :: clock
            type(timespec), intent(out) :: ts
        end function
    end interface
    type(handoff_channel) :: ch
    type(handoff_consumer) :: rx
    real(c_double), pointer :: w(:)
    character(len=256) :: mode, name, arg
    integer(int64) :: bytes, reps, rep, skip, t0
    integer(int64), allocatable :: t(:)
    real(c_double) :: s, tail, words

    if (command_argument_count() /= 4) error stop 'usage: see the comment at the top of bench_recv.f90'
    call get_command_argument(1, mode)
    call get_command_argument(2, name)
    call get_command_argument(3, arg)
    read (arg, *) bytes
    call get_command_argument(4, arg)
    read (arg, *) reps
    if (trim(mode) /= 'consume') error stop 'usage: see the comment at the top of bench_recv.f90'

    call ch%open(trim(name), int(bytes, c_size_t), 2, timeout=10d0)
    call ch%consumer(rx)
    allocate (t(reps))
    words = real(bytes/8, c_double)
    tail = 0.5d0*(words*(words - 1)/2)
    do rep = 1, reps
        t0 = now_ns()
        call rx%recv(w, timeout=60d0)
        s = sum(w)
        if (s - w(1) /= tail .or. w(1) /= real(rep - 1, c_double)) then
            write (error_unit, '(a,i0,a,g0)') 'bench_recv_f: rep ', rep - 1, ': wrong sum ', s
            error stop 1
        end if
        call rx%release(w)
        t(rep) = now_ns() - t0
    end do
    skip = reps/10
    call sort(t(skip + 1:))
    write (output_unit, '(a,i0,a,i0)') 'median_ns=', t(skip + 1 + (reps - skip)/2), ' min_ns=', t(skip + 1)
    call rx%free()
    call ch%free()

contains

    integer(int64) function now_ns()
        type(timespec) :: ts
        if (clock_gettime(1_c_int, ts) /= 0) error stop 'clock_gettime failed' ! CLOCK_MONOTONIC
        now_ns = int(ts%sec, int64)*1000000000_int64 + int(ts%nsec, int64)
    end function

    subroutine sort(a) ! insertion sort: a few hundred numbers
        integer(int64), intent(inout) :: a(:)
        integer(int64) :: x
        integer :: i, j
        do i = 2, size(a)
            x = a(i)
            j = i - 1
            do while (j >= 1)
                if (a(j) <= x) exit
                a(j + 1) = a(j)
                j = j - 1
            end do
            a(j + 1) = x
        end do
    end subroutine
end program
