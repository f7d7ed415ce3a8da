/* The design's handling of paths that make several transfers at once, of
 * the paths matrix and of the peer-to-peer topology, on a fake backend
 * whose times are exact: a repetition of path k takes 1 us + S / rate_k,
 * whatever its transfers, so every figure the CSV holds can be computed. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bandwidth/backend.h"
#include "bandwidth/tests/fake_device.h"
#include "bandwidth/tests/matrix_cells.h"

#include "tests/csv_reader.h"
#include "tests/in_process.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


enum { F_SLOW, F_FAST, F_DUPLEX, F_FAN_IN, F_PEER, F_PEER_KERNEL, N_FAKE };

#define FAKE(k, id_, from_, to_, engine_)                                                                             \
    {.key = k, .desc = k, .kind = BW_COPY, .phases = 1, .id = id_, .from = BW_MEM_##from_, .to = BW_MEM_##to_,        \
     .engine = BW_ENGINE_##engine_}
static const bw_path fake_paths[N_FAKE] = {
    FAKE("h2d-fake-slow", F_SLOW, HOST_PINNED, DEVICE, COPY),
    FAKE("h2d-fake-fast", F_FAST, HOST_PINNED, DEVICE, COPY),
    FAKE("duplex-fake", F_DUPLEX, HOST_PINNED, DEVICE, COPY),
    FAKE("all-to-one-fake", F_FAN_IN, DEVICE, DEVICE, COPY),
    FAKE("p2p-fake", F_PEER, PEER, DEVICE, COPY),
    FAKE("p2p-fake-kernel", F_PEER_KERNEL, PEER, DEVICE, KERNEL),
};
/* Bytes per nanosecond of one repetition, and transfers per repetition. */
static const double rate[N_FAKE] = {1.0, 2.0, 1.5, 4.0, 1.0, 1.0};
static const unsigned transfers_of[N_FAKE] = {1, 1, 2, 3, 1, 1};

static const void *prepared_src;
static uint64_t prepared_bytes;
static int spoil_path = -1;            /* the path whose result is spoiled, -1 none */
static unsigned spoil_transfer;        /* in which of its transfers */
static uint64_t spoil_byte;            /* at which byte of it */
static unsigned transfers_of_unsupported; /* transfers() asked of a path that does not run */

static bool runs(const bw_path *p) { return p->id != F_PEER && p->id != F_PEER_KERNEL; }

static size_t fake_list(const bw_path **out)
{
    *out = fake_paths;
    return N_FAKE;
}

static cr_status fake_supported(const bw_path *p, char *why, size_t len)
{
    if (runs(p))
        return CR_OK;
    snprintf(why, len, p->id == F_PEER ? "needs >= 2 devices (1 present)" : "no peer kernels here");
    return CR_UNSUPPORTED;
}

static unsigned fake_transfers(const bw_path *p)
{
    transfers_of_unsupported += !runs(p);
    return transfers_of[p->id];
}

static cr_status fake_prepare(const bw_path *p, uint64_t bytes, const void *src, char *err, size_t errlen)
{
    (void)p, (void)err, (void)errlen;
    prepared_src = src;
    prepared_bytes = bytes;
    return CR_OK;
}

static cr_status fake_run(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    (void)phase, (void)err, (void)errlen;
    *t = (cr_timing){.has_event = false, .host_ns = 1000 + (uint64_t)llround((double)prepared_bytes / rate[p->id])};
    return CR_OK;
}

/* Every transfer's destination, one after another, each the source. */
static cr_status fake_result(const bw_path *p, void *dst, uint64_t *sum, char *err, size_t errlen)
{
    (void)sum, (void)err, (void)errlen;
    for (unsigned k = 0; k < transfers_of[p->id]; ++k)
        memcpy((char *)dst + k * prepared_bytes, prepared_src, (size_t)prepared_bytes);
    if (p->id == spoil_path)
        ((unsigned char *)dst)[spoil_transfer * prepared_bytes + spoil_byte] ^= 0x01;
    return CR_OK;
}

/* The topology the fake reports: how many devices, and their links. */
static unsigned peer_devices;

static size_t fake_peer_links(bw_peer_link *out, size_t max, unsigned *devices)
{
    static const bw_peer_link links[] = {{0, 1, true, true, 0, "nvlink"}, {1, 0, false, false, -1, "pcie"}};
    *devices = peer_devices;
    size_t n = peer_devices >= 2 ? 2 : 0;
    for (size_t i = 0; i < n && i < max; ++i)
        out[i] = links[i];
    return n;
}

static bw_backend fake = {
    .base = FAKE_DEVICE_BASE,
    .paths = fake_list, .supported = fake_supported, .prepare = fake_prepare, .run = fake_run,
    .result = fake_result, .release = fake_release, .transfers = fake_transfers, .peer_links = fake_peer_links,
};

static char dir[64];
CR_SCRATCH_FIXTURES(dir, "bw-paths")

/* ---- the CSV ---- */

typedef struct {
    csv_record *rows; /* rows[0] is the header */
    int n, cols;
} table;

static table read_csv(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/bandwidth-fake.csv", dir);
    char *text = csv_slurp(path);
    assert_non_null(text);
    table t = {calloc(512, sizeof(csv_record)), 0, 0};
    assert_non_null(t.rows);
    const char *p = text;
    int got;
    while (t.n < 512 && (got = csv_next(&p, t.rows[t.n])) > 0) {
        if (t.n == 0)
            t.cols = got;
        assert_int_equal(got, t.cols);
        t.n++;
    }
    free(text);
    return t;
}

static const char *cell(const table *t, int row, const char *col)
{
    int c = csv_column(t->rows[0], t->cols, col);
    if (c < 0)
        fail_msg("no column %s", col);
    return t->rows[row][c];
}

static double num(const table *t, int row, const char *col) { return strtod(cell(t, row, col), NULL); }

/* The one row of variant in sweep (at size, unless NULL); fails on none or two. */
static int row_of(const table *t, const char *variant, const char *sweep, const char *size)
{
    int found = -1;
    for (int i = 1; i < t->n; ++i)
        if (strcmp(cell(t, i, "variant"), variant) == 0 && strcmp(cell(t, i, "sweep"), sweep) == 0 &&
            (size == NULL || strcmp(cell(t, i, "size_bytes"), size) == 0)) {
            if (found >= 0)
                fail_msg("two %s rows of %s", sweep, variant);
            found = i;
        }
    if (found < 0)
        fail_msg("no %s row of %s at %s", sweep, variant, size ? size : "any size");
    return found;
}

static int count_sweep(const table *t, const char *sweep)
{
    int n = 0;
    for (int i = 1; i < t->n; ++i)
        n += strcmp(cell(t, i, "sweep"), sweep) == 0;
    return n;
}

static void expect_has(const table *t, int row, const char *col, const char *text)
{
    if (strstr(cell(t, row, col), text) == NULL)
        fail_msg("%s '%s' lacks '%s'", col, cell(t, row, col), text);
}

static void expect_near(double got, double want, const char *what)
{
    if (!(fabs(got - want) <= 1e-6 * fabs(want)))
        fail_msg("%s: %.9g, want %.9g", what, got, want);
}

/* GB/s of one repetition of path id at bytes, counting every transfer. */
static double fake_GBps(int id, double bytes) { return transfers_of[id] * bytes / (1000 + llround(bytes / rate[id])); }

/* Runs the design on backend be over 4K and 8K (extra: more arguments, or
 * NULL); its exit status. The CSV is then in dir. */
static int run_backend(const bw_backend *be, const char *extra_opt, const char *extra_val)
{
    char *argv[] = {"bandwidth-fake", "--sizes", "4K:8K:x2", "--reps", "3:4", "--warmup", "1", "--max-time", "0.2",
                    "--no-bind", "--out", dir, (char *)extra_opt, (char *)extra_val, NULL};
    int argc = extra_opt ? 14 : 12;
    transfers_of_unsupported = 0;
    char err_path[128];
    snprintf(err_path, sizeof err_path, "%s/stderr", dir);
    in_process io = in_process_begin(err_path);
    int rc = bandwidth_main(argc, argv, be);
    in_process_end(io);
    return rc;
}

static int run_design(const char *extra_opt, const char *extra_val) { return run_backend(&fake, extra_opt, extra_val); }

/* ---- several transfers a repetition ---- */

/* A path of N transfers moves N x S a repetition: its size rows count all
 * of them and say how many; its fit stays per transfer (b is the rate of
 * one while the others run); transfers() is asked of running paths only. */
static void test_transfers_count_in_rows_and_not_in_the_fit(void **state)
{
    (void)state;
    spoil_path = -1;
    peer_devices = 1;
    assert_int_equal(run_design(NULL, NULL), 0);
    assert_int_equal(transfers_of_unsupported, 0);
    table t = read_csv();
    static const struct {
        const char *key;
        int id;
        const char *param;
    } cases[] = {{"h2d-fake-slow", F_SLOW, NULL}, {"duplex-fake", F_DUPLEX, "transfers=2"},
                 {"all-to-one-fake", F_FAN_IN, "transfers=3"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        for (double bytes = 4096; bytes <= 8192; bytes *= 2) {
            char size[16];
            snprintf(size, sizeof size, "%.0f", bytes);
            int r = row_of(&t, cases[c].key, "size", size);
            assert_string_equal(cell(&t, r, "valid"), "1");
            expect_near(num(&t, r, "bytes_per_rep"), transfers_of[cases[c].id] * bytes, "bytes_per_rep");
            expect_near(num(&t, r, "figure"), fake_GBps(cases[c].id, bytes), "figure");
            if (cases[c].param)
                expect_has(&t, r, "params", cases[c].param);
            else
                assert_null(strstr(cell(&t, r, "params"), "transfers="));
        }
        int fit = row_of(&t, cases[c].key, "fit", NULL);
        assert_string_equal(cell(&t, fit, "valid"), "1");
        /* T(S) = 1 us + S / rate: b is one transfer's rate, c 1 us (the
         * times are rounded to whole nanoseconds) */
        if (!(fabs(num(&t, fit, "figure") / rate[cases[c].id] - 1) < 2e-3))
            fail_msg("%s: b %s GB/s, want %g", cases[c].key, cell(&t, fit, "figure"), rate[cases[c].id]);
        if (cases[c].param) {
            expect_has(&t, fit, "params", cases[c].param);
            expect_has(&t, fit, "note", "b per transfer");
        }
    }
    free(t.rows);
}

/* The result's transfers are each checked against the source, and the
 * note names the transfer and the byte of the first difference. */
static void expect_spoiled(int path, unsigned transfer, uint64_t byte, const char *note)
{
    spoil_path = path;
    spoil_transfer = transfer;
    spoil_byte = byte;
    peer_devices = 1;
    assert_int_equal(run_design(NULL, NULL), 1);
    spoil_path = -1;
    table t = read_csv();
    int invalid = 0;
    for (int i = 1; i < t.n; ++i)
        invalid += strcmp(cell(&t, i, "valid"), "0") == 0 && strcmp(cell(&t, i, "sweep"), "size") == 0;
    assert_int_equal(invalid, 2); /* both sizes */
    int r = row_of(&t, fake_paths[path].key, "size", "8192");
    assert_string_equal(cell(&t, r, "valid"), "0");
    expect_has(&t, r, "note", note);
    /* A path with no valid point at the largest size has no matrix row. */
    for (int i = 1; i < t.n; ++i)
        if (strcmp(cell(&t, i, "sweep"), "matrix") == 0)
            assert_string_not_equal(cell(&t, i, "variant"), fake_paths[path].key);
    free(t.rows);
}

static void test_a_spoiled_transfer_is_named(void **state)
{
    (void)state;
    expect_spoiled(F_DUPLEX, 1, 7, "destination of transfer 2 of 2 differs from the source, first at byte 7");
    expect_spoiled(F_FAN_IN, 2, 100, "destination of transfer 3 of 3 differs from the source, first at byte 100");
    expect_spoiled(F_FAN_IN, 0, 4095, "destination of transfer 1 of 3 differs from the source, first at byte 4095");
}

/* ---- the matrix ---- */

/* One row per cell at the largest size: the faster of two single copies
 * between the same memories, the duplex and the fan-in in cells of their
 * own, and the unsupported peer cells with their reasons. */
static void test_matrix_keeps_the_best_path_of_each_cell(void **state)
{
    (void)state;
    spoil_path = -1;
    peer_devices = 1;
    assert_int_equal(run_design(NULL, NULL), 0);
    table t = read_csv();
    assert_int_equal(count_sweep(&t, "matrix"), 5);
    static const matrix_cell measured[] = {
        {"from=host-pinned;to=device;engine=copy", "h2d-fake-fast"},
        {"from=host-pinned;to=device;engine=copy;transfers=2", "duplex-fake"},
        {"from=device;to=device;engine=copy;transfers=3", "all-to-one-fake"},
    };
    for (size_t c = 0; c < sizeof measured / sizeof measured[0]; ++c) {
        int m = row_of(&t, measured[c].paths, "matrix", "8192"), s = row_of(&t, measured[c].paths, "size", "8192");
        assert_string_equal(cell(&t, m, "params"), measured[c].params);
        assert_string_equal(cell(&t, m, "unit"), "GB/s");
        assert_string_equal(cell(&t, m, "valid"), "1");
        assert_string_equal(cell(&t, m, "figure"), cell(&t, s, "figure"));
        assert_string_equal(cell(&t, m, "n"), cell(&t, s, "n"));
    }
    int p2p = row_of(&t, "p2p-fake", "matrix", NULL);
    assert_string_equal(cell(&t, p2p, "params"), "from=peer;to=device;engine=copy");
    assert_string_equal(cell(&t, p2p, "stop"), "unsupported");
    assert_string_equal(cell(&t, p2p, "note"), "not supported: needs >= 2 devices (1 present)");
    int kernel = row_of(&t, "p2p-fake-kernel", "matrix", NULL);
    assert_string_equal(cell(&t, kernel, "params"), "from=peer;to=device;engine=kernel");
    assert_string_equal(cell(&t, kernel, "note"), "not supported: no peer kernels here");
    free(t.rows);
}

/* Only the selected paths: the slower copy alone stands for its cell. */
static void test_matrix_of_selected_paths(void **state)
{
    (void)state;
    spoil_path = -1;
    peer_devices = 1;
    assert_int_equal(run_design("--paths", "h2d-fake-slow,p2p-fake"), 0);
    table t = read_csv();
    assert_int_equal(count_sweep(&t, "matrix"), 2);
    assert_string_equal(cell(&t, row_of(&t, "h2d-fake-slow", "matrix", "8192"), "params"),
                        "from=host-pinned;to=device;engine=copy");
    row_of(&t, "p2p-fake", "matrix", NULL);
    free(t.rows);
}

/* ---- the peer-to-peer topology ---- */

/* Run with the fake's topology hook as given: the one topology row says why
 * there is no table. */
static void expect_no_topology(size_t (*hook)(bw_peer_link *, size_t, unsigned *), const char *note)
{
    fake.peer_links = hook;
    peer_devices = 1;
    assert_int_equal(run_design(NULL, NULL), 0);
    fake.peer_links = fake_peer_links;
    table t = read_csv();
    int r = row_of(&t, "p2p-topology", "p2p-topology", NULL);
    assert_string_equal(cell(&t, r, "stop"), "unsupported");
    assert_string_equal(cell(&t, r, "note"), note);
    assert_string_equal(cell(&t, r, "figure"), "");
    free(t.rows);
}

static void test_topology_without_a_query(void **state)
{
    (void)state;
    expect_no_topology(NULL, "not supported: the fake API has no peer-to-peer query");
}

static void test_topology_of_one_device(void **state)
{
    (void)state;
    expect_no_topology(fake_peer_links, "not supported: needs >= 2 devices (1 present)");
}

static void test_topology_of_two_devices(void **state)
{
    (void)state;
    peer_devices = 2;
    assert_int_equal(run_design(NULL, NULL), 0);
    peer_devices = 1;
    table t = read_csv();
    assert_int_equal(count_sweep(&t, "p2p-topology"), 2);
    static const char *const want[] = {"from=0;to=1;access=1;native_atomics=1;rank=0;link=nvlink",
                                       "from=1;to=0;access=0;native_atomics=0;rank=-1;link=pcie"};
    int k = 0;
    for (int i = 1; i < t.n; ++i)
        if (strcmp(cell(&t, i, "sweep"), "p2p-topology") == 0) {
            assert_string_equal(cell(&t, i, "params"), want[k++]);
            assert_string_equal(cell(&t, i, "valid"), "1");
            assert_string_equal(cell(&t, i, "stop"), "");
        }
    free(t.rows);
}

/* ---- the local-memory path ---- */

/* A fake whose one path is the local-memory stream: widths up to 8 words,
 * its result what the kernels compute, tile by tile and round by round,
 * unless a fault is asked for, and a repetition of vectors of v words
 * taking 1 us + the local traffic / (16 v) bytes per ns. */
static const bw_path local_path = {.key = BW_LOCAL_PATH_KEY, .desc = "local", .kind = BW_KERNEL_LOCAL, .phases = 1,
                                   .from = BW_MEM_LOCAL, .to = BW_MEM_LOCAL, .engine = BW_ENGINE_KERNEL};
enum { LOCAL_RIGHT, LOCAL_SPOILED_WORD, LOCAL_UNROTATED };
static int local_fault;
static unsigned prepared_width;

static size_t local_list(const bw_path **out)
{
    *out = &local_path;
    return 1;
}

static cr_status local_supported(const bw_path *p, char *why, size_t len)
{
    (void)p, (void)why, (void)len;
    return CR_OK;
}

static cr_status local_prepare(const bw_path *p, unsigned v, uint64_t bytes, const void *src, char *err,
                               size_t errlen)
{
    if (v > 8) {
        snprintf(err, errlen, "no vector of %u words here", v);
        return CR_UNSUPPORTED;
    }
    prepared_width = v;
    return fake_prepare(p, bytes, src, err, errlen);
}

/* The kernel's rounds on one tile of vectors of v words: the two halves
 * taking turns, each round moving row k, column l to BW_LOCAL_TO. */
static void stream_tile(const uint32_t *in, uint32_t *out, unsigned v)
{
    enum { WORDS = BW_LOCAL_TILE_BYTES / 4 };
    static uint32_t a[WORDS], b[WORDS];
    uint32_t *from = a, *to = b;
    const unsigned loads = BW_LOCAL_LOADS(v);
    memcpy(a, in, sizeof a);
    for (unsigned r = 0; r < BW_LOCAL_ROUNDS; ++r) {
        for (unsigned k = 0; k < loads; ++k)
            for (unsigned l = 0; l < BW_LOCAL_GROUP; ++l)
                memcpy(to + BW_LOCAL_TO(k, l, loads) * v, from + (k * BW_LOCAL_GROUP + l) * v, v * 4);
        uint32_t *swap = from;
        from = to;
        to = swap;
    }
    memcpy(out, from, sizeof a);
}

static cr_status local_result(const bw_path *p, void *dst, uint64_t *sum, char *err, size_t errlen)
{
    (void)p, (void)sum, (void)err, (void)errlen;
    const uint32_t *in = prepared_src;
    uint32_t *out = dst;
    const uint64_t words = BW_LOCAL_TILE_BYTES / 4;
    for (uint64_t t = 0; t < prepared_bytes / BW_LOCAL_TILE_BYTES; ++t)
        if (local_fault == LOCAL_UNROTATED)
            memcpy(out + t * words, in + t * words, BW_LOCAL_TILE_BYTES);
        else
            stream_tile(in + t * words, out + t * words, prepared_width);
    if (local_fault == LOCAL_SPOILED_WORD)
        out[1500] ^= 1u << 20;
    return CR_OK;
}

/* The local traffic of the fake's buffer, one compute unit of 64 tiles. */
#define LOCAL_BYTES (64.0 * BW_LOCAL_TILE_BYTES)
#define LOCAL_TRAFFIC (LOCAL_BYTES * 2 * BW_LOCAL_ROUNDS)
static double local_ns(unsigned v) { return 1000 + LOCAL_TRAFFIC / (16.0 * v); }

static cr_status local_run(const bw_path *p, unsigned phase, cr_timing *t, char *err, size_t errlen)
{
    (void)p, (void)phase, (void)err, (void)errlen;
    *t = (cr_timing){.has_event = false, .host_ns = (uint64_t)local_ns(prepared_width)};
    return CR_OK;
}

static const bw_backend fake_local = {
    .base = FAKE_DEVICE_BASE,
    .paths = local_list, .supported = local_supported, .prepare = fake_prepare, .run = local_run,
    .result = local_result, .release = fake_release, .prepare_local = local_prepare,
};

/* The fake device with a local memory of 1 byte per clock on its one
 * compute unit at 1 MHz: a local-memory peak of 0.001 GB/s. */
static cr_status slow_local_open(const char *spec, cr_device_info *info, char *err, size_t errlen)
{
    cr_status st = fake_open(spec, info, err, errlen);
    info->clock_mhz = 1;
    info->local_bytes_per_clock = 1;
    snprintf(info->local_basis, sizeof info->local_basis, "planted");
    return st;
}

/* Runs the design on the local fake with fault; checks its exit status and
 * returns the CSV. */
static table run_local(int fault, int status)
{
    local_fault = fault;
    assert_int_equal(run_backend(&fake_local, NULL, NULL), status);
    local_fault = LOCAL_RIGHT;
    return read_csv();
}

/* The row of the local path's width v, -1 if none. */
static int local_row(const table *t, unsigned v)
{
    char want[16];
    snprintf(want, sizeof want, "vector=%u;", v);
    for (int i = 1; i < t->n; ++i)
        if (strcmp(cell(t, i, "variant"), BW_LOCAL_PATH_KEY) == 0 && strcmp(cell(t, i, "sweep"), "local-width") == 0 &&
            strncmp(cell(t, i, "params"), want, strlen(want)) == 0)
            return i;
    return -1;
}

/* One row per width over the design's buffer, whatever --sizes says: the
 * local traffic of every round, the loads per barrier and the global
 * bytes beside it, no host reference and no fit; a width the backend has
 * not is a row saying why; the matrix takes the best width. */
static void test_local_memory_rows(void **state)
{
    (void)state;
    table t = run_local(LOCAL_RIGHT, 0);
    static const unsigned widths[] = {1, 2, 4, 8};
    for (size_t i = 0; i < sizeof widths / sizeof *widths; ++i) {
        int r = local_row(&t, widths[i]);
        assert_true(r > 0);
        assert_string_equal(cell(&t, r, "valid"), "1");
        assert_string_equal(cell(&t, r, "size_bytes"), "524288");
        expect_near(num(&t, r, "bytes_per_rep"), LOCAL_TRAFFIC, "local bytes");
        expect_near(num(&t, r, "figure"), LOCAL_TRAFFIC / local_ns(widths[i]), "local GB/s");
        char params[192];
        snprintf(params, sizeof params,
                 "vector=%u;loads_per_barrier=%u;group=64;rounds=255;local_bytes=267386880;global_bytes=1048576",
                 widths[i], 32 / widths[i]);
        assert_string_equal(cell(&t, r, "params"), params);
        assert_string_equal(cell(&t, r, "work_group"), "64");
        assert_string_equal(cell(&t, r, "work_items"), "4096");
        assert_string_equal(cell(&t, r, "ref_ratio"), "");
        assert_string_equal(cell(&t, r, "unit"), "GB/s");
    }
    int u = local_row(&t, 16);
    assert_string_equal(cell(&t, u, "stop"), "unsupported");
    expect_has(&t, u, "note", "not supported: no vector of 16 words here");
    assert_int_equal(count_sweep(&t, "fit"), 0);
    assert_int_equal(count_sweep(&t, "local-width"), 5);
    for (int i = 1; i < t.n; ++i) /* no transfer-size rows */
        assert_false(strcmp(cell(&t, i, "variant"), BW_LOCAL_PATH_KEY) == 0 && strcmp(cell(&t, i, "sweep"), "size") == 0);
    int m = row_of(&t, BW_LOCAL_PATH_KEY, "matrix", NULL);
    assert_string_equal(cell(&t, m, "params"), "from=local;to=local;engine=kernel;vector=8");
    expect_near(num(&t, m, "figure"), LOCAL_TRAFFIC / local_ns(8), "the best width's GB/s");
    free(t.rows);
}

/* Every measured width is judged against the local-memory peak, which the
 * metadata gives with its source. */
static void test_local_memory_rows_above_the_local_peak_are_flagged(void **state)
{
    (void)state;
    bw_backend slow = fake_local;
    slow.base.open = slow_local_open;
    assert_int_equal(run_backend(&slow, NULL, NULL), 0);
    table t = read_csv();
    for (unsigned v = 1; v <= 8; v *= 2) {
        int r = local_row(&t, v);
        expect_has(&t, r, "flags", "above-peak");
        expect_has(&t, r, "note", "the local-memory peak of 0.001 GB/s (1 CUs x 1 MHz");
    }
    assert_null(strstr(cell(&t, local_row(&t, 16), "flags"), "above-peak")); /* not measured */
    free(t.rows);
    char path[128];
    snprintf(path, sizeof path, "%s/bandwidth-fake.meta.csv", dir);
    char *meta = csv_slurp(path);
    assert_non_null(strstr(meta, "\npeak.local_GBps,0.001\n"));
    assert_non_null(strstr(meta, "\npeak.local_source,1 CUs x 1 MHz (the clock the device reports) x 1 bytes per "
                                 "clock per CU; planted\n"));
    free(meta);
}

/* The destination is checked word for word against the host's replay of
 * the rounds: a spoiled word is named, and a plain copy that never ran
 * them fails at the first word; the matrix has no local cell then. */
static void test_local_memory_verification(void **state)
{
    (void)state;
    table spoiled = run_local(LOCAL_SPOILED_WORD, 1), unrotated = run_local(LOCAL_UNROTATED, 1);
    for (unsigned v = 1; v <= 8; v *= 2) {
        int r = local_row(&spoiled, v);
        assert_string_equal(cell(&spoiled, r, "valid"), "0");
        expect_has(&spoiled, r, "note", "destination differs from the host's replay of the rounds, first at word 1500");
        r = local_row(&unrotated, v);
        assert_string_equal(cell(&unrotated, r, "valid"), "0");
        expect_has(&unrotated, r, "note", "first at word 0");
    }
    assert_int_equal(count_sweep(&spoiled, "matrix"), 0);
    free(spoiled.rows);
    free(unrotated.rows);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_transfers_count_in_rows_and_not_in_the_fit,
          test_a_spoiled_transfer_is_named, test_matrix_keeps_the_best_path_of_each_cell,
          test_matrix_of_selected_paths, test_topology_without_a_query, test_topology_of_one_device,
          test_topology_of_two_devices, test_local_memory_rows, test_local_memory_rows_above_the_local_peak_are_flagged,
          test_local_memory_verification)
