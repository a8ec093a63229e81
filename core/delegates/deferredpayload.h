// SPDX-License-Identifier: MIT
#pragma once

#include "core/delegates/delegate.h"

namespace etscope::core {

/// As describeDelegateDeferred, for payload bytes the caller holds (fixtures, tests of damaged
/// payloads): they must stay valid until the inner graph is decoded.
DelegateInfo describePayloadDeferred(const Program& program, const DelegateRef& ref,
    std::span<const std::uint8_t> payload, std::span<const ExternalData* const> externalData, const std::string& where,
    const std::shared_ptr<DeferredDecodeSources>& sources);

} // namespace etscope::core
