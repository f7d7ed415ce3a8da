#include "sfu/backend.h"

extern const sfu_backend sfu_cuda_backend;

int main(int argc, char **argv) { return sfu_main(argc, argv, &sfu_cuda_backend); }
