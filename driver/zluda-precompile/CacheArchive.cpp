//===- CacheArchive.cpp - `cache pack` and `cache unpack` -----------------===//
//
// A cache shipped as one file: a ustar archive of the cache's entries
// (v1/entries/<2 hex>/<key>.zce, sorted by name, mode 0644, owner 0, time
// 0: the same cache packs to the same bytes) compressed with zstd. Unpack
// trusts nothing: it reads regular files named like entries and nothing
// else (no absolute paths, no `..`, no links or devices), verifies each
// entry against its name, and writes it through the cache (atomically).
//
//===----------------------------------------------------------------------===//

#include "CacheCommands.h"

#include "compiler/Build/Build.h"
#include "compiler/Cache/Cache.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <unistd.h>

using namespace zluda;

namespace {

constexpr size_t kBlock = 512;

/// `value` in octal, zero-padded to `width - 1` digits and a NUL.
void octal(char *field, size_t width, uint64_t value) {
  std::string digits = fmt::format("{:0{}o}", value, width - 1);
  std::memcpy(field, digits.data(), width - 1);
  field[width - 1] = '\0';
}

/// The ustar header of a regular file.
std::string header(const std::string &name, uint64_t size) {
  std::string h(kBlock, '\0');
  std::memcpy(&h[0], name.data(), name.size()); // name[100]
  octal(&h[100], 8, 0644);                      // mode
  octal(&h[108], 8, 0);                         // uid
  octal(&h[116], 8, 0);                         // gid
  octal(&h[124], 12, size);                     // size
  octal(&h[136], 12, 0);                        // mtime
  h[156] = '0';                                 // typeflag: regular file
  std::memcpy(&h[257],
              "ustar\0"
              "00",
              8);               // magic, version
  std::memset(&h[148], ' ', 8); // chksum, as spaces
  unsigned sum = 0;
  for (unsigned char c : h)
    sum += c;
  std::string chk = fmt::format("{:06o}", sum);
  std::memcpy(&h[148], chk.data(), 6);
  h[154] = '\0';
  h[155] = ' ';
  return h;
}

/// Whether `name` is exactly `v1/entries/<2 hex>/<64 hex>.zce` whose
/// directory is its key's first two digits; the key in `key`.
bool entryName(std::string_view name, std::string &key) {
  constexpr std::string_view prefix = "v1/entries/";
  if (name.substr(0, prefix.size()) != prefix)
    return false;
  name.remove_prefix(prefix.size());
  if (name.size() != 2 + 1 + 64 + 4 || name[2] != '/' ||
      name.substr(67) != ".zce")
    return false;
  key = std::string(name.substr(3, 64));
  auto hex = [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  };
  return std::all_of(key.begin(), key.end(), hex) &&
         name.substr(0, 2) == key.substr(0, 2);
}

bool fail(const std::string &message) {
  fmt::print(stderr, "zluda-precompile: error: {}\n", message);
  return false;
}

} // namespace

int driver::runCachePack(const std::string &dir, const std::string &output) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(fs::path(dir) / "v1" / "entries", ec))
    return fail("cache pack: " + dir +
                ": not a zluda-precompile cache (no v1/entries)"),
           1;
  cache::Cache store(dir);
  std::vector<std::string> keys = store.keys();
  std::sort(keys.begin(), keys.end());
  ZSTD_CCtx *cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 9);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  std::string tmp = output + ".tmp" + std::to_string(::getpid());
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out)
    return fail("cannot write " + tmp), ZSTD_freeCCtx(cctx), 1;
  std::vector<char> buf(ZSTD_CStreamOutSize());
  bool ok = true;
  auto push = [&](std::string_view data, bool last) {
    ZSTD_inBuffer in{data.data(), data.size(), 0};
    ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
    for (;;) {
      ZSTD_outBuffer o{buf.data(), buf.size(), 0};
      size_t left = ZSTD_compressStream2(cctx, &o, &in, mode);
      if (ZSTD_isError(left))
        return ok = fail(std::string("zstd: ") + ZSTD_getErrorName(left));
      out.write(buf.data(), std::streamsize(o.pos));
      if (last ? left == 0 : in.pos == in.size)
        return true;
    }
  };
  unsigned packed = 0, corrupt = 0;
  for (const std::string &key : keys) {
    std::string path = store.entryPath(key), bytes, error;
    std::ifstream f(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(f), {});
    cache::Entry e;
    if (!f || cache::parseEntry(bytes, e, error) != cache::ReadStatus::ok ||
        e.meta.key != key) {
      fail(path + ": corrupt, not packed" +
           (error.empty() ? "" : ": " + error));
      ++corrupt;
      continue;
    }
    std::string name = "v1/entries/" + key.substr(0, 2) + "/" + key + ".zce";
    std::string pad((kBlock - bytes.size() % kBlock) % kBlock, '\0');
    if (!push(header(name, bytes.size()), false) || !push(bytes, false) ||
        !push(pad, false))
      break;
    ++packed;
  }
  if (ok)
    push(std::string(2 * kBlock, '\0'), true); // the end of the archive
  ZSTD_freeCCtx(cctx);
  out.close();
  if (!ok || !out || std::rename(tmp.c_str(), output.c_str()) != 0) {
    std::remove(tmp.c_str());
    return fail("cannot write " + output), 1;
  }
  fmt::print("{} entries packed into {}{}\n", packed, output,
             corrupt ? fmt::format(" ({} corrupt left out)", corrupt) : "");
  return corrupt ? 1 : 0;
}

int driver::runCacheUnpack(const std::string &archive,
                           const std::string &into) {
  std::ifstream f(archive, std::ios::binary);
  if (!f)
    return fail("cannot read " + archive), 1;
  // Decompressed whole: an archive holds code objects, not gigabytes of
  // them, and the tar is checked before anything is written.
  std::string tar;
  {
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    std::vector<char> in(ZSTD_DStreamInSize()), obuf(ZSTD_DStreamOutSize());
    size_t last = 0;
    while (f) {
      f.read(in.data(), std::streamsize(in.size()));
      ZSTD_inBuffer ib{in.data(), size_t(f.gcount()), 0};
      while (ib.pos < ib.size) {
        ZSTD_outBuffer ob{obuf.data(), obuf.size(), 0};
        last = ZSTD_decompressStream(dctx, &ob, &ib);
        if (ZSTD_isError(last)) {
          ZSTD_freeDCtx(dctx);
          return fail(archive + ": not a zstd-compressed cache archive (" +
                      ZSTD_getErrorName(last) + ")"),
                 1;
        }
        tar.append(obuf.data(), ob.pos);
      }
    }
    ZSTD_freeDCtx(dctx);
    if (last != 0)
      return fail(archive + ": truncated"), 1;
  }
  cache::Cache store(into);
  std::string error;
  if (!store.open(error))
    return fail("cache unpack: " + error), 1;
  unsigned added = 0, present = 0, bad = 0;
  size_t at = 0;
  while (at + kBlock <= tar.size()) {
    std::string_view h(tar.data() + at, kBlock);
    if (h.find_first_not_of('\0') == std::string_view::npos)
      break; // the end blocks
    unsigned sum = 0;
    for (size_t i = 0; i < kBlock; ++i)
      sum += (i >= 148 && i < 156) ? ' ' : (unsigned char)h[i];
    std::string name(h.substr(0, std::min<size_t>(100, h.find('\0'))));
    uint64_t size =
        std::strtoull(std::string(h.substr(124, 12)).c_str(), nullptr, 8);
    unsigned stored = unsigned(
        std::strtoul(std::string(h.substr(148, 8)).c_str(), nullptr, 8));
    char type = h[156];
    std::string key;
    if (stored != sum)
      return fail(archive + ": damaged (a header's checksum)"), 1;
    if (at + kBlock + size > tar.size())
      return fail(archive + ": truncated"), 1;
    std::string_view data(tar.data() + at + kBlock, size);
    at += kBlock + (size + kBlock - 1) / kBlock * kBlock;
    if (type == '5') // a directory: the cache makes its own
      continue;
    if ((type != '0' && type != '\0') || !entryName(name, key)) {
      // Links, devices, absolute paths, `..`, anything not an entry.
      fail(archive + ": '" + name + "' refused (not a cache entry file)");
      ++bad;
      continue;
    }
    cache::Entry e;
    if (cache::parseEntry(data, e, error) != cache::ReadStatus::ok ||
        e.meta.key != key) {
      fail(archive + ": " + name + ": corrupt, not unpacked" +
           (error.empty() ? "" : ": " + error));
      ++bad;
      continue;
    }
    cache::Entry have;
    if (store.read(key, have, error) == cache::ReadStatus::ok) {
      ++present;
      continue;
    }
    if (!store.write(e, error)) {
      fail(error);
      ++bad;
      continue;
    }
    ++added;
  }
  if (!build::writeManifest(store, error))
    fail(error), ++bad;
  fmt::print("{} entries unpacked into {}: {} added, {} already there, {} "
             "refused\n",
             added + present, into, added, present, bad);
  return bad ? 1 : 0;
}
