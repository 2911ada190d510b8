//===- Remote.cpp - A cache shared through an HTTP server or Redis --------===//

#include "compiler/Cache/Remote.h"

#include <curl/curl.h>
#include <hiredis/hiredis.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

using namespace zluda;
using namespace zluda::cache;

RemoteBackend::~RemoteBackend() = default;

/// What a response may weigh at most: far above any code object, far below
/// what would hurt the machine.
static constexpr size_t kMaxEntryBytes = size_t(1) << 30;

/// `url` with the password of its user information (`scheme://user:pw@`)
/// replaced by `***`.
static std::string withoutPassword(const std::string &url) {
  size_t start = url.find("://");
  if (start == std::string::npos)
    return url;
  start += 3;
  size_t at = url.find('@', start);
  size_t slash = url.find('/', start);
  if (at == std::string::npos || (slash != std::string::npos && slash < at))
    return url;
  size_t colon = url.find(':', start);
  size_t from = colon != std::string::npos && colon < at ? colon + 1 : start;
  return url.substr(0, from) + "***" + url.substr(at);
}

std::string cache::humanBytes(uint64_t bytes) {
  const char *units[] = {"B", "kB", "MB", "GB", "TB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1000 && u < 4) {
    v /= 1000;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", v, units[u]);
  return buf;
}

bool cache::verifyRemoteEntry(std::string_view bytes, std::string_view key,
                              std::string_view target, std::string_view chip,
                              Entry &out, std::string &error) {
  if (parseEntry(bytes, out, error) != ReadStatus::ok)
    return false;
  if (out.meta.key != key) {
    error = "holds the entry of another key (" + out.meta.key + ")";
    return false;
  }
  if (out.meta.compilerVersion != compilerVersion()) {
    error = "compiled by another compiler (" + out.meta.compilerVersion + ")";
    return false;
  }
  if ((!target.empty() && out.meta.target != target) ||
      (!chip.empty() && out.meta.chip != chip)) {
    error = "compiled for " + out.meta.target + ":" + out.meta.chip + ", not " +
            std::string(target) + ":" + std::string(chip);
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// HTTP(S): libcurl, one easy handle a connection (kept alive between
// requests).
//===----------------------------------------------------------------------===//

namespace {

class HttpBackend : public RemoteBackend {
public:
  HttpBackend(std::string base, const RemoteOptions &options)
      : base(std::move(base)), options(options) {
    handle = curl_easy_init();
    if (!options.token.empty())
      headers = curl_slist_append(
          nullptr, ("Authorization: Bearer " + options.token).c_str());
  }
  ~HttpBackend() override {
    curl_slist_free_all(headers);
    if (handle)
      curl_easy_cleanup(handle);
  }

  RemoteStatus get(std::string_view key, std::string &bytes,
                   std::string &error) override {
    bytes.clear();
    prepare(key);
    curl_easy_setopt(handle, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, &HttpBackend::append);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &bytes);
    RemoteStatus s = perform(key, error);
    if (s != RemoteStatus::ok)
      bytes.clear();
    return s;
  }

  RemoteStatus exists(std::string_view key, std::string &error) override {
    prepare(key);
    curl_easy_setopt(handle, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, &HttpBackend::discard);
    return perform(key, error);
  }

  RemoteStatus put(std::string_view key, std::string_view bytes,
                   std::string &error) override {
    prepare(key);
    Upload up{bytes, 0};
    curl_easy_setopt(handle, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, &HttpBackend::discard);
    curl_easy_setopt(handle, CURLOPT_READFUNCTION, &HttpBackend::read);
    curl_easy_setopt(handle, CURLOPT_READDATA, &up);
    curl_easy_setopt(handle, CURLOPT_INFILESIZE_LARGE,
                     static_cast<curl_off_t>(bytes.size()));
    return perform(key, error);
  }

private:
  struct Upload {
    std::string_view bytes;
    size_t offset;
  };

  static size_t append(char *data, size_t size, size_t n, void *user) {
    auto *out = static_cast<std::string *>(user);
    if (out->size() + size * n > kMaxEntryBytes)
      return 0; // aborts the transfer
    out->append(data, size * n);
    return size * n;
  }
  static size_t discard(char *, size_t size, size_t n, void *) {
    return size * n;
  }
  static size_t read(char *data, size_t size, size_t n, void *user) {
    auto *up = static_cast<Upload *>(user);
    size_t len = std::min(size * n, up->bytes.size() - up->offset);
    std::copy_n(up->bytes.data() + up->offset, len, data);
    up->offset += len;
    return len;
  }

  void prepare(std::string_view key) {
    curl_easy_reset(handle);
    url =
        base + "/v1/" + std::string(key.substr(0, 2)) + "/" + std::string(key);
    curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                     long(options.connectTimeoutMs));
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS,
                     long(options.transferTimeoutMs));
    curl_easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(kMaxEntryBytes));
    // Redirects are not followed: the key layout is the whole protocol.
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle, CURLOPT_USERAGENT, "zluda-precompile");
    if (headers)
      curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
  }

  RemoteStatus perform(std::string_view key, std::string &error) {
    if (!handle) {
      error = "cannot start libcurl";
      return RemoteStatus::unavailable;
    }
    CURLcode rc = curl_easy_perform(handle);
    if (rc != CURLE_OK) {
      error = withoutPassword(url) + ": " + curl_easy_strerror(rc);
      return RemoteStatus::unavailable;
    }
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    if (code >= 200 && code < 300)
      return RemoteStatus::ok;
    error = withoutPassword(url) + ": HTTP " + std::to_string(code);
    if (code == 404)
      return RemoteStatus::missing;
    if (code == 401 || code == 403)
      return RemoteStatus::denied;
    return RemoteStatus::unavailable;
  }

  std::string base, url;
  RemoteOptions options;
  CURL *handle = nullptr;
  curl_slist *headers = nullptr;
};

//===----------------------------------------------------------------------===//
// Redis: hiredis, one connection each.
//===----------------------------------------------------------------------===//

struct RedisAddress {
  std::string host = "127.0.0.1";
  int port = 6379;
  int db = 0;
  std::string user, password;
};

class RedisBackend : public RemoteBackend {
public:
  RedisBackend(RedisAddress address, const RemoteOptions &options)
      : address(std::move(address)), options(options) {}
  ~RedisBackend() override {
    if (ctx)
      redisFree(ctx);
  }

  RemoteStatus get(std::string_view key, std::string &bytes,
                   std::string &error) override {
    bytes.clear();
    std::string k = redisKey(key);
    redisReply *r = command(error, "GET %b", k.data(), k.size());
    if (!r)
      return status;
    RemoteStatus s = RemoteStatus::ok;
    if (r->type == REDIS_REPLY_NIL)
      s = RemoteStatus::missing;
    else if (r->type == REDIS_REPLY_STRING && size_t(r->len) <= kMaxEntryBytes)
      bytes.assign(r->str, r->len);
    else
      s = unexpected(r, error);
    freeReplyObject(r);
    return s;
  }

  RemoteStatus exists(std::string_view key, std::string &error) override {
    std::string k = redisKey(key);
    redisReply *r = command(error, "EXISTS %b", k.data(), k.size());
    if (!r)
      return status;
    RemoteStatus s =
        r->type == REDIS_REPLY_INTEGER
            ? (r->integer ? RemoteStatus::ok : RemoteStatus::missing)
            : unexpected(r, error);
    freeReplyObject(r);
    return s;
  }

  RemoteStatus put(std::string_view key, std::string_view bytes,
                   std::string &error) override {
    // One SET: Redis applies it whole or not at all.
    std::string k = redisKey(key);
    redisReply *r = command(error, "SET %b %b", k.data(), k.size(),
                            bytes.data(), bytes.size());
    if (!r)
      return status;
    RemoteStatus s =
        r->type == REDIS_REPLY_STATUS ? RemoteStatus::ok : unexpected(r, error);
    freeReplyObject(r);
    return s;
  }

private:
  static std::string redisKey(std::string_view key) {
    return "zluda:v1:" + std::string(key);
  }

  RemoteStatus unexpected(redisReply *r, std::string &error) {
    error = where() + ": " +
            (r->type == REDIS_REPLY_ERROR ? std::string(r->str, r->len)
                                          : "unexpected reply");
    if (r->type == REDIS_REPLY_ERROR &&
        (error.find("NOAUTH") != std::string::npos ||
         error.find("NOPERM") != std::string::npos ||
         error.find("WRONGPASS") != std::string::npos))
      return RemoteStatus::denied;
    return RemoteStatus::unavailable;
  }

  std::string where() const {
    return "redis://" + address.host + ":" + std::to_string(address.port) +
           "/" + std::to_string(address.db);
  }

  /// Connects when needed (and once more after a broken connection);
  /// nullptr with `error` and `status` set on failure.
  template <typename... Args>
  redisReply *command(std::string &error, const char *format, Args... args) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!ctx && !connect(error))
        return nullptr;
      auto *r = static_cast<redisReply *>(redisCommand(ctx, format, args...));
      if (r)
        return r;
      error = where() + ": " + (ctx->errstr[0] ? ctx->errstr : "no reply");
      redisFree(ctx);
      ctx = nullptr;
    }
    status = RemoteStatus::unavailable;
    return nullptr;
  }

  bool connect(std::string &error) {
    timeval tv{long(options.connectTimeoutMs / 1000),
               long(options.connectTimeoutMs % 1000) * 1000};
    ctx = redisConnectWithTimeout(address.host.c_str(), address.port, tv);
    status = RemoteStatus::unavailable;
    if (!ctx || ctx->err) {
      error = where() + ": " + (ctx ? ctx->errstr : "cannot connect");
      if (ctx)
        redisFree(ctx);
      ctx = nullptr;
      return false;
    }
    timeval io{long(options.transferTimeoutMs / 1000),
               long(options.transferTimeoutMs % 1000) * 1000};
    redisSetTimeout(ctx, io);
    auto check = [&](redisReply *r) {
      bool ok = r && r->type != REDIS_REPLY_ERROR;
      if (!ok) {
        error = where() + ": " +
                (r ? std::string(r->str, r->len) : std::string(ctx->errstr));
        if (r)
          status = RemoteStatus::denied;
      }
      if (r)
        freeReplyObject(r);
      return ok;
    };
    bool ok = true;
    if (!address.password.empty())
      ok = address.user.empty()
               ? check(static_cast<redisReply *>(
                     redisCommand(ctx, "AUTH %s", address.password.c_str())))
               : check(static_cast<redisReply *>(
                     redisCommand(ctx, "AUTH %s %s", address.user.c_str(),
                                  address.password.c_str())));
    if (ok && address.db)
      ok = check(static_cast<redisReply *>(
          redisCommand(ctx, "SELECT %d", address.db)));
    if (!ok) {
      redisFree(ctx);
      ctx = nullptr;
    }
    return ok;
  }

  RedisAddress address;
  RemoteOptions options;
  redisContext *ctx = nullptr;
  RemoteStatus status = RemoteStatus::unavailable;
};

/// Parses `redis://[[user]:password@]host[:port][/db]`.
bool parseRedisUrl(std::string_view url, RedisAddress &out,
                   std::string &error) {
  std::string_view rest = url.substr(8);
  size_t at = rest.rfind('@');
  if (at != std::string_view::npos) {
    std::string_view cred = rest.substr(0, at);
    rest = rest.substr(at + 1);
    size_t colon = cred.find(':');
    if (colon == std::string_view::npos) {
      out.password = std::string(cred);
    } else {
      out.user = std::string(cred.substr(0, colon));
      out.password = std::string(cred.substr(colon + 1));
    }
  }
  size_t slash = rest.find('/');
  std::string_view hostPort = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    std::string db(rest.substr(slash + 1));
    char *end = nullptr;
    long n = db.empty() ? 0 : std::strtol(db.c_str(), &end, 10);
    if (!db.empty() && (*end || n < 0 || n > 1 << 20)) {
      error = "bad Redis database number in " + std::string(url);
      return false;
    }
    out.db = int(n);
  }
  size_t colon = hostPort.rfind(':');
  if (colon != std::string_view::npos) {
    std::string port(hostPort.substr(colon + 1));
    char *end = nullptr;
    long n = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end || n <= 0 || n > 65535) {
      error = "bad port in " + std::string(url);
      return false;
    }
    out.port = int(n);
    hostPort = hostPort.substr(0, colon);
  }
  if (!hostPort.empty())
    out.host = std::string(hostPort);
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// RemoteCache
//===----------------------------------------------------------------------===//

RemoteCache::RemoteCache(RemoteOptions options)
    : options(std::move(options)),
      shownUrl(withoutPassword(this->options.url)) {}
RemoteCache::~RemoteCache() = default;

std::unique_ptr<RemoteCache> RemoteCache::open(const RemoteOptions &options,
                                               std::string &error) {
  std::string_view url = options.url;
  if (url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0) {
    size_t hostStart = url.find("//") + 2;
    if (hostStart >= url.size() || url[hostStart] == '/') {
      error = "no host in remote cache URL " + options.url;
      return nullptr;
    }
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  } else if (url.rfind("redis://", 0) == 0) {
    RedisAddress address;
    if (!parseRedisUrl(url, address, error))
      return nullptr;
  } else {
    error = "remote cache URL " + options.url +
            ": expected http://, https:// or redis://";
    return nullptr;
  }
  RemoteOptions o = options;
  while (!o.url.empty() && o.url.back() == '/' &&
         o.url.rfind("redis://", 0) != 0)
    o.url.pop_back();
  return std::unique_ptr<RemoteCache>(new RemoteCache(std::move(o)));
}

std::unique_ptr<RemoteBackend> RemoteCache::connect() {
  if (options.url.rfind("redis://", 0) == 0) {
    RedisAddress address;
    std::string ignored;
    parseRedisUrl(options.url, address, ignored); // checked by open()
    return std::make_unique<RedisBackend>(std::move(address), options);
  }
  return std::make_unique<HttpBackend>(options.url, options);
}

std::unique_ptr<RemoteBackend> RemoteCache::acquire() {
  std::lock_guard<std::mutex> lock(mutex);
  if (idle.empty())
    return connect();
  std::unique_ptr<RemoteBackend> b = std::move(idle.back());
  idle.pop_back();
  return b;
}

void RemoteCache::release(std::unique_ptr<RemoteBackend> backend) {
  std::lock_guard<std::mutex> lock(mutex);
  idle.push_back(std::move(backend));
}

void RemoteCache::turnOff(RemoteStatus status, const std::string &error) {
  off = true;
  if (warned.exchange(true))
    return;
  std::fprintf(
      stderr,
      "zluda-precompile: warning: remote cache %s: %s; going on "
      "with the local cache only\n",
      shownUrl.c_str(),
      (status == RemoteStatus::denied ? "access denied (" + error + ")" : error)
          .c_str());
}

RemoteCache::Fetch RemoteCache::fetch(std::string_view key,
                                      std::string_view target,
                                      std::string_view chip, Entry &out) {
  if (off || !isValidKey(key))
    return Fetch::unavailable;
  std::unique_ptr<RemoteBackend> b = acquire();
  std::string bytes, error;
  RemoteStatus s = b->get(key, bytes, error);
  release(std::move(b));
  switch (s) {
  case RemoteStatus::missing:
    ++count.misses;
    return Fetch::miss;
  case RemoteStatus::unavailable:
  case RemoteStatus::denied:
    turnOff(s, error);
    return Fetch::unavailable;
  case RemoteStatus::ok:
    break;
  }
  count.bytesDown += bytes.size();
  if (!verifyRemoteEntry(bytes, key, target, chip, out, error)) {
    ++count.rejected;
    std::fprintf(stderr,
                 "zluda-precompile: warning: remote cache entry %.*s %s: "
                 "ignored\n",
                 int(key.size()), key.data(), error.c_str());
    return Fetch::rejected;
  }
  ++count.hits;
  return Fetch::hit;
}

bool RemoteCache::store(const Entry &entry, bool skipExisting) {
  if (off || noUploads || options.readOnly || !isValidKey(entry.meta.key))
    return false;
  std::unique_ptr<RemoteBackend> b = acquire();
  std::string error;
  RemoteStatus s = RemoteStatus::missing;
  if (skipExisting)
    s = b->exists(entry.meta.key, error);
  if (s == RemoteStatus::ok) {
    release(std::move(b));
    ++count.alreadyThere;
    return true;
  }
  if (s == RemoteStatus::missing) {
    std::string bytes = serializeEntry(entry);
    s = b->put(entry.meta.key, bytes, error);
    if (s == RemoteStatus::ok) {
      ++count.uploaded;
      count.bytesUp += bytes.size();
    }
  }
  release(std::move(b));
  if (s == RemoteStatus::ok)
    return true;
  if (s == RemoteStatus::denied) {
    // Reading may still be allowed: only uploads stop.
    noUploads = true;
    if (!warnedUpload.exchange(true))
      std::fprintf(stderr,
                   "zluda-precompile: warning: remote cache %s refuses "
                   "uploads (%s); going on without uploading\n",
                   shownUrl.c_str(), error.c_str());
    return false;
  }
  turnOff(s, error);
  return false;
}
