/* The pointer chase: one work-item follows the chain; every load's address
 * is the value of the load before, so nothing overlaps and each step costs
 * one full load latency. The result is stored so that the walk cannot be
 * optimised away, and read back to verify where it ended. */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void chase(__global const ulong *next, ulong start, ulong steps, __global ulong *end)
{
    ulong idx = start;
    for (ulong s = 0; s < steps; ++s)
        idx = next[idx];
    end[0] = idx;
}
