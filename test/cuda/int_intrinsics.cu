// Integer intrinsics and integer arithmetic.
//   * bit ops: __brev __brevll __popc __popcll __clz __clzll __ffs __ffsll __byte_perm
//     __funnelshift_l / _r / _lc / _rc
//   * multiply: __umulhi __mulhi __umul64hi __mul64hi __mul24 __umul24, unsigned __int128
//   * __sad __usad, __hadd __rhadd __uhadd, __dp4a / __dp2a_lo / __dp2a_hi (sm_61+)
//   * SIMD-in-a-word: __vadd4 __vabsdiffu4 __vmaxs2 __vcmpgtu4 __vadd2 __vaddss2
//     (add.u16x2/.s16x2 on sm_90)
//   * division / remainder: s32, u32, s64, u64 by runtime and by constant divisors
//   * inline PTX: %laneid, %warpid-free lane math, bfe/bfi, prmt, lop3, clock64()
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <vector>
#include "common.cuh"

enum {
  I_BREV, I_BREVLL_HI, I_POPC, I_POPCLL, I_CLZ, I_CLZLL, I_FFS, I_FFSLL, I_PERM, I_FSHL, I_FSHR,
  I_FSHLC, I_FSHRC, I_UMULHI, I_MULHI, I_UMUL64HI_LO, I_MUL64HI_LO, I_MUL24, I_UMUL24, I_SAD,
  I_USAD, I_HADD, I_RHADD, I_UHADD, I_DP4A, I_DP2ALO, I_DP2AHI, I_VADD4, I_VABSDIFF, I_VMAXS2,
  I_VCMPGT, I_VADD2, I_VADDSS2, I_DIV32, I_REM32, I_UDIV32, I_UREM32, I_DIV64_LO, I_REM64_LO, I_UDIV64_LO,
  I_UREM64_LO, I_DIVC, I_REMC, I_U128_HI, I_LANE, I_BFE, I_BFI, I_PRMT, I_LOP3, I_CLOCK,
  NI
};

__global__ void int_kernel(const unsigned* a, const unsigned* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  int sx = (int)x, sy = (int)y | 1;
  unsigned long long X = ((unsigned long long)x << 32) | y, Y = ((unsigned long long)y << 17) + x + 3;
  long long SX = (long long)X, SY = (long long)(Y | 1) * ((i & 1) ? -1 : 1);
  int* o = out + i * NI;

  o[I_BREV] = (int)__brev(x);
  o[I_BREVLL_HI] = (int)(__brevll(X) >> 32);
  o[I_POPC] = __popc(x);
  o[I_POPCLL] = __popcll(X);
  o[I_CLZ] = __clz((int)(x >> (i % 32)));
  o[I_CLZLL] = __clzll((long long)(X >> (i % 64)));
  o[I_FFS] = __ffs((int)(x & ~((1u << (i % 32)) - 1u)));
  o[I_FFSLL] = __ffsll((long long)X);
  o[I_PERM] = (int)__byte_perm(x, y, 0x5140u + (unsigned)(i & 0x7));
  o[I_FSHL] = (int)__funnelshift_l(x, y, (unsigned)i);
  o[I_FSHR] = (int)__funnelshift_r(x, y, (unsigned)i);
  o[I_FSHLC] = (int)__funnelshift_lc(x, y, (unsigned)i);
  o[I_FSHRC] = (int)__funnelshift_rc(x, y, (unsigned)i);
  o[I_UMULHI] = (int)__umulhi(x, y);
  o[I_MULHI] = __mulhi(sx, sy);
  o[I_UMUL64HI_LO] = (int)__umul64hi(X, Y);
  o[I_MUL64HI_LO] = (int)__mul64hi(SX, SY);
  o[I_MUL24] = __mul24(sx & 0x7fffff, (sy & 0xffff) - 0x8000);
  o[I_UMUL24] = (int)__umul24(x, y);
  o[I_SAD] = (int)__sad(sx >> 4, sy >> 4, 7u);
  o[I_USAD] = (int)__usad(x >> 1, y >> 1, 11u);
  o[I_HADD] = __hadd(sx, sy);
  o[I_RHADD] = __rhadd(sx, sy);
  o[I_UHADD] = (int)__uhadd(x, y);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 610
  o[I_DP4A] = __dp4a(sx, sy, 100);
  o[I_DP2ALO] = (int)__dp2a_lo(x, y, 5u);
  o[I_DP2AHI] = __dp2a_hi(sx, sy, -5);
#else
  o[I_DP4A] = o[I_DP2ALO] = o[I_DP2AHI] = 0;
#endif
  o[I_VADD4] = (int)__vadd4(x, y);
  o[I_VABSDIFF] = (int)__vabsdiffu4(x, y);
  o[I_VMAXS2] = (int)__vmaxs2(x, y);
  o[I_VCMPGT] = (int)__vcmpgtu4(x, y);
  o[I_VADD2] = (int)__vadd2(x, y);
  o[I_VADDSS2] = (int)__vaddss2(x, y);
  o[I_DIV32] = sx / sy;
  o[I_REM32] = sx % sy;
  o[I_UDIV32] = (int)(x / (y | 1u));
  o[I_UREM32] = (int)(x % (y | 1u));
  o[I_DIV64_LO] = (int)(SX / SY);
  o[I_REM64_LO] = (int)(SX % SY);
  o[I_UDIV64_LO] = (int)(X / Y);
  o[I_UREM64_LO] = (int)(X % Y);
  o[I_DIVC] = sx / 7 + (int)(x / 1000u) + (int)(SX / 12345ll);
  o[I_REMC] = sx % 13 + (int)(x % 640u) + (int)(X % 1000003ull);
  unsigned __int128 p = (unsigned __int128)X * Y + (unsigned __int128)x;
  o[I_U128_HI] = (int)(unsigned long long)(p >> 64) ^ (int)(unsigned long long)(p >> 96);

  unsigned lane, bfe, bfi, prmt, lop;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(bfe) : "r"(x), "r"(4u), "r"(12u));
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(bfi) : "r"(y), "r"(x), "r"(8u), "r"(8u));
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(prmt) : "r"(x), "r"(y), "r"(0x3210u ^ 0x0404u));
  asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(lop) : "r"(x), "r"(y), "r"(x ^ y));  // majority
  o[I_LANE] = (int)lane;
  o[I_BFE] = (int)bfe;
  o[I_BFI] = (int)bfi;
  o[I_PRMT] = (int)prmt;
  o[I_LOP3] = (int)lop;
  long long t0 = clock64();
  unsigned spin = x;
  for (int k = 0; k < 8; ++k) spin = spin * 1664525u + 1013904223u;
  long long t1 = clock64();
  o[I_CLOCK] = (t1 >= t0 ? 1 : 0) + (int)(spin & 0);
}

// ---------------- host reference ----------------
static unsigned h_brev(unsigned v) { unsigned r = 0; for (int k = 0; k < 32; ++k) r |= ((v >> k) & 1u) << (31 - k); return r; }
static int h_popc64(unsigned long long v) { int c = 0; while (v) { c += (int)(v & 1); v >>= 1; } return c; }
static int h_clz32(unsigned v) { int c = 0; for (int k = 31; k >= 0 && !((v >> k) & 1); --k) ++c; return c; }
static int h_clz64(unsigned long long v) { int c = 0; for (int k = 63; k >= 0 && !((v >> k) & 1); --k) ++c; return c; }
static int h_ffs64(unsigned long long v) { if (!v) return 0; int k = 1; while (!(v & 1)) { v >>= 1; ++k; } return k; }
static unsigned h_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long t = ((unsigned long long)y << 32) | x; unsigned r = 0;
  for (int k = 0; k < 4; ++k) r |= (unsigned)((t >> (((s >> (4 * k)) & 7) * 8)) & 0xff) << (8 * k);
  return r;
}
static unsigned sel_byte(unsigned v, int k) { return (v >> (8 * k)) & 0xffu; }

int main() {
  const int n = 256;
  std::vector<unsigned> a(n), b(n);
  uint32_t s = 2463534242u;
  auto next = [&]() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; };
  for (int i = 0; i < n; ++i) { a[i] = next(); b[i] = next() >> (i % 7); }
  a[0] = 0; b[1] = 0;
  unsigned *da, *db; int* dout;
  CUDA_CHECK(cudaMalloc(&da, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&db, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dout, n * NI * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(da, a.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, b.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  int_kernel<<<n / 64, 64>>>(da, db, dout, n);
  CUDA_SYNC_CHECK();
  std::vector<int> h(n * NI);
  CUDA_CHECK(cudaMemcpy(h.data(), dout, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  const int cc = device_cc();

  for (int i = 0; i < n; ++i) {
    const int* o = &h[i * NI];
    unsigned x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y | 1;
    unsigned long long X = ((unsigned long long)x << 32) | y, Y = ((unsigned long long)y << 17) + x + 3;
    long long SX = (long long)X, SY = (long long)(Y | 1) * ((i & 1) ? -1 : 1);
    unsigned sh = (unsigned)i & 31u, shc = std::min<unsigned>((unsigned)i, 32u);
    unsigned long long fun = ((unsigned long long)y << 32) | x;
#define CI(idx, want) EXPECT(o[idx] == (int)(want), #idx " i=%d got %08x want %08x", i, (unsigned)o[idx], (unsigned)(want))
    CI(I_BREV, h_brev(x));
    CI(I_BREVLL_HI, h_brev((unsigned)X));
    CI(I_POPC, h_popc64(x)); CI(I_POPCLL, h_popc64(X));
    CI(I_CLZ, h_clz32(x >> (i % 32))); CI(I_CLZLL, h_clz64(X >> (i % 64)));
    CI(I_FFS, h_ffs64(x & ~((1u << (i % 32)) - 1u))); CI(I_FFSLL, h_ffs64(X));
    CI(I_PERM, h_perm(x, y, 0x5140u + (unsigned)(i & 7)));
    CI(I_FSHL, (unsigned)((fun << sh) >> 32)); CI(I_FSHR, (unsigned)(fun >> sh));
    CI(I_FSHLC, (unsigned)((fun << shc) >> 32)); CI(I_FSHRC, (unsigned)(shc == 32 ? (fun >> 32) : (fun >> shc)));
    CI(I_UMULHI, (unsigned)(((unsigned long long)x * y) >> 32));
    CI(I_MULHI, (int)(((long long)sx * sy) >> 32));
    CI(I_UMUL64HI_LO, (unsigned)(unsigned long long)(((unsigned __int128)X * Y) >> 64));
    CI(I_MUL64HI_LO, (unsigned)(unsigned long long)(((__int128)SX * SY) >> 64));
    { int a24 = sx & 0x7fffff, b24 = (sy & 0xffff) - 0x8000; CI(I_MUL24, (int)((long long)a24 * b24)); }
    CI(I_UMUL24, (x & 0xffffffu) * (y & 0xffffffu));
    CI(I_SAD, (unsigned)std::abs((long long)(sx >> 4) - (sy >> 4)) + 7u);
    CI(I_USAD, (unsigned)std::llabs((long long)(x >> 1) - (long long)(y >> 1)) + 11u);
    CI(I_HADD, (int)(((long long)sx + sy) >> 1)); CI(I_RHADD, (int)(((long long)sx + sy + 1) >> 1));
    CI(I_UHADD, (unsigned)(((unsigned long long)x + y) >> 1));
    if (cc >= 61) {
      int d4 = 100, d2l = 0, d2h = 0;
      for (int k = 0; k < 4; ++k) d4 += (int)(signed char)(sx >> (8 * k)) * (int)(signed char)(sy >> (8 * k));
      unsigned u2 = 5u;
      for (int k = 0; k < 2; ++k) u2 += (x >> (16 * k) & 0xffffu) * sel_byte(y, k);
      d2h = -5;
      for (int k = 0; k < 2; ++k) d2h += (int)(short)(sx >> (16 * k)) * (int)(signed char)(sy >> (8 * (k + 2)));
      d2l = (int)u2;
      CI(I_DP4A, d4); CI(I_DP2ALO, d2l); CI(I_DP2AHI, d2h);
    }
    { unsigned r = 0, d = 0, c = 0;
      for (int k = 0; k < 4; ++k) {
        unsigned xa = sel_byte(x, k), yb = sel_byte(y, k);
        r |= ((xa + yb) & 0xffu) << (8 * k);
        d |= (xa > yb ? xa - yb : yb - xa) << (8 * k);
        c |= (xa > yb ? 0xffu : 0u) << (8 * k);
      }
      unsigned m = 0, h = 0, hs = 0;
      for (int k = 0; k < 2; ++k) {
        short xs = (short)(x >> (16 * k)), ys = (short)(y >> (16 * k));
        m |= (unsigned)(unsigned short)std::max(xs, ys) << (16 * k);
        h |= (unsigned)(unsigned short)(xs + ys) << (16 * k);
        int sum = std::min(32767, std::max(-32768, xs + ys));
        hs |= (unsigned)(unsigned short)sum << (16 * k);
      }
      CI(I_VADD4, r); CI(I_VABSDIFF, d); CI(I_VMAXS2, m); CI(I_VCMPGT, c);
      CI(I_VADD2, h); CI(I_VADDSS2, hs); }
    CI(I_DIV32, sx / sy); CI(I_REM32, sx % sy);
    CI(I_UDIV32, x / (y | 1u)); CI(I_UREM32, x % (y | 1u));
    CI(I_DIV64_LO, (unsigned)(SX / SY)); CI(I_REM64_LO, (unsigned)(SX % SY));
    CI(I_UDIV64_LO, (unsigned)(X / Y)); CI(I_UREM64_LO, (unsigned)(X % Y));
    CI(I_DIVC, sx / 7 + (int)(x / 1000u) + (int)(SX / 12345ll));
    CI(I_REMC, sx % 13 + (int)(x % 640u) + (int)(X % 1000003ull));
    { unsigned __int128 p = (unsigned __int128)X * Y + (unsigned __int128)x;
      CI(I_U128_HI, (int)(unsigned long long)(p >> 64) ^ (int)(unsigned long long)(p >> 96)); }
    CI(I_LANE, i % 32);
    CI(I_BFE, (x >> 4) & 0xfffu);
    CI(I_BFI, (x & ~0xff00u) | ((y & 0xffu) << 8));
    CI(I_PRMT, h_perm(x, y, 0x3210u ^ 0x0404u));
    CI(I_LOP3, (x & y) | (x & (x ^ y)) | (y & (x ^ y)));
    CI(I_CLOCK, 1);
#undef CI
  }
  cudaFree(da); cudaFree(db); cudaFree(dout);
  return finish("int_intrinsics");
}
