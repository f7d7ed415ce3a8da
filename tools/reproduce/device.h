/* A device directory of a run, read whole for the reproduction: every CSV
 * in it through the shared reader, so that a file the suite would refuse
 * elsewhere is refused here too, named. */
#ifndef CR_REPRODUCE_DEVICE_H
#define CR_REPRODUCE_DEVICE_H

#include "reproduce/reproduce.h"

enum { RR_BAD_DIR = -1, RR_BAD_FILE = -2 };
/* 0; RR_BAD_DIR with "PATH: why" (not a directory, no results in it);
 * RR_BAD_FILE with "PATH:LINE: why" (a CSV the reader refuses). */
int rr_device_load(rr_device *d, const char *path, char *err, size_t errlen);
void rr_device_free(rr_device *d);
/* Some benchmark's results with at least one row; NULL where none. */
const rr_file *rr_results_any(const rr_device *d);

#endif
