// SPDX-License-Identifier: MIT
// The reports of `etscope diff`: summary, tables (text, Markdown) and JSON.
#include "core/analysis/programdiff.h"

#include "core/util/text.h"

namespace etscope::core {

namespace {

/// "+41.2 KiB", "-640 B", "±0 B".
std::string signedBytes(std::uint64_t a, std::uint64_t b)
{
    if (a == b)
        return "±0 B";
    return (b > a ? "+" : "-") + formatBytes(b > a ? b - a : a - b);
}

long long delta(std::uint64_t a, std::uint64_t b)
{
    return static_cast<long long>(b) - static_cast<long long>(a);
}

std::string_view movementName(Movement movement)
{
    switch (movement) {
    case Movement::None:
        return "none";
    case Movement::IntoDelegate:
        return "into delegate";
    case Movement::OutOfDelegate:
        return "out of delegate";
    }
    return "none";
}

std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ")
{
    std::string text;
    for (const std::string& item : items)
        text += (text.empty() ? "" : std::string(separator)) + item;
    return text;
}

constexpr std::size_t kListedMatches = 200; ///< text and Markdown: differing nodes listed per method

} // namespace

std::vector<std::string> ProgramDiff::summaryLines() const
{
    std::vector<std::string> parts;
    if (methodsOnlyInA.empty() && methodsOnlyInB.empty()) {
        parts.push_back("methods: same (" + joined(commonMethods) + ")");
    } else {
        std::string text = "methods:";
        if (!methodsOnlyInA.empty())
            text += " only in A: " + joined(methodsOnlyInA);
        if (!methodsOnlyInB.empty())
            text += std::string(methodsOnlyInA.empty() ? "" : ",") + " only in B: " + joined(methodsOnlyInB);
        parts.push_back(text);
    }
    bool backendChanged = false;
    for (const BackendDiff& backend : backends) {
        if (backend.countA == backend.countB && backend.bytesA == backend.bytesB && backend.differingBytes == 0)
            continue;
        backendChanged = true;
        const std::string change = backend.differingBytes > 0
            ? "same size, content differs in " + std::to_string(backend.differingBytes) + " bytes"
            : signedBytes(backend.bytesA, backend.bytesB);
        parts.push_back(backend.backend + " delegates " + std::to_string(backend.countA) + " → "
            + std::to_string(backend.countB) + " (" + change + ")");
    }
    if (backends.empty())
        parts.emplace_back("no delegates");
    else if (!backendChanged)
        parts.emplace_back("delegates: same");
    if (!deviceFacts.empty()) {
        std::vector<std::string> facts;
        for (const DeviceFactChange& change : deviceFacts)
            facts.push_back(change.text());
        parts.push_back("device facts: " + joined(facts));
    }
    int into = 0, outOf = 0, same = 0, changed = 0, onlyA = 0, onlyB = 0, unverified = 0;
    for (const MethodDiff& method : methods) {
        into += method.movedIntoDelegates;
        outOf += method.movedOutOfDelegates;
        same += method.same;
        changed += method.changed;
        unverified += method.unverified;
        onlyA += method.onlyInA;
        onlyB += method.onlyInB;
    }
    if (into > 0)
        parts.push_back(std::to_string(into) + (into == 1 ? " op" : " ops") + " moved into delegates");
    if (outOf > 0)
        parts.push_back(std::to_string(outOf) + (outOf == 1 ? " op" : " ops") + " moved out of delegates");
    if (into == 0 && outOf == 0)
        parts.emplace_back("no ops moved into or out of delegates");
    parts.push_back("nodes: " + std::to_string(same) + " same, " + std::to_string(changed) + " changed, "
        + (unverified > 0 ? std::to_string(unverified) + " unverified (names equal, payloads differ), " : "")
        + std::to_string(onlyA) + " only in A, " + std::to_string(onlyB) + " only in B");
    const SizeDiff* file = sizes.empty() ? nullptr : &sizes.front();
    if (file && file->a != file->b)
        parts.push_back(
            "file " + formatBytes(file->a) + " → " + formatBytes(file->b) + " (" + signedBytes(file->a, file->b) + ")");
    else if (file)
        parts.push_back(std::string(identicalBytes ? "files byte-identical" : "file size same") + " ("
            + formatBytes(file->a) + ")");
    return parts;
}

std::string programDiffText(const ProgramDiff& diff, TableFormat format)
{
    const bool markdown = format == TableFormat::Markdown;
    std::string text = (markdown ? "# etscope diff\n\n" : std::string()) + "A: " + diff.pathA
        + (markdown ? "  \n" : "\n") + "B: " + diff.pathB + "\n" + (markdown ? "\n" : "")
        + joined(diff.summaryLines(), "; ") + "\n";
    for (const std::string& note : diff.notes)
        text += (markdown ? "\n> " : "note: ") + note + "\n";
    const auto section = [&](Table table) {
        text += "\n";
        if (!markdown && !table.title.empty()) {
            text += table.title + "\n";
            table.title.clear();
        }
        text += renderTable(table, format);
    };

    Table sizes { "Sizes (bytes)", { "what", "A", "B", "change" }, {}, {} };
    for (const SizeDiff& size : diff.sizes)
        sizes.rows.push_back({ size.what + (size.isCount ? " (count)" : ""), static_cast<long long>(size.a),
            static_cast<long long>(size.b), delta(size.a, size.b) });
    section(std::move(sizes));

    if (!diff.backends.empty()) {
        Table backends { "Delegates by backend",
            { "backend", "delegates A", "delegates B", "change", "payload bytes A", "payload bytes B", "bytes change",
                "bytes differing" },
            {}, {} };
        for (const BackendDiff& b : diff.backends)
            backends.rows.push_back({ b.backend, static_cast<long long>(b.countA), static_cast<long long>(b.countB),
                static_cast<long long>(b.countB - b.countA), static_cast<long long>(b.bytesA),
                static_cast<long long>(b.bytesB), delta(b.bytesA, b.bytesB),
                static_cast<long long>(b.differingBytes) });
        section(std::move(backends));
    }

    if (!diff.deviceFacts.empty()) {
        Table facts { "Device facts that changed (what the delegates were built for)",
            { "backend", "fact", "A", "B", "delegates" }, {}, {} };
        for (const DeviceFactChange& change : diff.deviceFacts)
            facts.rows.push_back({ change.backend, change.label, change.a.value_or("(not stated)"),
                change.b.value_or("(not stated)"), joined(change.delegates) });
        section(std::move(facts));
    }

    // Methods without operators in either file and without a difference (an LLM's getters:
    // get_max_seq_len, …) get one line together instead of an empty table each.
    const auto quiet = [](const MethodDiff& method) {
        return method.inA && method.inB && method.operators.empty() && method.changed == 0 && method.onlyInA == 0
            && method.onlyInB == 0 && method.moved.empty();
    };
    std::vector<std::string> quietMethods;
    for (const MethodDiff& method : diff.methods)
        if (quiet(method))
            quietMethods.push_back(method.name);
    if (!quietMethods.empty())
        text += "\n" + std::string(quietMethods.size() == 1 ? "Method" : "Methods")
            + " without operators, the same in both: " + joined(quietMethods) + "\n";
    for (const MethodDiff& method : diff.methods) {
        if (quiet(method))
            continue;
        const std::string where = method.inA && method.inB ? "" : method.inA ? " (only in A)" : " (only in B)";
        Table ops { "Method '" + method.name + "'" + where + ": operators",
            { "op_type", "A delegated", "A non-delegated", "B delegated", "B non-delegated", "change delegated",
                "change non-delegated" },
            {}, {} };
        OperatorDiffRow total { "Total" };
        for (const OperatorDiffRow& row : method.operators) {
            ops.rows.push_back({ row.opType, static_cast<long long>(row.delegatedA),
                static_cast<long long>(row.nonDelegatedA), static_cast<long long>(row.delegatedB),
                static_cast<long long>(row.nonDelegatedB), static_cast<long long>(row.delegatedB - row.delegatedA),
                static_cast<long long>(row.nonDelegatedB - row.nonDelegatedA) });
            total.delegatedA += row.delegatedA;
            total.nonDelegatedA += row.nonDelegatedA;
            total.delegatedB += row.delegatedB;
            total.nonDelegatedB += row.nonDelegatedB;
        }
        ops.rows.push_back({ total.opType, static_cast<long long>(total.delegatedA),
            static_cast<long long>(total.nonDelegatedA), static_cast<long long>(total.delegatedB),
            static_cast<long long>(total.nonDelegatedB), static_cast<long long>(total.delegatedB - total.delegatedA),
            static_cast<long long>(total.nonDelegatedB - total.nonDelegatedA) });
        ops.notes.push_back("Delegated subgraphs: " + std::to_string(method.tableA.delegatedSubgraphs) + " → "
            + std::to_string(method.tableB.delegatedSubgraphs)
            + "; moved into delegates: " + std::to_string(method.movedIntoDelegates)
            + ", out of delegates: " + std::to_string(method.movedOutOfDelegates));
        section(std::move(ops));

        if (!method.moved.empty()) {
            Table moved { "Method '" + method.name + "': operators moved",
                { "direction", "from", "to", "backend", "count" }, {}, {} };
            for (const MovedOperators& m : method.moved)
                moved.rows.push_back({ std::string(movementName(m.movement)), m.from, m.to, m.backend,
                    static_cast<long long>(m.count) });
            section(std::move(moved));
        }

        Table nodes { "Method '" + method.name + "': nodes that differ", { "status", "A", "B", "reason" }, {}, {} };
        std::size_t differing = 0;
        for (const NodeMatch& match : method.matches) {
            if (match.status == MatchStatus::Same)
                continue;
            if (++differing <= kListedMatches)
                nodes.rows.push_back({ std::string(matchStatusName(match.status)), match.labelA, match.labelB,
                    match.byDebugHandle
                        ? (match.reason.empty() ? std::string("by debug handle") : match.reason + " (by debug handle)")
                        : match.reason });
        }
        const bool byHandles = method.matching.starts_with("debug handles");
        const bool byRank = method.matching.ends_with("rank");
        nodes.notes.push_back("Nodes matched "
            + std::string(
                byHandles ? (method.matching == "debug handles" ? "by debug handle" : "by debug handle, then ") : "")
            + std::string(method.matching == "debug handles" ? ""
                    : byRank                                 ? "by rank per operator"
                                                             : "in execution order")
            + ": " + std::to_string(method.same) + " same, " + std::to_string(method.changed) + " changed, "
            + (method.unverified > 0 ? std::to_string(method.unverified) + " unverified, " : "")
            + std::to_string(method.onlyInA) + " only in A, " + std::to_string(method.onlyInB) + " only in B");
        if (differing > kListedMatches)
            nodes.notes.push_back(
                std::to_string(differing - kListedMatches) + " more not listed (all in --format json)");
        if (differing == 0) {
            text += "\n" + nodes.notes.front() + "\n";
            continue;
        }
        section(std::move(nodes));
    }
    return text;
}

nlohmann::ordered_json programDiffJson(const ProgramDiff& diff)
{
    using Json = nlohmann::ordered_json;
    Json json;
    json["a"] = diff.pathA;
    json["b"] = diff.pathB;
    json["identical_bytes"] = diff.identicalBytes;
    json["summary"] = diff.summaryLines();
    json["methods"] = { { "common", diff.commonMethods }, { "only_in_a", diff.methodsOnlyInA },
        { "only_in_b", diff.methodsOnlyInB } };
    json["notes"] = diff.notes;
    Json sizes = Json::array();
    for (const SizeDiff& size : diff.sizes)
        sizes.push_back({ { "what", size.what }, { "unit", size.isCount ? "count" : "bytes" }, { "a", size.a },
            { "b", size.b }, { "change", delta(size.a, size.b) } });
    json["sizes"] = std::move(sizes);
    Json backends = Json::array();
    for (const BackendDiff& b : diff.backends)
        backends.push_back({ { "backend", b.backend }, { "delegates_a", b.countA }, { "delegates_b", b.countB },
            { "payload_bytes_a", b.bytesA }, { "payload_bytes_b", b.bytesB },
            { "payload_bytes_change", delta(b.bytesA, b.bytesB) }, { "payload_bytes_differing", b.differingBytes },
            { "first_difference_offset_a", b.firstDifferenceA ? Json(*b.firstDifferenceA) : Json(nullptr) } });
    json["backends"] = std::move(backends);
    Json facts = Json::array();
    for (const DeviceFactChange& change : diff.deviceFacts)
        facts.push_back({ { "backend", change.backend }, { "key", change.key }, { "fact", change.label },
            { "a", change.a ? Json(*change.a) : Json(nullptr) }, { "b", change.b ? Json(*change.b) : Json(nullptr) },
            { "text", change.text() }, { "delegates", change.delegates } });
    json["device_facts"] = std::move(facts);
    if (!diff.delegateFacts.empty()) {
        Json all = Json::array();
        for (const DeviceFactChange& change : diff.delegateFacts)
            all.push_back({ { "backend", change.backend }, { "key", change.key }, { "fact", change.label },
                { "a", change.a ? Json(*change.a) : Json(nullptr) },
                { "b", change.b ? Json(*change.b) : Json(nullptr) }, { "delegates", change.delegates } });
        json["delegate_facts"] = std::move(all);
    }
    const auto ref = [](const std::optional<DiffNodeRef>& r, const std::string& label) -> Json {
        if (!r)
            return nullptr;
        Json node { { "node", r->node.value } };
        if (r->inner)
            node["inner"] = r->inner->value;
        node["label"] = label;
        return node;
    };
    Json methods = Json::array();
    for (const MethodDiff& method : diff.methods) {
        Json m;
        m["name"] = method.name;
        m["in_a"] = method.inA;
        m["in_b"] = method.inB;
        m["matching"] = method.matching;
        m["counts"] = { { "same", method.same }, { "changed", method.changed }, { "only_in_a", method.onlyInA },
            { "only_in_b", method.onlyInB }, { "unverified", method.unverified } };
        m["delegated_subgraphs_a"] = method.tableA.delegatedSubgraphs;
        m["delegated_subgraphs_b"] = method.tableB.delegatedSubgraphs;
        m["moved_into_delegates"] = method.movedIntoDelegates;
        m["moved_out_of_delegates"] = method.movedOutOfDelegates;
        Json ops = Json::array();
        for (const OperatorDiffRow& row : method.operators)
            ops.push_back({ { "op_type", row.opType }, { "a_delegated", row.delegatedA },
                { "a_non_delegated", row.nonDelegatedA }, { "b_delegated", row.delegatedB },
                { "b_non_delegated", row.nonDelegatedB } });
        m["operators"] = std::move(ops);
        Json moved = Json::array();
        for (const MovedOperators& mo : method.moved)
            moved.push_back({ { "direction", movementName(mo.movement) }, { "from", mo.from }, { "to", mo.to },
                { "backend", mo.backend }, { "count", mo.count } });
        m["moved"] = std::move(moved);
        Json matches = Json::array();
        for (const NodeMatch& match : method.matches) {
            Json entry { { "status", matchStatusName(match.status) }, { "a", ref(match.a, match.labelA) },
                { "b", ref(match.b, match.labelB) } };
            if (match.movement != Movement::None)
                entry["movement"] = movementName(match.movement);
            if (!match.reason.empty())
                entry["reason"] = match.reason;
            if (match.byDebugHandle)
                entry["by"] = "debug handle";
            matches.push_back(std::move(entry));
        }
        m["matches"] = std::move(matches);
        methods.push_back(std::move(m));
    }
    json["compared_methods"] = std::move(methods);
    return json;
}

} // namespace etscope::core
