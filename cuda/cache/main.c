#include "cache/backend.h"

extern const cc_backend cache_cuda_backend;

int main(int argc, char **argv) { return cache_main(argc, argv, &cache_cuda_backend); }
