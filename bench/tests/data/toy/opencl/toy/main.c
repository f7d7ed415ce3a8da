#include "toy/backend.h"

extern const toy_backend toy_opencl_backend;

int main(int argc, char **argv) { return toy_main(argc, argv, &toy_opencl_backend); }
