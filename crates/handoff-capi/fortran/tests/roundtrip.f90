! A Fortran producer or consumer with the command line of crates/handoff-capi/tests/c/roundtrip.c,
! so every pairing (Fortran-C, C-Fortran, Fortran-Python) runs the same protocol
! (scripts/fortran-test runs them):
!
!   roundtrip_f produce SHORTNAME BLOCKS BLOCK_BYTES   creates the channel, prints "name=<full>",
!                                                      publishes BLOCKS blocks, prints "sum=<S>"
!   roundtrip_f consume NAME BLOCKS BLOCK_BYTES        opens it, receives BLOCKS blocks, checks
!                                                      each block's sequence number and words,
!                                                      prints "sum=<S>" then "closed"
!   roundtrip_f hang SHORTNAME                         creates a channel, prints "name=<full>",
!                                                      sleeps (to be killed)
!   roundtrip_f wait NAME                              opens it, waits for a block, prints
!                                                      "code=<HANDOFF_E_...>" and "message=..."
!   roundtrip_f signal SHORTNAME N                     creates a segment (a signal at offset 0, a
!                                                      flag at 128, a barrier of 2 at 256),
!                                                      prints "name=<full>", adds 1 to the signal
!                                                      N times, waits for the peer to store N in
!                                                      the flag, meets it at the barrier, prints
!                                                      "acked=<N>"
!
! Block i holds the uint32 words (i*1000003 + j) mod 2**32, j = 0, 1, ...; S is their sum.
program roundtrip
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: int64, output_unit, error_unit
    use handoff
    implicit none
    character(len=512) :: mode, name, arg
    integer(int64) :: blocks, bytes

    call get_command_argument(1, mode)
    call get_command_argument(2, name)
    select case (trim(mode))
    case ('produce', 'consume')
        if (command_argument_count() /= 4) call usage()
        call get_command_argument(3, arg)
        read (arg, *) blocks
        call get_command_argument(4, arg)
        read (arg, *) bytes
        if (trim(mode) == 'produce') then
            call produce(trim(name), blocks, bytes)
        else
            call consume(trim(name), blocks, bytes)
        end if
    case ('hang')
        call hang(trim(name))
    case ('wait')
        call wait_one(trim(name))
    case ('signal')
        if (command_argument_count() /= 3) call usage()
        call get_command_argument(3, arg)
        read (arg, *) blocks
        call signal_peer(trim(name), blocks)
    case default
        call usage()
    end select

contains

    subroutine usage()
        write (error_unit, '(a)') 'usage: see the comment at the top of roundtrip.f90'
        stop 2
    end subroutine

    !> Word j (0-based) of block i as the int32 with the bits of the uint32 (i*1000003 + j) mod 2**32.
    integer(c_int32_t) function word(i, j, v)
        integer(int64), intent(in) :: i, j
        integer(int64), intent(out) :: v
        v = modulo(i*1000003_int64 + j, 2_int64**32)
        if (v >= 2_int64**31) then
            word = int(v - 2_int64**32, c_int32_t)
        else
            word = int(v, c_int32_t)
        end if
    end function

    subroutine produce(short, blocks, bytes)
        character(*), intent(in) :: short
        integer(int64), intent(in) :: blocks, bytes
        type(handoff_channel) :: ch
        type(handoff_producer) :: tx
        integer(c_int32_t), pointer :: w(:)
        integer(int64) :: i, j, v, total
        call ch%create(short, int(bytes, c_size_t), 2)
        write (output_unit, '(2a)') 'name=', ch%name()
        flush (output_unit)
        call ch%producer(tx)
        total = 0
        do i = 0, blocks - 1
            call tx%loan(w, timeout=10d0) ! rank 1: the whole block, bytes/4 words
            do j = 0, size(w, kind=int64) - 1
                w(j + 1) = word(i, j, v)
                total = total + v
            end do
            call tx%publish(w)
        end do
        write (output_unit, '(a,i0)') 'sum=', total
        flush (output_unit)
        call tx%free()
        call ch%free()
    end subroutine

    subroutine consume(full, blocks, bytes)
        character(*), intent(in) :: full
        integer(int64), intent(in) :: blocks, bytes
        type(handoff_channel) :: ch
        type(handoff_consumer) :: rx
        integer(c_int32_t), pointer :: w(:)
        integer(int64) :: i, j, v, total, seq
        integer :: stat
        character(len=512) :: msg
        call ch%open(full, int(bytes, c_size_t), 2, timeout=10d0)
        call ch%consumer(rx)
        total = 0
        do i = 0, blocks - 1
            call rx%recv(w, timeout=10d0, seq=seq)
            if (seq /= i) then
                write (error_unit, '(a,i0,a,i0)') 'block ', i, ' arrived with sequence number ', seq
                error stop 1
            end if
            do j = 0, size(w, kind=int64) - 1
                if (w(j + 1) /= word(i, j, v)) then
                    write (error_unit, '(a,i0,a,i0,a,i0)') 'block ', i, ' word ', j, ' is ', w(j + 1)
                    error stop 1
                end if
                total = total + v
            end do
            call rx%release(w)
        end do
        write (output_unit, '(a,i0)') 'sum=', total
        call rx%recv(w, timeout=10d0, stat=stat, errmsg=msg)
        if (stat == HANDOFF_E_CLOSED) then
            write (output_unit, '(a)') 'closed'
        else
            write (output_unit, '(a)') handoff_error_name(stat)
        end if
        flush (output_unit)
        call rx%free()
        call ch%free()
    end subroutine

    subroutine hang(short)
        character(*), intent(in) :: short
        type(handoff_channel) :: ch
        type(handoff_producer) :: tx
        interface
            integer(c_int) function pause() bind(c)
                import :: c_int
            end function
        end interface
        call ch%create(short, 4096_c_size_t, 2)
        call ch%producer(tx)
        write (output_unit, '(2a)') 'name=', ch%name()
        flush (output_unit)
        do
            if (pause() /= 0) continue
        end do
    end subroutine

    subroutine wait_one(full)
        character(*), intent(in) :: full
        type(handoff_channel) :: ch
        type(handoff_consumer) :: rx
        real(c_double), pointer :: x(:)
        integer :: stat
        character(len=512) :: msg
        call ch%open(full, 4096_c_size_t, 2, timeout=10d0)
        call ch%consumer(rx)
        write (output_unit, '(a)') 'waiting'
        flush (output_unit)
        msg = ''
        call rx%recv(x, timeout=30d0, stat=stat, errmsg=msg)
        write (output_unit, '(2a)') 'code=', handoff_error_name(stat)
        write (output_unit, '(2a)') 'message=', trim(msg)
        flush (output_unit)
    end subroutine
    subroutine signal_peer(short, n)
        character(*), intent(in) :: short
        integer(int64), intent(in) :: n
        type(handoff_segment) :: seg
        type(handoff_signal) :: sig
        type(handoff_flag) :: ack
        type(handoff_barrier) :: bar
        integer(int64) :: i
        call seg%create(short, 3*HANDOFF_PRIMITIVE_SIZE)
        call seg%signal(sig)
        call seg%flag(ack, offset=HANDOFF_PRIMITIVE_SIZE)
        call seg%barrier(bar, offset=2*HANDOFF_PRIMITIVE_SIZE)
        call bar%init(2)
        call seg%publish_ready()
        write (output_unit, '(2a)') 'name=', seg%name()
        flush (output_unit)
        do i = 1, n
            call sig%add()
        end do
        call ack%wait_for(int(n, c_int32_t), timeout=10d0)
        call bar%wait(timeout=10d0)
        write (output_unit, '(a,i0)') 'acked=', ack%load()
        flush (output_unit)
        call sig%free()
        call ack%free()
        call bar%free()
        call seg%free()
    end subroutine
end program
