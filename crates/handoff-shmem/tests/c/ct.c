/* shmemx counting puts (the seed's interface): all-to-all rounds where every PE puts a block
 * to every other with shmemx_putmem_ct and waits for n - 1 arrivals; create/free/reuse. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include "check.h"

#define W 256
#define ROUNDS 200

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *in = shmem_calloc((size_t)n * W, sizeof(long));
    long out[W];
    shmemx_ct_t ct;
    shmemx_ct_create(&ct);
    CHECK(shmemx_ct_get(ct) == 0, "new counter is 0");
    shmem_barrier_all(); /* every PE checked before the first put */
    for (long r = 1; r <= ROUNDS; r++) {
        for (int p = 0; p < n; p++) {
            if (p == me) continue;
            for (int i = 0; i < W; i++) out[i] = r * 1000000 + me * 1000 + i;
            shmemx_putmem_ct(ct, &in[me * W], out, sizeof out, p);
        }
        shmemx_ct_wait(ct, n - 1);
        CHECK(shmemx_ct_get(ct) == n - 1, "counter %ld", shmemx_ct_get(ct));
        for (int p = 0; p < n; p++) {
            if (p == me) continue;
            for (int i = 0; i < W; i++)
                CHECK(in[p * W + i] == r * 1000000 + p * 1000 + i, "round %ld from %d word %d", r, p, i);
        }
        shmemx_ct_set(ct, 0);
        /* everyone has read this round before anyone writes the next */
        shmem_barrier_all();
    }
    shmemx_ct_t ct2, ct3;
    shmemx_ct_create(&ct2);
    CHECK(ct2 != ct, "a second counter");
    shmemx_putmem_ct(ct, &in[me * W], out, 8, me); /* bump it, so reuse must reset it */
    shmemx_ct_wait(ct, 1);
    shmemx_ct_free(&ct);
    CHECK(ct == -1, "freed handle invalidated");
    shmemx_ct_create(&ct3);
    CHECK(ct3 == 0 && shmemx_ct_get(ct3) == 0, "freed counter reused at 0");
    if (me == 0) printf("OK ct %d PEs\n", n);
    shmem_finalize();
    return 0;
}
