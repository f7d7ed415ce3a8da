#include "atomics/backend.h"

extern const at_backend atomics_opencl_backend;

int main(int argc, char **argv) { return atomics_main(argc, argv, &atomics_opencl_backend); }
