// SPDX-License-Identifier: MIT
// The runner log reader; the line forms and their source are in runlog.h.
#include "core/vendorlogs/runlog.h"

#include "core/util/mappedfile.h"

namespace etscope::core::vendor {

namespace {

/// The first token after `marker` in `text` as an unsigned count; nullopt when absent.
std::optional<std::uint64_t> countAfter(std::string_view text, std::string_view marker)
{
    const std::size_t at = text.find(marker);
    if (at == text.npos)
        return std::nullopt;
    const auto words = tokens(text.substr(at + marker.size()), 2);
    if (words.empty())
        return std::nullopt;
    const auto v = parseInteger(words[0]);
    if (!v || *v < 0)
        return std::nullopt;
    return static_cast<std::uint64_t>(*v);
}

/// "(X per inference)" in `text`.
std::optional<double> perInference(std::string_view text)
{
    const std::size_t at = text.rfind(" per inference)");
    if (at == text.npos)
        return std::nullopt;
    const std::size_t open = text.rfind('(', at);
    if (open == text.npos)
        return std::nullopt;
    return parseNumber(trim(text.substr(open + 1, at - open - 1)));
}

/// "Inference CPU ratio: 99.95 %"; nullopt for "?.??".
std::optional<double> percentAfter(std::string_view text, std::string_view marker)
{
    const std::size_t at = text.find(marker);
    if (at == text.npos)
        return std::nullopt;
    const auto words = tokens(text.substr(at + marker.size()), 1);
    return words.empty() ? std::nullopt : parseNumber(words[0]);
}

} // namespace

const OperatorCycles* RunLog::ethosU() const
{
    for (const OperatorCycles& op : operatorCycles)
        if (op.tag == "ethos-u")
            return &op;
    return nullptr;
}

RunLog parseRunLog(std::string_view text, std::string_view name, const LogLimits& limits)
{
    RunLog log;
    log.path = name;
    LogWarnings warnings { std::string(name), limits.maxWarnings };
    LineCursor cursor(text, limits);
    LogLine line;
    bool inProfiler = false;
    while (cursor.next(line)) {
        log.lines = line.number;
        const std::string_view t = line.text;
        if (line.cut())
            warnings.add(line,
                "line of " + std::to_string(line.fullLength) + " bytes; only its first " + std::to_string(t.size())
                    + " are read");
        const auto bad
            = [&](std::string_view what) { warnings.add(line, "unreadable " + std::string(what) + " line"); };
        if (t.find("Profiler report, CPU cycles per operator") != t.npos) {
            log.profilerReport = true;
            inProfiler = true;
            continue;
        }
        if (const std::size_t at = t.find(" : cycle_cnt : "); at != t.npos) {
            // "<tag> : cycle_cnt : N cycles"; the tag is the text before, past any ET_LOG prefix.
            std::string_view tag = trim(t.substr(0, at));
            if (const std::size_t close = tag.rfind("] "); close != tag.npos)
                tag = trim(tag.substr(close + 2));
            const auto cycles = countAfter(t, " : cycle_cnt : ");
            if (!cycles || tag.empty()) {
                bad("operator cycles");
                continue;
            }
            if (!inProfiler)
                warnings.add(line, "operator cycles outside a \"Profiler report, CPU cycles per operator\" block");
            log.operatorCycles.push_back({ std::string(tag), *cycles, perInference(t), line.number });
            continue;
        }
        if (t.find("Operator(s) total:") != t.npos) {
            inProfiler = false;
            if (!(log.operatorsTotal = countAfter(t, "Operator(s) total:")))
                bad("Operator(s) total");
        } else if (t.find("Inference runtime:") != t.npos) {
            inProfiler = false;
            log.inferenceRuntime = countAfter(t, "Inference runtime:");
            log.inferenceRuntimePerInference = perInference(t);
            if (!log.inferenceRuntime)
                bad("Inference runtime");
        } else if (t.find("Inference CPU ratio:") != t.npos) {
            log.cpuRatioPercent = percentAfter(t, "Inference CPU ratio:");
        } else if (t.find("Inference NPU ratio:") != t.npos) {
            log.npuRatioPercent = percentAfter(t, "Inference NPU ratio:");
        } else if (t.find("cpu_wait_for_npu_cntr :") != t.npos) {
            if (!(log.cpuWaitForNpu = countAfter(t, "cpu_wait_for_npu_cntr :")))
                bad("cpu_wait_for_npu_cntr");
        } else if (t.find("Ethos-U PMU report") != t.npos) {
            log.pmuReport = true;
        } else if (t.find("ethosu_pmu_cycle_cntr :") != t.npos) {
            log.npuCycles = countAfter(t, "ethosu_pmu_cycle_cntr :");
            log.npuCyclesPerInference = perInference(t);
            if (!log.npuCycles)
                bad("ethosu_pmu_cycle_cntr");
        } else if (const std::size_t at = t.find("ethosu_pmu_cntr"); at != t.npos) {
            const std::string_view rest = t.substr(at + 15);
            const std::size_t colon = rest.find(" :");
            const auto index = colon == rest.npos ? std::nullopt : parseInteger(trim(rest.substr(0, colon)));
            const auto count = countAfter(rest, " :");
            if (!index || *index < 0 || *index > 63 || !count) {
                bad("PMU counter");
                continue;
            }
            log.counters.push_back({ static_cast<int>(*index), *count, perInference(t), {}, line.number });
        } else if (const std::size_t at = t.find("Ethos-U PMU Events:["); at != t.npos) {
            std::string_view list = t.substr(at + 20);
            const std::size_t close = list.find(']');
            if (close == list.npos)
                warnings.add(line, "the PMU event list has no closing ']' (cut off?)");
            list = list.substr(0, close);
            log.events.clear();
            while (!trim(list).empty() && log.events.size() < 64) {
                const std::size_t comma = list.find(',');
                log.events.emplace_back(trim(list.substr(0, comma)));
                if (comma == list.npos)
                    break;
                list.remove_prefix(comma + 1);
            }
        } else if (t.find("NPU Inferences :") != t.npos) {
            if (auto n = countAfter(t, "NPU Inferences :"))
                log.npuInferences = static_cast<std::int64_t>(*n);
        } else if (t.find("NPU delegations:") != t.npos) {
            log.npuDelegations = countAfter(t, "NPU delegations:");
        } else if (t.find("PTE Model data loaded. Size:") != t.npos) {
            log.programSize = countAfter(t, "PTE Model data loaded. Size:");
        } else if (t.find("model_pte_program_size:") != t.npos && !log.programSize) {
            log.programSize = countAfter(t, "model_pte_program_size:");
        } else if (t.find("Starting running ") != t.npos) {
            if (auto n = countAfter(t, "Starting running "))
                log.inferences = static_cast<std::int64_t>(*n);
        }
    }
    if (!cursor.stoppedAt().empty())
        warnings.add(line, "reading stopped at the " + std::string(cursor.stoppedAt()));
    for (PmuCounter& counter : log.counters)
        if (static_cast<std::size_t>(counter.index) < log.events.size())
            counter.event = log.events[static_cast<std::size_t>(counter.index)];
    if (!log.counters.empty() && log.events.empty())
        warnings.add(line, "the PMU counters are not named: no \"Ethos-U PMU Events:[…]\" line");
    if (log.empty())
        warnings.add(0, 0, "no executor runner report found (no profiler report, PMU report or ethosu_pmu_cycle_cntr)");
    log.warnings = warnings.take();
    return log;
}

Result<RunLog> readRunLog(const std::string& path, const LogLimits& limits)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    const auto bytes = (*file)->bytes();
    return parseRunLog({ reinterpret_cast<const char*>(bytes.data()), bytes.size() }, path, limits);
}

} // namespace etscope::core::vendor
