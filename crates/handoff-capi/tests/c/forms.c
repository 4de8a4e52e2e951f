/* The three forms of every blocking call (issue #43), run by tests/c_api.rs:
 *   handoff_x(h, ...)           waits with the handle's patience (handoff_*_set_patience),
 *   handoff_x_timeout(h, ..., ns) waits at most ns,
 *   handoff_try_x(h, ...)       does not wait.
 * Each form is checked where it must time out (nothing to take: a form that ignored its own
 * limit and used another would hang, and alarm() below turns a hang into a failure), where it
 * must succeed, and (the plain form) where it must wait for another process: a child started
 * as `forms post SEGMENT` / `forms publish CHANNEL` posts or publishes 100 ms later, which a
 * form that did not wait would miss. Covers the channel's receive and loan, the semaphore
 * and the flag.
 * Prints one line per failed expectation and "checks=<N> failed=<F>"; exit 0 iff F == 0.
 * argv[1]: a unique short name prefix for what it creates. */
#include <handoff.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int checks, failed;

#define EXPECT(call, code)                                                                  \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        checks++;                                                                           \
        if (rc_ != (code)) {                                                                \
            failed++;                                                                       \
            printf("FAIL line %d: %s returned %s, expected %s (%s)\n", __LINE__, #call,      \
                   handoff_error_name(rc_), #code, handoff_last_error_message());           \
        }                                                                                   \
    } while (0)

#define EXPECT_TRUE(cond)                                                                   \
    do {                                                                                    \
        checks++;                                                                           \
        if (!(cond)) {                                                                      \
            failed++;                                                                       \
            printf("FAIL line %d: %s\n", __LINE__, #cond);                                  \
        }                                                                                   \
    } while (0)

static const handoff_wait ADAPTIVE = {HANDOFF_WAIT_ADAPTIVE, 0};
static const handoff_wait BLOCK = {HANDOFF_WAIT_BLOCK, 0};
static const uint64_t MS = 1000000ULL;
static const int64_t NONE = -1;

static const char *self;

/* Starts `self MODE NAME` (the late peer) in a child process. */
static pid_t start(const char *mode, const char *name) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl(self, self, mode, name, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void reap(pid_t pid) {
    int st = 0;
    EXPECT_TRUE(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* The late peers: open NAME, wait 100 ms, post a permit / publish one block. */
static int late(const char *mode, const char *name) {
    if (!strcmp(mode, "post")) {
        handoff_segment *seg;
        handoff_semaphore *sem;
        if (handoff_segment_open(name, 10000000000LL, &seg) != HANDOFF_OK) return 1;
        if (handoff_semaphore_at(seg, 0, &sem) != HANDOFF_OK) return 1;
        usleep(100000);
        return handoff_semaphore_post(sem) != HANDOFF_OK;
    }
    handoff_channel *ch;
    handoff_producer *tx;
    void *blk;
    if (handoff_channel_open(name, 64, 2, 10000000000LL, &ch) != HANDOFF_OK) return 1;
    if (handoff_producer_new(ch, &tx) != HANDOFF_OK) return 1;
    usleep(100000);
    if (handoff_producer_loan(tx, &blk) != HANDOFF_OK) return 1;
    memset(blk, 9, 64);
    return handoff_producer_publish(tx) != HANDOFF_OK;
}

static void channel_forms(const char *name) {
    handoff_channel *ch;
    handoff_producer *tx;
    handoff_consumer *rx;
    void *blk;
    const void *got;
    uint64_t seq = 99;
    EXPECT(handoff_channel_create(name, 64, 2, &ch), HANDOFF_OK);
    EXPECT(handoff_producer_new(ch, &tx), HANDOFF_OK);
    EXPECT(handoff_consumer_new(ch, &rx), HANDOFF_OK);

    /* Nothing published: each receive form times out by its own rule. The patience has no
     * time limit, so only the form's own limit ends the _timeout and try_ calls. */
    EXPECT(handoff_consumer_set_patience(rx, BLOCK, NONE), HANDOFF_OK);
    EXPECT(handoff_consumer_try_recv(rx, &got, &seq), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_consumer_recv_timeout(rx, MS, &got, &seq), HANDOFF_E_TIMEOUT);
    /* The plain form takes the patience's limit. */
    EXPECT(handoff_consumer_set_patience(rx, ADAPTIVE, (int64_t)MS), HANDOFF_OK);
    EXPECT(handoff_consumer_recv(rx, &got, &seq), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_consumer_set_patience(rx, ADAPTIVE, 0), HANDOFF_OK);
    EXPECT(handoff_consumer_recv(rx, &got, &seq), HANDOFF_E_TIMEOUT);

    /* Each loan form succeeds while a block is free, each times out once both are in flight. */
    EXPECT(handoff_producer_set_patience(tx, BLOCK, NONE), HANDOFF_OK);
    EXPECT(handoff_producer_loan(tx, &blk), HANDOFF_OK);
    memset(blk, 1, 64);
    EXPECT(handoff_producer_publish(tx), HANDOFF_OK);
    EXPECT(handoff_producer_loan_timeout(tx, MS, &blk), HANDOFF_OK);
    memset(blk, 2, 64);
    EXPECT(handoff_producer_publish(tx), HANDOFF_OK);
    EXPECT(handoff_producer_try_loan(tx, &blk), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_producer_loan_timeout(tx, MS, &blk), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_producer_set_patience(tx, ADAPTIVE, (int64_t)MS), HANDOFF_OK);
    EXPECT(handoff_producer_loan(tx, &blk), HANDOFF_E_TIMEOUT);

    /* Each receive form takes what is there, in order. */
    EXPECT(handoff_consumer_set_patience(rx, BLOCK, NONE), HANDOFF_OK);
    EXPECT(handoff_consumer_recv(rx, &got, &seq), HANDOFF_OK);
    EXPECT_TRUE(seq == 0 && ((const unsigned char *)got)[63] == 1);
    EXPECT(handoff_consumer_release(rx), HANDOFF_OK);
    EXPECT(handoff_producer_try_loan(tx, &blk), HANDOFF_OK);
    memset(blk, 3, 64);
    EXPECT(handoff_producer_publish(tx), HANDOFF_OK);
    EXPECT(handoff_consumer_recv_timeout(rx, MS, &got, &seq), HANDOFF_OK);
    EXPECT_TRUE(seq == 1 && ((const unsigned char *)got)[63] == 2);
    EXPECT(handoff_consumer_release(rx), HANDOFF_OK);
    EXPECT(handoff_consumer_try_recv(rx, &got, &seq), HANDOFF_OK);
    EXPECT_TRUE(seq == 2 && ((const unsigned char *)got)[63] == 3);
    EXPECT(handoff_consumer_release(rx), HANDOFF_OK);
    EXPECT(handoff_consumer_try_recv(rx, &got, &seq), HANDOFF_E_TIMEOUT);

    /* A bad strategy is refused and leaves the patience as it was. */
    handoff_wait bad = {99, 0};
    EXPECT(handoff_consumer_set_patience(rx, bad, 0), HANDOFF_E_INVALID_ARGUMENT);
    EXPECT(handoff_consumer_try_recv(rx, &got, &seq), HANDOFF_E_TIMEOUT);

    EXPECT(handoff_producer_free(tx), HANDOFF_OK);
    EXPECT(handoff_consumer_free(rx), HANDOFF_OK);
    EXPECT(handoff_channel_free(ch), HANDOFF_OK);

    /* The plain form waits for a block another process publishes later. */
    char late_name[160];
    const char *full;
    snprintf(late_name, sizeof late_name, "%s-late", name);
    EXPECT(handoff_channel_create(late_name, 64, 2, &ch), HANDOFF_OK);
    EXPECT(handoff_channel_name(ch, &full), HANDOFF_OK);
    EXPECT(handoff_consumer_new(ch, &rx), HANDOFF_OK);
    EXPECT(handoff_consumer_set_patience(rx, ADAPTIVE, 10000 * (int64_t)MS), HANDOFF_OK);
    pid_t kid = start("publish", full);
    EXPECT(handoff_consumer_recv(rx, &got, &seq), HANDOFF_OK);
    EXPECT_TRUE(seq == 0 && ((const unsigned char *)got)[0] == 9);
    EXPECT(handoff_consumer_release(rx), HANDOFF_OK);
    reap(kid);
    EXPECT(handoff_consumer_free(rx), HANDOFF_OK);
    EXPECT(handoff_channel_free(ch), HANDOFF_OK);
}

static void sync_forms(const char *name) {
    handoff_segment *seg;
    handoff_semaphore *sem;
    handoff_flag *f;
    uint32_t v = 0;
    EXPECT(handoff_segment_create(name, 2 * HANDOFF_PRIMITIVE_SIZE, &seg), HANDOFF_OK);
    EXPECT(handoff_semaphore_at(seg, 0, &sem), HANDOFF_OK);
    EXPECT(handoff_flag_at(seg, HANDOFF_PRIMITIVE_SIZE, &f), HANDOFF_OK);
    EXPECT(handoff_segment_publish_ready(seg), HANDOFF_OK);

    /* No permit: each form times out by its own rule. */
    EXPECT(handoff_semaphore_set_patience(sem, BLOCK, NONE), HANDOFF_OK);
    EXPECT(handoff_semaphore_try_wait(sem), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_semaphore_wait_timeout(sem, MS), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_semaphore_set_patience(sem, ADAPTIVE, (int64_t)MS), HANDOFF_OK);
    EXPECT(handoff_semaphore_wait(sem), HANDOFF_E_TIMEOUT);
    /* Three permits: each form takes one. */
    EXPECT(handoff_semaphore_set_patience(sem, BLOCK, NONE), HANDOFF_OK);
    for (int i = 0; i < 3; i++) EXPECT(handoff_semaphore_post(sem), HANDOFF_OK);
    EXPECT(handoff_semaphore_wait(sem), HANDOFF_OK);
    EXPECT(handoff_semaphore_wait_timeout(sem, MS), HANDOFF_OK);
    EXPECT(handoff_semaphore_try_wait(sem), HANDOFF_OK);
    EXPECT(handoff_semaphore_value(sem, &v), HANDOFF_OK);
    EXPECT_TRUE(v == 0);
    EXPECT(handoff_semaphore_set_patience((handoff_semaphore *)f, ADAPTIVE, 0),
           HANDOFF_E_BAD_HANDLE);
    /* The plain form waits for a permit another process posts later. */
    const char *full;
    EXPECT(handoff_segment_name(seg, &full), HANDOFF_OK);
    EXPECT(handoff_semaphore_set_patience(sem, ADAPTIVE, 10000 * (int64_t)MS), HANDOFF_OK);
    pid_t kid = start("post", full);
    EXPECT(handoff_semaphore_wait(sem), HANDOFF_OK);
    reap(kid);

    /* The flag: the plain form takes the handle's patience, the others their own rule. */
    EXPECT(handoff_flag_set_patience(f, ADAPTIVE, (int64_t)MS), HANDOFF_OK);
    EXPECT(handoff_flag_wait_for(f, 1), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_flag_wait_change(f, 0, &v), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_flag_set_patience(f, BLOCK, NONE), HANDOFF_OK);
    EXPECT(handoff_flag_try_wait_for(f, 1), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_flag_wait_for_timeout(f, 1, MS), HANDOFF_E_TIMEOUT);
    EXPECT(handoff_flag_store(f, 1), HANDOFF_OK);
    EXPECT(handoff_flag_wait_for(f, 1), HANDOFF_OK);
    EXPECT(handoff_flag_wait_change(f, 0, &v), HANDOFF_OK);
    EXPECT_TRUE(v == 1);

    EXPECT(handoff_semaphore_free(sem), HANDOFF_OK);
    EXPECT(handoff_flag_free(f), HANDOFF_OK);
    EXPECT(handoff_segment_free(seg), HANDOFF_OK);
}

int main(int argc, char **argv) {
    self = argv[0];
    if (argc == 3) return late(argv[1], argv[2]);
    char chan[128], seg[128];
    snprintf(chan, sizeof chan, "%s-chan", argc > 1 ? argv[1] : "forms");
    snprintf(seg, sizeof seg, "%s-seg", argc > 1 ? argv[1] : "forms");
    /* A form that waits where it must not (or ignores a time limit) hangs: end it loudly. */
    alarm(30);
    channel_forms(chan);
    sync_forms(seg);
    printf("checks=%d failed=%d\n", checks, failed);
    return failed != 0;
}
