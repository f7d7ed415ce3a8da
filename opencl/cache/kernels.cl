/* The store pass (bench/cache/store.h, included before this): one
 * work-item, every store kept. */
#define CC_U64 ulong

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void store_pass(__global volatile ulong *buf, ulong first, ulong count, ulong stride, ulong passes, ulong value)
{
    CC_STORE_LOOP(buf, first, count, stride, passes, value);
}
