/* shmem_finalize at the edges (issue #40). A PE that finalizes while the others still need it
 * (they call one barrier more, or wait for its signal) must be named by them, never leave
 * them waiting forever; every PE finalizing together, and PEs computing alone after the
 * finalize of a PE that has exited, are fine; shmem_finalize before shmem_init is an error.
 *
 *   early   PE 0 finalizes while the others call one more shmem_barrier_all: PE 0's final
 *           barrier meets theirs, PE 0 exits 0, and their own finalize waits for it
 *   signal  PE 0 finalizes while the others, after one more barrier, wait for a signal
 *   leave   PE 0 returns from main without shmem_finalize (exit code 0) while the others wait
 *           in a barrier
 *   local   every PE finalizes; PE 0 exits at once, the others compute for a while after
 *   noinit  shmem_finalize before shmem_init
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <shmem.h>
#include <string.h>
#include <time.h>
#include "check.h"

static long flag;

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "noinit")) {
        shmem_finalize();
        printf("not reached: finalize before init returned\n");
        return 0;
    }
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_barrier_all();
    if (!strcmp(c, "early")) {
        if (me != 0) shmem_barrier_all();
        shmem_finalize();
        return 0;
    }
    if (!strcmp(c, "signal")) {
        if (me != 0) {
            shmem_barrier_all();
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        }
        shmem_finalize();
        return 0;
    }
    if (!strcmp(c, "leave")) {
        if (me == 0) return 0;
        shmem_barrier_all();
        shmem_finalize();
        return 0;
    }
    if (!strcmp(c, "local")) {
        shmem_finalize();
        if (me != 0) {
            /* Local work after the team is over: nothing may end it. */
            struct timespec t = {0, 300 * 1000 * 1000};
            nanosleep(&t, NULL);
            printf("OK finalize %d PEs\n", n);
        }
        return 0;
    }
    fprintf(stderr, "unknown case %s\n", c);
    return 2;
}
