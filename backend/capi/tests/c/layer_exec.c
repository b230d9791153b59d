/* A D3D12-on-Vulkan layer in miniature, driving libdxjit_capi through the dxil_spv interface the
 * way a layer does for a pipeline created from a root signature (shared notes,
 * d3d12-layer-interface.md §2 and §5). The executed-specs test (tests/layer_exec.rs) runs the
 * SPIR-V it writes with descriptors placed where this program's callbacks said.
 *
 * The layer's rules (its own, deliberately unlike dxjit's default policy):
 *  - root block: the root descriptors first (2 words each: a buffer device address, in parameter
 *    order), then every root-constant parameter's words, then one word per descriptor table
 *    (its current heap offset) -- tables after all constants, as vkd3d-proton orders them;
 *  - descriptor heaps: one bindless array per Vulkan descriptor type, spread over four sets:
 *      set 0: binding 0 sampler heap, bindings 8+i static sampler i;
 *      set 1: binding 0 CBVs (uniform buffers);
 *      set 2: binding 0 sampled images, 1 uniform texel buffers, 2 storage buffers (SRV and UAV),
 *             3 acceleration structures;
 *      set 3: binding 0 storage images, 1 storage texel buffers, 2 UAV counters, 3 the offset
 *             buffer ({offset, size} per heap index);
 *  - a table range's resource is element (table word) + (range offset in the table) +
 *    (register - range base) of its type's array; root CBV/SRV/UAV are buffer addresses; root
 *    constants are push-constant words; SM 6.6 heap accesses index the arrays directly.
 *
 * Without a root signature (ROOTSIG "-") every register is a plain descriptor: set = space,
 * binding = 8 * register + 2 * class (t 0, u 1, b 2, s 3), a UAV counter at the next binding;
 * each answer is also printed as "DESC class space register range kind set binding type
 * counter_binding" for the test to bind by.
 *
 * Ray-tracing exports of DXIL libraries (tier C): -e EXPORT picks the export
 * (dxil_spv_converter_set_entry_point); its local root signature comes from -l LOCALSIG (same
 * format, no static samplers) or, with -L, from the library's RDAT subobjects (the association
 * naming the export or a hit group holding it, else a default association, else the library's
 * only unassociated local root signature; the RTS0 bytes parsed here). The layer lays the shader
 * record out as vkd3d-proton does (D3D12's layout: parameters in order, root constants 4-byte
 * aligned, root descriptors and tables 8 bytes, 8-byte aligned; printed as "RECORD ..." lines)
 * and passes it with the add_local_root_* calls; a local table's descriptor handle is
 * heap index << SBT_SHIFT (sampler tables: << SBT_SAMPLER_SHIFT), sent as
 * SBT_DESCRIPTOR_SIZE_LOG2 ("SBT <shift> <sampler shift>"). Local table resources are heap
 * elements of the same arrays as global ones (the remappers answer them after the global root
 * signature's parameters).
 *
 * usage: layer_exec ROOTSIG [-o OUTDIR] [-s MIN MAX] [-f SIZE] [-n] [-a ALIGN] [-e EXPORT]
 *                   [-l LOCALSIG | -L] [SHADER...]
 *   -a: the SSBO_ALIGNMENT sent (default 64),
 *   -s: SUBGROUP_PROPERTIES (the device's subgroup sizes), -f: FORCE_SUBGROUP_SIZE,
 *   -n: MIN_PRECISION_NATIVE_16BIT; options apply to the shaders after them. After each run the
 *   reported wave-size range is printed ("WAVE min max preferred").
 * ROOTSIG is the root signature, one item per line (numbers decimal; COUNT -1 = unbounded,
 * OFFSET -1 = append; VIS = D3D12_SHADER_VISIBILITY):
 *   cbv|srv|uav SPACE REGISTER VIS          a root descriptor
 *   constants SPACE REGISTER WORDS VIS      root constants
 *   table VIS                               a descriptor table; its ranges follow:
 *   range cbv|srv|uav|sampler SPACE BASE COUNT OFFSET
 *   static SPACE REGISTER VIS               a static sampler
 * Prints the layout ("LAYOUT ...", "ROOT ...", "HEAP ..." lines), then per shader every
 * callback's answer ("BIND ...", "VERTEX ...") and "OK <i> <stage> <bytes> <x> <y> <z>"
 * (SPIR-V in OUTDIR/<i>.spv; the SPIR-V entry point last) or "FAIL <i> <code>\t<error>". Exit 0 unless
 * the harness failed. */

#include "dxil_spirv_c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "read_file.h"

#define MAX_PARAMS 64
#define MAX_RANGES 32
#define MAX_STATIC 16
#define NONE 0xffffffffu

enum { CLASS_SRV = 0, CLASS_UAV = 1, CLASS_CBV = 2, CLASS_SAMPLER = 3 };
enum { P_CBV, P_SRV, P_UAV, P_CONSTANTS, P_TABLE };

struct range {
    unsigned cls, space, base, count, offset; /* count NONE = unbounded; offset resolved */
};

struct param {
    unsigned kind, space, reg, words, vis;
    unsigned word; /* root descriptor: its index; constants and tables: word after the descriptors */
    unsigned nranges;
    struct range ranges[MAX_RANGES];
};

static struct param params[MAX_PARAMS];
static unsigned nparams;
/* The local root signature of the export (-l / -L), and each parameter's shader-record byte. */
static struct param lparams[MAX_PARAMS];
static unsigned nlparams;
static unsigned lrecord[MAX_PARAMS];
static const char *export_name;
static int local_from_library;
/* How the layer's descriptor handles encode heap indices: index << shift (32-byte CBV/SRV/UAV
 * descriptors, 16-byte samplers). */
#define SBT_SHIFT 5
#define SBT_SAMPLER_SHIFT 4
static unsigned statics[MAX_STATIC][3]; /* space, register, visibility */
static unsigned nstatics;
static unsigned root_descriptors, root_words;
/* ROOTSIG "-": registers as plain descriptors. */
static int no_root_signature;
/* Options from the command line: subgroup sizes (0: not sent), forced size, native min precision. */
static unsigned subgroup_min, subgroup_max, forced_subgroup;
static int native_min_precision;
/* SSBO_ALIGNMENT (-a): storage-buffer views off this alignment read their bounds from the offset
 * buffer. */
static unsigned ssbo_alignment = 64;

/* The heap arrays: (set, binding). */
#define SET_SAMPLERS 0
#define STATIC_FIRST 8
static const unsigned HEAP_SAMPLER[2] = { 0, 0 };
static const unsigned HEAP_UBO[2] = { 1, 0 };
static const unsigned HEAP_SAMPLED[2] = { 2, 0 };
static const unsigned HEAP_UNIFORM_TEXEL[2] = { 2, 1 };
static const unsigned HEAP_SSBO[2] = { 2, 2 };
static const unsigned HEAP_AS[2] = { 2, 3 };
static const unsigned HEAP_STORAGE_IMAGE[2] = { 3, 0 };
static const unsigned HEAP_STORAGE_TEXEL[2] = { 3, 1 };
static const unsigned HEAP_COUNTERS[2] = { 3, 2 };
static const unsigned HEAP_OFFSETS[2] = { 3, 3 };

static char last_error[512];

static void log_cb(void *user, dxil_spv_log_level level, const char *msg)
{
    (void)user;
    if (level == DXIL_SPV_LOG_LEVEL_ERROR)
        snprintf(last_error, sizeof(last_error), "%s", msg);
}

static unsigned class_of(const char *s)
{
    if (!strcmp(s, "srv"))
        return CLASS_SRV;
    if (!strcmp(s, "uav"))
        return CLASS_UAV;
    if (!strcmp(s, "cbv"))
        return CLASS_CBV;
    if (!strcmp(s, "sampler"))
        return CLASS_SAMPLER;
    fprintf(stderr, "bad class %s\n", s);
    exit(2);
}

/* Reads a root signature in the text format into ps[*np] (static samplers into `statics` when
 * `allow_statics`). */
static void read_signature(const char *path, struct param *ps, unsigned *np, int allow_statics)
{
    char line[512], word[32];
    FILE *f = fopen(path, "r");
    unsigned nparams = 0;
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    while (fgets(line, sizeof(line), f)) {
        struct param *p = &ps[nparams];
        int a, b, d, e, g;
        if (sscanf(line, "%31s", word) != 1)
            continue;
        if (!strcmp(word, "cbv") || !strcmp(word, "srv") || !strcmp(word, "uav")) {
            if (nparams == MAX_PARAMS || sscanf(line, "%*s %d %d %d", &a, &b, &d) != 3)
                goto bad;
            p->kind = word[0] == 'c' ? P_CBV : word[0] == 's' ? P_SRV : P_UAV;
            p->space = (unsigned)a, p->reg = (unsigned)b, p->vis = (unsigned)d;
            nparams++;
        } else if (!strcmp(word, "constants")) {
            if (nparams == MAX_PARAMS || sscanf(line, "%*s %d %d %d %d", &a, &b, &d, &e) != 4)
                goto bad;
            p->kind = P_CONSTANTS;
            p->space = (unsigned)a, p->reg = (unsigned)b, p->words = (unsigned)d, p->vis = (unsigned)e;
            nparams++;
        } else if (!strcmp(word, "table")) {
            if (nparams == MAX_PARAMS || sscanf(line, "%*s %d", &a) != 1)
                goto bad;
            p->kind = P_TABLE;
            p->vis = (unsigned)a;
            nparams++;
        } else if (!strcmp(word, "range")) {
            struct param *tp = nparams ? &ps[nparams - 1] : NULL;
            struct range *r;
            char cls[16];
            if (!tp || tp->kind != P_TABLE || tp->nranges == MAX_RANGES ||
                sscanf(line, "%*s %15s %d %d %d %d", cls, &a, &b, &d, &g) != 5)
                goto bad;
            r = &tp->ranges[tp->nranges];
            r->cls = class_of(cls);
            r->space = (unsigned)a, r->base = (unsigned)b, r->count = (unsigned)d;
            /* D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND: right after the previous range. */
            if ((unsigned)g == NONE)
                r->offset = tp->nranges ? tp->ranges[tp->nranges - 1].offset + tp->ranges[tp->nranges - 1].count : 0;
            else
                r->offset = (unsigned)g;
            tp->nranges++;
        } else if (!strcmp(word, "static")) {
            if (!allow_statics || nstatics == MAX_STATIC || sscanf(line, "%*s %d %d %d", &a, &b, &d) != 3)
                goto bad;
            statics[nstatics][0] = (unsigned)a, statics[nstatics][1] = (unsigned)b, statics[nstatics][2] = (unsigned)d;
            nstatics++;
        } else {
            goto bad;
        }
    }
    fclose(f);
    *np = nparams;
    return;
bad:
    fprintf(stderr, "bad root signature line: %s", line);
    exit(2);
}

static void read_root_signature(const char *path)
{
    unsigned i, c = 0, t = 0;
    read_signature(path, params, &nparams, 1);
    /* The layout: root descriptors, then root constants, then tables. */
    for (i = 0; i < nparams; i++)
        if (params[i].kind <= P_UAV)
            params[i].word = root_descriptors++;
    for (i = 0; i < nparams; i++)
        if (params[i].kind == P_CONSTANTS) {
            params[i].word = c;
            c += params[i].words;
        }
    for (i = 0; i < nparams; i++)
        if (params[i].kind == P_TABLE)
            params[i].word = c + t++;
    root_words = c + t;
}

/* ---- Local root signatures (ray-tracing exports) ---- */

static unsigned rd32(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16 | (unsigned)p[3] << 24;
}

/* Parses a serialized root signature (RTS0 layout, versions 1.0-1.2) into lparams. Returns 0 on
 * a malformed blob. */
static int parse_rts0(const unsigned char *b, size_t size)
{
    unsigned version, n, at, i, j;
    if (size < 24)
        return 0;
    version = rd32(b);
    n = rd32(b + 4);
    at = rd32(b + 8);
    if (version < 1 || version > 3 || n > MAX_PARAMS || at > size || (size_t)n * 12 > size - at)
        return 0;
    nlparams = 0;
    for (i = 0; i < n; i++) {
        const unsigned char *ph = b + at + 12 * i;
        unsigned type = rd32(ph), off = rd32(ph + 8);
        struct param *p = &lparams[nlparams++];
        memset(p, 0, sizeof(*p));
        if (off > size || size - off < 12)
            return 0;
        switch (type) {
        case 0: { /* descriptor table */
            unsigned nr = rd32(b + off), ro = rd32(b + off + 4), stride = version == 1 ? 20 : 24;
            if (nr > MAX_RANGES || ro > size || (size_t)nr * stride > size - ro)
                return 0;
            p->kind = P_TABLE;
            for (j = 0; j < nr; j++) {
                const unsigned char *r = b + ro + stride * j;
                struct range *q = &p->ranges[j];
                unsigned offset = rd32(r + stride - 4);
                q->cls = rd32(r), q->count = rd32(r + 4), q->base = rd32(r + 8), q->space = rd32(r + 12);
                if (q->cls > CLASS_SAMPLER)
                    return 0;
                q->offset = offset == NONE ? (j ? p->ranges[j - 1].offset + p->ranges[j - 1].count : 0) : offset;
            }
            p->nranges = nr;
            break;
        }
        case 1:
            p->kind = P_CONSTANTS;
            p->reg = rd32(b + off), p->space = rd32(b + off + 4), p->words = rd32(b + off + 8);
            break;
        case 2: case 3: case 4:
            p->kind = type == 2 ? P_CBV : type == 3 ? P_SRV : P_UAV;
            p->reg = rd32(b + off), p->space = rd32(b + off + 4);
            break;
        default:
            return 0;
        }
    }
    return 1;
}

/* The plain name of a (possibly mangled) export: "\x01?Name@@..." -> "Name". */
static void plain_name(const char *in, char *out, size_t n)
{
    size_t k = 0;
    if (*in == 1)
        in++;
    if (*in == '?')
        in++;
    while (*in && *in != '@' && k + 1 < n)
        out[k++] = *in++;
    out[k] = 0;
}

static int names_export(const dxil_spv_rdat_subobject *a, const char *exp, const char *const *groups, unsigned ngroups)
{
    unsigned i, g;
    for (i = 1; i < a->num_exports; i++) {
        if (!strcmp(a->exports[i], exp))
            return 1;
        for (g = 0; g < ngroups; g++)
            if (!strcmp(a->exports[i], groups[g]))
                return 1;
    }
    return 0;
}

/* The local root signature the library's subobjects associate with export `exp` (D3D12's
 * precedence: an association naming the export or a hit group holding it, then a default
 * association, then the only local root signature no association names), read into lparams.
 * Returns 0 when none applies. */
static int local_from_rdat(dxil_spv_parsed_blob blob, const char *exp)
{
    unsigned n = dxil_spv_parsed_blob_get_num_rdat_subobjects(blob), i, j, ngroups = 0;
    const char *groups[64];
    const dxil_spv_rdat_subobject *chosen[3] = { NULL, NULL, NULL }; /* explicit, default, implicit */
    dxil_spv_rdat_subobject *all = calloc(n ? n : 1, sizeof(*all));
    int found = 0;
    for (i = 0; i < n; i++)
        dxil_spv_parsed_blob_get_rdat_subobject(blob, i, &all[i]);
    for (i = 0; i < n; i++)
        if (all[i].kind == DXIL_SPV_RDAT_SUBOBJECT_KIND_HIT_GROUP && ngroups < 64)
            for (j = 0; j < all[i].num_exports; j++)
                if (!strcmp(all[i].exports[j], exp))
                    groups[ngroups++] = all[i].subobject_name;
    for (i = 0; i < n; i++) {
        const dxil_spv_rdat_subobject *a = &all[i];
        if (a->kind != DXIL_SPV_RDAT_SUBOBJECT_KIND_SUBOBJECT_TO_EXPORTS_ASSOCIATION || a->num_exports < 1)
            continue;
        for (j = 0; j < n; j++) {
            if (all[j].kind != DXIL_SPV_RDAT_SUBOBJECT_KIND_LOCAL_ROOT_SIGNATURE ||
                strcmp(all[j].subobject_name, a->exports[0]))
                continue;
            if (a->num_exports == 1 && !chosen[1])
                chosen[1] = &all[j];
            else if (names_export(a, exp, groups, ngroups) && !chosen[0])
                chosen[0] = &all[j];
        }
    }
    for (j = 0; j < n; j++) {
        int named = 0;
        if (all[j].kind != DXIL_SPV_RDAT_SUBOBJECT_KIND_LOCAL_ROOT_SIGNATURE)
            continue;
        for (i = 0; i < n; i++)
            if (all[i].kind == DXIL_SPV_RDAT_SUBOBJECT_KIND_SUBOBJECT_TO_EXPORTS_ASSOCIATION && all[i].num_exports &&
                !strcmp(all[i].exports[0], all[j].subobject_name))
                named = 1;
        if (!named) {
            if (chosen[2]) { /* two unassociated ones: neither is implied */
                chosen[2] = NULL;
                break;
            }
            chosen[2] = &all[j];
        }
    }
    for (i = 0; i < 3 && !found; i++) {
        if (!chosen[i])
            continue;
        if (!parse_rts0(chosen[i]->payload, chosen[i]->payload_size)) {
            fprintf(stderr, "local root signature %s: malformed RTS0\n", chosen[i]->subobject_name);
            exit(2);
        }
        printf("LOCAL %s from %s\n", exp, chosen[i]->subobject_name);
        found = 1;
    }
    free(all);
    return found;
}

/* The shader record: D3D12's layout of the local root arguments. */
static void layout_record(void)
{
    unsigned i, at = 0;
    for (i = 0; i < nlparams; i++) {
        const struct param *p = &lparams[i];
        unsigned align = p->kind == P_CONSTANTS ? 4 : 8, size = p->kind == P_CONSTANTS ? 4 * p->words : 8;
        at = (at + align - 1) / align * align;
        lrecord[i] = at;
        if (p->kind == P_CONSTANTS)
            printf("RECORD %u %u %u constants %u %u\n", i, at, size, p->space, p->reg);
        else if (p->kind == P_TABLE)
            printf("RECORD %u %u %u table %d\n", i, at, size, p->nranges && p->ranges[0].cls == CLASS_SAMPLER);
        else
            printf("RECORD %u %u %u descriptor %u %u %u\n", i, at, size,
                   p->kind == P_CBV ? CLASS_CBV : p->kind == P_SRV ? CLASS_SRV : CLASS_UAV, p->space, p->reg);
        at += size;
    }
    printf("RECORD_SIZE %u\n", at);
}

/* Passes the local root signature to the converter, parameter by parameter. */
static int add_local(dxil_spv_converter c)
{
    unsigned i, j;
    for (i = 0; i < nlparams; i++) {
        const struct param *p = &lparams[i];
        switch (p->kind) {
        case P_CONSTANTS:
            dxil_spv_converter_add_local_root_constants(c, p->space, p->reg, p->words);
            break;
        case P_CBV: case P_SRV: case P_UAV:
            dxil_spv_converter_add_local_root_descriptor(c, p->kind == P_CBV ? DXIL_SPV_RESOURCE_CLASS_CBV :
                                                            p->kind == P_SRV ? DXIL_SPV_RESOURCE_CLASS_SRV :
                                                                               DXIL_SPV_RESOURCE_CLASS_UAV,
                                                         p->space, p->reg);
            break;
        case P_TABLE:
            if (dxil_spv_converter_begin_local_root_descriptor_table(c) != DXIL_SPV_SUCCESS)
                return 0;
            for (j = 0; j < p->nranges; j++)
                dxil_spv_converter_add_local_root_descriptor_table(c, (dxil_spv_resource_class)p->ranges[j].cls,
                                                                   p->ranges[j].space, p->ranges[j].base,
                                                                   p->ranges[j].count, p->ranges[j].offset);
            if (dxil_spv_converter_end_local_root_descriptor_table(c) != DXIL_SPV_SUCCESS)
                return 0;
            break;
        }
    }
    return 1;
}

static const char *type_name(const unsigned *a)
{
    if (a == HEAP_UBO) return "ubo";
    if (a == HEAP_SSBO) return "ssbo";
    if (a == HEAP_UNIFORM_TEXEL) return "uniform_texel";
    if (a == HEAP_STORAGE_TEXEL) return "storage_texel";
    if (a == HEAP_SAMPLED) return "sampled_image";
    if (a == HEAP_STORAGE_IMAGE) return "storage_image";
    if (a == HEAP_AS) return "acceleration_structure";
    if (a == HEAP_SAMPLER) return "sampler";
    if (a == HEAP_COUNTERS) return "counters";
    return "offsets";
}

static void print_layout(void)
{
    const unsigned *arrays[] = { HEAP_UBO, HEAP_SSBO, HEAP_UNIFORM_TEXEL, HEAP_STORAGE_TEXEL, HEAP_SAMPLED,
                                 HEAP_STORAGE_IMAGE, HEAP_AS, HEAP_SAMPLER, HEAP_COUNTERS, HEAP_OFFSETS };
    unsigned i;
    printf("LAYOUT descriptors %u words %u\n", root_descriptors, root_words);
    for (i = 0; i < nparams; i++) {
        const struct param *p = &params[i];
        if (p->kind <= P_UAV)
            printf("ROOT %u descriptor %u\n", i, p->word);
        else if (p->kind == P_CONSTANTS)
            printf("ROOT %u constants %u %u\n", i, 2 * root_descriptors + p->word, p->words);
        else
            printf("ROOT %u table %u\n", i, 2 * root_descriptors + p->word);
    }
    for (i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
        printf("HEAP %s %u %u\n", type_name(arrays[i]), arrays[i][0], arrays[i][1]);
    printf("HEAP static %u %u\n", SET_SAMPLERS, STATIC_FIRST);
    printf("SBT %u %u\n", SBT_SHIFT, SBT_SAMPLER_SHIFT);
}

/* D3D12_SHADER_VISIBILITY covers the stage. */
static int visible(unsigned vis, dxil_spv_shader_stage stage)
{
    if (vis == 0)
        return 1;
    switch (stage) {
    case DXIL_SPV_STAGE_VERTEX: return vis == 1;
    case DXIL_SPV_STAGE_HULL: return vis == 2;
    case DXIL_SPV_STAGE_DOMAIN: return vis == 3;
    case DXIL_SPV_STAGE_GEOMETRY: return vis == 4;
    case DXIL_SPV_STAGE_PIXEL: return vis == 5;
    case DXIL_SPV_STAGE_AMPLIFICATION: return vis == 6;
    case DXIL_SPV_STAGE_MESH: return vis == 7;
    default: return 0;
    }
}

static const char *class_name(unsigned cls)
{
    static const char *n[] = { "t", "u", "b", "s" };
    return n[cls];
}

static int is_ssbo(dxil_spv_resource_kind k)
{
    return k == DXIL_SPV_RESOURCE_KIND_RAW_BUFFER || k == DXIL_SPV_RESOURCE_KIND_STRUCTURED_BUFFER;
}

/* The heap array a descriptor of this class and kind lives in, and how the shader reads it. */
static const unsigned *heap_array(unsigned cls, dxil_spv_resource_kind k, dxil_spv_vulkan_descriptor_type *type)
{
    *type = DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_IDENTITY;
    if (cls == CLASS_SAMPLER)
        return HEAP_SAMPLER;
    if (cls == CLASS_CBV) {
        *type = DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_UBO;
        return HEAP_UBO;
    }
    if (is_ssbo(k)) {
        *type = DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_SSBO;
        return HEAP_SSBO;
    }
    if (k == DXIL_SPV_RESOURCE_KIND_TYPED_BUFFER) {
        *type = DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_TEXEL_BUFFER;
        return cls == CLASS_UAV ? HEAP_STORAGE_TEXEL : HEAP_UNIFORM_TEXEL;
    }
    if (k == DXIL_SPV_RESOURCE_KIND_RT_ACCELERATION_STRUCTURE)
        return HEAP_AS;
    return cls == CLASS_UAV ? HEAP_STORAGE_IMAGE : HEAP_SAMPLED;
}

static void say(unsigned cls, const dxil_spv_d3d_binding *d, const char *fmt, unsigned a, unsigned b, unsigned c,
                unsigned e)
{
    char what[160];
    snprintf(what, sizeof(what), fmt, a, b, c, e);
    if (d->register_index == NONE)
        printf("BIND %s heap-index -> %s\n", class_name(cls), what);
    else
        printf("BIND %s%u space%u range %d -> %s\n", class_name(cls), d->register_index, d->register_space,
               d->range_size == NONE ? -1 : (int)d->range_size, what);
}

/* Resolves one D3D binding against the root signature, as the layer's callbacks all do.
 * Returns 1 and fills `b` (and `*push_word` for root constants), or 0 when nothing covers it. */
static int resolve(unsigned cls, const dxil_spv_d3d_binding *d, dxil_spv_vulkan_binding *b, unsigned *push_word)
{
    dxil_spv_vulkan_descriptor_type type;
    const unsigned *arr = heap_array(cls, d->kind, &type);
    unsigned i, j;

    memset(b, 0, sizeof(*b));
    *push_word = NONE;
    if (no_root_signature && d->register_index != NONE) {
        b->set = d->register_space;
        b->binding = 8 * d->register_index + 2 * cls;
        b->descriptor_type = type == DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_UBO ? DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_IDENTITY : type;
        say(cls, d, "descriptor set %u binding %u%.0u%.0u", b->set, b->binding, 0, 0);
        printf("DESC %u %u %u %d %u %u %u %u %u\n", cls, d->register_space, d->register_index,
               d->range_size == NONE ? -1 : (int)d->range_size, (unsigned)d->kind, b->set, b->binding,
               (unsigned)b->descriptor_type, b->binding + 1);
        return 1;
    }
    if (d->register_index == NONE) {
        /* SM 6.6 ResourceDescriptorHeap / SamplerDescriptorHeap: the index is the heap index. */
        b->set = arr[0], b->binding = arr[1];
        b->root_constant_index = NONE;
        b->bindless.use_heap = DXIL_SPV_TRUE;
        b->bindless.heap_root_offset = 0;
        b->descriptor_type = type;
        say(cls, d, "heap set %u binding %u: the heap index%.0u%.0u", arr[0], arr[1], 0, 0);
        return 1;
    }
    for (i = 0; i < nparams; i++) {
        const struct param *p = &params[i];
        if (!visible(p->vis, d->stage))
            continue;
        if (p->kind <= P_UAV && d->range_size == 1 && p->space == d->register_space && p->reg == d->register_index &&
            ((p->kind == P_CBV && cls == CLASS_CBV) || (p->kind == P_SRV && cls == CLASS_SRV) ||
             (p->kind == P_UAV && cls == CLASS_UAV))) {
            b->descriptor_type = DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_BUFFER_DEVICE_ADDRESS;
            b->root_constant_index = p->word;
            say(cls, d, "address root descriptor %u (words %u, %u)%.0u", p->word, 2 * p->word, 2 * p->word + 1, 0);
            return 1;
        }
        if (p->kind == P_CONSTANTS && cls == CLASS_CBV && d->range_size == 1 && p->space == d->register_space &&
            p->reg == d->register_index) {
            *push_word = p->word;
            say(cls, d, "root constants at word %u (%u words)%.0u%.0u", 2 * root_descriptors + p->word, p->words, 0, 0);
            return 1;
        }
        if (p->kind != P_TABLE)
            continue;
        for (j = 0; j < p->nranges; j++) {
            const struct range *r = &p->ranges[j];
            unsigned first = d->register_index - r->base;
            if (r->cls != cls || r->space != d->register_space || d->register_index < r->base)
                continue;
            if (r->count != NONE && (d->range_size == NONE || first + d->range_size > r->count))
                continue;
            b->set = arr[0], b->binding = arr[1];
            b->root_constant_index = p->word;
            b->bindless.use_heap = DXIL_SPV_TRUE;
            b->bindless.heap_root_offset = r->offset + first;
            b->descriptor_type = type;
            say(cls, d, "heap set %u binding %u: word %u + %u", arr[0], arr[1], 2 * root_descriptors + p->word,
                r->offset + first);
            return 1;
        }
    }
    if (cls == CLASS_SAMPLER) {
        for (i = 0; i < nstatics; i++) {
            if (statics[i][0] == d->register_space && statics[i][1] == d->register_index && d->range_size == 1 &&
                visible(statics[i][2], d->stage)) {
                b->set = SET_SAMPLERS, b->binding = STATIC_FIRST + i;
                say(cls, d, "static sampler %u: set %u binding %u%.0u", i, SET_SAMPLERS, STATIC_FIRST + i, 0);
                return 1;
            }
        }
    }
    /* A local root signature's table: a heap element of the same arrays; the converter indexes
     * it through the shader record's descriptor handle (this answer names the array). */
    for (i = 0; i < nlparams; i++) {
        const struct param *p = &lparams[i];
        if (p->kind != P_TABLE)
            continue;
        for (j = 0; j < p->nranges; j++) {
            const struct range *r = &p->ranges[j];
            if (r->cls != cls || r->space != d->register_space || d->register_index < r->base)
                continue;
            if (r->count != NONE && d->register_index - r->base >= r->count)
                continue;
            b->set = arr[0], b->binding = arr[1];
            b->root_constant_index = NONE;
            b->bindless.use_heap = DXIL_SPV_TRUE;
            b->bindless.heap_root_offset = r->offset + d->register_index - r->base;
            b->descriptor_type = type;
            say(cls, d, "heap set %u binding %u: local table at record byte %u + %u", arr[0], arr[1], lrecord[i],
                r->offset + d->register_index - r->base);
            return 1;
        }
    }
    say(cls, d, "refused (not in the root signature)%.0u%.0u%.0u%.0u", 0, 0, 0, 0);
    return 0;
}

static void offsets(dxil_spv_vulkan_binding *o)
{
    o->set = HEAP_OFFSETS[0], o->binding = HEAP_OFFSETS[1];
}

static dxil_spv_bool srv_cb(void *user, const dxil_spv_d3d_binding *d, dxil_spv_srv_vulkan_binding *v)
{
    unsigned w;
    (void)user;
    memset(v, 0, sizeof(*v));
    if (!resolve(CLASS_SRV, d, &v->buffer_binding, &w))
        return DXIL_SPV_FALSE;
    offsets(&v->offset_binding);
    return DXIL_SPV_TRUE;
}

static dxil_spv_bool uav_cb(void *user, const dxil_spv_uav_d3d_binding *u, dxil_spv_uav_vulkan_binding *v)
{
    unsigned w;
    (void)user;
    memset(v, 0, sizeof(*v));
    if (!resolve(CLASS_UAV, &u->d3d_binding, &v->buffer_binding, &w))
        return DXIL_SPV_FALSE;
    if (u->has_counter && no_root_signature) {
        /* The counter: a storage buffer at the UAV's binding + 1. */
        v->counter_binding = v->buffer_binding;
        v->counter_binding.binding += 1;
        v->counter_binding.descriptor_type = DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_SSBO;
    } else if (u->has_counter) {
        /* The counter: element (same heap index) of the counter array. */
        v->counter_binding = v->buffer_binding;
        v->counter_binding.set = HEAP_COUNTERS[0], v->counter_binding.binding = HEAP_COUNTERS[1];
        v->counter_binding.descriptor_type = DXIL_SPV_VULKAN_DESCRIPTOR_TYPE_SSBO;
        printf("BIND counter -> set %u binding %u\n", HEAP_COUNTERS[0], HEAP_COUNTERS[1]);
    }
    offsets(&v->offset_binding);
    return DXIL_SPV_TRUE;
}

static dxil_spv_bool cbv_cb(void *user, const dxil_spv_d3d_binding *d, dxil_spv_cbv_vulkan_binding *v)
{
    unsigned w;
    (void)user;
    memset(v, 0, sizeof(*v));
    if (!resolve(CLASS_CBV, d, &v->vulkan.uniform_binding, &w))
        return DXIL_SPV_FALSE;
    if (w != NONE) {
        memset(&v->vulkan, 0, sizeof(v->vulkan));
        v->push_constant = DXIL_SPV_TRUE;
        v->vulkan.push_constant.offset_in_words = w;
    }
    return DXIL_SPV_TRUE;
}

static dxil_spv_bool sampler_cb(void *user, const dxil_spv_d3d_binding *d, dxil_spv_vulkan_binding *v)
{
    unsigned w;
    (void)user;
    return resolve(CLASS_SAMPLER, d, v, &w) ? DXIL_SPV_TRUE : DXIL_SPV_FALSE;
}

/* Vertex inputs: Location = signature row + 3 (not dxjit's own rule, so the test sees the
 * answer being used). */
#define VERTEX_LOCATION_BIAS 3

static dxil_spv_bool vertex_input_cb(void *user, const dxil_spv_d3d_vertex_input *in, dxil_spv_vulkan_vertex_input *out)
{
    (void)user;
    out->location = in->start_row + VERTEX_LOCATION_BIAS;
    printf("VERTEX %s %u row %u rows %u -> location %u\n", in->semantic, in->semantic_index, in->start_row, in->rows,
           out->location);
    return DXIL_SPV_TRUE;
}

static void add_options(dxil_spv_converter c)
{
    /* The layer's always-sent options, with its device's answers (shared notes §4): SSBO views
     * aligned to 64 bytes (buffer views off that alignment read their bounds from the offset
     * buffer), typed views with offsets, buffer addresses for root descriptors. */
    dxil_spv_option_ssbo_alignment align = { { DXIL_SPV_OPTION_SSBO_ALIGNMENT }, ssbo_alignment };
    dxil_spv_option_bindless_offset_buffer_layout layout = { { DXIL_SPV_OPTION_BINDLESS_OFFSET_BUFFER_LAYOUT }, 0, 1, 2 };
    dxil_spv_option_precise_control precise = { { DXIL_SPV_OPTION_PRECISE_CONTROL }, DXIL_SPV_FALSE, DXIL_SPV_TRUE };
    dxil_spv_option_physical_storage_buffer psb = { { DXIL_SPV_OPTION_PHYSICAL_STORAGE_BUFFER }, DXIL_SPV_TRUE };
    dxil_spv_option_bindless_typed_buffer_offsets typed = { { DXIL_SPV_OPTION_BINDLESS_TYPED_BUFFER_OFFSETS }, DXIL_SPV_TRUE };
    dxil_spv_option_shader_demote_to_helper demote = { { DXIL_SPV_OPTION_SHADER_DEMOTE_TO_HELPER }, DXIL_SPV_TRUE };
    dxil_spv_option_scalar_block_layout scalar = { { DXIL_SPV_OPTION_SCALAR_BLOCK_LAYOUT }, DXIL_SPV_TRUE, DXIL_SPV_TRUE };
    dxil_spv_option_compute_shader_derivatives deriv = { { DXIL_SPV_OPTION_COMPUTE_SHADER_DERIVATIVES }, 0, 0 };
    dxil_spv_option_subgroup_properties subgroup = { { DXIL_SPV_OPTION_SUBGROUP_PROPERTIES }, subgroup_min, subgroup_max };
    dxil_spv_option_force_subgroup_size force = { { DXIL_SPV_OPTION_FORCE_SUBGROUP_SIZE }, forced_subgroup, DXIL_SPV_TRUE };
    dxil_spv_option_min_precision_native_16bit minprec = { { DXIL_SPV_OPTION_MIN_PRECISION_NATIVE_16BIT },
                                                           native_min_precision ? DXIL_SPV_TRUE : DXIL_SPV_FALSE };
    dxil_spv_option_sbt_descriptor_size_log2 sbt = { { DXIL_SPV_OPTION_SBT_DESCRIPTOR_SIZE_LOG2 }, SBT_SHIFT,
                                                     SBT_SAMPLER_SHIFT };
    const dxil_spv_option_base *opts[] = { &align.base, &layout.base, &precise.base, &psb.base, &typed.base,
                                           &demote.base, &scalar.base, &deriv.base, &minprec.base, &sbt.base,
                                           NULL, NULL };
    size_t i, n = 10;
    if (subgroup_max)
        opts[n++] = &subgroup.base;
    if (forced_subgroup)
        opts[n++] = &force.base;
    for (i = 0; i < n; i++) {
        if (dxil_spv_converter_add_option(c, opts[i]) != DXIL_SPV_SUCCESS) {
            fprintf(stderr, "option %d rejected\n", (int)opts[i]->type);
            exit(2);
        }
    }
}

static void compile(int index, const char *path, const char *outdir)
{
    size_t size = 0;
    unsigned char *data = read_file(path, &size);
    dxil_spv_parsed_blob blob = NULL;
    dxil_spv_converter conv = NULL;
    dxil_spv_compiled_spirv spirv;
    dxil_spv_shader_stage stage = DXIL_SPV_STAGE_UNKNOWN;
    const char *entry = NULL;
    dxil_spv_result r;
    unsigned x = 0, y = 0, z = 0;

    if (!data) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    last_error[0] = 0;
    dxil_spv_begin_thread_allocator_context();
    r = dxil_spv_parse_dxil_blob(data, size, &blob);
    free(data);
    if (r != DXIL_SPV_SUCCESS)
        goto fail;
    r = dxil_spv_parsed_blob_get_entry_point_demangled_name(blob, 0, &entry);
    if (r != DXIL_SPV_SUCCESS || !entry)
        goto fail;
    stage = export_name ? dxil_spv_parsed_blob_get_shader_stage_for_entry(blob, export_name)
                        : dxil_spv_parsed_blob_get_shader_stage(blob);
    printf("SHADER %d %d %s\n", index, (int)stage, path);
    r = dxil_spv_create_converter(blob, &conv);
    if (r != DXIL_SPV_SUCCESS)
        goto fail;
    add_options(conv);
    if (export_name) {
        char plain[256];
        plain_name(export_name, plain, sizeof(plain));
        dxil_spv_converter_set_entry_point(conv, export_name);
        if (local_from_library && !local_from_rdat(blob, plain))
            nlparams = 0;
        layout_record();
        if (!add_local(conv)) {
            r = DXIL_SPV_ERROR_INVALID_ARGUMENT;
            goto fail;
        }
    }
    dxil_spv_converter_set_root_constant_word_count(conv, root_words);
    dxil_spv_converter_set_root_descriptor_count(conv, root_descriptors);
    dxil_spv_converter_set_srv_remapper(conv, srv_cb, NULL);
    dxil_spv_converter_set_sampler_remapper(conv, sampler_cb, NULL);
    dxil_spv_converter_set_uav_remapper(conv, uav_cb, NULL);
    dxil_spv_converter_set_cbv_remapper(conv, cbv_cb, NULL);
    if (stage == DXIL_SPV_STAGE_VERTEX)
        dxil_spv_converter_set_vertex_input_remapper(conv, vertex_input_cb, NULL);
    r = dxil_spv_converter_run(conv);
    if (r != DXIL_SPV_SUCCESS)
        goto fail;
    r = dxil_spv_converter_get_compiled_spirv(conv, &spirv);
    if (r != DXIL_SPV_SUCCESS || !spirv.data || spirv.size < 20 || spirv.size % 4) {
        r = DXIL_SPV_ERROR_GENERIC;
        goto fail;
    }
    if (stage == DXIL_SPV_STAGE_COMPUTE) {
        unsigned wmin = 0, wmax = 0, wpref = 0;
        if (dxil_spv_converter_get_compute_workgroup_dimensions(conv, &x, &y, &z) != DXIL_SPV_SUCCESS ||
            dxil_spv_converter_get_compute_wave_size_range(conv, &wmin, &wmax, &wpref) != DXIL_SPV_SUCCESS) {
            r = DXIL_SPV_ERROR_GENERIC;
            goto fail;
        }
        printf("WAVE %u %u %u\n", wmin, wmax, wpref);
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
    {
        const char *spv_entry = "main";
        if (dxil_spv_converter_get_compiled_entry_point(conv, &spv_entry) != DXIL_SPV_SUCCESS || !spv_entry) {
            r = DXIL_SPV_ERROR_GENERIC;
            goto fail;
        }
        printf("OK %d %d %zu %u %u %u %s\n", index, (int)stage, spirv.size, x, y, z, spv_entry);
    }
    dxil_spv_converter_free(conv);
    dxil_spv_parsed_blob_free(blob);
    dxil_spv_end_thread_allocator_context();
    return;
fail:
    printf("FAIL %d %d\t%s\n", index, (int)r, last_error);
    dxil_spv_converter_free(conv);
    dxil_spv_parsed_blob_free(blob);
    dxil_spv_end_thread_allocator_context();
}

int main(int argc, char **argv)
{
    const char *outdir = NULL;
    int i, n = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: layer_exec ROOTSIG [-o OUTDIR] [SHADER...]\n");
        return 2;
    }
    if (!strcmp(argv[1], "-"))
        no_root_signature = 1;
    else
        read_root_signature(argv[1]);
    print_layout();
    dxil_spv_set_thread_log_callback(log_cb, NULL);
    for (i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            outdir = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 2 < argc) {
            subgroup_min = (unsigned)atoi(argv[++i]);
            subgroup_max = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-f") && i + 1 < argc)
            forced_subgroup = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "-n"))
            native_min_precision = 1;
        else if (!strcmp(argv[i], "-e") && i + 1 < argc)
            export_name = argv[++i];
        else if (!strcmp(argv[i], "-l") && i + 1 < argc)
            read_signature(argv[++i], lparams, &nlparams, 0);
        else if (!strcmp(argv[i], "-L"))
            local_from_library = 1;
        else if (!strcmp(argv[i], "-a") && i + 1 < argc)
            ssbo_alignment = (unsigned)atoi(argv[++i]);
        else
            compile(n++, argv[i], outdir);
    }
    dxil_spv_set_thread_log_callback(NULL, NULL);
    fflush(stdout);
    return 0;
}
