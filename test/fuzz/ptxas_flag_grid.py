#!/usr/bin/env python3
"""Every flag on every instruction form, against ptxas (issue 18, item 1).

The differential fuzzer (ptxas_differential.py) mutates the corpus at random;
this tries, exhaustively, each flag of the ptx dialect's Flag enumeration
(`.ftz`, `.sat`, `.relu`, `.mmio`, `.L2::cache_hint`, ...) written into one
valid form of each instruction that takes flags, and runs each line through
`ptxas -arch=ARCH` and `zluda-precompile compile --emit=none`. It prints
every disagreement: LENIENT (we accept what ptxas refuses, with ptxas's
message) or STRICT (we refuse what ptxas accepts; QUIRK, not counted, for
the quirks refused on purpose), and BASE for a form that
ptxas itself refuses without a flag (a mistake in the table below). Its
first runs (the eighteenth session) found 700 lenient lines: 233 in the
math functions, abs, bfind, bmsk/szext and mad24 (which took any
arithmetic flag: `sin.approx.relu`, `abs.sat.s32`), 107 in movmatrix,
slct, prefetchu, discard, applypriority, ldu (any memory or arithmetic
flag), `min.relu.f32`, `.mmio` without .relaxed.sys, and 360 in the
asynchronous stores, bulk copies and tensor-map forms (any flag); then
76 in wgmma.mma_async.

  python3 test/fuzz/ptxas_flag_grid.py --tool build/bin/zluda-precompile
      [--arch sm_90a] [--jobs 2] [--modifiers] [NAME...]

NAMEs restrict the run to those rows of FORMS. Exit status 1 when anything
disagrees. Deterministic; 5,125 compilations each side (~2 minutes on
two cores).
"""
import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

# One valid form per row; {F} is where the flag goes.
FORMS = {
    'add': 'add{F}.f32 %f1, %f2, %f3;',
    'add.s32': 'add{F}.s32 %r1, %r2, %r3;',
    'sub': 'sub{F}.f32 %f1, %f2, %f3;',
    'mul': 'mul{F}.f32 %f1, %f2, %f3;',
    'mul.lo': 'mul.lo{F}.s32 %r1, %r2, %r3;',
    'mad': 'mad.rn{F}.f32 %f1, %f2, %f3, %f4;',
    'mad.lo': 'mad.lo{F}.s32 %r1, %r2, %r3, %r4;',
    'fma': 'fma.rn{F}.f32 %f1, %f2, %f3, %f4;',
    'fma.f16': 'fma.rn{F}.f16 %rs1, %rs2, %rs3, %rs4;',
    'min': 'min{F}.f32 %f1, %f2, %f3;',
    'min.s32': 'min{F}.s32 %r1, %r2, %r3;',
    'min.f16': 'min{F}.f16 %rs1, %rs2, %rs3;',
    'add.f16': 'add{F}.f16 %rs1, %rs2, %rs3;',
    'sub.bf16': 'sub{F}.bf16 %rs1, %rs2, %rs3;',
    'mul.f16x2': 'mul{F}.f16x2 %r1, %r2, %r3;',
    'add.bf16x2': 'add{F}.bf16x2 %r1, %r2, %r3;',
    'neg': 'neg{F}.f32 %f1, %f2;',
    'div': 'div.rn{F}.f32 %f1, %f2, %f3;',
    'div.approx': 'div.approx{F}.f32 %f1, %f2, %f3;',
    'div.s32': 'div{F}.s32 %r1, %r2, %r3;',
    'rem': 'rem{F}.s32 %r1, %r2, %r3;',
    'rcp': 'rcp.rn{F}.f32 %f1, %f2;',
    'rcp.approx': 'rcp.approx{F}.f32 %f1, %f2;',
    'sqrt': 'sqrt.rn{F}.f32 %f1, %f2;',
    'rsqrt': 'rsqrt.approx{F}.f32 %f1, %f2;',
    'sin': 'sin.approx{F}.f32 %f1, %f2;',
    'cos': 'cos.approx{F}.f32 %f1, %f2;',
    'lg2': 'lg2.approx{F}.f32 %f1, %f2;',
    'ex2': 'ex2.approx{F}.f32 %f1, %f2;',
    'ex2.f16': 'ex2.approx{F}.f16 %rs1, %rs2;',
    'ex2.bf16': 'ex2.approx.ftz{F}.bf16 %rs1, %rs2;',
    'tanh': 'tanh.approx{F}.f32 %f1, %f2;',
    'abs': 'abs{F}.f32 %f1, %f2;',
    'abs.s32': 'abs{F}.s32 %r1, %r2;',
    'abs.f16': 'abs{F}.f16 %rs1, %rs2;',
    'bfind': 'bfind{F}.u32 %r1, %r2;',
    'bmsk': 'bmsk.clamp{F}.b32 %r1, %r2, %r3;',
    'szext': 'szext.wrap{F}.s32 %r1, %r2, %r3;',
    'mad24': 'mad24.lo{F}.s32 %r1, %r2, %r3, %r4;',
    'mul24': 'mul24.lo{F}.s32 %r1, %r2, %r3;',
    'setp': 'setp.lt{F}.f32 %p1, %f2, %f3;',
    'set': 'set.lt{F}.u32.f32 %r1, %f2, %f3;',
    'selp': 'selp{F}.b32 %r1, %r2, %r3, %p1;',
    'slct': 'slct{F}.f32.s32 %f1, %f2, %f3, %r1;',
    'cvt': 'cvt.rn{F}.f16.f32 %rs1, %f1;',
    'cvt.rzi': 'cvt.rzi{F}.s32.f32 %r1, %f1;',
    'cvta': 'cvta.to.global{F}.u64 %rd1, %rd2;',
    'addc': 'addc.cc{F}.u32 %r1, %r2, %r3;',
    'copysign': 'copysign{F}.f32 %f1, %f2, %f3;',
    'testp': 'testp.finite{F}.f32 %p1, %f1;',
    'popc': 'popc{F}.b32 %r1, %r2;',
    'clz': 'clz{F}.b32 %r1, %r2;',
    'brev': 'brev{F}.b32 %r1, %r2;',
    'bfe': 'bfe{F}.u32 %r1, %r2, 1, 2;',
    'bfi': 'bfi{F}.b32 %r1, %r2, %r3, 1, 2;',
    'fns': 'fns{F}.b32 %r1, %r2, %r3, 1;',
    'sad': 'sad{F}.u32 %r1, %r2, %r3, %r4;',
    'dp4a': 'dp4a{F}.u32.u32 %r1, %r2, %r3, %r4;',
    'shl': 'shl{F}.b32 %r1, %r2, 1;',
    'mov': 'mov{F}.b32 %r1, %r2;',
    'and': 'and{F}.b32 %r1, %r2, %r3;',
    'not': 'not{F}.b32 %r1, %r2;',
    'cnot': 'cnot{F}.b32 %r1, %r2;',
    'lop3': 'lop3{F}.b32 %r1, %r2, %r3, %r4, 0x80;',
    'prmt': 'prmt{F}.b32 %r1, %r2, %r3, %r4;',
    'shfl': 'shfl.sync.idx{F}.b32 %r1, %r2, 0, 31, -1;',
    'vote': 'vote.sync.all{F}.pred %p1, %p2, -1;',
    'match': 'match.any.sync{F}.b32 %r1, %r2, -1;',
    'redux': 'redux.sync.add{F}.s32 %r1, %r2, -1;',
    'activemask': 'activemask{F}.b32 %r1;',
    'elect': 'elect.sync{F} %r1|%p1, -1;',
    'bar.sync': 'bar.sync{F} 0;',
    'barrier.sync': 'barrier.sync{F} 0;',
    'bar.arrive': 'bar.arrive{F} 0, 32;',
    'bar.warp.sync': 'bar.warp.sync{F} -1;',
    'membar': 'membar{F}.gl;',
    'fence': 'fence{F}.sc.gpu;',
    'atom': 'atom.global{F}.add.u32 %r1, [%rd1], 1;',
    'red': 'red.global{F}.add.u32 [%rd1], 1;',
    'ld': 'ld.global{F}.u32 %r1, [%rd1];',
    'st': 'st.global{F}.u32 [%rd1], %r1;',
    'ldu': 'ldu.global{F}.u32 %r1, [%rd1];',
    'prefetchu': 'prefetchu.L1{F} [%rd1];',
    'discard': 'discard.global.L2{F} [%rd1], 128;',
    'applypriority': 'applypriority.global.L2::evict_normal{F} [%rd1], 128;',
    'isspacep': 'isspacep.global{F} %p1, %rd1;',
    'mapa': 'mapa.shared::cluster{F}.u32 %r1, %r2, %r3;',
    'getctarank': 'getctarank{F}.u64 %r1, %rd1;',
    'nanosleep': 'nanosleep{F}.u32 10;',
    'cp.async': 'cp.async.ca.shared.global{F} [sh], [%rd1], 4;',
    'cp.async.commit_group': 'cp.async.commit_group{F};',
    'cp.async.wait_group': 'cp.async.wait_group{F} 0;',
    'mbarrier.init': 'mbarrier.init.shared{F}.b64 [sh], 1;',
    'mbarrier.arrive': 'mbarrier.arrive.shared{F}.b64 %rd1, [sh];',
    'mbarrier.test_wait': 'mbarrier.test_wait.shared{F}.b64 %p1, [sh], %rd1;',
    'mbarrier.pending_count': 'mbarrier.pending_count{F}.b64 %r1, %rd1;',
    'ldmatrix': 'ldmatrix.sync.aligned.m8n8.x1{F}.shared.b16 {%r1}, [sh];',
    'stmatrix': 'stmatrix.sync.aligned.m8n8.x1{F}.shared.b16 [sh], {%r1};',
    'movmatrix': 'movmatrix.sync.aligned.m8n8.trans{F}.b16 %r1, %r2;',
    'setmaxnreg': 'setmaxnreg.inc.sync.aligned{F}.u32 64;',
    'griddepcontrol': 'griddepcontrol.wait{F};',
    'tex': 'tex.2d.v4.f32.f32{F} {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];',
    'suld': 'suld.b.2d.v2.b32.trap{F} {%r1, %r2}, [%rd1, {%r3, %r4}];',
    'sust': 'sust.b.2d.v2.b32.trap{F} [%rd1, {%r3, %r4}], {%r1, %r2};',
    'sured': 'sured.b.add.2d.u32.trap{F} [%rd1, {%r3, %r4}], %r1;',
    'suq': 'suq.width{F}.b32 %r1, [%rd1];',
    'txq': 'txq.width{F}.b32 %r1, [%rd1];',
    'fence.proxy': 'fence.proxy.alias{F};',
    'membar.proxy': 'membar.proxy.alias{F};',
    'st.async': 'st.async.shared::cluster.mbarrier::complete_tx::bytes{F}.u32 '
                '[%r1], %r2, [%r3];',
    'red.async': 'red.async.relaxed.cluster.shared::cluster.mbarrier::'
                 'complete_tx::bytes.add{F}.u32 [%r1], %r2, [%r3];',
    'cp.async.bulk': 'cp.async.bulk.shared::cluster.global.mbarrier::'
                     'complete_tx::bytes{F} [sh], [%rd1], 16, [sh];',
    'cp.async.bulk.g2s': 'cp.async.bulk.global.shared::cta.bulk_group{F} '
                         '[%rd1], [sh], 16;',
    'cp.async.bulk.commit_group': 'cp.async.bulk.commit_group{F};',
    'cp.async.bulk.wait_group': 'cp.async.bulk.wait_group{F} 0;',
    'cp.async.bulk.prefetch': 'cp.async.bulk.prefetch.L2.global{F} [%rd1], 16;',
    'cp.async.bulk.tensor': 'cp.async.bulk.tensor.2d.shared::cluster.global.'
                            'tile.mbarrier::complete_tx::bytes{F} [sh], '
                            '[%rd1, {%r1, %r2}], [sh];',
    'cp.reduce.async.bulk': 'cp.reduce.async.bulk.global.shared::cta.'
                            'bulk_group.add{F}.u32 [%rd1], [sh], 16;',
    'cp.async.mbarrier.arrive': 'cp.async.mbarrier.arrive{F}.b64 [sh];',
    'tensormap.cp_fenceproxy': 'tensormap.cp_fenceproxy.global.shared::cta.'
                               'tensormap::generic.release.gpu{F}.sync.aligned '
                               '[%rd1], [sh], 128;',
    'wmma.load': 'wmma.load.a.sync.aligned.row.m16n16k16.global{F}.f16 '
                 '{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];',
    'mma': 'mma.sync.aligned.m16n8k8.row.col{F}.f32.f16.f16.f32 '
           '{%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%f1, %f2, %f3, %f4};',
    'wgmma.fence': 'wgmma.fence.sync.aligned{F};',
    'wgmma.mma_async': 'wgmma.mma_async.sync.aligned.m64n8k16{F}.f32.bf16.bf16 '
                       '{%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;',
    'wgmma.mma_async.sp': 'wgmma.mma_async.sp.sync.aligned.m64n8k32{F}.f32.'
                          'bf16.bf16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %r1, '
                          '0, 1, 1, 1, 0, 0;',
    'mma.sp': 'mma.sp.sync.aligned.m16n8k16.row.col{F}.f32.f16.f16.f32 '
              '{%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3, %r4}, '
              '{%f1, %f2, %f3, %f4}, %r5, 0;',
    'wmma.mma': 'wmma.mma.sync.aligned.row.col.m16n16k16{F}.f32.f32 '
                '{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, '
                '{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, '
                '{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, '
                '{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};',
    'wmma.store': 'wmma.store.d.sync.aligned.row.m16n16k16.global{F}.f32 '
                  '[%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};',
    'tld4': 'tld4.r.2d.v4.f32.f32{F} {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];',
    'isspacep': 'isspacep.shared{F} %p1, %rd1;',
    # Added with ptxas_operand_grid.py (the nineteenth session).
    'vote.ballot': 'vote.sync.ballot{F}.b32 %r1, %p1, -1;',
    'bar.red': 'bar.red.popc{F}.u32 %r1, 0, %p1;',
    'barrier.red': 'barrier.red.and{F}.pred %p1, 0, %p2;',
    'setp.and': 'setp.lt.and{F}.f32 %p1|%p2, %f1, %f2, %p3;',
    'set.and': 'set.lt.and{F}.u32.f32 %r1, %f1, %f2, %p3;',
    'atom.cas': 'atom.global.cas{F}.b32 %r1, [%rd1], %r2, %r3;',
    'atom.shared': 'atom.shared{F}.add.u32 %r1, [sh], 1;',
    'red.v2': 'red.global.v2{F}.f32.add [%rd1], {%f1, %f2};',
    'ld.v2': 'ld.global.v2{F}.u32 {%r1, %r2}, [%rd1];',
    'ld.nc': 'ld.global.nc{F}.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];',
    'st.v4': 'st.global.v4{F}.f32 [%rd1], {%f1, %f2, %f3, %f4};',
    'ld.param': 'ld.param{F}.u64 %rd1, [p];',
    'ld.shared::cluster': 'ld.shared::cluster{F}.u32 %r1, [%r2];',
    'mov.sym': 'mov{F}.u64 %rd1, sh;',
    'mov.pack': 'mov{F}.b64 %rd1, {%r1, %r2};',
    'mov.unpack': 'mov{F}.b64 {%r1, %r2}, %rd1;',
    'mov.pred': 'mov{F}.pred %p1, %p2;',
    'and.pred': 'and{F}.pred %p1, %p2, %p3;',
    'cvt.f16x2': 'cvt.rn{F}.f16x2.f32 %r1, %f1, %f2;',
    'cvt.u64.u32': 'cvt{F}.u64.u32 %rd1, %r1;',
    'cvt.rni': 'cvt.rni{F}.f32.f32 %f1, %f2;',
    'cvt.pack': 'cvt.pack.sat{F}.s8.s32.b32 %r1, %r2, %r3, %r4;',
    'mul.wide': 'mul.wide{F}.s32 %rd1, %r1, %r2;',
    'mad.wide': 'mad.wide{F}.u32 %rd1, %r1, %r2, %rd2;',
    'mul.hi': 'mul.hi{F}.u64 %rd1, %rd2, %rd3;',
    'shf': 'shf.l.wrap{F}.b32 %r1, %r2, %r3, %r4;',
    'shr': 'shr{F}.s32 %r1, %r2, 3;',
    'vadd4': 'vadd4.u32.u32.u32{F} %r1, %r2, %r3, %r4;',
    'vmad': 'vmad.u32.u32.u32{F} %r1, %r2, %r3, %r4;',
    'vset': 'vset.u32.u32.lt{F} %r1, %r2, %r3;',
    'dp2a': 'dp2a.lo{F}.u32.u32 %r1, %r2, %r3, %r4;',
    'prefetch': 'prefetch.global.L2{F} [%rd1];',
    'createpolicy': 'createpolicy.fractional.L2::evict_last{F}.b64 %rd1, 1.0;',
    'createpolicy.range': 'createpolicy.range.L2::evict_last{F}.b64 %rd1, [%rd2], 16, 32;',
    'mbarrier.try_wait': 'mbarrier.try_wait.shared{F}.b64 %p1, [sh], %rd1;',
    'mbarrier.try_wait.parity': 'mbarrier.try_wait.parity.shared{F}.b64 %p1, [sh], %r1;',
    'mbarrier.expect_tx': 'mbarrier.expect_tx.relaxed.cta.shared{F}.b64 [sh], 16;',
    'mbarrier.arrive.expect_tx': 'mbarrier.arrive.expect_tx.shared{F}.b64 %rd1, [sh], 16;',
    'mbarrier.arrive_drop': 'mbarrier.arrive_drop.shared{F}.b64 %rd1, [sh];',
    'mbarrier.inval': 'mbarrier.inval.shared{F}.b64 [sh];',
    'fence.proxy.tensormap': 'fence.proxy.tensormap::generic.acquire.gpu{F} [%rd1], 128;',
    'multimem.ld_reduce': 'multimem.ld_reduce.relaxed.sys.global.add{F}.u32 %r1, [%rd1];',
    'multimem.st': 'multimem.st.relaxed.sys.global{F}.f32 [%rd1], %f1;',
    'multimem.red': 'multimem.red.relaxed.sys.global.add{F}.u32 [%rd1], %r1;',
    'tex.level': 'tex.level.2d.v4.f32.f32{F} {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], %f7;',
    'tex.grad': 'tex.grad.2d.v4.f32.f32{F} {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], {%f7, %f8}, {%f9, %f10};',
    'txq.level': 'txq.level.width{F}.b32 %r1, [%rd1], %r2;',
    'istypep': 'istypep.texref{F} %p1, %rd1;',
    'alloca': 'alloca{F}.u64 %rd1, 16;',
    'stacksave': 'stacksave{F}.u64 %rd1;',
    'stackrestore': 'stackrestore{F}.u64 %rd1;',
    'cp.async.cg': 'cp.async.cg.shared.global{F} [sh], [%rd1], 16;',
    'cp.reduce.async.bulk.tensor': 'cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group{F} [%rd1, {%r1}], [sh];',
    'cp.async.bulk.prefetch.tensor': 'cp.async.bulk.prefetch.tensor.2d.L2.global.tile{F} [%rd1, {%r1, %r2}];',
    'tensormap.replace': 'tensormap.replace.tile.global_address.global.b1024.b64{F} [%rd1], %rd2;',
    'wgmma.wait_group': 'wgmma.wait_group.sync.aligned{F} 0;',
    'pmevent': 'pmevent{F} 1;',
    'rcp.f64': 'rcp.rn{F}.f64 %fd1, %fd2;',
    'popc.b64': 'popc{F}.b64 %r1, %rd1;',
    'bfe.s64': 'bfe{F}.s64 %rd1, %rd2, %r1, %r2;',
    'prmt.f4e': 'prmt.b32.f4e{F} %r1, %r2, %r3, %r4;',
    'shfl.up': 'shfl.sync.up{F}.b32 %r1|%p1, %r2, 1, 0, -1;',
    'match.all': 'match.all.sync{F}.b32 %r1|%p1, %r2, -1;',
    'redux.min': 'redux.sync.min{F}.u32 %r1, %r2, -1;',
    'mapa.u64': 'mapa{F}.u64 %rd1, %rd2, %r1;',
    'getctarank.cluster': 'getctarank.shared::cluster{F}.u32 %r1, %r2;',
    'nanosleep.reg': 'nanosleep{F}.u32 %r1;',
    'bar.sync.count': 'bar.sync{F} 0, 64;',
    'barrier.arrive': 'barrier.arrive{F} 0, 64;',
    'mma.bf16': 'mma.sync.aligned.m16n8k16.row.col{F}.f32.bf16.bf16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};',
    'mma.f64': 'mma.sync.aligned.m8n8k4.row.col{F}.f64.f64.f64.f64 {%fd1, %fd2}, {%fd3}, {%fd4}, {%fd1, %fd2};',
    'mma.s8': 'mma.sync.aligned.m16n8k32.row.col.satfinite{F}.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4};',
    'wmma.load.c': 'wmma.load.c.sync.aligned.row.m16n16k16.global{F}.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd1], 16;',
    'ldmatrix.x4': 'ldmatrix.sync.aligned.m8n8.x4.trans{F}.shared.b16 {%r1, %r2, %r3, %r4}, [sh];',
    'cp.async.bulk.tensor.g2s.1d': 'cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group{F} [%rd1, {%r1}], [sh];',
    'selp.f32': 'selp{F}.f32 %f1, %f2, %f3, %p1;',
    'setp.f64': 'setp.ge{F}.f64 %p1, %fd1, %fd2;',
    'neg.s32': 'neg{F}.s32 %r1, %r2;',
    'xor.b64': 'xor{F}.b64 %rd1, %rd2, %rd3;',
    'sqrt.f64': 'sqrt.rn{F}.f64 %fd1, %fd2;',
    'sad.s32': 'sad{F}.s32 %r1, %r2, %r3, %r4;',
    'st.async.v2': 'st.async.shared::cluster.mbarrier::complete_tx::bytes.v2{F}.u32 [%r1], {%r2, %r3}, [%r4];',
    # Added with --modifiers (the twentieth session).
    'barrier.cluster.arrive': 'barrier.cluster.arrive{F};',
    'barrier.cluster.wait': 'barrier.cluster.wait{F};',
    'cp.async.wait_all': 'cp.async.wait_all{F};',
    'wgmma.commit_group': 'wgmma.commit_group.sync.aligned{F};',
    'trap': 'trap{F};',
    'brkpt': 'brkpt{F};',
    'madc': 'madc.lo{F}.u32 %r1, %r2, %r3, %r4;',
    'subc': 'subc{F}.u32 %r1, %r2, %r3;',
    'max': 'max{F}.s32 %r1, %r2, %r3;',
    'or': 'or{F}.b32 %r1, %r2, %r3;',
    'mbarrier.complete_tx': 'mbarrier.complete_tx.relaxed.cta.shared{F}.b64 [sh], 16;',
    'ld.relaxed': 'ld.relaxed.gpu.global{F}.u32 %r1, [%rd1];',
    'st.release': 'st.release.sys.global{F}.u32 [%rd1], %r1;',
    'atom.acq_rel': 'atom.acq_rel.gpu.global{F}.add.u32 %r1, [%rd1], 1;',
    'fence.acq_rel': 'fence.acq_rel{F}.cluster;',
    'cvta.to': 'cvta.to.global{F}.u64 %rd1, %rd2;',
}
# ptxas quirks we refuse on purpose (docs/frontend.md, "Rejected input"):
# printed as QUIRK, not counted.
QUIRKS = {
    'tex.2d.v4.f32.f32.uni {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];',
    'tld4.r.2d.v4.f32.f32.uni {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];',
    'tex.level.2d.v4.f32.f32.uni {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], '
    '%f7;',
    'tex.grad.2d.v4.f32.f32.uni {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], '
    '{%f7, %f8}, {%f9, %f10};',
    # --modifiers: a mode, layout, scope or vector width where the
    # instruction has none (ptxas reads past them; the twentieth session).
    'bar.sync.any 0;',
    'bar.arrive.any 0, 32;',
    'ldmatrix.sync.aligned.m8n8.x1.row.shared.b16 {%r1}, [sh];',
    'stmatrix.sync.aligned.m8n8.x1.row.shared.b16 [sh], {%r1};',
    'movmatrix.sync.aligned.m8n8.trans.row.b16 %r1, %r2;',
    'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.cta [sh], [%rd1], 16, [sh];',
    'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.cluster [sh], [%rd1], 16, [sh];',
    'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.gpu [sh], [%rd1], 16, [sh];',
    'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.sys [sh], [%rd1], 16, [sh];',
    'cp.async.bulk.global.shared::cta.bulk_group.cta [%rd1], [sh], 16;',
    'cp.async.bulk.global.shared::cta.bulk_group.cluster [%rd1], [sh], 16;',
    'cp.async.bulk.global.shared::cta.bulk_group.gpu [%rd1], [sh], 16;',
    'cp.async.bulk.global.shared::cta.bulk_group.sys [%rd1], [sh], 16;',
    'wmma.load.a.sync.aligned.row.m16n16k16.global.v8.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];',
    'wgmma.mma_async.sync.aligned.m64n8k16.v4.f32.bf16.bf16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;',
    'wgmma.mma_async.sync.aligned.m64n8k16.row.f32.bf16.bf16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;',
    'wgmma.mma_async.sp.sync.aligned.m64n8k32.v4.f32.bf16.bf16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %r1, 0, 1, 1, 1, 0, 0;',
    'wgmma.mma_async.sp.sync.aligned.m64n8k32.row.f32.bf16.bf16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %r1, 0, 1, 1, 1, 0, 0;',
    'bar.red.popc.any.u32 %r1, 0, %p1;',
    'bar.sync.any 0, 64;',
    'ldmatrix.sync.aligned.m8n8.x4.trans.row.shared.b16 {%r1, %r2, %r3, %r4}, [sh];',
}
# The ptx dialect's flags (PTXEnums.td, Flag), each written as PTX spells it.
FLAGS = ['.ftz', '.sat', '.approx', '.full', '.relu', '.NaN', '.xorsign.abs',
         '.abs', '.uni', '.nc', '.volatile', '.cc', '.shiftamt', '.sync',
         '.aligned', '.to', '.clamp', '.wrap', '.noftz', '.satfinite', '.oob',
         '.trans', '.mmio', '.L1::evict_normal', '.L1::evict_last',
         '.L1::no_allocate', '.L2::evict_first', '.L2::evict_last',
         '.L2::evict_normal', '.L2::cache_hint', '.L2::64B', '.L2::128B',
         '.L1', '.L2', '.unified', '.proxy', '.parity', '.noComplete',
         '.expect_tx', '.bulk_group', '.tile', '.im2col']
# With --modifiers, the other kinds of modifier instead (the differential
# fuzzer's seed 55 found `mbarrier.init.shared.shared` and
# `multimem.st.relaxed` without a scope): state spaces, orderings, scopes,
# roundings, reduction operations, cache operators, vector widths,
# comparisons, modes and shapes. Types are left out: ptxas takes `.pred` or
# `.texref` as a second type almost anywhere (docs/frontend.md).
MODIFIERS = ['.global', '.shared', '.shared::cta', '.shared::cluster',
             '.local', '.const', '.param', '.param::entry', '.param::func',
             '.weak', '.relaxed', '.acquire', '.release', '.acq_rel', '.sc',
             '.cta', '.cluster', '.gpu', '.sys', '.rn', '.rz', '.rm', '.rp',
             '.rna', '.rs', '.rni', '.rzi', '.add', '.min', '.max', '.and',
             '.or', '.xor', '.inc', '.dec', '.exch', '.cas', '.popc', '.ca',
             '.cg', '.cs', '.lu', '.cv', '.wb', '.wt', '.v2', '.v4', '.v8',
             '.eq', '.ltu', '.num', '.hi', '.lo', '.wide', '.up', '.any',
             '.l', '.r', '.m16n8k16', '.x4', '.row', '.1d', '.2d']
HEADER = """.version 8.6
.target {arch}
.address_size 64
.visible .entry k(.param .u64 p)
{{
.reg .pred %p<9>; .reg .b16 %rs<9>; .reg .b32 %r<33>; .reg .b64 %rd<33>;
.reg .f32 %f<33>; .reg .f64 %fd<9>; .reg .b128 %q<9>;
.shared .align 8 .b8 sh[1024];
"""


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode == 0, (r.stderr.strip().splitlines() or [''])[0]


def check(args, line):
    with tempfile.NamedTemporaryFile('w', suffix='.ptx', delete=False) as f:
        f.write(HEADER.format(arch=args.arch) + line + '\nret;\n}\n')
        path = f.name
    try:
        ptxas, message = run(['ptxas', '-arch=' + args.arch, path, '-o',
                              os.devnull])
        ours, _ = run([args.tool, 'compile', path, '--emit=none'])
    finally:
        os.unlink(path)
    return line, ptxas, ours, message.split(': ', 1)[-1]


def report(results, every=0):
    """Prints the disagreements (every `every`-th line, from the first, is
    a form's base line, which ptxas must accept); returns their count."""
    disagree = 0
    for i, (line, ptxas, ours, message) in enumerate(results):
        if every and i % every == 0 and not ptxas:
            print('BASE     %s  || %s' % (line, message))
            disagree += 1
        elif ptxas != ours and line in QUIRKS:
            print('QUIRK    %s' % line)
        elif ptxas != ours:
            print('%-8s %s  || %s' % ('LENIENT' if ours else 'STRICT', line,
                                      message))
            disagree += 1
    return disagree


def arguments(doc, extra=None):
    """The grids' command line: the tool, the arch, jobs and FORMS rows
    (and what `extra` adds to the parser)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument('--tool', required=True)
    ap.add_argument('--arch', default='sm_90a')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--modifiers', action='store_true',
                    help='insert the other kinds of modifier (MODIFIERS) '
                         'instead of the flags')
    ap.add_argument('names', nargs='*')
    if extra:
        extra(ap)
    args = ap.parse_args()
    return args, [n for n in FORMS if not args.names or n in args.names]


def run_all(args, lines):
    with ThreadPoolExecutor(args.jobs) as pool:
        return list(pool.map(lambda l: check(args, l), lines))


def main():
    args, rows = arguments(__doc__)
    words = MODIFIERS if args.modifiers else FLAGS
    lines = [FORMS[n].replace('{F}', f) for n in rows for f in [''] + words]
    results = run_all(args, lines)
    disagree = report(results, len(words) + 1)
    print('%d lines (%d forms x %d %s and none), %d disagreements' %
          (len(lines), len(rows), len(words),
           'modifiers' if args.modifiers else 'flags', disagree))
    return 1 if disagree else 0


if __name__ == '__main__':
    sys.exit(main())
