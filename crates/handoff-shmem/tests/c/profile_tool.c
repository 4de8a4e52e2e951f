/* A profiling tool as a shared library loaded ahead of libhandoff_shmem.so (LD_PRELOAD), the
 * way tools wrap an unmodified program: shmem_putmem and shmem_barrier_all counted and
 * forwarded to their pshmem_ names, the counts reported when the program exits. */
#include <pshmem.h>
#include <stdio.h>

static long putmem_calls, barrier_calls;

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe) {
    putmem_calls++;
    pshmem_putmem(dest, source, nelems, pe);
}

void shmem_barrier_all(void) {
    barrier_calls++;
    pshmem_barrier_all();
}

__attribute__((destructor)) static void report(void) {
    fprintf(stderr, "tool: shmem_putmem %ld shmem_barrier_all %ld\n", putmem_calls,
            barrier_calls);
}
