/* A whole file read into memory, for the C test programs (static: each program includes it once). */
#ifndef DXJIT_TEST_READ_FILE_H
#define DXJIT_TEST_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of `path` (free them with free()) and their count in `*size`; NULL when the file
 * cannot be read. */
static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc(n > 0 ? (size_t)n : 1);
    if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(data);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

#endif
