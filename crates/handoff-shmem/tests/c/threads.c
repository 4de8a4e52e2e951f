/* SHMEM_THREAD_MULTIPLE: 4 threads per PE at once, each doing puts, gets, AMOs and
 * put-with-signal + waits against the neighbours' threads, some through their own private
 * context, for ROUNDS rounds; every byte and counter checked against a closed form. Also
 * allocations are not racing: only the main thread allocates (collective), as the spec asks. */
#include <shmem.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

#define T 4
#define ROUNDS 300
#define LEN 64

static long *data;      /* [T][LEN]: thread t of the left PE writes row t */
static uint64_t *sig;   /* [T]: rounds delivered to thread t */
static uint64_t *ack;   /* [T]: rounds consumed by thread t of the right PE */
static long *total;     /* on PE 0: every thread of every PE adds 1 per round */
static long *mine;      /* [T] on every PE: fetch-incremented by thread t of every PE */
static int me, n, right, left;

static void *worker(void *arg) {
    int t = (int)(intptr_t)arg;
    shmem_ctx_t c = SHMEM_CTX_DEFAULT;
    if (t % 2 == 1) CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) == 0, "ctx");
    long row[LEN], got[LEN];
    for (int r = 1; r <= ROUNDS; r++) {
        /* wait until the right PE's thread t has consumed the previous round */
        shmem_uint64_wait_until(&ack[t], SHMEM_CMP_GE, (uint64_t)(r - 1));
        for (int i = 0; i < LEN; i++) row[i] = (long)me * 1000000 + t * 10000 + r * 10 + i % 10;
        shmem_ctx_long_put_signal(c, &data[t * LEN], row, LEN, &sig[t], 1, SHMEM_SIGNAL_ADD,
                                  right);
        shmem_ctx_long_atomic_add(c, total, 1, 0);
        shmem_ctx_long_atomic_fetch_inc(c, &mine[t], right);
        /* receive round r from the left PE's thread t, check it, acknowledge */
        shmem_uint64_wait_until(&sig[t], SHMEM_CMP_GE, (uint64_t)r);
        for (int i = 0; i < LEN; i++)
            CHECK(data[t * LEN + i] == (long)left * 1000000 + t * 10000 + r * 10 + i % 10,
                  "thread %d round %d [%d] = %ld", t, r, i, data[t * LEN + i]);
        shmem_ctx_uint64_atomic_set(c, &ack[t], (uint64_t)r, left);
        /* a get of the right PE's row t: round r or r + 1 there, never torn below r */
        shmem_ctx_long_get(c, got, &data[t * LEN], LEN, right);
        CHECK(got[0] / 1000000 == me && (got[0] / 10) % 1000 >= r - 1, "get t%d r%d: %ld", t, r,
              got[0]);
        shmem_ctx_quiet(c);
    }
    if (c != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(c);
    return NULL;
}

int main(void) {
    int provided = -1;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "init_thread");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    int q = -1;
    shmem_query_thread(&q);
    CHECK(q == SHMEM_THREAD_MULTIPLE, "query %d", q);
    me = shmem_my_pe();
    n = shmem_n_pes();
    right = (me + 1) % n;
    left = (me + n - 1) % n;
    data = shmem_calloc(T * LEN, sizeof(long));
    sig = shmem_calloc(T, sizeof(uint64_t));
    ack = shmem_calloc(T, sizeof(uint64_t));
    total = shmem_calloc(1, sizeof(long));
    mine = shmem_calloc(T, sizeof(long));
    shmem_barrier_all();
    pthread_t th[T];
    for (int t = 0; t < T; t++) pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
    for (int t = 0; t < T; t++) pthread_join(th[t], NULL);
    shmem_barrier_all();
    if (me == 0) CHECK(*total == (long)n * T * ROUNDS, "total %ld", *total);
    for (int t = 0; t < T; t++) CHECK(mine[t] == ROUNDS, "mine[%d] = %ld", t, mine[t]);
    if (me == 0) printf("OK threads %d PEs\n", n);
    shmem_finalize();
    return 0;
}
