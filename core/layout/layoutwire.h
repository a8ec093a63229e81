// SPDX-License-Identifier: MIT
#pragma once

// Layout requests and results as bytes, for running Graphviz in a helper process
// (`etscope layout-worker`): a worker can be killed when the user cancels, and a Graphviz
// crash costs the worker, not the user's session.

#include "core/layout/graphlayout.h"
#include "core/util/platform.h"

#include <string>
#include <string_view>

namespace etscope::core {

/// The argument that makes `etscope` a layout worker (runLayoutWorker on stdin and stdout).
constexpr std::string_view kLayoutWorkerArgument = "--layout-worker";

/// Frames larger than this are refused by readFrame (a 5,000-node request is about 150 kB).
constexpr std::size_t kMaxLayoutFrameBytes = 512u << 20;

std::string encodeLayoutRequest(const LayoutRequest& request);
/// Fails (Error::Code::Corrupt, with the byte offset) on anything but an encoded request.
Result<LayoutRequest> decodeLayoutRequest(std::string_view bytes);

/// A layout or the error that prevented it.
std::string encodeLayoutResult(const Result<LayoutResult>& result);
/// The layout, or the error it carried, or Corrupt when the bytes are not an encoded result.
Result<LayoutResult> decodeLayoutResult(std::string_view bytes);

/// One frame on a pipe: an 8-byte little-endian length, then the bytes.
std::string frameBytes(std::string_view payload);
/// How many bytes the frame at the start of `buffer` takes in all, 0 when it is not complete
/// yet; sets `payload` when it is. A length above kMaxLayoutFrameBytes is an error.
Result<std::size_t> takeFrame(std::string_view buffer, std::string_view& payload);

/// The worker's loop: reads framed requests from `in`, lays each out, writes framed results to
/// `out`, until end of input (the helper passes platform::standardInput() and standardOutput()).
/// Returns the process exit status (0 at end of input, 2 on a bad frame or a broken pipe).
int runLayoutWorker(platform::FileHandle in, platform::FileHandle out);

} // namespace etscope::core
