/* How the CUDA device layer reads the driver it finds: no driver and no
 * device are "nothing to run on" (a skip), a driver too old for this build
 * is an error that says which driver, which CUDA this build needs and what
 * to install. The runtime's answers are played through cr_cuda_probe, so
 * every case runs on any machine, with or without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cuda_device.h"
#include "metadata.h"

#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a driver as the test plays it ---- */

static struct {
    cudaError_t count_error;
    int devices, driver, runtime;
} played;

static cudaError_t played_count(int *n)
{
    *n = played.devices;
    return played.count_error;
}

static cudaError_t played_driver(int *v)
{
    *v = played.driver;
    return cudaSuccess;
}

static cudaError_t played_runtime(int *v)
{
    *v = played.runtime;
    return cudaSuccess;
}

static void play(cudaError_t count_error, int devices, int driver, int runtime)
{
    played.count_error = count_error;
    played.devices = devices;
    played.driver = driver;
    played.runtime = runtime;
    static const cr_cuda_probe probe = {
        .get_device_count = played_count, .driver_get_version = played_driver, .runtime_get_version = played_runtime};
    cr_cuda_set_probe(&probe);
}

static int restore_runtime(void **state)
{
    (void)state;
    cr_cuda_set_probe(NULL);
    return 0;
}

/* cr_cuda_open on the driver played as play() says: it must end in want,
 * and leave its one line in err. */
static void open_played(cudaError_t count_error, int devices, int driver, int runtime, cr_status want,
                        char err[static CR_ERRLEN])
{
    play(count_error, devices, driver, runtime);
    int dev = -1;
    cr_device_info info;
    err[0] = '\0';
    assert_int_equal(cr_cuda_open(NULL, &dev, &info, err, CR_ERRLEN), want);
    assert_null(strchr(err, '\n'));
}

/* Whether cr_cuda_driver_too_old calls error e of call too old, on a
 * machine with a GPU and the driver and runtime versions given. */
static bool too_old_with_a_gpu(int driver, int runtime, cudaError_t e, const char *call, char err[static CR_ERRLEN])
{
    play(cudaSuccess, 1, driver, runtime);
    return cr_cuda_driver_too_old(e, call, err, CR_ERRLEN);
}

static void expect_has(const char *text, const char *part)
{
    if (strstr(text, part) == NULL)
        fail_msg("'%s' lacks '%s'", text, part);
}

/* Each part checked on its own, so that a failure names the one missing. */
static void expect_has_all_(const char *text, const char *const *parts, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        expect_has(text, parts[i]);
}
#define countof(a) (sizeof(a) / sizeof((a)[0]))
#define expect_has_all(text, ...) \
    expect_has_all_(text, (const char *const[]){__VA_ARGS__}, countof(((const char *const[]){__VA_ARGS__})))

/* ---- a driver too old ---- */

/* An R550 driver (CUDA 12.4) under a build of CUDA 13.0: the machine has a
 * GPU, so this is no skip but an error naming both versions and the way out. */
static void test_driver_too_old_is_an_error_naming_both_versions(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    open_played(cudaErrorInsufficientDriver, 0, 12040, 13000, CR_ERR, err);
    expect_has_all(err, "CUDA driver too old", "cudaErrorInsufficientDriver", "supports CUDA 12.4", "needs CUDA 13.0",
                   "R580", "cuda-compat");
    /* The version comes from the runtime linked in, not a constant. */
    open_played(cudaErrorInsufficientDriver, 0, 12080, 13010, CR_ERR, err);
    expect_has_all(err, "supports CUDA 12.8", "needs CUDA 13.1");
}

static void test_call_needing_a_newer_driver_is_too_old(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    assert_true(too_old_with_a_gpu(13000, 13020, cudaErrorCallRequiresNewerDriver, "cudaFoo", err));
    assert_true(strncmp(err, "cudaFoo: CUDA driver too old", strlen("cudaFoo: CUDA driver too old")) == 0);
    expect_has_all(err, "supports CUDA 13.0", "needs CUDA 13.2");
}

/* A JIT of PTX newer than the driver (regspill's embedded PTX): named as
 * such, with the toolkit version the PTX needs. */
static void test_unsupported_ptx_names_the_driver(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    assert_true(too_old_with_a_gpu(12080, 13000, cudaErrorUnsupportedPtxVersion, "JIT", err));
    expect_has_all(err, "JIT: CUDA driver too old (cudaErrorUnsupportedPtxVersion)", "supports CUDA 12.8",
                   "PTX that needs CUDA 13.0", "cuda-compat");
    /* Through cr_cuda_error, as CR_CUDA_CHECK reports every failed call. */
    err[0] = '\0';
    assert_int_equal(cr_cuda_error(cudaErrorUnsupportedPtxVersion, "kernel launch", err, sizeof err), CR_ERR);
    expect_has(err, "kernel launch: CUDA driver too old");
}

/* Any other error stays the runtime's words. */
static void test_other_errors_keep_the_runtime_words(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    assert_false(too_old_with_a_gpu(13000, 13000, cudaErrorInvalidValue, "cudaMalloc", err));
    assert_int_equal(cr_cuda_error(cudaErrorInvalidValue, "cudaMalloc", err, sizeof err), CR_ERR);
    char want[CR_ERRLEN];
    snprintf(want, sizeof want, "cudaMalloc: %s", cudaGetErrorString(cudaErrorInvalidValue));
    assert_string_equal(err, want);
    /* A driver that is there but fails otherwise is an error too, not a skip. */
    open_played(cudaErrorSystemDriverMismatch, 0, 13000, 13000, CR_ERR, err);
    expect_has(err, "CUDA driver 13.0 is installed, but cudaGetDeviceCount failed");
}

/* ---- nothing to run on ---- */

static void test_no_driver_is_no_device(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    open_played(cudaErrorInsufficientDriver, 0, 0, 13000, CR_NO_DEVICE, err);
    expect_has(err, "no CUDA device: CUDA driver not found");
    /* Nor is an error without a driver "too old". */
    assert_false(cr_cuda_driver_too_old(cudaErrorUnsupportedPtxVersion, "JIT", err, sizeof err));
}

static void test_no_device_error_is_no_device(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    open_played(cudaErrorNoDevice, 0, 13000, 13000, CR_NO_DEVICE, err);
    expect_has_all(err, "no CUDA device: ", cudaGetErrorString(cudaErrorNoDevice));
}

static void test_zero_devices_is_no_device(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    open_played(cudaSuccess, 0, 13000, 13000, CR_NO_DEVICE, err);
    assert_string_equal(err, "no CUDA device: the driver reports none");
}

/* ---- what the device is ---- */

/* An H200 as its runtime describes it: 48 KiB of shared memory a block
 * gets, 227 KiB it may opt into, 228 KiB an SM has. */
static cudaError_t played_set_device(int dev) { return dev == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

static cudaError_t played_properties(struct cudaDeviceProp *p, int dev)
{
    (void)dev;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "NVIDIA H200");
    p->major = 9;
    p->multiProcessorCount = 132;
    p->warpSize = 32;
    p->totalGlobalMem = (size_t)150754820096ull;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsPerMultiProcessor = 2048;
    p->sharedMemPerBlock = 49152;
    p->sharedMemPerBlockOptin = 232448;
    p->sharedMemPerMultiprocessor = 233472;
    return cudaSuccess;
}

static cudaError_t played_attribute(int *v, enum cudaDeviceAttr a, int dev)
{
    (void)dev;
    *v = a == cudaDevAttrMaxSharedMemoryPerBlock             ? 49152
         : a == cudaDevAttrMaxSharedMemoryPerBlockOptin      ? 232448
         : a == cudaDevAttrMaxSharedMemoryPerMultiprocessor ? 233472
                                                             : 0;
    return cudaSuccess;
}

static void play_h200(void)
{
    play(cudaSuccess, 1, 13000, 13000);
    static const cr_cuda_probe probe = {.get_device_count = played_count,
                                        .driver_get_version = played_driver,
                                        .runtime_get_version = played_runtime,
                                        .set_device = played_set_device,
                                        .get_device_properties = played_properties,
                                        .device_get_attribute = played_attribute};
    cr_cuda_set_probe(&probe);
}

/* device.local_mem_bytes is the most shared memory one block can have
 * (what it may opt into), device.local_mem_default_bytes what it gets
 * without opting in, each named in device.local_mem_source: one
 * definition, so that every CUDA executable writes the same values. */
static void test_local_memory_is_the_opt_in_maximum_beside_the_default(void **state)
{
    (void)state;
    play_h200();
    int dev = -1;
    cr_device_info info;
    char err[CR_ERRLEN] = "";
    if (cr_cuda_open(NULL, &dev, &info, err, sizeof err) != CR_OK)
        fail_msg("%s", err);
    assert_string_equal(info.name, "NVIDIA H200");
    assert_int_equal(info.local_mem_bytes, 232448);
    assert_int_equal(info.local_mem_default_bytes, 49152);
    cr_meta meta;
    cr_meta_init(&meta);
    cr_meta_add_device(&meta, &info);
    assert_string_equal(cr_meta_get(&meta, "device.local_mem_bytes"), "232448");
    assert_string_equal(cr_meta_get(&meta, "device.local_mem_default_bytes"), "49152");
    expect_has_all(cr_meta_get(&meta, "device.local_mem_source"), "cudaDevAttrMaxSharedMemoryPerBlockOptin",
                   "opt into", "device.local_mem_default_bytes: cudaDevAttrMaxSharedMemoryPerBlock,");
    cr_meta_free(&meta);
}

/* Fails where a CUDA backend's source (the .cu files of cuda/<benchmark>,
 * read from the top of the tree, where tests run) says one of words: what
 * the device layer does once for all of them. */
static void expect_no_backend_says(const char *const *words, size_t n)
{
    glob_t g;
    assert_int_equal(glob("cuda/*/*.cu", 0, NULL, &g), 0);
    assert_true(g.gl_pathc > 0);
    for (size_t i = 0; i < g.gl_pathc; ++i) {
        FILE *f = fopen(g.gl_pathv[i], "r");
        assert_non_null(f);
        char line[512];
        while (fgets(line, sizeof line, f))
            for (size_t w = 0; w < n; ++w)
                if (strstr(line, words[w]))
                    fail_msg("%s does what the device layer does: %s", g.gl_pathv[i], line);
        fclose(f);
    }
    globfree(&g);
}

/* No backend writes a definition of local memory over the device layer's. */
static void test_no_backend_redefines_local_memory(void **state)
{
    (void)state;
    static const char *const words[] = {"local_mem_bytes =", "local_mem_default_bytes ="};
    expect_no_backend_says(words, countof(words));
}

/* ---- the L1 carve-out ---- */

static struct {
    const void *kernel;
    enum cudaFuncAttribute attribute;
    int value;
    cudaError_t answer;
} carve_out;

static cudaError_t played_func_attribute(const void *kernel, enum cudaFuncAttribute a, int value)
{
    carve_out.kernel = kernel;
    carve_out.attribute = a;
    carve_out.value = value;
    return carve_out.answer;
}

/* The function every chase kernel goes through gives the kernel the largest
 * L1 share; a refusal is one line naming the kernel. */
static void test_the_l1_carve_out_asks_for_the_most_l1(void **state)
{
    (void)state;
    static const cr_cuda_probe probe = {.func_set_attribute = played_func_attribute};
    cr_cuda_set_probe(&probe);
    static const int kernel = 0;
    char err[CR_ERRLEN] = "";
    carve_out.answer = cudaSuccess;
    assert_int_equal(cr_cuda_prefer_l1(&kernel, "chase", err, sizeof err), CR_OK);
    assert_ptr_equal(carve_out.kernel, &kernel);
    assert_int_equal(carve_out.attribute, cudaFuncAttributePreferredSharedMemoryCarveout);
    assert_int_equal(carve_out.value, cudaSharedmemCarveoutMaxL1);
    carve_out.answer = cudaErrorInvalidValue;
    assert_int_equal(cr_cuda_prefer_l1(&kernel, "chase_kind<CC_LOAD_CA>", err, sizeof err), CR_ERR);
    expect_has(err, "cudaFuncSetAttribute(the L1 carve-out of chase_kind<CC_LOAD_CA>): ");
    assert_null(strchr(err, '\n'));
}

/* ---- managed memory ---- */

static struct {
    size_t free_bytes;
    size_t asked;
    unsigned flags;
    int calls;
} managed;

static cudaError_t played_mem_info(size_t *free_bytes, size_t *total)
{
    *free_bytes = managed.free_bytes;
    *total = 2 * managed.free_bytes;
    return cudaSuccess;
}

static cudaError_t played_malloc_managed(void **p, size_t bytes, unsigned flags)
{
    static char somewhere;
    ++managed.calls;
    managed.asked = bytes;
    managed.flags = flags;
    *p = &somewhere;
    return cudaSuccess;
}

/* cr_cuda_malloc_managed with managed.free_bytes free: its status, and
 * whether the allocation was made (and then of what was asked). */
static cr_status managed_alloc(uint64_t bytes, uint64_t held, bool oversubscribe, char err[static CR_ERRLEN])
{
    static const cr_cuda_probe probe = {.mem_get_info = played_mem_info, .malloc_managed = played_malloc_managed};
    cr_cuda_set_probe(&probe);
    managed.calls = 0;
    void *p = (void *)&p;
    err[0] = '\0';
    cr_status st = cr_cuda_malloc_managed(&p, bytes, held, oversubscribe, err, CR_ERRLEN);
    assert_int_equal(managed.calls, st == CR_OK);
    if (st == CR_OK)
        assert_true(p != NULL && managed.asked == bytes && managed.flags == cudaMemAttachGlobal);
    else
        assert_null(p);
    return st;
}

#define GIB (UINT64_C(1) << 30)

/* More managed memory than the device has free is refused in one line
 * that says how much of each, and made only when asked for. */
static void test_managed_memory_beyond_the_free_is_refused(void **state)
{
    (void)state;
    char err[CR_ERRLEN];
    managed.free_bytes = (size_t)GIB;
    assert_int_equal(managed_alloc(2 * GIB, 0, false, err), CR_ERR);
    expect_has_all(err, "cudaMallocManaged of 2 GiB refused", "1 GiB of device memory free", "cudaMemGetInfo",
                   "can hang the GPU", "--oversubscribe");
    assert_null(strchr(err, '\n'));
    assert_int_equal(managed_alloc(2 * GIB, 0, true, err), CR_OK);
    /* What fits goes ahead; what the caller already holds counts. */
    assert_int_equal(managed_alloc(GIB / 2, GIB / 4, false, err), CR_OK);
    assert_int_equal(managed_alloc(GIB / 2, 3 * GIB / 4, false, err), CR_ERR);
    expect_has(err, "beside 768 MiB already allocated");
    assert_int_equal(managed_alloc(GIB / 2, 2 * GIB, false, err), CR_ERR);
}

/* No backend allocates managed memory but through the check. */
static void test_every_managed_allocation_is_checked(void **state)
{
    (void)state;
    static const char *const words[] = {"cudaMallocManaged("};
    expect_no_backend_says(words, countof(words));
}

/* ---- the listing ---- */

/* What fn writes on stderr while it runs, caught from the descriptor. */
static char *stderr_of(cr_status (*fn)(FILE *), FILE *out, cr_status *st)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    FILE *caught = tmpfile();
    assert_true(saved >= 0 && caught != NULL);
    assert_true(dup2(fileno(caught), STDERR_FILENO) >= 0);
    *st = fn(out);
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    static char text[1024];
    rewind(caught);
    size_t n = fread(text, 1, sizeof text - 1, caught);
    text[n] = '\0';
    fclose(caught);
    return text;
}

/* The listing fails as opening does, and says so in the executable's own
 * one-line shape ("<program>: error: ..." / "<program>: skipped: ..."),
 * writing nothing on its output. */
static void test_listing_says_why_in_one_line(void **state)
{
    (void)state;
    FILE *out = tmpfile();
    assert_non_null(out);
    cr_status st;
    play(cudaErrorInsufficientDriver, 0, 12040, 13000);
    const char *said = stderr_of(cr_cuda_list, out, &st);
    assert_int_equal(st, CR_ERR);
    assert_true(strncmp(said, "crossroof: error: ", strlen("crossroof: error: ")) == 0);
    expect_has(said, "supports CUDA 12.4");
    assert_int_equal(strchr(said, '\n') - said, (long)strlen(said) - 1);

    play(cudaSuccess, 0, 13000, 13000);
    said = stderr_of(cr_cuda_list, out, &st);
    assert_int_equal(st, CR_NO_DEVICE);
    assert_string_equal(said, "crossroof: skipped: no CUDA device: the driver reports none\n");
    assert_int_equal(ftell(out), 0);
    fclose(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_driver_too_old_is_an_error_naming_both_versions, restore_runtime),
        cmocka_unit_test_teardown(test_call_needing_a_newer_driver_is_too_old, restore_runtime),
        cmocka_unit_test_teardown(test_unsupported_ptx_names_the_driver, restore_runtime),
        cmocka_unit_test_teardown(test_other_errors_keep_the_runtime_words, restore_runtime),
        cmocka_unit_test_teardown(test_no_driver_is_no_device, restore_runtime),
        cmocka_unit_test_teardown(test_no_device_error_is_no_device, restore_runtime),
        cmocka_unit_test_teardown(test_zero_devices_is_no_device, restore_runtime),
        cmocka_unit_test_teardown(test_listing_says_why_in_one_line, restore_runtime),
        cmocka_unit_test_teardown(test_local_memory_is_the_opt_in_maximum_beside_the_default, restore_runtime),
        cmocka_unit_test(test_no_backend_redefines_local_memory),
        cmocka_unit_test_teardown(test_the_l1_carve_out_asks_for_the_most_l1, restore_runtime),
        cmocka_unit_test_teardown(test_managed_memory_beyond_the_free_is_refused, restore_runtime),
        cmocka_unit_test(test_every_managed_allocation_is_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
