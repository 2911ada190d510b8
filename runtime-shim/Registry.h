//===- Registry.h - The handles the shim has handed out ---------*- C++ -*-===//
//
// Every module, library, function and kernel handle served from the cache is
// recorded here; calls on any other handle go to the real driver. Lookups are
// on the launch path, so the set is split into shards with a reader-writer
// lock each: launches of different kernels do not contend, and no lookup
// waits on another.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_RUNTIME_SHIM_REGISTRY_H
#define ZLUDA_RUNTIME_SHIM_REGISTRY_H

#include <array>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <unordered_set>

namespace zluda::shim {

class Registry {
public:
  void add(const void *handle) {
    if (!handle)
      return;
    Shard &s = shard(handle);
    std::unique_lock<std::shared_mutex> lock(s.mutex);
    s.handles.insert(handle);
  }

  void remove(const void *handle) {
    Shard &s = shard(handle);
    std::unique_lock<std::shared_mutex> lock(s.mutex);
    s.handles.erase(handle);
  }

  bool owns(const void *handle) const {
    if (!handle)
      return false;
    const Shard &s = shard(handle);
    std::shared_lock<std::shared_mutex> lock(s.mutex);
    return s.handles.count(handle) != 0;
  }

private:
  static constexpr size_t kShards = 64;
  struct alignas(64) Shard {
    mutable std::shared_mutex mutex;
    std::unordered_set<const void *> handles;
  };
  static size_t index(const void *handle) {
    uintptr_t v = reinterpret_cast<uintptr_t>(handle);
    return (v >> 4 ^ v >> 12) % kShards;
  }
  Shard &shard(const void *h) { return shards[index(h)]; }
  const Shard &shard(const void *h) const { return shards[index(h)]; }

  std::array<Shard, kShards> shards;
};

} // namespace zluda::shim

#endif // ZLUDA_RUNTIME_SHIM_REGISTRY_H
