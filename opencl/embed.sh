#!/bin/sh
# Turns an OpenCL C file into a C array so that binaries carry their kernels.
#   opencl/embed.sh NAME FILE.cl > FILE.c
set -eu
printf 'const char %s[] =\n' "$1"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$2"
printf ';\n'
