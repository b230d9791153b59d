/* Replays the call sequence a D3D12-on-Vulkan layer makes through the dxil_spv interface
 * (see shared notes, d3d12-layer-interface.md §2) over a list of shaders:
 * log callback, parse, demangled entry name, stage, converter, the options a layer always
 * sends, root-constant and root-descriptor counts, SRV/UAV/CBV/sampler remappers that put
 * descriptor tables into bindless heaps (one array per descriptor type) and single raw/CBV
 * registers at buffer device addresses, vertex-input and stream-output remappers, the patch
 * location offset from the last hull shader for domain shaders, run, SPIR-V, reflection, frees.
 *
 * usage: layer_replay [-j THREADS] [-o OUTDIR] [-r ROUNDS] LISTFILE
 * Prints one line per shader: "OK <index> <stage> <bytes> <path>" (and writes OUTDIR/<index>.spv)
 * or "FAIL <index> <code> <path>\t<last logged error>", then "ROUTES dxjit=.. fallback_dxbc=.. fallback_unsupported=..
 * dxbc_refused=.. failed=..". Exit 0 unless the harness itself failed. */

#include "dxil_spirv_c.h"
#include "dxjit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "read_file.h"

#define ROOT_WORDS 16
#define ROOT_DESCRIPTORS 2
/* Root block words (after the 2 root descriptors): 0-3 table offsets (SRV, UAV, CBV, sampler
 * tables), 4-15 root constants (b0 space0). */

static char **paths;
static int path_count;
static const char *outdir;
static int thread_count = 1;
static int rounds = 1;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

/* The last error the library logged on this thread (printed with a failure). */
static __thread char last_error[512];

static void log_cb(void *user, dxil_spv_log_level level, const char *msg)
{
    (void)user;
    if (level == DXIL_SPV_LOG_LEVEL_ERROR) {
        snprintf(last_error, sizeof(last_error), "%s", msg);
        if (getenv("LAYER_REPLAY_VERBOSE"))
            fprintf(stderr, "log: %s\n", msg);
    }
}

static int is_buffer(dxil_spv_resource_kind k)
{
    return k == DXIL_SPV_RESOURCE_KIND_RAW_BUFFER || k == DXIL_SPV_RESOURCE_KIND_STRUCTURED_BUFFER ||
           k == DXIL_SPV_RESOURCE_KIND_TYPED_BUFFER;
}

static int is_ssbo(dxil_spv_resource_kind k)
{
    return k == DXIL_SPV_RESOURCE_KIND_RAW_BUFFER || k == DXIL_SPV_RESOURCE_KIND_STRUCTURED_BUFFER;
}

/* Bindless heap arrays, one per Vulkan descriptor type: set = type, binding 0. */
enum { SET_UBO = 0, SET_SSBO = 1, SET_UNIFORM_TEXEL = 2, SET_STORAGE_TEXEL = 3, SET_SAMPLED = 4,
       SET_STORAGE_IMAGE = 5, SET_SAMPLER = 6, SET_OFFSETS = 7, SET_COUNTERS = 8, SET_AS = 9 };

static void heap(dxil_spv_vulkan_binding *b, const dxil_spv_d3d_binding *d, unsigned set, unsigned table,
                 dxil_spv_vulkan_descriptor_type type)
{
    b->set = set;
    b->binding = 0;
    b->bindless.use_heap = DXIL_SPV_TRUE;
    if (d->register_index == ~0u) {
        /* SM 6.6 ResourceDescriptorHeap: the shader's index is the heap index. */
        b->root_constant_index = ~0u;
        b->bindless.heap_root_offset = 0;
    } else {
        b->root_constant_index = table;
        b->bindless.heap_root_offset = d->register_index + 64 * d->register_space;
    }
    b->descriptor_type = type;
}

static int single(const dxil_spv_d3d_binding *d)
{
    return d->range_size == 1 && d->register_space == 0 && d->register_index == 0;
}

static dxil_spv_bool srv_cb(void *user, const dxil_spv_d3d_binding *d, dxil_spv_srv_vulkan_binding *v)
{
    (void)user;
    memset(v, 0, sizeof(*v));
    if (is_ssbo(d->kind) && single(d)) {
        /* t0: a root SRV, root descriptor 1 (a buffer address). */
        v->buffer_binding.descriptor_type = DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_BUFFER_DEVICE_ADDRESS;
        v->buffer_binding.root_constant_index = 1;
        return DXIL_SPV_TRUE;
    }
    if (is_ssbo(d->kind))
        heap(&v->buffer_binding, d, SET_SSBO, 0, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_SSBO);
    else if (d->kind == DXIL_SPV_RESOURCE_KIND_TYPED_BUFFER)
        heap(&v->buffer_binding, d, SET_UNIFORM_TEXEL, 0, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_TEXEL_BUFFER);
    else if (d->kind == DXIL_SPV_RESOURCE_KIND_RT_ACCELERATION_STRUCTURE)
        heap(&v->buffer_binding, d, SET_AS, 0, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_IDENTITY);
    else
        heap(&v->buffer_binding, d, SET_SAMPLED, 0, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_IDENTITY);
    v->offset_binding.set = SET_OFFSETS;
    v->offset_binding.binding = 0;
    return DXIL_SPV_TRUE;
}

static dxil_spv_bool uav_cb(void *user, const dxil_spv_uav_d3d_binding *u, dxil_spv_uav_vulkan_binding *v)
{
    const dxil_spv_d3d_binding *d = &u->d3d_binding;
    (void)user;
    memset(v, 0, sizeof(*v));
    if (is_ssbo(d->kind))
        heap(&v->buffer_binding, d, SET_SSBO, 1, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_SSBO);
    else if (d->kind == DXIL_SPV_RESOURCE_KIND_TYPED_BUFFER)
        heap(&v->buffer_binding, d, SET_STORAGE_TEXEL, 1, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_TEXEL_BUFFER);
    else
        heap(&v->buffer_binding, d, SET_STORAGE_IMAGE, 1, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_IDENTITY);
    if (u->has_counter)
        heap(&v->counter_binding, d, SET_COUNTERS, 1, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_SSBO);
    v->offset_binding.set = SET_OFFSETS;
    v->offset_binding.binding = 0;
    (void)is_buffer;
    return DXIL_SPV_TRUE;
}

static dxil_spv_bool cbv_cb(void *user, const dxil_spv_d3d_binding *d, dxil_spv_cbv_vulkan_binding *v)
{
    (void)user;
    memset(v, 0, sizeof(*v));
    if (single(d)) {
        /* b0: root constants after the 4 table words. */
        v->push_constant = DXIL_SPV_TRUE;
        v->vulkan.push_constant.offset_in_words = 4;
        return DXIL_SPV_TRUE;
    }
    if (d->range_size == 1 && d->register_space == 0 && d->register_index == 1) {
        /* b1: a root CBV, root descriptor 0. */
        v->vulkan.uniform_binding.descriptor_type = DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_BUFFER_DEVICE_ADDRESS;
        v->vulkan.uniform_binding.root_constant_index = 0;
        return DXIL_SPV_TRUE;
    }
    heap(&v->vulkan.uniform_binding, d, SET_UBO, 2, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_UBO);
    return DXIL_SPV_TRUE;
}

static dxil_spv_bool sampler_cb(void *user, const dxil_spv_d3d_binding *d, dxil_spv_vulkan_binding *v)
{
    (void)user;
    memset(v, 0, sizeof(*v));
    heap(v, d, SET_SAMPLER, 3, DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_IDENTITY);
    return DXIL_SPV_TRUE;
}

static dxil_spv_bool vertex_input_cb(void *user, const dxil_spv_d3d_vertex_input *in, dxil_spv_vulkan_vertex_input *out)
{
    (void)user;
    out->location = in->start_row; /* the layer's rule */
    return DXIL_SPV_TRUE;
}

static dxil_spv_bool stream_output_cb(void *user, const dxil_spv_d3d_stream_output *in,
                                      dxil_spv_vulkan_stream_output *out)
{
    (void)user;
    memset(out, 0, sizeof(*out));
    /* Capture user semantics with an even index into buffer 0, 16 bytes apart. */
    if (strncmp(in->semantic, "SV_", 3) == 0 || (in->semantic_index & 1))
        return DXIL_SPV_TRUE;
    out->enable = DXIL_SPV_TRUE;
    out->buffer_index = 0;
    out->offset = 16 * (in->semantic_index / 2);
    out->stride = 256;
    return DXIL_SPV_TRUE;
}

static void add_options(dxil_spv_converter c, const char *path)
{
    dxil_spv_option_ssbo_alignment align = { { DXIL_SPV_OPTION_SSBO_ALIGNMENT }, 1 };
    dxil_spv_option_sbt_descriptor_size_log2 sbt = { { DXIL_SPV_OPTION_SBT_DESCRIPTOR_SIZE_LOG2 }, 6, 5 };
    dxil_spv_option_bindless_offset_buffer_layout layout = { { DXIL_SPV_OPTION_BINDLESS_OFFSET_BUFFER_LAYOUT }, 0, 1, 2 };
    dxil_spv_option_precise_control precise = { { DXIL_SPV_OPTION_PRECISE_CONTROL }, DXIL_SPV_FALSE, DXIL_SPV_TRUE };
    dxil_spv_option_shader_source_file source = { { DXIL_SPV_OPTION_SHADER_SOURCE_FILE }, path };
    dxil_spv_option_subgroup_properties subgroup = { { DXIL_SPV_OPTION_SUBGROUP_PROPERTIES }, 4, 64 };
    dxil_spv_option_compute_shader_derivatives deriv = { { DXIL_SPV_OPTION_COMPUTE_SHADER_DERIVATIVES }, 0, 0 };
    dxil_spv_option_denorm_preserve_support denorm = { { DXIL_SPV_OPTION_DENORM_PRESERVE_SUPPORT }, 1, 1 };
    dxil_spv_option_float8_support fp8 = { { DXIL_SPV_OPTION_FLOAT8_SUPPORT }, 0, 0 };
    dxil_spv_option_physical_storage_buffer psb = { { DXIL_SPV_OPTION_PHYSICAL_STORAGE_BUFFER }, DXIL_SPV_TRUE };
    dxil_spv_option_bindless_typed_buffer_offsets typed = { { DXIL_SPV_OPTION_BINDLESS_TYPED_BUFFER_OFFSETS }, DXIL_SPV_TRUE };
    dxil_spv_option_shader_demote_to_helper demote = { { DXIL_SPV_OPTION_SHADER_DEMOTE_TO_HELPER }, DXIL_SPV_TRUE };
    /* FALSE: with it, dxjit's lowering declares a written multisample typed UAV Unknown without
     * StorageImageWriteWithoutFormat (invalid SPIR-V, sm_advanced/cs_multisample_uav; also through
     * dxjit_compile with typed_uav_load_without_format, so a lowering bug, reported). */
    dxil_spv_option_typed_uav_read_without_format typed_read = { { DXIL_SPV_OPTION_TYPED_UAV_READ_WITHOUT_FORMAT }, DXIL_SPV_FALSE };
    dxil_spv_option_shader_i8_dot i8 = { { DXIL_SPV_OPTION_SHADER_I8_DOT }, DXIL_SPV_TRUE };
    dxil_spv_option_scalar_block_layout scalar = { { DXIL_SPV_OPTION_SCALAR_BLOCK_LAYOUT }, DXIL_SPV_TRUE, DXIL_SPV_TRUE };
    dxil_spv_option_barycentric_khr bary = { { DXIL_SPV_OPTION_BARYCENTRIC_KHR }, DXIL_SPV_TRUE };
    dxil_spv_option_driver_version driver = { { DXIL_SPV_OPTION_DRIVER_VERSION }, 13, 0x6400000 };
    dxil_spv_option_quad_control_reconvergence quad = { { DXIL_SPV_OPTION_QUAD_CONTROL_RECONVERGENCE }, 0, 0, 0 };
    dxil_spv_option_mixed_float_dot_product mixed = { { DXIL_SPV_OPTION_MIXED_FLOAT_DOT_PRODUCT }, 0, { 0, 0, 0, 0 } };
    dxil_spv_option_shader_quirk quirk = { { DXIL_SPV_OPTION_SHADER_QUIRK }, DXIL_SPV_SHADER_QUIRK_NONE };
    dxil_spv_option_max_tess_factor tess = { { DXIL_SPV_OPTION_MAX_TESS_FACTOR }, 64 };
    const dxil_spv_option_base *opts[] = {
        &align.base, &sbt.base, &layout.base, &precise.base, &precise.base, &source.base, &subgroup.base,
        &deriv.base, &denorm.base, &fp8.base, &psb.base, &typed.base, &demote.base, &typed_read.base, &i8.base,
        &scalar.base, &bary.base, &driver.base, &quad.base, &mixed.base, &quirk.base, &tess.base,
    };
    size_t i;
    for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        if (dxil_spv_converter_add_option(c, opts[i]) != DXIL_SPV_SUCCESS) {
            fprintf(stderr, "option %d rejected\n", (int)opts[i]->type);
            exit(2);
        }
    }
}

/* Per thread: the patch location offset the last hull shader reported. */
static __thread unsigned last_hull_offset = 32;

static void replay(int index)
{
    const char *path = paths[index];
    size_t size = 0;
    unsigned char *data = read_file(path, &size);
    dxil_spv_parsed_blob blob = NULL;
    dxil_spv_converter conv = NULL;
    dxil_spv_compiled_spirv spirv;
    dxil_spv_shader_stage stage;
    const char *entry = NULL;
    dxil_spv_result r;
    unsigned x, y, z, n;

    if (!data) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    dxil_spv_begin_thread_allocator_context();
    last_error[0] = 0;
    r = dxil_spv_parse_dxil_blob(data, size, &blob);
    free(data);
    if (r != DXIL_SPV_SUCCESS)
        goto fail;
    r = dxil_spv_parsed_blob_get_entry_point_demangled_name(blob, 0, &entry);
    if (r != DXIL_SPV_SUCCESS || !entry)
        goto fail;
    stage = dxil_spv_parsed_blob_get_shader_stage(blob);
    r = dxil_spv_create_converter(blob, &conv);
    if (r != DXIL_SPV_SUCCESS)
        goto fail;
    add_options(conv, path);
    dxil_spv_converter_set_root_constant_word_count(conv, ROOT_WORDS);
    dxil_spv_converter_set_root_descriptor_count(conv, ROOT_DESCRIPTORS);
    dxil_spv_converter_set_srv_remapper(conv, srv_cb, NULL);
    dxil_spv_converter_set_sampler_remapper(conv, sampler_cb, NULL);
    dxil_spv_converter_set_uav_remapper(conv, uav_cb, NULL);
    dxil_spv_converter_set_cbv_remapper(conv, cbv_cb, NULL);
    dxil_spv_converter_set_vertex_input_remapper(conv, vertex_input_cb, NULL);
    if (stage == DXIL_SPV_STAGE_GEOMETRY)
        dxil_spv_converter_set_stream_output_remapper(conv, stream_output_cb, NULL);
    if (stage == DXIL_SPV_STAGE_DOMAIN)
        dxil_spv_converter_set_patch_location_offset(conv, last_hull_offset);
    r = dxil_spv_converter_run(conv);
    if (r != DXIL_SPV_SUCCESS)
        goto fail;
    r = dxil_spv_converter_get_compiled_spirv(conv, &spirv);
    if (r != DXIL_SPV_SUCCESS || !spirv.data || spirv.size < 20 || spirv.size % 4)
        goto fail;
    if (stage == DXIL_SPV_STAGE_COMPUTE) {
        if (dxil_spv_converter_get_compute_workgroup_dimensions(conv, &x, &y, &z) != DXIL_SPV_SUCCESS || !x || !y || !z) {
            r = DXIL_SPV_ERROR_GENERIC;
            goto fail;
        }
        dxil_spv_converter_get_compute_wave_size_range(conv, &x, &y, &z);
    }
    if (stage == DXIL_SPV_STAGE_HULL) {
        if (dxil_spv_converter_get_patch_vertex_count(conv, &n) != DXIL_SPV_SUCCESS || !n ||
            dxil_spv_converter_get_patch_location_offset(conv, &n) != DXIL_SPV_SUCCESS) {
            r = DXIL_SPV_ERROR_GENERIC;
            goto fail;
        }
        last_hull_offset = n < 32 ? 32 : n;
    }
    if (outdir) {
        char out[4096];
        FILE *f;
        snprintf(out, sizeof(out), "%s/%d.spv", outdir, index);
        f = fopen(out, "wb");
        if (!f || fwrite(spirv.data, 1, spirv.size, f) != spirv.size) {
            fprintf(stderr, "cannot write %s\n", out);
            exit(2);
        }
        fclose(f);
    }
    pthread_mutex_lock(&print_lock);
    printf("OK %d %d %zu %s\n", index, (int)stage, spirv.size, path);
    pthread_mutex_unlock(&print_lock);
    dxil_spv_converter_free(conv);
    dxil_spv_parsed_blob_free(blob);
    dxil_spv_end_thread_allocator_context();
    return;
fail:
    pthread_mutex_lock(&print_lock);
    printf("FAIL %d %d %s\t%s\n", index, (int)r, path, last_error);
    pthread_mutex_unlock(&print_lock);
    dxil_spv_converter_free(conv);
    dxil_spv_parsed_blob_free(blob);
    dxil_spv_end_thread_allocator_context();
}

static void *worker(void *arg)
{
    int t = (int)(size_t)arg, i, round;
    dxil_spv_set_thread_log_callback(log_cb, NULL);
    for (round = 0; round < rounds; round++)
        for (i = t; i < path_count; i += thread_count)
            replay(i);
    dxil_spv_set_thread_log_callback(NULL, NULL);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *list = NULL;
    char line[4096];
    FILE *f;
    int i, cap = 0;
    pthread_t threads[64];
    DxjitRouteStats stats;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-j") && i + 1 < argc)
            thread_count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            outdir = argv[++i];
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else
            list = argv[i];
    }
    if (!list || thread_count < 1 || thread_count > 64 || rounds < 1) {
        fprintf(stderr, "usage: layer_replay [-j THREADS] [-o OUTDIR] [-r ROUNDS] LISTFILE\n");
        return 2;
    }
    f = fopen(list, "r");
    if (!f)
        return 2;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0])
            continue;
        if (path_count == cap) {
            cap = cap ? 2 * cap : 64;
            paths = realloc(paths, (size_t)cap * sizeof(*paths));
        }
        paths[path_count++] = strdup(line);
    }
    fclose(f);
    for (i = 0; i < thread_count; i++)
        pthread_create(&threads[i], NULL, worker, (void *)(size_t)i);
    for (i = 0; i < thread_count; i++)
        pthread_join(threads[i], NULL);
    dxjit_route_stats(&stats, false);
    printf("ROUTES dxjit=%llu fallback_dxbc=%llu fallback_unsupported=%llu dxbc_refused=%llu failed=%llu\n",
           (unsigned long long)stats.dxjit, (unsigned long long)stats.fallback_dxbc,
           (unsigned long long)stats.fallback_unsupported, (unsigned long long)stats.dxbc_refused,
           (unsigned long long)stats.failed);
    for (i = 0; i < path_count; i++)
        free(paths[i]);
    free(paths);
    return 0;
}
