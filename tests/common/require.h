// SPDX-License-Identifier: MIT
#pragma once

// Fixtures a test cannot go on without, as assertions. `ETSCOPE_TAKE(declaration, expression)`
// evaluates a Result, optional or pointer; without a value the current test function fails with
// the expression and the error's message (file, reason, byte offset) and returns, and the other
// test functions still run (a qFatal in a helper used to abort the whole executable silently).
//
//     ETSCOPE_TAKE(const Document document, openSample("executorch/add.pte"));

#include "core/util/result.h"

#include <QTest>

#include <memory>
#include <optional>
#include <string>

namespace etscope::test {

template <typename T> std::string missingValue(const core::Result<T>& result)
{
    return result ? std::string() : result.error().message();
}

template <typename T> std::string missingValue(const std::optional<T>& value)
{
    return value ? std::string() : std::string("no value");
}

template <typename T> std::string missingValue(const std::unique_ptr<T>& value)
{
    return value ? std::string() : std::string("null");
}

template <typename T> std::string missingValue(const T* value)
{
    return value ? std::string() : std::string("null");
}

} // namespace etscope::test

#define ETSCOPE_TAKE_JOIN2(a, b) a##b
#define ETSCOPE_TAKE_JOIN(a, b) ETSCOPE_TAKE_JOIN2(a, b)
#define ETSCOPE_TAKE_WITH(holder, declaration, ...)                                                                    \
    auto holder = (__VA_ARGS__);                                                                                       \
    QVERIFY2(                                                                                                          \
        static_cast<bool>(holder), (std::string(#__VA_ARGS__ ": ") + etscope::test::missingValue(holder)).c_str());    \
    declaration = std::move(*holder)
#define ETSCOPE_TAKE(declaration, ...)                                                                                 \
    ETSCOPE_TAKE_WITH(ETSCOPE_TAKE_JOIN(etscopeTaken, __LINE__), declaration, __VA_ARGS__)
