// SPDX-License-Identifier: MIT
// Parameter tables of the XNNPACK node union (facts sheet §3.1): which value ids a node reads
// and writes, and its parameters in the words a user of XNNPACK would recognise.
#include "core/delegates/xnnpacknodes.h"

#include "core/delegates/decoderutil.h"
#include "core/util/text.h"

#include <iterator>

namespace etscope::core::xnnpack {
namespace fbx = etscope::fb::xnnpack;
using detail::floatText;

namespace {

std::string listText(const flatbuffers::Vector<std::uint32_t>* items)
{
    std::vector<std::int64_t> values;
    if (items)
        values.assign(items->begin(), items->end());
    return formatShape(values);
}

std::string quad(std::uint32_t top, std::uint32_t right, std::uint32_t bottom, std::uint32_t left)
{
    return "(" + std::to_string(top) + ", " + std::to_string(right) + ", " + std::to_string(bottom) + ", "
        + std::to_string(left) + ")";
}

std::string pair(std::uint32_t height, std::uint32_t width)
{
    return std::to_string(height) + " × " + std::to_string(width);
}

void portsOf(const fbx::Node1x1* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("flags", t->flags());
}

void portsOf(const fbx::Node2x1* t, NodePorts& p)
{
    p.in("input1", t->input1_id());
    p.in("input2", t->input2_id());
    p.out("output", t->output_id());
    p.param("flags", t->flags());
}

void portsOf(const fbx::FullyConnected* t, NodePorts& p)
{
    p.in("input", t->input1_id());
    p.in("filter", t->filter_id());
    p.in("bias", t->bias_id());
    p.out("output", t->output_id());
    p.param("flags", t->flags());
}

void portsOf(const fbx::Conv* t, NodePorts& p)
{
    p.in("input", t->input1_id());
    p.in("filter", t->filter_id());
    p.in("bias", t->bias_id());
    p.out("output", t->output_id());
    p.param("padding (t, r, b, l)", quad(t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left()));
    p.param("kernel (h × w)", pair(t->kernel_height(), t->kernel_width()));
    p.param("subsampling (h × w)", pair(t->subsampling_height(), t->subsampling_width()));
    p.param("dilation (h × w)", pair(t->dilation_height(), t->dilation_width()));
    p.param("groups", t->groups());
    p.param("group input channels", t->group_input_channels());
    p.param("group output channels", t->group_output_channels());
    p.param("adjustment (h × w)", pair(t->adjustment_height(), t->adjustment_width()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::Pooling2D* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("padding (t, r, b, l)", quad(t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left()));
    p.param("pooling (h × w)", pair(t->pooling_height(), t->pooling_width()));
    p.param("stride (h × w)", pair(t->stride_height(), t->stride_width()));
    p.param("dilation (h × w)", pair(t->dilation_height(), t->dilation_width()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::ArgMaxPooling2d* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output value", t->output_value_id());
    p.out("output index", t->output_index_id());
    p.param("padding (t, r, b, l)", quad(t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left()));
    p.param("pooling (h × w)", pair(t->pooling_height(), t->pooling_width()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::Cat* t, NodePorts& p, int inputCount)
{
    const std::uint32_t ids[] = { t->input1_id(), t->input2_id(), t->input3_id(), t->input4_id(), t->input5_id() };
    static constexpr const char* kNames[] = { "input1", "input2", "input3", "input4", "input5" };
    for (int i = 0; i < inputCount && i < 5; ++i)
        p.in(kNames[i], ids[i]);
    p.out("output", t->output_id());
    p.param("axis", t->axis());
    p.param("flags", t->flags());
}

void portsOf(const fbx::StaticTranspose* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("num dims", t->num_dims());
    p.param("perm", listText(t->perm()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::StaticReshape* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("num dims", t->num_dims());
    p.param("new shape", listText(t->new_shape()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::StaticSlice* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("num dims", t->num_dims());
    p.param("offsets", listText(t->offsets()));
    p.param("sizes", listText(t->sizes()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::ResizeBilinear2D* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("new size (h × w)", pair(t->new_height(), t->new_width()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::ConstantPad* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("pre paddings", listText(t->pre_paddings()));
    p.param("post paddings", listText(t->post_paddings()));
    p.param("padding value", floatText(t->padding_value()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::ELU* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("alpha", floatText(t->alpha()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::LeakyReLU* t, NodePorts& p)
{
    p.in("input", t->input_id());
    p.out("output", t->output_id());
    p.param("negative slope", floatText(t->negative_slope()));
    p.param("flags", t->flags());
}

void portsOf(const fbx::SDPA* t, NodePorts& p)
{
    p.in("query", t->query_id());
    p.in("key", t->key_id());
    p.in("value", t->value_id());
    p.in("scale", t->scale_id());
    p.in("mask", t->mask_id());
    p.out("output", t->output_id());
    p.param("flags", t->flags());
}

} // namespace

std::string datatypeName(int type)
{
    static constexpr const char* kNames[] = { "invalid", "fp32", "fp16", "qint8", "quint8", "qint32", "qcint8",
        "qcint32", "qcint4", "qdint8", "qbint4", "qpint8", "int32", "pfp32", "bf16" };
    if (type >= 0 && type < static_cast<int>(std::size(kNames)))
        return kNames[type];
    return "xnn_datatype(" + std::to_string(type) + ")";
}

bool nodePorts(const fbx::XNode& node, NodePorts& ports)
{
    using U = fbx::XNodeUnion;
    const void* table = node.xnode_union();
    if (!table)
        return false;
    switch (node.xnode_union_type()) {
    case U::XNNAdd:
    case U::XNNDiv:
    case U::XNNMinimum:
    case U::XNNMaximum:
    case U::XNNMultiply:
    case U::XNNSubtract:
    case U::XNNPReLU:
    case U::XNNBatchMatrixMultiply:
        portsOf(static_cast<const fbx::Node2x1*>(table), ports);
        return true;
    case U::XNNSoftmax:
    case U::XNNSigmoid:
    case U::XNNClamp:
    case U::XNNFloor:
    case U::XNNConvert:
    case U::XNNGlobalAvgPooling2d:
    case U::XNNSquareRoot:
    case U::XNNCeiling:
    case U::XNNHardswish:
    case U::XNNNegate:
    case U::XNNSquare:
    case U::XNNAbs:
    case U::XNNReciprocalSquareRoot:
    case U::XNNLog:
    case U::XNNGelu:
    case U::XNNTanh:
    case U::XNNExp:
    case U::XNNSin:
    case U::XNNCopy:
    case U::XNNCos:
        portsOf(static_cast<const fbx::Node1x1*>(table), ports);
        return true;
    case U::XNNFullyConnected:
        portsOf(static_cast<const fbx::FullyConnected*>(table), ports);
        return true;
    case U::XNNConv2d:
    case U::XNNDepthwiseConv2d:
    case U::XNNConvTranspose2d:
        portsOf(static_cast<const fbx::Conv*>(table), ports);
        return true;
    case U::XNNAvgPooling2d:
    case U::XNNMaxPooling2d:
        portsOf(static_cast<const fbx::Pooling2D*>(table), ports);
        return true;
    case U::XNNArgMaxPooling2d:
        portsOf(static_cast<const fbx::ArgMaxPooling2d*>(table), ports);
        return true;
    case U::XNNConcatenate2:
        portsOf(static_cast<const fbx::Cat*>(table), ports, 2);
        return true;
    case U::XNNConcatenate3:
        portsOf(static_cast<const fbx::Cat*>(table), ports, 3);
        return true;
    case U::XNNConcatenate4:
        portsOf(static_cast<const fbx::Cat*>(table), ports, 4);
        return true;
    case U::XNNConcatenate5:
        portsOf(static_cast<const fbx::Cat*>(table), ports, 5);
        return true;
    case U::XNNStaticTranspose:
        portsOf(static_cast<const fbx::StaticTranspose*>(table), ports);
        return true;
    case U::XNNStaticReshape:
        portsOf(static_cast<const fbx::StaticReshape*>(table), ports);
        return true;
    case U::XNNStaticSlice:
        portsOf(static_cast<const fbx::StaticSlice*>(table), ports);
        return true;
    case U::XNNStaticResizeBilinear2D:
        portsOf(static_cast<const fbx::ResizeBilinear2D*>(table), ports);
        return true;
    case U::XNNStaticConstantPad:
        portsOf(static_cast<const fbx::ConstantPad*>(table), ports);
        return true;
    case U::XNNELU:
        portsOf(static_cast<const fbx::ELU*>(table), ports);
        return true;
    case U::XNNLeakyReLU:
        portsOf(static_cast<const fbx::LeakyReLU*>(table), ports);
        return true;
    case U::XNNScaledDotProductAttention:
        portsOf(static_cast<const fbx::SDPA*>(table), ports);
        return true;
    default:
        return false;
    }
}

} // namespace etscope::core::xnnpack
