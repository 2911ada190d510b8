//===- CacheArchive.cpp - `cache pack` and `cache unpack` -----------------===//
//
// A cache shipped as one file: a ustar archive of the cache's entries
// (v1/entries/<2 hex>/<key>.zce, then its image index, v1/images/<2 hex>/
// <index key>.zci; sorted by name, mode 0644, owner 0, time
// 0: the same cache packs to the same bytes) compressed with zstd. Unpack
// trusts nothing: it reads regular files named like entries and nothing
// else (no absolute paths, no `..`, no links or devices), verifies each
// entry against its name, and writes it through the cache (atomically).
//
//===----------------------------------------------------------------------===//

#include "CacheCommands.h"

#include "compiler/Build/Build.h"
#include "compiler/Cache/Archive.h"
#include "compiler/Cache/Cache.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <unistd.h>

using namespace zluda;

namespace {

constexpr size_t kBlock = cache::kTarBlock;

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
    if (!push(cache::tarHeader(name, bytes.size()), false) ||
        !push(bytes, false) || !push(pad, false))
      break;
    ++packed;
  }
  // The image index after the entries (docs/cache.md): records that read
  // back whole; the shim of the unpacked cache finds keys without the PTX.
  unsigned records = 0;
  std::vector<std::string> imageKeys = store.imageKeys();
  for (const std::string &indexKey :
       ok ? imageKeys : std::vector<std::string>{}) {
    std::string path = store.imagePath(indexKey), error;
    cache::ImageRecord r;
    if (store.readImage(indexKey, r, error) != cache::ReadStatus::ok)
      continue; // only a shortcut: a damaged one is left out
    std::string bytes = cache::serializeImageRecord(r);
    std::string name =
        "v1/images/" + indexKey.substr(0, 2) + "/" + indexKey + ".zci";
    std::string pad((kBlock - bytes.size() % kBlock) % kBlock, '\0');
    if (!push(cache::tarHeader(name, bytes.size()), false) ||
        !push(bytes, false) || !push(pad, false))
      break;
    ++records;
  }
  if (ok)
    push(std::string(2 * kBlock, '\0'), true); // the end of the archive
  ZSTD_freeCCtx(cctx);
  out.close();
  if (!ok || !out || std::rename(tmp.c_str(), output.c_str()) != 0) {
    std::remove(tmp.c_str());
    return fail("cannot write " + output), 1;
  }
  fmt::print("{} entries packed into {}{}{}\n", packed, output,
             corrupt ? fmt::format(" ({} corrupt left out)", corrupt) : "",
             records ? fmt::format(", and {} image records", records) : "");
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
  unsigned added = 0, present = 0, bad = 0, records = 0;
  auto unpack = [&](const cache::ArchiveMember &m) {
    if (m.type == '5') // a directory: the cache makes its own
      return;
    std::string key;
    bool file = m.type == '0' || m.type == '\0';
    if (file && cache::archiveImageName(m.name, key)) {
      cache::ImageRecord r;
      if (cache::parseImageRecord(m.data, r, error) != cache::ReadStatus::ok) {
        fail(archive + ": " + m.name + ": corrupt, not unpacked: " + error);
        ++bad;
      } else if (!store.writeImage(key, r, error)) {
        fail(error);
        ++bad;
      } else {
        ++records;
      }
      return;
    }
    if (!file || !cache::archiveEntryName(m.name, key)) {
      // Links, devices, absolute paths, `..`, anything not an entry.
      fail(archive + ": '" + m.name + "' refused (not a cache entry file)");
      ++bad;
      return;
    }
    cache::Entry e;
    if (cache::parseEntry(m.data, e, error) != cache::ReadStatus::ok ||
        e.meta.key != key) {
      fail(archive + ": " + m.name + ": corrupt, not unpacked" +
           (error.empty() ? "" : ": " + error));
      ++bad;
      return;
    }
    cache::Entry have;
    if (store.read(key, have, error) == cache::ReadStatus::ok) {
      ++present;
      return;
    }
    if (!store.write(e, error)) {
      fail(error);
      ++bad;
      return;
    }
    ++added;
  };
  std::string damage;
  if (!cache::walkArchive(tar, unpack, damage))
    return fail(archive + ": " + damage), 1;
  if (!build::writeManifest(store, error))
    fail(error), ++bad;
  fmt::print("{} entries unpacked into {}: {} added, {} already there, {} "
             "refused{}\n",
             added + present, into, added, present, bad,
             records ? fmt::format("; {} image records", records) : "");
  return bad ? 1 : 0;
}
