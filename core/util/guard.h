// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <exception>
#include <new>
#include <string>
#include <utility>

namespace etscope::core {

/// The text of whatever `current` (a caught exception) is, for an error message.
inline std::string exceptionText(const std::exception_ptr& current)
{
    try {
        std::rethrow_exception(current);
    } catch (const std::bad_alloc&) {
        return "out of memory";
    } catch (const std::exception& error) {
        return error.what();
    } catch (...) {
        return "an unknown exception";
    }
}

/// The exception boundary of a reader entry point: runs `read` (returning Result<T>) and turns
/// anything it throws into an Error naming `file` and `what` was being read, so no exception
/// ever crosses the core API. Running out of memory is a Limit (the input asked for too much);
/// anything else means the reader met bytes it did not expect: Corrupt.
template <typename T, typename Read>
Result<T> guardedRead(const std::string& file, const std::string& what, Read&& read)
{
    try {
        return std::forward<Read>(read)();
    } catch (const std::bad_alloc&) {
        return makeError(Error::Code::Limit, file, "ran out of memory reading " + what);
    } catch (...) {
        return makeError(
            Error::Code::Corrupt, file, "could not read " + what + ": " + exceptionText(std::current_exception()));
    }
}

} // namespace etscope::core
