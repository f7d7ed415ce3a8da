/* One device seen through two APIs: a GPU measured through CUDA and through
 * OpenCL in one run is two device directories whose metadata name the same
 * device. The report sets their headline numbers side by side. */
#ifndef CR_REPORT_BACKENDS_H
#define CR_REPORT_BACKENDS_H

#include "report/model.h"

/* Adds to out (zeroed by the caller, freed with rp_table_free on each of
 * its tables) one table per such pair of devices, CUDA's first where it is
 * one of the two: every headline number both hold, and the second's ratio
 * to the first. At most RP_MAX_TABLES pairs; returns how many tables. */
size_t rp_backend_tables(const rp_run *run, rp_section *out);

#endif
