/* A chain in pieces: the layout (which piece holds which words, how many
 * pieces a size needs, the refusals), and the walk over the pieces with
 * the chase loop the OpenCL kernel uses, which must visit every line of
 * every piece in the cycle's order and end where the cycle says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "latency/perm.h"
#include "latency/pieces.h"

#include <stdlib.h>
#include <string.h>

#define LT_U64 uint64_t
#include "latency/chase.h"

static void test_layout_of_a_chain(void **state)
{
    (void)state;
    lt_layout l;
    /* 1000 words in pieces of 1 KiB (128 words): 7 full pieces and 104 words. */
    assert_int_equal(lt_layout_make(&l, 1000, 1024), 0);
    assert_int_equal(l.pieces, 8);
    assert_int_equal(l.shift, 7);
    assert_int_equal(lt_piece_first(&l, 3), 384);
    assert_int_equal(lt_piece_words(&l, 0), 128);
    assert_int_equal(lt_piece_words(&l, 7), 1000 - 7 * 128);
    uint64_t sum = 0;
    for (unsigned p = 0; p < l.pieces; ++p)
        sum += lt_piece_words(&l, p);
    assert_int_equal(sum, 1000);
    /* Exactly full pieces, and a chain smaller than one piece. */
    assert_int_equal(lt_layout_make(&l, 1024, 1024), 0);
    assert_int_equal(l.pieces, 8);
    assert_int_equal(lt_piece_words(&l, 7), 128);
    assert_int_equal(lt_layout_make(&l, 100, 1024), 0);
    assert_int_equal(l.pieces, 1);
    assert_int_equal(lt_piece_words(&l, 0), 100);
    /* Piece size 0: one piece, whatever the size. */
    assert_int_equal(lt_layout_make(&l, UINT64_C(1) << 40, 0), 0);
    assert_int_equal(l.pieces, 1);
    assert_int_equal(lt_piece_words(&l, 0), UINT64_C(1) << 40);
    assert_int_equal(((UINT64_C(1) << 40) - 1) >> l.shift, 0);
}

static void test_layout_refusals(void **state)
{
    (void)state;
    lt_layout l = {.words = 7};
    assert_int_equal(lt_layout_make(&l, 1000, 1000), -1);   /* not a power of two */
    assert_int_equal(lt_layout_make(&l, 1000, 4), -1);      /* less than a word */
    assert_int_equal(lt_layout_make(&l, 0, 1024), -1);      /* no chain */
    /* LT_MAX_PIECES pieces, and one word more. */
    assert_int_equal(lt_layout_make(&l, LT_MAX_PIECES * 128, 1024), 0);
    assert_int_equal(l.pieces, LT_MAX_PIECES);
    assert_int_equal(lt_layout_make(&l, LT_MAX_PIECES * 128 + 1, 1024), -1);
    assert_int_equal(l.words, LT_MAX_PIECES * 128); /* untouched by the refusal */
    char err[128];
    assert_int_equal(lt_layout_check(&l, LT_MAX_PIECES, "x", err, sizeof err), CR_OK);
    assert_int_equal(lt_layout_check(&l, 1, "the test", err, sizeof err), CR_ERR);
    assert_non_null(strstr(err, "the test walks 1 at most"));
}

static void test_pieces_and_powers(void **state)
{
    (void)state;
    assert_int_equal(lt_pieces_for(1024, 1024), 1);
    assert_int_equal(lt_pieces_for(1025, 1024), 2);
    assert_int_equal(lt_pieces_for(UINT64_C(3) << 30, UINT64_C(256) << 20), 12);
    assert_int_equal(lt_pow2_floor(1), 1);
    assert_int_equal(lt_pow2_floor(300 << 20), 256 << 20);
    assert_int_equal(lt_pow2_floor(UINT64_C(1) << 31), UINT64_C(1) << 31);
    assert_int_equal(lt_pow2_floor(UINT64_MAX), UINT64_C(1) << 63);
}

/* The chain copied into separate buffers, one per piece, as a backend
 * uploads it. */
static uint64_t **split(const lt_chain *c, const lt_layout *l)
{
    uint64_t **bufs = calloc(l->pieces, sizeof *bufs);
    assert_non_null(bufs);
    for (unsigned p = 0; p < l->pieces; ++p) {
        bufs[p] = malloc(lt_piece_words(l, p) * sizeof(uint64_t));
        assert_non_null(bufs[p]);
        memcpy(bufs[p], c->next + lt_piece_first(l, p), lt_piece_words(l, p) * sizeof(uint64_t));
    }
    return bufs;
}

static uint64_t **Pieces; /* of the walk under test, for PIECE */
static unsigned NPieces;

static const uint64_t *piece(uint64_t p)
{
    assert_true(p < NPieces); /* a word outside every piece would be a wild read */
    return Pieces[p];
}
#define PIECE(p) piece(p)

/* Walks the pieces one step at a time with the kernel's loop, checking
 * each word against the cycle: every line of every piece once, in order,
 * back at the start after all of them; and a long walk ends where the
 * cycle says. */
static void assert_pieces_walk_the_cycle(const lt_chain *c, const lt_layout *l)
{
    Pieces = split(c, l);
    NPieces = l->pieces;
    uint64_t mask = (UINT64_C(1) << l->shift) - 1;
    unsigned char *seen = calloc(c->lines, 1);
    unsigned *visits = calloc(l->pieces, sizeof *visits);
    assert_non_null(seen);
    assert_non_null(visits);
    uint64_t idx = 0;
    for (uint64_t k = 0; k < c->lines; ++k) {
        assert_int_equal(idx, lt_chain_word(c, k));
        assert_false(seen[idx / c->line_words]);
        seen[idx / c->line_words] = 1;
        visits[idx >> l->shift]++;
        LT_CHASE_PIECES(PIECE, idx, 1, l->shift, mask);
    }
    assert_int_equal(idx, 0);
    for (unsigned p = 0; p < l->pieces; ++p) /* each piece holds its share of lines */
        assert_int_equal(visits[p], lt_piece_words(l, p) / c->line_words);
    uint64_t steps = 7 * c->lines + 13;
    idx = lt_chain_word(c, 5);
    LT_CHASE_PIECES(PIECE, idx, steps, l->shift, mask);
    assert_int_equal(idx, lt_chain_word(c, lt_chain_advance(c, 5, steps)));
    for (unsigned p = 0; p < l->pieces; ++p)
        free(Pieces[p]);
    free(Pieces);
    free(seen);
    free(visits);
}

static void test_one_cycle_through_every_piece(void **state)
{
    (void)state;
    /* Lines of 64 B (8 words) in pieces of 2 KiB .. 64 KiB: full pieces,
     * a short last piece, LT_MAX_PIECES pieces, one piece. */
    static const struct {
        uint64_t lines, piece_bytes;
        unsigned pieces;
    } cases[] = {{64, 2048, 2}, {100, 2048, 4}, {1024, 2048, 32}, {1000, 4096, 16}, {513, 65536, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        lt_chain c;
        lt_layout l;
        assert_int_equal(lt_chain_build(&c, cases[i].lines, 8, 3 + i), 0);
        assert_int_equal(lt_layout_make(&l, c.lines * c.line_words, cases[i].piece_bytes), 0);
        assert_int_equal(l.pieces, cases[i].pieces);
        assert_pieces_walk_the_cycle(&c, &l);
        lt_chain_free(&c);
    }
}

TEST_MAIN(NULL, NULL, test_layout_of_a_chain, test_layout_refusals, test_pieces_and_powers,
          test_one_cycle_through_every_piece)
