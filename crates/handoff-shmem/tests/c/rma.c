/* Setup, query, symmetric heap, RMA (typed, sized, mem, nbi, strided, p/g), shmem_ptr,
 * fence/quiet, barriers: every value checked against a closed form of (PE, index). */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>
#include <stdint.h>
#include "check.h"

#define N 1000
static int global_var; /* symmetric (OpenSHMEM 1.5 §3): a static variable */

static long val(int pe, int i) { return 1000L * pe + i; }

int main(void) {
    shmem_init();
    shmem_init(); /* a second init has no effect */
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    CHECK(n == _num_pes() && me == _my_pe(), "deprecated queries");
    int major = 0, minor = 0;
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_version(&major, &minor);
    shmem_info_get_name(name);
    CHECK(major == 1 && minor == 5, "version %d.%d", major, minor);
    CHECK(strstr(name, "handoff") != NULL, "name %s", name);
    int provided = -1;
    shmem_query_thread(&provided);
    CHECK(provided == expect_thread_level(), "thread level %d", provided);

    /* typed put / get with the generic names */
    long *l = shmem_malloc(N * sizeof(long));
    CHECK(l != NULL && ((uintptr_t)l % 64) == 0, "malloc alignment");
    long src[N], back[N];
    for (int i = 0; i < N; i++) src[i] = val(me, i);
    shmem_put(l, src, N, right);
    shmem_barrier_all();
    for (int i = 0; i < N; i++) CHECK(l[i] == val(left, i), "long put [%d] = %ld", i, l[i]);
    shmem_get(back, l, N, right); /* right holds my data */
    for (int i = 0; i < N; i++) CHECK(back[i] == val(me, i), "long get [%d]", i);
    shmem_barrier_all();

    /* every RMA type through its own name: double, float, short, char, long long, long double */
    double *d = shmem_calloc(N, sizeof(double));
    for (int i = 0; i < N; i++) CHECK(d[i] == 0.0, "calloc zero");
    shmem_barrier_all();
    for (int i = 0; i < N; i++) shmem_double_p(&d[i], 0.5 * val(me, i), right);
    short *s = shmem_malloc(N * sizeof(short));
    short ssrc[N];
    for (int i = 0; i < N; i++) ssrc[i] = (short)(me * 7 + i);
    shmem_short_put_nbi(s, ssrc, N, right);
    char *c = shmem_malloc(N);
    shmem_putmem(c, "handoff", 8, right);
    long long *ll = shmem_malloc(4 * sizeof(long long));
    long long llv[4] = {me, -me, (long long)me << 40, 42};
    shmem_longlong_put(ll, llv, 4, right);
    long double *ld = shmem_malloc(2 * sizeof(long double));
    long double ldv[2] = {1.25L * me, -3.5L};
    shmem_longdouble_put(ld, ldv, 2, right);
    float *f = shmem_malloc(sizeof(float));
    shmem_p(f, (float)me + 0.25f, right);
    shmem_quiet();
    shmem_barrier_all();
    for (int i = 0; i < N; i++) CHECK(d[i] == 0.5 * val(left, i), "double p [%d]", i);
    for (int i = 0; i < N; i++) CHECK(s[i] == (short)(left * 7 + i), "short put_nbi [%d]", i);
    CHECK(strcmp(c, "handoff") == 0, "putmem %s", c);
    CHECK(ll[0] == left && ll[1] == -left && ll[2] == (long long)left << 40 && ll[3] == 42, "longlong");
    CHECK(ld[0] == 1.25L * left && ld[1] == -3.5L, "long double");
    CHECK(*f == (float)left + 0.25f, "float p");
    CHECK(shmem_g(f, right) == (float)me + 0.25f, "float g");
    CHECK(shmem_double_g(&d[3], left) == 0.5 * val((left + n - 1) % n, 3), "double g");
    CHECK(shmem_short_g(&s[5], right) == (short)(me * 7 + 5), "short g");
    CHECK(shmem_char_g(&c[1], right) == 'a', "char g");
    short sget[N];
    shmem_short_get_nbi(sget, s, N, right);
    shmem_quiet();
    for (int i = 0; i < N; i++) CHECK(sget[i] == (short)(me * 7 + i), "short get_nbi [%d]", i);
    char cbuf[8];
    shmem_getmem(cbuf, c, 8, left);
    CHECK(strcmp(cbuf, "handoff") == 0, "getmem");
    shmem_barrier_all();

    /* sized: put32 / get64 / put128 / iput / iget */
    uint32_t *w32 = shmem_malloc(16 * sizeof(uint32_t));
    uint64_t *w64 = shmem_malloc(16 * sizeof(uint64_t));
    uint32_t a32[16];
    uint64_t a64[16];
    for (int i = 0; i < 16; i++) { a32[i] = 0xA0000000u + me * 16 + i; a64[i] = ((uint64_t)me << 32) | i; }
    shmem_put32(w32, a32, 16, right);
    shmem_put128(w64, a64, 8, right); /* 8 x 16 bytes = all 16 words */
    shmem_barrier_all();
    for (int i = 0; i < 16; i++) CHECK(w32[i] == 0xA0000000u + left * 16 + i, "put32 [%d]", i);
    for (int i = 0; i < 16; i++) CHECK(w64[i] == (((uint64_t)left << 32) | i), "put128 [%d]", i);
    uint64_t g64[16];
    shmem_get64(g64, w64, 16, left);
    int ll2 = (left + n - 1) % n;
    for (int i = 0; i < 16; i++) CHECK(g64[i] == (((uint64_t)ll2 << 32) | i), "get64 [%d]", i);
    shmem_barrier_all();
    /* iput: every 2nd source element to every 3rd target element; iget back with strides */
    int *iv = shmem_calloc(64, sizeof(int));
    int isrc[32];
    for (int i = 0; i < 32; i++) isrc[i] = me * 100 + i;
    shmem_barrier_all();
    shmem_iput(iv, isrc, 3, 2, 10, right);
    shmem_barrier_all();
    for (int k = 0; k < 64; k++) {
        int want = (k % 3 == 0 && k / 3 < 10) ? left * 100 + 2 * (k / 3) : 0;
        CHECK(iv[k] == want, "iput [%d] = %d, want %d", k, iv[k], want);
    }
    int iget_dst[20] = {0};
    shmem_int_iget(iget_dst, iv, 2, 3, 10, right); /* right's iv holds my isrc */
    for (int k = 0; k < 20; k++) {
        int want = (k % 2 == 0) ? me * 100 + 2 * (k / 2) : 0;
        CHECK(iget_dst[k] == want, "iget [%d]", k);
    }
    shmem_barrier_all();

    /* shmem_ptr: direct loads of the neighbour's object */
    long *rp = shmem_ptr(l, right);
    CHECK((rp != NULL) == expect_ptr(right), "shmem_ptr %p", (void *)rp);
    CHECK(rp == NULL || rp[7] == val(me, 7), "shmem_ptr load %ld", rp[7]);
    CHECK(shmem_ptr(l, me) == l, "shmem_ptr self");
    int on_stack = 0;
    CHECK(shmem_ptr(&on_stack, right) == NULL, "shmem_ptr of a non-symmetric object");
    CHECK((shmem_ptr(&global_var, right) != NULL) == expect_ptr(right),
          "shmem_ptr of a static variable");
    CHECK(shmem_addr_accessible(l, right) == 1, "addr_accessible");
    CHECK(shmem_addr_accessible(&on_stack, right) == 0, "a local is not accessible");
    CHECK(shmem_addr_accessible(&global_var, right) == 1, "a static is accessible");
    CHECK(shmem_pe_accessible(n - 1) == 1 && shmem_pe_accessible(n) == 0, "pe_accessible");

    /* fence orders a put before the flag; the flag wakes the waiter (shmem_p rings) */
    int *flag = shmem_calloc(1, sizeof(int));
    long *box = shmem_calloc(N, sizeof(long));
    shmem_barrier_all();
    for (int round = 1; round <= 50; round++) {
        for (int i = 0; i < N; i++) src[i] = val(me, i) * round;
        shmem_long_put(box, src, N, right);
        shmem_fence();
        shmem_int_p(flag, round, right);
        shmem_int_wait_until(flag, SHMEM_CMP_GE, round);
        for (int i = 0; i < N; i += 97) CHECK(box[i] == val(left, i) * round, "fence round %d", round);
        shmem_barrier_all(); /* box is reused next round */
    }

    /* free and reuse: the allocator hands the same offsets out again on every PE */
    long used = shmemx_heap_used();
    void *a = shmem_malloc(1 << 20);
    shmem_free(a);
    void *b = shmem_malloc(1 << 20);
    CHECK(a == b, "freed block reused");
    shmem_free(b);
    CHECK(shmemx_heap_used() == used, "heap used back to %ld", used);
    char *al = shmem_align(4096, 100);
    CHECK(((uintptr_t)al % 4096) == 0, "shmem_align");
    al[0] = (char)me;
    al = shmem_realloc(al, 10000);
    CHECK(al[0] == (char)me, "realloc keeps data");
    shmem_sync_all();
    CHECK(shmem_char_g(al, right) == (char)right, "realloc'd block is symmetric");
    shmem_barrier_all();
    shmem_free(al);
    CHECK(shmem_malloc(0) == NULL, "malloc(0)");
    shmem_free(NULL);
    if (me == 0) printf("OK rma %d PEs\n", n);
    shmem_finalize();
    shmem_finalize(); /* a second finalize has no effect */
    return 0;
}
