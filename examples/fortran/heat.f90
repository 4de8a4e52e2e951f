! A heat-equation simulation coupled to its in-situ analysis through a handoff channel: every
! time step it computes the 2-D temperature field straight into a block loaned from the channel
! (a real(c_double) array of shape [NX, NY], no copy) and publishes it. The analysis process
! (examples/c/heat_analysis.c) reads the same memory and checks that the total heat stays
! constant: the edges are insulated (no flux through them), so the explicit scheme below
! conserves the sum up to round-off.
!
!   heat [STEPS=200] [NX=128] [NY=96] [NAME=heat] [TIMEOUT_S=30]
!
! Block t is step t's field, column-major: NY columns of NX doubles, i.e. NY rows of NX in C.
! Exit status: 0 done, 2 bad arguments, 3 the analysis went away or never read the field.
program heat
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: output_unit, error_unit
    use handoff
    implicit none
    integer :: steps, nx, ny, t, stat
    real(c_double) :: timeout
    character(len=256) :: name, arg
    character(len=512) :: msg
    real(c_double), allocatable :: u(:, :)
    real(c_double), pointer :: field(:, :)
    type(handoff_channel) :: ch
    type(handoff_producer) :: tx

    steps = int_arg(1, 200)
    nx = int_arg(2, 128)
    ny = int_arg(3, 96)
    name = 'heat'
    if (command_argument_count() >= 4) call get_command_argument(4, name)
    timeout = real(int_arg(5, 30), c_double)
    if (steps < 1 .or. nx < 3 .or. ny < 3) then
        write (error_unit, '(a)') 'usage: heat [STEPS>=1] [NX>=3] [NY>=3] [NAME] [TIMEOUT_S]'
        stop 2
    end if

    ! A hot square (at most 16 x 16 cells at 100) in the middle of a cold plate.
    allocate (u(nx, ny))
    u = 0
    u(max(1, nx/2 - 7):min(nx, nx/2 + 8), max(1, ny/2 - 7):min(ny, ny/2 + 8)) = 100

    call ch%create(trim(name), int(nx, c_size_t)*int(ny, c_size_t)*c_sizeof(u(1, 1)), 4)
    write (output_unit, '(4a,i0,a,i0,a,i0,a,f0.2)') 'heat: channel ', ch%name(), ', ', &
        'steps ', steps, ' of a ', nx, 'x', ny, ' field, insulated edges, total heat ', sum(u)
    flush (output_unit)
    call ch%producer(tx)

    do t = 0, steps - 1
        ! Waits while the analysis holds every block: at most TIMEOUT_S seconds.
        call tx%loan(field, shape=[nx, ny], timeout=timeout, stat=stat, errmsg=msg)
        if (stat /= HANDOFF_OK) call gone(t, stat, msg)
        call diffuse(u, field) ! written in place, into the shared block
        u = field              ! the simulation's own state for the next step
        call tx%publish(field, stat=stat, errmsg=msg)
        if (stat /= HANDOFF_OK) call gone(t, stat, msg)
    end do
    ! Closing the producer tells the analysis no more steps come (once it read them all).
    call tx%free()
    call ch%free()
    write (output_unit, '(a,i0,a,f0.2)') 'heat: done, ', steps, ' steps, total heat ', sum(u)

contains

    !> One explicit step of du/dt = 0.2 * laplacian(u) with zero flux through the edges: each
    !> pair of neighbours exchanges the same heat in both directions, so the sum is kept.
    subroutine diffuse(u, next)
        real(c_double), intent(in) :: u(:, :)
        real(c_double), intent(out) :: next(:, :)
        integer :: i, j
        real(c_double) :: flux
        do j = 1, size(u, 2)
            do i = 1, size(u, 1)
                flux = 0
                if (i > 1) flux = flux + (u(i - 1, j) - u(i, j))
                if (i < size(u, 1)) flux = flux + (u(i + 1, j) - u(i, j))
                if (j > 1) flux = flux + (u(i, j - 1) - u(i, j))
                if (j < size(u, 2)) flux = flux + (u(i, j + 1) - u(i, j))
                next(i, j) = u(i, j) + 0.2d0*flux
            end do
        end do
    end subroutine

    !> Reports why the analysis stopped taking steps, and stops.
    subroutine gone(t, stat, msg)
        integer, intent(in) :: t, stat
        character(*), intent(in) :: msg
        select case (stat)
        case (HANDOFF_E_TIMEOUT)
            write (error_unit, '(a,i0,a,f0.0,a,i0,a,i0,a)') 'heat: step ', t, ': the analysis took no step for ', &
                timeout, ' s: is it running, and did it open the channel with the same field (', nx, ' x ', ny, &
                ' doubles)?'
        case (HANDOFF_E_CLOSED)
            write (error_unit, '(a,i0,a)') 'heat: step ', t, ': the analysis closed the channel (it stopped or died)'
        case (HANDOFF_E_PEER_GONE)
            write (error_unit, '(a,i0,a)') 'heat: step ', t, ': the analysis process ended: it died, or it stopped on an '// &
                'error (e.g. a field of another shape: see its message)'
        end select
        write (error_unit, '(a)') trim(msg)
        stop 3
    end subroutine

    integer function int_arg(i, default)
        integer, intent(in) :: i, default
        character(len=64) :: a
        integer :: ios
        int_arg = default
        if (command_argument_count() < i) return
        call get_command_argument(i, a)
        read (a, *, iostat=ios) int_arg
        if (ios /= 0) then
            write (error_unit, '(3a)') 'heat: argument "', trim(a), '" is not an integer'
            stop 2
        end if
    end function
end program
