/* What a test without a GPU reads of nvcc's and ptxas's output for a
 * kernel, and what every kernel is held to there: no local memory in the
 * PTX, and ptxas -v reporting no stack frame and no spills under the
 * launch bounds. Include after cmocka.h: these assert with it. */
#ifndef CR_CUDA_TESTS_NVCC_OUTPUT_H
#define CR_CUDA_TESTS_NVCC_OUTPUT_H

#include "tests/cuda_source.h"
#include "tests/ptx_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of dir/name, a file the build generated with nvcc or ptxas
 * (free it). Where there is none, a test that may be built without nvcc
 * (skip_if_absent) skips, saying so; any other fails. */
static inline char *generated_file(const char *dir, const char *name, bool skip_if_absent)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!skip_if_absent)
        return cuda_source_must_read(path);
    char *s = cuda_source_read(path);
    if (s == NULL) {
        print_message("skipped: no %s (nvcc absent when this was built)\n", path);
        skip();
    }
    return s;
}

/* The number of kernels in a ptxas -v log (name is the log's, for the
 * failure): each has one "N bytes stack frame, N bytes spill stores, N
 * bytes spill loads" line, and any of those not all zero fails the test. */
static inline int ptxas_kernels_without_spills(const char *name, const char *log)
{
    int kernels = 0;
    for (const char *p = strstr(log, "bytes stack frame"); p; p = strstr(p + 1, "bytes stack frame")) {
        ptx_span line = {p, p};
        while (line.begin > log && line.begin[-1] != '\n')
            --line.begin;
        line.end = line.begin + strcspn(line.begin, "\n");
        if (!ptx_find_in(line, "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"))
            fail_msg("%s: %.*s", name, (int)(line.end - line.begin), line.begin);
        ++kernels;
    }
    return kernels;
}

/* Nothing of the kernels in stem's generated files goes through local
 * memory: "<stem>.ptx" has no ld.local/st.local and no local arrays, and
 * ptxas -v, for each architecture the build targets ("<stem>.sm_80.log",
 * "<stem>.sm_90.log"), reports the given number of kernels, each with no
 * stack frame and no spills under its launch bounds; where entry is not
 * NULL, among them that one. read gives a generated file's text (freed
 * here), or skips the test. */
static inline void check_no_local_memory(char *(*read)(const char *name), const char *stem, int kernels,
                                         const char *entry)
{
    char name[256];
    snprintf(name, sizeof name, "%s.ptx", stem);
    char *ptx = read(name);
    assert_null(strstr(ptx, "ld.local"));
    assert_null(strstr(ptx, "st.local"));
    assert_null(strstr(ptx, ".local "));
    free(ptx);
    static const char *const archs[] = {"sm_80", "sm_90"};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; ++a) {
        snprintf(name, sizeof name, "%s.%s.log", stem, archs[a]);
        char *log = read(name);
        assert_int_equal(ptxas_kernels_without_spills(name, log), kernels);
        if (entry != NULL) {
            char compiled[256];
            snprintf(compiled, sizeof compiled, "Compiling entry function '%s'", entry);
            assert_non_null(strstr(log, compiled));
        }
        free(log);
    }
}

#endif
