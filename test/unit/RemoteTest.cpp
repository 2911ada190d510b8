//===- RemoteTest.cpp - What the remote cache trusts ----------------------===//

#include "compiler/Cache/Remote.h"

#include <catch2/catch.hpp>

using namespace zluda::cache;

namespace {

Entry entryFor(const std::string &chip) {
  Entry e;
  e.meta.target = "amdgpu";
  e.meta.chip = chip;
  e.meta.compilerVersion = std::string(compilerVersion());
  e.meta.key = moduleKey(".version 8.0\n", "amdgpu", chip);
  e.meta.kernels = {"k"};
  e.object = "code object bytes";
  return e;
}

} // namespace

TEST_CASE("only entry keys reach a URL or a Redis key", "[remote]") {
  CHECK(isValidKey(std::string(64, 'a')));
  CHECK(isValidKey(entryFor("gfx1100").meta.key));
  CHECK_FALSE(isValidKey(""));
  CHECK_FALSE(isValidKey(std::string(63, 'a')));
  CHECK_FALSE(isValidKey(std::string(64, 'A')));
  CHECK_FALSE(isValidKey("../" + std::string(61, 'a')));
  CHECK_FALSE(isValidKey(std::string(62, 'a') + "/x"));
}

TEST_CASE("downloaded entries are verified before use", "[remote]") {
  Entry e = entryFor("gfx1100");
  std::string bytes = serializeEntry(e);
  Entry out;
  std::string error;
  CHECK(verifyRemoteEntry(bytes, e.meta.key, "amdgpu", "gfx1100", out, error));
  CHECK(out.object == e.object);
  // Another key's entry.
  Entry other = entryFor("gfx942");
  CHECK_FALSE(verifyRemoteEntry(serializeEntry(other), e.meta.key, "amdgpu",
                                "gfx1100", out, error));
  CHECK(error.find("another key") != std::string::npos);
  // The right key, the wrong processor.
  other.meta.key = e.meta.key;
  CHECK_FALSE(verifyRemoteEntry(serializeEntry(other), e.meta.key, "amdgpu",
                                "gfx1100", out, error));
  CHECK(error.find("compiled for amdgpu:gfx942") != std::string::npos);
  // Another compiler.
  Entry old = e;
  old.meta.compilerVersion = "zluda-precompile 0.0.1";
  CHECK_FALSE(verifyRemoteEntry(serializeEntry(old), e.meta.key, "amdgpu",
                                "gfx1100", out, error));
  CHECK(error.find("another compiler") != std::string::npos);
  // Every truncation and every single flipped byte.
  for (size_t n = 0; n < bytes.size(); ++n)
    CHECK_FALSE(verifyRemoteEntry(std::string_view(bytes).substr(0, n),
                                  e.meta.key, "amdgpu", "gfx1100", out, error));
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string flipped = bytes;
    flipped[i] ^= 0x01;
    CHECK_FALSE(verifyRemoteEntry(flipped, e.meta.key, "amdgpu", "gfx1100", out,
                                  error));
  }
}

TEST_CASE("malformed remote URLs are refused before connecting", "[remote]") {
  std::string error;
  auto open = [&](const std::string &url) {
    RemoteOptions o;
    o.url = url;
    return RemoteCache::open(o, error) != nullptr;
  };
  CHECK(open("http://cache.example/team/"));
  CHECK(open("https://cache.example:8443"));
  CHECK(open("redis://127.0.0.1"));
  CHECK(open("redis://:pw@127.0.0.1:6380/2"));
  CHECK_FALSE(open("ftp://cache.example"));
  CHECK_FALSE(open("http:///x"));
  CHECK_FALSE(open("redis://h:0"));
  CHECK_FALSE(open("redis://h:6379/-1"));
  CHECK_FALSE(open("cache.example"));
}

TEST_CASE("byte counts read as people write them", "[remote]") {
  CHECK(humanBytes(0) == "0 B");
  CHECK(humanBytes(999) == "999 B");
  CHECK(humanBytes(51300) == "51.3 kB");
  CHECK(humanBytes(4500000) == "4.5 MB");
  CHECK(humanBytes(1200000000) == "1.2 GB");
}
