#include "sfu/backend.h"

extern const sfu_backend sfu_opencl_backend;

int main(int argc, char **argv) { return sfu_main(argc, argv, &sfu_opencl_backend); }
