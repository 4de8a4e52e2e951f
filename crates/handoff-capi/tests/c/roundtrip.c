/* A C producer and a C consumer in two processes (crates/handoff-capi/tests/c_api.rs runs them).
 *
 *   roundtrip produce SHORTNAME BLOCKS BLOCK_BYTES   creates the channel, prints "name=<full>",
 *                                                    publishes BLOCKS blocks, prints "sum=<S>"
 *   roundtrip consume NAME BLOCKS BLOCK_BYTES        opens it, receives BLOCKS blocks, checks each
 *                                                    block's sequence number and contents,
 *                                                    prints "sum=<S>" then "closed" at the end
 *   roundtrip hang SHORTNAME                         creates a channel, prints "name=<full>" and
 *                                                    sleeps (to be killed: the dead-peer test)
 *   roundtrip wait NAME                              opens it, waits for a block, prints
 *                                                    "code=<HANDOFF_E_...>"
 *   roundtrip misopen NAME                           opens it with another block size, prints
 *                                                    "code=<HANDOFF_E_...>" and "message=<...>"
 *
 * Block i holds the uint32 words i*1000003 + j (j = 0, 1, ...); S is the uint64 sum of every
 * word of every block (the test compares it with the closed form). */
#include <handoff.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        if (rc_ != HANDOFF_OK) {                                                            \
            fprintf(stderr, "%s failed: %s: %s\n", #call, handoff_error_name(rc_),          \
                    handoff_last_error_message());                                          \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

static const handoff_wait WAIT = {HANDOFF_WAIT_ADAPTIVE, 0};
static const int64_t TEN_S = 10000000000LL;

static int produce(const char *name, uint64_t blocks, size_t bytes) {
    handoff_channel *ch;
    handoff_producer *tx;
    const char *full;
    CHECK(handoff_channel_create(name, bytes, 2, &ch));
    CHECK(handoff_channel_name(ch, &full));
    printf("name=%s\n", full);
    fflush(stdout);
    CHECK(handoff_producer_new(ch, &tx));
    uint64_t sum = 0;
    size_t words = bytes / 4;
    for (uint64_t i = 0; i < blocks; i++) {
        void *p;
        CHECK(handoff_producer_loan_timeout(tx, TEN_S, &p));
        uint32_t *w = p;
        for (size_t j = 0; j < words; j++) {
            w[j] = (uint32_t)(i * 1000003u + j);
            sum += w[j];
        }
        CHECK(handoff_producer_publish(tx));
    }
    printf("sum=%" PRIu64 "\n", sum);
    fflush(stdout);
    /* Closing: the consumer drains what was published, then sees HANDOFF_E_CLOSED (it has
     * the channel mapped already: it released blocks for us to get this far). */
    CHECK(handoff_producer_free(tx));
    CHECK(handoff_channel_free(ch));
    return 0;
}

static int consume(const char *name, uint64_t blocks, size_t bytes) {
    handoff_channel *ch;
    handoff_consumer *rx;
    CHECK(handoff_channel_open(name, bytes, 2, TEN_S, &ch));
    CHECK(handoff_consumer_new(ch, &rx));
    CHECK(handoff_consumer_set_patience(rx, WAIT, TEN_S));
    uint64_t sum = 0;
    size_t words = bytes / 4;
    for (uint64_t i = 0; i < blocks; i++) {
        const void *p;
        uint64_t seq;
        CHECK(handoff_consumer_recv(rx, &p, &seq));
        if (seq != i) {
            fprintf(stderr, "block %" PRIu64 " arrived with sequence number %" PRIu64 "\n", i, seq);
            return 1;
        }
        const uint32_t *w = p;
        for (size_t j = 0; j < words; j++) {
            if (w[j] != (uint32_t)(i * 1000003u + j)) {
                fprintf(stderr, "block %" PRIu64 " word %zu is %" PRIu32 "\n", i, j, w[j]);
                return 1;
            }
            sum += w[j];
        }
        CHECK(handoff_consumer_release(rx));
    }
    printf("sum=%" PRIu64 "\n", sum);
    const void *p;
    int rc = handoff_consumer_recv(rx, &p, NULL);
    printf("%s\n", rc == HANDOFF_E_CLOSED ? "closed" : handoff_error_name(rc));
    fflush(stdout);
    CHECK(handoff_consumer_free(rx));
    CHECK(handoff_channel_free(ch));
    return 0;
}

static int hang(const char *name) {
    handoff_channel *ch;
    handoff_producer *tx;
    const char *full;
    CHECK(handoff_channel_create(name, 4096, 2, &ch));
    CHECK(handoff_producer_new(ch, &tx));
    CHECK(handoff_channel_name(ch, &full));
    printf("name=%s\n", full);
    fflush(stdout);
    for (;;) pause();
}

static int wait_one(const char *name) {
    handoff_channel *ch;
    handoff_consumer *rx;
    CHECK(handoff_channel_open(name, 4096, 2, TEN_S, &ch));
    CHECK(handoff_consumer_new(ch, &rx));
    printf("waiting\n");
    fflush(stdout);
    const void *p;
    int rc = handoff_consumer_recv_timeout(rx, 3 * TEN_S, &p, NULL);
    printf("code=%s\n", handoff_error_name(rc));
    printf("message=%s\n", handoff_last_error_message());
    fflush(stdout);
    return 0;
}

static int misopen(const char *name) {
    handoff_channel *ch;
    int rc = handoff_channel_open(name, 1024, 2, TEN_S, &ch);
    printf("code=%s\n", handoff_error_name(rc));
    printf("message=%s\n", handoff_last_error_message());
    fflush(stdout);
    return rc == HANDOFF_OK;
}

int main(int argc, char **argv) {
    if (argc == 5 && !strcmp(argv[1], "produce"))
        return produce(argv[2], strtoull(argv[3], 0, 10), strtoull(argv[4], 0, 10));
    if (argc == 5 && !strcmp(argv[1], "consume"))
        return consume(argv[2], strtoull(argv[3], 0, 10), strtoull(argv[4], 0, 10));
    if (argc == 3 && !strcmp(argv[1], "hang")) return hang(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "wait")) return wait_one(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "misopen")) return misopen(argv[2]);
    fprintf(stderr, "usage: see the comment at the top of roundtrip.c\n");
    return 2;
}
