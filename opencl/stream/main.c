#include "stream/backend.h"

extern const stream_backend stream_opencl_backend;

int main(int argc, char **argv) { return stream_main(argc, argv, &stream_opencl_backend); }
