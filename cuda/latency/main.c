#include "latency/backend.h"

extern const lt_backend lt_cuda_walker; /* the shared walker, cuda/chase */

int main(int argc, char **argv) { return latency_main(argc, argv, &lt_cuda_walker); }
