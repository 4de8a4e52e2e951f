! Misuse of the Fortran module, in one process: every call must fail with the expected
! HANDOFF_E_* code in `stat` and a message naming the problem in `errmsg`; then the sync
! primitives. Prints "ok: <case>: <message>" per case, "FAIL: ..." and exit 1 on a wrong one.
!
!   misuse_f             every case with stat/errmsg, and the sync primitives
!   misuse_f abort       a wrong shape without stat: must stop (error stop) with the message
program misuse
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: output_unit
    use handoff
    implicit none
    type(handoff_channel) :: ch, other
    type(handoff_producer) :: tx
    type(handoff_consumer) :: rx
    real(c_double), pointer :: d2(:, :), d1(:)
    real(c_float), pointer :: f1(:)
    integer(c_int32_t), pointer :: i2(:, :)
    real(c_double), pointer :: v(:), stale(:)
    integer :: stat, failures
    character(len=400) :: msg
    character(len=32) :: mode

    failures = 0
    call ch%create('fortran-misuse', 4096_c_size_t, 2)
    call ch%producer(tx)
    call ch%consumer(rx)

    call get_command_argument(1, mode)
    if (trim(mode) == 'abort') then
        ! No stat: a Fortran intrinsic would stop the program here with a message; so do we.
        call tx%loan(d2, shape=[16, 16])
        write (output_unit, '(a)') 'FAIL: abort: the wrong shape did not stop the program'
        stop 1
    end if

    call tx%loan(d2, shape=[16, 16], stat=stat, errmsg=msg) ! 2048 bytes for 4096-byte blocks
    call expect('wrong shape', HANDOFF_E_MISMATCH, 'shape [16,16] is 2048 bytes')
    call tx%loan(f1, shape=[512], stat=stat, errmsg=msg) ! real(4) where the blocks hold 512 real(8)
    call expect('wrong kind', HANDOFF_E_MISMATCH, 'wrong kind or shape')
    call tx%loan(d2, stat=stat, errmsg=msg)
    call expect('rank 2 without a shape', HANDOFF_E_INVALID_ARGUMENT, 'needs its shape')
    call tx%loan(i2, shape=[1024], stat=stat, errmsg=msg)
    call expect('shape of the wrong rank', HANDOFF_E_INVALID_ARGUMENT, 'shape has 1 extents for a rank-2 array')
    call tx%publish(stat=stat, errmsg=msg)
    call expect('publish without a loan', HANDOFF_E_STATE, 'loan')

    call tx%loan(d1, stat=stat, errmsg=msg) ! rank 1 without shape: the whole block, 512 real(8)
    call expect('a fitting loan', HANDOFF_OK, '')
    if (size(d1) /= 512) call bad('the whole-block loan has the wrong size')
    d1 = 1.5d0
    call tx%loan(d1, stat=stat, errmsg=msg)
    call expect('a second loan before publishing', HANDOFF_E_STATE, '')
    call tx%publish(stat=stat, errmsg=msg)
    call expect("publish without the array", HANDOFF_OK, "")
    call tx%loan(d1)
    d1 = 1.5d0
    call tx%publish(d1, stat=stat, errmsg=msg)
    call expect('publish', HANDOFF_OK, '')
    if (associated(d1)) call bad('publish(a) left the pointer associated')
    call tx%publish(d1, stat=stat, errmsg=msg)
    call expect('publish after publish', HANDOFF_E_STATE, 'not associated')

    call rx%recv(v, stat=stat, errmsg=msg)
    call expect('recv', HANDOFF_OK, '')
    if (any(v /= 1.5d0)) call bad('the received block does not hold what was published')
    stale => v
    call rx%recv(v, stat=stat, errmsg=msg)
    call expect('recv while holding a block', HANDOFF_E_STATE, 'release it')
    v => stale
    call rx%release(v, stat=stat, errmsg=msg)
    call expect('release', HANDOFF_OK, '')
    if (associated(v)) call bad('release(a) left the pointer associated')
    call rx%release(v, stat=stat, errmsg=msg)
    call expect('release after release', HANDOFF_E_STATE, 'not associated')
    call rx%release(stale, stat=stat, errmsg=msg)
    call expect('release through a stale copy of the pointer', HANDOFF_E_STATE, 'not the block this consumer received')

    call other%open(ch%name(), 8192_c_size_t, 2, timeout=1d0, stat=stat, errmsg=msg)
    call expect('open with another block size', HANDOFF_E_MISMATCH, 'the creator passed to %create')

    call tx%loan(d1, timeout=0d0, stat=stat, errmsg=msg)
    call expect('loan (poll)', HANDOFF_OK, '')
    call tx%loan(d1, timeout=0d0, stat=stat, errmsg=msg)
    call expect('loan while holding one', HANDOFF_E_STATE, '')
    ! The three forms of a receive: timeout=0 (try), a positive timeout, none (the patience).
    call rx%recv(v, timeout=0d0, stat=stat, errmsg=msg)
    call expect('recv (poll) of the second block', HANDOFF_OK, '')
    call rx%release(v)
    call rx%recv(v, timeout=0d0, stat=stat, errmsg=msg)
    call expect('recv (poll) with nothing published', HANDOFF_E_TIMEOUT, '')
    call rx%recv(v, timeout=0.001d0, stat=stat, errmsg=msg)
    call expect('recv (1 ms) with nothing published', HANDOFF_E_TIMEOUT, '')
    call rx%set_patience(wait=HANDOFF_WAIT_BLOCK, timeout=0.001d0)
    call rx%recv(v, stat=stat, errmsg=msg)
    call expect('recv (patience: 1 ms) with nothing published', HANDOFF_E_TIMEOUT, '')

    call rx%free()
    call rx%recv(v, stat=stat, errmsg=msg)
    call expect('recv after free', HANDOFF_E_BAD_HANDLE, 'not open')
    call tx%free()
    call tx%loan(d1, stat=stat, errmsg=msg)
    call expect('loan after free', HANDOFF_E_BAD_HANDLE, 'not open')
    call tx%free(stat=stat, errmsg=msg)
    call expect('free after free', HANDOFF_E_BAD_HANDLE, '')
    call ch%free()
    call ch%producer(tx, stat=stat, errmsg=msg)
    call expect('producer of a freed channel', HANDOFF_E_BAD_HANDLE, '')

    call sync_primitives()

    if (failures > 0) then
        write (output_unit, '(i0,a)') failures, ' case(s) failed'
        stop 1
    end if
    write (output_unit, '(a)') 'misuse: all cases passed'

contains

    subroutine expect(what, code, needle)
        character(*), intent(in) :: what, needle
        integer, intent(in) :: code
        if (stat /= code) then
            call bad(what//': got '//handoff_error_name(stat)//' instead of '//handoff_error_name(code)//': '//trim(msg))
        else if (code /= HANDOFF_OK .and. index(msg, needle) == 0) then
            call bad(what//': the message does not say "'//needle//'": '//trim(msg))
        else if (code /= HANDOFF_OK .and. index(msg, handoff_error_name(code)) == 0) then
            call bad(what//': the message does not name the code: '//trim(msg))
        else
            write (output_unit, '(4a)') 'ok: ', what, ': ', trim(msg)
        end if
        msg = ''
    end subroutine

    subroutine bad(what)
        character(*), intent(in) :: what
        write (output_unit, '(2a)') 'FAIL: ', what
        failures = failures + 1
    end subroutine

    subroutine sync_primitives()
        type(handoff_segment) :: seg
        type(handoff_flag) :: f
        type(handoff_signal) :: s
        type(handoff_semaphore) :: sem
        type(handoff_barrier) :: b
        integer(c_int32_t) :: fv
        integer(c_int64_t) :: count
        logical :: leader
        call seg%anonymous(4*HANDOFF_PRIMITIVE_SIZE)
        call seg%flag(f)
        call seg%signal(s, offset=HANDOFF_PRIMITIVE_SIZE)
        call seg%semaphore(sem, offset=2*HANDOFF_PRIMITIVE_SIZE)
        call seg%barrier(b, offset=3*HANDOFF_PRIMITIVE_SIZE)
        call seg%flag(f, offset=7_c_size_t, stat=stat, errmsg=msg)
        call expect('a flag at a misaligned offset', HANDOFF_E_INVALID_ARGUMENT, 'not aligned')

        call f%store(41)
        call f%increment(fv)
        if (fv /= 42 .or. f%load() /= 42) call bad('flag store/increment/load')
        call f%wait_for(42, timeout=0d0)
        call f%wait_for(7, timeout=0d0, stat=stat, errmsg=msg)
        call expect('flag wait_for (poll) of a value it does not hold', HANDOFF_E_TIMEOUT, '')
        call f%set_patience(wait=HANDOFF_WAIT_SPIN)
        call f%wait_change(41, value=fv, timeout=1d0)
        if (fv /= 42) call bad('flag wait_change')
        ! No timeout: the handle's patience (here at most 1 ms) decides.
        call f%set_patience(timeout=0.001d0)
        call f%wait_for(7, stat=stat, errmsg=msg)
        call expect('flag wait_for with a 1 ms patience', HANDOFF_E_TIMEOUT, '')
        call f%set_patience(wait=99, stat=stat, errmsg=msg)
        call expect('a patience of an unknown strategy', HANDOFF_E_INVALID_ARGUMENT, 'unknown wait kind')

        call s%add(5_c_int64_t, count)
        call s%add(count=count)
        if (count /= 6 .or. s%load() /= 6) call bad('signal add/load')
        call s%set_patience(wait=HANDOFF_WAIT_BLOCK, timeout=1d0)
        call s%wait_until(6_c_int64_t, count)
        call s%wait_until(7_c_int64_t, timeout=0.01d0, stat=stat, errmsg=msg)
        call expect('signal wait_until past its count (10 ms)', HANDOFF_E_TIMEOUT, '')

        call sem%post()
        call sem%post()
        if (sem%value() /= 2) call bad('semaphore value after two posts')
        call sem%wait(timeout=0d0)
        call sem%set_patience(wait=HANDOFF_WAIT_SPIN_YIELD)
        call sem%wait(timeout=1d0)
        call sem%wait(timeout=0d0, stat=stat, errmsg=msg)
        call expect('semaphore wait (poll) with no permit', HANDOFF_E_TIMEOUT, '')
        call sem%wait(timeout=0.001d0, stat=stat, errmsg=msg)
        call expect('semaphore wait (1 ms) with no permit', HANDOFF_E_TIMEOUT, '')
        call sem%set_patience(timeout=0d0)
        call sem%wait(stat=stat, errmsg=msg)
        call expect('semaphore wait (patience: look once) with no permit', HANDOFF_E_TIMEOUT, '')

        call b%init(1)
        call b%wait(leader, timeout=1d0)
        if (.not. leader) call bad('the only party of a barrier is not its leader')
        call b%init(0, stat=stat, errmsg=msg)
        call expect('barrier of 0 parties', HANDOFF_E_INVALID_ARGUMENT, '')

        call f%free()
        fv = f%load(stat=stat, errmsg=msg)
        call expect('flag used after free', HANDOFF_E_BAD_HANDLE, '')
        call s%free()
        call sem%free()
        call b%free()
        call seg%free()
    end subroutine
end program
