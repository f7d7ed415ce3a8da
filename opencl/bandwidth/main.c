#include "bandwidth/backend.h"

extern const bw_backend bandwidth_opencl_backend;

int main(int argc, char **argv) { return bandwidth_main(argc, argv, &bandwidth_opencl_backend); }
