/* Base64 (RFC 4648 §4, the standard alphabet with '=' padding), for
 * embedding figures in a self-contained HTML report and checking them. */
#ifndef CR_BASE64_H
#define CR_BASE64_H

#include <stddef.h>
#include <sys/types.h>

/* Characters cr_base64_encode writes for n bytes, without the NUL. */
size_t cr_base64_encoded_len(size_t n);

/* Encodes n bytes into out, which must hold cr_base64_encoded_len(n) + 1
 * characters; out is NUL-terminated. */
void cr_base64_encode(const unsigned char *in, size_t n, char *out);

/* Decodes len characters (no line breaks or spaces; the length a multiple
 * of 4, padding only at the end) into out, which must hold len / 4 * 3
 * bytes. Returns the decoded length, or -1 for anything that is not
 * canonical base64. */
ssize_t cr_base64_decode(const char *in, size_t len, unsigned char *out);

#endif
