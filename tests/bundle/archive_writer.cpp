#include "archive_writer.h"

#include <archive.h>
#include <archive_entry.h>

namespace fltest {

std::string writeArchive(const std::string& path, ArchiveFormat format, const std::vector<ArchiveItem>& items)
{
    archive* a = archive_write_new();
    switch (format) {
    case ArchiveFormat::Tar: archive_write_set_format_pax_restricted(a); break;
    case ArchiveFormat::TarGz: archive_write_set_format_pax_restricted(a); archive_write_add_filter_gzip(a); break;
    case ArchiveFormat::TarZst: archive_write_set_format_pax_restricted(a); archive_write_add_filter_zstd(a); break;
    case ArchiveFormat::Zip: archive_write_set_format_zip(a); break;
    }
    std::string error;
    if (archive_write_open_filename(a, path.c_str()) != ARCHIVE_OK) {
        error = archive_error_string(a);
        archive_write_free(a);
        return error;
    }
    for (const auto& item : items) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, item.name.c_str());
        archive_entry_set_mtime(e, 1'700'000'000, 0);
        switch (item.type) {
        case ArchiveItem::Type::File:
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_perm(e, 0644);
            archive_entry_set_size(e, static_cast<la_int64_t>(item.content.size()));
            break;
        case ArchiveItem::Type::Dir:
            archive_entry_set_filetype(e, AE_IFDIR);
            archive_entry_set_perm(e, 0755);
            break;
        case ArchiveItem::Type::Symlink:
            archive_entry_set_filetype(e, AE_IFLNK);
            archive_entry_set_perm(e, 0777);
            archive_entry_set_symlink(e, item.content.c_str());
            break;
        case ArchiveItem::Type::Hardlink:
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_perm(e, 0644);
            archive_entry_set_hardlink(e, item.content.c_str());
            archive_entry_set_size(e, 0);
            break;
        }
        if (archive_write_header(a, e) < ARCHIVE_WARN && error.empty())
            error = archive_error_string(a);
        if (item.type == ArchiveItem::Type::File && !item.content.empty())
            if (archive_write_data(a, item.content.data(), item.content.size()) < 0 && error.empty())
                error = archive_error_string(a);
        archive_entry_free(e);
    }
    if (archive_write_close(a) != ARCHIVE_OK && error.empty())
        error = archive_error_string(a);
    archive_write_free(a);
    return error;
}

std::string compressed(const std::string& bytes, const std::string& filter)
{
    archive* a = archive_write_new();
    archive_write_set_format_raw(a);
    if (archive_write_add_filter_by_name(a, filter.c_str()) != ARCHIVE_OK) {
        archive_write_free(a);
        return {};
    }
    archive_write_set_bytes_in_last_block(a, 1);
    std::string out(bytes.size() + 65536, '\0');
    size_t used = 0;
    archive_write_open_memory(a, out.data(), out.size(), &used);
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, "data");
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_size(e, static_cast<la_int64_t>(bytes.size()));
    archive_write_header(a, e);
    archive_write_data(a, bytes.data(), bytes.size());
    archive_entry_free(e);
    archive_write_close(a);
    archive_write_free(a);
    out.resize(used);
    return out;
}

} // namespace fltest
