// SPDX-License-Identifier: MIT
#pragma once

#include "core/delegates/delegate.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace etscope::core {

/// Appends a TargetFact to `info.target`.
void addTarget(DelegateInfo& info, std::string key, std::string name, std::string value,
    std::optional<std::int64_t> number, std::string source);

/// "iOS 15, macOS 12, watchOS 8, tvOS 15" for a Core ML specification version (coremltools'
/// target numbers are these versions); empty for a number coremltools does not name.
std::string coreMlOsText(std::int64_t specificationVersion);

/// "SM8650" for a QcomChipset number (qnn.cpp's table of qc_compiler_spec.fbs); "unknown" else.
std::string qnnChipsetName(std::int64_t socModel);

/// The HTP version ("v75") a QNN min_arch or htp_arch number stands for.
std::string htpArchText(std::int64_t arch);

/// Reads one "qnn_compile_spec" (qnn.cpp): facts, targets and, when the value cannot be read,
/// a warning naming the field and its file offset; the hex is kept only then.
void readQnnCompileSpec(const DelegateContext& context, DelegateInfo& info, const CompileSpec& spec);

} // namespace etscope::core
