/* Misuse, one per argv[1]: each must end the program with one line
 * naming the call (checked by tests/shmem.rs), never run on silently. PE 0 misbehaves unless
 * the case says otherwise; the other PEs wait in a barrier (which then fails). */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <dlfcn.h>
#include <string.h>
#include <stdio.h>

static long global_var;

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "noinit")) {
        shmem_my_pe();
        return 0;
    }
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *sym = shmem_calloc(4, sizeof(long));
    char *bytes = shmem_malloc(64);
    shmem_team_t alone = SHMEM_TEAM_INVALID;
    if (!strcmp(c, "ctxpe")) shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &alone);
    if (me == 0) {
        long v = 1;
        if (!strcmp(c, "local")) shmem_long_put(&v, &v, 1, n - 1); /* a stack variable */
        else if (!strcmp(c, "shlib")) {
            /* a variable of a shared library (libc's optopt, not copied into the program) */
            long *theirs = dlsym(RTLD_DEFAULT, "optopt");
            shmem_long_put(theirs, &v, 1, n - 1);
        }
        else if (!strcmp(c, "pe")) shmem_long_put(sym, &v, 1, n);
        else if (!strcmp(c, "cmp")) shmem_long_wait_until(sym, 99, 0);
        else if (!strcmp(c, "sigop")) shmem_putmem_signal(sym, &v, 8, (uint64_t *)sym, 1, 7, 0);
        else if (!strcmp(c, "misaligned")) shmem_long_atomic_add((long *)(bytes + 1), 1, 0);
        else if (!strcmp(c, "bounds")) shmem_putmem(bytes, &v, (size_t)1 << 40, 0);
        else if (!strcmp(c, "free")) shmem_free(&global_var); /* symmetric, not allocated */
        else if (!strcmp(c, "team")) shmem_team_sync(SHMEM_TEAM_INVALID);
        else if (!strcmp(c, "ctx")) shmem_ctx_long_p(SHMEM_CTX_INVALID, sym, 1, 0);
        else if (!strcmp(c, "ctxpe")) {
            shmem_ctx_t x;
            shmem_team_create_ctx(alone, 0, &x);
            shmem_ctx_long_p(x, sym, 1, 1); /* the team of PE 0 alone has no PE 1 */
        } else if (!strcmp(c, "lock")) {
            shmem_set_lock(sym);
            shmem_set_lock(sym);
        } else if (!strcmp(c, "unlock")) shmem_clear_lock(sym);
        else if (!strcmp(c, "activeset")) shmem_barrier(1, 0, n - 1, NULL);
        else if (!strcmp(c, "exit")) shmem_global_exit(7);
        else if (!strcmp(c, "counter")) shmemx_ct_wait(5, 1);
    }
    if (!strcmp(c, "mismatch")) shmem_malloc(me == 0 ? 128 : 256);
    if (!strcmp(c, "after")) {
        shmem_finalize();
        shmem_barrier_all();
        return 0;
    }
    shmem_barrier_all();
    printf("not reached: case %s ran on\n", c);
    shmem_finalize();
    return 0;
}
