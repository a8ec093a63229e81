// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace etscope::core {

/// An immutable vector whose copies share one block (issue 27). A 100,000-instruction LLM has
/// 150,000 tensor values with a handful of distinct shapes: as a std::vector each, a shape and a
/// dim order cost 48 bytes inline and two heap blocks per value; shared, 16 bytes and none.
///
/// Reads as a `const std::vector<T>&` (converts to one); changed only by assigning a new one.
template <class T> class SharedVector {
public:
    using value_type = T;
    using const_iterator = typename std::vector<T>::const_iterator;
    using iterator = const_iterator;

    SharedVector() = default;
    SharedVector(std::vector<T> items) // NOLINT(google-explicit-constructor): reads as the vector it replaced
        : m_items(items.empty() ? nullptr : std::make_shared<const std::vector<T>>(std::move(items)))
    {
    }
    SharedVector(std::initializer_list<T> items)
        : SharedVector(std::vector<T>(items))
    {
    }

    const std::vector<T>& vector() const { return m_items ? *m_items : empty_(); }
    operator const std::vector<T>&() const { return vector(); } // NOLINT(google-explicit-constructor)

    std::size_t size() const { return m_items ? m_items->size() : 0; }
    bool empty() const { return size() == 0; }
    const T& operator[](std::size_t index) const { return (*m_items)[index]; }
    const T& front() const { return m_items->front(); }
    const T& back() const { return m_items->back(); }
    const T* data() const { return m_items ? m_items->data() : nullptr; }
    const_iterator begin() const { return vector().begin(); }
    const_iterator end() const { return vector().end(); }

    /// Whether both share one block (the same interned contents, or both empty).
    bool sharesWith(const SharedVector& other) const { return m_items == other.m_items; }

    friend bool operator==(const SharedVector& a, const SharedVector& b)
    {
        return a.m_items == b.m_items || a.vector() == b.vector();
    }
    friend bool operator==(const SharedVector& a, const std::vector<T>& b) { return a.vector() == b; }

private:
    static const std::vector<T>& empty_()
    {
        static const std::vector<T> none;
        return none;
    }
    std::shared_ptr<const std::vector<T>> m_items;
};

/// Hands out one SharedVector per distinct contents (a reader keeps one while it decodes).
template <class T> class SharedVectorPool {
public:
    SharedVector<T> intern(std::span<const T> items)
    {
        if (items.empty())
            return {};
        const std::string_view key(reinterpret_cast<const char*>(items.data()), items.size_bytes());
        const auto it = m_pool.find(key);
        if (it != m_pool.end())
            return it->second;
        SharedVector<T> shared(std::vector<T>(items.begin(), items.end()));
        // The key views the shared block's own bytes, which live as long as the pool's copy.
        const std::string_view ownKey(reinterpret_cast<const char*>(shared.data()), items.size_bytes());
        m_pool.emplace(ownKey, shared);
        return shared;
    }

private:
    std::unordered_map<std::string_view, SharedVector<T>> m_pool;
};

} // namespace etscope::core
