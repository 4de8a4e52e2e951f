/* Bad handles and misuse return error codes, never crash (run by tests/c_api.rs).
 * Prints one line per failed expectation and "checks=<N> failed=<F>" at the end; exit 0 iff F == 0.
 * argv[1]: a unique short name prefix for the segments it creates. */
#include <handoff.h>
#include <stdio.h>
#include <string.h>

static int checks, failed;

#define EXPECT(call, code)                                                                  \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        checks++;                                                                           \
        if (rc_ != (code)) {                                                                \
            failed++;                                                                       \
            printf("FAIL line %d: %s returned %s, expected %s (%s)\n", __LINE__, #call,      \
                   handoff_error_name(rc_), #code, handoff_last_error_message());           \
        } else if ((code) != HANDOFF_OK && handoff_last_error_message()[0] == 0) {          \
            failed++;                                                                       \
            printf("FAIL line %d: %s gave no message\n", __LINE__, #call);                  \
        }                                                                                   \
    } while (0)


int main(int argc, char **argv) {
    char name[128], other[128];
    snprintf(name, sizeof name, "%s-chan", argc > 1 ? argv[1] : "misuse");
    snprintf(other, sizeof other, "%s-seg", argc > 1 ? argv[1] : "misuse");
    handoff_channel *ch = NULL, *ch2 = NULL;
    handoff_producer *tx = NULL, *tx2 = NULL;
    handoff_consumer *rx = NULL;
    void *blk;
    const void *got;
    const char *full;
    uint64_t seq;

    /* NULL handles and arguments. */
    EXPECT(handoff_producer_publish(NULL), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_consumer_release(NULL), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_channel_free(NULL), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_channel_create(NULL, 4096, 2, &ch), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_channel_create(name, 4096, 2, NULL), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_channel_create(name, 0, 2, &ch), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_channel_create(name, 4096, 0, &ch), HANDOFF_E_INVALID_ARGUMENT);
    /* A made-up handle. */
    EXPECT(handoff_producer_publish((handoff_producer *)(uintptr_t)0x1234), HANDOFF_E_BAD_HANDLE);

    EXPECT(handoff_channel_create(name, 4096, 2, &ch), HANDOFF_OK);
    EXPECT(handoff_channel_name(ch, &full), HANDOFF_OK);
    /* Mismatched shape; a handle of another kind. */
    EXPECT(handoff_channel_open(full, 8192, 2, 1000000000, &ch2), HANDOFF_E_MISMATCH);
    EXPECT(handoff_producer_publish((handoff_producer *)ch), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_producer_new(ch, &tx), HANDOFF_OK);
    EXPECT(handoff_producer_new(ch, &tx2), HANDOFF_E_ROLE_TAKEN);
    EXPECT(handoff_consumer_new(ch, &rx), HANDOFF_OK);

    /* State misuse. */
    EXPECT(handoff_producer_publish(tx), HANDOFF_E_STATE);
    EXPECT(handoff_consumer_release(rx), HANDOFF_E_STATE);
    EXPECT(handoff_consumer_try_recv(rx, &got, &seq), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_consumer_recv_timeout(rx, 1000000, &got, &seq), HANDOFF_E_TIMEOUT);
    handoff_wait bad = {99, 0};
    EXPECT(handoff_producer_set_patience(tx, bad, -1), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_consumer_set_patience(rx, bad, -1), HANDOFF_E_INVALID_ARGUMENT);
    handoff_wait ok = {HANDOFF_WAIT_SPIN, 0};
    EXPECT(handoff_producer_set_patience(NULL, ok, -1), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_producer_loan(tx, NULL), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_producer_loan(tx, &blk), HANDOFF_OK);
    EXPECT(handoff_producer_loan(tx, &blk), HANDOFF_E_STATE);
    memset(blk, 7, 4096);
    EXPECT(handoff_producer_publish(tx), HANDOFF_OK);
    EXPECT(handoff_producer_publish(tx), HANDOFF_E_STATE);
    EXPECT(handoff_consumer_recv(rx, &got, &seq), HANDOFF_OK);
    checks++;
    if (seq != 0 || ((const unsigned char *)got)[4095] != 7) {
        failed++;
        printf("FAIL: first block has seq %llu, last byte %d\n", (unsigned long long)seq,
               ((const unsigned char *)got)[4095]);
    }
    EXPECT(handoff_consumer_recv(rx, &got, &seq), HANDOFF_E_STATE);
    EXPECT(handoff_consumer_release(rx), HANDOFF_OK);
    EXPECT(handoff_consumer_release(rx), HANDOFF_E_STATE);
    /* Two blocks in flight fill the ring: a third loan polls empty. */
    EXPECT(handoff_producer_try_loan(tx, &blk), HANDOFF_OK);
    EXPECT(handoff_producer_publish(tx), HANDOFF_OK);
    EXPECT(handoff_producer_try_loan(tx, &blk), HANDOFF_OK);
    EXPECT(handoff_producer_publish(tx), HANDOFF_OK);
    EXPECT(handoff_producer_try_loan(tx, &blk), HANDOFF_E_TIMEOUT);

    /* Freed handles and double frees. */
    EXPECT(handoff_producer_free(tx), HANDOFF_OK);
    EXPECT(handoff_producer_free(tx), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_producer_publish(tx), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_producer_try_loan(tx, &blk), HANDOFF_E_BAD_HANDLE);
    /* The consumer drains the two published blocks, then sees the close. */
    EXPECT(handoff_consumer_recv(rx, &got, &seq), HANDOFF_OK);
    EXPECT(handoff_consumer_release(rx), HANDOFF_OK);
    EXPECT(handoff_consumer_recv(rx, &got, &seq), HANDOFF_OK);
    EXPECT(handoff_consumer_release(rx), HANDOFF_OK);
    EXPECT(handoff_consumer_recv(rx, &got, &seq), HANDOFF_E_CLOSED);
    EXPECT(handoff_channel_free(ch), HANDOFF_OK);
    EXPECT(handoff_channel_free(ch), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_channel_name(ch, &full), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_consumer_free(rx), HANDOFF_OK);
    EXPECT(handoff_consumer_free(rx), HANDOFF_E_BAD_HANDLE);

    /* A segment with the four primitives. */
    handoff_segment *seg;
    handoff_flag *f;
    handoff_signal *s;
    handoff_semaphore *sem;
    handoff_barrier *b;
    uint32_t v32;
    uint64_t v64;
    int leader = -1;
    EXPECT(handoff_segment_create(other, 4 * HANDOFF_PRIMITIVE_SIZE, &seg), HANDOFF_OK);
    EXPECT(handoff_flag_at(seg, 0, &f), HANDOFF_OK);
    EXPECT(handoff_signal_at(seg, 1 * HANDOFF_PRIMITIVE_SIZE, &s), HANDOFF_OK);
    EXPECT(handoff_semaphore_at(seg, 2 * HANDOFF_PRIMITIVE_SIZE, &sem), HANDOFF_OK);
    EXPECT(handoff_barrier_at(seg, 3 * HANDOFF_PRIMITIVE_SIZE, &b), HANDOFF_OK);
    /* An offset past the payload or misaligned is a bad argument (issue #40: it was
     * HANDOFF_E_SEGMENT, as if the segment had failed). */
    EXPECT(handoff_flag_at(seg, 4 * HANDOFF_PRIMITIVE_SIZE, &f), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_flag_at(seg, 8, &f), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_signal_at(seg, 3 * HANDOFF_PRIMITIVE_SIZE + 4, &s), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_segment_publish_ready(seg), HANDOFF_OK);
    EXPECT(handoff_flag_store(f, 5), HANDOFF_OK);
    EXPECT(handoff_flag_load(f, &v32), HANDOFF_OK);
    checks++;
    if (v32 != 5) { failed++; printf("FAIL: flag holds %u, expected 5\n", v32); }
    EXPECT(handoff_flag_try_wait_for(f, 5), HANDOFF_OK);
    EXPECT(handoff_flag_wait_for_timeout(f, 6, 1000000), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_flag_increment(f, &v32), HANDOFF_OK);
    checks++;
    if (v32 != 6) { failed++; printf("FAIL: flag incremented to %u, expected 6\n", v32); }
    EXPECT(handoff_flag_try_wait_change(f, 5, &v32), HANDOFF_OK);
    EXPECT(handoff_flag_wait_change_timeout(f, 6, 1000000, &v32), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_signal_add(s, 3, NULL), HANDOFF_OK);
    EXPECT(handoff_signal_add(s, 4, &v64), HANDOFF_OK);
    checks++;
    if (v64 != 7) { failed++; printf("FAIL: signal at %llu, expected 7\n", (unsigned long long)v64); }
    EXPECT(handoff_signal_wait_until(s, 7, &v64), HANDOFF_OK);
    EXPECT(handoff_signal_wait_until_timeout(s, 8, 1000000, &v64), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_semaphore_try_wait(sem), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_semaphore_post(sem), HANDOFF_OK);
    EXPECT(handoff_semaphore_value(sem, &v32), HANDOFF_OK);
    checks++;
    if (v32 != 1) { failed++; printf("FAIL: semaphore holds %u, expected 1\n", v32); }
    EXPECT(handoff_semaphore_try_wait(sem), HANDOFF_OK);
    EXPECT(handoff_barrier_init(b, 0), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_barrier_init(b, 1), HANDOFF_OK);
    EXPECT(handoff_barrier_wait(b, &leader), HANDOFF_OK);
    checks++;
    if (leader != 1) { failed++; printf("FAIL: the only party was not the leader\n"); }
    /* Primitive handles keep the segment mapped after the segment handle is freed. */
    EXPECT(handoff_segment_free(seg), HANDOFF_OK);
    EXPECT(handoff_segment_free(seg), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_flag_load(f, &v32), HANDOFF_OK);
    EXPECT(handoff_flag_load((handoff_flag *)s, &v32), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_flag_free(f), HANDOFF_OK);
    EXPECT(handoff_flag_free(f), HANDOFF_E_BAD_HANDLE);
    EXPECT(handoff_signal_free(s), HANDOFF_OK);
    EXPECT(handoff_semaphore_free(sem), HANDOFF_OK);
    EXPECT(handoff_barrier_free(b), HANDOFF_OK);

    printf("checks=%d failed=%d\n", checks, failed);
    return failed != 0;
}
