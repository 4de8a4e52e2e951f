// The C++ side: the overloaded generic names, through oshc++.
#include <shmem.h>
#include <cstdio>

int main() {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *got = static_cast<long *>(shmem_malloc(sizeof(long)));
    *got = -1;
    shmem_barrier_all();
    shmem_p(got, static_cast<long>(me), (me + 1) % n);
    shmem_barrier_all();
    long want = (me + n - 1) % n;
    if (*got != want) {
        std::printf("ring_cxx: PE %d of %d: CHECK FAILED: got %ld, want %ld\n", me, n, *got, want);
        return 1;
    }
    std::printf("ring_cxx: PE %d of %d: ok\n", me, n);
    shmem_free(got);
    shmem_finalize();
    return 0;
}
