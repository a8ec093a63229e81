// SPDX-License-Identifier: MIT
// The compact pytree grammar the runtime parses (facts sheet §1.10): a leaf is '$'; a container
// is its kind (T tuple, N named tuple, L list, D dict, C(type) custom), its child count, '#' and
// the leaf count of each child, then the children in parentheses, separated by ','; a dict's
// children are written key:child with string keys in single quotes.
#include "core/pte/pytree.h"

#include <cctype>

namespace etscope::core {

namespace {

constexpr int kMaxDepth = 64;

class Parser {
public:
    explicit Parser(std::string_view text)
        : m_text(text)
    {
    }

    bool parse(std::vector<std::string>& leaves)
    {
        std::string text;
        return node("", 0, leaves, text) && m_at == m_text.size();
    }
    /// Also the spec written as a Python literal of its containers, each leaf named by
    /// `leafNames` (by leaf order; "•" past its end); `rootChildren` the root's children so.
    bool parse(std::vector<std::string>& leaves, const std::vector<std::string>& leafNames, std::string& text,
        std::vector<std::string>& rootChildren)
    {
        m_leafNames = &leafNames;
        m_rootChildren = &rootChildren;
        return node("", 0, leaves, text) && m_at == m_text.size();
    }

private:
    bool peek(char c) const { return m_at < m_text.size() && m_text[m_at] == c; }
    bool take(char c)
    {
        if (!peek(c))
            return false;
        ++m_at;
        return true;
    }
    bool number(std::size_t& out)
    {
        const std::size_t start = m_at;
        out = 0;
        while (m_at < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_at]))) {
            if (out > 100'000'000)
                return false;
            out = out * 10 + static_cast<std::size_t>(m_text[m_at++] - '0');
        }
        return m_at > start;
    }

    bool node(const std::string& path, int depth, std::vector<std::string>& leaves, std::string& text)
    {
        if (depth > kMaxDepth || m_at >= m_text.size())
            return false;
        const char kind = m_text[m_at++];
        if (kind == '$') {
            if (m_leafNames)
                text += leaves.size() < m_leafNames->size() ? (*m_leafNames)[leaves.size()] : std::string("•");
            leaves.push_back(path);
            return true;
        }
        std::string typeName;
        if (kind == 'C') { // C(type name): the name is not part of a path
            if (!take('('))
                return false;
            const std::size_t start = m_at;
            while (m_at < m_text.size() && m_text[m_at] != ')')
                ++m_at;
            typeName = std::string(m_text.substr(start, m_at - start));
            if (!take(')'))
                return false;
        } else if (kind != 'T' && kind != 'N' && kind != 'L' && kind != 'D') {
            return false;
        }
        std::size_t count = 0;
        if (!number(count))
            return false;
        for (std::size_t i = 0; i < count; ++i) {
            std::size_t leafCount = 0;
            if (!take('#') || !number(leafCount))
                return false;
        }
        if (!take('('))
            return false;
        std::vector<std::string> children;
        for (std::size_t i = 0; i < count; ++i) {
            if (i && !take(','))
                return false;
            std::string child;
            std::string key = "[" + std::to_string(i) + "]";
            if (kind == 'D') {
                if (take('\'')) {
                    const std::size_t start = m_at;
                    while (m_at < m_text.size() && m_text[m_at] != '\'')
                        ++m_at;
                    key = "['" + std::string(m_text.substr(start, m_at - start)) + "']";
                    if (!take('\''))
                        return false;
                } else {
                    std::size_t intKey = 0;
                    if (!number(intKey))
                        return false;
                    key = "[" + std::to_string(intKey) + "]";
                }
                if (!take(':'))
                    return false;
                if (m_leafNames)
                    child = key.substr(1, key.size() - 2) + ": ";
            }
            if (!node(path + key, depth + 1, leaves, child))
                return false;
            if (m_leafNames)
                children.push_back(std::move(child));
        }
        if (!take(')'))
            return false;
        if (!m_leafNames)
            return true;
        // As Python would print it: (a, b) and (a,), [a, b], {'k': a}, Type(a, b).
        std::string joined;
        for (std::size_t i = 0; i < children.size(); ++i)
            joined += (i ? ", " : "") + children[i];
        if (kind == 'T')
            text += "(" + joined + (children.size() == 1 ? ",)" : ")");
        else if (kind == 'N')
            text += "namedtuple(" + joined + ")";
        else if (kind == 'L')
            text += "[" + joined + "]";
        else if (kind == 'D')
            text += "{" + joined + "}";
        else
            text += typeName + "(" + joined + ")";
        if (depth == 0 && m_rootChildren)
            *m_rootChildren = std::move(children);
        return true;
    }

    std::string_view m_text;
    std::size_t m_at = 0;
    const std::vector<std::string>* m_leafNames = nullptr;
    std::vector<std::string>* m_rootChildren = nullptr;
};

} // namespace

std::optional<std::vector<std::string>> pytreeLeafPaths(std::string_view spec, bool asArguments)
{
    std::vector<std::string> leaves;
    if (!Parser(spec).parse(leaves))
        return std::nullopt;
    // (args, kwargs): "[0][i]" is args[i], "[1]['k']" is kwargs['k'].
    const bool pair = asArguments && spec.size() > 4 && spec.substr(0, 3) == "T2#";
    if (pair)
        for (std::string& leaf : leaves) {
            if (leaf.rfind("[0]", 0) == 0)
                leaf = "args" + leaf.substr(3);
            else if (leaf.rfind("[1]", 0) == 0)
                leaf = "kwargs" + leaf.substr(3);
        }
    return leaves;
}

std::optional<std::string> pytreeOutline(
    std::string_view spec, const std::vector<std::string>& leafNames, bool asArguments)
{
    std::vector<std::string> leaves;
    std::string text;
    std::vector<std::string> children;
    if (!Parser(spec).parse(leaves, leafNames, text, children))
        return std::nullopt;
    if (asArguments && spec.substr(0, 3) == "T2#" && children.size() == 2)
        return "args " + children[0] + " · kwargs " + children[1];
    return text;
}

} // namespace etscope::core
