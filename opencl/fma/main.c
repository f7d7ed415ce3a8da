#include "fma/backend.h"

extern const fma_backend fma_opencl_backend;

int main(int argc, char **argv) { return fma_main(argc, argv, &fma_opencl_backend); }
