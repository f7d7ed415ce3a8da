__kernel void fill(__global uint *words) {
    size_t i = get_global_id(0);
    words[i] = (uint)i * 3u + 1u;
}
