/* OpenMP runtime settings that must be in the environment before the
 * runtime initialises, i.e. before main() runs. */
#ifndef CR_OMP_ENV_H
#define CR_OMP_ENV_H

/* A host reference that spins while waiting steals the cores a CPU or APU
 * device needs between its own repetitions. Unless the user chose an OpenMP
 * wait policy, re-executes the program once with GOMP_SPINCOUNT at a tenth
 * of libgomp's default: long enough that back-to-back host repetitions do
 * not pay a wake-up, short enough that idle threads are asleep by the time
 * the device runs. Returns only if no re-exec was needed or it
 * failed; argv must be main's argv. */
void cr_omp_quiet_waits(char **argv);

/* "OMP_WAIT_POLICY=(unset) GOMP_SPINCOUNT=30000 (set by crossroof)": the wait settings in force, for metadata. */
const char *cr_omp_wait_settings(void);

#endif
