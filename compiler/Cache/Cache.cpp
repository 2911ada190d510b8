//===- Cache.cpp - The content-addressed code-object cache ----------------===//

#include "compiler/Cache/Cache.h"
#include "compiler/Cache/FastHash.h"
#include "compiler/Cache/Sha256.h"
#include "compiler/Cache/Version.inc"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <random>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace zluda::cache;

namespace {

// Version 2 checksums with XXH3-128; version 1 (SHA-256) is still read, so
// that `cache verify` and `prune` understand entries of earlier compilers.
constexpr std::string_view magic = "ZLUDA-CACHE-ENTRY 2\n";
constexpr std::string_view magicV1 = "ZLUDA-CACHE-ENTRY 1\n";

std::string errnoText(const std::string &what) {
  return what + ": " + std::strerror(errno);
}

bool makeDir(const std::string &path, std::string &error) {
  if (mkdir(path.c_str(), 0755) == 0 || errno == EEXIST)
    return true;
  error = errnoText("cannot create " + path);
  return false;
}

bool makeDirs(const std::string &path, std::string &error) {
  for (size_t pos = 1; (pos = path.find('/', pos)) != std::string::npos; ++pos)
    if (!makeDir(path.substr(0, pos), error))
      return false;
  return makeDir(path, error);
}

bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    data.remove_prefix(size_t(n));
  }
  return true;
}

bool readFile(const std::string &path, std::string &out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  out.clear();
  char buf[1 << 16];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) != 0) {
    if (n < 0) {
      if (errno == EINTR)
        continue;
      ::close(fd);
      return false;
    }
    out.append(buf, size_t(n));
  }
  ::close(fd);
  return true;
}

void fsyncDir(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

bool isLowerHex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
}

/// Metadata values are one line each.
std::string oneLine(std::string_view v) {
  std::string s(v);
  std::replace(s.begin(), s.end(), '\n', '?');
  return s;
}

} // namespace

std::string_view zluda::cache::compilerVersion() {
  return ZLUDA_COMPILER_VERSION;
}

std::string zluda::cache::computeKey(const KeyInputs &in) {
  // A versioned, unambiguous text: one field a line, the PTX by its hash.
  std::string text = "zluda-cache-key 1\n";
  auto field = [&](std::string_view name, std::string_view value) {
    text.append(name).append("=").append(oneLine(value)).append("\n");
  };
  field("ptx-sha256",
        in.ptxSha256.empty() ? Sha256::hex(in.ptx) : in.ptxSha256);
  field("target", in.target);
  field("chip", in.chip);
  field("features", in.features);
  field("code-object",
        in.target == "amdgpu" ? std::to_string(in.codeObjectVersion) : "-");
  field("compiler", in.compilerVersion);
  field("options", in.options);
  return Sha256::hex(text);
}

std::string zluda::cache::defaultCacheDir() {
  if (const char *dir = std::getenv("ZLUDA_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.zluda/cache";
  return "";
}

unsigned zluda::cache::defaultCodeObjectVersion(std::string_view chip) {
  constexpr std::string_view generic = "-generic";
  std::string_view processor = chip.substr(0, chip.find(':'));
  bool isGeneric =
      processor.size() >= generic.size() &&
      processor.substr(processor.size() - generic.size()) == generic;
  return isGeneric ? 6 : 5;
}

std::vector<std::string>
zluda::cache::targetIdLookupOrder(std::string_view targetId) {
  // "gfx942:sramecc+:xnack-" -> the processor and its settings; each
  // setting left out is a code object built for either mode.
  std::string_view processor = targetId.substr(0, targetId.find(':'));
  std::vector<std::string> settings;
  for (size_t at = processor.size(); at < targetId.size();) {
    size_t end = targetId.find(':', at + 1);
    if (end == std::string_view::npos)
      end = targetId.size();
    settings.emplace_back(targetId.substr(at, end - at)); // ":xnack-"
    at = end;
  }
  std::vector<std::string> order;
  // Every subset of the settings, the fullest first; among subsets of one
  // size, the ones keeping the earlier settings first.
  size_t n = settings.size();
  for (size_t kept = n + 1; kept-- > 0;)
    for (unsigned mask = (1u << n); mask-- > 0;) {
      if (static_cast<size_t>(__builtin_popcount(mask)) != kept)
        continue;
      std::string id(processor);
      for (size_t i = 0; i < n; ++i)
        if (mask >> (n - 1 - i) & 1)
          id += settings[i];
      order.push_back(std::move(id));
    }
  return order;
}

std::string zluda::cache::moduleKey(std::string_view ptx,
                                    std::string_view target,
                                    std::string_view chip,
                                    unsigned codeObjectVersion) {
  return moduleKeyOfPtxHash(Sha256::hex(ptx), target, chip, codeObjectVersion);
}

std::string zluda::cache::linkedImageHash(std::string_view containerSha256) {
  return "linked-image:" + std::string(containerSha256);
}

std::string zluda::cache::moduleKeyOfPtxHash(std::string_view ptxSha256,
                                             std::string_view target,
                                             std::string_view chip,
                                             unsigned codeObjectVersion,
                                             std::string_view options) {
  KeyInputs key;
  key.options = std::string(options);
  key.ptxSha256 = std::string(ptxSha256);
  key.target = std::string(target);
  key.chip = std::string(chip);
  key.codeObjectVersion =
      codeObjectVersion ? codeObjectVersion : defaultCodeObjectVersion(chip);
  key.compilerVersion = std::string(compilerVersion());
  return computeKey(key);
}

bool zluda::cache::isValidKey(std::string_view key) {
  return key.size() == 64 && isLowerHex(key);
}

bool zluda::cache::isEntryFileName(std::string_view bucket,
                                   std::string_view file) {
  return file.size() == 64 + 4 && file.substr(64) == ".zce" &&
         isValidKey(file.substr(0, 64)) && file.substr(0, 2) == bucket;
}

namespace {

/// Whether `path` is there as a regular file: missing, corrupt (a
/// directory, a link...: never followed) with `error`, or nullopt (there).
std::optional<ReadStatus> regularFile(const std::string &path,
                                      std::string &error) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0)
    return ReadStatus::missing;
  if (!S_ISREG(st.st_mode)) {
    error = "not a regular file";
    return ReadStatus::corrupt;
  }
  return std::nullopt;
}

/// Writes `bytes` to `final` through a uniquely named file in `tmpDir`
/// (named after `stem`) and a rename, fsynced first when `sync`; nothing is
/// left behind on failure.
bool writeThroughTmp(const std::string &tmpDir, std::string_view stem,
                     const std::string &final, std::string_view bytes,
                     bool sync, std::string &error) {
  std::random_device rd;
  std::string tmp = tmpDir + "/" + std::string(stem) + "." +
                    std::to_string(getpid()) + "." + std::to_string(rd());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = errnoText("cannot create " + tmp);
    return false;
  }
  bool ok = writeAll(fd, bytes) && (!sync || ::fsync(fd) == 0);
  if (!ok)
    error = errnoText("cannot write " + tmp);
  ::close(fd);
  if (ok && ::rename(tmp.c_str(), final.c_str()) != 0) {
    error = errnoText("cannot rename " + tmp + " to " + final);
    ok = false;
  }
  if (!ok)
    ::unlink(tmp.c_str());
  return ok;
}

} // namespace

bool zluda::cache::isValidImageKey(std::string_view key) {
  return key.size() == 32 && isLowerHex(key);
}

bool zluda::cache::isImageFileName(std::string_view bucket,
                                   std::string_view file) {
  return file.size() == 32 + 4 && file.substr(32) == ".zci" &&
         isValidImageKey(file.substr(0, 32)) && file.substr(0, 2) == bucket;
}

namespace {

constexpr std::string_view imageMagic = "ZLUDA-CACHE-IMAGE 1\n";

/// The names `isName` accepts in the two-hex-digit buckets under `top`, less
/// their `suffixLength`-character suffix, sorted.
std::vector<std::string>
bucketedNames(const std::string &top, size_t suffixLength,
              bool (*isName)(std::string_view, std::string_view)) {
  std::vector<std::string> out;
  DIR *dir = opendir(top.c_str());
  if (!dir)
    return out;
  while (dirent *b = readdir(dir)) {
    std::string bucket = b->d_name;
    if (bucket.size() != 2)
      continue;
    DIR *d = opendir((top + "/" + bucket).c_str());
    if (!d)
      continue;
    while (dirent *f = readdir(d)) {
      std::string name = f->d_name;
      if (isName(bucket, name))
        out.push_back(name.substr(0, name.size() - suffixLength));
    }
    closedir(d);
  }
  closedir(dir);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

std::string zluda::cache::imageIndexKey(std::string_view imageBytes) {
  return xxh128Hex(imageBytes);
}

std::string zluda::cache::serializeImageRecord(const ImageRecord &record) {
  std::string body = "compiler " + oneLine(record.compilerVersion) + "\n";
  body += "image-bytes " + std::to_string(record.imageBytes) + "\n";
  body += std::string(record.linked ? "linked " : "ptx ") +
          oneLine(record.moduleHash) + "\n";
  std::string out(imageMagic);
  out += body;
  out += "xxh3-128 " + xxh128Hex(out) + "\n";
  return out;
}

ReadStatus zluda::cache::parseImageRecord(std::string_view bytes,
                                          ImageRecord &out,
                                          std::string &error) {
  auto corrupt = [&](const std::string &why) {
    error = why;
    return ReadStatus::corrupt;
  };
  if (bytes.substr(0, imageMagic.size()) != imageMagic)
    return corrupt("not an image record (bad magic)");
  size_t sumAt = bytes.rfind("xxh3-128 ");
  if (sumAt == std::string_view::npos || bytes.back() != '\n' ||
      (sumAt && bytes[sumAt - 1] != '\n'))
    return corrupt("truncated or malformed record");
  if (xxh128Hex(bytes.substr(0, sumAt)) !=
      bytes.substr(sumAt + 9, bytes.size() - sumAt - 10))
    return corrupt("checksum mismatch");
  ImageRecord r;
  std::string_view body =
      bytes.substr(imageMagic.size(), sumAt - imageMagic.size());
  bool sized = false;
  while (!body.empty()) {
    size_t eol = body.find('\n');
    std::string_view l = body.substr(0, eol);
    body.remove_prefix(eol + 1);
    size_t sp = l.find(' ');
    std::string_view name = l.substr(0, sp);
    std::string value(sp == std::string_view::npos ? "" : l.substr(sp + 1));
    if (name == "compiler") {
      r.compilerVersion = value;
    } else if (name == "image-bytes") {
      r.imageBytes = std::strtoull(value.c_str(), nullptr, 10);
      sized = true;
    } else if (name == "ptx" || name == "linked") {
      r.linked = name == "linked";
      r.moduleHash = value;
    }
  }
  if (!sized || r.moduleHash.empty())
    return corrupt("incomplete record");
  out = std::move(r);
  return ReadStatus::ok;
}

std::string zluda::cache::serializeEntry(const Entry &entry) {
  const EntryMeta &m = entry.meta;
  std::string meta;
  auto line = [&](std::string_view name, std::string_view value) {
    meta.append(name).append(" ").append(oneLine(value)).append("\n");
  };
  line("key", m.key);
  line("target", m.target);
  line("chip", m.chip);
  line("code-object", std::to_string(m.codeObjectVersion));
  line("compiler", m.compilerVersion);
  line("ptx-sha256", m.ptxSha256);
  for (const std::string &k : m.kernels)
    line("kernel", k);
  for (const std::string &k : m.missingKernels)
    line("missing-kernel", k);
  for (const std::string &s : m.sources)
    line("source", s);
  if (!m.error.empty())
    line("error", m.error);
  for (const auto &[reason, n] : m.reasons)
    line("reason", std::to_string(n) + " " + reason);
  for (const auto &[kernel, why] : m.whyMissing)
    line("why", oneLine(kernel) + "\t" + why);
  std::string out(magic);
  out += "meta-bytes " + std::to_string(meta.size()) + "\n";
  out += "object-bytes " + std::to_string(entry.object.size()) + "\n";
  out += "xxh3-128 " + xxh128Hex(meta, entry.object) + "\n\n";
  out += meta;
  out += entry.object;
  return out;
}

namespace {

/// Where an entry's parts lie, from its header.
struct EntryLayout {
  bool v1 = false; ///< SHA-256, not XXH3-128
  uint64_t headerBytes = 0, metaBytes = 0, objectBytes = 0;
  std::string sum;
};

/// Reads the header at the start of `bytes`.
ReadStatus parseEntryHeader(std::string_view bytes, EntryLayout &l,
                            std::string &error) {
  auto corrupt = [&](const std::string &why) {
    error = why;
    return ReadStatus::corrupt;
  };
  size_t all = bytes.size();
  l.v1 = bytes.substr(0, magicV1.size()) == magicV1;
  if (!l.v1 && bytes.substr(0, magic.size()) != magic)
    return corrupt("not a cache entry (bad magic)");
  bytes.remove_prefix(magic.size());
  auto header = [&](std::string_view name, std::string &value) {
    size_t eol = bytes.find('\n');
    if (eol == std::string_view::npos ||
        bytes.substr(0, name.size() + 1) != std::string(name) + " ")
      return false;
    value = std::string(bytes.substr(name.size() + 1, eol - name.size() - 1));
    bytes.remove_prefix(eol + 1);
    return true;
  };
  std::string metaBytes, objectBytes;
  if (!header("meta-bytes", metaBytes) ||
      !header("object-bytes", objectBytes) ||
      !header(l.v1 ? "sha256" : "xxh3-128", l.sum) ||
      bytes.substr(0, 1) != "\n")
    return corrupt("truncated or malformed header");
  l.headerBytes = all - bytes.size() + 1;
  l.metaBytes = std::strtoull(metaBytes.c_str(), nullptr, 10);
  l.objectBytes = std::strtoull(objectBytes.c_str(), nullptr, 10);
  return ReadStatus::ok;
}

/// Whether the parts make the entry `l` describes: sizes, checksum.
bool checkEntryParts(const EntryLayout &l, uint64_t fileBytes,
                     std::string_view meta, std::string_view object,
                     std::string &error) {
  if (l.metaBytes > fileBytes - l.headerBytes ||
      l.objectBytes != fileBytes - l.headerBytes - l.metaBytes ||
      meta.size() != l.metaBytes || object.size() != l.objectBytes) {
    error = "size mismatch (truncated entry?)";
    return false;
  }
  std::string actual;
  if (l.v1) {
    Sha256 sha;
    sha.update(meta);
    sha.update(object);
    actual = Sha256::toHex(sha.finish());
  } else {
    actual = xxh128Hex(meta, object);
  }
  if (actual != l.sum) {
    error = "checksum mismatch";
    return false;
  }
  return true;
}

/// The metadata lines of a checked entry.
EntryMeta parseEntryMeta(std::string_view meta) {
  EntryMeta m;
  while (!meta.empty()) {
    size_t eol = meta.find('\n');
    std::string_view l = meta.substr(0, eol);
    meta.remove_prefix(eol == std::string_view::npos ? meta.size() : eol + 1);
    size_t sp = l.find(' ');
    std::string_view name = l.substr(0, sp);
    std::string value(sp == std::string_view::npos ? "" : l.substr(sp + 1));
    if (name == "key")
      m.key = value;
    else if (name == "target")
      m.target = value;
    else if (name == "chip")
      m.chip = value;
    else if (name == "code-object")
      m.codeObjectVersion = unsigned(std::strtoul(value.c_str(), nullptr, 10));
    else if (name == "compiler")
      m.compilerVersion = value;
    else if (name == "ptx-sha256")
      m.ptxSha256 = value;
    else if (name == "kernel")
      m.kernels.push_back(value);
    else if (name == "missing-kernel")
      m.missingKernels.push_back(value);
    else if (name == "source")
      m.sources.push_back(value);
    else if (name == "error")
      m.error = value;
    else if (name == "reason") {
      size_t sp2 = value.find(' ');
      if (sp2 != std::string::npos)
        m.reasons.emplace_back(
            value.substr(sp2 + 1),
            unsigned(std::strtoul(value.c_str(), nullptr, 10)));
    } else if (name == "why") {
      size_t tab = value.find('\t');
      if (tab != std::string::npos)
        m.whyMissing.emplace_back(value.substr(0, tab), value.substr(tab + 1));
    }
  }
  return m;
}

} // namespace

ReadStatus zluda::cache::parseEntry(std::string_view bytes, Entry &out,
                                    std::string &error) {
  EntryLayout l;
  if (parseEntryHeader(bytes, l, error) != ReadStatus::ok)
    return ReadStatus::corrupt;
  std::string_view rest =
      bytes.substr(std::min<size_t>(l.headerBytes, bytes.size()));
  std::string_view meta =
      rest.substr(0, std::min<size_t>(l.metaBytes, rest.size()));
  std::string_view object = rest.substr(meta.size());
  if (l.headerBytes > bytes.size() ||
      !checkEntryParts(l, bytes.size(), meta, object, error))
    return ReadStatus::corrupt;
  out.meta = parseEntryMeta(meta);
  out.object.assign(object);
  return ReadStatus::ok;
}

Cache::Cache(std::string dir) : dir(std::move(dir)) {
  while (this->dir.size() > 1 && this->dir.back() == '/')
    this->dir.pop_back();
}

bool Cache::open(std::string &error) {
  return makeDirs(dir + "/v1/entries", error) &&
         makeDirs(dir + "/v1/tmp", error);
}

std::string Cache::entryPath(std::string_view key) const {
  return dir + "/v1/entries/" + std::string(key.substr(0, 2)) + "/" +
         std::string(key) + ".zce";
}

ReadStatus Cache::read(std::string_view key, Entry &out,
                       std::string &error) const {
  std::string path = entryPath(key);
  if (std::optional<ReadStatus> s = regularFile(path, error))
    return *s;
  // The header first, then the metadata and the object each straight into
  // its own string: the object is copied once, from the page cache (the
  // runtime shim reads an entry at every load it serves).
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  struct stat st;
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    error = std::string("cannot read it: ") + std::strerror(errno);
    if (fd >= 0)
      ::close(fd);
    return ReadStatus::corrupt;
  }
  uint64_t fileBytes = uint64_t(st.st_size);
  auto readAt = [&](uint64_t offset, std::string &into) {
    for (size_t done = 0; done < into.size();) {
      ssize_t n = ::pread(fd, into.data() + done, into.size() - done,
                          off_t(offset + done));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        error = n < 0 ? std::string("cannot read it: ") + std::strerror(errno)
                      : "size mismatch (truncated entry?)";
        return false;
      }
      done += size_t(n);
    }
    return true;
  };
  EntryLayout l;
  std::string head(std::min<uint64_t>(fileBytes, 4096), '\0'), meta, object;
  bool ok = readAt(0, head) &&
            parseEntryHeader(head, l, error) == ReadStatus::ok &&
            l.metaBytes <= fileBytes - l.headerBytes &&
            l.objectBytes == fileBytes - l.headerBytes - l.metaBytes;
  if (ok) {
    meta.resize(l.metaBytes);
    object.resize(l.objectBytes);
    ok = readAt(l.headerBytes, meta) &&
         readAt(l.headerBytes + l.metaBytes, object) &&
         checkEntryParts(l, fileBytes, meta, object, error);
  } else if (error.empty()) {
    error = "size mismatch (truncated entry?)";
  }
  ::close(fd);
  if (!ok)
    return ReadStatus::corrupt;
  out.meta = parseEntryMeta(meta);
  out.object = std::move(object);
  if (out.meta.key != key) {
    error = "entry holds another key";
    return ReadStatus::corrupt;
  }
  return ReadStatus::ok;
}

bool Cache::write(const Entry &entry, std::string &error) const {
  const std::string &key = entry.meta.key;
  if (!isValidKey(key)) {
    error = "invalid key '" + key + "'";
    return false;
  }
  std::string bucket = dir + "/v1/entries/" + key.substr(0, 2);
  if (!makeDir(bucket, error))
    return false;
  if (!writeThroughTmp(dir + "/v1/tmp", key, entryPath(key),
                       serializeEntry(entry), /*sync=*/true, error))
    return false;
  fsyncDir(bucket);
  return true;
}

int Cache::lockKey(std::string_view key) const {
  if (!isValidKey(key))
    return -1;
  std::string locks = dir + "/v1/locks", error;
  if (!makeDirs(locks, error))
    return -1;
  std::string path = locks + "/" + std::string(key) + ".lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return -1;
  while (::flock(fd, LOCK_EX) != 0)
    if (errno != EINTR) {
      ::close(fd);
      return -1;
    }
  return fd;
}

void Cache::unlockKey(std::string_view key, int lock) const {
  if (lock < 0)
    return;
  // Unlinked while held: a process that opens the name afterwards locks a
  // new file at once and finds the entry when it checks the cache again.
  ::unlink((dir + "/v1/locks/" + std::string(key) + ".lock").c_str());
  ::close(lock);
}

void Cache::markUsed(std::string_view key) const {
  ::utimensat(AT_FDCWD, entryPath(key).c_str(), nullptr, 0);
}

void Cache::remove(std::string_view key) const {
  // Whatever stands there: a file, or a directory made in its place.
  std::error_code ec;
  std::filesystem::remove_all(entryPath(key), ec);
}

std::string Cache::imagePath(std::string_view indexKey) const {
  return dir + "/v1/images/" + std::string(indexKey.substr(0, 2)) + "/" +
         std::string(indexKey) + ".zci";
}

ReadStatus Cache::readImage(std::string_view indexKey, ImageRecord &out,
                            std::string &error) const {
  std::string bytes, path = imagePath(indexKey);
  if (std::optional<ReadStatus> s = regularFile(path, error))
    return *s;
  if (!readFile(path, bytes)) {
    error = std::string("cannot read it: ") + std::strerror(errno);
    return ReadStatus::corrupt;
  }
  return parseImageRecord(bytes, out, error);
}

bool Cache::writeImage(std::string_view indexKey, const ImageRecord &record,
                       std::string &error) const {
  if (!isValidImageKey(indexKey)) {
    error = "invalid image index key '" + std::string(indexKey) + "'";
    return false;
  }
  std::string bytes = serializeImageRecord(record), have,
              final = imagePath(indexKey);
  if (readFile(final, have) && have == bytes)
    return true;
  std::string bucket = dir + "/v1/images/" + std::string(indexKey.substr(0, 2));
  if (!makeDirs(bucket, error))
    return false;
  return writeThroughTmp(dir + "/v1/tmp", indexKey, final, bytes,
                         /*sync=*/false, error);
}

void Cache::removeImage(std::string_view indexKey) const {
  std::error_code ec;
  std::filesystem::remove_all(imagePath(indexKey), ec);
}

std::vector<std::string> Cache::keys() const {
  return bucketedNames(dir + "/v1/entries", 4, isEntryFileName);
}

std::vector<std::string> Cache::imageKeys() const {
  return bucketedNames(dir + "/v1/images", 4, isImageFileName);
}

unsigned Cache::removeStaleTemporaries(unsigned minAgeSeconds) const {
  std::string tmpDir = dir + "/v1/tmp";
  DIR *d = opendir(tmpDir.c_str());
  if (!d)
    return 0;
  unsigned removed = 0;
  time_t now = time(nullptr);
  while (dirent *f = readdir(d)) {
    std::string name = f->d_name;
    if (name == "." || name == "..")
      continue;
    std::string path = tmpDir + "/" + name;
    struct stat st;
    if (stat(path.c_str(), &st) == 0 && now - st.st_mtime >= minAgeSeconds &&
        ::unlink(path.c_str()) == 0)
      ++removed;
  }
  closedir(d);
  return removed;
}

std::vector<Cache::LayoutProblem>
Cache::layoutProblems(unsigned staleSeconds) const {
  std::vector<LayoutProblem> out;
  auto kind = [](const std::string &path) -> char {
    struct stat st;
    if (lstat(path.c_str(), &st) != 0)
      return 0;
    return S_ISDIR(st.st_mode) ? 'd' : S_ISREG(st.st_mode) ? 'f' : 'o';
  };
  auto names = [](const std::string &path) {
    std::vector<std::string> list;
    if (DIR *d = opendir(path.c_str())) {
      while (dirent *e = readdir(d))
        if (std::string_view(e->d_name) != "." &&
            std::string_view(e->d_name) != "..")
          list.push_back(e->d_name);
      closedir(d);
    }
    return list;
  };
  std::string v1 = dir + "/v1";
  for (const std::string &name : names(v1)) {
    std::string path = v1 + "/" + name;
    char k = kind(path);
    bool dirName = name == "entries" || name == "images" || name == "tmp" ||
                   name == "locks";
    bool fileName = name == "lock" || name == "manifest.json";
    if (dirName && k != 'd')
      out.push_back({path, "not a directory"});
    else if (fileName && k != 'f')
      out.push_back({path, "not a regular file"});
    else if (!dirName && !fileName)
      out.push_back({path, "not part of a cache"});
  }
  // Entry files (and records) that are not regular files are corrupt,
  // which reading reports; here, names that are no entry's or record's.
  auto buckets = [&](const std::string &top, const std::string &bucketWhy,
                     const std::string &fileWhy,
                     bool (*isName)(std::string_view, std::string_view)) {
    for (const std::string &bucket : names(top)) {
      std::string path = top + "/" + bucket;
      if (bucket.size() != 2 || !isLowerHex(bucket)) {
        out.push_back({path, bucketWhy});
        continue;
      }
      if (kind(path) != 'd') {
        out.push_back({path, "not a directory"});
        continue;
      }
      for (const std::string &name : names(path))
        if (!isName(bucket, name))
          out.push_back({path + "/" + name, fileWhy});
    }
  };
  buckets(v1 + "/entries", "not a bucket of entries", "not an entry file",
          isEntryFileName);
  buckets(v1 + "/images", "not a bucket of image records",
          "not an image record file", isImageFileName);
  time_t now = time(nullptr);
  std::string tmp = v1 + "/tmp";
  for (const std::string &name : names(tmp)) {
    std::string path = tmp + "/" + name;
    struct stat st;
    if (lstat(path.c_str(), &st) == 0 && now - st.st_mtime >= staleSeconds)
      out.push_back({path, "left by a writer that did not finish"});
  }
  std::sort(out.begin(), out.end(),
            [](const LayoutProblem &a, const LayoutProblem &b) {
              return a.path < b.path;
            });
  return out;
}
