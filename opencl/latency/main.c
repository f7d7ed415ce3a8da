#include "latency/backend.h"

extern const lt_backend latency_opencl_backend;

int main(int argc, char **argv) { return latency_main(argc, argv, &latency_opencl_backend); }
