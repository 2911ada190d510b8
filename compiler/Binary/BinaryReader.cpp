//===- BinaryReader.cpp - Fatbins of executables, libraries, archives -----===//

#include "compiler/Binary/BinaryReader.h"

#include "llvm/BinaryFormat/COFF.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/COFF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstring>
#include <set>

using namespace llvm;
using namespace zluda;
using namespace zluda::binary;

const char *binary::inputKindName(InputKind kind) {
  switch (kind) {
  case InputKind::ELF:
    return "elf";
  case InputKind::PE:
    return "pe";
  case InputKind::Archive:
    return "archive";
  case InputKind::Fatbin:
    return "fatbin";
  case InputKind::PTX:
    return "ptx";
  case InputKind::Unknown:
    return "unknown";
  }
  return "unknown";
}

bool Input::hasErrors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic &d) { return d.isError; });
}

namespace {

bool looksLikePTX(StringRef text) {
  // PTX text: comments and directives; `.version` near the start.
  StringRef head = text.take_front(64 * 1024);
  if (head.contains('\0'))
    return false;
  size_t v = head.find(".version");
  return v != StringRef::npos && (v == 0 || head[v - 1] == '\n' ||
                                  head[v - 1] == ' ' || head[v - 1] == '\t');
}

class Reader {
public:
  explicit Reader(Input &in) : in(in) {}

  /// Offset in the input file of `p`, a pointer into the file's buffer or
  /// into the copy of an archive member.
  uint64_t offsetOf(const char *p) const {
    for (const Copy &c : copies)
      if (p >= c.start && p <= c.start + c.size)
        return c.fileOffset + static_cast<uint64_t>(p - c.start);
    return static_cast<uint64_t>(p - in.buffer->getBufferStart());
  }

  void error(uint64_t offset, const Twine &msg) {
    in.diagnostics.push_back({offset, msg.str(), true});
  }

  /// Containers of a fatbin byte range lying at `base` in the file.
  void addContainers(StringRef data, StringRef member, StringRef section,
                     bool relocatable) {
    std::vector<fatbin::Container> found;
    auto err = fatbin::scanContainers({data.data(), data.size()}, found);
    for (fatbin::Container &c : found)
      record(std::move(c), data, member, section, relocatable);
    if (err)
      error(offsetOf(data.data()) + err->offset,
            Twine(err->message) + (section.empty() ? "" : " in section ") +
                section);
  }

  void record(fatbin::Container c, StringRef data, StringRef member,
              StringRef section, bool relocatable) {
    uint64_t base = offsetOf(data.data());
    uint64_t fileOffset = base + c.offset;
    if (!seen.insert(fileOffset).second)
      return;
    FoundContainer f;
    f.member = member.str();
    f.section = section.str();
    f.fileOffset = fileOffset;
    f.relocatable = relocatable;
    f.container = std::move(c);
    in.containers.push_back(std::move(f));
  }

  /// PTX modules kept as C strings in `data` (outside the containers'
  /// byte ranges): a NUL-terminated text with `.version`, `.target` and an
  /// `.entry`, starting at a NUL or at the section's start.
  void findEmbeddedPTX(StringRef data,
                       ArrayRef<std::pair<uint64_t, uint64_t>> skip,
                       StringRef member, StringRef section) {
    size_t from = 0;
    while (true) {
      size_t v = data.find(".version", from);
      if (v == StringRef::npos)
        return;
      size_t start = data.rfind('\0', v);
      start = start == StringRef::npos ? 0 : start + 1;
      size_t end = data.find('\0', v);
      if (end == StringRef::npos)
        end = data.size();
      from = end;
      if (llvm::any_of(skip, [&](const std::pair<uint64_t, uint64_t> &r) {
            return start < r.second && end > r.first;
          }))
        continue;
      StringRef text = data.slice(start, end);
      // Only comments and blanks before `.version`; a `.target` and an
      // `.entry` after it.
      StringRef head = text.take_front(v - start);
      bool onlyComments = true;
      for (StringRef line : llvm::split(head, '\n')) {
        line = line.trim();
        if (!line.empty() && !line.starts_with("//"))
          onlyComments = false;
      }
      StringRef rest = text.drop_front(v - start);
      if (!onlyComments || !rest.contains(".target") ||
          !rest.contains(".entry") || !looksLikePTX(text))
        continue;
      EmbeddedPTX e;
      e.member = member.str();
      e.section = section.str();
      e.fileOffset = offsetOf(text.data());
      e.text = text.str();
      in.embeddedPTX.push_back(std::move(e));
    }
  }

  void readObject(object::ObjectFile &obj, StringRef member);
  void readArchive(MemoryBufferRef buf);
  void read(MemoryBufferRef buf, StringRef member);

private:
  struct Copy {
    const char *start;
    size_t size;
    uint64_t fileOffset;
  };
  Input &in;
  std::set<uint64_t> seen;
  std::vector<Copy> copies;
};

struct SectionInfo {
  std::string name;
  uint64_t address = 0, size = 0, fileOffset = 0;
  uint32_t type = 0;
  uint64_t flags = 0;
  StringRef contents;
};

} // namespace

void Reader::readObject(object::ObjectFile &obj, StringRef member) {
  auto *elf = dyn_cast<object::ELFObjectFileBase>(&obj);
  auto *coff = dyn_cast<object::COFFObjectFile>(&obj);
  if (!elf && !coff) {
    error(offsetOf(obj.getData().data()),
          "not an ELF or PE/COFF object: unsupported object format");
    return;
  }
  if (coff && in.kindDetail.empty()) {
    if (!coff->getDOSHeader())
      in.kindDetail = "COFF object";
    else if (coff->getCharacteristics() & COFF::IMAGE_FILE_DLL)
      in.kindDetail = "PE/COFF DLL";
    else
      in.kindDetail = "PE/COFF executable";
  }
  if (in.kindDetail.empty()) {
    switch (elf->getEType()) {
    case ELF::ET_EXEC:
      in.kindDetail = "ELF executable";
      break;
    case ELF::ET_DYN:
      in.kindDetail = "ELF shared object";
      break;
    case ELF::ET_REL:
      in.kindDetail = "ELF relocatable object";
      break;
    default:
      in.kindDetail = "ELF file";
    }
  }
  uint64_t objBase = offsetOf(obj.getData().data());
  std::vector<SectionInfo> sections;
  for (const object::SectionRef &s : obj.sections()) {
    SectionInfo info;
    Expected<StringRef> name = s.getName();
    if (!name) {
      error(objBase, "bad section name: " + toString(name.takeError()));
      return;
    }
    info.name = name->str();
    info.address = s.getAddress();
    info.size = s.getSize();
    if (elf) {
      info.type = object::ELFSectionRef(s).getType();
      info.flags = object::ELFSectionRef(s).getFlags();
    } else {
      // PE/COFF: the ELF terms the searches below use.
      info.type = s.isBSS() ? ELF::SHT_NOBITS : ELF::SHT_PROGBITS;
      info.flags = s.isText() ? ELF::SHF_EXECINSTR : 0;
    }
    if (info.type == ELF::SHT_NOBITS || info.size == 0) {
      sections.push_back(std::move(info));
      continue;
    }
    Expected<StringRef> contents = s.getContents();
    if (!contents) {
      error(objBase,
            "section " + info.name + ": " + toString(contents.takeError()));
      return;
    }
    info.contents = *contents;
    info.fileOffset = offsetOf(contents->data());
    sections.push_back(std::move(info));
  }
  // Overlapping file ranges mean a corrupt or crafted file.
  std::vector<const SectionInfo *> byOffset;
  for (const SectionInfo &s : sections)
    if (!s.contents.empty())
      byOffset.push_back(&s);
  std::sort(byOffset.begin(), byOffset.end(),
            [](const SectionInfo *a, const SectionInfo *b) {
              return a->fileOffset < b->fileOffset;
            });
  for (size_t i = 1; i < byOffset.size(); ++i)
    if (byOffset[i]->fileOffset <
        byOffset[i - 1]->fileOffset + byOffset[i - 1]->size) {
      error(byOffset[i]->fileOffset, "section " + byOffset[i]->name +
                                         " overlaps section " +
                                         byOffset[i - 1]->name);
      return;
    }

  for (const SectionInfo &s : sections) {
    // `.nv_fatb`: Windows' name (PE section names have 8 characters).
    if (s.name == ".nv_fatbin" || s.name == ".nv_fatb")
      addContainers(s.contents, member, s.name, false);
    else if (s.name == "__nv_relfatbin")
      addContainers(s.contents, member, s.name, true);
  }
  // Libraries that load their fatbins themselves (cuFFT, cuSPARSE) keep
  // containers in ordinary data sections, with no wrapper pointing at them.
  for (const SectionInfo &s : sections) {
    if (s.contents.empty() || s.type != ELF::SHT_PROGBITS ||
        (s.flags & ELF::SHF_EXECINSTR) || s.name == ".nv_fatbin" ||
        s.name == ".nv_fatb" || s.name == "__nv_relfatbin" ||
        s.name == ".nvFatBinSegment")
      continue;
    std::vector<fatbin::Container> found;
    fatbin::searchContainers({s.contents.data(), s.contents.size()}, found);
    std::vector<std::pair<uint64_t, uint64_t>> inContainers;
    for (fatbin::Container &c : found) {
      inContainers.push_back({c.offset, c.offset + c.totalSize()});
      record(std::move(c), s.contents, member, s.name, false);
    }
    findEmbeddedPTX(s.contents, inContainers, member, s.name);
  }
  // Wrappers point at fatbins, which may sit in other sections (`.ldata`).
  for (const SectionInfo &seg : sections) {
    if (seg.name != ".nvFatBinSegment" || seg.contents.empty())
      continue;
    std::vector<fatbin::Wrapper> wrappers;
    if (auto err = fatbin::readWrappers(
            {seg.contents.data(), seg.contents.size()}, wrappers))
      error(seg.fileOffset + err->offset, err->message);
    auto resolve = [&](uint64_t address, uint64_t at, bool relocatable) {
      for (const SectionInfo &s : sections) {
        if (s.contents.empty() || address < s.address ||
            address - s.address >= s.contents.size())
          continue;
        StringRef data = s.contents;
        uint64_t off = address - s.address;
        fatbin::Container c;
        if (auto err =
                fatbin::readContainer({data.data(), data.size()}, off, c)) {
          error(s.fileOffset + err->offset, err->message);
          return;
        }
        record(std::move(c), data, member, s.name, relocatable);
        return;
      }
      error(at, "fatbin wrapper points to address 0x" + utohexstr(address) +
                    " outside every section");
    };
    for (const fatbin::Wrapper &w : wrappers) {
      uint64_t at = seg.fileOffset + w.offset;
      if (w.data)
        resolve(w.data, at, false);
      if (w.version != 2 || !w.prelinked)
        continue;
      // v2: a NULL-terminated list of addresses of prelinked fatbins.
      for (const SectionInfo &s : sections) {
        if (s.contents.empty() || w.prelinked < s.address ||
            w.prelinked - s.address >= s.contents.size())
          continue;
        for (uint64_t p = w.prelinked - s.address; p + 8 <= s.contents.size();
             p += 8) {
          uint64_t address;
          std::memcpy(&address, s.contents.data() + p, 8);
          if (!address)
            break;
          resolve(address, s.fileOffset + p, true);
        }
        break;
      }
    }
  }
}

void Reader::readArchive(MemoryBufferRef buf) {
  Expected<std::unique_ptr<object::Archive>> archive =
      object::Archive::create(buf);
  if (!archive) {
    error(0, "bad archive: " + toString(archive.takeError()));
    return;
  }
  Error err = Error::success();
  for (const object::Archive::Child &child : (*archive)->children(err)) {
    Expected<StringRef> name = child.getName();
    Expected<MemoryBufferRef> data = child.getMemoryBufferRef();
    if (!name || !data) {
      consumeError(name.takeError());
      uint64_t at = child.getDataOffset();
      error(at, "bad archive member: " + (data ? std::string("no name")
                                               : toString(data.takeError())));
      continue;
    }
    // LLVM's archive reader trusts some header fields; never read past the
    // archive's own bytes.
    StringRef whole = buf.getBuffer();
    auto inside = [&](StringRef r) {
      return r.data() >= whole.begin() && r.data() + r.size() <= whole.end();
    };
    if (!inside(data->getBuffer()) || !inside(*name)) {
      error(0, "bad archive member: its name or data lies outside the archive");
      continue;
    }
    // Members start at any even offset; LLVM's ELF reader needs aligned
    // data, so each member is read from an aligned copy.
    uint64_t memberOffset = offsetOf(data->getBufferStart());
    std::unique_ptr<MemoryBuffer> copy =
        MemoryBuffer::getMemBufferCopy(data->getBuffer(), *name);
    copies.push_back(
        {copy->getBufferStart(), copy->getBufferSize(), memberOffset});
    MemoryBufferRef ref = copy->getMemBufferRef();
    in.memberBuffers.push_back(std::move(copy));
    read(ref, *name);
  }
  if (err)
    error(0, "bad archive: " + toString(std::move(err)));
}

void Reader::read(MemoryBufferRef buf, StringRef member) {
  StringRef data = buf.getBuffer();
  uint64_t base = offsetOf(data.data());
  // ELF, and PE/COFF: Windows executables and DLLs ("MZ"), x86-64 COFF
  // objects.
  file_magic magic = identify_magic(data);
  bool elf = data.starts_with("\x7f"
                              "ELF");
  if (elf || magic == file_magic::pecoff_executable ||
      magic == file_magic::coff_object) {
    if (member.empty())
      in.kind = elf ? InputKind::ELF : InputKind::PE;
    auto bad = [&](const Twine &why) {
      error(base, (member.empty() ? "" : "member " + member + ": ") + "bad " +
                      (elf ? "ELF" : "PE/COFF") + " file: " + why);
    };
    Expected<std::unique_ptr<object::ObjectFile>> obj =
        object::ObjectFile::createObjectFile(buf);
    if (!obj) {
      bad(toString(obj.takeError()));
      return;
    }
    // An "MZ" image LLVM reads as something else (a damaged PE header).
    auto *coff = dyn_cast<object::COFFObjectFile>(obj->get());
    if (!elf && magic == file_magic::pecoff_executable &&
        (!coff || !coff->getDOSHeader())) {
      bad("its PE header does not read as one");
      return;
    }
    readObject(**obj, member);
    return;
  }
  if (member.empty() && data.starts_with("!<arch>\n")) {
    in.kind = InputKind::Archive;
    in.kindDetail = "ar archive";
    readArchive(buf);
    return;
  }
  if (data.size() >= 4) {
    uint32_t magic;
    std::memcpy(&magic, data.data(), 4);
    if (magic == fatbin::kContainerMagic) {
      if (member.empty()) {
        in.kind = InputKind::Fatbin;
        in.kindDetail = "fatbin";
      }
      addContainers(data, member, "", false);
      return;
    }
  }
  if (!member.empty())
    return; // archive members other than objects (symbol tables...) hold no
            // fatbin
  if (looksLikePTX(data)) {
    in.kind = InputKind::PTX;
    in.kindDetail = "PTX text";
    return;
  }
  in.unrecognized = true;
  error(0, "not an ELF binary, archive, fatbin or PTX file");
}

Input binary::readInput(const std::string &path) {
  Input in;
  in.path = path;
  ErrorOr<std::unique_ptr<MemoryBuffer>> buf =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buf) {
    in.diagnostics.push_back(
        {0, "cannot read: " + buf.getError().message(), true});
    return in;
  }
  return readBuffer(std::move(*buf), path);
}

Input binary::readBuffer(std::unique_ptr<MemoryBuffer> buffer,
                         const std::string &path) {
  Input in;
  in.path = path;
  in.buffer = std::move(buffer);
  Reader reader(in);
  reader.read(in.buffer->getMemBufferRef(), "");
  return in;
}

std::vector<InputPath>
binary::expandPaths(const std::vector<std::string> &paths,
                    std::vector<std::string> &errors) {
  std::vector<InputPath> out;
  std::set<std::pair<uint64_t, uint64_t>> visitedDirs;  // (device, inode)
  std::set<std::pair<uint64_t, uint64_t>> visitedFiles; // same file once
  auto firstVisit = [&](const std::string &file) {
    sys::fs::file_status st;
    if (sys::fs::status(file, st))
      return true; // reported when read
    return visitedFiles
        .insert({st.getUniqueID().getDevice(), st.getUniqueID().getFile()})
        .second;
  };
  std::function<void(const std::string &)> walk = [&](const std::string &dir) {
    sys::fs::file_status st;
    if (sys::fs::status(dir, st))
      return;
    if (!visitedDirs
             .insert({st.getUniqueID().getDevice(), st.getUniqueID().getFile()})
             .second)
      return; // a symlink loop or a directory seen before
    std::error_code ec;
    std::vector<std::string> entries;
    for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      entries.push_back(it->path());
    if (ec)
      errors.push_back(dir + ": " + ec.message());
    std::sort(entries.begin(), entries.end()); // deterministic order
    for (const std::string &e : entries) {
      if (sys::fs::is_directory(e))
        walk(e);
      else if (sys::fs::is_regular_file(e) && firstVisit(e))
        out.push_back({e, true}); // `libfoo.so` -> `libfoo.so.1`: once
    }
  };
  for (const std::string &p : paths) {
    if (sys::fs::is_directory(p))
      walk(p);
    else
      out.push_back({p, false});
  }
  return out;
}

std::vector<std::string> binary::listKernels(std::string_view ptx) {
  std::vector<std::string> names;
  size_t pos = 0;
  while ((pos = ptx.find(".entry", pos)) != std::string_view::npos) {
    pos += 6;
    if (pos < ptx.size() && ptx[pos] != ' ' && ptx[pos] != '\t')
      continue;
    size_t start = ptx.find_first_not_of(" \t", pos);
    if (start == std::string_view::npos)
      break;
    size_t end = start;
    while (end < ptx.size() && (isalnum(static_cast<unsigned char>(ptx[end])) ||
                                ptx[end] == '_' || ptx[end] == '$'))
      ++end;
    // A kernel declared before its definition (nvcc's device runtime
    // library does: kernels whose addresses a table holds) is one kernel.
    if (end > start && std::find(names.begin(), names.end(),
                                 ptx.substr(start, end - start)) == names.end())
      names.emplace_back(ptx.substr(start, end - start));
    pos = end;
  }
  return names;
}

std::vector<std::string> binary::listFunctions(std::string_view ptx,
                                               std::string_view linkage) {
  std::vector<std::string> names;
  auto isIdent = [](char c) {
    return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  };
  for (size_t pos = 0;
       (pos = ptx.find(linkage, pos)) != std::string_view::npos;) {
    pos += linkage.size();
    size_t p = ptx.find_first_not_of(" \t\r\n", pos);
    if (p == std::string_view::npos || ptx.substr(p, 5) != ".func")
      continue;
    p = ptx.find_first_not_of(" \t\r\n", p + 5);
    if (p != std::string_view::npos && ptx[p] == '(') { // the return list
      p = ptx.find(')', p);
      if (p == std::string_view::npos)
        break;
      p = ptx.find_first_not_of(" \t\r\n", p + 1);
    }
    size_t end = p;
    while (end != std::string_view::npos && end < ptx.size() &&
           isIdent(ptx[end]))
      ++end;
    if (p != std::string_view::npos && end > p)
      names.emplace_back(ptx.substr(p, end - p));
    pos = end == std::string_view::npos ? ptx.size() : end;
  }
  return names;
}

std::vector<std::string> zluda::binary::listCubinKernels(std::string_view elf) {
  constexpr uint8_t kCudaEntry = 0x10; // st_other of a kernel's symbol
  std::vector<std::string> names;
  llvm::MemoryBufferRef ref(llvm::StringRef(elf.data(), elf.size()), "cubin");
  auto obj = llvm::object::ObjectFile::createObjectFile(ref);
  if (!obj) {
    llvm::consumeError(obj.takeError());
    return names;
  }
  auto *file = dyn_cast<llvm::object::ELFObjectFileBase>(obj->get());
  if (!file)
    return names;
  for (llvm::object::ELFSymbolRef sym : file->symbols()) {
    if (sym.getELFType() != llvm::ELF::STT_FUNC ||
        !(sym.getOther() & kCudaEntry))
      continue;
    if (auto name = sym.getName())
      names.push_back(name->str());
    else
      llvm::consumeError(name.takeError());
  }
  return names;
}
