/* A measured point's energy as its row carries it: the measurement turned
 * into a row and judged as the session records it, then read back from
 * the CSV the writer makes of it. Include after cmocka.h. */
#ifndef CR_ENERGY_ROW_H
#define CR_ENERGY_ROW_H

#include "measure.h"
#include "plausibility.h"
#include "results.h"
#include "tests/csv_reader.h"
#include "tests/result_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The row of measurement m moving bytes per repetition, as recorded. */
static inline cr_result energy_row_of(const cr_measurement *m, double bytes)
{
    cr_result r = {.bytes_per_rep = bytes, .ops_per_rep = bytes};
    cr_measurement_to_row(m, &r);
    cr_result_energy_per_unit(&r);
    return r;
}

/* The cell of column in r's CSV line, as a reader sees it. */
static inline const char *energy_row_cell(const cr_result *r, const char *column)
{
    static csv_record header, row;
    static char cell[CSV_FIELD_LEN];
    size_t len;
    char *text = result_text(r, &len);
    const char *p = text;
    int nh = csv_next(&p, header), nr = csv_next(&p, row);
    assert_int_equal(nh, nr);
    int c = csv_column(header, nh, column);
    assert_true(c >= 0);
    snprintf(cell, sizeof cell, "%s", row[c]);
    free(text);
    return cell;
}

/* The row keeps its sensor but no energy of its own, is flagged with
 * flag, and its note says why. */
static inline void expect_energy_left_out(const cr_result *r, const char *flag)
{
    if (strstr(r->flags, flag) == NULL)
        fail_msg("flags '%s' lack %s", r->flags, flag);
    char reason[64];
    snprintf(reason, sizeof reason, "%s: ", flag);
    if (strstr(r->note, reason) == NULL)
        fail_msg("note '%s' gives no reason for %s", r->note, flag);
    static const char *const empty[] = {"energy_j", "power_w", "pj_per_byte", "pj_per_op"};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; ++i)
        if (energy_row_cell(r, empty[i])[0] != '\0')
            fail_msg("%s is '%s', not empty", empty[i], energy_row_cell(r, empty[i]));
    assert_true(energy_row_cell(r, "energy_sensor")[0] != '\0');
}

/* A point whose repetitions left the device idle (busy at most 1% of the
 * window) though the sensor counted energy: its row is flagged energy-idle
 * and has none of its own. */
static inline void expect_idle_point(const cr_measurement *m)
{
    assert_true(m->energy.measured);
    assert_true(m->energy.energy_j > 0);
    assert_true(m->energy.busy > 0 && m->energy.busy <= 0.01);
    cr_result r = energy_row_of(m, 1e6);
    assert_string_equal(r.flags, "energy-idle");
    expect_energy_left_out(&r, "energy-idle");
    assert_non_null(strstr(r.params, "energy_busy="));
}

/* A point that kept the device busy and drew less than the static power:
 * its row is flagged energy-below-static, its energy left out rather than
 * written negative. */
static inline void expect_below_static_point(const cr_measurement *m)
{
    assert_true(m->energy.measured);
    assert_true(m->energy.energy_j < 0);
    assert_true(m->energy.busy >= CR_ENERGY_MIN_BUSY);
    cr_result r = energy_row_of(m, 1e6);
    assert_string_equal(r.flags, "energy-below-static");
    expect_energy_left_out(&r, "energy-below-static");
    assert_true(r.energy_j == 0 && r.power_w == 0);
}

#endif
