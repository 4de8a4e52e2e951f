// Symmetric static data in C++: a global object built by its constructor before main, a
// static data member, a function-local static and a namespace-scope array, used as
// symmetric objects (put, get, AMO, reduction, shmem_ptr) on every PE.
#include <shmem.h>
#include <cstdint>
#include <cstdio>
#include "check.h"

struct Tally {
    long hits;
    long slots[64];
    Tally() : hits(99) {
        for (int i = 0; i < 64; i++) slots[i] = 1000 + i;
    }
};

Tally tally; // constructed before main: its values must survive shmem_init

struct Table {
    static long cells[256];
    static long total;
};
long Table::cells[256];
long Table::total = 7;

namespace {
long pSync[SHMEM_REDUCE_SYNC_SIZE];
long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
long mine, sum;
} // namespace

static long *local_static() {
    static long box[8];
    return box;
}

int main() {
    for (long &v : pSync) v = SHMEM_SYNC_VALUE;
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    CHECK(tally.hits == 99 && tally.slots[63] == 1063, "constructed values lost: %ld %ld",
          tally.hits, tally.slots[63]);
    CHECK(Table::total == 7, "static member initializer lost: %ld", Table::total);

    // put into the neighbour's static member array
    long row[256];
    for (int i = 0; i < 256; i++) row[i] = me * 1000 + i;
    shmem_long_put(Table::cells, row, 256, right);
    shmem_barrier_all();
    for (int i = 0; i < 256; i++)
        CHECK(Table::cells[i] == left * 1000 + i, "cells[%d] = %ld", i, Table::cells[i]);

    // get the neighbour's constructed object; AMO on PE 0's member
    long got[64];
    shmem_long_get(got, tally.slots, 64, right);
    for (int i = 0; i < 64; i++) CHECK(got[i] == 1000 + i, "slots[%d] = %ld", i, got[i]);
    shmem_long_atomic_add(&tally.hits, 1, 0);
    shmem_barrier_all();
    if (me == 0) CHECK(tally.hits == 99 + n, "hits = %ld", tally.hits);

    // a function-local static as a destination
    long v = 40 + me;
    shmem_long_put(&local_static()[3], &v, 1, right);
    shmem_barrier_all();
    CHECK(local_static()[3] == 40 + left, "box[3] = %ld", local_static()[3]);

    // a reduction over anonymous-namespace statics with static pSync/pWrk
    mine = me + 1;
    shmem_barrier_all();
    shmem_long_sum_to_all(&sum, &mine, 1, 0, 0, n, pWrk, pSync);
    CHECK(sum == (long)n * (n + 1) / 2, "sum = %ld", sum);

    // shmem_ptr to the neighbour's static member
    long *p = static_cast<long *>(shmem_ptr(&Table::total, right));
    CHECK(p != nullptr, "shmem_ptr of a static member returned NULL");
    shmem_barrier_all();
    __atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST);
    shmem_barrier_all();
    CHECK(Table::total == 8, "total = %ld", Table::total);

    shmem_barrier_all();
    if (me == 0) std::printf("OK symdata_cxx %d PEs\n", n);
    shmem_finalize();
    return 0;
}
