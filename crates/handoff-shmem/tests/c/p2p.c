/* A program in the style of the Parallel Research Kernels' SHMEM synch_p2p: a pipelined
 * wavefront A(i,j) = A(i-1,j) + A(i,j-1) - A(i-1,j-1) over an M x N grid whose columns are
 * split across PEs; each PE sends the last value of each row to its right neighbour with
 * put + fence + flag (shmem_double_put, shmem_fence, shmem_int_p; shmem_int_wait_until on
 * the receiver), the corner is checked against PRK's closed form, and the iterations are
 * timed with shmem_double_max_to_all. With A(i,0) = i and A(0,j) = j, A(i,j) = i + j. */
#include <shmem.h>
#include <stdlib.h>
#include "check.h"

#define M 200
#define N 400
#define ITERS 5

static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static double pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) pSync[i] = SHMEM_SYNC_VALUE;
    int start = (int)((long)N * me / n), end = (int)((long)N * (me + 1) / n);
    int w = end - start + 1; /* column 0 of the local block is the ghost column */
    double *a = malloc(sizeof(double) * M * w);
    double *ghost = shmem_calloc(M, sizeof(double));
    int *flag = shmem_calloc(M, sizeof(int));
    double *t = shmem_malloc(sizeof(double)), *tmax = shmem_malloc(sizeof(double));
#define A(i, j) a[(i) * w + (j) - start + 1]
    for (int iter = 1; iter <= ITERS; iter++) {
        for (int j = start; j < end; j++) A(0, j) = j;
        for (int i = 0; i < M; i++) A(i, start - 1 + (me == 0)) = me == 0 ? i : 0;
        if (me == 0)
            for (int i = 0; i < M; i++) A(i, 0) = i;
        shmem_barrier_all();
        for (int i = 1; i < M; i++) {
            if (me > 0) {
                shmem_int_wait_until(&flag[i], SHMEM_CMP_EQ, iter);
                A(i, start - 1) = ghost[i];
                if (i == 1) A(0, start - 1) = start - 1;
            }
            for (int j = (me == 0 ? 1 : start); j < end; j++)
                A(i, j) = A(i - 1, j) + A(i, j - 1) - A(i - 1, j - 1);
            if (me < n - 1) {
                shmem_double_put(&ghost[i], &A(i, end - 1), 1, me + 1);
                shmem_fence();
                shmem_int_p(&flag[i], iter, me + 1);
            }
        }
        if (me == n - 1) CHECK(A(M - 1, N - 1) == (double)(M - 1 + N - 1), "corner %f", A(M - 1, N - 1));
        shmem_barrier_all();
    }
    *t = 1.0 * me;
    shmem_double_max_to_all(tmax, t, 1, 0, 0, n, pWrk, pSync);
    CHECK(*tmax == n - 1, "max_to_all");
    free(a);
    if (me == 0) printf("OK p2p %d PEs\n", n);
    shmem_finalize();
    return 0;
}
