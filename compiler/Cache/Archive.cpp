//===- Archive.cpp - The ustar format of packed caches --------------------===//

#include "compiler/Cache/Archive.h"
#include "compiler/Cache/Cache.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace zluda::cache;

namespace {

/// `value` in octal, zero-padded to `width - 1` digits and a NUL.
void octal(char *field, size_t width, uint64_t value) {
  std::snprintf(field, width, "%0*llo", int(width - 1),
                static_cast<unsigned long long>(value));
}

/// The number in an octal header field (digits after optional spaces, up to
/// the field's end, a NUL or a space).
uint64_t octalField(std::string_view field) {
  uint64_t value = 0;
  size_t i = 0;
  while (i < field.size() && field[i] == ' ')
    ++i;
  for (; i < field.size() && field[i] >= '0' && field[i] <= '7'; ++i)
    value = value << 3 | uint64_t(field[i] - '0');
  return value;
}

} // namespace

std::string zluda::cache::tarHeader(const std::string &name, uint64_t size) {
  std::string h(kTarBlock, '\0');
  std::memcpy(&h[0], name.data(), std::min<size_t>(name.size(), 100));
  octal(&h[100], 8, 0644); // mode
  octal(&h[108], 8, 0);    // uid
  octal(&h[116], 8, 0);    // gid
  octal(&h[124], 12, size);
  octal(&h[136], 12, 0); // mtime
  h[156] = '0';          // typeflag: regular file
  std::memcpy(&h[257],
              "ustar\0"
              "00",
              8);               // magic, version
  std::memset(&h[148], ' ', 8); // chksum, as spaces while summing
  unsigned sum = 0;
  for (unsigned char c : h)
    sum += c;
  octal(&h[148], 7, sum); // six digits and a NUL, then the space
  h[155] = ' ';
  return h;
}

namespace {

/// `<prefix><2 hex>/<file>` with `isName(bucket, file)`; the file's name
/// less its 4-character suffix in `key`.
bool bucketedName(std::string_view name, std::string_view prefix,
                  bool (*isName)(std::string_view, std::string_view),
                  std::string &key) {
  if (name.substr(0, prefix.size()) != prefix)
    return false;
  name.remove_prefix(prefix.size());
  if (name.size() < 3 || name[2] != '/' ||
      !isName(name.substr(0, 2), name.substr(3)))
    return false;
  key = std::string(name.substr(3, name.size() - 3 - 4));
  return true;
}

} // namespace

bool zluda::cache::archiveEntryName(std::string_view name, std::string &key) {
  return bucketedName(name, "v1/entries/", isEntryFileName, key);
}

bool zluda::cache::archiveImageName(std::string_view name,
                                    std::string &indexKey) {
  return bucketedName(name, "v1/images/", isImageFileName, indexKey);
}

bool zluda::cache::walkArchive(
    std::string_view tar,
    const std::function<void(const ArchiveMember &)> &visit,
    std::string &error) {
  size_t at = 0;
  while (tar.size() - at >= kTarBlock) {
    std::string_view h = tar.substr(at, kTarBlock);
    if (h.find_first_not_of('\0') == std::string_view::npos)
      return true; // the end blocks
    unsigned sum = 0;
    for (size_t i = 0; i < kTarBlock; ++i)
      sum += (i >= 148 && i < 156) ? ' ' : (unsigned char)h[i];
    if (octalField(h.substr(148, 8)) != sum) {
      error = "damaged (a header's checksum)";
      return false;
    }
    ArchiveMember m;
    m.name = std::string(h.substr(0, std::min<size_t>(100, h.find('\0'))));
    m.type = h[156];
    uint64_t size = octalField(h.substr(124, 12));
    size_t left = tar.size() - at - kTarBlock;
    if (size > left) {
      error = "truncated";
      return false;
    }
    m.data = tar.substr(at + kTarBlock, size);
    // The data is padded to whole blocks; the padding of the last member
    // may be cut off.
    at += kTarBlock + std::min<uint64_t>(left, (size + kTarBlock - 1) /
                                                   kTarBlock * kTarBlock);
    visit(m);
  }
  return true;
}
