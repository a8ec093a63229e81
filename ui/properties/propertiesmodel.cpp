// SPDX-License-Identifier: MIT
#include "ui/properties/propertiesmodel.h"

#include "core/debug/edgegraph.h"

#include "core/methodgraph/graphbuilder.h"
#include "core/pte/pytree.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <QLocale>

#include <set>

namespace etscope::ui {

using namespace etscope::core;

namespace {

QString q(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString meta(const TensorMeta& m)
{
    if (!m.known())
        return {};
    return q(m.dtype)
        + (m.shape.empty() && m.dtype.find_first_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos
                ? QString()
                : QLatin1Char(' ') + q(formatShape(m.shape)));
}

/// "Tensor FLOAT [1, 3] (v0, args[0])": a method input or output without the "v0: " prefix,
/// the value index and where the pytree spec puts it after.
QString ioText(const Method& method, std::int32_t value, const std::vector<std::string>* paths, std::size_t i)
{
    QString text = q(describeValue(method, value));
    const QString prefix = QStringLiteral("v%1: ").arg(value);
    if (text.startsWith(prefix))
        text = text.mid(prefix.size());
    QString where = QStringLiteral("v%1").arg(value);
    if (paths && i < paths->size() && !(*paths)[i].empty())
        where += QStringLiteral(", ") + q((*paths)[i]);
    return text + QStringLiteral(" (") + where + QLatin1Char(')');
}

} // namespace

PropertiesModel::PropertiesModel(QObject* parent)
    : QStandardItemModel(0, NUM_COLUMNS, parent)
{
    setHorizontalHeaderLabels({ tr("Property"), tr("Value") });
}

/// One show… call: filled() once at its end.
struct PropertiesModel::Filling {
    explicit Filling(PropertiesModel& model)
        : model(model)
    {
        ++model.m_filling;
    }
    ~Filling()
    {
        if (--model.m_filling == 0)
            Q_EMIT model.filled();
    }
    Filling(const Filling&) = delete;
    Filling& operator=(const Filling&) = delete;
    PropertiesModel& model;
};

void PropertiesModel::clearAll()
{
    removeRows(0, rowCount());
}

QStandardItem* PropertiesModel::addGroup(const QString& title)
{
    auto* group = new QStandardItem(title);
    group->setEditable(false);
    QFont font = group->font();
    font.setBold(true);
    group->setFont(font);
    auto* empty = new QStandardItem();
    empty->setEditable(false);
    appendRow({ group, empty });
    return group;
}

void PropertiesModel::addRow(QStandardItem* group, const QString& name, const QString& value)
{
    auto* key = new QStandardItem(name);
    auto* val = new QStandardItem(value);
    key->setEditable(false);
    val->setEditable(false);
    key->setToolTip(name);
    val->setToolTip(value);
    group->appendRow({ key, val });
}

void PropertiesModel::addETRecordFacts(const ETRecord& record, QStandardItem*)
{
    // An ETRecord: its entries and maps, not a program's layout.
    QStandardItem* entries = addGroup(tr("Entries (%1)").arg(record.entries.size()));
    for (const ETRecordEntry& entry : record.entries)
        addRow(entries, q(entry.name), q(formatBytes(entry.size)) + QStringLiteral(" · ") + q(entry.role));
    QStandardItem* maps = addGroup(tr("Maps"));
    const auto count = [](const auto& perMethod) {
        std::size_t n = 0;
        for (const auto& [method, entries] : perMethod)
            n += entries.size();
        return QString::number(n);
    };
    addRow(maps, tr("debug_handle_map"), tr("%1 instruction(s)").arg(count(record.debugHandleMap)));
    addRow(maps, tr("delegate_map"), tr("%1 instruction(s)").arg(count(record.delegateMap)));
    addRow(maps, tr("instruction_id_to_num_outs_map"), tr("%1 instruction(s)").arg(count(record.numOutsMap)));
}

void PropertiesModel::showDocument(const Document& document, int methodIndex)
{
    const Filling filling(*this);
    clearAll();
    QStandardItem* file = addGroup(tr("File"));
    addRow(file, tr("path"), q(document.path));
    addRow(file, tr("format"), q(std::string(fileKindName(document.kind))));
    if (!document.program) {
        if (document.etrecord) // no graph could be read: the record's facts alone
            addETRecordFacts(*document.etrecord, file);
        addExternalDataFacts(document, file);
        return;
    }
    const Program& program = *document.program;
    addRow(file, tr("size"), q(formatBytes(program.file->size())));
    addRow(file, tr("identifier"), q(program.identifier));
    if (document.etrecord) {
        addRow(file, tr("graphs"), QString::number(program.methods.size()));
        addETRecordFacts(*document.etrecord, file);
        return;
    }
    addProgramFacts(document, file);
    if (methodIndex >= 0 && static_cast<std::size_t>(methodIndex) < program.methods.size())
        addMethodFacts(program.methods[static_cast<std::size_t>(methodIndex)]);
}

void PropertiesModel::addExternalDataFacts(const Document& document, QStandardItem* file)
{
    for (const ExternalData& data : document.externalData) {
        addRow(file, tr("size"), q(formatBytes(data.file->size())));
        addRow(file, tr("identifier"), QStringLiteral("FT01 (FH01 header, %1 bytes)").arg(data.header.length));
        addRow(file, tr("layout"), q(std::string(data.layoutName())));
        addRow(file, tr("segments"), QString::number(data.segments.size()));
        QStandardItem* entries = addGroup(tr("Entries (%1)").arg(data.entries.size()));
        for (const NamedDataEntry& entry : data.entries) {
            QString value = q(formatBytes(entry.data.size)) + tr(" in segment %1").arg(entry.segmentIndex);
            if (entry.layout)
                value += QStringLiteral(" · ") + q(scalarTypeName(entry.layout->scalarType)) + QLatin1Char(' ')
                    + q(formatShape(entry.layout->sizes));
            addRow(entries, q(entry.key), value);
        }
    }
}

void PropertiesModel::addProgramFacts(const Document& document, QStandardItem* file)
{
    const Program& program = *document.program;
    if (program.header)
        addRow(file, tr("extended header"),
            QStringLiteral("eh00, %1 bytes; program %2 bytes; segments at %3 (%4 bytes)")
                .arg(program.header->length)
                .arg(program.header->programSize)
                .arg(program.header->segmentBaseOffset)
                .arg(program.header->segmentDataSize));
    else
        addRow(file, tr("extended header"), tr("none"));
    addRow(file, tr("segments"), QString::number(program.segments.size()));
    addRow(file, tr("named data"), QString::number(program.namedData.size()));
    addRow(file, tr("methods"), QString::number(program.methods.size()));
    for (const ExternalData& data : document.externalData)
        addRow(file, tr("external data"), q(data.path()) + QStringLiteral(" (%1 entries)").arg(data.entries.size()));
    if (document.bundled)
        for (const BundledTestSuite& suite : document.bundled->suites)
            addRow(file, tr("test suite"), q(suite.methodName) + QStringLiteral(": %1 cases").arg(suite.cases.size()));
}

void PropertiesModel::addMethodFacts(const Method& method)
{
    QStandardItem* group = addGroup(tr("Method %1").arg(q(method.name)));
    const InstructionCounts c = method.instructionCounts();
    addRow(group, tr("values"), QString::number(method.values.size()));
    addRow(
        group, tr("inputs / outputs"), QStringLiteral("%1 / %2").arg(method.inputs.size()).arg(method.outputs.size()));
    addRow(group, tr("instructions"),
        QStringLiteral("%1 (kernel %2, delegate %3, move %4, jump_false %5, free %6)")
            .arg(c.total())
            .arg(c.kernel)
            .arg(c.delegate)
            .arg(c.move)
            .arg(c.jumpFalse)
            .arg(c.free));
    addSpecRow(group, tr("input spec"), method, true);
    addSpecRow(group, tr("output spec"), method, false);
    for (std::size_t i = 1; i < method.nonConstBufferSizes.size(); ++i)
        addRow(group, tr("arena %1").arg(i), q(formatBytes(static_cast<std::uint64_t>(method.nonConstBufferSizes[i]))));
    addMethodIo(method);
}

void PropertiesModel::addSpecRow(QStandardItem* group, const QString& name, const Method& method, bool inputs)
{
    // The encoded pytree spec read as the Python containers it stands for, each leaf named as
    // the Inputs and Outputs groups below name it ("args (input 0, input 1) · kwargs {}"); the
    // encoded text stays beneath it, for exactness (issue 38: only it was shown).
    const std::string& spec = inputs ? method.inputSpec : method.outputSpec;
    const std::size_t count = inputs ? method.inputs.size() : method.outputs.size();
    std::vector<std::string> names;
    names.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        names.push_back((inputs ? "input " : "output ") + std::to_string(i));
    const auto outline = spec.empty() ? std::nullopt : pytreeOutline(spec, names, inputs);
    if (!outline) {
        addRow(group, name, q(spec));
        return;
    }
    addRow(group, name, q(*outline));
    addRow(group->child(group->rowCount() - 1, 0), tr("encoded"), q(spec));
}

void PropertiesModel::addMethodIo(const Method& method)
{
    // The specs read: each input and output with its type and where the pytree puts it.
    // Leaf paths are only trusted when the spec has one leaf per value.
    const auto inputPaths = pytreeLeafPaths(method.inputSpec, true);
    const auto outputPaths = pytreeLeafPaths(method.outputSpec);
    const auto fits = [](const auto& paths, std::size_t count) { return paths && paths->size() == count; };
    if (!method.inputs.empty()) {
        QStandardItem* inputs = addGroup(tr("Inputs (%1)").arg(method.inputs.size()));
        const auto* paths = fits(inputPaths, method.inputs.size()) ? &*inputPaths : nullptr;
        for (std::size_t i = 0; i < method.inputs.size(); ++i)
            addRow(inputs, tr("input %1").arg(i), ioText(method, method.inputs[i], paths, i));
    }
    if (!method.outputs.empty()) {
        QStandardItem* outputs = addGroup(tr("Outputs (%1)").arg(method.outputs.size()));
        const auto* paths = fits(outputPaths, method.outputs.size()) ? &*outputPaths : nullptr;
        for (std::size_t i = 0; i < method.outputs.size(); ++i)
            addRow(outputs, tr("output %1").arg(i), ioText(method, method.outputs[i], paths, i));
    }
}

void PropertiesModel::showEdge(
    const Document& document, int methodIndex, const Graph& drawn, const NodeOrigin& fromOrigin, int edgeIndex)
{
    const Filling filling(*this);
    clearAll();
    if (edgeIndex < 0 || static_cast<std::size_t>(edgeIndex) >= drawn.edges.size() || !document.program)
        return;
    const Edge& edge = drawn.edges[static_cast<std::size_t>(edgeIndex)];
    QStandardItem* group = addGroup(tr("Edge"));
    addRow(group, tr("from"), q(drawn.node(edge.from).label));
    addRow(group, tr("to"), q(drawn.node(edge.to).label));
    addRow(group, tr("type and shape"), meta(edge.meta));
    // Values of the top level are the method's; inside a delegate they are the payload's value ids.
    if (!fromOrigin.inner.valid() && methodIndex >= 0
        && static_cast<std::size_t>(methodIndex) < document.program->methods.size())
        addRow(group, tr("value"),
            q(describeValue(document.program->methods[static_cast<std::size_t>(methodIndex)], edge.value.value)));
    else
        addRow(group, tr("delegate value id"), QString::number(edge.value.value));
    if (edge.inferred)
        addRow(group, tr("inferred"), tr("this connection was found by a rule, not stored in the file"));
    if (!fromOrigin.inner.valid() && methodIndex >= 0
        && static_cast<std::size_t>(methodIndex) < document.program->methods.size())
        addMemoryPlan(document.program->methods[static_cast<std::size_t>(methodIndex)], edge.value.value);
}

void PropertiesModel::addMemoryPlan(const Method& method, std::int32_t value)
{
    const std::vector<Attribute> plan = tensorPlan(method, value);
    if (plan.empty())
        return;
    QStandardItem* group = addGroup(tr("Memory plan"));
    for (const Attribute& fact : plan)
        addRow(group, q(fact.name), q(fact.value));
}

void PropertiesModel::showSource(
    const ETRecord& record, const std::string& method, const std::vector<DebugHandle>& handles)
{
    const ETRecordGraph* edge = record.edgeProgram(method);
    if (handles.empty() || !edge || !edge->program)
        return;
    QStandardItem* group = addGroup(tr("Source (ETRecord)"));
    QStringList handleText;
    for (const DebugHandle handle : handles)
        handleText << QString::number(handle.value);
    addRow(group, tr("debug handles"), handleText.join(QStringLiteral(", ")));
    std::set<const EdgeNode*> shown;
    for (const DebugHandle handle : handles)
        for (const EdgeNode* node : edge->program->nodesWithHandle(handle)) {
            if (!shown.insert(node).second)
                continue;
            addRow(group, q(node->name), q(shortEdgeTarget(node->target)));
            if (!node->nnModuleStack.empty())
                addRow(group, tr("  module"), q(node->nnModuleStack));
            if (!node->stackTrace.empty())
                addRow(group, tr("  stack trace"), q(node->stackTrace));
        }
    if (shown.empty())
        addRow(group, tr("edge nodes"), tr("none of the record's edge graph carries these handles"));
}

void PropertiesModel::showGroup(const Grouping& grouping, int index)
{
    const Filling filling(*this);
    clearAll();
    if (index < 0 || static_cast<std::size_t>(index) >= grouping.groups.size())
        return;
    const NodeGroup& facts = grouping.groups[static_cast<std::size_t>(index)];
    QStandardItem* group = addGroup(tr("Group %1 of %2").arg(index + 1).arg(grouping.groups.size()));
    addRow(group, tr("instructions"),
        tr("%1 – %2 (%3)").arg(facts.first.value).arg(facts.last.value).arg(facts.last.value - facts.first.value + 1));
    if (facts.chain)
        addRow(group, tr("chain"), QString::number(facts.chain));
    addRow(group, tr("nodes"), QString::number(facts.members.size()));
    addRow(group, tr("operators"), QString::number(facts.operators));
    addRow(group, tr("delegate calls"), QString::number(facts.delegates));
    for (const auto& [type, count] : facts.topOperators)
        addRow(group, q(type), tr("×%1").arg(count));
    addRow(group, tr("open"), tr("⊕ or double-click draws its nodes in place"));
}

void PropertiesModel::showNode(
    const Document& document, int methodIndex, const NodeOrigin& origin, const ETRecord* record)
{
    const Filling filling(*this);
    clearAll();
    if (!document.program || methodIndex < 0 || static_cast<std::size_t>(methodIndex) >= document.methods.size())
        return;
    const Method& method = document.program->methods[static_cast<std::size_t>(methodIndex)];
    const MethodAnalysis& analysis = document.methods[static_cast<std::size_t>(methodIndex)];
    const Graph& top = *analysis.graph;
    if (!origin.top.valid() || origin.top.index() >= top.nodes.size())
        return;
    const Node& topNode = top.node(origin.top);
    const bool inner
        = origin.inner.valid() && topNode.subgraph && origin.inner.index() < topNode.subgraph->nodes.size();
    const Graph& graph = inner ? *topNode.subgraph : top;
    const Node& node = inner ? graph.node(origin.inner) : topNode;

    addNodeFacts(method, graph, node, topNode, inner);
    if (m_facts) {
        const int delegate = inner && topNode.delegate.valid() ? static_cast<int>(topNode.delegate.index()) : -1;
        addCost(method.name, delegate, node, inner);
        if (!inner)
            addWhy(method.name, node);
    }
    // A value node of the method: its memory plan has a group of its own (below), so the
    // attributes leave out what it shows.
    const bool planned = !inner && node.value.valid() && !tensorPlan(method, node.value.value).empty();
    if (!node.attributes.empty()) {
        QStandardItem* attributes
            = addGroup(node.kind == NodeKind::Operator && !inner ? tr("Arguments") : tr("Attributes"));
        for (const auto attribute : node.attributes)
            if (!planned
                || (attribute.name != "bytes" && attribute.name != "allocation" && attribute.name != "dim order"))
                addRow(attributes, q(attribute.name), q(attribute.value));
    }
    if (planned)
        addMemoryPlan(method, node.value.value);
    addNodeEdges(graph, node);
    if (!inner && node.kind == NodeKind::Delegate && node.delegate.valid()
        && node.delegate.index() < analysis.delegates.size())
        addDelegatePayload(analysis.delegates[node.delegate.index()]);
    if (!inner)
        addStackTrace(method, node);
    if (record && !document.etrecord) {
        std::vector<DebugHandle> handles;
        if (inner && node.debugHandle && node.debugHandle->value != 65535)
            handles.push_back(*node.debugHandle);
        else if (!inner && node.instruction.valid())
            handles = record->handlesOf(method.name, node.instruction.value);
        showSource(*record, method.name, handles);
    }
}

void PropertiesModel::addNodeFacts(
    const Method& method, const Graph& graph, const Node& node, const Node& topNode, bool inner)
{
    QStandardItem* group = addGroup(tr("Node"));
    addRow(group, tr("label"), q(node.label));
    addRow(group, tr("kind"), q(std::string(nodeKindName(node.kind))));
    if (!node.opType.empty())
        addRow(group, tr("op type"), q(node.opType));
    if (inner)
        addRow(group, tr("inside"),
            QStringLiteral("%1 #%2 (%3)").arg(q(topNode.label)).arg(topNode.delegate.value).arg(q(graph.format)));
    if (node.instruction.valid())
        addRow(group, tr("instruction"),
            QString::number(node.instruction.value) + (node.chain ? tr(" (chain %1)").arg(node.chain) : QString()));
    if (node.value.valid())
        addRow(
            group, tr("value"), inner ? QString::number(node.value.value) : q(describeValue(method, node.value.value)));
    if (node.argPosition >= 0)
        addRow(group, tr("argument position"), QString::number(node.argPosition));
    if (node.debugHandle)
        addRow(group, tr("debug handle"), QString::number(node.debugHandle->value));
    if (node.inferred)
        addRow(group, tr("inferred"), tr("wiring found by a rule, not stored in the file"));
}

namespace {

QString count(std::uint64_t value)
{
    return QLocale().toString(static_cast<qulonglong>(value));
}

/// "840 B", "12.0 KiB (12,288 bytes)".
QString bytesText(std::uint64_t value)
{
    constexpr std::uint64_t kKiB = 1024;
    if (value < kKiB)
        return q(formatBytes(value));
    return QStringLiteral("%1 (%2 bytes)").arg(q(formatBytes(value)), count(value));
}

} // namespace

QModelIndex PropertiesModel::whyGroup() const
{
    for (int row = 0; row < rowCount(); ++row)
        if (item(row, 0)->text() == tr("Why on the CPU"))
            return index(row, 0);
    return {};
}

void PropertiesModel::addCost(const std::string& method, int delegate, const Node& node, bool inner)
{
    if (!inner && node.kind == NodeKind::Delegate && node.delegate.valid()) {
        // A delegate call: what its inside costs in sum, and the vendors' figures for it.
        const cost::DelegateCost* d = m_facts->delegateOf(method, static_cast<int>(node.delegate.index()));
        if (!d)
            return;
        QStandardItem* group = addGroup(tr("Cost"));
        if (!d->note.empty())
            addRow(group, tr("note"), q(d->note));
        const cost::CostTotals& t = d->totals;
        addRow(group, tr("operators"),
            tr("%1 (%2 counted, %3 no rule, %4 no shape)").arg(t.nodes).arg(t.counted).arg(t.noRule).arg(t.noShape));
        addRow(group, tr("MACs"), count(t.macs));
        addRow(group, tr("ops"), count(t.ops));
        addRow(group, tr("bytes read"), bytesText(t.bytesRead));
        addRow(group, tr("bytes written"), bytesText(t.bytesWritten));
        addRow(group, tr("parameter bytes"), bytesText(t.parameterBytes));
        if (t.estimatedCycles)
            addRow(group, tr("ETScope estimate"),
                tr("%1 NPU cycles (an estimate, not a measurement)").arg(count(*t.estimatedCycles)));
        if (d->npu && d->npu->macsPerCycle > 0)
            addRow(group, tr("estimated for"),
                tr("%1 MACs per cycle (%2)").arg(d->npu->macsPerCycle).arg(q(d->npu->macsSource)));
        // The vendors' figures beside, in a group of their own: "NPU cycles" (ETScope's estimate;
        // Vela's estimate; measured) first, then Vela's summary and the runner's counters, each
        // named for its source.
        if (!d->vendor.empty()) {
            QStandardItem* vendor = addGroup(tr("Vela and measured figures"));
            for (const Attribute& a : d->vendor)
                if (a.name == "NPU cycles")
                    addRow(vendor, tr("cycles side by side"), q(a.value));
            for (const Attribute& a : d->vendor)
                if (a.name != "NPU cycles")
                    addRow(vendor, q(a.name), q(a.value));
        }
        return;
    }
    const cost::NodeCost* c = m_facts->costOf(method, delegate, static_cast<std::uint32_t>(node.id.index()));
    if (!c)
        return;
    QStandardItem* group = addGroup(tr("Cost"));
    if (c->status != cost::CostStatus::Counted) {
        // Never 0: no rule or no shape says so, and why.
        addRow(group, tr("MACs"), q(std::string(cost::costStatusName(c->status))));
        if (!c->reason.empty())
            addRow(group, tr("why"), q(c->reason));
    } else {
        if (!c->kind.empty())
            addRow(group, tr("kind"), q(std::string(c->kind)));
        addRow(group, tr("MACs"), count(c->macs));
        addRow(group, tr("ops"), count(c->ops));
        addRow(group, tr("bytes read"), c->bytesRead ? bytesText(*c->bytesRead) : tr("not known"));
        addRow(group, tr("bytes written"), c->bytesWritten ? bytesText(*c->bytesWritten) : tr("not known"));
        addRow(group, tr("parameter bytes"), bytesText(c->parameterBytes));
        if (const auto intensity = c->intensity())
            addRow(group, tr("intensity"), tr("%1 MACs and ops per byte").arg(*intensity, 0, 'f', 2));
        if (!c->formula.empty())
            addRow(group, tr("formula"), q(c->formula));
        if (!c->reason.empty())
            addRow(group, tr("note"), q(c->reason));
    }
    if (c->streamOffset)
        addRow(group, tr("command offset"), QStringLiteral("0x%1").arg(*c->streamOffset, 0, 16));
    if (c->estimate) {
        const cost::NpuEstimate& e = *c->estimate;
        QString text = tr("%1 cycles, %2-bound").arg(count(e.cycles), q(e.bound));
        if (e.computeCycles)
            text += tr("; compute %1").arg(count(*e.computeCycles));
        if (e.memoryCycles)
            text += tr("; memory %1").arg(count(*e.memoryCycles));
        addRow(group, tr("ETScope estimate"), text);
    }
    // The vendors' own figures, beside ETScope's, as joined (costvendor.h): one line in sum,
    // then each with its source.
    QStringList beside;
    for (const Attribute& a : c->vendor) {
        if (a.name == "Vela estimate: op cycles" || a.name == "Vela estimate: NPU cycles")
            beside << tr("%1: %2 cycles").arg(q(a.name), q(a.value));
        if (a.name.starts_with("measured:") && a.name.find("cycles") != std::string::npos)
            beside << tr("%1: %2 cycles").arg(q(a.name), q(a.value));
    }
    if (c->vendor.empty())
        return;
    QStandardItem* vendor = addGroup(tr("Vela and measured figures"));
    if (c->estimate && !beside.isEmpty())
        addRow(vendor, tr("cycles side by side"),
            tr("ETScope estimate: %1 cycles; %2").arg(count(c->estimate->cycles), beside.join(QStringLiteral("; "))));
    for (const Attribute& a : c->vendor)
        addRow(vendor, q(a.name), q(a.value));
}

void PropertiesModel::addWhy(const std::string& method, const Node& node)
{
    if (node.kind != NodeKind::Operator || !node.instruction.valid())
        return;
    const auto answers = m_facts->whyOf(method, node.chain, static_cast<int>(node.instruction.value));
    if (answers.empty())
        return;
    QStandardItem* group = addGroup(tr("Why on the CPU"));
    for (const NodeWhy* answer : answers) {
        const QString backend = answer->target.empty()
            ? q(answer->backend)
            : QStringLiteral("%1 (%2)").arg(q(answer->backend), q(answer->target));
        if (answers.size() > 1)
            addRow(group, tr("checked against"), backend);
        if (answer->kind == WhyKind::Boundary) {
            addRow(group, tr("kind"), tr("boundary conversion, by design"));
            if (const WhyGroup* g = m_facts->groupOf(*answer)) {
                addRow(group, tr("reason"), q(g->reason));
                addRow(group, tr("group"),
                    tr("%n quantize/dequantize node(s) at %1's edges, explained once", nullptr, g->nodes)
                        .arg(q(g->backend)));
                if (!g->source.empty())
                    addRow(group, tr("source"), q(g->source));
            } else if (!answer->reason.empty()) {
                addRow(group, tr("reason"), q(answer->reason));
            }
        } else {
            addRow(group, tr("kind"), q(std::string(whyKindName(answer->kind))));
            addRow(group, tr("reason"), q(answer->reason));
            if (!answer->source.empty())
                addRow(group, tr("source"), q(answer->source));
        }
        if (answers.size() == 1)
            addRow(group, tr("checked against"), backend);
        if (!answer->matched.empty())
            addRow(group, tr("how matched"), q(answer->matched));
        if (!answer->fxName.empty())
            addRow(group, tr("FX node"), q(answer->fxName));
        for (const PlacedReason& placed : answer->logged)
            addRow(group, tr("logged"),
                tr("%1 (%2, line %3; %4)")
                    .arg(q(placed.reason.reason), q(placed.reason.file))
                    .arg(placed.reason.line)
                    .arg(q(placed.matched)));
    }
}

void PropertiesModel::addNodeEdges(const Graph& graph, const Node& node)
{
    const auto in = graph.inEdges(node.id);
    if (!in.empty()) {
        QStandardItem* inputs = addGroup(tr("Inputs"));
        for (const Edge* edge : in)
            addRow(inputs, QStringLiteral("v%1").arg(edge->value.value),
                QStringLiteral("%1 ← %2%3")
                    .arg(meta(edge->meta), q(graph.node(edge->from).label),
                        edge->inferred ? tr(" (inferred)") : QString()));
    }
    const auto out = graph.outEdges(node.id);
    if (!out.empty()) {
        QStandardItem* outputs = addGroup(tr("Outputs"));
        for (const Edge* edge : out)
            addRow(outputs, QStringLiteral("v%1").arg(edge->value.value),
                QStringLiteral("%1 → %2%3")
                    .arg(meta(edge->meta), q(graph.node(edge->to).label),
                        edge->inferred ? tr(" (inferred)") : QString()));
    }
}

void PropertiesModel::addDelegatePayload(const DelegateInfo& info)
{
    // What it was built for first: the question a user opening a delegate asks (issue 33).
    if (!info.target.empty()) {
        QStandardItem* target = addGroup(tr("Built for"));
        for (const TargetFact& fact : info.target) {
            addRow(target, q(fact.name), q(fact.value));
            // The row's tooltip says where the fact was read.
            if (QStandardItem* row = target->child(target->rowCount() - 1, 1))
                row->setToolTip(tr("%1\nread from %2").arg(q(fact.value), q(fact.source)));
        }
    }
    QStandardItem* delegate = addGroup(tr("Delegate payload"));
    addRow(delegate, tr("format"), q(info.format));
    addRow(delegate, tr("summary"), q(info.summary));
    for (const Attribute& fact : info.facts)
        addRow(delegate, q(fact.name), q(fact.value));
    // With those found building a deferred inner graph, once it is decoded.
    std::vector<Warning> all = info.warnings;
    for (Warning& warning : info.innerGraph.warnings())
        all.push_back(std::move(warning));
    if (!all.empty()) {
        QStandardItem* warnings = addGroup(tr("Decoding warnings"));
        for (const Warning& warning : all)
            addRow(warnings, warning.offset ? tr("at byte %1").arg(*warning.offset) : QString(), q(warning.message));
    }
}

void PropertiesModel::addStackTrace(const Method& method, const Node& node)
{
    // Stack traces are only stored when the exporter asked for them, one list per instruction.
    if (!node.instruction.valid() || static_cast<std::size_t>(node.chain) >= method.chains.size())
        return;
    const Chain& chain = method.chains[static_cast<std::size_t>(node.chain)];
    if (chain.stacktrace.size() == chain.instructions.size() && !chain.stacktrace[node.instruction.index()].empty()) {
        QStandardItem* trace = addGroup(tr("Stack trace"));
        for (const Frame& frame : chain.stacktrace[node.instruction.index()])
            addRow(trace, q(frame.function),
                QStringLiteral("%1:%2  %3").arg(q(frame.filename)).arg(frame.line).arg(q(frame.context)));
    }
}

} // namespace etscope::ui
