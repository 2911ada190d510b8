//===- Record.cpp - Launches written out for replay elsewhere -------------===//

#include "runtime-shim/Record.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

using namespace zluda::shim;

namespace {

// CUDA's launch `extra` keys.
void *const kParamBufferPointer = reinterpret_cast<void *>(1);
void *const kParamBufferSize = reinterpret_cast<void *>(2);
void *const kParamEnd = reinterpret_cast<void *>(0);

std::string hexBytes(const uint8_t *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

/// A JSON string (names of kernels and programs: printable ASCII as it
/// comes, everything else escaped).
std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string dims(const unsigned (&d)[3]) {
  return "[" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," +
         std::to_string(d[2]) + "]";
}

std::string programName() {
  if (const char *v = std::getenv("ZLUDA_SHIM_RECORD_NAME"); v && *v)
    return v;
  std::string s = program_invocation_short_name;
  for (char &c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
      c = '_';
  return s;
}

bool writeFile(const std::string &path, const std::string &text) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  FILE *f = std::fopen(tmp.c_str(), "wbe");
  if (!f)
    return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = std::fclose(f) == 0 && ok;
  return ok && std::rename(tmp.c_str(), path.c_str()) == 0;
}

} // namespace

uint64_t zluda::shim::envNumber(const char *name, uint64_t dflt) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return dflt;
  char *end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 0);
  return end && !*end ? n : dflt;
}

LaunchShape zluda::shim::shapeOf(unsigned gx, unsigned gy, unsigned gz,
                                 unsigned bx, unsigned by, unsigned bz,
                                 unsigned shmem, CUstream stream, void **params,
                                 void **extra) {
  LaunchShape s;
  s.stream = stream;
  s.grid[0] = gx, s.grid[1] = gy, s.grid[2] = gz;
  s.block[0] = bx, s.block[1] = by, s.block[2] = bz;
  s.shared = shmem;
  s.params = params;
  s.extra = extra;
  return s;
}

LaunchShape zluda::shim::shapeOf(unsigned gx, unsigned gy, unsigned gz,
                                 unsigned bx, unsigned by, unsigned bz,
                                 unsigned shmem, CUstream stream,
                                 void **params) {
  return shapeOf(gx, gy, gz, bx, by, bz, shmem, stream, params, nullptr);
}

LaunchShape zluda::shim::shapeOf(const CUlaunchConfig *c, void **params,
                                 void **extra) {
  LaunchShape s;
  if (c) {
    s = shapeOf(c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX,
                c->blockDimY, c->blockDimZ, c->sharedMemBytes, c->hStream,
                params, extra);
  } else {
    s.params = params;
    s.extra = extra;
  }
  return s;
}

bool zluda::shim::gatherParams(
    const LaunchShape &shape,
    const std::vector<std::pair<size_t, size_t>> &layout,
    std::vector<uint8_t> &out) {
  size_t total = 0;
  for (auto [offset, size] : layout)
    total = std::max(total, offset + size);
  out.assign(total, 0);
  if (shape.extra) {
    const void *buffer = nullptr;
    size_t size = 0;
    for (void **e = shape.extra; *e != kParamEnd; e += 2) {
      if (e[0] == kParamBufferPointer)
        buffer = e[1];
      else if (e[0] == kParamBufferSize)
        size = *static_cast<size_t *>(e[1]);
      else
        return false;
    }
    if (!buffer || size < total)
      return false;
    std::memcpy(out.data(), buffer, total);
    return true;
  }
  if (!layout.empty() && !shape.params)
    return false;
  for (size_t i = 0; i < layout.size(); ++i)
    std::memcpy(out.data() + layout[i].first, shape.params[i],
                layout[i].second);
  return true;
}

RecordLimits RecordLimits::fromEnvironment() {
  RecordLimits l;
  l.perKernel =
      unsigned(envNumber("ZLUDA_SHIM_RECORD_PER_KERNEL", l.perKernel));
  l.bytes = size_t(envNumber("ZLUDA_SHIM_RECORD_MAX_BYTES", l.bytes));
  l.threads = envNumber("ZLUDA_SHIM_RECORD_MAX_THREADS", l.threads);
  return l;
}

std::unique_ptr<Recorder> Recorder::open(const std::string &dir,
                                         std::string &error) {
  for (const std::string &d : {dir, dir + "/modules"})
    if (mkdir(d.c_str(), 0777) != 0 && errno != EEXIST) {
      error = "cannot make " + d + ": " + std::strerror(errno);
      return nullptr;
    }
  std::string stem = programName() + "." + std::to_string(getpid());
  std::string path = dir + "/" + stem + ".jsonl";
  FILE *f = std::fopen(path.c_str(), "ae");
  if (!f) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  setvbuf(f, nullptr, _IOLBF, 0);
  return std::unique_ptr<Recorder>(new Recorder(dir, f, stem));
}

Recorder::Recorder(std::string d, FILE *f, std::string s)
    : dir(std::move(d)), stem(std::move(s)), index(f),
      limits(RecordLimits::fromEnvironment()) {}

Recorder::~Recorder() { std::fclose(index); }

void Recorder::line(const std::string &json) {
  std::fputs(json.c_str(), index);
  std::fputc('\n', index);
}

std::string Recorder::refusal(const std::string &kernelKey,
                              const LaunchShape &shape, size_t bytes,
                              bool hasPTX) {
  if (!hasPTX)
    return "the module has no PTX (a linked image)";
  uint64_t threads = uint64_t(shape.grid[0]) * shape.grid[1] * shape.grid[2] *
                     shape.block[0] * shape.block[1] * shape.block[2];
  if (threads > limits.threads)
    return std::to_string(threads) + " threads, over the limit of " +
           std::to_string(limits.threads);
  if (bytes > limits.bytes)
    return std::to_string(bytes) + " bytes of memory, over the limit of " +
           std::to_string(limits.bytes);
  for (auto &[key, count] : perKernel)
    if (key == kernelKey) {
      if (count >= limits.perKernel)
        return "the kernel's first " + std::to_string(limits.perKernel) +
               " launches were recorded";
      ++count;
      return "";
    }
  perKernel.emplace_back(kernelKey, 1);
  return "";
}

void Recorder::module(const std::string &sha256, const std::string &ptx) {
  if (!modules.insert(sha256).second)
    return;
  std::string path = dir + "/modules/" + sha256 + ".ptx";
  if (access(path.c_str(), F_OK) != 0)
    writeFile(path, ptx);
}

void Recorder::launch(unsigned number, const std::string &kernel,
                      const std::string &ptxSha256, const LaunchShape &shape,
                      const std::vector<uint8_t> &params,
                      const std::vector<std::pair<size_t, size_t>> &layout,
                      const std::vector<RecordedRegion> &regions,
                      const std::vector<std::vector<uint8_t>> &before,
                      const std::vector<std::vector<uint8_t>> &after,
                      bool deterministic) {
  std::string data = stem + "." + std::to_string(++files) + ".bin";
  std::string blob;
  std::string changed = "[";
  for (size_t i = 0; i < regions.size(); ++i)
    blob.append(reinterpret_cast<const char *>(before[i].data()),
                before[i].size());
  for (size_t i = 0; i < regions.size(); ++i) {
    bool differs = after[i] != before[i];
    changed += std::string(i ? "," : "") + (differs ? "true" : "false");
    if (differs)
      blob.append(reinterpret_cast<const char *>(after[i].data()),
                  after[i].size());
  }
  changed += "]";
  if (!writeFile(dir + "/" + data, blob)) {
    skipped(number, kernel, shape, "cannot write " + data);
    return;
  }
  std::string r = "[";
  for (size_t i = 0; i < regions.size(); ++i) {
    const RecordedRegion &g = regions[i];
    r += i ? "," : "";
    r += g.global.empty() ? "{\"addr\":" + std::to_string(g.addr) +
                                ",\"bytes\":" + std::to_string(g.bytes) +
                                ",\"host\":" + (g.host ? "true" : "false") + "}"
                          : "{\"global\":" + quoted(g.global) +
                                ",\"bytes\":" + std::to_string(g.bytes) + "}";
  }
  r += "]";
  std::string l = "[";
  for (size_t i = 0; i < layout.size(); ++i)
    l += (i ? ",[" : "[") + std::to_string(layout[i].first) + "," +
         std::to_string(layout[i].second) + "]";
  l += "]";
  line("{\"program\":" + quoted(stem.substr(0, stem.rfind('.'))) +
       ",\"launch\":" + std::to_string(number) +
       ",\"kernel\":" + quoted(kernel) + ",\"ptx_sha256\":\"" + ptxSha256 +
       "\",\"grid\":" + dims(shape.grid) + ",\"block\":" + dims(shape.block) +
       ",\"shared\":" + std::to_string(shape.shared) + ",\"params\":\"" +
       hexBytes(params.data(), params.size()) + "\",\"layout\":" + l +
       ",\"regions\":" + r + ",\"changed\":" + changed + ",\"deterministic\":" +
       (deterministic ? "true" : "false") + ",\"data\":" + quoted(data) + "}");
}

void Recorder::skipped(unsigned number, const std::string &kernel,
                       const LaunchShape &shape, const std::string &why) {
  line("{\"program\":" + quoted(stem.substr(0, stem.rfind('.'))) +
       ",\"launch\":" + std::to_string(number) +
       ",\"kernel\":" + quoted(kernel) + ",\"grid\":" + dims(shape.grid) +
       ",\"block\":" + dims(shape.block) + ",\"skipped\":" + quoted(why) + "}");
}
