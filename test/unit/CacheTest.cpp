//===- CacheTest.cpp - SHA-256, keys, entries, atomic writes --------------===//

#include "compiler/Cache/Cache.h"
#include "compiler/Cache/FastHash.h"
#include "compiler/Cache/Sha256.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace zluda::cache;

namespace {

std::string tempDir() {
  char tmpl[] = "/tmp/zluda-cache-test-XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  return tmpl;
}

Entry sampleEntry(const std::string &ptx, const std::string &chip) {
  KeyInputs in;
  in.ptx = ptx;
  in.chip = chip;
  in.compilerVersion = "test 1";
  Entry e;
  e.meta.key = computeKey(in);
  e.meta.target = "amdgpu";
  e.meta.chip = chip;
  e.meta.codeObjectVersion = 5;
  e.meta.compilerVersion = "test 1";
  e.meta.ptxSha256 = Sha256::hex(ptx);
  e.meta.kernels = {"k1", "_Z2k2Pf"};
  e.meta.missingKernels = {"needs_wmma"};
  e.meta.sources = {"/opt/app/lib with space.so"};
  e.object = std::string("\x7f"
                         "ELF\0\1\2",
                         7) +
             ptx;
  return e;
}

} // namespace

TEST_CASE("SHA-256 matches the FIPS 180-4 examples", "[cache]") {
  // Both implementations: the processor's SHA instructions (where it has
  // them, as this x86 machine does) and the portable one.
  bool portable = GENERATE(false, true);
  Sha256::setPortableOnly(portable);
  INFO("portable only: " << portable
                         << ", accelerated: " << Sha256::accelerated());
  CHECK(Sha256::hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Sha256::hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(
      Sha256::hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // A million 'a', fed in uneven pieces across block boundaries.
  Sha256 sha;
  std::string piece(997, 'a');
  size_t left = 1000000;
  while (left) {
    size_t n = std::min(left, piece.size());
    sha.update(std::string_view(piece).substr(0, n));
    left -= n;
  }
  CHECK(Sha256::toHex(sha.finish()) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // Every length up to three blocks, against the other implementation.
  std::string bytes;
  for (int i = 0; i < 200; ++i) {
    bytes.push_back(char(i * 37 + 11));
    std::string mine = Sha256::hex(bytes);
    Sha256::setPortableOnly(!portable);
    CHECK(Sha256::hex(bytes) == mine);
    Sha256::setPortableOnly(portable);
  }
  Sha256::setPortableOnly(false);
}

TEST_CASE("cache keys depend on everything that changes code", "[cache]") {
  KeyInputs base;
  base.ptx = ".version 8.0";
  base.chip = "gfx1100";
  base.compilerVersion = "v1";
  std::string k = computeKey(base);
  CHECK(k.size() == 64);
  CHECK(computeKey(base) == k); // stable
  auto differs = [&](auto change) {
    KeyInputs other = base;
    change(other);
    return computeKey(other) != k;
  };
  CHECK(differs([](KeyInputs &i) { i.ptx = ".version 8.1"; }));
  CHECK(differs([](KeyInputs &i) { i.chip = "gfx1201"; }));
  CHECK(differs([](KeyInputs &i) { i.features = "+wavefrontsize64"; }));
  CHECK(differs([](KeyInputs &i) { i.codeObjectVersion = 6; }));
  CHECK(differs([](KeyInputs &i) { i.compilerVersion = "v2"; }));
  CHECK(differs([](KeyInputs &i) { i.options = "-O2"; }));
  CHECK(differs([](KeyInputs &i) { i.target = "nvptx"; }));
  // Field boundaries cannot be shifted into each other.
  CHECK(differs([](KeyInputs &i) {
    i.chip = "gfx1100\nfeatures=";
    i.features = "";
  }));
  // A fixed value: keys must not change by accident between releases (the
  // shim and older caches compute them too).
  CHECK(k ==
        "cc1dab08c48fdb7f336833534ba873c44988ef59ecfe4c81a25cde9f35edd0a2");
  CHECK(compilerVersion().find("zluda-precompile") == 0);
  // A known PTX hash gives the key of the text.
  KeyInputs hashed = base;
  hashed.ptx = "";
  hashed.ptxSha256 = Sha256::hex(base.ptx);
  CHECK(computeKey(hashed) == k);
  CHECK(moduleKeyOfPtxHash(Sha256::hex(base.ptx), "amdgpu", "gfx1100") ==
        moduleKey(base.ptx, "amdgpu", "gfx1100"));
  CHECK(moduleKeyOfPtxHash(Sha256::hex(base.ptx), "nvptx", "sm_90") ==
        moduleKey(base.ptx, "nvptx", "sm_90"));
}

TEST_CASE("cache entries round-trip and every corruption is detected",
          "[cache]") {
  Entry e = sampleEntry(".version 8.0\n.target sm_80\n", "gfx1100");
  std::string bytes = serializeEntry(e);
  Entry back;
  std::string error;
  REQUIRE(parseEntry(bytes, back, error) == ReadStatus::ok);
  CHECK(back.meta.key == e.meta.key);
  CHECK(back.meta.kernels == e.meta.kernels);
  CHECK(back.meta.missingKernels == e.meta.missingKernels);
  CHECK(back.meta.sources == e.meta.sources);
  CHECK(back.meta.codeObjectVersion == 5);
  CHECK(back.object == e.object);

  // Any truncation, and a flipped bit anywhere, is corrupt, never ok.
  for (size_t n = 0; n < bytes.size(); n += 7)
    CHECK(parseEntry(std::string_view(bytes).substr(0, n), back, error) ==
          ReadStatus::corrupt);
  for (size_t i = 0; i < bytes.size(); i += 5) {
    std::string bad = bytes;
    bad[i] ^= 0x10;
    CHECK(parseEntry(bad, back, error) == ReadStatus::corrupt);
  }
}

TEST_CASE("XXH3-128 is xxHash's, in one piece or two", "[cache]") {
  // xxHash's reference value for the empty input (XXH3_128bits, seed 0).
  CHECK(xxh128Hex("") == "99aa06d3014798d86001c324468d497f");
  std::string data;
  for (size_t i = 0; i < 70000; ++i)
    data += char(i * 131 + (i >> 7));
  // Lengths across XXH3's size classes (16, 128, 240 bytes, its stripes and
  // blocks), each split at a few points: the streamed hash is the one-shot.
  for (size_t n : {size_t(1), size_t(16), size_t(17), size_t(128), size_t(129),
                   size_t(240), size_t(241), size_t(1024), size_t(1025),
                   size_t(65536), size_t(70000)}) {
    std::string_view all(data.data(), n);
    std::string whole = xxh128Hex(all);
    CHECK(whole.size() == 32);
    for (size_t cut : {size_t(1), n / 2, n - 1})
      if (cut && cut < n)
        CHECK(xxh128Hex(all.substr(0, cut), all.substr(cut)) == whole);
  }
  CHECK(xxh128Hex("a") != xxh128Hex("b"));
}

TEST_CASE("entries are written as version 2 and version 1 is still read",
          "[cache]") {
  Entry e = sampleEntry("ptx v", "gfx1100");
  std::string bytes = serializeEntry(e);
  CHECK(bytes.rfind("ZLUDA-CACHE-ENTRY 2\nmeta-bytes ", 0) == 0);
  CHECK(bytes.find("\nxxh3-128 ") != std::string::npos);
  // The same entry as a compiler before the change wrote it: SHA-256.
  size_t blank = bytes.find("\n\n");
  std::string body = bytes.substr(blank + 2);
  size_t metaBytes = std::stoul(bytes.substr(bytes.find("meta-bytes ") + 11));
  Sha256 sha;
  sha.update(std::string_view(body).substr(0, metaBytes));
  sha.update(std::string_view(body).substr(metaBytes));
  std::string v1 = "ZLUDA-CACHE-ENTRY 1\nmeta-bytes " +
                   std::to_string(metaBytes) + "\nobject-bytes " +
                   std::to_string(body.size() - metaBytes) + "\nsha256 " +
                   Sha256::toHex(sha.finish()) + "\n\n" + body;
  Entry back;
  std::string error;
  REQUIRE(parseEntry(v1, back, error) == ReadStatus::ok);
  CHECK(back.meta.key == e.meta.key);
  CHECK(back.object == e.object);
  // Each version's own checksum only.
  std::string mixed = v1;
  mixed.replace(0, 20, "ZLUDA-CACHE-ENTRY 2\n");
  CHECK(parseEntry(mixed, back, error) == ReadStatus::corrupt);
  std::string flipped = v1;
  flipped.back() ^= 1;
  CHECK(parseEntry(flipped, back, error) == ReadStatus::corrupt);
  CHECK(error == "checksum mismatch");
}

TEST_CASE("image records round-trip, checksum themselves, are rewritten "
          "only when changed",
          "[cache]") {
  ImageRecord r;
  r.compilerVersion = "test 1";
  r.imageBytes = 4096;
  r.moduleHash = Sha256::hex("ptx");
  std::string bytes = serializeImageRecord(r);
  ImageRecord back;
  std::string error;
  REQUIRE(parseImageRecord(bytes, back, error) == ReadStatus::ok);
  CHECK(back.compilerVersion == r.compilerVersion);
  CHECK(back.imageBytes == 4096);
  CHECK_FALSE(back.linked);
  CHECK(back.moduleHash == r.moduleHash);
  for (size_t n = 0; n < bytes.size(); ++n)
    CHECK(parseImageRecord(std::string_view(bytes).substr(0, n), back, error) ==
          ReadStatus::corrupt);
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] ^= 0x04;
    CHECK(parseImageRecord(bad, back, error) == ReadStatus::corrupt);
  }
  r.linked = true;
  r.moduleHash = linkedImageHash(Sha256::hex("image"));
  REQUIRE(parseImageRecord(serializeImageRecord(r), back, error) ==
          ReadStatus::ok);
  CHECK(back.linked);
  CHECK(back.moduleHash == r.moduleHash);

  std::string dir = tempDir();
  Cache cache(dir + "/c");
  REQUIRE(cache.open(error));
  std::string key = imageIndexKey("the image's bytes");
  CHECK(isValidImageKey(key));
  CHECK(cache.readImage(key, back, error) == ReadStatus::missing);
  REQUIRE(cache.writeImage(key, r, error));
  REQUIRE(cache.readImage(key, back, error) == ReadStatus::ok);
  CHECK(back.moduleHash == r.moduleHash);
  CHECK(cache.imageKeys() == std::vector<std::string>{key});
  CHECK(cache.imagePath(key) ==
        dir + "/c/v1/images/" + key.substr(0, 2) + "/" + key + ".zci");
  // The same record again is not rewritten (every build writes them all).
  struct stat before, after;
  REQUIRE(stat(cache.imagePath(key).c_str(), &before) == 0);
  REQUIRE(cache.writeImage(key, r, error));
  REQUIRE(stat(cache.imagePath(key).c_str(), &after) == 0);
  CHECK(before.st_ino == after.st_ino);
  r.imageBytes = 8192; // a changed one is
  REQUIRE(cache.writeImage(key, r, error));
  REQUIRE(cache.readImage(key, back, error) == ReadStatus::ok);
  CHECK(back.imageBytes == 8192);
  CHECK_FALSE(cache.writeImage("not-a-key", r, error));
  CHECK(error.find("invalid image index key") != std::string::npos);
  // The layout knows the index, and what does not belong in it.
  CHECK(cache.layoutProblems(3600).empty());
  std::ofstream(dir + "/c/v1/images/" + key.substr(0, 2) + "/stray") << "x";
  std::vector<Cache::LayoutProblem> problems = cache.layoutProblems(3600);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].why == "not an image record file");
  cache.removeImage(key);
  CHECK(cache.readImage(key, back, error) == ReadStatus::missing);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cache writes are atomic and readable by key", "[cache]") {
  std::string dir = tempDir();
  Cache cache(dir + "/c");
  std::string error;
  REQUIRE(cache.open(error));
  Entry e = sampleEntry("ptx one", "gfx1100");
  Entry got;
  CHECK(cache.read(e.meta.key, got, error) == ReadStatus::missing);
  REQUIRE(cache.write(e, error));
  REQUIRE(cache.read(e.meta.key, got, error) == ReadStatus::ok);
  CHECK(got.object == e.object);
  CHECK(cache.keys() == std::vector<std::string>{e.meta.key});

  // A damaged file is reported corrupt, and rewriting it repairs it.
  {
    std::fstream f(cache.entryPath(e.meta.key),
                   std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put('#');
  }
  CHECK(cache.read(e.meta.key, got, error) == ReadStatus::corrupt);
  cache.remove(e.meta.key);
  REQUIRE(cache.write(e, error));
  CHECK(cache.read(e.meta.key, got, error) == ReadStatus::ok);

  // An entry stored under another key's name is not served.
  Entry other = sampleEntry("ptx two", "gfx1100");
  REQUIRE(cache.write(other, error));
  std::rename(cache.entryPath(other.meta.key).c_str(),
              cache.entryPath(e.meta.key).c_str());
  CHECK(cache.read(e.meta.key, got, error) == ReadStatus::corrupt);

  // Nothing is left in tmp/ by successful writes; stale files are swept.
  CHECK(cache.removeStaleTemporaries(0) == 0);
  std::ofstream(dir + "/c/v1/tmp/dead.123.456") << "partial";
  CHECK(cache.removeStaleTemporaries(0) == 1);
  CHECK(!cache.write(Entry{}, error)); // no key
  CHECK(error.find("invalid key") != std::string::npos);
  std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("concurrent writers of overlapping keys leave whole entries",
          "[cache]") {
  std::string dir = tempDir();
  Cache cache(dir);
  std::string error;
  REQUIRE(cache.open(error));
  std::vector<Entry> entries;
  for (int i = 0; i < 16; ++i)
    entries.push_back(
        sampleEntry("module " + std::to_string(i) + std::string(5000 * i, 'x'),
                    i % 2 ? "gfx1201" : "gfx1100"));
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t)
    writers.emplace_back([&, t] {
      std::string err;
      for (int round = 0; round < 5; ++round)
        for (size_t i = t; i < entries.size() + t; ++i)
          CHECK(cache.write(entries[i % entries.size()], err));
    });
  for (auto &w : writers)
    w.join();
  CHECK(cache.keys().size() == entries.size());
  for (const Entry &e : entries) {
    Entry got;
    REQUIRE(cache.read(e.meta.key, got, error) == ReadStatus::ok);
    CHECK(got.object == e.object);
  }
  CHECK(cache.removeStaleTemporaries(0) == 0);
  std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("a device's target ID finds the builds that run on it, best first",
          "[cache]") {
  using V = std::vector<std::string>;
  CHECK(targetIdLookupOrder("gfx1100") == V{"gfx1100"});
  CHECK(targetIdLookupOrder("sm_90") == V{"sm_90"});
  CHECK(targetIdLookupOrder("gfx90a:xnack-") == V{"gfx90a:xnack-", "gfx90a"});
  CHECK(targetIdLookupOrder("gfx942:sramecc+:xnack-") ==
        V{"gfx942:sramecc+:xnack-", "gfx942:sramecc+", "gfx942:xnack-",
          "gfx942"});
  // The generic processor's code object version follows the processor,
  // whatever its settings.
  CHECK(defaultCodeObjectVersion("gfx9-4-generic:xnack+") == 6);
  CHECK(defaultCodeObjectVersion("gfx942:sramecc+") == 5);
}
