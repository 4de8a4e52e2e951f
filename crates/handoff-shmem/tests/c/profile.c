/* A profiling tool inside the program (OpenSHMEM 1.5 profiling interface): it defines
 * shmem_putmem, shmem_int_put, shmem_long_atomic_fetch_add, shmem_align, shmem_barrier_all
 * and shmem_pcontrol, counts the calls and forwards each to its pshmem_ name. The program's
 * calls reach it directly, through the C11 generic names and through shmem.h's inline
 * context forms; the library's own calls between routines (shmemalign -> shmem_align) do
 * not; the data arrives as without the tool. */
#include <pshmem.h>
#include <stdint.h>
#include "check.h"

static int n_putmem, n_int_put, n_fadd, n_align, n_barrier, level = -1;

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe) {
    n_putmem++;
    pshmem_putmem(dest, source, nelems, pe);
}
void shmem_int_put(int *dest, const int *source, size_t nelems, int pe) {
    n_int_put++;
    pshmem_int_put(dest, source, nelems, pe);
}
long shmem_long_atomic_fetch_add(long *dest, long value, int pe) {
    n_fadd++;
    return pshmem_long_atomic_fetch_add(dest, value, pe);
}
void *shmem_align(size_t alignment, size_t size) {
    n_align++;
    return pshmem_align(alignment, size);
}
void shmem_barrier_all(void) {
    n_barrier++;
    pshmem_barrier_all();
}
void shmem_pcontrol(const int lvl, ...) {
    level = lvl;
    pshmem_pcontrol(lvl);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int *a = (int *)shmem_calloc(8, sizeof(int));
    long *c = (long *)shmem_calloc(1, sizeof(long));
    char *m = (char *)shmem_calloc(4, 1);
    CHECK(n_barrier == 0, "the library's own barriers are not the tool's: %d", n_barrier);
    int src[4] = {me, me + 1, me + 2, me + 3};
    shmem_barrier_all();
    shmem_int_put(a, src, 2, right);
    shmem_put(a + 2, src + 2, 2, right);
    shmem_ctx_int_put(SHMEM_CTX_DEFAULT, a + 4, src, 4, right);
    shmem_putmem(m, "abc", 4, right);
    long before = shmem_atomic_fetch_add(c, 1L, 0);
    CHECK(before >= 0 && before < n, "fetch_add returned %ld", before);
    shmem_barrier_all();
    for (int i = 0; i < 4; i++) CHECK(a[i] == left + i && a[4 + i] == left + i, "data %d", i);
    CHECK(m[0] == 'a' && m[3] == 0, "putmem data");
    if (me == 0) CHECK(*c == n, "fetch_add total %ld", *c);
    CHECK(n_int_put == 3 && n_putmem == 1 && n_fadd == 1 && n_barrier == 2,
          "the tool saw int_put %d, putmem %d, fetch_add %d, barrier_all %d", n_int_put,
          n_putmem, n_fadd, n_barrier);
    void *x = shmemalign(256, 64);
    CHECK(x != NULL && n_align == 0, "shmemalign reached the tool's shmem_align");
    void *y = shmem_align(256, 64);
    CHECK(y != NULL && n_align == 1, "shmem_align did not reach the tool");
    shmem_pcontrol(2, "a tool's argument");
    CHECK(level == 2, "pcontrol level %d", level);
    shmem_free(y);
    shmem_free(x);
    shmem_free(m);
    shmem_free(c);
    shmem_free(a);
    shmem_barrier_all();
    if (me == 0) printf("OK profile %d PEs\n", n);
    shmem_finalize();
    return 0;
}
