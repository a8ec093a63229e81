// SPDX-License-Identifier: MIT
#include "ui/document/nodefacts.h"

#include "core/cost/costvendor.h"
#include "core/document/document.h"
#include "core/vendorlogs/runlog.h"
#include "core/vendorlogs/velalog.h"

#include <QObject>

#include <set>
#include <utility>

namespace etscope::ui {

using namespace etscope::core;

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

bool stopped(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

/// The join text of costvendor (a header line per log, then "  <where>: <verdict>: <reason>"
/// lines) as lines, and every refusal as a warning naming the log and the reason.
void readJoins(NodeFacts& facts, const std::string& text)
{
    QString log;
    for (const QString& line : q(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        facts.joins << line;
        if (!line.startsWith(QLatin1Char(' '))) {
            log = line.section(QLatin1Char(':'), 0, 0); // "Vela log /path/x.log", "runner log /path/run.log"
            continue;
        }
        const qsizetype refused = line.indexOf(QLatin1String(": refused: "));
        if (refused >= 0)
            facts.warnings.push_back({ QObject::tr("%1 is not joined to %2: refused: %3")
                                           .arg(log, line.left(refused).trimmed(), line.mid(refused + 11))
                                           .toStdString(),
                std::nullopt });
    }
}

void computeCostFacts(NodeFacts& facts, const Document& document, const FactLogs& logs)
{
    auto cost = cost::computeCost(document);
    if (!cost) {
        facts.costError = q(cost.error().message());
        return;
    }
    facts.cost = std::move(cost).value();
    // Each log read first, alone: one that cannot be read (or holds nothing of its kind) is
    // named in a warning and the others are still joined.
    cost::VendorLogs vendor;
    for (const std::string& path : logs.vela) {
        auto log = vendor::readVelaLog(path);
        if (!log)
            facts.warnings.push_back({ "Vela log not read: " + log.error().message(), std::nullopt });
        else if (log->empty())
            facts.warnings.push_back(
                { path + ": holds no Vela summary, per-layer table or register listing: nothing to join",
                    std::nullopt });
        else
            vendor.vela.push_back(path);
    }
    for (const std::string& path : logs.runs) {
        auto log = vendor::readRunLog(path);
        if (!log)
            facts.warnings.push_back({ "runner log not read: " + log.error().message(), std::nullopt });
        else if (log->empty())
            facts.warnings.push_back(
                { path + ": holds no profiler or Ethos-U PMU report: nothing to join", std::nullopt });
        else
            vendor.runs.push_back(path);
    }
    if (!vendor.vela.empty() || !vendor.runs.empty()) {
        const std::size_t before = facts.cost->warnings.size();
        auto joined = cost::joinVendorLogs(*facts.cost, document, vendor);
        if (!joined)
            facts.warnings.push_back({ joined.error().message(), std::nullopt });
        else
            readJoins(facts, *joined);
        // The logs' own warnings (each names its file and line); the program's cost warnings
        // are the cost report's, shown with it.
        for (std::size_t i = before; i < facts.cost->warnings.size(); ++i)
            facts.warnings.push_back(facts.cost->warnings[i]);
    }
    for (std::size_t i = 0; i < facts.cost->nodes.size(); ++i) {
        const cost::NodeCost& node = facts.cost->nodes[i];
        facts.costIndex.emplace(std::make_tuple(node.method, node.delegate, node.node), i);
    }
}

void computeWhyFacts(NodeFacts& facts, const Document& document, const FactLogs& logs, const ETRecord* etrecord)
{
    std::vector<PartitionLog> read;
    for (const std::string& path : logs.partitions) {
        auto log = readPartitionLogFile(path);
        if (!log) {
            facts.warnings.push_back({ "partition report not read: " + log.error().message(), std::nullopt });
            continue;
        }
        if (!log->recognised())
            facts.warnings.push_back(
                { path + ": no partition report found in it (no Arm table, XNNPACK, QNN or Core ML line)",
                    std::nullopt });
        read.push_back(std::move(log).value());
    }
    auto why = explainProgram(document, read, etrecord);
    if (!why) {
        facts.whyError = q(why.error().message());
        return;
    }
    facts.why = std::move(why).value();
    // The logs' warnings and their reasons that matched no node (without logs: none).
    if (!read.empty())
        facts.warnings.insert(facts.warnings.end(), facts.why->warnings.begin(), facts.why->warnings.end());
}

} // namespace

const cost::NodeCost* NodeFacts::costOf(const std::string& method, int delegate, std::uint32_t node) const
{
    if (!cost)
        return nullptr;
    const auto it = costIndex.find(std::make_tuple(method, delegate, node));
    return it == costIndex.end() ? nullptr : &cost->nodes[it->second];
}

const cost::DelegateCost* NodeFacts::delegateOf(const std::string& method, int delegate) const
{
    if (!cost)
        return nullptr;
    for (const cost::DelegateCost& d : cost->delegates)
        if (d.method == method && d.delegate == delegate)
            return &d;
    return nullptr;
}

std::vector<const NodeWhy*> NodeFacts::whyOf(const std::string& method, int chain, int instruction) const
{
    if (!why)
        return {};
    return why->answersFor(method, chain, instruction);
}

const WhyGroup* NodeFacts::groupOf(const NodeWhy& answer) const
{
    if (!why || answer.group < 0 || static_cast<std::size_t>(answer.group) >= why->groups.size())
        return nullptr;
    return &why->groups[static_cast<std::size_t>(answer.group)];
}

std::map<std::string, OpTypeFacts> NodeFacts::opTypes(const std::string& method, std::optional<int> delegate) const
{
    std::map<std::string, OpTypeFacts> types;
    if (cost)
        for (const cost::NodeCost& node : cost->nodes) {
            if (node.method != method || (delegate && node.delegate != *delegate))
                continue;
            OpTypeFacts& type = types[node.opType];
            ++type.nodes;
            switch (node.status) {
            case cost::CostStatus::Counted:
                ++type.counted;
                type.macs += node.macs;
                if (node.bytesRead && node.bytesWritten) {
                    type.bytes += *node.bytesRead + *node.bytesWritten;
                    ++type.withBytes;
                }
                break;
            case cost::CostStatus::NoRule:
                ++type.noRule;
                break;
            case cost::CostStatus::NoShape:
                ++type.noShape;
                break;
            }
        }
    if (why && !delegate) // answers are about the top level
        for (const NodeWhy& answer : why->nodes)
            if (answer.method == method)
                types[answer.opType].why.push_back(&answer);
    return types;
}

QString whyLine(const NodeFacts& facts, const NodeWhy& answer)
{
    QString line;
    if (answer.kind == WhyKind::Boundary) {
        line = QObject::tr("boundary conversion, by design");
        if (const WhyGroup* group = facts.groupOf(answer); group && !group->reason.empty())
            line += QStringLiteral(" — ") + q(group->reason);
    } else {
        line = q(std::string(whyKindName(answer.kind)));
        if (!answer.reason.empty())
            line += QStringLiteral(" — ") + q(answer.reason);
    }
    if (!answer.logged.empty())
        line += QObject::tr(" · logged: %1").arg(q(answer.logged.front().reason.reason));
    return line;
}

QString whySummary(const NodeFacts& facts, const OpTypeFacts& type)
{
    if (type.why.empty())
        return {};
    // One answer per node and backend: the nodes are told apart by their instruction.
    std::set<std::pair<int, int>> nodes;
    std::map<WhyKind, int> kinds;
    for (const NodeWhy* answer : type.why) {
        nodes.insert({ answer->chain, answer->instruction });
        ++kinds[answer->kind];
    }
    const std::size_t count = nodes.size();
    const NodeWhy& first = *type.why.front();
    if (kinds.size() == 1 && first.kind == WhyKind::Boundary)
        return QObject::tr("%1: boundary conversion, by design").arg(nodeCount(count));
    if (kinds.size() == 1)
        return QObject::tr("%1: %2").arg(nodeCount(count), whyLine(facts, first));
    QStringList parts;
    for (const auto& [kind, n] : kinds)
        parts << QStringLiteral("%1 %2").arg(n).arg(q(std::string(whyKindName(kind))));
    // The reason shown is the first that is not a boundary's.
    const NodeWhy* shown = &first;
    for (const NodeWhy* answer : type.why)
        if (answer->kind != WhyKind::Boundary) {
            shown = answer;
            break;
        }
    return QObject::tr("%1: %2 — %3").arg(nodeCount(count), parts.join(QStringLiteral(", ")), q(shown->reason));
}

QString nodeCount(std::size_t count)
{
    return count == 1 ? QObject::tr("1 node") : QObject::tr("%1 nodes").arg(count);
}

bool whyBadgeWorthy(const NodeWhy& answer)
{
    return answer.kind != WhyKind::Boundary && (answer.kind == WhyKind::Fails || !answer.logged.empty());
}

std::shared_ptr<const NodeFacts> computeNodeFacts(
    const Document& document, const FactLogs& logs, const ETRecord* etrecord, const std::atomic<bool>* cancel)
{
    auto facts = std::make_shared<NodeFacts>();
    facts->logs = logs;
    if (!document.program) {
        facts->costError = facts->whyError = QObject::tr("%1 is not a program").arg(q(document.path));
        return facts;
    }
    computeCostFacts(*facts, document, logs);
    if (stopped(cancel))
        return nullptr;
    computeWhyFacts(*facts, document, logs, etrecord);
    if (stopped(cancel))
        return nullptr;
    return facts;
}

} // namespace etscope::ui
