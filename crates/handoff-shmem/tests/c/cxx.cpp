// The generic names in C++ (overloads over the distinct C types), with and without a
// context: put/get/p/g, AMOs, waits, a team reduction; data checked on every PE.
#include <shmem.h>
#include <stdint.h>
#include "check.h"

int main() {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    long *l = static_cast<long *>(shmem_calloc(4, sizeof(long)));
    double *d = static_cast<double *>(shmem_calloc(4, sizeof(double)));
    unsigned *u = static_cast<unsigned *>(shmem_calloc(1, sizeof(unsigned)));
    int *flag = static_cast<int *>(shmem_calloc(1, sizeof(int)));
    shmem_ctx_t c;
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) == 0, "ctx");
    long src[2] = {10L * me, 10L * me + 1};
    shmem_put(l, src, 2, right);
    shmem_put(c, l + 2, src, 2, right);
    shmem_p(d, 0.5 + me, right);
    shmem_p(c, d + 1, 1.5 + me, right);
    shmem_atomic_add(u, 1u << me % 32, 0);
    shmem_atomic_fetch_inc(c, flag, right);
    shmem_ctx_quiet(c);
    shmem_barrier_all();
    shmem_wait_until(flag, SHMEM_CMP_EQ, 1);
    CHECK(l[0] == 10L * left && l[1] == 10L * left + 1, "put");
    CHECK(l[2] == 10L * left && l[3] == 10L * left + 1, "ctx put");
    CHECK(d[0] == 0.5 + left && d[1] == 1.5 + left, "p");
    CHECK(shmem_g(d, right) == 0.5 + me && shmem_g(c, d + 1, right) == 1.5 + me, "g");
    double got[2];
    shmem_get(c, got, d, 2, left);
    CHECK(got[0] == 0.5 + (left + n - 1) % n, "ctx get");
    if (me == 0) CHECK(*u == (n >= 32 ? ~0u : (1u << n) - 1), "atomic_add bits %x", *u);
    long *s = static_cast<long *>(shmem_malloc(sizeof(long)));
    *s = me + 1;
    shmem_barrier_all();
    shmem_sum_reduce(SHMEM_TEAM_WORLD, s, s, 1);
    CHECK(*s == (long)n * (n + 1) / 2, "sum_reduce %ld", *s);
    shmem_ctx_destroy(c);
    shmem_barrier_all();
    if (me == 0) printf("OK cxx %d PEs\n", n);
    shmem_finalize();
    return 0;
}
