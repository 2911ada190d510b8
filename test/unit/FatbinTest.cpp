// Tests of the LLVM-free fatbin reader on crafted containers: every entry
// form, compression, the selection policy, and each kind of bad input
// (truncation, sizes pointing outside the data, decompression bombs,
// corrupt LZ4/ZSTD streams).
#include "compiler/Fatbin/Fatbin.h"
#include "FatbinBuilder.h"

#include <catch2/catch.hpp>

#include <lz4.h>
#include <zstd.h>

#include <cstring>

using namespace zluda::fatbin;
using namespace zluda::fatbin::testing;

namespace {

const std::string kPTX = ".version 8.0\n.target sm_80\n.address_size 64\n"
                         ".visible .entry k() { ret; }\n";

} // namespace

TEST_CASE("a container with PTX and ELF entries of several header sizes") {
  EntrySpec ptx;
  ptx.payload = kPTX;
  EntrySpec elf;
  elf.kind = 2;
  elf.headerSize = 96;
  elf.payload = std::string("\x7f"
                            "ELF",
                            4) +
                std::string(100, 'x');
  EntrySpec other;
  other.kind = 8;
  other.headerSize = 128;
  std::string data = container({entry(ptx), entry(elf), entry(other)});
  Container c;
  REQUIRE_FALSE(readContainer(data, 0, c));
  REQUIRE(c.entries.size() == 3);
  CHECK(c.entries[0].isPTX());
  CHECK(c.entries[1].isELF());
  CHECK(c.entries[1].headerSize == 96);
  CHECK(std::string(c.entries[2].kindName()) == "other");
  CHECK(c.entries[0].ptxMajor == 8);
  std::string text;
  REQUIRE_FALSE(extractPayload(c.entries[0], text));
  CHECK(text == kPTX); // padding NULs stripped
}

TEST_CASE("LZ4 and ZSTD payloads decompress to exactly their size") {
  EntrySpec a, b;
  a.payload = b.payload = kPTX;
  a.flags = 0x11 | kFlagLZ4;
  a.stored = lz4(kPTX + '\0');
  a.uncompressed = kPTX.size() + 1;
  b.flags = 0x11 | kFlagZstd;
  b.stored = zstd(kPTX + '\0');
  b.uncompressed = kPTX.size() + 1;
  std::string data = container({entry(a), entry(b)});
  Container c;
  REQUIRE_FALSE(readContainer(data, 0, c));
  for (const Entry &e : c.entries) {
    std::string text;
    REQUIRE_FALSE(extractPayload(e, text));
    CHECK(text == kPTX);
  }
  CHECK(std::string(c.entries[0].compressionName()) == "lz4");
  CHECK(std::string(c.entries[1].compressionName()) == "zstd");
}

TEST_CASE("selection prefers the highest arch up to sm_89") {
  std::vector<std::string> es;
  for (uint32_t arch : {75u, 86u, 90u, 52u}) {
    EntrySpec e;
    e.arch = arch;
    es.push_back(entry(e));
  }
  Container c;
  REQUIRE_FALSE(readContainer(container(es), 0, c));
  CHECK(c.entries[c.selectedPTX()].arch == 86);
  Container onlyNew;
  EntrySpec h;
  h.arch = 100;
  EntrySpec g;
  g.arch = 90;
  REQUIRE_FALSE(readContainer(container({entry(h), entry(g)}), 0, onlyNew));
  CHECK(onlyNew.entries[onlyNew.selectedPTX()].arch == 90);
}

TEST_CASE("truncated and out-of-range containers are errors with offsets") {
  std::string data = container({entry(EntrySpec())});
  Container c;
  auto err = readContainer(data.substr(0, 10), 0, c);
  REQUIRE(err);
  CHECK(err->message == "truncated fatbin container header");
  err = readContainer(data.substr(0, data.size() - 8), 0, c);
  REQUIRE(err);
  CHECK(err->offset == 0);
  CHECK(err->message.find("extends past the end") != std::string::npos);
  // An entry whose payload size points past the container.
  std::string bad = data;
  put<uint64_t>(bad, 16 + 8, uint64_t(1) << 40);
  err = readContainer(bad, 0, c);
  REQUIRE(err);
  CHECK(err->offset == 16);
  CHECK(err->message.find("extends past its container") != std::string::npos);
  // An absurd entry header size.
  bad = data;
  put<uint32_t>(bad, 16 + 4, 8);
  err = readContainer(bad, 0, c);
  REQUIRE(err);
  CHECK(err->message == "fatbin entry header size 8 is outside 64..1024");
  // A header size within 64..1024 that runs past the container (found by
  // the fuzzer: the payload check underflowed).
  bad = data;
  put<uint32_t>(bad, 16 + 4, 1000);
  err = readContainer(bad, 0, c);
  REQUIRE(err);
  CHECK(err->message == "fatbin entry header of 1000 bytes extends past its "
                        "container");
  // Not a container at all.
  err = readContainer(std::string(64, 'x'), 0, c);
  REQUIRE(err);
  CHECK(err->message.find("not a fatbin container") != std::string::npos);
}

TEST_CASE("decompression bombs and corrupt streams are errors") {
  EntrySpec bomb;
  bomb.flags = 0x11 | kFlagZstd;
  bomb.stored = zstd(kPTX);
  bomb.uncompressed = uint64_t(64) << 30; // claims 64 GiB
  Container c;
  REQUIRE_FALSE(readContainer(container({entry(bomb)}), 0, c));
  std::string out;
  auto err = extractPayload(c.entries[0], out);
  REQUIRE(err);
  CHECK(err->message.find("over the limit") != std::string::npos);

  EntrySpec badLZ4;
  badLZ4.flags = 0x11 | kFlagLZ4;
  badLZ4.stored = std::string(40, '\xff');
  badLZ4.uncompressed = 100;
  REQUIRE_FALSE(readContainer(container({entry(badLZ4)}), 0, c));
  err = extractPayload(c.entries[0], out);
  REQUIRE(err);
  CHECK(err->message == "corrupt LZ4 block");

  EntrySpec badZstd;
  badZstd.flags = 0x11 | kFlagZstd;
  badZstd.stored = zstd(kPTX);
  badZstd.stored.resize(badZstd.stored.size() / 2); // a cut-off frame
  badZstd.uncompressed = kPTX.size();
  REQUIRE_FALSE(readContainer(container({entry(badZstd)}), 0, c));
  err = extractPayload(c.entries[0], out);
  REQUIRE(err);
  CHECK(err->message.find("ZSTD") != std::string::npos);

  EntrySpec wrongSize;
  wrongSize.flags = 0x11 | kFlagZstd;
  wrongSize.stored = zstd(kPTX);
  wrongSize.uncompressed = kPTX.size() + 5;
  REQUIRE_FALSE(readContainer(container({entry(wrongSize)}), 0, c));
  err = extractPayload(c.entries[0], out);
  REQUIRE(err);
  CHECK(err->message.find("the header says") != std::string::npos);
}

TEST_CASE("sections of several containers and wrappers") {
  std::string a = container({entry(EntrySpec())});
  std::string section = a + std::string(8, '\0') + a;
  std::vector<Container> found;
  REQUIRE_FALSE(scanContainers(section, found));
  CHECK(found.size() == 2);
  CHECK(found[1].offset == a.size() + 8);

  // A search among other data skips bytes that only look like a magic.
  std::string noise(4, '\0');
  put<uint32_t>(noise, 0, kContainerMagic);
  std::string data = noise + std::string(12, 'z') + "pad." + a;
  found.clear();
  searchContainers(data, found);
  REQUIRE(found.size() == 1);
  CHECK(found[0].offset == 20);

  std::string wrappers(48, '\0');
  put<uint32_t>(wrappers, 0, kWrapperMagic);
  put<uint32_t>(wrappers, 4, 1);
  put<uint64_t>(wrappers, 8, 0x1000);
  put<uint32_t>(wrappers, 24, kWrapperMagic);
  put<uint32_t>(wrappers, 28, 7);
  std::vector<Wrapper> ws;
  auto err = readWrappers(wrappers, ws);
  REQUIRE(ws.size() == 1);
  CHECK(ws[0].data == 0x1000);
  REQUIRE(err);
  CHECK(err->offset == 24);
  CHECK(err->message == "unsupported fatbin wrapper version 7");
}
