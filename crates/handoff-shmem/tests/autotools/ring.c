/* Each PE puts its number to the next PE, which checks it came from the previous one. */
#include <shmem.h>
#include <stdio.h>

static long got = -1;

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_long_p(&got, (long)me, (me + 1) % n);
    shmem_barrier_all();
    long want = (me + n - 1) % n;
    if (got != want) {
        printf("ring: PE %d of %d: CHECK FAILED: got %ld, want %ld\n", me, n, got, want);
        return 1;
    }
    printf("ring: PE %d of %d: ok\n", me, n);
    shmem_finalize();
    return 0;
}
