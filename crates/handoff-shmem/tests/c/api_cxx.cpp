// api.c built as C++: the type-generic names are then shmem.h's C++ overloads.
#include "api.c"
