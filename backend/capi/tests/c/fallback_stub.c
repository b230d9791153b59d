/* A stand-in "other translator" for the fallback tests: a shared library exporting the
 * dxil_spv_* functions the fallback path looks up. It accepts any DXBC container and emits a
 * fixed, valid SPIR-V compute module; it reports on stderr how many options and which remappers
 * were replayed onto it, and calls the SRV remapper once to prove the layer's callback arrives. */

#include "dxil_spirv_c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dxil_spv_parsed_blob_s { int stage; };
struct dxil_spv_converter_s {
    int options, srv, root_words, root_descriptors;
    /* Local root signature: parameters, of which tables, and table ranges; the entry point. */
    int local, tables, ranges, open;
    char entry[64];
    dxil_spv_srv_remapper_cb srv_cb;
    void *srv_user;
};

static const unsigned spirv[] = {
    0x07230203u, 0x00010000u, 0u, 5u, 0u,
    (2u << 16) | 17u, 1u,                               /* OpCapability Shader */
    (3u << 16) | 14u, 0u, 1u,                           /* OpMemoryModel Logical GLSL450 */
    (5u << 16) | 15u, 5u, 1u, 0x6e69616du, 0u,          /* OpEntryPoint GLCompute %1 "main" */
    (6u << 16) | 16u, 1u, 17u, 1u, 1u, 1u,              /* OpExecutionMode %1 LocalSize 1 1 1 */
    (2u << 16) | 19u, 2u,                               /* %2 = OpTypeVoid */
    (3u << 16) | 33u, 3u, 2u,                           /* %3 = OpTypeFunction %2 */
    (5u << 16) | 54u, 2u, 1u, 0u, 3u,                   /* %1 = OpFunction %2 None %3 */
    (2u << 16) | 248u, 4u,                              /* %4 = OpLabel */
    (1u << 16) | 253u,                                  /* OpReturn */
    (1u << 16) | 56u,                                   /* OpFunctionEnd */
};

dxil_spv_result dxil_spv_parse_dxil_blob(const void *data, size_t size, dxil_spv_parsed_blob *blob)
{
    if (!data || size < 4 || memcmp(data, "DXBC", 4) != 0)
        return DXIL_SPV_ERROR_PARSER;
    *blob = calloc(1, sizeof(**blob));
    (*blob)->stage = DXIL_SPV_STAGE_COMPUTE;
    return DXIL_SPV_SUCCESS;
}

void dxil_spv_parsed_blob_free(dxil_spv_parsed_blob blob) { free(blob); }

dxil_spv_shader_stage dxil_spv_parsed_blob_get_shader_stage(dxil_spv_parsed_blob blob)
{
    return (dxil_spv_shader_stage)blob->stage;
}

dxil_spv_result dxil_spv_parsed_blob_get_entry_point_demangled_name(dxil_spv_parsed_blob blob, unsigned index,
                                                                    const char **name)
{
    (void)blob;
    if (index != 0)
        return DXIL_SPV_ERROR_INVALID_ARGUMENT;
    *name = "main";
    return DXIL_SPV_SUCCESS;
}

dxil_spv_result dxil_spv_create_converter(dxil_spv_parsed_blob blob, dxil_spv_converter *c)
{
    (void)blob;
    *c = calloc(1, sizeof(**c));
    return DXIL_SPV_SUCCESS;
}

void dxil_spv_converter_free(dxil_spv_converter c) { free(c); }

dxil_spv_result dxil_spv_converter_add_option(dxil_spv_converter c, const dxil_spv_option_base *o)
{
    (void)o;
    c->options++;
    return DXIL_SPV_SUCCESS;
}

void dxil_spv_converter_set_srv_remapper(dxil_spv_converter c, dxil_spv_srv_remapper_cb cb, void *user)
{
    c->srv_cb = cb;
    c->srv_user = user;
}

void dxil_spv_converter_set_root_constant_word_count(dxil_spv_converter c, unsigned n) { c->root_words = (int)n; }
void dxil_spv_converter_set_root_descriptor_count(dxil_spv_converter c, unsigned n) { c->root_descriptors = (int)n; }

void dxil_spv_converter_set_entry_point(dxil_spv_converter c, const char *e)
{
    snprintf(c->entry, sizeof(c->entry), "%s", e ? e : "");
}

void dxil_spv_converter_add_local_root_constants(dxil_spv_converter c, unsigned space, unsigned reg, unsigned n)
{
    (void)space, (void)reg, (void)n;
    c->local++;
}

void dxil_spv_converter_add_local_root_descriptor(dxil_spv_converter c, dxil_spv_resource_class cls, unsigned space,
                                                  unsigned reg)
{
    (void)cls, (void)space, (void)reg;
    c->local++;
}

dxil_spv_result dxil_spv_converter_begin_local_root_descriptor_table(dxil_spv_converter c)
{
    if (c->open)
        return DXIL_SPV_ERROR_INVALID_ARGUMENT;
    c->open = 1;
    return DXIL_SPV_SUCCESS;
}

void dxil_spv_converter_add_local_root_descriptor_table(dxil_spv_converter c, dxil_spv_resource_class cls,
                                                        unsigned space, unsigned reg, unsigned n, unsigned offset)
{
    (void)cls, (void)space, (void)reg, (void)n, (void)offset;
    c->ranges++;
}

dxil_spv_result dxil_spv_converter_end_local_root_descriptor_table(dxil_spv_converter c)
{
    if (!c->open)
        return DXIL_SPV_ERROR_INVALID_ARGUMENT;
    c->open = 0;
    c->local++;
    c->tables++;
    return DXIL_SPV_SUCCESS;
}

dxil_spv_result dxil_spv_converter_run(dxil_spv_converter c)
{
    if (c->local || c->entry[0])
        fprintf(stderr, "stub: entry=%s local=%d tables=%d ranges=%d\n", c->entry, c->local, c->tables, c->ranges);
    if (c->srv_cb) {
        dxil_spv_d3d_binding d = { DXIL_SPV_STAGE_COMPUTE, DXIL_SPV_RESOURCE_KIND_TEXTURE_2D, 0, 0, 5, 1, 0 };
        dxil_spv_srv_vulkan_binding v;
        memset(&v, 0, sizeof(v));
        if (!c->srv_cb(c->srv_user, &d, &v))
            return DXIL_SPV_ERROR_GENERIC;
        c->srv = 1;
    }
    fprintf(stderr, "stub: options=%d srv=%d root_words=%d root_descriptors=%d\n", c->options, c->srv, c->root_words,
            c->root_descriptors);
    return DXIL_SPV_SUCCESS;
}

dxil_spv_result dxil_spv_converter_get_compiled_spirv(dxil_spv_converter c, dxil_spv_compiled_spirv *out)
{
    (void)c;
    out->data = spirv;
    out->size = sizeof(spirv);
    return DXIL_SPV_SUCCESS;
}

dxil_spv_result dxil_spv_converter_get_compute_workgroup_dimensions(dxil_spv_converter c, unsigned *x, unsigned *y,
                                                                    unsigned *z)
{
    (void)c;
    *x = *y = *z = 1;
    return DXIL_SPV_SUCCESS;
}

dxil_spv_result dxil_spv_converter_get_compute_wave_size_range(dxil_spv_converter c, unsigned *min, unsigned *max,
                                                               unsigned *preferred)
{
    (void)c;
    *min = *max = *preferred = 0;
    return DXIL_SPV_SUCCESS;
}

dxil_spv_result dxil_spv_converter_get_compiled_entry_point(dxil_spv_converter c, const char **entry)
{
    (void)c;
    *entry = "main";
    return DXIL_SPV_SUCCESS;
}
