/* CUDA backend of the regspill benchmark. The kernel (kernels.cu) is
 * carried as PTX, one per live-value count (ptx.h), and JIT-compiled
 * through the runtime's library API so that a register cap is a JIT option
 * and the JIT's own verbose log says what it did. Only the runtime is used
 * (no libcuda link), so the binary starts and skips cleanly on machines
 * without a driver. compile_offline runs the toolkit's ptxas on the same PTX
 * and needs no device. */
#include "cuda_device.h"
#include "regspill/ptx.h"

extern "C" {
#include "regspill/backend.h"
#include "regspill/kernel_ids.h"
}

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define WORK_GROUP 256u
/* Groups beyond one full-occupancy wave, so that the tail wave is a small
 * part of the time even where registers leave few groups resident. */
#define WAVES 4u

static struct {
    cr_cuda cu;
    char arch[16]; /* "sm_90"; empty until opened */
    cudaLibrary_t lib;
    cudaKernel_t kernel;
    void *out;     /* uint32_t per work-item */
    uint64_t out_items;
} st;

static const char *find_ptx(unsigned live)
{
    for (unsigned i = 0; i < regspill_ptx_count; ++i)
        if (regspill_ptx_table[i].live == live)
            return regspill_ptx_table[i].ptx;
    return NULL;
}

static cr_status no_ptx(unsigned live, char *err, size_t errlen)
{
    char have[160];
    size_t used = 0;
    have[0] = '\0';
    for (unsigned i = 0; i < regspill_ptx_count && used < sizeof have; ++i) {
        int n = snprintf(have + used, sizeof have - used, "%s%u", i ? " " : "", regspill_ptx_table[i].live);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    snprintf(err, errlen, "no CUDA kernel for %u live values (built for: %s)", live, have);
    return CR_UNSUPPORTED;
}

static void unload(void)
{
    if (st.lib) {
        cudaLibraryUnload(st.lib);
        cudaGetLastError();
    }
    st.lib = NULL;
    st.kernel = NULL;
}

static void free_out(void)
{
    cr_cuda_free(&st.out);
    st.out_items = 0;
}

static void rs_close(void)
{
    unload();
    free_out();
    cr_cuda_close_timed(&st.cu);
    st.arch[0] = '\0';
}

/* Read by the driver when it initialises, so it must be set before the
 * first runtime call; a user's own setting wins.
 *  - EAGER: under lazy loading (the default since CUDA 12.2) the PTX might
 *    only be compiled at the first launch, inside the timed interval and
 *    after build() has returned the JIT log.
 *  - No JIT cache: a cached binary comes back without the compiler's log,
 *    and the register and spill figures must not depend on whether an
 *    earlier run left one behind. ptxas takes under 0.1 s for the largest
 *    of these kernels. */
static void want_fresh_eager_jit(void)
{
    setenv("CUDA_MODULE_LOADING", "EAGER", 0);
    setenv("CUDA_CACHE_DISABLE", "1", 0);
}

static cr_status rs_list(FILE *f)
{
    want_fresh_eager_jit();
    return cr_cuda_list(f);
}

static cr_status read_arch(char *err, size_t errlen)
{
    int major = 0, minor = 0;
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, st.cu.dev),
                  "cudaDeviceGetAttribute", err, errlen);
    CR_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, st.cu.dev),
                  "cudaDeviceGetAttribute", err, errlen);
    snprintf(st.arch, sizeof st.arch, "sm_%d%d", major, minor);
    return CR_OK;
}

static cr_status rs_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    want_fresh_eager_jit();
    memset(&st, 0, sizeof st);
    cr_status s = cr_cuda_open_timed(spec, &st.cu, info, err, errlen);
    if (s == CR_OK && (s = read_arch(err, errlen)) != CR_OK)
        rs_close();
    return s;
}

static const char *rs_arch(void)
{
    return st.arch[0] ? st.arch : NULL;
}

static bool rs_can_cap_registers(void)
{
    return true;
}

static bool rs_has_kernel(unsigned live, char *err, size_t errlen)
{
    return find_ptx(live) != NULL || no_ptx(live, err, errlen) == CR_OK;
}

/* The first line of text, for one-line errors. */
static void first_line(const char *text, char *line, size_t len)
{
    size_t n = strcspn(text, "\r\n");
    if (n >= len)
        n = len - 1;
    memcpy(line, text, n);
    line[n] = '\0';
}

static cr_status rs_build(const regspill_variant *v, uint64_t work_group, regspill_build_info *info, char *err,
                          size_t errlen)
{
    /* No kernel at all rather than the previous variant's, should this fail. */
    unload();
    const char *ptx = find_ptx(v->live);
    if (ptx == NULL)
        return no_ptx(v->live, err, errlen);
    if (work_group == 0 || work_group > st.cu.max_group) {
        snprintf(err, errlen, "invalid work-group size %llu (device maximum %llu)", (unsigned long long)work_group,
                 (unsigned long long)st.cu.max_group);
        return CR_ERR;
    }

    /* Option values are the integers themselves in pointer-sized slots, as
     * the driver API takes them. */
    char elog[2048];
    elog[0] = '\0';
    info->log[0] = '\0';
    cudaJitOption opt[6];
    void *val[6];
    unsigned n = 0;
    opt[n] = cudaJitInfoLogBuffer;
    val[n++] = info->log;
    opt[n] = cudaJitInfoLogBufferSizeBytes;
    val[n++] = (void *)(uintptr_t)sizeof info->log;
    opt[n] = cudaJitErrorLogBuffer;
    val[n++] = elog;
    opt[n] = cudaJitErrorLogBufferSizeBytes;
    val[n++] = (void *)(uintptr_t)sizeof elog;
    opt[n] = cudaJitLogVerbose;
    val[n++] = (void *)(uintptr_t)1;
    if (v->reg_cap != 0) {
        opt[n] = cudaJitMaxRegisters;
        val[n++] = (void *)(uintptr_t)v->reg_cap;
    }
    cudaError_t e = cudaLibraryLoadData(&st.lib, ptx, opt, val, n, NULL, NULL, 0);
    info->log[sizeof info->log - 1] = '\0';
    elog[sizeof elog - 1] = '\0';
    if (e != cudaSuccess) {
        char line[160];
        first_line(elog, line, sizeof line);
        cudaGetLastError();
        st.lib = NULL;
        if (cr_cuda_driver_too_old(e, "JIT of the regspill PTX", err, errlen))
            return CR_ERR;
        snprintf(err, errlen, "JIT of %u live values (cap %u): %s%s%s", v->live, v->reg_cap, cudaGetErrorString(e),
                 line[0] ? ": " : "", line);
        return CR_ERR;
    }
    CR_CUDA_CHECK(cudaLibraryGetKernel(&st.kernel, st.lib, "regspill_live"), "cudaLibraryGetKernel", err, errlen);

    cudaFuncAttributes attr;
    CR_CUDA_CHECK(cudaFuncGetAttributes(&attr, (const void *)st.kernel), "cudaFuncGetAttributes", err, errlen);
    info->registers = attr.numRegs;
    info->max_work_group = (uint64_t)attr.maxThreadsPerBlock;
    info->private_bytes = (int64_t)attr.localSizeBytes;
    info->static_smem_bytes = (int64_t)attr.sharedSizeBytes;
    int blocks = 0;
    CR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)st.kernel, (int)work_group, 0),
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor", err, errlen);
    info->blocks_per_cu_api = blocks;
    return CR_OK;
}

static cr_status rs_prepare(uint64_t work_items, char *err, size_t errlen)
{
    free_out();
    if (work_items == 0 || work_items > SIZE_MAX / sizeof(uint32_t)) {
        snprintf(err, errlen, "invalid work-item count %llu", (unsigned long long)work_items);
        return CR_ERR;
    }
    CR_CUDA_CHECK(cudaMalloc(&st.out, work_items * sizeof(uint32_t)), "cudaMalloc", err, errlen);
    st.out_items = work_items;
    return CR_OK;
}

/* The kernel has no bounds check and a 32-bit id (see kernels.cu): every
 * launched thread must have its own id and its slot in out. */
static cr_status check_launch(uint64_t work_items, uint64_t work_group, char *err, size_t errlen)
{
    if (st.kernel == NULL) {
        snprintf(err, errlen, "no kernel built");
        return CR_ERR;
    }
    if (cr_cuda_check_geometry(work_items, work_group, st.cu.max_group, err, errlen) != CR_OK ||
        regspill_check_cuda_ids(work_items, err, errlen) != CR_OK)
        return CR_ERR;
    if (work_items > st.out_items) {
        snprintf(err, errlen, "%llu work-items but output prepared for %llu", (unsigned long long)work_items,
                 (unsigned long long)st.out_items);
        return CR_ERR;
    }
    return CR_OK;
}

static cr_status rs_run(uint64_t work_items, uint64_t work_group, uint32_t rounds, cr_timing *t, char *err,
                        size_t errlen)
{
    if (check_launch(work_items, work_group, err, errlen) != CR_OK)
        return CR_ERR;
    const dim3 grid((unsigned)(work_items / work_group)), block((unsigned)work_group);
    void *out = st.out;
    uint32_t r = rounds;
    void *args[] = {&out, &r};
    if (cr_cuda_timer_start(&st.cu.timer, 0, err, errlen) != CR_OK)
        return CR_ERR;
    cudaError_t launched = cudaLaunchKernel((const void *)st.kernel, grid, block, args, 0, 0);
    if (launched == cudaSuccess)
        launched = cudaGetLastError();
    /* Stopped even after a failed launch: it opens the timer's gate. A fault
     * inside the kernel surfaces here, at the synchronisation. */
    cr_status stopped = cr_cuda_timer_stop(&st.cu.timer, 0, t, err, errlen);
    CR_CUDA_CHECK(launched, "kernel launch", err, errlen);
    return stopped;
}

static cr_status rs_download(uint32_t *dst, uint64_t work_items, char *err, size_t errlen)
{
    return cr_cuda_download(dst, st.out, work_items, st.out_items, sizeof(uint32_t), "work-items", err, errlen);
}

static void rs_geometry(uint64_t *work_items, uint64_t *work_group)
{
    uint64_t wave = st.cu.sms * st.cu.threads_per_sm;
    uint64_t items = (wave * WAVES + WORK_GROUP - 1) / WORK_GROUP * WORK_GROUP;
    *work_group = WORK_GROUP;
    *work_items = items ? items : WORK_GROUP;
}

/* ---- offline compilation with ptxas ---- */

/* "sm_" and digits, with the 'a' or 'f' suffix of the architecture-specific
 * targets; anything else is refused before a process is started. */
static bool valid_arch(const char *arch)
{
    if (arch == NULL || strncmp(arch, "sm_", 3) != 0)
        return false;
    const char *p = arch + 3;
    size_t digits = strspn(p, "0123456789");
    if (digits == 0 || digits > 4)
        return false;
    p += digits;
    if (*p == 'a' || *p == 'f')
        ++p;
    return *p == '\0';
}

static bool executable(const char *path)
{
    return access(path, X_OK) == 0;
}

static bool ptxas_in(const char *dir, const char *sub, char *path, size_t len)
{
    if (dir == NULL || dir[0] == '\0')
        return false;
    int n = snprintf(path, len, "%s%sptxas", dir, sub);
    return n > 0 && (size_t)n < len && executable(path);
}

/* The toolkits the user names first, then the one this binary was built
 * with, then PATH: the same order the Makefile uses to find nvcc. Where
 * CUDA_HOME is set, the toolkit is there and nowhere else. */
static bool find_ptxas(char *path, size_t len)
{
    const char *home = getenv("CUDA_HOME");
    if (home && *home)
        return ptxas_in(home, "/bin/", path, len);
    if (ptxas_in(getenv("CUDA_PATH"), "/bin/", path, len))
        return true;
#ifdef CR_CUDA_BIN_DIR
    if (ptxas_in(CR_CUDA_BIN_DIR, "/", path, len))
        return true;
#endif
    const char *dirs = getenv("PATH");
    while (dirs && *dirs) {
        size_t n = strcspn(dirs, ":");
        char dir[PATH_MAX];
        if (n == 0)
            snprintf(dir, sizeof dir, ".");
        else if (n < sizeof dir)
            snprintf(dir, sizeof dir, "%.*s", (int)n, dirs);
        else
            dir[0] = '\0';
        if (ptxas_in(dir, "/", path, len))
            return true;
        dirs += n;
        if (*dirs == ':')
            ++dirs;
    }
    return false;
}

static cr_status write_temp(const char *text, char *path, size_t len, char *err, size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    if (dir == NULL || dir[0] == '\0')
        dir = "/tmp";
    int n = snprintf(path, len, "%s/regspill_XXXXXX", dir);
    if (n < 0 || (size_t)n >= len) {
        snprintf(err, errlen, "temporary directory path too long: %s", dir);
        return CR_ERR;
    }
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errlen, "mkstemp %s: %s", path, strerror(errno));
        return CR_ERR;
    }
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t w = write(fd, text, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(err, errlen, "writing %s: %s", path, w < 0 ? strerror(errno) : "short write");
            close(fd);
            unlink(path);
            return CR_ERR;
        }
        text += w;
        left -= (size_t)w;
    }
    if (close(fd) != 0) {
        snprintf(err, errlen, "writing %s: %s", path, strerror(errno));
        unlink(path);
        return CR_ERR;
    }
    return CR_OK;
}

/* Runs argv with stdout and stderr into log (truncated to loglen, always
 * terminated) and head (the start, for the error line), and returns its
 * wait status. The pipe is drained to the end so that a long log cannot
 * block the child. */
static cr_status spawn_capture(char *const argv[], char *log, size_t loglen, char *head, size_t headlen,
                               int *status, char *err, size_t errlen)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return CR_ERR;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        snprintf(err, errlen, "starting %s: %s", argv[0], strerror(rc));
        return CR_ERR;
    }
    size_t used = 0, hused = 0;
    char buf[4096];
    for (;;) {
        ssize_t r = read(fds[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        size_t take = loglen > used + 1 ? loglen - used - 1 : 0;
        if (take > (size_t)r)
            take = (size_t)r;
        if (take > 0)
            memcpy(log + used, buf, take);
        used += take;
        take = headlen - hused - 1;
        if (take > (size_t)r)
            take = (size_t)r;
        if (take > 0)
            memcpy(head + hused, buf, take);
        hused += take;
    }
    close(fds[0]);
    if (loglen > 0)
        log[used] = '\0';
    head[hused] = '\0';
    while (waitpid(pid, status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(err, errlen, "waiting for %s: %s", argv[0], strerror(errno));
            return CR_ERR;
        }
    }
    return CR_OK;
}

/* The line that says why ptxas failed: its first error or fatal line, else
 * its first line. */
static void failure_line(const char *out, char *line, size_t len)
{
    for (const char *p = out; *p;) {
        size_t n = strcspn(p, "\n");
        const char *e = strstr(p, "error");
        const char *f = strstr(p, "fatal");
        if ((e && e < p + n) || (f && f < p + n)) {
            first_line(p, line, len);
            return;
        }
        p += n;
        if (*p == '\n')
            ++p;
    }
    first_line(out, line, len);
}

static cr_status rs_compile_offline(const regspill_variant *v, const char *arch, char *log, size_t loglen, char *err,
                                    size_t errlen)
{
    if (loglen > 0)
        log[0] = '\0';
    if (!valid_arch(arch)) {
        snprintf(err, errlen, "invalid architecture '%s' (expected sm_ and digits, e.g. sm_90)", arch ? arch : "");
        return CR_ERR;
    }
    const char *ptx = find_ptx(v->live);
    if (ptx == NULL)
        return no_ptx(v->live, err, errlen);
    char ptxas[PATH_MAX];
    if (!find_ptxas(ptxas, sizeof ptxas)) {
        const char *home = getenv("CUDA_HOME");
        if (home && *home)
            snprintf(err, errlen, "no ptxas in CUDA_HOME's bin (%.200s/bin): a toolkit compiles the table offline",
                     home);
        else
            snprintf(err, errlen, "ptxas not found (no CUDA toolkit here; set CUDA_HOME)");
        return CR_UNSUPPORTED;
    }
    char file[PATH_MAX];
    if (write_temp(ptx, file, sizeof file, err, errlen) != CR_OK)
        return CR_ERR;

    char arch_opt[32], cap_opt[32], out_opt[] = "-o", null_out[] = "/dev/null", verbose[] = "-v";
    snprintf(arch_opt, sizeof arch_opt, "-arch=%s", arch);
    snprintf(cap_opt, sizeof cap_opt, "--maxrregcount=%u", v->reg_cap);
    char *argv[8];
    int argc = 0;
    argv[argc++] = ptxas;
    argv[argc++] = arch_opt;
    argv[argc++] = verbose;
    if (v->reg_cap != 0)
        argv[argc++] = cap_opt;
    argv[argc++] = file;
    argv[argc++] = out_opt;
    argv[argc++] = null_out;
    argv[argc] = NULL;

    char head[1024];
    int status = 0;
    cr_status s = spawn_capture(argv, log, loglen, head, sizeof head, &status, err, errlen);
    unlink(file);
    if (s != CR_OK)
        return s;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char line[200];
        failure_line(head, line, sizeof line);
        if (WIFEXITED(status))
            snprintf(err, errlen, "ptxas -arch=%s exited with %d: %s", arch, WEXITSTATUS(status),
                     line[0] ? line : "no output");
        else
            snprintf(err, errlen, "ptxas -arch=%s killed by signal %d", arch,
                     WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        return CR_ERR;
    }
    return CR_OK;
}

CR_CUDA_BACKEND(regspill_backend, regspill_cuda_backend) = {
    {"cuda", rs_list, rs_open, rs_close},
    rs_arch, rs_can_cap_registers, rs_build, rs_prepare, rs_run, rs_download,
    NULL, /* lanes: one thread is one work-item */
    rs_geometry, rs_compile_offline, rs_has_kernel,
    1024, /* threads a block: cudaDevAttrMaxThreadsPerBlock on every compute capability since 2.0 */
};
