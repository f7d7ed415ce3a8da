/* Base64 encoding and strict decoding (RFC 4648 §4). */
#include "report/base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t cr_base64_encoded_len(size_t n)
{
    return (n + 2) / 3 * 4;
}

void cr_base64_encode(const unsigned char *in, size_t n, char *out)
{
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
        *out++ = alphabet[v >> 18 & 63];
        *out++ = alphabet[v >> 12 & 63];
        *out++ = alphabet[v >> 6 & 63];
        *out++ = alphabet[v & 63];
    }
    if (n - i == 1) {
        unsigned v = (unsigned)in[i] << 16;
        *out++ = alphabet[v >> 18 & 63];
        *out++ = alphabet[v >> 12 & 63];
        *out++ = '=';
        *out++ = '=';
    } else if (n - i == 2) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8;
        *out++ = alphabet[v >> 18 & 63];
        *out++ = alphabet[v >> 12 & 63];
        *out++ = alphabet[v >> 6 & 63];
        *out++ = '=';
    }
    *out = '\0';
}

static int value_of(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

ssize_t cr_base64_decode(const char *in, size_t len, unsigned char *out)
{
    if (len % 4 != 0)
        return -1;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        int last = i + 4 == len;
        int pad = 0;
        if (last && in[i + 3] == '=')
            pad = in[i + 2] == '=' ? 2 : 1;
        int v[4];
        for (int k = 0; k < 4 - pad; ++k)
            if ((v[k] = value_of(in[i + k])) < 0)
                return -1;
        for (int k = 4 - pad; k < 4; ++k)
            v[k] = 0;
        unsigned w = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 | (unsigned)v[3];
        /* Canonical only: the bits the padding drops must be zero. */
        if ((pad == 1 && (w & 0xff)) || (pad == 2 && (w & 0xffff)))
            return -1;
        out[o++] = (unsigned char)(w >> 16);
        if (pad < 2)
            out[o++] = (unsigned char)(w >> 8 & 0xff);
        if (pad < 1)
            out[o++] = (unsigned char)(w & 0xff);
    }
    return (ssize_t)o;
}
