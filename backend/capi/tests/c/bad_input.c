/* Bad input through both C interfaces: NULL pointers, zero sizes, truncated and hostile blobs,
 * callbacks that fail, option structs with unknown type tags; the tier-C calls (library exports,
 * RDAT subobjects, local root signatures) with NULL, out-of-range indices, a non-library blob and
 * unbalanced descriptor-table calls. Every call must return an error code (with a message for
 * the native API), never crash or abort.
 *
 * usage: bad_input GOOD_VERTEX_SHADER GOOD_COMPUTE_SHADER LIBRARY [HOSTILE...]
 *   LIBRARY: fixtures/raytracing/local_rootsig.lib_6_3.dxil (exports ClosestHit, Miss, RayGen; six
 *   subobjects; ClosestHit reads root constants b0 space1).
 * Prints "CHECKS <n> HOSTILE <n> rejected=<n> compiled=<n>"; exit 1 on the first failed check. */

#define DXIL_SPV_ENABLE_EXPERIMENTAL_WORKGRAPHS
#include "dxil_spirv_c.h"
#include "dxjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "read_file.h"

static int checks;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        checks++;                                                                     \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

/* A failing native call leaves a non-empty message. */
#define FAILS(call, code)                                   \
    do {                                                    \
        DxjitResult r_ = (call);                            \
        CHECK(r_ == (code));                                \
        CHECK(dxjit_last_error() && dxjit_last_error()[0]); \
    } while (0)

static dxil_spv_bool refuse_vertex_input(void *u, const dxil_spv_d3d_vertex_input *in, dxil_spv_vulkan_vertex_input *out)
{
    (void)u;
    (void)in;
    (void)out;
    return DXIL_SPV_FALSE;
}

static bool refuse_remap(void *u, const DxjitResourceQuery *q, const DxjitPlacement *p, DxjitPlacement *out)
{
    (void)u;
    (void)q;
    (void)p;
    (void)out;
    return false;
}

static void native_nulls(const unsigned char *good, size_t size)
{
    DxjitBlob *blob = NULL;
    DxjitShader *shader = NULL;
    DxjitCompileOptions opts;
    DxjitSignatureElement e;
    DxjitResourceInfo res;
    DxjitBindingLayout *layout = NULL;
    DxjitCache *cache = NULL;
    const uint32_t *words = NULL;
    size_t count = 0;
    uint32_t n = 0;

    FAILS(dxjit_blob_parse(NULL, size, &blob), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_parse(good, 0, &blob), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_parse(good, size, NULL), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_compile(NULL, size, NULL, &shader), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_compile(good, 0, NULL, &shader), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_compile(good, size, NULL, NULL), DXJIT_ERROR_INVALID_ARGUMENT);
    CHECK(shader == NULL);
    CHECK(dxjit_blob_stage(NULL) == DXJIT_STAGE_INVALID);
    FAILS(dxjit_blob_entry_point_count(NULL, &n), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_signature_element(NULL, 0, 0, &e), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_shader_spirv(NULL, &words, &count), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_compile_options_default(NULL), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_binding_layout_set_root_words(NULL, 4), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_cache_compile(NULL, good, size, NULL, &shader), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_compile_pipeline(NULL, 1, NULL, NULL, NULL), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_route_stats(NULL, false), DXJIT_ERROR_INVALID_ARGUMENT);
    dxjit_blob_free(NULL);
    dxjit_shader_free(NULL);
    dxjit_pipeline_free(NULL);
    dxjit_binding_layout_free(NULL);
    dxjit_cache_free(NULL);
    CHECK(dxjit_shader_entry_point(NULL) == NULL);
    CHECK(dxjit_pipeline_stage(NULL, 0) == NULL);

    /* Out-of-range indices and bad enum values. */
    CHECK(dxjit_blob_parse(good, size, &blob) == DXJIT_OK);
    FAILS(dxjit_blob_entry_point_name(blob, 1000, NULL), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_signature_count(blob, 7, &n), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_signature_element(blob, 0, 100000, &e), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_resource(blob, 100000, &res), DXJIT_ERROR_INVALID_ARGUMENT);
    dxjit_blob_free(blob);
    CHECK(dxjit_compile_options_default(&opts) == DXJIT_OK);
    opts.robustness = 77;
    FAILS(dxjit_compile(good, size, &opts, &shader), DXJIT_ERROR_INVALID_ARGUMENT);
    CHECK(dxjit_compile_options_default(&opts) == DXJIT_OK);
    opts.spirv_version_minor = 9;
    FAILS(dxjit_compile(good, size, &opts, &shader), DXJIT_ERROR_UNSUPPORTED);
    CHECK(dxjit_compile_options_default(&opts) == DXJIT_OK);
    opts.output_swizzle_count = 3; /* with a NULL array */
    FAILS(dxjit_compile(good, size, &opts, &shader), DXJIT_ERROR_INVALID_ARGUMENT);

    /* A layout whose callback refuses everything: the compile fails with a binding error
     * once placements are lowered; before that the refusal may not be consulted. */
    CHECK(dxjit_binding_layout_create(&layout) == DXJIT_OK);
    CHECK(dxjit_binding_layout_set_remap(layout, refuse_remap, NULL) == DXJIT_OK);
    FAILS(dxjit_binding_layout_set_root_signature(layout, good, 12), DXJIT_ERROR_MALFORMED);
    CHECK(dxjit_compile_options_default(&opts) == DXJIT_OK);
    opts.bindings = layout;
    {
        DxjitResult r = dxjit_compile(good, size, &opts, &shader);
        CHECK(r == DXJIT_OK || r == DXJIT_ERROR_BINDING);
        if (r == DXJIT_ERROR_BINDING)
            CHECK(strstr(dxjit_last_error(), "refused") != NULL);
        dxjit_shader_free(shader);
        shader = NULL;
    }
    dxjit_binding_layout_free(layout);

    FAILS(dxjit_cache_create(4, "/proc/this/does/not/exist", &cache), DXJIT_ERROR_IO);
    FAILS(dxjit_set_fallback_library("/nonexistent/libfallback.so"), DXJIT_ERROR_IO);
}

static void compat_nulls(const unsigned char *vs, size_t vs_size)
{
    dxil_spv_parsed_blob blob = NULL;
    dxil_spv_converter conv = NULL;
    dxil_spv_compiled_spirv spirv;
    const char *name = NULL;
    unsigned x;
    struct { dxil_spv_option_base base; unsigned pad[8]; } unknown;
    dxil_spv_option_ssbo_alignment bad_align = { { DXIL_SPV_OPTION_SSBO_ALIGNMENT }, 3 };
    dxil_spv_option_output_swizzle bad_swizzle = { { DXIL_SPV_OPTION_OUTPUT_SWIZZLE }, NULL, 4 };

    CHECK(dxil_spv_parse_dxil_blob(NULL, 10, &blob) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parse_dxil_blob(vs, 0, &blob) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parse_dxil_blob(vs, vs_size, NULL) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parse_dxil_blob("DXBC", 4, &blob) == DXIL_SPV_ERROR_PARSER);
    CHECK(dxil_spv_create_converter(NULL, &conv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_run(NULL) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_add_option(NULL, NULL) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_get_compiled_spirv(NULL, &spirv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_point_demangled_name(NULL, 0, &name) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_shader_stage(NULL) == DXIL_SPV_STAGE_UNKNOWN);
    dxil_spv_parsed_blob_free(NULL);
    dxil_spv_converter_free(NULL);
    dxil_spv_converter_set_srv_remapper(NULL, NULL, NULL);
    dxil_spv_converter_set_root_constant_word_count(NULL, 4);

    CHECK(dxil_spv_parse_dxil_blob(vs, vs_size, &blob) == DXIL_SPV_SUCCESS);
    CHECK(dxil_spv_parsed_blob_get_entry_point_demangled_name(blob, 5, &name) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_create_converter(blob, &conv) == DXIL_SPV_SUCCESS);
    /* Results before a run. */
    CHECK(dxil_spv_converter_get_compiled_spirv(conv, &spirv) != DXIL_SPV_SUCCESS);
    CHECK(dxil_spv_converter_get_compute_workgroup_dimensions(conv, &x, &x, &x) != DXIL_SPV_SUCCESS);
    /* Unknown option tags and bad option values. */
    memset(&unknown, 0, sizeof(unknown));
    unknown.base.type = (dxil_spv_option)52;
    CHECK(dxil_spv_converter_add_option(conv, &unknown.base) == DXIL_SPV_ERROR_UNSUPPORTED_FEATURE);
    unknown.base.type = (dxil_spv_option)0;
    CHECK(dxil_spv_converter_add_option(conv, &unknown.base) == DXIL_SPV_ERROR_UNSUPPORTED_FEATURE);
    unknown.base.type = (dxil_spv_option)0x7fffffff;
    CHECK(dxil_spv_converter_add_option(conv, &unknown.base) == DXIL_SPV_ERROR_UNSUPPORTED_FEATURE);
    CHECK(dxil_spv_converter_supports_option((dxil_spv_option)52) == DXIL_SPV_FALSE);
    CHECK(dxil_spv_converter_supports_option(DXIL_SPV_OPTION_COMPUTE_SHADER_DERIVATIVES_QUAD) == DXIL_SPV_TRUE);
    CHECK(dxil_spv_converter_add_option(conv, &bad_align.base) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_add_option(conv, &bad_swizzle.base) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_set_meta_descriptor(conv, (dxil_spv_meta_descriptor)99, DXIL_SPV_META_DESCRIPTOR_KIND_PUSH_CONSTANT,
                                                 0, 0) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    /* A callback that fails: the vertex-input remapper refuses. */
    dxil_spv_converter_set_vertex_input_remapper(conv, refuse_vertex_input, NULL);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_ERROR_GENERIC);
    CHECK(dxil_spv_converter_get_compiled_spirv(conv, &spirv) != DXIL_SPV_SUCCESS);
    /* The same converter recovers when the callback is removed. */
    dxil_spv_converter_set_vertex_input_remapper(conv, NULL, NULL);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_SUCCESS);
    CHECK(dxil_spv_converter_get_compiled_spirv(conv, &spirv) == DXIL_SPV_SUCCESS && spirv.size > 20);
    dxil_spv_converter_free(conv);
    dxil_spv_parsed_blob_free(blob);
}

static int zeroed(const dxil_spv_rdat_subobject *s)
{
    return s->kind == 0 && s->subobject_name == NULL && s->exports == NULL && s->num_exports == 0 && s->payload == NULL &&
           s->payload_size == 0 && s->args[0] == 0 && s->args[1] == 0;
}

/* A converter for `blob` compiling `entry` (NULL: none set). */
static dxil_spv_converter converter_for(dxil_spv_parsed_blob blob, const char *entry)
{
    dxil_spv_converter c = NULL;
    CHECK(dxil_spv_create_converter(blob, &c) == DXIL_SPV_SUCCESS);
    if (entry)
        dxil_spv_converter_set_entry_point(c, entry);
    return c;
}

/* Tier C: library exports, subobjects and local root signatures. */
static void compat_tier_c(const unsigned char *vs, size_t vs_size, const unsigned char *lib, size_t lib_size)
{
    dxil_spv_parsed_blob blob = NULL, library = NULL;
    dxil_spv_converter conv = NULL;
    dxil_spv_rdat_subobject sub;
    dxil_spv_node_input_data node;
    const char *name = NULL;
    unsigned n = 0, index = 0;
    dxil_spv_option_sbt_descriptor_size_log2 bad_sbt = { { DXIL_SPV_OPTION_SBT_DESCRIPTOR_SIZE_LOG2 }, 40, 4 };

    /* NULL handles and pointers. */
    CHECK(dxil_spv_parsed_blob_get_num_entry_points(NULL, &n) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_point_name(NULL, 0, &name) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_index_by_name(NULL, "main", &index) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_shader_stage_for_entry(NULL, "main") == DXIL_SPV_STAGE_UNKNOWN);
    CHECK(dxil_spv_parsed_blob_get_num_rdat_subobjects(NULL) == 0);
    memset(&sub, 0xab, sizeof(sub));
    dxil_spv_parsed_blob_get_rdat_subobject(NULL, 0, &sub);
    CHECK(zeroed(&sub));
    dxil_spv_converter_set_entry_point(NULL, "main");
    dxil_spv_converter_add_local_root_constants(NULL, 0, 0, 1);
    dxil_spv_converter_add_local_root_descriptor(NULL, DXIL_SPV_RESOURCE_CLASS_CBV, 0, 0);
    dxil_spv_converter_add_local_root_descriptor_table(NULL, DXIL_SPV_RESOURCE_CLASS_SRV, 0, 0, 1, 0);
    CHECK(dxil_spv_converter_begin_local_root_descriptor_table(NULL) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_end_local_root_descriptor_table(NULL) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_point_node_input(NULL, 0, &node) == DXIL_SPV_ERROR_UNSUPPORTED_FEATURE);

    /* A non-library blob: one entry point, no subobjects, out-of-range indices and unknown names. */
    CHECK(dxil_spv_parse_dxil_blob(vs, vs_size, &blob) == DXIL_SPV_SUCCESS);
    CHECK(dxil_spv_parsed_blob_get_num_entry_points(blob, &n) == DXIL_SPV_SUCCESS && n == 1);
    CHECK(dxil_spv_parsed_blob_get_num_entry_points(blob, NULL) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_point_name(blob, 1, &name) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_point_name(blob, 0xffffffffu, &name) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_point_name(blob, 0, NULL) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_point_name(blob, 0, &name) == DXIL_SPV_SUCCESS && name);
    CHECK(dxil_spv_parsed_blob_get_entry_index_by_name(blob, name, &index) == DXIL_SPV_SUCCESS && index == 0);
    CHECK(dxil_spv_parsed_blob_get_entry_index_by_name(blob, "no_such_entry", &index) == DXIL_SPV_ERROR_GENERIC);
    CHECK(dxil_spv_parsed_blob_get_entry_index_by_name(blob, NULL, &index) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_index_by_name(blob, name, NULL) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_shader_stage_for_entry(blob, name) == DXIL_SPV_STAGE_VERTEX);
    CHECK(dxil_spv_parsed_blob_get_shader_stage_for_entry(blob, "no_such_entry") == DXIL_SPV_STAGE_UNKNOWN);
    CHECK(dxil_spv_parsed_blob_get_shader_stage_for_entry(blob, NULL) == DXIL_SPV_STAGE_UNKNOWN);
    CHECK(dxil_spv_parsed_blob_get_num_rdat_subobjects(blob) == 0);
    memset(&sub, 0xab, sizeof(sub));
    dxil_spv_parsed_blob_get_rdat_subobject(blob, 0, &sub);
    CHECK(zeroed(&sub));
    dxil_spv_parsed_blob_get_rdat_subobject(blob, 0, NULL);
    CHECK(dxil_spv_parsed_blob_get_entry_point_node_input(blob, 0, &node) == DXIL_SPV_ERROR_UNSUPPORTED_FEATURE);
    CHECK(dxil_spv_parsed_blob_get_entry_point_num_node_outputs(blob, 0, &n) == DXIL_SPV_ERROR_UNSUPPORTED_FEATURE);
    /* An entry point the blob does not have; then none. */
    conv = converter_for(blob, "no_such_entry");
    CHECK(dxil_spv_converter_run(conv) != DXIL_SPV_SUCCESS);
    dxil_spv_converter_set_entry_point(conv, NULL);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_SUCCESS);
    dxil_spv_converter_free(conv);

    /* The library. */
    CHECK(dxil_spv_parse_dxil_blob(lib, lib_size, &library) == DXIL_SPV_SUCCESS);
    CHECK(dxil_spv_parsed_blob_get_num_entry_points(library, &n) == DXIL_SPV_SUCCESS && n == 3);
    CHECK(dxil_spv_parsed_blob_get_entry_point_name(library, 3, &name) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_point_demangled_name(library, 3, &name) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_parsed_blob_get_entry_index_by_name(library, "ClosestHit", &index) == DXIL_SPV_SUCCESS);
    CHECK(dxil_spv_parsed_blob_get_shader_stage_for_entry(library, "ClosestHit") == DXIL_SPV_STAGE_CLOSEST_HIT);
    n = dxil_spv_parsed_blob_get_num_rdat_subobjects(library);
    CHECK(n == 6);
    memset(&sub, 0xab, sizeof(sub));
    dxil_spv_parsed_blob_get_rdat_subobject(library, n, &sub);
    CHECK(zeroed(&sub));
    memset(&sub, 0xab, sizeof(sub));
    dxil_spv_parsed_blob_get_rdat_subobject(library, 0xffffffffu, &sub);
    CHECK(zeroed(&sub));
    dxil_spv_parsed_blob_get_rdat_subobject(library, 0, &sub);
    CHECK(sub.kind == DXIL_SPV_RDAT_SUBOBJECT_KIND_GLOBAL_ROOT_SIGNATURE && sub.payload && sub.payload_size > 0);

    /* A library without an export named: nothing to compile. */
    conv = converter_for(library, NULL);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_ERROR_UNSUPPORTED_FEATURE);
    dxil_spv_converter_free(conv);
    /* An export the library does not have. */
    conv = converter_for(library, "NoSuchExport");
    CHECK(dxil_spv_converter_run(conv) != DXIL_SPV_SUCCESS);
    dxil_spv_converter_free(conv);

    /* Unbalanced table calls: begin twice, end of an empty table, end without begin. */
    conv = converter_for(library, "ClosestHit");
    CHECK(dxil_spv_converter_end_local_root_descriptor_table(conv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_begin_local_root_descriptor_table(conv) == DXIL_SPV_SUCCESS);
    CHECK(dxil_spv_converter_begin_local_root_descriptor_table(conv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_end_local_root_descriptor_table(conv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    /* A table begun and never ended: the run refuses. */
    dxil_spv_converter_add_local_root_descriptor_table(conv, DXIL_SPV_RESOURCE_CLASS_SRV, 0, 5, 1, 0);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_get_compiled_spirv(conv, &(dxil_spv_compiled_spirv){ 0 }) != DXIL_SPV_SUCCESS);
    /* Ended, and the local constants the export reads: it compiles. */
    CHECK(dxil_spv_converter_end_local_root_descriptor_table(conv) == DXIL_SPV_SUCCESS);
    CHECK(dxil_spv_converter_end_local_root_descriptor_table(conv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    dxil_spv_converter_add_local_root_constants(conv, 1, 0, 1);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_SUCCESS);
    dxil_spv_converter_free(conv);

    /* A parameter inside an open table, bad resource classes, a bad SBT size. */
    conv = converter_for(library, "ClosestHit");
    CHECK(dxil_spv_converter_begin_local_root_descriptor_table(conv) == DXIL_SPV_SUCCESS);
    dxil_spv_converter_add_local_root_descriptor_table(conv, DXIL_SPV_RESOURCE_CLASS_CBV, 1, 7, 1, 0);
    dxil_spv_converter_add_local_root_constants(conv, 1, 0, 1);
    CHECK(dxil_spv_converter_end_local_root_descriptor_table(conv) == DXIL_SPV_SUCCESS);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    dxil_spv_converter_free(conv);
    conv = converter_for(library, "ClosestHit");
    dxil_spv_converter_add_local_root_descriptor(conv, (dxil_spv_resource_class)7, 0, 0);
    dxil_spv_converter_add_local_root_constants(conv, 1, 0, 1);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    dxil_spv_converter_free(conv);
    conv = converter_for(library, "ClosestHit");
    dxil_spv_converter_add_local_root_descriptor_table(conv, (dxil_spv_resource_class)0x7fffffff, 0, 0, 1, 0);
    dxil_spv_converter_add_local_root_constants(conv, 1, 0, 1);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxil_spv_converter_add_option(conv, &bad_sbt.base) == DXIL_SPV_ERROR_INVALID_ARGUMENT);
    dxil_spv_converter_free(conv);

    /* The export's constants without a local root signature naming them: the layer's (absent)
     * remapper places them by the identity rule, a plain descriptor: it compiles. With a local
     * root signature that names other registers and a placeholder root descriptor (a sampler
     * class keeps 8 bytes, places nothing), b0 space1 is still the identity rule's. */
    conv = converter_for(library, "ClosestHit");
    dxil_spv_converter_add_local_root_descriptor(conv, DXIL_SPV_RESOURCE_CLASS_SAMPLER, 0xffffffffu, 0xffffffffu);
    dxil_spv_converter_add_local_root_descriptor_table(conv, DXIL_SPV_RESOURCE_CLASS_UAV, 0xffffffffu, 0, 0, 0);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_SUCCESS);
    dxil_spv_converter_free(conv);
    /* RayGen's u0 as a local root UAV (a record address): it compiles. In a local table with no
     * UAV remapper to name its heap array: refused (a binding error). */
    conv = converter_for(library, "RayGen");
    dxil_spv_converter_add_local_root_descriptor(conv, DXIL_SPV_RESOURCE_CLASS_UAV, 0, 0);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_SUCCESS);
    dxil_spv_converter_free(conv);
    conv = converter_for(library, "RayGen");
    dxil_spv_converter_add_local_root_descriptor_table(conv, DXIL_SPV_RESOURCE_CLASS_UAV, 0, 0, 1, 0);
    CHECK(dxil_spv_converter_run(conv) == DXIL_SPV_ERROR_GENERIC);
    dxil_spv_converter_free(conv);

    dxil_spv_parsed_blob_free(library);
    dxil_spv_parsed_blob_free(blob);
}

/* The native API's library calls. */
static void native_tier_c(const unsigned char *vs, size_t vs_size, const unsigned char *lib, size_t lib_size)
{
    DxjitBlob *blob = NULL;
    DxjitBindingLayout *layout = NULL;
    DxjitShader *shader = NULL;
    DxjitCompileOptions opts;
    DxjitSubobject sub;
    DxjitRecordEntry entry;
    DxjitStage stage;
    const char *name = NULL;
    uint32_t n = 0, size = 0;
    bool has = true;

    FAILS(dxjit_blob_subobject_count(NULL, &n), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_subobject(NULL, 0, &sub), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_entry_point_stage(NULL, 0, &stage), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_entry_point_export_name(NULL, 0, &name), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_shader_record_layout(NULL, &has, &size, &n), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_shader_record_entry(NULL, 0, &entry), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_binding_layout_set_local_root_signature(NULL, DXJIT_LOCAL_ROOT_NONE, NULL, 0),
          DXJIT_ERROR_INVALID_ARGUMENT);

    CHECK(dxjit_blob_parse(vs, vs_size, &blob) == DXJIT_OK);
    CHECK(dxjit_blob_subobject_count(blob, &n) == DXJIT_OK && n == 0);
    FAILS(dxjit_blob_subobject(blob, 0, &sub), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_entry_point_stage(blob, 1, &stage), DXJIT_ERROR_INVALID_ARGUMENT);
    CHECK(dxjit_blob_entry_point_stage(blob, 0, &stage) == DXJIT_OK && stage == DXJIT_STAGE_VERTEX);
    dxjit_blob_free(blob);

    CHECK(dxjit_blob_parse(lib, lib_size, &blob) == DXJIT_OK);
    CHECK(dxjit_blob_subobject_count(blob, &n) == DXJIT_OK && n == 6);
    FAILS(dxjit_blob_subobject(blob, 6, &sub), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_subobject(blob, 0, NULL), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_blob_entry_point_export_name(blob, 3, &name), DXJIT_ERROR_INVALID_ARGUMENT);
    CHECK(dxjit_blob_entry_point_export_name(blob, 0, &name) == DXJIT_OK && !strcmp(name, "ClosestHit"));
    CHECK(dxjit_blob_subobject(blob, 1, &sub) == DXJIT_OK && sub.kind == DXJIT_SUBOBJECT_LOCAL_ROOT_SIGNATURE);

    CHECK(dxjit_binding_layout_create(&layout) == DXJIT_OK);
    FAILS(dxjit_binding_layout_set_local_root_signature(layout, 9, NULL, 0), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_binding_layout_set_local_root_signature(layout, DXJIT_LOCAL_ROOT_GIVEN, NULL, 0),
          DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_binding_layout_set_local_root_signature(layout, DXJIT_LOCAL_ROOT_GIVEN, (const uint8_t *)"junk", 4),
          DXJIT_ERROR_MALFORMED);
    FAILS(dxjit_binding_layout_set_local_root_signature(layout, DXJIT_LOCAL_ROOT_GIVEN, sub.data, sub.size / 2),
          DXJIT_ERROR_MALFORMED);
    /* The library's local root signature given back: ClosestHit reads b0 space1 from its record. */
    CHECK(dxjit_binding_layout_set_local_root_signature(layout, DXJIT_LOCAL_ROOT_GIVEN, sub.data, sub.size) == DXJIT_OK);
    CHECK(dxjit_binding_layout_set_root_words(layout, 0) == DXJIT_OK);
    CHECK(dxjit_compile_options_default(&opts) == DXJIT_OK);
    opts.bindings = layout;
    opts.entry_point = "ClosestHit";
    CHECK(dxjit_compile(lib, lib_size, &opts, &shader) == DXJIT_OK);
    CHECK(dxjit_shader_record_layout(shader, &has, &size, &n) == DXJIT_OK && has && size == 4 && n == 1);
    CHECK(dxjit_shader_record_entry(shader, 0, &entry) == DXJIT_OK && entry.kind == DXJIT_PUSH_ROOT_CONSTANTS &&
          entry.offset == 0 && entry.size == 4 && entry.space == 1 && entry.register_ == 0);
    FAILS(dxjit_shader_record_entry(shader, 1, &entry), DXJIT_ERROR_INVALID_ARGUMENT);
    FAILS(dxjit_shader_record_layout(shader, NULL, &size, &n), DXJIT_ERROR_INVALID_ARGUMENT);
    dxjit_shader_free(shader);
    shader = NULL;
    /* No local root signature: the record constants are not covered (no root signature, no
     * callback): a binding error naming the register. */
    CHECK(dxjit_binding_layout_set_local_root_signature(layout, DXJIT_LOCAL_ROOT_NONE, NULL, 0) == DXJIT_OK);
    FAILS(dxjit_compile(lib, lib_size, &opts, &shader), DXJIT_ERROR_BINDING);
    CHECK(strstr(dxjit_last_error(), "b0 space1") != NULL);
    dxjit_binding_layout_free(layout);
    dxjit_blob_free(blob);
}

int main(int argc, char **argv)
{
    size_t vs_size = 0, cs_size = 0, lib_size = 0, size, cut;
    unsigned char *vs, *cs, *lib, *data;
    int i, hostile = 0, rejected = 0, compiled = 0;

    if (argc < 4)
        return 2;
    vs = read_file(argv[1], &vs_size);
    cs = read_file(argv[2], &cs_size);
    lib = read_file(argv[3], &lib_size);
    if (!vs || !cs || !lib)
        return 2;
    native_nulls(cs, cs_size);
    compat_nulls(vs, vs_size);
    compat_tier_c(vs, vs_size, lib, lib_size);
    native_tier_c(vs, vs_size, lib, lib_size);

    /* Every truncation of a good container is rejected with a message. */
    for (cut = 0; cut < cs_size; cut += (cut < 256 ? 1 : cs_size / 64 + 1)) {
        DxjitShader *s = NULL;
        DxjitBlob *b = NULL;
        dxil_spv_parsed_blob pb = NULL;
        if (cut == 0)
            continue;
        CHECK(dxjit_blob_parse(cs, cut, &b) != DXJIT_OK && dxjit_last_error()[0]);
        CHECK(dxjit_compile(cs, cut, NULL, &s) != DXJIT_OK && dxjit_last_error()[0]);
        CHECK(dxil_spv_parse_dxil_blob(cs, cut, &pb) != DXIL_SPV_SUCCESS);
        CHECK(b == NULL && s == NULL && pb == NULL);
    }

    /* Hostile blobs: either compiled or rejected with a message; never a crash. */
    for (i = 4; i < argc; i++) {
        DxjitShader *s = NULL;
        DxjitResult r;
        dxil_spv_parsed_blob pb = NULL;
        dxil_spv_converter conv = NULL;
        data = read_file(argv[i], &size);
        if (!data)
            return 2;
        hostile++;
        r = dxjit_compile(data, size, NULL, &s);
        if (r == DXJIT_OK) {
            compiled++;
            dxjit_shader_free(s);
        } else {
            rejected++;
            CHECK(dxjit_last_error()[0]);
        }
        if (dxil_spv_parse_dxil_blob(data, size, &pb) == DXIL_SPV_SUCCESS) {
            if (dxil_spv_create_converter(pb, &conv) == DXIL_SPV_SUCCESS) {
                dxil_spv_converter_run(conv);
                dxil_spv_converter_free(conv);
            }
            dxil_spv_parsed_blob_free(pb);
        }
        free(data);
    }
    printf("CHECKS %d HOSTILE %d rejected=%d compiled=%d\n", checks, hostile, rejected, compiled);
    free(vs);
    free(cs);
    free(lib);
    return 0;
}
