// SPDX-License-Identifier: MIT
#include "core/util/ziparchive.h"

#include "core/util/text.h"

#include <zip.h>

#include <optional>
#include <set>
#include <span>

namespace etscope::core {

struct ZipArchive::Impl {
    std::shared_ptr<const MappedFile> file;
    zip_t* archive = nullptr;
    std::vector<ZipEntry> entries;
    std::vector<Warning> warnings;
    std::uint64_t bytesInFront = 0;

    ~Impl()
    {
        if (archive)
            zip_discard(archive);
    }
};

namespace {

std::string entryError(const std::string& name, const std::string& reason)
{
    return "entry '" + name + "': " + reason;
}

/// Names are keys, never paths ETScope writes to, but a name that would be dangerous as a
/// path or that carries control characters is a sign of a crafted archive.
std::optional<std::string> invalidName(const std::string& name, const ZipLimits& limits)
{
    if (name.empty())
        return std::string("an entry has an empty name");
    if (name.size() > limits.maxNameLength)
        return "an entry name is " + std::to_string(name.size()) + " bytes long (limit "
            + std::to_string(limits.maxNameLength) + ")";
    for (const char c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == '\\' || c == 0x7f)
            return entryError(name, "the name contains a control character or a backslash");
    if (name.front() == '/')
        return entryError(name, "the name is an absolute path");
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t end = name.find('/', start);
        const std::string part = name.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (part == "..")
            return entryError(name, "the name climbs out of the archive ('..')");
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return std::nullopt;
}

} // namespace

ZipArchive::ZipArchive(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl))
{
}

ZipArchive::ZipArchive(ZipArchive&&) noexcept = default;
ZipArchive& ZipArchive::operator=(ZipArchive&&) noexcept = default;
ZipArchive::~ZipArchive() = default;

const std::string& ZipArchive::path() const
{
    return m_impl->file->path();
}

const std::vector<ZipEntry>& ZipArchive::entries() const
{
    return m_impl->entries;
}

const std::vector<Warning>& ZipArchive::warnings() const
{
    return m_impl->warnings;
}

const ZipEntry* ZipArchive::find(std::string_view name) const
{
    for (const ZipEntry& entry : m_impl->entries)
        if (entry.name == name)
            return &entry;
    return nullptr;
}

namespace {

/// libzip's error code in this tool's words (its own strings, "No such file" or "Zip archive
/// inconsistent", read like an operating-system failure and name no part of the archive).
std::string zipProblem(int code)
{
    switch (code) {
    case ZIP_ER_NOZIP:
        return "not a ZIP archive";
    case ZIP_ER_INCONS:
        return "the central directory and the entries disagree";
    case ZIP_ER_EXISTS:
        return "two entries share one name";
    case ZIP_ER_NOENT:
    case ZIP_ER_READ:
    case ZIP_ER_SEEK:
    case ZIP_ER_EOF:
        return "an offset points outside the archive";
    case ZIP_ER_CRC:
        return "the CRC of the data does not match";
    case ZIP_ER_ZLIB:
    case ZIP_ER_COMPRESSED_DATA:
        return "the compressed data is damaged";
    case ZIP_ER_COMPNOTSUPP:
        return "a compression method this build does not read";
    case ZIP_ER_ENCRNOTSUPP:
    case ZIP_ER_NOPASSWD:
    case ZIP_ER_WRONGPASSWD:
        return "encrypted entries are not supported";
    case ZIP_ER_MEMORY:
        return "out of memory";
    default:
        return "damaged (libzip error " + std::to_string(code) + ")";
    }
}

} // namespace

namespace {

/// Opens libzip over `bytes`; the error code when it fails.
zip_t* openZip(std::span<const std::uint8_t> bytes, int flags, int& code)
{
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    zip_t* archive = source ? zip_open_from_source(source, flags, &error) : nullptr;
    code = archive ? ZIP_ER_OK : zip_error_code_zip(&error);
    if (source && !archive)
        zip_source_free(source);
    zip_error_fini(&error);
    return archive;
}

/// Bytes in front of the archive, as Python's zipfile and unzip measure them: the end record
/// sits that far beyond where its central directory's offset and size say it should. Found
/// from the last end record whose comment reaches exactly to the end of the file; nullopt when
/// there is none, the archive is ZIP64 (sizes of 0xffffffff), or nothing is in front.
std::optional<std::uint64_t> bytesInFront(std::span<const std::uint8_t> bytes)
{
    constexpr std::size_t kEndRecord = 22;
    constexpr std::size_t kMaxComment = 0xffff;
    if (bytes.size() < kEndRecord)
        return std::nullopt;
    const std::size_t last = bytes.size() - kEndRecord;
    const std::size_t first = last > kMaxComment ? last - kMaxComment : 0;
    for (std::size_t at = last + 1; at-- > first;) {
        if (readLe32(bytes.data() + at) != 0x06054b50u
            || at + kEndRecord + readLe16(bytes.data() + at + 20) != bytes.size())
            continue;
        const std::uint64_t size = readLe32(bytes.data() + at + 12);
        const std::uint64_t offset = readLe32(bytes.data() + at + 16);
        if (size == 0xffffffffu || offset == 0xffffffffu || offset + size >= at)
            return std::nullopt;
        return at - size - offset;
    }
    return std::nullopt;
}

} // namespace

Result<ZipArchive> ZipArchive::open(const std::shared_ptr<const MappedFile>& file, const ZipLimits& limits)
{
    const std::string& path = file->path();
    const auto bytes = file->bytes();
    if (bytes.size() < 22)
        return makeError(Error::Code::Truncated, path,
            "too small to be a ZIP archive (" + std::to_string(bytes.size()) + " bytes; the end record alone is 22)");
    auto impl = std::make_unique<Impl>();
    impl->file = file;
    int code = ZIP_ER_OK;
    impl->archive = openZip(bytes, ZIP_RDONLY | ZIP_CHECKCONS, code);
    // An archive with bytes in front (a stub, or a writer that counted offsets from elsewhere):
    // Python's zipfile and unzip shift every offset by that many bytes, and so does this reader,
    // over the bytes that follow. Entries whose local header is then not where the central
    // directory says fail when read, as they do in Python.
    if (!impl->archive && (code == ZIP_ER_NOZIP || code == ZIP_ER_INCONS)) {
        if (const auto front = bytesInFront(bytes)) {
            const auto shifted = bytes.subspan(static_cast<std::size_t>(*front));
            int shiftedCode = ZIP_ER_OK;
            impl->archive = openZip(shifted, ZIP_RDONLY | ZIP_CHECKCONS, shiftedCode);
            bool consistent = impl->archive != nullptr;
            if (!impl->archive)
                impl->archive = openZip(shifted, ZIP_RDONLY, shiftedCode);
            if (impl->archive) {
                impl->bytesInFront = *front;
                impl->warnings.push_back({ std::to_string(*front)
                        + " extra bytes at the beginning of or within the ZIP archive: offsets are read "
                          "shifted by that much, as Python's zipfile and unzip do"
                        + std::string(consistent ? ""
                                                 : "; some entries are not where the central directory says "
                                                   "and cannot be read"),
                    std::uint64_t(0) });
            } else if (shiftedCode != ZIP_ER_NOZIP) {
                code = shiftedCode;
            }
        }
    }
    if (!impl->archive) {
        if (code == ZIP_ER_NOZIP)
            return makeError(Error::Code::BadIdentifier, path, zipProblem(code));
        // libzip finds duplicate names itself (its name hash) before any entry is listed.
        return makeError(Error::Code::Corrupt, path, "damaged ZIP archive: " + zipProblem(code));
    }

    const zip_int64_t count = zip_get_num_entries(impl->archive, 0);
    if (count < 0)
        return makeError(Error::Code::Corrupt, path, "damaged ZIP archive: no entry count");
    if (static_cast<std::uint64_t>(count) > limits.maxEntries)
        return makeError(Error::Code::Limit, path,
            "the archive has " + std::to_string(count) + " entries (limit " + std::to_string(limits.maxEntries) + ")");
    std::uint64_t total = 0;
    std::set<std::string> names;
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t stat;
        zip_stat_init(&stat);
        // Raw names: a guessed CP437 conversion would turn control bytes into harmless glyphs.
        if (zip_stat_index(impl->archive, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW, &stat) != 0
            || !(stat.valid & ZIP_STAT_NAME) || !stat.name)
            return makeError(
                Error::Code::Corrupt, path, "damaged ZIP archive: entry " + std::to_string(i) + " unreadable");
        ZipEntry entry;
        entry.name = stat.name;
        entry.index = static_cast<std::uint64_t>(i);
        if (const auto reason = invalidName(entry.name, limits))
            return makeError(Error::Code::Corrupt, path, *reason);
        if (!names.insert(entry.name).second)
            return makeError(Error::Code::Corrupt, path, entryError(entry.name, "the name occurs twice"));
        if (!(stat.valid & ZIP_STAT_SIZE) || !(stat.valid & ZIP_STAT_COMP_SIZE))
            return makeError(Error::Code::Corrupt, path, entryError(entry.name, "no size in the central directory"));
        if ((stat.valid & ZIP_STAT_ENCRYPTION_METHOD) && stat.encryption_method != ZIP_EM_NONE)
            return makeError(Error::Code::Corrupt, path, entryError(entry.name, "encrypted entries are not supported"));
        entry.size = stat.size;
        entry.compressedSize = stat.comp_size;
        entry.compressed = (stat.valid & ZIP_STAT_COMP_METHOD) && stat.comp_method != ZIP_CM_STORE;
        if (entry.size > limits.maxEntrySize)
            return makeError(Error::Code::Limit, path,
                entryError(entry.name,
                    std::to_string(entry.size) + " bytes uncompressed (limit " + std::to_string(limits.maxEntrySize)
                        + ")"));
        if (entry.compressed && entry.size > limits.ratioFloor
            && (entry.compressedSize == 0
                || static_cast<double>(entry.size) / static_cast<double>(entry.compressedSize)
                    > limits.maxCompressionRatio))
            return makeError(Error::Code::Limit, path,
                entryError(entry.name,
                    "compression ratio above " + std::to_string(static_cast<int>(limits.maxCompressionRatio)) + ":1 ("
                        + std::to_string(entry.compressedSize) + " → " + std::to_string(entry.size) + " bytes)"));
        if (!entry.compressed && entry.compressedSize != entry.size)
            return makeError(Error::Code::Corrupt, path,
                entryError(entry.name,
                    "stored entry whose sizes disagree (" + std::to_string(entry.compressedSize) + " vs "
                        + std::to_string(entry.size) + ")"));
        total += entry.size;
        if (total > limits.maxTotalSize)
            return makeError(Error::Code::Limit, path,
                "the entries add up to more than " + std::to_string(limits.maxTotalSize)
                    + " bytes uncompressed (at entry '" + entry.name + "')");
        impl->entries.push_back(std::move(entry));
    }
    return ZipArchive(std::move(impl));
}

Result<std::string> ZipArchive::read(const ZipEntry& entry) const
{
    const std::string& path = m_impl->file->path();
    zip_file_t* handle = zip_fopen_index(m_impl->archive, entry.index, 0);
    if (!handle)
        return makeError(Error::Code::Corrupt, path,
            entryError(entry.name, "cannot open: " + zipProblem(zip_error_code_zip(zip_get_error(m_impl->archive)))));
    std::string data;
    data.resize(static_cast<std::size_t>(entry.size));
    std::uint64_t done = 0;
    std::optional<Error> failure;
    while (done < entry.size) {
        const zip_int64_t n = zip_fread(handle, data.data() + done, entry.size - done);
        if (n < 0) {
            const int code = zip_error_code_zip(zip_file_get_error(handle));
            // libzip reads the local header lazily; in a shifted archive a misplaced one shows here.
            const bool misplaced = m_impl->bytesInFront > 0 && (code == ZIP_ER_INVAL || code == ZIP_ER_NOZIP);
            failure = makeError(Error::Code::Corrupt, path,
                entryError(entry.name,
                    misplaced ? "its local header is not where the central directory says, "
                            + std::to_string(m_impl->bytesInFront) + " bytes in front counted"
                              : "cannot inflate: " + zipProblem(code)));
            break;
        }
        if (n == 0)
            break;
        done += static_cast<std::uint64_t>(n);
    }
    if (!failure && done != entry.size)
        failure = makeError(Error::Code::Corrupt, path,
            entryError(entry.name,
                "ends after " + std::to_string(done) + " of " + std::to_string(entry.size) + " declared bytes"));
    // One more byte must not exist: the declared size is the limit we checked.
    char extra = 0;
    if (!failure && zip_fread(handle, &extra, 1) > 0)
        failure = makeError(Error::Code::Corrupt, path, entryError(entry.name, "longer than its declared size"));
    zip_fclose(handle);
    if (failure)
        return *failure;
    return data;
}

} // namespace etscope::core
