/* Notes said before a run starts are held back, in order, so that a
 * refusal found later is the only line; those beyond the room kept are
 * counted, never silently lost. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "session.h"

#include <stdio.h>
#include <string.h>

static void test_notes_wait_in_order(void **state)
{
    (void)state;
    static cr_session s;
    memset(&s, 0, sizeof s);
    cr_session_note(&s, "first %d", 1);
    cr_session_note(&s, "second");
    assert_int_equal(s.n_notes, 2);
    assert_string_equal(s.notes[0], "first 1");
    assert_string_equal(s.notes[1], "second");
    assert_int_equal(s.n_notes_dropped, 0);
}

static void test_notes_beyond_the_room_are_counted(void **state)
{
    (void)state;
    static cr_session s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < CR_SESSION_NOTES + 3; ++i)
        cr_session_note(&s, "note %d", i);
    assert_int_equal(s.n_notes, CR_SESSION_NOTES);
    assert_int_equal(s.n_notes_dropped, 3);
    char last[32];
    snprintf(last, sizeof last, "note %d", CR_SESSION_NOTES - 1);
    assert_string_equal(s.notes[CR_SESSION_NOTES - 1], last);
}

TEST_MAIN(NULL, NULL, test_notes_wait_in_order, test_notes_beyond_the_room_are_counted)
