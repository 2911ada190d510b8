"""What ptxas makes of a source operand written with an offset (`%r1+4`,
`%rd1+16`, `sym+8`, `%r1+-7`; ptxas rejects `%r1-7`): loads the PTX with the driver's JIT through CuPy, runs
it, prints the values stored (expected: the value plus the offset)."""
import cupy as cp

PTX = r'''
.version 8.0
.target sm_80
.address_size 64
.global .u32 arr[4];
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 5;
  st.global.u32 [%rd1], %r1+4;
  st.global.u64 [%rd1+8], %rd1+16;
  add.u32 %r2, %r1+1, 3;
  st.global.u32 [%rd1+4], %r2;
  mov.u64 %rd2, arr;
  st.global.u64 [%rd1+16], arr+8;
  st.global.u64 [%rd1+24], %rd2;
  st.global.u32 [%rd1+32], %r1+-7;
  ret;
}
'''
m = cp.cuda.function.Module()
m.load(PTX.encode())
buf = cp.zeros(5, dtype=cp.uint64)
m.get_function('k')((1,), (1,), (buf,))
v = buf.get()
p = buf.data.ptr
print('operand offsets on NVIDIA:')
print('  %r1+4 (r1=5):', int(v[0]) & 0xffffffff, '(expected 9)')
print('  add.u32 %r2, %r1+1, 3:', int(v[0]) >> 32, '(expected 9)')
print('  %rd1+16 - p:', int(v[1]) - p, '(expected 16)')
print('  (arr+8) - arr:', int(v[2]) - int(v[3]), '(expected 8)')
print('  %r1+-7:', int(v[4]) & 0xffffffff, '(expected 4294967294)')
