//===- PTXEnums.td - Enums of the ptx dialect --------------*- tablegen -*-===//
//
// Every PTX modifier class is a typed enum. Spellings with `::` are kept
// verbatim as the string form; the C++ symbol replaces `::` by `_`.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_DIALECTS_PTX_PTXENUMS_TD
#define ZLUDA_DIALECTS_PTX_PTXENUMS_TD

include "dialects/ptx/PTXDialect.td"

def PTX_TypeKind : I32EnumAttr<"TypeKind", "PTX scalar and packed types", [
    I32EnumAttrCase<"b1", 0, "b1">,
    I32EnumAttrCase<"b4", 1, "b4">,
    I32EnumAttrCase<"b8", 2, "b8">,
    I32EnumAttrCase<"b16", 3, "b16">,
    I32EnumAttrCase<"b32", 4, "b32">,
    I32EnumAttrCase<"b64", 5, "b64">,
    I32EnumAttrCase<"b128", 6, "b128">,
    I32EnumAttrCase<"u4", 7, "u4">,
    I32EnumAttrCase<"u8", 8, "u8">,
    I32EnumAttrCase<"u16", 9, "u16">,
    I32EnumAttrCase<"u32", 10, "u32">,
    I32EnumAttrCase<"u64", 11, "u64">,
    I32EnumAttrCase<"s4", 12, "s4">,
    I32EnumAttrCase<"s8", 13, "s8">,
    I32EnumAttrCase<"s16", 14, "s16">,
    I32EnumAttrCase<"s32", 15, "s32">,
    I32EnumAttrCase<"s64", 16, "s64">,
    I32EnumAttrCase<"f16", 17, "f16">,
    I32EnumAttrCase<"f16x2", 18, "f16x2">,
    I32EnumAttrCase<"bf16", 19, "bf16">,
    I32EnumAttrCase<"bf16x2", 20, "bf16x2">,
    I32EnumAttrCase<"tf32", 21, "tf32">,
    I32EnumAttrCase<"e4m3", 22, "e4m3">,
    I32EnumAttrCase<"e5m2", 23, "e5m2">,
    I32EnumAttrCase<"e4m3x2", 24, "e4m3x2">,
    I32EnumAttrCase<"e5m2x2", 25, "e5m2x2">,
    I32EnumAttrCase<"e2m1", 26, "e2m1">,
    I32EnumAttrCase<"e2m1x2", 27, "e2m1x2">,
    I32EnumAttrCase<"e2m3", 28, "e2m3">,
    I32EnumAttrCase<"e2m3x2", 29, "e2m3x2">,
    I32EnumAttrCase<"e3m2", 30, "e3m2">,
    I32EnumAttrCase<"e3m2x2", 31, "e3m2x2">,
    I32EnumAttrCase<"ue8m0", 32, "ue8m0">,
    I32EnumAttrCase<"ue8m0x2", 33, "ue8m0x2">,
    I32EnumAttrCase<"ue4m3", 34, "ue4m3">,
    I32EnumAttrCase<"f32", 35, "f32">,
    I32EnumAttrCase<"f32x2", 36, "f32x2">,
    I32EnumAttrCase<"f64", 37, "f64">,
    I32EnumAttrCase<"pred", 38, "pred">,
    I32EnumAttrCase<"texref", 39, "texref">,
    I32EnumAttrCase<"samplerref", 40, "samplerref">,
    I32EnumAttrCase<"surfref", 41, "surfref">,
    I32EnumAttrCase<"u16x2", 42, "u16x2">,
    I32EnumAttrCase<"s16x2", 43, "s16x2">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_TypeKindAttr : EnumAttr<PTX_Dialect, PTX_TypeKind, "type">;

def PTX_StateSpace : I32EnumAttr<"StateSpace", "PTX state spaces", [
    I32EnumAttrCase<"reg", 0, "reg">,
    I32EnumAttrCase<"sreg", 1, "sreg">,
    I32EnumAttrCase<"const_", 2, "const">,
    I32EnumAttrCase<"global", 3, "global">,
    I32EnumAttrCase<"local", 4, "local">,
    I32EnumAttrCase<"param", 5, "param">,
    I32EnumAttrCase<"shared", 6, "shared">,
    I32EnumAttrCase<"tex", 7, "tex">,
    I32EnumAttrCase<"generic", 8, "generic">,
    I32EnumAttrCase<"shared_cta", 9, "shared::cta">,
    I32EnumAttrCase<"shared_cluster", 10, "shared::cluster">,
    I32EnumAttrCase<"param_entry", 11, "param::entry">,
    I32EnumAttrCase<"param_func", 12, "param::func">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_StateSpaceAttr : EnumAttr<PTX_Dialect, PTX_StateSpace, "space">;

def PTX_RoundingMode : I32EnumAttr<"RoundingMode", "rounding modifiers of float and integer conversions", [
    I32EnumAttrCase<"rn", 0, "rn">,
    I32EnumAttrCase<"rz", 1, "rz">,
    I32EnumAttrCase<"rm", 2, "rm">,
    I32EnumAttrCase<"rp", 3, "rp">,
    I32EnumAttrCase<"rna", 4, "rna">,
    I32EnumAttrCase<"rs", 5, "rs">,
    I32EnumAttrCase<"rni", 6, "rni">,
    I32EnumAttrCase<"rzi", 7, "rzi">,
    I32EnumAttrCase<"rmi", 8, "rmi">,
    I32EnumAttrCase<"rpi", 9, "rpi">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_RoundingModeAttr : EnumAttr<PTX_Dialect, PTX_RoundingMode, "rnd">;

def PTX_CmpOp : I32EnumAttr<"CmpOp", "comparison operators of setp, set, slct", [
    I32EnumAttrCase<"eq", 0, "eq">,
    I32EnumAttrCase<"ne", 1, "ne">,
    I32EnumAttrCase<"lt", 2, "lt">,
    I32EnumAttrCase<"le", 3, "le">,
    I32EnumAttrCase<"gt", 4, "gt">,
    I32EnumAttrCase<"ge", 5, "ge">,
    I32EnumAttrCase<"lo", 6, "lo">,
    I32EnumAttrCase<"ls", 7, "ls">,
    I32EnumAttrCase<"hi", 8, "hi">,
    I32EnumAttrCase<"hs", 9, "hs">,
    I32EnumAttrCase<"equ", 10, "equ">,
    I32EnumAttrCase<"neu", 11, "neu">,
    I32EnumAttrCase<"ltu", 12, "ltu">,
    I32EnumAttrCase<"leu", 13, "leu">,
    I32EnumAttrCase<"gtu", 14, "gtu">,
    I32EnumAttrCase<"geu", 15, "geu">,
    I32EnumAttrCase<"num", 16, "num">,
    I32EnumAttrCase<"nan", 17, "nan">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_CmpOpAttr : EnumAttr<PTX_Dialect, PTX_CmpOp, "cmp">;

def PTX_BoolOp : I32EnumAttr<"BoolOp", "predicate combining operators of setp and set", [
    I32EnumAttrCase<"and_", 0, "and">,
    I32EnumAttrCase<"or_", 1, "or">,
    I32EnumAttrCase<"xor_", 2, "xor">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_BoolOpAttr : EnumAttr<PTX_Dialect, PTX_BoolOp, "boolop">;

def PTX_CacheOp : I32EnumAttr<"CacheOp", "cache operators of ld, st, prefetch", [
    I32EnumAttrCase<"ca", 0, "ca">,
    I32EnumAttrCase<"cg", 1, "cg">,
    I32EnumAttrCase<"cs", 2, "cs">,
    I32EnumAttrCase<"lu", 3, "lu">,
    I32EnumAttrCase<"cv", 4, "cv">,
    I32EnumAttrCase<"wb", 5, "wb">,
    I32EnumAttrCase<"wt", 6, "wt">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_CacheOpAttr : EnumAttr<PTX_Dialect, PTX_CacheOp, "cache">;

def PTX_MemSemantics : I32EnumAttr<"MemSemantics", "memory-ordering semantics", [
    I32EnumAttrCase<"weak", 0, "weak">,
    I32EnumAttrCase<"relaxed", 1, "relaxed">,
    I32EnumAttrCase<"acquire", 2, "acquire">,
    I32EnumAttrCase<"release", 3, "release">,
    I32EnumAttrCase<"acq_rel", 4, "acq_rel">,
    I32EnumAttrCase<"sc", 5, "sc">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_MemSemanticsAttr : EnumAttr<PTX_Dialect, PTX_MemSemantics, "sem">;

def PTX_MemScope : I32EnumAttr<"MemScope", "memory scopes", [
    I32EnumAttrCase<"cta", 0, "cta">,
    I32EnumAttrCase<"cluster", 1, "cluster">,
    I32EnumAttrCase<"gpu", 2, "gpu">,
    I32EnumAttrCase<"sys", 3, "sys">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_MemScopeAttr : EnumAttr<PTX_Dialect, PTX_MemScope, "scope">;

def PTX_ReduceOp : I32EnumAttr<"ReduceOp", "operations of atom, red, redux, bar.red and multimem", [
    I32EnumAttrCase<"and_", 0, "and">,
    I32EnumAttrCase<"or_", 1, "or">,
    I32EnumAttrCase<"xor_", 2, "xor">,
    I32EnumAttrCase<"cas", 3, "cas">,
    I32EnumAttrCase<"exch", 4, "exch">,
    I32EnumAttrCase<"add", 5, "add">,
    I32EnumAttrCase<"inc", 6, "inc">,
    I32EnumAttrCase<"dec", 7, "dec">,
    I32EnumAttrCase<"min", 8, "min">,
    I32EnumAttrCase<"max", 9, "max">,
    I32EnumAttrCase<"popc", 10, "popc">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_ReduceOpAttr : EnumAttr<PTX_Dialect, PTX_ReduceOp, "redop">;

def PTX_Mode : I32EnumAttr<"Mode", "small per-family mode selectors (shfl, vote, match, prmt, testp, mul, shf, tld4 components)", [
    I32EnumAttrCase<"up", 0, "up">,
    I32EnumAttrCase<"down", 1, "down">,
    I32EnumAttrCase<"bfly", 2, "bfly">,
    I32EnumAttrCase<"idx", 3, "idx">,
    I32EnumAttrCase<"all", 4, "all">,
    I32EnumAttrCase<"any", 5, "any">,
    I32EnumAttrCase<"uni", 6, "uni">,
    I32EnumAttrCase<"ballot", 7, "ballot">,
    I32EnumAttrCase<"f4e", 8, "f4e">,
    I32EnumAttrCase<"b4e", 9, "b4e">,
    I32EnumAttrCase<"rc8", 10, "rc8">,
    I32EnumAttrCase<"ecl", 11, "ecl">,
    I32EnumAttrCase<"ecr", 12, "ecr">,
    I32EnumAttrCase<"rc16", 13, "rc16">,
    I32EnumAttrCase<"finite", 14, "finite">,
    I32EnumAttrCase<"infinite", 15, "infinite">,
    I32EnumAttrCase<"number", 16, "number">,
    I32EnumAttrCase<"notanumber", 17, "notanumber">,
    I32EnumAttrCase<"normal", 18, "normal">,
    I32EnumAttrCase<"subnormal", 19, "subnormal">,
    I32EnumAttrCase<"hi", 20, "hi">,
    I32EnumAttrCase<"lo", 21, "lo">,
    I32EnumAttrCase<"wide", 22, "wide">,
    I32EnumAttrCase<"l", 23, "l">,
    I32EnumAttrCase<"r", 24, "r">,
    I32EnumAttrCase<"g", 25, "g">,
    I32EnumAttrCase<"b", 26, "b">,
    I32EnumAttrCase<"a", 27, "a">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_ModeAttr : EnumAttr<PTX_Dialect, PTX_Mode, "mode">;

def PTX_Geometry : I32EnumAttr<"Geometry", "texture and surface geometries", [
    I32EnumAttrCase<"g1d", 0, "1d">,
    I32EnumAttrCase<"g2d", 1, "2d">,
    I32EnumAttrCase<"g3d", 2, "3d">,
    I32EnumAttrCase<"a1d", 3, "a1d">,
    I32EnumAttrCase<"a2d", 4, "a2d">,
    I32EnumAttrCase<"cube", 5, "cube">,
    I32EnumAttrCase<"acube", 6, "acube">,
    I32EnumAttrCase<"g2dms", 7, "2dms">,
    I32EnumAttrCase<"a2dms", 8, "a2dms">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_GeometryAttr : EnumAttr<PTX_Dialect, PTX_Geometry, "geom">;

def PTX_Linkage : I32EnumAttr<"Linkage", "linkage of kernels, functions and variables", [
    I32EnumAttrCase<"visible", 0, "visible">,
    I32EnumAttrCase<"extern_", 1, "extern">,
    I32EnumAttrCase<"weak", 2, "weak">,
    I32EnumAttrCase<"common", 3, "common">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_LinkageAttr : EnumAttr<PTX_Dialect, PTX_Linkage, "linkage">;

def PTX_Flag : I64BitEnumAttr<"Flag", "boolean instruction modifiers", [
    I64BitEnumAttrCaseNone<"none">,
    I64BitEnumAttrCaseBit<"ftz", 0, "ftz">,
    I64BitEnumAttrCaseBit<"sat", 1, "sat">,
    I64BitEnumAttrCaseBit<"approx", 2, "approx">,
    I64BitEnumAttrCaseBit<"full", 3, "full">,
    I64BitEnumAttrCaseBit<"relu", 4, "relu">,
    I64BitEnumAttrCaseBit<"NaN", 5, "NaN">,
    I64BitEnumAttrCaseBit<"xorsign", 6, "xorsign">,
    I64BitEnumAttrCaseBit<"abs", 7, "abs">,
    I64BitEnumAttrCaseBit<"uni", 8, "uni">,
    I64BitEnumAttrCaseBit<"nc", 9, "nc">,
    I64BitEnumAttrCaseBit<"volatile_", 10, "volatile">,
    I64BitEnumAttrCaseBit<"cc", 11, "cc">,
    I64BitEnumAttrCaseBit<"shiftamt", 12, "shiftamt">,
    I64BitEnumAttrCaseBit<"sync", 13, "sync">,
    I64BitEnumAttrCaseBit<"aligned", 14, "aligned">,
    I64BitEnumAttrCaseBit<"to", 15, "to">,
    I64BitEnumAttrCaseBit<"clamp", 16, "clamp">,
    I64BitEnumAttrCaseBit<"wrap", 17, "wrap">,
    I64BitEnumAttrCaseBit<"zero", 18, "zero">,
    I64BitEnumAttrCaseBit<"trap", 19, "trap">,
    I64BitEnumAttrCaseBit<"arrive", 20, "arrive">,
    I64BitEnumAttrCaseBit<"noftz", 21, "noftz">,
    I64BitEnumAttrCaseBit<"satfinite", 22, "satfinite">,
    I64BitEnumAttrCaseBit<"oob", 23, "oob">,
    I64BitEnumAttrCaseBit<"trans", 24, "trans">,
    I64BitEnumAttrCaseBit<"mmio", 25, "mmio">,
    I64BitEnumAttrCaseBit<"noComplete", 26, "noComplete">,
    I64BitEnumAttrCaseBit<"expect_tx", 27, "expect_tx">,
    I64BitEnumAttrCaseBit<"complete_tx", 28, "complete_tx">,
    I64BitEnumAttrCaseBit<"noinc", 29, "noinc">,
    I64BitEnumAttrCaseBit<"L1_evict_normal", 30, "L1::evict_normal">,
    I64BitEnumAttrCaseBit<"L1_evict_unchanged", 31, "L1::evict_unchanged">,
    I64BitEnumAttrCaseBit<"L1_evict_first", 32, "L1::evict_first">,
    I64BitEnumAttrCaseBit<"L1_evict_last", 33, "L1::evict_last">,
    I64BitEnumAttrCaseBit<"L1_no_allocate", 34, "L1::no_allocate">,
    I64BitEnumAttrCaseBit<"L2_evict_first", 35, "L2::evict_first">,
    I64BitEnumAttrCaseBit<"L2_evict_last", 36, "L2::evict_last">,
    I64BitEnumAttrCaseBit<"L2_evict_normal", 37, "L2::evict_normal">,
    I64BitEnumAttrCaseBit<"L2_evict_unchanged", 38, "L2::evict_unchanged">,
    I64BitEnumAttrCaseBit<"L2_cache_hint", 39, "L2::cache_hint">,
    I64BitEnumAttrCaseBit<"L2_64B", 40, "L2::64B">,
    I64BitEnumAttrCaseBit<"L2_128B", 41, "L2::128B">,
    I64BitEnumAttrCaseBit<"L2_256B", 42, "L2::256B">,
    I64BitEnumAttrCaseBit<"L1", 43, "L1">,
    I64BitEnumAttrCaseBit<"L2", 44, "L2">,
    I64BitEnumAttrCaseBit<"unified", 45, "unified">,
    I64BitEnumAttrCaseBit<"proxy", 46, "proxy">,
    I64BitEnumAttrCaseBit<"async", 47, "async">,
    I64BitEnumAttrCaseBit<"alias", 48, "alias">,
    I64BitEnumAttrCaseBit<"read", 49, "read">,
    I64BitEnumAttrCaseBit<"parity", 50, "parity">,
    I64BitEnumAttrCaseBit<"mbarrier_complete_tx_bytes", 51, "mbarrier::complete_tx::bytes">,
    I64BitEnumAttrCaseBit<"multicast_cluster", 52, "multicast::cluster">,
    I64BitEnumAttrCaseBit<"bulk_group", 53, "bulk_group">,
    I64BitEnumAttrCaseBit<"tile", 54, "tile">,
    I64BitEnumAttrCaseBit<"im2col", 55, "im2col">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}

def PTX_SReg : I32EnumAttr<"SReg", "PTX special registers (%tid, %envreg<n>, WARP_SZ...)", [
    I32EnumAttrCase<"tid", 0, "tid">,
    I32EnumAttrCase<"ntid", 1, "ntid">,
    I32EnumAttrCase<"ctaid", 2, "ctaid">,
    I32EnumAttrCase<"nctaid", 3, "nctaid">,
    I32EnumAttrCase<"laneid", 4, "laneid">,
    I32EnumAttrCase<"warpid", 5, "warpid">,
    I32EnumAttrCase<"nwarpid", 6, "nwarpid">,
    I32EnumAttrCase<"smid", 7, "smid">,
    I32EnumAttrCase<"nsmid", 8, "nsmid">,
    I32EnumAttrCase<"gridid", 9, "gridid">,
    I32EnumAttrCase<"lanemask_eq", 10, "lanemask_eq">,
    I32EnumAttrCase<"lanemask_le", 11, "lanemask_le">,
    I32EnumAttrCase<"lanemask_lt", 12, "lanemask_lt">,
    I32EnumAttrCase<"lanemask_ge", 13, "lanemask_ge">,
    I32EnumAttrCase<"lanemask_gt", 14, "lanemask_gt">,
    I32EnumAttrCase<"clock", 15, "clock">,
    I32EnumAttrCase<"clock_hi", 16, "clock_hi">,
    I32EnumAttrCase<"clock64", 17, "clock64">,
    I32EnumAttrCase<"globaltimer", 18, "globaltimer">,
    I32EnumAttrCase<"globaltimer_lo", 19, "globaltimer_lo">,
    I32EnumAttrCase<"globaltimer_hi", 20, "globaltimer_hi">,
    I32EnumAttrCase<"dynamic_smem_size", 21, "dynamic_smem_size">,
    I32EnumAttrCase<"total_smem_size", 22, "total_smem_size">,
    I32EnumAttrCase<"aggr_smem_size", 23, "aggr_smem_size">,
    I32EnumAttrCase<"reserved_smem_offset_begin", 24, "reserved_smem_offset_begin">,
    I32EnumAttrCase<"reserved_smem_offset_end", 25, "reserved_smem_offset_end">,
    I32EnumAttrCase<"reserved_smem_offset_cap", 26, "reserved_smem_offset_cap">,
    I32EnumAttrCase<"reserved_smem_offset_0", 27, "reserved_smem_offset_0">,
    I32EnumAttrCase<"reserved_smem_offset_1", 28, "reserved_smem_offset_1">,
    I32EnumAttrCase<"envreg", 29, "envreg">,
    I32EnumAttrCase<"pm", 30, "pm">,
    I32EnumAttrCase<"pm_64", 31, "pm_64">,
    I32EnumAttrCase<"clusterid", 32, "clusterid">,
    I32EnumAttrCase<"nclusterid", 33, "nclusterid">,
    I32EnumAttrCase<"cluster_ctaid", 34, "cluster_ctaid">,
    I32EnumAttrCase<"cluster_nctaid", 35, "cluster_nctaid">,
    I32EnumAttrCase<"cluster_ctarank", 36, "cluster_ctarank">,
    I32EnumAttrCase<"cluster_nctarank", 37, "cluster_nctarank">,
    I32EnumAttrCase<"is_explicit_cluster", 38, "is_explicit_cluster">,
    I32EnumAttrCase<"current_graph_exec", 39, "current_graph_exec">,
    I32EnumAttrCase<"WARP_SZ", 40, "WARP_SZ">
  ]> {
  let cppNamespace = "::zluda::ptx";
  let genSpecializedAttr = 0;
}
def PTX_SRegAttr : EnumAttr<PTX_Dialect, PTX_SReg, "sreg_kind">;

#endif // ZLUDA_DIALECTS_PTX_PTXENUMS_TD
