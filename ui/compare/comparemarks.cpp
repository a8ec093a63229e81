// SPDX-License-Identifier: MIT
#include "ui/compare/comparemarks.h"

#include "ui/common/elide.h"
#include "ui/common/nodestyle.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/presentation.h"

#include <QObject>

namespace etscope::ui {

using namespace etscope::core;

namespace {

const QColor kChanged(0xE6, 0x9F, 0x00); ///< Okabe–Ito orange (amber)
/// Crimson: darker than the vermillion of the selection and of attention, apart from amber.
const QColor kOnlyInA = problemColour();
const QColor kOnlyInB(0x00, 0x9E, 0x73); ///< bluish green
const QColor kUnverified(0x99, 0x99, 0x99); ///< grey: nothing but the name was compared

std::pair<int, int> keyOf(const DiffNodeRef& ref)
{
    return GraphScene::keyOf(diffOrigin(ref));
}

/// How much a mark says: a move over a one-sided node over a change.
int weight(const NodeMatch& match)
{
    if (match.movement != Movement::None)
        return 4;
    if (match.status == MatchStatus::OnlyInA || match.status == MatchStatus::OnlyInB)
        return 3;
    return match.status == MatchStatus::Changed ? 2 : match.status == MatchStatus::Unverified ? 1 : 0;
}

/// The backend of the delegate a move crosses: the top-level node of its inner side, which is
/// the delegate, labelled with its backend id.
QString backendOf(const NodeMatch& match, const Graph* graphA, const Graph* graphB)
{
    const bool intoB = match.movement == Movement::IntoDelegate;
    const auto& ref = intoB ? match.b : match.a;
    const Node* delegate = ref ? diffNode(intoB ? graphB : graphA, DiffNodeRef { ref->node, std::nullopt }) : nullptr;
    return delegate ? QString::fromStdString(delegate->label) : QString();
}

/// A changed node whose name differs from its partner's keeps, when its box shortens it, the part
/// that tells the two apart ("cortex_m::" against "quantized_decomposed::", which the graph's
/// own shortening drops as shared by the names of its side).
void keepApart(NodeMark& mark, const NodeMatch& match, CompareSide side, const Graph* graphA, const Graph* graphB)
{
    if (match.status != MatchStatus::Changed || !match.a || !match.b)
        return;
    const Node* a = diffNode(graphA, *match.a);
    const Node* b = diffNode(graphB, *match.b);
    if (!a || !b)
        return;
    const QStringList names { nodeTitle(*a), nodeTitle(*b) };
    if (names[0] == names[1])
        return;
    const auto parts = distinctParts(names);
    const std::size_t k = side == CompareSide::A ? 0 : 1;
    const QString& name = names[static_cast<qsizetype>(k)];
    std::pair<int, int> part = parts[k];
    // When the namespace tells the two apart, the operator's first word still tells the node
    // from its neighbours (quantize, dequantize): the part runs on to its end.
    if (const auto colons = static_cast<int>(name.lastIndexOf(QLatin1String("::")));
        colons >= 0 && part.second <= colons) {
        int end = colons + 2;
        while (end < name.size() && name[end] != QLatin1Char('_') && name[end] != QLatin1Char('.'))
            ++end;
        part.second = end;
    }
    mark.name = name;
    mark.namePart = part;
}

} // namespace

QColor compareColour(MatchStatus status)
{
    switch (status) {
    case MatchStatus::Same:
        break;
    case MatchStatus::Changed:
        return kChanged;
    case MatchStatus::OnlyInA:
        return kOnlyInA;
    case MatchStatus::OnlyInB:
        return kOnlyInB;
    case MatchStatus::Unverified:
        return kUnverified;
    }
    return {};
}

NodeOrigin diffOrigin(const DiffNodeRef& ref)
{
    return { ref.node, ref.inner.value_or(NodeId::none()) };
}

/// The node of a match's side: a top-level node, or one inside a decoded delegate.
const Node* diffNode(const Graph* top, const DiffNodeRef& ref)
{
    if (!top || ref.node.value < 0 || static_cast<std::size_t>(ref.node.value) >= top->nodes.size())
        return nullptr;
    const Node& node = top->node(ref.node);
    if (!ref.inner)
        return &node;
    if (!node.subgraph || ref.inner->value < 0
        || static_cast<std::size_t>(ref.inner->value) >= node.subgraph->nodes.size())
        return nullptr;
    return &node.subgraph->node(*ref.inner);
}

std::optional<NodeMark> compareMark(const NodeMatch& match, CompareSide side, const QString& backend)
{
    const QString other = QString::fromStdString(side == CompareSide::A ? match.labelB : match.labelA);
    const QString partner = other.isEmpty()
        ? QString()
        : QObject::tr("\n%1: %2").arg(side == CompareSide::A ? QLatin1String("B") : QLatin1String("A"), other);
    const QString reason = QString::fromStdString(match.reason);
    if (match.movement != Movement::None)
        return NodeMark { backendColour(backend), QStringLiteral("→"), reason + partner };
    switch (match.status) {
    case MatchStatus::Same:
        return std::nullopt;
    case MatchStatus::Changed:
        return NodeMark { kChanged, QStringLiteral("Δ"), QObject::tr("changed: %1").arg(reason) + partner };
    case MatchStatus::OnlyInA:
        return NodeMark { kOnlyInA, QStringLiteral("−"), QObject::tr("only in A") };
    case MatchStatus::OnlyInB:
        return NodeMark { kOnlyInB, QStringLiteral("+"), QObject::tr("only in B") };
    case MatchStatus::Unverified:
        return NodeMark { kUnverified, QStringLiteral("?"), QObject::tr("unverified: %1").arg(reason) + partner };
    }
    return std::nullopt;
}

/// Marks, lookups and tables of one method of both files (`where` names it in table titles).
CompareMarks prepareCompareMarks(
    const MethodDiff& method, const Graph* graphA, const Graph* graphB, const QString& where)
{
    CompareMarks prepared;
    std::map<std::pair<int, int>, int> weightA, weightB;
    for (int i = 0; i < static_cast<int>(method.matches.size()); ++i) {
        const NodeMatch& match = method.matches[static_cast<std::size_t>(i)];
        const QString backend = match.movement == Movement::None ? QString() : backendOf(match, graphA, graphB);
        for (const auto side : { CompareSide::A, CompareSide::B }) {
            const bool onA = side == CompareSide::A;
            const auto& ref = onA ? match.a : match.b;
            if (!ref)
                continue;
            const auto key = keyOf(*ref);
            // An undecoded delegate also stands in every move into it: its own match wins.
            auto& byKey = onA ? prepared.byKeyA : prepared.byKeyB;
            const auto [at, inserted] = byKey.emplace(key, i);
            if (!inserted && match.movement == Movement::None
                && method.matches[static_cast<std::size_t>(at->second)].movement != Movement::None)
                at->second = i;
            auto mark = compareMark(match, side, backend);
            if (!mark)
                continue;
            keepApart(*mark, match, side, graphA, graphB);
            auto& marks = onA ? prepared.marksA : prepared.marksB;
            auto& weights = onA ? weightA : weightB;
            const auto it = marks.find(key);
            if (it == marks.end()) {
                marks.emplace(key, *mark);
                weights[key] = weight(match);
                continue;
            }
            // One node in several matches: the strongest mark, every reason.
            const QString tooltip = it->second.tooltip + QLatin1Char('\n') + mark->tooltip;
            if (weight(match) > weights[key]) {
                it->second = *mark;
                weights[key] = weight(match);
            }
            it->second.tooltip = tooltip;
        }
    }
    const QString title = QStringLiteral("'%1' of %2").arg(QString::fromStdString(method.name), where);
    prepared.nodes
        = { QStringLiteral("Nodes of %1").arg(title).toStdString(), { "status", "A", "B", "reason" }, {}, {} };
    prepared.nodes.rows.reserve(method.matches.size());
    prepared.same.reserve(method.matches.size());
    for (const NodeMatch& match : method.matches) {
        prepared.nodes.rows.push_back(
            { std::string(matchStatusName(match.status)), match.labelA, match.labelB, match.reason });
        prepared.same.push_back(match.status == MatchStatus::Same ? 1 : 0);
    }
    prepared.operators = { QStringLiteral("Operators of %1").arg(title).toStdString(),
        { "op type", "A delegated", "A not delegated", "B delegated", "B not delegated", "change delegated",
            "change not delegated" },
        {}, {} };
    for (const OperatorDiffRow& row : method.operators)
        prepared.operators.rows.push_back({ row.opType, static_cast<long long>(row.delegatedA),
            static_cast<long long>(row.nonDelegatedA), static_cast<long long>(row.delegatedB),
            static_cast<long long>(row.nonDelegatedB), static_cast<long long>(row.delegatedB - row.delegatedA),
            static_cast<long long>(row.nonDelegatedB - row.nonDelegatedA) });
    prepared.moved = { QStringLiteral("Operators moved in %1").arg(title).toStdString(),
        { "direction", "from", "to", "backend", "count" }, {}, {} };
    for (const MovedOperators& m : method.moved)
        prepared.moved.rows.push_back({ m.movement == Movement::IntoDelegate ? "into delegate" : "out of delegate",
            m.from, m.to, m.backend, static_cast<long long>(m.count) });
    return prepared;
}

} // namespace etscope::ui
