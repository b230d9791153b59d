//! DXIL semantic kinds (`DXIL::SemanticKind`): what a signature element means to the pipeline
//! (a user semantic or one system value). The one semantic-kind type of the crate: the
//! metadata decoder (`dxil::SemanticKind`), the `PSV0` parser (which keeps the raw number and
//! converts), the linker and lowering use it; the `ISG1`-style parts' `D3D_NAME` numbering
//! (`container::signature::SystemValue`) converts to it too.

use crate::dxil_enum::dxil_enum;

dxil_enum! {
    /// `DXIL::SemanticKind`: what a signature element means to the pipeline.
    SemanticKind {
        Arbitrary = 0 => "arbitrary",
        VertexID = 1 => "vertex_id",
        InstanceID = 2 => "instance_id",
        Position = 3 => "position",
        RenderTargetArrayIndex = 4 => "render_target_array_index",
        ViewPortArrayIndex = 5 => "viewport_array_index",
        ClipDistance = 6 => "clip_distance",
        CullDistance = 7 => "cull_distance",
        OutputControlPointID = 8 => "output_control_point_id",
        DomainLocation = 9 => "domain_location",
        PrimitiveID = 10 => "primitive_id",
        GSInstanceID = 11 => "gs_instance_id",
        SampleIndex = 12 => "sample_index",
        IsFrontFace = 13 => "is_front_face",
        Coverage = 14 => "coverage",
        InnerCoverage = 15 => "inner_coverage",
        Target = 16 => "target",
        Depth = 17 => "depth",
        DepthLessEqual = 18 => "depth_less_equal",
        DepthGreaterEqual = 19 => "depth_greater_equal",
        StencilRef = 20 => "stencil_ref",
        DispatchThreadID = 21 => "dispatch_thread_id",
        GroupID = 22 => "group_id",
        GroupIndex = 23 => "group_index",
        GroupThreadID = 24 => "group_thread_id",
        TessFactor = 25 => "tess_factor",
        InsideTessFactor = 26 => "inside_tess_factor",
        ViewID = 27 => "view_id",
        Barycentrics = 28 => "barycentrics",
        ShadingRate = 29 => "shading_rate",
        CullPrimitive = 30 => "cull_primitive",
        StartVertexLocation = 31 => "start_vertex_location",
        StartInstanceLocation = 32 => "start_instance_location",
        Invalid = 33 => "invalid",
    }
}

impl SemanticKind {
    /// The HLSL system-value semantic (`SV_Position`), or `""` for
    /// arbitrary (user) semantics and `Invalid`.
    pub fn system_value_name(self) -> &'static str {
        use SemanticKind::*;
        match self {
            Arbitrary | Invalid => "",
            VertexID => "SV_VertexID",
            InstanceID => "SV_InstanceID",
            Position => "SV_Position",
            RenderTargetArrayIndex => "SV_RenderTargetArrayIndex",
            ViewPortArrayIndex => "SV_ViewportArrayIndex",
            ClipDistance => "SV_ClipDistance",
            CullDistance => "SV_CullDistance",
            OutputControlPointID => "SV_OutputControlPointID",
            DomainLocation => "SV_DomainLocation",
            PrimitiveID => "SV_PrimitiveID",
            GSInstanceID => "SV_GSInstanceID",
            SampleIndex => "SV_SampleIndex",
            IsFrontFace => "SV_IsFrontFace",
            Coverage => "SV_Coverage",
            InnerCoverage => "SV_InnerCoverage",
            Target => "SV_Target",
            Depth => "SV_Depth",
            DepthLessEqual => "SV_DepthLessEqual",
            DepthGreaterEqual => "SV_DepthGreaterEqual",
            StencilRef => "SV_StencilRef",
            DispatchThreadID => "SV_DispatchThreadID",
            GroupID => "SV_GroupID",
            GroupIndex => "SV_GroupIndex",
            GroupThreadID => "SV_GroupThreadID",
            TessFactor => "SV_TessFactor",
            InsideTessFactor => "SV_InsideTessFactor",
            ViewID => "SV_ViewID",
            Barycentrics => "SV_Barycentrics",
            ShadingRate => "SV_ShadingRate",
            CullPrimitive => "SV_CullPrimitive",
            StartVertexLocation => "SV_StartVertexLocation",
            StartInstanceLocation => "SV_StartInstanceLocation",
        }
    }
}
