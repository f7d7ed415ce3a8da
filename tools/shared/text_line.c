#include "shared/text_line.h"

#include <string.h>

bool cr_text_line(FILE *f, char *line, size_t len)
{
    if (fgets(line, (int)len, f) == NULL)
        return false;
    line[strcspn(line, "\r\n")] = '\0';
    return true;
}
