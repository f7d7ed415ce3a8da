#include "gesummv/backend.h"

extern const gesummv_backend gesummv_cuda_backend;

int main(int argc, char **argv) { return gesummv_main(argc, argv, &gesummv_cuda_backend); }
