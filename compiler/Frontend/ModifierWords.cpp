//===- ModifierWords.cpp - The words instructions keep verbatim -----------===//
//
// Each instruction's words per the PTX ISA (9.0), each refused and valid
// form checked against ptxas (CUDA 13; test/Frontend/errors/
// modifier-words.ptx and memory-barrier-forms.ptx).
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/ModifierWords.h"

#include "compiler/Frontend/TargetFeatures.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace mlir;
using namespace zluda::ptx;

namespace zluda::frontend {
namespace {

/// An instruction's words, separated by spaces; a word ending in `::`
/// admits its family (`kind::` admits `kind::f8f6f4`).
struct Vocabulary {
  StringLiteral mnemonic;
  StringLiteral words;
};

constexpr Vocabulary kVocabulary[] = {
    {"prefetch", "tensormap"},
    {"createpolicy", "fractional range cvt global"},
    {"cp.async.bulk", "cp_mask"},
    {"cp.reduce.async.bulk", ""},
    {"cp.async.bulk.tensor",
     "4d 5d tile::gather4 tile::scatter4 im2col::w im2col::w::128 "
     "im2col_no_offs cta_group::1 cta_group::2"},
    {"cp.reduce.async.bulk.tensor", "4d 5d im2col_no_offs"},
    {"cp.async.bulk.prefetch", ""},
    {"cp.async.bulk.prefetch.tensor",
     "4d 5d tile::gather4 im2col::w im2col::w::128"},
    {"tensormap.replace",
     "global_address rank box_dim global_dim global_stride element_stride "
     "elemtype interleave_layout swizzle_mode swizzle_atomicity fill_mode "
     "b1024"},
    {"tensormap.cp_fenceproxy", "tensormap::generic"},
    {"ldmatrix", "b8x16 b6x16_p32 b4x16_p64"},
    {"stmatrix", ""},
    {"tld4", ""},
    {"txq", "level width height depth channel_data_type channel_order "
            "normalized_coords array_size num_mipmap_levels num_samples "
            "force_unnormalized_coords filter_mode addr_mode_0 addr_mode_1 "
            "addr_mode_2"},
    {"suq", "width height depth channel_data_type channel_order array_size "
            "memory_layout"},
    {"membar", "gl"},
    {"fence", "mbarrier_init tensormap::generic async::generic "
              "sync_restrict::shared::cta sync_restrict::shared::cluster"},
    {"mma", "row col and xor popc kind:: block_scale scale_vec:: ue8m0 "
            "ue4m3"},
    {"mma.sp", "row col and xor popc kind:: block_scale scale_vec:: ue8m0 "
               "ue4m3 sp::ordered_metadata"},
    {"wgmma.mma_async", "and popc"},
    {"wgmma.mma_async.sp", ""},
    {"multimem.ld_reduce", "acc::f32 acc::f16"},
    {"multimem.red", "acc::f32 acc::f16"},
    {"clusterlaunchcontrol.try_cancel", "multicast::cluster::all"},
    {"clusterlaunchcontrol.query_cancel",
     "is_canceled get_first_ctaid get_first_ctaid::x get_first_ctaid::y "
     "get_first_ctaid::z"},
    {"pmevent", "mask"},
    {"setmaxnreg", "inc dec"},
    {"griddepcontrol", "launch_dependents wait"},
};

bool knows(StringRef words, StringRef w) {
  SmallVector<StringRef, 16> list;
  words.split(list, ' ', -1, false);
  return llvm::any_of(list, [&](StringRef k) {
    return k == w ||
           (k.ends_with("::") && w.size() > k.size() && w.starts_with(k));
  });
}

std::string flagName(Flag f) { return "." + stringifyFlag(f); }

} // namespace

bool hasExtra(ModifiersAttr mods, StringRef word) {
  ArrayAttr extras = mods ? mods.getExtras() : ArrayAttr();
  return extras && llvm::any_of(extras, [&](Attribute e) {
           return cast<StringAttr>(e).getValue() == word;
         });
}

std::optional<std::string> checkExtraWords(StringRef mnemonic,
                                           ModifiersAttr mods) {
  ArrayAttr extras = mods ? mods.getExtras() : ArrayAttr();
  if (!extras)
    return std::nullopt;
  const Vocabulary *v = llvm::find_if(
      kVocabulary, [&](const Vocabulary &e) { return e.mnemonic == mnemonic; });
  if (v == std::end(kVocabulary))
    return std::nullopt;
  for (auto [i, e] : llvm::enumerate(extras)) {
    StringRef w = cast<StringAttr>(e).getValue();
    if (!knows(v->words, w))
      return ("'" + mnemonic + "' has no modifier ." + w).str();
    // (ptxas: "Multiple .tensormap::generic modifiers specified"; mma's
    // A and B may share a layout, .m8n8k4.row.row.)
    if (!(mnemonic == "mma" && (w == "row" || w == "col")) &&
        llvm::any_of(extras.getValue().take_front(i), [&](Attribute f) {
          return cast<StringAttr>(f).getValue() == w;
        }))
      return ("'" + mnemonic + "' takes ." + w + " once").str();
  }
  return std::nullopt;
}

std::optional<std::string> checkBarrierForms(StringRef mnemonic,
                                             ModifiersAttr mods,
                                             ArrayRef<StringRef> spelled,
                                             unsigned ptxVersion) {
  if ((mnemonic != "membar" && mnemonic != "fence") || !mods)
    return std::nullopt;
  auto says = [&](const Twine &msg) { return msg.str(); };
  std::optional<MemScope> scope = mods.getScope();
  std::optional<MemSemantics> sem = mods.getSem();
  auto extra = [&](StringRef w) { return hasExtra(mods, w); };
  bool proxy = mods.has(Flag::proxy);
  // The proxy fences are written `.proxy` first (ptxas reads
  // `fence.acq_rel.proxy.alias` as "Unknown modifier '.proxy'").
  if (proxy && (spelled.empty() || spelled.front() != "proxy"))
    return says("'" + mnemonic + ".proxy' is written .proxy first");
  // The first flag but `allowed`.
  auto otherFlag = [&](std::initializer_list<Flag> allowed) {
    uint64_t mask = ~uint64_t(0);
    for (Flag f : allowed)
      mask &= ~static_cast<uint64_t>(f);
    return firstFlag(mods, mask);
  };
  if (mnemonic == "membar") {
    if (!mods.getSpaces().empty())
      return says("'membar' takes no state space");
    if (sem)
      return says("'membar' takes no ordering (.sc, .acq_rel: fence's)");
    if (proxy) {
      // membar.proxy.alias is the one proxy membar.
      if (scope || mods.getExtras() || otherFlag({Flag::proxy, Flag::alias}) ||
          !mods.has(Flag::alias))
        return says("'membar.proxy' takes .alias alone");
      return std::nullopt;
    }
    if (std::optional<Flag> f = otherFlag({}))
      return says("'membar' has no modifier " + flagName(*f));
    if (scope && *scope != MemScope::cta && *scope != MemScope::sys)
      return says("'membar' has no level ." + stringifyMemScope(*scope) +
                  " (its levels: .cta, .gl, .sys)");
    if (scope && extra("gl"))
      return says("'membar' takes one level, not ." +
                  stringifyMemScope(*scope) + " and .gl");
    if (!scope && !extra("gl"))
      return says("'membar' needs a level (.cta, .gl or .sys)");
    return std::nullopt;
  }
  // fence.
  if (sem && *sem != MemSemantics::sc && *sem != MemSemantics::acq_rel &&
      *sem != MemSemantics::acquire && *sem != MemSemantics::release)
    return says("'fence' takes no ." + stringifyMemSemantics(*sem) +
                " (its orderings: .sc, .acq_rel, .acquire, .release)");
  // (The proxy kinds are .proxy's: fence.tensormap::generic is not PTX;
  // seed 41.)
  if (!proxy && (extra("tensormap::generic") || extra("async::generic")))
    return says("'fence' names a proxy kind after .proxy");
  bool restricted = extra("sync_restrict::shared::cta") ||
                    extra("sync_restrict::shared::cluster");
  // (ptxas: "Feature '.sync_restrict' requires PTX ISA .version 8.6".)
  if (restricted && ptxVersion < 86)
    return says("'fence' with .sync_restrict needs .version 8.6 or later");
  if (proxy) {
    bool alias = mods.has(Flag::alias), async = mods.has(Flag::async);
    bool tensormap = extra("tensormap::generic"),
         asyncGeneric = extra("async::generic");
    if (alias + async + tensormap + asyncGeneric != 1)
      return says("'fence.proxy' needs one proxy kind (.alias, .async, "
                  ".tensormap::generic or .async::generic)");
    if ((alias || async) && (scope || sem || restricted))
      return says(Twine("'fence.proxy.") + (alias ? "alias" : "async") +
                  "' takes no ordering or scope");
    if (alias && !mods.getSpaces().empty())
      return says("'fence.proxy.alias' takes no state space");
    if (std::optional<Flag> f =
            otherFlag({Flag::proxy, Flag::alias, Flag::async}))
      return says("'fence.proxy' has no modifier " + flagName(*f));
    if ((tensormap || asyncGeneric) && !mods.getSpaces().empty())
      return says(Twine("'fence.proxy.") + (tensormap ? "tensormap" : "async") +
                  "::generic' takes no state space");
    if ((tensormap || asyncGeneric) &&
        (!scope || !sem ||
         (*sem != MemSemantics::acquire && *sem != MemSemantics::release)))
      return says(Twine("'fence.proxy.") + (tensormap ? "tensormap" : "async") +
                  "::generic' needs .acquire or .release and a scope");
    return std::nullopt;
  }
  if (std::optional<Flag> f = otherFlag({}))
    return says("'fence' has no modifier " + flagName(*f));
  if (!mods.getSpaces().empty())
    return says("'fence' takes no state space");
  if (!scope)
    return says("'fence' needs a scope (.cta, .cluster, .gpu or .sys)");
  return std::nullopt;
}

} // namespace zluda::frontend
