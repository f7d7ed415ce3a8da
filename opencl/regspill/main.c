#include "regspill/backend.h"

extern const regspill_backend regspill_opencl_backend;

int main(int argc, char **argv) { return regspill_main(argc, argv, &regspill_opencl_backend); }
