/* The pointer chase (bench/latency/chase.h, included before this): one
 * work-item follows the chain. The result is stored so that the walk cannot
 * be optimised away, and read back to verify where it ended. */
#define LT_U64 ulong

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void chase(__global const ulong *next, ulong start, ulong steps, __global ulong *end)
{
    ulong idx = start;
    LT_CHASE(next, idx, steps);
    end[0] = idx;
}
