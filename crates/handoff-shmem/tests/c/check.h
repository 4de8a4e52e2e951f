/* Shared by the test programs: CHECK fails the PE with a line naming the check. */
#ifndef CHECK_H
#define CHECK_H
#include <stdio.h>
#include <stdlib.h>
#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "CHECK FAILED on PE %d at %s:%d: %s: ", shmem_my_pe(),        \
                    __FILE__, __LINE__, #cond);                                           \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fprintf(stderr, "\n");                                                        \
            exit(3);                                                                      \
        }                                                                                 \
    } while (0)
#endif
