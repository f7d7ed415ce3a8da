#include "cache/backend.h"

extern const cc_backend cache_opencl_backend;

int main(int argc, char **argv) { return cache_main(argc, argv, &cache_opencl_backend); }
