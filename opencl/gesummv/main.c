#include "gesummv/backend.h"

extern const gesummv_backend gesummv_opencl_backend;

int main(int argc, char **argv) { return gesummv_main(argc, argv, &gesummv_opencl_backend); }
