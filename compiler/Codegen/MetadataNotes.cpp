//===- MetadataNotes.cpp - One AMDGPU metadata note per code object -------===//
//
// A module code-generated in partitions is linked from one object per
// partition, each with its own NT_AMDGPU_METADATA note, and lld keeps them
// all. The runtime and the tools read one note (the first): the kernels of
// the other partitions would not exist for them (the AMD emulator runner
// found `MatrixMulCUDA<32>` missing beside `<16>`). The notes are merged
// here, in place: one note whose document has every partition's kernels,
// then a filler note of ours over the bytes left, so that no offset of the
// linked file moves.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/MetadataNotes.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"

#include <cstring>

using namespace llvm;

namespace {

constexpr uint32_t kMetadataNoteType = ELF::NT_AMDGPU_METADATA;
constexpr char kFillerOwner[] = "ZLUDA"; // with its NUL: 6 bytes
constexpr uint32_t kFillerType = 1;

Error fail(const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "metadata notes: " + message);
}

uint64_t align4(uint64_t n) { return (n + 3) & ~uint64_t(3); }

struct Note {
  uint32_t type;
  StringRef name, desc;
  uint64_t begin, end; ///< offsets of the whole note in the file
};

/// Appends one note (4-byte aligned name and descriptor) to `out`.
void putNote(std::string &out, StringRef name, uint32_t type, StringRef desc) {
  auto word = [&](uint32_t v) {
    char b[4];
    support::endian::write32le(b, v);
    out.append(b, 4);
  };
  word(uint32_t(name.size()));
  word(uint32_t(desc.size()));
  word(type);
  out.append(name.data(), name.size());
  out.append(align4(name.size()) - name.size(), '\0');
  out.append(desc.data(), desc.size());
  out.append(align4(desc.size()) - desc.size(), '\0');
}

/// Whether `blob` is one MessagePack map, every map's keys strings, and
/// nothing after it: the shape of AMDGPU metadata, and the only one given to
/// msgpack::Document (which does not expect other keys).
bool wellFormedMetadata(StringRef blob) {
  msgpack::Reader reader(blob);
  // Per open map or array: the objects left in it, and for a map whether
  // the next one is a key.
  struct Open {
    uint64_t left;
    bool map, key;
  };
  std::vector<Open> open;
  bool first = true;
  while (first || !open.empty()) {
    msgpack::Object obj;
    Expected<bool> got = reader.read(obj);
    if (!got) {
      consumeError(got.takeError());
      return false;
    }
    if (!*got)
      return false; // ended inside a map or array
    if (first && obj.Kind != msgpack::Type::Map)
      return false;
    first = false;
    if (!open.empty()) {
      Open &top = open.back();
      if (top.map && top.key && obj.Kind != msgpack::Type::String)
        return false;
      if (top.map)
        top.key = !top.key;
      --top.left;
    }
    if (obj.Kind == msgpack::Type::Map || obj.Kind == msgpack::Type::Array) {
      bool map = obj.Kind == msgpack::Type::Map;
      uint64_t n = map ? 2 * uint64_t(obj.Length) : uint64_t(obj.Length);
      if (n > blob.size())
        return false; // more objects than bytes
      open.push_back({n, map, true});
    }
    while (!open.empty() && open.back().left == 0)
      open.pop_back();
  }
  msgpack::Object rest;
  Expected<bool> more = reader.read(rest);
  if (!more) {
    consumeError(more.takeError());
    return false;
  }
  return !*more;
}

} // namespace

Error zluda::codegen::mergeMetadataNotes(std::string &elf) {
  auto file = object::ELF64LEFile::create(StringRef(elf));
  if (!file)
    return file.takeError();
  auto headers = file->program_headers();
  if (!headers)
    return headers.takeError();
  for (const auto &ph : *headers) {
    if (ph.p_type != ELF::PT_NOTE)
      continue;
    uint64_t begin = ph.p_offset, size = ph.p_filesz;
    if (begin > elf.size() || size > elf.size() - begin)
      return fail("the note segment lies outside the file");
    std::vector<Note> notes;
    for (uint64_t at = begin; at < begin + size;) {
      if (at + 12 > begin + size)
        return fail("a truncated note header");
      const char *p = elf.data() + at;
      uint32_t namesz = support::endian::read32le(p),
               descsz = support::endian::read32le(p + 4),
               type = support::endian::read32le(p + 8);
      uint64_t nameAt = at + 12, descAt = nameAt + align4(namesz),
               end = descAt + align4(descsz);
      if (end > begin + size)
        return fail("a note runs past its segment");
      StringRef name(elf.data() + nameAt, namesz);
      notes.push_back({type, name.rtrim('\0'),
                       StringRef(elf.data() + descAt, descsz), at, end});
      at = end;
    }
    std::vector<const Note *> metadata;
    for (const Note &n : notes)
      if (n.name == "AMDGPU" && n.type == kMetadataNoteType)
        metadata.push_back(&n);
    if (metadata.size() < 2)
      continue;
    // Every partition's kernels in one document; the rest (version, target)
    // must agree.
    msgpack::Document doc;
    bool conflict = false;
    auto merger = [&](msgpack::DocNode *dest, msgpack::DocNode src,
                      msgpack::DocNode key) -> int {
      if (src.isMap() && dest->isMap())
        return 0;
      if (src.isArray() && dest->isArray()) {
        if (!key.isEmpty() && key.isString() &&
            key.getString() == "amdhsa.kernels")
          return int(dest->getArray().size());
        return 0; // amdhsa.version: element by element, equal
      }
      if (!src.isArray() && !src.isMap() && !dest->isArray() &&
          !dest->isMap() && src == *dest)
        return 0;
      conflict = true;
      return -1;
    };
    for (const Note *n : metadata)
      if (!wellFormedMetadata(n->desc) ||
          !doc.readFromBlob(n->desc, /*Multi=*/false, merger))
        return fail(conflict ? "the partitions' metadata disagree"
                             : "unreadable MessagePack metadata");
    std::string merged;
    doc.writeToBlob(merged);
    // The other notes as they were, the merged one, a filler of ours.
    std::string out;
    for (const Note &n : notes)
      if (!(n.name == "AMDGPU" && n.type == kMetadataNoteType))
        out.append(elf, n.begin, n.end - n.begin);
    putNote(out, StringRef("AMDGPU\0", 7), kMetadataNoteType, merged);
    uint64_t fillerHeader = 12 + align4(sizeof kFillerOwner);
    if (out.size() + fillerHeader > size)
      return fail("the merged metadata does not fit where the notes were");
    std::string padding(size - out.size() - fillerHeader, '\0');
    putNote(out, StringRef(kFillerOwner, sizeof kFillerOwner), kFillerType,
            padding);
    if (out.size() != size)
      return fail("internal error: the notes changed size");
    std::memcpy(elf.data() + begin, out.data(), size);
  }
  return Error::success();
}
