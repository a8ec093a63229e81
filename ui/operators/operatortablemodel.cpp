// SPDX-License-Identifier: MIT
#include "ui/operators/operatortablemodel.h"

#include "core/util/text.h"

#include <QFont>
#include <QLocale>

#include <set>

namespace etscope::ui {

OperatorTableModel::OperatorTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void OperatorTableModel::setTable(const core::OperatorTable& table)
{
    beginResetModel();
    m_table = table;
    endResetModel();
}

void OperatorTableModel::setDisplayNames(QHash<QString, QString> names)
{
    beginResetModel();
    m_displayNames = std::move(names);
    endResetModel();
}

void OperatorTableModel::setFacts(
    std::shared_ptr<const NodeFacts> facts, const std::string& method, std::optional<int> delegate)
{
    beginResetModel();
    m_facts = std::move(facts);
    m_types = m_facts ? m_facts->opTypes(method, delegate) : std::map<std::string, OpTypeFacts> {};
    m_total = {};
    for (const auto& [type, f] : m_types) {
        m_total.nodes += f.nodes;
        m_total.counted += f.counted;
        m_total.noRule += f.noRule;
        m_total.noShape += f.noShape;
        m_total.macs += f.macs;
        m_total.bytes += f.bytes;
        m_total.withBytes += f.withBytes;
        m_total.why.insert(m_total.why.end(), f.why.begin(), f.why.end());
    }
    endResetModel();
}

const OpTypeFacts* OperatorTableModel::typeFacts(const std::string& opType) const
{
    const auto it = m_types.find(opType);
    return it == m_types.end() ? nullptr : &it->second;
}

namespace {

/// "no rule" / "no shape" for an op type none of whose nodes is counted (never 0); empty when
/// some are.
QString uncounted(const OpTypeFacts& f)
{
    if (f.counted > 0 || f.nodes == 0)
        return {};
    return f.noRule > 0 ? OperatorTableModel::tr("no rule") : OperatorTableModel::tr("no shape");
}

/// What the cost cells leave out: "2 of 5 nodes not counted (1 no rule, 1 no shape)".
QString coverage(const OpTypeFacts& f)
{
    if (f.counted == f.nodes)
        return OperatorTableModel::tr("all counted (%1)").arg(nodeCount(f.nodes));
    return OperatorTableModel::tr("%1 of %2 nodes not counted (%3 no rule, %4 no shape): the sum is of the others")
        .arg(f.nodes - f.counted)
        .arg(f.nodes)
        .arg(f.noRule)
        .arg(f.noShape);
}

/// "400", "20,716", "280.1 M": a side pane's column stays narrow; the tooltip and the exports
/// have the exact count.
QString compactCount(std::uint64_t value)
{
    constexpr std::uint64_t kExact = 100'000;
    if (value < kExact)
        return QLocale().toString(static_cast<qulonglong>(value));
    const std::pair<double, const char*> steps[] = { { 1e9, "G" }, { 1e6, "M" }, { 1e3, "K" } };
    const auto v = static_cast<double>(value);
    for (const auto& [step, unit] : steps)
        if (v >= step)
            return QStringLiteral("%1 %2").arg(QLocale().toString(v / step, 'f', 1), QLatin1String(unit));
    return QLocale().toString(static_cast<qulonglong>(value));
}

} // namespace

QVariant OperatorTableModel::factData(const std::string& opType, bool total, int column, int role) const
{
    if (!m_facts)
        return role == Qt::ToolTipRole ? QVariant(tr("Being computed…")) : QVariant();
    const OpTypeFacts* f = total ? &m_total : typeFacts(opType);
    if (!f)
        return {};
    const QLocale locale;
    switch (column) {
    case Macs:
    case Bytes: {
        const bool macs = column == Macs;
        const QString none = uncounted(*f);
        if (role == SortRole) // uncounted ones sort below every count (0 included)
            return f->nodes == 0   ? QVariant(qlonglong(-3))
                : !none.isEmpty()  ? QVariant(qlonglong(f->noRule > 0 ? -2 : -1))
                : macs             ? QVariant(qlonglong(f->macs))
                : f->withBytes > 0 ? QVariant(qlonglong(f->bytes))
                                   : QVariant(qlonglong(-1));
        if (role == Qt::DisplayRole) {
            if (f->nodes == 0)
                return {};
            if (!none.isEmpty())
                return none;
            if (macs)
                return compactCount(f->macs);
            return f->withBytes > 0 ? QString::fromStdString(core::formatBytes(f->bytes)) : tr("not known");
        }
        if (role == Qt::ToolTipRole) {
            if (f->nodes == 0)
                return tr("No cost entry for this op type");
            QString tip = macs ? tr("%1 multiply-accumulates").arg(locale.toString(static_cast<qulonglong>(f->macs)))
                               : tr("%1 bytes read and written (activations, weights, scales) by %2 of %3 nodes")
                                     .arg(locale.toString(static_cast<qulonglong>(f->bytes)))
                                     .arg(f->withBytes)
                                     .arg(f->nodes);
            return tip + QLatin1Char('\n') + coverage(*f);
        }
        return {};
    }
    case Why: {
        if (role == SortRole || role == Qt::DisplayRole) {
            if (total) {
                std::set<std::pair<int, int>> nodes;
                for (const core::NodeWhy* answer : f->why)
                    nodes.insert({ answer->chain, answer->instruction });
                return nodes.empty() ? QString() : tr("%1 on the CPU").arg(nodeCount(nodes.size()));
            }
            return whySummary(*m_facts, *f);
        }
        if (role == Qt::ToolTipRole && !f->why.empty()) {
            // Per node: each answer, and where the rule comes from.
            QStringList lines;
            constexpr std::size_t kMaxLines = 20;
            for (std::size_t i = 0; i < f->why.size() && i < kMaxLines; ++i) {
                const core::NodeWhy& answer = *f->why[i];
                lines << tr("#%1 (%2): %3")
                             .arg(answer.instruction)
                             .arg(QString::fromStdString(answer.backend), whyLine(*m_facts, answer));
            }
            if (f->why.size() > kMaxLines)
                lines << tr("… and %1 more").arg(f->why.size() - kMaxLines);
            return lines.join(QLatin1Char('\n'));
        }
        return {};
    }
    default:
        return {};
    }
}

int OperatorTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size()) + 1;
}

int OperatorTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const bool total = static_cast<std::size_t>(index.row()) == m_table.rows.size();
    const core::OperatorRow row = total
        ? core::OperatorRow { "Total", m_table.delegatedNodes, m_table.nonDelegatedNodes }
        : m_table.rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (index.column()) {
        case OpType:
            if (role == Qt::DisplayRole && !total)
                if (const auto name = m_displayNames.constFind(QString::fromStdString(row.opType));
                    name != m_displayNames.constEnd())
                    return *name;
            return QString::fromStdString(row.opType);
        case Delegated:
            return row.delegated;
        case NonDelegated:
            return row.nonDelegated;
        default:
            return factData(row.opType, total, index.column(), role);
        }
    case Qt::TextAlignmentRole:
        return index.column() == OpType || index.column() == Why ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                 : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (total) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() >= Macs)
            return factData(row.opType, total, index.column(), role);
        if (total)
            return tr("Sum of the column");
        if (index.column() == Delegated)
            return tr("Nodes of this type inside decoded delegate payloads");
        if (index.column() == NonDelegated)
            return tr("Instructions of this operator at the top level (portable / custom kernels)");
        if (const auto name = m_displayNames.constFind(QString::fromStdString(row.opType));
            name != m_displayNames.constEnd())
            return tr("%1 (counted as %2, get_delegation_info's op type)")
                .arg(*name, QString::fromStdString(row.opType));
        return QString::fromStdString(row.opType);
    case IsTotalRole:
        return total;
    case OpTypeRole:
        return total ? QString() : QString::fromStdString(row.opType);
    default:
        return {};
    }
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Short titles on screen, so that the count columns stay as narrow as their numbers and the
    // op types get the width; the full get_delegation_info names in tooltips and exports.
    static const char* const kShort[] = { "op_type", "deleg.", "non-deleg.", "MACs", "bytes", "why on the CPU" };
    static const char* const kFull[] = { "op_type", "occurrences_in_delegated_graphs",
        "occurrences_in_non_delegated_graphs", "multiply-accumulates (ETScope's count, docs/cost.md)",
        "bytes read and written (activations, weights, scales)",
        "why the op type's top-level nodes stayed on the CPU (docs/why.md)" };
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return QLatin1String(kShort[section]);
    if (role == Qt::ToolTipRole)
        return QLatin1String(kFull[section]);
    return QAbstractTableModel::headerData(section, orientation, role);
}

OperatorTableProxy::OperatorTableProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(OperatorTableModel::SortRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setFilterKeyColumn(OperatorTableModel::OpType);
}

bool OperatorTableProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    // Total stays last whatever the order: Qt inverts the comparison for descending sorts.
    const bool leftTotal = left.data(OperatorTableModel::IsTotalRole).toBool();
    const bool rightTotal = right.data(OperatorTableModel::IsTotalRole).toBool();
    if (leftTotal != rightTotal)
        return sortOrder() == Qt::AscendingOrder ? rightTotal : leftTotal;
    return QSortFilterProxyModel::lessThan(left, right);
}

bool OperatorTableProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, OperatorTableModel::OpType, sourceParent);
    if (index.data(OperatorTableModel::IsTotalRole).toBool())
        return true;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace etscope::ui
