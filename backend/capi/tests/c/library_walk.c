/* Walks DXIL libraries through the dxil_spv interface's tier-C calls, as a layer building a state
 * object does: every entry point (mangled and demangled name, stage by either name, index by
 * either name, work-graph node metadata), every RDAT subobject, then every export compiled
 * through dxil_spv_converter_set_entry_point (plain names for even exports, mangled for odd
 * ones). tests/library_compat.rs compares what it prints with `dxjit dis --json` and validates
 * the SPIR-V.
 *
 * usage: library_walk [-o OUTDIR] FILE...
 * Prints per file f:
 *   FILE f <stage>                       (or PARSEFAIL f <code>)
 *   ENTRIES f <n>
 *   ENTRY f i <stage by mangled> <stage by demangled> <index by mangled> <index by demangled>
 *         \t<mangled>\t<demangled>       (bytes below 0x20 as \xNN)
 *   NODE f i <node-input result> <node-output-count result>
 *   SUBOBJECTS f <n>
 *   SUBOBJECT f k <kind> <hit group type> <num exports> <args0> <args1> <payload size> <payload fnv1a>
 *         \t<name>\t<export>...
 *   RDATOOB f <zeroed|dirty>             (a subobject index out of range)
 *   OK f i <stage> <bytes>\t<spirv entry> (SPIR-V in OUTDIR/f_i.spv) or FAIL f i <code>\t<error>
 * Exit 0 unless the harness failed. */

#define DXIL_SPV_ENABLE_EXPERIMENTAL_WORKGRAPHS
#include "dxil_spirv_c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "read_file.h"

static char last_error[1024];

static void log_cb(void *user, dxil_spv_log_level level, const char *msg)
{
    (void)user;
    if (level == DXIL_SPV_LOG_LEVEL_ERROR)
        snprintf(last_error, sizeof(last_error), "%s", msg);
}

static void put_name(const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == '\\')
            printf("\\x%02x", c);
        else
            putchar(c);
    }
}

static unsigned fnv1a(const void *data, size_t size)
{
    const unsigned char *p = data;
    unsigned h = 2166136261u;
    size_t i;
    for (i = 0; i < size; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void compile_export(dxil_spv_parsed_blob blob, int f, unsigned i, const char *name, const char *outdir)
{
    dxil_spv_converter conv = NULL;
    dxil_spv_compiled_spirv spirv;
    dxil_spv_shader_stage stage = dxil_spv_parsed_blob_get_shader_stage_for_entry(blob, name);
    const char *entry = NULL;
    dxil_spv_result r;

    last_error[0] = 0;
    r = dxil_spv_create_converter(blob, &conv);
    if (r != DXIL_SPV_SUCCESS)
        goto fail;
    dxil_spv_converter_set_entry_point(conv, name);
    r = dxil_spv_converter_run(conv);
    if (r != DXIL_SPV_SUCCESS)
        goto fail;
    r = dxil_spv_converter_get_compiled_spirv(conv, &spirv);
    if (r != DXIL_SPV_SUCCESS || !spirv.data || spirv.size < 20 || spirv.size % 4) {
        r = DXIL_SPV_ERROR_GENERIC;
        goto fail;
    }
    r = dxil_spv_converter_get_compiled_entry_point(conv, &entry);
    if (r != DXIL_SPV_SUCCESS || !entry)
        goto fail;
    if (outdir) {
        char out[4096];
        FILE *o;
        snprintf(out, sizeof(out), "%s/%d_%u.spv", outdir, f, i);
        o = fopen(out, "wb");
        if (!o || fwrite(spirv.data, 1, spirv.size, o) != spirv.size) {
            fprintf(stderr, "cannot write %s\n", out);
            exit(2);
        }
        fclose(o);
    }
    printf("OK %d %u %d %zu\t%s\n", f, i, (int)stage, spirv.size, entry);
    dxil_spv_converter_free(conv);
    return;
fail:
    printf("FAIL %d %u %d\t%s\n", f, i, (int)r, last_error);
    dxil_spv_converter_free(conv);
}

static void walk(int f, const char *path, const char *outdir)
{
    size_t size = 0;
    unsigned char *data = read_file(path, &size);
    dxil_spv_parsed_blob blob = NULL;
    unsigned n = 0, i, k, nsub;
    dxil_spv_result r;
    dxil_spv_rdat_subobject oob;

    if (!data) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    r = dxil_spv_parse_dxil_blob(data, size, &blob);
    free(data);
    if (r != DXIL_SPV_SUCCESS) {
        printf("PARSEFAIL %d %d\n", f, (int)r);
        return;
    }
    printf("FILE %d %d\n", f, (int)dxil_spv_parsed_blob_get_shader_stage(blob));
    if (dxil_spv_parsed_blob_get_num_entry_points(blob, &n) != DXIL_SPV_SUCCESS) {
        fprintf(stderr, "%s: no entry-point count\n", path);
        exit(2);
    }
    printf("ENTRIES %d %u\n", f, n);
    for (i = 0; i < n; i++) {
        const char *mangled = NULL, *demangled = NULL;
        unsigned by_mangled = ~0u, by_demangled = ~0u, outputs = 0;
        dxil_spv_node_input_data input;
        if (dxil_spv_parsed_blob_get_entry_point_name(blob, i, &mangled) != DXIL_SPV_SUCCESS ||
            dxil_spv_parsed_blob_get_entry_point_demangled_name(blob, i, &demangled) != DXIL_SPV_SUCCESS) {
            fprintf(stderr, "%s: entry %u has no name\n", path, i);
            exit(2);
        }
        if (dxil_spv_parsed_blob_get_entry_index_by_name(blob, mangled, &by_mangled) != DXIL_SPV_SUCCESS ||
            dxil_spv_parsed_blob_get_entry_index_by_name(blob, demangled, &by_demangled) != DXIL_SPV_SUCCESS) {
            fprintf(stderr, "%s: entry %u not found by its own names\n", path, i);
            exit(2);
        }
        printf("ENTRY %d %u %d %d %u %u\t", f, i, (int)dxil_spv_parsed_blob_get_shader_stage_for_entry(blob, mangled),
               (int)dxil_spv_parsed_blob_get_shader_stage_for_entry(blob, demangled), by_mangled, by_demangled);
        put_name(mangled);
        putchar('\t');
        put_name(demangled);
        putchar('\n');
        printf("NODE %d %u %d %d\n", f, i, (int)dxil_spv_parsed_blob_get_entry_point_node_input(blob, i, &input),
               (int)dxil_spv_parsed_blob_get_entry_point_num_node_outputs(blob, i, &outputs));
    }
    nsub = dxil_spv_parsed_blob_get_num_rdat_subobjects(blob);
    printf("SUBOBJECTS %d %u\n", f, nsub);
    for (k = 0; k < nsub; k++) {
        dxil_spv_rdat_subobject s;
        unsigned e;
        memset(&s, 0xab, sizeof(s));
        dxil_spv_parsed_blob_get_rdat_subobject(blob, k, &s);
        printf("SUBOBJECT %d %u %d %d %u %u %u %zu %u\t", f, k, (int)s.kind, (int)s.hit_group_type, s.num_exports,
               s.args[0], s.args[1], s.payload_size, s.payload ? fnv1a(s.payload, s.payload_size) : 0u);
        put_name(s.subobject_name);
        for (e = 0; e < s.num_exports; e++) {
            putchar('\t');
            put_name(s.exports[e]);
        }
        putchar('\n');
    }
    memset(&oob, 0xab, sizeof(oob));
    dxil_spv_parsed_blob_get_rdat_subobject(blob, nsub, &oob);
    printf("RDATOOB %d %s\n", f,
           oob.kind == 0 && oob.subobject_name == NULL && oob.exports == NULL && oob.num_exports == 0 &&
                   oob.payload == NULL && oob.payload_size == 0
               ? "zeroed"
               : "dirty");
    for (i = 0; i < n; i++) {
        const char *name = NULL;
        if (i % 2 == 0)
            dxil_spv_parsed_blob_get_entry_point_demangled_name(blob, i, &name);
        else
            dxil_spv_parsed_blob_get_entry_point_name(blob, i, &name);
        compile_export(blob, f, i, name, outdir);
    }
    dxil_spv_parsed_blob_free(blob);
}

int main(int argc, char **argv)
{
    const char *outdir = NULL;
    int i, n = 0;
    dxil_spv_set_thread_log_callback(log_cb, NULL);
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            outdir = argv[++i];
        else
            walk(n++, argv[i], outdir);
    }
    dxil_spv_set_thread_log_callback(NULL, NULL);
    fflush(stdout);
    return 0;
}
