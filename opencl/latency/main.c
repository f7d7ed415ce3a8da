#include "latency/backend.h"

extern const lt_backend lt_opencl_walker; /* the shared walker, opencl/chase */

int main(int argc, char **argv) { return latency_main(argc, argv, &lt_opencl_walker); }
