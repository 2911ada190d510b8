// libFuzzer target over what a cache reads from disk or from a shared store:
// an entry file (header, metadata, code object), an image index record and a
// packed cache archive. The bytes are tried four ways: as an entry file; as
// an image record; as an entry's metadata
// and object behind a correct header and checksum (so that the metadata
// parser is reached), where a parsed entry must serialize back to what
// parses to the same entry; and as the ustar archive `cache unpack` walks.
#include "compiler/Cache/Archive.h"
#include "compiler/Cache/Cache.h"
#include "compiler/Cache/FastHash.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace zluda::cache;

namespace {

bool sameMeta(const EntryMeta &a, const EntryMeta &b) {
  return a.key == b.key && a.target == b.target && a.chip == b.chip &&
         a.compilerVersion == b.compilerVersion && a.ptxSha256 == b.ptxSha256 &&
         a.codeObjectVersion == b.codeObjectVersion && a.kernels == b.kernels &&
         a.missingKernels == b.missingKernels && a.sources == b.sources &&
         a.error == b.error && a.reasons == b.reasons &&
         a.whyMissing == b.whyMissing;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  Entry e;
  std::string error;
  (void)parseEntry(bytes, e, error);
  ImageRecord record;
  if (parseImageRecord(bytes, record, error) == ReadStatus::ok) {
    ImageRecord again;
    if (parseImageRecord(serializeImageRecord(record), again, error) !=
            ReadStatus::ok ||
        again.compilerVersion != record.compilerVersion ||
        again.imageBytes != record.imageBytes ||
        again.linked != record.linked || again.moduleHash != record.moduleHash)
      std::abort(); // what we write does not read back
  }

  // Metadata and object behind a header that is right about them.
  if (size >= 1) {
    size_t split = size_t(data[0]) * (size - 1) / 255;
    std::string_view rest = bytes.substr(1);
    std::string_view meta = rest.substr(0, split), object = rest.substr(split);
    static const std::string magic = [] {
      std::string any = serializeEntry(Entry{});
      return any.substr(0, any.find("meta-bytes "));
    }();
    std::string file = magic + "meta-bytes " + std::to_string(meta.size()) +
                       "\nobject-bytes " + std::to_string(object.size()) +
                       "\nxxh3-128 " + xxh128Hex(meta, object) + "\n\n";
    file.append(meta);
    file.append(object);
    Entry first;
    if (parseEntry(file, first, error) == ReadStatus::ok) {
      Entry again;
      if (parseEntry(serializeEntry(first), again, error) != ReadStatus::ok ||
          !sameMeta(first.meta, again.meta) || first.object != again.object)
        std::abort(); // what we write does not read back
    }
  }

  (void)walkArchive(
      bytes,
      [&](const ArchiveMember &m) {
        std::string key;
        if (archiveEntryName(m.name, key)) {
          Entry member;
          (void)parseEntry(m.data, member, error);
        }
      },
      error);
  return 0;
}
