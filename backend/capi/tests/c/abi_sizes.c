/* Prints the size of each dxil_spv struct the library reads or writes, as the C header lays it
 * out, for comparison with the library's Rust declarations. */
#include "dxil_spirv_c.h"
#include <stdio.h>
#include <stddef.h>

#define SIZE(t) printf("%s %zu\n", #t, sizeof(t))

int main(void)
{
    SIZE(dxil_spv_d3d_vertex_input);
    SIZE(dxil_spv_vulkan_vertex_input);
    SIZE(dxil_spv_d3d_stream_output);
    SIZE(dxil_spv_vulkan_stream_output);
    SIZE(dxil_spv_d3d_shader_stage_io);
    SIZE(dxil_spv_vulkan_shader_stage_io);
    SIZE(dxil_spv_d3d_binding);
    SIZE(dxil_spv_vulkan_binding);
    SIZE(dxil_spv_uav_d3d_binding);
    SIZE(dxil_spv_srv_vulkan_binding);
    SIZE(dxil_spv_uav_vulkan_binding);
    SIZE(dxil_spv_cbv_vulkan_binding);
    SIZE(dxil_spv_compiled_spirv);
    SIZE(dxil_spv_rdat_subobject);
    SIZE(dxil_spv_option_output_swizzle);
    SIZE(dxil_spv_option_root_constant_inline_uniform_block);
    SIZE(dxil_spv_option_descriptor_qa);
    SIZE(dxil_spv_option_instruction_instrumentation);
    SIZE(dxil_spv_option_nvapi);
    SIZE(dxil_spv_option_branch_control);
    SIZE(dxil_spv_option_shader_source_file);
    SIZE(dxil_spv_option_bindless_offset_buffer_layout);
    printf("offset_binding %zu counter_binding %zu push_constant %zu\n",
           offsetof(dxil_spv_srv_vulkan_binding, offset_binding), offsetof(dxil_spv_uav_vulkan_binding, counter_binding),
           offsetof(dxil_spv_cbv_vulkan_binding, push_constant));
    printf("rdat kind %zu name %zu hit_group_type %zu exports %zu num_exports %zu args %zu payload %zu payload_size %zu\n",
           offsetof(dxil_spv_rdat_subobject, kind), offsetof(dxil_spv_rdat_subobject, subobject_name),
           offsetof(dxil_spv_rdat_subobject, hit_group_type), offsetof(dxil_spv_rdat_subobject, exports),
           offsetof(dxil_spv_rdat_subobject, num_exports), offsetof(dxil_spv_rdat_subobject, args),
           offsetof(dxil_spv_rdat_subobject, payload), offsetof(dxil_spv_rdat_subobject, payload_size));
    return 0;
}
