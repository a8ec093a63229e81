// SPDX-License-Identifier: MIT
#include "core/layout/layoutwire.h"

#include "core/util/platform.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace etscope::core {

namespace {

constexpr std::uint32_t kRequestMagic = 0x51544C45; // "ELTQ"
constexpr std::uint32_t kResultMagic = 0x52544C45; // "ELTR"

class Writer {
public:
    template <typename T> void put(T value)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        char bytes[sizeof(T)];
        std::memcpy(bytes, &value, sizeof(T));
        m_bytes.append(bytes, sizeof(T));
    }
    void putText(std::string_view text)
    {
        put(static_cast<std::uint32_t>(text.size()));
        m_bytes.append(text);
    }
    std::string take() { return std::move(m_bytes); }

private:
    std::string m_bytes;
};

/// Reads what Writer wrote; every read is bounded by the bytes left, and every count by what
/// the bytes left could hold, so that a bad frame fails instead of allocating.
class Reader {
public:
    explicit Reader(std::string_view bytes)
        : m_bytes(bytes)
    {
    }
    template <typename T> bool get(T& value)
    {
        if (m_failed || m_bytes.size() - m_offset < sizeof(T))
            return fail();
        std::memcpy(&value, m_bytes.data() + m_offset, sizeof(T));
        m_offset += sizeof(T);
        return true;
    }
    bool getText(std::string& text)
    {
        std::uint32_t size = 0;
        if (!get(size) || m_bytes.size() - m_offset < size)
            return fail();
        text.assign(m_bytes.substr(m_offset, size));
        m_offset += size;
        return true;
    }
    /// A count of elements of at least `elementBytes` each.
    bool getCount(std::size_t& count, std::size_t elementBytes)
    {
        std::uint32_t n = 0;
        if (!get(n) || static_cast<std::size_t>(n) > (m_bytes.size() - m_offset) / elementBytes)
            return fail();
        count = n;
        return true;
    }
    bool atEnd() const { return !m_failed && m_offset == m_bytes.size(); }
    Error error(const std::string& what) const
    {
        return makeError(Error::Code::Corrupt, "layout worker", what + " is malformed", m_offset);
    }

private:
    bool fail()
    {
        m_failed = true;
        return false;
    }
    std::string_view m_bytes;
    std::size_t m_offset = 0;
    bool m_failed = false;
};

void putBox(Writer& w, double a, double b, double c, double d)
{
    w.put(a);
    w.put(b);
    w.put(c);
    w.put(d);
}

bool getBox(Reader& r, double& a, double& b, double& c, double& d)
{
    return r.get(a) && r.get(b) && r.get(c) && r.get(d);
}

} // namespace

std::string encodeLayoutRequest(const LayoutRequest& request)
{
    Writer w;
    w.put(kRequestMagic);
    w.put(static_cast<std::uint8_t>(request.safer));
    w.putText(request.fontName);
    w.put(request.fontSize);
    w.put(static_cast<std::uint32_t>(request.clusters.size()));
    for (const auto& cluster : request.clusters) {
        w.putText(cluster.label);
        w.put(static_cast<std::int32_t>(cluster.parent));
        w.put(static_cast<std::uint8_t>(cluster.separate));
    }
    w.put(static_cast<std::uint32_t>(request.nodes.size()));
    for (const auto& node : request.nodes) {
        w.put(node.width);
        w.put(node.height);
        w.put(static_cast<std::int32_t>(node.cluster));
    }
    w.put(static_cast<std::uint32_t>(request.edges.size()));
    for (const auto& edge : request.edges) {
        w.put(static_cast<std::int32_t>(edge.from));
        w.put(static_cast<std::int32_t>(edge.to));
        w.put(static_cast<std::int32_t>(edge.orderOnly));
    }
    return w.take();
}

Result<LayoutRequest> decodeLayoutRequest(std::string_view bytes)
{
    Reader r(bytes);
    LayoutRequest request;
    std::uint32_t magic = 0;
    std::uint8_t safer = 0;
    if (!r.get(magic) || magic != kRequestMagic || !r.get(safer) || !r.getText(request.fontName)
        || !r.get(request.fontSize))
        return r.error("the layout request header");
    request.safer = safer != 0;
    std::size_t count = 0;
    if (!r.getCount(count, 9))
        return r.error("the cluster list");
    request.clusters.resize(count);
    for (auto& cluster : request.clusters) {
        std::int32_t parent = 0;
        std::uint8_t separate = 0;
        if (!r.getText(cluster.label) || !r.get(parent) || !r.get(separate))
            return r.error("a cluster");
        cluster.parent = parent;
        cluster.separate = separate != 0;
    }
    if (!r.getCount(count, 20))
        return r.error("the node list");
    request.nodes.resize(count);
    for (auto& node : request.nodes) {
        std::int32_t cluster = 0;
        if (!r.get(node.width) || !r.get(node.height) || !r.get(cluster))
            return r.error("a node");
        node.cluster = cluster;
    }
    if (!r.getCount(count, 12))
        return r.error("the edge list");
    request.edges.resize(count);
    for (auto& edge : request.edges) {
        std::int32_t from = 0, to = 0, orderOnly = 0;
        if (!r.get(from) || !r.get(to) || !r.get(orderOnly))
            return r.error("an edge");
        edge = { from, to, orderOnly };
    }
    if (!r.atEnd())
        return r.error("the end of the layout request");
    return request;
}

std::string encodeLayoutResult(const Result<LayoutResult>& result)
{
    Writer w;
    w.put(kResultMagic);
    w.put(static_cast<std::uint8_t>(result.ok() ? 0 : 1));
    if (!result) {
        const Error& error = result.error();
        w.put(static_cast<std::uint32_t>(error.code));
        w.putText(error.file);
        w.putText(error.reason);
        w.put(static_cast<std::uint8_t>(error.offset.has_value()));
        w.put(static_cast<std::uint64_t>(error.offset.value_or(0)));
        return w.take();
    }
    const LayoutResult& layout = result.value();
    w.put(layout.width);
    w.put(layout.height);
    w.put(static_cast<std::uint32_t>(layout.nodes.size()));
    for (const auto& node : layout.nodes)
        putBox(w, node.x, node.y, node.width, node.height);
    w.put(static_cast<std::uint32_t>(layout.edges.size()));
    for (const auto& edge : layout.edges) {
        w.put(static_cast<std::uint32_t>(edge.points.size()));
        for (const LayoutPoint& p : edge.points) {
            w.put(p.x);
            w.put(p.y);
        }
        w.put(static_cast<std::uint8_t>(edge.hasArrow));
        w.put(edge.arrowTip.x);
        w.put(edge.arrowTip.y);
    }
    w.put(static_cast<std::uint32_t>(layout.clusters.size()));
    for (const auto& cluster : layout.clusters)
        putBox(w, cluster.x, cluster.y, cluster.width, cluster.height);
    return w.take();
}

Result<LayoutResult> decodeLayoutResult(std::string_view bytes)
{
    Reader r(bytes);
    std::uint32_t magic = 0;
    std::uint8_t failed = 0;
    if (!r.get(magic) || magic != kResultMagic || !r.get(failed))
        return r.error("the layout result header");
    if (failed) {
        Error error;
        std::uint32_t code = 0;
        std::uint8_t hasOffset = 0;
        std::uint64_t offset = 0;
        if (!r.get(code) || code > static_cast<std::uint32_t>(Error::Code::Cancelled) || !r.getText(error.file)
            || !r.getText(error.reason) || !r.get(hasOffset) || !r.get(offset) || !r.atEnd())
            return r.error("the layout error");
        error.code = static_cast<Error::Code>(code);
        if (hasOffset)
            error.offset = offset;
        return error;
    }
    LayoutResult layout;
    if (!r.get(layout.width) || !r.get(layout.height))
        return r.error("the layout size");
    std::size_t count = 0;
    if (!r.getCount(count, 32))
        return r.error("the node list");
    layout.nodes.resize(count);
    for (auto& node : layout.nodes)
        if (!getBox(r, node.x, node.y, node.width, node.height))
            return r.error("a node");
    if (!r.getCount(count, 21))
        return r.error("the edge list");
    layout.edges.resize(count);
    for (auto& edge : layout.edges) {
        std::size_t points = 0;
        std::uint8_t arrow = 0;
        if (!r.getCount(points, 16))
            return r.error("an edge");
        edge.points.resize(points);
        for (LayoutPoint& p : edge.points)
            if (!r.get(p.x) || !r.get(p.y))
                return r.error("an edge point");
        if (!r.get(arrow) || !r.get(edge.arrowTip.x) || !r.get(edge.arrowTip.y))
            return r.error("an edge");
        edge.hasArrow = arrow != 0;
    }
    if (!r.getCount(count, 32))
        return r.error("the cluster list");
    layout.clusters.resize(count);
    for (auto& cluster : layout.clusters)
        if (!getBox(r, cluster.x, cluster.y, cluster.width, cluster.height))
            return r.error("a cluster");
    if (!r.atEnd())
        return r.error("the end of the layout result");
    return layout;
}

std::string frameBytes(std::string_view payload)
{
    std::string frame(8, '\0');
    const std::uint64_t size = payload.size();
    for (int i = 0; i < 8; ++i)
        frame[static_cast<std::size_t>(i)] = static_cast<char>((size >> (8 * i)) & 0xFF);
    frame.append(payload);
    return frame;
}

Result<std::size_t> takeFrame(std::string_view buffer, std::string_view& payload)
{
    if (buffer.size() < 8)
        return std::size_t(0);
    std::uint64_t size = 0;
    for (int i = 0; i < 8; ++i)
        size |= static_cast<std::uint64_t>(static_cast<unsigned char>(buffer[static_cast<std::size_t>(i)])) << (8 * i);
    if (size > kMaxLayoutFrameBytes)
        return makeError(Error::Code::Limit, "layout worker",
            "a frame of " + std::to_string(size) + " bytes is larger than the limit", 0);
    if (buffer.size() - 8 < size)
        return std::size_t(0);
    payload = buffer.substr(8, static_cast<std::size_t>(size));
    return static_cast<std::size_t>(8 + size);
}

int runLayoutWorker(platform::FileHandle in, platform::FileHandle out)
{
    std::string buffer;
    char chunk[1 << 16];
    for (;;) {
        std::string_view payload;
        const auto taken = takeFrame(buffer, payload);
        if (!taken)
            return 2;
        if (*taken == 0) {
            const auto n = platform::readSome(in, chunk, sizeof chunk); // what has arrived, not a full chunk
            if (n <= 0)
                return n == 0 && buffer.empty() ? 0 : 2;
            buffer.append(chunk, static_cast<std::size_t>(n));
            continue;
        }
        auto request = decodeLayoutRequest(payload);
        const Result<LayoutResult> result
            = request ? layoutGraph(request.value()) : Result<LayoutResult>(request.error());
        buffer.erase(0, *taken);
        const std::string frame = frameBytes(encodeLayoutResult(result));
        if (platform::writeAll(out, frame))
            return 2;
    }
}

} // namespace etscope::core
