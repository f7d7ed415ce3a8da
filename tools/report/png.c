#include "report/png.h"

#include <string.h>

const char *rp_png_fault(const unsigned char *bytes, size_t len)
{
    static const unsigned char head[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    /* An empty chunk of type IEND and its CRC. */
    static const unsigned char tail[] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    if (len < sizeof head || memcmp(bytes, head, sizeof head) != 0)
        return "no PNG signature and header";
    if (len < sizeof head + sizeof tail || memcmp(bytes + len - sizeof tail, tail, sizeof tail) != 0)
        return "cut short: no IEND chunk at its end";
    return NULL;
}
